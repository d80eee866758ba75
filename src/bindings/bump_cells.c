/*
 * bump_cells.c: the cells of shove{2,3}_bump_grid (bump_grid.c), the grid
 * of bump rects for the LuaJIT modules lua/shove/bump.lua and bump3d.lua:
 * the grid's layout, the arithmetic of cells (the pad, a coordinate's cell,
 * an item's range of cells) and the table of cells with the filing of an
 * item in them.
 *
 * Each cell holds the indices of the items over it. Cells live in a dense
 * window over a box of cell coordinates, when at least a quarter of the
 * box's cells hold items (a tile map: a cell is found by its offset, and a
 * row's cells lie side by side), and in an open-addressed hash keyed by
 * their coordinates outside it. An item over more than
 * SHOVE_BUMP_GRID_ITEM_CELLS cells goes to one "wide" list instead, which
 * every query reads, so that no add or update costs more than that many
 * cells. The layout is made anew (bump_relayout) when the hash runs out of
 * room or outgrows an eighth of the window: empty cells are dropped then,
 * and a window, if the cells in use are dense enough for one, takes them
 * all.
 */
#include <math.h>
#include <string.h>

/* Rects and query boxes are compared grown by |v| * PAD_REL + PAD_ABS on
 * every coordinate v: as the module's earlier float broad phase did, a
 * superset of the pairs bump's exact test can accept, rounding included. */
#define SHOVE_BUMP_GRID_PAD_REL    0x1p-20
#define SHOVE_BUMP_GRID_PAD_ABS    0x1p-100
#define SHOVE_BUMP_GRID_ITEM_CELLS 64u
/* Cell coordinates are clamped to +-2^30: far rects share the edge cells. */
#define SHOVE_BUMP_GRID_CELL_LIMIT 1073741824.0
#define SHOVE_BUMP_GRID_MAX_TABLE  (1u << 30)

/* A cell keeps up to SHOVE_BUMP_CELL_INLINE item indices in itself (a
 * cell of bump's typical scene holds one or two), more in a block of its
 * own: a query then reads its items from the line it found the cell on. */
#define SHOVE_BUMP_CELL_INLINE 4u

typedef struct SHOVE_IFN(bump_cell) {
    int32_t key[SHOVE_DIM];
    uint32_t count;
    /* 0: a free slot; SHOVE_BUMP_CELL_INLINE: the items are `inline_items`;
     * more: they are in `heap` */
    uint32_t capacity;
    union {
        uint32_t inline_items[SHOVE_BUMP_CELL_INLINE];
        uint32_t *heap;
    } items;
} SHOVE_IFN(bump_cell);

static inline uint32_t *SHOVE_IFN(bump_cell_items)(SHOVE_IFN(bump_cell) * cell) {
    return cell->capacity > SHOVE_BUMP_CELL_INLINE ? cell->items.heap : cell->items.inline_items;
}

static inline bool SHOVE_IFN(bump_cell_used)(const SHOVE_IFN(bump_cell) * cell) {
    return cell->capacity != 0u;
}

/* live[i]: 0 for a free index, 1 for an item in cells, 2 in the wide list */
#define SHOVE_BUMP_FREE     0u
#define SHOVE_BUMP_IN_CELLS 1u
#define SHOVE_BUMP_WIDE     2u

struct SHOVE_T(bump_grid) {
    shove_allocator alloc;
    double cell_size;
    double per_cell;     /* 1 / cell_size */
    uint32_t capacity;   /* of the per-index arrays below */
    uint32_t next;       /* indices handed out so far */
    uint32_t count;      /* live items */
    uint32_t free_count; /* entries of free_list */
    SHOVE_T(bump_rect) * rects;
    int32_t *range; /* per index: low cells then high cells, 2 * SHOVE_DIM */
    uint32_t *free_list;
    uint8_t *live;
    SHOVE_IFN(bump_cell) * cells; /* the hash of the cells outside the window */
    uint32_t cell_capacity;       /* a power of two, or 0 */
    uint32_t cells_used;          /* slots taken, empty cells included */
    /* the window: window_cells cells (0: none), every one in use, empty
     * or not, over window_extent[a] cells from window_low[a] on axis a,
     * axis 0 fastest */
    SHOVE_IFN(bump_cell) * window;
    int32_t window_low[SHOVE_DIM];
    uint32_t window_extent[SHOVE_DIM];
    uint32_t window_cells;
    uint32_t *wide;
    uint32_t wide_count;
    uint32_t wide_capacity;
};

