/*
 * bump_grid.c: shove{2,3}_bump_grid, a uniform grid of bump rects for the
 * LuaJIT modules lua/shove/bump.lua and bump3d.lua. bump.lua keeps its
 * items in square cells of cellSize, and a move of bump's typical size (a
 * mover smaller than a cell, a fraction of a cell per frame) reads a handful
 * of cells; the grid does the same in C, in doubles, and runs bump's whole
 * move with the default filter (the queries, the slide loop and the update
 * of the rect) in one call, so that nothing crosses back into Lua on the
 * way. Its cells and their arithmetic are in bump_cells.c.
 */
#include <math.h>
#include <string.h>

shove_status SHOVE_FN(bump_grid_create)(double cell_size, const shove_allocator *allocator,
                                        SHOVE_T(bump_grid) * *out) {
    if (!out || !isfinite(cell_size) || !(cell_size > 0.0) || !isfinite(1.0 / cell_size)) {
        return SHOVE_ERR_INVALID_ARGUMENT;
    }
    shove_allocator alloc = {0};
    if (allocator) {
        alloc = *allocator;
    }
    if (!alloc.realloc) {
        alloc.realloc = shove__default_realloc;
    }
    SHOVE_T(bump_grid) *g = alloc.realloc(alloc.ctx, NULL, 0, sizeof *g);
    if (!g) {
        return SHOVE_ERR_OUT_OF_MEMORY;
    }
    memset(g, 0, sizeof *g);
    g->alloc = alloc;
    g->cell_size = cell_size;
    g->per_cell = 1.0 / cell_size;
    *out = g;
    return SHOVE_OK;
}

/* The per-index arrays (`capacity` entries each), their entry sizes, and
 * the grid with new ones in their place. */
#define SHOVE_BUMP_INDEX_ARRAYS 4
static void SHOVE_IFN(bump_index_arrays)(const SHOVE_T(bump_grid) * g,
                                         void *arrays[SHOVE_BUMP_INDEX_ARRAYS],
                                         size_t sizes[SHOVE_BUMP_INDEX_ARRAYS]) {
    arrays[0] = g->rects;
    sizes[0] = sizeof *g->rects;
    arrays[1] = g->range;
    sizes[1] = 2u * SHOVE_DIM * sizeof *g->range;
    arrays[2] = g->free_list;
    sizes[2] = sizeof *g->free_list;
    arrays[3] = g->live;
    sizes[3] = sizeof *g->live;
}

static void SHOVE_IFN(bump_set_index_arrays)(SHOVE_T(bump_grid) * g,
                                             void *const arrays[SHOVE_BUMP_INDEX_ARRAYS]) {
    g->rects = arrays[0];
    g->range = arrays[1];
    g->free_list = arrays[2];
    g->live = arrays[3];
}

void SHOVE_FN(bump_grid_destroy)(SHOVE_T(bump_grid) * g) {
    if (!g) {
        return;
    }
    for (uint32_t i = 0; i < g->cell_capacity; ++i) {
        SHOVE_IFN(bump_free_cell)(g, &g->cells[i]);
    }
    SHOVE_IFN(bump_realloc)(g, g->cells, (size_t)g->cell_capacity * sizeof *g->cells, 0);
    for (uint32_t i = 0; i < g->window_cells; ++i) {
        SHOVE_IFN(bump_free_cell)(g, &g->window[i]);
    }
    SHOVE_IFN(bump_realloc)(g, g->window, (size_t)g->window_cells * sizeof *g->window, 0);
    SHOVE_IFN(bump_realloc)(g, g->wide, (size_t)g->wide_capacity * sizeof *g->wide, 0);
    void *arrays[SHOVE_BUMP_INDEX_ARRAYS];
    size_t sizes[SHOVE_BUMP_INDEX_ARRAYS];
    SHOVE_IFN(bump_index_arrays)(g, arrays, sizes);
    for (int a = 0; a < SHOVE_BUMP_INDEX_ARRAYS; ++a) {
        SHOVE_IFN(bump_realloc)(g, arrays[a], (size_t)g->capacity * sizes[a], 0);
    }
    const shove_allocator alloc = g->alloc;
    alloc.realloc(alloc.ctx, g, sizeof *g, 0);
}

/* Room in the per-index arrays for one more index: all of them move to
 * new blocks, or none (the old ones stay when one allocation fails). */
