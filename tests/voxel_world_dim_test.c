/*
 * voxel_world_dim_test.c: moves through block worlds. Scenarios (listed
 * in scenarios_dim_test.c) 1 (seam
 * floor and wall as a voxel / tile map), 11 (steps and edge guard), 12 (far
 * from the origin, after shove3_world_shift_origin); landing on slabs,
 * fences and walls at positive and negative coordinates; a world move over
 * voxels against shove3_slide over the same boxes; long falls, long slides
 * and long diagonal moves (run in pieces); wandering mobs that must never
 * end inside terrain.
 */
#include "test_dim.h"
#include "test_voxel_map.h"
#include "obstacles/voxel.h"
#include "world/world.h"

#define SKIN (1.0f / 1024.0f)

static shove_world *world_with(test_map *m, shove_vec origin) {
    shove_world *w = NULL;
    cr_assert_eq(SHOVE_FN(world_create)(NULL, &w), SHOVE_OK);
    const shove_voxel_def d = map_def(m, origin, 1.0f);
    cr_assert_eq(SHOVE_FN(world_set_voxels)(w, &d), SHOVE_OK);
    return w;
}

static shove_id add_mover(shove_world *w, shove_aabb box) {
    shove_body_def def = SHOVE_FN(default_body_def)();
    def.box = box;
    def.type = SHOVE_BODY_DYNAMIC;
    shove_id id;
    cr_assert_eq(SHOVE_FN(body_create)(w, &def, &id), SHOVE_OK);
    return id;
}

static shove_move_result move(shove_world *w, shove_id id, shove_vec d, const shove_move_def *def) {
    shove_move_result r;
    memset(&r, 0xAB, sizeof r);
    const shove_status s = SHOVE_FN(move)(w, id, d, def, &r);
    cr_assert_eq(s, SHOVE_OK, "%s", shove_status_string(s));
    return r;
}

/* A player: 0.6 x 1.8 x 0.6 with its foot at (x, y, z). */
static shove_aabb player_at(float x, float y, float z) {
    return BOX(x, y, z, x + 0.6f, y + 1.8f, z + 0.6f);
}

static shove_move_def walker_def(bool edge_guard) {
    shove_move_def def = SHOVE_FN(default_move_def)();
    def.step_height = 0.6f;
    def.edge_guard = edge_guard;
    return def;
}

/* Every move rule that can be checked from outside: the end box is free of
 * terrain and the displacement never goes beyond the request. */
static void check_move(const test_map *m, shove_vec origin, shove_aabb start, shove_vec req,
                       const shove_move_result *r, float step_height, const char *what) {
    cr_assert(!map_overlaps(m, origin, 1.0f, r->box), "%s: ended inside terrain", what);
    for (int a = 0; a < SHOVE_DIM; ++a) {
        const float d = r->delta.raw[a];
        float lo = req.raw[a] < 0.0f ? req.raw[a] : 0.0f;
        float hi = req.raw[a] > 0.0f ? req.raw[a] : 0.0f;
        if (a == 1) {
            hi += step_height; /* a step-up may raise the mover */
        }
        cr_assert(d >= lo && d <= hi, "%s: axis %d moved %.9g for %.9g", what, a, (double)d,
                  (double)req.raw[a]);
        /* A long move runs in pieces: its delta is the sum of theirs, so box
         * and delta agree to the rounding of a few dozen additions. */
        const float want = start.min.raw[a] + d;
        cr_assert(fabsf(r->box.min.raw[a] - want) <= (fabsf(want) + 1.0f) * 0x1p-17f,
                  "%s: box and delta disagree on axis %d: %.9g vs %.9g", what, a,
                  (double)r->box.min.raw[a], (double)want);
    }
}

/* >>scenario 1: seam floor and wall --------------------------------------- */

/* A floor of 50 unit cells with its top at y = 0, from cell x0 on, and a
 * wall column of 50 cells at x = x0 + 60 (z: cells -2 .. 2). */
static void build_seams(test_map *m, int32_t x0) {
    for (int32_t i = 0; i < 50; ++i) {
        for (int32_t z = -2; z <= 2; ++z) {
            map_set(m, x0 + i, -1, z, CELL_FULL);
            map_set(m, x0 + 60, i, z, CELL_FULL);
        }
    }
}

typedef struct seam_run {
    shove_aabb floor_boxes[100];
    shove_aabb wall_boxes[100];
} seam_run;

/* Scenario 1 in world `w` whose cell x0 lies at world x `base`; records
 * the box after every frame. */
static void run_seams(shove_world *w, float base, seam_run *out) {
    shove_aabb m = BOX(base + 0.25f, 0, 0.25, base + 0.75f, 1, 0.75);
    const shove_id id = add_mover(w, m);
    for (int frame = 0; frame < 100; ++frame) {
        const shove_move_result r = move(w, id, V(0.2, -0.1, 0), NULL);
        cr_assert_eq(r.box.min.raw[0], m.min.raw[0] + 0.2f, "frame %d", frame);
        cr_assert_eq(r.box.min.raw[1], 0.0f, "frame %d: y moved", frame);
        cr_assert(r.on_ground, "frame %d", frame);
        cr_assert(!r.hit_wall, "frame %d: snagged on a seam", frame);
        m = r.box;
        out->floor_boxes[frame] = m;
    }
    /* Up along the wall: the mover touches the wall's face at x0 + 60. */
    shove_aabb c = BOX(base + 59.5f, 0.25, 0.25, base + 60.0f, 1.25, 0.75);
    cr_assert_eq(SHOVE_FN(body_set_box)(w, id, c), SHOVE_OK);
    for (int frame = 0; frame < 100; ++frame) {
        const shove_move_result r = move(w, id, V(0.1, 0.2, 0), NULL);
        cr_assert_eq(r.box.min.raw[1], c.min.raw[1] + 0.2f, "frame %d", frame);
        cr_assert_eq(r.box.max.raw[0], base + 60.0f, "frame %d: x moved", frame);
        cr_assert(r.hit_wall, "frame %d", frame);
        c = r.box;
        out->wall_boxes[frame] = c;
    }
}

