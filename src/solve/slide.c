/*
 * slide.c: collide-and-slide, the core every move runs (SHOVE_IFN(slide_core),
 * see obstacles.h): one gather (a second one, with the step-up's room, when
 * a source that allows it left that room out and a step-up is tried),
 * the edge guard's clamp, the plain path or the step-up's, and the ground
 * flags of the end box. A gather that finds nothing ends the move there,
 * with the result those steps would give. Template:
 * see dim.h.
 *
 * Its parts are the solve/ templates read before it, in this order:
 * move_def.c (defaults and checks of a move), mover.c (the state of one
 * move, scans, responses, contacts), ground_probe.c (what lies under a
 * box), sub_move.c (legs, sub-moves and the plain path), step_up.c (the
 * step-up rule), edge_guard.c (the edge guard); slide_list.c, read after
 * it, is shove3_slide over a plain list of boxes.
 *
 * How a move works
 * ----------------
 * The mover's position is always "the start box plus a displacement D": the
 * box at D is (start.min + D, start.max + D), rounded once per coordinate, so
 * the box a test checks is the box the move returns.
 *
 * A move is one or three sub-moves (plain; or raise, walk, settle for a
 * step-up). A sub-move is a series of legs. A leg sweeps the box at D along the
 * remaining motion R against every obstacle:
 *
 *   1. t_min = earliest strict entry among solid obstacles (responses SLIDE,
 *      TOUCH, BOUNCE). Obstacles the mover is already inside do not count
 *      (see "Starting inside").
 *   2. Every solid hit at t_min is looked at together. A hit that enters on
 *      one axis is unambiguous; its axis is blocked. A hit that enters on
 *      several axes at the same instant (an exact corner: the next tile of a
 *      seamed floor, or a box corner met diagonally) is ambiguous; it needs
 *      nothing when one of its axes is already blocked, else it blocks its
 *      axis with the smaller motion (lower axis on a tie). Unambiguous hits
 *      go first: that is what keeps a mover from snagging on seams, the
 *      "mandatory shoves first" idea of the discrete resolvers applied to
 *      sweeps. The result does not depend on the order of the obstacles.
 *   3. The mover goes to t_min, less the skin: the leg stops where the gap
 *      on every blocked axis is `skin` (never going back to make a gap it
 *      does not have). Blocked axes are then snapped to the contact face
 *      minus the skin, so rounding never leaves the mover inside what it hit.
 *   4. The new box is checked against every solid obstacle; one it would
 *      overlap through rounding is fixed by clamping the axis it came from
 *      (and if that fails, the leg is dropped). So a mover that starts free
 *      never ends overlapping a solid obstacle.
 *   5. Responses shape the rest of the motion: SLIDE drops the blocked
 *      component, BOUNCE reverses it, TOUCH drops everything. CROSS
 *      obstacles never block and are reported when entered; IGNORE ones are
 *      invisible.
 *
 * Rule 2 (never further than asked, never backwards) holds because every leg
 * is clamped to the envelope [min(0, request), max(0, request)] per axis. The
 * two exceptions are documented at the top of shove3.h: an auto step-up may
 * raise the mover by up to step_height, and a BOUNCE reflects the rest of
 * the motion on the blocked axis as bump.lua does (the new goal is the
 * contact point plus the reflected rest): on that axis the envelope becomes
 * the reflected leg, which may carry the mover back past its start.
 *
 * Starting inside. A mover that starts strictly inside solid obstacles is
 * not pushed out (shove3_resolve does that). Each such obstacle is reported
 * at t = 0 with the normal of its cheapest way out, and acts as a one-way
 * plane on that axis: motion deeper along the normal is dropped, every other
 * motion (out of it, or along it) is free.
 *
 * Contacts. Every obstacle that stopped a component of the motion, or that
 * a CROSS response let the mover into, is reported once, in order of t
 * (ties in the order of the obstacle set). An obstacle touched only along an
 * edge or a corner, whose hit another contact made moot, is not a contact.
 * With SLIDE, TOUCH and CROSS the path is monotone on every axis, so an
 * obstacle can only be met once; after a BOUNCE the first
 * SLIDE_REPORTED_KEYS obstacles are remembered to avoid repeats.
 */
