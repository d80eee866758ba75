/*
 * edge_footing_dim_test.c: the edge guard keeps `edge_footing` of the box
 * over the ledge it stops at (issue 21, point 4). A player walking off a
 * ledge with the guard on stops with at least the footing over the block
 * and stays on the ground, through shove3_slide, shove3_move over bodies
 * and over voxels, and the world step; sneaking along the edge keeps it; a
 * box narrower than the footing keeps its whole width over the ledge; a
 * zero-initialised def gets the default footing, a literal zero the old
 * sliver; bad footings are refused and change nothing; dumps keep it.
 */
#include <stdio.h>
#include <stdlib.h>

#include "test_dim.h"
#include "test_world_ops.h"
#include "test_voxel_map.h"
#include "test_world_text.h"

/* The default footing, and how much more a stop may keep (float steps). */
#define FOOTING  (1.0f / 16.0f)
#define ROUNDING (1.0f / 4096.0f)

/* A platform whose top is y = 0 and whose +x edge is x = 5, over a drop of
 * 3 (a floor at y = -3 beyond it). */
static const shove_aabb *ledge(size_t *count) {
    static shove_aabb boxes[2];
    boxes[0] = BOX(-10, -1, -10, 5, 0, 10);
    boxes[1] = BOX(5, -4, -10, 20, -3, 10);
    *count = 2;
    return boxes;
}

/* A player 0.6 wide and 1.8 tall with its foot at (x, 0, z). */
static shove_aabb player_at(float x, float z) {
    return BOX(x, 0, z, x + 0.6f, 1.8f, z + 0.6f);
}

static shove_move_def sneak_def(void) {
    shove_move_def def = SHOVE_FN(default_move_def)();
    def.step_height = 0.6f;
    def.edge_guard = true;
    return def;
}

/* Walks box `p` by `v` a frame over `scene` (n boxes, a platform whose top
 * is y = 0) for `frames` frames; every frame must stay on the ground, on
 * the platform's top. Returns the last result. */
static shove_move_result walk_over(const shove_aabb *scene, size_t n, shove_aabb p, shove_vec v,
                                   const shove_move_def *def, int frames) {
    shove_move_result r;
    memset(&r, 0, sizeof r);
    r.box = p;
    for (int f = 0; f < frames; ++f) {
        r = test_slide_ok(r.box, v, scene, n, def);
        cr_assert(r.on_ground, "frame %d: walked off (min x %.9g)", f, (double)r.box.min.x);
        cr_assert_eq(r.box.min.y, 0.0f, "frame %d: left the platform's top", f);
    }
    return r;
}

/* Walks +x (with gravity) off the ledge's +x edge for `frames` frames. */
static shove_move_result walk_to_edge(shove_aabb p, const shove_move_def *def, int frames) {
    size_t n;
    const shove_aabb *scene = ledge(&n);
    return walk_over(scene, n, p, V(0.3, -0.1, 0), def, frames);
}

/* The footing over the ledge at x = 5 of a box that walked +x. */
static float footing_of(shove_aabb b) {
    return 5.0f - b.min.x;
}

/* >>walking off a ledge --------------------------------------------------- */

Test(edge_footing, a_guarded_player_keeps_the_default_footing_over_the_ledge) {
    const shove_move_def def = sneak_def();
    cr_expect_eq(def.edge_footing, FOOTING);
    const shove_move_result r = walk_to_edge(player_at(0, 0), &def, 40);
    const float f = footing_of(r.box);
    cr_expect(f >= FOOTING && f <= FOOTING + ROUNDING, "footing %.9g", (double)f);
    /* Pressing on for more frames does not creep further out. */
    const shove_move_result again = walk_to_edge(r.box, &def, 10);
    EXPECT_VEC_EQ(again.box.min, r.box.min);
    EXPECT_VEC_EQ(again.delta, V(0, 0, 0));
    /* Without the guard the same player walks off. */
    shove_move_def free_walk = def;
    free_walk.edge_guard = false;
    size_t n;
    const shove_aabb *scene = ledge(&n);
    const shove_move_result off = test_slide_ok(r.box, V(0.3, -0.1, 0), scene, n, &free_walk);
    cr_expect_not(off.on_ground);
}

