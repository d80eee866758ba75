/*
 * regression_dim_test.c: inputs the fuzzers (tests/fuzz) found to break a
 * rule, each reduced to a readable scene, with the rule it broke. The raw
 * fuzz inputs are also kept in tests/fuzz/corpus and replayed by ctest.
 */
#include "test_dim.h"
#include "test_world_ops.h"

/* Edge guard over a floor of two tiles meeting at x = 0, walking exactly as
 * far as the first tile reaches (-18): the move depended on the order of the
 * obstacles, because the guard stopped growing its run of supports as soon
 * as the run reached the request, before seeing the tile that carries the
 * mover past the edge of the first. */
Test(regression, edge_guard_does_not_depend_on_obstacle_order) {
    const shove_aabb left = BOX(-15.5, -15.5, 0, 0, 0, 18);
    const shove_aabb right = BOX(0, -15.5, 0, 15.5, 0, 18);
    const shove_aabb forward[2] = {left, right};
    const shove_aabb backward[2] = {right, left};
    const shove_aabb whole = BOX(-15.5, -15.5, 0, 15.5, 0, 18);
    const shove_aabb mover = BOX(0, 0, 0, 18, 18, 18);
    shove_move_def def = SHOVE_FN(default_move_def)();
    def.edge_guard = true;
    const shove_response solid[3] = {SHOVE_RESPONSE_SLIDE, SHOVE_RESPONSE_TOUCH,
                                     SHOVE_RESPONSE_BOUNCE};
    for (int k = 0; k < 3; ++k) {
        def.response = solid[k];
        const shove_move_result a = test_slide_ok(mover, V(-18, 0, 0), forward, 2, &def);
        const shove_move_result b = test_slide_ok(mover, V(-18, 0, 0), backward, 2, &def);
        const shove_move_result c = test_slide_ok(mover, V(-18, 0, 0), &whole, 1, &def);
        /* the left tile carries the whole way: nothing to guard */
        EXPECT_VEC_EQ(a.delta, V(-18, 0, 0));
        EXPECT_VEC_EQ(b.delta, a.delta);
        EXPECT_VEC_EQ(c.delta, a.delta);
        cr_expect(a.on_ground && b.on_ground && c.on_ground);
    }
}

/* The same guard with a skin of 0.25 on a row of 0.25 tiles: the guard
 * stopped as soon as its run passed the request, but then kept a sliver of
 * `skin` from the run's end, so a scan that met the tiles far-to-near
 * stopped one tile short and clamped a move that the full row allows. */
Test(regression, edge_guard_grows_its_run_past_the_kept_sliver) {
    shove_aabb forward[8], backward[8];
    for (int i = 0; i < 8; ++i) {
        forward[i] = BOX(0.25f * (float)i, -1, 0, 0.25f * (float)(i + 1), 0, 2);
        backward[7 - i] = forward[i];
    }
    const shove_aabb whole = BOX(0, -1, 0, 2, 0, 2);
    const shove_aabb mover = BOX(0, 0, 0.5, 1.703125, 1.703125, 1.5);
    shove_move_def def = SHOVE_FN(default_move_def)();
    def.edge_guard = true;
    def.skin = 0.25f;
    const shove_vec delta = V(1.59375, -1, 0);
    const shove_move_result a = test_slide_ok(mover, delta, forward, 8, &def);
    const shove_move_result b = test_slide_ok(mover, delta, backward, 8, &def);
    const shove_move_result c = test_slide_ok(mover, delta, &whole, 1, &def);
    /* the row reaches x = 2, so 0.40625 of the footprint stays supported */
    EXPECT_VEC_EQ(c.delta, V(1.59375, 0, 0));
    EXPECT_VEC_EQ(a.delta, c.delta);
    EXPECT_VEC_EQ(b.delta, c.delta);
}

/* Rule 3 with the edge guard, for a mover narrower than the footing the
 * guard keeps (skin): the guard looked for supports only up to where the
 * request ends, so a floor split just past that point stopped the mover a
 * skin short of the seam, where the whole floor let it go on. */
Test(regression, edge_guard_finds_the_supports_past_the_request) {
    const shove_aabb mover = BOX(0, 0, 0, 0.125, 2, 1);
    const shove_aabb whole = BOX(-1, -1, -1, 10, 0, 2);
    const shove_aabb near_part = BOX(-1, -1, -1, 5.1875, 0, 2);
    const shove_aabb far_part = BOX(5.1875, -1, -1, 10, 0, 2);
    const shove_aabb forward[2] = {near_part, far_part};
    const shove_aabb backward[2] = {far_part, near_part};
    shove_move_def def = SHOVE_FN(default_move_def)();
    def.edge_guard = true;
    def.skin = 0.25f;
    const shove_vec delta = V(5, 0, 0);
    const shove_move_result c = test_slide_ok(mover, delta, &whole, 1, &def);
    const shove_move_result a = test_slide_ok(mover, delta, forward, 2, &def);
    const shove_move_result b = test_slide_ok(mover, delta, backward, 2, &def);
    EXPECT_VEC_EQ(c.delta, delta);
    EXPECT_VEC_EQ(a.delta, c.delta);
    EXPECT_VEC_EQ(b.delta, c.delta);
    cr_expect(a.on_ground && b.on_ground && c.on_ground);
}

