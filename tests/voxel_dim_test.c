/*
 * voxel_dim_test.c: the voxel (tile) source on its own and in a world:
 * which cells a question reads (negative coordinates, exact touching,
 * shape bounds), how shapes become world boxes, casts through voxels,
 * reads that grow with the path, set_voxels / shift_origin input checks,
 * and holes exactly the size of the mover.
 */
#include <float.h>

#include "test_alloc.h"
#include "test_dim.h"
#include "test_world_ops.h"
#include "test_voxel_map.h"
#include "obstacles/voxel.h"
#include "world/world.h"

#define SKIN (1.0f / 1024.0f)

static shove_world *new_world(void) {
    shove_world *w = NULL;
    cr_assert_eq(SHOVE_FN(world_create)(NULL, &w), SHOVE_OK);
    return w;
}

static int64_t cells_in(const SHOVE_T(cell_range) * r) {
    int64_t n = 1;
    for (int a = 0; a < SHOVE_DIM; ++a) {
        n *= (int64_t)r->hi[a] - r->lo[a] + 1;
    }
    return n;
}

/* >>defs -------------------------------------------------------------------- */

Test(voxel, default_def) {
    const shove_voxel_def d = SHOVE_FN(default_voxel_def)();
    cr_expect(d.shapes == NULL && d.ctx == NULL);
    cr_expect_eq(d.voxel_size, 1.0f);
    EXPECT_VEC_EQ(d.origin, V(0, 0, 0));
    EXPECT_VEC_EQ(d.shape_bounds.min, V(0, 0, 0));
    EXPECT_VEC_EQ(d.shape_bounds.max, V(1, 1.5, 1));
}

static int one_block(void *ctx, int32_t x, int32_t y,
#if SHOVE_DIM == 3
                     int32_t z,
#endif
                     shove_aabb out[SHOVE_VOXEL_MAX_BOXES]) {
    (void)ctx;
#if SHOVE_DIM == 3
    if (z != 0) {
        return 0;
    }
#endif
    if (x != 0 || y != 0) {
        return 0;
    }
    out[0] = BOX(0, 0, 0, 1, 1, 1);
    return 1;
}

