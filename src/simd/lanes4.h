/*
 * lanes4.h: four float lanes for the scalar code's box arithmetic (all
 * axes of a box at once in geometry.h, four children of a tree node at once
 * in the broad phase). Internal.
 *
 * Builds with the SIMD kernels (SHOVE_HAVE_SIMD_KERNELS) take the lanes from
 * SIMDe's SSE2 vocabulary, like the kernel files: SSE2 on x86, NEON on ARM,
 * SIMDe's portable code elsewhere or under SIMDE_NO_NATIVE. Builds without
 * them get plain C over four floats. Every operation is exact lane by lane
 * (an add, a compare, a bit operation), so the two give the same bits.
 *
 * A mask (shove__m4) has all bits set in a lane where its compare is true
 * and none where it is false; compares are false with NaN, as the scalar
 * `<` and `>`.
 */
#ifndef SHOVE_SIMD_LANES4_H
#define SHOVE_SIMD_LANES4_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#if defined(SHOVE_HAVE_SIMD_KERNELS) && SHOVE_HAVE_SIMD_KERNELS
#define SHOVE_LANES4_SIMDE 1
#include <simde/x86/sse2.h>
#else
#define SHOVE_LANES4_SIMDE 0
#endif

#if SHOVE_LANES4_SIMDE

/** Four floats. */
typedef simde__m128 shove__f4;
/** Four lane masks. */
typedef simde__m128 shove__m4;

/** The four floats at p (no alignment needed). */
static inline shove__f4 shove__f4_load(const float p[4]) {
    return simde_mm_loadu_ps(p);
}
static inline void shove__f4_store(float p[4], shove__f4 v) {
    simde_mm_storeu_ps(p, v);
}
/** x0 .. x3 in lanes 0 .. 3. */
static inline shove__f4 shove__f4_set(float x0, float x1, float x2, float x3) {
    return simde_mm_setr_ps(x0, x1, x2, x3);
}
/** x in every lane. */
static inline shove__f4 shove__f4_splat(float x) {
    return simde_mm_set1_ps(x);
}
static inline shove__f4 shove__f4_add(shove__f4 a, shove__f4 b) {
    return simde_mm_add_ps(a, b);
}
/** -a in every lane: the sign bit flipped, as the scalar unary minus. */
static inline shove__f4 shove__f4_neg(shove__f4 a) {
    return simde_mm_xor_ps(a, simde_mm_set1_ps(-0.0f));
}
static inline shove__m4 shove__f4_lt(shove__f4 a, shove__f4 b) {
    return simde_mm_cmplt_ps(a, b);
}
static inline shove__m4 shove__f4_gt(shove__f4 a, shove__f4 b) {
    return simde_mm_cmpgt_ps(a, b);
}
static inline shove__m4 shove__m4_and(shove__m4 a, shove__m4 b) {
    return simde_mm_and_ps(a, b);
}
/** a in the lanes of m, b in the others. */
static inline shove__f4 shove__f4_select(shove__m4 m, shove__f4 a, shove__f4 b) {
    return simde_mm_or_ps(simde_mm_and_ps(m, a), simde_mm_andnot_ps(m, b));
}
/** Bit k set when lane k of m is. */
static inline unsigned shove__m4_bits(shove__m4 m) {
    return (unsigned)simde_mm_movemask_ps(m);
}
/** shove__next_up (geometry.h) in every lane, for lanes that are not NaN:
 *  x + 0 turns -0 into +0, then the magnitude steps one up for x >= 0 and
 *  one down for x < 0 (-inf to -FLT_MAX); +inf stays. */
static inline shove__f4 shove__f4_next_up(shove__f4 x) {
    x = simde_mm_add_ps(x, simde_mm_setzero_ps());
    const simde__m128i u = simde_mm_castps_si128(x);
    const simde__m128i below_inf =
        simde_mm_castps_si128(simde_mm_cmplt_ps(x, simde_mm_set1_ps(INFINITY)));
    /* +1 for a positive lane, -1 for a negative one, 0 for +inf */
    const simde__m128i step = simde_mm_and_si128(
        simde_mm_or_si128(simde_mm_srai_epi32(u, 31), simde_mm_set1_epi32(1)), below_inf);
    return simde_mm_castsi128_ps(simde_mm_add_epi32(u, step));
}

#else /* plain C */

typedef struct shove__f4 {
    float lane[4];
} shove__f4;
typedef struct shove__m4 {
    uint32_t lane[4];
} shove__m4;

static inline shove__f4 shove__f4_load(const float p[4]) {
    shove__f4 v;
    memcpy(v.lane, p, sizeof v.lane);
    return v;
}
static inline void shove__f4_store(float p[4], shove__f4 v) {
    memcpy(p, v.lane, sizeof v.lane);
}
static inline shove__f4 shove__f4_set(float x0, float x1, float x2, float x3) {
    const shove__f4 v = {{x0, x1, x2, x3}};
    return v;
}
static inline shove__f4 shove__f4_splat(float x) {
    return shove__f4_set(x, x, x, x);
}
static inline shove__f4 shove__f4_add(shove__f4 a, shove__f4 b) {
    for (int k = 0; k < 4; ++k) {
        a.lane[k] += b.lane[k];
    }
    return a;
}
static inline shove__f4 shove__f4_neg(shove__f4 a) {
    for (int k = 0; k < 4; ++k) {
        a.lane[k] = -a.lane[k];
    }
    return a;
}
static inline shove__m4 shove__f4_lt(shove__f4 a, shove__f4 b) {
    shove__m4 m;
    for (int k = 0; k < 4; ++k) {
        m.lane[k] = a.lane[k] < b.lane[k] ? UINT32_MAX : 0u;
    }
    return m;
}
static inline shove__m4 shove__f4_gt(shove__f4 a, shove__f4 b) {
    return shove__f4_lt(b, a);
}
static inline shove__m4 shove__m4_and(shove__m4 a, shove__m4 b) {
    for (int k = 0; k < 4; ++k) {
        a.lane[k] &= b.lane[k];
    }
    return a;
}
static inline shove__f4 shove__f4_select(shove__m4 m, shove__f4 a, shove__f4 b) {
    for (int k = 0; k < 4; ++k) {
        b.lane[k] = m.lane[k] ? a.lane[k] : b.lane[k];
    }
    return b;
}
static inline unsigned shove__m4_bits(shove__m4 m) {
    unsigned bits = 0u;
    for (int k = 0; k < 4; ++k) {
        bits |= (m.lane[k] >> 31) << k;
    }
    return bits;
}
static inline shove__f4 shove__f4_next_up(shove__f4 x) {
    for (int k = 0; k < 4; ++k) {
        float f = x.lane[k] + 0.0f;
        uint32_t u;
        memcpy(&u, &f, sizeof u);
        if (f < INFINITY) {
            u += 1u - ((u >> 31) << 1);
        }
        memcpy(&f, &u, sizeof f);
        x.lane[k] = f;
    }
    return x;
}

#endif
#endif
