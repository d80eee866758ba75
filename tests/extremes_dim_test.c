/*
 * Extreme coordinates: boxes reaching FLT_MAX and motions near the end of
 * float range neither tunnel nor write anything non-finite; a step that
 * could carry a body beyond float range is refused with nothing changed.
 */
#include "test_dim.h"
#include "test_world_ops.h"
#include "test_world_text.h"

#include <float.h>
#include <stdio.h>
#include <stdlib.h>

static void expect_same_text(const shove_world *w, const char *before, const char *what) {
    char *now = world_text(w);
    cr_expect_str_eq(now, before, "%s changed the world", what);
    free(now);
}

static bool box_is_finite(shove_aabb b) {
    return SHOVE_FN(aabb_is_valid)(b);
}

/* >>slides ------------------------------------------------------------------ */

Test(extremes, a_box_reaching_flt_max_lands_on_the_floor) {
    const shove_aabb floor_box = BOX(-1e4, -1, -1e4, 1e4, 0, 1e4);
    const shove_aabb boxes[] = {BOX(0, 10, 0, FLT_MAX, 12, 1), BOX(-FLT_MAX, 10, 0, 0, 12, 1),
                                BOX(-FLT_MAX, 10, -FLT_MAX, FLT_MAX, 12, FLT_MAX)};
    for (size_t i = 0; i < sizeof boxes / sizeof boxes[0]; ++i) {
        /* the sweep sees the floor... */
        shove_hit hit;
        cr_assert(SHOVE_FN(sweep_aabb)(boxes[i], V(0, -100, 0), floor_box, &hit), "box %zu", i);
        cr_expect_eq(hit.t, 0.1f);
        /* ...and so does the slide: it stops on it */
        shove_move_result r;
        cr_assert_eq(SHOVE_FN(slide)(boxes[i], V(0, -100, 0), &floor_box, 1, NULL, &r), SHOVE_OK);
        cr_expect_eq(r.box.min.raw[1], 0.0f, "box %zu ends at y %.9g", i, (double)r.box.min.raw[1]);
        cr_expect_eq(r.box.max.raw[1], 2.0f);
        cr_expect(r.on_ground, "box %zu", i);
        cr_expect(box_is_finite(r.box));
        cr_expect_eq(r.box.min.raw[0], boxes[i].min.raw[0]);
        cr_expect_eq(r.box.max.raw[0], boxes[i].max.raw[0]);
        /* sideways along the floor: free, and still finite */
        cr_assert_eq(SHOVE_FN(slide)(r.box, V(-5, -1, 0), &floor_box, 1, NULL, &r), SHOVE_OK);
        cr_expect_eq(r.box.min.raw[1], 0.0f);
        cr_expect(box_is_finite(r.box));
    }
}

Test(extremes, a_world_body_reaching_flt_max_lands_on_a_floor_body) {
    shove_world *w;
    cr_assert_eq(SHOVE_FN(world_create)(NULL, &w), SHOVE_OK);
    test_add_body(w, BOX(-1e4, -1, -1e4, 1e4, 0, 1e4), SHOVE_BODY_STATIC, 0);
    const shove_id id = test_add_body(w, BOX(0, 10, 0, FLT_MAX, 12, 1), SHOVE_BODY_DYNAMIC, 0);
    shove_move_result r;
    cr_assert_eq(SHOVE_FN(move)(w, id, V(0, -100, 0), NULL, &r), SHOVE_OK);
    cr_expect_eq(r.box.min.raw[1], 0.0f, "ends at y %.9g", (double)r.box.min.raw[1]);
    cr_expect(r.on_ground);
    /* the step too: a small motion falls onto the floor, a finite box */
    cr_assert_eq(SHOVE_FN(body_set_box)(w, id, BOX(0, 10, 0, FLT_MAX, 12, 1)), SHOVE_OK);
    cr_assert_eq(SHOVE_FN(body_set_motion)(w, id, V(3, -100, 0)), SHOVE_OK);
    cr_assert_eq(SHOVE_FN(world_step)(w), SHOVE_OK);
    shove_aabb b;
    cr_assert_eq(SHOVE_FN(body_get_box)(w, id, &b), SHOVE_OK);
    cr_expect_eq(b.min.raw[1], 0.0f);
    cr_expect_eq(b.min.raw[0], 3.0f);
    cr_expect(box_is_finite(b));
    SHOVE_FN(world_destroy)(w);
}

/* >>steps ------------------------------------------------------------------- */

