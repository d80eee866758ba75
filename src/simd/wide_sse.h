/*
 * wide_sse.h: the wide-float vocabulary of kernels_wide.inc on 4-lane SSE
 * vectors, for kernels_sse2.c and kernels_sse41.c. Define WIDE_SSE41 before
 * including it to select with blendv (SSE4.1) instead of and/andnot/or.
 *
 * No include guard: each of the two level files reads it once, under its
 * own names (wide_names.h), and the single header reads it for both. The
 * level file includes SIMDe and compress.h first (see isa.h).
 */
#include <stdbool.h>

#include "wide_names.h"

typedef simde__m128 wide_f;
typedef simde__m128 wide_m;
typedef simde__m128i wide_u;

static inline wide_f wide_load(const float *p) {
    return simde_mm_loadu_ps(p);
}
static inline void wide_store(float *p, wide_f v) {
    simde_mm_storeu_ps(p, v);
}
static inline wide_u wide_uload(const uint32_t *p) {
    return simde_mm_loadu_si128((const simde__m128i *)(const void *)p);
}
static inline void wide_ustore(uint32_t *p, wide_u v) {
    simde_mm_storeu_si128((simde__m128i *)(void *)p, v);
}
static inline wide_f wide_splat(float x) {
    return simde_mm_set1_ps(x);
}
static inline wide_u wide_usplat(uint32_t x) {
    return simde_mm_set1_epi32((int32_t)x);
}
static inline wide_f wide_sub(wide_f a, wide_f b) {
    return simde_mm_sub_ps(a, b);
}
static inline wide_f wide_div(wide_f a, wide_f b) {
    return simde_mm_div_ps(a, b);
}
static inline wide_f wide_max(wide_f a, wide_f b) {
    return simde_mm_max_ps(a, b);
}
static inline wide_f wide_min(wide_f a, wide_f b) {
    return simde_mm_min_ps(a, b);
}
static inline wide_m wide_lt(wide_f a, wide_f b) {
    return simde_mm_cmplt_ps(a, b);
}
static inline wide_m wide_gt(wide_f a, wide_f b) {
    return simde_mm_cmpgt_ps(a, b);
}
/* Not simde_mm_cmpnge_ps / simde_mm_cmpnle_ps: SIMDe 0.7.4 implements them
 * as cmplt / cmpgt, which are false on NaN where CMPNGEPS / CMPNLEPS are
 * true. A negated ordered compare is right on every path. */
static inline wide_m wide_not(wide_m m) {
    return simde_mm_xor_ps(m, simde_mm_castsi128_ps(simde_mm_set1_epi32(-1)));
}
static inline wide_m wide_nge(wide_f a, wide_f b) {
    return wide_not(simde_mm_cmpge_ps(a, b));
}
static inline wide_m wide_nle(wide_f a, wide_f b) {
    return wide_not(simde_mm_cmple_ps(a, b));
}
static inline wide_m wide_le(wide_f a, wide_f b) {
    return simde_mm_cmple_ps(a, b);
}
static inline wide_m wide_and(wide_m a, wide_m b) {
    return simde_mm_and_ps(a, b);
}
static inline wide_f wide_xor(wide_f a, wide_f b) {
    return simde_mm_xor_ps(a, b);
}
/* a0 a1 b0 b1 (wide_pairs_hi: a2 a3 b2 b3). */
static inline wide_f wide_pairs_lo(wide_f a, wide_f b) {
    return simde_mm_shuffle_ps(a, b, SIMDE_MM_SHUFFLE(1, 0, 1, 0));
}
static inline wide_f wide_pairs_hi(wide_f a, wide_f b) {
    return simde_mm_shuffle_ps(a, b, SIMDE_MM_SHUFFLE(3, 2, 3, 2));
}
static inline unsigned wide_bits(wide_m m) {
    return (unsigned)simde_mm_movemask_ps(m);
}
/* The lane bits of four masks in one word: bits 4k to 4k + 3 are m_k's
 * (three packs and one movemask, where four movemasks would need shifts
 * and ors too). */
#define WIDE_BITS4_BY_HALVES 0
static inline uint32_t wide_bits4(wide_m m0, wide_m m1, wide_m m2, wide_m m3) {
    const simde__m128i p01 =
        simde_mm_packs_epi32(simde_mm_castps_si128(m0), simde_mm_castps_si128(m1));
    const simde__m128i p23 =
        simde_mm_packs_epi32(simde_mm_castps_si128(m2), simde_mm_castps_si128(m3));
    return (uint32_t)simde_mm_movemask_epi8(simde_mm_packs_epi16(p01, p23));
}
static inline wide_f wide_select(wide_m m, wide_f a, wide_f b) {
#ifdef WIDE_SSE41
    return simde_mm_blendv_ps(b, a, m);
#else
    return simde_mm_or_ps(simde_mm_and_ps(m, a), simde_mm_andnot_ps(m, b));
#endif
}
static inline wide_u wide_uselect(wide_m m, wide_u a, wide_u b) {
    return simde_mm_castps_si128(
        wide_select(m, simde_mm_castsi128_ps(a), simde_mm_castsi128_ps(b)));
}
static inline wide_u wide_uadd(wide_u a, wide_u b) {
    return simde_mm_add_epi32(a, b);
}
/* The larger of a and b in every lane, unsigned (SSE4.1 has it; SSE2
 * compares signed, so both sides get their top bit flipped first), and the
 * float lanes of v read as unsigned bits; wide_ule_all: whether every lane
 * of v is at most `limit`, unsigned. */
static inline wide_u wide_umax(wide_u a, wide_u b) {
#ifdef WIDE_SSE41
    return simde_mm_max_epu32(a, b);
#else
    const wide_u top = simde_mm_set1_epi32(INT32_MIN);
    const wide_u a_more =
        simde_mm_cmpgt_epi32(simde_mm_xor_si128(a, top), simde_mm_xor_si128(b, top));
    return simde_mm_or_si128(simde_mm_and_si128(a_more, a), simde_mm_andnot_si128(a_more, b));
#endif
}
static inline wide_u wide_bits_of(wide_f v) {
    return simde_mm_castps_si128(v);
}
static inline bool wide_ule_all(wide_u v, uint32_t limit) {
    const wide_u l = simde_mm_set1_epi32((int32_t)limit);
    return simde_mm_movemask_epi8(simde_mm_cmpeq_epi32(wide_umax(v, l), l)) == 0xFFFF;
}
static inline unsigned wide_compress(uint32_t *out, wide_u base, unsigned bits) {
    wide_ustore(out, simde_mm_add_epi32(base, wide_uload(shove__compress4[bits])));
    return shove__lane_count[bits];
}
