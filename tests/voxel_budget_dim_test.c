/*
 * voxel_budget_dim_test.c: what voxel moves, steps and casts cost, and what
 * they do with absurd requests and lying callbacks. Costs are counted in
 * callback calls, never timed:
 *
 *   - a blocked mover reads the same cells whatever it asked for;
 *   - casts stop reading at their hit, however long they are;
 *   - the solid range makes paths outside it free;
 *   - max_cells caps every call, which is refused (SHOVE_ERR_OUT_OF_RANGE)
 *     past it, as past float precision, with nothing changed;
 *   - long moves with nothing in the way end exactly where they were sent,
 *     and their one run on the path's voxels gives what one run on every
 *     voxel around gives;
 *   - callbacks that answer bad counts or bad boxes fail the call
 *     (SHOVE_ERR_INVALID_ARGUMENT, casts false), never pass a mover through.
 */
#include <float.h>
#include <stdio.h>
#include <stdlib.h>

#include "test_dim.h"
#include "test_world_text.h"
#include "test_voxel_map.h"

/* >>an endless flat world ------------------------------------------------ */

/* Ground: the cells of row y = -1 (top face at y = 0) everywhere, and a
 * wall of full cells at x = wall_x (when not 0), y 0 .. 3. `lie` makes
 * every non-empty cell answer a broken shape (see flat_shapes). */
typedef struct flat_world {
    long calls;
    int32_t wall_x;
    int lie;
    int32_t low_y; /* no cell below this row was ever read (checked) */
    bool read_below;
} flat_world;

static int flat_shapes_at(flat_world *f, int32_t x, int32_t y,
                          shove_aabb out[SHOVE_VOXEL_MAX_BOXES]) {
    f->calls += 1;
    f->read_below = f->read_below || y < f->low_y;
    const bool solid = y == -1 || (f->wall_x != 0 && x == f->wall_x && y >= 0 && y <= 3);
    if (!solid) {
        return 0;
    }
    out[0] = BOX(0, 0, 0, 1, 1, 1);
    switch (f->lie) {
    case 1: /* a wall 2 tall, past the default shape bounds (1.5) */
        out[0].max.raw[1] = 2.0f;
        return 1;
    case 2:
        out[0].min.raw[0] = NAN;
        return 1;
    case 3: /* inverted */
        out[0].min.raw[1] = 1.0f;
        out[0].max.raw[1] = 0.0f;
        return 1;
    case 4:
        return SHOVE_VOXEL_MAX_BOXES + 1;
    case 5:
        return -1;
    default:
        return 1;
    }
}

#if SHOVE_DIM == 3
static int flat_shapes(void *ctx, int32_t x, int32_t y, int32_t z,
                       shove_aabb out[SHOVE_VOXEL_MAX_BOXES]) {
    (void)z;
    return flat_shapes_at(ctx, x, y, out);
}
#else
static int flat_shapes(void *ctx, int32_t x, int32_t y, shove_aabb out[SHOVE_VOXEL_MAX_BOXES]) {
    return flat_shapes_at(ctx, x, y, out);
}
#endif

static shove_world *flat_world_new(flat_world *f, const shove_voxel_def *base) {
    f->low_y = INT32_MIN;
    shove_world *w = NULL;
    cr_assert_eq(SHOVE_FN(world_create)(NULL, &w), SHOVE_OK);
    shove_voxel_def d = base ? *base : SHOVE_FN(default_voxel_def)();
    d.shapes = flat_shapes;
    d.ctx = f;
    cr_assert_eq(SHOVE_FN(world_set_voxels)(w, &d), SHOVE_OK);
    return w;
}

static shove_id add_mob(shove_world *w, shove_aabb box) {
    shove_body_def def = SHOVE_FN(default_body_def)();
    def.box = box;
    def.type = SHOVE_BODY_DYNAMIC;
    shove_id id;
    cr_assert_eq(SHOVE_FN(body_create)(w, &def, &id), SHOVE_OK);
    return id;
}

/* A mob 0.6 wide and 1.8 tall resting on the ground at (x, z). */
static shove_aabb mob_at(float x, float z) {
    return BOX(x, 0, z, x + 0.6f, 1.8f, z + 0.6f);
}

static bool box_is_finite(shove_aabb b) {
    for (int a = 0; a < SHOVE_DIM; ++a) {
        if (!isfinite(b.min.raw[a]) || !isfinite(b.max.raw[a])) {
            return false;
        }
    }
    return true;
}

/* >>cost stops where the motion stops ------------------------------------- */

