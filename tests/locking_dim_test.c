/*
 * locking_dim_test.c: callbacks that call back (scenario 14 of
 * scenarios_dim_test.c). From the event callback, a move filter, the voxel
 * shapes, the debug-draw callbacks and the game's task system (enqueue and
 * finish), every call that changes the same world
 * returns SHOVE_ERR_LOCKED (world_destroy does nothing) and changes nothing:
 * the world's dump and event list are the same before and after the attempts.
 * Reading calls work there. The outer call (move, step, cast, dump, draw)
 * gives the same results, events and world as the same script run without the
 * attempts.
 */
#include <stdio.h>
#include <stdlib.h>

#include "test_dim.h"
#include "test_voxel_map.h"

enum {
    FROM_EVENT = 1 << 0,
    FROM_FILTER = 1 << 1,
    FROM_VOXEL = 1 << 2,
    FROM_DRAW = 1 << 3,
    FROM_TASK = 1 << 4,
    FROM_ALL = 31,
};

/* Calls that change the world, tried in each attempt. */
#define CHANGING_CALLS 14

typedef struct nest {
    shove_world *w;
    shove_world *other; /* another world: not locked */
    test_map *map;
    shove_id mover, crate, wall, sensor, stranger;
    int armed; /* FROM_* kinds that attempt */
    bool inside;
    int budget;   /* attempts left in this script */
    int attempts; /* attempts made */
    int refused;  /* changing calls that returned SHOVE_ERR_LOCKED */
    int wrong;    /* changing calls that returned anything else */
    int changed;  /* attempts after which the dump or the events differed */
    int read_failures;
    int other_ok; /* calls on the other world that worked */
} nest;

static char *world_text(const shove_world *w) {
    FILE *f = tmpfile();
    if (!f) {
        return NULL;
    }
    char *text = NULL;
    if (SHOVE_FN(world_dump)(w, f) == SHOVE_OK) {
        const long size = ftell(f);
        rewind(f);
        text = calloc((size_t)size + 1, 1);
        if (fread(text, 1, (size_t)size, f) != (size_t)size) {
            text[0] = '\0';
        }
    }
    fclose(f);
    return text;
}

static void expect_locked(nest *n, shove_status s) {
    if (s == SHOVE_ERR_LOCKED) {
        n->refused += 1;
    } else {
        n->wrong += 1;
    }
}

/* From a callback: every changing call, then the reading ones. */
static void attempt(nest *n, int kind) {
    if (!(n->armed & kind) || n->inside || n->budget <= 0) {
        return;
    }
    n->inside = true; /* the dump below calls the voxel shapes again */
    n->budget -= 1;
    n->attempts += 1;
    shove_world *w = n->w;
    char *before = world_text(w);
    const shove_event *ev = NULL;
    const size_t event_count = SHOVE_FN(world_get_events)(w, &ev);
    shove_event events[64];
    const size_t kept = event_count < 64 ? event_count : 64;
    if (kept) {
        memcpy(events, ev, kept * sizeof *ev);
    }

    shove_move_result r;
    expect_locked(n, SHOVE_FN(move)(w, n->crate, V(1, 0, 0), NULL, &r));
    expect_locked(n, SHOVE_FN(world_step)(w));
    const shove_body_def def = {.box = BOX(-3, 0, 0, -2, 1, 1)};
    shove_id id;
    expect_locked(n, SHOVE_FN(body_create)(w, &def, &id));
    expect_locked(n, SHOVE_FN(body_destroy)(w, n->wall));
    expect_locked(n, SHOVE_FN(body_set_box)(w, n->wall, BOX(20, 0, 0, 21, 1, 1)));
    expect_locked(n, SHOVE_FN(body_set_motion)(w, n->crate, V(0, 5, 0)));
    const shove_voxel_def none = {.shapes = NULL};
    expect_locked(n, SHOVE_FN(world_set_voxels)(w, &none));
    expect_locked(n, SHOVE_FN(world_shift_origin)(w, V(8, 0, 0)));
    expect_locked(n, SHOVE_FN(body_set_type)(w, n->crate, SHOVE_BODY_STATIC));
    expect_locked(n, SHOVE_FN(body_set_priority)(w, n->crate, 0));
    expect_locked(n, SHOVE_FN(body_set_filter)(w, n->wall, 2u, 2u));
    expect_locked(n, SHOVE_FN(body_set_user_data)(w, n->wall, n));
    const shove_move_def sneak = {.step_height = 0.0f, .edge_guard = true};
    expect_locked(n, SHOVE_FN(body_set_move_def)(w, n->crate, &sneak));
    expect_locked(n, SHOVE_FN(body_set_move_def)(w, n->crate, NULL));
    SHOVE_FN(world_destroy)(w); /* does nothing here */

    /* Reading calls work. */
    shove_aabb box;
    n->read_failures += SHOVE_FN(body_get_box)(w, n->wall, &box) != SHOVE_OK;
    n->read_failures += !SHOVE_FN(body_is_valid)(w, n->wall);
    n->read_failures += SHOVE_FN(world_body_count)(w) != 5u;
    shove_id found[8];
    n->read_failures += SHOVE_FN(query_box)(w, box, UINT64_MAX, found, 8) < 1u;
    shove_hit hit;
    n->read_failures += !SHOVE_FN(cast_ray)(w, V(-1.25, 0.5, 0.25), V(0, -2, 0), UINT64_MAX, &hit);
    n->read_failures += SHOVE_FN(world_get_events)(w, NULL) != event_count;
    void *data = n;
    n->read_failures += SHOVE_FN(body_get_user_data)(w, n->wall, &data) != SHOVE_OK || data != NULL;
    shove_move_result last;
    n->read_failures += SHOVE_FN(body_get_result)(w, n->crate, &last) != SHOVE_OK;

    /* Another world is not locked. */
    shove_move_result other;
    n->other_ok += SHOVE_FN(move)(n->other, n->stranger, V(0.125, 0, 0), NULL, &other) == SHOVE_OK;

    char *after = world_text(w);
    const size_t now = SHOVE_FN(world_get_events)(w, &ev);
    if (!before || !after || strcmp(before, after) != 0 || now != event_count ||
        (kept && memcmp(ev, events, kept * sizeof *ev) != 0)) {
        n->changed += 1;
    }
    free(before);
    free(after);
    n->inside = false;
}

