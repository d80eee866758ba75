/*
 * picture.c: demo.png. Left, the world from above (shaded by height, the
 * crates and the lift on top) with the trails of the first mobs; right, a
 * side view through the staircase with the climber's box every few frames.
 */
#include <math.h>
#include <stdlib.h>

#include "demo.h"
#include "png.h"

enum { MAP_PX = 3, MAP_W = SX * MAP_PX, MAP_H = SZ * MAP_PX };
enum { SIDE_PX = 28, SIDE_W = 22 * SIDE_PX, SIDE_H = MAP_H, GAP = 12 };
enum { IMG_W = MAP_W + GAP + SIDE_W, IMG_H = MAP_H };

static uint8_t img[IMG_H][IMG_W][3];

static void pixel(int x, int y, uint32_t rgb, float alpha) {
    if (x < 0 || y < 0 || x >= IMG_W || y >= IMG_H) {
        return;
    }
    const float c[3] = {(float)((rgb >> 16) & 255), (float)((rgb >> 8) & 255), (float)(rgb & 255)};
    for (int k = 0; k < 3; ++k) {
        img[y][x][k] = (uint8_t)((float)img[y][x][k] * (1.0f - alpha) + c[k] * alpha + 0.5f);
    }
}

static void rect(int x0, int y0, int x1, int y1, uint32_t rgb, float alpha) {
    for (int y = y0; y < y1; ++y) {
        for (int x = x0; x < x1; ++x) {
            pixel(x, y, rgb, alpha);
        }
    }
}

static void line(float x0, float y0, float x1, float y1, uint32_t rgb, float alpha) {
    const float len = fmaxf(fabsf(x1 - x0), fabsf(y1 - y0));
    const int n = (int)len + 1;
    for (int i = 0; i <= n; ++i) {
        const float t = (float)i / (float)n;
        pixel((int)(x0 + (x1 - x0) * t), (int)(y0 + (y1 - y0) * t), rgb, alpha);
    }
}

static void outline(int x0, int y0, int x1, int y1, uint32_t rgb, float alpha) {
    line((float)x0, (float)y0, (float)x1, (float)y0, rgb, alpha);
    line((float)x0, (float)y1, (float)x1, (float)y1, rgb, alpha);
    line((float)x0, (float)y0, (float)x0, (float)y1, rgb, alpha);
    line((float)x1, (float)y0, (float)x1, (float)y1, rgb, alpha);
}

static uint32_t shade(uint32_t rgb, float f) {
    uint32_t out = 0;
    for (int k = 0; k < 3; ++k) {
        float c = (float)((rgb >> (16 - 8 * k)) & 255) * f;
        c = c > 255.0f ? 255.0f : c;
        out |= (uint32_t)c << (16 - 8 * k);
    }
    return out;
}

static uint32_t hue(float h) {
    const float r = 0.5f + 0.5f * cosf(6.2831853f * h);
    const float g = 0.5f + 0.5f * cosf(6.2831853f * (h - 0.333f));
    const float b = 0.5f + 0.5f * cosf(6.2831853f * (h - 0.667f));
    return ((uint32_t)(r * 255) << 16) | ((uint32_t)(g * 255) << 8) | (uint32_t)(b * 255);
}

static uint32_t kind_color(int kind) {
    switch (kind) {
    case V_DIRT:
        return 0x5E9E3Eu;
    case V_STONE:
        return 0x8C8C94u;
    case V_SLAB:
        return 0x8CC060u;
    case V_STAIR:
        return 0xC8A060u;
    case V_WALL:
        return 0x555560u;
    case V_FENCE:
        return 0x7A4E2Au;
    default:
        return 0x000000u;
    }
}

static void draw_map(shove3_world *w) {
    for (int z = 0; z < SZ; ++z) {
        for (int x = 0; x < SX; ++x) {
            const int h = map.height[z * SX + x];
            const int kind = h > 0 ? vget(x, h - 1, z) : V_AIR;
            /* light from the north-west: brighter where the ground rises */
            const int hw = x > 0 ? map.height[z * SX + x - 1] : h;
            const int hn = z > 0 ? map.height[(z - 1) * SX + x] : h;
            const float light = 0.55f + 0.035f * (float)h + 0.08f * (float)((h - hw) + (h - hn));
            rect(x * MAP_PX, z * MAP_PX, (x + 1) * MAP_PX, (z + 1) * MAP_PX,
                 shade(kind_color(kind), light), 1.0f);
        }
    }
    /* Crates and the lift (bodies that are not mobs). */
    shove3_aabb all = lbox(0, -10, 0, SX, SY + 10, SZ);
    static shove_id ids[4096];
    size_t n = shove3_query_box(w, all, CAT_CRATE | CAT_LIFT, ids, 4096);
    n = n > 4096 ? 4096 : n;
    for (size_t i = 0; i < n; ++i) {
        shove3_aabb b;
        shove3_body_get_box(w, ids[i], &b);
        const uint32_t c = (ids[i].index == lift.index) ? 0x3070E0u : 0xB07830u;
        rect((int)(b.min.x * MAP_PX), (int)(b.min.z * MAP_PX), (int)(b.max.x * MAP_PX),
             (int)(b.max.z * MAP_PX), shade(c, 0.8f + 0.06f * (b.max.y - (float)flat_level)), 1.0f);
        outline((int)(b.min.x * MAP_PX), (int)(b.min.z * MAP_PX), (int)(b.max.x * MAP_PX) - 1,
                (int)(b.max.z * MAP_PX) - 1, 0x402010u, 0.8f);
    }
}