Test(edge_footing, a_larger_footing_stops_the_player_further_back) {
    shove_move_def def = sneak_def();
    def.edge_footing = 0.25f;
    const shove_move_result r = walk_to_edge(player_at(0, 0), &def, 40);
    const float f = footing_of(r.box);
    cr_expect(f >= 0.25f && f <= 0.25f + ROUNDING, "footing %.9g", (double)f);
    /* Walking back is free. */
    size_t n;
    const shove_aabb *scene = ledge(&n);
    const shove_move_result back = test_slide_ok(r.box, V(-1, -0.1, 0), scene, n, &def);
    cr_expect_eq(back.delta.x, -1.0f);
}

Test(edge_footing, the_guard_holds_at_the_minus_x_edge_too) {
    const shove_move_def def = sneak_def();
    /* The platform's -x edge is x = -10; nothing below it. */
    size_t n;
    const shove_aabb *scene = ledge(&n);
    const shove_move_result r = walk_over(scene, n, player_at(-8, 0), V(-0.3, -0.1, 0), &def, 20);
    const float f = r.box.max.x - -10.0f;
    cr_expect(f >= FOOTING && f <= FOOTING + ROUNDING, "footing %.9g", (double)f);
}

/* A mover narrower than the footing keeps its whole width over the ledge:
 * it stops with its leading side at the edge. */
Test(edge_footing, a_box_narrower_than_the_footing_keeps_its_whole_width_over_the_ledge) {
    shove_move_def def = sneak_def();
    def.edge_footing = 0.3f;
    const shove_aabb thin = BOX(4, 0, 0, 4.2f, 1, 0.2f);
    const shove_move_result r = walk_to_edge(thin, &def, 10);
    cr_expect(r.box.max.x <= 5.0f && r.box.max.x >= 5.0f - ROUNDING, "max x %.9g",
              (double)r.box.max.x);
    /* A box as wide as nothing (a point walker) keeps a few float steps. */
    const shove_aabb point = BOX(4, 0, 0, 4, 1, 0);
    const shove_move_result p = walk_to_edge(point, &def, 10);
    cr_expect(p.box.min.x < 5.0f && p.box.min.x >= 5.0f - ROUNDING, "min x %.9g",
              (double)p.box.min.x);
}

/* A player placed with less footing than the def asks is not pulled back:
 * it may not go further out, and may walk back. */
Test(edge_footing, a_player_placed_past_the_footing_stays_and_may_walk_back) {
    const shove_move_def def = sneak_def();
    size_t n;
    const shove_aabb *scene = ledge(&n);
    const shove_aabb p = player_at(4.99f, 0);
    const shove_move_result out = test_slide_ok(p, V(0.3, -0.1, 0), scene, n, &def);
    EXPECT_VEC_EQ(out.delta, V(0, 0, 0));
    cr_expect(out.on_ground);
    const shove_move_result back = test_slide_ok(p, V(-0.3, -0.1, 0), scene, n, &def);
    cr_expect_eq(back.delta.x, -0.3f);
    cr_expect(back.on_ground);
}

/* A drop no deeper than step_height is no ledge: the footing plays no part. */
Test(edge_footing, a_step_down_is_not_held) {
    const shove_move_def def = sneak_def();
    const shove_aabb low[] = {BOX(-10, -1, -10, 5, 0, 10), BOX(5, -1.5, -10, 20, -0.5, 10)};
    const shove_move_result r = test_slide_ok(player_at(4.2f, 0), V(0.8, -0.1, 0), low, 2, &def);
    EXPECT_VEC_EQ(r.delta, V(0.8, 0, 0));
}

/* Sneaking along the edge: pressed against it and walking along it, the
 * player keeps its footing and moves along. In 2D there is no along: it
 * stays put however long it presses. */
