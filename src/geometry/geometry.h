/*
 * geometry.h: library-internal geometry shared by the templates. Include
 * after dim.h. The functions here skip input validation: callers have
 * checked their boxes and motions already.
 */
#ifndef SHOVE_GEOMETRY_COMMON_
#define SHOVE_GEOMETRY_COMMON_
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "simd/lanes4.h"

/* Before a loop over the axes of a small helper on the move path: gcc at
 * -O2 keeps some of those loops rolled, with a counter and the box in
 * memory. */
#if defined(__GNUC__) || defined(__clang__)
#define SHOVE_AXES_UNROLLED _Pragma("GCC unroll 4")
#else
#define SHOVE_AXES_UNROLLED
#endif

/* Puts a helper's body in its hottest caller even where the compiler would
 * not (a helper that also has other callers, or is called in a loop). */
#if defined(__GNUC__) || defined(__clang__)
#define SHOVE_HOT_INLINE __attribute__((always_inline)) inline
#else
#define SHOVE_HOT_INLINE inline
#endif

/** nextafterf(x, INFINITY), inline: the next float above x (the smallest
 *  subnormal above zero of either sign; +inf and NaN unchanged). The libm
 *  call costs more than the rest of a box computation on the move path.
 *  Integer steps on the bits: a float's bits, read as sign and magnitude,
 *  are ordered like the floats, so the next float away from zero is one
 *  step up of the magnitude and the next one toward zero one step down
 *  (-0 counts as +0; -inf steps to -FLT_MAX). Checked against nextafterf
 *  for every float. */
static inline float shove__next_up(float x) {
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    if ((u & 0x7fffffffu) >= 0x7f800000u && u != 0xff800000u) {
        return x; /* NaN or +inf */
    }
    u = (u << 1 == 0u) ? 0u : u; /* -0 as +0 */
    u += 1u - ((u >> 31) << 1);  /* magnitude up when x >= 0, down when x < 0 */
    memcpy(&x, &u, sizeof x);
    return x;
}

/** nextafterf(x, -INFINITY), inline: the next float below x (the mirror of
 *  shove__next_up). */
static inline float shove__next_down(float x) {
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    if ((u & 0x7fffffffu) >= 0x7f800000u && u != 0x7f800000u) {
        return x; /* NaN or -inf */
    }
    u = (u << 1 == 0u) ? 0x80000000u : u; /* +0 as -0 */
    u += ((u >> 31) << 1) - 1u;           /* magnitude up when x <= 0, down when x > 0 */
    memcpy(&x, &u, sizeof x);
    return x;
}

/** shove__next_up for x that is neither NaN nor +inf (the coordinates of
 *  validated boxes and sums of them): the same bits, in a third of the
 *  instructions, which matters where a move takes it dozens of times. */
static inline float shove__next_up_finite(float x) {
    x += 0.0f; /* -0 + 0 is +0: the one float that needs care */
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    u += 1u - ((u >> 31) << 1);
    memcpy(&x, &u, sizeof x);
    return x;
}

/** shove__next_down for x that is neither NaN nor -inf (negation is exact). */
static inline float shove__next_down_finite(float x) {
    return -shove__next_up_finite(-x);
}

#endif

#if (SHOVE_DIM == 2 && !defined(SHOVE_GEOMETRY2_H)) ||                                             \
    (SHOVE_DIM == 3 && !defined(SHOVE_GEOMETRY3_H))
#if SHOVE_DIM == 2
#define SHOVE_GEOMETRY2_H
#else
#define SHOVE_GEOMETRY3_H
#endif

/** Everything the slab sweep knows about one pair. */
typedef struct SHOVE_T(sweep_detail) {
    float t_enter;      /**< start of the open interval of overlap (may be < 0 or -inf) */
    float t_exit;       /**< end of the open interval of overlap (may be > 1 or +inf) */
    int axis;           /**< axis of the face crossed at t_enter (or the exit axis, see below) */
    float sign;         /**< +1 or -1: the normal is sign * unit(axis) */
    unsigned tied_axes; /**< bit a set for every axis entered exactly at t_enter */
} SHOVE_T(sweep_detail);

/** Slab sweep without validation. Returns true when the boxes overlap for
 *  some t in [0, 1] (see shove3_sweep_aabb). On true, `out` is filled; when
 *  t_enter < 0 (started inside), axis / sign name the cheapest way out. */
