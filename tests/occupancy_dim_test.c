/*
 * occupancy_dim_test.c: the counts of dynamic bodies per coarse cell that
 * spare a gather the dynamic tree's walk when no body but the mover can be
 * near (world/occupancy.c), and the sums of their slots that name the one
 * body over a cell. They must mirror the bodies through every
 * change of a dynamic body (moves, steps, teleports, creation, destruction,
 * type changes, origin shifts, a body far away), and a world that uses them
 * must move every body exactly as a world that does not, contacts and their
 * order included. In 2D the counted axes are x and y, in 3D x and z.
 */
#include <stdlib.h>

#include "test_dim.h"
#include "test_world_ops.h"
#include "world/world.h"

/* The scene's side: sparse enough on the counted axes (x and y in 2D, x
 * and z in 3D) for the counts to be built (bodies that share their cells
 * get none). */
enum { MOBS = 200, STATICS = 40, SPAN = SHOVE_DIM == 2 ? 160 : 60 };

static shove_world *new_world(void) {
    shove_world *w = NULL;
    cr_assert_eq(SHOVE_FN(world_create)(NULL, &w), SHOVE_OK);
    return w;
}

/* Counts that are never built: the reference world. */
static void never_count(shove_world *w) {
    w->occupancy.on = false;
    w->occupancy.wait = UINT32_MAX;
}

/* A place in the scene: x, and the other counted axis, in [0, SPAN). */
static shove_aabb mob_box(test_rng *r) {
    const float x = test_rng_float(r, 0.0f, (float)SPAN);
    const float other = test_rng_float(r, 0.0f, (float)SPAN);
#if SHOVE_DIM == 2
    return BOX(x, other, 0, x + 0.6f, other + 1.8f, 0);
#else
    return BOX(x, 0, other, x + 0.6f, 1.8f, other + 0.6f);
#endif
}

/* A place of mob_box with its low corner `scale` times as far from 0 on
 * every axis (the scene's side times scale), the mob's size kept. */
static shove_aabb mob_box_scaled(test_rng *r, float scale) {
    shove_aabb b = mob_box(r);
    for (int a = 0; a < SHOVE_DIM; ++a) {
        const float size = b.max.raw[a] - b.min.raw[a];
        b.min.raw[a] *= scale;
        b.max.raw[a] = b.min.raw[a] + size;
    }
    return b;
}

/* MOBS dynamic bodies and STATICS static crates, from seed `seed`. */
static void build_scene(shove_world *w, uint64_t seed, shove_id *mobs) {
    test_rng r = {seed};
    for (int i = 0; i < STATICS; ++i) {
        test_add_filtered_body(w, mob_box(&r), SHOVE_BODY_STATIC, 1, UINT64_MAX);
    }
    for (int i = 0; i < MOBS; ++i) {
        mobs[i] = test_add_filtered_body(w, mob_box(&r), SHOVE_BODY_DYNAMIC, 1, UINT64_MAX);
    }
}

static shove_vec random_motion(test_rng *r, float reach) {
    shove_vec d;
    for (int a = 0; a < SHOVE_DIM; ++a) {
        d.raw[a] = test_rng_float(r, -reach, reach);
    }
    return d;
}

/* Every mob moved once with shove_move, each by a motion of up to `reach`
 * on every axis. */
static void move_each(shove_world *w, const shove_id *mobs, test_rng *r, float reach) {
    shove_move_result res;
    for (int i = 0; i < MOBS; ++i) {
        cr_assert_eq(SHOVE_FN(move)(w, mobs[i], random_motion(r, reach), NULL, &res), SHOVE_OK);
    }
}

/* Moves every mob `passes` times, asserting after each move that the world
 * has no counts (`why` names the rule). */
static void expect_never_counted(shove_world *w, const shove_id *mobs, test_rng *r, int passes,
                                 const char *why) {
    shove_move_result res;
    for (int pass = 0; pass < passes; ++pass) {
        for (int i = 0; i < MOBS; ++i) {
            cr_assert_eq(SHOVE_FN(move)(w, mobs[i], random_motion(r, 0.2f), NULL, &res), SHOVE_OK);
            cr_assert(!w->occupancy.on, "%s", why);
        }
    }
}

/* A world of the scene from `seed` whose every mob has moved once, so
 * that the counts are built (asserted). */