Test(edge_footing, sneaking_along_the_edge_keeps_the_footing) {
    const shove_move_def def = sneak_def();
    const shove_move_result at = walk_to_edge(player_at(0, 0), &def, 40);
    size_t n;
    const shove_aabb *scene = ledge(&n);
    shove_move_result r = at;
    for (int f = 0; f < 20; ++f) {
        r = test_slide_ok(r.box, V(0.2, -0.1, 0.25), scene, n, &def);
        cr_assert(r.on_ground, "frame %d", f);
        cr_assert_eq(r.box.min.x, at.box.min.x, "frame %d: x moved", f);
    }
#if SHOVE_DIM == 3
    cr_expect_eq(r.box.min.z, at.box.min.z + 5.0f);
#endif
}

#if SHOVE_DIM == 3
/* Off a corner diagonally: the footing is kept on both axes. */
Test(edge_footing, off_a_corner_the_footing_is_kept_on_both_axes) {
    const shove_move_def def = sneak_def();
    const shove_aabb corner[] = {BOX(-10, -1, -10, 5, 0, 5)};
    const shove_move_result r = walk_over(corner, 1, player_at(2, 2), V(0.3, -0.1, 0.3), &def, 30);
    const float fx = 5.0f - r.box.min.x, fz = 5.0f - r.box.min.z;
    cr_expect(fx >= FOOTING && fx <= FOOTING + ROUNDING, "x footing %.9g", (double)fx);
    cr_expect(fz >= FOOTING && fz <= FOOTING + ROUNDING, "z footing %.9g", (double)fz);
}
#endif

/* >>defs ------------------------------------------------------------------ */

/* >>walls at the end of the run (rule 3) ------------------------------------ */

/* A guarded mover on a plate, against a wall that rises from the plate's
 * level beside it, moves into the wall and down. The wall is too high to
 * step onto; cut in two across y, its lower half's top is within a step.
 * Every cut guards as the whole wall: the run of supports goes on over a
 * wall as over ground, so the buried top of a lower half adds nothing (a
 * wall is no edge to fall from). Before, the lower half's top carried the
 * run on where the whole wall ended it, and a BOUNCE mover bounced off the
 * whole wall but not off the cut one (the fuzzed input
 * corpus/slide/slide-bounce-with-a-seam-beside). */
Test(edge_footing, a_wall_cut_across_y_guards_as_the_whole_wall) {
    const shove_aabb mover = BOX(0, 0, 0, 1.75f, 1.75f, 1.75f);
    const shove_aabb plate = BOX(0, -0.25f, 0, 1.5f, 0, 1.75f);
    const shove_aabb wall = BOX(-1.75f, 0, -1, 0, 1.75f, 3);
    const float cuts[] = {0.25f, 0.5f, 0.875f, 1.25f, 1.5f};
    const shove_response responses[] = {SHOVE_RESPONSE_SLIDE, SHOVE_RESPONSE_BOUNCE};
    const shove_vec motions[] = {V(-1.5f, -0.625f, 0), V(-1.5f, 0, 0.5f), V(-0.25f, -0.1f, 0)};
    shove_move_def def = sneak_def();
    def.step_height = 1.0f;
    def.skin = 0.25f;
    for (size_t r = 0; r < sizeof responses / sizeof responses[0]; ++r) {
        def.response = responses[r];
        for (size_t d = 0; d < sizeof motions / sizeof motions[0]; ++d) {
            const shove_aabb whole[] = {plate, wall};
            const shove_move_result a = test_slide_ok(mover, motions[d], whole, 2, &def);
            cr_expect(a.box.min.x >= 0.0f, "response %zu motion %zu: into the wall", r, d);
            for (size_t c = 0; c < sizeof cuts / sizeof cuts[0]; ++c) {
                shove_aabb lower = wall, upper = wall;
                lower.max.y = cuts[c];
                upper.min.y = cuts[c];
                const shove_aabb cut[] = {plate, lower, upper};
                const shove_move_result b = test_slide_ok(mover, motions[d], cut, 3, &def);
                EXPECT_VEC_EQ(b.delta, a.delta);
                EXPECT_VEC_EQ(b.box.min, a.box.min);
                cr_expect_eq(b.hit_wall, a.hit_wall, "response %zu motion %zu cut %zu", r, d, c);
                cr_expect_eq(b.on_ground, a.on_ground, "response %zu motion %zu cut %zu", r, d, c);
            }
        }
    }
}

