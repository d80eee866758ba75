/*
 * batch.c: the public batch functions and the scalar kernels. Template:
 * see dim.h. The scalar kernels are the reference every SIMD level matches
 * bit for bit.
 */
#include <float.h>
#include <math.h>

#include "geometry/geometry.h"
#include "kernels.h" /* SHOVE_HAVE_SIMD_KERNELS: 0 unless the build sets it */
#if SHOVE_HAVE_SIMD_KERNELS
#include <simde/x86/sse2.h>
#include <string.h>
#endif
#include "list_scan.h"
#include "soa.h"

#if SHOVE_DIM == 2
#define KERNEL_OVERLAP overlap2
#define KERNEL_SWEEP   sweep2
#else
#define KERNEL_OVERLAP overlap3
#define KERNEL_SWEEP   sweep3
#endif

size_t SHOVE_IFN(overlap_batch_scalar)(const shove_soa *boxes, shove_aabb query,
                                       uint32_t *out_indices) {
    return SHOVE_IFN(soa_overlap_scan)(boxes, query, out_indices);
}

bool SHOVE_IFN(sweep_batch_scalar)(const shove_soa *boxes, shove_aabb moving, shove_vec delta,
                                   shove_hit *hit, uint32_t *hit_index) {
    bool found = false;
    float best_t = INFINITY;
    SHOVE_T(sweep_detail) best;
    uint32_t best_index = 0;
    for (size_t i = 0; i < boxes->count; ++i) {
        SHOVE_T(sweep_detail) d;
        if (!SHOVE_IFN(sweep_detail)(moving, delta, SHOVE_IFN(soa_box)(boxes, i), &d)) {
            continue;
        }
        const float t = (d.t_enter > 0.0f) ? d.t_enter : 0.0f;
        if (t < best_t) {
            best_t = t;
            best = d;
            best_index = (uint32_t)i;
            found = true;
        }
    }
    if (found) {
        if (hit) {
            SHOVE_IFN(hit_from_detail)(&best, hit);
        }
        if (hit_index) {
            *hit_index = best_index;
        }
    }
    return found;
}

size_t SHOVE_IFN(list_scan_scalar)(const shove_aabb *boxes, size_t count, shove_aabb query,
                                   uint32_t *out_indices, bool *valid) {
    return SHOVE_IFN(list_scan_plain)(boxes, 0, count, query, out_indices, 0, valid);
}

/* The checks of the public entries, inline: at a few dozen boxes a batch
 * takes only tens of nanoseconds, and calls to the general validators cost a
 * noticeable part of that. The pointer tests stay branches: each is one
 * fused compare-and-jump, fewer operations than combining flags. */
static inline bool SHOVE_IFN(soa_is_valid)(const shove_soa *boxes) {
    if (!boxes) {
        return false;
    }
    if (boxes->count == 0) {
        return true;
    }
    if (boxes->count > UINT32_MAX) {
        return false;
    }
    for (int a = 0; a < SHOVE_DIM; ++a) {
        if (!boxes->min[a] || !boxes->max[a]) {
            return false;
        }
    }
    return true;
}

/* aabb_is_valid: a float is finite exactly when -FLT_MAX <= x <= FLT_MAX
 * (NaN fails both), so "both finite and min <= max" is the chain
 * -FLT_MAX <= min <= max <= FLT_MAX, tested on every axis at once where
 * SIMDe is at hand (lanes past SHOVE_DIM hold 0, which passes). */
static inline bool SHOVE_IFN(batch_aabb_is_valid)(shove_aabb box) {
#if SHOVE_HAVE_SIMD_KERNELS
#if SHOVE_DIM == 2
    /* Each corner is 8 bytes: one 64-bit lane, the upper lanes zero. */
    double lo, hi;
    memcpy(&lo, &box.min, sizeof lo);
    memcpy(&hi, &box.max, sizeof hi);
    const simde__m128 mn = simde_mm_castpd_ps(simde_mm_set_sd(lo));
    const simde__m128 mx = simde_mm_castpd_ps(simde_mm_set_sd(hi));
#else
    const simde__m128 mn = simde_mm_setr_ps(box.min.raw[0], box.min.raw[1], box.min.raw[2], 0.0f);
    const simde__m128 mx = simde_mm_setr_ps(box.max.raw[0], box.max.raw[1], box.max.raw[2], 0.0f);
#endif
    const simde__m128 ok =
        simde_mm_and_ps(simde_mm_cmple_ps(mn, mx),
                        simde_mm_and_ps(simde_mm_cmple_ps(simde_mm_set1_ps(-FLT_MAX), mn),
                                        simde_mm_cmple_ps(mx, simde_mm_set1_ps(FLT_MAX))));
    return simde_mm_movemask_ps(ok) == 0xF;
#else
    return SHOVE_IFN(box_is_valid)(box);
#endif
}

/* The kernels for a batch: fewer boxes than the narrowest SIMD level has
 * lanes go straight to the scalar level (every level would hand them on to
 * it anyway, and every level gives the same bits). */
static const shove_kernel_table *SHOVE_IFN(batch_kernels)(const shove_soa *boxes) {
    return (boxes->count < 4) ? &shove__kernels_scalar : shove__kernels();
}

size_t SHOVE_FN(overlap_batch)(const shove_soa *boxes, shove_aabb query, uint32_t *out_indices) {
    if (!SHOVE_IFN(soa_is_valid)(boxes) || !out_indices || !SHOVE_IFN(batch_aabb_is_valid)(query)) {
        return 0;
    }
    return SHOVE_IFN(batch_kernels)(boxes)->KERNEL_OVERLAP(boxes, query, out_indices);
}

bool SHOVE_FN(sweep_batch)(const shove_soa *boxes, shove_aabb moving, shove_vec delta,
                           shove_hit *hit, uint32_t *hit_index) {
    if (!SHOVE_IFN(soa_is_valid)(boxes) || !SHOVE_IFN(batch_aabb_is_valid)(moving) ||
        !SHOVE_IFN(vec_is_finite)(delta)) {
        return false;
    }
    return SHOVE_IFN(batch_kernels)(boxes)->KERNEL_SWEEP(boxes, moving, delta, hit, hit_index);
}

#undef KERNEL_OVERLAP
#undef KERNEL_SWEEP
