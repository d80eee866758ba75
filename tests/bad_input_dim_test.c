/*
 * bad_input_dim_test.c: every public function fed NaN, infinities,
 * min > max, NULL, invalid sizes, unknown enum values and broken defs. Each
 * refusal is checked twice: the status (or the documented "nothing" return
 * value), and that nothing changed: outputs are filled with a sentinel byte
 * pattern first and compared byte for byte afterwards, callbacks are never
 * called. World functions are in bad_input_world_dim_test.c.
 *
 * Coverage, by header section (shove3.h / shove_common.h):
 *   common    shove_status_string, shove_simd_select, shove_simd_supported,
 *             shove_simd_name (shove_simd_active and the inline id helpers
 *             take no input that can be wrong)
 *   geometry  shove_aabb_is_valid, shove_aabb_overlaps, shove_sweep_aabb,
 *             shove_ray_aabb, shove_aabb_from_center (documented not to check)
 *   slide     shove_slide (shove_default_move_def takes no input)
 *   voxels    shove_merge_grid
 *   batch     shove_overlap_batch, shove_sweep_batch
 */
#include <float.h>

#include "test_dim.h"
#include "test_bad_input.h"

/* >>common -------------------------------------------------------------- */

Test(bad_input_common, unknown_enums) {
    cr_expect_str_eq(shove_status_string((shove_status)(SHOVE_ERR_OUT_OF_RANGE + 1)),
                     "unknown status");
    cr_expect_str_eq(shove_status_string((shove_status)INT32_MAX), "unknown status");
    cr_expect_str_eq(shove_simd_name((shove_simd)SHOVE_SIMD_LEVEL_COUNT), "unknown");
    cr_expect_str_eq(shove_simd_name((shove_simd)-1), "unknown");
    const shove_simd before = shove_simd_active();
    const int unknown[4] = {-1, SHOVE_SIMD_LEVEL_COUNT, 1000, INT32_MIN};
    for (int i = 0; i < 4; ++i) {
        cr_expect(!shove_simd_supported((shove_simd)unknown[i]));
        cr_expect_eq(shove_simd_select((shove_simd)unknown[i]), SHOVE_ERR_INVALID_ARGUMENT);
        cr_expect_eq(shove_simd_active(), before, "an unknown level changed the active one");
    }
}

/* >>geometry ------------------------------------------------------------ */

Test(bad_input_geometry, broken_boxes_are_invalid_and_never_overlap) {
    const shove_aabb good = BOX(0, 0, 0, 2, 2, 2);
    const shove_aabb other = BOX(1, 1, 1, 3, 3, 3);
    cr_assert(SHOVE_FN(aabb_overlaps)(good, other));
    shove_aabb bad[MAX_BAD];
    const int n = bad_boxes(good, bad);
    for (int i = 0; i < n; ++i) {
        cr_expect(!SHOVE_FN(aabb_is_valid)(bad[i]), "broken box %d is valid", i);
        cr_expect(!SHOVE_FN(aabb_overlaps)(bad[i], other), "broken box %d overlaps", i);
        cr_expect(!SHOVE_FN(aabb_overlaps)(other, bad[i]), "broken box %d overlaps", i);
    }
}

Test(bad_input_geometry, from_center_does_not_check_but_gives_invalid_boxes) {
    /* Documented: half extents are not checked, so the result of a negative
     * or NaN one is an invalid box that every other function refuses. */
    shove_vec bad_half[MAX_BAD];
    const int n = bad_vecs(V(1, 1, 1), bad_half);
    for (int i = 0; i < n; ++i) {
        cr_expect(!SHOVE_FN(aabb_is_valid)(SHOVE_FN(aabb_from_center)(V(0, 0, 0), bad_half[i])));
    }
    cr_expect(!SHOVE_FN(aabb_is_valid)(SHOVE_FN(aabb_from_center)(V(0, 0, 0), V(-1, 1, 1))));
    cr_expect(!SHOVE_FN(aabb_is_valid)(SHOVE_FN(aabb_from_center)(V(NAN, 0, 0), V(1, 1, 1))));
}

