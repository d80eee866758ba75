/*
 * dispatch.c: picks the SIMD level once and lets tests force another.
 *
 * Levels a build carries are those whose kernel table is linked in (see
 * kernels.h); a level is usable when the build carries it and the CPU has
 * the instructions.
 */
#include <stdatomic.h>

#include "kernels.h"

/* NULL until the first call detects the best level. */
_Atomic(const shove_kernel_table *) shove__active_kernels = NULL;

static bool cpu_has(shove_simd level) {
    switch (level) {
    case SHOVE_SIMD_SCALAR:
        return true;
#if defined(__x86_64__) || defined(__i386__)
#if defined(__GNUC__) || defined(__clang__)
    case SHOVE_SIMD_SSE2:
        return __builtin_cpu_supports("sse2");
    case SHOVE_SIMD_SSE41:
        return __builtin_cpu_supports("sse4.1");
    case SHOVE_SIMD_AVX2:
        return __builtin_cpu_supports("avx2");
#endif
#endif
#if defined(__aarch64__) || defined(__ARM_NEON)
    case SHOVE_SIMD_NEON:
        return true;
#endif
    default:
        return false;
    }
}

static const shove_kernel_table *table_of(shove_simd level) {
    switch (level) {
    case SHOVE_SIMD_SCALAR:
        return &shove__kernels_scalar;
#if SHOVE_HAVE_SIMD_KERNELS
    case SHOVE_SIMD_SSE2:
        return &shove__kernels_sse2;
    case SHOVE_SIMD_SSE41:
        return &shove__kernels_sse41;
    case SHOVE_SIMD_AVX2:
        return &shove__kernels_avx2;
    case SHOVE_SIMD_NEON:
        return &shove__kernels_neon;
#endif
    default:
        return NULL;
    }
}

bool shove_simd_supported(shove_simd level) {
    if ((int)level < 0 || (int)level >= SHOVE_SIMD_LEVEL_COUNT) {
        return false;
    }
    return table_of(level) != NULL && cpu_has(level);
}

static int detect_best(void) {
    static const shove_simd preference[] = {SHOVE_SIMD_AVX2, SHOVE_SIMD_NEON, SHOVE_SIMD_SSE41,
                                            SHOVE_SIMD_SSE2};
    for (size_t i = 0; i < sizeof preference / sizeof preference[0]; ++i) {
        if (shove_simd_supported(preference[i])) {
            return (int)preference[i];
        }
    }
    return (int)SHOVE_SIMD_SCALAR;
}

const shove_kernel_table *shove__kernels_detect(void) {
    /* Two threads may both detect; they store the same answer. */
    const shove_kernel_table *table = table_of((shove_simd)detect_best());
    atomic_store_explicit(&shove__active_kernels, table, memory_order_release);
    return table;
}

shove_simd shove_simd_active(void) {
    return shove__kernels()->level;
}

shove_status shove_simd_select(shove_simd level) {
    if ((int)level < 0 || (int)level >= SHOVE_SIMD_LEVEL_COUNT) {
        return SHOVE_ERR_INVALID_ARGUMENT;
    }
    if (!shove_simd_supported(level)) {
        return SHOVE_ERR_UNSUPPORTED;
    }
    atomic_store_explicit(&shove__active_kernels, table_of(level), memory_order_release);
    return SHOVE_OK;
}

const char *shove_simd_name(shove_simd level) {
    switch (level) {
    case SHOVE_SIMD_SCALAR:
        return "scalar";
    case SHOVE_SIMD_SSE2:
        return "sse2";
    case SHOVE_SIMD_SSE41:
        return "sse4.1";
    case SHOVE_SIMD_AVX2:
        return "avx2";
    case SHOVE_SIMD_NEON:
        return "neon";
    }
    return "unknown";
}

const shove_kernel_table *shove__kernels_of(shove_simd level) {
    return table_of(level);
}

bool shove__kernels_runnable(shove_simd level) {
    const shove_kernel_table *table = table_of(level);
    return table != NULL && (!table->requires_cpu || cpu_has(level));
}
