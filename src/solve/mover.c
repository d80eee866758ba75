/*
 * mover.c: one move's shared state (the mover) and what every part of the
 * slide core does with it: the float helpers of exact clamping, scans over
 * the move's obstacle set (streamed when the set is resumable), the
 * response each obstacle gets, and the contacts and flags a path reports.
 * Template: see dim.h.
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "geometry/geometry.h"
#include "obstacles/obstacles.h"
#include "simd/kernels.h"
#include "simd/soa.h"
#include "solve/response.h"
#include "solve/slide_limits.h"

#if SHOVE_DIM == 2
#define SLIDE_KERNEL_OVERLAP overlap2
#else
#define SLIDE_KERNEL_OVERLAP overlap3
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
    SHOVE_AXES_UNROLLED
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
    /* swept_region without a margin and with one float step: the same bits
     * as swept_bounds followed by next_down / next_up of every face (adding
     * the +0 margin is what the step does to a zero first anyway). */
    return SHOVE_IFN(swept_region)(b, r, 0.0f, false);
}

static inline int SHOVE_IFN(popcount)(unsigned x) {
    int n = 0;
    for (; x; x &= x - 1u) {
        ++n;
    }
    return n;
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
    /* The gather left out the step-up's room, above the box up to room_top
     * and below it down to room_bottom (gather_region); widen_for_step gathers
     * it before a step-up. */
    bool lean;
    float room_top, room_bottom;
    bool gather_failed; /* that second gather failed: the move fails */
    float slack;        /* a few float steps at this move's coordinates */
    bool thin;          /* the box may have no width on a sideways axis (see footprint_widen) */
    bool inside_solid;  /* the start box overlaps a solid obstacle */
    /* Contacts of the path being run. */
    bool write_contacts;
    int contact_count;
    float t_lo, t_span; /* contact t = t_lo + t_span * path fraction */
    bool bounced;
    int key_count;
    uint32_t keys[SLIDE_REPORTED_KEYS];
    /* Flags of the path being run. */
    bool hit_ceiling, hit_wall;
    /* A step-up's settle is running: BOUNCE stops it as SLIDE would (see
     * step_up_path). */
    bool settling;
} SHOVE_IFN(mover);

/* Where one scan over the obstacles is. */
typedef struct SHOVE_IFN(scan) {
    size_t pos;    /* next obstacle of the set to hand out */
    uint32_t base; /* key of set position 0 (obstacles streamed before it) */
} SHOVE_IFN(scan);

/* The set gathered again for m->region_* from the set's cursor on. False
 * when the source fails, which a resumable source streaming a fixed set
 * never does (the streaming scans below ignore it). */
static bool SHOVE_IFN(regather)(SHOVE_IFN(mover) * m) {
    SHOVE_IFN(obstacles_clear)(m->set);
    return m->source->gather(m->source->ctx, m->region_box, m->region_delta, m->region_margin,
                             m->set);
}

/* Gathers again with the step-up's room (see gather_region in slide.c). The set is then
 * the one a full first gather makes, in the same order, so everything from
 * here on runs as it would have. What ran before needed nothing outside the
 * lean region: the plain path stays inside the swept box, the ground probe
 * looks a few skins down, and the edge guard's probe step_height down,
 * which a guarded move's lean region keeps. False when the gather fails
 * (m->gather_failed). */
static bool SHOVE_IFN(widen_for_step)(SHOVE_IFN(mover) * m) {
    if (m->source->step_tried) {
        m->source->step_tried(m->source->ctx, m->lean);
    }
    if (!m->lean) {
        return !m->gather_failed;
    }
    m->lean = false;
    m->region_box.max.raw[m->def->up_axis] = m->room_top;
    m->region_box.min.raw[m->def->up_axis] = m->room_bottom;
    m->set->cursor = 0;
    if (!SHOVE_IFN(regather)(m)) {
        m->gather_failed = true;
        return false;
    }
    m->streaming = m->set->more;
    return true;
}

static void SHOVE_IFN(scan_start)(SHOVE_IFN(mover) * m, SHOVE_IFN(scan) * s) {
    s->pos = 0;
    s->base = 0;
    if (m->streaming) {
        m->set->cursor = 0;
        (void)SHOVE_IFN(regather)(m);
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
            (void)SHOVE_IFN(regather)(m);
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

/* The filter is asked once per obstacle of the set: a slide asks for the
 * response of a candidate in every pass of every leg and in the probes
 * (four or five times a slide in a crowd's step, whose filter decides who
 * may be pushed), and the header promises a filter the same answer each
 * time, so the first answer is kept in the obstacle's flags. */
_Static_assert(SHOVE__RESPONSE_COUNT + 1u <=
                   (SHOVE_OBSTACLE_ANSWER_MASK >> SHOVE_OBSTACLE_ANSWER_SHIFT),
               "an answer plus one fits the flags' answer bits");
static SLIDE_NOINLINE shove_response SHOVE_IFN(response_filtered)(const SHOVE_IFN(mover) * m,
                                                                  size_t i) {
    uint8_t *flags = &m->set->flags[i];
    const unsigned kept = (*flags & SHOVE_OBSTACLE_ANSWER_MASK) >> SHOVE_OBSTACLE_ANSWER_SHIFT;
    if (kept != 0u) {
        return (shove_response)(kept - 1u);
    }
    const SHOVE_T(set_obstacle) o = {m->set, i};
    const shove_response r =
        SHOVE_IFN(response_to)(m->def, m->source->mover, (*flags & SHOVE_OBSTACLE_SENSOR) != 0,
                               SHOVE_IFN(describe_set_obstacle), &o);
    *flags = (uint8_t)(*flags | (((unsigned)r + 1u) << SHOVE_OBSTACLE_ANSWER_SHIFT));
    return r;
}

/* The response to obstacle i (response_to). A move without a filter (the
 * common case, asked once per candidate in every pass) gets its answer
 * inline: the default response, as a sensor leaves it; a filter is called
 * out of line. */
static inline shove_response SHOVE_IFN(response_of)(const SHOVE_IFN(mover) * m, size_t i) {
    if (m->def->filter) {
        return SHOVE_IFN(response_filtered)(m, i);
    }
    return SHOVE_IFN(response_sensed)(m->def->response,
                                      (m->set->flags[i] & SHOVE_OBSTACLE_SENSOR) != 0);
}

static inline bool SHOVE_IFN(is_solid)(shove_response r) {
    return shove__response_is_solid(r);
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

#undef SLIDE_KERNEL_OVERLAP
