/*
 * world.c: worlds, bodies, queries, events and debug drawing. Template:
 * see dim.h. The struct and the helpers later layers use are in world.h;
 * moves are in move.c.
 *
 * >>What contact means
 *
 * The world remembers, between calls, which pairs of bodies are "in
 * contact" and which bodies are inside which sensors, and reports the
 * changes as events. The state of the pairs of a body is brought up to date
 * right after that body moves (shove3_move, and the shove step for every
 * body it moves); a body that does not move keeps its pairs, so teleports
 * (shove3_body_set_box) and other bodies' moves past it do not end them
 * until one of the two moves again.
 *
 *   - Two solid (non-sensor) bodies that interact (category / mask both
 *     ways, and the mover's response to the other is not IGNORE) are in
 *     contact when they overlap, or when they touch face to face within the
 *     contact distance: the gap between them is at most 2 * skin of the
 *     move (plus a few float steps, see world_contact_distance) along one
 *     axis, and their intervals overlap strictly on every other axis. A
 *     mover stops `skin` short of what it runs into (with the default skin
 *     0, exactly on its face), so a body resting on a floor or pushed
 *     against a wall is in contact with it; boxes that only meet at an edge
 *     or corner are not.
 *   - A body is inside a sensor when their boxes overlap strictly. Sensors
 *     do not sense each other.
 *
 * Events of a move, in order: CONTACT_BEGIN / SENSOR_ENTER for pairs that
 * start; then, for every body the move ran into or through on its way (one
 * of its contacts) that is in no pair before or after the move, a BEGIN
 * followed at once by an END (or ENTER then EXIT), so a fast body crossing
 * a sensor is not missed; then CONTACT_END / SENSOR_EXIT for pairs that
 * stop. For contacts, event.a is the body that moved and event.normal
 * points from b toward a (the contact normal); for sensors a is the visitor
 * and b the sensor, whichever of the two moved, and the normal is zero, as
 * for every END / EXIT. Destroying a body forgets its pairs without events.
 *
 * The filter of move_def may be called more than once per obstacle and move
 * (by the slide and again for the pairs), so it should answer the same for
 * the same arguments.
 *
 * >>Collision groups in shove
 *
 * A common engine design gives every body groups (what it is), groups to
 * check (what it collides with), groups to detect but not resolve, and
 * collision callbacks on both bodies. In shove:
 *
 *   groups                         body_def.category
 *   groups to check                body_def.mask (both bodies must agree:
 *                                  a's category in b's mask and b's in a's)
 *   detect, do not resolve         for a whole body: body_def.sensor (every
 *                                  mover passes through it and reports it);
 *                                  per mover: move_def.filter returning
 *                                  SHOVE_RESPONSE_CROSS for those categories
 *   callbacks on both bodies       world_def.event_fn: one call per event,
 *                                  with both ids; the game dispatches to
 *                                  both bodies (user_data) itself
 *
 * examples/groups.c plays this out.
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

/* Marks of world->mark during a pair update (other values: pair + 1). */
#define MARK_KEPT UINT32_MAX
#define MARK_TOLD (UINT32_MAX - 1u)

/* >>memory ---------------------------------------------------------------- */

bool SHOVE_IFN(world_grow)(const shove_world *w, void **array, uint32_t *capacity, uint32_t need,
                           size_t elem) {
    if (need <= *capacity) {
        return true;
    }
    if (need > UINT32_MAX / 4u) {
        return false;
    }
    uint32_t cap = *capacity ? *capacity : 16u;
    while (cap < need) {
        cap *= 2u;
    }
    void *p = SHOVE_IFN(world_realloc)(w, *array, (size_t)*capacity * elem, (size_t)cap * elem);
    if (!p) {
        return false;
    }
    *array = p;
    *capacity = cap;
    return true;
}

static size_t SHOVE_IFN(world_lay)(size_t *offset, size_t count, size_t elem) {
    const size_t at = (*offset + 15u) & ~(size_t)15u;
    *offset = at + count * elem;
    return at;
}

/* Every per-slot array lives in one block, so growing is all or nothing. */
static void SHOVE_IFN(world_slot_layout)(shove_world *w, char *block, uint32_t cap, size_t *bytes) {
    size_t off = 0;
    const size_t box = SHOVE_IFN(world_lay)(&off, cap, sizeof(shove_aabb));
    const size_t motion = SHOVE_IFN(world_lay)(&off, cap, sizeof(shove_vec));
    const size_t category = SHOVE_IFN(world_lay)(&off, cap, sizeof(uint64_t));
    const size_t mask = SHOVE_IFN(world_lay)(&off, cap, sizeof(uint64_t));
    const size_t user_data = SHOVE_IFN(world_lay)(&off, cap, sizeof(void *));
    const size_t generation = SHOVE_IFN(world_lay)(&off, cap, sizeof(uint32_t));
    const size_t next_free = SHOVE_IFN(world_lay)(&off, cap, sizeof(uint32_t));
    const size_t pair_head = SHOVE_IFN(world_lay)(&off, cap, sizeof(uint32_t));
    const size_t mark = SHOVE_IFN(world_lay)(&off, cap, sizeof(uint32_t));
    const size_t loc = SHOVE_IFN(world_lay)(&off, cap, sizeof(shove_tree_loc));
    const size_t flags = SHOVE_IFN(world_lay)(&off, cap, sizeof(uint8_t));
    const size_t priority = SHOVE_IFN(world_lay)(&off, cap, sizeof(uint8_t));
    const size_t static_near = SHOVE_IFN(world_lay)(&off, cap, sizeof(SHOVE_T(static_near)));
    const size_t move_def = SHOVE_IFN(world_lay)(&off, cap, sizeof(uint32_t));
    const size_t last_delta = SHOVE_IFN(world_lay)(&off, cap, sizeof(shove_vec));
    const size_t last_contacts = SHOVE_IFN(world_lay)(&off, cap, sizeof(uint32_t));
    const size_t last_flags = SHOVE_IFN(world_lay)(&off, cap, sizeof(uint8_t));
    *bytes = off;
    if (!block) {
        return;
    }
    w->box = (shove_aabb *)(void *)(block + box);
    w->motion = (shove_vec *)(void *)(block + motion);
    w->category = (uint64_t *)(void *)(block + category);
    w->mask = (uint64_t *)(void *)(block + mask);
    w->user_data = (void **)(void *)(block + user_data);
    w->generation = (uint32_t *)(void *)(block + generation);
    w->next_free = (uint32_t *)(void *)(block + next_free);
    w->pair_head = (uint32_t *)(void *)(block + pair_head);
    w->mark = (uint32_t *)(void *)(block + mark);
    w->loc = (shove_tree_loc *)(void *)(block + loc);
    w->flags = (uint8_t *)(block + flags);
    w->priority = (uint8_t *)(block + priority);
    w->static_near = (SHOVE_T(static_near) *)(void *)(block + static_near);
    w->move_def = (uint32_t *)(void *)(block + move_def);
    w->last_delta = (shove_vec *)(void *)(block + last_delta);
    w->last_contacts = (uint32_t *)(void *)(block + last_contacts);
    w->last_flags = (uint8_t *)(block + last_flags);
}