static shove_world *counted_world(uint64_t seed, shove_id *mobs, test_rng *r) {
    shove_world *w = new_world();
    build_scene(w, seed, mobs);
    move_each(w, mobs, r, 0.2f);
    cr_assert(w->occupancy.on);
    return w;
}

/* The counts as occupancy.c files the bodies, recomputed from their boxes;
 * fails where they differ. Nothing to check while the counts are off. */
static void expect_counts_mirror_bodies(const shove_world *w) {
    const SHOVE_T(occupancy) *o = &w->occupancy;
    if (!o->on) {
        return;
    }
    const size_t cells = (size_t)o->extent[0] * (size_t)o->extent[1];
    cr_assert(cells <= o->capacity);
    uint32_t *tally = calloc(cells, sizeof *tally);
    uint32_t *slot_sum = calloc(cells, sizeof *slot_sum);
    cr_assert(tally && slot_sum);
    const uint8_t counted = SHOVE_SLOT_ALIVE | SHOVE_SLOT_DYNAMIC;
    for (uint32_t slot = 0; slot < w->slot_count; ++slot) {
        if ((w->flags[slot] & counted) != counted) {
            continue;
        }
        int32_t lo[2], hi[2];
        for (int k = 0; k < 2; ++k) {
            const int a = k == 0 ? 0 : SHOVE_DIM - 1;
            const double l = (double)w->box[slot].min.raw[a] * o->per_cell - o->origin[k];
            const double h = (double)w->box[slot].max.raw[a] * o->per_cell - o->origin[k];
            cr_assert(l >= 0.0 && h < (double)o->extent[k], "slot %u lies outside the window",
                      slot);
            lo[k] = (int32_t)l;
            hi[k] = (int32_t)h;
            cr_assert_eq(w->occupied[slot].lo[k], lo[k], "slot %u, axis %d", slot, k);
            cr_assert_eq(w->occupied[slot].hi[k], hi[k], "slot %u, axis %d", slot, k);
        }
        for (int32_t j = lo[1]; j <= hi[1]; ++j) {
            for (int32_t i = lo[0]; i <= hi[0]; ++i) {
                tally[(size_t)j * (size_t)o->extent[0] + (size_t)i] += 1u;
                slot_sum[(size_t)j * (size_t)o->extent[0] + (size_t)i] += slot;
            }
        }
    }
    for (size_t c = 0; c < cells; ++c) {
        cr_assert_eq(o->count[c], tally[c], "cell %zu", c);
        cr_assert_eq(o->slot_sum[c], slot_sum[c], "cell %zu: the sum of its bodies' slots", c);
    }
    free(tally);
    free(slot_sum);
}

Test(occupancy, counts_mirror_every_change_of_a_dynamic_body) {
    shove_world *w = new_world();
    shove_id mobs[MOBS];
    build_scene(w, 7, mobs);
    test_rng r = {11};
    bool was_on = false;
    for (int round = 0; round < 60; ++round) {
        move_each(w, mobs, &r, 0.5f);
        was_on = was_on || w->occupancy.on;
        expect_counts_mirror_bodies(w);
        const int pick = test_rng_int(&r, 0, MOBS - 1);
        switch (round % 6) {
        case 0: /* a teleport inside the scene */
            cr_assert_eq(SHOVE_FN(body_set_box)(w, mobs[pick], mob_box(&r)), SHOVE_OK);
            break;
        case 1: /* destroyed and made again */
            cr_assert_eq(SHOVE_FN(body_destroy)(w, mobs[pick]), SHOVE_OK);
            mobs[pick] = test_add_filtered_body(w, mob_box(&r), SHOVE_BODY_DYNAMIC, 1, UINT64_MAX);
            break;
        case 2: /* static for a while */
            cr_assert_eq(SHOVE_FN(body_set_type)(w, mobs[pick], SHOVE_BODY_STATIC), SHOVE_OK);
            expect_counts_mirror_bodies(w);
            cr_assert_eq(SHOVE_FN(body_set_type)(w, mobs[pick], SHOVE_BODY_DYNAMIC), SHOVE_OK);
            break;
        case 3: /* a step of everyone */
            for (int i = 0; i < MOBS; ++i) {
                cr_assert_eq(SHOVE_FN(body_set_motion)(w, mobs[i], random_motion(&r, 0.5f)),
                             SHOVE_OK);
            }
            cr_assert_eq(SHOVE_FN(world_step)(w), SHOVE_OK);
            break;
        case 4: /* the origin moves, and back */
            cr_assert_eq(SHOVE_FN(world_shift_origin)(w, V(8, 0, 8)), SHOVE_OK);
            expect_counts_mirror_bodies(w);
            cr_assert_eq(SHOVE_FN(world_shift_origin)(w, V(-8, 0, -8)), SHOVE_OK);
            break;
        default: /* a step onto a crowded spot */
            cr_assert_eq(SHOVE_FN(body_set_box)(w, mobs[pick], w->box[0]), SHOVE_OK);
            break;
        }
        expect_counts_mirror_bodies(w);
    }
    cr_expect(was_on, "the counts were never built, so nothing was checked");
    SHOVE_FN(world_destroy)(w);
}

