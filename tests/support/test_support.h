/*
 * test_support.h: helpers every test may use (dimension-free).
 */
#ifndef SHOVE_TEST_SUPPORT_H
#define SHOVE_TEST_SUPPORT_H

#include <stdint.h>

#include <shove/shove.h>

/** Deterministic random numbers: seed with a constant, get the same run. */
typedef struct test_rng {
    uint64_t state;
} test_rng;

uint64_t test_rng_next(test_rng *r);
/** Uniform in [lo, hi). */
float test_rng_float(test_rng *r, float lo, float hi);
/** Uniform in [lo, hi], both ends included. */
int test_rng_int(test_rng *r, int lo, int hi);

/** worker_count for the worlds of suites that honour it: the environment's
 *  SHOVE_TEST_WORKERS (make tsan sets 3), else 1. */
int test_worker_count(void);

#endif
