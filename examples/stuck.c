/*
 * stuck.c: a player gets stuck, the game dumps the world, shove-replay
 * plays the same move outside the game (README: "A player got stuck").
 *
 * The world: a floor of blocks, a wall at x = 4 with a doorway, a half slab
 * as its threshold and a block above the doorway two blocks up. The player
 * (0.6 x 1.8 x 0.6, step height 0.6) walks +x into the doorway and stops at
 * the threshold, though 0.5 is less than a step: on the slab its head
 * would reach 2.3, into the block above (2.0). The game notices (asked to
 * move, moved nothing), and a debug key had dumped the world as the walk
 * began (stuck.dump); it dumps it again now (stuck-game.dump). Then:
 *
 *   shove-replay DIR/stuck.dump --move 0 0.25 -0.1 0 --frames 20 --svg stuck.svg
 *
 * replays the walk frame by frame (body 0 is the player: the number is the
 * index of its id), with each contact, and draws it. With `--dump
 * DIR/stuck-replay.dump` it writes the world after the replay: its bodies
 * are those of stuck-game.dump, bit for bit (ctest checks it:
 * example.stuck_replay). Its voxels are fewer: a replay knows only the
 * voxels the first dump held, around the player where it started.
 *
 * Usage: stuck [DIR] (default: the current directory). Exits 1 if the
 * player does not end where described or a dump cannot be written.
 */
#include <stdio.h>

#include <shove/shove.h>

enum { FRAMES = 20, PLAYER = 0 };

static int shapes(void *ctx, int32_t x, int32_t y, int32_t z,
                  shove3_aabb out[SHOVE_VOXEL_MAX_BOXES]) {
    (void)ctx;
    const shove3_aabb block = {{{0, 0, 0}}, {{1, 1, 1}}};
    const shove3_aabb slab = {{{0, 0, 0}}, {{1, 0.5f, 1}}};
    if (x < -8 || x > 12 || z < -4 || z > 4 || y < -1 || y > 2) {
        return 0;
    }
    if (y == -1 || (x == 4 && z != 0) || (x == 4 && y == 2)) {
        out[0] = block; /* floor, wall, the block above the doorway */
        return 1;
    }
    if (x == 4 && y == 0) {
        out[0] = slab; /* the threshold */
        return 1;
    }
    return 0;
}

static bool dump(const shove3_world *world, const char *dir, const char *name) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    bool ok = f && shove3_world_dump(world, f) == SHOVE_OK;
    ok = f && fclose(f) == 0 && ok;
    printf("%s %s\n", ok ? "wrote" : "FAILED to write", path);
    return ok;
}

int main(int argc, char **argv) {
    const char *dir = argc > 1 ? argv[1] : ".";
    /* The moves use the world's step settings, which the dump records, so
     * the replay needs no options to move the same way. */
    shove3_world_def wd = shove3_default_world_def();
    wd.step_def.step_height = 0.6f;
    shove3_world *world;
    if (shove3_world_create(&wd, &world) != SHOVE_OK) {
        return 1;
    }
    shove3_voxel_def voxels = shove3_default_voxel_def();
    voxels.shapes = shapes;
    shove3_body_def def = shove3_default_body_def();
    def.type = SHOVE_BODY_DYNAMIC;
    def.box = (shove3_aabb){{{1.2f, 0, 0.2f}}, {{1.8f, 1.8f, 0.8f}}};
    shove_id player;
    bool ok = shove3_world_set_voxels(world, &voxels) == SHOVE_OK &&
              shove3_body_create(world, &def, &player) == SHOVE_OK && player.index == PLAYER;

    ok = ok && dump(world, dir, "stuck.dump"); /* the debug key, as the walk begins */
    const vec3s walk = {{0.25f, -0.1f, 0}};
    shove3_move_result r = {0};
    int stuck_at = -1;
    for (int frame = 0; ok && frame < FRAMES; ++frame) {
        ok = shove3_move(world, player, walk, &wd.step_def, &r) == SHOVE_OK;
        if (stuck_at < 0 && r.delta.x == 0.0f) {
            stuck_at = frame;
        }
    }
    printf("the player %s at frame %d: x %.3f .. %.3f, y %.3f, hit_wall %d, stepped %d\n",
           stuck_at >= 0 ? "got stuck" : "never got stuck", stuck_at, (double)r.box.min.x,
           (double)r.box.max.x, (double)r.box.min.y, r.hit_wall, r.stepped);
    ok = ok && dump(world, dir, "stuck-game.dump"); /* the game noticed */
    printf("replay it: shove-replay %s/stuck.dump --move %d %g %g %g --frames %d --svg stuck.svg\n",
           dir, PLAYER, (double)walk.x, (double)walk.y, (double)walk.z, FRAMES);

    /* Stopped at the threshold's face, still on the floor. */
    const bool where = stuck_at > 0 && r.box.max.x == 4.0f && r.box.min.y == 0.0f && r.hit_wall &&
                       !r.stepped && r.on_ground;
    shove3_world_destroy(world);
    if (!ok || !where) {
        printf("FAILED: %s\n", ok ? "the player should stop at the threshold" : "see above");
        return 1;
    }
    return 0;
}
