/*
 * step_chain.c: the chain push of the shove step (step.c, ">>Chain push"):
 * one body pushed along one axis to a face, the bodies ahead gathered into
 * a graph of nodes and walls, then budgets, reaches, moves, placement with
 * float care, squishes and the riders of the pushed bodies, one phase a
 * function. Part of the shove step (template: see dim.h).
 */

/* >>chain push -------------------------------------------------------------- */

static int SHOVE_IFN(step_rank_order)(const void *pa, const void *pb) {
    const SHOVE_T(step_rank) *a = pa, *b = pb;
    if (a->lo != b->lo) {
        return a->lo > b->lo ? -1 : 1; /* front first */
    }
    if (a->hi != b->hi) {
        return a->hi > b->hi ? -1 : 1;
    }
    const int c = SHOVE_IFN(step_box_order)(&a->box, &b->box);
    if (c != 0) {
        return c;
    }
    return (a->slot > b->slot) - (a->slot < b->slot);
}

/* Node of body `slot` in the current chain, created when new. */
static uint32_t SHOVE_IFN(step_node_of)(STEP_RUN *run, uint32_t slot, uint32_t chain, int a,
                                        float sgn) {
    struct SHOVE_T(step_scratch) *s = run->s;
    SHOVE_T(step_slot) *ss = &s->slots[slot];
    if (ss->node_mark == chain) {
        return ss->node;
    }
    if (!STEP_GROW(run, s->nodes, s->node_capacity, (uint64_t)s->node_count + 1u)) {
        return STEP_NONE;
    }
    const uint32_t k = s->node_count++;
    SHOVE_T(step_node) *n = &s->nodes[k];
    memset(n, 0, sizeof *n);
    n->slot = slot;
    n->box = run->w->box[slot];
    n->lo = SHOVE_IFN(step_lo)(n->box, a, sgn);
    n->hi = SHOVE_IFN(step_hi)(n->box, a, sgn);
    n->wall_lo = INFINITY;
    n->wall_run = INFINITY;
    n->pusher = STEP_NONE;
    n->pushed_by = -INFINITY;
    ss->node_mark = chain;
    ss->node = k;
    return k;
}

/* What one chain push shares across its phases. */
typedef struct SHOVE_T(step_chain_push) {
    uint32_t mover; /* the body doing the push, never pushed itself */
    uint32_t stamp; /* this chain (step_slot.node_mark) */
    int a;          /* the axis of the push */
    float sgn;      /* its direction */
    float budget0;  /* how far the first body is asked to move */
    float slack;    /* a few float steps at the first body's box */
    uint8_t p;      /* the priority it pushes with */
    bool carries;   /* pushed sideways or down, a node carries its riders */
} SHOVE_T(step_chain_push);

/* Node k of a chain looking ahead: what the obstacles of its gather are
 * compared with. A pushed body keeps the skin of its own move settings to
 * what is ahead of it, and answers with their filter and response. */
typedef struct SHOVE_T(step_chain_look) {
    uint32_t k;
    shove_aabb box;
    float hi;  /* leading face in u */
    bool flat; /* no depth along the push */
    const shove_move_def *def;
    float skin;
    float contact; /* contact distance at its box */
} SHOVE_T(step_chain_look);

/* Obstacle i of the gather of node look->k: a rider of it, a node ahead
 * (with an edge to it) or a wall, or nothing in its way. False when out of
 * memory (the chain stops). */
