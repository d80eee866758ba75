/*
 * tree_query.c: what the loose quadtree / octree answers: the buckets that
 * may overlap a box (four children tested at once, simd/lanes4.h), the
 * earliest hit of a cast, and a walk of every node for debug drawing.
 * Template: see dim.h; how the tree works is described in broadphase.h.
 */
#include "obstacles/broadphase.h"
#include "simd/kernels.h"
#include "simd/lanes4.h"

#define TREE SHOVE_T(tree)
#define NODE SHOVE_T(tree_node)
#if SHOVE_DIM == 2
#define TREE_KERNEL_SWEEP sweep2
#else
#define TREE_KERNEL_SWEEP sweep3
#endif

/* >>queries --------------------------------------------------------------- */

/* Which of the lanes first .. first + 3 of a block overlap the query
 * strictly (bit k: lane first + k): overlaps_unchecked on the block's copy
 * of the children's query bounds. `qlo` / `qhi` hold the query's min
 * / max of every axis in all four lanes. */
static inline unsigned SHOVE_IFN(tree_lane_hits)(const SHOVE_T(tree_block_bounds) * bb,
                                                 uint32_t first, const shove__f4 qlo[SHOVE_DIM],
                                                 const shove__f4 qhi[SHOVE_DIM]) {
    shove__m4 in = shove__m4_and(shove__f4_lt(shove__f4_load(&bb->lo[0][first]), qhi[0]),
                                 shove__f4_lt(qlo[0], shove__f4_load(&bb->hi[0][first])));
    SHOVE_AXES_UNROLLED
    for (int a = 1; a < SHOVE_DIM; ++a) {
        in = shove__m4_and(in, shove__f4_lt(shove__f4_load(&bb->lo[a][first]), qhi[a]));
        in = shove__m4_and(in, shove__f4_lt(qlo[a], shove__f4_load(&bb->hi[a][first])));
    }
    return shove__m4_bits(in);
}

/* The children of a node with `live` children (its live mask) that overlap
 * the query strictly, as a child mask; lanes of dead children only are not
 * tested. */
static inline unsigned SHOVE_IFN(tree_block_hits)(const SHOVE_T(tree_block_bounds) * bb,
                                                  unsigned live, const shove__f4 qlo[SHOVE_DIM],
                                                  const shove__f4 qhi[SHOVE_DIM]) {
#if SHOVE_DIM == 3
    /* lanes 0-3: children 0, 1, 4, 5 (lower y); lanes 4-7: 2, 3, 6, 7 */
    unsigned hits = 0u;
    if (live & 0x33u) {
        const unsigned m = SHOVE_IFN(tree_lane_hits)(bb, 0u, qlo, qhi);
        hits |= (m & 3u) | ((m & 0xCu) << 2);
    }
    if (live & 0xCCu) {
        const unsigned m = SHOVE_IFN(tree_lane_hits)(bb, 4u, qlo, qhi);
        hits |= ((m & 3u) << 2) | ((m & 0xCu) << 4);
    }
    return hits & live;
#else
    return SHOVE_IFN(tree_lane_hits)(bb, 0u, qlo, qhi) & live;
#endif
}

