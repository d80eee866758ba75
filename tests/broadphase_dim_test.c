/*
 * broadphase_dim_test.c: the world's queries (box overlap, box cast, ray
 * cast) against brute force over every body, on random worlds under
 * insert / move / teleport / remove churn, plus the tree's own invariants,
 * crowds of identical boxes and bodies far outside the world bounds.
 */
#include <stdlib.h>

#include "test_dim.h"
#include "simd/soa.h"
#include "test_world_ops.h"
#include "world/world.h"

enum { MAX_BODIES = 4096 };

/* The test's own record of the world: what brute force scans. */
typedef struct model {
    shove_world *w;
    shove_id id[MAX_BODIES];
    shove_aabb box[MAX_BODIES];
    uint64_t category[MAX_BODIES];
    bool dynamic[MAX_BODIES];
    int count;
} model;

static void model_check_trees(const model *m) {
    long statics = 0, dynamics = 0;
    for (int i = 0; i < m->count; ++i) {
        *(m->dynamic[i] ? &dynamics : &statics) += 1;
    }
    cr_assert_eq(SHOVE_IFN(tree_check)(&m->w->trees[SHOVE_BODY_STATIC]), statics);
    cr_assert_eq(SHOVE_IFN(tree_check)(&m->w->trees[SHOVE_BODY_DYNAMIC]), dynamics);
    cr_assert_eq(SHOVE_FN(world_body_count)(m->w), (size_t)m->count);
}

/* A box of one of several kinds: mostly small, some large, some flat, a
 * few far outside the bounds the world was created with. */
static shove_aabb random_box(test_rng *r) {
    const int kind = test_rng_int(r, 0, 19);
    if (kind < 12) {
        return test_random_box(r, 40.0f, 0.2f, 3.0f);
    }
    if (kind < 15) {
        return test_random_box(r, 40.0f, 0.0f, 0.5f); /* includes flat and point boxes */
    }
    if (kind < 18) {
        return test_random_box(r, 60.0f, 5.0f, 40.0f);
    }
    return test_random_box(r, 3000.0f, 0.5f, 4.0f); /* far outside [-128, 128] */
}

static void model_add(model *m, test_rng *r) {
    shove_body_def def = SHOVE_FN(default_body_def)();
    def.box = random_box(r);
    def.type = test_rng_int(r, 0, 2) == 0 ? SHOVE_BODY_DYNAMIC : SHOVE_BODY_STATIC;
    def.category = 1ull << test_rng_int(r, 0, 3);
    def.sensor = test_rng_int(r, 0, 9) == 0;
    shove_id id;
    cr_assert_eq(SHOVE_FN(body_create)(m->w, &def, &id), SHOVE_OK);
    m->id[m->count] = id;
    m->box[m->count] = def.box;
    m->category[m->count] = def.category;
    m->dynamic[m->count] = def.type == SHOVE_BODY_DYNAMIC;
    m->count += 1;
}

static void model_remove(model *m, int i) {
    cr_assert_eq(SHOVE_FN(body_destroy)(m->w, m->id[i]), SHOVE_OK);
    m->count -= 1;
    m->id[i] = m->id[m->count];
    m->box[i] = m->box[m->count];
    m->category[i] = m->category[m->count];
    m->dynamic[i] = m->dynamic[m->count];
}

static void model_move(model *m, int i, shove_aabb box) {
    cr_assert_eq(SHOVE_FN(body_set_box)(m->w, m->id[i], box), SHOVE_OK);
    m->box[i] = box;
}

static int compare_ids(const void *pa, const void *pb) {
    const shove_id *a = pa, *b = pb;
    if (a->index != b->index) {
        return a->index < b->index ? -1 : 1;
    }
    return (a->generation > b->generation) - (a->generation < b->generation);
}

/* How much the checks saw, so a test can tell it did not compare nothing. */
static long seen_overlaps, seen_hits, seen_misses;

