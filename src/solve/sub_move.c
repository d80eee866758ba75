/*
 * sub_move.c: legs and sub-moves, steps 1 to 5 of "How a move works" at the
 * top of solve/slide.c. A leg sweeps the box against the obstacles in three
 * passes over its candidates (earliest solid entry, blocked axes, contacts
 * and responses), moves, and is checked for rounding; a sub-move runs legs
 * until its motion is spent; a path is one attempt at the move from the
 * start box (a plain one here, the step-up's in solve/step_up.c).
 * Template: see dim.h.
 */
#include <math.h>
#include <string.h>

#include "geometry/geometry.h"
#include "obstacles/obstacles.h"
#include "solve/slide_limits.h"

/* >>leg candidates ------------------------------------------------------ */

/* An obstacle strictly overlapping a leg's hull, with its sweep. */
typedef struct SHOVE_IFN(leg_candidate) {
    uint32_t i;   /* set position (valid while the set holds it) */
    uint32_t key; /* set position plus the obstacles streamed before it */
    shove_aabb box;
    SHOVE_T(sweep_detail) det;
    bool entered;            /* the sweep enters it at some t in [0, 1] */
    shove_response response; /* when entered */
} SHOVE_IFN(leg_candidate);

/* One leg: the box it starts from, its motion and their hull. The first
 * pass keeps every candidate it meets, in set order, when they fit and the
 * set is not streamed; the later passes and the rounding fix-up then read
 * that list instead of scanning the set and sweeping again. It also notes
 * which kept candidates are the solid ones entered first (at t_min): all
 * that pass 2 reads, and all that pass 3 reads when nothing is crossed. */
typedef struct SHOVE_IFN(leg) {
    shove_aabb c;
    shove_vec r;
    shove_aabb hull;
    bool kept; /* cand[0 .. count) are all the candidates */
    size_t count;
    size_t first_count; /* when kept: cand[first[0 .. first_count)], in set order */
    uint8_t first[SLIDE_LEG_CANDIDATES];
    SHOVE_IFN(leg_candidate) cand[SLIDE_LEG_CANDIDATES];
} SHOVE_IFN(leg);
_Static_assert(SLIDE_LEG_CANDIDATES <= 256, "leg.first holds positions in cand as bytes");

/* A walk over a leg's candidates: through the kept list, or a scan. */
typedef struct SHOVE_IFN(leg_walk) {
    size_t next; /* kept: next of cand[]; else next of idx[0 .. k) */
    size_t k;
    SHOVE_IFN(scan) s;
    uint32_t idx[SLIDE_SCAN_CHUNK];
    SHOVE_IFN(leg_candidate) scanned;
} SHOVE_IFN(leg_walk);

static void SHOVE_IFN(leg_begin)(SHOVE_IFN(leg) * leg, shove_aabb c, shove_vec r) {
    leg->c = c;
    leg->r = r;
    leg->hull = SHOVE_IFN(swept_hull)(c, r);
    leg->kept = false;
    leg->count = 0;
    leg->first_count = 0;
}

static void SHOVE_IFN(leg_walk_start)(SHOVE_IFN(mover) * m, const SHOVE_IFN(leg) * leg,
                                      SHOVE_IFN(leg_walk) * w) {
    w->next = 0;
    w->k = 0;
    if (!leg->kept) {
        SHOVE_IFN(scan_start)(m, &w->s);
    }
}

/* leg_next for a leg that did not keep its candidates: scan and sweep.
 * Inlined into the first pass, which always scans and meets every candidate
 * of every leg; the later passes scan only for a leg that could not keep its
 * candidates, and call leg_next_scanned. */
