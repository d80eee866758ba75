/*
 * move.c: shove3_move, collide-and-slide of one body through its world.
 * Template: see dim.h.
 *
 * A world move is the slide core (obstacles.h) fed by the broad phase: the
 * gather below asks both trees for the bodies near the swept box and appends
 * those that interact with the mover into the world's scratch obstacle set
 * (kept between moves, so the steady state allocates nothing). Static
 * bodies mostly come from the mover's static_near list instead of a walk of
 * the static tree (see move_query_static). The core
 * then runs exactly as it does for shove3_slide over a list, and since its
 * result does not depend on the order of the obstacles, a world move ends
 * where shove3_slide over the same boxes ends, bit for bit. The box is
 * written back to the body and its tree, and the mover's pairs are brought
 * up to date (events, see world.c).
 */
#include <math.h>
#include <string.h>

#include "obstacles/voxel.h"
#include "world/world.h"
#include "simd/kernels.h"

#if SHOVE_DIM == 2
#define MOVE_KERNEL_OVERLAP overlap2
#else
#define MOVE_KERNEL_OVERLAP overlap3
#endif

/* The query box of a gather: the swept box grown by `margin`, then by one
 * float step on every side, so that the batch kernels' strict overlap with
 * it catches every box that merely touches the grown box. Each bound is
 * next_up(next_up(max) + margin) and next_down(next_down(min) - margin). */
static shove_aabb SHOVE_IFN(move_region)(shove_aabb box, shove_vec delta, float margin) {
    return SHOVE_IFN(swept_region)(box, delta, margin, true);
}

#define MOVE_VISIT SHOVE_T(move_visit_ctx)

/* A tree walk of a move: gather obstacles (out != NULL) or collect the
 * slots of nearby bodies into w->near (out == NULL). */
typedef struct SHOVE_T(move_visit_ctx) {
    shove_world *w;
    uint32_t mover;
    bool mover_is_sensor;
    shove_aabb query;
    size_t (*overlap)(const shove_soa *boxes, shove_aabb query, uint32_t *out_indices);
    SHOVE_IFN(obstacle_set) * out; /* gather: push obstacles here */
    uint32_t near_count;           /* collect: slots go to w->near */
    /* Filling a static_near list: the walk asks for its wider region and
     * records every body there; only those overlapping `query` are taken. */
    SHOVE_T(static_near) * fill;
    bool read_only; /* change nothing in the world (see world_gather_ctx) */
    bool ok;
} SHOVE_T(move_visit_ctx);

static MOVE_VISIT SHOVE_IFN(move_visit_start)(shove_world *w, uint32_t mover, shove_aabb query,
                                              SHOVE_IFN(obstacle_set) * out) {
    MOVE_VISIT ctx;
    ctx.w = w;
    ctx.mover = mover;
    ctx.mover_is_sensor = (w->flags[mover] & SHOVE_SLOT_SENSOR) != 0;
    ctx.query = query;
    ctx.overlap = shove__kernels()->MOVE_KERNEL_OVERLAP;
    ctx.out = out;
    ctx.near_count = 0;
    ctx.fill = NULL;
    ctx.read_only = false;
    ctx.ok = true;
    return ctx;
}

/* A body the query found, with its box: skip the mover and the bodies it
 * does not interact with; collect or push the others. False when out of
 * memory. */
static bool SHOVE_IFN(move_take)(MOVE_VISIT *ctx, uint32_t slot, shove_aabb box) {
    shove_world *w = ctx->w;
    if (slot == ctx->mover || !SHOVE_IFN(world_interacts)(w, ctx->mover, slot)) {
        return true;
    }
    if (!ctx->out) {
        if (!SHOVE_IFN(world_grow)(w, (void **)&w->near, &w->near_capacity, ctx->near_count + 1u,
                                   sizeof *w->near)) {
            return ctx->ok = false;
        }
        w->near[ctx->near_count++] = slot;
        return true;
    }
    const uint8_t flags = (ctx->mover_is_sensor || (w->flags[slot] & SHOVE_SLOT_SENSOR))
                              ? (uint8_t)SHOVE_OBSTACLE_SENSOR
                              : 0u;
    if (!SHOVE_IFN(obstacles_push)(ctx->out, box, SHOVE_IFN(world_id)(w, slot), -1, flags)) {
        return ctx->ok = false;
    }
    return true;
}

/* The boxes of a bucket that overlap the query, 64 at a time (the index
 * buffer stays on the stack); a bucket is rarely bigger. */
