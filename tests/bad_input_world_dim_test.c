/*
 * bad_input_world_dim_test.c: the world functions fed NULL, NaN,
 * infinities, min > max, broken defs, unknown enum values and stale,
 * foreign, null and never-created ids. Every refusal is checked for its
 * status (or documented "nothing" result) and for changing nothing:
 * outputs are filled with a sentinel byte pattern and compared afterwards,
 * and the world is compared through its whole dump (every body's box and
 * flags, the voxel settings) and its event list, before and after.
 *
 * Covered: world_create, world_destroy, world_body_count,
 * world_shift_origin, body_create, body_destroy, body_is_valid,
 * body_get_box, body_set_box, body_get_user_data, move, world_get_events,
 * world_set_voxels, query_box, body_overlaps, cast_box, cast_ray, world_draw,
 * world_dump, body_set_move_def, body_get_result.
 * Not yet: body_set_motion and world_step (not implemented when this was
 * written).
 */
#include <stdio.h>
#include <stdlib.h>

#include "test_dim.h"
#include "test_world_text.h"
#include "test_bad_input.h"
#include "test_voxel_map.h"

/* >>a world and its fingerprint ------------------------------------------ */

typedef struct fixture {
    shove_world *w;
    shove_world *other; /* for foreign ids */
    test_map *map;
    shove_id ids[8];
    shove_id stale;   /* destroyed */
    shove_id foreign; /* a live body of `other` */
    char *before;     /* the dump before the refused call */
    size_t event_count;
    shove_event events[64];
} fixture;

static fixture make_fixture(void) {
    fixture fx;
    memset(&fx, 0, sizeof fx);
    cr_assert_eq(SHOVE_FN(world_create)(NULL, &fx.w), SHOVE_OK);
    cr_assert_eq(SHOVE_FN(world_create)(NULL, &fx.other), SHOVE_OK);
    fx.map = map_new(-4, -2, -4, 12, 3, 12);
    for (int x = -4; x < 8; ++x) {
        for (int z = -4; z < 8; ++z) {
            map_set(fx.map, x, -1, z, CELL_FULL);
        }
    }
    const shove_voxel_def vdef = map_def(fx.map, V(0, 0, 0), 1.0f);
    cr_assert_eq(SHOVE_FN(world_set_voxels)(fx.w, &vdef), SHOVE_OK);
    for (int i = 0; i < 8; ++i) {
        shove_body_def def = SHOVE_FN(default_body_def)();
        def.type = i % 2 ? SHOVE_BODY_DYNAMIC : SHOVE_BODY_STATIC;
        def.box = BOX(1.5f * (float)i, 0, 0, 1.5f * (float)i + 1, 1, 1);
        def.user_data = &fx;
        cr_assert_eq(SHOVE_FN(body_create)(fx.w, &def, &fx.ids[i]), SHOVE_OK);
    }
    shove_body_def def = SHOVE_FN(default_body_def)();
    def.box = BOX(-3, 0, 0, -2, 1, 1);
    cr_assert_eq(SHOVE_FN(body_create)(fx.w, &def, &fx.stale), SHOVE_OK);
    cr_assert_eq(SHOVE_FN(body_destroy)(fx.w, fx.stale), SHOVE_OK);
    cr_assert_eq(SHOVE_FN(body_create)(fx.other, &def, &fx.foreign), SHOVE_OK);
    /* one move, so the world has events to keep */
    shove_move_result r;
    cr_assert_eq(SHOVE_FN(move)(fx.w, fx.ids[1], V(0.4, -1, 0), NULL, &r), SHOVE_OK);
    return fx;
}

static void free_fixture(fixture *fx) {
    SHOVE_FN(world_destroy)(fx->w);
    SHOVE_FN(world_destroy)(fx->other);
    map_free(fx->map);
    free(fx->before);
}

/* Remember the world's state before a refused call... */
static void remember(fixture *fx) {
    free(fx->before);
    fx->before = world_text(fx->w);
    const shove_event *ev = NULL;
    fx->event_count = SHOVE_FN(world_get_events)(fx->w, &ev);
    cr_assert_leq(fx->event_count, 64u);
    if (fx->event_count) { /* an empty list may be NULL */
        memcpy(fx->events, ev, fx->event_count * sizeof *ev);
    }
}

