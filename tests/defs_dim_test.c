/*
 * defs_dim_test.c: defs written the C way (scenario 13 of
 * scenarios_dim_test.c). For every def (move, body, voxel, world), a def
 * without the default function's mark (`= {0}` or designated initialisers)
 * and the fields a game sets behaves exactly like the default def with those
 * fields: the same move results, contacts and world dump. Defs from the
 * default functions are taken literally, zeros included. Defs with an unknown
 * mark, and invalid values in unmarked defs, are refused and change nothing.
 */
#include <stdio.h>
#include <stdlib.h>

#include "test_dim.h"
#include "test_world_text.h"
#include "test_voxel_map.h"

/* >>helpers --------------------------------------------------------------- */

static void expect_same_result(const shove_move_result *a, const shove_move_result *b,
                               const char *what) {
    EXPECT_VEC_EQ(a->box.min, b->box.min);
    EXPECT_VEC_EQ(a->box.max, b->box.max);
    EXPECT_VEC_EQ(a->delta, b->delta);
    cr_expect_eq(a->contact_count, b->contact_count, "%s: contact count", what);
    cr_expect_eq(a->on_ground, b->on_ground, "%s: on_ground", what);
    cr_expect_eq(a->hit_ceiling, b->hit_ceiling, "%s: hit_ceiling", what);
    cr_expect_eq(a->hit_wall, b->hit_wall, "%s: hit_wall", what);
    cr_expect_eq(a->stepped, b->stepped, "%s: stepped", what);
}

/* A floor, a slab one can step onto, and a wall two tall. */
static const shove_aabb *course(size_t *count) {
    static shove_aabb boxes[3];
    boxes[0] = BOX(-10, -1, -10, 10, 0, 10);
    boxes[1] = BOX(1, 0, -10, 2, 0.5, 10);
    boxes[2] = BOX(3, 0, -10, 4, 2, 10);
    *count = 3;
    return boxes;
}

static shove_aabb mover_box(void) {
    return BOX(0, 0.25, 0, 0.5, 1.25, 0.5);
}

/* Each obstacle reported once, by index; index 1 (the slab) is crossed. */
static shove_response slab_crosses(void *ctx, shove_id mover, const shove_obstacle *obstacle) {
    (void)mover;
    *(int *)ctx += 1;
    return obstacle->index == 1 ? SHOVE_RESPONSE_CROSS : SHOVE_RESPONSE_SLIDE;
}

/* The fields a game might set, each as a designated-initialiser def and as
 * the default def with the same fields. */
typedef struct move_case {
    const char *name;
    shove_move_def c_way;
    shove_move_def literal;
} move_case;

static int move_cases(move_case out[16], int *filter_calls, shove_contact *contacts) {
    int n = 0;
    const shove_move_def d = SHOVE_FN(default_move_def)();
    out[n] = (move_case){.name = "nothing set", .c_way = {.skin = 0.0f}, .literal = d};
    ++n;
    out[n] = (move_case){.name = "max_iterations", .c_way = {.max_iterations = 2}, .literal = d};
    out[n++].literal.max_iterations = 2;
    out[n] = (move_case){.name = "step height and edge guard",
                         .c_way = {.step_height = 0.6f, .edge_guard = true},
                         .literal = d};
    out[n].literal.step_height = 0.6f;
    out[n++].literal.edge_guard = true;
    out[n] = (move_case){
        .name = "edge footing", .c_way = {.edge_guard = true, .edge_footing = 0.25f}, .literal = d};
    out[n].literal.edge_guard = true;
    out[n++].literal.edge_footing = 0.25f;
    out[n] = (move_case){.name = "skin", .c_way = {.skin = 1.0f / 64.0f}, .literal = d};
    out[n++].literal.skin = 1.0f / 64.0f;
    out[n] = (move_case){.name = "no up axis", .c_way = {.up_axis = -1}, .literal = d};
    out[n++].literal.up_axis = -1;
    out[n] =
        (move_case){.name = "touch", .c_way = {.response = SHOVE_RESPONSE_TOUCH}, .literal = d};
    out[n++].literal.response = SHOVE_RESPONSE_TOUCH;
    out[n] =
        (move_case){.name = "bounce", .c_way = {.response = SHOVE_RESPONSE_BOUNCE}, .literal = d};
    out[n++].literal.response = SHOVE_RESPONSE_BOUNCE;
    out[n] = (move_case){.name = "filter",
                         .c_way = {.filter = slab_crosses, .filter_ctx = filter_calls},
                         .literal = d};
    out[n].literal.filter = slab_crosses;
    out[n++].literal.filter_ctx = filter_calls;
    out[n] = (move_case){
        .name = "contacts", .c_way = {.contacts = contacts, .contact_capacity = 4}, .literal = d};
    out[n].literal.contacts = contacts;
    out[n++].literal.contact_capacity = 4;
    return n;
}