vec3s trail[TRAILS][FRAMES + 1];
int trail_len;

static void draw_trails_and_mobs(shove3_world *w) {
    for (int i = 0; i < TRAILS; ++i) {
        const uint32_t c = hue((float)i / (float)TRAILS);
        for (int f = 1; f < trail_len; ++f) {
            for (int k = 0; k < 4; ++k) { /* two pixels wide */
                const float ox = (float)(k & 1), oz = (float)(k >> 1);
                line(trail[i][f - 1].x * MAP_PX + ox, trail[i][f - 1].z * MAP_PX + oz,
                     trail[i][f].x * MAP_PX + ox, trail[i][f].z * MAP_PX + oz, c, 0.9f);
            }
        }
    }
    for (int i = 0; i < mob_count; ++i) {
        shove3_aabb b;
        shove3_body_get_box(w, mobs[i].id, &b);
        const int cx = (int)((b.min.x + 0.3f) * MAP_PX), cz = (int)((b.min.z + 0.3f) * MAP_PX);
        rect(cx - 1, cz - 1, cx + 1, cz + 1, 0xFFFFFFu, 0.85f);
    }
}

/* Side view: the slice z = STAIR_Z + 1.5 through the staircase, x from
 * STAIR_X - 6 on, y from flat_level - 2 up. */
shove3_aabb climb[FRAMES + 1];
int climb_len;

static void side_xy(float x, float y, float *px, float *py) {
    *px = (float)(MAP_W + GAP) + (x - (float)(STAIR_X - 6)) * SIDE_PX;
    *py = (float)SIDE_H - (y - (float)(flat_level - 2)) * SIDE_PX;
}

static void draw_side(void) {
    rect(MAP_W, 0, IMG_W, IMG_H, 0xFFFFFFu, 1.0f);
    rect(MAP_W + GAP, 0, IMG_W, IMG_H, 0xDCEBF5u, 1.0f);
    const int z = STAIR_Z + 2;
    for (int y = flat_level - 2; y < flat_level + 18; ++y) {
        for (int x = STAIR_X - 6; x < STAIR_X + 16; ++x) {
            shove3_aabb s[SHOVE_VOXEL_MAX_BOXES];
            const long keep = map.reads;
            const int n = shapes(&map, x, y, z, s);
            map.reads = keep;
            for (int i = 0; i < n; ++i) {
                float x0, y0, x1, y1;
                side_xy((float)x + s[i].min.x, (float)y + s[i].max.y, &x0, &y0);
                side_xy((float)x + s[i].max.x, (float)y + s[i].min.y, &x1, &y1);
                rect((int)x0, (int)y0, (int)x1, (int)y1, kind_color(vget(x, y, z)), 1.0f);
                outline((int)x0, (int)y0, (int)x1 - 1, (int)y1 - 1, 0x303030u, 0.5f);
            }
        }
    }
    for (int f = 0; f < climb_len; f += 3) {
        float x0, y0, x1, y1;
        side_xy(climb[f].min.x, climb[f].max.y, &x0, &y0);
        side_xy(climb[f].max.x, climb[f].min.y, &x1, &y1);
        outline((int)x0, (int)y0, (int)x1, (int)y1, hue((float)f / (float)climb_len), 0.7f);
    }
    for (int f = 1; f < climb_len; ++f) {
        float x0, y0, x1, y1;
        side_xy(climb[f - 1].min.x + 0.3f, climb[f - 1].min.y, &x0, &y0);
        side_xy(climb[f].min.x + 0.3f, climb[f].min.y, &x1, &y1);
        line(x0, y0, x1, y1, 0xD02020u, 1.0f);
    }
}

bool draw_picture(shove3_world *w, const char *path) {
    draw_map(w);
    draw_trails_and_mobs(w);
    draw_side();
    uint32_t *pixels = malloc((size_t)IMG_W * IMG_H * sizeof *pixels);
    if (!pixels) {
        return false;
    }
    for (int y = 0; y < IMG_H; ++y) {
        for (int x = 0; x < IMG_W; ++x) {
            pixels[(size_t)y * IMG_W + (size_t)x] = 0xFF000000u | ((uint32_t)img[y][x][0] << 16) |
                                                    ((uint32_t)img[y][x][1] << 8) | img[y][x][2];
        }
    }
    const bool ok = png_write(path, pixels, IMG_W, IMG_H) == 0;
    free(pixels);
    return ok;
}
