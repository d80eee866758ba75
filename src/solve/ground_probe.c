/*
 * ground_probe.c: what lies under a mover's box. One scan answers whether
 * the box stands on ground (the on_ground flag, and the footing a step-up
 * must end on) and, for the edge guard, whether ground a step-up reaches
 * lies under it and how far along each sideways axis that ground goes.
 * Template: see dim.h.
 */
#include <math.h>

#include "geometry/geometry.h"
#include "obstacles/obstacles.h"
#include "solve/slide_limits.h"

/* How far below the foot a surface still counts as ground: the skin twice
 * (a resting mover floats at most one skin up) plus rounding at the foot. */
static inline float SHOVE_IFN(ground_probe)(const SHOVE_IFN(mover) * m, float foot) {
    return 2.0f * m->def->skin + 2.0f * SHOVE_IFN(ulp)(foot) + m->slack;
}

/* Box `b` as a footprint for the probes, which scan for strict overlap: a
 * sideways axis on which b has no width (a zero-wide mover, or one whose
 * width rounded away) is widened by a float step each way, so that a
 * support counts when b's line lies on it, faces included. A line on the
 * seam of two supports then stands on both, as it stands on their union
 * (rule 3); strict overlap would leave it on neither. */
static SLIDE_NOINLINE void SHOVE_IFN(footprint_widen)(int up, shove_aabb *q) {
    SHOVE_AXES_UNROLLED
    for (int a = 0; a < SHOVE_DIM; ++a) {
        if (a != up && q->min.raw[a] == q->max.raw[a]) {
            q->min.raw[a] = shove__next_down(q->min.raw[a]);
            q->max.raw[a] = shove__next_up(q->max.raw[a]);
        }
    }
}

/* Most tops a rule 3 check of a line's support collects (top_covered);
 * past it the top counts, as it did before the check. */
#define PROBE_COVER_TOPS 32

/* Rule 3 for a box with no width on a sideways axis (see footprint_widen).
 * Its footprint is a line (or a point), which may lie on the side face of
 * a wall. A top under the line that the same solid goes on above, on the
 * same side of the line, is no surface there: it is where a wall was cut in
 * two, and the whole wall (beside the line, its top higher) holds nothing
 * up. True when the top of obstacle `s` (set position `si`) is covered so
 * all along the line over it: by solid obstacles that reach across its
 * height and hold its side of the line (the other sideways axis, in 3D,
 * as a union of intervals). A streamed set is not scanned again here (the
 * probe that asks is in the middle of a scan of it): there every top counts. */
