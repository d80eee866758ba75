/*
 * bump_dim_test.c: shove{2,3}_bump_detect, bump.lua's collision test in
 * doubles, in 2D and 3D. Scenes are drawn in x and y; in 3D every box gets
 * the z range [0, 1], so the third axis never decides anything.
 */
#include <string.h>

#include "test_dim.h"

#include "test_world_text.h"

typedef SHOVE_T(bump_rect) bump_rect;
typedef SHOVE_T(bump_hit) bump_hit;

static bump_rect rect(double x, double y, double w, double h) {
    bump_rect r;
    memset(&r, 0, sizeof r);
    r.min[0] = x;
    r.min[1] = y;
    r.size[0] = w;
    r.size[1] = h;
#if SHOVE_DIM == 3
    r.min[2] = 0.0;
    r.size[2] = 1.0;
#endif
    return r;
}

/* The goal of a rect's low corner; z stays where it is. */
static void goal_at(double goal[SHOVE_DIM], double x, double y) {
    goal[0] = x;
    goal[1] = y;
#if SHOVE_DIM == 3
    goal[2] = 0.0;
#endif
}

/* A hit filled with a marker, to see that a refusal writes nothing. */
static bump_hit marked(void) {
    bump_hit h;
    memset(&h, 0x5a, sizeof h);
    return h;
}

static bool same_bytes(const bump_hit *a, const bump_hit *b) {
    return memcmp(a, b, sizeof *a) == 0;
}

/* The same fields, bit for bit (the padding after `overlaps` may differ). */
static bool same_hit(const bump_hit *a, const bump_hit *b) {
    return memcmp(&a->ti, &b->ti, sizeof a->ti) == 0 &&
           memcmp(a->normal, b->normal, sizeof a->normal) == 0 &&
           memcmp(a->touch, b->touch, sizeof a->touch) == 0 && a->overlaps == b->overlaps;
}

Test(bump, a_motion_into_a_box_stops_at_its_side) {
    const bump_rect item = rect(0, 0, 1, 1), other = rect(2, 0, 1, 1);
    double goal[SHOVE_DIM];
    goal_at(goal, 3, 0);
    bump_hit hit = marked();
    cr_assert(SHOVE_FN(bump_detect)(&item, goal, &other, &hit));
    /* the difference box starts at x = 1, the motion is 3 long */
    cr_expect_eq(hit.ti, 1.0 / 3.0);
    cr_expect_not(hit.overlaps);
    cr_expect_eq(hit.normal[0], -1.0);
    cr_expect_eq(hit.normal[1], 0.0);
    cr_expect_eq(hit.touch[0], 0.0 + 3.0 * (1.0 / 3.0));
    cr_expect_eq(hit.touch[1], 0.0);
#if SHOVE_DIM == 3
    cr_expect_eq(hit.normal[2], 0.0);
    cr_expect_eq(hit.touch[2], 0.0);
#endif
}

Test(bump, falling_onto_a_floor_has_an_upward_normal_in_bumps_y_down) {
    /* bump's y grows downward: falling is +y, the floor's top side is its
     * low y side, so the normal is -y */
    const bump_rect item = rect(0, 0, 1, 1), floor = rect(-5, 2, 10, 1);
    double goal[SHOVE_DIM];
    goal_at(goal, 0.5, 4);
    bump_hit hit = marked();
    cr_assert(SHOVE_FN(bump_detect)(&item, goal, &floor, &hit));
    cr_expect_eq(hit.ti, 0.25);
    cr_expect_eq(hit.normal[0], 0.0);
    cr_expect_eq(hit.normal[1], -1.0);
    cr_expect_eq(hit.touch[0], 0.125);
    cr_expect_eq(hit.touch[1], 1.0);
}

Test(bump, misses_touching_only_and_corners_are_no_collision) {
    const bump_rect item = rect(0, 0, 1, 1);
    double goal[SHOVE_DIM];
    bump_hit hit = marked();
    const bump_hit before = hit;
    /* stops short */
    const bump_rect far = rect(5, 0, 1, 1);
    goal_at(goal, 3, 0);
    cr_expect_not(SHOVE_FN(bump_detect)(&item, goal, &far, &hit));
    /* slides along a side it rests on */
    const bump_rect below = rect(-2, 1, 6, 1);
    goal_at(goal, 2, 0);
    cr_expect_not(SHOVE_FN(bump_detect)(&item, goal, &below, &hit));
    /* the mover's corner passes exactly through the other box's corner */
    const bump_rect corner = rect(2, 0, 1, 1);
    goal_at(goal, 2, 2);
    cr_expect_not(SHOVE_FN(bump_detect)(&item, goal, &corner, &hit));
    cr_expect(same_bytes(&hit, &before));
}

