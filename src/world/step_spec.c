/*
 * step_spec.c: the speculative dry runs of shove3_world_step, on the
 * world's workers. Part of the shove step (step.c; template: see dim.h).
 *
 * Before the serial pass, every mover's dry run (push_move's step a: its
 * own motion, pushable bodies answering CROSS) runs in parallel against
 * the world as the step found it, which nothing changes meanwhile: read
 * only gathers (world_gather_ctx.read_only), a copy of the step's run per
 * mover, and per worker its own obstacle set, contact array and record
 * arena, none of which grows during the parallel part (what does not fit
 * is left to the serial pass, and the arena grows before the next step).
 * A run records every gather it makes: the gather's state and question
 * and every obstacle it answered, in order.
 *
 * The serial pass, when a mover's dry run comes with the same box, motion
 * and priority as the recorded one, asks each recorded question again of
 * the world as it is now and compares the answers, obstacle by obstacle,
 * bit for bit. The slide core is a function of its questions' answers
 * (and of the mover's box, motion, priority and the step's def, which
 * match; filters must answer the same for the same obstacle, as the
 * header asks), so when every answer matches, the recorded result is the
 * one the slide would compute now: it is taken, contacts and all, and the
 * world's gather set holds what the slide would have left there. On the
 * first difference (a body that moved earlier in the step, or a tree walk
 * that meets bodies in another order since bodies moved in the tree), the
 * dry run is computed as if there were no speculation. So the results do
 * not depend on the worker count or on which worker ran what: the serial
 * pass takes a record only when it equals what it would compute.
 *
 * What this saves is the slide core's work in dry runs whose
 * surroundings did not change before their turn (most movers of a sparse
 * scene; few in a packed crowd, where the earlier neighbours moved). The
 * gathers themselves are asked again in the serial pass, after a cheaper
 * look (has a body the record met moved?). That saving can be smaller
 * than what the parallel part costs (it is, in every scene of bench_step):
 * the step times itself, and where few records are taken or speculating
 * costs more than not, the next steps do not speculate (step_spec_done).
 */

/* One obstacle of a recorded gather (cell: voxels only, else zeros). */
typedef struct SHOVE_T(step_spec_obstacle) {
    shove_aabb box;
    shove_id id;
    int32_t index;
    int32_t cell[SHOVE_DIM];
    uint8_t flags;
} SHOVE_T(step_spec_obstacle);

/* One recorded gather: the gather's state before the call, its question,
 * then `count` obstacles. */
typedef struct SHOVE_T(step_spec_gather) {
    SHOVE_T(world_gather_ctx) before;
    shove_aabb box;
    shove_vec delta;
    float margin;
    uint32_t count;
} SHOVE_T(step_spec_gather);

/* A mover's recorded dry run (indexed by its rank in the step's order). */
struct SHOVE_T(step_spec) {
    shove_move_result res;
    shove_aabb start;
    shove_vec delta;
    size_t at; /* its record in the worker's arena: contacts, then gathers */
    uint32_t worker;
    uint32_t gathers;
    uint8_t priority;
    bool valid, asked, whole;
};

/* A worker's scratch. Sizes are fixed while the workers run; the wants
 * say what the last run asked for (arena: in all), for the next step. */
struct SHOVE_T(step_worker) {
    SHOVE_IFN(obstacle_set) set;
    shove_contact *contacts;
    uint32_t contact_capacity, contact_want;
    unsigned char *arena;
    size_t arena_capacity, arena_used, arena_want;
    size_t set_want;
};

/* Room the records of one worker get at first, and contacts per run. */
#define STEP_SPEC_ARENA_FIRST    ((size_t)1 << 18)
#define STEP_SPEC_CONTACTS_FIRST 64u
#define STEP_SPEC_SET_FIRST      256u
/* Movers a range of the parallel part holds at least. */
#define STEP_SPEC_MIN_RANGE 16u
#define STEP_SPEC_ALIGN     ((size_t)16)