static void on_event(void *ctx, const shove_event *e) {
    (void)e;
    attempt(ctx, FROM_EVENT);
}

static shove_response on_filter(void *ctx, shove_id mover, const shove_obstacle *obstacle) {
    (void)mover;
    (void)obstacle;
    attempt(ctx, FROM_FILTER);
    return SHOVE_RESPONSE_SLIDE;
}

#if SHOVE_DIM == 3
static int on_voxel(void *ctx, int32_t x, int32_t y, int32_t z,
                    shove_aabb out[SHOVE_VOXEL_MAX_BOXES]) {
    nest *n = ctx;
    attempt(n, FROM_VOXEL);
    return map_shapes(n->map, x, y, z, out);
}
#else
static int on_voxel(void *ctx, int32_t x, int32_t y, shove_aabb out[SHOVE_VOXEL_MAX_BOXES]) {
    nest *n = ctx;
    attempt(n, FROM_VOXEL);
    return map_shapes(n->map, x, y, out);
}
#endif

static void on_draw_box(void *ctx, shove_aabb box, uint32_t color) {
    (void)box;
    (void)color;
    attempt(ctx, FROM_DRAW);
}

/* The game's task system: attempts when the step hands it a task, runs
 * every range at once on the calling thread (worker 0), and hands back a
 * handle so that it is asked to finish, where it attempts again. */
static void *on_enqueue(shove_task_fn *fn, uint32_t count, uint32_t min_range, void *fn_ctx,
                        void *task_ctx) {
    nest *n = task_ctx;
    attempt(n, FROM_TASK);
    const uint32_t range = min_range > 0u ? min_range : 1u;
    for (uint32_t begin = 0; begin < count; begin += range) {
        fn(begin, count - begin < range ? count : begin + range, 0u, fn_ctx);
    }
    return n;
}

static void on_finish(void *task, void *task_ctx) {
    (void)task;
    attempt(task_ctx, FROM_TASK);
}

/* >>the script ------------------------------------------------------------ */

