/*
 * move_dim_test.c: shove3_move in a world: bit for bit the same as
 * shove3_slide over the same boxes, filtering by category and mask in both
 * directions, sensors, events, contacts to draw, bad input, and no heap
 * allocation per move in steady state.
 */
#include <stdlib.h>

#include "test_alloc.h"
#include "test_dim.h"
#include "test_world_ops.h"
#include "world/move.h"
#include "world/world.h"

static shove_world *new_world(shove_event_fn fn, void *ctx) {
    shove_world_def def = SHOVE_FN(default_world_def)();
    def.event_fn = fn;
    def.event_ctx = ctx;
    shove_world *w = NULL;
    cr_assert_eq(SHOVE_FN(world_create)(&def, &w), SHOVE_OK);
    return w;
}

static shove_id add(shove_world *w, shove_aabb box, shove_body_type type, uint64_t category,
                    uint64_t mask, bool sensor) {
    shove_body_def def = SHOVE_FN(default_body_def)();
    def.box = box;
    def.type = type;
    def.category = category;
    def.mask = mask;
    def.sensor = sensor;
    shove_id id;
    cr_assert_eq(SHOVE_FN(body_create)(w, &def, &id), SHOVE_OK);
    return id;
}

static shove_id add_static(shove_world *w, shove_aabb box) {
    return add(w, box, SHOVE_BODY_STATIC, 1u, UINT64_MAX, false);
}

static shove_id add_dynamic(shove_world *w, shove_aabb box) {
    return add(w, box, SHOVE_BODY_DYNAMIC, 1u, UINT64_MAX, false);
}

static shove_move_result move(shove_world *w, shove_id id, shove_vec d) {
    shove_move_result r;
    cr_assert_eq(SHOVE_FN(move)(w, id, d, NULL, &r), SHOVE_OK);
    return r;
}

/* >>move == slide ------------------------------------------------------------ */

enum { MAX_BODIES = 512 };

/* One filter for both calls: the world passes body ids, the list passes
 * indices, and both map to the same body. */
typedef struct response_table {
    shove_response of_slot[MAX_BODIES];
    bool sensor[MAX_BODIES];
    uint32_t slot_of_index[MAX_BODIES];
} response_table;

static shove_response table_filter(void *ctx, shove_id mover, const shove_obstacle *obstacle) {
    (void)mover;
    const shove_id other = obstacle->other;
    const int32_t index = obstacle->index;
    const response_table *t = ctx;
    const uint32_t slot = (index >= 0) ? t->slot_of_index[index] : other.index;
    const shove_response r = t->of_slot[slot];
    /* the list knows nothing of sensors: say what the world says */
    return (t->sensor[slot] && r != SHOVE_RESPONSE_IGNORE) ? SHOVE_RESPONSE_CROSS : r;
}

typedef struct contact_key {
    float t;
    shove_vec normal;
    shove_response response;
    uint32_t slot;
} contact_key;

static int compare_keys(const void *pa, const void *pb) {
    const contact_key *a = pa, *b = pb;
    if (a->t != b->t) {
        return a->t < b->t ? -1 : 1;
    }
    if (a->slot != b->slot) {
        return a->slot < b->slot ? -1 : 1;
    }
    const int n = memcmp(&a->normal, &b->normal, sizeof a->normal);
    if (n != 0) {
        return n;
    }
    return (int)a->response - (int)b->response;
}

static bool same_bits(const void *a, const void *b, size_t n) {
    return memcmp(a, b, n) == 0;
}

/* Move `mover` in the world and slide its box over the boxes of every body
 * it interacts with (in slot order): both must agree bit for bit. */
static void expect_move_is_slide(shove_world *w, shove_id mover, shove_vec delta,
                                 shove_move_def def, response_table *table) {
    static shove_aabb list[MAX_BODIES];
    size_t n = 0;
    const uint32_t me = mover.index;
    for (uint32_t slot = 0; slot < w->slot_count; ++slot) {
        if ((w->flags[slot] & SHOVE_SLOT_ALIVE) && slot != me &&
            SHOVE_IFN(world_interacts)(w, me, slot)) {
            table->slot_of_index[n] = slot;
            list[n++] = w->box[slot];
        }
        table->sensor[slot] = (w->flags[slot] & SHOVE_SLOT_SENSOR) != 0;
    }
    const bool mover_is_sensor = table->sensor[me];
    if (mover_is_sensor) {
        return; /* a sensor mover crosses everything; the list cannot say so */
    }
    shove_contact via_world[64], via_list[64];
    def.filter = table_filter;
    def.filter_ctx = table;
    def.contacts = via_list;
    def.contact_capacity = 64;
    shove_move_result slid, moved;
    const shove_aabb start = w->box[me];
    cr_assert_eq(SHOVE_FN(slide)(start, delta, list, n, &def, &slid), SHOVE_OK);
    def.contacts = via_world;
    cr_assert_eq(SHOVE_FN(move)(w, mover, delta, &def, &moved), SHOVE_OK);
    cr_assert(same_bits(&slid.box, &moved.box, sizeof slid.box), "end boxes differ");
    cr_assert(same_bits(&slid.delta, &moved.delta, sizeof slid.delta));
    cr_assert_eq(slid.on_ground, moved.on_ground);
    cr_assert_eq(slid.hit_ceiling, moved.hit_ceiling);
    cr_assert_eq(slid.hit_wall, moved.hit_wall);
    cr_assert_eq(slid.stepped, moved.stepped);
    cr_assert_eq(slid.contact_count, moved.contact_count);
    cr_assert(same_bits(&moved.box, &w->box[me], sizeof moved.box), "box written back");
    const int k = (moved.contact_count < 64) ? moved.contact_count : 64;
    contact_key a[64], b[64];
    for (int i = 0; i < k; ++i) {
        cr_assert_eq(via_list[i].index >= 0, true);
        cr_assert(shove_id_is_null(via_list[i].other));
        cr_assert_eq(via_world[i].index, -1);
        cr_assert(SHOVE_FN(body_is_valid)(w, via_world[i].other));
        a[i] = (contact_key){via_list[i].t, via_list[i].normal, via_list[i].response,
                             table->slot_of_index[via_list[i].index]};
        b[i] = (contact_key){via_world[i].t, via_world[i].normal, via_world[i].response,
                             via_world[i].other.index};
    }
    qsort(a, (size_t)k, sizeof a[0], compare_keys);
    qsort(b, (size_t)k, sizeof b[0], compare_keys);
    for (int i = 0; i < k; ++i) {
        cr_assert(same_bits(&a[i], &b[i], sizeof a[i]), "contact %d differs", i);
    }
}