static SLIDE_NOINLINE bool SHOVE_IFN(top_covered)(SHOVE_IFN(mover) * m, shove_aabb b, shove_aabb s,
                                                  size_t si) {
    const int up = m->def->up_axis;
    int free_axis = -1;
    bool line = false;
    for (int a = 0; a < SHOVE_DIM; ++a) {
        if (a == up) {
            continue;
        }
        if (b.min.raw[a] == b.max.raw[a]) {
            line = true;
        } else if (free_axis < 0) {
            free_axis = a;
        } else {
            return false; /* width on two sideways axes: not a line */
        }
    }
    if (!line || m->streaming) {
        return false;
    }
    const float top = s.max.raw[up];
    float lo = 0.0f, hi = 0.0f; /* the line over s, along free_axis */
    if (free_axis >= 0) {
        lo = b.min.raw[free_axis] > s.min.raw[free_axis] ? b.min.raw[free_axis]
                                                         : s.min.raw[free_axis];
        hi = b.max.raw[free_axis] < s.max.raw[free_axis] ? b.max.raw[free_axis]
                                                         : s.max.raw[free_axis];
    }
    shove_aabb q = b;
    SHOVE_IFN(footprint_widen)(up, &q);
    q.min.raw[up] = top;
    q.max.raw[up] = shove__next_up(top);
    float from[PROBE_COVER_TOPS], to[PROBE_COVER_TOPS];
    int count = 0;
    SHOVE_IFN(scan) sc;
    uint32_t idx[SLIDE_SCAN_CHUNK];
    SHOVE_IFN(scan_start)(m, &sc);
    for (size_t k; (k = SHOVE_IFN(scan_next)(m, &sc, q, idx)) > 0;) {
        for (size_t j = 0; j < k; ++j) {
            const size_t ci = idx[j];
            const shove_aabb c = SHOVE_IFN(obstacles_box)(m->set, ci);
            if (ci == si || !(c.min.raw[up] <= top && c.max.raw[up] > top) ||
                !SHOVE_IFN(is_solid)(SHOVE_IFN(response_of)(m, ci))) {
                continue;
            }
            /* it holds the side of the line s is on (both sides when s
             * runs across it) */
            bool holds = true;
            for (int a = 0; a < SHOVE_DIM; ++a) {
                if (a == up || a == free_axis) {
                    continue;
                }
                const float at = b.min.raw[a];
                const bool above = s.max.raw[a] > at, below = s.min.raw[a] < at;
                holds = holds && (!above || (c.min.raw[a] <= at && c.max.raw[a] > at)) &&
                        (!below || (c.min.raw[a] < at && c.max.raw[a] >= at));
            }
            if (!holds) {
                continue;
            }
            if (free_axis < 0) {
                return true; /* a point, covered */
            }
            const float f = c.min.raw[free_axis] > lo ? c.min.raw[free_axis] : lo;
            const float t = c.max.raw[free_axis] < hi ? c.max.raw[free_axis] : hi;
            if (!(f <= t)) {
                continue;
            }
            if (count == PROBE_COVER_TOPS) {
                return false;
            }
            /* kept in order of `from` (insertion: a handful at most) */
            int at = count++;
            while (at > 0 && from[at - 1] > f) {
                from[at] = from[at - 1];
                to[at] = to[at - 1];
                --at;
            }
            from[at] = f;
            to[at] = t;
        }
    }
    if (free_axis < 0) {
        return false;
    }
    float reach = lo;
    for (int n = 0; n < count && reach < hi; ++n) {
        if (from[n] > reach) {
            return false; /* a gap: the top shows there */
        }
        reach = to[n] > reach ? to[n] : reach;
    }
    return reach >= hi;
}

/* The edge guard's probe under box `b`: its footprint, from step_height +
 * ground_probe below the foot to step_height above it (a top in that range
 * is ground a step-up reaches). */
static inline shove_aabb SHOVE_IFN(edge_probe_box)(const SHOVE_IFN(mover) * m, shove_aabb b) {
    const int up = m->def->up_axis;
    const float foot = b.min.raw[up];
    const float step_height = m->def->step_height;
    b.min.raw[up] = foot - (step_height + SHOVE_IFN(ground_probe)(m, foot));
    b.max.raw[up] = foot + step_height;
    if (m->thin) {
        SHOVE_IFN(footprint_widen)(up, &b);
    }
    return b;
}

/* What the supports under a box say (see probe). */
typedef struct SHOVE_IFN(support) {
    bool ground; /* a solid top within ground_probe below the foot */
    bool edge;   /* a solid top a step-up reaches: the edge guard's ground */
    /* Along each sideways axis, the furthest displacement (up, down) for
     * which some edge-guard support still lies under the footprint; only
     * when asked for. */
    shove_vec reach_hi, reach_lo;
} SHOVE_IFN(support);

/* The probes under box `b`, in one scan. An obstacle supports the box when
 * it is solid, its top lies within [foot - below, foot + above] under the
 * footprint (strict overlap on every other axis; see footprint_widen for a
 * box without width, and top_covered for the tops such a box does not
 * stand on), and it neither overlaps
 * the box nor lies above its head; ground takes below = ground_probe and
 * above = 0, the edge guard below = step_height + ground_probe and above =
 * step_height (a range that holds the ground's, so one scan serves both).
 * The edge guard's answer and reaches are found only when `edge` is set;
 * the scan stops once it knows everything asked. Inlined into the two
 * probes every move makes (slide_core: under the start box and the end
 * box); other callers call probe. */
