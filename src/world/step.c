/*
 * step.c: shove3_body_set_motion and shove3_world_step, the priority /
 * transitive shove solver (a pushed body pushes the next one within the
 * same step; weaker priorities give way). Template: see dim.h.
 *
 * >>Order
 *
 * Every dynamic body with a pending, non-zero motion (a "mover") moves once,
 * in an order that depends only on the scene:
 *
 *   1. by priority, strongest (0) first;
 *   2. then front first along its own motion: the projection of the box
 *      centre on the unit motion, largest first, so a row of bodies moving
 *      the same way does not block itself;
 *   3. then by box (min corner, then max corner, axis by axis), then by slot
 *      (only bodies with identical boxes, priorities and directions tie).
 *
 * Exception: a mover resting on a mover that has not moved yet waits for it
 * (platforms move before their riders, whatever the priorities); it finds
 * out from the gather of its own first slide, which covers the bodies under
 * it, so the look costs no tree query.
 *
 * >>One operation: push_move(X, d, p)
 *
 * Body X moves by d with effective priority p (its own for its motion).
 * "Pushable" by X: a dynamic, non-sensor body other than X, solid for X
 * (category / mask, step_def.filter) and, in order: resting on X when X
 * rises (riders are lifted whatever their priority); never a body X rests
 * on (a body standing on a weaker one does not push it into the floor with
 * its weight, and the slide's ground, step and edge probes see its ground);
 * else when its priority q > p (weaker: a larger number). Resting: a gap on the up axis of step_def
 * from 0 to the contact distance (world_contact_distance: 2 * skin plus a
 * few float steps), footprints overlapping strictly.
 *
 *   a. Dry run: the slide core (obstacles.h, on the world's gather, voxels
 *      included, long moves in pieces as shove3_move runs them) moves X by
 *      d with step_def, pushable bodies answering SHOVE_RESPONSE_CROSS
 *      (walked through, reported as contacts). Its end E0 is where X wants
 *      to go, sliding along what it cannot push. When the slide never asked
 *      about a pushable body, an all-solid run would be the same run (they
 *      only differ from the first answer that differs): E0 is final and
 *      the operation costs one slide.
 *   b. Pushes: every pushable body B the dry run entered (in contact order,
 *      ties by box) is pushed along the axis of its contact normal just far
 *      enough to clear E0 on that axis, keeping the gap it had to X up to
 *      one skin, by a chain push (below). It does not take X's motion on
 *      other axes.
 *   c. Final run: the slide core moves X by d again, every body solid at
 *      its new place. A push that fell short stops X face to face (one skin
 *      away) and X slides along. When X ends short of E0 after pushing
 *      something, the pushes are undone and redone to clear X's actual end
 *      E (so a body pushed side by side with a blocked one does not run
 *      ahead of the pusher), and X slides straight to E.
 *   d. Carry: the bodies resting on X's start box are carried by X's
 *      displacement without its rise (rising, they were lifted by b.).
 *
 * >>Chain push (1D): push(B, axis a, direction s, to face F, priority p)
 *
 * Along one axis everything is exact. From B, the bodies ahead (footprints
 * overlapping strictly on the other axes, near face at or beyond B's far
 * face, within reach of B's budget) are gathered through the world's
 * gather (voxels included); the pushable ones (priority > p, or resting on
 * the body below when pushing up) become nodes, the rest are walls. Every
 * edge goes strictly forward, so the graph has no cycles. With budget = how
 * far a node is asked to move (B: to F; a node at gap g ahead of a node with
 * budget b: b - max(0, g - skin)) and the nodes sorted front first:
 *
 *   reach(Y) = min(budget(Y), free run to each wall less the skin,
 *                  free run to each node ahead + its reach)
 *   move(B) = reach(B); move(O) = max over pushers Y of move(Y) - free run
 *
 * A node kept short of its budget by a wall, or by a node ahead that is
 * itself blocked, and that a pusher reaches, is squished: SHOVE_EVENT_SQUISH
 * with a = the node, b = the body that pushed it hardest (X for B), normal =
 * the push direction (once per body per operation). The boxes are placed
 * with float care: pushers first, each body at least as far as keeps its gap
 * to each pusher's new face (B exactly to F when nothing blocks it), then
 * front first, each far face clamped to the near faces of the walls and
 * nodes ahead (touching is fine), so nothing ends overlapping whatever the
 * rounding. Pushed sideways or down, a node carries its riders, found in
 * the same gather (it reaches over the node's top).
 *
 * >>Carrying
 *
 * A rider is carried by push_move(rider, carry, q), q the weaker (the larger
 * number) of its own priority and the carrier's effective one (it is carried, not driven: a
 * crate carried by a lift does not shove the player in its way). Carries
 * wait in a queue and run, breadth first, after the operation that made
 * them (so they see where everything went). A rider that still has its own
 * motion to make keeps the carry for then: it is carried once, right
 * before its own motion, however many bodies below it moved first, so a
 * stack of n bodies that all move costs n carries, not n * n / 2. Carries
 * from one body add up; from several (a rider across two platforms) the
 * larger per axis wins. A carry moves a body by what is left of it (a body
 * pushed in between is not carried twice). A step carries at most 64 + 16
 * times the number of bodies (far above what a scene needs; it stops
 * carrying past that), against pathological piles.
 *
 * Two movers pushing one body from opposite sides never average: the first
 * to move pushes it until it is blocked (by the other, which it cannot push
 * when their priorities are equal); the second then finds it blocked and
 * the body is reported squished.
 *
 * >>Per-body settings and results
 *
 * "step_def" above means the body's move settings: its own when the game
 * gave it some (shove3_body_set_move_def, body_settings.c), else the
 * world's step_def (world_move_def_of). A body's settings run its slides
 * (own motion and carries), answer for it when it is met, pushed (what is
 * a wall for it) or asked whether it rides (its filter and response), set
 * the gap it keeps to what is ahead in a chain and to what it pushes (its
 * skin), and its contact distance (resting on it, its pairs). Only the up
 * axis of who rests on whom is the world's step_def's, for every body.
 * Each operation's final slide leaves its flags and contact count in the
 * body's step_slot (step_keep_result; its own motion wins over carries);
 * the commit writes every moved body's result before it emits events.
 *
 * >>Events and memory
 *
 * Every box change of a step goes through an undo log; a step that runs out
 * of memory undoes it and returns SHOVE_ERR_OUT_OF_MEMORY. After every
 * mover moved, the commit (which reserves everything first) emits the
 * squishes in the order they happened, then brings up to date the contact
 * and sensor pairs (world.c) of every body the step moved, in the order
 * it first moved, then of the movers that did not move, with the contacts
 * of their slides as the bodies met on the way. A body's near list is the
 * gather of its last slide when that covers its end box (as shove3_move
 * does), else a tree query; the bodies it has pairs with are added at its
 * update, so a body that came close after that slide (and has it on its own
 * list, having moved later) keeps its pair whichever is updated first.
 * Scratch memory lives in the world and is reused: a steady scene
 * allocates nothing.
 *
 * >>Cost
 *
 * Per mover, in a scene without pushes: one slide (the gather covers the
 * bodies under and over it), the pair update; n log n to sort the movers.
 * Pushing adds one slide (two when a push fell short), and per pushed body
 * one tree query ahead. Per carried rider, one push_move. In bench_step a
 * step with 10k sparse bodies costs about 1.5 to 2 times moving each body
 * with shove3_move; sorting the movers is about a tenth of that.
 *
 * >>Workers
 *
 * With more than one worker (or a task system of the game), every mover's
 * dry run (a.) is computed first on the workers against the world as the
 * step found it, and the serial pass above takes such a record only when
 * every gather it made gives the same answer now, bit for bit
 * (step_spec.c). Everything else runs on the caller, in the order above,
 * so the results are the same for any number of workers. The dry runs are
 * only part of a step (the gathers are asked again, and pushes, carries,
 * tree updates and pairs stay serial): in bench_step the step is about as
 * fast on 2 workers as on 1.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "obstacles/voxel.h"
#include "world/world.h"

/* "No node / no slot" in the scratch arrays. */
#define STEP_NONE UINT32_MAX

