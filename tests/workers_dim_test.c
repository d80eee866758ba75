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
#include <string.h>

#include "test_alloc.h"
#include "test_dim.h"
#include "world/workers.h"
#include "world/world.h"
#include "test_step_scenes.h"
#include "test_world_text.h"

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

/* >>when the step speculates ------------------------------------------------ */

/* Steps of a scene whose steps cost `with` ns per mover speculating and
 * `without` not, as step_spec.c runs them: a step rests while the policy
 * says so. Returns how many of `steps` speculated. */
static uint32_t speculating_steps(shove__spec_policy *p, uint32_t steps, double with,
                                  double without) {
    uint32_t count = 0;
    for (uint32_t k = 0; k < steps; ++k) {
        if (p->rest > 0u) {
            p->rest -= 1u;
            shove__spec_policy_note(p, false, without, false);
        } else {
            count += 1u;
            shove__spec_policy_note(p, true, with, false);
        }
    }
    return count;
}

Test(workers, speculation_that_costs_more_backs_off) {
    shove__spec_policy p;
    memset(&p, 0, sizeof p);
    /* the first step speculates, the second measures the other way */
    cr_assert_eq(speculating_steps(&p, 1, 120.0, 100.0), 1u);
    cr_expect_eq(p.rest, 1u);
    cr_assert_eq(speculating_steps(&p, 1, 120.0, 100.0), 0u);
    cr_expect_eq(p.plain_cost, 100.0);
    /* then each loss in a row rests twice as long, up to a limit */
    const uint32_t rests[] = {7u, 14u, 28u, 56u, 112u, 112u};
    for (size_t i = 0; i < sizeof rests / sizeof rests[0]; ++i) {
        cr_assert_eq(speculating_steps(&p, 1, 120.0, 100.0), 1u);
        cr_expect_eq(p.rest, rests[i], "loss %zu", i + 1);
        cr_assert_eq(speculating_steps(&p, p.rest, 120.0, 100.0), 0u);
    }
    /* a tie is a loss too: the workers must save time to be used */
    cr_assert_eq(speculating_steps(&p, 1, 100.0, 100.0), 1u);
    cr_expect_eq(p.rest, 112u);
    /* a scene where speculating never pays speculates on few steps */
    shove__spec_policy q;
    memset(&q, 0, sizeof q);
    const uint32_t losing = speculating_steps(&q, 1000, 150.0, 100.0);
    cr_expect_leq(losing, 14u, "%u of 1000 steps speculated", losing);
}

Test(workers, speculation_that_pays_goes_on) {
    shove__spec_policy p;
    memset(&p, 0, sizeof p);
    const uint32_t winning = speculating_steps(&p, 1000, 60.0, 100.0);
    /* one step in SHOVE_SPEC_STREAK + 1 measures the other way, and the
     * second step of all */
    cr_expect_geq(winning, 1000u - 1000u / (SHOVE_SPEC_STREAK + 1u) - 2u, "%u", winning);
    cr_expect_lt(winning, 1000u, "the other way is measured again now and then");
    cr_expect_eq(p.losses, 0u);
    /* after losses, one win resets the back-off */
    shove__spec_policy q;
    memset(&q, 0, sizeof q);
    (void)speculating_steps(&q, 200, 150.0, 100.0);
    cr_assert_gt(q.losses, 2u);
    q.rest = 0u;
    cr_assert_eq(speculating_steps(&q, 1, 60.0, 100.0), 1u);
    cr_expect_eq(q.losses, 0u);
    cr_expect_eq(q.rest, 0u);
}

Test(workers, speculation_whose_records_go_unused_rests) {
    shove__spec_policy p;
    memset(&p, 0, sizeof p);
    p.plain_cost = 100.0;
    /* faster, but fewer than a quarter of the records taken: a crowd */
    shove__spec_policy_note(&p, true, 60.0, true);
    cr_expect_eq(p.rest, SHOVE_SPEC_REST);
    cr_expect_eq(p.losses, 0u, "the time itself was a win");
    /* a longer rest a loss asked for is kept */
    p.rest = 0u;
    shove__spec_policy_note(&p, true, 150.0, true);
    cr_expect_eq(p.rest, SHOVE_SPEC_REST);
    shove__spec_policy_note(&p, true, 150.0, true);
    cr_expect_eq(p.rest, 2u * SHOVE_SPEC_REST);
    /* without a clock (cost 0) only the records count, and a step
     * without speculation notes nothing */
    shove__spec_policy q;
    memset(&q, 0, sizeof q);
    shove__spec_policy_note(&q, true, 0.0, false);
    cr_expect_eq(q.rest, 0u);
    shove__spec_policy_note(&q, false, 0.0, false);
    cr_expect_eq(q.plain_cost, 0.0);
    shove__spec_policy_note(&q, true, 0.0, true);
    cr_expect_eq(q.rest, SHOVE_SPEC_REST);
}

