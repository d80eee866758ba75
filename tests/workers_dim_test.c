/*
 * workers_dim_test.c: the world def's worker_count, enqueue_task,
 * finish_task and task_ctx: what is refused, the dump carrying the count,
 * the built-in pool's task runner (every item exactly once, worker indices
 * in range), and the one promise of workers: shove3_world_step gives the
 * same bits for 1, 2 and 3 workers and for a game's own task system (one
 * that runs ranges in reverse order on the caller, one that runs them on
 * threads of its own). The scenes are those of bench_step, smaller:
 * sparse, crowded with mixed priorities, crowded with one priority, and
 * platforms with riders, plus a crowd in a voxel (tile) pen.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "test_dim.h"
#include "test_world_text.h"
#include "workers.h"
#include "world.h"

/* >>a game's task systems ------------------------------------------------ */

/* Runs every range on the caller, last range first. */
static void *reverse_enqueue(shove_task_fn *fn, uint32_t count, uint32_t min_range, void *fn_ctx,
                             void *task_ctx) {
    int *calls = task_ctx;
    *calls += 1;
    const uint32_t range = min_range > 0u ? min_range : 1u;
    const uint32_t ranges = (count + range - 1u) / range;
    for (uint32_t k = ranges; k-- > 0;) {
        const uint32_t begin = k * range;
        const uint32_t end = count - begin < range ? count : begin + range;
        fn(begin, end, 0u, fn_ctx);
    }
    return NULL;
}

static void never_finish(void *task, void *task_ctx) {
    (void)task;
    (void)task_ctx;
    cr_assert_fail("finish_task called for a task that ran at once");
}

/* Runs the ranges on two threads of its own: thread k takes every other
 * range, starting with range k, as worker k. */
typedef struct own_task {
    shove_task_fn *fn;
    void *fn_ctx;
    uint32_t count, range;
    uint32_t worker;
} own_task;

typedef struct own_job {
    pthread_t thread[2];
    own_task part[2];
} own_job;

static void *own_thread(void *arg) {
    const own_task *t = arg;
    for (uint64_t begin = (uint64_t)t->worker * t->range; begin < t->count;
         begin += 2u * (uint64_t)t->range) {
        const uint64_t end = begin + t->range < t->count ? begin + t->range : t->count;
        t->fn((uint32_t)begin, (uint32_t)end, t->worker, t->fn_ctx);
    }
    return NULL;
}

static void *own_enqueue(shove_task_fn *fn, uint32_t count, uint32_t min_range, void *fn_ctx,
                         void *task_ctx) {
    int *calls = task_ctx;
    *calls += 1;
    own_job *job = calloc(1, sizeof *job);
    cr_assert_not_null(job);
    for (uint32_t k = 0; k < 2u; ++k) {
        job->part[k] = (own_task){fn, fn_ctx, count, min_range > 0u ? min_range : 1u, k};
        cr_assert_eq(pthread_create(&job->thread[k], NULL, own_thread, &job->part[k]), 0);
    }
    return job;
}

static void own_finish(void *task, void *task_ctx) {
    (void)task_ctx;
    own_job *job = task;
    for (int k = 0; k < 2; ++k) {
        pthread_join(job->thread[k], NULL);
    }
    free(job);
}

/* >>refusals and defaults ------------------------------------------------ */

static shove_status create_with(shove_world_def def) {
    shove_world *w = NULL;
    const shove_status s = SHOVE_FN(world_create)(&def, &w);
    SHOVE_FN(world_destroy)(w);
    if (s != SHOVE_OK) {
        cr_assert_null(w, "a refused create leaves *out alone");
    }
    return s;
}

Test(workers, counts_out_of_range_are_refused) {
    shove_world_def def = SHOVE_FN(default_world_def)();
    cr_assert_eq(def.worker_count, 1);
    cr_assert_null(def.enqueue_task);
    cr_assert_null(def.finish_task);
    const int bad[] = {-1, -1000, SHOVE_MAX_WORKERS + 1, 1 << 30};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        def.worker_count = bad[i];
        cr_expect_eq(create_with(def), SHOVE_ERR_INVALID_ARGUMENT, "worker_count %d", bad[i]);
        shove_world_def plain;
        memset(&plain, 0, sizeof plain);
        plain.worker_count = bad[i];
        cr_expect_eq(create_with(plain), SHOVE_ERR_INVALID_ARGUMENT, "unmarked, %d", bad[i]);
    }
    const int good[] = {0, 1, 2, 3, SHOVE_MAX_WORKERS};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; ++i) {
        def.worker_count = good[i];
        cr_expect_eq(create_with(def), SHOVE_OK, "worker_count %d", good[i]);
    }
}