static SHOVE_HOT_INLINE const SHOVE_IFN(leg_candidate) *
    SHOVE_IFN(leg_scan_sweep)(SHOVE_IFN(mover) * m, const SHOVE_IFN(leg) * leg,
                              SHOVE_IFN(leg_walk) * w, SHOVE_IFN(leg_candidate) * h) {
    if (w->next >= w->k) {
        w->k = SHOVE_IFN(scan_next)(m, &w->s, leg->hull, w->idx);
        w->next = 0;
        if (w->k == 0) {
            return NULL;
        }
    }
    h->i = w->idx[w->next++];
    h->key = w->s.base + h->i;
    h->box = SHOVE_IFN(obstacles_box)(m->set, h->i);
    /* det is read only for a candidate the leg enters */
    h->entered = SHOVE_IFN(sweep_entry_inline)(leg->c, leg->r, h->box, &h->det);
    h->response = h->entered ? SHOVE_IFN(response_of)(m, h->i) : SHOVE_RESPONSE_IGNORE;
    return h;
}

static const SHOVE_IFN(leg_candidate) * SHOVE_IFN(leg_next_scanned)(SHOVE_IFN(mover) * m,
                                                                    const SHOVE_IFN(leg) * leg,
                                                                    SHOVE_IFN(leg_walk) * w) {
    return SHOVE_IFN(leg_scan_sweep)(m, leg, w, &w->scanned);
}

/* The next candidate, or NULL when the walk is done. */
static inline const SHOVE_IFN(leg_candidate) *
    SHOVE_IFN(leg_next)(SHOVE_IFN(mover) * m, const SHOVE_IFN(leg) * leg, SHOVE_IFN(leg_walk) * w) {
    if (leg->kept) {
        return w->next < leg->count ? &leg->cand[w->next++] : NULL;
    }
    return SHOVE_IFN(leg_next_scanned)(m, leg, w);
}

/* >>starting inside, rounding, corners ---------------------------------- */

/* Report obstacles the path's first box starts inside; note solid ones. */
static void SHOVE_IFN(report_started_inside)(SHOVE_IFN(mover) * m, shove_vec d) {
    const shove_aabb b = SHOVE_IFN(box_moved)(m->start, d);
    const shove_vec zero = shove_vec_splat(0.0f);
    SHOVE_IFN(scan) s;
    uint32_t idx[SLIDE_SCAN_CHUNK];
    SHOVE_IFN(scan_start)(m, &s);
    for (size_t k; (k = SHOVE_IFN(scan_next)(m, &s, b, idx)) > 0;) {
        for (size_t j = 0; j < k; ++j) {
            const size_t i = idx[j];
            const shove_response r = SHOVE_IFN(response_of)(m, i);
            if (r == SHOVE_RESPONSE_IGNORE) {
                continue;
            }
            SHOVE_T(sweep_detail) det;
            if (!SHOVE_IFN(sweep_detail)(b, zero, SHOVE_IFN(obstacles_box)(m->set, i), &det)) {
                continue;
            }
            if (SHOVE_IFN(is_solid)(r)) {
                m->inside_solid = true;
            }
            SHOVE_IFN(report)(m, i, s.base + (uint32_t)i, det.axis, det.sign, 0.0f, r);
        }
    }
}

/* Drop motion that would go deeper into a solid obstacle the box is inside. */
static void SHOVE_IFN(apply_inside_planes)(SHOVE_IFN(mover) * m, shove_aabb c, shove_vec *r) {
    const shove_vec zero = shove_vec_splat(0.0f);
    SHOVE_IFN(scan) s;
    uint32_t idx[SLIDE_SCAN_CHUNK];
    SHOVE_IFN(scan_start)(m, &s);
    for (size_t k; (k = SHOVE_IFN(scan_next)(m, &s, c, idx)) > 0;) {
        for (size_t j = 0; j < k; ++j) {
            const size_t i = idx[j];
            SHOVE_T(sweep_detail) det;
            if (!SHOVE_IFN(sweep_detail)(c, zero, SHOVE_IFN(obstacles_box)(m->set, i), &det) ||
                !SHOVE_IFN(is_solid)(SHOVE_IFN(response_of)(m, i))) {
                continue;
            }
            if (r->raw[det.axis] * det.sign < 0.0f) {
                r->raw[det.axis] = 0.0f;
                SHOVE_IFN(set_flags)(m, det.axis, det.sign);
            }
        }
    }
}