#include <math.h>
#include <string.h>

#include "geometry/geometry.h"
#include "obstacles/obstacles.h"

/* >>core ---------------------------------------------------------------- */
/* |x| when it is above `big`, else `big`. */
static inline float SHOVE_IFN(larger_magnitude)(float big, float x) {
    return fabsf(x) > big ? fabsf(x) : big;
}

/* What the move's gather asks for (m->region_*): the swept box, widened on
 * the up axis for the step-up's raise and the ground and edge probes. A
 * bounce may take the mover back past its start by up to the motion (never
 * further: each reflection keeps a part of what is left), so a move that
 * may bounce gathers the box swept both ways.
 *
 * Most moves try no step-up, and its room (step_height above the head, and
 * below the foot for the edge guard's probe) is a layer of voxels more to
 * read: a source that allows it (obstacle_source.lean_room) is asked
 * without that room, and again with it when a step-up is tried
 * (widen_for_step). Until then only the ground probe looks past the swept
 * box, within `near`, and the edge guard's probe, which a guarded move's
 * region keeps. A thin mover (m->thin, see top_covered) is never lean: its
 * probes tell a top it stands on from a top another box covers, and the
 * edge guard's reaches step_height above a foot that may be its head, so
 * they need the boxes above its head that a lean region leaves out. */
static inline void SHOVE_IFN(gather_region)(SHOVE_IFN(mover) * m, shove_aabb box, shove_vec delta,
                                            bool guarding) {
    const shove_move_def *def = m->def;
    const int up = def->up_axis;
    m->region_box =
        SHOVE_IFN(may_bounce)(def) ? SHOVE_IFN(swept_bounds)(box, SHOVE_IFN(vec_neg)(delta)) : box;
    m->lean = false;
    m->gather_failed = false;
    if (up >= 0) {
        const float reach = def->step_height + 4.0f * def->skin + 2.0f * m->slack;
        const float top = m->region_box.max.raw[up], bottom = m->region_box.min.raw[up];
        m->region_box.min.raw[up] -= reach;
        m->region_box.max.raw[up] += reach;
        const bool *lean = m->source->lean_room;
        if (lean && *lean && def->step_height > 0.0f && !m->thin) {
            const float near = 4.0f * def->skin + 2.0f * m->slack;
            m->lean = true;
            m->room_top = m->region_box.max.raw[up];
            m->room_bottom = m->region_box.min.raw[up];
            m->region_box.max.raw[up] = top + near;
            if (!guarding) {
                m->region_box.min.raw[up] = bottom - near;
            }
        }
    }
    m->region_delta = delta;
    m->region_margin = def->skin + m->slack;
}

/* Writes the result of a path ending at displacement `d` (flags and
 * contacts from `p`, on_ground from the end box's probe). A zero
 * displacement is +0 on every axis: which sign of zero the arithmetic
 * leaves (a reflected 0 is -0) depends on the order the obstacles are met
 * in, and a move's result does not. Settled before the box is moved by
 * it, so that the box is the start plus the displacement bit for bit
 * (-0 + -0 is -0, -0 + +0 is +0). */
static void SHOVE_IFN(slide_result)(shove_aabb box, const SHOVE_IFN(path) * p, bool on_ground,
                                    shove_move_result *out) {
    shove_vec d = p->d;
    SHOVE_AXES_UNROLLED
    for (int a = 0; a < SHOVE_DIM; ++a) {
        d.raw[a] += 0.0f;
    }
    out->box = SHOVE_IFN(box_moved)(box, d);
    out->delta = d;
    out->contact_count = p->contact_count;
    out->on_ground = on_ground;
    out->hit_ceiling = p->hit_ceiling;
    out->hit_wall = p->hit_wall;
    out->stepped = p->stepped_up;
}

