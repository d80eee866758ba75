/*
 * step_commit.c: the end of a shove step, after every mover moved: the
 * bodies' results, then the squish events and the contact and sensor
 * pairs of every body the step moved (step.c, ">>Events and memory").
 * Everything that can fail is reserved before the first change. Part of
 * the shove step (template: see dim.h).
 */

/* The results of the bodies of s->moved (body_get_result): delta = how far
 * the min corner moved in the step (its first undo entry holds its box
 * before the step), flags and contact count from the slide step_keep_result
 * kept (clear when it only was pushed). */
static void SHOVE_IFN(step_write_results)(STEP_RUN *run) {
    struct SHOVE_T(step_scratch) *s = run->s;
    shove_world *w = run->w;
    for (uint32_t i = 0; i < s->moved_count; ++i) {
        const uint32_t slot = s->moved[i];
        const SHOVE_T(step_slot) *ss = &s->slots[slot];
        const bool slid = ss->result_mark == run->step_stamp;
        w->last_delta[slot] = shove_vec_splat(0.0f);
        w->last_contacts[slot] = slid ? ss->result_contacts : 0u;
        w->last_flags[slot] = slid ? ss->result_flags : 0u;
    }
    for (uint32_t i = s->log_count; i-- > 0;) {
        const uint32_t slot = s->log[i].slot;
        for (int a = 0; a < SHOVE_DIM; ++a) {
            w->last_delta[slot].raw[a] = w->box[slot].min.raw[a] - s->log[i].box.min.raw[a];
        }
    }
}

/* 1. The bodies whose pairs are brought up to date: those the step
 * moved, in the order they first moved, then the movers that did not
 * move, in the step's order (s->moved; their moved_mark is `mark`). False
 * when out of memory. */
static bool SHOVE_IFN(step_commit_bodies)(STEP_RUN *run, uint32_t mark) {
    struct SHOVE_T(step_scratch) *s = run->s;
    s->moved_count = 0;
    for (uint32_t i = 0; i < s->log_count + s->mover_count; ++i) {
        const uint32_t slot =
            (i < s->log_count) ? s->log[i].slot : s->movers[i - s->log_count].slot;
        if (s->slots[slot].moved_mark == mark) {
            continue;
        }
        if (!STEP_GROW(run, s->moved, s->moved_capacity, (uint64_t)s->moved_count + 1u)) {
            return false;
        }
        s->slots[slot].moved_mark = mark;
        s->slots[slot].moved = s->moved_count;
        s->moved[s->moved_count++] = slot;
    }
    return true;
}

/* 2. Their contacts, grouped by body (stable): s->sorted, a range per
 * body in s->contact_range; *kept = how many. False when out of memory. */
static bool SHOVE_IFN(step_commit_contacts)(STEP_RUN *run, uint32_t mark, uint32_t *kept_out) {
    struct SHOVE_T(step_scratch) *s = run->s;
    const uint32_t m = s->moved_count;
    if (!STEP_GROW(run, s->contact_range, s->contact_range_capacity, m) ||
        !STEP_GROW(run, s->near_range, s->near_range_capacity, m) ||
        !STEP_GROW(run, s->sorted, s->sorted_capacity, s->contact_count)) {
        return false;
    }
    for (uint32_t i = 0; i < m; ++i) {
        s->contact_range[i].first = 0;
        s->contact_range[i].count = 0;
    }
    uint32_t kept = 0;
    for (uint32_t i = 0; i < s->contact_count; ++i) {
        const uint32_t slot = s->contact_slot[i];
        if (s->slots[slot].moved_mark == mark) {
            s->contact_range[s->slots[slot].moved].count += 1u;
            kept += 1u;
        }
    }
    for (uint32_t i = 0, at = 0; i < m; ++i) {
        s->contact_range[i].first = at;
        at += s->contact_range[i].count;
        s->contact_range[i].count = 0;
    }
    for (uint32_t i = 0; i < s->contact_count; ++i) {
        const uint32_t slot = s->contact_slot[i];
        if (s->slots[slot].moved_mark == mark) {
            SHOVE_T(step_range) *r = &s->contact_range[s->slots[slot].moved];
            s->sorted[r->first + r->count++] = s->contacts[i];
        }
    }
    *kept_out = kept;
    return true;
}

/* 3. The bodies near each one's final box: kept from its last slide,
 * or asked of the trees (s->near_all, a range per body in s->near_range).
 * At its update, every body it has a pair with then is added: a body that
 * came close after that slide moved later, so it has this one on its own
 * list, and whichever of the two is updated first, the pair is begun or
 * kept, never ended. False when out of memory. */