/* One obstacle `o` (set position i, response *known or asked for) that the
 * box at `to` strictly overlaps, for the fix-up below: when the box at
 * `from` (c) was clear of it and it is solid, marks the round unclean and
 * clamps the axis that needs the smallest pull-back into *fixed. False when
 * no axis can be clamped (the leg must be dropped). */
static bool SHOVE_IFN(fix_one)(SHOVE_IFN(mover) * m, shove_aabb c, shove_vec from, shove_vec to,
                               shove_aabb o, size_t i, const shove_response *known,
                               shove_vec *fixed, bool *clean) {
    if (SHOVE_IFN(overlaps_unchecked)(o, c) ||
        !SHOVE_IFN(is_solid)(known ? *known : SHOVE_IFN(response_of)(m, i))) {
        return true;
    }
    *clean = false;
    /* The axis on which `from` was clear of o and the motion closed in;
     * the one needing the smallest pull-back wins. */
    int best_axis = -1;
    float best_pull = INFINITY;
    float best_d = 0.0f;
    SHOVE_AXES_UNROLLED
    for (int a = 0; a < SHOVE_DIM; ++a) {
        float d;
        if (to.raw[a] > from.raw[a] && c.max.raw[a] <= o.min.raw[a]) {
            d = SHOVE_IFN(clamp_below)(m->start.max.raw[a], o.min.raw[a], to.raw[a]);
            if (d < from.raw[a]) {
                d = from.raw[a];
            }
        } else if (to.raw[a] < from.raw[a] && c.min.raw[a] >= o.max.raw[a]) {
            d = SHOVE_IFN(clamp_above)(m->start.min.raw[a], o.max.raw[a], to.raw[a]);
            if (d > from.raw[a]) {
                d = from.raw[a];
            }
        } else {
            continue;
        }
        const float pull = fabsf(to.raw[a] - d);
        if (pull < best_pull) {
            best_pull = pull;
            best_axis = a;
            best_d = d;
        }
    }
    if (best_axis < 0) {
        return false;
    }
    /* Clamps from several obstacles combine by min / max, so the outcome
     * does not depend on their order. */
    if (to.raw[best_axis] > from.raw[best_axis]) {
        fixed->raw[best_axis] = best_d < fixed->raw[best_axis] ? best_d : fixed->raw[best_axis];
    } else {
        fixed->raw[best_axis] = best_d > fixed->raw[best_axis] ? best_d : fixed->raw[best_axis];
    }
    return true;
}

/* Step 4: make sure the box at *to overlaps no solid obstacle that the box
 * at the leg's start (displacement `from`) did not overlap. Rounding can
 * put a box a float step into an obstacle it only grazed; such an axis is
 * clamped back to the face, and if that does not settle it, *to falls back
 * to `from`. A box inside the leg's hull can only overlap the leg's
 * candidates, so a leg that kept them checks just those. */
static void SHOVE_IFN(fix_rounding)(SHOVE_IFN(mover) * m, const SHOVE_IFN(leg) * leg,
                                    shove_vec from, shove_vec *to) {
    const shove_aabb c = leg->c;
    for (int round = 0; round <= SLIDE_FIX_ROUNDS; ++round) {
        const shove_aabb b = SHOVE_IFN(box_moved)(m->start, *to);
        shove_vec fixed = *to;
        bool clean = true;
        bool ok = true;
        if (leg->kept && SHOVE_IFN(contains_unchecked)(leg->hull, b)) {
            for (size_t n = 0; n < leg->count && ok && (clean || round < SLIDE_FIX_ROUNDS); ++n) {
                const SHOVE_IFN(leg_candidate) *h = &leg->cand[n];
                if (SHOVE_IFN(overlaps_unchecked)(h->box, b)) {
                    ok = SHOVE_IFN(fix_one)(m, c, from, *to, h->box, h->i,
                                            h->entered ? &h->response : NULL, &fixed, &clean);
                }
            }
        } else {
            SHOVE_IFN(scan) s;
            uint32_t idx[SLIDE_SCAN_CHUNK];
            SHOVE_IFN(scan_start)(m, &s);
            for (size_t k; ok && (clean || round < SLIDE_FIX_ROUNDS) &&
                           (k = SHOVE_IFN(scan_next)(m, &s, b, idx)) > 0;) {
                for (size_t j = 0; j < k && ok && (clean || round < SLIDE_FIX_ROUNDS); ++j) {
                    ok = SHOVE_IFN(fix_one)(m, c, from, *to,
                                            SHOVE_IFN(obstacles_box)(m->set, idx[j]), idx[j], NULL,
                                            &fixed, &clean);
                }
            }
        }
        if (!ok) {
            *to = from;
            return;
        }
        if (clean) {
            return;
        }
        if (round == SLIDE_FIX_ROUNDS) {
            break;
        }
        *to = fixed;
    }
    *to = from;
}

