/*
 * geometry_dim_test.c: boxes, the slab sweep and rays, in 2D and 3D.
 */
#include <float.h>

#include "test_dim.h"

/* A unit cube (square) at the origin; the 3D runs give every box z [0, 1]
 * unless a test says otherwise. */
static shove_aabb unit_at(float x, float y) {
    return BOX(x, y, 0, x + 1, y + 1, 1);
}

static shove_vec axis_vec(int axis, float value) {
    shove_vec v = shove_vec_splat(0.0f);
    v.raw[axis] = value;
    return v;
}

static shove_aabb moved(shove_aabb b, shove_vec d, float t) {
    for (int i = 0; i < SHOVE_DIM; ++i) {
        b.min.raw[i] += t * d.raw[i];
        b.max.raw[i] += t * d.raw[i];
    }
    return b;
}

Test(aabb, validity) {
    cr_expect(SHOVE_FN(aabb_is_valid)(unit_at(0, 0)));
    cr_expect(SHOVE_FN(aabb_is_valid)(BOX(1, 1, 1, 1, 1, 1)), "zero-size boxes are valid");
    cr_expect(!SHOVE_FN(aabb_is_valid)(BOX(1, 0, 0, 0, 1, 1)), "min > max");
    cr_expect(!SHOVE_FN(aabb_is_valid)(BOX(NAN, 0, 0, 1, 1, 1)));
    cr_expect(!SHOVE_FN(aabb_is_valid)(BOX(0, 0, 0, INFINITY, 1, 1)));
    cr_expect(!SHOVE_FN(aabb_is_valid)(BOX(-INFINITY, 0, 0, 1, 1, 1)));
#if SHOVE_DIM == 3
    cr_expect(!SHOVE_FN(aabb_is_valid)(BOX(0, 0, 2, 1, 1, 1)), "min > max on z");
    cr_expect(!SHOVE_FN(aabb_is_valid)(BOX(0, 0, NAN, 1, 1, 1)), "NaN on z");
#endif
}

Test(aabb, overlap_is_strict) {
    const shove_aabb a = unit_at(0, 0);
    cr_expect(SHOVE_FN(aabb_overlaps)(a, BOX(0.5, 0.5, 0.5, 2, 2, 2)));
    cr_expect(!SHOVE_FN(aabb_overlaps)(a, unit_at(1, 0)), "sharing a face is touching");
    cr_expect(!SHOVE_FN(aabb_overlaps)(a, unit_at(1, 1)), "sharing a corner is touching");
    cr_expect(!SHOVE_FN(aabb_overlaps)(a, unit_at(3, 0)));
    cr_expect(SHOVE_FN(aabb_overlaps)(a, a), "a box overlaps itself");
    cr_expect(!SHOVE_FN(aabb_overlaps)(a, BOX(2, 0, 0, 0, 1, 1)), "invalid boxes never overlap");
    cr_expect(!SHOVE_FN(aabb_overlaps)(BOX(0.5, 0.5, 0.5, 0.5, 0.5, 0.5), BOX(0, 0, 0, 0, 0, 0)));
    cr_expect(SHOVE_FN(aabb_overlaps)(BOX(0.5, 0.5, 0.5, 0.5, 0.5, 0.5), a),
              "a point strictly inside overlaps");
}

Test(aabb, from_center) {
    const shove_aabb b = SHOVE_FN(aabb_from_center)(V(1, 2, 3), V(0.5, 1, 2));
    EXPECT_VEC_EQ(b.min, V(0.5, 1, 1));
    EXPECT_VEC_EQ(b.max, V(1.5, 3, 5));
}