static bool SHOVE_IFN(world_reserve_slots)(shove_world *w, uint32_t need) {
    if (need <= w->slot_capacity) {
        return true;
    }
    if (need > SHOVE_WORLD_MAX_SLOTS) {
        return false;
    }
    uint32_t cap = w->slot_capacity ? w->slot_capacity : 16u;
    while (cap < need) {
        cap = (cap > SHOVE_WORLD_MAX_SLOTS / 2u) ? SHOVE_WORLD_MAX_SLOTS : cap * 2u;
    }
    size_t bytes, old_bytes;
    SHOVE_IFN(world_slot_layout)(w, NULL, cap, &bytes);
    SHOVE_IFN(world_slot_layout)(w, NULL, w->slot_capacity, &old_bytes);
    char *block = SHOVE_IFN(world_realloc)(w, NULL, 0, bytes);
    if (!block) {
        return false;
    }
    memset(block, 0, bytes);
    shove_world old = *w;
    SHOVE_IFN(world_slot_layout)(w, block, cap, &bytes);
    const size_t n = w->slot_count;
    if (n > 0) {
        memcpy(w->box, old.box, n * sizeof *w->box);
        memcpy(w->motion, old.motion, n * sizeof *w->motion);
        memcpy(w->category, old.category, n * sizeof *w->category);
        memcpy(w->mask, old.mask, n * sizeof *w->mask);
        memcpy(w->user_data, old.user_data, n * sizeof *w->user_data);
        memcpy(w->generation, old.generation, n * sizeof *w->generation);
        memcpy(w->next_free, old.next_free, n * sizeof *w->next_free);
        memcpy(w->pair_head, old.pair_head, n * sizeof *w->pair_head);
        memcpy(w->mark, old.mark, n * sizeof *w->mark);
        memcpy(w->loc, old.loc, n * sizeof *w->loc);
        memcpy(w->flags, old.flags, n * sizeof *w->flags);
        memcpy(w->priority, old.priority, n * sizeof *w->priority);
        memcpy(w->static_near, old.static_near, n * sizeof *w->static_near);
        memcpy(w->move_def, old.move_def, n * sizeof *w->move_def);
        memcpy(w->last_delta, old.last_delta, n * sizeof *w->last_delta);
        memcpy(w->last_contacts, old.last_contacts, n * sizeof *w->last_contacts);
        memcpy(w->last_flags, old.last_flags, n * sizeof *w->last_flags);
    }
    if (old.slot_block) {
        SHOVE_IFN(world_realloc)(w, old.slot_block, old_bytes, 0);
    }
    w->slot_block = block;
    w->slot_capacity = cap;
    SHOVE_IFN(tree_set_loc)(&w->trees[0], w->loc);
    SHOVE_IFN(tree_set_loc)(&w->trees[1], w->loc);
    return true;
}

/* >>world ----------------------------------------------------------------- */

shove_world_def SHOVE_FN(default_world_def)(void) {
    shove_world_def def;
    memset(&def, 0, sizeof def);
    def.bounds.min = shove_vec_splat(-1024.0f);
    def.bounds.max = shove_vec_splat(1024.0f);
    def.body_capacity = 1024;
    def.step_def = SHOVE_FN(default_move_def)();
    def.worker_count = 1;
    def.internal_literal_mark = SHOVE_DEF_LITERAL_MARK;
    return def;
}

/* The def a world is made with (defs.h): `def` as it is when it carries the
 * literal mark, else the defaults with its non-zero fields. The step_def
 * inside follows its own mark (move_def_resolve). False for an unknown mark
 * on either. */
static bool SHOVE_IFN(world_def_resolve)(const shove_world_def *def, shove_world_def *out) {
    if (def && !shove__def_mark_is_known(def->internal_literal_mark)) {
        return false;
    }
    if (def && def->internal_literal_mark == SHOVE_DEF_LITERAL_MARK) {
        *out = *def;
    } else {
        *out = SHOVE_FN(default_world_def)();
        if (def) {
            /* Every field of the def, in order: a zero one keeps its default. */
            SHOVE_DEF_TAKE(out, def, bounds);
            SHOVE_DEF_TAKE(out, def, body_capacity);
            /* step_def: below */
            SHOVE_DEF_TAKE(out, def, allocator);
            SHOVE_DEF_TAKE(out, def, event_fn);
            SHOVE_DEF_TAKE(out, def, event_ctx);
            SHOVE_DEF_TAKE(out, def, worker_count);
            SHOVE_DEF_TAKE(out, def, enqueue_task);
            SHOVE_DEF_TAKE(out, def, finish_task);
            SHOVE_DEF_TAKE(out, def, task_ctx);
        }
    }
    shove_move_def step;
    const shove_move_def *s = SHOVE_IFN(move_def_resolve)(def ? &def->step_def : NULL, &step);
    if (!s) {
        return false;
    }
    out->step_def = *s;
    return true;
}

