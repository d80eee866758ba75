/*
 * batch_dim_test.c: the struct-of-arrays batch kernels, in 2D and 3D.
 *
 * Every kernel table this machine can run (the CPU's levels, plus levels the
 * build emulates through SIMDe, such as NEON on x86) is called directly and
 * compared bit for bit with the scalar table. The public functions are
 * checked at the level ctest selected (SHOVE_TEST_SIMD), for their answers
 * and for the input they refuse.
 */
#include <float.h>
#include <stdlib.h>

#include "simd/kernels.h"
#include "test_dim.h"

#if SHOVE_DIM == 2
#define KERNEL_OVERLAP(table) ((table)->overlap2)
#define KERNEL_SWEEP(table)   ((table)->sweep2)
#else
#define KERNEL_OVERLAP(table) ((table)->overlap3)
#define KERNEL_SWEEP(table)   ((table)->sweep3)
#endif

/* >>batches ------------------------------------------------------------ */

/* A batch that owns its arrays. Each array is allocated with exactly `count`
 * floats after an optional one-float offset, so the sanitizer build catches
 * any read past the end and the offset makes every vector load unaligned. */
typedef struct batch {
    float *store_min[SHOVE_DIM], *store_max[SHOVE_DIM];
    float *min[SHOVE_DIM], *max[SHOVE_DIM];
    size_t count;
} batch;

static batch batch_new(size_t count, size_t offset) {
    batch b;
    b.count = count;
    for (int a = 0; a < SHOVE_DIM; ++a) {
        b.store_min[a] = malloc((count + offset) * sizeof(float) + 1);
        b.store_max[a] = malloc((count + offset) * sizeof(float) + 1);
        cr_assert(b.store_min[a] && b.store_max[a]);
        b.min[a] = b.store_min[a] + offset;
        b.max[a] = b.store_max[a] + offset;
    }
    return b;
}

static void batch_free(batch *b) {
    for (int a = 0; a < SHOVE_DIM; ++a) {
        free(b->store_min[a]);
        free(b->store_max[a]);
    }
}

static shove_soa batch_soa(const batch *b) {
    shove_soa s;
    for (int a = 0; a < SHOVE_DIM; ++a) {
        s.min[a] = b->min[a];
        s.max[a] = b->max[a];
    }
    s.count = b->count;
    return s;
}

static void batch_set(batch *b, size_t i, shove_aabb box) {
    for (int a = 0; a < SHOVE_DIM; ++a) {
        b->min[a][i] = box.min.raw[a];
        b->max[a][i] = box.max.raw[a];
    }
}

static shove_aabb batch_get(const batch *b, size_t i) {
    shove_aabb box;
    for (int a = 0; a < SHOVE_DIM; ++a) {
        box.min.raw[a] = b->min[a][i];
        box.max.raw[a] = b->max[a][i];
    }
    return box;
}

/* A coordinate on a half-unit grid: makes touching faces, zero-size boxes
 * and equal hit times common. */
static float grid(test_rng *r, int lo, int hi) {
    return 0.5f * (float)test_rng_int(r, 2 * lo, 2 * hi);
}

/* A box that is usually on the grid, sometimes arbitrary, sometimes
 * zero-size, and now and then carries a NaN or an infinity (the kernels
 * read SoA boxes unvalidated, and every level must agree on them too). */
static shove_aabb messy_box(test_rng *r, bool allow_bad) {
    shove_aabb box;
    const int kind = test_rng_int(r, 0, 19);
    for (int a = 0; a < SHOVE_DIM; ++a) {
        if (kind < 12) {
            box.min.raw[a] = grid(r, -4, 4);
            box.max.raw[a] = box.min.raw[a] + grid(r, 0, 3);
        } else if (kind < 15) {
            box.min.raw[a] = box.max.raw[a] = grid(r, -4, 4); /* zero-size */
        } else if (kind < 17) {
            /* Faces a subnormal away from the grid: quotients underflow. */
            box.min.raw[a] = grid(r, -4, 0) + 1e-45f * (float)test_rng_int(r, -2, 2);
            box.max.raw[a] = 1e-45f * (float)test_rng_int(r, -2, 2) + grid(r, 0, 4);
            if (box.min.raw[a] > box.max.raw[a]) { /* both faces near 0: keep it ordered */
                const float t = box.min.raw[a];
                box.min.raw[a] = box.max.raw[a];
                box.max.raw[a] = t;
            }
        } else {
            box.min.raw[a] = test_rng_float(r, -5.0f, 5.0f);
            box.max.raw[a] = box.min.raw[a] + test_rng_float(r, 0.0f, 3.0f);
        }
    }
    if (allow_bad && test_rng_int(r, 0, 15) == 0) {
        const int a = test_rng_int(r, 0, SHOVE_DIM - 1);
        static const float bad[] = {NAN, -NAN, INFINITY, -INFINITY};
        float *slot = test_rng_int(r, 0, 1) ? &box.min.raw[a] : &box.max.raw[a];
        *slot = bad[test_rng_int(r, 0, 3)];
    }
    return box;
}

/* A motion component: zero (both signs), grid steps, or arbitrary. */
static float motion_component(test_rng *r) {
    switch (test_rng_int(r, 0, 7)) {
    case 0:
        return 0.0f;
    case 1:
        return -0.0f;
    case 2:
    case 3:
        return grid(r, -6, 6);
    case 4:
        /* Tiny and huge motions: quotients overflow and underflow. */
        return (test_rng_int(r, 0, 1) ? 1e-30f : 1e30f) * (float)test_rng_int(r, -3, 3);
    default:
        return test_rng_float(r, -8.0f, 8.0f);
    }
}

