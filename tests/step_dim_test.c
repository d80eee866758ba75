/*
 * step_dim_test.c: shove3_body_set_motion and shove3_world_step, the priority
 * / transitive shove solver: scenarios 9 (transitive shove) and 10 (moving
 * platform) of scenarios_dim_test.c, chains of 100 bodies, pushers into walls
 * and from opposite sides, mixed priorities, platforms with riders, riders of
 * riders and obstacles, squish events, randomized crowded scenes checked for
 * overlaps by brute force, voxels (tiles) as walls, floors and ceilings,
 * order independence (the same scene built in shuffled orders ends bit for
 * bit the same), bad input, running out of memory and no allocation per step
 * in steady state. The step_skin suite runs the scenarios again with
 * step_def.skin = 1/1024 (the default is 0).
 *
 * Scenes are drawn in x (sideways) and y (up); in 3D every box spans z in
 * [0, 1], so every picture is a slab.
 */
#include <stdlib.h>

#include "test_alloc.h"
#include "test_dim.h"
#include "test_world_ops.h"
#include "test_voxel_map.h"
#include "world/world.h"

/* step_def.skin of the worlds the tests make: the default (0) for every
 * test; the step_skin suite runs the scenarios again with a positive one. */
static float g_skin = 0.0f;
#define SKIN g_skin

/* "In contact" (world/pairs.c): 2 * skin plus a few float steps, here for the
 * coordinates of these scenes (all within +-100). */
static float contact_tolerance(void) {
    return SHOVE_IFN(world_contact_distance)(g_skin, BOX(-100, -100, -100, 100, 100, 100));
}
#define CONTACT contact_tolerance()

enum { MAX_EVENTS = 4096 };

typedef struct event_log {
    shove_event e[MAX_EVENTS];
    int count;
} event_log;

static void log_event(void *ctx, const shove_event *e) {
    event_log *log = ctx;
    if (log->count < MAX_EVENTS) {
        log->e[log->count] = *e;
    }
    log->count += 1;
}

static shove_world *new_world(event_log *log) {
    shove_world_def def = SHOVE_FN(default_world_def)();
    def.worker_count = test_worker_count();
    def.step_def.skin = g_skin;
    if (log) {
        log->count = 0;
        def.event_fn = log_event;
        def.event_ctx = log;
    }
    shove_world *w = NULL;
    cr_assert_eq(SHOVE_FN(world_create)(&def, &w), SHOVE_OK);
    return w;
}

/* A box x0..x1, y0..y1 (z 0..1 in 3D). */
static shove_aabb rect(float x0, float y0, float x1, float y1) {
    return BOX(x0, y0, 0, x1, y1, 1);
}

static shove_id add_static(shove_world *w, shove_aabb box) {
    return test_add_body(w, box, SHOVE_BODY_STATIC, 0);
}

static shove_id add_dynamic(shove_world *w, shove_aabb box, int priority) {
    return test_add_body(w, box, SHOVE_BODY_DYNAMIC, priority);
}

static void set_motion(shove_world *w, shove_id id, float x, float y) {
    cr_assert_eq(SHOVE_FN(body_set_motion)(w, id, V(x, y, 0)), SHOVE_OK);
}

static void step(shove_world *w) {
    const shove_status s = SHOVE_FN(world_step)(w);
    cr_assert_eq(s, SHOVE_OK, "step refused: %s", shove_status_string(s));
}

static shove_aabb shifted(shove_aabb b, float x, float y) {
    b.min.raw[0] += x;
    b.max.raw[0] += x;
    b.min.raw[1] += y;
    b.max.raw[1] += y;
    return b;
}

static bool same_box(shove_aabb a, shove_aabb b) {
    return memcmp(&a, &b, sizeof a) == 0;
}

#define EXPECT_BOX_EQ(got, want)                                                                   \
    do {                                                                                           \
        const shove_aabb g_ = (got), w_ = (want);                                                  \
        cr_expect(same_box(g_, w_),                                                                \
                  "%s: x %.9g..%.9g y %.9g..%.9g, want x %.9g..%.9g y %.9g..%.9g", #got,           \
                  (double)g_.min.raw[0], (double)g_.max.raw[0], (double)g_.min.raw[1],             \
                  (double)g_.max.raw[1], (double)w_.min.raw[0], (double)w_.max.raw[0],             \
                  (double)w_.min.raw[1], (double)w_.max.raw[1]);                                   \
    } while (0)

/* Every pair of bodies, brute force: true when none overlaps another. */
static bool no_overlaps(const shove_world *w, const shove_id *ids, int n, int *first, int *second) {
    for (int i = 0; i < n; ++i) {
        const shove_aabb a = test_box_of(w, ids[i]);
        for (int j = i + 1; j < n; ++j) {
            if (SHOVE_FN(aabb_overlaps)(a, test_box_of(w, ids[j]))) {
                *first = i;
                *second = j;
                return false;
            }
        }
    }
    return true;
}

/* Gap from a's right face to b's left face. */
static float gap_x(shove_aabb a, shove_aabb b) {
    return b.min.raw[0] - a.max.raw[0];
}

static int count_events(const event_log *log, shove_event_type type) {
    int n = 0;
    for (int i = 0; i < log->count && i < MAX_EVENTS; ++i) {
        n += log->e[i].type == type;
    }
    return n;
}

/* The squish event naming `body`, or NULL. */
static const shove_event *squish_of(const event_log *log, shove_id body) {
    for (int i = 0; i < log->count && i < MAX_EVENTS; ++i) {
        if (log->e[i].type == SHOVE_EVENT_SQUISH && shove_id_equal(log->e[i].a, body)) {
            return &log->e[i];
        }
    }
    return NULL;
}

/* A step test, run twice: with the default skin (0) and with a skin of
 * 1/1024 (g_skin, read by the helpers above). */
#define STEP_TEST(name)                                                                            \
    static void name(void);                                                                        \
    Test(step, name) {                                                                             \
        name();                                                                                    \
    }                                                                                              \
    Test(step_skin, name) {                                                                        \
        g_skin = 1.0f / 1024.0f;                                                                   \
        name();                                                                                    \
    }                                                                                              \
    static void name(void)

/* >>scenario 9: transitive shove ---------------------------------------------- */

STEP_TEST(scenario_9_transitive_push_moves_the_whole_row) {
    shove_world *w = new_world(NULL);
    const shove_id a = add_dynamic(w, rect(0, 0, 1, 1), 1);
    const shove_id b = add_dynamic(w, rect(1, 0, 2, 1), 4);
    const shove_id c = add_dynamic(w, rect(2, 0, 3, 1), 2);
    set_motion(w, a, 3, 0);
    step(w);
    /* B pushes C with A's priority (1 < 2), not its own (4 > 2) */
    EXPECT_BOX_EQ(test_box_of(w, a), rect(3, 0, 4, 1));
    EXPECT_BOX_EQ(test_box_of(w, b), rect(4, 0, 5, 1));
    EXPECT_BOX_EQ(test_box_of(w, c), rect(5, 0, 6, 1));
    /* the motion was used up: another step moves nothing */
    step(w);
    EXPECT_BOX_EQ(test_box_of(w, a), rect(3, 0, 4, 1));
    SHOVE_FN(world_destroy)(w);
}

STEP_TEST(scenario_9_bodies_apart_are_pushed_once_reached) {
    shove_world *w = new_world(NULL);
    const shove_id a = add_dynamic(w, rect(0, 0, 1, 1), 1);
    const shove_id b = add_dynamic(w, rect(1.5, 0, 2.5, 1), 4);
    const shove_id c = add_dynamic(w, rect(3, 0, 4, 1), 2);
    set_motion(w, a, 3, 0);
    step(w);
    EXPECT_BOX_EQ(test_box_of(w, a), rect(3, 0, 4, 1));
    /* B ends in front of A, one skin away (the gap it had, kept up to a skin) */
    cr_expect_float_eq(test_box_of(w, b).min.x, 4.0f + SKIN, 1e-6f);
    cr_expect(gap_x(test_box_of(w, b), test_box_of(w, c)) >= 0.0f);
    cr_expect(gap_x(test_box_of(w, b), test_box_of(w, c)) <= SKIN + 1e-6f);
    SHOVE_FN(world_destroy)(w);
}

STEP_TEST(scenario_9_weaker_or_equal_movers_are_blocked) {
    for (int equal = 0; equal < 2; ++equal) {
        event_log log;
        shove_world *w = new_world(&log);
        const shove_id a = add_dynamic(w, rect(0, 0, 1, 1), equal ? 2 : 3);
        const shove_id b = add_dynamic(w, rect(2, 0, 3, 1), 2);
        set_motion(w, a, 3, 0);
        step(w);
        EXPECT_BOX_EQ(test_box_of(w, b), rect(2, 0, 3, 1));
        /* A slides up to B and stops one skin short */
        const shove_aabb ab = test_box_of(w, a);
        cr_expect_float_eq(gap_x(ab, test_box_of(w, b)), SKIN, 1e-6f, "equal=%d", equal);
        cr_expect_eq(count_events(&log, SHOVE_EVENT_SQUISH), 0, "nothing was caught");
        SHOVE_FN(world_destroy)(w);
    }
}