Test(bump, a_resting_overlap_pushes_out_along_the_shorter_axis) {
    /* overlap 0.5 wide and 2 tall: out to the left by 0.5 */
    const bump_rect item = rect(0, 0, 2, 2), other = rect(1.5, 0, 2, 2);
    double goal[SHOVE_DIM];
    goal_at(goal, 0, 0);
    bump_hit hit = marked();
    cr_assert(SHOVE_FN(bump_detect)(&item, goal, &other, &hit));
    cr_expect(hit.overlaps);
    /* minus the overlap's area (in 3D its volume, 1 deep) */
    cr_expect_eq(hit.ti, -(0.5 * 2.0));
    cr_expect_eq(hit.normal[0], -1.0);
    cr_expect_eq(hit.normal[1], 0.0);
    cr_expect_eq(hit.touch[0], -0.5);
    cr_expect_eq(hit.touch[1], 0.0);
}

/* A resting overlap pushed out as far on two axes: bump.lua takes y,
 * bump-3dpd the earlier axis. */
Test(bump, a_resting_overlap_breaks_a_tie_as_bump_does) {
    double goal[SHOVE_DIM];
    bump_hit hit = marked();
#if SHOVE_DIM == 2
    /* 3 out on either axis: out along y */
    const bump_rect item = rect(1, 1, 2, 2), other = rect(0, 0, 4, 4);
    goal_at(goal, 1, 1);
    cr_assert(SHOVE_FN(bump_detect)(&item, goal, &other, &hit));
    cr_expect_eq(hit.normal[0], 0.0);
    cr_expect_eq(hit.normal[1], 1.0);
    cr_expect_eq(hit.touch[0], 1.0);
    cr_expect_eq(hit.touch[1], 4.0);
#else
    /* 3 out on every axis: out along x */
    bump_rect item = rect(1, 1, 2, 2), other = rect(0, 0, 4, 4);
    item.min[2] = 1.0;
    item.size[2] = 2.0;
    other.size[2] = 4.0;
    goal_at(goal, 1, 1);
    goal[2] = 1.0;
    cr_assert(SHOVE_FN(bump_detect)(&item, goal, &other, &hit));
    cr_expect_eq(hit.normal[0], 1.0);
    cr_expect_eq(hit.normal[1], 0.0);
    cr_expect_eq(hit.normal[2], 0.0);
    cr_expect_eq(hit.touch[0], 4.0);
    cr_expect_eq(hit.touch[1], 1.0);
    cr_expect_eq(hit.touch[2], 1.0);
    /* 4 out on x, 3 on y and z: out along y */
    other.size[0] = 6.0;
    item.min[0] = 2.0;
    goal[0] = 2.0;
    hit = marked();
    cr_assert(SHOVE_FN(bump_detect)(&item, goal, &other, &hit));
    cr_expect_eq(hit.normal[0], 0.0);
    cr_expect_eq(hit.normal[1], 1.0);
    cr_expect_eq(hit.normal[2], 0.0);
    cr_expect_eq(hit.touch[0], 2.0);
    cr_expect_eq(hit.touch[1], 4.0);
    cr_expect_eq(hit.touch[2], 1.0);
#endif
    cr_expect(hit.overlaps);
}

Test(bump, a_moving_overlap_backs_out_along_the_motion) {
    /* overlapping by 0.5 in x and moving right by 1: back to where the
     * motion line leaves the other box's left side */
    const bump_rect item = rect(0, 0, 1, 1), other = rect(0.5, 0, 1, 1);
    double goal[SHOVE_DIM];
    goal_at(goal, 1, 0);
    bump_hit hit = marked();
    cr_assert(SHOVE_FN(bump_detect)(&item, goal, &other, &hit));
    cr_expect(hit.overlaps);
    cr_expect_eq(hit.ti, -(0.5 * 1.0));
    cr_expect_eq(hit.normal[0], -1.0);
    cr_expect_eq(hit.touch[0], -0.5);
    cr_expect_eq(hit.touch[1], 0.0);
}

Test(bump, overlaps_within_the_margin_are_none) {
    /* 1e-11 of overlap is inside bump's margin of 1e-10 */
    const bump_rect item = rect(0, 0, 1, 1), other = rect(1 - 1e-11, 0, 1, 1);
    double goal[SHOVE_DIM];
    goal_at(goal, 0, 0);
    bump_hit hit = marked();
    cr_expect_not(SHOVE_FN(bump_detect)(&item, goal, &other, &hit));
}

