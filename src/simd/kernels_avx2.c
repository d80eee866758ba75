/* kernels_avx2.c: the AVX2 level, 8 lanes (kernels_wide.inc). Compares use
 * the _OQ predicates (false on NaN) and the N*_UQ ones (true on NaN), which
 * are what SSE's cmplt / cmpnge mean. */
#include <stdbool.h>
#include <stdint.h>

#include "isa.h"

#if SHOVE_ISA256_SIMDE_REGION
/* Every level in one translation unit, this code not compiled for AVX2
 * (see isa.h): SIMDe's 128-bit levels for the baseline, its AVX and AVX2
 * levels native inside the region. */
#include <immintrin.h>
#include <simde/x86/sse4.2.h>
#ifndef SIMDE_X86_AVX_NATIVE
#define SIMDE_X86_AVX_NATIVE
#endif
#ifndef SIMDE_X86_AVX2_NATIVE
#define SIMDE_X86_AVX2_NATIVE
#endif
SHOVE_ISA256_BEGIN("avx2")
#include <simde/x86/avx2.h>
SHOVE_ISA256_END
#else
#include <simde/x86/avx2.h>
#endif

#include "compress.h"

/* clang warns (-Wpsabi) that a 256-bit vector passed or returned without
 * AVX enabled has another calling convention. That happens only where this
 * file is compiled for a baseline without AVX and without a region: the
 * single header on SIMDe's portable path. Every function here is static,
 * so no such vector crosses into code compiled otherwise. */
#if defined(__clang__) && !defined(__AVX__) && !SHOVE_ISA256_ACTIVE
#define SHOVE_AVX2_QUIET_PSABI 1
#else
#define SHOVE_AVX2_QUIET_PSABI 0
#endif
#if SHOVE_AVX2_QUIET_PSABI
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wpsabi"
#endif

#define WIDE_NAME  avx2
#define WIDE_LANES 8
/* Batches of 4 to 7 boxes are one or two 4-lane blocks at SSE4.1, which
 * every AVX2 CPU has (and which SIMDe emulates wherever it emulates AVX2);
 * fewer go on from there to the scalar level. */
#define WIDE_NARROWER shove__kernels_sse41
#include "wide_names.h"

SHOVE_ISA256_BEGIN("avx2")
typedef simde__m256 wide_f;
typedef simde__m256 wide_m;
typedef simde__m256i wide_u;

static inline wide_f wide_load(const float *p) {
    return simde_mm256_loadu_ps(p);
}
static inline void wide_store(float *p, wide_f v) {
    simde_mm256_storeu_ps(p, v);
}
static inline wide_u wide_uload(const uint32_t *p) {
    return simde_mm256_loadu_si256((const simde__m256i *)(const void *)p);
}
static inline void wide_ustore(uint32_t *p, wide_u v) {
    simde_mm256_storeu_si256((simde__m256i *)(void *)p, v);
}
static inline wide_f wide_splat(float x) {
    return simde_mm256_set1_ps(x);
}
static inline wide_u wide_usplat(uint32_t x) {
    return simde_mm256_set1_epi32((int32_t)x);
}
static inline wide_f wide_sub(wide_f a, wide_f b) {
    return simde_mm256_sub_ps(a, b);
}
static inline wide_f wide_div(wide_f a, wide_f b) {
    return simde_mm256_div_ps(a, b);
}
static inline wide_f wide_max(wide_f a, wide_f b) {
    return simde_mm256_max_ps(a, b);
}
static inline wide_f wide_min(wide_f a, wide_f b) {
    return simde_mm256_min_ps(a, b);
}
static inline wide_m wide_lt(wide_f a, wide_f b) {
    return simde_mm256_cmp_ps(a, b, SIMDE_CMP_LT_OQ);
}
static inline wide_m wide_gt(wide_f a, wide_f b) {
    return simde_mm256_cmp_ps(a, b, SIMDE_CMP_GT_OQ);
}
static inline wide_m wide_nge(wide_f a, wide_f b) {
    return simde_mm256_cmp_ps(a, b, SIMDE_CMP_NGE_UQ);
}
static inline wide_m wide_nle(wide_f a, wide_f b) {
    return simde_mm256_cmp_ps(a, b, SIMDE_CMP_NLE_UQ);
}
static inline wide_m wide_le(wide_f a, wide_f b) {
    return simde_mm256_cmp_ps(a, b, SIMDE_CMP_LE_OQ);
}
static inline wide_m wide_and(wide_m a, wide_m b) {
    return simde_mm256_and_ps(a, b);
}
static inline wide_f wide_xor(wide_f a, wide_f b) {
    return simde_mm256_xor_ps(a, b);
}
/* The first two floats of every group of four of a, then of b, per 128-bit
 * half: a0 a1 b0 b1 | a4 a5 b4 b5 (wide_pairs_hi: the last two). */
