/*
 * obstacles.h: the candidate obstacles of one move, where they come from, and
 * the slide core that every move runs. Library-internal; include after dim.h
 * (it guards itself per dimension, like geometry.h).
 *
 * Every collide-and-slide in shove (shove3_slide over a list, shove3_move in
 * a world, moves over voxels) is the same two steps:
 *
 *   1. Gather. The slide core asks an obstacle source, ONCE per move, for
 *      every obstacle the mover may touch. The question is a box swept by a
 *      motion and grown by a margin; the source appends (a superset is fine)
 *      to an obstacle set. Rule 2 of the API (a move never goes further than
 *      asked on any axis) is what makes one question cover every slide
 *      iteration; the core widens the box on the up axis by step_height plus
 *      a probe distance so step-up, ground and edge-guard probes are covered.
 *
 *   2. Slide. SHOVE_IFN(slide_core) scans the set as often as it needs,
 *      through the batch kernels of src/simd (candidate search) and the
 *      scalar sweep_detail of geometry.h (exact times and tie information),
 *      so every SIMD level gives the same bits.
 *
 * The result of a move does not depend on the order in which a source
 * appends obstacles (the core only takes minima, maxima and unions over the
 * set), so a world that gathers from a tree in tree order gets exactly the
 * box, displacement and flags that shove3_slide gets from a list. Only the
 * order of contacts with the same t follows the order of the set.
 *
 * Obstacle sets. Struct of arrays, so the batch kernels scan them directly:
 * box i is (min[a][i], max[a][i]) on axis a, plus its body id (null for list
 * and voxel obstacles), its list index (or -1) and flags. A set either grows
 * through a shove_allocator (worlds keep one as scratch and clear it per
 * move, so the steady state allocates nothing) or lives in fixed storage
 * (SHOVE_IFN(obstacle_storage), used on the stack by shove3_slide); pushing
 * into a full fixed set fails.
 *
 * Obstacle sources. A gather function
 *
 *     bool gather(void *ctx, shove_aabb box, shove_vec delta, float margin,
 *                 SHOVE_IFN(obstacle_set) *out);
 *
 * appends every obstacle that `box` swept by `delta`, with every side pushed
 * out by `margin`, may touch (strictly overlap or touch). It returns false
 * only when it ran out of memory; the core then fails the move with
 * SHOVE_ERR_OUT_OF_MEMORY and writes nothing. Sources must be deterministic:
 * the same question gives the same obstacles in the same order.
 *
 * Resumable sources (the list source of shove3_slide) may instead stop when
 * a fixed set is full: they set out->more and store in out->cursor where to
 * continue, and return true. The core then streams: before every scan it
 * clears the set, sets cursor to 0 and gathers chunk after chunk until
 * `more` stays false. Sources that never stop early ignore cursor and more.
 */
#if (SHOVE_DIM == 2 && !defined(SHOVE_OBSTACLES2_H)) ||                                            \
    (SHOVE_DIM == 3 && !defined(SHOVE_OBSTACLES3_H))
#if SHOVE_DIM == 2
#define SHOVE_OBSTACLES2_H
#else
#define SHOVE_OBSTACLES3_H
#endif

#include "defs.h"
#include "geometry/geometry.h"

#ifndef SHOVE_OBSTACLE_FLAGS_
#define SHOVE_OBSTACLE_FLAGS_
/** Obstacle flags. A sensor is reported (as SHOVE_RESPONSE_CROSS) and never
 *  blocks, whatever the filter says, unless the filter ignores it. */
enum {
    SHOVE_OBSTACLE_SENSOR = 1u << 0,
    SHOVE_OBSTACLE_VOXEL = 1u << 1, /**< a voxel box; its cell is in `cell` */
    /** Bits 4 to 6: the move's filter's answer for this obstacle plus one,
     *  once asked (0: not asked yet). A push clears them, so an answer
     *  lasts as long as the obstacle stays at its place in the set, within
     *  one slide (see response_filtered in solve/mover.c). */
    SHOVE_OBSTACLE_ANSWER_SHIFT = 4,
    SHOVE_OBSTACLE_ANSWER_MASK = 7u << 4
};

/** Obstacles a fixed obstacle storage holds (one chunk when streaming). */
#define SHOVE_OBSTACLE_CHUNK 128
#endif