static void SHOVE_IFN(step_spec_free)(shove_world *w, struct SHOVE_T(step_scratch) * s) {
    for (uint32_t k = 0; k < s->worker_slots; ++k) {
        struct SHOVE_T(step_worker) *wk = &s->workers[k];
        wk->set.fixed = false;
        SHOVE_IFN(obstacles_free)(&wk->set);
        SHOVE_IFN(world_realloc)(w, wk->contacts, wk->contact_capacity * sizeof *wk->contacts, 0);
        SHOVE_IFN(world_realloc)(w, wk->arena, wk->arena_capacity, 0);
    }
    SHOVE_IFN(world_realloc)(w, s->workers, (size_t)s->worker_slots * sizeof *s->workers, 0);
    SHOVE_IFN(world_realloc)(w, s->spec, (size_t)s->spec_capacity * sizeof *s->spec, 0);
    s->workers = NULL;
    s->worker_slots = 0;
    s->spec = NULL;
    s->spec_capacity = 0;
}

/* `at` rounded up to the arena's alignment. */
static inline size_t SHOVE_IFN(step_spec_align)(size_t at) {
    return (at + STEP_SPEC_ALIGN - 1u) & ~(STEP_SPEC_ALIGN - 1u);
}

/* `bytes` of the worker's arena (aligned), or NULL when they do not fit
 * (the want grows). */
static void *SHOVE_IFN(step_spec_take)(struct SHOVE_T(step_worker) * wk, size_t bytes) {
    const size_t at = SHOVE_IFN(step_spec_align)(wk->arena_used);
    /* everything asked for, kept or not: the room the next step gets */
    wk->arena_want += bytes + STEP_SPEC_ALIGN;
    if (at > wk->arena_capacity || bytes > wk->arena_capacity - at) {
        return NULL;
    }
    wk->arena_used = at + bytes;
    return wk->arena + at;
}

/* The source of a speculative run: the world's gather, read only, each
 * call recorded. */
typedef struct SHOVE_T(step_spec_recorder) {
    SHOVE_T(world_gather_ctx) * gather;
    struct SHOVE_T(step_worker) * wk;
    uint32_t gathers;
    bool overflow; /* something did not fit: the record is not used */
} SHOVE_T(step_spec_recorder);

static bool SHOVE_IFN(step_spec_gather)(void *vctx, shove_aabb box, shove_vec delta, float margin,
                                        SHOVE_IFN(obstacle_set) * out) {
    SHOVE_T(step_spec_recorder) *rec = vctx;
    SHOVE_T(step_spec_gather) *g = SHOVE_IFN(step_spec_take)(rec->wk, sizeof *g);
    if (!g || out->count != 0u) {
        rec->overflow = true; /* (the core clears the set before it asks) */
        return false;
    }
    g->before = *rec->gather;
    g->box = box;
    g->delta = delta;
    g->margin = margin;
    if (!SHOVE_IFN(world_gather)(rec->gather, box, delta, margin, out)) {
        if (out->count == out->capacity) {
            const size_t need = out->capacity * 2u;
            rec->wk->set_want = need > rec->wk->set_want ? need : rec->wk->set_want;
        }
        rec->overflow = true;
        return false;
    }
    g->count = (uint32_t)out->count;
    SHOVE_T(step_spec_obstacle) *o =
        SHOVE_IFN(step_spec_take)(rec->wk, (size_t)g->count * sizeof *o);
    if (!o && g->count > 0u) {
        rec->overflow = true;
        return false;
    }
    for (uint32_t i = 0; i < g->count; ++i) {
        memset(&o[i], 0, sizeof o[i]);
        o[i].box = SHOVE_IFN(obstacles_box)(out, i);
        o[i].id = out->id[i];
        o[i].index = out->index[i];
        o[i].flags = out->flags[i];
        if (out->flags[i] & SHOVE_OBSTACLE_VOXEL) {
            memcpy(o[i].cell, out->cell + (size_t)SHOVE_DIM * i, sizeof o[i].cell);
        }
    }
    rec->gathers += 1u;
    return true;
}

