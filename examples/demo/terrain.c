/*
 * terrain.c: the demo's block world: a voxel map of hills with slab
 * terraces, a walled keep, a fenced pen and a staircase up to a tower; its
 * voxel callback (several boxes per voxel: slabs, stairs, fences with
 * rails, walls 1.5 tall); and a check that a box overlaps no voxel shape.
 */
#include <math.h>

#include "demo.h"

world_map map;
int flat_level;

static inline void vset(int x, int y, int z, int kind) {
    if (x >= 0 && y >= 0 && z >= 0 && x < SX && y < SY && z < SZ) {
        map.v[((size_t)z * SY + (size_t)y) * SX + (size_t)x] = (uint8_t)kind;
    }
}

/* The voxel callback: the shapes of one voxel in voxel-local units. */
int shapes(void *ctx, int32_t x, int32_t y, int32_t z, shove3_aabb out[SHOVE_VOXEL_MAX_BOXES]) {
    world_map *m = ctx;
    m->reads += 1;
    switch (vget(x, y, z)) {
    case V_DIRT:
    case V_STONE:
        out[0] = lbox(0, 0, 0, 1, 1, 1);
        return 1;
    case V_SLAB:
        out[0] = lbox(0, 0, 0, 1, 0.5f, 1);
        return 1;
    case V_STAIR:
        out[0] = lbox(0, 0, 0, 1, 0.5f, 1);
        out[1] = lbox(0.5f, 0.5f, 0, 1, 1, 1);
        return 2;
    case V_WALL:
        out[0] = lbox(0, 0, 0, 1, 1.5f, 1);
        return 1;
    case V_FENCE: {
        int n = 0;
        out[n++] = lbox(0.375f, 0, 0.375f, 0.625f, 1.5f, 0.625f);
        if (vget(x - 1, y, z) == V_FENCE) {
            out[n++] = lbox(0, 0.375f, 0.4375f, 0.375f, 1.5f, 0.5625f);
        }
        if (vget(x + 1, y, z) == V_FENCE) {
            out[n++] = lbox(0.625f, 0.375f, 0.4375f, 1, 1.5f, 0.5625f);
        }
        if (vget(x, y, z - 1) == V_FENCE) {
            out[n++] = lbox(0.4375f, 0.375f, 0, 0.5625f, 1.5f, 0.375f);
        }
        if (vget(x, y, z + 1) == V_FENCE) {
            out[n++] = lbox(0.4375f, 0.375f, 0.625f, 0.5625f, 1.5f, 1);
        }
        return n;
    }
    default:
        return 0;
    }
}

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

uint32_t rnd(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state >> 32);
}

float frand(float lo, float hi) {
    return lo + (hi - lo) * (float)(rnd() >> 8) * (1.0f / 16777216.0f);
}

float lattice(int x, int z, uint32_t seed) {
    uint32_t h = (uint32_t)x * 374761393u + (uint32_t)z * 668265263u + seed * 2246822519u;
    h = (h ^ (h >> 13)) * 1274126177u;
    return (float)((h ^ (h >> 16)) & 0xFFFF) / 65535.0f;
}

static float value_noise(float x, float z, float scale, uint32_t seed) {
    const float fx = x / scale, fz = z / scale;
    const int ix = (int)floorf(fx), iz = (int)floorf(fz);
    float tx = fx - (float)ix, tz = fz - (float)iz;
    tx = tx * tx * (3.0f - 2.0f * tx);
    tz = tz * tz * (3.0f - 2.0f * tz);
    const float a = lattice(ix, iz, seed), b = lattice(ix + 1, iz, seed);
    const float c = lattice(ix, iz + 1, seed), d = lattice(ix + 1, iz + 1, seed);
    return (a + (b - a) * tx) * (1.0f - tz) + (c + (d - c) * tx) * tz;
}

static void flatten(int x0, int z0, int w, int d, int h) {
    for (int z = z0; z < z0 + d; ++z) {
        for (int x = x0; x < x0 + w; ++x) {
            if (x >= 0 && z >= 0 && x < SX && z < SZ) {
                map.height[z * SX + x] = (uint8_t)h;
            }
        }
    }
}

int tower_x0(void) {
    return STAIR_X + STAIR_N;
}

