/*
 * test_step_scenes.h: bench_step's scenes (bench/bench_step.c), smaller,
 * run for a number of steps and hashed: every box and every body's result
 * (shove3_body_get_result) after every step, and every event; in the
 * crowded scene with mixed priorities, one body in seven has move settings
 * of its own. Used by workers_dim_test.c and by the ThreadSanitizer
 * program (tests/tsan), which cannot use Criterion; so nothing here
 * asserts through Criterion: a call that fails aborts the program. Include
 * after test_dim.h (or dim.h and geometry.h) and world.h.
 *
 * Also two task systems of a game: one that runs ranges in reverse order
 * on the caller, one that runs them on two threads of its own; and task
 * systems that break their promises (liar_enqueue).
 */
#ifndef SHOVE_TEST_STEP_SCENES_H
#define SHOVE_TEST_STEP_SCENES_H

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include "test_support.h"

static void scenes_check(bool ok, const char *what) {
    if (!ok) {
        fprintf(stderr, "test_step_scenes.h: %s failed\n", what);
        abort();
    }
}

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
    scenes_check(false, "finish_task called for a task that ran at once");
}

/* >>task systems on threads of their own --------------------------------
 *
 * liar_part runs ranges on a thread: own_enqueue with every promise kept,
 * liar_enqueue with one broken, which must cost the step nothing but time
 * (workers.c's gate):
 *   LIAR_TWICE       every range on both of two threads at once, as
 *                    workers 0 and 1;
 *   LIAR_ONE_WORKER  the ranges shared by two threads that both say they
 *                    are worker 0;
 *   LIAR_LATE        two threads that start only once finish_task has
 *                    returned (joined at the next enqueue, or by
 *                    liar_join before the world goes);
 *   LIAR_SKIPS       every third range never run (on the caller);
 *   LIAR_BAD_WORKER  every other range on a worker past worker_count. */
enum { LIAR_TWICE, LIAR_ONE_WORKER, LIAR_LATE, LIAR_SKIPS, LIAR_BAD_WORKER, LIARS };

static const char *const liar_names[LIARS] = {
    "every range twice at once", "two threads as one worker", "ranges after finish returned",
    "ranges skipped", "workers out of range"};

typedef struct liar_part {
    shove_task_fn *fn;
    void *fn_ctx;
    uint32_t count, range;
    uint32_t first, stride; /* ranges first, first + stride, ... */
    uint32_t worker;
    const atomic_int *go; /* LIAR_LATE: wait for it */
} liar_part;

typedef struct liar {
    int kind;
    int calls;
    bool running; /* threads not joined yet */
    pthread_t thread[2];
    liar_part part[2];
    atomic_int go;
} liar;

static void liar_ranges(const liar_part *p) {
    for (uint64_t k = p->first;; k += p->stride) {
        const uint64_t begin = k * p->range;
        if (begin >= p->count) {
            return;
        }
        const uint64_t end = begin + p->range < p->count ? begin + p->range : p->count;
        p->fn((uint32_t)begin, (uint32_t)end, p->worker, p->fn_ctx);
    }
}

static void *liar_thread(void *arg) {
    const liar_part *p = arg;
    while (p->go && atomic_load(p->go) == 0) {
        sched_yield();
    }
    liar_ranges(p);
    return NULL;
}

/* Joins the threads of the last task, if any. */
static void liar_join(liar *l) {
    if (!l->running) {
        return;
    }
    for (int k = 0; k < 2; ++k) {
        pthread_join(l->thread[k], NULL);
    }
    l->running = false;
}

static void *liar_enqueue(shove_task_fn *fn, uint32_t count, uint32_t min_range, void *fn_ctx,
                          void *task_ctx) {
    liar *l = task_ctx;
    l->calls += 1;
    liar_join(l);
    const uint32_t range = min_range > 0u ? min_range : 1u;
    if (l->kind == LIAR_SKIPS || l->kind == LIAR_BAD_WORKER) {
        const uint32_t ranges = (count + range - 1u) / range;
        for (uint32_t k = 0; k < ranges; ++k) {
            const uint32_t begin = k * range;
            const uint32_t end = count - begin < range ? count : begin + range;
            if (l->kind == LIAR_SKIPS && k % 3u == 2u) {
                continue;
            }
            fn(begin, end, l->kind == LIAR_BAD_WORKER && k % 2u == 1u ? 7u + k : 0u, fn_ctx);
        }
        return NULL;
    }
    atomic_store(&l->go, l->kind == LIAR_LATE ? 0 : 1);
    for (uint32_t k = 0; k < 2u; ++k) {
        liar_part *p = &l->part[k];
        *p = (liar_part){fn, fn_ctx, count, range, k, 2u, k, &l->go};
        if (l->kind == LIAR_TWICE) {
            p->first = 0u;
            p->stride = 1u;
        } else if (l->kind == LIAR_ONE_WORKER) {
            p->worker = 0u;
        }
        scenes_check(pthread_create(&l->thread[k], NULL, liar_thread, p) == 0, "pthread_create");
    }
    l->running = true;
    return l;
}