static bool SHOVE_IFN(move_visit)(void *vctx, const shove_soa *boxes, const uint32_t *handles) {
    MOVE_VISIT *ctx = vctx;
    SHOVE_T(static_near) *fill = ctx->fill;
    const shove_aabb scan_query = fill ? fill->region : ctx->query;
    uint32_t index[64];
    for (size_t first = 0; first < boxes->count; first += 64u) {
        const shove_soa *scan = boxes;
        shove_soa chunk;
        if (boxes->count > 64u) {
            for (int a = 0; a < SHOVE_DIM; ++a) {
                chunk.min[a] = boxes->min[a] + first;
                chunk.max[a] = boxes->max[a] + first;
            }
            chunk.count = (boxes->count - first < 64u) ? boxes->count - first : 64u;
            scan = &chunk;
        }
        const size_t n = ctx->overlap(scan, scan_query, index);
        for (size_t i = 0; i < n; ++i) {
            const size_t at = first + index[i];
            const uint32_t slot = handles[at];
            shove_aabb box;
            for (int a = 0; a < SHOVE_DIM; ++a) {
                box.min.raw[a] = boxes->min[a][at];
                box.max.raw[a] = boxes->max[a][at];
            }
            if (fill) {
                if (fill->count < SHOVE_STATIC_NEAR_SLOTS) {
                    fill->slot[fill->count] = slot;
                }
                fill->count += fill->count < UINT32_MAX ? 1u : 0u;
                if (!SHOVE_IFN(overlaps_unchecked)(box, ctx->query)) {
                    continue;
                }
            }
            if (!SHOVE_IFN(move_take)(ctx, slot, box)) {
                return false;
            }
        }
    }
    return true;
}

/* A static_near region reaches this fraction of the query's largest side
 * past the query on every side: a walking mover keeps using one list for
 * several moves, and the wider walk that fills it costs little more. */
#define MOVE_STATIC_NEAR_GROW 0.375f

/* The static bodies of a gather, through the mover's static_near list.
 *
 * The list holds every static body overlapping its region, in the order the
 * static tree's walk meets them. That order is a fixed order of the tree's
 * nodes (depth first, highest child first) and of the entries in each
 * bucket, whatever the query; so the bodies a walk with a smaller query
 * finds come in the same order as on the list, and the set a gather builds
 * from the list is exactly the set the walk would build.
 *
 * Static bodies change rarely; when one changes, every list is stale (the
 * stamp). Lists are filled only once the static tree has been calm for as
 * many gathers as there are dynamic bodies, so a world that moves a static
 * body every frame does not pay for wider walks it never reuses. */
static void SHOVE_IFN(move_query_static)(shove_world *w, MOVE_VISIT *ctx) {
    const SHOVE_T(tree) *tree = &w->trees[SHOVE_BODY_STATIC];
    SHOVE_T(static_near) *near = &w->static_near[ctx->mover];
    const shove_aabb q = ctx->query;
    if (near->stamp == w->static_stamp && SHOVE_IFN(contains_unchecked)(near->region, q)) {
        if (near->count > SHOVE_STATIC_NEAR_SLOTS) {
            SHOVE_IFN(tree_query)(tree, q, SHOVE_IFN(move_visit), ctx); /* a crowded place */
            return;
        }
        for (uint32_t i = 0; i < near->count; ++i) {
            const uint32_t slot = near->slot[i];
            const shove_aabb box = w->box[slot];
            if (SHOVE_IFN(overlaps_unchecked)(box, q) && !SHOVE_IFN(move_take)(ctx, slot, box)) {
                return;
            }
        }
        return;
    }
    if (ctx->read_only || w->static_calm < w->body_count - w->static_count) {
        SHOVE_IFN(tree_query)(tree, q, SHOVE_IFN(move_visit), ctx);
        return;
    }
    float grow = 0.0f;
    for (int a = 0; a < SHOVE_DIM; ++a) {
        const float side = q.max.raw[a] - q.min.raw[a];
        grow = side > grow ? side : grow;
    }
    grow *= MOVE_STATIC_NEAR_GROW;
    for (int a = 0; a < SHOVE_DIM; ++a) {
        near->region.min.raw[a] = q.min.raw[a] - grow;
        near->region.max.raw[a] = q.max.raw[a] + grow;
    }
    near->count = 0;
    near->stamp = 0;
    ctx->fill = near;
    SHOVE_IFN(tree_query)(tree, near->region, SHOVE_IFN(move_visit), ctx);
    ctx->fill = NULL;
    if (ctx->ok) {
        near->stamp = w->static_stamp;
    }
}

