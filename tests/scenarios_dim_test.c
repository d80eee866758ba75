/*
 * scenarios_dim_test.c: scenarios 1-8 and 11 below as lists of boxes, the
 * failure pictures of the articles in the README's credits, and a
 * randomized checker of the four rules of a move (shove3_move in
 * include/shove/shove3.h; the README's "Guarantees") against brute force,
 * in 2D and 3D.
 *
 * The numbered scenarios every release must get right; tests elsewhere
 * name them by these numbers:
 *    1 seam floor: floors and walls of separate touching boxes act as one
 *    2 corner: pushed diagonally into a tiled inner corner
 *    3 narrow passage: a gap a little narrower than the mover
 *    4 exact fit: a mover exactly as wide as the gap passes
 *    5 diagonal landing: landing keeps the whole horizontal motion
 *    6 tunnelling: 500 units in one call at a wall 0.01 thick
 *    7 gap smaller than the mover: a pressed mover never dips into it
 *    8 mandatory shoves: the obstacle only one axis can clear goes first
 *    9 transitive shove: pushes pass along a chain by priority
 *      (step_dim_test.c)
 *   10 moving platform: riders are carried (step_dim_test.c)
 *   11 steps: step up a half slab, not a full block; the edge guard
 *   12 far from the origin: 1 and 11 the same after an origin shift
 *      (voxel_world_dim_test.c)
 *   13 defs written the C way (defs_dim_test.c)
 *   14 callbacks that call back (locking_dim_test.c)
 *   15 absurd motions (extremes_dim_test.c)
 *   16 long diagonal moves (voxel_world_dim_test.c)
 *   17 seams in casts (cast_seams_dim_test.c)
 *   18 crowds on workers (workers_dim_test.c)
 *
 * Scenes are drawn in x (sideways) and y (up). In 3D obstacles get z in
 * [0, 1] (or wider) and movers z in [0.25, 0.75], so every picture is a slab.
 */
#include "test_dim.h"

#define SKIN (1.0f / 1024.0f)

static shove_aabb mover_at(float x, float y, float w, float h) {
    return BOX(x, y, 0.25, x + w, y + h, 0.75);
}

static shove_aabb block(float x0, float y0, float x1, float y1) {
    return BOX(x0, y0, 0, x1, y1, 1);
}

static shove_move_result slide(shove_aabb box, shove_vec delta, const shove_aabb *obs, size_t n,
                               const shove_move_def *def) {
    shove_move_result r;
    const shove_status st = SHOVE_FN(slide)(box, delta, obs, n, def, &r);
    cr_assert_eq(st, SHOVE_OK, "slide refused: %s", shove_status_string(st));
    return r;
}

static bool overlaps_any(shove_aabb b, const shove_aabb *obs, size_t n) {
    for (size_t i = 0; i < n; ++i) {
        if (SHOVE_FN(aabb_overlaps)(b, obs[i])) {
            return true;
        }
    }
    return false;
}

static bool same_box(shove_aabb a, shove_aabb b) {
    return memcmp(&a, &b, sizeof a) == 0;
}

static shove_aabb resolve(shove_aabb box, shove_vec motion, const shove_aabb *obs, size_t n,
                          shove_resolve_mode mode) {
    shove_aabb out;
    cr_assert_eq(SHOVE_FN(resolve)(box, motion, obs, n, mode, &out), SHOVE_OK);
    return out;
}

static shove_aabb moved(shove_aabb b, shove_vec d) {
    for (int i = 0; i < SHOVE_DIM; ++i) {
        b.min.raw[i] += d.raw[i];
        b.max.raw[i] += d.raw[i];
    }
    return b;
}

/* >>1 seam floor --------------------------------------------------------- */

Test(scenario1, seam_floor_of_fifty_boxes) {
    shove_aabb tiles[50];
    for (int i = 0; i < 50; ++i) {
        tiles[i] = block((float)i, -1, (float)i + 1, 0);
    }
    /* Resting exactly on the floor (skin 0), and a skin above it (with that
     * skin); pressing
     * down lightly and hard (a corner hit then names the wrong axis). */
    const float starts[] = {0.0f, SKIN};
    const float presses[] = {-0.1f, -0.3f, -5.0f};
    for (int s = 0; s < 2; ++s) {
        shove_move_def def = SHOVE_FN(default_move_def)();
        def.skin = starts[s];
        for (int p = 0; p < 3; ++p) {
            shove_aabb m = mover_at(0.1f, starts[s], 0.5f, 1);
            for (int frame = 0; frame < 100; ++frame) {
                const shove_move_result r = slide(m, V(0.2, presses[p], 0), tiles, 50, &def);
                cr_assert_eq(r.box.min.raw[0], m.min.raw[0] + 0.2f, "press %d frame %d", p, frame);
                cr_assert_eq(r.box.min.raw[1], starts[s], "frame %d: y changed", frame);
                cr_assert(r.on_ground, "frame %d", frame);
                cr_assert(!r.hit_wall, "frame %d: snagged on a seam", frame);
                m = r.box;
            }
        }
    }
}

Test(scenario1, seam_wall_of_stacked_boxes_while_moving_up) {
    shove_aabb tiles[50];
    for (int i = 0; i < 50; ++i) {
        tiles[i] = block(1, (float)i, 2, (float)i + 1);
    }
    shove_move_def def = SHOVE_FN(default_move_def)();
    shove_aabb m = mover_at(0.5f, 0.1f, 0.5f, 0.5f);
    for (int frame = 0; frame < 100; ++frame) {
        const shove_move_result r = slide(m, V(0.1, 0.2, 0), tiles, 50, &def);
        cr_assert_eq(r.box.min.raw[1], m.min.raw[1] + 0.2f, "frame %d", frame);
        cr_assert_eq(r.box.max.raw[0], 1.0f, "frame %d: x changed", frame);
        cr_assert(r.hit_wall && !r.hit_ceiling, "frame %d", frame);
        m = r.box;
    }
}

/* Sorting candidates along the motion fails here: a sort along x picks the
 * wrong tile when the motion is diagonal. Diagonal slides along seamed walls
 * and ceilings, in every direction, must never snag. */
