/*
 * resolve.c: the discrete resolvers (shove3_resolve): the motion is
 * already applied, and the box is pushed back out of what it overlaps.
 * Template: see dim.h.
 *
 * Every resolver works on a correction c: the result is the after-motion
 * box moved by c, each coordinate rounded once. A correction that undoes
 * the whole motion on an axis is exactly -motion there, so "the box before
 * the motion" is the same bits however it is reached, and a mover resting
 * against a surface comes back to the same place frame after frame.
 *
 * Clearing an obstacle on an axis means moving the box's side onto the
 * obstacle's face: the correction is the float for which the rounded side
 * lands on or just outside the face (touching is not overlapping).
 */
#include <math.h>
#include <string.h>

#include "geometry/geometry.h"

/* Corrections tried per call before giving up (each round clears at least
 * one obstacle on one axis). */
#define RESOLVE_MAX_ROUNDS 64
/* Candidate coordinates per axis the teleport search looks at. */
#define RESOLVE_TELEPORT_CANDIDATES 48

#ifndef SHOVE_RESOLVE_FLOAT_KEYS_
#define SHOVE_RESOLVE_FLOAT_KEYS_
/* Floats in order as integers: key(x) < key(y) exactly when x < y (the two
 * zeros share key 0). Finite floats have keys within +-0x7f7fffff. */
static inline int64_t shove__float_key(float x) {
    uint32_t b;
    memcpy(&b, &x, sizeof b);
    return (b & 0x80000000u) ? -(int64_t)(b & 0x7fffffffu) : (int64_t)b;
}

static inline float shove__key_float(int64_t k) {
    const uint32_t b = k >= 0 ? (uint32_t)k : (0x80000000u | (uint32_t)(-k));
    float x;
    memcpy(&x, &b, sizeof x);
    return x;
}

/* The largest x with fl(x + m) <= a: the top of the floats that move onto
 * a (or just below it). Exponential search, then bisection, over keys. */
static float shove__preimage_last_le(float a, float m) {
    const int64_t top = 0x7f7fffff;
    int64_t good, bad; /* fl(x(good) + m) <= a < fl(x(bad) + m) */
    const int64_t k0 = shove__float_key(a - m);
    if (shove__key_float(k0) + m <= a) {
        good = k0;
        int64_t step = 1;
        for (;;) {
            bad = good + step > top ? top : good + step;
            if (!(shove__key_float(bad) + m <= a)) {
                break;
            }
            if (bad == top) {
                return shove__key_float(top);
            }
            good = bad;
            step *= 2;
        }
    } else {
        bad = k0;
        int64_t step = 1;
        for (;;) {
            good = bad - step < -top ? -top : bad - step;
            if (shove__key_float(good) + m <= a) {
                break;
            }
            if (good == -top) {
                return a - m; /* nothing moves onto a: the plain difference */
            }
            bad = good;
            step *= 2;
        }
    }
    while (bad - good > 1) {
        const int64_t mid = good + (bad - good) / 2;
        if (shove__key_float(mid) + m <= a) {
            good = mid;
        } else {
            bad = mid;
        }
    }
    return shove__key_float(good);
}

/* The smallest x with fl(x + m) >= a (the mirror of the above). */
static float shove__preimage_first_ge(float a, float m) {
    return -shove__preimage_last_le(-a, -m);
}
#endif

/* The box before the motion, as exactly as floats allow. Per axis, many
 * floats may land on the after-box's side when the motion is added; the
 * box before the motion was one of them. A side takes the face of an
 * obstacle when one is among them (the mover rested on it), else the plain
 * difference after - motion if it is among them, else the inner end. So a resting mover comes back
 * exactly onto its face, adding the motion to the result gives the after-box again (the next frame
 * sees the same input and gives the same output), and the result lies inside the box the caller had
 * before. */