static shove_vec random_motion(test_rng *r) {
    shove_vec d;
    for (int a = 0; a < SHOVE_DIM; ++a) {
        d.raw[a] = motion_component(r);
    }
    return d;
}

/* The kernels trust their callers, but a caller that skipped validation
 * still gets the scalar level's answer: motions with NaN and infinities. */
static shove_vec unvalidated_motion(test_rng *r) {
    shove_vec d = random_motion(r);
    if (test_rng_int(r, 0, 3) == 0) {
        static const float bad[] = {NAN, INFINITY, -INFINITY};
        d.raw[test_rng_int(r, 0, SHOVE_DIM - 1)] = bad[test_rng_int(r, 0, 2)];
    }
    return d;
}

static void fill_messy(batch *b, test_rng *r, bool allow_bad) {
    for (size_t i = 0; i < b->count; ++i) {
        batch_set(b, i, messy_box(r, allow_bad));
    }
}

/* >>comparing with the scalar level --------------------------------------- */

static bool same_bits_f(float a, float b) {
    return memcmp(&a, &b, sizeof a) == 0;
}

/* A hit no kernel writes, to see whether one was written. */
static shove_hit sentinel_hit(void) {
    shove_hit h;
    memset(&h, 0, sizeof h);
    h.t = -7.0f;
    h.normal = shove_vec_splat(9.0f);
    h.other.index = 77u;
    h.other.generation = 77u;
    h.started_inside = true;
    return h;
}

static bool same_hit(shove_hit a, shove_hit b) {
    return same_bits_f(a.t, b.t) && test_vec_same_bits(a.normal, b.normal) &&
           shove_id_equal(a.other, b.other) && a.started_inside == b.started_inside;
}

/* Overlap of one table against the scalar table: same count, same indices,
 * and nothing written past boxes->count entries (the entries between the
 * returned count and boxes->count are scratch room, see the header). */
static void expect_overlap_matches(shove_simd level, const batch *b, shove_aabb query) {
    const shove_kernel_table *ref = shove__kernels_of(SHOVE_SIMD_SCALAR);
    const shove_kernel_table *table = shove__kernels_of(level);
    const shove_soa soa = batch_soa(b);
    const size_t room = b->count + 1;
    uint32_t *want = malloc(room * sizeof *want);
    uint32_t *got = malloc(room * sizeof *got);
    cr_assert(want && got);
    for (size_t i = 0; i < room; ++i) {
        got[i] = 0xDEADBEEFu;
    }
    const size_t n_want = KERNEL_OVERLAP(ref)(&soa, query, want);
    const size_t n_got = KERNEL_OVERLAP(table)(&soa, query, got);
    cr_expect_eq(n_got, n_want, "%s: count %zu: %zu overlaps, scalar %zu", shove_simd_name(level),
                 b->count, n_got, n_want);
    for (size_t i = 0; i < n_want && i < n_got; ++i) {
        cr_expect_eq(got[i], want[i], "%s: count %zu: entry %zu is %u, scalar %u",
                     shove_simd_name(level), b->count, i, got[i], want[i]);
    }
    cr_expect_eq(got[b->count], 0xDEADBEEFu, "%s: wrote past boxes->count", shove_simd_name(level));
    free(want);
    free(got);
}

/* Sweep of one table against the scalar table: same answer, same hit bits. */
static void expect_sweep_matches(shove_simd level, const batch *b, shove_aabb moving,
                                 shove_vec delta) {
    const shove_kernel_table *ref = shove__kernels_of(SHOVE_SIMD_SCALAR);
    const shove_kernel_table *table = shove__kernels_of(level);
    const shove_soa soa = batch_soa(b);
    shove_hit want = sentinel_hit(), got = sentinel_hit();
    uint32_t want_i = 0xDEADBEEFu, got_i = 0xDEADBEEFu;
    const bool found_want = KERNEL_SWEEP(ref)(&soa, moving, delta, &want, &want_i);
    const bool found_got = KERNEL_SWEEP(table)(&soa, moving, delta, &got, &got_i);
    cr_expect_eq(found_got, found_want, "%s: count %zu: found %d, scalar %d",
                 shove_simd_name(level), b->count, found_got, found_want);
    cr_expect_eq(got_i, want_i, "%s: count %zu: index %u, scalar %u", shove_simd_name(level),
                 b->count, got_i, want_i);
    cr_expect(same_bits_f(got.t, want.t), "%s: t %.9g, scalar %.9g", shove_simd_name(level),
              (double)got.t, (double)want.t);
    cr_expect(test_vec_same_bits(got.normal, want.normal), "%s: normals differ",
              shove_simd_name(level));
    cr_expect_eq(got.started_inside, want.started_inside, "%s", shove_simd_name(level));
    cr_expect(shove_id_equal(got.other, want.other), "%s", shove_simd_name(level));
    /* Also with the optional outputs left out. */
    cr_expect_eq(KERNEL_SWEEP(table)(&soa, moving, delta, NULL, NULL), found_want);
}

/* Runs `check` for every level whose table can run here, not only those
 * shove_simd_select accepts: emulated tables are checked too. */
static int runnable_levels(shove_simd out[SHOVE_SIMD_LEVEL_COUNT]) {
    int n = 0;
    for (int level = 0; level < SHOVE_SIMD_LEVEL_COUNT; ++level) {
        if (shove__kernels_runnable((shove_simd)level)) {
            out[n++] = (shove_simd)level;
        }
    }
    return n;
}