/* The dry run of mover i of the step's order, recorded into worker wk. */
static void SHOVE_IFN(step_spec_one)(const STEP_RUN *run, struct SHOVE_T(step_worker) * wk,
                                     uint32_t i, uint32_t worker) {
    struct SHOVE_T(step_scratch) *s = run->s;
    shove_world *w = run->w;
    struct SHOVE_T(step_spec) *spec = &s->spec[i];
    spec->valid = false;
    const uint32_t x = s->movers[i].slot;
    const shove_aabb start = w->box[x];
    const shove_vec d = w->motion[x];
    const uint8_t p = w->priority[x];
    /* The operation's fields as push_move sets them. */
    STEP_RUN local = *run;
    local.op_box = start;
    local.op_contact = SHOVE_IFN(world_contact_distance)(SHOVE_IFN(step_skin)(w, x), start);
    local.op_lift = run->up >= 0 && d.raw[run->up] > 0.0f;
    local.set_owner = STEP_NONE;
    SHOVE_T(step_filter_ctx) filter = {&local, x, p, true, false};
    shove_move_def def;
    SHOVE_T(world_gather_ctx) gather;
    SHOVE_IFN(step_slide_setup)(&local, x, start, &filter, &def, &gather);
    gather.read_only = true;
    def.contacts = wk->contacts;
    def.contact_capacity = (int)wk->contact_capacity;
    const size_t mark = wk->arena_used;
    SHOVE_T(step_spec_recorder) rec = {&gather, wk, 0u, false};
    const SHOVE_IFN(obstacle_source)
        source = {SHOVE_IFN(step_spec_gather), &rec, SHOVE_IFN(world_id)(w, x), NULL, NULL};
    shove_move_result res;
    bool whole = true;
    SHOVE_IFN(obstacles_clear)(&wk->set);
    const shove_status st =
        SHOVE_IFN(move_run)(&gather, start, d, &def, &source, &wk->set, &whole, &res);
    if (st == SHOVE_OK && !rec.overflow && (uint32_t)res.contact_count > wk->contact_capacity) {
        const uint32_t need = (uint32_t)res.contact_count;
        wk->contact_want = need > wk->contact_want ? need : wk->contact_want;
        rec.overflow = true;
    }
    shove_contact *contacts = NULL;
    if (st == SHOVE_OK && !rec.overflow && res.contact_count > 0) {
        contacts = SHOVE_IFN(step_spec_take)(wk, (size_t)res.contact_count * sizeof *contacts);
        rec.overflow = contacts == NULL;
    }
    if (st != SHOVE_OK || rec.overflow) {
        wk->arena_used = mark;
        return;
    }
    if (contacts) {
        memcpy(contacts, wk->contacts, (size_t)res.contact_count * sizeof *contacts);
    }
    /* The record: the gathers from `mark` on, the contacts after them. */
    spec->res = res;
    spec->start = start;
    spec->delta = d;
    spec->priority = p;
    spec->at = mark;
    spec->worker = worker;
    spec->gathers = rec.gathers;
    spec->asked = filter.asked;
    spec->whole = whole;
    spec->valid = true;
}

/* The parallel part's task. Through a game's task system it runs behind
 * the gate of workers.c: each mover at most once, on a worker in range
 * that no other thread uses meanwhile, whatever that system does. */
static void SHOVE_IFN(step_spec_task)(uint32_t begin, uint32_t end, uint32_t worker, void *vctx) {
    const STEP_RUN *run = vctx;
    struct SHOVE_T(step_scratch) *s = run->s;
    for (uint32_t i = begin; i < end && i < s->mover_count; ++i) {
        SHOVE_IFN(step_spec_one)(run, &s->workers[worker], i, worker);
    }
}

/* Grow a worker's scratch to what it wanted (or the first sizes). False
 * when the allocator says no (the step then speculates nothing). */
static bool SHOVE_IFN(step_spec_ready_worker)(shove_world *w, struct SHOVE_T(step_worker) * wk) {
    size_t arena = wk->arena_want > STEP_SPEC_ARENA_FIRST ? wk->arena_want : STEP_SPEC_ARENA_FIRST;
    if (arena > wk->arena_capacity) {
        arena += arena / 2u;
        unsigned char *a = SHOVE_IFN(world_realloc)(w, wk->arena, wk->arena_capacity, arena);
        if (!a) {
            return false;
        }
        wk->arena = a;
        wk->arena_capacity = arena;
    }
    uint32_t contacts =
        wk->contact_want > STEP_SPEC_CONTACTS_FIRST ? wk->contact_want : STEP_SPEC_CONTACTS_FIRST;
    if (contacts > wk->contact_capacity) {
        shove_contact *c = SHOVE_IFN(world_realloc)(
            w, wk->contacts, wk->contact_capacity * sizeof *c, (size_t)contacts * sizeof *c);
        if (!c) {
            return false;
        }
        wk->contacts = c;
        wk->contact_capacity = contacts;
    }
    const size_t set = wk->set_want > STEP_SPEC_SET_FIRST ? wk->set_want : STEP_SPEC_SET_FIRST;
    if (!SHOVE_IFN(obstacles_reserve)(&wk->set, set)) {
        return false;
    }
    wk->arena_used = 0;
    wk->arena_want = 0;
    wk->contact_want = 0;
    wk->set_want = 0;
    return true;
}