static shove_aabb SHOVE_IFN(resolve_undone)(shove_aabb after, shove_vec motion,
                                            const shove_aabb *obs, size_t n) {
    shove_aabb u = after;
    for (int a = 0; a < SHOVE_DIM; ++a) {
        const float m = motion.raw[a];
        if (m == 0.0f) {
            continue;
        }
        /* floats x with fl(x + m) == side, as [first, last] */
        const float lo_last = shove__preimage_last_le(after.min.raw[a], m);
        const float lo_first = shove__preimage_first_ge(after.min.raw[a], m);
        const float hi_last = shove__preimage_last_le(after.max.raw[a], m);
        const float hi_first = shove__preimage_first_ge(after.max.raw[a], m);
        /* Without a face among them, the plain difference when it is one
         * of them: every float there is on the free side of every face
         * that is not among them, so any choice is as safe as another. */
        const float lo_plain = after.min.raw[a] - m, hi_plain = after.max.raw[a] - m;
        float lo = (lo_plain >= lo_first && lo_plain <= lo_last) ? lo_plain : lo_last;
        float hi = (hi_plain >= hi_first && hi_plain <= hi_last) ? hi_plain : hi_first;
        bool lo_face = false, hi_face = false;
        for (size_t i = 0; i < n; ++i) {
            const float top = obs[i].max.raw[a], bottom = obs[i].min.raw[a];
            if (top >= lo_first && top <= lo_last && (!lo_face || top > lo)) {
                lo = top;
                lo_face = true;
            }
            if (bottom >= hi_first && bottom <= hi_last && (!hi_face || bottom < hi)) {
                hi = bottom;
                hi_face = true;
            }
        }
        if (lo <= hi && isfinite(lo) && isfinite(hi)) {
            u.min.raw[a] = lo;
            u.max.raw[a] = hi;
        } else {
            u.min.raw[a] = after.min.raw[a] - m;
            u.max.raw[a] = after.max.raw[a] - m;
        }
    }
    return u;
}

/* Correction on axis a that puts `box` against obstacle o: dir < 0 moves
 * down (box.max onto o.min), dir > 0 moves up (box.min onto o.max). */
static float SHOVE_IFN(resolve_clear)(shove_aabb box, shove_aabb o, int a, int dir) {
    if (dir < 0) {
        const float base = box.max.raw[a];
        float c = o.min.raw[a] - base;
        while (base + c > o.min.raw[a]) {
            c = shove__next_down(c);
        }
        return c;
    }
    const float base = box.min.raw[a];
    float c = o.max.raw[a] - base;
    while (base + c < o.max.raw[a]) {
        c = shove__next_up(c);
    }
    return c;
}

/* What every resolver shares. */
typedef struct SHOVE_IFN(resolver) {
    shove_aabb after; /* the box after the motion */
    shove_vec motion;
    shove_vec undo;    /* -motion: the correction back to before */
    shove_aabb undone; /* the box before the motion (resolve_undone) */
    const shove_aabb *obs;
    size_t n;
} SHOVE_IFN(resolver);

/* The box a correction gives: after + c, except that axes where c undoes
 * the motion take the sides of the box before the motion. */
static shove_aabb SHOVE_IFN(resolve_at)(const SHOVE_IFN(resolver) * r, shove_vec c) {
    shove_aabb b = SHOVE_IFN(box_moved)(r->after, c);
    for (int a = 0; a < SHOVE_DIM; ++a) {
        if (r->motion.raw[a] != 0.0f && c.raw[a] == r->undo.raw[a]) {
            b.min.raw[a] = r->undone.min.raw[a];
            b.max.raw[a] = r->undone.max.raw[a];
        }
    }
    return b;
}

/* Does undoing the motion on axis a clear o, moving in direction dir? */
static bool SHOVE_IFN(resolve_undo_clears)(const SHOVE_IFN(resolver) * r, shove_aabb o, int a,
                                           int dir) {
    return dir < 0 ? r->undone.max.raw[a] <= o.min.raw[a] : r->undone.min.raw[a] >= o.max.raw[a];
}

/* resolve_clear, but a correction within rounding of undoing the whole
 * motion on that axis (or beyond it) is the undo itself when the undo
 * clears too: a mover that rested on a face before the motion goes back to
 * exactly where it was. */
