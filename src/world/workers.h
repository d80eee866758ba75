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

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "shove/shove_common.h"

/** The built-in pool (workers.c). Opaque. */
typedef struct shove__pool shove__pool;

/** What a game's task system is given in place of a task (workers.c):
 *  whatever that system does, each item of the task runs at most once,
 *  only while shove__tasks_run waits for it, and never on two ranges of one
 *  worker at a time. Items it skips, runs twice, runs late or on a worker
 *  out of range, or runs on a worker busy on another thread, do not run
 *  (again); the caller of shove__tasks_run treats every item's output as
 *  optional. Kept in the world, so that a call that comes after
 *  shove__tasks_run returned finds the gate shut. */
typedef struct shove__task_gate {
    atomic_uint open;      /**< 1 while shove__tasks_run waits for the task */
    atomic_uint in_flight; /**< calls inside the gate */
    shove_task_fn *fn;     /**< the task (read only while open) */
    void *fn_ctx;
    uint32_t count, worker_count;
    atomic_uint busy[SHOVE_MAX_WORKERS]; /**< 1 while a range of that worker runs */
    atomic_uint *claimed;                /**< a bit per item: it ran or runs */
    uint32_t claimed_words;              /**< capacity of claimed, in words */
} shove__task_gate;

/** How a world runs tasks (a copy of its def's fields, plus the pool). */
typedef struct shove__tasks {
    uint32_t worker_count; /**< 1 .. SHOVE_MAX_WORKERS */
    shove_enqueue_task_fn *enqueue_task;
    shove_finish_task_fn *finish_task;
    void *task_ctx;
    shove__pool *pool; /**< started by the first task that needs it */
    bool pool_failed;  /**< threads could not be started: run inline */
    shove_allocator alloc;
    shove__task_gate gate; /**< between the game's task system and a task */
} shove__tasks;

/** Set up the fields of `t` past the def's (the world sets those). */
void shove__tasks_init(shove__tasks *t);

/** Run fn over [0, count) in ranges of at least min_range items; returns
 *  when every range ran (through a game's task system: every range that
 *  ran, see shove__task_gate). */
void shove__tasks_run(shove__tasks *t, shove_task_fn *fn, uint32_t count, uint32_t min_range,
                      void *fn_ctx);

/** Stop and join the pool, if any, and free the gate's memory
 *  (world_destroy). */
void shove__tasks_stop(shove__tasks *t);

/** True when this build can start threads of its own. */
bool shove__pool_is_available(void);

/** A clock in nanoseconds, for choosing between ways to run a step that
 *  give the same results (never for what a step computes); 0 when the C
 *  library has none. */
uint64_t shove__clock_ns(void);

/** Whether the step's speculative dry runs on the workers pay (step_spec.c
 *  uses it; the choice never changes a step's results, only its time). */
typedef struct shove__spec_policy {
    double plain_cost; /**< wall ns per mover of the last step without; 0: none yet */
    uint32_t losses;   /**< steps with speculation in a row that cost more */
    uint32_t streak;   /**< steps with speculation since the last without */
    uint32_t rest;     /**< the next steps that do not speculate */
} shove__spec_policy;

/** Steps a policy rests after a loss (doubled for each further loss in a
 *  row, SHOVE_SPEC_BACKOFF times at most), and the steps with
 *  speculation after which one step rests to measure the other way again. */
#define SHOVE_SPEC_REST    7u
#define SHOVE_SPEC_BACKOFF 4u
#define SHOVE_SPEC_STREAK  32u

/** Notes one step and sets p->rest. `cost_per_mover`: the step's wall
 *  time per mover, from its parallel part (or where that would have been)
 *  to the end of its serial pass; 0 when there is no clock to tell.
 *  - the first step with speculation is followed by one without, to
 *    measure both;
 *  - a step with speculation that costs as much per mover as the last one
 *    without is a loss: rest SHOVE_SPEC_REST steps, twice as many after
 *    each further loss in a row, so a scene where the workers never pay
 *    spends few steps finding that out again;
 *  - while speculation pays, every SHOVE_SPEC_STREAK steps one step rests
 *    (the scene changes);
 *  - whatever the time, a step with speculation whose records were
 *    `few_taken` (fewer than a quarter of its movers could take theirs:
 *    a packed crowd, where the earlier neighbours always moved) rests at
 *    least SHOVE_SPEC_REST steps. */
void shove__spec_policy_note(shove__spec_policy *p, bool speculated, double cost_per_mover,
                             bool few_taken);

#endif