Test(workers, half_a_task_system_is_refused) {
    int calls = 0;
    shove_world_def def = SHOVE_FN(default_world_def)();
    def.worker_count = 2;
    def.enqueue_task = own_enqueue;
    cr_expect_eq(create_with(def), SHOVE_ERR_INVALID_ARGUMENT);
    def.enqueue_task = NULL;
    def.finish_task = own_finish;
    cr_expect_eq(create_with(def), SHOVE_ERR_INVALID_ARGUMENT);
    shove_world_def plain;
    memset(&plain, 0, sizeof plain);
    plain.finish_task = own_finish;
    cr_expect_eq(create_with(plain), SHOVE_ERR_INVALID_ARGUMENT);
    plain.enqueue_task = own_enqueue;
    plain.task_ctx = &calls;
    cr_expect_eq(create_with(plain), SHOVE_OK);
}

Test(workers, zero_in_an_unmarked_def_is_one_worker) {
    shove_world_def plain;
    memset(&plain, 0, sizeof plain);
    shove_world *w = NULL;
    cr_assert_eq(SHOVE_FN(world_create)(&plain, &w), SHOVE_OK);
    cr_expect_eq(w->tasks.worker_count, 1u);
    SHOVE_FN(world_destroy)(w);
    plain.worker_count = 3;
    cr_assert_eq(SHOVE_FN(world_create)(&plain, &w), SHOVE_OK);
    cr_expect_eq(w->tasks.worker_count, 3u);
    SHOVE_FN(world_destroy)(w);
}

/* >>dump and load ---------------------------------------------------------- */

static shove_world *load_text(const char *text, shove_status *status) {
    FILE *f = tmpfile();
    cr_assert_not_null(f);
    fputs(text, f);
    rewind(f);
    shove_world *w = NULL;
    *status = SHOVE_FN(world_load)(NULL, f, &w);
    fclose(f);
    return w;
}

Test(workers, dump_carries_the_worker_count) {
    shove_world_def def = SHOVE_FN(default_world_def)();
    def.worker_count = 3;
    shove_world *w = NULL;
    cr_assert_eq(SHOVE_FN(world_create)(&def, &w), SHOVE_OK);
    shove_body_def body = SHOVE_FN(default_body_def)();
    body.box = BOX(0, 0, 0, 1, 1, 1);
    shove_id id;
    cr_assert_eq(SHOVE_FN(body_create)(w, &body, &id), SHOVE_OK);
    char *text = world_text(w);
    cr_expect_not_null(strstr(text, "\nworkers 3\nstep "), "%s", text);
    shove_status s;
    shove_world *back = load_text(text, &s);
    cr_assert_eq(s, SHOVE_OK);
    cr_expect_eq(back->tasks.worker_count, 3u);
    char *again = world_text(back);
    cr_expect_str_eq(again, text);
    free(again);
    SHOVE_FN(world_destroy)(back);
    SHOVE_FN(world_destroy)(w);

    /* One worker writes no line (dumps of earlier versions read the same). */
    cr_assert_eq(SHOVE_FN(world_create)(NULL, &w), SHOVE_OK);
    char *one = world_text(w);
    cr_expect_null(strstr(one, "workers"), "%s", one);
    SHOVE_FN(world_destroy)(w);

    /* Out of range, twice, or after `step`: refused. */
    const char *bad[] = {"workers 0\nstep",  "workers 65\nstep",
                         "workers -2\nstep", "workers 2\nworkers 2\nstep",
                         "workers\nstep",    "workers 2 3\nstep"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        char *edited = malloc(strlen(text) + 64);
        cr_assert_not_null(edited);
        const char *at = strstr(text, "workers 3\nstep");
        cr_assert_not_null(at);
        const size_t head = (size_t)(at - text);
        memcpy(edited, text, head);
        strcpy(edited + head, bad[i]);
        strcat(edited, at + strlen("workers 3\nstep"));
        shove_world *none = load_text(edited, &s);
        cr_expect_eq(s, SHOVE_ERR_INVALID_ARGUMENT, "%s", bad[i]);
        cr_expect_null(none);
        free(edited);
    }
    free(one);
    free(text);
}