void SHOVE_IFN(tree_query)(const TREE *t, shove_aabb box, SHOVE_T(tree_visit_fn) visit, void *ctx) {
    const NODE *nodes = t->nodes;
    const NODE *out = &nodes[SHOVE_TREE_OUTSIDE];
    if (out->count > 0) {
        const shove_soa soa = SHOVE_IFN(tree_bucket_soa)(out);
        if (!visit(ctx, &soa, SHOVE_IFN(tree_bucket_handles)(out))) {
            return;
        }
    }
    if (nodes[SHOVE_TREE_ROOT].subtree == 0 ||
        !SHOVE_IFN(overlaps_unchecked)(nodes[SHOVE_TREE_ROOT].query, box)) {
        return;
    }
    shove__f4 qlo[SHOVE_DIM], qhi[SHOVE_DIM];
    SHOVE_AXES_UNROLLED
    for (int a = 0; a < SHOVE_DIM; ++a) {
        const float lo = box.min.raw[a], hi = box.max.raw[a];
        qlo[a] = shove__f4_splat(lo);
        qhi[a] = shove__f4_splat(hi);
    }
    /* Depth first, highest child first: a node's highest overlapping child
     * is walked next and the others wait on the stack in ascending order. */
    uint32_t stack[SHOVE_TREE_STACK];
    int sp = 0;
    uint32_t idx = SHOVE_TREE_ROOT;
    for (;;) {
        const NODE *n = &nodes[idx];
        if (n->count > 0) {
            /* tree_bucket_soa, for a bucket that exists */
            const size_t cap = n->capacity;
            shove_soa soa;
            SHOVE_AXES_UNROLLED
            for (int a = 0; a < SHOVE_DIM; ++a) {
                soa.min[a] = n->bucket + (size_t)a * cap;
                soa.max[a] = n->bucket + (size_t)(SHOVE_DIM + a) * cap;
            }
            soa.count = n->count;
            if (!visit(ctx, &soa,
                       (const uint32_t *)(const void *)(n->bucket + 2u * SHOVE_DIM * cap))) {
                return;
            }
        }
        if (n->count == 0 && n->live != 0u && (n->live & (n->live - 1u)) == 0u) {
            /* One child holds the whole subtree (a node on the way down to a
             * crowd far smaller than the root): its query bounds are this
             * node's, which met the query, unless a sibling emptied since
             * the bounds were last made exact (tree_count_edit); walking it
             * untested meets the same boxes in the same order, and costs at
             * most a useless step down (its bucket handed to the visitor,
             * which finds nothing there) in that rare case. Testing it
             * costs 2% more instructions in a crowd's step. */
            idx = n->first_child + (uint32_t)__builtin_ctz(n->live);
            continue;
        }
        if (n->live != 0u) { /* children with entries */
            /* The children's bounds side by side: one pass tests them all,
             * then only the children that overlap are read. */
            const uint32_t first = n->first_child;
            unsigned hits = SHOVE_IFN(tree_block_hits)(
                &t->blocks[(first - 2u) / SHOVE_TREE_CHILDREN], n->live, qlo, qhi);
            if (hits != 0u) {
                /* the highest child next, the others on the stack */
                const uint32_t top = 31u - (uint32_t)__builtin_clz(hits);
                for (hits &= ~(1u << top); hits != 0u; hits &= hits - 1u) {
                    stack[sp++] = first + (uint32_t)__builtin_ctz(hits);
                }
                idx = first + top;
                continue;
            }
        }
        if (sp == 0) {
            return;
        }
        idx = stack[--sp];
    }
}

/* Earliest accepted hit in one bucket, merged into `best`. */
static void SHOVE_IFN(tree_cast_bucket)(const NODE *n, shove_aabb box, shove_vec delta,
                                        SHOVE_T(tree_accept_fn) accept, void *ctx,
                                        SHOVE_T(tree_cast_result) * best) {
    const shove_soa soa = SHOVE_IFN(tree_bucket_soa)(n);
    const uint32_t *handles = SHOVE_IFN(tree_bucket_handles)(n);
    shove_hit hit;
    uint32_t index;
    if (!shove__kernels()->TREE_KERNEL_SWEEP(&soa, box, delta, &hit, &index)) {
        return;
    }
    if (best->found && !(hit.t < best->t)) {
        return; /* nothing here beats the best, accepted or not */
    }
    if (!accept || accept(ctx, handles[index])) {
        best->found = true;
        best->handle = handles[index];
        best->hit = hit;
        best->t = hit.t;
        return;
    }
    /* The earliest box was filtered out: look at the accepted ones one by
     * one, with the same rule as the kernel (earliest, then lowest index). */
    for (uint32_t i = 0; i < n->count; ++i) {
        if (!accept(ctx, handles[i])) {
            continue;
        }
        SHOVE_T(sweep_detail) d;
        if (!SHOVE_IFN(sweep_detail)(box, delta, SHOVE_IFN(tree_bucket_read)(n, i), &d)) {
            continue;
        }
        const float ti = (d.t_enter > 0.0f) ? d.t_enter : 0.0f;
        if (!best->found || ti < best->t) {
            best->found = true;
            best->handle = handles[i];
            SHOVE_IFN(hit_from_detail)(&d, &best->hit);
            best->t = ti;
        }
    }
}

