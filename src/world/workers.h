/*
 * workers.h: running a step's work on several threads. Internal,
 * dimension-free.
 *
 * A world runs a task (shove_task_fn over [0, count)) through the game's
 * task system when the world def has one, else on a built-in pool of
 * worker_count - 1 threads plus the caller, else (one worker, no threads
 * in this build, or threads that could not be started) on the caller
 * alone. The caller of shove__tasks_run owns the results: a task must
 * write only its own items' outputs and its worker's scratch, so the
 * outcome never depends on who ran which range.
 */
#ifndef SHOVE_WORKERS_H
#define SHOVE_WORKERS_H

#include <stdbool.h>
#include <stdint.h>

#include "shove/shove_common.h"

/** The built-in pool (workers.c). Opaque. */
typedef struct shove__pool shove__pool;

/** How a world runs tasks (a copy of its def's fields, plus the pool). */
typedef struct shove__tasks {
    uint32_t worker_count; /**< 1 .. SHOVE_MAX_WORKERS */
    shove_enqueue_task_fn *enqueue_task;
    shove_finish_task_fn *finish_task;
    void *task_ctx;
    shove__pool *pool; /**< started by the first task that needs it */
    bool pool_failed;  /**< threads could not be started: run inline */
    shove_allocator alloc;
} shove__tasks;

/** Run fn over [0, count) in ranges of at least min_range items; returns
 *  when every range ran. */
void shove__tasks_run(shove__tasks *t, shove_task_fn *fn, uint32_t count, uint32_t min_range,
                      void *fn_ctx);

/** Stop and join the pool, if any (world_destroy). */
void shove__tasks_stop(shove__tasks *t);

/** True when this build can start threads of its own. */
bool shove__pool_is_available(void);

#endif
