/*
 * dim.h: the dimension template. Every algorithm is written once, as a
 * template: a .c file in a layer folder (geometry/, simd/, obstacles/,
 * solve/, world/, bindings/) that is never compiled alone. shove2.c and
 * shove3.c define SHOVE_DIM (2 or 3), include this header, then every
 * template in layer order, then dim_end.h; each is one translation unit.
 * (The SIMD kernels, compiled once per instruction set, do the same with
 * simd/kernels_wide.inc inside each kernels_ISA.c.) Inside a template:
 *
 *   SHOVE_FN(sweep_aabb)   the public name, shove2_sweep_aabb / shove3_sweep_aabb
 *   SHOVE_IFN(gather)      a library-internal name, shove2__gather / shove3__gather
 *   shove_vec, shove_aabb, shove_hit, ...   this dimension's public types
 *
 * Loops run `for (int i = 0; i < SHOVE_DIM; ++i)` over `.raw[i]`; code that
 * must differ per dimension stays inside the small helpers at the end of
 * this file.
 */
#ifndef SHOVE_DIM
#error "define SHOVE_DIM to 2 or 3 before including dim.h"
#endif
#if SHOVE_DIM != 2 && SHOVE_DIM != 3
#error "SHOVE_DIM must be 2 or 3"
#endif

#include <shove/shove.h>

#include "float_model.h"

#define SHOVE_CAT_(a, b) a##b
#define SHOVE_CAT(a, b)  SHOVE_CAT_(a, b)

#if SHOVE_DIM == 2
#define SHOVE_PREFIX  shove2_
#define SHOVE_IPREFIX shove2__
#else
#define SHOVE_PREFIX  shove3_
#define SHOVE_IPREFIX shove3__
#endif

#define SHOVE_FN(name)  SHOVE_CAT(SHOVE_PREFIX, name)
#define SHOVE_IFN(name) SHOVE_CAT(SHOVE_IPREFIX, name)
#define SHOVE_T(name)   SHOVE_CAT(SHOVE_PREFIX, name)

#if SHOVE_DIM == 2
#define shove_vec vec2s
#else
#define shove_vec vec3s
#endif
#define shove_aabb        SHOVE_T(aabb)
#define shove_hit         SHOVE_T(hit)
#define shove_contact     SHOVE_T(contact)
#define shove_filter_fn   SHOVE_T(filter_fn)
#define shove_obstacle    SHOVE_T(obstacle)
#define shove_move_def    SHOVE_T(move_def)
#define shove_move_result SHOVE_T(move_result)
#define shove_world       SHOVE_T(world)
#define shove_world_def   SHOVE_T(world_def)
#define shove_body_def    SHOVE_T(body_def)
#define shove_event       SHOVE_T(event)
#define shove_event_fn    SHOVE_T(event_fn)
#define shove_voxel_fn    SHOVE_T(voxel_fn)
#define shove_voxel_def   SHOVE_T(voxel_def)
#define shove_soa         SHOVE_T(soa)
#define shove_debug_draw  SHOVE_T(debug_draw)

/* Per-dimension helpers: the only places that spell out axes. */
#ifndef SHOVE_DIM_HELPERS_
#define SHOVE_DIM_HELPERS_
static inline vec2s shove__vec2(float v) {
    vec2s r = {{v, v}};
    return r;
}
static inline vec3s shove__vec3(float v) {
    vec3s r = {{v, v, v}};
    return r;
}
#endif
#if SHOVE_DIM == 2
#define shove_vec_splat shove__vec2
#else
#define shove_vec_splat shove__vec3
#endif
