/*
 * shove_common.h: types and functions shared by the 2D and 3D halves.
 *
 * Functions in this header:
 *   shove_status_string   name of a status, never NULL
 *   shove_id_is_null      true for the all-zero id
 *   shove_id_equal        compare two ids
 *   shove_simd_active     SIMD level the batch kernels use now
 *   shove_simd_select     force a SIMD level (tests, benchmarks)
 *   shove_simd_supported  whether this CPU and build can run a level
 *   shove_simd_name       printable name of a level
 *
 * Types: shove_status, shove_id, shove_response, shove_simd,
 * shove_resolve_mode, shove_body_type, shove_event_type, shove_allocator.
 */
#ifndef SHOVE_COMMON_H
#define SHOVE_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cglm/types-struct.h>

#include "shove_export.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SHOVE_VERSION_MAJOR 0
#define SHOVE_VERSION_MINOR 1
#define SHOVE_VERSION_PATCH 0

/** What a public function reports. Every function that can refuse its input
 *  returns one of these; when it is not SHOVE_OK nothing was changed. */
typedef enum shove_status {
    SHOVE_OK = 0,
    SHOVE_ERR_INVALID_ARGUMENT, /**< NaN/inf, min > max, NULL, bad def */
    SHOVE_ERR_STALE_ID,         /**< id destroyed, never created, or of another world */
    SHOVE_ERR_OUT_OF_MEMORY,    /**< the allocator returned NULL */
    SHOVE_ERR_UNSUPPORTED,      /**< e.g. SIMD level not available on this CPU */
    SHOVE_ERR_LOCKED,           /**< called from a callback of the same world while it runs */
    SHOVE_ERR_OUT_OF_RANGE,     /**< path, box or coordinates beyond the documented budget */
} shove_status;

/** Short English description of a status ("ok", "invalid argument", ...).
 *  Unknown values give "unknown status". Never NULL. */
SHOVE_API const char *shove_status_string(shove_status s);

/** Handle of a body. The index names a slot, the generation tells apart the
 *  bodies that used that slot over time, and a world tag in the high bits of
 *  the generation tells worlds apart. The all-zero id is the null id; an id of
 *  a destroyed body is never valid again. */
typedef struct shove_id {
    uint32_t index;
    uint32_t generation;
} shove_id;

/** The null id, as a value. */
#define SHOVE_NULL_ID ((shove_id){0u, 0u})

/** True when `id` is the null id. */
static inline bool shove_id_is_null(shove_id id) {
    return id.index == 0u && id.generation == 0u;
}

/** True when two ids name the same body. */
static inline bool shove_id_equal(shove_id a, shove_id b) {
    return a.index == b.index && a.generation == b.generation;
}

/** What a mover does when it meets an obstacle (the names follow bump.lua). */
typedef enum shove_response {
    SHOVE_RESPONSE_IGNORE = 0, /**< pass through, not reported */
    SHOVE_RESPONSE_SLIDE,      /**< stop on the surface, keep the tangential part */
    SHOVE_RESPONSE_TOUCH,      /**< stop on the surface, drop the rest */
    SHOVE_RESPONSE_CROSS,      /**< pass through, reported as a contact */
    SHOVE_RESPONSE_BOUNCE,     /**< reflect the remaining motion off the surface */
} shove_response;

/** Instruction-set levels of the batch kernels. Every level gives the same
 *  bits; they differ only in speed. */
typedef enum shove_simd {
    SHOVE_SIMD_SCALAR = 0,
    SHOVE_SIMD_SSE2,
    SHOVE_SIMD_SSE41,
    SHOVE_SIMD_AVX2,
    SHOVE_SIMD_NEON,
} shove_simd;

/** Number of values of shove_simd (for loops over levels). */
#define SHOVE_SIMD_LEVEL_COUNT 5

/** The level the batch kernels use now. Detected once, on first use, as the
 *  best level the CPU and the build support. */
SHOVE_API shove_simd shove_simd_active(void);

