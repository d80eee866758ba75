/*
 * filter_skip_dim_test.c: a world move skips a broad-phase tree none of
 * whose bodies the mover can interact with (their categories against its
 * mask, its category against their masks). The skip must follow every
 * change of what a tree holds: bodies created and destroyed, types and
 * filters changed. Each case checks that a body the mover should meet
 * stops it, and one it should not does not, in 2D and 3D.
 */
#include "test_dim.h"
#include "test_world_ops.h"

enum { MOVER_CATEGORY = 1, MOVER_MASK = 2 };

static shove_world *new_world(void) {
    shove_world *w = NULL;
    cr_assert_eq(SHOVE_FN(world_create)(NULL, &w), SHOVE_OK);
    return w;
}

/* A mover at x in [0, 1] that meets category 2 only. */
static shove_id add_mover(shove_world *w) {
    return test_add_filtered_body(w, BOX(0, 0, 0, 1, 1, 1), SHOVE_BODY_DYNAMIC, MOVER_CATEGORY,
                                  MOVER_MASK);
}

/* A wall at x in [3, 4]. */
static shove_id add_wall(shove_world *w, shove_body_type type, uint64_t category, uint64_t mask) {
    return test_add_filtered_body(w, BOX(3, -5, -5, 4, 5, 5), type, category, mask);
}

/* Moves the mover from x = 0 toward x = 5 and back; true when the wall
 * stopped it. */
static bool blocked(shove_world *w, shove_id mover) {
    shove_move_result r;
    cr_assert_eq(SHOVE_FN(body_set_box)(w, mover, BOX(0, 0, 0, 1, 1, 1)), SHOVE_OK);
    cr_assert_eq(SHOVE_FN(move)(w, mover, V(5, 0, 0), NULL, &r), SHOVE_OK);
    return r.box.max.x < 3.0f + 1e-3f && r.hit_wall;
}

Test(filter_skip, a_filter_change_is_seen_by_the_next_move) {
    for (int type = SHOVE_BODY_STATIC; type <= SHOVE_BODY_DYNAMIC; ++type) {
        shove_world *w = new_world();
        const shove_id mover = add_mover(w);
        const shove_id wall = add_wall(w, (shove_body_type)type, 4, UINT64_MAX);
        cr_expect(!blocked(w, mover), "type %d: category 4 is not in the mover's mask", type);
        cr_assert_eq(SHOVE_FN(body_set_filter)(w, wall, 2, UINT64_MAX), SHOVE_OK);
        cr_expect(blocked(w, mover), "type %d: now it is", type);
        cr_assert_eq(SHOVE_FN(body_set_filter)(w, wall, 2, 4), SHOVE_OK);
        cr_expect(!blocked(w, mover), "type %d: its mask misses the mover's category", type);
        cr_assert_eq(SHOVE_FN(body_set_filter)(w, wall, 2 | 4, 1), SHOVE_OK);
        cr_expect(blocked(w, mover), "type %d: both ways again", type);
        SHOVE_FN(world_destroy)(w);
    }
}

Test(filter_skip, bodies_that_change_tree_or_go_are_followed) {
    shove_world *w = new_world();
    const shove_id mover = add_mover(w);
    /* a body the mover cannot meet in each tree, so neither is empty */
    add_wall(w, SHOVE_BODY_STATIC, 8, UINT64_MAX);
    add_wall(w, SHOVE_BODY_DYNAMIC, 8, UINT64_MAX);
    cr_expect(!blocked(w, mover));
    const shove_id wall = add_wall(w, SHOVE_BODY_STATIC, 2, UINT64_MAX);
    cr_expect(blocked(w, mover), "a static body it meets");
    cr_assert_eq(SHOVE_FN(body_set_type)(w, wall, SHOVE_BODY_DYNAMIC), SHOVE_OK);
    cr_expect(blocked(w, mover), "the same body, now dynamic");
    cr_assert_eq(SHOVE_FN(body_destroy)(w, wall), SHOVE_OK);
    cr_expect(!blocked(w, mover), "gone");
    /* two bodies of the same category: one going leaves the other */
    const shove_id a = add_wall(w, SHOVE_BODY_DYNAMIC, 2, UINT64_MAX);
    const shove_id b = add_wall(w, SHOVE_BODY_DYNAMIC, 2, UINT64_MAX);
    cr_assert_eq(SHOVE_FN(body_destroy)(w, a), SHOVE_OK);
    cr_expect(blocked(w, mover), "the other body of the category still stops it");
    cr_assert_eq(SHOVE_FN(body_set_type)(w, b, SHOVE_BODY_STATIC), SHOVE_OK);
    cr_expect(blocked(w, mover), "and after it changed tree");
    cr_assert_eq(SHOVE_FN(body_set_filter)(w, b, 8, UINT64_MAX), SHOVE_OK);
    cr_expect(!blocked(w, mover));
    SHOVE_FN(world_destroy)(w);
}

Test(filter_skip, a_skipped_tree_changes_no_result) {
    /* The same moves in a world where the mover meets nothing of one tree,
     * with and without bodies of other categories there: the same ends. */
    shove_world *plain = new_world(), *crowded = new_world();
    const shove_id m1 = add_mover(plain), m2 = add_mover(crowded);
    add_wall(plain, SHOVE_BODY_STATIC, 2, UINT64_MAX);
    add_wall(crowded, SHOVE_BODY_STATIC, 2, UINT64_MAX);
    for (int i = 0; i < 20; ++i) {
        shove_body_def def = SHOVE_FN(default_body_def)();
        def.box = BOX(0.5f + 0.1f * (float)i, 0, 0, 1.5f + 0.1f * (float)i, 1, 1);
        def.type = SHOVE_BODY_DYNAMIC;
        def.category = 4; /* never met by the mover */
        shove_id id;
        cr_assert_eq(SHOVE_FN(body_create)(crowded, &def, &id), SHOVE_OK);
    }
    const shove_vec motions[] = {V(5, 0, 0), V(-2, 0.5f, 0.25f), V(1.25f, -0.5f, 0)};
    for (size_t k = 0; k < sizeof motions / sizeof motions[0]; ++k) {
        shove_move_result r1, r2;
        cr_assert_eq(SHOVE_FN(move)(plain, m1, motions[k], NULL, &r1), SHOVE_OK);
        cr_assert_eq(SHOVE_FN(move)(crowded, m2, motions[k], NULL, &r2), SHOVE_OK);
        EXPECT_VEC_EQ(r1.box.min, r2.box.min);
        EXPECT_VEC_EQ(r1.box.max, r2.box.max);
        cr_expect_eq(r1.contact_count, r2.contact_count);
    }
    SHOVE_FN(world_destroy)(plain);
    SHOVE_FN(world_destroy)(crowded);
}