/* The parallel part: every mover's dry run, recorded. Speculates only
 * when the world has more than one worker or a task system of the game. */
static void SHOVE_IFN(step_spec_run)(STEP_RUN *run) {
    shove_world *w = run->w;
    struct SHOVE_T(step_scratch) *s = run->s;
    s->spec_on = false;
    s->spec_tried = 0;
    s->spec_taken = 0;
    s->spec_clock = 0;
    const uint32_t workers = w->tasks.worker_count;
    if ((workers <= 1u && !w->tasks.enqueue_task) || s->mover_count == 0u) {
        return;
    }
    s->spec_clock = shove__clock_ns();
    if (s->spec_policy.rest > 0u && !w->speculate_every_step) {
        s->spec_policy.rest -= 1u; /* the last records were of no use, or cost more */
        return;
    }
    if (s->worker_slots < workers) {
        struct SHOVE_T(step_worker) *grown =
            SHOVE_IFN(world_realloc)(w, s->workers, (size_t)s->worker_slots * sizeof *grown,
                                     (size_t)workers * sizeof *grown);
        if (!grown) {
            return;
        }
        for (uint32_t k = s->worker_slots; k < workers; ++k) {
            memset(&grown[k], 0, sizeof grown[k]);
            SHOVE_IFN(obstacles_init)(&grown[k].set, &w->alloc);
        }
        s->workers = grown;
        s->worker_slots = workers;
    }
    if (s->spec_capacity < s->mover_count) {
        uint32_t cap = s->mover_count + s->mover_count / 2u;
        struct SHOVE_T(step_spec) *grown = SHOVE_IFN(world_realloc)(
            w, s->spec, (size_t)s->spec_capacity * sizeof *grown, (size_t)cap * sizeof *grown);
        if (!grown) {
            return;
        }
        s->spec = grown;
        s->spec_capacity = cap;
    }
    for (uint32_t k = 0; k < workers; ++k) {
        if (!SHOVE_IFN(step_spec_ready_worker)(w, &s->workers[k])) {
            return;
        }
    }
    for (uint32_t i = 0; i < s->mover_count; ++i) {
        s->spec[i].valid = false; /* a range a task system skipped stays unused */
    }
    for (uint32_t k = 0; k < workers; ++k) {
        s->workers[k].set.fixed = true; /* no growing while the workers run */
    }
    shove__tasks_run(&w->tasks, SHOVE_IFN(step_spec_task), s->mover_count, STEP_SPEC_MIN_RANGE,
                     run);
    for (uint32_t k = 0; k < workers; ++k) {
        s->workers[k].set.fixed = false;
    }
    s->spec_on = true;
}

/* After the serial pass: the policy (workers.h) decides whether the next
 * steps speculate, from this step's wall time per mover and how many
 * records were taken. (Whether a step speculates never changes its
 * results, only its time.) */
static void SHOVE_IFN(step_spec_done)(struct SHOVE_T(step_scratch) * s) {
    /* 0 when the step could not speculate (no clock reading) or the clock
     * says nothing (none, or it went back): then only the records count */
    const uint64_t now = s->spec_clock != 0u ? shove__clock_ns() : 0u;
    const double cost =
        now > s->spec_clock ? (double)(now - s->spec_clock) / (double)s->mover_count : 0.0;
    shove__spec_policy_note(&s->spec_policy, s->spec_on, cost, s->spec_taken < s->mover_count / 4u);
    s->spec_on = false;
}

/* True when two obstacles are the same, bit for bit. */
static bool SHOVE_IFN(step_spec_same)(const SHOVE_IFN(obstacle_set) * set, size_t i,
                                      const SHOVE_T(step_spec_obstacle) * o) {
    const shove_aabb b = SHOVE_IFN(obstacles_box)(set, i);
    if (memcmp(&b, &o->box, sizeof b) != 0 || set->id[i].index != o->id.index ||
        set->id[i].generation != o->id.generation || set->index[i] != o->index ||
        set->flags[i] != o->flags) {
        return false;
    }
    return !(o->flags & SHOVE_OBSTACLE_VOXEL) ||
           memcmp(set->cell + (size_t)SHOVE_DIM * i, o->cell, sizeof o->cell) == 0;
}

