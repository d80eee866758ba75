/*
 * bench_bump_grid.c: the C half of the LuaJIT module shove.bump on its
 * bench's scene (bench/lua/bench_bump.lua): a 128 x 128 map of unit tiles
 * (a border and 12% solid tiles, from the same generator and seed), 2,000
 * movers of 0.6 x 0.6 with random velocities up to 0.25 tiles a frame, each
 * moved once a frame with shove2_bump_grid_move (bump's default check and
 * move, as the module calls it), a mover that collides reflecting its
 * velocity on its first collision's normal. Without LuaJIT, so that the
 * grid's own cost can be timed and counted (callgrind) alone.
 *
 * Prints ns per move, collisions per move, and a checksum of every
 * mover's end rect: a change of the grid that keeps results keeps it.
 *
 * Usage: bench_bump_grid [output-directory] (the directory is unused; every
 * bench takes one). SHOVE_BENCH_FRAMES sets the frames (default 30),
 * SHOVE_BENCH_CELL the cell size (default 2). SHOVE_BENCH_GRAVITY=1 moves
 * the scene the way a platformer does (bench_bump.lua's "gravity" line):
 * every mover falls by 0.2 tiles a frame instead of moving by its vertical
 * velocity, so that after 40 frames to land most moves end resting on a
 * tile, a collision each; only the sideways velocity reflects.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <shove/shove.h>

#include "bench_util.h"

enum { MAP = 128, MOVERS = 2000 };

/* bench_bump.lua's generator: s = (s * 1103515245 + 12345) mod 2^31, in
 * doubles as Lua computes it (exact: the product stays below 2^53). */
static double scene_random(double *s) {
    *s = fmod(*s * 1103515245.0 + 12345.0, 2147483648.0);
    return *s / 2147483648.0;
}

static int env_int(const char *name, int fallback) {
    const char *v = getenv(name);
    return v && *v ? atoi(v) : fallback;
}

int main(int argc, char **argv) {
    (void)argc;
    (void)argv;
    const int frames = env_int("SHOVE_BENCH_FRAMES", 30);
    const double cell = (double)env_int("SHOVE_BENCH_CELL", 2);
    const bool gravity = env_int("SHOVE_BENCH_GRAVITY", 0) != 0;
    shove2_bump_grid *g = NULL;
    if (shove2_bump_grid_create(cell, NULL, &g) != SHOVE_OK) {
        fprintf(stderr, "bench_bump_grid: no grid\n");
        return 1;
    }
    static bool solid[MAP * MAP];
    double seed = 19.0;
    uint32_t index = 0;
    for (int y = 0; y < MAP; ++y) {
        for (int x = 0; x < MAP; ++x) {
            const bool border = x == 0 || y == 0 || x == MAP - 1 || y == MAP - 1;
            if (border || scene_random(&seed) < 0.12) {
                solid[y * MAP + x] = true;
                const shove2_bump_rect tile = {{x, y}, {1.0, 1.0}};
                if (shove2_bump_grid_add(g, &tile, &index) != SHOVE_OK) {
                    return 1;
                }
            }
        }
    }
    static uint32_t ids[MOVERS];
    static double velocity[MOVERS][2];
    for (int n = 0; n < MOVERS;) {
        const int x = 1 + (int)floor(scene_random(&seed) * (MAP - 2));
        const int y = 1 + (int)floor(scene_random(&seed) * (MAP - 2));
        if (solid[y * MAP + x]) {
            continue;
        }
        solid[y * MAP + x] = true; /* one mover per tile */
        const shove2_bump_rect mover = {{x + 0.2, y + 0.2}, {0.6, 0.6}};
        velocity[n][0] = (scene_random(&seed) * 2.0 - 1.0) * 0.25;
        velocity[n][1] = (scene_random(&seed) * 2.0 - 1.0) * 0.25;
        if (shove2_bump_grid_add(g, &mover, &ids[n]) != SHOVE_OK) {
            return 1;
        }
        n += 1;
    }
    /* the module's buffers: room for every item and 16 collisions */
    static uint32_t scratch[MAP * MAP + MOVERS];
    shove2_bump_col cols[16];
    long collisions = 0;
    double t0 = 0.0;
    /* frames to warm up, as the Lua bench has: two, or forty for the movers
     * to land when they fall */
    for (int f = gravity ? -40 : -2; f < frames; ++f) {
        if (f == 0) {
            t0 = bench_clock_ns(CLOCK_PROCESS_CPUTIME_ID);
            collisions = 0;
        }
        for (int i = 0; i < MOVERS; ++i) {
            const shove2_bump_rect *rect = &shove2_bump_grid_rects(g)[ids[i]];
            const double fall = gravity ? 0.2 : velocity[i][1];
            const double goal[2] = {rect->min[0] + velocity[i][0], rect->min[1] + fall};
            uint32_t count = 0;
            double actual[2];
            if (shove2_bump_grid_move(g, ids[i], goal, true, scratch,
                                      sizeof scratch / sizeof scratch[0], cols, 16, &count,
                                      actual) != SHOVE_OK) {
                fprintf(stderr, "bench_bump_grid: a move was refused\n");
                return 1;
            }
            if (count > 0) {
                collisions += count;
                for (int a = 0; a < (gravity ? 1 : 2); ++a) {
                    if (cols[0].hit.normal[a] != 0.0) {
                        velocity[i][a] = -velocity[i][a];
                    }
                }
            }
        }
    }
    const double ns = bench_clock_ns(CLOCK_PROCESS_CPUTIME_ID) - t0;
    uint64_t checksum = BENCH_HASH_START; /* over the end rects' bytes */
    const shove2_bump_rect *rects = shove2_bump_grid_rects(g);
    for (int i = 0; i < MOVERS; ++i) {
        bench_hash_bytes(&checksum, &rects[ids[i]], sizeof rects[0]);
    }
    const double moves = (double)frames * MOVERS;
    printf("bump grid move, %d movers of 0.6 on %dx%d unit tiles, cell size %g, %d frames%s\n",
           MOVERS, MAP, MAP, cell, frames, gravity ? ", falling 0.2 a frame" : "");
    printf("ns/move (CPU) %.1f  collisions/move %.3f  checksum %016llx\n",
           moves > 0 ? ns / moves : 0.0, moves > 0 ? (double)collisions / moves : 0.0,
           (unsigned long long)checksum);
    shove2_bump_grid_destroy(g);
    return 0;
}
