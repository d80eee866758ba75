/*
 * determinism.c: rule 4 end to end. Runs one long scenario (determinism.inc:
 * slides, resolves, batch kernels and a world of bodies over voxels, frame
 * after frame) in 2D and 3D under every SIMD level this CPU and build
 * support, hashes every result (FNV-1a over the bytes of every box, motion,
 * flag and contact), and prints one line per dimension:
 *
 *     2d 0123456789abcdef
 *     3d fedcba9876543210
 *
 * It exits with 1 when two levels disagree. The same source is linked twice
 * by the build: against the library as configured (determinism) and against
 * a copy whose SIMD kernels use SIMDe's portable code (determinism_portable,
 * -DSIMDE_NO_NATIVE); ctest compares the two outputs (see CMakeLists.txt),
 * so every build also checks that the portable path gives the same bits.
 * `determinism --levels` prints the hash of every level as well.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <shove/shove.h>

/* >>hash and numbers (dimension-free) */

typedef struct det_hash {
    uint64_t value;
} det_hash;

static det_hash det_hash_start(void) {
    det_hash h = {0xcbf29ce484222325ull}; /* FNV-1a 64-bit offset basis */
    return h;
}

static void det_hash_bytes(det_hash *h, const void *p, size_t n) {
    const unsigned char *b = p;
    for (size_t i = 0; i < n; ++i) {
        h->value ^= b[i];
        h->value *= 0x100000001b3ull; /* FNV prime */
    }
}

static void det_hash_int(det_hash *h, int v) {
    const int32_t x = (int32_t)v;
    det_hash_bytes(h, &x, sizeof x);
}

/* An id without its world tag (the high bits of the generation, see
 * src/world.h): the tag depends on how many worlds the process made before,
 * not on the scenario. */
static void det_hash_id(det_hash *h, shove_id id) {
    const uint32_t parts[2] = {id.index, id.generation & ((1u << 22) - 1u)};
    det_hash_bytes(h, parts, sizeof parts);
}

/* What a run went through (printed by --levels, so a scenario that stopped
 * doing anything would show). */
static struct det_stats { long calls, refused, contacts, events, grounded; } det_stats;

typedef struct det_rng {
    uint64_t state;
} det_rng;

static uint32_t det_next(det_rng *r) {
    /* splitmix64, upper half */
    uint64_t z = (r->state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return (uint32_t)((z ^ (z >> 31)) >> 32);
}

/** Uniform in [lo, hi) on a 2^-24 grid of the unit interval. */
static float det_float(det_rng *r, float lo, float hi) {
    return lo + (hi - lo) * ((float)(det_next(r) >> 8) * (1.0f / 16777216.0f));
}

/** Like det_float, snapped to quarters: exact touching faces and seams. */
static float det_grid(det_rng *r, float lo, float hi) {
    return floorf(det_float(r, lo, hi) * 4.0f) * 0.25f;
}

#define DET(name) SHOVE_IFN(SHOVE_CAT(det_, name))

#define SHOVE_DIM 2
#include "dim.h"
#include "test_dim_boxes.h"
#include "determinism.inc"
#include "dim_end.h"

#define SHOVE_DIM 3
#include "dim.h"
#include "test_dim_boxes.h"
#include "determinism.inc"
#include "dim_end.h"

int main(int argc, char **argv) {
    const bool show_levels = argc > 1 && strcmp(argv[1], "--levels") == 0;
    const shove_simd active = shove_simd_active();
    int status = 0;
    for (int dim = 2; dim <= 3; ++dim) {
        uint64_t first = 0;
        bool have = false;
        for (int level = 0; level < SHOVE_SIMD_LEVEL_COUNT; ++level) {
            if (shove_simd_select((shove_simd)level) != SHOVE_OK) {
                continue;
            }
            memset(&det_stats, 0, sizeof det_stats);
            const uint64_t hash = dim == 2 ? shove2__det_run() : shove3__det_run();
            if (show_levels) {
                printf("%dd %-7s %016llx  (%ld calls, %ld refused, %ld contacts, %ld events, "
                       "%ld grounded)\n",
                       dim, shove_simd_name((shove_simd)level), (unsigned long long)hash,
                       det_stats.calls, det_stats.refused, det_stats.contacts, det_stats.events,
                       det_stats.grounded);
            }
            if (have && hash != first) {
                fprintf(stderr, "%dd: %s gives %016llx, scalar %016llx\n", dim,
                        shove_simd_name((shove_simd)level), (unsigned long long)hash,
                        (unsigned long long)first);
                status = 1;
            }
            if (!have) {
                first = hash;
                have = true;
            }
        }
        printf("%dd %016llx\n", dim, (unsigned long long)first);
    }
    shove_simd_select(active);
    return status;
}