static bool SHOVE_IFN(step_chain_meet)(STEP_RUN *run, const SHOVE_T(step_chain_push) * c,
                                       const SHOVE_T(step_chain_look) * look, size_t i) {
    struct SHOVE_T(step_scratch) *s = run->s;
    shove_world *w = run->w;
    const int a = c->a;
    const float sgn = c->sgn;
    const uint32_t k = look->k;
    const shove_aabb yb = look->box;
    const float y_hi = look->hi;
    const shove_move_def *y_def = look->def;
    const float skin = look->skin;
    const float y_contact = look->contact;
    const SHOVE_IFN(obstacle_set) *set = &w->obstacles;
    if (set->flags[i] & SHOVE_OBSTACLE_SENSOR) {
        return true;
    }
    const shove_aabb ob = SHOVE_IFN(obstacles_box)(set, i);
    /* A rider, when the platform is solid for it; what cannot ride
     * (voxels, static bodies) resting on a platform is not in its way. */
    if (c->carries && SHOVE_IFN(step_rests)(run, yb, ob, true, y_contact)) {
        const uint32_t o = SHOVE_IFN(world_slot)(w, set->id[i]);
        const bool rider = o != SHOVE_TREE_NONE && (w->flags[o] & SHOVE_SLOT_DYNAMIC);
        if (!rider) {
            return true;
        }
        if (SHOVE_IFN(step_is_solid)(SHOVE_IFN(step_body_response)(w, o, s->nodes[k].slot))) {
            if (STEP_GROW(run, s->chain_riders, s->chain_rider_capacity,
                          (uint64_t)s->chain_rider_count + 1u)) {
                s->chain_riders[s->chain_rider_count++] = o;
            }
            return true;
        }
    }
    if (!SHOVE_IFN(step_overlap_except)(yb, ob, a)) {
        return true;
    }
    const float o_lo = SHOVE_IFN(step_lo)(ob, a, sgn);
    const float o_hi = SHOVE_IFN(step_hi)(ob, a, sgn);
    /* Ahead: at or beyond the leading face, and not two flat boxes
     * in one plane (those never overlap, whatever the motion). */
    if (!(o_lo >= y_hi) || (look->flat && !(o_hi > o_lo))) {
        return true;
    }
    const float gap = o_lo - y_hi;
    const float run_free = (gap > skin) ? gap - skin : 0.0f;
    if (y_def->filter) {
        shove_obstacle described;
        SHOVE_IFN(obstacles_describe)(set, i, &described);
        if (!SHOVE_IFN(step_is_solid)(SHOVE_IFN(step_response)(w, s->nodes[k].slot, &described))) {
            return true;
        }
    } else if (!SHOVE_IFN(step_is_solid)(y_def->response)) {
        return true;
    }
    const uint32_t o = SHOVE_IFN(world_slot)(w, set->id[i]);
    const bool lift = a == run->up && sgn > 0.0f && gap <= y_contact;
    /* Beyond every budget a body is never pushed: a wall, for the
     * clamp of the placement (step_chain_clamp) only, since its run is too
     * long to limit a reach. */
    if (o != SHOVE_TREE_NONE && o != c->mover && (w->flags[o] & SHOVE_SLOT_DYNAMIC) &&
        !(w->flags[o] & SHOVE_SLOT_SENSOR) && (w->priority[o] > c->p || lift) &&
        run_free < c->budget0) {
        const uint32_t node = SHOVE_IFN(step_node_of)(run, o, c->stamp, a, sgn);
        if (node == STEP_NONE ||
            !STEP_GROW(run, s->edges, s->edge_capacity, (uint64_t)s->edge_count + 1u)) {
            return false;
        }
        SHOVE_T(step_edge) *e = &s->edges[s->edge_count++];
        e->to = node;
        e->run = run_free;
        e->keep = (gap < skin) ? gap : skin;
    } else {
        SHOVE_T(step_node) *y = &s->nodes[k];
        y->wall_lo = o_lo < y->wall_lo ? o_lo : y->wall_lo;
        y->wall_run = run_free < y->wall_run ? run_free : y->wall_run;
    }
    return true;
}

/* Node k's edges, walls and riders, from a gather ahead of it (over its
 * top by the contact distance when it carries riders). False when the
 * chain stops (out of memory, or the gather failed). */
