/*
 * voxel_walk.c: the questions that read many voxels: gathers (every cell a
 * swept box touches, or a tube of cells along a path) and casts that walk a
 * path in pieces. Template: see dim.h; which cells each reads is described
 * in voxel.h, the cells and their reading are voxel.c.
 *
 * Every cell read, and every piece of a cast's walk, spends one unit of
 * the call's budget (shove__voxel_budget); past it, past float precision or
 * after a lying callback the call fails with the budget's status and
 * changes nothing.
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "obstacles/voxel.h"

/* How much earlier than the start of the next piece a cast's best hit must
 * be to stop the walk, relative to the hit and to the path: room for the
 * rounding of sweep times. */
#define VOXEL_CAST_SLACK 0x1p-20
/* Keeps a rarely called helper out of a hot loop. */
#if defined(__GNUC__) || defined(__clang__)
#define VOXEL_NOINLINE __attribute__((noinline))
#else
#define VOXEL_NOINLINE
#endif

/* >>gather ------------------------------------------------------------------ */

/* A gather's query box: `box` swept by `delta`, grown by `margin` and one
 * float step more, as the world's own gather does: each bound is
 * next_up(max + margin) and next_down(min - margin). */
static inline shove_aabb SHOVE_IFN(voxel_query)(shove_aabb box, shove_vec delta, float margin) {
    return SHOVE_IFN(swept_region)(box, delta, margin, false);
}

/* A gather's state while it walks its cells: what it appends to and the
 * runs along x it may still extend. */
typedef struct SHOVE_T(voxel_gathering) {
    const shove_voxel_def *def;
    int mode; /* VOXEL_CHECKED, VOXEL_FINITE or VOXEL_UNIT (voxel_mode) */
    uint8_t flags;
    bool merge;   /* join runs (below); false: one obstacle per box of a cell */
    float line_x; /* no run is joined at this x (see voxel_gather); NaN: none */
    shove_aabb q; /* the query box */
    SHOVE_IFN(obstacle_set) * out;
    shove__voxel_budget *budget; /* its status is set when a callback lies */
    /* Runs along x: a box that continues a box of the cell before it in
     * the row (same extent on every other axis, meeting face to face) makes
     * that box longer instead of adding one, so a floor under a mover is a
     * box per row rather than a box per voxel. The union is the same solid,
     * which the slide treats as the touching boxes it is made of (rule 3);
     * only the number of voxel contacts drops. One mover tells them apart:
     * one without width on x on the face two boxes share, outside both but
     * inside their run; at its x (line_x) no run is joined. `prev` holds the obstacles
     * the cell before made or extended (how many: see voxel_take). */
    size_t *prev, *cur;
    size_t runs[2][SHOVE_VOXEL_MAX_BOXES];
} SHOVE_T(voxel_gathering);

/* Takes world box `o` of the cell after the one that made or extended
 * prev[0 .. *prev_n) into the gather when it touches the query box: it
 * extends the run it continues (taken off prev) or is appended; either way
 * it goes on cur. False only when the set cannot grow. Inlined into each
 * of voxel_take's loops: gcc otherwise calls it for every box of a cell. */
static SHOVE_HOT_INLINE bool SHOVE_IFN(voxel_keep)(SHOVE_T(voxel_gathering) * g,
                                                   const shove_aabb *o,
                                                   const int32_t cell[SHOVE_DIM], size_t *prev,
                                                   int *prev_n, size_t *cur, int *cur_n) {
    SHOVE_AXES_UNROLLED
    for (int a = 0; a < SHOVE_DIM; ++a) { /* left at the first axis it misses on */
        if (!(o->min.raw[a] <= g->q.max.raw[a] && g->q.min.raw[a] <= o->max.raw[a])) {
            return true;
        }
    }
    SHOVE_IFN(obstacle_set) *const out = g->out;
    for (int j = 0; g->merge && j < *prev_n; ++j) {
        const size_t k = prev[j];
        bool same = out->max[0][k] == o->min.raw[0] && o->min.raw[0] != g->line_x;
        SHOVE_AXES_UNROLLED
        for (int a = 1; a < SHOVE_DIM; ++a) {
            same = same && out->min[a][k] == o->min.raw[a] && out->max[a][k] == o->max.raw[a];
        }
        if (same) {
            out->max[0][k] = o->max.raw[0];
            cur[(*cur_n)++] = k;
            prev[j] = prev[--*prev_n]; /* a run continues once */
            return true;
        }
    }
    if (!SHOVE_IFN(obstacles_push_voxel)(out, *o, cell, g->flags)) {
        return false;
    }
    cur[(*cur_n)++] = out->count - 1u;
    return true;
}

