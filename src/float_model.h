/*
 * float_model.h: the floating-point model the library is written for,
 * checked where the compiler says which one it was given. Internal,
 * dimension-free; dim.h includes it, so every translation unit of the
 * library (and the single header's implementation) checks it.
 *
 * The library tells bad input by its NaN and infinities (every bad number
 * gets a clear status) and gives the same bits at every SIMD level. Under
 * -ffast-math or -ffinite-math-only the compiler may assume that no NaN or
 * infinity exists, and so drop those tests, and may reorder sums: such a
 * build compiles, then answers wrongly or stops at an assertion. So it does
 * not compile. A game built with -ffast-math compiles the library's own
 * file (the one that defines SHOVE_IMPLEMENTATION, with the single header)
 * with -fno-fast-math; the public headers need nothing.
 */
#ifndef SHOVE_FLOAT_MODEL_H
#define SHOVE_FLOAT_MODEL_H

#if defined(__FAST_MATH__) || (defined(__FINITE_MATH_ONLY__) && __FINITE_MATH_ONLY__) ||           \
    defined(_M_FP_FAST)
#error                                                                                             \
    "shove's implementation needs IEEE floats with NaN and infinity: compile it without -ffast-math / -ffinite-math-only (add -fno-fast-math to that one file)"
#endif

#endif
