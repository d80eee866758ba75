/*
 * dump_dim_test.c: shove2/3_world_dump and the loader of shove-replay
 * (tools/replay/replay_load.h): what a dump holds, that it changes nothing,
 * that dump -> load -> dump gives the same text, that a loaded world moves
 * bodies exactly as the original does, and that broken dumps are refused.
 */
#include <stdio.h>
#include <stdlib.h>

#include "test_dim.h"
#include "test_voxel_map.h"

#include "../tools/replay/replay_load.h"

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

/* Load a dump from text; err gets the loader's message. */
static bool load_text(const char *text, RL(scene) * out, char err[128]) {
    FILE *f = text_file(text);
    const bool ok = RL(load)(f, out, err, 128);
    fclose(f);
    return ok;
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
    RL(scene) loaded;
    char err[128] = "";
    cr_assert(load_text(a, &loaded, err), "load: %s", err);
    char *b = dump_text(loaded.world);
    cr_expect_str_eq(a, b);
    /* same slots */
    for (int i = 0; i < s.count; ++i) {
        cr_expect_eq(shove_id_is_null(s.ids[i]), shove_id_is_null(loaded.id[i]), "slot %d", i);
        if (!shove_id_is_null(s.ids[i])) {
            cr_expect_eq(loaded.id[i].index, (uint32_t)i);
        }
    }
    /* the voxels around every body are in the dump; far away they are not */
    for (int i = 0; i < s.count; ++i) {
        shove_aabb box;
        if (SHOVE_FN(body_get_box)(s.w, s.ids[i], &box) == SHOVE_OK) {
            cr_expect(RL(covers)(&loaded, box), "body %d not covered", i);
        }
    }
    cr_expect(!RL(covers)(&loaded, BOX(100, 0, 0, 101, 1, 1)));
    RL(free)(&loaded);
    free(a);
    free(b);
    free_scene(&s);
}

Test(dump, a_loaded_world_moves_bodies_as_the_original_does) {
    scene s = make_scene();
    char *text = dump_text(s.w);
    RL(scene) loaded;
    char err[128] = "";
    cr_assert(load_text(text, &loaded, err), "load: %s", err);
    shove_move_def def = SHOVE_FN(default_move_def)();
    def.step_height = 0.5f;
    /* small moves: within the two voxels of margin the dump keeps */
    const shove_vec moves[4] = {V(0.9, -1.0, 0.3), V(-0.7, -0.2, -0.8), V(0.2, 1.1, 0),
                                V(1, -1, 1)};
    for (int round = 0; round < 4; ++round) {
        for (int i = 0; i < s.count; ++i) {
            if (shove_id_is_null(s.ids[i])) {
                continue;
            }
            shove_move_result r1, r2;
            cr_assert_eq(SHOVE_FN(move)(s.w, s.ids[i], moves[round], &def, &r1), SHOVE_OK);
            cr_assert_eq(SHOVE_FN(move)(loaded.world, loaded.id[i], moves[round], &def, &r2),
                         SHOVE_OK);
            cr_expect(memcmp(&r1.box, &r2.box, sizeof r1.box) == 0, "round %d body %d", round, i);
            cr_expect_eq(r1.contact_count, r2.contact_count, "round %d body %d", round, i);
            cr_expect(r1.on_ground == r2.on_ground && r1.hit_wall == r2.hit_wall &&
                      r1.stepped == r2.stepped);
        }
    }
    RL(free)(&loaded);
    free(text);
    free_scene(&s);
}

Test(dump, an_empty_world_and_one_without_voxels) {
    shove_world *w = NULL;
    cr_assert_eq(SHOVE_FN(world_create)(NULL, &w), SHOVE_OK);
    char *text = dump_text(w);
    cr_expect_eq(count_lines(text, "voxels none"), 1);
    cr_expect_eq(count_lines(text, "body "), 0);
    RL(scene) loaded;
    char err[128] = "";
    cr_assert(load_text(text, &loaded, err), "load: %s", err);
    char *again = dump_text(loaded.world);
    cr_expect_str_eq(text, again);
    cr_expect_eq(SHOVE_FN(world_body_count)(loaded.world), 0u);
    RL(free)(&loaded);
    free(text);
    free(again);
    SHOVE_FN(world_destroy)(w);
}

Test(dump, broken_dumps_are_refused_with_a_line_number) {
    scene s = make_scene();
    char *text = dump_text(s.w);
    const size_t len = strlen(text);
    /* cut off anywhere before the end record: refused */
    const size_t cuts[4] = {0, 10, len / 2, len - 5};
    for (int k = 0; k < 4; ++k) {
        char *cut = calloc(cuts[k] + 1, 1);
        memcpy(cut, text, cuts[k]);
        RL(scene) loaded;
        char err[128] = "";
        cr_expect(!load_text(cut, &loaded, err), "a dump cut at %zu loaded", cuts[k]);
        cr_expect_not_null(strstr(err, "line "), "no line number: %s", err);
        free(cut);
    }
    /* wrong dimension, two headers, no header, a short box, min > max, an
     * unknown record, a motion of no body */
    const char *other_dim = SHOVE_DIM == 3 ? "2d" : "3d";
    const char *flat = SHOVE_DIM == 3 ? "1 1 1 0 0 0" : "1 1 0 0";
    char broken[7][256];
    snprintf(broken[0], 256, "shove %s dump 1\nend\n", other_dim);
    snprintf(broken[1], 256, "shove %dd dump 1\nshove %dd dump 1\nend\n", SHOVE_DIM, SHOVE_DIM);
    snprintf(broken[2], 256, "hello\n");
    snprintf(broken[3], 256,
             "shove %dd dump 1\nbody 3 dynamic priority 1 category 0x1 mask 0x1 sensor 0 box 1 "
             "2\nend\n",
             SHOVE_DIM);
    snprintf(broken[4], 256,
             "shove %dd dump 1\nbody 1 static priority 0 category 0x1 mask 0x1 sensor 0 box "
             "%s\nend\n",
             SHOVE_DIM, flat);
    snprintf(broken[5], 256, "shove %dd dump 1\nteleport 1 2 3\nend\n", SHOVE_DIM);
    snprintf(broken[6], 256, "shove %dd dump 1\nmotion 5 1 1 1\nend\n", SHOVE_DIM);
    for (int k = 0; k < 7; ++k) {
        RL(scene) loaded;
        char err[128] = "";
        cr_expect(!load_text(broken[k], &loaded, err), "broken dump %d loaded", k);
    }
    free(text);
    free_scene(&s);
}

Test(dump, refuses_null) {
    shove_world *w = NULL;
    cr_assert_eq(SHOVE_FN(world_create)(NULL, &w), SHOVE_OK);
    cr_expect_eq(SHOVE_FN(world_dump)(NULL, stdout), SHOVE_ERR_INVALID_ARGUMENT);
    cr_expect_eq(SHOVE_FN(world_dump)(w, NULL), SHOVE_ERR_INVALID_ARGUMENT);
    SHOVE_FN(world_destroy)(w);
}