/* Takes the `n` (non-zero: what the callback answered) local boxes of cell
 * `cell` into the gather, `prev_n` being g->prev's count for the cell before
 * (0 when that one was empty or the row starts here). Returns the count for
 * this cell, -1 when the set cannot grow, or when n is outside
 * 1 .. SHOVE_VOXEL_MAX_BOXES or a box breaks the callback's contract (then
 * g->budget->status says so). Kept out of line: most cells are empty, and
 * the walk over them stays small without it; the count is checked here, not
 * by a second call per cell. */
static VOXEL_NOINLINE int SHOVE_IFN(voxel_take)(SHOVE_T(voxel_gathering) * g,
                                                const int32_t cell[SHOVE_DIM],
                                                const shove_aabb *boxes, int n, int prev_n) {
    if (n < 0 || n > SHOVE_VOXEL_MAX_BOXES) {
        g->budget->status = SHOVE_ERR_INVALID_ARGUMENT;
        return -1;
    }
    size_t *const prev = g->prev, *const cur = g->cur;
    int cur_n = 0;
    if (g->mode == VOXEL_UNIT) {
        float cf[SHOVE_DIM];
        SHOVE_AXES_UNROLLED
        for (int a = 0; a < SHOVE_DIM; ++a) {
            cf[a] = (float)cell[a];
        }
        for (int i = 0; i < n; ++i) {
            shove_aabb o;
            if (!SHOVE_IFN(voxel_unit_box)(g->def, cf, &boxes[i], &o)) {
                g->budget->status = SHOVE_ERR_INVALID_ARGUMENT;
                return -1;
            }
            if (!SHOVE_IFN(voxel_keep)(g, &o, cell, prev, &prev_n, cur, &cur_n)) {
                return -1;
            }
        }
    } else {
        double cd[SHOVE_DIM];
        SHOVE_AXES_UNROLLED
        for (int a = 0; a < SHOVE_DIM; ++a) {
            cd[a] = (double)cell[a];
        }
        const bool finite = g->mode == VOXEL_FINITE;
        for (int i = 0; i < n; ++i) {
            shove_aabb o;
            if (!SHOVE_IFN(voxel_world_box)(g->def, cd, finite, &boxes[i], &o)) {
                if (!SHOVE_IFN(voxel_local_ok)(g->def, &boxes[i])) {
                    g->budget->status = SHOVE_ERR_INVALID_ARGUMENT;
                    return -1;
                }
                continue; /* beyond float range: nothing a float mover can reach */
            }
            if (!SHOVE_IFN(voxel_keep)(g, &o, cell, prev, &prev_n, cur, &cur_n)) {
                return -1;
            }
        }
    }
    g->prev = cur;
    g->cur = prev;
    return cur_n;
}

double SHOVE_IFN(voxel_piece_count)(const shove_voxel_def *def, shove_vec delta, double voxels) {
    double longest = 0.0;
    SHOVE_AXES_UNROLLED
    for (int a = 0; a < SHOVE_DIM; ++a) {
        const double d = fabs((double)delta.raw[a]);
        longest = d > longest ? d : longest;
    }
    const double n = ceil(longest / ((double)def->voxel_size * voxels));
    return n > 1.0 ? n : 1.0;
}

/* The pieces [*k_from, *k_to) of a walk of `pieces` pieces (the box
 * [lo, hi] swept by `delta`) that may meet cells of the solid range: where
 * the swept box comes within a voxel of the solid cells' shape bounds on
 * every bounded axis, and a piece more on either side. False when none
 * may. */