/** Force a level. Returns SHOVE_ERR_UNSUPPORTED (and keeps the current level)
 *  when the CPU or this build lacks it, SHOVE_ERR_INVALID_ARGUMENT for values
 *  outside the enum. Meant for tests and benchmarks; not thread-safe against
 *  concurrent kernel calls. */
SHOVE_API shove_status shove_simd_select(shove_simd level);

/** True when shove_simd_select(level) would succeed. */
SHOVE_API bool shove_simd_supported(shove_simd level);

/** Printable name of a level ("scalar", "sse2", "sse4.1", "avx2", "neon"),
 *  "unknown" for other values. Never NULL. */
SHOVE_API const char *shove_simd_name(shove_simd level);

/** Discrete resolvers (move first, then push out) for shove2_resolve / shove3_resolve. */
typedef enum shove_resolve_mode {
    SHOVE_RESOLVE_MANDATORY_FIRST = 0, /**< single-axis shoves first, never beyond the motion */
    SHOVE_RESOLVE_LARGEST_OVERLAP,     /**< largest overlap first, smallest axis; stable */
    SHOVE_RESOLVE_TELEPORT,            /**< minimal correction in any direction */
} shove_resolve_mode;

/** Static bodies never move by themselves and are never pushed; dynamic
 *  bodies move and can be pushed by stronger movers. */
typedef enum shove_body_type {
    SHOVE_BODY_STATIC = 0,
    SHOVE_BODY_DYNAMIC,
} shove_body_type;

/** Kinds of world events (see shove2_world_get_events / shove3_world_get_events). */
typedef enum shove_event_type {
    SHOVE_EVENT_CONTACT_BEGIN = 0, /**< two bodies started touching */
    SHOVE_EVENT_CONTACT_END,       /**< two bodies stopped touching */
    SHOVE_EVENT_SENSOR_ENTER,      /**< a body entered a sensor */
    SHOVE_EVENT_SENSOR_EXIT,       /**< a body left a sensor */
    SHOVE_EVENT_SQUISH,            /**< a body was caught between a pusher and a blocker */
} shove_event_type;

/** One allocation function for everything a world allocates, in the style of
 *  lua_Alloc: `new_size == 0` frees `ptr` (and returns NULL); otherwise it
 *  behaves like realloc. `old_size` is the size of the block being resized or
 *  freed (0 for a new block). */
typedef void *(*shove_realloc_fn)(void *ctx, void *ptr, size_t old_size, size_t new_size);

/** Allocator of a world; all-zero means the C library's realloc / free. */
typedef struct shove_allocator {
    shove_realloc_fn realloc;
    void *ctx;
} shove_allocator;

/* >>threads --------------------------------------------------------------- */

/** Most workers a world may use (shove3_world_def.worker_count). */
#define SHOVE_MAX_WORKERS 64

/** Work of a step, for items [begin, end), run by worker `worker` (0 ..
 *  worker_count - 1; two ranges run at the same time must have different
 *  workers). */
typedef void shove_task_fn(uint32_t begin, uint32_t end, uint32_t worker, void *fn_ctx);

/** A game's task system: run fn over [0, count) in ranges of at least
 *  min_range items (the last may be shorter), each range exactly once, on
 *  workers 0 .. worker_count - 1, in any order and on any threads. Return
 *  a handle for shove_finish_task_fn, or NULL when everything already ran
 *  (it may run everything at once, on the calling thread). A system that
 *  breaks these promises (skips a range, runs one twice or after
 *  finish returned, or on a worker out of range or busy on another
 *  thread) costs the step its head start on those items, never its
 *  results: each item runs at most once, only until finish returns (the
 *  step then waits for the calls already running), and never twice at
 *  once on one worker. Calling fn after the world was destroyed is the
 *  game's bug. */
typedef void *shove_enqueue_task_fn(shove_task_fn *fn, uint32_t count, uint32_t min_range,
                                    void *fn_ctx, void *task_ctx);

/** Wait until every range of the task `task` (what enqueue returned) ran. */
typedef void shove_finish_task_fn(void *task, void *task_ctx);

#ifdef __cplusplus
}
#endif

#endif /* SHOVE_COMMON_H */
