/*
 * demo.c: the shove demo, headless. A generated block world (hills with
 * slab terraces, cliffs, a walled keep, a fenced pen, a staircase tower, a
 * crate yard merged into a few static bodies, a lift) and a few thousand
 * 0.6 x 1.8 x 0.6 mobs that wander with gravity, step-up and edge guard
 * for some seconds of game time. Prints a table and writes demo.png: the
 * world from above with the mobs' trails (left), and a side view of one
 * mob climbing the staircase (right).
 *
 * What it shows of the API: voxels through a callback (several boxes per
 * voxel: slabs, stairs, fences with rails, walls 1.5 tall),
 * shove3_merge_grid for the crates, shove3_cast_box to drop mobs onto the
 * ground, shove3_move for every mob and for the lift, shove3_query_box to
 * find the lift's riders, and the move flags (on_ground, stepped, ...).
 *
 * Usage: demo [output-directory]
 */
#define _POSIX_C_SOURCE 199309L
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <shove/shove.h>

/* >>world ------------------------------------------------------------------- */

enum { SX = 192, SY = 40, SZ = 192 }; /* voxels */
enum { MOBS = 2500, FPS = 30, SECONDS = 6, TRAILS = 48 };

static const float DT = 1.0f / FPS;
static const float GRAVITY = 25.0f; /* units / s^2 */
static const float SPEED = 3.0f;    /* walking, units / s */

enum {
    V_AIR = 0,
    V_DIRT,  /* full block */
    V_STONE, /* full block (tower, keep) */
    V_SLAB,  /* bottom half */
    V_STAIR, /* bottom half + upper half toward +x */
    V_WALL,  /* full width, 1.5 tall */
    V_FENCE, /* post 1.5 tall, rails toward fence neighbours */
};

enum { CAT_MOB = 1, CAT_CRATE = 2, CAT_LIFT = 4 };

typedef struct world_map {
    uint8_t v[SX * SY * SZ];
    uint8_t height[SX * SZ]; /* first air cell above the ground of each column */
    long reads;              /* callback calls */
} world_map;

static world_map map;

static inline int vget(int x, int y, int z) {
    if (x < 0 || y < 0 || z < 0 || x >= SX || y >= SY || z >= SZ) {
        return V_AIR;
    }
    return map.v[((size_t)z * SY + (size_t)y) * SX + (size_t)x];
}

static inline void vset(int x, int y, int z, int kind) {
    if (x >= 0 && y >= 0 && z >= 0 && x < SX && y < SY && z < SZ) {
        map.v[((size_t)z * SY + (size_t)y) * SX + (size_t)x] = (uint8_t)kind;
    }
}

static inline shove3_aabb lbox(float x0, float y0, float z0, float x1, float y1, float z1) {
    shove3_aabb b = {{{x0, y0, z0}}, {{x1, y1, z1}}};
    return b;
}

/* The voxel callback: the shapes of one voxel in voxel-local units. */
static int shapes(void *ctx, int32_t x, int32_t y, int32_t z,
                  shove3_aabb out[SHOVE_VOXEL_MAX_BOXES]) {
    world_map *m = ctx;
    m->reads += 1;
    switch (vget(x, y, z)) {
    case V_DIRT:
    case V_STONE:
        out[0] = lbox(0, 0, 0, 1, 1, 1);
        return 1;
    case V_SLAB:
        out[0] = lbox(0, 0, 0, 1, 0.5f, 1);
        return 1;
    case V_STAIR:
        out[0] = lbox(0, 0, 0, 1, 0.5f, 1);
        out[1] = lbox(0.5f, 0.5f, 0, 1, 1, 1);
        return 2;
    case V_WALL:
        out[0] = lbox(0, 0, 0, 1, 1.5f, 1);
        return 1;
    case V_FENCE: {
        int n = 0;
        out[n++] = lbox(0.375f, 0, 0.375f, 0.625f, 1.5f, 0.625f);
        if (vget(x - 1, y, z) == V_FENCE) {
            out[n++] = lbox(0, 0.375f, 0.4375f, 0.375f, 1.5f, 0.5625f);
        }
        if (vget(x + 1, y, z) == V_FENCE) {
            out[n++] = lbox(0.625f, 0.375f, 0.4375f, 1, 1.5f, 0.5625f);
        }
        if (vget(x, y, z - 1) == V_FENCE) {
            out[n++] = lbox(0.4375f, 0.375f, 0, 0.5625f, 1.5f, 0.375f);
        }
        if (vget(x, y, z + 1) == V_FENCE) {
            out[n++] = lbox(0.4375f, 0.375f, 0.625f, 0.5625f, 1.5f, 1);
        }
        return n;
    }
    default:
        return 0;
    }
}

