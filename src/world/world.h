/*
 * world.h: what is inside shove2_world / shove3_world. Include after dim.h.
 * Internal; the layers built on the world (the world move, the shove step,
 * dumps) include it and use the struct and the helpers below directly.
 *
 * Bodies live in slots. Every per-body field is its own array indexed by
 * slot (struct of arrays), so a pass over one field (boxes, pending
 * motions, categories) reads only that field. The broad phase keeps its own
 * copy of every box in struct-of-arrays buckets (broadphase.h): static
 * bodies in trees[SHOVE_BODY_STATIC], dynamic ones in
 * trees[SHOVE_BODY_DYNAMIC], with the slot as the handle.
 *
 * Ids: index = slot; generation = world tag (high SHOVE_ID_TAG_BITS bits,
 * never 0) | the slot's generation counter (low SHOVE_ID_COUNTER_BITS
 * bits, starting at 1). Destroying a body bumps the counter, so its id is
 * never valid again; a slot whose counter would wrap is retired instead of
 * reused. The tag refuses ids of other worlds (tags are handed out so that
 * live worlds differ while fewer than 1023 exist; see world_common.c). The
 * null id (all zero) has tag 0 and is never valid.
 */
#if (SHOVE_DIM == 2 && !defined(SHOVE_WORLD2_H)) || (SHOVE_DIM == 3 && !defined(SHOVE_WORLD3_H))
#if SHOVE_DIM == 2
#define SHOVE_WORLD2_H
#else
#define SHOVE_WORLD3_H
#endif

#include <math.h>
#include <stdatomic.h>

#include "obstacles/broadphase.h"
#include "geometry/geometry.h"
#include "obstacles/obstacles.h"
#include "obstacles/voxel.h"
#include "world/workers.h"

#ifndef SHOVE_WORLD_COMMON_
#define SHOVE_WORLD_COMMON_

#define SHOVE_ID_TAG_BITS     10
#define SHOVE_ID_COUNTER_BITS 22
#define SHOVE_ID_COUNTER_MASK ((1u << SHOVE_ID_COUNTER_BITS) - 1u)
/** Most slots a world can have (indices stay below SHOVE_TREE_NONE). */
#define SHOVE_WORLD_MAX_SLOTS (UINT32_MAX / 2u)

/** Bits of the per-slot flags array. */
enum {
    SHOVE_SLOT_ALIVE = 1u << 0,      /**< a live body uses the slot */
    SHOVE_SLOT_DYNAMIC = 1u << 1,    /**< SHOVE_BODY_DYNAMIC (else static) */
    SHOVE_SLOT_SENSOR = 1u << 2,     /**< reported, never blocks */
    SHOVE_SLOT_HAS_MOTION = 1u << 3, /**< `motion` holds a pending motion for the step */
    SHOVE_SLOT_RETIRED = 1u << 4,    /**< counter exhausted: the slot is never reused */
    /** Its last shove_move tried a step-up: the next one gathers the
     *  step-up's room at once (world_gather_ctx.lean_room). Never changes a
     *  result. */
    SHOVE_SLOT_STEP_TRIED = 1u << 5,
};

/** Bits of the per-slot last_flags array: the flags of the body's last
 *  move or step result (shove3_body_get_result). */
enum {
    SHOVE_RESULT_ON_GROUND = 1u << 0,
    SHOVE_RESULT_HIT_CEILING = 1u << 1,
    SHOVE_RESULT_HIT_WALL = 1u << 2,
    SHOVE_RESULT_STEPPED = 1u << 3,
};

/** Kinds of pairs the world remembers between moves. */
enum {
    SHOVE_PAIR_CONTACT = 0, /**< two solid bodies touching (within the contact distance) */
    SHOVE_PAIR_SENSOR = 1,  /**< a body overlapping a sensor */
};

/** Two bodies in contact (or a visitor inside a sensor). Each pair is on
 *  the pair list of both its bodies: next[k] continues body[k]'s list. */
typedef struct shove_pair {
    uint32_t body[2];
    uint32_t next[2];
    uint32_t kind;
} shove_pair;

/** Default allocator (realloc / free) in the lua_Alloc style. */
void *shove__default_realloc(void *ctx, void *ptr, size_t old_size, size_t new_size);

