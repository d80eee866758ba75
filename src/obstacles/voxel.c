/*
 * voxel.c: voxels (tiles in 2D) as an obstacle source, its first half: the
 * voxel def, which cells a region needs, and reading and checking the
 * boxes of one cell. Gathers and casts, which read many cells for one
 * question, are voxel_walk.c. Template: see dim.h; how cells are chosen
 * and converted is described in voxel.h. The voxel code knows nothing of
 * worlds: the world move (world/move.h) gathers and casts through it, and
 * runs long moves over voxels in pieces (world/move_pieces.c).
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "obstacles/voxel.h"

/* >>defs -------------------------------------------------------------------- */

shove_voxel_def SHOVE_FN(default_voxel_def)(void) {
    shove_voxel_def def;
    memset(&def, 0, sizeof def);
    def.shapes = NULL;
    def.ctx = NULL;
    def.voxel_size = 1.0f;
    def.origin = shove_vec_splat(0.0f);
    def.shape_bounds.min = shove_vec_splat(0.0f);
    def.shape_bounds.max = shove_vec_splat(1.0f);
    /* Room for fences and walls 1.5 voxels tall. */
    def.shape_bounds.max.raw[1] = 1.5f;
    /* solid_min and solid_max stay 0: every cell may be solid. */
    def.max_cells = SHOVE_VOXEL_DEFAULT_MAX_CELLS;
    def.internal_literal_mark = SHOVE_DEF_LITERAL_MARK;
    return def;
}

const shove_voxel_def *SHOVE_IFN(voxel_def_resolve)(const shove_voxel_def *def,
                                                    shove_voxel_def *scratch) {
    if (def->internal_literal_mark == SHOVE_DEF_LITERAL_MARK) {
        return def;
    }
    if (!shove__def_mark_is_known(def->internal_literal_mark)) {
        return NULL;
    }
    *scratch = SHOVE_FN(default_voxel_def)();
    /* Every field of the def, in order: a zero one keeps its default. */
    SHOVE_DEF_TAKE(scratch, def, shapes);
    SHOVE_DEF_TAKE(scratch, def, ctx);
    SHOVE_DEF_TAKE(scratch, def, voxel_size);
    SHOVE_DEF_TAKE(scratch, def, origin);
    SHOVE_DEF_TAKE(scratch, def, shape_bounds);
    SHOVE_DEF_TAKE(scratch, def, solid_min);
    SHOVE_DEF_TAKE(scratch, def, solid_max);
    SHOVE_DEF_TAKE(scratch, def, max_cells);
    return scratch;
}

shove__voxel_budget SHOVE_IFN(voxel_budget)(const shove_voxel_def *def) {
    shove__voxel_budget b;
    b.left = def->max_cells ? def->max_cells : SHOVE_VOXEL_DEFAULT_MAX_CELLS;
    b.status = SHOVE_OK;
    return b;
}

bool SHOVE_IFN(voxel_def_is_valid)(const shove_voxel_def *def) {
    if (!def || !def->shapes || !isfinite(def->voxel_size) || !(def->voxel_size > 0.0f) ||
        !SHOVE_IFN(vec_is_finite)(def->origin) || !SHOVE_FN(aabb_is_valid)(def->shape_bounds)) {
        return false;
    }
    SHOVE_AXES_UNROLLED
    for (int a = 0; a < SHOVE_DIM; ++a) {
        if (def->shape_bounds.min.raw[a] < SHOVE_VOXEL_REACH_MIN ||
            def->shape_bounds.max.raw[a] > SHOVE_VOXEL_REACH_MAX ||
            def->solid_min[a] > def->solid_max[a]) {
            return false;
        }
    }
    return true;
}

/* >>cells ------------------------------------------------------------------- */

static inline uint32_t SHOVE_IFN(voxel_bits)(float x) {
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    return u;
}