bool SHOVE_IFN(sweep_detail)(shove_aabb moving, shove_vec delta, shove_aabb target,
                             SHOVE_T(sweep_detail) * out);

/* sweep_detail (inside: true) or sweep_entry (false), inline.
 * How it works: the mover overlaps the target on axis i while
 *     moving.max + t*d > target.min   and   moving.min + t*d < target.max,
 * an open interval of t. With d == 0 it is all of t or nothing. The boxes
 * overlap on the intersection of the axes' intervals; strict inequalities
 * are what make touching faces, edges and corners non-hits. */
static inline bool SHOVE_IFN(sweep_inline)(shove_aabb moving, shove_vec delta, shove_aabb target,
                                           SHOVE_T(sweep_detail) * out, bool inside) {
    float lo[SHOVE_DIM];
    float t_in = -INFINITY;
    float t_out = INFINITY;
    SHOVE_AXES_UNROLLED
    for (int i = 0; i < SHOVE_DIM; ++i) {
        const float d = delta.raw[i];
        const float gap_lo = target.min.raw[i] - moving.max.raw[i]; /* < 0 once past it */
        const float gap_hi = target.max.raw[i] - moving.min.raw[i]; /* > 0 while before it */
        float a, b;
        if (d > 0.0f) {
            a = gap_lo / d;
            b = gap_hi / d;
        } else if (d < 0.0f) {
            a = gap_hi / d;
            b = gap_lo / d;
        } else {
            if (!(gap_lo < 0.0f && gap_hi > 0.0f)) {
                return false;
            }
            a = -INFINITY;
            b = INFINITY;
        }
        lo[i] = a;
        t_in = (a > t_in) ? a : t_in;
        t_out = (b < t_out) ? b : t_out;
    }
    if (!(t_in < t_out && t_in < 1.0f && t_out > 0.0f)) {
        return false;
    }
    if (!inside && !(t_in >= 0.0f)) {
        return false;
    }
    out->t_enter = t_in;
    out->t_exit = t_out;
    out->tied_axes = 0u;
    if (t_in >= 0.0f) {
        /* Entering axis; an exact corner hit names the axis with the smaller
         * motion component (see the public header for why). */
        int axis = -1;
        SHOVE_AXES_UNROLLED
        for (int i = 0; i < SHOVE_DIM; ++i) {
            if (lo[i] == t_in) {
                out->tied_axes |= 1u << i;
                if (axis < 0 || fabsf(delta.raw[i]) < fabsf(delta.raw[axis])) {
                    axis = i;
                }
            }
        }
        out->axis = axis;
        out->sign = (delta.raw[axis] > 0.0f) ? -1.0f : 1.0f;
    } else {
        /* Started inside: the cheapest way out. */
        int axis = 0;
        float sign = 1.0f;
        float best = INFINITY;
        for (int i = 0; i < SHOVE_DIM; ++i) {
            const float push_down = moving.max.raw[i] - target.min.raw[i];
            const float push_up = target.max.raw[i] - moving.min.raw[i];
            if (push_down < best) {
                best = push_down;
                axis = i;
                sign = -1.0f;
            }
            if (push_up < best) {
                best = push_up;
                axis = i;
                sign = 1.0f;
            }
        }
        out->axis = axis;
        out->sign = sign;
    }
    return true;
}

/** sweep_detail, inline, for the loops that sweep against every candidate
 *  of a move. */
static inline bool SHOVE_IFN(sweep_detail_inline)(shove_aabb moving, shove_vec delta,
                                                  shove_aabb target, SHOVE_T(sweep_detail) * out) {
    return SHOVE_IFN(sweep_inline)(moving, delta, target, out, true);
}

/** Whether the sweep enters `target` at some t in [0, 1] (sweep_detail is
 *  true with t_enter >= 0), filling `out` only then: a box the mover starts
 *  inside gives false without the search for its way out. */
static inline bool SHOVE_IFN(sweep_entry_inline)(shove_aabb moving, shove_vec delta,
                                                 shove_aabb target, SHOVE_T(sweep_detail) * out) {
    return SHOVE_IFN(sweep_inline)(moving, delta, target, out, false);
}

