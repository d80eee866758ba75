/*
 * body_settings.c: shove3_body_set_move_def and shove3_body_get_result,
 * a body's own move settings for the shove step and what its last move or
 * step did. Template: see dim.h.
 *
 * A body with its own settings holds 1 + the index of a resolved,
 * validated copy in the world's own_defs table (world.h); 0 means the
 * world's step_def. Setting them again overwrites the copy in place, so a
 * game that changes a body's settings every frame allocates nothing after
 * the first time; NULL or destroying the body puts the entry on a free
 * list. The step reads them through world_move_def_of (step.c).
 *
 * Results live in three per-slot arrays (delta, contact count, flags); the
 * box of a result is the body's box. shove3_move and the step write them
 * (move.c, step.c), body_create clears them.
 */
#include <string.h>

#include "defs.h"
#include "world/world.h"

void SHOVE_IFN(world_drop_move_def)(shove_world *w, uint32_t slot) {
    const uint32_t k = w->move_def[slot];
    if (k == 0u) {
        return;
    }
    w->own_defs[k - 1u].next_free = w->own_def_free;
    w->own_def_free = k - 1u;
    w->move_def[slot] = 0u;
}

/* A free entry of the own_defs table (grown when none is left), or
 * SHOVE_TREE_NONE when out of memory. */
static uint32_t SHOVE_IFN(body_settings_take_entry)(shove_world *w) {
    if (w->own_def_free != SHOVE_TREE_NONE) {
        const uint32_t k = w->own_def_free;
        w->own_def_free = w->own_defs[k].next_free;
        return k;
    }
    if (w->own_def_count >= SHOVE_WORLD_MAX_SLOTS ||
        !SHOVE_IFN(world_grow)(w, (void **)&w->own_defs, &w->own_def_capacity,
                               w->own_def_count + 1u, sizeof *w->own_defs)) {
        return SHOVE_TREE_NONE;
    }
    return w->own_def_count++;
}

shove_status SHOVE_FN(body_set_move_def)(shove_world *w, shove_id id, const shove_move_def *def) {
    if (!w) {
        return SHOVE_ERR_INVALID_ARGUMENT;
    }
    if (SHOVE_IFN(world_is_locked)(w)) {
        return SHOVE_ERR_LOCKED;
    }
    /* The rule of every def (defs.h), then the checks of the world's
     * step_def: the step writes no contacts, so those two fields are
     * dropped from the copy (as from the step_def) before validating. */
    shove_move_def resolved;
    shove_move_def copy;
    if (def) {
        const shove_move_def *r = SHOVE_IFN(move_def_resolve)(def, &resolved);
        if (!r) {
            return SHOVE_ERR_INVALID_ARGUMENT;
        }
        copy = SHOVE_IFN(world_step_settings)(*r);
        if (!SHOVE_IFN(move_def_is_valid)(&copy)) {
            return SHOVE_ERR_INVALID_ARGUMENT;
        }
    }
    const uint32_t slot = SHOVE_IFN(world_slot)(w, id);
    if (slot == SHOVE_TREE_NONE) {
        return SHOVE_ERR_STALE_ID;
    }
    if (!def) {
        SHOVE_IFN(world_drop_move_def)(w, slot);
        return SHOVE_OK;
    }
    if (w->move_def[slot] == 0u) {
        const uint32_t k = SHOVE_IFN(body_settings_take_entry)(w);
        if (k == SHOVE_TREE_NONE) {
            return SHOVE_ERR_OUT_OF_MEMORY;
        }
        w->move_def[slot] = k + 1u;
    }
    w->own_defs[w->move_def[slot] - 1u].def = copy;
    return SHOVE_OK;
}

shove_status SHOVE_FN(body_get_result)(const shove_world *w, shove_id id, shove_move_result *out) {
    if (!w || !out) {
        return SHOVE_ERR_INVALID_ARGUMENT;
    }
    const uint32_t slot = SHOVE_IFN(world_slot)(w, id);
    if (slot == SHOVE_TREE_NONE) {
        return SHOVE_ERR_STALE_ID;
    }
    const uint8_t f = w->last_flags[slot];
    shove_move_result r;
    memset(&r, 0, sizeof r);
    r.box = w->box[slot];
    r.delta = w->last_delta[slot];
    r.contact_count =
        w->last_contacts[slot] > (uint32_t)INT32_MAX ? INT32_MAX : (int)w->last_contacts[slot];
    r.on_ground = (f & SHOVE_RESULT_ON_GROUND) != 0u;
    r.hit_ceiling = (f & SHOVE_RESULT_HIT_CEILING) != 0u;
    r.hit_wall = (f & SHOVE_RESULT_HIT_WALL) != 0u;
    r.stepped = (f & SHOVE_RESULT_STEPPED) != 0u;
    *out = r;
    return SHOVE_OK;
}
