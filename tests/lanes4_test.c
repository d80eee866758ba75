/*
 * lanes4_test.c: the four-lane helpers of src/simd/lanes4.h against the
 * scalar operations they stand for, lane by lane and bit for bit. The
 * library compiles them on SIMDe when it has the SIMD kernels; so does this
 * test when SIMDe's headers are there (else it checks the plain C lanes).
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include <criterion/criterion.h>

#if defined(__has_include)
#if __has_include(<simde/x86/sse2.h>)
#define SHOVE_HAVE_SIMD_KERNELS 1
#endif
#endif
#include "simd/lanes4.h"
#include "test_support.h"

static bool same_bits(float a, float b) {
    return memcmp(&a, &b, sizeof a) == 0;
}

/* Specials first, then random bit patterns (NaN among them). */
static float sample(test_rng *rng, int i) {
    static const float special[] = {0.0f,       -0.0f,   0x1p-149f, -0x1p-149f, 0x1p-126f,
                                    -0x1p-126f, FLT_MAX, -FLT_MAX,  INFINITY,   -INFINITY,
                                    NAN,        1.0f,    -1.0f,     0.5f,       -100000.0f};
    const int n = (int)(sizeof special / sizeof special[0]);
    if (i < n) {
        return special[i];
    }
    const uint32_t bits = (uint32_t)test_rng_next(rng);
    float x;
    memcpy(&x, &bits, sizeof x);
    return x;
}

Test(lanes4, next_up_steps_every_lane_as_nextafterf) {
    test_rng rng = {0x1a4e5u};
    for (int i = 0; i < 20000; i += 4) {
        float in[4], out[4];
        for (int k = 0; k < 4; ++k) {
            in[k] = sample(&rng, i + k);
            if (isnan(in[k])) {
                in[k] = 2.0f; /* the step is for lanes that are not NaN */
            }
        }
        shove__f4_store(out, shove__f4_next_up(shove__f4_load(in)));
        for (int k = 0; k < 4; ++k) {
            const float want = nextafterf(in[k], INFINITY);
            cr_expect(same_bits(out[k], want), "lane %d: next_up(%a) = %a, libm %a", k,
                      (double)in[k], (double)out[k], (double)want);
        }
    }
}

Test(lanes4, arithmetic_and_compares_match_scalar_code) {
    test_rng rng = {0x1a4e6u};
    for (int i = 0; i < 20000; i += 4) {
        float a[4], b[4], sum[4], neg[4], pick[4];
        for (int k = 0; k < 4; ++k) {
            a[k] = sample(&rng, i + k);
            b[k] = (k & 1) ? a[k] : sample(&rng, i + k + 1); /* some equal pairs */
        }
        const shove__f4 va = shove__f4_load(a), vb = shove__f4_load(b);
        const shove__m4 lt = shove__f4_lt(va, vb), gt = shove__f4_gt(va, vb);
        shove__f4_store(sum, shove__f4_add(va, vb));
        shove__f4_store(neg, shove__f4_neg(va));
        shove__f4_store(pick, shove__f4_select(lt, va, vb));
        const unsigned lt_bits = shove__m4_bits(lt), gt_bits = shove__m4_bits(gt);
        const unsigned both = shove__m4_bits(shove__m4_and(lt, gt));
        cr_expect_eq(both, 0u, "a lane both below and above");
        for (int k = 0; k < 4; ++k) {
            const float want_sum = a[k] + b[k], want_neg = -a[k];
            cr_expect(same_bits(sum[k], want_sum) || (isnan(sum[k]) && isnan(want_sum)),
                      "%a + %a = %a, want %a", (double)a[k], (double)b[k], (double)sum[k],
                      (double)want_sum);
            cr_expect(same_bits(neg[k], want_neg), "-%a = %a", (double)a[k], (double)neg[k]);
            cr_expect_eq((lt_bits >> k) & 1u, a[k] < b[k] ? 1u : 0u, "%a < %a", (double)a[k],
                         (double)b[k]);
            cr_expect_eq((gt_bits >> k) & 1u, a[k] > b[k] ? 1u : 0u, "%a > %a", (double)a[k],
                         (double)b[k]);
            cr_expect(same_bits(pick[k], a[k] < b[k] ? a[k] : b[k]), "select lane %d", k);
        }
    }
}

Test(lanes4, set_and_splat_fill_the_lanes_in_order) {
    float out[4];
    shove__f4_store(out, shove__f4_set(1.0f, -2.0f, 3.5f, -0.0f));
    cr_expect(same_bits(out[0], 1.0f) && same_bits(out[1], -2.0f) && same_bits(out[2], 3.5f) &&
              same_bits(out[3], -0.0f));
    shove__f4_store(out, shove__f4_splat(-7.25f));
    for (int k = 0; k < 4; ++k) {
        cr_expect(same_bits(out[k], -7.25f), "lane %d", k);
    }
}
