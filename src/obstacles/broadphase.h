/*
 * broadphase.h: the loose quadtree (2D) / octree (3D) of a world. Include
 * after dim.h. Internal: callers pass valid boxes and handles.
 *
 * Space is cut into square (cubic) cells. A node owns one cell; its 2^DIM
 * children own the halves of that cell on every axis. A node's loose bounds
 * are its cell grown by SHOVE_TREE_LOOSE * cell size on every side (1.5
 * times the cell), so the loose bounds of neighbours overlap and a box near
 * a cell border still fits in one node.
 *
 * Each node keeps a bucket of entries: boxes stored as struct of arrays (the
 * layout the batch kernels scan) and a 32-bit handle per box (the world
 * passes body slots). A box lives in the deepest existing node whose loose
 * bounds contain its "fat box", the box grown by SHOVE_TREE_FAT * the node's
 * cell size. Afterwards it stays there while the box itself stays inside the
 * node's loose bounds, so a small move only rewrites the box in its bucket;
 * only a box that leaves its node's loose bounds is taken out and put back.
 *
 * A leaf whose bucket holds more than SHOVE_TREE_SPLIT entries splits: it
 * gets children and every entry whose fat box fits a child moves down. A
 * node whose subtree falls to SHOVE_TREE_MERGE entries takes its children's
 * entries back. Many boxes with the same centre cannot push the tree deeper
 * than their size allows (a box only moves down into a child whose loose
 * bounds hold it), and cells never split below a minimum size, so identical
 * boxes end up sharing one overfull bucket instead of a chain of nodes.
 *
 * A box placed outside the root's cell makes the root grow: the old root
 * becomes a child of a root twice its size, in the direction of the box,
 * until the box lies in the root's cell. (The root's loose bounds are not
 * enough: no child's cell covers the root's loose margin, so a box placed
 * there would stay in the root's bucket, which every query scans; bounds
 * given to the world are a hint, and bodies past them cost no more than
 * with exact bounds.) Past SHOVE_TREE_MAX_GROWTH doublings (absurd
 * coordinates), a box that does not fit the root's loose bounds goes to the
 * outside bucket, which every query scans.
 *
 * Queries prune with a second, tighter box per node, its query bounds:
 * they hold every box of the node's subtree (the loose bounds of a node
 * whose entries sit near one corner of its cell reach far past them, and a
 * query there would visit its whole subtree). They grow when a box comes
 * into the subtree or moves in it, never shrink when one leaves, and are
 * made exact again (tree_count_edit) after as many changes as the tree has
 * entries, twice over. A walk pruned by them meets the same boxes in the
 * same order as one pruned by the loose bounds: it only skips subtrees with
 * nothing to give.
 *
 * Invariants (tree_check verifies them in tests): every entry's box lies in
 * its node's loose bounds and in the query bounds of its node and of every
 * ancestor; a child's loose bounds lie in its parent's; every
 * node's subtree count is its bucket count plus its children's subtree
 * counts; the block bounds of a node's children equal their query bounds;
 * bit k of a node's live mask is set exactly when its child k has entries
 * in its subtree; loc[handle] names the node and position of the handle's
 * entry.
 */
#if (SHOVE_DIM == 2 && !defined(SHOVE_BROADPHASE2_H)) ||                                           \
    (SHOVE_DIM == 3 && !defined(SHOVE_BROADPHASE3_H))
#if SHOVE_DIM == 2
#define SHOVE_BROADPHASE2_H
#else
#define SHOVE_BROADPHASE3_H
#endif

#include "geometry/geometry.h"

#ifndef SHOVE_TREE_COMMON_
#define SHOVE_TREE_COMMON_

/** "No node" / "no entry". */
#define SHOVE_TREE_NONE UINT32_MAX
/** Node 0 is the root, node 1 the outside bucket; child blocks follow. */
#define SHOVE_TREE_ROOT    0u
#define SHOVE_TREE_OUTSIDE 1u

/* The four numbers below were tuned with bench/bench_broadphase.c: a bucket
 * is scanned by the batch kernels (8 boxes per AVX2 step), so scanning a few
 * dozen boxes costs less than visiting more, smaller nodes; tighter loose
 * bounds mean fewer nodes per query, at the price of boxes staying higher in
 * the tree and of more reinsertions as they move. */

/** A leaf splits when its bucket holds more entries than this. */
#define SHOVE_TREE_SPLIT 64u
/** A node takes its children's entries back when its subtree holds this
 *  many or fewer (well below SHOVE_TREE_SPLIT, so a box moving back and
 *  forth across a border cannot make a node split and merge every time). */
#define SHOVE_TREE_MERGE 16u
/** Loose bounds: the cell grown by this fraction of its size on each side. */
#define SHOVE_TREE_LOOSE 0.25f
/** Fat box: a box is placed in a node only if, grown by this fraction of
 *  the node's cell size, it still fits the node's loose bounds. That slack
 *  is how far it can move before it has to be put back. */
