/*
 * occupancy.c: how many dynamic bodies each cell of a coarse grid holds,
 * kept beside the dynamic tree (SHOVE_T(occupancy) in world.h).
 *
 * A move gathers the bodies near its swept box from both trees. In a world
 * of mobs most moves meet no other mob (in bench_voxel's hills, 99 gathers
 * in 100), and the dynamic tree's walk then finds nothing, for the price of
 * a walk down and a bucket's scan. The counts answer "no body but the mover
 * is over these cells" from one to four counters. Beside each count, the
 * sum of the slots of the bodies counted there names the body of a cell
 * that holds one: where every cell holds at most one other body, their
 * boxes tell whether one meets the query (occupancy_known_apart). The walk
 * runs only when a body may meet it. So a gather gets the same bodies, in
 * the same order, as without them.
 *
 * Why that is exact: a body whose box meets the query box shares a point
 * with it, and that point's cell is a cell of both. Cells come from one
 * function of a coordinate, never decreasing: the coordinate times the
 * inverse of the cell's side (a power of two, so the product is exact)
 * less the window's first cell, rounded down. Whatever the rounding of
 * the subtraction, a point between two coordinates gets a cell between
 * theirs.
 *
 * The window covers the dynamic bodies with a margin. A body that leaves
 * it or comes to cover more than OCCUPANCY_BODY_CELLS cells, a count that
 * would overflow, or a shift of the origin turns the counts off. A gather
 * that asks them while they are off builds them (so a world whose movers
 * all pass through each other never has them), once they have waited
 * enough moves of dynamic bodies; a worker's read-only gather never does.
 * They are built only with OCCUPANCY_MIN_BODIES dynamic bodies or more, a
 * window of at most OCCUPANCY_CELLS_PER_BODY cells a body (plus
 * OCCUPANCY_CELLS_FIXED), and bodies that do not share their cells; and
 * they are dropped for a while where they spare few walks
 * (occupancy_review). Template: see dim.h.
 */
#include <math.h>
#include <string.h>

#include "solve/slide_limits.h"
#include "world/world.h"

/* the counted axes: the ground plane of a Y-up world (x and z in 3D) */
#define OCCUPANCY_AXIS(k) ((k) == 0 ? 0 : SHOVE_DIM - 1)
/* with fewer dynamic bodies a walk of the tree is short: no counts */
#define OCCUPANCY_MIN_BODIES 64u
/* the largest window: this many cells a dynamic body, plus the fixed part
 * (2 bytes a cell) */
#define OCCUPANCY_CELLS_PER_BODY 64u
#define OCCUPANCY_CELLS_FIXED    65536u
/* moves of dynamic bodies to let pass after a build that was refused */
#define OCCUPANCY_RETRY 1024u
/* moves of dynamic bodies between reviews of what the counts save, and to
 * let pass after counts that did not pay were dropped */
#define OCCUPANCY_REVIEW   4096u
#define OCCUPANCY_REST     65536u
#define OCCUPANCY_REST_MAX (64u * 65536u)
/* a query over more cells than this walks the tree without asking */
#define OCCUPANCY_MAX_ASKED 16
/* a body over more cells than this (a giant platform among mobs) leaves
 * the world without counts: keeping it would cost as many cells a move */
#define OCCUPANCY_BODY_CELLS 64

/* Coordinate v on counted axis k in the window's cells: the one
 * function, never decreasing in v, that bodies and queries both go
 * through (its integer part, once at least 0, is the cell). */
static SHOVE_HOT_INLINE double SHOVE_IFN(occupancy_scaled)(const SHOVE_T(occupancy) * o, int k,
                                                           float v) {
    return (double)v * o->per_cell - o->origin[k];
}

/* The cells of `box`, relative to the window, in *r; false when some lie
 * outside the window. */
