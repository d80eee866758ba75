/*
 * wide_names.h: gives each level's wide vocabulary (kernels_wide.inc) names
 * of its own: wide_load is sse2_wide_load in kernels_sse2.c, avx2_wide_load
 * in kernels_avx2.c, and so on, after the file's WIDE_NAME. So every level
 * can share one translation unit (the single header) as well as have a file
 * of its own. A level file defines WIDE_NAME, then includes this header,
 * then defines its vocabulary under the plain names. Internal.
 */
#ifndef SHOVE_SIMD_WIDE_NAMES_H
#define SHOVE_SIMD_WIDE_NAMES_H

#define WIDE_NAMED_(level, name) level##_##name
#define WIDE_NAMED(level, name)  WIDE_NAMED_(level, name)

#define wide_f        WIDE_NAMED(WIDE_NAME, wide_f)
#define wide_m        WIDE_NAMED(WIDE_NAME, wide_m)
#define wide_u        WIDE_NAMED(WIDE_NAME, wide_u)
#define wide_load     WIDE_NAMED(WIDE_NAME, wide_load)
#define wide_store    WIDE_NAMED(WIDE_NAME, wide_store)
#define wide_uload    WIDE_NAMED(WIDE_NAME, wide_uload)
#define wide_ustore   WIDE_NAMED(WIDE_NAME, wide_ustore)
#define wide_splat    WIDE_NAMED(WIDE_NAME, wide_splat)
#define wide_usplat   WIDE_NAMED(WIDE_NAME, wide_usplat)
#define wide_sub      WIDE_NAMED(WIDE_NAME, wide_sub)
#define wide_div      WIDE_NAMED(WIDE_NAME, wide_div)
#define wide_max      WIDE_NAMED(WIDE_NAME, wide_max)
#define wide_min      WIDE_NAMED(WIDE_NAME, wide_min)
#define wide_lt       WIDE_NAMED(WIDE_NAME, wide_lt)
#define wide_gt       WIDE_NAMED(WIDE_NAME, wide_gt)
#define wide_nge      WIDE_NAMED(WIDE_NAME, wide_nge)
#define wide_nle      WIDE_NAMED(WIDE_NAME, wide_nle)
#define wide_le       WIDE_NAMED(WIDE_NAME, wide_le)
#define wide_xor      WIDE_NAMED(WIDE_NAME, wide_xor)
#define wide_pairs_lo WIDE_NAMED(WIDE_NAME, wide_pairs_lo)
#define wide_pairs_hi WIDE_NAMED(WIDE_NAME, wide_pairs_hi)
#define wide_not      WIDE_NAMED(WIDE_NAME, wide_not)
#define wide_and      WIDE_NAMED(WIDE_NAME, wide_and)
#define wide_bits     WIDE_NAMED(WIDE_NAME, wide_bits)
#define wide_bits4    WIDE_NAMED(WIDE_NAME, wide_bits4)
#define wide_select   WIDE_NAMED(WIDE_NAME, wide_select)
#define wide_uselect  WIDE_NAMED(WIDE_NAME, wide_uselect)
#define wide_uadd     WIDE_NAMED(WIDE_NAME, wide_uadd)
#define wide_umax     WIDE_NAMED(WIDE_NAME, wide_umax)
#define wide_bits_of  WIDE_NAMED(WIDE_NAME, wide_bits_of)
#define wide_ule_all  WIDE_NAMED(WIDE_NAME, wide_ule_all)
#define wide_compress WIDE_NAMED(WIDE_NAME, wide_compress)

#endif