Test(batch_tables, scalar_and_every_native_level_are_runnable) {
    cr_expect(shove__kernels_runnable(SHOVE_SIMD_SCALAR));
    for (int level = 0; level < SHOVE_SIMD_LEVEL_COUNT; ++level) {
        if (shove_simd_supported((shove_simd)level)) {
            cr_expect(shove__kernels_runnable((shove_simd)level), "%s",
                      shove_simd_name((shove_simd)level));
        }
    }
#if defined(__x86_64__) || defined(__i386__)
    /* The NEON source is emulated on x86 and must be checkable here. */
    if (shove__kernels_of(SHOVE_SIMD_NEON)) {
        cr_expect(shove__kernels_runnable(SHOVE_SIMD_NEON));
    }
#endif
}

Test(batch_tables, every_count_up_to_67_matches_scalar) {
    shove_simd levels[SHOVE_SIMD_LEVEL_COUNT];
    const int n_levels = runnable_levels(levels);
    test_rng r = {0x5EEDBA7Cu};
    for (size_t count = 0; count <= 67; ++count) {
        for (int round = 0; round < 12; ++round) {
            batch b = batch_new(count, (size_t)(round & 1));
            fill_messy(&b, &r, round >= 4);
            const shove_aabb query = messy_box(&r, false);
            const shove_aabb moving = messy_box(&r, false);
            const shove_vec delta = unvalidated_motion(&r);
            for (int l = 0; l < n_levels; ++l) {
                expect_overlap_matches(levels[l], &b, query);
                expect_sweep_matches(levels[l], &b, moving, delta);
            }
            batch_free(&b);
        }
    }
}

Test(batch_tables, large_batches_match_scalar) {
    shove_simd levels[SHOVE_SIMD_LEVEL_COUNT];
    const int n_levels = runnable_levels(levels);
    test_rng r = {0xB16B47C4u};
    const size_t counts[] = {1000, 4099, 20003};
    for (size_t c = 0; c < sizeof counts / sizeof counts[0]; ++c) {
        batch b = batch_new(counts[c], c & 1u);
        fill_messy(&b, &r, true);
        for (int round = 0; round < 6; ++round) {
            const shove_aabb query = messy_box(&r, false);
            const shove_aabb moving = messy_box(&r, false);
            const shove_vec delta = unvalidated_motion(&r);
            for (int l = 0; l < n_levels; ++l) {
                expect_overlap_matches(levels[l], &b, query);
                expect_sweep_matches(levels[l], &b, moving, delta);
            }
        }
        batch_free(&b);
    }
}

Test(batch_tables, every_motion_sign_pattern_matches_scalar) {
    /* Each axis still, forward or backward, in every combination, against
     * boxes placed all around the mover. */
    shove_simd levels[SHOVE_SIMD_LEVEL_COUNT];
    const int n_levels = runnable_levels(levels);
    test_rng r = {0xC0FFEEu};
    batch b = batch_new(61, 1);
    fill_messy(&b, &r, true);
    int patterns = 1;
    for (int a = 0; a < SHOVE_DIM; ++a) {
        patterns *= 3;
    }
    for (int p = 0; p < patterns; ++p) {
        shove_vec delta;
        int code = p;
        for (int a = 0; a < SHOVE_DIM; ++a, code /= 3) {
            delta.raw[a] = (code % 3 == 0) ? 0.0f : (code % 3 == 1) ? 2.5f : -3.0f;
        }
        const shove_aabb moving = BOX(-0.5, -0.5, -0.5, 0.5, 0.5, 0.5);
        for (int l = 0; l < n_levels; ++l) {
            expect_sweep_matches(levels[l], &b, moving, delta);
        }
    }
    batch_free(&b);
}

/* >>independent expectations ----------------------------------------------- */

/* The same boxes laid out in a batch and checked against the one-box public
 * functions, so the scalar level itself is held to something independent. */
Test(batch_tables, overlap_agrees_with_aabb_overlaps) {
    shove_simd levels[SHOVE_SIMD_LEVEL_COUNT];
    const int n_levels = runnable_levels(levels);
    test_rng r = {0xA11B0C5u};
    batch b = batch_new(203, 0);
    fill_messy(&b, &r, false);
    uint32_t *out = malloc(b.count * sizeof *out);
    cr_assert(out);
    const shove_soa soa = batch_soa(&b);
    for (int round = 0; round < 20; ++round) {
        const shove_aabb query = messy_box(&r, false);
        for (int l = 0; l < n_levels; ++l) {
            const size_t n = KERNEL_OVERLAP(shove__kernels_of(levels[l]))(&soa, query, out);
            size_t k = 0;
            for (size_t i = 0; i < b.count; ++i) {
                if (SHOVE_FN(aabb_overlaps)(batch_get(&b, i), query)) {
                    cr_assert(k < n, "%s: box %zu missing", shove_simd_name(levels[l]), i);
                    cr_expect_eq(out[k], (uint32_t)i, "%s", shove_simd_name(levels[l]));
                    ++k;
                }
            }
            cr_expect_eq(n, k, "%s", shove_simd_name(levels[l]));
        }
    }
    free(out);
    batch_free(&b);
}

