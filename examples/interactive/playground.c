/*
 * playground.c: the scene, the four ways of moving an actor, and drawing.
 *
 * Every lane holds the same scene in its own shove2_world: the tile map is
 * read through a tile callback (shove2_world_set_voxels), free boxes are
 * static bodies and actors dynamic ones. A swept lane moves an actor with
 * shove2_move (collide-and-slide through the broad phase and the tiles). A
 * discrete lane does what the articles in the README's credits do: apply
 * the motion, then hand the moved box and the boxes around it (bodies from
 * shove2_query_box, tiles from the map) to shove2_resolve, and teleport the
 * actor to the corrected box (shove2_body_set_box). The step lane gives every moving actor its
 * motion (shove2_body_set_motion) and steps the world once a frame
 * (shove2_world_step): the selected actor has priority 0 and the others 1,
 * so it shoves them, and whatever they run into, transitively.
 */
#include "playground.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define CAT_SOLID 1u
#define CAT_ACTOR 2u

#define ACTOR_SIZE 0.75f  /* exact in binary */
#define SPEED      0.125f /* units per frame */
#define FAST       12.0f  /* speed factor with PG_KEY_FAST */
#define GRAVITY    0.0078125f
#define JUMP       0.25f /* about 4 units high */
#define MAX_FALL   0.5f

static const char *const method_names[PG_METHOD_COUNT] = {
    "swept slide (shove2_move)",        "mandatory-first (shove2_resolve)",
    "largest overlap (shove2_resolve)", "teleport (shove2_resolve)",
    "shove step (shove2_world_step)",
};
static const char *const method_keys[PG_METHOD_COUNT] = {"slide", "mandatory", "overlap",
                                                         "teleport", "step"};

const char *pg_method_name(pg_method m) {
    return (m >= 0 && m < PG_METHOD_COUNT) ? method_names[m] : "?";
}

const char *pg_method_key(pg_method m) {
    return (m >= 0 && m < PG_METHOD_COUNT) ? method_keys[m] : "?";
}

static shove2_aabb box_xy(float x0, float y0, float x1, float y1) {
    return (shove2_aabb){{{x0, y0}}, {{x1, y1}}};
}

static shove2_aabb box_moved(shove2_aabb b, vec2s d) {
    return box_xy(b.min.x + d.x, b.min.y + d.y, b.max.x + d.x, b.max.y + d.y);
}

static shove2_aabb tile_box(int i, int j) {
    return box_xy((float)i, (float)j, (float)(i + 1), (float)(j + 1));
}

static shove_id add_body(pg_lane *lane, shove2_aabb box, bool actor) {
    shove2_body_def def = shove2_default_body_def();
    def.box = box;
    def.type = actor ? SHOVE_BODY_DYNAMIC : SHOVE_BODY_STATIC;
    def.category = actor ? CAT_ACTOR : CAT_SOLID;
    def.priority = actor ? 1 : 0; /* the selected actor of the step lane gets 0 */
    shove_id id = SHOVE_NULL_ID;
    if (shove2_body_create(lane->world, &def, &id) != SHOVE_OK) {
        fprintf(stderr, "playground: cannot create a body\n");
    }
    return id;
}

static void set_tile(pg_scene *s, int i, int j, bool solid) {
    if (i >= 0 && j >= 0 && i < PG_TILES_X && j < PG_TILES_Y) {
        s->tiles[j][i] = solid;
    }
}

/* The tile callback: a solid tile is one unit box. */
static int tile_shapes(void *ctx, int32_t x, int32_t y, shove2_aabb out[SHOVE_VOXEL_MAX_BOXES]) {
    const pg_scene *s = ctx;
    if (x < 0 || y < 0 || x >= PG_TILES_X || y >= PG_TILES_Y || !s->tiles[y][x]) {
        return 0;
    }
    out[0] = box_xy(0.0f, 0.0f, 1.0f, 1.0f);
    return 1;
}

