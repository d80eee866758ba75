/*
 * broadphase.c: the loose quadtree / octree. Template: see dim.h; how the
 * tree works is described in broadphase.h.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "obstacles/broadphase.h"
#include "simd/kernels.h"
#include "simd/lanes4.h"

#define TREE SHOVE_T(tree)
#define NODE SHOVE_T(tree_node)
#if SHOVE_DIM == 2
#define TREE_KERNEL_SWEEP   sweep2
#define TREE_KERNEL_OVERLAP overlap2
#else
#define TREE_KERNEL_SWEEP   sweep3
#define TREE_KERNEL_OVERLAP overlap3
#endif

/* Deepest traversal stack: every level adds at most 2^DIM - 1 entries. */
#define TREE_STACK (SHOVE_TREE_MAX_DEPTH * (SHOVE_TREE_CHILDREN - 1) + 2)

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
    for (int a = 0; a < SHOVE_DIM; ++a) {
        n->bucket[(size_t)a * n->capacity + pos] = box.min.raw[a];
        n->bucket[(size_t)(SHOVE_DIM + a) * n->capacity + pos] = box.max.raw[a];
    }
}

static inline shove_aabb SHOVE_IFN(tree_bucket_read)(const NODE *n, uint32_t pos) {
    shove_aabb box;
    for (int a = 0; a < SHOVE_DIM; ++a) {
        box.min.raw[a] = n->bucket[(size_t)a * n->capacity + pos];
        box.max.raw[a] = n->bucket[(size_t)(SHOVE_DIM + a) * n->capacity + pos];
    }
    return box;
}

