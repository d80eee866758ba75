/*
 * workers.c: the built-in pool of worker threads and the one way a world
 * runs a task (see workers.h). Dimension-free.
 *
 * The pool's threads sleep on a condition variable between tasks. A task
 * is cut into ranges that the caller and the threads take in turn from an
 * atomic counter; the caller waits until every thread is done with it.
 * Which thread ran which range changes from run to run; what a task
 * computes must not depend on it (workers.h).
 */
#include "world/workers.h"

#include <stdatomic.h>
#include <string.h>
#include <time.h>

#if defined(SHOVE_HAVE_PTHREADS)
#include <pthread.h>
#include <sched.h>
typedef pthread_t pool_thread;
typedef pthread_mutex_t pool_mutex;
typedef pthread_cond_t pool_cond;
#define POOL_HAS_THREADS 1
#elif defined(SHOVE_HAVE_C11_THREADS)
#include <threads.h>
typedef thrd_t pool_thread;
typedef mtx_t pool_mutex;
typedef cnd_t pool_cond;
#define POOL_HAS_THREADS 1
#else
#define POOL_HAS_THREADS 0
#endif

bool shove__pool_is_available(void) {
    return POOL_HAS_THREADS != 0;
}

uint64_t shove__clock_ns(void) {
#if defined(TIME_UTC)
    /* C11's clock: wall time, which may jump when the system clock is
     * set; a jump only makes one choice of the step's a poor one. */
    struct timespec ts;
    if (timespec_get(&ts, TIME_UTC) == TIME_UTC && ts.tv_sec >= 0) {
        return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
    }
#endif
    return 0u;
}

/* The timed part of shove__spec_policy_note. */
static void spec_policy_time(shove__spec_policy *p, bool speculated, double cost_per_mover) {
    if (!speculated) {
        p->plain_cost = cost_per_mover;
        return;
    }
    p->streak += p->streak < UINT32_MAX ? 1u : 0u;
    if (!(p->plain_cost > 0.0)) {
        p->rest = 1u; /* measure a step without */
    } else if (!(cost_per_mover < p->plain_cost)) {
        const uint32_t doublings = p->losses < SHOVE_SPEC_BACKOFF ? p->losses : SHOVE_SPEC_BACKOFF;
        p->rest = SHOVE_SPEC_REST << doublings;
        p->losses += p->losses < UINT32_MAX ? 1u : 0u;
        p->streak = 0u;
    } else {
        p->losses = 0u;
        if (p->streak >= SHOVE_SPEC_STREAK) {
            p->rest = 1u;
            p->streak = 0u;
        }
    }
}

void shove__spec_policy_note(shove__spec_policy *p, bool speculated, double cost_per_mover,
                             bool few_taken) {
    if (cost_per_mover > 0.0) {
        spec_policy_time(p, speculated, cost_per_mover);
    }
    if (speculated && few_taken && p->rest < SHOVE_SPEC_REST) {
        p->rest = SHOVE_SPEC_REST;
    }
}

/* Ranges a task is cut into, per worker at most: enough for uneven ranges
 * to even out, few enough that taking one costs nothing. */
#define POOL_RANGES_PER_WORKER 8u

/* Cut [0, count) into ranges of `range` items (the last may be shorter)
 * and run those whose turn `next` hands this worker. */
static void pool_run_ranges(shove_task_fn *fn, void *ctx, uint32_t count, uint32_t range,
                            atomic_uint *next, uint32_t worker) {
    const uint32_t ranges = count / range + (count % range != 0u);
    for (;;) {
        const uint32_t k = atomic_fetch_add(next, 1u);
        if (k >= ranges) {
            return;
        }
        const uint32_t begin = k * range;
        const uint32_t end = count - begin < range ? count : begin + range;
        fn(begin, end, worker, ctx);
    }
}

static uint32_t pool_range(uint32_t count, uint32_t min_range, uint32_t workers) {
    const uint32_t parts = workers * POOL_RANGES_PER_WORKER;
    uint32_t range = count / parts + (count % parts != 0u);
    range = range > min_range ? range : min_range;
    return range > 0u ? range : 1u;
}

