/*
 * platformer.c: a 2D platformer loop on shove2_move. The level is a tile
 * map read through shove2_world_set_voxels. One-way platforms come in two
 * kinds, both through the move filter, which lets the player pass them from
 * below and drop through them: a body (a moving platform would be one) and
 * a row of one-way tiles ('-' in the map; the filter sees each tile's cell).
 * A scripted run (walk, jump up through the platform, land on it, drop
 * down, run into a wall, jump up onto the one-way tiles, drop through them)
 * checks each outcome; exits 1 if one is wrong.
 */
#include <math.h>
#include <stdio.h>

#include <shove/shove.h>

static const char *const level[] = {
    /* row 0 is the top; '#' is a solid tile, '-' a one-way tile */
    "####################", "#..................#", "#..................#", "#..................#",
    "#..................#", "#..................#", "#............---#..#", "#...............#..#",
    "#...............#..#", "####################",
};
enum { ROWS = sizeof level / sizeof level[0] };

static char tile_at(int32_t x, int32_t y) {
    return (x < 0 || y < 0 || x >= 20 || y >= ROWS) ? '.' : level[ROWS - 1 - y][x];
}

static int tile_shapes(void *ctx, int32_t x, int32_t y, shove2_aabb out[SHOVE_VOXEL_MAX_BOXES]) {
    (void)ctx;
    if (tile_at(x, y) == '.') {
        return 0;
    }
    out[0] = (shove2_aabb){{{0, 0}}, {{1, 1}}};
    return 1;
}

typedef struct player {
    shove2_world *world;
    shove_id body;
    float feet; /* bottom of the player when the move starts */
    bool dropping;
} player;

/* One-way platforms ('-' tiles, and bodies whose user data is non-NULL)
 * block the player only when its feet start at or above their top, and not
 * while it drops through. Everything else blocks everyone. */
static shove_response one_way(void *ctx, shove_id mover, const shove2_obstacle *obstacle) {
    const player *p = ctx;
    bool one_way_platform = false;
    if (obstacle->voxel) {
        one_way_platform = tile_at(obstacle->cell[0], obstacle->cell[1]) == '-';
    } else if (!shove_id_is_null(obstacle->other)) {
        void *data = NULL;
        one_way_platform =
            shove2_body_get_user_data(p->world, obstacle->other, &data) == SHOVE_OK && data != NULL;
    }
    if (!one_way_platform || !shove_id_equal(mover, p->body)) {
        return SHOVE_RESPONSE_SLIDE;
    }
    return (!p->dropping && p->feet >= obstacle->box.max.y) ? SHOVE_RESPONSE_SLIDE
                                                            : SHOVE_RESPONSE_IGNORE;
}

static int failures;
static void check(bool ok, const char *what, float value) {
    printf("%-44s %-4s (%g)\n", what, ok ? "ok" : "FAIL", (double)value);
    failures += !ok;
}

int main(void) {
    static int is_one_way = 1;
    player p = {0};
    shove2_world_create(NULL, &p.world);
    shove2_voxel_def tiles = shove2_default_voxel_def();
    tiles.shapes = tile_shapes;
    shove2_world_set_voxels(p.world, &tiles);

    shove2_body_def def = shove2_default_body_def();
    def.box = (shove2_aabb){{{5, 3.75f}}, {{9, 4}}}; /* one-way platform, top at y = 4 */
    def.user_data = &is_one_way;
    shove_id platform;
    shove2_body_create(p.world, &def, &platform);
    def = shove2_default_body_def();
    def.type = SHOVE_BODY_DYNAMIC;
    def.box = (shove2_aabb){{{2, 1}}, {{2.75f, 2.25f}}}; /* standing on the floor */
    shove2_body_create(p.world, &def, &p.body);

    shove2_move_def move = shove2_default_move_def();
    move.filter = one_way;
    move.filter_ctx = &p;
    const float gravity = 0.015f, jump = 0.35f, run = 0.1f;
    float vy = 0.0f, apex = 0.0f;
    bool on_ground = false;
    shove2_move_result r = {0};
    for (int frame = 0; frame < 600; ++frame) {
        /* The script: walk right, jump at frame 40, drop through at 160,
         * run right into the wall from 240 to 400, jump up through the
         * one-way tiles at 400 and drop through them at 500. */
        const bool walk = frame < 40 || (frame >= 240 && frame < 400);
        const bool jump_now = frame == 40 || frame == 160 || frame == 400 || frame == 500;
        p.dropping = (frame >= 160 && frame < 170) || (frame >= 500 && frame < 510);
        if (jump_now && on_ground) {
            vy = p.dropping ? 0.0f : jump; /* down + jump drops through */
        }
        vy = fmaxf(vy - gravity, -0.5f);
        shove2_aabb box;
        shove2_body_get_box(p.world, p.body, &box);
        p.feet = box.min.y;
        shove2_move(p.world, p.body, (vec2s){{walk ? run : 0.0f, vy}}, &move, &r);
        on_ground = r.on_ground;
        if ((on_ground && vy < 0.0f) || (r.hit_ceiling && vy > 0.0f)) {
            vy = 0.0f;
        }
        apex = fmaxf(apex, r.box.min.y);
        if (frame == 100) {
            check(apex > 4.0f, "jumped up through the platform (apex feet)", apex);
        }
        if (frame == 150) {
            check(on_ground && fabsf(r.box.min.y - 4.0f) <= 2 * move.skin,
                  "landed on the one-way platform (feet)", r.box.min.y);
        }
        if (frame == 230) {
            check(on_ground && fabsf(r.box.min.y - 1.0f) <= 2 * move.skin,
                  "dropped through onto the floor (feet)", r.box.min.y);
        }
        if (frame == 399) {
            /* The tile column at x = 16 stops the run: the player's right
             * side rests against it (within two skins; the default is 0). */
            check(r.hit_wall && fabsf(r.box.max.x - 16.0f) <= 2 * move.skin && r.box.max.x <= 16.0f,
                  "ran into the wall of tiles (right side)", r.box.max.x);
        }
        if (frame == 480) {
            check(on_ground && fabsf(r.box.min.y - 4.0f) <= 2 * move.skin,
                  "jumped up onto the one-way tiles (feet)", r.box.min.y);
        }
    }
    check(on_ground && fabsf(r.box.min.y - 1.0f) <= 2 * move.skin,
          "dropped through the tiles to the floor (feet)", r.box.min.y);
    shove2_world_destroy(p.world);
    return failures ? 1 : 0;
}
