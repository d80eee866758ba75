/*
 * dump_dim_test.c: shove2/3_world_dump and shove2/3_world_load: what a
 * dump holds, that it changes nothing, that dump -> load -> dump gives the
 * same text, that a loaded world moves and steps bodies exactly as the
 * original does, and that broken dumps are refused with nothing created.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "test_alloc.h"
#include "test_dim.h"
#include "test_voxel_map.h"

/* The whole text of a dump. */
static char *dump_text(const shove_world *w) {
    FILE *f = tmpfile();
    cr_assert_not_null(f);
    cr_assert_eq(SHOVE_FN(world_dump)(w, f), SHOVE_OK);
    const long size = ftell(f);
    cr_assert_gt(size, 0);
    rewind(f);
    char *text = calloc((size_t)size + 1, 1);
    cr_assert_eq(fread(text, 1, (size_t)size, f), (size_t)size);
    fclose(f);
    return text;
}

static FILE *text_file(const char *text) {
    FILE *f = tmpfile();
    cr_assert_not_null(f);
    fputs(text, f);
    rewind(f);
    return f;
}

/* Load a dump from text with the default world def. */
static shove_status load_text(const char *text, shove_world **out) {
    FILE *f = text_file(text);
    const shove_status st = SHOVE_FN(world_load)(NULL, f, out);
    fclose(f);
    return st;
}

/* The id of body `index` of a loaded world (null when there is none). */
static shove_id loaded_id(const shove_world *w, uint32_t index) {
    shove_id id = SHOVE_NULL_ID;
    if (SHOVE_FN(world_body_at)(w, index, &id) != SHOVE_OK) {
        return SHOVE_NULL_ID;
    }
    return id;
}

static int count_lines(const char *text, const char *prefix) {
    int n = 0;
    const size_t len = strlen(prefix);
    for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
        n += strncmp(p, prefix, len) == 0;
    }
    return n;
}

typedef struct scene {
    shove_world *w;
    test_map *map;
    shove_id ids[24];
    int count;
} scene;

/* Terrain of full blocks and slabs with fences, bodies standing on it and
 * floating above it, a few destroyed (gaps in the slots), categories,
 * masks, a sensor. */
static scene make_scene(void) {
    scene s;
    memset(&s, 0, sizeof s);
    shove_world_def def = SHOVE_FN(default_world_def)();
    def.step_def.step_height = 0.5f;
    def.step_def.skin = 1.0f / 512.0f;
    cr_assert_eq(SHOVE_FN(world_create)(&def, &s.w), SHOVE_OK);
    s.map = map_new(-2, -2, -2, 20, 6, 20);
    for (int x = -2; x < 18; ++x) {
        for (int z = -2; z < 18; ++z) {
            map_set(s.map, x, -1, z, CELL_FULL);
            if ((x + z) % 7 == 0) {
                map_set(s.map, x, 0, z, CELL_SLAB_BOTTOM);
            }
            if ((x * 3 + z) % 11 == 0) {
                map_set(s.map, x, 0, z, CELL_FENCE);
            }
        }
    }
    const shove_voxel_def vdef = map_def(s.map, V(0.5, 0, -0.25), 1.0f);
    cr_assert_eq(SHOVE_FN(world_set_voxels)(s.w, &vdef), SHOVE_OK);
    for (int i = 0; i < 24; ++i) {
        shove_body_def b = SHOVE_FN(default_body_def)();
        b.type = i % 3 ? SHOVE_BODY_DYNAMIC : SHOVE_BODY_STATIC;
        const float x = 0.7f * (float)i - 0.3f, z = 0.55f * (float)(i % 9);
        const float y = i % 2 ? 1.0f : 3.25f;
        b.box = BOX(x, y, z, x + 0.6f, y + 1.8f, z + 0.6f);
        b.priority = (uint8_t)(i % 5);
        b.category = 1u << (i % 4);
        b.mask = i % 6 ? UINT64_MAX : 0x5u;
        b.sensor = i == 7;
        cr_assert_eq(SHOVE_FN(body_create)(s.w, &b, &s.ids[i]), SHOVE_OK);
    }
    /* gaps: slots 4 and 11 free */
    cr_assert_eq(SHOVE_FN(body_destroy)(s.w, s.ids[4]), SHOVE_OK);
    cr_assert_eq(SHOVE_FN(body_destroy)(s.w, s.ids[11]), SHOVE_OK);
    s.ids[4] = s.ids[11] = SHOVE_NULL_ID;
    s.count = 24;
    return s;
}

static void free_scene(scene *s) {
    SHOVE_FN(world_destroy)(s->w);
    map_free(s->map);
}