static shove_move_def random_def(test_rng *r) {
    shove_move_def def = SHOVE_FN(default_move_def)();
    def.up_axis = test_rng_int(r, 0, 3) == 0 ? -1 : 1;
    def.step_height = test_rng_int(r, 0, 2) == 0 && def.up_axis >= 0 ? 0.6f : 0.0f;
    def.edge_guard = def.up_axis >= 0 && test_rng_int(r, 0, 3) == 0;
    def.max_iterations = test_rng_int(r, 1, 8);
    return def;
}

Test(move, equals_slide_over_the_same_boxes) {
    shove_world *w = new_world(NULL, NULL);
    static response_table table;
    test_rng r = {0xabc0 + SHOVE_DIM};
    static const shove_response kinds[] = {
        SHOVE_RESPONSE_SLIDE,  SHOVE_RESPONSE_SLIDE, SHOVE_RESPONSE_SLIDE, SHOVE_RESPONSE_TOUCH,
        SHOVE_RESPONSE_BOUNCE, SHOVE_RESPONSE_CROSS, SHOVE_RESPONSE_IGNORE};
    shove_id movers[100];
    int mover_count = 0;
    /* a tiled floor, scattered blocks, and movers (some overlapping things) */
    for (int i = 0; i < 60; ++i) {
        add_static(w, BOX(i - 30, -1, -4, i - 29, 0, 4));
    }
    for (int i = 0; i < 300; ++i) {
        const bool dynamic = i % 3 == 0;
        const shove_aabb b = test_random_box(&r, 25.0f, 0.3f, 3.0f);
        const uint64_t category = 1ull << test_rng_int(&r, 0, 2);
        const uint64_t mask = (test_rng_int(&r, 0, 3) == 0) ? 3u : UINT64_MAX;
        const shove_id id = add(w, b, dynamic ? SHOVE_BODY_DYNAMIC : SHOVE_BODY_STATIC, category,
                                mask, test_rng_int(&r, 0, 15) == 0);
        table.of_slot[id.index] = kinds[test_rng_int(&r, 0, 6)];
        if (dynamic && mover_count < 100) {
            movers[mover_count++] = id;
        }
    }
    for (uint32_t s = 0; s < 60; ++s) {
        table.of_slot[s] = SHOVE_RESPONSE_SLIDE;
    }
    for (int k = 0; k < 1500; ++k) {
        const shove_id m = movers[test_rng_int(&r, 0, mover_count - 1)];
        shove_vec d;
        for (int a = 0; a < SHOVE_DIM; ++a) {
            d.raw[a] = test_rng_int(&r, 0, 4) == 0 ? 0.0f : test_rng_float(&r, -4.0f, 4.0f);
        }
        if (k % 4 == 0) {
            d.raw[1] = -0.5f; /* press down: ground contacts, steps and edges */
        }
        expect_move_is_slide(w, m, d, random_def(&r), &table);
    }
    SHOVE_FN(world_destroy)(w);
}

Test(move, seam_floor_stays_bit_exact) {
    /* scenario 1 through the world: 50 tiles, a 0.5 mover pressing down */
    shove_world *w = new_world(NULL, NULL);
    for (int i = 0; i < 50; ++i) {
        add_static(w, BOX(i, -1, 0, i + 1, 0, 1));
    }
    const shove_id m = add_dynamic(w, BOX(0.25, 0, 0.25, 0.75, 0.5, 0.75));
    const float y0 = test_box_of(w, m).min.y;
    for (int f = 0; f < 100; ++f) {
        const float x0 = test_box_of(w, m).min.x;
        const shove_move_result res = move(w, m, V(0.2, -0.1, 0));
        cr_assert_eq(res.box.min.x, x0 + 0.2f, "frame %d", f);
        cr_assert_eq(res.box.min.y, y0, "frame %d", f);
        cr_assert(res.on_ground);
    }
    SHOVE_FN(world_destroy)(w);
}

/* >>static near lists -------------------------------------------------------- */

/* Gather around `mover` as a move does (through its static_near list), then
 * again by walking both trees (the list forgotten and the static tree made
 * to look busy, so the walk does not fill a list): the two sets must be
 * equal, in order. Returns whether the first gather took its static bodies
 * from the list; *crowded says whether that list was too full to keep. */