Test(extremes, a_motion_beyond_float_range_is_refused_when_set) {
    shove_world *w;
    cr_assert_eq(SHOVE_FN(world_create)(NULL, &w), SHOVE_OK);
    const shove_id id = test_add_body(w, BOX(0, 10, 0, FLT_MAX, 12, 1), SHOVE_BODY_DYNAMIC, 0);
    char *before = world_text(w);
    cr_expect_eq(SHOVE_FN(body_set_motion)(w, id, V(3e38, 0, 0)), SHOVE_ERR_OUT_OF_RANGE);
    expect_same_text(w, before, "set_motion beyond float range");
    /* nothing pending: the step moves nothing */
    cr_assert_eq(SHOVE_FN(world_step)(w), SHOVE_OK);
    expect_same_text(w, before, "a step after a refused motion");
    shove_aabb b;
    cr_assert_eq(SHOVE_FN(body_get_box)(w, id, &b), SHOVE_OK);
    cr_expect(box_is_finite(b));
    /* the same motion from a box it fits: accepted */
    cr_assert_eq(SHOVE_FN(body_set_box)(w, id, BOX(0, 10, 0, 1, 12, 1)), SHOVE_OK);
    cr_expect_eq(SHOVE_FN(body_set_motion)(w, id, V(3e38, 0, 0)), SHOVE_OK);
    free(before);
    SHOVE_FN(world_destroy)(w);
}

Test(extremes, a_step_that_could_leave_float_range_is_refused) {
    shove_world *w;
    cr_assert_eq(SHOVE_FN(world_create)(NULL, &w), SHOVE_OK);
    test_add_body(w, BOX(-1e4, -1, -1e4, 1e4, 0, 1e4), SHOVE_BODY_STATIC, 0);
    const shove_id id = test_add_body(w, BOX(0, 10, 0, 1, 12, 1), SHOVE_BODY_DYNAMIC, 0);
    shove_move_result r;
    cr_assert_eq(SHOVE_FN(move)(w, id, V(0.5, -1, 0), NULL, &r), SHOVE_OK); /* some events */

    /* 1. A motion set while it fitted, then the body teleported to FLT_MAX. */
    cr_assert_eq(SHOVE_FN(body_set_motion)(w, id, V(3e38, 0, 0)), SHOVE_OK);
    cr_assert_eq(SHOVE_FN(body_set_box)(w, id, BOX(0, 10, 0, FLT_MAX, 12, 1)), SHOVE_OK);
    char *before = world_text(w);
    const shove_event *ev;
    const size_t events = SHOVE_FN(world_get_events)(w, &ev);
    cr_expect_eq(SHOVE_FN(world_step)(w), SHOVE_ERR_OUT_OF_RANGE);
    expect_same_text(w, before, "a step beyond float range");
    cr_expect_eq(SHOVE_FN(world_get_events)(w, &ev), events);
    free(before);
    /* the motion is still pending: back where it fits, the step runs it */
    cr_assert_eq(SHOVE_FN(body_set_box)(w, id, BOX(0, 10, 0, 1, 12, 1)), SHOVE_OK);
    cr_assert_eq(SHOVE_FN(world_step)(w), SHOVE_OK);
    shove_aabb b;
    cr_assert_eq(SHOVE_FN(body_get_box)(w, id, &b), SHOVE_OK);
    cr_expect_eq(b.min.raw[0], 3e38f);
    cr_expect(box_is_finite(b));

    /* 2. A pusher whose own motion fits, shoving a weaker body that reaches
     *    FLT_MAX: the pushed body could leave float range. */
    const shove_id pusher = test_add_body(w, BOX(-3, 0, 0, -2, 1, 1), SHOVE_BODY_DYNAMIC, 0);
    test_add_body(w, BOX(-1, 0, 0, FLT_MAX, 1, 1), SHOVE_BODY_DYNAMIC, 5);
    cr_assert_eq(SHOVE_FN(body_set_motion)(w, pusher, V(2e38, 0, 0)), SHOVE_OK);
    before = world_text(w);
    cr_expect_eq(SHOVE_FN(world_step)(w), SHOVE_ERR_OUT_OF_RANGE);
    expect_same_text(w, before, "a push beyond float range");
    free(before);
    /* a small push is fine: FLT_MAX + 1 rounds to FLT_MAX */
    cr_assert_eq(SHOVE_FN(body_set_motion)(w, pusher, V(2, 0, 0)), SHOVE_OK);
    cr_assert_eq(SHOVE_FN(world_step)(w), SHOVE_OK);
    cr_assert_eq(SHOVE_FN(body_get_box)(w, pusher, &b), SHOVE_OK);
    cr_expect_eq(b.min.raw[0], -1.0f);
    SHOVE_FN(world_destroy)(w);
}

