/*
 * resolve_dim_test.c: the discrete resolvers (shove2/3_resolve) in 2D and
 * 3D: their contracts on random scenes, seams, the teleport's minimality
 * against brute force, and bad input.
 */
#include "test_dim.h"

static const shove_resolve_mode modes[] = {SHOVE_RESOLVE_MANDATORY_FIRST,
                                           SHOVE_RESOLVE_LARGEST_OVERLAP, SHOVE_RESOLVE_TELEPORT};

static shove_aabb block(float x0, float y0, float x1, float y1) {
    return BOX(x0, y0, 0, x1, y1, 1);
}

static shove_aabb moved(shove_aabb b, shove_vec d) {
    for (int i = 0; i < SHOVE_DIM; ++i) {
        b.min.raw[i] += d.raw[i];
        b.max.raw[i] += d.raw[i];
    }
    return b;
}

static shove_vec undo_of(shove_vec m) {
    shove_vec u;
    for (int i = 0; i < SHOVE_DIM; ++i) {
        u.raw[i] = -m.raw[i];
    }
    return u;
}

static bool overlaps_any(shove_aabb b, const shove_aabb *obs, size_t n) {
    for (size_t i = 0; i < n; ++i) {
        if (SHOVE_FN(aabb_overlaps)(b, obs[i])) {
            return true;
        }
    }
    return false;
}

static bool same_box(shove_aabb a, shove_aabb b) {
    return memcmp(&a, &b, sizeof a) == 0;
}

static shove_aabb resolve(shove_aabb box, shove_vec motion, const shove_aabb *obs, size_t n,
                          shove_resolve_mode mode) {
    shove_aabb out;
    cr_assert_eq(SHOVE_FN(resolve)(box, motion, obs, n, mode, &out), SHOVE_OK);
    return out;
}

Test(resolve, a_free_box_is_left_alone) {
    const shove_aabb wall = block(5, 0, 6, 1);
    const shove_aabb m = BOX(0, 0, 0, 1, 1, 1);
    for (int k = 0; k < 3; ++k) {
        const shove_aabb out = resolve(m, V(0.5, 0.5, 0.5), &wall, 1, modes[k]);
        cr_expect(same_box(out, m), "mode %d", k);
    }
}