Test(bump, null_pointers_are_refused_and_nothing_is_written) {
    const bump_rect item = rect(0, 0, 1, 1), other = rect(2, 0, 1, 1);
    double goal[SHOVE_DIM];
    goal_at(goal, 3, 0);
    bump_hit hit = marked();
    const bump_hit before = hit;
    cr_expect_not(SHOVE_FN(bump_detect)(NULL, goal, &other, &hit));
    cr_expect_not(SHOVE_FN(bump_detect)(&item, NULL, &other, &hit));
    cr_expect_not(SHOVE_FN(bump_detect)(&item, goal, NULL, &hit));
    cr_expect_not(SHOVE_FN(bump_detect)(&item, goal, &other, NULL));
    cr_expect(same_bytes(&hit, &before));
}

Test(bump, nan_goals_are_no_collision) {
    const bump_rect item = rect(0, 0, 1, 1), other = rect(2, 0, 1, 1);
    double goal[SHOVE_DIM];
    goal_at(goal, NAN, 0);
    bump_hit hit = marked();
    const bump_hit before = hit;
    cr_expect_not(SHOVE_FN(bump_detect)(&item, goal, &other, &hit));
    cr_expect(same_bytes(&hit, &before));
}

Test(bump, detect_all_answers_as_detect_for_each_listed_rect) {
    /* a row of rects along the motion, one above it (missed), one behind */
    const bump_rect rects[5] = {rect(2, 0, 1, 1), rect(4, 0, 1, 1), rect(3, 5, 1, 1),
                                rect(-3, 0, 1, 1), rect(0.5, 0.5, 1, 1)};
    const bump_rect item = rect(0, 0, 1, 1);
    double goal[SHOVE_DIM];
    goal_at(goal, 6, 0);
    /* the last one overlaps at the start; rect 1 is listed twice; the
     * generations are not looked at */
    const shove_id ids[6] = {{3, 1}, {1, 9}, {2, 1}, {0, 1}, {1, 1}, {4, 1}};
    bump_hit hits[6];
    uint32_t found[6];
    const uint32_t k =
        SHOVE_FN(bump_detect_all)(&item, goal, rects, ids, 6, UINT32_MAX, hits, found);
    cr_assert_eq(k, 4u);
    const uint32_t expect[4] = {1, 3, 4, 5};
    for (uint32_t j = 0; j < k; ++j) {
        cr_expect_eq(found[j], expect[j]);
        bump_hit one = marked();
        cr_assert(SHOVE_FN(bump_detect)(&item, goal, &rects[ids[found[j]].index], &one));
        cr_expect(same_hit(&one, &hits[j]), "hit %u", j);
    }
    cr_expect_eq(hits[0].ti, 0.5);
    cr_expect_eq(hits[1].ti, 1.0 / 6.0);
    cr_expect(hits[3].overlaps);
    /* skipping index 1 drops both of its entries */
    cr_assert_eq(SHOVE_FN(bump_detect_all)(&item, goal, rects, ids, 6, 1, hits, found), 2u);
    cr_expect_eq(found[0], 3u);
    cr_expect_eq(found[1], 5u);
}

Test(bump, detect_all_refuses_null_pointers_and_writes_nothing) {
    const bump_rect rects[1] = {rect(2, 0, 1, 1)};
    const bump_rect item = rect(0, 0, 1, 1);
    double goal[SHOVE_DIM];
    goal_at(goal, 3, 0);
    const shove_id which[1] = {{0, 1}};
    bump_hit hits[1] = {marked()};
    const bump_hit before = hits[0];
    uint32_t found[1] = {77};
    cr_expect_eq(SHOVE_FN(bump_detect_all)(NULL, goal, rects, which, 1, UINT32_MAX, hits, found),
                 0u);
    cr_expect_eq(SHOVE_FN(bump_detect_all)(&item, NULL, rects, which, 1, UINT32_MAX, hits, found),
                 0u);
    cr_expect_eq(SHOVE_FN(bump_detect_all)(&item, goal, NULL, which, 1, UINT32_MAX, hits, found),
                 0u);
    cr_expect_eq(SHOVE_FN(bump_detect_all)(&item, goal, rects, NULL, 1, UINT32_MAX, hits, found),
                 0u);
    cr_expect_eq(SHOVE_FN(bump_detect_all)(&item, goal, rects, which, 1, UINT32_MAX, NULL, found),
                 0u);
    cr_expect_eq(SHOVE_FN(bump_detect_all)(&item, goal, rects, which, 1, UINT32_MAX, hits, NULL),
                 0u);
    cr_expect_eq(SHOVE_FN(bump_detect_all)(&item, goal, NULL, NULL, 0, UINT32_MAX, NULL, NULL), 0u);
    cr_expect(same_bytes(&hits[0], &before));
    cr_expect_eq(found[0], 77u);
}

