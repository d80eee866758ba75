/*
 * Casts treat the union of solids as solid: a ray, or a box flat on an
 * axis, running exactly along the shared face of two solid boxes (voxels,
 * tiles or bodies, or a body on a voxel) hits them, although each box alone
 * is only touched. A single box touched along a face is still no hit, for
 * the casts and for shove3_ray_aabb / shove3_sweep_aabb.
 */
#include "test_dim.h"
#include "test_voxel_map.h"

/* The wall of scenario 17 (seams in casts; the list is in
 * scenarios_dim_test.c): voxels (tiles) at x = 50 filling y 0..4, z cell 0. */
static test_map *wall_map(void) {
    test_map *m = map_new(40, -2, -2, 20, 10, 5);
    for (int32_t y = 0; y < 4; ++y) {
        map_set(m, 50, y, 0, CELL_FULL);
    }
    return m;
}

static shove_world *new_world(void) {
    shove_world *w;
    cr_assert_eq(SHOVE_FN(world_create)(NULL, &w), SHOVE_OK);
    return w;
}

static shove_id add_static(shove_world *w, shove_aabb box) {
    shove_body_def def = SHOVE_FN(default_body_def)();
    def.box = box;
    shove_id id;
    cr_assert_eq(SHOVE_FN(body_create)(w, &def, &id), SHOVE_OK);
    return id;
}

static bool same_id(shove_id a, shove_id b) {
    return a.index == b.index && a.generation == b.generation;
}

/* The same wall as four stacked bodies; ids[i] covers y i..i+1. */
static shove_world *wall_bodies(shove_id ids[4]) {
    shove_world *w = new_world();
    for (int i = 0; i < 4; ++i) {
        ids[i] = add_static(w, BOX(50, (float)i, 0, 51, (float)i + 1, 1));
    }
    return w;
}

static shove_world *wall_voxels(test_map *m) {
    shove_world *w = new_world();
    const shove_voxel_def def = map_def(m, V(0, 0, 0), 1.0f);
    cr_assert_eq(SHOVE_FN(world_set_voxels)(w, &def), SHOVE_OK);
    return w;
}

/* >>scenario 17 ------------------------------------------------------------- */

Test(cast_seams, rays_along_voxel_seams_hit_the_wall) {
    test_map *m = wall_map();
    shove_world *w = wall_voxels(m);
    for (int y = 1; y <= 3; ++y) {
        shove_hit hit;
        memset(&hit, 0xAB, sizeof hit);
        cr_assert(SHOVE_FN(cast_ray)(w, V(0.5f, (float)y, 0.5f), V(100, 0, 0), ~0ull, &hit),
                  "ray at y = %d sees through the seam", y);
        cr_expect_eq(hit.t, 0.495f, "y %d: t %.9g", y, (double)hit.t);
        EXPECT_VEC_EQ(hit.normal, V(-1, 0, 0));
        cr_expect(shove_id_is_null(hit.other));
        cr_expect(!hit.started_inside);
        /* and from the other side */
        cr_assert(SHOVE_FN(cast_ray)(w, V(99.5f, (float)y, 0.5f), V(-100, 0, 0), ~0ull, &hit));
        cr_expect_eq(hit.t, 0.485f, "y %d: t %.9g", y, (double)hit.t);
        EXPECT_VEC_EQ(hit.normal, V(1, 0, 0));
    }
    /* inside a cell: an ordinary hit, same answer */
    shove_hit hit;
    cr_assert(SHOVE_FN(cast_ray)(w, V(0.5f, 1.5f, 0.5f), V(100, 0, 0), ~0ull, &hit));
    cr_expect_eq(hit.t, 0.495f);
    /* along the wall's top and bottom faces: only touched, no hit */
    cr_expect(!SHOVE_FN(cast_ray)(w, V(0.5f, 4, 0.5f), V(100, 0, 0), ~0ull, &hit));
    cr_expect(!SHOVE_FN(cast_ray)(w, V(0.5f, 0, 0.5f), V(100, 0, 0), ~0ull, &hit));
    /* a ray that stops short of the wall */
    cr_expect(!SHOVE_FN(cast_ray)(w, V(0.5f, 2, 0.5f), V(49, 0, 0), ~0ull, &hit));
    /* starting inside the wall, on a seam: inside the union */
    cr_assert(SHOVE_FN(cast_ray)(w, V(50.5f, 2, 0.5f), V(100, 0, 0), ~0ull, &hit));
    cr_expect_eq(hit.t, 0.0f);
    cr_expect(hit.started_inside);
    SHOVE_FN(world_destroy)(w);
    map_free(m);
}