static void check_query_box(const model *m, shove_aabb q, uint64_t mask) {
    static shove_id got[MAX_BODIES], want[MAX_BODIES];
    size_t n_want = 0;
    for (int i = 0; i < m->count; ++i) {
        if ((m->category[i] & mask) && SHOVE_FN(aabb_overlaps)(m->box[i], q)) {
            want[n_want++] = m->id[i];
        }
    }
    const size_t n_got = SHOVE_FN(query_box)(m->w, q, mask, got, MAX_BODIES);
    seen_overlaps += (long)n_want;
    cr_assert_eq(n_got, n_want, "query found %zu bodies, brute force %zu", n_got, n_want);
    qsort(got, n_got, sizeof got[0], compare_ids);
    qsort(want, n_want, sizeof want[0], compare_ids);
    for (size_t i = 0; i < n_got; ++i) {
        cr_assert(shove_id_equal(got[i], want[i]), "query and brute force disagree");
    }
    /* a small capacity writes a prefix and still counts everything */
    shove_id few[3] = {{7, 7}, {7, 7}, {7, 7}};
    cr_assert_eq(SHOVE_FN(query_box)(m->w, q, mask, few, 2), n_want);
    cr_assert(few[2].index == 7 && few[2].generation == 7, "wrote past the capacity");
    cr_assert_eq(SHOVE_FN(query_box)(m->w, q, mask, NULL, 0), n_want);
}

/* The world's cast must find the earliest t brute force finds; the body it
 * names must be hit at exactly that t, with the normal of its own sweep. */
static void check_cast(const model *m, shove_aabb box, shove_vec delta, uint64_t mask, bool ray) {
    if (ray) {
        box.max = box.min;
    }
    bool want_found = false;
    float want_t = INFINITY;
    for (int i = 0; i < m->count; ++i) {
        shove_hit h;
        if ((m->category[i] & mask) && SHOVE_FN(sweep_aabb)(box, delta, m->box[i], &h) &&
            h.t < want_t) {
            want_t = h.t;
            want_found = true;
        }
    }

    shove_hit hit;
    const bool found = ray ? SHOVE_FN(cast_ray)(m->w, box.min, delta, mask, &hit)
                           : SHOVE_FN(cast_box)(m->w, box, delta, mask, &hit);
    cr_assert_eq(found, want_found);
    if (!found) {
        seen_misses += 1;
        return;
    }
    seen_hits += 1;
    cr_assert_eq(hit.t, want_t, "cast t %.9g, brute force %.9g", (double)hit.t, (double)want_t);
    int i = 0;
    while (i < m->count && !shove_id_equal(m->id[i], hit.other)) {
        ++i;
    }
    cr_assert(i < m->count, "the hit names no live body");
    cr_assert(m->category[i] & mask, "the hit body is masked out");
    shove_hit own;
    cr_assert(SHOVE_FN(sweep_aabb)(box, delta, m->box[i], &own));
    cr_assert_eq(own.t, hit.t);
    EXPECT_VEC_EQ(own.normal, hit.normal);
    cr_assert_eq(own.started_inside, hit.started_inside);
}

static void check_queries(const model *m, test_rng *r, int rounds) {
    for (int q = 0; q < rounds; ++q) {
        const uint64_t mask =
            (test_rng_int(r, 0, 3) == 0) ? UINT64_MAX : (uint64_t)test_rng_int(r, 1, 15);
        check_query_box(m, test_random_box(r, 50.0f, 0.0f, 20.0f), mask);
        const shove_aabb mover = test_random_box(r, 50.0f, 0.0f, 4.0f);
        shove_vec delta;
        for (int a = 0; a < SHOVE_DIM; ++a) {
            /* some motions are exactly axis-aligned (zero components) */
            delta.raw[a] = test_rng_int(r, 0, 3) == 0 ? 0.0f : test_rng_float(r, -150.0f, 150.0f);
        }
        check_cast(m, mover, delta, mask, false);
        check_cast(m, mover, delta, mask, true);
    }
}