Test(sweep, exact_time_and_normal_on_every_axis_and_side) {
    for (int axis = 0; axis < SHOVE_DIM; ++axis) {
        for (int side = -1; side <= 1; side += 2) {
            const shove_aabb mover = BOX(0, 0, 0, 1, 1, 1);
            /* target 2 units away on this axis and side */
            shove_aabb target = mover;
            target.min.raw[axis] += 3.0f * (float)side;
            target.max.raw[axis] += 3.0f * (float)side;
            shove_hit hit;
            const bool found =
                SHOVE_FN(sweep_aabb)(mover, axis_vec(axis, 4.0f * (float)side), target, &hit);
            cr_assert(found, "axis %d side %d", axis, side);
            cr_expect_eq(hit.t, 0.5f);
            EXPECT_VEC_EQ(hit.normal, axis_vec(axis, -(float)side));
            cr_expect(!hit.started_inside);
            cr_expect(shove_id_is_null(hit.other));
        }
    }
}

Test(sweep, sliding_along_a_touched_face_is_not_a_hit) {
    const shove_aabb floor_tile = unit_at(2, -1);
    /* resting on top of the floor's plane, moving along it */
    cr_expect(!SHOVE_FN(sweep_aabb)(unit_at(0, 0), V(5, 0, 0), floor_tile, NULL));
    /* even when it crosses the whole face */
    cr_expect(!SHOVE_FN(sweep_aabb)(unit_at(0, 0), V(-5, 0, 0), unit_at(-3, -1), NULL));
}

Test(sweep, edge_and_corner_grazes_are_not_hits) {
    /* diagonal neighbour: the mover passes its corner along y = 1 */
    cr_expect(!SHOVE_FN(sweep_aabb)(unit_at(0, 0), V(5, 0, 0), unit_at(2, 1), NULL));
#if SHOVE_DIM == 3
    /* 3D: only an edge meets along the path (touching in y and z) */
    cr_expect(
        !SHOVE_FN(sweep_aabb)(BOX(0, 0, 0, 1, 1, 1), V(5, 0, 0), BOX(2, 1, 1, 3, 2, 2), NULL));
#endif
    /* a corner that touches at t = 0 while the mover moves away diagonally */
    cr_expect(!SHOVE_FN(sweep_aabb)(unit_at(0, 0), V(-1, -1, 0), unit_at(1, 1), NULL));
}

Test(sweep, exact_corner_entry_picks_the_smaller_motion_axis) {
    /* a mover running right and pressing down, exactly at the seam between
     * the tile it stands on and the next: the next tile is entered on x and
     * y at t = 0; the smaller motion (y) names the normal, so it reads as
     * floor, not as a wall */
    shove_hit hit;
    cr_assert(SHOVE_FN(sweep_aabb)(unit_at(0, 1), V(0.2, -0.1, 0), unit_at(1, 0), &hit));
    cr_expect_eq(hit.t, 0.0f);
    EXPECT_VEC_EQ(hit.normal, V(0, 1, 0));
    cr_expect(!hit.started_inside);
    /* the same against a wall of stacked boxes while moving up it */
    cr_assert(SHOVE_FN(sweep_aabb)(unit_at(0, 0), V(0.1, 0.2, 0), unit_at(1, 1), &hit));
    EXPECT_VEC_EQ(hit.normal, V(-1, 0, 0));
}

Test(sweep, exact_fit_gap_is_not_a_hit) {
    /* gap of width 1 between two walls, a mover of width 1 moving down
     * through it: it touches both walls all the way, overlapping neither */
    const shove_aabb left = BOX(-2, -5, 0, 0, 5, 1);
    const shove_aabb right = BOX(1, -5, 0, 3, 5, 1);
    const shove_aabb mover = BOX(0, 6, 0, 1, 7, 1);
    cr_expect(!SHOVE_FN(sweep_aabb)(mover, V(0, -20, 0), left, NULL));
    cr_expect(!SHOVE_FN(sweep_aabb)(mover, V(0, -20, 0), right, NULL));
    /* and with exact binary fractions */
    cr_expect(!SHOVE_FN(sweep_aabb)(BOX(0.5, 3, 0, 1, 3.5, 1), V(0, -8, 0), BOX(1, -2, 0, 2, 2, 1),
                                    NULL));
}