/* >>move def -------------------------------------------------------------- */

Test(defs, move_def_c_way_slides_like_the_default_with_the_same_fields) {
    size_t count;
    const shove_aabb *boxes = course(&count);
    const shove_vec delta = V(6, -0.5, 0.25);
    int calls_c = 0, calls_l = 0;
    shove_contact contacts_c[4], contacts_l[4];
    move_case cases_c[16], cases_l[16];
    const int n = move_cases(cases_c, &calls_c, contacts_c);
    cr_assert_eq(move_cases(cases_l, &calls_l, contacts_l), n);
    for (int i = 0; i < n; ++i) {
        memset(contacts_c, 0, sizeof contacts_c);
        memset(contacts_l, 0, sizeof contacts_l);
        calls_c = calls_l = 0;
        shove_move_result rc, rl;
        cr_assert_eq(SHOVE_FN(slide)(mover_box(), delta, boxes, count, &cases_c[i].c_way, &rc),
                     SHOVE_OK, "%s", cases_c[i].name);
        cr_assert_eq(SHOVE_FN(slide)(mover_box(), delta, boxes, count, &cases_l[i].literal, &rl),
                     SHOVE_OK, "%s", cases_l[i].name);
        expect_same_result(&rc, &rl, cases_c[i].name);
        cr_expect_eq(calls_c, calls_l, "%s: filter calls", cases_c[i].name);
        cr_expect(memcmp(contacts_c, contacts_l, sizeof contacts_c) == 0, "%s: contacts",
                  cases_c[i].name);
        /* Whatever the fields, the wall at x = 3 stops the mover: a zero
         * response read as IGNORE would let it through. */
        cr_expect_leq(rc.box.max.x, 3.0f, "%s: passed the wall", cases_c[i].name);
    }
    /* {0} is the NULL def. */
    const shove_move_def zero = {0};
    shove_move_result rz, rn;
    cr_assert_eq(SHOVE_FN(slide)(mover_box(), delta, boxes, count, &zero, &rz), SHOVE_OK);
    cr_assert_eq(SHOVE_FN(slide)(mover_box(), delta, boxes, count, NULL, &rn), SHOVE_OK);
    expect_same_result(&rz, &rn, "{0} and NULL");
}

