/*
 * slide_dim_test.c: shove2/3_slide over lists of boxes: stopping, sliding,
 * responses, contacts, flags, step-up, edge guard and bad input.
 * Scenes are drawn in x (sideways) and y (up); 3D gives them z in [0, 1]
 * for obstacles and [0.25, 0.75] for movers unless a test says otherwise.
 */
#include "test_dim.h"

#define SKIN (1.0f / 1024.0f)

static shove_aabb mover_at(float x, float y, float w, float h) {
    return BOX(x, y, 0.25, x + w, y + h, 0.75);
}

static shove_aabb block(float x0, float y0, float x1, float y1) {
    return BOX(x0, y0, 0, x1, y1, 1);
}

static shove_move_result slide(shove_aabb box, shove_vec delta, const shove_aabb *obs, size_t n,
                               const shove_move_def *def) {
    shove_move_result r;
    memset(&r, 0xAB, sizeof r);
    const shove_status st = SHOVE_FN(slide)(box, delta, obs, n, def, &r);
    cr_assert_eq(st, SHOVE_OK, "slide refused: %s", shove_status_string(st));
    return r;
}

static bool overlaps_any(shove_aabb b, const shove_aabb *obs, size_t n) {
    for (size_t i = 0; i < n; ++i) {
        if (SHOVE_FN(aabb_overlaps)(b, obs[i])) {
            return true;
        }
    }
    return false;
}

Test(slide, free_motion_goes_all_the_way) {
    const shove_aabb wall = block(10, -5, 11, 5);
    const shove_aabb m = mover_at(0, 0, 1, 1);
    const shove_move_result r = slide(m, V(3, 2, 0.5), &wall, 1, NULL);
    EXPECT_VEC_EQ(r.delta, V(3, 2, 0.5));
    EXPECT_VEC_EQ(r.box.min, V(3, 2, 0.75));
    cr_expect_eq(r.contact_count, 0);
    cr_expect(!r.hit_wall && !r.hit_ceiling && !r.on_ground && !r.stepped);
}

Test(slide, stops_skin_short_of_a_wall_on_every_axis_and_side) {
    for (int axis = 0; axis < SHOVE_DIM; ++axis) {
        for (int side = -1; side <= 1; side += 2) {
            shove_aabb m = BOX(0, 0, 0, 1, 1, 1);
            shove_aabb wall = m;
            wall.min.raw[axis] += 3.0f * (float)side;
            wall.max.raw[axis] += 3.0f * (float)side;
            shove_vec d = shove_vec_splat(0.0f);
            d.raw[axis] = 5.0f * (float)side;
            shove_move_def def = SHOVE_FN(default_move_def)();
            def.up_axis = -1;
            const shove_move_result r = slide(m, d, &wall, 1, &def);
            /* travels 2 units less the skin */
            cr_expect_eq(r.delta.raw[axis], (float)side * (2.0f - SKIN), "axis %d side %d", axis,
                         side);
            cr_expect(!SHOVE_FN(aabb_overlaps)(r.box, wall));
            cr_expect(r.hit_wall);
            cr_expect_eq(r.contact_count, 1);
        }
    }
}

Test(slide, seam_floor_keeps_every_bit_of_sideways_motion) {
    shove_aabb floor_tiles[50];
    for (int i = 0; i < 50; ++i) {
        floor_tiles[i] = block((float)i, -1, (float)i + 1, 0);
    }
    shove_aabb m = mover_at(0.25f, 0, 0.5f, 1);
    for (int frame = 0; frame < 100; ++frame) {
        const shove_move_result r = slide(m, V(0.2, -0.1, 0), floor_tiles, 50, NULL);
        cr_assert_eq(r.box.min.raw[0], m.min.raw[0] + 0.2f, "frame %d", frame);
        cr_assert_eq(r.box.min.raw[1], 0.0f, "frame %d: y moved", frame);
        cr_assert(r.on_ground, "frame %d", frame);
        cr_assert(!r.hit_wall, "frame %d: snagged on a seam", frame);
        m = r.box;
    }
}

Test(slide, result_does_not_depend_on_obstacle_order) {
    test_rng rng = {12345};
    for (int trial = 0; trial < 300; ++trial) {
        shove_aabb obs[24], rev[24];
        for (int i = 0; i < 24; ++i) {
            obs[i] = test_random_box(&rng, 6, 0.25f, 3);
            rev[23 - i] = obs[i];
        }
        shove_aabb m = test_random_box(&rng, 6, 0.5f, 1.5f);
        if (overlaps_any(m, obs, 24)) {
            continue;
        }
        shove_vec d;
        for (int a = 0; a < SHOVE_DIM; ++a) {
            d.raw[a] = test_rng_float(&rng, -8, 8);
        }
        const shove_move_result a = slide(m, d, obs, 24, NULL);
        const shove_move_result b = slide(m, d, rev, 24, NULL);
        EXPECT_VEC_EQ(a.delta, b.delta);
        cr_expect_eq(a.on_ground, b.on_ground);
        cr_expect_eq(a.hit_wall, b.hit_wall);
        cr_expect_eq(a.hit_ceiling, b.hit_ceiling);
        cr_expect_eq(a.contact_count, b.contact_count);
    }
}

