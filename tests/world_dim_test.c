/*
 * world_dim_test.c: worlds and bodies: id lifetime, foreign and null ids,
 * bad input (a status and nothing changes), user data, debug drawing and
 * the allocator, in 2D and 3D.
 */
#include "test_alloc.h"
#include "test_dim.h"
#include "world/world.h"

static shove_world *new_world(void) {
    shove_world *w = NULL;
    cr_assert_eq(SHOVE_FN(world_create)(NULL, &w), SHOVE_OK);
    cr_assert_not_null(w);
    return w;
}

static shove_id add_box(shove_world *w, shove_aabb box, shove_body_type type) {
    shove_body_def def = SHOVE_FN(default_body_def)();
    def.box = box;
    def.type = type;
    shove_id id;
    cr_assert_eq(SHOVE_FN(body_create)(w, &def, &id), SHOVE_OK);
    return id;
}

static bool same_box(shove_aabb a, shove_aabb b) {
    return memcmp(&a, &b, sizeof a) == 0;
}

/* >>ids ---------------------------------------------------------------------- */

Test(ids, destroyed_ids_are_never_valid_again) {
    shove_world *w = new_world();
    const shove_id first = add_box(w, BOX(0, 0, 0, 1, 1, 1), SHOVE_BODY_STATIC);
    cr_assert(SHOVE_FN(body_is_valid)(w, first));
    cr_assert(!shove_id_is_null(first));
    cr_assert_eq(SHOVE_FN(body_destroy)(w, first), SHOVE_OK);
    cr_expect(!SHOVE_FN(body_is_valid)(w, first));
    cr_expect_eq(SHOVE_FN(body_destroy)(w, first), SHOVE_ERR_STALE_ID, "destroying twice");
    /* the slot is reused, the old id stays dead */
    const shove_id second = add_box(w, BOX(5, 5, 5, 6, 6, 6), SHOVE_BODY_DYNAMIC);
    cr_expect_eq(second.index, first.index, "the free slot is reused");
    cr_expect_neq(second.generation, first.generation);
    cr_expect(!SHOVE_FN(body_is_valid)(w, first));
    shove_aabb box = BOX(9, 9, 9, 9, 9, 9);
    cr_expect_eq(SHOVE_FN(body_get_box)(w, first, &box), SHOVE_ERR_STALE_ID);
    cr_expect(same_box(box, BOX(9, 9, 9, 9, 9, 9)), "refused: out untouched");
    cr_expect_eq(SHOVE_FN(body_set_box)(w, first, BOX(0, 0, 0, 1, 1, 1)), SHOVE_ERR_STALE_ID);
    cr_expect_eq(SHOVE_FN(body_destroy)(w, first), SHOVE_ERR_STALE_ID);
    cr_assert_eq(SHOVE_FN(body_get_box)(w, second, &box), SHOVE_OK);
    cr_expect(same_box(box, BOX(5, 5, 5, 6, 6, 6)), "the stale id did not touch the new body");
    /* many rounds through the same slot: every old id stays refused */
    shove_id old[200];
    for (int i = 0; i < 200; ++i) {
        old[i] = add_box(w, BOX(i, 0, 0, i + 1, 1, 1), SHOVE_BODY_STATIC);
        cr_assert_eq(SHOVE_FN(body_destroy)(w, old[i]), SHOVE_OK);
    }
    for (int i = 0; i < 200; ++i) {
        cr_expect(!SHOVE_FN(body_is_valid)(w, old[i]));
        for (int j = 0; j < i; ++j) {
            cr_expect(!shove_id_equal(old[i], old[j]), "ids %d and %d repeat", i, j);
        }
    }
    cr_expect_eq(SHOVE_FN(world_body_count)(w), 1u);
    SHOVE_FN(world_destroy)(w);
}