static SHOVE_HOT_INLINE bool SHOVE_IFN(occupancy_cells)(const SHOVE_T(occupancy) * o,
                                                        shove_aabb box, SHOVE_T(occupied) * r) {
    bool inside = true;
    for (int k = 0; k < 2; ++k) {
        const int a = OCCUPANCY_AXIS(k);
        const double lo = SHOVE_IFN(occupancy_scaled)(o, k, box.min.raw[a]);
        const double hi = SHOVE_IFN(occupancy_scaled)(o, k, box.max.raw[a]);
        inside = inside && lo >= 0.0 && hi < o->last[k] + 1.0;
        /* rounding down: the values are at least 0 here */
        r->lo[k] = inside ? (int32_t)lo : 0;
        r->hi[k] = inside ? (int32_t)hi : 0;
    }
    return inside;
}

/* Whether the counts can keep a body over the cells r: at most
 * OCCUPANCY_BODY_CELLS of them (every change of a bigger body's cells
 * would rewrite them all). */
static inline bool SHOVE_IFN(occupancy_small)(const SHOVE_T(occupied) * r) {
    return (int64_t)(r->hi[0] - r->lo[0] + 1) * (r->hi[1] - r->lo[1] + 1) <= OCCUPANCY_BODY_CELLS;
}

/* The cells of `box` in *r when the counts can hold the body: inside the
 * window, and small. */
static bool SHOVE_IFN(occupancy_holds)(const SHOVE_T(occupancy) * o, shove_aabb box,
                                       SHOVE_T(occupied) * r) {
    return SHOVE_IFN(occupancy_cells)(o, box, r) && SHOVE_IFN(occupancy_small)(r);
}

/* Bytes a cell takes: its slot sum and its count. */
static inline size_t SHOVE_IFN(occupancy_cell_bytes)(void) {
    return sizeof(uint32_t) + sizeof(uint16_t);
}

/* Adds body `slot` to the cells of r (by > 0), or takes it away: their
 * counts by 1, their slot sums by the slot. False when a count would pass
 * UINT16_MAX (the counts are then unusable). */
static bool SHOVE_IFN(occupancy_add)(SHOVE_T(occupancy) * o, const SHOVE_T(occupied) * r,
                                     uint32_t slot, int by) {
    for (int32_t j = r->lo[1]; j <= r->hi[1]; ++j) {
        const size_t at = (size_t)j * (size_t)o->extent[0];
        uint16_t *row = o->count + at;
        uint32_t *sums = o->slot_sum + at;
        for (int32_t i = r->lo[0]; i <= r->hi[0]; ++i) {
            if (by > 0) {
                if (row[i] == UINT16_MAX) {
                    return false;
                }
                row[i] += 1u;
                sums[i] += slot;
            } else {
                row[i] -= 1u;
                sums[i] -= slot;
            }
        }
    }
    return true;
}

/* The counts no longer mirror the tree; a gather may build them again
 * after `wait` more moves of dynamic bodies. */
static void SHOVE_IFN(occupancy_off)(shove_world *w, uint32_t wait) {
    w->occupancy.on = false;
    w->occupancy.wait = wait;
}

/* Counts that do not pay: off for OCCUPANCY_REST moves of dynamic bodies,
 * twice as long as the last time when that was also a rest (up to
 * OCCUPANCY_REST_MAX), so a world where they never pay stops paying for
 * the tries. */
static void SHOVE_IFN(occupancy_rest)(shove_world *w) {
    SHOVE_T(occupancy) *o = &w->occupancy;
    o->rest = o->rest < OCCUPANCY_REST       ? OCCUPANCY_REST
              : o->rest < OCCUPANCY_REST_MAX ? 2u * o->rest
                                             : o->rest;
    SHOVE_IFN(occupancy_off)(w, o->rest);
}

/* The smallest power of two at least `at_least`, within 2^-20 .. 2^20. */
static double SHOVE_IFN(occupancy_side)(double at_least) {
    double cell = 0x1p-20;
    while (cell < at_least && cell < 0x1p20) {
        cell *= 2.0;
    }
    return cell;
}

