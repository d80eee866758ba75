/* kernels_sse41.c: the SSE4.1 level, 4 lanes (kernels_wide.inc): SSE2 plus blendv. */
#include <stdint.h>

#include <simde/x86/sse4.1.h>

#include "compress.h"
#include "isa.h"

#define WIDE_NAME  sse41
#define WIDE_LANES 4
#define WIDE_SSE41

SHOVE_ISA_BEGIN("sse4.1")
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

const shove_kernel_table shove__kernels_sse41 = {
    .overlap2 = shove2__overlap_batch_sse41,
    .overlap3 = shove3__overlap_batch_sse41,
    .sweep2 = shove2__sweep_batch_sse41,
    .sweep3 = shove3__sweep_batch_sse41,
    .list2 = shove2__list_scan_sse41,
    .list3 = shove3__list_scan_sse41,
    .level = SHOVE_SIMD_SSE41,
#if defined(__SSE4_1__) || SHOVE_ISA_ACTIVE
    .requires_cpu = true,
#endif
};