static bool SHOVE_IFN(bump_room_for_index)(SHOVE_T(bump_grid) * g) {
    if (g->free_count > 0u || g->next < g->capacity) {
        return true;
    }
    if (g->capacity >= UINT32_MAX / 4u) {
        return false;
    }
    const uint32_t cap = g->capacity ? g->capacity * 2u : 64u;
    void *arrays[SHOVE_BUMP_INDEX_ARRAYS], *grown[SHOVE_BUMP_INDEX_ARRAYS];
    size_t sizes[SHOVE_BUMP_INDEX_ARRAYS];
    SHOVE_IFN(bump_index_arrays)(g, arrays, sizes);
    for (int a = 0; a < SHOVE_BUMP_INDEX_ARRAYS; ++a) {
        grown[a] = SHOVE_IFN(bump_realloc)(g, NULL, 0, (size_t)cap * sizes[a]);
        if (!grown[a]) {
            while (a-- > 0) {
                SHOVE_IFN(bump_realloc)(g, grown[a], (size_t)cap * sizes[a], 0);
            }
            return false;
        }
    }
    for (int a = 0; a < SHOVE_BUMP_INDEX_ARRAYS; ++a) {
        if (g->capacity > 0u) {
            memcpy(grown[a], arrays[a], (size_t)g->capacity * sizes[a]);
        }
        SHOVE_IFN(bump_realloc)(g, arrays[a], (size_t)g->capacity * sizes[a], 0);
    }
    SHOVE_IFN(bump_set_index_arrays)(g, grown);
    g->capacity = cap;
    return true;
}

shove_status SHOVE_FN(bump_grid_add)(SHOVE_T(bump_grid) * g, const SHOVE_T(bump_rect) * rect,
                                     uint32_t *index) {
    if (!g || !rect || !index || !SHOVE_IFN(bump_rect_ok)(rect)) {
        return SHOVE_ERR_INVALID_ARGUMENT;
    }
    int32_t range[2 * SHOVE_DIM];
    SHOVE_IFN(bump_item_range)(g, rect, range);
    const double cells = SHOVE_IFN(bump_range_cells)(range);
    SHOVE_IFN(bump_cell) * slots[SHOVE_BUMP_GRID_ITEM_CELLS];
    uint32_t slot_count = 0;
    if (!SHOVE_IFN(bump_room_for_index)(g) ||
        !SHOVE_IFN(bump_reserve)(g, range, cells, NULL, slots, &slot_count)) {
        return SHOVE_ERR_OUT_OF_MEMORY;
    }
    const uint32_t i = g->free_count > 0u ? g->free_list[--g->free_count] : g->next++;
    g->rects[i] = *rect;
    memcpy(&g->range[(size_t)i * 2u * SHOVE_DIM], range, sizeof range);
    g->live[i] = cells > SHOVE_BUMP_GRID_ITEM_CELLS ? SHOVE_BUMP_WIDE : SHOVE_BUMP_IN_CELLS;
    SHOVE_IFN(bump_link)(g, i, slots, slot_count);
    g->count += 1u;
    *index = i;
    return SHOVE_OK;
}

/* Whether bump_item_range of `rect` is `kept`, without working the range
 * out: a cell is the floor of a clamped product, and the floor of c is k
 * exactly when k <= c < k + 1. The high cell is the low one or above. */
static inline bool SHOVE_IFN(bump_same_range)(const SHOVE_T(bump_grid) * g,
                                              const SHOVE_T(bump_rect) * rect,
                                              const int32_t kept[2 * SHOVE_DIM]) {
    bool same = true;
    SHOVE_AXES_UNROLLED
    for (int a = 0; a < SHOVE_DIM; ++a) {
        const double low = SHOVE_IFN(bump_clamped_cell)(rect->min[a], g->per_cell);
        const double high = SHOVE_IFN(bump_clamped_cell)(
            SHOVE_IFN(bump_below)(rect->min[a] + rect->size[a]), g->per_cell);
        const double kept_low = (double)kept[a], kept_high = (double)kept[SHOVE_DIM + a];
        same &= (low >= kept_low) & (low < kept_low + 1.0) & (high < kept_high + 1.0) &
                ((kept_high == kept_low) | (high >= kept_high));
    }
    return same;
}

/* Moves item i (live) to a valid rect in other cells (bump_set has told
 * them apart) and files it there. Only the cells that change are touched
 * when it stays in cells; an item that becomes wide, or stops being, leaves
 * all of its old place for all of its new one. */