/* The window of cells of side `cell` over the span [lo, hi] of the
 * bodies on the counted axes, with a margin of a quarter of the span and 4
 * cells on each side (so that bodies walking about rarely leave it): its
 * first cell, extent and number of cells. False when it reaches past
 * 32-bit cell numbers or needs more cells than the bodies may have.
 *
 * occupancy_build asks it first for cells of the bodies' mean side (the
 * smallest power of two at least that): the query of a body walking a
 * fraction of its side still covers one to four cells, and a cell holds
 * less room around a body than at twice the side, so fewer gathers find
 * another body over their cells and walk the tree for nothing (a third
 * fewer among bench_voxel's 20,000 mobs). Where that window is too large
 * (bodies spread thin), it asks again for twice the side. */
static bool SHOVE_IFN(occupancy_window)(const double lo[2], const double hi[2], double cell,
                                        uint32_t dynamic, int32_t low[2], int32_t extent[2],
                                        uint64_t *cells) {
    const double per_cell = 1.0 / cell;
    uint64_t n = 1u;
    for (int k = 0; k < 2; ++k) {
        const double first = floor(lo[k] * per_cell), last = floor(hi[k] * per_cell);
        const double margin = floor((last - first + 1.0) / 4.0) + 4.0;
        if (!(first - margin >= -0x1p29 && last + margin <= 0x1p29)) {
            return false;
        }
        low[k] = (int32_t)(first - margin);
        extent[k] = (int32_t)(last + margin) - low[k] + 1;
        n *= (uint64_t)extent[k];
        if (n > OCCUPANCY_CELLS_FIXED + (uint64_t)OCCUPANCY_CELLS_PER_BODY * dynamic) {
            return false;
        }
    }
    *cells = n;
    return true;
}

/* Counts every dynamic body anew, over a window around them all. Stays off
 * for OCCUPANCY_RETRY moves with too few bodies or no memory, and rests
 * (occupancy_rest) where bodies share their cells, spread too far for a
 * window, or one covers too many cells: every try reads every body. */
static SLIDE_NOINLINE void SHOVE_IFN(occupancy_build)(shove_world *w) {
    SHOVE_T(occupancy) *o = &w->occupancy;
    SHOVE_IFN(occupancy_off)(w, OCCUPANCY_RETRY);
    const uint32_t dynamic = w->body_count - w->static_count;
    if (dynamic < (o->min_bodies ? o->min_bodies : OCCUPANCY_MIN_BODIES)) {
        return;
    }
    const uint8_t counted = SHOVE_SLOT_ALIVE | SHOVE_SLOT_DYNAMIC;
    double lo[2] = {INFINITY, INFINITY}, hi[2] = {-INFINITY, -INFINITY};
    double side = 0.0;
    for (uint32_t slot = 0; slot < w->slot_count; ++slot) {
        if ((w->flags[slot] & counted) != counted) {
            continue;
        }
        for (int k = 0; k < 2; ++k) {
            const int a = OCCUPANCY_AXIS(k);
            const shove_aabb b = w->box[slot];
            lo[k] = b.min.raw[a] < lo[k] ? b.min.raw[a] : lo[k];
            hi[k] = b.max.raw[a] > hi[k] ? b.max.raw[a] : hi[k];
            side += (double)b.max.raw[a] - (double)b.min.raw[a];
        }
    }
    /* The side of a cell: a power of two, so that a move's query covers
     * one to four cells; see occupancy_window for which one. */
    side /= 2.0 * (double)dynamic;
    double cell = SHOVE_IFN(occupancy_side)(side);
    int32_t low[2], extent[2];
    uint64_t cells = 0u;
    if (!SHOVE_IFN(occupancy_window)(lo, hi, cell, dynamic, low, extent, &cells)) {
        cell = SHOVE_IFN(occupancy_side)(2.0 * side);
        if (!SHOVE_IFN(occupancy_window)(lo, hi, cell, dynamic, low, extent, &cells)) {
            SHOVE_IFN(occupancy_rest)(w); /* too far out, or spread too thin */
            return;
        }
    }
    const double per_cell = 1.0 / cell;
    if (cells > o->capacity) {
        const size_t bytes = SHOVE_IFN(occupancy_cell_bytes)();
        uint32_t *block = SHOVE_IFN(world_realloc)(w, o->slot_sum, (size_t)o->capacity * bytes,
                                                   (size_t)cells * bytes);
        if (!block) {
            return;
        }
        o->slot_sum = block;
        o->count = (uint16_t *)(void *)(block + cells);
        o->capacity = (uint32_t)cells;
    }
    memset(o->count, 0, (size_t)cells * sizeof *o->count);
    memset(o->slot_sum, 0, (size_t)cells * sizeof *o->slot_sum);
    for (int k = 0; k < 2; ++k) {
        o->origin[k] = (double)low[k];
        o->extent[k] = extent[k];
        o->last[k] = (double)(extent[k] - 1);
    }
    o->per_cell = per_cell;
    uint64_t entries = 0; /* cells of all the bodies, counted once per body */
    for (uint32_t slot = 0; slot < w->slot_count; ++slot) {
        if ((w->flags[slot] & counted) != counted) {
            continue;
        }
        SHOVE_T(occupied) *r = &w->occupied[slot];
        if (!SHOVE_IFN(occupancy_holds)(o, w->box[slot], r) ||
            !SHOVE_IFN(occupancy_add)(o, r, slot, 1)) {
            SHOVE_IFN(occupancy_rest)(w); /* a giant body, or a cell past 65,535 */
            return;
        }
        entries += (uint64_t)(r->hi[0] - r->lo[0] + 1) * (uint64_t)(r->hi[1] - r->lo[1] + 1);
    }
    /* Bodies that share their cells (a crowd, or bodies stacked above one
     * another in a column) leave few gathers to spare: no counts. */
    uint64_t occupied = 0;
    for (uint64_t c = 0; c < cells; ++c) {
        occupied += o->count[c] != 0u;
    }
    if (2u * entries > 3u * occupied) {
        SHOVE_IFN(occupancy_rest)(w);
        return;
    }
    o->moves = 0;
    o->spared = 0;
    o->on = true;
}