STEP_TEST(scenario_9_chain_into_a_wall_stops_face_to_face_and_squishes) {
    event_log log;
    shove_world *w = new_world(&log);
    const shove_id a = add_dynamic(w, rect(0, 0, 1, 1), 1);
    const shove_id b = add_dynamic(w, rect(1, 0, 2, 1), 4);
    const shove_id c = add_dynamic(w, rect(2, 0, 3, 1), 2);
    const shove_id wall = add_static(w, rect(4, -1, 5, 2));
    set_motion(w, a, 3, 0);
    step(w);
    const shove_aabb ba = test_box_of(w, a), bb = test_box_of(w, b), bc = test_box_of(w, c);
    const shove_aabb bw = test_box_of(w, wall);
    cr_expect_gt(ba.min.x, 0.9f, "the row moved up to the wall");
    const float gaps[3] = {gap_x(ba, bb), gap_x(bb, bc), gap_x(bc, bw)};
    for (int i = 0; i < 3; ++i) {
        cr_expect(gaps[i] >= 0.0f && gaps[i] <= CONTACT, "gap %d is %.9g", i, (double)gaps[i]);
    }
    const shove_id ids[4] = {a, b, c, wall};
    int i, j;
    cr_expect(no_overlaps(w, ids, 4, &i, &j));
    /* C is caught between B and the wall, B between A and C */
    const shove_event *sc = squish_of(&log, c);
    const shove_event *sb = squish_of(&log, b);
    cr_assert_not_null(sc, "C is squished");
    cr_assert_not_null(sb, "B is squished");
    cr_expect(shove_id_equal(sc->b, b), "C's pusher is B");
    cr_expect(shove_id_equal(sb->b, a), "B's pusher is A");
    EXPECT_VEC_EQ(sc->normal, V(1, 0, 0));
    cr_expect(squish_of(&log, a) == NULL, "the pusher is not squished");
    /* the world's event list says the same */
    const shove_event *events = NULL;
    const size_t n = SHOVE_FN(world_get_events)(w, &events);
    int squishes = 0;
    for (size_t k = 0; k < n; ++k) {
        squishes += events[k].type == SHOVE_EVENT_SQUISH;
    }
    cr_expect_eq(squishes, 2);
    SHOVE_FN(world_destroy)(w);
}

/* >>chains ------------------------------------------------------------------- */

Test(step, chain_of_100_moves_as_one) {
    enum { N = 100 };
    shove_world *w = new_world(NULL);
    shove_id ids[N];
    for (int i = 0; i < N; ++i) {
        ids[i] = add_dynamic(w, rect((float)i, 0, (float)i + 1, 1), 1 + (i * 7) % 200);
    }
    const shove_id pusher = add_dynamic(w, rect(-1, 0, 0, 1), 0);
    set_motion(w, pusher, 2.5f, 0);
    step(w);
    EXPECT_BOX_EQ(test_box_of(w, pusher), rect(1.5f, 0, 2.5f, 1));
    for (int i = 0; i < N; ++i) {
        EXPECT_BOX_EQ(test_box_of(w, ids[i]), rect((float)i + 2.5f, 0, (float)i + 3.5f, 1));
    }
    SHOVE_FN(world_destroy)(w);
}

STEP_TEST(chain_of_100_into_a_wall) {
    enum { N = 100 };
    event_log log;
    shove_world *w = new_world(&log);
    shove_id ids[N + 2];
    for (int i = 0; i < N; ++i) {
        /* gaps of 0.01 between the bodies: they close up against the wall */
        const float x = (float)i * 1.01f;
        ids[i] = add_dynamic(w, rect(x, 0, x + 1, 1), 5);
    }
    ids[N] = add_dynamic(w, rect(-1.5f, 0, -0.5f, 1), 0);
    ids[N + 1] = add_static(w, rect(102, -5, 103, 5));
    set_motion(w, ids[N], 10, 0);
    step(w);
    int i, j;
    cr_expect(no_overlaps(w, ids, N + 2, &i, &j), "bodies %d and %d overlap", i, j);
    /* wall, then every body face to face with the next, then the pusher */
    cr_expect_leq(gap_x(test_box_of(w, ids[N - 1]), test_box_of(w, ids[N + 1])), CONTACT);
    for (int k = 0; k + 1 < N; ++k) {
        const float g = gap_x(test_box_of(w, ids[k]), test_box_of(w, ids[k + 1]));
        cr_expect(g >= 0.0f && g <= CONTACT, "gap %d: %.9g", k, (double)g);
    }
    const float g = gap_x(test_box_of(w, ids[N]), test_box_of(w, ids[0]));
    cr_expect(g >= 0.0f && g <= CONTACT, "pusher gap %.9g", (double)g);
    cr_expect_eq(count_events(&log, SHOVE_EVENT_SQUISH), N, "every body is caught");
    SHOVE_FN(world_destroy)(w);
}

STEP_TEST(pusher_into_a_wall) {
    event_log log;
    shove_world *w = new_world(&log);
    const shove_id floor = add_static(w, rect(-10, -1, 10, 0));
    const shove_id wall = add_static(w, rect(3, 0, 4, 3));
    const shove_id crate = add_dynamic(w, rect(1, 0, 2, 1), 3);
    const shove_id player = add_dynamic(w, rect(-1, 0, 0, 2), 1);
    /* walking right while falling onto the floor: pushes the crate along
     * the floor, does not push the floor */
    for (int frame = 0; frame < 10; ++frame) {
        log.count = 0;
        set_motion(w, player, 0.5f, -0.1f);
        set_motion(w, crate, 0, -0.1f);
        step(w);
        const shove_id ids[4] = {floor, wall, crate, player};
        int i, j;
        cr_assert(no_overlaps(w, ids, 4, &i, &j), "frame %d: %d and %d overlap", frame, i, j);
    }
    const shove_aabb bc = test_box_of(w, crate), bp = test_box_of(w, player);
    cr_expect_float_eq(bc.min.y, 0.0f, 1e-6f, "the crate stays on the floor");
    cr_expect_float_eq(bp.min.y, 0.0f, 1e-6f, "the player stays on the floor");
    cr_expect(gap_x(bc, test_box_of(w, wall)) >= 0 && gap_x(bc, test_box_of(w, wall)) <= CONTACT);
    cr_expect(gap_x(bp, bc) >= 0 && gap_x(bp, bc) <= CONTACT);
    /* the last frames press the crate into the wall */
    const shove_event *e = squish_of(&log, crate);
    cr_assert_not_null(e);
    cr_expect(shove_id_equal(e->b, player));
    EXPECT_VEC_EQ(e->normal, V(1, 0, 0));
    SHOVE_FN(world_destroy)(w);
}

STEP_TEST(two_pushers_from_opposite_sides_never_overlap) {
    /* Built both ways round: the outcome is the same. */
    shove_aabb result[2][3];
    for (int order = 0; order < 2; ++order) {
        event_log log;
        shove_world *w = new_world(&log);
        shove_id left, right, mid;
        if (order == 0) {
            left = add_dynamic(w, rect(-2, 0, -1, 1), 1);
            mid = add_dynamic(w, rect(-0.5f, 0, 0.5f, 1), 5);
            right = add_dynamic(w, rect(1, 0, 2, 1), 1);
        } else {
            right = add_dynamic(w, rect(1, 0, 2, 1), 1);
            mid = add_dynamic(w, rect(-0.5f, 0, 0.5f, 1), 5);
            left = add_dynamic(w, rect(-2, 0, -1, 1), 1);
        }
        set_motion(w, order ? right : left, order ? -1.5f : 1.5f, 0);
        set_motion(w, order ? left : right, order ? 1.5f : -1.5f, 0);
        step(w);
        const shove_id ids[3] = {left, mid, right};
        int i, j;
        cr_expect(no_overlaps(w, ids, 3, &i, &j));
        const shove_aabb bl = test_box_of(w, left), bm = test_box_of(w, mid),
                         br = test_box_of(w, right);
        cr_expect(gap_x(bl, bm) >= 0 && gap_x(bl, bm) <= CONTACT);
        cr_expect(gap_x(bm, br) >= 0 && gap_x(bm, br) <= CONTACT);
        cr_expect(bm.max.x - bm.min.x == 1.0f, "the middle body keeps its size");
        cr_expect_not_null(squish_of(&log, mid), "the middle body is caught");
        result[order][0] = bl;
        result[order][1] = bm;
        result[order][2] = br;
        SHOVE_FN(world_destroy)(w);
    }
    for (int k = 0; k < 3; ++k) {
        EXPECT_BOX_EQ(result[1][k], result[0][k]);
    }
}

Test(step, mixed_priorities) {
    event_log log;
    shove_world *w = new_world(&log);
    /* A(0) pushes B(3), C(1) and D(5) (all weaker than 0); E(0) is as
     * strong as A: it blocks, and D is caught against it. */
    const int prio[5] = {0, 3, 1, 5, 0};
    shove_id ids[5];
    for (int i = 0; i < 5; ++i) {
        const float x = (float)i * 1.5f;
        ids[i] = add_dynamic(w, rect(x, 0, x + 1, 1), prio[i]);
    }
    set_motion(w, ids[0], 2.5f, 0); /* 0.5 more than the gaps let D go */
    step(w);
    EXPECT_BOX_EQ(test_box_of(w, ids[4]), rect(6, 0, 7, 1));
    for (int i = 0; i < 4; ++i) {
        const shove_aabb a = test_box_of(w, ids[i]), b = test_box_of(w, ids[i + 1]);
        cr_expect(gap_x(a, b) >= 0 && gap_x(a, b) <= CONTACT, "gap %d: %.9g", i,
                  (double)gap_x(a, b));
    }
    cr_expect_not_null(squish_of(&log, ids[3]));
    cr_expect_null(squish_of(&log, ids[4]), "E was not pushed");
    /* A weaker mover then pushes the weakest: C(1) moves back -1 into B(3)
     * and A(0): B is caught between C and A */
    log.count = 0;
    set_motion(w, ids[2], -1, 0);
    const shove_aabb a_before = test_box_of(w, ids[0]);
    step(w);
    EXPECT_BOX_EQ(test_box_of(w, ids[0]), a_before);
    cr_expect_not_null(squish_of(&log, ids[1]));
    int i, j;
    cr_expect(no_overlaps(w, ids, 5, &i, &j));
    SHOVE_FN(world_destroy)(w);
}

