/*
 * edge_guard.c: the edge guard (move def edge_guard). A guarded mover that
 * walks on ground, or down onto ground a step-up reaches, keeps its
 * footprint over that ground: each sideways part of its request is cut
 * where the run of supports under it ends, less the footing kept
 * (edge_footing); if the end box is still not over ground, it tries each
 * sideways axis alone, then no sideways motion. Jumps and falls are free.
 * Walls (solids too high to step onto) carry the run on as ground does:
 * they are no drop, and the slide stops the mover against them.
 * Template: see dim.h.
 */
#include <math.h>

#include "geometry/geometry.h"
#include "obstacles/obstacles.h"
#include "solve/slide_limits.h"

/* >>edge guard ---------------------------------------------------------- */

/* The run of supports along sideways axis `a` for the edge guard: each
 * support among those `q` holds (a solid in the probe's height band: a top
 * within a step, or a wall through the band) is an open interval of the
 * displacements along a for which it lies under the start box's footprint,
 * and the run grows from 0 through the intervals that overlap it, in the
 * direction of `want`. Sets *run_reach to how far the run goes; false when
 * no support lies under the box along a. `keep` is the footing the clamp
 * keeps. */
static bool SHOVE_IFN(edge_support_run)(SHOVE_IFN(mover) * m, int a, float want, float keep,
                                        shove_aabb q, float *run_reach) {
    const int up = m->def->up_axis;
    const shove_aabb b = m->start;
    /* reach: how far the run of supports goes (in the motion's sign);
     * face: the far face of the support that set it. */
    float reach = 0.0f;
    float face = 0.0f;
    bool grew = true;
    bool any = false;
    /* The mover has width along a: a support that starts where the run
     * ends (a seam) extends it, whatever the rounding of lo_d says (at
     * a seam the exact intervals overlap by the mover's width, which
     * may round away: a mover 1e-45 wide at x = 7.25). */
    const bool wide = b.max.raw[a] > b.min.raw[a];
    while (grew) {
        grew = false;
        SHOVE_IFN(scan) s;
        uint32_t idx[SLIDE_SCAN_CHUNK];
        SHOVE_IFN(scan_start)(m, &s);
        for (size_t k; (k = SHOVE_IFN(scan_next)(m, &s, q, idx)) > 0;) {
            for (size_t j = 0; j < k; ++j) {
                const size_t i = idx[j];
                const shove_aabb o = SHOVE_IFN(obstacles_box)(m->set, i);
                /* Solids in the probe's height band carry the run on,
                 * those too high to step onto included: a wall is no edge
                 * to fall from. A solid cut in two across the up axis
                 * then carries it as the whole does (rule 3): the buried
                 * top of its lower half within a step, the whole above
                 * one, both over the same span. */
                if (o.min.raw[up] >= b.max.raw[up]) {
                    continue;
                }
                /* Displacements along a for which the footprints
                 * overlap: an open interval; it extends the run when
                 * it contains the run's current end. */
                const float lo_d = o.min.raw[a] - b.max.raw[a];
                const float hi_d = o.max.raw[a] - b.min.raw[a];
                const bool seam = any && wide &&
                                  (want > 0.0f ? o.min.raw[a] <= face && o.max.raw[a] > face
                                               : o.max.raw[a] >= face && o.min.raw[a] < face);
                /* A mover without width along a stands on a support
                 * over its closed interval (see footprint). */
                const bool on =
                    wide ? lo_d < reach && hi_d > reach : lo_d <= reach && hi_d >= reach;
                if (!on && !seam) {
                    continue;
                }
                const float far = want > 0.0f ? hi_d : lo_d;
                if (SHOVE_IFN(overlaps_unchecked)(o, b) ||
                    !SHOVE_IFN(is_solid)(SHOVE_IFN(response_of)(m, i))) {
                    continue;
                }
                if (!(want > 0.0f ? far > reach : far < reach) && any) {
                    continue; /* reaches no further than the run */
                }
                reach = far;
                face = want > 0.0f ? o.max.raw[a] : o.min.raw[a];
                grew = true;
                any = true;
            }
        }
        /* Stop early only when the run already reaches so far that the
         * clamp below leaves `want` alone (the same test); short of
         * that, grow the run to its end, or the outcome would depend on
         * the order in which the scan meets the supports. */
        if (want > 0.0f ? !(want > reach - keep) : !(want < reach + keep)) {
            break;
        }
    }
    *run_reach = reach;
    return any;
}

