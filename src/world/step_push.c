/*
 * step_push.c: one operation of the shove step, push_move (step.c, ">>One
 * operation"): the dry run, the pushes, the final run and the riders'
 * carry; and the carry queue that runs the carries an operation made.
 * Part of the shove step (template: see dim.h).
 */

/* >>one operation: push_move -------------------------------------------- */

/* What is left of a carry: the body should have moved by `carry` since it
 * was at `from`; only the rest, in the carry's own sense on every axis. */
static shove_vec SHOVE_IFN(step_carry_left)(shove_aabb now, shove_aabb from, shove_vec carry) {
    shove_vec left;
    for (int i = 0; i < SHOVE_DIM; ++i) {
        const float v = carry.raw[i] - (now.min.raw[i] - from.min.raw[i]);
        left.raw[i] = (carry.raw[i] > 0.0f)   ? (v > 0.0f ? v : 0.0f)
                      : (carry.raw[i] < 0.0f) ? (v < 0.0f ? v : 0.0f)
                                              : 0.0f;
    }
    return left;
}

static int SHOVE_IFN(step_push_order)(const void *pa, const void *pb) {
    const SHOVE_T(step_push) *a = pa, *b = pb;
    if (a->t != b->t) {
        return a->t < b->t ? -1 : 1;
    }
    if (a->axis != b->axis) {
        return a->axis < b->axis ? -1 : 1;
    }
    if (a->sign != b->sign) {
        return a->sign < b->sign ? -1 : 1;
    }
    const int c = SHOVE_IFN(step_box_order)(&a->box, &b->box);
    if (c != 0) {
        return c;
    }
    return (a->slot > b->slot) - (a->slot < b->slot);
}

/* Push every body in s->pushes clear of `target`, the box of `mover`
 * (which started at `start`) at the end of its move. */
static void SHOVE_IFN(step_push_all)(STEP_RUN *run, uint32_t mover, shove_aabb start,
                                     shove_aabb target, uint8_t p, bool record) {
    struct SHOVE_T(step_scratch) *s = run->s;
    for (uint32_t i = 0; i < s->push_count && !run->failed; ++i) {
        const SHOVE_T(step_push) pu = s->pushes[i];
        const int a = pu.axis;
        const float sgn = -pu.sign; /* the normal points back at the mover */
        /* The gap the body had to the mover, kept up to one skin. */
        const float gap = SHOVE_IFN(step_lo)(pu.box, a, sgn) - SHOVE_IFN(step_hi)(start, a, sgn);
        const float skin = SHOVE_IFN(step_skin)(run->w, mover);
        const float keep = gap < 0.0f ? 0.0f : (gap < skin ? gap : skin);
        const float face = SHOVE_IFN(step_hi)(target, a, sgn) + keep;
        if (SHOVE_IFN(step_lo)(run->w->box[pu.slot], a, sgn) < face) {
            SHOVE_IFN(step_chain)(run, mover, pu.slot, a, sgn, face, p, record);
        }
    }
}

/* The body under x's start box that is a mover still waiting for its turn
 * (the first of them in the step's order), else STEP_NONE: a platform
 * under a mover that still has to move goes first. */
static uint32_t SHOVE_IFN(step_pending_support)(STEP_RUN *run, uint32_t x, shove_aabb start) {
    shove_world *w = run->w;
    struct SHOVE_T(step_scratch) *s = run->s;
    const uint32_t n = SHOVE_IFN(step_resting)(run, x, start, false);
    uint32_t best = STEP_NONE;
    for (uint32_t i = 0; i < n; ++i) {
        const uint32_t o = w->near[i];
        const SHOVE_T(step_slot) *ss = &s->slots[o];
        if ((w->flags[o] & SHOVE_SLOT_HAS_MOTION) && ss->state == STEP_PENDING &&
            (best == STEP_NONE || ss->order < s->slots[best].order)) {
            best = o;
        }
    }
    return best;
}

/* step_pending_support, noted in x's wait mark when there is one (a mover
 * that waited looks before its dry run in the next step). */
static uint32_t SHOVE_IFN(step_waits_for)(STEP_RUN *run, uint32_t x, shove_aabb start) {
    const uint32_t best = SHOVE_IFN(step_pending_support)(run, x, start);
    if (best != STEP_NONE) {
        run->s->slots[x].wait_mark = run->step_stamp;
    }
    return best;
}

/* The pushable bodies the dry run of x from `start` walked into (the
 * first `count` contacts in w->crossed), in s->pushes in contact order
 * (ties by box). False when out of memory. */