/* Entry time of the swept box into a node's loose bounds (false: never). */
static inline bool SHOVE_IFN(tree_cast_node)(const NODE *n, shove_aabb box, shove_vec delta,
                                             float *t_enter) {
    SHOVE_T(sweep_detail) d;
    if (!SHOVE_IFN(sweep_detail)(box, delta, SHOVE_IFN(tree_node_bounds)(n), &d)) {
        return false;
    }
    *t_enter = (d.t_enter > 0.0f) ? d.t_enter : 0.0f;
    return true;
}

void SHOVE_IFN(tree_cast)(const TREE *t, shove_aabb box, shove_vec delta,
                          SHOVE_T(tree_accept_fn) accept, void *ctx,
                          SHOVE_T(tree_cast_result) * best) {
    const NODE *nodes = t->nodes;
    if (nodes[SHOVE_TREE_OUTSIDE].count > 0) {
        SHOVE_IFN(tree_cast_bucket)(&nodes[SHOVE_TREE_OUTSIDE], box, delta, accept, ctx, best);
    }
    struct {
        uint32_t node;
        float t;
    } stack[SHOVE_TREE_STACK];
    int sp = 0;
    float t_root;
    if (nodes[SHOVE_TREE_ROOT].subtree > 0 &&
        SHOVE_IFN(tree_cast_node)(&nodes[SHOVE_TREE_ROOT], box, delta, &t_root) &&
        (!best->found || t_root < best->t)) {
        stack[sp].node = SHOVE_TREE_ROOT;
        stack[sp].t = t_root;
        ++sp;
    }
    while (sp > 0) {
        --sp;
        if (best->found && !(stack[sp].t < best->t)) {
            continue; /* entered no earlier than the best hit: cannot beat it */
        }
        const NODE *n = &nodes[stack[sp].node];
        if (n->count > 0) {
            SHOVE_IFN(tree_cast_bucket)(n, box, delta, accept, ctx, best);
        }
        if (n->first_child == SHOVE_TREE_NONE || n->subtree == n->count) {
            continue;
        }
        /* Push the children the sweep enters, latest first, so the
         * earliest is walked first and tightens the bound for the rest. */
        const int base = sp;
        for (uint32_t b = 0; b < SHOVE_TREE_CHILDREN; ++b) {
            const uint32_t c = n->first_child + b;
            float tc;
            if (!((n->live >> b) & 1u) || !SHOVE_IFN(tree_cast_node)(&nodes[c], box, delta, &tc) ||
                (best->found && !(tc < best->t))) {
                continue;
            }
            int k = sp++;
            while (k > base && stack[k - 1].t < tc) {
                stack[k] = stack[k - 1];
                --k;
            }
            stack[k].node = c;
            stack[k].t = tc;
        }
    }
}

void SHOVE_IFN(tree_each_node)(const TREE *t, SHOVE_T(tree_node_fn) fn, void *ctx) {
    uint32_t stack[SHOVE_TREE_STACK];
    int sp = 0;
    stack[sp++] = SHOVE_TREE_ROOT;
    while (sp > 0) {
        const NODE *n = &t->nodes[stack[--sp]];
        if (n->subtree == 0) {
            continue;
        }
        shove_aabb cell;
        SHOVE_AXES_UNROLLED
        for (int a = 0; a < SHOVE_DIM; ++a) {
            cell.min.raw[a] = n->cell_min[a];
            cell.max.raw[a] = n->cell_min[a] + n->cell_size;
        }
        fn(ctx, SHOVE_IFN(tree_node_bounds)(n), cell, n->depth, n->count);
        if (n->first_child != SHOVE_TREE_NONE) {
            for (uint32_t b = 0; b < SHOVE_TREE_CHILDREN; ++b) {
                stack[sp++] = n->first_child + b;
            }
        }
    }
}

#undef TREE
#undef NODE
#undef TREE_KERNEL_SWEEP