Test(step, stacked_bodies_are_pushed_sideways_together) {
    shove_world *w = new_world(NULL);
    const shove_id floor = add_static(w, rect(-10, -1, 20, 0));
    const shove_id pusher = add_dynamic(w, rect(-1, 0, 0, 3), 0);
    const shove_id low = add_dynamic(w, rect(0, 0, 1, 1), 2);
    const shove_id high = add_dynamic(w, rect(0, 1, 1, 2), 2);
    const shove_id top = add_dynamic(w, rect(0.5f, 2, 1.5f, 3), 2);
    set_motion(w, pusher, 1, 0);
    step(w);
    EXPECT_BOX_EQ(test_box_of(w, pusher), rect(0, 0, 1, 3));
    EXPECT_BOX_EQ(test_box_of(w, low), rect(1, 0, 2, 1));
    EXPECT_BOX_EQ(test_box_of(w, high), rect(1, 1, 2, 2));
    EXPECT_BOX_EQ(test_box_of(w, top), rect(1.5f, 2, 2.5f, 3));
    EXPECT_BOX_EQ(test_box_of(w, floor), rect(-10, -1, 20, 0));
    SHOVE_FN(world_destroy)(w);
}

/* A box pushed along x, crates ahead of it and beside it. Across the push
 * (z in 3D, y in 2D seen from above): the crate ahead that overlaps the
 * pushed box's span by a sliver is pushed on, the one that only touches it
 * is passed; in 3D a crate under the pushed box (it stands on it) stays. A
 * chain's look-ahead asks only for what overlaps the pushed box's span
 * strictly there (and nothing below it): these are the bodies at the edge
 * of what it asks for. */
Test(step, chain_meets_a_sliver_ahead_and_passes_what_only_touches) {
    shove_world_def def = SHOVE_FN(default_world_def)();
    def.worker_count = test_worker_count();
#if SHOVE_DIM == 2
    def.step_def.up_axis = -1;
    const int across = 1;
#else
    const int across = 2;
#endif
    shove_world *w = NULL;
    cr_assert_eq(SHOVE_FN(world_create)(&def, &w), SHOVE_OK);
    /* boxes over x0..x1 and s0..s1 across, the third axis (y in 3D) 0..1 */
    shove_aabb b[4];
    const float x[4][2] = {{-1, 0}, {0, 1}, {1.5f, 2.5f}, {1.5f, 2.5f}};
    const float span[4][2] = {{0, 1}, {0, 1}, {0.999f, 2}, {-2, 0}};
    for (int i = 0; i < 4; ++i) {
        b[i] = BOX(0, 0, 0, 1, 1, 1);
        b[i].min.raw[0] = x[i][0];
        b[i].max.raw[0] = x[i][1];
        b[i].min.raw[across] = span[i][0];
        b[i].max.raw[across] = span[i][1];
    }
    const shove_id pusher = add_dynamic(w, b[0], 0);
    const shove_id pushed = add_dynamic(w, b[1], 2);
    const shove_id sliver = add_dynamic(w, b[2], 2);
    const shove_id touching = add_dynamic(w, b[3], 2);
#if SHOVE_DIM == 3
    const shove_id under = add_dynamic(w, BOX(0, -1, 0, 1, 0, 1), 2);
#endif
    set_motion(w, pusher, 1, 0);
    step(w);
    EXPECT_BOX_EQ(test_box_of(w, pusher), shifted(b[0], 1, 0));
    EXPECT_BOX_EQ(test_box_of(w, pushed), shifted(b[1], 1, 0));
    EXPECT_BOX_EQ(test_box_of(w, sliver), shifted(b[2], 0.5f, 0));
    EXPECT_BOX_EQ(test_box_of(w, touching), b[3]);
#if SHOVE_DIM == 3
    EXPECT_BOX_EQ(test_box_of(w, under), BOX(0, -1, 0, 1, 0, 1));
#endif
    SHOVE_FN(world_destroy)(w);
}

/* >>scenario 10: moving platforms ---------------------------------------------- */

STEP_TEST(scenario_10_platform_carries_its_rider_every_way) {
    shove_world *w = new_world(NULL);
    const shove_id platform = add_dynamic(w, rect(0, 0, 4, 1), 0);
    const shove_id rider = add_dynamic(w, rect(1, 1, 2, 3), 3);
    const float moves[6][2] = {{1, 0}, {-2.5f, 0}, {0, 1}, {0, -2}, {0.5f, 0.75f}, {-0.25f, -1}};
    for (int k = 0; k < 6; ++k) {
        const shove_aabb p0 = test_box_of(w, platform), r0 = test_box_of(w, rider);
        set_motion(w, platform, moves[k][0], moves[k][1]);
        set_motion(w, rider, 0, -0.2f); /* gravity: it must not fall behind or in */
        step(w);
        EXPECT_BOX_EQ(test_box_of(w, platform), shifted(p0, moves[k][0], moves[k][1]));
        const shove_aabb r = test_box_of(w, rider);
        cr_expect_float_eq(r.min.x - r0.min.x, moves[k][0], 1e-5f, "move %d: carried sideways", k);
        const float gap = r.min.y - test_box_of(w, platform).max.y;
        cr_expect(gap >= 0.0f && gap <= CONTACT, "move %d: resting on it (gap %.9g)", k,
                  (double)gap);
        cr_expect(!SHOVE_FN(aabb_overlaps)(r, test_box_of(w, platform)));
    }
    SHOVE_FN(world_destroy)(w);
}

Test(step, scenario_10_stronger_rider_is_carried_first) {
    /* The rider is stronger (moves first by priority) but waits for its
     * platform, which carries it before its own motion applies. */
    shove_world *w = new_world(NULL);
    const shove_id platform = add_dynamic(w, rect(0, 0, 4, 1), 5);
    const shove_id rider = add_dynamic(w, rect(1, 1, 2, 2), 0);
    set_motion(w, platform, 0, -1);
    set_motion(w, rider, 0.5f, -0.1f);
    step(w);
    EXPECT_BOX_EQ(test_box_of(w, platform), rect(0, -1, 4, 0));
    const shove_aabb r = test_box_of(w, rider);
    cr_expect_eq(r.min.x, 1.5f);
    cr_expect(r.min.y >= 0.0f && r.min.y <= CONTACT, "still on the platform: %.9g",
              (double)r.min.y);
    SHOVE_FN(world_destroy)(w);
}

STEP_TEST(stronger_rider_waits_for_its_platform_step_after_step) {
    /* The rider moves first by priority, so it waits for its platform every
     * step: carried left against a wall, then its own motion to the right.
     * Moved before its platform, it would go right first and then be
     * carried (short of the wall from the second step on). From the second
     * step on, the wait is found before the rider's dry run (it waited in
     * the step before); the outcome must be the same. */
    shove_world *w = new_world(NULL);
    const shove_id platform = add_dynamic(w, rect(0, 0, 6, 1), 5);
    const shove_id rider = add_dynamic(w, rect(2, 1, 3, 2), 0);
    const shove_id wall = add_static(w, rect(0.25f, 1.25f, 0.75f, 5)); /* above the platform */
    const float want[4] = {1.5f, 1.25f, 1.25f, 1.25f}; /* rider's left face, wall's face + 0.5 */
    for (int k = 0; k < 4; ++k) {
        set_motion(w, platform, -1, 0);
        set_motion(w, rider, 0.5f, -0.1f);
        step(w);
        EXPECT_BOX_EQ(test_box_of(w, platform), rect(-1.0f - (float)k, 0, 5.0f - (float)k, 1));
        const shove_aabb r = test_box_of(w, rider);
        const float skin = k == 0 ? 0.0f : SKIN; /* kept from the wall it was carried into */
        cr_expect_float_eq(r.min.x, want[k] + skin, 1e-5f, "step %d: %.9g", k, (double)r.min.x);
        const float rest = r.min.y - 1.0f;
        cr_expect(rest >= 0.0f && rest <= CONTACT, "step %d: still on the platform (%.9g)", k,
                  (double)rest);
        if (k > 0) {
            cr_expect_float_eq(gap_x(test_box_of(w, wall), r), 0.5f + SKIN, 1e-5f, "step %d", k);
        }
    }
    SHOVE_FN(world_destroy)(w);
}

STEP_TEST(riders_of_riders) {
    shove_world *w = new_world(NULL);
    const shove_id platform = add_dynamic(w, rect(0, 0, 6, 1), 0);
    shove_id stack[4];
    for (int i = 0; i < 4; ++i) {
        stack[i] = add_dynamic(w, rect(1 + 0.25f * i, 1 + i, 2 + 0.25f * i, 2 + i), 4);
    }
    const float moves[4][2] = {{1, 0}, {0, 0.5f}, {0, -1.5f}, {-0.75f, 0.25f}};
    float dx = 0;
    for (int k = 0; k < 4; ++k) {
        set_motion(w, platform, moves[k][0], moves[k][1]);
        for (int i = 0; i < 4; ++i) {
            set_motion(w, stack[i], 0, -0.1f);
        }
        step(w);
        dx += moves[k][0];
        shove_aabb below = test_box_of(w, platform);
        for (int i = 0; i < 4; ++i) {
            const shove_aabb b = test_box_of(w, stack[i]);
            cr_expect_float_eq(b.min.x, 1 + 0.25f * i + dx, 1e-5f, "move %d, body %d", k, i);
            const float gap = b.min.y - below.max.y;
            cr_expect(gap >= 0.0f && gap <= CONTACT, "move %d, body %d: gap %.9g", k, i,
                      (double)gap);
            below = b;
        }
    }
    SHOVE_FN(world_destroy)(w);
}