Test(voxel_world, seam_floor_and_wall_at_positive_and_negative_x) {
    const int32_t starts[2] = {0, -75};
    for (int i = 0; i < 2; ++i) {
        test_map *m = map_new(starts[i] - 2, -4, -4, 70, 60, 8);
        build_seams(m, starts[i]);
        shove_world *w = world_with(m, V(0, 0, 0));
        seam_run run;
        run_seams(w, (float)starts[i], &run);
        SHOVE_FN(world_destroy)(w);
        map_free(m);
    }
}

/* >>scenario 11: steps and edge guard -------------------------------------- */

/* Floor cells x in [-20, 20) with the top at y = 0, z cells -3 .. 3. */
static void build_floor(test_map *m, int32_t x_offset) {
    for (int32_t x = -20; x < 20; ++x) {
        for (int32_t z = -3; z <= 3; ++z) {
            map_set(m, x + x_offset, -1, z, CELL_FULL);
        }
    }
}

/* Walk +x for `frames` frames at 0.1 per frame with gravity 0.2 per frame. */
static shove_aabb walk(shove_world *w, shove_id id, const shove_move_def *def, int frames,
                       int *steps, shove_aabb *boxes) {
    shove_aabb b;
    for (int f = 0; f < frames; ++f) {
        const shove_move_result r = move(w, id, V(0.1, -0.2, 0), def);
        *steps += r.stepped ? 1 : 0;
        if (boxes) {
            boxes[f] = r.box;
        }
    }
    cr_assert_eq(SHOVE_FN(body_get_box)(w, id, &b), SHOVE_OK);
    return b;
}

static void steps_scene(int32_t x_offset, float base, shove_vec origin, shove_aabb *slab_path,
                        shove_aabb *block_path, shove_aabb *edge_path) {
    const shove_move_def def = walker_def(false);
    const shove_move_def guard = walker_def(true);
    /* A bottom slab at cell 3: climbed. */
    {
        test_map *m = map_new(x_offset - 24, -4, -4, 48, 8, 8);
        build_floor(m, x_offset);
        for (int32_t z = -3; z <= 3; ++z) {
            map_set(m, x_offset + 3, 0, z, CELL_SLAB_BOTTOM);
            map_set(m, x_offset + 4, 0, z, CELL_SLAB_BOTTOM);
        }
        shove_world *w = world_with(m, origin);
        const shove_id id = add_mover(w, player_at(base + 1.0f, 0, 0));
        int steps = 0;
        const shove_aabb end = walk(w, id, &def, 25, &steps, slab_path);
        cr_expect(steps >= 1, "never stepped");
        cr_expect(end.min.raw[0] > base + 3.0f, "stopped at the slab: %.9g",
                  (double)(end.min.raw[0] - base));
        cr_expect(end.min.raw[1] >= 0.5f && end.min.raw[1] <= 0.5f + 2.0f * SKIN,
                  "not on the slab: %.9g", (double)end.min.raw[1]);
        SHOVE_FN(world_destroy)(w);
        map_free(m);
    }
    /* A full block at cell 3: not climbed, the player stops at its face. */
    {
        test_map *m = map_new(x_offset - 24, -4, -4, 48, 8, 8);
        build_floor(m, x_offset);
        for (int32_t z = -3; z <= 3; ++z) {
            map_set(m, x_offset + 3, 0, z, CELL_FULL);
        }
        shove_world *w = world_with(m, origin);
        const shove_id id = add_mover(w, player_at(base + 1.0f, 0, 0));
        int steps = 0;
        const shove_aabb end = walk(w, id, &def, 25, &steps, block_path);
        cr_expect_eq(steps, 0);
        cr_expect(end.max.raw[0] <= base + 3.0f && end.max.raw[0] >= base + 3.0f - 2.0f * SKIN,
                  "%.9g", (double)(end.max.raw[0] - base));
        cr_expect_eq(end.min.raw[1], 0.0f);
        SHOVE_FN(world_destroy)(w);
        map_free(m);
    }
    /* The floor ends at x = 20 (a drop of 5): the guard stops at the edge. */
    {
        test_map *m = map_new(x_offset - 24, -8, -4, 60, 12, 8);
        build_floor(m, x_offset);
        for (int32_t x = 20; x < 30; ++x) {
            for (int32_t z = -3; z <= 3; ++z) {
                map_set(m, x_offset + x, -6, z, CELL_FULL);
            }
        }
        shove_world *w = world_with(m, origin);
        const shove_id id = add_mover(w, player_at(base + 17.0f, 0, 0));
        int steps = 0;
        const shove_aabb end = walk(w, id, &guard, 40, &steps, edge_path);
        cr_expect_eq(end.min.raw[1], 0.0f, "fell off");
        cr_expect(end.min.raw[0] < base + 20.0f && end.min.raw[0] > base + 19.9f,
                  "did not reach the edge: %.9g", (double)(end.min.raw[0] - base));
        /* Without the guard it walks off and falls. */
        const shove_aabb after = walk(w, id, &def, 20, &steps, NULL);
        cr_expect(after.min.raw[1] < -1.0f);
        cr_expect(!map_overlaps(m, origin, 1.0f, after));
        SHOVE_FN(world_destroy)(w);
        map_free(m);
    }
}

Test(voxel_world, a_player_climbs_a_slab_not_a_block_and_the_guard_holds_at_the_edge) {
    shove_aabb p1[25], p2[25], p3[40];
    steps_scene(0, 0.0f, V(0, 0, 0), p1, p2, p3);
    steps_scene(-1000, -1000.0f, V(0, 0, 0), p1, p2, p3);
}

/* >>scenario 12: far from the origin ---------------------------------------- */

