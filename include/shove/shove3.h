/*
 * shove3.h: the 3D half of shove (voxels, octree). shove2.h is its twin.
 *
 * Functions in this header:
 *   geometry     shove3_aabb_is_valid, shove3_aabb_overlaps, shove3_aabb_from_center,
 *                shove3_sweep_aabb, shove3_ray_aabb
 *   slide        shove3_default_move_def, shove3_slide
 *   resolve      shove3_resolve
 *   world        shove3_default_world_def, shove3_world_create, shove3_world_destroy,
 *                shove3_world_body_count, shove3_world_body_at, shove3_world_shift_origin
 *   bodies       shove3_default_body_def, shove3_body_create, shove3_body_destroy,
 *                shove3_body_is_valid, shove3_body_get_box, shove3_body_set_box,
 *                shove3_body_set_type, shove3_body_set_priority, shove3_body_set_filter,
 *                shove3_body_set_user_data, shove3_body_get_user_data
 *   moving       shove3_move, shove3_body_set_motion, shove3_world_step,
 *                shove3_world_get_step_def, shove3_body_set_move_def, shove3_body_get_result
 *   events       shove3_world_get_events
 *   voxels       shove3_default_voxel_def, shove3_world_set_voxels, shove3_world_get_voxels,
 *                shove3_merge_grid
 *   queries      shove3_query_box, shove3_body_overlaps, shove3_cast_box, shove3_cast_ray,
 *                shove3_cast_body
 *   batch (SIMD) shove3_overlap_batch, shove3_sweep_batch
 *   bindings     shove3_query_box_ptr, shove3_body_set_box_ptr, shove3_move_ptr,
 *                shove3_bump_detect, shove3_bump_detect_all, shove3_bump_check
 *   bump grid    shove3_bump_grid_create, shove3_bump_grid_destroy, shove3_bump_grid_add,
 *                shove3_bump_grid_update, shove3_bump_grid_remove, shove3_bump_grid_count,
 *                shove3_bump_grid_rects, shove3_bump_grid_query, shove3_bump_grid_move
 *   debugging    shove3_world_draw, shove3_world_dump, shove3_world_load
 *
 * Conventions. Boxes are closed intervals [min, max] per axis, but overlap is
 * strict: boxes that only touch do not overlap, so a body resting on a floor
 * or sliding along a wall is free. Motions are displacements for one call,
 * not velocities. A normal is a unit axis vector pointing from the obstacle
 * toward the mover. Functions that can refuse their input return a
 * shove_status and change nothing when they refuse.
 *
 * Defs. Every def struct (world, body, move, voxel) can be written two ways.
 * From its default function (shove3_default_move_def(), ...): the function
 * marks the def (the private field internal_literal_mark), and every field
 * of a marked def is taken as it is, zeros included; that is how a game
 * asks for a zero value such as SHOVE_RESPONSE_IGNORE, up_axis 0 or mask 0.
 * Or the C way, `= {0}` or designated initialisers naming the fields the
 * game cares about: a def without the mark reads every field that is zero
 * (all bits) as that field's default, so `(shove3_move_def){.step_height =
 * 0.6f}` is the default move def with a step height. The defaults are the
 * ones each field's comment names; a nested def (the world's step_def)
 * follows its own mark. A def with a mark that is neither (an uninitialised
 * struct) is refused, and so is any value that is invalid, with
 * SHOVE_ERR_INVALID_ARGUMENT. Copies of a def keep its mark.
 *
 * Locking. While a world runs a call that calls back into the game (the
 * event callback, move filters and voxel shapes during shove3_move and
 * shove3_world_step; voxel shapes during casts and shove3_world_dump; the
 * callbacks of shove3_world_draw), the world is locked. Calls that change it
 * refuse with SHOVE_ERR_LOCKED and change nothing: shove3_move (and shove3_move_ptr),
 * shove3_world_step, shove3_body_create, shove3_body_destroy,
 * shove3_body_set_box (and shove3_body_set_box_ptr), shove3_body_set_motion,
 * shove3_body_set_type, shove3_body_set_priority, shove3_body_set_filter,
 * shove3_body_set_user_data, shove3_body_set_move_def, shove3_world_set_voxels and
 * shove3_world_shift_origin; shove3_world_destroy does nothing. Calls that
 * only read may be made: shove3_world_body_count, shove3_body_is_valid,
 * shove3_body_get_box, shove3_body_get_user_data, shove3_body_get_result,
 * shove3_world_get_events
 * (the list as far as it is written), shove3_query_box, shove3_body_overlaps, shove3_cast_box,
 * shove3_cast_ray, shove3_cast_body, shove3_query_box_ptr, shove3_world_dump
 * and shove3_world_draw; during a step they see bodies partway through it.
 * The call that was running finishes as if the callback had made no call,
 * and its event list is kept. Other worlds are not locked: a callback may
 * change them, or make a new one (shove3_world_load). A callback that never
 * returns hangs the call that runs it.
 */
#ifndef SHOVE3_H
#define SHOVE3_H

#include <stdio.h>

#include "shove_common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* >>geometry ------------------------------------------------------------- */

/** Axis-aligned box: min <= max on every axis. */
typedef struct shove3_aabb {
    vec3s min, max;
} shove3_aabb;

/** First contact of a sweep or cast. */
typedef struct shove3_hit {
    float t;             /**< fraction of the motion at first contact, 0..1 */
    vec3s normal;        /**< unit axis vector from the obstacle toward the mover */
    shove_id other;      /**< body hit (null for array / voxel obstacles) */
    bool started_inside; /**< the boxes already overlapped at t = 0 */
} shove3_hit;

/** True when every coordinate is finite and min <= max on every axis. */
SHOVE_API bool shove3_aabb_is_valid(shove3_aabb a);

/** Strict overlap: true when the interiors intersect. Boxes that only touch
 *  (share a face, edge or corner) do not overlap. Invalid boxes never overlap. */
SHOVE_API bool shove3_aabb_overlaps(shove3_aabb a, shove3_aabb b);

/** Box with the given centre and half extents (half extents are not checked:
 *  negative ones give an invalid box). */
SHOVE_API shove3_aabb shove3_aabb_from_center(vec3s center, vec3s half_extents);

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
SHOVE_API bool shove3_sweep_aabb(shove3_aabb moving, vec3s delta, shove3_aabb target,
                                 shove3_hit *hit);

/** shove3_sweep_aabb for a point: a ray from `origin` to `origin + delta`. A
 *  ray running exactly along a face, edge or corner is not a hit: this asks
 *  about one box alone (shove3_cast_ray asks about the union of a world's
 *  solids, where a ray along the shared face of two boxes hits). */