static bool SHOVE_IFN(step_chain_look_ahead)(STEP_RUN *run, const SHOVE_T(step_chain_push) * c,
                                             SHOVE_T(world_gather_ctx) * gather, uint32_t k) {
    struct SHOVE_T(step_scratch) *s = run->s;
    shove_world *w = run->w;
    SHOVE_T(step_chain_look) look;
    look.k = k;
    look.box = s->nodes[k].box;
    look.hi = s->nodes[k].hi;
    look.flat = !(look.hi > s->nodes[k].lo);
    look.def = SHOVE_IFN(world_move_def_of)(w, s->nodes[k].slot);
    look.skin = look.def->skin;
    look.contact = SHOVE_IFN(world_contact_distance)(look.skin, look.box);
    shove_vec ahead = shove_vec_splat(0.0f);
    ahead.raw[c->a] = c->sgn * (c->budget0 + 2.0f * look.skin + c->slack);
    gather->cells = look.def->filter != NULL;
    shove_aabb reach = look.box;
    if (c->carries) {
        reach.max.raw[run->up] += look.contact;
    }
    /* step_chain_meet keeps a body ahead only when it overlaps the node's
     * box strictly on every axis but the push's, and a rider only when it
     * does on every axis but the up axis and rests on the node's top. So
     * the bodies that reach into the gather's margin alone need not be
     * gathered: beside the node on the axes that are neither (a crowd's
     * neighbours side by side), and below it on the up axis when the push
     * is not along it (what the node stands on), if the node has height
     * (a rider of a flat node may lie in the plane of its bottom). */
    unsigned exact = ((1u << SHOVE_DIM) - 1u) & ~(1u << c->a);
    unsigned exact_low = exact;
    if (run->up >= 0) {
        exact &= ~(1u << run->up);
        if (run->up == c->a || !(look.box.max.raw[run->up] > look.box.min.raw[run->up])) {
            exact_low &= ~(1u << run->up);
        }
    }
    gather->exact_low = exact_low;
    gather->exact_high = exact;
    gather->mover = s->nodes[k].slot;
    gather->line_x = SHOVE_IFN(move_line_x)(look.box);
    run->set_owner = STEP_NONE;
    SHOVE_IFN(obstacles_clear)(&w->obstacles);
    w->obstacles.cursor = 0;
    gather->budget = SHOVE_IFN(voxel_budget)(&w->voxels);
    if (!SHOVE_IFN(world_gather)(gather, reach, ahead, look.skin + c->slack, &w->obstacles)) {
        run->failed = true;
        run->status = gather->budget.status;
        return false;
    }
    s->nodes[k].first_edge = s->edge_count;
    s->nodes[k].first_rider = s->chain_rider_count;
    for (size_t i = 0; i < w->obstacles.count; ++i) {
        if (!SHOVE_IFN(step_chain_meet)(run, c, &look, i)) {
            return false;
        }
    }
    s->nodes[k].edge_count = s->edge_count - s->nodes[k].first_edge;
    s->nodes[k].rider_count = s->chain_rider_count - s->nodes[k].first_rider;
    return true;
}

/* Append `value` to a list of the gather (*count long). False when out of
 * memory. */
static bool SHOVE_IFN(step_chain_list_add)(STEP_RUN *run, uint32_t **list, uint32_t *capacity,
                                           uint32_t *count, uint32_t value) {
    if (!SHOVE_IFN(step_grow)(run, (void **)list, capacity, (uint64_t)*count + 1u, sizeof **list)) {
        return false;
    }
    (*list)[(*count)++] = value;
    return true;
}

/* Node k's known budget rose, or k was just looked ahead of: pass the
 * rise on along the edges of the nodes looked ahead of (as phase 3 will
 * compute it); a node not looked ahead of whose known budget becomes
 * positive joins the queue (s->chain_queue, *queued long). False when
 * out of memory. */
