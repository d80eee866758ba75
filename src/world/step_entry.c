/*
 * step_entry.c: the shove step from its entry points: the movers' order
 * (step.c, ">>Order"), each mover's turn (platforms first), the check that
 * no body can leave float range, shove3_body_set_motion,
 * shove3_world_step, and the release of the step's scratch. Part of the
 * shove step (template: see dim.h).
 */

/* >>the step -------------------------------------------------------------- */

static int SHOVE_IFN(step_mover_order)(const void *pa, const void *pb) {
    const SHOVE_T(step_mover) *a = pa, *b = pb;
    if (a->key != b->key) {
        return a->key < b->key ? -1 : 1; /* priority, then front first */
    }
    const int c = SHOVE_IFN(step_box_order)(&a->box, &b->box);
    if (c != 0) {
        return c;
    }
    return (a->slot > b->slot) - (a->slot < b->slot);
}

/* Sort key of a mover: priority in the high bits, then the front value
 * mapped to an unsigned integer that grows as the float falls (largest
 * front first; -0 and +0 are one value). */
static uint64_t SHOVE_IFN(step_mover_key)(uint8_t priority, float front) {
    uint32_t bits;
    front = front + 0.0f; /* -0 becomes +0 */
    memcpy(&bits, &front, sizeof bits);
    /* ascending order of floats as unsigned: flip negatives, set the sign
     * bit of positives; then invert for descending */
    const uint32_t up = (bits & 0x80000000u) ? ~bits : (bits | 0x80000000u);
    return ((uint64_t)priority << 32) | (uint64_t)(~up);
}

/* Bits of the movers' sort key (step_mover_key: 8 of priority over 32 of
 * front) and of one pass of their radix sort. */
#define STEP_KEY_BITS     40
#define STEP_RADIX_BITS   8 /* 5 passes, their counts 5 KB on the stack */
#define STEP_RADIX_SIZE   (1u << STEP_RADIX_BITS)
#define STEP_RADIX_PASSES ((STEP_KEY_BITS + STEP_RADIX_BITS - 1) / STEP_RADIX_BITS)

/* Sort the movers in the step's order (step_mover_order). Their keys
 * nearly all differ, so a radix sort of the keys (least significant digit
 * first, each pass stable) does the work of n log n comparisons in five
 * passes; the runs of equal keys left (bodies with the same priority and
 * front) are then sorted by the whole order. That order is total, so the
 * result is the one any sort gives. False when out of memory. */
static bool SHOVE_IFN(step_sort_movers)(STEP_RUN *run) {
    struct SHOVE_T(step_scratch) *s = run->s;
    const uint32_t n = s->mover_count;
    if (n < 64u) {
        SHOVE_IFN(step_sort)(s->movers, n, sizeof *s->movers, SHOVE_IFN(step_mover_order));
        return true;
    }
    if (!STEP_GROW(run, s->movers_spare, s->movers_spare_capacity, n)) {
        return false;
    }
    /* every pass's counts in one read of the keys */
    _Static_assert(STEP_RADIX_PASSES * STEP_RADIX_BITS >= STEP_KEY_BITS,
                   "the passes cover the key");
    uint32_t count[STEP_RADIX_PASSES][STEP_RADIX_SIZE];
    memset(count, 0, sizeof count);
    for (uint32_t i = 0; i < n; ++i) {
        const uint64_t key = s->movers[i].key;
        for (int p = 0; p < STEP_RADIX_PASSES; ++p) {
            count[p][(key >> (p * STEP_RADIX_BITS)) & (STEP_RADIX_SIZE - 1u)] += 1u;
        }
    }
    SHOVE_T(step_mover) *from = s->movers, *to = s->movers_spare;
    for (int p = 0; p < STEP_RADIX_PASSES; ++p) {
        const int shift = p * STEP_RADIX_BITS;
        /* a digit every key shares (the priority of a scene with one) sorts nothing */
        if (count[p][(from[0].key >> shift) & (STEP_RADIX_SIZE - 1u)] == n) {
            continue;
        }
        uint32_t at = 0;
        for (uint32_t d = 0; d < STEP_RADIX_SIZE; ++d) {
            const uint32_t c = count[p][d];
            count[p][d] = at;
            at += c;
        }
        for (uint32_t i = 0; i < n; ++i) {
            const uint32_t d = (uint32_t)(from[i].key >> shift) & (STEP_RADIX_SIZE - 1u);
            to[count[p][d]++] = from[i];
        }
        SHOVE_T(step_mover) *t = from;
        from = to;
        to = t;
    }
    if (from != s->movers) {
        /* the sorted array becomes the movers, the old one the spare */
        const uint32_t cap = s->mover_capacity;
        s->movers_spare = s->movers;
        s->mover_capacity = s->movers_spare_capacity;
        s->movers = from;
        s->movers_spare_capacity = cap;
    }
    for (uint32_t i = 0; i < n;) {
        uint32_t end = i + 1u;
        while (end < n && s->movers[end].key == s->movers[i].key) {
            end += 1u;
        }
        if (end - i > 1u) {
            SHOVE_IFN(step_sort)
            (s->movers + i, end - i, sizeof *s->movers, SHOVE_IFN(step_mover_order));
        }
        i = end;
    }
    return true;
}

