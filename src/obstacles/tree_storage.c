/*
 * tree_storage.c: where the loose quadtree / octree keeps its data: bucket
 * blocks and their pool, the entries of a bucket, blocks of 2^DIM child
 * nodes with their bounds side by side, and a fresh node's fields.
 * Template: see dim.h; how the tree works is described in broadphase.h.
 */
#include <string.h>

#include "obstacles/broadphase.h"

#define TREE SHOVE_T(tree)
#define NODE SHOVE_T(tree_node)

/* >>memory ---------------------------------------------------------------- */

static void *SHOVE_IFN(tree_realloc)(TREE *t, void *p, size_t old_size, size_t new_size) {
    return t->alloc.realloc(t->alloc.ctx, p, old_size, new_size);
}

static size_t SHOVE_IFN(tree_bucket_bytes)(uint32_t capacity) {
    return (size_t)capacity * (2u * SHOVE_DIM * sizeof(float) + sizeof(uint32_t));
}

/* Size class of a bucket capacity (8 << class). */
static inline uint32_t SHOVE_IFN(tree_bucket_class)(uint32_t capacity) {
    uint32_t c = 0;
    while ((8u << c) < capacity) {
        ++c;
    }
    return c;
}

/* A bucket block of `capacity` entries: from the pool of unused blocks of
 * that size when there is one, else from the allocator. */
static float *SHOVE_IFN(tree_bucket_take_block)(TREE *t, uint32_t capacity) {
    const uint32_t c = SHOVE_IFN(tree_bucket_class)(capacity);
    float *block = t->bucket_pool[c];
    if (block) {
        memcpy(&t->bucket_pool[c], (void *)block, sizeof(float *));
        return block;
    }
    return SHOVE_IFN(tree_realloc)(t, NULL, 0, SHOVE_IFN(tree_bucket_bytes)(capacity));
}

/* Give a block back to the pool (its first bytes link the pool's list). */
static void SHOVE_IFN(tree_bucket_give_block)(TREE *t, float *block, uint32_t capacity) {
    const uint32_t c = SHOVE_IFN(tree_bucket_class)(capacity);
    memcpy((void *)block, &t->bucket_pool[c], sizeof(float *));
    t->bucket_pool[c] = block;
}

/* Room for `need` entries in node `idx`'s bucket. The block layout depends
 * on the capacity, so growing copies each array to its new place; the old
 * block goes back to the pool. */
static bool SHOVE_IFN(tree_bucket_reserve)(TREE *t, uint32_t idx, uint32_t need) {
    NODE *n = &t->nodes[idx];
    if (need <= n->capacity) {
        return true;
    }
    if (need > (8u << (SHOVE_TREE_BUCKET_CLASSES - 1))) {
        return false;
    }
    uint32_t cap = 8u;
    while (cap < need) {
        cap *= 2u;
    }
    float *block = SHOVE_IFN(tree_bucket_take_block)(t, cap);
    if (!block) {
        return false;
    }
    if (n->bucket) {
        for (int k = 0; k < 2 * SHOVE_DIM; ++k) {
            memcpy(block + (size_t)k * cap, n->bucket + (size_t)k * n->capacity,
                   n->count * sizeof(float));
        }
        memcpy(block + (size_t)2 * SHOVE_DIM * cap, SHOVE_IFN(tree_bucket_handles)(n),
               n->count * sizeof(uint32_t));
        SHOVE_IFN(tree_bucket_give_block)(t, n->bucket, n->capacity);
    }
    n->bucket = block;
    n->capacity = cap;
    return true;
}

static inline void SHOVE_IFN(tree_bucket_write)(NODE *n, uint32_t pos, shove_aabb box) {
    SHOVE_AXES_UNROLLED
    for (int a = 0; a < SHOVE_DIM; ++a) {
        n->bucket[(size_t)a * n->capacity + pos] = box.min.raw[a];
        n->bucket[(size_t)(SHOVE_DIM + a) * n->capacity + pos] = box.max.raw[a];
    }
}

