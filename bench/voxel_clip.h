/*
 * voxel_clip.h: the reference mover of bench_voxel, a plain C per-axis clip
 * written the way a block game hand-writes its entity movement:
 *
 *   - gather the block boxes of every cell the swept box touches (through
 *     the same voxel callback shove reads) and the boxes of the entities
 *     kept in the 16 x 16 chunk columns it touches (crates and other mobs);
 *   - clip the motion against them one axis at a time: Y, then X, then Z;
 *   - step-up: when a grounded mover is stopped sideways, try again raised
 *     by the step height (its room read now, not before), walk, and settle
 *     back down; keep that try if it went further sideways;
 *   - edge guard: a grounded mover backs its sideways motion off, 0.05 at a
 *     time, while the box moved that far and step_height down stands on
 *     nothing (the sneak rule of block games);
 *   - ground, ceiling and wall flags, and a contact per box that stopped a
 *     component of the motion.
 *
 * It has no skin, no seam rule, no starting-inside rule and no response
 * other than slide: it is the cost floor a game programmer would compare
 * shove3_move with, not a second implementation of its rules.
 */
#ifndef SHOVE_BENCH_VOXEL_CLIP_H
#define SHOVE_BENCH_VOXEL_CLIP_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <shove/shove.h>

/* Entities live in the chunk column of their min corner; no entity is
 * wider than CLIP_ENTITY_REACH, so a query looks that far back. */
#define CLIP_CHUNK        16
#define CLIP_ENTITY_REACH 1.0f
/* Boxes one move may gather (a move of a few tenths of a block touches a
 * few dozen); more are ignored, which never happens in the bench. */
#define CLIP_MAX_BOXES 512
/* The sneak rule's back-off step, in blocks. */
#define CLIP_GUARD_STEP 0.05f

typedef int clip_shapes_fn(void *ctx, int32_t x, int32_t y, int32_t z,
                           shove3_aabb out[SHOVE_VOXEL_MAX_BOXES]);

typedef struct clip_list {
    uint32_t *ids;
    uint32_t count, capacity;
} clip_list;

typedef struct clip_world {
    int chunks_x, chunks_z;
    clip_list *chunks;
    shove3_aabb *boxes;   /* per entity */
    uint64_t *categories; /* per entity: met when it shares a bit with the mover's mask */
    uint32_t entity_count, entity_capacity;
    clip_shapes_fn *shapes;
    void *shapes_ctx;
    long reads;
} clip_world;

typedef struct clip_result {
    shove3_aabb box;
    vec3s delta;
    bool on_ground, hit_ceiling, hit_wall, stepped;
    int contact_count;
} clip_result;

/* One gathered box and what it is (entity id, or UINT32_MAX for a block). */
typedef struct clip_set {
    shove3_aabb box[CLIP_MAX_BOXES];
    uint32_t count;
} clip_set;

static inline int clip_floor(float v) {
    return (int)floorf(v);
}

static inline bool clip_world_init(clip_world *cw, int size_x, int size_z, clip_shapes_fn *shapes,
                                   void *ctx) {
    memset(cw, 0, sizeof *cw);
    cw->chunks_x = (size_x + CLIP_CHUNK - 1) / CLIP_CHUNK;
    cw->chunks_z = (size_z + CLIP_CHUNK - 1) / CLIP_CHUNK;
    cw->chunks = calloc((size_t)cw->chunks_x * (size_t)cw->chunks_z, sizeof *cw->chunks);
    cw->shapes = shapes;
    cw->shapes_ctx = ctx;
    return cw->chunks != NULL;
}

static inline void clip_world_free(clip_world *cw) {
    for (int i = 0; cw->chunks && i < cw->chunks_x * cw->chunks_z; ++i) {
        free(cw->chunks[i].ids);
    }
    free(cw->chunks);
    free(cw->boxes);
    free(cw->categories);
    memset(cw, 0, sizeof *cw);
}

