/*
 * voxel_walker.c: Minecraft-style walking through a block world. The
 * blocks come from a voxel callback (shove3_world_set_voxels); players are
 * 0.6 x 1.8 x 0.6 with a step height of 0.6. Four players walk 4 blocks
 * along +x on four strips of the map:
 *   A  meets a half slab: steps up onto it and keeps walking;
 *   B  meets a full block: 1.0 is more than a step, so it stops;
 *   C  walks to the edge of a raised platform with edge_guard: it stops
 *      there, keeping edge_footing (1/16 of a block) over the platform;
 *   D  the same without edge_guard: it walks off and lands on the ground.
 * Exits 1 if any of them ends anywhere else.
 */
#include <math.h>
#include <stdio.h>

#include <shove/shove.h>

/* Ground (y = 0) everywhere in 0..15 x 0..19; on y = 1: a strip of half
 * slabs (z 1..3, x 5..7), a wall block (z 6..8, x 5), and a platform a block
 * high (z 11..18, x 0..7). */
static int shapes(void *ctx, int32_t x, int32_t y, int32_t z,
                  shove3_aabb out[SHOVE_VOXEL_MAX_BOXES]) {
    (void)ctx;
    const shove3_aabb full = {{{0, 0, 0}}, {{1, 1, 1}}};
    const shove3_aabb slab = {{{0, 0, 0}}, {{1, 0.5f, 1}}};
    if (x < 0 || x >= 16 || z < 0 || z >= 20 || y < 0 || y > 1) {
        return 0;
    }
    if (y == 0 || (z >= 6 && z <= 8 && x == 5) || (z >= 11 && x <= 7)) {
        out[0] = full;
        return 1;
    }
    if (z >= 1 && z <= 3 && x >= 5 && x <= 7) {
        out[0] = slab;
        return 1;
    }
    return 0;
}

typedef struct walker {
    vec3s start; /* min corner */
    bool edge_guard;
    shove_id body;
    float vy;
    bool stepped;
    shove3_move_result last;
} walker;

static int failures;
static void check(bool ok, const char *what, shove3_aabb b) {
    printf("%-48s %-4s feet (%.4f, %.4f, %.4f)\n", what, ok ? "ok" : "FAIL", (double)b.min.x,
           (double)b.min.y, (double)b.min.z);
    failures += !ok;
}

int main(void) {
    shove3_world *world;
    if (shove3_world_create(NULL, &world) != SHOVE_OK) {
        return 1;
    }
    shove3_voxel_def voxels = shove3_default_voxel_def();
    voxels.shapes = shapes;
    shove3_world_set_voxels(world, &voxels);

    walker w[] = {
        {.start = {{1, 1, 2.2f}}},
        {.start = {{1, 1, 7.2f}}},
        {.start = {{5, 2, 12.2f}}, .edge_guard = true},
        {.start = {{5, 2, 16.2f}}},
    };
    enum { WALKERS = sizeof w / sizeof w[0] };
    for (int i = 0; i < WALKERS; ++i) {
        shove3_body_def def = shove3_default_body_def();
        def.type = SHOVE_BODY_DYNAMIC;
        def.box.min = w[i].start;
        def.box.max = (vec3s){{w[i].start.x + 0.6f, w[i].start.y + 1.8f, w[i].start.z + 0.6f}};
        shove3_body_create(world, &def, &w[i].body);
    }
    const float speed = 0.1f, gravity = 0.02f;
    for (int frame = 0; frame < 60; ++frame) {
        for (int i = 0; i < WALKERS; ++i) {
            shove3_move_def def = shove3_default_move_def();
            def.step_height = 0.6f;
            def.edge_guard = w[i].edge_guard;
            w[i].vy = fmaxf(w[i].vy - gravity, -0.8f);
            /* walk for 40 frames (4 blocks), then stand and let gravity settle */
            const vec3s delta = {{frame < 40 ? speed : 0.0f, w[i].vy, 0.0f}};
            shove3_move(world, w[i].body, delta, &def, &w[i].last);
            w[i].stepped |= w[i].last.stepped;
            if (w[i].last.on_ground && w[i].vy < 0.0f) {
                w[i].vy = 0.0f;
            }
        }
    }
    const float skin = shove3_default_move_def().skin;
    const float footing = shove3_default_move_def().edge_footing;
    const shove3_aabb a = w[0].last.box, b = w[1].last.box, c = w[2].last.box;
    const shove3_aabb d = w[3].last.box;
    check(w[0].stepped && fabsf(a.min.y - 1.5f) <= 2 * skin && fabsf(a.min.x - 5.0f) < 0.05f,
          "A stepped onto the slab and walked on", a);
    check(!w[1].stepped && fabsf(b.min.y - 1.0f) <= 2 * skin && b.max.x <= 5.0f &&
              b.max.x >= 5.0f - 2 * skin,
          "B stopped at the full block", b);
    check(c.min.x <= 8.0f - footing && c.min.x > 7.9f && fabsf(c.min.y - 2.0f) <= 2 * skin &&
              w[2].last.on_ground,
          "C kept its footing at the platform's edge", c);
    check(d.min.x >= 8.0f && fabsf(d.min.y - 1.0f) <= 2 * skin && w[3].last.on_ground,
          "D walked off the platform and landed", d);
    shove3_world_destroy(world);
    return failures ? 1 : 0;
}