#undef STEP_KEY_BITS
#undef STEP_RADIX_BITS
#undef STEP_RADIX_SIZE
#undef STEP_RADIX_PASSES

/* Move `slot`, after the platforms it rests on that still have to move:
 * its deferred carry first (if any), then its own motion. */
static void SHOVE_IFN(step_process)(STEP_RUN *run, uint32_t slot) {
    struct SHOVE_T(step_scratch) *s = run->s;
    shove_world *w = run->w;
    uint32_t depth = 0;
    if (!STEP_GROW(run, s->stack, s->stack_capacity, 1u)) {
        return;
    }
    s->stack[depth++] = slot;
    s->slots[slot].state = STEP_STACKED;
    while (depth > 0 && !run->failed) {
        const uint32_t top = s->stack[depth - 1u];
        SHOVE_T(step_slot) *ss = &s->slots[top];
        run->current = top;
        uint32_t below = STEP_NONE;
        if (ss->carry_mark == run->step_stamp) {
            /* Carried first: platforms under it that have not moved yet
             * go before (this look costs a tree query; movers without a
             * carry look in their own dry run's gather instead). */
            const uint32_t n = SHOVE_IFN(step_resting)(run, top, w->box[top], false);
            for (uint32_t i = 0; i < n; ++i) {
                const uint32_t o = w->near[i];
                if ((w->flags[o] & SHOVE_SLOT_HAS_MOTION) && s->slots[o].state == STEP_PENDING &&
                    (below == STEP_NONE || s->slots[o].order < s->slots[below].order)) {
                    below = o;
                }
            }
            if (below == STEP_NONE) {
                ss->carry_mark = 0u;
                SHOVE_IFN(step_push_move)
                (run, top, SHOVE_IFN(step_carry_left)(w->box[top], ss->carry_from, ss->carry),
                 ss->carry_priority, false);
                SHOVE_IFN(step_carry_all)(run);
                ss = &s->slots[top];
            }
        }
        if (below == STEP_NONE) {
            run->own_motion = true;
            below = SHOVE_IFN(step_push_move)(run, top, w->motion[top], w->priority[top],
                                              ss->carry_mark != run->step_stamp);
            run->own_motion = false;
        }
        if (below != STEP_NONE) {
            if (!STEP_GROW(run, s->stack, s->stack_capacity, (uint64_t)depth + 1u)) {
                return;
            }
            s->stack[depth++] = below;
            s->slots[below].state = STEP_STACKED;
            continue;
        }
        depth -= 1u;
        s->slots[top].state = STEP_DONE;
        SHOVE_IFN(step_carry_all)(run);
    }
    run->current = STEP_NONE;
}

