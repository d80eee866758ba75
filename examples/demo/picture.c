/*
 * picture.c: demo.png, drawn with Cairo. Left, the world from above
 * (shaded by height, crates and the lift on top, every mob at its size)
 * with the paths of the first mobs and labels on the set pieces; right, a
 * side view through the staircase with the climber's box every few frames,
 * and the legend under it. Built without Cairo (libcairo2-dev), the demo
 * skips the picture and says so.
 */
#include "demo.h"

#ifndef DEMO_HAVE_CAIRO

vec3s trail[TRAILS][FRAMES + 1];
int trail_len;
shove3_aabb climb[FRAMES + 1];
int climb_len;

int draw_picture(shove3_world *w, const char *path) {
    (void)w;
    (void)path;
    return -1;
}

#else

#include <cairo.h>
#include <math.h>
#include <stdio.h>

enum { PX = 4, MARGIN = 16, TITLE_H = 40, GAP = 28 };
enum { MAP_W = SX * PX, MAP_H = SZ * PX };
/* The side view: SIDE_COLS blocks of x from STAIR_X - 5 (the climber's
 * start to the lift), SIDE_ROWS of y from flat_level - 1, under a heading. */
enum { SIDE_COLS = 21, SIDE_ROWS = 14, SIDE_PX = 27, SIDE_HEAD = 56 };
enum { SIDE_W = SIDE_COLS * SIDE_PX, SIDE_H = SIDE_ROWS * SIDE_PX };
enum { IMG_W = MARGIN + MAP_W + GAP + SIDE_W + MARGIN };
enum { IMG_H = TITLE_H + MAP_H + MARGIN };
static const double MAP_X = MARGIN, MAP_Y = TITLE_H;
static const double SIDE_X = MARGIN + MAP_W + GAP, SIDE_Y = TITLE_H + SIDE_HEAD;
static const double LEGEND_Y = TITLE_H + SIDE_HEAD + SIDE_H + 36;

vec3s trail[TRAILS][FRAMES + 1];
int trail_len;
shove3_aabb climb[FRAMES + 1];
int climb_len;

static void rgb(cairo_t *cr, uint32_t c, double alpha) {
    cairo_set_source_rgba(cr, ((c >> 16) & 255) / 255.0, ((c >> 8) & 255) / 255.0,
                          (c & 255) / 255.0, alpha);
}

static uint32_t shade(uint32_t c, float f) {
    uint32_t out = 0;
    for (int k = 0; k < 3; ++k) {
        float v = (float)((c >> (16 - 8 * k)) & 255) * f;
        v = v > 255.0f ? 255.0f : v;
        out |= (uint32_t)v << (16 - 8 * k);
    }
    return out;
}

/* A colour per trail, evenly round the hue circle, dark enough on grass. */
static uint32_t hue(float h) {
    const float r = 0.5f + 0.5f * cosf(6.2831853f * h);
    const float g = 0.5f + 0.5f * cosf(6.2831853f * (h - 0.333f));
    const float b = 0.5f + 0.5f * cosf(6.2831853f * (h - 0.667f));
    return ((uint32_t)(r * 255) << 16) | ((uint32_t)(g * 255) << 8) | (uint32_t)(b * 255);
}

static uint32_t kind_color(int kind) {
    switch (kind) {
    case V_DIRT:
        return 0x6AA84Fu;
    case V_STONE:
        return 0x9A9AA2u;
    case V_SLAB:
        return 0xA8CF7Cu;
    case V_STAIR:
        return 0xD2A868u;
    case V_WALL:
        return 0x4A4A56u;
    case V_FENCE:
        return 0x8B5A2Bu;
    default:
        return 0xFFFFFFu;
    }
}

enum { CRATE = 0xC08A3Eu, LIFT = 0x2F6FE0u, MOB = 0x1E1E1Eu };

static void text(cairo_t *cr, double x, double y, double size, bool bold, uint32_t c,
                 const char *s) {
    cairo_select_font_face(cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL,
                           bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, size);
    rgb(cr, c, 1.0);
    cairo_move_to(cr, x, y);
    cairo_show_text(cr, s);
}