Test(voxel_budget, a_blocked_mover_reads_the_same_cells_whatever_it_asked) {
    static const float asks[] = {10.0f, 1e3f, 1e6f, 1e9f, 3e38f};
    long calls[5];
    for (int i = 0; i < 5; ++i) {
        flat_world f = {0};
        shove_world *w = flat_world_new(&f, NULL);
        const shove_id id = add_mob(w, mob_at(0.2f, 0.2f));
        f.calls = 0;
        shove_move_result r;
        cr_assert_eq(SHOVE_FN(move)(w, id, V(0, -asks[i], 0), NULL, &r), SHOVE_OK, "ask %g",
                     (double)asks[i]);
        EXPECT_VEC_EQ(r.box.min, mob_at(0.2f, 0.2f).min);
        cr_expect(r.on_ground);
        calls[i] = f.calls;
        SHOVE_FN(world_destroy)(w);
    }
    for (int i = 1; i < 5; ++i) {
        cr_expect_eq(calls[i], calls[0], "asked %g: %ld calls, asked 10: %ld", (double)asks[i],
                     calls[i], calls[0]);
    }
    cr_expect_lt(calls[0], 200, "%ld", calls[0]);
}

Test(voxel_budget, a_move_into_a_wall_reads_up_to_the_wall) {
    long calls[3];
    static const float asks[] = {100.0f, 1e5f, 1e7f};
    for (int i = 0; i < 3; ++i) {
        flat_world f = {0};
        f.wall_x = 50;
        shove_world *w = flat_world_new(&f, NULL);
        const shove_id id = add_mob(w, mob_at(0.2f, 0.2f));
        f.calls = 0;
        shove_move_result r;
        cr_assert_eq(SHOVE_FN(move)(w, id, V(asks[i], 0, 0), NULL, &r), SHOVE_OK);
        cr_expect(r.box.max.raw[0] <= 50.0f && r.box.max.raw[0] > 49.99f, "%.9g",
                  (double)r.box.max.raw[0]);
        cr_expect(r.hit_wall);
        calls[i] = f.calls;
        SHOVE_FN(world_destroy)(w);
    }
    /* the path to the wall, whatever lies beyond it */
    cr_expect_lt(calls[0], 3000, "%ld", calls[0]);
    cr_expect_eq(calls[1], calls[2], "%ld vs %ld", calls[1], calls[2]);
    cr_expect_lt(calls[2], 3000, "%ld", calls[2]);
}

Test(voxel_budget, casts_stop_at_the_hit) {
    static const float lengths[] = {100.0f, 1e8f, 3e38f};
    for (int i = 0; i < 3; ++i) {
        flat_world f = {0};
        f.wall_x = 50;
        shove_world *w = flat_world_new(&f, NULL);
        f.calls = 0;
        shove_hit hit;
        memset(&hit, 0, sizeof hit);
        cr_assert(SHOVE_FN(cast_ray)(w, V(0.5, 1.5, 0.5), V(lengths[i], 0, 0), UINT64_MAX, &hit));
        cr_expect_eq(hit.t, 49.5f / lengths[i], "%g: t %.9g", (double)lengths[i], (double)hit.t);
        EXPECT_VEC_EQ(hit.normal, V(-1, 0, 0));
        cr_expect_lt(f.calls, 400, "%g: %ld calls", (double)lengths[i], f.calls);
        /* a box cast along the ground, down onto it from far above */
        f.calls = 0;
        cr_assert(SHOVE_FN(cast_box)(w, mob_at(0.2f, 0.2f), V(lengths[i], 0, 0), UINT64_MAX, &hit));
        cr_expect_eq(hit.t, 49.2f / lengths[i], "%.9g", (double)hit.t);
        cr_expect_lt(f.calls, 1000, "%g: %ld calls", (double)lengths[i], f.calls);
        f.calls = 0;
        cr_assert(SHOVE_FN(cast_box)(w, BOX(10.25, 20, 0.25, 10.75, 21, 0.75), V(0, -lengths[i], 0),
                                     UINT64_MAX, &hit));
        cr_expect_eq(hit.t, 20.0f / lengths[i], "%.9g", (double)hit.t);
        EXPECT_VEC_EQ(hit.normal, V(0, 1, 0));
        cr_expect_lt(f.calls, 500, "%g: %ld calls", (double)lengths[i], f.calls);
        SHOVE_FN(world_destroy)(w);
    }
}