/* >>the same bits on any number of workers -------------------------------- */

static void expect_same_bits_for_every_worker_setup(int kind) {
    shove_world_def def = SHOVE_FN(default_world_def)();
    const uint64_t one = run_scene(kind, def);
    for (int workers = 2; workers <= 3; ++workers) {
        def.worker_count = workers;
        cr_expect_eq(run_scene(kind, def), one, "%s: %d workers", scene_names[kind], workers);
        /* every step with records to take or refuse, whatever they cost */
        cr_expect_eq(run_scene_speculating(kind, def, true), one,
                     "%s: %d workers, speculating on every step", scene_names[kind], workers);
    }
    int calls = 0;
    def.worker_count = 1;
    def.enqueue_task = reverse_enqueue;
    def.finish_task = never_finish;
    def.task_ctx = &calls;
    cr_expect_eq(run_scene(kind, def), one, "%s: ranges in reverse", scene_names[kind]);
    cr_expect_eq(run_scene_speculating(kind, def, true), one,
                 "%s: ranges in reverse, speculating on every step", scene_names[kind]);
    def.worker_count = 2;
    def.enqueue_task = own_enqueue;
    def.finish_task = own_finish;
    cr_expect_eq(run_scene(kind, def), one, "%s: the game's own threads", scene_names[kind]);
    cr_expect_eq(run_scene_speculating(kind, def, true), one,
                 "%s: the game's own threads, speculating on every step", scene_names[kind]);
    cr_log_info("%dD %s: %016llx (%d tasks of a game's system)", SHOVE_DIM, scene_names[kind],
                (unsigned long long)one, calls);
}

/* >>one failed allocation, with a game's task system --------------------- */

/* A row of 60 bodies, every third pushing sideways; the boxes after one
 * step, or the status. With `a` (the def's allocator, in fail_once mode),
 * the step's allocating call number `fail_at` fails (-1: none); *step_calls
 * gets how many the step made. */
static shove_status step_row(shove_world_def def, bool every_step, test_alloc *a, long fail_at,
                             long *step_calls, shove_aabb out[60]) {
    shove_world *w = NULL;
    cr_assert_eq(SHOVE_FN(world_create)(&def, &w), SHOVE_OK);
    w->speculate_every_step = every_step;
    shove_id ids[60];
    for (int i = 0; i < 60; ++i) {
        ids[i] = add(w, BOX(i, 0, 0, i + 1, 1, 1), SHOVE_BODY_DYNAMIC, 1 + i % 3);
    }
    for (int i = 0; i < 60; i += 3) {
        cr_assert_eq(SHOVE_FN(body_set_motion)(w, ids[i], V(2, i % 2 ? 0.5f : -0.5f, 0)), SHOVE_OK);
    }
    shove_aabb before[60];
    for (int i = 0; i < 60; ++i) {
        cr_assert_eq(SHOVE_FN(body_get_box)(w, ids[i], &before[i]), SHOVE_OK);
    }
    const long before_step = a ? a->calls : 0;
    if (a) {
        a->fail_once = true;
        a->fail_after = fail_at >= 0 ? before_step + fail_at : -1;
    }
    const shove_status s = SHOVE_FN(world_step)(w);
    if (a) {
        a->fail_after = -1;
        *step_calls = a->calls - before_step;
    }
    for (int i = 0; i < 60; ++i) {
        cr_assert_eq(SHOVE_FN(body_get_box)(w, ids[i], &out[i]), SHOVE_OK);
        if (s != SHOVE_OK) {
            cr_assert(memcmp(&out[i], &before[i], sizeof out[i]) == 0, "a failed step moved %d", i);
        }
    }
    SHOVE_FN(world_destroy)(w);
    return s;
}

/* Every allocation of a step through a game's task system failing in
 * turn, one at a time (the gate's claims among them): the step either
 * gives one worker's bits, or fails with SHOVE_ERR_OUT_OF_MEMORY and
 * changes nothing; nothing leaks. When the gate has no memory the step
 * runs the task itself. */