Test(bad_input_geometry, sweeps_and_rays_refuse_without_writing) {
    const shove_aabb moving = BOX(0, 0, 0, 1, 1, 1);
    const shove_aabb target = BOX(3, 0, 0, 4, 1, 1);
    const shove_vec delta = V(5, 0.5, 0.25);
    shove_hit hit;
    cr_assert(SHOVE_FN(sweep_aabb)(moving, delta, target, &hit), "the good sweep must hit");
    cr_assert(SHOVE_FN(ray_aabb)(V(0, 0.5, 0.5), delta, target, &hit), "the good ray must hit");

    shove_aabb bad[MAX_BAD];
    const int nb = bad_boxes(moving, bad);
    for (int i = 0; i < nb; ++i) {
        fill(&hit, sizeof hit);
        cr_expect(!SHOVE_FN(sweep_aabb)(bad[i], delta, target, &hit), "moving box %d", i);
        EXPECT_UNTOUCHED(hit, "hit");
    }
    const int nt = bad_boxes(target, bad);
    for (int i = 0; i < nt; ++i) {
        fill(&hit, sizeof hit);
        cr_expect(!SHOVE_FN(sweep_aabb)(moving, delta, bad[i], &hit), "target box %d", i);
        EXPECT_UNTOUCHED(hit, "hit");
        fill(&hit, sizeof hit);
        cr_expect(!SHOVE_FN(ray_aabb)(V(0, 0.5, 0.5), delta, bad[i], &hit), "ray box %d", i);
        EXPECT_UNTOUCHED(hit, "hit");
    }
    shove_vec badv[MAX_BAD];
    const int nv = bad_vecs(delta, badv);
    for (int i = 0; i < nv; ++i) {
        fill(&hit, sizeof hit);
        cr_expect(!SHOVE_FN(sweep_aabb)(moving, badv[i], target, &hit), "delta %d", i);
        EXPECT_UNTOUCHED(hit, "hit");
        fill(&hit, sizeof hit);
        cr_expect(!SHOVE_FN(ray_aabb)(V(0, 0.5, 0.5), badv[i], target, &hit), "ray delta %d", i);
        EXPECT_UNTOUCHED(hit, "hit");
    }
    const int no = bad_vecs(V(0, 0.5, 0.5), badv);
    for (int i = 0; i < no; ++i) {
        fill(&hit, sizeof hit);
        cr_expect(!SHOVE_FN(ray_aabb)(badv[i], delta, target, &hit), "ray origin %d", i);
        EXPECT_UNTOUCHED(hit, "hit");
    }
    /* a NULL hit is allowed, not an error */
    cr_expect(SHOVE_FN(sweep_aabb)(moving, delta, target, NULL));
}

/* >>slide --------------------------------------------------------------- */

typedef struct filter_counter {
    int calls;
} filter_counter;

static shove_response counting_filter(void *ctx, shove_id mover, const shove_obstacle *obstacle) {
    (void)mover;
    const shove_id other = obstacle->other;
    const int32_t index = obstacle->index;
    (void)other;
    (void)index;
    ++((filter_counter *)ctx)->calls;
    return SHOVE_RESPONSE_SLIDE;
}

/* One slide call that must be refused: status, result, contacts, filter. */
static void expect_slide_refused(shove_aabb box, shove_vec delta, const shove_aabb *obs,
                                 size_t count, const shove_move_def *def, bool out_null,
                                 const char *what) {
    shove_move_result result;
    shove_contact contacts[8];
    fill(&result, sizeof result);
    fill(contacts, sizeof contacts);
    filter_counter counter = {0};
    shove_move_def d;
    const shove_move_def *use = def;
    if (def) {
        d = *def;
        if (d.contacts) {
            d.contacts = contacts;
        }
        d.filter = counting_filter;
        d.filter_ctx = &counter;
        use = &d;
    }
    const shove_status st = SHOVE_FN(slide)(box, delta, obs, count, use, out_null ? NULL : &result);
    cr_expect_eq(st, SHOVE_ERR_INVALID_ARGUMENT, "%s: status %s", what, shove_status_string(st));
    EXPECT_UNTOUCHED(result, what);
    EXPECT_UNTOUCHED(contacts, what);
    cr_expect_eq(counter.calls, 0, "%s: the filter was called", what);
}

static shove_aabb floor_tiles[300];

static void make_floor(void) {
    for (int i = 0; i < 300; ++i) {
        floor_tiles[i] = BOX(i, -1, 0, i + 1, 0, 1);
    }
}