Test(dump, holds_every_body_and_the_voxels_near_them) {
    scene s = make_scene();
    char *text = dump_text(s.w);
    char first[32];
    snprintf(first, sizeof first, "shove %dd dump 1\n", SHOVE_DIM);
    cr_expect_eq(strncmp(text, first, strlen(first)), 0, "header: %.30s", text);
    cr_expect_eq(count_lines(text, "body "), 22);
    cr_expect_eq(count_lines(text, "end"), 1);
    cr_expect_eq(count_lines(text, "voxels size 1 origin"), 1);
    cr_expect_gt(count_lines(text, "voxel "), 20, "no voxels near the bodies");
    cr_expect_eq(count_lines(text, "motion "), 0);
    /* every live body's line, with its exact box */
    for (int i = 0; i < s.count; ++i) {
        char key[32];
        snprintf(key, sizeof key, "\nbody %d ", i);
        const char *line = strstr(text, key);
        if (shove_id_is_null(s.ids[i])) {
            cr_expect_null(line, "destroyed body %d dumped", i);
            continue;
        }
        cr_assert_not_null(line, "body %d missing", i);
        const char *box = strstr(line, " box ");
        cr_assert_not_null(box);
        box += 5;
        shove_aabb got, want;
        cr_assert_eq(SHOVE_FN(body_get_box)(s.w, s.ids[i], &want), SHOVE_OK);
        char *end;
        for (int a = 0; a < SHOVE_DIM; ++a) {
            got.min.raw[a] = strtof(box, &end);
            box = end;
        }
        for (int a = 0; a < SHOVE_DIM; ++a) {
            got.max.raw[a] = strtof(box, &end);
            box = end;
        }
        cr_expect(memcmp(&got, &want, sizeof got) == 0, "body %d: box not exact", i);
        cr_expect(strncmp(line + strlen(key), i % 3 ? "dynamic" : "static", 6) == 0);
    }
    cr_expect_not_null(strstr(text, " sensor 1 "));
    free(text);
    free_scene(&s);
}

Test(dump, changes_nothing_and_is_the_same_twice) {
    scene s = make_scene();
    shove_aabb before[24], after[24];
    for (int i = 0; i < s.count; ++i) {
        memset(&before[i], 0, sizeof before[i]);
        SHOVE_FN(body_get_box)(s.w, s.ids[i], &before[i]);
    }
    char *a = dump_text(s.w);
    char *b = dump_text(s.w);
    cr_expect_str_eq(a, b);
    for (int i = 0; i < s.count; ++i) {
        memset(&after[i], 0, sizeof after[i]);
        SHOVE_FN(body_get_box)(s.w, s.ids[i], &after[i]);
    }
    cr_expect(memcmp(before, after, sizeof before) == 0);
    cr_expect_eq(SHOVE_FN(world_body_count)(s.w), 22u);
    free(a);
    free(b);
    free_scene(&s);
}