/** A world tag (1 .. 2^SHOVE_ID_TAG_BITS - 1) not used by another live
 *  world when possible; `*claimed` says whether it must be released. */
uint32_t shove__world_tag_acquire(bool *claimed);
void shove__world_tag_release(uint32_t tag, bool claimed);

#endif

/** Static bodies a mover's gathers can reuse: every static body whose box
 *  overlaps `region` (strictly), in the static tree's query order, as the
 *  static tree was at change count `stamp`. A gather whose query box lies
 *  in `region` takes its static bodies from here instead of walking the
 *  tree (move.c). More than SHOVE_STATIC_NEAR_SLOTS bodies: count says so
 *  and the gathers inside `region` walk the tree. */
#define SHOVE_STATIC_NEAR_SLOTS 6u
typedef struct SHOVE_T(static_near) {
    shove_aabb region;
    uint64_t stamp; /**< 0: empty (the world's count starts at 1) */
    uint32_t count; /**< bodies in the region (only the first SLOTS are kept) */
    uint32_t slot[SHOVE_STATIC_NEAR_SLOTS];
} SHOVE_T(static_near);

/** Counts of the dynamic bodies over the cells of a coarse grid
 *  (occupancy.c), kept beside the dynamic tree: a gather whose query box
 *  covers no counted body but the mover skips the tree's walk, which would
 *  find nothing. Cells are squares of a power-of-two side over two axes
 *  (0 and SHOVE_DIM - 1: the ground plane of a Y-up world, which keeps
 *  the grid flat), in a window over the dynamic bodies. `count` is NULL
 *  until a first build; `on` says the counts are those of the tree now. */
typedef struct SHOVE_T(occupancy) {
    uint16_t *count; /**< per cell of the window, the first axis fastest */
    /** Per cell, the sum of the slots of the bodies counted there (modulo
     *  2^32): where the count is 1, the slot of the one body. One block
     *  with `count` after it (capacity cells each), allocated at slot_sum. */
    uint32_t *slot_sum;
    uint32_t capacity; /**< cells `count` and `slot_sum` have room for */
    double origin[2];  /**< the window's first cell on each counted axis */
    double last[2];    /**< its last cell, relative to the first */
    int32_t extent[2]; /**< the window's cells on each counted axis */
    double per_cell;   /**< 1 / the cell side (a power of two: exact scaling) */
    bool on;
    uint32_t wait; /**< dynamic bodies' moves to let pass before the next build */
    /* Since the counts were built or last reviewed: changes of a dynamic
     * body's box, and gathers the counts spared a walk of the dynamic tree
     * (not counting a worker's read-only ones). */
    uint32_t moves, spared;
    uint32_t rest; /**< the last rest after a review that dropped them (0: none) */
    /** Tests only: worlds with fewer dynamic bodies get no counts (0: the
     *  default, OCCUPANCY_MIN_BODIES in occupancy.c). */
    uint32_t min_bodies;
} SHOVE_T(occupancy);

/** The cells a dynamic body is counted in (while the occupancy is on):
 *  lo[k] to hi[k] on counted axis k, relative to the window. */
typedef struct SHOVE_T(occupied) {
    int32_t lo[2], hi[2];
} SHOVE_T(occupied);

/** A body's own move settings for the shove step (body_set_move_def): a
 *  resolved, validated copy (contacts NULL). Free entries are linked
 *  through next_free. */
typedef struct SHOVE_T(own_move_def) {
    shove_move_def def;
    uint32_t next_free;
} SHOVE_T(own_move_def);

/** A contact point for debug drawing. */
typedef struct SHOVE_T(drawn_contact) {
    shove_vec point;
    shove_vec normal;
} SHOVE_T(drawn_contact);

struct SHOVE_T(world) {
    /** Calls in progress that may run callbacks (see "Locking" below).
     *  Atomic because reading calls (casts, dumps) may run on several
     *  threads at once, and so may a step's callbacks. */
    atomic_uint busy;
    shove_allocator alloc; /**< never all-zero: the default is filled in */
    uint32_t tag;
    bool tag_claimed;
    shove_aabb bounds;
    shove_move_def step_def;
    shove_event_fn event_fn;
    void *event_ctx;
    bool quiet_moves; /* shove_move keeps no pairs, reports no events (world def) */