Test(occupancy, a_body_far_away_turns_the_counts_off_until_it_comes_back) {
    shove_id mobs[MOBS];
    test_rng r = {5};
    shove_world *w = counted_world(3, mobs, &r);
    /* past the window, and far beyond any window the counts allow */
    const shove_aabb home = w->box[0];
    cr_assert_eq(SHOVE_FN(body_set_box)(w, mobs[0], BOX(1e7f, 0, 1e7f, 1e7f + 1, 1, 1e7f + 1)),
                 SHOVE_OK);
    cr_expect(!w->occupancy.on);
    move_each(w, mobs, &r, 0.2f);
    cr_expect(!w->occupancy.on, "a window over both places would be too big");
    cr_assert_eq(SHOVE_FN(body_set_box)(w, mobs[0], home), SHOVE_OK);
    /* built again once the refused build's rest is over: 65,536 moves */
    for (int pass = 0; pass < 400 && !w->occupancy.on; ++pass) {
        move_each(w, mobs, &r, 0.2f);
    }
    cr_expect(w->occupancy.on);
    expect_counts_mirror_bodies(w);
    SHOVE_FN(world_destroy)(w);
}

Test(occupancy, movers_that_never_ask_get_no_counts) {
    /* mobs of category 2 that meet only category 1: never each other, so
     * no gather asks the counts */
    shove_world *w = new_world();
    test_rng r = {9};
    shove_id mobs[MOBS];
    for (int i = 0; i < MOBS; ++i) {
        mobs[i] = test_add_filtered_body(w, mob_box(&r), SHOVE_BODY_DYNAMIC, 2, 1);
    }
    expect_never_counted(w, mobs, &r, 10, "built where no gather asks");
    SHOVE_FN(world_destroy)(w);
}

Test(occupancy, counts_that_spare_few_walks_are_dropped) {
    shove_id mobs[MOBS];
    test_rng r = {19};
    shove_world *w = counted_world(17, mobs, &r);
    /* every mob into one spot in the middle of the window: from now on
     * every gather meets other mobs */
    for (int i = 0; i < MOBS; ++i) {
        shove_aabb b = mob_box(&r);
        const float dx = (float)SPAN / 2.0f + b.min.raw[0] / 20.0f - b.min.raw[0];
        const float dz =
            (float)SPAN / 2.0f + b.min.raw[SHOVE_DIM - 1] / 20.0f - b.min.raw[SHOVE_DIM - 1];
        b.min.raw[0] += dx;
        b.max.raw[0] += dx;
        b.min.raw[SHOVE_DIM - 1] += dz;
        b.max.raw[SHOVE_DIM - 1] += dz;
        cr_assert_eq(SHOVE_FN(body_set_box)(w, mobs[i], b), SHOVE_OK);
    }
    cr_assert(w->occupancy.on, "the crowd is inside the window");
    expect_counts_mirror_bodies(w);
    for (int pass = 0; pass < 30 && w->occupancy.on; ++pass) {
        move_each(w, mobs, &r, 0.2f);
    }
    cr_expect(!w->occupancy.on, "kept where they spare nothing");
    SHOVE_FN(world_destroy)(w);
}

/* Mobs in groups on a lattice of spots 16 apart, each group over one or
 * two neighbouring cells of the counts (their side is 1 in 3D and 2 in 2D
 * for these mobs: the smallest power of two at least their mean side), far
 * from the other groups' cells: `pairs` spots with two mobs side by side,
 * touching, then spots with one. A lone mob's gathers find no other body
 * over their cells (spared); a pair's find the other mob. */