/* A label on a white card at (x, y) (its top left), with a leader line to
 * the point (px, py) when px >= 0. */
static void label(cairo_t *cr, double x, double y, double px, double py, const char *s) {
    cairo_select_font_face(cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
    cairo_set_font_size(cr, 13);
    cairo_text_extents_t e;
    cairo_text_extents(cr, s, &e);
    const double w = e.x_advance + 12, h = 22;
    if (px >= 0) {
        rgb(cr, 0x000000u, 0.85);
        cairo_set_line_width(cr, 1.5);
        cairo_move_to(cr, x + w / 2, y + h / 2);
        cairo_line_to(cr, px, py);
        cairo_stroke(cr);
        cairo_arc(cr, px, py, 2.5, 0, 6.2831853);
        cairo_fill(cr);
    }
    rgb(cr, 0xFFFFFFu, 0.92);
    cairo_rectangle(cr, x, y, w, h);
    cairo_fill_preserve(cr);
    rgb(cr, 0x000000u, 0.85);
    cairo_set_line_width(cr, 1);
    cairo_stroke(cr);
    text(cr, x + 6, y + 15.5, 13, true, 0x111111u, s);
}

static double map_x(float x) {
    return MAP_X + (double)x * PX;
}

static double map_y(float z) {
    return MAP_Y + (double)z * PX;
}

static void draw_map(cairo_t *cr, shove3_world *w) {
    cairo_set_antialias(cr, CAIRO_ANTIALIAS_NONE);
    for (int z = 0; z < SZ; ++z) {
        for (int x = 0; x < SX; ++x) {
            const int h = map.height[z * SX + x];
            const int kind = h > 0 ? vget(x, h - 1, z) : V_AIR;
            /* light from the north-west: brighter where the ground rises */
            const int hw = x > 0 ? map.height[z * SX + x - 1] : h;
            const int hn = z > 0 ? map.height[(z - 1) * SX + x] : h;
            const float light = 0.62f + 0.03f * (float)h + 0.06f * (float)((h - hw) + (h - hn));
            rgb(cr, shade(kind_color(kind), light), 1.0);
            cairo_rectangle(cr, map_x((float)x), map_y((float)z), PX, PX);
            cairo_fill(cr);
        }
    }
    cairo_set_antialias(cr, CAIRO_ANTIALIAS_DEFAULT);
    /* Crates (merged static bodies) and the lift, outlined. */
    const shove3_aabb all = lbox(0, -10, 0, SX, SY + 10, SZ);
    static shove_id ids[4096];
    size_t n = shove3_query_box(w, all, CAT_CRATE | CAT_LIFT, ids, 4096);
    n = n > 4096 ? 4096 : n;
    for (size_t i = 0; i < n; ++i) {
        shove3_aabb b;
        shove3_body_get_box(w, ids[i], &b);
        const bool is_lift = ids[i].index == lift.index;
        rgb(cr, shade(is_lift ? LIFT : CRATE, 0.8f + 0.07f * (b.max.y - (float)flat_level)), 1.0);
        cairo_rectangle(cr, map_x(b.min.x), map_y(b.min.z), (b.max.x - b.min.x) * PX,
                        (b.max.z - b.min.z) * PX);
        cairo_fill_preserve(cr);
        rgb(cr, 0x3A2410u, 0.9);
        cairo_set_line_width(cr, 1);
        cairo_stroke(cr);
    }
}

/* Every mob at its size (0.6 x 0.6 from above); the followed ones in their
 * trail's colour, with the path they walked, a ring where they started. */
static void draw_mobs_and_trails(cairo_t *cr, shove3_world *w) {
    for (int i = TRAILS; i < mob_count; ++i) {
        shove3_aabb b;
        shove3_body_get_box(w, mobs[i].id, &b);
        rgb(cr, MOB, 0.9);
        cairo_rectangle(cr, map_x(b.min.x), map_y(b.min.z), (b.max.x - b.min.x) * PX,
                        (b.max.z - b.min.z) * PX);
        cairo_fill(cr);
    }
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
    for (int pass = 0; pass < 2; ++pass) {
        for (int i = 0; i < TRAILS; ++i) {
            cairo_move_to(cr, map_x(trail[i][0].x), map_y(trail[i][0].z));
            for (int f = 1; f < trail_len; ++f) {
                cairo_line_to(cr, map_x(trail[i][f].x), map_y(trail[i][f].z));
            }
            /* a dark casing under the colour, so paths read on any ground */
            rgb(cr, pass == 0 ? 0x000000u : hue((float)i / (float)TRAILS), pass == 0 ? 0.7 : 1.0);
            cairo_set_line_width(cr, pass == 0 ? 4.5 : 2.5);
            cairo_stroke(cr);
        }
    }
    for (int i = 0; i < TRAILS; ++i) {
        const uint32_t c = hue((float)i / (float)TRAILS);
        cairo_arc(cr, map_x(trail[i][0].x), map_y(trail[i][0].z), 3.5, 0, 6.2831853);
        rgb(cr, 0xFFFFFFu, 1.0);
        cairo_fill_preserve(cr);
        rgb(cr, c, 1.0);
        cairo_set_line_width(cr, 2);
        cairo_stroke(cr);
        shove3_aabb b;
        shove3_body_get_box(w, mobs[i].id, &b);
        /* the mob where it ended, at its size, drawn a little larger than
         * the crowd so the end of each path is found */
        cairo_rectangle(cr, map_x(b.min.x) - 1, map_y(b.min.z) - 1, (b.max.x - b.min.x) * PX + 2,
                        (b.max.z - b.min.z) * PX + 2);
        rgb(cr, c, 1.0);
        cairo_fill_preserve(cr);
        rgb(cr, 0x000000u, 1.0);
        cairo_set_line_width(cr, 1);
        cairo_stroke(cr);
    }
}

static void draw_labels(cairo_t *cr) {
    char s[96];
    label(cr, map_x(KEEP_X + 2), map_y(KEEP_Z - 8), map_x(KEEP_X + 4), map_y(KEEP_Z),
          "walled keep (walls 1.5 tall)");
    label(cr, map_x(PEN_X - 14), map_y(PEN_Z - 8), map_x(PEN_X + 4), map_y(PEN_Z), "fenced pen");
    snprintf(s, sizeof s, "crate yard: %d crates, %d bodies", crate_cells, crate_bodies);
    label(cr, map_x(YARD_X - 34), map_y(YARD_Z + YARD_W + 4), map_x(YARD_X + 2),
          map_y(YARD_Z + YARD_W - 2), s);
    label(cr, map_x(STAIR_X - 30), map_y(STAIR_Z - 14), map_x(STAIR_X + 2), map_y(STAIR_Z + 1),
          "staircase (side view right)");
    label(cr, map_x((float)tower_x0() + 2), map_y(STAIR_Z + 12),
          map_x((float)(tower_x0() + TOWER_W) + 1.5f), map_y(STAIR_Z + 2.5f), "lift");
}

static void side_xy(float x, float y, double *px, double *py) {
    *px = SIDE_X + ((double)x - (double)(STAIR_X - 5)) * SIDE_PX;
    *py = SIDE_Y + SIDE_H - ((double)y - (double)(flat_level - 1)) * SIDE_PX;
}

static void side_box(cairo_t *cr, float x0, float y0, float x1, float y1) {
    double ax, ay, bx, by;
    side_xy(x0, y1, &ax, &ay);
    side_xy(x1, y0, &bx, &by);
    cairo_rectangle(cr, ax, ay, bx - ax, by - ay);
}

static void draw_side(cairo_t *cr, shove3_world *w) {
    cairo_save(cr);
    cairo_rectangle(cr, SIDE_X, SIDE_Y, SIDE_W, SIDE_H);
    cairo_clip(cr);
    rgb(cr, 0xDCEBF5u, 1.0);
    cairo_paint(cr);
    const int z = STAIR_Z + 2;
    for (int y = flat_level - 1; y < flat_level - 1 + SIDE_ROWS; ++y) {
        for (int x = STAIR_X - 5; x < STAIR_X - 5 + SIDE_COLS; ++x) {
            shove3_aabb s[SHOVE_VOXEL_MAX_BOXES];
            const long keep = map.reads;
            const int n = shapes(&map, x, y, z, s);
            map.reads = keep;
            for (int i = 0; i < n; ++i) {
                side_box(cr, (float)x + s[i].min.x, (float)y + s[i].min.y, (float)x + s[i].max.x,
                         (float)y + s[i].max.y);
                rgb(cr, kind_color(vget(x, y, z)), 1.0);
                cairo_fill_preserve(cr);
                rgb(cr, 0x303030u, 0.5);
                cairo_set_line_width(cr, 1);
                cairo_stroke(cr);
            }
        }
    }
    shove3_aabb lb;
    shove3_body_get_box(w, lift, &lb);
    side_box(cr, lb.min.x, lb.min.y, lb.max.x, lb.max.y);
    rgb(cr, LIFT, 1.0);
    cairo_fill(cr);
    /* The climber: its box every third frame, coloured from early (red) to
     * late (violet), and the path of its feet. */
    for (int f = 0; f < climb_len; f += 3) {
        side_box(cr, climb[f].min.x, climb[f].min.y, climb[f].max.x, climb[f].max.y);
        rgb(cr, hue(0.8f * (float)f / (float)climb_len), 0.9);
        cairo_set_line_width(cr, 1.2);
        cairo_stroke(cr);
    }
    for (int f = 0; f < climb_len; ++f) {
        double x, y;
        side_xy(0.5f * (climb[f].min.x + climb[f].max.x), climb[f].min.y, &x, &y);
        if (f == 0) {
            cairo_move_to(cr, x, y);
        } else {
            cairo_line_to(cr, x, y);
        }
    }
    rgb(cr, 0x000000u, 1.0);
    cairo_set_line_width(cr, 2.5);
    cairo_stroke(cr);
    double lx, ly;
    side_xy(0.5f * (lb.min.x + lb.max.x), lb.max.y, &lx, &ly);
    label(cr, lx - 70, ly - 60, lx, ly - 2, "lift (now)");
    side_xy((float)tower_x0() + 0.5f, (float)(flat_level + STAIR_N) + 3.5f, &lx, &ly);
    label(cr, lx, ly, -1, -1, "stone tower");
    side_xy((float)(STAIR_X - 4), (float)(flat_level + 3), &lx, &ly);
    label(cr, lx, ly, -1, -1, "start");
    cairo_restore(cr);
    rgb(cr, 0x000000u, 0.6);
    cairo_set_line_width(cr, 1);
    cairo_rectangle(cr, SIDE_X + 0.5, SIDE_Y + 0.5, SIDE_W - 1, SIDE_H - 1);
    cairo_stroke(cr);
    text(cr, SIDE_X, TITLE_H + 14, 15, true, 0x111111u, "One mob climbs the staircase (side view)");
    text(cr, SIDE_X, TITLE_H + 32, 12, false, 0x222222u,
         "slabs and stairs climbed by step-up (0.6); its 0.6 x 1.8 box every 3rd frame,");
    text(cr, SIDE_X, TITLE_H + 48, 12, false, 0x222222u,
         "red early to violet late; the path of its feet in black");
}

/* One legend entry: a swatch (drawn by kind) and its words. */
static double legend_item(cairo_t *cr, double x, double y, int kind, uint32_t c,
                          const char *words) {
    switch (kind) {
    case 0: /* a block colour */
        rgb(cr, c, 1.0);
        cairo_rectangle(cr, x, y - 11, 14, 14);
        cairo_fill_preserve(cr);
        rgb(cr, 0x000000u, 0.6);
        cairo_set_line_width(cr, 1);
        cairo_stroke(cr);
        break;
    case 1: /* a mob, to scale */
        rgb(cr, c, 1.0);
        cairo_rectangle(cr, x + 5.8, y - 5.2, 0.6 * PX, 0.6 * PX);
        cairo_fill(cr);
        break;
    default: /* a path: start ring, line, end box */
        cairo_move_to(cr, x + 2, y - 4);
        cairo_line_to(cr, x + 26, y - 4);
        rgb(cr, 0x000000u, 0.7);
        cairo_set_line_width(cr, 4.5);
        cairo_stroke(cr);
        cairo_move_to(cr, x + 2, y - 4);
        cairo_line_to(cr, x + 26, y - 4);
        rgb(cr, c, 1.0);
        cairo_set_line_width(cr, 2.5);
        cairo_stroke(cr);
        cairo_arc(cr, x + 2, y - 4, 3.5, 0, 6.2831853);
        rgb(cr, 0xFFFFFFu, 1.0);
        cairo_fill_preserve(cr);
        rgb(cr, c, 1.0);
        cairo_set_line_width(cr, 2);
        cairo_stroke(cr);
        cairo_rectangle(cr, x + 25, y - 6.4, 0.6 * PX + 2, 0.6 * PX + 2);
        cairo_fill(cr);
        x += 22;
        break;
    }
    text(cr, x + 20, y, 12, false, 0x111111u, words);
    cairo_text_extents_t e;
    cairo_text_extents(cr, words, &e);
    return x + 20 + e.x_advance + 22;
}

static void draw_legend(cairo_t *cr) {
    const double x = SIDE_X, step = 23;
    double y = LEGEND_Y;
    text(cr, x, y - 4, 15, true, 0x111111u, "The map (left), from above");
    y += 22;
    const struct {
        int kind;
        uint32_t color;
        const char *words;
    } blocks[] = {
        {0, kind_color(V_DIRT), "grass, brighter where higher"},
        {0, kind_color(V_SLAB), "slab (half block)"},
        {0, kind_color(V_STAIR), "stair"},
        {0, kind_color(V_STONE), "stone"},
        {0, kind_color(V_WALL), "wall, 1.5 tall"},
        {0, kind_color(V_FENCE), "fence"},
        {0, CRATE, "crates, merged into static bodies"},
        {0, LIFT, "lift, a body that moves up and down"},
    };
    for (int i = 0; i < 8; ++i) {
        const double col = i % 2 ? x + SIDE_W / 2 : x;
        legend_item(cr, col, y, blocks[i].kind, blocks[i].color, blocks[i].words);
        y += i % 2 ? step : 0;
    }
    char s[128];
    snprintf(s, sizeof s, "a mob, to scale (0.6 x 0.6): %d of them", mob_count);
    legend_item(cr, x, y, 1, MOB, s);
    y += step;
    snprintf(s, sizeof s, "%d mobs followed: start, path in %d s, where it is now", TRAILS,
             SECONDS);
    legend_item(cr, x, y, 2, hue(0.1f), s);
    y += step + 8;
    rgb(cr, 0x000000u, 1.0);
    cairo_set_line_width(cr, 2);
    cairo_move_to(cr, x, y);
    cairo_line_to(cr, x + 16 * PX, y);
    cairo_move_to(cr, x, y - 4);
    cairo_line_to(cr, x, y + 4);
    cairo_move_to(cr, x + 16 * PX, y - 4);
    cairo_line_to(cr, x + 16 * PX, y + 4);
    cairo_stroke(cr);
    text(cr, x + 16 * PX + 8, y + 4, 12, false, 0x111111u, "16 blocks (x to the right, z down)");
}

int draw_picture(shove3_world *w, const char *path) {
    cairo_surface_t *surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, IMG_W, IMG_H);
    cairo_t *cr = cairo_create(surface);
    rgb(cr, 0xFFFFFFu, 1.0);
    cairo_paint(cr);
    char title[160];
    snprintf(title, sizeof title,
             "shove demo: %d mobs walk a %d x %d x %d block world for %d s at %d frames a second",
             mob_count, SX, SY, SZ, SECONDS, FPS);
    text(cr, MARGIN, 27, 18, true, 0x111111u, title);
    draw_map(cr, w);
    draw_mobs_and_trails(cr, w);
    draw_labels(cr);
    draw_side(cr, w);
    draw_legend(cr);
    cairo_destroy(cr);
    const bool ok = cairo_surface_write_to_png(surface, path) == CAIRO_STATUS_SUCCESS;
    cairo_surface_destroy(surface);
    /* Cairo keeps font caches for the life of the program: let it go, so
     * leak checkers see only the demo's own memory. */
    cairo_debug_reset_static_data();
    return ok ? 1 : 0;
}

#endif