Test(voxel_world, results_near_100000_after_a_shift_equal_results_near_0) {
    /* Steps: the far world is built at cell / world x 100000 (what a game far
     * out would do), then shifted; the near one is built at 0. */
    const shove_move_def def = walker_def(false);
    {
        test_map *m = map_new(100000 - 24, -4, -4, 48, 8, 8);
        build_floor(m, 100000);
        for (int32_t z = -3; z <= 3; ++z) {
            map_set(m, 100003, 0, z, CELL_SLAB_BOTTOM);
            map_set(m, 100004, 0, z, CELL_SLAB_BOTTOM);
        }
        shove_world *w = world_with(m, V(0, 0, 0));
        const shove_id id = add_mover(w, player_at(100001.0f, 0, 0));
        cr_assert_eq(SHOVE_FN(world_shift_origin)(w, V(100000, 0, 0)), SHOVE_OK);
        shove_aabb start;
        cr_assert_eq(SHOVE_FN(body_get_box)(w, id, &start), SHOVE_OK);
        /* The player's width (0.6) is not a float at 100000: it became a
         * multiple of 1/128 there. The near reference uses the same box. */
        cr_assert(fabsf(start.max.raw[0] - 1.6f) < 1.0f / 128.0f);
        test_map *n = map_new(-24, -4, -4, 48, 8, 8);
        build_floor(n, 0);
        for (int32_t z = -3; z <= 3; ++z) {
            map_set(n, 3, 0, z, CELL_SLAB_BOTTOM);
            map_set(n, 4, 0, z, CELL_SLAB_BOTTOM);
        }
        shove_world *nw = world_with(n, V(0, 0, 0));
        const shove_id nid = add_mover(nw, start);
        int steps = 0, nsteps = 0;
        shove_aabb far_path[25], near_path[25];
        walk(w, id, &def, 25, &steps, far_path);
        walk(nw, nid, &def, 25, &nsteps, near_path);
        cr_expect_eq(steps, nsteps);
        cr_expect(steps >= 1);
        for (int f = 0; f < 25; ++f) {
            cr_assert(memcmp(&far_path[f], &near_path[f], sizeof far_path[f]) == 0,
                      "frame %d differs", f);
        }
        SHOVE_FN(world_destroy)(w);
        SHOVE_FN(world_destroy)(nw);
        map_free(m);
        map_free(n);
    }
    /* Seam floor and wall: mover boxes of 0.5 are exact at 100000. */
    {
        test_map *m = map_new(100000 - 2, -4, -4, 70, 60, 8);
        build_seams(m, 100000);
        shove_world *w = world_with(m, V(0, 0, 0));
        cr_assert_eq(SHOVE_FN(world_shift_origin)(w, V(100000, 0, 0)), SHOVE_OK);
        seam_run far, near;
        run_seams(w, 0.0f, &far);
        test_map *n = map_new(-2, -4, -4, 70, 60, 8);
        build_seams(n, 0);
        shove_world *nw = world_with(n, V(0, 0, 0));
        run_seams(nw, 0.0f, &near);
        cr_expect(memcmp(&far, &near, sizeof far) == 0);
        SHOVE_FN(world_destroy)(w);
        SHOVE_FN(world_destroy)(nw);
        map_free(m);
        map_free(n);
    }
}

/* >>landing ----------------------------------------------------------------- */

Test(voxel_world, landing_on_slabs_fences_and_walls_at_positive_and_negative_cells) {
    const int kinds[5] = {CELL_SLAB_BOTTOM, CELL_SLAB_TOP, CELL_FULL, CELL_FENCE, CELL_WALL};
    const float tops[5] = {0.5f, 1.0f, 1.0f, 1.5f, 1.5f};
    const int32_t cells[4][3] = {{5, 3, 2}, {-7, 3, -3}, {5, -4, -3}, {-7, -4, 2}};
    for (int k = 0; k < 5; ++k) {
        for (int c = 0; c < 4; ++c) {
            const int32_t cx = cells[c][0], cy = cells[c][1], cz = cells[c][2];
            test_map *m = map_new(-10, -10, -10, 20, 20, 20);
            map_set(m, cx, cy, cz, kinds[k]);
            shove_world *w = world_with(m, V(0, 0, 0));
            /* A 0.2 box over the middle of the cell, 6 above it. */
            const float x = (float)cx + 0.4f, z = (float)cz + 0.4f;
            const shove_aabb start = BOX(x, cy + 6, z, x + 0.2f, cy + 6.5f, z + 0.2f);
            const shove_id id = add_mover(w, start);
            const shove_move_result r = move(w, id, V(0, -20, 0), NULL);
            check_move(m, V(0, 0, 0), start, V(0, -20, 0), &r, 0.0f, "landing");
            const float top = (float)cy + tops[k];
            cr_expect(r.box.min.raw[1] >= top && r.box.min.raw[1] <= top + 2.0f * SKIN,
                      "kind %d cell %d: landed at %.9g, top %.9g", kinds[k], c,
                      (double)r.box.min.raw[1], (double)top);
            cr_expect(r.on_ground, "kind %d cell %d", kinds[k], c);
            /* Sideways into it, from both sides, at mid-height of its solid
             * part: stopped at its face. */
            const float low = (kinds[k] == CELL_SLAB_TOP) ? 0.6f : 0.1f;
            for (int side = -1; side <= 1; side += 2) {
                const float from = side > 0 ? (float)cx - 2.0f : (float)cx + 2.8f;
                const shove_aabb s = BOX(from, cy + low, z, from + 0.2f, cy + low + 0.3f, z + 0.2f);
                cr_assert_eq(SHOVE_FN(body_set_box)(w, id, s), SHOVE_OK);
                const shove_vec d = V(4.0f * (float)side, 0, 0);
                const shove_move_result h = move(w, id, d, NULL);
                check_move(m, V(0, 0, 0), s, d, &h, 0.0f, "sideways");
                cr_expect(h.hit_wall, "kind %d cell %d side %d", kinds[k], c, side);
                cr_expect(fabsf(h.delta.raw[0]) < 4.0f);
            }
            /* Under a top slab a flat mover passes below it. */
            if (kinds[k] == CELL_SLAB_TOP) {
                const shove_aabb s = BOX(cx - 2.0f, cy + 0.1f, z, cx - 1.8f, cy + 0.4f, z + 0.2f);
                cr_assert_eq(SHOVE_FN(body_set_box)(w, id, s), SHOVE_OK);
                const shove_move_result h = move(w, id, V(4, 0, 0), NULL);
                EXPECT_VEC_EQ(h.delta, V(4, 0, 0));
            }
            SHOVE_FN(world_destroy)(w);
            map_free(m);
        }
    }
}

/* >>random terrain ------------------------------------------------------------ */

enum { TERRAIN = 48 };

/* Columns of random height (0 .. 5 full cells over a floor at y = -1) with
 * a random top: nothing, a slab, a stair or a fence; cells x, z in
 * [-24, 24). Negative x and z on purpose. */