/* A wall standing where the platform ends stops a guarded player where it
 * stops an unguarded one: touching the wall, all of its width over the
 * platform. */
Test(edge_footing, a_wall_at_the_ledge_is_no_edge) {
    const shove_aabb scene[] = {BOX(-10, -1, -10, 5, 0, 10), BOX(5, -4, -10, 6, 3, 10),
                                BOX(6, -4, -10, 20, -3, 10)};
    const shove_move_def def = sneak_def();
    shove_move_def free_walk = def;
    free_walk.edge_guard = false;
    shove_move_result g, f;
    memset(&g, 0, sizeof g);
    g.box = player_at(3, 0);
    f = g;
    for (int frame = 0; frame < 20; ++frame) {
        g = test_slide_ok(g.box, V(0.3, -0.1, 0.05), scene, 3, &def);
        f = test_slide_ok(f.box, V(0.3, -0.1, 0.05), scene, 3, &free_walk);
        cr_assert(g.on_ground, "frame %d", frame);
        EXPECT_VEC_EQ(g.box.min, f.box.min);
    }
    cr_expect(g.box.max.x <= 5.0f && g.box.max.x > 5.0f - 0.25f, "max x %.9g", (double)g.box.max.x);
}

/* A wall at the ledge that ends part of the way along it (3D: z < 1): a
 * player walking off the ledge diagonally along it is stopped by the wall
 * while beside it, and past its end the guard holds it with the footing,
 * every frame on the ground. */
Test(edge_footing, walking_past_the_end_of_a_wall_at_the_ledge_keeps_the_footing) {
    const shove_aabb scene[] = {BOX(-10, -1, -10, 5, 0, 10), BOX(5, -4, -10, 6, 3, 1),
                                BOX(6, -4, -10, 20, -3, 10)};
    const shove_move_def def = sneak_def();
    shove_move_result r;
    memset(&r, 0, sizeof r);
    r.box = player_at(4.3f, 0);
    for (int frame = 0; frame < 60; ++frame) {
        r = walk_over(scene, 3, r.box, V(0.3, -0.1, 0.05), &def, 1);
        const float f = footing_of(r.box);
        cr_assert(f >= FOOTING, "frame %d: footing %.9g", frame, (double)f);
    }
#if SHOVE_DIM == 3
    /* it got past the wall's end, where only the guard holds it */
    cr_expect(r.box.min.z > 1.0f, "min z %.9g", (double)r.box.min.z);
    const float f = footing_of(r.box);
    cr_expect(f <= FOOTING + ROUNDING, "footing %.9g", (double)f);
#endif
}

/* A zero-initialised def reads edge_footing 0 as the default; a literal 0
 * from the default def keeps only a few float steps. */
Test(edge_footing, a_zero_initialised_def_gets_the_default_footing) {
    const shove_move_def c_way = {.step_height = 0.6f, .edge_guard = true};
    const shove_move_def marked = sneak_def();
    const shove_move_result a = walk_to_edge(player_at(0, 0), &c_way, 40);
    const shove_move_result b = walk_to_edge(player_at(0, 0), &marked, 40);
    EXPECT_VEC_EQ(a.box.min, b.box.min);
    cr_expect(footing_of(a.box) >= FOOTING);
    shove_move_def zero = sneak_def();
    zero.edge_footing = 0.0f;
    const shove_move_result z = walk_to_edge(player_at(0, 0), &zero, 40);
    const float f = footing_of(z.box);
    cr_expect(f > 0.0f && f <= ROUNDING, "literal zero footing %.9g", (double)f);
}