Test(defs, marked_move_def_takes_zero_fields_literally) {
    size_t count;
    const shove_aabb *boxes = course(&count);
    shove_move_result r;
    /* IGNORE (0) from a marked def: through everything but the floor is
     * ignored too, so the mover ends where it was sent. */
    shove_move_def ghost = SHOVE_FN(default_move_def)();
    ghost.response = SHOVE_RESPONSE_IGNORE;
    cr_assert_eq(SHOVE_FN(slide)(mover_box(), V(6, -0.5, 0), boxes, count, &ghost, &r), SHOVE_OK);
    cr_expect_eq(r.box.min.x, 6.0f);
    cr_expect_eq(r.box.min.y, -0.25f);
    cr_expect_eq(r.contact_count, 0);
    /* The same field left zero in an unmarked def: SLIDE, the slab (0.5
     * tall, at x = 1) stops it on the floor. */
    const shove_move_def plain = {.response = SHOVE_RESPONSE_IGNORE};
    cr_assert_eq(SHOVE_FN(slide)(mover_box(), V(6, -0.5, 0), boxes, count, &plain, &r), SHOVE_OK);
    cr_expect_eq(r.box.max.x, 1.0f);
    cr_expect_eq(r.box.min.y, 0.0f);

    /* up_axis 0 from a marked def: x is up, so the wall the mover runs
     * into (normal -x) is a ceiling. Unmarked, 0 is y up: a wall. */
    shove_move_def sideways = SHOVE_FN(default_move_def)();
    sideways.up_axis = 0;
    cr_assert_eq(SHOVE_FN(slide)(mover_box(), V(6, 0, 0), boxes, count, &sideways, &r), SHOVE_OK);
    cr_expect(r.hit_ceiling);
    cr_expect_not(r.hit_wall);
    const shove_move_def up_zero = {.up_axis = 0};
    cr_assert_eq(SHOVE_FN(slide)(mover_box(), V(6, 0, 0), boxes, count, &up_zero, &r), SHOVE_OK);
    cr_expect_not(r.hit_ceiling);
    cr_expect(r.hit_wall);

    /* max_iterations 0 from a marked def is invalid, not "the default". */
    shove_move_def none = SHOVE_FN(default_move_def)();
    none.max_iterations = 0;
    cr_expect_eq(SHOVE_FN(slide)(mover_box(), V(1, 0, 0), boxes, count, &none, &r),
                 SHOVE_ERR_INVALID_ARGUMENT);
}

Test(defs, unmarked_move_defs_still_refuse_invalid_values) {
    size_t count;
    const shove_aabb *boxes = course(&count);
    const shove_move_def bad[] = {
        {.skin = -1.0f},
        {.skin = NAN},
        {.step_height = -0.5f},
        {.up_axis = -1, .step_height = 0.6f},
        {.edge_footing = -0.25f},
        {.edge_footing = NAN},
        {.edge_footing = INFINITY},
        {.max_iterations = 65},
        {.max_iterations = -1},
        {.up_axis = SHOVE_DIM},
        {.up_axis = -2},
        {.response = (shove_response)7},
        {.contact_capacity = 3}, /* no array */
        {.internal_literal_mark = 0xDEADBEEFu},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        shove_move_result r;
        memset(&r, 0xA5, sizeof r);
        const shove_move_result before = r;
        cr_expect_eq(SHOVE_FN(slide)(mover_box(), V(1, 0, 0), boxes, count, &bad[i], &r),
                     SHOVE_ERR_INVALID_ARGUMENT, "bad def %zu", i);
        cr_expect(memcmp(&r, &before, sizeof r) == 0, "bad def %zu wrote the result", i);
    }
}

/* >>worlds: the same scene built two ways --------------------------------- */

typedef struct scene {
    shove_world *w;
    test_map *map;
    shove_id mover, crate, ground;
} scene;

/* The world, ground, a crate and a mover, each made from the defs given. */
static scene build(const shove_world_def *wdef, const shove_body_def *ground,
                   const shove_body_def *crate, const shove_body_def *mover,
                   const shove_voxel_def *voxels) {
    scene s;
    memset(&s, 0, sizeof s);
    cr_assert_eq(SHOVE_FN(world_create)(wdef, &s.w), SHOVE_OK);
    cr_assert_eq(SHOVE_FN(body_create)(s.w, ground, &s.ground), SHOVE_OK);
    cr_assert_eq(SHOVE_FN(body_create)(s.w, crate, &s.crate), SHOVE_OK);
    cr_assert_eq(SHOVE_FN(body_create)(s.w, mover, &s.mover), SHOVE_OK);
    if (voxels) {
        cr_assert_eq(SHOVE_FN(world_set_voxels)(s.w, voxels), SHOVE_OK);
    }
    return s;
}

/* Moves and a step; every result and the final dump. */
typedef struct play {
    shove_move_result moves[3];
    char *text;
    size_t events;
} play;

