/*
 * bodies.c: the demo's bodies: crates stacked in a yard, merged into a few
 * static boxes with shove3_merge_grid; a lift that carries whoever stands
 * on it (shove3_query_box finds the riders); and mobs dropped onto the
 * ground with shove3_cast_box.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "demo.h"

int crate_cells, crate_bodies;
shove_id lift;
mob mobs[MOBS + 1];
int mob_count;

void add_crates(shove3_world *w) {
    static uint8_t solid[YARD_W * YARD_H * YARD_W];
    for (int z = 0; z < YARD_W; ++z) {
        for (int x = 0; x < YARD_W; ++x) {
            /* stacks in blocks of 2 x 2, with aisles every 6 */
            if ((x % 6) == 5 || (z % 6) == 5) {
                continue;
            }
            const int stack = (int)(lattice(x / 2, z / 2, 9) * 3.99f);
            for (int y = 0; y < stack; ++y) {
                solid[((size_t)z * YARD_H + (size_t)y) * YARD_W + (size_t)x] = 1;
                crate_cells += 1;
            }
        }
    }
    /* x fastest, then y, then z: cells = {YARD_W, YARD_H, YARD_W} */
    const int32_t cells[3] = {YARD_W, YARD_H, YARD_W};
    const vec3s origin = {{YARD_X, (float)flat_level, YARD_Z}};
    size_t count = 0;
    shove3_merge_grid(solid, cells, 1.0f, origin, NULL, 0, &count);
    shove3_aabb *boxes = malloc(count * sizeof *boxes);
    if (!boxes || shove3_merge_grid(solid, cells, 1.0f, origin, boxes, count, &count) != SHOVE_OK) {
        fprintf(stderr, "merge failed\n");
        exit(1);
    }
    for (size_t i = 0; i < count; ++i) {
        shove3_body_def def = shove3_default_body_def();
        def.box = boxes[i];
        def.category = CAT_CRATE;
        shove_id id;
        if (shove3_body_create(w, &def, &id) != SHOVE_OK) {
            fprintf(stderr, "crate body failed\n");
            exit(1);
        }
    }
    crate_bodies = (int)count;
    free(boxes);
}

static float lift_bottom, lift_top;

void add_lift(shove3_world *w) {
    const float x = (float)(tower_x0() + TOWER_W);
    const float z = (float)STAIR_Z + 1.0f;
    lift_bottom = (float)flat_level - 0.5f;
    lift_top = (float)(flat_level + STAIR_N) - 0.5f;
    shove3_body_def def = shove3_default_body_def();
    def.box = lbox(x, lift_bottom, z, x + 3.0f, lift_bottom + 0.5f, z + 3.0f);
    def.type = SHOVE_BODY_DYNAMIC;
    def.category = CAT_LIFT;
    shove3_body_create(w, &def, &lift);
}

/* The lift rises and falls between ground and tower top; whoever stands on
 * it rides along (moved first going up, after the lift going down). */
void move_lift(shove3_world *w, float time, long *moves) {
    const float period = 6.0f;
    const float s = 0.5f - 0.5f * cosf(6.2831853f * time / period);
    shove3_aabb box;
    shove3_body_get_box(w, lift, &box);
    const float dy = lift_bottom + s * (lift_top - lift_bottom) - box.min.y;
    shove3_aabb above = box;
    above.min.y = box.max.y;
    above.max.y = box.max.y + 0.05f;
    shove_id riders[64];
    size_t n = shove3_query_box(w, above, CAT_MOB, riders, 64);
    n = n > 64 ? 64 : n;
    const vec3s d = {{0, dy, 0}};
    shove3_move_def def = shove3_default_move_def();
    shove3_move_result r;
    if (dy > 0.0f) {
        for (size_t i = 0; i < n; ++i) {
            shove3_move(w, riders[i], d, &def, &r);
        }
    }
    shove3_move(w, lift, d, &def, &r);
    if (dy <= 0.0f) {
        for (size_t i = 0; i < n; ++i) {
            shove3_move(w, riders[i], d, &def, &r);
        }
    }
    *moves += (long)n + 1;
}

bool spawn(shove3_world *w, float x, float z, float heading) {
    /* Drop the mob's box from the sky onto whatever is below. */
    shove3_aabb b = lbox(x, (float)SY + 2.0f, z, x + 0.6f, (float)SY + 3.8f, z + 0.6f);
    const vec3s down = {{0, -(float)SY - 10.0f, 0}};
    shove3_hit hit;
    if (!shove3_cast_box(w, b, down, UINT64_MAX, &hit) || hit.started_inside) {
        return false;
    }
    const float fall = down.y * hit.t + 0.01f;
    b.min.y += fall;
    b.max.y += fall;
    shove_id others[2];
    if (shove3_query_box(w, b, UINT64_MAX, others, 2) > 0) {
        return false;
    }
    shove3_body_def def = shove3_default_body_def();
    def.box = b;
    def.type = SHOVE_BODY_DYNAMIC;
    def.category = CAT_MOB;
    mob *m = &mobs[mob_count];
    if (shove3_body_create(w, &def, &m->id) != SHOVE_OK) {
        return false;
    }
    m->heading = heading;
    m->vy = 0.0f;
    m->grounded = false;
    mob_count += 1;
    return true;
}