/* >>the task runner ------------------------------------------------------ */

enum { RUN_ITEMS = 10007 };

typedef struct run_check {
    atomic_uint seen[RUN_ITEMS];
    atomic_uint bad_worker;
    uint32_t worker_count;
} run_check;

static void count_items(uint32_t begin, uint32_t end, uint32_t worker, void *ctx) {
    run_check *c = ctx;
    if (worker >= c->worker_count) {
        atomic_fetch_add(&c->bad_worker, 1u);
    }
    for (uint32_t i = begin; i < end; ++i) {
        atomic_fetch_add(&c->seen[i], 1u);
    }
}

Test(workers, the_pool_runs_every_item_once) {
    static run_check check;
    for (uint32_t workers = 1; workers <= 4; ++workers) {
        shove__tasks t;
        memset(&t, 0, sizeof t);
        t.worker_count = workers;
        t.alloc.realloc = shove__default_realloc;
        for (int round = 0; round < 20; ++round) {
            const uint32_t count = (uint32_t)(round * 997) % RUN_ITEMS + 1u;
            for (uint32_t i = 0; i < RUN_ITEMS; ++i) {
                atomic_store(&check.seen[i], 0u);
            }
            atomic_store(&check.bad_worker, 0u);
            check.worker_count = workers;
            shove__tasks_run(&t, count_items, count, (uint32_t)round % 7u + 1u, &check);
            for (uint32_t i = 0; i < RUN_ITEMS; ++i) {
                cr_assert_eq(atomic_load(&check.seen[i]), i < count ? 1u : 0u,
                             "%u workers, item %u of %u", workers, i, count);
            }
            cr_assert_eq(atomic_load(&check.bad_worker), 0u);
        }
        cr_expect_eq(t.pool != NULL, workers > 1 && shove__pool_is_available(),
                     "%u workers: a pool exactly when there are threads to start", workers);
        shove__tasks_stop(&t);
        cr_expect_null(t.pool);
    }
}

/* >>the same bits on any number of workers -------------------------------- */

enum { SCENE_SPARSE, SCENE_CROWDED, SCENE_CROWDED_ONE, SCENE_PLATFORMS, SCENE_PEN, SCENES };
enum { BODIES = 1500, FRAMES = 12 };

/* The pen's voxels (tiles): a floor below y = 0 and walls at cells x <=
 * -2 and x >= wall; answered from the cell alone, so several threads may
 * ask at once. Some cells are slabs, so the crowd steps up and down. */
typedef struct pen {
    int32_t wall;
} pen;

