/*
 * fuzz_dim.h: per-dimension decoding and checks for the fuzz harnesses.
 * Include after dim.h (and fuzz_support.h); guards itself per dimension.
 * FZ(name) names a harness-local function of this dimension.
 */
#if (SHOVE_DIM == 2 && !defined(SHOVE_FUZZ_DIM2_H)) ||                                             \
    (SHOVE_DIM == 3 && !defined(SHOVE_FUZZ_DIM3_H))
#if SHOVE_DIM == 2
#define SHOVE_FUZZ_DIM2_H
#else
#define SHOVE_FUZZ_DIM3_H
#endif

#ifndef FZ
#define FZ(name) SHOVE_IFN(SHOVE_CAT(fuzz_, name))
#endif

static inline shove_vec FZ(vec)(fuzz_reader *r) {
    shove_vec v;
    for (int i = 0; i < SHOVE_DIM; ++i) {
        v.raw[i] = fuzz_float(r);
    }
    return v;
}

/** A valid box: a corner and a size per axis (zero sizes included). */
static inline shove_aabb FZ(box)(fuzz_reader *r) {
    shove_aabb b;
    for (int i = 0; i < SHOVE_DIM; ++i) {
        b.min.raw[i] = fuzz_float(r);
        b.max.raw[i] = b.min.raw[i] + fuzz_size(r);
    }
    return b;
}

/** `b` moved by `d` (each coordinate rounded once, as the library does). */
static inline shove_aabb FZ(box_plus)(shove_aabb b, shove_vec d) {
    for (int i = 0; i < SHOVE_DIM; ++i) {
        b.min.raw[i] += d.raw[i];
        b.max.raw[i] += d.raw[i];
    }
    return b;
}

static inline bool FZ(vec_finite)(shove_vec v) {
    for (int i = 0; i < SHOVE_DIM; ++i) {
        if (!isfinite(v.raw[i])) {
            return false;
        }
    }
    return true;
}

static inline bool FZ(same_bits)(const void *a, const void *b, size_t n) {
    return memcmp(a, b, n) == 0;
}

static inline bool FZ(vec_is_zero)(shove_vec v) {
    bool zero = true;
    for (int i = 0; i < SHOVE_DIM; ++i) {
        zero = zero && v.raw[i] == 0.0f;
    }
    return zero;
}

/** The same motion, flags and contact count, bit for bit (not the box). */
static inline bool FZ(same_report)(const shove_move_result *a, const shove_move_result *b) {
    return FZ(same_bits)(&a->delta, &b->delta, sizeof a->delta) &&
           a->contact_count == b->contact_count && a->on_ground == b->on_ground &&
           a->hit_wall == b->hit_wall && a->hit_ceiling == b->hit_ceiling &&
           a->stepped == b->stepped;
}

/** True when `n` is a unit axis vector (one component +-1, the rest +0). */
static inline bool FZ(is_axis_normal)(shove_vec n) {
    int ones = 0;
    for (int i = 0; i < SHOVE_DIM; ++i) {
        const float c = n.raw[i];
        if (c == 1.0f || c == -1.0f) {
            ++ones;
        } else if (!(c == 0.0f)) {
            return false;
        }
    }
    return ones == 1;
}

static inline void FZ(print_vec)(const char *name, shove_vec v) {
    fprintf(stderr, "  %s = (", name);
    for (int i = 0; i < SHOVE_DIM; ++i) {
        fprintf(stderr, "%s%.9g", i ? ", " : "", (double)v.raw[i]);
    }
    fprintf(stderr, ")\n");
}

static inline void FZ(print_box)(const char *name, shove_aabb b) {
    fprintf(stderr, "  %s = [", name);
    for (int i = 0; i < SHOVE_DIM; ++i) {
        fprintf(stderr, "%s%.9g", i ? ", " : "", (double)b.min.raw[i]);
    }
    fprintf(stderr, "] .. [");
    for (int i = 0; i < SHOVE_DIM; ++i) {
        fprintf(stderr, "%s%.9g", i ? ", " : "", (double)b.max.raw[i]);
    }
    fprintf(stderr, "]\n");
}

/** Rule 2 on one axis: `got` has the sign of `want` (or is zero) and is no
 *  larger; `extra_up` widens the allowance upward (an auto step-up). */
static inline bool FZ(within_request)(float got, float want, float extra_up) {
    const float lo = want < 0.0f ? want : 0.0f;
    const float hi = (want > 0.0f ? want : 0.0f) + extra_up;
    return got >= lo && got <= hi;
}

/** Rule 2 where a BOUNCE may have reflected the motion (bump.lua's bounce):
 *  `got` lies within the request's length of the start, either way. */
static inline bool FZ(within_length)(float got, float want, float extra_up) {
    return got >= -fabsf(want) && got <= fabsf(want) + extra_up;
}

#endif
