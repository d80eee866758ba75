/*
 * slide_list.c: shove3_slide, the slide core over a plain list of boxes.
 * The list is an obstacle source that validates every box in its first
 * gather and, when the boxes near the move do not fit the fixed set on the
 * stack, hands them out in chunks (a resumable source, see obstacles.h).
 * Template: see dim.h.
 */
#include <float.h>

#include "geometry/geometry.h"
#include "obstacles/obstacles.h"

/* >>list ---------------------------------------------------------------- */

typedef struct SHOVE_IFN(list_source) {
    const shove_aabb *boxes;
    size_t count;
    bool checked; /* every box was validated (by the first gather) */
    bool invalid; /* ... and one was not a valid box */
} SHOVE_IFN(list_source);

/* Appends, in index order, every listed box that touches the swept box
 * grown by margin. Resumable (see obstacles.h). The first call also
 * validates the whole list, in the same pass, and fails on a bad box (the
 * core then writes nothing, and shove3_slide reports the bad argument). */
static bool SHOVE_IFN(list_gather)(void *ctx, shove_aabb box, shove_vec delta, float margin,
                                   SHOVE_IFN(obstacle_set) * out) {
    SHOVE_IFN(list_source) *list = ctx;
    shove_aabb q = SHOVE_IFN(swept_hull)(box, delta);
    for (int a = 0; a < SHOVE_DIM; ++a) {
        q.min.raw[a] -= margin;
        q.max.raw[a] += margin;
    }
    const bool check = !list->checked;
    int bad = 0;
    size_t i = out->cursor;
    for (; i < list->count; ++i) {
        const shove_aabb *o = &list->boxes[i];
        int touches = 1, valid = 1;
        for (int a = 0; a < SHOVE_DIM; ++a) {
            const float lo = o->min.raw[a], hi = o->max.raw[a];
            /* lo >= -FLT_MAX, hi <= FLT_MAX and lo <= hi hold together
             * exactly for finite, ordered bounds (NaN fails them all). */
            valid &= (lo >= -FLT_MAX) & (hi <= FLT_MAX) & (lo <= hi);
            touches &= (lo <= q.max.raw[a]) & (q.min.raw[a] <= hi);
        }
        bad |= !valid;
        if (touches && !SHOVE_IFN(obstacles_push)(out, *o, SHOVE_NULL_ID, (int32_t)i, 0)) {
            if (!out->fixed) {
                return false;
            }
            out->more = true;
            break;
        }
    }
    out->cursor = i;
    if (check) {
        for (size_t j = i; j < list->count; ++j) {
            bad |= !SHOVE_FN(aabb_is_valid)(list->boxes[j]);
        }
        list->checked = true;
        if (bad) {
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
    const SHOVE_IFN(obstacle_source) source = {SHOVE_IFN(list_gather), &list, SHOVE_NULL_ID};
    const shove_status s = SHOVE_IFN(slide_core)(box, delta, def, &source, &set, out);
    /* A fixed set never runs out of memory: a failed gather is a bad box. */
    return list.invalid ? SHOVE_ERR_INVALID_ARGUMENT : s;
}