static bool expect_gather_is_walk(shove_world *w, uint32_t mover, shove_vec delta, float margin,
                                  bool *crowded) {
    SHOVE_IFN(obstacle_set) listed, walked;
    SHOVE_IFN(obstacles_init)(&listed, NULL);
    SHOVE_IFN(obstacles_init)(&walked, NULL);
    const SHOVE_T(static_near) before = w->static_near[mover];
    SHOVE_T(world_gather_ctx) g;
    memset(&g, 0, sizeof g);
    g.w = w;
    g.mover = mover;
    g.region = w->box[mover];
    cr_assert(SHOVE_IFN(world_gather)(&g, w->box[mover], delta, margin, &listed));
    const bool used =
        before.stamp == w->static_stamp && SHOVE_IFN(contains_unchecked)(before.region, g.region);
    *crowded = used && before.count > SHOVE_STATIC_NEAR_SLOTS;
    const SHOVE_T(static_near) kept = w->static_near[mover];
    const uint32_t calm = w->static_calm;
    w->static_near[mover].stamp = 0u;
    w->static_calm = 0u;
    cr_assert(SHOVE_IFN(world_gather)(&g, w->box[mover], delta, margin, &walked));
    cr_assert_eq(w->static_near[mover].stamp, 0u, "the reference walk filled no list");
    w->static_near[mover] = kept;
    w->static_calm = calm;
    cr_assert_eq(listed.count, walked.count, "%zu obstacles through the list, %zu by the walk",
                 listed.count, walked.count);
    for (size_t i = 0; i < listed.count; ++i) {
        const shove_aabb a = SHOVE_IFN(obstacles_box)(&listed, i);
        const shove_aabb b = SHOVE_IFN(obstacles_box)(&walked, i);
        cr_assert(same_bits(&a, &b, sizeof a), "obstacle %zu differs", i);
        cr_assert(same_bits(&listed.id[i], &walked.id[i], sizeof listed.id[i]));
        cr_assert_eq(listed.flags[i], walked.flags[i]);
    }
    SHOVE_IFN(obstacles_free)(&listed);
    SHOVE_IFN(obstacles_free)(&walked);
    return used;
}

Test(static_near, gathers_equal_the_tree_walk_in_order) {
    shove_world *w = new_world(NULL, NULL);
    test_rng r = {0x51a7 + SHOVE_DIM};
    /* a floor, scattered blocks, a crowded heap, and a few walkers */
    for (int i = 0; i < 40; ++i) {
        add_static(w, BOX(i - 20, -1, -4, i - 19, 0, 4));
    }
    for (int i = 0; i < 200; ++i) {
        add(w, test_random_box(&r, 20.0f, 0.3f, 2.0f), SHOVE_BODY_STATIC,
            1ull << test_rng_int(&r, 0, 1), UINT64_MAX, test_rng_int(&r, 0, 9) == 0);
    }
    for (int i = 0; i < 40; ++i) {
        add_static(w, test_random_box(&r, 1.5f, 0.2f, 0.6f));
    }
    enum { WALKERS = 12 };
    shove_id walkers[WALKERS];
    for (int i = 0; i < WALKERS; ++i) {
        /* the first two start in the heap */
        walkers[i] =
            add(w, test_random_box(&r, i < 2 ? 1.0f : 15.0f, 0.4f, 1.0f), SHOVE_BODY_DYNAMIC,
                1ull << test_rng_int(&r, 0, 1), i % 3 ? UINT64_MAX : 1u, i == 5);
    }
    int used = 0, crowded = 0, changes = 0;
    for (int k = 0; k < 3000; ++k) {
        const shove_id m = walkers[test_rng_int(&r, 0, WALKERS - 1)];
        shove_vec d;
        for (int a = 0; a < SHOVE_DIM; ++a) {
            d.raw[a] = test_rng_float(&r, -0.4f, 0.4f);
        }
        bool full = false;
        used += expect_gather_is_walk(w, m.index, d, test_rng_float(&r, 0.0f, 0.2f), &full);
        crowded += full;
        shove_move_result res;
        cr_assert_eq(SHOVE_FN(move)(w, m, d, NULL, &res), SHOVE_OK);
        if (k % 150 == 149) {
            /* a static body appears, goes, or jumps: every list is stale */
            const uint32_t victim = (uint32_t)test_rng_int(&r, 40, 239);
            const shove_id id = SHOVE_IFN(world_id)(w, victim);
            const shove_aabb near_walker = test_random_box(&r, 1.0f, 0.3f, 1.0f);
            shove_aabb there = test_box_of(w, m);
            for (int a = 0; a < SHOVE_DIM; ++a) {
                there.min.raw[a] += near_walker.min.raw[a];
                there.max.raw[a] =
                    there.min.raw[a] + (near_walker.max.raw[a] - near_walker.min.raw[a]);
            }
            if (SHOVE_FN(body_is_valid)(w, id)) {
                cr_assert_eq(SHOVE_FN(body_set_box)(w, id, there), SHOVE_OK);
            } else {
                add_static(w, there);
            }
            changes += 1;
        }
    }
    cr_expect_gt(used, 1000, "the lists were used (%d of 3000 gathers)", used);
    cr_expect_gt(crowded, 0, "some gathers met a crowded list");
    cr_expect_gt(changes, 10);
    SHOVE_FN(world_destroy)(w);
}

Test(static_near, a_changed_static_body_is_seen_at_once) {
    shove_world *w = new_world(NULL, NULL);
    add_static(w, BOX(-50, -1, -5, 50, 0, 5));
    const shove_id far = add_static(w, BOX(40, 0, 0, 41, 2, 1));
    const shove_id m = add_dynamic(w, BOX(0, 0, 0, 1, 1, 1));
    move(w, m, V(0.1, -0.1, 0));
    cr_assert_eq(w->static_near[m.index].stamp, w->static_stamp, "the walker keeps a list");
    /* a wall appears just ahead, inside the list's region (moves stay
     * short, so they keep using the list unless it is stale) */
    float x = test_box_of(w, m).max.x;
    const shove_id wall = add_static(w, BOX(x + 0.05, 0, 0, x + 0.5, 2, 1));
    shove_move_result res = move(w, m, V(0.2, -0.1, 0));
    cr_expect(res.hit_wall, "the new wall blocks");
    cr_expect_leq(res.box.max.x, x + 0.05f);
    /* it is destroyed: the way is free */
    cr_assert_eq(SHOVE_FN(body_destroy)(w, wall), SHOVE_OK);
    x = test_box_of(w, m).max.x;
    res = move(w, m, V(0.2, -0.1, 0));
    cr_expect(!res.hit_wall, "the wall was destroyed");
    cr_expect_eq(res.box.max.x, x + 0.2f);
    for (int f = 0; f < 3; ++f) {
        move(w, m, V(0.05, -0.1, 0));
    }
    /* a wall from far away jumps in front */
    x = test_box_of(w, m).max.x;
    cr_assert_eq(SHOVE_FN(body_set_box)(w, far, BOX(x + 0.05, 0, 0, x + 0.5, 2, 1)), SHOVE_OK);
    res = move(w, m, V(0.2, -0.1, 0));
    cr_expect(res.hit_wall, "the far wall is in front now");
    cr_expect_leq(res.box.max.x, x + 0.05f);
    /* shifting the origin moves every box: the lists are stale */
    cr_assert_eq(w->static_near[m.index].stamp, w->static_stamp);
    cr_assert_eq(SHOVE_FN(world_shift_origin)(w, V(3, 0, 0)), SHOVE_OK);
    cr_expect_neq(w->static_near[m.index].stamp, w->static_stamp);
    SHOVE_FN(world_destroy)(w);
}