Test(scenario1, diagonal_slides_along_seams_in_every_direction) {
    shove_aabb tiles[40];
    for (int i = 0; i < 40; ++i) {
        tiles[i] = block((float)i - 20, 2, (float)i - 19, 3); /* a seamed ceiling */
    }
    for (int dir = -1; dir <= 1; dir += 2) {
        shove_aabb m = mover_at(-0.3f, 1.0f, 0.6f, 1.0f); /* head touching the ceiling */
        for (int frame = 0; frame < 30; ++frame) {
            const shove_vec d = V(0.37f * (float)dir, 0.45f, 0);
            const shove_move_result r = slide(m, d, tiles, 40, NULL);
            cr_assert_eq(r.delta.raw[0], d.raw[0], "frame %d dir %d: snagged", frame, dir);
            cr_assert_eq(r.delta.raw[1], 0.0f);
            cr_assert(r.hit_ceiling && !r.hit_wall);
            m = r.box;
        }
    }
}

/* >>2 corner ------------------------------------------------------------- */

Test(scenario2, pushed_diagonally_into_a_tiled_inner_corner) {
    shove_aabb tiles[20];
    int n = 0;
    for (int i = 0; i < 10; ++i) {
        tiles[n++] = block((float)i, -1, (float)i + 1, 0); /* floor */
        tiles[n++] = block(-1, (float)i, 0, (float)i + 1); /* wall */
    }
    const float skins[] = {0.0f, SKIN};
    for (int s = 0; s < 2; ++s) {
        shove_move_def def = SHOVE_FN(default_move_def)();
        def.skin = skins[s];
        shove_aabb m = mover_at(3.3f, 4.1f, 0.5f, 0.5f);
        for (int frame = 0; frame < 4; ++frame) {
            const shove_move_result r = slide(m, V(-2.7, -3.1, 0), tiles, (size_t)n, &def);
            m = r.box;
            cr_assert(!overlaps_any(m, tiles, (size_t)n));
        }
        cr_expect_eq(m.min.raw[0], skins[s], "x rests on the wall");
        cr_expect_eq(m.min.raw[1], skins[s], "y rests on the floor");
        const shove_move_result r = slide(m, V(-1, -1, 0), tiles, (size_t)n, &def);
        EXPECT_VEC_EQ(r.delta, V(0, 0, 0));
        cr_expect(r.on_ground && r.hit_wall);
    }
}

#if SHOVE_DIM == 3
Test(scenario2, crease_of_two_walls_slides_and_three_walls_stop) {
    const shove_aabb walls[] = {BOX(-1, -5, -5, 0, 5, 5), BOX(-5, -5, -1, 5, 5, 0),
                                BOX(-5, -1, -5, 5, 0, 5)};
    shove_move_def def = SHOVE_FN(default_move_def)();
    def.up_axis = -1;
    def.skin = 0.0f;
    /* Two walls (x and z): the mover slides along their crease, along y. */
    const shove_aabb m = BOX(1, 1, 1, 2, 2, 2);
    shove_move_result r = slide(m, V(-3, 2, -4), walls, 2, &def);
    EXPECT_VEC_EQ(r.box.min, V(0, 3, 0));
    cr_expect_eq(r.contact_count, 2);
    /* Three walls: it stops in the corner. */
    r = slide(m, V(-3, -2, -4), walls, 3, &def);
    EXPECT_VEC_EQ(r.box.min, V(0, 0, 0));
    cr_expect_eq(r.contact_count, 3);
}
#endif

/* >>3 narrow passage ----------------------------------------------------- */

Test(scenario3, thrown_at_a_passage_a_bit_too_narrow_lands_and_stays) {
    /* Gap 0.9 between two blocks, mover 1.0 wide, centred over the gap. */
    const shove_aabb blocks[] = {block(-3, -2, -0.45f, 0), block(0.45f, -2, 3, 0)};
    const shove_aabb start = mover_at(-0.5f, 6, 1, 1);
    /* The slide, at any speed. */
    const float speeds[] = {0.3f, 3.0f, 50.0f};
    for (int s = 0; s < 3; ++s) {
        shove_aabb m = start;
        shove_aabb previous = m;
        for (int frame = 0; frame < 60; ++frame) {
            const shove_move_result r = slide(m, V(0, -speeds[s], 0), blocks, 2, NULL);
            cr_assert(!overlaps_any(r.box, blocks, 2));
            previous = m;
            m = r.box;
        }
        cr_expect(same_box(m, previous), "still bit for bit");
        cr_expect(m.min.raw[1] >= 0.0f && m.min.raw[1] <= SKIN, "landed on top");
    }
    /* Every resolver, with a fall slower than the blocks are tall. */
    for (int mode = 0; mode < 3; ++mode) {
        const shove_vec fall = V(0, -0.7, 0);
        shove_aabb m = start;
        for (int frame = 0; frame < 40; ++frame) {
            m = resolve(moved(m, fall), fall, blocks, 2, (shove_resolve_mode)mode);
            cr_assert(!overlaps_any(m, blocks, 2), "mode %d frame %d", mode, frame);
        }
        const shove_aabb rest = m;
        for (int frame = 0; frame < 20; ++frame) {
            m = resolve(moved(m, fall), fall, blocks, 2, (shove_resolve_mode)mode);
            cr_assert(same_box(m, rest), "mode %d oscillates at frame %d", mode, frame);
        }
        cr_expect_eq(m.min.raw[1], 0.0f, "mode %d lands on top", mode);
        cr_expect_eq(m.min.raw[0], -0.5f, "mode %d stays centred", mode);
    }
}

/* Largest overlap's jitter: the passage entered at an angle, off centre, so
 * the smaller push of largest-overlap is sideways into the other block. */
Test(scenario3, largest_overlap_does_not_jitter_between_the_walls) {
    const shove_aabb blocks[] = {block(-3, -2, -0.45f, 0), block(0.45f, -2, 3, 0)};
    const shove_vec motion = V(0.03, -0.2, 0);
    shove_aabb m = mover_at(-0.56f, 0.1f, 1, 1);
    shove_aabb seen[3];
    for (int frame = 0; frame < 30; ++frame) {
        m = resolve(moved(m, motion), motion, blocks, 2, SHOVE_RESOLVE_LARGEST_OVERLAP);
        cr_assert(!overlaps_any(m, blocks, 2));
        seen[frame % 3] = m;
    }
    cr_expect(m.min.raw[1] >= 0.0f, "never sinks into the passage");
    (void)seen;
}

/* >>4 exact fit ---------------------------------------------------------- */