/* A world holding the rects (grown by the pads the check is given, as the
 * LuaJIT module stores them), body i for rect i. */
#define PAD_REL (1.0 / 1048576.0)
#define PAD_ABS 1e-30

static shove_world *world_of(const bump_rect *rects, uint32_t count) {
    shove_world *w = NULL;
    cr_assert_eq(SHOVE_FN(world_create)(NULL, &w), SHOVE_OK);
    for (uint32_t i = 0; i < count; ++i) {
        shove_body_def def = SHOVE_FN(default_body_def)();
        def.type = SHOVE_BODY_DYNAMIC;
        for (int a = 0; a < SHOVE_DIM; ++a) {
            const double lo = rects[i].min[a], hi = rects[i].min[a] + rects[i].size[a];
            def.box.min.raw[a] = (float)(lo - (fabs(lo) * PAD_REL + PAD_ABS));
            def.box.max.raw[a] = (float)(hi + (fabs(hi) * PAD_REL + PAD_ABS));
        }
        shove_id id;
        cr_assert_eq(SHOVE_FN(body_create)(w, &def, &id), SHOVE_OK);
        cr_assert_eq(id.index, i);
    }
    return w;
}

Test(bump, check_slides_along_a_wall_to_the_goals_other_coordinate) {
    /* body 0 moves right and down into a wall at x = 2: it stops at x = 1
     * and slides on to y = 2 */
    const bump_rect rects[2] = {rect(0, 0, 1, 1), rect(2, -5, 1, 10)};
    shove_world *w = world_of(rects, 2);
    double goal[SHOVE_DIM], actual[SHOVE_DIM];
    goal_at(goal, 4, 2);
    shove_id ids[8];
    SHOVE_T(bump_col) cols[4];
    const uint32_t k =
        SHOVE_FN(bump_check)(w, rects, 2, 0, goal, PAD_REL, PAD_ABS, ids, 8, cols, 4, actual);
    cr_assert_eq(k, 1u);
    cr_expect_eq(cols[0].other, 1u);
    cr_expect_eq(cols[0].hit.ti, 0.25);
    cr_expect_eq(cols[0].hit.normal[0], -1.0);
    cr_expect_eq(cols[0].hit.touch[0], 1.0);
    cr_expect_eq(cols[0].hit.touch[1], 0.5);
    cr_expect_eq(cols[0].move[0], 4.0);
    cr_expect_eq(cols[0].move[1], 2.0);
    cr_expect_eq(cols[0].from.min[0], 0.0);
    cr_expect_eq(cols[0].slide[0], 1.0);
    cr_expect_eq(cols[0].slide[1], 2.0);
    cr_expect_eq(actual[0], 1.0);
    cr_expect_eq(actual[1], 2.0);
    SHOVE_FN(world_destroy)(w);
}

Test(bump, check_meets_the_nearer_item_first_and_each_item_once) {
    /* moving down onto a floor of two tiles: both at ti 0.5, the one whose
     * centre is nearer comes first; the slide then meets nothing new */
    const bump_rect rects[3] = {rect(0.75, 0, 1, 1), rect(0, 2, 1, 1), rect(1, 2, 1, 1)};
    shove_world *w = world_of(rects, 3);
    double goal[SHOVE_DIM], actual[SHOVE_DIM];
    goal_at(goal, 0.75, 2);
    shove_id ids[8];
    SHOVE_T(bump_col) cols[4];
    const uint32_t k =
        SHOVE_FN(bump_check)(w, rects, 3, 0, goal, PAD_REL, PAD_ABS, ids, 8, cols, 4, actual);
    cr_assert_eq(k, 1u);
    cr_expect_eq(cols[0].other, 2u);
    cr_expect_eq(cols[0].hit.ti, 0.5);
    cr_expect_eq(cols[0].hit.normal[1], -1.0);
    cr_expect_eq(actual[0], 0.75);
    cr_expect_eq(actual[1], 1.0);
    /* into a corner: the wall, then the floor after the slide */
    const bump_rect corner[3] = {rect(0, 0, 1, 1), rect(2, -5, 1, 10), rect(-5, 3, 10, 1)};
    shove_world *c = world_of(corner, 3);
    goal_at(goal, 4, 4);
    const uint32_t k2 =
        SHOVE_FN(bump_check)(c, corner, 3, 0, goal, PAD_REL, PAD_ABS, ids, 8, cols, 4, actual);
    cr_assert_eq(k2, 2u);
    cr_expect_eq(cols[0].other, 1u);
    cr_expect_eq(cols[1].other, 2u);
    cr_expect_eq(cols[1].from.min[0], 1.0);
    cr_expect_eq(actual[0], 1.0);
    cr_expect_eq(actual[1], 2.0);
    SHOVE_FN(world_destroy)(w);
    SHOVE_FN(world_destroy)(c);
}