Test(sweep, started_inside_reports_cheapest_exit) {
    shove_hit hit;
    /* mover sunk 0.25 into the top of a floor */
    cr_assert(SHOVE_FN(sweep_aabb)(BOX(0, 0.75, 0, 1, 1.75, 1), V(1, 0, 0), BOX(-5, 0, -5, 5, 1, 5),
                                   &hit));
    cr_expect(hit.started_inside);
    cr_expect_eq(hit.t, 0.0f);
    EXPECT_VEC_EQ(hit.normal, V(0, 1, 0));
    /* zero motion while overlapping is still a hit */
    cr_expect(SHOVE_FN(sweep_aabb)(BOX(0, 0.75, 0, 1, 1.75, 1), V(0, 0, 0), BOX(-5, 0, -5, 5, 1, 5),
                                   NULL));
}

Test(sweep, touching_then_moving_in_hits_at_zero_and_moving_away_does_not) {
    shove_hit hit;
    cr_assert(SHOVE_FN(sweep_aabb)(unit_at(0, 1), V(0, -0.5, 0), unit_at(0, 0), &hit));
    cr_expect_eq(hit.t, 0.0f);
    cr_expect(!hit.started_inside);
    EXPECT_VEC_EQ(hit.normal, V(0, 1, 0));
    cr_expect(!SHOVE_FN(sweep_aabb)(unit_at(0, 1), V(0, 0.5, 0), unit_at(0, 0), NULL));
    cr_expect(!SHOVE_FN(sweep_aabb)(unit_at(0, 1), V(0, 0, 0), unit_at(0, 0), NULL),
              "zero motion while touching");
}

Test(sweep, ending_exactly_in_contact_is_not_a_hit) {
    /* moves 1 unit and ends touching the face: never overlaps */
    cr_expect(!SHOVE_FN(sweep_aabb)(unit_at(0, 0), V(1, 0, 0), unit_at(2, 0), NULL));
    /* a hair more and it does */
    shove_hit hit;
    cr_assert(SHOVE_FN(sweep_aabb)(unit_at(0, 0), V(1.0001f, 0, 0), unit_at(2, 0), &hit));
    cr_expect(hit.t > 0.999f && hit.t < 1.0f);
}

Test(sweep, tiny_and_huge_motions) {
    shove_hit hit;
    cr_expect(!SHOVE_FN(sweep_aabb)(unit_at(0, 0), V(1e-7, 0, 0), unit_at(1.001f, 0), NULL));
    cr_assert(SHOVE_FN(sweep_aabb)(unit_at(0, 0), V(1e-7, 0, 0), unit_at(1, 0), &hit));
    cr_expect_eq(hit.t, 0.0f);
    /* 500 units at a wall 0.01 thick (scenario 6) */
    const shove_aabb wall = BOX(10, -5, -5, 10.01, 5, 5);
    cr_assert(SHOVE_FN(sweep_aabb)(BOX(0, 0, 0, 0.1, 0.1, 0.1), V(500, 0, 0), wall, &hit));
    cr_expect_float_eq(hit.t, 9.9f / 500.0f, 1e-6f);
    EXPECT_VEC_EQ(hit.normal, V(-1, 0, 0));
    /* far beyond anything a frame moves */
    cr_assert(SHOVE_FN(sweep_aabb)(unit_at(0, 0), V(1e30, 0, 0), unit_at(100, 0), &hit));
    cr_expect(hit.t > 0.0f && hit.t < 1e-27f);
}