/* Once every OCCUPANCY_REVIEW moves of dynamic bodies: counts that spared
 * a walk to fewer than a third of the gathers rest (occupancy_rest). In a
 * crowd keeping them costs more than they save. Where they pay: in
 * bench_voxel's hills with 20,000 mobs, keeping and asking them costs
 * about 170 instructions a move and a spared walk about 650, so they pay
 * from about a quarter of the gathers spared (a third leaves a margin);
 * they spared 46% there with cells of twice the mobs' side and no slot
 * sums (keeping them made those moves 2% fewer instructions and 3 to 6%
 * faster), and spare 87% now. */
static SLIDE_NOINLINE void SHOVE_IFN(occupancy_review)(shove_world *w) {
    SHOVE_T(occupancy) *o = &w->occupancy;
    if (o->spared < OCCUPANCY_REVIEW / 3u) {
        SHOVE_IFN(occupancy_rest)(w);
    } else {
        o->rest = 0;
    }
    o->moves = 0;
    o->spared = 0;
}

/* A dynamic body came into the dynamic tree (created, or made dynamic). */
static void SHOVE_IFN(occupancy_enter)(shove_world *w, uint32_t slot) {
    SHOVE_T(occupancy) *o = &w->occupancy;
    if (!o->on) {
        return;
    }
    SHOVE_T(occupied) *r = &w->occupied[slot];
    if (!SHOVE_IFN(occupancy_holds)(o, w->box[slot], r) ||
        !SHOVE_IFN(occupancy_add)(o, r, slot, 1)) {
        SHOVE_IFN(occupancy_off)(w, 0u);
    }
}

/* A dynamic body left the dynamic tree (destroyed, or made static). */
static void SHOVE_IFN(occupancy_leave)(shove_world *w, uint32_t slot) {
    if (w->occupancy.on) {
        SHOVE_IFN(occupancy_add)(&w->occupancy, &w->occupied[slot], slot, -1);
    }
}

/* occupancy_moved for a body whose cells changed to `now`. */
static void SHOVE_IFN(occupancy_refile)(shove_world *w, uint32_t slot, bool inside,
                                        const SHOVE_T(occupied) * now) {
    SHOVE_T(occupancy) *o = &w->occupancy;
    if (!inside || !SHOVE_IFN(occupancy_small)(now)) {
        /* left the window, or grew too big: a new build when a gather asks */
        SHOVE_IFN(occupancy_off)(w, 0u);
        return;
    }
    SHOVE_T(occupied) *r = &w->occupied[slot];
    SHOVE_IFN(occupancy_add)(o, r, slot, -1);
    *r = *now;
    if (!SHOVE_IFN(occupancy_add)(o, r, slot, 1)) {
        SHOVE_IFN(occupancy_off)(w, 0u);
    }
}