    /* >>bodies: one entry per slot in every array */
    uint32_t slot_count;    /**< slots ever used (live, free or retired) */
    uint32_t slot_capacity; /**< room in every per-slot array */
    uint32_t body_count;    /**< live bodies */
    uint32_t free_head;     /**< first reusable slot, linked through next_free */
    void *slot_block;       /**< the one allocation behind every per-slot array */
    shove_aabb *box;        /**< the body's box */
    shove_vec *motion;      /**< pending motion of the shove step (SHOVE_SLOT_HAS_MOTION) */
    uint64_t *category;
    uint64_t *mask;
    void **user_data;
    uint32_t *generation; /**< the slot's counter (low bits of the id's generation) */
    uint32_t *next_free;  /**< free-slot list */
    uint32_t *pair_head;  /**< first pair of the body's pair list, SHOVE_TREE_NONE if none */
    uint32_t *mark;       /**< scratch, 0 between uses (pair updates) */
    shove_tree_loc *loc;  /**< where the body sits in its tree */
    uint8_t *flags;       /**< SHOVE_SLOT_* */
    uint8_t *priority;
    SHOVE_T(static_near) * static_near; /**< per mover: see static_near above */
    uint32_t *move_def;                 /**< 0: the world's step_def; k: own_defs[k - 1] */
    shove_vec *last_delta; /**< the last move or step result (shove3_body_get_result) */
    uint32_t *last_contacts;
    uint8_t *last_flags;          /**< SHOVE_RESULT_* */
    SHOVE_T(occupied) * occupied; /**< the dynamic body's cells (occupancy.c) */

    /* >>own move settings of bodies (body_set_move_def), in use or free */
    SHOVE_T(own_move_def) * own_defs;
    uint32_t own_def_count;    /**< entries ever used */
    uint32_t own_def_capacity; /**< room */
    uint32_t own_def_free;     /**< first free entry, SHOVE_TREE_NONE if none */

    /* >>broad phase: [SHOVE_BODY_STATIC] and [SHOVE_BODY_DYNAMIC] */
    SHOVE_T(tree) trees[2];
    uint64_t static_stamp; /**< counts changes of the static tree, from 1 */
    uint32_t static_calm;  /**< gathers since the last change (saturates) */
    uint32_t static_count; /**< live static bodies */
    /* What the bodies of each tree can meet: per tree, how many bodies
     * have each category bit ([0]) and each mask bit ([1]), and the unions
     * of those bits. A gather skips a tree none of whose bodies the mover
     * interacts with (world_tree_may_interact). */
    uint32_t filter_bit_count[2][2][64];
    uint64_t filter_union[2][2];

    /* >>pairs remembered between moves (events) */
    shove_pair *pairs;
    uint32_t pair_capacity;
    uint32_t pair_free;       /**< free pairs, linked through next[0] */
    uint32_t pair_free_count; /**< how many are on that list */

    /* >>events and debug contacts of the last move or step */
    shove_event *events;
    uint32_t event_count;
    uint32_t event_capacity;
    SHOVE_T(drawn_contact) * drawn;
    uint32_t drawn_count;
    uint32_t drawn_capacity;

    /* >>scratch of the world move (world/move.h; kept between moves: no
     * allocation in steady state) */
    SHOVE_IFN(obstacle_set) obstacles; /**< what a move gathers */
    uint32_t *near;                    /**< slots near the mover (pair updates) */
    uint32_t near_capacity;
    shove_contact *crossed; /**< contacts of the move (events), capacity below */
    uint32_t crossed_capacity;

    /* >>voxel source: static solids read through a callback (not in the trees) */
    shove_voxel_def voxels;
    bool has_voxels;

    /* >>scratch of the shove step (step.c), allocated by the first step */
    struct SHOVE_T(step_scratch) * step;
    /** How the step runs its work on several threads (workers.h). */
    shove__tasks tasks;
    /** Tests only: the step speculates on every step it can, instead of
     *  timing itself to choose (step_spec.c); results are the same. */
    bool speculate_every_step;

    /* >>voxels of a loaded dump (load.c): the table behind the voxel
     * callback shove3_world_load installs, kept until the world is destroyed */
    struct SHOVE_T(loaded_voxels) * loaded;