Test(cast_seams, rays_along_body_seams_hit_the_wall) {
    shove_id ids[4];
    shove_world *w = wall_bodies(ids);
    for (int y = 1; y <= 3; ++y) {
        shove_hit hit;
        cr_assert(SHOVE_FN(cast_ray)(w, V(0.5f, (float)y, 0.5f), V(100, 0, 0), ~0ull, &hit),
                  "ray at y = %d sees through the seam", y);
        cr_expect_eq(hit.t, 0.495f, "y %d: t %.9g", y, (double)hit.t);
        EXPECT_VEC_EQ(hit.normal, V(-1, 0, 0));
        cr_expect(same_id(hit.other, ids[y - 1]) || same_id(hit.other, ids[y]),
                  "y %d names a body off the seam", y);
        /* each body alone is only touched */
        cr_expect(!SHOVE_FN(ray_aabb)(V(0.5f, (float)y, 0.5f), V(100, 0, 0),
                                      BOX(50, (float)y, 0, 51, (float)y + 1, 1), NULL));
        cr_expect(!SHOVE_FN(ray_aabb)(V(0.5f, (float)y, 0.5f), V(100, 0, 0),
                                      BOX(50, (float)y - 1, 0, 51, (float)y, 1), NULL));
    }
    shove_hit hit;
    cr_expect(!SHOVE_FN(cast_ray)(w, V(0.5f, 4, 0.5f), V(100, 0, 0), ~0ull, &hit));
    /* the mask still chooses: without the upper body's category, the seam
     * at y = 1 has solid on one side only */
    shove_world *w2 = new_world();
    add_static(w2, BOX(50, 0, 0, 51, 1, 1));
    shove_body_def def = SHOVE_FN(default_body_def)();
    def.box = BOX(50, 1, 0, 51, 2, 1);
    def.category = 2;
    shove_id upper;
    cr_assert_eq(SHOVE_FN(body_create)(w2, &def, &upper), SHOVE_OK);
    cr_expect(SHOVE_FN(cast_ray)(w2, V(0.5f, 1, 0.5f), V(100, 0, 0), ~0ull, &hit));
    cr_expect(!SHOVE_FN(cast_ray)(w2, V(0.5f, 1, 0.5f), V(100, 0, 0), 1u, &hit));
    SHOVE_FN(world_destroy)(w2);
    SHOVE_FN(world_destroy)(w);
}

Test(cast_seams, flat_box_casts_along_seams_hit_the_wall) {
    test_map *m = wall_map();
    shove_world *wv = wall_voxels(m);
    shove_id ids[4];
    shove_world *wb = wall_bodies(ids);
    for (int y = 1; y <= 3; ++y) {
        const shove_aabb flat = BOX(0, (float)y, 0.25f, 1, (float)y, 0.75f);
        shove_hit hit;
        cr_assert(SHOVE_FN(cast_box)(wv, flat, V(100, 0, 0), ~0ull, &hit), "voxels, y %d", y);
        cr_expect_eq(hit.t, 0.49f);
        EXPECT_VEC_EQ(hit.normal, V(-1, 0, 0));
        cr_assert(SHOVE_FN(cast_box)(wb, flat, V(100, 0, 0), ~0ull, &hit), "bodies, y %d", y);
        cr_expect_eq(hit.t, 0.49f);
        /* a thin box across the seam hits each box on its own */
        const shove_aabb thin = BOX(0, (float)y - 0.001f, 0.25f, 1, (float)y + 0.001f, 0.75f);
        cr_assert(SHOVE_FN(cast_box)(wv, thin, V(100, 0, 0), ~0ull, &hit));
        cr_expect_eq(hit.t, 0.49f);
    }
    SHOVE_FN(world_destroy)(wv);
    SHOVE_FN(world_destroy)(wb);
    map_free(m);
}

/* >>what counts --------------------------------------------------------------- */

Test(cast_seams, a_body_on_a_voxel_is_solid_across_their_face) {
    test_map *m = map_new(40, -2, -2, 20, 10, 5);
    map_set(m, 50, 0, 0, CELL_FULL);
    shove_world *w = wall_voxels(m);
    const shove_id top = add_static(w, BOX(50, 1, 0, 51, 2, 1));
    shove_hit hit;
    cr_assert(SHOVE_FN(cast_ray)(w, V(0.5f, 1, 0.5f), V(100, 0, 0), ~0ull, &hit));
    cr_expect_eq(hit.t, 0.495f);
    cr_expect(same_id(hit.other, top), "the body of the pair is named");
    SHOVE_FN(world_destroy)(w);
    map_free(m);
}