/* True when the def has origin 0 (either sign) on every axis and size 1. */
static inline bool SHOVE_IFN(voxel_def_unit)(const shove_voxel_def *def) {
    uint32_t origin = 0u;
    SHOVE_AXES_UNROLLED
    for (int a = 0; a < SHOVE_DIM; ++a) {
        origin |= SHOVE_IFN(voxel_bits)(def->origin.raw[a]);
    }
    return SHOVE_IFN(voxel_bits)(def->voxel_size) == 0x3f800000u && (origin & 0x7fffffffu) == 0u;
}

/* Cells on one axis whose shape bounds touch [lo, hi] (world units, double)
 * are those from ceil(*first) to floor(*last). The range is widened by the
 * rounding a world box may have had on its way to float (a couple of float
 * steps at these magnitudes), so a box that touches a cell's boxes in float
 * arithmetic always gets that cell. */
static inline void SHOVE_IFN(voxel_axis_bounds)(const shove_voxel_def *def, int a, double lo,
                                                double hi, double *first, double *last) {
    const double o = def->origin.raw[a];
    const double s = def->voxel_size;
    const double mag = (fabs(lo) > fabs(hi) ? fabs(lo) : fabs(hi)) + fabs(o);
    const double tol = (mag * 0x1p-22) / s + 1e-9;
    *first = (lo - o) / s - tol - (double)def->shape_bounds.max.raw[a];
    *last = (hi - o) / s + tol - (double)def->shape_bounds.min.raw[a];
}

/* voxel_axis_bounds for origin 0 (either sign) and size 1: there lo - o is
 * lo (or +0 for lo = -0, which makes no difference once tol > 0 is taken
 * off), dividing by 1 and adding |o| = 0 change nothing: the same values
 * in fewer steps. */
static inline void SHOVE_IFN(voxel_axis_bounds_unit)(const shove_voxel_def *def, int a, double lo,
                                                     double hi, double *first, double *last) {
    const double mag = fabs(lo) > fabs(hi) ? fabs(lo) : fabs(hi);
    const double tol = mag * 0x1p-22 + 1e-9;
    *first = lo - tol - (double)def->shape_bounds.max.raw[a];
    *last = hi + tol - (double)def->shape_bounds.min.raw[a];
}

/* Cells ceil(first) .. floor(last), clamped to int32; false when none. */
static bool SHOVE_IFN(voxel_axis_round)(double first, double last, int32_t *out_lo,
                                        int32_t *out_hi) {
    first = ceil(first);
    last = floor(last);
    if (!(first <= last) || last < (double)INT32_MIN || first > (double)INT32_MAX) {
        return false;
    }
    *out_lo = first < (double)INT32_MIN ? INT32_MIN : (int32_t)first;
    *out_hi = last > (double)INT32_MAX ? INT32_MAX : (int32_t)last;
    return true;
}

/* The cells of one axis (see voxel_axis_bounds); `unit` when the def has
 * origin 0 and size 1 (voxel_def_unit). */
static inline bool SHOVE_IFN(voxel_axis_cells)(const shove_voxel_def *def, bool unit, int a,
                                               double lo, double hi, int32_t *out_lo,
                                               int32_t *out_hi) {
    double first, last;
    if (unit) {
        SHOVE_IFN(voxel_axis_bounds_unit)(def, a, lo, hi, &first, &last);
    } else {
        SHOVE_IFN(voxel_axis_bounds)(def, a, lo, hi, &first, &last);
    }
    /* The usual case, without ceil and floor: within 2^30 the truncation
     * toward zero is exact, and one comparison tells whether it is the
     * ceiling (floor) or one below (above) it. */
    if (fabs(first) <= 0x1p30 && fabs(last) <= 0x1p30) {
        int32_t f = (int32_t)first, l = (int32_t)last;
        f += (double)f < first;
        l -= (double)l > last;
        *out_lo = f;
        *out_hi = l;
        return f <= l;
    }
    return SHOVE_IFN(voxel_axis_round)(first, last, out_lo, out_hi);
}

/* Cells [*lo, *hi] of axis `a` cut to the def's solid range (an axis with
 * solid_min and solid_max both 0 has none); false when nothing is left. */