/* A dynamic body's box changed (w->box[slot] is the new one). */
static inline void SHOVE_IFN(occupancy_moved)(shove_world *w, uint32_t slot) {
    SHOVE_T(occupancy) *o = &w->occupancy;
    if (!o->on) {
        o->wait -= o->wait > 0u ? 1u : 0u;
        return;
    }
    if (++o->moves == OCCUPANCY_REVIEW) {
        SHOVE_IFN(occupancy_review)(w);
        if (!o->on) {
            return;
        }
    }
    SHOVE_T(occupied) now;
    const bool inside = SHOVE_IFN(occupancy_cells)(o, w->box[slot], &now);
    const SHOVE_T(occupied) *r = &w->occupied[slot];
    if (!inside || now.lo[0] != r->lo[0] || now.lo[1] != r->lo[1] || now.hi[0] != r->hi[0] ||
        now.hi[1] != r->hi[1]) {
        SHOVE_IFN(occupancy_refile)(w, slot, inside, &now);
    }
}

/* The window's cells of [min, max] on counted axis k, clamped to the
 * window, in *lo and *hi; false when they miss the window. */
static SHOVE_HOT_INLINE bool SHOVE_IFN(occupancy_span)(const SHOVE_T(occupancy) * o, int k,
                                                       float min, float max, int32_t *lo,
                                                       int32_t *hi) {
    const double l = SHOVE_IFN(occupancy_scaled)(o, k, min);
    const double h = SHOVE_IFN(occupancy_scaled)(o, k, max);
    /* clamped before they are converted: far boxes give far values */
    const double l_in = l > 0.0 ? (l < o->last[k] ? l : o->last[k]) : 0.0;
    const double h_in = h < o->last[k] ? (h > 0.0 ? h : 0.0) : o->last[k];
    *lo = (int32_t)l_in;
    *hi = (int32_t)h_in;
    return h >= 0.0 && l < o->last[k] + 1.0;
}

/* Whether the bodies other than `mover` over the cells range[0 .. 1] x
 * range[2 .. 3] are all known and none of them meets `query`: in every
 * cell that holds one, it is the only one (the count less the mover's own
 * is 1), so the slot sum less the mover's slot names it, and its box does
 * not overlap the query strictly, the test the tree's walk makes of every
 * box it meets. Any body that overlaps the query is over one of its cells
 * (occupancy_may_meet), so the walk would then find none but the mover.
 * Where a body is the one other body over several cells, it is tested
 * for each. A query over the cells holds at most OCCUPANCY_MAX_ASKED. */
static SLIDE_NOINLINE bool SHOVE_IFN(occupancy_known_apart)(const shove_world *w, uint32_t mover,
                                                            shove_aabb query,
                                                            const int32_t range[4]) {
    const SHOVE_T(occupancy) *o = &w->occupancy;
    const SHOVE_T(occupied) *r = &w->occupied[mover];
    for (int32_t j = range[2]; j <= range[3]; ++j) {
        const size_t at = (size_t)j * (size_t)o->extent[0];
        const bool own_row = j >= r->lo[1] && j <= r->hi[1];
        for (int32_t i = range[0]; i <= range[1]; ++i) {
            const bool own = own_row && i >= r->lo[0] && i <= r->hi[0];
            const uint32_t others = (uint32_t)o->count[at + (size_t)i] - (own ? 1u : 0u);
            if (others == 0u) {
                continue;
            }
            const uint32_t other = o->slot_sum[at + (size_t)i] - (own ? mover : 0u);
            if (others > 1u || other >= w->slot_count ||
                SHOVE_IFN(overlaps_unchecked)(w->box[other], query)) {
                return false;
            }
        }
    }
    return true;
}