static void build_groups(shove_world *w, int pairs, float spacing, shove_id *mobs) {
    int n = 0;
    for (int spot = 0; n < MOBS; ++spot) {
        const float x = 16.0f * (float)(spot % 12) + 0.2f,
                    other = 16.0f * (float)(spot / 12) + 0.2f;
        const int in_group = spot < pairs ? 2 : 1;
        for (int k = 0; k < in_group && n < MOBS; ++k) {
            const float at = x + spacing * (float)k; /* 0.6: a pair touches on x */
#if SHOVE_DIM == 2
            const shove_aabb b = BOX(at, other, 0, at + 0.6f, other + 1.8f, 0);
#else
            const shove_aabb b = BOX(at, 0, other, at + 0.6f, 1.8f, other + 0.6f);
#endif
            mobs[n++] = test_add_filtered_body(w, b, SHOVE_BODY_DYNAMIC, 1, UINT64_MAX);
        }
    }
}

/* Every mob moved once, by up to `reach` along the other counted axis
 * only (y in 2D, z in 3D): the mobs of a pair slide along each other and
 * keep touching. */
static void move_each_alongside(shove_world *w, const shove_id *mobs, test_rng *r, float reach) {
    shove_move_result res;
    for (int i = 0; i < MOBS; ++i) {
        shove_vec d = shove_vec_splat(0.0f);
        d.raw[SHOVE_DIM - 1] = test_rng_float(r, -reach, reach);
        cr_assert_eq(SHOVE_FN(move)(w, mobs[i], d, NULL, &res), SHOVE_OK);
    }
}

Test(occupancy, counts_that_spare_a_third_of_the_walks_are_kept) {
    /* 60 pairs and 80 lone mobs: 40% of the gathers spared, more than
     * keeping the counts costs (a third, see occupancy_review); a pair's
     * query meets the other mob of the pair, so its gathers walk */
    shove_world *w = new_world();
    shove_id mobs[MOBS];
    build_groups(w, 60, 0.6f, mobs);
    test_rng r = {23};
    move_each_alongside(w, mobs, &r, 0.02f);
    cr_assert(w->occupancy.on, "built over the groups");
    /* past two reviews (one every 4,096 moves of a dynamic body) */
    for (int pass = 0; pass < 45; ++pass) {
        move_each_alongside(w, mobs, &r, 0.02f);
        cr_assert(w->occupancy.on, "kept after %d moves of every mob", pass + 2);
    }
    const SHOVE_T(occupancy) *o = &w->occupancy;
    cr_expect(o->moves > 0 && o->spared * 2u < o->moves && o->spared * 3u >= o->moves,
              "spared %u gathers in %u moves: between a third and a half", o->spared, o->moves);
    expect_counts_mirror_bodies(w);
    SHOVE_FN(world_destroy)(w);
}

Test(occupancy, the_one_other_body_over_the_cells_is_told_apart_by_its_box) {
    /* pairs of mobs a tenth apart on x (and lone mobs, so that the bodies
     * do not share most of their cells): over a cell of the counts the two
     * of a pair share (of side 1 in 3D, 2 in 2D), each is the one other
     * body, and its box is out of the other's query, so every gather is
     * spared; the moves end as in a world without counts */
    shove_world *w = new_world();
    shove_world *plain = new_world();
    never_count(plain);
    shove_id mobs[MOBS], plain_mobs[MOBS];
    build_groups(w, MOBS / 4, 0.7f, mobs);
    build_groups(plain, MOBS / 4, 0.7f, plain_mobs);
    test_rng r = {31}, plain_r = {31};
    move_each_alongside(w, mobs, &r, 0.02f);
    move_each_alongside(plain, plain_mobs, &plain_r, 0.02f);
    cr_assert(w->occupancy.on, "built over the pairs");
    const uint32_t moves = w->occupancy.moves, spared = w->occupancy.spared;
    for (int pass = 0; pass < 5; ++pass) {
        move_each_alongside(w, mobs, &r, 0.02f);
        move_each_alongside(plain, plain_mobs, &plain_r, 0.02f);
    }
    cr_expect_eq(w->occupancy.spared - spared, w->occupancy.moves - moves,
                 "every gather spared a walk");
    expect_counts_mirror_bodies(w);
    for (int i = 0; i < MOBS; ++i) {
        shove_aabb a, b;
        cr_assert_eq(SHOVE_FN(body_get_box)(w, mobs[i], &a), SHOVE_OK);
        cr_assert_eq(SHOVE_FN(body_get_box)(plain, plain_mobs[i], &b), SHOVE_OK);
        cr_assert(memcmp(&a, &b, sizeof a) == 0, "mob %d ends where it does without counts", i);
    }
    /* a third mob 3 above the first of pair 0 shares a cell with both of
     * the pair: two other bodies over a cell, which the sums cannot name,
     * so the first one's gather walks the tree (and finds nothing near) */
    shove_aabb first;
    cr_assert_eq(SHOVE_FN(body_get_box)(w, mobs[0], &first), SHOVE_OK);
    shove_aabb above = first;
    above.min.raw[1] += 3.0f;
    above.max.raw[1] += 3.0f;
    test_add_filtered_body(w, above, SHOVE_BODY_DYNAMIC, 1, UINT64_MAX);
    cr_assert(w->occupancy.on, "the third mob is counted");
    const uint32_t spared_before = w->occupancy.spared;
    shove_move_result res;
    cr_assert_eq(SHOVE_FN(move)(w, mobs[0], shove_vec_splat(0.0f), NULL, &res), SHOVE_OK);
    cr_expect_eq(w->occupancy.spared, spared_before, "two others over a cell: a walk");
    expect_counts_mirror_bodies(w);
    SHOVE_FN(world_destroy)(w);
    SHOVE_FN(world_destroy)(plain);
}