Test(batch_tables, sweep_agrees_with_sweep_aabb) {
    shove_simd levels[SHOVE_SIMD_LEVEL_COUNT];
    const int n_levels = runnable_levels(levels);
    test_rng r = {0x5EE9A4Bu};
    batch b = batch_new(97, 1);
    fill_messy(&b, &r, false);
    const shove_soa soa = batch_soa(&b);
    for (int round = 0; round < 40; ++round) {
        const shove_aabb moving = messy_box(&r, false);
        const shove_vec delta = random_motion(&r);
        bool want_found = false;
        shove_hit want = {0};
        uint32_t want_i = 0;
        for (size_t i = 0; i < b.count; ++i) {
            shove_hit h;
            if (SHOVE_FN(sweep_aabb)(moving, delta, batch_get(&b, i), &h) &&
                (!want_found || h.t < want.t)) {
                want = h;
                want_i = (uint32_t)i;
                want_found = true;
            }
        }
        for (int l = 0; l < n_levels; ++l) {
            shove_hit got;
            uint32_t got_i = 0;
            const bool found =
                KERNEL_SWEEP(shove__kernels_of(levels[l]))(&soa, moving, delta, &got, &got_i);
            cr_expect_eq(found, want_found, "%s", shove_simd_name(levels[l]));
            if (found && want_found) {
                cr_expect_eq(got_i, want_i, "%s", shove_simd_name(levels[l]));
                cr_expect_eq(got.t, want.t, "%s", shove_simd_name(levels[l]));
                EXPECT_VEC_EQ(got.normal, want.normal);
                cr_expect_eq(got.started_inside, want.started_inside);
            }
        }
    }
    batch_free(&b);
}

/* >>hand-made cases ------------------------------------------------------- */

/* A row of `count` unit boxes far away, with walls placed at chosen indices:
 * every lane position and the partial last block get a turn. */
static batch far_row(size_t count) {
    batch b = batch_new(count, 0);
    for (size_t i = 0; i < count; ++i) {
        batch_set(&b, i, BOX(100 + (float)i, 100, 0, 101 + (float)i, 101, 1));
    }
    return b;
}

Test(batch_tables, every_pattern_of_hits_in_a_block_comes_out_in_order) {
    /* Block j of 8 boxes (any level's block is 4 or 8 wide) has exactly the
     * hits of the bit pattern j, for all 256 patterns. */
    shove_simd levels[SHOVE_SIMD_LEVEL_COUNT];
    const int n_levels = runnable_levels(levels);
    const size_t count = 256 * 8 + 5;
    batch b = far_row(count);
    size_t want_n = 0;
    uint32_t *want = malloc(count * sizeof *want);
    uint32_t *got = malloc(count * sizeof *got);
    cr_assert(want && got);
    for (size_t i = 0; i < count; ++i) {
        if ((i / 8) < 256 && ((i / 8) >> (i % 8)) & 1u) {
            batch_set(&b, i, BOX(0, 0, 0, 1, 1, 1));
            want[want_n++] = (uint32_t)i;
        }
    }
    const shove_soa soa = batch_soa(&b);
    for (int l = 0; l < n_levels; ++l) {
        const size_t n =
            KERNEL_OVERLAP(shove__kernels_of(levels[l]))(&soa, BOX(0.5, 0.5, 0.5, 2, 2, 2), got);
        cr_assert_eq(n, want_n, "%s", shove_simd_name(levels[l]));
        for (size_t i = 0; i < n; ++i) {
            cr_expect_eq(got[i], want[i], "%s: entry %zu", shove_simd_name(levels[l]), i);
        }
    }
    free(want);
    free(got);
    batch_free(&b);
}

Test(batch_tables, equal_times_go_to_the_lowest_index) {
    shove_simd levels[SHOVE_SIMD_LEVEL_COUNT];
    const int n_levels = runnable_levels(levels);
    const shove_aabb mover = BOX(0, 0, 0, 1, 1, 1);
    const shove_vec delta = V(4, 0, 0);
    const shove_aabb wall = BOX(3, -1, -1, 4, 2, 2);     /* t = 0.5 */
    const shove_aabb far_wall = BOX(4, -1, -1, 5, 2, 2); /* t = 0.75 */
    for (size_t count = 1; count <= 40; ++count) {
        for (size_t first = 0; first < count; first += 3) {
            batch b = far_row(count);
            if (first + 1 < count) {
                batch_set(&b, first + 1, far_wall);
            }
            /* The same wall at `first` and at every later index 7 apart. */
            for (size_t i = first; i < count; i += 7) {
                batch_set(&b, i, wall);
            }
            const shove_soa soa = batch_soa(&b);
            for (int l = 0; l < n_levels; ++l) {
                shove_hit hit;
                uint32_t index = 0xFFFFFFFFu;
                cr_assert(
                    KERNEL_SWEEP(shove__kernels_of(levels[l]))(&soa, mover, delta, &hit, &index),
                    "%s", shove_simd_name(levels[l]));
                cr_expect_eq(index, (uint32_t)first, "%s: count %zu: index %u, want %zu",
                             shove_simd_name(levels[l]), count, index, first);
                cr_expect_eq(hit.t, 0.5f);
                EXPECT_VEC_EQ(hit.normal, V(-1, 0, 0));
            }
            batch_free(&b);
        }
    }
}