    /* >>the dynamic bodies per coarse cell, beside the dynamic tree */
    SHOVE_T(occupancy) occupancy;
};

/* >>locking ----------------------------------------------------------------
 *
 * While a call runs callbacks of the game (event callback, move filters,
 * voxel shapes, debug drawing), the world is busy, and every call that
 * changes the world refuses with SHOVE_ERR_LOCKED (world_destroy does
 * nothing): a callback must not pull the bodies, trees, pairs or scratch
 * from under the call that runs it. The lists of refused and allowed calls
 * are in shove3.h ("Locking").
 *
 * Calls that change the world take the lock with world_lock_for_change:
 * the game runs nothing else on the world meanwhile, so a plain store will
 * do. Reading calls that run callbacks (casts through voxels, dump, draw)
 * may run side by side on several threads and count themselves in and out
 * with world_lock_for_read. Any new entry point that runs a callback takes
 * one of the two; any new entry point that changes the world first checks
 * world_is_locked. */

/** The counter of calls in progress of a world that a reading call sees
 *  as const: `w` points to a world made by world_create, never to a const
 *  object. (Through an integer, so that strict builds' -Wcast-qual accepts
 *  the one place that writes to a world read as const.) */
static inline atomic_uint *SHOVE_IFN(world_busy)(const shove_world *w) {
    return &((shove_world *)(uintptr_t)w)->busy;
}

/** True while a call that runs callbacks is in progress. */
static inline bool SHOVE_IFN(world_is_locked)(const shove_world *w) {
    return atomic_load_explicit(SHOVE_IFN(world_busy)(w), memory_order_relaxed) != 0u;
}

/** A changing call (move, step) starts; the world was not locked. */
static inline void SHOVE_IFN(world_lock_for_change)(shove_world *w) {
    atomic_store_explicit(&w->busy, 1u, memory_order_relaxed);
}

/** The changing call is done; every reading call its callbacks made is
 *  done too. */
static inline void SHOVE_IFN(world_unlock_after_change)(shove_world *w) {
    atomic_store_explicit(&w->busy, 0u, memory_order_relaxed);
}

/** A reading call that runs callbacks starts (locked or not). */
static inline void SHOVE_IFN(world_lock_for_read)(const shove_world *w) {
    atomic_fetch_add_explicit(SHOVE_IFN(world_busy)(w), 1u, memory_order_relaxed);
}

/** The reading call is done. */
static inline void SHOVE_IFN(world_unlock_after_read)(const shove_world *w) {
    atomic_fetch_sub_explicit(SHOVE_IFN(world_busy)(w), 1u, memory_order_relaxed);
}

/** Give body `slot`'s own move def back (body_settings.c): the step
 *  then uses the world's step_def for it. */
void SHOVE_IFN(world_drop_move_def)(shove_world *w, uint32_t slot);

/** Free the shove step's scratch (step.c); world_destroy calls it. */
void SHOVE_IFN(step_free)(shove_world *w);

/** Free the voxel table of a loaded dump (load.c); world_destroy calls it. */
void SHOVE_IFN(load_free)(shove_world *w);

/** Largest body index + 1 shove3_world_load accepts: a dump makes every
 *  slot below its largest index, so this bounds what a short text can ask
 *  (a dump of one body at index 2^20 - 1 loads in about 3 s and 270 MB). */
#define SHOVE_LOAD_MAX_INDEX (1u << 20)

/** shove3_world_load with its own limit on body indices (the fuzz harness
 *  keeps worlds small). */
shove_status SHOVE_IFN(world_load_limited)(const shove_world_def *def, FILE *in, shove_world **out,
                                           uint32_t max_index);

/** Allocate through the world's allocator (lua_Alloc rules). */
static inline void *SHOVE_IFN(world_realloc)(const shove_world *w, void *p, size_t old_size,
                                             size_t new_size) {
    return w->alloc.realloc(w->alloc.ctx, p, old_size, new_size);
}

/** world_grow for an array too small for `need` (slots.c). */
bool SHOVE_IFN(world_grow_to)(const shove_world *w, void **array, uint32_t *capacity, uint32_t need,
                              size_t elem);