/* >>generation -------------------------------------------------------------- */

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static uint32_t rnd(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state >> 32);
}

static float frand(float lo, float hi) {
    return lo + (hi - lo) * (float)(rnd() >> 8) * (1.0f / 16777216.0f);
}

static float lattice(int x, int z, uint32_t seed) {
    uint32_t h = (uint32_t)x * 374761393u + (uint32_t)z * 668265263u + seed * 2246822519u;
    h = (h ^ (h >> 13)) * 1274126177u;
    return (float)((h ^ (h >> 16)) & 0xFFFF) / 65535.0f;
}

static float value_noise(float x, float z, float scale, uint32_t seed) {
    const float fx = x / scale, fz = z / scale;
    const int ix = (int)floorf(fx), iz = (int)floorf(fz);
    float tx = fx - (float)ix, tz = fz - (float)iz;
    tx = tx * tx * (3.0f - 2.0f * tx);
    tz = tz * tz * (3.0f - 2.0f * tz);
    const float a = lattice(ix, iz, seed), b = lattice(ix + 1, iz, seed);
    const float c = lattice(ix, iz + 1, seed), d = lattice(ix + 1, iz + 1, seed);
    return (a + (b - a) * tx) * (1.0f - tz) + (c + (d - c) * tx) * tz;
}

/* Places of the set pieces. */
enum { KEEP_X = 24, KEEP_Z = 120, KEEP_W = 30 };  /* walled keep */
enum { PEN_X = 130, PEN_Z = 130, PEN_W = 26 };    /* fenced pen */
enum { STAIR_X = 84, STAIR_Z = 40, STAIR_N = 8 }; /* staircase up +x to the tower */
enum { TOWER_W = 5, STAIR_WIDE = 3 };
enum { YARD_X = 140, YARD_Z = 30, YARD_W = 24, YARD_H = 4 }; /* crate yard */

static int flat_level; /* ground height of the flattened set pieces */

static void flatten(int x0, int z0, int w, int d, int h) {
    for (int z = z0; z < z0 + d; ++z) {
        for (int x = x0; x < x0 + w; ++x) {
            if (x >= 0 && z >= 0 && x < SX && z < SZ) {
                map.height[z * SX + x] = (uint8_t)h;
            }
        }
    }
}

static int tower_x0(void) {
    return STAIR_X + STAIR_N;
}