static test_map *random_terrain(test_rng *rng) {
    test_map *m = map_new(-TERRAIN / 2, -2, -TERRAIN / 2, TERRAIN, 12, TERRAIN);
    for (int32_t x = -TERRAIN / 2; x < TERRAIN / 2; ++x) {
        for (int32_t z = (SHOVE_DIM == 3 ? -TERRAIN / 2 : 0);
             z < (SHOVE_DIM == 3 ? TERRAIN / 2 : 1); ++z) {
            map_set(m, x, -1, z, CELL_FULL);
            const int h = test_rng_int(rng, 0, 5) * (test_rng_int(rng, 0, 2) == 0);
            for (int y = 0; y < h; ++y) {
                map_set(m, x, y, z, CELL_FULL);
            }
            const int top = test_rng_int(rng, 0, 5);
            const int kinds[6] = {CELL_EMPTY, CELL_SLAB_BOTTOM, CELL_STAIR,
                                  CELL_FENCE, CELL_EMPTY,       CELL_SLAB_BOTTOM};
            map_set(m, x, h, z, kinds[top]);
        }
    }
    return m;
}

Test(voxel_world, a_world_move_over_voxels_equals_a_slide_over_the_same_boxes) {
    test_rng rng = {0xC0FFEEu};
    test_map *m = random_terrain(&rng);
    shove_world *w = world_with(m, V(0, 0, 0));
    const shove_id id = add_mover(w, player_at(0, 20, 0));
    shove_aabb list[4096];
    int joined = 0;
    for (int trial = 0; trial < 600; ++trial) {
        /* A start box free of terrain near the ground. */
        shove_aabb start;
        do {
            const float x = test_rng_float(&rng, -18, 18), z = test_rng_float(&rng, -18, 18);
            start = BOX(x, test_rng_float(&rng, 0, 7), z, x + test_rng_float(&rng, 0.2f, 1.5f), 0,
                        z + test_rng_float(&rng, 0.2f, 1.5f));
            start.max.raw[1] = start.min.raw[1] + test_rng_float(&rng, 0.2f, 2.0f);
        } while (map_overlaps(m, V(0, 0, 0), 1.0f, start));
        const shove_vec d = V(test_rng_float(&rng, -2, 2), test_rng_float(&rng, -2, 1),
                              test_rng_float(&rng, -2, 2));
        shove_move_def def = walker_def(trial % 2 == 0);
        def.step_height = (trial % 3 == 0) ? 0.0f : 0.6f;
        /* Every voxel box within 4 cells of the move, as a list. */
        size_t n = 0;
        for (int32_t z = -TERRAIN / 2; z < TERRAIN / 2; ++z) {
            for (int32_t y = -2; y < 10; ++y) {
                for (int32_t x = -TERRAIN / 2; x < TERRAIN / 2; ++x) {
                    const shove_vec c = V(x, y, z);
                    bool near = true;
                    for (int a = 0; a < SHOVE_DIM; ++a) {
                        near = near && c.raw[a] > start.min.raw[a] - 6.0f &&
                               c.raw[a] < start.max.raw[a] + 6.0f;
                    }
                    if (!near || (SHOVE_DIM == 2 && z != 0)) {
                        continue;
                    }
                    shove_aabb s[SHOVE_VOXEL_MAX_BOXES];
                    const int k = map_shapes_of(map_get(m, x, y, z), s);
                    for (int i = 0; i < k; ++i) {
                        for (int a = 0; a < SHOVE_DIM; ++a) {
                            s[i].min.raw[a] += c.raw[a];
                            s[i].max.raw[a] += c.raw[a];
                        }
                        cr_assert(n < 4096);
                        list[n++] = s[i];
                    }
                }
            }
        }
        shove_move_result a, b;
        cr_assert_eq(SHOVE_FN(slide)(start, d, list, n, &def, &a), SHOVE_OK);
        cr_assert_eq(SHOVE_FN(body_set_box)(w, id, start), SHOVE_OK);
        cr_assert_eq(SHOVE_FN(move)(w, id, d, &def, &b), SHOVE_OK);
        cr_assert(memcmp(&a.box, &b.box, sizeof a.box) == 0, "trial %d: boxes differ", trial);
        cr_assert(memcmp(&a.delta, &b.delta, sizeof a.delta) == 0, "trial %d", trial);
        cr_assert_eq(a.on_ground, b.on_ground, "trial %d", trial);
        cr_assert_eq(a.hit_wall, b.hit_wall, "trial %d", trial);
        cr_assert_eq(a.hit_ceiling, b.hit_ceiling, "trial %d", trial);
        cr_assert_eq(a.stepped, b.stepped, "trial %d", trial);
        /* The voxel gather joins runs of voxel boxes along x: fewer contacts
         * for the same surfaces, never more. */
        cr_assert(b.contact_count <= a.contact_count, "trial %d", trial);
        cr_assert_eq(b.contact_count > 0, a.contact_count > 0, "trial %d", trial);
        joined += b.contact_count < a.contact_count;
    }
    cr_expect(joined > 0, "no run of voxels was ever joined");
    SHOVE_FN(world_destroy)(w);
    map_free(m);
}