Test(voxel, set_voxels_refuses_bad_input_and_changes_nothing) {
    shove_world *w = new_world();
    shove_voxel_def good = SHOVE_FN(default_voxel_def)();
    good.shapes = one_block;
    cr_assert_eq(SHOVE_FN(world_set_voxels)(w, &good), SHOVE_OK);

    cr_expect_eq(SHOVE_FN(world_set_voxels)(NULL, &good), SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect_eq(SHOVE_FN(world_set_voxels)(w, NULL), SHOVE_ERR_INVALID_ARGUMENT);
    const float bad_sizes[] = {0.0f, -1.0f, NAN, INFINITY, -INFINITY};
    for (size_t i = 0; i < sizeof bad_sizes / sizeof *bad_sizes; ++i) {
        shove_voxel_def d = good;
        d.voxel_size = bad_sizes[i];
        d.origin = V(5, 5, 5);
        cr_expect_eq(SHOVE_FN(world_set_voxels)(w, &d), SHOVE_ERR_INVALID_ARGUMENT, "size %g",
                     (double)bad_sizes[i]);
    }
    for (int a = 0; a < SHOVE_DIM; ++a) {
        shove_voxel_def d = good;
        d.origin.raw[a] = NAN;
        cr_expect_eq(SHOVE_FN(world_set_voxels)(w, &d), SHOVE_ERR_INVALID_ARGUMENT);
        d.origin.raw[a] = INFINITY;
        cr_expect_eq(SHOVE_FN(world_set_voxels)(w, &d), SHOVE_ERR_INVALID_ARGUMENT);
        d = good;
        d.shape_bounds.min.raw[a] = -1.5f; /* beyond [-1, 2] */
        cr_expect_eq(SHOVE_FN(world_set_voxels)(w, &d), SHOVE_ERR_INVALID_ARGUMENT);
        d = good;
        d.shape_bounds.max.raw[a] = 2.5f;
        cr_expect_eq(SHOVE_FN(world_set_voxels)(w, &d), SHOVE_ERR_INVALID_ARGUMENT);
        d = good;
        d.shape_bounds.min.raw[a] = 1.2f; /* min > max */
        d.shape_bounds.max.raw[a] = 1.1f;
        cr_expect_eq(SHOVE_FN(world_set_voxels)(w, &d), SHOVE_ERR_INVALID_ARGUMENT);
        d.shape_bounds.max.raw[a] = NAN;
        cr_expect_eq(SHOVE_FN(world_set_voxels)(w, &d), SHOVE_ERR_INVALID_ARGUMENT);
    }
    /* The good def is still in place: the block at the origin stops a ray. */
    shove_hit hit;
    cr_expect(SHOVE_FN(cast_ray)(w, V(-5, 0.5, 0.5), V(10, 0, 0), UINT64_MAX, &hit));
    cr_expect_eq(hit.t, 0.5f);
    cr_expect_eq(hit.other.index, 0u);
    cr_expect_eq(hit.other.generation, 0u);
    EXPECT_VEC_EQ(w->voxels.origin, V(0, 0, 0));
    cr_expect_eq(w->voxels.voxel_size, 1.0f);

    /* A def without a callback removes the voxels, whatever its other fields. */
    shove_voxel_def none = good;
    none.shapes = NULL;
    none.voxel_size = -3.0f;
    cr_expect_eq(SHOVE_FN(world_set_voxels)(w, &none), SHOVE_OK);
    cr_expect(!SHOVE_FN(cast_ray)(w, V(-5, 0.5, 0.5), V(10, 0, 0), UINT64_MAX, &hit));
    SHOVE_FN(world_destroy)(w);
}

/* >>cells ------------------------------------------------------------------- */

Test(voxel, cells_at_negative_coordinates_use_floor) {
    shove_voxel_def d = SHOVE_FN(default_voxel_def)();
    d.shapes = one_block;
    d.shape_bounds.max = V(1, 1, 1);
    SHOVE_T(cell_range) r;
    /* Inside cell -1 on every axis. */
    cr_assert(SHOVE_IFN(voxel_cells)(&d, BOX(-0.75, -0.75, -0.75, -0.25, -0.25, -0.25), &r));
    for (int a = 0; a < SHOVE_DIM; ++a) {
        cr_expect_eq(r.lo[a], -1);
        cr_expect_eq(r.hi[a], -1);
    }
    /* Deep negative, with an origin and a voxel size of 0.5: [-10.2, -9.9]
     * in world is [-20.6, -20.4] in cells after removing the origin 0.1. */
    d.origin = V(0.1, 0.1, 0.1);
    d.voxel_size = 0.5f;
    cr_assert(SHOVE_IFN(voxel_cells)(&d, BOX(-10.2, -10.2, -10.2, -10.1, -10.1, -10.1), &r));
    for (int a = 0; a < SHOVE_DIM; ++a) {
        cr_expect_eq(r.lo[a], -21, "axis %d: %d", a, r.lo[a]);
        cr_expect_eq(r.hi[a], -21, "axis %d: %d", a, r.hi[a]);
    }
}

Test(voxel, a_box_touching_a_cell_face_reads_that_cell) {
    shove_voxel_def d = SHOVE_FN(default_voxel_def)();
    d.shapes = one_block;
    d.shape_bounds.max = V(1, 1, 1);
    SHOVE_T(cell_range) r;
    /* [2, 2.5]: touches cell 1's max face and lies in cell 2. */
    cr_assert(SHOVE_IFN(voxel_cells)(&d, BOX(2, 2, 2, 2.5, 2.5, 2.5), &r));
    for (int a = 0; a < SHOVE_DIM; ++a) {
        cr_expect_eq(r.lo[a], 1);
        cr_expect_eq(r.hi[a], 2);
    }
    /* [-3, -2]: touches cells -4 and -2 and covers -3. */
    cr_assert(SHOVE_IFN(voxel_cells)(&d, BOX(-3, -3, -3, -2, -2, -2), &r));
    for (int a = 0; a < SHOVE_DIM; ++a) {
        cr_expect_eq(r.lo[a], -4);
        cr_expect_eq(r.hi[a], -2);
    }
    /* A point on a corner touches 2^DIM cells. */
    cr_assert(SHOVE_IFN(voxel_cells)(&d, BOX(-7, -7, -7, -7, -7, -7), &r));
    cr_expect_eq(cells_in(&r), 1 << SHOVE_DIM);
}

Test(voxel, shape_bounds_widen_the_cells_read) {
    shove_voxel_def d = SHOVE_FN(default_voxel_def)();
    d.shapes = one_block;
    SHOVE_T(cell_range) r;
    /* A box with its foot at y = 3.25: with fences allowed (1.5 tall), cell
     * y = 2 (which reaches up to 3.5) must be read; with bounds [0, 1] not. */
    cr_assert(SHOVE_IFN(voxel_cells)(&d, BOX(0.25, 3.25, 0.25, 0.75, 3.75, 0.75), &r));
    cr_expect_eq(r.lo[1], 2);
    cr_expect_eq(r.hi[1], 3);
    d.shape_bounds.max.raw[1] = 1.0f;
    cr_assert(SHOVE_IFN(voxel_cells)(&d, BOX(0.25, 3.25, 0.25, 0.75, 3.75, 0.75), &r));
    cr_expect_eq(r.lo[1], 3);
    cr_expect_eq(r.hi[1], 3);
    /* Bounds reaching a whole cell down: cell y = 4 may hold boxes down to 3. */
    d.shape_bounds.min.raw[1] = -1.0f;
    cr_assert(SHOVE_IFN(voxel_cells)(&d, BOX(0.25, 3.25, 0.25, 0.75, 3.75, 0.75), &r));
    cr_expect_eq(r.lo[1], 3);
    cr_expect_eq(r.hi[1], 4);
}

Test(voxel, cells_beyond_int32_do_not_exist) {
    shove_voxel_def d = SHOVE_FN(default_voxel_def)();
    d.shapes = one_block;
    d.voxel_size = 1e-3f;
    SHOVE_T(cell_range) r;
    /* 1e7 world units at 1e-3 per voxel: cell 1e10, past int32. */
    cr_expect(!SHOVE_IFN(voxel_cells)(&d, BOX(1e7, 1e7, 1e7, 1.1e7, 1.1e7, 1.1e7), &r));
    /* Straddling the limit: clamped to it. */
    cr_assert(SHOVE_IFN(voxel_cells)(&d, BOX(2147483.0, 0, 0, 2147484.5, 0.001, 0.001), &r));
    cr_expect_eq(r.hi[0], INT32_MAX);
    cr_expect(r.lo[0] < INT32_MAX);
}

Test(voxel, cells_shortcut_agrees_with_ceil_and_floor) {
    /* Regions at every scale, many of them on or a hair off a cell face
     * (where the tolerance and the rounding decide), and some straddling
     * or past 2^30 and 2^31 cells, where the shortcut must hand over; and
     * defs with origin 0 and size 1, which take a shorter way there. */
    static const float sizes[] = {1.0f, 0.5f, 0.1f, 3.0f, 1e-3f, 1e-6f, 1e-30f, 1e30f};
    static const float reach[] = {10.0f, 1e3f, 1e6f, 2e6f, 1e9f, 1e20f, 3e38f};
    test_rng rng = {0x5eed0008u};
    int found = 0, empty = 0, huge = 0;
    for (int trial = 0; trial < 200000; ++trial) {
        shove_voxel_def d = SHOVE_FN(default_voxel_def)();
        d.shapes = one_block;
        d.voxel_size = sizes[test_rng_int(&rng, 0, 7)];
        if (test_rng_int(&rng, 0, 3) == 0) {
            d.voxel_size *= test_rng_float(&rng, 0.5f, 2.0f);
        }
        for (int a = 0; a < SHOVE_DIM; ++a) {
            d.origin.raw[a] = test_rng_int(&rng, 0, 2) == 0 ? 0.0f
                                                            : test_rng_float(&rng, -1.0f, 1.0f) *
                                                                  reach[test_rng_int(&rng, 0, 6)];
            d.shape_bounds.min.raw[a] = test_rng_float(&rng, -1.0f, 0.5f);
            d.shape_bounds.max.raw[a] =
                d.shape_bounds.min.raw[a] + test_rng_float(&rng, 0.0f, 1.0f);
        }
        if (test_rng_int(&rng, 0, 3) == 0) {
            /* origin 0 (either sign) and size 1: a shorter way there too */
            d.voxel_size = 1.0f;
            for (int a = 0; a < SHOVE_DIM; ++a) {
                d.origin.raw[a] = test_rng_int(&rng, 0, 1) ? -0.0f : 0.0f;
            }
        }
        shove_aabb b;
        bool ok = true;
        for (int a = 0; a < SHOVE_DIM; ++a) {
            const float r = reach[test_rng_int(&rng, 0, 6)];
            float lo = test_rng_float(&rng, -r, r);
            if (test_rng_int(&rng, 0, 1)) {
                /* on a cell face, or a few float steps off it */
                const double cell = floor(((double)lo - d.origin.raw[a]) / d.voxel_size);
                lo = (float)(d.origin.raw[a] + d.voxel_size * cell);
                for (int k = test_rng_int(&rng, -3, 3); k != 0; k += k < 0 ? 1 : -1) {
                    lo = nextafterf(lo, k < 0 ? -INFINITY : INFINITY);
                }
            }
            const float size = test_rng_int(&rng, 0, 3) == 0
                                   ? 0.0f
                                   : d.voxel_size * test_rng_float(&rng, 0.0f, 3.0f);
            b.min.raw[a] = lo;
            b.max.raw[a] = lo + size;
            ok = ok && isfinite(b.min.raw[a]) && isfinite(b.max.raw[a]);
        }
        if (!ok || !isfinite(d.voxel_size) || !(d.voxel_size > 0.0f)) {
            continue;
        }
        SHOVE_T(cell_range) fast, slow;
        memset(&fast, 0, sizeof fast);
        memset(&slow, 0, sizeof slow);
        const bool got = SHOVE_IFN(voxel_cells)(&d, b, &fast);
        const bool want = SHOVE_IFN(voxel_cells_exact)(&d, b, &slow);
        cr_assert_eq(got, want, "trial %d", trial);
        if (!want) {
            ++empty;
            continue;
        }
        ++found;
        for (int a = 0; a < SHOVE_DIM; ++a) {
            cr_assert_eq(fast.lo[a], slow.lo[a], "trial %d axis %d", trial, a);
            cr_assert_eq(fast.hi[a], slow.hi[a], "trial %d axis %d", trial, a);
            huge += slow.lo[a] < -(1 << 30) || slow.hi[a] > (1 << 30);
        }
    }
    cr_expect_gt(found, 10000, "found %d empty %d huge %d", found, empty, huge);
    cr_expect_gt(empty, 1000, "found %d empty %d huge %d", found, empty, huge);
    cr_expect_gt(huge, 1000, "found %d empty %d huge %d", found, empty, huge);
}

/* >>shapes to world boxes ------------------------------------------------- */

typedef struct odd_shapes {
    int answer; /* the count the callback returns */
    int lie;    /* 0: honest boxes; 1 NaN, 2 inverted, 3 below, 4 above the bounds */
    int at;     /* which box lies */
} odd_shapes;

static int odd_shapes_fn(void *ctx, int32_t x, int32_t y,
#if SHOVE_DIM == 3
                         int32_t z,
#endif
                         shove_aabb out[SHOVE_VOXEL_MAX_BOXES]) {
    const odd_shapes *o = ctx;
    (void)x;
    (void)y;
#if SHOVE_DIM == 3
    (void)z;
#endif
    for (int i = 0; i < SHOVE_VOXEL_MAX_BOXES; ++i) {
        out[i] = BOX(0, 0, 0, 1, 0.125 * (i + 1), 1);
    }
    shove_aabb *b = &out[o->at];
    switch (o->lie) {
    case 1:
        b->min.raw[0] = NAN;
        break;
    case 2:
        *b = BOX(0.5, 0, 0, 0.25, 1, 1);
        break;
    case 3:
        *b = BOX(0, -0.25, 0, 1, 1, 1);
        break;
    case 4:
        *b = BOX(0, 1.25, 0, 1, 1.75, 1); /* a wall 1.75 tall: past 1.5 */
        break;
    default:
        break;
    }
    return o->answer;
}

Test(voxel, shapes_that_break_the_contract_fail_the_read) {
    odd_shapes o = {SHOVE_VOXEL_MAX_BOXES, 0, 0};
    shove_voxel_def d = SHOVE_FN(default_voxel_def)();
    d.shapes = odd_shapes_fn;
    d.ctx = &o;
    const int32_t cell[3] = {2, -3, 4};
    shove_aabb out[SHOVE_VOXEL_MAX_BOXES];
    /* Honest: every box, in world units, none cut. */
    cr_assert_eq(SHOVE_IFN(voxel_read)(&d, cell, out), SHOVE_VOXEL_MAX_BOXES);
    EXPECT_VEC_EQ(out[0].min, V(2, -3, 4));
    EXPECT_VEC_EQ(out[0].max, V(3, -3 + 0.125, 5));
    EXPECT_VEC_EQ(out[7].max, V(3, -2, 5));
    o.answer = 0;
    cr_expect_eq(SHOVE_IFN(voxel_read)(&d, cell, out), 0);
    /* Counts outside 0..8. */
    static const int counts[] = {-1, -5, SHOVE_VOXEL_MAX_BOXES + 1, 100, INT32_MIN};
    for (int i = 0; i < 5; ++i) {
        o.answer = counts[i];
        cr_expect_eq(SHOVE_IFN(voxel_read)(&d, cell, out), -1, "count %d", counts[i]);
    }
    /* Each kind of bad box, first or last, fails the whole read. */
    for (int lie = 1; lie <= 4; ++lie) {
        for (int at = 0; at < 3; ++at) {
            o.answer = 3;
            o.lie = lie;
            o.at = at;
            cr_expect_eq(SHOVE_IFN(voxel_read)(&d, cell, out), -1, "lie %d at %d", lie, at);
            /* a lying box past the count is not an answer */
            o.answer = at;
            cr_expect_eq(SHOVE_IFN(voxel_read)(&d, cell, out), at, "lie %d at %d", lie, at);
        }
    }
    /* Bounds wide enough make the tall wall honest. */
    o.lie = 4;
    o.at = 0;
    o.answer = 1;
    d.shape_bounds.max.raw[1] = 2.0f;
    cr_expect_eq(SHOVE_IFN(voxel_read)(&d, cell, out), 1);
    EXPECT_VEC_EQ(out[0].max, V(3, -1.25, 5));
}

static int every_block(void *ctx, int32_t x, int32_t y,
#if SHOVE_DIM == 3
                       int32_t z,
#endif
                       shove_aabb out[SHOVE_VOXEL_MAX_BOXES]) {
    (void)ctx;
    (void)x;
    (void)y;
#if SHOVE_DIM == 3
    (void)z;
#endif
    out[0] = BOX(0, 0, 0, 1, 1, 1);
    return 1;
}

Test(voxel, neighbour_faces_are_the_same_float_at_any_size_and_index) {
    test_rng rng = {0x5eed0001u};
    for (int trial = 0; trial < 3000; ++trial) {
        shove_voxel_def d = SHOVE_FN(default_voxel_def)();
        d.shapes = every_block;
        d.voxel_size = test_rng_float(&rng, 0.01f, 3.0f);
        for (int a = 0; a < SHOVE_DIM; ++a) {
            d.origin.raw[a] = test_rng_float(&rng, -1000.0f, 1000.0f);
        }
        int32_t cell[3];
        for (int a = 0; a < 3; ++a) {
            cell[a] = test_rng_int(&rng, -1000000, 1000000);
        }
        shove_aabb here[SHOVE_VOXEL_MAX_BOXES], next[SHOVE_VOXEL_MAX_BOXES];
        cr_assert_eq(SHOVE_IFN(voxel_read)(&d, cell, here), 1);
        for (int a = 0; a < SHOVE_DIM; ++a) {
            int32_t c1[3] = {cell[0], cell[1], cell[2]};
            c1[a] += 1;
            cr_assert_eq(SHOVE_IFN(voxel_read)(&d, c1, next), 1);
            cr_assert_eq(here[0].max.raw[a], next[0].min.raw[a], "trial %d axis %d", trial, a);
            /* and it is where it should be, to float precision */
            const double want = (double)d.origin.raw[a] + (double)d.voxel_size * (cell[a] + 1.0);
            cr_assert(fabs((double)here[0].max.raw[a] - want) <= fabs(want) * 0x1p-24);
        }
    }
}

/* >>gather ------------------------------------------------------------------ */

/* The voxels alone, merged along x, no flags, a fresh budget per gather:
 * the gather a move makes when nothing else is in the world. */
static bool gather_voxels(const shove_voxel_def *d, shove_aabb box, shove_vec delta, float margin,
                          SHOVE_IFN(obstacle_set) * out) {
    shove__voxel_budget budget = SHOVE_IFN(voxel_budget)(d);
    return SHOVE_IFN(voxel_gather)(d, box, delta, margin, 0u, true, NAN, false, &budget, out);
}

Test(voxel, gather_lists_touching_boxes_only_with_null_ids) {
    test_map *m = map_new(-4, -4, -4, 8, 8, 8);
    map_set(m, -1, -1, 0, CELL_FULL);      /* touches the box's bottom face */
    map_set(m, 1, 0, 0, CELL_SLAB_BOTTOM); /* touches its +x face */
    map_set(m, -3, 0, 0, CELL_FULL);       /* a cell away: not touching */
    map_set(m, 0, -2, 0, CELL_FENCE);      /* reaches up to -0.5: not touching */
    const shove_voxel_def d = map_def(m, V(0, 0, 0), 1.0f);
    SHOVE_IFN(obstacle_set) set;
    SHOVE_IFN(obstacles_init)(&set, NULL);
    /* The box [-1, 1] x [0, 1] in x, y (z [0, 1]). */
    cr_assert(gather_voxels(&d, BOX(-1, 0, 0, 1, 1, 1), V(0, 0, 0), 0.0f, &set));
    cr_assert_eq(set.count, 2u);
    for (size_t i = 0; i < set.count; ++i) {
        cr_expect_eq(set.id[i].index, 0u);
        cr_expect_eq(set.id[i].generation, 0u);
        cr_expect_eq(set.index[i], -1);
    }
    /* With a margin of 1 the full block at x = -3 (max face -2) touches. */
    SHOVE_IFN(obstacles_clear)(&set);
    cr_assert(gather_voxels(&d, BOX(-1, 0, 0, 1, 1, 1), V(0, 0, 0), 1.0f, &set));
    cr_expect_eq(set.count, 4u);
    SHOVE_IFN(obstacles_free)(&set);
    map_free(m);
}

Test(voxel, gather_joins_runs_of_voxels_along_x) {
    test_map *m = map_new(-8, -4, -4, 16, 8, 8);
    for (int32_t x = -8; x < 8; ++x) {
        map_set(m, x, -1, 0, CELL_FULL); /* a floor row */
    }
    map_set(m, 3, -1, 0, CELL_SLAB_BOTTOM); /* one slab breaks the row */
    const shove_voxel_def d = map_def(m, V(0, 0, 0), 1.0f);
    SHOVE_IFN(obstacle_set) set;
    SHOVE_IFN(obstacles_init)(&set, NULL);
    /* The box spans x [-3.5, 6.5] on the floor (z [0.25, 0.75]). */
    cr_assert(gather_voxels(&d, BOX(-3.5, 0, 0.25, 6.5, 1, 0.75), V(0, 0, 0), 0.0f, &set));
    /* Cells -4 .. 2 joined and cells 4 .. 6 joined; the slab at 3 is half
     * a voxel below the box and does not touch it. */
    cr_assert_eq(set.count, 2u);
    cr_expect_eq(set.min[0][0], -4.0f);
    cr_expect_eq(set.max[0][0], 3.0f);
    cr_expect_eq(set.min[0][1], 4.0f);
    cr_expect_eq(set.max[0][1], 7.0f);
    for (size_t i = 0; i < 2; ++i) {
        cr_expect_eq(set.min[1][i], -1.0f);
        cr_expect_eq(set.max[1][i], 0.0f);
    }
    /* With a margin of 1: cells -5 .. 2, the slab, cells 4 .. 7. */
    SHOVE_IFN(obstacles_clear)(&set);
    cr_assert(gather_voxels(&d, BOX(-3.5, 0, 0.25, 6.5, 1, 0.75), V(0, 0, 0), 1.0f, &set));
    cr_assert_eq(set.count, 3u);
    cr_expect_eq(set.min[0][0], -5.0f);
    cr_expect_eq(set.max[0][0], 3.0f);
    cr_expect_eq(set.min[0][1], 3.0f);
    cr_expect_eq(set.max[0][1], 4.0f);
    cr_expect_eq(set.max[1][1], -0.5f);
    cr_expect_eq(set.min[0][2], 4.0f);
    cr_expect_eq(set.max[0][2], 8.0f);
    SHOVE_IFN(obstacles_free)(&set);
    map_free(m);
}

/* Shapes only on cells with an even x (so no two join along x), chosen
 * from a hash of the cell by the function in ctx (an even_x_shapes). */
typedef struct even_x_shapes {
    int (*of_hash)(uint32_t h, shove_aabb out[SHOVE_VOXEL_MAX_BOXES]);
} even_x_shapes;

static int even_x_cells(void *ctx, int32_t x, int32_t y,
#if SHOVE_DIM == 3
                        int32_t z,
#endif
                        shove_aabb out[SHOVE_VOXEL_MAX_BOXES]) {
#if SHOVE_DIM == 2
    const int32_t z = 0;
#endif
    if (x & 1) {
        return 0;
    }
    const uint32_t h =
        ((uint32_t)x * 73856093u) ^ ((uint32_t)y * 19349663u) ^ ((uint32_t)z * 83492791u);
    return ((const even_x_shapes *)ctx)->of_hash(h, out);
}

static shove_voxel_def even_x_def(even_x_shapes *shapes) {
    shove_voxel_def d = SHOVE_FN(default_voxel_def)();
    d.shapes = even_x_cells;
    d.ctx = shapes;
    return d;
}

/* Blocks and slabs, now and then with a box that is not valid. */
static int even_blocks(uint32_t h, shove_aabb out[SHOVE_VOXEL_MAX_BOXES]) {
    switch (h % 4u) {
    case 0:
        return 0;
    case 1:
        out[0] = BOX(0, 0, 0, 1, 1, 1);
        return 1;
    case 2:
        out[0] = BOX(0, 0, 0, 1, 0.5, 1);
        out[1] = BOX(0.25, 0.5, 0.25, 0.75, 1.5, 0.75);
        return 2;
    default:
        out[0] = BOX(0, 0.5, 0, 1, 1, 1);
        out[1] = BOX(0, 0, 0, 1, 0.25, 1);
        return 2;
    }
}

/* Gathers `box` (no motion, no margin) and checks that the set holds, in
 * cell order, the boxes voxel_read gives for the cells of the region that
 * touch it (the callback must never answer boxes that join along x), or
 * that the gather refused a lying callback or cells past float precision.
 * Returns how many, 0 when refused, or -1 when the region covers too many
 * cells to list; counts in *dropped the cells whose one box voxel_read
 * dropped (beyond float range). */
static int gather_matches_reads(const shove_voxel_def *d, shove_aabb box, int trial, int *dropped) {
    /* The region a gather with no margin reads: one float step more. */
    shove_aabb q = box;
    for (int a = 0; a < SHOVE_DIM; ++a) {
        q.min.raw[a] = nextafterf(q.min.raw[a], -INFINITY);
        q.max.raw[a] = nextafterf(q.max.raw[a], INFINITY);
    }
    SHOVE_T(cell_range) r;
    double cells = 1.0;
    bool some = SHOVE_IFN(voxel_cells)(d, q, &r);
    for (int a = 0; a < SHOVE_DIM && some; ++a) {
        cells *= (double)r.hi[a] - (double)r.lo[a] + 1.0;
    }
    if (!some || cells > 1000.0) {
        return -1; /* nothing there, or too coarse a float grid to list */
    }
    static shove_aabb want[1000 * SHOVE_VOXEL_MAX_BOXES];
    int n_want = 0;
    bool lied = false;
    int32_t c[3] = {0, 0, 0};
#if SHOVE_DIM == 3
    for (c[2] = r.lo[2]; c[2] <= r.hi[2]; ++c[2])
#endif
        for (c[1] = r.lo[1]; c[1] <= r.hi[1]; ++c[1]) {
            for (c[0] = r.lo[0]; c[0] <= r.hi[0]; ++c[0]) {
                shove_aabb got[SHOVE_VOXEL_MAX_BOXES];
                const int asked = d->shapes(d->ctx, c[0], c[1],
#if SHOVE_DIM == 3
                                            c[2],
#endif
                                            got);
                const int n = SHOVE_IFN(voxel_read)(d, c, got);
                lied = lied || n < 0;
                *dropped += asked == 1 && n == 0;
                for (int i = 0; i < n; ++i) {
                    bool touches = true;
                    for (int a = 0; a < SHOVE_DIM; ++a) {
                        touches = touches && got[i].min.raw[a] <= q.max.raw[a] &&
                                  q.min.raw[a] <= got[i].max.raw[a];
                    }
                    if (touches) {
                        want[n_want++] = got[i];
                    }
                }
            }
        }
    /* Cells further than 2^24 voxels from world zero are past float
     * precision: the gather refuses them, as it refuses a lying callback. */
    bool precise = true;
    for (int a = 0; a < SHOVE_DIM; ++a) {
        const double far = fabs((double)d->origin.raw[a]) / (double)d->voxel_size +
                           fmax(fabs((double)r.lo[a]), fabs((double)r.hi[a]));
        precise = precise && far <= 0x1p24;
    }
    SHOVE_IFN(obstacle_set) set;
    SHOVE_IFN(obstacles_init)(&set, NULL);
    shove__voxel_budget budget = SHOVE_IFN(voxel_budget)(d);
    const bool ok =
        SHOVE_IFN(voxel_gather)(d, box, V(0, 0, 0), 0.0f, 0u, true, NAN, false, &budget, &set);
    if (!precise || lied) {
        cr_assert(!ok, "trial %d", trial);
        cr_assert_eq(budget.status, precise ? SHOVE_ERR_INVALID_ARGUMENT : SHOVE_ERR_OUT_OF_RANGE,
                     "trial %d", trial);
        SHOVE_IFN(obstacles_free)(&set);
        return 0;
    }
    cr_assert(ok, "trial %d", trial);
    cr_assert_eq(budget.status, SHOVE_OK);
    cr_assert_eq(set.count, (size_t)n_want, "trial %d", trial);
    for (int i = 0; i < n_want; ++i) {
        for (int a = 0; a < SHOVE_DIM; ++a) {
            cr_assert_eq(set.min[a][i], want[i].min.raw[a], "trial %d box %d", trial, i);
            cr_assert_eq(set.max[a][i], want[i].max.raw[a], "trial %d box %d", trial, i);
        }
    }
    SHOVE_IFN(obstacles_free)(&set);
    return n_want;
}

Test(voxel, gather_keeps_what_reading_each_cell_gives_at_any_scale) {
    /* Sizes and origins from the everyday to the edge of float range: the
     * gather skips the float-range check where no box can leave it, so
     * both kinds of frame must give what voxel_read gives (which always
     * checks), boxes beyond float range dropped. */
    static const float sizes[] = {1.0f, 0.5f, 3.0f, 1e-3f, 0x1p90f, 0x1p91f, 1e30f, 1e36f};
    static const float origins[] = {0.0f, 1000.0f, -0.1f, 1e20f, 0x1p120f, 0x1p121f, 3e37f, 3e38f};
    static even_x_shapes blocks = {even_blocks};
    test_rng rng = {0x5eed0007u};
    int checked = 0, dropped = 0;
    for (int trial = 0; trial < 8000; ++trial) {
        shove_voxel_def d = even_x_def(&blocks);
        d.voxel_size = sizes[test_rng_int(&rng, 0, 7)];
        shove_aabb box;
        bool ok = true;
        for (int a = 0; a < SHOVE_DIM; ++a) {
            const float o = origins[test_rng_int(&rng, 0, 7)];
            d.origin.raw[a] = test_rng_int(&rng, 0, 1) ? -o : o;
            /* near the origin, or now and then at the edge of float range */
            const int edge = test_rng_int(&rng, -2, 2);
            const double near = edge == 2 || edge == -2 ? edge * 0.5 * FLT_MAX : d.origin.raw[a];
            const double at = near + (double)d.voxel_size * test_rng_float(&rng, -40.0f, 40.0f);
            box.min.raw[a] = (float)at;
            box.max.raw[a] = (float)(at + (double)d.voxel_size * test_rng_float(&rng, 0.0f, 2.5f));
            ok = ok && isfinite(box.min.raw[a]) && isfinite(box.max.raw[a]);
        }
        if (ok) {
            checked += gather_matches_reads(&d, box, trial, &dropped) > 0;
        }
    }
    /* The trials met boxes, and blocks beyond float range. */
    cr_expect_gt(checked, 500, "checked %d dropped %d", checked, dropped);
    cr_expect_gt(dropped, 10, "checked %d dropped %d", checked, dropped);
}

/* One to three boxes with arbitrary float bounds in the shape bounds (some
 * tiny, some -0), now and then one reaching past them. */
static int even_odd_boxes(uint32_t h, shove_aabb out[SHOVE_VOXEL_MAX_BOXES]) {
    const int n = (int)(h % 4u);
    for (int i = 0; i < n; ++i) {
        for (int a = 0; a < SHOVE_DIM; ++a) {
            float v[2];
            for (int k = 0; k < 2; ++k) {
                h = h * 1664525u + 1013904223u;
                const uint32_t pick = h >> 28;
                v[k] = pick == 0   ? 1e-30f
                       : pick == 1 ? -0.0f
                       : pick == 2 ? 1.0f - 0x1p-24f
                                   : -1.5f + 4.0f * (float)(h & 0xffffffu) * 0x1p-24f;
            }
            /* inside the default shape bounds but for one box in 64 or so
             * (which fails the read), ordered */
            const float top = a == 1 ? 1.5f : 1.0f;
            const bool honest = (h >> 26 & 63u) != 0u;
            for (int k = 0; k < 2 && honest; ++k) {
                v[k] = v[k] < 0.0f ? -0.0f : (v[k] > top ? top : v[k]);
            }
            const bool swap = v[0] > v[1];
            out[i].min.raw[a] = swap ? v[1] : v[0];
            out[i].max.raw[a] = swap ? v[0] : v[1];
        }
    }
    return n;
}

Test(voxel, gather_in_float_at_origin_zero_and_size_one_keeps_what_reading_gives) {
    /* Origin 0 (either sign) and size 1 convert in float within 2^24 cells
     * of cell 0; any other origin or size, or cells further out, go through
     * double. Either way the boxes must be the ones voxel_read gives. */
    static const float origins[] = {0.0f, -0.0f, 1e-30f, 0.5f};
    static const float sizes[] = {1.0f, 1.0f, 1.0f, 0.5f, 1.0f + 0x1p-23f};
    static even_x_shapes odd = {even_odd_boxes};
    test_rng rng = {0x5eed0009u};
    int checked = 0, dropped = 0;
    for (int trial = 0; trial < 6000; ++trial) {
        shove_voxel_def d = even_x_def(&odd);
        d.voxel_size = sizes[test_rng_int(&rng, 0, 4)];
        shove_aabb box;
        const int scale = test_rng_int(&rng, 0, 26); /* cells up to 2^26 out */
        for (int a = 0; a < SHOVE_DIM; ++a) {
            d.origin.raw[a] = origins[test_rng_int(&rng, 0, 3) * (test_rng_int(&rng, 0, 3) == 0)];
            const float at = ldexpf(test_rng_float(&rng, -1.0f, 1.0f), scale);
            box.min.raw[a] = at;
            box.max.raw[a] = at + test_rng_float(&rng, 0.0f, 2.5f);
        }
        checked += gather_matches_reads(&d, box, trial, &dropped) > 0;
    }
    cr_expect_gt(checked, 1500, "checked %d", checked);
}

/* >>casts ------------------------------------------------------------------- */

Test(voxel, cast_finds_the_earliest_hit_among_bodies_and_voxels) {
    shove_world *w = new_world();
    test_map *m = map_new(-20, -4, -4, 40, 8, 8);
    map_set(m, 5, 0, 0, CELL_FULL);
    const shove_voxel_def d = map_def(m, V(0, 0, 0), 1.0f);
    cr_assert_eq(SHOVE_FN(world_set_voxels)(w, &d), SHOVE_OK);
    shove_hit hit;
    /* Voxel only. */
    cr_assert(
        SHOVE_FN(cast_box)(w, BOX(0, 0.25, 0.25, 0.5, 0.75, 0.75), V(10, 0, 0), UINT64_MAX, &hit));
    cr_expect_eq(hit.t, 0.45f);
    EXPECT_VEC_EQ(hit.normal, V(-1, 0, 0));
    cr_expect_eq(hit.other.generation, 0u);
    cr_expect(!hit.started_inside);
    /* A body in front of the voxel wins. */
    const shove_id front = test_add_body(w, BOX(3, 0, 0, 4, 1, 1), SHOVE_BODY_STATIC, 0);
    cr_assert(SHOVE_FN(cast_ray)(w, V(0, 0.5, 0.5), V(10, 0, 0), UINT64_MAX, &hit));
    cr_expect_eq(hit.t, 0.3f);
    cr_expect_eq(hit.other.index, front.index);
    cr_expect_eq(hit.other.generation, front.generation);
    /* Masked out: the voxel is hit (voxels ignore the mask). */
    cr_assert(SHOVE_FN(cast_ray)(w, V(0, 0.5, 0.5), V(10, 0, 0), 0u, &hit));
    cr_expect_eq(hit.t, 0.5f);
    cr_expect_eq(hit.other.generation, 0u);
    /* A body flush with the voxel face: same t, the body is reported. */
    SHOVE_FN(body_destroy)(w, front);
    const shove_id flush = test_add_body(w, BOX(5, 0, 0, 5.5, 1, 1), SHOVE_BODY_STATIC, 0);
    cr_assert(SHOVE_FN(cast_ray)(w, V(0, 0.5, 0.5), V(10, 0, 0), UINT64_MAX, &hit));
    cr_expect_eq(hit.t, 0.5f);
    cr_expect_eq(hit.other.index, flush.index);
    /* Going the other way, a voxel at negative x. */
    map_set(m, -8, 0, 0, CELL_SLAB_BOTTOM);
    cr_assert(SHOVE_FN(cast_ray)(w, V(0, 0.25, 0.5), V(-10, 0, 0), UINT64_MAX, &hit));
    cr_expect_eq(hit.t, 0.7f);
    EXPECT_VEC_EQ(hit.normal, V(1, 0, 0));
    /* Over the slab (y 0.75 > 0.5): nothing. */
    cr_expect(!SHOVE_FN(cast_ray)(w, V(0, 0.75, 0.5), V(-10, 0, 0), UINT64_MAX, &hit));
    /* Starting inside a voxel. */
    cr_assert(
        SHOVE_FN(cast_box)(w, BOX(5.25, 0.25, 0.25, 5.5, 0.5, 0.5), V(0, 3, 0), UINT64_MAX, &hit));
    cr_expect(hit.started_inside);
    cr_expect_eq(hit.t, 0.0f);
    /* query_box lists bodies only. */
    shove_id ids[4];
    cr_expect_eq(SHOVE_FN(query_box)(w, BOX(-9, -1, -1, 0, 2, 2), UINT64_MAX, ids, 4), 0u);
    cr_expect_eq(SHOVE_FN(query_box)(w, BOX(4, -1, -1, 6, 2, 2), UINT64_MAX, ids, 4), 1u);
    SHOVE_FN(world_destroy)(w);
    map_free(m);
}

Test(voxel, no_tunnelling_through_a_thin_voxel_plate) {
    shove_world *w = new_world();
    test_map *m = map_new(-300, -4, -4, 600, 8, 8);
    for (int y = -4; y < 4; ++y) {
        for (int z = -4; z < 4; ++z) {
            map_set(m, 200, y, z, CELL_THIN);
            map_set(m, -201, y, z, CELL_THIN);
        }
    }
    const shove_voxel_def d = map_def(m, V(0, 0, 0), 1.0f);
    cr_assert_eq(SHOVE_FN(world_set_voxels)(w, &d), SHOVE_OK);
    shove_hit hit;
    cr_assert(SHOVE_FN(cast_ray)(w, V(0, 0.5, 0.5), V(500, 0, 0), UINT64_MAX, &hit));
    cr_expect_eq(hit.t, 200.0f / 500.0f);
    cr_assert(SHOVE_FN(cast_box)(w, BOX(0, 0, 0, 0.1, 0.1, 0.1), V(500, 0, 0), UINT64_MAX, &hit));
    cr_expect_eq(hit.t, 199.9f / 500.0f);
    /* The plate of cell -201 is at x in [-201, -200.99]. */
    cr_assert(SHOVE_FN(cast_ray)(w, V(0, 0.5, 0.5), V(-500, 0, 0), UINT64_MAX, &hit));
    cr_expect(fabsf(hit.t - 200.99f / 500.0f) < 1e-6f);
    /* A move too. */
    shove_move_def def = SHOVE_FN(default_move_def)();
    def.up_axis = -1;
    const shove_id small =
        test_add_body(w, BOX(0, 0.25, 0.25, 0.1, 0.35, 0.35), SHOVE_BODY_DYNAMIC, 0);
    shove_move_result r;
    cr_assert_eq(SHOVE_FN(move)(w, small, V(500, 0, 0), &def, &r), SHOVE_OK);
    cr_expect(r.box.max.raw[0] <= 200.0f && r.box.max.raw[0] >= 200.0f - 2.0f * SKIN, "%.9g",
              (double)r.box.max.raw[0]);
    cr_expect(r.hit_wall);
    SHOVE_FN(world_destroy)(w);
    map_free(m);
}

/* Callback calls of a cast along (1, 1, 1) * length through empty space. */
static long cast_reads(test_map *m, shove_world *w, shove_aabb box, float length) {
    m->calls = 0;
    shove_hit hit;
    /* mask 0: not the body sitting there; voxels ignore the mask */
    cr_expect(!SHOVE_FN(cast_box)(w, box, V(length, length, length), 0u, &hit));
    return m->calls;
}

static long move_reads(test_map *m, shove_world *w, shove_id id, shove_aabb box, float length) {
    cr_assert_eq(SHOVE_FN(body_set_box)(w, id, box), SHOVE_OK);
    m->calls = 0;
    shove_move_result r;
    cr_assert_eq(SHOVE_FN(move)(w, id, V(length, length, length), NULL, &r), SHOVE_OK);
    EXPECT_VEC_EQ(r.delta, V(length, length, length));
    return m->calls;
}

Test(voxel, reads_grow_with_the_path_not_its_bounding_box) {
    shove_world *w = new_world();
    test_map *m = map_new(0, 0, 0, 1, 1, 1); /* all empty: every read counts */
    const shove_voxel_def d = map_def(m, V(0, 0, 0), 1.0f);
    cr_assert_eq(SHOVE_FN(world_set_voxels)(w, &d), SHOVE_OK);
    const shove_aabb box = BOX(0.2, 0.2, 0.2, 0.8, 2.0, 0.8);
    const shove_id id = test_add_body(w, box, SHOVE_BODY_DYNAMIC, 0);
    long cast[4], mv[4];
    const float len[4] = {32, 64, 128, 256};
    for (int i = 0; i < 4; ++i) {
        cast[i] = cast_reads(m, w, box, len[i]);
        mv[i] = move_reads(m, w, id, box, len[i]);
    }
    for (int i = 1; i < 4; ++i) {
        /* Twice the path, about twice the reads (never four or eight times). */
        const double rc = (double)cast[i] / (double)cast[i - 1];
        const double rm = (double)mv[i] / (double)mv[i - 1];
        cr_expect(rc > 1.6 && rc < 2.4, "cast %g -> %g: %ld -> %ld", (double)len[i - 1],
                  (double)len[i], cast[i - 1], cast[i]);
        cr_expect(rm > 1.6 && rm < 2.4, "move %g -> %g: %ld -> %ld", (double)len[i - 1],
                  (double)len[i], mv[i - 1], mv[i]);
    }
    /* And far below the bounding box of the path (256^DIM cells). */
    const double volume = pow(256.0, SHOVE_DIM);
    cr_expect((double)cast[3] < volume / 20.0, "cast reads %ld", cast[3]);
    cr_expect((double)mv[3] < volume / 10.0, "move reads %ld", mv[3]);
    /* Per voxel of path, a handful of cells (the box is 1-2 cells wide). */
    cr_expect(cast[3] < 256 * 40, "cast reads %ld", cast[3]);
    cr_expect(mv[3] < 256 * 150, "move reads %ld", mv[3]);
    SHOVE_FN(world_destroy)(w);
    map_free(m);
}

Test(voxel, a_cast_stops_reading_after_the_first_hit) {
    shove_world *w = new_world();
    test_map *m = map_new(0, -2, -2, 2000, 4, 4);
    for (int y = -2; y < 2; ++y) {
        for (int z = -2; z < 2; ++z) {
            map_set(m, 10, y, z, CELL_FULL);
        }
    }
    const shove_voxel_def d = map_def(m, V(0, 0, 0), 1.0f);
    cr_assert_eq(SHOVE_FN(world_set_voxels)(w, &d), SHOVE_OK);
    m->calls = 0;
    shove_hit hit;
    cr_assert(SHOVE_FN(cast_ray)(w, V(0.5, 0.5, 0.5), V(1900, 0, 0), UINT64_MAX, &hit));
    cr_expect_eq(hit.t, 9.5f / 1900.0f);
    cr_expect(m->calls < 200, "%ld reads for a hit 10 voxels away", m->calls);
    SHOVE_FN(world_destroy)(w);
    map_free(m);
}

/* >>holes ------------------------------------------------------------------- */

Test(voxel, a_box_passes_exactly_through_a_hole_of_its_own_size) {
    for (int axis = 0; axis < SHOVE_DIM; ++axis) {
        for (int side = -1; side <= 1; side += 2) {
            /* A plane of full voxels across `axis` at cell 0 (and -6 for
             * the negative side), with the cell at the origin missing. */
            test_map *m = map_new(-8, -8, -8, 16, 16, 16);
            const int32_t plane = side > 0 ? 3 : -6;
            for (int32_t u = -8; u < 8; ++u) {
                for (int32_t v = (SHOVE_DIM == 3 ? -8 : 0); v < (SHOVE_DIM == 3 ? 8 : 1); ++v) {
                    int32_t c[3] = {0, 0, 0};
                    c[axis] = plane;
                    c[(axis + 1) % SHOVE_DIM] = u;
                    if (SHOVE_DIM == 3) {
                        c[(axis + 2) % 3] = v;
                    }
                    bool hole = true;
                    for (int a = 0; a < SHOVE_DIM; ++a) {
                        hole = hole && (a == axis || c[a] == 0);
                    }
                    if (!hole) {
                        map_set(m, c[0], c[1], c[2], CELL_FULL);
                    }
                }
            }
            shove_world *w = new_world();
            const shove_voxel_def d = map_def(m, V(0, 0, 0), 1.0f);
            cr_assert_eq(SHOVE_FN(world_set_voxels)(w, &d), SHOVE_OK);
            const shove_aabb box = BOX(0, 0, 0, 1, 1, 1);
            shove_vec delta = V(0, 0, 0);
            delta.raw[axis] = 12.0f * (float)side;
            shove_hit hit;
            cr_expect(!SHOVE_FN(cast_box)(w, box, delta, UINT64_MAX, &hit), "axis %d side %d", axis,
                      side);
            const shove_id id = test_add_body(w, box, SHOVE_BODY_DYNAMIC, 0);
            shove_move_def def = SHOVE_FN(default_move_def)();
            def.up_axis = -1;
            shove_move_result r;
            cr_assert_eq(SHOVE_FN(move)(w, id, delta, &def, &r), SHOVE_OK);
            EXPECT_VEC_EQ(r.delta, delta);
            cr_expect_eq(r.contact_count, 0, "axis %d side %d", axis, side);
            cr_expect(!r.hit_wall && !r.hit_ceiling);
            /* One unit off-centre it is stopped by the plane. */
            shove_aabb off = box;
            const int other = (axis + 1) % SHOVE_DIM;
            off.min.raw[other] += 0.5f;
            off.max.raw[other] += 0.5f;
            cr_expect(SHOVE_FN(cast_box)(w, off, delta, UINT64_MAX, &hit));
            SHOVE_FN(world_destroy)(w);
            map_free(m);
        }
    }
}

/* >>filters and sensors ----------------------------------------------------- */

static shove_response ignore_voxels(void *ctx, shove_id mover, const shove_obstacle *obstacle) {
    (void)mover;
    const shove_id other = obstacle->other;
    const int32_t index = obstacle->index;
    int *seen = ctx;
    if (other.generation == 0u && index == -1) {
        *seen += 1;
        return SHOVE_RESPONSE_IGNORE;
    }
    return SHOVE_RESPONSE_SLIDE;
}

Test(voxel, a_filter_sees_voxels_as_null_and_minus_one) {
    shove_world *w = new_world();
    test_map *m = map_new(-4, -4, -4, 8, 8, 8);
    for (int x = -4; x < 4; ++x) {
        for (int z = -4; z < 4; ++z) {
            map_set(m, x, -1, z, CELL_FULL);
        }
    }
    const shove_voxel_def d = map_def(m, V(0, 0, 0), 1.0f);
    cr_assert_eq(SHOVE_FN(world_set_voxels)(w, &d), SHOVE_OK);
    const shove_id id = test_add_body(w, BOX(0, 0.5, 0, 0.5, 1, 0.5), SHOVE_BODY_DYNAMIC, 0);
    shove_move_result r;
    shove_contact contacts[4];
    shove_move_def def = SHOVE_FN(default_move_def)();
    def.skin = SKIN;
    def.contacts = contacts;
    def.contact_capacity = 4;
    cr_assert_eq(SHOVE_FN(move)(w, id, V(0, -2, 0), &def, &r), SHOVE_OK);
    cr_expect_eq(r.box.min.raw[1], SKIN);
    cr_expect(r.on_ground);
    cr_assert_eq(r.contact_count, 1);
    cr_expect_eq(contacts[0].other.generation, 0u);
    cr_expect_eq(contacts[0].index, -1);
    EXPECT_VEC_EQ(contacts[0].normal, V(0, 1, 0));
    /* Events: voxels are not bodies, so no contact events. */
    const shove_event *events;
    cr_expect_eq(SHOVE_FN(world_get_events)(w, &events), 0u);
    int seen = 0;
    def.filter = ignore_voxels;
    def.filter_ctx = &seen;
    cr_assert_eq(SHOVE_FN(move)(w, id, V(0, -2, 0), &def, &r), SHOVE_OK);
    cr_expect(seen > 0);
    cr_expect_eq(r.box.min.raw[1], SKIN - 2.0f);
    SHOVE_FN(world_destroy)(w);
    map_free(m);
}

/* >>shift origin ------------------------------------------------------------ */

Test(voxel, shift_origin_moves_bodies_voxels_and_the_broad_phase) {
    shove_world *w = new_world();
    test_map *m = map_new(99990, -4, -4, 20, 8, 8);
    map_set(m, 100000, 0, 0, CELL_FULL);
    const shove_voxel_def d = map_def(m, V(0, 0, 0), 1.0f);
    cr_assert_eq(SHOVE_FN(world_set_voxels)(w, &d), SHOVE_OK);
    shove_id ids[64];
    shove_aabb boxes[64];
    test_rng rng = {77u};
    for (int i = 0; i < 64; ++i) {
        boxes[i] = test_random_box(&rng, 50.0f, 0.5f, 2.0f);
        boxes[i].min.raw[0] += 100000.0f;
        boxes[i].max.raw[0] += 100000.0f;
        ids[i] = test_add_body(w, boxes[i], (i % 2) ? SHOVE_BODY_DYNAMIC : SHOVE_BODY_STATIC, 0);
    }
    /* A pending motion (set through the world's internals: the step that
     * reads them is not part of this test). */
    const uint32_t slot1 = SHOVE_IFN(world_slot)(w, ids[1]);
    w->motion[slot1] = V(1, 2, 3);
    w->flags[slot1] |= SHOVE_SLOT_HAS_MOTION;
    const shove_vec shift = V(100000, 0, 0);
    cr_assert_eq(SHOVE_FN(world_shift_origin)(w, shift), SHOVE_OK);
    for (int i = 0; i < 64; ++i) {
        const shove_aabb b = test_box_of(w, ids[i]);
        cr_expect_eq(b.min.raw[0], boxes[i].min.raw[0] - 100000.0f);
        cr_expect_eq(b.max.raw[1], boxes[i].max.raw[1]);
        /* The broad phase finds every body at its new place. */
        shove_id found[64];
        const size_t n = SHOVE_FN(query_box)(w, b, UINT64_MAX, found, 64);
        bool self = false;
        for (size_t k = 0; k < n && k < 64; ++k) {
            self = self || (found[k].index == ids[i].index);
        }
        cr_expect(self, "body %d not found after the shift", i);
    }
    cr_expect(SHOVE_IFN(tree_check)(&w->trees[0]) >= 0);
    cr_expect(SHOVE_IFN(tree_check)(&w->trees[1]) >= 0);
    EXPECT_VEC_EQ(w->motion[slot1], V(1, 2, 3));
    cr_expect(w->flags[slot1] & SHOVE_SLOT_HAS_MOTION);
    /* The voxel cell 100000 now sits at x in [0, 1]. */
    shove_hit hit;
    cr_assert(SHOVE_FN(cast_ray)(w, V(-1, 0.5, 0.5), V(2, 0, 0), 0u, &hit));
    cr_expect_eq(hit.t, 0.5f);
    EXPECT_VEC_EQ(w->voxels.origin, V(-100000, 0, 0));

    /* Bad input and a shift past float range change nothing. */
    cr_expect_eq(SHOVE_FN(world_shift_origin)(NULL, shift), SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect_eq(SHOVE_FN(world_shift_origin)(w, V(NAN, 0, 0)), SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect_eq(SHOVE_FN(world_shift_origin)(w, V(0, INFINITY, 0)), SHOVE_ERR_INVALID_ARGUMENT);
    const shove_id far = test_add_body(w, BOX(3e38, 0, 0, 3.2e38, 1, 1), SHOVE_BODY_STATIC, 0);
    cr_expect_eq(SHOVE_FN(world_shift_origin)(w, V(-2e38, 0, 0)), SHOVE_ERR_INVALID_ARGUMENT);
    cr_assert_eq(SHOVE_FN(body_destroy)(w, far), SHOVE_OK);
    cr_expect_eq(test_box_of(w, ids[0]).min.raw[0], boxes[0].min.raw[0] - 100000.0f);
    EXPECT_VEC_EQ(w->voxels.origin, V(-100000, 0, 0));
    SHOVE_FN(world_destroy)(w);
    map_free(m);
}

Test(voxel, shift_origin_out_of_memory_changes_nothing) {
    test_alloc counter;
    shove_world_def wd = SHOVE_FN(default_world_def)();
    wd.allocator = test_alloc_make(&counter);
    shove_world *w = NULL;
    cr_assert_eq(SHOVE_FN(world_create)(&wd, &w), SHOVE_OK);
    shove_id ids[200];
    test_rng rng = {99u};
    for (int i = 0; i < 200; ++i) {
        ids[i] = test_add_body(w, test_random_box(&rng, 300.0f, 0.5f, 3.0f),
                               (i % 3) ? SHOVE_BODY_STATIC : SHOVE_BODY_DYNAMIC, 0);
    }
    shove_aabb before[200];
    for (int i = 0; i < 200; ++i) {
        before[i] = test_box_of(w, ids[i]);
    }
    bool succeeded = false;
    for (long fail = 0; fail < 400 && !succeeded; ++fail) {
        counter.fail_after = counter.calls + fail;
        const shove_status s = SHOVE_FN(world_shift_origin)(w, V(10, 20, 30));
        counter.fail_after = -1;
        if (s == SHOVE_OK) {
            succeeded = true;
            break;
        }
        cr_assert_eq(s, SHOVE_ERR_OUT_OF_MEMORY);
        for (int i = 0; i < 200; ++i) {
            const shove_aabb b = test_box_of(w, ids[i]);
            cr_assert(memcmp(&b, &before[i], sizeof b) == 0);
        }
        cr_assert(SHOVE_IFN(tree_check)(&w->trees[0]) >= 0);
        cr_assert(SHOVE_IFN(tree_check)(&w->trees[1]) >= 0);
        shove_id found[8];
        cr_assert(SHOVE_FN(query_box)(w, before[5], UINT64_MAX, found, 8) >= 1u);
    }
    cr_assert(succeeded);
    cr_expect_eq(test_box_of(w, ids[7]).min.raw[1], before[7].min.raw[1] - 20.0f);
    SHOVE_FN(world_destroy)(w);
    cr_expect_eq(counter.live, 0);
    cr_expect(!counter.size_error);
}

/* >>filters see the mover and the cell ---------------------------------------- */

typedef struct cell_filter_log {
    shove_voxel_def def;
    shove_id mover;
    int voxel_calls;
    int wrong;         /* obstacles whose id, index, cell or box did not fit */
    int wrong_mover;   /* calls with a mover other than the expected one */
    int32_t hole_x;    /* the cell column the filter lets movers through */
    int cells_seen[8]; /* calls per cell x in [0, 8) */
} cell_filter_log;

static shove_response hole_filter(void *ctx, shove_id mover, const shove_obstacle *obstacle) {
    cell_filter_log *log = ctx;
    if (!shove_id_equal(mover, log->mover)) {
        ++log->wrong_mover;
    }
    if (!obstacle->voxel) {
        return SHOVE_RESPONSE_SLIDE;
    }
    ++log->voxel_calls;
    /* A full block of cell c covers origin + size * [c, c + 1]. */
    bool fits = shove_id_is_null(obstacle->other) && obstacle->index == -1;
    for (int a = 0; a < SHOVE_DIM; ++a) {
        const float lo = log->def.origin.raw[a] + log->def.voxel_size * (float)obstacle->cell[a];
        fits = fits && obstacle->box.min.raw[a] == lo &&
               obstacle->box.max.raw[a] == lo + log->def.voxel_size;
    }
    if (!fits) {
        ++log->wrong;
    }
    if (obstacle->cell[0] >= 0 && obstacle->cell[0] < 8) {
        ++log->cells_seen[obstacle->cell[0]];
    }
    return obstacle->cell[0] == log->hole_x ? SHOVE_RESPONSE_IGNORE : SHOVE_RESPONSE_SLIDE;
}

Test(voxel, a_filter_sees_the_mover_and_each_voxels_cell_and_box) {
    shove_world *w = new_world();
    test_map *m = map_new(0, -1, 0, 8, 1, 1);
    for (int x = 0; x < 8; ++x) {
        map_set(m, x, -1, 0, CELL_FULL); /* a floor row: one box without a filter */
    }
    cell_filter_log log;
    memset(&log, 0, sizeof log);
    log.def = map_def(m, V(0.5f, 0.25f, 0), 2.0f);
    log.hole_x = 2; /* covers x [4.5, 6.5] */
    cr_assert_eq(SHOVE_FN(world_set_voxels)(w, &log.def), SHOVE_OK);
    /* Floor top at 0.25 + 2 * 0 = 0.25 on y. */
    const shove_id over_hole =
        test_add_body(w, BOX(5, 1.25f, 0.5f, 6, 2.25f, 1.5f), SHOVE_BODY_DYNAMIC, 0);
    const shove_id over_floor =
        test_add_body(w, BOX(9, 1.25f, 0.5f, 10, 2.25f, 1.5f), SHOVE_BODY_DYNAMIC, 0);
    shove_move_def def = SHOVE_FN(default_move_def)();
    def.filter = hole_filter;
    def.filter_ctx = &log;
    shove_move_result r;
    log.mover = over_hole;
    cr_assert_eq(SHOVE_FN(move)(w, over_hole, V(0, -3, 0), &def, &r), SHOVE_OK);
    cr_expect_eq(r.box.min.raw[1], 1.25f - 3.0f, "fell through the filtered cell: %g",
                 (double)r.box.min.raw[1]);
    cr_expect_not(r.on_ground);
    cr_expect_gt(log.cells_seen[2], 0);
    log.mover = over_floor;
    cr_assert_eq(SHOVE_FN(move)(w, over_floor, V(0, -3, 0), &def, &r), SHOVE_OK);
    cr_expect_eq(r.box.min.raw[1], 0.25f);
    cr_expect(r.on_ground);
    /* Walking along the floor meets each cell on its own: the filter is
     * asked about each of the three cells under the path. */
    log.hole_x = -100;
    memset(log.cells_seen, 0, sizeof log.cells_seen);
    cr_assert_eq(SHOVE_FN(move)(w, over_floor, V(3, -1, 0), &def, &r), SHOVE_OK);
    cr_expect_eq(r.box.min.raw[0], 12.0f);
    cr_expect_eq(r.box.min.raw[1], 0.25f);
    cr_expect_gt(log.cells_seen[4], 0);
    cr_expect_gt(log.cells_seen[5], 0);
    cr_expect_gt(log.cells_seen[6], 0);
    /* Without a filter (the row met as one box) the walk back ends the same. */
    def.filter = NULL;
    shove_move_result r2;
    cr_assert_eq(SHOVE_FN(move)(w, over_floor, V(-3, -1, 0), &def, &r2), SHOVE_OK);
    cr_expect_eq(r2.box.min.raw[0], 9.0f);
    cr_expect_eq(r2.box.min.raw[1], 0.25f);
    cr_expect_gt(log.voxel_calls, 0);
    cr_expect_eq(log.wrong, 0);
    cr_expect_eq(log.wrong_mover, 0);
    SHOVE_FN(world_destroy)(w);
    map_free(m);
}

Test(voxel, gather_without_merge_keeps_one_obstacle_per_cell_with_its_cell) {
    test_map *m = map_new(-8, -4, -4, 16, 8, 8);
    for (int32_t x = -8; x < 8; ++x) {
        map_set(m, x, -1, 0, CELL_FULL);
    }
    const shove_voxel_def d = map_def(m, V(0, 0, 0), 1.0f);
    SHOVE_IFN(obstacle_set) set;
    SHOVE_IFN(obstacles_init)(&set, NULL);
    shove__voxel_budget budget = SHOVE_IFN(voxel_budget)(&d);
    cr_assert(SHOVE_IFN(voxel_gather)(&d, BOX(-3.5, 0, 0.25, 6.5, 1, 0.75), V(0, 0, 0), 0.0f, 0u,
                                      false, NAN, false, &budget, &set));
    cr_assert_eq(set.count, 11u); /* cells -4 .. 6 */
    for (size_t i = 0; i < set.count; ++i) {
        shove_obstacle o;
        SHOVE_IFN(obstacles_describe)(&set, i, &o);
        cr_expect(o.voxel);
        cr_expect_eq(o.cell[0], -4 + (int32_t)i);
        cr_expect_eq(o.cell[1], -1);
        cr_expect_eq(o.box.min.raw[0], (float)(-4 + (int)i));
        cr_expect_eq(o.box.max.raw[0], (float)(-3 + (int)i));
    }
    SHOVE_IFN(obstacles_free)(&set);
    map_free(m);
}
