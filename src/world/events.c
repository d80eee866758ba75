/*
 * events.c: the events of the last call (shove3_world_get_events) and the
 * contact points debug drawing shows. A move or a step clears them
 * (world_events_begin), reserves room for what it may report, then emits;
 * pairs.c says which events a move reports and in what order. Template:
 * see dim.h.
 */
#include <string.h>

#include "world/world.h"

void SHOVE_IFN(world_events_begin)(shove_world *w) {
    w->event_count = 0;
    w->drawn_count = 0;
}

bool SHOVE_IFN(world_events_reserve)(shove_world *w, uint32_t events, uint32_t drawn) {
    if (events > UINT32_MAX / 8u - w->event_count || drawn > UINT32_MAX / 8u - w->drawn_count) {
        return false;
    }
    return SHOVE_IFN(world_grow)(w, (void **)&w->events, &w->event_capacity,
                                 w->event_count + events, sizeof *w->events) &&
           SHOVE_IFN(world_grow)(w, (void **)&w->drawn, &w->drawn_capacity, w->drawn_count + drawn,
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