static void generate(void) {
    /* Hills. */
    for (int z = 0; z < SZ; ++z) {
        for (int x = 0; x < SX; ++x) {
            const float h = 3.0f + 9.0f * value_noise((float)x, (float)z, 40.0f, 1) +
                            4.0f * value_noise((float)x, (float)z, 17.0f, 2) +
                            1.5f * value_noise((float)x, (float)z, 7.0f, 3);
            map.height[z * SX + x] = (uint8_t)h;
        }
    }
    flat_level = 6;
    flatten(KEEP_X - 2, KEEP_Z - 2, KEEP_W + 4, KEEP_W + 4, flat_level);
    flatten(PEN_X - 2, PEN_Z - 2, PEN_W + 4, PEN_W + 4, flat_level);
    flatten(STAIR_X - 6, STAIR_Z - 4, STAIR_N + TOWER_W + 12, TOWER_W + 8, flat_level);
    flatten(YARD_X - 2, YARD_Z - 2, YARD_W + 4, YARD_W + 4, flat_level);
    for (int z = 0; z < SZ; ++z) {
        for (int x = 0; x < SX; ++x) {
            for (int y = 0; y < map.height[z * SX + x]; ++y) {
                vset(x, y, z, V_DIRT);
            }
        }
    }
    /* Slab terraces: most one-block rises get a half step in front. */
    for (int z = 0; z < SZ; ++z) {
        for (int x = 0; x < SX; ++x) {
            const int h = map.height[z * SX + x];
            const int nx[4] = {x - 1, x + 1, x, x};
            const int nz[4] = {z, z, z - 1, z + 1};
            bool rise = false;
            for (int k = 0; k < 4; ++k) {
                if (nx[k] >= 0 && nz[k] >= 0 && nx[k] < SX && nz[k] < SZ &&
                    map.height[nz[k] * SX + nx[k]] == h + 1) {
                    rise = true;
                }
            }
            if (rise && (rnd() % 100) < 85) {
                vset(x, h, z, V_SLAB);
            }
        }
    }
    /* The keep: a wall 1.5 tall round a square, two gates. */
    for (int i = 0; i < KEEP_W; ++i) {
        const int gate = (i >= KEEP_W / 2 - 1 && i <= KEEP_W / 2);
        vset(KEEP_X + i, flat_level, KEEP_Z, V_WALL);
        vset(KEEP_X + i, flat_level, KEEP_Z + KEEP_W - 1, gate ? V_AIR : V_WALL);
        vset(KEEP_X, flat_level, KEEP_Z + i, V_WALL);
        vset(KEEP_X + KEEP_W - 1, flat_level, KEEP_Z + i, gate ? V_AIR : V_WALL);
    }
    /* The pen: fences with rails, no gate. */
    for (int i = 0; i < PEN_W; ++i) {
        vset(PEN_X + i, flat_level, PEN_Z, V_FENCE);
        vset(PEN_X + i, flat_level, PEN_Z + PEN_W - 1, V_FENCE);
        vset(PEN_X, flat_level, PEN_Z + i, V_FENCE);
        vset(PEN_X + PEN_W - 1, flat_level, PEN_Z + i, V_FENCE);
    }
    /* The staircase: stair blocks rising one voxel per voxel toward +x,
     * STAIR_WIDE wide, up to a stone tower. */
    for (int i = 0; i < STAIR_N; ++i) {
        for (int w = 0; w < STAIR_WIDE; ++w) {
            const int z = STAIR_Z + 1 + w;
            for (int y = flat_level; y < flat_level + i; ++y) {
                vset(STAIR_X + i, y, z, V_STONE);
            }
            vset(STAIR_X + i, flat_level + i, z, V_STAIR);
        }
    }
    for (int x = tower_x0(); x < tower_x0() + TOWER_W; ++x) {
        for (int z = STAIR_Z; z < STAIR_Z + TOWER_W; ++z) {
            for (int y = flat_level; y < flat_level + STAIR_N; ++y) {
                vset(x, y, z, V_STONE);
            }
        }
    }
    /* Heights again, for drawing: the first air above each column. */
    for (int z = 0; z < SZ; ++z) {
        for (int x = 0; x < SX; ++x) {
            int h = SY;
            while (h > 0 && vget(x, h - 1, z) == V_AIR) {
                --h;
            }
            map.height[z * SX + x] = (uint8_t)h;
        }
    }
}

/* >>crates and the lift ----------------------------------------------------- */

static int crate_cells, crate_bodies;