/* The grid's allocator: a block of `size` bytes in place of `ptr` (of
 * `old_size`), or NULL; size 0 frees. */
static void *SHOVE_IFN(bump_realloc)(const SHOVE_T(bump_grid) * g, void *ptr, size_t old_size,
                                     size_t size) {
    if (!ptr && size == 0u) {
        return NULL;
    }
    return g->alloc.realloc(g->alloc.ctx, ptr, old_size, size);
}

static inline double SHOVE_IFN(bump_pad)(double v) {
    return fabs(v) * SHOVE_BUMP_GRID_PAD_REL + SHOVE_BUMP_GRID_PAD_ABS;
}

/* Coordinate v in cells: its product with the inverse of the cell size,
 * clamped to the limit. */
static inline double SHOVE_IFN(bump_clamped_cell)(double v, double per_cell) {
    double c = v * per_cell;
    c = c > -SHOVE_BUMP_GRID_CELL_LIMIT ? c : -SHOVE_BUMP_GRID_CELL_LIMIT; /* NaN too */
    return c < SHOVE_BUMP_GRID_CELL_LIMIT ? c : SHOVE_BUMP_GRID_CELL_LIMIT;
}

/* The cell of coordinate v: bump_clamped_cell rounded down. Not always
 * bump's cell (the product rounds), but never decreasing in v, which is all
 * a superset of the pairs needs; and exact enough that a unit tile's far
 * side on a cell border stays out of the cell beyond. */
static inline int32_t SHOVE_IFN(bump_cell_of)(double v, double per_cell) {
    const double c = SHOVE_IFN(bump_clamped_cell)(v, per_cell);
    /* floor without libm: truncation, one down for a negative fraction */
    const int64_t t = (int64_t)c;
    return (int32_t)((double)t > c ? t - 1 : t);
}

/* The box [lo, hi] grown by the pad, low then high corner. */
static inline void SHOVE_IFN(bump_grow)(const double lo[SHOVE_DIM], const double hi[SHOVE_DIM],
                                        double grown[2 * SHOVE_DIM]) {
    SHOVE_AXES_UNROLLED
    for (int a = 0; a < SHOVE_DIM; ++a) {
        grown[a] = lo[a] - SHOVE_IFN(bump_pad)(lo[a]);
        grown[SHOVE_DIM + a] = hi[a] + SHOVE_IFN(bump_pad)(hi[a]);
    }
}

/* How many cells `range` spans (exact below 2^53: spans are below 2^31). */
static inline double SHOVE_IFN(bump_range_cells)(const int32_t range[2 * SHOVE_DIM]) {
    double cells = 1.0;
    SHOVE_AXES_UNROLLED
    for (int a = 0; a < SHOVE_DIM; ++a) {
        cells *= (double)((int64_t)range[SHOVE_DIM + a] - range[a] + 1);
    }
    return cells;
}

/* The largest double below the finite v (without libm's nextafter: this
 * runs on every update). */
static inline double SHOVE_IFN(bump_below)(double v) {
    if (v == 0.0) {
        return -0x1p-1074;
    }
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    bits = v > 0.0 ? bits - 1u : bits + 1u;
    memcpy(&v, &bits, sizeof v);
    return v;
}

/* The cells an item is filed in: those of its rect, the far sides open
 * (a unit tile whose far side lies on a cell border is in one cell, not
 * in the one beyond too), at least the cell of its low corner.
 * range[a] to range[SHOVE_DIM + a] on axis a. */
