/*
 * main.c: the shove demo, headless. A generated block world (hills with
 * slab terraces, cliffs, a walled keep, a fenced pen, a staircase tower, a
 * crate yard merged into a few static bodies, a lift) and a few thousand
 * 0.6 x 1.8 x 0.6 mobs that wander with gravity, step-up and edge guard
 * for some seconds of game time. Prints a table and writes demo.png: the
 * world from above with the mobs' trails (left), and a side view of one
 * mob climbing the staircase (right).
 *
 * What it shows of the API: voxels through a callback (several boxes per
 * voxel: slabs, stairs, fences with rails, walls 1.5 tall),
 * shove3_merge_grid for the crates, shove3_cast_box to drop mobs onto the
 * ground, shove3_move for every mob and for the lift, shove3_query_box to
 * find the lift's riders, and the move flags (on_ground, stepped, ...).
 *
 * Usage: demo [output-directory]
 *
 * The files: terrain.c (the block world), bodies.c (crates, lift, mobs),
 * picture.c (demo.png, drawn with Cairo when the build found it; without
 * it the demo runs and says the picture was skipped), demo.h (what they
 * share).
 */
#define _POSIX_C_SOURCE 199309L
#include <math.h>
#include <stdio.h>
#include <time.h>

#include "demo.h"

static const float DT = 1.0f / FPS;
static const float GRAVITY = 25.0f; /* units / s^2 */
static const float SPEED = 3.0f;    /* walking, units / s */

