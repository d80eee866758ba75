/*
 * bench_voxel.c: nanoseconds per character move in a block world. A
 * 512 x 512 voxel world (hills with slab terraces, read through the voxel
 * callback) with 20,000 static crates (1 x 1 x 1 bodies) and 2,000 or
 * 20,000 mobs (0.6 x 1.8 x 0.6 dynamic bodies) walking with gravity,
 * step-up (0.6) and edge guard, every mob moved once per frame with
 * shove3_move. Targets: at most 1.5x the cost of the reference mover
 * (below) in the same run, and at most 1.2x more per move with 20,000 mobs
 * than with 2,000.
 *
 * The reference mover (voxel_clip.h) is a plain per-axis clip, the way a
 * block game hand-writes entity movement, with the same features in use:
 * step-up, ground state, an edge guard and contacts, over the same voxels
 * (through the same callback) and the same crates and mobs (kept in chunk
 * lists). Each row moves the same spawned mobs with both, one after the
 * other; with SHOVE_BENCH_PAIRS=N each row runs N such pairs and prints
 * medians (the ratio is the median of the pairs' ratios).
 *
 * Order "chunks/pt": chunk order with mobs that pass through each other
 * (their masks leave out the mobs' category, as block games leave mob
 * crowding to a separate push): shove3_move then skips the dynamic
 * bodies' tree, and the reference skips mobs in its chunk lists.
 *
 * Mob order. The mobs are created and moved chunk by chunk (16 x 16
 * columns), as block games keep them: entities belong to the chunk they
 * are in, spawn when it loads and are updated with it. The bench also runs
 * them in the order the spawner scattered them over the world (bodies and
 * moves jumping across memory), to show what that order costs; the
 * targets are judged on chunk order.
 *
 * Times are CPU time of this thread (the machine may be shared), with wall
 * time beside them. Prints a table; writes voxel.csv into argv[1].
 *
 * Usage: bench_voxel [output-directory]
 *
 * With SHOVE_BENCH_QUICK=N in the environment (N >= 1 frames) it runs only
 * the first line of the table (hills, 2,000 mobs, chunk order) for 2 warmup
 * frames and N measured ones: a small fixed workload for instruction
 * counting (valgrind --tool=callgrind --toggle-collect=shove3_move ...).
 * It also prints a checksum (FNV-1a) of every move's box, delta, flags and
 * contacts, so two builds can be checked to move the mobs identically.
 * SHOVE_BENCH_CONTACTS=0 (with SHOVE_BENCH_QUICK) moves without asking for
 * contacts, as the timed table does, and leaves them out of the checksum.
 * SHOVE_BENCH_RUN=K (with SHOVE_BENCH_QUICK) runs line K of the table
 * instead, counted from 0 (1: 20,000 mobs in chunk order; 6: mobs passing
 * through mobs); the checksum the notes record is line 0's.
 */
#define _POSIX_C_SOURCE 199309L
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <shove/shove.h>

#include "bench_util.h"
#include "voxel_clip.h"

enum { SX = 512, SY = 24, SZ = 512, CRATES = 20000 };

/* 0 air, 1 block, 2 bottom slab; columns of SY cells (y fastest), as block
 * games usually store them. */
static uint8_t *cells;
static long reads;
/* Categories: crates keep the default (1), mobs are 2. */
#define CRATE_CATEGORY 1u
#define MOB_CATEGORY   2u
/* The crates of the current world, for the reference mover's copy of it. */
static shove3_aabb crate_boxes[CRATES];

static inline size_t at(int x, int y, int z) {
    return ((size_t)z * SX + (size_t)x) * SY + (size_t)y;
}

static inline int cell(int x, int y, int z) {
    if ((unsigned)x >= SX || (unsigned)y >= SY || (unsigned)z >= SZ) {
        return 0;
    }
    return cells[at(x, y, z)];
}

static int shapes(void *ctx, int32_t x, int32_t y, int32_t z,
                  shove3_aabb out[SHOVE_VOXEL_MAX_BOXES]) {
    (void)ctx;
    reads += 1;
    switch (cell(x, y, z)) {
    case 1:
        out[0] = (shove3_aabb){{{0, 0, 0}}, {{1, 1, 1}}};
        return 1;
    case 2:
        out[0] = (shove3_aabb){{{0, 0, 0}}, {{1, 0.5f, 1}}};
        return 1;
    default:
        return 0;
    }
}