Test(dump, load_then_dump_gives_the_same_text) {
    scene s = make_scene();
    char *a = dump_text(s.w);
    shove_world *loaded = NULL;
    cr_assert_eq(load_text(a, &loaded), SHOVE_OK);
    char *b = dump_text(loaded);
    cr_expect_str_eq(a, b);
    /* same slots: the gaps stay gaps, every body keeps its index and box */
    cr_expect_eq(SHOVE_FN(world_body_count)(loaded), 22u);
    for (int i = 0; i < s.count; ++i) {
        const shove_id id = loaded_id(loaded, (uint32_t)i);
        cr_expect_eq(shove_id_is_null(s.ids[i]), shove_id_is_null(id), "slot %d", i);
        if (!shove_id_is_null(s.ids[i])) {
            shove_aabb want, got;
            cr_assert_eq(id.index, (uint32_t)i);
            cr_assert_eq(SHOVE_FN(body_get_box)(s.w, s.ids[i], &want), SHOVE_OK);
            cr_assert_eq(SHOVE_FN(body_get_box)(loaded, id, &got), SHOVE_OK);
            cr_expect(memcmp(&want, &got, sizeof want) == 0, "body %d", i);
        }
    }
    /* the dump's step settings */
    shove_move_def step;
    cr_assert_eq(SHOVE_FN(world_get_step_def)(loaded, &step), SHOVE_OK);
    cr_expect(step.step_height == 0.5f && step.skin == 1.0f / 512.0f);
    cr_expect(step.max_iterations == SHOVE_FN(default_move_def)().max_iterations);
    cr_expect_eq(SHOVE_FN(world_get_step_def)(NULL, &step), SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect_eq(SHOVE_FN(world_get_step_def)(loaded, NULL), SHOVE_ERR_INVALID_ARGUMENT);
    /* the loaded world's voxels: the dump's cells, the same boxes as the
     * game's callback near a body; empty far away (not in the dump) */
    shove_voxel_def game, mine;
    cr_assert_eq(SHOVE_FN(world_get_voxels)(s.w, &game), SHOVE_OK);
    cr_assert_eq(SHOVE_FN(world_get_voxels)(loaded, &mine), SHOVE_OK);
    cr_assert_not_null(mine.shapes);
    cr_expect(mine.voxel_size == game.voxel_size);
    cr_expect(memcmp(&mine.origin, &game.origin, sizeof game.origin) == 0);
    shove_aabb g[SHOVE_VOXEL_MAX_BOXES], m[SHOVE_VOXEL_MAX_BOXES];
    int solid = 0;
    for (int x = -1; x < 4; ++x) {
        for (int y = -1; y < 2; ++y) {
#if SHOVE_DIM == 3
            const int ng = game.shapes(game.ctx, x, y, 1, g);
            const int nm = mine.shapes(mine.ctx, x, y, 1, m);
#else
            const int ng = game.shapes(game.ctx, x, y, g);
            const int nm = mine.shapes(mine.ctx, x, y, m);
#endif
            cr_expect_eq(ng, nm, "cell %d %d", x, y);
            cr_expect(nm == ng && memcmp(g, m, (size_t)nm * sizeof m[0]) == 0);
            solid += nm > 0;
        }
    }
    cr_expect_gt(solid, 3);
#if SHOVE_DIM == 3
    cr_expect_eq(mine.shapes(mine.ctx, 10000, -1, 0, m), 0);
#else
    cr_expect_eq(mine.shapes(mine.ctx, 10000, -1, m), 0);
#endif
    SHOVE_FN(world_destroy)(loaded);
    free(a);
    free(b);
    free_scene(&s);
}

Test(dump, a_loaded_world_moves_bodies_as_the_original_does) {
    scene s = make_scene();
    char *text = dump_text(s.w);
    shove_world *loaded = NULL;
    cr_assert_eq(load_text(text, &loaded), SHOVE_OK);
    shove_move_def def = SHOVE_FN(default_move_def)();
    def.step_height = 0.5f;
    /* small moves: within the voxels of margin the dump keeps */
    const shove_vec moves[4] = {V(0.9, -1.0, 0.3), V(-0.7, -0.2, -0.8), V(0.2, 1.1, 0),
                                V(1, -1, 1)};
    int blocked = 0;
    for (int round = 0; round < 4; ++round) {
        for (int i = 0; i < s.count; ++i) {
            if (shove_id_is_null(s.ids[i])) {
                continue;
            }
            shove_move_result r1, r2;
            cr_assert_eq(SHOVE_FN(move)(s.w, s.ids[i], moves[round], &def, &r1), SHOVE_OK);
            cr_assert_eq(
                SHOVE_FN(move)(loaded, loaded_id(loaded, (uint32_t)i), moves[round], &def, &r2),
                SHOVE_OK);
            cr_expect(memcmp(&r1.box, &r2.box, sizeof r1.box) == 0, "round %d body %d", round, i);
            cr_expect_eq(r1.contact_count, r2.contact_count, "round %d body %d", round, i);
            cr_expect(r1.on_ground == r2.on_ground && r1.hit_wall == r2.hit_wall &&
                      r1.stepped == r2.stepped);
            blocked += r1.contact_count > 0;
        }
    }
    cr_expect_gt(blocked, 10, "the moves met nothing: a weak test");
    SHOVE_FN(world_destroy)(loaded);
    free(text);
    free_scene(&s);
}

Test(dump, pending_motions_load_and_step_as_the_original_does) {
    scene s = make_scene();
    for (int i = 0; i < s.count; ++i) {
        if (!shove_id_is_null(s.ids[i]) && i % 3) {
            const float k = (float)(i % 5) - 2.0f;
            cr_assert_eq(SHOVE_FN(body_set_motion)(s.w, s.ids[i], V(0.3f * k, -0.5, 0.2f * k)),
                         SHOVE_OK);
        }
    }
    char *text = dump_text(s.w);
    cr_expect_gt(count_lines(text, "motion "), 5);
    shove_world *loaded = NULL;
    cr_assert_eq(load_text(text, &loaded), SHOVE_OK);
    char *again = dump_text(loaded);
    cr_expect_str_eq(text, again);
    shove_aabb start[24];
    for (int i = 0; i < s.count; ++i) {
        memset(&start[i], 0, sizeof start[i]);
        SHOVE_FN(body_get_box)(s.w, s.ids[i], &start[i]);
    }
    cr_assert_eq(SHOVE_FN(world_step)(s.w), SHOVE_OK);
    cr_assert_eq(SHOVE_FN(world_step)(loaded), SHOVE_OK);
    int moved = 0;
    for (int i = 0; i < s.count; ++i) {
        if (shove_id_is_null(s.ids[i])) {
            continue;
        }
        shove_aabb a, b;
        cr_assert_eq(SHOVE_FN(body_get_box)(s.w, s.ids[i], &a), SHOVE_OK);
        cr_assert_eq(SHOVE_FN(body_get_box)(loaded, loaded_id(loaded, (uint32_t)i), &b), SHOVE_OK);
        cr_expect(memcmp(&a, &b, sizeof a) == 0, "body %d", i);
        moved += memcmp(&a, &start[i], sizeof a) != 0;
    }
    cr_expect_gt(moved, 5);
    SHOVE_FN(world_destroy)(loaded);
    free(text);
    free(again);
    free_scene(&s);
}

Test(dump, an_empty_world_and_one_without_voxels) {
    shove_world *w = NULL;
    cr_assert_eq(SHOVE_FN(world_create)(NULL, &w), SHOVE_OK);
    char *text = dump_text(w);
    cr_expect_eq(count_lines(text, "voxels none"), 1);
    cr_expect_eq(count_lines(text, "body "), 0);
    shove_world *loaded = NULL;
    cr_assert_eq(load_text(text, &loaded), SHOVE_OK);
    char *again = dump_text(loaded);
    cr_expect_str_eq(text, again);
    cr_expect_eq(SHOVE_FN(world_body_count)(loaded), 0u);
    shove_voxel_def v;
    cr_assert_eq(SHOVE_FN(world_get_voxels)(loaded, &v), SHOVE_OK);
    cr_expect_null(v.shapes);
    shove_id id;
    cr_expect_eq(SHOVE_FN(world_body_at)(loaded, 0, &id), SHOVE_ERR_STALE_ID);
    SHOVE_FN(world_destroy)(loaded);
    free(text);
    free(again);
    SHOVE_FN(world_destroy)(w);
}

/* A small valid dump with the given lines between its settings and `end`. */
static char *small_dump(const char *body_lines) {
    const char *settings =
        SHOVE_DIM == 3
            ? "shove 3d dump 1\nbounds -64 -64 -64 64 64 64\n"
              "step skin 0 iterations 8 up 1 step_height 0.5 edge_guard 0 response slide\n"
              "voxels size 1 origin 0 0 0 bounds 0 0 0 1 1.5 1\n"
            : "shove 2d dump 1\nbounds -64 -64 64 64\n"
              "step skin 0 iterations 8 up 1 step_height 0.5 edge_guard 0 response slide\n"
              "voxels size 1 origin 0 0 bounds 0 0 1 1.5\n";
    char *t = malloc(strlen(settings) + strlen(body_lines) + 8);
    strcpy(t, settings);
    strcat(t, body_lines);
    strcat(t, "end\n");
    return t;
}

/* Lines for the 3D text; in 2D every third number of a box or cell is dropped. */
static void flatten(char *line) {
#if SHOVE_DIM == 2
    /* "@" marks a number that exists only in 3D */
    char *out = line;
    for (char *p = line; *p;) {
        if (*p == '@') {
            while (*p && *p != ' ' && *p != '\n') {
                ++p;
            }
            if (*p == ' ') {
                ++p;
            }
            continue;
        }
        *out++ = *p++;
    }
    *out = '\0';
#else
    for (char *p = line; *p; ++p) {
        if (*p == '@') {
            *p = ' ';
        }
    }
#endif
}

Test(dump, a_small_dump_loads) {
    char lines[] = "body 0 dynamic priority 2 category 0x3 mask 0xffffffffffffffff sensor 0 box 0 "
                   "1 @0 1 2 @1\nmotion 0 0.5 -1 @0\nregion 0 -4 -4 @-4 5 6 @5\n"
                   "body 3 static box 2 0 @0 3 1 @1\nvoxel 0 -1 @0 box 0 0 @0 1 1 @1\n"
                   "# a comment\n\n";
    flatten(lines);
    char *text = small_dump(lines);
    shove_world *w = NULL;
    cr_assert_eq(load_text(text, &w), SHOVE_OK, "%s", text);
    cr_expect_eq(SHOVE_FN(world_body_count)(w), 2u);
    shove_id id;
    cr_expect_eq(SHOVE_FN(world_body_at)(w, 1, &id), SHOVE_ERR_STALE_ID);
    cr_expect_eq(SHOVE_FN(world_body_at)(w, 2, &id), SHOVE_ERR_STALE_ID);
    cr_expect_eq(SHOVE_FN(world_body_at)(w, 4, &id), SHOVE_ERR_STALE_ID);
    cr_expect_eq(SHOVE_FN(world_body_at)(NULL, 0, &id), SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect_eq(SHOVE_FN(world_body_at)(w, 0, NULL), SHOVE_ERR_INVALID_ARGUMENT);
    cr_assert_eq(SHOVE_FN(world_body_at)(w, 3, &id), SHOVE_OK);
    shove_aabb box;
    cr_assert_eq(SHOVE_FN(body_get_box)(w, id, &box), SHOVE_OK);
    EXPECT_VEC_EQ(box.min, V(2, 0, 0));
    /* the voxel under body 0 is solid: a step lands it on it */
    cr_assert_eq(SHOVE_FN(world_body_at)(w, 0, &id), SHOVE_OK);
    cr_assert_eq(SHOVE_FN(world_step)(w), SHOVE_OK);
    cr_assert_eq(SHOVE_FN(body_get_box)(w, id, &box), SHOVE_OK);
    EXPECT_VEC_EQ(box.min, V(0.5, 0, 0));
    SHOVE_FN(world_destroy)(w);
    free(text);
}

Test(dump, the_voxel_budget_and_solid_range_load_back) {
    test_map *map = map_new(-2, -2, -2, 8, 4, 8);
    for (int x = -2; x < 8; ++x) {
        for (int z = -2; z < 8; ++z) {
            map_set(map, x, -1, z, CELL_FULL);
        }
    }
    shove_voxel_def vdef = map_def(map, V(0, 0, 0), 1.0f);
    const int32_t lo[3] = {-2, -1, -2}, hi[3] = {7, 3, 7};
    for (int a = 0; a < SHOVE_DIM; ++a) {
        vdef.solid_min[a] = lo[a];
        vdef.solid_max[a] = hi[a];
    }
    vdef.max_cells = 6u;
    shove_world *w = NULL;
    cr_assert_eq(SHOVE_FN(world_create)(NULL, &w), SHOVE_OK);
    cr_assert_eq(SHOVE_FN(world_set_voxels)(w, &vdef), SHOVE_OK);
    shove_body_def b = SHOVE_FN(default_body_def)();
    b.type = SHOVE_BODY_DYNAMIC;
    b.box = BOX(1.25, 0, 1.25, 1.75, 1.5, 1.75);
    shove_id id;
    cr_assert_eq(SHOVE_FN(body_create)(w, &b, &id), SHOVE_OK);
    char *text = dump_text(w);
    cr_expect_not_null(strstr(text, SHOVE_DIM == 3 ? " solid -2 -1 -2 7 3 7 max_cells 6\n"
                                                   : " solid -2 -1 7 3 max_cells 6\n"),
                       "%s", text);
    shove_world *loaded = NULL;
    cr_assert_eq(load_text(text, &loaded), SHOVE_OK);
    shove_voxel_def got;
    cr_assert_eq(SHOVE_FN(world_get_voxels)(loaded, &got), SHOVE_OK);
    for (int a = 0; a < SHOVE_DIM; ++a) {
        cr_expect_eq(got.solid_min[a], lo[a], "axis %d", a);
        cr_expect_eq(got.solid_max[a], hi[a], "axis %d", a);
    }
    cr_expect_eq(got.max_cells, 6u);
    char *again = dump_text(loaded);
    cr_expect_str_eq(again, text);
    /* The loaded world keeps the budget: the moves the game's world
     * refuses for it (a budget of 6 cells holds a small step, not a long
     * one), and only those, are refused. */
    const shove_id moved = loaded_id(loaded, 0);
    static const float steps[] = {0.0f, 0.125f, 1.0f, 3.0f};
    int refused = 0;
    for (int i = 0; i < 4; ++i) {
        shove_move_result r, rl;
        const shove_status s = SHOVE_FN(move)(w, id, V(steps[i], -0.125, 0), NULL, &r);
        const shove_status sl = SHOVE_FN(move)(loaded, moved, V(steps[i], -0.125, 0), NULL, &rl);
        cr_expect_eq(sl, s, "step %d: %s vs %s", i, shove_status_string(sl),
                     shove_status_string(s));
        cr_expect(s == SHOVE_OK || s == SHOVE_ERR_OUT_OF_RANGE);
        refused += s == SHOVE_ERR_OUT_OF_RANGE;
        if (s == SHOVE_OK && sl == SHOVE_OK) {
            EXPECT_VEC_EQ(rl.box.min, r.box.min);
        }
    }
    cr_expect(refused > 0 && refused < 4, "%d of 4 refused", refused);
    SHOVE_FN(world_destroy)(loaded);
    free(again);
    free(text);
    /* The defaults: an unbounded range and max_cells as set (0 stays 0,
     * which means the default budget). */
    vdef = map_def(map, V(0, 0, 0), 1.0f);
    vdef.max_cells = 0u;
    cr_assert_eq(SHOVE_FN(world_set_voxels)(w, &vdef), SHOVE_OK);
    text = dump_text(w);
    cr_expect_not_null(strstr(text, SHOVE_DIM == 3 ? " solid 0 0 0 0 0 0 max_cells 0\n"
                                                   : " solid 0 0 0 0 max_cells 0\n"),
                       "%s", text);
    cr_assert_eq(load_text(text, &loaded), SHOVE_OK);
    cr_assert_eq(SHOVE_FN(world_get_voxels)(loaded, &got), SHOVE_OK);
    cr_expect_eq(got.max_cells, 0u);
    for (int a = 0; a < SHOVE_DIM; ++a) {
        cr_expect(got.solid_min[a] == 0 && got.solid_max[a] == 0);
    }
    SHOVE_FN(world_destroy)(loaded);
    free(text);
    /* A dump without them (written before they existed) gets the defaults. */
    text = small_dump("");
    cr_assert_eq(load_text(text, &loaded), SHOVE_OK);
    cr_assert_eq(SHOVE_FN(world_get_voxels)(loaded, &got), SHOVE_OK);
    cr_expect_eq(got.max_cells, SHOVE_VOXEL_DEFAULT_MAX_CELLS);
    SHOVE_FN(world_destroy)(loaded);
    free(text);
    /* Bad values are refused. */
    static const char *const bad[] = {
        "solid 0 0 @0 -1 0 @0",  /* min > max */
        "solid 0 0 @0 1",        /* a number short */
        "solid 0 0 @0 1 1 @1 x", /* not a number */
        "solid 0 0 @0 2147483648 1 @1",
        "max_cells -1",
        "max_cells 4294967296",
        "max_cells 1.5",
        "max_cells 5 max_cells 5",
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; ++k) {
        char line[256];
        snprintf(line, sizeof line,
                 SHOVE_DIM == 3 ? "shove 3d dump 1\nbounds -64 -64 -64 64 64 64\nstep\nvoxels "
                                  "size 1 %s\nend\n"
                                : "shove 2d dump 1\nbounds -64 -64 64 64\nstep\nvoxels size 1 "
                                  "%s\nend\n",
                 bad[k]);
        flatten(line);
        loaded = NULL;
        cr_expect_eq(load_text(line, &loaded), SHOVE_ERR_INVALID_ARGUMENT, "%s", line);
        cr_expect_null(loaded);
    }
    SHOVE_FN(world_destroy)(w);
    map_free(map);
}

Test(dump, broken_dumps_are_refused_and_create_nothing) {
    scene s = make_scene();
    char *text = dump_text(s.w);
    const size_t len = strlen(text);
    test_alloc counter;
    shove_world_def def = SHOVE_FN(default_world_def)();
    def.allocator = test_alloc_make(&counter);
    shove_world *const untouched = (shove_world *)&counter;
    /* cut off at every line end before `end`, and inside lines: refused */
    int cuts = 0;
    for (size_t at = 0; at < len - 4; ++at) {
        if (!(text[at] == '\n' || at % 97 == 0)) {
            continue;
        }
        FILE *f = tmpfile();
        fwrite(text, 1, at, f);
        rewind(f);
        shove_world *w = untouched;
        cr_expect_eq(SHOVE_FN(world_load)(&def, f, &w), SHOVE_ERR_INVALID_ARGUMENT,
                     "a dump cut at %zu loaded", at);
        cr_expect_eq(w, untouched);
        cr_expect_eq(counter.live, 0, "cut at %zu: %lld bytes kept", at, counter.live);
        fclose(f);
        ++cuts;
    }
    cr_expect_gt(cuts, 20);
    free(text);
    free_scene(&s);

    /* one bad line among good ones ("@": 3D only) */
    const char *other = SHOVE_DIM == 3 ? "shove 2d dump 1\nend\n" : "shove 3d dump 1\nend\n";
    const char *bad_lines[] = {
        "body 0 dynamic box 0 0 @0 nan 1 @1\n",                        /* NaN */
        "body 0 dynamic box 0 0 @0 inf 1 @1\n",                        /* inf */
        "body 0 dynamic box 0 0 @0 1e39 1 @1\n",                       /* overflows a float */
        "body 0 dynamic box 2 0 @0 1 1 @1\n",                          /* min > max */
        "body 0 dynamic box 0 0 @0 1\n",                               /* a number short */
        "body 0 dynamic box 0 0 @0 1 1 @1 7\n",                        /* a number too many */
        "body 0 dynamic box 0 0 @0 1x 1 @1\n",                         /* not a number */
        "body 0 dynamic priority 256 box 0 0 @0 1 1 @1\n",             /* out of range */
        "body 0 dynamic priority 1.5 box 0 0 @0 1 1 @1\n",             /* not an integer */
        "body 0 dynamic category 0x box 0 0 @0 1 1 @1\n",              /* empty mask */
        "body 0 dynamic mask 0x10000000000000000 box 0 0 @0 1 1 @1\n", /* 65 bits */
        "body 0 dynamic mask -0x1 box 0 0 @0 1 1 @1\n",                /* negative */
        "body 0 dynamic sensor 2 box 0 0 @0 1 1 @1\n",                 /* not 0 or 1 */
        "body 0 dynamic box 0 0 @0 1 1 @1 box 0 0 @0 1 1 @1\n",        /* a keyword twice */
        "body 0 dynamic\n",                                            /* no box */
        "body 0 moving box 0 0 @0 1 1 @1\n",                           /* unknown type */
        "body 1048576 static box 0 0 @0 1 1 @1\n",                     /* index too large */
        "body 99999999999999999999 static box 0 0 @0 1 1 @1\n",        /* overflows */
        "body -1 static box 0 0 @0 1 1 @1\n",
        "body 2 static box 0 0 @0 1 1 @1\nbody 1 static box 0 0 @0 1 1 @1\n", /* not growing */
        "body 0 static box 0 0 @0 1 1 @1\nmotion 0 1 0 @0\n", /* a static body's motion */
        "motion 0 1 0 @0\n",                                  /* no body */
        "body 0 dynamic box 0 0 @0 1 1 @1\nmotion 0 nan 0 @0\n",
        "body 0 dynamic box 0 0 @0 1 1 @1\nregion 0 1 1 @1 0 0 @0\n",       /* lo > hi */
        "region 0 0 0 @0 1 1 @1\n",                                         /* no body */
        "voxel 0 0 @0\n",                                                   /* no box */
        "voxel 0 0 @0 box 0 0 @0 1 2 @1\n",                                 /* beyond the bounds */
        "voxel 0 0 @0 box 0 0 @0 1 1 @1\nvoxel 0 0 @0 box 0 0 @0 1 1 @1\n", /* twice */
        "voxel 0 0 @0 box 0 0 @0 1 1 @1 box 0 0 @0 1 1 @1 box 0 0 @0 1 1 @1 box 0 0 @0 1 1 @1 "
        "box 0 0 @0 1 1 @1 box 0 0 @0 1 1 @1 box 0 0 @0 1 1 @1 box 0 0 @0 1 1 @1 box 0 0 @0 1 "
        "1 @1\n",                                    /* 9 boxes */
        "voxel 2147483648 0 @0 box 0 0 @0 1 1 @1\n", /* beyond int32 */
        "teleport 1 2 @3\n",                         /* unknown record */
        "bounds -1 -1 @-1 1 1 @1\n",                 /* a setting twice */
        "end 1\n",
    };
    const int count = (int)(sizeof bad_lines / sizeof bad_lines[0]);
    for (int k = 0; k <= count + 8; ++k) {
        char *t;
        if (k < count) {
            char line[1024];
            snprintf(line, sizeof line, "%s", bad_lines[k]);
            flatten(line);
            t = small_dump(line);
        } else {
            /* whole texts: the other dimension, no settings, settings out of
             * order or broken (a step height without an up axis, a negative
             * edge footing), no voxels but voxel lines, an overlong line */
            char *long_line = malloc(5000);
            memset(long_line, ' ', 4999);
            long_line[4999] = '\0';
            long_line[0] = '#';
            const char *whole[9] = {
                other,
                "shove 3d dump 1\nshove 2d dump 1\nend\n",
                SHOVE_DIM == 3 ? "shove 3d dump 1\nend\n" : "shove 2d dump 1\nend\n",
                SHOVE_DIM == 3 ? "shove 3d dump 1\nbounds 1 1 1 -1 -1 -1\nstep\nvoxels none\nend\n"
                               : "shove 2d dump 1\nbounds 1 1 -1 -1\nstep\nvoxels none\nend\n",
                SHOVE_DIM == 3
                    ? "shove 3d dump 1\nbounds -1 -1 -1 1 1 1\nstep iterations 0\nvoxels "
                      "none\nend\n"
                    : "shove 2d dump 1\nbounds -1 -1 1 1\nstep iterations 0\nvoxels "
                      "none\nend\n",
                SHOVE_DIM == 3
                    ? "shove 3d dump 1\nbounds -1 -1 -1 1 1 1\nstep\nvoxels none\nvoxel 0 "
                      "0 0 box 0 0 0 1 1 1\nend\n"
                    : "shove 2d dump 1\nbounds -1 -1 1 1\nstep\nvoxels none\nvoxel 0 0 "
                      "box 0 0 1 1\nend\n",
                SHOVE_DIM == 3
                    ? "shove 3d dump 1\nbounds -1 -1 -1 1 1 1\nstep up -1 step_height 0.5\n"
                      "voxels none\nend\n"
                    : "shove 2d dump 1\nbounds -1 -1 1 1\nstep up -1 step_height 0.5\n"
                      "voxels none\nend\n",
                SHOVE_DIM == 3 ? "shove 3d dump 1\nbounds -1 -1 -1 1 1 1\nstep edge_footing -1\n"
                                 "voxels none\nend\n"
                               : "shove 2d dump 1\nbounds -1 -1 1 1\nstep edge_footing -1\n"
                                 "voxels none\nend\n",
                NULL,
            };
            if (k - count < 8) {
                const char *src = whole[k - count];
                t = malloc(strlen(src) + 1);
                memcpy(t, src, strlen(src) + 1);
            } else {
                t = small_dump(long_line);
            }
            free(long_line);
        }
        FILE *f = text_file(t);
        shove_world *w = untouched;
        counter.fail_after = -1;
        cr_expect_eq(SHOVE_FN(world_load)(&def, f, &w), SHOVE_ERR_INVALID_ARGUMENT,
                     "bad dump %d loaded:\n%s", k, t);
        cr_expect_eq(w, untouched);
        if (w != untouched) {
            SHOVE_FN(world_destroy)(w);
        }
        cr_expect_eq(counter.live, 0, "bad dump %d: %lld bytes kept", k, counter.live);
        cr_expect(!counter.size_error);
        fclose(f);
        free(t);
    }
    /* NULL arguments */
    shove_world *w = untouched;
    cr_expect_eq(SHOVE_FN(world_load)(&def, NULL, &w), SHOVE_ERR_INVALID_ARGUMENT);
    FILE *f = text_file("x");
    cr_expect_eq(SHOVE_FN(world_load)(&def, f, NULL), SHOVE_ERR_INVALID_ARGUMENT);
    fclose(f);
    cr_expect_eq(w, untouched);
}

Test(dump, every_failed_allocation_leaves_nothing) {
    scene s = make_scene();
    char *text = dump_text(s.w);
    free_scene(&s);
    test_alloc counter;
    shove_world_def def = SHOVE_FN(default_world_def)();
    def.allocator = test_alloc_make(&counter);
    /* count the allocations of a whole load */
    FILE *f = text_file(text);
    shove_world *w = NULL;
    cr_assert_eq(SHOVE_FN(world_load)(&def, f, &w), SHOVE_OK);
    fclose(f);
    const long calls = counter.calls;
    SHOVE_FN(world_destroy)(w);
    cr_expect_eq(counter.live, 0);
    cr_expect_gt(calls, 3);
    for (long k = 0; k < calls; ++k) {
        test_alloc_make(&counter);
        counter.fail_after = k;
        f = text_file(text);
        shove_world *const untouched = (shove_world *)&counter;
        w = untouched;
        cr_expect_eq(SHOVE_FN(world_load)(&def, f, &w), SHOVE_ERR_OUT_OF_MEMORY, "fail at %ld", k);
        cr_expect_eq(w, untouched);
        cr_expect_eq(counter.live, 0, "fail at %ld: %lld bytes kept", k, counter.live);
        fclose(f);
    }
    free(text);
}

Test(dump, get_voxels_and_body_at_refuse_null) {
    shove_world *w = NULL;
    cr_assert_eq(SHOVE_FN(world_create)(NULL, &w), SHOVE_OK);
    shove_voxel_def v;
    cr_expect_eq(SHOVE_FN(world_get_voxels)(NULL, &v), SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect_eq(SHOVE_FN(world_get_voxels)(w, NULL), SHOVE_ERR_INVALID_ARGUMENT);
    shove_body_def b = SHOVE_FN(default_body_def)();
    b.box = BOX(0, 0, 0, 1, 1, 1);
    shove_id id, again;
    cr_assert_eq(SHOVE_FN(body_create)(w, &b, &id), SHOVE_OK);
    cr_assert_eq(SHOVE_FN(world_body_at)(w, id.index, &again), SHOVE_OK);
    cr_expect(id.index == again.index && id.generation == again.generation);
    cr_assert_eq(SHOVE_FN(body_destroy)(w, id), SHOVE_OK);
    cr_expect_eq(SHOVE_FN(world_body_at)(w, id.index, &again), SHOVE_ERR_STALE_ID);
    SHOVE_FN(world_destroy)(w);
}

Test(dump, refuses_null) {
    shove_world *w = NULL;
    cr_assert_eq(SHOVE_FN(world_create)(NULL, &w), SHOVE_OK);
    cr_expect_eq(SHOVE_FN(world_dump)(NULL, stdout), SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect_eq(SHOVE_FN(world_dump)(w, NULL), SHOVE_ERR_INVALID_ARGUMENT);
    SHOVE_FN(world_destroy)(w);
}
