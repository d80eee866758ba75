/*
 * slide.c: collide-and-slide, step-up, edge guard and ground flags; the
 * core every move runs (see obstacles.h) and shove3_slide over a list.
 * Template: see dim.h.
 *
 * How a move works
 * ----------------
 * The mover's position is always "the start box plus a displacement D": the
 * box at D is (start.min + D, start.max + D), rounded once per coordinate, so
 * the box a test checks is the box the move returns.
 *
 * A move is one or three sub-moves (plain; or raise, walk, settle for a
 * step). A sub-move is a series of legs. A leg sweeps the box at D along the
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
#include <float.h>
#include <math.h>
#include <string.h>

#include "geometry/geometry.h"
#include "obstacles/obstacles.h"
#include "simd/kernels.h"
#include "simd/soa.h"
#include "solve/response.h"

#if SHOVE_DIM == 2
#define SLIDE_KERNEL_OVERLAP overlap2
#else
#define SLIDE_KERNEL_OVERLAP overlap3
#endif

/* Obstacles handed to the overlap kernel at once (indices live on the stack). */
#define SLIDE_SCAN_CHUNK 256
/* Sets this small are scanned by a plain loop instead of a batch kernel. */
#define SLIDE_SCALAR_SCAN 8
/* Largest max_iterations a def may ask for. */
#define SLIDE_MAX_ITERATIONS 64
/* Obstacles remembered to keep contacts unique (see the top of this file). */
#define SLIDE_REPORTED_KEYS 64
/* Rounds of the rounding fix-up of step 4 before a leg is dropped. */
#define SLIDE_FIX_ROUNDS 4
/* Candidates of one leg kept for its later passes (a leg near more than
 * this many obstacles scans the set again for each pass instead). */
#define SLIDE_LEG_CANDIDATES 32
/* Keeps a rarely taken branch's work out of a hot function. */
#if defined(__GNUC__) || defined(__clang__)
#define SLIDE_NOINLINE __attribute__((noinline))
#else
#define SLIDE_NOINLINE
#endif

/* >>helpers ------------------------------------------------------------- */

/* The distance between |x| and the next float away from zero: the rounding
 * scale of coordinates near x. At FLT_MAX, where the next float up is inf,
 * the step below it (2^104), so the scale stays finite. */
static inline float SHOVE_IFN(ulp)(float x) {
    const float a = fabsf(x);
    const float up = shove__next_up_finite(a) - a;
    return up <= FLT_MAX ? up : a - shove__next_down_finite(a);
}

static inline bool SHOVE_IFN(vec_is_zero)(shove_vec v) {
    for (int i = 0; i < SHOVE_DIM; ++i) {
        if (v.raw[i] != 0.0f) {
            return false;
        }
    }
    return true;
}

/* A displacement d on one axis such that the face `base + d` does not pass
 * `face` going up: fl(base + d) <= face. Starts from `want` (a smaller value
 * is never changed) and steps down through the floats while rounding would
 * still cross. */
static inline float SHOVE_IFN(clamp_below)(float base, float face, float want) {
    float d = face - base;
    if (want < d) {
        d = want;
    }
    while (base + d > face) {
        d = shove__next_down_finite(d); /* never -inf: base + d > face */
    }
    return d;
}

/* Mirror of clamp_below: fl(base + d) >= face. */
static inline float SHOVE_IFN(clamp_above)(float base, float face, float want) {
    float d = face - base;
    if (want > d) {
        d = want;
    }
    while (base + d < face) {
        d = shove__next_up_finite(d); /* never +inf: base + d < face */
    }
    return d;
}

/* The box covering `b` and `b` moved by `r`, pushed out by one float step on
 * every side so that rounded positions along the way stay inside. */
static inline shove_aabb SHOVE_IFN(swept_hull)(shove_aabb b, shove_vec r) {
    shove_aabb h = SHOVE_IFN(swept_bounds)(b, r);
    for (int i = 0; i < SHOVE_DIM; ++i) {
        h.min.raw[i] = shove__next_down_finite(h.min.raw[i]);
        h.max.raw[i] = shove__next_up_finite(h.max.raw[i]);
    }
    return h;
}

static inline int SHOVE_IFN(popcount)(unsigned x) {
    int n = 0;
    for (; x; x &= x - 1u) {
        ++n;
    }
    return n;
}