Test(bad_input_slide, broken_boxes_motions_and_lists) {
    make_floor();
    const shove_aabb box = BOX(0.25, 0, 0.25, 0.75, 1, 0.75);
    const shove_vec delta = V(3, -1, 0.5);
    shove_move_def def = SHOVE_FN(default_move_def)();
    shove_contact contacts[8];
    def.contacts = contacts;
    def.contact_capacity = 4;
    /* the good call works */
    shove_move_result r;
    cr_assert_eq(SHOVE_FN(slide)(box, delta, floor_tiles, 300, &def, &r), SHOVE_OK);

    shove_aabb bad[MAX_BAD];
    const int nb = bad_boxes(box, bad);
    for (int i = 0; i < nb; ++i) {
        expect_slide_refused(bad[i], delta, floor_tiles, 300, &def, false, "broken mover");
    }
    shove_vec badv[MAX_BAD];
    const int nv = bad_vecs(delta, badv);
    for (int i = 0; i < nv; ++i) {
        expect_slide_refused(box, badv[i], floor_tiles, 300, &def, false, "broken motion");
    }
    /* a broken obstacle anywhere in the list, even far away or past the
     * first chunk the slide streams */
    const size_t where[4] = {0, 1, 150, 299};
    for (int w = 0; w < 4; ++w) {
        const shove_aabb keep = floor_tiles[where[w]];
        const int no = bad_boxes(keep, bad);
        for (int i = 0; i < no; ++i) {
            floor_tiles[where[w]] = bad[i];
            expect_slide_refused(box, delta, floor_tiles, 300, &def, false, "broken obstacle");
        }
        floor_tiles[where[w]] = keep;
    }
    expect_slide_refused(box, delta, NULL, 1, &def, false, "NULL obstacles, count 1");
    expect_slide_refused(box, delta, NULL, SIZE_MAX, &def, false, "NULL obstacles, count max");
    expect_slide_refused(box, delta, floor_tiles, 300, &def, true, "NULL out");
    expect_slide_refused(box, delta, floor_tiles, (size_t)INT32_MAX + 1u, &def, false,
                         "count beyond INT32_MAX");
    /* NULL obstacles with count 0 and a NULL def are fine */
    cr_expect_eq(SHOVE_FN(slide)(box, delta, NULL, 0, NULL, &r), SHOVE_OK);
}

Test(bad_input_slide, broken_defs) {
    make_floor();
    const shove_aabb box = BOX(0.25, 0, 0.25, 0.75, 1, 0.75);
    const shove_vec delta = V(3, -1, 0.5);
    const shove_move_def good = SHOVE_FN(default_move_def)();
    shove_contact contacts[8];
    shove_move_def def;

    const float bad_floats[4] = {-1.0f / 1024.0f, NAN, INFINITY, -INFINITY};
    for (int k = 0; k < 4; ++k) {
        def = good;
        def.skin = bad_floats[k];
        expect_slide_refused(box, delta, floor_tiles, 10, &def, false, "skin");
        def = good;
        def.step_height = bad_floats[k];
        expect_slide_refused(box, delta, floor_tiles, 10, &def, false, "step_height");
        def = good;
        def.edge_footing = bad_floats[k];
        expect_slide_refused(box, delta, floor_tiles, 10, &def, false, "edge_footing");
    }
    const int bad_iterations[5] = {0, -1, 65, INT32_MIN, INT32_MAX};
    for (int k = 0; k < 5; ++k) {
        def = good;
        def.max_iterations = bad_iterations[k];
        expect_slide_refused(box, delta, floor_tiles, 10, &def, false, "max_iterations");
    }
    const int bad_up[4] = {-2, SHOVE_DIM, 3, INT32_MIN};
    for (int k = 0; k < 4; ++k) {
        if (bad_up[k] == 3 && SHOVE_DIM == 3) {
            continue;
        }
        def = good;
        def.up_axis = bad_up[k];
        expect_slide_refused(box, delta, floor_tiles, 10, &def, false, "up_axis");
    }
    def = good;
    def.up_axis = -1;
    def.step_height = 0.6f;
    expect_slide_refused(box, delta, floor_tiles, 10, &def, false, "step_height, no up axis");
    const int bad_response[3] = {5, -1, 1000};
    for (int k = 0; k < 3; ++k) {
        def = good;
        def.response = (shove_response)bad_response[k];
        expect_slide_refused(box, delta, floor_tiles, 10, &def, false, "response");
    }
    def = good;
    def.contacts = NULL;
    def.contact_capacity = 1;
    expect_slide_refused(box, delta, floor_tiles, 10, &def, false, "NULL contacts, capacity 1");
    def = good;
    def.contacts = contacts;
    def.contact_capacity = -1;
    expect_slide_refused(box, delta, floor_tiles, 10, &def, false, "capacity -1");
    def.contact_capacity = INT32_MIN;
    expect_slide_refused(box, delta, floor_tiles, 10, &def, false, "capacity INT32_MIN");
    /* the edge of what is allowed: every one of these works */
    shove_move_result r;
    def = good;
    def.max_iterations = 64;
    def.up_axis = -1;
    def.skin = 0.0f;
    cr_expect_eq(SHOVE_FN(slide)(box, delta, floor_tiles, 10, &def, &r), SHOVE_OK);
    def = good;
    def.max_iterations = 1;
    def.up_axis = SHOVE_DIM - 1;
    def.contacts = contacts;
    def.contact_capacity = 0;
    cr_expect_eq(SHOVE_FN(slide)(box, delta, floor_tiles, 10, &def, &r), SHOVE_OK);
}