/* True when no body can leave float range in this step. A body moves by its
 * own motion, by pushes (at most the pusher's motion) and by carries (its
 * platform's displacement), so no body moves further on an axis than the sum
 * S of every pending motion there; a bounce may turn any of it around. The
 * step is allowed when every dynamic body's box grown by S (and 2^-16 S more:
 * room for the rounding of the pieces that add up to its displacement), plus
 * a step-up's reach on the up axis, is still finite. */
static bool SHOVE_IFN(step_reach_is_valid)(const shove_world *w) {
    double sum[SHOVE_DIM] = {0.0};
    for (uint32_t slot = 0; slot < w->slot_count; ++slot) {
        const uint8_t want = SHOVE_SLOT_ALIVE | SHOVE_SLOT_DYNAMIC | SHOVE_SLOT_HAS_MOTION;
        if ((w->flags[slot] & want) == want) {
            for (int a = 0; a < SHOVE_DIM; ++a) {
                sum[a] += fabs((double)w->motion[slot].raw[a]);
            }
        }
    }
    shove_vec grow;
    for (int a = 0; a < SHOVE_DIM; ++a) {
        const double g = sum[a] + sum[a] * 0x1p-16;
        if (!(g <= (double)FLT_MAX)) {
            return false;
        }
        grow.raw[a] = (float)g;
    }
    /* The largest step-up reach of any body's move settings, on their up
     * axis (a rider is lifted by its platform's step-up). */
    float rise[SHOVE_DIM] = {0.0f};
    if (w->step_def.up_axis >= 0) {
        rise[w->step_def.up_axis] = w->step_def.step_height + 4.0f * w->step_def.skin;
    }
    for (uint32_t slot = 0; slot < w->slot_count; ++slot) {
        const uint8_t want = SHOVE_SLOT_ALIVE | SHOVE_SLOT_DYNAMIC;
        const shove_move_def *def = SHOVE_IFN(world_move_def_of)(w, slot);
        if (w->move_def[slot] != 0u && (w->flags[slot] & want) == want && def->up_axis >= 0) {
            const float r = def->step_height + 4.0f * def->skin;
            rise[def->up_axis] = r > rise[def->up_axis] ? r : rise[def->up_axis];
        }
    }
    for (int a = 0; a < SHOVE_DIM; ++a) {
        grow.raw[a] += rise[a]; /* + 0 on the other axes: unchanged */
    }
    for (uint32_t slot = 0; slot < w->slot_count; ++slot) {
        const uint8_t want = SHOVE_SLOT_ALIVE | SHOVE_SLOT_DYNAMIC;
        if ((w->flags[slot] & want) != want) {
            continue;
        }
        for (int a = 0; a < SHOVE_DIM; ++a) {
            if (!isfinite(w->box[slot].min.raw[a] - grow.raw[a]) ||
                !isfinite(w->box[slot].max.raw[a] + grow.raw[a])) {
                return false;
            }
        }
    }
    return true;
}

shove_status SHOVE_FN(body_set_motion)(shove_world *w, shove_id id, shove_vec delta) {
    if (!w) {
        return SHOVE_ERR_INVALID_ARGUMENT;
    }
    if (SHOVE_IFN(world_is_locked)(w)) {
        return SHOVE_ERR_LOCKED;
    }
    if (!SHOVE_IFN(vec_is_finite)(delta)) {
        return SHOVE_ERR_INVALID_ARGUMENT;
    }
    const uint32_t slot = SHOVE_IFN(world_slot)(w, id);
    if (slot == SHOVE_TREE_NONE) {
        return SHOVE_ERR_STALE_ID;
    }
    if (!(w->flags[slot] & SHOVE_SLOT_DYNAMIC)) {
        return SHOVE_ERR_INVALID_ARGUMENT; /* static bodies never move */
    }
    if (!SHOVE_IFN(move_reach_is_valid)(w->box[slot], delta,
                                        SHOVE_IFN(world_move_def_of)(w, slot))) {
        return SHOVE_ERR_OUT_OF_RANGE; /* the motion alone would leave float range */
    }
    w->motion[slot] = delta;
    w->flags[slot] |= SHOVE_SLOT_HAS_MOTION;
    return SHOVE_OK;
}

