/*
 * shove2.h: the 2D half of shove (tiles, quadtree). shove3.h is its twin.
 *
 * Functions in this header:
 *   geometry     shove2_aabb_is_valid, shove2_aabb_overlaps, shove2_aabb_from_center,
 *                shove2_sweep_aabb, shove2_ray_aabb
 *   slide        shove2_default_move_def, shove2_slide
 *   resolve      shove2_resolve
 *   world        shove2_default_world_def, shove2_world_create, shove2_world_destroy,
 *                shove2_world_body_count, shove2_world_body_at, shove2_world_shift_origin
 *   bodies       shove2_default_body_def, shove2_body_create, shove2_body_destroy,
 *                shove2_body_is_valid, shove2_body_get_box, shove2_body_set_box,
 *                shove2_body_set_type, shove2_body_set_priority, shove2_body_set_filter,
 *                shove2_body_set_user_data, shove2_body_get_user_data
 *   moving       shove2_move, shove2_body_set_motion, shove2_world_step,
 *                shove2_world_get_step_def, shove2_body_set_move_def, shove2_body_get_result
 *   events       shove2_world_get_events
 *   tiles        shove2_default_voxel_def, shove2_world_set_voxels, shove2_world_get_voxels,
 *                shove2_merge_grid
 *   queries      shove2_query_box, shove2_body_overlaps, shove2_cast_box, shove2_cast_ray,
 *                shove2_cast_body
 *   batch (SIMD) shove2_overlap_batch, shove2_sweep_batch
 *   bindings     shove2_query_box_ptr, shove2_body_set_box_ptr, shove2_move_ptr,
 *                shove2_bump_detect, shove2_bump_detect_all, shove2_bump_check
 *   bump grid    shove2_bump_grid_create, shove2_bump_grid_destroy, shove2_bump_grid_add,
 *                shove2_bump_grid_update, shove2_bump_grid_remove, shove2_bump_grid_count,
 *                shove2_bump_grid_rects, shove2_bump_grid_query, shove2_bump_grid_move
 *   debugging    shove2_world_draw, shove2_world_dump, shove2_world_load
 *
 * Conventions. Boxes are closed intervals [min, max] per axis, but overlap is
 * strict: boxes that only touch do not overlap, so a body resting on a floor
 * or sliding along a wall is free. Motions are displacements for one call,
 * not velocities. A normal is a unit axis vector pointing from the obstacle
 * toward the mover. Functions that can refuse their input return a
 * shove_status and change nothing when they refuse.
 *
 * Defs. Every def struct (world, body, move, voxel) can be written two ways.
 * From its default function (shove2_default_move_def(), ...): the function
 * marks the def (the private field internal_literal_mark), and every field
 * of a marked def is taken as it is, zeros included; that is how a game
 * asks for a zero value such as SHOVE_RESPONSE_IGNORE, up_axis 0 or mask 0.
 * Or the C way, `= {0}` or designated initialisers naming the fields the
 * game cares about: a def without the mark reads every field that is zero
 * (all bits) as that field's default, so `(shove2_move_def){.step_height =
 * 0.6f}` is the default move def with a step height. The defaults are the
 * ones each field's comment names; a nested def (the world's step_def)
 * follows its own mark. A def with a mark that is neither (an uninitialised
 * struct) is refused, and so is any value that is invalid, with
 * SHOVE_ERR_INVALID_ARGUMENT. Copies of a def keep its mark.
 *
 * Locking. While a world runs a call that calls back into the game (the
 * event callback, move filters and tile shapes during shove2_move and
 * shove2_world_step; tile shapes during casts and shove2_world_dump; the
 * callbacks of shove2_world_draw), the world is locked. Calls that change it
 * refuse with SHOVE_ERR_LOCKED and change nothing: shove2_move (and shove2_move_ptr),
 * shove2_world_step, shove2_body_create, shove2_body_destroy,
 * shove2_body_set_box (and shove2_body_set_box_ptr), shove2_body_set_motion,
 * shove2_body_set_type, shove2_body_set_priority, shove2_body_set_filter,
 * shove2_body_set_user_data, shove2_body_set_move_def, shove2_world_set_voxels and
 * shove2_world_shift_origin; shove2_world_destroy does nothing. Calls that
 * only read may be made: shove2_world_body_count, shove2_body_is_valid,
 * shove2_body_get_box, shove2_body_get_user_data, shove2_body_get_result,
 * shove2_world_get_events
 * (the list as far as it is written), shove2_query_box, shove2_body_overlaps, shove2_cast_box,
 * shove2_cast_ray, shove2_cast_body, shove2_query_box_ptr, shove2_world_dump
 * and shove2_world_draw; during a step they see bodies partway through it.
 * The call that was running finishes as if the callback had made no call,
 * and its event list is kept. Other worlds are not locked: a callback may
 * change them, or make a new one (shove2_world_load). A callback that never
 * returns hangs the call that runs it.
 */
#ifndef SHOVE2_H
#define SHOVE2_H

#include <stdio.h>

#include "shove_common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* >>geometry ------------------------------------------------------------- */

/** Axis-aligned box: min <= max on every axis. */
typedef struct shove2_aabb {
    vec2s min, max;
} shove2_aabb;

/** First contact of a sweep or cast. */
typedef struct shove2_hit {
    float t;             /**< fraction of the motion at first contact, 0..1 */
    vec2s normal;        /**< unit axis vector from the obstacle toward the mover */
    shove_id other;      /**< body hit (null for array / tile obstacles) */
    bool started_inside; /**< the boxes already overlapped at t = 0 */
} shove2_hit;

/** True when every coordinate is finite and min <= max on every axis. */
SHOVE_API bool shove2_aabb_is_valid(shove2_aabb a);

/** Strict overlap: true when the interiors intersect. Boxes that only touch
 *  (share a face, edge or corner) do not overlap. Invalid boxes never overlap. */
SHOVE_API bool shove2_aabb_overlaps(shove2_aabb a, shove2_aabb b);

/** Box with the given centre and half extents (half extents are not checked:
 *  negative ones give an invalid box). */
SHOVE_API shove2_aabb shove2_aabb_from_center(vec2s center, vec2s half_extents);

/** Sweep `moving` by `delta` against `target` (slab method on the Minkowski
 *  sum). Returns true when moving by t * delta for some t in [0, 1] makes the
 *  boxes overlap strictly; then `hit` (may be NULL) gets the first such t, the
 *  crossed face of `target` as normal, and started_inside. Sliding along a
 *  face the mover only touches is not a hit, nor is an edge or corner graze.
 *
 *  When the boxes already overlap, t = 0, started_inside = true and the normal
 *  names the axis and side along which the mover gets out with the smallest
 *  push. When two axes are entered at the same instant (an exact corner hit),
 *  the normal is that of the axis with the smaller motion component, the lower
 *  axis on a tie: a mover pressing lightly into a floor while running along it
 *  reports the floor, not the seam ahead. Invalid boxes or a non-finite delta
 *  return false and leave `hit` untouched. */
SHOVE_API bool shove2_sweep_aabb(shove2_aabb moving, vec2s delta, shove2_aabb target,
                                 shove2_hit *hit);

/** shove2_sweep_aabb for a point: a ray from `origin` to `origin + delta`. A
 *  ray running exactly along a face, edge or corner is not a hit: this asks
 *  about one box alone (shove2_cast_ray asks about the union of a world's
 *  solids, where a ray along the shared face of two boxes hits). */
SHOVE_API bool shove2_ray_aabb(vec2s origin, vec2s delta, shove2_aabb box, shove2_hit *hit);

/* >>slide ---------------------------------------------------------------- */

/** One obstacle met during a move. */
typedef struct shove2_contact {
    shove_id other;          /**< null for list / tile obstacles */
    int32_t index;           /**< index in the obstacle array, or -1 */
    vec2s normal;            /**< as in shove2_hit */
    float t;                 /**< fraction of this move's requested motion */
    shove_response response; /**< what the mover did */
} shove2_contact;

