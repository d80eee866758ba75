/*
 * step_slide.c: the slide runner of the shove step: the filter that makes
 * pushable bodies answer CROSS in a dry run, the move def and gather of a
 * slide (shared with the speculative dry runs, step_spec.c), the slide
 * itself, and what the final slide of an operation keeps for the commit
 * (its contacts, its result, its gather as the body's near list). Part of
 * the shove step (step.c; template: see dim.h).
 */

/* >>the slide runner ------------------------------------------------------ */

typedef struct SHOVE_T(step_filter_ctx) {
    STEP_RUN *run;
    uint32_t mover;
    uint8_t priority;
    bool dry;   /* pushable bodies answer CROSS */
    bool asked; /* the dry run asked about a pushable body */
} SHOVE_T(step_filter_ctx);

/* May the operation of `mover` with priority p push `slot`? Riders of a
 * rising mover always; what it stands on never (so the slide's ground,
 * step and edge probes see it); else when its priority is weaker (a larger
 * number than p). */
static bool SHOVE_IFN(step_pushable)(const STEP_RUN *run, uint32_t mover, uint8_t p,
                                     uint32_t slot) {
    if (!run->op_lift && p >= run->weakest) {
        return false; /* no body is weaker: the priority test below fails */
    }
    const shove_world *w = run->w;
    const uint8_t f = w->flags[slot];
    if (slot == mover || !(f & SHOVE_SLOT_DYNAMIC) || (f & SHOVE_SLOT_SENSOR) ||
        (w->flags[mover] & SHOVE_SLOT_SENSOR)) {
        return false;
    }
    if (run->op_lift &&
        SHOVE_IFN(step_rests)(run, run->op_box, w->box[slot], true, run->op_contact) &&
        SHOVE_IFN(step_is_solid)(SHOVE_IFN(step_body_response)(w, slot, mover))) {
        return true;
    }
    if (run->up >= 0 &&
        SHOVE_IFN(step_rests)(run, run->op_box, w->box[slot], false, run->op_contact)) {
        return false;
    }
    return w->priority[slot] > p;
}

static shove_response SHOVE_IFN(step_filter)(void *vctx, shove_id mover,
                                             const shove_obstacle *obstacle) {
    SHOVE_T(step_filter_ctx) *ctx = vctx;
    const shove_world *w = ctx->run->w;
    const shove_response r =
        SHOVE_IFN(response_to)(SHOVE_IFN(world_move_def_of)(w, ctx->mover), mover, false,
                               SHOVE_IFN(response_copy_obstacle), obstacle);
    if (ctx->dry && SHOVE_IFN(step_is_solid)(r)) {
        const uint32_t slot = SHOVE_IFN(world_slot)(w, obstacle->other);
        if (slot != SHOVE_TREE_NONE &&
            SHOVE_IFN(step_pushable)(ctx->run, ctx->mover, ctx->priority, slot)) {
            ctx->asked = true;
            return SHOVE_RESPONSE_CROSS;
        }
    }
    return r;
}

/* The move def and the gather of a slide of body `slot` from `box` (the
 * serial slide and the speculative dry run share them, so both run the
 * same slide). */
static void SHOVE_IFN(step_slide_setup)(const STEP_RUN *run, uint32_t slot, shove_aabb box,
                                        SHOVE_T(step_filter_ctx) * filter, shove_move_def *def,
                                        SHOVE_T(world_gather_ctx) * gather) {
    shove_world *w = run->w;
    const shove_move_def *own = SHOVE_IFN(world_move_def_of)(w, slot);
    *def = *own;
    def->filter = SHOVE_IFN(step_filter);
    def->filter_ctx = filter;
    SHOVE_IFN(move_gather_start)(gather, w, slot, box, own->skin, own->filter != NULL);
}

/* Slide body `slot` from `box` by `delta` through the world: move_slide,
 * the slide shove3_move runs; every contact ends in w->crossed. */