static float SHOVE_IFN(resolve_clear_m)(const SHOVE_IFN(resolver) * r, shove_aabb o, int a,
                                        int dir) {
    const float v = SHOVE_IFN(resolve_clear)(r->after, o, a, dir);
    const float undo = r->undo.raw[a];
    if (r->motion.raw[a] == 0.0f || !SHOVE_IFN(resolve_undo_clears)(r, o, a, dir)) {
        return v;
    }
    const float side = dir < 0 ? r->after.max.raw[a] : r->after.min.raw[a];
    const float face = dir < 0 ? o.min.raw[a] : o.max.raw[a];
    const float big = fabsf(side) > fabsf(face) ? fabsf(side) : fabsf(face);
    const float tol = 2.0f * (shove__next_up(big) - big);
    /* dir and undo point the same way when the obstacle is one the motion
     * ran into; then "as far as the undo or further" is the undo. */
    const bool at_least_undo = dir < 0 ? v <= undo + tol : v >= undo - tol;
    return (at_least_undo && (dir < 0) == (undo < 0.0f)) ? undo : v;
}

static bool SHOVE_IFN(resolve_free)(shove_aabb b, const shove_aabb *obs, size_t n) {
    for (size_t i = 0; i < n; ++i) {
        if (SHOVE_IFN(overlaps_unchecked)(b, obs[i])) {
            return false;
        }
    }
    return true;
}

/* Volume (area in 2D) of the intersection; 0 when they do not overlap. */
static float SHOVE_IFN(resolve_overlap)(shove_aabb a, shove_aabb b) {
    float v = 1.0f;
    for (int i = 0; i < SHOVE_DIM; ++i) {
        const float lo = a.min.raw[i] > b.min.raw[i] ? a.min.raw[i] : b.min.raw[i];
        const float hi = a.max.raw[i] < b.max.raw[i] ? a.max.raw[i] : b.max.raw[i];
        if (!(hi > lo)) {
            return 0.0f;
        }
        v *= hi - lo;
    }
    return v;
}

static float SHOVE_IFN(resolve_total_overlap)(shove_aabb b, const shove_aabb *obs, size_t n) {
    float total = 0.0f;
    for (size_t i = 0; i < n; ++i) {
        total += SHOVE_IFN(resolve_overlap)(b, obs[i]);
    }
    return total;
}

/* >>mandatory first ------------------------------------------------------ */

/* Mandatory shoves first. A correction works only against the motion and
 * never exceeds it. Each overlapped obstacle lists the axes that can clear it
 * within that budget; obstacles with a single axis ("mandatory shoves") are
 * applied first, all together; only when none is left does each remaining
 * obstacle take its smallest correction. An obstacle no axis can clear sends
 * the mover back to before the motion. */
static shove_aabb SHOVE_IFN(resolve_mandatory)(const SHOVE_IFN(resolver) * r) {
    shove_vec c = shove_vec_splat(0.0f);
    for (int round = 0; round < RESOLVE_MAX_ROUNDS; ++round) {
        const shove_aabb b = SHOVE_IFN(resolve_at)(r, c);
        shove_vec forced = c, chosen = c;
        bool any = false, any_forced = false;
        for (size_t i = 0; i < r->n; ++i) {
            const shove_aabb o = r->obs[i];
            if (!SHOVE_IFN(overlaps_unchecked)(b, o)) {
                continue;
            }
            any = true;
            unsigned options = 0u;
            float value[SHOVE_DIM];
            for (int a = 0; a < SHOVE_DIM; ++a) {
                const float m = r->motion.raw[a];
                if (m == 0.0f) {
                    continue;
                }
                const int dir = m > 0.0f ? -1 : 1;
                const float v = SHOVE_IFN(resolve_clear_m)(r, o, a, dir);
                if (dir < 0 ? v < r->undo.raw[a] : v > r->undo.raw[a]) {
                    continue; /* would take more than the motion */
                }
                options |= 1u << a;
                value[a] = v;
            }
            if (options == 0u) {
                return r->undone;
            }
            int pick = -1;
            const bool single = (options & (options - 1u)) == 0u;
            for (int a = 0; a < SHOVE_DIM; ++a) {
                if (!(options & (1u << a))) {
                    continue;
                }
                if (pick < 0 || fabsf(value[a] - c.raw[a]) < fabsf(value[pick] - c.raw[pick])) {
                    pick = a;
                }
            }
            shove_vec *target = single ? &forced : &chosen;
            any_forced = any_forced || single;
            /* Every correction on an axis points the same way (against the
             * motion), so combining them is taking the largest. */
            if (fabsf(value[pick]) > fabsf(target->raw[pick])) {
                target->raw[pick] = value[pick];
            }
        }
        if (!any) {
            return b;
        }
        c = any_forced ? forced : chosen;
    }
    const shove_aabb b = SHOVE_IFN(resolve_at)(r, c);
    return SHOVE_IFN(resolve_free)(b, r->obs, r->n) ? b : r->undone;
}