/** An obstacle as a move's filter sees it. */
typedef struct shove2_obstacle {
    shove_id other;  /**< the body, or null for list and tile obstacles */
    int32_t index;   /**< index in the obstacle array, or -1 */
    int32_t cell[2]; /**< the voxel's cell when `voxel` is true (else zeros) */
    bool voxel;      /**< a box of a tile */
    shove2_aabb box; /**< the obstacle's box in world units */
} shove2_obstacle;

/** Per-obstacle response of a move. `mover` is the body that moves (the
 *  null id for shove2_slide on a list); `obstacle` (never NULL, valid only
 *  during the call) names what it meets: a body with its id and box, a list
 *  box with its index and box, or one box of a tile with its cell and box.
 *  Return SHOVE_RESPONSE_IGNORE to pass. A slide keeps its first answer for
 *  each obstacle it holds, so most moves ask about each obstacle once; a
 *  long list read in chunks, a move over tiles run in pieces and the
 *  several runs of a world step may ask again, and every answer about one
 *  obstacle in one move must be the same; values
 *  outside the enum count as SLIDE (blocking is the safe guess). Tiles
 *  reach a filter one box of one cell at a time (without a filter, a move
 *  meets the boxes of a row of tiles that continue each other as one box:
 *  the same solid). In a world step
 *  `mover` is whichever body the step is moving at that moment (a pushed or
 *  carried body included). During a world move or step the world is
 *  locked (see "Locking" at the top). A step with worker_count above 1
 *  (see shove2_world_def) may call it from several threads at once. */
typedef shove_response (*shove2_filter_fn)(void *ctx, shove_id mover,
                                           const shove2_obstacle *obstacle);

/** How a move behaves. Start from shove2_default_move_def(), or leave the
 *  fields you do not set zero (see "Defs" at the top).
 *
 *  Edge guard (sneaking). With edge_guard set, a mover on the ground whose
 *  motion does not rise (up component <= 0) does not walk off a drop deeper
 *  than step_height: ground a step reaches (a top at most step_height
 *  above or below its foot) is its support. Along each sideways axis it
 *  goes at most so far that `edge_footing` world units of its box still
 *  lie over that support, and it stays on_ground. A box narrower than
 *  edge_footing on that axis keeps its whole width over the support (a
 *  mover 0.2 wide with a footing of 0.3 stops with its leading side at the
 *  ledge); the footing kept is never less than the skin. A wall in the
 *  way is no drop: the guard lets the slide stop the mover against it, and
 *  a wall cut in two across the up axis guards as the whole wall does
 *  (rule 3). The default, 1/16, suits blocks 1 unit wide: a game in other
 *  units (pixels) sets its own. A literal 0 (in a def from
 *  shove2_default_move_def()) lets the box stop with its side on the
 *  ledge's edge, over it by only a few float steps. A mover that already
 *  has less footing than that (placed there) is not pulled back, only kept
 *  from going further out. Jumps (a rising motion) and falls are not
 *  guarded; edge_footing does nothing without edge_guard, and edge_guard
 *  does nothing with up_axis -1 (no ground to guard; accepted so a def can
 *  switch its up axis off and on). */
typedef struct shove2_move_def {
    float skin;              /**< gap kept to surfaces stopped against (default 0) */
    int max_iterations;      /**< slide iterations (default 8, range 1..64) */
    int up_axis;             /**< default 1 (Y up); -1 = no "up" (top-down, space) */
    float step_height;       /**< auto step-up height (climbs when blocked on ground); 0 = off;
                                  needs an up axis (refused with up_axis -1) */
    bool edge_guard;         /**< grounded movers do not walk off drops deeper than step_height */
    float edge_footing;      /**< what the edge guard keeps over the support (default 1/16) */
    shove_response response; /**< default response: SHOVE_RESPONSE_SLIDE */
    shove2_filter_fn filter; /**< optional per-obstacle response */
    void *filter_ctx;
    shove2_contact *contacts; /**< optional out-array */
    int contact_capacity;
    uint32_t internal_literal_mark; /**< private: set by shove2_default_move_def() (see "Defs") */
} shove2_move_def;

/** The defaults every field comment above names. */
SHOVE_API shove2_move_def shove2_default_move_def(void);

/** Outcome of a move. */
typedef struct shove2_move_result {
    shove2_aabb box;   /**< where the mover ends */
    vec2s delta;       /**< actual displacement */
    int contact_count; /**< contacts found (may exceed capacity; only capacity written) */
    bool on_ground;    /**< resting on a surface whose normal is +up (within skin) */
    bool hit_ceiling;  /**< stopped by a surface whose normal is -up */
    bool hit_wall;     /**< stopped by any other surface */
    bool stepped;      /**< an auto step-up happened */
} shove2_move_result;

/** Collide-and-slide `box` by `delta` through a list of static obstacles.
 *  `def` may be NULL for the defaults. On SHOVE_OK `out` holds the result;
 *  on any other status `out` and def->contacts are untouched. Allocates
 *  nothing.
 *
 *  Every move obeys four rules: a mover that starts free never ends
 *  overlapping a solid obstacle (no tunnelling at any speed); it never moves
 *  further than asked, nor backwards, on any axis; it does not snag on seams
 *  between touching boxes; and the same inputs give the same bits at every
 *  SIMD level. The second rule has two exceptions: a step-up (`stepped`
 *  set) may raise the mover by up to step_height, and a BOUNCE reflects the
 *  rest of the motion on the blocked axis as bump.lua does (the new goal is
 *  the contact point plus the reflected rest), which may carry the mover
 *  back past its start on that axis. A step-up's settle back down is not
 *  the game's motion and does not bounce: a stepping mover ends at most
 *  step_height above its start.
 *
 *  The mover stops `skin` short of what blocks it (or where it is, if it
 *  started closer) and never a float step inside it. The default skin is 0:
 *  movers rest exactly on faces. A positive skin leaves a resting mover
 *  floating that much above a floor, so it no longer fits under a roof
 *  exactly its height above the floor. SLIDE keeps the motion
 *  along the surface (along the crease of two, and stops at three); TOUCH
 *  stops; BOUNCE reflects the rest of the blocked part (bump.lua's bounce:
 *  from (10, 10) sent to (1, 4) onto a floor at y = 8, it ends at (1, 12));
 *  CROSS passes and reports. A mover exactly as
 *  wide as a gap passes it without a contact. A mover that starts inside an
 *  obstacle is not pushed out (see shove2_resolve): it may move out of it or
 *  along it, never deeper along the shortest way out, and the obstacle is
 *  reported at t = 0 with that way out as normal.
 *
 *  Contacts: every obstacle that stopped part of the motion or was crossed,
 *  once, in order of t (ties in list order), several on one face included.
 *  A step reports the contacts of the raised path (t = 0 for the raise, 1
 *  for the settle). on_ground looks under the final box whether or not the
 *  mover pressed down. */
SHOVE_API shove_status shove2_slide(shove2_aabb box, vec2s delta, const shove2_aabb *obstacles,
                                    size_t count, const shove2_move_def *def,
                                    shove2_move_result *out);

/* >>resolve -------------------------------------------------------------- */

/** Discrete resolution (move first, then push out). `box` is the mover AFTER
 *  applying `motion`. Writes to `out` a corrected box that overlaps no
 *  obstacle; if no correction works, the box before the motion.
 *
 *  MANDATORY_FIRST corrects only against the motion and never by more than
 *  it; obstacles that only one axis can clear go first. LARGEST_OVERLAP
 *  pushes out of the most-overlapped obstacle along its shallowest axis, but
 *  only when that lowers the total overlap (no jitter in a passage a bit too
 *  narrow). TELEPORT takes the shortest correction in any direction. Going
 *  back "to before the motion" on an axis lands exactly on the face the
 *  mover rested against, so a resting mover is still, bit for bit, frame
 *  after frame. Discrete: a motion longer than an obstacle can pass it. */