/* >>defs ---------------------------------------------------------------- */

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
    /* A step climbs along the up axis: without one a step height would be
     * ignored without a word. */
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
    if (!SHOVE_FN(aabb_is_valid)(end)) {
        return false;
    }
    /* A bounce may carry the mover back past its start by up to the motion. */
    return !SHOVE_IFN(may_bounce)(def) ||
           SHOVE_FN(aabb_is_valid)(SHOVE_IFN(box_moved)(box, SHOVE_IFN(vec_neg)(delta)));
}

/* >>mover --------------------------------------------------------------- */

/* Everything one move shares between its sub-moves and scans. */
typedef struct SHOVE_IFN(mover) {
    const shove_move_def *def;
    const SHOVE_IFN(obstacle_source) * source;
    SHOVE_IFN(obstacle_set) * set;
    shove_aabb start; /* the mover's box when the move began */
    /* The gather question, kept to stream resumable sources. */
    shove_aabb region_box;
    shove_vec region_delta;
    float region_margin;
    bool streaming;
    float slack;       /* a few float steps at this move's coordinates */
    bool thin;         /* the box may have no width on a sideways axis (see footprint_widen) */
    bool inside_solid; /* the start box overlaps a solid obstacle */
    /* Contacts of the path being run. */
    bool write_contacts;
    int contact_count;
    float t_lo, t_span; /* contact t = t_lo + t_span * path fraction */
    bool bounced;
    int key_count;
    uint32_t keys[SLIDE_REPORTED_KEYS];
    /* Flags of the path being run. */
    bool hit_ceiling, hit_wall;
} SHOVE_IFN(mover);

/* Where one scan over the obstacles is. */
typedef struct SHOVE_IFN(scan) {
    size_t pos;    /* next obstacle of the set to hand out */
    uint32_t base; /* key of set position 0 (obstacles streamed before it) */
} SHOVE_IFN(scan);

static void SHOVE_IFN(regather)(SHOVE_IFN(mover) * m) {
    SHOVE_IFN(obstacles_clear)(m->set);
    /* Resumable sources only stop early on fixed sets, and then cannot fail. */
    (void)m->source->gather(m->source->ctx, m->region_box, m->region_delta, m->region_margin,
                            m->set);
}

static void SHOVE_IFN(scan_start)(SHOVE_IFN(mover) * m, SHOVE_IFN(scan) * s) {
    s->pos = 0;
    s->base = 0;
    if (m->streaming) {
        m->set->cursor = 0;
        SHOVE_IFN(regather)(m);
    }
}

/* scan_next for sets that take more than one plain pass (streamed, or
 * larger than SLIDE_SCALAR_SCAN). */
static size_t SHOVE_IFN(scan_next_chunk)(SHOVE_IFN(mover) * m, SHOVE_IFN(scan) * s,
                                         shove_aabb query, uint32_t out[SLIDE_SCAN_CHUNK]) {
    SHOVE_IFN(obstacle_set) *set = m->set;
    for (;;) {
        if (s->pos >= set->count) {
            if (!m->streaming || !set->more) {
                return 0;
            }
            s->base += (uint32_t)set->count;
            SHOVE_IFN(regather)(m);
            s->pos = 0;
            continue;
        }
        const size_t first = s->pos;
        size_t n = set->count - first;
        if (n > SLIDE_SCAN_CHUNK) {
            n = SLIDE_SCAN_CHUNK;
        }
        s->pos += n;
        const shove_soa soa = SHOVE_IFN(obstacles_soa)(set, first, n);
        const size_t k = n <= SLIDE_SCALAR_SCAN
                             ? SHOVE_IFN(soa_overlap_scan)(&soa, query, out)
                             : shove__kernels()->SLIDE_KERNEL_OVERLAP(&soa, query, out);
        for (size_t j = 0; j < k; ++j) {
            out[j] += (uint32_t)first;
        }
        if (k > 0) {
            return k;
        }
    }
}

/* Next chunk of obstacles strictly overlapping `query`: writes their set
 * positions to `out` (ascending) and returns how many; 0 when done.
 * A move usually has a handful of obstacles and scans them a dozen times
 * or more, so that case is one inline pass of the scalar scan (same test,
 * same answer as the kernels) with no call at all. */