Test(scenario4, exact_fit_passes_without_contact_on_every_axis_and_direction) {
    const float sizes[] = {0.5f, 1.0f, 2.0f};
    for (int si = 0; si < 3; ++si) {
        const float w = sizes[si];
        for (int axis = 0; axis < SHOVE_DIM; ++axis) {
            for (int dir = -1; dir <= 1; dir += 2) {
                /* A tunnel along `axis`: one block on each side of every
                 * other axis, leaving a hole exactly w wide. */
                shove_aabb walls[4];
                int n = 0;
                for (int other = 0; other < SHOVE_DIM; ++other) {
                    if (other == axis) {
                        continue;
                    }
                    for (int side = 0; side < 2; ++side) {
                        shove_aabb b;
                        for (int a = 0; a < SHOVE_DIM; ++a) {
                            b.min.raw[a] = -4.0f;
                            b.max.raw[a] = 4.0f + w;
                        }
                        b.min.raw[axis] = 2.0f;
                        b.max.raw[axis] = 3.0f;
                        if (side == 0) {
                            b.max.raw[other] = 0.0f;
                        } else {
                            b.min.raw[other] = w;
                        }
                        walls[n++] = b;
                    }
                }
                for (int i = 0; i < n; ++i) {
                    /* mirror for the negative direction */
                    if (dir < 0) {
                        const float lo = walls[i].min.raw[axis];
                        walls[i].min.raw[axis] = -walls[i].max.raw[axis] + w;
                        walls[i].max.raw[axis] = -lo + w;
                    }
                }
                shove_aabb m;
                for (int a = 0; a < SHOVE_DIM; ++a) {
                    m.min.raw[a] = 0.0f;
                    m.max.raw[a] = w;
                }
                shove_vec d = shove_vec_splat(0.0f);
                d.raw[axis] = 6.0f * (float)dir;
                shove_contact contacts[4];
                shove_move_def def = SHOVE_FN(default_move_def)();
                def.contacts = contacts;
                def.contact_capacity = 4;
                const shove_move_result r = slide(m, d, walls, (size_t)n, &def);
                EXPECT_VEC_EQ(r.delta, d);
                cr_expect_eq(r.contact_count, 0, "size %g axis %d dir %d", (double)w, axis, dir);
                cr_expect(!r.hit_wall && !r.hit_ceiling);
            }
        }
    }
}

/* The realistic exact fit: a mover that landed on a floor walks into a
 * tunnel exactly its own height. A skin kept above the floor would make it
 * bump into the tunnel's roof; with the default def it walks in. */
Test(scenario4, after_landing_it_walks_into_a_tunnel_its_own_height) {
    const shove_aabb scene[] = {block(-10, -1, 30, 0), block(3, 1, 20, 3)}; /* floor, roof */
    shove_contact contacts[4];
    shove_move_def def = SHOVE_FN(default_move_def)();
    def.contacts = contacts;
    def.contact_capacity = 4;
    shove_aabb m = mover_at(0, 2.3f, 1, 1);
    for (int frame = 0; frame < 40; ++frame) {
        const shove_move_result r = slide(m, V(0.25, -0.5, 0), scene, 2, &def);
        for (int i = 0; i < r.contact_count && i < 4; ++i) {
            cr_assert_eq(contacts[i].index, 0, "frame %d: touched the roof", frame);
        }
        cr_assert_eq(r.delta.raw[0], 0.25f, "frame %d", frame);
        m = r.box;
    }
    cr_expect(m.min.raw[0] > 9.0f && m.min.raw[1] == 0.0f);
}

/* >>5 diagonal landing --------------------------------------------------- */

Test(scenario5, diagonal_landing_keeps_the_whole_horizontal_motion) {
    shove_aabb tiles[30];
    for (int i = 0; i < 30; ++i) {
        tiles[i] = block((float)i - 10, -1, (float)i - 9, 0);
    }
    const shove_vec motions[] = {V(2, -3, 0), V(-1.7, -5, 0), V(3.3, -1.25, 0), V(0.4, -9, 0)};
    for (int k = 0; k < 4; ++k) {
        const shove_aabb m = mover_at(0.3f, 1.0f, 0.5f, 0.5f);
        const shove_move_result r = slide(m, motions[k], tiles, 30, NULL);
        cr_expect_eq(r.delta.raw[0], motions[k].raw[0], "motion %d", k);
        cr_expect(r.box.min.raw[1] >= 0.0f && r.box.min.raw[1] <= SKIN);
        cr_expect(r.on_ground && !r.hit_wall);
        cr_expect(r.contact_count >= 1);
    }
}

/* >>6 tunnelling --------------------------------------------------------- */

Test(scenario6, fast_small_mover_stops_at_a_thin_wall) {
    const shove_aabb wall = BOX(5, -10, -10, 5.01, 10, 10);
    const shove_aabb m = BOX(0, 0, 0, 0.1, 0.1, 0.1);
    shove_move_def def = SHOVE_FN(default_move_def)();
    def.up_axis = -1;
    const float speeds[] = {500.0f, -500.0f};
    for (int s = 0; s < 2; ++s) {
        shove_aabb start = m;
        if (speeds[s] < 0) {
            start = moved(m, V(10, 0, 0));
        }
        const shove_move_result r = slide(start, V(speeds[s], 0.3, 0.2), &wall, 1, &def);
        if (speeds[s] > 0) {
            cr_expect(r.box.max.raw[0] <= 5.0f && r.box.max.raw[0] >= 5.0f - 2 * SKIN);
        } else {
            cr_expect(r.box.min.raw[0] >= 5.01f && r.box.min.raw[0] <= 5.01f + 2 * SKIN);
        }
        cr_expect(r.hit_wall);
    }
    /* The pure casts. */
    shove_hit hit;
    cr_assert(SHOVE_FN(sweep_aabb)(m, V(500, 0.3, 0.2), wall, &hit));
    cr_expect(hit.t > 0.0f && hit.t < 0.0101f);
    cr_assert(SHOVE_FN(ray_aabb)(V(0, 0, 0), V(500, 0, 0), wall, &hit));
    cr_expect_eq(hit.t, 0.01f);
}

/* >>7 gap smaller than the mover ---------------------------------------- */