/* >>largest overlap ------------------------------------------------------ */

/* Largest overlap first: take the obstacle overlapped most, push out along
 * the axis of its smallest penetration. Its flaw, a mover jittering in a
 * passage a bit too narrow (each push shoves it into the other side), is
 * fixed by accepting a push only when it strictly lowers the total overlap:
 * the next shallowest axis is tried instead, and when no axis helps the mover
 * goes back to before the motion. The total strictly falls every round, so
 * the search ends, and the answer depends only on the input. */
static shove_aabb SHOVE_IFN(resolve_largest)(const SHOVE_IFN(resolver) * r) {
    shove_vec c = shove_vec_splat(0.0f);
    for (int round = 0; round < RESOLVE_MAX_ROUNDS; ++round) {
        const shove_aabb b = SHOVE_IFN(resolve_at)(r, c);
        size_t worst = r->n;
        float worst_v = 0.0f;
        for (size_t i = 0; i < r->n; ++i) {
            if (!SHOVE_IFN(overlaps_unchecked)(b, r->obs[i])) {
                continue;
            }
            const float v = SHOVE_IFN(resolve_overlap)(b, r->obs[i]);
            if (worst == r->n || v > worst_v) {
                worst_v = v;
                worst = i;
            }
        }
        if (worst == r->n) {
            return b;
        }
        const shove_aabb o = r->obs[worst];
        const float total = SHOVE_IFN(resolve_total_overlap)(b, r->obs, r->n);
        /* Per axis, the shallower side; then axes from shallowest. */
        float pen[SHOVE_DIM], value[SHOVE_DIM];
        for (int a = 0; a < SHOVE_DIM; ++a) {
            const float down = b.max.raw[a] - o.min.raw[a];
            const float up = o.max.raw[a] - b.min.raw[a];
            const int dir = down < up ? -1 : 1;
            pen[a] = down < up ? down : up;
            value[a] = SHOVE_IFN(resolve_clear_m)(r, o, a, dir);
        }
        bool moved = false;
        unsigned tried = 0u;
        for (int k = 0; k < SHOVE_DIM && !moved; ++k) {
            int a = -1;
            for (int i = 0; i < SHOVE_DIM; ++i) {
                if (!(tried & (1u << i)) && (a < 0 || pen[i] < pen[a])) {
                    a = i;
                }
            }
            tried |= 1u << a;
            shove_vec next = c;
            next.raw[a] = value[a];
            if (SHOVE_IFN(resolve_total_overlap)(SHOVE_IFN(resolve_at)(r, next), r->obs, r->n) <
                total) {
                c = next;
                moved = true;
            }
        }
        if (!moved) {
            return r->undone;
        }
    }
    const shove_aabb b = SHOVE_IFN(resolve_at)(r, c);
    return SHOVE_IFN(resolve_free)(b, r->obs, r->n) ? b : r->undone;
}

/* >>teleport ------------------------------------------------------------- */

/* Squared length of a correction. */
static float SHOVE_IFN(resolve_norm2)(shove_vec c) {
    float s = 0.0f;
    for (int a = 0; a < SHOVE_DIM; ++a) {
        s += c.raw[a] * c.raw[a];
    }
    return s;
}

