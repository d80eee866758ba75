/*
 * slide_list.c: shove3_slide, the slide core over a plain list of boxes.
 * The list is an obstacle source that validates every box in its first
 * gather and, when the boxes near the move do not fit the fixed set on the
 * stack, hands them out in chunks (a resumable source, see obstacles.h).
 * The list is read through the list scan of the SIMD level in use.
 * Template: see dim.h.
 */
#include "geometry/geometry.h"
#include "obstacles/obstacles.h"
#include "simd/kernels.h"
#include "solve/slide_limits.h"

#if SHOVE_DIM == 2
#define SLIDE_KERNEL_LIST list2
#else
#define SLIDE_KERNEL_LIST list3
#endif

/* >>list ---------------------------------------------------------------- */

typedef struct SHOVE_IFN(list_source) {
    const shove_aabb *boxes;
    size_t count;
    bool checked; /* every box was validated (by the first gather) */
    bool invalid; /* ... and one was not a valid box */
} SHOVE_IFN(list_source);

/* Appends, in index order, every listed box that touches the swept box
 * grown by margin. Resumable (see obstacles.h). The list scan of the active
 * SIMD level (simd/kernels.h) reads the list SLIDE_LIST_CHUNK boxes at a
 * time and checks every box it reads; every level finds the same boxes.
 * The first call reads the whole list, so it also validates all of it, and
 * fails on a bad box (the core then writes nothing, and shove3_slide
 * reports the bad argument). */
static bool SHOVE_IFN(list_gather)(void *ctx, shove_aabb box, shove_vec delta, float margin,
                                   SHOVE_IFN(obstacle_set) * out) {
    SHOVE_IFN(list_source) *list = ctx;
    shove_aabb q = SHOVE_IFN(swept_hull)(box, delta);
    for (int a = 0; a < SHOVE_DIM; ++a) {
        q.min.raw[a] -= margin;
        q.max.raw[a] += margin;
    }
    const bool check = !list->checked;
    const shove_kernel_table *kernels = shove__kernels();
    bool valid = true;
    bool full = false;
    uint32_t idx[SLIDE_LIST_CHUNK];
    size_t i = out->cursor;
    while (i < list->count && (check || !full)) {
        size_t n = list->count - i;
        n = n < SLIDE_LIST_CHUNK ? n : SLIDE_LIST_CHUNK;
        const size_t k = kernels->SLIDE_KERNEL_LIST(list->boxes + i, n, q, idx, &valid);
        for (size_t j = 0; j < k && !full; ++j) {
            const size_t at = i + idx[j];
            if (!SHOVE_IFN(obstacles_push)(out, list->boxes[at], SHOVE_NULL_ID, (int32_t)at, 0)) {
                if (!out->fixed) {
                    return false;
                }
                out->more = true;
                out->cursor = at;
                full = true;
            }
        }
        i += n;
    }
    if (!full) {
        out->cursor = list->count;
    }
    if (check) {
        list->checked = true;
        if (!valid) {
            list->invalid = true;
            return false;
        }
    }
    return true;
}

shove_status SHOVE_FN(slide)(shove_aabb box, shove_vec delta, const shove_aabb *obstacles,
                             size_t count, const shove_move_def *user_def, shove_move_result *out) {
    shove_move_def resolved;
    const shove_move_def *def = SHOVE_IFN(move_def_resolve)(user_def, &resolved);
    if (!def || !out || (count > 0 && !obstacles) || count > (size_t)INT32_MAX ||
        !SHOVE_IFN(move_is_valid)(box, delta, def)) {
        return SHOVE_ERR_INVALID_ARGUMENT;
    }
    SHOVE_IFN(obstacle_storage) storage;
    SHOVE_IFN(obstacle_set) set;
    SHOVE_IFN(obstacles_init_fixed)(&set, &storage);
    SHOVE_IFN(list_source) list = {obstacles, count, false, false};
    const SHOVE_IFN(obstacle_source)
        source = {SHOVE_IFN(list_gather), &list, SHOVE_NULL_ID, NULL, NULL};
    const shove_status s = SHOVE_IFN(slide_core)(box, delta, def, &source, &set, out);
    /* A fixed set never runs out of memory: a failed gather is a bad box. */
    return list.invalid ? SHOVE_ERR_INVALID_ARGUMENT : s;
}

#undef SLIDE_KERNEL_LIST
