/*
 * demo.h: what the demo's files share (see main.c for what the demo is).
 *   terrain.c  the block world: the voxel map, its generation, its shapes
 *   bodies.c   crates (merged into a few bodies), the lift, the mobs
 *   picture.c  demo.png (with Cairo): the map with trails, the side view of a
 *              climb, labels and a legend
 *   main.c     the frames, the checks, the table
 */
#ifndef SHOVE_DEMO_H
#define SHOVE_DEMO_H

#include <stdbool.h>
#include <stdint.h>

#include <shove/shove.h>

enum { SX = 192, SY = 40, SZ = 192 }; /* voxels */
enum { MOBS = 2500, FPS = 30, SECONDS = 6, TRAILS = 48 };
enum { FRAMES = SECONDS * FPS };

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

extern world_map map;
extern int flat_level; /* ground height of the flattened set pieces */

/* Places of the set pieces. */
enum { KEEP_X = 24, KEEP_Z = 120, KEEP_W = 30 };  /* walled keep */
enum { PEN_X = 130, PEN_Z = 130, PEN_W = 26 };    /* fenced pen */
enum { STAIR_X = 84, STAIR_Z = 40, STAIR_N = 8 }; /* staircase up +x to the tower */
enum { TOWER_W = 5, STAIR_WIDE = 3 };
enum { YARD_X = 140, YARD_Z = 30, YARD_W = 24, YARD_H = 4 }; /* crate yard */

static inline int vget(int x, int y, int z) {
    if (x < 0 || y < 0 || z < 0 || x >= SX || y >= SY || z >= SZ) {
        return V_AIR;
    }
    return map.v[((size_t)z * SY + (size_t)y) * SX + (size_t)x];
}

static inline shove3_aabb lbox(float x0, float y0, float z0, float x1, float y1, float z1) {
    shove3_aabb b = {{{x0, y0, z0}}, {{x1, y1, z1}}};
    return b;
}

/* terrain.c */
int shapes(void *ctx, int32_t x, int32_t y, int32_t z, shove3_aabb out[SHOVE_VOXEL_MAX_BOXES]);
uint32_t rnd(void);
float frand(float lo, float hi);
float lattice(int x, int z, uint32_t seed);
int tower_x0(void);
void generate(void);
bool inside_terrain(shove3_aabb b);

/* bodies.c */
typedef struct mob {
    shove_id id;
    float heading; /* radians */
    float vy;
    bool grounded;
} mob;

extern mob mobs[MOBS + 1]; /* the last one is the staircase climber */
extern int mob_count;
extern int crate_cells, crate_bodies;
extern shove_id lift;

void add_crates(shove3_world *w);
void add_lift(shove3_world *w);
void move_lift(shove3_world *w, float time, long *moves);
bool spawn(shove3_world *w, float x, float z, float heading);

/* picture.c: main fills the trails of the first TRAILS mobs (feet, one
 * point per frame) and the climber's box of every frame */
extern vec3s trail[TRAILS][FRAMES + 1];
extern int trail_len;
extern shove3_aabb climb[FRAMES + 1];
extern int climb_len;

/* 1 written, 0 failed, -1 skipped (built without Cairo) */
int draw_picture(shove3_world *w, const char *path);

#endif