SHOVE_API shove_status shove2_resolve(shove2_aabb box, vec2s motion, const shove2_aabb *obstacles,
                                      size_t count, shove_resolve_mode mode, shove2_aabb *out);

/* >>world ---------------------------------------------------------------- */

/** A world of bodies, optional tiles and a broad phase. Opaque. */
typedef struct shove2_world shove2_world;

/** A world event; see shove2_world_get_events. */
typedef struct shove2_event {
    shove_event_type type;
    shove_id a;   /**< the body that moved, the sensor's visitor, or the squished body */
    shove_id b;   /**< the other body: obstacle, sensor, or the pusher (null for tiles) */
    vec2s normal; /**< contact: normal on `a` as in shove2_hit; squish: push direction */
} shove2_event;

/** Called once per event as it happens, in addition to the event list. The
 *  world is locked meanwhile (see "Locking" at the top). */
typedef void (*shove2_event_fn)(void *ctx, const shove2_event *event);

/** World settings. Start from shove2_default_world_def(), or leave the
 *  fields you do not set zero (see "Defs" at the top; all-zero bounds or
 *  body_capacity mean the defaults, a zero step_def the default move def). */
typedef struct shove2_world_def {
    shove2_aabb bounds;        /**< where most bodies live (a hint; bodies may leave it) */
    int32_t body_capacity;     /**< bodies to reserve room for (grows as needed) */
    shove2_move_def step_def;  /**< move settings of shove2_world_step (contacts ignored) */
    shove_allocator allocator; /**< all-zero = realloc / free */
    shove2_event_fn event_fn;  /**< optional event callback */
    void *event_ctx;
    /** Threads shove2_world_step may use, the caller's included: 1 (the
     *  default; 0 means 1) to SHOVE_MAX_WORKERS. The step's results are the
     *  same, bit for bit, for every count and every task system. With more
     *  than one, the step_def's filter and the tile callback may be called
     *  from several threads at once (they must only read what they share),
     *  and events are still delivered on the calling thread. The extra
     *  workers run every mover's first slide ahead of the serial pass; the
     *  step times itself and does that only while it makes the step
     *  faster, so more workers never make a step much slower (today they
     *  rarely make it faster: see the README). */
    int worker_count;
    /** The game's task system (both or neither): NULL for a built-in pool
     *  of worker_count - 1 threads (C11 threads or pthreads), started by
     *  the first step that uses it and joined by shove2_world_destroy; a
     *  system without threads runs everything on the caller. */
    shove_enqueue_task_fn *enqueue_task;
    shove_finish_task_fn *finish_task;
    void *task_ctx; /**< passed to enqueue_task and finish_task */
    /** true: shove2_move keeps no contact pairs and reports no events (its
     *  event list is empty, debug drawing shows no contacts for it), as a
     *  game that never reads them wants: a move then costs less. The moved
     *  body's pairs stay as they are, as after shove2_body_set_box; the
     *  next shove2_world_step brings them up to date, with events. Moves
     *  end in the same place either way, and the step is not affected. A
     *  quiet move given no contact array only counts its contacts
     *  (contact_count), without recording them.
     *  Default false (pairs and events kept). */
    bool quiet_moves;
    uint32_t internal_literal_mark; /**< private: set by shove2_default_world_def() (see "Defs") */
} shove2_world_def;

/** Defaults: bounds [-1024, 1024] on every axis, room for 1024 bodies,
 *  step_def = shove2_default_move_def(), the C allocator, no callback, one
 *  worker (the caller), no task system, pairs and events kept. */
SHOVE_API shove2_world_def shove2_default_world_def(void);

/** Create a world. `def` may be NULL for the defaults.
 *  SHOVE_ERR_INVALID_ARGUMENT for a def out of range, among others a
 *  worker_count below 0 or above SHOVE_MAX_WORKERS, or enqueue_task
 *  without finish_task (or the reverse). */
SHOVE_API shove_status shove2_world_create(const shove2_world_def *def, shove2_world **out);

/** Destroy a world and everything in it. NULL is fine. From a callback of
 *  the same world (see "Locking" at the top) it does nothing: destroy the
 *  world after the call that runs the callback returns. */
SHOVE_API void shove2_world_destroy(shove2_world *w);

/** Number of live bodies (0 for NULL). */
SHOVE_API size_t shove2_world_body_count(const shove2_world *w);

/** The id of the live body whose id has index `index` (the slot; the
 *  number a dump writes after "body"), for tools that name bodies by it,
 *  such as shove-replay. SHOVE_ERR_STALE_ID when no live body has that
 *  index, SHOVE_ERR_INVALID_ARGUMENT for NULL arguments; `*out` is only
 *  written on SHOVE_OK. */
SHOVE_API shove_status shove2_world_body_at(const shove2_world *w, uint32_t index, shove_id *out);

/** Move the world's origin to `new_origin`: every body, the tile origin
 *  and the world's bounds move by -new_origin, so a game far from zero keeps
 *  its numbers small (floats near 100,000 are 1/128 apart; near 0 they are
 *  far finer than any skin). Pending motions, pairs and ids are unchanged;
 *  the broad phase is rebuilt. Refuses a NULL world, a non-finite origin or
 *  a shift that would make a coordinate non-finite; SHOVE_ERR_OUT_OF_MEMORY
 *  when the rebuild cannot get memory. Nothing changes when it refuses. */
SHOVE_API shove_status shove2_world_shift_origin(shove2_world *w, vec2s new_origin);

/* >>bodies --------------------------------------------------------------- */

/** How a body starts. Start from shove2_default_body_def(), or leave the
 *  fields you do not set zero (see "Defs" at the top: category 0 and mask 0
 *  then mean the defaults; a body that should collide with nothing needs a
 *  def from shove2_default_body_def() with mask 0). */
typedef struct shove2_body_def {
    shove2_aabb box;
    shove_body_type type; /**< default STATIC */
    uint8_t priority;     /**< push strength: 0 is the strongest, 255 the weakest; a body
                               pushes dynamic bodies with a larger number (weaker) */
    uint64_t category;    /**< bits this body is; default 1 */
    uint64_t mask;        /**< bits this body collides with; default all */
    bool sensor;          /**< reported, never blocks */
    void *user_data;
    uint32_t internal_literal_mark; /**< private: set by shove2_default_body_def() (see "Defs") */
} shove2_body_def;

/** Defaults: empty box at the origin, STATIC, priority 0 (the strongest), category 1, mask
 *  all bits, not a sensor, no user data. */
SHOVE_API shove2_body_def shove2_default_body_def(void);

/** Add a body. Two bodies interact only when each one's category is in the
 *  other's mask.
 *
 *  A body may be created overlapping others (a spawn in a crowd, inside a
 *  trigger): that is SHOVE_OK, nothing is moved and no event says so. A
 *  body created inside a solid body it interacts with (or inside a solid
 *  voxel) starts inside it: its moves and steps take it out of it or along
 *  it, never deeper along the shortest way out (see shove2_slide), and
 *  nothing pushes it out. shove2_body_overlaps lists the bodies it starts
 *  inside; shove2_cast_box of its box with delta zero and mask 0 hits
 *  (started_inside, null other) when it is inside a voxel. A game that
 *  wants it free moves it out along the hit's normal or places it
 *  elsewhere (shove2_body_set_box, or shove2_query_box before creating). */
SHOVE_API shove_status shove2_body_create(shove2_world *w, const shove2_body_def *def,
                                          shove_id *out);

/** Remove a body; its id is never valid again. */
SHOVE_API shove_status shove2_body_destroy(shove2_world *w, shove_id id);

/** True when `id` names a live body of this world. */
SHOVE_API bool shove2_body_is_valid(const shove2_world *w, shove_id id);

/** Current box of a body. */
SHOVE_API shove_status shove2_body_get_box(const shove2_world *w, shove_id id, shove2_aabb *out);

/** Teleport a body: no collision, no events. Moves remember the static
 *  bodies around each mover until a static body is created, destroyed or
 *  moved (here or by shove2_move); bodies that move every frame (lifts,
 *  doors) keep that memory useful when they are dynamic. */