Test(batch_tables, already_overlapping_boxes_tie_at_zero) {
    shove_simd levels[SHOVE_SIMD_LEVEL_COUNT];
    const int n_levels = runnable_levels(levels);
    const shove_aabb mover = BOX(0, 0, 0, 1, 1, 1);
    batch b = far_row(19);
    batch_set(&b, 11, BOX(0.5, 0.5, 0.5, 3, 3, 3)); /* inside at t = 0 */
    batch_set(&b, 17, BOX(-1, -1, -1, 2, 2, 2));    /* inside as well, later index */
    batch_set(&b, 4, BOX(1, 0, 0, 2, 1, 1));        /* touching: entered at t = 0 going +x */
    const shove_soa soa = batch_soa(&b);
    for (int l = 0; l < n_levels; ++l) {
        const shove_kernel_table *table = shove__kernels_of(levels[l]);
        shove_hit hit;
        uint32_t index = 0;
        /* Moving away in -x: the touching box is not hit, the overlapping
         * ones are, at t = 0, and the lower index wins. */
        cr_assert(KERNEL_SWEEP(table)(&soa, mover, V(-1, 0, 0), &hit, &index));
        cr_expect_eq(index, 11u, "%s", shove_simd_name(levels[l]));
        cr_expect_eq(hit.t, 0.0f);
        cr_expect(hit.started_inside);
        /* Moving +x: box 4 is entered right away, a tie at t = 0 with 11
         * and 17 that the lowest index wins; it did not start inside. */
        cr_assert(KERNEL_SWEEP(table)(&soa, mover, V(1, 0, 0), &hit, &index));
        cr_expect_eq(index, 4u, "%s", shove_simd_name(levels[l]));
        cr_expect_eq(hit.t, 0.0f);
        cr_expect(!hit.started_inside);
    }
    batch_free(&b);
}

Test(batch_tables, touching_and_sliding_are_not_hits) {
    shove_simd levels[SHOVE_SIMD_LEVEL_COUNT];
    const int n_levels = runnable_levels(levels);
    /* A floor of touching tiles right under the mover, a wall it slides
     * along, and a query box that touches everything. */
    batch b = batch_new(37, 1);
    for (size_t i = 0; i < b.count; ++i) {
        const float x = (float)i - 10.0f;
        batch_set(&b, i, BOX(x, -1, -1, x + 1, 0, 2));
    }
    const shove_soa soa = batch_soa(&b);
    const shove_aabb mover = BOX(0, 0, 0, 1, 1, 1);
    uint32_t out[37];
    for (int l = 0; l < n_levels; ++l) {
        const shove_kernel_table *table = shove__kernels_of(levels[l]);
        cr_expect(!KERNEL_SWEEP(table)(&soa, mover, V(5, 0, 0), NULL, NULL),
                  "%s: sliding on the floor", shove_simd_name(levels[l]));
        cr_expect(!KERNEL_SWEEP(table)(&soa, mover, V(0, 3, 0), NULL, NULL), "%s: lifting off",
                  shove_simd_name(levels[l]));
        cr_expect_eq(KERNEL_OVERLAP(table)(&soa, mover, out), 0u, "%s", shove_simd_name(levels[l]));
        shove_hit hit;
        uint32_t index = 0;
        cr_assert(KERNEL_SWEEP(table)(&soa, mover, V(0.25, -0.5, 0), &hit, &index),
                  "%s: pressing down", shove_simd_name(levels[l]));
        cr_expect_eq(index, 10u, "%s", shove_simd_name(levels[l]));
        cr_expect_eq(hit.t, 0.0f);
        EXPECT_VEC_EQ(hit.normal, V(0, 1, 0));
    }
    batch_free(&b);
}

Test(batch_tables, padding_of_the_last_block_is_never_reported) {
    /* Boxes far from a mover that sweeps through the whole neighbourhood of
     * the origin: whatever a level pads its last block with, nothing here
     * may be hit or overlapped. */
    shove_simd levels[SHOVE_SIMD_LEVEL_COUNT];
    const int n_levels = runnable_levels(levels);
    const shove_aabb mover = BOX(-60, -60, -60, -50, -50, -50);
    const shove_vec delta = V(110, 110, 110);
    const shove_aabb everything_near = BOX(-50, -50, -50, 50, 50, 50);
    uint32_t out[17];
    for (size_t count = 1; count <= 17; ++count) {
        batch b = far_row(count);
        const shove_soa soa = batch_soa(&b);
        for (int l = 0; l < n_levels; ++l) {
            const shove_kernel_table *table = shove__kernels_of(levels[l]);
            cr_expect(!KERNEL_SWEEP(table)(&soa, mover, delta, NULL, NULL), "%s: count %zu",
                      shove_simd_name(levels[l]), count);
            cr_expect_eq(KERNEL_OVERLAP(table)(&soa, everything_near, out), 0u, "%s: count %zu",
                         shove_simd_name(levels[l]), count);
        }
        batch_free(&b);
    }
}

Test(batch_tables, an_overlap_that_ends_before_the_first_float_time_is_no_hit) {
    /* The mover overlaps the box by a subnormal sliver and moves away: the
     * exit time underflows to 0, and the open interval (t_enter, 0) holds
     * no t in [0, 1]. */
    shove_simd levels[SHOVE_SIMD_LEVEL_COUNT];
    const int n_levels = runnable_levels(levels);
    batch b = far_row(11);
    batch_set(&b, 7, BOX(-5, 0, 0, 1e-45, 1, 1));
    const shove_soa soa = batch_soa(&b);
    for (int l = 0; l < n_levels; ++l) {
        const shove_kernel_table *table = shove__kernels_of(levels[l]);
        cr_expect(!KERNEL_SWEEP(table)(&soa, BOX(0, 0, 0, 1, 1, 1), V(8, 0, 0), NULL, NULL), "%s",
                  shove_simd_name(levels[l]));
        uint32_t index = 0;
        cr_expect(KERNEL_SWEEP(table)(&soa, BOX(0, 0, 0, 1, 1, 1), V(0, 0.5, 0), NULL, &index),
                  "%s: moving along it, the sliver overlaps", shove_simd_name(levels[l]));
        cr_expect_eq(index, 7u);
    }
    batch_free(&b);
}