static bool SHOVE_IFN(step_chain_pass_on)(STEP_RUN *run, uint32_t k, uint32_t *queued) {
    struct SHOVE_T(step_scratch) *s = run->s;
    uint32_t depth = 0;
    if (!SHOVE_IFN(step_chain_list_add)(run, &s->chain_rose, &s->chain_rose_capacity, &depth, k)) {
        return false;
    }
    while (depth > 0) {
        const uint32_t y = s->chain_rose[--depth];
        const float known = s->nodes[y].known;
        const uint32_t first = s->nodes[y].first_edge, count = s->nodes[y].edge_count;
        for (uint32_t e = first; e < first + count; ++e) {
            const uint32_t to = s->edges[e].to;
            SHOVE_T(step_node) *o = &s->nodes[to];
            const float left = known - s->edges[e].run;
            if (!(left > 0.0f && left > o->known)) {
                continue;
            }
            o->known = left;
            if (o->looked) {
                if (!SHOVE_IFN(step_chain_list_add)(run, &s->chain_rose, &s->chain_rose_capacity,
                                                    &depth, to)) {
                    return false;
                }
            } else if (!o->queued) {
                o->queued = true;
                if (!SHOVE_IFN(step_chain_list_add)(run, &s->chain_queue, &s->chain_queue_capacity,
                                                    queued, to)) {
                    return false;
                }
            }
        }
    }
    return true;
}

/* 1. Nodes and edges. A node is looked ahead of only once its budget is
 * known to be positive (the first body's is): a node whose pushers all
 * have too little budget to reach it is never moved by them (phase 3
 * gives it none), so what lies ahead of it cannot matter, unless a
 * rounding in the placement moves it after all (step_chain_unlooked_moved:
 * then every node is looked ahead of and the phases run again). Pushed
 * sideways or down, a node carries its riders: the gather reaches over
 * its top by the contact distance to find them too. Everything within
 * reach of the first body's budget (and the skin a node keeps from walls,
 * and a few float steps: rounding may move a face a step further than the
 * budget) is gathered ahead of every node. With `all`, every node not
 * looked ahead of yet is, whatever its budget. False when the chain
 * stops. */
static bool SHOVE_IFN(step_chain_gather)(STEP_RUN *run, const SHOVE_T(step_chain_push) * c,
                                         bool all) {
    struct SHOVE_T(step_scratch) *s = run->s;
    SHOVE_T(world_gather_ctx) gather;
    memset(&gather, 0, sizeof gather);
    gather.w = run->w;
    gather.mover = s->nodes[0].slot;
    gather.region = s->nodes[0].box;
    if (all) {
        for (uint32_t k = 0; k < s->node_count && !run->failed; ++k) {
            if (!s->nodes[k].looked && !SHOVE_IFN(step_chain_look_ahead)(run, c, &gather, k)) {
                return false;
            }
            s->nodes[k].looked = true;
        }
        return !run->failed;
    }
    uint32_t head = 0, queued = 0;
    s->nodes[0].known = c->budget0;
    s->nodes[0].queued = true;
    if (!SHOVE_IFN(step_chain_list_add)(run, &s->chain_queue, &s->chain_queue_capacity, &queued,
                                        0u)) {
        return false;
    }
    while (head < queued && !run->failed) {
        const uint32_t k = s->chain_queue[head++];
        if (!SHOVE_IFN(step_chain_look_ahead)(run, c, &gather, k)) {
            return false;
        }
        s->nodes[k].looked = true;
        if (!SHOVE_IFN(step_chain_pass_on)(run, k, &queued)) {
            return false;
        }
    }
    return !run->failed;
}

/* 2. Front-first order (every edge goes to an earlier rank). */
static bool SHOVE_IFN(step_chain_rank)(STEP_RUN *run) {
    struct SHOVE_T(step_scratch) *s = run->s;
    const uint32_t n = s->node_count;
    if (!STEP_GROW(run, s->ranks, s->rank_capacity, n)) {
        return false;
    }
    for (uint32_t k = 0; k < n; ++k) {
        SHOVE_T(step_rank) *r = &s->ranks[k];
        r->box = s->nodes[k].box;
        r->lo = s->nodes[k].lo;
        r->hi = s->nodes[k].hi;
        r->slot = s->nodes[k].slot;
        r->node = k;
    }
    if (n > 1) {
        SHOVE_IFN(step_sort)(s->ranks, n, sizeof *s->ranks, SHOVE_IFN(step_rank_order));
    }
    return true;
}