/* Rule 3 with the edge guard for a mover without width along its walk (the
 * slide fuzzer's input: 4.2e-45 wide, which rounds away once it has moved):
 * it ended exactly on the seam of a split plate, where strict overlap left
 * it standing on neither part, and the guard took its sideways motion back.
 * A footprint without width now stands on the supports its line touches. */
Test(regression, edge_guard_carries_a_line_across_a_seam) {
    const shove_aabb whole = BOX(0, -0.25, 0, 18, 0, 1);
    const shove_aabb split[2] = {BOX(0, -0.25, 0, 9, 0, 1), BOX(9, -0.25, 0, 18, 0, 1)};
    shove_move_def def = SHOVE_FN(default_move_def)();
    def.edge_guard = true;
    def.step_height = 0.6f;
    /* from the start of the plate to the seam, and from the seam on */
    const shove_aabb movers[2] = {BOX(0, 0.5, 0.25, 4.2e-45, 2, 0.75),
                                  BOX(9, 0.5, 0.25, 9, 2, 0.75)};
    const shove_vec deltas[2] = {V(9, -0.5, 0), V(4, -0.5, 0)};
    for (int i = 0; i < 2; ++i) {
        const shove_move_result c = test_slide_ok(movers[i], deltas[i], &whole, 1, &def);
        const shove_move_result a = test_slide_ok(movers[i], deltas[i], split, 2, &def);
        cr_expect_eq(c.box.min.raw[0], movers[i].min.raw[0] + deltas[i].raw[0], "%d: %.9g", i,
                     (double)c.box.min.raw[0]);
        EXPECT_VEC_EQ(a.delta, c.delta);
        EXPECT_VEC_EQ(a.box.min, c.box.min);
        cr_expect(a.on_ground && c.on_ground, "%d", i);
    }
}

/* A grid whose far corner overflows gave boxes with infinite coordinates
 * (finite input, invalid output); it is refused now. */