/* The dry run of body x from `start` by d with priority p, from its
 * record, when the record's every gather gets the same answer now (see
 * the top). Fills what step_slide would: *res, w->crossed, the filter's
 * `asked`, w->obstacles and the run's gather-set fields. False: compute
 * it. */
/* The recorded gather at `*at` of the worker's arena and its obstacles
 * (`*obstacles`); moves `*at` past them, as step_spec_take laid them out. */
static inline const SHOVE_T(step_spec_gather) *
    SHOVE_IFN(step_spec_next)(const struct SHOVE_T(step_worker) * wk, size_t *at,
                              const SHOVE_T(step_spec_obstacle) * *obstacles) {
    size_t here = SHOVE_IFN(step_spec_align)(*at);
    const SHOVE_T(step_spec_gather) *g = (const void *)(wk->arena + here);
    here = SHOVE_IFN(step_spec_align)(here + sizeof *g);
    *obstacles = (const void *)(wk->arena + here);
    *at = here + (size_t)g->count * sizeof **obstacles;
    return g;
}

static bool SHOVE_IFN(step_spec_reuse)(STEP_RUN *run, uint32_t x, shove_aabb start, shove_vec d,
                                       uint8_t p, SHOVE_T(step_filter_ctx) * filter,
                                       shove_move_result *res) {
    struct SHOVE_T(step_scratch) *s = run->s;
    shove_world *w = run->w;
    if (!s->spec_on || run->failed || s->slots[x].state == 0u) {
        return false;
    }
    const struct SHOVE_T(step_spec) *spec = &s->spec[s->slots[x].order];
    if (!spec->valid || spec->priority != p || !SHOVE_IFN(step_same_box)(spec->start, start) ||
        memcmp(&spec->delta, &d, sizeof d) != 0) {
        return false;
    }
    s->spec_tried += 1u;
    const struct SHOVE_T(step_worker) *wk = &s->workers[spec->worker];
    /* First, without a tree walk: did a body the record met move? */
    size_t at = spec->at;
    for (uint32_t k = 0; k < spec->gathers; ++k) {
        const SHOVE_T(step_spec_obstacle) * o;
        const SHOVE_T(step_spec_gather) *g = SHOVE_IFN(step_spec_next)(wk, &at, &o);
        for (uint32_t i = 0; i < g->count; ++i) {
            const uint32_t slot =
                o[i].id.generation != 0u ? SHOVE_IFN(world_slot)(w, o[i].id) : SHOVE_TREE_NONE;
            if (slot != SHOVE_TREE_NONE && memcmp(&w->box[slot], &o[i].box, sizeof o[i].box) != 0) {
                return false;
            }
        }
    }
    /* Then every question again, every answer compared. */
    at = spec->at;
    SHOVE_T(world_gather_ctx) gather;
    memset(&gather, 0, sizeof gather);
    for (uint32_t k = 0; k < spec->gathers; ++k) {
        const SHOVE_T(step_spec_obstacle) * o;
        const SHOVE_T(step_spec_gather) *g = SHOVE_IFN(step_spec_next)(wk, &at, &o);
        gather = g->before;
        gather.read_only = false;
        SHOVE_IFN(obstacles_clear)(&w->obstacles);
        if (!SHOVE_IFN(world_gather)(&gather, g->box, g->delta, g->margin, &w->obstacles) ||
            w->obstacles.count != g->count) {
            return false;
        }
        for (uint32_t i = 0; i < g->count; ++i) {
            if (!SHOVE_IFN(step_spec_same)(&w->obstacles, i, &o[i])) {
                return false;
            }
        }
    }
    const uint32_t n = (uint32_t)spec->res.contact_count;
    if (!STEP_GROW(run, w->crossed, w->crossed_capacity, n > 32u ? n : 32u)) {
        return false;
    }
    if (n > 0u) {
        at = SHOVE_IFN(step_spec_align)(at);
        memcpy(w->crossed, wk->arena + at, (size_t)n * sizeof *w->crossed);
    }
    s->spec_taken += 1u;
    *res = spec->res;
    filter->asked = spec->asked;
    run->set_owner = spec->whole ? x : STEP_NONE;
    run->set_box = start;
    run->set_region = gather.region;
    return true;
}

#undef STEP_SPEC_ARENA_FIRST
#undef STEP_SPEC_CONTACTS_FIRST
#undef STEP_SPEC_SET_FIRST
#undef STEP_SPEC_MIN_RANGE
#undef STEP_SPEC_ALIGN