/* >>filtering ---------------------------------------------------------------- */

Test(filter, both_bodies_must_accept_each_other) {
    shove_world *w = new_world(NULL, NULL);
    /* player (1) collides with walls (2); walls collide with players */
    const shove_id wall = add(w, BOX(2, -5, -5, 3, 5, 5), SHOVE_BODY_STATIC, 2u, 1u, false);
    const shove_id player = add(w, BOX(0, 0, 0, 1, 1, 1), SHOVE_BODY_DYNAMIC, 1u, 2u, false);
    shove_move_result r = move(w, player, V(5, 0, 0));
    cr_expect_leq(r.box.max.x, 2.0f, "blocked: both accept");
    cr_expect(r.hit_wall);
    /* a ghost (4) is accepted by nobody; it walks through the wall */
    const shove_id ghost = add(w, BOX(0, 2, 0, 1, 3, 1), SHOVE_BODY_DYNAMIC, 4u, UINT64_MAX, false);
    r = move(w, ghost, V(5, 0, 0));
    cr_expect_eq(r.box.min.x, 5.0f, "the wall's mask refuses the ghost");
    /* a body whose own mask leaves walls out passes too */
    const shove_id blind = add(w, BOX(0, -3, 0, 1, -2, 1), SHOVE_BODY_DYNAMIC, 1u, 1u, false);
    r = move(w, blind, V(5, 0, 0));
    cr_expect_eq(r.box.min.x, 5.0f, "the mover's mask refuses the wall");
    /* and the other way round: the wall moving at the player is blocked */
    cr_assert_eq(SHOVE_FN(body_set_box)(w, player, BOX(5, 0, 0, 6, 1, 1)), SHOVE_OK);
    r = move(w, wall, V(5, 0, 0));
    cr_expect_leq(r.box.max.x, 5.0f);
    /* queries use the caller's mask on categories only */
    cr_expect_eq(SHOVE_FN(query_box)(w, BOX(-100, -100, -100, 100, 100, 100), 4u, NULL, 0), 1u);
    SHOVE_FN(world_destroy)(w);
}

/* >>events ------------------------------------------------------------------- */

typedef struct event_log {
    shove_event list[64];
    int count;
} event_log;

static void log_event(void *ctx, const shove_event *e) {
    event_log *log = ctx;
    if (log->count < 64) {
        log->list[log->count] = *e;
    }
    log->count += 1;
}

/* The events of the last move equal the callback's since `from`. */
static size_t events_of_last_move(const shove_world *w, const event_log *log, int from,
                                  const shove_event **out) {
    const size_t n = SHOVE_FN(world_get_events)(w, out);
    cr_assert_eq((int)n, log->count - from, "callback and list disagree");
    for (size_t i = 0; i < n; ++i) {
        cr_assert(same_bits(&(*out)[i], &log->list[from + (int)i], sizeof(shove_event)));
    }
    return n;
}

Test(events, landing_sliding_and_leaving) {
    event_log log = {0};
    shove_world *w = new_world(log_event, &log);
    const shove_id t0 = add_static(w, BOX(0, -1, 0, 1, 0, 1));
    const shove_id t1 = add_static(w, BOX(1, -1, 0, 2, 0, 1));
    const shove_id m = add_dynamic(w, BOX(0.25, 1, 0.25, 0.5, 1.5, 0.5));
    const shove_event *ev;

    int mark = log.count;
    move(w, m, V(0, -2, 0)); /* lands on t0 */
    size_t n = events_of_last_move(w, &log, mark, &ev);
    cr_assert_eq(n, 1u);
    cr_expect_eq(ev[0].type, SHOVE_EVENT_CONTACT_BEGIN);
    cr_expect(shove_id_equal(ev[0].a, m));
    cr_expect(shove_id_equal(ev[0].b, t0));
    EXPECT_VEC_EQ(ev[0].normal, V(0, 1, 0));

    mark = log.count;
    move(w, m, V(0.25, -0.1, 0)); /* slides along t0, stays in contact */
    cr_expect_eq(events_of_last_move(w, &log, mark, &ev), 0u, "no change, no event");

    mark = log.count;
    move(w, m, V(0.4, -0.1, 0)); /* now over the seam: touches both */
    n = events_of_last_move(w, &log, mark, &ev);
    cr_assert_eq(n, 1u);
    cr_expect_eq(ev[0].type, SHOVE_EVENT_CONTACT_BEGIN);
    cr_expect(shove_id_equal(ev[0].b, t1));

    mark = log.count;
    move(w, m, V(0.5, -0.1, 0)); /* only over t1 */
    n = events_of_last_move(w, &log, mark, &ev);
    cr_assert_eq(n, 1u);
    cr_expect_eq(ev[0].type, SHOVE_EVENT_CONTACT_END);
    cr_expect(shove_id_equal(ev[0].a, m));
    cr_expect(shove_id_equal(ev[0].b, t0));

    mark = log.count;
    move(w, m, V(0, 3, 0)); /* jumps off */
    n = events_of_last_move(w, &log, mark, &ev);
    cr_assert_eq(n, 1u);
    cr_expect_eq(ev[0].type, SHOVE_EVENT_CONTACT_END);
    cr_expect(shove_id_equal(ev[0].b, t1));

    /* the list belongs to the last move only */
    mark = log.count;
    move(w, m, V(1, 0, 0));
    cr_expect_eq(events_of_last_move(w, &log, mark, &ev), 0u);
    cr_expect_null(ev);
    SHOVE_FN(world_destroy)(w);
}