Test(scenario7, pressed_mover_never_dips_into_a_smaller_hole) {
    const shove_aabb floor_parts[] = {block(-10, -1, 2, 0), block(2.8f, -1, 200, 0)};
    /* The slide, fast and slow. */
    const float speeds[] = {0.05f, 0.3f, 1.7f};
    for (int s = 0; s < 3; ++s) {
        shove_aabb m = mover_at(0, 0, 1, 1);
        for (int frame = 0; frame < 60; ++frame) {
            const shove_move_result r = slide(m, V(speeds[s], -0.2, 0), floor_parts, 2, NULL);
            cr_assert_eq(r.box.min.raw[1], 0.0f, "speed %g frame %d dipped", (double)speeds[s],
                         frame);
            cr_assert(r.on_ground);
            m = r.box;
        }
    }
    /* The hole smaller than the mover, with the discrete resolvers: a
     * motion that ends over the hole, pressed into it. */
    for (int mode = 0; mode < 3; ++mode) {
        shove_aabb m = mover_at(0, 0, 1, 1);
        const shove_vec motion = V(0.3, -0.2, 0);
        for (int frame = 0; frame < 20; ++frame) {
            m = resolve(moved(m, motion), motion, floor_parts, 2, (shove_resolve_mode)mode);
            cr_assert(!overlaps_any(m, floor_parts, 2));
            cr_assert_eq(m.min.raw[1], 0.0f, "mode %d frame %d dipped", mode, frame);
        }
    }
}

/* >>8 mandatory shoves --------------------------------------------------- */

Test(scenario8, the_tile_that_can_only_go_up_decides) {
    /* After the motion the box overlaps tile A (x overlap 0.7: more than the
     * motion, so only up) and tile B (x overlap 0.1: could go left). */
    const shove_aabb tiles[] = {block(-1, -1, 1, 0), block(1, -1, 3, 0)};
    const shove_vec motion = V(0.3, -0.2, 0);
    const shove_aabb before = mover_at(0, 0, 0.8f, 1);
    const shove_aabb after = moved(before, motion);
    const shove_aabb out = resolve(after, motion, tiles, 2, SHOVE_RESOLVE_MANDATORY_FIRST);
    cr_expect_eq(out.min.raw[0], after.min.raw[0], "forward motion kept");
    cr_expect_eq(out.min.raw[1], 0.0f, "corrected up");
    cr_expect(!overlaps_any(out, tiles, 2));
}

Test(scenario8, inner_corner_of_three_tiles) {
    /* W1 a wall tile (only x), W3 a floor tile (only y), W2 the corner tile
     * (either); both single-axis shoves apply and W2 needs nothing more. */
    const shove_aabb tiles[] = {block(1, 0, 2, 1), block(1, -1, 2, 0), block(0, -1, 1, 0)};
    const shove_vec motion = V(0.2, -0.2, 0);
    const shove_aabb before = mover_at(0.2f, 0.1f, 0.7f, 0.7f);
    const shove_aabb after = moved(before, motion);
    cr_assert(overlaps_any(after, tiles, 3));
    const shove_aabb out = resolve(after, motion, tiles, 3, SHOVE_RESOLVE_MANDATORY_FIRST);
    cr_expect_eq(out.max.raw[0], 1.0f);
    cr_expect_eq(out.min.raw[1], 0.0f);
    cr_expect(!overlaps_any(out, tiles, 3));
}

/* >>11 steps ------------------------------------------------------------- */

static shove_aabb player_at(float x, float y) {
    return BOX(x, y, 0.2, x + 0.6f, y + 1.8f, 0.8);
}

Test(scenario11, climbs_a_half_slab_but_not_a_full_block) {
    shove_move_def def = SHOVE_FN(default_move_def)();
    def.step_height = 0.6f;
    const shove_aabb ground = BOX(-10, -1, -10, 10, 0, 10);
    const float heights[] = {0.5f, 1.0f};
    for (int h = 0; h < 2; ++h) {
        const shove_aabb scene[] = {ground, BOX(1, 0, -10, 10, heights[h], 10)};
        shove_aabb p = player_at(0, 0);
        bool stepped = false;
        for (int frame = 0; frame < 20; ++frame) {
            const shove_move_result r = slide(p, V(0.15, -0.1, 0), scene, 2, &def);
            cr_assert(!overlaps_any(r.box, scene, 2));
            cr_assert(r.on_ground, "height %g frame %d", (double)heights[h], frame);
            stepped = stepped || r.stepped;
            p = r.box;
        }
        if (heights[h] < 0.6f) {
            cr_expect(stepped);
            cr_expect(p.min.raw[1] >= 0.5f && p.min.raw[1] <= 0.5f + SKIN, "on the slab");
            cr_expect(p.min.raw[0] > 2.0f);
        } else {
            cr_expect(!stepped);
            cr_expect(p.max.raw[0] <= 1.0f && p.max.raw[0] >= 1.0f - SKIN, "stopped at the block");
            cr_expect(p.min.raw[1] >= 0.0f && p.min.raw[1] <= SKIN);
        }
    }
}

Test(scenario11, never_steps_into_a_ceiling) {
    shove_move_def def = SHOVE_FN(default_move_def)();
    def.step_height = 0.6f;
    /* A slab under a low ceiling: stepping up would need 0.5 + 1.8 = 2.3. */
    const shove_aabb scene[] = {BOX(-10, -1, -10, 10, 0, 10), BOX(1, 0, -10, 3, 0.5, 10),
                                BOX(-10, 2.1, -10, 10, 3, 10)};
    shove_aabb p = player_at(0, 0);
    for (int frame = 0; frame < 20; ++frame) {
        const shove_move_result r = slide(p, V(0.15, -0.1, 0), scene, 3, &def);
        cr_assert(!overlaps_any(r.box, scene, 3));
        cr_assert(!r.stepped);
        p = r.box;
    }
    cr_expect(p.max.raw[0] <= 1.0f);
}

Test(scenario11, edge_guard_stops_at_the_edge_and_a_step_down_is_fine) {
    shove_move_def def = SHOVE_FN(default_move_def)();
    def.step_height = 0.6f;
    def.edge_guard = true;
    /* A platform ending at x = 4, a drop of 3 beyond it. */
    const shove_aabb scene[] = {BOX(-10, -1, -10, 4, 0, 10), BOX(4, -4, -10, 20, -3, 10)};
    shove_aabb p = player_at(0, 0);
    for (int frame = 0; frame < 40; ++frame) {
        const shove_move_result r = slide(p, V(0.3, -0.1, 0), scene, 2, &def);
        cr_assert(r.on_ground, "frame %d: walked off", frame);
        p = r.box;
    }
    /* At the edge: the default footing (1/16) left over the platform. */
    cr_expect(p.min.raw[0] <= 4.0f - def.edge_footing &&
                  p.min.raw[0] >= 4.0f - def.edge_footing - 2 * SKIN,
              "min x %.9g", (double)p.min.raw[0]);
    /* Without the guard it walks off. */
    def.edge_guard = false;
    const shove_move_result r = slide(p, V(0.3, -0.1, 0), scene, 2, &def);
    cr_expect(!r.on_ground);
    /* A drop no deeper than step_height is not a ledge. */
    def.edge_guard = true;
    const shove_aabb low[] = {BOX(-10, -1, -10, 4, 0, 10), BOX(4, -1.5, -10, 20, -0.5, 10)};
    p = player_at(3, 0);
    const shove_move_result down = slide(p, V(0.8, -0.1, 0), low, 2, &def);
    EXPECT_VEC_EQ(down.delta, V(0.8, 0, 0));
}