#define SHOVE_TREE_FAT 0.0625f
/** Cells are never split below root size / 2^this. */
#define SHOVE_TREE_SPLIT_LEVELS 20
/** How many times the root may double before boxes go to the outside
 *  bucket. With SHOVE_TREE_SPLIT_LEVELS it bounds the depth of the tree. */
#define SHOVE_TREE_MAX_GROWTH 40
/** Deepest possible node, and the traversal stacks it implies. */
#define SHOVE_TREE_MAX_DEPTH (SHOVE_TREE_SPLIT_LEVELS + SHOVE_TREE_MAX_GROWTH + 2)

/** Bucket capacities are 8 << class, class < this. */
#define SHOVE_TREE_BUCKET_CLASSES 27

/** Children of a node (expands with the dimension of the template in use). */
#define SHOVE_TREE_CHILDREN (1u << SHOVE_DIM)

/** Deepest traversal stack: every level adds at most 2^DIM - 1 entries. */
#define SHOVE_TREE_STACK (SHOVE_TREE_MAX_DEPTH * (SHOVE_TREE_CHILDREN - 1) + 2)

/** Where a handle's entry is: node index and position in its bucket. */
typedef struct shove_tree_loc {
    uint32_t node;
    uint32_t pos;
} shove_tree_loc;

#endif

typedef struct SHOVE_T(tree_node) {
    /* What queries read, first (one cache line in 3D). */
    shove_aabb query;     /**< query bounds (see the top); empty: +inf .. -inf */
    uint32_t first_child; /**< children are first_child .. + 2^DIM - 1; NONE for a leaf */
    uint32_t count;       /**< entries in this node's bucket */
    uint32_t subtree;     /**< entries in this node and below */
    uint32_t capacity;    /**< room in the bucket */
    uint32_t live;        /**< bit k: child k has entries in its subtree */
    /** One block: min[DIM][capacity], max[DIM][capacity], uint32 handle[capacity]. */
    float *bucket;
    /* What placement reads (and casts, which walk nearest first). */
    float lo[SHOVE_DIM];       /**< loose bounds */
    float hi[SHOVE_DIM];       /**< loose bounds */
    float cell_min[SHOVE_DIM]; /**< the cell: cell_min .. cell_min + cell_size */
    float cell_size;
    uint32_t parent; /**< NONE for the root and the outside bucket */
    uint32_t depth;  /**< root = 0 (grows by one for everyone when the root grows) */
} SHOVE_T(tree_node);

/** The query bounds of the 2^DIM children of one block, side by side (a
 *  copy of theirs), so a query tests all of them in one pass over a few
 *  cache lines instead of reading 2^DIM nodes. Block k holds nodes
 *  2 + k * 2^DIM ...; every block that is some node's children is current.
 *  Lanes are in the order of tree_lane (tree_storage.c): in 3D the children
 *  in the lower half of the cell on y first. */
typedef struct SHOVE_T(tree_block_bounds) {
    float lo[SHOVE_DIM][SHOVE_TREE_CHILDREN];
    float hi[SHOVE_DIM][SHOVE_TREE_CHILDREN];
} SHOVE_T(tree_block_bounds);

typedef struct SHOVE_T(tree) {
    SHOVE_T(tree_node) * nodes;
    SHOVE_T(tree_block_bounds) * blocks; /**< (node_capacity - 2) / 2^DIM of them */
    uint32_t node_count;                 /**< nodes in use or on the free list */
    uint32_t node_capacity;              /**< room in `nodes` */
    uint32_t free_blocks;                /**< first free child block, linked through first_child */
    uint32_t growths;                    /**< how many times the root doubled */
    uint32_t edits;                      /**< changes since the query bounds were made exact */
    float min_cell;                      /**< cells this small are not split */
    shove_tree_loc *loc;                 /**< per handle; owned by the caller (see tree_set_loc) */
    shove_allocator alloc;               /**< never all-zero here: the world fills in the default */
    /** Unused bucket blocks by size class, linked through their first bytes.
     *  Buckets that grow or empty out come here and are handed to the next
     *  bucket of that size, so a tree whose shape keeps changing (splits and
     *  merges as bodies move) stops allocating once every size has enough. */
    float *bucket_pool[SHOVE_TREE_BUCKET_CLASSES];
} SHOVE_T(tree);

/** Bucket of a node as the batch kernels see it. */
static inline shove_soa SHOVE_IFN(tree_bucket_soa)(const SHOVE_T(tree_node) * n) {
    shove_soa s;
    /* A node without a bucket has none of its arrays (pointer arithmetic on
     * NULL is undefined even with a zero offset). */
    for (int a = 0; a < SHOVE_DIM; ++a) {
        s.min[a] = n->bucket ? n->bucket + (size_t)a * n->capacity : NULL;
        s.max[a] = n->bucket ? n->bucket + (size_t)(SHOVE_DIM + a) * n->capacity : NULL;
    }
    s.count = n->count;
    return s;
}