SHOVE_API bool shove3_ray_aabb(vec3s origin, vec3s delta, shove3_aabb box, shove3_hit *hit);

/* >>slide ---------------------------------------------------------------- */

/** One obstacle met during a move. */
typedef struct shove3_contact {
    shove_id other;          /**< null for list / voxel obstacles */
    int32_t index;           /**< index in the obstacle array, or -1 */
    vec3s normal;            /**< as in shove3_hit */
    float t;                 /**< fraction of this move's requested motion */
    shove_response response; /**< what the mover did */
} shove3_contact;

/** An obstacle as a move's filter sees it. */
typedef struct shove3_obstacle {
    shove_id other;  /**< the body, or null for list and voxel obstacles */
    int32_t index;   /**< index in the obstacle array, or -1 */
    int32_t cell[3]; /**< the voxel's cell when `voxel` is true (else zeros) */
    bool voxel;      /**< a box of a voxel */
    shove3_aabb box; /**< the obstacle's box in world units */
} shove3_obstacle;

/** Per-obstacle response of a move. `mover` is the body that moves (the
 *  null id for shove3_slide on a list); `obstacle` (never NULL, valid only
 *  during the call) names what it meets: a body with its id and box, a list
 *  box with its index and box, or one box of a voxel with its cell and box.
 *  Return SHOVE_RESPONSE_IGNORE to pass. A slide keeps its first answer for
 *  each obstacle it holds, so most moves ask about each obstacle once; a
 *  long list read in chunks, a move over voxels run in pieces and the
 *  several runs of a world step may ask again, and every answer about one
 *  obstacle in one move must be the same; values
 *  outside the enum count as SLIDE (blocking is the safe guess). Voxels
 *  reach a filter one box of one cell at a time (without a filter, a move
 *  meets the boxes of a row of voxels that continue each other as one box:
 *  the same solid). In a world step
 *  `mover` is whichever body the step is moving at that moment (a pushed or
 *  carried body included). During a world move or step the world is
 *  locked (see "Locking" at the top). A step with worker_count above 1
 *  (see shove3_world_def) may call it from several threads at once. */
typedef shove_response (*shove3_filter_fn)(void *ctx, shove_id mover,
                                           const shove3_obstacle *obstacle);

/** How a move behaves. Start from shove3_default_move_def(), or leave the
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
 *  shove3_default_move_def()) lets the box stop with its side on the
 *  ledge's edge, over it by only a few float steps. A mover that already
 *  has less footing than that (placed there) is not pulled back, only kept
 *  from going further out. Jumps (a rising motion) and falls are not
 *  guarded; edge_footing does nothing without edge_guard, and edge_guard
 *  does nothing with up_axis -1 (no ground to guard; accepted so a def can
 *  switch its up axis off and on). */
typedef struct shove3_move_def {
    float skin;              /**< gap kept to surfaces stopped against (default 0) */
    int max_iterations;      /**< slide iterations (default 8, range 1..64) */
    int up_axis;             /**< default 1 (Y up); -1 = no "up" (top-down, space) */
    float step_height;       /**< auto step-up height (climbs when blocked on ground); 0 = off;
                                  needs an up axis (refused with up_axis -1) */
    bool edge_guard;         /**< grounded movers do not walk off drops deeper than step_height */
    float edge_footing;      /**< what the edge guard keeps over the support (default 1/16) */
    shove_response response; /**< default response: SHOVE_RESPONSE_SLIDE */
    shove3_filter_fn filter; /**< optional per-obstacle response */
    void *filter_ctx;
    shove3_contact *contacts; /**< optional out-array */
    int contact_capacity;
    uint32_t internal_literal_mark; /**< private: set by shove3_default_move_def() (see "Defs") */
} shove3_move_def;

/** The defaults every field comment above names. */
SHOVE_API shove3_move_def shove3_default_move_def(void);

/** Outcome of a move. */
typedef struct shove3_move_result {
    shove3_aabb box;   /**< where the mover ends */
    vec3s delta;       /**< actual displacement */
    int contact_count; /**< contacts found (may exceed capacity; only capacity written) */
    bool on_ground;    /**< resting on a surface whose normal is +up (within skin) */
    bool hit_ceiling;  /**< stopped by a surface whose normal is -up */
    bool hit_wall;     /**< stopped by any other surface */
    bool stepped;      /**< an auto step-up happened */
} shove3_move_result;

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
 *  obstacle is not pushed out (see shove3_resolve): it may move out of it or
 *  along it, never deeper along the shortest way out, and the obstacle is
 *  reported at t = 0 with that way out as normal.
 *
 *  Contacts: every obstacle that stopped part of the motion or was crossed,
 *  once, in order of t (ties in list order), several on one face included.
 *  A step reports the contacts of the raised path (t = 0 for the raise, 1
 *  for the settle). on_ground looks under the final box whether or not the
 *  mover pressed down. */
SHOVE_API shove_status shove3_slide(shove3_aabb box, vec3s delta, const shove3_aabb *obstacles,
                                    size_t count, const shove3_move_def *def,
                                    shove3_move_result *out);

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
SHOVE_API shove_status shove3_resolve(shove3_aabb box, vec3s motion, const shove3_aabb *obstacles,
                                      size_t count, shove_resolve_mode mode, shove3_aabb *out);

/* >>world ---------------------------------------------------------------- */

/** A world of bodies, optional voxels and a broad phase. Opaque. */
typedef struct shove3_world shove3_world;

/** A world event; see shove3_world_get_events. */
typedef struct shove3_event {
    shove_event_type type;
    shove_id a;   /**< the body that moved, the sensor's visitor, or the squished body */
    shove_id b;   /**< the other body: obstacle, sensor, or the pusher (null for voxels) */
    vec3s normal; /**< contact: normal on `a` as in shove3_hit; squish: push direction */
} shove3_event;

/** Called once per event as it happens, in addition to the event list. The
 *  world is locked meanwhile (see "Locking" at the top). */
typedef void (*shove3_event_fn)(void *ctx, const shove3_event *event);

/** World settings. Start from shove3_default_world_def(), or leave the
 *  fields you do not set zero (see "Defs" at the top; all-zero bounds or
 *  body_capacity mean the defaults, a zero step_def the default move def). */
