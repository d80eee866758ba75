/*
 * queries.c: what the world answers without changing: the bodies in a
 * box (shove3_query_box), the bodies a body starts inside
 * (shove3_body_overlaps) and the casts (box, body, ray) through the
 * bodies and the voxels. Template: see dim.h.
 */
#include <math.h>
#include <string.h>

#include "obstacles/voxel.h"
#include "world/world.h"
#include "simd/kernels.h"

#if SHOVE_DIM == 2
#define WORLD_KERNEL_OVERLAP overlap2
#else
#define WORLD_KERNEL_OVERLAP overlap3
#endif

typedef struct SHOVE_T(world_query_ctx) {
    const shove_world *w;
    shove_aabb query;
    const shove_kernel_table *kernels;
    uint64_t mask;
    shove_id *out;
    size_t capacity;
    size_t found;
} SHOVE_T(world_query_ctx);

/* Batch kernel over a bucket, 64 boxes at a time (the index buffer stays on
 * the stack, so queries need no scratch and a const world is enough). */
static bool SHOVE_IFN(world_query_visit)(void *vctx, const shove_soa *boxes,
                                         const uint32_t *handles) {
    SHOVE_T(world_query_ctx) *ctx = vctx;
    uint32_t index[64];
    for (size_t first = 0; first < boxes->count; first += 64u) {
        shove_soa chunk;
        for (int a = 0; a < SHOVE_DIM; ++a) {
            chunk.min[a] = boxes->min[a] + first;
            chunk.max[a] = boxes->max[a] + first;
        }
        chunk.count = (boxes->count - first < 64u) ? boxes->count - first : 64u;
        const size_t n = ctx->kernels->WORLD_KERNEL_OVERLAP(&chunk, ctx->query, index);
        for (size_t i = 0; i < n; ++i) {
            const uint32_t slot = handles[first + index[i]];
            if ((ctx->w->category[slot] & ctx->mask) == 0u) {
                continue;
            }
            if (ctx->found < ctx->capacity) {
                ctx->out[ctx->found] = SHOVE_IFN(world_id)(ctx->w, slot);
            }
            ctx->found += 1u;
        }
    }
    return true;
}

size_t SHOVE_FN(query_box)(const shove_world *w, shove_aabb box, uint64_t mask, shove_id *out,
                           size_t capacity) {
    if (!w || !SHOVE_FN(aabb_is_valid)(box)) {
        return 0;
    }
    SHOVE_T(world_query_ctx) ctx = {w, box, shove__kernels(), mask, out, out ? capacity : 0u, 0u};
    SHOVE_IFN(tree_query)(&w->trees[SHOVE_BODY_STATIC], box, SHOVE_IFN(world_query_visit), &ctx);
    SHOVE_IFN(tree_query)(&w->trees[SHOVE_BODY_DYNAMIC], box, SHOVE_IFN(world_query_visit), &ctx);
    return ctx.found;
}

/* Bodies a body starts inside (body_overlaps). */
typedef struct SHOVE_T(world_overlap_ctx) {
    const shove_world *w;
    uint32_t slot;
    shove_id *out;
    size_t capacity;
    size_t found;
} SHOVE_T(world_overlap_ctx);

static bool SHOVE_IFN(world_overlap_visit)(void *vctx, const shove_soa *boxes,
                                           const uint32_t *handles) {
    SHOVE_T(world_overlap_ctx) *ctx = vctx;
    const shove_world *w = ctx->w;
    for (size_t i = 0; i < boxes->count; ++i) {
        const uint32_t other = handles[i];
        /* What a move of the body would start inside: solid bodies it
         * interacts with, whose boxes overlap its own strictly. */
        if (other == ctx->slot || (w->flags[other] & SHOVE_SLOT_SENSOR) ||
            !SHOVE_IFN(world_interacts)(w, ctx->slot, other) ||
            !SHOVE_IFN(overlaps_unchecked)(w->box[ctx->slot], w->box[other])) {
            continue;
        }
        if (ctx->found < ctx->capacity) {
            ctx->out[ctx->found] = SHOVE_IFN(world_id)(w, other);
        }
        ctx->found += 1u;
    }
    return true;
}