/** Handles of a node's bucket, parallel to its boxes. */
static inline uint32_t *SHOVE_IFN(tree_bucket_handles)(const SHOVE_T(tree_node) * n) {
    return n->bucket ? (uint32_t *)(void *)(n->bucket + (size_t)2 * SHOVE_DIM * n->capacity) : NULL;
}

/** Loose bounds of a node as a box. */
static inline shove_aabb SHOVE_IFN(tree_node_bounds)(const SHOVE_T(tree_node) * n) {
    shove_aabb b;
    for (int a = 0; a < SHOVE_DIM; ++a) {
        b.min.raw[a] = n->lo[a];
        b.max.raw[a] = n->hi[a];
    }
    return b;
}

/** Empty tree whose root cell is the cube (square) at bounds.min with the
 *  largest side of `bounds`. `loc` may be NULL until the first insert. */
shove_status SHOVE_IFN(tree_init)(SHOVE_T(tree) * t, shove_aabb bounds, shove_allocator alloc);

/** Free everything the tree allocated. */
void SHOVE_IFN(tree_destroy)(SHOVE_T(tree) * t);

/** Per-handle locations, indexed by handle; the caller owns and grows the
 *  array and calls this after every reallocation. */
static inline void SHOVE_IFN(tree_set_loc)(SHOVE_T(tree) * t, shove_tree_loc *loc) {
    t->loc = loc;
}

/** Add an entry. SHOVE_ERR_OUT_OF_MEMORY leaves the tree as it was (apart
 *  from a root that may have grown, which changes no answer). */
shove_status SHOVE_IFN(tree_insert)(SHOVE_T(tree) * t, uint32_t handle, shove_aabb box);

/** Remove an entry. Cannot fail: merging children back may need a bigger
 *  bucket, and when that memory is not there the merge is skipped. */
void SHOVE_IFN(tree_remove)(SHOVE_T(tree) * t, uint32_t handle);

/** Change an entry's box: in place while it stays in its node's loose
 *  bounds, else taken out and put back. On SHOVE_ERR_OUT_OF_MEMORY the entry
 *  keeps its old box and place. */
shove_status SHOVE_IFN(tree_move)(SHOVE_T(tree) * t, uint32_t handle, shove_aabb box);

/** Called for every non-empty bucket whose node's query bounds (and those
 *  of its ancestors) overlap the query strictly, in a fixed order of the
 *  nodes (depth first, highest child first). Return false to stop the walk. */
typedef bool (*SHOVE_T(tree_visit_fn))(void *ctx, const shove_soa *boxes, const uint32_t *handles);

/** Visit every bucket that may hold a box overlapping `box` strictly. */
void SHOVE_IFN(tree_query)(const SHOVE_T(tree) * t, shove_aabb box, SHOVE_T(tree_visit_fn) visit,
                           void *ctx);

/** Filter of a cast: true when the entry may be hit. */
typedef bool (*SHOVE_T(tree_accept_fn))(void *ctx, uint32_t handle);

/** Best hit of a cast so far. Start with found = false (or with a hit found
 *  elsewhere, to prune with its t). */
typedef struct SHOVE_T(tree_cast_result) {
    bool found;
    uint32_t handle;
    shove_hit hit; /**< hit.other is not set */
    float t;       /**< hit.t */
} SHOVE_T(tree_cast_result);

/** Earliest hit of `box` swept by `delta` among accepted entries, walking
 *  only the nodes whose loose bounds the swept box enters, nearest first,
 *  and skipping those entered later than the best hit so far. Improves
 *  `*best` (an earlier t; ties keep the hit found first). `accept` may be
 *  NULL (accept all). */
void SHOVE_IFN(tree_cast)(const SHOVE_T(tree) * t, shove_aabb box, shove_vec delta,
                          SHOVE_T(tree_accept_fn) accept, void *ctx,
                          SHOVE_T(tree_cast_result) * best);

/** Called for every node with entries in its subtree (debug drawing):
 *  its loose bounds, its cell, its depth, and how many entries it holds. */
typedef void (*SHOVE_T(tree_node_fn))(void *ctx, shove_aabb loose, shove_aabb cell, uint32_t depth,
                                      uint32_t count);
void SHOVE_IFN(tree_each_node)(const SHOVE_T(tree) * t, SHOVE_T(tree_node_fn) fn, void *ctx);

/** Check every invariant listed at the top; returns the number of entries,
 *  or -1 (with a message on stderr) when one is broken. For tests. */
long SHOVE_IFN(tree_check)(const SHOVE_T(tree) * t);

#endif