static inline bool SHOVE_IFN(voxel_solid)(const shove_voxel_def *def, int a, int32_t *lo,
                                          int32_t *hi) {
    const int32_t smin = def->solid_min[a], smax = def->solid_max[a];
    if ((smin | smax) != 0) {
        *lo = *lo < smin ? smin : *lo;
        *hi = *hi > smax ? smax : *hi;
    }
    return *lo <= *hi;
}

static bool SHOVE_IFN(voxel_cells_d)(const shove_voxel_def *def, const double lo[SHOVE_DIM],
                                     const double hi[SHOVE_DIM], SHOVE_T(cell_range) * out) {
    SHOVE_AXES_UNROLLED
    for (int a = 0; a < SHOVE_DIM; ++a) {
        if (!SHOVE_IFN(voxel_axis_cells)(def, false, a, lo[a], hi[a], &out->lo[a], &out->hi[a]) ||
            !SHOVE_IFN(voxel_solid)(def, a, &out->lo[a], &out->hi[a])) {
            return false;
        }
    }
    return true;
}

static inline bool SHOVE_IFN(voxel_cells_of)(const shove_voxel_def *def, bool unit,
                                             const shove_aabb *region, SHOVE_T(cell_range) * out) {
    SHOVE_AXES_UNROLLED
    for (int a = 0; a < SHOVE_DIM; ++a) {
        if (!SHOVE_IFN(voxel_axis_cells)(def, unit, a, region->min.raw[a], region->max.raw[a],
                                         &out->lo[a], &out->hi[a]) ||
            !SHOVE_IFN(voxel_solid)(def, a, &out->lo[a], &out->hi[a])) {
            return false;
        }
    }
    return true;
}

bool SHOVE_IFN(voxel_cells)(const shove_voxel_def *def, shove_aabb region,
                            SHOVE_T(cell_range) * out) {
    return SHOVE_IFN(voxel_cells_of)(def, SHOVE_IFN(voxel_def_unit)(def), &region, out);
}

bool SHOVE_IFN(voxel_cells_exact)(const shove_voxel_def *def, shove_aabb region,
                                  SHOVE_T(cell_range) * out) {
    SHOVE_AXES_UNROLLED
    for (int a = 0; a < SHOVE_DIM; ++a) {
        double first, last;
        SHOVE_IFN(voxel_axis_bounds)(def, a, region.min.raw[a], region.max.raw[a], &first, &last);
        if (!SHOVE_IFN(voxel_axis_round)(first, last, &out->lo[a], &out->hi[a]) ||
            !SHOVE_IFN(voxel_solid)(def, a, &out->lo[a], &out->hi[a])) {
            return false;
        }
    }
    return true;
}

/* Next cell of a range, x fastest; false after the last one. */
static inline bool SHOVE_IFN(voxel_next_cell)(const SHOVE_T(cell_range) * r, int32_t c[SHOVE_DIM]) {
    SHOVE_AXES_UNROLLED
    for (int a = 0; a < SHOVE_DIM; ++a) {
        if (c[a] < r->hi[a]) {
            ++c[a];
            return true;
        }
        c[a] = r->lo[a];
    }
    return false;
}

/* True when every cell of `r` lies within float precision: within
 * SHOVE_VOXEL_PRECISE_CELLS voxels of world zero on every axis (cell c lies
 * origin / size + c voxels from it). */
static bool SHOVE_IFN(voxel_precise)(const shove_voxel_def *def, const SHOVE_T(cell_range) * r) {
    SHOVE_AXES_UNROLLED
    for (int a = 0; a < SHOVE_DIM; ++a) {
        const double o = (double)def->origin.raw[a] / (double)def->voxel_size;
        const double lo = fabs(o + (double)r->lo[a]), hi = fabs(o + (double)r->hi[a] + 1.0);
        if (!((lo > hi ? lo : hi) <= SHOVE_VOXEL_PRECISE_CELLS)) {
            return false;
        }
    }
    return true;
}

/* Cells in `r` (a double: up to 2^96). */
static inline double SHOVE_IFN(voxel_count)(const SHOVE_T(cell_range) * r) {
    double n = 1.0;
    SHOVE_AXES_UNROLLED
    for (int a = 0; a < SHOVE_DIM; ++a) {
        n *= (double)r->hi[a] - (double)r->lo[a] + 1.0;
    }
    return n;
}