Test(cast_seams, the_hit_is_where_both_sides_are_solid) {
    shove_world *w = new_world();
    /* below: x 50..52; above: x 51..53. Solid around y = 1 from x = 51. */
    add_static(w, BOX(50, 0, 0, 52, 1, 1));
    add_static(w, BOX(51, 1, 0, 53, 2, 1));
    shove_hit hit;
    cr_assert(SHOVE_FN(cast_ray)(w, V(0, 1, 0.5f), V(100, 0, 0), ~0ull, &hit));
    cr_expect_eq(hit.t, 0.51f);
    EXPECT_VEC_EQ(hit.normal, V(-1, 0, 0));
    cr_assert(SHOVE_FN(cast_ray)(w, V(100, 1, 0.5f), V(-100, 0, 0), ~0ull, &hit));
    cr_expect_eq(hit.t, 0.48f);
    EXPECT_VEC_EQ(hit.normal, V(1, 0, 0));
    /* a ray along the seam ending before x = 51 misses */
    cr_expect(!SHOVE_FN(cast_ray)(w, V(0, 1, 0.5f), V(50.5f, 0, 0), ~0ull, &hit));
    SHOVE_FN(world_destroy)(w);
    /* boxes meeting only at an edge (x = 51) leave no solid part */
    w = new_world();
    add_static(w, BOX(50, 0, 0, 51, 1, 1));
    add_static(w, BOX(51, 1, 0, 52, 2, 1));
    cr_expect(!SHOVE_FN(cast_ray)(w, V(0, 1, 0.5f), V(100, 0, 0), ~0ull, &hit));
    SHOVE_FN(world_destroy)(w);
}

Test(cast_seams, rays_off_the_faces_and_moving_across_them_are_unchanged) {
    shove_id ids[4];
    shove_world *w = wall_bodies(ids);
    test_rng rng = {1717};
    for (int i = 0; i < 2000; ++i) {
        const shove_vec o = V(test_rng_float(&rng, 0, 100), test_rng_float(&rng, -1, 5),
                              test_rng_float(&rng, -1, 2));
        shove_vec d = V(test_rng_float(&rng, -100, 100), test_rng_float(&rng, -5, 5),
                        test_rng_float(&rng, -2, 2));
        if (i % 3 == 0) {
            d.raw[1] = 0.0f; /* level, but not on a face */
        }
        /* the cast is the earliest of the per-box rays */
        bool want = false;
        shove_hit best;
        for (int k = 0; k < 4; ++k) {
            shove_hit h;
            if (SHOVE_FN(ray_aabb)(o, d, BOX(50, (float)k, 0, 51, (float)k + 1, 1), &h) &&
                (!want || h.t < best.t)) {
                best = h;
                want = true;
            }
        }
        shove_hit got;
        const bool hit = SHOVE_FN(cast_ray)(w, o, d, ~0ull, &got);
        cr_assert_eq(hit, want, "ray %d", i);
        if (hit) {
            cr_expect_eq(got.t, best.t, "ray %d", i);
            EXPECT_VEC_EQ(got.normal, best.normal);
        }
    }
    SHOVE_FN(world_destroy)(w);
}

/* Random tile maps: a level ray along a grid line y = c is inside the union
 * exactly where the cells on both sides of that line are solid. */