typedef struct shove3_world_def {
    shove3_aabb bounds;        /**< where most bodies live (a hint; bodies may leave it) */
    int32_t body_capacity;     /**< bodies to reserve room for (grows as needed) */
    shove3_move_def step_def;  /**< move settings of shove3_world_step (contacts ignored) */
    shove_allocator allocator; /**< all-zero = realloc / free */
    shove3_event_fn event_fn;  /**< optional event callback */
    void *event_ctx;
    /** Threads shove3_world_step may use, the caller's included: 1 (the
     *  default; 0 means 1) to SHOVE_MAX_WORKERS. The step's results are the
     *  same, bit for bit, for every count and every task system. With more
     *  than one, the step_def's filter and the voxel callback may be called
     *  from several threads at once (they must only read what they share),
     *  and events are still delivered on the calling thread. The extra
     *  workers run every mover's first slide ahead of the serial pass; the
     *  step times itself and does that only while it makes the step
     *  faster, so more workers never make a step much slower (today they
     *  rarely make it faster: see the README). */
    int worker_count;
    /** The game's task system (both or neither): NULL for a built-in pool
     *  of worker_count - 1 threads (C11 threads or pthreads), started by
     *  the first step that uses it and joined by shove3_world_destroy; a
     *  system without threads runs everything on the caller. */
    shove_enqueue_task_fn *enqueue_task;
    shove_finish_task_fn *finish_task;
    void *task_ctx; /**< passed to enqueue_task and finish_task */
    /** true: shove3_move keeps no contact pairs and reports no events (its
     *  event list is empty, debug drawing shows no contacts for it), as a
     *  game that never reads them wants: a move then costs less. The moved
     *  body's pairs stay as they are, as after shove3_body_set_box; the
     *  next shove3_world_step brings them up to date, with events. Moves
     *  end in the same place either way, and the step is not affected. A
     *  quiet move given no contact array only counts its contacts
     *  (contact_count), without recording them.
     *  Default false (pairs and events kept). */
    bool quiet_moves;
    uint32_t internal_literal_mark; /**< private: set by shove3_default_world_def() (see "Defs") */
} shove3_world_def;

/** Defaults: bounds [-1024, 1024] on every axis, room for 1024 bodies,
 *  step_def = shove3_default_move_def(), the C allocator, no callback, one
 *  worker (the caller), no task system, pairs and events kept. */
SHOVE_API shove3_world_def shove3_default_world_def(void);

/** Create a world. `def` may be NULL for the defaults.
 *  SHOVE_ERR_INVALID_ARGUMENT for a def out of range, among others a
 *  worker_count below 0 or above SHOVE_MAX_WORKERS, or enqueue_task
 *  without finish_task (or the reverse). */
SHOVE_API shove_status shove3_world_create(const shove3_world_def *def, shove3_world **out);

/** Destroy a world and everything in it. NULL is fine. From a callback of
 *  the same world (see "Locking" at the top) it does nothing: destroy the
 *  world after the call that runs the callback returns. */
SHOVE_API void shove3_world_destroy(shove3_world *w);

/** Number of live bodies (0 for NULL). */
SHOVE_API size_t shove3_world_body_count(const shove3_world *w);

/** The id of the live body whose id has index `index` (the slot; the
 *  number a dump writes after "body"), for tools that name bodies by it,
 *  such as shove-replay. SHOVE_ERR_STALE_ID when no live body has that
 *  index, SHOVE_ERR_INVALID_ARGUMENT for NULL arguments; `*out` is only
 *  written on SHOVE_OK. */
SHOVE_API shove_status shove3_world_body_at(const shove3_world *w, uint32_t index, shove_id *out);

/** Move the world's origin to `new_origin`: every body, the voxel origin
 *  and the world's bounds move by -new_origin, so a game far from zero keeps
 *  its numbers small (floats near 100,000 are 1/128 apart; near 0 they are
 *  far finer than any skin). Pending motions, pairs and ids are unchanged;
 *  the broad phase is rebuilt. Refuses a NULL world, a non-finite origin or
 *  a shift that would make a coordinate non-finite; SHOVE_ERR_OUT_OF_MEMORY
 *  when the rebuild cannot get memory. Nothing changes when it refuses. */
SHOVE_API shove_status shove3_world_shift_origin(shove3_world *w, vec3s new_origin);

/* >>bodies --------------------------------------------------------------- */

/** How a body starts. Start from shove3_default_body_def(), or leave the
 *  fields you do not set zero (see "Defs" at the top: category 0 and mask 0
 *  then mean the defaults; a body that should collide with nothing needs a
 *  def from shove3_default_body_def() with mask 0). */
typedef struct shove3_body_def {
    shove3_aabb box;
    shove_body_type type; /**< default STATIC */
    uint8_t priority;     /**< push strength: 0 is the strongest, 255 the weakest; a body
                               pushes dynamic bodies with a larger number (weaker) */
    uint64_t category;    /**< bits this body is; default 1 */
    uint64_t mask;        /**< bits this body collides with; default all */
    bool sensor;          /**< reported, never blocks */
    void *user_data;
    uint32_t internal_literal_mark; /**< private: set by shove3_default_body_def() (see "Defs") */
} shove3_body_def;

/** Defaults: empty box at the origin, STATIC, priority 0 (the strongest), category 1, mask
 *  all bits, not a sensor, no user data. */
SHOVE_API shove3_body_def shove3_default_body_def(void);

/** Add a body. Two bodies interact only when each one's category is in the
 *  other's mask.
 *
 *  A body may be created overlapping others (a spawn in a crowd, inside a
 *  trigger): that is SHOVE_OK, nothing is moved and no event says so. A
 *  body created inside a solid body it interacts with (or inside a solid
 *  voxel) starts inside it: its moves and steps take it out of it or along
 *  it, never deeper along the shortest way out (see shove3_slide), and
 *  nothing pushes it out. shove3_body_overlaps lists the bodies it starts
 *  inside; shove3_cast_box of its box with delta zero and mask 0 hits
 *  (started_inside, null other) when it is inside a voxel. A game that
 *  wants it free moves it out along the hit's normal or places it
 *  elsewhere (shove3_body_set_box, or shove3_query_box before creating). */
SHOVE_API shove_status shove3_body_create(shove3_world *w, const shove3_body_def *def,
                                          shove_id *out);

/** Remove a body; its id is never valid again. */
SHOVE_API shove_status shove3_body_destroy(shove3_world *w, shove_id id);

/** True when `id` names a live body of this world. */
SHOVE_API bool shove3_body_is_valid(const shove3_world *w, shove_id id);

/** Current box of a body. */
SHOVE_API shove_status shove3_body_get_box(const shove3_world *w, shove_id id, shove3_aabb *out);

/** Teleport a body: no collision, no events. Moves remember the static
 *  bodies around each mover until a static body is created, destroyed or
 *  moved (here or by shove3_move); bodies that move every frame (lifts,
 *  doors) keep that memory useful when they are dynamic. */
SHOVE_API shove_status shove3_body_set_box(shove3_world *w, shove_id id, shove3_aabb box);

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
SHOVE_API shove_status shove3_body_set_type(shove3_world *w, shove_id id, shove_body_type type);