/* The axis an unresolved corner hit blocks: the smaller motion, lower axis
 * on a tie (the rule of shove3_sweep_aabb). */
static int SHOVE_IFN(corner_axis)(unsigned tied, shove_vec r) {
    int axis = -1;
    SHOVE_AXES_UNROLLED
    for (int a = 0; a < SHOVE_DIM; ++a) {
        if ((tied & (1u << a)) && (axis < 0 || fabsf(r.raw[a]) < fabsf(r.raw[axis]))) {
            axis = a;
        }
    }
    return axis;
}

/* >>leg passes and sub-moves -------------------------------------------- */

/* A sub-move between its legs: what it was asked, the rule 2 envelope of
 * its displacements, and the motion still to go. */
typedef struct SHOVE_IFN(sub_move_state) {
    shove_vec request;
    shove_vec lo, hi; /* rule 2 envelope of this sub-move */
    shove_vec r;      /* the motion left */
    float done;       /* fraction of the request behind us */
    unsigned shaped;  /* axes a response or plane changed; the others end exactly at
                         the request's end when the motion runs out */
} SHOVE_IFN(sub_move_state);

/* What the hits of one leg decide (passes 1 to 3 of the leg): how far it
 * goes, which axes stop and on which faces, and what the responses do with
 * the rest of the motion. */
typedef struct SHOVE_IFN(leg_stop) {
    float t_min;                       /* earliest solid entry; INFINITY when none */
    bool blocked;                      /* t_min < INFINITY */
    bool any_cross;                    /* the leg enters a CROSS obstacle */
    unsigned mask;                     /* the blocked axes */
    int corner_choice[1 << SHOVE_DIM]; /* read only for the tied sets seen in pass 2 */
    float u;                           /* how far the leg goes, as a fraction of it */
    float face[SHOVE_DIM];             /* read on blocked axes only */
    unsigned slide_axes, bounce_axes;
    bool touch;
} SHOVE_IFN(leg_stop);

/* Whether candidate h is one of a leg's solid hits at t_min: the hits
 * passes 2 and 3 read (t_enter == t_min, so -0 and +0 are one time). */
static inline bool SHOVE_IFN(first_hit)(const SHOVE_IFN(leg_candidate) * h, float t_min) {
    return h->entered && h->det.t_enter == t_min && SHOVE_IFN(is_solid)(h->response);
}

/* Pass 1: earliest solid entry (keeping the candidates if it can), and
 * which kept candidates are the solid hits at it (leg->first). */
