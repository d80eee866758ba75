/*
 * bindings_dim_test.c: the by-pointer twins (query_box_ptr, body_set_box_ptr)
 * answer exactly as the by-value calls, and refuse NULL pointers without
 * changing anything, in 2D and 3D.
 */
#include <string.h>

#include "test_dim.h"

static shove_world *new_world(void) {
    shove_world *w = NULL;
    cr_assert_eq(SHOVE_FN(world_create)(NULL, &w), SHOVE_OK);
    return w;
}

static shove_id add_box(shove_world *w, shove_aabb box) {
    shove_body_def def = SHOVE_FN(default_body_def)();
    def.box = box;
    def.type = SHOVE_BODY_DYNAMIC;
    shove_id id;
    cr_assert_eq(SHOVE_FN(body_create)(w, &def, &id), SHOVE_OK);
    return id;
}

Test(bindings, query_box_ptr_finds_what_query_box_finds) {
    shove_world *w = new_world();
    /* a row of ten unit boxes; the query covers boxes 2..5 and touches 6 */
    for (int i = 0; i < 10; ++i) {
        add_box(w, BOX((float)i, 0, 0, (float)i + 1, 1, 1));
    }
    const shove_aabb q = BOX(2.5f, 0.25f, 0.25f, 6, 0.75f, 0.75f);
    shove_id by_value[16], by_pointer[16];
    const size_t n = SHOVE_FN(query_box)(w, q, UINT64_MAX, by_value, 16);
    cr_assert_eq(n, 4u);
    cr_expect_eq(SHOVE_FN(query_box_ptr)(w, &q, UINT64_MAX, by_pointer, 16), (uint32_t)n);
    cr_expect_eq(memcmp(by_value, by_pointer, n * sizeof by_value[0]), 0);
    /* capacity smaller than the count: the total, only capacity written */
    shove_id two[3] = {{7, 7}, {7, 7}, {7, 7}};
    cr_expect_eq(SHOVE_FN(query_box_ptr)(w, &q, UINT64_MAX, two, 2), (uint32_t)n);
    cr_expect_eq(two[2].index, 7u);
    cr_expect_eq(two[2].generation, 7u);
    SHOVE_FN(world_destroy)(w);
}

Test(bindings, query_box_ptr_refuses_null_and_bad_boxes) {
    shove_world *w = new_world();
    add_box(w, BOX(0, 0, 0, 1, 1, 1));
    shove_id out[2] = {{9, 9}, {9, 9}};
    cr_expect_eq(SHOVE_FN(query_box_ptr)(w, NULL, UINT64_MAX, out, 2), 0u);
    const shove_aabb inverted = BOX(1, 1, 1, 0, 0, 0);
    cr_expect_eq(SHOVE_FN(query_box_ptr)(w, &inverted, UINT64_MAX, out, 2), 0u);
    const shove_aabb nan_box = BOX(NAN, 0, 0, 1, 1, 1);
    cr_expect_eq(SHOVE_FN(query_box_ptr)(w, &nan_box, UINT64_MAX, out, 2), 0u);
    const shove_aabb all = BOX(-5, -5, -5, 5, 5, 5);
    cr_expect_eq(SHOVE_FN(query_box_ptr)(NULL, &all, UINT64_MAX, out, 2), 0u);
    cr_expect_eq(out[0].index, 9u, "nothing written");
    SHOVE_FN(world_destroy)(w);
}

Test(bindings, body_set_box_ptr_moves_like_body_set_box) {
    shove_world *w = new_world();
    const shove_id a = add_box(w, BOX(0, 0, 0, 1, 1, 1));
    const shove_aabb to = BOX(3, 0, 0, 4, 1, 1);
    cr_assert_eq(SHOVE_FN(body_set_box_ptr)(w, &a, &to), SHOVE_OK);
    shove_aabb got;
    cr_assert_eq(SHOVE_FN(body_get_box)(w, a, &got), SHOVE_OK);
    cr_expect_eq(memcmp(&got, &to, sizeof got), 0);
    /* the broad phase knows the new place */
    shove_id found[2];
    const shove_aabb near_new = BOX(3.5f, 0.5f, 0.5f, 3.6f, 0.6f, 0.6f);
    const shove_aabb near_old = BOX(0.5f, 0.5f, 0.5f, 0.6f, 0.6f, 0.6f);
    cr_expect_eq(SHOVE_FN(query_box_ptr)(w, &near_new, UINT64_MAX, found, 2), 1u);
    cr_expect_eq(SHOVE_FN(query_box_ptr)(w, &near_old, UINT64_MAX, found, 2), 0u);
    SHOVE_FN(world_destroy)(w);
}

Test(bindings, body_set_box_ptr_refuses_without_changing_anything) {
    shove_world *w = new_world();
    const shove_aabb start = BOX(0, 0, 0, 1, 1, 1);
    const shove_id a = add_box(w, start);
    const shove_aabb to = BOX(3, 0, 0, 4, 1, 1);
    const shove_aabb bad = BOX(0, 0, 0, -1, 1, 1);
    const shove_aabb inf_box = BOX(0, 0, 0, INFINITY, 1, 1);
    const shove_id stale = {a.index, a.generation + 1u};
    cr_expect_eq(SHOVE_FN(body_set_box_ptr)(w, NULL, &to), SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect_eq(SHOVE_FN(body_set_box_ptr)(w, &a, NULL), SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect_eq(SHOVE_FN(body_set_box_ptr)(NULL, &a, &to), SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect_eq(SHOVE_FN(body_set_box_ptr)(w, &a, &bad), SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect_eq(SHOVE_FN(body_set_box_ptr)(w, &a, &inf_box), SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect_eq(SHOVE_FN(body_set_box_ptr)(w, &stale, &to), SHOVE_ERR_STALE_ID);
    shove_aabb got;
    cr_assert_eq(SHOVE_FN(body_get_box)(w, a, &got), SHOVE_OK);
    cr_expect_eq(memcmp(&got, &start, sizeof got), 0, "refusals left the box alone");
    SHOVE_FN(world_destroy)(w);
}