static play run(scene *s, const shove_move_def *walk) {
    play p;
    memset(&p, 0, sizeof p);
    cr_assert_eq(SHOVE_FN(move)(s->w, s->mover, V(6, -0.5, 0.25), walk, &p.moves[0]), SHOVE_OK);
    cr_assert_eq(SHOVE_FN(move)(s->w, s->mover, V(-6, -0.25, 0), walk, &p.moves[1]), SHOVE_OK);
    cr_assert_eq(SHOVE_FN(body_set_motion)(s->w, s->mover, V(4, -0.5, 0)), SHOVE_OK);
    cr_assert_eq(SHOVE_FN(body_set_motion)(s->w, s->crate, V(0, -1, 0)), SHOVE_OK);
    cr_assert_eq(SHOVE_FN(world_step)(s->w), SHOVE_OK);
    p.events = SHOVE_FN(world_get_events)(s->w, NULL);
    cr_assert_eq(SHOVE_FN(move)(s->w, s->mover, V(0, -3, 0), walk, &p.moves[2]), SHOVE_OK);
    p.text = world_text(s->w);
    return p;
}

static void expect_same_play(const play *a, const play *b, const char *what) {
    for (int i = 0; i < 3; ++i) {
        expect_same_result(&a->moves[i], &b->moves[i], what);
    }
    cr_expect_eq(a->events, b->events, "%s: events of the step", what);
    cr_expect_str_eq(a->text, b->text, "%s: the worlds differ", what);
}

static void free_scene(scene *s, play *p) {
    SHOVE_FN(world_destroy)(s->w);
    free(p->text);
}

/* >>body def -------------------------------------------------------------- */

Test(defs, body_def_c_way_collides_like_the_default_with_the_same_fields) {
    /* Marked defs with the fields a game sets. */
    shove_body_def ground = SHOVE_FN(default_body_def)();
    ground.box = BOX(-10, -1, -10, 10, 0, 10);
    shove_body_def crate = SHOVE_FN(default_body_def)();
    crate.box = BOX(2, 0, -1, 3, 1, 1);
    crate.type = SHOVE_BODY_DYNAMIC;
    crate.priority = 3;
    shove_body_def mover = SHOVE_FN(default_body_def)();
    mover.box = mover_box();
    mover.type = SHOVE_BODY_DYNAMIC;
    mover.priority = 1;
    scene a = build(NULL, &ground, &crate, &mover, NULL);
    play pa = run(&a, NULL);

    /* The same, written the C way. */
    const shove_body_def ground_c = {.box = BOX(-10, -1, -10, 10, 0, 10)};
    const shove_body_def crate_c = {
        .box = BOX(2, 0, -1, 3, 1, 1), .type = SHOVE_BODY_DYNAMIC, .priority = 3};
    const shove_body_def mover_c = {.box = mover_box(), .type = SHOVE_BODY_DYNAMIC, .priority = 1};
    scene b = build(NULL, &ground_c, &crate_c, &mover_c, NULL);
    play pb = run(&b, NULL);
    expect_same_play(&pa, &pb, "body defs");
    /* The crate blocked the first move (category 0 / mask 0 would not). */
    cr_expect_eq(pb.moves[0].box.max.x, 2.0f);
    cr_expect(pb.moves[0].hit_wall);
    free_scene(&a, &pa);
    free_scene(&b, &pb);
}

Test(defs, marked_body_def_with_mask_zero_collides_with_nothing) {
    shove_world *w;
    cr_assert_eq(SHOVE_FN(world_create)(NULL, &w), SHOVE_OK);
    shove_body_def wall = SHOVE_FN(default_body_def)();
    wall.box = BOX(2, 0, -1, 3, 2, 1);
    wall.mask = 0; /* literal: meets nothing */
    shove_id wall_id, mover, plain_id;
    cr_assert_eq(SHOVE_FN(body_create)(w, &wall, &wall_id), SHOVE_OK);
    shove_body_def m = SHOVE_FN(default_body_def)();
    m.box = mover_box();
    m.type = SHOVE_BODY_DYNAMIC;
    cr_assert_eq(SHOVE_FN(body_create)(w, &m, &mover), SHOVE_OK);
    shove_move_result r;
    cr_assert_eq(SHOVE_FN(move)(w, mover, V(4, 0, 0), NULL, &r), SHOVE_OK);
    cr_expect_eq(r.box.min.x, 4.0f);
    /* The same wall unmarked with mask 0: the default mask, it blocks. */
    const shove_body_def plain = {.box = BOX(6, 0, -1, 7, 2, 1), .mask = 0};
    cr_assert_eq(SHOVE_FN(body_create)(w, &plain, &plain_id), SHOVE_OK);
    cr_assert_eq(SHOVE_FN(move)(w, mover, V(4, 0, 0), NULL, &r), SHOVE_OK);
    cr_expect_eq(r.box.max.x, 6.0f);
    SHOVE_FN(world_destroy)(w);
}