/* shove_world_step, run while the world is locked against its callbacks. */
static shove_status SHOVE_IFN(world_step_locked)(shove_world *w) {
    if (!SHOVE_IFN(step_reach_is_valid)(w)) {
        return SHOVE_ERR_OUT_OF_RANGE;
    }
    if (!w->step) {
        struct SHOVE_T(step_scratch) *s = SHOVE_IFN(world_realloc)(w, NULL, 0, sizeof *s);
        if (!s) {
            return SHOVE_ERR_OUT_OF_MEMORY;
        }
        memset(s, 0, sizeof *s);
        w->step = s;
    }
    STEP_RUN run;
    memset(&run, 0, sizeof run);
    run.w = w;
    run.s = w->step;
    run.up = w->step_def.up_axis;
    run.set_owner = STEP_NONE;
    run.current = STEP_NONE;
    struct SHOVE_T(step_scratch) *s = run.s;

    /* Per-slot scratch (new entries start with every mark clear). */
    if (s->slot_capacity < w->slot_count) {
        const uint32_t old = s->slot_capacity;
        if (!STEP_GROW(&run, s->slots, s->slot_capacity, w->slot_count)) {
            return SHOVE_ERR_OUT_OF_MEMORY;
        }
        memset(s->slots + old, 0, (size_t)(s->slot_capacity - old) * sizeof *s->slots);
    }
    /* The movers, in the step's order. */
    s->mover_count = 0;
    for (uint32_t slot = 0; slot < w->slot_count; ++slot) {
        const uint8_t f = w->flags[slot];
        const uint8_t dynamic = SHOVE_SLOT_ALIVE | SHOVE_SLOT_DYNAMIC;
        if ((f & dynamic) == dynamic && !(f & SHOVE_SLOT_SENSOR) &&
            w->priority[slot] > run.weakest) {
            run.weakest = w->priority[slot]; /* a body others may push */
        }
        const uint8_t want = dynamic | SHOVE_SLOT_HAS_MOTION;
        if ((f & want) != want || SHOVE_IFN(step_vec_is_zero)(w->motion[slot])) {
            continue;
        }
        if (!STEP_GROW(&run, s->movers, s->mover_capacity, (uint64_t)s->mover_count + 1u)) {
            return SHOVE_ERR_OUT_OF_MEMORY;
        }
        SHOVE_T(step_mover) *mv = &s->movers[s->mover_count++];
        mv->slot = slot;
        mv->box = w->box[slot];
        const float front = SHOVE_IFN(step_along)(SHOVE_IFN(step_center)(mv->box), w->motion[slot]);
        mv->key = SHOVE_IFN(step_mover_key)(w->priority[slot], front);
    }
    if (!SHOVE_IFN(step_sort_movers)(&run)) {
        return SHOVE_ERR_OUT_OF_MEMORY;
    }
    for (uint32_t i = 0; i < s->mover_count; ++i) {
        s->slots[s->movers[i].slot].state = STEP_PENDING;
        s->slots[s->movers[i].slot].order = i;
    }
    run.step_stamp = SHOVE_IFN(step_stamp)(s);
    s->last_step_stamp = s->this_step_stamp;
    s->this_step_stamp = run.step_stamp;
    s->near_kept_count = 0;
    s->log_count = 0;
    s->queue_head = 0;
    s->queue_count = 0;
    s->rider_count = 0;
    s->squish_count = 0;
    s->contact_count = 0;
    /* A bound on carries per step, far above any sane scene, so a
     * pathological pile cannot loop for ever. */
    run.carries_left =
        64u + 16u * (w->body_count > UINT32_MAX / 32u ? UINT32_MAX / 32u : w->body_count);
    /* Every mover's dry run on the workers, for the serial pass to take
     * where nothing changed around it before its turn. */
    SHOVE_IFN(step_spec_run)(&run);

    for (uint32_t i = 0; i < s->mover_count && !run.failed; ++i) {
        const uint32_t slot = s->movers[i].slot;
        if (s->slots[slot].state == STEP_PENDING) {
            SHOVE_IFN(step_process)(&run, slot);
        }
    }
    SHOVE_IFN(step_spec_done)(s);
    const bool ok = !run.failed && SHOVE_IFN(step_commit)(&run);
    for (uint32_t i = 0; i < s->mover_count; ++i) {
        s->slots[s->movers[i].slot].state = 0;
    }
    if (!ok) {
        run.failed = false;
        SHOVE_IFN(step_undo_to)(&run, 0);
        return run.status != SHOVE_OK ? run.status : SHOVE_ERR_OUT_OF_MEMORY;
    }
    for (uint32_t slot = 0; slot < w->slot_count; ++slot) {
        w->flags[slot] &= (uint8_t)~SHOVE_SLOT_HAS_MOTION;
    }
    return SHOVE_OK;
}