/** Turn a detail into the public hit (t clamped to [0, 1], normal, flags). */
void SHOVE_IFN(hit_from_detail)(const SHOVE_T(sweep_detail) * d, shove_hit *hit);

/** True when every component is finite. */
bool SHOVE_IFN(vec_is_finite)(shove_vec v);

/** shove3_aabb_is_valid, inline: finite bounds, min <= max on every axis.
 *  A float is finite exactly when -FLT_MAX <= x <= FLT_MAX (NaN fails
 *  every comparison), so the test is one chain per axis, without branches. */
static inline bool SHOVE_IFN(box_is_valid)(shove_aabb b) {
    bool ok = true;
    SHOVE_AXES_UNROLLED
    for (int a = 0; a < SHOVE_DIM; ++a) {
        ok &=
            (-FLT_MAX <= b.min.raw[a]) & (b.min.raw[a] <= b.max.raw[a]) & (b.max.raw[a] <= FLT_MAX);
    }
    return ok;
}

/** `b` moved by `d` (each face rounded once). */
static inline shove_aabb SHOVE_IFN(box_moved)(shove_aabb b, shove_vec d) {
    SHOVE_AXES_UNROLLED
    for (int a = 0; a < SHOVE_DIM; ++a) {
        b.min.raw[a] += d.raw[a];
        b.max.raw[a] += d.raw[a];
    }
    return b;
}

/** The box covering `b` and `b` moved by `d`, exactly as rounded (callers
 *  that need rounded positions along the way inside push it out). */
static inline shove_aabb SHOVE_IFN(swept_bounds)(shove_aabb b, shove_vec d) {
    SHOVE_AXES_UNROLLED
    for (int a = 0; a < SHOVE_DIM; ++a) {
        const float lo = b.min.raw[a] + d.raw[a];
        const float hi = b.max.raw[a] + d.raw[a];
        b.min.raw[a] = lo < b.min.raw[a] ? lo : b.min.raw[a];
        b.max.raw[a] = hi > b.max.raw[a] ? hi : b.max.raw[a];
    }
    return b;
}

/** The axes of `v` in lanes 0 .. SHOVE_DIM - 1, zero in the others. */
static inline shove__f4 SHOVE_IFN(vec_lanes)(shove_vec v) {
#if SHOVE_DIM == 2
    return shove__f4_set(v.raw[0], v.raw[1], 0.0f, 0.0f);
#else
    return shove__f4_set(v.raw[0], v.raw[1], v.raw[2], 0.0f);
#endif
}

/** The query box of a gather: `b` swept by `d` (swept_bounds), every max
 *  taken one float step up (when `step_first`), grown by `margin` and
 *  taken one float step up again; every min the mirror image. All axes at
 *  once: the minimum is computed negated (next_down(x) is -next_up(-x),
 *  and rounding is symmetric; where min - margin is +0, -min + margin is
 *  +0 as well, and both step to the same -denormal). */
static inline shove_aabb SHOVE_IFN(swept_region)(shove_aabb b, shove_vec d, float margin,
                                                 bool step_first) {
    shove__f4 lo = SHOVE_IFN(vec_lanes)(b.min), hi = SHOVE_IFN(vec_lanes)(b.max);
    const shove__f4 dv = SHOVE_IFN(vec_lanes)(d);
    /* swept_bounds: the end where it lies further out */
    const shove__f4 lo_end = shove__f4_add(lo, dv), hi_end = shove__f4_add(hi, dv);
    lo = shove__f4_select(shove__f4_lt(lo_end, lo), lo_end, lo);
    hi = shove__f4_select(shove__f4_gt(hi_end, hi), hi_end, hi);
    lo = shove__f4_neg(lo);
    if (step_first) {
        lo = shove__f4_next_up(lo);
        hi = shove__f4_next_up(hi);
    }
    const shove__f4 m = shove__f4_splat(margin);
    lo = shove__f4_neg(shove__f4_next_up(shove__f4_add(lo, m)));
    hi = shove__f4_next_up(shove__f4_add(hi, m));
    float lo_out[4], hi_out[4];
    shove__f4_store(lo_out, lo);
    shove__f4_store(hi_out, hi);
    shove_aabb q;
    for (int a = 0; a < SHOVE_DIM; ++a) {
        q.min.raw[a] = lo_out[a];
        q.max.raw[a] = hi_out[a];
    }
    return q;
}

