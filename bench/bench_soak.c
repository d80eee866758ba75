/*
 * bench_soak.c: a long randomized run of a 3D world (and a shorter 2D one)
 * with voxel terrain, static and dynamic bodies, world moves with every
 * response, step-up and edge guard, priority shove steps, teleports,
 * destroys and creations. It checks, on every move:
 *   - rule 1: a body that starts free of solid terrain and solid bodies
 *     ends free of them (terrain checked against the bench's own map,
 *     bodies through shove_query_box);
 *   - rule 2: the displacement has the sign of the request and is no
 *     larger (up to step_height upward after a step);
 *   - finite results, and statuses that are SHOVE_OK;
 * and it counts every byte the world allocates through a wrapping
 * shove_allocator: the peak, the bytes in use after each tenth of the run,
 * and the allocation calls. Scratch arrays grow to the largest move seen so
 * far (a new record number of contacts, say), so a few allocations after a
 * warm-up are expected; what must not happen is growth that goes on (see
 * soak_flat). SOAK_TRACE=1 prints every allocation after the warm-up.
 * Prints a table; argv[1] (an output dir) gets soak.csv.
 *
 *   bench_soak [OUT_DIR] [MOVES]     (MOVES defaults to 1,000,000, in 3D and 2D)
 *
 * Exit status 1 when a rule was broken or memory kept growing.
 */
#define _POSIX_C_SOURCE 199309L /* clock_gettime */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <shove/shove.h>

/* >>allocation counting (dimension-free) */

typedef struct soak_alloc {
    size_t live, peak, calls, frees;
    bool trace; /* SOAK_TRACE set: print allocations after the warm-up */
} soak_alloc;

static void *soak_realloc(void *ctx, void *ptr, size_t old_size, size_t new_size) {
    soak_alloc *a = ctx;
    if (new_size == 0) {
        free(ptr);
        a->live -= old_size;
        a->frees += 1;
        return NULL;
    }
    void *p = realloc(ptr, new_size);
    if (a->trace) {
        printf("  allocation: %zu -> %zu bytes\n", old_size, new_size);
    }
    if (p) {
        a->live = a->live - old_size + new_size;
        a->calls += 1;
        a->peak = a->live > a->peak ? a->live : a->peak;
    }
    return p;
}

typedef struct soak_rng {
    uint64_t s;
} soak_rng;

static uint32_t soak_next(soak_rng *r) {
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return (uint32_t)((z ^ (z >> 31)) >> 32);
}

static float soak_float(soak_rng *r, float lo, float hi) {
    return lo + (hi - lo) * ((float)(soak_next(r) >> 8) * (1.0f / 16777216.0f));
}

typedef struct soak_report {
    int dim;
    long moves, steps, refused, rule1, rule2, nonfinite, teleports, recreated;
    size_t bytes_after_warmup, bytes_end, peak, alloc_calls_after_warmup;
    size_t bytes_at[10];  /* bytes in use after each tenth of the moves */
    size_t allocs_at[10]; /* allocation calls so far, at the same points */
    double seconds;
} soak_report;

static double soak_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

#define SOAK(name) SHOVE_IFN(SHOVE_CAT(soak_, name))

#define SHOVE_DIM 2
#include "dim.h"
#include "soak.inc"
#include "dim_end.h"

#define SHOVE_DIM 3
#include "dim.h"
#include "soak.inc"
#include "dim_end.h"

/* Flat: over the second half of the run, at most 4 allocations (a record
 * contact count doubling a scratch array, a bucket for a part of the world
 * no walker had reached) and at most 2% more bytes. Steady growth, one
 * allocation every so many moves, fails this at once. */
static bool soak_flat(const soak_report *r) {
    return r->allocs_at[9] - r->allocs_at[4] <= 4u &&
           (double)r->bytes_at[9] <= 1.02 * (double)r->bytes_at[4];
}

static void print_report(const soak_report *r, FILE *csv) {
    printf(
        "| %dD | %9ld | %7ld | %5.1f | %9.2f | %8zu | %8zu | %8zu | %5zu | %5ld | %5ld | %5ld |\n",
        r->dim, r->moves, r->steps, r->seconds,
        r->seconds > 0 ? 1e-3 * (double)r->moves / r->seconds : 0.0, r->peak, r->bytes_after_warmup,
        r->bytes_end, r->alloc_calls_after_warmup, r->rule1, r->rule2, r->nonfinite + r->refused);
    printf("|     | bytes in use after each tenth:");
    for (int k = 0; k < 10; ++k) {
        printf(" %zu", r->bytes_at[k]);
    }
    printf(" |\n|     | allocations so far, same points:");
    for (int k = 0; k < 10; ++k) {
        printf(" %zu", r->allocs_at[k]);
    }
    printf(" |\n");
    if (csv) {
        fprintf(csv, "%d,%ld,%ld,%.3f,%zu,%zu,%zu,%zu,%ld,%ld,%ld,%ld\n", r->dim, r->moves,
                r->steps, r->seconds, r->peak, r->bytes_after_warmup, r->bytes_end,
                r->alloc_calls_after_warmup, r->rule1, r->rule2, r->nonfinite, r->refused);
    }
}

int main(int argc, char **argv) {
    long moves = 1000000;
    if (argc > 2) {
        moves = strtol(argv[2], NULL, 10);
        if (moves < 1000) {
            moves = 1000;
        }
    }
    FILE *csv = NULL;
    if (argc > 1) {
        char path[4096];
        snprintf(path, sizeof path, "%s/soak.csv", argv[1]);
        csv = fopen(path, "w");
        if (csv) {
            fprintf(csv, "dim,moves,steps,seconds,peak_bytes,bytes_after_warmup,bytes_end,"
                         "allocations_after_warmup,rule1,rule2,nonfinite,refused\n");
        }
    }
    printf("soak: randomized world moves and shove steps over voxel terrain, every move "
           "checked (SIMD level %s)\n\n",
           shove_simd_name(shove_simd_active()));
    printf("| dim | moves | steps | s | kmoves/s | peak B | B warm | B end | allocs "
           "after warm-up | rule 1 | rule 2 | bad |\n");
    printf(
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
    soak_report r3, r2;
    shove3__soak_run(moves, &r3);
    print_report(&r3, csv);
    shove2__soak_run(moves, &r2);
    print_report(&r2, csv);
    if (csv) {
        fclose(csv);
    }
    const bool ok = r3.rule1 + r3.rule2 + r3.nonfinite + r3.refused + r2.rule1 + r2.rule2 +
                            r2.nonfinite + r2.refused ==
                        0 &&
                    soak_flat(&r3) && soak_flat(&r2);
    printf("\n%s\n",
           ok ? "soak: no rule broken, memory flat after warm-up" : "soak: FAILED (see the table)");
    return ok ? 0 : 1;
}