STEP_TEST(platform_rider_blocked_by_a_wall_stays_behind) {
    shove_world *w = new_world(NULL);
    const shove_id platform = add_dynamic(w, rect(0, 0, 4, 1), 0);
    const shove_id rider = add_dynamic(w, rect(2, 1, 3, 2), 3);
    const shove_id wall = add_static(w, rect(3.5f, 1.5f, 4.5f, 5)); /* low enough to catch it */
    set_motion(w, platform, 2, 0);
    step(w);
    EXPECT_BOX_EQ(test_box_of(w, platform), rect(2, 0, 6, 1));
    const shove_aabb r = test_box_of(w, rider);
    cr_expect_float_eq(gap_x(r, test_box_of(w, wall)), SKIN, 1e-6f, "stopped at the wall");
    cr_expect_eq(r.min.y, 1.0f);
    SHOVE_FN(world_destroy)(w);
}

STEP_TEST(platform_rising_into_a_ceiling_squishes_its_rider) {
    event_log log;
    shove_world *w = new_world(&log);
    const shove_id platform = add_dynamic(w, rect(0, 0, 4, 1), 0);
    const shove_id rider = add_dynamic(w, rect(1, 1, 2, 2), 3);
    const shove_id free_rider = add_dynamic(w, rect(3, 1, 3.5f, 1.5f), 3);
    const shove_id ceiling = add_static(w, rect(0, 2.5f, 2.5f, 3));
    set_motion(w, platform, 0, 2);
    step(w);
    const shove_aabb p = test_box_of(w, platform), r = test_box_of(w, rider),
                     f = test_box_of(w, free_rider);
    const shove_aabb c = test_box_of(w, ceiling);
    const shove_id ids[4] = {platform, rider, free_rider, ceiling};
    int i, j;
    cr_expect(no_overlaps(w, ids, 4, &i, &j));
    cr_expect(p.max.y > 1.4f, "the platform rose until the rider met the ceiling");
    cr_expect(r.min.y - p.max.y >= 0 && r.min.y - p.max.y <= CONTACT);
    cr_expect(c.min.y - r.max.y >= 0 && c.min.y - r.max.y <= CONTACT);
    cr_expect(f.min.y - p.max.y >= 0 && f.min.y - p.max.y <= CONTACT,
              "the other rider is not left hanging above the platform");
    const shove_event *e = squish_of(&log, rider);
    cr_assert_not_null(e);
    cr_expect(shove_id_equal(e->b, platform));
    EXPECT_VEC_EQ(e->normal, V(0, 1, 0));
    cr_expect_null(squish_of(&log, free_rider));
    SHOVE_FN(world_destroy)(w);
}

Test(step, rider_across_two_platforms_is_carried_once) {
    for (int own = 0; own < 2; ++own) {
        shove_world *w = new_world(NULL);
        const shove_id p1 = add_dynamic(w, rect(0, 0, 2, 1), 0);
        const shove_id p2 = add_dynamic(w, rect(2, 0, 4, 1), 0);
        const shove_id rider = add_dynamic(w, rect(1.5f, 1, 2.5f, 2), 3);
        set_motion(w, p1, 1, 0);
        set_motion(w, p2, 1, 0);
        if (own) {
            set_motion(w, rider, 0, -0.1f);
        }
        step(w);
        EXPECT_BOX_EQ(test_box_of(w, rider), rect(2.5f, 1, 3.5f, 2));
        SHOVE_FN(world_destroy)(w);
    }
}

STEP_TEST(carried_bodies_push_with_the_weaker_priority) {
    /* A lift (0) carries a player (1) into a crate (5) hanging in the air:
     * the crate is pushed. It carries a crate (5) into a player (1): the
     * player is not pushed, the crate stays behind against it. */
    shove_world *w = new_world(NULL);
    const shove_id lift = add_dynamic(w, rect(0, 0, 4, 1), 0);
    const shove_id player = add_dynamic(w, rect(2, 1, 3, 3), 1);
    const shove_id crate = add_dynamic(w, rect(3.5f, 1.5f, 4.5f, 2.5f), 5);
    set_motion(w, lift, 1, 0);
    step(w);
    EXPECT_BOX_EQ(test_box_of(w, lift), rect(1, 0, 5, 1));
    EXPECT_BOX_EQ(test_box_of(w, player), rect(3, 1, 4, 3));
    /* it was apart from the player: pushed to one skin in front of it */
    EXPECT_BOX_EQ(test_box_of(w, crate), rect(4 + SKIN, 1.5f, 5 + SKIN, 2.5f));

    shove_world *v = new_world(NULL);
    const shove_id lift2 = add_dynamic(v, rect(0, 0, 4, 1), 0);
    const shove_id crate2 = add_dynamic(v, rect(3, 1, 4, 2), 5);
    const shove_id player2 = add_dynamic(v, rect(4.25f, 1, 5.25f, 3), 1); /* beside the lift */
    set_motion(v, lift2, 1, 0);
    step(v);
    EXPECT_BOX_EQ(test_box_of(v, lift2), rect(1, 0, 5, 1));
    EXPECT_BOX_EQ(test_box_of(v, player2), rect(4.25f, 1, 5.25f, 3));
    cr_expect_float_eq(gap_x(test_box_of(v, crate2), test_box_of(v, player2)), SKIN, 1e-6f);
    SHOVE_FN(world_destroy)(w);
    SHOVE_FN(world_destroy)(v);
}

Test(step, resting_weight_does_not_push_or_squish) {
    event_log log;
    shove_world *w = new_world(&log);
    add_static(w, rect(-5, -1, 5, 0));
    const shove_id crate = add_dynamic(w, rect(0, 0, 1, 1), 5);
    const shove_id player = add_dynamic(w, rect(0, 1, 1, 3), 1);
    for (int frame = 0; frame < 5; ++frame) {
        set_motion(w, player, 0, -0.1f);
        set_motion(w, crate, 0, -0.1f);
        step(w);
    }
    EXPECT_BOX_EQ(test_box_of(w, crate), rect(0, 0, 1, 1));
    EXPECT_BOX_EQ(test_box_of(w, player), rect(0, 1, 1, 3));
    cr_expect_eq(count_events(&log, SHOVE_EVENT_SQUISH), 0);
    /* but a strong body falling onto a weak one presses it */
    log.count = 0;
    const shove_id rock = add_dynamic(w, rect(3, 2, 4, 3), 0);
    const shove_id shroom = add_dynamic(w, rect(3, 0, 4, 1), 9);
    set_motion(w, rock, 0, -2);
    step(w);
    cr_expect_not_null(squish_of(&log, shroom));
    cr_expect(!SHOVE_FN(aabb_overlaps)(test_box_of(w, rock), test_box_of(w, shroom)));
    SHOVE_FN(world_destroy)(w);
}

Test(step, falling_stack_on_a_platform_moves_with_it) {
    shove_world *w = new_world(NULL);
    const shove_id platform = add_dynamic(w, rect(0, 0, 3, 1), 0);
    const shove_id a = add_dynamic(w, rect(0, 1.5f, 1, 2.5f), 2);
    const shove_id b = add_dynamic(w, rect(0, 3, 1, 4), 2);
    for (int frame = 0; frame < 40; ++frame) {
        set_motion(w, platform, 0.1f, 0);
        set_motion(w, a, 0, -0.25f);
        set_motion(w, b, 0, -0.25f);
        step(w);
        cr_assert(!SHOVE_FN(aabb_overlaps)(test_box_of(w, a), test_box_of(w, b)));
        cr_assert(!SHOVE_FN(aabb_overlaps)(test_box_of(w, a), test_box_of(w, platform)));
    }
    const shove_aabb p = test_box_of(w, platform), ba = test_box_of(w, a), bb = test_box_of(w, b);
    cr_expect(ba.min.y - p.max.y >= 0 && ba.min.y - p.max.y <= CONTACT);
    cr_expect(bb.min.y - ba.max.y >= 0 && bb.min.y - ba.max.y <= CONTACT);
    cr_expect(ba.min.x > 2.0f, "carried along once it landed");
    SHOVE_FN(world_destroy)(w);
}

/* >>other bodies ---------------------------------------------------------------- */

Test(step, sensors_and_filters_are_not_pushed) {
    shove_world *w = new_world(NULL);
    shove_body_def def = SHOVE_FN(default_body_def)();
    def.type = SHOVE_BODY_DYNAMIC;
    def.priority = 9;
    def.sensor = true;
    def.box = rect(1.5f, 0, 2.5f, 1);
    shove_id sensor;
    cr_assert_eq(SHOVE_FN(body_create)(w, &def, &sensor), SHOVE_OK);
    def.sensor = false;
    def.category = 2u;
    def.box = rect(3, 0, 4, 1);
    shove_id ghost;
    cr_assert_eq(SHOVE_FN(body_create)(w, &def, &ghost), SHOVE_OK);
    def.category = 1u;
    def.mask = 1u; /* does not collide with the ghost */
    def.priority = 0;
    def.box = rect(0, 0, 1, 1);
    shove_id mover;
    cr_assert_eq(SHOVE_FN(body_create)(w, &def, &mover), SHOVE_OK);
    set_motion(w, mover, 5, 0);
    step(w);
    EXPECT_BOX_EQ(test_box_of(w, mover), rect(5, 0, 6, 1));
    EXPECT_BOX_EQ(test_box_of(w, sensor), rect(1.5f, 0, 2.5f, 1));
    EXPECT_BOX_EQ(test_box_of(w, ghost), rect(3, 0, 4, 1));
    SHOVE_FN(world_destroy)(w);
}