/* 3. Budgets, pushers first. */
static void SHOVE_IFN(step_chain_budgets)(struct SHOVE_T(step_scratch) * s) {
    SHOVE_T(step_node) *nodes = s->nodes;
    const SHOVE_T(step_edge) *edges = s->edges;
    for (uint32_t r = s->node_count; r-- > 0;) {
        const SHOVE_T(step_node) *y = &nodes[s->ranks[r].node];
        if (!(y->budget > 0.0f)) {
            continue;
        }
        for (uint32_t e = y->first_edge; e < y->first_edge + y->edge_count; ++e) {
            SHOVE_T(step_node) *o = &nodes[edges[e].to];
            const float left = y->budget - edges[e].run;
            if (left > 0.0f && left > o->pushed_by) {
                o->pushed_by = left;
                o->pusher = s->ranks[r].node;
                o->budget = left > o->budget ? left : o->budget;
            }
        }
    }
}

/* 4. Reach, front first; blocked when a wall or a blocked node bites. */
static void SHOVE_IFN(step_chain_reach)(struct SHOVE_T(step_scratch) * s) {
    SHOVE_T(step_node) *nodes = s->nodes;
    const SHOVE_T(step_edge) *edges = s->edges;
    for (uint32_t r = 0; r < s->node_count; ++r) {
        SHOVE_T(step_node) *y = &nodes[s->ranks[r].node];
        y->reach = 0.0f;
        y->blocked = false;
        if (!(y->budget > 0.0f)) {
            continue;
        }
        float reach = y->budget;
        bool blocked = false;
        if (y->wall_run < y->budget) {
            reach = y->wall_run;
            blocked = true;
        }
        for (uint32_t e = y->first_edge; e < y->first_edge + y->edge_count; ++e) {
            const SHOVE_T(step_node) *o = &nodes[edges[e].to];
            const float v = edges[e].run + o->reach;
            reach = v < reach ? v : reach;
            blocked = blocked || (o->blocked && v < y->budget);
        }
        y->reach = reach > 0.0f ? reach : 0.0f;
        y->blocked = blocked;
    }
}

/* 5. Ideal moves, pushers first: move(first) = reach(first), move(O) =
 * max over pushers of move(Y) - run. A node is touched when a pusher's
 * move closes the free run to it. */
static void SHOVE_IFN(step_chain_ideal)(struct SHOVE_T(step_scratch) * s) {
    SHOVE_T(step_node) *nodes = s->nodes;
    const SHOVE_T(step_edge) *edges = s->edges;
    const uint32_t n = s->node_count;
    for (uint32_t k = 0; k < n; ++k) {
        nodes[k].dx = 0.0f;
        nodes[k].ideal = 0.0f;
        nodes[k].touched = false;
    }
    nodes[0].ideal = nodes[0].reach;
    nodes[0].touched = true;
    for (uint32_t r = n; r-- > 0;) {
        const SHOVE_T(step_node) *y = &nodes[s->ranks[r].node];
        if (!y->touched) {
            continue;
        }
        for (uint32_t e = y->first_edge; e < y->first_edge + y->edge_count; ++e) {
            SHOVE_T(step_node) *o = &nodes[edges[e].to];
            if (y->ideal >= edges[e].run) {
                const float left = y->ideal - edges[e].run;
                o->touched = true;
                o->ideal = left > o->ideal ? left : o->ideal;
            }
        }
    }
}

/* 6. Placement, pushers first: the first body's trailing face reaches
 * `face` exactly when nothing blocks it; every other body goes at least
 * as far as keeps its gap to each pusher's new leading face. */
static void SHOVE_IFN(step_chain_place)(struct SHOVE_T(step_scratch) * s, float face) {
    SHOVE_T(step_node) *nodes = s->nodes;
    const SHOVE_T(step_edge) *edges = s->edges;
    {
        SHOVE_T(step_node) *f0 = &nodes[0];
        f0->dx = f0->blocked ? f0->reach : SHOVE_IFN(step_reach_at_least)(f0->lo, face, f0->budget);
    }
    for (uint32_t r = s->node_count; r-- > 0;) {
        const SHOVE_T(step_node) *y = &nodes[s->ranks[r].node];
        if (!(y->dx > 0.0f)) {
            continue;
        }
        const float y_hi = y->hi + y->dx;
        for (uint32_t e = y->first_edge; e < y->first_edge + y->edge_count; ++e) {
            SHOVE_T(step_node) *o = &nodes[edges[e].to];
            const float target = y_hi + edges[e].keep;
            if (o->lo + o->dx < target) {
                o->dx = SHOVE_IFN(step_reach_at_least)(o->lo, target, o->dx);
            }
        }
    }
}