static inline shove_aabb SHOVE_IFN(tree_bucket_read)(const NODE *n, uint32_t pos) {
    shove_aabb box;
    SHOVE_AXES_UNROLLED
    for (int a = 0; a < SHOVE_DIM; ++a) {
        box.min.raw[a] = n->bucket[(size_t)a * n->capacity + pos];
        box.max.raw[a] = n->bucket[(size_t)(SHOVE_DIM + a) * n->capacity + pos];
    }
    return box;
}

/* Lane of child b in its block's bounds. In 3D the children in the lower
 * half of the cell on axis 1 (y: up in most games) take lanes 0-3 and the
 * upper ones lanes 4-7, so a query tests the upper four only when one of
 * them holds entries: in a world much wider than tall they are empty at
 * every level but the lowest few. */
static inline uint32_t SHOVE_IFN(tree_lane)(uint32_t b) {
#if SHOVE_DIM == 3
    return (b & 1u) | ((b >> 1) & 2u) | ((b << 1) & 4u); /* x | z << 1 | y << 2 */
#else
    return b;
#endif
}

/* The box that holds nothing (+inf .. -inf): no box lies in it and no
 * query overlaps it. */
static inline shove_aabb SHOVE_IFN(tree_empty_box)(void) {
    shove_aabb b;
    SHOVE_AXES_UNROLLED
    for (int a = 0; a < SHOVE_DIM; ++a) {
        b.min.raw[a] = INFINITY;
        b.max.raw[a] = -INFINITY;
    }
    return b;
}

/* Grow *q to hold `box` too. */
static inline void SHOVE_IFN(tree_join)(shove_aabb *q, shove_aabb box) {
    SHOVE_AXES_UNROLLED
    for (int a = 0; a < SHOVE_DIM; ++a) {
        q->min.raw[a] = box.min.raw[a] < q->min.raw[a] ? box.min.raw[a] : q->min.raw[a];
        q->max.raw[a] = box.max.raw[a] > q->max.raw[a] ? box.max.raw[a] : q->max.raw[a];
    }
}

/* Copy the query bounds of node `node` into lane `lane` of block `bb`. */
static inline void SHOVE_IFN(tree_block_lane)(SHOVE_T(tree_block_bounds) * bb, uint32_t lane,
                                              const NODE *node) {
    SHOVE_AXES_UNROLLED
    for (int a = 0; a < SHOVE_DIM; ++a) {
        bb->lo[a][lane] = node->query.min.raw[a];
        bb->hi[a][lane] = node->query.max.raw[a];
    }
}

/* Copy node idx's query bounds into its lane of its parent's block. */
static inline void SHOVE_IFN(tree_sync_lane)(TREE *t, uint32_t idx) {
    const uint32_t parent = t->nodes[idx].parent;
    if (parent == SHOVE_TREE_NONE) {
        return;
    }
    const uint32_t first = t->nodes[parent].first_child;
    SHOVE_IFN(tree_block_lane)
    (&t->blocks[(first - 2u) / SHOVE_TREE_CHILDREN], SHOVE_IFN(tree_lane)(idx - first),
     &t->nodes[idx]);
}

/* Grow the query bounds of node idx and its ancestors to hold `box`, up to
 * the first that holds it already (its ancestors do too). */
static void SHOVE_IFN(tree_widen)(TREE *t, uint32_t idx, shove_aabb box) {
    while (idx != SHOVE_TREE_NONE) {
        NODE *n = &t->nodes[idx];
        if (SHOVE_IFN(contains_unchecked)(n->query, box)) {
            return;
        }
        SHOVE_IFN(tree_join)(&n->query, box);
        SHOVE_IFN(tree_sync_lane)(t, idx);
        idx = n->parent;
    }
}

