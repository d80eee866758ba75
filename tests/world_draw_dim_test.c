/*
 * world_draw_dim_test.c: what shove3_world_draw reports for the last
 * move's or step's contacts, with a body and with voxels / tiles under the
 * mover: a point on the surface that stopped it and the surface's normal.
 */
#include "test_dim.h"

typedef struct drawn {
    int points, normals;
    shove_vec point, normal;
} drawn;

static void on_point(void *ctx, shove_vec p, uint32_t color) {
    drawn *d = ctx;
    (void)color;
    d->points += 1;
    d->point = p;
}

static void on_normal(void *ctx, shove_vec p, shove_vec n, uint32_t color) {
    drawn *d = ctx;
    (void)color;
    (void)p;
    d->normals += 1;
    d->normal = n;
}

/* Solid below y = 0. */
#if SHOVE_DIM == 3
static int floor_voxels(void *ctx, int32_t x, int32_t y, int32_t z,
                        shove_aabb out[SHOVE_VOXEL_MAX_BOXES]) {
    (void)z;
#else
static int floor_voxels(void *ctx, int32_t x, int32_t y, shove_aabb out[SHOVE_VOXEL_MAX_BOXES]) {
#endif
    (void)ctx;
    (void)x;
    if (y >= 0) {
        return 0;
    }
    out[0] = BOX(0, 0, 0, 1, 1, 1);
    return 1;
}

/* Drops a box onto the floor from 0.5 above and returns what the
 * debug draw reports, and where the box ended. */
static drawn land(bool voxels, bool step, shove_aabb *end) {
    shove_world *w = NULL;
    cr_assert_eq(SHOVE_FN(world_create)(NULL, &w), SHOVE_OK);
    shove_body_def def = SHOVE_FN(default_body_def)();
    if (voxels) {
        shove_voxel_def v = SHOVE_FN(default_voxel_def)();
        v.shapes = floor_voxels;
        cr_assert_eq(SHOVE_FN(world_set_voxels)(w, &v), SHOVE_OK);
    } else {
        def.box = BOX(-10, -1, -10, 10, 0, 10);
        shove_id ground;
        cr_assert_eq(SHOVE_FN(body_create)(w, &def, &ground), SHOVE_OK);
    }
    def.box = BOX(2.25, 0.5, 2.25, 2.75, 1.5, 2.75); /* above one voxel column */
    def.type = SHOVE_BODY_DYNAMIC;
    shove_id mover;
    cr_assert_eq(SHOVE_FN(body_create)(w, &def, &mover), SHOVE_OK);
    if (step) {
        cr_assert_eq(SHOVE_FN(body_set_motion)(w, mover, V(0, -2, 0)), SHOVE_OK);
        cr_assert_eq(SHOVE_FN(world_step)(w), SHOVE_OK);
        cr_assert_eq(SHOVE_FN(body_get_box)(w, mover, end), SHOVE_OK);
    } else {
        shove_move_result r;
        cr_assert_eq(SHOVE_FN(move)(w, mover, V(0, -2, 0), NULL, &r), SHOVE_OK);
        cr_assert(r.on_ground);
        *end = r.box;
    }
    drawn d = {0};
    shove_debug_draw draw = {0};
    draw.draw_point = on_point;
    draw.draw_normal = on_normal;
    draw.draw_contacts = true;
    draw.ctx = &d;
    SHOVE_FN(world_draw)(w, &draw);
    SHOVE_FN(world_destroy)(w);
    return d;
}

Test(world_draw, a_contact_with_a_body_is_drawn_on_its_face) {
    shove_aabb end;
    const drawn d = land(false, false, &end);
    cr_expect_eq(d.points, 1);
    cr_expect_eq(d.normals, 1);
    EXPECT_VEC_EQ(d.normal, V(0, 1, 0));
    EXPECT_VEC_EQ(d.point, V(2.5, 0, 2.5)); /* on the floor's top, under the mover's middle */
}

Test(world_draw, a_contact_with_a_voxel_is_drawn_under_the_mover) {
    shove_aabb end;
    const drawn d = land(true, false, &end);
    cr_expect_eq(d.points, 1, "the voxel floor is a contact too");
    cr_expect_eq(d.normals, 1);
    EXPECT_VEC_EQ(d.normal, V(0, 1, 0));
    /* on the mover's bottom face, on (or a skin above) the voxels' top */
    EXPECT_VEC_EQ(d.point, V(2.5, end.min.y, 2.5));
    cr_expect(end.min.y >= 0.0f && end.min.y < 0.01f);
}

Test(world_draw, a_step_draws_its_contacts_with_bodies_and_voxels) {
    for (int voxels = 0; voxels < 2; ++voxels) {
        shove_aabb end;
        const drawn d = land(voxels, true, &end);
        cr_expect_eq(d.points, 1, "voxels=%d", voxels);
        cr_expect_eq(d.normals, 1, "voxels=%d", voxels);
        EXPECT_VEC_EQ(d.normal, V(0, 1, 0));
        EXPECT_VEC_EQ(d.point, V(2.5, end.min.y, 2.5));
        cr_expect(end.min.y >= 0.0f && end.min.y < 0.01f);
    }
}