static inline bool SHOVE_IFN(voxel_in_range)(const SHOVE_T(cell_range) * r,
                                             const int32_t c[SHOVE_DIM]) {
    SHOVE_AXES_UNROLLED
    for (int a = 0; a < SHOVE_DIM; ++a) {
        if (c[a] < r->lo[a] || c[a] > r->hi[a]) {
            return false;
        }
    }
    return true;
}

/* >>reading ----------------------------------------------------------------- */

static inline int SHOVE_IFN(voxel_call)(shove_voxel_fn fn, void *ctx, const int32_t c[SHOVE_DIM],
                                        shove_aabb out[SHOVE_VOXEL_MAX_BOXES]) {
#if SHOVE_DIM == 3
    return fn(ctx, c[0], c[1], c[2], out);
#else
    return fn(ctx, c[0], c[1], out);
#endif
}

/* True when local box `b` is a valid box inside the shape bounds: what the
 * callback promised. */
static bool SHOVE_IFN(voxel_local_ok)(const shove_voxel_def *def, const shove_aabb *b) {
    bool ok = true;
    SHOVE_AXES_UNROLLED
    for (int a = 0; a < SHOVE_DIM; ++a) {
        ok = ok && def->shape_bounds.min.raw[a] <= b->min.raw[a] &&
             b->min.raw[a] <= b->max.raw[a] && b->max.raw[a] <= def->shape_bounds.max.raw[a];
    }
    return ok;
}

/* Local box `b` of the cell at `cell` (as doubles) in world units; false
 * when it is not a valid box inside the shape bounds (a lying callback).
 * With `finite` false it is also not valid when a world coordinate is
 * beyond float range; a caller that knows every cell it reads lies within
 * float range passes true. */
static inline bool SHOVE_IFN(voxel_world_box)(const shove_voxel_def *def,
                                              const double cell[SHOVE_DIM], bool finite,
                                              const shove_aabb *b, shove_aabb *w) {
    const double s = def->voxel_size;
    bool valid = true;
    SHOVE_AXES_UNROLLED
    for (int a = 0; a < SHOVE_DIM; ++a) {
        /* Inside the (finite) shape bounds and ordered: three tests, each
         * false for NaN. */
        const float lo = b->min.raw[a], hi = b->max.raw[a];
        valid = valid && def->shape_bounds.min.raw[a] <= lo && lo <= hi &&
                hi <= def->shape_bounds.max.raw[a];
        const double o = def->origin.raw[a];
        w->min.raw[a] = (float)(o + s * (cell[a] + (double)lo));
        w->max.raw[a] = (float)(o + s * (cell[a] + (double)hi));
        /* beyond float range: nothing a float mover can reach */
        valid = valid &&
                (finite || (fabsf(w->min.raw[a]) <= FLT_MAX && fabsf(w->max.raw[a]) <= FLT_MAX));
    }
    return valid;
}

/* voxel_world_box for a def with origin 0 (either sign) and size 1 and a
 * cell within 2^24 of cell 0 (`cell` as floats, all exact), in float: the
 * double conversion gives (float)((double)cell + (double)local) there
 * (0 + x is x, as x = cell + local is never -0, and 1 * x is x), and a sum
 * of two floats rounded to double and then to float is the sum rounded to
 * float (double has more than 2 * 24 + 2 bits), which is cell + local in
 * float. Such boxes always lie within float range. */
static inline bool SHOVE_IFN(voxel_unit_box)(const shove_voxel_def *def,
                                             const float cell[SHOVE_DIM], const shove_aabb *b,
                                             shove_aabb *w) {
    bool valid = true;
    SHOVE_AXES_UNROLLED
    for (int a = 0; a < SHOVE_DIM; ++a) {
        const float lo = b->min.raw[a], hi = b->max.raw[a];
        valid = valid && def->shape_bounds.min.raw[a] <= lo && lo <= hi &&
                hi <= def->shape_bounds.max.raw[a];
        w->min.raw[a] = cell[a] + lo;
        w->max.raw[a] = cell[a] + hi;
    }
    return valid;
}