#if POOL_HAS_THREADS

#if defined(SHOVE_HAVE_PTHREADS)
static bool mutex_init(pool_mutex *m) {
    return pthread_mutex_init(m, NULL) == 0;
}
static void mutex_free(pool_mutex *m) {
    pthread_mutex_destroy(m);
}
static void mutex_lock(pool_mutex *m) {
    pthread_mutex_lock(m);
}
static void mutex_unlock(pool_mutex *m) {
    pthread_mutex_unlock(m);
}
static bool cond_init(pool_cond *c) {
    return pthread_cond_init(c, NULL) == 0;
}
static void cond_free(pool_cond *c) {
    pthread_cond_destroy(c);
}
static void cond_wait(pool_cond *c, pool_mutex *m) {
    pthread_cond_wait(c, m);
}
static void cond_broadcast(pool_cond *c) {
    pthread_cond_broadcast(c);
}
#else
static bool mutex_init(pool_mutex *m) {
    return mtx_init(m, mtx_plain) == thrd_success;
}
static void mutex_free(pool_mutex *m) {
    mtx_destroy(m);
}
static void mutex_lock(pool_mutex *m) {
    mtx_lock(m);
}
static void mutex_unlock(pool_mutex *m) {
    mtx_unlock(m);
}
static bool cond_init(pool_cond *c) {
    return cnd_init(c) == thrd_success;
}
static void cond_free(pool_cond *c) {
    cnd_destroy(c);
}
static void cond_wait(pool_cond *c, pool_mutex *m) {
    cnd_wait(c, m);
}
static void cond_broadcast(pool_cond *c) {
    cnd_broadcast(c);
}
#endif

struct shove__pool;

/* What a thread gets at its start. */
typedef struct pool_seat {
    struct shove__pool *pool;
    uint32_t worker;
} pool_seat;

struct shove__pool {
    pool_mutex mutex;
    pool_cond start; /* a new task, or stop */
    pool_cond done;  /* the last thread finished the task */
    uint32_t thread_count;
    pool_thread thread[SHOVE_MAX_WORKERS];
    pool_seat seat[SHOVE_MAX_WORKERS];
    /* The task under way (written by the caller under the mutex, before
     * `generation` changes). */
    uint64_t generation;
    bool stop;
    shove_task_fn *fn;
    void *ctx;
    uint32_t count, range;
    atomic_uint next;
    uint32_t working; /* threads not yet done with this generation */
};

static void pool_thread_loop(pool_seat *seat) {
    struct shove__pool *p = seat->pool;
    uint64_t seen = 0;
    mutex_lock(&p->mutex);
    for (;;) {
        while (p->generation == seen && !p->stop) {
            cond_wait(&p->start, &p->mutex);
        }
        if (p->stop) {
            break;
        }
        seen = p->generation;
        shove_task_fn *fn = p->fn;
        void *ctx = p->ctx;
        const uint32_t count = p->count, range = p->range;
        mutex_unlock(&p->mutex);
        pool_run_ranges(fn, ctx, count, range, &p->next, seat->worker);
        mutex_lock(&p->mutex);
        p->working -= 1u;
        if (p->working == 0u) {
            cond_broadcast(&p->done);
        }
    }
    mutex_unlock(&p->mutex);
}

#if defined(SHOVE_HAVE_PTHREADS)
static void *pool_thread_main(void *arg) {
    pool_thread_loop(arg);
    return NULL;
}
static bool thread_start(pool_thread *t, pool_seat *seat) {
    return pthread_create(t, NULL, pool_thread_main, seat) == 0;
}
static void thread_join(pool_thread t) {
    pthread_join(t, NULL);
}
#else
static int pool_thread_main(void *arg) {
    pool_thread_loop(arg);
    return 0;
}
static bool thread_start(pool_thread *t, pool_seat *seat) {
    return thrd_create(t, pool_thread_main, seat) == thrd_success;
}
static void thread_join(pool_thread t) {
    thrd_join(t, NULL);
}
#endif