Test(voxel_budget, a_walk_costs_the_cells_it_reads_whatever_the_box) {
    /* A box 2^19 voxels long cast along its length: each voxel of the path
     * adds two cells (the rows y -1 and 0 its shape bounds reach) to the
     * cells of the box itself, read once. The walk must not step through
     * the box's cells again for every voxel it goes (2^19 * 2^19 of them:
     * this test would not end). It stops at the wall whatever it asked. */
    const float length = 0x1p19f;
    const shove_aabb along = BOX(0.25, 0.25, 0.25, 0.25f + length, 0.75, 0.75);
    static const float asks[] = {0x1p21f, 0x1p30f, 3e38f};
    long calls[3];
    for (int i = 0; i < 3; ++i) {
        flat_world f = {0};
        f.wall_x = 1 << 20;
        shove_world *w = flat_world_new(&f, NULL);
        f.calls = 0;
        shove_hit hit;
        memset(&hit, 0, sizeof hit);
        cr_assert(SHOVE_FN(cast_box)(w, along, V(asks[i], 0, 0), UINT64_MAX, &hit), "ask %g",
                  (double)asks[i]);
        cr_expect_eq(hit.t, (0x1p20f - along.max.raw[0]) / asks[i], "ask %g: t %.9g",
                     (double)asks[i], (double)hit.t);
        EXPECT_VEC_EQ(hit.normal, V(-1, 0, 0));
        calls[i] = f.calls;
        /* the box's 2 * (2^19 + 3) cells, then 2 per voxel up to the wall */
        cr_expect_lt(calls[i], 4L * (1L << 19) + 100L, "ask %g: %ld calls", (double)asks[i],
                     calls[i]);
        /* A move of a box 2^16 long by 2^16: a cast and a tube gather
         * (whose box, grown by the move's margin, reaches a dozen rows),
         * each along the path; nothing in the way, so it ends exactly. */
        const shove_aabb shorter = BOX(0.25, 0.25, 0.25, 0.25f + 0x1p16f, 0.75, 0.75);
        const shove_id id = add_mob(w, shorter);
        f.calls = 0;
        shove_move_result r;
        const shove_status ms = SHOVE_FN(move)(w, id, V(0x1p16f, 0, 0), NULL, &r);
        cr_assert_eq(ms, SHOVE_OK, "%s, %ld calls", shove_status_string(ms), f.calls);
        cr_expect_eq(r.box.min.raw[0], shorter.min.raw[0] + 0x1p16f, "%.9g",
                     (double)r.box.min.raw[0]);
        cr_expect_lt(f.calls, 16L * 2L * (1L << 16) + 1000L, "move: %ld calls", f.calls);
        SHOVE_FN(world_destroy)(w);
    }
    cr_expect_eq(calls[1], calls[0]);
    cr_expect_eq(calls[2], calls[0]);
    /* A box whose first piece alone holds more cells than the budget is
     * refused before it reads any. */
    flat_world f = {0};
    shove_world *w = flat_world_new(&f, NULL);
    const float half = SHOVE_DIM == 3 ? 5e3f : 5e6f;
    shove_hit hit;
    memset(&hit, 0xAB, sizeof hit);
    shove_hit sentinel;
    memset(&sentinel, 0xAB, sizeof sentinel);
    cr_expect(!SHOVE_FN(cast_box)(w, BOX(-half, 0.25, -half, half, 0.75, half), V(1e6, 0, 0),
                                  UINT64_MAX, &hit));
    cr_expect(memcmp(&hit, &sentinel, sizeof hit) == 0);
    cr_expect_eq(f.calls, 0, "%ld calls", f.calls);
    SHOVE_FN(world_destroy)(w);
}

/* >>budgets ---------------------------------------------------------------- */

Test(voxel_budget, max_cells_caps_every_call_and_refusals_change_nothing) {
    flat_world f = {0};
    shove_voxel_def base = SHOVE_FN(default_voxel_def)();
    base.max_cells = 500;
    shove_world *w = flat_world_new(&f, &base);
    const shove_id id = add_mob(w, mob_at(0.2f, 0.2f));
    /* A short walk fits. */
    shove_move_result r;
    cr_assert_eq(SHOVE_FN(move)(w, id, V(0.5, -0.1, 0.25), NULL, &r), SHOVE_OK);
    /* A long one does not: refused, nothing changed, the budget kept. */
    char *before = world_text(w);
    f.calls = 0;
    shove_move_result out;
    memset(&out, 0xAB, sizeof out);
    shove_move_result sentinel;
    memset(&sentinel, 0xAB, sizeof sentinel);
    cr_expect_eq(SHOVE_FN(move)(w, id, V(1000, 0, 700), NULL, &out), SHOVE_ERR_OUT_OF_RANGE);
    cr_expect_leq(f.calls, 500);
    cr_expect(memcmp(&out, &sentinel, sizeof out) == 0, "the result was written");
    char *after = world_text(w);
    cr_expect_str_eq(after, before);
    free(after);
    /* The same through a step. */
    cr_assert_eq(SHOVE_FN(body_set_motion)(w, id, V(1000, 0, 700)), SHOVE_OK);
    free(before);
    before = world_text(w);
    f.calls = 0;
    cr_expect_eq(SHOVE_FN(world_step)(w), SHOVE_ERR_OUT_OF_RANGE);
    cr_expect_leq(f.calls, 500);
    after = world_text(w);
    cr_expect_str_eq(after, before);
    free(after);
    free(before);
    /* A cast past the budget does not know its answer: false, no write. */
    shove_hit hit;
    memset(&hit, 0xAB, sizeof hit);
    shove_hit hit_sentinel;
    memset(&hit_sentinel, 0xAB, sizeof hit_sentinel);
    f.calls = 0;
    cr_expect(!SHOVE_FN(cast_box)(w, mob_at(0.2f, 0.2f), V(1000, 0, 0), 0u, &hit));
    cr_expect(memcmp(&hit, &hit_sentinel, sizeof hit) == 0);
    cr_expect_leq(f.calls, 500);
    SHOVE_FN(world_destroy)(w);
}