static shove_world *make_world(void) {
    shove_world_def def = SHOVE_FN(default_world_def)();
    def.bounds.min = shove_vec_splat(-128.0f);
    def.bounds.max = shove_vec_splat(128.0f);
    def.body_capacity = 64; /* let it grow */
    shove_world *w = NULL;
    cr_assert_eq(SHOVE_FN(world_create)(&def, &w), SHOVE_OK);
    return w;
}

Test(broadphase, queries_match_brute_force_under_churn) {
    static model m;
    memset(&m, 0, sizeof m);
    m.w = make_world();
    test_rng r = {0x5eed0001u + SHOVE_DIM};
    for (int i = 0; i < 3000; ++i) {
        model_add(&m, &r);
    }
    model_check_trees(&m);
    check_queries(&m, &r, 60);
    for (int round = 0; round < 8; ++round) {
        /* small moves (mostly in place), larger moves, teleports */
        for (int k = 0; k < 600; ++k) {
            const int i = test_rng_int(&r, 0, m.count - 1);
            shove_aabb b = m.box[i];
            const float reach = (k % 3 == 0) ? 0.2f : (k % 3 == 1) ? 8.0f : 0.0f;
            if (reach > 0.0f) {
                for (int a = 0; a < SHOVE_DIM; ++a) {
                    const float d = test_rng_float(&r, -reach, reach);
                    b.min.raw[a] += d;
                    b.max.raw[a] += d;
                }
            } else {
                b = random_box(&r);
            }
            model_move(&m, i, b);
        }
        for (int k = 0; k < 300; ++k) {
            model_remove(&m, test_rng_int(&r, 0, m.count - 1));
        }
        const int adds = (round < 4) ? 200 : 400;
        for (int k = 0; k < adds && m.count < MAX_BODIES; ++k) {
            model_add(&m, &r);
        }
        model_check_trees(&m);
        check_queries(&m, &r, 25);
    }
    cr_expect_gt(seen_overlaps, 1000);
    cr_expect_gt(seen_hits, 200);
    cr_expect_gt(m.w->trees[0].growths, 0u, "the far boxes made the root grow");
    /* empty it: the trees merge back down to nothing */
    while (m.count > 0) {
        model_remove(&m, m.count - 1);
    }
    model_check_trees(&m);
    cr_expect_eq(m.w->trees[0].nodes[SHOVE_TREE_ROOT].first_child, SHOVE_TREE_NONE,
                 "an empty tree has no children left");
    SHOVE_FN(world_destroy)(m.w);
}

/* A visitor that counts the buckets a walk hands it and the boxes in them
 * overlapping the query. */
typedef struct bucket_count {
    shove_aabb query;
    int buckets, hits;
} bucket_count;

static bool count_buckets(void *ctx, const shove_soa *boxes, const uint32_t *handles) {
    (void)handles;
    bucket_count *c = ctx;
    c->buckets += 1;
    for (size_t i = 0; i < boxes->count; ++i) {
        c->hits += SHOVE_FN(aabb_overlaps)(SHOVE_IFN(soa_box)(boxes, i), c->query) ? 1 : 0;
    }
    return true;
}

static bucket_count walk_count(const shove_world *w, shove_aabb query) {
    bucket_count c = {query, 0, 0};
    SHOVE_IFN(tree_query)(&w->trees[SHOVE_BODY_DYNAMIC], query, count_buckets, &c);
    return c;
}

/* The order a query meets boxes in (broadphase.h): the outside bucket,
 * then depth first from the root, each node's bucket before its children
 * and its children from the highest down. A reference walk of the nodes
 * without any pruning, for the query to be compared with (pruning and the
 * quicker steps down a query takes never change that order). */
typedef struct order_walk {
    shove_aabb query;
    uint32_t handles[4096];
    int count;
} order_walk;