/* Appends the boxes of the solid tiles that overlap `region`. */
static size_t tiles_in(const pg_scene *s, shove2_aabb region, shove2_aabb *out, size_t cap) {
    size_t n = 0;
    const int i0 = (int)floorf(region.min.x), i1 = (int)ceilf(region.max.x);
    const int j0 = (int)floorf(region.min.y), j1 = (int)ceilf(region.max.y);
    for (int j = j0 < 0 ? 0 : j0; j < j1 && j < PG_TILES_Y; ++j) {
        for (int i = i0 < 0 ? 0 : i0; i < i1 && i < PG_TILES_X; ++i) {
            if (s->tiles[j][i] && n < cap && shove2_aabb_overlaps(tile_box(i, j), region)) {
                out[n++] = tile_box(i, j);
            }
        }
    }
    return n;
}

static void add_box(pg_scene *s, shove2_aabb box) {
    if (s->box_count == PG_MAX_BOXES) {
        return;
    }
    s->boxes[s->box_count] = box;
    for (int l = 0; l < PG_METHOD_COUNT; ++l) {
        s->lanes[l].box_body[s->box_count] = add_body(&s->lanes[l], box, false);
    }
    ++s->box_count;
}

static void remove_box(pg_scene *s, int k) {
    for (int l = 0; l < PG_METHOD_COUNT; ++l) {
        pg_lane *lane = &s->lanes[l];
        shove2_body_destroy(lane->world, lane->box_body[k]);
        lane->box_body[k] = lane->box_body[s->box_count - 1];
    }
    s->boxes[k] = s->boxes[s->box_count - 1];
    --s->box_count;
}

static void add_actor(pg_scene *s, shove2_aabb box) {
    if (s->actor_count == PG_MAX_ACTORS) {
        return;
    }
    for (int l = 0; l < PG_METHOD_COUNT; ++l) {
        pg_lane *lane = &s->lanes[l];
        lane->actor[s->actor_count] = add_body(lane, box, true);
        lane->vy[s->actor_count] = 0.0f;
        lane->grounded[s->actor_count] = false;
    }
    s->selected = s->actor_count++;
}

/* True when `box` overlaps a body with a category in `mask` in some lane,
 * or a tile when the mask has CAT_SOLID. */
static bool occupied(const pg_scene *s, shove2_aabb box, uint64_t mask) {
    shove2_aabb tile;
    if ((mask & CAT_SOLID) && tiles_in(s, box, &tile, 1) > 0) {
        return true;
    }
    for (int l = 0; l < PG_METHOD_COUNT; ++l) {
        if (shove2_query_box(s->lanes[l].world, box, mask, NULL, 0) > 0) {
            return true;
        }
    }
    return false;
}

/* The starting scene: a walled room with a seam floor of tiles, an inner
 * corner, a passage 0.625 wide for actors 0.75 wide, and a wall 1/8 thick. */
static void build_scene(pg_scene *s) {
    for (int i = 0; i < PG_TILES_X; ++i) {
        set_tile(s, i, 0, true);
        set_tile(s, i, PG_TILES_Y - 1, true);
    }
    for (int j = 1; j < PG_TILES_Y - 1; ++j) {
        set_tile(s, 0, j, true);
        set_tile(s, PG_TILES_X - 1, j, true);
    }
    for (int j = 1; j <= 5; ++j) {
        set_tile(s, 20, j, true); /* inner corner with the floor at (20, 1) */
    }
    for (int i = 3; i <= 9; ++i) {
        set_tile(s, i, 12, true); /* a ledge */
    }
    set_tile(s, 22, 1, true); /* steps */
    set_tile(s, 23, 1, true);
    set_tile(s, 23, 2, true);
    add_box(s, box_xy(24.0f, 8.0f, 27.0f, 9.0f)); /* the narrow passage */
    add_box(s, box_xy(27.625f, 8.0f, 31.0f, 9.0f));
    add_box(s, box_xy(36.0f, 1.0f, 36.125f, 12.0f)); /* the thin wall */
    add_box(s, box_xy(12.5f, 15.25f, 17.0f, 16.0f)); /* an off-grid shelf */
    add_actor(s, box_xy(2.125f, 1.0f, 2.875f, 1.75f));
    add_actor(s, box_xy(26.96875f, 12.0f, 27.71875f, 12.75f));
    add_actor(s, box_xy(33.5f, 2.0f, 34.25f, 2.75f));
    s->selected = 0;
}