/* ...and check it after. */
static void expect_unchanged(fixture *fx, const char *what) {
    char *now = world_text(fx->w);
    cr_expect_str_eq(now, fx->before, "%s changed the world", what);
    free(now);
    const shove_event *ev = NULL;
    const size_t n = SHOVE_FN(world_get_events)(fx->w, &ev);
    cr_expect_eq(n, fx->event_count, "%s changed the event list", what);
    cr_expect(n == 0 || memcmp(ev, fx->events, n * sizeof *ev) == 0, "%s changed the events", what);
}

/* Bad ids: null, destroyed, another world's, a slot never used, a live
 * body's slot with another generation. */
static int bad_ids(const fixture *fx, shove_id out[8]) {
    int n = 0;
    out[n++] = SHOVE_NULL_ID;
    out[n++] = fx->stale;
    out[n++] = fx->foreign;
    out[n++] = (shove_id){1000u, fx->ids[0].generation};
    out[n++] = (shove_id){UINT32_MAX, UINT32_MAX};
    shove_id g = fx->ids[0];
    g.generation += 1u;
    out[n++] = g;
    g = fx->ids[0];
    g.generation ^= 0x80000000u; /* another world's tag */
    out[n++] = g;
    return n;
}

/* Move defs a move must refuse. */
static int bad_move_defs(shove_move_def out[16], shove_contact *contacts) {
    const shove_move_def good = SHOVE_FN(default_move_def)();
    int n = 0;
    out[n] = good;
    out[n++].skin = -1.0f;
    out[n] = good;
    out[n++].skin = NAN;
    out[n] = good;
    out[n++].step_height = INFINITY;
    out[n] = good;
    out[n++].step_height = -0.5f;
    out[n] = good;
    out[n].up_axis = -1; /* a step height needs an up axis */
    out[n++].step_height = 0.6f;
    out[n] = good;
    out[n++].edge_footing = NAN;
    out[n] = good;
    out[n++].edge_footing = -0.5f;
    out[n] = good;
    out[n++].max_iterations = 0;
    out[n] = good;
    out[n++].max_iterations = 65;
    out[n] = good;
    out[n++].up_axis = SHOVE_DIM;
    out[n] = good;
    out[n++].up_axis = -2;
    out[n] = good;
    out[n++].response = (shove_response)5;
    out[n] = good;
    out[n++].response = (shove_response)-1;
    out[n] = good;
    out[n].contacts = NULL;
    out[n++].contact_capacity = 4;
    out[n] = good;
    out[n].contacts = contacts;
    out[n++].contact_capacity = -1;
    return n;
}

/* >>world ---------------------------------------------------------------- */

Test(bad_input_world, create_refuses_broken_defs) {
    shove_world *w;
    fill(&w, sizeof w);
    cr_expect_eq(SHOVE_FN(world_create)(NULL, NULL), SHOVE_ERR_INVALID_ARGUMENT);
    const shove_world_def good = SHOVE_FN(default_world_def)();
    shove_world_def defs[48];
    int n = 0;
    shove_aabb bad[MAX_BAD];
    const int nb = bad_boxes(good.bounds, bad);
    for (int i = 0; i < nb && n < 30; ++i) {
        defs[n] = good;
        defs[n++].bounds = bad[i];
    }
    defs[n] = good;
    defs[n++].bounds = BOX(1, 1, 1, 1, 1, 1); /* no size at all */
    defs[n] = good;
    defs[n].bounds = BOX(-3e38, 0, 0, 3e38, 1, 1); /* a size that is not finite */
    ++n;
    defs[n] = good;
    defs[n++].body_capacity = -1;
    shove_move_def moves[16];
    shove_contact contacts[4];
    const int nm = bad_move_defs(moves, contacts);
    for (int i = 0; i < nm && n < 48; ++i) {
        if (moves[i].contact_capacity != 0) {
            continue; /* the step ignores contacts */
        }
        defs[n] = good;
        defs[n++].step_def = moves[i];
    }
    for (int i = 0; i < n; ++i) {
        fill(&w, sizeof w);
        cr_expect_eq(SHOVE_FN(world_create)(&defs[i], &w), SHOVE_ERR_INVALID_ARGUMENT,
                     "world def %d", i);
        EXPECT_UNTOUCHED(w, "world_create");
    }
    /* NULL is fine where documented */
    SHOVE_FN(world_destroy)(NULL);
    cr_expect_eq(SHOVE_FN(world_body_count)(NULL), 0u);
}

