/*
 * loaded_voxels.c: the voxels of a world read from a dump (load.c), a
 * table sorted by cell that the world owns and its voxel callback reads.
 * It is read before world.c because world_destroy frees it (load_free).
 * Template: see dim.h.
 */
#include <string.h>

#include "world/world.h"

/* One voxel line of the dump (local boxes, as dump.c writes them). */
typedef struct SHOVE_T(loaded_voxel) {
    int32_t cell[SHOVE_DIM];
    int32_t count;
    shove_aabb box[SHOVE_VOXEL_MAX_BOXES];
} SHOVE_T(loaded_voxel);

/* The voxels of a loaded world, sorted by cell (x first). */
struct SHOVE_T(loaded_voxels) {
    size_t count;
    size_t capacity;
    SHOVE_T(loaded_voxel) * cell;
};

/* The table of a loaded world whose dump has no voxel lines. */
static struct SHOVE_T(loaded_voxels) SHOVE_IFN(load_no_voxels);

void SHOVE_IFN(load_free)(shove_world *w) {
    struct SHOVE_T(loaded_voxels) *t = w->loaded;
    if (!t) {
        return;
    }
    SHOVE_IFN(world_realloc)(w, t->cell, t->capacity * sizeof *t->cell, 0);
    SHOVE_IFN(world_realloc)(w, t, sizeof *t, 0);
    w->loaded = NULL;
}

static int SHOVE_IFN(load_cell_cmp)(const void *pa, const void *pb) {
    const SHOVE_T(loaded_voxel) *a = pa, *b = pb;
    for (int k = 0; k < SHOVE_DIM; ++k) {
        if (a->cell[k] != b->cell[k]) {
            return a->cell[k] < b->cell[k] ? -1 : 1;
        }
    }
    return 0;
}

/* The voxel callback of a loaded world: the boxes of the cell's line. */
#if SHOVE_DIM == 2
static int SHOVE_IFN(load_shapes)(void *ctx, int32_t x, int32_t y,
                                  shove_aabb out[SHOVE_VOXEL_MAX_BOXES]) {
    const int32_t c[2] = {x, y};
#else
static int SHOVE_IFN(load_shapes)(void *ctx, int32_t x, int32_t y, int32_t z,
                                  shove_aabb out[SHOVE_VOXEL_MAX_BOXES]) {
    const int32_t c[3] = {x, y, z};
#endif
    const struct SHOVE_T(loaded_voxels) *t = ctx;
    size_t lo = 0, hi = t->count;
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2u;
        int order = 0;
        for (int k = 0; k < SHOVE_DIM && order == 0; ++k) {
            order = t->cell[mid].cell[k] < c[k] ? -1 : (t->cell[mid].cell[k] > c[k] ? 1 : 0);
        }
        if (order == 0) {
            memcpy(out, t->cell[mid].box, (size_t)t->cell[mid].count * sizeof out[0]);
            return t->cell[mid].count;
        }
        if (order < 0) {
            lo = mid + 1u;
        } else {
            hi = mid;
        }
    }
    return 0;
}

static shove_status SHOVE_IFN(load_add_voxel)(shove_world *w, const SHOVE_T(loaded_voxel) * v) {
    struct SHOVE_T(loaded_voxels) *t = w->loaded;
    if (!t) {
        t = SHOVE_IFN(world_realloc)(w, NULL, 0, sizeof *t);
        if (!t) {
            return SHOVE_ERR_OUT_OF_MEMORY;
        }
        memset(t, 0, sizeof *t);
        w->loaded = t;
    }
    if (t->count == t->capacity) {
        const size_t cap = t->capacity ? 2u * t->capacity : 64u;
        if (cap > SIZE_MAX / sizeof *t->cell) {
            return SHOVE_ERR_OUT_OF_MEMORY;
        }
        void *p = SHOVE_IFN(world_realloc)(w, t->cell, t->capacity * sizeof *t->cell,
                                           cap * sizeof *t->cell);
        if (!p) {
            return SHOVE_ERR_OUT_OF_MEMORY;
        }
        t->cell = p;
        t->capacity = cap;
    }
    t->cell[t->count++] = *v;
    return SHOVE_OK;
}
