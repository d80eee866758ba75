/*
 * list_scan.h: the plain C scan of a list of boxes (an array of
 * shove_aabb, as shove3_slide takes it): which boxes touch a query box, and
 * whether every box is valid. The scalar level's list kernel is this scan;
 * the wide levels (kernels_wide.inc) run it on the few boxes their blocks
 * leave over. Include after dim.h; guards itself per dimension like
 * geometry.h.
 */
#if (SHOVE_DIM == 2 && !defined(SHOVE_LIST_SCAN2_H)) ||                                            \
    (SHOVE_DIM == 3 && !defined(SHOVE_LIST_SCAN3_H))
#if SHOVE_DIM == 2
#define SHOVE_LIST_SCAN2_H
#else
#define SHOVE_LIST_SCAN3_H
#endif

#include <float.h>

#include "geometry/geometry.h" /* vec_lanes, and through it lanes4.h */

/** Boxes [first, count) of `boxes`: appends to out_indices, from position
 *  n on and in ascending order, the index of every box that touches
 *  `query` (min <= query.max and query.min <= max on every axis, faces
 *  included; never with NaN), and returns the new n. Clears *valid when one
 *  of the boxes is not a valid box (finite, min <= max); never sets it.
 *
 *  With SIMDe's lanes (lanes4.h) a box's axes are compared at once (the
 *  lanes past SHOVE_DIM hold 0 in the box and the query, and pass every
 *  test). Written one comparison at a time, gcc compiled this loop well at
 *  -O2 (pairing the axes itself) but at -O3 into a chain of byte compares
 *  that waited on the box before: the scalar level's scan of a list took
 *  twice as long in a Release build. Without SIMDe (a build without the
 *  SIMD kernels) the comparisons stay one at a time, which the plain C
 *  lanes made slower there. */
static inline size_t SHOVE_IFN(list_scan_plain)(const shove_aabb *boxes, size_t first, size_t count,
                                                shove_aabb query, uint32_t *out_indices, size_t n,
                                                bool *valid) {
    unsigned bad = 0u;
#if SHOVE_LANES4_SIMDE
    const shove__f4 qmin = SHOVE_IFN(vec_lanes)(query.min), qmax = SHOVE_IFN(vec_lanes)(query.max);
    /* lo >= -FLT_MAX, hi <= FLT_MAX and lo <= hi hold together exactly for
     * finite, ordered bounds (NaN fails them all) */
    const shove__f4 lowest = shove__f4_splat(-FLT_MAX), highest = shove__f4_splat(FLT_MAX);
    for (size_t i = first; i < count; ++i) {
        const shove__f4 lo = SHOVE_IFN(vec_lanes)(boxes[i].min);
        const shove__f4 hi = SHOVE_IFN(vec_lanes)(boxes[i].max);
        const shove__m4 ok =
            shove__m4_and(shove__m4_and(shove__f4_le(lowest, lo), shove__f4_le(hi, highest)),
                          shove__f4_le(lo, hi));
        const shove__m4 touches = shove__m4_and(shove__f4_le(lo, qmax), shove__f4_le(qmin, hi));
        bad |= shove__m4_bits(ok) ^ 0xFu;
        out_indices[n] = (uint32_t)i;
        n += shove__m4_bits(touches) == 0xFu;
    }
#else
    for (size_t i = first; i < count; ++i) {
        const shove_aabb *o = &boxes[i];
        unsigned touches = 1u, ok = 1u;
        for (int a = 0; a < SHOVE_DIM; ++a) {
            const float lo = o->min.raw[a], hi = o->max.raw[a];
            /* as above, one axis at a time */
            ok &= (lo >= -FLT_MAX) & (hi <= FLT_MAX) & (lo <= hi);
            touches &= (lo <= query.max.raw[a]) & (query.min.raw[a] <= hi);
        }
        bad |= !ok;
        out_indices[n] = (uint32_t)i;
        n += (size_t)touches;
    }
#endif
    if (bad) {
        *valid = false;
    }
    return n;
}

#endif
