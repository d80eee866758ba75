/*
 * test_dim.h: write a test once, run it in 2D and 3D. A *_dim_test.c file
 * includes this header first; the build compiles it twice, with SHOVE_DIM 2
 * and 3. The library's template vocabulary is available (SHOVE_FN,
 * shove_vec, shove_aabb, ...), plus:
 *
 *   V(x, y, z)                 a vector; in 2D z is dropped
 *   BOX(x0, y0, z0, x1, y1, z1) a box; in 2D the z range is dropped
 *   EXPECT_VEC_EQ(a, b)        bitwise-equal vectors, with a readable failure
 *
 * Write 2D scenarios in x (sideways) and y (up); the 3D run gives them a
 * z extent, so every 2D picture is also a 3D slab.
 */
#ifndef SHOVE_TEST_DIM_H
#define SHOVE_TEST_DIM_H

#include <math.h>
#include <string.h>

#include <criterion/criterion.h>

#include "dim.h"
#include "geometry/geometry.h"
#include "test_support.h"

#include "test_dim_boxes.h"

/** Bitwise equality of vectors (so -0 and 0 differ, as determinism demands). */
static inline bool test_vec_same_bits(shove_vec a, shove_vec b) {
    return memcmp(&a, &b, sizeof a) == 0;
}

#define EXPECT_VEC_EQ(a, b)                                                                        \
    do {                                                                                           \
        shove_vec va_ = (a), vb_ = (b);                                                            \
        for (int i_ = 0; i_ < SHOVE_DIM; ++i_) {                                                   \
            cr_expect(va_.raw[i_] == vb_.raw[i_], "axis %d: %.9g != %.9g (%s vs %s)", i_,          \
                      (double)va_.raw[i_], (double)vb_.raw[i_], #a, #b);                           \
        }                                                                                          \
    } while (0)

/** A random valid box inside [-range, range] with sizes in [min_size, max_size]. */
static inline shove_aabb test_random_box(test_rng *r, float range, float min_size, float max_size) {
    shove_aabb b;
    for (int i = 0; i < SHOVE_DIM; ++i) {
        const float size = test_rng_float(r, min_size, max_size);
        b.min.raw[i] = test_rng_float(r, -range, range);
        b.max.raw[i] = b.min.raw[i] + size;
    }
    return b;
}

#endif