static void add_crates(shove3_world *w) {
    static uint8_t solid[YARD_W * YARD_H * YARD_W];
    for (int z = 0; z < YARD_W; ++z) {
        for (int x = 0; x < YARD_W; ++x) {
            /* stacks in blocks of 2 x 2, with aisles every 6 */
            if ((x % 6) == 5 || (z % 6) == 5) {
                continue;
            }
            const int stack = (int)(lattice(x / 2, z / 2, 9) * 3.99f);
            for (int y = 0; y < stack; ++y) {
                solid[((size_t)z * YARD_H + (size_t)y) * YARD_W + (size_t)x] = 1;
                crate_cells += 1;
            }
        }
    }
    /* x fastest, then y, then z: cells = {YARD_W, YARD_H, YARD_W} */
    const int32_t cells[3] = {YARD_W, YARD_H, YARD_W};
    const vec3s origin = {{YARD_X, (float)flat_level, YARD_Z}};
    size_t count = 0;
    shove3_merge_grid(solid, cells, 1.0f, origin, NULL, 0, &count);
    shove3_aabb *boxes = malloc(count * sizeof *boxes);
    if (!boxes || shove3_merge_grid(solid, cells, 1.0f, origin, boxes, count, &count) != SHOVE_OK) {
        fprintf(stderr, "merge failed\n");
        exit(1);
    }
    for (size_t i = 0; i < count; ++i) {
        shove3_body_def def = shove3_default_body_def();
        def.box = boxes[i];
        def.category = CAT_CRATE;
        shove_id id;
        if (shove3_body_create(w, &def, &id) != SHOVE_OK) {
            fprintf(stderr, "crate body failed\n");
            exit(1);
        }
    }
    crate_bodies = (int)count;
    free(boxes);
}

static shove_id lift;
static float lift_bottom, lift_top;

static void add_lift(shove3_world *w) {
    const float x = (float)(tower_x0() + TOWER_W);
    const float z = (float)STAIR_Z + 1.0f;
    lift_bottom = (float)flat_level - 0.5f;
    lift_top = (float)(flat_level + STAIR_N) - 0.5f;
    shove3_body_def def = shove3_default_body_def();
    def.box = lbox(x, lift_bottom, z, x + 3.0f, lift_bottom + 0.5f, z + 3.0f);
    def.type = SHOVE_BODY_DYNAMIC;
    def.category = CAT_LIFT;
    shove3_body_create(w, &def, &lift);
}

/* The lift rises and falls between ground and tower top; whoever stands on
 * it rides along (moved first going up, after the lift going down). */
static void move_lift(shove3_world *w, float time, long *moves) {
    const float period = 6.0f;
    const float s = 0.5f - 0.5f * cosf(6.2831853f * time / period);
    shove3_aabb box;
    shove3_body_get_box(w, lift, &box);
    const float dy = lift_bottom + s * (lift_top - lift_bottom) - box.min.y;
    shove3_aabb above = box;
    above.min.y = box.max.y;
    above.max.y = box.max.y + 0.05f;
    shove_id riders[64];
    size_t n = shove3_query_box(w, above, CAT_MOB, riders, 64);
    n = n > 64 ? 64 : n;
    const vec3s d = {{0, dy, 0}};
    shove3_move_def def = shove3_default_move_def();
    shove3_move_result r;
    if (dy > 0.0f) {
        for (size_t i = 0; i < n; ++i) {
            shove3_move(w, riders[i], d, &def, &r);
        }
    }
    shove3_move(w, lift, d, &def, &r);
    if (dy <= 0.0f) {
        for (size_t i = 0; i < n; ++i) {
            shove3_move(w, riders[i], d, &def, &r);
        }
    }
    *moves += (long)n + 1;
}

/* >>mobs -------------------------------------------------------------------- */

typedef struct mob {
    shove_id id;
    float heading; /* radians */
    float vy;
    bool grounded;
} mob;

static mob mobs[MOBS + 1]; /* the last one is the staircase climber */
static int mob_count;

static bool spawn(shove3_world *w, float x, float z, float heading) {
    /* Drop the mob's box from the sky onto whatever is below. */
    shove3_aabb b = lbox(x, (float)SY + 2.0f, z, x + 0.6f, (float)SY + 3.8f, z + 0.6f);
    const vec3s down = {{0, -(float)SY - 10.0f, 0}};
    shove3_hit hit;
    if (!shove3_cast_box(w, b, down, UINT64_MAX, &hit) || hit.started_inside) {
        return false;
    }
    const float fall = down.y * hit.t + 0.01f;
    b.min.y += fall;
    b.max.y += fall;
    shove_id others[2];
    if (shove3_query_box(w, b, UINT64_MAX, others, 2) > 0) {
        return false;
    }
    shove3_body_def def = shove3_default_body_def();
    def.box = b;
    def.type = SHOVE_BODY_DYNAMIC;
    def.category = CAT_MOB;
    mob *m = &mobs[mob_count];
    if (shove3_body_create(w, &def, &m->id) != SHOVE_OK) {
        return false;
    }
    m->heading = heading;
    m->vy = 0.0f;
    m->grounded = false;
    mob_count += 1;
    return true;
}