static void order_take(order_walk *o, const shove_soa *boxes, const uint32_t *handles) {
    for (size_t i = 0; i < boxes->count; ++i) {
        if (SHOVE_FN(aabb_overlaps)(SHOVE_IFN(soa_box)(boxes, i), o->query) && o->count < 4096) {
            o->handles[o->count++] = handles[i];
        }
    }
}

static bool order_visit(void *ctx, const shove_soa *boxes, const uint32_t *handles) {
    order_take(ctx, boxes, handles);
    return true;
}

static void order_reference(const SHOVE_T(tree) * t, uint32_t idx, order_walk *o) {
    const SHOVE_T(tree_node) *n = &t->nodes[idx];
    if (n->count > 0) {
        const shove_soa soa = SHOVE_IFN(tree_bucket_soa)(n);
        order_take(o, &soa, SHOVE_IFN(tree_bucket_handles)(n));
    }
    for (int k = (int)SHOVE_TREE_CHILDREN - 1; k >= 0; --k) {
        if (n->live & (1u << k)) {
            order_reference(t, n->first_child + (uint32_t)k, o);
        }
    }
}

/* How many nodes hold nothing themselves and have one child with entries
 * (the nodes a query steps down through untested). */
static int single_child_nodes(const SHOVE_T(tree) * t, uint32_t idx) {
    const SHOVE_T(tree_node) *n = &t->nodes[idx];
    int found = n->count == 0 && n->live != 0u && (n->live & (n->live - 1u)) == 0u;
    for (uint32_t k = 0; k < SHOVE_TREE_CHILDREN; ++k) {
        if (n->live & (1u << k)) {
            found += single_child_nodes(t, n->first_child + k);
        }
    }
    return found;
}

/* A crowd far from the middle of the default bounds, so that the root's
 * way down to it goes through nodes with a single child; queries in and
 * around it, while the crowd churns, meet the boxes in the walk's order. */
Test(broadphase, queries_meet_boxes_in_the_walk_order) {
    shove_world *w = make_world();
    enum { N = 600 };
    shove_id ids[N];
    test_rng r = {0x0dd3e500u + SHOVE_DIM};
    for (int i = 0; i < N; ++i) {
        shove_aabb b = test_random_box(&r, 12.0f, 0.5f, 2.0f);
        for (int a = 0; a < SHOVE_DIM; ++a) {
            b.min.raw[a] += 300.0f;
            b.max.raw[a] += 300.0f;
        }
        shove_body_def def = SHOVE_FN(default_body_def)();
        def.box = b;
        def.type = SHOVE_BODY_DYNAMIC;
        cr_assert_eq(SHOVE_FN(body_create)(w, &def, &ids[i]), SHOVE_OK);
    }
    const SHOVE_T(tree) *t = &w->trees[SHOVE_BODY_DYNAMIC];
    cr_assert_gt(single_child_nodes(t, SHOVE_TREE_ROOT), 0, "the walk steps down untested");
    static order_walk got, want;
    int compared = 0;
    for (int round = 0; round < 20; ++round) {
        for (int q = 0; q < 20; ++q) {
            shove_aabb query = test_random_box(&r, 14.0f, 2.0f, 10.0f);
            for (int a = 0; a < SHOVE_DIM; ++a) {
                query.min.raw[a] += 300.0f;
                query.max.raw[a] += 300.0f;
            }
            got.query = want.query = query;
            got.count = want.count = 0;
            SHOVE_IFN(tree_query)(t, query, order_visit, &got);
            const SHOVE_T(tree_node) *out = &t->nodes[SHOVE_TREE_OUTSIDE];
            if (out->count > 0) {
                const shove_soa soa = SHOVE_IFN(tree_bucket_soa)(out);
                order_take(&want, &soa, SHOVE_IFN(tree_bucket_handles)(out));
            }
            order_reference(t, SHOVE_TREE_ROOT, &want);
            cr_assert_eq(got.count, want.count, "round %d: %d boxes met, %d in the walk", round,
                         got.count, want.count);
            for (int i = 0; i < got.count; ++i) {
                cr_assert_eq(got.handles[i], want.handles[i], "round %d: box %d of %d", round, i,
                             got.count);
            }
            compared += got.count;
        }
        for (int i = 0; i < N; i += 3) { /* churn: a third of the crowd moves */
            shove_aabb b = test_box_of(w, ids[i]);
            const float dx = test_rng_float(&r, -3.0f, 3.0f);
            b.min.raw[0] += dx;
            b.max.raw[0] += dx;
            cr_assert_eq(SHOVE_FN(body_set_box)(w, ids[i], b), SHOVE_OK);
        }
    }
    cr_expect_gt(compared, 1000, "the queries met boxes");
    SHOVE_FN(world_destroy)(w);
}