size_t SHOVE_FN(body_overlaps)(const shove_world *w, shove_id id, shove_id *out, size_t capacity) {
    if (!w) {
        return 0;
    }
    const uint32_t slot = SHOVE_IFN(world_slot)(w, id);
    if (slot == SHOVE_TREE_NONE || (w->flags[slot] & SHOVE_SLOT_SENSOR)) {
        return 0;
    }
    SHOVE_T(world_overlap_ctx) ctx = {w, slot, out, out ? capacity : 0u, 0u};
    const shove_aabb box = w->box[slot];
    SHOVE_IFN(tree_query)(&w->trees[SHOVE_BODY_STATIC], box, SHOVE_IFN(world_overlap_visit), &ctx);
    SHOVE_IFN(tree_query)(&w->trees[SHOVE_BODY_DYNAMIC], box, SHOVE_IFN(world_overlap_visit), &ctx);
    return ctx.found;
}

typedef struct SHOVE_T(world_cast_ctx) {
    const shove_world *w;
    uint64_t mask;
    uint32_t skip; /* the casting body's slot, or SHOVE_TREE_NONE */
} SHOVE_T(world_cast_ctx);

static bool SHOVE_IFN(world_cast_accept)(void *vctx, uint32_t slot) {
    const SHOVE_T(world_cast_ctx) *ctx = vctx;
    return slot != ctx->skip && (ctx->w->category[slot] & ctx->mask) != 0u;
}

/* Seam pass of a cast (geometry.h, seam_set): every accepted body that
 * touches the swept box goes to the seam set. */
typedef struct SHOVE_T(world_seam_ctx) {
    const shove_world *w;
    uint64_t mask;
    uint32_t skip;
    shove_aabb query;
    float before;
    SHOVE_T(seam_set) * seams;
} SHOVE_T(world_seam_ctx);

static bool SHOVE_IFN(world_seam_visit)(void *vctx, const shove_soa *boxes,
                                        const uint32_t *handles) {
    SHOVE_T(world_seam_ctx) *ctx = vctx;
    for (size_t i = 0; i < boxes->count; ++i) {
        const uint32_t slot = handles[i];
        shove_aabb b;
        for (int a = 0; a < SHOVE_DIM; ++a) {
            b.min.raw[a] = boxes->min[a][i];
            b.max.raw[a] = boxes->max[a][i];
        }
        if (slot != ctx->skip && (ctx->w->category[slot] & ctx->mask) != 0u &&
            SHOVE_IFN(overlaps_unchecked)(ctx->query, b)) {
            SHOVE_IFN(seam_add)(ctx->seams, b, slot + 1u, ctx->before);
        }
    }
    return true;
}

/* cast_box without the body in slot `skip` (SHOVE_TREE_NONE: none), on
 * valid input; runs voxel callbacks when the world has voxels, so callers
 * lock the world for reading around it then. */