static shove_status SHOVE_IFN(bump_refile)(SHOVE_T(bump_grid) * g, uint32_t i,
                                           const SHOVE_T(bump_rect) * rect) {
    int32_t range[2 * SHOVE_DIM];
    SHOVE_IFN(bump_item_range)(g, rect, range);
    int32_t *kept = &g->range[(size_t)i * 2u * SHOVE_DIM];
    const double cells = SHOVE_IFN(bump_range_cells)(range);
    const uint8_t live = cells > SHOVE_BUMP_GRID_ITEM_CELLS ? SHOVE_BUMP_WIDE : SHOVE_BUMP_IN_CELLS;
    const bool in_cells = live == SHOVE_BUMP_IN_CELLS && g->live[i] == SHOVE_BUMP_IN_CELLS;
    int32_t old[2 * SHOVE_DIM];
    memcpy(old, kept, sizeof old);
    SHOVE_IFN(bump_cell) * slots[SHOVE_BUMP_GRID_ITEM_CELLS];
    uint32_t slot_count = 0;
    if (!SHOVE_IFN(bump_reserve)(g, range, cells, in_cells ? old : NULL, slots, &slot_count)) {
        return SHOVE_ERR_OUT_OF_MEMORY;
    }
    SHOVE_IFN(bump_unlink)(g, i, in_cells ? range : NULL);
    memcpy(kept, range, sizeof range);
    g->live[i] = live;
    SHOVE_IFN(bump_link)(g, i, slots, slot_count);
    g->rects[i] = *rect;
    return SHOVE_OK;
}

/* Moves item i (live) to a valid rect. */
static shove_status SHOVE_IFN(bump_set)(SHOVE_T(bump_grid) * g, uint32_t i,
                                        const SHOVE_T(bump_rect) * rect) {
    if (SHOVE_IFN(bump_same_range)(g, rect, &g->range[(size_t)i * 2u * SHOVE_DIM])) {
        /* the same cells (the usual small step) */
        g->rects[i] = *rect;
        return SHOVE_OK;
    }
    return SHOVE_IFN(bump_refile)(g, i, rect);
}

shove_status SHOVE_FN(bump_grid_update)(SHOVE_T(bump_grid) * g, uint32_t index,
                                        const SHOVE_T(bump_rect) * rect) {
    if (!g || !rect || !SHOVE_IFN(bump_live)(g, index) || !SHOVE_IFN(bump_rect_ok)(rect)) {
        return SHOVE_ERR_INVALID_ARGUMENT;
    }
    return SHOVE_IFN(bump_set)(g, index, rect);
}

shove_status SHOVE_FN(bump_grid_remove)(SHOVE_T(bump_grid) * g, uint32_t index) {
    if (!g || !SHOVE_IFN(bump_live)(g, index)) {
        return SHOVE_ERR_INVALID_ARGUMENT;
    }
    SHOVE_IFN(bump_unlink)(g, index, NULL);
    g->live[index] = SHOVE_BUMP_FREE;
    g->free_list[g->free_count++] = index;
    g->count -= 1u;
    return SHOVE_OK;
}

uint32_t SHOVE_FN(bump_grid_count)(const SHOVE_T(bump_grid) * g) {
    return g ? g->count : 0u;
}

const SHOVE_T(bump_rect) * SHOVE_FN(bump_grid_rects)(const SHOVE_T(bump_grid) * g) {
    return g ? g->rects : NULL;
}

/* Whether two grown boxes meet (closed). Every comparison is made: which
 * of a query's candidates meet it is chance to a branch predictor, and a
 * mispredicted branch costs more than the comparisons. */
static inline bool SHOVE_IFN(bump_meets)(const double *a, const double *b) {
    bool meets = true;
    SHOVE_AXES_UNROLLED
    for (int i = 0; i < SHOVE_DIM; ++i) {
        meets &= (a[i] <= b[SHOVE_DIM + i]) & (b[i] <= a[SHOVE_DIM + i]);
    }
    return meets;
}

/* Whether item i's grown box meets `grown`. The item's box is grown here
 * from its rect, as every other grown box is, rather than read from a copy:
 * the rect is read next anyway. */
static inline bool SHOVE_IFN(bump_item_meets)(const SHOVE_T(bump_grid) * g, uint32_t i,
                                              const double grown[2 * SHOVE_DIM]) {
    double item[2 * SHOVE_DIM];
    SHOVE_IFN(bump_grown_rect)(&g->rects[i], item);
    return SHOVE_IFN(bump_meets)(item, grown);
}