static inline size_t SHOVE_IFN(scan_next)(SHOVE_IFN(mover) * m, SHOVE_IFN(scan) * s,
                                          shove_aabb query, uint32_t out[SLIDE_SCAN_CHUNK]) {
    const SHOVE_IFN(obstacle_set) *set = m->set;
    if (m->streaming || set->count > SLIDE_SCALAR_SCAN) {
        return SHOVE_IFN(scan_next_chunk)(m, s, query, out);
    }
    if (s->pos >= set->count) {
        return 0;
    }
    s->pos = set->count;
    const shove_soa soa = SHOVE_IFN(obstacles_soa)(set, 0, set->count);
    return SHOVE_IFN(soa_overlap_scan)(&soa, query, out);
}

/* Obstacle i of a set, for response_to. */
typedef struct SHOVE_T(set_obstacle) {
    const SHOVE_IFN(obstacle_set) * set;
    size_t i;
} SHOVE_T(set_obstacle);

static void SHOVE_IFN(describe_set_obstacle)(const void *ctx, shove_obstacle *out) {
    const SHOVE_T(set_obstacle) *o = ctx;
    SHOVE_IFN(obstacles_describe)(o->set, o->i, out);
}

static shove_response SHOVE_IFN(response_of)(const SHOVE_IFN(mover) * m, size_t i) {
    const SHOVE_T(set_obstacle) o = {m->set, i};
    return SHOVE_IFN(response_to)(m->def, m->source->mover,
                                  (m->set->flags[i] & SHOVE_OBSTACLE_SENSOR) != 0,
                                  SHOVE_IFN(describe_set_obstacle), &o);
}

static inline bool SHOVE_IFN(is_solid)(shove_response r) {
    return shove__response_is_solid(r);
}

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
 * that list instead of scanning the set and sweeping again. */
typedef struct SHOVE_IFN(leg) {
    shove_aabb c;
    shove_vec r;
    shove_aabb hull;
    bool kept; /* cand[0 .. count) are all the candidates */
    size_t count;
    SHOVE_IFN(leg_candidate) cand[SLIDE_LEG_CANDIDATES];
} SHOVE_IFN(leg);

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
}

static void SHOVE_IFN(leg_walk_start)(SHOVE_IFN(mover) * m, const SHOVE_IFN(leg) * leg,
                                      SHOVE_IFN(leg_walk) * w) {
    w->next = 0;
    w->k = 0;
    if (!leg->kept) {
        SHOVE_IFN(scan_start)(m, &w->s);
    }
}

/* leg_next for a leg that did not keep its candidates: scan and sweep. */
static const SHOVE_IFN(leg_candidate) * SHOVE_IFN(leg_next_scanned)(SHOVE_IFN(mover) * m,
                                                                    const SHOVE_IFN(leg) * leg,
                                                                    SHOVE_IFN(leg_walk) * w) {
    if (w->next >= w->k) {
        w->k = SHOVE_IFN(scan_next)(m, &w->s, leg->hull, w->idx);
        w->next = 0;
        if (w->k == 0) {
            return NULL;
        }
    }
    SHOVE_IFN(leg_candidate) *h = &w->scanned;
    h->i = w->idx[w->next++];
    h->key = w->s.base + h->i;
    h->box = SHOVE_IFN(obstacles_box)(m->set, h->i);
    h->entered =
        SHOVE_IFN(sweep_detail_inline)(leg->c, leg->r, h->box, &h->det) && h->det.t_enter >= 0.0f;
    h->response = h->entered ? SHOVE_IFN(response_of)(m, h->i) : SHOVE_RESPONSE_IGNORE;
    return h;
}

/* The next candidate, or NULL when the walk is done. */
static inline const SHOVE_IFN(leg_candidate) *
    SHOVE_IFN(leg_next)(SHOVE_IFN(mover) * m, const SHOVE_IFN(leg) * leg, SHOVE_IFN(leg_walk) * w) {
    if (leg->kept) {
        return w->next < leg->count ? &leg->cand[w->next++] : NULL;
    }
    return SHOVE_IFN(leg_next_scanned)(m, leg, w);
}

/* >>contacts ------------------------------------------------------------ */

static void SHOVE_IFN(set_flags)(SHOVE_IFN(mover) * m, int axis, float sign) {
    if (axis == m->def->up_axis) {
        if (sign < 0.0f) {
            m->hit_ceiling = true;
        }
    } else {
        m->hit_wall = true;
    }
}

