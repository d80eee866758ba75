/*
 * merge_grid_dim_test.c: the greedy grid merge covers exactly the solid
 * cells with disjoint boxes, in 2D and 3D.
 */
#include <stdlib.h>

#include "test_dim.h"

enum { SIDE = 9 };

static size_t cell_total(const int32_t cells[SHOVE_DIM]) {
    size_t n = 1;
    for (int a = 0; a < SHOVE_DIM; ++a) {
        n *= (size_t)cells[a];
    }
    return n;
}

/* Rasterizes the boxes back onto the grid: every solid cell must be covered
 * exactly once and no empty cell at all. */
static void expect_exact_cover(const uint8_t *solid, const int32_t cells[SHOVE_DIM],
                               const shove_aabb *boxes, size_t count, float size,
                               shove_vec origin) {
    const size_t total = cell_total(cells);
    uint8_t *hits = calloc(total, 1);
    cr_assert_not_null(hits);
    for (size_t b = 0; b < count; ++b) {
        int32_t lo[SHOVE_DIM], hi[SHOVE_DIM];
        for (int a = 0; a < SHOVE_DIM; ++a) {
            const float l = (boxes[b].min.raw[a] - origin.raw[a]) / size;
            const float h = (boxes[b].max.raw[a] - origin.raw[a]) / size;
            lo[a] = (int32_t)lroundf(l);
            hi[a] = (int32_t)lroundf(h);
            cr_assert(fabsf(l - (float)lo[a]) < 1e-3f && fabsf(h - (float)hi[a]) < 1e-3f,
                      "box corners lie on cell corners");
            cr_assert(lo[a] >= 0 && hi[a] <= cells[a] && lo[a] < hi[a]);
        }
        for (size_t i = 0; i < total; ++i) {
            size_t rest = i;
            bool inside = true;
            for (int a = 0; a < SHOVE_DIM; ++a) {
                const int32_t c = (int32_t)(rest % (size_t)cells[a]);
                rest /= (size_t)cells[a];
                inside = inside && c >= lo[a] && c < hi[a];
            }
            hits[i] += inside;
        }
    }
    for (size_t i = 0; i < total; ++i) {
        cr_assert_eq(hits[i], solid[i] ? 1 : 0, "cell %zu covered %d times (solid %d)", i, hits[i],
                     solid[i]);
    }
    free(hits);
}

Test(merge_grid, full_grid_is_one_box) {
    int32_t cells[SHOVE_DIM];
    for (int a = 0; a < SHOVE_DIM; ++a) {
        cells[a] = 4 + a;
    }
    uint8_t solid[4 * 5 * 6];
    memset(solid, 1, sizeof solid);
    shove_aabb out[4];
    size_t count = 0;
    cr_assert_eq(SHOVE_FN(merge_grid)(solid, cells, 0.5f, V(1, 2, 3), out, 4, &count), SHOVE_OK);
    cr_assert_eq(count, 1u);
    EXPECT_VEC_EQ(out[0].min, V(1, 2, 3));
    EXPECT_VEC_EQ(out[0].max, V(1 + 0.5 * 4, 2 + 0.5 * 5, 3 + 0.5 * 6));
}

Test(merge_grid, checkerboard_cannot_merge) {
    int32_t cells[SHOVE_DIM];
    for (int a = 0; a < SHOVE_DIM; ++a) {
        cells[a] = 5;
    }
    const size_t total = cell_total(cells);
    uint8_t solid[125];
    size_t solid_count = 0;
    for (size_t i = 0; i < total; ++i) {
        size_t rest = i, parity = 0;
        for (int a = 0; a < SHOVE_DIM; ++a) {
            parity += rest % 5;
            rest /= 5;
        }
        solid[i] = (uint8_t)(parity % 2 == 0);
        solid_count += solid[i];
    }
    shove_aabb out[125];
    size_t count = 0;
    cr_assert_eq(SHOVE_FN(merge_grid)(solid, cells, 1.0f, V(0, 0, 0), out, 125, &count), SHOVE_OK);
    cr_expect_eq(count, solid_count);
    expect_exact_cover(solid, cells, out, count, 1.0f, V(0, 0, 0));
}