SHOVE_API shove_status shove2_body_set_box(shove2_world *w, shove_id id, shove2_aabb box);

/** Make a body static or dynamic. A body that becomes static keeps its box
 *  and loses its pending motion (static bodies never move); one that becomes
 *  dynamic may be given a motion and pushed from the next step on. The body
 *  moves to the other broad-phase tree, and the static bodies the movers
 *  remember around them are looked up again on their next move. Its pairs
 *  (contacts, sensors) stay as they are; the next move or step that
 *  involves it brings them up to date, with events as usual. The same type
 *  again is SHOVE_OK and changes nothing. Refuses a NULL world or a type
 *  outside the enum (SHOVE_ERR_INVALID_ARGUMENT) and a stale id
 *  (SHOVE_ERR_STALE_ID); SHOVE_ERR_OUT_OF_MEMORY when the other tree cannot
 *  take the body. Nothing changes when it refuses. */
SHOVE_API shove_status shove2_body_set_type(shove2_world *w, shove_id id, shove_body_type type);

/** Set a body's priority (push strength: 0 is the strongest, 255 the
 *  weakest), used from the next step on: who
 *  pushes whom is decided when a step meets the bodies. SHOVE_ERR_STALE_ID,
 *  or SHOVE_ERR_INVALID_ARGUMENT for a NULL world; nothing changes then. */
SHOVE_API shove_status shove2_body_set_priority(shove2_world *w, shove_id id, uint8_t priority);

/** Set what a body is (`category`) and what it collides with (`mask`), as
 *  in shove2_body_def. Takes effect at once for moves, steps and queries.
 *  Contacts and sensor overlaps with bodies it no longer interacts with end
 *  here, without events (as when a body is destroyed: no CONTACT_END or
 *  SENSOR_EXIT follows for them); pairs that still interact are kept, and
 *  new ones begin on the next move or step that finds them, with events.
 *  SHOVE_ERR_STALE_ID, or SHOVE_ERR_INVALID_ARGUMENT for a NULL world;
 *  nothing changes then. */
SHOVE_API shove_status shove2_body_set_filter(shove2_world *w, shove_id id, uint64_t category,
                                              uint64_t mask);

/** Set a body's user data (the world only stores it). SHOVE_ERR_STALE_ID,
 *  or SHOVE_ERR_INVALID_ARGUMENT for a NULL world. */
SHOVE_API shove_status shove2_body_set_user_data(shove2_world *w, shove_id id, void *user_data);

/** A body's user data, written to `*out`. SHOVE_ERR_INVALID_ARGUMENT for a
 *  NULL world or `out`, SHOVE_ERR_STALE_ID for an id that is not a live
 *  body of `w`; `*out` is untouched then. */
SHOVE_API shove_status shove2_body_get_user_data(const shove2_world *w, shove_id id, void **out);

/* >>moving --------------------------------------------------------------- */

/** Collide-and-slide one body now (bump's world:move) against every other
 *  body it collides with and the tiles. Other bodies do not move. Gives the
 *  same result as shove2_slide over the same boxes, except for a move over
 *  tiles whose swept box spans more than 4 of them on some axis and that
 *  meets one: it runs in pieces two tiles long, each a whole move, so it
 *  may climb a step in each (up to step_height a piece). `def` may be NULL.
 *  Refuses, changing nothing: SHOVE_ERR_STALE_ID for an id that is not a
 *  live body of `w`; SHOVE_ERR_INVALID_ARGUMENT for a NULL world or result,
 *  a non-finite delta, a broken def, or a delta that would carry the box
 *  (or a step-up's reach) beyond float range, as shove2_slide does. */
SHOVE_API shove_status shove2_move(shove2_world *w, shove_id id, vec2s delta,
                                   const shove2_move_def *def, shove2_move_result *out);

/** Set the motion a dynamic body makes in the next shove2_world_step (a
 *  displacement, replacing any motion set before). Refuses a NULL world or
 *  a non-finite delta (SHOVE_ERR_INVALID_ARGUMENT), a stale id
 *  (SHOVE_ERR_STALE_ID), a static body (SHOVE_ERR_INVALID_ARGUMENT:
 *  static bodies never move; teleport them with shove2_body_set_box) and a
 *  motion that would carry the body's box (or the step_def's step-up
 *  reach) beyond float range (SHOVE_ERR_OUT_OF_RANGE). */
SHOVE_API shove_status shove2_body_set_motion(shove2_world *w, shove_id id, vec2s delta);

/** Priority / transitive shove step: every dynamic body with a pending motion
 *  moves once, with its own move settings (shove2_body_set_move_def) or
 *  else the world's step_def; pending motions are then cleared. Each body's
 *  result is then in shove2_body_get_result.
 *
 *  Range. No body moves further on an axis than the sum S of the pending
 *  motions there (pushes and carries included). When some dynamic body's
 *  box grown by S (plus 2^-16 S for rounding, and the step-up reach) would
 *  leave float range, the step is refused with SHOVE_ERR_OUT_OF_RANGE and
 *  nothing changes (motions stay pending), so nothing non-finite is ever
 *  written.
 *
 *  Pushing. Priority numbers rank strength: 0 is the strongest, 255 the
 *  weakest; "stronger" means a smaller number, "weaker" a larger one. A
 *  mover of priority p slides (as shove2_move) along whatever it cannot
 *  push: static bodies, voxels, dynamic bodies as strong or stronger
 *  (priority <= p), and what it stands on. A weaker dynamic body (priority
 *  > p) that it walks into is pushed along the axis of that contact,
 *  just far enough to clear where the mover goes (keeping the gap it had,
 *  up to one skin), and pushes what is ahead of it on that axis with
 *  priority p, not its own: a whole chain moves in the same step. Pushed
 *  bodies do not take the mover's motion on other axes. A chain that meets
 *  something it cannot push stops face to face (in contact, as events
 *  define it: gaps of at most 2 * skin plus a few float steps);
 *  every body caught in it (kept short of its push by a wall or by a
 *  blocked body ahead) gets a SHOVE_EVENT_SQUISH event: a = the body, b =
 *  the body that pushed it, normal = the push direction. The mover then
 *  stops face to face and slides along. Bodies resting on a weaker body do
 *  not push it down with their weight.
 *
 *  Platforms. A dynamic body resting on a moving body (on step_def.up_axis,
 *  in contact, footprints overlapping) is carried by its displacement,
 *  whatever the priorities, before its own motion: lifted when the platform
 *  rises (squished instead if it meets a ceiling; the platform stops),
 *  carried sideways and down (sliding along what blocks it, pushing with
 *  the weaker (larger number) of its own priority and the platform's).
 *  Riders of riders
 *  and of pushed bodies too. With up_axis = -1 there are no platforms.
 *
 *  Order. Movers go by priority (strongest, the smallest number, first),
 *  then front first along
 *  their own motion, then by box; a mover resting on a mover that has not
 *  moved yet waits for it. The outcome depends only on the scene, not on
 *  the order bodies were created or motions set. Sensors move through
 *  everything and are never pushed or carried.
 *
 *  Events: the squishes, then the contact and sensor changes of every body
 *  the step moved (as for shove2_move). No allocation in steady state. On
 *  SHOVE_ERR_OUT_OF_MEMORY the step is undone: bodies are back where they
 *  were, motions stay pending, the event list is kept (if memory also runs
 *  out while undoing, the bodies stay in a valid, non-overlapping state
 *  partway through the step). SHOVE_ERR_INVALID_ARGUMENT for a NULL world.
 *  See src/world/step.c for the algorithm and its cost. */
SHOVE_API shove_status shove2_world_step(shove2_world *w);

/** The move settings shove2_world_step uses: the world def's step_def
 *  (contacts NULL, capacity 0), e.g. to replay a step's move with
 *  shove2_move. SHOVE_ERR_INVALID_ARGUMENT for NULL arguments. */