static bool SHOVE_IFN(voxel_path_span)(const shove_voxel_def *def, const double lo[SHOVE_DIM],
                                       const double hi[SHOVE_DIM], shove_vec delta, double pieces,
                                       double *k_from, double *k_to) {
    double t_from = 0.0, t_to = 1.0;
    SHOVE_AXES_UNROLLED
    for (int a = 0; a < SHOVE_DIM; ++a) {
        const int32_t smin = def->solid_min[a], smax = def->solid_max[a];
        if ((smin | smax) == 0) {
            continue;
        }
        const double o = def->origin.raw[a], s = def->voxel_size;
        const double wlo = o + s * ((double)smin + (double)def->shape_bounds.min.raw[a] - 1.0);
        const double whi = o + s * ((double)smax + (double)def->shape_bounds.max.raw[a] + 1.0);
        const double d = delta.raw[a];
        if (d == 0.0) {
            if (lo[a] > whi || hi[a] < wlo) {
                return false;
            }
            continue;
        }
        const double ta = (whi - lo[a]) / d, tb = (wlo - hi[a]) / d;
        const double enter = d > 0.0 ? tb : ta, leave = d > 0.0 ? ta : tb;
        t_from = enter > t_from ? enter : t_from;
        t_to = leave < t_to ? leave : t_to;
    }
    if (!(t_from <= t_to)) {
        return false;
    }
    const double first = floor(t_from * pieces) - 1.0, last = floor(t_to * pieces) + 2.0;
    *k_from = first > 0.0 ? first : 0.0;
    *k_to = last < pieces ? last : pieces;
    return *k_from < *k_to;
}

/* True when the box [lo, hi] lies within float precision: within
 * SHOVE_VOXEL_PRECISE_CELLS voxels of world zero. A walk from a box further
 * out could not place its pieces to a voxel. */
static bool SHOVE_IFN(voxel_start_precise)(const shove_voxel_def *def, const double lo[SHOVE_DIM],
                                           const double hi[SHOVE_DIM]) {
    const double far = SHOVE_VOXEL_PRECISE_CELLS * (double)def->voxel_size;
    SHOVE_AXES_UNROLLED
    for (int a = 0; a < SHOVE_DIM; ++a) {
        if (!(fabs(lo[a]) <= far && fabs(hi[a]) <= far)) {
            return false;
        }
    }
    return true;
}

/* A walk along a path (casts and tube gathers): box [lo, hi] (world units,
 * double) swept by `delta` in pieces of one voxel along the longest axis,
 * from piece `k` to `k_to`; `prev` is the range the piece before read. */
typedef struct SHOVE_T(voxel_walk) {
    double lo[SHOVE_DIM], hi[SHOVE_DIM];
    shove_vec delta;
    double pieces, k, k_to;
    double slack; /* rounding of sweep times near the start (see voxel_cast) */
    SHOVE_T(cell_range) prev;
    bool have_prev;
} SHOVE_T(voxel_walk);

/* Cells of `r` outside the range the walk's piece before read. */
static double SHOVE_IFN(voxel_fresh_count)(const SHOVE_T(voxel_walk) * wk,
                                           const SHOVE_T(cell_range) * r) {
    const double all = SHOVE_IFN(voxel_count)(r);
    if (!wk->have_prev) {
        return all;
    }
    double shared = 1.0;
    SHOVE_AXES_UNROLLED
    for (int a = 0; a < SHOVE_DIM; ++a) {
        const int32_t lo = r->lo[a] > wk->prev.lo[a] ? r->lo[a] : wk->prev.lo[a];
        const int32_t hi = r->hi[a] < wk->prev.hi[a] ? r->hi[a] : wk->prev.hi[a];
        shared *= lo <= hi ? (double)hi - (double)lo + 1.0 : 0.0;
    }
    return all - shared;
}

/* Sets up a walk; false when it reads nothing (the path never meets the
 * solid range) or must not start (budget->status set: a path from beyond
 * float precision into the solid range). */
