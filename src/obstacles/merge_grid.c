/*
 * merge_grid.c: greedy merge of a solid-cell grid into disjoint boxes
 * (adjacent solid tiles joined into larger boxes, in any dimension).
 * Template: see dim.h.
 *
 * Cells are visited in memory order (x fastest). The first solid cell not yet
 * covered starts a box, which grows along x as far as the row stays solid and
 * uncovered, then along y while every cell of the next layer is, then along
 * z. Each cell is covered once, so the boxes are disjoint and exact.
 */
#include <math.h>
#include <stdlib.h>

#include "geometry/geometry.h"

/* Linear index of cell `c` given per-axis strides. */
static size_t SHOVE_IFN(cell_index)(const int32_t c[SHOVE_DIM], const size_t stride[SHOVE_DIM]) {
    size_t index = 0;
    for (int a = 0; a < SHOVE_DIM; ++a) {
        index += (size_t)c[a] * stride[a];
    }
    return index;
}

/* Visits every cell of the box [lo, lo + ext) in odometer order; returns
 * false as soon as `visit` does. */
typedef bool (*SHOVE_T(cell_visit_fn))(void *ctx, size_t index);

static bool SHOVE_IFN(for_each_cell)(const int32_t lo[SHOVE_DIM], const int32_t ext[SHOVE_DIM],
                                     const size_t stride[SHOVE_DIM], SHOVE_T(cell_visit_fn) visit,
                                     void *ctx) {
    int32_t c[SHOVE_DIM];
    for (int a = 0; a < SHOVE_DIM; ++a) {
        c[a] = lo[a];
    }
    for (;;) {
        if (!visit(ctx, SHOVE_IFN(cell_index)(c, stride))) {
            return false;
        }
        int a = 0;
        while (a < SHOVE_DIM && ++c[a] == lo[a] + ext[a]) {
            c[a] = lo[a];
            ++a;
        }
        if (a == SHOVE_DIM) {
            return true;
        }
    }
}

typedef struct SHOVE_T(merge_state) {
    const uint8_t *solid;
    uint8_t *covered;
} SHOVE_T(merge_state);

static bool SHOVE_IFN(cell_is_open)(void *ctx, size_t index) {
    const SHOVE_T(merge_state) *s = ctx;
    return s->solid[index] != 0 && !s->covered[index];
}

static bool SHOVE_IFN(cover_cell)(void *ctx, size_t index) {
    SHOVE_T(merge_state) *s = ctx;
    s->covered[index] = 1;
    return true;
}

shove_status SHOVE_FN(merge_grid)(const uint8_t *solid, const int32_t cells[SHOVE_DIM],
                                  float cell_size, shove_vec origin, shove_aabb *out,
                                  size_t capacity, size_t *out_count) {
    if (!solid || !cells || !out_count || (!out && capacity > 0) || !isfinite(cell_size) ||
        !(cell_size > 0.0f) || !SHOVE_IFN(vec_is_finite)(origin)) {
        return SHOVE_ERR_INVALID_ARGUMENT;
    }
    size_t stride[SHOVE_DIM];
    size_t total = 1;
    for (int a = 0; a < SHOVE_DIM; ++a) {
        if (cells[a] <= 0 || total > SIZE_MAX / (size_t)cells[a]) {
            return SHOVE_ERR_INVALID_ARGUMENT;
        }
        stride[a] = total;
        total *= (size_t)cells[a];
        /* The far corner must be a finite float, or the boxes would not be
         * valid boxes. */
        if (!isfinite(origin.raw[a] + cell_size * (float)cells[a])) {
            return SHOVE_ERR_INVALID_ARGUMENT;
        }
    }
    SHOVE_T(merge_state) state = {solid, calloc(total, 1)};
    if (!state.covered) {
        return SHOVE_ERR_OUT_OF_MEMORY;
    }
    size_t count = 0;
    for (size_t index = 0; index < total; ++index) {
        if (!SHOVE_IFN(cell_is_open)(&state, index)) {
            continue;
        }
        int32_t lo[SHOVE_DIM], ext[SHOVE_DIM];
        size_t rest = index;
        for (int a = 0; a < SHOVE_DIM; ++a) {
            lo[a] = (int32_t)(rest % (size_t)cells[a]);
            rest /= (size_t)cells[a];
            ext[a] = 1;
        }
        /* Grow one axis at a time: try the next layer, keep it when open. */
        for (int a = 0; a < SHOVE_DIM; ++a) {
            for (;;) {
                if (lo[a] + ext[a] >= cells[a]) {
                    break;
                }
                int32_t layer_lo[SHOVE_DIM], layer_ext[SHOVE_DIM];
                for (int b = 0; b < SHOVE_DIM; ++b) {
                    layer_lo[b] = lo[b];
                    layer_ext[b] = ext[b];
                }
                layer_lo[a] = lo[a] + ext[a];
                layer_ext[a] = 1;
                if (!SHOVE_IFN(for_each_cell)(layer_lo, layer_ext, stride, SHOVE_IFN(cell_is_open),
                                              &state)) {
                    break;
                }
                ++ext[a];
            }
        }
        SHOVE_IFN(for_each_cell)(lo, ext, stride, SHOVE_IFN(cover_cell), &state);
        if (count < capacity) {
            shove_aabb box;
            for (int a = 0; a < SHOVE_DIM; ++a) {
                box.min.raw[a] = origin.raw[a] + cell_size * (float)lo[a];
                box.max.raw[a] = origin.raw[a] + cell_size * (float)(lo[a] + ext[a]);
            }
            out[count] = box;
        }
        ++count;
    }
    free(state.covered);
    *out_count = count;
    return SHOVE_OK;
}