/* Where a mover is in the step (step_slot.state, valid while it has a
 * pending motion). Once for both dimensions. */
#ifndef SHOVE_STEP_STATES_
#define SHOVE_STEP_STATES_
enum { STEP_PENDING = 1, STEP_STACKED = 2, STEP_DONE = 3 };
#endif

/* Per slot. The *_mark fields hold the stamp of the operation / chain /
 * commit they belong to, so nothing has to be cleared between uses. */
typedef struct SHOVE_T(step_slot) {
    shove_aabb carry_from; /* deferred carry (see step_carry_all) */
    shove_vec carry;
    uint32_t carry_mark; /* == the step's stamp: a deferred carry is waiting */
    uint32_t carry_source;
    uint32_t near_mark; /* == the step's stamp: near_first / near_count are its near list */
    uint32_t near_first, near_count;
    uint32_t node_mark;
    uint32_t node;
    uint32_t moved_mark;
    uint32_t moved;
    uint32_t order;       /* rank of the mover in the step's order */
    uint32_t squish_mark; /* squished in this operation already */
    uint32_t result_mark; /* == the step's stamp: result_* hold the slide its result reports */
    uint32_t result_contacts;
    uint8_t result_flags; /* SHOVE_RESULT_* */
    bool result_own;      /* ... and that slide was of its own motion */
    uint8_t carry_priority;
    uint8_t state;
} SHOVE_T(step_slot);

typedef struct SHOVE_T(step_mover) {
    uint64_t key; /* priority, then front (see step_mover_key) */
    shove_aabb box;
    uint32_t slot;
} SHOVE_T(step_mover);

/* A box before a change (undo log). */
typedef struct SHOVE_T(step_undo) {
    shove_aabb box;
    uint32_t slot;
} SHOVE_T(step_undo);

/* A rider to carry: move it so it has moved by `carry` since `from`. */
typedef struct SHOVE_T(step_carry) {
    shove_aabb from;
    shove_vec carry;
    float key; /* sort key: front first along the carry */
    uint32_t slot;
    uint32_t source; /* the body it rests on */
    uint8_t priority;
} SHOVE_T(step_carry);

typedef struct SHOVE_T(step_squish) {
    shove_vec normal;
    uint32_t body;
    uint32_t pusher;
} SHOVE_T(step_squish);

/* A pushable body the dry run walked into. */
typedef struct SHOVE_T(step_push) {
    shove_aabb box; /* its box when it was met */
    float t;
    float sign; /* contact normal: sign * unit(axis) */
    int axis;
    uint32_t slot;
} SHOVE_T(step_push);