Test(regression, merge_grid_refuses_a_grid_beyond_float_range) {
    const uint8_t solid[4] = {1, 1, 1, 1};
    const int32_t cells[3] = {2, 2, 1};
    shove_aabb out[4];
    size_t count = 0;
    cr_expect_eq(SHOVE_FN(merge_grid)(solid, cells, 3.0e38f, V(0, 0, 0), out, 4, &count),
                 SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect_eq(SHOVE_FN(merge_grid)(solid, cells, 1.0e38f, V(0, 3.0e38f, 0), out, 4, &count),
                 SHOVE_ERR_INVALID_ARGUMENT);
    /* the largest grid that still fits works, and its boxes are valid */
    cr_assert_eq(SHOVE_FN(merge_grid)(solid, cells, 1.0e38f, V(0, 0, 0), out, 4, &count), SHOVE_OK);
    cr_assert_eq(count, 1u);
    cr_expect(SHOVE_FN(aabb_is_valid)(out[0]));
}

/* A step whose settle ran free to the request's depth went one float step
 * deeper than asked (rule 2): the settle was -(risen + depth), and
 * risen + that rounds below -depth for some depths. The depth here is
 * found by the same float arithmetic, the landing put exactly there. */
Test(regression, step_settle_never_goes_deeper_than_the_request) {
    const float h = 0.6f;
    int checked = 0;
    for (int i = 1; i < 100000 && checked < 8; ++i) {
        const float r = 1.0f + (float)i * 0.0000731f;
        const float end = h + -(h + r);
        if (!(end < -r)) {
            continue; /* rounding does not bite at this depth */
        }
        const shove_aabb obs[3] = {
            BOX(-5, -1, 0, 1.05, 0, 1),  /* where the mover stands */
            BOX(1.0, 0, 0, 1.2, 0.3, 1), /* a bump that makes it step */
            BOX(1.2, -20, 0, 10, end, 1) /* the landing, at the rounded depth */
        };
        shove_move_def def = SHOVE_FN(default_move_def)();
        def.step_height = h;
        const shove_vec delta = V(2, -r, 0);
        const shove_move_result res =
            test_slide_ok(BOX(0, 0, 0.25, 1, 1, 0.75), delta, obs, 3, &def);
        cr_expect(res.delta.raw[1] >= -r, "depth %.9g: moved %.9g", (double)r,
                  (double)res.delta.raw[1]);
        ++checked;
    }
    cr_assert_gt(checked, 0, "no depth where the rounding bites");
}

/* A body moved far outside the world's bounds made the broad phase grow its
 * root while the body sat in the old root; the move then took the body out
 * of the wrong node (a count of 0 wrapped around): a crash, or a write far
 * out of bounds. */
/* A mover with no width and no height (a line in 3D, a point in 2D) on
 * the side face of a column of stacked boxes, guarded, walking away from
 * the column and down: no top under it is ground (each top within a step
 * is covered by the box stacked on it), so nothing is guarded. The world
 * move's first gather left out the room above the mover's head (a lean
 * gather), so the box covering the top at the head's height was missing:
 * that top looked like ground, the guard clamped the walk, and the world
 * move ended elsewhere than shove_slide over the same boxes. */
Test(regression, thin_mover_beside_a_column_is_not_guarded_by_covered_tops) {
    const shove_aabb column[3] = {BOX(0, 0, 0, 0.5, 0.5, 0.5), BOX(0, 0.5, 0, 0.5, 1, 0.5),
                                  BOX(0, 1, 0, 0.5, 1.5, 0.5)};
    const shove_aabb mover = BOX(0, 0.75, 0, 0, 0.75, 10);
    const shove_vec delta = V(-1, -1, -1);
    shove_move_def def = SHOVE_FN(default_move_def)();
    def.edge_guard = true;
    def.step_height = 0.6f;
    def.skin = 0.0f;
    const shove_move_result alone = test_slide_ok(mover, delta, column, 3, &def);
    EXPECT_VEC_EQ(alone.delta, delta);
    shove_world *w = NULL;
    cr_assert_eq(SHOVE_FN(world_create)(NULL, &w), SHOVE_OK);
    shove_body_def bd = SHOVE_FN(default_body_def)();
    shove_id id;
    for (int k = 0; k < 3; ++k) {
        bd.box = column[k];
        cr_assert_eq(SHOVE_FN(body_create)(w, &bd, &id), SHOVE_OK);
    }
    bd.type = SHOVE_BODY_DYNAMIC;
    bd.box = mover;
    cr_assert_eq(SHOVE_FN(body_create)(w, &bd, &id), SHOVE_OK);
    shove_move_result r;
    cr_assert_eq(SHOVE_FN(move)(w, id, delta, &def, &r), SHOVE_OK);
    EXPECT_VEC_EQ(r.delta, alone.delta);
    cr_expect_eq(r.on_ground, alone.on_ground);
    SHOVE_FN(world_destroy)(w);
}

Test(regression, world_move_far_outside_the_bounds) {
    shove_world *w = NULL;
    cr_assert_eq(SHOVE_FN(world_create)(NULL, &w), SHOVE_OK);
    shove_body_def def = SHOVE_FN(default_body_def)();
    def.type = SHOVE_BODY_DYNAMIC;
    def.box = BOX(0, 0, 0, 1, 1, 1);
    shove_id id, other;
    cr_assert_eq(SHOVE_FN(body_create)(w, &def, &id), SHOVE_OK);
    def.box = BOX(5, 5, 0, 6, 6, 1); /* out of the way */
    cr_assert_eq(SHOVE_FN(body_create)(w, &def, &other), SHOVE_OK);
    const float far[4] = {-131136.0f, 262144.0f, -5000.0f, 3000.0f};
    float x = 0.0f;
    for (int k = 0; k < 4; ++k) {
        shove_move_result r;
        cr_assert_eq(SHOVE_FN(move)(w, id, V(far[k], 0, 0), NULL, &r), SHOVE_OK);
        x += far[k];
        cr_expect_eq(r.box.min.raw[0], x);
        shove_aabb got;
        cr_assert_eq(SHOVE_FN(body_get_box)(w, id, &got), SHOVE_OK);
        cr_expect_eq(got.min.raw[0], x);
        shove_id found[4];
        cr_expect_eq(SHOVE_FN(query_box)(w, got, UINT64_MAX, found, 4), 1u, "move %d", k);
        cr_expect(shove_id_equal(found[0], id));
    }
    cr_expect_eq(SHOVE_FN(body_destroy)(w, id), SHOVE_OK);
    cr_expect_eq(SHOVE_FN(body_destroy)(w, other), SHOVE_OK);
    cr_expect_eq(SHOVE_FN(world_body_count)(w), 0u);
    SHOVE_FN(world_destroy)(w);
}
