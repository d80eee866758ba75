/*
 * move_gather.c: the gather of world moves (world_gather): the bodies near
 * a move's swept box, from both trees, and the voxels there, appended into
 * an obstacle set for the slide core; the mover's static_near list, which
 * spares most moves a walk of the static tree; and world_collect_near, the
 * bodies near a box for pair updates. Template: see dim.h; the world move
 * it serves is described in move.h.
 *
 * The set a gather builds (kept between moves in w->obstacles, so the
 * steady state allocates nothing) holds the bodies that interact with the
 * mover. Where the slide core ends (box, delta, flags, contact count) does
 * not depend on the order of the obstacles, so a world move ends where
 * shove3_slide over the same boxes ends, bit for bit. The order of the
 * contacts a move reports does: contacts met at the same t come in the
 * order of the set. So the trees' walks give every set a fixed order (see
 * move_query_static), and a broad phase put in their place would have to
 * keep it, or the contacts be ordered otherwise, to keep results.
 */
#include <math.h>
#include <string.h>

#include "obstacles/voxel.h"
#include "simd/kernels.h"
#include "solve/slide_limits.h"
#include "world/move.h"
#include "world/world.h"

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
    shove_vec motion; /* |the gather's motion| per axis (0: none) */
} SHOVE_T(move_visit_ctx);

/* Fills *ctx in place: returned by value, the whole context was built on
 * the callee's stack and then copied, on every move. */
static void SHOVE_IFN(move_visit_start)(MOVE_VISIT *ctx, shove_world *w, uint32_t mover,
                                        shove_aabb query, SHOVE_IFN(obstacle_set) * out) {
    ctx->w = w;
    ctx->mover = mover;
    ctx->mover_is_sensor = (w->flags[mover] & SHOVE_SLOT_SENSOR) != 0;
    ctx->query = query;
    ctx->overlap = shove__kernels()->MOVE_KERNEL_OVERLAP;
    ctx->out = out;
    ctx->near_count = 0;
    ctx->fill = NULL;
    ctx->read_only = false;
    ctx->ok = true;
    ctx->motion = shove_vec_splat(0.0f);
}

/* A body the query found, with its box: skip the mover and the bodies it
 * does not interact with; collect or push the others. False when out of
 * memory. */
