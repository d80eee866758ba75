/*
 * body_settings_dim_test.c: shove3_body_set_move_def (a body's own move
 * settings in the shove step) and shove3_body_get_result (what its last
 * move or step did). The scene of issue 18: a sneaking player (edge guard,
 * no step height, slower) pushes crates in the same step as 1,000 mobs with
 * the world's settings; the same def given to every body steps bit for bit
 * like a world whose step_def it is; bad input and calls from callbacks
 * change nothing; own settings survive a dump and a load.
 *
 * Scenes are drawn in x (sideways) and y (up); in 3D every box spans z in
 * [0, 1].
 */
#include <stdlib.h>

#include "test_alloc.h"
#include "test_dim.h"
#include "test_world_ops.h"
#include "test_world_text.h"
#include "world/world.h"

/* A box x0..x1, y0..y1 (z 0..1 in 3D). */
static shove_aabb rect(float x0, float y0, float x1, float y1) {
    return BOX(x0, y0, 0, x1, y1, 1);
}

static shove_world *new_world(const shove_move_def *step_def) {
    shove_world_def def = SHOVE_FN(default_world_def)();
    def.bounds = rect(-64, -64, 256, 256);
    if (step_def) {
        def.step_def = *step_def;
    }
    shove_world *w = NULL;
    cr_assert_eq(SHOVE_FN(world_create)(&def, &w), SHOVE_OK);
    return w;
}

static shove_move_result result_of(const shove_world *w, shove_id id) {
    shove_move_result r;
    memset(&r, 0xA5, sizeof r);
    cr_assert_eq(SHOVE_FN(body_get_result)(w, id, &r), SHOVE_OK);
    return r;
}

static bool same_box(shove_aabb a, shove_aabb b) {
    return memcmp(&a, &b, sizeof a) == 0;
}

/* The player's settings: sneaking (edge guard, no step-up). */
static shove_move_def sneak_def(void) {
    shove_move_def def = SHOVE_FN(default_move_def)();
    def.edge_guard = true;
    def.step_height = 0.0f;
    return def;
}

/* The world's settings: mobs climb half a block. */
static shove_move_def mob_def(void) {
    shove_move_def def = SHOVE_FN(default_move_def)();
    def.step_height = 0.6f;
    return def;
}

Test(body_settings, a_new_body_has_a_zero_result_with_its_box) {
    shove_world *w = new_world(NULL);
    const shove_id a = test_add_body(w, rect(1, 2, 3, 4), SHOVE_BODY_DYNAMIC, 0);
    const shove_move_result r = result_of(w, a);
    cr_expect(same_box(r.box, rect(1, 2, 3, 4)));
    EXPECT_VEC_EQ(r.delta, shove_vec_splat(0.0f));
    cr_expect_eq(r.contact_count, 0);
    cr_expect(!r.on_ground && !r.hit_ceiling && !r.hit_wall && !r.stepped);
    SHOVE_FN(world_destroy)(w);
}

Test(body_settings, get_result_after_a_move_is_the_move_result) {
    shove_world *w = new_world(NULL);
    test_add_body(w, rect(-10, -1, 10, 0), SHOVE_BODY_STATIC, 0);
    test_add_body(w, rect(3, 0, 4, 3), SHOVE_BODY_STATIC, 0);
    const shove_id a = test_add_body(w, rect(0, 0, 1, 2), SHOVE_BODY_DYNAMIC, 0);
    shove_move_result moved;
    cr_assert_eq(SHOVE_FN(move)(w, a, V(5, -1, 0), NULL, &moved), SHOVE_OK);
    cr_assert(moved.on_ground && moved.hit_wall, "the scene must ground and block the mover");
    const shove_move_result r = result_of(w, a);
    cr_expect(same_box(r.box, moved.box));
    EXPECT_VEC_EQ(r.delta, moved.delta);
    cr_expect_eq(r.contact_count, moved.contact_count);
    cr_expect_eq(r.on_ground, moved.on_ground);
    cr_expect_eq(r.hit_ceiling, moved.hit_ceiling);
    cr_expect_eq(r.hit_wall, moved.hit_wall);
    cr_expect_eq(r.stepped, moved.stepped);
    /* A teleport changes the box only. */
    cr_assert_eq(SHOVE_FN(body_set_box)(w, a, rect(-5, 0, -4, 2)), SHOVE_OK);
    const shove_move_result t = result_of(w, a);
    cr_expect(same_box(t.box, rect(-5, 0, -4, 2)));
    EXPECT_VEC_EQ(t.delta, moved.delta);
    cr_expect(t.on_ground && t.hit_wall);
    SHOVE_FN(world_destroy)(w);
}