/** Grow an array of `elem` bytes to hold at least `need` elements
 *  (doubling). false when the allocator fails; the array is unchanged.
 *  Inline: a step or a move asks it a million times a second, and the
 *  array is nearly always big enough already. */
static inline bool SHOVE_IFN(world_grow)(const shove_world *w, void **array, uint32_t *capacity,
                                         uint32_t need, size_t elem) {
    return need <= *capacity || SHOVE_IFN(world_grow_to)(w, array, capacity, need, elem);
}

/** Slot of a live body of this world, or SHOVE_TREE_NONE. */
static inline uint32_t SHOVE_IFN(world_slot)(const shove_world *w, shove_id id) {
    if (id.index >= w->slot_count || !(w->flags[id.index] & SHOVE_SLOT_ALIVE) ||
        id.generation != ((w->tag << SHOVE_ID_COUNTER_BITS) | w->generation[id.index])) {
        return SHOVE_TREE_NONE;
    }
    return id.index;
}

/** Id of the live body in `slot`. */
static inline shove_id SHOVE_IFN(world_id)(const shove_world *w, uint32_t slot) {
    shove_id id;
    id.index = slot;
    id.generation = (w->tag << SHOVE_ID_COUNTER_BITS) | w->generation[slot];
    return id;
}

/** The move settings the shove step uses for body `slot`: its own
 *  (body_set_move_def) or the world's step_def. */
static inline const shove_move_def *SHOVE_IFN(world_move_def_of)(const shove_world *w,
                                                                 uint32_t slot) {
    const uint32_t k = w->move_def[slot];
    return k != 0u ? &w->own_defs[k - 1u].def : &w->step_def;
}

/** A result's flags, packed as SHOVE_RESULT_* bits. */
static inline uint8_t SHOVE_IFN(world_result_flags)(const shove_move_result *r) {
    return (uint8_t)((r->on_ground ? SHOVE_RESULT_ON_GROUND : 0u) |
                     (r->hit_ceiling ? SHOVE_RESULT_HIT_CEILING : 0u) |
                     (r->hit_wall ? SHOVE_RESULT_HIT_WALL : 0u) |
                     (r->stepped ? SHOVE_RESULT_STEPPED : 0u));
}

/** A result's contact count as kept per body (never negative). */
static inline uint32_t SHOVE_IFN(world_result_contacts)(const shove_move_result *r) {
    return r->contact_count > 0 ? (uint32_t)r->contact_count : 0u;
}

/** Remember `r` as body `slot`'s last result: its delta, contact count and
 *  flags (its box is the body's box). */
static inline void SHOVE_IFN(world_note_result)(shove_world *w, uint32_t slot,
                                                const shove_move_result *r) {
    w->last_delta[slot] = r->delta;
    w->last_contacts[slot] = SHOVE_IFN(world_result_contacts)(r);
    w->last_flags[slot] = SHOVE_IFN(world_result_flags)(r);
}

/** The move settings the step runs: `def` without its contacts array (the
 *  step writes no contacts into a game's array). */
static inline shove_move_def SHOVE_IFN(world_step_settings)(shove_move_def def) {
    def.contacts = NULL;
    def.contact_capacity = 0;
    return def;
}

/** Tree a body lives in. */
static inline SHOVE_T(tree) * SHOVE_IFN(world_tree_of)(shove_world *w, uint32_t slot) {
    return &w->trees[(w->flags[slot] & SHOVE_SLOT_DYNAMIC) ? SHOVE_BODY_DYNAMIC
                                                           : SHOVE_BODY_STATIC];
}

/** True when two bodies interact: each one's category is in the other's mask. */
static inline bool SHOVE_IFN(world_interacts)(const shove_world *w, uint32_t a, uint32_t b) {
    return (w->category[a] & w->mask[b]) != 0u && (w->category[b] & w->mask[a]) != 0u;
}

/** Count a body's category and mask in (`add`) or out of tree `tree`'s
 *  filter unions. */
static inline void SHOVE_IFN(world_filter_count)(shove_world *w, int tree, uint64_t category,
                                                 uint64_t mask, bool add) {
    const uint64_t bits[2] = {category, mask};
    for (int k = 0; k < 2; ++k) {
        for (uint64_t b = bits[k]; b != 0u; b &= b - 1u) {
            const int i = __builtin_ctzll(b);
            uint32_t *count = &w->filter_bit_count[tree][k][i];
            *count = add ? *count + 1u : *count - 1u;
            const uint64_t bit = (uint64_t)1u << i;
            uint64_t *u = &w->filter_union[tree][k];
            *u = *count != 0u ? (*u | bit) : (*u & ~bit);
        }
    }
}