Test(events, sliding_far_from_the_origin_does_not_flicker) {
    /* at 100000 a float step is 1/128: rounding must not make a resting
     * mover leave and touch its floor again frame after frame */
    shove_world_def wd = SHOVE_FN(default_world_def)();
    wd.bounds = BOX(99000, -100, -100, 101000, 100, 100);
    shove_world *w = NULL;
    cr_assert_eq(SHOVE_FN(world_create)(&wd, &w), SHOVE_OK);
    shove_id tiles[10];
    for (int i = 0; i < 10; ++i) {
        tiles[i] = add_static(w, BOX(100000 + i, -1, 0, 100001 + i, 0, 1));
    }
    const shove_id m = add_dynamic(w, BOX(100000.25, 0.5, 0.25, 100000.75, 1.5, 0.75));
    int begins[10] = {0}, ends[10] = {0};
    for (int f = 0; f < 40; ++f) {
        shove_move_result r;
        cr_assert_eq(SHOVE_FN(move)(w, m, V(0.2, -0.3, 0), NULL, &r), SHOVE_OK);
        if (f > 2) {
            cr_assert(r.on_ground, "frame %d", f);
        }
        const shove_event *ev;
        const size_t n = SHOVE_FN(world_get_events)(w, &ev);
        for (size_t i = 0; i < n; ++i) {
            cr_assert(shove_id_equal(ev[i].a, m));
            const uint32_t t = ev[i].b.index - tiles[0].index;
            cr_assert_lt(t, 10u);
            if (ev[i].type == SHOVE_EVENT_CONTACT_BEGIN) {
                begins[t] += 1;
                EXPECT_VEC_EQ(ev[i].normal, V(0, 1, 0));
            } else {
                cr_assert_eq(ev[i].type, SHOVE_EVENT_CONTACT_END);
                ends[t] += 1;
                cr_assert_eq(begins[t], 1, "tile %u ends before it began", t);
            }
        }
    }
    for (int t = 0; t < 9; ++t) {
        cr_expect_eq(begins[t], 1, "tile %d: one begin", t);
        cr_expect_leq(ends[t], 1, "tile %d: at most one end", t);
    }
    cr_expect_eq(ends[0], 1, "the first tile was left");
    SHOVE_FN(world_destroy)(w);
}

/* A pair can end while its other body is nowhere near the mover (it was
 * set somewhere else since they met). That body must then be free to
 * begin a contact with the next body that meets it. */
Test(events, a_pair_ended_from_afar_leaves_its_body_free_to_meet_again) {
    event_log log = {0};
    shove_world *w = new_world(log_event, &log);
    const shove_id a = add_dynamic(w, BOX(0, 0, 0, 1, 1, 1));
    const shove_id b = add_static(w, BOX(2, 0, 0, 3, 1, 1));
    const shove_id c = add_dynamic(w, BOX(20, 0, 0, 21, 1, 1));
    const shove_event *ev;
    move(w, a, V(2, 0, 0)); /* a runs into b */
    cr_assert_eq(SHOVE_FN(world_get_events)(w, &ev), 1u);
    cr_assert_eq(ev[0].type, SHOVE_EVENT_CONTACT_BEGIN);
    /* b is set far away; the pair stays until a move of one of them */
    cr_assert_eq(SHOVE_FN(body_set_box)(w, b, BOX(60, 0, 0, 61, 1, 1)), SHOVE_OK);
    move(w, a, V(-0.5, 0, 0)); /* a's move ends it, with b far from a's gather */
    cr_assert_eq(SHOVE_FN(world_get_events)(w, &ev), 1u);
    cr_expect_eq(ev[0].type, SHOVE_EVENT_CONTACT_END);
    cr_expect(shove_id_equal(ev[0].b, b));
    /* b next to c, c runs into it: a new pair, with its event */
    cr_assert_eq(SHOVE_FN(body_set_box)(w, b, BOX(22, 0, 0, 23, 1, 1)), SHOVE_OK);
    move(w, c, V(2, 0, 0));
    cr_assert_eq(SHOVE_FN(world_get_events)(w, &ev), 1u, "c meets b");
    cr_expect_eq(ev[0].type, SHOVE_EVENT_CONTACT_BEGIN);
    cr_expect(shove_id_equal(ev[0].a, c));
    cr_expect(shove_id_equal(ev[0].b, b));
    move(w, c, V(-2, 0, 0)); /* and leaves it again */
    cr_assert_eq(SHOVE_FN(world_get_events)(w, &ev), 1u, "c leaves b");
    cr_expect_eq(ev[0].type, SHOVE_EVENT_CONTACT_END);
    SHOVE_FN(world_destroy)(w);
}