Test(resolve, bad_input_is_refused_and_out_untouched) {
    const shove_aabb wall = block(0.5f, 0, 6, 1);
    const shove_aabb m = BOX(0, 0, 0, 1, 1, 1);
    shove_aabb out, before;
    memset(&out, 0x3C, sizeof out);
    before = out;
    const shove_aabb bad = BOX(1, 0, 0, 0, 1, 1);
    cr_expect_eq(SHOVE_FN(resolve)(bad, V(1, 0, 0), &wall, 1, SHOVE_RESOLVE_TELEPORT, &out),
                 SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect_eq(SHOVE_FN(resolve)(m, V(1, 0, 0), &bad, 1, SHOVE_RESOLVE_TELEPORT, &out),
                 SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect_eq(SHOVE_FN(resolve)(m, V(NAN, 0, 0), &wall, 1, SHOVE_RESOLVE_TELEPORT, &out),
                 SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect_eq(
        SHOVE_FN(resolve)(m, V(0, -INFINITY, 0), &wall, 1, SHOVE_RESOLVE_MANDATORY_FIRST, &out),
        SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect_eq(SHOVE_FN(resolve)(m, V(1, 0, 0), NULL, 1, SHOVE_RESOLVE_TELEPORT, &out),
                 SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect_eq(SHOVE_FN(resolve)(m, V(1, 0, 0), &wall, 1, (shove_resolve_mode)7, &out),
                 SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect_eq(SHOVE_FN(resolve)(m, V(1, 0, 0), &wall, 1, (shove_resolve_mode)-1, &out),
                 SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect(same_box(out, before));
    cr_expect_eq(SHOVE_FN(resolve)(m, V(1, 0, 0), &wall, 1, SHOVE_RESOLVE_TELEPORT, NULL),
                 SHOVE_ERR_INVALID_ARGUMENT);
    /* an empty list is fine, NULL or not */
    cr_expect_eq(SHOVE_FN(resolve)(m, V(1, 0, 0), NULL, 0, SHOVE_RESOLVE_TELEPORT, &out), SHOVE_OK);
    cr_expect(same_box(out, m));
}

/* The mandatory-first contract, on random scenes: corrections work only
 * against the motion and never exceed it; the result overlaps nothing, or is
 * exactly the box before the motion. */
Test(resolve, mandatory_first_never_goes_beyond_the_motion) {
    test_rng rng = {31337};
    int corrected = 0, undone = 0;
    for (int trial = 0; trial < 3000; ++trial) {
        shove_aabb obs[12];
        const size_t n = (size_t)test_rng_int(&rng, 1, 12);
        for (size_t i = 0; i < n; ++i) {
            obs[i] = test_random_box(&rng, 4, 0.2f, 3);
        }
        const shove_aabb before = test_random_box(&rng, 4, 0.3f, 1.5f);
        if (overlaps_any(before, obs, n)) {
            continue;
        }
        shove_vec motion;
        for (int a = 0; a < SHOVE_DIM; ++a) {
            motion.raw[a] = test_rng_int(&rng, 0, 3) == 0 ? 0.0f : test_rng_float(&rng, -1, 1);
        }
        const shove_aabb after = moved(before, motion);
        const shove_aabb out = resolve(after, motion, obs, n, SHOVE_RESOLVE_MANDATORY_FIRST);
        const shove_aabb back = moved(after, undo_of(motion));
        /* the box before was free, so the result is free too: corrected,
         * or back where it was (adding the motion gives the after-box) */
        cr_assert(!overlaps_any(out, obs, n), "trial %d", trial);
        if (same_box(moved(out, motion), after) && !same_box(out, after)) {
            ++undone;
        } else {
            corrected += !same_box(out, after);
        }
        for (int a = 0; a < SHOVE_DIM; ++a) {
            /* per axis the result lies between the box before and after */
            const float lo =
                after.min.raw[a] < back.min.raw[a] ? after.min.raw[a] : back.min.raw[a];
            const float hi =
                after.min.raw[a] > back.min.raw[a] ? after.min.raw[a] : back.min.raw[a];
            cr_assert(out.min.raw[a] >= lo && out.min.raw[a] <= hi, "trial %d axis %d", trial, a);
        }
    }
    cr_expect(corrected > 100, "corrected %d, undone %d", corrected, undone);
}

Test(resolve, mandatory_first_gives_up_when_only_more_than_the_motion_helps) {
    /* The box was already 0.2 into the wall; after moving 0.3 further right
     * it is 0.5 in, and only a push of 0.5 to the left (more than the
     * motion) or along an axis it did not move on would clear it. */
    const shove_aabb wall = block(1, -5, 5, 5);
    const shove_vec motion = V(0.3, 0, 0);
    const shove_aabb before = BOX(0.2, 0, 0, 1.2, 1, 1);
    const shove_aabb after = moved(before, motion);
    const shove_aabb out = resolve(after, motion, &wall, 1, SHOVE_RESOLVE_MANDATORY_FIRST);
    /* back to before the motion: as close as floats allow, and exactly the
     * after-box again once the motion is added */
    cr_expect(same_box(moved(out, motion), after));
    for (int a = 0; a < SHOVE_DIM; ++a) {
        cr_expect(fabsf(out.min.raw[a] - before.min.raw[a]) <= 1e-6f);
        cr_expect(fabsf(out.max.raw[a] - before.max.raw[a]) <= 1e-6f);
    }
    /* Teleport does not care about the motion: shortest way out is up. */
    const shove_aabb tele = resolve(after, motion, &wall, 1, SHOVE_RESOLVE_TELEPORT);
    cr_expect(!SHOVE_FN(aabb_overlaps)(tele, wall));
}

/* Every mode: a result overlaps nothing or is the box before the motion. */
Test(resolve, every_mode_ends_free_or_back) {
    test_rng rng = {2718};
    int backs = 0;
    for (int trial = 0; trial < 1500; ++trial) {
        shove_aabb obs[10];
        const size_t n = (size_t)test_rng_int(&rng, 1, 10);
        for (size_t i = 0; i < n; ++i) {
            obs[i] = test_random_box(&rng, 4, 0.2f, 3);
        }
        const shove_aabb before = test_random_box(&rng, 4, 0.3f, 1.5f);
        if (overlaps_any(before, obs, n)) {
            continue;
        }
        shove_vec motion;
        for (int a = 0; a < SHOVE_DIM; ++a) {
            motion.raw[a] = test_rng_float(&rng, -1, 1);
        }
        const shove_aabb after = moved(before, motion);
        const shove_aabb back = moved(after, undo_of(motion));
        for (int k = 0; k < 3; ++k) {
            const shove_aabb out = resolve(after, motion, obs, n, modes[k]);
            /* free: corrected, or back to the (free) box before the motion */
            cr_assert(!overlaps_any(out, obs, n), "mode %d trial %d", k, trial);
            if (!same_box(out, after) && same_box(moved(out, motion), after)) {
                ++backs;
            }
            (void)back;
            /* the same input gives the same output */
            cr_assert(same_box(out, resolve(after, motion, obs, n, modes[k])));
        }
    }
    (void)backs;
}

/* Pushed diagonally into an inner corner it was already resting in, every
 * mode puts it back: exactly onto both faces, and so that adding the
 * motion again gives the same after-box (the next frame is the same). */
Test(resolve, corner_rest_is_exact_in_every_mode) {
    const shove_aabb obs[] = {block(1, -5, 5, 5), block(-5, -5, 5, 0)};
    const shove_aabb before = BOX(0.2, 0, 0.25, 1, 1, 0.75);
    const shove_vec motion = V(0.3, -0.1, 0);
    const shove_aabb after = moved(before, motion);
    for (int k = 0; k < 3; ++k) {
        const shove_aabb out = resolve(after, motion, obs, 2, modes[k]);
        cr_expect_eq(out.max.raw[0], 1.0f, "mode %d", k);
        cr_expect_eq(out.min.raw[1], 0.0f, "mode %d", k);
        cr_expect(same_box(moved(out, motion), after), "mode %d", k);
        cr_expect(!overlaps_any(out, obs, 2));
    }
}

/* Brute force: the shortest correction over every combination of "stay" or
 * "side on a face" per axis, over every obstacle. */
static float brute_teleport2(shove_aabb box, const shove_aabb *obs, size_t n) {
    float cand[SHOVE_DIM][1 + 2 * 8];
    int nc[SHOVE_DIM];
    for (int a = 0; a < SHOVE_DIM; ++a) {
        nc[a] = 0;
        cand[a][nc[a]++] = 0.0f;
        for (size_t i = 0; i < n; ++i) {
            /* the correction whose rounded side lands on the face */
            float down = obs[i].min.raw[a] - box.max.raw[a];
            while (box.max.raw[a] + down > obs[i].min.raw[a]) {
                down = nextafterf(down, -INFINITY);
            }
            float up = obs[i].max.raw[a] - box.min.raw[a];
            while (box.min.raw[a] + up < obs[i].max.raw[a]) {
                up = nextafterf(up, INFINITY);
            }
            cand[a][nc[a]++] = down;
            cand[a][nc[a]++] = up;
        }
    }
    float best = INFINITY;
    int at[3] = {0, 0, 0};
    const int n2 = SHOVE_DIM == 3 ? nc[SHOVE_DIM - 1] : 1;
    for (at[0] = 0; at[0] < nc[0]; ++at[0]) {
        for (at[1] = 0; at[1] < nc[1]; ++at[1]) {
            for (at[2] = 0; at[2] < n2; ++at[2]) {
                shove_vec c;
                float len2 = 0.0f;
                for (int a = 0; a < SHOVE_DIM; ++a) {
                    c.raw[a] = cand[a][at[a]];
                    len2 += c.raw[a] * c.raw[a];
                }
                if (len2 < best && !overlaps_any(moved(box, c), obs, n)) {
                    best = len2;
                }
            }
        }
    }
    return best;
}

Test(resolve, teleport_takes_the_shortest_way_out) {
    test_rng rng = {1618};
    int checked = 0;
    for (int trial = 0; trial < 1000; ++trial) {
        shove_aabb obs[8];
        const size_t n = (size_t)test_rng_int(&rng, 1, 8);
        for (size_t i = 0; i < n; ++i) {
            obs[i] = test_random_box(&rng, 2, 0.2f, 2);
        }
        const shove_aabb box = test_random_box(&rng, 2, 0.3f, 1.5f);
        if (!overlaps_any(box, obs, n)) {
            continue;
        }
        const shove_aabb out = resolve(box, V(0, 0, 0), obs, n, SHOVE_RESOLVE_TELEPORT);
        cr_assert(!overlaps_any(out, obs, n));
        float len2 = 0.0f;
        for (int a = 0; a < SHOVE_DIM; ++a) {
            const float c = out.min.raw[a] - box.min.raw[a];
            len2 += c * c;
        }
        const float best = brute_teleport2(box, obs, n);
        /* equal up to the rounding of faces onto float coordinates */
        cr_assert(fabsf(sqrtf(len2) - sqrtf(best)) <= 1e-5f, "trial %d: %.9g vs brute %.9g", trial,
                  (double)sqrtf(len2), (double)sqrtf(best));
        ++checked;
    }
    cr_expect(checked > 200, "%d", checked);
}

/* Picking the largest overlap first is what keeps a mover from snagging on
 * seams, and so do mandatory shoves (single-axis corrections first).
 * Pressed into a seamed floor and moving along it, no resolver loses
 * forward motion. */
Test(resolve, no_mode_snags_on_a_seamed_floor) {
    shove_aabb tiles[40];
    for (int i = 0; i < 40; ++i) {
        tiles[i] = block((float)i, -1, (float)i + 1, 0);
    }
    const shove_vec motion = V(0.15, -0.1, 0);
    for (int k = 0; k < 3; ++k) {
        shove_aabb m = BOX(0.1, 0, 0.25, 0.6, 1, 0.75);
        for (int frame = 0; frame < 100; ++frame) {
            const shove_aabb after = moved(m, motion);
            const shove_aabb out = resolve(after, motion, tiles, 40, modes[k]);
            cr_assert_eq(out.min.raw[0], after.min.raw[0], "mode %d frame %d snagged", k, frame);
            cr_assert_eq(out.min.raw[1], 0.0f, "mode %d frame %d", k, frame);
            m = out;
        }
    }
}

/* A resting mover comes back to exactly the same box every frame. */
Test(resolve, resting_is_still_bit_for_bit) {
    test_rng rng = {55};
    for (int trial = 0; trial < 200; ++trial) {
        const float top = test_rng_float(&rng, -50, 50);
        const shove_aabb ground = BOX(-100, top - 100, -100, 100, top, 100);
        const float h = test_rng_float(&rng, 0.3f, 3);
        shove_aabb m = BOX(0, top, 0, 1, top + h, 1);
        const shove_vec g = V(0, -test_rng_float(&rng, 0.01f, 0.9f), 0);
        for (int k = 0; k < 3; ++k) {
            shove_aabb a = m;
            for (int frame = 0; frame < 4; ++frame) {
                a = resolve(moved(a, g), g, &ground, 1, modes[k]);
            }
            for (int frame = 0; frame < 8; ++frame) {
                const shove_aabb next = resolve(moved(a, g), g, &ground, 1, modes[k]);
                cr_assert(same_box(next, a), "mode %d trial %d frame %d", k, trial, frame);
            }
            cr_expect_eq(a.min.raw[1], top);
        }
    }
}