Test(sweep, bad_input_is_no_hit_and_leaves_hit_alone) {
    shove_hit hit = {.t = 42.0f};
    const shove_aabb a = unit_at(0, 0);
    const shove_aabb b = unit_at(0.5f, 0);
    cr_expect(!SHOVE_FN(sweep_aabb)(a, V(NAN, 0, 0), b, &hit));
    cr_expect(!SHOVE_FN(sweep_aabb)(a, V(INFINITY, 0, 0), b, &hit));
    cr_expect(!SHOVE_FN(sweep_aabb)(BOX(NAN, 0, 0, 1, 1, 1), V(1, 0, 0), b, &hit));
    cr_expect(!SHOVE_FN(sweep_aabb)(a, V(1, 0, 0), BOX(1, 0, 0, 0, 1, 1), &hit));
    cr_expect(!SHOVE_FN(sweep_aabb)(a, V(1, 0, 0), BOX(0, 0, 0, INFINITY, 1, 1), &hit));
    cr_expect(!SHOVE_FN(ray_aabb)(V(NAN, 0, 0), V(1, 0, 0), b, &hit));
    cr_expect(!SHOVE_FN(ray_aabb)(V(0, 0, 0), V(1, -INFINITY, 0), b, &hit));
    cr_expect_eq(hit.t, 42.0f, "hit must stay untouched");
}

Test(ray, hits_faces_and_skips_grazes) {
    shove_hit hit;
    const shove_aabb box = BOX(2, 0, 0, 3, 1, 1);
    cr_assert(SHOVE_FN(ray_aabb)(V(0, 0.5, 0.5), V(4, 0, 0), box, &hit));
    cr_expect_eq(hit.t, 0.5f);
    EXPECT_VEC_EQ(hit.normal, V(-1, 0, 0));
    /* along the box's bottom face */
    cr_expect(!SHOVE_FN(ray_aabb)(V(0, 0, 0.5), V(4, 0, 0), box, NULL));
    /* from inside */
    cr_assert(SHOVE_FN(ray_aabb)(V(2.9f, 0.5, 0.5), V(-4, 0, 0), box, &hit));
    cr_expect(hit.started_inside);
    cr_expect_eq(hit.t, 0.0f);
    /* short of the box */
    cr_expect(!SHOVE_FN(ray_aabb)(V(0, 0.5, 0.5), V(1.5, 0, 0), box, NULL));
    /* a zero-size box is never entered by a ray (strict overlap) */
    cr_expect(!SHOVE_FN(ray_aabb)(V(0, 0.5, 0.5), V(4, 0, 0), BOX(1, 0.5, 0.5, 1, 0.5, 0.5), NULL));
}

/* Compares the sweep with brute-force sampling of t on random pairs: any
 * sampled overlap must be reported no later than the sample, and a reported
 * hit must put the boxes in contact at t with the normal facing the motion. */
Test(sweep, agrees_with_brute_force_sampling) {
    test_rng rng = {0x5EED0001u};
    enum { PAIRS = 4000, SAMPLES = 400 };
    int hits = 0, sampled_hits = 0;
    for (int n = 0; n < PAIRS; ++n) {
        const shove_aabb target = test_random_box(&rng, 1.0f, 0.0f, 2.5f);
        shove_aabb mover = test_random_box(&rng, 2.5f, 0.0f, 1.5f);
        shove_vec delta;
        for (int i = 0; i < SHOVE_DIM; ++i) {
            delta.raw[i] = test_rng_int(&rng, 0, 5) == 0 ? 0.0f : test_rng_float(&rng, -6.0f, 6.0f);
        }
        /* snap some coordinates to a grid so touching cases come up */
        if (n % 3 == 0) {
            for (int i = 0; i < SHOVE_DIM; ++i) {
                mover.min.raw[i] = floorf(mover.min.raw[i] * 4.0f) / 4.0f;
                mover.max.raw[i] = mover.min.raw[i] + 1.0f;
                delta.raw[i] = floorf(delta.raw[i] * 4.0f) / 4.0f;
            }
        }
        shove_hit hit;
        const bool found = SHOVE_FN(sweep_aabb)(mover, delta, target, &hit);
        hits += found;
        float first_sample = INFINITY;
        for (int s = 0; s <= SAMPLES; ++s) {
            const float t = (float)s / (float)SAMPLES;
            if (SHOVE_IFN(overlaps_unchecked)(moved(mover, delta, t), target)) {
                first_sample = t;
                break;
            }
        }
        if (first_sample < INFINITY) {
            ++sampled_hits;
            cr_assert(found, "pair %d: sampled overlap at t=%g but no hit", n,
                      (double)first_sample);
            cr_assert(hit.t <= first_sample + 1e-5f, "pair %d: hit t=%g after sample %g", n,
                      (double)hit.t, (double)first_sample);
        }
        if (found) {
            cr_assert(hit.t >= 0.0f && hit.t <= 1.0f);
            /* at t the boxes touch or overlap: grown by a hair they overlap */
            shove_aabb at = moved(mover, delta, hit.t);
            for (int i = 0; i < SHOVE_DIM; ++i) {
                at.min.raw[i] -= 1e-4f;
                at.max.raw[i] += 1e-4f;
            }
            cr_assert(SHOVE_IFN(overlaps_unchecked)(at, target), "pair %d: not in contact at t", n);
            int axes = 0;
            for (int i = 0; i < SHOVE_DIM; ++i) {
                axes += hit.normal.raw[i] != 0.0f;
                if (!hit.started_inside && hit.normal.raw[i] != 0.0f) {
                    cr_assert(hit.normal.raw[i] * delta.raw[i] < 0.0f,
                              "pair %d: normal must face the motion", n);
                }
            }
            cr_assert_eq(axes, 1, "normal is a unit axis vector");
            if (!hit.started_inside && hit.t > 1e-3f) {
                cr_assert(
                    !SHOVE_IFN(overlaps_unchecked)(moved(mover, delta, hit.t - 1e-3f), target),
                    "pair %d: overlap before the reported t", n);
            }
        }
    }
    /* the generator must produce a useful mix */
    cr_expect(hits > PAIRS / 10 && hits < PAIRS * 9 / 10, "hits %d of %d", hits, PAIRS);
    cr_expect(sampled_hits > PAIRS / 10, "sampled hits %d of %d", sampled_hits, PAIRS);
}