Test(voxel_world, long_falls_and_long_slides_never_end_inside_terrain) {
    test_rng rng = {0xFA11u};
    test_map *m = random_terrain(&rng);
    shove_world *w = world_with(m, V(0, 0, 0));
    const shove_id id = add_mover(w, player_at(0, 20, 0));
    int landed = 0;
    for (int trial = 0; trial < 1200; ++trial) {
        const float x = test_rng_float(&rng, -20, 19), z = test_rng_float(&rng, -20, 19);
        const float size = test_rng_float(&rng, 0.1f, 1.2f);
        const shove_aabb start = BOX(x, 8, z, x + size, 8 + 2.0f * size, z + size);
        const shove_move_def def = walker_def(trial % 2 == 0);
        /* A long fall, nearly straight down. */
        const shove_vec fall = V(test_rng_float(&rng, -2, 2), -test_rng_float(&rng, 10, 400),
                                 test_rng_float(&rng, -2, 2));
        cr_assert_eq(SHOVE_FN(body_set_box)(w, id, start), SHOVE_OK);
        const shove_move_result r = move(w, id, fall, &def);
        check_move(m, V(0, 0, 0), start, fall, &r, 0.0f, "fall");
        /* A fall that lands on a post and slides on ends the move in the air
         * over its edge (the slide keeps the landing); the next fall lands. */
        const shove_move_result g = move(w, id, V(0, -20, 0), &def);
        check_move(m, V(0, 0, 0), r.box, V(0, -20, 0), &g, 0.0f, "settle");
        landed += g.on_ground ? 1 : 0;
        cr_assert(r.box.min.raw[1] >= 0.0f || r.box.max.raw[0] < -24.0f ||
                      r.box.min.raw[0] > 24.0f ||
                      (SHOVE_DIM == 3 && (r.box.max.raw[2] < -24.0f || r.box.min.raw[2] > 24.0f)),
                  "fell through the floor at y %.9g", (double)r.box.min.raw[1]);
        /* Then a long slide over the ground, any direction, pressed down. */
        const shove_vec slide =
            V(test_rng_float(&rng, -30, 30), -0.5f, test_rng_float(&rng, -30, 30));
        const shove_move_result s = move(w, id, slide, &def);
        /* (a long move runs in pieces and may climb a step in each) */
        check_move(m, V(0, 0, 0), g.box, slide, &s, 12.0f, "slide");
    }
    cr_expect_eq(landed, 1200);
    SHOVE_FN(world_destroy)(w);
    map_free(m);
}

Test(voxel_world, long_diagonal_moves_in_pieces_land_and_touch) {
    test_map *m = map_new(-64, -4, -64, 128, 8, 128);
    for (int32_t x = -64; x < 64; ++x) {
        for (int32_t z = (SHOVE_DIM == 3 ? -64 : 0); z < (SHOVE_DIM == 3 ? 64 : 1); ++z) {
            map_set(m, x, -1, z, CELL_FULL);
        }
    }
    map_set(m, 30, 0, 0, CELL_FULL); /* a block on the way along x (z cell 0) */
    shove_world *w = world_with(m, V(0, 0, 0));
    const shove_aabb start = BOX(0.25, 10, 0.25, 0.75, 11, 0.75);
    const shove_id id = add_mover(w, start);
    /* Slide: lands on the floor, slides along x (and z) to the block. */
    cr_assert(!SHOVE_IFN(voxel_move_is_short)(&w->voxels, start, V(80, -80, 0)));
    shove_move_result r = move(w, id, V(80, -80, 0), NULL);
    check_move(m, V(0, 0, 0), start, V(80, -80, 0), &r, 0.0f, "slide");
    cr_expect(r.box.min.raw[1] >= 0.0f && r.box.min.raw[1] <= 2.0f * SKIN);
    cr_expect(r.box.max.raw[0] <= 30.0f && r.box.max.raw[0] >= 30.0f - 2.0f * SKIN, "%.9g",
              (double)r.box.max.raw[0]);
    cr_expect(r.on_ground && r.hit_wall);
    /* Touch: stops where it first meets the floor (t = 10 / 40 of the way). */
    shove_move_def touch = SHOVE_FN(default_move_def)();
    touch.response = SHOVE_RESPONSE_TOUCH;
    shove_contact contacts[8];
    touch.contacts = contacts;
    touch.contact_capacity = 8;
    cr_assert_eq(SHOVE_FN(body_set_box)(w, id, start), SHOVE_OK);
    r = move(w, id, V(40, -40, 40), &touch);
    check_move(m, V(0, 0, 0), start, V(40, -40, 40), &r, 0.0f, "touch");
    cr_expect(fabsf(r.box.min.raw[0] - 10.25f) < 0.01f, "%.9g", (double)r.box.min.raw[0]);
    cr_expect(r.box.min.raw[1] >= 0.0f && r.box.min.raw[1] <= 2.0f * SKIN);
    cr_assert_eq(r.contact_count, 1);
    cr_expect(fabsf(contacts[0].t - 0.25f) < 1e-3f, "t %.9g", (double)contacts[0].t);
    EXPECT_VEC_EQ(contacts[0].normal, V(0, 1, 0));
    /* Bounce: off the floor, never below it; the rest of the fall comes
     * back up (bump.lua's reflection), past the start when the floor is
     * met early, and the other axes go the whole way. */
    shove_move_def bounce = SHOVE_FN(default_move_def)();
    bounce.response = SHOVE_RESPONSE_BOUNCE;
    cr_assert_eq(SHOVE_FN(body_set_box)(w, id, start), SHOVE_OK);
    r = move(w, id, V(-40, -40, 20), &bounce);
    check_move(m, V(0, 0, 0), start, V(-40, 40, 20), &r, 0.0f, "bounce");
    cr_expect(r.box.min.raw[1] > start.min.raw[1], "%.9g", (double)r.box.min.raw[1]);
    cr_expect(fabsf(r.delta.raw[0] + 40.0f) < 1e-3f, "%.9g", (double)r.delta.raw[0]);
    /* 10 down to the floor, the other 30 back up: 20 above the start */
    cr_expect(fabsf(r.delta.raw[1] - 20.0f) < 1e-3f, "%.9g", (double)r.delta.raw[1]);
    SHOVE_FN(world_destroy)(w);
    map_free(m);
}

/* A long BOUNCE move into a wall the mover touches runs in pieces: the
 * first piece reflects, the rest go back the other way. Their sum never
 * ends further back than the request's length (rule 2's bounce); summed
 * plain pieces passed it by their rounding (a fuzzed input, fuzz_world:
 * corpus/world/world-long-move-back-past-its-request, 18.0000019 back
 * for +18). */
