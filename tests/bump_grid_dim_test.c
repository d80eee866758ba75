/*
 * bump_grid_dim_test.c: shove{2,3}_bump_grid, the LuaJIT module's grid of
 * bump rects, in 2D and 3D: items in and out, queries against a scan of
 * every rect, and its whole move against shove{2,3}_bump_check on a
 * world's tree. Scenes are drawn in x and y; in 3D every rect gets the z
 * range [0, 1] unless a test says otherwise.
 */
#include <stdlib.h>
#include <string.h>

#include "test_alloc.h"
#include "test_dim.h"

typedef SHOVE_T(bump_rect) bump_rect;
typedef SHOVE_T(bump_grid) bump_grid;
typedef SHOVE_T(bump_col) bump_col;

static bump_rect rect(double x, double y, double w, double h) {
    bump_rect r;
    memset(&r, 0, sizeof r);
    r.min[0] = x;
    r.min[1] = y;
    r.size[0] = w;
    r.size[1] = h;
#if SHOVE_DIM == 3
    r.min[2] = 0.0;
    r.size[2] = 1.0;
#endif
    return r;
}

static void point(double p[SHOVE_DIM], double x, double y) {
    p[0] = x;
    p[1] = y;
#if SHOVE_DIM == 3
    p[2] = 0.0;
#endif
}

static bump_grid *grid_of(double cell_size, const bump_rect *rects, uint32_t count) {
    bump_grid *g = NULL;
    cr_assert_eq(SHOVE_FN(bump_grid_create)(cell_size, NULL, &g), SHOVE_OK);
    for (uint32_t i = 0; i < count; ++i) {
        uint32_t index = UINT32_MAX;
        cr_assert_eq(SHOVE_FN(bump_grid_add)(g, &rects[i], &index), SHOVE_OK);
        cr_assert_eq(index, i);
    }
    return g;
}

/* The indices a query returns, as a set (flags by index); false if one
 * comes twice or is out of range. */
static bool query_set(bump_grid *g, const double lo[SHOVE_DIM], const double hi[SHOVE_DIM],
                      bool *found, uint32_t count) {
    uint32_t out[256];
    const uint32_t n = SHOVE_FN(bump_grid_query)(g, lo, hi, out, 256);
    cr_assert_leq(n, 256u);
    memset(found, 0, count * sizeof *found);
    for (uint32_t i = 0; i < n; ++i) {
        if (out[i] >= count || found[out[i]]) {
            return false;
        }
        found[out[i]] = true;
    }
    return true;
}

/* Whether rect r meets [lo, hi] closed, without the grid's pad. */
static bool meets(const bump_rect *r, const double lo[SHOVE_DIM], const double hi[SHOVE_DIM]) {
    for (int a = 0; a < SHOVE_DIM; ++a) {
        if (r->min[a] > hi[a] || lo[a] > r->min[a] + r->size[a]) {
            return false;
        }
    }
    return true;
}

/* Whether every rect is stored as given (bit for bit). */
static bool rects_are(const bump_grid *g, const bump_rect *rects, uint32_t count) {
    return memcmp(SHOVE_FN(bump_grid_rects)(g), rects, count * sizeof *rects) == 0;
}