static bool SHOVE_IFN(voxel_walk_start)(const shove_voxel_def *def, shove_aabb box, shove_vec delta,
                                        shove__voxel_budget *budget, SHOVE_T(voxel_walk) * wk) {
    SHOVE_AXES_UNROLLED
    for (int a = 0; a < SHOVE_DIM; ++a) {
        wk->lo[a] = box.min.raw[a];
        wk->hi[a] = box.max.raw[a];
    }
    wk->delta = delta;
    wk->pieces = SHOVE_IFN(voxel_piece_count)(def, delta, 1.0);
    double far = def->voxel_size, longest = 0.0;
    SHOVE_AXES_UNROLLED
    for (int a = 0; a < SHOVE_DIM; ++a) {
        far = fmax(far, fmax(fabs(wk->lo[a]), fabs(wk->hi[a])));
        longest = fmax(longest, fabs((double)delta.raw[a]));
    }
    wk->slack = longest > 0.0 ? VOXEL_CAST_SLACK * (far / longest) : 0.0;
    wk->have_prev = false;
    memset(&wk->prev, 0, sizeof wk->prev);
    if (!SHOVE_IFN(voxel_path_span)(def, wk->lo, wk->hi, delta, wk->pieces, &wk->k, &wk->k_to)) {
        return false;
    }
    if (!SHOVE_IFN(voxel_start_precise)(def, wk->lo, wk->hi)) {
        budget->status = SHOVE_ERR_OUT_OF_RANGE;
        return false;
    }
    return true;
}

/* The cells of the walk's next piece, spending a piece of `budget`: 1 with
 * `r` set, 0 when the piece has no cells (the walk goes on), -1 when the
 * walk must stop: the end, a piece starting after `stop`, or
 * budget->status set. */
static int SHOVE_IFN(voxel_walk_next)(const shove_voxel_def *def, SHOVE_T(voxel_walk) * wk,
                                      double stop, shove__voxel_budget *budget,
                                      SHOVE_T(cell_range) * r) {
    const double k = wk->k;
    const double t0 = k / wk->pieces;
    if (!(k < wk->k_to) || t0 > stop || !shove__voxel_spend(budget)) {
        return -1;
    }
    wk->k = k + 1.0;
    const double t1 = (k + 1.0) / wk->pieces;
    double lo[SHOVE_DIM], hi[SHOVE_DIM];
    SHOVE_AXES_UNROLLED
    for (int a = 0; a < SHOVE_DIM; ++a) {
        const double d = wk->delta.raw[a];
        const double s0 = d * t0, s1 = d * t1;
        lo[a] = wk->lo[a] + (s0 < s1 ? s0 : s1);
        hi[a] = wk->hi[a] + (s0 < s1 ? s1 : s0);
    }
    if (!SHOVE_IFN(voxel_cells_d)(def, lo, hi, r)) {
        wk->have_prev = false;
        return 0;
    }
    /* The piece reads the cells of r the piece before did not: a piece that
     * cannot afford them fails before it reads any (a huge box's first
     * piece costs nothing). */
    if (!SHOVE_IFN(voxel_precise)(def, r) ||
        !(SHOVE_IFN(voxel_fresh_count)(wk, r) <= (double)budget->left)) {
        budget->status = SHOVE_ERR_OUT_OF_RANGE;
        return -1;
    }
    return 1;
}

/* Moves `c` (a cell of `r`) on to the first cell at or after it, x fastest,
 * that lies outside `prev`; false when none is left. A cell inside `prev`
 * starts a block of cells that are all inside it, skipped at once: on the
 * leading axes that `prev` covers whole (at most SHOVE_DIM - 1 of them) to
 * the end of `r`, on the next axis to the end of `prev`. What follows such a
 * block is a cell outside `prev` or the start of a block on a later row,
 * which has cells outside `prev` of its own (the axis after the covered
 * ones is not covered whole), so the skips are bounded by the cells read,
 * not by the cells of `r`: a walk costs the cells it reads whatever the
 * size of the box it carries. The cells it stops at are those the plain
 * walk reads, in the same order. */
static bool SHOVE_IFN(voxel_skip_read)(const SHOVE_T(cell_range) * r,
                                       const SHOVE_T(cell_range) * prev, int32_t c[SHOVE_DIM]) {
    while (SHOVE_IFN(voxel_in_range)(prev, c)) {
        int a = 0;
        while (a < SHOVE_DIM - 1 && prev->lo[a] <= r->lo[a] && prev->hi[a] >= r->hi[a]) {
            c[a] = r->hi[a];
            ++a;
        }
        c[a] = prev->hi[a] < r->hi[a] ? prev->hi[a] : r->hi[a];
        if (!SHOVE_IFN(voxel_next_cell)(r, c)) {
            return false;
        }
    }
    return true;
}

/* The first cell of `r` a walk reads (into `c`): r's first one outside the
 * range the piece before read, when there is one. False when there is
 * none. */