/* Whether item i is near the query: its grown box meets `grown`, or, for
 * a loose query, its rect meets `wide` (bump_query_bounds): a
 * superset, for a caller that tests every candidate exactly anyway (a
 * move, whose bump test accepts nothing outside the grown boxes), at a
 * third of the cost. */
static inline bool SHOVE_IFN(bump_item_near)(const SHOVE_T(bump_grid) * g, uint32_t i,
                                             const double grown[2 * SHOVE_DIM], bool loose,
                                             const double wide[2 * SHOVE_DIM]) {
    if (!loose) {
        return SHOVE_IFN(bump_item_meets)(g, i, grown);
    }
    const SHOVE_T(bump_rect) *r = &g->rects[i];
    bool near = true;
    SHOVE_AXES_UNROLLED
    for (int a = 0; a < SHOVE_DIM; ++a) {
        near &= (r->min[a] <= wide[SHOVE_DIM + a]) & (wide[a] <= r->min[a] + r->size[a]);
    }
    return near;
}

/* Whether `key`, a cell of item i (filed in cells) and of the query range
 * `range`, is the first cell the two share in the query's order: on every
 * axis, the query's low cell or the item's. The item's low cell is that of
 * its rect's low corner (bump_item_range); as `key` is one of its cells, it
 * is `key` exactly when the corner in cells (bump_clamped_cell, before it
 * is rounded down) is not below `key`. Without branches, as bump_meets. */
static inline bool SHOVE_IFN(bump_first_shared)(const SHOVE_T(bump_grid) * g, uint32_t i,
                                                const int32_t key[SHOVE_DIM],
                                                const int32_t range[2 * SHOVE_DIM]) {
    bool first = true;
    SHOVE_AXES_UNROLLED
    for (int a = 0; a < SHOVE_DIM; ++a) {
        const double c = SHOVE_IFN(bump_clamped_cell)(g->rects[i].min[a], g->per_cell);
        first &= (key[a] == range[a]) | (c >= (double)key[a]);
    }
    return first;
}

/* The next cell of a query's range (bump_next_key), and with it the
 * walk's place in the window when there is one (*at not NULL; jump as in
 * bump_query). False after the last. */
static inline bool SHOVE_IFN(bump_next_cell)(int32_t key[SHOVE_DIM],
                                             const int32_t range[2 * SHOVE_DIM],
                                             SHOVE_IFN(bump_cell) * *at,
                                             const ptrdiff_t jump[SHOVE_DIM]) {
    const int axis = SHOVE_IFN(bump_next_axis)(key, range);
    if (axis < 0) {
        return false;
    }
    if (*at) {
        *at += jump[axis];
    }
    return true;
}

/* The items whose grown box meets `grown` into out (the first `capacity`
 * of them); returns how many there are. A loose query (bump_item_near)
 * may also give an item over several of its cells once for each: its
 * caller, a move, picks the first of the best collisions, which an item
 * seen again cannot change, and sparing the test of which cell an item is
 * taken in saves a fifth of a query. */
