/*
 * slots.c: the memory of a world's bodies. Every per-slot array (boxes,
 * ids, flags, pairs' heads, results, ...) lives in one block laid out by
 * world_slot_layout, so growing it is all or nothing; world_grow doubles
 * the other arrays of the world (pairs, events, scratch). Template: see
 * dim.h; the struct is in world.h.
 */
#include <string.h>

#include "world/world.h"

bool SHOVE_IFN(world_grow_to)(const shove_world *w, void **array, uint32_t *capacity, uint32_t need,
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
    const size_t occupied = SHOVE_IFN(world_lay)(&off, cap, sizeof(SHOVE_T(occupied)));
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
    w->occupied = (SHOVE_T(occupied) *)(void *)(block + occupied);
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
        memcpy(w->occupied, old.occupied, n * sizeof *w->occupied);
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