bool pg_init(pg_scene *s) {
    memset(s, 0, sizeof *s);
    shove2_world_def def = shove2_default_world_def();
    def.bounds = box_xy(0.0f, 0.0f, (float)PG_TILES_X, (float)PG_TILES_Y);
    shove2_voxel_def tiles = shove2_default_voxel_def();
    tiles.shapes = tile_shapes;
    tiles.ctx = s;
    for (int l = 0; l < PG_METHOD_COUNT; ++l) {
        s->lanes[l].method = (pg_method)l;
        s->lanes[l].strongest = -1;
        if (shove2_world_create(&def, &s->lanes[l].world) != SHOVE_OK ||
            shove2_world_set_voxels(s->lanes[l].world, &tiles) != SHOVE_OK) {
            pg_free(s);
            return false;
        }
    }
    s->snap = true;
    s->show_contacts = true;
    s->show_normals = true;
    build_scene(s);
    return true;
}

void pg_free(pg_scene *s) {
    for (int l = 0; l < PG_METHOD_COUNT; ++l) {
        shove2_world_destroy(s->lanes[l].world);
        s->lanes[l].world = NULL;
    }
}

void pg_click(pg_scene *s, float x, float y, bool right) {
    if (right) {
        float cx = x, cy = y;
        if (s->snap) {
            cx = floorf(x) + 0.5f;
            cy = floorf(y) + 0.5f;
        }
        const float h = 0.5f * ACTOR_SIZE;
        const shove2_aabb box = box_xy(cx - h, cy - h, cx + h, cy + h);
        if (!occupied(s, box, CAT_SOLID | CAT_ACTOR)) {
            add_actor(s, box);
        }
        return;
    }
    if (s->snap) {
        const int i = (int)floorf(x), j = (int)floorf(y);
        if (i < 0 || j < 0 || i >= PG_TILES_X || j >= PG_TILES_Y) {
            return;
        }
        if (s->tiles[j][i] || !occupied(s, tile_box(i, j), CAT_ACTOR)) {
            set_tile(s, i, j, !s->tiles[j][i]);
        }
        return;
    }
    for (int k = 0; k < s->box_count; ++k) {
        const shove2_aabb b = s->boxes[k];
        if (x > b.min.x && x < b.max.x && y > b.min.y && y < b.max.y) {
            remove_box(s, k);
            return;
        }
    }
    const shove2_aabb box = box_xy(x - 0.5f, y - 0.5f, x + 0.5f, y + 0.5f);
    if (!occupied(s, box, CAT_ACTOR)) {
        add_box(s, box);
    }
}

bool pg_key(pg_scene *s, int key) {
    switch (key) {
    case '\t':
        s->selected = s->actor_count ? (s->selected + 1) % s->actor_count : 0;
        break;
    case 'm':
        s->shown = (s->shown + 1) % PG_METHOD_COUNT;
        break;
    case 'v':
        s->compare = !s->compare;
        break;
    case 'c':
        s->show_contacts = !s->show_contacts;
        break;
    case 'n':
        s->show_normals = !s->show_normals;
        break;
    case 'b':
        s->show_tree = !s->show_tree;
        break;
    case 'g':
        s->gravity = !s->gravity;
        break;
    case 'f':
        s->snap = !s->snap;
        break;
    case 'r': {
        const int shown = s->shown;
        const bool compare = s->compare;
        pg_free(s);
        if (!pg_init(s)) {
            return false;
        }
        s->shown = shown;
        s->compare = compare;
        break;
    }
    default:
        break;
    }
    return true;
}