Test(step, events_of_a_step) {
    event_log log;
    shove_world *w = new_world(&log);
    const shove_id wall = add_static(w, rect(3, 0, 4, 1));
    const shove_id m = add_dynamic(w, rect(0, 0, 1, 1), 0);
    set_motion(w, m, 5, 0);
    step(w);
    cr_expect_eq(count_events(&log, SHOVE_EVENT_CONTACT_BEGIN), 1);
    const shove_event *events = NULL;
    cr_assert_eq(SHOVE_FN(world_get_events)(w, &events), 1u);
    cr_expect(shove_id_equal(events[0].a, m));
    cr_expect(shove_id_equal(events[0].b, wall));
    EXPECT_VEC_EQ(events[0].normal, V(-1, 0, 0));
    set_motion(w, m, -1, 0);
    step(w);
    cr_assert_eq(SHOVE_FN(world_get_events)(w, &events), 1u);
    cr_expect_eq(events[0].type, SHOVE_EVENT_CONTACT_END);
    step(w); /* nothing pending: an empty event list */
    cr_expect_eq(SHOVE_FN(world_get_events)(w, &events), 0u);
    SHOVE_FN(world_destroy)(w);
}

/* The order of the step's movers (step.c, ">>Order"), seen in the order of
 * their contact events (the commit updates the pairs of the bodies in the
 * order they first moved): n movers on a grid of cells 4 apart, each with
 * a wall 0.05 ahead of it along its motion (+x, -x, +y or -y, 0.2 long),
 * priorities 0 .. 7, so that the movers of one column (or row) with the
 * same priority and direction tie on the front and go by their boxes. */
typedef struct order_mover {
    shove_id id;
    shove_aabb box;
    int priority;
    float front;
} order_mover;

static int order_mover_cmp(const void *pa, const void *pb) {
    const order_mover *a = pa, *b = pb;
    if (a->priority != b->priority) {
        return a->priority - b->priority;
    }
    if (a->front != b->front) {
        return a->front > b->front ? -1 : 1; /* front first */
    }
    for (int k = 0; k < SHOVE_DIM; ++k) {
        if (a->box.min.raw[k] != b->box.min.raw[k]) {
            return a->box.min.raw[k] < b->box.min.raw[k] ? -1 : 1;
        }
    }
    return 0; /* (no two boxes share a min corner here) */
}

static void expect_movers_in_order(int n) {
    event_log log;
    shove_world *w = new_world(&log);
    order_mover *m = calloc((size_t)n, sizeof *m);
    cr_assert(m);
    const int columns = 20;
    for (int i = 0; i < n; ++i) {
        const float x = 4.0f * (float)(i % columns), y = 4.0f * (float)(i / columns);
        const int dir = (i * 3 + i / columns) % 4;
        const float dx = dir == 0 ? 0.2f : (dir == 1 ? -0.2f : 0.0f);
        const float dy = dir == 2 ? 0.2f : (dir == 3 ? -0.2f : 0.0f);
        m[i].box = rect(x, y, x + 1, y + 1);
        m[i].priority = (i * 5 + i / 7) % 8;
        m[i].id = add_dynamic(w, m[i].box, m[i].priority);
        /* the centre along the unit motion: exact for these halves */
        m[i].front =
            dir == 0 ? x + 0.5f : (dir == 1 ? -(x + 0.5f) : (dir == 2 ? y + 0.5f : -(y + 0.5f)));
        shove_aabb wall = dir == 0   ? rect(x + 1.05f, y, x + 1.5f, y + 1)
                          : dir == 1 ? rect(x - 0.5f, y, x - 0.05f, y + 1)
                          : dir == 2 ? rect(x, y + 1.05f, x + 1, y + 1.5f)
                                     : rect(x, y - 0.5f, x + 1, y - 0.05f);
        add_static(w, wall);
        set_motion(w, m[i].id, dx, dy);
    }
    step(w);
    qsort(m, (size_t)n, sizeof *m, order_mover_cmp);
    int ties = 0;
    for (int i = 1; i < n; ++i) {
        ties += m[i].priority == m[i - 1].priority && m[i].front == m[i - 1].front;
    }
    cr_expect_gt(ties, 0, "the scene has movers that tie on priority and front");
    int seen = 0;
    for (int e = 0; e < log.count && e < MAX_EVENTS; ++e) {
        if (log.e[e].type != SHOVE_EVENT_CONTACT_BEGIN) {
            continue;
        }
        cr_assert_lt(seen, n);
        cr_expect(shove_id_equal(log.e[e].a, m[seen].id), "%d movers: turn %d went to another", n,
                  seen);
        seen += 1;
    }
    cr_expect_eq(seen, n, "every mover reached its wall");
    free(m);
    SHOVE_FN(world_destroy)(w);
}

Test(step, movers_take_turns_in_the_documented_order) {
    expect_movers_in_order(40);  /* a few: sorted by comparisons */
    expect_movers_in_order(400); /* many: sorted by their keys' digits, then the ties */
}

/* >>voxels ------------------------------------------------------------------------ */

/* A voxel pen: floor at y = -1 (cells y = -1), walls at x = -11 and x = 10,
 * cells x in [-11, 10], y in [-1, 20]; in 3D one layer of cells (z = 0). */
static test_map *voxel_pen(shove_world *w) {
    test_map *m = map_new(-11, -1, 0, 22, 22, 1);
    for (int32_t x = -11; x <= 10; ++x) {
        map_set(m, x, -1, 0, CELL_FULL);
    }
    for (int32_t y = -1; y <= 20; ++y) {
        map_set(m, -11, y, 0, CELL_FULL);
        map_set(m, 10, y, 0, CELL_FULL);
    }
    const shove_voxel_def d = map_def(m, V(0, 0, 0), 1.0f);
    cr_assert_eq(SHOVE_FN(world_set_voxels)(w, &d), SHOVE_OK);
    return m;
}

Test(step, voxel_wall_stops_a_chain_face_to_face) {
    event_log log;
    shove_world *w = new_world(&log);
    test_map *m = voxel_pen(w);
    shove_id ids[6];
    for (int i = 0; i < 5; ++i) {
        ids[i] = add_dynamic(w, rect(4.5f + i, 0, 5.5f + i, 1), 3);
    }
    ids[5] = add_dynamic(w, rect(3, 0, 4, 2), 0);
    for (int frame = 0; frame < 6; ++frame) {
        set_motion(w, ids[5], 0.5f, -0.1f);
        for (int i = 0; i < 5; ++i) {
            set_motion(w, ids[i], 0, -0.1f);
        }
        step(w);
        int i, j;
        cr_assert(no_overlaps(w, ids, 6, &i, &j));
        for (int k = 0; k < 6; ++k) {
            cr_assert(!map_overlaps(m, V(0, 0, 0), 1.0f, test_box_of(w, ids[k])),
                      "frame %d body %d", frame, k);
        }
    }
    /* the front body is against the voxel wall at x = 10, the rest close up */
    const float front = test_box_of(w, ids[4]).max.x;
    cr_expect(front <= 10.0f && front >= 10.0f - CONTACT, "front at %.9g", (double)front);
    for (int k = 0; k < 4; ++k) {
        const float g = gap_x(test_box_of(w, ids[k]), test_box_of(w, ids[k + 1]));
        cr_expect(g >= 0 && g <= CONTACT, "gap %d: %.9g", k, (double)g);
    }
    cr_expect_not_null(squish_of(&log, ids[4]), "caught against the voxel wall");
    const shove_event *e = squish_of(&log, ids[4]);
    cr_expect(e && shove_id_equal(e->b, ids[3]), "pushed by its neighbour");
    cr_expect_float_eq(test_box_of(w, ids[0]).min.y, 0.0f, 1e-6f, "on the voxel floor");
    SHOVE_FN(world_destroy)(w);
    map_free(m);
}

Test(step, platform_rising_into_a_voxel_ceiling) {
    event_log log;
    shove_world *w = new_world(&log);
    test_map *m = voxel_pen(w);
    for (int32_t x = -3; x <= 3; ++x) {
        map_set(m, x, 6, 0, CELL_SLAB_BOTTOM); /* ceiling underside at y = 6 */
    }
    const shove_id platform = add_dynamic(w, rect(-2, 1, 2, 1.5f), 0);
    const shove_id rider = add_dynamic(w, rect(-0.5f, 1.5f, 0.5f, 3.5f), 4);
    for (int frame = 0; frame < 8; ++frame) {
        set_motion(w, platform, 0.1f, 0.5f);
        set_motion(w, rider, 0, -0.1f);
        step(w);
        cr_assert(!SHOVE_FN(aabb_overlaps)(test_box_of(w, platform), test_box_of(w, rider)));
        cr_assert(!map_overlaps(m, V(0, 0, 0), 1.0f, test_box_of(w, rider)));
        cr_assert(!map_overlaps(m, V(0, 0, 0), 1.0f, test_box_of(w, platform)));
    }
    const shove_aabb r = test_box_of(w, rider), p = test_box_of(w, platform);
    cr_expect(6.0f - r.max.y >= 0 && 6.0f - r.max.y <= CONTACT, "rider under the ceiling");
    cr_expect(r.min.y - p.max.y >= 0 && r.min.y - p.max.y <= CONTACT, "rider on the platform");
    cr_expect_float_eq(r.min.x - (-0.5f), p.min.x - (-2.0f), 1e-5f, "carried sideways too");
    const shove_event *e = squish_of(&log, rider);
    cr_assert_not_null(e, "squished against the voxel ceiling in the last frame");
    EXPECT_VEC_EQ(e->normal, V(0, 1, 0));
    SHOVE_FN(world_destroy)(w);
    map_free(m);
}