Test(voxel_budget, the_default_budget_bounds_every_call) {
    flat_world f = {0};
    shove_world *w = flat_world_new(&f, NULL);
    const shove_id id = add_mob(w, mob_at(0.2f, 0.2f));
    const shove_aabb start = mob_at(0.2f, 0.2f);
    /* The moves: each returns OK or OUT_OF_RANGE, reads at most the
     * default budget, and writes nothing non-finite. */
    static const float moves[][3] = {
        {1e7f, 0, 0},  {3e38f, 0, 0},    {1e30f, 0, 1e30f},  {1e6f, 0, 7e5f},
        {0, -1e7f, 0}, {1e7f, -1e7f, 0}, {-3e38f, 3e38f, 0}, {1e9f, 1e9f, 1e9f},
    };
    for (int i = 0; i < 8; ++i) {
        cr_assert_eq(SHOVE_FN(body_set_box)(w, id, start), SHOVE_OK);
        f.calls = 0;
        shove_move_result r;
        const shove_vec d = V(moves[i][0], moves[i][1], moves[i][2]);
        const shove_status s = SHOVE_FN(move)(w, id, d, NULL, &r);
        cr_expect(s == SHOVE_OK || s == SHOVE_ERR_OUT_OF_RANGE, "move %d: %s", i,
                  shove_status_string(s));
        cr_expect_leq(f.calls, (long)SHOVE_VOXEL_DEFAULT_MAX_CELLS, "move %d", i);
        shove_aabb now;
        cr_assert_eq(SHOVE_FN(body_get_box)(w, id, &now), SHOVE_OK);
        cr_expect(box_is_finite(now), "move %d", i);
        cr_expect(now.min.raw[1] >= 0.0f, "move %d went through the ground", i);
        if (s != SHOVE_OK) {
            EXPECT_VEC_EQ(now.min, start.min);
        }
        shove_hit hit;
        f.calls = 0;
        (void)SHOVE_FN(cast_box)(w, start, d, UINT64_MAX, &hit);
        cr_expect_leq(f.calls, (long)SHOVE_VOXEL_DEFAULT_MAX_CELLS, "cast %d", i);
    }
    /* Denormal and tiny boxes moving 1e9: bounded too. */
    const shove_aabb tiny = BOX(0.5, 0.5, 0.5, 0.5 + 1e-45, 0.5 + 1e-45, 0.5 + 1e-45);
    cr_assert_eq(SHOVE_FN(body_set_box)(w, id, tiny), SHOVE_OK);
    f.calls = 0;
    shove_move_result r;
    const shove_status s = SHOVE_FN(move)(w, id, V(1e9, -3, 1e9), NULL, &r);
    cr_expect(s == SHOVE_OK || s == SHOVE_ERR_OUT_OF_RANGE, "%s", shove_status_string(s));
    cr_expect_leq(f.calls, (long)SHOVE_VOXEL_DEFAULT_MAX_CELLS);
    /* A mover 1e6 wide: refused (its cells alone exceed the budget). */
    const shove_aabb wide = BOX(-5e5, 0, -5e5, 5e5, 2, 5e5);
    cr_assert_eq(SHOVE_FN(body_set_box)(w, id, wide), SHOVE_OK);
    f.calls = 0;
    const shove_status ws = SHOVE_FN(move)(w, id, V(1, 0, 0), NULL, &r);
    cr_expect(ws == SHOVE_ERR_OUT_OF_RANGE || (SHOVE_DIM == 2 && ws == SHOVE_OK), "%s",
              shove_status_string(ws));
    cr_expect_leq(f.calls, (long)SHOVE_VOXEL_DEFAULT_MAX_CELLS);
    SHOVE_FN(world_destroy)(w);
}