/* The smallest correction along axis a alone (direction dir) that frees the
 * box: push past every obstacle in the way, one after the other. */
static bool SHOVE_IFN(resolve_along)(const SHOVE_IFN(resolver) * r, int a, int dir, float *out) {
    shove_vec c = shove_vec_splat(0.0f);
    for (size_t round = 0; round <= r->n; ++round) {
        const shove_aabb b = SHOVE_IFN(resolve_at)(r, c);
        bool clean = true;
        float next = c.raw[a];
        for (size_t i = 0; i < r->n; ++i) {
            if (!SHOVE_IFN(overlaps_unchecked)(b, r->obs[i])) {
                continue;
            }
            clean = false;
            const float v = SHOVE_IFN(resolve_clear_m)(r, r->obs[i], a, dir);
            next = dir < 0 ? (v < next ? v : next) : (v > next ? v : next);
        }
        if (clean) {
            *out = c.raw[a];
            return true;
        }
        if (next == c.raw[a]) {
            return false;
        }
        c.raw[a] = next;
    }
    return false;
}

/* Insert v into the sorted (by |v|, then v) candidate list of one axis. */
static void SHOVE_IFN(resolve_add_candidate)(float *list, int *count, float v, float bound2) {
    if (!(v * v < bound2)) {
        return;
    }
    int pos = *count;
    while (pos > 0 && (fabsf(list[pos - 1]) > fabsf(v) ||
                       (fabsf(list[pos - 1]) == fabsf(v) && list[pos - 1] > v))) {
        --pos;
    }
    if (pos > 0 && list[pos - 1] == v) {
        return;
    }
    if (pos >= RESOLVE_TELEPORT_CANDIDATES) {
        return;
    }
    const int keep = (*count < RESOLVE_TELEPORT_CANDIDATES ? *count : *count - 1) - pos;
    if (keep > 0) {
        memmove(&list[pos + 1], &list[pos], (size_t)keep * sizeof *list);
    }
    list[pos] = v;
    if (*count < RESOLVE_TELEPORT_CANDIDATES) {
        ++*count;
    }
}

typedef struct SHOVE_IFN(teleport_search) {
    const SHOVE_IFN(resolver) * r;
    shove_vec best;
    float best2;
    const float *cand[SHOVE_DIM];
    int ncand[SHOVE_DIM];
} SHOVE_IFN(teleport_search);

/* Try every combination of candidates from axis a on, smallest first,
 * skipping those no shorter than the best so far. */
static void SHOVE_IFN(resolve_search)(SHOVE_IFN(teleport_search) * s, int a, shove_vec c,
                                      float partial2) {
    if (a == SHOVE_DIM) {
        if (partial2 < s->best2 &&
            SHOVE_IFN(resolve_free)(SHOVE_IFN(resolve_at)(s->r, c), s->r->obs, s->r->n)) {
            s->best2 = partial2;
            s->best = c;
        }
        return;
    }
    for (int k = 0; k < s->ncand[a]; ++k) {
        const float v = s->cand[a][k];
        const float p2 = partial2 + v * v;
        if (!(p2 < s->best2)) {
            break; /* sorted by size: the rest are longer still */
        }
        c.raw[a] = v;
        SHOVE_IFN(resolve_search)(s, a + 1, c, p2);
    }
}

/* Teleport: the smallest correction in any direction. The nearest free box
 * has, on every axis, either its own coordinate or a side on some obstacle's
 * face, so the search tries those coordinates, nearest first, bounded by the
 * best single-axis push. Very dense scenes are limited to the
 * RESOLVE_TELEPORT_CANDIDATES nearest coordinates per axis. */