static void nest_open(nest *n, int armed) {
    memset(n, 0, sizeof *n);
    n->armed = armed;
    n->budget = 6;
    n->map = map_new(-8, -2, -4, 24, 4, 8);
    for (int x = -8; x < 16; ++x) {
        for (int z = -4; z < 4; ++z) {
            map_set(n->map, x, -1, z, CELL_FULL);
        }
    }
    shove_world_def wd = SHOVE_FN(default_world_def)();
    wd.event_fn = on_event;
    wd.event_ctx = n;
    wd.step_def.filter = on_filter;
    wd.step_def.filter_ctx = n;
    if (armed & FROM_TASK) {
        /* the step's results are the same with a task system or without
         * (the run it is compared with has none) */
        wd.enqueue_task = on_enqueue;
        wd.finish_task = on_finish;
        wd.task_ctx = n;
    }
    cr_assert_eq(SHOVE_FN(world_create)(&wd, &n->w), SHOVE_OK);
    cr_assert_eq(SHOVE_FN(world_create)(NULL, &n->other), SHOVE_OK);
    const shove_voxel_def vd = {.shapes = on_voxel, .ctx = n};
    cr_assert_eq(SHOVE_FN(world_set_voxels)(n->w, &vd), SHOVE_OK);
    const shove_body_def mover = {
        .box = BOX(0, 0, 0, 0.5, 1, 0.5), .type = SHOVE_BODY_DYNAMIC, .priority = 1};
    const shove_body_def sensor = {.box = BOX(1.5, 0, -1, 2, 3, 1), .sensor = true};
    const shove_body_def crate = {
        .box = BOX(3, 0, 0, 4, 1, 1), .type = SHOVE_BODY_DYNAMIC, .priority = 5};
    const shove_body_def wall = {.box = BOX(6, 0, -2, 7, 3, 2)};
    cr_assert_eq(SHOVE_FN(body_create)(n->w, &mover, &n->mover), SHOVE_OK);
    cr_assert_eq(SHOVE_FN(body_create)(n->w, &sensor, &n->sensor), SHOVE_OK);
    cr_assert_eq(SHOVE_FN(body_create)(n->w, &crate, &n->crate), SHOVE_OK);
    cr_assert_eq(SHOVE_FN(body_create)(n->w, &wall, &n->wall), SHOVE_OK);
    const shove_body_def floor = {.box = BOX(-8, -3, -4, 16, -2, 4)};
    shove_id floor_id;
    cr_assert_eq(SHOVE_FN(body_create)(n->w, &floor, &floor_id), SHOVE_OK);
    const shove_body_def stranger = {.box = BOX(0, 0, 0, 1, 1, 1), .type = SHOVE_BODY_DYNAMIC};
    cr_assert_eq(SHOVE_FN(body_create)(n->other, &stranger, &n->stranger), SHOVE_OK);
}

static void nest_close(nest *n) {
    SHOVE_FN(world_destroy)(n->w);
    SHOVE_FN(world_destroy)(n->other);
    map_free(n->map);
}

/* What the outer calls gave. */
typedef struct outcome {
    shove_move_result move;
    shove_contact contacts[8];
    shove_event move_events[16];
    size_t move_event_count;
    shove_event step_events[16];
    size_t step_event_count;
    bool ray_found, box_found;
    shove_hit ray, box;
    char *dump; /* the outer dump's text */
    int boxes_drawn;
    char *end; /* the world at the end */
} outcome;

/* Ids without the world's tag: the two runs use two worlds. */
static shove_id untagged(shove_id id) {
    id.generation &= (1u << 22) - 1u;
    return id;
}

static void untag_outcome(outcome *o) {
    for (int i = 0; i < 8; ++i) {
        o->contacts[i].other = untagged(o->contacts[i].other);
    }
    for (int i = 0; i < 16; ++i) {
        o->move_events[i].a = untagged(o->move_events[i].a);
        o->move_events[i].b = untagged(o->move_events[i].b);
        o->step_events[i].a = untagged(o->step_events[i].a);
        o->step_events[i].b = untagged(o->step_events[i].b);
    }
    o->ray.other = untagged(o->ray.other);
    o->box.other = untagged(o->box.other);
}

static int drawn_boxes;
static void count_box(void *ctx, shove_aabb box, uint32_t color) {
    drawn_boxes += 1;
    on_draw_box(ctx, box, color);
}

