/*
 * bench_slide.c: moves per second of shove2/3_slide for one character
 * against lists of 10, 100 and 1000 boxes, in 2D and 3D.
 *
 * Scenes ("spread": boxes over an area that grows with their number, so a
 * move scans the list but meets few of them; "dense": every box within the
 * mover's reach) times defs ("slide": the defaults; "character": step
 * height 0.6 and edge guard) times SIMD level (scalar and the best one).
 * Prints a table, with the best level's speed-up over the scalar level
 * (the same walk, timed right after it); writes slide.csv into the
 * directory given as argv[1]. With SHOVE_BENCH_PAIRS=N each line runs N
 * such pairs and prints medians (the speed-up is the median of the pairs'
 * speed-ups): the machines this runs on are often shared and noisy.
 *
 * Usage: bench_slide [output-directory]
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <shove/shove.h>

#include "bench_util.h"

static double now_ns(void) {
    return bench_clock_ns(CLOCK_MONOTONIC);
}

static shove_simd best_level;
static volatile uint64_t checksum_sink;
/* Pairs of runs per line (bench_pairs_wanted). */
static int bench_pairs = 1;

#define SHOVE_DIM 2
#include "dim.h"
#include "slide_bench.inc"
#include "dim_end.h"

#define SHOVE_DIM 3
#include "dim.h"
#include "slide_bench.inc"
#include "dim_end.h"

int main(int argc, char **argv) {
    const char *dir = argc > 1 ? argv[1] : ".";
    char path[4096];
    snprintf(path, sizeof path, "%s/slide.csv", dir);
    FILE *csv = fopen(path, "w");
    if (csv) {
        fprintf(csv, "dim,boxes,scene,def,level,ns_per_move,moves_per_second\n");
    }
    best_level = shove_simd_active();
    bench_pairs = bench_pairs_wanted();
    printf("shove_slide: one character walking, one move per frame; medians of %d pair(s) of "
           "runs, the levels back to back in each\n",
           bench_pairs);
    printf("%5s %6s  %-6s  %-9s  %-7s %10s %12s %10s\n", "dim", "boxes", "scene", "def", "level",
           "ns/move", "moves/s", "vs scalar");
    run2(csv);
    run3(csv);
    if (csv) {
        fclose(csv);
    }
    return 0;
}