Test(events, the_other_body_moving_away_ends_the_contact) {
    event_log log = {0};
    shove_world *w = new_world(log_event, &log);
    const shove_id a = add_dynamic(w, BOX(0, 0, 0, 1, 1, 1));
    const shove_id b = add_dynamic(w, BOX(3, 0, 0, 4, 1, 1));
    move(w, a, V(5, 0, 0)); /* a runs into b */
    const shove_event *ev;
    cr_assert_eq(SHOVE_FN(world_get_events)(w, &ev), 1u);
    cr_expect_eq(ev[0].type, SHOVE_EVENT_CONTACT_BEGIN);
    EXPECT_VEC_EQ(ev[0].normal, V(-1, 0, 0));
    move(w, b, V(3, 0, 0)); /* b leaves: its move ends the pair */
    cr_assert_eq(SHOVE_FN(world_get_events)(w, &ev), 1u);
    cr_expect_eq(ev[0].type, SHOVE_EVENT_CONTACT_END);
    cr_expect(shove_id_equal(ev[0].a, b));
    cr_expect(shove_id_equal(ev[0].b, a));
    /* a destroyed partner is forgotten without events */
    move(w, a, V(5, 0, 0));
    cr_assert_eq(SHOVE_FN(world_get_events)(w, &ev), 1u);
    cr_assert_eq(SHOVE_FN(body_destroy)(w, b), SHOVE_OK);
    move(w, a, V(-5, 0, 0));
    cr_expect_eq(SHOVE_FN(world_get_events)(w, &ev), 0u);
    cr_expect_eq(w->pair_head[a.index], SHOVE_TREE_NONE);
    SHOVE_FN(world_destroy)(w);
}

static shove_response ignore_all(void *ctx, shove_id mover, const shove_obstacle *obstacle) {
    (void)mover;
    const shove_id other = obstacle->other;
    const int32_t index = obstacle->index;
    (void)ctx;
    (void)other;
    (void)index;
    return SHOVE_RESPONSE_IGNORE;
}

static shove_response cross_all(void *ctx, shove_id mover, const shove_obstacle *obstacle) {
    (void)mover;
    const shove_id other = obstacle->other;
    const int32_t index = obstacle->index;
    (void)ctx;
    (void)other;
    (void)index;
    return SHOVE_RESPONSE_CROSS;
}

Test(events, sensors_enter_exit_and_are_crossed) {
    event_log log = {0};
    shove_world *w = new_world(log_event, &log);
    const shove_id zone = add(w, BOX(3, -2, -2, 5, 2, 2), SHOVE_BODY_STATIC, 1u, UINT64_MAX, true);
    const shove_id m = add_dynamic(w, BOX(0, 0, 0, 1, 1, 1));
    shove_contact contacts[4];
    shove_move_def def = SHOVE_FN(default_move_def)();
    def.contacts = contacts;
    def.contact_capacity = 4;
    shove_move_result r;
    const shove_event *ev;

    cr_assert_eq(SHOVE_FN(move)(w, m, V(3, 0, 0), &def, &r), SHOVE_OK);
    cr_expect_eq(r.box.min.x, 3.0f, "a sensor never blocks");
    cr_assert_eq(r.contact_count, 1);
    cr_expect_eq(contacts[0].response, SHOVE_RESPONSE_CROSS);
    cr_expect(shove_id_equal(contacts[0].other, zone));
    cr_assert_eq(SHOVE_FN(world_get_events)(w, &ev), 1u);
    cr_expect_eq(ev[0].type, SHOVE_EVENT_SENSOR_ENTER);
    cr_expect(shove_id_equal(ev[0].a, m), "a is the visitor");
    cr_expect(shove_id_equal(ev[0].b, zone), "b is the sensor");

    cr_assert_eq(SHOVE_FN(move)(w, m, V(0.5, 0, 0), &def, &r), SHOVE_OK);
    cr_expect_eq(SHOVE_FN(world_get_events)(w, &ev), 0u, "still inside");

    cr_assert_eq(SHOVE_FN(move)(w, m, V(3, 0, 0), &def, &r), SHOVE_OK);
    cr_assert_eq(SHOVE_FN(world_get_events)(w, &ev), 1u);
    cr_expect_eq(ev[0].type, SHOVE_EVENT_SENSOR_EXIT);

    /* straight through in one move: enter and exit at once */
    cr_assert_eq(SHOVE_FN(move)(w, m, V(-10, 0, 0), &def, &r), SHOVE_OK);
    cr_assert_eq(SHOVE_FN(world_get_events)(w, &ev), 2u);
    cr_expect_eq(ev[0].type, SHOVE_EVENT_SENSOR_ENTER);
    cr_expect_eq(ev[1].type, SHOVE_EVENT_SENSOR_EXIT);

    /* a filter that ignores the sensor: nothing at all */
    def.filter = ignore_all;
    cr_assert_eq(SHOVE_FN(move)(w, m, V(10, 0, 0), &def, &r), SHOVE_OK);
    cr_expect_eq(r.contact_count, 0);
    cr_expect_eq(SHOVE_FN(world_get_events)(w, &ev), 0u);
    def.filter = NULL;

    /* the sensor moving over a body: the body is still the visitor */
    const shove_id block = add_static(w, BOX(-10, 5, -1, -9, 6, 1));
    cr_assert_eq(SHOVE_FN(body_set_box)(w, zone, BOX(-10, 8, -2, -8, 12, 2)), SHOVE_OK);
    cr_assert_eq(SHOVE_FN(move)(w, zone, V(0, -4, 0), &def, &r), SHOVE_OK);
    cr_expect_eq(r.box.min.y, 4.0f, "a moving sensor crosses everything");
    cr_assert_eq(SHOVE_FN(world_get_events)(w, &ev), 1u);
    cr_expect_eq(ev[0].type, SHOVE_EVENT_SENSOR_ENTER);
    cr_expect(shove_id_equal(ev[0].a, block));
    cr_expect(shove_id_equal(ev[0].b, zone));

    /* sensors do not sense sensors */
    const shove_id other_zone =
        add(w, BOX(20, 0, -1, 21, 1, 1), SHOVE_BODY_DYNAMIC, 1u, UINT64_MAX, true);
    cr_assert_eq(SHOVE_FN(body_set_box)(w, zone, BOX(18, 0, -1, 19, 1, 1)), SHOVE_OK);
    cr_assert_eq(SHOVE_FN(move)(w, other_zone, V(-1.5, 0, 0), &def, &r), SHOVE_OK);
    cr_expect_eq(SHOVE_FN(world_get_events)(w, &ev), 0u);
    SHOVE_FN(world_destroy)(w);
}