/* >>checks ------------------------------------------------------------------ */

/* True when `b` overlaps a voxel shape: the demo's own check, cell by cell. */
static bool inside_terrain(shove3_aabb b) {
    for (int z = (int)floorf(b.min.z) - 1; z <= (int)floorf(b.max.z) + 1; ++z) {
        for (int y = (int)floorf(b.min.y) - 2; y <= (int)floorf(b.max.y) + 1; ++y) {
            for (int x = (int)floorf(b.min.x) - 1; x <= (int)floorf(b.max.x) + 1; ++x) {
                shove3_aabb s[SHOVE_VOXEL_MAX_BOXES];
                const long keep = map.reads;
                const int n = shapes(&map, x, y, z, s);
                map.reads = keep;
                for (int i = 0; i < n; ++i) {
                    const shove3_aabb wb =
                        lbox((float)x + s[i].min.x, (float)y + s[i].min.y, (float)z + s[i].min.z,
                             (float)x + s[i].max.x, (float)y + s[i].max.y, (float)z + s[i].max.z);
                    if (shove3_aabb_overlaps(b, wb)) {
                        return true;
                    }
                }
            }
        }
    }
    return false;
}

/* >>picture ----------------------------------------------------------------- */

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

static vec3s trail[TRAILS][SECONDS * FPS + 1];
static int trail_len;

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
static shove3_aabb climb[SECONDS * FPS + 1];
static int climb_len;

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

/* A PNG with stored (uncompressed) deflate blocks: no zlib needed. */
static uint32_t crc_table[256];

static uint32_t crc(uint32_t c, const uint8_t *p, size_t n) {
    if (!crc_table[1]) {
        for (uint32_t i = 0; i < 256; ++i) {
            uint32_t v = i;
            for (int k = 0; k < 8; ++k) {
                v = (v & 1u) ? 0xEDB88320u ^ (v >> 1) : v >> 1;
            }
            crc_table[i] = v;
        }
    }
    c = ~c;
    for (size_t i = 0; i < n; ++i) {
        c = crc_table[(c ^ p[i]) & 255u] ^ (c >> 8);
    }
    return ~c;
}