#if SHOVE_DIM == 3
static int pen_shapes(void *ctx, int32_t x, int32_t y, int32_t z,
                      shove_aabb out[SHOVE_VOXEL_MAX_BOXES]) {
    (void)z;
#else
static int pen_shapes(void *ctx, int32_t x, int32_t y, shove_aabb out[SHOVE_VOXEL_MAX_BOXES]) {
#endif
    const pen *p = ctx;
    if (y < -1 || (y == -1 && x % 7 == 3)) {
        return 0; /* below the floor, and a few holes in it */
    }
    if (y < 0 || x <= -2 || x >= p->wall) {
        out[0] = BOX(0, 0, 0, 1, 1, 1);
        return 1;
    }
    if (y == 0 && x % 5 == 1) {
        out[0] = BOX(0, 0, 0, 1, 0.5f, 1);
        return 1;
    }
    return 0;
}

typedef struct scene {
    shove_world *w;
    pen pen;
    shove_id ids[BODIES];
    int role[BODIES];
    int count;
} scene;

static shove_id add(shove_world *w, shove_aabb box, shove_body_type type, int priority) {
    shove_body_def def = SHOVE_FN(default_body_def)();
    def.box = box;
    def.type = type;
    def.priority = (uint8_t)priority;
    shove_id id;
    cr_assert_eq(SHOVE_FN(body_create)(w, &def, &id), SHOVE_OK);
    return id;
}

static shove_aabb cube(float x, float y, float z, float side) {
    return BOX(x, y, z, x + side, y + side, z + side);
}

/* bench_step's scenes at BODIES bodies (see bench/bench_step.c). */
static void build(scene *s, int kind, shove_world_def def, test_rng *rng) {
    def.body_capacity = BODIES + 64;
    if (kind == SCENE_PEN) {
        def.step_def.step_height = 0.5f;
    }
    cr_assert_eq(SHOVE_FN(world_create)(&def, &s->w), SHOVE_OK);
    shove_world *w = s->w;
    s->count = 0;
    if (kind == SCENE_SPARSE) {
        const float side = SHOVE_DIM == 3 ? 23.0f : 155.0f;
        for (int i = 0; i < BODIES; ++i) {
            s->ids[s->count] = add(w,
                                   cube(test_rng_float(rng, 0, side), test_rng_float(rng, 0, side),
                                        test_rng_float(rng, 0, side), 1.0f),
                                   SHOVE_BODY_DYNAMIC, test_rng_int(rng, 0, 7));
            s->role[s->count++] = 0;
        }
        return;
    }
    if (kind == SCENE_PLATFORMS) {
        const int per_row = SHOVE_DIM == 3 ? 15 : 300;
        for (int p = 0; p < BODIES / 5; ++p) {
            const float x = (float)(p % per_row) * 8.0f;
            const float y = (float)((p / per_row) % 10) * 8.0f;
            const float z = (float)(p / per_row / 10) * 3.0f;
            s->ids[s->count] = add(w, BOX(x, y, z, x + 5, y + 0.5f, z + 2), SHOVE_BODY_DYNAMIC, 0);
            s->role[s->count++] = 1;
            const float rx[4] = {0.5f, 2.0f, 3.5f, 0.5f};
            const float ry[4] = {0.5f, 0.5f, 0.5f, 1.5f};
            for (int r = 0; r < 4; ++r) {
                s->ids[s->count] =
                    add(w, cube(x + rx[r], y + ry[r], z + 0.5f, 1.0f), SHOVE_BODY_DYNAMIC, 3);
                s->role[s->count++] = 2;
            }
        }
        return;
    }
    const int nx = SHOVE_DIM == 3 ? 12 : 40, nz = SHOVE_DIM == 3 ? 10 : 1;
    const float pitch = 1.02f;
    const float width = (float)nx * pitch, depth = (float)nz * pitch;
    if (kind == SCENE_PEN) {
        /* The walls and floor are tiles / voxels instead of bodies. */
        s->pen.wall = (int32_t)width + 1;
        shove_voxel_def vd = SHOVE_FN(default_voxel_def)();
        vd.shapes = pen_shapes;
        vd.ctx = &s->pen;
        cr_assert_eq(SHOVE_FN(world_set_voxels)(w, &vd), SHOVE_OK);
    } else {
        add(w, BOX(-2, -1, -2, width + 2, 0, depth + 2), SHOVE_BODY_STATIC, 0);
        add(w, BOX(-2, 0, -2, -1, 200, depth + 2), SHOVE_BODY_STATIC, 0);
        add(w, BOX(width + 1, 0, -2, width + 2, 200, depth + 2), SHOVE_BODY_STATIC, 0);
    }
    for (int i = 0; i < BODIES; ++i) {
        const int ix = i % nx, iz = (i / nx) % nz, iy = i / (nx * nz);
        const float x = (float)ix * pitch + test_rng_float(rng, 0, 0.02f);
        const float y = (float)iy * pitch + test_rng_float(rng, 0, 0.02f);
        const int priority = kind == SCENE_CROWDED_ONE ? 1 : test_rng_int(rng, 0, 7);
        s->ids[s->count] =
            add(w, cube(x, y, (float)iz * pitch, 1.0f), SHOVE_BODY_DYNAMIC, priority);
        s->role[s->count++] = 0;
    }
}

static void set_motions(scene *s, int kind, int frame, test_rng *rng) {
    for (int i = 0; i < s->count; ++i) {
        shove_vec m;
        if (kind == SCENE_PLATFORMS) {
            const float t = (frame / 4) % 2 ? -1.0f : 1.0f;
            m = s->role[i] == 1 ? V(0.2f * t, 0.1f * t, 0)
                                : V(test_rng_float(rng, -0.05f, 0.05f), -0.1f, 0);
        } else {
            m = V(test_rng_float(rng, -0.3f, 0.3f),
                  kind == SCENE_SPARSE ? test_rng_float(rng, -0.3f, 0.3f) : -0.1f,
                  test_rng_float(rng, -0.3f, 0.3f));
        }
        cr_assert_eq(SHOVE_FN(body_set_motion)(s->w, s->ids[i], m), SHOVE_OK);
    }
}

static uint64_t mix(uint64_t h, const void *p, size_t n) {
    const unsigned char *b = p;
    for (size_t i = 0; i < n; ++i) {
        h = (h ^ b[i]) * 0x100000001B3ull;
    }
    return h;
}

/* FRAMES steps of scene `kind`; the hash of every box after every step
 * and of every event. */
static uint64_t run_scene(int kind, shove_world_def def) {
    scene *s = calloc(1, sizeof *s);
    cr_assert_not_null(s);
    test_rng rng = {0x9E3779B97F4A7C15ull + (uint64_t)kind};
    build(s, kind, def, &rng);
    uint64_t h = 0xCBF29CE484222325ull;
    for (int f = 0; f < FRAMES; ++f) {
        set_motions(s, kind, f, &rng);
        cr_assert_eq(SHOVE_FN(world_step)(s->w), SHOVE_OK);
        for (int i = 0; i < s->count; ++i) {
            shove_aabb b;
            cr_assert_eq(SHOVE_FN(body_get_box)(s->w, s->ids[i], &b), SHOVE_OK);
            h = mix(h, &b, sizeof b);
        }
        const shove_event *ev = NULL;
        const size_t n = SHOVE_FN(world_get_events)(s->w, &ev);
        for (size_t k = 0; k < n; ++k) {
            h = mix(h, &ev[k].type, sizeof ev[k].type);
            /* (ids carry the world's tag, which differs between worlds) */
            h = mix(h, &ev[k].a.index, sizeof ev[k].a.index);
            h = mix(h, &ev[k].b.index, sizeof ev[k].b.index);
            h = mix(h, &ev[k].normal, sizeof ev[k].normal);
        }
    }
    SHOVE_FN(world_destroy)(s->w);
    free(s);
    return h;
}

static const char *const scene_names[SCENES] = {"sparse", "crowded, mixed", "crowded, one",
                                                "platforms", "voxel pen"};

static void expect_same_bits_for_every_worker_setup(int kind) {
    shove_world_def def = SHOVE_FN(default_world_def)();
    const uint64_t one = run_scene(kind, def);
    for (int workers = 2; workers <= 3; ++workers) {
        def.worker_count = workers;
        cr_expect_eq(run_scene(kind, def), one, "%s: %d workers", scene_names[kind], workers);
    }
    int calls = 0;
    def.worker_count = 1;
    def.enqueue_task = reverse_enqueue;
    def.finish_task = never_finish;
    def.task_ctx = &calls;
    cr_expect_eq(run_scene(kind, def), one, "%s: ranges in reverse", scene_names[kind]);
    def.worker_count = 2;
    def.enqueue_task = own_enqueue;
    def.finish_task = own_finish;
    cr_expect_eq(run_scene(kind, def), one, "%s: the game's own threads", scene_names[kind]);
    cr_log_info("%dD %s: %016llx (%d tasks of a game's system)", SHOVE_DIM, scene_names[kind],
                (unsigned long long)one, calls);
}

Test(workers, same_bits_sparse) {
    expect_same_bits_for_every_worker_setup(SCENE_SPARSE);
}
Test(workers, same_bits_crowded_mixed) {
    expect_same_bits_for_every_worker_setup(SCENE_CROWDED);
}
Test(workers, same_bits_crowded_one) {
    expect_same_bits_for_every_worker_setup(SCENE_CROWDED_ONE);
}
Test(workers, same_bits_platforms) {
    expect_same_bits_for_every_worker_setup(SCENE_PLATFORMS);
}
Test(workers, same_bits_voxel_pen) {
    expect_same_bits_for_every_worker_setup(SCENE_PEN);
}