Test(workers, a_task_system_step_survives_any_one_failed_allocation) {
    shove_aabb one[60], got[60];
    cr_assert_eq(step_row(SHOVE_FN(default_world_def)(), false, NULL, -1, NULL, one), SHOVE_OK);
    int calls = 0, survived = 0;
    test_alloc f;
    shove_world_def def = SHOVE_FN(default_world_def)();
    def.allocator = test_alloc_make(&f);
    def.enqueue_task = reverse_enqueue;
    def.finish_task = never_finish;
    def.task_ctx = &calls;
    long total = 0;
    cr_assert_eq(step_row(def, true, &f, -1, &total, got), SHOVE_OK);
    cr_assert_gt(total, 0, "the first step allocates");
    for (long k = 0; k < total; ++k) {
        def.allocator = test_alloc_make(&f);
        long step_calls = 0;
        const shove_status s = step_row(def, true, &f, k, &step_calls, got);
        cr_assert(s == SHOVE_OK || s == SHOVE_ERR_OUT_OF_MEMORY, "allocation %ld: status %d", k,
                  (int)s);
        if (s == SHOVE_OK) {
            survived += 1;
            cr_assert(memcmp(got, one, sizeof one) == 0, "allocation %ld failed: other bits", k);
        }
        cr_expect_eq(f.live, 0, "allocation %ld failed: %lld bytes leaked", k, f.live);
    }
    cr_expect_gt(survived, 0, "no failed allocation was survived (the gate's should be)");
}

/* A task system that breaks its promises costs the step no bits. */
static void expect_same_bits_from_liars(int kind) {
    const uint64_t one = run_scene(kind, SHOVE_FN(default_world_def)());
    for (int kind_of_liar = 0; kind_of_liar < LIARS; ++kind_of_liar) {
        int calls = 0;
        cr_expect_eq(run_scene_with_liar(kind, kind_of_liar, &calls), one, "%s: %s",
                     scene_names[kind], liar_names[kind_of_liar]);
        cr_expect_gt(calls, 0, "%s: %s was never asked", scene_names[kind],
                     liar_names[kind_of_liar]);
    }
}

Test(workers, same_bits_from_task_systems_that_break_their_promises_sparse) {
    expect_same_bits_from_liars(SCENE_SPARSE);
}
Test(workers, same_bits_from_task_systems_that_break_their_promises_crowded) {
    expect_same_bits_from_liars(SCENE_CROWDED);
}
Test(workers, same_bits_from_task_systems_that_break_their_promises_pen) {
    expect_same_bits_from_liars(SCENE_PEN);
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

/* The events and contacts to draw of a step are reserved before it
 * changes anything, from a bound on what it may report. The contacts to
 * draw are exactly the contacts its slides kept, so their array follows
 * what the steps drew (each reservation at most the last call's count
 * plus this one's, doubled as arrays grow). (The scenes are the workers
 * suite's, hence the test's place.) */
static void expect_reservations_follow_reports(int kind) {
    scene *s = calloc(1, sizeof *s);
    cr_assert_not_null(s);
    test_rng rng = {0x5DEECE66Dull + (uint64_t)kind};
    build(s, kind, SHOVE_FN(default_world_def)(), &rng);
    uint32_t most_drawn = 0;
    for (int f = 0; f < 6; ++f) {
        set_motions(s, kind, f, &rng);
        cr_assert_eq(SHOVE_FN(world_step)(s->w), SHOVE_OK);
        most_drawn = s->w->drawn_count > most_drawn ? s->w->drawn_count : most_drawn;
    }
    cr_expect_gt(most_drawn, 100u, "%s: the steps drew %u contacts", scene_names[kind], most_drawn);
    cr_expect_leq(s->w->drawn_capacity, 4u * most_drawn,
                  "%s: room for %u contacts to draw, at most %u drawn", scene_names[kind],
                  s->w->drawn_capacity, most_drawn);
    SHOVE_FN(world_destroy)(s->w);
    free(s);
}

Test(workers, room_for_contacts_to_draw_follows_what_steps_draw_crowded) {
    expect_reservations_follow_reports(SCENE_CROWDED);
}
Test(workers, room_for_contacts_to_draw_follows_what_steps_draw_pen) {
    expect_reservations_follow_reports(SCENE_PEN);
}
