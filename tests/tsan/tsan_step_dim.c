/*
 * tsan_step_dim.c: the step on several workers, for ThreadSanitizer
 * (`make tsan`). Criterion does not start under ThreadSanitizer (its
 * process arena cannot be mapped), so this is a plain program, built once
 * per dimension: every scene of test_step_scenes.h (bench_step's scenes
 * and a voxel pen) stepped with 1, 2 and 3 workers of the built-in pool
 * and with a game's task systems (ranges in reverse, two threads of its
 * own) and task systems that break their promises (liar_enqueue),
 * speculating on every step (the step would otherwise time itself and
 * mostly not); the hashes must agree. ThreadSanitizer reports any data race and
 * ends the program (halt_on_error). Exit 0 when everything agrees.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dim.h"
#include "geometry/geometry.h"
#include "test_dim_boxes.h"
#include "world/world.h"

#include "test_step_scenes.h"

int main(void) {
    int failures = 0;
    for (int kind = 0; kind < SCENES; ++kind) {
        shove_world_def def = SHOVE_FN(default_world_def)();
        const uint64_t one = run_scene(kind, def);
        int calls = 0;
        for (int setup = 0; setup < 4; ++setup) {
            def = SHOVE_FN(default_world_def)();
            const char *name = "";
            switch (setup) {
            case 0:
            case 1:
                def.worker_count = 2 + setup;
                name = setup == 0 ? "2 workers" : "3 workers";
                break;
            case 2:
                def.enqueue_task = reverse_enqueue;
                def.finish_task = never_finish;
                def.task_ctx = &calls;
                name = "ranges in reverse";
                break;
            default:
                def.worker_count = 2;
                def.enqueue_task = own_enqueue;
                def.finish_task = own_finish;
                def.task_ctx = &calls;
                name = "the game's own threads";
                break;
            }
            /* speculating on every step: the threads run on every step */
            const uint64_t h = run_scene_speculating(kind, def, true);
            if (h != one) {
                fprintf(stderr, "%dD %s, %s: %016llx, 1 worker: %016llx\n", SHOVE_DIM,
                        scene_names[kind], name, (unsigned long long)h, (unsigned long long)one);
                failures += 1;
            }
        }
        /* task systems that break their promises (test_step_scenes.h) */
        for (int kind_of_liar = 0; kind_of_liar < LIARS; ++kind_of_liar) {
            int liar_calls = 0;
            const uint64_t h = run_scene_with_liar(kind, kind_of_liar, &liar_calls);
            if (h != one) {
                fprintf(stderr, "%dD %s, %s: %016llx, 1 worker: %016llx\n", SHOVE_DIM,
                        scene_names[kind], liar_names[kind_of_liar], (unsigned long long)h,
                        (unsigned long long)one);
                failures += 1;
            }
        }
        printf("%dD %-16s %016llx (%d tasks of a game's system)\n", SHOVE_DIM, scene_names[kind],
               (unsigned long long)one, calls);
    }
    return failures == 0 ? 0 : 1;
}