shove_status SHOVE_IFN(slide_core)(shove_aabb box, shove_vec delta, const shove_move_def *def,
                                   const SHOVE_IFN(obstacle_source) * source,
                                   SHOVE_IFN(obstacle_set) * scratch, shove_move_result *out) {
    SHOVE_IFN(mover) m;
    /* Every field but keys[] (read only below key_count): a move is too
     * short to clear them for nothing. */
    m.def = def;
    m.source = source;
    m.set = scratch;
    m.start = box;
    m.inside_solid = false;
    m.write_contacts = false;
    m.contact_count = 0;
    m.t_lo = 0.0f;
    m.t_span = 1.0f;
    m.bounced = false;
    m.key_count = 0;
    m.hit_ceiling = false;
    m.settling = false;
    m.hit_wall = false;
    const int up = def->up_axis;

    /* Rounding scale of this move's coordinates, and the box's narrowest
     * side: a box no wider than that rounding may lose its width as it
     * moves (any axis: the test is cheaper without the up exception). */
    float big = 0.0f;
    float narrow = INFINITY;
    SHOVE_AXES_UNROLLED
    for (int a = 0; a < SHOVE_DIM; ++a) {
        /* The four faces one by one, in registers (an array of them was
         * built in memory and looped over on every move). */
        const float lo = box.min.raw[a], hi = box.max.raw[a];
        big = SHOVE_IFN(larger_magnitude)(big, lo);
        big = SHOVE_IFN(larger_magnitude)(big, hi);
        big = SHOVE_IFN(larger_magnitude)(big, lo + delta.raw[a]);
        big = SHOVE_IFN(larger_magnitude)(big, hi + delta.raw[a]);
        const float side = hi - lo;
        narrow = side < narrow ? side : narrow;
    }
    m.slack = 4.0f * SHOVE_IFN(ulp)(big);
    m.thin = !(narrow > m.slack);

    /* The guard keeps walking movers over ground: on it, or walking down
     * onto ground within step_height below. Jumps and falls are free. */
    const bool guarding = def->edge_guard && up >= 0 && !(delta.raw[up] > 0.0f);
    SHOVE_IFN(gather_region)(&m, box, delta, guarding);
    SHOVE_IFN(obstacles_clear)(scratch);
    scratch->cursor = 0;
    if (!source->gather(source->ctx, m.region_box, m.region_delta, m.region_margin, scratch)) {
        return SHOVE_ERR_OUT_OF_MEMORY;
    }
    m.streaming = scratch->more;
    if (scratch->count == 0 && !m.streaming) {
        /* Nothing gathered: what the steps below would give, without
         * running them. The probes find no ground and no edge (so no guard
         * and no step-up), and the plain path's one leg meets nothing and
         * ends exactly at the request on every axis (leg_move: an axis no
         * response shaped ends at its envelope's end, +0 + request, which
         * is the request; a zero component never leaves the start's +0).
         * In a top-down scene of bump.lua's kind, four moves in five. */
        const SHOVE_IFN(path) whole = {.d = delta};
        SHOVE_IFN(slide_result)(box, &whole, false, out);
        return SHOVE_OK;
    }

    SHOVE_IFN(support) under;
    memset(&under, 0, sizeof under);
    if (up >= 0) {
        under = SHOVE_IFN(probe_inline)(&m, box, guarding, guarding);
    }
    const bool grounded = under.ground;
    const bool guard = guarding && under.edge;
    shove_vec request = delta;
    if (guard) {
        request = SHOVE_IFN(edge_clamp)(&m, delta, &under);
    }
    SHOVE_IFN(path) p;
    SHOVE_IFN(slide_or_step_up)(&m, request, grounded, &p);
    /* The end box's ground, and whether the guard accepts it. */
    SHOVE_IFN(support) end;
    memset(&end, 0, sizeof end);
    if (up >= 0) {
        end = SHOVE_IFN(probe_inline)(&m, SHOVE_IFN(box_moved)(box, p.d), guard, false);
    }
    if (guard && !end.edge) {
        SHOVE_IFN(edge_guard_fallback)(&m, request, grounded, &p, &end);
    }
    if (m.gather_failed) {
        return SHOVE_ERR_OUT_OF_MEMORY; /* or the source's own reason (world moves) */
    }

    SHOVE_IFN(slide_result)(box, &p, end.ground, out);
    return SHOVE_OK;
}