/* Two walkers meet a curb 0.5 high: the mob (world settings, step height
 * 0.6) climbs it, the sneaking player (its own def, no step-up) is blocked;
 * a crate the player pushes reports its displacement and no flags. */
Test(body_settings, own_settings_step_next_to_the_worlds) {
    const shove_move_def world_settings = mob_def();
    shove_world *w = new_world(&world_settings);
    test_add_body(w, rect(-10, -1, 30, 0), SHOVE_BODY_STATIC, 0);
    test_add_body(w, rect(5, 0, 6, 0.5f), SHOVE_BODY_STATIC, 0);   /* the mob's curb */
    test_add_body(w, rect(25, 0, 26, 0.5f), SHOVE_BODY_STATIC, 0); /* the player's curb */
    const shove_id mob = test_add_body(w, rect(3, 0, 3.5f, 1.5f), SHOVE_BODY_DYNAMIC, 3);
    const shove_id player = test_add_body(w, rect(13, 0, 13.5f, 1.5f), SHOVE_BODY_DYNAMIC, 0);
    const shove_id crate = test_add_body(w, rect(14, 0, 15, 1), SHOVE_BODY_DYNAMIC, 9);
    const shove_move_def sneak = sneak_def();
    cr_assert_eq(SHOVE_FN(body_set_move_def)(w, player, &sneak), SHOVE_OK);

    /* Step 1: the player pushes the crate; both walk on the floor. */
    cr_assert_eq(SHOVE_FN(body_set_motion)(w, mob, V(1, -0.25f, 0)), SHOVE_OK);
    cr_assert_eq(SHOVE_FN(body_set_motion)(w, player, V(1, -0.25f, 0)), SHOVE_OK);
    const shove_aabb crate_before = test_box_of(w, crate);
    cr_assert_eq(SHOVE_FN(world_step)(w), SHOVE_OK);
    const shove_move_result p1 = result_of(w, player);
    cr_expect(p1.on_ground && !p1.hit_wall && !p1.stepped);
    cr_expect_float_eq(p1.delta.raw[0], 1.0f, 1e-6f);
    const shove_move_result c1 = result_of(w, crate);
    const shove_aabb crate_after = test_box_of(w, crate);
    cr_expect(crate_after.min.raw[0] > crate_before.min.raw[0], "the crate was pushed");
    cr_expect_eq(c1.delta.raw[0], crate_after.min.raw[0] - crate_before.min.raw[0]);
    cr_expect(!c1.on_ground && !c1.hit_wall && c1.contact_count == 0,
              "a pushed body that never slid has no flags");

    /* Walk on until both reach their curb. */
    bool mob_stepped = false, player_blocked = false;
    for (int i = 0; i < 16; ++i) {
        cr_assert_eq(SHOVE_FN(body_set_motion)(w, mob, V(1, -0.25f, 0)), SHOVE_OK);
        cr_assert_eq(SHOVE_FN(body_set_motion)(w, player, V(1, -0.25f, 0)), SHOVE_OK);
        cr_assert_eq(SHOVE_FN(world_step)(w), SHOVE_OK);
        const shove_move_result m = result_of(w, mob);
        const shove_move_result p = result_of(w, player);
        cr_expect(!p.stepped, "the sneaking player never steps up");
        mob_stepped = mob_stepped || m.stepped;
        player_blocked = player_blocked || (p.hit_wall && p.on_ground);
    }
    cr_expect(mob_stepped, "the mob climbed its curb");
    cr_expect(player_blocked, "the player was stopped by its curb (or the crate it pushes)");
    cr_expect(test_box_of(w, player).min.raw[1] == 0.0f, "the player stays on the floor");

    /* NULL: back to the world's settings; the player climbs too. */
    cr_assert_eq(SHOVE_FN(body_set_move_def)(w, player, NULL), SHOVE_OK);
    cr_assert_eq(SHOVE_FN(body_set_box)(w, crate, rect(40, 0, 41, 1)), SHOVE_OK);
    cr_assert_eq(SHOVE_FN(body_set_box)(w, player, rect(24, 0, 24.5f, 1.5f)), SHOVE_OK);
    cr_assert_eq(SHOVE_FN(body_set_motion)(w, player, V(1, -0.25f, 0)), SHOVE_OK);
    cr_assert_eq(SHOVE_FN(world_step)(w), SHOVE_OK);
    cr_expect(result_of(w, player).stepped);
    SHOVE_FN(world_destroy)(w);
}