Test(batch_tables, nan_boxes_behave_as_on_the_scalar_level) {
    /* NaN on an axis the mover does not move along: never a hit. NaN on a
     * moving axis: the scalar slab test ignores that axis (its bounds are NaN
     * and every compare with them is false); every level must agree. */
    shove_simd levels[SHOVE_SIMD_LEVEL_COUNT];
    const int n_levels = runnable_levels(levels);
    batch b = far_row(9);
    batch_set(&b, 2, BOX(3, 0, 0, 4, 1, 1));
    b.min[1][2] = NAN; /* the wall at index 2, still along y */
    batch_set(&b, 6, BOX(5, 0, 0, 6, 1, 1));
    const shove_soa soa = batch_soa(&b);
    const shove_aabb mover = BOX(0, 0, 0, 1, 1, 1);
    uint32_t out[9];
    for (int l = 0; l < n_levels; ++l) {
        const shove_kernel_table *table = shove__kernels_of(levels[l]);
        shove_hit hit;
        uint32_t index = 0;
        cr_assert(KERNEL_SWEEP(table)(&soa, mover, V(8, 0, 0), &hit, &index));
        cr_expect_eq(index, 6u, "%s: the NaN box is skipped", shove_simd_name(levels[l]));
        cr_expect_eq(hit.t, 0.5f);
        expect_sweep_matches(levels[l], &b, mover, V(8, 0.5, 0));
        cr_expect_eq(KERNEL_OVERLAP(table)(&soa, BOX(-1000, -1000, -1000, 1000, 1000, 1000), out),
                     8u, "%s: a NaN box overlaps nothing", shove_simd_name(levels[l]));
    }
    batch_free(&b);
}

/* >>public functions ------------------------------------------------------ */

Test(batch_public, matches_the_scalar_table_at_the_active_level) {
    test_rng r = {0x9AB11Cu};
    for (size_t count = 0; count <= 40; count += 3) {
        batch b = batch_new(count, 1);
        fill_messy(&b, &r, true);
        const shove_soa soa = batch_soa(&b);
        uint32_t want[40], got[40];
        const shove_aabb query = messy_box(&r, false);
        const size_t n = SHOVE_FN(overlap_batch)(&soa, query, got);
        cr_assert_eq(n, KERNEL_OVERLAP(shove__kernels_of(SHOVE_SIMD_SCALAR))(&soa, query, want));
        cr_expect_arr_eq(got, want, n * sizeof got[0]);

        const shove_aabb moving = messy_box(&r, false);
        const shove_vec delta = random_motion(&r);
        shove_hit hw = {0}, hg = {0};
        uint32_t iw = 0, ig = 0;
        const bool fw =
            KERNEL_SWEEP(shove__kernels_of(SHOVE_SIMD_SCALAR))(&soa, moving, delta, &hw, &iw);
        cr_expect_eq(SHOVE_FN(sweep_batch)(&soa, moving, delta, &hg, &ig), fw);
        cr_expect_eq(ig, iw);
        cr_expect(same_bits_f(hg.t, hw.t), "t differs at level %s",
                  shove_simd_name(shove_simd_active()));
        cr_expect(test_vec_same_bits(hg.normal, hw.normal));
        cr_expect_eq(hg.started_inside, hw.started_inside);
        batch_free(&b);
    }
}

/* The public entries check the query with code of their own; it must accept
 * exactly the boxes shove_aabb_is_valid accepts. Each coordinate in turn
 * takes each value at the edges of the float range; a refused query writes
 * nothing, an accepted one finds what a plain loop finds. */
Test(batch_public, accepts_exactly_the_valid_queries) {
    static const float edges[] = {0.0f,    -0.0f,    0.5f,     -1.0f,     1e-40f, -1e-40f,
                                  FLT_MAX, -FLT_MAX, INFINITY, -INFINITY, NAN};
    const size_t count = 13; /* a full 8-lane block and a partial one */
    batch b = batch_new(count, 1);
    for (size_t i = 0; i < count; ++i) {
        const float s = 0.01f * (float)i;
        batch_set(&b, i, BOX(0.25f + s, 0.25f, 0.25f, 0.75f + s, 0.75f, 0.75f));
    }
    const shove_soa soa = batch_soa(&b);
    int accepted = 0, found = 0;
    for (int corner = 0; corner < 2; ++corner) {
        for (int a = 0; a < SHOVE_DIM; ++a) {
            for (size_t e = 0; e < sizeof edges / sizeof edges[0]; ++e) {
                shove_aabb q = BOX(0, 0, 0, 1, 1, 1);
                (corner ? &q.max : &q.min)->raw[a] = edges[e];
                uint32_t out[13];
                for (size_t i = 0; i < count; ++i) {
                    out[i] = 777u;
                }
                const size_t n = SHOVE_FN(overlap_batch)(&soa, q, out);
                if (!SHOVE_FN(aabb_is_valid)(q)) {
                    cr_expect_eq(n, 0u, "corner %d axis %d value %a: not refused", corner, a,
                                 (double)edges[e]);
                    for (size_t i = 0; i < count; ++i) {
                        cr_expect_eq(out[i], 777u, "refused query wrote out[%zu]", i);
                    }
                    continue;
                }
                ++accepted;
                size_t expected = 0;
                for (size_t i = 0; i < count; ++i) {
                    const shove_aabb box = batch_get(&b, i);
                    bool hit = true;
                    for (int k = 0; k < SHOVE_DIM; ++k) {
                        hit = hit && box.min.raw[k] < q.max.raw[k] && q.min.raw[k] < box.max.raw[k];
                    }
                    if (hit) {
                        cr_expect_eq(out[expected], (uint32_t)i);
                        ++expected;
                    }
                }
                cr_expect_eq(n, expected, "corner %d axis %d value %a", corner, a,
                             (double)edges[e]);
                found += expected > 0;
            }
        }
    }
    /* Both kinds of case were met, and most accepted queries find boxes (so a
     * wrong refusal, which finds none, shows). */
    cr_expect_gt(accepted, 0);
    cr_expect_gt(found, accepted / 2);
    batch_free(&b);
}

