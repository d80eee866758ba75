/*
 * test_world_ops.h: the one-line world operations most suites need, each
 * asserting that the library accepted the call (so a test reads as the scene
 * it builds). Include after test_dim.h.
 */
#ifndef SHOVE_TEST_WORLD_OPS_H
#define SHOVE_TEST_WORLD_OPS_H

#include "test_dim.h"

/** A body of the given type and priority with the default def otherwise. */
static inline shove_id test_add_body(shove_world *w, shove_aabb box, shove_body_type type,
                                     int priority) {
    shove_body_def def = SHOVE_FN(default_body_def)();
    def.box = box;
    def.type = type;
    def.priority = (uint8_t)priority;
    shove_id id;
    cr_assert_eq(SHOVE_FN(body_create)(w, &def, &id), SHOVE_OK);
    return id;
}

/** A body of the given type and filter (its category bits and the mask of
 *  the categories it meets), with the default def otherwise. */
static inline shove_id test_add_filtered_body(shove_world *w, shove_aabb box, shove_body_type type,
                                              uint64_t category, uint64_t mask) {
    shove_body_def def = SHOVE_FN(default_body_def)();
    def.box = box;
    def.type = type;
    def.category = category;
    def.mask = mask;
    shove_id id;
    cr_assert_eq(SHOVE_FN(body_create)(w, &def, &id), SHOVE_OK);
    return id;
}

/** The body's current box. */
static inline shove_aabb test_box_of(const shove_world *w, shove_id id) {
    shove_aabb b;
    cr_assert_eq(SHOVE_FN(body_get_box)(w, id, &b), SHOVE_OK);
    return b;
}

/** shove_slide over a list, which must accept the input. */
static inline shove_move_result test_slide_ok(shove_aabb box, shove_vec delta,
                                              const shove_aabb *obstacles, size_t count,
                                              const shove_move_def *def) {
    shove_move_result r;
    memset(&r, 0, sizeof r);
    const shove_status st = SHOVE_FN(slide)(box, delta, obstacles, count, def, &r);
    cr_assert_eq(st, SHOVE_OK, "slide refused: %s", shove_status_string(st));
    return r;
}

#endif
