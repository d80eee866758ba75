/*
 * crates.c: pushing crates with priorities (shove2_world_step), seen from
 * above. Priority 0 is the strongest; a mover pushes weaker dynamic bodies
 * (a larger number), and a pushed body pushes on with the priority of whoever
 * pushes it.
 *   1. A forklift (priority 1) drives into a light crate (4) touching a
 *      heavy crate (2): the light crate pushes the heavy one with the
 *      forklift's priority, so the row moves as one.
 *   2. It drives on until the row meets a wall: everything stops face to
 *      face, and the crates caught between are reported squished.
 *   3. A second forklift (1) drives into a safe (0): the safe does not move.
 * Exits 1 if any outcome is wrong.
 */
#include <math.h>
#include <stdio.h>

#include <shove/shove.h>

static int squishes;
static void on_event(void *ctx, const shove2_event *e) {
    (void)ctx;
    squishes += e->type == SHOVE_EVENT_SQUISH;
}

static shove_id add(shove2_world *w, float x0, float y0, bool dynamic, int priority) {
    shove2_body_def def = shove2_default_body_def();
    def.box = (shove2_aabb){{{x0, y0}}, {{x0 + 1, y0 + 1}}};
    def.type = dynamic ? SHOVE_BODY_DYNAMIC : SHOVE_BODY_STATIC;
    def.priority = (uint8_t)priority;
    shove_id id;
    shove2_body_create(w, &def, &id);
    return id;
}

static float left(shove2_world *w, shove_id id) {
    shove2_aabb b;
    shove2_body_get_box(w, id, &b);
    return b.min.x;
}

static int failures;
static void check(bool ok, const char *what) {
    printf("%-58s %s\n", what, ok ? "ok" : "FAIL");
    failures += !ok;
}

int main(void) {
    shove2_world_def wd = shove2_default_world_def();
    wd.step_def.up_axis = -1; /* seen from above: no floor, no gravity */
    wd.event_fn = on_event;
    shove2_world *w;
    if (shove2_world_create(&wd, &w) != SHOVE_OK) {
        return 1;
    }
    const shove_id forklift = add(w, 0, 0, true, 1);
    const shove_id light = add(w, 1, 0, true, 4);
    const shove_id heavy = add(w, 2, 0, true, 2);
    add(w, 8, -2, false, 0); /* the wall: x 8..9 */
    add(w, 8, -1, false, 0);
    add(w, 8, 0, false, 0);
    add(w, 8, 1, false, 0);
    const shove_id forklift2 = add(w, 0, 4, true, 1);
    const shove_id safe = add(w, 2, 4, true, 0);

    /* 1. Three steps of one unit each. */
    for (int i = 0; i < 3; ++i) {
        shove2_body_set_motion(w, forklift, (vec2s){{1, 0}});
        shove2_world_step(w);
    }
    printf("after 3 steps: forklift %.4f, light %.4f, heavy %.4f\n", (double)left(w, forklift),
           (double)left(w, light), (double)left(w, heavy));
    check(left(w, forklift) == 3 && left(w, light) == 4 && left(w, heavy) == 5,
          "the row moved 3 as one (light pushes heavy)");
    check(squishes == 0, "nothing squished in open floor");

    /* 2. Three more: the heavy crate meets the wall after two. */
    for (int i = 0; i < 3; ++i) {
        shove2_body_set_motion(w, forklift, (vec2s){{1, 0}});
        shove2_world_step(w);
    }
    const float f = left(w, forklift), l = left(w, light), h = left(w, heavy);
    const float skin = wd.step_def.skin, face = 2 * skin + 1e-5f;
    printf("against the wall: forklift %.4f, light %.4f, heavy %.4f\n", (double)f, (double)l,
           (double)h);
    check(h + 1 <= 8 && 8 - (h + 1) <= face, "the heavy crate stops at the wall");
    check(l + 1 <= h && h - (l + 1) <= face && f + 1 <= l && l - (f + 1) <= face,
          "the row is face to face, nothing overlaps");
    check(squishes > 0, "the crates caught between were reported squished");

    /* 3. The second forklift drives at the safe for two steps. */
    for (int i = 0; i < 2; ++i) {
        shove2_body_set_motion(w, forklift2, (vec2s){{1, 0}});
        shove2_world_step(w);
    }
    printf("at the safe: forklift %.4f, safe %.4f\n", (double)left(w, forklift2),
           (double)left(w, safe));
    check(left(w, safe) == 2, "the safe (priority 0) did not move");
    check(left(w, forklift2) + 1 <= 2 && 2 - (left(w, forklift2) + 1) <= face,
          "the forklift stopped in front of it");
    shove2_world_destroy(w);
    return failures ? 1 : 0;
}
