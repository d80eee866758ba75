/* kernels_scalar.c: the scalar level's table (plain C, the reference). */
#include "kernels.h"

size_t shove2__overlap_batch_scalar(const shove2_soa *boxes, shove2_aabb query, uint32_t *out);
size_t shove3__overlap_batch_scalar(const shove3_soa *boxes, shove3_aabb query, uint32_t *out);
bool shove2__sweep_batch_scalar(const shove2_soa *boxes, shove2_aabb moving, vec2s delta,
                                shove2_hit *hit, uint32_t *hit_index);
bool shove3__sweep_batch_scalar(const shove3_soa *boxes, shove3_aabb moving, vec3s delta,
                                shove3_hit *hit, uint32_t *hit_index);
size_t shove2__list_scan_scalar(const shove2_aabb *boxes, size_t count, shove2_aabb query,
                                uint32_t *out, bool *valid);
size_t shove3__list_scan_scalar(const shove3_aabb *boxes, size_t count, shove3_aabb query,
                                uint32_t *out, bool *valid);

const shove_kernel_table shove__kernels_scalar = {
    .overlap2 = shove2__overlap_batch_scalar,
    .overlap3 = shove3__overlap_batch_scalar,
    .sweep2 = shove2__sweep_batch_scalar,
    .sweep3 = shove3__sweep_batch_scalar,
    .list2 = shove2__list_scan_scalar,
    .list3 = shove3__list_scan_scalar,
    .level = SHOVE_SIMD_SCALAR,
};