Test(defs, body_defs_with_unknown_marks_or_bad_values_are_refused) {
    shove_world *w;
    cr_assert_eq(SHOVE_FN(world_create)(NULL, &w), SHOVE_OK);
    const shove_body_def good = {.box = BOX(0, 0, 0, 1, 1, 1)};
    shove_id id;
    cr_assert_eq(SHOVE_FN(body_create)(w, &good, &id), SHOVE_OK);
    char *before = world_text(w);
    const shove_body_def bad[] = {
        {.box = BOX(0, 0, 0, 1, 1, 1), .internal_literal_mark = 1u},
        {.box = BOX(0, 0, 0, 1, 1, 1), .type = (shove_body_type)2},
        {.box = BOX(1, 0, 0, 0, 1, 1)},
        {.box = BOX(NAN, 0, 0, 1, 1, 1)},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        shove_id out = {77u, 77u};
        cr_expect_eq(SHOVE_FN(body_create)(w, &bad[i], &out), SHOVE_ERR_INVALID_ARGUMENT,
                     "bad body def %zu", i);
        cr_expect(out.index == 77u && out.generation == 77u);
        char *now = world_text(w);
        cr_expect_str_eq(now, before, "bad body def %zu changed the world", i);
        free(now);
    }
    free(before);
    SHOVE_FN(world_destroy)(w);
}

/* >>voxel def ------------------------------------------------------------- */

static test_map *voxel_course(void) {
    test_map *m = map_new(-8, -2, -4, 24, 6, 8);
    for (int x = -8; x < 16; ++x) {
        for (int z = -4; z < 4; ++z) {
            map_set(m, x, -1, z, CELL_FULL);
            map_set(m, x, 0, z, x == 5 ? CELL_WALL : CELL_EMPTY);
        }
    }
    return m;
}

Test(defs, voxel_def_c_way_reads_like_the_default_with_the_same_fields) {
    test_map *m = voxel_course();
    const shove_body_def ground = {.box = BOX(-20, -20, -10, -19, -19, 10)}; /* out of the way */
    const shove_body_def crate = {.box = BOX(9, 0, -1, 10, 1, 1), .type = SHOVE_BODY_DYNAMIC};
    const shove_body_def mover = {.box = mover_box(), .type = SHOVE_BODY_DYNAMIC};
    const shove_move_def walk = {.step_height = 0.6f};

    /* What the issue saw: shapes, ctx, voxel_size and origin set. */
    shove_voxel_def literal = SHOVE_FN(default_voxel_def)();
    literal.shapes = map_shapes;
    literal.ctx = m;
    literal.voxel_size = 1.0f;
    literal.origin = V(0.125, 0, 0);
    const shove_voxel_def c_way = {
        .shapes = map_shapes, .ctx = m, .voxel_size = 1.0f, .origin = V(0.125, 0, 0)};
    scene a = build(NULL, &ground, &crate, &mover, &literal);
    play pa = run(&a, &walk);
    scene b = build(NULL, &ground, &crate, &mover, &c_way);
    play pb = run(&b, &walk);
    expect_same_play(&pa, &pb, "voxel defs");
    /* Stopped by the 1.5-tall wall at x = 5 (which a step of 0.6 cannot
     * climb) and, in the end, on the ground. */
    cr_expect_eq(pb.moves[0].box.max.x, 5.125f);
    cr_expect_eq(pb.moves[2].box.min.y, 0.0f);
    cr_expect(pb.moves[2].on_ground);

    /* Only shapes and ctx: size 1 at the origin, the default bounds. */
    shove_voxel_def lean_l = SHOVE_FN(default_voxel_def)();
    lean_l.shapes = map_shapes;
    lean_l.ctx = m;
    const shove_voxel_def lean_c = {.shapes = map_shapes, .ctx = m};
    scene c = build(NULL, &ground, &crate, &mover, &lean_l);
    play pc = run(&c, &walk);
    scene d = build(NULL, &ground, &crate, &mover, &lean_c);
    play pd = run(&d, &walk);
    expect_same_play(&pc, &pd, "voxel defs, shapes only");
    free_scene(&a, &pa);
    free_scene(&b, &pb);
    free_scene(&c, &pc);
    free_scene(&d, &pd);
    map_free(m);
}

