/*
 * slide_dim_test.c: shove2/3_slide over lists of boxes: stopping, sliding,
 * responses, contacts, flags, step-up, edge guard and bad input.
 * Scenes are drawn in x (sideways) and y (up); 3D gives them z in [0, 1]
 * for obstacles and [0.25, 0.75] for movers unless a test says otherwise.
 */
#include <stdlib.h>

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

/* A move whose gather finds nothing (an empty list, or boxes out of reach)
 * is answered without running the slide's steps (slide_core, right after
 * its gather). It must give the bits those steps give when they run and meet
 * nothing: here they run for the same moves with a box in the gather's
 * margin beside the mover (at +x, the mover never moving towards it), and
 * both must be the request exactly, a zero component (of either sign) as
 * +0, with no flag and no contact. */
Test(slide, nothing_in_reach_gives_the_bits_of_a_slide_that_meets_nothing) {
    test_rng rng = {4242};
    static const shove_response responses[] = {SHOVE_RESPONSE_SLIDE, SHOVE_RESPONSE_TOUCH,
                                               SHOVE_RESPONSE_CROSS, SHOVE_RESPONSE_BOUNCE};
    for (int trial = 0; trial < 2000; ++trial) {
        shove_move_def def = SHOVE_FN(default_move_def)();
        /* any up axis but x, where the box beside lies */
        def.up_axis = trial % SHOVE_DIM == 0 ? -1 : trial % SHOVE_DIM;
        def.skin = trial % 3 == 0 ? 0.0f : SKIN * 8.0f;
        def.step_height = def.up_axis >= 0 && trial % 2 ? 0.5f : 0.0f;
        def.edge_guard = def.up_axis >= 0 && trial % 4 >= 2;
        def.response = responses[(trial / 4) % 4];
        def.max_iterations = 1 + trial % 3;
        shove_contact contacts[4];
        memset(contacts, 0x5A, sizeof contacts);
        def.contacts = contacts;
        def.contact_capacity = 4;
        const shove_aabb m = test_random_box(&rng, 100, 0.25f, 2);
        shove_vec d;
        for (int a = 0; a < SHOVE_DIM; ++a) {
            const int kind = test_rng_int(&rng, 0, 3);
            d.raw[a] = kind == 0 ? 0.0f : kind == 1 ? -0.0f : test_rng_float(&rng, -3, 3);
        }
        d.raw[0] = -fabsf(d.raw[0]); /* away from the box beside, or not at all on x */
        shove_vec want;
        for (int a = 0; a < SHOVE_DIM; ++a) {
            want.raw[a] = d.raw[a] == 0.0f ? 0.0f : d.raw[a];
        }
        /* beside: within the gather's margin (the skin and a few float
         * steps) off the mover's +x face, so the list's gather takes it,
         * and over the whole path on the other axes */
        shove_aabb beside;
        for (int a = 0; a < SHOVE_DIM; ++a) {
            beside.min.raw[a] = m.min.raw[a] - 10.0f;
            beside.max.raw[a] = m.max.raw[a] + 10.0f;
        }
        beside.min.raw[0] = m.max.raw[0] + (def.skin > 0.0f ? def.skin / 4.0f : 0.0f);
        beside.max.raw[0] = beside.min.raw[0] + 1.0f;
        const shove_aabb far = BOX(1e4, 1e4, 1e4, 1e4 + 1, 1e4 + 1, 1e4 + 1);
        const shove_move_result none = slide(m, d, NULL, 0, &def);
        const shove_move_result out_of_reach = slide(m, d, &far, 1, &def);
        const shove_move_result met_nothing = slide(m, d, &beside, 1, &def);
        const shove_move_result *results[] = {&none, &out_of_reach, &met_nothing};
        for (int k = 0; k < 3; ++k) {
            const shove_move_result *r = results[k];
            cr_assert(test_vec_same_bits(r->delta, want), "trial %d, result %d: the request", trial,
                      k);
            cr_assert(test_vec_same_bits(r->box.min, SHOVE_IFN(box_moved)(m, want).min) &&
                          test_vec_same_bits(r->box.max, SHOVE_IFN(box_moved)(m, want).max),
                      "trial %d, result %d: the box moved by it", trial, k);
            cr_assert(r->contact_count == 0 && !r->on_ground && !r->hit_wall && !r->hit_ceiling &&
                          !r->stepped,
                      "trial %d, result %d: no contact, no flag", trial, k);
        }
        unsigned char untouched[sizeof contacts];
        memset(untouched, 0x5A, sizeof untouched);
        cr_assert(memcmp(contacts, untouched, sizeof contacts) == 0, "trial %d: no contact written",
                  trial);
    }
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
            def.skin = SKIN;
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
    /* finite, but the end box would not be */
    cr_expect_eq(SHOVE_FN(slide)(BOX(3e38, 0, 0, 3.1e38, 1, 1), V(1e38, 0, 0), &wall, 1, &def, &r),
                 SHOVE_ERR_INVALID_ARGUMENT);
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
    /* a bad box deep in a long list, past what one gather chunk holds */
    static shove_aabb many[300];
    for (int i = 0; i < 300; ++i) {
        many[i] = block((float)i * 0.01f, -1, (float)i * 0.01f + 0.5f, 0);
    }
    const float poison[] = {NAN, INFINITY, -INFINITY};
    for (int k = 0; k < 3; ++k) {
        for (int at = 0; at < 300; at += 149) {
            const shove_aabb keep = many[at];
            many[at].max.raw[1] = poison[k];
            cr_expect_eq(SHOVE_FN(slide)(m, V(1, -1, 0), many, 300, &def, &r),
                         SHOVE_ERR_INVALID_ARGUMENT, "bad box %d", at);
            many[at] = keep;
        }
    }
    many[299].min.raw[0] = 100.0f; /* min > max */
    cr_expect_eq(SHOVE_FN(slide)(m, V(1, -1, 0), many, 300, &def, &r), SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect(memcmp(&r, &before, sizeof r) == 0, "out was written on refusal");
    for (int i = 0; i < 4; ++i) {
        cr_expect_eq(contacts[i].index, (int32_t)0x5A5A5A5A, "contacts were written on refusal");
    }
}

/* >>responses ------------------------------------------------------------ */

static shove_response filter_by_table(void *ctx, shove_id mover, const shove_obstacle *obstacle) {
    (void)mover;
    const shove_id other = obstacle->other;
    const int32_t index = obstacle->index;
    (void)other;
    const shove_response *table = ctx;
    return table[index];
}

Test(responses, touch_stops_where_slide_would_slide) {
    const shove_aabb floor_box = block(-10, -1, 10, 0);
    const shove_aabb m = mover_at(0, 1, 1, 1);
    shove_move_def def = SHOVE_FN(default_move_def)();
    def.skin = 0.0f;
    const shove_move_result slid = slide(m, V(2, -2, 0), &floor_box, 1, &def);
    EXPECT_VEC_EQ(slid.delta, V(2, -1, 0));
    def.response = SHOVE_RESPONSE_TOUCH;
    shove_contact c[2];
    def.contacts = c;
    def.contact_capacity = 2;
    const shove_move_result touched = slide(m, V(2, -2, 0), &floor_box, 1, &def);
    EXPECT_VEC_EQ(touched.delta, V(1, -1, 0));
    cr_assert_eq(touched.contact_count, 1);
    cr_expect_eq(c[0].response, SHOVE_RESPONSE_TOUCH);
    cr_expect_eq(c[0].t, 0.5f);
    EXPECT_VEC_EQ(c[0].normal, V(0, 1, 0));
    cr_expect(touched.on_ground);
}

Test(responses, cross_passes_and_reports_ignore_passes_silently) {
    const shove_aabb obs[] = {block(2, -1, 3, 2), block(5, -1, 6, 2), block(8, -1, 9, 2)};
    shove_response table[] = {SHOVE_RESPONSE_CROSS, SHOVE_RESPONSE_IGNORE, SHOVE_RESPONSE_CROSS};
    shove_move_def def = SHOVE_FN(default_move_def)();
    def.filter = filter_by_table;
    def.filter_ctx = table;
    shove_contact c[4];
    def.contacts = c;
    def.contact_capacity = 4;
    const shove_aabb m = mover_at(0, 0, 1, 1);
    const shove_move_result r = slide(m, V(10, 0, 0), obs, 3, &def);
    EXPECT_VEC_EQ(r.delta, V(10, 0, 0));
    cr_assert_eq(r.contact_count, 2);
    cr_expect_eq(c[0].index, 0);
    cr_expect_eq(c[0].t, 0.1f);
    cr_expect_eq(c[0].response, SHOVE_RESPONSE_CROSS);
    cr_expect_eq(c[1].index, 2);
    cr_expect_eq(c[1].t, 0.7f);
    cr_expect(!r.hit_wall, "crossing is not being stopped");
}

Test(responses, contacts_come_in_order_of_t_across_responses) {
    /* a cross zone, then a wall that stops the mover */
    const shove_aabb obs[] = {block(6, -1, 7, 2), block(2, -1, 3, 2)};
    shove_response table[] = {SHOVE_RESPONSE_SLIDE, SHOVE_RESPONSE_CROSS};
    shove_move_def def = SHOVE_FN(default_move_def)();
    def.filter = filter_by_table;
    def.filter_ctx = table;
    shove_contact c[4];
    def.contacts = c;
    def.contact_capacity = 4;
    const shove_move_result r = slide(mover_at(0, 0, 1, 1), V(10, 0, 0), obs, 2, &def);
    cr_assert_eq(r.contact_count, 2);
    cr_expect_eq(c[0].index, 1);
    cr_expect_eq(c[1].index, 0);
    cr_expect(c[0].t < c[1].t);
    cr_expect_eq(c[1].t, 0.5f);
    cr_expect(r.hit_wall);
}

Test(responses, bounce_reflects_the_rest_as_bump_does) {
    const shove_aabb wall = block(3, -5, 4, 5);
    shove_move_def def = SHOVE_FN(default_move_def)();
    def.response = SHOVE_RESPONSE_BOUNCE;
    def.up_axis = -1;
    def.skin = SKIN;
    /* 2 to the wall (less the skin), 1 left over: back by 1 */
    shove_move_result r = slide(mover_at(0, 0, 1, 1), V(3, 0, 0), &wall, 1, &def);
    cr_expect(fabsf(r.delta.raw[0] - (1.0f - 2 * SKIN)) < 1e-6f, "%.9g", (double)r.delta.raw[0]);
    cr_expect_eq(r.contact_count, 1);
    /* 2 to the wall, 6 left over: back by 6, past the start (bump.lua's goal
     * is the contact point plus the reflected rest) */
    r = slide(mover_at(0, 0, 1, 1), V(8, 0, 0), &wall, 1, &def);
    cr_expect(fabsf(r.delta.raw[0] - (-4.0f - 2 * SKIN)) < 1e-5f, "%.9g", (double)r.delta.raw[0]);
    cr_expect_eq(r.box.min.raw[0], r.delta.raw[0]);
    /* the tangential part goes on */
    r = slide(mover_at(0, 0, 1, 1), V(3, 1.5, 0), &wall, 1, &def);
    cr_expect_eq(r.delta.raw[1], 1.5f);
    cr_expect(r.delta.raw[0] > 0.9f && r.delta.raw[0] < 1.0f);
}

Test(responses, bounce_matches_bump_lua_example) {
    /* bump.lua: a mover at (10, 10) sent to (1, 4) meets the top of a box
     * at y = 8 a third of the way (at x = 7); the rest (-6, -4) is
     * reflected to (-6, +4), so it ends at (1, 12), above where it began. */
    const shove_aabb floor_box = block(-5, -2, 20, 8);
    shove_move_def def = SHOVE_FN(default_move_def)();
    def.response = SHOVE_RESPONSE_BOUNCE;
    shove_contact c[4];
    def.contacts = c;
    def.contact_capacity = 4;
    const shove_move_result r = slide(mover_at(10, 10, 1, 1), V(-9, -6, 0), &floor_box, 1, &def);
    cr_expect_eq(r.box.min.raw[0], 1.0f, "%.9g", (double)r.box.min.raw[0]);
    cr_expect(fabsf(r.box.min.raw[1] - 12.0f) < 2e-6f, "%.9g", (double)r.box.min.raw[1]);
    cr_expect_eq(r.box.max.raw[1] - r.box.min.raw[1], 1.0f);
    cr_assert_eq(r.contact_count, 1);
    cr_expect_eq(c[0].response, SHOVE_RESPONSE_BOUNCE);
    EXPECT_VEC_EQ(c[0].normal, V(0, 1, 0));
    cr_expect(fabsf(c[0].t - 1.0f / 3.0f) < 1e-6f, "t %.9g", (double)c[0].t);
    /* rebounding off a ceiling on the way back: reflected again */
    const shove_aabb both[] = {floor_box, block(-5, 12.5f, 20, 14)};
    const shove_move_result r2 = slide(mover_at(10, 10, 1, 1), V(-9, -6, 0), both, 2, &def);
    cr_expect_eq(r2.box.min.raw[0], 1.0f);
    /* up from 8 by 4, the top (11.5 + 1) met after 3.5: back down 0.5 */
    cr_expect(fabsf(r2.box.min.raw[1] - 11.0f) < 4e-6f, "%.9g", (double)r2.box.min.raw[1]);
}

Test(responses, several_contacts_on_one_face_are_all_reported) {
    shove_aabb tiles[10];
    for (int i = 0; i < 10; ++i) {
        tiles[i] = block((float)i, -1, (float)i + 1, 0);
    }
    shove_move_def def = SHOVE_FN(default_move_def)();
    shove_contact c[8];
    def.contacts = c;
    def.contact_capacity = 8;
    /* 4 wide, landing across tiles 2..6 (five tiles) */
    const shove_move_result r = slide(mover_at(2.25f, 2, 4.0f, 1), V(0, -5, 0), tiles, 10, &def);
    cr_assert_eq(r.contact_count, 5);
    for (int i = 0; i < 5; ++i) {
        cr_expect_eq(c[i].index, 2 + i);
        cr_expect_eq(c[i].t, c[0].t);
        EXPECT_VEC_EQ(c[i].normal, V(0, 1, 0));
    }
    /* room for two: the count still says five */
    def.contact_capacity = 2;
    memset(c, 0, sizeof c);
    const shove_move_result r2 = slide(mover_at(2.25f, 2, 4.0f, 1), V(0, -5, 0), tiles, 10, &def);
    cr_expect_eq(r2.contact_count, 5);
    cr_expect_eq(c[0].index, 2);
    cr_expect_eq(c[1].index, 3);
    cr_expect_eq(c[2].index, 0, "nothing written past the capacity");
}

/* >>flags ---------------------------------------------------------------- */

Test(flags, ground_without_pressing_ceiling_and_walls) {
    const shove_aabb room[] = {block(-10, -1, 10, 0), block(-10, 3, 10, 4), block(5, 0, 6, 3)};
    /* resting on the floor, or a skin above it, moving sideways only */
    shove_move_result r = slide(mover_at(0, 0, 1, 1), V(0.5, 0, 0), room, 3, NULL);
    cr_expect(r.on_ground && !r.hit_ceiling && !r.hit_wall);
    shove_move_def skinned = SHOVE_FN(default_move_def)();
    skinned.skin = SKIN;
    r = slide(mover_at(0, SKIN, 1, 1), V(0.5, 0, 0), room, 3, &skinned);
    cr_expect(r.on_ground && !r.hit_ceiling && !r.hit_wall);
    /* without a skin, a gap of a skin is not ground */
    r = slide(mover_at(0, SKIN, 1, 1), V(0.5, 0, 0), room, 3, NULL);
    cr_expect(!r.on_ground);
    /* a jump into the ceiling */
    r = slide(mover_at(0, 0, 1, 1), V(0, 5, 0), room, 3, NULL);
    cr_expect(r.hit_ceiling && !r.on_ground && !r.hit_wall);
    /* into the wall */
    r = slide(mover_at(0, 0, 1, 1), V(8, -1, 0), room, 3, NULL);
    cr_expect(r.hit_wall && r.on_ground && !r.hit_ceiling);
    /* no up axis: the floor is a wall like any other */
    shove_move_def def = SHOVE_FN(default_move_def)();
    def.up_axis = -1;
    r = slide(mover_at(0, 0.5, 1, 1), V(0, -3, 0), room, 3, &def);
    cr_expect(r.hit_wall && !r.on_ground && !r.hit_ceiling);
}

Test(flags, any_axis_can_be_up) {
    for (int up = 0; up < SHOVE_DIM; ++up) {
        shove_aabb ground = BOX(-10, -10, -10, 10, 10, 10);
        ground.max.raw[up] = 0.0f;
        shove_aabb m = BOX(0, 0, 0, 1, 1, 1);
        shove_vec d = shove_vec_splat(0.5f);
        d.raw[up] = -2.0f;
        shove_move_def def = SHOVE_FN(default_move_def)();
        def.up_axis = up;
        const shove_move_result r = slide(m, d, &ground, 1, &def);
        cr_expect(r.on_ground, "up %d", up);
        cr_expect(!r.hit_wall && !r.hit_ceiling, "up %d", up);
        for (int a = 0; a < SHOVE_DIM; ++a) {
            if (a != up) {
                cr_expect_eq(r.delta.raw[a], 0.5f);
            }
        }
    }
}

/* >>starting inside ------------------------------------------------------ */

Test(inside, a_mover_inside_may_leave_but_not_go_deeper) {
    /* 0.25 deep into a floor: the cheapest way out is up */
    const shove_aabb floor_box = block(-10, -1, 10, 0);
    const shove_aabb m = mover_at(0, -0.25f, 1, 1);
    shove_contact c[2];
    shove_move_def def = SHOVE_FN(default_move_def)();
    def.contacts = c;
    def.contact_capacity = 2;
    shove_move_result r = slide(m, V(1, -1, 0), &floor_box, 1, &def);
    EXPECT_VEC_EQ(r.delta, V(1, 0, 0));
    cr_assert_eq(r.contact_count, 1);
    cr_expect_eq(c[0].t, 0.0f);
    EXPECT_VEC_EQ(c[0].normal, V(0, 1, 0));
    r = slide(m, V(0, 2, 0), &floor_box, 1, &def);
    EXPECT_VEC_EQ(r.delta, V(0, 2, 0));
}

/* >>core ----------------------------------------------------------------- */

#include "obstacles/obstacles.h"

/* A source like a world's: obstacles in a growable set, in its own order. */
typedef struct shuffled_source {
    const shove_aabb *boxes;
    const int *order;
    size_t count;
} shuffled_source;

static bool shuffled_gather(void *ctx, shove_aabb box, shove_vec delta, float margin,
                            SHOVE_IFN(obstacle_set) * out) {
    const shuffled_source *s = ctx;
    (void)box;
    (void)delta;
    (void)margin;
    for (size_t k = 0; k < s->count; ++k) {
        const int i = s->order[k];
        if (!SHOVE_IFN(obstacles_push)(out, s->boxes[i], SHOVE_NULL_ID, i, 0)) {
            return false;
        }
    }
    return true;
}

typedef struct counting_allocator {
    int calls;
} counting_allocator;

static void *counting_realloc(void *ctx, void *ptr, size_t old_size, size_t new_size) {
    (void)old_size;
    ((counting_allocator *)ctx)->calls++;
    if (new_size == 0) {
        free(ptr);
        return NULL;
    }
    return realloc(ptr, new_size);
}

/* What the world does: gather into its own growable set in its own order.
 * The move must be the one shove3_slide gives, bit for bit, and after the
 * first moves the set allocates nothing. */
Test(core, a_shuffled_growable_set_gives_the_slide_bits) {
    test_rng rng = {8080};
    counting_allocator counter = {0};
    const shove_allocator alloc = {counting_realloc, &counter};
    SHOVE_IFN(obstacle_set) set;
    SHOVE_IFN(obstacles_init)(&set, &alloc);
    int warm_calls = -1;
    for (int trial = 0; trial < 400; ++trial) {
        enum { N = 200 };
        shove_aabb boxes[N];
        int order[N];
        const size_t n = (size_t)test_rng_int(&rng, 1, N);
        for (size_t i = 0; i < n; ++i) {
            boxes[i] = test_random_box(&rng, 10, 0.1f, 3);
            order[i] = (int)i;
        }
        for (size_t i = n; i-- > 1;) {
            const size_t j = (size_t)test_rng_int(&rng, 0, (int)i);
            const int t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        const shove_aabb m = test_random_box(&rng, 10, 0.3f, 2);
        shove_vec d;
        for (int a = 0; a < SHOVE_DIM; ++a) {
            d.raw[a] = test_rng_float(&rng, -9, 9);
        }
        shove_move_def def = SHOVE_FN(default_move_def)();
        def.step_height = test_rng_int(&rng, 0, 1) ? 0.5f : 0.0f;
        def.edge_guard = test_rng_int(&rng, 0, 1);
        const shove_move_result want = slide(m, d, boxes, n, &def);
        shuffled_source src = {boxes, order, n};
        const SHOVE_IFN(obstacle_source)
            source = {shuffled_gather, &src, SHOVE_NULL_ID, NULL, NULL};
        shove_move_result got;
        cr_assert_eq(SHOVE_IFN(slide_core)(m, d, &def, &source, &set, &got), SHOVE_OK);
        cr_assert(memcmp(&want.box, &got.box, sizeof got.box) == 0, "trial %d", trial);
        cr_assert(memcmp(&want.delta, &got.delta, sizeof got.delta) == 0);
        cr_assert_eq(want.on_ground, got.on_ground);
        cr_assert_eq(want.hit_wall, got.hit_wall);
        cr_assert_eq(want.hit_ceiling, got.hit_ceiling);
        cr_assert_eq(want.stepped, got.stepped);
        cr_assert_eq(want.contact_count, got.contact_count);
        if (trial == 0) {
            SHOVE_IFN(obstacles_reserve)(&set, N);
            warm_calls = counter.calls;
        }
    }
    cr_expect_eq(counter.calls, warm_calls, "the set allocated in steady state");
    SHOVE_IFN(obstacles_free)(&set);
}

/* More candidates than the stack set holds: the list streams them in
 * chunks and must give the same move as a growable set holding them all. */
Test(core, streaming_a_long_list_gives_the_same_move) {
    enum { N = 1000 };
    static shove_aabb tiles[N];
    static int order[N];
    for (int i = 0; i < N; ++i) {
        tiles[i] = block((float)i * 0.05f, -1, (float)(i + 1) * 0.05f, 0); /* a fine seamed floor */
        order[i] = N - 1 - i;
    }
    SHOVE_IFN(obstacle_set) set;
    SHOVE_IFN(obstacles_init)(&set, NULL);
    test_rng rng = {5};
    for (int trial = 0; trial < 50; ++trial) {
        const shove_aabb m =
            mover_at(test_rng_float(&rng, 0, 20), test_rng_float(&rng, 0, 3), 1, 1);
        const shove_vec d = V(test_rng_float(&rng, -10, 30), test_rng_float(&rng, -5, 0), 0);
        shove_move_def def = SHOVE_FN(default_move_def)();
        def.edge_guard = true;
        def.step_height = 0.3f;
        const shove_move_result want = slide(m, d, tiles, N, &def);
        shuffled_source src = {tiles, order, N};
        const SHOVE_IFN(obstacle_source)
            source = {shuffled_gather, &src, SHOVE_NULL_ID, NULL, NULL};
        shove_move_result got;
        cr_assert_eq(SHOVE_IFN(slide_core)(m, d, &def, &source, &set, &got), SHOVE_OK);
        cr_assert(memcmp(&want, &got, sizeof got) == 0, "trial %d", trial);
    }
    SHOVE_IFN(obstacles_free)(&set);
}

/* A leg near more candidates than it keeps (a seamed floor: up to 80
 * tiles under one leg, fewer than the stack set holds, so nothing streams)
 * scans again for its later passes; one near a few (the same floor as one
 * box) reads the ones it kept. Both must move alike. */
Test(core, a_leg_near_many_candidates_moves_like_one_near_few) {
    enum { N = 120 };
    static shove_aabb fine[N + 2];
    for (int i = 0; i < N; ++i) {
        fine[i] = block((float)i * 0.25f, -1, (float)(i + 1) * 0.25f, 0);
    }
    shove_aabb coarse[3] = {block(0, -1, (float)N * 0.25f, 0)};
    test_rng rng = {77};
    for (int trial = 0; trial < 60; ++trial) {
        /* the same wall and ceiling beside both floors */
        const float wall_x = test_rng_float(&rng, 10, 25);
        fine[N] = coarse[1] = block(wall_x, 0, wall_x + 1, 4);
        fine[N + 1] = coarse[2] = block(0, 2.5f, (float)N * 0.25f, 3);
        const shove_aabb m = mover_at(test_rng_float(&rng, 1, 8), test_rng_float(&rng, 0, 1), 1, 1);
        const shove_vec d = V(test_rng_float(&rng, -5, 20), test_rng_float(&rng, -3, 1), 0);
        shove_move_def def = SHOVE_FN(default_move_def)();
        def.step_height = test_rng_int(&rng, 0, 1) ? 0.4f : 0.0f;
        def.edge_guard = test_rng_int(&rng, 0, 1);
        const shove_move_result few = slide(m, d, coarse, 3, &def);
        const shove_move_result many = slide(m, d, fine, N + 2, &def);
        cr_assert(memcmp(&few.box, &many.box, sizeof few.box) == 0, "trial %d", trial);
        cr_assert(memcmp(&few.delta, &many.delta, sizeof few.delta) == 0, "trial %d", trial);
        cr_assert_eq(few.on_ground, many.on_ground, "trial %d", trial);
        cr_assert_eq(few.hit_wall, many.hit_wall, "trial %d", trial);
        cr_assert_eq(few.hit_ceiling, many.hit_ceiling, "trial %d", trial);
    }
}

/* A list slide's filter: null mover, the list index and the listed box. */
typedef struct list_filter_log {
    const shove_aabb *list;
    int calls, wrong;
} list_filter_log;

static shove_response list_filter_checks(void *ctx, shove_id mover,
                                         const shove_obstacle *obstacle) {
    list_filter_log *log = ctx;
    ++log->calls;
    const int32_t i = obstacle->index;
    if (!shove_id_is_null(mover) || !shove_id_is_null(obstacle->other) || obstacle->voxel ||
        i < 0 || i > 2 || memcmp(&obstacle->box, &log->list[i], sizeof obstacle->box) != 0) {
        ++log->wrong;
        return SHOVE_RESPONSE_SLIDE;
    }
    return i == 1 ? SHOVE_RESPONSE_IGNORE : SHOVE_RESPONSE_SLIDE;
}

Test(responses, a_list_filter_gets_a_null_mover_the_index_and_the_box) {
    const shove_aabb list[3] = {block(-10, -1, 10, 0), block(2, 0, 3, 2), block(6, 0, 7, 2)};
    list_filter_log log = {list, 0, 0};
    shove_move_def def = SHOVE_FN(default_move_def)();
    def.filter = list_filter_checks;
    def.filter_ctx = &log;
    const shove_move_result r = slide(mover_at(0, 0, 1, 1), V(8, 0, 0), list, 3, &def);
    cr_expect_eq(r.box.max.raw[0], 6.0f); /* through box 1, stopped by box 2 */
    cr_expect_gt(log.calls, 0);
    cr_expect_eq(log.wrong, 0);
}

/* How often a filter was asked about each listed box. */
typedef struct asked_log {
    int calls[4];
} asked_log;

static shove_response count_asks(void *ctx, shove_id mover, const shove_obstacle *obstacle) {
    (void)mover;
    asked_log *log = ctx;
    if (obstacle->index >= 0 && obstacle->index < 4) {
        ++log->calls[obstacle->index];
    }
    return SHOVE_RESPONSE_SLIDE;
}

/* A slide keeps a filter's first answer for each obstacle it gathered: a
 * mover that walks along a floor, steps up onto a block and stops at a
 * wall, its edge guard on, asks about each box once (its legs and its
 * probes all read the floor), and moves as it does without the filter,
 * whose answer is the default response. */
Test(responses, a_filter_is_asked_once_per_obstacle_of_a_slide) {
    const shove_aabb list[3] = {block(-10, -1, 10, 0), block(2, 0, 4, 0.5f), block(6, 0, 7, 3)};
    shove_move_def def = SHOVE_FN(default_move_def)();
    def.step_height = 0.6f;
    def.edge_guard = true;
    shove_contact plain_contacts[8], filtered_contacts[8];
    memset(plain_contacts, 0, sizeof plain_contacts);
    memset(filtered_contacts, 0, sizeof filtered_contacts);
    def.contacts = plain_contacts;
    def.contact_capacity = 8;
    const shove_move_result plain = slide(mover_at(0, 0, 1, 1), V(8, -0.5f, 0), list, 3, &def);
    asked_log log;
    memset(&log, 0, sizeof log);
    def.filter = count_asks;
    def.filter_ctx = &log;
    def.contacts = filtered_contacts;
    const shove_move_result filtered = slide(mover_at(0, 0, 1, 1), V(8, -0.5f, 0), list, 3, &def);
    cr_expect(memcmp(&plain.box, &filtered.box, sizeof plain.box) == 0);
    cr_expect(memcmp(&plain.delta, &filtered.delta, sizeof plain.delta) == 0);
    cr_expect_eq(plain.on_ground, filtered.on_ground);
    cr_expect_eq(plain.hit_wall, filtered.hit_wall);
    cr_expect_eq(plain.stepped, filtered.stepped);
    cr_assert_eq(plain.contact_count, filtered.contact_count);
    cr_expect(memcmp(plain_contacts, filtered_contacts, sizeof plain_contacts) == 0);
    cr_expect(filtered.stepped, "the scene is meant to step up");
    cr_expect_eq(filtered.box.max.raw[0], 6.0f, "and to stop at the wall");
    for (int i = 0; i < 3; ++i) {
        cr_expect_eq(log.calls[i], 1, "box %d was asked about %d times", i, log.calls[i]);
    }
}

/* Lists long enough for the list scan's blocks (and, dense, for more
 * candidates than a fixed set holds): every SIMD level this CPU has gives
 * the same result and contacts, bit for bit, and the same refusal when
 * one box far from the move is bad. */
Test(slide, long_lists_give_the_same_bits_at_every_level) {
    const shove_simd active = shove_simd_active();
    test_rng r = {0x5A1DE11u};
    const size_t counts[] = {9, 17, 300, 1000};
    for (size_t c = 0; c < sizeof counts / sizeof counts[0]; ++c) {
        const size_t n = counts[c];
        shove_aabb *boxes = malloc(n * sizeof *boxes);
        cr_assert(boxes);
        for (int round = 0; round < 8; ++round) {
            const float range = (round & 1) ? 3.0f : 40.0f; /* dense or spread */
            for (size_t i = 0; i < n; ++i) {
                boxes[i] = test_random_box(&r, range, 0.0f, 2.0f);
            }
            shove_move_def def = SHOVE_FN(default_move_def)();
            shove_contact contacts[3][8];
            def.contact_capacity = 8;
            if (round & 2) {
                def.step_height = 0.5f;
                def.edge_guard = true;
            }
            const shove_aabb mover = test_random_box(&r, range, 0.25f, 1.0f);
            shove_vec delta;
            for (int a = 0; a < SHOVE_DIM; ++a) {
                delta.raw[a] = test_rng_float(&r, -3.0f, 3.0f);
            }
            shove_move_result want;
            bool have_want = false;
            for (int level = 0; level < SHOVE_SIMD_LEVEL_COUNT; ++level) {
                if (shove_simd_select((shove_simd)level) != SHOVE_OK) {
                    continue;
                }
                def.contacts = contacts[have_want ? 1 : 0];
                memset(def.contacts, 0, sizeof contacts[0]);
                shove_move_result got;
                cr_assert_eq(SHOVE_FN(slide)(mover, delta, boxes, n, &def, &got), SHOVE_OK);
                if (!have_want) {
                    want = got;
                    have_want = true;
                    continue;
                }
                const char *name = shove_simd_name((shove_simd)level);
                cr_expect(memcmp(&got.box, &want.box, sizeof got.box) == 0, "%s", name);
                cr_expect(test_vec_same_bits(got.delta, want.delta), "%s", name);
                cr_expect_eq(got.contact_count, want.contact_count, "%s", name);
                cr_expect_eq(got.on_ground, want.on_ground, "%s", name);
                cr_expect_eq(got.hit_wall, want.hit_wall, "%s", name);
                cr_expect_eq(got.hit_ceiling, want.hit_ceiling, "%s", name);
                cr_expect_eq(got.stepped, want.stepped, "%s", name);
                cr_expect(memcmp(contacts[0], contacts[1], sizeof contacts[0]) == 0, "%s", name);
                /* One bad box anywhere in the list. */
                const size_t bad = (size_t)test_rng_int(&r, 0, (int)n - 1);
                const shove_aabb kept = boxes[bad];
                boxes[bad].max.raw[0] = NAN;
                memset(&got, 0x5C, sizeof got);
                const shove_move_result untouched = got;
                cr_expect_eq(SHOVE_FN(slide)(mover, delta, boxes, n, &def, &got),
                             SHOVE_ERR_INVALID_ARGUMENT, "%s", name);
                cr_expect(memcmp(&got, &untouched, sizeof got) == 0, "%s", name);
                boxes[bad] = kept;
            }
            cr_expect(have_want);
        }
        free(boxes);
    }
    cr_assert_eq(shove_simd_select(active), SHOVE_OK);
}