static bool SHOVE_IFN(step_commit_near)(STEP_RUN *run) {
    struct SHOVE_T(step_scratch) *s = run->s;
    shove_world *w = run->w;
    s->near_all_count = 0;
    uint32_t longest = 0;
    for (uint32_t i = 0; i < s->moved_count; ++i) {
        const uint32_t slot = s->moved[i];
        const SHOVE_T(step_slot) *ss = &s->slots[slot];
        /* (no arithmetic on a NULL near_kept: an empty kept list has none) */
        const uint32_t *list = (ss->near_mark == run->step_stamp && s->near_kept)
                                   ? s->near_kept + ss->near_first
                                   : NULL;
        uint32_t n = ss->near_mark == run->step_stamp ? ss->near_count : 0u;
        if (ss->near_mark != run->step_stamp) {
            if (!SHOVE_IFN(world_collect_near)(
                    w, slot, w->box[slot],
                    SHOVE_IFN(world_contact_distance)(SHOVE_IFN(step_skin)(w, slot), w->box[slot]),
                    &n)) {
                run->failed = true;
                return false;
            }
            list = w->near;
        }
        if (!STEP_GROW(run, s->near_all, s->near_all_capacity, (uint64_t)s->near_all_count + n)) {
            return false;
        }
        s->near_range[i].first = s->near_all_count;
        s->near_range[i].count = n;
        if (n > 0) {
            memcpy(s->near_all + s->near_all_count, list, n * sizeof *list);
            s->near_all_count += n;
        }
        longest = n > longest ? n : longest;
    }
    /* Room for the longest list plus every pair there may be by then. */
    const uint64_t pairs_now = (uint64_t)w->pair_capacity - w->pair_free_count;
    return STEP_GROW(run, w->near, w->near_capacity,
                     (uint64_t)longest + pairs_now + s->near_all_count);
}

/* 4. Room for every pair, event and drawn contact. The commit emits the
 * squishes, then for each body (world_update_pairs) at most a begin per
 * body on its near list, a begin and an end per contact it kept, and the
 * ends of its pairs; a pair ends at most once, so all the ends are at most
 * the pairs in use plus those begun. In all at most squish + 2 * near +
 * 2 * kept + in_use. world_pairs_reserve counts 2 * (near + contacts) +
 * the first body's pairs; it is given the totals (`kept`: the contacts
 * kept by 2., each drawn once) and, as more events, the squishes and
 * twice the pairs in use (once more than needed). False when out of
 * memory. */
static bool SHOVE_IFN(step_commit_reserve)(STEP_RUN *run, uint32_t kept) {
    struct SHOVE_T(step_scratch) *s = run->s;
    shove_world *w = run->w;
    const uint32_t m = s->moved_count;
    const uint64_t in_use = (uint64_t)w->pair_capacity - w->pair_free_count;
    const uint64_t more_events = 2u * in_use + s->squish_count;
    if (m > 0 && (more_events > UINT32_MAX / 8u ||
                  !SHOVE_IFN(world_pairs_reserve)(w, s->moved[0], s->near_all_count, kept,
                                                  (uint32_t)more_events))) {
        run->failed = true;
        return false;
    }
    if (m == 0 && s->squish_count > 0 && !SHOVE_IFN(world_events_reserve)(w, s->squish_count, 0u)) {
        run->failed = true;
        return false;
    }
    return true;
}

/* 5. Commit: the results first (callbacks may read them), then events:
 * the squishes, then every moved body's pairs and drawn contacts. */
static void SHOVE_IFN(step_commit_emit)(STEP_RUN *run) {
    struct SHOVE_T(step_scratch) *s = run->s;
    shove_world *w = run->w;
    SHOVE_IFN(step_write_results)(run);
    SHOVE_IFN(world_events_begin)(w);
    for (uint32_t i = 0; i < s->squish_count; ++i) {
        const SHOVE_T(step_squish) *q = &s->squish[i];
        SHOVE_IFN(world_emit)
        (w, SHOVE_EVENT_SQUISH, SHOVE_IFN(world_id)(w, q->body), SHOVE_IFN(world_id)(w, q->pusher),
         q->normal);
    }
    for (uint32_t i = 0; i < s->moved_count; ++i) {
        const uint32_t slot = s->moved[i];
        const SHOVE_T(step_range) nr = s->near_range[i];
        const SHOVE_T(step_range) cr = s->contact_range[i];
        uint32_t n = nr.count;
        if (n > 0) {
            memcpy(w->near, s->near_all + nr.first, n * sizeof *w->near);
        }
        for (uint32_t p = w->pair_head[slot]; p != SHOVE_TREE_NONE;
             p = (w->pairs[p].body[0] == slot) ? w->pairs[p].next[0] : w->pairs[p].next[1]) {
            w->near[n++] =
                (w->pairs[p].body[0] == slot) ? w->pairs[p].body[1] : w->pairs[p].body[0];
        }
        SHOVE_IFN(world_update_pairs)
        (w, slot, SHOVE_IFN(world_move_def_of)(w, slot), w->near, n,
         cr.count ? s->sorted + cr.first : NULL, cr.count);
        for (uint32_t k = cr.first; k < cr.first + cr.count; ++k) {
            SHOVE_IFN(world_add_drawn_contact)
            (w, w->box[slot], s->sorted[k].other, s->sorted[k].normal);
        }
    }
}

/* After every move: events and pairs. Everything that can fail comes
 * before the first change (1. to 4.; 5. changes the world). */
static bool SHOVE_IFN(step_commit)(STEP_RUN *run) {
    const uint32_t mark = SHOVE_IFN(step_stamp)(run->s);
    uint32_t kept = 0;
    if (!SHOVE_IFN(step_commit_bodies)(run, mark) ||
        !SHOVE_IFN(step_commit_contacts)(run, mark, &kept) || !SHOVE_IFN(step_commit_near)(run) ||
        !SHOVE_IFN(step_commit_reserve)(run, kept)) {
        return false;
    }
    SHOVE_IFN(step_commit_emit)(run);
    return true;
}
