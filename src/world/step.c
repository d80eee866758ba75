/*
 * step.c: the shove step, shove3_body_set_motion and shove3_world_step:
 * the priority / transitive shove solver (a pushed body pushes the next
 * one within the same step; weaker priorities give way). This file holds
 * how it works (below), the step's data, its scratch growth and the small
 * helpers every part uses. Template: see dim.h.
 *
 * The step's files, in reading order (each calls only the ones before it):
 *
 *   step.c         the algorithm, the data, small helpers
 *   step_bodies.c  box changes and their undo log, who rests on whom,
 *                  riders noted for a carry
 *   step_slide.c   the slide runner (the dry and the final run of an
 *                  operation) and what a slide keeps for the commit
 *   step_spec.c    the speculative dry runs on the workers
 *   step_chain.c   the chain push (1D), phase by phase
 *   step_push.c    one operation, push_move, and the carries it queues
 *   step_commit.c  the results, events and pairs after every move
 *   step_entry.c   the movers' order, each mover's turn, the entry points
 *                  and the scratch's release
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
 * it, so the look costs no tree query. A mover that waited in the step
 * before (a rider of a stack that keeps moving) looks with a tree query
 * before that slide instead: the slide would be thrown away when it waits
 * (a fifth of the own moves of bench_step's crowd of one priority wait;
 * looking first spares 2% of its step's instructions). Either look finds
 * the same bodies.
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
 * The gather looks ahead of a node only once its budget is known to be
 * positive (budgets are passed on as edges are found): a node no pusher
 * can reach keeps reach 0 and does not move, so what is ahead of it cannot
 * change the result. In a crowd that spares about 40% of the chain's
 * gathers. Should a rounding of the placement move such a node after all,
 * every node is looked ahead of and the phases run again (the same result
 * as looking ahead of every node from the start).
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
 * and sensor pairs (pairs.c) of every body the step moved, in the order
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
 * bodies under and over it), the pair update, and its share of sorting the
 * movers (a radix sort of their keys: linear). Pushing adds one slide (two
 * when a push fell short), and per pushed body one tree query ahead. Per
 * carried rider, one push_move. In bench_step a step with 10k sparse
 * bodies costs 1.5 to 1.6 times moving each body with shove3_move; the sort
 * is about 3% of the step.
 *
 * A crowd costs more because the work per mover grows, not each piece:
 * in bench_step's 3D crowded scene (unit boxes 20 layers high, mixed
 * priorities) a step makes about 5.9 push_moves per mover, 4.7 of them
 * carries (a body pushed or carried carries the column of done bodies
 * above it), and about 9.5 tree queries ahead per mover in chain pushes;
 * in its 3D mob pen (two layers) about 3 slides and 9 chain looks per
 * mover, the looks over half of the step. bench_step prints the step
 * against every body moved once with shove3_move in the same crowd.
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
 * tree updates and pairs stay serial), and in bench_step they cost more
 * than they save (every scene of it, 2D and 3D). So the step times itself
 * and keeps speculating only while that is faster per mover than not
 * (step_spec_done): on 2 workers a step then costs about what it costs on
 * 1. Which way a step runs never changes its results.
 *
 * Taking records without asking their gathers again would not be enough
 * either. Tried on bench_step's 3D sparse scene (a record checked by its
 * neighbours and by how far every body had travelled instead, which took
 * 98% of the records with no gather), the serial pass alone still cost
 * three quarters of a step without workers. More cores need the step's
 * independent groups of bodies stepped apart.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "obstacles/voxel.h"
#include "world/move.h"
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
    uint32_t wait_mark;   /* == a step's stamp: its own motion waited for a platform then */
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
    /* The gather (step_chain_gather): the budget known so far, and whether
     * the node was looked ahead of / waits for it. */
    float known;
    bool looked, queued;
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
    SHOVE_T(step_mover) * movers_spare; /* the other half of the movers' radix sort */
    uint32_t movers_spare_capacity;
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
    /* the chain's gather: nodes waiting to be looked ahead of (a queue)
     * and nodes whose known budget rose (a stack) */
    uint32_t *chain_queue;
    uint32_t chain_queue_capacity;
    uint32_t *chain_rose;
    uint32_t chain_rose_capacity;
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
    uint32_t last_step_stamp; /* the step before this one (0: none) */
    uint32_t this_step_stamp;
    /* the speculative dry runs (step_spec.c): one per mover, by rank,
     * and the workers' scratch */
    struct SHOVE_T(step_spec) * spec;
    uint32_t spec_capacity;
    struct SHOVE_T(step_worker) * workers;
    uint32_t worker_slots;
    bool spec_on;                    /* this step's records may be used */
    uint32_t spec_tried, spec_taken; /* this step: records compared, taken */
    /* Whether to speculate (step_spec_done), and the clock when this
     * step's parallel part (or, resting, its serial pass) began; 0 when
     * the step could not speculate. */
    shove__spec_policy spec_policy;
    uint64_t spec_clock;
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
    /* The weakest priority (the largest number) of the step's dynamic,
     * non-sensor bodies: an operation of that priority or weaker that
     * lifts no one can push nothing (step_pushable). */
    uint8_t weakest;
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

/* >>scratch growth and stamps --------------------------------------------- */

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
            s->slots[i].wait_mark = 0u;
        }
        s->stamp = 0u;
        s->last_step_stamp = 0u;
        s->this_step_stamp = 0u;
    }
    return ++s->stamp;
}

/* >>small helpers --------------------------------------------------------- */

/* qsort for the step's small lists (a chain's nodes, an operation's pushes,
 * a body's riders: a handful each, sorted thousands of times a step):
 * insertion sort up to 16 elements, where qsort's setup costs more than the
 * sort. Every order sorted with it is total (each ends on the slot), so any
 * sort gives the same list. */
static void SHOVE_IFN(step_sort)(void *base, size_t n, size_t size,
                                 int (*cmp)(const void *, const void *)) {
    unsigned char tmp[64];
    if (n > 16u || size > sizeof tmp) {
        qsort(base, n, size, cmp);
        return;
    }
    unsigned char *a = base;
    for (size_t i = 1; i < n; ++i) {
        size_t j = i;
        if (cmp(a + (j - 1u) * size, a + i * size) <= 0) {
            continue;
        }
        memcpy(tmp, a + i * size, size);
        do {
            memcpy(a + j * size, a + (j - 1u) * size, size);
            --j;
        } while (j > 0 && cmp(a + (j - 1u) * size, tmp) > 0);
        memcpy(a + j * size, tmp, size);
    }
}

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
 * first so that tiny or huge motions do not underflow or overflow. A sort
 * key (movers' fronts, riders' carries): 0 where the sum has no value
 * (absurd coordinates, inf - inf), so that every order built on it stays
 * total. */
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
    const float along = dot / sqrtf(len2);
    return isnan(along) ? 0.0f : along;
}