Test(voxel_budget, paths_outside_the_solid_range_cost_nothing) {
    flat_world f = {0};
    shove_voxel_def base = SHOVE_FN(default_voxel_def)();
    base.solid_min[1] = -1; /* only the ground row may be solid */
    base.solid_max[1] = -1;
    shove_world *w = flat_world_new(&f, &base);
    f.low_y = -1;
    /* High above: every move and cast is free and exact. */
    const shove_aabb high = BOX(0.25, 100, 0.25, 0.75, 101, 0.75);
    const shove_id id = add_mob(w, high);
    static const float far[] = {1e3f, 1e7f, 1e30f, 3e38f};
    for (int i = 0; i < 4; ++i) {
        cr_assert_eq(SHOVE_FN(body_set_box)(w, id, high), SHOVE_OK);
        f.calls = 0;
        shove_move_result r;
        const shove_status s = SHOVE_FN(move)(w, id, V(far[i], 0, -far[i]), NULL, &r);
        cr_expect_eq(f.calls, 0);
        if (far[i] <= 1e7f) {
            cr_assert_eq(s, SHOVE_OK, "%g: %s", (double)far[i], shove_status_string(s));
            cr_expect_eq(r.box.min.raw[0], 0.25f + far[i]);
        } else {
            /* The move's own rounding scale there (float steps of 1e23 and
             * more) reaches the ground row: past float precision. */
            cr_expect(s == SHOVE_OK || s == SHOVE_ERR_OUT_OF_RANGE, "%s", shove_status_string(s));
            shove_aabb now;
            cr_assert_eq(SHOVE_FN(body_get_box)(w, id, &now), SHOVE_OK);
            cr_expect(box_is_finite(now));
            cr_expect(now.min.raw[1] == 100.0f);
        }
        cr_expect(!SHOVE_FN(cast_ray)(w, V(0, 50, 0), V(far[i], 0, far[i]), UINT64_MAX, NULL));
        cr_expect_eq(f.calls, 0);
    }
    /* Down into the range: only the ground row is read, and the fall ends
     * on it whatever it asked. */
    cr_assert_eq(SHOVE_FN(body_set_box)(w, id, high), SHOVE_OK);
    f.calls = 0;
    shove_move_result r;
    cr_assert_eq(SHOVE_FN(move)(w, id, V(0, -3e38f, 0), NULL, &r), SHOVE_OK);
    cr_expect_eq(r.box.min.raw[1], 0.0f);
    cr_expect(r.on_ground);
    cr_expect_lt(f.calls, 100, "%ld", f.calls);
    cr_expect(!f.read_below);
    shove_hit hit;
    cr_assert(SHOVE_FN(cast_ray)(w, V(0.5, 100, 0.5), V(0, -3e38f, 0), 0u, &hit));
    cr_expect_eq(hit.t, 100.0f / 3e38f);
    cr_expect(!f.read_below);
    /* An inverted range is a bad def. */
    shove_voxel_def bad = base;
    bad.shapes = flat_shapes;
    bad.ctx = &f;
    bad.solid_min[0] = 5;
    bad.solid_max[0] = 4;
    cr_expect_eq(SHOVE_FN(world_set_voxels)(w, &bad), SHOVE_ERR_INVALID_ARGUMENT);
    SHOVE_FN(world_destroy)(w);
}

Test(voxel_budget, cells_past_float_precision_are_refused) {
    flat_world f = {0};
    shove_world *w = flat_world_new(&f, NULL);
    const shove_aabb far = BOX(2e7, 0, 0.25, 2e7 + 2, 2, 0.75); /* float steps by 2 there */
    const shove_id id = add_mob(w, far);
    char *before = world_text(w);
    shove_move_result r;
    cr_expect_eq(SHOVE_FN(move)(w, id, V(2, -1, 0), NULL, &r), SHOVE_ERR_OUT_OF_RANGE);
    cr_expect(!SHOVE_FN(cast_ray)(w, V(2e7, 5, 0.5), V(0, -10, 0), UINT64_MAX, NULL));
    char *after = world_text(w);
    cr_expect_str_eq(after, before);
    free(after);
    free(before);
    /* The origin shift brings it back within precision. */
    cr_assert_eq(SHOVE_FN(world_shift_origin)(w, V(2e7, 0, 0)), SHOVE_OK);
    cr_expect_eq(SHOVE_FN(move)(w, id, V(2, -1, 0), NULL, &r), SHOVE_OK);
    cr_expect_eq(r.box.min.raw[1], 0.0f);
    cr_expect(r.on_ground);
    SHOVE_FN(world_destroy)(w);
}