/** False when no body of tree `tree` can interact with body `mover`
 *  (world_interacts is false for all of them): a gather skips that tree. */
static inline bool SHOVE_IFN(world_tree_may_interact)(const shove_world *w, int tree,
                                                      uint32_t mover) {
    return (w->mask[mover] & w->filter_union[tree][0]) != 0u &&
           (w->category[mover] & w->filter_union[tree][1]) != 0u;
}

/** Note a change of the static tree (a static body created, destroyed or
 *  moved, or every body shifted): the static_near lists are stale. */
static inline void SHOVE_IFN(world_static_changed)(shove_world *w) {
    w->static_stamp += 1u;
    w->static_calm = 0u;
}

/** Move a body's box (teleport): tree and box array. On failure nothing
 *  changed. */
shove_status SHOVE_IFN(world_set_body_box)(shove_world *w, uint32_t slot, shove_aabb box);

/** Start a new event list (and a new list of contacts to draw): every move
 *  and step calls this first. */
void SHOVE_IFN(world_events_begin)(shove_world *w);

/** Room for `events` more events and `drawn` more drawn contacts, so that
 *  emitting cannot fail halfway through a move. */
bool SHOVE_IFN(world_events_reserve)(shove_world *w, uint32_t events, uint32_t drawn);

/** Append an event (room reserved) and call the event callback. */
void SHOVE_IFN(world_emit)(shove_world *w, shove_event_type type, shove_id a, shove_id b,
                           shove_vec normal);

/** Append a contact of a mover (now at `mover`) with body `other` to draw
 *  (room reserved). A null `other` is a voxel; a stale one is skipped. */
void SHOVE_IFN(world_add_drawn_contact)(shove_world *w, shove_aabb mover, shove_id other,
                                        shove_vec normal);

/** Contact distance of a move with this skin, for a mover at `box`: two
 *  solid bodies whose gap is at most this are in contact (see pairs.c,
 *  "What contact means"). 2 * skin, plus four float steps of the box's
 *  largest coordinate: with skin 0 a resting body touches exactly, but far
 *  from the origin rounding may leave a step between the faces. */
static inline float SHOVE_IFN(world_contact_distance)(float skin, shove_aabb box) {
    float big = 0.0f;
    SHOVE_AXES_UNROLLED
    for (int a = 0; a < SHOVE_DIM; ++a) {
        const float lo = fabsf(box.min.raw[a]);
        const float hi = fabsf(box.max.raw[a]);
        big = (lo > big) ? lo : big;
        big = (hi > big) ? hi : big;
    }
    return 2.0f * skin + 4.0f * (shove__next_up_finite(big) - big); /* big: of a valid box */
}

/** Room for everything world_update_pairs may allocate for `slot` with up
 *  to `near_count` nearby bodies and `crossed_count` contacts (pairs and
 *  events), `extra_events` more events, and `crossed_count` contacts to
 *  draw. Call it before changing anything, so a move that cannot get the
 *  memory fails whole. */
bool SHOVE_IFN(world_pairs_reserve)(shove_world *w, uint32_t slot, uint32_t near_count,
                                    uint32_t crossed_count, uint32_t extra_events);

/** After body `slot` moved (its box is already written) under `def` (its
 *  skin sets the contact distance, its filter and response which bodies
 *  count): compare the bodies `near` it (slots: every body that may touch
 *  its box within the contact distance, a superset is fine, duplicates and
 *  the mover itself are skipped) with the pairs it had, emit begin / end and
 *  enter / exit events and remember the new pairs. `crossed` are the move's
 *  contacts: a body there that is in no pair before or after gets a begin
 *  and an end at once. Needs world_pairs_reserve first. */
void SHOVE_IFN(world_update_pairs)(shove_world *w, uint32_t slot, const shove_move_def *def,
                                   const uint32_t *near, uint32_t near_count,
                                   const shove_contact *crossed, uint32_t crossed_count);

#endif