Test(slide, bad_input_is_refused_and_nothing_is_written) {
    const shove_aabb wall = block(2, 0, 3, 1);
    const shove_aabb m = mover_at(0, 0, 1, 1);
    shove_contact contacts[4];
    memset(contacts, 0x5A, sizeof contacts);
    shove_move_def def = SHOVE_FN(default_move_def)();
    def.contacts = contacts;
    def.contact_capacity = 4;
    shove_move_result r, before;
    memset(&r, 0x77, sizeof r);
    before = r;
    shove_aabb bad_boxes[] = {BOX(NAN, 0, 0, 1, 1, 1), BOX(0, 0, 0, INFINITY, 1, 1),
                              BOX(2, 0, 0, 1, 1, 1)};
    for (size_t k = 0; k < sizeof bad_boxes / sizeof bad_boxes[0]; ++k) {
        cr_expect_eq(SHOVE_FN(slide)(bad_boxes[k], V(1, 0, 0), &wall, 1, &def, &r),
                     SHOVE_ERR_INVALID_ARGUMENT);
        cr_expect_eq(SHOVE_FN(slide)(m, V(1, 0, 0), &bad_boxes[k], 1, &def, &r),
                     SHOVE_ERR_INVALID_ARGUMENT);
    }
    cr_expect_eq(SHOVE_FN(slide)(m, V(NAN, 0, 0), &wall, 1, &def, &r), SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect_eq(SHOVE_FN(slide)(m, V(0, INFINITY, 0), &wall, 1, &def, &r),
                 SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect_eq(SHOVE_FN(slide)(m, V(1, 0, 0), NULL, 1, &def, &r), SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect_eq(SHOVE_FN(slide)(m, V(1, 0, 0), &wall, 1, &def, NULL), SHOVE_ERR_INVALID_ARGUMENT);
    shove_move_def bad;
    bad = def;
    bad.max_iterations = -1;
    cr_expect_eq(SHOVE_FN(slide)(m, V(3, 0, 0), &wall, 1, &bad, &r), SHOVE_ERR_INVALID_ARGUMENT);
    bad = def;
    bad.max_iterations = 0;
    cr_expect_eq(SHOVE_FN(slide)(m, V(3, 0, 0), &wall, 1, &bad, &r), SHOVE_ERR_INVALID_ARGUMENT);
    bad = def;
    bad.contacts = NULL;
    cr_expect_eq(SHOVE_FN(slide)(m, V(3, 0, 0), &wall, 1, &bad, &r), SHOVE_ERR_INVALID_ARGUMENT);
    bad = def;
    bad.contact_capacity = -1;
    cr_expect_eq(SHOVE_FN(slide)(m, V(3, 0, 0), &wall, 1, &bad, &r), SHOVE_ERR_INVALID_ARGUMENT);
    bad = def;
    bad.up_axis = SHOVE_DIM;
    cr_expect_eq(SHOVE_FN(slide)(m, V(3, 0, 0), &wall, 1, &bad, &r), SHOVE_ERR_INVALID_ARGUMENT);
    bad = def;
    bad.up_axis = -2;
    cr_expect_eq(SHOVE_FN(slide)(m, V(3, 0, 0), &wall, 1, &bad, &r), SHOVE_ERR_INVALID_ARGUMENT);
    bad = def;
    bad.skin = NAN;
    cr_expect_eq(SHOVE_FN(slide)(m, V(3, 0, 0), &wall, 1, &bad, &r), SHOVE_ERR_INVALID_ARGUMENT);
    bad = def;
    bad.skin = -1;
    cr_expect_eq(SHOVE_FN(slide)(m, V(3, 0, 0), &wall, 1, &bad, &r), SHOVE_ERR_INVALID_ARGUMENT);
    bad = def;
    bad.step_height = INFINITY;
    cr_expect_eq(SHOVE_FN(slide)(m, V(3, 0, 0), &wall, 1, &bad, &r), SHOVE_ERR_INVALID_ARGUMENT);
    bad = def;
    bad.response = (shove_response)99;
    cr_expect_eq(SHOVE_FN(slide)(m, V(3, 0, 0), &wall, 1, &bad, &r), SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect(memcmp(&r, &before, sizeof r) == 0, "out was written on refusal");
    for (int i = 0; i < 4; ++i) {
        cr_expect_eq(contacts[i].index, (int32_t)0x5A5A5A5A, "contacts were written on refusal");
    }
}