/* Write the box of the entry at `pos` of node idx (it stays in the node). */
static inline void SHOVE_IFN(tree_bucket_rewrite)(TREE *t, uint32_t idx, uint32_t pos,
                                                  shove_aabb box) {
    SHOVE_IFN(tree_bucket_write)(&t->nodes[idx], pos, box);
    SHOVE_IFN(tree_widen)(t, idx, box);
}

/* Append an entry (room reserved by the caller). */
static void SHOVE_IFN(tree_bucket_push)(TREE *t, uint32_t idx, uint32_t handle, shove_aabb box) {
    NODE *n = &t->nodes[idx];
    const uint32_t pos = n->count++;
    SHOVE_IFN(tree_bucket_write)(n, pos, box);
    SHOVE_IFN(tree_bucket_handles)(n)[pos] = handle;
    t->loc[handle].node = idx;
    t->loc[handle].pos = pos;
    SHOVE_IFN(tree_widen)(t, idx, box);
}

/* Remove the entry at `pos`; the last entry takes its place. */
static void SHOVE_IFN(tree_bucket_take)(TREE *t, uint32_t idx, uint32_t pos) {
    NODE *n = &t->nodes[idx];
    const uint32_t last = --n->count;
    if (pos != last) {
        uint32_t *handles = SHOVE_IFN(tree_bucket_handles)(n);
        SHOVE_IFN(tree_bucket_write)(n, pos, SHOVE_IFN(tree_bucket_read)(n, last));
        handles[pos] = handles[last];
        t->loc[handles[pos]].pos = pos;
    }
}

static void SHOVE_IFN(tree_add_subtree)(TREE *t, uint32_t idx, int delta) {
    while (idx != SHOVE_TREE_NONE) {
        NODE *n = &t->nodes[idx];
        const uint32_t old = n->subtree;
        n->subtree = (uint32_t)((int64_t)old + delta);
        const uint32_t parent = n->parent;
        if (parent != SHOVE_TREE_NONE && (old == 0u) != (n->subtree == 0u)) {
            /* the node became empty or stopped being empty */
            t->nodes[parent].live ^= 1u << (idx - t->nodes[parent].first_child);
        }
        idx = parent;
    }
}

/* A node's cell and loose bounds; the loose bounds are clipped to the
 * parent's, so that "inside a node" always implies "inside its parents"
 * whatever the rounding. The bucket memory a reused node had is kept. */
static void SHOVE_IFN(tree_init_node)(NODE *n, const float cell_min[SHOVE_DIM], float size,
                                      uint32_t parent, uint32_t depth, const NODE *parent_node) {
    SHOVE_AXES_UNROLLED
    for (int a = 0; a < SHOVE_DIM; ++a) {
        n->cell_min[a] = cell_min[a];
        n->lo[a] = cell_min[a] - size * SHOVE_TREE_LOOSE;
        n->hi[a] = (cell_min[a] + size) + size * SHOVE_TREE_LOOSE;
        if (parent_node) {
            n->lo[a] = (n->lo[a] < parent_node->lo[a]) ? parent_node->lo[a] : n->lo[a];
            n->hi[a] = (n->hi[a] > parent_node->hi[a]) ? parent_node->hi[a] : n->hi[a];
        }
    }
    n->query = SHOVE_IFN(tree_empty_box)(); /* holds nothing yet */
    n->cell_size = size;
    n->first_child = SHOVE_TREE_NONE;
    n->parent = parent;
    n->count = 0;
    n->subtree = 0;
    n->live = 0;
    n->depth = depth;
}

/* Child blocks that fit in `node_capacity` nodes (the first two are the
 * root and the outside bucket). */
static inline size_t SHOVE_IFN(tree_block_count)(uint32_t node_capacity) {
    return node_capacity > 2u ? (size_t)(node_capacity - 2u) / SHOVE_TREE_CHILDREN : 0u;
}

/* Copy the query bounds of the block starting at node `first` next to each
 * other (after they were set), child b in lane tree_lane(b). */