/* >>long moves are exact --------------------------------------------------- */

Test(voxel_budget, long_moves_over_flat_ground_end_exactly_where_sent) {
    static const float moves[][3] = {
        {30000, 0, 21000}, {1e5f, 0, 7e4f}, {-30000, 0, 21000}, {12345.5f, 0, -54321.25f},
        {100, 0, 0},       {0, 0, -777},    {5, 0, 5},
    };
    for (int i = 0; i < 7; ++i) {
        flat_world f = {0};
        shove_world *w = flat_world_new(&f, NULL);
        const shove_aabb start = mob_at(0.2f, 0.2f);
        const shove_id id = add_mob(w, start);
        shove_vec d = V(moves[i][0], moves[i][1], moves[i][2]);
        shove_move_result r;
        cr_assert_eq(SHOVE_FN(move)(w, id, d, NULL, &r), SHOVE_OK, "move %d", i);
        for (int a = 0; a < SHOVE_DIM; ++a) {
            cr_expect_eq(r.box.min.raw[a], start.min.raw[a] + d.raw[a], "move %d axis %d: %.9g", i,
                         a, (double)r.box.min.raw[a]);
            cr_expect_eq(r.box.max.raw[a], start.max.raw[a] + d.raw[a], "move %d axis %d", i, a);
        }
        EXPECT_VEC_EQ(r.delta, d);
        cr_expect(r.on_ground, "move %d", i);
        cr_expect(!r.hit_wall, "move %d", i);
        /* Bounded by the path: a few dozen cells per voxel walked. */
        double longest = 0.0;
        for (int a = 0; a < SHOVE_DIM; ++a) {
            longest = fmax(longest, fabs((double)d.raw[a]));
        }
        cr_expect_lt((double)f.calls, 60.0 * longest + 1000.0, "move %d: %ld calls", i, f.calls);
        SHOVE_FN(world_destroy)(w);
    }
}

Test(voxel_budget, guarded_long_moves_over_flat_ground_end_exactly_where_sent) {
    /* With the edge guard on, a long move runs in pieces (the guard looks
     * off the path); over ground that carries it the whole way, it must
     * still end exactly where it was sent, both corners. */
    static const float moves[][3] = {
        {30000, 0, 21000}, {1e5f, 0, 7e4f}, {-30000, 0, 21000}, {12345.5f, 0, -54321.25f},
        {100.1f, 0, 0},    {0, 0, -777.3f}, {5.3f, 0, 5.7f},
    };
    shove_move_def def = SHOVE_FN(default_move_def)();
    def.edge_guard = true;
    def.step_height = 0.5f;
    for (int i = 0; i < 7; ++i) {
        flat_world f = {0};
        shove_world *w = flat_world_new(&f, NULL);
        const shove_aabb start = BOX(0.3f, 0, 0.3f, 0.9f, 1.8f, 0.9f);
        const shove_id id = add_mob(w, start);
        const shove_vec d = V(moves[i][0], moves[i][1], moves[i][2]);
        shove_move_result r;
        cr_assert_eq(SHOVE_FN(move)(w, id, d, &def, &r), SHOVE_OK, "move %d", i);
        for (int a = 0; a < SHOVE_DIM; ++a) {
            cr_expect_eq(r.box.min.raw[a], start.min.raw[a] + d.raw[a], "move %d axis %d: %.9g", i,
                         a, (double)r.box.min.raw[a]);
            cr_expect_eq(r.box.max.raw[a], start.max.raw[a] + d.raw[a], "move %d axis %d: %.9g", i,
                         a, (double)r.box.max.raw[a]);
        }
        cr_expect(r.on_ground, "move %d", i);
        cr_expect(!r.hit_wall, "move %d", i);
        SHOVE_FN(world_destroy)(w);
    }
}

/* The voxel boxes of a map near `region` (grown by 3 cells), for a slide
 * over a list. */
static size_t map_boxes_near(const test_map *m, shove_aabb region, shove_aabb *out, size_t cap) {
    size_t n = 0;
    int32_t lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
    for (int a = 0; a < SHOVE_DIM; ++a) {
        lo[a] = (int32_t)floorf(region.min.raw[a]) - 3;
        hi[a] = (int32_t)floorf(region.max.raw[a]) + 3;
    }
    for (int32_t z = lo[2]; z <= hi[2]; ++z) {
        for (int32_t y = lo[1]; y <= hi[1]; ++y) {
            for (int32_t x = lo[0]; x <= hi[0]; ++x) {
                shove_aabb s[SHOVE_VOXEL_MAX_BOXES];
                const int k = map_shapes_of(map_get(m, x, y, z), s);
                const float c[3] = {(float)x, (float)y, (float)z};
                for (int i = 0; i < k; ++i) {
                    for (int a = 0; a < SHOVE_DIM; ++a) {
                        s[i].min.raw[a] += c[a];
                        s[i].max.raw[a] += c[a];
                    }
                    cr_assert_lt(n, cap);
                    out[n++] = s[i];
                }
            }
        }
    }
    return n;
}