Test(step, random_crowd_in_a_voxel_pen_never_overlaps) {
    shove_world *w = new_world(NULL);
    test_map *m = voxel_pen(w);
    test_rng rng = {99u};
    for (int k = 0; k < 12; ++k) {
        map_set(m, test_rng_int(&rng, -9, 8), test_rng_int(&rng, 0, 12), 0,
                test_rng_int(&rng, CELL_FULL, CELL_THIN));
    }
    shove_id ids[120];
    int n = 0;
    for (int tries = 0; n < 120 && tries < 20000; ++tries) {
        const float sx = test_rng_float(&rng, 0.3f, 1.5f), sy = test_rng_float(&rng, 0.3f, 1.5f);
        const float x = test_rng_float(&rng, -10.0f, 10.0f - sx);
        const float y = test_rng_float(&rng, 0.0f, 19.0f - sy);
        const float z = test_rng_float(&rng, 0.0f, 0.5f);
        const shove_aabb b = BOX(x, y, z, x + sx, y + sy, z + 0.5f);
        bool ok = !map_overlaps(m, V(0, 0, 0), 1.0f, b);
        for (int i = 0; i < n && ok; ++i) {
            ok = !SHOVE_FN(aabb_overlaps)(b, test_box_of(w, ids[i]));
        }
        if (ok) {
            ids[n] = add_dynamic(w, b, test_rng_int(&rng, 0, 5));
            n += 1;
        }
    }
    for (int frame = 0; frame < 20; ++frame) {
        for (int i = 0; i < n; ++i) {
            set_motion(w, ids[i], test_rng_float(&rng, -0.8f, 0.8f),
                       test_rng_float(&rng, -0.8f, 0.3f));
        }
        step(w);
        int i, j;
        cr_assert(no_overlaps(w, ids, n, &i, &j), "frame %d: %d and %d overlap", frame, i, j);
        for (int k = 0; k < n; ++k) {
            cr_assert(!map_overlaps(m, V(0, 0, 0), 1.0f, test_box_of(w, ids[k])),
                      "frame %d body %d", frame, k);
        }
    }
    SHOVE_FN(world_destroy)(w);
    map_free(m);
}

/* >>random crowds ---------------------------------------------------------------- */

/* A crowded box of bodies in a walled pen: random sizes, priorities and
 * motions (with gravity), some static pillars and platforms. */
typedef struct crowd {
    shove_aabb box[400];
    int priority[400];
    bool dynamic[400];
    int count;
} crowd;

static void make_crowd(crowd *c, uint64_t seed, int count) {
    test_rng rng = {seed};
    c->count = 0;
    /* the pen */
    c->box[c->count] = rect(-12, -2, 12, 0);
    c->dynamic[c->count++] = false;
    c->box[c->count] = rect(-13, -2, -12, 30);
    c->dynamic[c->count++] = false;
    c->box[c->count] = rect(12, -2, 13, 30);
    c->dynamic[c->count++] = false;
    c->box[c->count] = rect(-12, 30, 12, 31);
    c->dynamic[c->count++] = false;
    int tries = 0;
    while (c->count < count && tries < 100000) {
        ++tries;
        const float wx = test_rng_float(&rng, 0.3f, 2.0f);
        const float wy = test_rng_float(&rng, 0.3f, 2.0f);
        const float x = test_rng_float(&rng, -12.0f, 12.0f - wx);
        const float y = test_rng_float(&rng, 0.0f, 30.0f - wy);
        /* 3D: z extents vary too, so bodies pass beside each other */
        const float z = test_rng_float(&rng, 0.0f, 0.5f);
        shove_aabb b = BOX(x, y, z, x + wx, y + wy, z + 0.5f);
        bool free_spot = true;
        for (int i = 0; i < c->count && free_spot; ++i) {
            free_spot = !SHOVE_FN(aabb_overlaps)(b, c->box[i]);
        }
        if (!free_spot) {
            continue;
        }
        c->box[c->count] = b;
        c->dynamic[c->count] = test_rng_int(&rng, 0, 9) != 0;
        c->priority[c->count] = test_rng_int(&rng, 0, 6);
        c->count += 1;
    }
}

STEP_TEST(random_crowds_never_overlap) {
    for (uint64_t seed = 1; seed <= 4; ++seed) {
        crowd c;
        make_crowd(&c, seed * 7919u, 160);
        shove_world *w = new_world(NULL);
        shove_id ids[400];
        for (int i = 0; i < c.count; ++i) {
            ids[i] = test_add_body(
                w, c.box[i], c.dynamic[i] ? SHOVE_BODY_DYNAMIC : SHOVE_BODY_STATIC, c.priority[i]);
        }
        test_rng rng = {seed};
        for (int frame = 0; frame < 12; ++frame) {
            for (int i = 0; i < c.count; ++i) {
                if (c.dynamic[i]) {
                    const float s = (i % 5 == 0) ? 3.0f : 0.6f; /* a few fast ones */
                    cr_assert_eq(SHOVE_FN(body_set_motion)(w, ids[i],
                                                           V(test_rng_float(&rng, -s, s),
                                                             test_rng_float(&rng, -s, s * 0.5f),
                                                             test_rng_float(&rng, -s, s))),
                                 SHOVE_OK);
                }
            }
            step(w);
            int i, j;
            cr_assert(no_overlaps(w, ids, c.count, &i, &j),
                      "seed %llu frame %d: bodies %d and %d overlap", (unsigned long long)seed,
                      frame, i, j);
        }
        SHOVE_FN(world_destroy)(w);
    }
}

/* The world's contact rule (world/pairs.c): within `distance` on at most one
 * axis, overlapping strictly on the others (or overlapping). */
static bool touching(shove_aabb a, shove_aabb b, float distance) {
    int separated = 0;
    for (int i = 0; i < SHOVE_DIM; ++i) {
        const float below = b.min.raw[i] - a.max.raw[i];
        const float above = a.min.raw[i] - b.max.raw[i];
        const float gap = above >= below ? above : below;
        if (gap >= 0.0f) {
            if (gap > distance) {
                return false;
            }
            ++separated;
        }
    }
    return separated <= 1;
}

STEP_TEST(contact_events_match_brute_force) {
    /* Every dynamic body moves every step, so after each step the pairs the
     * events describe are exactly the touching pairs with a dynamic body. */
    crowd c;
    make_crowd(&c, 555u, 120);
    event_log log;
    shove_world *w = new_world(&log);
    shove_id ids[400];
    for (int i = 0; i < c.count; ++i) {
        ids[i] = test_add_body(w, c.box[i], c.dynamic[i] ? SHOVE_BODY_DYNAMIC : SHOVE_BODY_STATIC,
                               c.priority[i]);
    }
    static bool paired[400][400];
    memset(paired, 0, sizeof paired);
    test_rng rng = {31u};
    for (int frame = 0; frame < 15; ++frame) {
        for (int i = 0; i < c.count; ++i) {
            if (c.dynamic[i]) {
                set_motion(w, ids[i], test_rng_float(&rng, -0.7f, 0.7f),
                           test_rng_float(&rng, -0.7f, 0.3f));
            }
        }
        log.count = 0;
        step(w);
        cr_assert_lt(log.count, MAX_EVENTS);
        for (int k = 0; k < log.count; ++k) {
            const shove_event *e = &log.e[k];
            if (e->type != SHOVE_EVENT_CONTACT_BEGIN && e->type != SHOVE_EVENT_CONTACT_END) {
                continue;
            }
            int a = -1, b = -1;
            for (int i = 0; i < c.count; ++i) {
                a = shove_id_equal(ids[i], e->a) ? i : a;
                b = shove_id_equal(ids[i], e->b) ? i : b;
            }
            cr_assert(a >= 0 && b >= 0 && a != b);
            const bool begin = e->type == SHOVE_EVENT_CONTACT_BEGIN;
            cr_assert_neq(paired[a][b], begin, "frame %d: %s of %d-%d twice", frame,
                          begin ? "begin" : "end", a, b);
            paired[a][b] = paired[b][a] = begin;
        }
        for (int i = 0; i < c.count; ++i) {
            for (int j = i + 1; j < c.count; ++j) {
                if (!c.dynamic[i] && !c.dynamic[j]) {
                    continue;
                }
                const shove_aabb bi = test_box_of(w, ids[i]), bj = test_box_of(w, ids[j]);
                const float di = SHOVE_IFN(world_contact_distance)(g_skin, bi);
                const float dj = SHOVE_IFN(world_contact_distance)(g_skin, bj);
                const bool now = touching(bi, bj, di < dj ? di : dj);
                if (now != touching(bi, bj, di < dj ? dj : di)) {
                    continue; /* within one body's distance, not the other's */
                }
                cr_assert_eq(paired[i][j], now, "frame %d: pair %d-%d is %d, touching %d", frame, i,
                             j, paired[i][j], now);
            }
        }
    }
    SHOVE_FN(world_destroy)(w);
}

/* >>order independence -------------------------------------------------------- */

static uint64_t hash_boxes(const shove_world *w, const shove_id *ids, const int *slot_of, int n) {
    uint64_t h = 1469598103934665603ull; /* FNV-1a over the boxes in scene order */
    for (int i = 0; i < n; ++i) {
        const shove_aabb b = test_box_of(w, ids[slot_of[i]]);
        const unsigned char *p = (const unsigned char *)&b;
        for (size_t k = 0; k < sizeof b; ++k) {
            h = (h ^ p[k]) * 1099511628211ull;
        }
    }
    return h;
}