/** Set a body's priority (push strength: 0 is the strongest, 255 the
 *  weakest), used from the next step on: who
 *  pushes whom is decided when a step meets the bodies. SHOVE_ERR_STALE_ID,
 *  or SHOVE_ERR_INVALID_ARGUMENT for a NULL world; nothing changes then. */
SHOVE_API shove_status shove3_body_set_priority(shove3_world *w, shove_id id, uint8_t priority);

/** Set what a body is (`category`) and what it collides with (`mask`), as
 *  in shove3_body_def. Takes effect at once for moves, steps and queries.
 *  Contacts and sensor overlaps with bodies it no longer interacts with end
 *  here, without events (as when a body is destroyed: no CONTACT_END or
 *  SENSOR_EXIT follows for them); pairs that still interact are kept, and
 *  new ones begin on the next move or step that finds them, with events.
 *  SHOVE_ERR_STALE_ID, or SHOVE_ERR_INVALID_ARGUMENT for a NULL world;
 *  nothing changes then. */
SHOVE_API shove_status shove3_body_set_filter(shove3_world *w, shove_id id, uint64_t category,
                                              uint64_t mask);

/** Set a body's user data (the world only stores it). SHOVE_ERR_STALE_ID,
 *  or SHOVE_ERR_INVALID_ARGUMENT for a NULL world. */
SHOVE_API shove_status shove3_body_set_user_data(shove3_world *w, shove_id id, void *user_data);

/** A body's user data, written to `*out`. SHOVE_ERR_INVALID_ARGUMENT for a
 *  NULL world or `out`, SHOVE_ERR_STALE_ID for an id that is not a live
 *  body of `w`; `*out` is untouched then. */
SHOVE_API shove_status shove3_body_get_user_data(const shove3_world *w, shove_id id, void **out);

/* >>moving --------------------------------------------------------------- */

/** Collide-and-slide one body now (bump's world:move) against every other
 *  body it collides with and the voxels. Other bodies do not move. Gives the
 *  same result as shove3_slide over the same boxes, except for a move over
 *  voxels whose swept box spans more than 4 of them on some axis and that
 *  meets one: it runs in pieces two voxels long, each a whole move, so it
 *  may climb a step in each (up to step_height a piece). `def` may be NULL.
 *  Refuses, changing nothing: SHOVE_ERR_STALE_ID for an id that is not a
 *  live body of `w`; SHOVE_ERR_INVALID_ARGUMENT for a NULL world or result,
 *  a non-finite delta, a broken def, or a delta that would carry the box
 *  (or a step-up's reach) beyond float range, as shove3_slide does. */
SHOVE_API shove_status shove3_move(shove3_world *w, shove_id id, vec3s delta,
                                   const shove3_move_def *def, shove3_move_result *out);

/** Set the motion a dynamic body makes in the next shove3_world_step (a
 *  displacement, replacing any motion set before). Refuses a NULL world or
 *  a non-finite delta (SHOVE_ERR_INVALID_ARGUMENT), a stale id
 *  (SHOVE_ERR_STALE_ID), a static body (SHOVE_ERR_INVALID_ARGUMENT:
 *  static bodies never move; teleport them with shove3_body_set_box) and a
 *  motion that would carry the body's box (or the step_def's step-up
 *  reach) beyond float range (SHOVE_ERR_OUT_OF_RANGE). */
SHOVE_API shove_status shove3_body_set_motion(shove3_world *w, shove_id id, vec3s delta);

/** Priority / transitive shove step: every dynamic body with a pending motion
 *  moves once, with its own move settings (shove3_body_set_move_def) or
 *  else the world's step_def; pending motions are then cleared. Each body's
 *  result is then in shove3_body_get_result.
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
 *  mover of priority p slides (as shove3_move) along whatever it cannot
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
 *  the step moved (as for shove3_move). No allocation in steady state. On
 *  SHOVE_ERR_OUT_OF_MEMORY the step is undone: bodies are back where they
 *  were, motions stay pending, the event list is kept (if memory also runs
 *  out while undoing, the bodies stay in a valid, non-overlapping state
 *  partway through the step). SHOVE_ERR_INVALID_ARGUMENT for a NULL world.
 *  See src/world/step.c for the algorithm and its cost. */
SHOVE_API shove_status shove3_world_step(shove3_world *w);

/** The move settings shove3_world_step uses: the world def's step_def
 *  (contacts NULL, capacity 0), e.g. to replay a step's move with
 *  shove3_move. SHOVE_ERR_INVALID_ARGUMENT for NULL arguments. */
SHOVE_API shove_status shove3_world_get_step_def(const shove3_world *w, shove3_move_def *out);

/** Move settings shove3_world_step uses for this body instead of the
 *  world's step_def (a sneaking player with edge_guard and no step height
 *  in the same step as a crowd of mobs); NULL goes back to the step_def.
 *  The def is copied: it need not outlive the call, but its filter_ctx must
 *  stay valid while it is set. Bodies without their own settings step
 *  exactly as before.
 *
 *  What the step takes from a body's own def: its slides (the body's own
 *  motion and its carries on platforms) run with all of it, as shove3_move
 *  would; its filter and response also decide what it finds solid when it
 *  is pushed (walls) or rides; its skin sets the gap it keeps to what is
 *  ahead when pushed, to the mover when it pushes, and its contact
 *  distance (resting, events). Who rests on whom (platforms, riders,
 *  lifting) is read along the step_def's up_axis for every body; a body's
 *  own up_axis only turns its slides (ground, step-up, edge guard).
 *  contacts and contact_capacity are ignored, as in the step_def: the step
 *  writes no contact array (shove3_body_get_result counts them; events and
 *  shove3_world_draw show them). shove3_world_dump writes them (without
 *  filter, as for the step_def) and shove3_world_load sets them again.
 *
 *  Refuses, changing nothing: SHOVE_ERR_INVALID_ARGUMENT for a NULL world
 *  or a def shove3_move would refuse (an unknown mark, a negative skin,
 *  step height or edge_footing, iterations out of 1..64, an up_axis out of
 *  range, a step height without an up axis, an unknown response);
 *  SHOVE_ERR_STALE_ID for an id that is not a live body of `w`;
 *  SHOVE_ERR_LOCKED from a callback of `w`; SHOVE_ERR_OUT_OF_MEMORY (the
 *  first time a body gets its own settings, a world-wide table may grow;
 *  setting them again allocates nothing). */
SHOVE_API shove_status shove3_body_set_move_def(shove3_world *w, shove_id id,
                                                const shove3_move_def *def);

