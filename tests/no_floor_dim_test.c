/*
 * no_floor_dim_test.c: a world has no floor of its own (issue 21, point 5).
 * With no voxels set, or voxels with no solid cell under the mover, a mover
 * with gravity falls every frame: each move is SHOVE_OK, never on_ground,
 * and nothing stops it until its coordinates leave float range, where the
 * move is refused and changes nothing.
 */
#include "test_dim.h"
#include "test_voxel_map.h"

/* Falls `frames` frames of 0.5 down and 0.1 sideways; every one moves the
 * whole way and lands nowhere. */
static void expect_free_fall(shove_world *w, shove_id id, int frames) {
    shove_aabb before;
    cr_assert_eq(SHOVE_FN(body_get_box)(w, id, &before), SHOVE_OK);
    for (int f = 0; f < frames; ++f) {
        shove_move_result r;
        cr_assert_eq(SHOVE_FN(move)(w, id, V(0.1, -0.5, 0), NULL, &r), SHOVE_OK, "frame %d", f);
        cr_assert_not(r.on_ground, "frame %d: landed on nothing", f);
        cr_assert_eq(r.delta.y, -0.5f, "frame %d", f);
        cr_assert_eq(r.contact_count, 0);
    }
    shove_aabb after;
    cr_assert_eq(SHOVE_FN(body_get_box)(w, id, &after), SHOVE_OK);
    cr_expect_eq(after.min.y, before.min.y - 0.5f * (float)frames);
}

static shove_id add_player(shove_world *w) {
    const shove_body_def def = {.box = BOX(0.2, 0, 0.2, 0.8, 1.8, 0.8), .type = SHOVE_BODY_DYNAMIC};
    shove_id id;
    cr_assert_eq(SHOVE_FN(body_create)(w, &def, &id), SHOVE_OK);
    return id;
}

Test(no_floor, a_world_without_voxels_lets_a_mover_fall_for_ever) {
    shove_world *w;
    cr_assert_eq(SHOVE_FN(world_create)(NULL, &w), SHOVE_OK);
    const shove_id id = add_player(w);
    expect_free_fall(w, id, 400);
    /* Far below, a move that would leave float range is refused and the
     * body stays where it was. */
    const shove_aabb deep = BOX(0, -3e38, 0, 1, -2.9e38, 1);
    cr_assert_eq(SHOVE_FN(body_set_box)(w, id, deep), SHOVE_OK);
    shove_move_result r;
    cr_expect_eq(SHOVE_FN(move)(w, id, V(0, -1e38, 0), NULL, &r), SHOVE_ERR_INVALID_ARGUMENT);
    shove_aabb b;
    cr_assert_eq(SHOVE_FN(body_get_box)(w, id, &b), SHOVE_OK);
    EXPECT_VEC_EQ(b.min, deep.min);
    SHOVE_FN(world_destroy)(w);
}

Test(no_floor, voxels_with_nothing_below_let_a_mover_fall_too) {
    /* A block beside the mover's path, none under it. */
    test_map *map = map_new(-8, -8, -8, 16, 16, 16);
    map_set(map, 4, -2, 0, CELL_FULL);
    shove_world *w;
    cr_assert_eq(SHOVE_FN(world_create)(NULL, &w), SHOVE_OK);
    const shove_voxel_def vd = map_def(map, V(0, 0, 0), 1.0f);
    cr_assert_eq(SHOVE_FN(world_set_voxels)(w, &vd), SHOVE_OK);
    const shove_id id = add_player(w);
    expect_free_fall(w, id, 100);
    SHOVE_FN(world_destroy)(w);
    map_free(map);
}