/* How a gather converts the boxes of the cells of a range (once for both
 * dimensions). */
#ifndef SHOVE_VOXEL_MODES_
#define SHOVE_VOXEL_MODES_
enum {
    VOXEL_CHECKED, /* voxel_world_box, each box checked for float range */
    VOXEL_FINITE,  /* voxel_world_box, no box can leave float range */
    VOXEL_UNIT     /* voxel_unit_box */
};
#endif

/* The conversion for the cells of `r` (`unit`: voxel_def_unit):
 *   - VOXEL_UNIT for origin 0 and size 1 with every cell within 2^24 of
 *     cell 0 (tested a little tighter, c + 2^24 in [0, 2^25) for every
 *     bound c at once);
 *   - else VOXEL_FINITE when no box can leave float range: with |origin|
 *     <= 2^120 and size <= 2^90 on every axis, a world coordinate
 *     origin + size * (cell + local) has magnitude at most
 *     2^120 + 2^90 * (2^31 + 2), under 2^123 even after rounding, far from
 *     FLT_MAX (about 2^128); every conversion step rounds monotonically, so
 *     that bound holds for the computed values too. */
static inline int SHOVE_IFN(voxel_mode)(const shove_voxel_def *def, bool unit,
                                        const SHOVE_T(cell_range) * r) {
    uint32_t cells = 0u;
    SHOVE_AXES_UNROLLED
    for (int a = 0; a < SHOVE_DIM; ++a) {
        cells |= ((uint32_t)r->lo[a] + (1u << 24)) | ((uint32_t)r->hi[a] + (1u << 24));
    }
    if (unit && cells < (1u << 25)) {
        return VOXEL_UNIT;
    }
    bool near = SHOVE_IFN(voxel_bits)(def->voxel_size) <= 0x6c800000u; /* 2^90 */
    SHOVE_AXES_UNROLLED
    for (int a = 0; a < SHOVE_DIM; ++a) {
        near = near && fabsf(def->origin.raw[a]) <= 0x1p120f;
    }
    return near ? VOXEL_FINITE : VOXEL_CHECKED;
}

int SHOVE_IFN(voxel_read)(const shove_voxel_def *def, const int32_t cell[SHOVE_DIM],
                          shove_aabb out[SHOVE_VOXEL_MAX_BOXES]) {
    shove_aabb local[SHOVE_VOXEL_MAX_BOXES];
    const int n = SHOVE_IFN(voxel_call)(def->shapes, def->ctx, cell, local);
    if (n < 0 || n > SHOVE_VOXEL_MAX_BOXES) {
        return -1;
    }
    double c[SHOVE_DIM];
    SHOVE_AXES_UNROLLED
    for (int a = 0; a < SHOVE_DIM; ++a) {
        c[a] = (double)cell[a];
    }
    int kept = 0;
    for (int i = 0; i < n; ++i) {
        shove_aabb w;
        if (SHOVE_IFN(voxel_world_box)(def, c, false, &local[i], &w)) {
            out[kept++] = w;
        } else if (!SHOVE_IFN(voxel_local_ok)(def, &local[i])) {
            return -1;
        }
        /* else beyond float range: nothing a float mover can reach */
    }
    return kept;
}

/* >>short moves ------------------------------------------------------------- */

bool SHOVE_IFN(voxel_move_is_short)(const shove_voxel_def *def, shove_aabb box, shove_vec delta) {
    /* In float, with 4 * size finite: the difference may round down by a
     * relative 2^-24, so the swept box covers at most about
     * (4 + 3 + 2)^DIM cells, shape bounds spanning at most 3. */
    const shove_aabb hull = SHOVE_IFN(swept_bounds)(box, delta);
    const float four = 4.0f * def->voxel_size;
    bool short_sides = four <= FLT_MAX;
    SHOVE_AXES_UNROLLED
    for (int a = 0; a < SHOVE_DIM; ++a) {
        short_sides = short_sides && hull.max.raw[a] - hull.min.raw[a] <= four;
    }
    return short_sides;
}