static void SHOVE_IFN(leg_first_entry)(SHOVE_IFN(mover) * m, SHOVE_IFN(leg) * leg,
                                       SHOVE_IFN(leg_walk) * w, SHOVE_IFN(leg_stop) * st) {
    float t_min = INFINITY;
    bool any_cross = false;
    bool keep = !m->streaming;
    SHOVE_IFN(leg_walk_start)(m, leg, w);
    /* A new leg has kept nothing yet: its walk scans. A kept candidate is
     * swept straight into its place in the list: a copy made from the
     * fields just written would be read back before they reach the cache
     * (wider loads than the stores that wrote them), and stall. */
    for (;;) {
        const bool room = keep && leg->count < SLIDE_LEG_CANDIDATES;
        SHOVE_IFN(leg_candidate) *slot = room ? &leg->cand[leg->count] : &w->scanned;
        const SHOVE_IFN(leg_candidate) *h = SHOVE_IFN(leg_scan_sweep)(m, leg, w, slot);
        if (!h) {
            break;
        }
        keep = room;
        if (h->entered && h->response == SHOVE_RESPONSE_CROSS) {
            any_cross = true;
        } else if (h->entered && SHOVE_IFN(is_solid)(h->response) && h->det.t_enter < t_min) {
            t_min = h->det.t_enter;
            leg->first_count = 0; /* the hits noted so far came later */
        }
        if (room && SHOVE_IFN(first_hit)(h, t_min)) {
            leg->first[leg->first_count++] = (uint8_t)leg->count;
        }
        leg->count += room ? 1u : 0u;
    }
    leg->kept = keep;
    st->t_min = t_min;
    st->any_cross = any_cross;
    st->blocked = t_min < INFINITY;
}

/* Pass 2's note of one solid hit at t_min: an axis it blocks, or (a
 * corner) its tied set, bit T of *corners for tied set T. */
static inline void SHOVE_IFN(note_tied)(unsigned tied, unsigned *mandatory, unsigned *corners) {
    if (SHOVE_IFN(popcount)(tied) == 1) {
        *mandatory |= tied;
    } else {
        *corners |= 1u << tied;
    }
}

/* Pass 2: which axes the hits at t_min block, then how far the leg goes. */
static void SHOVE_IFN(leg_blocked_axes)(SHOVE_IFN(mover) * m, const SHOVE_IFN(leg) * leg,
                                        SHOVE_IFN(leg_walk) * w, SHOVE_IFN(leg_stop) * st) {
    const shove_vec r = leg->r;
    const float t_min = st->t_min;
    const bool blocked = st->blocked;
    unsigned mandatory = 0u, corners = 0u; /* corners: bit T for each tied set T seen */
    if (blocked && leg->kept) {
        for (size_t n = 0; n < leg->first_count; ++n) {
            SHOVE_IFN(note_tied)(leg->cand[leg->first[n]].det.tied_axes, &mandatory, &corners);
        }
    } else if (blocked) {
        SHOVE_IFN(leg_walk_start)(m, leg, w);
        for (const SHOVE_IFN(leg_candidate) * h; (h = SHOVE_IFN(leg_next)(m, leg, w));) {
            if (SHOVE_IFN(first_hit)(h, t_min)) {
                SHOVE_IFN(note_tied)(h->det.tied_axes, &mandatory, &corners);
            }
        }
    }
    /* Corner hits, in a fixed order of their tied sets: moot when an
     * axis of theirs is blocked, else they block their corner axis. */
    int *corner_choice = st->corner_choice;
    unsigned mask = mandatory;
    for (unsigned t = 0; corners != 0u && t < (1u << SHOVE_DIM); ++t) {
        corner_choice[t] = -1;
        if ((corners & (1u << t)) && !(t & mask)) {
            corner_choice[t] = SHOVE_IFN(corner_axis)(t, r);
            mask |= 1u << corner_choice[t];
        }
    }
    st->mask = mask;
    /* How far this leg goes: to t_min, less the skin on blocked axes. */
    const float skin = m->def->skin;
    float u = 1.0f;
    if (blocked) {
        u = t_min;
        SHOVE_AXES_UNROLLED
        for (int a = 0; a < SHOVE_DIM; ++a) {
            if (mask & (1u << a)) {
                const float ua = t_min - skin / fabsf(r.raw[a]);
                u = ua < u ? ua : u;
            }
        }
        u = u > 0.0f ? u : 0.0f;
    }
    st->u = u;
}

/* Pass 3's handling of one solid hit h at t_min: the axis it stops (none
 * for a corner another hit made moot), that axis's face, what the response
 * does there, the flags and the contact. */
