/*
 * test_support.c: runs before every test process. SHOVE_TEST_SIMD=LEVEL
 * forces a SIMD level (names as in shove_simd_name, "sse41" for sse4.1);
 * a level this CPU or build lacks exits with 77, which ctest counts as
 * skipped.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"

static void select_level_from_environment(void) __attribute__((constructor));

static void select_level_from_environment(void) {
    const char *wanted = getenv("SHOVE_TEST_SIMD");
    if (!wanted || !*wanted) {
        return;
    }
    for (int level = 0; level < SHOVE_SIMD_LEVEL_COUNT; ++level) {
        char compact[16];
        const char *name = shove_simd_name((shove_simd)level);
        size_t n = 0;
        for (const char *c = name; *c && n + 1 < sizeof compact; ++c) {
            if (*c != '.') {
                compact[n++] = *c;
            }
        }
        compact[n] = '\0';
        if (strcmp(wanted, name) == 0 || strcmp(wanted, compact) == 0) {
            if (shove_simd_select((shove_simd)level) != SHOVE_OK) {
                printf("skipped: SIMD level %s is not available here\n", name);
                fflush(stdout);
                exit(77);
            }
            return;
        }
    }
    fprintf(stderr, "SHOVE_TEST_SIMD=%s names no SIMD level\n", wanted);
    exit(2);
}

uint64_t test_rng_next(test_rng *r) {
    /* splitmix64: small, fast, and good enough to scatter test boxes. */
    uint64_t z = (r->state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

float test_rng_float(test_rng *r, float lo, float hi) {
    /* 24 random bits give every float in [0, 1) on a 2^-24 grid. */
    const float unit = (float)(test_rng_next(r) >> 40) * (1.0f / 16777216.0f);
    return lo + (hi - lo) * unit;
}

int test_rng_int(test_rng *r, int lo, int hi) {
    return lo + (int)(test_rng_next(r) % (uint64_t)(hi - lo + 1));
}

int test_worker_count(void) {
    const char *text = getenv("SHOVE_TEST_WORKERS");
    const int n = text ? atoi(text) : 1;
    return n >= 1 && n <= SHOVE_MAX_WORKERS ? n : 1;
}