/* A body of a chain push; positions along the push ("u": s * coordinate). */
typedef struct SHOVE_T(step_node) {
    shove_aabb box;
    float lo, hi;   /* trailing and leading face in u */
    float wall_lo;  /* nearest wall's near face in u (+inf: none) */
    float wall_run; /* free run to that wall less the skin */
    float budget, reach, ideal, dx, pushed_by;
    uint32_t slot;
    uint32_t first_edge, edge_count;
    uint32_t first_rider, rider_count; /* bodies resting on it (s->chain_riders) */
    uint32_t pusher;                   /* node pushing it hardest, STEP_NONE for the first */
    bool blocked; /* a wall, or a blocked node ahead, keeps it short of its budget */
    bool touched; /* a pusher reaches it */
} SHOVE_T(step_node);

typedef struct SHOVE_T(step_edge) {
    float run;  /* free run before the pusher touches it: max(0, gap - skin) */
    float keep; /* gap kept once pushed: min(gap, skin) */
    uint32_t to;
} SHOVE_T(step_edge);

/* Sort entry of chain nodes. */
typedef struct SHOVE_T(step_rank) {
    shove_aabb box;
    float lo, hi;
    uint32_t slot, node;
} SHOVE_T(step_rank);

typedef struct SHOVE_T(step_range) {
    uint32_t first, count;
} SHOVE_T(step_range);

struct SHOVE_T(step_scratch) {
    SHOVE_T(step_slot) * slots;
    uint32_t slot_capacity;
    SHOVE_T(step_mover) * movers;
    uint32_t mover_count, mover_capacity;
    SHOVE_T(step_undo) * log;
    uint32_t log_count, log_capacity;
    SHOVE_T(step_carry) * queue;
    uint32_t queue_head, queue_count, queue_capacity;
    SHOVE_T(step_carry) * riders;
    uint32_t rider_count, rider_capacity;
    uint32_t *lifted;
    uint32_t lifted_count, lifted_capacity;
    SHOVE_T(step_squish) * squish;
    uint32_t squish_count, squish_capacity;
    SHOVE_T(step_push) * pushes;
    uint32_t push_count, push_capacity;
    SHOVE_T(step_node) * nodes;
    uint32_t node_count, node_capacity;
    SHOVE_T(step_edge) * edges;
    uint32_t edge_count, edge_capacity;
    SHOVE_T(step_rank) * ranks;
    uint32_t rank_capacity;
    uint32_t *chain_riders;
    uint32_t chain_rider_count, chain_rider_capacity;
    uint32_t *stack;
    uint32_t stack_capacity;
    /* contacts of the slides that moved bodies, for the pair update */
    shove_contact *contacts;
    uint32_t *contact_slot;
    uint32_t contact_count, contact_capacity, contact_slot_capacity;
    shove_contact *sorted;
    uint32_t sorted_capacity;
    /* the commit: moved bodies, their near lists and contact ranges */
    uint32_t *moved;
    uint32_t moved_count, moved_capacity;
    uint32_t *near_all;
    uint32_t near_all_count, near_all_capacity;
    uint32_t *near_kept; /* near lists kept from the gathers of final slides */
    uint32_t near_kept_count, near_kept_capacity;
    SHOVE_T(step_range) * near_range;
    uint32_t near_range_capacity;
    SHOVE_T(step_range) * contact_range;
    uint32_t contact_range_capacity;
    uint32_t stamp;
    /* the speculative dry runs (step_spec.c): one per mover, by rank,
     * and the workers' scratch */
    struct SHOVE_T(step_spec) * spec;
    uint32_t spec_capacity;
    struct SHOVE_T(step_worker) * workers;
    uint32_t worker_slots;
    bool spec_on;                    /* this step's records may be used */
    uint32_t spec_tried, spec_taken; /* this step: records compared, taken */
    uint32_t spec_rest;              /* steps left without speculation */
};

/* Everything one shove3_world_step shares. */
typedef struct SHOVE_T(step_run) {
    shove_world *w;
    struct SHOVE_T(step_scratch) * s;
    int up;              /* step_def.up_axis: who rests on whom, for every body */
    bool own_motion;     /* the operation under way is its mover's own motion */
    uint32_t op_stamp;   /* the operation under way (squish marks) */
    uint32_t step_stamp; /* this step (deferred carries) */
    uint32_t carries_left;
    uint32_t current; /* the mover being processed (never defers a carry to itself) */
    /* The operation under way: its mover's start box, whether it rises
     * (riders are lifted) and whether riders would find it solid. */
    shove_aabb op_box;
    float op_contact; /* contact distance at op_box */
    bool op_lift;
    /* w->obstacles holds the gather of a slide of body set_owner from
     * set_box (STEP_NONE: something else), so "who rests on it" can be
     * read from it without a tree query. */
    uint32_t set_owner;
    shove_aabb set_box;
    shove_aabb set_region; /* the box that gather covered */
    bool failed;           /* out of memory (or `status`): the step is undone */
    shove_status status;   /* why a slide failed, when not for memory */
} SHOVE_T(step_run);

#define STEP_RUN SHOVE_T(step_run)

/* >>scratch --------------------------------------------------------------- */

static void SHOVE_IFN(step_spec_free)(shove_world *w, struct SHOVE_T(step_scratch) * s);

#define STEP_FREE_ARRAY(ptr, cap)                                                                  \
    SHOVE_IFN(world_realloc)(w, (ptr), (size_t)(cap) * sizeof *(ptr), 0)

