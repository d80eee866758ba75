/*
 * bench_step.c: bodies per millisecond of one shove2/3_world_step with 10k
 * dynamic bodies, every one with a motion, in 2D and 3D.
 *
 * Scenes:
 *   sparse                unit bodies over 16x their total area / volume,
 *                         random motions, priorities 0..7: few contacts
 *   crowded, mixed prio   a packed grid (gaps 0 .. 0.02) on a floor between
 *                         walls, sideways motions plus gravity, priorities
 *                         0..7: every mover meets neighbours, many pushes,
 *                         chains and squishes
 *   crowded, one prio     the same grid, every body priority 1: contacts
 *                         and blocking, no pushes
 *   platforms             2000 platforms moving up/down and sideways, four
 *                         riders each (one stacked on another), riders
 *                         falling with small sideways motions
 *   mob pen               mobs 0.6 x 1.8 (x 0.6) in two layers (the second
 *                         standing on the first), gaps about 0.02, on a
 *                         floor between walls, priorities 0..7, the motions
 *                         of the crowded scenes: a farm's pen; more bodies
 *                         make it wider, not taller
 *
 * Each scene is warmed up for a few steps (scratch memory grows, piles
 * settle), then FRAMES steps are timed (world_step only, thread CPU time).
 * Prints a table (ms per step, mean and best; bodies per ms from the mean;
 * squish and contact-begin events per step; KiB per body, the most the
 * stepping world ever held through its allocator, scratch included, over
 * its bodies; a hash of every body's box at
 * the end, the same for any worker count and any change of the step that
 * keeps its results) and, for scale, the same
 * sparse scene moved body by body with shove2/3_move (no pushing, no
 * platforms, no order). Each crowded scene (and the pen) is built twice from the same
 * seed: one crowd steps, its twin moves every body once per frame with
 * shove2/3_move by the same motions (timed apart, in the same run), and
 * the row "same crowd, moves" gives that time and step / move, the ratio
 * of the step's mean to the moves' mean. Writes step.csv into the
 * directory given as argv[1].
 *
 * Usage: bench_step [output-directory]
 * Environment: SHOVE_BENCH_BODIES (bodies per scene, 100 .. 100000; the
 * sparse scene keeps its density), SHOVE_BENCH_WORKERS (the worlds'
 * worker_count; above 1 the times are wall time) and SHOVE_BENCH_CLOCK=thread
 * (the calling thread's CPU time even then), SHOVE_BENCH_TASKS=inline (a
 * task system on the caller that times the step's parallel part: printed
 * as "par ms" after each scene), SHOVE_BENCH_DIM (2 or 3: only that
 * dimension), SHOVE_BENCH_SCENE (sparse, crowded_mixed, crowded_one or
 * platforms: only that scene).
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <shove/shove.h>

#include "bench_util.h"

/* Bodies per scene: SHOVE_BENCH_BODIES (up to MAX_BODIES), else 10k. */
#define MAX_BODIES 100000
static int BODIES = 10000;
#define WARMUP 3
#define FRAMES 8

enum { SCENE_SPARSE, SCENE_CROWDED, SCENE_CROWDED_ONE, SCENE_PLATFORMS, SCENE_PEN, N_SCENES };
static const char *const scene_names[N_SCENES] = {"sparse", "crowded, mixed prio",
                                                  "crowded, one prio", "platforms", "mob pen"};
static const char *const scene_ids[N_SCENES] = {"sparse", "crowded_mixed", "crowded_one",
                                                "platforms", "pen"};

/* Workers of the step's worlds: SHOVE_BENCH_WORKERS, else 1. */
static int bench_workers(void) {
    const char *text = getenv("SHOVE_BENCH_WORKERS");
    const int n = text ? atoi(text) : 1;
    return n >= 1 && n <= SHOVE_MAX_WORKERS ? n : 1;
}

/* CPU time of this thread: the machines this runs on are often shared, and
 * wall time then measures the neighbours too. With several workers the
 * step's time is wall time (the other threads' work counts too), unless
 * SHOVE_BENCH_CLOCK=thread asks for the calling thread's CPU time (its
 * share: the serial part and the ranges it ran itself). */