Test(batch_public, refuses_bad_input_without_writing) {
    batch b = far_row(5);
    batch_set(&b, 3, BOX(0, 0, 0, 1, 1, 1));
    const shove_soa good = batch_soa(&b);
    const shove_aabb q = BOX(0, 0, 0, 2, 2, 2);
    uint32_t out[5] = {7, 7, 7, 7, 7};
    shove_hit hit = sentinel_hit();
    uint32_t index = 1234;

    cr_expect_eq(SHOVE_FN(overlap_batch)(&good, q, out), 1u, "sanity");
    cr_expect_eq(out[0], 3u);
    for (int i = 0; i < 5; ++i) {
        out[i] = 7; /* the entries after the count were scratch */
    }

    shove_soa null_array = good;
    null_array.max[SHOVE_DIM - 1] = NULL;
    shove_soa null_min = good;
    null_min.min[0] = NULL;
    const shove_aabb bad_queries[] = {BOX(NAN, 0, 0, 1, 1, 1), BOX(0, 0, 0, INFINITY, 1, 1),
                                      BOX(2, 0, 0, 1, 1, 1), BOX(0, -INFINITY, 0, 1, 1, 1)};

    cr_expect_eq(SHOVE_FN(overlap_batch)(NULL, q, out), 0u);
    cr_expect_eq(SHOVE_FN(overlap_batch)(&null_array, q, out), 0u);
    cr_expect_eq(SHOVE_FN(overlap_batch)(&null_min, q, out), 0u);
    cr_expect_eq(SHOVE_FN(overlap_batch)(&good, q, NULL), 0u);
    for (size_t i = 0; i < sizeof bad_queries / sizeof bad_queries[0]; ++i) {
        cr_expect_eq(SHOVE_FN(overlap_batch)(&good, bad_queries[i], out), 0u, "query %zu", i);
    }
    for (int i = 0; i < 5; ++i) {
        cr_expect_eq(out[i], 7u, "refused calls wrote out[%d]", i);
    }

    const shove_vec d = V(0.5, 0, 0);
    cr_expect(!SHOVE_FN(sweep_batch)(NULL, q, d, &hit, &index));
    cr_expect(!SHOVE_FN(sweep_batch)(&null_array, q, d, &hit, &index));
    cr_expect(!SHOVE_FN(sweep_batch)(&null_min, q, d, &hit, &index));
    for (size_t i = 0; i < sizeof bad_queries / sizeof bad_queries[0]; ++i) {
        cr_expect(!SHOVE_FN(sweep_batch)(&good, bad_queries[i], d, &hit, &index));
    }
    cr_expect(!SHOVE_FN(sweep_batch)(&good, q, V(NAN, 0, 0), &hit, &index));
    cr_expect(!SHOVE_FN(sweep_batch)(&good, q, V(0, INFINITY, 0), &hit, &index));
    /* A miss is not a refusal, but writes nothing either. */
    cr_expect(!SHOVE_FN(sweep_batch)(&good, BOX(50, 50, 50, 51, 51, 51), d, &hit, &index));
    cr_expect(same_hit(hit, sentinel_hit()), "refused calls wrote the hit");
    cr_expect_eq(index, 1234u);

    /* An empty batch needs no arrays. */
    shove_soa empty = {0};
    cr_expect_eq(SHOVE_FN(overlap_batch)(&empty, q, out), 0u);
    cr_expect(!SHOVE_FN(sweep_batch)(&empty, q, d, &hit, &index));
    batch_free(&b);
}

/* >>list scans (the lists of shove2/3_slide) ------------------------------ */

#if SHOVE_DIM == 2
#define KERNEL_LIST(table) ((table)->list2)
#else
#define KERNEL_LIST(table) ((table)->list3)
#endif

/* The list scan's answer worked out box by box with the public helpers: the
 * boxes that touch `query` (faces included) and whether all are valid. */
static size_t list_expected(const shove_aabb *boxes, size_t count, shove_aabb query, uint32_t *out,
                            bool *valid) {
    size_t n = 0;
    *valid = true;
    for (size_t i = 0; i < count; ++i) {
        bool touches = true;
        for (int a = 0; a < SHOVE_DIM; ++a) {
            touches = touches && boxes[i].min.raw[a] <= query.max.raw[a] &&
                      query.min.raw[a] <= boxes[i].max.raw[a];
        }
        if (touches) {
            out[n++] = (uint32_t)i;
        }
        *valid = *valid && SHOVE_FN(aabb_is_valid)(boxes[i]);
    }
    return n;
}

/* Every runnable level's list scan against the answer above. The list is
 * allocated with exactly `count` boxes, so the sanitizer build catches a
 * read past its end. */