Test(voxel_budget, a_clear_long_move_gives_what_one_run_over_every_voxel_gives) {
    /* Rough ground with posts and walls; long moves (past the short-move
     * size) that a slide over every voxel box around sends straight: the
     * world move, which reads only the voxels along the path, must end
     * the same, bit for bit, with the same flags. */
    test_rng rng = {0x7b0e5u};
    test_map *m = map_new(-40, -4, -40, 80, 12, 80);
    for (int32_t x = -40; x < 40; ++x) {
        for (int32_t z = (SHOVE_DIM == 3 ? -40 : 0); z < (SHOVE_DIM == 3 ? 40 : 1); ++z) {
            map_set(m, x, -1, z, CELL_FULL);
            const int r = test_rng_int(&rng, 0, 60);
            if (r < 4) {
                map_set(m, x, 0, z, r == 0 ? CELL_FENCE : r == 1 ? CELL_WALL : CELL_SLAB_BOTTOM);
            }
        }
    }
    shove_world *w = NULL;
    cr_assert_eq(SHOVE_FN(world_create)(NULL, &w), SHOVE_OK);
    const shove_voxel_def vd = map_def(m, V(0, 0, 0), 1.0f);
    cr_assert_eq(SHOVE_FN(world_set_voxels)(w, &vd), SHOVE_OK);
    const shove_id id = add_mob(w, BOX(0, 0, 0, 1, 1, 1));
    static shove_aabb list[200000];
    int straight = 0;
    for (int trial = 0; trial < 300; ++trial) {
        const float size = test_rng_float(&rng, 0.2f, 0.9f);
        const float x = test_rng_float(&rng, -20, 20), z = test_rng_float(&rng, -20, 20);
        const float y = test_rng_int(&rng, 0, 2) == 0 ? test_rng_float(&rng, 0.0f, 4.0f) : 0.0f;
        const shove_aabb start = BOX(x, y, z, x + size, y + 1.5f * size, z + size);
        const shove_vec d =
            V(test_rng_float(&rng, -15, 15), test_rng_int(&rng, 0, 2) ? 0.0f : -0.5f,
              test_rng_float(&rng, -15, 15));
        shove_move_def def = SHOVE_FN(default_move_def)();
        def.step_height = trial % 3 == 0 ? 0.6f : 0.0f;
        /* (a guarded walk probes off its path and runs in pieces) */
        def.edge_guard = false;
        if (map_overlaps(m, V(0, 0, 0), 1.0f, start)) {
            continue;
        }
        const shove_aabb hull = SHOVE_IFN(swept_bounds)(start, d);
        const size_t n = map_boxes_near(m, hull, list, sizeof list / sizeof *list);
        shove_move_result a, b;
        cr_assert_eq(SHOVE_FN(slide)(start, d, list, n, &def, &a), SHOVE_OK);
        if (!test_vec_same_bits(a.delta, d) || a.stepped) {
            continue; /* met something on the way (a step-up and down, too) */
        }
        ++straight;
        cr_assert_eq(SHOVE_FN(body_set_box)(w, id, start), SHOVE_OK);
        cr_assert_eq(SHOVE_FN(move)(w, id, d, &def, &b), SHOVE_OK);
        cr_assert(memcmp(&a.box, &b.box, sizeof a.box) == 0,
                  "trial %d: boxes differ: start %.9g %.9g %.9g d %.9g %.9g %.9g step %g guard %d; "
                  "list %.9g %.9g %.9g, world %.9g %.9g %.9g (%d %d)",
                  trial, (double)start.min.raw[0], (double)start.min.raw[1],
                  (double)start.min.raw[SHOVE_DIM - 1], (double)d.raw[0], (double)d.raw[1],
                  (double)d.raw[SHOVE_DIM - 1], (double)def.step_height, def.edge_guard,
                  (double)a.box.min.raw[0], (double)a.box.min.raw[1],
                  (double)a.box.min.raw[SHOVE_DIM - 1], (double)b.box.min.raw[0],
                  (double)b.box.min.raw[1], (double)b.box.min.raw[SHOVE_DIM - 1], a.on_ground,
                  b.on_ground);
        cr_assert(memcmp(&a.delta, &b.delta, sizeof a.delta) == 0, "trial %d", trial);
        cr_assert_eq(a.on_ground, b.on_ground, "trial %d", trial);
        cr_assert_eq(a.hit_wall, b.hit_wall, "trial %d", trial);
        cr_assert_eq(a.stepped, b.stepped, "trial %d", trial);
    }
    cr_expect_gt(straight, 50, "%d", straight);
    SHOVE_FN(world_destroy)(w);
    map_free(m);
}