static inline void SHOVE_IFN(contact_at_first)(SHOVE_IFN(mover) * m, shove_vec r,
                                               const SHOVE_IFN(leg_candidate) * h, float path_t,
                                               SHOVE_IFN(leg_stop) * st) {
    int axis;
    if (SHOVE_IFN(popcount)(h->det.tied_axes) == 1) {
        axis = h->det.axis;
        SHOVE_AXES_UNROLLED
        for (int a = 0; a < SHOVE_DIM; ++a) {
            if (h->det.tied_axes == (1u << a)) {
                axis = a;
            }
        }
    } else {
        axis = st->corner_choice[h->det.tied_axes];
        if (axis < 0) {
            return; /* a corner another hit made moot */
        }
    }
    const shove_aabb o = h->box;
    const shove_response resp = h->response;
    const float sign = r.raw[axis] > 0.0f ? -1.0f : 1.0f;
    float *face = st->face;
    if (r.raw[axis] > 0.0f) {
        face[axis] = o.min.raw[axis] < face[axis] ? o.min.raw[axis] : face[axis];
    } else {
        face[axis] = o.max.raw[axis] > face[axis] ? o.max.raw[axis] : face[axis];
    }
    if (resp == SHOVE_RESPONSE_TOUCH) {
        st->touch = true;
    } else if (resp == SHOVE_RESPONSE_BOUNCE && !m->settling) {
        st->bounce_axes |= 1u << axis;
    } else {
        st->slide_axes |= 1u << axis;
    }
    SHOVE_IFN(set_flags)(m, axis, sign);
    SHOVE_IFN(report)(m, h->i, h->key, axis, sign, path_t, resp);
}

/* Pass 3: contacts, contact faces and responses. `done` is the fraction of
 * the sub-move's request behind the leg's start. A kept leg that crosses
 * nothing reads only its solid hits at t_min (noted by pass 1, in the
 * order a walk meets them). */
static void SHOVE_IFN(leg_contacts)(SHOVE_IFN(mover) * m, const SHOVE_IFN(leg) * leg,
                                    SHOVE_IFN(leg_walk) * w, float done, SHOVE_IFN(leg_stop) * st) {
    const shove_vec r = leg->r;
    const float t_min = st->t_min;
    const float u = st->u;
    /* the contact time of the hits at t_min (none when the leg is not
     * blocked: t_min is infinite then, and times 0 would raise the invalid
     * flag for a game that traps it) */
    const float path_t = st->blocked ? done + t_min * (1.0f - done) : 0.0f;
    st->slide_axes = 0u;
    st->bounce_axes = 0u;
    st->touch = false;
    if (st->blocked) { /* read on blocked axes only */
        SHOVE_AXES_UNROLLED
        for (int a = 0; a < SHOVE_DIM; ++a) {
            st->face[a] = r.raw[a] > 0.0f ? INFINITY : -INFINITY;
        }
    }
    if (st->blocked && leg->kept && !st->any_cross) {
        for (size_t n = 0; n < leg->first_count; ++n) {
            SHOVE_IFN(contact_at_first)(m, r, &leg->cand[leg->first[n]], path_t, st);
        }
    } else if (st->blocked || st->any_cross) {
        SHOVE_IFN(leg_walk_start)(m, leg, w);
        for (const SHOVE_IFN(leg_candidate) * h; (h = SHOVE_IFN(leg_next)(m, leg, w));) {
            if (h->entered && h->response == SHOVE_RESPONSE_CROSS) {
                if (h->det.t_enter < u) {
                    SHOVE_IFN(report)
                    (m, h->i, h->key, h->det.axis, h->det.sign,
                     done + h->det.t_enter * (1.0f - done), h->response);
                }
            } else if (SHOVE_IFN(first_hit)(h, t_min)) {
                SHOVE_IFN(contact_at_first)(m, r, h, path_t, st);
            }
        }
    }
}

/* Move: along the path to u, blocked axes snapped to face -+ skin, inside
 * the envelope, then the rounding check of step 4; *d becomes the leg's end. */