static bool SHOVE_IFN(world_def_is_valid)(const shove_world_def *def) {
    if (!SHOVE_FN(aabb_is_valid)(def->bounds) || def->body_capacity < 0) {
        return false;
    }
    /* Workers: 0 stands for the default (1); a task system comes whole. */
    if (def->worker_count < 0 || def->worker_count > SHOVE_MAX_WORKERS ||
        (def->enqueue_task == NULL) != (def->finish_task == NULL)) {
        return false;
    }
    bool has_size = false;
    for (int a = 0; a < SHOVE_DIM; ++a) {
        const float size = def->bounds.max.raw[a] - def->bounds.min.raw[a];
        if (!isfinite(size)) {
            return false;
        }
        has_size = has_size || size > 0.0f;
    }
    if (!has_size) {
        return false;
    }
    /* The step ignores contacts: check the rest. */
    const shove_move_def step = SHOVE_IFN(world_step_settings)(def->step_def);
    return SHOVE_IFN(move_def_is_valid)(&step);
}

shove_status SHOVE_FN(world_create)(const shove_world_def *def, shove_world **out) {
    if (!out) {
        return SHOVE_ERR_INVALID_ARGUMENT;
    }
    shove_world_def d;
    if (!SHOVE_IFN(world_def_resolve)(def, &d) || !SHOVE_IFN(world_def_is_valid)(&d)) {
        return SHOVE_ERR_INVALID_ARGUMENT;
    }
    shove_allocator alloc = d.allocator;
    if (!alloc.realloc) {
        alloc.realloc = shove__default_realloc;
        alloc.ctx = NULL;
    }
    shove_world *w = alloc.realloc(alloc.ctx, NULL, 0, sizeof *w);
    if (!w) {
        return SHOVE_ERR_OUT_OF_MEMORY;
    }
    memset(w, 0, sizeof *w);
    atomic_init(&w->busy, 0u);
    w->alloc = alloc;
    w->bounds = d.bounds;
    w->step_def = SHOVE_IFN(world_step_settings)(d.step_def);
    w->event_fn = d.event_fn;
    w->event_ctx = d.event_ctx;
    w->tasks.worker_count = d.worker_count > 0 ? (uint32_t)d.worker_count : 1u;
    w->tasks.enqueue_task = d.enqueue_task;
    w->tasks.finish_task = d.finish_task;
    w->tasks.task_ctx = d.task_ctx;
    w->tasks.alloc = alloc;
    w->free_head = SHOVE_TREE_NONE;
    w->pair_free = SHOVE_TREE_NONE;
    w->own_def_free = SHOVE_TREE_NONE;
    w->static_stamp = 1u;
    SHOVE_IFN(obstacles_init)(&w->obstacles, &alloc);
    if (SHOVE_IFN(tree_init)(&w->trees[0], d.bounds, alloc) != SHOVE_OK ||
        SHOVE_IFN(tree_init)(&w->trees[1], d.bounds, alloc) != SHOVE_OK ||
        !SHOVE_IFN(world_reserve_slots)(w, (uint32_t)d.body_capacity)) {
        SHOVE_FN(world_destroy)(w);
        return SHOVE_ERR_OUT_OF_MEMORY;
    }
    w->tag = shove__world_tag_acquire(&w->tag_claimed);
    *out = w;
    return SHOVE_OK;
}

void SHOVE_FN(world_destroy)(shove_world *w) {
    if (!w || SHOVE_IFN(world_is_locked)(w)) {
        return; /* from a callback of this world: documented to do nothing */
    }
    shove__tasks_stop(&w->tasks);
    SHOVE_IFN(tree_destroy)(&w->trees[0]);
    SHOVE_IFN(tree_destroy)(&w->trees[1]);
    SHOVE_IFN(obstacles_free)(&w->obstacles);
    SHOVE_IFN(step_free)(w);
    SHOVE_IFN(load_free)(w);
    if (w->slot_block) {
        size_t bytes;
        SHOVE_IFN(world_slot_layout)(w, NULL, w->slot_capacity, &bytes);
        SHOVE_IFN(world_realloc)(w, w->slot_block, bytes, 0);
    }
    SHOVE_IFN(world_realloc)(w, w->pairs, (size_t)w->pair_capacity * sizeof *w->pairs, 0);
    SHOVE_IFN(world_realloc)(w, w->events, (size_t)w->event_capacity * sizeof *w->events, 0);
    SHOVE_IFN(world_realloc)(w, w->drawn, (size_t)w->drawn_capacity * sizeof *w->drawn, 0);
    SHOVE_IFN(world_realloc)(w, w->near, (size_t)w->near_capacity * sizeof *w->near, 0);
    SHOVE_IFN(world_realloc)(w, w->crossed, (size_t)w->crossed_capacity * sizeof *w->crossed, 0);
    SHOVE_IFN(world_realloc)(w, w->own_defs, (size_t)w->own_def_capacity * sizeof *w->own_defs, 0);
    if (w->tag) {
        shove__world_tag_release(w->tag, w->tag_claimed);
    }
    const shove_allocator alloc = w->alloc;
    alloc.realloc(alloc.ctx, w, sizeof *w, 0);
}

shove_status SHOVE_FN(world_get_step_def)(const shove_world *w, shove_move_def *out) {
    if (!w || !out) {
        return SHOVE_ERR_INVALID_ARGUMENT;
    }
    *out = w->step_def;
    return SHOVE_OK;
}

shove_status SHOVE_FN(world_body_at)(const shove_world *w, uint32_t index, shove_id *out) {
    if (!w || !out) {
        return SHOVE_ERR_INVALID_ARGUMENT;
    }
    if (index >= w->slot_count || !(w->flags[index] & SHOVE_SLOT_ALIVE)) {
        return SHOVE_ERR_STALE_ID;
    }
    *out = SHOVE_IFN(world_id)(w, index);
    return SHOVE_OK;
}

size_t SHOVE_FN(world_body_count)(const shove_world *w) {
    return w ? w->body_count : 0u;
}

/* >>bodies ---------------------------------------------------------------- */

shove_body_def SHOVE_FN(default_body_def)(void) {
    shove_body_def def;
    memset(&def, 0, sizeof def);
    def.type = SHOVE_BODY_STATIC;
    def.category = 1u;
    def.mask = UINT64_MAX;
    def.internal_literal_mark = SHOVE_DEF_LITERAL_MARK;
    return def;
}

