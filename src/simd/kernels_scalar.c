/* kernels_scalar.c: the scalar level's table (plain C, the reference). */
#include "kernels.h"

const shove_kernel_table shove__kernels_scalar = {
    .overlap2 = shove2__overlap_batch_scalar,
    .overlap3 = shove3__overlap_batch_scalar,
    .sweep2 = shove2__sweep_batch_scalar,
    .sweep3 = shove3__sweep_batch_scalar,
    .list2 = shove2__list_scan_scalar,
    .list3 = shove3__list_scan_scalar,
    .level = SHOVE_SIMD_SCALAR,
};