static SHOVE_HOT_INLINE SHOVE_IFN(support)
    SHOVE_IFN(probe_inline)(SHOVE_IFN(mover) * m, shove_aabb b, bool edge, bool reaches) {
    const int up = m->def->up_axis;
    const float foot = b.min.raw[up];
    const float step_height = m->def->step_height;
    const float probe = SHOVE_IFN(ground_probe)(m, foot);
    SHOVE_IFN(support) out;
    out.ground = false;
    out.edge = false;
    out.reach_hi = shove_vec_splat(-INFINITY);
    out.reach_lo = shove_vec_splat(INFINITY);
    shove_aabb qg = b;
    qg.min.raw[up] = foot - probe;
    qg.max.raw[up] = foot;
    if (m->thin) {
        SHOVE_IFN(footprint_widen)(up, &qg);
    }
    const shove_aabb qe = SHOVE_IFN(edge_probe_box)(m, b);
    /* An empty range (rounding far from the origin) finds nothing. */
    const bool want_g = qg.min.raw[up] < qg.max.raw[up];
    const bool want_e = edge && qe.min.raw[up] < qe.max.raw[up];
    reaches = reaches && want_e;
    if (!want_g && !want_e) {
        return out;
    }
    SHOVE_IFN(scan) s;
    uint32_t idx[SLIDE_SCAN_CHUNK];
    SHOVE_IFN(scan_start)(m, &s);
    for (size_t k; (k = SHOVE_IFN(scan_next)(m, &s, want_e ? qe : qg, idx)) > 0;) {
        for (size_t j = 0; j < k; ++j) {
            const size_t i = idx[j];
            const shove_aabb o = SHOVE_IFN(obstacles_box)(m->set, i);
            if (o.min.raw[up] >= b.max.raw[up] || SHOVE_IFN(overlaps_unchecked)(o, b)) {
                continue;
            }
            const bool g = want_g && !(o.max.raw[up] > foot) &&
                           (!want_e || SHOVE_IFN(overlaps_unchecked)(o, qg));
            const bool e = want_e && !(o.max.raw[up] > foot + step_height);
            if ((!g && !e) || !SHOVE_IFN(is_solid)(SHOVE_IFN(response_of)(m, i)) ||
                (m->thin && SHOVE_IFN(top_covered)(m, b, o, i))) {
                continue;
            }
            out.ground = out.ground || g;
            out.edge = out.edge || e;
            if (!reaches) {
                if ((out.ground || !want_g) && (out.edge || !want_e)) {
                    return out;
                }
                continue;
            }
            if (!e) {
                continue;
            }
            /* a plain axis loop: gcc ignores (and warns about) the unroll
             * annotation of a loop whose condition tests more than the axis */
            SHOVE_AXES_UNROLLED
            for (int a = 0; a < SHOVE_DIM; ++a) {
                const float hi_d = o.max.raw[a] - b.min.raw[a];
                const float lo_d = o.min.raw[a] - b.max.raw[a];
                out.reach_hi.raw[a] = hi_d > out.reach_hi.raw[a] ? hi_d : out.reach_hi.raw[a];
                out.reach_lo.raw[a] = lo_d < out.reach_lo.raw[a] ? lo_d : out.reach_lo.raw[a];
            }
        }
    }
    return out;
}

static SHOVE_IFN(support)
    SHOVE_IFN(probe)(SHOVE_IFN(mover) * m, shove_aabb b, bool edge, bool reaches) {
    return SHOVE_IFN(probe_inline)(m, b, edge, reaches);
}

/* True when box `b` stands on ground (a solid top within ground_probe
 * below its foot). */
static bool SHOVE_IFN(stands_on_ground)(SHOVE_IFN(mover) * m, shove_aabb b) {
    return m->def->up_axis >= 0 && SHOVE_IFN(probe)(m, b, false, false).ground;
}