Test(edge_footing, bad_footings_are_refused_everywhere_and_change_nothing) {
    const float bad[] = {NAN, -0.25f, INFINITY, -INFINITY};
    size_t n;
    const shove_aabb *scene = ledge(&n);
    shove_world *w;
    cr_assert_eq(SHOVE_FN(world_create)(NULL, &w), SHOVE_OK);
    const shove_body_def floor = {.box = BOX(-10, -1, -10, 5, 0, 10)};
    const shove_body_def player = {.box = player_at(0, 0), .type = SHOVE_BODY_DYNAMIC};
    shove_id floor_id, id;
    cr_assert_eq(SHOVE_FN(body_create)(w, &floor, &floor_id), SHOVE_OK);
    cr_assert_eq(SHOVE_FN(body_create)(w, &player, &id), SHOVE_OK);
    char *before = world_text(w);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        shove_move_def marked = sneak_def();
        marked.edge_footing = bad[i];
        const shove_move_def c_way = {.edge_guard = true, .edge_footing = bad[i]};
        const shove_move_def *defs[2] = {&marked, &c_way};
        for (int k = 0; k < 2; ++k) {
            shove_move_result r;
            memset(&r, 0xA5, sizeof r);
            const shove_move_result untouched = r;
            cr_expect_eq(SHOVE_FN(slide)(player_at(0, 0), V(1, 0, 0), scene, n, defs[k], &r),
                         SHOVE_ERR_INVALID_ARGUMENT, "slide, footing %g", (double)bad[i]);
            cr_expect_eq(SHOVE_FN(move)(w, id, V(1, 0, 0), defs[k], &r), SHOVE_ERR_INVALID_ARGUMENT,
                         "move, footing %g", (double)bad[i]);
            cr_expect(memcmp(&r, &untouched, sizeof r) == 0, "footing %g wrote the result",
                      (double)bad[i]);
            shove_world_def wd = SHOVE_FN(default_world_def)();
            wd.step_def = *defs[k];
            shove_world *other = NULL;
            cr_expect_eq(SHOVE_FN(world_create)(&wd, &other), SHOVE_ERR_INVALID_ARGUMENT,
                         "world step_def, footing %g", (double)bad[i]);
            cr_expect_null(other);
        }
    }
    char *after = world_text(w);
    cr_expect_str_eq(after, before);
    free(before);
    free(after);
    SHOVE_FN(world_destroy)(w);
}

/* >>worlds ---------------------------------------------------------------- */

/* The ledge as static bodies, with one dynamic player. */
static shove_world *ledge_world(const shove_move_def *step_def, shove_id *player) {
    size_t n;
    const shove_aabb *scene = ledge(&n);
    shove_world_def wd = SHOVE_FN(default_world_def)();
    wd.step_def = *step_def;
    shove_world *w;
    cr_assert_eq(SHOVE_FN(world_create)(&wd, &w), SHOVE_OK);
    for (size_t i = 0; i < n; ++i) {
        const shove_body_def b = {.box = scene[i]};
        shove_id sid;
        cr_assert_eq(SHOVE_FN(body_create)(w, &b, &sid), SHOVE_OK);
    }
    const shove_body_def pd = {.box = player_at(0, 0), .type = SHOVE_BODY_DYNAMIC};
    cr_assert_eq(SHOVE_FN(body_create)(w, &pd, player), SHOVE_OK);
    return w;
}

/* The same ledge as bodies, walked with shove3_move and with the step. */
Test(edge_footing, world_moves_and_steps_keep_the_footing) {
    const shove_move_def def = sneak_def();
    const shove_move_result ref = walk_to_edge(player_at(0, 0), &def, 40);
    shove_id id;
    shove_world *w = ledge_world(&def, &id);
    shove_move_result r;
    for (int f = 0; f < 40; ++f) {
        cr_assert_eq(SHOVE_FN(move)(w, id, V(0.3, -0.1, 0), &def, &r), SHOVE_OK);
        cr_assert(r.on_ground, "move frame %d", f);
    }
    EXPECT_VEC_EQ(r.box.min, ref.box.min);
    SHOVE_FN(world_destroy)(w);
    w = ledge_world(&def, &id);
    for (int f = 0; f < 40; ++f) {
        cr_assert_eq(SHOVE_FN(body_set_motion)(w, id, V(0.3, -0.1, 0)), SHOVE_OK);
        cr_assert_eq(SHOVE_FN(world_step)(w), SHOVE_OK);
    }
    shove_aabb b;
    cr_assert_eq(SHOVE_FN(body_get_box)(w, id, &b), SHOVE_OK);
    const float f = footing_of(b);
    cr_expect(f >= FOOTING && f <= FOOTING + ROUNDING, "footing %.9g", (double)f);
    cr_expect_eq(b.min.y, 0.0f, "the stepped player fell");
    SHOVE_FN(world_destroy)(w);
}