void pg_note(pg_scene *s, float x, float y, const char *text) {
    if (s->note_count < PG_MAX_NOTES) {
        s->notes[s->note_count].x = x;
        s->notes[s->note_count].y = y;
        snprintf(s->notes[s->note_count].text, sizeof s->notes[0].text, "%s", text);
        ++s->note_count;
    }
}

/* One discrete move: motion first, then shove2_resolve against the boxes
 * around the moved actor. */
static void move_discrete(const pg_scene *s, pg_lane *lane, int k, bool selected, vec2s delta,
                          bool *ground, bool *ceiling) {
    static const shove_resolve_mode modes[PG_METHOD_COUNT] = {
        SHOVE_RESOLVE_MANDATORY_FIRST, SHOVE_RESOLVE_MANDATORY_FIRST, SHOVE_RESOLVE_LARGEST_OVERLAP,
        SHOVE_RESOLVE_TELEPORT, SHOVE_RESOLVE_TELEPORT};
    enum { CAP = 256 };
    shove_id ids[CAP];
    shove2_aabb obstacles[2 * CAP];
    shove2_aabb box;
    if (shove2_body_get_box(lane->world, lane->actor[k], &box) != SHOVE_OK) {
        return;
    }
    const shove2_aabb after = box_moved(box, delta);
    const float grow = 2.0f + fabsf(delta.x) + fabsf(delta.y);
    const shove2_aabb region =
        box_xy(fminf(box.min.x, after.min.x) - grow, fminf(box.min.y, after.min.y) - grow,
               fmaxf(box.max.x, after.max.x) + grow, fmaxf(box.max.y, after.max.y) + grow);
    size_t found = shove2_query_box(lane->world, region, ~(uint64_t)0, ids, CAP);
    found = found < CAP ? found : CAP;
    size_t n = tiles_in(s, region, obstacles, CAP);
    for (size_t i = 0; i < found; ++i) {
        if (!shove_id_equal(ids[i], lane->actor[k]) &&
            shove2_body_get_box(lane->world, ids[i], &obstacles[n]) == SHOVE_OK) {
            ++n;
        }
    }
    shove2_aabb out;
    if (shove2_resolve(after, delta, obstacles, n, modes[lane->method], &out) != SHOVE_OK) {
        return;
    }
    shove2_body_set_box(lane->world, lane->actor[k], out);
    *ground = out.min.y > after.min.y;
    *ceiling = out.min.y < after.min.y;
    if (selected) {
        lane->moved = after;
        lane->corrected = out;
        lane->has_correction = memcmp(&after, &out, sizeof out) != 0;
    }
}

static void move_actor(const pg_scene *s, pg_lane *lane, int k, bool selected, vec2s delta,
                       bool *ground, bool *ceiling) {
    *ground = *ceiling = false;
    if (lane->method != PG_SLIDE) {
        move_discrete(s, lane, k, selected, delta, ground, ceiling);
        return;
    }
    shove2_move_result r;
    if (shove2_move(lane->world, lane->actor[k], delta, NULL, &r) == SHOVE_OK) {
        *ground = r.on_ground;
        *ceiling = r.hit_ceiling;
    }
}

/* Boxes in `mask` (tiles with CAT_SOLID) that overlap `box` in `lane`,
 * other than actor k itself; counts up to 8 bodies. */
static size_t boxes_at(const pg_scene *s, const pg_lane *lane, int k, shove2_aabb box,
                       uint64_t mask) {
    shove_id ids[8];
    const size_t n = shove2_query_box(lane->world, box, mask, ids, 8);
    shove2_aabb tiles[16];
    size_t others = (mask & CAT_SOLID) ? tiles_in(s, box, tiles, 16) : 0;
    for (size_t i = 0; i < n && i < 8; ++i) {
        others += !shove_id_equal(ids[i], lane->actor[k]);
    }
    return others;
}