Test(ids, a_slot_whose_generations_run_out_is_retired) {
    shove_world *w = new_world();
    const shove_id a = add_box(w, BOX(0, 0, 0, 1, 1, 1), SHOVE_BODY_STATIC);
    /* jump to the last generation the slot can hand out (as if it had been
     * reused 2^22 - 2 times) */
    cr_assert_eq(SHOVE_FN(body_destroy)(w, a), SHOVE_OK);
    w->generation[a.index] = SHOVE_ID_COUNTER_MASK;
    const shove_id last = add_box(w, BOX(0, 0, 0, 1, 1, 1), SHOVE_BODY_STATIC);
    cr_assert_eq(last.index, a.index);
    cr_assert_eq(SHOVE_FN(body_destroy)(w, last), SHOVE_OK);
    const shove_id next = add_box(w, BOX(0, 0, 0, 1, 1, 1), SHOVE_BODY_STATIC);
    cr_expect_neq(next.index, a.index, "a retired slot is not reused");
    cr_expect(!SHOVE_FN(body_is_valid)(w, last));
    cr_expect(!SHOVE_FN(body_is_valid)(w, a));
    cr_expect(SHOVE_FN(body_is_valid)(w, next));
    SHOVE_FN(world_destroy)(w);
}

Test(ids, ids_of_other_worlds_and_the_null_id_are_refused) {
    enum { WORLDS = 8 };
    shove_world *w[WORLDS];
    shove_id id[WORLDS];
    for (int k = 0; k < WORLDS; ++k) {
        w[k] = new_world();
        /* same slot, same generation counter in every world */
        id[k] = add_box(w[k], BOX(k, 0, 0, k + 1, 1, 1), SHOVE_BODY_DYNAMIC);
        cr_assert_eq(id[k].index, 0u);
    }
    for (int k = 0; k < WORLDS; ++k) {
        for (int j = 0; j < WORLDS; ++j) {
            cr_expect_eq(SHOVE_FN(body_is_valid)(w[k], id[j]), j == k, "world %d, id of %d", k, j);
            if (j == k) {
                continue;
            }
            shove_aabb box = BOX(-1, -1, -1, -1, -1, -1);
            cr_expect_eq(SHOVE_FN(body_get_box)(w[k], id[j], &box), SHOVE_ERR_STALE_ID);
            cr_expect_eq(SHOVE_FN(body_set_box)(w[k], id[j], BOX(0, 0, 0, 2, 2, 2)),
                         SHOVE_ERR_STALE_ID);
            cr_expect_eq(SHOVE_FN(body_destroy)(w[k], id[j]), SHOVE_ERR_STALE_ID);
            void *data = &box;
            cr_expect_eq(SHOVE_FN(body_get_user_data)(w[k], id[j], &data), SHOVE_ERR_STALE_ID);
            cr_expect_eq(data, &box);
            cr_expect_eq(SHOVE_FN(body_set_user_data)(w[k], id[j], NULL), SHOVE_ERR_STALE_ID);
            cr_expect_eq(SHOVE_FN(body_set_type)(w[k], id[j], SHOVE_BODY_DYNAMIC),
                         SHOVE_ERR_STALE_ID);
            cr_expect_eq(SHOVE_FN(body_set_priority)(w[k], id[j], 3), SHOVE_ERR_STALE_ID);
            cr_expect_eq(SHOVE_FN(body_set_filter)(w[k], id[j], 2u, 2u), SHOVE_ERR_STALE_ID);
        }
        shove_aabb box;
        cr_assert_eq(SHOVE_FN(body_get_box)(w[k], id[k], &box), SHOVE_OK);
        cr_expect(same_box(box, BOX(k, 0, 0, k + 1, 1, 1)), "foreign ids changed nothing");
    }
    for (int k = 0; k < WORLDS; ++k) {
        cr_expect(!SHOVE_FN(body_is_valid)(w[k], SHOVE_NULL_ID));
        cr_expect_eq(SHOVE_FN(body_destroy)(w[k], SHOVE_NULL_ID), SHOVE_ERR_STALE_ID);
        const shove_id made_up = {12345u, 1u};
        cr_expect(!SHOVE_FN(body_is_valid)(w[k], made_up), "never created");
        cr_expect_eq(SHOVE_FN(world_body_count)(w[k]), 1u);
        SHOVE_FN(world_destroy)(w[k]);
    }
}