Test(defs, marked_voxel_def_is_literal_and_bad_values_are_refused) {
    test_map *m = voxel_course();
    shove_world *w;
    cr_assert_eq(SHOVE_FN(world_create)(NULL, &w), SHOVE_OK);
    const shove_body_def mover = {.box = mover_box(), .type = SHOVE_BODY_DYNAMIC};
    shove_id id;
    cr_assert_eq(SHOVE_FN(body_create)(w, &mover, &id), SHOVE_OK);
    char *before = world_text(w);
    /* voxel_size 0 taken literally: invalid. Unmarked, it means 1. */
    shove_voxel_def zero_size = SHOVE_FN(default_voxel_def)();
    zero_size.shapes = map_shapes;
    zero_size.ctx = m;
    zero_size.voxel_size = 0.0f;
    const shove_voxel_def bad[] = {
        zero_size,
        {.shapes = map_shapes, .ctx = m, .voxel_size = -1.0f},
        {.shapes = map_shapes, .ctx = m, .voxel_size = INFINITY},
        {.shapes = map_shapes, .ctx = m, .shape_bounds = BOX(0, 0, 0, 3, 1, 1)},
        {.shapes = map_shapes, .ctx = m, .internal_literal_mark = 42u},
        {.internal_literal_mark = 42u}, /* even when it would remove voxels */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        cr_expect_eq(SHOVE_FN(world_set_voxels)(w, &bad[i]), SHOVE_ERR_INVALID_ARGUMENT,
                     "bad voxel def %zu", i);
        char *now = world_text(w);
        cr_expect_str_eq(now, before, "bad voxel def %zu changed the world", i);
        free(now);
    }
    /* A marked def with an all-zero shape_bounds keeps it (the dump shows
     * the world's voxel settings); unmarked, it is the default's. */
    shove_voxel_def flat = SHOVE_FN(default_voxel_def)();
    flat.shapes = map_shapes;
    flat.ctx = m;
    memset(&flat.shape_bounds, 0, sizeof flat.shape_bounds);
    cr_assert_eq(SHOVE_FN(world_set_voxels)(w, &flat), SHOVE_OK);
    char *flat_text = world_text(w);
    shove_voxel_def literal = SHOVE_FN(default_voxel_def)();
    literal.shapes = map_shapes;
    literal.ctx = m;
    cr_assert_eq(SHOVE_FN(world_set_voxels)(w, &literal), SHOVE_OK);
    char *default_text = world_text(w);
    const shove_voxel_def plain = {.shapes = map_shapes, .ctx = m};
    cr_assert_eq(SHOVE_FN(world_set_voxels)(w, &plain), SHOVE_OK);
    char *plain_text = world_text(w);
    cr_expect_str_neq(flat_text, default_text, "the zero shape_bounds was not kept");
    cr_expect_str_eq(plain_text, default_text);
    shove_move_result r;
    cr_assert_eq(SHOVE_FN(move)(w, id, V(0, -3, 0), NULL, &r), SHOVE_OK);
    cr_expect_eq(r.box.min.y, 0.0f);
    free(flat_text);
    free(default_text);
    free(plain_text);
    free(before);
    SHOVE_FN(world_destroy)(w);
    map_free(m);
}

/* >>world def ------------------------------------------------------------- */

