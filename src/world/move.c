/*
 * move.c: the world move's scratch, its retry loop and shove3_move.
 * Template: see dim.h; the world move (gather, pieces, scratch) is
 * described in move.h.
 *
 * move_slide is the one slide of a body through its world: shove3_move and
 * every slide of the shove step (step.c) run it. shove3_move then writes the
 * box back to the body and its tree and brings the mover's pairs up to date
 * (events, see pairs.c).
 */
#include <string.h>

#include "solve/slide_limits.h"
#include "world/move.h"
#include "world/world.h"

/* Contacts a move reports before its first run needs more room. */
#define MOVE_FIRST_CONTACTS 32u

void SHOVE_IFN(move_scratch_init)(shove_world *w, const shove_allocator *alloc) {
    /* near and crossed start empty: world_create zeroed the world */
    SHOVE_IFN(obstacles_init)(&w->obstacles, alloc);
}

void SHOVE_IFN(move_scratch_free)(shove_world *w) {
    SHOVE_IFN(obstacles_free)(&w->obstacles);
    SHOVE_IFN(world_realloc)(w, w->near, (size_t)w->near_capacity * sizeof *w->near, 0);
    SHOVE_IFN(world_realloc)(w, w->crossed, (size_t)w->crossed_capacity * sizeof *w->crossed, 0);
    w->near = NULL;
    w->near_capacity = 0;
    w->crossed = NULL;
    w->crossed_capacity = 0;
}

/* The obstacle source of a world move: the world's gather. */
static inline SHOVE_IFN(obstacle_source)
    SHOVE_IFN(move_source)(SHOVE_T(world_gather_ctx) * gather) {
    const SHOVE_IFN(obstacle_source)
        source = {SHOVE_IFN(world_gather), gather, SHOVE_IFN(world_id)(gather->w, gather->mover),
                  &gather->lean_room, SHOVE_IFN(world_gather_step_tried)};
    return source;
}

shove_status SHOVE_IFN(move_slide)(SHOVE_T(world_gather_ctx) * gather, shove_aabb box,
                                   shove_vec delta, shove_move_def *def, bool *asked, bool *whole,
                                   shove_move_result *out) {
    shove_world *w = gather->w;
    if (!SHOVE_IFN(world_grow)(w, (void **)&w->crossed, &w->crossed_capacity, MOVE_FIRST_CONTACTS,
                               sizeof *w->crossed)) {
        return SHOVE_ERR_OUT_OF_MEMORY;
    }
    const SHOVE_IFN(obstacle_source) source = SHOVE_IFN(move_source)(gather);
    for (;;) {
        if (asked) {
            *asked = false;
        }
        def->contacts = w->crossed;
        def->contact_capacity = (int)w->crossed_capacity;
        const shove_status s =
            SHOVE_IFN(move_run)(gather, box, delta, def, &source, &w->obstacles, whole, out);
        if (s != SHOVE_OK) {
            return s;
        }
        if ((uint32_t)out->contact_count <= w->crossed_capacity) {
            return SHOVE_OK;
        }
        /* More contacts than ever before: make room and run again (same
         * inputs, same answer). */
        if (!SHOVE_IFN(world_grow)(w, (void **)&w->crossed, &w->crossed_capacity,
                                   (uint32_t)out->contact_count, sizeof *w->crossed)) {
            return SHOVE_ERR_OUT_OF_MEMORY;
        }
    }
}

/* move_slide for a move whose contacts no one reads: a run of the slide
 * core whole counts them without writing them down (it never reads them
 * back). A move in pieces does read them (move_run_whole): it goes
 * through move_slide. Kept apart so the common move's code stays as it
 * was. */
static SLIDE_NOINLINE shove_status SHOVE_IFN(move_counted)(SHOVE_T(world_gather_ctx) * gather,
                                                           shove_aabb box, shove_vec delta,
                                                           shove_move_def *def, bool *whole,
                                                           shove_move_result *out) {
    /* def is the move's own copy; move_slide sets its contacts anyway */
    def->contacts = NULL;
    def->contact_capacity = 0;
    const SHOVE_IFN(obstacle_source) source = SHOVE_IFN(move_source)(gather);
    shove_status s;
    *whole =
        SHOVE_IFN(move_run_whole)(gather, box, delta, def, &source, &gather->w->obstacles, out, &s);
    return *whole ? s : SHOVE_IFN(move_slide)(gather, box, delta, def, NULL, whole, out);
}

/* Step 2 of a move that keeps pairs: the bodies near the end box into
 * w->near (*near_count of them), and room for the pair updates. Changes
 * nothing a caller can see. */