Test(bad_input_world, shift_origin_refuses_without_moving_anything) {
    fixture fx = make_fixture();
    cr_expect_eq(SHOVE_FN(world_shift_origin)(NULL, V(1, 1, 1)), SHOVE_ERR_INVALID_ARGUMENT);
    shove_vec bad[MAX_BAD];
    const int n = bad_vecs(V(1, 2, 3), bad);
    for (int i = 0; i < n; ++i) {
        remember(&fx);
        cr_expect_eq(SHOVE_FN(world_shift_origin)(fx.w, bad[i]), SHOVE_ERR_INVALID_ARGUMENT);
        expect_unchanged(&fx, "shift_origin");
    }
    /* a shift that would push a coordinate beyond float range */
    shove_body_def far = SHOVE_FN(default_body_def)();
    far.box = BOX(-2e38, 0, 0, -1e38, 1, 1);
    shove_id id;
    cr_assert_eq(SHOVE_FN(body_create)(fx.w, &far, &id), SHOVE_OK);
    remember(&fx);
    cr_expect_eq(SHOVE_FN(world_shift_origin)(fx.w, V(2e38, 0, 0)), SHOVE_ERR_INVALID_ARGUMENT);
    expect_unchanged(&fx, "shift_origin beyond float range");
    free_fixture(&fx);
}

/* >>bodies --------------------------------------------------------------- */