/* Counts actors that overlap a solid or another actor (never expected). */
static void check_lane(pg_scene *s, const pg_lane *lane) {
    for (int k = 0; k < s->actor_count; ++k) {
        const shove2_aabb box = pg_actor_box(s, lane->method, k);
        const size_t others = boxes_at(s, lane, k, box, CAT_SOLID | CAT_ACTOR);
        if (others > 0) {
            if (s->violations < 10) {
                fprintf(stderr, "frame %u: %s: actor %d overlaps %zu boxes at (%g, %g)\n",
                        (unsigned)s->frame, pg_method_key(lane->method), k, others,
                        (double)box.min.x, (double)box.min.y);
            }
            ++s->violations;
        }
    }
}

/* Step lane: a body's priority is fixed at creation, so the actor that
 * becomes the strongest (0) and the one that stops being it (1) are made
 * anew, in the same place. */
static void set_strongest(pg_lane *lane, int actor_count, int k) {
    const int old = lane->strongest;
    lane->strongest = k;
    for (int pass = 0; pass < 2; ++pass) {
        const int a = pass == 0 ? old : k;
        if (a < 0 || a >= actor_count) {
            continue;
        }
        shove2_body_def def = shove2_default_body_def();
        shove2_body_get_box(lane->world, lane->actor[a], &def.box);
        shove2_body_destroy(lane->world, lane->actor[a]);
        def.type = SHOVE_BODY_DYNAMIC;
        def.category = CAT_ACTOR;
        def.priority = a == k ? 0 : 1;
        shove2_body_create(lane->world, &def, &lane->actor[a]);
    }
}

/* The motion actor k asks for this frame: gravity, and the keys for the
 * selected one (a jump needs the lane's ground state). */
static vec2s wanted_motion(const pg_scene *s, pg_lane *lane, int k, unsigned keys) {
    const float speed = SPEED * ((keys & PG_KEY_FAST) ? FAST : 1.0f);
    const float dx = (float)(((keys & PG_KEY_RIGHT) != 0) - ((keys & PG_KEY_LEFT) != 0));
    const float dy = (float)(((keys & PG_KEY_UP) != 0) - ((keys & PG_KEY_DOWN) != 0));
    const bool selected = k == s->selected;
    vec2s delta = {{selected ? dx * speed : 0.0f, 0.0f}};
    if (s->gravity) {
        if (selected && dy > 0.0f && lane->grounded[k]) {
            lane->vy[k] = JUMP;
        } else {
            lane->vy[k] = fmaxf(lane->vy[k] - GRAVITY, -MAX_FALL);
        }
        delta.y = lane->vy[k];
    } else if (selected) {
        delta.y = dy * speed;
    }
    return delta;
}

static void landed(pg_lane *lane, int k, bool ground, bool ceiling) {
    if ((ground && lane->vy[k] < 0.0f) || (ceiling && lane->vy[k] > 0.0f)) {
        lane->vy[k] = 0.0f;
    }
    lane->grounded[k] = ground;
}

static void step_lane(pg_scene *s, pg_lane *lane, unsigned keys) {
    if (lane->strongest != s->selected) {
        set_strongest(lane, s->actor_count, s->selected);
    }
    vec2s want[PG_MAX_ACTORS];
    float start_y[PG_MAX_ACTORS];
    for (int k = 0; k < s->actor_count; ++k) {
        want[k] = wanted_motion(s, lane, k, keys);
        start_y[k] = pg_actor_box(s, lane->method, k).min.y;
        shove2_body_set_motion(lane->world, lane->actor[k], want[k]);
    }
    shove2_world_step(lane->world);
    /* A step has no per-body result: an actor that got less of the
     * vertical motion it asked for was stopped by a floor or a ceiling. */
    for (int k = 0; k < s->actor_count; ++k) {
        const float moved = pg_actor_box(s, lane->method, k).min.y - start_y[k];
        landed(lane, k, want[k].y < 0.0f && moved > want[k].y,
               want[k].y > 0.0f && moved < want[k].y);
    }
}