Test(ids, user_data_follows_the_body) {
    shove_world *w = new_world();
    int a_data = 1, b_data = 2;
    shove_body_def def = SHOVE_FN(default_body_def)();
    def.box = BOX(0, 0, 0, 1, 1, 1);
    def.user_data = &a_data;
    shove_id a, b;
    cr_assert_eq(SHOVE_FN(body_create)(w, &def, &a), SHOVE_OK);
    def.user_data = &b_data;
    cr_assert_eq(SHOVE_FN(body_create)(w, &def, &b), SHOVE_OK);
    void *got = NULL;
    cr_expect_eq(SHOVE_FN(body_get_user_data)(w, a, &got), SHOVE_OK);
    cr_expect_eq(got, &a_data);
    cr_expect_eq(SHOVE_FN(body_get_user_data)(w, b, &got), SHOVE_OK);
    cr_expect_eq(got, &b_data);
    /* Set after creation: only that body changes. */
    cr_expect_eq(SHOVE_FN(body_set_user_data)(w, b, &a_data), SHOVE_OK);
    cr_expect_eq(SHOVE_FN(body_get_user_data)(w, b, &got), SHOVE_OK);
    cr_expect_eq(got, &a_data);
    cr_expect_eq(SHOVE_FN(body_get_user_data)(w, a, &got), SHOVE_OK);
    cr_expect_eq(got, &a_data);
    cr_expect_eq(SHOVE_FN(body_set_user_data)(w, b, &b_data), SHOVE_OK);
    cr_assert_eq(SHOVE_FN(body_destroy)(w, a), SHOVE_OK);
    got = &b_data;
    cr_expect_eq(SHOVE_FN(body_get_user_data)(w, a, &got), SHOVE_ERR_STALE_ID);
    cr_expect_eq(got, &b_data, "a refused call leaves *out alone");
    cr_expect_eq(SHOVE_FN(body_get_user_data)(NULL, b, &got), SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect_eq(SHOVE_FN(body_get_user_data)(w, b, NULL), SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect_eq(SHOVE_FN(body_set_user_data)(NULL, b, NULL), SHOVE_ERR_INVALID_ARGUMENT);
    SHOVE_FN(world_destroy)(w);
}

/* >>bad input ---------------------------------------------------------------- */

Test(bad_input, world_create_refuses_bad_defs) {
    shove_world *const sentinel = (shove_world *)(uintptr_t)0x1234;
    shove_world *w = sentinel;
    cr_expect_eq(SHOVE_FN(world_create)(NULL, NULL), SHOVE_ERR_INVALID_ARGUMENT);
    shove_world_def def = SHOVE_FN(default_world_def)();
    def.bounds.min.raw[0] = NAN;
    cr_expect_eq(SHOVE_FN(world_create)(&def, &w), SHOVE_ERR_INVALID_ARGUMENT);
    def = SHOVE_FN(default_world_def)();
    def.bounds = BOX(1, 1, 1, 0, 0, 0);
    cr_expect_eq(SHOVE_FN(world_create)(&def, &w), SHOVE_ERR_INVALID_ARGUMENT, "min > max");
    def.bounds = BOX(1, 1, 1, 1, 1, 1);
    cr_expect_eq(SHOVE_FN(world_create)(&def, &w), SHOVE_ERR_INVALID_ARGUMENT, "no size");
    def.bounds = BOX(-3e38, 0, 0, 3e38, 1, 1);
    cr_expect_eq(SHOVE_FN(world_create)(&def, &w), SHOVE_ERR_INVALID_ARGUMENT, "size overflows");
    def = SHOVE_FN(default_world_def)();
    def.body_capacity = -1;
    cr_expect_eq(SHOVE_FN(world_create)(&def, &w), SHOVE_ERR_INVALID_ARGUMENT);
    def = SHOVE_FN(default_world_def)();
    def.step_def.max_iterations = 0;
    cr_expect_eq(SHOVE_FN(world_create)(&def, &w), SHOVE_ERR_INVALID_ARGUMENT);
    def = SHOVE_FN(default_world_def)();
    def.step_def.skin = -1.0f;
    cr_expect_eq(SHOVE_FN(world_create)(&def, &w), SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect_eq(w, sentinel, "out untouched when refused");
    /* a flat world (2D level in a 3D world, zero depth) is fine */
    def = SHOVE_FN(default_world_def)();
    def.bounds = BOX(0, 0, 0, 100, 10, 0);
    cr_expect_eq(SHOVE_FN(world_create)(&def, &w), SHOVE_OK);
    SHOVE_FN(world_destroy)(w);
    SHOVE_FN(world_destroy)(NULL);
}

Test(bad_input, bodies_refuse_and_change_nothing) {
    shove_world *w = new_world();
    const shove_id a = add_box(w, BOX(0, 0, 0, 1, 1, 1), SHOVE_BODY_STATIC);
    shove_body_def def = SHOVE_FN(default_body_def)();
    def.box = BOX(0, 0, 0, 1, 1, 1);
    shove_id id = {77, 77};
    cr_expect_eq(SHOVE_FN(body_create)(NULL, &def, &id), SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect_eq(SHOVE_FN(body_create)(w, NULL, &id), SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect_eq(SHOVE_FN(body_create)(w, &def, NULL), SHOVE_ERR_INVALID_ARGUMENT);
    def.box = BOX(0, 0, 0, -1, 1, 1);
    cr_expect_eq(SHOVE_FN(body_create)(w, &def, &id), SHOVE_ERR_INVALID_ARGUMENT);
    def.box = BOX(0, 0, 0, INFINITY, 1, 1);
    cr_expect_eq(SHOVE_FN(body_create)(w, &def, &id), SHOVE_ERR_INVALID_ARGUMENT);
    def.box = BOX(0, NAN, 0, 1, 1, 1);
    cr_expect_eq(SHOVE_FN(body_create)(w, &def, &id), SHOVE_ERR_INVALID_ARGUMENT);
    def.box = BOX(0, 0, 0, 1, 1, 1);
    def.type = (shove_body_type)7;
    cr_expect_eq(SHOVE_FN(body_create)(w, &def, &id), SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect(id.index == 77 && id.generation == 77, "out untouched");
    cr_expect_eq(SHOVE_FN(world_body_count)(w), 1u);
    cr_expect_eq(SHOVE_FN(query_box)(w, BOX(-10, -10, -10, 10, 10, 10), UINT64_MAX, NULL, 0), 1u);

    cr_expect_eq(SHOVE_FN(body_destroy)(NULL, a), SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect_eq(SHOVE_FN(body_get_box)(w, a, NULL), SHOVE_ERR_INVALID_ARGUMENT);
    shove_aabb box;
    cr_expect_eq(SHOVE_FN(body_get_box)(NULL, a, &box), SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect_eq(SHOVE_FN(body_set_box)(NULL, a, BOX(0, 0, 0, 2, 2, 2)),
                 SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect_eq(SHOVE_FN(body_set_box)(w, a, BOX(0, 0, 0, -2, 2, 2)), SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect_eq(SHOVE_FN(body_set_box)(w, a, BOX(0, NAN, 0, 2, 2, 2)), SHOVE_ERR_INVALID_ARGUMENT);
    cr_assert_eq(SHOVE_FN(body_get_box)(w, a, &box), SHOVE_OK);
    cr_expect(same_box(box, BOX(0, 0, 0, 1, 1, 1)), "refused set_box changed the box");
    cr_expect(!SHOVE_FN(body_is_valid)(NULL, a));
    cr_expect_eq(SHOVE_FN(world_body_count)(NULL), 0u);
    SHOVE_FN(world_destroy)(w);
}

Test(bad_input, queries_refuse_quietly) {
    shove_world *w = new_world();
    add_box(w, BOX(0, 0, 0, 1, 1, 1), SHOVE_BODY_STATIC);
    shove_id out[4];
    cr_expect_eq(SHOVE_FN(query_box)(NULL, BOX(0, 0, 0, 1, 1, 1), UINT64_MAX, out, 4), 0u);
    cr_expect_eq(SHOVE_FN(query_box)(w, BOX(0, 0, 0, -1, 1, 1), UINT64_MAX, out, 4), 0u);
    cr_expect_eq(SHOVE_FN(query_box)(w, BOX(0, 0, 0, 1, 1, 1), 0u, out, 4), 0u, "empty mask");
    shove_hit hit;
    hit.t = 42.0f;
    cr_expect(!SHOVE_FN(cast_box)(NULL, BOX(-2, 0, 0, -1, 1, 1), V(5, 0, 0), UINT64_MAX, &hit));
    cr_expect(!SHOVE_FN(cast_box)(w, BOX(-2, 0, 0, -3, 1, 1), V(5, 0, 0), UINT64_MAX, &hit));
    cr_expect(!SHOVE_FN(cast_box)(w, BOX(-2, 0, 0, -1, 1, 1), V(NAN, 0, 0), UINT64_MAX, &hit));
    cr_expect(!SHOVE_FN(cast_ray)(w, V(-2, 0.5, 0.5), V(INFINITY, 0, 0), UINT64_MAX, &hit));
    cr_expect(!SHOVE_FN(cast_ray)(w, V(NAN, 0.5, 0.5), V(5, 0, 0), UINT64_MAX, &hit));
    cr_expect_eq(hit.t, 42.0f, "hit untouched");
    cr_expect(SHOVE_FN(cast_ray)(w, V(-2, 0.5, 0.5), V(5, 0, 0), UINT64_MAX, NULL),
              "a NULL hit is fine");
    const shove_event *events = (const shove_event *)&hit;
    cr_expect_eq(SHOVE_FN(world_get_events)(NULL, &events), 0u);
    cr_expect_null(events);
    cr_expect_eq(SHOVE_FN(world_get_events)(w, NULL), 0u);
    SHOVE_FN(world_draw)(NULL, NULL);
    SHOVE_FN(world_draw)(w, NULL);
    SHOVE_FN(world_destroy)(w);
}

/* >>queries ------------------------------------------------------------------ */

Test(queries, touching_is_not_overlapping_and_masks_filter) {
    shove_world *w = new_world();
    shove_body_def def = SHOVE_FN(default_body_def)();
    def.box = BOX(0, 0, 0, 1, 1, 1);
    def.category = 1u;
    shove_id a, b;
    cr_assert_eq(SHOVE_FN(body_create)(w, &def, &a), SHOVE_OK);
    def.box = BOX(2, 0, 0, 3, 1, 1);
    def.category = 2u;
    def.type = SHOVE_BODY_DYNAMIC;
    cr_assert_eq(SHOVE_FN(body_create)(w, &def, &b), SHOVE_OK);
    shove_id out[2];
    cr_expect_eq(SHOVE_FN(query_box)(w, BOX(1, 0, 0, 2, 1, 1), UINT64_MAX, out, 2), 0u,
                 "a box that touches both overlaps neither");
    cr_expect_eq(SHOVE_FN(query_box)(w, BOX(0.5, 0, 0, 2.5, 1, 1), UINT64_MAX, out, 2), 2u);
    cr_expect_eq(SHOVE_FN(query_box)(w, BOX(0.5, 0, 0, 2.5, 1, 1), 2u, out, 2), 1u);
    cr_expect(shove_id_equal(out[0], b));
    shove_hit hit;
    cr_assert(SHOVE_FN(cast_box)(w, BOX(-2, 0, 0, -1, 1, 1), V(10, 0, 0), UINT64_MAX, &hit));
    cr_expect(shove_id_equal(hit.other, a));
    cr_expect_eq(hit.t, 0.1f);
    EXPECT_VEC_EQ(hit.normal, V(-1, 0, 0));
    cr_assert(SHOVE_FN(cast_box)(w, BOX(-2, 0, 0, -1, 1, 1), V(10, 0, 0), 2u, &hit),
              "masked: passes a, hits b");
    cr_expect(shove_id_equal(hit.other, b));
    cr_expect(!SHOVE_FN(cast_box)(w, BOX(-2, 1, 0, -1, 2, 1), V(10, 0, 0), UINT64_MAX, &hit),
              "sliding along the top faces is no hit");
    cr_assert(SHOVE_FN(cast_ray)(w, V(2.5, 5, 0.5), V(0, -10, 0), UINT64_MAX, &hit));
    cr_expect(shove_id_equal(hit.other, b));
    cr_expect_eq(hit.t, 0.4f);
    EXPECT_VEC_EQ(hit.normal, V(0, 1, 0));
    SHOVE_FN(world_destroy)(w);
}

Test(queries, a_thin_wall_stops_a_long_cast) {
    /* scenario 6: 500 units in one call at a wall 0.01 thick */
    shove_world *w = new_world();
    add_box(w, BOX(250, -5, -5, 250.01, 5, 5), SHOVE_BODY_STATIC);
    shove_hit hit;
    cr_assert(SHOVE_FN(cast_box)(w, BOX(0, 0, 0, 0.5, 0.5, 0.5), V(500, 0, 0), UINT64_MAX, &hit));
    cr_expect_lt(hit.t * 500.0f, 250.0f);
    cr_assert(SHOVE_FN(cast_ray)(w, V(0, 0, 0), V(500, 0, 0), UINT64_MAX, &hit));
    cr_expect_eq(hit.t, 250.0f / 500.0f);
    SHOVE_FN(world_destroy)(w);
}

/* >>debug drawing ------------------------------------------------------------ */

typedef struct draw_log {
    int boxes, points, normals;
    int colored[4]; /* static, dynamic, sensor, other */
    shove_aabb last_box;
} draw_log;

static void log_box(void *ctx, shove_aabb box, uint32_t color) {
    draw_log *log = ctx;
    log->boxes += 1;
    log->last_box = box;
    log->colored[color == 0x9E9E9EFFu   ? 0
                 : color == 0x2196F3FFu ? 1
                 : color == 0xFFC107FFu ? 2
                                        : 3] += 1;
}
static void log_point(void *ctx, shove_vec p, uint32_t color) {
    (void)p;
    (void)color;
    ((draw_log *)ctx)->points += 1;
}
static void log_normal(void *ctx, shove_vec p, shove_vec n, uint32_t color) {
    (void)p;
    (void)n;
    (void)color;
    ((draw_log *)ctx)->normals += 1;
}

Test(draw, bodies_and_tree_nodes_as_asked) {
    shove_world *w = new_world();
    add_box(w, BOX(0, 0, 0, 1, 1, 1), SHOVE_BODY_STATIC);
    add_box(w, BOX(3, 0, 0, 4, 1, 1), SHOVE_BODY_DYNAMIC);
    const shove_id gone = add_box(w, BOX(6, 0, 0, 7, 1, 1), SHOVE_BODY_DYNAMIC);
    cr_assert_eq(SHOVE_FN(body_destroy)(w, gone), SHOVE_OK);
    shove_body_def def = SHOVE_FN(default_body_def)();
    def.box = BOX(-5, -5, -5, -4, -4, -4);
    def.sensor = true;
    shove_id sensor;
    cr_assert_eq(SHOVE_FN(body_create)(w, &def, &sensor), SHOVE_OK);

    draw_log log = {0};
    shove_debug_draw draw = {log_box, log_point, log_normal, false, false, false, &log};
    SHOVE_FN(world_draw)(w, &draw);
    cr_expect_eq(log.boxes + log.points + log.normals, 0, "nothing asked, nothing drawn");

    draw.draw_bodies = true;
    SHOVE_FN(world_draw)(w, &draw);
    cr_expect_eq(log.boxes, 3, "live bodies only");
    cr_expect_eq(log.colored[0], 1);
    cr_expect_eq(log.colored[1], 1);
    cr_expect_eq(log.colored[2], 1);

    memset(&log, 0, sizeof log);
    draw.draw_bodies = false;
    draw.draw_tree = true;
    SHOVE_FN(world_draw)(w, &draw);
    cr_expect_eq(log.boxes, 2, "one root per tree holds these few bodies");
    cr_expect_eq(log.colored[3], 2);

    /* many bodies: the tree splits, and every node drawn is a cell */
    for (int i = 0; i < 200; ++i) {
        add_box(w, BOX(i % 20, i / 20, 0, i % 20 + 0.5, i / 20 + 0.5, 0.5), SHOVE_BODY_STATIC);
    }
    memset(&log, 0, sizeof log);
    SHOVE_FN(world_draw)(w, &draw);
    cr_expect_gt(log.boxes, 2);

    /* callbacks left NULL are skipped */
    shove_debug_draw none = {NULL, NULL, NULL, true, true, true, NULL};
    SHOVE_FN(world_draw)(w, &none);
    SHOVE_FN(world_destroy)(w);
}

/* >>allocator ---------------------------------------------------------------- */

Test(allocator, everything_goes_through_it_and_comes_back) {
    test_alloc counter;
    shove_world_def def = SHOVE_FN(default_world_def)();
    def.allocator = test_alloc_make(&counter);
    def.body_capacity = 4;
    shove_world *w = NULL;
    cr_assert_eq(SHOVE_FN(world_create)(&def, &w), SHOVE_OK);
    cr_expect_gt(counter.calls, 0);
    test_rng r = {99};
    shove_id ids[600];
    for (int i = 0; i < 600; ++i) {
        ids[i] = add_box(w, test_random_box(&r, 500.0f, 0.1f, 5.0f),
                         (i % 2) ? SHOVE_BODY_DYNAMIC : SHOVE_BODY_STATIC);
    }
    for (int i = 0; i < 600; i += 2) {
        cr_assert_eq(SHOVE_FN(body_destroy)(w, ids[i]), SHOVE_OK);
    }
    cr_expect_gt(counter.live, 0);
    SHOVE_FN(world_destroy)(w);
    cr_expect_eq(counter.live, 0, "%lld bytes not given back", counter.live);
    cr_expect(!counter.size_error, "sizes reported to the allocator add up");
}

Test(allocator, out_of_memory_is_a_status_and_changes_nothing) {
    test_alloc counter;
    shove_world_def def = SHOVE_FN(default_world_def)();
    def.allocator = test_alloc_make(&counter);
    def.body_capacity = 0;
    /* creation fails cleanly at every allocation it makes */
    for (long fail = 0; fail < 8; ++fail) {
        counter.fail_after = fail;
        counter.calls = 0;
        shove_world *w = NULL;
        const shove_status s = SHOVE_FN(world_create)(&def, &w);
        if (s == SHOVE_OK) {
            SHOVE_FN(world_destroy)(w);
            break;
        }
        cr_expect_eq(s, SHOVE_ERR_OUT_OF_MEMORY);
        cr_expect_null(w);
        cr_expect_eq(counter.live, 0, "a failed create gives everything back");
    }
    counter.fail_after = -1;
    shove_world *w = NULL;
    cr_assert_eq(SHOVE_FN(world_create)(&def, &w), SHOVE_OK);
    test_rng r = {5};
    int made = 0, refused = 0;
    shove_id ids[400];
    for (int i = 0; i < 400; ++i) {
        /* let only some allocations through: bodies come and go, and the
         * world never holds a half-made body */
        counter.fail_after = counter.calls + (i % 3 == 0 ? 0 : 100);
        shove_body_def bd = SHOVE_FN(default_body_def)();
        bd.box = test_random_box(&r, 50.0f, 0.1f, 3.0f);
        shove_id id = {9, 9};
        const shove_status s = SHOVE_FN(body_create)(w, &bd, &id);
        if (s == SHOVE_OK) {
            ids[made++] = id;
        } else {
            cr_expect_eq(s, SHOVE_ERR_OUT_OF_MEMORY);
            cr_expect(id.index == 9 && id.generation == 9);
            refused += 1;
        }
        cr_assert_eq(SHOVE_FN(world_body_count)(w), (size_t)made);
        cr_assert_eq(SHOVE_IFN(tree_check)(&w->trees[0]), (long)made);
    }
    cr_expect_gt(refused, 0, "some allocations failed");
    counter.fail_after = -1;
    for (int i = 0; i < made; ++i) {
        shove_aabb box;
        cr_expect_eq(SHOVE_FN(body_get_box)(w, ids[i], &box), SHOVE_OK);
        cr_expect_eq(SHOVE_FN(query_box)(w, box, UINT64_MAX, NULL, 0) > 0, true);
    }
    SHOVE_FN(world_destroy)(w);
    cr_expect_eq(counter.live, 0);
}

/* >>cast_body ----------------------------------------------------------------- */

Test(queries, cast_body_skips_the_body_itself) {
    shove_world *w = new_world();
    const shove_id ground = add_box(w, BOX(-10, -1, -10, 10, 0, 10), SHOVE_BODY_STATIC);
    const shove_id player = add_box(w, BOX(0, 2, 0, 1, 4, 1), SHOVE_BODY_DYNAMIC);
    /* A ray from the player's eye hits the player at once... */
    shove_hit hit;
    cr_assert(SHOVE_FN(cast_ray)(w, V(0.5f, 3.5f, 0.5f), V(0, -10, 0), ~(uint64_t)0, &hit));
    cr_expect(shove_id_equal(hit.other, player));
    cr_expect_eq(hit.t, 0.0f);
    /* ...its own box cast down does not: the ground, 2 of 10 units down. */
    memset(&hit, 0, sizeof hit);
    cr_assert(SHOVE_FN(cast_body)(w, player, V(0, -10, 0), &hit));
    cr_expect(shove_id_equal(hit.other, ground));
    cr_expect_eq(hit.t, 0.2f);
    EXPECT_VEC_EQ(hit.normal, V(0, 1, 0));
    cr_expect_not(hit.started_inside);
    /* A body it overlaps is hit at t = 0; the body's mask decides what counts. */
    shove_body_def def = SHOVE_FN(default_body_def)();
    def.box = BOX(0.5f, 3, 0, 1.5f, 5, 1);
    def.category = 4u;
    shove_id crate;
    cr_assert_eq(SHOVE_FN(body_create)(w, &def, &crate), SHOVE_OK);
    cr_assert(SHOVE_FN(cast_body)(w, player, V(0, -10, 0), &hit));
    cr_expect(shove_id_equal(hit.other, crate));
    cr_expect(hit.started_inside);
    cr_assert_eq(SHOVE_FN(body_set_filter)(w, player, 1u, ~(uint64_t)4), SHOVE_OK);
    cr_assert(SHOVE_FN(cast_body)(w, player, V(0, -10, 0), &hit));
    cr_expect(shove_id_equal(hit.other, ground));
    cr_assert_eq(SHOVE_FN(body_set_filter)(w, player, 1u, 0u), SHOVE_OK);
    cr_expect_not(SHOVE_FN(cast_body)(w, player, V(0, -10, 0), &hit), "meets nothing");
    /* Nothing in the way, bad ids and bad deltas: false, hit untouched. */
    cr_assert_eq(SHOVE_FN(body_set_filter)(w, player, 1u, ~(uint64_t)0), SHOVE_OK);
    shove_hit untouched;
    memset(&untouched, 0x5A, sizeof untouched);
    hit = untouched;
    cr_expect(SHOVE_FN(cast_body)(w, player, V(0, 0.5f, 0), NULL), "the crate it is in");
    cr_assert_eq(SHOVE_FN(body_set_box)(w, crate, BOX(5, 3, 0, 6, 5, 1)), SHOVE_OK);
    cr_expect_not(SHOVE_FN(cast_body)(w, player, V(0, 0.5f, 0), &hit), "nothing above");
    cr_expect_not(SHOVE_FN(cast_body)(w, ground, V(0, -5, 0), &hit), "nothing below the ground");
    cr_expect_not(SHOVE_FN(cast_body)(w, SHOVE_NULL_ID, V(0, -10, 0), &hit));
    cr_expect_not(SHOVE_FN(cast_body)(NULL, player, V(0, -10, 0), &hit));
    cr_expect_not(SHOVE_FN(cast_body)(w, player, V(0, NAN, 0), &hit));
    cr_expect_not(SHOVE_FN(cast_body)(w, player, V(INFINITY, -10, 0), &hit));
    cr_expect_eq(memcmp(&hit, &untouched, sizeof hit), 0);
    cr_assert_eq(SHOVE_FN(body_destroy)(w, crate), SHOVE_OK);
    cr_expect_not(SHOVE_FN(cast_body)(w, crate, V(0, -10, 0), &hit), "stale id");
    cr_expect(SHOVE_FN(cast_body)(w, player, V(0, -10, 0), NULL));
    SHOVE_FN(world_destroy)(w);
}