/* The inline float steps used on the move path give libm's nextafterf bits,
 * at the special values and at random floats of every exponent. */
static void expect_next_floats_match_libm(float x) {
    const float up = shove__next_up(x), down = shove__next_down(x);
    const float lib_up = nextafterf(x, INFINITY), lib_down = nextafterf(x, -INFINITY);
    if (isnan(x)) {
        cr_expect(isnan(up) && isnan(down));
        return;
    }
    cr_expect(memcmp(&up, &lib_up, sizeof up) == 0, "next_up(%a) = %a, libm %a", (double)x,
              (double)up, (double)lib_up);
    cr_expect(memcmp(&down, &lib_down, sizeof down) == 0, "next_down(%a) = %a, libm %a", (double)x,
              (double)down, (double)lib_down);
    /* the finite-only steps agree wherever they are defined */
    if (x != INFINITY) {
        const float fin_up = shove__next_up_finite(x);
        cr_expect(memcmp(&fin_up, &lib_up, sizeof up) == 0, "next_up_finite(%a) = %a, libm %a",
                  (double)x, (double)fin_up, (double)lib_up);
    }
    if (x != -INFINITY) {
        const float fin_down = shove__next_down_finite(x);
        cr_expect(memcmp(&fin_down, &lib_down, sizeof down) == 0,
                  "next_down_finite(%a) = %a, libm %a", (double)x, (double)fin_down,
                  (double)lib_down);
    }
}

Test(floats, next_up_and_down_match_nextafterf) {
    const float special[] = {0.0f,    -0.0f,    0x1p-149f, -0x1p-149f, 0x1p-126f, -0x1p-126f,
                             FLT_MAX, -FLT_MAX, INFINITY,  -INFINITY,  NAN,       1.0f,
                             -1.0f,   0.5f,     -0.5f,     100000.0f,  -100000.0f};
    for (size_t i = 0; i < sizeof special / sizeof special[0]; ++i) {
        expect_next_floats_match_libm(special[i]);
    }
    test_rng rng = {0x5eedu};
    for (int i = 0; i < 20000; ++i) {
        const uint32_t bits = (uint32_t)test_rng_next(&rng);
        float x;
        memcpy(&x, &bits, sizeof x);
        expect_next_floats_match_libm(x);
    }
}