/* The def a body is made with (defs.h): `def` itself when it carries the
 * literal mark, else `scratch` with the defaults and the def's non-zero
 * fields. NULL for an unknown mark. */
static const shove_body_def *SHOVE_IFN(body_def_resolve)(const shove_body_def *def,
                                                         shove_body_def *scratch) {
    if (def->internal_literal_mark == SHOVE_DEF_LITERAL_MARK) {
        return def;
    }
    if (!shove__def_mark_is_known(def->internal_literal_mark)) {
        return NULL;
    }
    *scratch = SHOVE_FN(default_body_def)();
    /* Every field of the def, in order: a zero one keeps its default. */
    SHOVE_DEF_TAKE(scratch, def, box);
    SHOVE_DEF_TAKE(scratch, def, type);
    SHOVE_DEF_TAKE(scratch, def, priority);
    SHOVE_DEF_TAKE(scratch, def, category);
    SHOVE_DEF_TAKE(scratch, def, mask);
    SHOVE_DEF_TAKE(scratch, def, sensor);
    SHOVE_DEF_TAKE(scratch, def, user_data);
    return scratch;
}

shove_status SHOVE_FN(body_create)(shove_world *w, const shove_body_def *user_def, shove_id *out) {
    if (!w) {
        return SHOVE_ERR_INVALID_ARGUMENT;
    }
    if (SHOVE_IFN(world_is_locked)(w)) {
        return SHOVE_ERR_LOCKED;
    }
    shove_body_def resolved;
    const shove_body_def *def = user_def ? SHOVE_IFN(body_def_resolve)(user_def, &resolved) : NULL;
    if (!def || !out || !SHOVE_FN(aabb_is_valid)(def->box) ||
        (def->type != SHOVE_BODY_STATIC && def->type != SHOVE_BODY_DYNAMIC)) {
        return SHOVE_ERR_INVALID_ARGUMENT;
    }
    const bool reuse = w->free_head != SHOVE_TREE_NONE;
    const uint32_t slot = reuse ? w->free_head : w->slot_count;
    if (!reuse && !SHOVE_IFN(world_reserve_slots)(w, w->slot_count + 1u)) {
        return SHOVE_ERR_OUT_OF_MEMORY;
    }
    const bool dynamic = def->type == SHOVE_BODY_DYNAMIC;
    const shove_status s = SHOVE_IFN(tree_insert)(
        &w->trees[dynamic ? SHOVE_BODY_DYNAMIC : SHOVE_BODY_STATIC], slot, def->box);
    if (s != SHOVE_OK) {
        return s;
    }
    if (reuse) {
        w->free_head = w->next_free[slot];
    } else {
        w->slot_count += 1u;
        w->generation[slot] = 1u;
    }
    w->box[slot] = def->box;
    w->motion[slot] = shove_vec_splat(0.0f);
    w->category[slot] = def->category;
    w->mask[slot] = def->mask;
    w->user_data[slot] = def->user_data;
    w->next_free[slot] = SHOVE_TREE_NONE;
    w->pair_head[slot] = SHOVE_TREE_NONE;
    w->mark[slot] = 0u;
    w->flags[slot] = (uint8_t)(SHOVE_SLOT_ALIVE | (dynamic ? SHOVE_SLOT_DYNAMIC : 0u) |
                               (def->sensor ? SHOVE_SLOT_SENSOR : 0u));
    w->priority[slot] = def->priority;
    w->move_def[slot] = 0u;
    w->last_delta[slot] = shove_vec_splat(0.0f);
    w->last_contacts[slot] = 0u;
    w->last_flags[slot] = 0u;
    w->body_count += 1u;
    if (!dynamic) {
        w->static_count += 1u;
        SHOVE_IFN(world_static_changed)(w);
    }
    *out = SHOVE_IFN(world_id)(w, slot);
    return SHOVE_OK;
}

/* Unlink pair p from body `slot`'s list. */
static void SHOVE_IFN(world_unlink_pair)(shove_world *w, uint32_t slot, uint32_t p) {
    uint32_t *link = &w->pair_head[slot];
    while (*link != p) {
        shove_pair *q = &w->pairs[*link];
        link = (q->body[0] == slot) ? &q->next[0] : &q->next[1];
    }
    const shove_pair *pp = &w->pairs[p];
    *link = (pp->body[0] == slot) ? pp->next[0] : pp->next[1];
}

static void SHOVE_IFN(world_free_pair)(shove_world *w, uint32_t p) {
    w->pairs[p].next[0] = w->pair_free;
    w->pairs[p].body[0] = SHOVE_TREE_NONE;
    w->pairs[p].body[1] = SHOVE_TREE_NONE;
    w->pair_free = p;
    w->pair_free_count += 1u;
}

shove_status SHOVE_FN(body_destroy)(shove_world *w, shove_id id) {
    if (!w) {
        return SHOVE_ERR_INVALID_ARGUMENT;
    }
    if (SHOVE_IFN(world_is_locked)(w)) {
        return SHOVE_ERR_LOCKED;
    }
    const uint32_t slot = SHOVE_IFN(world_slot)(w, id);
    if (slot == SHOVE_TREE_NONE) {
        return SHOVE_ERR_STALE_ID;
    }
    SHOVE_IFN(tree_remove)(SHOVE_IFN(world_tree_of)(w, slot), slot);
    if (!(w->flags[slot] & SHOVE_SLOT_DYNAMIC)) {
        w->static_count -= 1u;
        SHOVE_IFN(world_static_changed)(w);
    }
    while (w->pair_head[slot] != SHOVE_TREE_NONE) {
        const uint32_t p = w->pair_head[slot];
        const uint32_t other =
            (w->pairs[p].body[0] == slot) ? w->pairs[p].body[1] : w->pairs[p].body[0];
        SHOVE_IFN(world_unlink_pair)(w, slot, p);
        SHOVE_IFN(world_unlink_pair)(w, other, p);
        SHOVE_IFN(world_free_pair)(w, p);
    }
    w->user_data[slot] = NULL;
    SHOVE_IFN(world_drop_move_def)(w, slot);
    const uint32_t next = (w->generation[slot] + 1u) & SHOVE_ID_COUNTER_MASK;
    if (next == 0u) {
        w->flags[slot] = SHOVE_SLOT_RETIRED; /* every id of this slot was handed out */
    } else {
        w->generation[slot] = next;
        w->flags[slot] = 0u;
        w->next_free[slot] = w->free_head;
        w->free_head = slot;
    }
    w->body_count -= 1u;
    return SHOVE_OK;
}