void pg_step(pg_scene *s, unsigned keys) {
    for (int l = 0; l < PG_METHOD_COUNT; ++l) {
        pg_lane *lane = &s->lanes[l];
        lane->has_correction = false;
        if (lane->method == PG_STEP) {
            step_lane(s, lane, keys);
            check_lane(s, lane);
            continue;
        }
        /* The selected actor moves last, so its contacts are the ones drawn. */
        for (int n = 1; n <= s->actor_count; ++n) {
            const int k = (s->selected + n) % s->actor_count;
            const vec2s delta = wanted_motion(s, lane, k, keys);
            if (delta.x == 0.0f && delta.y == 0.0f) {
                continue;
            }
            bool ground, ceiling;
            move_actor(s, lane, k, k == s->selected, delta, &ground, &ceiling);
            landed(lane, k, ground, ceiling);
        }
        check_lane(s, lane);
    }
    ++s->frame;
}

pg_stats pg_get_stats(const pg_scene *s) {
    pg_stats st = {s->frame, 0, 0};
    int first = s->compare ? 0 : s->shown;
    for (int l = 0; l < PG_METHOD_COUNT; ++l) {
        const pg_lane *lane = &s->lanes[l];
        for (int k = 0; k < s->actor_count; ++k) {
            const shove2_aabb box = pg_actor_box(s, l, k);
            st.inside += boxes_at(s, lane, k, box, CAT_SOLID) > 0;
            if (l == first) {
                /* Touching is not overlapping: what overlaps the box grown
                 * by 1/256 on every side touches it (or is inside it). */
                const float g = 0.00390625f;
                const shove2_aabb near =
                    box_xy(box.min.x - g, box.min.y - g, box.max.x + g, box.max.y + g);
                st.contacts += (int)boxes_at(s, lane, k, near, CAT_SOLID | CAT_ACTOR);
            }
        }
    }
    return st;
}

shove2_aabb pg_actor_box(const pg_scene *s, int lane, int actor) {
    shove2_aabb box = box_xy(0, 0, 0, 0);
    if (lane >= 0 && lane < PG_METHOD_COUNT && actor >= 0 && actor < s->actor_count) {
        shove2_body_get_box(s->lanes[lane].world, s->lanes[lane].actor[actor], &box);
    }
    return box;
}

/* >>drawing ---------------------------------------------------------------- */

enum { HUD_HEIGHT = 44, LABEL_HEIGHT = 18 };

typedef struct view {
    int x0, y0, x1, y1; /* cell on the canvas */
    float ox, oy;       /* pixel of world (0, PG_TILES_Y) */
    float scale;        /* pixels per unit */
} view;

static int lanes_shown(const pg_scene *s, int *first) {
    *first = s->compare ? 0 : s->shown;
    return s->compare ? PG_COMPARED : 1;
}

static view cell_view(const pg_scene *s, int width, int height, int index) {
    view v;
    int cols = 1, rows = 1;
    int avail_h = height - HUD_HEIGHT;
    if (s->compare) {
        cols = 2;
        rows = (PG_COMPARED + 1) / 2;
        avail_h = height;
    }
    const int cw = width / cols, ch = avail_h / rows;
    v.x0 = (index % cols) * cw;
    v.y0 = (index / cols) * ch;
    v.x1 = v.x0 + cw;
    v.y1 = v.y0 + ch;
    const float sx = (float)(cw - 16) / (float)PG_TILES_X;
    const float sy = (float)(ch - LABEL_HEIGHT - 8) / (float)PG_TILES_Y;
    v.scale = floorf(sx < sy ? sx : sy);
    v.ox = (float)v.x0 + 0.5f * ((float)cw - v.scale * (float)PG_TILES_X);
    v.oy = (float)(v.y0 + LABEL_HEIGHT + 4);
    return v;
}

static float px(const view *v, float x) {
    return v->ox + x * v->scale;
}

