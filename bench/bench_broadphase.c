/*
 * bench_broadphase.c: the world's loose quadtree / octree against brute
 * force and, when they were found at configure time, Box2D 2.4's
 * b2DynamicTree (2D) and Bullet's btDbvt (3D), on the same boxes in the
 * same run: build, update and box-query times for 10k, 100k and 1M boxes
 * (shove twice: given the boxes' bounds, and with the default world bounds,
 * "shove dflt", which the 1M boxes in 2D spill past); then box and ray casts; then the cost of one
 * shove_move with 2k and 20k movers in a world of 20k static boxes.
 *
 * Usage: bench_broadphase [output-directory]
 *   prints tables; writes bench_broadphase.csv into the directory if given.
 *   SHOVE_BENCH_LARGE=0 skips the 1M-box runs.
 */
#define _POSIX_C_SOURCE 199309L /* clock_gettime */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <shove/shove.h>

#include "peers/peers.h"

#ifndef SHOVE_BENCH_BOX2D
#define SHOVE_BENCH_BOX2D 0
#endif
#ifndef SHOVE_BENCH_BULLET
#define SHOVE_BENCH_BULLET 0
#endif

/* CPU time of this process: other programs running on the machine disturb
 * it less than wall time (the queries also take the best of three runs). */
static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* splitmix64: the same boxes every run */
static uint64_t rng_state = 0x5eedb0c5ull;
static uint64_t rng_next(void) {
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
static float rng_float(float lo, float hi) {
    return lo + (hi - lo) * ((float)(rng_next() >> 40) * (1.0f / 16777216.0f));
}

static FILE *csv;

/* Update rounds, query boxes, and the table of small displacements that
 * updates cycle through (so making them costs nothing in timed loops). */
enum { ROUNDS = 5, QUERIES = 20000, DISPLACEMENTS = 4096, REPEATS = 3 };

static void report(const char *section, int dim, long n, const char *impl, const char *metric,
                   double value) {
    if (csv) {
        fprintf(csv, "%s,%d,%ld,%s,%s,%.6g\n", section, dim, n, impl, metric, value);
    }
}

#define SHOVE_DIM 2
#include "bench_broadphase.inc"
#undef SHOVE_DIM
#define SHOVE_DIM 3
#include "bench_broadphase.inc"
#undef SHOVE_DIM

int main(int argc, char **argv) {
    if (argc > 1) {
        char path[1024];
        snprintf(path, sizeof path, "%s/bench_broadphase.csv", argv[1]);
        csv = fopen(path, "w");
        if (!csv) {
            perror(path);
            return 1;
        }
        fprintf(csv, "section,dim,n,impl,metric,value\n");
    }
    const char *large = getenv("SHOVE_BENCH_LARGE");
    const bool with_large = !(large && strcmp(large, "0") == 0);
    printf("shove broad phase, SIMD level %s\n", shove_simd_name(shove_simd_active()));
    printf("peers: Box2D b2DynamicTree %s, Bullet btDbvt %s\n",
           SHOVE_BENCH_BOX2D ? "yes" : "not built", SHOVE_BENCH_BULLET ? "yes" : "not built");
    printf("\nBoxes of 0.5..2 per axis, uniform in a square / cube sized for about 8 hits per\n"
           "query box (1..4 per axis). update = every box moves by up to 0.05 per axis\n"
           "(5 rounds); query = all overlapping ids, exact (fat boxes filtered).\n"
           "shove: world bounds = the boxes' square / cube; shove dflt: default bounds\n"
           "(+-1024; the 1M boxes in 2D cover [0, 1500]^2).\n\n");
    printf("%-3s %8s  %-10s %10s %14s %12s %10s\n", "dim", "boxes", "structure", "build ms",
           "update ns/box", "query us", "hits/query");
    const long sizes[] = {10000, 100000, 1000000};
    for (int k = 0; k < 3; ++k) {
        if (sizes[k] >= 1000000 && !with_large) {
            continue;
        }
        bench2_sizes(sizes[k]);
        bench3_sizes(sizes[k]);
    }
    printf("\nCasts (earliest hit) among 100k boxes: shove vs brute force (batch sweep)\n");
    printf("%-3s %-10s %12s %12s\n", "dim", "structure", "box cast us", "ray cast us");
    bench2_casts(100000);
    bench3_casts(100000);
    printf("\nshove_move: movers walk (random, with gravity) over 20k static boxes; movers\n"
           "collide with each other too. Cost per move = total time / moves.\n");
    printf("%-3s %8s %8s %12s %10s\n", "dim", "statics", "movers", "us / move", "vs 2k");
    bench2_moves();
    bench3_moves();
    if (csv) {
        fclose(csv);
    }
    return 0;
}