Test(bump_grid, create_refuses_sizes_that_are_not_finite_and_positive) {
    bump_grid *g = (bump_grid *)&g; /* a marker: refusals leave it */
    bump_grid *const marker = g;
    cr_expect_eq(SHOVE_FN(bump_grid_create)(0.0, NULL, &g), SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect_eq(SHOVE_FN(bump_grid_create)(-1.0, NULL, &g), SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect_eq(SHOVE_FN(bump_grid_create)(NAN, NULL, &g), SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect_eq(SHOVE_FN(bump_grid_create)(INFINITY, NULL, &g), SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect_eq(SHOVE_FN(bump_grid_create)(1e-320, NULL, &g), SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect_eq(SHOVE_FN(bump_grid_create)(1.0, NULL, NULL), SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect_eq(g, marker);
    cr_assert_eq(SHOVE_FN(bump_grid_create)(64.0, NULL, &g), SHOVE_OK);
    cr_expect_eq(SHOVE_FN(bump_grid_count)(g), 0u);
    cr_expect_eq(SHOVE_FN(bump_grid_count)(NULL), 0u);
    cr_expect_null(SHOVE_FN(bump_grid_rects)(NULL));
    SHOVE_FN(bump_grid_destroy)(g);
    SHOVE_FN(bump_grid_destroy)(NULL);
}

Test(bump_grid, items_come_and_go_and_indices_are_handed_out_again) {
    const bump_rect rects[3] = {rect(0, 0, 1, 1), rect(5, 5, 2, 1), rect(-3, 0.5, 0.25, 4)};
    bump_grid *g = grid_of(2.0, rects, 3);
    cr_expect_eq(SHOVE_FN(bump_grid_count)(g), 3u);
    cr_expect(rects_are(g, rects, 3));
    cr_assert_eq(SHOVE_FN(bump_grid_remove)(g, 1), SHOVE_OK);
    cr_expect_eq(SHOVE_FN(bump_grid_count)(g), 2u);
    cr_expect_eq(SHOVE_FN(bump_grid_remove)(g, 1), SHOVE_ERR_INVALID_ARGUMENT);
    double lo[SHOVE_DIM], hi[SHOVE_DIM];
    point(lo, 4, 4);
    point(hi, 8, 8);
    uint32_t out[4];
    cr_expect_eq(SHOVE_FN(bump_grid_query)(g, lo, hi, out, 4), 0u);
    const bump_rect again = rect(6, 6, 1, 1);
    uint32_t index = 99;
    cr_assert_eq(SHOVE_FN(bump_grid_add)(g, &again, &index), SHOVE_OK);
    cr_expect_eq(index, 1u);
    cr_expect_eq(SHOVE_FN(bump_grid_query)(g, lo, hi, out, 4), 1u);
    cr_expect_eq(out[0], 1u);
    /* an update moves it out of the box */
    const bump_rect away = rect(20, 20, 1, 1);
    cr_assert_eq(SHOVE_FN(bump_grid_update)(g, 1, &away), SHOVE_OK);
    cr_expect_eq(SHOVE_FN(bump_grid_query)(g, lo, hi, out, 4), 0u);
    cr_expect_eq(SHOVE_FN(bump_grid_rects)(g)[1].min[0], 20.0);
    SHOVE_FN(bump_grid_destroy)(g);
}

Test(bump_grid, bad_rects_and_indices_change_nothing) {
    const bump_rect rects[2] = {rect(0, 0, 1, 1), rect(3, 0, 1, 1)};
    bump_grid *g = grid_of(1.0, rects, 2);
    bump_rect bad[7] = {
        rect(NAN, 0, 1, 1), rect(0, INFINITY, 1, 1),    rect(0, 0, 0, 1),        rect(0, 0, -1, 1),
        rect(0, 0, 1, NAN), rect(1.7e308, 0, 1e308, 1), rect(0, -INFINITY, 1, 1)};
    for (int i = 0; i < 7; ++i) {
        uint32_t index = 77;
        cr_expect_eq(SHOVE_FN(bump_grid_add)(g, &bad[i], &index), SHOVE_ERR_INVALID_ARGUMENT,
                     "rect %d", i);
        cr_expect_eq(index, 77u);
        cr_expect_eq(SHOVE_FN(bump_grid_update)(g, 0, &bad[i]), SHOVE_ERR_INVALID_ARGUMENT,
                     "rect %d", i);
    }
    uint32_t index = 0;
    cr_expect_eq(SHOVE_FN(bump_grid_add)(NULL, &rects[0], &index), SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect_eq(SHOVE_FN(bump_grid_add)(g, NULL, &index), SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect_eq(SHOVE_FN(bump_grid_add)(g, &rects[0], NULL), SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect_eq(SHOVE_FN(bump_grid_update)(g, 2, &rects[0]), SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect_eq(SHOVE_FN(bump_grid_update)(g, UINT32_MAX, &rects[0]), SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect_eq(SHOVE_FN(bump_grid_update)(g, 0, NULL), SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect_eq(SHOVE_FN(bump_grid_update)(NULL, 0, &rects[0]), SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect_eq(SHOVE_FN(bump_grid_remove)(NULL, 0), SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect_eq(SHOVE_FN(bump_grid_remove)(g, 5), SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect_eq(SHOVE_FN(bump_grid_count)(g), 2u);
    cr_expect(rects_are(g, rects, 2));
    /* queries of bad boxes find nothing and write nothing */
    double lo[SHOVE_DIM], hi[SHOVE_DIM];
    point(lo, -1, -1);
    point(hi, 10, 10);
    uint32_t out[4] = {7, 7, 7, 7};
    cr_expect_eq(SHOVE_FN(bump_grid_query)(g, hi, lo, out, 4), 0u); /* min > max */
    lo[0] = NAN;
    cr_expect_eq(SHOVE_FN(bump_grid_query)(g, lo, hi, out, 4), 0u);
    lo[0] = -1;
    hi[1] = INFINITY;
    cr_expect_eq(SHOVE_FN(bump_grid_query)(g, lo, hi, out, 4), 0u);
    hi[1] = 10;
    cr_expect_eq(SHOVE_FN(bump_grid_query)(NULL, lo, hi, out, 4), 0u);
    cr_expect_eq(SHOVE_FN(bump_grid_query)(g, NULL, hi, out, 4), 0u);
    cr_expect_eq(SHOVE_FN(bump_grid_query)(g, lo, NULL, out, 4), 0u);
    cr_expect_eq(SHOVE_FN(bump_grid_query)(g, lo, hi, NULL, 4), 0u);
    cr_expect_eq(out[0], 7u);
    /* with no room, the count alone */
    cr_expect_eq(SHOVE_FN(bump_grid_query)(g, lo, hi, NULL, 0), 2u);
    SHOVE_FN(bump_grid_destroy)(g);
}

/* Random rects, some wide (over more than 64 cells), some far away; every
 * query finds every rect that meets its box, each once, and any other it
 * finds is within the pad (2^-20 relative) of the box. */
static void check_queries(double cell_size, uint64_t seed) {
    enum { COUNT = 120 };
    test_rng r = {seed};
    bump_rect rects[COUNT];
    for (uint32_t i = 0; i < COUNT; ++i) {
        const double far = i % 17 == 0 ? 1e30 : 1.0;
        rects[i] = rect(test_rng_float(&r, -40, 40) * far, test_rng_float(&r, -40, 40),
                        i % 11 == 0 ? test_rng_float(&r, 30, 90) : test_rng_float(&r, 0.1f, 3),
                        test_rng_float(&r, 0.1f, 3));
    }
    bump_grid *g = grid_of(cell_size, rects, COUNT);
    /* move a third of them, so updates are checked too */
    for (uint32_t i = 0; i < COUNT; i += 3) {
        rects[i].min[0] += test_rng_float(&r, -5, 5);
        rects[i].min[1] += test_rng_float(&r, -5, 5);
        cr_assert_eq(SHOVE_FN(bump_grid_update)(g, i, &rects[i]), SHOVE_OK);
    }
    cr_expect(rects_are(g, rects, COUNT));
    bool found[COUNT];
    for (int q = 0; q < 300; ++q) {
        double lo[SHOVE_DIM], hi[SHOVE_DIM];
        for (int a = 0; a < SHOVE_DIM; ++a) {
            lo[a] = test_rng_float(&r, -45, 45);
            hi[a] = lo[a] + (q % 7 == 0 ? 0.0 : test_rng_float(&r, 0, q % 5 == 0 ? 60 : 4));
        }
        cr_assert(query_set(g, lo, hi, found, COUNT), "query %d returned an index twice", q);
        for (uint32_t i = 0; i < COUNT; ++i) {
            if (meets(&rects[i], lo, hi)) {
                cr_expect(found[i], "cell %g query %d misses rect %u", cell_size, q, i);
            } else if (found[i]) {
                double near_lo[SHOVE_DIM], near_hi[SHOVE_DIM];
                for (int a = 0; a < SHOVE_DIM; ++a) {
                    near_lo[a] = lo[a] - (fabs(lo[a]) + 1.0) * 1e-5;
                    near_hi[a] = hi[a] + (fabs(hi[a]) + 1.0) * 1e-5;
                }
                cr_expect(meets(&rects[i], near_lo, near_hi),
                          "cell %g query %d finds rect %u far from the box", cell_size, q, i);
            }
        }
    }
    SHOVE_FN(bump_grid_destroy)(g);
}

Test(bump_grid, queries_find_every_rect_that_meets_the_box) {
    check_queries(2.0, 11);
    check_queries(0.25, 12);
    check_queries(64.0, 13);
    check_queries(1e-30, 14); /* every rect over more cells than the limit */
}

/* Rects whose sides lie on cell borders (where the grid files an item in
 * the cells of its rect with the far sides open), and queries that only
 * touch them there, from either side: each finds the rect it touches. At
 * cell sizes whose inverse is not exact, far from the origin, and with a
 * rect too thin to change its low corner's value. */
static void check_borders(double cell_size, double origin) {
    enum { COUNT = 9 };
    bump_rect rects[COUNT];
    for (uint32_t i = 0; i < COUNT; ++i) {
        const double border = origin + cell_size * (double)((int)i - 4);
        /* even i: the far side on the border; odd i: the low corner */
        const double w = cell_size * (i % 3 == 0 ? 0.5 : 1.0);
        rects[i] = rect(i % 2 == 0 ? border - w : border, border, w, w);
    }
    /* a rect so thin that its far side is its low corner's value */
    rects[COUNT - 1] = rect(origin, origin, fabs(origin) * 1e-300 + 1e-300, cell_size);
    bump_grid *g = grid_of(cell_size, rects, COUNT);
    bool found[COUNT];
    for (uint32_t i = 0; i < COUNT; ++i) {
        /* boxes touching the rect's far corner and its low corner */
        double lo[SHOVE_DIM], hi[SHOVE_DIM];
        for (int side = 0; side < 2; ++side) {
            for (int a = 0; a < SHOVE_DIM; ++a) {
                const double far = rects[i].min[a] + rects[i].size[a];
                lo[a] = side == 0 ? far : rects[i].min[a] - cell_size;
                hi[a] = side == 0 ? far + cell_size : rects[i].min[a];
            }
            cr_assert(query_set(g, lo, hi, found, COUNT));
            for (uint32_t j = 0; j < COUNT; ++j) {
                cr_expect(!meets(&rects[j], lo, hi) || found[j],
                          "cell %g origin %g: the box touching rect %u (side %d) misses rect %u",
                          cell_size, origin, i, side, j);
            }
            cr_expect(found[i], "cell %g origin %g: rect %u not found (side %d)", cell_size, origin,
                      i, side);
        }
    }
    /* a rect that ends a quarter of the pad short of a border, and a box
     * that starts one and a half pads past it: they meet only grown (both
     * pads), with the border between them */
    const double border = origin + cell_size * 3.0;
    const double pad = fabs(border) * 0x1p-20 + 0x1p-100;
    const double w = cell_size * 0.5;
    const bump_rect short_of = rect(border - pad * 0.25 - w, origin, w, w);
    uint32_t index = UINT32_MAX;
    cr_assert_eq(SHOVE_FN(bump_grid_add)(g, &short_of, &index), SHOVE_OK);
    double lo[SHOVE_DIM], hi[SHOVE_DIM];
    point(lo, border + pad * 1.5, origin);
    point(hi, border + pad * 1.5 + cell_size, origin + w);
    uint32_t out[COUNT + 1];
    const uint32_t n = SHOVE_FN(bump_grid_query)(g, lo, hi, out, COUNT + 1);
    bool met = false;
    for (uint32_t j = 0; j < n && j <= COUNT; ++j) {
        met = met || out[j] == index;
    }
    cr_expect(met, "cell %g origin %g: the rect a pad short of the border is missed", cell_size,
              origin);
    SHOVE_FN(bump_grid_destroy)(g);
}

Test(bump_grid, queries_find_rects_that_touch_them_on_cell_borders) {
    const double sizes[] = {2.0, 3.0, 0.1, 64.0, 1.0 / 3.0};
    const double origins[] = {0.0, -7.5, 1e6, -1e12, 3e15};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s) {
        for (size_t o = 0; o < sizeof origins / sizeof origins[0]; ++o) {
            check_borders(sizes[s], origins[o]);
        }
    }
}

Test(bump_grid, a_query_over_more_cells_than_items_reads_every_item_once) {
    const bump_rect rects[3] = {rect(0, 0, 1, 1), rect(1e6, 0, 1, 1), rect(-1e6, 5, 1, 1)};
    bump_grid *g = grid_of(0.5, rects, 3);
    double lo[SHOVE_DIM], hi[SHOVE_DIM];
    point(lo, -2e6, -1);
    point(hi, 2e6, 10);
#if SHOVE_DIM == 3
    hi[2] = 1;
#endif
    bool found[3];
    cr_assert(query_set(g, lo, hi, found, 3));
    cr_expect(found[0] && found[1] && found[2]);
    SHOVE_FN(bump_grid_destroy)(g);
}

/* A tree world holding the rects as shove.bump's tree did (grown by the
 * pad), for shove_bump_check. */
static shove_world *world_of(const bump_rect *rects, uint32_t count) {
    shove_world *w = NULL;
    cr_assert_eq(SHOVE_FN(world_create)(NULL, &w), SHOVE_OK);
    for (uint32_t i = 0; i < count; ++i) {
        shove_body_def def = SHOVE_FN(default_body_def)();
        def.type = SHOVE_BODY_DYNAMIC;
        for (int a = 0; a < SHOVE_DIM; ++a) {
            const double lo = rects[i].min[a], hi = rects[i].min[a] + rects[i].size[a];
            def.box.min.raw[a] = (float)(lo - (fabs(lo) * 0x1p-20 + 0x1p-100));
            def.box.max.raw[a] = (float)(hi + (fabs(hi) * 0x1p-20 + 0x1p-100));
        }
        shove_id id;
        cr_assert_eq(SHOVE_FN(body_create)(w, &def, &id), SHOVE_OK);
        cr_assert_eq(id.index, i);
    }
    return w;
}

static bool same_double(double a, double b) {
    return memcmp(&a, &b, sizeof a) == 0;
}

Test(bump_grid, its_move_is_bump_check_on_the_tree) {
    enum { COUNT = 80 };
    test_rng r = {21};
    bump_rect rects[COUNT];
    for (uint32_t i = 0; i < COUNT; ++i) {
        rects[i] =
            rect(test_rng_float(&r, -12, 12), test_rng_float(&r, -12, 12),
                 test_rng_float(&r, 0.2f, i % 9 == 0 ? 12 : 2.5f), test_rng_float(&r, 0.2f, 2.5f));
    }
    shove_world *w = world_of(rects, COUNT);
    const double cells[3] = {2.0, 0.3, 50.0};
    uint32_t collided = 0;
    for (int c = 0; c < 3; ++c) {
        bump_grid *g = grid_of(cells[c], rects, COUNT);
        for (uint32_t i = 0; i < COUNT; ++i) {
            double goal[SHOVE_DIM], tree_actual[SHOVE_DIM], grid_actual[SHOVE_DIM];
            point(goal, rects[i].min[0] + test_rng_float(&r, -6, 6),
                  rects[i].min[1] + test_rng_float(&r, -6, 6));
#if SHOVE_DIM == 3
            goal[2] = rects[i].min[2];
#endif
            shove_id tree_ids[COUNT];
            uint32_t grid_ids[COUNT];
            bump_col tree_cols[COUNT], grid_cols[COUNT];
            const uint32_t k = SHOVE_FN(bump_check)(w, rects, COUNT, i, goal, 0x1p-20, 0x1p-100,
                                                    tree_ids, COUNT, tree_cols, COUNT, tree_actual);
            uint32_t n = UINT32_MAX;
            cr_assert_eq(SHOVE_FN(bump_grid_move)(g, i, goal, false, grid_ids, COUNT, grid_cols,
                                                  COUNT, &n, grid_actual),
                         SHOVE_OK);
            cr_assert_eq(n, k, "cell %g item %u: %u collisions, the tree's check %u", cells[c], i,
                         n, k);
            collided += k > 0u;
            for (int a = 0; a < SHOVE_DIM; ++a) {
                cr_expect(same_double(grid_actual[a], tree_actual[a]), "item %u axis %d", i, a);
            }
            for (uint32_t j = 0; j < k; ++j) {
                cr_expect_eq(grid_cols[j].other, tree_cols[j].other);
                cr_expect(same_double(grid_cols[j].hit.ti, tree_cols[j].hit.ti));
                for (int a = 0; a < SHOVE_DIM; ++a) {
                    cr_expect(same_double(grid_cols[j].slide[a], tree_cols[j].slide[a]));
                    cr_expect(same_double(grid_cols[j].hit.touch[a], tree_cols[j].hit.touch[a]));
                }
            }
        }
        /* a check moves nothing */
        cr_expect(rects_are(g, rects, COUNT));
        SHOVE_FN(bump_grid_destroy)(g);
    }
    cr_expect_gt(collided, 30u, "the scene should make many moves collide");
    SHOVE_FN(world_destroy)(w);
}

/* Every rect that meets a random box around `center` (within `spread`) is
 * found, each once, and any other is within the pad of the box. */
static void expect_queries_as_a_scan(bump_grid *g, const bump_rect *rects, uint32_t count,
                                     test_rng *r, double center, double spread, const char *stage) {
    bool *found = malloc(count * sizeof *found);
    cr_assert_not_null(found);
    for (int q = 0; q < 60; ++q) {
        double lo[SHOVE_DIM], hi[SHOVE_DIM];
        for (int a = 0; a < SHOVE_DIM; ++a) {
            lo[a] = center + test_rng_float(r, (float)-spread, (float)spread);
            hi[a] = lo[a] + test_rng_float(r, 0, 6);
        }
        cr_assert(query_set(g, lo, hi, found, count), "%s: query %d gave an index twice", stage, q);
        for (uint32_t i = 0; i < count; ++i) {
            double near_lo[SHOVE_DIM], near_hi[SHOVE_DIM];
            for (int a = 0; a < SHOVE_DIM; ++a) {
                near_lo[a] = lo[a] - (fabs(lo[a]) + 1.0) * 1e-5;
                near_hi[a] = hi[a] + (fabs(hi[a]) + 1.0) * 1e-5;
            }
            cr_expect(!meets(&rects[i], lo, hi) || found[i], "%s: query %d misses rect %u", stage,
                      q, i);
            cr_expect(!found[i] || meets(&rects[i], near_lo, near_hi),
                      "%s: query %d finds rect %u far from the box", stage, q, i);
        }
    }
    free(found);
}

/* The check of items first .. count-1 to a random goal near each is
 * shove_bump_check's on a tree of the same rects: the same end, the same
 * collisions. Returns how many collided. */
static uint32_t expect_moves_as_the_tree(bump_grid *g, const bump_rect *rects, uint32_t count,
                                         uint32_t first, test_rng *r, const char *stage) {
    shove_world *w = world_of(rects, count);
    uint32_t *grid_ids = malloc(count * sizeof *grid_ids);
    shove_id *tree_ids = malloc(count * sizeof *tree_ids);
    bump_col grid_cols[16], tree_cols[16];
    cr_assert(grid_ids && tree_ids);
    uint32_t collided = 0;
    for (uint32_t i = first; i < count; ++i) {
        double goal[SHOVE_DIM], tree_actual[SHOVE_DIM], grid_actual[SHOVE_DIM];
        point(goal, rects[i].min[0] + test_rng_float(r, -4, 4),
              rects[i].min[1] + test_rng_float(r, -4, 4));
#if SHOVE_DIM == 3
        goal[2] = rects[i].min[2];
#endif
        const uint32_t k = SHOVE_FN(bump_check)(w, rects, count, i, goal, 0x1p-20, 0x1p-100,
                                                tree_ids, count, tree_cols, 16, tree_actual);
        uint32_t n = UINT32_MAX;
        cr_assert_eq(SHOVE_FN(bump_grid_move)(g, i, goal, false, grid_ids, count, grid_cols, 16, &n,
                                              grid_actual),
                     SHOVE_OK, "%s: item %u", stage, i);
        cr_assert_eq(n, k, "%s: item %u: %u collisions, the tree's check %u", stage, i, n, k);
        collided += k > 0u;
        for (int a = 0; a < SHOVE_DIM; ++a) {
            cr_expect(same_double(grid_actual[a], tree_actual[a]), "%s: item %u axis %d", stage, i,
                      a);
        }
        for (uint32_t j = 0; j < k; ++j) {
            cr_expect_eq(grid_cols[j].other, tree_cols[j].other, "%s: item %u", stage, i);
            cr_expect(same_double(grid_cols[j].hit.ti, tree_cols[j].hit.ti));
        }
    }
    free(grid_ids);
    free(tree_ids);
    SHOVE_FN(world_destroy)(w);
    return collided;
}

/* The grid lays its cells out anew as its items spread and gather (a tile
 * map's cells side by side; cells far apart hashed): a map of tiles with
 * movers on it; the movers sent far away, each to a cell of its own; then
 * gathered in a block beside the map. At each stage queries find what a
 * scan finds and checks are the tree's. */
Test(bump_grid, items_that_spread_far_and_gather_again_are_found_as_before) {
    enum { MAP = 16, MOVERS = 60 };
    static bump_rect rects[MAP * MAP + MOVERS];
    test_rng r = {77};
    uint32_t tiles = 0;
    for (int y = 0; y < MAP; ++y) {
        for (int x = 0; x < MAP; ++x) {
            if ((x * 7 + y * 3) % 5 < 2 || x == 0 || y == 0) {
                rects[tiles++] = rect(x, y, 1, 1);
            }
        }
    }
    const uint32_t count = tiles + MOVERS;
    for (uint32_t i = tiles; i < count; ++i) {
        rects[i] = rect(test_rng_float(&r, 1, MAP - 1), test_rng_float(&r, 1, MAP - 1), 0.6, 0.6);
    }
    bump_grid *g = grid_of(2.0, rects, count);
    expect_queries_as_a_scan(g, rects, count, &r, MAP / 2, MAP / 2 + 2, "on the map");
    uint32_t collided = expect_moves_as_the_tree(g, rects, count, tiles, &r, "on the map");
    for (int stage = 0; stage < 2; ++stage) {
        for (uint32_t i = tiles; i < count; ++i) {
            const uint32_t m = i - tiles;
            rects[i] = stage == 0 ? rect(1e4 + 50.0 * m, 1e4 * (double)(m % 3), 0.6, 0.6)
                                  : rect(MAP + 2.0 + 2.0 * (m % 10), 2.0 * (m / 10), 1.5, 1.5);
            cr_assert_eq(SHOVE_FN(bump_grid_update)(g, i, &rects[i]), SHOVE_OK);
        }
        cr_expect(rects_are(g, rects, count));
        const char *name = stage == 0 ? "far apart" : "gathered";
        expect_queries_as_a_scan(g, rects, count, &r, stage == 0 ? 1e4 : MAP, MAP, name);
        if (stage == 0) {
            for (uint32_t m = 0; m < MOVERS; m += 7) {
                bool found[MAP * MAP + MOVERS];
                double lo[SHOVE_DIM], hi[SHOVE_DIM];
                for (int a = 0; a < SHOVE_DIM; ++a) {
                    lo[a] = rects[tiles + m].min[a];
                    hi[a] = lo[a] + 0.5;
                }
                cr_assert(query_set(g, lo, hi, found, count));
                cr_expect(found[tiles + m], "far mover %u is not found", m);
            }
        }
        collided += expect_moves_as_the_tree(g, rects, count, tiles, &r, name);
    }
    cr_expect_gt(collided, 20u, "the movers should collide on the map and in the block");
    SHOVE_FN(bump_grid_destroy)(g);
}

/* A grid of unit cells filled the way a tile map is loaded: `side` rows
 * of `side` tiles, `spacing` apart (1: side by side). Its allocator's
 * count goes to *counter. */
static bump_grid *tile_map_grid(int side, double spacing, test_alloc *counter) {
    shove_allocator al = test_alloc_make(counter);
    bump_grid *g = NULL;
    cr_assert_eq(SHOVE_FN(bump_grid_create)(1.0, &al, &g), SHOVE_OK);
    for (int y = 0; y < side; ++y) {
        for (int x = 0; x < side; ++x) {
            const bump_rect tile = rect(x * spacing, y * spacing, 1, 1);
            uint32_t index;
            cr_assert_eq(SHOVE_FN(bump_grid_add)(g, &tile, &index), SHOVE_OK);
        }
    }
    return g;
}

/* A tile map loaded row by row lays its cells out anew a few times, not
 * once a row (each layout allocates its blocks: the count bounds the
 * work), and keeps its cells side by side in less memory than as many
 * cells scattered far apart, which stay hashed. */
Test(bump_grid, a_tile_map_loaded_row_by_row_is_laid_out_a_few_times_in_little_memory) {
    enum { SIDE = 96 };
    test_alloc dense, sparse;
    bump_grid *map = tile_map_grid(SIDE, 1.0, &dense);
    bump_grid *scattered = tile_map_grid(SIDE, 9.0, &sparse);
    /* the per-index arrays double 9 times from 64 to 16,384 (4 arrays):
     * 36 calls; each layout allocates a window and a hash (about 20 of
     * them here; once a row would be 96) */
    cr_expect_leq(dense.calls, 36 + 2 * 40, "%ld allocations", dense.calls);
    /* about two thirds here, the per-index arrays the same in both */
    cr_expect_lt((double)dense.live, 0.8 * (double)sparse.live, "%lld bytes against %lld",
                 dense.live, sparse.live);
    /* every tile of the last row is found where it lies */
    for (int x = 0; x < SIDE; x += 5) {
        double lo[SHOVE_DIM], hi[SHOVE_DIM];
        point(lo, x + 0.25, SIDE - 0.75);
        point(hi, x + 0.75, SIDE - 0.25);
#if SHOVE_DIM == 3
        hi[2] = 0.5;
#endif
        uint32_t out[4];
        cr_expect_eq(SHOVE_FN(bump_grid_query)(map, lo, hi, out, 4), 1u, "tile %d", x);
        cr_expect_eq(out[0], (uint32_t)((SIDE - 1) * SIDE + x));
    }
    SHOVE_FN(bump_grid_destroy)(map);
    SHOVE_FN(bump_grid_destroy)(scattered);
    cr_expect_eq(dense.live, 0);
    cr_expect_eq(sparse.live, 0);
}

/* A move's query may give an item over several of its cells once for each
 * (its pick is the same); when they do not all fit in the room for ids,
 * the move asks again for each item once, and needs only that much room. */
Test(bump_grid, a_move_needs_room_for_each_item_near_it_once) {
    /* a mover over three cells, a wall over all of them above it */
    const bump_rect rects[2] = {rect(0.25, 0.25, 2.5, 0.5), rect(-3, 1.5, 9, 1)};
    bump_grid *g = grid_of(1.0, rects, 2);
    double goal[SHOVE_DIM], roomy[SHOVE_DIM], tight[SHOVE_DIM];
    point(goal, 0.25, 3);
    uint32_t ids[16], k_roomy = 0, k_tight = 0;
    bump_col cols_roomy[4], cols_tight[4];
    cr_assert_eq(
        SHOVE_FN(bump_grid_move)(g, 0, goal, false, ids, 16, cols_roomy, 4, &k_roomy, roomy),
        SHOVE_OK);
    cr_assert_eq(
        SHOVE_FN(bump_grid_move)(g, 0, goal, false, ids, 2, cols_tight, 4, &k_tight, tight),
        SHOVE_OK);
    cr_expect_eq(k_roomy, 1u);
    cr_expect_eq(k_tight, 1u);
    cr_expect_eq(cols_tight[0].other, 1u);
    /* under the wall: its top (0.5 high) at the wall's bottom, 1.5 */
    cr_expect(same_double(tight[1], 1.0) && same_double(roomy[1], 1.0),
              "the mover stops under the wall at %g", tight[1]);
    /* room for the mover alone is too little */
    cr_expect_eq(
        SHOVE_FN(bump_grid_move)(g, 0, goal, false, ids, 1, cols_tight, 4, &k_tight, tight),
        SHOVE_ERR_OUT_OF_RANGE);
    SHOVE_FN(bump_grid_destroy)(g);
}

Test(bump_grid, a_move_updates_the_rect_where_it_ends) {
    /* into a wall at x = 2, sliding on down to y = 2 */
    bump_rect rects[2] = {rect(0, 0, 1, 1), rect(2, -5, 1, 10)};
    bump_grid *g = grid_of(1.0, rects, 2);
    double goal[SHOVE_DIM], actual[SHOVE_DIM];
    point(goal, 4, 2);
    uint32_t ids[4], n = 0;
    bump_col cols[2];
    cr_assert_eq(SHOVE_FN(bump_grid_move)(g, 0, goal, true, ids, 4, cols, 2, &n, actual), SHOVE_OK);
    cr_expect_eq(n, 1u);
    cr_expect_eq(cols[0].other, 1u);
    cr_expect_eq(actual[0], 1.0);
    cr_expect_eq(actual[1], 2.0);
    rects[0].min[0] = 1.0;
    rects[0].min[1] = 2.0;
    cr_expect(rects_are(g, rects, 2));
    /* the grid finds it at its new place only */
    double lo[SHOVE_DIM], hi[SHOVE_DIM];
    point(lo, 0, 2.5);
    point(hi, 1.5, 2.5);
    uint32_t out[2];
    cr_expect_eq(SHOVE_FN(bump_grid_query)(g, lo, hi, out, 2), 1u);
    point(lo, 0, 0.2);
    point(hi, 0.9, 0.5);
    cr_expect_eq(SHOVE_FN(bump_grid_query)(g, lo, hi, out, 2), 0u);
    /* far along, out of its cells into the wide list and back */
    point(goal, -1e4, 2);
    cr_assert_eq(SHOVE_FN(bump_grid_move)(g, 0, goal, true, ids, 4, cols, 2, &n, actual), SHOVE_OK);
    cr_expect_eq(n, 0u);
    cr_expect_eq(SHOVE_FN(bump_grid_rects)(g)[0].min[0], -1e4);
    const bump_rect wide = rect(-1e4, 2, 500, 1);
    cr_assert_eq(SHOVE_FN(bump_grid_update)(g, 0, &wide), SHOVE_OK);
    point(lo, -9800, 2.5);
    point(hi, -9700, 2.5);
    cr_expect_eq(SHOVE_FN(bump_grid_query)(g, lo, hi, out, 2), 1u);
    cr_assert_eq(SHOVE_FN(bump_grid_update)(g, 0, &rects[1]), SHOVE_OK);
    cr_expect_eq(SHOVE_FN(bump_grid_query)(g, lo, hi, out, 2), 0u);
    SHOVE_FN(bump_grid_destroy)(g);
}

Test(bump_grid, a_move_asks_for_room_and_refuses_bad_input_changing_nothing) {
    const bump_rect rects[3] = {rect(0, 0, 1, 1), rect(2, -5, 1, 10), rect(-5, 3, 10, 1)};
    bump_grid *g = grid_of(1.0, rects, 3);
    double goal[SHOVE_DIM], actual[SHOVE_DIM] = {0};
    point(goal, 4, 4);
    uint32_t ids[8], n = 42;
    bump_col cols[4];
    /* two collisions, room for one; three items found, room for two */
    cr_expect_eq(SHOVE_FN(bump_grid_move)(g, 0, goal, true, ids, 8, cols, 1, &n, actual),
                 SHOVE_ERR_OUT_OF_RANGE);
    cr_expect_eq(SHOVE_FN(bump_grid_move)(g, 0, goal, true, ids, 2, cols, 4, &n, actual),
                 SHOVE_ERR_OUT_OF_RANGE);
    cr_expect_eq(SHOVE_FN(bump_grid_move)(NULL, 0, goal, true, ids, 8, cols, 4, &n, actual),
                 SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect_eq(SHOVE_FN(bump_grid_move)(g, 0, NULL, true, ids, 8, cols, 4, &n, actual),
                 SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect_eq(SHOVE_FN(bump_grid_move)(g, 0, goal, true, NULL, 8, cols, 4, &n, actual),
                 SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect_eq(SHOVE_FN(bump_grid_move)(g, 0, goal, true, ids, 8, NULL, 4, &n, actual),
                 SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect_eq(SHOVE_FN(bump_grid_move)(g, 0, goal, true, ids, 8, cols, 4, NULL, actual),
                 SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect_eq(SHOVE_FN(bump_grid_move)(g, 0, goal, true, ids, 8, cols, 4, &n, NULL),
                 SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect_eq(SHOVE_FN(bump_grid_move)(g, 3, goal, true, ids, 8, cols, 4, &n, actual),
                 SHOVE_ERR_INVALID_ARGUMENT);
    const double bad[3] = {NAN, INFINITY, -INFINITY};
    for (int i = 0; i < 3; ++i) {
        point(goal, bad[i], 0);
        cr_expect_eq(SHOVE_FN(bump_grid_move)(g, 0, goal, true, ids, 8, cols, 4, &n, actual),
                     SHOVE_ERR_INVALID_ARGUMENT, "goal %g", bad[i]);
    }
    cr_assert_eq(SHOVE_FN(bump_grid_remove)(g, 2), SHOVE_OK);
    point(goal, 4, 4);
    cr_expect_eq(SHOVE_FN(bump_grid_move)(g, 2, goal, true, ids, 8, cols, 4, &n, actual),
                 SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect_eq(n, 42u);
    cr_expect_eq(actual[0], 0.0);
    cr_expect(rects_are(g, rects, 2));
    cr_expect_eq(SHOVE_FN(bump_grid_count)(g), 2u);
    SHOVE_FN(bump_grid_destroy)(g);
}

/* What a grid shows: its count, and the rects of the items the script
 * keeps, with the items a query of the whole scene finds. */
typedef struct grid_view {
    uint32_t count;
    bump_rect rects[40];
    bool found[40];
} grid_view;

static void view_of(bump_grid *g, const bool *alive, grid_view *v) {
    memset(v, 0, sizeof *v);
    v->count = SHOVE_FN(bump_grid_count)(g);
    const bump_rect *rects = SHOVE_FN(bump_grid_rects)(g);
    for (uint32_t i = 0; i < 40; ++i) {
        if (alive[i]) {
            v->rects[i] = rects[i];
        }
    }
    double lo[SHOVE_DIM], hi[SHOVE_DIM];
    for (int a = 0; a < SHOVE_DIM; ++a) {
        lo[a] = -2e4;
        hi[a] = 2e4;
    }
    uint32_t out[64];
    const uint32_t n = SHOVE_FN(bump_grid_query)(g, lo, hi, out, 64);
    for (uint32_t i = 0; i < n && i < 64; ++i) {
        if (out[i] < 40) {
            v->found[out[i]] = true;
        }
    }
}

/* After a grid with the allocator failing at allocation n is destroyed:
 * nothing leaks and every size added up. */
static void expect_freed(const test_alloc *counter, long n) {
    cr_expect_eq(counter->live, 0, "failing allocation %ld: %lld bytes leak", n, counter->live);
    cr_expect_not(counter->size_error, "failing allocation %ld: a size did not add up", n);
}

/* A grid of `cell` whose allocator (counted in *counter) fails its n-th
 * allocation, or NULL when that failure refused the grid itself: then
 * with SHOVE_ERR_OUT_OF_MEMORY and nothing left allocated. */
static bump_grid *create_failing(double cell, long n, test_alloc *counter) {
    const shove_allocator al = test_alloc_make(counter);
    counter->fail_after = n;
    bump_grid *g = NULL;
    const shove_status created = SHOVE_FN(bump_grid_create)(cell, &al, &g);
    if (created != SHOVE_OK) {
        cr_expect_eq(created, SHOVE_ERR_OUT_OF_MEMORY);
        cr_expect_eq(counter->live, 0);
        return NULL;
    }
    return g;
}

/* Runs `script` with the allocator failing at allocation 0, 1, 2, ... until
 * it runs with no failure (before `limit`); returns that n. */
static long fail_each_allocation(bool (*script)(long n), long limit) {
    long n = 0;
    while (!script(n)) {
        n += 1;
        cr_assert_lt(n, limit, "the script never ran without a failure");
    }
    return n;
}

/* A script of adds (some wide), updates across cells, moves and removes,
 * with the allocator failing its n-th allocation: each refusal is
 * SHOVE_ERR_OUT_OF_MEMORY and leaves the grid as it was, and nothing
 * leaks. Returns whether the script ran with no failure at all. */
static bool run_failing(long n) {
    test_alloc counter;
    bump_grid *g = create_failing(0.5, n, &counter);
    if (!g) {
        return false;
    }
    bool failed = false, alive[40] = {false};
    grid_view before, after;
    test_rng r = {(uint64_t)n + 5u};
    for (int step = 0; step < 160; ++step) {
        const uint32_t i = (uint32_t)(step % 40);
        shove_status status;
        view_of(g, alive, &before);
        if (!alive[i]) {
            const bump_rect add = rect(test_rng_float(&r, -20, 20), test_rng_float(&r, -20, 20),
                                       i % 7 == 0 ? 60 : test_rng_float(&r, 0.2f, 3), 1);
            uint32_t index = UINT32_MAX;
            status = SHOVE_FN(bump_grid_add)(g, &add, &index);
            if (status == SHOVE_OK) {
                cr_assert_lt(index, 40u);
                alive[index] = true;
                continue;
            }
        } else if (step % 3 == 0) {
            const bump_rect moved = rect(test_rng_float(&r, -20, 20), test_rng_float(&r, -20, 20),
                                         test_rng_float(&r, 0.2f, 40), 1);
            status = SHOVE_FN(bump_grid_update)(g, i, &moved);
        } else if (step % 5 == 0) {
            cr_assert_eq(SHOVE_FN(bump_grid_remove)(g, i), SHOVE_OK);
            alive[i] = false;
            continue;
        } else {
            double goal[SHOVE_DIM], actual[SHOVE_DIM];
            point(goal, test_rng_float(&r, -25, 25), test_rng_float(&r, -25, 25));
            uint32_t ids[40], k = 0;
            bump_col cols[40];
            status = SHOVE_FN(bump_grid_move)(g, i, goal, true, ids, 40, cols, 40, &k, actual);
        }
        if (status != SHOVE_OK) {
            cr_assert_eq(status, SHOVE_ERR_OUT_OF_MEMORY, "step %d", step);
            failed = true;
            view_of(g, alive, &after);
            cr_assert(memcmp(&before, &after, sizeof before) == 0,
                      "failing allocation %ld, step %d: the grid changed", n, step);
        }
    }
    SHOVE_FN(bump_grid_destroy)(g);
    expect_freed(&counter, n);
    return !failed;
}

Test(bump_grid, a_failed_allocation_changes_nothing_and_nothing_leaks) {
    const long n = fail_each_allocation(run_failing, 100000);
    cr_expect_gt(n, 10, "the script should allocate more than a few times");
}

/* A tile map loaded with the allocator failing its n-th allocation: the
 * layouts of a map are windowed, and a window or its hash that cannot be
 * had refuses the add with SHOVE_ERR_OUT_OF_MEMORY, the grid as it was
 * (its count, and every tile added before found where it lies); nothing
 * leaks. Returns whether the map loaded with no failure. */
static bool load_map_failing(long n) {
    enum { SIDE = 24 };
    test_alloc counter;
    bump_grid *g = create_failing(1.0, n, &counter);
    if (!g) {
        return false;
    }
    bool failed = false;
    uint32_t added = 0;
    for (int y = 0; y < SIDE && !failed; ++y) {
        for (int x = 0; x < SIDE && !failed; ++x) {
            const bump_rect tile = rect(x, y, 1, 1);
            uint32_t index = UINT32_MAX;
            const shove_status status = SHOVE_FN(bump_grid_add)(g, &tile, &index);
            if (status == SHOVE_OK) {
                added += 1u;
                continue;
            }
            cr_expect_eq(status, SHOVE_ERR_OUT_OF_MEMORY, "allocation %ld", n);
            cr_expect_eq(index, UINT32_MAX);
            failed = true;
        }
    }
    cr_expect_eq(SHOVE_FN(bump_grid_count)(g), added, "allocation %ld", n);
    for (uint32_t i = 0; i < added; i += 7) {
        double lo[SHOVE_DIM], hi[SHOVE_DIM];
        point(lo, (double)(i % SIDE) + 0.25, (double)(i / SIDE) + 0.25);
        point(hi, (double)(i % SIDE) + 0.75, (double)(i / SIDE) + 0.75);
#if SHOVE_DIM == 3
        hi[2] = 0.5;
#endif
        uint32_t out[4];
        cr_expect_eq(SHOVE_FN(bump_grid_query)(g, lo, hi, out, 4), 1u, "allocation %ld tile %u", n,
                     i);
        cr_expect_eq(out[0], i);
    }
    SHOVE_FN(bump_grid_destroy)(g);
    expect_freed(&counter, n);
    return !failed;
}

Test(bump_grid, a_tile_map_that_runs_out_of_memory_keeps_what_it_had) {
    const long n = fail_each_allocation(load_map_failing, 10000);
    cr_expect_gt(n, 10, "loading a map should allocate more than a few times");
}

/* A cell keeps a few items in itself and more in a block of its own: 30
 * items in one cell, some leaving and coming back, are each found once,
 * and the blocks are freed with the grid (also after the cell empties and
 * the table is rebuilt without it). */
Test(bump_grid, a_crowded_cell_keeps_every_item) {
    test_alloc counter;
    shove_allocator al = test_alloc_make(&counter);
    bump_grid *g = NULL;
    cr_assert_eq(SHOVE_FN(bump_grid_create)(8.0, &al, &g), SHOVE_OK);
    enum { CROWD = 30 };
    bump_rect rects[CROWD];
    for (uint32_t i = 0; i < CROWD; ++i) {
        rects[i] = rect(0.2 * (double)i, 0.1 * (double)(i % 5), 0.1, 0.1);
        uint32_t index = UINT32_MAX;
        cr_assert_eq(SHOVE_FN(bump_grid_add)(g, &rects[i], &index), SHOVE_OK);
        cr_assert_eq(index, i);
    }
    double lo[SHOVE_DIM], hi[SHOVE_DIM];
    point(lo, 0.0, 0.0);
    point(hi, 7.0, 7.0);
    bool found[CROWD];
    cr_assert(query_set(g, lo, hi, found, CROWD));
    for (uint32_t i = 0; i < CROWD; ++i) {
        cr_expect(found[i], "rect %u of the crowded cell is missed", i);
    }
    /* every third one moves to the next cell and back */
    for (uint32_t i = 0; i < CROWD; i += 3) {
        const bump_rect away = rect(9.0 + 0.2 * (double)i, 1.0, 0.1, 0.1);
        cr_assert_eq(SHOVE_FN(bump_grid_update)(g, i, &away), SHOVE_OK);
    }
    cr_assert(query_set(g, lo, hi, found, CROWD));
    for (uint32_t i = 0; i < CROWD; ++i) {
        cr_expect_eq(found[i], i % 3 != 0, "rect %u after the others left", i);
    }
    for (uint32_t i = 0; i < CROWD; i += 3) {
        cr_assert_eq(SHOVE_FN(bump_grid_update)(g, i, &rects[i]), SHOVE_OK);
    }
    cr_assert(query_set(g, lo, hi, found, CROWD));
    for (uint32_t i = 0; i < CROWD; ++i) {
        cr_expect(found[i], "rect %u after coming back", i);
    }
    /* the crowd leaves for far cells, one at a time (each a new cell), so
     * that the table fills with cells and is rebuilt without the empty one */
    for (uint32_t i = 0; i < CROWD; ++i) {
        const bump_rect far = rect(100.0 + 10.0 * (double)i, 100.0, 0.1, 0.1);
        cr_assert_eq(SHOVE_FN(bump_grid_update)(g, i, &far), SHOVE_OK);
    }
    cr_assert(query_set(g, lo, hi, found, CROWD));
    for (uint32_t i = 0; i < CROWD; ++i) {
        cr_expect_not(found[i], "rect %u left but is found", i);
    }
    SHOVE_FN(bump_grid_destroy)(g);
    cr_expect_eq(counter.live, 0, "%lld bytes leak", counter.live);
}

/* Among numbers near the largest double, bump's arithmetic can carry a move
 * past it: here (found by the fuzz harness fuzz_bump) an overlap backed out
 * along a motion of one denormal, in 2D; bump-3dpd's rules in 3D end this
 * scene finitely, and the harness checks both. The move refuses such an end
 * (a check as well as a move), and nothing changes. */
#if SHOVE_DIM == 2
Test(bump_grid, a_move_whose_end_overflows_is_refused_changing_nothing) {
    const bump_rect rects[2] = {
        rect(0x1p-1070, 1e300, 1e300, 1e300),
        rect(-25.25, 1e300, 1e300, 8.98846567431158e307),
    };
    double goal[SHOVE_DIM];
    point(goal, 0.0, 1e300);
    bump_grid *g = grid_of(2.0, rects, 2);
    for (int update = 0; update < 2; ++update) {
        uint32_t ids[4], count = 77;
        bump_col cols[4];
        double actual[SHOVE_DIM];
        point(actual, 5.0, 5.0);
        cr_expect_eq(
            SHOVE_FN(bump_grid_move)(g, 0, goal, update != 0, ids, 4, cols, 4, &count, actual),
            SHOVE_ERR_INVALID_ARGUMENT, "update %d", update);
        cr_expect_eq(count, 77u);
        cr_expect_eq(actual[0], 5.0);
        cr_expect(rects_are(g, rects, 2), "update %d: a rect changed", update);
    }
    SHOVE_FN(bump_grid_destroy)(g);
}
#endif

/* A crowded cell's first block (its fifth item) and every later growth can
 * fail: each refusal is SHOVE_ERR_OUT_OF_MEMORY, changes nothing a query or
 * the rects show, and nothing leaks. */
Test(bump_grid, a_crowded_cell_that_cannot_grow_changes_nothing) {
    for (long fail = 0; fail < 40; ++fail) {
        test_alloc counter;
        shove_allocator al = test_alloc_make(&counter);
        bump_grid *g = NULL;
        cr_assert_eq(SHOVE_FN(bump_grid_create)(8.0, &al, &g), SHOVE_OK);
        counter.fail_after = counter.calls + fail;
        double lo[SHOVE_DIM], hi[SHOVE_DIM];
        point(lo, 0.0, 0.0);
        point(hi, 7.0, 7.0);
        bump_rect rects[12];
        uint32_t added = 0;
        for (uint32_t i = 0; i < 12; ++i) {
            rects[i] = rect(0.5 * (double)i, 0.25, 0.1, 0.1);
            uint32_t index = UINT32_MAX;
            const shove_status s = SHOVE_FN(bump_grid_add)(g, &rects[i], &index);
            if (s != SHOVE_OK) {
                cr_assert_eq(s, SHOVE_ERR_OUT_OF_MEMORY, "failing allocation %ld", fail);
                cr_expect_eq(index, UINT32_MAX);
                break;
            }
            added += 1u;
        }
        bool found[12];
        cr_assert(query_set(g, lo, hi, found, 12));
        cr_expect_eq(SHOVE_FN(bump_grid_count)(g), added, "failing allocation %ld", fail);
        for (uint32_t i = 0; i < 12; ++i) {
            cr_expect_eq(found[i], i < added, "failing allocation %ld, rect %u", fail, i);
        }
        cr_expect(added == 0u || rects_are(g, rects, added));
        SHOVE_FN(bump_grid_destroy)(g);
        cr_expect_eq(counter.live, 0, "failing allocation %ld: %lld bytes leak", fail,
                     counter.live);
    }
}
