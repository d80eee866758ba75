/*
 * tree_build.c: the shape of the loose quadtree / octree as boxes come, move
 * and go: where a box is placed, the root growing toward far boxes, leaves
 * splitting and subtrees merging back; and the tree's init, destroy,
 * insert, remove and move. Template: see dim.h; how the tree works is
 * described in broadphase.h; its storage is tree_storage.c.
 */
#include <math.h>
#include <string.h>

#include "obstacles/broadphase.h"

#define TREE SHOVE_T(tree)
#define NODE SHOVE_T(tree_node)

/* >>placement ------------------------------------------------------------- */

/* True when `box` grown by `margin` lies inside the node's loose bounds
 * (margin 0: the box itself; rounding of the grown box only makes the test
 * stricter, so a fat fit always implies a plain fit). */
static inline bool SHOVE_IFN(tree_fits)(const NODE *n, shove_aabb box, float margin) {
    SHOVE_AXES_UNROLLED
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
    SHOVE_AXES_UNROLLED
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
    SHOVE_AXES_UNROLLED
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
    uint32_t stack[SHOVE_TREE_STACK];
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
    SHOVE_AXES_UNROLLED
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
    SHOVE_AXES_UNROLLED
    for (int a = 0; a < SHOVE_DIM; ++a) {
        /* the new loose bounds hold the old ones with a margin of half the
         * old size; the union guards against rounding anyway */
        nr->lo[a] = (nodes[moved].lo[a] < nr->lo[a]) ? nodes[moved].lo[a] : nr->lo[a];
        nr->hi[a] = (nodes[moved].hi[a] > nr->hi[a]) ? nodes[moved].hi[a] : nr->hi[a];
    }
    nr->query = nodes[moved].query; /* it holds what the old root held */
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
        SHOVE_AXES_UNROLLED
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
    SHOVE_AXES_UNROLLED
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
        SHOVE_AXES_UNROLLED
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
    SHOVE_AXES_UNROLLED
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
    SHOVE_AXES_UNROLLED
    for (int a = 0; a < SHOVE_DIM; ++a) {
        cell_min[a] = bounds.min.raw[a];
    }
    SHOVE_IFN(tree_init_node)(&t->nodes[SHOVE_TREE_ROOT], cell_min, size, SHOVE_TREE_NONE, 0, NULL);
    NODE *out = &t->nodes[SHOVE_TREE_OUTSIDE];
    SHOVE_AXES_UNROLLED
    for (int a = 0; a < SHOVE_DIM; ++a) {
        cell_min[a] = 0.0f;
    }
    SHOVE_IFN(tree_init_node)(out, cell_min, 0.0f, SHOVE_TREE_NONE, 0, NULL);
    SHOVE_AXES_UNROLLED
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
    SHOVE_IFN(tree_count_edit)(t);
    return SHOVE_OK;
}

void SHOVE_IFN(tree_remove)(TREE *t, uint32_t handle) {
    const shove_tree_loc loc = t->loc[handle];
    SHOVE_IFN(tree_bucket_take)(t, loc.node, loc.pos);
    SHOVE_IFN(tree_add_subtree)(t, loc.node, -1);
    SHOVE_IFN(tree_merge_up)(t, loc.node);
    SHOVE_IFN(tree_count_edit)(t);
}

shove_status SHOVE_IFN(tree_move)(TREE *t, uint32_t handle, shove_aabb box) {
    const shove_tree_loc loc = t->loc[handle];
    NODE *n = &t->nodes[loc.node];
    if (loc.node != SHOVE_TREE_OUTSIDE) {
        /* Inside the node's query bounds (which lie in its loose bounds):
         * the common small move, read from the node's first cache line. */
        if (SHOVE_IFN(contains_unchecked)(n->query, box)) {
            SHOVE_IFN(tree_bucket_write)(n, loc.pos, box);
            SHOVE_IFN(tree_count_edit)(t);
            return SHOVE_OK;
        }
        if (SHOVE_IFN(tree_fits)(n, box, 0.0f)) {
            SHOVE_IFN(tree_bucket_rewrite)(t, loc.node, loc.pos, box);
            SHOVE_IFN(tree_count_edit)(t);
            return SHOVE_OK;
        }
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
        SHOVE_IFN(tree_bucket_rewrite)(t, target, at.pos, box);
        SHOVE_IFN(tree_count_edit)(t);
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
    SHOVE_IFN(tree_count_edit)(t);
    return SHOVE_OK;
}

#undef TREE
#undef NODE