void SHOVE_IFN(step_free)(shove_world *w) {
    struct SHOVE_T(step_scratch) *s = w->step;
    if (!s) {
        return;
    }
    STEP_FREE_ARRAY(s->slots, s->slot_capacity);
    STEP_FREE_ARRAY(s->movers, s->mover_capacity);
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

/* Grow `array` (capacity *cap) to hold `need`; on failure the run fails. */
static bool SHOVE_IFN(step_grow)(STEP_RUN *run, void **array, uint32_t *cap, uint64_t need,
                                 size_t elem) {
    if (run->failed) {
        return false;
    }
    if (need > UINT32_MAX / 8u ||
        !SHOVE_IFN(world_grow)(run->w, array, cap, (uint32_t)need, elem)) {
        run->failed = true;
        return false;
    }
    return true;
}

#define STEP_GROW(run, arr, cap, need)                                                             \
    SHOVE_IFN(step_grow)((run), (void **)&(arr), &(cap), (need), sizeof *(arr))

/* A fresh stamp; when the counter wraps, every mark is cleared. */
static uint32_t SHOVE_IFN(step_stamp)(struct SHOVE_T(step_scratch) * s) {
    if (s->stamp == UINT32_MAX - 1u) {
        for (uint32_t i = 0; i < s->slot_capacity; ++i) {
            s->slots[i].carry_mark = 0u;
            s->slots[i].near_mark = 0u;
            s->slots[i].node_mark = 0u;
            s->slots[i].moved_mark = 0u;
            s->slots[i].squish_mark = 0u;
            s->slots[i].result_mark = 0u;
        }
        s->stamp = 0u;
    }
    return ++s->stamp;
}

/* >>small helpers --------------------------------------------------------- */

static inline bool SHOVE_IFN(step_vec_is_zero)(shove_vec v) {
    for (int i = 0; i < SHOVE_DIM; ++i) {
        if (v.raw[i] != 0.0f) {
            return false;
        }
    }
    return true;
}

static inline bool SHOVE_IFN(step_same_box)(shove_aabb a, shove_aabb b) {
    for (int i = 0; i < SHOVE_DIM; ++i) {
        if (a.min.raw[i] != b.min.raw[i] || a.max.raw[i] != b.max.raw[i]) {
            return false;
        }
    }
    return true;
}

static inline bool SHOVE_IFN(step_is_solid)(shove_response r) {
    return shove__response_is_solid(r);
}

/* Trailing and leading face of `b` along axis a, direction s, in u = s * x. */
static inline float SHOVE_IFN(step_lo)(shove_aabb b, int a, float s) {
    return s > 0.0f ? b.min.raw[a] : -b.max.raw[a];
}
static inline float SHOVE_IFN(step_hi)(shove_aabb b, int a, float s) {
    return s > 0.0f ? b.max.raw[a] : -b.min.raw[a];
}

/* Box `b` moved by u-distance d along axis a, direction s. Since u is the
 * coordinate times s and negation is exact, the new lo / hi in u are
 * exactly lo + d and hi + d rounded once. */
static inline shove_aabb SHOVE_IFN(step_shift)(shove_aabb b, int a, float s, float d) {
    if (s > 0.0f) {
        b.min.raw[a] = b.min.raw[a] + d;
        b.max.raw[a] = b.max.raw[a] + d;
    } else {
        b.min.raw[a] = b.min.raw[a] - d;
        b.max.raw[a] = b.max.raw[a] - d;
    }
    return b;
}

/* Smallest d >= want such that face + d (rounded) reaches `target`. */
static float SHOVE_IFN(step_reach_at_least)(float face, float target, float want) {
    float d = (want > target - face) ? want : target - face;
    while (face + d < target) {
        d = shove__next_up(d);
    }
    return d;
}

/* Largest d <= want such that face + d (rounded) stays at or below `limit`. */
static float SHOVE_IFN(step_reach_at_most)(float face, float limit, float want) {
    float d = (want < limit - face) ? want : limit - face;
    while (face + d > limit) {
        d = shove__next_down(d);
    }
    return d;
}

/* True when a and b overlap strictly on every axis but `skip` (-1: none). */
static inline bool SHOVE_IFN(step_overlap_except)(shove_aabb a, shove_aabb b, int skip) {
    for (int i = 0; i < SHOVE_DIM; ++i) {
        if (i != skip && !(a.min.raw[i] < b.max.raw[i] && b.min.raw[i] < a.max.raw[i])) {
            return false;
        }
    }
    return true;
}

/* The skin of body `slot`'s move settings (its own or the step_def). */
static inline float SHOVE_IFN(step_skin)(const shove_world *w, uint32_t slot) {
    return SHOVE_IFN(world_move_def_of)(w, slot)->skin;
}

/* The response of body `mover`'s move settings (its own or the step_def)
 * when it meets `obstacle` (filter or default; values outside the enum
 * count as SLIDE, as in the slide core). */
static shove_response SHOVE_IFN(step_response)(const shove_world *w, uint32_t mover,
                                               const shove_obstacle *obstacle) {
    return SHOVE_IFN(response_to)(SHOVE_IFN(world_move_def_of)(w, mover),
                                  SHOVE_IFN(world_id)(w, mover), false,
                                  SHOVE_IFN(response_copy_obstacle), obstacle);
}

/* step_response when body `mover` meets body `other`. */
static shove_response SHOVE_IFN(step_body_response)(const shove_world *w, uint32_t mover,
                                                    uint32_t other) {
    const SHOVE_T(world_body) body = {w, other};
    return SHOVE_IFN(response_to)(SHOVE_IFN(world_move_def_of)(w, mover),
                                  SHOVE_IFN(world_id)(w, mover), false,
                                  SHOVE_IFN(world_describe_body), &body);
}

/* Lexicographic order of boxes (min corner, then max corner). */
static int SHOVE_IFN(step_box_order)(const shove_aabb *a, const shove_aabb *b) {
    for (int i = 0; i < SHOVE_DIM; ++i) {
        if (a->min.raw[i] != b->min.raw[i]) {
            return a->min.raw[i] < b->min.raw[i] ? -1 : 1;
        }
    }
    for (int i = 0; i < SHOVE_DIM; ++i) {
        if (a->max.raw[i] != b->max.raw[i]) {
            return a->max.raw[i] < b->max.raw[i] ? -1 : 1;
        }
    }
    return 0;
}

static inline shove_vec SHOVE_IFN(step_center)(shove_aabb b) {
    shove_vec c;
    for (int i = 0; i < SHOVE_DIM; ++i) {
        c.raw[i] = b.min.raw[i] * 0.5f + b.max.raw[i] * 0.5f;
    }
    return c;
}

/* Projection of `p` on the direction of `d` (d finite, not zero). Scaled
 * first so that tiny or huge motions do not underflow or overflow. */
static float SHOVE_IFN(step_along)(shove_vec p, shove_vec d) {
    float big = 0.0f;
    for (int i = 0; i < SHOVE_DIM; ++i) {
        big = fabsf(d.raw[i]) > big ? fabsf(d.raw[i]) : big;
    }
    if (!(big > 0.0f)) {
        return 0.0f;
    }
    float dot = 0.0f, len2 = 0.0f;
    for (int i = 0; i < SHOVE_DIM; ++i) {
        const float u = d.raw[i] / big;
        dot += p.raw[i] * u;
        len2 += u * u;
    }
    return dot / sqrtf(len2);
}

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
    memset(gather, 0, sizeof *gather);
    gather->w = w;
    gather->mover = slot;
    gather->min_margin = SHOVE_IFN(world_contact_distance)(own->skin, box);
    gather->region = box;
    gather->cells = own->filter != NULL;
}

