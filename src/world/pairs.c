/*
 * pairs.c: the pairs of bodies in contact and of bodies inside sensors,
 * kept between calls, and the events a move reports when they change.
 * Template: see dim.h; the pair list is in world.h.
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

#include "world/world.h"

/* Marks of world->mark during a pair update (other values: pair + 1). */
#define MARK_KEPT UINT32_MAX
#define MARK_TOLD (UINT32_MAX - 1u)

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
                                    uint32_t crossed_count, uint32_t extra_events) {
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
    const uint64_t events = 2u * ((uint64_t)near_count + crossed_count) + listed + extra_events;
    /* a contact is drawn for each crossed one, and nothing else is */
    return events < UINT32_MAX / 8u &&
           SHOVE_IFN(world_events_reserve)(w, (uint32_t)events, crossed_count);
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
        /* Its mark goes now: step 5 clears the marks of near bodies and
         * kept pairs, and a partner that was set far away since is
         * neither. Left, it would pass for a partner of the next mover to
         * meet it, which would then begin no pair. */
        w->mark[other] = 0u;
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

#undef MARK_KEPT
#undef MARK_TOLD