/* >>voxels: merge_grid --------------------------------------------------- */

static void expect_merge_refused(const uint8_t *solid, const int32_t *cells, float cell_size,
                                 shove_vec origin, bool out_null, size_t capacity, bool count_null,
                                 const char *what) {
    shove_aabb out[8];
    size_t count;
    fill(out, sizeof out);
    fill(&count, sizeof count);
    const shove_status st =
        SHOVE_FN(merge_grid)(solid, cells, cell_size, origin, out_null ? NULL : out, capacity,
                             count_null ? NULL : &count);
    cr_expect_eq(st, SHOVE_ERR_INVALID_ARGUMENT, "%s: status %s", what, shove_status_string(st));
    EXPECT_UNTOUCHED(out, what);
    EXPECT_UNTOUCHED(count, what);
}

Test(bad_input_merge_grid, broken_grids) {
    uint8_t solid[64];
    memset(solid, 1, sizeof solid);
    const int32_t cells[3] = {4, 4, 4};
    const shove_vec origin = V(0, 0, 0);
    shove_aabb out[8];
    size_t count = 0;
    cr_assert_eq(SHOVE_FN(merge_grid)(solid, cells, 1.0f, origin, out, 8, &count), SHOVE_OK);
    cr_assert_eq(count, 1u);

    expect_merge_refused(NULL, cells, 1.0f, origin, false, 8, false, "NULL solid");
    expect_merge_refused(solid, NULL, 1.0f, origin, false, 8, false, "NULL cells");
    expect_merge_refused(solid, cells, 1.0f, origin, true, 8, false, "NULL out, capacity 8");
    expect_merge_refused(solid, cells, 1.0f, origin, false, 8, true, "NULL count");
    const float bad_sizes[5] = {0.0f, -1.0f, NAN, INFINITY, -INFINITY};
    for (int k = 0; k < 5; ++k) {
        expect_merge_refused(solid, cells, bad_sizes[k], origin, false, 8, false, "cell size");
    }
    shove_vec badv[MAX_BAD];
    const int nv = bad_vecs(origin, badv);
    for (int i = 0; i < nv; ++i) {
        expect_merge_refused(solid, cells, 1.0f, badv[i], false, 8, false, "origin");
    }
    const int32_t bad_counts[3] = {0, -1, INT32_MIN};
    for (int a = 0; a < SHOVE_DIM; ++a) {
        for (int k = 0; k < 3; ++k) {
            int32_t c[3] = {4, 4, 4};
            c[a] = bad_counts[k];
            expect_merge_refused(solid, c, 1.0f, origin, false, 8, false, "cell count");
        }
    }
    /* a grid whose far corner is not a finite float gives boxes that are
     * not valid, so it is refused */
    expect_merge_refused(solid, cells, FLT_MAX, origin, false, 8, false, "huge cells");
    expect_merge_refused(solid, cells, 1.0e38f, V(0, 3.0e38f, 0), false, 8, false, "far origin");
    /* NULL out with capacity 0 is the documented way to count */
    count = 0;
    cr_expect_eq(SHOVE_FN(merge_grid)(solid, cells, 1.0f, origin, NULL, 0, &count), SHOVE_OK);
    cr_expect_eq(count, 1u);
}

/* >>batch --------------------------------------------------------------- */