/* Both trees, static first (through the mover's list), while the visitor
 * has memory. */
static inline void SHOVE_IFN(move_query)(shove_world *w, MOVE_VISIT *ctx) {
    SHOVE_IFN(move_query_static)(w, ctx);
    if (ctx->ok) {
        SHOVE_IFN(tree_query)
        (&w->trees[SHOVE_BODY_DYNAMIC], ctx->query, SHOVE_IFN(move_visit), ctx);
    }
}

bool SHOVE_IFN(world_gather)(void *vctx, shove_aabb box, shove_vec delta, float margin,
                             SHOVE_IFN(obstacle_set) * out) {
    SHOVE_T(world_gather_ctx) *g = vctx;
    const float m = (margin > g->min_margin) ? margin : g->min_margin;
    const shove_aabb query = SHOVE_IFN(move_region)(box, delta, m);
    shove_world *w = g->w;
    MOVE_VISIT ctx = SHOVE_IFN(move_visit_start)(w, g->mover, query, out);
    g->region = query;
    ctx.read_only = g->read_only;
    if (!g->read_only) {
        w->static_calm += w->static_calm < UINT32_MAX ? 1u : 0u;
    }
    SHOVE_IFN(move_query)(w, &ctx);
    if (ctx.ok && w->has_voxels) {
        /* Voxels are static solids for every mover; a sensor passes through. */
        const uint8_t flags = ctx.mover_is_sensor ? (uint8_t)SHOVE_OBSTACLE_SENSOR : 0u;
        ctx.ok = SHOVE_IFN(voxel_gather)(&w->voxels, box, delta, m, flags, !g->cells, g->tube,
                                         &g->budget, out);
    }
    return ctx.ok;
}

bool SHOVE_IFN(world_collect_near)(shove_world *w, uint32_t slot, shove_aabb box, float distance,
                                   uint32_t *near_count) {
    const shove_aabb query = SHOVE_IFN(move_region)(box, shove_vec_splat(0.0f), distance);
    MOVE_VISIT ctx = SHOVE_IFN(move_visit_start)(w, slot, query, NULL);
    SHOVE_IFN(move_query)(w, &ctx);
    *near_count = ctx.ok ? ctx.near_count : 0u;
    return ctx.ok;
}

/* Contacts a move reports before its first run needs more room. */
#define MOVE_FIRST_CONTACTS 32u