/* >>tiny movers ------------------------------------------------------------- */

/* A mover 1e-45 wide walks along a plate under the edge guard; the plate
 * split in two at x = 7.25 must let it cross the same way (rule 3). At the
 * seam the mover's width rounds away in o.min - b.max. */
Test(extremes, a_hair_thin_mover_crosses_a_seam_under_the_edge_guard) {
    const float hair = 4.20389539e-45f;
    const shove_aabb mover = BOX(0, 0.5f, -8, hair, 31.75f, 6.5f);
    const shove_aabb whole[] = {BOX(0, 0, 0, 14.5f, 0.25f, hair)};
    const shove_aabb split[] = {BOX(0, 0, 0, 7.25f, 0.25f, hair),
                                BOX(7.25f, 0, 0, 14.5f, 0.25f, hair)};
    shove_move_def def = SHOVE_FN(default_move_def)();
    def.step_height = 0.6f;
    def.edge_guard = true;
    def.max_iterations = 33;
    shove_move_result a, b;
    cr_assert_eq(SHOVE_FN(slide)(mover, V(16.75f, 0, 6), whole, 1, &def, &a), SHOVE_OK);
    cr_assert_eq(SHOVE_FN(slide)(mover, V(16.75f, 0, 6), split, 2, &def, &b), SHOVE_OK);
    cr_expect(a.box.min.raw[0] > 14.0f && a.box.max.raw[0] <= 14.5f, "%.9g",
              (double)a.box.min.raw[0]);
    EXPECT_VEC_EQ(b.delta, a.delta);
    EXPECT_VEC_EQ(b.box.min, a.box.min);
    EXPECT_VEC_EQ(b.box.max, a.box.max);
    /* a wider mover and a plate in four: the same */
    const shove_aabb wide = BOX(0, 0.5f, 0, 0.5f, 1.5f, 0.5f);
    const shove_aabb plate[] = {BOX(0, 0, 0, 14.5f, 0.25f, 1)};
    const shove_aabb four[] = {BOX(0, 0, 0, 3.5f, 0.25f, 1), BOX(3.5f, 0, 0, 7.25f, 0.25f, 1),
                               BOX(7.25f, 0, 0, 11, 0.25f, 1), BOX(11, 0, 0, 14.5f, 0.25f, 1)};
    cr_assert_eq(SHOVE_FN(slide)(wide, V(20, 0, 0), plate, 1, &def, &a), SHOVE_OK);
    cr_assert_eq(SHOVE_FN(slide)(wide, V(20, 0, 0), four, 4, &def, &b), SHOVE_OK);
    /* it keeps the default footing (1/16) on the last plate */
    cr_expect(a.box.min.raw[0] <= 14.4375f && a.box.min.raw[0] > 14.43f, "%.9g",
              (double)a.box.min.raw[0]);
    EXPECT_VEC_EQ(b.box.min, a.box.min);
}

/* A mover whose width rounds away against a wall lies on the wall's face as
 * a line. Such a line stands on no top that the wall goes on above: a wall
 * cut in two at the line's foot reads as the whole wall (rule 3), which is
 * beside the line, not under it. Removing the covered-top rule from the
 * probes (ground_probe.c, top_covered) makes the cut wall ground. */