/* Stepping down off a slab leaves the mover in the air for a few frames,
 * with ground within step_height below: it is still walking, and the edge
 * guard still stops it at the platform's edge. Also far from the origin,
 * where the skin is smaller than a float step. */
Test(scenario11, stepping_down_near_a_ledge_still_stops_at_the_ledge) {
    const float offsets[] = {0.0f, 1000.0f, 100000.0f};
    for (int k = 0; k < 3; ++k) {
        const float o = offsets[k];
        shove_move_def def = SHOVE_FN(default_move_def)();
        def.step_height = 0.6f;
        def.edge_guard = true;
        const shove_aabb scene[] = {BOX(o - 10, -1, -10, o + 4, 0, 10),
                                    BOX(o + 1, 0, -10, o + 2.5f, 0.5f, 10),
                                    BOX(o + 4, -4, -10, o + 20, -3, 10)};
        shove_aabb p = BOX(o, 0, 0.2, o + 0.6f, 1.8f, 0.8);
        bool stepped = false;
        for (int frame = 0; frame < 60; ++frame) {
            const shove_move_result r = slide(p, V(0.3, -0.1, 0), scene, 3, &def);
            cr_assert(!overlaps_any(r.box, scene, 3));
            cr_assert(r.box.min.raw[1] >= 0.0f, "offset %g frame %d: fell", (double)o, frame);
            stepped = stepped || r.stepped;
            p = r.box;
        }
        cr_expect(stepped, "offset %g", (double)o);
        cr_expect(p.min.raw[0] < o + 4.0f && p.min.raw[0] > o + 3.9f, "offset %g: x %.9g",
                  (double)o, (double)(p.min.raw[0] - o));
    }
}

/* >>random rule checker -------------------------------------------------- */

/* A random field: free boxes, grid tiles (seams), and whole-field walls. */
static size_t random_field(test_rng *rng, shove_aabb *out, size_t cap) {
    size_t n = 0;
    const int free_boxes = test_rng_int(rng, 0, 12);
    for (int i = 0; i < free_boxes && n < cap; ++i) {
        out[n++] = test_random_box(rng, 8, 0.05f, 4);
    }
    if (test_rng_int(rng, 0, 1)) {
        /* a row of touching unit tiles along a random axis */
        const int along = test_rng_int(rng, 0, SHOVE_DIM - 1);
        shove_aabb t = test_random_box(rng, 6, 1, 1);
        for (int a = 0; a < SHOVE_DIM; ++a) {
            t.min.raw[a] = floorf(t.min.raw[a]);
            t.max.raw[a] = t.min.raw[a] + 1.0f;
        }
        const int len = test_rng_int(rng, 2, 10);
        for (int i = 0; i < len && n < cap; ++i) {
            out[n++] = t;
            t.min.raw[along] += 1.0f;
            t.max.raw[along] += 1.0f;
        }
    }
    if (test_rng_int(rng, 0, 3) == 0 && n < cap) {
        /* a thin wall spanning the whole field */
        const int axis = test_rng_int(rng, 0, SHOVE_DIM - 1);
        shove_aabb w;
        for (int a = 0; a < SHOVE_DIM; ++a) {
            w.min.raw[a] = -1000.0f;
            w.max.raw[a] = 1000.0f;
        }
        w.min.raw[axis] = test_rng_float(rng, -6, 6);
        w.max.raw[axis] = w.min.raw[axis] + test_rng_float(rng, 0.0f, 0.02f);
        out[n++] = w;
    }
    return n;
}

/* The same field, every box split into two touching halves along a random
 * plane (a seam the mover must not feel). */
static size_t split_field(test_rng *rng, const shove_aabb *in, size_t n, shove_aabb *out) {
    size_t m = 0;
    for (size_t i = 0; i < n; ++i) {
        const int axis = test_rng_int(rng, 0, SHOVE_DIM - 1);
        const float lo = in[i].min.raw[axis], hi = in[i].max.raw[axis];
        const float cut = lo + (hi - lo) * test_rng_float(rng, 0.1f, 0.9f);
        if (!(cut > lo && cut < hi)) {
            out[m++] = in[i];
            continue;
        }
        out[m] = in[i];
        out[m++].max.raw[axis] = cut;
        out[m] = in[i];
        out[m++].min.raw[axis] = cut;
    }
    return m;
}

/* Brute force: earliest strict entry of the straight sweep over every
 * obstacle the mover does not start inside. */
static bool brute_first_hit(shove_aabb m, shove_vec d, const shove_aabb *obs, size_t n, float *t) {
    bool found = false;
    *t = INFINITY;
    for (size_t i = 0; i < n; ++i) {
        shove_hit h;
        if (SHOVE_FN(aabb_overlaps)(m, obs[i]) || !SHOVE_FN(sweep_aabb)(m, d, obs[i], &h)) {
            continue;
        }
        if (h.t < *t) {
            *t = h.t;
        }
        found = true;
    }
    return found;
}

/* Which side of every whole-field wall the box is on (bit per wall). */
static unsigned sides_of(shove_aabb b, const shove_aabb *obs, size_t n) {
    unsigned bits = 0u;
    for (size_t i = 0; i < n && i < 32; ++i) {
        int axis = -1, spanning = 0;
        for (int a = 0; a < SHOVE_DIM; ++a) {
            if (obs[i].max.raw[a] - obs[i].min.raw[a] > 1500.0f) {
                ++spanning;
            } else {
                axis = a;
            }
        }
        if (spanning == SHOVE_DIM - 1 && b.min.raw[axis] >= obs[i].max.raw[axis]) {
            bits |= 1u << i;
        }
    }
    return bits;
}

static shove_aabb shifted(shove_aabb b, float offset) {
    for (int a = 0; a < SHOVE_DIM; ++a) {
        b.min.raw[a] += offset;
        b.max.raw[a] += offset;
    }
    return b;
}