static void put32(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

static void chunk(FILE *f, const char *type, const uint8_t *data, size_t n) {
    uint8_t head[8];
    put32(head, (uint32_t)n);
    memcpy(head + 4, type, 4);
    fwrite(head, 1, 8, f);
    if (n > 0) {
        fwrite(data, 1, n, f);
    }
    uint32_t c = crc(0, head + 4, 4);
    c = crc(c, data, n);
    uint8_t tail[4];
    put32(tail, c);
    fwrite(tail, 1, 4, f);
}

static bool write_png(const char *path) {
    const size_t row = (size_t)IMG_W * 3 + 1;
    const size_t raw_n = row * IMG_H;
    uint8_t *raw = malloc(raw_n);
    const size_t blocks = (raw_n + 65534) / 65535;
    uint8_t *z = malloc(2 + raw_n + blocks * 5 + 4);
    FILE *f = fopen(path, "wb");
    if (!raw || !z || !f) {
        free(raw);
        free(z);
        if (f) {
            fclose(f);
        }
        return false;
    }
    for (int y = 0; y < IMG_H; ++y) {
        raw[(size_t)y * row] = 0; /* filter: none */
        memcpy(raw + (size_t)y * row + 1, img[y], (size_t)IMG_W * 3);
    }
    size_t n = 0;
    z[n++] = 0x78;
    z[n++] = 0x01;
    uint32_t a = 1, b = 0;
    for (size_t off = 0; off < raw_n; off += 65535) {
        const size_t len = raw_n - off < 65535 ? raw_n - off : 65535;
        z[n++] = (off + len == raw_n) ? 1 : 0;
        z[n++] = (uint8_t)len;
        z[n++] = (uint8_t)(len >> 8);
        z[n++] = (uint8_t)~len;
        z[n++] = (uint8_t)(~len >> 8);
        memcpy(z + n, raw + off, len);
        n += len;
        for (size_t i = 0; i < len; ++i) {
            a = (a + raw[off + i]) % 65521u;
            b = (b + a) % 65521u;
        }
    }
    put32(z + n, (b << 16) | a);
    n += 4;
    static const uint8_t sig[8] = {137, 'P', 'N', 'G', 13, 10, 26, 10};
    fwrite(sig, 1, 8, f);
    uint8_t ihdr[13];
    put32(ihdr, IMG_W);
    put32(ihdr + 4, IMG_H);
    ihdr[8] = 8;  /* bits */
    ihdr[9] = 2;  /* RGB */
    ihdr[10] = 0; /* deflate */
    ihdr[11] = 0; /* adaptive filters */
    ihdr[12] = 0; /* no interlace */
    chunk(f, "IHDR", ihdr, 13);
    chunk(f, "IDAT", z, n);
    chunk(f, "IEND", NULL, 0);
    const bool ok = fclose(f) == 0;
    free(raw);
    free(z);
    return ok;
}

/* >>main -------------------------------------------------------------------- */

static double clock_s(clockid_t id) {
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double now_s(void) {
    return clock_s(CLOCK_MONOTONIC);
}

int main(int argc, char **argv) {
    const char *dir = argc > 1 ? argv[1] : ".";
    const double t_start = now_s();
    generate();

    shove3_world_def wd = shove3_default_world_def();
    wd.bounds = lbox(0, -8, 0, SX, SY + 8, SZ);
    wd.body_capacity = MOBS + 4096;
    shove3_world *w = NULL;
    if (shove3_world_create(&wd, &w) != SHOVE_OK) {
        fprintf(stderr, "cannot create the world\n");
        return 1;
    }
    shove3_voxel_def vd = shove3_default_voxel_def();
    vd.shapes = shapes;
    vd.ctx = &map;
    if (shove3_world_set_voxels(w, &vd) != SHOVE_OK) {
        fprintf(stderr, "cannot set the voxels\n");
        return 1;
    }
    add_crates(w);
    add_lift(w);

    /* Mobs everywhere, then one climber at the foot of the staircase. */
    while (mob_count < MOBS) {
        spawn(w, frand(1.0f, SX - 2.0f), frand(1.0f, SZ - 2.0f), frand(0.0f, 6.2831853f));
    }
    for (float x = (float)STAIR_X - 4.0f; !spawn(w, x, (float)STAIR_Z + 1.7f, 0.0f); x -= 1.0f) {
    }
    const int climber = mob_count - 1;
    const double t_setup = now_s() - t_start;

    shove3_move_def def = shove3_default_move_def();
    def.step_height = 0.6f;
    def.edge_guard = true;
    long moves = 0, contacts = 0, steps = 0, guarded = 0, blocked = 0, airborne = 0;
    map.reads = 0;
    double move_time = 0.0, move_cpu = 0.0;
    const int frames = SECONDS * FPS;
    for (int f = 0; f < frames; ++f) {
        const double t0 = now_s(), c0 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
        move_lift(w, (float)f * DT, &moves);
        for (int i = 0; i < mob_count; ++i) {
            mob *m = &mobs[i];
            if (i != climber && (rnd() % 90) == 0) {
                m->heading += frand(-2.0f, 2.0f);
            }
            m->vy = m->vy - GRAVITY * DT;
            m->vy = m->vy < -40.0f ? -40.0f : m->vy;
            const float speed = (i == climber) ? 2.0f : SPEED;
            const vec3s d = {
                {cosf(m->heading) * speed * DT, m->vy * DT, sinf(m->heading) * speed * DT}};
            shove3_move_result r;
            if (shove3_move(w, m->id, d, &def, &r) != SHOVE_OK) {
                fprintf(stderr, "move failed\n");
                return 1;
            }
            moves += 1;
            contacts += r.contact_count;
            steps += r.stepped ? 1 : 0;
            airborne += r.on_ground ? 0 : 1;
            const float asked = fabsf(d.x) + fabsf(d.z);
            const float went = fabsf(r.delta.x) + fabsf(r.delta.z);
            if (m->grounded && !r.hit_wall && went < 0.5f * asked) {
                guarded += 1; /* the edge guard held it at a drop */
                m->heading += 3.14159265f * frand(0.5f, 1.5f);
            } else if (r.hit_wall && !r.stepped && went < 0.5f * asked) {
                blocked += 1;
                if (i != climber) {
                    m->heading += 3.14159265f * frand(0.5f, 1.5f);
                }
            }
            if (r.on_ground || (r.hit_ceiling && m->vy > 0.0f)) {
                m->vy = 0.0f;
            }
            m->grounded = r.on_ground;
            if (i == climber) {
                climb[climb_len++] = r.box;
            }
        }
        move_time += now_s() - t0;
        move_cpu += clock_s(CLOCK_PROCESS_CPUTIME_ID) - c0;
        for (int i = 0; i < TRAILS; ++i) {
            shove3_aabb b;
            shove3_body_get_box(w, mobs[i].id, &b);
            trail[i][trail_len] = (vec3s){{b.min.x + 0.3f, b.min.y, b.min.z + 0.3f}};
        }
        trail_len += 1;
    }

    /* Checks: nobody inside terrain, nobody inside another body. */
    int in_terrain = 0, in_bodies = 0;
    for (int i = 0; i < mob_count; ++i) {
        shove3_aabb b;
        shove3_body_get_box(w, mobs[i].id, &b);
        in_terrain += inside_terrain(b) ? 1 : 0;
        shove_id others[4];
        in_bodies += shove3_query_box(w, b, UINT64_MAX, others, 4) > 1 ? 1 : 0;
    }
    shove3_aabb cb;
    shove3_body_get_box(w, mobs[climber].id, &cb);
    const float climbed = cb.min.y - climb[0].min.y;

    printf("shove demo: a %d x %d x %d block world, %d mobs (0.6 x 1.8 x 0.6), %d s at %d fps\n",
           SX, SY, SZ, mob_count, SECONDS, FPS);
    printf("  crates: %d cells merged into %d static bodies (shove3_merge_grid)\n", crate_cells,
           crate_bodies);
    printf("  %-44s %12ld\n", "moves (mobs and lift)", moves);
    printf("  %-44s %12.0f\n", "moves per second (CPU time)", (double)moves / move_cpu);
    printf("  %-44s %12.0f\n", "moves per second (wall clock)", (double)moves / move_time);
    printf("  %-44s %12.3f\n", "microseconds per move (CPU time)", 1e6 * move_cpu / (double)moves);
    printf("  %-44s %12.1f\n", "voxel reads per move", (double)map.reads / (double)moves);
    printf("  %-44s %12ld\n", "contacts", contacts);
    printf("  %-44s %12ld\n", "steps climbed (step-up)", steps);
    printf("  %-44s %12ld\n", "falls prevented (edge guard held a mob)", guarded);
    printf("  %-44s %12ld\n", "walked into walls, fences, crates, mobs", blocked);
    printf("  %-44s %12ld\n", "mob moves in the air", airborne);
    printf("  %-44s %12.2f\n", "height the stair climber gained", (double)climbed);
    printf("  %-44s %12d\n", "mobs inside terrain at the end", in_terrain);
    printf("  %-44s %12d\n", "mobs inside another body at the end", in_bodies);
    printf("  setup %.2f s, simulation %.2f s (%.2f s of CPU)\n", t_setup, move_time, move_cpu);

    draw_map(w);
    draw_trails_and_mobs(w);
    draw_side();
    char path[4096];
    snprintf(path, sizeof path, "%s/demo.png", dir);
    if (!write_png(path)) {
        perror(path);
        return 1;
    }
    printf("wrote %s (left: from above, with the trails of %d mobs; right: the staircase climb)\n",
           path, TRAILS);
    shove3_world_destroy(w);
    return (in_terrain == 0 && in_bodies == 0 && climbed > (float)STAIR_N - 1.0f) ? 0 : 2;
}