static void expect_list_matches(const shove_simd *levels, int n_levels, const shove_aabb *boxes,
                                size_t count, shove_aabb query) {
    uint32_t *want = malloc((count + 1) * sizeof *want);
    uint32_t *got = malloc((count + 1) * sizeof *got);
    cr_assert(want && got);
    bool want_valid;
    const size_t want_n = list_expected(boxes, count, query, want, &want_valid);
    for (int l = 0; l < n_levels; ++l) {
        const char *name = shove_simd_name(levels[l]);
        bool valid = true;
        const size_t n =
            KERNEL_LIST(shove__kernels_of(levels[l]))(boxes, count, query, got, &valid);
        cr_expect_eq(valid, want_valid, "%s: count %zu", name, count);
        cr_assert_eq(n, want_n, "%s: count %zu", name, count);
        for (size_t k = 0; k < n; ++k) {
            cr_expect_eq(got[k], want[k], "%s: hit %zu of %zu", name, k, count);
        }
        /* *valid is only ever cleared. */
        bool cleared = false;
        KERNEL_LIST(shove__kernels_of(levels[l]))(boxes, count, query, got, &cleared);
        cr_expect(!cleared, "%s", name);
    }
    free(want);
    free(got);
}

/* One bad number (NaN, an infinity) in one float of box i, or its min and
 * max swapped on one axis. */
static void spoil_box(shove_aabb *box, test_rng *r) {
    const int a = test_rng_int(r, 0, SHOVE_DIM - 1);
    static const float bad[] = {NAN, -NAN, INFINITY, -INFINITY};
    switch (test_rng_int(r, 0, 2)) {
    case 0:
        box->min.raw[a] = bad[test_rng_int(r, 0, 3)];
        break;
    case 1:
        box->max.raw[a] = bad[test_rng_int(r, 0, 3)];
        break;
    default:
        box->min.raw[a] = box->max.raw[a] + 0.5f;
        break;
    }
}

/* Lists of every length up to 67 and a few long ones, all valid or with
 * exactly one bad box anywhere (first, last, inside a block, in a block's
 * tail), against queries that touch many boxes or few. */
Test(batch_tables, list_scans_match_box_by_box) {
    shove_simd levels[SHOVE_SIMD_LEVEL_COUNT];
    const int n_levels = runnable_levels(levels);
    test_rng r = {0x11575CA9u};
    size_t counts[68 + 4];
    size_t n_counts = 0;
    for (size_t c = 0; c <= 67; ++c) {
        counts[n_counts++] = c;
    }
    counts[n_counts++] = 255;
    counts[n_counts++] = 256;
    counts[n_counts++] = 1000;
    counts[n_counts++] = 1025;
    for (size_t c = 0; c < n_counts; ++c) {
        const size_t count = counts[c];
        shove_aabb *boxes = malloc((count > 0 ? count : 1) * sizeof *boxes);
        cr_assert(boxes);
        const int rounds = count > 100 ? 6 : 10;
        for (int round = 0; round < rounds; ++round) {
            for (size_t i = 0; i < count; ++i) {
                boxes[i] = messy_box(&r, false);
            }
            const size_t bad =
                count > 0 && (round & 1) ? (size_t)test_rng_int(&r, 0, (int)count - 1) : count;
            if (bad < count) {
                spoil_box(&boxes[bad], &r);
            }
            shove_aabb query = messy_box(&r, false);
            if (round % 3 == 2) { /* a small query: few boxes touch it */
                query.max = query.min;
            }
            expect_list_matches(levels, n_levels, boxes, count, query);
            if (bad < count) {
                /* The same list with the bad box fixed again is valid. */
                boxes[bad] = messy_box(&r, false);
                expect_list_matches(levels, n_levels, boxes, count, query);
            }
        }
        free(boxes);
    }
}

/* Valid boxes at the edges of the floats: a span past FLT_MAX (its extent
 * rounds to +inf), min +0 with max -0, extents of one denormal, and points.
 * The SIMD scans check such lists with a cheap test first and then box by
 * box; the answer must be the scalar one, valid, wherever the box lies
 * (first, inside a block, in the last, overlapping one). */
Test(batch_tables, list_scans_keep_valid_boxes_at_the_edges_of_the_floats) {
    shove_simd levels[SHOVE_SIMD_LEVEL_COUNT];
    const int n_levels = runnable_levels(levels);
    test_rng r = {0xED6E5u};
    static const size_t counts[] = {1,  15, 16, 17, 31, 32, 33,  47,
                                    48, 49, 63, 64, 65, 80, 100, 1000};
    for (size_t c = 0; c < sizeof counts / sizeof counts[0]; ++c) {
        const size_t count = counts[c];
        shove_aabb *boxes = malloc(count * sizeof *boxes);
        cr_assert(boxes);
        for (int round = 0; round < 24; ++round) {
            for (size_t i = 0; i < count; ++i) {
                boxes[i] = messy_box(&r, false);
            }
            const size_t at = (size_t)test_rng_int(&r, 0, (int)count - 1);
            const int a = test_rng_int(&r, 0, SHOVE_DIM - 1);
            switch (round % 4) {
            case 0:
                boxes[at].min.raw[a] = -FLT_MAX;
                boxes[at].max.raw[a] = FLT_MAX;
                break;
            case 1:
                boxes[at].min.raw[a] = 0.0f;
                boxes[at].max.raw[a] = -0.0f;
                break;
            case 2:
                boxes[at].min.raw[a] = 0x1p-149f;
                boxes[at].max.raw[a] = 0x1p-148f;
                break;
            default:
                boxes[at].max = boxes[at].min;
                break;
            }
            cr_assert(SHOVE_FN(aabb_is_valid)(boxes[at]), "round %d", round);
            shove_aabb query = messy_box(&r, false);
            if (round % 3 == 0) { /* a query that covers everything */
                for (int k = 0; k < SHOVE_DIM; ++k) {
                    query.min.raw[k] = -FLT_MAX;
                    query.max.raw[k] = FLT_MAX;
                }
            }
            expect_list_matches(levels, n_levels, boxes, count, query);
        }
        free(boxes);
    }
}