/* The four rules on random fields (shifted by `offset` on every axis). */
static void check_rules(uint64_t seed, int trials, float offset) {
    test_rng rng = {seed};
    int checked = 0, blocked = 0, free_runs = 0;
    for (int trial = 0; trial < trials; ++trial) {
        shove_aabb obs[40], halves[80];
        const size_t n = random_field(&rng, obs, 40);
        for (size_t i = 0; i < n; ++i) {
            obs[i] = shifted(obs[i], offset);
        }
        shove_aabb m = shifted(test_random_box(&rng, 8, 0.2f, 2), offset);
        if (overlaps_any(m, obs, n)) {
            continue;
        }
        shove_vec d;
        for (int a = 0; a < SHOVE_DIM; ++a) {
            d.raw[a] = test_rng_int(&rng, 0, 4) == 0 ? 0.0f : test_rng_float(&rng, -12, 12);
        }
        if (test_rng_int(&rng, 0, 9) == 0) {
            d.raw[test_rng_int(&rng, 0, SHOVE_DIM - 1)] = test_rng_int(&rng, 0, 1) ? 500 : -500;
        }
        shove_move_def def = SHOVE_FN(default_move_def)();
        const float skins[] = {0.0f, SKIN, 0.01f};
        def.skin = skins[test_rng_int(&rng, 0, 2)];
        def.up_axis = test_rng_int(&rng, -1, SHOVE_DIM - 1);
        if (def.up_axis >= 0 && test_rng_int(&rng, 0, 2) == 0) {
            def.step_height = test_rng_float(&rng, 0, 1);
        }
        def.edge_guard = def.up_axis >= 0 && test_rng_int(&rng, 0, 3) == 0;
        shove_contact contacts[16];
        def.contacts = contacts;
        def.contact_capacity = 16;
        const shove_move_result r = slide(m, d, obs, n, &def);
        ++checked;

        /* Rule 1: never ends overlapping, never crosses a wall. */
        cr_assert(!overlaps_any(r.box, obs, n), "trial %d ends inside", trial);
        cr_assert_eq(sides_of(r.box, obs, n), sides_of(m, obs, n), "trial %d tunnelled", trial);
        /* Rule 2: never further than asked, never backwards (a step may
         * rise by step_height). */
        for (int a = 0; a < SHOVE_DIM; ++a) {
            const float got = r.delta.raw[a], want = d.raw[a];
            if (r.stepped && a == def.up_axis) {
                cr_assert(got <= def.step_height, "trial %d", trial);
                cr_assert(got >= (want < 0 ? want : 0), "trial %d", trial);
                continue;
            }
            if (want >= 0) {
                cr_assert(got >= 0 && got <= want, "trial %d axis %d: %g of %g", trial, a,
                          (double)got, (double)want);
            } else {
                cr_assert(got <= 0 && got >= want, "trial %d axis %d: %g of %g", trial, a,
                          (double)got, (double)want);
            }
        }
        /* The box is the start plus the displacement. */
        cr_assert(same_box(r.box, moved(m, r.delta)), "trial %d", trial);
        /* Against brute force: no hit on the straight path means the whole
         * motion; otherwise the first contact is the first hit. */
        float t_hit;
        const bool hit = brute_first_hit(m, d, obs, n, &t_hit);
        if (!hit && !def.edge_guard) {
            EXPECT_VEC_EQ(r.delta, d);
            cr_assert_eq(r.contact_count, 0, "trial %d", trial);
            ++free_runs;
        } else if (hit && !r.stepped && !def.edge_guard) {
            cr_assert(r.contact_count >= 1, "trial %d", trial);
            cr_assert_eq(contacts[0].t, t_hit, "trial %d: first contact %.9g, brute %.9g", trial,
                         (double)contacts[0].t, (double)t_hit);
            ++blocked;
        }
        /* Contacts: in order of t, each obstacle once. */
        const int stored = r.contact_count < 16 ? r.contact_count : 16;
        for (int i = 1; i < stored; ++i) {
            cr_assert(contacts[i - 1].t <= contacts[i].t, "trial %d", trial);
            for (int j = 0; j < i; ++j) {
                cr_assert_neq(contacts[i].index, contacts[j].index, "trial %d: repeat", trial);
            }
        }
        /* Rule 3: seams are invisible; the same field cut into touching
         * halves gives the same move, bit for bit. */
        const size_t nh = split_field(&rng, obs, n, halves);
        shove_move_def plain = def;
        plain.contacts = NULL;
        plain.contact_capacity = 0;
        const shove_move_result rs = slide(m, d, halves, nh, &plain);
        cr_assert(same_box(rs.box, r.box), "trial %d: a seam changed the move", trial);
        cr_assert_eq(rs.on_ground, r.on_ground, "trial %d", trial);
        cr_assert_eq(rs.hit_wall, r.hit_wall, "trial %d", trial);
        cr_assert_eq(rs.hit_ceiling, r.hit_ceiling, "trial %d", trial);
        cr_assert_eq(rs.stepped, r.stepped, "trial %d", trial);
    }
    cr_expect(checked > trials * 2 / 3, "only %d trials ran", checked);
    cr_expect(blocked > trials / 10 && free_runs > trials / 10, "blocked %d, free %d", blocked,
              free_runs);
}

Test(rules, random_fields_obey_the_four_rules) {
    check_rules(20240611, 3000, 0.0f);
}

/* Far from the origin the skin is smaller than a float step: the rules
 * still hold (the mover ends touching instead of a skin away). */
Test(rules, far_from_the_origin_too) {
    check_rules(777001, 700, 1000.0f);
    check_rules(777002, 700, -30000.5f);
    check_rules(777003, 700, 100000.0f);
}

/* Rule 3 over whole trajectories: movers that rest on surfaces and keep
 * pressing into them (the case where seams bite) follow exactly the same
 * path through a field and through the field cut into touching pieces. */