bool SHOVE_FN(body_is_valid)(const shove_world *w, shove_id id) {
    return w && SHOVE_IFN(world_slot)(w, id) != SHOVE_TREE_NONE;
}

shove_status SHOVE_FN(body_get_box)(const shove_world *w, shove_id id, shove_aabb *out) {
    if (!w || !out) {
        return SHOVE_ERR_INVALID_ARGUMENT;
    }
    const uint32_t slot = SHOVE_IFN(world_slot)(w, id);
    if (slot == SHOVE_TREE_NONE) {
        return SHOVE_ERR_STALE_ID;
    }
    *out = w->box[slot];
    return SHOVE_OK;
}

shove_status SHOVE_IFN(world_set_body_box)(shove_world *w, uint32_t slot, shove_aabb box) {
    const shove_status s = SHOVE_IFN(tree_move)(SHOVE_IFN(world_tree_of)(w, slot), slot, box);
    if (s == SHOVE_OK) {
        w->box[slot] = box;
        if (!(w->flags[slot] & SHOVE_SLOT_DYNAMIC)) {
            SHOVE_IFN(world_static_changed)(w);
        }
    }
    return s;
}

shove_status SHOVE_FN(body_set_box)(shove_world *w, shove_id id, shove_aabb box) {
    if (!w) {
        return SHOVE_ERR_INVALID_ARGUMENT;
    }
    if (SHOVE_IFN(world_is_locked)(w)) {
        return SHOVE_ERR_LOCKED;
    }
    if (!SHOVE_FN(aabb_is_valid)(box)) {
        return SHOVE_ERR_INVALID_ARGUMENT;
    }
    const uint32_t slot = SHOVE_IFN(world_slot)(w, id);
    if (slot == SHOVE_TREE_NONE) {
        return SHOVE_ERR_STALE_ID;
    }
    return SHOVE_IFN(world_set_body_box)(w, slot, box);
}

shove_status SHOVE_FN(body_get_user_data)(const shove_world *w, shove_id id, void **out) {
    if (!w || !out) {
        return SHOVE_ERR_INVALID_ARGUMENT;
    }
    const uint32_t slot = SHOVE_IFN(world_slot)(w, id);
    if (slot == SHOVE_TREE_NONE) {
        return SHOVE_ERR_STALE_ID;
    }
    *out = w->user_data[slot];
    return SHOVE_OK;
}

shove_status SHOVE_FN(body_set_user_data)(shove_world *w, shove_id id, void *user_data) {
    if (!w) {
        return SHOVE_ERR_INVALID_ARGUMENT;
    }
    if (SHOVE_IFN(world_is_locked)(w)) {
        return SHOVE_ERR_LOCKED;
    }
    const uint32_t slot = SHOVE_IFN(world_slot)(w, id);
    if (slot == SHOVE_TREE_NONE) {
        return SHOVE_ERR_STALE_ID;
    }
    w->user_data[slot] = user_data;
    return SHOVE_OK;
}

shove_status SHOVE_FN(body_set_priority)(shove_world *w, shove_id id, uint8_t priority) {
    if (!w) {
        return SHOVE_ERR_INVALID_ARGUMENT;
    }
    if (SHOVE_IFN(world_is_locked)(w)) {
        return SHOVE_ERR_LOCKED;
    }
    const uint32_t slot = SHOVE_IFN(world_slot)(w, id);
    if (slot == SHOVE_TREE_NONE) {
        return SHOVE_ERR_STALE_ID;
    }
    w->priority[slot] = priority;
    return SHOVE_OK;
}

shove_status SHOVE_FN(body_set_type)(shove_world *w, shove_id id, shove_body_type type) {
    if (!w) {
        return SHOVE_ERR_INVALID_ARGUMENT;
    }
    if (SHOVE_IFN(world_is_locked)(w)) {
        return SHOVE_ERR_LOCKED;
    }
    if (type != SHOVE_BODY_STATIC && type != SHOVE_BODY_DYNAMIC) {
        return SHOVE_ERR_INVALID_ARGUMENT;
    }
    const uint32_t slot = SHOVE_IFN(world_slot)(w, id);
    if (slot == SHOVE_TREE_NONE) {
        return SHOVE_ERR_STALE_ID;
    }
    const bool dynamic = type == SHOVE_BODY_DYNAMIC;
    if (dynamic == ((w->flags[slot] & SHOVE_SLOT_DYNAMIC) != 0)) {
        return SHOVE_OK;
    }
    /* Into the other tree first, so running out of memory changes nothing.
     * Both trees keep their entries' places in w->loc: keep the new place
     * aside while the old tree takes the entry out. */
    SHOVE_T(tree) *from = SHOVE_IFN(world_tree_of)(w, slot);
    SHOVE_T(tree) *to = &w->trees[dynamic ? SHOVE_BODY_DYNAMIC : SHOVE_BODY_STATIC];
    const shove_tree_loc old_loc = w->loc[slot];
    const shove_status s = SHOVE_IFN(tree_insert)(to, slot, w->box[slot]);
    if (s != SHOVE_OK) {
        w->loc[slot] = old_loc;
        return s;
    }
    const shove_tree_loc new_loc = w->loc[slot];
    w->loc[slot] = old_loc;
    SHOVE_IFN(tree_remove)(from, slot);
    w->loc[slot] = new_loc;
    if (dynamic) {
        w->flags[slot] |= (uint8_t)SHOVE_SLOT_DYNAMIC;
        w->static_count -= 1u;
    } else {
        /* Static bodies never move: a pending motion is dropped. */
        w->flags[slot] &= (uint8_t) ~(SHOVE_SLOT_DYNAMIC | SHOVE_SLOT_HAS_MOTION);
        w->motion[slot] = shove_vec_splat(0.0f);
        w->static_count += 1u;
    }
    /* The movers' remembered static neighbours are stale either way. */
    SHOVE_IFN(world_static_changed)(w);
    return SHOVE_OK;
}