static double now_ns(void) {
    const char *clock = getenv("SHOVE_BENCH_CLOCK");
    const bool thread = bench_workers() == 1 || (clock && strcmp(clock, "thread") == 0);
    return bench_clock_ns(thread ? CLOCK_THREAD_CPUTIME_ID : CLOCK_MONOTONIC);
}

static volatile uint64_t checksum_sink;

/* SHOVE_BENCH_DIM=2 or 3: only that dimension (else both). */
static bool bench_dim_wanted(int dim) {
    const char *text = getenv("SHOVE_BENCH_DIM");
    return !text || atoi(text) == dim;
}

/* SHOVE_BENCH_SCENE=id (sparse, crowded_mixed, crowded_one, platforms, pen):
 * only that scene (else all). */
static bool bench_scene_wanted(int kind) {
    const char *text = getenv("SHOVE_BENCH_SCENE");
    return !text || strcmp(text, scene_ids[kind]) == 0;
}

/* SHOVE_BENCH_TASKS=inline: the worlds get a task system that runs every
 * task on the caller and adds up the CPU time spent in them, so one run
 * splits a step into its parallel part (the speculative dry runs) and the
 * rest: with n free cores, a step takes about rest + parallel / n. */
static double inline_task_ns;

static bool bench_inline_tasks(void) {
    const char *tasks = getenv("SHOVE_BENCH_TASKS");
    return tasks && strcmp(tasks, "inline") == 0;
}

static void *inline_enqueue(shove_task_fn *fn, uint32_t count, uint32_t min_range, void *fn_ctx,
                            void *task_ctx) {
    (void)min_range;
    (void)task_ctx;
    const double t0 = bench_clock_ns(CLOCK_THREAD_CPUTIME_ID);
    fn(0, count, 0, fn_ctx);
    inline_task_ns += bench_clock_ns(CLOCK_THREAD_CPUTIME_ID) - t0;
    return NULL;
}

static void inline_finish(void *task, void *task_ctx) {
    (void)task;
    (void)task_ctx;
}

/* What a stepping world holds through its allocator: the bytes live now
 * and the most ever live. The step allocates on the calling thread only
 * (its workers run in room reserved before), so plain counters do. */
typedef struct bench_bytes {
    size_t live, peak;
} bench_bytes;

static void *bench_count_realloc(void *ctx, void *ptr, size_t old_size, size_t new_size) {
    bench_bytes *b = ctx;
    if (new_size == 0) {
        free(ptr);
        b->live -= old_size;
        return NULL;
    }
    void *p = realloc(ptr, new_size);
    if (p) {
        b->live = b->live - old_size + new_size;
        b->peak = b->live > b->peak ? b->live : b->peak;
    }
    return p;
}

#define SHOVE_DIM 2
#include "dim.h"
#include "step_bench.inc"
#include "dim_end.h"

#define SHOVE_DIM 3
#include "dim.h"
#include "step_bench.inc"
#include "dim_end.h"

int main(int argc, char **argv) {
    const char *dir = argc > 1 ? argv[1] : ".";
    const char *bodies = getenv("SHOVE_BENCH_BODIES");
    if (bodies && atoi(bodies) >= 100 && atoi(bodies) <= MAX_BODIES) {
        BODIES = atoi(bodies);
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/step.csv", dir);
    FILE *csv = fopen(path, "w");
    if (csv) {
        fprintf(csv, "dim,scene,bodies,ms_per_step,best_ms,bodies_per_ms,squish_per_step,"
                     "contact_begin_per_step,kib_per_body\n");
    }
    printf("shove_world_step: %d dynamic bodies, every one moving; simd %s; %d worker(s)\n", BODIES,
           shove_simd_name(shove_simd_active()), bench_workers());
    printf("%4s  %-22s %6s %9s %9s %12s %9s %9s %9s  %-16s\n", "dim", "scene", "bodies", "ms/step",
           "best ms", "bodies/ms", "squish", "begin", "KiB/body", "boxes hash");
    run2(csv);
    run3(csv);
    if (csv) {
        fclose(csv);
        printf("wrote %s\n", path);
    }
    return checksum_sink == 42u ? 1 : 0;
}