Test(rules, random_trajectories_do_not_feel_seams) {
    test_rng rng = {99991};
    int frames = 0, contacts_seen = 0;
    for (int trial = 0; trial < 300; ++trial) {
        shove_aabb obs[40], cut[80];
        size_t n = random_field(&rng, obs, 39);
        /* a floor to rest on */
        obs[n++] = BOX(-20, -9, -20, 20, -8, 20);
        const size_t nc = split_field(&rng, obs, n, cut);
        shove_aabb m = test_random_box(&rng, 8, 0.2f, 2);
        if (overlaps_any(m, obs, n)) {
            continue;
        }
        shove_move_def def = SHOVE_FN(default_move_def)();
        def.skin = test_rng_int(&rng, 0, 1) ? 0.0f : SKIN;
        def.step_height = test_rng_int(&rng, 0, 1) ? 0.0f : 0.5f;
        shove_aabb a = m, b = m;
        for (int frame = 0; frame < 25; ++frame) {
            shove_vec d;
            for (int k = 0; k < SHOVE_DIM; ++k) {
                d.raw[k] = test_rng_float(&rng, -1.5f, 1.5f);
            }
            d.raw[1] = -test_rng_float(&rng, 0.05f, 3.0f); /* gravity keeps pressing */
            const shove_move_result ra = slide(a, d, obs, n, &def);
            const shove_move_result rb = slide(b, d, cut, nc, &def);
            cr_assert(same_box(ra.box, rb.box), "trial %d frame %d: a seam changed the path", trial,
                      frame);
            cr_assert_eq(ra.on_ground, rb.on_ground);
            cr_assert_eq(ra.hit_wall, rb.hit_wall, "trial %d frame %d", trial, frame);
            cr_assert(!overlaps_any(ra.box, obs, n));
            contacts_seen += ra.contact_count > 0;
            a = ra.box;
            b = rb.box;
            ++frames;
        }
    }
    cr_expect(frames > 5000 && contacts_seen > 2000, "frames %d, with contacts %d", frames,
              contacts_seen);
}

/* Cut a box with integer corners into unit tiles. */
static size_t unit_tiles(shove_aabb b, shove_aabb *out, size_t cap) {
    size_t n = 0;
    int lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1}, at[3];
    for (int a = 0; a < SHOVE_DIM; ++a) {
        lo[a] = (int)b.min.raw[a];
        hi[a] = (int)b.max.raw[a];
    }
    for (at[0] = lo[0]; at[0] < hi[0]; ++at[0]) {
        for (at[1] = lo[1]; at[1] < hi[1]; ++at[1]) {
            for (at[2] = lo[2]; at[2] < hi[2]; ++at[2]) {
                if (n < cap) {
                    shove_aabb t;
                    for (int a = 0; a < SHOVE_DIM; ++a) {
                        t.min.raw[a] = (float)at[a];
                        t.max.raw[a] = (float)at[a] + 1.0f;
                    }
                    out[n++] = t;
                }
            }
        }
    }
    return n;
}

/* The same over grid worlds with dyadic movers and motions, where movers
 * meet seams exactly, corner on: merged boxes against unit tiles. */
Test(rules, grid_trajectories_do_not_feel_seams) {
    test_rng rng = {4242};
    int frames = 0, corner_frames = 0;
    for (int trial = 0; trial < 200; ++trial) {
        shove_aabb big[8], tiles[600];
        size_t nb = 0, nt = 0;
        big[nb++] = BOX(-8, -4, -8, 8, -2, 8); /* floor */
        const int extra = test_rng_int(&rng, 1, 5);
        for (int i = 0; i < extra; ++i) {
            shove_aabb b;
            for (int a = 0; a < SHOVE_DIM; ++a) {
                b.min.raw[a] = (float)test_rng_int(&rng, -6, 4);
                b.max.raw[a] = b.min.raw[a] + (float)test_rng_int(&rng, 1, 3);
            }
            b.min.raw[1] = -2.0f;
            b.max.raw[1] = b.min.raw[1] + (float)test_rng_int(&rng, 1, 2);
            big[nb++] = b;
        }
        for (size_t i = 0; i < nb; ++i) {
            nt += unit_tiles(big[i], tiles + nt, 600 - nt);
        }
        shove_aabb m;
        for (int a = 0; a < SHOVE_DIM; ++a) {
            m.min.raw[a] = (float)test_rng_int(&rng, -48, 48) / 8.0f;
            m.max.raw[a] = m.min.raw[a] + (float)test_rng_int(&rng, 2, 12) / 8.0f;
        }
        m.min.raw[1] += 6.0f;
        m.max.raw[1] += 6.0f;
        if (overlaps_any(m, big, nb)) {
            continue;
        }
        shove_move_def def = SHOVE_FN(default_move_def)();
        def.skin = test_rng_int(&rng, 0, 1) ? 0.0f : SKIN;
        shove_aabb a = m, b = m;
        for (int frame = 0; frame < 30; ++frame) {
            shove_vec d;
            for (int k = 0; k < SHOVE_DIM; ++k) {
                d.raw[k] = (float)test_rng_int(&rng, -12, 12) / 16.0f;
            }
            d.raw[1] = -(float)test_rng_int(&rng, 1, 40) / 16.0f;
            const shove_move_result ra = slide(a, d, big, nb, &def);
            const shove_move_result rb = slide(b, d, tiles, nt, &def);
            cr_assert(same_box(ra.box, rb.box), "trial %d frame %d: a seam changed the path", trial,
                      frame);
            cr_assert_eq(ra.on_ground, rb.on_ground);
            cr_assert_eq(ra.hit_wall, rb.hit_wall, "trial %d frame %d", trial, frame);
            cr_assert(!overlaps_any(rb.box, tiles, nt));
            corner_frames += rb.contact_count > ra.contact_count;
            a = ra.box;
            b = rb.box;
            ++frames;
        }
    }
    cr_expect(frames > 3000, "frames %d", frames);
    cr_expect(corner_frames > 300, "only %d frames met seams", corner_frames);
}

/* Random responses (BOUNCE, TOUCH and CROSS too), skins, iteration limits,
 * up axes, steps and edge guards on random and grid fields: solid
 * obstacles are never entered, the envelope holds (on axes a bounce
 * reflected: the motion's length either way), contacts are unique,
 * ordered and carry the obstacle's response, and the list's order changes
 * nothing but the order of contacts with the same t. */
static shove_response table_filter(void *ctx, shove_id mover, const shove_obstacle *obstacle) {
    (void)mover;
    const shove_id other = obstacle->other;
    const int32_t index = obstacle->index;
    (void)other;
    return ((const shove_response *)ctx)[index];
}

static bool overlaps_solid(shove_aabb b, const shove_aabb *obs, const shove_response *resp,
                           size_t n) {
    for (size_t i = 0; i < n; ++i) {
        if ((resp[i] == SHOVE_RESPONSE_SLIDE || resp[i] == SHOVE_RESPONSE_TOUCH ||
             resp[i] == SHOVE_RESPONSE_BOUNCE) &&
            SHOVE_FN(aabb_overlaps)(b, obs[i])) {
            return true;
        }
    }
    return false;
}