Test(merge_grid, random_grids_are_covered_exactly_and_merge_helps) {
    test_rng rng = {0x3E26E001u};
    int32_t cells[SHOVE_DIM];
    for (int a = 0; a < SHOVE_DIM; ++a) {
        cells[a] = SIDE;
    }
    const size_t total = cell_total(cells);
    uint8_t *solid = malloc(total);
    shove_aabb *out = malloc(total * sizeof *out);
    cr_assert(solid && out);
    for (int trial = 0; trial < 40; ++trial) {
        /* fill levels from sparse to dense; dense grids must merge well */
        const int fill = 10 + trial * 2;
        size_t solid_count = 0;
        for (size_t i = 0; i < total; ++i) {
            solid[i] =
                (uint8_t)(test_rng_int(&rng, 0, 99) < fill ? 1 + test_rng_int(&rng, 0, 3) : 0);
            solid_count += solid[i] != 0;
        }
        const float size = trial % 2 ? 0.25f : 1.0f;
        const shove_vec origin = V(-3, 7, -100);
        size_t count = 0;
        cr_assert_eq(SHOVE_FN(merge_grid)(solid, cells, size, origin, out, total, &count),
                     SHOVE_OK);
        cr_assert_leq(count, solid_count);
        if (fill >= 80) {
            cr_expect_lt(count * 2, solid_count, "dense grids merge to under half (%zu of %zu)",
                         count, solid_count);
        }
        expect_exact_cover(solid, cells, out, count, size, origin);
    }
    free(solid);
    free(out);
}

Test(merge_grid, capacity_limits_writes_but_not_the_count) {
    int32_t cells[SHOVE_DIM];
    for (int a = 0; a < SHOVE_DIM; ++a) {
        cells[a] = 3;
    }
    uint8_t solid[27] = {0};
    solid[0] = 1;
    solid[2] = 1; /* two separate cells in the first row */
    shove_aabb out[2];
    const shove_aabb sentinel = BOX(-9, -9, -9, -9, -9, -9);
    out[0] = out[1] = sentinel;
    size_t count = 0;
    cr_assert_eq(SHOVE_FN(merge_grid)(solid, cells, 1.0f, V(0, 0, 0), out, 1, &count), SHOVE_OK);
    cr_expect_eq(count, 2u);
    EXPECT_VEC_EQ(out[0].min, V(0, 0, 0));
    EXPECT_VEC_EQ(out[1].min, sentinel.min);
    cr_assert_eq(SHOVE_FN(merge_grid)(solid, cells, 1.0f, V(0, 0, 0), NULL, 0, &count), SHOVE_OK);
    cr_expect_eq(count, 2u);
    /* an empty grid needs no boxes */
    memset(solid, 0, sizeof solid);
    cr_assert_eq(SHOVE_FN(merge_grid)(solid, cells, 1.0f, V(0, 0, 0), out, 2, &count), SHOVE_OK);
    cr_expect_eq(count, 0u);
}

Test(merge_grid, bad_input_is_refused_and_count_untouched) {
    int32_t cells[SHOVE_DIM];
    for (int a = 0; a < SHOVE_DIM; ++a) {
        cells[a] = 2;
    }
    uint8_t solid[8] = {1, 1, 1, 1, 1, 1, 1, 1};
    shove_aabb out[8];
    size_t count = 12345;
    cr_expect_eq(SHOVE_FN(merge_grid)(NULL, cells, 1, V(0, 0, 0), out, 8, &count),
                 SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect_eq(SHOVE_FN(merge_grid)(solid, NULL, 1, V(0, 0, 0), out, 8, &count),
                 SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect_eq(SHOVE_FN(merge_grid)(solid, cells, 1, V(0, 0, 0), out, 8, NULL),
                 SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect_eq(SHOVE_FN(merge_grid)(solid, cells, 1, V(0, 0, 0), NULL, 8, &count),
                 SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect_eq(SHOVE_FN(merge_grid)(solid, cells, 0, V(0, 0, 0), out, 8, &count),
                 SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect_eq(SHOVE_FN(merge_grid)(solid, cells, NAN, V(0, 0, 0), out, 8, &count),
                 SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect_eq(SHOVE_FN(merge_grid)(solid, cells, -1, V(0, 0, 0), out, 8, &count),
                 SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect_eq(SHOVE_FN(merge_grid)(solid, cells, 1, V(INFINITY, 0, 0), out, 8, &count),
                 SHOVE_ERR_INVALID_ARGUMENT);
    cells[0] = 0;
    cr_expect_eq(SHOVE_FN(merge_grid)(solid, cells, 1, V(0, 0, 0), out, 8, &count),
                 SHOVE_ERR_INVALID_ARGUMENT);
    cells[0] = -4;
    cr_expect_eq(SHOVE_FN(merge_grid)(solid, cells, 1, V(0, 0, 0), out, 8, &count),
                 SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect_eq(count, 12345u, "refused calls leave the count alone");
}