/* Issue 18's scene: a sneaking player (edge guard, no step height, slower
 * than the mobs) pushes two crates along a ledge, in the same steps as
 * 1,000 mobs with the world's settings walking into the walls of their
 * pens; get_result tells who stands and who is blocked. */
Test(body_settings, sneaking_player_pushes_crates_among_a_thousand_mobs) {
    const shove_move_def world_settings = mob_def();
    shove_world *w = new_world(&world_settings);
    /* The ledge: floor up to x = 8, then a drop. */
    test_add_body(w, rect(-10, -1, 8, 0), SHOVE_BODY_STATIC, 0);
    const shove_id player = test_add_body(w, rect(0, 0, 0.6f, 1.8f), SHOVE_BODY_DYNAMIC, 0);
    const shove_id crates[2] = {test_add_body(w, rect(1, 0, 2, 1), SHOVE_BODY_DYNAMIC, 9),
                                test_add_body(w, rect(2.5f, 0, 3.5f, 1), SHOVE_BODY_DYNAMIC, 9)};
    const shove_move_def sneak = sneak_def();
    cr_assert_eq(SHOVE_FN(body_set_move_def)(w, player, &sneak), SHOVE_OK);
    /* 20 pens of 50 mobs: a shelf, a wall at its end, priorities 0..7. */
    enum { PENS = 20, PER_PEN = 50, MOBS = PENS * PER_PEN };
    static shove_id mobs[MOBS];
    for (int k = 0; k < PENS; ++k) {
        const float y = 5.0f * (float)k;
        test_add_body(w, rect(20, y - 1, 80, y), SHOVE_BODY_STATIC, 0);
        test_add_body(w, rect(70.5f, y, 71.5f, y + 3), SHOVE_BODY_STATIC, 0);
        for (int i = 0; i < PER_PEN; ++i) {
            const float x = 20.0f + (float)i;
            mobs[k * PER_PEN + i] = test_add_body(w, rect(x, y, x + 0.6f, y + 1.8f),
                                                  SHOVE_BODY_DYNAMIC, (i * 5 + k) % 8);
        }
    }
    const float player_speed = 0.125f, mob_speed = 0.5f;
    bool pushed_freely = false;
    for (int step = 0; step < 70; ++step) {
        cr_assert_eq(SHOVE_FN(body_set_motion)(w, player, V(player_speed, -0.25f, 0)), SHOVE_OK);
        for (int m = 0; m < MOBS; ++m) {
            cr_assert_eq(SHOVE_FN(body_set_motion)(w, mobs[m], V(mob_speed, -0.25f, 0)), SHOVE_OK);
        }
        cr_assert_eq(SHOVE_FN(world_step)(w), SHOVE_OK);
        const shove_move_result p = result_of(w, player);
        cr_expect(p.on_ground, "step %d: the sneaking player stands on the ledge", step);
        cr_expect(!p.stepped);
        if (step == 10) {
            /* Pushing the first crate (which pushes the second): no wall. */
            cr_expect(!p.hit_wall);
            cr_expect_float_eq(p.delta.raw[0], player_speed, 1e-6f);
            pushed_freely = true;
        }
    }
    cr_expect(pushed_freely);
    /* The player pushed the crates and kept its footing at the drop. */
    const shove_aabb pb = test_box_of(w, player);
    cr_expect(pb.min.raw[0] < 8.0f, "edge guard: the player keeps footing (min x %g)",
              (double)pb.min.raw[0]);
    cr_expect(pb.max.raw[0] > 7.0f, "the player walked up to the edge (max x %g)",
              (double)pb.max.raw[0]);
    cr_expect(pb.min.raw[1] == 0.0f, "the player never fell");
    cr_expect(test_box_of(w, crates[0]).min.raw[0] >= pb.max.raw[0],
              "crate 0 is ahead of the player");
    cr_expect(test_box_of(w, crates[1]).min.raw[0] >= test_box_of(w, crates[0]).max.raw[0]);
    /* The mobs: every one stands on its shelf; the front one of each pen
     * walks into the wall, and they never overlap. */
    for (int k = 0; k < PENS; ++k) {
        int front = -1;
        for (int i = 0; i < PER_PEN; ++i) {
            const int m = k * PER_PEN + i;
            const shove_move_result r = result_of(w, mobs[m]);
            cr_expect(r.on_ground, "pen %d mob %d stands", k, i);
            cr_expect(r.box.min.raw[1] == 5.0f * (float)k);
            if (front < 0 || r.box.max.raw[0] > test_box_of(w, mobs[front]).max.raw[0]) {
                front = m;
            }
            for (int j = i + 1; j < PER_PEN; ++j) {
                cr_expect(!SHOVE_FN(aabb_overlaps)(r.box, test_box_of(w, mobs[k * PER_PEN + j])),
                          "pen %d: mobs %d and %d overlap", k, i, j);
            }
        }
        const shove_move_result f = result_of(w, mobs[front]);
        cr_expect(f.hit_wall, "pen %d: the front mob is blocked by the wall", k);
        cr_expect(f.box.max.raw[0] == 70.5f, "pen %d: the front mob is at the wall", k);
    }
    SHOVE_FN(world_destroy)(w);
}