/* MOBS mobs over a square of side `span` on the counted axes, each moved
 * once so that the counts are built (asserted); returns the cells' side. */
static double cell_side_over(float span) {
    shove_world *w = new_world();
    test_rng r = {77};
    shove_id mobs[MOBS];
    for (int i = 0; i < MOBS; ++i) {
        mobs[i] = test_add_filtered_body(w, mob_box_scaled(&r, span / (float)SPAN),
                                         SHOVE_BODY_DYNAMIC, 1, UINT64_MAX);
    }
    move_each(w, mobs, &r, 0.2f);
    cr_assert(w->occupancy.on, "counts over a span of %g", (double)span);
    expect_counts_mirror_bodies(w);
    const double side = 1.0 / w->occupancy.per_cell;
    SHOVE_FN(world_destroy)(w);
    return side;
}

Test(occupancy, cells_take_the_bodies_side_unless_the_window_grows_too_large) {
    /* the mean side on the counted axes: 0.6 in 3D, (0.6 + 1.8) / 2 in 2D;
     * the cells' side is the smallest power of two at least that */
    const double fine = SHOVE_DIM == 2 ? 2.0 : 1.0;
    cr_expect_eq(cell_side_over((float)SPAN), fine, "a scene whose window of such cells fits");
    /* MOBS bodies may have 64 cells each and 65,536 more: over this span a
     * window (the span and half of it again, and 8 cells) of the fine
     * cells needs more, one of twice their side fits */
    const float wide = SHOVE_DIM == 2 ? 480.0f : 240.0f;
    cr_expect_eq(cell_side_over(wide), 2.0 * fine, "bodies spread too thin for the fine cells");
}

Test(occupancy, bodies_that_share_their_cells_get_no_counts) {
    /* MOBS bodies in a tenth of the scene's side: most cells hold several */
    shove_world *w = new_world();
    test_rng r = {13};
    shove_id mobs[MOBS];
    for (int i = 0; i < MOBS; ++i) {
        mobs[i] =
            test_add_filtered_body(w, mob_box_scaled(&r, 0.1f), SHOVE_BODY_DYNAMIC, 1, UINT64_MAX);
    }
    expect_never_counted(w, mobs, &r, 5, "built over a crowd");
    SHOVE_FN(world_destroy)(w);
}

Test(occupancy, a_giant_dynamic_body_leaves_the_world_without_counts) {
    /* the scene's mobs, one of them stretched over the whole scene: every
     * change of its cells would rewrite thousands of counts */
    shove_id mobs[MOBS];
    test_rng r = {29};
    shove_world *w = counted_world(31, mobs, &r);
    cr_assert_eq(SHOVE_FN(body_set_box)(w, mobs[0], BOX(1, 1, 1, SPAN - 1, SPAN - 1, SPAN - 1)),
                 SHOVE_OK);
    cr_expect(!w->occupancy.on, "kept over a giant body");
    expect_never_counted(w, mobs, &r, 3, "built over a giant body");
    SHOVE_FN(world_destroy)(w);
}