static void SHOVE_IFN(leg_move)(SHOVE_IFN(mover) * m, const SHOVE_IFN(leg) * leg,
                                const SHOVE_IFN(sub_move_state) * s, const SHOVE_IFN(leg_stop) * st,
                                shove_vec *d) {
    const float skin = m->def->skin;
    const shove_vec r = leg->r;
    const shove_vec request = s->request;
    const shove_vec lo = s->lo, hi = s->hi;
    const float u = st->u;
    const unsigned mask = st->mask;
    const float *face = st->face;
    shove_vec to;
    SHOVE_AXES_UNROLLED
    for (int a = 0; a < SHOVE_DIM; ++a) {
        to.raw[a] = d->raw[a] + u * r.raw[a];
        if (!st->blocked && !(s->shaped & (1u << a))) {
            /* The whole request on this axis, without the rounding of
             * the legs in between (fix_rounding still checks it). */
            to.raw[a] = request.raw[a] < 0.0f ? lo.raw[a] : hi.raw[a];
        }
        if (!(mask & (1u << a))) {
            continue;
        }
        if (r.raw[a] > 0.0f) {
            const float want = (face[a] - skin) - m->start.max.raw[a];
            float v = SHOVE_IFN(clamp_below)(m->start.max.raw[a], face[a],
                                             want < to.raw[a] ? want : to.raw[a]);
            to.raw[a] = v > d->raw[a] ? v : d->raw[a];
        } else {
            const float want = (face[a] + skin) - m->start.min.raw[a];
            float v = SHOVE_IFN(clamp_above)(m->start.min.raw[a], face[a],
                                             want > to.raw[a] ? want : to.raw[a]);
            to.raw[a] = v < d->raw[a] ? v : d->raw[a];
        }
    }
    SHOVE_AXES_UNROLLED
    for (int a = 0; a < SHOVE_DIM; ++a) {
        to.raw[a] = to.raw[a] > hi.raw[a] ? hi.raw[a] : to.raw[a];
        to.raw[a] = to.raw[a] < lo.raw[a] ? lo.raw[a] : to.raw[a];
    }
    if (memcmp(&to, d, sizeof to) != 0) { /* a leg that went nowhere needs no check */
        SHOVE_IFN(fix_rounding)(m, leg, *d, &to);
    }
    *d = to;
}

/* What is left of the motion after a blocked leg that ended at `d`,
 * shaped by the responses. */
static void SHOVE_IFN(leg_rest)(SHOVE_IFN(mover) * m, const SHOVE_IFN(leg_stop) * st, shove_vec d,
                                SHOVE_IFN(sub_move_state) * s) {
    const float u = st->u;
    const unsigned mask = st->mask;
    shove_vec r = s->r;
    const float left = 1.0f - u;
    s->done = s->done + u * (1.0f - s->done);
    SHOVE_AXES_UNROLLED
    for (int a = 0; a < SHOVE_DIM; ++a) {
        r.raw[a] = st->touch ? 0.0f : r.raw[a] * left;
        if (!(mask & (1u << a))) {
            continue;
        }
        s->shaped |= 1u << a;
        if ((st->bounce_axes & (1u << a)) && !(st->slide_axes & (1u << a))) {
            /* bump.lua's bounce: the rest of the motion, reflected, from
             * the contact on; the envelope of this axis becomes that
             * reflected leg, which may pass the sub-move's start. */
            r.raw[a] = -r.raw[a];
            const float end = d.raw[a] + r.raw[a];
            s->lo.raw[a] = r.raw[a] < 0.0f ? end : d.raw[a];
            s->hi.raw[a] = r.raw[a] > 0.0f ? end : d.raw[a];
            m->bounced = true;
        } else {
            r.raw[a] = 0.0f;
        }
    }
    s->r = r;
}

/* One sub-move: slide from displacement *d by `request`. Contacts get
 * t = m->t_lo + m->t_span * (fraction of the request done). */