/** Candidate obstacles of one move, struct of arrays. */
typedef struct SHOVE_IFN(obstacle_set) {
    float *min[SHOVE_DIM]; /**< min[a][i]: lower bound of obstacle i on axis a */
    float *max[SHOVE_DIM]; /**< max[a][i]: upper bound */
    shove_id *id;          /**< body id, null for list and voxel obstacles */
    int32_t *index;        /**< index in the caller's list, or -1 */
    int32_t *cell;         /**< cell[DIM * i + a]: voxel cell (written for voxels only) */
    uint8_t *flags;        /**< SHOVE_OBSTACLE_* bits */
    size_t count;
    size_t capacity;
    shove_allocator allocator; /**< how the arrays grow; unused for fixed storage */
    bool fixed;                /**< storage is not ours: never grow or free it */
    bool more;                 /**< a resumable source stopped early (see above) */
    size_t cursor;             /**< where a resumable source continues */
} SHOVE_IFN(obstacle_set);

/** Storage for a fixed set of SHOVE_OBSTACLE_CHUNK obstacles (about 4.7 KB in
 *  3D), meant for the stack. */
typedef struct SHOVE_IFN(obstacle_storage) {
    float min[SHOVE_DIM][SHOVE_OBSTACLE_CHUNK];
    float max[SHOVE_DIM][SHOVE_OBSTACLE_CHUNK];
    shove_id id[SHOVE_OBSTACLE_CHUNK];
    int32_t index[SHOVE_OBSTACLE_CHUNK];
    int32_t cell[SHOVE_DIM * SHOVE_OBSTACLE_CHUNK];
    uint8_t flags[SHOVE_OBSTACLE_CHUNK];
} SHOVE_IFN(obstacle_storage);

/** An empty set that grows through `allocator` (NULL or all-zero: the C
 *  library's realloc / free). Allocates nothing until the first push. */
void SHOVE_IFN(obstacles_init)(SHOVE_IFN(obstacle_set) * set, const shove_allocator *allocator);

/** An empty set over fixed storage; it never allocates. */
void SHOVE_IFN(obstacles_init_fixed)(SHOVE_IFN(obstacle_set) * set,
                                     SHOVE_IFN(obstacle_storage) * storage);

/** Release what the set allocated (nothing for fixed storage); the set is
 *  empty and usable again afterwards. */
void SHOVE_IFN(obstacles_free)(SHOVE_IFN(obstacle_set) * set);

/** Make room for at least `capacity` obstacles. False when out of memory or
 *  when fixed storage is too small; the set is unchanged then. */
bool SHOVE_IFN(obstacles_reserve)(SHOVE_IFN(obstacle_set) * set, size_t capacity);

/** Forget every obstacle (keeps the memory, cursor and allocator). */
static inline void SHOVE_IFN(obstacles_clear)(SHOVE_IFN(obstacle_set) * set) {
    set->count = 0;
    set->more = false;
}

/** Append one obstacle, growing the set if it may. False when it cannot. */
static inline bool SHOVE_IFN(obstacles_push)(SHOVE_IFN(obstacle_set) * set, shove_aabb box,
                                             shove_id id, int32_t index, uint8_t flags) {
    if (set->count == set->capacity &&
        !SHOVE_IFN(obstacles_reserve)(set, set->capacity < 32 ? 64 : set->capacity * 2)) {
        return false;
    }
    const size_t i = set->count++;
    SHOVE_AXES_UNROLLED
    for (int a = 0; a < SHOVE_DIM; ++a) {
        set->min[a][i] = box.min.raw[a];
        set->max[a][i] = box.max.raw[a];
    }
    set->id[i] = id;
    set->index[i] = index;
    set->flags[i] = flags;
    return true;
}

/** Append one box of voxel `cell` (flags get SHOVE_OBSTACLE_VOXEL). */
static inline bool SHOVE_IFN(obstacles_push_voxel)(SHOVE_IFN(obstacle_set) * set, shove_aabb box,
                                                   const int32_t cell[SHOVE_DIM], uint8_t flags) {
    if (!SHOVE_IFN(obstacles_push)(set, box, SHOVE_NULL_ID, -1,
                                   (uint8_t)(flags | SHOVE_OBSTACLE_VOXEL))) {
        return false;
    }
    int32_t *c = set->cell + (size_t)SHOVE_DIM * (set->count - 1u);
    SHOVE_AXES_UNROLLED
    for (int a = 0; a < SHOVE_DIM; ++a) {
        c[a] = cell[a];
    }
    return true;
}

/** Box of obstacle i. */
static inline shove_aabb SHOVE_IFN(obstacles_box)(const SHOVE_IFN(obstacle_set) * set, size_t i) {
    shove_aabb b;
    SHOVE_AXES_UNROLLED
    for (int a = 0; a < SHOVE_DIM; ++a) {
        b.min.raw[a] = set->min[a][i];
        b.max.raw[a] = set->max[a][i];
    }
    return b;
}