/* Edge guard: the largest part of the request, per sideways axis, that
 * keeps the footprint over ground an edge guard accepts. Walking along axis
 * a, each support is an open interval of displacements; the mover may go to
 * the end of the run of overlapping intervals around 0, less the footing
 * kept (so it keeps some support and stays grounded). */
static shove_vec SHOVE_IFN(edge_clamp)(SHOVE_IFN(mover) * m, shove_vec request,
                                       const SHOVE_IFN(support) * under) {
    const int up = m->def->up_axis;
    const shove_aabb b = m->start;
    SHOVE_AXES_UNROLLED
    for (int a = 0; a < SHOVE_DIM; ++a) {
        const float want = request.raw[a];
        if (a == up || want == 0.0f) {
            continue;
        }
        /* Footing kept at the edge along a: edge_footing, or the box's own
         * width when it is narrower (the whole box stays over the support),
         * at least the skin; plus a few float steps so that far from the
         * origin (where both may round away) some is left. */
        const float width = b.max.raw[a] - b.min.raw[a];
        float footing = m->def->edge_footing < width ? m->def->edge_footing : width;
        footing = footing > m->def->skin ? footing : m->def->skin;
        const float keep = footing + m->slack;
        /* A support under the start box that alone reaches past the
         * request (less the footing kept) leaves this axis alone: the run
         * below would reach at least as far. */
        if (want > 0.0f ? !(want > under->reach_hi.raw[a] - keep)
                        : !(want < under->reach_lo.raw[a] + keep)) {
            continue;
        }
        /* Supports up to where the run must reach for the clamp to leave
         * `want` alone (want + keep), and a margin for rounding: one that
         * starts past the request may still carry the run on. */
        shove_aabb q = SHOVE_IFN(edge_probe_box)(m, b);
        if (want > 0.0f) {
            q.max.raw[a] = b.max.raw[a] + (want + 2.0f * keep);
        } else {
            q.min.raw[a] = b.min.raw[a] + (want - 2.0f * keep);
        }
        q.min.raw[a] = shove__next_down(q.min.raw[a]);
        q.max.raw[a] = shove__next_up(q.max.raw[a]);
        if (!(q.min.raw[up] < q.max.raw[up])) {
            continue;
        }
        float reach;
        if (!SHOVE_IFN(edge_support_run)(m, a, want, keep, q, &reach)) {
            continue; /* nothing to guard against along this axis */
        }
        if (want > 0.0f) {
            const float limit = reach - keep;
            if (want > limit) {
                request.raw[a] = limit > 0.0f ? limit : 0.0f;
            }
        } else {
            const float limit = reach + keep;
            if (want < limit) {
                request.raw[a] = limit < 0.0f ? limit : 0.0f;
            }
        }
    }
    return request;
}

/* When the end box of the clamped request is not over ground the guard
 * accepts, the per-axis clamps were not enough (a diagonal into a notch):
 * try each sideways axis alone, then no sideways motion at all. *p and
 * *end become the path taken and what is under its end box. */
static void SHOVE_IFN(edge_guard_fallback)(SHOVE_IFN(mover) * m, shove_vec request, bool grounded,
                                           SHOVE_IFN(path) * p, SHOVE_IFN(support) * end) {
    const int up = m->def->up_axis;
    const shove_aabb box = m->start;
    bool done = false;
    for (int a = 0; a < SHOVE_DIM && !done; ++a) {
        if (a == up || request.raw[a] == 0.0f) {
            continue;
        }
        shove_vec only = shove_vec_splat(0.0f);
        only.raw[a] = request.raw[a];
        only.raw[up] = request.raw[up];
        SHOVE_IFN(slide_or_step_up)(m, only, grounded, p);
        *end = SHOVE_IFN(probe)(m, SHOVE_IFN(box_moved)(box, p->d), true, false);
        done = end->edge;
    }
    if (!done) {
        shove_vec still = shove_vec_splat(0.0f);
        still.raw[up] = request.raw[up];
        SHOVE_IFN(slide_or_step_up)(m, still, grounded, p);
        end->ground = SHOVE_IFN(stands_on_ground)(m, SHOVE_IFN(box_moved)(box, p->d));
    }
}
