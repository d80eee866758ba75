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

/** Boxes [first, count) of `boxes`: appends to out_indices, from position
 *  n on and in ascending order, the index of every box that touches
 *  `query` (min <= query.max and query.min <= max on every axis, faces
 *  included; never with NaN), and returns the new n. Clears *valid when one
 *  of the boxes is not a valid box (finite, min <= max); never sets it. */
static inline size_t SHOVE_IFN(list_scan_plain)(const shove_aabb *boxes, size_t first, size_t count,
                                                shove_aabb query, uint32_t *out_indices, size_t n,
                                                bool *valid) {
    int bad = 0;
    for (size_t i = first; i < count; ++i) {
        const shove_aabb *o = &boxes[i];
        int touches = 1, ok = 1;
        for (int a = 0; a < SHOVE_DIM; ++a) {
            const float lo = o->min.raw[a], hi = o->max.raw[a];
            /* lo >= -FLT_MAX, hi <= FLT_MAX and lo <= hi hold together
             * exactly for finite, ordered bounds (NaN fails them all). */
            ok &= (lo >= -FLT_MAX) & (hi <= FLT_MAX) & (lo <= hi);
            touches &= (lo <= query.max.raw[a]) & (query.min.raw[a] <= hi);
        }
        bad |= !ok;
        out_indices[n] = (uint32_t)i;
        n += (size_t)touches;
    }
    if (bad) {
        *valid = false;
    }
    return n;
}

#endif