/** What the body's last shove3_move or shove3_world_step did, written to
 *  `*out`: box (the body's box now), delta, contact_count, on_ground,
 *  hit_ceiling, hit_wall, stepped. After shove3_move: its result (the
 *  contacts went to that move's def). After a step, for every body the step
 *  moved or that had a non-zero pending motion: delta is how far the box's
 *  min corner moved in the whole step (pushes and carries included), and
 *  the flags and contact_count are those of the final slide of its own
 *  motion, or, with no motion of its own, of its last carry; a body only
 *  pushed (or that never slid) has them clear and 0. Other bodies keep
 *  their result. A new body's result is its box, zero delta, no flags;
 *  shove3_body_set_box changes the box only. May be called from callbacks
 *  (a step writes every result before it emits events).
 *  SHOVE_ERR_INVALID_ARGUMENT for a NULL world or `out`, SHOVE_ERR_STALE_ID
 *  for an id that is not a live body of `w`; `*out` is untouched then. */
SHOVE_API shove_status shove3_body_get_result(const shove3_world *w, shove_id id,
                                              shove3_move_result *out);

/* >>events --------------------------------------------------------------- */

/** Events of the last shove3_move or shove3_world_step (each call starts a
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
SHOVE_API size_t shove3_world_get_events(const shove3_world *w, const shove3_event **out);

/* >>voxels --------------------------------------------------------------- */

/** Most boxes one voxel shape may have. */
#define SHOVE_VOXEL_MAX_BOXES 8

/** Voxels one call may read when the voxel def's max_cells is 0. */
#define SHOVE_VOXEL_DEFAULT_MAX_CELLS 4194304u

/** Boxes of voxel (x, y, z) in voxel-local units ([0, 1] per axis; may reach
 *  beyond, e.g. a fence 1.5 tall). Returns how many (0 = empty). Must give
 *  the same boxes every time it is asked about the same voxel. The world is
 *  locked while it runs (see "Locking" at the top). A step with
 *  worker_count above 1 (see shove3_world_def) may call it from several
 *  threads at once. */
typedef int (*shove3_voxel_fn)(void *ctx, int32_t x, int32_t y, int32_t z,
                               shove3_aabb out[SHOVE_VOXEL_MAX_BOXES]);

/** Where voxels come from. Start from shove3_default_voxel_def(), or leave
 *  the fields you do not set zero (see "Defs" at the top: voxel_size 0 and
 *  all-zero shape_bounds then mean the defaults).
 *
 *  The voxel at cell c covers origin + voxel_size * [c, c + 1] on every
 *  axis; a local box b of it lies at origin + voxel_size * (c + b). Every
 *  box of every voxel must lie inside `shape_bounds` (local units, within
 *  [-1, 2] on every axis). A sweep reads the voxels whose shape_bounds its
 *  swept box touches, so a tight bound reads fewer voxels.
 *
 *  The callback must answer 0 to 8 valid boxes inside shape_bounds. A
 *  callback that breaks this (a count outside 0..8, a NaN or inverted box,
 *  a box reaching outside shape_bounds) is never trusted in part: the move
 *  or step that read it is refused with SHOVE_ERR_INVALID_ARGUMENT and
 *  changes nothing, and a cast that read it returns false and writes
 *  nothing. No box is cut or skipped.
 *
 *  Budgets (as shove3_world_set_voxels says). `solid_min` .. `solid_max`
 *  (inclusive, in cells) is where solid voxels may be: a block game's
 *  height limits, its loaded area. Cells outside it are empty and never
 *  read, so paths outside it cost nothing. An axis whose solid_min and
 *  solid_max are both 0 is unbounded. `max_cells` caps the voxels one call
 *  may read; 0 means SHOVE_VOXEL_DEFAULT_MAX_CELLS. */
typedef struct shove3_voxel_def {
    shove3_voxel_fn shapes;         /**< NULL: no voxels */
    void *ctx;                      /**< passed to `shapes` */
    float voxel_size;               /**< edge of a voxel in world units (default 1) */
    vec3s origin;                   /**< world position of voxel (0,0,0)'s min corner */
    shove3_aabb shape_bounds;       /**< default 0..1 on every axis but y: 0..1.5 */
    int32_t solid_min[3];           /**< lowest cell that may be solid (both 0: any) */
    int32_t solid_max[3];           /**< highest cell that may be solid (both 0: any) */
    uint32_t max_cells;             /**< most voxels one call reads; 0: the default */
    uint32_t internal_literal_mark; /**< private: set by shove3_default_voxel_def() (see "Defs") */
} shove3_voxel_def;

/** Defaults: no callback, voxel size 1, origin at zero, shape_bounds from 0
 *  to 1 on every axis except y (up), which goes to 1.5 for fences; every
 *  cell may be solid; max_cells SHOVE_VOXEL_DEFAULT_MAX_CELLS. */
SHOVE_API shove3_voxel_def shove3_default_voxel_def(void);

/** Use voxels as static solids for every move, step and cast (queries list
 *  bodies only). They are read through the callback, never copied: a game
 *  that edits its map sees the change on the next move. A def with a NULL
 *  callback removes them. Refuses (SHOVE_ERR_INVALID_ARGUMENT) a NULL world
 *  or def, a voxel_size that is not finite and > 0, a non-finite origin,
 *  shape_bounds that are not a valid box inside [-1, 2] and a solid range
 *  with solid_min > solid_max on some axis.
 *
 *  Voxels collide with every body (they have no category); a move's filter
 *  sees each voxel box with its cell (shove3_obstacle), contacts with voxels
 *  have a null `other`.
 *
 *  Cost. Moves, steps and casts read voxels only along their path and only
 *  up to where the motion ends: a blocked mover reads the same voxels
 *  whatever it asked for. A long move (its swept box longer than 4 voxels
 *  on some axis) whose path is clear of voxels runs whole and ends exactly
 *  where it was sent; one that meets voxels, or walks with its edge guard
 *  on, runs as a series of moves of at most two voxels each along its
 *  path, each a whole move as shove3_move describes (so it may climb a
 *  step in each), that stops where the mover stops (a guarded walk on a
 *  path clear of voxels that the guard never holds back still ends exactly
 *  where it was sent). Every call reads at
 *  most max_cells voxels (the budget; cells outside the solid range are
 *  free); a move or step that would read more, or whose voxels lie beyond
 *  float precision (cells more than 2^24 voxels from world zero: move the
 *  origin with shove3_world_shift_origin), is refused with
 *  SHOVE_ERR_OUT_OF_RANGE and changes nothing, and a cast returns false
 *  and writes nothing. */
SHOVE_API shove_status shove3_world_set_voxels(shove3_world *w, const shove3_voxel_def *def);