/* >>callbacks that lie ------------------------------------------------------ */

Test(voxel_budget, lying_callbacks_fail_the_call_and_change_nothing) {
    for (int lie = 1; lie <= 5; ++lie) {
        flat_world f = {0};
        f.wall_x = 3;
        shove_world *w = flat_world_new(&f, NULL);
        const shove_aabb start = BOX(0.5, 0.5, 0.25, 1, 1.5, 0.75);
        const shove_id id = add_mob(w, start);
        f.lie = lie;
        char *before = world_text(w);
        shove_move_result r;
        /* Short and long moves toward the wall, a step, casts. */
        cr_expect_eq(SHOVE_FN(move)(w, id, V(0.5, -0.5, 0), NULL, &r), SHOVE_ERR_INVALID_ARGUMENT,
                     "lie %d", lie);
        cr_expect_eq(SHOVE_FN(move)(w, id, V(10, 0, 0), NULL, &r), SHOVE_ERR_INVALID_ARGUMENT,
                     "lie %d", lie);
        char *after = world_text(w);
        cr_expect_str_eq(after, before, "lie %d: a move changed the world", lie);
        free(after);
        free(before);
        cr_assert_eq(SHOVE_FN(body_set_motion)(w, id, V(10, -1, 0)), SHOVE_OK);
        char *pending = world_text(w);
        cr_expect_eq(SHOVE_FN(world_step)(w), SHOVE_ERR_INVALID_ARGUMENT, "lie %d", lie);
        after = world_text(w);
        cr_expect_str_eq(after, pending, "lie %d: the step changed the world", lie);
        free(after);
        free(pending);
        /* (mask 0: bodies are not cast against, voxels always are) */
        shove_hit hit;
        memset(&hit, 0xAB, sizeof hit);
        shove_hit sentinel = hit;
        cr_expect(!SHOVE_FN(cast_ray)(w, V(0.5, 1.25, 0.5), V(10, 0, 0), 0u, &hit));
        cr_expect(!SHOVE_FN(cast_box)(w, start, V(0, -5, 0), 0u, &hit));
        cr_expect(memcmp(&hit, &sentinel, sizeof hit) == 0, "lie %d", lie);
        /* Honest again: the same calls work. */
        f.lie = 0;
        cr_assert_eq(SHOVE_FN(body_set_motion)(w, id, V(0, 0, 0)), SHOVE_OK);
        cr_expect_eq(SHOVE_FN(move)(w, id, V(10, 0, 0), NULL, &r), SHOVE_OK);
        cr_expect(r.box.max.raw[0] <= 3.0f && r.hit_wall);
        SHOVE_FN(world_destroy)(w);
    }
}

Test(voxel_budget, a_wall_taller_than_the_shape_bounds_is_never_cut) {
    /* A 2-tall wall with the default bounds (1.5 tall) was cut at 1.5 and
     * walked over by a mover stepping 0.6; it is refused now, and with
     * bounds that hold it the wall stops the mover. */
    flat_world f = {0};
    f.wall_x = 3;
    f.lie = 1;
    shove_world *w = flat_world_new(&f, NULL);
    const shove_aabb start = BOX(1, 1.0, 0.25, 1.5, 2.0, 0.75); /* on top of a ground... */
    const shove_id id = add_mob(w, BOX(1, 0, 0.25, 1.5, 1, 0.75));
    shove_move_def def = SHOVE_FN(default_move_def)();
    def.step_height = 0.6f;
    shove_move_result r;
    cr_expect_eq(SHOVE_FN(move)(w, id, V(4, 0, 0), &def, &r), SHOVE_ERR_INVALID_ARGUMENT);
    (void)start;
    shove_voxel_def tall = SHOVE_FN(default_voxel_def)();
    tall.shapes = flat_shapes;
    tall.ctx = &f;
    tall.shape_bounds.max.raw[1] = 2.0f;
    cr_assert_eq(SHOVE_FN(world_set_voxels)(w, &tall), SHOVE_OK);
    cr_assert_eq(SHOVE_FN(move)(w, id, V(4, 0, 0), &def, &r), SHOVE_OK);
    cr_expect(r.box.max.raw[0] <= 3.0f && r.hit_wall && !r.stepped, "%.9g",
              (double)r.box.max.raw[0]);
    SHOVE_FN(world_destroy)(w);
}