/* Boxes packed in one corner of a big world; a query inside the tree's
 * loose bounds but away from every box is handed no bucket at all. Then
 * every box moves to the far corner, a few times over (the query bounds
 * are made exact again after twice as many changes as boxes): the old
 * corner is empty to queries too, and the new one finds its boxes. */
Test(broadphase, query_bounds_follow_the_boxes) {
    shove_world *w = make_world();
    enum { N = 300 };
    shove_id ids[N];
    shove_aabb near_box = BOX(0, 0, 0, 1, 1, 1);
    test_rng r = {0x5eed0300u + SHOVE_DIM};
    for (int i = 0; i < N; ++i) {
        shove_aabb b = test_random_box(&r, 10.0f, 0.5f, 1.5f); /* within about 11 of 0 */
        shove_body_def def = SHOVE_FN(default_body_def)();
        def.box = b;
        def.type = SHOVE_BODY_DYNAMIC;
        cr_assert_eq(SHOVE_FN(body_create)(w, &def, &ids[i]), SHOVE_OK);
    }
    shove_aabb far_query = BOX(90, 90, 90, 92, 92, 92);
    cr_expect_eq(walk_count(w, far_query).buckets, 0, "no bucket away from every box");
    cr_expect_gt(walk_count(w, near_box).hits, 0);
    for (int round = 0; round < 3; ++round) {
        for (int i = 0; i < N; ++i) {
            shove_aabb b = test_box_of(w, ids[i]);
            const float shift = round == 0 ? 90.0f : 0.25f;
            for (int a = 0; a < SHOVE_DIM; ++a) {
                b.min.raw[a] += shift;
                b.max.raw[a] += shift;
            }
            cr_assert_eq(SHOVE_FN(body_set_box)(w, ids[i], b), SHOVE_OK);
        }
    }
    cr_expect_eq(walk_count(w, near_box).buckets, 0, "the emptied corner is empty to queries");
    int brute = 0;
    for (int i = 0; i < N; ++i) {
        brute += SHOVE_FN(aabb_overlaps)(test_box_of(w, ids[i]), far_query) ? 1 : 0;
    }
    cr_expect_gt(brute, 0);
    cr_expect_eq(walk_count(w, far_query).hits, brute);
    cr_assert_eq(SHOVE_IFN(tree_check)(&w->trees[SHOVE_BODY_DYNAMIC]), N);
    SHOVE_FN(world_destroy)(w);
}