Test(bad_input_batch, broken_arrays_queries_and_motions) {
    float mins[SHOVE_DIM][5], maxs[SHOVE_DIM][5];
    for (int a = 0; a < SHOVE_DIM; ++a) {
        for (int i = 0; i < 5; ++i) {
            mins[a][i] = (float)i;
            maxs[a][i] = (float)i + 1.0f;
        }
    }
    shove_soa soa;
    for (int a = 0; a < SHOVE_DIM; ++a) {
        soa.min[a] = mins[a];
        soa.max[a] = maxs[a];
    }
    soa.count = 5;
    const shove_aabb query = BOX(0, 0, 0, 5, 5, 5);
    const shove_aabb moving = BOX(-3, -3, -3, -2, -2, -2);
    const shove_vec delta = V(10, 10, 10);
    uint32_t idx[8];
    shove_hit hit;
    uint32_t hit_index;
    cr_assert_eq(SHOVE_FN(overlap_batch)(&soa, query, idx), 5u);
    cr_assert(SHOVE_FN(sweep_batch)(&soa, moving, delta, &hit, &hit_index));

#define EXPECT_BATCH_REFUSED(soa_ptr, q, m, d, out, what)                                          \
    do {                                                                                           \
        fill(idx, sizeof idx);                                                                     \
        fill(&hit, sizeof hit);                                                                    \
        fill(&hit_index, sizeof hit_index);                                                        \
        cr_expect_eq(SHOVE_FN(overlap_batch)(soa_ptr, q, out), 0u, "%s: overlap", what);           \
        cr_expect(!SHOVE_FN(sweep_batch)(soa_ptr, m, d, &hit, &hit_index), "%s: sweep", what);     \
        EXPECT_UNTOUCHED(idx, what);                                                               \
        EXPECT_UNTOUCHED(hit, what);                                                               \
        EXPECT_UNTOUCHED(hit_index, what);                                                         \
    } while (0)

    EXPECT_BATCH_REFUSED(NULL, query, moving, delta, idx, "NULL boxes");
    for (int a = 0; a < SHOVE_DIM; ++a) {
        shove_soa broken = soa;
        broken.min[a] = NULL;
        EXPECT_BATCH_REFUSED(&broken, query, moving, delta, idx, "NULL min array");
        broken = soa;
        broken.max[a] = NULL;
        EXPECT_BATCH_REFUSED(&broken, query, moving, delta, idx, "NULL max array");
    }
    shove_aabb bad[MAX_BAD];
    const int nq = bad_boxes(query, bad);
    for (int i = 0; i < nq; ++i) {
        fill(idx, sizeof idx);
        cr_expect_eq(SHOVE_FN(overlap_batch)(&soa, bad[i], idx), 0u, "query %d", i);
        EXPECT_UNTOUCHED(idx, "indices");
    }
    const int nm = bad_boxes(moving, bad);
    for (int i = 0; i < nm; ++i) {
        fill(&hit, sizeof hit);
        fill(&hit_index, sizeof hit_index);
        cr_expect(!SHOVE_FN(sweep_batch)(&soa, bad[i], delta, &hit, &hit_index), "moving %d", i);
        EXPECT_UNTOUCHED(hit, "hit");
        EXPECT_UNTOUCHED(hit_index, "hit index");
    }
    shove_vec badv[MAX_BAD];
    const int nv = bad_vecs(delta, badv);
    for (int i = 0; i < nv; ++i) {
        fill(&hit, sizeof hit);
        fill(&hit_index, sizeof hit_index);
        cr_expect(!SHOVE_FN(sweep_batch)(&soa, moving, badv[i], &hit, &hit_index), "delta %d", i);
        EXPECT_UNTOUCHED(hit, "hit");
        EXPECT_UNTOUCHED(hit_index, "hit index");
    }
    fill(idx, sizeof idx);
    cr_expect_eq(SHOVE_FN(overlap_batch)(&soa, query, NULL), 0u, "NULL out_indices");
    /* count 0 with NULL arrays is an empty batch, not an error */
    shove_soa empty;
    memset(&empty, 0, sizeof empty);
    cr_expect_eq(SHOVE_FN(overlap_batch)(&empty, query, idx), 0u);
    cr_expect(!SHOVE_FN(sweep_batch)(&empty, moving, delta, &hit, &hit_index));
#undef EXPECT_BATCH_REFUSED
}