static void SHOVE_IFN(sub_move)(SHOVE_IFN(mover) * m, shove_vec *d, shove_vec request,
                                bool report_inside) {
    if (report_inside) {
        SHOVE_IFN(report_started_inside)(m, *d);
    }
    SHOVE_IFN(sub_move_state) s;
    s.request = request;
    /* Rule 2 envelope of this sub-move. */
    SHOVE_AXES_UNROLLED
    for (int a = 0; a < SHOVE_DIM; ++a) {
        const float end = d->raw[a] + request.raw[a];
        s.lo.raw[a] = request.raw[a] < 0.0f ? end : d->raw[a];
        s.hi.raw[a] = request.raw[a] > 0.0f ? end : d->raw[a];
    }
    s.r = request;
    s.done = 0.0f;
    s.shaped = 0u;
    for (int iter = 0; iter < m->def->max_iterations; ++iter) {
        SHOVE_AXES_UNROLLED
        for (int a = 0; a < SHOVE_DIM; ++a) {
            if (d->raw[a] + s.r.raw[a] > s.hi.raw[a]) {
                s.r.raw[a] = s.hi.raw[a] - d->raw[a];
            }
            if (d->raw[a] + s.r.raw[a] < s.lo.raw[a]) {
                s.r.raw[a] = s.lo.raw[a] - d->raw[a];
            }
        }
        const shove_aabb c = SHOVE_IFN(box_moved)(m->start, *d);
        if (m->inside_solid) {
            const shove_vec before = s.r;
            SHOVE_IFN(apply_inside_planes)(m, c, &s.r);
            SHOVE_AXES_UNROLLED
            for (int a = 0; a < SHOVE_DIM; ++a) {
                s.shaped |= (s.r.raw[a] != before.raw[a]) ? 1u << a : 0u;
            }
        }
        if (SHOVE_IFN(vec_is_zero)(s.r)) {
            break;
        }
        SHOVE_IFN(leg) leg;
        SHOVE_IFN(leg_walk) w;
        SHOVE_IFN(leg_stop) st;
        SHOVE_IFN(leg_begin)(&leg, c, s.r);
        SHOVE_IFN(leg_first_entry)(m, &leg, &w, &st);
        SHOVE_IFN(leg_blocked_axes)(m, &leg, &w, &st);
        SHOVE_IFN(leg_contacts)(m, &leg, &w, s.done, &st);
        SHOVE_IFN(leg_move)(m, &leg, &s, &st, d);
        if (!st.blocked) {
            break;
        }
        SHOVE_IFN(leg_rest)(m, &st, *d, &s);
    }
}

/* >>paths --------------------------------------------------------------- */

/* One attempt at the move, from the start box: where it ended, its flags and
 * how many contacts it met. */
typedef struct SHOVE_IFN(path) {
    shove_vec d;
    bool hit_ceiling, hit_wall, stepped_up;
    int contact_count;
} SHOVE_IFN(path);

static void SHOVE_IFN(path_begin)(SHOVE_IFN(mover) * m, bool write) {
    m->write_contacts = write;
    m->contact_count = 0;
    m->key_count = 0;
    m->bounced = false;
    m->hit_ceiling = false;
    m->hit_wall = false;
    m->inside_solid = false;
}

static void SHOVE_IFN(path_end)(SHOVE_IFN(mover) * m, SHOVE_IFN(path) * p, shove_vec d) {
    p->d = d;
    p->hit_ceiling = m->hit_ceiling;
    p->hit_wall = m->hit_wall;
    p->contact_count = m->contact_count;
}

/* The whole request as one sub-move. */
static void SHOVE_IFN(plain_path)(SHOVE_IFN(mover) * m, shove_vec request, bool write,
                                  SHOVE_IFN(path) * p) {
    SHOVE_IFN(path_begin)(m, write);
    m->t_lo = 0.0f;
    m->t_span = 1.0f;
    shove_vec d = shove_vec_splat(0.0f);
    SHOVE_IFN(sub_move)(m, &d, request, true);
    SHOVE_IFN(path_end)(m, p, d);
    p->stepped_up = false;
}
