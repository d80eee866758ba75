/* kernels_sse2.c: the SSE2 level, 4 lanes (kernels_wide.inc). */
#include <stdint.h>

#include <simde/x86/sse2.h>

#include "compress.h"
#include "isa.h"

#define WIDE_NAME  sse2
#define WIDE_LANES 4

SHOVE_ISA_BEGIN("sse2")
#include "wide_sse.h"

#define SHOVE_DIM 2
#include "dim.h"
#include "kernels_wide.inc"
#include "dim_end.h"

#define SHOVE_DIM 3
#include "dim.h"
#include "kernels_wide.inc"
#include "dim_end.h"

SHOVE_ISA_END

const shove_kernel_table shove__kernels_sse2 = {
    .overlap2 = shove2__overlap_batch_sse2,
    .overlap3 = shove3__overlap_batch_sse2,
    .sweep2 = shove2__sweep_batch_sse2,
    .sweep3 = shove3__sweep_batch_sse2,
    .list2 = shove2__list_scan_sse2,
    .list3 = shove3__list_scan_sse2,
    .level = SHOVE_SIMD_SSE2,
#if defined(__SSE2__) || SHOVE_ISA_ACTIVE
    .requires_cpu = true,
#endif
};