static shove_aabb SHOVE_IFN(resolve_teleport)(const SHOVE_IFN(resolver) * r) {
    if (SHOVE_IFN(resolve_free)(r->after, r->obs, r->n)) {
        return r->after;
    }
    SHOVE_IFN(teleport_search) search;
    search.r = r;
    search.best = shove_vec_splat(0.0f);
    search.best2 = INFINITY;
    for (int a = 0; a < SHOVE_DIM; ++a) {
        for (int dir = -1; dir <= 1; dir += 2) {
            float v;
            if (SHOVE_IFN(resolve_along)(r, a, dir, &v)) {
                shove_vec c = shove_vec_splat(0.0f);
                c.raw[a] = v;
                if (SHOVE_IFN(resolve_norm2)(c) < search.best2) {
                    search.best2 = SHOVE_IFN(resolve_norm2)(c);
                    search.best = c;
                }
            }
        }
    }
    /* Candidate coordinates from obstacles within reach of the best so far. */
    float cand[SHOVE_DIM][RESOLVE_TELEPORT_CANDIDATES];
    const float reach = sqrtf(search.best2);
    shove_aabb zone = r->after;
    for (int a = 0; a < SHOVE_DIM; ++a) {
        zone.min.raw[a] -= reach;
        zone.max.raw[a] += reach;
        search.cand[a] = cand[a];
        search.ncand[a] = 0;
        SHOVE_IFN(resolve_add_candidate)(cand[a], &search.ncand[a], 0.0f, INFINITY);
    }
    for (size_t i = 0; i < r->n; ++i) {
        if (!SHOVE_IFN(overlaps_unchecked)(zone, r->obs[i])) {
            continue;
        }
        for (int a = 0; a < SHOVE_DIM; ++a) {
            for (int dir = -1; dir <= 1; dir += 2) {
                SHOVE_IFN(resolve_add_candidate)
                (cand[a], &search.ncand[a], SHOVE_IFN(resolve_clear_m)(r, r->obs[i], a, dir),
                 search.best2);
            }
        }
    }
    SHOVE_IFN(resolve_search)(&search, 0, shove_vec_splat(0.0f), 0.0f);
    return SHOVE_IFN(resolve_at)(r, search.best);
}

/* >>public --------------------------------------------------------------- */

shove_status SHOVE_FN(resolve)(shove_aabb box, shove_vec motion, const shove_aabb *obstacles,
                               size_t count, shove_resolve_mode mode, shove_aabb *out) {
    if (!out || !SHOVE_FN(aabb_is_valid)(box) || !SHOVE_IFN(vec_is_finite)(motion) ||
        (count > 0 && !obstacles)) {
        return SHOVE_ERR_INVALID_ARGUMENT;
    }
    if (mode != SHOVE_RESOLVE_MANDATORY_FIRST && mode != SHOVE_RESOLVE_LARGEST_OVERLAP &&
        mode != SHOVE_RESOLVE_TELEPORT) {
        return SHOVE_ERR_INVALID_ARGUMENT;
    }
    for (size_t i = 0; i < count; ++i) {
        if (!SHOVE_FN(aabb_is_valid)(obstacles[i])) {
            return SHOVE_ERR_INVALID_ARGUMENT;
        }
    }
    /* The box before the motion must be a box too (huge motions could make
     * it infinite). */
    shove_vec undo;
    for (int a = 0; a < SHOVE_DIM; ++a) {
        undo.raw[a] = -motion.raw[a];
    }
    if (!SHOVE_FN(aabb_is_valid)(SHOVE_IFN(box_moved)(box, undo))) {
        return SHOVE_ERR_INVALID_ARGUMENT;
    }
    SHOVE_IFN(resolver) r;
    r.after = box;
    r.motion = motion;
    r.undo = undo;
    r.undone = SHOVE_IFN(resolve_undone)(box, motion, obstacles, count);
    r.obs = obstacles;
    r.n = count;
    switch (mode) {
    case SHOVE_RESOLVE_MANDATORY_FIRST:
        *out = SHOVE_IFN(resolve_mandatory)(&r);
        break;
    case SHOVE_RESOLVE_LARGEST_OVERLAP:
        *out = SHOVE_IFN(resolve_largest)(&r);
        break;
    case SHOVE_RESOLVE_TELEPORT:
        *out = SHOVE_IFN(resolve_teleport)(&r);
        break;
    }
    return SHOVE_OK;
}

#undef RESOLVE_MAX_ROUNDS
#undef RESOLVE_TELEPORT_CANDIDATES
