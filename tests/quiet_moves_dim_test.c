/*
 * quiet_moves_dim_test.c: the world def's quiet_moves switch, in 2D and 3D.
 * A quiet world's moves end exactly where a default world's do, with the
 * same flags and contacts, but keep no pairs and report no events; the
 * next step brings the pairs up to date; a dump keeps the switch. A quiet
 * move that asks for no contacts counts them as one that does, moves in
 * pieces over voxels included.
 */
#include <stdio.h>
#include <stdlib.h>

#include "test_dim.h"
#include "test_voxel_map.h"
#include "test_world_ops.h"
#include "test_world_text.h"

typedef struct scene {
    shove_world *w;
    shove_id mover, wall;
} scene;

/* A floor, a wall at x = 3 and a mover standing on the floor beside it. */
static scene make_scene(bool quiet) {
    shove_world_def wd = SHOVE_FN(default_world_def)();
    wd.quiet_moves = quiet;
    scene s;
    cr_assert_eq(SHOVE_FN(world_create)(&wd, &s.w), SHOVE_OK);
    test_add_body(s.w, BOX(-10, -1, -10, 10, 0, 10), SHOVE_BODY_STATIC, 0);
    s.wall = test_add_body(s.w, BOX(3, 0, -10, 4, 5, 10), SHOVE_BODY_STATIC, 0);
    s.mover = test_add_body(s.w, BOX(0, 0.01f, 0, 1, 2.01f, 1), SHOVE_BODY_DYNAMIC, 0);
    return s;
}

static bool has_event(const shove_world *w, shove_event_type type, shove_id a, shove_id b) {
    const shove_event *events = NULL;
    const size_t n = SHOVE_FN(world_get_events)(w, &events);
    for (size_t i = 0; i < n; ++i) {
        if (events[i].type == type && shove_id_equal(events[i].a, a) &&
            shove_id_equal(events[i].b, b)) {
            return true;
        }
    }
    return false;
}

Test(quiet_moves, the_default_keeps_pairs_and_events) {
    const shove_world_def wd = SHOVE_FN(default_world_def)();
    cr_expect(!wd.quiet_moves);
    scene s = make_scene(false);
    shove_move_result r;
    cr_assert_eq(SHOVE_FN(move)(s.w, s.mover, V(5, -0.1f, 0), NULL, &r), SHOVE_OK);
    cr_expect(r.hit_wall);
    cr_expect(has_event(s.w, SHOVE_EVENT_CONTACT_BEGIN, s.mover, s.wall),
              "a default world reports the wall");
    SHOVE_FN(world_destroy)(s.w);
}

Test(quiet_moves, same_moves_no_events_and_the_step_catches_up) {
    scene loud = make_scene(false), quiet = make_scene(true);
    shove_contact ca[8], cb[8];
    shove_move_def def = SHOVE_FN(default_move_def)();
    def.step_height = 0.5f;
    const shove_vec motions[] = {V(1.5f, -0.1f, 0.3f), V(5, -0.1f, 0), V(-0.5f, -0.1f, -0.2f),
                                 V(3, -1, 1)};
    for (size_t k = 0; k < sizeof motions / sizeof motions[0]; ++k) {
        shove_move_result ra, rb;
        def.contacts = ca;
        def.contact_capacity = 8;
        cr_assert_eq(SHOVE_FN(move)(loud.w, loud.mover, motions[k], &def, &ra), SHOVE_OK);
        def.contacts = cb;
        cr_assert_eq(SHOVE_FN(move)(quiet.w, quiet.mover, motions[k], &def, &rb), SHOVE_OK);
        EXPECT_VEC_EQ(ra.box.min, rb.box.min);
        EXPECT_VEC_EQ(ra.box.max, rb.box.max);
        EXPECT_VEC_EQ(ra.delta, rb.delta);
        cr_expect_eq(ra.contact_count, rb.contact_count);
        cr_expect_eq(ra.on_ground, rb.on_ground);
        cr_expect_eq(ra.hit_wall, rb.hit_wall);
        cr_expect_eq(ra.stepped, rb.stepped);
        /* the same contacts (ids of different worlds differ in their tag) */
        const int n = ra.contact_count < 8 ? ra.contact_count : 8;
        for (int c = 0; c < n; ++c) {
            cr_expect_eq(ca[c].other.index, cb[c].other.index);
            cr_expect_eq(ca[c].index, cb[c].index);
            cr_expect_eq(ca[c].response, cb[c].response);
            cr_expect(ca[c].t == cb[c].t);
            EXPECT_VEC_EQ(ca[c].normal, cb[c].normal);
        }
        const shove_event *events = NULL;
        cr_expect_eq(SHOVE_FN(world_get_events)(quiet.w, &events), 0u, "no events when quiet");
        cr_expect_null(events);
    }
    /* The quiet mover presses on against the wall, which it has no
     * remembered pair with: the step finds the pair and reports it. */
    shove_move_result r;
    cr_assert_eq(SHOVE_FN(move)(quiet.w, quiet.mover, V(5, -0.1f, 0), &def, &r), SHOVE_OK);
    cr_assert(r.hit_wall);
    cr_assert_eq(SHOVE_FN(body_set_motion)(quiet.w, quiet.mover, V(0.5f, -0.1f, 0)), SHOVE_OK);
    cr_assert_eq(SHOVE_FN(world_step)(quiet.w), SHOVE_OK);
    cr_expect(has_event(quiet.w, SHOVE_EVENT_CONTACT_BEGIN, quiet.mover, quiet.wall) ||
                  has_event(quiet.w, SHOVE_EVENT_CONTACT_BEGIN, quiet.wall, quiet.mover),
              "the step brings the pairs up to date");
    SHOVE_FN(world_destroy)(loud.w);
    SHOVE_FN(world_destroy)(quiet.w);
}