static bool SHOVE_IFN(step_collect_pushes)(STEP_RUN *run, uint32_t x, uint8_t p, shove_aabb start,
                                           uint32_t count) {
    shove_world *w = run->w;
    struct SHOVE_T(step_scratch) *s = run->s;
    s->push_count = 0;
    if (!STEP_GROW(run, s->pushes, s->push_capacity, count)) {
        return false;
    }
    for (uint32_t i = 0; i < count; ++i) {
        const shove_contact *c = &w->crossed[i];
        const uint32_t o = SHOVE_IFN(world_slot)(w, c->other);
        if (c->response != SHOVE_RESPONSE_CROSS || o == SHOVE_TREE_NONE ||
            !SHOVE_IFN(step_pushable)(run, x, p, o) ||
            SHOVE_IFN(overlaps_unchecked)(start, w->box[o])) {
            continue;
        }
        int axis = 0;
        for (int k = 0; k < SHOVE_DIM; ++k) {
            axis = c->normal.raw[k] != 0.0f ? k : axis;
        }
        SHOVE_T(step_push) *pu = &s->pushes[s->push_count++];
        pu->slot = o;
        pu->box = w->box[o];
        pu->t = c->t;
        pu->axis = axis;
        pu->sign = c->normal.raw[axis];
    }
    if (s->push_count > 1) {
        SHOVE_IFN(step_sort)
        (s->pushes, s->push_count, sizeof *s->pushes, SHOVE_IFN(step_push_order));
    }
    return true;
}

/* b. and c. of push_move, after a dry run of x (in *res) that asked about
 * a pushable body: push the bodies it walked into clear of where x wants
 * to go, then the final run into *res. False when the run failed. */
static bool SHOVE_IFN(step_push_then_slide)(STEP_RUN *run, uint32_t x, shove_aabb start,
                                            shove_vec d, uint8_t p,
                                            SHOVE_T(step_filter_ctx) * filter,
                                            shove_move_result *res) {
    struct SHOVE_T(step_scratch) *s = run->s;
    /* The pushable bodies the dry run walked into. */
    const shove_aabb wanted = res->box;
    if (!SHOVE_IFN(step_collect_pushes)(run, x, p, start, (uint32_t)res->contact_count)) {
        return false;
    }
    /* b. Push them clear of where the mover wants to go. */
    const uint32_t log_mark = s->log_count;
    const uint32_t queue_mark = s->queue_count;
    SHOVE_IFN(step_push_all)(run, x, start, wanted, p, true);
    /* c. The final run, everything solid. */
    filter->dry = false;
    if (!SHOVE_IFN(step_slide)(run, x, start, d, filter, res)) {
        return false;
    }
    if (!SHOVE_IFN(step_same_box)(res->box, wanted) && s->log_count > log_mark) {
        /* Short of where it wanted: push again, just clear of where it
         * ends, and go straight there. */
        const shove_aabb end = res->box;
        const shove_vec moved = res->delta;
        if (!SHOVE_IFN(step_undo_to)(run, log_mark)) {
            return false;
        }
        s->queue_count = queue_mark;
        SHOVE_IFN(step_push_all)(run, x, start, end, p, false);
        if (!SHOVE_IFN(step_slide)(run, x, start, moved, filter, res)) {
            return false;
        }
    }
    return true;
}

/* d. of push_move: x goes to the end of its final run (*res) and its
 * riders are noted and queued for a carry: carried by the displacement
 * less its rise (riders were lifted by the pushes); found before x leaves
 * the start box (when x rose, they were found before the pushes, in
 * s->lifted). */
static void SHOVE_IFN(step_move_with_riders)(STEP_RUN *run, uint32_t x, shove_aabb start,
                                             const shove_move_result *res, bool lift, uint8_t p) {
    shove_world *w = run->w;
    struct SHOVE_T(step_scratch) *s = run->s;
    const int up = run->up;
    shove_vec carry = res->delta;
    if (up >= 0 && carry.raw[up] > 0.0f) {
        carry.raw[up] = 0.0f;
    }
    uint32_t riders = 0;
    if (up >= 0 && !SHOVE_IFN(step_vec_is_zero)(carry)) {
        if (lift) {
            riders = s->lifted_count;
            if (riders > 0 && STEP_GROW(run, w->near, w->near_capacity, riders)) {
                memcpy(w->near, s->lifted, riders * sizeof *w->near);
            }
        } else {
            riders = SHOVE_IFN(step_resting)(run, x, start, true);
        }
    }
    SHOVE_IFN(step_set_box)(run, x, res->box);
    SHOVE_IFN(step_keep_near)(run, x, start, res->box);
    if (riders > 0 && !run->failed) {
        SHOVE_IFN(step_note_riders)(run, x, riders, carry, p);
        SHOVE_IFN(step_queue_riders)(run);
    }
}

/* Move body x by d with effective priority p: slide, push, carry (step.c,
 * ">>One operation", steps a. to d.). A mover's own motion (own = true)
 * waits when x rests on a mover that has not moved yet: then nothing
 * changes and that mover is returned; else STEP_NONE. */