/* False when no dynamic body but `mover` can meet `query`: the counts of
 * its cells hold the mover alone. True when one may. Only while the counts
 * are on (occupancy_spares asks). */
static bool SHOVE_IFN(occupancy_may_meet)(const shove_world *w, uint32_t mover, shove_aabb query) {
    const SHOVE_T(occupancy) *o = &w->occupancy;
    const int a1 = OCCUPANCY_AXIS(1);
    int32_t lo0, hi0, lo1, hi1;
    if (!SHOVE_IFN(occupancy_span)(o, 0, query.min.raw[0], query.max.raw[0], &lo0, &hi0) ||
        !SHOVE_IFN(occupancy_span)(o, 1, query.min.raw[a1], query.max.raw[a1], &lo1, &hi1)) {
        return false; /* beyond the window, where no dynamic body is */
    }
    const int32_t across = hi0 - lo0 + 1, down = hi1 - lo1 + 1;
    const uint16_t *row = o->count + (size_t)lo1 * (size_t)o->extent[0] + (size_t)lo0;
    uint32_t sum;
    if (across <= 2 && down <= 2) { /* a move's query: one to four cells */
        sum = row[0] + (across > 1 ? row[1] : 0u);
        if (down > 1) {
            row += o->extent[0];
            sum += row[0] + (across > 1 ? row[1] : 0u);
        }
    } else if ((int64_t)across * down <= OCCUPANCY_MAX_ASKED) {
        sum = 0;
        for (int32_t j = 0; j < down; ++j, row += o->extent[0]) {
            for (int32_t i = 0; i < across; ++i) {
                sum += row[i];
            }
        }
    } else {
        return true;
    }
    /* the mover's own count in those cells */
    const uint8_t counted = SHOVE_SLOT_ALIVE | SHOVE_SLOT_DYNAMIC;
    if (sum == 0u || mover >= w->slot_count || (w->flags[mover] & counted) != counted) {
        return sum > 0u;
    }
    const SHOVE_T(occupied) *r = &w->occupied[mover];
    const int32_t first0 = r->lo[0] > lo0 ? r->lo[0] : lo0;
    const int32_t last0 = r->hi[0] < hi0 ? r->hi[0] : hi0;
    const int32_t first1 = r->lo[1] > lo1 ? r->lo[1] : lo1;
    const int32_t last1 = r->hi[1] < hi1 ? r->hi[1] : hi1;
    const uint32_t own = (last0 >= first0 && last1 >= first1)
                             ? (uint32_t)(last0 - first0 + 1) * (uint32_t)(last1 - first1 + 1)
                             : 0u;
    if (sum <= own) {
        return false;
    }
    const int32_t range[4] = {lo0, hi0, lo1, hi1};
    return !SHOVE_IFN(occupancy_known_apart)(w, mover, query, range);
}

/* True when the counts spare a gather for `mover` over `query` the walk
 * of the dynamic tree: they are on, and no body but the mover is there.
 * A gather that may change the world (not a worker's read-only one) also
 * builds counts that are off and have waited enough, so counts are only
 * ever built where a gather asks them, and counts what they spare for
 * occupancy_review. */
static inline bool SHOVE_IFN(occupancy_spares)(shove_world *w, uint32_t mover, shove_aabb query,
                                               bool may_change) {
    SHOVE_T(occupancy) *o = &w->occupancy;
    if (!o->on && may_change && o->wait == 0u) {
        SHOVE_IFN(occupancy_build)(w);
    }
    if (!o->on || SHOVE_IFN(occupancy_may_meet)(w, mover, query)) {
        return false;
    }
    if (may_change) { /* never written by a worker's read-only gather */
        o->spared += 1u;
    }
    return true;
}

#undef OCCUPANCY_AXIS
#undef OCCUPANCY_MIN_BODIES
#undef OCCUPANCY_CELLS_PER_BODY
#undef OCCUPANCY_CELLS_FIXED
#undef OCCUPANCY_RETRY
#undef OCCUPANCY_REVIEW
#undef OCCUPANCY_REST
#undef OCCUPANCY_REST_MAX
#undef OCCUPANCY_MAX_ASKED
#undef OCCUPANCY_BODY_CELLS