static inline clip_list *clip_chunk_of(clip_world *cw, shove3_aabb b) {
    int cx = clip_floor(b.min.x / CLIP_CHUNK), cz = clip_floor(b.min.z / CLIP_CHUNK);
    cx = cx < 0 ? 0 : (cx >= cw->chunks_x ? cw->chunks_x - 1 : cx);
    cz = cz < 0 ? 0 : (cz >= cw->chunks_z ? cw->chunks_z - 1 : cz);
    return &cw->chunks[cz * cw->chunks_x + cx];
}

static inline bool clip_list_push(clip_list *l, uint32_t id) {
    if (l->count == l->capacity) {
        const uint32_t cap = l->capacity ? 2 * l->capacity : 16;
        uint32_t *ids = realloc(l->ids, cap * sizeof *ids);
        if (!ids) {
            return false;
        }
        l->ids = ids;
        l->capacity = cap;
    }
    l->ids[l->count++] = id;
    return true;
}

static inline void clip_list_remove(clip_list *l, uint32_t id) {
    for (uint32_t i = 0; i < l->count; ++i) {
        if (l->ids[i] == id) {
            l->ids[i] = l->ids[--l->count];
            return;
        }
    }
}

/* Adds an entity; its id, or UINT32_MAX when out of memory. */
static inline uint32_t clip_world_add(clip_world *cw, shove3_aabb box, uint64_t category) {
    if (cw->entity_count == cw->entity_capacity) {
        const uint32_t cap = cw->entity_capacity ? 2 * cw->entity_capacity : 1024;
        shove3_aabb *boxes = realloc(cw->boxes, cap * sizeof *boxes);
        if (boxes) {
            cw->boxes = boxes;
        }
        uint64_t *categories = realloc(cw->categories, cap * sizeof *categories);
        if (categories) {
            cw->categories = categories;
        }
        if (!boxes || !categories) {
            return UINT32_MAX;
        }
        cw->entity_capacity = cap;
    }
    const uint32_t id = cw->entity_count;
    if (!clip_list_push(clip_chunk_of(cw, box), id)) {
        return UINT32_MAX;
    }
    cw->categories[cw->entity_count] = category;
    cw->boxes[cw->entity_count++] = box;
    return id;
}

static inline bool clip_overlaps(shove3_aabb a, shove3_aabb b) {
    return a.min.x < b.max.x && b.min.x < a.max.x && a.min.y < b.max.y && b.min.y < a.max.y &&
           a.min.z < b.max.z && b.min.z < a.max.z;
}

static inline shove3_aabb clip_moved(shove3_aabb b, float dx, float dy, float dz) {
    b.min.x += dx;
    b.max.x += dx;
    b.min.y += dy;
    b.max.y += dy;
    b.min.z += dz;
    b.max.z += dz;
    return b;
}

/* Every block box and entity box (but `self`'s, and only of entities whose
 * category meets `mask`) touching `region`, appended to `set`. */