static inline void SHOVE_IFN(bump_item_range)(const SHOVE_T(bump_grid) * g,
                                              const SHOVE_T(bump_rect) * r,
                                              int32_t range[2 * SHOVE_DIM]) {
    SHOVE_AXES_UNROLLED
    for (int a = 0; a < SHOVE_DIM; ++a) {
        const double below_far = SHOVE_IFN(bump_below)(r->min[a] + r->size[a]);
        const int32_t lo = SHOVE_IFN(bump_cell_of)(r->min[a], g->per_cell);
        const int32_t hi = SHOVE_IFN(bump_cell_of)(below_far, g->per_cell);
        range[a] = lo;
        range[SHOVE_DIM + a] = hi > lo ? hi : lo;
    }
}

/* The cells a query of the grown box `grown` reads, in `range`: those of
 * the box widened by twice the pad on every side. An item whose grown box
 * meets `grown` has a point of its rect (its far sides open) within one
 * pad of its own beyond `grown`, and near `grown` its pad is less than
 * twice the pad there: so the two share a cell. And in `wide`, the box a
 * loose query's items' rects (not grown) must meet: `grown` widened by
 * four times the pad, as the item's pad near `grown` is less than twice
 * the pad of `grown`'s side, and twice that again covers the rounding.
 * Returns how many cells. */
static inline double SHOVE_IFN(bump_query_bounds)(const SHOVE_T(bump_grid) * g,
                                                  const double grown[2 * SHOVE_DIM],
                                                  int32_t range[2 * SHOVE_DIM],
                                                  double wide[2 * SHOVE_DIM]) {
    SHOVE_AXES_UNROLLED
    for (int a = 0; a < SHOVE_DIM; ++a) {
        const double pad_low = SHOVE_IFN(bump_pad)(grown[a]);
        const double pad_high = SHOVE_IFN(bump_pad)(grown[SHOVE_DIM + a]);
        range[a] = SHOVE_IFN(bump_cell_of)(grown[a] - 2.0 * pad_low, g->per_cell);
        range[SHOVE_DIM + a] =
            SHOVE_IFN(bump_cell_of)(grown[SHOVE_DIM + a] + 2.0 * pad_high, g->per_cell);
        wide[a] = grown[a] - 4.0 * pad_low;
        wide[SHOVE_DIM + a] = grown[SHOVE_DIM + a] + 4.0 * pad_high;
    }
    return SHOVE_IFN(bump_range_cells)(range);
}

/* The next cell of a range in odometer order (axis 0 fastest): the axis
 * that stepped, or -1 after the last cell. */
static inline int SHOVE_IFN(bump_next_axis)(int32_t key[SHOVE_DIM],
                                            const int32_t range[2 * SHOVE_DIM]) {
    SHOVE_AXES_UNROLLED
    for (int a = 0; a < SHOVE_DIM; ++a) {
        if (key[a] < range[SHOVE_DIM + a]) {
            key[a] += 1;
            return a;
        }
        key[a] = range[a];
    }
    return -1;
}

/* The next cell of a range in odometer order; false after the last. */
static inline bool SHOVE_IFN(bump_next_key)(int32_t key[SHOVE_DIM],
                                            const int32_t range[2 * SHOVE_DIM]) {
    return SHOVE_IFN(bump_next_axis)(key, range) >= 0;
}

static uint32_t SHOVE_IFN(bump_hash)(const int32_t key[SHOVE_DIM]) {
    uint32_t h = (uint32_t)key[0] * 0x9e3779b1u;
    h ^= (uint32_t)key[1] * 0x85ebca77u;
#if SHOVE_DIM == 3
    h ^= (uint32_t)key[2] * 0xc2b2ae3du;
#endif
    return h ^ (h >> 15);
}

/* Cell `key` of the window, or NULL when it lies outside. */
static inline SHOVE_IFN(bump_cell) *
    SHOVE_IFN(bump_window_cell)(const SHOVE_T(bump_grid) * g, const int32_t key[SHOVE_DIM]) {
    size_t at = 0, stride = 1;
    bool inside = true;
    SHOVE_AXES_UNROLLED
    for (int a = 0; a < SHOVE_DIM; ++a) {
        /* below the low corner wraps to a large offset */
        const uint32_t offset = (uint32_t)((int64_t)key[a] - g->window_low[a]);
        inside &= offset < g->window_extent[a];
        at += (size_t)offset * stride;
        stride *= g->window_extent[a];
    }
    return inside ? &g->window[at] : NULL;
}