Test(defs, world_def_c_way_steps_like_the_default_with_the_same_fields) {
    const shove_body_def ground = {.box = BOX(-10, -1, -10, 10, 0, 10)};
    const shove_body_def crate = {
        .box = BOX(2, 0, -1, 3, 1, 1), .type = SHOVE_BODY_DYNAMIC, .priority = 2};
    const shove_body_def mover = {.box = mover_box(), .type = SHOVE_BODY_DYNAMIC, .priority = 1};

    /* {0} is NULL. */
    const shove_world_def zero = {0};
    scene a = build(NULL, &ground, &crate, &mover, NULL);
    play pa = run(&a, NULL);
    scene b = build(&zero, &ground, &crate, &mover, NULL);
    play pb = run(&b, NULL);
    expect_same_play(&pa, &pb, "world {0}");
    free_scene(&a, &pa);
    free_scene(&b, &pb);

    /* Fields a game sets, nested step_def fields included. */
    shove_world_def literal = SHOVE_FN(default_world_def)();
    literal.bounds = BOX(-64, -64, -64, 64, 64, 64);
    literal.body_capacity = 3;
    literal.step_def.step_height = 0.6f;
    literal.step_def.skin = 1.0f / 128.0f;
    const shove_world_def c_way = {.bounds = BOX(-64, -64, -64, 64, 64, 64),
                                   .body_capacity = 3,
                                   .step_def = {.step_height = 0.6f, .skin = 1.0f / 128.0f}};
    scene c = build(&literal, &ground, &crate, &mover, NULL);
    play pc = run(&c, NULL);
    scene d = build(&c_way, &ground, &crate, &mover, NULL);
    play pd = run(&d, NULL);
    expect_same_play(&pc, &pd, "world defs");
    cr_expect_neq(strstr(pd.text, "step_height 0.6"), NULL, "the step def was not taken");
    cr_expect_neq(strstr(pd.text, "response slide"), NULL, "the step response is not SLIDE");
    free_scene(&c, &pc);
    free_scene(&d, &pd);

    /* A marked world def whose step_def was written the C way. */
    shove_world_def mixed = SHOVE_FN(default_world_def)();
    mixed.step_def = (shove_move_def){.step_height = 0.6f, .skin = 1.0f / 128.0f};
    mixed.bounds = literal.bounds;
    mixed.body_capacity = 3;
    scene e = build(&mixed, &ground, &crate, &mover, NULL);
    play pe = run(&e, NULL);
    scene f = build(&literal, &ground, &crate, &mover, NULL);
    play pf = run(&f, NULL);
    expect_same_play(&pe, &pf, "marked world def, C-way step def");
    free_scene(&e, &pe);
    free_scene(&f, &pf);
}

Test(defs, world_defs_with_unknown_marks_or_bad_values_are_refused) {
    shove_world_def marked_zero_bounds = SHOVE_FN(default_world_def)();
    memset(&marked_zero_bounds.bounds, 0, sizeof marked_zero_bounds.bounds);
    const shove_world_def bad[] = {
        marked_zero_bounds, /* literal: a box of no size */
        {.internal_literal_mark = 3u},
        {.step_def = {.internal_literal_mark = 3u}},
        {.step_def = {.max_iterations = 100}},
        {.body_capacity = -1},
        {.bounds = BOX(1, 1, 1, 0, 0, 0)},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        shove_world *w = (shove_world *)&bad[0];
        cr_expect_eq(SHOVE_FN(world_create)(&bad[i], &w), SHOVE_ERR_INVALID_ARGUMENT,
                     "bad world def %zu", i);
        cr_expect_eq((const void *)w, (const void *)&bad[0], "bad world def %zu wrote out", i);
    }
    /* A marked def with body_capacity 0 is fine: room grows as needed. */
    shove_world_def no_room = SHOVE_FN(default_world_def)();
    no_room.body_capacity = 0;
    shove_world *w;
    cr_assert_eq(SHOVE_FN(world_create)(&no_room, &w), SHOVE_OK);
    SHOVE_FN(world_destroy)(w);
}