Test(step, outcome_does_not_depend_on_creation_or_motion_order) {
    crowd c;
    make_crowd(&c, 4242u, 140);
    /* add a pushing row and a platform with riders so every rule is used */
    enum { FRAMES = 8 };
    uint64_t hashes[4] = {0};
    for (int variant = 0; variant < 4; ++variant) {
        test_rng shuffle = {1000u + (uint64_t)variant};
        int order[400];
        for (int i = 0; i < c.count; ++i) {
            order[i] = i;
        }
        if (variant > 0) {
            for (int i = c.count - 1; i > 0; --i) {
                const int j = test_rng_int(&shuffle, 0, i);
                const int t = order[i];
                order[i] = order[j];
                order[j] = t;
            }
        }
        shove_world *w = new_world(NULL);
        shove_id ids[400];
        int where[400]; /* scene index -> position in ids */
        /* some destroyed bodies first, so slots differ between variants */
        for (int k = 0; k < variant * 3; ++k) {
            const shove_id tmp = add_static(w, rect(100, 100, 101, 101));
            cr_assert_eq(SHOVE_FN(body_destroy)(w, tmp), SHOVE_OK);
        }
        for (int k = 0; k < c.count; ++k) {
            const int i = order[k];
            ids[k] = test_add_body(
                w, c.box[i], c.dynamic[i] ? SHOVE_BODY_DYNAMIC : SHOVE_BODY_STATIC, c.priority[i]);
            where[i] = k;
        }
        for (int frame = 0; frame < FRAMES; ++frame) {
            /* motions depend on the scene index only; set in shuffled order */
            shove_vec motion[400];
            test_rng rng = {77u + (uint64_t)frame};
            for (int i = 0; i < c.count; ++i) {
                motion[i] = V(test_rng_float(&rng, -1, 1), test_rng_float(&rng, -1, 0.5f),
                              test_rng_float(&rng, -0.5f, 0.5f));
            }
            for (int k = c.count; k-- > 0;) {
                const int i = order[k];
                if (c.dynamic[i]) {
                    cr_assert_eq(SHOVE_FN(body_set_motion)(w, ids[where[i]], motion[i]), SHOVE_OK);
                }
            }
            step(w);
        }
        int slot_of[400];
        for (int i = 0; i < c.count; ++i) {
            slot_of[i] = where[i];
        }
        hashes[variant] = hash_boxes(w, ids, slot_of, c.count);
        SHOVE_FN(world_destroy)(w);
    }
    for (int v = 1; v < 4; ++v) {
        cr_expect_eq(hashes[v], hashes[0], "variant %d ends differently", v);
    }
}

/* >>bad input, memory ------------------------------------------------------------- */