Test(voxel_world, a_long_bounce_in_pieces_ends_within_the_request_length) {
    test_map *m = map_new(-64, -4, -64, 128, 8, 128);
    for (int32_t y = -4; y < 4; ++y) {
        for (int32_t z = (SHOVE_DIM == 3 ? -64 : 0); z < (SHOVE_DIM == 3 ? 64 : 1); ++z) {
            map_set(m, 30, y, z, CELL_FULL);
        }
    }
    shove_world *w = world_with(m, V(0, 0, 0));
    const shove_aabb start = BOX(29.4f, 0.5f, 0.25f, 30, 2.3f, 0.85f);
    const shove_id id = add_mover(w, start);
    shove_move_def bounce = SHOVE_FN(default_move_def)();
    bounce.response = SHOVE_RESPONSE_BOUNCE;
    int reflected = 0;
    for (int i = 0; i < 64; ++i) {
        const float length = 8.0f + 0.37f * (float)i; /* pieces whose length is not exact */
        cr_assert_eq(SHOVE_FN(body_set_box)(w, id, start), SHOVE_OK);
        cr_assert(!SHOVE_IFN(voxel_move_is_short)(&w->voxels, start, V(length, 0, 0)));
        const shove_move_result r = move(w, id, V(length, 0, 0), &bounce);
        cr_expect(r.delta.raw[0] >= -length && r.delta.raw[0] <= 0.0f, "%.9g back for %.9g",
                  (double)r.delta.raw[0], (double)length);
        cr_expect(!map_overlaps(m, V(0, 0, 0), 1.0f, r.box));
        reflected += r.delta.raw[0] < -0.5f * length;
    }
    cr_expect_eq(reflected, 64, "the wall reflected every move");
    SHOVE_FN(world_destroy)(w);
    map_free(m);
}

/* A mover without width on x lying on the face two voxels of a solid row
 * share touches both and overlaps neither, as with the row's boxes one by
 * one: moves and steps treat it as shove_slide over those boxes does, though
 * the world's gather joins the row into one box elsewhere. */
Test(voxel_world, a_line_on_a_seam_inside_a_row_moves_as_over_the_row_s_boxes) {
    enum { ROW = 8 };
    test_map *m = map_new(-4, -4, -4, 16, 8, 8);
    shove_aabb cells[ROW];
    for (int32_t x = 0; x < ROW; ++x) {
        map_set(m, x, 0, 0, CELL_FULL);
        cells[x] = BOX((float)x, 0, 0, (float)x + 1, 1, 1);
    }
    shove_world *w = world_with(m, V(0, 0, 0));
    const shove_aabb line = BOX(3, 0.25f, 0.25f, 3, 0.75f, 0.75f);
    const shove_id id = add_mover(w, line);
    const shove_move_def def = SHOVE_FN(default_move_def)();
    const shove_vec deltas[] = {V(5, 0, 0),    V(-5, 0, 0),   V(0.4f, 0, 0), V(40, 0, 0),
                                V(2, 0.3f, 0), V(0, 0.6f, 0), V(0, 0, 0.6f), V(-3, -0.2f, 0.1f)};
    int blocked = 0;
    for (size_t i = 0; i < sizeof deltas / sizeof deltas[0]; ++i) {
        const shove_vec d = deltas[i];
        shove_move_result want;
        cr_assert_eq(SHOVE_FN(slide)(line, d, cells, ROW, &def, &want), SHOVE_OK);
        cr_assert_eq(SHOVE_FN(body_set_box)(w, id, line), SHOVE_OK);
        const shove_move_result got = move(w, id, d, &def);
        cr_expect(memcmp(&got.box, &want.box, sizeof got.box) == 0, "move %zu: x %.9g against %.9g",
                  i, (double)got.box.min.raw[0], (double)want.box.min.raw[0]);
        cr_expect_eq(got.hit_wall, want.hit_wall, "move %zu", i);
        /* The same motion in a step, the body alone in the world. */
        cr_assert_eq(SHOVE_FN(body_set_box)(w, id, line), SHOVE_OK);
        cr_assert_eq(SHOVE_FN(body_set_motion)(w, id, d), SHOVE_OK);
        cr_assert_eq(SHOVE_FN(world_step)(w), SHOVE_OK);
        shove_aabb stepped;
        cr_assert_eq(SHOVE_FN(body_get_box)(w, id, &stepped), SHOVE_OK);
        cr_expect(memcmp(&stepped, &want.box, sizeof stepped) == 0, "step %zu: x %.9g against %.9g",
                  i, (double)stepped.min.raw[0], (double)want.box.min.raw[0]);
        blocked += want.delta.raw[0] == 0.0f && d.raw[0] != 0.0f;
    }
    cr_expect_eq(blocked, 6, "the row stops every motion along x at once");
    SHOVE_FN(world_destroy)(w);
    map_free(m);
}

/* >>mobs -------------------------------------------------------------------- */

Test(voxel_world, wandering_mobs_never_end_inside_terrain) {
    test_rng rng = {0x30B5u};
    test_map *m = random_terrain(&rng);
    shove_world *w = world_with(m, V(0, 0, 0));
    enum { MOBS = 60, FRAMES = 200 };
    shove_id ids[MOBS];
    shove_vec heading[MOBS];
    for (int i = 0; i < MOBS; ++i) {
        const float x = test_rng_float(&rng, -20, 19), z = test_rng_float(&rng, -20, 19);
        ids[i] = add_mover(w, player_at(x, 9, z));
        heading[i] = V(test_rng_float(&rng, -0.15f, 0.15f), 0, test_rng_float(&rng, -0.15f, 0.15f));
    }
    const shove_move_def def = walker_def(true);
    int steps = 0;
    for (int f = 0; f < FRAMES; ++f) {
        for (int i = 0; i < MOBS; ++i) {
            if (test_rng_int(&rng, 0, 30) == 0) {
                heading[i] =
                    V(test_rng_float(&rng, -0.15f, 0.15f), 0, test_rng_float(&rng, -0.15f, 0.15f));
            }
            shove_vec d = heading[i];
            d.raw[1] = -0.3f;
            shove_aabb before;
            cr_assert_eq(SHOVE_FN(body_get_box)(w, ids[i], &before), SHOVE_OK);
            const shove_move_result r = move(w, ids[i], d, &def);
            check_move(m, V(0, 0, 0), before, d, &r, def.step_height, "mob");
            steps += r.stepped ? 1 : 0;
            for (int a = 0; a < SHOVE_DIM; ++a) {
                if (a != 1 && r.delta.raw[a] == 0.0f) {
                    heading[i].raw[a] = -heading[i].raw[a];
                }
            }
        }
    }
    cr_expect(steps > 0);
    SHOVE_FN(world_destroy)(w);
    map_free(m);
}

/* >>the room above: read when a step-up is tried ----------------------- */

/* A floor with its top at y = 0, a slab (top at 0.5) at cell x = 2 and,
 * with `ceiling`, a block at cell (2, 2): a player walking +x from x = 1.3
 * meets the slab, and stepping onto it would put its head (0.5 + 1.8) into
 * that block. */