/* The window's cell of `range`'s low corner when every cell of `range`
 * lies in the window, else NULL. */
static SHOVE_IFN(bump_cell) *
    SHOVE_IFN(bump_window_range)(const SHOVE_T(bump_grid) * g, const int32_t range[2 * SHOVE_DIM]) {
    SHOVE_IFN(bump_cell) *low = SHOVE_IFN(bump_window_cell)(g, range);
    return low && SHOVE_IFN(bump_window_cell)(g, range + SHOVE_DIM) ? low : NULL;
}

/* How many cells outside a window of `window_cells` the hash takes before
 * the layout is made anew (bump_room_for_cells): an eighth of the window,
 * and 64 more for a small one. */
static inline uint64_t SHOVE_IFN(bump_hashed_beside)(uint64_t window_cells) {
    return window_cells / 8u + 64u;
}

/* The slot of cell `key`: its cell in the window, else its slot in the
 * hash or the free slot where it would go (the hash is never more than
 * half full). NULL outside the window when there is no hash yet. */
static SHOVE_IFN(bump_cell) *
    SHOVE_IFN(bump_slot)(const SHOVE_T(bump_grid) * g, const int32_t key[SHOVE_DIM]) {
    SHOVE_IFN(bump_cell) *in_window = SHOVE_IFN(bump_window_cell)(g, key);
    if (in_window) {
        return in_window;
    }
    if (g->cell_capacity == 0u) {
        return NULL;
    }
    const uint32_t mask = g->cell_capacity - 1u;
    for (uint32_t i = SHOVE_IFN(bump_hash)(key) & mask;; i = (i + 1u) & mask) {
        SHOVE_IFN(bump_cell) *cell = &g->cells[i];
        const bool used = SHOVE_IFN(bump_cell_used)(cell);
        bool same = used;
        SHOVE_AXES_UNROLLED
        for (int a = 0; a < SHOVE_DIM; ++a) {
            same = same && cell->key[a] == key[a];
        }
        if (!used || same) {
            return cell;
        }
    }
}

static SHOVE_IFN(bump_cell) *
    SHOVE_IFN(bump_find)(const SHOVE_T(bump_grid) * g, const int32_t key[SHOVE_DIM]) {
    SHOVE_IFN(bump_cell) *cell = SHOVE_IFN(bump_slot)(g, key);
    return cell && SHOVE_IFN(bump_cell_used)(cell) ? cell : NULL;
}

/* Frees the block of a cell's items, if it has one. */
static void SHOVE_IFN(bump_free_cell)(const SHOVE_T(bump_grid) * g, SHOVE_IFN(bump_cell) * cell) {
    if (cell->capacity > SHOVE_BUMP_CELL_INLINE) {
        SHOVE_IFN(bump_realloc)(g, cell->items.heap, cell->capacity * sizeof *cell->items.heap, 0);
    }
}

/* Whether cell `cell` is one of the layout's that holds items. */
static inline bool SHOVE_IFN(bump_cell_live)(const SHOVE_IFN(bump_cell) * cell) {
    return SHOVE_IFN(bump_cell_used)(cell) && cell->count > 0u;
}

/* The box of the cells that hold items and of `range`, in `box` (low then
 * high corner); returns how many cells hold items. */
static uint64_t SHOVE_IFN(bump_live_box)(const SHOVE_T(bump_grid) * g,
                                         const int32_t range[2 * SHOVE_DIM],
                                         int32_t box[2 * SHOVE_DIM]) {
    memcpy(box, range, 2u * SHOVE_DIM * sizeof *box);
    uint64_t live = 0;
    SHOVE_IFN(bump_cell) *const blocks[2] = {g->window, g->cells};
    const uint32_t sizes[2] = {g->window_cells, g->cell_capacity};
    for (int b = 0; b < 2; ++b) {
        for (uint32_t i = 0; i < sizes[b]; ++i) {
            const SHOVE_IFN(bump_cell) *cell = &blocks[b][i];
            if (!SHOVE_IFN(bump_cell_live)(cell)) {
                continue;
            }
            live += 1u;
            SHOVE_AXES_UNROLLED
            for (int a = 0; a < SHOVE_DIM; ++a) {
                box[a] = cell->key[a] < box[a] ? cell->key[a] : box[a];
                box[SHOVE_DIM + a] =
                    cell->key[a] > box[SHOVE_DIM + a] ? cell->key[a] : box[SHOVE_DIM + a];
            }
        }
    }
    return live;
}