/* shove_move, run while the world is locked against its callbacks. */
static shove_status SHOVE_IFN(move_locked)(shove_world *w, shove_id id, shove_vec delta,
                                           const shove_move_def *user_def, shove_move_result *out) {
    shove_move_def resolved;
    const shove_move_def *def = SHOVE_IFN(move_def_resolve)(user_def, &resolved);
    if (!def || !out || !SHOVE_IFN(vec_is_finite)(delta) || !SHOVE_IFN(move_def_is_valid)(def)) {
        return SHOVE_ERR_INVALID_ARGUMENT;
    }
    const uint32_t slot = SHOVE_IFN(world_slot)(w, id);
    if (slot == SHOVE_TREE_NONE) {
        return SHOVE_ERR_STALE_ID;
    }
    /* The rest of shove_slide's check (a body's box is always valid): the
     * end box (and a step-up's reach) must stay within float range. */
    if (!SHOVE_IFN(move_reach_is_valid)(w->box[slot], delta, def)) {
        return SHOVE_ERR_INVALID_ARGUMENT;
    }
    /* Contacts are judged at the end box; the gather covers the distance
     * around the start box and the path, and step 2 checks the end. */
    const float start_distance = SHOVE_IFN(world_contact_distance)(def->skin, w->box[slot]);

    /* 1. Run the slide core on what the trees gather. The world's own
     * contact array collects every contact (events need them all); the
     * caller's array gets its share afterwards. */
    if (!SHOVE_IFN(world_grow)(w, (void **)&w->crossed, &w->crossed_capacity, MOVE_FIRST_CONTACTS,
                               sizeof *w->crossed)) {
        return SHOVE_ERR_OUT_OF_MEMORY;
    }
    SHOVE_T(world_gather_ctx) gather;
    memset(&gather, 0, sizeof gather);
    gather.w = w;
    gather.mover = slot;
    gather.min_margin = start_distance;
    gather.region = w->box[slot];
    gather.cells = def->filter != NULL;
    const SHOVE_IFN(obstacle_source) source = {SHOVE_IFN(world_gather), &gather, id};
    shove_move_def run = *def;
    shove_move_result result;
    shove_status s;
    for (;;) {
        run.contacts = w->crossed;
        run.contact_capacity = (int)w->crossed_capacity;
        if (w->has_voxels) { /* long moves over voxels: see voxel.c */
            bool whole;
            s = SHOVE_IFN(voxel_move)(&gather, w->box[slot], delta, &run, &source, &w->obstacles,
                                      &whole, &result);
        } else {
            s = SHOVE_IFN(slide_core)(w->box[slot], delta, &run, &source, &w->obstacles, &result);
        }
        if (s != SHOVE_OK) {
            return s;
        }
        if ((uint32_t)result.contact_count <= w->crossed_capacity) {
            break;
        }
        /* More contacts than ever before: make room and run again (same
         * inputs, same answer). */
        if (!SHOVE_IFN(world_grow)(w, (void **)&w->crossed, &w->crossed_capacity,
                                   (uint32_t)result.contact_count, sizeof *w->crossed)) {
            return SHOVE_ERR_OUT_OF_MEMORY;
        }
    }
    const uint32_t contact_count = (uint32_t)result.contact_count;

    /* 2. The bodies near the end box: the gathered set covers them unless
     * the mover was pushed out of something beyond the region asked. */
    const float distance = SHOVE_IFN(world_contact_distance)(def->skin, result.box);
    /* Covered: the end box grown by the distance, then by one float step
     * on every side, lies in the region (a strict < is that float step). */
    bool covered = true;
    for (int a = 0; a < SHOVE_DIM; ++a) {
        covered = covered && gather.region.min.raw[a] < result.box.min.raw[a] - distance &&
                  result.box.max.raw[a] + distance < gather.region.max.raw[a];
    }
    uint32_t near_count = 0;
    if (covered) {
        const SHOVE_IFN(obstacle_set) *set = &w->obstacles;
        if (set->count > UINT32_MAX / 4u ||
            !SHOVE_IFN(world_grow)(w, (void **)&w->near, &w->near_capacity, (uint32_t)set->count,
                                   sizeof *w->near)) {
            return SHOVE_ERR_OUT_OF_MEMORY;
        }
        for (size_t i = 0; i < set->count; ++i) {
            if (set->id[i].generation != 0u) { /* voxels have the null id */
                w->near[near_count++] = set->id[i].index;
            }
        }
    } else if (!SHOVE_IFN(world_collect_near)(w, slot, result.box, distance, &near_count)) {
        return SHOVE_ERR_OUT_OF_MEMORY;
    }

    /* 3. Everything that can fail, before anything changes. */
    if (!SHOVE_IFN(world_pairs_reserve)(w, slot, near_count, contact_count)) {
        return SHOVE_ERR_OUT_OF_MEMORY;
    }
    s = SHOVE_IFN(world_set_body_box)(w, slot, result.box);
    if (s != SHOVE_OK) {
        return s;
    }

    /* 4. Commit: the body's result (before any callback runs), events,
     * contacts to draw, the caller's contacts. */
    SHOVE_IFN(world_note_result)(w, slot, &result);
    SHOVE_IFN(world_events_begin)(w);
    SHOVE_IFN(world_update_pairs)(w, slot, def, w->near, near_count, w->crossed, contact_count);
    for (uint32_t i = 0; i < contact_count; ++i) {
        SHOVE_IFN(world_add_drawn_contact)
        (w, result.box, w->crossed[i].other, w->crossed[i].normal);
    }
    if (def->contacts && def->contact_capacity > 0) {
        const uint32_t n = (contact_count < (uint32_t)def->contact_capacity)
                               ? contact_count
                               : (uint32_t)def->contact_capacity;
        memcpy(def->contacts, w->crossed, n * sizeof *def->contacts);
    }
    *out = result;
    return SHOVE_OK;
}

shove_status SHOVE_FN(move)(shove_world *w, shove_id id, shove_vec delta, const shove_move_def *def,
                            shove_move_result *out) {
    if (!w) {
        return SHOVE_ERR_INVALID_ARGUMENT;
    }
    if (SHOVE_IFN(world_is_locked)(w)) {
        return SHOVE_ERR_LOCKED;
    }
    SHOVE_IFN(world_lock_for_change)(w);
    const shove_status s = SHOVE_IFN(move_locked)(w, id, delta, def, out);
    SHOVE_IFN(world_unlock_after_change)(w);
    return s;
}

#undef MOVE_KERNEL_OVERLAP
#undef MOVE_VISIT
#undef MOVE_STATIC_NEAR_GROW
#undef MOVE_FIRST_CONTACTS