static double clock_s(clockid_t id) {
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double now_s(void) {
    return clock_s(CLOCK_MONOTONIC);
}

int main(int argc, char **argv) {
    const char *dir = argc > 1 ? argv[1] : ".";
    const double t_start = now_s();
    generate();

    shove3_world_def wd = shove3_default_world_def();
    wd.bounds = lbox(0, -8, 0, SX, SY + 8, SZ);
    wd.body_capacity = MOBS + 4096;
    shove3_world *w = NULL;
    if (shove3_world_create(&wd, &w) != SHOVE_OK) {
        fprintf(stderr, "cannot create the world\n");
        return 1;
    }
    shove3_voxel_def vd = shove3_default_voxel_def();
    vd.shapes = shapes;
    vd.ctx = &map;
    if (shove3_world_set_voxels(w, &vd) != SHOVE_OK) {
        fprintf(stderr, "cannot set the voxels\n");
        return 1;
    }
    add_crates(w);
    add_lift(w);

    /* Mobs everywhere, then one climber at the foot of the staircase. */
    while (mob_count < MOBS) {
        spawn(w, frand(1.0f, SX - 2.0f), frand(1.0f, SZ - 2.0f), frand(0.0f, 6.2831853f));
    }
    for (float x = (float)STAIR_X - 4.0f; !spawn(w, x, (float)STAIR_Z + 1.7f, 0.0f); x -= 1.0f) {
    }
    const int climber = mob_count - 1;
    const double t_setup = now_s() - t_start;

    shove3_move_def def = shove3_default_move_def();
    def.step_height = 0.6f;
    def.edge_guard = true;
    long moves = 0, contacts = 0, steps = 0, guarded = 0, blocked = 0, airborne = 0;
    map.reads = 0;
    double move_time = 0.0, move_cpu = 0.0;
    const int frames = FRAMES;
    for (int f = 0; f < frames; ++f) {
        const double t0 = now_s(), c0 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
        move_lift(w, (float)f * DT, &moves);
        for (int i = 0; i < mob_count; ++i) {
            mob *m = &mobs[i];
            if (i != climber && (rnd() % 90) == 0) {
                m->heading += frand(-2.0f, 2.0f);
            }
            m->vy = m->vy - GRAVITY * DT;
            m->vy = m->vy < -40.0f ? -40.0f : m->vy;
            const float speed = (i == climber) ? 2.0f : SPEED;
            const vec3s d = {
                {cosf(m->heading) * speed * DT, m->vy * DT, sinf(m->heading) * speed * DT}};
            shove3_move_result r;
            if (shove3_move(w, m->id, d, &def, &r) != SHOVE_OK) {
                fprintf(stderr, "move failed\n");
                return 1;
            }
            moves += 1;
            contacts += r.contact_count;
            steps += r.stepped ? 1 : 0;
            airborne += r.on_ground ? 0 : 1;
            const float asked = fabsf(d.x) + fabsf(d.z);
            const float went = fabsf(r.delta.x) + fabsf(r.delta.z);
            if (m->grounded && !r.hit_wall && went < 0.5f * asked) {
                guarded += 1; /* the edge guard held it at a drop */
                m->heading += 3.14159265f * frand(0.5f, 1.5f);
            } else if (r.hit_wall && !r.stepped && went < 0.5f * asked) {
                blocked += 1;
                if (i != climber) {
                    m->heading += 3.14159265f * frand(0.5f, 1.5f);
                }
            }
            if (r.on_ground || (r.hit_ceiling && m->vy > 0.0f)) {
                m->vy = 0.0f;
            }
            m->grounded = r.on_ground;
            if (i == climber) {
                climb[climb_len++] = r.box;
            }
        }
        move_time += now_s() - t0;
        move_cpu += clock_s(CLOCK_PROCESS_CPUTIME_ID) - c0;
        for (int i = 0; i < TRAILS; ++i) {
            shove3_aabb b;
            shove3_body_get_box(w, mobs[i].id, &b);
            trail[i][trail_len] = (vec3s){{b.min.x + 0.3f, b.min.y, b.min.z + 0.3f}};
        }
        trail_len += 1;
    }

    /* Checks: nobody inside terrain, nobody inside another body. */
    int in_terrain = 0, in_bodies = 0;
    for (int i = 0; i < mob_count; ++i) {
        shove3_aabb b;
        shove3_body_get_box(w, mobs[i].id, &b);
        in_terrain += inside_terrain(b) ? 1 : 0;
        shove_id others[4];
        in_bodies += shove3_query_box(w, b, UINT64_MAX, others, 4) > 1 ? 1 : 0;
    }
    shove3_aabb cb;
    shove3_body_get_box(w, mobs[climber].id, &cb);
    const float climbed = cb.min.y - climb[0].min.y;

    printf("shove demo: a %d x %d x %d block world, %d mobs (0.6 x 1.8 x 0.6), %d s at %d fps\n",
           SX, SY, SZ, mob_count, SECONDS, FPS);
    printf("  crates: %d cells merged into %d static bodies (shove3_merge_grid)\n", crate_cells,
           crate_bodies);
    printf("  %-44s %12ld\n", "moves (mobs and lift)", moves);
    printf("  %-44s %12.0f\n", "moves per second (CPU time)", (double)moves / move_cpu);
    printf("  %-44s %12.0f\n", "moves per second (wall clock)", (double)moves / move_time);
    printf("  %-44s %12.3f\n", "microseconds per move (CPU time)", 1e6 * move_cpu / (double)moves);
    printf("  %-44s %12.1f\n", "voxel reads per move", (double)map.reads / (double)moves);
    printf("  %-44s %12ld\n", "contacts", contacts);
    printf("  %-44s %12ld\n", "steps climbed (step-up)", steps);
    printf("  %-44s %12ld\n", "falls prevented (edge guard held a mob)", guarded);
    printf("  %-44s %12ld\n", "walked into walls, fences, crates, mobs", blocked);
    printf("  %-44s %12ld\n", "mob moves in the air", airborne);
    printf("  %-44s %12.2f\n", "height the stair climber gained", (double)climbed);
    printf("  %-44s %12d\n", "mobs inside terrain at the end", in_terrain);
    printf("  %-44s %12d\n", "mobs inside another body at the end", in_bodies);
    printf("  setup %.2f s, simulation %.2f s (%.2f s of CPU)\n", t_setup, move_time, move_cpu);

    char path[4096];
    snprintf(path, sizeof path, "%s/demo.png", dir);
    const int drawn = draw_picture(w, path);
    if (drawn == 0) {
        perror(path);
        return 1;
    } else if (drawn < 0) {
        printf("picture skipped: the demo was built without Cairo (install libcairo2-dev, e.g. "
               "`sh tools/install-deps libcairo2-dev`, then `make demo` again)\n");
    } else {
        printf("wrote %s (left: from above, with the paths of %d mobs; right: the staircase "
               "climb)\n",
               path, TRAILS);
    }
    shove3_world_destroy(w);
    return (in_terrain == 0 && in_bodies == 0 && climbed > (float)STAIR_N - 1.0f) ? 0 : 2;
}
