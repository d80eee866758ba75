/*
 * kernels.h: the batch kernels behind shove2/3_overlap_batch and
 * shove2/3_sweep_batch, one table per instruction-set level. Internal.
 *
 * Every table computes the same bits: no FMA contraction, exact division
 * (never approximate reciprocals), and the same treatment of touching faces,
 * zero-size boxes, zero motion components and NaN as the scalar level.
 *
 * The scalar table is batch.c's plain C; the SSE2, SSE4.1, AVX2 and NEON
 * tables are kernels_wide.inc instantiated by kernels_<level>.c. All tables
 * take the same inputs as the public functions, already validated: the boxes
 * themselves are not checked (NaN boxes give the scalar level's answer),
 * except by the list scan, whose job includes checking them.
 */
#ifndef SHOVE_SIMD_KERNELS_H
#define SHOVE_SIMD_KERNELS_H

#include <stdatomic.h>

#include <shove/shove.h>

typedef struct shove_kernel_table {
    size_t (*overlap2)(const shove2_soa *boxes, shove2_aabb query, uint32_t *out_indices);
    size_t (*overlap3)(const shove3_soa *boxes, shove3_aabb query, uint32_t *out_indices);
    bool (*sweep2)(const shove2_soa *boxes, shove2_aabb moving, vec2s delta, shove2_hit *hit,
                   uint32_t *hit_index);
    bool (*sweep3)(const shove3_soa *boxes, shove3_aabb moving, vec3s delta, shove3_hit *hit,
                   uint32_t *hit_index);
    /** The list scan of shove2/3_slide (simd/list_scan.h): the indices
     *  (ascending) of the boxes[0 .. count) that touch `query`, faces
     *  included, into out_indices (room for `count`); clears *valid when a
     *  box is not valid, and never sets it. Returns how many touch. */
    size_t (*list2)(const shove2_aabb *boxes, size_t count, shove2_aabb query,
                    uint32_t *out_indices, bool *valid);
    size_t (*list3)(const shove3_aabb *boxes, size_t count, shove3_aabb query,
                    uint32_t *out_indices, bool *valid);
    /** True when this table was compiled with its level's instructions
     *  enabled (-mavx2, NEON on ARM, ...), so it only runs on a CPU that has
     *  them. False when SIMDe emulates the level with what the target has
     *  (NEON on x86, SSE on ARM): such a table runs anywhere, which lets
     *  tests check its source on any machine. */
    bool requires_cpu;
    /** The level this table implements. */
    shove_simd level;
} shove_kernel_table;

/* Builds with SIMD carry a table per x86 level and NEON (SIMDe maps each onto
 * what the target has); SHOVE_HAVE_SIMD_KERNELS is set by the build. */
#ifndef SHOVE_HAVE_SIMD_KERNELS
#define SHOVE_HAVE_SIMD_KERNELS 0
#endif

extern const shove_kernel_table shove__kernels_scalar;

/* The scalar level's kernels (simd/batch.c, in each dimension's
 * translation unit), which its table (kernels_scalar.c) points to. */
size_t shove2__overlap_batch_scalar(const shove2_soa *boxes, shove2_aabb query, uint32_t *out);
size_t shove3__overlap_batch_scalar(const shove3_soa *boxes, shove3_aabb query, uint32_t *out);
bool shove2__sweep_batch_scalar(const shove2_soa *boxes, shove2_aabb moving, vec2s delta,
                                shove2_hit *hit, uint32_t *hit_index);
bool shove3__sweep_batch_scalar(const shove3_soa *boxes, shove3_aabb moving, vec3s delta,
                                shove3_hit *hit, uint32_t *hit_index);
size_t shove2__list_scan_scalar(const shove2_aabb *boxes, size_t count, shove2_aabb query,
                                uint32_t *out, bool *valid);
size_t shove3__list_scan_scalar(const shove3_aabb *boxes, size_t count, shove3_aabb query,
                                uint32_t *out, bool *valid);
#if SHOVE_HAVE_SIMD_KERNELS
extern const shove_kernel_table shove__kernels_sse2;
extern const shove_kernel_table shove__kernels_sse41;
extern const shove_kernel_table shove__kernels_avx2;
extern const shove_kernel_table shove__kernels_neon;
#endif

/* The table of shove_simd_active(), NULL until the first shove__kernels()
 * or shove_simd_active() call detects the CPU (dispatch.c). A pointer
 * rather than a level, so a batch call reaches its kernel with one load. */
extern _Atomic(const shove_kernel_table *) shove__active_kernels;

/** Detects the best level, makes it active and returns its table. */
const shove_kernel_table *shove__kernels_detect(void);

/** The table of shove_simd_active(). */
static inline const shove_kernel_table *shove__kernels(void) {
    const shove_kernel_table *table =
        atomic_load_explicit(&shove__active_kernels, memory_order_acquire);
    return table ? table : shove__kernels_detect();
}

/* For tests and benchmarks that call every table directly. */

/** The table of `level`, or NULL when this build lacks it. Check
 *  shove__kernels_runnable before calling through it. */
const shove_kernel_table *shove__kernels_of(shove_simd level);

/** True when the table of `level` can run on this machine: the CPU has the
 *  level, or the table does not require it (see requires_cpu). Wider than
 *  shove_simd_supported, which only admits levels the CPU has natively. */
bool shove__kernels_runnable(shove_simd level);

#endif