shove_status SHOVE_FN(world_step)(shove_world *w) {
    if (!w) {
        return SHOVE_ERR_INVALID_ARGUMENT;
    }
    if (SHOVE_IFN(world_is_locked)(w)) {
        return SHOVE_ERR_LOCKED;
    }
    SHOVE_IFN(world_lock_for_change)(w);
    const shove_status s = SHOVE_IFN(world_step_locked)(w);
    SHOVE_IFN(world_unlock_after_change)(w);
    return s;
}

/* >>the scratch's release ------------------------------------------------- */

#define STEP_FREE_ARRAY(ptr, cap)                                                                  \
    SHOVE_IFN(world_realloc)(w, (ptr), (size_t)(cap) * sizeof *(ptr), 0)

void SHOVE_IFN(step_free)(shove_world *w) {
    struct SHOVE_T(step_scratch) *s = w->step;
    if (!s) {
        return;
    }
    STEP_FREE_ARRAY(s->slots, s->slot_capacity);
    STEP_FREE_ARRAY(s->movers, s->mover_capacity);
    STEP_FREE_ARRAY(s->movers_spare, s->movers_spare_capacity);
    STEP_FREE_ARRAY(s->log, s->log_capacity);
    STEP_FREE_ARRAY(s->queue, s->queue_capacity);
    STEP_FREE_ARRAY(s->riders, s->rider_capacity);
    STEP_FREE_ARRAY(s->lifted, s->lifted_capacity);
    STEP_FREE_ARRAY(s->squish, s->squish_capacity);
    STEP_FREE_ARRAY(s->pushes, s->push_capacity);
    STEP_FREE_ARRAY(s->nodes, s->node_capacity);
    STEP_FREE_ARRAY(s->edges, s->edge_capacity);
    STEP_FREE_ARRAY(s->ranks, s->rank_capacity);
    STEP_FREE_ARRAY(s->chain_riders, s->chain_rider_capacity);
    STEP_FREE_ARRAY(s->chain_queue, s->chain_queue_capacity);
    STEP_FREE_ARRAY(s->chain_rose, s->chain_rose_capacity);
    STEP_FREE_ARRAY(s->stack, s->stack_capacity);
    STEP_FREE_ARRAY(s->contacts, s->contact_capacity);
    STEP_FREE_ARRAY(s->contact_slot, s->contact_slot_capacity);
    STEP_FREE_ARRAY(s->sorted, s->sorted_capacity);
    STEP_FREE_ARRAY(s->moved, s->moved_capacity);
    STEP_FREE_ARRAY(s->near_all, s->near_all_capacity);
    STEP_FREE_ARRAY(s->near_kept, s->near_kept_capacity);
    STEP_FREE_ARRAY(s->near_range, s->near_range_capacity);
    STEP_FREE_ARRAY(s->contact_range, s->contact_range_capacity);
    SHOVE_IFN(step_spec_free)(w, s);
    SHOVE_IFN(world_realloc)(w, s, sizeof *s, 0);
    w->step = NULL;
}

#undef STEP_NONE
#undef STEP_RUN
#undef STEP_FREE_ARRAY
#undef STEP_GROW
