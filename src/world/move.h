/*
 * move.h: the world move, one layer that slides a body through its world.
 * Include after dim.h. Internal; shove3_move (move.c) and the shove step
 * (step.c) call it.
 *
 * A world move is the slide core (obstacles.h) fed by the world's gather
 * (move_gather.c: both trees, the mover's static_near list, the voxels).
 * With voxels a long move runs in pieces (move_pieces.c). The move's
 * contacts go to the world's scratch (w->crossed, grown and the move run
 * again until they all fit: move.c), what it gathered stays in
 * w->obstacles, the bodies near it go to w->near.
 */
#if (SHOVE_DIM == 2 && !defined(SHOVE_MOVE2_H)) || (SHOVE_DIM == 3 && !defined(SHOVE_MOVE3_H))
#if SHOVE_DIM == 2
#define SHOVE_MOVE2_H
#else
#define SHOVE_MOVE3_H
#endif

#include "obstacles/obstacles.h"
#include "obstacles/voxel.h"
#include "world/world.h"

/** Fill w->near with the slots of every body (other than `slot`) whose box
 *  comes within `distance` of `box` (touching included) and that interacts
 *  with `slot`. false when out of memory (the list is then empty). */
bool SHOVE_IFN(world_collect_near)(shove_world *w, uint32_t slot, shove_aabb box, float distance,
                                   uint32_t *near_count);

/** Gather function of world moves (obstacles.h): the bodies that interact
 *  with ctx->mover, from both trees, sensors (or every body, when the mover
 *  is a sensor) flagged SHOVE_OBSTACLE_SENSOR. The margin is at least
 *  ctx->min_margin, so the set also covers the contact distance. */
typedef struct SHOVE_T(world_gather_ctx) {
    shove_world *w;
    uint32_t mover;
    float min_margin;
    shove_aabb region; /**< out: the box the last gather covered */
    bool cells;        /**< voxels one box per cell (the move has a filter) */
    /** The mover's x when it has no width on x, else NaN: voxel runs are
     *  not joined there (see voxel_gather), so such a mover on the face two
     *  voxels share is outside both, as it is outside the two boxes. */
    float line_x;
    /** Voxels: read only along the path (voxel_gather's tube), and what
     *  the call may still read (its status says why a gather failed). */
    bool tube;
    shove__voxel_budget budget;
    /** Change nothing in the world (no static_calm count, no static_near
     *  list filled), so that several threads may gather at once while
     *  nothing moves: the step's speculative dry runs (step_spec.c).
     *  The bodies found, and their order, are the same either way. */
    bool read_only;
    /** Sides of the box past which the bodies gathered need not reach:
     *  on an axis a with bit a of exact_low (exact_high), the trees are
     *  asked for bodies beyond the box's own low (high) face only, not
     *  into the margin around it (the voxels as ever). Only for a caller
     *  that drops every body not overlapping the box strictly there (the
     *  chain push's look-ahead), and only on axes the gather does not
     *  sweep along (0 there). */
    unsigned exact_low, exact_high;
    /** The first gather of a core run may leave out the room a step-up
     *  needs (obstacle_source.lean_room): shove_move's own
     *  runs, each on a budget of its own, unless the body's last move tried
     *  a step-up (SHOVE_SLOT_STEP_TRIED: a mover pressing on a wall tries
     *  one on every move, and would gather twice). Off for the step's runs,
     *  which keep the set they gathered (step_slide.c), and for a long
     *  move's tube and pieces (move_voxels). */
    bool lean_room;
    /** Out: a run tried a step-up (obstacle_source.step_tried). */
    bool step_tried;
} SHOVE_T(world_gather_ctx);
bool SHOVE_IFN(world_gather)(void *ctx, shove_aabb box, shove_vec delta, float margin,
                             SHOVE_IFN(obstacle_set) * out);
/** obstacle_source.step_tried of world moves: notes the try, and before a
 *  second gather gives the run a fresh voxel budget (lean runs start on
 *  one). */
void SHOVE_IFN(world_gather_step_tried)(void *ctx, bool again);

/** What world_gather_ctx.line_x is for a mover of box `box`. */
float SHOVE_IFN(move_line_x)(shove_aabb box);

/** Set up `gather` for a move of body `slot` from `box` with this skin;
 *  `cells` when the move has a filter (voxels one box per cell). */
void SHOVE_IFN(move_gather_start)(SHOVE_T(world_gather_ctx) * gather, shove_world *w, uint32_t slot,
                                  shove_aabb box, float skin, bool cells);

/** One run of the slide core from `box` by `delta` through the world of
 *  `gather` (whose source is `source`): without voxels one core run; with
 *  them a long move may run in pieces (see move_pieces.c). Same contract
 *  as slide_core, plus: *whole is set when the result came from one core
 *  run on a full gather (`scratch` then holds it), and a status of the
 *  voxel budget (SHOVE_ERR_OUT_OF_RANGE, SHOVE_ERR_INVALID_ARGUMENT) is
 *  returned with `out` untouched; on any failure def->contacts may hold
 *  contacts of pieces run before it. */
shove_status SHOVE_IFN(move_run)(SHOVE_T(world_gather_ctx) * gather, shove_aabb box,
                                 shove_vec delta, const shove_move_def *def,
                                 const SHOVE_IFN(obstacle_source) * source,
                                 SHOVE_IFN(obstacle_set) * scratch, bool *whole,
                                 shove_move_result *out);

/** move_run for a move it runs whole (one core run: a world without
 *  voxels, or a short move, voxel_move_is_short): true with *status and
 *  `out` as move_run leaves them. False, having run nothing, for a move
 *  move_run would run in pieces. Only a run whole never reads back the
 *  contacts it wrote; a move in pieces finds the repeats, TOUCH and BOUNCE
 *  contacts of its pieces among them. move_run starts with it. */
bool SHOVE_IFN(move_run_whole)(SHOVE_T(world_gather_ctx) * gather, shove_aabb box, shove_vec delta,
                               const shove_move_def *def, const SHOVE_IFN(obstacle_source) * source,
                               SHOVE_IFN(obstacle_set) * scratch, shove_move_result *out,
                               shove_status *status);

/** Set up the world move's scratch of a new world (w->obstacles, w->near,
 *  w->crossed; the step borrows near and crossed too): empty, growing on
 *  first use with the world's allocator. */
void SHOVE_IFN(move_scratch_init)(shove_world *w, const shove_allocator *alloc);

/** Give the world move's scratch back; world_destroy calls it. */
void SHOVE_IFN(move_scratch_free)(shove_world *w);

/** Slide body gather->mover from `box` by `delta` through its world with
 *  `def` (its contacts and capacity are replaced): move_run on the world's
 *  gather and w->obstacles, every contact in w->crossed, which is grown and
 *  the run made again (same inputs, same answer) until they all fit. With
 *  `asked` non-NULL it is cleared before each run (a filter's note of what
 *  it was asked, which must describe the run that stands). *whole as for
 *  move_run. SHOVE_OK, a status of the voxel budget, or
 *  SHOVE_ERR_OUT_OF_MEMORY. */
shove_status SHOVE_IFN(move_slide)(SHOVE_T(world_gather_ctx) * gather, shove_aabb box,
                                   shove_vec delta, shove_move_def *def, bool *asked, bool *whole,
                                   shove_move_result *out);

#endif