/* Slide body `slot` from `box` by `delta` through the world (the slide
 * core on the world's gather, long moves over voxels in pieces: the path
 * shove3_move takes); every contact ends in w->crossed. */
static bool SHOVE_IFN(step_slide)(STEP_RUN *run, uint32_t slot, shove_aabb box, shove_vec delta,
                                  SHOVE_T(step_filter_ctx) * filter, shove_move_result *out) {
    shove_world *w = run->w;
    if (run->failed || !STEP_GROW(run, w->crossed, w->crossed_capacity, 32u)) {
        return false;
    }
    shove_move_def def;
    SHOVE_T(world_gather_ctx) gather;
    SHOVE_IFN(step_slide_setup)(run, slot, box, filter, &def, &gather);
    const SHOVE_IFN(obstacle_source)
        source = {SHOVE_IFN(world_gather), &gather, SHOVE_IFN(world_id)(w, slot)};
    run->set_owner = STEP_NONE;
    for (;;) {
        filter->asked = false;
        def.contacts = w->crossed;
        def.contact_capacity = (int)w->crossed_capacity;
        bool whole = true;
        const shove_status s =
            w->has_voxels ? SHOVE_IFN(voxel_move)(&gather, box, delta, &def, &source, &w->obstacles,
                                                  &whole, out)
                          : SHOVE_IFN(slide_core)(box, delta, &def, &source, &w->obstacles, out);
        if (s != SHOVE_OK) {
            run->failed = true;
            run->status = s;
            return false;
        }
        if ((uint32_t)out->contact_count <= w->crossed_capacity) {
            /* One core run gathered once around `box`: w->obstacles covers
             * the bodies resting on it and under it. */
            run->set_owner = whole ? slot : STEP_NONE;
            run->set_box = box;
            run->set_region = gather.region;
            return true;
        }
        if (!STEP_GROW(run, w->crossed, w->crossed_capacity, (uint32_t)out->contact_count)) {
            return false;
        }
    }
}

#include "world/step_spec.c"

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
        qsort(s->riders, n, sizeof *s->riders, SHOVE_IFN(step_carry_order));
    }
    memcpy(s->queue + s->queue_count, s->riders, n * sizeof *s->riders);
    s->queue_count += n;
}

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

/* Push body `first` along axis a, direction sgn, so that its trailing
 * face reaches `face` (in u), pushing what is ahead with priority p on
 * behalf of `mover` (the body doing the push, never pushed itself).
 * Records squishes when `record`. */