static inline bool SHOVE_IFN(voxel_first_read)(const SHOVE_T(voxel_walk) * wk,
                                               const SHOVE_T(cell_range) * r,
                                               int32_t c[SHOVE_DIM]) {
    memcpy(c, r->lo, sizeof(int32_t) * SHOVE_DIM);
    return !wk->have_prev || SHOVE_IFN(voxel_skip_read)(r, &wk->prev, c);
}

/* The next cell of `r` after `c` a walk reads; false after the last. */
static inline bool SHOVE_IFN(voxel_next_read)(const SHOVE_T(voxel_walk) * wk,
                                              const SHOVE_T(cell_range) * r, int32_t c[SHOVE_DIM]) {
    return SHOVE_IFN(voxel_next_cell)(r, c) &&
           (!wk->have_prev || SHOVE_IFN(voxel_skip_read)(r, &wk->prev, c));
}

/* The tube gather (see voxel_gather): the cells along the path of the
 * query box, each read once, every box kept whole (no runs). */
static bool SHOVE_IFN(voxel_gather_tube)(SHOVE_T(voxel_gathering) * g, shove_aabb box,
                                         shove_vec delta, float margin) {
    const shove_voxel_def *def = g->def;
    shove__voxel_budget *budget = g->budget;
    SHOVE_T(voxel_walk) wk;
    if (!SHOVE_IFN(voxel_walk_start)(
            def, SHOVE_IFN(voxel_query)(box, shove_vec_splat(0.0f), margin), delta, budget, &wk)) {
        return budget->status == SHOVE_OK;
    }
    const bool unit = SHOVE_IFN(voxel_def_unit)(def);
    shove_aabb boxes[SHOVE_VOXEL_MAX_BOXES];
    SHOVE_T(cell_range) r;
    for (int got; (got = SHOVE_IFN(voxel_walk_next)(def, &wk, INFINITY, budget, &r)) >= 0;) {
        if (got == 0) {
            continue;
        }
        g->mode = SHOVE_IFN(voxel_mode)(def, unit, &r);
        int32_t c[SHOVE_DIM];
        for (bool more = SHOVE_IFN(voxel_first_read)(&wk, &r, c); more;
             more = SHOVE_IFN(voxel_next_read)(&wk, &r, c)) {
            if (!shove__voxel_spend(budget)) {
                return false;
            }
            const int n = SHOVE_IFN(voxel_call)(def->shapes, def->ctx, c, boxes);
            if (n != 0 && SHOVE_IFN(voxel_take)(g, c, boxes, n, 0) < 0) {
                return false;
            }
        }
        wk.prev = r;
        wk.have_prev = true;
    }
    return budget->status == SHOVE_OK;
}

bool SHOVE_IFN(voxel_gather)(const shove_voxel_def *def, shove_aabb box, shove_vec delta,
                             float margin, uint8_t flags, bool merge, float line_x, bool tube,
                             shove__voxel_budget *budget, SHOVE_IFN(obstacle_set) * out) {
    SHOVE_T(voxel_gathering) g;
    g.q = SHOVE_IFN(voxel_query)(box, delta, margin);
    g.def = def;
    g.flags = flags;
    g.merge = merge;
    g.line_x = line_x;
    g.out = out;
    g.budget = budget;
    g.prev = g.runs[0];
    g.cur = g.runs[1];
    if (tube) {
        return SHOVE_IFN(voxel_gather_tube)(&g, box, delta, margin);
    }
    SHOVE_T(cell_range) r;
    const bool unit = SHOVE_IFN(voxel_def_unit)(def);
    if (!SHOVE_IFN(voxel_cells_of)(def, unit, &g.q, &r)) {
        return true;
    }
    const shove_voxel_fn fn = def->shapes;
    void *const ctx = def->ctx;
    g.mode = SHOVE_IFN(voxel_mode)(def, unit, &r);
    /* The whole range is read: it must fit the budget and float precision
     * (VOXEL_UNIT ranges lie within 2^24 cells of cell 0 at origin 0). */
    const double cells = SHOVE_IFN(voxel_count)(&r);
    if (!(cells <= (double)budget->left) ||
        (g.mode != VOXEL_UNIT && !SHOVE_IFN(voxel_precise)(def, &r))) {
        budget->status = SHOVE_ERR_OUT_OF_RANGE;
        return false;
    }
    budget->left -= (uint64_t)cells;
    shove_aabb boxes[SHOVE_VOXEL_MAX_BOXES];
    /* Rows along x, x fastest, then the other axes in order. */
    int32_t c[SHOVE_DIM];
    memcpy(c, r.lo, sizeof c);
    for (;;) {
        int prev_n = 0; /* a new row */
        for (c[0] = r.lo[0];; ++c[0]) {
            const int n = SHOVE_IFN(voxel_call)(fn, ctx, c, boxes);
            if (n != 0) {
                prev_n = SHOVE_IFN(voxel_take)(&g, c, boxes, n, prev_n);
                if (prev_n < 0) {
                    return false;
                }
            } else {
                prev_n = 0;
            }
            if (c[0] == r.hi[0]) {
                break;
            }
        }
        if (!SHOVE_IFN(voxel_next_cell)(&r, c)) { /* c[0] is at the row's end: next row */
            return true;
        }
    }
}