static void SHOVE_IFN(tree_sync_block)(TREE *t, uint32_t first) {
    SHOVE_T(tree_block_bounds) *bb = &t->blocks[(first - 2u) / SHOVE_TREE_CHILDREN];
    for (uint32_t b = 0; b < SHOVE_TREE_CHILDREN; ++b) {
        SHOVE_IFN(tree_block_lane)(bb, SHOVE_IFN(tree_lane)(b), &t->nodes[first + b]);
    }
}

/* Node idx's query bounds made exact: its bucket's boxes and its
 * children's query bounds (made exact first), or empty. */
static void SHOVE_IFN(tree_refit_node)(TREE *t, uint32_t idx) {
    NODE *n = &t->nodes[idx];
    shove_aabb q = SHOVE_IFN(tree_empty_box)();
    for (uint32_t i = 0; i < n->count; ++i) {
        SHOVE_IFN(tree_join)(&q, SHOVE_IFN(tree_bucket_read)(n, i));
    }
    if (n->first_child != SHOVE_TREE_NONE) {
        for (uint32_t b = 0; b < SHOVE_TREE_CHILDREN; ++b) {
            const uint32_t c = n->first_child + b;
            SHOVE_IFN(tree_refit_node)(t, c);
            SHOVE_IFN(tree_join)(&q, t->nodes[c].query);
        }
        SHOVE_IFN(tree_sync_block)(t, n->first_child);
    }
    t->nodes[idx].query = q;
}

/* Count one change of the tree; after twice as many as it has entries (and
 * 64), make every query bounds exact again: a walk of every node and entry,
 * so at most a few comparisons a change, spread out. */
static void SHOVE_IFN(tree_count_edit)(TREE *t) {
    t->edits += 1u;
    if (t->edits > 2u * t->nodes[SHOVE_TREE_ROOT].subtree + 64u) {
        t->edits = 0u;
        SHOVE_IFN(tree_refit_node)(t, SHOVE_TREE_ROOT);
    }
}

/* 2^DIM fresh nodes, from the free list or the end of the array. */
static uint32_t SHOVE_IFN(tree_alloc_block)(TREE *t) {
    if (t->free_blocks != SHOVE_TREE_NONE) {
        const uint32_t idx = t->free_blocks;
        t->free_blocks = t->nodes[idx].first_child;
        return idx;
    }
    if (t->node_count + SHOVE_TREE_CHILDREN > t->node_capacity) {
        if (t->node_capacity > UINT32_MAX / 4u) {
            return SHOVE_TREE_NONE;
        }
        const uint32_t cap = t->node_capacity * 2u;
        /* The block copies first: a bigger array of them than the nodes
         * need, if the nodes then fail, is harmless. */
        const size_t old_blocks = SHOVE_IFN(tree_block_count)(t->node_capacity);
        const size_t new_blocks = SHOVE_IFN(tree_block_count)(cap);
        SHOVE_T(tree_block_bounds) *blocks = SHOVE_IFN(tree_realloc)(
            t, t->blocks, old_blocks * sizeof *blocks, new_blocks * sizeof *blocks);
        if (!blocks) {
            return SHOVE_TREE_NONE;
        }
        t->blocks = blocks;
        NODE *nodes = SHOVE_IFN(tree_realloc)(t, t->nodes, t->node_capacity * sizeof(NODE),
                                              cap * sizeof(NODE));
        if (!nodes) {
            return SHOVE_TREE_NONE;
        }
        memset(nodes + t->node_capacity, 0, (cap - t->node_capacity) * sizeof(NODE));
        t->nodes = nodes;
        t->node_capacity = cap;
    }
    const uint32_t idx = t->node_count;
    t->node_count += SHOVE_TREE_CHILDREN;
    return idx;
}

static void SHOVE_IFN(tree_free_block)(TREE *t, uint32_t first) {
    t->nodes[first].first_child = t->free_blocks;
    t->free_blocks = first;
}

#undef TREE
#undef NODE