/* 7. Hard limits, front first: a far face never passes a wall's near
 * face or the new near face of a body ahead. */
static void SHOVE_IFN(step_chain_clamp)(struct SHOVE_T(step_scratch) * s) {
    SHOVE_T(step_node) *nodes = s->nodes;
    const SHOVE_T(step_edge) *edges = s->edges;
    for (uint32_t r = 0; r < s->node_count; ++r) {
        SHOVE_T(step_node) *y = &nodes[s->ranks[r].node];
        if (!(y->dx > 0.0f)) {
            continue;
        }
        float limit = y->wall_lo;
        for (uint32_t e = y->first_edge; e < y->first_edge + y->edge_count; ++e) {
            const SHOVE_T(step_node) *o = &nodes[edges[e].to];
            const float o_lo = o->lo + o->dx;
            limit = o_lo < limit ? o_lo : limit;
        }
        if (y->hi + y->dx > limit) {
            const float d = SHOVE_IFN(step_reach_at_most)(y->hi, limit, y->dx);
            y->dx = d > 0.0f ? d : 0.0f;
        }
    }
}

/* 2. to 7. on the nodes gathered: every node starts with no budget but
 * the first (`budget0`). False when out of memory. */
static bool SHOVE_IFN(step_chain_solve)(STEP_RUN *run, float face, float budget0) {
    struct SHOVE_T(step_scratch) *s = run->s;
    for (uint32_t k = 0; k < s->node_count; ++k) {
        s->nodes[k].budget = k == 0 ? budget0 : 0.0f;
        s->nodes[k].pushed_by = -INFINITY;
        s->nodes[k].pusher = STEP_NONE;
    }
    if (!SHOVE_IFN(step_chain_rank)(run)) {
        return false;
    }
    SHOVE_IFN(step_chain_budgets)(s);
    SHOVE_IFN(step_chain_reach)(s);
    SHOVE_IFN(step_chain_ideal)(s);
    SHOVE_IFN(step_chain_place)(s, face);
    SHOVE_IFN(step_chain_clamp)(s);
    return true;
}

/* True when the placement moved a node that was not looked ahead of (by a
 * rounding of a pusher's face: its budget is none), so what is ahead of
 * it is unknown: the gather has to look ahead of every node. */
static bool SHOVE_IFN(step_chain_unlooked_moved)(const struct SHOVE_T(step_scratch) * s) {
    for (uint32_t k = 0; k < s->node_count; ++k) {
        if (!s->nodes[k].looked && s->nodes[k].dx > 0.0f) {
            return true;
        }
    }
    return false;
}

/* 8. Squishes, pushers first: blocked and reached by a pusher. */
static void SHOVE_IFN(step_chain_squish)(STEP_RUN *run, const SHOVE_T(step_chain_push) * c) {
    struct SHOVE_T(step_scratch) *s = run->s;
    const SHOVE_T(step_node) *nodes = s->nodes;
    const shove_vec zero = shove_vec_splat(0.0f);
    for (uint32_t r = s->node_count; r-- > 0;) {
        const SHOVE_T(step_node) *y = &nodes[s->ranks[r].node];
        SHOVE_T(step_slot) *ss = &s->slots[y->slot];
        if (!(y->budget > 0.0f) || !y->blocked || !y->touched || ss->squish_mark == run->op_stamp ||
            !STEP_GROW(run, s->squish, s->squish_capacity, (uint64_t)s->squish_count + 1u)) {
            continue;
        }
        ss->squish_mark = run->op_stamp; /* once per operation */
        SHOVE_T(step_squish) *q = &s->squish[s->squish_count++];
        q->body = y->slot;
        q->pusher = (y->pusher == STEP_NONE) ? c->mover : nodes[y->pusher].slot;
        q->normal = zero;
        q->normal.raw[c->a] = c->sgn;
    }
}