static shove_status SHOVE_IFN(move_pairs_prepare)(shove_world *w, uint32_t slot,
                                                  const shove_move_def *def,
                                                  const SHOVE_T(world_gather_ctx) * gather,
                                                  const shove_move_result *result,
                                                  uint32_t contact_count, uint32_t *near_count) {
    const float distance = SHOVE_IFN(world_contact_distance)(def->skin, result->box);
    /* Covered: the end box grown by the distance, then by one float step
     * on every side, lies in the region (a strict < is that float step). */
    bool covered = true;
    for (int a = 0; a < SHOVE_DIM; ++a) {
        covered = covered && gather->region.min.raw[a] < result->box.min.raw[a] - distance &&
                  result->box.max.raw[a] + distance < gather->region.max.raw[a];
    }
    if (covered) {
        const SHOVE_IFN(obstacle_set) *set = &w->obstacles;
        if (set->count > UINT32_MAX / 4u ||
            !SHOVE_IFN(world_grow)(w, (void **)&w->near, &w->near_capacity, (uint32_t)set->count,
                                   sizeof *w->near)) {
            return SHOVE_ERR_OUT_OF_MEMORY;
        }
        for (size_t i = 0; i < set->count; ++i) {
            if (set->id[i].generation != 0u) { /* voxels have the null id */
                w->near[(*near_count)++] = set->id[i].index;
            }
        }
    } else if (!SHOVE_IFN(world_collect_near)(w, slot, result->box, distance, near_count)) {
        return SHOVE_ERR_OUT_OF_MEMORY;
    }

    /* Everything that can fail, before anything changes. */
    if (!SHOVE_IFN(world_pairs_reserve)(w, slot, *near_count, contact_count, 0u)) {
        return SHOVE_ERR_OUT_OF_MEMORY;
    }
    return SHOVE_OK;
}

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
    /* 1. Run the slide core on what the trees gather. The world's own
     * contact array collects every contact (events need them all); the
     * caller's array gets its share afterwards. Contacts are judged at the
     * end box; the gather covers the distance around the start box and the
     * path, and step 2 checks the end. */
    SHOVE_T(world_gather_ctx) gather;
    SHOVE_IFN(move_gather_start)(&gather, w, slot, w->box[slot], def->skin, def->filter != NULL);
    gather.lean_room = !(w->flags[slot] & SHOVE_SLOT_STEP_TRIED);
    shove_move_def run = *def;
    shove_move_result result;
    bool whole;
    /* A quiet world keeps no pairs and draws no contacts: when the caller
     * asks for none either, no one reads them, and a run of the slide core
     * whole only counts them (contact_count; see move_counted). */
    const bool contacts_read = !w->quiet_moves || (def->contacts && def->contact_capacity > 0);
    shove_status s =
        contacts_read
            ? SHOVE_IFN(move_slide)(&gather, w->box[slot], delta, &run, NULL, &whole, &result)
            : SHOVE_IFN(move_counted)(&gather, w->box[slot], delta, &run, &whole, &result);
    if (s != SHOVE_OK) {
        return s;
    }
    const uint32_t contact_count = contacts_read ? (uint32_t)result.contact_count : 0u;

    /* 2. The bodies near the end box: the gathered set covers them unless
     * the mover was pushed out of something beyond the region asked. A
     * world of quiet moves keeps no pairs: none of that is needed. */
    uint32_t near_count = 0;
    if (!w->quiet_moves) {
        s = SHOVE_IFN(move_pairs_prepare)(w, slot, def, &gather, &result, contact_count,
                                          &near_count);
        if (s != SHOVE_OK) {
            return s;
        }
    }
    s = SHOVE_IFN(world_set_body_box)(w, slot, result.box);
    if (s != SHOVE_OK) {
        return s;
    }

    /* 3. Commit: the body's result (before any callback runs), events,
     * contacts to draw, the caller's contacts. */
    SHOVE_IFN(world_note_result)(w, slot, &result);
    w->flags[slot] = (uint8_t)((w->flags[slot] & ~SHOVE_SLOT_STEP_TRIED) |
                               (gather.step_tried ? SHOVE_SLOT_STEP_TRIED : 0u));
    SHOVE_IFN(world_events_begin)(w);
    if (!w->quiet_moves) {
        SHOVE_IFN(world_update_pairs)
        (w, slot, def, w->near, near_count, w->crossed, contact_count);
        for (uint32_t i = 0; i < contact_count; ++i) {
            SHOVE_IFN(world_add_drawn_contact)
            (w, result.box, w->crossed[i].other, w->crossed[i].normal);
        }
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

#undef MOVE_FIRST_CONTACTS