static bool SHOVE_IFN(world_cast)(const shove_world *w, shove_aabb box, shove_vec delta,
                                  uint64_t mask, uint32_t skip, shove_hit *hit) {
    SHOVE_T(world_cast_ctx) ctx = {w, mask, skip};
    SHOVE_T(tree_cast_result) best;
    memset(&best, 0, sizeof best);
    SHOVE_IFN(tree_cast)
    (&w->trees[SHOVE_BODY_STATIC], box, delta, SHOVE_IFN(world_cast_accept), &ctx, &best);
    SHOVE_IFN(tree_cast)
    (&w->trees[SHOVE_BODY_DYNAMIC], box, delta, SHOVE_IFN(world_cast_accept), &ctx, &best);
    /* A cast flat on an axis it does not move along may run along a shared
     * face: the bodies touching its path go to the seam set as well. */
    SHOVE_T(seam_set) seams;
    const bool seam = SHOVE_IFN(seam_begin)(&seams, box, delta);
    if (seam) {
        shove_aabb q = SHOVE_IFN(swept_bounds)(box, delta);
        for (int a = 0; a < SHOVE_DIM; ++a) { /* touching boxes overlap it */
            q.min.raw[a] = shove__next_down(q.min.raw[a]);
            q.max.raw[a] = shove__next_up(q.max.raw[a]);
        }
        SHOVE_T(world_seam_ctx)
        sctx = {w, mask, skip, q, best.found ? best.t : INFINITY, &seams};
        SHOVE_IFN(tree_query)(&w->trees[SHOVE_BODY_STATIC], q, SHOVE_IFN(world_seam_visit), &sctx);
        SHOVE_IFN(tree_query)(&w->trees[SHOVE_BODY_DYNAMIC], q, SHOVE_IFN(world_seam_visit), &sctx);
    }
    shove_hit result;
    bool found = false;
    if (best.found) {
        result = best.hit;
        result.other = SHOVE_IFN(world_id)(w, best.handle);
        found = true;
    }
    shove_hit voxel_hit;
    if (w->has_voxels) {
        /* A walk past its budget or float precision, or that read a lying
         * callback, does not know the answer: false, nothing written. */
        shove__voxel_budget budget = SHOVE_IFN(voxel_budget)(&w->voxels);
        const bool met = SHOVE_IFN(voxel_cast)(&w->voxels, box, delta, best.found ? &best.t : NULL,
                                               &voxel_hit, seam ? &seams : NULL, &budget);
        if (budget.status != SHOVE_OK) {
            return false;
        }
        if (met) {
            result = voxel_hit;
            found = true;
        }
    }
    if (seam && seams.found && (!found || seams.t < result.t)) {
        SHOVE_IFN(hit_from_detail)(&seams.detail, &result);
        result.other = seams.tag ? SHOVE_IFN(world_id)(w, seams.tag - 1u) : SHOVE_NULL_ID;
        found = true;
    }
    if (found && hit) {
        *hit = result;
    }
    return found;
}

/* world_cast, with the world locked for reading while voxel callbacks may
 * run (casts without voxels run no game code). */
static bool SHOVE_IFN(world_cast_locked)(const shove_world *w, shove_aabb box, shove_vec delta,
                                         uint64_t mask, uint32_t skip, shove_hit *hit) {
    if (!w->has_voxels) {
        return SHOVE_IFN(world_cast)(w, box, delta, mask, skip, hit);
    }
    SHOVE_IFN(world_lock_for_read)(w);
    const bool found = SHOVE_IFN(world_cast)(w, box, delta, mask, skip, hit);
    SHOVE_IFN(world_unlock_after_read)(w);
    return found;
}

bool SHOVE_FN(cast_box)(const shove_world *w, shove_aabb box, shove_vec delta, uint64_t mask,
                        shove_hit *hit) {
    if (!w || !SHOVE_FN(aabb_is_valid)(box) || !SHOVE_IFN(vec_is_finite)(delta)) {
        return false;
    }
    return SHOVE_IFN(world_cast_locked)(w, box, delta, mask, SHOVE_TREE_NONE, hit);
}

bool SHOVE_FN(cast_body)(const shove_world *w, shove_id id, shove_vec delta, shove_hit *hit) {
    if (!w || !SHOVE_IFN(vec_is_finite)(delta)) {
        return false;
    }
    const uint32_t slot = SHOVE_IFN(world_slot)(w, id);
    if (slot == SHOVE_TREE_NONE) {
        return false;
    }
    return SHOVE_IFN(world_cast_locked)(w, w->box[slot], delta, w->mask[slot], slot, hit);
}

bool SHOVE_FN(cast_ray)(const shove_world *w, shove_vec origin, shove_vec delta, uint64_t mask,
                        shove_hit *hit) {
    const shove_aabb point = {origin, origin};
    return SHOVE_FN(cast_box)(w, point, delta, mask, hit);
}

#undef WORLD_KERNEL_OVERLAP