/* Over blocks: a floor of voxels (tiles) ending at x = 5. */
Test(edge_footing, a_player_on_voxels_keeps_the_footing) {
    test_map *map = map_new(-12, -6, -4, 40, 12, 8);
    for (int32_t x = -10; x < 5; ++x) {
        for (int32_t z = -3; z <= 3; ++z) {
            map_set(map, x, -1, z, CELL_FULL);
        }
    }
    shove_world *w;
    cr_assert_eq(SHOVE_FN(world_create)(NULL, &w), SHOVE_OK);
    const shove_voxel_def vd = map_def(map, V(0, 0, 0), 1.0f);
    cr_assert_eq(SHOVE_FN(world_set_voxels)(w, &vd), SHOVE_OK);
    const shove_body_def pd = {.box = player_at(0, 0), .type = SHOVE_BODY_DYNAMIC};
    shove_id id;
    cr_assert_eq(SHOVE_FN(body_create)(w, &pd, &id), SHOVE_OK);
    const shove_move_def def = sneak_def();
    shove_move_result r;
    for (int f = 0; f < 40; ++f) {
        cr_assert_eq(SHOVE_FN(move)(w, id, V(0.3, -0.1, 0), &def, &r), SHOVE_OK);
        cr_assert(r.on_ground, "frame %d", f);
    }
    const float f = footing_of(r.box);
    cr_expect(f >= FOOTING && f <= FOOTING + ROUNDING, "footing %.9g", (double)f);
    SHOVE_FN(world_destroy)(w);
    map_free(map);
}

/* >>dumps ----------------------------------------------------------------- */

static shove_world *load_text(const char *text) {
    FILE *f = tmpfile();
    cr_assert_not_null(f);
    fputs(text, f);
    rewind(f);
    shove_world *w = NULL;
    const shove_status st = SHOVE_FN(world_load)(NULL, f, &w);
    fclose(f);
    cr_assert_eq(st, SHOVE_OK, "%s", shove_status_string(st));
    return w;
}

Test(edge_footing, dumps_keep_the_footing_and_old_dumps_get_the_default) {
    shove_world_def wd = SHOVE_FN(default_world_def)();
    wd.step_def = sneak_def();
    wd.step_def.edge_footing = 0.25f;
    shove_world *w;
    cr_assert_eq(SHOVE_FN(world_create)(&wd, &w), SHOVE_OK);
    char *text = world_text(w);
    cr_expect_not_null(strstr(text, " edge_footing 0.25 "), "%s", text);
    shove_world *back = load_text(text);
    shove_move_def got;
    cr_assert_eq(SHOVE_FN(world_get_step_def)(back, &got), SHOVE_OK);
    cr_expect_eq(got.edge_footing, 0.25f);
    SHOVE_FN(world_destroy)(back);
    /* A dump written before the field existed: the default. */
    const char *old = SHOVE_DIM == 3 ? "shove 3d dump 1\nbounds -1 -1 -1 1 1 1\n"
                                       "step skin 0 iterations 8 up 1 step_height 0.5 edge_guard 1 "
                                       "response slide\nvoxels none\nend\n"
                                     : "shove 2d dump 1\nbounds -1 -1 1 1\n"
                                       "step skin 0 iterations 8 up 1 step_height 0.5 edge_guard 1 "
                                       "response slide\nvoxels none\nend\n";
    shove_world *aged = load_text(old);
    cr_assert_eq(SHOVE_FN(world_get_step_def)(aged, &got), SHOVE_OK);
    cr_expect_eq(got.edge_footing, FOOTING);
    cr_expect(got.edge_guard);
    SHOVE_FN(world_destroy)(aged);
    free(text);
    SHOVE_FN(world_destroy)(w);
}