static inline void clip_gather(clip_world *cw, uint32_t self, uint64_t mask, shove3_aabb region,
                               clip_set *set) {
    const int x0 = clip_floor(region.min.x), x1 = clip_floor(region.max.x);
    const int y0 = clip_floor(region.min.y), y1 = clip_floor(region.max.y);
    const int z0 = clip_floor(region.min.z), z1 = clip_floor(region.max.z);
    shove3_aabb shapes[SHOVE_VOXEL_MAX_BOXES];
    for (int z = z0; z <= z1; ++z) {
        for (int x = x0; x <= x1; ++x) {
            for (int y = y0; y <= y1; ++y) {
                cw->reads += 1;
                const int n = cw->shapes(cw->shapes_ctx, x, y, z, shapes);
                for (int k = 0; k < n && set->count < CLIP_MAX_BOXES; ++k) {
                    set->box[set->count++] = clip_moved(shapes[k], (float)x, (float)y, (float)z);
                }
            }
        }
    }
    shove3_aabb reach = region;
    reach.min.x -= CLIP_ENTITY_REACH;
    reach.min.z -= CLIP_ENTITY_REACH;
    int cx0 = clip_floor(reach.min.x / CLIP_CHUNK), cx1 = clip_floor(reach.max.x / CLIP_CHUNK);
    int cz0 = clip_floor(reach.min.z / CLIP_CHUNK), cz1 = clip_floor(reach.max.z / CLIP_CHUNK);
    cx0 = cx0 < 0 ? 0 : cx0;
    cz0 = cz0 < 0 ? 0 : cz0;
    cx1 = cx1 >= cw->chunks_x ? cw->chunks_x - 1 : cx1;
    cz1 = cz1 >= cw->chunks_z ? cw->chunks_z - 1 : cz1;
    for (int cz = cz0; cz <= cz1; ++cz) {
        for (int cx = cx0; cx <= cx1; ++cx) {
            const clip_list *l = &cw->chunks[cz * cw->chunks_x + cx];
            for (uint32_t i = 0; i < l->count; ++i) {
                const uint32_t id = l->ids[i];
                const shove3_aabb b = cw->boxes[id];
                if (id != self && (cw->categories[id] & mask) && set->count < CLIP_MAX_BOXES &&
                    b.min.x <= region.max.x && region.min.x <= b.max.x && b.min.y <= region.max.y &&
                    region.min.y <= b.max.y && b.min.z <= region.max.z && region.min.z <= b.max.z) {
                    set->box[set->count++] = b;
                }
            }
        }
    }
}

/* The motion `d` along axis `a` clipped against every box of the set the
 * mover overlaps on the other axes; `*stopper` is the box that clipped it
 * last (or -1). */
static inline float clip_axis(const clip_set *set, shove3_aabb m, int a, float d, int *stopper) {
    const int b = (a + 1) % 3, c = (a + 2) % 3;
    *stopper = -1;
    for (uint32_t i = 0; i < set->count && d != 0.0f; ++i) {
        const shove3_aabb o = set->box[i];
        if (o.max.raw[b] <= m.min.raw[b] || o.min.raw[b] >= m.max.raw[b] ||
            o.max.raw[c] <= m.min.raw[c] || o.min.raw[c] >= m.max.raw[c]) {
            continue;
        }
        if (d > 0.0f && o.min.raw[a] >= m.max.raw[a] && o.min.raw[a] - m.max.raw[a] < d) {
            d = o.min.raw[a] - m.max.raw[a];
            *stopper = (int)i;
        } else if (d < 0.0f && o.max.raw[a] <= m.min.raw[a] && o.max.raw[a] - m.min.raw[a] > d) {
            d = o.max.raw[a] - m.min.raw[a];
            *stopper = (int)i;
        }
    }
    return d;
}

/* Y, then X, then Z; counts the boxes that stopped a component. */
static inline vec3s clip_axes(const clip_set *set, shove3_aabb box, vec3s d, int *contacts) {
    static const int order[3] = {1, 0, 2};
    vec3s out = d;
    for (int k = 0; k < 3; ++k) {
        const int a = order[k];
        int stopper;
        out.raw[a] = clip_axis(set, box, a, d.raw[a], &stopper);
        *contacts += stopper >= 0;
        box.min.raw[a] += out.raw[a];
        box.max.raw[a] += out.raw[a];
    }
    return out;
}

/* True when `b` overlaps no box of the set. */
static inline bool clip_free(const clip_set *set, shove3_aabb b) {
    for (uint32_t i = 0; i < set->count; ++i) {
        if (clip_overlaps(set->box[i], b)) {
            return false;
        }
    }
    return true;
}

/* The sneak rule: back the sideways motion off while it would leave the
 * mover with nothing within `drop` below. */