static uint32_t SHOVE_IFN(bump_query)(const SHOVE_T(bump_grid) * g,
                                      const double grown[2 * SHOVE_DIM], bool loose, uint32_t *out,
                                      uint32_t capacity) {
    uint32_t n = 0;
    int32_t range[2 * SHOVE_DIM];
    double wide[2 * SHOVE_DIM];
    const double cells = SHOVE_IFN(bump_query_bounds)(g, grown, range, wide);
    if (cells > 2.0 * ((double)g->count + 16.0)) {
        /* more cells than items: every item once, in index order */
        for (uint32_t i = 0; i < g->next; ++i) {
            if (g->live[i] != SHOVE_BUMP_FREE &&
                SHOVE_IFN(bump_item_near)(g, i, grown, loose, wide)) {
                if (n < capacity) {
                    out[n] = i;
                }
                n += 1u;
            }
        }
        return n;
    }
    if (g->cells_used > 0u || g->window_cells > 0u) {
        const bool several = !loose && cells > 1.0;
        /* copied entry by entry: a memcpy became one 8-byte load of two
         * entries stored just before 4 bytes at a time, which the store
         * buffer cannot forward (a stall the profile showed on every query) */
        int32_t key[SHOVE_DIM];
        SHOVE_AXES_UNROLLED
        for (int a = 0; a < SHOVE_DIM; ++a) {
            key[a] = range[a];
        }
        /* A range inside the window is walked by offsets, with no lookup
         * and no test of the window's bounds per cell (an eighth faster a
         * move on bench_bump_grid's map, for a few more instructions):
         * jump[a] is how far the walk moves when axis a steps and the axes
         * below it start again. The window holds at most 2^30 cells, so
         * the offsets fit. */
        SHOVE_IFN(bump_cell) *at = SHOVE_IFN(bump_window_range)(g, range);
        ptrdiff_t jump[SHOVE_DIM] = {0};
        if (at) {
            ptrdiff_t stride = 1, back = 0;
            SHOVE_AXES_UNROLLED
            for (int a = 0; a < SHOVE_DIM; ++a) {
                jump[a] = stride - back;
                back += (ptrdiff_t)(range[SHOVE_DIM + a] - range[a]) * stride;
                stride *= (ptrdiff_t)g->window_extent[a];
            }
        }
        do {
            SHOVE_IFN(bump_cell) *cell = at ? at : SHOVE_IFN(bump_find)(g, key);
            if (!cell) {
                continue;
            }
            const uint32_t *items = SHOVE_IFN(bump_cell_items)(cell);
            if (!several) {
                /* every near item, with a loop of its own: in the loop
                 * below, the compiler works out the first shared cell
                 * without a branch, for every item, whether asked or not
                 * (5% of a move on bench_bump_grid) */
                for (uint32_t j = 0; j < cell->count; ++j) {
                    const uint32_t i = items[j];
                    if (n < capacity) {
                        out[n] = i;
                    }
                    n += SHOVE_IFN(bump_item_near)(g, i, grown, loose, wide);
                }
                continue;
            }
            for (uint32_t j = 0; j < cell->count; ++j) {
                const uint32_t i = items[j];
                /* an item over several cells of the query is taken in the
                 * first of them in the query's order: the low corner of
                 * the cells the two share (one cell: no other) */
                const bool near = SHOVE_IFN(bump_item_near)(g, i, grown, loose, wide);
                const bool first = !several || SHOVE_IFN(bump_first_shared)(g, i, key, range);
                const bool take = near & first;
                /* written whether taken or not, kept by counting it */
                if (n < capacity) {
                    out[n] = i;
                }
                n += take;
            }
        } while (SHOVE_IFN(bump_next_cell)(key, range, &at, jump));
    }
    for (uint32_t j = 0; j < g->wide_count; ++j) {
        const uint32_t i = g->wide[j];
        if (SHOVE_IFN(bump_item_near)(g, i, grown, loose, wide)) {
            if (n < capacity) {
                out[n] = i;
            }
            n += 1u;
        }
    }
    return n;
}

uint32_t SHOVE_FN(bump_grid_query)(SHOVE_T(bump_grid) * g, const double min[SHOVE_DIM],
                                   const double max[SHOVE_DIM], uint32_t *out, uint32_t capacity) {
    if (!g || !min || !max || (!out && capacity > 0u)) {
        return 0u;
    }
    SHOVE_AXES_UNROLLED
    for (int a = 0; a < SHOVE_DIM; ++a) {
        if (!isfinite(min[a]) || !isfinite(max[a]) || min[a] > max[a]) {
            return 0u;
        }
    }
    double grown[2 * SHOVE_DIM];
    SHOVE_IFN(bump_grow)(min, max, grown);
    return SHOVE_IFN(bump_query)(g, grown, false, out, capacity);
}

/* The grown bounding box of the rect `from` moving to `to`, as bump's
 * project asks its cells. */
static void SHOVE_IFN(bump_motion_box)(const SHOVE_T(bump_rect) * from, const double to[SHOVE_DIM],
                                       double grown[2 * SHOVE_DIM]) {
    double lo[SHOVE_DIM], hi[SHOVE_DIM];
    SHOVE_AXES_UNROLLED
    for (int a = 0; a < SHOVE_DIM; ++a) {
        const double far_goal = to[a] + from->size[a];
        const double far_from = from->min[a] + from->size[a];
        lo[a] = to[a] < from->min[a] ? to[a] : from->min[a];
        hi[a] = far_goal > far_from ? far_goal : far_from;
    }
    SHOVE_IFN(bump_grow)(lo, hi, grown);
}

/* Whether the box `inner` lies inside `outer` (both grown boxes). */
static bool SHOVE_IFN(bump_inside)(const double *inner, const double *outer) {
    SHOVE_AXES_UNROLLED
    for (int a = 0; a < SHOVE_DIM; ++a) {
        if (inner[a] < outer[a] || inner[SHOVE_DIM + a] > outer[SHOVE_DIM + a]) {
            return false;
        }
    }
    return true;
}