shove_status SHOVE_FN(body_set_filter)(shove_world *w, shove_id id, uint64_t category,
                                       uint64_t mask) {
    if (!w) {
        return SHOVE_ERR_INVALID_ARGUMENT;
    }
    if (SHOVE_IFN(world_is_locked)(w)) {
        return SHOVE_ERR_LOCKED;
    }
    const uint32_t slot = SHOVE_IFN(world_slot)(w, id);
    if (slot == SHOVE_TREE_NONE) {
        return SHOVE_ERR_STALE_ID;
    }
    w->category[slot] = category;
    w->mask[slot] = mask;
    /* Pairs with bodies it no longer interacts with end, without events. */
    for (uint32_t p = w->pair_head[slot]; p != SHOVE_TREE_NONE;) {
        const shove_pair *pp = &w->pairs[p];
        const int k = (pp->body[0] == slot) ? 0 : 1;
        const uint32_t other = pp->body[1 - k];
        const uint32_t next = pp->next[k];
        if (!SHOVE_IFN(world_interacts)(w, slot, other)) {
            SHOVE_IFN(world_unlink_pair)(w, slot, p);
            SHOVE_IFN(world_unlink_pair)(w, other, p);
            SHOVE_IFN(world_free_pair)(w, p);
        }
        p = next;
    }
    return SHOVE_OK;
}

/* >>events ---------------------------------------------------------------- */

void SHOVE_IFN(world_events_begin)(shove_world *w) {
    w->event_count = 0;
    w->drawn_count = 0;
}

bool SHOVE_IFN(world_events_reserve)(shove_world *w, uint32_t extra) {
    if (extra > UINT32_MAX / 8u - w->event_count || extra > UINT32_MAX / 8u - w->drawn_count) {
        return false;
    }
    return SHOVE_IFN(world_grow)(w, (void **)&w->events, &w->event_capacity, w->event_count + extra,
                                 sizeof *w->events) &&
           SHOVE_IFN(world_grow)(w, (void **)&w->drawn, &w->drawn_capacity, w->drawn_count + extra,
                                 sizeof *w->drawn);
}

void SHOVE_IFN(world_emit)(shove_world *w, shove_event_type type, shove_id a, shove_id b,
                           shove_vec normal) {
    shove_event *e = &w->events[w->event_count++];
    e->type = type;
    e->a = a;
    e->b = b;
    e->normal = normal;
    if (w->event_fn) {
        w->event_fn(w->event_ctx, e);
    }
}

void SHOVE_IFN(world_add_drawn_contact)(shove_world *w, shove_aabb mover, shove_id other_id,
                                        shove_vec normal) {
    const uint32_t slot = SHOVE_IFN(world_slot)(w, other_id);
    shove_aabb other = mover;
    if (slot != SHOVE_TREE_NONE) {
        other = w->box[slot];
    } else if (!shove_id_is_null(other_id)) {
        return;
    } else {
        /* A voxel: its box is not kept, so the contact goes on the mover's
         * face that the normal points away from. */
        for (int a = 0; a < SHOVE_DIM; ++a) {
            if (normal.raw[a] > 0.0f) {
                other.max.raw[a] = mover.min.raw[a];
            } else if (normal.raw[a] < 0.0f) {
                other.min.raw[a] = mover.max.raw[a];
            }
        }
    }
    SHOVE_T(drawn_contact) *c = &w->drawn[w->drawn_count++];
    for (int a = 0; a < SHOVE_DIM; ++a) {
        if (normal.raw[a] != 0.0f) {
            /* on the face of `other` that the normal leaves */
            c->point.raw[a] = (normal.raw[a] > 0.0f) ? other.max.raw[a] : other.min.raw[a];
        } else {
            /* middle of where the two boxes overlap (or of the gap between) */
            const float lo =
                (mover.min.raw[a] > other.min.raw[a]) ? mover.min.raw[a] : other.min.raw[a];
            const float hi =
                (mover.max.raw[a] < other.max.raw[a]) ? mover.max.raw[a] : other.max.raw[a];
            c->point.raw[a] = lo * 0.5f + hi * 0.5f;
        }
    }
    c->normal = normal;
}

size_t SHOVE_FN(world_get_events)(const shove_world *w, const shove_event **out) {
    const size_t n = w ? w->event_count : 0u;
    if (out) {
        *out = (n > 0) ? w->events : NULL;
    }
    return n;
}

/* >>pairs ----------------------------------------------------------------- */

/* How two boxes relate for contacts: whether a (the mover) and b touch face
 * to face within `distance` or overlap, and the normal from b toward a (the
 * separating axis, or the axis of least overlap). */
static bool SHOVE_IFN(world_touching)(shove_aabb a, shove_aabb b, float distance,
                                      shove_vec *normal) {
    int separated = 0;
    int axis = 0;
    float best_gap = -INFINITY;
    float sign = 1.0f;
    for (int i = 0; i < SHOVE_DIM; ++i) {
        const float below = b.min.raw[i] - a.max.raw[i]; /* a on the low side of b */
        const float above = a.min.raw[i] - b.max.raw[i]; /* a on the high side of b */
        const float gap = (above >= below) ? above : below;
        if (gap >= 0.0f) {
            if (gap > distance) {
                return false;
            }
            ++separated;
        }
        if (gap > best_gap) {
            best_gap = gap;
            axis = i;
            sign = (above >= below) ? 1.0f : -1.0f;
        }
    }
    if (separated > 1) {
        return false; /* only an edge or a corner is close */
    }
    *normal = shove_vec_splat(0.0f);
    normal->raw[axis] = sign;
    return true;
}