static uint32_t SHOVE_IFN(step_push_move)(STEP_RUN *run, uint32_t x, shove_vec d, uint8_t p,
                                          bool own) {
    shove_world *w = run->w;
    struct SHOVE_T(step_scratch) *s = run->s;
    if (run->failed || SHOVE_IFN(step_vec_is_zero)(d)) {
        return STEP_NONE;
    }
    const shove_aabb start = w->box[x];
    const int up = run->up;
    run->op_stamp = SHOVE_IFN(step_stamp)(s);
    run->op_box = start;
    run->op_contact = SHOVE_IFN(world_contact_distance)(SHOVE_IFN(step_skin)(w, x), start);
    run->op_lift = up >= 0 && d.raw[up] > 0.0f;
    const bool lift = run->op_lift;

    /* A platform under it that still has to move goes first. The dry run's
     * gather shows it the bodies under it; a mover that waited in the step
     * before (one of a stack that keeps moving) asks the tree first, and
     * spares a dry run that would be thrown away. */
    const bool looks = own && up >= 0;
    const bool looks_first =
        looks && s->last_step_stamp != 0u && s->slots[x].wait_mark == s->last_step_stamp;
    if (looks_first) {
        const uint32_t best = SHOVE_IFN(step_waits_for)(run, x, start);
        if (best != STEP_NONE) {
            return best;
        }
    }
    /* a. Dry run. */
    SHOVE_T(step_filter_ctx) filter = {run, x, p, true, false};
    shove_move_result res;
    if (!SHOVE_IFN(step_spec_reuse)(run, x, start, d, p, &filter, &res) &&
        !SHOVE_IFN(step_slide)(run, x, start, d, &filter, &res)) {
        return STEP_NONE;
    }
    if (looks && !looks_first) {
        const uint32_t best = SHOVE_IFN(step_waits_for)(run, x, start);
        if (best != STEP_NONE) {
            return best;
        }
    }
    /* The riders, while they still rest on the start box. */
    s->lifted_count = 0;
    if (lift) {
        const uint32_t n = SHOVE_IFN(step_resting)(run, x, start, true);
        if (n > 0 && STEP_GROW(run, s->lifted, s->lifted_capacity, n)) {
            memcpy(s->lifted, w->near, n * sizeof *s->lifted);
            s->lifted_count = n;
        }
    }
    /* b. and c. when the dry run walked into a pushable body. */
    if (filter.asked && !SHOVE_IFN(step_push_then_slide)(run, x, start, d, p, &filter, &res)) {
        return STEP_NONE;
    }
    SHOVE_IFN(step_keep_contacts)(run, x, (uint32_t)res.contact_count);
    SHOVE_IFN(step_keep_result)(run, x, &res);
    /* d. Riders. */
    SHOVE_IFN(step_move_with_riders)(run, x, start, &res, lift, p);
    return STEP_NONE;
}

/* Carry the queued riders, breadth first, until none is left. A rider that
 * still has its own motion to make keeps the carry for then (it is carried
 * right before its own motion, once, however many bodies below it moved
 * before: a tall stack costs a carry per body, not per pair); the others
 * are carried now. Carries from one body add up; from several bodies (a
 * rider across two platforms) the larger one per axis wins. */
static void SHOVE_IFN(step_carry_all)(STEP_RUN *run) {
    struct SHOVE_T(step_scratch) *s = run->s;
    shove_world *w = run->w;
    while (s->queue_head < s->queue_count && !run->failed) {
        const SHOVE_T(step_carry) c = s->queue[s->queue_head++];
        SHOVE_T(step_slot) *ss = &s->slots[c.slot];
        if ((w->flags[c.slot] & SHOVE_SLOT_HAS_MOTION) && c.slot != run->current &&
            (ss->state == STEP_PENDING || ss->state == STEP_STACKED)) {
            if (ss->carry_mark != run->step_stamp) {
                ss->carry_mark = run->step_stamp;
                ss->carry_from = c.from;
                ss->carry = c.carry;
                ss->carry_priority = c.priority;
            } else {
                for (int i = 0; i < SHOVE_DIM; ++i) {
                    const float have = ss->carry.raw[i], add = c.carry.raw[i];
                    if (c.source == ss->carry_source) {
                        ss->carry.raw[i] = have + add;
                    } else if (have == 0.0f || (have > 0.0f) == (add > 0.0f)) {
                        ss->carry.raw[i] = fabsf(add) > fabsf(have) ? add : have;
                    }
                }
                ss->carry_priority =
                    c.priority < ss->carry_priority ? c.priority : ss->carry_priority;
            }
            ss->carry_source = c.source;
            continue;
        }
        if (run->carries_left == 0) {
            break; /* a pathological pile: stop carrying (see the header) */
        }
        run->carries_left -= 1u;
        SHOVE_IFN(step_push_move)
        (run, c.slot, SHOVE_IFN(step_carry_left)(w->box[c.slot], c.from, c.carry), c.priority,
         false);
    }
    s->queue_head = 0;
    s->queue_count = 0;
}