Test(step, bad_input_changes_nothing) {
    shove_world *w = new_world(NULL);
    const shove_id s = add_static(w, rect(5, 0, 6, 1));
    const shove_id d = add_dynamic(w, rect(0, 0, 1, 1), 0);
    const shove_id gone = add_dynamic(w, rect(8, 0, 9, 1), 0);
    cr_assert_eq(SHOVE_FN(body_destroy)(w, gone), SHOVE_OK);
    cr_expect_eq(SHOVE_FN(body_set_motion)(NULL, d, V(1, 0, 0)), SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect_eq(SHOVE_FN(body_set_motion)(w, d, V(NAN, 0, 0)), SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect_eq(SHOVE_FN(body_set_motion)(w, d, V(0, INFINITY, 0)), SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect_eq(SHOVE_FN(body_set_motion)(w, s, V(1, 0, 0)), SHOVE_ERR_INVALID_ARGUMENT,
                 "static bodies have no motion");
    cr_expect_eq(SHOVE_FN(body_set_motion)(w, gone, V(1, 0, 0)), SHOVE_ERR_STALE_ID);
    cr_expect_eq(SHOVE_FN(body_set_motion)(w, SHOVE_NULL_ID, V(1, 0, 0)), SHOVE_ERR_STALE_ID);
    cr_expect_eq(SHOVE_FN(world_step)(NULL), SHOVE_ERR_INVALID_ARGUMENT);
    step(w);
    EXPECT_BOX_EQ(test_box_of(w, s), rect(5, 0, 6, 1));
    EXPECT_BOX_EQ(test_box_of(w, d), rect(0, 0, 1, 1));
    /* an earlier good motion survives a refused one */
    set_motion(w, d, 1, 0);
    cr_expect_eq(SHOVE_FN(body_set_motion)(w, d, V(NAN, 0, 0)), SHOVE_ERR_INVALID_ARGUMENT);
    step(w);
    EXPECT_BOX_EQ(test_box_of(w, d), rect(1, 0, 2, 1));
    /* the last motion set wins */
    set_motion(w, d, 1, 0);
    set_motion(w, d, -0.5f, 0);
    step(w);
    EXPECT_BOX_EQ(test_box_of(w, d), rect(0.5f, 0, 1.5f, 1));
    SHOVE_FN(world_destroy)(w);
}

Test(step, out_of_memory_undoes_the_step) {
    test_alloc counter;
    shove_world_def wd = SHOVE_FN(default_world_def)();
    wd.worker_count = test_worker_count();
    wd.allocator = test_alloc_make(&counter);
    wd.body_capacity = 4;
    shove_world *w = NULL;
    cr_assert_eq(SHOVE_FN(world_create)(&wd, &w), SHOVE_OK);
    shove_id ids[60];
    shove_aabb before[60];
    for (int i = 0; i < 60; ++i) {
        ids[i] = add_dynamic(w, rect((float)i, 0, (float)i + 1, 1), 1 + i % 3);
        before[i] = test_box_of(w, ids[i]);
    }
    for (long budget = 0;; ++budget) {
        counter.fail_after = counter.calls + budget;
        set_motion(w, ids[0], 0, 0.5f);
        for (int i = 0; i < 60; i += 3) {
            set_motion(w, ids[i], 2, i % 2 ? 0.5f : -0.5f);
        }
        const shove_status s = SHOVE_FN(world_step)(w);
        if (s == SHOVE_OK) {
            cr_expect_gt(budget, 0, "the first step needs memory");
            break;
        }
        cr_assert_eq(s, SHOVE_ERR_OUT_OF_MEMORY);
        for (int i = 0; i < 60; ++i) {
            cr_assert(same_box(test_box_of(w, ids[i]), before[i]), "budget %ld: body %d moved",
                      budget, i);
        }
        cr_assert_lt(budget, 10000);
    }
    counter.fail_after = -1;
    cr_expect(!same_box(test_box_of(w, ids[0]), before[0]), "the step that worked moved the row");
    SHOVE_FN(world_destroy)(w);
    cr_expect_eq(counter.live, 0);
    cr_expect(!counter.size_error);
}

Test(step, no_allocation_per_step_in_steady_state) {
    test_alloc counter;
    shove_world_def wd = SHOVE_FN(default_world_def)();
    wd.worker_count = test_worker_count();
    wd.allocator = test_alloc_make(&counter);
    shove_world *w = NULL;
    cr_assert_eq(SHOVE_FN(world_create)(&wd, &w), SHOVE_OK);
    /* pens of a pusher, two crates and a platform with a rider, moving back
     * and forth with a period of 40 frames */
    enum { PENS = 20 };
    shove_id pusher[PENS], platform[PENS], rider[PENS];
    for (int p = 0; p < PENS; ++p) {
        const float x0 = (float)p * 20.0f - 200.0f;
        add_static(w, rect(x0, -1, x0 + 16, 0));
        add_static(w, rect(x0 - 1, 0, x0, 4));
        add_static(w, rect(x0 + 16, 0, x0 + 17, 4));
        pusher[p] = add_dynamic(w, rect(x0 + 1, 0, x0 + 2, 2), 1);
        add_dynamic(w, rect(x0 + 3, 0, x0 + 4, 1), 5);
        add_dynamic(w, rect(x0 + 4, 0, x0 + 5, 1), 5);
        platform[p] = add_dynamic(w, rect(x0 + 8, 2, x0 + 12, 2.5f), 0);
        rider[p] = add_dynamic(w, rect(x0 + 9, 2.5f, x0 + 10, 3.5f), 3);
    }
    long before = 0;
    for (int frame = 0; frame < 240; ++frame) {
        if (frame == 120) {
            before = counter.calls;
        }
        const float vx = ((frame / 20) % 2) ? -0.5f : 0.5f;
        const float vy = ((frame / 10) % 2) ? -0.1f : 0.1f;
        for (int p = 0; p < PENS; ++p) {
            set_motion(w, pusher[p], vx, -0.1f);
            set_motion(w, platform[p], vx * 0.25f, vy);
            set_motion(w, rider[p], 0, -0.1f);
        }
        step(w);
    }
    cr_expect_eq(counter.calls - before, 0, "%ld allocations in 120 steady steps",
                 counter.calls - before);
    cr_expect_gt(before, 0);
    SHOVE_FN(world_destroy)(w);
    cr_expect_eq(counter.live, 0);
}

/* >>a shared filter tells movers apart ------------------------------------------ */

typedef struct ghost_filter {
    shove_id ghost; /* a body only `walker` walks through */
    shove_id walker;
    int calls_by_walker, calls_by_others;
    int bad_box; /* calls whose box was not the obstacle's box */
    const shove_world *w;
} ghost_filter;

static shove_response ghost_filter_fn(void *ctx, shove_id mover, const shove_obstacle *obstacle) {
    ghost_filter *g = ctx;
    shove_aabb b;
    if (!obstacle->voxel && !shove_id_is_null(obstacle->other) &&
        (SHOVE_FN(body_get_box)(g->w, obstacle->other, &b) != SHOVE_OK ||
         !same_box(b, obstacle->box))) {
        ++g->bad_box;
    }
    if (!shove_id_equal(obstacle->other, g->ghost)) {
        return SHOVE_RESPONSE_SLIDE;
    }
    if (shove_id_equal(mover, g->walker)) {
        ++g->calls_by_walker;
        return SHOVE_RESPONSE_IGNORE;
    }
    ++g->calls_by_others;
    return SHOVE_RESPONSE_SLIDE;
}

STEP_TEST(a_step_filter_sees_which_body_moves) {
    ghost_filter g;
    memset(&g, 0, sizeof g);
    shove_world_def def = SHOVE_FN(default_world_def)();
    def.worker_count = test_worker_count();
    def.step_def.skin = g_skin;
    def.step_def.filter = ghost_filter_fn;
    def.step_def.filter_ctx = &g;
    shove_world *w = NULL;
    cr_assert_eq(SHOVE_FN(world_create)(&def, &w), SHOVE_OK);
    g.w = w;
    g.ghost = add_static(w, rect(3, 0, 4, 3));
    g.walker = add_dynamic(w, rect(0, 0, 1, 1), 0);
    const shove_id other = add_dynamic(w, rect(0, 2, 1, 3), 0);
    set_motion(w, g.walker, 5, 0);
    set_motion(w, other, 5, 0);
    step(w);
    EXPECT_BOX_EQ(test_box_of(w, g.walker), rect(5, 0, 6, 1)); /* through the ghost */
    const shove_aabb stopped = test_box_of(w, other);
    cr_expect(stopped.max.raw[0] <= 3.0f && stopped.max.raw[0] >= 3.0f - 2.0f * SKIN,
              "the other mover stops at the ghost: %g", (double)stopped.max.raw[0]);
    cr_expect_gt(g.calls_by_walker, 0);
    cr_expect_gt(g.calls_by_others, 0);
    cr_expect_eq(g.bad_box, 0);
    SHOVE_FN(world_destroy)(w);
}

/* >>bodies after creation ------------------------------------------------------- */

static void expect_trees(const shove_world *w, long statics, long dynamics) {
    cr_expect_eq(SHOVE_IFN(tree_check)(&w->trees[SHOVE_BODY_STATIC]), statics);
    cr_expect_eq(SHOVE_IFN(tree_check)(&w->trees[SHOVE_BODY_DYNAMIC]), dynamics);
}

STEP_TEST(a_static_body_made_dynamic_moves_and_is_pushed) {
    shove_world *w = new_world(NULL);
    const shove_id crate = add_static(w, rect(3, 0, 4, 1));
    const shove_id pusher = add_dynamic(w, rect(0, 0, 1, 1), 0);
    /* Walk up to it: the mover remembers the static crate around it. */
    shove_move_result r;
    for (int i = 0; i < 4; ++i) {
        cr_assert_eq(SHOVE_FN(move)(w, pusher, V(0.5f, 0, 0), NULL, &r), SHOVE_OK);
    }
    EXPECT_BOX_EQ(test_box_of(w, pusher), rect(2, 0, 3, 1));
    cr_expect_eq(SHOVE_FN(body_set_motion)(w, crate, V(1, 0, 0)), SHOVE_ERR_INVALID_ARGUMENT);
    cr_assert_eq(SHOVE_FN(body_set_type)(w, crate, SHOVE_BODY_DYNAMIC), SHOVE_OK);
    cr_expect_eq(SHOVE_FN(body_set_type)(w, crate, SHOVE_BODY_DYNAMIC), SHOVE_OK); /* again */
    expect_trees(w, 0, 2);
    cr_assert_eq(SHOVE_FN(body_set_priority)(w, crate, 5), SHOVE_OK);
    /* Now the pusher (priority 0) pushes it. */
    set_motion(w, pusher, 2, 0);
    step(w);
    EXPECT_BOX_EQ(test_box_of(w, pusher), rect(4, 0, 5, 1));
    const shove_aabb pushed = test_box_of(w, crate);
    cr_expect(pushed.min.raw[0] >= 5.0f && pushed.min.raw[0] <= 5.0f + SKIN + CONTACT,
              "pushed ahead: %g", (double)pushed.min.raw[0]);
    /* And it moves on its own. */
    set_motion(w, crate, 3, 0);
    step(w);
    cr_expect_eq(test_box_of(w, crate).min.raw[0], pushed.min.raw[0] + 3.0f);
    /* The pusher's remembered neighbours do not keep the crate where it was. */
    cr_assert_eq(SHOVE_FN(move)(w, pusher, V(2.5f, 0, 0), NULL, &r), SHOVE_OK);
    EXPECT_BOX_EQ(r.box, rect(6.5f, 0, 7.5f, 1));
    SHOVE_FN(world_destroy)(w);
}

STEP_TEST(a_dynamic_body_made_static_drops_its_motion_and_blocks) {
    shove_world *w = new_world(NULL);
    const shove_id crate = add_dynamic(w, rect(3, 0, 4, 1), 5);
    const shove_id pusher = add_dynamic(w, rect(0, 0, 1, 1), 0);
    set_motion(w, crate, 4, 0);
    cr_assert_eq(SHOVE_FN(body_set_type)(w, crate, SHOVE_BODY_STATIC), SHOVE_OK);
    expect_trees(w, 1, 1);
    cr_expect_eq(SHOVE_FN(body_set_motion)(w, crate, V(1, 0, 0)), SHOVE_ERR_INVALID_ARGUMENT);
    set_motion(w, pusher, 5, 0);
    step(w);
    EXPECT_BOX_EQ(test_box_of(w, crate), rect(3, 0, 4, 1)); /* neither its motion nor pushed */
    const shove_aabb stopped = test_box_of(w, pusher);
    cr_expect(stopped.max.raw[0] <= 3.0f && stopped.max.raw[0] >= 3.0f - SKIN - CONTACT,
              "blocked by the crate: %g", (double)stopped.max.raw[0]);
    /* Back to dynamic: pushed again, and the trees hold every body once. */
    cr_assert_eq(SHOVE_FN(body_set_type)(w, crate, SHOVE_BODY_DYNAMIC), SHOVE_OK);
    expect_trees(w, 0, 2);
    set_motion(w, pusher, 1, 0);
    step(w);
    cr_expect_gt(test_box_of(w, crate).min.raw[0], 3.5f);
    SHOVE_FN(world_destroy)(w);
}

STEP_TEST(a_body_made_stronger_is_no_longer_pushed) {
    shove_world *w = new_world(NULL);
    const shove_id crate = add_dynamic(w, rect(2, 0, 3, 1), 5);
    const shove_id pusher = add_dynamic(w, rect(0, 0, 1, 1), 1);
    cr_assert_eq(SHOVE_FN(body_set_priority)(w, crate, 0), SHOVE_OK);
    set_motion(w, pusher, 3, 0);
    step(w);
    EXPECT_BOX_EQ(test_box_of(w, crate), rect(2, 0, 3, 1));
    cr_expect_leq(test_box_of(w, pusher).max.raw[0], 2.0f);
    cr_assert_eq(SHOVE_FN(body_set_priority)(w, crate, 2), SHOVE_OK);
    set_motion(w, pusher, 1, 0);
    step(w);
    cr_expect_gt(test_box_of(w, crate).min.raw[0], 2.5f, "weaker again: pushed");
    SHOVE_FN(world_destroy)(w);
}

STEP_TEST(a_filter_change_ends_contacts_silently_and_lets_bodies_pass) {
    event_log log;
    shove_world *w = new_world(&log);
    const shove_id wall = add_static(w, rect(3, 0, 4, 1));
    const shove_id m = add_dynamic(w, rect(0, 0, 1, 1), 0);
    set_motion(w, m, 5, 0);
    step(w);
    cr_expect_eq(count_events(&log, SHOVE_EVENT_CONTACT_BEGIN), 1);
    shove_id found[4];
    cr_expect_eq(SHOVE_FN(query_box)(w, rect(3.25f, 0.25f, 3.75f, 0.75f), 1u, found, 4), 1u);
    /* The wall becomes category 2, which the mover's mask leaves out. */
    cr_assert_eq(SHOVE_FN(body_set_filter)(w, m, 1u, 1u), SHOVE_OK);
    cr_assert_eq(SHOVE_FN(body_set_filter)(w, wall, 2u, ~(uint64_t)0), SHOVE_OK);
    cr_expect_eq(SHOVE_FN(query_box)(w, rect(3.25f, 0.25f, 3.75f, 0.75f), 1u, found, 4), 0u);
    cr_expect_eq(SHOVE_FN(query_box)(w, rect(3.25f, 0.25f, 3.75f, 0.75f), 2u, found, 4), 1u);
    cr_expect_eq(w->pair_head[m.index], SHOVE_TREE_NONE, "the pair ended");
    log.count = 0;
    const shove_aabb at_wall = test_box_of(w, m);
    set_motion(w, m, 5, 0);
    step(w);
    EXPECT_BOX_EQ(test_box_of(w, m), shifted(at_wall, 5, 0)); /* through the wall */
    cr_expect_eq(count_events(&log, SHOVE_EVENT_CONTACT_END), 0, "no END for a forgotten pair");
    cr_expect_eq(count_events(&log, SHOVE_EVENT_CONTACT_BEGIN), 0);
    /* Back: they interact again, and meeting gives a BEGIN. */
    cr_assert_eq(SHOVE_FN(body_set_filter)(w, m, 1u, ~(uint64_t)0), SHOVE_OK);
    log.count = 0;
    set_motion(w, m, -5, 0);
    step(w);
    const shove_aabb back = test_box_of(w, m);
    cr_expect(back.min.raw[0] >= 4.0f && back.min.raw[0] <= 4.0f + SKIN + CONTACT,
              "stopped by the wall again: %g", (double)back.min.raw[0]);
    cr_expect_eq(count_events(&log, SHOVE_EVENT_CONTACT_BEGIN), 1);
    SHOVE_FN(world_destroy)(w);
}
