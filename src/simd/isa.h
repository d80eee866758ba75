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
 * for a level whose vectors are 256 bits wide (AVX2). SIMDe's baseline
 * 256-bit types do not work there: clang refuses any call that passes such
 * a vector between a region and SIMDe's baseline functions, even one it
 * inlines; gcc accepts them, but they are SIMDe's emulation (two 128-bit
 * halves, moved through memory), which made the AVX2 list scans slower
 * than the scalar level. So with either compiler, when the file itself is
 * not compiled for AVX2, SHOVE_ISA256_SIMDE_REGION is 1: the kernel file
 * includes SIMDe's 128-bit levels first (baseline, as above), then its AVX
 * and AVX2 functions inside the region, with SIMDe told to use the native
 * intrinsics (both compilers declare every intrinsic whatever the flags);
 * no 256-bit vector then crosses into baseline code, and the level is
 * real AVX2 code (tests/single/user-build checks its compares are 8 lanes
 * wide).
 *
 * Under SIMDE_NO_NATIVE (the portable path, make portable) there are no
 * regions: every level is SIMDe's portable code for the baseline, as the
 * CMake build makes it, and a region could not take SIMDe's portable
 * 128-bit types into native AVX functions.
 */
#ifndef SHOVE_SIMD_ISA_H
#define SHOVE_SIMD_ISA_H

#define SHOVE_ISA_PRAGMA_(text) _Pragma(#text)
#define SHOVE_ISA_PRAGMA(text)  SHOVE_ISA_PRAGMA_(text)

#if defined(SHOVE_ISA_REGIONS) && !defined(SIMDE_NO_NATIVE) &&                                     \
    (defined(__x86_64__) || defined(__i386__)) && defined(__clang__)
#define SHOVE_ISA_BEGIN(isa)                                                                       \
    SHOVE_ISA_PRAGMA(clang attribute push(__attribute__((target(isa))), apply_to = function))
#define SHOVE_ISA_END    SHOVE_ISA_PRAGMA(clang attribute pop)
#define SHOVE_ISA_ACTIVE 1
#elif defined(SHOVE_ISA_REGIONS) && !defined(SIMDE_NO_NATIVE) &&                                   \
    (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
#define SHOVE_ISA_BEGIN(isa) SHOVE_ISA_PRAGMA(GCC push_options) SHOVE_ISA_PRAGMA(GCC target(isa))
#define SHOVE_ISA_END        SHOVE_ISA_PRAGMA(GCC pop_options)
#define SHOVE_ISA_ACTIVE     1
#else
#define SHOVE_ISA_BEGIN(isa)
#define SHOVE_ISA_END
#define SHOVE_ISA_ACTIVE 0
#endif

/* The 256-bit level's region: the same as the others, unless the file is
 * compiled for AVX2 already (then no region is needed) or regions are off. */
#if SHOVE_ISA_ACTIVE && !defined(__AVX2__)
#define SHOVE_ISA256_BEGIN        SHOVE_ISA_BEGIN
#define SHOVE_ISA256_END          SHOVE_ISA_END
#define SHOVE_ISA256_ACTIVE       1
#define SHOVE_ISA256_SIMDE_REGION 1
#else
#define SHOVE_ISA256_BEGIN(isa)
#define SHOVE_ISA256_END
#define SHOVE_ISA256_ACTIVE       0
#define SHOVE_ISA256_SIMDE_REGION 0
#endif

#endif