Test(quiet_moves, a_zeroed_def_may_set_it) {
    /* a def not made by default_world_def: its non-zero fields count */
    shove_world_def wd;
    memset(&wd, 0, sizeof wd);
    wd.quiet_moves = true;
    shove_world *w = NULL;
    cr_assert_eq(SHOVE_FN(world_create)(&wd, &w), SHOVE_OK);
    char *text = world_text(w);
    cr_expect_not_null(strstr(text, "\nquiet_moves\n"), "%s", text);
    free(text);
    SHOVE_FN(world_destroy)(w);
}

Test(quiet_moves, a_dump_keeps_the_switch) {
    for (int quiet = 0; quiet <= 1; ++quiet) {
        scene s = make_scene(quiet != 0);
        char *text = world_text(s.w);
        cr_expect_eq(strstr(text, "quiet_moves") != NULL, quiet != 0, "%s", text);
        FILE *f = tmpfile();
        cr_assert_not_null(f);
        fputs(text, f);
        rewind(f);
        shove_world *back = NULL;
        cr_assert_eq(SHOVE_FN(world_load)(NULL, f, &back), SHOVE_OK);
        fclose(f);
        char *again = world_text(back);
        cr_expect_str_eq(again, text, "a loaded dump dumps the same text");
        shove_id mover;
        cr_assert_eq(SHOVE_FN(world_body_at)(back, s.mover.index, &mover), SHOVE_OK);
        shove_move_result r;
        cr_assert_eq(SHOVE_FN(move)(back, mover, V(5, -0.1f, 0), NULL, &r), SHOVE_OK);
        const shove_event *events = NULL;
        cr_expect_eq(SHOVE_FN(world_get_events)(back, &events) == 0u, quiet != 0,
                     "the loaded world is as quiet as the dumped one");
        free(text);
        free(again);
        SHOVE_FN(world_destroy)(back);
        SHOVE_FN(world_destroy)(s.w);
    }
}

Test(quiet_moves, a_broken_quiet_record_is_refused) {
    const char *dims = SHOVE_DIM == 2 ? "2d" : "3d";
    char text[512];
    snprintf(text, sizeof text, "shove %s dump 1\nbounds%s\nquiet_moves 1\n", dims,
             SHOVE_DIM == 2 ? " 0 0 1 1" : " 0 0 0 1 1 1");
    FILE *f = tmpfile();
    cr_assert_not_null(f);
    fputs(text, f);
    rewind(f);
    shove_world *w = NULL;
    cr_expect_eq(SHOVE_FN(world_load)(NULL, f, &w), SHOVE_ERR_INVALID_ARGUMENT,
                 "quiet_moves takes no value");
    cr_expect_null(w);
    fclose(f);
}

