/*
 * bodies.c: bodies and their ids: the body def, create and destroy, the
 * getters and setters of a body, and the world's count and walk of its
 * bodies. A body is a slot of the per-slot arrays (slots.c) and an entry
 * in one of the world's two trees, static or dynamic. Template: see dim.h.
 */
#include <string.h>

#include "world/world.h"

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

/* The slot of body `id`, for a call that changes the world: SHOVE_OK, or
 * what such a call returns for a NULL world, a locked world (inside one of
 * its callbacks) or a stale id. */
static shove_status SHOVE_IFN(body_slot_to_change)(shove_world *w, shove_id id, uint32_t *slot) {
    if (!w) {
        return SHOVE_ERR_INVALID_ARGUMENT;
    }
    if (SHOVE_IFN(world_is_locked)(w)) {
        return SHOVE_ERR_LOCKED;
    }
    *slot = SHOVE_IFN(world_slot)(w, id);
    return *slot == SHOVE_TREE_NONE ? SHOVE_ERR_STALE_ID : SHOVE_OK;
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
    SHOVE_IFN(world_filter_count)(w, dynamic, def->category, def->mask, true);
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
    } else {
        SHOVE_IFN(occupancy_enter)(w, slot);
    }
    *out = SHOVE_IFN(world_id)(w, slot);
    return SHOVE_OK;
}

shove_status SHOVE_FN(body_destroy)(shove_world *w, shove_id id) {
    uint32_t slot;
    const shove_status s = SHOVE_IFN(body_slot_to_change)(w, id, &slot);
    if (s != SHOVE_OK) {
        return s;
    }
    SHOVE_IFN(tree_remove)(SHOVE_IFN(world_tree_of)(w, slot), slot);
    SHOVE_IFN(world_filter_count)
    (w, (w->flags[slot] & SHOVE_SLOT_DYNAMIC) != 0, w->category[slot], w->mask[slot], false);
    if (!(w->flags[slot] & SHOVE_SLOT_DYNAMIC)) {
        w->static_count -= 1u;
        SHOVE_IFN(world_static_changed)(w);
    } else {
        SHOVE_IFN(occupancy_leave)(w, slot);
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
        } else {
            SHOVE_IFN(occupancy_moved)(w, slot);
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
    uint32_t slot;
    const shove_status s = SHOVE_IFN(body_slot_to_change)(w, id, &slot);
    if (s != SHOVE_OK) {
        return s;
    }
    w->user_data[slot] = user_data;
    return SHOVE_OK;
}

shove_status SHOVE_FN(body_set_priority)(shove_world *w, shove_id id, uint8_t priority) {
    uint32_t slot;
    const shove_status s = SHOVE_IFN(body_slot_to_change)(w, id, &slot);
    if (s != SHOVE_OK) {
        return s;
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
    SHOVE_IFN(world_filter_count)(w, !dynamic, w->category[slot], w->mask[slot], false);
    SHOVE_IFN(world_filter_count)(w, dynamic, w->category[slot], w->mask[slot], true);
    if (dynamic) {
        w->flags[slot] |= (uint8_t)SHOVE_SLOT_DYNAMIC;
        w->static_count -= 1u;
        SHOVE_IFN(occupancy_enter)(w, slot);
    } else {
        SHOVE_IFN(occupancy_leave)(w, slot);
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
    uint32_t slot;
    const shove_status s = SHOVE_IFN(body_slot_to_change)(w, id, &slot);
    if (s != SHOVE_OK) {
        return s;
    }
    const int tree = (w->flags[slot] & SHOVE_SLOT_DYNAMIC) != 0;
    SHOVE_IFN(world_filter_count)(w, tree, w->category[slot], w->mask[slot], false);
    SHOVE_IFN(world_filter_count)(w, tree, category, mask, true);
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