static void SHOVE_IFN(step_chain)(STEP_RUN *run, uint32_t mover, uint32_t first, int a, float sgn,
                                  float face, uint8_t p, bool record) {
    struct SHOVE_T(step_scratch) *s = run->s;
    shove_world *w = run->w;
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
    s->nodes[0].budget = budget0;
    /* Everything within reach of the first body's budget (and the skin a
     * node keeps from walls, and a few float steps: rounding may move a
     * face a step further than the budget) is gathered ahead of every node. */
    const float slack = SHOVE_IFN(world_contact_distance)(0.0f, s->nodes[0].box);
    shove_vec ahead = shove_vec_splat(0.0f);
    SHOVE_T(world_gather_ctx) gather;
    memset(&gather, 0, sizeof gather);
    gather.w = w;
    gather.mover = first;
    gather.region = s->nodes[0].box;

    /* 1. Nodes and edges, breadth first. Pushed sideways or down, a node
     * carries its riders: the gather reaches over its top by the contact
     * distance to find them too. */
    const bool lifting = a == run->up && sgn > 0.0f;
    const bool carries = run->up >= 0 && !lifting;
    for (uint32_t k = 0; k < s->node_count && !run->failed; ++k) {
        const shove_aabb yb = s->nodes[k].box;
        const float y_lo = s->nodes[k].lo, y_hi = s->nodes[k].hi;
        const bool y_flat = !(y_hi > y_lo);
        /* A pushed body keeps the skin of its own move settings to what is
         * ahead of it, and answers with their filter and response. */
        const shove_move_def *y_def = SHOVE_IFN(world_move_def_of)(w, s->nodes[k].slot);
        const float skin = y_def->skin;
        const float y_contact = SHOVE_IFN(world_contact_distance)(skin, yb);
        ahead.raw[a] = sgn * (budget0 + 2.0f * skin + slack);
        gather.cells = y_def->filter != NULL;
        shove_aabb reach = yb;
        if (carries) {
            reach.max.raw[run->up] += y_contact;
        }
        gather.mover = s->nodes[k].slot;
        run->set_owner = STEP_NONE;
        SHOVE_IFN(obstacles_clear)(&w->obstacles);
        w->obstacles.cursor = 0;
        gather.budget = SHOVE_IFN(voxel_budget)(&w->voxels);
        if (!SHOVE_IFN(world_gather)(&gather, reach, ahead, skin + slack, &w->obstacles)) {
            run->failed = true;
            run->status = gather.budget.status;
            return;
        }
        s->nodes[k].first_edge = s->edge_count;
        s->nodes[k].first_rider = s->chain_rider_count;
        const SHOVE_IFN(obstacle_set) *set = &w->obstacles;
        for (size_t i = 0; i < set->count; ++i) {
            if (set->flags[i] & SHOVE_OBSTACLE_SENSOR) {
                continue;
            }
            const shove_aabb ob = SHOVE_IFN(obstacles_box)(set, i);
            /* A rider, when the platform is solid for it; what cannot ride
             * (voxels, static bodies) resting on a platform is not in its way. */
            if (carries && SHOVE_IFN(step_rests)(run, yb, ob, true, y_contact)) {
                const uint32_t o = SHOVE_IFN(world_slot)(w, set->id[i]);
                const bool rider = o != SHOVE_TREE_NONE && (w->flags[o] & SHOVE_SLOT_DYNAMIC);
                if (!rider) {
                    continue;
                }
                if (SHOVE_IFN(step_is_solid)(
                        SHOVE_IFN(step_body_response)(w, o, s->nodes[k].slot))) {
                    if (STEP_GROW(run, s->chain_riders, s->chain_rider_capacity,
                                  (uint64_t)s->chain_rider_count + 1u)) {
                        s->chain_riders[s->chain_rider_count++] = o;
                    }
                    continue;
                }
            }
            if (!SHOVE_IFN(step_overlap_except)(yb, ob, a)) {
                continue;
            }
            const float o_lo = SHOVE_IFN(step_lo)(ob, a, sgn);
            const float o_hi = SHOVE_IFN(step_hi)(ob, a, sgn);
            /* Ahead: at or beyond the leading face, and not two flat boxes
             * in one plane (those never overlap, whatever the motion). */
            if (!(o_lo >= y_hi) || (y_flat && !(o_hi > o_lo))) {
                continue;
            }
            const float gap = o_lo - y_hi;
            const float run_free = (gap > skin) ? gap - skin : 0.0f;
            if (y_def->filter) {
                shove_obstacle described;
                SHOVE_IFN(obstacles_describe)(set, i, &described);
                if (!SHOVE_IFN(step_is_solid)(
                        SHOVE_IFN(step_response)(w, s->nodes[k].slot, &described))) {
                    continue;
                }
            } else if (!SHOVE_IFN(step_is_solid)(y_def->response)) {
                continue;
            }
            const uint32_t o = SHOVE_IFN(world_slot)(w, set->id[i]);
            const bool lift = a == run->up && sgn > 0.0f && gap <= y_contact;
            /* Beyond every budget a body is never pushed: a wall, for the
             * clamp of the placement (7.) only, since its run is too long
             * to limit a reach. */
            if (o != SHOVE_TREE_NONE && o != mover && (w->flags[o] & SHOVE_SLOT_DYNAMIC) &&
                !(w->flags[o] & SHOVE_SLOT_SENSOR) && (w->priority[o] > p || lift) &&
                run_free < budget0) {
                const uint32_t node = SHOVE_IFN(step_node_of)(run, o, chain, a, sgn);
                if (node == STEP_NONE ||
                    !STEP_GROW(run, s->edges, s->edge_capacity, (uint64_t)s->edge_count + 1u)) {
                    return;
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
        }
        s->nodes[k].edge_count = s->edge_count - s->nodes[k].first_edge;
        s->nodes[k].rider_count = s->chain_rider_count - s->nodes[k].first_rider;
    }
    if (run->failed) {
        return;
    }

    /* 2. Front-first order (every edge goes to an earlier rank). */
    const uint32_t n = s->node_count;
    if (!STEP_GROW(run, s->ranks, s->rank_capacity, n)) {
        return;
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
        qsort(s->ranks, n, sizeof *s->ranks, SHOVE_IFN(step_rank_order));
    }
    SHOVE_T(step_node) *nodes = s->nodes;
    const SHOVE_T(step_edge) *edges = s->edges;

    /* 3. Budgets, pushers first. */
    for (uint32_t r = n; r-- > 0;) {
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
    /* 4. Reach, front first; blocked when a wall or a blocked node bites. */
    for (uint32_t r = 0; r < n; ++r) {
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
    /* 5. Ideal moves, pushers first: move(first) = reach(first), move(O) =
     * max over pushers of move(Y) - run. A node is touched when a pusher's
     * move closes the free run to it. */
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
    /* 6. Placement, pushers first: the first body's trailing face reaches
     * `face` exactly when nothing blocks it; every other body goes at least
     * as far as keeps its gap to each pusher's new leading face. */
    {
        SHOVE_T(step_node) *f0 = &nodes[0];
        f0->dx = f0->blocked ? f0->reach : SHOVE_IFN(step_reach_at_least)(f0->lo, face, f0->budget);
    }
    for (uint32_t r = n; r-- > 0;) {
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
    /* 7. Hard limits, front first: a far face never passes a wall's near
     * face or the new near face of a body ahead. */
    for (uint32_t r = 0; r < n; ++r) {
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
    /* 8. Squishes, pushers first: blocked and reached by a pusher. */
    if (record) {
        const shove_vec zero = shove_vec_splat(0.0f);
        for (uint32_t r = n; r-- > 0;) {
            const SHOVE_T(step_node) *y = &nodes[s->ranks[r].node];
            SHOVE_T(step_slot) *ss = &s->slots[y->slot];
            if (!(y->budget > 0.0f) || !y->blocked || !y->touched ||
                ss->squish_mark == run->op_stamp ||
                !STEP_GROW(run, s->squish, s->squish_capacity, (uint64_t)s->squish_count + 1u)) {
                continue;
            }
            ss->squish_mark = run->op_stamp; /* once per operation */
            SHOVE_T(step_squish) *q = &s->squish[s->squish_count++];
            q->body = y->slot;
            q->pusher = (y->pusher == STEP_NONE) ? mover : nodes[y->pusher].slot;
            q->normal = zero;
            q->normal.raw[a] = sgn;
        }
    }
    /* 9. Riders of bodies moving sideways or down (lifted riders are nodes). */
    for (uint32_t r = 0; r < n && carries; ++r) {
        const SHOVE_T(step_node) *y = &s->nodes[s->ranks[r].node];
        if (!(y->dx > 0.0f) || y->rider_count == 0 ||
            !STEP_GROW(run, w->near, w->near_capacity, y->rider_count)) {
            continue;
        }
        const uint32_t riders = y->rider_count;
        memcpy(w->near, s->chain_riders + y->first_rider, riders * sizeof *w->near);
        shove_vec carry = shove_vec_splat(0.0f);
        carry.raw[a] = SHOVE_IFN(step_shift)(y->box, a, sgn, y->dx).min.raw[a] - y->box.min.raw[a];
        SHOVE_IFN(step_note_riders)(run, y->slot, riders, carry, p);
    }
    /* 10. Commit, front first. */
    for (uint32_t r = 0; r < n && !run->failed; ++r) {
        const SHOVE_T(step_node) *y = &s->nodes[s->ranks[r].node];
        if (y->dx > 0.0f) {
            SHOVE_IFN(step_set_box)(run, y->slot, SHOVE_IFN(step_shift)(y->box, a, sgn, y->dx));
        }
    }
    SHOVE_IFN(step_queue_riders)(run);
}

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

/* Move body x by d with effective priority p: slide, push, carry. A mover's
 * own motion (own = true) waits when x rests on a mover that has not moved
 * yet: then nothing changes and that mover is returned; else STEP_NONE. */
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

    /* a. Dry run. */
    SHOVE_T(step_filter_ctx) filter = {run, x, p, true, false};
    shove_move_result res;
    if (!SHOVE_IFN(step_spec_reuse)(run, x, start, d, p, &filter, &res) &&
        !SHOVE_IFN(step_slide)(run, x, start, d, &filter, &res)) {
        return STEP_NONE;
    }
    if (own && up >= 0) {
        /* A platform under it that still has to move goes first. */
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
    if (filter.asked) {
        /* The pushable bodies the dry run walked into. */
        const shove_aabb wanted = res.box;
        s->push_count = 0;
        const uint32_t count = (uint32_t)res.contact_count;
        if (!STEP_GROW(run, s->pushes, s->push_capacity, count)) {
            return STEP_NONE;
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
            qsort(s->pushes, s->push_count, sizeof *s->pushes, SHOVE_IFN(step_push_order));
        }
        /* b. Push them clear of where the mover wants to go. */
        const uint32_t log_mark = s->log_count;
        const uint32_t queue_mark = s->queue_count;
        SHOVE_IFN(step_push_all)(run, x, start, wanted, p, true);
        /* c. The final run, everything solid. */
        filter.dry = false;
        if (!SHOVE_IFN(step_slide)(run, x, start, d, &filter, &res)) {
            return STEP_NONE;
        }
        if (!SHOVE_IFN(step_same_box)(res.box, wanted) && s->log_count > log_mark) {
            /* Short of where it wanted: push again, just clear of where it
             * ends, and go straight there. */
            const shove_aabb end = res.box;
            const shove_vec moved = res.delta;
            if (!SHOVE_IFN(step_undo_to)(run, log_mark)) {
                return STEP_NONE;
            }
            s->queue_count = queue_mark;
            SHOVE_IFN(step_push_all)(run, x, start, end, p, false);
            if (!SHOVE_IFN(step_slide)(run, x, start, moved, &filter, &res)) {
                return STEP_NONE;
            }
        }
    }
    SHOVE_IFN(step_keep_contacts)(run, x, (uint32_t)res.contact_count);
    SHOVE_IFN(step_keep_result)(run, x, &res);
    /* d. Riders: carried by the displacement less its rise (riders were
     * lifted by the pushes); found before x leaves the start box. */
    shove_vec carry = res.delta;
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
    SHOVE_IFN(step_set_box)(run, x, res.box);
    SHOVE_IFN(step_keep_near)(run, x, start, res.box);
    if (riders > 0 && !run->failed) {
        SHOVE_IFN(step_note_riders)(run, x, riders, carry, p);
        SHOVE_IFN(step_queue_riders)(run);
    }
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

/* After every move: events and pairs. Everything that can fail comes
 * before the first change. */
static bool SHOVE_IFN(step_commit)(STEP_RUN *run) {
    struct SHOVE_T(step_scratch) *s = run->s;
    shove_world *w = run->w;
    /* 1. The bodies whose pairs are brought up to date: those the step
     * moved, in the order they first moved, then the movers that did not
     * move, in the step's order. */
    const uint32_t mark = SHOVE_IFN(step_stamp)(s);
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
    const uint32_t m = s->moved_count;
    /* 2. Their contacts, grouped by body (stable). */
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
    /* 3. The bodies near each one's final box: kept from its last slide,
     * or asked of the trees. At its update, every body it has a pair with
     * then is added: a body that came close after that slide moved later,
     * so it has this one on its own list, and whichever of the two is
     * updated first, the pair is begun or kept, never ended. */
    s->near_all_count = 0;
    uint32_t longest = 0;
    for (uint32_t i = 0; i < m; ++i) {
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
    if (!STEP_GROW(run, w->near, w->near_capacity,
                   (uint64_t)longest + pairs_now + s->near_all_count)) {
        return false;
    }
    /* 4. Room for every pair and event: world_pairs_reserve counts events
     * as 2 * (near + contacts) + the body's pairs; give it the totals and
     * every pair in use, plus the squishes. */
    const uint64_t in_use = (uint64_t)w->pair_capacity - w->pair_free_count;
    const uint64_t extra = (uint64_t)kept + 2u * in_use + s->squish_count;
    if (m > 0 &&
        (extra > UINT32_MAX / 8u ||
         !SHOVE_IFN(world_pairs_reserve)(w, s->moved[0], s->near_all_count, (uint32_t)extra))) {
        run->failed = true;
        return false;
    }
    if (m == 0 && s->squish_count > 0 && !SHOVE_IFN(world_events_reserve)(w, s->squish_count)) {
        run->failed = true;
        return false;
    }
    /* 5. Commit: the results first (callbacks may read them), then events. */
    SHOVE_IFN(step_write_results)(run);
    SHOVE_IFN(world_events_begin)(w);
    for (uint32_t i = 0; i < s->squish_count; ++i) {
        const SHOVE_T(step_squish) *q = &s->squish[i];
        SHOVE_IFN(world_emit)
        (w, SHOVE_EVENT_SQUISH, SHOVE_IFN(world_id)(w, q->body), SHOVE_IFN(world_id)(w, q->pusher),
         q->normal);
    }
    for (uint32_t i = 0; i < m; ++i) {
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
    return true;
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
        const uint8_t want = SHOVE_SLOT_ALIVE | SHOVE_SLOT_DYNAMIC | SHOVE_SLOT_HAS_MOTION;
        if ((f & want) != want || SHOVE_IFN(step_vec_is_zero)(w->motion[slot])) {
            continue;
        }
        if (!STEP_GROW(&run, s->movers, s->mover_capacity, (uint64_t)s->mover_count + 1u)) {
            return SHOVE_ERR_OUT_OF_MEMORY;
        }
        SHOVE_T(step_mover) *mv = &s->movers[s->mover_count++];
        mv->slot = slot;
        mv->box = w->box[slot];
        float front = SHOVE_IFN(step_along)(SHOVE_IFN(step_center)(mv->box), w->motion[slot]);
        if (isnan(front)) {
            front = 0.0f; /* only for absurd coordinates; keeps the order total */
        }
        mv->key = SHOVE_IFN(step_mover_key)(w->priority[slot], front);
    }
    if (s->mover_count > 1) {
        qsort(s->movers, s->mover_count, sizeof *s->movers, SHOVE_IFN(step_mover_order));
    }
    for (uint32_t i = 0; i < s->mover_count; ++i) {
        s->slots[s->movers[i].slot].state = STEP_PENDING;
        s->slots[s->movers[i].slot].order = i;
    }
    run.step_stamp = SHOVE_IFN(step_stamp)(s);
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

#undef STEP_NONE
#undef STEP_RUN
#undef STEP_FREE_ARRAY
#undef STEP_GROW
