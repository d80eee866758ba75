/*
 * step_bodies.c: what the shove step does to bodies in the world: every
 * box change through the undo log (a step that fails is undone), who rests
 * on whom (riders and supports, read from the last slide's gather when it
 * covers them), and riders noted for a carry and queued in order. Part of
 * the shove step (step.c; template: see dim.h).
 */

/* >>box changes and undo -------------------------------------------------- */

static void SHOVE_IFN(step_set_box)(STEP_RUN *run, uint32_t slot, shove_aabb box) {
    struct SHOVE_T(step_scratch) *s = run->s;
    if (run->failed || SHOVE_IFN(step_same_box)(box, run->w->box[slot]) ||
        !STEP_GROW(run, s->log, s->log_capacity, (uint64_t)s->log_count + 1u)) {
        return;
    }
    s->log[s->log_count].slot = slot;
    s->log[s->log_count].box = run->w->box[slot];
    if (SHOVE_IFN(world_set_body_box)(run->w, slot, box) != SHOVE_OK) {
        run->failed = true;
        return;
    }
    s->log_count += 1u;
    s->slots[slot].near_mark = 0u; /* its near list is asked of the trees at the end */
}

/* Undo box changes back to log entry `mark`. Returns false (and leaves the
 * rest of the log) when the tree cannot get the memory to move a body back:
 * the world is then in the valid state after that entry. */
static bool SHOVE_IFN(step_undo_to)(STEP_RUN *run, uint32_t mark) {
    struct SHOVE_T(step_scratch) *s = run->s;
    while (s->log_count > mark) {
        const SHOVE_T(step_undo) *u = &s->log[s->log_count - 1u];
        if (SHOVE_IFN(world_set_body_box)(run->w, u->slot, u->box) != SHOVE_OK) {
            run->failed = true;
            return false;
        }
        s->slots[u->slot].near_mark = 0u;
        s->log_count -= 1u;
    }
    return true;
}

/* >>who rests on whom ------------------------------------------------------- */

/* True when `other` rests on `box` (above = true) or `box` rests on
 * `other` (above = false): the gap on the up axis is 0 .. `contact` (the
 * contact distance at `box`) and the footprints overlap strictly. */
static inline bool SHOVE_IFN(step_rests)(const STEP_RUN *run, shove_aabb box, shove_aabb other,
                                         bool above, float contact) {
    const int up = run->up;
    const float gap =
        above ? other.min.raw[up] - box.max.raw[up] : box.min.raw[up] - other.max.raw[up];
    return gap >= 0.0f && gap <= contact && SHOVE_IFN(step_overlap_except)(box, other, up);
}

/* Fill w->near with the dynamic, solid, non-sensor bodies resting on `box`
 * (above = true: the riders of body `slot`) or that `box` rests on (above =
 * false: its supports). Read from the gather of the last slide when it
 * covers them (the slide core widens its gather on the up axis by more
 * than the contact distance), else from the trees. Returns the count (0
 * when out of memory: the run then fails). */