Test(broadphase, many_boxes_with_the_same_centre) {
    static model m;
    memset(&m, 0, sizeof m);
    m.w = make_world();
    shove_body_def def = SHOVE_FN(default_body_def)();
    for (int i = 0; i < 2000; ++i) {
        /* half identical unit boxes, half identical points, same centre */
        def.box = (i % 2) ? BOX(9.5, 9.5, 9.5, 10.5, 10.5, 10.5) : BOX(10, 10, 10, 10, 10, 10);
        cr_assert_eq(SHOVE_FN(body_create)(m.w, &def, &m.id[m.count]), SHOVE_OK);
        m.box[m.count] = def.box;
        m.category[m.count] = 1;
        m.count += 1;
    }
    model_check_trees(&m);
    /* the crowd cannot make the tree deep: boxes stop at their size, points
     * at the smallest cell */
    const shove_tree_loc loc = m.w->loc[m.id[1].index];
    cr_expect_leq(m.w->trees[0].nodes[loc.node].depth, 10u);
    cr_expect_lt(m.w->trees[0].node_count, 400u, "%u nodes", m.w->trees[0].node_count);
    check_query_box(&m, BOX(9.9, 9.9, 9.9, 10.1, 10.1, 10.1), UINT64_MAX);
    check_query_box(&m, BOX(10.2, 10.2, 10.2, 11, 11, 11), UINT64_MAX);
    test_rng r = {42};
    check_queries(&m, &r, 10);
    SHOVE_FN(world_destroy)(m.w);
}

Test(broadphase, bodies_far_outside_the_bounds_are_found) {
    static model m;
    memset(&m, 0, sizeof m);
    m.w = make_world();
    const float far[] = {1000.0f, -50000.0f, 3e7f, -1e30f, 3e38f};
    shove_body_def def = SHOVE_FN(default_body_def)();
    for (size_t k = 0; k < sizeof far / sizeof far[0]; ++k) {
        shove_vec c = shove_vec_splat(far[k]);
        def.box = SHOVE_FN(aabb_from_center)(c, shove_vec_splat(fabsf(far[k]) * 1e-3f));
        cr_assert_eq(SHOVE_FN(body_create)(m.w, &def, &m.id[m.count]), SHOVE_OK);
        m.box[m.count] = def.box;
        m.category[m.count] = 1;
        m.count += 1;
        check_query_box(&m, def.box, UINT64_MAX);
    }
    /* one huge box around everything */
    def.box = BOX(-3e38, -3e38, -3e38, 3e38, 3e38, 3e38);
    cr_assert_eq(SHOVE_FN(body_create)(m.w, &def, &m.id[m.count]), SHOVE_OK);
    m.box[m.count] = def.box;
    m.category[m.count] = 1;
    m.count += 1;
    model_check_trees(&m);
    for (int i = 0; i < m.count; ++i) {
        check_query_box(&m, m.box[i], UINT64_MAX);
        shove_aabb probe = m.box[i];
        probe.max = probe.min;
        check_cast(&m, probe, shove_vec_splat(1.0f), UINT64_MAX, false);
    }
    /* and back: a far body brought home is still found */
    model_move(&m, 0, BOX(1, 1, 1, 2, 2, 2));
    model_check_trees(&m);
    check_query_box(&m, BOX(0, 0, 0, 3, 3, 3), UINT64_MAX);
    SHOVE_FN(world_destroy)(m.w);
}

Test(broadphase, casts_at_every_axis_and_the_zero_motion) {
    static model m;
    memset(&m, 0, sizeof m);
    m.w = make_world();
    test_rng r = {7};
    for (int i = 0; i < 500; ++i) {
        model_add(&m, &r);
    }
    for (int k = 0; k < 40; ++k) {
        const shove_aabb mover = test_random_box(&r, 100.0f, 0.0f, 2.0f);
        for (int a = 0; a < SHOVE_DIM; ++a) {
            shove_vec d = shove_vec_splat(0.0f);
            d.raw[a] = (k % 2) ? 200.0f : -200.0f;
            check_cast(&m, mover, d, UINT64_MAX, false);
            check_cast(&m, mover, d, UINT64_MAX, true);
        }
        check_cast(&m, mover, shove_vec_splat(0.0f), UINT64_MAX, false);
    }
    cr_expect_gt(seen_misses, 10, "some casts hit nothing");
    SHOVE_FN(world_destroy)(m.w);
}

/* >>the bounds hint is only a hint */

/* Entries a tree query hands to its visitor: the work a query does. */
static bool count_entries(void *ctx, const shove_soa *boxes, const uint32_t *handles) {
    (void)handles;
    *(long *)ctx += (long)boxes->count;
    return true;
}