Test(bad_input_world, body_create_refuses_broken_defs) {
    fixture fx = make_fixture();
    shove_body_def good = SHOVE_FN(default_body_def)();
    good.box = BOX(0, 3, 0, 1, 4, 1);
    shove_id id;
    fill(&id, sizeof id);
    cr_expect_eq(SHOVE_FN(body_create)(NULL, &good, &id), SHOVE_ERR_INVALID_ARGUMENT);
    EXPECT_UNTOUCHED(id, "body_create");
    remember(&fx);
    cr_expect_eq(SHOVE_FN(body_create)(fx.w, NULL, &id), SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect_eq(SHOVE_FN(body_create)(fx.w, &good, NULL), SHOVE_ERR_INVALID_ARGUMENT);
    EXPECT_UNTOUCHED(id, "body_create");
    expect_unchanged(&fx, "body_create(NULL)");
    shove_aabb bad[MAX_BAD];
    const int nb = bad_boxes(good.box, bad);
    for (int i = 0; i < nb; ++i) {
        shove_body_def def = good;
        def.box = bad[i];
        cr_expect_eq(SHOVE_FN(body_create)(fx.w, &def, &id), SHOVE_ERR_INVALID_ARGUMENT, "box %d",
                     i);
        EXPECT_UNTOUCHED(id, "body_create");
    }
    const int types[3] = {2, -1, 1000};
    for (int i = 0; i < 3; ++i) {
        shove_body_def def = good;
        def.type = (shove_body_type)types[i];
        cr_expect_eq(SHOVE_FN(body_create)(fx.w, &def, &id), SHOVE_ERR_INVALID_ARGUMENT);
        EXPECT_UNTOUCHED(id, "body_create");
    }
    expect_unchanged(&fx, "body_create");
    cr_expect_eq(SHOVE_FN(world_body_count)(fx.w), 8u);
    free_fixture(&fx);
}

Test(bad_input_world, stale_foreign_and_null_ids) {
    fixture fx = make_fixture();
    shove_id bad[8];
    const int n = bad_ids(&fx, bad);
    shove_contact contacts[4];
    for (int i = 0; i < n; ++i) {
        remember(&fx);
        cr_expect(!SHOVE_FN(body_is_valid)(fx.w, bad[i]), "bad id %d is valid", i);
        void *data = &fx;
        cr_expect_eq(SHOVE_FN(body_get_user_data)(fx.w, bad[i], &data), SHOVE_ERR_STALE_ID);
        cr_expect_eq(data, &fx);
        cr_expect_eq(SHOVE_FN(body_set_user_data)(fx.w, bad[i], NULL), SHOVE_ERR_STALE_ID);
        cr_expect_eq(SHOVE_FN(body_set_type)(fx.w, bad[i], SHOVE_BODY_STATIC), SHOVE_ERR_STALE_ID);
        cr_expect_eq(SHOVE_FN(body_set_priority)(fx.w, bad[i], 7), SHOVE_ERR_STALE_ID);
        cr_expect_eq(SHOVE_FN(body_set_filter)(fx.w, bad[i], 0u, 0u), SHOVE_ERR_STALE_ID);
        const shove_move_def own = {.edge_guard = true};
        cr_expect_eq(SHOVE_FN(body_set_move_def)(fx.w, bad[i], &own), SHOVE_ERR_STALE_ID);
        cr_expect_eq(SHOVE_FN(body_set_move_def)(fx.w, bad[i], NULL), SHOVE_ERR_STALE_ID);
        shove_move_result last;
        fill(&last, sizeof last);
        cr_expect_eq(SHOVE_FN(body_get_result)(fx.w, bad[i], &last), SHOVE_ERR_STALE_ID);
        EXPECT_UNTOUCHED(last, "body_get_result");
        cr_expect_eq(SHOVE_FN(body_destroy)(fx.w, bad[i]), SHOVE_ERR_STALE_ID, "destroy %d", i);
        shove_aabb box;
        fill(&box, sizeof box);
        cr_expect_eq(SHOVE_FN(body_get_box)(fx.w, bad[i], &box), SHOVE_ERR_STALE_ID);
        EXPECT_UNTOUCHED(box, "body_get_box");
        cr_expect_eq(SHOVE_FN(body_set_box)(fx.w, bad[i], BOX(0, 5, 0, 1, 6, 1)),
                     SHOVE_ERR_STALE_ID);
        shove_move_def def = SHOVE_FN(default_move_def)();
        def.contacts = contacts;
        def.contact_capacity = 4;
        fill(contacts, sizeof contacts);
        shove_move_result r;
        fill(&r, sizeof r);
        cr_expect_eq(SHOVE_FN(move)(fx.w, bad[i], V(1, 0, 0), &def, &r), SHOVE_ERR_STALE_ID);
        EXPECT_UNTOUCHED(r, "move");
        EXPECT_UNTOUCHED(contacts, "move contacts");
        expect_unchanged(&fx, "a bad id");
    }
    /* NULL worlds */
    shove_aabb box;
    fill(&box, sizeof box);
    cr_expect(!SHOVE_FN(body_is_valid)(NULL, fx.ids[0]));
    void *data = &fx;
    cr_expect_eq(SHOVE_FN(body_get_user_data)(NULL, fx.ids[0], &data), SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect_eq(SHOVE_FN(body_get_user_data)(fx.w, fx.ids[0], NULL), SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect_eq(data, &fx);
    cr_expect_eq(SHOVE_FN(body_set_user_data)(NULL, fx.ids[0], NULL), SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect_eq(SHOVE_FN(body_set_type)(NULL, fx.ids[0], SHOVE_BODY_DYNAMIC),
                 SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect_eq(SHOVE_FN(body_set_priority)(NULL, fx.ids[0], 1), SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect_eq(SHOVE_FN(body_set_filter)(NULL, fx.ids[0], 1u, 1u), SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect_eq(SHOVE_FN(body_set_move_def)(NULL, fx.ids[0], NULL), SHOVE_ERR_INVALID_ARGUMENT);
    shove_move_result last;
    fill(&last, sizeof last);
    cr_expect_eq(SHOVE_FN(body_get_result)(NULL, fx.ids[0], &last), SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect_eq(SHOVE_FN(body_get_result)(fx.w, fx.ids[0], NULL), SHOVE_ERR_INVALID_ARGUMENT);
    EXPECT_UNTOUCHED(last, "body_get_result");
    /* A type outside the enum changes nothing. */
    remember(&fx);
    cr_expect_eq(SHOVE_FN(body_set_type)(fx.w, fx.ids[0], (shove_body_type)7),
                 SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect_eq(SHOVE_FN(body_set_type)(fx.w, fx.ids[0], (shove_body_type)-1),
                 SHOVE_ERR_INVALID_ARGUMENT);
    expect_unchanged(&fx, "a bad body type");
    cr_expect_eq(SHOVE_FN(body_destroy)(NULL, fx.ids[0]), SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect_eq(SHOVE_FN(body_get_box)(NULL, fx.ids[0], &box), SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect_eq(SHOVE_FN(body_get_box)(fx.w, fx.ids[0], NULL), SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect_eq(SHOVE_FN(body_set_box)(NULL, fx.ids[0], BOX(0, 0, 0, 1, 1, 1)),
                 SHOVE_ERR_INVALID_ARGUMENT);
    EXPECT_UNTOUCHED(box, "body_get_box");
    free_fixture(&fx);
}

Test(bad_input_world, set_box_refuses_broken_boxes) {
    fixture fx = make_fixture();
    shove_aabb bad[MAX_BAD];
    const int n = bad_boxes(BOX(0, 3, 0, 1, 4, 1), bad);
    for (int i = 0; i < n; ++i) {
        remember(&fx);
        cr_expect_eq(SHOVE_FN(body_set_box)(fx.w, fx.ids[3], bad[i]), SHOVE_ERR_INVALID_ARGUMENT,
                     "box %d", i);
        expect_unchanged(&fx, "body_set_box");
    }
    free_fixture(&fx);
}

/* >>per-body move settings ------------------------------------------------ */

Test(bad_input_world, body_set_move_def_refuses_what_the_step_def_refuses) {
    fixture fx = make_fixture();
    shove_contact contacts[4];
    shove_move_def defs[16];
    const int nd = bad_move_defs(defs, contacts);
    int refused = 0;
    for (int i = 0; i < nd; ++i) {
        if (defs[i].contact_capacity != 0) {
            continue; /* the step ignores contacts, as for the world's step_def */
        }
        remember(&fx);
        cr_expect_eq(SHOVE_FN(body_set_move_def)(fx.w, fx.ids[1], &defs[i]),
                     SHOVE_ERR_INVALID_ARGUMENT, "def %d", i);
        expect_unchanged(&fx, "body_set_move_def with a broken def");
        refused += 1;
    }
    cr_expect(refused >= 10);
    shove_move_def unknown = SHOVE_FN(default_move_def)();
    unknown.internal_literal_mark = 7u; /* never initialised */
    remember(&fx);
    cr_expect_eq(SHOVE_FN(body_set_move_def)(fx.w, fx.ids[1], &unknown),
                 SHOVE_ERR_INVALID_ARGUMENT);
    expect_unchanged(&fx, "body_set_move_def with an unknown mark");
    free_fixture(&fx);
}

/* >>moves ---------------------------------------------------------------- */

Test(bad_input_world, move_refuses_broken_input) {
    fixture fx = make_fixture();
    shove_contact contacts[4];
    shove_move_result r;
    shove_move_def defs[16];
    const int nd = bad_move_defs(defs, contacts);
    for (int i = 0; i < nd; ++i) {
        remember(&fx);
        fill(&r, sizeof r);
        fill(contacts, sizeof contacts);
        cr_expect_eq(SHOVE_FN(move)(fx.w, fx.ids[1], V(1, -1, 0), &defs[i], &r),
                     SHOVE_ERR_INVALID_ARGUMENT, "def %d", i);
        EXPECT_UNTOUCHED(r, "move");
        EXPECT_UNTOUCHED(contacts, "move contacts");
        expect_unchanged(&fx, "move with a broken def");
    }
    shove_vec bad[MAX_BAD];
    const int nv = bad_vecs(V(1, -1, 0), bad);
    for (int i = 0; i < nv; ++i) {
        remember(&fx);
        fill(&r, sizeof r);
        cr_expect_eq(SHOVE_FN(move)(fx.w, fx.ids[1], bad[i], NULL, &r), SHOVE_ERR_INVALID_ARGUMENT);
        EXPECT_UNTOUCHED(r, "move");
        expect_unchanged(&fx, "move with a broken motion");
    }
    remember(&fx);
    fill(&r, sizeof r);
    cr_expect_eq(SHOVE_FN(move)(NULL, fx.ids[1], V(1, 0, 0), NULL, &r), SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect_eq(SHOVE_FN(move)(fx.w, fx.ids[1], V(1, 0, 0), NULL, NULL),
                 SHOVE_ERR_INVALID_ARGUMENT);
    EXPECT_UNTOUCHED(r, "move");
    expect_unchanged(&fx, "move(NULL)");
    /* a finite motion whose end box leaves float range: refused like
     * shove_slide refuses it */
    shove_body_def far = SHOVE_FN(default_body_def)();
    far.box = BOX(1e38, 0, 0, 2e38, 1, 1);
    shove_id id;
    cr_assert_eq(SHOVE_FN(body_create)(fx.w, &far, &id), SHOVE_OK);
    remember(&fx);
    fill(&r, sizeof r);
    cr_expect_eq(SHOVE_FN(move)(fx.w, id, V(2e38, 0, 0), NULL, &r), SHOVE_ERR_INVALID_ARGUMENT);
    EXPECT_UNTOUCHED(r, "move beyond float range");
    expect_unchanged(&fx, "move beyond float range");
    free_fixture(&fx);
}

/* >>events --------------------------------------------------------------- */

Test(bad_input_world, events_of_no_world) {
    const shove_event *ev;
    fill(&ev, sizeof ev);
    cr_expect_eq(SHOVE_FN(world_get_events)(NULL, &ev), 0u);
    cr_expect_null(ev);
    cr_expect_eq(SHOVE_FN(world_get_events)(NULL, NULL), 0u);
}

/* >>voxels --------------------------------------------------------------- */

Test(bad_input_world, set_voxels_refuses_broken_defs) {
    fixture fx = make_fixture();
    const shove_voxel_def good = map_def(fx.map, V(0, 0, 0), 1.0f);
    shove_voxel_def defs[48];
    int n = 0;
    const float sizes[5] = {0.0f, -1.0f, NAN, INFINITY, -INFINITY};
    for (int k = 0; k < 5; ++k) {
        defs[n] = good;
        defs[n++].voxel_size = sizes[k];
    }
    shove_vec badv[MAX_BAD];
    const int nv = bad_vecs(V(0, 0, 0), badv);
    for (int i = 0; i < nv; ++i) {
        defs[n] = good;
        defs[n++].origin = badv[i];
    }
    shove_aabb badb[MAX_BAD];
    const int nb = bad_boxes(good.shape_bounds, badb);
    for (int i = 0; i < nb && n < 44; ++i) {
        defs[n] = good;
        defs[n++].shape_bounds = badb[i];
    }
    defs[n] = good;
    defs[n++].shape_bounds = BOX(-1.5, 0, 0, 1, 1, 1); /* beyond [-1, 2] */
    defs[n] = good;
    defs[n++].shape_bounds = BOX(0, 0, 0, 1, 2.5, 1);
    cr_expect_eq(SHOVE_FN(world_set_voxels)(NULL, &good), SHOVE_ERR_INVALID_ARGUMENT);
    remember(&fx);
    cr_expect_eq(SHOVE_FN(world_set_voxels)(fx.w, NULL), SHOVE_ERR_INVALID_ARGUMENT);
    expect_unchanged(&fx, "set_voxels(NULL)");
    for (int i = 0; i < n; ++i) {
        remember(&fx);
        cr_expect_eq(SHOVE_FN(world_set_voxels)(fx.w, &defs[i]), SHOVE_ERR_INVALID_ARGUMENT,
                     "voxel def %d", i);
        expect_unchanged(&fx, "set_voxels");
    }
    free_fixture(&fx);
}

/* >>queries -------------------------------------------------------------- */

Test(bad_input_world, queries_and_casts_refuse_without_writing) {
    fixture fx = make_fixture();
    shove_id found[4];
    shove_hit hit;
    /* the good calls find something */
    cr_assert_gt(SHOVE_FN(query_box)(fx.w, BOX(-1, -1, -1, 20, 2, 2), UINT64_MAX, found, 4), 0u);
    cr_assert(SHOVE_FN(cast_box)(fx.w, BOX(0, 5, 0, 1, 6, 1), V(0, -10, 0), UINT64_MAX, &hit));
    shove_aabb bad[MAX_BAD];
    const int nb = bad_boxes(BOX(-1, -1, -1, 20, 2, 2), bad);
    for (int i = 0; i < nb; ++i) {
        fill(found, sizeof found);
        cr_expect_eq(SHOVE_FN(query_box)(fx.w, bad[i], UINT64_MAX, found, 4), 0u, "query %d", i);
        EXPECT_UNTOUCHED(found, "query_box");
        fill(&hit, sizeof hit);
        cr_expect(!SHOVE_FN(cast_box)(fx.w, bad[i], V(0, -10, 0), UINT64_MAX, &hit));
        EXPECT_UNTOUCHED(hit, "cast_box");
    }
    shove_vec badv[MAX_BAD];
    const int nv = bad_vecs(V(0, -10, 0), badv);
    for (int i = 0; i < nv; ++i) {
        fill(&hit, sizeof hit);
        cr_expect(!SHOVE_FN(cast_box)(fx.w, BOX(0, 5, 0, 1, 6, 1), badv[i], UINT64_MAX, &hit));
        cr_expect(!SHOVE_FN(cast_ray)(fx.w, V(0.5, 5, 0.5), badv[i], UINT64_MAX, &hit));
        cr_expect(!SHOVE_FN(cast_ray)(fx.w, badv[i], V(0, -10, 0), UINT64_MAX, &hit));
        EXPECT_UNTOUCHED(hit, "cast");
    }
    fill(found, sizeof found);
    fill(&hit, sizeof hit);
    cr_expect_eq(SHOVE_FN(query_box)(NULL, BOX(0, 0, 0, 1, 1, 1), UINT64_MAX, found, 4), 0u);
    cr_expect(!SHOVE_FN(cast_box)(NULL, BOX(0, 5, 0, 1, 6, 1), V(0, -10, 0), UINT64_MAX, &hit));
    cr_expect(!SHOVE_FN(cast_ray)(NULL, V(0, 5, 0), V(0, -10, 0), UINT64_MAX, &hit));
    EXPECT_UNTOUCHED(found, "query_box");
    EXPECT_UNTOUCHED(hit, "cast");
    /* NULL out with a capacity counts without writing */
    cr_expect_gt(SHOVE_FN(query_box)(fx.w, BOX(-1, -1, -1, 20, 2, 2), UINT64_MAX, NULL, 4), 0u);
    /* body_overlaps: 0 for a NULL world and every bad id, nothing written */
    shove_id ids[8];
    const int ni = bad_ids(&fx, ids);
    for (int i = 0; i < ni; ++i) {
        fill(found, sizeof found);
        cr_expect_eq(SHOVE_FN(body_overlaps)(fx.w, ids[i], found, 4), 0u, "bad id %d", i);
        EXPECT_UNTOUCHED(found, "body_overlaps");
    }
    fill(found, sizeof found);
    cr_expect_eq(SHOVE_FN(body_overlaps)(NULL, fx.ids[0], found, 4), 0u);
    EXPECT_UNTOUCHED(found, "body_overlaps");
    cr_expect_eq(SHOVE_FN(body_overlaps)(fx.w, fx.ids[0], NULL, 4),
                 SHOVE_FN(body_overlaps)(fx.w, fx.ids[0], found, 4));
    free_fixture(&fx);
}

/* >>debugging ------------------------------------------------------------ */

static int draw_calls;

static void count_box(void *ctx, shove_aabb box, uint32_t color) {
    (void)ctx;
    (void)box;
    (void)color;
    ++draw_calls;
}

Test(bad_input_world, draw_with_nothing_to_draw_on) {
    fixture fx = make_fixture();
    shove_debug_draw d;
    memset(&d, 0, sizeof d);
    d.draw_box = count_box;
    d.draw_bodies = d.draw_contacts = d.draw_tree = true;
    draw_calls = 0;
    SHOVE_FN(world_draw)(NULL, &d);
    SHOVE_FN(world_draw)(fx.w, NULL);
    cr_expect_eq(draw_calls, 0);
    /* flags without callbacks: nothing to call, nothing breaks */
    memset(&d, 0, sizeof d);
    d.draw_bodies = d.draw_contacts = d.draw_tree = true;
    remember(&fx);
    SHOVE_FN(world_draw)(fx.w, &d);
    expect_unchanged(&fx, "world_draw");
    free_fixture(&fx);
}
