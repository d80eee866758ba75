/*
 * obstacle_set.c: growing and freeing obstacle sets. Template: see dim.h and
 * obstacles.h.
 */
#include <stdlib.h>
#include <string.h>

#include "obstacles/obstacles.h"

static void *SHOVE_IFN(obstacles_realloc)(const shove_allocator *a, void *ptr, size_t old_size,
                                          size_t new_size) {
    if (a->realloc) {
        return a->realloc(a->ctx, ptr, old_size, new_size);
    }
    if (new_size == 0) {
        free(ptr);
        return NULL;
    }
    return realloc(ptr, new_size);
}

/* Bytes one obstacle takes across every array, in the order of the block. */
#define OBSTACLE_BYTES                                                                             \
    (2 * SHOVE_DIM * sizeof(float) + sizeof(shove_id) + (1 + SHOVE_DIM) * sizeof(int32_t) +        \
     sizeof(uint8_t))

/* One block holds every array: the id array first (8-byte aligned), then the
 * floats, indices and cells (4-byte), then the flags. */
static void SHOVE_IFN(obstacles_point_into)(SHOVE_IFN(obstacle_set) * set, unsigned char *block,
                                            size_t capacity) {
    set->id = (shove_id *)(void *)block;
    float *f = (float *)(void *)(block + capacity * sizeof(shove_id));
    for (int a = 0; a < SHOVE_DIM; ++a) {
        set->min[a] = f + (size_t)(2 * a) * capacity;
        set->max[a] = f + (size_t)(2 * a + 1) * capacity;
    }
    set->index = (int32_t *)(void *)(f + (size_t)(2 * SHOVE_DIM) * capacity);
    set->cell = set->index + capacity;
    set->flags = (uint8_t *)(set->cell + (size_t)SHOVE_DIM * capacity);
}

void SHOVE_IFN(obstacles_init)(SHOVE_IFN(obstacle_set) * set, const shove_allocator *allocator) {
    memset(set, 0, sizeof *set);
    if (allocator) {
        set->allocator = *allocator;
    }
}

void SHOVE_IFN(obstacles_init_fixed)(SHOVE_IFN(obstacle_set) * set,
                                     SHOVE_IFN(obstacle_storage) * storage) {
    memset(set, 0, sizeof *set);
    for (int a = 0; a < SHOVE_DIM; ++a) {
        set->min[a] = storage->min[a];
        set->max[a] = storage->max[a];
    }
    set->id = storage->id;
    set->index = storage->index;
    set->cell = storage->cell;
    set->flags = storage->flags;
    set->capacity = SHOVE_OBSTACLE_CHUNK;
    set->fixed = true;
}

void SHOVE_IFN(obstacles_free)(SHOVE_IFN(obstacle_set) * set) {
    if (!set->fixed && set->capacity > 0) {
        SHOVE_IFN(obstacles_realloc)(&set->allocator, set->id, set->capacity * OBSTACLE_BYTES, 0);
    }
    const shove_allocator allocator = set->allocator;
    memset(set, 0, sizeof *set);
    set->allocator = allocator;
}

bool SHOVE_IFN(obstacles_reserve)(SHOVE_IFN(obstacle_set) * set, size_t capacity) {
    if (capacity <= set->capacity) {
        return true;
    }
    if (set->fixed || capacity > SIZE_MAX / OBSTACLE_BYTES || capacity > INT32_MAX) {
        return false;
    }
    unsigned char *block =
        SHOVE_IFN(obstacles_realloc)(&set->allocator, NULL, 0, capacity * OBSTACLE_BYTES);
    if (!block) {
        return false;
    }
    SHOVE_IFN(obstacle_set) grown = *set;
    SHOVE_IFN(obstacles_point_into)(&grown, block, capacity);
    const size_t n = set->count;
    if (n > 0) {
        memcpy(grown.id, set->id, n * sizeof(shove_id));
        for (int a = 0; a < SHOVE_DIM; ++a) {
            memcpy(grown.min[a], set->min[a], n * sizeof(float));
            memcpy(grown.max[a], set->max[a], n * sizeof(float));
        }
        memcpy(grown.index, set->index, n * sizeof(int32_t));
        memcpy(grown.cell, set->cell, (size_t)SHOVE_DIM * n * sizeof(int32_t));
        memcpy(grown.flags, set->flags, n * sizeof(uint8_t));
    }
    if (set->capacity > 0) {
        SHOVE_IFN(obstacles_realloc)(&set->allocator, set->id, set->capacity * OBSTACLE_BYTES, 0);
    }
    grown.capacity = capacity;
    *set = grown;
    return true;
}

#undef OBSTACLE_BYTES