/* Report obstacle i (key `key`) once; keeps def->contacts sorted by t. */
static void SHOVE_IFN(report)(SHOVE_IFN(mover) * m, size_t i, uint32_t key, int axis, float sign,
                              float path_t, shove_response response) {
    for (int k = 0; k < m->key_count; ++k) {
        if (m->keys[k] == key) {
            return;
        }
    }
    if (m->key_count < SLIDE_REPORTED_KEYS) {
        m->keys[m->key_count++] = key;
    }
    const int stored =
        m->contact_count < m->def->contact_capacity ? m->contact_count : m->def->contact_capacity;
    if (m->contact_count < INT32_MAX) {
        ++m->contact_count;
    }
    if (!m->write_contacts || m->def->contact_capacity == 0) {
        return;
    }
    shove_contact c;
    memset(&c, 0, sizeof c);
    c.other = m->set->id[i];
    c.index = m->set->index[i];
    c.normal = shove_vec_splat(0.0f);
    c.normal.raw[axis] = sign;
    c.t = m->t_lo + m->t_span * path_t;
    if (c.t > 1.0f) {
        c.t = 1.0f;
    }
    c.response = response;
    shove_contact *out = m->def->contacts;
    const int cap = m->def->contact_capacity;
    int pos = stored;
    while (pos > 0 && out[pos - 1].t > c.t) {
        --pos;
    }
    if (pos >= cap) {
        return;
    }
    const int keep = (stored < cap ? stored : cap - 1) - pos;
    if (keep > 0) {
        memmove(&out[pos + 1], &out[pos], (size_t)keep * sizeof *out);
    }
    out[pos] = c;
}

/* >>probes -------------------------------------------------------------- */

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
    for (int a = 0; a < SHOVE_DIM; ++a) {
        if (a != up && q->min.raw[a] == q->max.raw[a]) {
            q->min.raw[a] = shove__next_down(q->min.raw[a]);
            q->max.raw[a] = shove__next_up(q->max.raw[a]);
        }
    }
}

/* The edge guard's probe under box `b`: its footprint, from step_height +
 * ground_probe below the foot to step_height above it (a top in that range
 * is ground a step reaches). */
static inline shove_aabb SHOVE_IFN(edge_probe_box)(const SHOVE_IFN(mover) * m, shove_aabb b) {
    const int up = m->def->up_axis;
    const float foot = b.min.raw[up];
    const float step = m->def->step_height;
    b.min.raw[up] = foot - (step + SHOVE_IFN(ground_probe)(m, foot));
    b.max.raw[up] = foot + step;
    if (m->thin) {
        SHOVE_IFN(footprint_widen)(up, &b);
    }
    return b;
}

/* What the supports under a box say (see probe). */
typedef struct SHOVE_IFN(support) {
    bool ground; /* a solid top within ground_probe below the foot */
    bool edge;   /* a solid top a step reaches: the edge guard's ground */
    /* Along each sideways axis, the furthest displacement (up, down) for
     * which some edge-guard support still lies under the footprint; only
     * when asked for. */
    shove_vec reach_hi, reach_lo;
} SHOVE_IFN(support);

/* The probes under box `b`, in one scan. An obstacle supports the box when
 * it is solid, its top lies within [foot - below, foot + above] under the
 * footprint (strict overlap on every other axis; see footprint_widen for a
 * box without width), and it neither overlaps
 * the box nor lies above its head; ground takes below = ground_probe and
 * above = 0, the edge guard below = step_height + ground_probe and above =
 * step_height (a range that holds the ground's, so one scan serves both).
 * The edge guard's answer and reaches are found only when `edge` is set;
 * the scan stops once it knows everything asked. */
static SHOVE_IFN(support)
    SHOVE_IFN(probe)(SHOVE_IFN(mover) * m, shove_aabb b, bool edge, bool reaches) {
    const int up = m->def->up_axis;
    const float foot = b.min.raw[up];
    const float step = m->def->step_height;
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
            const bool e = want_e && !(o.max.raw[up] > foot + step);
            if ((!g && !e) || !SHOVE_IFN(is_solid)(SHOVE_IFN(response_of)(m, i))) {
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
            for (int a = 0; a < SHOVE_DIM && e; ++a) {
                const float hi_d = o.max.raw[a] - b.min.raw[a];
                const float lo_d = o.min.raw[a] - b.max.raw[a];
                out.reach_hi.raw[a] = hi_d > out.reach_hi.raw[a] ? hi_d : out.reach_hi.raw[a];
                out.reach_lo.raw[a] = lo_d < out.reach_lo.raw[a] ? lo_d : out.reach_lo.raw[a];
            }
        }
    }
    return out;
}