/* Lays the cells that hold items out anew, with room for `extra` more
 * over `range`: all in a window over the box of those cells and `range`
 * when at least a quarter of its cells would hold items, else all in a
 * hash a quarter full. Cells added outside the window (bump_room_for_cells)
 * then make the layout anew no more often than each time their number has
 * grown by an eighth of the window's, itself at most four times theirs;
 * in a hash, by as many as there are. Empty cells are dropped. */
static bool SHOVE_IFN(bump_relayout)(SHOVE_T(bump_grid) * g, const int32_t range[2 * SHOVE_DIM],
                                     uint32_t extra) {
    int32_t box[2 * SHOVE_DIM];
    const uint64_t live = SHOVE_IFN(bump_live_box)(g, range, box) + extra;
    const double area = SHOVE_IFN(bump_range_cells)(box);
    const bool windowed = area <= 4.0 * (double)live && area <= (double)SHOVE_BUMP_GRID_MAX_TABLE;
    /* a window takes every cell now; the hash, the cells added outside it
     * until bump_room_for_cells asks for a new layout, at most half full */
    const uint64_t hashed =
        windowed ? 2u * SHOVE_IFN(bump_hashed_beside)((uint64_t)area) : 4u * live;
    uint64_t capacity = 64u;
    while (capacity < hashed) {
        capacity *= 2u;
    }
    if (capacity > SHOVE_BUMP_GRID_MAX_TABLE) {
        return false;
    }
    const size_t window_cells = windowed ? (size_t)area : 0u;
    SHOVE_IFN(bump_cell) *window = NULL;
    if (windowed) {
        window = SHOVE_IFN(bump_realloc)(g, NULL, 0, window_cells * sizeof *window);
        if (!window) {
            return false;
        }
    }
    SHOVE_IFN(bump_cell) *cells =
        SHOVE_IFN(bump_realloc)(g, NULL, 0, (size_t)capacity * sizeof *cells);
    if (!cells) {
        SHOVE_IFN(bump_realloc)(g, window, window_cells * sizeof *window, 0);
        return false;
    }
    memset(cells, 0, (size_t)capacity * sizeof *cells);
    SHOVE_IFN(bump_cell) *const old_blocks[2] = {g->window, g->cells};
    const uint32_t old_sizes[2] = {g->window_cells, g->cell_capacity};
    g->window = window;
    g->window_cells = (uint32_t)window_cells;
    SHOVE_AXES_UNROLLED
    for (int a = 0; a < SHOVE_DIM; ++a) {
        g->window_low[a] = box[a];
        g->window_extent[a] = windowed ? (uint32_t)((int64_t)box[SHOVE_DIM + a] - box[a] + 1) : 0u;
    }
    /* every cell of the window in use, empty, its key its place */
    int32_t key[SHOVE_DIM];
    memcpy(key, box, sizeof key);
    for (size_t i = 0; i < window_cells; ++i) {
        memset(&window[i], 0, sizeof window[i]);
        memcpy(window[i].key, key, sizeof key);
        window[i].capacity = SHOVE_BUMP_CELL_INLINE;
        SHOVE_IFN(bump_next_key)(key, box);
    }
    g->cells = cells;
    g->cell_capacity = (uint32_t)capacity;
    g->cells_used = 0;
    for (int b = 0; b < 2; ++b) {
        SHOVE_IFN(bump_cell) *old = old_blocks[b];
        for (uint32_t i = 0; i < old_sizes[b]; ++i) {
            if (!SHOVE_IFN(bump_cell_used)(&old[i])) {
                continue;
            }
            if (old[i].count == 0u) {
                SHOVE_IFN(bump_free_cell)(g, &old[i]);
                continue;
            }
            SHOVE_IFN(bump_cell) *place = SHOVE_IFN(bump_window_cell)(g, old[i].key);
            if (!place) {
                place = SHOVE_IFN(bump_slot)(g, old[i].key);
                g->cells_used += 1u;
            }
            *place = old[i];
        }
        SHOVE_IFN(bump_realloc)(g, old, (size_t)old_sizes[b] * sizeof *old, 0);
    }
    return true;
}

