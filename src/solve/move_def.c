/*
 * move_def.c: the move def of every slide (shove3_default_move_def), how a
 * def is read (a literal def's zero fields keep their defaults) and the
 * checks a move passes before the slide core runs it: a valid def, and an
 * end box, step-up reach and bounce reach that are boxes too.
 * Template: see dim.h.
 */
#include <math.h>
#include <string.h>

#include "geometry/geometry.h"
#include "obstacles/obstacles.h"
#include "solve/response.h"
#include "solve/slide_limits.h"

shove_move_def SHOVE_FN(default_move_def)(void) {
    shove_move_def def;
    memset(&def, 0, sizeof def);
    /* 0: movers stop exactly on the faces they meet. Exact snapping and the
     * rounding fix-up keep them out of what they touch without a gap, and a
     * gap would break exact fits: a mover resting a skin above a floor no
     * longer fits under a roof exactly its height above that floor. */
    def.skin = 0.0f;
    def.max_iterations = 8;
    def.up_axis = 1;
    def.step_height = 0.0f;
    def.edge_guard = false;
    /* A sixteenth of a block: a guarded player keeps its box over the
     * block it stands on, not balanced on the block's edge. */
    def.edge_footing = 0.0625f;
    def.response = SHOVE_RESPONSE_SLIDE;
    def.internal_literal_mark = SHOVE_DEF_LITERAL_MARK;
    return def;
}

const shove_move_def *SHOVE_IFN(move_def_resolve)(const shove_move_def *def,
                                                  shove_move_def *scratch) {
    if (def && def->internal_literal_mark == SHOVE_DEF_LITERAL_MARK) {
        return def;
    }
    if (def && !shove__def_mark_is_known(def->internal_literal_mark)) {
        return NULL;
    }
    *scratch = SHOVE_FN(default_move_def)();
    if (def) {
        /* Every field of the def, in order: a zero one keeps its default. */
        SHOVE_DEF_TAKE(scratch, def, skin);
        SHOVE_DEF_TAKE(scratch, def, max_iterations);
        SHOVE_DEF_TAKE(scratch, def, up_axis);
        SHOVE_DEF_TAKE(scratch, def, step_height);
        SHOVE_DEF_TAKE(scratch, def, edge_guard);
        SHOVE_DEF_TAKE(scratch, def, edge_footing);
        SHOVE_DEF_TAKE(scratch, def, response);
        SHOVE_DEF_TAKE(scratch, def, filter);
        SHOVE_DEF_TAKE(scratch, def, filter_ctx);
        SHOVE_DEF_TAKE(scratch, def, contacts);
        SHOVE_DEF_TAKE(scratch, def, contact_capacity);
    }
    return scratch;
}

bool SHOVE_IFN(move_def_is_valid)(const shove_move_def *def) {
    if (!def) {
        return false;
    }
    if (!isfinite(def->skin) || !(def->skin >= 0.0f)) {
        return false;
    }
    if (!isfinite(def->step_height) || !(def->step_height >= 0.0f)) {
        return false;
    }
    if (!isfinite(def->edge_footing) || !(def->edge_footing >= 0.0f)) {
        return false;
    }
    if (def->max_iterations < 1 || def->max_iterations > SLIDE_MAX_ITERATIONS) {
        return false;
    }
    if (def->up_axis < -1 || def->up_axis >= SHOVE_DIM) {
        return false;
    }
    /* A step-up climbs along the up axis: without one a step height would
     * be ignored without a word. */
    if (def->up_axis < 0 && def->step_height != 0.0f) {
        return false;
    }
    if (!shove__response_is_valid(def->response)) {
        return false;
    }
    if (def->contact_capacity < 0 || (def->contact_capacity > 0 && !def->contacts)) {
        return false;
    }
    return true;
}

/* True when a move with `def` may meet a BOUNCE response. */
static inline bool SHOVE_IFN(may_bounce)(const shove_move_def *def) {
    return def->response == SHOVE_RESPONSE_BOUNCE || def->filter != NULL;
}

static inline shove_vec SHOVE_IFN(vec_neg)(shove_vec v) {
    SHOVE_AXES_UNROLLED
    for (int a = 0; a < SHOVE_DIM; ++a) {
        v.raw[a] = -v.raw[a];
    }
    return v;
}

bool SHOVE_IFN(move_is_valid)(shove_aabb box, shove_vec delta, const shove_move_def *def) {
    if (!SHOVE_FN(aabb_is_valid)(box) || !SHOVE_IFN(vec_is_finite)(delta) ||
        !SHOVE_IFN(move_def_is_valid)(def)) {
        return false;
    }
    return SHOVE_IFN(move_reach_is_valid)(box, delta, def);
}

bool SHOVE_IFN(move_reach_is_valid)(shove_aabb box, shove_vec delta, const shove_move_def *def) {
    /* The end box, and the reach of a step-up, must be boxes too. */
    shove_aabb end = SHOVE_IFN(box_moved)(box, delta);
    if (def->up_axis >= 0) {
        end.max.raw[def->up_axis] += def->step_height + 4.0f * def->skin;
        end.min.raw[def->up_axis] -= def->step_height + 4.0f * def->skin;
    }
    if (!SHOVE_IFN(box_is_valid)(end)) {
        return false;
    }
    /* A bounce may carry the mover back past its start by up to the motion. */
    return !SHOVE_IFN(may_bounce)(def) ||
           SHOVE_IFN(box_is_valid)(SHOVE_IFN(box_moved)(box, SHOVE_IFN(vec_neg)(delta)));
}