/* Append an entry (room reserved by the caller). */
static void SHOVE_IFN(tree_bucket_push)(TREE *t, uint32_t idx, uint32_t handle, shove_aabb box) {
    NODE *n = &t->nodes[idx];
    const uint32_t pos = n->count++;
    SHOVE_IFN(tree_bucket_write)(n, pos, box);
    SHOVE_IFN(tree_bucket_handles)(n)[pos] = handle;
    t->loc[handle].node = idx;
    t->loc[handle].pos = pos;
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
    for (int a = 0; a < SHOVE_DIM; ++a) {
        n->cell_min[a] = cell_min[a];
        n->lo[a] = cell_min[a] - size * SHOVE_TREE_LOOSE;
        n->hi[a] = (cell_min[a] + size) + size * SHOVE_TREE_LOOSE;
        if (parent_node) {
            n->lo[a] = (n->lo[a] < parent_node->lo[a]) ? parent_node->lo[a] : n->lo[a];
            n->hi[a] = (n->hi[a] > parent_node->hi[a]) ? parent_node->hi[a] : n->hi[a];
        }
    }
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

/* Copy the loose bounds of the block starting at node `first` next to each
 * other (after they were set), child b in lane tree_lane(b). */
static void SHOVE_IFN(tree_sync_block)(TREE *t, uint32_t first) {
    SHOVE_T(tree_block_bounds) *bb = &t->blocks[(first - 2u) / SHOVE_TREE_CHILDREN];
    for (uint32_t b = 0; b < SHOVE_TREE_CHILDREN; ++b) {
        const uint32_t lane = SHOVE_IFN(tree_lane)(b);
        for (int a = 0; a < SHOVE_DIM; ++a) {
            bb->lo[a][lane] = t->nodes[first + b].lo[a];
            bb->hi[a][lane] = t->nodes[first + b].hi[a];
        }
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

/* >>placement ------------------------------------------------------------- */

/* True when `box` grown by `margin` lies inside the node's loose bounds
 * (margin 0: the box itself; rounding of the grown box only makes the test
 * stricter, so a fat fit always implies a plain fit). */
static inline bool SHOVE_IFN(tree_fits)(const NODE *n, shove_aabb box, float margin) {
    for (int a = 0; a < SHOVE_DIM; ++a) {
        if (!(box.min.raw[a] - margin >= n->lo[a] && box.max.raw[a] + margin <= n->hi[a])) {
            return false;
        }
    }
    return true;
}

/* Child of `n` (0 .. 2^DIM - 1) whose cell holds the centre of `box`. */
static inline uint32_t SHOVE_IFN(tree_child_bit)(const NODE *n, shove_aabb box) {
    uint32_t bit = 0;
    const float half = n->cell_size * 0.5f;
    for (int a = 0; a < SHOVE_DIM; ++a) {
        /* halves, not (min + max) / 2: no overflow for huge coordinates */
        const float centre = box.min.raw[a] * 0.5f + box.max.raw[a] * 0.5f;
        if (centre >= n->cell_min[a] + half) {
            bit |= 1u << a;
        }
    }
    return bit;
}

static inline bool SHOVE_IFN(tree_can_split)(const TREE *t, const NODE *n) {
    const float half = n->cell_size * 0.5f;
    if (n->depth + 1u >= (uint32_t)SHOVE_TREE_MAX_DEPTH || half < t->min_cell) {
        return false;
    }
    /* Far from zero a float cannot tell tiny cells apart: stop splitting
     * when the child would be below 2^-16 of its coordinates. */
    for (int a = 0; a < SHOVE_DIM; ++a) {
        const float far = fmaxf(fabsf(n->cell_min[a]), fabsf(n->cell_min[a] + n->cell_size));
        if (half < far * 0x1p-16f) {
            return false;
        }
    }
    return true;
}

/* Deepest existing node whose loose bounds hold the fat box; the box must
 * fit the root. */
static uint32_t SHOVE_IFN(tree_find_target)(const TREE *t, shove_aabb box) {
    uint32_t idx = SHOVE_TREE_ROOT;
    for (;;) {
        const NODE *n = &t->nodes[idx];
        if (n->first_child == SHOVE_TREE_NONE) {
            return idx;
        }
        const uint32_t c = n->first_child + SHOVE_IFN(tree_child_bit)(n, box);
        const NODE *child = &t->nodes[c];
        if (!SHOVE_IFN(tree_fits)(child, box, child->cell_size * SHOVE_TREE_FAT)) {
            return idx;
        }
        idx = c;
    }
}

static void SHOVE_IFN(tree_deepen)(TREE *t, uint32_t idx) {
    /* Every node below `idx` gets one level deeper (after the root grew). */
    uint32_t stack[TREE_STACK];
    int sp = 0;
    stack[sp++] = idx;
    while (sp > 0) {
        NODE *n = &t->nodes[stack[--sp]];
        n->depth += 1u;
        if (n->first_child != SHOVE_TREE_NONE) {
            for (uint32_t b = 0; b < SHOVE_TREE_CHILDREN; ++b) {
                stack[sp++] = n->first_child + b;
            }
        }
    }
}

#ifndef SHOVE_TREE_GROWTH_
#define SHOVE_TREE_GROWTH_
typedef enum shove_tree_growth {
    SHOVE_TREE_GREW,
    SHOVE_TREE_NO_MEMORY,
    SHOVE_TREE_TOO_FAR, /* the doubled root would leave the float range */
} shove_tree_growth;
#endif

/* Double the root toward `box`: the old root becomes a child of the new
 * one. Nothing changes unless it returns SHOVE_TREE_GREW. */
static shove_tree_growth SHOVE_IFN(tree_grow_root)(TREE *t, shove_aabb box) {
    const NODE *root = &t->nodes[SHOVE_TREE_ROOT];
    const float size = root->cell_size;
    const float size2 = size * 2.0f;
    float cell_min[SHOVE_DIM];
    uint32_t old_bit = 0;
    if (t->growths >= SHOVE_TREE_MAX_GROWTH || !isfinite(size2 * (1.0f + SHOVE_TREE_LOOSE))) {
        return SHOVE_TREE_TOO_FAR;
    }
    for (int a = 0; a < SHOVE_DIM; ++a) {
        if (box.min.raw[a] < root->cell_min[a]) {
            cell_min[a] = root->cell_min[a] - size; /* grow downward: old root is the upper half */
            old_bit |= 1u << a;
        } else {
            cell_min[a] = root->cell_min[a];
        }
        const float far = cell_min[a] + size2 * (1.0f + SHOVE_TREE_LOOSE);
        if (!isfinite(cell_min[a] - size2 * SHOVE_TREE_LOOSE) || !isfinite(far)) {
            return SHOVE_TREE_TOO_FAR;
        }
    }
    const uint32_t blk = SHOVE_IFN(tree_alloc_block)(t);
    if (blk == SHOVE_TREE_NONE) {
        return SHOVE_TREE_NO_MEMORY;
    }
    NODE *nodes = t->nodes;
    const uint32_t moved = blk + old_bit;
    /* The old root moves to `moved`; the new root reuses the bucket memory
     * that node had. */
    float *spare_bucket = nodes[moved].bucket;
    const uint32_t spare_capacity = nodes[moved].capacity;
    nodes[moved] = nodes[SHOVE_TREE_ROOT];
    nodes[moved].parent = SHOVE_TREE_ROOT;
    if (nodes[moved].first_child != SHOVE_TREE_NONE) {
        for (uint32_t b = 0; b < SHOVE_TREE_CHILDREN; ++b) {
            nodes[nodes[moved].first_child + b].parent = moved;
        }
    }
    const uint32_t *handles = SHOVE_IFN(tree_bucket_handles)(&nodes[moved]);
    for (uint32_t i = 0; i < nodes[moved].count; ++i) {
        t->loc[handles[i]].node = moved;
    }
    NODE *nr = &nodes[SHOVE_TREE_ROOT];
    SHOVE_IFN(tree_init_node)(nr, cell_min, size2, SHOVE_TREE_NONE, 0, NULL);
    for (int a = 0; a < SHOVE_DIM; ++a) {
        /* the new loose bounds hold the old ones with a margin of half the
         * old size; the union guards against rounding anyway */
        nr->lo[a] = (nodes[moved].lo[a] < nr->lo[a]) ? nodes[moved].lo[a] : nr->lo[a];
        nr->hi[a] = (nodes[moved].hi[a] > nr->hi[a]) ? nodes[moved].hi[a] : nr->hi[a];
    }
    nr->bucket = spare_bucket;
    nr->capacity = spare_capacity;
    nr->first_child = blk;
    nr->subtree = nodes[moved].subtree;
    nr->live = (nr->subtree > 0u) ? 1u << old_bit : 0u;
    for (uint32_t b = 0; b < SHOVE_TREE_CHILDREN; ++b) {
        if (b == old_bit) {
            continue;
        }
        float child_min[SHOVE_DIM];
        for (int a = 0; a < SHOVE_DIM; ++a) {
            child_min[a] = ((b >> a) & 1u) ? cell_min[a] + size : cell_min[a];
        }
        SHOVE_IFN(tree_init_node)(&nodes[blk + b], child_min, size, SHOVE_TREE_ROOT, 1u, nr);
    }
    SHOVE_IFN(tree_sync_block)(t, blk);
    SHOVE_IFN(tree_deepen)(t, moved);
    t->growths += 1u;
    return SHOVE_TREE_GREW;
}

/* True when `box` lies inside the node's cell (not only its loose bounds). */
static inline bool SHOVE_IFN(tree_in_cell)(const NODE *n, shove_aabb box) {
    for (int a = 0; a < SHOVE_DIM; ++a) {
        if (!(box.min.raw[a] >= n->cell_min[a] &&
              box.max.raw[a] <= n->cell_min[a] + n->cell_size)) {
            return false;
        }
    }
    return true;
}

/* Node that should receive `box`. The root grows until its cell (not only
 * its loose bounds) holds the box: the children's cells cover the root's
 * cell only, so a box in the root's loose margin fits no child and would
 * stay in the root's bucket, which every query scans. Growing there keeps a
 * world whose bodies spill past the bounds it was given (the default ones,
 * say) as deep as one given exact bounds. When the root may not grow (out
 * of memory, or the float range), a box within its loose bounds still goes
 * into the tree and one outside them to the outside bucket. */
static shove_status SHOVE_IFN(tree_place)(TREE *t, shove_aabb box, uint32_t *target) {
    while (!SHOVE_IFN(tree_in_cell)(&t->nodes[SHOVE_TREE_ROOT], box)) {
        const shove_tree_growth g = SHOVE_IFN(tree_grow_root)(t, box);
        if (g == SHOVE_TREE_GREW) {
            continue;
        }
        if (SHOVE_IFN(tree_fits)(&t->nodes[SHOVE_TREE_ROOT], box, 0.0f)) {
            break;
        }
        if (g == SHOVE_TREE_NO_MEMORY) {
            return SHOVE_ERR_OUT_OF_MEMORY;
        }
        *target = SHOVE_TREE_OUTSIDE;
        return SHOVE_OK;
    }
    *target = SHOVE_IFN(tree_find_target)(t, box);
    return SHOVE_OK;
}

static void SHOVE_IFN(tree_maybe_split)(TREE *t, uint32_t idx);

/* Give a leaf children and move down every entry whose fat box fits the
 * child holding its centre. Memory failures leave entries where they are. */
static void SHOVE_IFN(tree_split)(TREE *t, uint32_t idx) {
    const uint32_t blk = SHOVE_IFN(tree_alloc_block)(t);
    if (blk == SHOVE_TREE_NONE) {
        return;
    }
    NODE *n = &t->nodes[idx];
    const float half = n->cell_size * 0.5f;
    for (uint32_t b = 0; b < SHOVE_TREE_CHILDREN; ++b) {
        float child_min[SHOVE_DIM];
        for (int a = 0; a < SHOVE_DIM; ++a) {
            child_min[a] = ((b >> a) & 1u) ? n->cell_min[a] + half : n->cell_min[a];
        }
        SHOVE_IFN(tree_init_node)(&t->nodes[blk + b], child_min, half, idx, n->depth + 1u, n);
    }
    SHOVE_IFN(tree_sync_block)(t, blk);
    n->first_child = blk;
    /* Downward, so the entry that a removal moves into slot i (the last
     * one) was looked at already. */
    for (uint32_t i = n->count; i-- > 0;) {
        const shove_aabb box = SHOVE_IFN(tree_bucket_read)(n, i);
        const uint32_t c = blk + SHOVE_IFN(tree_child_bit)(n, box);
        NODE *child = &t->nodes[c];
        if (!SHOVE_IFN(tree_fits)(child, box, child->cell_size * SHOVE_TREE_FAT) ||
            !SHOVE_IFN(tree_bucket_reserve)(t, c, child->count + 1u)) {
            continue;
        }
        const uint32_t handle = SHOVE_IFN(tree_bucket_handles)(n)[i];
        SHOVE_IFN(tree_bucket_take)(t, idx, i);
        SHOVE_IFN(tree_bucket_push)(t, c, handle, box);
        child->subtree += 1u;
    }
    n->live = 0u;
    for (uint32_t b = 0; b < SHOVE_TREE_CHILDREN; ++b) {
        n->live |= (t->nodes[blk + b].subtree > 0u) ? 1u << b : 0u;
    }
    for (uint32_t b = 0; b < SHOVE_TREE_CHILDREN; ++b) {
        SHOVE_IFN(tree_maybe_split)(t, blk + b);
    }
}

static void SHOVE_IFN(tree_maybe_split)(TREE *t, uint32_t idx) {
    const NODE *n = &t->nodes[idx];
    if (idx == SHOVE_TREE_OUTSIDE || n->first_child != SHOVE_TREE_NONE ||
        n->count <= SHOVE_TREE_SPLIT || !SHOVE_IFN(tree_can_split)(t, n)) {
        return;
    }
    SHOVE_IFN(tree_split)(t, idx);
}

/* Take the children's entries back when the subtree got small. Returns
 * false when this node keeps its children (then its ancestors do too). */
static bool SHOVE_IFN(tree_try_merge)(TREE *t, uint32_t idx) {
    NODE *n = &t->nodes[idx];
    if (n->first_child == SHOVE_TREE_NONE) {
        return true;
    }
    if (n->subtree > SHOVE_TREE_MERGE) {
        return false;
    }
    for (uint32_t b = 0; b < SHOVE_TREE_CHILDREN; ++b) {
        if (t->nodes[n->first_child + b].first_child != SHOVE_TREE_NONE) {
            return false;
        }
    }
    if (!SHOVE_IFN(tree_bucket_reserve)(t, idx, n->subtree)) {
        return false;
    }
    const uint32_t first = n->first_child;
    for (uint32_t b = 0; b < SHOVE_TREE_CHILDREN; ++b) {
        NODE *child = &t->nodes[first + b];
        const uint32_t *handles = SHOVE_IFN(tree_bucket_handles)(child);
        for (uint32_t i = 0; i < child->count; ++i) {
            SHOVE_IFN(tree_bucket_push)(t, idx, handles[i], SHOVE_IFN(tree_bucket_read)(child, i));
        }
        child->count = 0;
        child->subtree = 0;
        if (child->bucket) {
            SHOVE_IFN(tree_bucket_give_block)(t, child->bucket, child->capacity);
            child->bucket = NULL;
            child->capacity = 0;
        }
    }
    n->first_child = SHOVE_TREE_NONE;
    n->live = 0u;
    SHOVE_IFN(tree_free_block)(t, first);
    return true;
}

static void SHOVE_IFN(tree_merge_up)(TREE *t, uint32_t idx) {
    if (idx == SHOVE_TREE_OUTSIDE) {
        return;
    }
    if (t->nodes[idx].first_child == SHOVE_TREE_NONE) {
        idx = t->nodes[idx].parent;
    }
    while (idx != SHOVE_TREE_NONE && SHOVE_IFN(tree_try_merge)(t, idx)) {
        idx = t->nodes[idx].parent;
    }
}

/* >>public-to-the-library ------------------------------------------------- */

shove_status SHOVE_IFN(tree_init)(TREE *t, shove_aabb bounds, shove_allocator alloc) {
    memset(t, 0, sizeof *t);
    t->alloc = alloc;
    t->free_blocks = SHOVE_TREE_NONE;
    float size = 0.0f;
    for (int a = 0; a < SHOVE_DIM; ++a) {
        const float s = bounds.max.raw[a] - bounds.min.raw[a];
        size = (s > size) ? s : size;
    }
    if (!(size > 0.0f) || !isfinite(size)) {
        size = 1.0f;
    }
    const uint32_t cap = 2u + 8u * SHOVE_TREE_CHILDREN;
    t->nodes = SHOVE_IFN(tree_realloc)(t, NULL, 0, cap * sizeof(NODE));
    if (!t->nodes) {
        return SHOVE_ERR_OUT_OF_MEMORY;
    }
    t->blocks =
        SHOVE_IFN(tree_realloc)(t, NULL, 0, SHOVE_IFN(tree_block_count)(cap) * sizeof *t->blocks);
    if (!t->blocks) {
        SHOVE_IFN(tree_realloc)(t, t->nodes, cap * sizeof(NODE), 0);
        t->nodes = NULL;
        return SHOVE_ERR_OUT_OF_MEMORY;
    }
    memset(t->nodes, 0, cap * sizeof(NODE));
    t->node_capacity = cap;
    t->node_count = 2;
    float cell_min[SHOVE_DIM];
    for (int a = 0; a < SHOVE_DIM; ++a) {
        cell_min[a] = bounds.min.raw[a];
    }
    SHOVE_IFN(tree_init_node)(&t->nodes[SHOVE_TREE_ROOT], cell_min, size, SHOVE_TREE_NONE, 0, NULL);
    NODE *out = &t->nodes[SHOVE_TREE_OUTSIDE];
    for (int a = 0; a < SHOVE_DIM; ++a) {
        cell_min[a] = 0.0f;
    }
    SHOVE_IFN(tree_init_node)(out, cell_min, 0.0f, SHOVE_TREE_NONE, 0, NULL);
    for (int a = 0; a < SHOVE_DIM; ++a) {
        out->lo[a] = -INFINITY;
        out->hi[a] = INFINITY;
    }
    t->min_cell = ldexpf(size, -SHOVE_TREE_SPLIT_LEVELS);
    return SHOVE_OK;
}

void SHOVE_IFN(tree_destroy)(TREE *t) {
    if (!t->nodes) {
        return;
    }
    for (uint32_t i = 0; i < t->node_count; ++i) {
        if (t->nodes[i].bucket) {
            SHOVE_IFN(tree_realloc)
            (t, t->nodes[i].bucket, SHOVE_IFN(tree_bucket_bytes)(t->nodes[i].capacity), 0);
        }
    }
    for (uint32_t c = 0; c < SHOVE_TREE_BUCKET_CLASSES; ++c) {
        while (t->bucket_pool[c]) {
            float *block = t->bucket_pool[c];
            memcpy(&t->bucket_pool[c], (void *)block, sizeof(float *));
            SHOVE_IFN(tree_realloc)(t, block, SHOVE_IFN(tree_bucket_bytes)(8u << c), 0);
        }
    }
    SHOVE_IFN(tree_realloc)(t, t->nodes, t->node_capacity * sizeof(NODE), 0);
    t->nodes = NULL;
    SHOVE_IFN(tree_realloc)
    (t, t->blocks, SHOVE_IFN(tree_block_count)(t->node_capacity) * sizeof *t->blocks, 0);
    t->blocks = NULL;
}

shove_status SHOVE_IFN(tree_insert)(TREE *t, uint32_t handle, shove_aabb box) {
    uint32_t target;
    const shove_status s = SHOVE_IFN(tree_place)(t, box, &target);
    if (s != SHOVE_OK) {
        return s;
    }
    if (!SHOVE_IFN(tree_bucket_reserve)(t, target, t->nodes[target].count + 1u)) {
        return SHOVE_ERR_OUT_OF_MEMORY;
    }
    SHOVE_IFN(tree_bucket_push)(t, target, handle, box);
    SHOVE_IFN(tree_add_subtree)(t, target, 1);
    SHOVE_IFN(tree_maybe_split)(t, target);
    return SHOVE_OK;
}

void SHOVE_IFN(tree_remove)(TREE *t, uint32_t handle) {
    const shove_tree_loc loc = t->loc[handle];
    SHOVE_IFN(tree_bucket_take)(t, loc.node, loc.pos);
    SHOVE_IFN(tree_add_subtree)(t, loc.node, -1);
    SHOVE_IFN(tree_merge_up)(t, loc.node);
}

shove_status SHOVE_IFN(tree_move)(TREE *t, uint32_t handle, shove_aabb box) {
    const shove_tree_loc loc = t->loc[handle];
    NODE *n = &t->nodes[loc.node];
    if (loc.node != SHOVE_TREE_OUTSIDE && SHOVE_IFN(tree_fits)(n, box, 0.0f)) {
        SHOVE_IFN(tree_bucket_write)(n, loc.pos, box);
        return SHOVE_OK;
    }
    uint32_t target;
    const shove_status s = SHOVE_IFN(tree_place)(t, box, &target);
    if (s != SHOVE_OK) {
        return s;
    }
    /* Placing may have grown the root, which moves the old root's entries
     * (this one among them) to another node: look again. */
    const shove_tree_loc at = t->loc[handle];
    if (target == at.node) {
        SHOVE_IFN(tree_bucket_write)(&t->nodes[target], at.pos, box);
        return SHOVE_OK;
    }
    if (!SHOVE_IFN(tree_bucket_reserve)(t, target, t->nodes[target].count + 1u)) {
        return SHOVE_ERR_OUT_OF_MEMORY;
    }
    SHOVE_IFN(tree_bucket_take)(t, at.node, at.pos);
    SHOVE_IFN(tree_add_subtree)(t, at.node, -1);
    SHOVE_IFN(tree_bucket_push)(t, target, handle, box);
    SHOVE_IFN(tree_add_subtree)(t, target, 1);
    /* A split only adds nodes and the merge cannot reach a node that just
     * split (its subtree is above the merge threshold), so neither
     * invalidates the other's node. */
    SHOVE_IFN(tree_maybe_split)(t, target);
    SHOVE_IFN(tree_merge_up)(t, at.node);
    return SHOVE_OK;
}

/* >>queries --------------------------------------------------------------- */

static inline bool SHOVE_IFN(tree_node_overlaps)(const NODE *n, shove_aabb box) {
    for (int a = 0; a < SHOVE_DIM; ++a) {
        if (!(n->lo[a] < box.max.raw[a] && box.min.raw[a] < n->hi[a])) {
            return false;
        }
    }
    return true;
}

/* Which of the lanes first .. first + 3 of a block overlap the query
 * strictly (bit k: lane first + k): the test of tree_node_overlaps on the
 * block's copy of the children's bounds. `qlo` / `qhi` hold the query's min
 * / max of every axis in all four lanes. */
static inline unsigned SHOVE_IFN(tree_lane_hits)(const SHOVE_T(tree_block_bounds) * bb,
                                                 uint32_t first, const shove__f4 qlo[SHOVE_DIM],
                                                 const shove__f4 qhi[SHOVE_DIM]) {
    shove__m4 in = shove__m4_and(shove__f4_lt(shove__f4_load(&bb->lo[0][first]), qhi[0]),
                                 shove__f4_lt(qlo[0], shove__f4_load(&bb->hi[0][first])));
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
        !SHOVE_IFN(tree_node_overlaps)(&nodes[SHOVE_TREE_ROOT], box)) {
        return;
    }
    shove__f4 qlo[SHOVE_DIM], qhi[SHOVE_DIM];
    for (int a = 0; a < SHOVE_DIM; ++a) {
        const float lo = box.min.raw[a], hi = box.max.raw[a];
        qlo[a] = shove__f4_splat(lo);
        qhi[a] = shove__f4_splat(hi);
    }
    /* Depth first, highest child first: a node's highest overlapping child
     * is walked next and the others wait on the stack in ascending order. */
    uint32_t stack[TREE_STACK];
    int sp = 0;
    uint32_t idx = SHOVE_TREE_ROOT;
    for (;;) {
        const NODE *n = &nodes[idx];
        if (n->count > 0) {
            /* tree_bucket_soa, for a bucket that exists */
            const size_t cap = n->capacity;
            shove_soa soa;
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
    } stack[TREE_STACK];
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
    uint32_t stack[TREE_STACK];
    int sp = 0;
    stack[sp++] = SHOVE_TREE_ROOT;
    while (sp > 0) {
        const NODE *n = &t->nodes[stack[--sp]];
        if (n->subtree == 0) {
            continue;
        }
        shove_aabb cell;
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

/* >>checking -------------------------------------------------------------- */

static long SHOVE_IFN(tree_check_fail)(const char *what, uint32_t node) {
    fprintf(stderr, "tree check: %s (node %u)\n", what, node);
    return -1;
}

long SHOVE_IFN(tree_check)(const TREE *t) {
    long total = 0;
    uint32_t stack[TREE_STACK];
    int sp = 0;
    stack[sp++] = SHOVE_TREE_OUTSIDE;
    stack[sp++] = SHOVE_TREE_ROOT;
    while (sp > 0) {
        const uint32_t idx = stack[--sp];
        const NODE *n = &t->nodes[idx];
        if (n->count > n->capacity) {
            return SHOVE_IFN(tree_check_fail)("count above capacity", idx);
        }
        if (n->depth >= (uint32_t)SHOVE_TREE_MAX_DEPTH) {
            return SHOVE_IFN(tree_check_fail)("too deep", idx);
        }
        const uint32_t *handles = SHOVE_IFN(tree_bucket_handles)(n);
        for (uint32_t i = 0; i < n->count; ++i) {
            const shove_tree_loc loc = t->loc[handles[i]];
            if (loc.node != idx || loc.pos != i) {
                return SHOVE_IFN(tree_check_fail)("location table disagrees", idx);
            }
            if (!SHOVE_IFN(tree_fits)(n, SHOVE_IFN(tree_bucket_read)(n, i), 0.0f)) {
                return SHOVE_IFN(tree_check_fail)("box outside loose bounds", idx);
            }
        }
        uint32_t sum = n->count;
        if (n->first_child != SHOVE_TREE_NONE) {
            if (idx == SHOVE_TREE_OUTSIDE) {
                return SHOVE_IFN(tree_check_fail)("outside bucket with children", idx);
            }
            for (uint32_t b = 0; b < SHOVE_TREE_CHILDREN; ++b) {
                const uint32_t c = n->first_child + b;
                const NODE *child = &t->nodes[c];
                if (child->parent != idx || child->depth != n->depth + 1u) {
                    return SHOVE_IFN(tree_check_fail)("child links", c);
                }
                const SHOVE_T(tree_block_bounds) *bb =
                    &t->blocks[(n->first_child - 2u) / SHOVE_TREE_CHILDREN];
                for (int a = 0; a < SHOVE_DIM; ++a) {
                    if (child->lo[a] < n->lo[a] || child->hi[a] > n->hi[a]) {
                        return SHOVE_IFN(tree_check_fail)("child loose bounds leave parent's", c);
                    }
                    if (bb->lo[a][SHOVE_IFN(tree_lane)(b)] != child->lo[a] ||
                        bb->hi[a][SHOVE_IFN(tree_lane)(b)] != child->hi[a]) {
                        return SHOVE_IFN(tree_check_fail)("block bounds out of date", c);
                    }
                }
                sum += child->subtree;
                if (((n->live >> b) & 1u) != (child->subtree > 0u ? 1u : 0u)) {
                    return SHOVE_IFN(tree_check_fail)("live mask", idx);
                }
                stack[sp++] = c;
            }
        }
        if (n->first_child == SHOVE_TREE_NONE && n->live != 0u) {
            return SHOVE_IFN(tree_check_fail)("live mask of a leaf", idx);
        }
        if (sum != n->subtree) {
            return SHOVE_IFN(tree_check_fail)("subtree count", idx);
        }
        total += n->count;
    }
    return total;
}

#undef TREE
#undef NODE
#undef TREE_KERNEL_SWEEP
#undef TREE_KERNEL_OVERLAP
#undef TREE_STACK