/* A quiet world over a voxel floor (cells y = -1, x in -5 .. 59) with a
 * wall column at x = 40 and a static body on the floor at x = 12, and a
 * mover standing on the floor at x = 0. */
static scene make_voxel_scene(test_map *m) {
    shove_world_def wd = SHOVE_FN(default_world_def)();
    wd.quiet_moves = true;
    scene s;
    cr_assert_eq(SHOVE_FN(world_create)(&wd, &s.w), SHOVE_OK);
    const shove_voxel_def vd = map_def(m, V(0, 0, 0), 1.0f);
    cr_assert_eq(SHOVE_FN(world_set_voxels)(s.w, &vd), SHOVE_OK);
    s.wall = test_add_body(s.w, BOX(12, 0, -3, 13, 0.4f, 3), SHOVE_BODY_STATIC, 0);
    s.mover = test_add_body(s.w, BOX(0.2f, 0, 0.2f, 0.8f, 1.8f, 0.8f), SHOVE_BODY_DYNAMIC, 0);
    return s;
}

Test(quiet_moves, moves_that_ask_no_contacts_count_them_the_same) {
    test_map *m = map_new(-5, -1, -3, 65, 6, 7);
    for (int32_t x = -5; x < 60; ++x) {
        for (int32_t z = -3; z <= 3; ++z) {
            map_set(m, x, -1, z, CELL_FULL);
            for (int32_t y = 0; x == 40 && y < 4; ++y) {
                map_set(m, x, y, z, CELL_FULL);
            }
        }
    }
    /* asked: contacts written to an array; counted: no array */
    scene asked = make_voxel_scene(m), counted = make_voxel_scene(m);
    shove_contact contacts[16];
    shove_move_def with = SHOVE_FN(default_move_def)();
    with.step_height = 0.5f;
    with.contacts = contacts;
    with.contact_capacity = 16;
    shove_move_def without = with;
    without.contacts = NULL;
    without.contact_capacity = 0;
    /* short moves, and long ones (over 4 voxels: run in pieces, each
     * pressing on the floor again) over the step at x = 12 and into the
     * wall at x = 40 */
    const shove_vec motions[] = {V(0.3f, -0.1f, 0.1f), V(9, -0.1f, 0),  V(0.5f, -0.2f, -0.1f),
                                 V(30, -0.2f, 0.2f),   V(-12, 0.5f, 0), V(0, -3, 0),
                                 V(-6, -0.5f, -0.3f)};
    int pieced_with_repeats = 0;
    for (size_t k = 0; k < sizeof motions / sizeof motions[0]; ++k) {
        shove_move_result ra, rb;
        cr_assert_eq(SHOVE_FN(move)(asked.w, asked.mover, motions[k], &with, &ra), SHOVE_OK);
        cr_assert_eq(SHOVE_FN(move)(counted.w, counted.mover, motions[k], &without, &rb), SHOVE_OK);
        EXPECT_VEC_EQ(ra.box.min, rb.box.min);
        EXPECT_VEC_EQ(ra.box.max, rb.box.max);
        EXPECT_VEC_EQ(ra.delta, rb.delta);
        cr_expect_eq(ra.contact_count, rb.contact_count, "move %zu", k);
        cr_expect_eq(ra.on_ground, rb.on_ground);
        cr_expect_eq(ra.hit_wall, rb.hit_wall);
        cr_expect_eq(ra.hit_ceiling, rb.hit_ceiling);
        cr_expect_eq(ra.stepped, rb.stepped);
        /* A long walk on the floor meets it in every piece and reports it
         * once: the count the test guards. */
        float longest = 0.0f;
        for (int a = 0; a < SHOVE_DIM; ++a) {
            longest = fabsf(motions[k].raw[a]) > longest ? fabsf(motions[k].raw[a]) : longest;
        }
        if (longest > 4.0f && ra.on_ground && ra.contact_count > 0 &&
            ra.contact_count < (int)(longest / 2.0f)) {
            ++pieced_with_repeats;
        }
    }
    cr_expect_gt(pieced_with_repeats, 0, "a long move reported a repeated contact once");
    SHOVE_FN(world_destroy)(asked.w);
    SHOVE_FN(world_destroy)(counted.w);
    map_free(m);
}