bool SHOVE_IFN(world_pairs_reserve)(shove_world *w, uint32_t slot, uint32_t near_count,
                                    uint32_t crossed_count) {
    uint32_t listed = 0;
    for (uint32_t p = w->pair_head[slot]; p != SHOVE_TREE_NONE;
         p = (w->pairs[p].body[0] == slot) ? w->pairs[p].next[0] : w->pairs[p].next[1]) {
        ++listed;
    }
    if (near_count > w->pair_free_count) {
        const uint32_t old_cap = w->pair_capacity;
        if (near_count - w->pair_free_count > UINT32_MAX / 8u - old_cap ||
            !SHOVE_IFN(world_grow)(w, (void **)&w->pairs, &w->pair_capacity,
                                   old_cap + (near_count - w->pair_free_count), sizeof *w->pairs)) {
            return false;
        }
        for (uint32_t p = w->pair_capacity; p-- > old_cap;) {
            w->pairs[p].next[0] = w->pair_free;
            w->pairs[p].body[0] = SHOVE_TREE_NONE;
            w->pairs[p].body[1] = SHOVE_TREE_NONE;
            w->pair_free = p;
            w->pair_free_count += 1u;
        }
    }
    const uint64_t events = 2u * ((uint64_t)near_count + crossed_count) + listed;
    return events < UINT32_MAX / 8u && SHOVE_IFN(world_events_reserve)(w, (uint32_t)events);
}

static void SHOVE_IFN(world_tell)(shove_world *w, bool sensor, bool begin, uint32_t mover,
                                  uint32_t other, shove_vec normal) {
    if (sensor) {
        const bool other_is_sensor = (w->flags[other] & SHOVE_SLOT_SENSOR) != 0;
        const uint32_t visitor = other_is_sensor ? mover : other;
        const uint32_t zone = other_is_sensor ? other : mover;
        SHOVE_IFN(world_emit)
        (w, begin ? SHOVE_EVENT_SENSOR_ENTER : SHOVE_EVENT_SENSOR_EXIT,
         SHOVE_IFN(world_id)(w, visitor), SHOVE_IFN(world_id)(w, zone), shove_vec_splat(0.0f));
    } else {
        SHOVE_IFN(world_emit)
        (w, begin ? SHOVE_EVENT_CONTACT_BEGIN : SHOVE_EVENT_CONTACT_END,
         SHOVE_IFN(world_id)(w, mover), SHOVE_IFN(world_id)(w, other),
         begin ? normal : shove_vec_splat(0.0f));
    }
}

/* Body `slot` of a world, for response_to. */
typedef struct SHOVE_T(world_body) {
    const shove_world *w;
    uint32_t slot;
} SHOVE_T(world_body);

/* What a filter is shown of a body: its id and its box. */
static void SHOVE_IFN(world_describe_body)(const void *ctx, shove_obstacle *out) {
    const SHOVE_T(world_body) *b = ctx;
    memset(out, 0, sizeof *out);
    out->other = SHOVE_IFN(world_id)(b->w, b->slot);
    out->index = -1;
    out->box = b->w->box[b->slot];
}

/* The mover's response to `other` under `def`, as the slide core sees it:
 * the filter (or the default response); sensors turn anything but IGNORE
 * into CROSS. */
static shove_response SHOVE_IFN(world_response)(const shove_world *w, const shove_move_def *def,
                                                uint32_t mover, uint32_t other) {
    const SHOVE_T(world_body) body = {w, other};
    return SHOVE_IFN(response_to)(def, SHOVE_IFN(world_id)(w, mover),
                                  ((w->flags[mover] | w->flags[other]) & SHOVE_SLOT_SENSOR) != 0,
                                  SHOVE_IFN(world_describe_body), &body);
}

void SHOVE_IFN(world_update_pairs)(shove_world *w, uint32_t slot, const shove_move_def *def,
                                   const uint32_t *near, uint32_t near_count,
                                   const shove_contact *crossed, uint32_t crossed_count) {
    const shove_aabb box = w->box[slot];
    const float distance = SHOVE_IFN(world_contact_distance)(def->skin, box);
    const bool mover_is_sensor = (w->flags[slot] & SHOVE_SLOT_SENSOR) != 0;
    /* 1. Remember who the mover had pairs with. */
    for (uint32_t p = w->pair_head[slot]; p != SHOVE_TREE_NONE;) {
        const shove_pair *pp = &w->pairs[p];
        const int k = (pp->body[0] == slot) ? 0 : 1;
        w->mark[pp->body[1 - k]] = p + 1u;
        p = pp->next[k];
    }
    /* 2. Pairs now: keep the old ones, begin the new ones. */
    for (uint32_t i = 0; i < near_count; ++i) {
        const uint32_t other = near[i];
        const bool sensor = mover_is_sensor || (w->flags[other] & SHOVE_SLOT_SENSOR) != 0;
        if (other == slot || w->mark[other] == MARK_KEPT ||
            (mover_is_sensor && (w->flags[other] & SHOVE_SLOT_SENSOR)) ||
            !(w->flags[other] & SHOVE_SLOT_ALIVE) || !SHOVE_IFN(world_interacts)(w, slot, other)) {
            continue;
        }
        shove_vec normal = shove_vec_splat(0.0f);
        const bool now = sensor ? SHOVE_IFN(overlaps_unchecked)(box, w->box[other])
                                : SHOVE_IFN(world_touching)(box, w->box[other], distance, &normal);
        if (!now || SHOVE_IFN(world_response)(w, def, slot, other) == SHOVE_RESPONSE_IGNORE) {
            continue;
        }
        if (w->mark[other] == 0u) {
            const uint32_t p = w->pair_free;
            shove_pair *pp = &w->pairs[p];
            w->pair_free = pp->next[0];
            w->pair_free_count -= 1u;
            pp->body[0] = slot;
            pp->body[1] = other;
            pp->kind = sensor ? SHOVE_PAIR_SENSOR : SHOVE_PAIR_CONTACT;
            pp->next[0] = w->pair_head[slot];
            pp->next[1] = w->pair_head[other];
            w->pair_head[slot] = p;
            w->pair_head[other] = p;
            SHOVE_IFN(world_tell)(w, sensor, true, slot, other, normal);
        }
        w->mark[other] = MARK_KEPT;
    }
    /* 3. Bodies met on the way and left again. */
    for (uint32_t i = 0; i < crossed_count; ++i) {
        const uint32_t other = SHOVE_IFN(world_slot)(w, crossed[i].other);
        if (other == SHOVE_TREE_NONE || other == slot || w->mark[other] != 0u ||
            crossed[i].response == SHOVE_RESPONSE_IGNORE ||
            (mover_is_sensor && (w->flags[other] & SHOVE_SLOT_SENSOR))) {
            continue;
        }
        const bool sensor = mover_is_sensor || (w->flags[other] & SHOVE_SLOT_SENSOR) != 0;
        SHOVE_IFN(world_tell)(w, sensor, true, slot, other, crossed[i].normal);
        SHOVE_IFN(world_tell)(w, sensor, false, slot, other, shove_vec_splat(0.0f));
        w->mark[other] = MARK_TOLD;
    }
    /* 4. End the old pairs that were not kept. */
    uint32_t *link = &w->pair_head[slot];
    while (*link != SHOVE_TREE_NONE) {
        const uint32_t p = *link;
        shove_pair *pp = &w->pairs[p];
        const int k = (pp->body[0] == slot) ? 0 : 1;
        const uint32_t other = pp->body[1 - k];
        if (w->mark[other] == MARK_KEPT) {
            link = &pp->next[k];
            continue;
        }
        *link = pp->next[k];
        SHOVE_IFN(world_unlink_pair)(w, other, p);
        SHOVE_IFN(world_tell)
        (w, pp->kind == SHOVE_PAIR_SENSOR, false, slot, other, shove_vec_splat(0.0f));
        SHOVE_IFN(world_free_pair)(w, p);
    }
    /* 5. Clear the marks. */
    for (uint32_t p = w->pair_head[slot]; p != SHOVE_TREE_NONE;) {
        const shove_pair *pp = &w->pairs[p];
        const int k = (pp->body[0] == slot) ? 0 : 1;
        w->mark[pp->body[1 - k]] = 0u;
        p = pp->next[k];
    }
    for (uint32_t i = 0; i < near_count; ++i) {
        w->mark[near[i]] = 0u;
    }
    for (uint32_t i = 0; i < crossed_count; ++i) {
        const uint32_t other = SHOVE_IFN(world_slot)(w, crossed[i].other);
        if (other != SHOVE_TREE_NONE) {
            w->mark[other] = 0u;
        }
    }
}