SHOVE_API shove_status shove2_world_get_step_def(const shove2_world *w, shove2_move_def *out);

/** Move settings shove2_world_step uses for this body instead of the
 *  world's step_def (a sneaking player with edge_guard and no step height
 *  in the same step as a crowd of mobs); NULL goes back to the step_def.
 *  The def is copied: it need not outlive the call, but its filter_ctx must
 *  stay valid while it is set. Bodies without their own settings step
 *  exactly as before.
 *
 *  What the step takes from a body's own def: its slides (the body's own
 *  motion and its carries on platforms) run with all of it, as shove2_move
 *  would; its filter and response also decide what it finds solid when it
 *  is pushed (walls) or rides; its skin sets the gap it keeps to what is
 *  ahead when pushed, to the mover when it pushes, and its contact
 *  distance (resting, events). Who rests on whom (platforms, riders,
 *  lifting) is read along the step_def's up_axis for every body; a body's
 *  own up_axis only turns its slides (ground, step-up, edge guard).
 *  contacts and contact_capacity are ignored, as in the step_def: the step
 *  writes no contact array (shove2_body_get_result counts them; events and
 *  shove2_world_draw show them). shove2_world_dump writes them (without
 *  filter, as for the step_def) and shove2_world_load sets them again.
 *
 *  Refuses, changing nothing: SHOVE_ERR_INVALID_ARGUMENT for a NULL world
 *  or a def shove2_move would refuse (an unknown mark, a negative skin,
 *  step height or edge_footing, iterations out of 1..64, an up_axis out of
 *  range, a step height without an up axis, an unknown response);
 *  SHOVE_ERR_STALE_ID for an id that is not a live body of `w`;
 *  SHOVE_ERR_LOCKED from a callback of `w`; SHOVE_ERR_OUT_OF_MEMORY (the
 *  first time a body gets its own settings, a world-wide table may grow;
 *  setting them again allocates nothing). */
SHOVE_API shove_status shove2_body_set_move_def(shove2_world *w, shove_id id,
                                                const shove2_move_def *def);

/** What the body's last shove2_move or shove2_world_step did, written to
 *  `*out`: box (the body's box now), delta, contact_count, on_ground,
 *  hit_ceiling, hit_wall, stepped. After shove2_move: its result (the
 *  contacts went to that move's def). After a step, for every body the step
 *  moved or that had a non-zero pending motion: delta is how far the box's
 *  min corner moved in the whole step (pushes and carries included), and
 *  the flags and contact_count are those of the final slide of its own
 *  motion, or, with no motion of its own, of its last carry; a body only
 *  pushed (or that never slid) has them clear and 0. Other bodies keep
 *  their result. A new body's result is its box, zero delta, no flags;
 *  shove2_body_set_box changes the box only. May be called from callbacks
 *  (a step writes every result before it emits events).
 *  SHOVE_ERR_INVALID_ARGUMENT for a NULL world or `out`, SHOVE_ERR_STALE_ID
 *  for an id that is not a live body of `w`; `*out` is untouched then. */
SHOVE_API shove_status shove2_body_get_result(const shove2_world *w, shove_id id,
                                              shove2_move_result *out);

/* >>events --------------------------------------------------------------- */

/** Events of the last shove2_move or shove2_world_step (each call starts a
 *  new list). `*out` points into the world and stays valid until the next
 *  move, step or body change. Returns the count (0 and *out = NULL when none).
 *
 *  The world remembers which pairs are in contact and re-checks a body's
 *  pairs right after it moves. Two solid bodies that interact (and that the
 *  mover does not IGNORE) are in contact when they overlap or touch face to
 *  face with a gap of at most 2 * skin of the move, plus a few float steps
 *  (edges and corners do not count); a body is inside a sensor when their
 *  boxes overlap. Pairs that start give CONTACT_BEGIN / SENSOR_ENTER, pairs
 *  that stop CONTACT_END / SENSOR_EXIT; a body met on the way and left
 *  within the same move gives both. Contacts: `a` moved, the normal points from `b` toward `a`;
 *  sensors: `a` is the visitor, `b` the sensor. Teleports and destroyed
 *  bodies give no events. */
SHOVE_API size_t shove2_world_get_events(const shove2_world *w, const shove2_event **out);

/* >>voxels --------------------------------------------------------------- */

/** Most boxes one tile shape may have. */
#define SHOVE_VOXEL_MAX_BOXES 8

/** Tiles one call may read when the tile def's max_cells is 0. */
#define SHOVE_VOXEL_DEFAULT_MAX_CELLS 4194304u

/** Boxes of tile (x, y) in voxel-local units ([0, 1] per axis; may reach
 *  beyond, e.g. a post 1.5 tall). Returns how many (0 = empty). Must give
 *  the same boxes every time it is asked about the same voxel. The world is
 *  locked while it runs (see "Locking" at the top). A step with
 *  worker_count above 1 (see shove2_world_def) may call it from several
 *  threads at once. */
typedef int (*shove2_voxel_fn)(void *ctx, int32_t x, int32_t y,
                               shove2_aabb out[SHOVE_VOXEL_MAX_BOXES]);

/** Where tiles come from. Start from shove2_default_voxel_def(), or leave
 *  the fields you do not set zero (see "Defs" at the top: voxel_size 0 and
 *  all-zero shape_bounds then mean the defaults).
 *
 *  The tile at cell c covers origin + voxel_size * [c, c + 1] on every
 *  axis; a local box b of it lies at origin + voxel_size * (c + b). Every
 *  box of every tile must lie inside `shape_bounds` (local units, within
 *  [-1, 2] on every axis). A sweep reads the tiles whose shape_bounds its
 *  swept box touches, so a tight bound reads fewer tiles.
 *
 *  The callback must answer 0 to 8 valid boxes inside shape_bounds. A
 *  callback that breaks this (a count outside 0..8, a NaN or inverted box,
 *  a box reaching outside shape_bounds) is never trusted in part: the move
 *  or step that read it is refused with SHOVE_ERR_INVALID_ARGUMENT and
 *  changes nothing, and a cast that read it returns false and writes
 *  nothing. No box is cut or skipped.
 *
 *  Budgets (as shove2_world_set_voxels says). `solid_min` .. `solid_max`
 *  (inclusive, in cells) is where solid tiles may be: a block game's
 *  height limits, its loaded area. Cells outside it are empty and never
 *  read, so paths outside it cost nothing. An axis whose solid_min and
 *  solid_max are both 0 is unbounded. `max_cells` caps the tiles one call
 *  may read; 0 means SHOVE_VOXEL_DEFAULT_MAX_CELLS. */
typedef struct shove2_voxel_def {
    shove2_voxel_fn shapes;         /**< NULL: no tiles */
    void *ctx;                      /**< passed to `shapes` */
    float voxel_size;               /**< edge of a tile in world units (default 1) */
    vec2s origin;                   /**< world position of tile (0,0)'s min corner */
    shove2_aabb shape_bounds;       /**< default 0..1 on every axis but y: 0..1.5 */
    int32_t solid_min[2];           /**< lowest cell that may be solid (both 0: any) */
    int32_t solid_max[2];           /**< highest cell that may be solid (both 0: any) */
    uint32_t max_cells;             /**< most tiles one call reads; 0: the default */
    uint32_t internal_literal_mark; /**< private: set by shove2_default_voxel_def() (see "Defs") */
} shove2_voxel_def;

/** Defaults: no callback, tile size 1, origin at zero, shape_bounds from 0
 *  to 1 on every axis except y (up), which goes to 1.5 for fences; every
 *  cell may be solid; max_cells SHOVE_VOXEL_DEFAULT_MAX_CELLS. */
SHOVE_API shove2_voxel_def shove2_default_voxel_def(void);