static void liar_finish(void *task, void *task_ctx) {
    (void)task;
    liar *l = task_ctx;
    if (l->kind == LIAR_LATE) {
        atomic_store(&l->go, 1); /* they start now, and finish returns at once */
        return;
    }
    liar_join(l);
}

/* Runs the ranges on two threads of its own, keeping every promise:
 * thread k takes every other range, starting with range k, as worker k
 * (a liar_part with nothing to wait for). */
typedef struct own_job {
    pthread_t thread[2];
    liar_part part[2];
} own_job;

static void *own_enqueue(shove_task_fn *fn, uint32_t count, uint32_t min_range, void *fn_ctx,
                         void *task_ctx) {
    int *calls = task_ctx;
    *calls += 1;
    own_job *job = calloc(1, sizeof *job);
    scenes_check(job != NULL, "calloc");
    for (uint32_t k = 0; k < 2u; ++k) {
        job->part[k] =
            (liar_part){fn, fn_ctx, count, min_range > 0u ? min_range : 1u, k, 2u, k, NULL};
        scenes_check(pthread_create(&job->thread[k], NULL, liar_thread, &job->part[k]) == 0,
                     "pthread_create");
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

/* Called with the def's task_ctx before a scene's world is destroyed. */
static void (*scene_before_destroy)(void *task_ctx);

static void liar_before_destroy(void *task_ctx) {
    liar_join(task_ctx);
}

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
    scenes_check(SHOVE_FN(body_create)(w, &def, &id) == SHOVE_OK, "body_create");
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
    scenes_check(SHOVE_FN(world_create)(&def, &s->w) == SHOVE_OK, "world_create");
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
        scenes_check(SHOVE_FN(world_set_voxels)(w, &vd) == SHOVE_OK, "world_set_voxels");
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
        if (kind == SCENE_CROWDED && i % 7 == 3) {
            /* Sneaking players among the mobs: move settings of their own. */
            shove_move_def sneak = SHOVE_FN(default_move_def)();
            sneak.edge_guard = true;
            sneak.step_height = 0.0f;
            sneak.skin = 1.0f / 256.0f;
            scenes_check(SHOVE_FN(body_set_move_def)(w, s->ids[s->count], &sneak) == SHOVE_OK,
                         "body_set_move_def");
        }
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
        scenes_check(SHOVE_FN(body_set_motion)(s->w, s->ids[i], m) == SHOVE_OK, "body_set_motion");
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
/* The hash of scene `kind` stepped FRAMES times. every_step: the step
 * speculates on every step it can (the world's tests-only switch), rather
 * than timing itself to choose; the results must not differ. */
static uint64_t run_scene_speculating(int kind, shove_world_def def, bool every_step) {
    scene *s = calloc(1, sizeof *s);
    scenes_check(s != NULL, "calloc");
    test_rng rng = {0x9E3779B97F4A7C15ull + (uint64_t)kind};
    build(s, kind, def, &rng);
    s->w->speculate_every_step = every_step;
    uint64_t h = 0xCBF29CE484222325ull;
    for (int f = 0; f < FRAMES; ++f) {
        set_motions(s, kind, f, &rng);
        scenes_check(SHOVE_FN(world_step)(s->w) == SHOVE_OK, "world_step");
        for (int i = 0; i < s->count; ++i) {
            shove_aabb b;
            scenes_check(SHOVE_FN(body_get_box)(s->w, s->ids[i], &b) == SHOVE_OK, "body_get_box");
            h = mix(h, &b, sizeof b);
            shove_move_result r;
            memset(&r, 0, sizeof r);
            scenes_check(SHOVE_FN(body_get_result)(s->w, s->ids[i], &r) == SHOVE_OK,
                         "body_get_result");
            const bool flags[4] = {r.on_ground, r.hit_ceiling, r.hit_wall, r.stepped};
            h = mix(h, &r.box, sizeof r.box);
            h = mix(h, &r.delta, sizeof r.delta);
            h = mix(h, &r.contact_count, sizeof r.contact_count);
            h = mix(h, flags, sizeof flags);
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
    if (scene_before_destroy) {
        scene_before_destroy(def.task_ctx);
    }
    SHOVE_FN(world_destroy)(s->w);
    free(s);
    return h;
}

static uint64_t run_scene(int kind, shove_world_def def) {
    return run_scene_speculating(kind, def, false);
}

/* The hash of scene `kind` stepped through liar_enqueue of kind
 * `kind_of_liar` (2 workers, speculating on every step); *calls counts
 * the tasks it was given. */
static uint64_t run_scene_with_liar(int kind, int kind_of_liar, int *calls) {
    liar l;
    memset(&l, 0, sizeof l);
    l.kind = kind_of_liar;
    atomic_init(&l.go, 0);
    shove_world_def def = SHOVE_FN(default_world_def)();
    def.worker_count = 2;
    def.enqueue_task = liar_enqueue;
    def.finish_task = liar_finish;
    def.task_ctx = &l;
    scene_before_destroy = liar_before_destroy;
    const uint64_t h = run_scene_speculating(kind, def, true);
    scene_before_destroy = NULL;
    *calls = l.calls;
    return h;
}

static const char *const scene_names[SCENES] = {"sparse", "crowded, mixed", "crowded, one",
                                                "platforms", "voxel pen"};

#endif