Test(cast_seams, random_maps_along_grid_lines) {
    test_rng rng = {4242};
    for (int trial = 0; trial < 60; ++trial) {
        test_map *m = map_new(0, 0, 0, 24, 6, 1);
        for (int32_t x = 0; x < 24; ++x) {
            for (int32_t y = 0; y < 6; ++y) {
                if (test_rng_int(&rng, 0, 2) == 0) {
                    map_set(m, x, y, 0, CELL_FULL);
                }
            }
        }
        shove_world *wv = wall_voxels(m);
        shove_world *wb = new_world();
        for (int32_t x = 0; x < 24; ++x) {
            for (int32_t y = 0; y < 6; ++y) {
                if (map_get(m, x, y, 0) == CELL_FULL) {
                    add_static(wb, BOX((float)x, (float)y, 0, (float)x + 1, (float)y + 1, 1));
                }
            }
        }
        for (int ray = 0; ray < 20; ++ray) {
            const int32_t c = test_rng_int(&rng, 1, 5);
            const float x0 = (float)test_rng_int(&rng, 0, 47) * 0.5f + 0.25f;
            const bool right = test_rng_int(&rng, 0, 1);
            const float dx = right ? 30.0f : -30.0f;
            /* the expected hit: the first column both sides of y = c are
             * solid in, entered at its near face (or at t = 0 inside it) */
            bool want = false, inside = false;
            float want_t = 0.0f;
            const int32_t first = (int32_t)floorf(x0);
            for (int32_t x = first; x >= 0 && x < 24 && !want; x += right ? 1 : -1) {
                if (map_get(m, x, c - 1, 0) == CELL_FULL && map_get(m, x, c, 0) == CELL_FULL) {
                    want = true;
                    inside = x == first;
                    const float face = right ? (float)x : (float)x + 1.0f;
                    want_t = inside ? 0.0f : (face - x0) / dx;
                }
            }
            const shove_vec o = V(x0, (float)c, 0.5f);
            shove_hit hv, hb;
            const bool gv = SHOVE_FN(cast_ray)(wv, o, V(dx, 0, 0), ~0ull, &hv);
            const bool gb = SHOVE_FN(cast_ray)(wb, o, V(dx, 0, 0), ~0ull, &hb);
            cr_assert_eq(gv, want, "trial %d ray %d (voxels)", trial, ray);
            cr_assert_eq(gb, want, "trial %d ray %d (bodies)", trial, ray);
            if (want) {
                cr_expect(fabsf(hv.t - want_t) <= 1e-6f, "voxels t %.9g want %.9g", (double)hv.t,
                          (double)want_t);
                cr_expect_eq(hb.t, hv.t);
                cr_expect_eq(hv.started_inside, inside);
                cr_expect_eq(hb.started_inside, inside);
                if (!inside) {
                    EXPECT_VEC_EQ(hv.normal, V(right ? -1.0f : 1.0f, 0, 0));
                    EXPECT_VEC_EQ(hb.normal, hv.normal);
                }
            }
        }
        SHOVE_FN(world_destroy)(wv);
        SHOVE_FN(world_destroy)(wb);
        map_free(m);
    }
}

#if SHOVE_DIM == 3
/* Along an edge where four voxels meet, the union is solid only when all
 * four are there. */
Test(cast_seams, rays_along_an_edge_of_four_voxels) {
    for (int missing = -1; missing < 4; ++missing) {
        test_map *m = map_new(40, -2, -2, 20, 10, 5);
        for (int q = 0; q < 4; ++q) {
            if (q != missing) {
                map_set(m, 50, q & 1, q >> 1, CELL_FULL);
            }
        }
        shove_world *w = wall_voxels(m);
        shove_hit hit;
        const bool got = SHOVE_FN(cast_ray)(w, V(0.5f, 1, 1), V(100, 0, 0), ~0ull, &hit);
        cr_expect_eq(got, missing < 0, "missing voxel %d", missing);
        if (got) {
            cr_expect_eq(hit.t, 0.495f);
            EXPECT_VEC_EQ(hit.normal, V(-1, 0, 0));
        }
        SHOVE_FN(world_destroy)(w);
        map_free(m);
    }
}
#endif

/* A ray of zero length at a point where four cells meet (x and y on grid
 * lines; z inside the cells in 3D) is inside the union only when all four
 * are solid. */
Test(cast_seams, a_still_point_where_four_cells_meet) {
    for (int missing = -1; missing < 4; ++missing) {
        test_map *m = map_new(40, -2, -2, 20, 10, 5);
        for (int q = 0; q < 4; ++q) {
            if (q != missing) {
                map_set(m, 50 + (q & 1), q >> 1, 0, CELL_FULL);
            }
        }
        shove_world *w = wall_voxels(m);
        shove_hit hit;
        const bool got = SHOVE_FN(cast_ray)(w, V(51, 1, 0.5f), V(0, 0, 0), ~0ull, &hit);
        cr_expect_eq(got, missing < 0, "missing cell %d", missing);
        if (got) {
            cr_expect_eq(hit.t, 0.0f);
            cr_expect(hit.started_inside);
        }
        SHOVE_FN(world_destroy)(w);
        map_free(m);
    }
}