/* The index in `ids` of body `id` (-1 for none: a voxel or list obstacle). */
static int index_of(const shove_id *ids, shove_id id) {
    for (int i = 0; i < MOBS; ++i) {
        if (shove_id_equal(ids[i], id)) {
            return i;
        }
    }
    return -1;
}

static void expect_same_move(const shove_move_result *a, const shove_contact *ca,
                             const shove_id *ids_a, const shove_move_result *b,
                             const shove_contact *cb, const shove_id *ids_b, int capacity) {
    cr_assert(memcmp(&a->box, &b->box, sizeof a->box) == 0, "the boxes differ");
    cr_assert(test_vec_same_bits(a->delta, b->delta));
    cr_assert_eq(a->on_ground, b->on_ground);
    cr_assert_eq(a->hit_wall, b->hit_wall);
    cr_assert_eq(a->hit_ceiling, b->hit_ceiling);
    cr_assert_eq(a->contact_count, b->contact_count);
    const int n = a->contact_count < capacity ? a->contact_count : capacity;
    for (int c = 0; c < n; ++c) {
        cr_assert_eq(index_of(ids_a, ca[c].other), index_of(ids_b, cb[c].other), "contact %d", c);
        cr_assert(test_vec_same_bits(ca[c].normal, cb[c].normal), "contact %d", c);
        cr_assert(memcmp(&ca[c].t, &cb[c].t, sizeof ca[c].t) == 0, "contact %d", c);
        cr_assert_eq(ca[c].response, cb[c].response, "contact %d", c);
    }
}

Test(occupancy, moves_and_steps_end_as_in_a_world_without_counts) {
    shove_world *with = new_world(), *without = new_world();
    never_count(without);
    shove_id ids_with[MOBS], ids_without[MOBS];
    build_scene(with, 21, ids_with);
    build_scene(without, 21, ids_without);
    enum { CAP = 16 };
    shove_contact ca[CAP], cb[CAP];
    shove_move_def def_a = SHOVE_FN(default_move_def)(), def_b = SHOVE_FN(default_move_def)();
    def_a.contacts = ca;
    def_b.contacts = cb;
    def_a.contact_capacity = def_b.contact_capacity = CAP;
    test_rng r = {23};
    bool was_on = false;
    for (int round = 0; round < 40; ++round) {
        for (int i = 0; i < MOBS; ++i) {
            /* now and then a long move across others */
            const shove_vec d = random_motion(&r, (i % 17 == 0) ? 6.0f : 0.6f);
            shove_move_result a, b;
            cr_assert_eq(SHOVE_FN(move)(with, ids_with[i], d, &def_a, &a), SHOVE_OK);
            cr_assert_eq(SHOVE_FN(move)(without, ids_without[i], d, &def_b, &b), SHOVE_OK);
            expect_same_move(&a, ca, ids_with, &b, cb, ids_without, CAP);
        }
        was_on = was_on || with->occupancy.on;
        if (round % 4 == 3) {
            for (int i = 0; i < MOBS; ++i) {
                const shove_vec d = random_motion(&r, 0.8f);
                cr_assert_eq(SHOVE_FN(body_set_motion)(with, ids_with[i], d), SHOVE_OK);
                cr_assert_eq(SHOVE_FN(body_set_motion)(without, ids_without[i], d), SHOVE_OK);
            }
            cr_assert_eq(SHOVE_FN(world_step)(with), SHOVE_OK);
            cr_assert_eq(SHOVE_FN(world_step)(without), SHOVE_OK);
            for (int i = 0; i < MOBS; ++i) {
                shove_aabb a, b;
                cr_assert_eq(SHOVE_FN(body_get_box)(with, ids_with[i], &a), SHOVE_OK);
                cr_assert_eq(SHOVE_FN(body_get_box)(without, ids_without[i], &b), SHOVE_OK);
                cr_assert(memcmp(&a, &b, sizeof a) == 0, "body %d after the step", i);
            }
        }
    }
    cr_expect(was_on, "the counts were never built");
    cr_expect(!without->occupancy.on);
    SHOVE_FN(world_destroy)(with);
    SHOVE_FN(world_destroy)(without);
}