/* The same settings as every body's own def, or as the world's step_def:
 * the same boxes, results and events, bit for bit. */
typedef struct event_log {
    shove_event e[8192];
    int count;
} event_log;

static void log_event(void *ctx, const shove_event *e) {
    event_log *log = ctx;
    if (log->count < 8192) {
        log->e[log->count] = *e;
    }
    log->count += 1;
}

static void build_crowd(shove_world *w, shove_id *ids, int n, test_rng *rng) {
    test_add_body(w, rect(-40, -1, 40, 0), SHOVE_BODY_STATIC, 0);
    test_add_body(w, rect(-41, 0, -40, 10), SHOVE_BODY_STATIC, 0);
    test_add_body(w, rect(40, 0, 41, 10), SHOVE_BODY_STATIC, 0);
    test_add_body(w, rect(-10, 0, -8, 0.5f), SHOVE_BODY_STATIC, 0);
    for (int i = 0; i < n; ++i) {
        const float x = -38.0f + 0.75f * (float)(i % 100);
        const float y = 2.0f * (float)(i / 100);
        ids[i] = test_add_body(w, rect(x, y, x + 0.6f, y + 1.8f), SHOVE_BODY_DYNAMIC,
                               test_rng_int(rng, 0, 7));
    }
}

Test(body_settings, every_body_with_a_def_steps_like_the_step_def) {
    shove_move_def d = SHOVE_FN(default_move_def)();
    d.skin = 1.0f / 1024.0f;
    d.step_height = 0.6f;
    d.edge_guard = true;
    d.max_iterations = 6;
    enum { N = 300 };
    static event_log logs[2];
    static shove_id ids[2][N];
    shove_world *w[2];
    for (int k = 0; k < 2; ++k) {
        shove_world_def def = SHOVE_FN(default_world_def)();
        def.bounds = rect(-64, -64, 64, 64);
        if (k == 0) {
            def.step_def = d;
        }
        logs[k].count = 0;
        def.event_fn = log_event;
        def.event_ctx = &logs[k];
        cr_assert_eq(SHOVE_FN(world_create)(&def, &w[k]), SHOVE_OK);
        test_rng rng = {18u};
        build_crowd(w[k], ids[k], N, &rng);
        if (k == 1) {
            for (int i = 0; i < N; ++i) {
                cr_assert_eq(SHOVE_FN(body_set_move_def)(w[k], ids[k][i], &d), SHOVE_OK);
            }
        }
    }
    for (int step = 0; step < 30; ++step) {
        test_rng motions = {1000u + (uint64_t)step};
        for (int i = 0; i < N; ++i) {
            const float dx = test_rng_float(&motions, -0.6f, 0.6f);
            for (int k = 0; k < 2; ++k) {
                cr_assert_eq(SHOVE_FN(body_set_motion)(w[k], ids[k][i], V(dx, -0.3f, 0)), SHOVE_OK);
            }
        }
        for (int k = 0; k < 2; ++k) {
            logs[k].count = 0;
            cr_assert_eq(SHOVE_FN(world_step)(w[k]), SHOVE_OK);
        }
        cr_assert_eq(logs[0].count, logs[1].count, "step %d: event counts differ", step);
        const int kept = logs[0].count < 8192 ? logs[0].count : 8192;
        for (int e = 0; e < kept; ++e) {
            cr_assert_eq(logs[0].e[e].type, logs[1].e[e].type, "step %d event %d", step, e);
            cr_assert_eq(logs[0].e[e].a.index, logs[1].e[e].a.index, "step %d event %d", step, e);
            cr_assert_eq(logs[0].e[e].b.index, logs[1].e[e].b.index, "step %d event %d", step, e);
        }
        int grounded = 0;
        for (int i = 0; i < N; ++i) {
            const shove_move_result a = result_of(w[0], ids[0][i]);
            const shove_move_result b = result_of(w[1], ids[1][i]);
            cr_assert(same_box(a.box, b.box), "step %d body %d: boxes differ", step, i);
            cr_assert(test_vec_same_bits(a.delta, b.delta), "step %d body %d: deltas differ", step,
                      i);
            cr_assert_eq(a.contact_count, b.contact_count);
            cr_assert(a.on_ground == b.on_ground && a.hit_wall == b.hit_wall &&
                      a.hit_ceiling == b.hit_ceiling && a.stepped == b.stepped);
            grounded += a.on_ground;
        }
        cr_expect(grounded > 0, "step %d: some body stands", step);
    }
    SHOVE_FN(world_destroy)(w[0]);
    SHOVE_FN(world_destroy)(w[1]);
}