/* >>cast -------------------------------------------------------------------- */

bool SHOVE_IFN(voxel_cast)(const shove_voxel_def *def, shove_aabb box, shove_vec delta,
                           const float *before, shove_hit *hit, SHOVE_T(seam_set) * seams,
                           shove__voxel_budget *budget) {
    SHOVE_T(voxel_walk) wk;
    if (!SHOVE_IFN(voxel_walk_start)(def, box, delta, budget, &wk)) {
        return false;
    }
    bool found = false;
    float best_t = before ? *before : INFINITY;
    SHOVE_T(sweep_detail) best;
    memset(&best, 0, sizeof best);
    shove_aabb boxes[SHOVE_VOXEL_MAX_BOXES];
    SHOVE_T(cell_range) r;
    for (;;) {
        /* Cells met from t0 on can only be hit at t >= t0: the walk stops at
         * the first piece that starts past the best hit (of the boxes or of
         * the seam set), give or take the rounding of sweep times (relative
         * to the hit, and to the start box's coordinates over the length of
         * the path). */
        const float seam_t = (seams && seams->found) ? seams->t : INFINITY;
        const double stop = (double)(best_t < seam_t ? best_t : seam_t);
        const int got = SHOVE_IFN(voxel_walk_next)(
            def, &wk, stop * (1.0 + VOXEL_CAST_SLACK) + wk.slack, budget, &r);
        if (got < 0) {
            break;
        }
        if (seams) {
            /* Boxes kept by the seam set whose window ended before this
             * piece cannot share one with the boxes read from here on. */
            const double t0 = (wk.k - 1.0) / wk.pieces;
            SHOVE_IFN(seam_forget_before)
            (seams, (float)(t0 * (1.0 - VOXEL_CAST_SLACK) - wk.slack));
        }
        if (got == 0) {
            continue;
        }
        int32_t c[SHOVE_DIM];
        for (bool more = SHOVE_IFN(voxel_first_read)(&wk, &r, c); more;
             more = SHOVE_IFN(voxel_next_read)(&wk, &r, c)) {
            if (!shove__voxel_spend(budget)) {
                return false;
            }
            const int n = SHOVE_IFN(voxel_read)(def, c, boxes);
            if (n < 0) {
                budget->status = SHOVE_ERR_INVALID_ARGUMENT;
                return false;
            }
            for (int i = 0; i < n; ++i) {
                if (seams) {
                    SHOVE_IFN(seam_add)(seams, boxes[i], 0u, best_t);
                }
                SHOVE_T(sweep_detail) d;
                if (!SHOVE_IFN(sweep_detail)(box, delta, boxes[i], &d)) {
                    continue;
                }
                const float t = d.t_enter > 0.0f ? d.t_enter : 0.0f;
                if (t < best_t) {
                    best_t = t;
                    best = d;
                    found = true;
                }
            }
        }
        wk.prev = r;
        wk.have_prev = true;
    }
    if (budget->status != SHOVE_OK) {
        return false;
    }
    if (found) {
        SHOVE_IFN(hit_from_detail)(&best, hit);
        hit->other = SHOVE_NULL_ID;
    }
    return found;
}

#undef VOXEL_CAST_SLACK
#undef VOXEL_NOINLINE