/* Tell the threads to stop, join them and free the pool. */
static void pool_destroy(shove__pool *p, shove_allocator alloc) {
    mutex_lock(&p->mutex);
    p->stop = true;
    cond_broadcast(&p->start);
    mutex_unlock(&p->mutex);
    for (uint32_t i = 0; i < p->thread_count; ++i) {
        thread_join(p->thread[i]);
    }
    cond_free(&p->done);
    cond_free(&p->start);
    mutex_free(&p->mutex);
    alloc.realloc(alloc.ctx, p, sizeof *p, 0);
}

/* A pool of `threads` threads, or NULL when anything fails. */
static shove__pool *pool_create(uint32_t threads, shove_allocator alloc) {
    shove__pool *p = alloc.realloc(alloc.ctx, NULL, 0, sizeof *p);
    if (!p) {
        return NULL;
    }
    memset(p, 0, sizeof *p);
    atomic_init(&p->next, 0u);
    if (!mutex_init(&p->mutex)) {
        alloc.realloc(alloc.ctx, p, sizeof *p, 0);
        return NULL;
    }
    if (!cond_init(&p->start)) {
        mutex_free(&p->mutex);
        alloc.realloc(alloc.ctx, p, sizeof *p, 0);
        return NULL;
    }
    if (!cond_init(&p->done)) {
        cond_free(&p->start);
        mutex_free(&p->mutex);
        alloc.realloc(alloc.ctx, p, sizeof *p, 0);
        return NULL;
    }
    for (uint32_t i = 0; i < threads; ++i) {
        p->seat[i].pool = p;
        p->seat[i].worker = i + 1u; /* worker 0 is the caller */
        if (!thread_start(&p->thread[i], &p->seat[i])) {
            pool_destroy(p, alloc);
            return NULL;
        }
        p->thread_count = i + 1u;
    }
    return p;
}

static void pool_run(shove__pool *p, shove_task_fn *fn, uint32_t count, uint32_t range, void *ctx) {
    mutex_lock(&p->mutex);
    p->fn = fn;
    p->ctx = ctx;
    p->count = count;
    p->range = range;
    atomic_store(&p->next, 0u);
    p->working = p->thread_count;
    p->generation += 1u;
    cond_broadcast(&p->start);
    mutex_unlock(&p->mutex);
    pool_run_ranges(fn, ctx, count, range, &p->next, 0u);
    mutex_lock(&p->mutex);
    while (p->working > 0u) {
        cond_wait(&p->done, &p->mutex);
    }
    mutex_unlock(&p->mutex);
}

#else /* no threads in this build: every task runs on the caller */

struct shove__pool {
    int unused;
};
static void pool_destroy(shove__pool *p, shove_allocator alloc) {
    (void)p;
    (void)alloc;
}
static shove__pool *pool_create(uint32_t threads, shove_allocator alloc) {
    (void)threads;
    (void)alloc;
    return NULL;
}
static void pool_run(shove__pool *p, shove_task_fn *fn, uint32_t count, uint32_t range, void *ctx) {
    (void)p;
    atomic_uint next;
    atomic_init(&next, 0u);
    pool_run_ranges(fn, ctx, count, range, &next, 0u);
}

#endif

/* >>the gate of a game's task system (workers.h: shove__task_gate) ------- */

void shove__tasks_init(shove__tasks *t) {
    shove__task_gate *g = &t->gate;
    atomic_init(&g->open, 0u);
    atomic_init(&g->in_flight, 0u);
    for (uint32_t k = 0; k < SHOVE_MAX_WORKERS; ++k) {
        atomic_init(&g->busy[k], 0u);
    }
    g->fn = NULL;
    g->fn_ctx = NULL;
    g->count = 0u;
    g->worker_count = 0u;
    g->claimed = NULL;
    g->claimed_words = 0u;
}

/* Give the thread up while a late call of the task system leaves the gate. */
static void gate_yield(void) {
#if defined(SHOVE_HAVE_PTHREADS)
    sched_yield();
#elif defined(SHOVE_HAVE_C11_THREADS)
    thrd_yield();
#endif
}

/* Claims item i; false when it was claimed already. */
static inline bool gate_claim(shove__task_gate *g, uint32_t i) {
    const unsigned bit = 1u << (i % 32u);
    return (atomic_fetch_or_explicit(&g->claimed[i / 32u], bit, memory_order_relaxed) & bit) == 0u;
}

