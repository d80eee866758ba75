/*
 * kernels.h: the batch kernels behind shove2/3_overlap_batch and
 * shove2/3_sweep_batch, one table per instruction-set level. Internal.
 *
 * Every table computes the same bits: no FMA contraction, exact division
 * (never approximate reciprocals), and the same treatment of touching faces,
 * zero-size boxes, zero motion components and NaN as the scalar level.
 */
#ifndef SHOVE_SIMD_KERNELS_H
#define SHOVE_SIMD_KERNELS_H

#include <shove/shove.h>

typedef struct shove_kernel_table {
    size_t (*overlap2)(const shove2_soa *boxes, shove2_aabb query, uint32_t *out_indices);
    size_t (*overlap3)(const shove3_soa *boxes, shove3_aabb query, uint32_t *out_indices);
    bool (*sweep2)(const shove2_soa *boxes, shove2_aabb moving, vec2s delta, shove2_hit *hit,
                   uint32_t *hit_index);
    bool (*sweep3)(const shove3_soa *boxes, shove3_aabb moving, vec3s delta, shove3_hit *hit,
                   uint32_t *hit_index);
} shove_kernel_table;

/* Builds with SIMD carry a table per x86 level and NEON (SIMDe maps each onto
 * what the target has); SHOVE_HAVE_SIMD_KERNELS is set by the build. */
#ifndef SHOVE_HAVE_SIMD_KERNELS
#define SHOVE_HAVE_SIMD_KERNELS 0
#endif

extern const shove_kernel_table shove__kernels_scalar;
#if SHOVE_HAVE_SIMD_KERNELS
extern const shove_kernel_table shove__kernels_sse2;
extern const shove_kernel_table shove__kernels_sse41;
extern const shove_kernel_table shove__kernels_avx2;
extern const shove_kernel_table shove__kernels_neon;
#endif

/** The table of shove_simd_active(). */
const shove_kernel_table *shove__kernels(void);

#endif
