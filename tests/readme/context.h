/*
 * context.h: what the README's code blocks use without declaring it, so
 * tools/extract-readme-code's output compiles. Each block is its own
 * scope; a name a block declares itself hides the one here. The program
 * is only compiled and linked, never run: these are declarations, not a
 * scene.
 */
#ifndef SHOVE_README_CONTEXT_H
#define SHOVE_README_CONTEXT_H

#include <stdio.h>

#include <shove/shove.h>

/* The blocks show calls; what they compute is not used afterwards. */
#pragma GCC diagnostic ignored "-Wunused-variable"
#pragma GCC diagnostic ignored "-Wunused-but-set-variable"

/* the 2D tour: a world with a player, tiles, a query box and a ray */
shove2_world *world;
shove_id player;
shove2_aabb tiles[3], area, query, mover;
vec2s eye, delta;
shove2_hit hit;
int hero; /* the game's record of the player */

/* the filter example's map: which tiles are one-way platforms */
static inline bool tile_is_one_way(int32_t x, int32_t y) {
    return y == 3 && x >= 13 && x <= 15;
}

/* the struct-of-arrays boxes of the batch kernels */
enum { COUNT = 64 };
float xs_min[COUNT], ys_min[COUNT], xs_max[COUNT], ys_max[COUNT];

/* the 3D block world: the game's map and a walker */
struct map {
    const unsigned char *solid; /* one byte per cell */
    int32_t size;
};
shove3_world *world3;
shove_id steve;
shove3_move_result r3;
struct map map;

static inline bool map_solid(const struct map *m, int32_t x, int32_t y, int32_t z) {
    if (x < 0 || y < 0 || z < 0 || x >= m->size || y >= m->size || z >= m->size) {
        return false;
    }
    return m->solid[((size_t)z * (size_t)m->size + (size_t)y) * (size_t)m->size + (size_t)x] != 0;
}

#endif