static outcome play(nest *n) {
    outcome o;
    memset(&o, 0, sizeof o);
    const shove_event *ev;
    /* A move through the sensor, pressing on the voxel floor. */
    const shove_move_def walk = {
        .filter = on_filter, .filter_ctx = n, .contacts = o.contacts, .contact_capacity = 8};
    cr_assert_eq(SHOVE_FN(move)(n->w, n->mover, V(2, -0.25, 0.25), &walk, &o.move), SHOVE_OK);
    o.move_event_count = SHOVE_FN(world_get_events)(n->w, &ev);
    cr_assert_leq(o.move_event_count, 16u);
    memcpy(o.move_events, ev, o.move_event_count * sizeof *ev);
    /* A step: the mover pushes the crate into the wall (a squish). */
    cr_assert_eq(SHOVE_FN(body_set_motion)(n->w, n->mover, V(3, -0.125, 0)), SHOVE_OK);
    cr_assert_eq(SHOVE_FN(world_step)(n->w), SHOVE_OK);
    o.step_event_count = SHOVE_FN(world_get_events)(n->w, &ev);
    cr_assert_leq(o.step_event_count, 16u);
    memcpy(o.step_events, ev, o.step_event_count * sizeof *ev);
    /* Casts and a dump read the voxels; drawing calls back too. */
    o.ray_found = SHOVE_FN(cast_ray)(n->w, V(-2.25, 0.5, 0.25), V(0, -3, 0), UINT64_MAX, &o.ray);
    o.box_found =
        SHOVE_FN(cast_box)(n->w, BOX(-3, 2, 0, -2.5, 2.5, 0.5), V(0.5, -4, 0), UINT64_MAX, &o.box);
    o.dump = world_text(n->w);
    drawn_boxes = 0;
    const shove_debug_draw draw = {.draw_box = count_box, .draw_bodies = true, .ctx = n};
    SHOVE_FN(world_draw)(n->w, &draw);
    o.boxes_drawn = drawn_boxes;
    o.end = world_text(n->w);
    untag_outcome(&o);
    return o;
}

static void expect_same_hit(const shove_hit *a, const shove_hit *b, const char *what) {
    cr_expect_eq(a->t, b->t, "%s: hit t", what);
    EXPECT_VEC_EQ(a->normal, b->normal);
    cr_expect(shove_id_equal(a->other, b->other), "%s: hit other", what);
    cr_expect_eq(a->started_inside, b->started_inside, "%s: hit started_inside", what);
}

static void expect_same_outcome(const outcome *a, const outcome *b, const char *what) {
    cr_expect(memcmp(&a->move, &b->move, sizeof a->move) == 0, "%s: move result", what);
    cr_expect(memcmp(a->contacts, b->contacts, sizeof a->contacts) == 0, "%s: contacts", what);
    cr_expect_eq(a->move_event_count, b->move_event_count, "%s: move events", what);
    cr_expect(memcmp(a->move_events, b->move_events, sizeof a->move_events) == 0, "%s: move events",
              what);
    cr_expect_eq(a->step_event_count, b->step_event_count, "%s: step events", what);
    cr_expect(memcmp(a->step_events, b->step_events, sizeof a->step_events) == 0, "%s: step events",
              what);
    cr_expect_eq(a->ray_found, b->ray_found, "%s: ray", what);
    expect_same_hit(&a->ray, &b->ray, what);
    cr_expect_eq(a->box_found, b->box_found, "%s: box cast", what);
    expect_same_hit(&a->box, &b->box, what);
    cr_expect_str_eq(a->dump, b->dump, "%s: dump", what);
    cr_expect_eq(a->boxes_drawn, b->boxes_drawn, "%s: boxes drawn", what);
    cr_expect_str_eq(a->end, b->end, "%s: the world at the end", what);
}

static void free_outcome(outcome *o) {
    free(o->dump);
    free(o->end);
}

static void run_kind(int kind, const char *what) {
    nest quiet, loud;
    nest_open(&quiet, 0);
    outcome expected = play(&quiet);
    /* The script does what it is meant to: events from the move and the
     * step, a squish among them, hits on the voxel floor. */
    cr_assert_gt(expected.move_event_count, 0u);
    bool squish = false;
    for (size_t i = 0; i < expected.step_event_count; ++i) {
        squish = squish || expected.step_events[i].type == SHOVE_EVENT_SQUISH;
    }
    cr_expect(squish, "the step squishes nothing");
    cr_expect(expected.ray_found && shove_id_is_null(expected.ray.other));
    cr_expect(expected.box_found && shove_id_is_null(expected.box.other));
    cr_expect_eq(quiet.attempts, 0);

    nest_open(&loud, kind);
    loud.budget = 40;
    outcome got = play(&loud);
    expect_same_outcome(&got, &expected, what);
    cr_expect_gt(loud.attempts, 0, "%s: no callback attempted a call", what);
    cr_expect_eq(loud.refused, loud.attempts * CHANGING_CALLS, "%s: refused %d of %d", what,
                 loud.refused, loud.attempts * CHANGING_CALLS);
    cr_expect_eq(loud.wrong, 0, "%s: %d calls were not refused", what, loud.wrong);
    cr_expect_eq(loud.changed, 0, "%s: %d attempts changed the world", what, loud.changed);
    cr_expect_eq(loud.read_failures, 0, "%s: reading calls failed", what);
    cr_expect_eq(loud.other_ok, loud.attempts, "%s: another world was locked", what);

    /* Once the outer calls are done, the world takes changes again. */
    shove_move_result r;
    cr_expect_eq(SHOVE_FN(move)(loud.w, loud.crate, V(-1, 0, 0), NULL, &r), SHOVE_OK);
    cr_expect_eq(SHOVE_FN(body_destroy)(loud.w, loud.sensor), SHOVE_OK);
    free_outcome(&expected);
    free_outcome(&got);
    nest_close(&quiet);
    nest_close(&loud);
}