/** Use tiles as static solids for every move, step and cast (queries list
 *  bodies only). They are read through the callback, never copied: a game
 *  that edits its map sees the change on the next move. A def with a NULL
 *  callback removes them. Refuses (SHOVE_ERR_INVALID_ARGUMENT) a NULL world
 *  or def, a voxel_size that is not finite and > 0, a non-finite origin,
 *  shape_bounds that are not a valid box inside [-1, 2] and a solid range
 *  with solid_min > solid_max on some axis.
 *
 *  Tiles collide with every body (they have no category); a move's filter
 *  sees each tile box with its cell (shove2_obstacle), contacts with voxels
 *  have a null `other`.
 *
 *  Cost. Moves, steps and casts read tiles only along their path and only
 *  up to where the motion ends: a blocked mover reads the same voxels
 *  whatever it asked for. A long move (its swept box longer than 4 voxels
 *  on some axis) whose path is clear of tiles runs whole and ends exactly
 *  where it was sent; one that meets voxels, or walks with its edge guard
 *  on, runs as a series of moves of at most two tiles each along its
 *  path, each a whole move as shove2_move describes (so it may climb a
 *  step in each), that stops where the mover stops (a guarded walk on a
 *  path clear of tiles that the guard never holds back still ends exactly
 *  where it was sent). Every call reads at
 *  most max_cells tiles (the budget; cells outside the solid range are
 *  free); a move or step that would read more, or whose tiles lie beyond
 *  float precision (cells more than 2^24 tiles from world zero: move the
 *  origin with shove2_world_shift_origin), is refused with
 *  SHOVE_ERR_OUT_OF_RANGE and changes nothing, and a cast returns false
 *  and writes nothing. */
SHOVE_API shove_status shove2_world_set_voxels(shove2_world *w, const shove2_voxel_def *def);

/** The tile def in use: what shove2_world_set_voxels was last given (with
 *  the origin moved by shove2_world_shift_origin), or, with no voxels, the
 *  default def (NULL callback). A world made by shove2_world_load answers
 *  the dump's tiles through its own callback: call `shapes(ctx, ...)` to
 *  read them. SHOVE_ERR_INVALID_ARGUMENT for NULL arguments. */
SHOVE_API shove_status shove2_world_get_voxels(const shove2_world *w, shove2_voxel_def *out);

/** Greedy merge of a grid of solid cells into fewer boxes, for games that
 *  prefer a few static bodies to a tile callback. `solid` holds
 *  cells[0] * cells[1] bytes, x fastest; nonzero is solid. Box
 *  corners are origin + cell_size * cell coordinates. The boxes are disjoint
 *  and cover exactly the solid cells. Writes at most `capacity` boxes to
 *  `out` (NULL is fine with capacity 0) and sets `*out_count` to how many the
 *  merge needs. Allocates a visited map of one byte per cell (freed before
 *  returning); SHOVE_ERR_OUT_OF_MEMORY when that fails. */
SHOVE_API shove_status shove2_merge_grid(const uint8_t *solid, const int32_t cells[2],
                                         float cell_size, vec2s origin, shove2_aabb *out,
                                         size_t capacity, size_t *out_count);

/* >>queries -------------------------------------------------------------- */

/** Ids of bodies whose box overlaps `box` and whose category meets `mask`.
 *  Writes at most `capacity`; returns the total found. Tiles are not bodies
 *  and are not listed. */
SHOVE_API size_t shove2_query_box(const shove2_world *w, shove2_aabb box, uint64_t mask,
                                  shove_id *out, size_t capacity);

/** The bodies that body `id` starts inside: solid bodies (not sensors) that
 *  it interacts with (each one's category in the other's mask) and whose
 *  boxes overlap its box strictly; boxes that only touch do not count. A
 *  move or step of `id` cannot go deeper into them (see shove2_body_create);
 *  a move's filter may still let it through. Writes at most `capacity` ids
 *  to `out` (NULL is fine with capacity 0), in the broad phase's order, and
 *  returns how many there are. 0 for a sensor (it moves through
 *  everything), a NULL world or an id that is not a live body of `w`.
 *  Tiles are not bodies and are not listed (see shove2_body_create). */
SHOVE_API size_t shove2_body_overlaps(const shove2_world *w, shove_id id, shove_id *out,
                                      size_t capacity);

/** Earliest hit of `box` moved by `delta` against bodies matching `mask` and
 *  tiles (whatever the mask). Returns false when nothing is hit (or the
 *  input is invalid); `hit` may be NULL. A tile hit has a null `other`; a
 *  body and a tile hit at the same t give the body; of bodies hit at the
 *  same t, one is named.
 *
 *  What counts as a hit: the first t at which the moved box overlaps the
 *  interior of the union of the solids (bodies and tile boxes together).
 *  Touching is not a hit, as for shove2_sweep_aabb, with one difference:
 *  a cast that is flat on an axis (min == max there) and does not move
 *  along it, lying exactly on a face plane, is inside the union where
 *  boxes on both sides of that plane cover its path (on an edge, all four
 *  quarters around it; at a corner, all eight). So a ray, or a zero-thick
 *  box, along the seam of two stacked solid voxels, tiles or bodies hits
 *  the wall where both sides are solid, at the face it enters that solid
 *  part by (or at t = 0, started_inside, when it starts in it); such a hit
 *  names one of the bodies of that pair, or null when they are all tiles.
 *  Along a face with solid on one side only it is no hit. Casts that are
 *  not flat on a still axis get exactly the per-box answer. At most 64
 *  boxes along such a face are kept at once (those the cast enters first),
 *  and at most 4096 combinations are tried per box. Moves keep their own
 *  seam rule: a mover slides along a seamed floor or wall without a
 *  snag. */
SHOVE_API bool shove2_cast_box(const shove2_world *w, shove2_aabb box, vec2s delta, uint64_t mask,
                               shove2_hit *hit);

/** Earliest hit of the ray from `origin` to `origin + delta`: shove2_cast_box
 *  of the point box at `origin`, so a ray along the shared face of two
 *  solids hits them (see there). */
SHOVE_API bool shove2_cast_ray(const shove2_world *w, vec2s origin, vec2s delta, uint64_t mask,
                               shove2_hit *hit);

/** Cast body `id`'s own box along `delta`: shove2_cast_box with the body's
 *  box and its mask (bodies whose category its mask meets, and tiles),
 *  skipping the body itself, so a player's sweep or eye ray never reports
 *  the player. Other bodies' masks are not consulted (a move asks both
 *  sides). Returns false when nothing is hit, and for a NULL world, a stale
 *  id or a non-finite delta; `hit` may be NULL and is written only on a
 *  hit. (shove2_cast_ray from a point inside a body, such as an eye, hits
 *  that body at t = 0 unless the ray's mask leaves out its category.) */
SHOVE_API bool shove2_cast_body(const shove2_world *w, shove_id id, vec2s delta, shove2_hit *hit);

/* >>bindings ------------------------------------------------------------- */

/* Twins of hot calls that take their structs by pointer. Foreign-function
 * interfaces that cannot pass structs by value quickly (LuaJIT's JIT compiles
 * FFI calls only when no struct is passed by value) call these. */

/** shove2_query_box with the box passed by pointer, and the total as a
 *  32-bit count (body indices are 32-bit, so it fits; an FFI then gets a
 *  plain number instead of a boxed 64-bit one). A NULL `box` finds nothing
 *  (returns 0, writes nothing). */
SHOVE_API uint32_t shove2_query_box_ptr(const shove2_world *w, const shove2_aabb *box,
                                        uint64_t mask, shove_id *out, size_t capacity);

/** shove2_body_set_box with the id and the box passed by pointer. A NULL
 *  `id` or `box` is SHOVE_ERR_INVALID_ARGUMENT and changes nothing. */
SHOVE_API shove_status shove2_body_set_box_ptr(shove2_world *w, const shove_id *id,
                                               const shove2_aabb *box);

/** shove2_move with the id and the delta passed by pointer (the def and the
 *  result already are), so an FFI moves a body from compiled code. A NULL
 *  `id` or `delta` is SHOVE_ERR_INVALID_ARGUMENT and changes nothing; every
 *  other refusal is shove2_move's. */