static SHOVE_HOT_INLINE bool SHOVE_IFN(move_take)(MOVE_VISIT *ctx, uint32_t slot, shove_aabb box) {
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
            SHOVE_AXES_UNROLLED
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
            SHOVE_AXES_UNROLLED
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
 * past the query on every side, and on each axis as many times the
 * gather's motion along it: a walking mover keeps using one list for several
 * moves, and the wider walk that fills it costs little more. (Without the
 * motion, a small box moving a third of its size a frame, bump.lua's
 * typical mover, filled its list again every other move.) */
#define MOVE_STATIC_NEAR_GROW  0.375f
#define MOVE_STATIC_NEAR_MOVES 2.0f

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
static SLIDE_NOINLINE void SHOVE_IFN(move_query_static)(shove_world *w, MOVE_VISIT *ctx) {
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
    SHOVE_AXES_UNROLLED
    for (int a = 0; a < SHOVE_DIM; ++a) {
        const float side = q.max.raw[a] - q.min.raw[a];
        grow = side > grow ? side : grow;
    }
    grow *= MOVE_STATIC_NEAR_GROW;
    SHOVE_AXES_UNROLLED
    for (int a = 0; a < SHOVE_DIM; ++a) {
        const float reach = grow + MOVE_STATIC_NEAR_MOVES * ctx->motion.raw[a];
        near->region.min.raw[a] = q.min.raw[a] - reach;
        near->region.max.raw[a] = q.max.raw[a] + reach;
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
 * has memory; a tree none of whose bodies the mover interacts with (its
 * mask meets none of their categories, or theirs none of its) is skipped:
 * it would give nothing. So is the dynamic tree when the occupancy counts
 * (occupancy.c) hold no body but the mover over the query's cells. */
static inline void SHOVE_IFN(move_query)(shove_world *w, MOVE_VISIT *ctx) {
    if (SHOVE_IFN(world_tree_may_interact)(w, SHOVE_BODY_STATIC, ctx->mover)) {
        SHOVE_IFN(move_query_static)(w, ctx);
    }
    if (ctx->ok && SHOVE_IFN(world_tree_may_interact)(w, SHOVE_BODY_DYNAMIC, ctx->mover)) {
        if (!SHOVE_IFN(occupancy_spares)(w, ctx->mover, ctx->query, !ctx->read_only)) {
            SHOVE_IFN(tree_query)
            (&w->trees[SHOVE_BODY_DYNAMIC], ctx->query, SHOVE_IFN(move_visit), ctx);
        }
    }
}

bool SHOVE_IFN(world_gather)(void *vctx, shove_aabb box, shove_vec delta, float margin,
                             SHOVE_IFN(obstacle_set) * out) {
    SHOVE_T(world_gather_ctx) *g = vctx;
    const float m = (margin > g->min_margin) ? margin : g->min_margin;
    shove_aabb query = SHOVE_IFN(move_region)(box, delta, m);
    if ((g->exact_low | g->exact_high) != 0u) {
        SHOVE_AXES_UNROLLED
        for (int a = 0; a < SHOVE_DIM; ++a) {
            if (delta.raw[a] == 0.0f) {
                query.min.raw[a] = (g->exact_low & (1u << a)) ? box.min.raw[a] : query.min.raw[a];
                query.max.raw[a] = (g->exact_high & (1u << a)) ? box.max.raw[a] : query.max.raw[a];
            }
        }
    }
    shove_world *w = g->w;
    MOVE_VISIT ctx;
    SHOVE_IFN(move_visit_start)(&ctx, w, g->mover, query, out);
    SHOVE_AXES_UNROLLED
    for (int a = 0; a < SHOVE_DIM; ++a) {
        ctx.motion.raw[a] = fabsf(delta.raw[a]);
    }
    g->region = query;
    ctx.read_only = g->read_only;
    if (!g->read_only) {
        w->static_calm += w->static_calm < UINT32_MAX ? 1u : 0u;
    }
    SHOVE_IFN(move_query)(w, &ctx);
    if (ctx.ok && w->has_voxels) {
        /* Voxels are static solids for every mover; a sensor passes through. */
        const uint8_t flags = ctx.mover_is_sensor ? (uint8_t)SHOVE_OBSTACLE_SENSOR : 0u;
        ctx.ok = SHOVE_IFN(voxel_gather)(&w->voxels, box, delta, m, flags, !g->cells, g->line_x,
                                         g->tube, &g->budget, out);
    }
    return ctx.ok;
}

void SHOVE_IFN(world_gather_step_tried)(void *ctx, bool again) {
    SHOVE_T(world_gather_ctx) *g = ctx;
    g->step_tried = true;
    if (again && g->w->has_voxels) {
        g->budget = SHOVE_IFN(voxel_budget)(&g->w->voxels);
    }
}

float SHOVE_IFN(move_line_x)(shove_aabb box) {
    return box.min.raw[0] == box.max.raw[0] ? box.min.raw[0] : NAN;
}

void SHOVE_IFN(move_gather_start)(SHOVE_T(world_gather_ctx) * gather, shove_world *w, uint32_t slot,
                                  shove_aabb box, float skin, bool cells) {
    memset(gather, 0, sizeof *gather);
    gather->w = w;
    gather->mover = slot;
    gather->min_margin = SHOVE_IFN(world_contact_distance)(skin, box);
    gather->region = box;
    gather->cells = cells;
    gather->line_x = SHOVE_IFN(move_line_x)(box);
}

bool SHOVE_IFN(world_collect_near)(shove_world *w, uint32_t slot, shove_aabb box, float distance,
                                   uint32_t *near_count) {
    const shove_aabb query = SHOVE_IFN(move_region)(box, shove_vec_splat(0.0f), distance);
    MOVE_VISIT ctx;
    SHOVE_IFN(move_visit_start)(&ctx, w, slot, query, NULL);
    SHOVE_IFN(move_query)(w, &ctx);
    *near_count = ctx.ok ? ctx.near_count : 0u;
    return ctx.ok;
}

#undef MOVE_KERNEL_OVERLAP
#undef MOVE_VISIT
#undef MOVE_STATIC_NEAR_GROW
#undef MOVE_STATIC_NEAR_MOVES