Test(locking, from_the_event_callback) {
    run_kind(FROM_EVENT, "event callback");
}

Test(locking, from_a_filter) {
    run_kind(FROM_FILTER, "filter");
}

Test(locking, from_the_voxel_shapes) {
    run_kind(FROM_VOXEL, "voxel shapes");
}

Test(locking, from_debug_drawing) {
    run_kind(FROM_DRAW, "debug draw");
}

Test(locking, from_the_task_system) {
    run_kind(FROM_TASK, "task system");
}

Test(locking, from_every_callback_at_once) {
    run_kind(FROM_ALL, "every callback");
}

/* Each kind of outer call locks: count the attempts per call. */
Test(locking, every_call_that_calls_back_locks) {
    nest n;
    nest_open(&n, FROM_VOXEL);
    shove_hit hit;
    int before = n.attempts;
    cr_assert(SHOVE_FN(cast_ray)(n.w, V(-2.25, 0.5, 0.25), V(0, -3, 0), UINT64_MAX, &hit));
    cr_expect_gt(n.attempts, before, "cast_ray");
    before = n.attempts;
    n.budget = 2;
    cr_assert(
        SHOVE_FN(cast_box)(n.w, BOX(-3, 2, 0, -2.5, 2.5, 0.5), V(0, -4, 0), UINT64_MAX, &hit));
    cr_expect_gt(n.attempts, before, "cast_box");
    before = n.attempts;
    n.budget = 2;
    char *text = world_text(n.w);
    free(text);
    cr_expect_gt(n.attempts, before, "world_dump");
    before = n.attempts;
    n.budget = 2;
    shove_move_result r;
    cr_assert_eq(SHOVE_FN(move)(n.w, n.mover, V(0.5, -0.5, 0), NULL, &r), SHOVE_OK);
    cr_expect_gt(n.attempts, before, "move");
    before = n.attempts;
    n.budget = 2;
    cr_assert_eq(SHOVE_FN(body_set_motion)(n.w, n.mover, V(0.5, -0.5, 0)), SHOVE_OK);
    cr_assert_eq(SHOVE_FN(world_step)(n.w), SHOVE_OK);
    cr_expect_gt(n.attempts, before, "step");
    cr_expect_eq(n.wrong, 0);
    cr_expect_eq(n.refused, n.attempts * CHANGING_CALLS);
    cr_expect_eq(n.changed, 0);
    nest_close(&n);
}

/* Outside any callback nothing is locked, also after nested reading calls
 * (a cast from a filter counts itself in and out). */
Test(locking, nested_reading_calls_leave_the_world_unlocked) {
    nest n;
    nest_open(&n, FROM_FILTER | FROM_EVENT | FROM_VOXEL);
    n.budget = 20;
    for (int i = 0; i < 3; ++i) {
        shove_move_result r;
        cr_assert_eq(SHOVE_FN(move)(n.w, n.mover, V(1, -0.25, 0), NULL, &r), SHOVE_OK);
        cr_assert_eq(SHOVE_FN(body_set_box)(n.w, n.wall, BOX(6, 0, -2, 7, 3 + i, 2)), SHOVE_OK);
    }
    cr_expect_gt(n.attempts, 0);
    shove_id id;
    const shove_body_def def = {.box = BOX(-5, 0, 0, -4, 1, 1)};
    cr_expect_eq(SHOVE_FN(body_create)(n.w, &def, &id), SHOVE_OK);
    cr_expect_eq(SHOVE_FN(world_shift_origin)(n.w, V(1, 0, 0)), SHOVE_OK);
    const shove_voxel_def none = {.shapes = NULL};
    cr_expect_eq(SHOVE_FN(world_set_voxels)(n.w, &none), SHOVE_OK);
    nest_close(&n);
}