/* >>seams: casts along shared faces -------------------------------------- */

/** Boxes a cast along a face plane remembers at once (see seam_set). */
#define SHOVE_SEAM_CAPACITY 64
/** Combinations a seam_add tries at most (only casts flat on two or more
 *  axes can reach it: four boxes meeting along an edge). */
#define SHOVE_SEAM_COMBOS 4096

/** One box a cast touches along its plane (see seam_set). */
typedef struct SHOVE_T(seam_entry) {
    shove_aabb box;
    float t_in, t_out; /**< open window of overlap on the axes off the plane */
    uint32_t tag;      /**< the caller's name for the box (0: none) */
    uint8_t sectors;   /**< bit s: the box covers sector s around the plane */
} SHOVE_T(seam_entry);

/** The union rule of casts. Boxes overlap strictly, so a cast that is flat
 *  (zero extent) on an axis and does not move on it, lying exactly on a
 *  face plane there, never overlaps a box on either side of that plane,
 *  though the union of two boxes sharing that face is solid right across
 *  it: a ray along the seam of two stacked voxels. Such axes are the cast's
 *  planes (k of them, at most SHOVE_DIM); around the cast they cut space
 *  into 2^k sectors (bit j of a sector number: the + side of plane j). A
 *  box that touches a plane from one side, or straddles it, covers the
 *  sectors on its sides. The cast hits a set of boxes that together cover
 *  every sector when it enters, on the other axes, the interior of what
 *  they share there: that is where the union of the boxes is solid around
 *  the cast. The hit is the sweep (sweep_detail) against that shared box,
 *  extended across the planes. One box that straddles every plane is an
 *  ordinary hit and is not kept here. */
typedef struct SHOVE_T(seam_set) {
    shove_aabb box;
    shove_vec delta;
    unsigned planes; /**< bit a: axis a is a plane of the cast */
    int plane_count;
    int plane_axis[SHOVE_DIM];
    bool found;                   /**< a hit through a shared face */
    float t;                      /**< its t (clamped to >= 0) */
    SHOVE_T(sweep_detail) detail; /**< its sweep */
    uint32_t tag;                 /**< the lowest nonzero tag among its boxes (0: none) */
    int count;
    SHOVE_T(seam_entry) entry[SHOVE_SEAM_CAPACITY];
} SHOVE_T(seam_set);

/** Start a seam set for `box` cast by `delta` (both valid). Returns false
 *  when the cast has no plane: then every hit is an ordinary one and the
 *  set must not be used. */
bool SHOVE_IFN(seam_begin)(SHOVE_T(seam_set) * s, shove_aabb box, shove_vec delta);

/** Offer a box (valid) to the set: one that touches a plane of the cast
 *  along its path is combined with the boxes kept before (a hit before
 *  `before` and before the set's own hit improves it) and kept. When the
 *  set is full, the box entered latest is dropped. */
void SHOVE_IFN(seam_add)(SHOVE_T(seam_set) * s, shove_aabb b, uint32_t tag, float before);

/** Forget the boxes whose window ends before `t`: a walk that finds boxes
 *  in order of t (a voxel cast) calls it as it goes, since those boxes can
 *  no longer share a window with a box found later. */
void SHOVE_IFN(seam_forget_before)(SHOVE_T(seam_set) * s, float t);

/** True when `inner` lies inside `outer` (faces may coincide). */
static inline bool SHOVE_IFN(contains_unchecked)(shove_aabb outer, shove_aabb inner) {
    SHOVE_AXES_UNROLLED
    for (int a = 0; a < SHOVE_DIM; ++a) {
        if (!(outer.min.raw[a] <= inner.min.raw[a] && inner.max.raw[a] <= outer.max.raw[a])) {
            return false;
        }
    }
    return true;
}

/** Strict overlap of two boxes known to be valid. */
static inline bool SHOVE_IFN(overlaps_unchecked)(shove_aabb a, shove_aabb b) {
    SHOVE_AXES_UNROLLED
    for (int i = 0; i < SHOVE_DIM; ++i) {
        if (!(a.min.raw[i] < b.max.raw[i] && b.min.raw[i] < a.max.raw[i])) {
            return false;
        }
    }
    return true;
}

#endif
