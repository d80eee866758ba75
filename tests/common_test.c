/*
 * common_test.c: statuses, ids and the SIMD level switch.
 */
#include <string.h>

#include <criterion/criterion.h>

#include "test_support.h"

Test(status, every_status_has_a_distinct_name) {
    const shove_status all[] = {SHOVE_OK,
                                SHOVE_ERR_INVALID_ARGUMENT,
                                SHOVE_ERR_STALE_ID,
                                SHOVE_ERR_OUT_OF_MEMORY,
                                SHOVE_ERR_UNSUPPORTED,
                                SHOVE_ERR_LOCKED,
                                SHOVE_ERR_OUT_OF_RANGE};
    const size_t n = sizeof all / sizeof all[0];
    for (size_t i = 0; i < n; ++i) {
        const char *name = shove_status_string(all[i]);
        cr_assert_not_null(name);
        cr_expect_neq(strcmp(name, "unknown status"), 0);
        for (size_t j = 0; j < i; ++j) {
            cr_expect_neq(strcmp(name, shove_status_string(all[j])), 0);
        }
    }
    cr_expect_str_eq(shove_status_string((shove_status)1234), "unknown status");
    cr_expect_str_eq(shove_status_string((shove_status)-1), "unknown status");
}

Test(id, null_and_equality) {
    cr_expect(shove_id_is_null(SHOVE_NULL_ID));
    const shove_id a = {3, 7};
    cr_expect(!shove_id_is_null(a));
    cr_expect(shove_id_equal(a, (shove_id){3, 7}));
    cr_expect(!shove_id_equal(a, (shove_id){3, 8}));
    cr_expect(!shove_id_equal(a, (shove_id){4, 7}));
}

Test(simd, scalar_is_always_available_and_selectable) {
    const shove_simd before = shove_simd_active();
    cr_expect(shove_simd_supported(SHOVE_SIMD_SCALAR));
    cr_expect_eq(shove_simd_select(SHOVE_SIMD_SCALAR), SHOVE_OK);
    cr_expect_eq(shove_simd_active(), SHOVE_SIMD_SCALAR);
    cr_expect_eq(shove_simd_select(before), SHOVE_OK);
    cr_expect_eq(shove_simd_active(), before);
}

Test(simd, unsupported_and_unknown_levels_are_refused_without_change) {
    const shove_simd before = shove_simd_active();
    for (int level = 0; level < SHOVE_SIMD_LEVEL_COUNT; ++level) {
        if (!shove_simd_supported((shove_simd)level)) {
            cr_expect_eq(shove_simd_select((shove_simd)level), SHOVE_ERR_UNSUPPORTED);
            cr_expect_eq(shove_simd_active(), before);
        }
    }
    cr_expect_eq(shove_simd_select((shove_simd)SHOVE_SIMD_LEVEL_COUNT), SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect_eq(shove_simd_select((shove_simd)-1), SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect_eq(shove_simd_active(), before);
    cr_expect(!shove_simd_supported((shove_simd)99));
}

Test(simd, names) {
    cr_expect_str_eq(shove_simd_name(SHOVE_SIMD_SCALAR), "scalar");
    cr_expect_str_eq(shove_simd_name(SHOVE_SIMD_SSE41), "sse4.1");
    cr_expect_str_eq(shove_simd_name(SHOVE_SIMD_AVX2), "avx2");
    cr_expect_str_eq(shove_simd_name((shove_simd)77), "unknown");
}

Test(status, second_release_statuses_follow_unsupported) {
    /* The order is part of the contract: bindings (the Lua module) use the
     * numbers. */
    cr_expect_eq((int)SHOVE_ERR_LOCKED, (int)SHOVE_ERR_UNSUPPORTED + 1);
    cr_expect_eq((int)SHOVE_ERR_OUT_OF_RANGE, (int)SHOVE_ERR_UNSUPPORTED + 2);
}