/* Room for the cells of `range` (`cells` of them) to take an item: when
 * some of them would go to the hash and it would be more than half full,
 * or hold more than an eighth as many cells as the window (and 64), the
 * layout is made anew (bump_relayout). The second keeps a map that grows
 * past its window, as one added row by row does, from leaving its new part
 * to the hash, where a cell costs a probe more to find. False, with
 * nothing changed, when memory runs out. */
static bool SHOVE_IFN(bump_room_for_cells)(SHOVE_T(bump_grid) * g,
                                           const int32_t range[2 * SHOVE_DIM], double cells) {
    const uint32_t extra = SHOVE_IFN(bump_window_range)(g, range) ? 0u : (uint32_t)cells;
    const uint64_t hashed = (uint64_t)g->cells_used + extra;
    if (hashed <= g->cell_capacity / 2u &&
        (g->window_cells == 0u || hashed <= SHOVE_IFN(bump_hashed_beside)(g->window_cells))) {
        return true;
    }
    return SHOVE_IFN(bump_relayout)(g, range, extra);
}

static bool SHOVE_IFN(bump_grow_list)(const SHOVE_T(bump_grid) * g, uint32_t **items,
                                      uint32_t *capacity) {
    if (*capacity > UINT32_MAX / 2u) {
        return false;
    }
    const uint32_t grown = *capacity ? *capacity * 2u : 4u;
    uint32_t *p = SHOVE_IFN(bump_realloc)(g, *items, (size_t)*capacity * sizeof *p,
                                          (size_t)grown * sizeof *p);
    if (!p) {
        return false;
    }
    *items = p;
    *capacity = grown;
    return true;
}

/* Room for twice the items of a full cell: its first block when its
 * items were inline. False, with the cell as it was, when memory runs out. */
static bool SHOVE_IFN(bump_grow_cell)(const SHOVE_T(bump_grid) * g, SHOVE_IFN(bump_cell) * cell) {
    if (cell->capacity > SHOVE_BUMP_CELL_INLINE) {
        return SHOVE_IFN(bump_grow_list)(g, &cell->items.heap, &cell->capacity);
    }
    const uint32_t grown = 2u * SHOVE_BUMP_CELL_INLINE;
    uint32_t *p = SHOVE_IFN(bump_realloc)(g, NULL, 0, grown * sizeof *p);
    if (!p) {
        return false;
    }
    memcpy(p, cell->items.inline_items, cell->count * sizeof *p);
    cell->items.heap = p;
    cell->capacity = grown;
    return true;
}

/* Whether cell `key` is in `range` (false for a NULL range). */
static bool SHOVE_IFN(bump_in_range)(const int32_t key[SHOVE_DIM], const int32_t *range) {
    if (!range) {
        return false;
    }
    SHOVE_AXES_UNROLLED
    for (int a = 0; a < SHOVE_DIM; ++a) {
        if (key[a] < range[a] || key[a] > range[SHOVE_DIM + a]) {
            return false;
        }
    }
    return true;
}

/* Room for one more item over `range` (`cells` cells), except in the cells
 * of `skip` (NULL: none), where it already is: those cells exist and have
 * room, or the wide list has. Nothing observable changes. The cells that
 * will take the item go to `slots` (at most SHOVE_BUMP_GRID_ITEM_CELLS of
 * them), in the range's order, for bump_link. */