/** The voxel def in use: what shove3_world_set_voxels was last given (with
 *  the origin moved by shove3_world_shift_origin), or, with no voxels, the
 *  default def (NULL callback). A world made by shove3_world_load answers
 *  the dump's voxels through its own callback: call `shapes(ctx, ...)` to
 *  read them. SHOVE_ERR_INVALID_ARGUMENT for NULL arguments. */
SHOVE_API shove_status shove3_world_get_voxels(const shove3_world *w, shove3_voxel_def *out);

/** Greedy merge of a grid of solid cells into fewer boxes, for games that
 *  prefer a few static bodies to a voxel callback. `solid` holds
 *  cells[0] * cells[1] * cells[2] bytes, x fastest; nonzero is solid. Box
 *  corners are origin + cell_size * cell coordinates. The boxes are disjoint
 *  and cover exactly the solid cells. Writes at most `capacity` boxes to
 *  `out` (NULL is fine with capacity 0) and sets `*out_count` to how many the
 *  merge needs. Allocates a visited map of one byte per cell (freed before
 *  returning); SHOVE_ERR_OUT_OF_MEMORY when that fails. */
SHOVE_API shove_status shove3_merge_grid(const uint8_t *solid, const int32_t cells[3],
                                         float cell_size, vec3s origin, shove3_aabb *out,
                                         size_t capacity, size_t *out_count);

/* >>queries -------------------------------------------------------------- */

/** Ids of bodies whose box overlaps `box` and whose category meets `mask`.
 *  Writes at most `capacity`; returns the total found. Voxels are not bodies
 *  and are not listed. */
SHOVE_API size_t shove3_query_box(const shove3_world *w, shove3_aabb box, uint64_t mask,
                                  shove_id *out, size_t capacity);

/** The bodies that body `id` starts inside: solid bodies (not sensors) that
 *  it interacts with (each one's category in the other's mask) and whose
 *  boxes overlap its box strictly; boxes that only touch do not count. A
 *  move or step of `id` cannot go deeper into them (see shove3_body_create);
 *  a move's filter may still let it through. Writes at most `capacity` ids
 *  to `out` (NULL is fine with capacity 0), in the broad phase's order, and
 *  returns how many there are. 0 for a sensor (it moves through
 *  everything), a NULL world or an id that is not a live body of `w`.
 *  Voxels are not bodies and are not listed (see shove3_body_create). */
SHOVE_API size_t shove3_body_overlaps(const shove3_world *w, shove_id id, shove_id *out,
                                      size_t capacity);

/** Earliest hit of `box` moved by `delta` against bodies matching `mask` and
 *  voxels (whatever the mask). Returns false when nothing is hit (or the
 *  input is invalid); `hit` may be NULL. A voxel hit has a null `other`; a
 *  body and a voxel hit at the same t give the body; of bodies hit at the
 *  same t, one is named.
 *
 *  What counts as a hit: the first t at which the moved box overlaps the
 *  interior of the union of the solids (bodies and voxel boxes together).
 *  Touching is not a hit, as for shove3_sweep_aabb, with one difference:
 *  a cast that is flat on an axis (min == max there) and does not move
 *  along it, lying exactly on a face plane, is inside the union where
 *  boxes on both sides of that plane cover its path (on an edge, all four
 *  quarters around it; at a corner, all eight). So a ray, or a zero-thick
 *  box, along the seam of two stacked solid voxels, tiles or bodies hits
 *  the wall where both sides are solid, at the face it enters that solid
 *  part by (or at t = 0, started_inside, when it starts in it); such a hit
 *  names one of the bodies of that pair, or null when they are all voxels.
 *  Along a face with solid on one side only it is no hit. Casts that are
 *  not flat on a still axis get exactly the per-box answer. At most 64
 *  boxes along such a face are kept at once (those the cast enters first),
 *  and at most 4096 combinations are tried per box. Moves keep their own
 *  seam rule: a mover slides along a seamed floor or wall without a
 *  snag. */
SHOVE_API bool shove3_cast_box(const shove3_world *w, shove3_aabb box, vec3s delta, uint64_t mask,
                               shove3_hit *hit);

/** Earliest hit of the ray from `origin` to `origin + delta`: shove3_cast_box
 *  of the point box at `origin`, so a ray along the shared face of two
 *  solids hits them (see there). */
SHOVE_API bool shove3_cast_ray(const shove3_world *w, vec3s origin, vec3s delta, uint64_t mask,
                               shove3_hit *hit);

/** Cast body `id`'s own box along `delta`: shove3_cast_box with the body's
 *  box and its mask (bodies whose category its mask meets, and voxels),
 *  skipping the body itself, so a player's sweep or eye ray never reports
 *  the player. Other bodies' masks are not consulted (a move asks both
 *  sides). Returns false when nothing is hit, and for a NULL world, a stale
 *  id or a non-finite delta; `hit` may be NULL and is written only on a
 *  hit. (shove3_cast_ray from a point inside a body, such as an eye, hits
 *  that body at t = 0 unless the ray's mask leaves out its category.) */
SHOVE_API bool shove3_cast_body(const shove3_world *w, shove_id id, vec3s delta, shove3_hit *hit);

/* >>bindings ------------------------------------------------------------- */

/* Twins of hot calls that take their structs by pointer. Foreign-function
 * interfaces that cannot pass structs by value quickly (LuaJIT's JIT compiles
 * FFI calls only when no struct is passed by value) call these. */

/** shove3_query_box with the box passed by pointer, and the total as a
 *  32-bit count (body indices are 32-bit, so it fits; an FFI then gets a
 *  plain number instead of a boxed 64-bit one). A NULL `box` finds nothing
 *  (returns 0, writes nothing). */
SHOVE_API uint32_t shove3_query_box_ptr(const shove3_world *w, const shove3_aabb *box,
                                        uint64_t mask, shove_id *out, size_t capacity);

/** shove3_body_set_box with the id and the box passed by pointer. A NULL
 *  `id` or `box` is SHOVE_ERR_INVALID_ARGUMENT and changes nothing. */
SHOVE_API shove_status shove3_body_set_box_ptr(shove3_world *w, const shove_id *id,
                                               const shove3_aabb *box);

/** shove3_move with the id and the delta passed by pointer (the def and the
 *  result already are), so an FFI moves a body from compiled code. A NULL
 *  `id` or `delta` is SHOVE_ERR_INVALID_ARGUMENT and changes nothing; every
 *  other refusal is shove3_move's. */
SHOVE_API shove_status shove3_move_ptr(shove3_world *w, const shove_id *id, const vec3s *delta,
                                       const shove3_move_def *def, shove3_move_result *out);

/** A box as bump.lua keeps a rect: its low corner and its size, in doubles
 *  (the LuaJIT module computes with Lua numbers, and so does this). */