Test(rules, random_responses_and_settings) {
    test_rng rng = {515151};
    int ran = 0;
    for (int trial = 0; trial < 2500; ++trial) {
        shove_aabb obs[30], rev[30];
        shove_response resp[30], rresp[30];
        const size_t n = (size_t)test_rng_int(&rng, 0, 30);
        const bool grid = test_rng_int(&rng, 0, 1);
        for (size_t i = 0; i < n; ++i) {
            if (grid) {
                for (int a = 0; a < SHOVE_DIM; ++a) {
                    obs[i].min.raw[a] = (float)test_rng_int(&rng, -4, 4) * 0.5f;
                    obs[i].max.raw[a] = obs[i].min.raw[a] + (float)test_rng_int(&rng, 0, 4) * 0.5f;
                }
            } else {
                obs[i] = test_random_box(&rng, 5, 0.0f, 3);
            }
            resp[i] = test_rng_int(&rng, 0, 9) < 6 ? SHOVE_RESPONSE_SLIDE
                                                   : (shove_response)test_rng_int(&rng, 0, 4);
        }
        shove_aabb m;
        if (grid) {
            for (int a = 0; a < SHOVE_DIM; ++a) {
                m.min.raw[a] = (float)test_rng_int(&rng, -8, 8) * 0.25f;
                m.max.raw[a] = m.min.raw[a] + (float)test_rng_int(&rng, 1, 6) * 0.25f;
            }
        } else {
            m = test_random_box(&rng, 5, 0.0f, 2);
        }
        shove_vec d;
        for (int a = 0; a < SHOVE_DIM; ++a) {
            d.raw[a] = grid ? (float)test_rng_int(&rng, -16, 16) * 0.125f
                            : (test_rng_int(&rng, 0, 3) == 0 ? 0.0f : test_rng_float(&rng, -8, 8));
        }
        shove_move_def def = SHOVE_FN(default_move_def)();
        const float skins[] = {0.0f, SKIN, 0.01f, 0.3f};
        def.skin = skins[test_rng_int(&rng, 0, 3)];
        def.up_axis = test_rng_int(&rng, -1, SHOVE_DIM - 1);
        def.step_height = test_rng_int(&rng, 0, 1) ? test_rng_float(&rng, 0, 1.5f) : 0.0f;
        if (def.up_axis < 0) {
            def.step_height = 0.0f; /* no step without an up axis (refused) */
        }
        def.edge_guard = test_rng_int(&rng, 0, 1);
        def.max_iterations = test_rng_int(&rng, 1, 10);
        if (overlaps_solid(m, obs, resp, n)) {
            continue;
        }
        ++ran;
        def.filter = table_filter;
        def.filter_ctx = resp;
        shove_contact c[40];
        def.contacts = c;
        def.contact_capacity = 40;
        const shove_move_result r = slide(m, d, obs, n, &def);
        cr_assert(!overlaps_solid(r.box, obs, resp, n), "trial %d ends inside", trial);
        /* Axes a bounce reflected: anywhere within the motion's length of
         * the start, either way (bump.lua's bounce; see shove3_slide). */
        unsigned bounced = 0u;
        for (int i = 0; i < (r.contact_count < 40 ? r.contact_count : 40); ++i) {
            for (int a = 0; a < SHOVE_DIM; ++a) {
                if (c[i].response == SHOVE_RESPONSE_BOUNCE && c[i].normal.raw[a] != 0.0f) {
                    bounced |= 1u << a;
                }
            }
        }
        for (int a = 0; a < SHOVE_DIM; ++a) {
            const float got = r.delta.raw[a], want = d.raw[a];
            if (bounced & (1u << a)) {
                cr_assert(fabsf(got) <= fabsf(want) * (1.0f + 0x1p-20f), "trial %d axis %d", trial,
                          a);
            } else if (r.stepped && a == def.up_axis) {
                cr_assert(got <= def.step_height && got >= (want < 0 ? want : 0), "trial %d",
                          trial);
            } else if (want >= 0) {
                cr_assert(got >= 0 && got <= want, "trial %d axis %d", trial, a);
            } else {
                cr_assert(got <= 0 && got >= want, "trial %d axis %d", trial, a);
            }
        }
        const int stored = r.contact_count < 40 ? r.contact_count : 40;
        for (int i = 0; i < stored; ++i) {
            cr_assert(c[i].t >= 0.0f && c[i].t <= 1.0f, "trial %d", trial);
            cr_assert_eq(c[i].response, resp[c[i].index], "trial %d", trial);
            cr_assert(i == 0 || c[i - 1].t <= c[i].t, "trial %d: out of order", trial);
            for (int j = 0; j < i; ++j) {
                cr_assert_neq(c[i].index, c[j].index, "trial %d: reported twice", trial);
            }
        }
        for (size_t i = 0; i < n; ++i) {
            rev[n - 1 - i] = obs[i];
            rresp[n - 1 - i] = resp[i];
        }
        shove_move_def rdef = def;
        rdef.filter_ctx = rresp;
        rdef.contacts = NULL;
        rdef.contact_capacity = 0;
        const shove_move_result rr = slide(m, d, rev, n, &rdef);
        cr_assert(same_box(rr.box, r.box), "trial %d: order changed the move", trial);
        cr_assert(rr.on_ground == r.on_ground && rr.hit_wall == r.hit_wall &&
                      rr.hit_ceiling == r.hit_ceiling && rr.stepped == r.stepped &&
                      rr.contact_count == r.contact_count,
                  "trial %d", trial);
    }
    cr_expect(ran > 1000, "%d", ran);
}

/* Rule 4: every SIMD level this machine has gives the same bits. */
Test(rules, same_bits_at_every_simd_level) {
    const shove_simd start_level = shove_simd_active();
    test_rng rng = {777};
    for (int trial = 0; trial < 400; ++trial) {
        shove_aabb obs[40];
        const size_t n = random_field(&rng, obs, 40);
        const shove_aabb m = test_random_box(&rng, 8, 0.2f, 2);
        shove_vec d;
        for (int a = 0; a < SHOVE_DIM; ++a) {
            d.raw[a] = test_rng_float(&rng, -12, 12);
        }
        shove_move_def def = SHOVE_FN(default_move_def)();
        def.step_height = 0.5f;
        shove_move_result ref;
        bool have_ref = false;
        for (int level = 0; level < SHOVE_SIMD_LEVEL_COUNT; ++level) {
            if (shove_simd_select((shove_simd)level) != SHOVE_OK) {
                continue;
            }
            const shove_move_result r = slide(m, d, obs, n, &def);
            if (!have_ref) {
                ref = r;
                have_ref = true;
            } else {
                cr_assert(memcmp(&ref, &r, sizeof r) == 0, "level %s differs",
                          shove_simd_name((shove_simd)level));
            }
        }
    }
    cr_assert_eq(shove_simd_select(start_level), SHOVE_OK);
}