static inline wide_f wide_pairs_lo(wide_f a, wide_f b) {
    return simde_mm256_shuffle_ps(a, b, SIMDE_MM_SHUFFLE(1, 0, 1, 0));
}
static inline wide_f wide_pairs_hi(wide_f a, wide_f b) {
    return simde_mm256_shuffle_ps(a, b, SIMDE_MM_SHUFFLE(3, 2, 3, 2));
}
static inline unsigned wide_bits(wide_m m) {
    return (unsigned)simde_mm256_movemask_ps(m);
}
/* The lane bits of four masks in one word (three packs and one movemask,
 * where four movemasks would need shifts and ors too), per 128-bit half:
 * bits 4k to 4k + 3 are lanes 0-3 of m_k, bits 16 + 4k to 16 + 4k + 3
 * its lanes 4-7 (WIDE_BITS4_BY_HALVES). */
#define WIDE_BITS4_BY_HALVES 1
static inline uint32_t wide_bits4(wide_m m0, wide_m m1, wide_m m2, wide_m m3) {
    const simde__m256i p01 =
        simde_mm256_packs_epi32(simde_mm256_castps_si256(m0), simde_mm256_castps_si256(m1));
    const simde__m256i p23 =
        simde_mm256_packs_epi32(simde_mm256_castps_si256(m2), simde_mm256_castps_si256(m3));
    return (uint32_t)simde_mm256_movemask_epi8(simde_mm256_packs_epi16(p01, p23));
}
static inline wide_f wide_select(wide_m m, wide_f a, wide_f b) {
    return simde_mm256_blendv_ps(b, a, m);
}
static inline wide_u wide_uselect(wide_m m, wide_u a, wide_u b) {
    return simde_mm256_castps_si256(
        simde_mm256_blendv_ps(simde_mm256_castsi256_ps(b), simde_mm256_castsi256_ps(a), m));
}
static inline wide_u wide_uadd(wide_u a, wide_u b) {
    return simde_mm256_add_epi32(a, b);
}
/* The larger of a and b in every lane, unsigned, and the float lanes of
 * v read as unsigned bits; wide_ule_all: whether every lane of v is at
 * most `limit`, unsigned. */
static inline wide_u wide_umax(wide_u a, wide_u b) {
    return simde_mm256_max_epu32(a, b);
}
static inline wide_u wide_bits_of(wide_f v) {
    return simde_mm256_castps_si256(v);
}
static inline bool wide_ule_all(wide_u v, uint32_t limit) {
    const wide_u l = simde_mm256_set1_epi32((int32_t)limit);
    return simde_mm256_movemask_epi8(simde_mm256_cmpeq_epi32(wide_umax(v, l), l)) == -1;
}
/* Row `bits` of the byte table, widened to 8 int32 lane numbers. */
static inline unsigned wide_compress(uint32_t *out, wide_u base, unsigned bits) {
    const simde__m128i row =
        simde_mm_loadl_epi64((const simde__m128i *)(const void *)shove__compress8[bits]);
    wide_ustore(out, simde_mm256_add_epi32(base, simde_mm256_cvtepu8_epi32(row)));
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

SHOVE_ISA256_END

#if SHOVE_AVX2_QUIET_PSABI
#pragma clang diagnostic pop
#endif
#undef SHOVE_AVX2_QUIET_PSABI

const shove_kernel_table shove__kernels_avx2 = {
    .overlap2 = shove2__overlap_batch_avx2,
    .overlap3 = shove3__overlap_batch_avx2,
    .sweep2 = shove2__sweep_batch_avx2,
    .sweep3 = shove3__sweep_batch_avx2,
    .list2 = shove2__list_scan_avx2,
    .list3 = shove3__list_scan_avx2,
    .level = SHOVE_SIMD_AVX2,
#if defined(__AVX2__) || SHOVE_ISA256_ACTIVE
    .requires_cpu = true,
#endif
};