static bool SHOVE_IFN(on_ground)(SHOVE_IFN(mover) * m, shove_aabb b) {
    return m->def->up_axis >= 0 && SHOVE_IFN(probe)(m, b, false, false).ground;
}

/* >>legs ---------------------------------------------------------------- */

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
    for (int a = 0; a < SHOVE_DIM; ++a) {
        if ((tied & (1u << a)) && (axis < 0 || fabsf(r.raw[a]) < fabsf(r.raw[axis]))) {
            axis = a;
        }
    }
    return axis;
}

/* One sub-move: slide from displacement *d by `request`. Contacts get
 * t = m->t_lo + m->t_span * (fraction of the request done). */
static void SHOVE_IFN(sub_move)(SHOVE_IFN(mover) * m, shove_vec *d, shove_vec request,
                                bool report_inside) {
    const shove_move_def *def = m->def;
    const float skin = def->skin;
    if (report_inside) {
        SHOVE_IFN(report_started_inside)(m, *d);
    }
    /* Rule 2 envelope of this sub-move. */
    shove_vec lo, hi;
    for (int a = 0; a < SHOVE_DIM; ++a) {
        const float end = d->raw[a] + request.raw[a];
        lo.raw[a] = request.raw[a] < 0.0f ? end : d->raw[a];
        hi.raw[a] = request.raw[a] > 0.0f ? end : d->raw[a];
    }
    shove_vec r = request;
    float done = 0.0f;    /* fraction of the request behind us */
    unsigned shaped = 0u; /* axes a response or plane changed; the others end exactly at
                             the request's end when the motion runs out */
    for (int iter = 0; iter < def->max_iterations; ++iter) {
        for (int a = 0; a < SHOVE_DIM; ++a) {
            if (d->raw[a] + r.raw[a] > hi.raw[a]) {
                r.raw[a] = hi.raw[a] - d->raw[a];
            }
            if (d->raw[a] + r.raw[a] < lo.raw[a]) {
                r.raw[a] = lo.raw[a] - d->raw[a];
            }
        }
        const shove_aabb c = SHOVE_IFN(box_moved)(m->start, *d);
        if (m->inside_solid) {
            const shove_vec before = r;
            SHOVE_IFN(apply_inside_planes)(m, c, &r);
            for (int a = 0; a < SHOVE_DIM; ++a) {
                shaped |= (r.raw[a] != before.raw[a]) ? 1u << a : 0u;
            }
        }
        if (SHOVE_IFN(vec_is_zero)(r)) {
            break;
        }
        SHOVE_IFN(leg) leg;
        SHOVE_IFN(leg_walk) w;
        SHOVE_IFN(leg_begin)(&leg, c, r);

        /* Pass 1: earliest solid entry (keeping the candidates if it can). */
        float t_min = INFINITY;
        bool any_cross = false;
        bool keep = !m->streaming;
        SHOVE_IFN(leg_walk_start)(m, &leg, &w);
        for (const SHOVE_IFN(leg_candidate) * h; (h = SHOVE_IFN(leg_next)(m, &leg, &w));) {
            if (keep && leg.count < SLIDE_LEG_CANDIDATES) {
                leg.cand[leg.count++] = *h;
            } else {
                keep = false;
            }
            if (!h->entered) {
                continue;
            }
            if (h->response == SHOVE_RESPONSE_CROSS) {
                any_cross = true;
            } else if (SHOVE_IFN(is_solid)(h->response) && h->det.t_enter < t_min) {
                t_min = h->det.t_enter;
            }
        }
        leg.kept = keep;

        /* Pass 2: which axes the hits at t_min block. */
        unsigned mandatory = 0u, corners = 0u; /* corners: bit T for each tied set T seen */
        const bool blocked = t_min < INFINITY;
        if (blocked) {
            SHOVE_IFN(leg_walk_start)(m, &leg, &w);
            for (const SHOVE_IFN(leg_candidate) * h; (h = SHOVE_IFN(leg_next)(m, &leg, &w));) {
                if (!h->entered || h->det.t_enter != t_min || !SHOVE_IFN(is_solid)(h->response)) {
                    continue;
                }
                if (SHOVE_IFN(popcount)(h->det.tied_axes) == 1) {
                    mandatory |= h->det.tied_axes;
                } else {
                    corners |= 1u << h->det.tied_axes;
                }
            }
        }
        /* Corner hits, in a fixed order of their tied sets: moot when an
         * axis of theirs is blocked, else they block their corner axis. */
        int corner_choice[1 << SHOVE_DIM]; /* read only for the tied sets in `corners` */
        unsigned mask = mandatory;
        for (unsigned t = 0; corners != 0u && t < (1u << SHOVE_DIM); ++t) {
            corner_choice[t] = -1;
            if ((corners & (1u << t)) && !(t & mask)) {
                corner_choice[t] = SHOVE_IFN(corner_axis)(t, r);
                mask |= 1u << corner_choice[t];
            }
        }
        /* How far this leg goes: to t_min, less the skin on blocked axes. */
        float u = 1.0f;
        if (blocked) {
            u = t_min;
            for (int a = 0; a < SHOVE_DIM; ++a) {
                if (mask & (1u << a)) {
                    const float ua = t_min - skin / fabsf(r.raw[a]);
                    u = ua < u ? ua : u;
                }
            }
            u = u > 0.0f ? u : 0.0f;
        }

        /* Pass 3: contacts, contact faces and responses. */
        float face[SHOVE_DIM];
        unsigned slide_axes = 0u, bounce_axes = 0u;
        bool touch = false;
        for (int a = 0; blocked && a < SHOVE_DIM; ++a) { /* read on blocked axes only */
            face[a] = r.raw[a] > 0.0f ? INFINITY : -INFINITY;
        }
        if (blocked || any_cross) {
            SHOVE_IFN(leg_walk_start)(m, &leg, &w);
            for (const SHOVE_IFN(leg_candidate) * h; (h = SHOVE_IFN(leg_next)(m, &leg, &w));) {
                if (!h->entered) {
                    continue;
                }
                const shove_response resp = h->response;
                const shove_aabb o = h->box;
                if (resp == SHOVE_RESPONSE_CROSS) {
                    if (h->det.t_enter < u) {
                        SHOVE_IFN(report)
                        (m, h->i, h->key, h->det.axis, h->det.sign,
                         done + h->det.t_enter * (1.0f - done), resp);
                    }
                    continue;
                }
                if (!SHOVE_IFN(is_solid)(resp) || h->det.t_enter != t_min) {
                    continue;
                }
                int axis;
                if (SHOVE_IFN(popcount)(h->det.tied_axes) == 1) {
                    axis = h->det.axis;
                    for (int a = 0; a < SHOVE_DIM; ++a) {
                        if (h->det.tied_axes == (1u << a)) {
                            axis = a;
                        }
                    }
                } else {
                    axis = corner_choice[h->det.tied_axes];
                    if (axis < 0) {
                        continue; /* a corner another hit made moot */
                    }
                }
                const float sign = r.raw[axis] > 0.0f ? -1.0f : 1.0f;
                if (r.raw[axis] > 0.0f) {
                    face[axis] = o.min.raw[axis] < face[axis] ? o.min.raw[axis] : face[axis];
                } else {
                    face[axis] = o.max.raw[axis] > face[axis] ? o.max.raw[axis] : face[axis];
                }
                if (resp == SHOVE_RESPONSE_TOUCH) {
                    touch = true;
                } else if (resp == SHOVE_RESPONSE_BOUNCE) {
                    bounce_axes |= 1u << axis;
                } else {
                    slide_axes |= 1u << axis;
                }
                SHOVE_IFN(set_flags)(m, axis, sign);
                SHOVE_IFN(report)(m, h->i, h->key, axis, sign, done + t_min * (1.0f - done), resp);
            }
        }

        /* Move: along the path to u, blocked axes snapped to face -+ skin. */
        shove_vec to;
        for (int a = 0; a < SHOVE_DIM; ++a) {
            to.raw[a] = d->raw[a] + u * r.raw[a];
            if (!blocked && !(shaped & (1u << a))) {
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
        for (int a = 0; a < SHOVE_DIM; ++a) {
            to.raw[a] = to.raw[a] > hi.raw[a] ? hi.raw[a] : to.raw[a];
            to.raw[a] = to.raw[a] < lo.raw[a] ? lo.raw[a] : to.raw[a];
        }
        if (memcmp(&to, d, sizeof to) != 0) { /* a leg that went nowhere needs no check */
            SHOVE_IFN(fix_rounding)(m, &leg, *d, &to);
        }
        *d = to;

        /* What is left of the motion, shaped by the responses. */
        if (!blocked) {
            break;
        }
        const float left = 1.0f - u;
        done = done + u * (1.0f - done);
        for (int a = 0; a < SHOVE_DIM; ++a) {
            r.raw[a] = touch ? 0.0f : r.raw[a] * left;
            if (!(mask & (1u << a))) {
                continue;
            }
            shaped |= 1u << a;
            if ((bounce_axes & (1u << a)) && !(slide_axes & (1u << a))) {
                /* bump.lua's bounce: the rest of the motion, reflected, from
                 * the contact on; the envelope of this axis becomes that
                 * reflected leg, which may pass the sub-move's start. */
                r.raw[a] = -r.raw[a];
                const float end = d->raw[a] + r.raw[a];
                lo.raw[a] = r.raw[a] < 0.0f ? end : d->raw[a];
                hi.raw[a] = r.raw[a] > 0.0f ? end : d->raw[a];
                m->bounced = true;
            } else {
                r.raw[a] = 0.0f;
            }
        }
    }
}

/* >>moves --------------------------------------------------------------- */

typedef struct SHOVE_IFN(path) {
    shove_vec d;
    bool hit_ceiling, hit_wall, stepped;
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

static void SHOVE_IFN(plain_path)(SHOVE_IFN(mover) * m, shove_vec request, bool write,
                                  SHOVE_IFN(path) * p) {
    SHOVE_IFN(path_begin)(m, write);
    m->t_lo = 0.0f;
    m->t_span = 1.0f;
    shove_vec d = shove_vec_splat(0.0f);
    SHOVE_IFN(sub_move)(m, &d, request, true);
    SHOVE_IFN(path_end)(m, p, d);
    p->stepped = false;
}

/* Raise by up to step_height, walk the horizontal part, settle down by the
 * raise plus the request's own downward part. Returns false when the raise
 * got nowhere. */
static bool SHOVE_IFN(step_path)(SHOVE_IFN(mover) * m, shove_vec request, bool write,
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
    SHOVE_IFN(sub_move)(m, &d, settle, false);
    SHOVE_IFN(path_end)(m, p, d);
    p->stepped = true;
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

/* Edge guard: the largest part of the request, per sideways axis, that
 * keeps the footprint over ground an edge guard accepts. Walking along axis
 * a, each support is an open interval of displacements; the mover may go to
 * the end of the run of overlapping intervals around 0, less the skin (so it
 * keeps a sliver of support and stays grounded). */
static shove_vec SHOVE_IFN(edge_clamp)(SHOVE_IFN(mover) * m, shove_vec request,
                                       const SHOVE_IFN(support) * under) {
    const int up = m->def->up_axis;
    const shove_aabb b = m->start;
    const float step = m->def->step_height;
    const float foot = b.min.raw[up];
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
                    if (o.max.raw[up] > foot + step || o.min.raw[up] >= b.max.raw[up]) {
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
        if (!any) {
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

/* Plain slide, then a step-up when the plain slide was blocked sideways
 * and a step gets further. */
static void SHOVE_IFN(walk)(SHOVE_IFN(mover) * m, shove_vec request, bool grounded,
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
    /* A dry run first (no contacts written), so the plain contacts stay in
     * def->contacts when the step is refused. */
    SHOVE_IFN(path) step;
    if (!SHOVE_IFN(step_path)(m, request, false, &step) ||
        !(SHOVE_IFN(sideways)(step.d, up) > plain) ||
        !SHOVE_IFN(on_ground)(m, SHOVE_IFN(box_moved)(m->start, step.d))) {
        return;
    }
    SHOVE_IFN(step_path)(m, request, true, best);
}

/* >>core ---------------------------------------------------------------- */

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
    m.hit_wall = false;
    const int up = def->up_axis;

    /* Rounding scale of this move's coordinates, and the box's narrowest
     * side: a box no wider than that rounding may lose its width as it
     * moves (any axis: the test is cheaper without the up exception). */
    float big = 0.0f;
    float narrow = INFINITY;
    for (int a = 0; a < SHOVE_DIM; ++a) {
        const float v[4] = {box.min.raw[a], box.max.raw[a], box.min.raw[a] + delta.raw[a],
                            box.max.raw[a] + delta.raw[a]};
        for (int k = 0; k < 4; ++k) {
            big = fabsf(v[k]) > big ? fabsf(v[k]) : big;
        }
        const float side = v[1] - v[0];
        narrow = side < narrow ? side : narrow;
    }
    m.slack = 4.0f * SHOVE_IFN(ulp)(big);
    m.thin = !(narrow > m.slack);

    /* The one gather: the swept box, widened on the up axis for the step-up
     * raise and the ground and edge probes. A bounce may take the mover back
     * past its start by up to the motion (never further: each reflection
     * keeps a part of what is left), so a move that may bounce gathers the
     * box swept both ways. */
    m.region_box =
        SHOVE_IFN(may_bounce)(def) ? SHOVE_IFN(swept_bounds)(box, SHOVE_IFN(vec_neg)(delta)) : box;
    if (up >= 0) {
        const float reach = def->step_height + 4.0f * def->skin + 2.0f * m.slack;
        m.region_box.min.raw[up] -= reach;
        m.region_box.max.raw[up] += reach;
    }
    m.region_delta = delta;
    m.region_margin = def->skin + m.slack;
    SHOVE_IFN(obstacles_clear)(scratch);
    scratch->cursor = 0;
    if (!source->gather(source->ctx, m.region_box, m.region_delta, m.region_margin, scratch)) {
        return SHOVE_ERR_OUT_OF_MEMORY;
    }
    m.streaming = scratch->more;

    /* The guard keeps walking movers over ground: on it, or stepping down
     * with ground within step_height below. Jumps and falls are free. */
    const bool guarding = def->edge_guard && up >= 0 && !(delta.raw[up] > 0.0f);
    SHOVE_IFN(support) under;
    memset(&under, 0, sizeof under);
    if (up >= 0) {
        under = SHOVE_IFN(probe)(&m, box, guarding, guarding);
    }
    const bool grounded = under.ground;
    const bool guard = guarding && under.edge;
    shove_vec request = delta;
    if (guard) {
        request = SHOVE_IFN(edge_clamp)(&m, delta, &under);
    }
    SHOVE_IFN(path) p;
    SHOVE_IFN(walk)(&m, request, grounded, &p);
    /* The end box's ground, and whether the guard accepts it. */
    SHOVE_IFN(support) end;
    memset(&end, 0, sizeof end);
    if (up >= 0) {
        end = SHOVE_IFN(probe)(&m, SHOVE_IFN(box_moved)(box, p.d), guard, false);
    }
    if (guard && !end.edge) {
        /* The per-axis clamps were not enough (a diagonal into a notch):
         * try each sideways axis alone, then no sideways motion at all. */
        bool done = false;
        for (int a = 0; a < SHOVE_DIM && !done; ++a) {
            if (a == up || request.raw[a] == 0.0f) {
                continue;
            }
            shove_vec only = shove_vec_splat(0.0f);
            only.raw[a] = request.raw[a];
            only.raw[up] = request.raw[up];
            SHOVE_IFN(walk)(&m, only, grounded, &p);
            end = SHOVE_IFN(probe)(&m, SHOVE_IFN(box_moved)(box, p.d), true, false);
            done = end.edge;
        }
        if (!done) {
            shove_vec still = shove_vec_splat(0.0f);
            still.raw[up] = request.raw[up];
            SHOVE_IFN(walk)(&m, still, grounded, &p);
            end.ground = SHOVE_IFN(on_ground)(&m, SHOVE_IFN(box_moved)(box, p.d));
        }
    }

    out->box = SHOVE_IFN(box_moved)(box, p.d);
    out->delta = p.d;
    out->contact_count = p.contact_count;
    out->on_ground = end.ground;
    out->hit_ceiling = p.hit_ceiling;
    out->hit_wall = p.hit_wall;
    out->stepped = p.stepped;
    return SHOVE_OK;
}

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

#undef SLIDE_KERNEL_OVERLAP
#undef SLIDE_SCAN_CHUNK
#undef SLIDE_SCALAR_SCAN
#undef SLIDE_MAX_ITERATIONS
#undef SLIDE_REPORTED_KEYS
#undef SLIDE_FIX_ROUNDS
#undef SLIDE_NOINLINE
