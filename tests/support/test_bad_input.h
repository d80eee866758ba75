/*
 * test_bad_input.h: what the bad-input suites share (include after
 * test_dim.h, once per dimension). A refused call must leave its outputs
 * alone: fill them with SENTINEL first, check them with EXPECT_UNTOUCHED
 * after. bad_boxes and bad_vecs list every way to break a good value one
 * coordinate at a time.
 */
#ifndef SHOVE_TEST_BAD_INPUT_H
#define SHOVE_TEST_BAD_INPUT_H

#include <math.h>
#include <stdbool.h>
#include <string.h>

#define SENTINEL 0x5A

static inline void fill(void *p, size_t n) {
    memset(p, SENTINEL, n);
}

static inline bool untouched(const void *p, size_t n) {
    const unsigned char *b = p;
    for (size_t i = 0; i < n; ++i) {
        if (b[i] != SENTINEL) {
            return false;
        }
    }
    return true;
}

#define EXPECT_UNTOUCHED(x, what) cr_expect(untouched(&(x), sizeof(x)), "%s: output written", what)

/* Room for every bad value of one good one (bad_boxes: 7 per axis). */
#define MAX_BAD 64

/* NaN, +inf and -inf in each min and max of `good`, and min > max on each
 * axis. */
static inline int bad_boxes(shove_aabb good, shove_aabb out[MAX_BAD]) {
    const float poison[3] = {NAN, INFINITY, -INFINITY};
    int n = 0;
    for (int a = 0; a < SHOVE_DIM; ++a) {
        for (int k = 0; k < 3; ++k) {
            out[n] = good;
            out[n++].min.raw[a] = poison[k];
            out[n] = good;
            out[n++].max.raw[a] = poison[k];
        }
        out[n] = good;
        out[n].min.raw[a] = good.max.raw[a];
        out[n++].max.raw[a] = nextafterf(good.max.raw[a], -INFINITY);
    }
    return n;
}

/* NaN, +inf and -inf in each component of `good`. */
static inline int bad_vecs(shove_vec good, shove_vec out[MAX_BAD]) {
    const float poison[3] = {NAN, INFINITY, -INFINITY};
    int n = 0;
    for (int a = 0; a < SHOVE_DIM; ++a) {
        for (int k = 0; k < 3; ++k) {
            out[n] = good;
            out[n++].raw[a] = poison[k];
        }
    }
    return n;
}

#endif