SHOVE_API shove_status shove2_move_ptr(shove2_world *w, const shove_id *id, const vec2s *delta,
                                       const shove2_move_def *def, shove2_move_result *out);

/** A box as bump.lua keeps a rect: its low corner and its size, in doubles
 *  (the LuaJIT module computes with Lua numbers, and so does this). */
typedef struct shove2_bump_rect {
    double min[2];
    double size[2];
} shove2_bump_rect;

/** A collision as bump.lua's rect.detectCollision reports it. */
typedef struct shove2_bump_hit {
    double ti;        /**< when the mover touches (0..1), or minus the overlap's area */
    double normal[2]; /**< unit axis vector from the other box toward the mover, or 0 */
    double touch[2];  /**< where the mover's low corner is when it touches */
    bool overlaps;    /**< the boxes overlapped at the start */
} shove2_bump_hit;

/** bump.lua's collision test (its rect.detectCollision; in 3D, that of
 *  bump-3dpd) in doubles, for the LuaJIT module shove.bump: `item` moving so
 *  its low corner goes to `goal`, against `other`. Returns true and fills `*out`
 *  when bump reports a collision: the boxes overlap by more than bump's
 *  margin of 1e-10 at the start (`ti` is minus the overlap's area; the
 *  touch point backs out along the motion, or out by the shortest axis when
 *  there is no motion: of two as short, the later one in 2D as bump.lua
 *  does, the earlier one in 3D as bump-3dpd does), or the mover enters
 *  `other` before the goal (`ti` in [0, 1), the normal of the side it
 *  enters); a motion that only passes a corner or an edge is no collision.
 *  The arithmetic is bump's, operation for operation (with -ffp-contract=off
 *  it matches Lua's bit for bit). Returns false and leaves `*out` unchanged
 *  when there is no collision or a pointer is NULL. */
SHOVE_API bool shove2_bump_detect(const shove2_bump_rect *item, const double goal[2],
                                  const shove2_bump_rect *other, shove2_bump_hit *out);

/** shove2_bump_detect of `item` against rects[ids[i].index] for each i
 *  below `count` whose index is not `skip` (UINT32_MAX skips nothing), in
 *  one call: the LuaJIT module's projection, on the candidates its filter
 *  kept (from shove2_bump_grid_query), so that its Lua code handles no
 *  numbers and no loop. Generations are not looked at. The collisions
 *  go to hits[0 .. k-1] in the order of `ids`, and found[j] is the i of
 *  hits[j]; returns k. Both outputs need room for `count` entries. Returns
 *  0 and writes nothing when a pointer is NULL (`rects`, `ids`, `hits` and
 *  `found` may be NULL when `count` is 0). */
SHOVE_API uint32_t shove2_bump_detect_all(const shove2_bump_rect *item, const double goal[2],
                                          const shove2_bump_rect *rects, const shove_id *ids,
                                          uint32_t count, uint32_t skip, shove2_bump_hit *hits,
                                          uint32_t *found);

/** One collision of shove2_bump_check: bump's collision table in numbers. */
typedef struct shove2_bump_col {
    uint32_t other;        /**< the body index of the item met */
    shove2_bump_hit hit;   /**< ti, normal, touch, overlaps */
    shove2_bump_rect from; /**< the moving rect when it met the item (bump's itemRect) */
    double move[2];        /**< the goal minus from's low corner (bump's move) */
    double slide[2];       /**< where bump's slide response sends it on */
} shove2_bump_col;

/** bump.lua's world:check when every item answers 'slide' (bump's default
 *  filter and its slide response), for the LuaJIT module: the rect of body
 *  `self` in `rects` (indexed by body index, as shove2_bump_detect_all)
 *  moving to `goal`. Each projection asks `w` for the bodies whose boxes
 *  meet the motion's bounding box grown on every side by |v| * pad_rel +
 *  pad_abs for each coordinate v (the module stores its boxes grown the
 *  same way), skips `self` and the bodies met before, tests the rest with
 *  shove2_bump_detect, takes the first in bump's order (by ti, then by the
 *  squared distance between centres; ties keep the query's order) and
 *  slides as bump's slide does (in 3D bump-3dpd's: the touch on the
 *  normal's axes, the goal on the others, and the goal when there is no
 *  motion), until a projection meets nothing. Writes
 *  the collisions to cols[0 .. k-1] and where the rect ends to `actual`,
 *  and returns k. `ids` (room for `id_capacity`) is scratch for the
 *  queries. Returns UINT32_MAX, with `actual` and `cols` partly written,
 *  when a query finds more than `id_capacity` bodies or the collisions
 *  exceed `col_capacity` (call again with more room); 0 when a pointer is
 *  NULL or `self` has no rect (self >= rect_count). Changes nothing in `w`. */
SHOVE_API uint32_t shove2_bump_check(const shove2_world *w, const shove2_bump_rect *rects,
                                     uint32_t rect_count, uint32_t self, const double goal[2],
                                     double pad_rel, double pad_abs, shove_id *ids,
                                     uint32_t id_capacity, shove2_bump_col *cols,
                                     uint32_t col_capacity, double actual[2]);

/** A uniform grid of bump rects, the broad phase of the LuaJIT module
 *  shove.bump: bump.lua's cells of `cell_size`, in C. It keeps each item's
 *  rect (a shove2_bump_rect in doubles) under an index it hands out, and
 *  answers which items meet a box. Items over more than 64 cells are kept
 *  in one list that every query reads, so an add, update or remove costs
 *  at most 64 cells, and now and then a reading of every cell: when the
 *  cells an item takes find no room, the grid lays out all of its cells
 *  anew (those of a tile map side by side, where a cell is found by its
 *  place; scattered ones in a hash), with room for at least an eighth as
 *  many again, so that this costs each add or update a few cells on
 *  average.
 *  A query over more cells than twice the item count (plus 32) reads
 *  every item once instead. A query's box and every rect are
 *  grown by |v| * 2^-20 + 2^-100 on each coordinate v before they are
 *  compared, closed: a superset of what bump's exact test
 *  (shove2_bump_detect) can accept, rounding included. An item is filed
 *  in the cells its rect covers, far sides open (a unit tile on cells of 2
 *  is in one cell), and a query reads the cells of its grown box widened
 *  by twice that growth, which holds every item it can meet. Queries only read
 *  the grid, so threads may query one grid at once while none changes it;
 *  an add, update, remove or move needs the grid to itself. */
typedef struct shove2_bump_grid shove2_bump_grid;

/** Creates an empty grid with cells `cell_size` wide, which allocates
 *  through `allocator` (NULL, or one whose realloc is NULL: the C library's
 *  realloc / free). SHOVE_ERR_INVALID_ARGUMENT for a NULL `out` or a size
 *  that is not finite and positive, or whose inverse is not finite;
 *  SHOVE_ERR_OUT_OF_MEMORY when the allocator returns NULL. On error
 *  `*out` is untouched. */
SHOVE_API shove_status shove2_bump_grid_create(double cell_size, const shove_allocator *allocator,
                                               shove2_bump_grid **out);

/** Frees the grid and everything in it. NULL is allowed (does nothing). */
SHOVE_API void shove2_bump_grid_destroy(shove2_bump_grid *g);

/** Adds an item with the rect `*rect` and writes its index (the
 *  index last freed by a remove, else the next unused one). The rect must have a
 *  finite low corner, sizes above 0 and a finite far corner, else
 *  SHOVE_ERR_INVALID_ARGUMENT; SHOVE_ERR_OUT_OF_MEMORY when an allocation
 *  fails. On error nothing changes and `*index` is untouched. */
SHOVE_API shove_status shove2_bump_grid_add(shove2_bump_grid *g, const shove2_bump_rect *rect,
                                            uint32_t *index);

/** Sets the rect of item `index` to `*rect` (checked as in
 *  shove2_bump_grid_add). SHOVE_ERR_INVALID_ARGUMENT for a NULL pointer, an
 *  index that is not an item, or a bad rect; SHOVE_ERR_OUT_OF_MEMORY when
 *  the item's new cells need memory that cannot be had. On error nothing
 *  changes. */
