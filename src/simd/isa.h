/*
 * isa.h: instruction-set regions for the kernel files. Internal.
 *
 *   SHOVE_ISA_BEGIN("avx2") ... SHOVE_ISA_END
 *
 * compiles the functions between the two for one x86 instruction set
 * (GCC: a target pragma; clang: a target attribute on every function).
 * The CMake build compiles each kernels_LEVEL.c with its -m flag instead,
 * so there the regions do nothing. The single header puts every level in
 * one translation unit and defines SHOVE_ISA_REGIONS, which turns them on.
 *
 * SIMDe must be included before SHOVE_ISA_BEGIN: its own functions stay
 * compiled for the file's baseline and are inlined into the region's.
 * SHOVE_ISA_ACTIVE is 1 when regions are on, so a kernel table can say
 * that it needs the CPU (requires_cpu).
 *
 * SHOVE_ISA256_BEGIN / SHOVE_ISA256_END / SHOVE_ISA256_ACTIVE are the same
 * for a level whose vectors are 256 bits wide (AVX2). clang refuses any
 * call that passes such a vector between a region and SIMDe's baseline
 * functions, even one it inlines, so with clang those stay off and the
 * level is SIMDe's baseline code (the same bits, runnable anywhere); its
 * static helpers then pass 256-bit vectors without AVX, which clang warns
 * about (-Wpsabi) although no other file ever calls them, so the region
 * silences that warning instead.
 */
#ifndef SHOVE_SIMD_ISA_H
#define SHOVE_SIMD_ISA_H

#define SHOVE_ISA_PRAGMA_(text) _Pragma(#text)
#define SHOVE_ISA_PRAGMA(text)  SHOVE_ISA_PRAGMA_(text)

#if defined(SHOVE_ISA_REGIONS) && (defined(__x86_64__) || defined(__i386__)) && defined(__clang__)
#define SHOVE_ISA_BEGIN(isa)                                                                       \
    SHOVE_ISA_PRAGMA(clang attribute push(__attribute__((target(isa))), apply_to = function))
#define SHOVE_ISA_END    SHOVE_ISA_PRAGMA(clang attribute pop)
#define SHOVE_ISA_ACTIVE 1
#define SHOVE_ISA256_BEGIN(isa)                                                                    \
    SHOVE_ISA_PRAGMA(clang diagnostic push)                                                        \
    SHOVE_ISA_PRAGMA(clang diagnostic ignored "-Wpsabi")
#define SHOVE_ISA256_END    SHOVE_ISA_PRAGMA(clang diagnostic pop)
#define SHOVE_ISA256_ACTIVE 0
#elif defined(SHOVE_ISA_REGIONS) && (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
#define SHOVE_ISA_BEGIN(isa) SHOVE_ISA_PRAGMA(GCC push_options) SHOVE_ISA_PRAGMA(GCC target(isa))
#define SHOVE_ISA_END        SHOVE_ISA_PRAGMA(GCC pop_options)
#define SHOVE_ISA_ACTIVE     1
#define SHOVE_ISA256_BEGIN   SHOVE_ISA_BEGIN
#define SHOVE_ISA256_END     SHOVE_ISA_END
#define SHOVE_ISA256_ACTIVE  1
#else
#define SHOVE_ISA_BEGIN(isa)
#define SHOVE_ISA_END
#define SHOVE_ISA_ACTIVE 0
#define SHOVE_ISA256_BEGIN(isa)
#define SHOVE_ISA256_END
#define SHOVE_ISA256_ACTIVE 0
#endif

#endif
