/*
 * tree_check.c: tree_check, which verifies every invariant of the loose
 * quadtree / octree (listed in broadphase.h) for the tests. Template: see
 * dim.h.
 */
#include <stdio.h>

#include "obstacles/broadphase.h"

#define TREE SHOVE_T(tree)
#define NODE SHOVE_T(tree_node)

/* >>checking -------------------------------------------------------------- */

static long SHOVE_IFN(tree_check_fail)(const char *what, uint32_t node) {
    fprintf(stderr, "tree check: %s (node %u)\n", what, node);
    return -1;
}

long SHOVE_IFN(tree_check)(const TREE *t) {
    long total = 0;
    uint32_t stack[SHOVE_TREE_STACK];
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
            const shove_aabb box = SHOVE_IFN(tree_bucket_read)(n, i);
            if (!SHOVE_IFN(tree_fits)(n, box, 0.0f)) {
                return SHOVE_IFN(tree_check_fail)("box outside loose bounds", idx);
            }
            if (idx != SHOVE_TREE_OUTSIDE && !SHOVE_IFN(contains_unchecked)(n->query, box)) {
                return SHOVE_IFN(tree_check_fail)("box outside query bounds", idx);
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
                    if (bb->lo[a][SHOVE_IFN(tree_lane)(b)] != child->query.min.raw[a] ||
                        bb->hi[a][SHOVE_IFN(tree_lane)(b)] != child->query.max.raw[a]) {
                        return SHOVE_IFN(tree_check_fail)("block bounds out of date", c);
                    }
                }
                /* nested for every child, empty subtrees too: a box that
                 * arrives widens a node's ancestors only up to the first that
                 * holds it, which is right only if the ones above hold it too */
                bool child_empty = false;
                for (int a = 0; a < SHOVE_DIM; ++a) {
                    child_empty = child_empty || child->query.min.raw[a] > child->query.max.raw[a];
                }
                if (!child_empty && !SHOVE_IFN(contains_unchecked)(n->query, child->query)) {
                    return SHOVE_IFN(tree_check_fail)("child query bounds leave parent's", c);
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