static uint64_t rng = 0x2545F4914F6CDD1Dull;

static float frand(float lo, float hi) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return lo + (hi - lo) * (float)(rng >> 40) * (1.0f / 16777216.0f);
}

static float lattice(int x, int z) {
    uint32_t h = (uint32_t)x * 374761393u + (uint32_t)z * 668265263u;
    h = (h ^ (h >> 13)) * 1274126177u;
    return (float)((h ^ (h >> 16)) & 0xFFFF) / 65535.0f;
}

static float noise(float x, float z, float scale) {
    const float fx = x / scale, fz = z / scale;
    const int ix = (int)floorf(fx), iz = (int)floorf(fz);
    const float tx = fx - (float)ix, tz = fz - (float)iz;
    const float a = lattice(ix, iz), b = lattice(ix + 1, iz);
    const float c = lattice(ix, iz + 1), d = lattice(ix + 1, iz + 1);
    return (a + (b - a) * tx) * (1.0f - tz) + (c + (d - c) * tx) * tz;
}

static int height[SX * SZ];

/* Hills with half steps, or (flat) ground at y = 2 everywhere. */
static void generate(bool flat) {
    memset(cells, 0, (size_t)SX * SY * SZ);
    for (int z = 0; z < SZ; ++z) {
        for (int x = 0; x < SX; ++x) {
            height[z * SX + x] = flat ? 2 : 2 + (int)(6.0f * noise((float)x, (float)z, 37.0f));
            for (int y = 0; y < height[z * SX + x]; ++y) {
                cells[at(x, y, z)] = 1;
            }
        }
    }
    /* half steps in front of most rises, so mobs get around the hills */
    for (int z = 1; z < SZ - 1; ++z) {
        for (int x = 1; x < SX - 1; ++x) {
            const int h = height[z * SX + x];
            if (!flat && (height[z * SX + x - 1] > h || height[z * SX + x + 1] > h ||
                          height[(z - 1) * SX + x] > h || height[(z + 1) * SX + x] > h)) {
                if (frand(0, 1) < 0.85f) {
                    cells[at(x, h, z)] = 2;
                }
            }
        }
    }
}