void generate(void) {
    /* Hills. */
    for (int z = 0; z < SZ; ++z) {
        for (int x = 0; x < SX; ++x) {
            const float h = 3.0f + 9.0f * value_noise((float)x, (float)z, 40.0f, 1) +
                            4.0f * value_noise((float)x, (float)z, 17.0f, 2) +
                            1.5f * value_noise((float)x, (float)z, 7.0f, 3);
            map.height[z * SX + x] = (uint8_t)h;
        }
    }
    flat_level = 6;
    flatten(KEEP_X - 2, KEEP_Z - 2, KEEP_W + 4, KEEP_W + 4, flat_level);
    flatten(PEN_X - 2, PEN_Z - 2, PEN_W + 4, PEN_W + 4, flat_level);
    flatten(STAIR_X - 6, STAIR_Z - 4, STAIR_N + TOWER_W + 12, TOWER_W + 8, flat_level);
    flatten(YARD_X - 2, YARD_Z - 2, YARD_W + 4, YARD_W + 4, flat_level);
    for (int z = 0; z < SZ; ++z) {
        for (int x = 0; x < SX; ++x) {
            for (int y = 0; y < map.height[z * SX + x]; ++y) {
                vset(x, y, z, V_DIRT);
            }
        }
    }
    /* Slab terraces: most one-block rises get a half step in front. */
    for (int z = 0; z < SZ; ++z) {
        for (int x = 0; x < SX; ++x) {
            const int h = map.height[z * SX + x];
            const int nx[4] = {x - 1, x + 1, x, x};
            const int nz[4] = {z, z, z - 1, z + 1};
            bool rise = false;
            for (int k = 0; k < 4; ++k) {
                if (nx[k] >= 0 && nz[k] >= 0 && nx[k] < SX && nz[k] < SZ &&
                    map.height[nz[k] * SX + nx[k]] == h + 1) {
                    rise = true;
                }
            }
            if (rise && (rnd() % 100) < 85) {
                vset(x, h, z, V_SLAB);
            }
        }
    }
    /* The keep: a wall 1.5 tall round a square, two gates. */
    for (int i = 0; i < KEEP_W; ++i) {
        const int gate = (i >= KEEP_W / 2 - 1 && i <= KEEP_W / 2);
        vset(KEEP_X + i, flat_level, KEEP_Z, V_WALL);
        vset(KEEP_X + i, flat_level, KEEP_Z + KEEP_W - 1, gate ? V_AIR : V_WALL);
        vset(KEEP_X, flat_level, KEEP_Z + i, V_WALL);
        vset(KEEP_X + KEEP_W - 1, flat_level, KEEP_Z + i, gate ? V_AIR : V_WALL);
    }
    /* The pen: fences with rails, no gate. */
    for (int i = 0; i < PEN_W; ++i) {
        vset(PEN_X + i, flat_level, PEN_Z, V_FENCE);
        vset(PEN_X + i, flat_level, PEN_Z + PEN_W - 1, V_FENCE);
        vset(PEN_X, flat_level, PEN_Z + i, V_FENCE);
        vset(PEN_X + PEN_W - 1, flat_level, PEN_Z + i, V_FENCE);
    }
    /* The staircase: stair blocks rising one voxel per voxel toward +x,
     * STAIR_WIDE wide, up to a stone tower. */
    for (int i = 0; i < STAIR_N; ++i) {
        for (int w = 0; w < STAIR_WIDE; ++w) {
            const int z = STAIR_Z + 1 + w;
            for (int y = flat_level; y < flat_level + i; ++y) {
                vset(STAIR_X + i, y, z, V_STONE);
            }
            vset(STAIR_X + i, flat_level + i, z, V_STAIR);
        }
    }
    for (int x = tower_x0(); x < tower_x0() + TOWER_W; ++x) {
        for (int z = STAIR_Z; z < STAIR_Z + TOWER_W; ++z) {
            for (int y = flat_level; y < flat_level + STAIR_N; ++y) {
                vset(x, y, z, V_STONE);
            }
        }
    }
    /* Heights again, for drawing: the first air above each column. */
    for (int z = 0; z < SZ; ++z) {
        for (int x = 0; x < SX; ++x) {
            int h = SY;
            while (h > 0 && vget(x, h - 1, z) == V_AIR) {
                --h;
            }
            map.height[z * SX + x] = (uint8_t)h;
        }
    }
}

/* True when `b` overlaps a voxel shape: the demo's own check, cell by cell. */
bool inside_terrain(shove3_aabb b) {
    for (int z = (int)floorf(b.min.z) - 1; z <= (int)floorf(b.max.z) + 1; ++z) {
        for (int y = (int)floorf(b.min.y) - 2; y <= (int)floorf(b.max.y) + 1; ++y) {
            for (int x = (int)floorf(b.min.x) - 1; x <= (int)floorf(b.max.x) + 1; ++x) {
                shove3_aabb s[SHOVE_VOXEL_MAX_BOXES];
                const long keep = map.reads;
                const int n = shapes(&map, x, y, z, s);
                map.reads = keep;
                for (int i = 0; i < n; ++i) {
                    const shove3_aabb wb =
                        lbox((float)x + s[i].min.x, (float)y + s[i].min.y, (float)z + s[i].min.z,
                             (float)x + s[i].max.x, (float)y + s[i].max.y, (float)z + s[i].max.z);
                    if (shove3_aabb_overlaps(b, wb)) {
                        return true;
                    }
                }
            }
        }
    }
    return false;
}