static test_map *step_under_ceiling(bool ceiling) {
    test_map *m = map_new(-4, -2, -4, 12, 8, 9);
    for (int32_t x = -4; x < 8; ++x) {
        for (int32_t z = -4; z < 5; ++z) {
            map_set(m, x, -1, z, CELL_FULL);
            map_set(m, 2, 0, z, CELL_SLAB_BOTTOM);
            if (ceiling) {
                map_set(m, 2, 2, z, CELL_FULL);
            }
        }
    }
    return m;
}

/* Every box of a step_under_ceiling map, in world coordinates, into
 * `list` (room for 1024); returns how many. */
static size_t step_map_boxes(const test_map *m, shove_aabb list[1024]) {
    size_t n = 0;
    for (int32_t x = -4; x < 8; ++x) {
        for (int32_t y = -2; y < 6; ++y) {
            for (int32_t z = (SHOVE_DIM == 3 ? -4 : 0); z < (SHOVE_DIM == 3 ? 5 : 1); ++z) {
                shove_aabb s[SHOVE_VOXEL_MAX_BOXES];
                const int k = map_shapes_of(map_get(m, x, y, z), s);
                for (int i = 0; i < k; ++i) {
                    const shove_vec c = V(x, y, z);
                    for (int a = 0; a < SHOVE_DIM; ++a) {
                        s[i].min.raw[a] += c.raw[a];
                        s[i].max.raw[a] += c.raw[a];
                    }
                    cr_assert(n < 1024);
                    list[n++] = s[i];
                }
            }
        }
    }
    return n;
}

/* A move reads the cells above the mover's head only once it tries a
 * step-up; that step-up then meets everything up there, as a slide over
 * every box does. */
Test(voxel_world, a_step_up_under_a_low_ceiling_is_refused_as_over_a_list) {
    for (int ceiling = 0; ceiling < 2; ++ceiling) {
        test_map *m = step_under_ceiling(ceiling != 0);
        shove_world *w = world_with(m, V(0, 0, 0));
        const shove_aabb start = player_at(1.3f, 0.0f, 0.2f);
        const shove_id id = add_mover(w, start);
        const shove_move_def def = walker_def(false);
        const shove_vec d = V(0.5, -0.1, 0);
        const shove_move_result r = move(w, id, d, &def);
        /* the same move over every box of the map, as a list */
        shove_aabb list[1024];
        const size_t n = step_map_boxes(m, list);
        shove_move_result l;
        cr_assert_eq(SHOVE_FN(slide)(start, d, list, n, &def, &l), SHOVE_OK);
        cr_expect(memcmp(&r.box, &l.box, sizeof r.box) == 0, "ceiling %d", ceiling);
        cr_expect_eq(r.stepped, l.stepped, "ceiling %d", ceiling);
        cr_expect_eq(r.stepped, ceiling == 0, "ceiling %d: a step-up only without it", ceiling);
        cr_expect(!map_overlaps(m, V(0, 0, 0), 1.0f, r.box), "ceiling %d", ceiling);
        SHOVE_FN(world_destroy)(w);
        map_free(m);
    }
}

/* The step-up's gather reads the cells again with the room above; the pair
 * of gathers is held to the budget one full gather is (each within it, not
 * their sum): the least max_cells that lets the move run is below what it
 * reads in all. */
Test(voxel_world, the_gather_again_for_a_step_up_is_held_to_one_gather_s_budget) {
    test_map *m = step_under_ceiling(false);
    shove_world *w = world_with(m, V(0, 0, 0));
    const shove_aabb start = player_at(1.3f, 0.0f, 0.2f);
    const shove_id id = add_mover(w, start);
    const shove_move_def def = walker_def(false);
    const shove_vec d = V(0.5, -0.1, 0);
    m->calls = 0;
    const shove_move_result r = move(w, id, d, &def);
    cr_assert(r.stepped);
    const long read = m->calls;
    /* the least budget it runs on */
    uint32_t least = 0;
    for (uint32_t cells = 1; cells <= (uint32_t)read && least == 0; ++cells) {
        /* a move that tries no step-up first: a body whose last move tried
         * one gathers the room above at once */
        shove_voxel_def vd = map_def(m, V(0, 0, 0), 1.0f);
        cr_assert_eq(SHOVE_FN(world_set_voxels)(w, &vd), SHOVE_OK);
        cr_assert_eq(SHOVE_FN(body_set_box)(w, id, start), SHOVE_OK);
        cr_assert(!move(w, id, V(-0.1, -0.1, 0), &def).stepped);
        vd.max_cells = cells;
        cr_assert_eq(SHOVE_FN(world_set_voxels)(w, &vd), SHOVE_OK);
        cr_assert_eq(SHOVE_FN(body_set_box)(w, id, start), SHOVE_OK);
        shove_move_result t;
        const shove_status s = SHOVE_FN(move)(w, id, d, &def, &t);
        if (s == SHOVE_OK) {
            cr_expect(memcmp(&t.box, &r.box, sizeof t.box) == 0, "budget %u", cells);
            least = cells;
        } else {
            cr_assert_eq(s, SHOVE_ERR_OUT_OF_RANGE, "budget %u", cells);
            shove_aabb now;
            cr_assert_eq(SHOVE_FN(body_get_box)(w, id, &now), SHOVE_OK);
            cr_assert(memcmp(&now, &start, sizeof now) == 0, "a refused move moved");
        }
    }
    cr_assert_gt(least, 0u);
    cr_expect_lt((long)least, read, "read %ld cells, runs on %u", read, least);
    SHOVE_FN(world_destroy)(w);
    map_free(m);
}

/* That second gather can meet a lying callback: the move then fails as a
 * move whose one gather meets it does, and changes nothing. A move that
 * tries no step-up reads nothing up there. */