/* 9. Riders of bodies moving sideways or down (lifted riders are nodes). */
static void SHOVE_IFN(step_chain_note_riders)(STEP_RUN *run, const SHOVE_T(step_chain_push) * c) {
    struct SHOVE_T(step_scratch) *s = run->s;
    shove_world *w = run->w;
    const int a = c->a;
    const float sgn = c->sgn;
    for (uint32_t r = 0; r < s->node_count && c->carries; ++r) {
        const SHOVE_T(step_node) *y = &s->nodes[s->ranks[r].node];
        if (!(y->dx > 0.0f) || y->rider_count == 0 ||
            !STEP_GROW(run, w->near, w->near_capacity, y->rider_count)) {
            continue;
        }
        const uint32_t riders = y->rider_count;
        memcpy(w->near, s->chain_riders + y->first_rider, riders * sizeof *w->near);
        shove_vec carry = shove_vec_splat(0.0f);
        carry.raw[a] = SHOVE_IFN(step_shift)(y->box, a, sgn, y->dx).min.raw[a] - y->box.min.raw[a];
        SHOVE_IFN(step_note_riders)(run, y->slot, riders, carry, c->p);
    }
}

/* 10. Commit, front first. */
static void SHOVE_IFN(step_chain_commit)(STEP_RUN *run, const SHOVE_T(step_chain_push) * c) {
    struct SHOVE_T(step_scratch) *s = run->s;
    for (uint32_t r = 0; r < s->node_count && !run->failed; ++r) {
        const SHOVE_T(step_node) *y = &s->nodes[s->ranks[r].node];
        if (y->dx > 0.0f) {
            SHOVE_IFN(step_set_box)
            (run, y->slot, SHOVE_IFN(step_shift)(y->box, c->a, c->sgn, y->dx));
        }
    }
}

/* Push body `first` along axis a, direction sgn, so that its trailing
 * face reaches `face` (in u), pushing what is ahead with priority p on
 * behalf of `mover` (the body doing the push, never pushed itself).
 * Records squishes when `record`. Its phases, 1. to 10., are the
 * functions above. */
static void SHOVE_IFN(step_chain)(STEP_RUN *run, uint32_t mover, uint32_t first, int a, float sgn,
                                  float face, uint8_t p, bool record) {
    struct SHOVE_T(step_scratch) *s = run->s;
    const uint32_t chain = SHOVE_IFN(step_stamp)(s);
    s->node_count = 0;
    s->edge_count = 0;
    s->chain_rider_count = 0;
    if (SHOVE_IFN(step_node_of)(run, first, chain, a, sgn) == STEP_NONE) {
        return;
    }
    const float budget0 = face - s->nodes[0].lo;
    if (!(budget0 > 0.0f)) {
        return;
    }
    const bool lifting = a == run->up && sgn > 0.0f;
    SHOVE_T(step_chain_push) c;
    c.mover = mover;
    c.stamp = chain;
    c.a = a;
    c.sgn = sgn;
    c.budget0 = budget0;
    c.slack = SHOVE_IFN(world_contact_distance)(0.0f, s->nodes[0].box);
    c.p = p;
    c.carries = run->up >= 0 && !lifting;
    if (!SHOVE_IFN(step_chain_gather)(run, &c, false) ||
        !SHOVE_IFN(step_chain_solve)(run, face, budget0)) {
        return;
    }
    if (SHOVE_IFN(step_chain_unlooked_moved)(s) &&
        (!SHOVE_IFN(step_chain_gather)(run, &c, true) ||
         !SHOVE_IFN(step_chain_solve)(run, face, budget0))) {
        return;
    }
    if (record) {
        SHOVE_IFN(step_chain_squish)(run, &c);
    }
    SHOVE_IFN(step_chain_note_riders)(run, &c);
    SHOVE_IFN(step_chain_commit)(run, &c);
    SHOVE_IFN(step_queue_riders)(run);
}