typedef struct shove3_bump_rect {
    double min[3];
    double size[3];
} shove3_bump_rect;

/** A collision as bump.lua's rect.detectCollision reports it. */
typedef struct shove3_bump_hit {
    double ti;        /**< when the mover touches (0..1), or minus the overlap's volume */
    double normal[3]; /**< unit axis vector from the other box toward the mover, or 0 */
    double touch[3];  /**< where the mover's low corner is when it touches */
    bool overlaps;    /**< the boxes overlapped at the start */
} shove3_bump_hit;

/** bump.lua's collision test (its rect.detectCollision; in 3D, that of
 *  bump-3dpd) in doubles, for the LuaJIT module shove.bump: `item` moving so
 *  its low corner goes to `goal`, against `other`. Returns true and fills `*out`
 *  when bump reports a collision: the boxes overlap by more than bump's
 *  margin of 1e-10 at the start (`ti` is minus the overlap's volume; the
 *  touch point backs out along the motion, or out by the shortest axis when
 *  there is no motion: of two as short, the later one in 2D as bump.lua
 *  does, the earlier one in 3D as bump-3dpd does), or the mover enters
 *  `other` before the goal (`ti` in [0, 1), the normal of the side it
 *  enters); a motion that only passes a corner or an edge is no collision.
 *  The arithmetic is bump's, operation for operation (with -ffp-contract=off
 *  it matches Lua's bit for bit). Returns false and leaves `*out` unchanged
 *  when there is no collision or a pointer is NULL. */
SHOVE_API bool shove3_bump_detect(const shove3_bump_rect *item, const double goal[3],
                                  const shove3_bump_rect *other, shove3_bump_hit *out);

/** shove3_bump_detect of `item` against rects[ids[i].index] for each i
 *  below `count` whose index is not `skip` (UINT32_MAX skips nothing), in
 *  one call: the LuaJIT module's projection, on the candidates its filter
 *  kept (from shove3_bump_grid_query), so that its Lua code handles no
 *  numbers and no loop. Generations are not looked at. The collisions
 *  go to hits[0 .. k-1] in the order of `ids`, and found[j] is the i of
 *  hits[j]; returns k. Both outputs need room for `count` entries. Returns
 *  0 and writes nothing when a pointer is NULL (`rects`, `ids`, `hits` and
 *  `found` may be NULL when `count` is 0). */
SHOVE_API uint32_t shove3_bump_detect_all(const shove3_bump_rect *item, const double goal[3],
                                          const shove3_bump_rect *rects, const shove_id *ids,
                                          uint32_t count, uint32_t skip, shove3_bump_hit *hits,
                                          uint32_t *found);

/** One collision of shove3_bump_check: bump's collision table in numbers. */
typedef struct shove3_bump_col {
    uint32_t other;        /**< the body index of the item met */
    shove3_bump_hit hit;   /**< ti, normal, touch, overlaps */
    shove3_bump_rect from; /**< the moving rect when it met the item (bump's itemRect) */
    double move[3];        /**< the goal minus from's low corner (bump's move) */
    double slide[3];       /**< where bump's slide response sends it on */
} shove3_bump_col;

/** bump.lua's world:check when every item answers 'slide' (bump's default
 *  filter and its slide response), for the LuaJIT module: the rect of body
 *  `self` in `rects` (indexed by body index, as shove3_bump_detect_all)
 *  moving to `goal`. Each projection asks `w` for the bodies whose boxes
 *  meet the motion's bounding box grown on every side by |v| * pad_rel +
 *  pad_abs for each coordinate v (the module stores its boxes grown the
 *  same way), skips `self` and the bodies met before, tests the rest with
 *  shove3_bump_detect, takes the first in bump's order (by ti, then by the
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
SHOVE_API uint32_t shove3_bump_check(const shove3_world *w, const shove3_bump_rect *rects,
                                     uint32_t rect_count, uint32_t self, const double goal[3],
                                     double pad_rel, double pad_abs, shove_id *ids,
                                     uint32_t id_capacity, shove3_bump_col *cols,
                                     uint32_t col_capacity, double actual[3]);

/** A uniform grid of bump rects, the broad phase of the LuaJIT module
 *  shove.bump: bump.lua's cells of `cell_size`, in C. It keeps each item's
 *  rect (a shove3_bump_rect in doubles) under an index it hands out, and
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
 *  (shove3_bump_detect) can accept, rounding included. An item is filed
 *  in the cells its rect covers, far sides open (a unit tile on cells of 2
 *  is in one cell), and a query reads the cells of its grown box widened
 *  by twice that growth, which holds every item it can meet. Queries only read
 *  the grid, so threads may query one grid at once while none changes it;
 *  an add, update, remove or move needs the grid to itself. */
typedef struct shove3_bump_grid shove3_bump_grid;

/** Creates an empty grid with cells `cell_size` wide, which allocates
 *  through `allocator` (NULL, or one whose realloc is NULL: the C library's
 *  realloc / free). SHOVE_ERR_INVALID_ARGUMENT for a NULL `out` or a size
 *  that is not finite and positive, or whose inverse is not finite;
 *  SHOVE_ERR_OUT_OF_MEMORY when the allocator returns NULL. On error
 *  `*out` is untouched. */
SHOVE_API shove_status shove3_bump_grid_create(double cell_size, const shove_allocator *allocator,
                                               shove3_bump_grid **out);

/** Frees the grid and everything in it. NULL is allowed (does nothing). */
SHOVE_API void shove3_bump_grid_destroy(shove3_bump_grid *g);

/** Adds an item with the rect `*rect` and writes its index (the
 *  index last freed by a remove, else the next unused one). The rect must have a
 *  finite low corner, sizes above 0 and a finite far corner, else
 *  SHOVE_ERR_INVALID_ARGUMENT; SHOVE_ERR_OUT_OF_MEMORY when an allocation
 *  fails. On error nothing changes and `*index` is untouched. */
SHOVE_API shove_status shove3_bump_grid_add(shove3_bump_grid *g, const shove3_bump_rect *rect,
                                            uint32_t *index);

/** Sets the rect of item `index` to `*rect` (checked as in
 *  shove3_bump_grid_add). SHOVE_ERR_INVALID_ARGUMENT for a NULL pointer, an
 *  index that is not an item, or a bad rect; SHOVE_ERR_OUT_OF_MEMORY when
 *  the item's new cells need memory that cannot be had. On error nothing
 *  changes. */
SHOVE_API shove_status shove3_bump_grid_update(shove3_bump_grid *g, uint32_t index,
                                               const shove3_bump_rect *rect);

/** Removes item `index`; its index may be handed out again.
 *  SHOVE_ERR_INVALID_ARGUMENT (nothing changes) when it is not an item. */