static bool SHOVE_IFN(bump_reserve)(SHOVE_T(bump_grid) * g, const int32_t range[2 * SHOVE_DIM],
                                    double cells, const int32_t *skip,
                                    SHOVE_IFN(bump_cell) * *slots, uint32_t *slot_count) {
    *slot_count = 0;
    if (cells > SHOVE_BUMP_GRID_ITEM_CELLS) {
        return g->wide_count < g->wide_capacity ||
               SHOVE_IFN(bump_grow_list)(g, &g->wide, &g->wide_capacity);
    }
    if (!SHOVE_IFN(bump_room_for_cells)(g, range, cells)) {
        return false;
    }
    int32_t key[SHOVE_DIM];
    memcpy(key, range, sizeof key);
    do {
        if (SHOVE_IFN(bump_in_range)(key, skip)) {
            continue;
        }
        SHOVE_IFN(bump_cell) *cell = SHOVE_IFN(bump_slot)(g, key);
        if (!SHOVE_IFN(bump_cell_used)(cell)) {
            memset(cell, 0, sizeof *cell);
            memcpy(cell->key, key, sizeof cell->key);
            cell->capacity = SHOVE_BUMP_CELL_INLINE;
            g->cells_used += 1u;
        }
        if (cell->count == cell->capacity && !SHOVE_IFN(bump_grow_cell)(g, cell)) {
            return false;
        }
        slots[(*slot_count)++] = cell;
    } while (SHOVE_IFN(bump_next_key)(key, range));
    return true;
}

/* Puts item i in the cells bump_reserve found for it (`slots`), or in the
 * wide list (room reserved either way). No cell moves between the two: the
 * table is only rebuilt when room is reserved. */
static void SHOVE_IFN(bump_link)(SHOVE_T(bump_grid) * g, uint32_t i,
                                 SHOVE_IFN(bump_cell) *const *slots, uint32_t slot_count) {
    if (g->live[i] == SHOVE_BUMP_WIDE) {
        g->wide[g->wide_count++] = i;
        return;
    }
    for (uint32_t j = 0; j < slot_count; ++j) {
        SHOVE_IFN(bump_cell) *cell = slots[j];
        SHOVE_IFN(bump_cell_items)(cell)[cell->count++] = i;
    }
}

static void SHOVE_IFN(bump_drop)(uint32_t *items, uint32_t *count, uint32_t i) {
    for (uint32_t j = 0; j < *count; ++j) {
        if (items[j] == i) {
            *count -= 1u;
            items[j] = items[*count];
            return;
        }
    }
}

/* Takes item i out of where its range says, except the cells of `keep`
 * (NULL: none). */
static void SHOVE_IFN(bump_unlink)(SHOVE_T(bump_grid) * g, uint32_t i, const int32_t *keep) {
    if (g->live[i] == SHOVE_BUMP_WIDE) {
        SHOVE_IFN(bump_drop)(g->wide, &g->wide_count, i);
        return;
    }
    const int32_t *range = &g->range[(size_t)i * 2u * SHOVE_DIM];
    int32_t key[SHOVE_DIM];
    memcpy(key, range, sizeof key);
    do {
        if (SHOVE_IFN(bump_in_range)(key, keep)) {
            continue;
        }
        SHOVE_IFN(bump_cell) *cell = SHOVE_IFN(bump_find)(g, key);
        SHOVE_IFN(bump_drop)(SHOVE_IFN(bump_cell_items)(cell), &cell->count, i);
    } while (SHOVE_IFN(bump_next_key)(key, range));
}

static bool SHOVE_IFN(bump_rect_ok)(const SHOVE_T(bump_rect) * r) {
    SHOVE_AXES_UNROLLED
    for (int a = 0; a < SHOVE_DIM; ++a) {
        if (!isfinite(r->min[a]) || !(r->size[a] > 0.0) || !isfinite(r->min[a] + r->size[a])) {
            return false;
        }
    }
    return true;
}

static bool SHOVE_IFN(bump_live)(const SHOVE_T(bump_grid) * g, uint32_t i) {
    return i < g->next && g->live[i] != SHOVE_BUMP_FREE;
}

static void SHOVE_IFN(bump_grown_rect)(const SHOVE_T(bump_rect) * r, double grown[2 * SHOVE_DIM]) {
    double lo[SHOVE_DIM], hi[SHOVE_DIM];
    SHOVE_AXES_UNROLLED
    for (int a = 0; a < SHOVE_DIM; ++a) {
        lo[a] = r->min[a];
        hi[a] = r->min[a] + r->size[a];
    }
    SHOVE_IFN(bump_grow)(lo, hi, grown);
}
