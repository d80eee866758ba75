/*
 * fuzz_support.h: what every fuzz harness shares (dimension-free).
 *
 * A harness turns the fuzzer's bytes into a scene through a fuzz_reader: a
 * cursor over the input that yields zeros once the bytes run out, so every
 * input, even an empty one, decodes to some scene. Numbers come mostly from
 * small grids (quarters, 64ths, 256ths) because exact touching, seams and
 * corners are where collide-and-slide goes wrong; a few come from raw float
 * bits, bounded so that no sum of two coordinates can overflow (a coordinate
 * near FLT_MAX plus a motion near FLT_MAX is infinite in any library).
 *
 * FUZZ_CHECK aborts with a message, which is what libFuzzer and the corpus
 * replay driver (replay_main.c) both report as a failure.
 */
#ifndef SHOVE_FUZZ_SUPPORT_H
#define SHOVE_FUZZ_SUPPORT_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <shove/shove.h>

/** Largest magnitude of a decoded coordinate: 2^40. Sums and differences of
 *  two such numbers stay far from overflow, and anything this far from the
 *  origin is already a world whose floats are coarser than any skin. */
#define FUZZ_MAX_COORD 1099511627776.0f

#define FUZZ_CHECK(cond, ...)                                                                      \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "fuzz check failed at %s:%d: %s\n  ", __FILE__, __LINE__, #cond);      \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fprintf(stderr, "\n");                                                                 \
            abort();                                                                               \
        }                                                                                          \
    } while (0)

typedef struct fuzz_reader {
    const uint8_t *data;
    size_t size;
    size_t pos;
} fuzz_reader;

static inline fuzz_reader fuzz_reader_make(const uint8_t *data, size_t size) {
    fuzz_reader r = {data, size, 0};
    return r;
}

static inline bool fuzz_left(const fuzz_reader *r) {
    return r->pos < r->size;
}

static inline uint8_t fuzz_u8(fuzz_reader *r) {
    return r->pos < r->size ? r->data[r->pos++] : 0u;
}

static inline uint16_t fuzz_u16(fuzz_reader *r) {
    const uint16_t lo = fuzz_u8(r);
    return (uint16_t)(lo | (uint16_t)(fuzz_u8(r) << 8));
}

static inline uint32_t fuzz_u32(fuzz_reader *r) {
    const uint32_t lo = fuzz_u16(r);
    return lo | ((uint32_t)fuzz_u16(r) << 16);
}

static inline bool fuzz_bool(fuzz_reader *r) {
    return (fuzz_u8(r) & 1u) != 0u;
}

/** An integer in [0, n) (n >= 1). */
static inline int fuzz_below(fuzz_reader *r, int n) {
    return (int)(fuzz_u8(r) % (unsigned)n);
}

static inline float fuzz_float_from_bits(uint32_t bits) {
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

/** A finite float: mostly grid values, sometimes raw bits (bounded by
 *  FUZZ_MAX_COORD, see above). Never NaN or infinite. */
static inline float fuzz_float(fuzz_reader *r) {
    const uint8_t tag = fuzz_u8(r);
    switch (tag & 7u) {
    case 0:
    case 1:
    case 2:
        return (float)(int8_t)fuzz_u8(r) * 0.25f; /* quarters in [-32, 32) */
    case 3:
        return (float)(int8_t)fuzz_u8(r) * (1.0f / 64.0f);
    case 4:
        return (float)(int16_t)fuzz_u16(r) * (1.0f / 256.0f);
    case 5:
        return (float)(int16_t)fuzz_u16(r); /* whole numbers up to 32768 */
    case 6: {
        /* a grid value plus a few float steps: just beside a face */
        float f = (float)(int8_t)fuzz_u8(r) * 0.25f;
        const int steps = (int)(fuzz_u8(r) % 7u) - 3;
        for (int i = 0; i < steps; ++i) {
            f = nextafterf(f, INFINITY);
        }
        for (int i = 0; i > steps; --i) {
            f = nextafterf(f, -INFINITY);
        }
        return f;
    }
    default: {
        const float f = fuzz_float_from_bits(fuzz_u32(r));
        if (!isfinite(f) || fabsf(f) > FUZZ_MAX_COORD) {
            return (tag & 0x80u) ? -0.0f : 1.0e-30f;
        }
        return f;
    }
    }
}

/** A non-negative float (a size or a distance). */
static inline float fuzz_size(fuzz_reader *r) {
    return fabsf(fuzz_float(r));
}

/** Any float, non-finite ones included (for inputs that must be refused). */
static inline float fuzz_any_float(fuzz_reader *r) {
    switch (fuzz_u8(r) & 15u) {
    case 0:
        return NAN;
    case 1:
        return INFINITY;
    case 2:
        return -INFINITY;
    case 3:
        return fuzz_float_from_bits(fuzz_u32(r));
    default:
        return fuzz_float(r);
    }
}

/* >>SIMD levels: run the same thing under every level and compare bytes */

/** Levels this CPU and build support, scalar first. Returns how many. */
static inline int fuzz_simd_levels(shove_simd out[SHOVE_SIMD_LEVEL_COUNT]) {
    int n = 0;
    for (int level = 0; level < SHOVE_SIMD_LEVEL_COUNT; ++level) {
        if (shove_simd_supported((shove_simd)level)) {
            out[n++] = (shove_simd)level;
        }
    }
    return n;
}

static inline void fuzz_simd_use(shove_simd level) {
    FUZZ_CHECK(shove_simd_select(level) == SHOVE_OK, "cannot select %s", shove_simd_name(level));
}

/** Byte sentinel written into outputs before a call, to see what it wrote. */
#define FUZZ_SENTINEL 0xA5

static inline bool fuzz_all_bytes(const void *p, size_t n, uint8_t value) {
    const uint8_t *b = p;
    for (size_t i = 0; i < n; ++i) {
        if (b[i] != value) {
            return false;
        }
    }
    return true;
}

/** Sign of x as -1, 0 or +1 (-0 counts as 0). */
static inline int fuzz_sign(float x) {
    return (x > 0.0f) - (x < 0.0f);
}

#endif