/** The obstacles [first, first + count) as batch-kernel input. */
static inline shove_soa SHOVE_IFN(obstacles_soa)(const SHOVE_IFN(obstacle_set) * set, size_t first,
                                                 size_t count) {
    shove_soa soa;
    SHOVE_AXES_UNROLLED
    for (int a = 0; a < SHOVE_DIM; ++a) {
        soa.min[a] = set->min[a] + first;
        soa.max[a] = set->max[a] + first;
    }
    soa.count = count;
    return soa;
}

/** Obstacle i as a filter sees it. */
static inline void SHOVE_IFN(obstacles_describe)(const SHOVE_IFN(obstacle_set) * set, size_t i,
                                                 shove_obstacle *out) {
    memset(out, 0, sizeof *out);
    out->other = set->id[i];
    out->index = set->index[i];
    if (set->flags[i] & SHOVE_OBSTACLE_VOXEL) {
        out->voxel = true;
        for (int a = 0; a < SHOVE_DIM; ++a) {
            out->cell[a] = set->cell[(size_t)SHOVE_DIM * i + (size_t)a];
        }
    }
    out->box = SHOVE_IFN(obstacles_box)(set, i);
}

/** Where a move's obstacles come from (see the top of this file). */
typedef bool (*SHOVE_IFN(gather_fn))(void *ctx, shove_aabb box, shove_vec delta, float margin,
                                     SHOVE_IFN(obstacle_set) * out);

typedef struct SHOVE_IFN(obstacle_source) {
    SHOVE_IFN(gather_fn) gather;
    void *ctx;
    shove_id mover; /**< the body that moves, as filters see it (null for lists) */
    /** A source whose gather costs by the region it reads (voxel cells, a
     *  tree walk) may be asked first without the room a step-up needs
     *  (gather_region in slide.c), and again with it just before a step-up
     *  is tried (step_up.c): when *lean_room is true. NULL: never. */
    const bool *lean_room;
    /** Called whenever the core tries a step-up, with `again` true when it
     *  is about to gather again with that room: the source may then
     *  forget what the first gather spent (a voxel budget), so that the
     *  pair of them reads no more than one full gather may. NULL: nothing
     *  to do. */
    void (*step_tried)(void *ctx, bool again);
} SHOVE_IFN(obstacle_source);

/** The def a move runs with (defs.h): `def` itself when it carries the
 *  literal mark, else `scratch` filled with the defaults and the def's
 *  non-zero fields (the defaults alone for a NULL def). NULL when the mark
 *  is neither (an uninitialised def). Check the result with
 *  move_def_is_valid. */
const shove_move_def *SHOVE_IFN(move_def_resolve)(const shove_move_def *def,
                                                  shove_move_def *scratch);

/** True when `def` is a usable move def (the checks shove3_slide makes):
 *  finite skin >= 0 and step_height >= 0 (0 when up_axis is -1), a finite
 *  edge_footing >= 0, max_iterations in 1..64, up_axis in -1..DIM-1, a known default response,
 * contacts non-NULL when contact_capacity > 0 and contact_capacity >= 0. */
bool SHOVE_IFN(move_def_is_valid)(const shove_move_def *def);

/** True when a move of `box` by `delta` with `def` can run: a valid box, a
 *  finite delta, a valid def, and an end box (widened by the step-up reach)
 *  that is still finite. Every entry point checks this before slide_core. */
bool SHOVE_IFN(move_is_valid)(shove_aabb box, shove_vec delta, const shove_move_def *def);

/** The last part of move_is_valid, for callers that checked the box, delta
 *  and def already: the end box, widened by the step-up reach, is a box. */
bool SHOVE_IFN(move_reach_is_valid)(shove_aabb box, shove_vec delta, const shove_move_def *def);

/** Run one whole move of `box` by `delta`: gather once from `source` into
 *  `scratch` (cleared first), then slide with the responses and filter of
 *  `def`, report contacts into def->contacts, step up, guard edges and set
 *  the flags. Callers validate first: SHOVE_IFN(move_is_valid) and `out`
 *  non-NULL.
 *
 *  Returns SHOVE_OK, or SHOVE_ERR_OUT_OF_MEMORY when the gather failed; then
 *  neither `out` nor def->contacts was written. `scratch` keeps its memory
 *  for the next move. */
shove_status SHOVE_IFN(slide_core)(shove_aabb box, shove_vec delta, const shove_move_def *def,
                                   const SHOVE_IFN(obstacle_source) * source,
                                   SHOVE_IFN(obstacle_set) * scratch, shove_move_result *out);

#endif