static double clock_s(clockid_t id) {
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

typedef struct mob {
    shove_id id;
    float heading, vy;
    shove3_aabb box; /* where it spawned */
    int order;       /* spawn order, to break ties */
    bool grounded;   /* the reference mover's ground flag of the last move */
} mob;

/* Block games keep entities with the 16 x 16 chunk they are in: they spawn
 * them chunk by chunk as chunks load and update them chunk by chunk. */
enum { CHUNK = 16 };

static int chunk_of(const mob *m) {
    const int cx = (int)(m->box.min.x / CHUNK), cz = (int)(m->box.min.z / CHUNK);
    return cz * (SX / CHUNK) + cx;
}

static int by_chunk(const void *pa, const void *pb) {
    const mob *a = pa, *b = pb;
    const int ca = chunk_of(a), cb = chunk_of(b);
    if (ca != cb) {
        return ca < cb ? -1 : 1;
    }
    return a->order < b->order ? -1 : (a->order > b->order);
}

typedef struct result {
    double cpu_ns, wall_ns, reads, contacts, steps;
    long moves;
    uint64_t checksum;
} result;

/* Quick mode: hash every move's result (FNV-1a). */
static bool checksum_moves;
/* Whether the checksummed moves ask for their contacts (the timed table's
 * moves do not; SHOVE_BENCH_CONTACTS=0 counts those). */
static bool checksum_contacts = true;
/* The world def's quiet_moves: no pairs or events (SHOVE_BENCH_EVENTS=1
 * keeps them, to see what they cost). */
static bool quiet_moves = true;

static void checksum_move(uint64_t *h, const shove3_move_result *mr,
                          const shove3_contact *contacts) {
    const float motion[6] = {mr->box.min.x, mr->box.min.y, mr->box.min.z,
                             mr->delta.x,   mr->delta.y,   mr->delta.z};
    const int flags[5] = {mr->contact_count, mr->on_ground, mr->hit_ceiling, mr->hit_wall,
                          mr->stepped};
    bench_hash_bytes(h, motion, sizeof motion);
    bench_hash_bytes(h, flags, sizeof flags);
    for (int c = 0; checksum_contacts && c < mr->contact_count && c < 8; ++c) {
        const float cf[4] = {contacts[c].t, contacts[c].normal.x, contacts[c].normal.y,
                             contacts[c].normal.z};
        const uint32_t ci[3] = {contacts[c].other.index, (uint32_t)contacts[c].index,
                                (uint32_t)contacts[c].response};
        bench_hash_bytes(h, cf, sizeof cf);
        bench_hash_bytes(h, ci, sizeof ci);
    }
}

/* The scenes: voxel hills, voxel flat ground, or flat ground as one static
 * body and no voxels (to see what reading voxels costs). */
typedef enum scene { HILLS, FLAT_VOXELS, FLAT_BODY } scene;
static const char *scene_names[] = {"voxel hills", "voxel flat", "body flat"};

static shove3_world *make_world(scene sc) {
    generate(sc != HILLS);
    shove3_world_def wd = shove3_default_world_def();
    wd.bounds = (shove3_aabb){{{0, -4, 0}}, {{SX, SY + 4, SZ}}};
    wd.body_capacity = CRATES + 20000;
    wd.quiet_moves = quiet_moves;
    shove3_world *w = NULL;
    if (shove3_world_create(&wd, &w) != SHOVE_OK) {
        return NULL;
    }
    if (sc == FLAT_BODY) {
        shove3_body_def ground = shove3_default_body_def();
        ground.box = (shove3_aabb){{{0, 0, 0}}, {{SX, 2, SZ}}};
        shove_id id;
        shove3_body_create(w, &ground, &id);
    } else {
        shove3_voxel_def vd = shove3_default_voxel_def();
        vd.shapes = shapes;
        vd.shape_bounds.max.y = 1.0f; /* no shape here is taller than its voxel */
        shove3_world_set_voxels(w, &vd);
    }
    for (int i = 0; i < CRATES; ++i) {
        const int x = (int)frand(1, SX - 1), z = (int)frand(1, SZ - 1);
        const float y =
            (float)height[z * SX + x] + (cell(x, height[z * SX + x], z) == 2 ? 0.5f : 0);
        shove3_body_def def = shove3_default_body_def();
        def.box = (shove3_aabb){{{(float)x, y, (float)z}}, {{(float)x + 1, y + 1, (float)z + 1}}};
        crate_boxes[i] = def.box;
        shove_id id;
        shove3_body_create(w, &def, &id);
    }
    return w;
}

/* Spawns `count` mobs into `mobs`. `chunked`: in chunk order (their bodies
 * created and moved chunk by chunk); else in the order the random spawner
 * found them, scattered over the whole world (bodies and moves jump across
 * memory). */
static int spawn(shove3_world *w, mob *mobs, int count, bool chunked, uint64_t mask) {
    int n = 0;
    while (n < count) {
        const float x = frand(2, SX - 3), z = frand(2, SZ - 3);
        shove3_aabb b = {{{x, SY + 1.0f, z}}, {{x + 0.6f, SY + 2.8f, z + 0.6f}}};
        shove3_hit hit;
        const vec3s down = {{0, -SY - 4.0f, 0}};
        if (!shove3_cast_box(w, b, down, UINT64_MAX, &hit) || hit.started_inside) {
            continue;
        }
        b.min.y += down.y * hit.t + 0.01f;
        b.max.y += down.y * hit.t + 0.01f;
        shove_id other;
        if (shove3_query_box(w, b, UINT64_MAX, &other, 1) > 0) {
            continue;
        }
        shove3_body_def def = shove3_default_body_def();
        def.box = b;
        def.type = SHOVE_BODY_DYNAMIC;
        def.category = MOB_CATEGORY;
        def.mask = mask;
        shove3_body_create(w, &def, &mobs[n].id);
        mobs[n].heading = frand(0, 6.2831853f);
        mobs[n].box = b;
        mobs[n].order = n;
        n += 1;
    }
    if (chunked) {
        /* The same mobs, created again chunk by chunk. Freed slots are
         * reused last-freed first, so freeing from the highest slot down
         * hands them out again in ascending order. */
        for (int i = n; i-- > 0;) {
            shove3_body_destroy(w, mobs[i].id);
        }
        qsort(mobs, (size_t)n, sizeof *mobs, by_chunk);
        for (int i = 0; i < n; ++i) {
            shove3_body_def def = shove3_default_body_def();
            def.box = mobs[i].box;
            def.type = SHOVE_BODY_DYNAMIC;
            def.category = MOB_CATEGORY;
            def.mask = mask;
            shove3_body_create(w, &def, &mobs[i].id);
        }
    }
    return n;
}

/* The wander rule of both movers: gravity, a heading, a new heading when
 * the mob made less than half the way it asked. */
static vec3s mob_motion(mob *m, float dt) {
    m->vy -= 25.0f * dt;
    return (vec3s){{3.0f * dt * cosf(m->heading), m->vy * dt, 3.0f * dt * sinf(m->heading)}};
}

static void mob_after(mob *m, vec3s asked, vec3s got, bool on_ground) {
    if (on_ground) {
        m->vy = 0.0f;
    }
    if (fabsf(got.x) + fabsf(got.z) < 0.5f * (fabsf(asked.x) + fabsf(asked.z))) {
        m->heading += frand(1.5f, 4.5f);
    }
}

/* The clocks and voxel reads when a run's measured frames begin. */
typedef struct meter {
    double cpu0, wall0;
    long reads0;
} meter;

static meter meter_start(void) {
    return (meter){clock_s(CLOCK_THREAD_CPUTIME_ID), clock_s(CLOCK_MONOTONIC), reads};
}

/* One measured move. */
static void result_count(result *r, int contacts, bool stepped) {
    r->moves += 1;
    r->contacts += contacts;
    r->steps += stepped;
}

/* The totals since `m`, per move. */
static void result_finish(result *r, const meter *m) {
    r->cpu_ns = (clock_s(CLOCK_THREAD_CPUTIME_ID) - m->cpu0) * 1e9 / (double)r->moves;
    r->wall_ns = (clock_s(CLOCK_MONOTONIC) - m->wall0) * 1e9 / (double)r->moves;
    r->reads = (double)(reads - m->reads0) / (double)r->moves;
    r->contacts /= (double)r->moves;
    r->steps /= (double)r->moves;
}

/* Moves the mobs with shove3_move for `warmup` then `frames` frames. */
static result run(shove3_world *w, mob *mobs, int n, int warmup, int frames) {
    shove3_move_def def = shove3_default_move_def();
    def.step_height = 0.6f;
    def.edge_guard = true;
    const float dt = 1.0f / 30.0f;
    result r;
    memset(&r, 0, sizeof r);
    r.checksum = 0xcbf29ce484222325ull;
    shove3_contact contacts[8];
    if (checksum_moves && checksum_contacts) {
        def.contacts = contacts;
        def.contact_capacity = 8;
    }
    meter mt = meter_start();
    for (int f = 0; f < warmup + frames; ++f) {
        if (f == warmup) {
            mt = meter_start();
        }
        for (int i = 0; i < n; ++i) {
            mob *m = &mobs[i];
            const vec3s d = mob_motion(m, dt);
            shove3_move_result mr;
            shove3_move(w, m->id, d, &def, &mr);
            if (checksum_moves) {
                checksum_move(&r.checksum, &mr, contacts);
            }
            mob_after(m, d, mr.delta, mr.on_ground);
            if (f >= warmup) {
                result_count(&r, mr.contact_count, mr.stepped);
            }
        }
    }
    result_finish(&r, &mt);
    return r;
}

/* The same mobs, from where they spawned, moved by the reference mover
 * (voxel_clip.h) over the same voxels and crates. */
static result run_clip(mob *mobs, int n, int warmup, int frames, uint64_t mask) {
    result r;
    memset(&r, 0, sizeof r);
    clip_world cw;
    uint32_t *ids = malloc((size_t)n * sizeof *ids);
    if (!ids || !clip_world_init(&cw, SX, SZ, shapes, NULL)) {
        free(ids);
        return r;
    }
    for (int i = 0; i < CRATES; ++i) {
        clip_world_add(&cw, crate_boxes[i], CRATE_CATEGORY);
    }
    for (int i = 0; i < n; ++i) {
        ids[i] = clip_world_add(&cw, mobs[i].box, MOB_CATEGORY);
    }
    const float dt = 1.0f / 30.0f;
    meter mt = meter_start();
    for (int f = 0; f < warmup + frames; ++f) {
        if (f == warmup) {
            mt = meter_start();
        }
        for (int i = 0; i < n; ++i) {
            mob *m = &mobs[i];
            const vec3s d = mob_motion(m, dt);
            const clip_result cr = clip_move(&cw, ids[i], mask, d, 0.6f, true, m->grounded);
            m->grounded = cr.on_ground;
            mob_after(m, d, cr.delta, cr.on_ground);
            if (f >= warmup) {
                result_count(&r, cr.contact_count, cr.stepped);
            }
        }
    }
    result_finish(&r, &mt);
    clip_world_free(&cw);
    free(ids);
    return r;
}

int main(int argc, char **argv) {
    const char *dir = argc > 1 ? argv[1] : ".";
    cells = malloc((size_t)SX * SY * SZ);
    char path[4096];
    snprintf(path, sizeof path, "%s/voxel.csv", dir);
    FILE *csv = fopen(path, "w");
    if (csv) {
        fprintf(csv, "scene,mobs,order,crates,moves,cpu_ns_per_move,wall_ns_per_move,"
                     "voxel_reads_per_move,contacts_per_move,clip_cpu_ns_per_move,"
                     "clip_reads_per_move,ratio_to_clip\n");
    }
    const char *quick_env = getenv("SHOVE_BENCH_QUICK");
    const int quick = quick_env ? atoi(quick_env) : 0;
    const char *events_env = getenv("SHOVE_BENCH_EVENTS");
    quiet_moves = !(events_env && atoi(events_env) != 0);
    const int pairs = bench_pairs_wanted();
    printf("bench_voxel: 512 x 512 world, %d static crates, 0.6 x 1.8 x 0.6 mobs walking with "
           "gravity, step-up and edge guard (SIMD level %d); clip = the per-axis reference "
           "mover (voxel_clip.h); medians of %d alternating pair(s); %s\n",
           CRATES, (int)shove_simd_active(), pairs,
           quiet_moves ? "quiet_moves (no pairs or events)" : "pairs and events kept");
    printf("%-12s %6s %-9s %8s %12s %13s %9s %9s %7s %9s %9s %7s\n", "scene", "mobs", "order",
           "moves", "ns/move cpu", "ns/move wall", "reads/mv", "contacts", "steps", "clip ns",
           "clip rd", "ratio");
    const struct {
        scene sc;
        int mobs, frames;
        bool chunked;
        bool through; /* mobs pass through mobs (their masks leave out MOB_CATEGORY) */
    } runs[] = {{HILLS, 2000, 60, true, false},       {HILLS, 20000, 12, true, false},
                {HILLS, 2000, 60, false, false},      {HILLS, 20000, 12, false, false},
                {FLAT_VOXELS, 2000, 60, true, false}, {FLAT_BODY, 2000, 60, true, false},
                {HILLS, 2000, 60, true, true},        {HILLS, 20000, 12, true, true}};
    /* [scattered, chunks, chunks with mobs passing through mobs][20k] */
    double hills[3][2] = {{0, 0}, {0, 0}, {0, 0}};
    double clip_hills[3][2] = {{0, 0}, {0, 0}, {0, 0}};
    double ratios[3][2] = {{0, 0}, {0, 0}, {0, 0}};
    uint64_t last_checksum = 0;
    const size_t run_count = quick > 0 ? 1u : sizeof runs / sizeof runs[0];
    checksum_moves = quick > 0;
    const char *contacts_env = getenv("SHOVE_BENCH_CONTACTS");
    checksum_contacts = !(contacts_env && atoi(contacts_env) == 0);
    /* the line a quick run times (SHOVE_BENCH_RUN), past the end: none */
    const char *first_env = getenv("SHOVE_BENCH_RUN");
    const size_t first = quick > 0 && first_env ? (size_t)strtoul(first_env, NULL, 10) : 0u;
    for (size_t k = first; k < first + run_count && k < sizeof runs / sizeof runs[0]; ++k) {
        double cpu[BENCH_MAX_PAIRS], wall[BENCH_MAX_PAIRS], clip_cpu[BENCH_MAX_PAIRS],
            ratio[BENCH_MAX_PAIRS];
        result r, c;
        memset(&r, 0, sizeof r);
        memset(&c, 0, sizeof c);
        const int reps = quick > 0 ? 1 : pairs;
        const bool with_clip = runs[k].sc != FLAT_BODY;
        for (int p = 0; p < reps; ++p) {
            /* same seed for every run: the same terrain, crates and mobs */
            rng = 0x2545F4914F6CDD1Dull;
            shove3_world *w = make_world(runs[k].sc);
            mob *mobs = calloc((size_t)runs[k].mobs, sizeof *mobs);
            mob *clip_mobs = calloc((size_t)runs[k].mobs, sizeof *clip_mobs);
            if (!w || !mobs || !clip_mobs) {
                fprintf(stderr, "cannot create the world\n");
                return 1;
            }
            const uint64_t mask = runs[k].through ? ~(uint64_t)MOB_CATEGORY : UINT64_MAX;
            const int n = spawn(w, mobs, runs[k].mobs, runs[k].chunked, mask);
            memcpy(clip_mobs, mobs, (size_t)n * sizeof *mobs);
            r = quick > 0 ? run(w, mobs, n, 2, quick) : run(w, mobs, n, 10, runs[k].frames);
            shove3_world_destroy(w);
            if (with_clip) {
                c = quick > 0 ? run_clip(clip_mobs, n, 2, quick, mask)
                              : run_clip(clip_mobs, n, 10, runs[k].frames, mask);
            }
            free(mobs);
            free(clip_mobs);
            cpu[p] = r.cpu_ns;
            wall[p] = r.wall_ns;
            clip_cpu[p] = c.cpu_ns;
            ratio[p] = with_clip ? r.cpu_ns / c.cpu_ns : 0.0;
        }
        r.cpu_ns = bench_median(cpu, reps);
        r.wall_ns = bench_median(wall, reps);
        c.cpu_ns = bench_median(clip_cpu, reps);
        const double q = bench_median(ratio, reps);
        last_checksum = r.checksum;
        const int group = runs[k].through ? 2 : runs[k].chunked;
        if (runs[k].sc == HILLS) {
            hills[group][runs[k].mobs > 2000] = r.cpu_ns;
            clip_hills[group][runs[k].mobs > 2000] = c.cpu_ns;
            ratios[group][runs[k].mobs > 2000] = q;
        }
        const char *order = runs[k].through   ? "chunks/pt"
                            : runs[k].chunked ? "chunks"
                                              : "scattered";
        printf("%-12s %6d %-9s %8ld %12.0f %13.0f %9.1f %9.2f %7.3f", scene_names[runs[k].sc],
               runs[k].mobs, order, r.moves, r.cpu_ns, r.wall_ns, r.reads, r.contacts, r.steps);
        if (with_clip) {
            printf(" %9.0f %9.1f %6.2fx\n", c.cpu_ns, c.reads, q);
        } else {
            printf(" %9s %9s %7s\n", "-", "-", "-");
        }
        if (csv) {
            fprintf(csv, "%s,%d,%s,%d,%ld,%.1f,%.1f,%.2f,%.3f,%.1f,%.2f,%.3f\n",
                    scene_names[runs[k].sc], runs[k].mobs, order, CRATES, r.moves, r.cpu_ns,
                    r.wall_ns, r.reads, r.contacts, c.cpu_ns, c.reads, q);
        }
    }
    if (quick > 0) {
        printf("checksum of every move: %016llx\n", (unsigned long long)last_checksum);
    }
    static const char *const groups[3] = {"in scattered order", "in chunk order",
                                          "in chunk order passing through mobs"};
    for (int c = 2; c >= 0 && quick <= 0; --c) {
        const double a = hills[c][0], b = hills[c][1];
        printf("voxel hills, mobs %s: %.2fx the clip's cost with 2k mobs, %.2fx with 20k "
               "(target <= 1.5x: %s); %.0f ns per move with 2k, %.0f with 20k, growth %.2fx "
               "(target <= 1.2x: %s; the clip's own growth %.2fx)\n",
               groups[c], ratios[c][0], ratios[c][1],
               (ratios[c][0] <= 1.5 && ratios[c][1] <= 1.5) ? "met" : "not met", a, b, b / a,
               b / a <= 1.2 ? "met" : "not met", clip_hills[c][1] / clip_hills[c][0]);
    }
    if (csv) {
        fclose(csv);
    }
    free(cells);
    return 0;
}