Test(extremes, a_line_on_a_wall_face_stands_on_no_cut_of_the_wall) {
    const shove_aabb mover = BOX(-2.31455074e-38f, 0, 0, -2.29621965e-38f, 2, 1);
    const shove_aabb whole[] = {BOX(2, 0, -0.3125f, 27.25f, 16, 58.6875f)};
    const shove_aabb cut[] = {BOX(2, 0, -0.3125f, 27.25f, 6, 58.6875f),
                              BOX(2, 6, -0.3125f, 27.25f, 16, 58.6875f)};
    shove_move_def def = SHOVE_FN(default_move_def)();
    def.skin = 0.0f;
    def.edge_guard = true;
    for (int guard = 0; guard < 2; ++guard) {
        def.edge_guard = guard != 0;
        shove_move_result a, b;
        cr_assert_eq(SHOVE_FN(slide)(mover, V(8.75f, 6, 0), whole, 1, &def, &a), SHOVE_OK);
        cr_assert_eq(SHOVE_FN(slide)(mover, V(8.75f, 6, 0), cut, 2, &def, &b), SHOVE_OK);
        /* the line ends on the face, its foot at the cut */
        cr_expect_eq(a.box.min.raw[0], 2.0f);
        cr_expect_eq(a.box.max.raw[0], 2.0f);
        cr_expect_eq(a.box.min.raw[1], 6.0f);
        cr_expect(!a.on_ground, "guard %d: the whole wall is ground", guard);
        cr_expect(!b.on_ground, "guard %d: the cut wall is ground", guard);
        EXPECT_VEC_EQ(b.delta, a.delta);
        EXPECT_VEC_EQ(b.box.min, a.box.min);
        EXPECT_VEC_EQ(b.box.max, a.box.max);
        cr_expect_eq(b.hit_wall, a.hit_wall);
    }
    /* a wall that ends at the foot is ground for the line: its top is a
     * surface there */
    shove_move_result r;
    cr_assert_eq(SHOVE_FN(slide)(mover, V(8.75f, 6, 0), cut, 1, &def, &r), SHOVE_OK);
    cr_expect(r.on_ground);
}

#if SHOVE_DIM == 3
/* The same line along z over [0, 1]: the wall above the cut, itself cut
 * along z, still covers the top all along the line; a piece missing over
 * part of the line leaves the top bare there, and the line stands on it. */
Test(extremes, a_line_stands_where_the_cut_top_is_bare) {
    const shove_aabb mover = BOX(-2.31455074e-38f, 0, 0, -2.29621965e-38f, 2, 1);
    shove_move_def def = SHOVE_FN(default_move_def)();
    def.skin = 0.0f;
    const shove_aabb covered[] = {BOX(2, 0, -0.3125f, 27.25f, 6, 58.6875f),
                                  BOX(2, 6, -0.3125f, 27.25f, 16, 0.5f),
                                  BOX(2, 6, 0.5f, 27.25f, 16, 58.6875f)};
    const shove_aabb bare[] = {BOX(2, 0, -0.3125f, 27.25f, 6, 58.6875f),
                               BOX(2, 6, -0.3125f, 27.25f, 16, 0.5f),
                               BOX(2, 6, 0.75f, 27.25f, 16, 58.6875f)};
    shove_move_result a, b;
    cr_assert_eq(SHOVE_FN(slide)(mover, V(8.75f, 6, 0), covered, 3, &def, &a), SHOVE_OK);
    cr_assert_eq(SHOVE_FN(slide)(mover, V(8.75f, 6, 0), bare, 3, &def, &b), SHOVE_OK);
    cr_expect_eq(a.box.min.raw[1], 6.0f);
    cr_expect_eq(b.box.min.raw[1], 6.0f);
    cr_expect(!a.on_ground, "the covered cut is ground");
    cr_expect(b.on_ground, "the bare part of the cut is not ground");
}

/* The fuzzed scene that found it (fuzz_slide): far along z, a move's
 * rounding reaches several units below the foot, down to the cut at 8. */
Test(extremes, a_long_line_on_a_wall_face_stands_on_no_cut_of_the_wall) {
    const shove_aabb mover = BOX(-2.31455074e-38f, 0, 0, -2.29621965e-38f, 2, 12716284);
    const shove_aabb whole[] = {BOX(2, 0, -0.3125f, 27.25f, 16, 58.6875f)};
    const shove_aabb cut[] = {BOX(2, 0, -0.3125f, 27.25f, 8, 58.6875f),
                              BOX(2, 8, -0.3125f, 27.25f, 16, 58.6875f)};
    shove_move_def def = SHOVE_FN(default_move_def)();
    def.skin = 0.0f;
    def.max_iterations = 25;
    def.edge_guard = true;
    shove_move_result a, b;
    const shove_vec d = V(8.74999714f, 11.5f, -19790);
    cr_assert_eq(SHOVE_FN(slide)(mover, d, whole, 1, &def, &a), SHOVE_OK);
    cr_assert_eq(SHOVE_FN(slide)(mover, d, cut, 2, &def, &b), SHOVE_OK);
    cr_expect_eq(a.on_ground, b.on_ground);
    cr_expect(!b.on_ground);
    EXPECT_VEC_EQ(b.box.min, a.box.min);
    EXPECT_VEC_EQ(b.box.max, a.box.max);
}
#endif