static uint32_t SHOVE_IFN(step_resting)(STEP_RUN *run, uint32_t slot, shove_aabb box, bool above) {
    shove_world *w = run->w;
    const int up = run->up;
    if (run->failed || up < 0 || (w->flags[slot] & SHOVE_SLOT_SENSOR)) {
        return 0;
    }
    uint32_t n = 0;
    const float contact = SHOVE_IFN(world_contact_distance)(SHOVE_IFN(step_skin)(w, slot), box);
    if (run->set_owner == slot && SHOVE_IFN(step_same_box)(run->set_box, box)) {
        const SHOVE_IFN(obstacle_set) *set = &w->obstacles;
        if (set->count > 0 && !STEP_GROW(run, w->near, w->near_capacity, (uint64_t)set->count)) {
            return 0;
        }
        for (size_t i = 0; i < set->count; ++i) {
            const uint32_t o = SHOVE_IFN(world_slot)(w, set->id[i]);
            if (o != SHOVE_TREE_NONE) {
                w->near[n++] = o;
            }
        }
    } else {
        shove_aabb slab = box;
        if (above) {
            slab.min.raw[up] = box.max.raw[up];
            slab.max.raw[up] = box.max.raw[up] + contact;
        } else {
            slab.max.raw[up] = box.min.raw[up];
            slab.min.raw[up] = box.min.raw[up] - contact;
        }
        if (!SHOVE_IFN(world_collect_near)(w, slot, slab, 0.0f, &n)) {
            run->failed = true;
            return 0;
        }
    }
    /* A rider rests on `slot`: `slot` must be solid for the rider; a support
     * holds `slot`: it must be solid for `slot`. */
    uint32_t kept = 0;
    for (uint32_t i = 0; i < n; ++i) {
        const uint32_t o = w->near[i];
        const uint8_t f = w->flags[o];
        if (!(f & SHOVE_SLOT_DYNAMIC) || (f & SHOVE_SLOT_SENSOR) ||
            !SHOVE_IFN(step_rests)(run, box, w->box[o], above, contact)) {
            continue;
        }
        if (!SHOVE_IFN(step_is_solid)(above ? SHOVE_IFN(step_body_response)(w, o, slot)
                                            : SHOVE_IFN(step_body_response)(w, slot, o))) {
            continue;
        }
        w->near[kept++] = o;
    }
    return kept;
}

/* >>carrying riders -------------------------------------------------------- */

static int SHOVE_IFN(step_carry_order)(const void *pa, const void *pb) {
    const SHOVE_T(step_carry) *a = pa, *b = pb;
    if (a->key != b->key) {
        return a->key > b->key ? -1 : 1; /* front first */
    }
    const int c = SHOVE_IFN(step_box_order)(&a->from, &b->from);
    if (c != 0) {
        return c;
    }
    return (a->slot > b->slot) - (a->slot < b->slot);
}

/* Note the riders in w->near[0..n) of body `source`, about to move by
 * `carry` (its up part must not be positive), in s->riders. */
static void SHOVE_IFN(step_note_riders)(STEP_RUN *run, uint32_t source, uint32_t n, shove_vec carry,
                                        uint8_t p) {
    struct SHOVE_T(step_scratch) *s = run->s;
    shove_world *w = run->w;
    if (n == 0 || SHOVE_IFN(step_vec_is_zero)(carry) ||
        !STEP_GROW(run, s->riders, s->rider_capacity, (uint64_t)s->rider_count + n)) {
        return;
    }
    for (uint32_t i = 0; i < n; ++i) {
        SHOVE_T(step_carry) *c = &s->riders[s->rider_count++];
        c->slot = w->near[i];
        c->source = source;
        c->from = w->box[c->slot];
        c->carry = carry;
        /* a carried body pushes with the weaker (larger number) of its
         * platform's priority and its own (it is carried, not driven) */
        c->priority = w->priority[c->slot] > p ? w->priority[c->slot] : p;
        c->key = SHOVE_IFN(step_along)(SHOVE_IFN(step_center)(c->from), carry);
    }
}

/* Move the noted riders, sorted, to the carry queue. */
static void SHOVE_IFN(step_queue_riders)(STEP_RUN *run) {
    struct SHOVE_T(step_scratch) *s = run->s;
    const uint32_t n = s->rider_count;
    s->rider_count = 0;
    if (n == 0 || !STEP_GROW(run, s->queue, s->queue_capacity, (uint64_t)s->queue_count + n)) {
        return;
    }
    if (n > 1) {
        SHOVE_IFN(step_sort)(s->riders, n, sizeof *s->riders, SHOVE_IFN(step_carry_order));
    }
    memcpy(s->queue + s->queue_count, s->riders, n * sizeof *s->riders);
    s->queue_count += n;
}