shove_status SHOVE_FN(bump_grid_move)(SHOVE_T(bump_grid) * g, uint32_t self,
                                      const double goal[SHOVE_DIM], bool update, uint32_t *ids,
                                      uint32_t id_capacity, SHOVE_T(bump_col) * cols,
                                      uint32_t col_capacity, uint32_t *count,
                                      double actual[SHOVE_DIM]) {
    if (!g || !goal || !ids || !cols || !count || !actual || !SHOVE_IFN(bump_live)(g, self)) {
        return SHOVE_ERR_INVALID_ARGUMENT;
    }
    SHOVE_T(bump_rect) from = g->rects[self];
    double to[SHOVE_DIM];
    /* a goal that is not finite makes its far side not finite (the size is
     * finite and above 0): one test covers both */
    bool finite = true;
    SHOVE_AXES_UNROLLED
    for (int a = 0; a < SHOVE_DIM; ++a) {
        finite &= isfinite(goal[a] + from.size[a]) != 0;
        to[a] = goal[a];
    }
    if (!finite) {
        return SHOVE_ERR_INVALID_ARGUMENT;
    }
    uint32_t k = 0, n = 0;
    /* The box the candidates in ids were found for; before the first
     * query an empty box (min +inf, max -inf), which holds no box. */
    double asked[2 * SHOVE_DIM];
    SHOVE_AXES_UNROLLED
    for (int a = 0; a < SHOVE_DIM; ++a) {
        asked[a] = INFINITY;
        asked[SHOVE_DIM + a] = -INFINITY;
    }
    for (;;) {
        /* a projection inside the box of the last query has its candidates
         * among that query's (a slide stays within its motion's box) */
        double box[2 * SHOVE_DIM];
        SHOVE_IFN(bump_motion_box)(&from, to, box);
        const bool fresh = !SHOVE_IFN(bump_inside)(box, asked);
        if (fresh) {
            n = SHOVE_IFN(bump_query)(g, box, true, ids, id_capacity);
            if (n > id_capacity) {
                /* the exact query: fewer candidates, each once */
                n = SHOVE_IFN(bump_query)(g, box, false, ids, id_capacity);
            }
            if (n > id_capacity) {
                return SHOVE_ERR_OUT_OF_RANGE;
            }
            memcpy(asked, box, sizeof box);
        }
        /* the first collision in bump's order, among the items not met yet */
        SHOVE_T(bump_pick) pick = {.best = UINT32_MAX};
        for (uint32_t i = 0; i < n; ++i) {
            const uint32_t index = ids[i];
            /* after a query of this very box, every candidate meets it */
            bool met = index == self || (!fresh && !SHOVE_IFN(bump_item_meets)(g, index, box));
            for (uint32_t j = 0; j < k && !met; ++j) {
                met = cols[j].other == index;
            }
            if (!met) {
                SHOVE_IFN(bump_pick_consider)(&pick, &from, to, &g->rects[index], index);
            }
        }
        if (pick.best == UINT32_MAX) {
            break;
        }
        if (k == col_capacity) {
            return SHOVE_ERR_OUT_OF_RANGE;
        }
        SHOVE_IFN(bump_pick_take)(&pick, cols, &k, &from, to);
    }
    /* `from` has the item's sizes (read from the copy, not the grid, which
     * spares a reload the profile showed); the far corner is all there is to see.
     * bump's arithmetic can carry a move among huge numbers past the largest
     * double (a resting overlap backed out along a tiny motion): such an
     * end is refused as a goal whose rect is not finite is, checked or not */
    SHOVE_T(bump_rect) moved = from;
    bool moved_finite = true;
    SHOVE_AXES_UNROLLED
    for (int a = 0; a < SHOVE_DIM; ++a) {
        moved.min[a] = to[a];
        moved_finite &= isfinite(to[a] + moved.size[a]) != 0;
    }
    if (!moved_finite) {
        return SHOVE_ERR_INVALID_ARGUMENT;
    }
    if (update) {
        const shove_status status = SHOVE_IFN(bump_set)(g, self, &moved);
        if (status != SHOVE_OK) {
            return status;
        }
    }
    SHOVE_AXES_UNROLLED
    for (int a = 0; a < SHOVE_DIM; ++a) {
        actual[a] = to[a];
    }
    *count = k;
    return SHOVE_OK;
}