Test(events, crossing_a_solid_reports_begin_and_end) {
    shove_world *w = new_world(NULL, NULL);
    const shove_id wall = add_static(w, BOX(2, -2, -2, 2.5, 2, 2));
    const shove_id bullet = add_dynamic(w, BOX(0, 0, 0, 0.1, 0.1, 0.1));
    shove_move_def def = SHOVE_FN(default_move_def)();
    def.filter = cross_all;
    shove_move_result r;
    cr_assert_eq(SHOVE_FN(move)(w, bullet, V(5, 0, 0), &def, &r), SHOVE_OK);
    cr_expect_eq(r.box.min.x, 5.0f);
    const shove_event *ev;
    cr_assert_eq(SHOVE_FN(world_get_events)(w, &ev), 2u);
    cr_expect_eq(ev[0].type, SHOVE_EVENT_CONTACT_BEGIN);
    cr_expect(shove_id_equal(ev[0].b, wall));
    EXPECT_VEC_EQ(ev[0].normal, V(-1, 0, 0));
    cr_expect_eq(ev[1].type, SHOVE_EVENT_CONTACT_END);
    /* ending inside a crossed body is a contact that lasts */
    cr_assert_eq(SHOVE_FN(move)(w, bullet, V(-2.7, 0, 0), &def, &r), SHOVE_OK);
    cr_assert_eq(SHOVE_FN(world_get_events)(w, &ev), 1u);
    cr_expect_eq(ev[0].type, SHOVE_EVENT_CONTACT_BEGIN);
    SHOVE_FN(world_destroy)(w);
}

Test(events, corners_are_not_contacts) {
    shove_world *w = new_world(NULL, NULL);
    add_static(w, BOX(0, -1, 0, 1, 0, 1));
    add_static(w, BOX(1, 0, 0, 2, 1, 1)); /* a step right of the tile */
    const shove_id m = add_dynamic(w, BOX(0.5, 0, 0, 1, 0.5, 1));
    move(w, m, V(0, -0.5, 0)); /* resting on the tile, against the step's face */
    const shove_event *ev;
    cr_assert_eq(SHOVE_FN(world_get_events)(w, &ev), 2u, "the tile below and the step beside");
    const shove_id lone = add_dynamic(w, BOX(-1, 0.5, 0, -0.5, 1, 1));
    /* only the corner of the tile is near (diagonally, within the skin) */
    cr_assert_eq(SHOVE_FN(body_set_box)(w, lone, BOX(-0.5, 0.0005, 0, 0, 0.5005, 1)), SHOVE_OK);
    move(w, lone, V(0, 0, 0));
    cr_expect_eq(SHOVE_FN(world_get_events)(w, &ev), 0u);
    SHOVE_FN(world_destroy)(w);
}

/* >>contacts and drawing ----------------------------------------------------- */

typedef struct draw_count {
    int points, normals;
    shove_vec last_normal;
} draw_count;

static void count_point(void *ctx, shove_vec p, uint32_t c) {
    (void)p;
    (void)c;
    ((draw_count *)ctx)->points += 1;
}
static void count_normal(void *ctx, shove_vec p, shove_vec n, uint32_t c) {
    (void)p;
    (void)c;
    ((draw_count *)ctx)->normals += 1;
    ((draw_count *)ctx)->last_normal = n;
}

Test(move, contacts_fill_what_room_there_is_and_are_drawn) {
    shove_world *w = new_world(NULL, NULL);
    for (int i = 0; i < 5; ++i) {
        add(w, BOX(2 + i, -2, -2, 2.5 + i, 2, 2), SHOVE_BODY_STATIC, 1u, UINT64_MAX, true);
    }
    add_static(w, BOX(10, -2, -2, 11, 2, 2));
    const shove_id m = add_dynamic(w, BOX(0, 0, 0, 1, 1, 1));
    shove_contact contacts[3];
    memset(contacts, 0xAB, sizeof contacts);
    shove_move_def def = SHOVE_FN(default_move_def)();
    def.contacts = contacts;
    def.contact_capacity = 2;
    shove_move_result r;
    cr_assert_eq(SHOVE_FN(move)(w, m, V(20, 0, 0), &def, &r), SHOVE_OK);
    cr_expect_eq(r.contact_count, 6, "five sensors crossed, one wall");
    cr_expect_leq(r.box.max.x, 10.0f);
    cr_expect_eq(contacts[0].response, SHOVE_RESPONSE_CROSS);
    unsigned char untouched[sizeof contacts[2]];
    memset(untouched, 0xAB, sizeof untouched);
    cr_expect(same_bits(&contacts[2], untouched, sizeof untouched), "room for 2 means 2");
    draw_count count = {0};
    shove_debug_draw draw = {NULL, count_point, count_normal, false, true, false, &count};
    SHOVE_FN(world_draw)(w, &draw);
    cr_expect_eq(count.points, 6);
    cr_expect_eq(count.normals, 6);
    EXPECT_VEC_EQ(count.last_normal, V(-1, 0, 0));
    SHOVE_FN(world_destroy)(w);
}

/* >>bad input ---------------------------------------------------------------- */