static inline vec3s clip_edge_guard(const clip_set *set, shove3_aabb box, vec3s d, float drop) {
    for (int a = 0; a < 3; a += 2) {
        while (d.raw[a] != 0.0f) {
            vec3s t = {{0, -drop, 0}};
            t.raw[a] = d.raw[a];
            if (!clip_free(set, clip_moved(box, t.x, t.y, t.z))) {
                break;
            }
            const float v = fabsf(d.raw[a]) < CLIP_GUARD_STEP ? 0.0f : d.raw[a];
            d.raw[a] = v > 0.0f ? v - CLIP_GUARD_STEP : (v < 0.0f ? v + CLIP_GUARD_STEP : 0.0f);
        }
    }
    while (d.x != 0.0f && d.z != 0.0f && clip_free(set, clip_moved(box, d.x, -drop, d.z))) {
        d.x = fabsf(d.x) < CLIP_GUARD_STEP ? 0.0f : d.x - copysignf(CLIP_GUARD_STEP, d.x);
        d.z = fabsf(d.z) < CLIP_GUARD_STEP ? 0.0f : d.z - copysignf(CLIP_GUARD_STEP, d.z);
    }
    return d;
}

/* Moves entity `self` (its box kept by the world) by `d`, meeting blocks
 * and the entities whose category meets `mask`. `was_on_ground` is the
 * ground flag of its last move. Returns what happened and updates the
 * entity's box and chunk. */
static inline clip_result clip_move(clip_world *cw, uint32_t self, uint64_t mask, vec3s d,
                                    float step_height, bool edge_guard, bool was_on_ground) {
    static clip_set set; /* the bench is single-threaded */
    const shove3_aabb box = cw->boxes[self];
    clip_result r;
    memset(&r, 0, sizeof r);
    const bool guarding = edge_guard && was_on_ground && d.y <= 0.0f;
    shove3_aabb region = box;
    for (int a = 0; a < 3; ++a) {
        region.min.raw[a] += d.raw[a] < 0.0f ? d.raw[a] : 0.0f;
        region.max.raw[a] += d.raw[a] > 0.0f ? d.raw[a] : 0.0f;
    }
    if (guarding) {
        region.min.y -= step_height;
    }
    set.count = 0;
    clip_gather(cw, self, mask, region, &set);
    if (guarding) {
        d = clip_edge_guard(&set, box, d, step_height);
    }
    int contacts = 0;
    vec3s got = clip_axes(&set, box, d, &contacts);
    r.on_ground = d.y < 0.0f && got.y != d.y;
    r.hit_ceiling = d.y > 0.0f && got.y != d.y;
    r.hit_wall = got.x != d.x || got.z != d.z;
    if (step_height > 0.0f && r.hit_wall && (was_on_ground || r.on_ground)) {
        /* the room above: read only now that a step is tried */
        shove3_aabb above = region;
        above.max.y += step_height;
        set.count = 0;
        clip_gather(cw, self, mask, above, &set);
        int step_contacts = 0;
        const vec3s up = {{0, step_height, 0}};
        const float rise = clip_axes(&set, box, up, &step_contacts).y;
        shove3_aabb raised = clip_moved(box, 0, rise, 0);
        vec3s side = {{d.x, 0, d.z}};
        side = clip_axes(&set, raised, side, &step_contacts);
        shove3_aabb walked = clip_moved(raised, side.x, 0, side.z);
        const vec3s down = {{0, -rise + (d.y < 0.0f ? d.y : 0.0f), 0}};
        const float settle = clip_axes(&set, walked, down, &step_contacts).y;
        if (side.x * side.x + side.z * side.z > got.x * got.x + got.z * got.z) {
            got = (vec3s){{side.x, rise + settle, side.z}};
            contacts = step_contacts;
            r.stepped = true;
            r.on_ground = settle != down.y;
            r.hit_wall = side.x != d.x || side.z != d.z;
        }
    }
    r.delta = got;
    r.box = clip_moved(box, got.x, got.y, got.z);
    r.contact_count = contacts;
    clip_list *from = clip_chunk_of(cw, box), *to = clip_chunk_of(cw, r.box);
    if (from != to) {
        clip_list_remove(from, self);
        clip_list_push(to, self);
    }
    cw->boxes[self] = r.box;
    return r;
}

#endif