static float py(const view *v, float y) {
    return v->oy + ((float)PG_TILES_Y - y) * v->scale;
}

bool pg_screen_to_world(const pg_scene *s, int width, int height, int sx, int sy, float *x,
                        float *y) {
    int first;
    const int n = lanes_shown(s, &first);
    for (int i = 0; i < n; ++i) {
        const view v = cell_view(s, width, height, i);
        if (sx < v.x0 || sx >= v.x1 || sy < v.y0 || sy >= v.y1) {
            continue;
        }
        *x = ((float)sx + 0.5f - v.ox) / v.scale;
        *y = (float)PG_TILES_Y - ((float)sy + 0.5f - v.oy) / v.scale;
        return *x >= 0.0f && *y >= 0.0f && *x <= (float)PG_TILES_X && *y <= (float)PG_TILES_Y;
    }
    return false;
}

typedef struct draw_ctx {
    canvas *c;
    const view *v;
    bool outline_only;
} draw_ctx;

static void draw_box_cb(void *vctx, shove2_aabb b, uint32_t color) {
    const draw_ctx *d = vctx;
    const float x0 = px(d->v, b.min.x), x1 = px(d->v, b.max.x);
    const float y0 = py(d->v, b.max.y), y1 = py(d->v, b.min.y);
    if (!d->outline_only) {
        canvas_fill_rect(d->c, x0, y0, x1, y1, (color & 0xFFFFFF00u) | 0xB0u);
    }
    canvas_rect(d->c, x0, y0, x1, y1, d->outline_only ? (color | 0x30u) : color);
}

static void draw_point_cb(void *vctx, vec2s p, uint32_t color) {
    const draw_ctx *d = vctx;
    canvas_disc(d->c, px(d->v, p.x), py(d->v, p.y), fmaxf(2.0f, d->v->scale * 0.12f), color);
}

static void draw_normal_cb(void *vctx, vec2s p, vec2s n, uint32_t color) {
    const draw_ctx *d = vctx;
    const float len = 0.9f;
    canvas_arrow(d->c, px(d->v, p.x), py(d->v, p.y), px(d->v, p.x + n.x * len),
                 py(d->v, p.y + n.y * len), color);
}

