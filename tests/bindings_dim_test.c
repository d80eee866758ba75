/*
 * bindings_dim_test.c: the by-pointer twins (query_box_ptr, body_set_box_ptr,
 * move_ptr) answer exactly as the by-value calls, and refuse NULL pointers without
 * changing anything, in 2D and 3D.
 */
#include <string.h>

#include "test_dim.h"
#include "test_world_text.h"

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

/* Two worlds built alike: a floor, a wall and a mover; the same move by
 * value in one and by pointer in the other ends in the same box, result and
 * contacts, and leaves the two worlds' dumps alike. */
static shove_world *move_scene(shove_id *mover) {
    shove_world *w = new_world();
    shove_body_def def = SHOVE_FN(default_body_def)();
    def.box = BOX(-10, -1, -10, 10, 0, 10);
    shove_id floor_id, wall_id;
    cr_assert_eq(SHOVE_FN(body_create)(w, &def, &floor_id), SHOVE_OK);
    def.box = BOX(3, 0, -10, 4, 5, 10);
    cr_assert_eq(SHOVE_FN(body_create)(w, &def, &wall_id), SHOVE_OK);
    *mover = add_box(w, BOX(0, 0, 0, 1, 2, 1));
    return w;
}

Test(bindings, move_ptr_moves_like_move) {
    shove_id a, b;
    shove_world *by_value = move_scene(&a);
    shove_world *by_pointer = move_scene(&b);
    /* down into the floor and right into the wall: slides along both */
    const shove_vec delta = V(5, -1, 0.5f);
    shove_contact ca[4], cb[4];
    shove_move_def def = SHOVE_FN(default_move_def)();
    def.contacts = ca;
    def.contact_capacity = 4;
    shove_move_result ra, rb;
    memset(&ra, 0, sizeof ra);
    memset(&rb, 0, sizeof rb);
    cr_assert_eq(SHOVE_FN(move)(by_value, a, delta, &def, &ra), SHOVE_OK);
    def.contacts = cb;
    cr_assert_eq(SHOVE_FN(move_ptr)(by_pointer, &b, &delta, &def, &rb), SHOVE_OK);
    cr_expect_eq(ra.contact_count, 2, "the floor and the wall");
    cr_expect(ra.on_ground && ra.hit_wall);
    EXPECT_VEC_EQ(rb.box.min, ra.box.min);
    EXPECT_VEC_EQ(rb.box.max, ra.box.max);
    EXPECT_VEC_EQ(rb.delta, ra.delta);
    cr_expect_eq(rb.contact_count, ra.contact_count);
    cr_expect_eq(rb.on_ground, ra.on_ground);
    cr_expect_eq(rb.hit_wall, ra.hit_wall);
    cr_expect_eq(rb.hit_ceiling, ra.hit_ceiling);
    cr_expect_eq(rb.stepped, ra.stepped);
    for (int i = 0; i < ra.contact_count && i < 4; ++i) {
        /* the same slot (each world salts its generations) */
        cr_expect_eq(cb[i].other.index, ca[i].other.index, "contact %d: other", i);
        cr_expect_eq(cb[i].index, ca[i].index, "contact %d: index", i);
        EXPECT_VEC_EQ(cb[i].normal, ca[i].normal);
        cr_expect_eq(cb[i].t, ca[i].t, "contact %d: t", i);
        cr_expect_eq(cb[i].response, ca[i].response, "contact %d: response", i);
    }
    char *ta = world_text(by_value), *tb = world_text(by_pointer);
    cr_expect_str_eq(tb, ta);
    free(ta);
    free(tb);
    /* a NULL def is the default one, as for move */
    cr_assert_eq(SHOVE_FN(move)(by_value, a, V(-2, 0, 0), NULL, &ra), SHOVE_OK);
    const shove_vec back = V(-2, 0, 0);
    cr_assert_eq(SHOVE_FN(move_ptr)(by_pointer, &b, &back, NULL, &rb), SHOVE_OK);
    EXPECT_VEC_EQ(rb.box.min, ra.box.min);
    SHOVE_FN(world_destroy)(by_value);
    SHOVE_FN(world_destroy)(by_pointer);
}

Test(bindings, move_ptr_refuses_without_changing_anything) {
    shove_id a;
    shove_world *w = move_scene(&a);
    char *before = world_text(w);
    const shove_vec delta = V(1, 0, 0);
    const shove_vec nan_delta = V(NAN, 0, 0);
    const shove_id stale = {a.index, a.generation + 1u};
    shove_move_result out;
    memset(&out, 0x5a, sizeof out);
    shove_move_result untouched;
    memcpy(&untouched, &out, sizeof out);
    cr_expect_eq(SHOVE_FN(move_ptr)(w, NULL, &delta, NULL, &out), SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect_eq(SHOVE_FN(move_ptr)(w, &a, NULL, NULL, &out), SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect_eq(SHOVE_FN(move_ptr)(NULL, &a, &delta, NULL, &out), SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect_eq(SHOVE_FN(move_ptr)(w, &a, &delta, NULL, NULL), SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect_eq(SHOVE_FN(move_ptr)(w, &a, &nan_delta, NULL, &out), SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect_eq(SHOVE_FN(move_ptr)(w, &stale, &delta, NULL, &out), SHOVE_ERR_STALE_ID);
    cr_expect_eq(memcmp(&out, &untouched, sizeof out), 0, "the result is untouched");
    char *after = world_text(w);
    cr_expect_str_eq(after, before, "refusals changed the world");
    free(before);
    free(after);
    SHOVE_FN(world_destroy)(w);
}