/* The task as the game's task system runs it: the items of [begin, end)
 * not claimed yet, in stretches, while the gate is open and `worker` is
 * in range and not busy on another thread. The gate's fields are read only
 * after `open` was seen set, and shove__tasks_run writes them only while it
 * is shut and no call is inside. */
static void gate_task(uint32_t begin, uint32_t end, uint32_t worker, void *vgate) {
    shove__task_gate *g = vgate;
    atomic_fetch_add(&g->in_flight, 1u);
    if (atomic_load(&g->open) != 0u && worker < g->worker_count &&
        atomic_exchange(&g->busy[worker], 1u) == 0u) {
        end = end < g->count ? end : g->count;
        uint32_t i = begin;
        while (i < end) {
            if (!gate_claim(g, i)) {
                i += 1u;
                continue;
            }
            uint32_t j = i + 1u;
            while (j < end && gate_claim(g, j)) {
                j += 1u;
            }
            g->fn(i, j, worker, g->fn_ctx);
            i = j;
        }
        atomic_store(&g->busy[worker], 0u);
    }
    atomic_fetch_sub(&g->in_flight, 1u);
}

/* Opens the gate for fn over [0, count); false when there is no memory
 * for its claims (the caller then runs the task itself). */
static bool gate_open(shove__tasks *t, shove_task_fn *fn, uint32_t count, void *fn_ctx) {
    shove__task_gate *g = &t->gate;
    const uint32_t words = count / 32u + 1u;
    if (words > g->claimed_words) {
        const size_t old = (size_t)g->claimed_words * sizeof *g->claimed;
        atomic_uint *grown =
            t->alloc.realloc(t->alloc.ctx, g->claimed, old, (size_t)words * sizeof *g->claimed);
        if (!grown) {
            return false;
        }
        g->claimed = grown;
        g->claimed_words = words;
    }
    for (uint32_t k = 0; k < words; ++k) {
        atomic_store_explicit(&g->claimed[k], 0u, memory_order_relaxed);
    }
    g->fn = fn;
    g->fn_ctx = fn_ctx;
    g->count = count;
    g->worker_count = t->worker_count;
    atomic_store(&g->open, 1u);
    return true;
}

/* Shuts the gate and waits for the calls inside it. */
static void gate_shut(shove__task_gate *g) {
    atomic_store(&g->open, 0u);
    while (atomic_load(&g->in_flight) != 0u) {
        gate_yield();
    }
}

void shove__tasks_run(shove__tasks *t, shove_task_fn *fn, uint32_t count, uint32_t min_range,
                      void *fn_ctx) {
    if (count == 0u) {
        return;
    }
    min_range = min_range > 0u ? min_range : 1u;
    if (t->enqueue_task) {
        if (!gate_open(t, fn, count, fn_ctx)) {
            fn(0u, count, 0u, fn_ctx);
            return;
        }
        void *task = t->enqueue_task(gate_task, count, min_range, &t->gate, t->task_ctx);
        if (task) {
            t->finish_task(task, t->task_ctx);
        }
        gate_shut(&t->gate);
        return;
    }
    if (t->worker_count > 1u && !t->pool && !t->pool_failed) {
        t->pool = pool_create(t->worker_count - 1u, t->alloc);
        t->pool_failed = t->pool == NULL; /* run inline from now on */
    }
    if (!t->pool) {
        fn(0u, count, 0u, fn_ctx);
        return;
    }
    pool_run(t->pool, fn, count, pool_range(count, min_range, t->worker_count), fn_ctx);
}

void shove__tasks_stop(shove__tasks *t) {
    if (t->pool) {
        pool_destroy(t->pool, t->alloc);
        t->pool = NULL;
    }
    if (t->gate.claimed) {
        t->alloc.realloc(t->alloc.ctx, t->gate.claimed,
                         (size_t)t->gate.claimed_words * sizeof *t->gate.claimed, 0);
        t->gate.claimed = NULL;
        t->gate.claimed_words = 0u;
    }
}