/* >>queries --------------------------------------------------------------- */

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

/* >>debug drawing --------------------------------------------------------- */

/* Colours (0xRRGGBBAA) of shove3_world_draw. */
#define DRAW_STATIC      0x9E9E9EFFu /* grey */
#define DRAW_DYNAMIC     0x2196F3FFu /* blue */
#define DRAW_SENSOR      0xFFC107FFu /* amber */
#define DRAW_POINT       0xF44336FFu /* red */
#define DRAW_NORMAL      0x4CAF50FFu /* green */
#define DRAW_TREE_STATIC 0x9E9E9E60u /* faint grey */
#define DRAW_TREE_DYN    0x9C27B060u /* faint purple */

typedef struct SHOVE_T(world_draw_ctx) {
    const shove_debug_draw *draw;
    uint32_t color;
} SHOVE_T(world_draw_ctx);

static void SHOVE_IFN(world_draw_node)(void *vctx, shove_aabb loose, shove_aabb cell,
                                       uint32_t depth, uint32_t count) {
    const SHOVE_T(world_draw_ctx) *ctx = vctx;
    (void)loose;
    (void)depth;
    (void)count;
    ctx->draw->draw_box(ctx->draw->ctx, cell, ctx->color);
}

/* shove_world_draw on valid input, with the world locked. */
static void SHOVE_IFN(world_draw_locked)(const shove_world *w, const shove_debug_draw *draw) {
    if (draw->draw_bodies && draw->draw_box) {
        for (uint32_t slot = 0; slot < w->slot_count; ++slot) {
            const uint8_t f = w->flags[slot];
            if (!(f & SHOVE_SLOT_ALIVE)) {
                continue;
            }
            const uint32_t color = (f & SHOVE_SLOT_SENSOR)    ? DRAW_SENSOR
                                   : (f & SHOVE_SLOT_DYNAMIC) ? DRAW_DYNAMIC
                                                              : DRAW_STATIC;
            draw->draw_box(draw->ctx, w->box[slot], color);
        }
    }
    if (draw->draw_contacts) {
        for (uint32_t i = 0; i < w->drawn_count; ++i) {
            if (draw->draw_point) {
                draw->draw_point(draw->ctx, w->drawn[i].point, DRAW_POINT);
            }
            if (draw->draw_normal) {
                draw->draw_normal(draw->ctx, w->drawn[i].point, w->drawn[i].normal, DRAW_NORMAL);
            }
        }
    }
    if (draw->draw_tree && draw->draw_box) {
        SHOVE_T(world_draw_ctx) ctx = {draw, DRAW_TREE_STATIC};
        SHOVE_IFN(tree_each_node)(&w->trees[SHOVE_BODY_STATIC], SHOVE_IFN(world_draw_node), &ctx);
        ctx.color = DRAW_TREE_DYN;
        SHOVE_IFN(tree_each_node)(&w->trees[SHOVE_BODY_DYNAMIC], SHOVE_IFN(world_draw_node), &ctx);
    }
}

void SHOVE_FN(world_draw)(const shove_world *w, const shove_debug_draw *draw) {
    if (!w || !draw) {
        return;
    }
    SHOVE_IFN(world_lock_for_read)(w);
    SHOVE_IFN(world_draw_locked)(w, draw);
    SHOVE_IFN(world_unlock_after_read)(w);
}

#undef WORLD_KERNEL_OVERLAP
#undef MARK_KEPT
#undef MARK_TOLD
#undef DRAW_STATIC
#undef DRAW_DYNAMIC
#undef DRAW_SENSOR
#undef DRAW_POINT
#undef DRAW_NORMAL
#undef DRAW_TREE_STATIC
#undef DRAW_TREE_DYN
