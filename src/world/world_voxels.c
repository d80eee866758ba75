/*
 * world_voxels.c: the world's voxel source and its origin:
 * shove3_world_set_voxels, shove3_world_get_voxels and
 * shove3_world_shift_origin, which moves every body, the trees and the
 * voxels' origin by one offset (a large world keeps its coordinates near
 * zero). Template: see dim.h; the voxels themselves are obstacles/voxel.c.
 */
#include <string.h>

#include "obstacles/voxel.h"
#include "world/world.h"

/* >>voxels ------------------------------------------------------------------ */

shove_status SHOVE_FN(world_set_voxels)(shove_world *w, const shove_voxel_def *user_def) {
    if (!w) {
        return SHOVE_ERR_INVALID_ARGUMENT;
    }
    if (SHOVE_IFN(world_is_locked)(w)) {
        return SHOVE_ERR_LOCKED;
    }
    shove_voxel_def resolved;
    const shove_voxel_def *def =
        user_def ? SHOVE_IFN(voxel_def_resolve)(user_def, &resolved) : NULL;
    if (!def) {
        return SHOVE_ERR_INVALID_ARGUMENT;
    }
    if (!def->shapes) {
        w->has_voxels = false;
        memset(&w->voxels, 0, sizeof w->voxels);
        return SHOVE_OK;
    }
    if (!SHOVE_IFN(voxel_def_is_valid)(def)) {
        return SHOVE_ERR_INVALID_ARGUMENT;
    }
    w->voxels = *def;
    w->has_voxels = true;
    return SHOVE_OK;
}

shove_status SHOVE_FN(world_get_voxels)(const shove_world *w, shove_voxel_def *out) {
    if (!w || !out) {
        return SHOVE_ERR_INVALID_ARGUMENT;
    }
    *out = w->has_voxels ? w->voxels : SHOVE_FN(default_voxel_def)();
    return SHOVE_OK;
}

/* >>large worlds ------------------------------------------------------------ */

static shove_aabb SHOVE_IFN(world_shifted_box)(shove_aabb b, shove_vec by) {
    for (int a = 0; a < SHOVE_DIM; ++a) {
        b.min.raw[a] -= by.raw[a];
        b.max.raw[a] -= by.raw[a];
    }
    return b;
}

shove_status SHOVE_FN(world_shift_origin)(shove_world *w, shove_vec new_origin) {
    if (!w) {
        return SHOVE_ERR_INVALID_ARGUMENT;
    }
    if (SHOVE_IFN(world_is_locked)(w)) {
        return SHOVE_ERR_LOCKED;
    }
    if (!SHOVE_IFN(vec_is_finite)(new_origin)) {
        return SHOVE_ERR_INVALID_ARGUMENT;
    }
    /* 1. Every new coordinate must be finite. */
    const shove_aabb bounds = SHOVE_IFN(world_shifted_box)(w->bounds, new_origin);
    shove_vec origin = w->voxels.origin;
    for (int a = 0; a < SHOVE_DIM; ++a) {
        origin.raw[a] -= new_origin.raw[a];
    }
    if (!SHOVE_FN(aabb_is_valid)(bounds) || !SHOVE_IFN(vec_is_finite)(origin)) {
        return SHOVE_ERR_INVALID_ARGUMENT;
    }
    for (uint32_t slot = 0; slot < w->slot_count; ++slot) {
        if ((w->flags[slot] & SHOVE_SLOT_ALIVE) &&
            !SHOVE_FN(aabb_is_valid)(SHOVE_IFN(world_shifted_box)(w->box[slot], new_origin))) {
            return SHOVE_ERR_INVALID_ARGUMENT;
        }
    }

    /* 2. New trees beside the old ones, with their own locations, so that
     * running out of memory halfway leaves the world as it was. */
    SHOVE_T(tree) fresh[2];
    const size_t loc_bytes = (size_t)w->slot_capacity * sizeof(shove_tree_loc);
    shove_tree_loc *loc = NULL;
    if (loc_bytes > 0) {
        loc = SHOVE_IFN(world_realloc)(w, NULL, 0, loc_bytes);
        if (!loc) {
            return SHOVE_ERR_OUT_OF_MEMORY;
        }
        memcpy(loc, w->loc, loc_bytes);
    }
    int made = 0;
    shove_status s = SHOVE_OK;
    for (; made < 2 && s == SHOVE_OK; ++made) {
        s = SHOVE_IFN(tree_init)(&fresh[made], bounds, w->alloc);
        if (s != SHOVE_OK) {
            break;
        }
        SHOVE_IFN(tree_set_loc)(&fresh[made], loc);
    }
    for (uint32_t slot = 0; slot < w->slot_count && s == SHOVE_OK; ++slot) {
        if (!(w->flags[slot] & SHOVE_SLOT_ALIVE)) {
            continue;
        }
        const int t =
            (w->flags[slot] & SHOVE_SLOT_DYNAMIC) ? SHOVE_BODY_DYNAMIC : SHOVE_BODY_STATIC;
        s = SHOVE_IFN(tree_insert)(&fresh[t], slot,
                                   SHOVE_IFN(world_shifted_box)(w->box[slot], new_origin));
    }
    if (s != SHOVE_OK) {
        for (int i = 0; i < made; ++i) {
            SHOVE_IFN(tree_destroy)(&fresh[i]);
        }
        SHOVE_IFN(world_realloc)(w, loc, loc_bytes, 0);
        return s;
    }

    /* 3. Commit. */
    SHOVE_IFN(tree_destroy)(&w->trees[0]);
    SHOVE_IFN(tree_destroy)(&w->trees[1]);
    w->trees[0] = fresh[0];
    w->trees[1] = fresh[1];
    if (loc_bytes > 0) {
        memcpy(w->loc, loc, loc_bytes);
        SHOVE_IFN(world_realloc)(w, loc, loc_bytes, 0);
    }
    SHOVE_IFN(tree_set_loc)(&w->trees[0], w->loc);
    SHOVE_IFN(tree_set_loc)(&w->trees[1], w->loc);
    for (uint32_t slot = 0; slot < w->slot_count; ++slot) {
        if (w->flags[slot] & SHOVE_SLOT_ALIVE) {
            w->box[slot] = SHOVE_IFN(world_shifted_box)(w->box[slot], new_origin);
        }
    }
    for (uint32_t i = 0; i < w->drawn_count; ++i) {
        for (int a = 0; a < SHOVE_DIM; ++a) {
            w->drawn[i].point.raw[a] -= new_origin.raw[a];
        }
    }
    w->bounds = bounds;
    w->voxels.origin = origin;
    SHOVE_IFN(world_static_changed)(w);
    SHOVE_IFN(occupancy_off)(w, 0u); /* every box moved */
    return SHOVE_OK;
}