static bool SHOVE_IFN(step_slide)(STEP_RUN *run, uint32_t slot, shove_aabb box, shove_vec delta,
                                  SHOVE_T(step_filter_ctx) * filter, shove_move_result *out) {
    if (run->failed) {
        return false;
    }
    shove_move_def def;
    SHOVE_T(world_gather_ctx) gather;
    SHOVE_IFN(step_slide_setup)(run, slot, box, filter, &def, &gather);
    run->set_owner = STEP_NONE;
    bool whole = true;
    const shove_status s =
        SHOVE_IFN(move_slide)(&gather, box, delta, &def, &filter->asked, &whole, out);
    if (s != SHOVE_OK) {
        run->failed = true;
        run->status = s;
        return false;
    }
    /* One core run gathered once around `box`: w->obstacles covers the
     * bodies resting on it and under it. */
    run->set_owner = whole ? slot : STEP_NONE;
    run->set_box = box;
    run->set_region = gather.region;
    return true;
}

/* Keep the contacts of a slide that moved body `slot` (for the pairs). */
static void SHOVE_IFN(step_keep_contacts)(STEP_RUN *run, uint32_t slot, uint32_t count) {
    struct SHOVE_T(step_scratch) *s = run->s;
    const uint64_t need = (uint64_t)s->contact_count + count;
    if (count == 0 || !STEP_GROW(run, s->contacts, s->contact_capacity, need) ||
        !STEP_GROW(run, s->contact_slot, s->contact_slot_capacity, need)) {
        return;
    }
    memcpy(s->contacts + s->contact_count, run->w->crossed, count * sizeof *s->contacts);
    for (uint32_t i = 0; i < count; ++i) {
        s->contact_slot[s->contact_count + i] = slot;
    }
    s->contact_count += count;
}

/* Keep what the final slide of an operation of body x says for x's result
 * (body_get_result): its own motion's slide wins over carries. */
static void SHOVE_IFN(step_keep_result)(STEP_RUN *run, uint32_t x, const shove_move_result *res) {
    SHOVE_T(step_slot) *ss = &run->s->slots[x];
    if (ss->result_mark == run->step_stamp && ss->result_own && !run->own_motion) {
        return;
    }
    ss->result_mark = run->step_stamp;
    ss->result_own = run->own_motion;
    ss->result_contacts = SHOVE_IFN(world_result_contacts)(res);
    ss->result_flags = SHOVE_IFN(world_result_flags)(res);
}

/* After body x moved from `start` to `end` by a slide: when that slide's
 * gather covers every body within the contact distance of `end`, keep its
 * bodies as x's near list for the pair update (as shove3_move does), which
 * spares a tree query at the end of the step. */
static void SHOVE_IFN(step_keep_near)(STEP_RUN *run, uint32_t x, shove_aabb start, shove_aabb end) {
    struct SHOVE_T(step_scratch) *s = run->s;
    shove_world *w = run->w;
    if (run->failed || run->set_owner != x || !SHOVE_IFN(step_same_box)(run->set_box, start)) {
        return;
    }
    const float contact = SHOVE_IFN(world_contact_distance)(SHOVE_IFN(step_skin)(w, x), end);
    for (int a = 0; a < SHOVE_DIM; ++a) {
        if (!(run->set_region.min.raw[a] <= shove__next_down(end.min.raw[a] - contact) &&
              shove__next_up(end.max.raw[a] + contact) <= run->set_region.max.raw[a])) {
            return;
        }
    }
    const SHOVE_IFN(obstacle_set) *set = &w->obstacles;
    if (!STEP_GROW(run, s->near_kept, s->near_kept_capacity,
                   (uint64_t)s->near_kept_count + set->count)) {
        return;
    }
    SHOVE_T(step_slot) *ss = &s->slots[x];
    ss->near_first = s->near_kept_count;
    for (size_t i = 0; i < set->count; ++i) {
        if (set->id[i].generation != 0u) { /* voxels have the null id */
            s->near_kept[s->near_kept_count++] = set->id[i].index;
        }
    }
    ss->near_count = s->near_kept_count - ss->near_first;
    ss->near_mark = run->step_stamp;
}