Test(body_settings, bad_input_changes_nothing) {
    shove_world *w = new_world(NULL);
    test_add_body(w, rect(-10, -1, 10, 0), SHOVE_BODY_STATIC, 0);
    const shove_id a = test_add_body(w, rect(0, 0, 1, 2), SHOVE_BODY_DYNAMIC, 0);
    const shove_id gone = test_add_body(w, rect(3, 0, 4, 2), SHOVE_BODY_DYNAMIC, 0);
    cr_assert_eq(SHOVE_FN(body_destroy)(w, gone), SHOVE_OK);
    const shove_move_def good = sneak_def();
    cr_assert_eq(SHOVE_FN(body_set_move_def)(w, a, &good), SHOVE_OK);
    char *before = world_text(w);
    cr_assert(strstr(before, "movedef") != NULL, "the dump shows the body's own def");

    shove_move_def bad[8];
    for (int i = 0; i < 8; ++i) {
        bad[i] = SHOVE_FN(default_move_def)();
    }
    bad[0].skin = -1.0f;
    bad[1].step_height = NAN;
    bad[2].max_iterations = 0;
    bad[3].max_iterations = 65;
    bad[4].up_axis = SHOVE_DIM;
    bad[5].up_axis = -2;
    bad[6].response = (shove_response)99;
    bad[7].internal_literal_mark = 12345u; /* never initialised */
    for (int i = 0; i < 8; ++i) {
        cr_expect_eq(SHOVE_FN(body_set_move_def)(w, a, &bad[i]), SHOVE_ERR_INVALID_ARGUMENT,
                     "bad def %d", i);
    }
    const shove_move_def unmarked_bad = {.skin = -0.5f};
    cr_expect_eq(SHOVE_FN(body_set_move_def)(w, a, &unmarked_bad), SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect_eq(SHOVE_FN(body_set_move_def)(NULL, a, &good), SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect_eq(SHOVE_FN(body_set_move_def)(w, gone, &good), SHOVE_ERR_STALE_ID);
    cr_expect_eq(SHOVE_FN(body_set_move_def)(w, gone, NULL), SHOVE_ERR_STALE_ID);
    const shove_id null_id = {0, 0};
    cr_expect_eq(SHOVE_FN(body_set_move_def)(w, null_id, &good), SHOVE_ERR_STALE_ID);

    shove_move_result r;
    memset(&r, 0x5A, sizeof r);
    shove_move_result untouched = r;
    cr_expect_eq(SHOVE_FN(body_get_result)(NULL, a, &r), SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect_eq(SHOVE_FN(body_get_result)(w, a, NULL), SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect_eq(SHOVE_FN(body_get_result)(w, gone, &r), SHOVE_ERR_STALE_ID);
    cr_expect_eq(SHOVE_FN(body_get_result)(w, null_id, &r), SHOVE_ERR_STALE_ID);
    cr_expect(memcmp(&r, &untouched, sizeof r) == 0, "a refused get_result wrote its out");

    char *after = world_text(w);
    cr_expect_str_eq(before, after);
    free(before);
    free(after);
    SHOVE_FN(world_destroy)(w);
}

/* From an event callback of a step: set_move_def is refused, get_result
 * reads the results the step already wrote. */
typedef struct nest {
    shove_world *w;
    shove_id body;
    int calls, locked, read_ok;
    shove_move_result seen;
} nest;

static void from_event(void *ctx, const shove_event *e) {
    (void)e;
    nest *n = ctx;
    n->calls += 1;
    const shove_move_def def = sneak_def();
    n->locked += SHOVE_FN(body_set_move_def)(n->w, n->body, &def) == SHOVE_ERR_LOCKED;
    n->locked += SHOVE_FN(body_set_move_def)(n->w, n->body, NULL) == SHOVE_ERR_LOCKED;
    n->read_ok += SHOVE_FN(body_get_result)(n->w, n->body, &n->seen) == SHOVE_OK;
}

Test(body_settings, from_a_callback) {
    static nest n;
    memset(&n, 0, sizeof n);
    shove_world_def def = SHOVE_FN(default_world_def)();
    def.event_fn = from_event;
    def.event_ctx = &n;
    cr_assert_eq(SHOVE_FN(world_create)(&def, &n.w), SHOVE_OK);
    test_add_body(n.w, rect(-10, -1, 10, 0), SHOVE_BODY_STATIC, 0);
    n.body = test_add_body(n.w, rect(0, 0.5f, 1, 2.5f), SHOVE_BODY_DYNAMIC, 0);
    const shove_move_def mine = mob_def();
    cr_assert_eq(SHOVE_FN(body_set_move_def)(n.w, n.body, &mine), SHOVE_OK);
    char *before = world_text(n.w);
    cr_assert_eq(SHOVE_FN(body_set_motion)(n.w, n.body, V(0.25f, -1, 0)), SHOVE_OK);
    cr_assert_eq(SHOVE_FN(world_step)(n.w), SHOVE_OK); /* lands: a contact begins */
    cr_assert(n.calls > 0, "the landing must raise an event");
    cr_expect_eq(n.locked, 2 * n.calls);
    cr_expect_eq(n.read_ok, n.calls);
    cr_expect(n.seen.on_ground, "the callback saw this step's result");
    cr_expect_float_eq(n.seen.delta.raw[1], -0.5f, 1e-6f);
    /* The body's own def is still the one set before the step. */
    char *after = world_text(n.w);
    const char *line_before = strstr(before, "movedef");
    const char *line_after = strstr(after, "movedef");
    cr_assert(line_before && line_after);
    cr_expect(strncmp(line_before, line_after, (size_t)(strchr(line_before, '\n') - line_before)) ==
              0);
    free(before);
    free(after);
    SHOVE_FN(world_destroy)(n.w);
}

Test(body_settings, own_settings_survive_dump_and_load) {
    shove_world *w = new_world(NULL);
    test_add_body(w, rect(-10, -1, 10, 0), SHOVE_BODY_STATIC, 0);
    const shove_id a = test_add_body(w, rect(0, 0, 1, 2), SHOVE_BODY_DYNAMIC, 0);
    test_add_body(w, rect(3, 0, 4, 2), SHOVE_BODY_DYNAMIC, 0);
    shove_move_def def = sneak_def();
    def.skin = 0.001f;
    def.max_iterations = 5;
    def.response = SHOVE_RESPONSE_TOUCH;
    cr_assert_eq(SHOVE_FN(body_set_move_def)(w, a, &def), SHOVE_OK);
    cr_assert_eq(SHOVE_FN(body_set_motion)(w, a, V(1, 0, 0)), SHOVE_OK);
    char *text = world_text(w);
    FILE *f = tmpfile();
    cr_assert_not_null(f);
    fputs(text, f);
    rewind(f);
    shove_world *loaded = NULL;
    cr_assert_eq(SHOVE_FN(world_load)(NULL, f, &loaded), SHOVE_OK);
    fclose(f);
    char *again = world_text(loaded);
    cr_expect_str_eq(text, again);
    /* Both step alike. */
    cr_assert_eq(SHOVE_FN(world_step)(w), SHOVE_OK);
    cr_assert_eq(SHOVE_FN(world_step)(loaded), SHOVE_OK);
    shove_id la;
    cr_assert_eq(SHOVE_FN(world_body_at)(loaded, a.index, &la), SHOVE_OK);
    cr_expect(same_box(test_box_of(w, a), test_box_of(loaded, la)));
    free(text);
    free(again);
    SHOVE_FN(world_destroy)(loaded);
    SHOVE_FN(world_destroy)(w);
}

/* A body's def entry goes back when it is destroyed or reset; a new body
 * in the slot steps with the world's settings; setting again allocates
 * nothing. */
Test(body_settings, entries_are_reused_and_setting_again_allocates_nothing) {
    test_alloc counter = {.fail_after = -1};
    shove_world_def def = SHOVE_FN(default_world_def)();
    def.allocator.realloc = test_alloc_realloc;
    def.allocator.ctx = &counter;
    def.step_def = mob_def();
    shove_world *w = NULL;
    cr_assert_eq(SHOVE_FN(world_create)(&def, &w), SHOVE_OK);
    test_add_body(w, rect(-10, -1, 10, 0), SHOVE_BODY_STATIC, 0);
    test_add_body(w, rect(2, 0, 3, 0.5f), SHOVE_BODY_STATIC, 0);
    const shove_id a = test_add_body(w, rect(0, 0, 1, 2), SHOVE_BODY_DYNAMIC, 0);
    const shove_move_def sneak = sneak_def();
    cr_assert_eq(SHOVE_FN(body_set_move_def)(w, a, &sneak), SHOVE_OK);
    const long calls = counter.calls;
    for (int i = 0; i < 10; ++i) {
        cr_assert_eq(SHOVE_FN(body_set_move_def)(w, a, &sneak), SHOVE_OK);
    }
    cr_expect_eq(counter.calls, calls, "setting a def again allocated");
    cr_assert_eq(SHOVE_FN(body_destroy)(w, a), SHOVE_OK);
    const shove_id b = test_add_body(w, rect(0, 0, 1, 2), SHOVE_BODY_DYNAMIC, 0);
    cr_assert_eq(b.index, a.index, "the slot is reused");
    char *text = world_text(w);
    cr_expect(strstr(text, "movedef") == NULL, "a new body in the slot has no own def");
    free(text);
    cr_assert_eq(SHOVE_FN(body_set_motion)(w, b, V(2, -0.25f, 0)), SHOVE_OK);
    cr_assert_eq(SHOVE_FN(world_step)(w), SHOVE_OK);
    cr_expect(result_of(w, b).stepped, "the new body steps up with the world's settings");
    const shove_id c = test_add_body(w, rect(-5, 0, -4, 2), SHOVE_BODY_DYNAMIC, 0);
    const long before = counter.calls;
    cr_assert_eq(SHOVE_FN(body_set_move_def)(w, c, &sneak), SHOVE_OK);
    cr_expect_eq(counter.calls, before, "the freed entry is reused");
    SHOVE_FN(world_destroy)(w);
    cr_expect_eq(counter.live, 0);
}