Test(voxel_world, a_lie_in_the_room_above_fails_only_the_move_that_steps) {
    test_map *m = step_under_ceiling(false);
    /* row 2: the room a step-up onto the slab needs above the head */
    m->lie_in_row = true;
    m->lie_y = 2;
    shove_world *w = world_with(m, V(0, 0, 0));
    const shove_aabb start = player_at(1.3f, 0.0f, 0.2f);
    const shove_id id = add_mover(w, start);
    const shove_move_def def = walker_def(false);
    shove_move_result r;
    memset(&r, 0xAB, sizeof r);
    const shove_move_result sentinel = r;
    cr_expect_eq(SHOVE_FN(move)(w, id, V(0.5, -0.1, 0), &def, &r), SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect(memcmp(&r, &sentinel, sizeof r) == 0, "a failed move wrote its result");
    shove_aabb now;
    cr_assert_eq(SHOVE_FN(body_get_box)(w, id, &now), SHOVE_OK);
    cr_expect(memcmp(&now, &start, sizeof now) == 0, "a failed move moved");
    /* away from the slab: no step-up, nothing read in row 2 */
    r = move(w, id, V(-0.5, -0.1, 0), &def);
    cr_expect(!r.stepped);
    cr_expect_eq(r.box.min.raw[0], start.min.raw[0] - 0.5f);
    SHOVE_FN(world_destroy)(w);
    map_free(m);
}

/* Until a step-up is tried, an unguarded move reads below its swept box
 * only as far as the ground probe looks: a mover hovering a skin and a half
 * over the floor (within the probe) still stands on it, as over a list. */
Test(voxel_world, an_unguarded_move_still_sees_the_ground_its_probe_reaches) {
    test_map *m = step_under_ceiling(false);
    shove_world *w = world_with(m, V(0, 0, 0));
    shove_move_def def = walker_def(false);
    def.skin = 0.01f;
    const shove_aabb start = player_at(-2.0f, 0.015f, 0.2f);
    const shove_id id = add_mover(w, start);
    const shove_vec d = V(0.25, 0, 0);
    const shove_move_result r = move(w, id, d, &def);
    shove_aabb list[1024];
    const size_t n = step_map_boxes(m, list);
    shove_move_result l;
    cr_assert_eq(SHOVE_FN(slide)(start, d, list, n, &def, &l), SHOVE_OK);
    cr_expect(l.on_ground, "the list's answer: on the ground");
    cr_expect_eq(r.on_ground, l.on_ground);
    cr_expect(memcmp(&r.box, &l.box, sizeof r.box) == 0);
    SHOVE_FN(world_destroy)(w);
    map_free(m);
}

/* >>a long move's contacts, whatever room the world had (fuzz_world) --- */

static shove_response respond_slide(void *ctx, shove_id mover, const shove_obstacle *obstacle) {
    (void)ctx;
    (void)mover;
    (void)obstacle;
    return SHOVE_RESPONSE_SLIDE;
}

/* A tall body standing in a 6 x 6 block of voxels of half a unit (the
 * corpus input pieces-count-independent-of-contact-room) moves up 6.25, in
 * pieces: how many contacts it reports. With `room_grown`, a move touching
 * 40 crates far away first grows the world's contact array past what the
 * long move needs. */
static int long_move_contacts(bool room_grown) {
    static const int cells[][3] = {
        {0, 0, CELL_FULL}, {0, 1, CELL_FULL},        {0, 2, CELL_FULL}, {0, 4, CELL_FULL},
        {0, 5, CELL_FULL}, {1, 3, CELL_FENCE},       {1, 5, CELL_FULL}, {2, 0, CELL_FULL},
        {2, 1, CELL_FULL}, {2, 2, CELL_FULL},        {2, 3, CELL_FULL}, {2, 4, CELL_FULL},
        {3, 4, CELL_FULL}, {3, 5, CELL_SLAB_BOTTOM}, {4, 0, CELL_FULL}, {4, 1, CELL_FULL},
        {4, 3, CELL_FULL}, {4, 4, CELL_FULL},        {5, 4, CELL_FULL}, {5, 5, CELL_SLAB_BOTTOM},
    };
    test_map *m = map_new(0, 0, 0, 6, 6, 1);
    for (size_t i = 0; i < sizeof cells / sizeof cells[0]; ++i) {
        map_set(m, cells[i][0], cells[i][1], 0, cells[i][2]);
    }
    shove_world *w = NULL;
    cr_assert_eq(SHOVE_FN(world_create)(NULL, &w), SHOVE_OK);
    const shove_voxel_def d = map_def(m, V(0, -16.25, 0), 0.5f);
    cr_assert_eq(SHOVE_FN(world_set_voxels)(w, &d), SHOVE_OK);
    add_mover(w, BOX(-0.25, 15.5, 0, 0, 15.75, 0.5));
    const shove_id tall = add_mover(w, BOX(0, -16.25, 0, 6.5, 15.5, 0.5));
    shove_move_result r;
    if (room_grown) {
        shove_id crates[40];
        shove_body_def crate = SHOVE_FN(default_body_def)();
        for (int i = 0; i < 40; ++i) {
            crate.box = BOX(100 + i, 0, 0, 100.5f + (float)i, 1, 1);
            cr_assert_eq(SHOVE_FN(body_create)(w, &crate, &crates[i]), SHOVE_OK);
        }
        const shove_id runner = add_mover(w, BOX(100, 1, 0, 140, 2, 1));
        cr_assert_eq(SHOVE_FN(move)(w, runner, V(0, -0.5, 0), NULL, &r), SHOVE_OK);
        cr_assert_geq(r.contact_count, 40);
        cr_assert_eq(SHOVE_FN(body_destroy)(w, runner), SHOVE_OK);
        for (int i = 0; i < 40; ++i) {
            cr_assert_eq(SHOVE_FN(body_destroy)(w, crates[i]), SHOVE_OK);
        }
    }
    shove_move_def def = SHOVE_FN(default_move_def)();
    def.skin = SKIN;
    def.step_height = 1.0f;
    def.edge_guard = true;
    def.filter = respond_slide;
    cr_assert_eq(SHOVE_FN(move)(w, tall, V(0, 6.25, 0), &def, &r), SHOVE_OK);
    SHOVE_FN(world_destroy)(w);
    map_free(m);
    return r.contact_count;
}

Test(voxel_world, a_long_move_counts_its_contacts_whatever_room_earlier_moves_left) {
    const int fresh = long_move_contacts(false);
    const int grown = long_move_contacts(true);
    cr_expect_gt(fresh, 0);
    cr_expect_eq(fresh, grown, "%d contacts in a fresh world, %d after a move grew the room", fresh,
                 grown);
}