Test(move, bad_input_is_refused_and_changes_nothing) {
    shove_world *w = new_world(NULL, NULL);
    add_static(w, BOX(0, -1, 0, 10, 0, 1));
    const shove_id m = add_dynamic(w, BOX(1, 0.5, 0, 2, 1.5, 1));
    move(w, m, V(0, -5, 0)); /* lands: one event in the list */
    const shove_event *ev;
    cr_assert_eq(SHOVE_FN(world_get_events)(w, &ev), 1u);
    const shove_aabb before = test_box_of(w, m);
    shove_move_result r;
    memset(&r, 0x5A, sizeof r);
    const shove_move_result untouched = r;
    shove_move_def bad = SHOVE_FN(default_move_def)();
    bad.max_iterations = 0;
    cr_expect_eq(SHOVE_FN(move)(NULL, m, V(1, 0, 0), NULL, &r), SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect_eq(SHOVE_FN(move)(w, m, V(1, 0, 0), NULL, NULL), SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect_eq(SHOVE_FN(move)(w, m, V(NAN, 0, 0), NULL, &r), SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect_eq(SHOVE_FN(move)(w, m, V(0, INFINITY, 0), NULL, &r), SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect_eq(SHOVE_FN(move)(w, m, V(1, 0, 0), &bad, &r), SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect_eq(SHOVE_FN(move)(w, SHOVE_NULL_ID, V(1, 0, 0), NULL, &r), SHOVE_ERR_STALE_ID);
    const shove_id gone = add_dynamic(w, BOX(5, 5, 0, 6, 6, 1));
    cr_assert_eq(SHOVE_FN(body_destroy)(w, gone), SHOVE_OK);
    cr_expect_eq(SHOVE_FN(move)(w, gone, V(1, 0, 0), NULL, &r), SHOVE_ERR_STALE_ID);
    cr_expect(same_bits(&r, &untouched, sizeof r), "out untouched");
    const shove_aabb after = test_box_of(w, m);
    cr_expect(same_bits(&before, &after, sizeof before));
    cr_expect_eq(SHOVE_FN(world_get_events)(w, &ev), 1u, "the event list is kept");
    SHOVE_FN(world_destroy)(w);
}

Test(move, out_of_memory_changes_nothing) {
    test_alloc counter;
    shove_world_def wd = SHOVE_FN(default_world_def)();
    wd.allocator = test_alloc_make(&counter);
    wd.body_capacity = 8;
    shove_world *w = NULL;
    cr_assert_eq(SHOVE_FN(world_create)(&wd, &w), SHOVE_OK);
    for (int i = 0; i < 40; ++i) {
        add_static(w, BOX(i, -1, 0, i + 1, 0, 1));
    }
    const shove_id m = add_dynamic(w, BOX(0, 0, 0, 1, 1, 1));
    const shove_aabb before = test_box_of(w, m);
    counter.fail_after = counter.calls; /* nothing more may be allocated */
    shove_move_result r;
    const shove_status s = SHOVE_FN(move)(w, m, V(30, -1, 0), NULL, &r);
    cr_expect_eq(s, SHOVE_ERR_OUT_OF_MEMORY, "the first move needs scratch memory");
    const shove_aabb after = test_box_of(w, m);
    cr_expect(same_bits(&before, &after, sizeof before));
    counter.fail_after = -1;
    cr_expect_eq(SHOVE_FN(move)(w, m, V(30, -1, 0), NULL, &r), SHOVE_OK);
    cr_expect_eq(r.box.min.x, 30.0f);
    SHOVE_FN(world_destroy)(w);
    cr_expect_eq(counter.live, 0);
}

/* >>allocation --------------------------------------------------------------- */

Test(move, no_allocation_per_move_in_steady_state) {
    test_alloc counter;
    shove_world_def wd = SHOVE_FN(default_world_def)();
    wd.allocator = test_alloc_make(&counter);
    shove_world *w = NULL;
    cr_assert_eq(SHOVE_FN(world_create)(&wd, &w), SHOVE_OK);
    /* 60 corridors, each a floor of 6 tiles between two walls, with a
     * sensor half way; a mover walks back and forth in each, running into
     * both walls every period, so the motion repeats exactly. Movers do not
     * collide with each other. */
    enum { MOVERS = 60 };
    shove_id movers[MOVERS];
    for (int c = 0; c < MOVERS; ++c) {
        const float x0 = (float)(c % 15) * 8.0f - 60.0f;
        const float y0 = (float)(c / 15) * 3.0f - 15.0f;
        for (int i = 0; i < 6; ++i) {
            add_static(w, BOX(x0 + i, y0 - 1, 0, x0 + i + 1, y0, 1));
        }
        add_static(w, BOX(x0 - 1, y0, 0, x0, y0 + 2, 1));
        add_static(w, BOX(x0 + 6, y0, 0, x0 + 7, y0 + 2, 1));
        add(w, BOX(x0 + 2, y0, 0, x0 + 3, y0 + 2, 1), SHOVE_BODY_STATIC, 1u, UINT64_MAX, true);
        movers[c] = add(w, BOX(x0 + 0.5, y0 + 0.5, 0.25, x0 + 1, y0 + 1.5, 0.75),
                        SHOVE_BODY_DYNAMIC, 2u, 1u, false);
    }
    long before = 0;
    long events = 0;
    /* a period is 40 frames: three to settle, two to measure */
    for (int frame = 0; frame < 200; ++frame) {
        if (frame == 120) {
            before = counter.calls;
        }
        const float vx = ((frame / 20) % 2) ? -0.4f : 0.4f;
        for (int c = 0; c < MOVERS; ++c) {
            shove_move_result res;
            cr_assert_eq(SHOVE_FN(move)(w, movers[c], V(vx, -0.2, 0), NULL, &res), SHOVE_OK);
            events += (long)SHOVE_FN(world_get_events)(w, NULL);
        }
    }
    cr_expect_eq(counter.calls - before, 0, "%ld allocations in 4800 steady moves",
                 counter.calls - before);
    cr_expect_gt(before, 0, "warming up did allocate (the counter works)");
    cr_expect_gt(events, 10 * MOVERS, "the movers met walls, tiles and sensors on the way");
    SHOVE_FN(world_destroy)(w);
    cr_expect_eq(counter.live, 0);
    cr_expect(!counter.size_error);
}
