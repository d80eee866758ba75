/*
 * BOUNCE as in bump.lua: the rest of the motion is reflected on the blocked
 * axis from the contact on, and may carry the mover back past its start
 * (the documented exception to rule 2). The same example through every
 * entry point: lists (slide_dim_test.c), world moves over bodies and over
 * voxels / tiles, and the world step.
 */
#include "test_dim.h"
#include "test_world_ops.h"
#include "test_voxel_map.h"

/* bump.lua's example: a mover at (10, 10) sent to (1, 4) meets the top of a
 * floor at y = 8 after a third of the way, at x = 7; the rest (-6, -4) is
 * reflected to (-6, +4): it ends at (1, 12). */
static const float START_X = 10.0f, START_Y = 10.0f;

static shove_aabb mover_box(void) {
    return BOX(START_X, START_Y, 0, START_X + 1, START_Y + 1, 1);
}

static void expect_bump_end(shove_aabb b, const char *what) {
    cr_expect(fabsf(b.min.raw[0] - 1.0f) < 4e-6f, "%s: x %.9g", what, (double)b.min.raw[0]);
    cr_expect(fabsf(b.min.raw[1] - 12.0f) < 4e-6f, "%s: y %.9g", what, (double)b.min.raw[1]);
    if (SHOVE_DIM == 3) {
        cr_expect_eq(b.min.raw[SHOVE_DIM - 1], 0.0f, "%s", what);
    }
}

static shove_world *world_with_step_def(shove_response response) {
    shove_world_def wd = SHOVE_FN(default_world_def)();
    wd.step_def.response = response;
    shove_world *w;
    cr_assert_eq(SHOVE_FN(world_create)(&wd, &w), SHOVE_OK);
    return w;
}

Test(bounce, a_world_move_reflects_off_a_floor_body) {
    shove_world *w = world_with_step_def(SHOVE_RESPONSE_SLIDE);
    test_add_body(w, BOX(-5, -2, -1, 20, 8, 2), SHOVE_BODY_STATIC, 0);
    const shove_id id = test_add_body(w, mover_box(), SHOVE_BODY_DYNAMIC, 0);
    shove_move_def def = SHOVE_FN(default_move_def)();
    def.response = SHOVE_RESPONSE_BOUNCE;
    shove_move_result r;
    cr_assert_eq(SHOVE_FN(move)(w, id, V(-9, -6, 0), &def, &r), SHOVE_OK);
    expect_bump_end(r.box, "move");
    cr_expect(r.box.min.raw[1] > START_Y, "ends above where it began");
    /* SLIDE keeps to the floor instead */
    cr_assert_eq(SHOVE_FN(body_set_box)(w, id, mover_box()), SHOVE_OK);
    def.response = SHOVE_RESPONSE_SLIDE;
    cr_assert_eq(SHOVE_FN(move)(w, id, V(-9, -6, 0), &def, &r), SHOVE_OK);
    cr_expect_eq(r.box.min.raw[1], 8.0f);
    SHOVE_FN(world_destroy)(w);
}

Test(bounce, a_world_move_reflects_off_voxels) {
    test_map *m = map_new(-8, -4, -2, 32, 20, 5);
    for (int32_t x = -8; x < 24; ++x) {
        for (int32_t y = -4; y < 8; ++y) {
            for (int32_t z = -2; z < 3; ++z) {
                map_set(m, x, y, z, CELL_FULL);
            }
        }
    }
    shove_world *w = world_with_step_def(SHOVE_RESPONSE_SLIDE);
    const shove_voxel_def vd = map_def(m, V(0, 0, 0), 1.0f);
    cr_assert_eq(SHOVE_FN(world_set_voxels)(w, &vd), SHOVE_OK);
    const shove_id id = test_add_body(w, mover_box(), SHOVE_BODY_DYNAMIC, 0);
    shove_move_def def = SHOVE_FN(default_move_def)();
    def.response = SHOVE_RESPONSE_BOUNCE;
    shove_move_result r;
    cr_assert_eq(SHOVE_FN(move)(w, id, V(-9, -6, 0), &def, &r), SHOVE_OK);
    expect_bump_end(r.box, "voxels");
    SHOVE_FN(world_destroy)(w);
    map_free(m);
}

Test(bounce, the_step_reflects_with_a_bouncing_step_def) {
    shove_world *w = world_with_step_def(SHOVE_RESPONSE_BOUNCE);
    test_add_body(w, BOX(-5, -2, -1, 20, 8, 2), SHOVE_BODY_STATIC, 0);
    const shove_id id = test_add_body(w, mover_box(), SHOVE_BODY_DYNAMIC, 0);
    cr_assert_eq(SHOVE_FN(body_set_motion)(w, id, V(-9, -6, 0)), SHOVE_OK);
    cr_assert_eq(SHOVE_FN(world_step)(w), SHOVE_OK);
    shove_aabb b;
    cr_assert_eq(SHOVE_FN(body_get_box)(w, id, &b), SHOVE_OK);
    expect_bump_end(b, "step");
    SHOVE_FN(world_destroy)(w);
}

Test(bounce, a_bounce_near_the_end_of_float_range_is_refused) {
    /* the reflected path may reach the motion's length behind the start,
     * so a move that may bounce needs that side in float range too */
    const shove_aabb floor_box = BOX(-5, -2, -1, 20, 8, 2);
    const shove_aabb far = BOX(-3e38f, 10, 0, -2.9e38f, 11, 1);
    shove_move_def def = SHOVE_FN(default_move_def)();
    def.response = SHOVE_RESPONSE_BOUNCE;
    shove_move_result r;
    memset(&r, 0xAB, sizeof r);
    const shove_move_result before = r;
    cr_expect_eq(SHOVE_FN(slide)(far, V(1e38f, 0, 0), &floor_box, 1, &def, &r),
                 SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect(memcmp(&r, &before, sizeof r) == 0, "a refused slide wrote its result");
    def.response = SHOVE_RESPONSE_SLIDE;
    cr_expect_eq(SHOVE_FN(slide)(far, V(1e38f, 0, 0), &floor_box, 1, &def, &r), SHOVE_OK);
}

/* A bouncing mover that steps up: the step-up's settle back down (its own
 * motion, not the game's) does not bounce off the top it lands on, so the
 * mover ends at most step_height above its start (rule 2's step-up
 * exception). Bouncing it reflected the rest of the settle upward: 0.8
 * here for a step height of 0.5. */
Test(bounce, a_step_up_settles_without_bouncing) {
    const shove_aabb boxes[] = {BOX(-10, -1, -10, 10, 0, 10), BOX(1, 0, -10, 10, 0.4f, 10)};
    const shove_aabb mover = BOX(0, 0, 0, 0.5f, 1.5f, 0.5f);
    shove_move_def def = SHOVE_FN(default_move_def)();
    def.response = SHOVE_RESPONSE_BOUNCE;
    def.step_height = 0.5f;
    shove_move_result r;
    cr_assert_eq(SHOVE_FN(slide)(mover, V(1, 0, 0), boxes, 2, &def, &r), SHOVE_OK);
    cr_expect(r.stepped);
    cr_expect(r.delta.raw[1] <= def.step_height, "rose %.9g", (double)r.delta.raw[1]);
    /* it stands on the step, a skin above its top */
    cr_expect(r.box.min.raw[1] >= 0.4f && r.box.min.raw[1] <= 0.4f + 2.0f * def.skin, "%.9g",
              (double)r.box.min.raw[1]);
    cr_expect(r.on_ground);
}
