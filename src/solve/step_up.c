/*
 * step_up.c: the step-up rule. A grounded mover, not moving up, whose plain
 * slide was stopped by a wall tries again raised by up to step_height:
 * raise, walk the sideways part, settle back down. The step-up's path replaces the plain
 * one when it gets further sideways and ends on ground. (The world's shove
 * step, world/step.c, is another thing.) Template: see dim.h.
 */
#include <math.h>

#include "geometry/geometry.h"
#include "obstacles/obstacles.h"

/* >>step-up ------------------------------------------------------------- */

/* The step-up's path: raise by up to step_height, walk the horizontal
 * part, settle down by the raise plus the request's own downward part.
 * Returns false when the raise got nowhere. */
static bool SHOVE_IFN(step_up_path)(SHOVE_IFN(mover) * m, shove_vec request, bool write,
                                    SHOVE_IFN(path) * p) {
    const int up = m->def->up_axis;
    SHOVE_IFN(path_begin)(m, write);
    shove_vec d = shove_vec_splat(0.0f);
    shove_vec raise = shove_vec_splat(0.0f);
    raise.raw[up] = m->def->step_height;
    m->t_lo = 0.0f;
    m->t_span = 0.0f;
    SHOVE_IFN(sub_move)(m, &d, raise, true);
    const float risen = d.raw[up];
    if (!(risen > 0.0f)) {
        return false;
    }
    shove_vec walk = request;
    walk.raw[up] = 0.0f;
    m->t_span = 1.0f;
    SHOVE_IFN(sub_move)(m, &d, walk, false);
    shove_vec settle = shove_vec_splat(0.0f);
    /* Down by the raise plus the request's own downward part, but never
     * (through rounding of risen + that) below the request: rule 2. */
    const float floor_d = request.raw[up] < 0.0f ? request.raw[up] : 0.0f;
    settle.raw[up] = SHOVE_IFN(clamp_above)(risen, floor_d, -(risen - floor_d));
    m->t_lo = 1.0f;
    m->t_span = 0.0f;
    /* The settle is the step-up's own motion, not the game's: a BOUNCE
     * top stops it as a slide would. Reflected, the rest of it would lift
     * the mover past step_height. */
    m->settling = true;
    SHOVE_IFN(sub_move)(m, &d, settle, false);
    m->settling = false;
    SHOVE_IFN(path_end)(m, p, d);
    p->stepped_up = true;
    return true;
}

/* Sum of |displacement| over the axes other than up. */
static float SHOVE_IFN(sideways)(shove_vec d, int up) {
    float s = 0.0f;
    for (int a = 0; a < SHOVE_DIM; ++a) {
        if (a != up) {
            s += fabsf(d.raw[a]);
        }
    }
    return s;
}

/* Plain slide, then a step-up when the plain slide was blocked sideways
 * and a step-up gets further. */
static void SHOVE_IFN(slide_or_step_up)(SHOVE_IFN(mover) * m, shove_vec request, bool grounded,
                                        SHOVE_IFN(path) * best) {
    const shove_move_def *def = m->def;
    const int up = def->up_axis;
    SHOVE_IFN(plain_path)(m, request, true, best);
    if (!(def->step_height > 0.0f) || up < 0 || !grounded || request.raw[up] > 0.0f ||
        !best->hit_wall) {
        return;
    }
    const float plain = SHOVE_IFN(sideways)(best->d, up);
    if (!(SHOVE_IFN(sideways)(request, up) > plain)) {
        return;
    }
    if (!SHOVE_IFN(widen_for_step)(m)) {
        return; /* the move fails (slide_core) */
    }
    /* A dry run first (no contacts written), so the plain contacts stay in
     * def->contacts when the step-up is refused. */
    SHOVE_IFN(path) step_up;
    if (!SHOVE_IFN(step_up_path)(m, request, false, &step_up) ||
        !(SHOVE_IFN(sideways)(step_up.d, up) > plain) ||
        !SHOVE_IFN(stands_on_ground)(m, SHOVE_IFN(box_moved)(m->start, step_up.d))) {
        return;
    }
    if (def->contact_capacity == 0) {
        *best = step_up; /* no contacts to write: the dry run is the path */
        return;
    }
    SHOVE_IFN(step_up_path)(m, request, true, best);
}
