/*
 * overlapping_bodies_dim_test.c: bodies created overlapping others (issue
 * 21, point 5). Creating one is SHOVE_OK and moves nothing;
 * shove3_body_overlaps names the solid bodies it starts inside (both masks
 * met, no sensors, touching does not count); a cast of its box with mask 0
 * tells a voxel; the body moves out of what it overlaps or along it, never
 * deeper, and once out the query is empty.
 */
#include "test_dim.h"
#include "test_voxel_map.h"

static shove_id add(shove_world *w, shove_body_def def) {
    shove_id id;
    cr_assert_eq(SHOVE_FN(body_create)(w, &def, &id), SHOVE_OK);
    shove_aabb b;
    cr_assert_eq(SHOVE_FN(body_get_box)(w, id, &b), SHOVE_OK);
    EXPECT_VEC_EQ(b.min, def.box.min); /* created where asked, overlap or not */
    EXPECT_VEC_EQ(b.max, def.box.max);
    return id;
}

static bool same_id(shove_id a, shove_id b) {
    return a.index == b.index && a.generation == b.generation;
}

Test(overlapping_bodies, the_query_names_what_a_new_body_starts_inside) {
    shove_world *w;
    cr_assert_eq(SHOVE_FN(world_create)(NULL, &w), SHOVE_OK);
    const shove_id wall = add(w, (shove_body_def){.box = BOX(0, 0, 0, 1, 2, 1)});
    /* A crate created 0.25 into the wall's +x side. */
    const shove_id crate =
        add(w, (shove_body_def){.box = BOX(0.75, 0, 0, 1.75, 1, 1), .type = SHOVE_BODY_DYNAMIC});
    shove_id out[4];
    cr_assert_eq(SHOVE_FN(body_overlaps)(w, crate, out, 4), 1u);
    cr_expect(same_id(out[0], wall));
    cr_assert_eq(SHOVE_FN(body_overlaps)(w, wall, out, 4), 1u);
    cr_expect(same_id(out[0], crate));
    /* Counting without room: the count, nothing written. */
    cr_expect_eq(SHOVE_FN(body_overlaps)(w, crate, NULL, 0), 1u);
    cr_expect_eq(SHOVE_FN(body_overlaps)(w, crate, NULL, 4), 1u);
    out[0] = (shove_id){77u, 77u};
    cr_expect_eq(SHOVE_FN(body_overlaps)(w, crate, out, 0), 1u);
    cr_expect_eq(out[0].index, 77u);

    /* Not listed: a body that only touches, a sensor, and one whose mask
     * leaves the crate out (both masks must meet). */
    const shove_id touching = add(w, (shove_body_def){.box = BOX(1.75, 0, 0, 2.75, 1, 1)});
    const shove_id sensor = add(w, (shove_body_def){.box = BOX(1, 0, 0, 2, 1, 1), .sensor = true});
    const shove_id ghost =
        add(w, (shove_body_def){.box = BOX(1, 0.5, 0, 2, 1.5, 1), .category = 2, .mask = 2});
    cr_expect_eq(SHOVE_FN(body_overlaps)(w, crate, out, 4), 1u);
    cr_expect(same_id(out[0], wall));
    cr_expect_eq(SHOVE_FN(body_overlaps)(w, touching, out, 4), 0u);
    cr_expect_eq(SHOVE_FN(body_overlaps)(w, sensor, out, 4), 0u, "a sensor is never inside");
    cr_expect_eq(SHOVE_FN(body_overlaps)(w, ghost, out, 4), 0u);

    /* A second solid body in the crate: both listed. */
    const shove_id crate2 =
        add(w, (shove_body_def){.box = BOX(1.5, 0.5, 0, 2.5, 1.5, 1), .type = SHOVE_BODY_DYNAMIC});
    cr_assert_eq(SHOVE_FN(body_overlaps)(w, crate, out, 4), 2u);
    cr_expect((same_id(out[0], wall) && same_id(out[1], crate2)) ||
              (same_id(out[1], wall) && same_id(out[0], crate2)));
    cr_assert_eq(SHOVE_FN(body_destroy)(w, crate2), SHOVE_OK);

    /* Bad arguments: 0. */
    cr_expect_eq(SHOVE_FN(body_overlaps)(NULL, crate, out, 4), 0u);
    cr_expect_eq(SHOVE_FN(body_overlaps)(w, crate2, out, 4), 0u, "a destroyed body");
    cr_expect_eq(SHOVE_FN(body_overlaps)(w, SHOVE_NULL_ID, out, 4), 0u);
    SHOVE_FN(world_destroy)(w);
}