static void draw_lane(const pg_scene *s, canvas *c, const pg_lane *lane, const view *v) {
    canvas_clip(c, v->x0, v->y0, v->x1, v->y1);
    canvas_fill_rect(c, (float)v->x0, (float)v->y0, (float)v->x1, (float)v->y1, 0x16181DFFu);
    const float wx0 = px(v, 0.0f), wx1 = px(v, (float)PG_TILES_X);
    const float wy0 = py(v, (float)PG_TILES_Y), wy1 = py(v, 0.0f);
    canvas_fill_rect(c, wx0, wy0, wx1, wy1, 0x22252CFFu);
    for (int i = 0; i <= PG_TILES_X; ++i) {
        canvas_line(c, px(v, (float)i), wy0, px(v, (float)i), wy1 - 1.0f, 0xFFFFFF10u);
    }
    for (int j = 0; j <= PG_TILES_Y; ++j) {
        canvas_line(c, wx0, py(v, (float)j), wx1 - 1.0f, py(v, (float)j), 0xFFFFFF10u);
    }
    canvas_clip(c, (int)wx0, (int)wy0, (int)wx1, (int)wy1);
    draw_ctx ctx = {c, v, false};
    for (int j = 0; j < PG_TILES_Y; ++j) {
        for (int i = 0; i < PG_TILES_X; ++i) {
            if (s->tiles[j][i]) {
                draw_box_cb(&ctx, tile_box(i, j), 0x8D8F96FFu); /* tiles: the map, not bodies */
            }
        }
    }
    shove2_debug_draw dd = {0};
    dd.draw_box = draw_box_cb;
    dd.ctx = &ctx;
    dd.draw_bodies = true;
    shove2_world_draw(lane->world, &dd);
    const shove2_aabb sel = pg_actor_box(s, lane->method, s->selected);
    if (s->actor_count > 0) {
        canvas_rect(c, px(v, sel.min.x) - 1.0f, py(v, sel.max.y) - 1.0f, px(v, sel.max.x) + 1.0f,
                    py(v, sel.min.y) + 1.0f, 0xFFEB3BFFu);
    }
    if (s->show_tree) {
        ctx.outline_only = true;
        dd.draw_bodies = false;
        dd.draw_tree = true;
        shove2_world_draw(lane->world, &dd);
        dd.draw_tree = false;
    }
    const bool swept = lane->method == PG_SLIDE || lane->method == PG_STEP;
    if (swept && (s->show_contacts || s->show_normals)) {
        dd.draw_box = NULL;
        dd.draw_point = s->show_contacts ? draw_point_cb : NULL;
        dd.draw_normal = s->show_normals ? draw_normal_cb : NULL;
        dd.draw_contacts = true;
        shove2_world_draw(lane->world, &dd);
    }
    if (!swept && lane->has_correction && (s->show_contacts || s->show_normals)) {
        /* where the motion put the actor, and the correction back out */
        const shove2_aabb m = lane->moved, o = lane->corrected;
        canvas_rect(c, px(v, m.min.x), py(v, m.max.y), px(v, m.max.x), py(v, m.min.y), 0xF44336FFu);
        canvas_arrow(c, px(v, 0.5f * (m.min.x + m.max.x)), py(v, 0.5f * (m.min.y + m.max.y)),
                     px(v, 0.5f * (o.min.x + o.max.x)), py(v, 0.5f * (o.min.y + o.max.y)),
                     0xFF9800FFu);
    }
    for (int i = 0; i < s->note_count; ++i) {
        canvas_text(c, (int)px(v, s->notes[i].x), (int)py(v, s->notes[i].y),
                    v->scale < 20.0f ? 1 : 2, s->notes[i].text, 0xFFD54FFFu);
    }
    canvas_clip(c, v->x0, v->y0, v->x1, v->y1);
    char label[96];
    snprintf(label, sizeof label, "%s", pg_method_name(lane->method));
    canvas_text(c, (int)wx0, v->y0 + 4, 2, label, 0xE0E0E0FFu);
    canvas_clip(c, 0, 0, c->width, c->height);
}

static void draw_hud(const pg_scene *s, canvas *c) {
    const int y = c->height - HUD_HEIGHT + 6;
    char line[200];
    snprintf(line, sizeof line,
             "WASD MOVE  SHIFT FAST  TAB NEXT ACTOR  LEFT CLICK %s  RIGHT CLICK ACTOR  M METHOD  "
             "V SIDE BY SIDE",
             s->snap ? "TILE" : "BOX");
    canvas_text(c, 12, y, 2, line, 0xB0B0B0FFu);
    snprintf(line, sizeof line,
             "C CONTACTS:%s  N NORMALS:%s  B BROAD PHASE:%s  G GRAVITY:%s  F SNAP:%s  R RESET  "
             "FRAME %u",
             s->show_contacts ? "ON" : "OFF", s->show_normals ? "ON" : "OFF",
             s->show_tree ? "ON" : "OFF", s->gravity ? "ON" : "OFF", s->snap ? "ON" : "OFF",
             (unsigned)s->frame);
    canvas_text(c, 12, y + 16, 2, line, 0xB0B0B0FFu);
}

void pg_render(const pg_scene *s, canvas *c) {
    canvas_clip(c, 0, 0, c->width, c->height);
    canvas_fill_rect(c, 0.0f, 0.0f, (float)c->width, (float)c->height, 0x101114FFu);
    int first;
    const int n = lanes_shown(s, &first);
    for (int i = 0; i < n; ++i) {
        const view v = cell_view(s, c->width, c->height, i);
        draw_lane(s, c, &s->lanes[first + i], &v);
    }
    if (!s->compare) {
        draw_hud(s, c);
    }
}