SHOVE_API shove_status shove3_bump_grid_remove(shove3_bump_grid *g, uint32_t index);

/** How many items the grid holds (0 for NULL). */
SHOVE_API uint32_t shove3_bump_grid_count(const shove3_bump_grid *g);

/** The rects by index: rects[i] is item i's. Valid until the next add
 *  (which may move the array); entries of indices that are not items are
 *  stale. NULL for NULL or a grid that never held an item. */
SHOVE_API const shove3_bump_rect *shove3_bump_grid_rects(const shove3_bump_grid *g);

/** The items whose rect meets the box [min, max] (both grown as said at
 *  shove3_bump_grid): their indices go to out[0 .. capacity-1] in no
 *  particular order, each once, and the count is returned (more than
 *  `capacity` means call again with more room). Entries of `out` past the
 *  count, up to `capacity`, may be written too. Returns 0 and writes
 *  nothing for a NULL pointer (`out` may be NULL when `capacity` is 0), a
 *  coordinate that is not finite, or min > max on an axis. */
SHOVE_API uint32_t shove3_bump_grid_query(shove3_bump_grid *g, const double min[3],
                                          const double max[3], uint32_t *out, uint32_t capacity);

/** bump.lua's world:check (or, with `update`, its world:move) when every
 *  item answers 'slide', on the grid: shove3_bump_check's loop of
 *  projections and slides for item `self` going to `goal`, its candidates
 *  from shove3_bump_grid_query of each projection's bounding box. Writes
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
SHOVE_API shove_status shove3_bump_grid_move(shove3_bump_grid *g, uint32_t self,
                                             const double goal[3], bool update, uint32_t *ids,
                                             uint32_t id_capacity, shove3_bump_col *cols,
                                             uint32_t col_capacity, uint32_t *count,
                                             double actual[3]);

/* >>batch ---------------------------------------------------------------- */

/** Boxes as struct of arrays: box i is (min[a][i], max[a][i]) on axis a. */
typedef struct shove3_soa {
    const float *min[3];
    const float *max[3];
    size_t count;
} shove3_soa;

/** Indices of boxes that overlap `query` strictly, in ascending order.
 *  `out_indices` needs room for boxes->count entries and must not overlap
 *  the boxes' arrays. Returns the count; entries past it (up to
 *  boxes->count) may be overwritten as scratch. */
SHOVE_API size_t shove3_overlap_batch(const shove3_soa *boxes, shove3_aabb query,
                                      uint32_t *out_indices);

/** Earliest hit of `moving` swept by `delta` against the boxes (ties go to
 *  the lowest index). Same rules as shove3_sweep_aabb. */
SHOVE_API bool shove3_sweep_batch(const shove3_soa *boxes, shove3_aabb moving, vec3s delta,
                                  shove3_hit *hit, uint32_t *hit_index);

/* >>debugging ------------------------------------------------------------ */

/** Callbacks a game fills to see inside a world. Colours are 0xRRGGBBAA.
 *  The world is locked while they run (see "Locking" at the top). */
typedef struct shove3_debug_draw {
    void (*draw_box)(void *ctx, shove3_aabb box, uint32_t color);
    void (*draw_point)(void *ctx, vec3s point, uint32_t color);
    void (*draw_normal)(void *ctx, vec3s point, vec3s normal, uint32_t color);
    bool draw_bodies;   /**< every body's box */
    bool draw_contacts; /**< contact points and normals of the last move / step */
    bool draw_tree;     /**< broad-phase nodes */
    void *ctx;
} shove3_debug_draw;

/** Call `draw`'s callbacks for what its flags ask (NULL callbacks are
 *  skipped): bodies (static grey, dynamic blue, sensors amber), contacts
 *  (red points, green normals) and the cells of the tree nodes that hold
 *  bodies (faint grey for static, faint purple for dynamic bodies). */
SHOVE_API void shove3_world_draw(const shove3_world *w, const shove3_debug_draw *draw);

/** Write a readable text snapshot of the world to `out`: its settings,
 *  every body (id index, type, priority, category, mask, sensor flag, box),
 *  its own move settings (shove3_body_set_move_def, without the filter),
 *  pending motions, worker_count when it is not 1, quiet_moves when set,
 *  and the voxels within
 *  four voxels of every body, with floats that read back to the same bits
 *  (the format is described in src/world/dump.c). shove3_world_load reads it
 *  back; tools/replay's shove-replay loads it and replays moves and steps
 *  (README: "A player got stuck"). Changes nothing; user data, callbacks
 *  and the contact history are not written. SHOVE_ERR_INVALID_ARGUMENT for
 *  NULL arguments or when writing fails, SHOVE_ERR_OUT_OF_MEMORY when the
 *  list of voxels to write cannot be allocated (through the world's
 *  allocator). */
SHOVE_API shove_status shove3_world_dump(const shove3_world *w, FILE *out);

/** The inverse of shove3_world_dump: read a dump from `in` into a new world
 *  (`*out`). The world takes its settings from `def` (NULL: the defaults:
 *  allocator, event callback, capacity, task system, ...) except for the
 *  bounds and step settings, which come from the dump, and worker_count
 *  and quiet_moves, which do when the dump has them. Every body gets the index it had (its
 *  id differs only in generation: shove3_world_body_at finds it), its own
 *  move settings and its pending motion. The dump's voxels (those near its
 *  bodies) become a table the world owns, behind a voxel callback of its
 *  own, with the dump's voxel settings (size, origin, shape bounds, solid
 *  range and max_cells; a dump without the last two gets their defaults);
 *  cells the dump does not hold are empty. A game replaying with its
 *  own voxels sets them again with shove3_world_set_voxels. User data,
 *  callbacks and the contact history are not in a dump: no pair is
 *  remembered at first.
 *
 *  Reading stops after the `end` record. Refuses with
 *  SHOVE_ERR_INVALID_ARGUMENT, creating nothing and leaving `*out` alone:
 *  NULL `in` or `out`, a dump of the other dimension, records out of order
 *  or unknown, malformed or out-of-range numbers (NaN and inf included),
 *  boxes with min > max, body indices that do not grow or reach 2^20, a
 *  motion of a static body or of no body, voxel boxes outside the shape
 *  bounds, a cell given twice, lines over 4096 bytes, and a text cut off
 *  before `end`; what world_create, body_create or set_voxels refuse is
 *  refused likewise. SHOVE_ERR_OUT_OF_MEMORY when the world's allocator
 *  fails. */
SHOVE_API shove_status shove3_world_load(const shove3_world_def *def, FILE *in, shove3_world **out);

#ifdef __cplusplus
}
#endif

#endif /* SHOVE3_H */
