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

/** Box i of a batch (no bounds check). */
static inline shove_aabb SHOVE_IFN(soa_box)(const shove_soa *boxes, size_t i) {
    shove_aabb b;
    for (int a = 0; a < SHOVE_DIM; ++a) {
        b.min.raw[a] = boxes->min[a][i];
        b.max.raw[a] = boxes->max[a][i];
    }
    return b;
}

#endif
