/* kernels_neon.c: the NEON level, 4 lanes (kernels_wide.inc).
 *
 * vmaxq_f32 / vminq_f32 return NaN when either input is NaN, unlike the
 * scalar ternaries, so max and min are a compare and a bit select. SIMDe
 * 0.7 has no vdivq_f32: AArch64 gets the native instruction, other targets
 * divide lane by lane (IEEE division either way, never vrecpe). On 32-bit
 * ARM, NEON flushes subnormals to zero while the scalar VFP code does not,
 * so bit equality there holds only for inputs without subnormal
 * intermediates; AArch64 NEON follows the same FPCR as scalar code. */
#include <stdbool.h>
#include <stdint.h>

#include <simde/arm/neon.h>

#include "compress.h"

#define WIDE_NAME  neon
#define WIDE_LANES 4
#include "wide_names.h"

typedef simde_float32x4_t wide_f;
typedef simde_uint32x4_t wide_m;
typedef simde_uint32x4_t wide_u;

static inline wide_f wide_load(const float *p) {
    return simde_vld1q_f32(p);
}
static inline void wide_store(float *p, wide_f v) {
    simde_vst1q_f32(p, v);
}
static inline wide_u wide_uload(const uint32_t *p) {
    return simde_vld1q_u32(p);
}
static inline void wide_ustore(uint32_t *p, wide_u v) {
    simde_vst1q_u32(p, v);
}
static inline wide_f wide_splat(float x) {
    return simde_vdupq_n_f32(x);
}
static inline wide_u wide_usplat(uint32_t x) {
    return simde_vdupq_n_u32(x);
}
static inline wide_f wide_sub(wide_f a, wide_f b) {
    return simde_vsubq_f32(a, b);
}
static inline wide_f wide_div(wide_f a, wide_f b) {
#if defined(SIMDE_ARM_NEON_A64V8_NATIVE)
    return vdivq_f32(a, b);
#else
    float x[4], y[4];
    simde_vst1q_f32(x, a);
    simde_vst1q_f32(y, b);
    for (int i = 0; i < 4; ++i) {
        x[i] = x[i] / y[i];
    }
    return simde_vld1q_f32(x);
#endif
}
static inline wide_f wide_max(wide_f a, wide_f b) {
    return simde_vbslq_f32(simde_vcgtq_f32(a, b), a, b);
}
static inline wide_f wide_min(wide_f a, wide_f b) {
    return simde_vbslq_f32(simde_vcltq_f32(a, b), a, b);
}
static inline wide_m wide_lt(wide_f a, wide_f b) {
    return simde_vcltq_f32(a, b);
}
static inline wide_m wide_gt(wide_f a, wide_f b) {
    return simde_vcgtq_f32(a, b);
}
static inline wide_m wide_nge(wide_f a, wide_f b) {
    return simde_vmvnq_u32(simde_vcgeq_f32(a, b));
}
static inline wide_m wide_nle(wide_f a, wide_f b) {
    return simde_vmvnq_u32(simde_vcleq_f32(a, b));
}
static inline wide_m wide_le(wide_f a, wide_f b) {
    return simde_vcleq_f32(a, b);
}
static inline wide_m wide_and(wide_m a, wide_m b) {
    return simde_vandq_u32(a, b);
}
static inline wide_f wide_xor(wide_f a, wide_f b) {
    return simde_vreinterpretq_f32_u32(
        simde_veorq_u32(simde_vreinterpretq_u32_f32(a), simde_vreinterpretq_u32_f32(b)));
}
/* a0 a1 b0 b1 (wide_pairs_hi: a2 a3 b2 b3). */
static inline wide_f wide_pairs_lo(wide_f a, wide_f b) {
    return simde_vcombine_f32(simde_vget_low_f32(a), simde_vget_low_f32(b));
}
static inline wide_f wide_pairs_hi(wide_f a, wide_f b) {
    return simde_vcombine_f32(simde_vget_high_f32(a), simde_vget_high_f32(b));
}
static inline unsigned wide_bits(wide_m m) {
    static const uint32_t lane_bit[4] = {1u, 2u, 4u, 8u};
    return (unsigned)simde_vaddvq_u32(simde_vandq_u32(m, simde_vld1q_u32(lane_bit)));
}
/* The lane bits of four masks in one word: bits 4k to 4k + 3 are m_k's. */
#define WIDE_BITS4_BY_HALVES 0
static inline uint32_t wide_bits4(wide_m m0, wide_m m1, wide_m m2, wide_m m3) {
    return wide_bits(m0) | wide_bits(m1) << 4 | wide_bits(m2) << 8 | wide_bits(m3) << 12;
}
static inline wide_f wide_select(wide_m m, wide_f a, wide_f b) {
    return simde_vbslq_f32(m, a, b);
}
static inline wide_u wide_uselect(wide_m m, wide_u a, wide_u b) {
    return simde_vbslq_u32(m, a, b);
}
static inline wide_u wide_uadd(wide_u a, wide_u b) {
    return simde_vaddq_u32(a, b);
}
/* The larger of a and b in every lane, unsigned, and the float lanes of
 * v read as unsigned bits; wide_ule_all: whether every lane of v is at
 * most `limit`, unsigned. */
static inline wide_u wide_umax(wide_u a, wide_u b) {
    return simde_vmaxq_u32(a, b);
}
static inline wide_u wide_bits_of(wide_f v) {
    return simde_vreinterpretq_u32_f32(v);
}
static inline bool wide_ule_all(wide_u v, uint32_t limit) {
    return simde_vmaxvq_u32(v) <= limit;
}
static inline unsigned wide_compress(uint32_t *out, wide_u base, unsigned bits) {
    simde_vst1q_u32(out, simde_vaddq_u32(base, simde_vld1q_u32(shove__compress4[bits])));
    return shove__lane_count[bits];
}

#define SHOVE_DIM 2
#include "dim.h"
#include "kernels_wide.inc"
#include "dim_end.h"

#define SHOVE_DIM 3
#include "dim.h"
#include "kernels_wide.inc"
#include "dim_end.h"

const shove_kernel_table shove__kernels_neon = {
    .overlap2 = shove2__overlap_batch_neon,
    .overlap3 = shove3__overlap_batch_neon,
    .sweep2 = shove2__sweep_batch_neon,
    .sweep3 = shove3__sweep_batch_neon,
    .list2 = shove2__list_scan_neon,
    .list3 = shove3__list_scan_neon,
    .level = SHOVE_SIMD_NEON,
#if defined(__ARM_NEON)
    .requires_cpu = true,
#endif
};
