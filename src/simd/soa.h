/*
 * soa.h: reading one box out of a struct-of-arrays batch. Include after
 * dim.h; guards itself per dimension like geometry.h.
 */
#if (SHOVE_DIM == 2 && !defined(SHOVE_SOA2_H)) || (SHOVE_DIM == 3 && !defined(SHOVE_SOA3_H))
#if SHOVE_DIM == 2
#define SHOVE_SOA2_H
#else
#define SHOVE_SOA3_H
#endif

#include "geometry/geometry.h" /* SHOVE_AXES_UNROLLED */

/** Box i of a batch (no bounds check). */
static inline shove_aabb SHOVE_IFN(soa_box)(const shove_soa *boxes, size_t i) {
    shove_aabb b;
    SHOVE_AXES_UNROLLED
    for (int a = 0; a < SHOVE_DIM; ++a) {
        b.min.raw[a] = boxes->min[a][i];
        b.max.raw[a] = boxes->max[a][i];
    }
    return b;
}

/** The scalar level's overlap scan: the indices (ascending) of the boxes
 *  that strictly overlap `query` (false with NaN, as at every level).
 *  Inline, so a caller that scans a few boxes many times (the slide) pays
 *  no call through the kernel table. */
static inline size_t SHOVE_IFN(soa_overlap_scan)(const shove_soa *boxes, shove_aabb query,
                                                 uint32_t *out_indices) {
    /* Each box is left at its first axis that misses (most boxes miss early).
     * Written as a running `hit = hit && ...` over the axes, the same test
     * took gcc about 2% more instructions per voxel move (bench_voxel). */
    size_t n = 0;
    const size_t count = boxes->count;
    for (size_t i = 0; i < count; ++i) {
        bool hit = true;
        SHOVE_AXES_UNROLLED
        for (int a = 0; a < SHOVE_DIM; ++a) {
            if (!(boxes->min[a][i] < query.max.raw[a] && query.min.raw[a] < boxes->max[a][i])) {
                hit = false;
                break;
            }
        }
        if (hit) {
            out_indices[n++] = (uint32_t)i;
        }
    }
    return n;
}

#endif
