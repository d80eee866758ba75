/*
 * test_voxel_map.h: a small block world for voxel tests. Include after
 * test_dim.h. A map is a dense box of cells, each with a kind (full block,
 * slabs, fence, wall, stair, thin plate); everything outside is empty. The
 * callback counts how often it is called, so tests can check which cells a
 * sweep reads. In 2D the z coordinate is dropped (tiles).
 *
 * map_overlaps() is the test's own answer to "is this box inside terrain":
 * it converts shapes without the library and checks every cell near the box.
 */
#ifndef SHOVE_TEST_VOXEL_MAP_H
#define SHOVE_TEST_VOXEL_MAP_H

#include <stdint.h>
#include <stdlib.h>

enum {
    CELL_EMPTY = 0,
    CELL_FULL,        /* the whole cell */
    CELL_SLAB_BOTTOM, /* lower half: y in [0, 0.5] */
    CELL_SLAB_TOP,    /* upper half: y in [0.5, 1] */
    CELL_FENCE,       /* a post 1.5 tall in the middle: x, z in [0.375, 0.625] */
    CELL_WALL,        /* 1.5 tall, x in [0, 1], z in [0.25, 0.75] */
    CELL_STAIR,       /* lower half plus the upper half of x in [0.5, 1] */
    CELL_THIN,        /* a plate 0.01 thick: x in [0, 0.01] */
    CELL_KINDS
};

typedef struct test_map {
    int32_t lo[3];   /* first cell */
    int32_t size[3]; /* cells per axis (size[2] is 1 in 2D) */
    uint8_t *kind;
    long calls; /* callback calls since the last reset */
    /* With `lie_in_row`, the callback answers a count no cell may have for
     * every cell of row y = lie_y (a lying game). */
    bool lie_in_row;
    int32_t lie_y;
} test_map;

static inline test_map *map_new(int32_t x0, int32_t y0, int32_t z0, int32_t nx, int32_t ny,
                                int32_t nz) {
    test_map *m = calloc(1, sizeof *m);
    m->lo[0] = x0;
    m->lo[1] = y0;
    m->lo[2] = SHOVE_DIM == 3 ? z0 : 0;
    m->size[0] = nx;
    m->size[1] = ny;
    m->size[2] = SHOVE_DIM == 3 ? nz : 1;
    m->kind = calloc((size_t)nx * (size_t)ny * (size_t)m->size[2], 1);
    return m;
}

static inline void map_free(test_map *m) {
    if (m) {
        free(m->kind);
        free(m);
    }
}

static inline long map_index(const test_map *m, int32_t x, int32_t y, int32_t z) {
    const int64_t c[3] = {(int64_t)x - m->lo[0], (int64_t)y - m->lo[1],
                          SHOVE_DIM == 3 ? (int64_t)z - m->lo[2] : 0};
    for (int a = 0; a < 3; ++a) {
        if (c[a] < 0 || c[a] >= m->size[a]) {
            return -1;
        }
    }
    return (long)((c[2] * m->size[1] + c[1]) * m->size[0] + c[0]);
}

static inline void map_set(test_map *m, int32_t x, int32_t y, int32_t z, int kind) {
    const long i = map_index(m, x, y, z);
    if (i >= 0) {
        m->kind[i] = (uint8_t)kind;
    }
}

static inline int map_get(const test_map *m, int32_t x, int32_t y, int32_t z) {
    const long i = map_index(m, x, y, z);
    return i >= 0 ? m->kind[i] : CELL_EMPTY;
}

/* Local boxes of a kind. */
static inline int map_shapes_of(int kind, shove_aabb out[SHOVE_VOXEL_MAX_BOXES]) {
    switch (kind) {
    case CELL_FULL:
        out[0] = BOX(0, 0, 0, 1, 1, 1);
        return 1;
    case CELL_SLAB_BOTTOM:
        out[0] = BOX(0, 0, 0, 1, 0.5, 1);
        return 1;
    case CELL_SLAB_TOP:
        out[0] = BOX(0, 0.5, 0, 1, 1, 1);
        return 1;
    case CELL_FENCE:
        out[0] = BOX(0.375, 0, 0.375, 0.625, 1.5, 0.625);
        return 1;
    case CELL_WALL:
        out[0] = BOX(0, 0, 0.25, 1, 1.5, 0.75);
        return 1;
    case CELL_STAIR:
        out[0] = BOX(0, 0, 0, 1, 0.5, 1);
        out[1] = BOX(0.5, 0.5, 0, 1, 1, 1);
        return 2;
    case CELL_THIN:
        out[0] = BOX(0, 0, 0, 0.01, 1, 1);
        return 1;
    default:
        return 0;
    }
}

#if SHOVE_DIM == 3
static int map_shapes(void *ctx, int32_t x, int32_t y, int32_t z,
                      shove_aabb out[SHOVE_VOXEL_MAX_BOXES]) {
#else
static int map_shapes(void *ctx, int32_t x, int32_t y, shove_aabb out[SHOVE_VOXEL_MAX_BOXES]) {
    const int32_t z = 0;
#endif
    test_map *m = ctx;
    m->calls += 1;
    if (m->lie_in_row && y == m->lie_y) {
        return SHOVE_VOXEL_MAX_BOXES + 1;
    }
    return map_shapes_of(map_get(m, x, y, z), out);
}

/* A voxel def over the map: size 1, origin `origin`, default shape bounds. */
static inline shove_voxel_def map_def(test_map *m, shove_vec origin, float size) {
    shove_voxel_def d = SHOVE_FN(default_voxel_def)();
    d.shapes = map_shapes;
    d.ctx = m;
    d.origin = origin;
    d.voxel_size = size;
    return d;
}

/* True when `b` overlaps a shape of the map (strictly), placed with
 * `origin` and voxel size `size`: checked cell by cell around the box. */
static inline bool map_overlaps(const test_map *m, shove_vec origin, float size, shove_aabb b) {
    int32_t lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
    for (int a = 0; a < SHOVE_DIM; ++a) {
        lo[a] = (int32_t)floor(((double)b.min.raw[a] - origin.raw[a]) / size) - 2;
        hi[a] = (int32_t)floor(((double)b.max.raw[a] - origin.raw[a]) / size) + 2;
    }
    for (int32_t z = lo[2]; z <= hi[2]; ++z) {
        for (int32_t y = lo[1]; y <= hi[1]; ++y) {
            for (int32_t x = lo[0]; x <= hi[0]; ++x) {
                shove_aabb s[SHOVE_VOXEL_MAX_BOXES];
                const int n = map_shapes_of(map_get(m, x, y, z), s);
                const int32_t c[3] = {x, y, z};
                for (int i = 0; i < n; ++i) {
                    shove_aabb wb;
                    for (int a = 0; a < SHOVE_DIM; ++a) {
                        wb.min.raw[a] =
                            (float)(origin.raw[a] + size * (c[a] + (double)s[i].min.raw[a]));
                        wb.max.raw[a] =
                            (float)(origin.raw[a] + size * (c[a] + (double)s[i].max.raw[a]));
                    }
                    if (SHOVE_FN(aabb_overlaps)(b, wb)) {
                        return true;
                    }
                }
            }
        }
    }
    return false;
}

#endif