Test(bump, a_check_that_does_not_move_slides_as_bump_does) {
    /* body 0 rests inside body 1 by 0.5 on x and asks to stay: bump.lua's
     * slide goes to the touch (out by 0.5), bump-3dpd's to the goal (it
     * stays) */
    const bump_rect rects[2] = {rect(0, 0, 2, 2), rect(1.5, 0, 2, 2)};
    shove_world *w = world_of(rects, 2);
    double goal[SHOVE_DIM], actual[SHOVE_DIM];
    goal_at(goal, 0, 0);
    shove_id ids[8];
    SHOVE_T(bump_col) cols[4];
    const uint32_t k =
        SHOVE_FN(bump_check)(w, rects, 2, 0, goal, PAD_REL, PAD_ABS, ids, 8, cols, 4, actual);
    cr_assert_eq(k, 1u);
    cr_expect(cols[0].hit.overlaps);
    cr_expect_eq(cols[0].hit.normal[0], -1.0);
    cr_expect_eq(cols[0].hit.touch[0], -0.5);
#if SHOVE_DIM == 2
    cr_expect_eq(cols[0].slide[0], -0.5);
    cr_expect_eq(actual[0], -0.5);
#else
    cr_expect_eq(cols[0].slide[0], 0.0);
    cr_expect_eq(actual[0], 0.0);
#endif
    cr_expect_eq(actual[1], 0.0);
    SHOVE_FN(world_destroy)(w);
}

Test(bump, check_asks_for_room_and_refuses_null_pointers) {
    const bump_rect rects[3] = {rect(0, 0, 1, 1), rect(2, -5, 1, 10), rect(-5, 3, 10, 1)};
    shove_world *w = world_of(rects, 3);
    char *before = world_text(w);
    double goal[SHOVE_DIM], actual[SHOVE_DIM];
    goal_at(goal, 4, 4);
    shove_id ids[8];
    SHOVE_T(bump_col) cols[4];
    /* two collisions, room for one; three bodies found, room for two */
    cr_expect_eq(
        SHOVE_FN(bump_check)(w, rects, 3, 0, goal, PAD_REL, PAD_ABS, ids, 8, cols, 1, actual),
        UINT32_MAX);
    cr_expect_eq(
        SHOVE_FN(bump_check)(w, rects, 3, 0, goal, PAD_REL, PAD_ABS, ids, 2, cols, 4, actual),
        UINT32_MAX);
    cr_expect_eq(
        SHOVE_FN(bump_check)(NULL, rects, 3, 0, goal, PAD_REL, PAD_ABS, ids, 8, cols, 4, actual),
        0u);
    cr_expect_eq(
        SHOVE_FN(bump_check)(w, NULL, 3, 0, goal, PAD_REL, PAD_ABS, ids, 8, cols, 4, actual), 0u);
    cr_expect_eq(
        SHOVE_FN(bump_check)(w, rects, 3, 0, NULL, PAD_REL, PAD_ABS, ids, 8, cols, 4, actual), 0u);
    cr_expect_eq(
        SHOVE_FN(bump_check)(w, rects, 3, 0, goal, PAD_REL, PAD_ABS, NULL, 8, cols, 4, actual), 0u);
    cr_expect_eq(
        SHOVE_FN(bump_check)(w, rects, 3, 0, goal, PAD_REL, PAD_ABS, ids, 8, NULL, 4, actual), 0u);
    cr_expect_eq(
        SHOVE_FN(bump_check)(w, rects, 3, 0, goal, PAD_REL, PAD_ABS, ids, 8, cols, 4, NULL), 0u);
    cr_expect_eq(
        SHOVE_FN(bump_check)(w, rects, 3, 3, goal, PAD_REL, PAD_ABS, ids, 8, cols, 4, actual), 0u);
    char *after = world_text(w);
    cr_expect_str_eq(after, before);
    free(before);
    free(after);
    SHOVE_FN(world_destroy)(w);
}