SHOVE_API shove_status shove2_bump_grid_update(shove2_bump_grid *g, uint32_t index,
                                               const shove2_bump_rect *rect);

/** Removes item `index`; its index may be handed out again.
 *  SHOVE_ERR_INVALID_ARGUMENT (nothing changes) when it is not an item. */
SHOVE_API shove_status shove2_bump_grid_remove(shove2_bump_grid *g, uint32_t index);

/** How many items the grid holds (0 for NULL). */
SHOVE_API uint32_t shove2_bump_grid_count(const shove2_bump_grid *g);

/** The rects by index: rects[i] is item i's. Valid until the next add
 *  (which may move the array); entries of indices that are not items are
 *  stale. NULL for NULL or a grid that never held an item. */
SHOVE_API const shove2_bump_rect *shove2_bump_grid_rects(const shove2_bump_grid *g);

/** The items whose rect meets the box [min, max] (both grown as said at
 *  shove2_bump_grid): their indices go to out[0 .. capacity-1] in no
 *  particular order, each once, and the count is returned (more than
 *  `capacity` means call again with more room). Entries of `out` past the
 *  count, up to `capacity`, may be written too. Returns 0 and writes
 *  nothing for a NULL pointer (`out` may be NULL when `capacity` is 0), a
 *  coordinate that is not finite, or min > max on an axis. */
SHOVE_API uint32_t shove2_bump_grid_query(shove2_bump_grid *g, const double min[2],
                                          const double max[2], uint32_t *out, uint32_t capacity);

/** bump.lua's world:check (or, with `update`, its world:move) when every
 *  item answers 'slide', on the grid: shove2_bump_check's loop of
 *  projections and slides for item `self` going to `goal`, its candidates
 *  from shove2_bump_grid_query of each projection's bounding box. Writes
 *  the collisions to cols[0 .. *count - 1] (`other` is an item index) and
 *  where the rect ends to `actual`; with `update`, the item's rect is then
 *  moved there. `ids` (room for `id_capacity`) is scratch for the queries.
 *  SHOVE_ERR_OUT_OF_RANGE when a query finds more than `id_capacity`
 *  items or the collisions exceed `col_capacity` (neither needs more than
 *  the item count: call again with that much room);
 *  SHOVE_ERR_INVALID_ARGUMENT for a NULL pointer, a `self` that is not an
 *  item, or a goal whose rect would not be finite, or one that bump's
 *  arithmetic carries to such an end (among numbers near the largest
 *  double); SHOVE_ERR_OUT_OF_MEMORY when the update needs memory that
 *  cannot be had. On error the grid,
 *  `*count` and `actual` are unchanged (`ids` and `cols` are scratch). */
SHOVE_API shove_status shove2_bump_grid_move(shove2_bump_grid *g, uint32_t self,
                                             const double goal[2], bool update, uint32_t *ids,
                                             uint32_t id_capacity, shove2_bump_col *cols,
                                             uint32_t col_capacity, uint32_t *count,
                                             double actual[2]);

/* >>batch ---------------------------------------------------------------- */

/** Boxes as struct of arrays: box i is (min[a][i], max[a][i]) on axis a. */
typedef struct shove2_soa {
    const float *min[2];
    const float *max[2];
    size_t count;
} shove2_soa;

/** Indices of boxes that overlap `query` strictly, in ascending order.
 *  `out_indices` needs room for boxes->count entries and must not overlap
 *  the boxes' arrays. Returns the count; entries past it (up to
 *  boxes->count) may be overwritten as scratch. */
SHOVE_API size_t shove2_overlap_batch(const shove2_soa *boxes, shove2_aabb query,
                                      uint32_t *out_indices);

/** Earliest hit of `moving` swept by `delta` against the boxes (ties go to
 *  the lowest index). Same rules as shove2_sweep_aabb. */
SHOVE_API bool shove2_sweep_batch(const shove2_soa *boxes, shove2_aabb moving, vec2s delta,
                                  shove2_hit *hit, uint32_t *hit_index);

/* >>debugging ------------------------------------------------------------ */

/** Callbacks a game fills to see inside a world. Colours are 0xRRGGBBAA.
 *  The world is locked while they run (see "Locking" at the top). */
typedef struct shove2_debug_draw {
    void (*draw_box)(void *ctx, shove2_aabb box, uint32_t color);
    void (*draw_point)(void *ctx, vec2s point, uint32_t color);
    void (*draw_normal)(void *ctx, vec2s point, vec2s normal, uint32_t color);
    bool draw_bodies;   /**< every body's box */
    bool draw_contacts; /**< contact points and normals of the last move / step */
    bool draw_tree;     /**< broad-phase nodes */
    void *ctx;
} shove2_debug_draw;

/** Call `draw`'s callbacks for what its flags ask (NULL callbacks are
 *  skipped): bodies (static grey, dynamic blue, sensors amber), contacts
 *  (red points, green normals) and the cells of the tree nodes that hold
 *  bodies (faint grey for static, faint purple for dynamic bodies). */
SHOVE_API void shove2_world_draw(const shove2_world *w, const shove2_debug_draw *draw);

/** Write a readable text snapshot of the world to `out`: its settings,
 *  every body (id index, type, priority, category, mask, sensor flag, box),
 *  its own move settings (shove2_body_set_move_def, without the filter),
 *  pending motions, worker_count when it is not 1, quiet_moves when set,
 *  and the tiles within
 *  four tiles of every body, with floats that read back to the same bits
 *  (the format is described in src/world/dump.c). shove2_world_load reads it
 *  back; tools/replay's shove-replay loads it and replays moves and steps
 *  (README: "A player got stuck"). Changes nothing; user data, callbacks
 *  and the contact history are not written. SHOVE_ERR_INVALID_ARGUMENT for
 *  NULL arguments or when writing fails, SHOVE_ERR_OUT_OF_MEMORY when the
 *  list of tiles to write cannot be allocated (through the world's
 *  allocator). */
SHOVE_API shove_status shove2_world_dump(const shove2_world *w, FILE *out);

/** The inverse of shove2_world_dump: read a dump from `in` into a new world
 *  (`*out`). The world takes its settings from `def` (NULL: the defaults:
 *  allocator, event callback, capacity, task system, ...) except for the
 *  bounds and step settings, which come from the dump, and worker_count
 *  and quiet_moves, which do when the dump has them. Every body gets the index it had (its
 *  id differs only in generation: shove2_world_body_at finds it), its own
 *  move settings and its pending motion. The dump's tiles (those near its
 *  bodies) become a table the world owns, behind a tile callback of its
 *  own, with the dump's tile settings (size, origin, shape bounds, solid
 *  range and max_cells; a dump without the last two gets their defaults);
 *  cells the dump does not hold are empty. A game replaying with its
 *  own tiles sets them again with shove2_world_set_tiles. User data,
 *  callbacks and the contact history are not in a dump: no pair is
 *  remembered at first.
 *
 *  Reading stops after the `end` record. Refuses with
 *  SHOVE_ERR_INVALID_ARGUMENT, creating nothing and leaving `*out` alone:
 *  NULL `in` or `out`, a dump of the other dimension, records out of order
 *  or unknown, malformed or out-of-range numbers (NaN and inf included),
 *  boxes with min > max, body indices that do not grow or reach 2^20, a
 *  motion of a static body or of no body, tile boxes outside the shape
 *  bounds, a cell given twice, lines over 4096 bytes, and a text cut off
 *  before `end`; what world_create, body_create or set_voxels refuse is
 *  refused likewise. SHOVE_ERR_OUT_OF_MEMORY when the world's allocator
 *  fails. */
SHOVE_API shove_status shove2_world_load(const shove2_world_def *def, FILE *in, shove2_world **out);

#ifdef __cplusplus
}
#endif

#endif /* SHOVE2_H */