/* The crate inside the wall moves out of it or along it, never deeper;
 * once out, nothing is listed. */
Test(overlapping_bodies, a_body_created_inside_moves_out_not_deeper) {
    shove_world *w;
    cr_assert_eq(SHOVE_FN(world_create)(NULL, &w), SHOVE_OK);
    add(w, (shove_body_def){.box = BOX(0, 0, 0, 1, 2, 1)});
    const shove_id crate =
        add(w, (shove_body_def){.box = BOX(0.75, 0, 0, 1.75, 1, 1), .type = SHOVE_BODY_DYNAMIC});
    const shove_move_def flat = {.up_axis = -1};
    shove_move_result r;
    /* Deeper (-x, the way into the wall): nothing. */
    cr_assert_eq(SHOVE_FN(move)(w, crate, V(-0.5, 0, 0), &flat, &r), SHOVE_OK);
    cr_expect_eq(r.delta.x, 0.0f);
    /* Along it: free. */
    cr_assert_eq(SHOVE_FN(move)(w, crate, V(0, 0.5, 0), &flat, &r), SHOVE_OK);
    cr_expect_eq(r.delta.y, 0.5f);
    /* The step neither: a motion into the wall stays put. */
    cr_assert_eq(SHOVE_FN(body_set_motion)(w, crate, V(-0.5, 0, 0)), SHOVE_OK);
    cr_assert_eq(SHOVE_FN(world_step)(w), SHOVE_OK);
    shove_aabb b;
    cr_assert_eq(SHOVE_FN(body_get_box)(w, crate, &b), SHOVE_OK);
    cr_expect_eq(b.min.x, 0.75f);
    cr_expect_eq(SHOVE_FN(body_overlaps)(w, crate, NULL, 0), 1u);
    /* A cast of its own box says which way is out: started inside, the
     * normal the shortest way out (+x, 0.25). */
    shove_hit hit;
    cr_assert(SHOVE_FN(cast_body)(w, crate, V(0, 0, 0), &hit));
    cr_expect(hit.started_inside);
    EXPECT_VEC_EQ(hit.normal, V(1, 0, 0));
    /* Out that way: free, and then nothing is listed. */
    cr_assert_eq(SHOVE_FN(move)(w, crate, V(0.5, 0, 0), &flat, &r), SHOVE_OK);
    cr_expect_eq(r.delta.x, 0.5f);
    cr_expect_eq(SHOVE_FN(body_overlaps)(w, crate, NULL, 0), 0u);
    cr_expect_not(SHOVE_FN(cast_body)(w, crate, V(0, 0, 0), &hit));
    SHOVE_FN(world_destroy)(w);
}

/* Inside a voxel: not a body, so not listed; a cast of the body's box with
 * mask 0 (voxels only) says so. */
Test(overlapping_bodies, a_body_created_inside_a_voxel_is_told_by_a_cast) {
    test_map *map = map_new(-4, -4, -4, 8, 8, 8);
    map_set(map, 0, 0, 0, CELL_FULL);
    shove_world *w;
    cr_assert_eq(SHOVE_FN(world_create)(NULL, &w), SHOVE_OK);
    const shove_voxel_def vd = map_def(map, V(0, 0, 0), 1.0f);
    cr_assert_eq(SHOVE_FN(world_set_voxels)(w, &vd), SHOVE_OK);
    const shove_aabb box = BOX(0.5, 0.5, 0.25, 1.5, 1.5, 0.75);
    const shove_id id = add(w, (shove_body_def){.box = box, .type = SHOVE_BODY_DYNAMIC});
    cr_expect_eq(SHOVE_FN(body_overlaps)(w, id, NULL, 0), 0u);
    shove_hit hit;
    cr_assert(SHOVE_FN(cast_box)(w, box, V(0, 0, 0), 0, &hit));
    cr_expect(hit.started_inside);
    cr_expect_eq(hit.other.index, SHOVE_NULL_ID.index);
    cr_expect_eq(hit.other.generation, SHOVE_NULL_ID.generation);
    /* Next to the voxel instead: no hit. */
    cr_expect_not(SHOVE_FN(cast_box)(w, BOX(1, 0.5, 0.25, 2, 1.5, 0.75), V(0, 0, 0), 0, &hit));
    SHOVE_FN(world_destroy)(w);
    map_free(map);
}