/* Extent of the region on axis a: 1414 wide, 16 high in 3D (a block world's
 * ground; the 2D region is as wide as it is high). */
static float region_extent(int a) {
    return (SHOVE_DIM == 3 && a == 1) ? 16.0f : 1414.0f;
}

/* The same static boxes (spread over the region shifted by `shift`) in a
 * world with `bounds` (NULL: the default ones), then the same 2000 query
 * boxes: the entries the static tree's walks visit in all, and the bodies
 * found. */
static long entries_visited(const shove_aabb *bounds, float shift, long *found) {
    enum { BOXES = 40000, QUERIES = 2000 };
    shove_world_def def = SHOVE_FN(default_world_def)();
    if (bounds) {
        def.bounds = *bounds;
    }
    shove_world *w = NULL;
    cr_assert_eq(SHOVE_FN(world_create)(&def, &w), SHOVE_OK);
    test_rng r = {1414};
    shove_body_def body = SHOVE_FN(default_body_def)();
    for (int i = 0; i < BOXES; ++i) {
        for (int a = 0; a < SHOVE_DIM; ++a) {
            const float extent = region_extent(a);
            const float size = test_rng_float(&r, 0.5f, 2.0f);
            body.box.min.raw[a] = test_rng_float(&r, 0.0f, extent - size) + shift;
            body.box.max.raw[a] = body.box.min.raw[a] + size;
        }
        shove_id id;
        cr_assert_eq(SHOVE_FN(body_create)(w, &body, &id), SHOVE_OK);
    }
    cr_assert_eq(SHOVE_IFN(tree_check)(&w->trees[SHOVE_BODY_STATIC]), BOXES);
    long visited = 0;
    *found = 0;
    for (int q = 0; q < QUERIES; ++q) {
        shove_aabb box;
        for (int a = 0; a < SHOVE_DIM; ++a) {
            const float extent = region_extent(a);
            /* about one hit per query in 3D, a few in 2D */
            const float size = test_rng_float(&r, SHOVE_DIM * 2.0f - 3.0f, SHOVE_DIM * 4.0f - 4.0f);
            box.min.raw[a] = test_rng_float(&r, 0.0f, extent - size) + shift;
            box.max.raw[a] = box.min.raw[a] + size;
        }
        SHOVE_IFN(tree_query)(&w->trees[SHOVE_BODY_STATIC], box, count_entries, &visited);
        *found += (long)SHOVE_FN(query_box)(w, box, UINT64_MAX, NULL, 0);
    }
    SHOVE_FN(world_destroy)(w);
    return visited;
}

Test(broadphase, default_bounds_cost_no_more_than_exact_ones) {
    /* Regions that spill past the default bounds (+-1024) on the high side,
     * sit inside them, lie wholly outside, and spill past the low side. */
    const float shifts[] = {0.0f, -707.0f, 5000.0f, -2000.0f};
    for (size_t k = 0; k < sizeof shifts / sizeof shifts[0]; ++k) {
        shove_aabb exact;
        for (int a = 0; a < SHOVE_DIM; ++a) {
            exact.min.raw[a] = shifts[k];
            exact.max.raw[a] = shifts[k] + region_extent(a);
        }
        long found_default, found_exact;
        const long with_default = entries_visited(NULL, shifts[k], &found_default);
        const long with_exact = entries_visited(&exact, shifts[k], &found_exact);
        cr_assert_eq(found_default, found_exact, "shift %g", (double)shifts[k]);
        cr_assert_gt(found_exact, 100, "the queries find bodies");
        cr_expect_leq((double)with_default, 1.5 * (double)with_exact,
                      "shift %g: %ld entries visited with the default bounds, %ld with exact ones",
                      (double)shifts[k], with_default, with_exact);
        cr_log_info("%dd shift %g: default bounds %ld entries, exact %ld\n", SHOVE_DIM,
                    (double)shifts[k], with_default, with_exact);
    }
}
