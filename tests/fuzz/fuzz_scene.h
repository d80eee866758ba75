/*
 * fuzz_scene.h: decoding a scene (obstacles, a mover, a motion, a move def)
 * from fuzzer bytes. Shared by the slide, resolve and world harnesses.
 * Include after fuzz_dim.h; guards itself per dimension.
 *
 * Obstacles are built by a few operations rather than only as free boxes,
 * so that the decoded scenes are full of what breaks collide-and-slide:
 * exact seams (a box placed face to face with another), rows of tiles
 * (floors and walls of many boxes; long rows also exceed the 128-obstacle
 * chunk of shove3_slide's streaming path), and overlapping copies. Movers
 * are often placed exactly on or beside an obstacle.
 */
#if (SHOVE_DIM == 2 && !defined(SHOVE_FUZZ_SCENE2_H)) ||                                           \
    (SHOVE_DIM == 3 && !defined(SHOVE_FUZZ_SCENE3_H))
#if SHOVE_DIM == 2
#define SHOVE_FUZZ_SCENE2_H
#else
#define SHOVE_FUZZ_SCENE3_H
#endif

#ifndef FUZZ_MAX_OBSTACLES
#define FUZZ_MAX_OBSTACLES 256
#endif

/** Appends obstacles to `obs` (which holds `*n`, room for `cap`). */
static inline void FZ(decode_obstacles)(fuzz_reader *r, shove_aabb *obs, size_t *n, size_t cap) {
    const int ops = fuzz_below(r, 24);
    for (int op = 0; op < ops && *n < cap; ++op) {
        const uint8_t kind = fuzz_u8(r) & 7u;
        if (*n == 0 || kind < 4) {
            obs[(*n)++] = FZ(box)(r);
            continue;
        }
        const shove_aabb base = obs[fuzz_u8(r) % *n];
        const int axis = fuzz_below(r, SHOVE_DIM);
        if (kind < 6) {
            /* Face to face with `base` along `axis`: an exact seam. */
            shove_aabb b = base;
            const float size =
                fuzz_bool(r) ? base.max.raw[axis] - base.min.raw[axis] : fuzz_size(r);
            if (fuzz_bool(r)) {
                b.min.raw[axis] = base.max.raw[axis];
                b.max.raw[axis] = base.max.raw[axis] + size;
            } else {
                b.max.raw[axis] = base.min.raw[axis];
                b.min.raw[axis] = base.min.raw[axis] - size;
            }
            if (SHOVE_FN(aabb_is_valid)(b)) {
                obs[(*n)++] = b;
            }
        } else if (kind == 6) {
            /* A row of equal tiles starting at `base`'s min corner. */
            static const float tile_sizes[4] = {0.25f, 0.5f, 1.0f, 2.0f}; /* exact in binary */
            const float u = tile_sizes[fuzz_u8(r) & 3u];
            const int count = 1 + (int)(fuzz_u8(r) % 160u);
            shove_aabb tile;
            for (int i = 0; i < SHOVE_DIM; ++i) {
                tile.min.raw[i] = base.min.raw[i];
                tile.max.raw[i] = base.min.raw[i] + u;
            }
            for (int k = 0; k < count && *n < cap; ++k) {
                shove_aabb t = tile;
                t.min.raw[axis] += (float)k * u;
                t.max.raw[axis] += (float)k * u;
                obs[(*n)++] = t;
            }
        } else {
            /* An overlapping copy, shifted. */
            const shove_aabb b = FZ(box_plus)(base, FZ(vec)(r));
            if (SHOVE_FN(aabb_is_valid)(b)) {
                obs[(*n)++] = b;
            }
        }
    }
}

/** A mover: free, resting on an obstacle, or face to face beside one. */
static inline shove_aabb FZ(decode_mover)(fuzz_reader *r, const shove_aabb *obs, size_t n) {
    shove_aabb m = FZ(box)(r);
    const uint8_t kind = fuzz_u8(r) & 3u;
    if (n == 0 || kind < 2) {
        return m;
    }
    const shove_aabb o = obs[fuzz_u8(r) % n];
    const int axis = kind == 2 ? (SHOVE_DIM > 1 ? 1 : 0) : fuzz_below(r, SHOVE_DIM);
    const float gap = fuzz_bool(r) ? 0.0f : fuzz_size(r) * (1.0f / 64.0f);
    const float size = m.max.raw[axis] - m.min.raw[axis];
    if (fuzz_bool(r)) {
        m.min.raw[axis] = o.max.raw[axis] + gap;
        m.max.raw[axis] = m.min.raw[axis] + size;
    } else {
        m.max.raw[axis] = o.min.raw[axis] - gap;
        m.min.raw[axis] = m.max.raw[axis] - size;
    }
    /* Put the other axes over the obstacle so the mover really rests on it. */
    for (int i = 0; i < SHOVE_DIM; ++i) {
        if (i != axis && fuzz_bool(r)) {
            const float w = m.max.raw[i] - m.min.raw[i];
            m.min.raw[i] = o.min.raw[i];
            m.max.raw[i] = o.min.raw[i] + w;
        }
    }
    return SHOVE_FN(aabb_is_valid)(m) ? m : FZ(box)(r);
}

/** A motion: any vector, a fast one (tunnelling), or along one axis. */
static inline shove_vec FZ(decode_motion)(fuzz_reader *r) {
    shove_vec d = FZ(vec)(r);
    switch (fuzz_u8(r) & 3u) {
    case 0: {
        const float scale = fuzz_bool(r) ? 1000.0f : 64.0f;
        for (int i = 0; i < SHOVE_DIM; ++i) {
            d.raw[i] *= scale;
        }
        break;
    }
    case 1: {
        const int keep = fuzz_below(r, SHOVE_DIM);
        for (int i = 0; i < SHOVE_DIM; ++i) {
            if (i != keep) {
                d.raw[i] = 0.0f;
            }
        }
        break;
    }
    default:
        break;
    }
    return d;
}

/** Per-obstacle responses for a filter. */
typedef struct FZ(filter_table) {
    uint8_t response[FUZZ_MAX_OBSTACLES];
    size_t count;
    bool reversed; /**< the list was reversed: index i is obstacle count-1-i */
    unsigned calls;
} FZ(filter_table);

static inline shove_response FZ(filter)(void *ctx, shove_id mover, const shove_obstacle *obstacle) {
    (void)mover;
    const shove_id other = obstacle->other;
    const int32_t index = obstacle->index;
    FZ(filter_table) *t = ctx;
    (void)other;
    ++t->calls;
    FUZZ_CHECK(index >= 0 && (size_t)index < t->count, "filter index %d of %zu", (int)index,
               t->count);
    const size_t i = t->reversed ? t->count - 1u - (size_t)index : (size_t)index;
    return (shove_response)t->response[i];
}

/** A valid move def (contacts not set). Fills `table` when it uses a filter. */
static inline shove_move_def FZ(decode_def)(fuzz_reader *r, FZ(filter_table) * table, size_t n) {
    shove_move_def def = SHOVE_FN(default_move_def)();
    const uint8_t bits = fuzz_u8(r);
    if (bits & 1u) {
        static const float skins[4] = {0.0f, 1.0f / 1024.0f, 1.0f / 64.0f, 0.25f};
        def.skin = skins[fuzz_u8(r) & 3u];
        if (fuzz_u8(r) == 255u) {
            def.skin = fuzz_size(r);
        }
    }
    if (bits & 2u) {
        def.max_iterations = 1 + fuzz_below(r, 64);
    }
    if (bits & 4u) {
        def.up_axis = fuzz_below(r, SHOVE_DIM + 1) - 1;
    }
    if (bits & 8u) {
        static const float steps[4] = {0.0f, 0.5f, 0.6f, 1.0f};
        def.step_height = steps[fuzz_u8(r) & 3u];
        if (def.up_axis < 0) {
            def.step_height = 0.0f; /* no step without an up axis (refused) */
        }
    }
    def.edge_guard = (bits & 16u) != 0u;
    if (bits & 32u) {
        def.response = (shove_response)fuzz_below(r, 5);
    }
    table->count = n;
    table->reversed = false;
    table->calls = 0;
    if (bits & 64u) {
        for (size_t i = 0; i < n; ++i) {
            /* mostly solid, so the filter does not hide the whole scene */
            const uint8_t b = fuzz_u8(r);
            table->response[i] = (uint8_t)(b < 160u ? SHOVE_RESPONSE_SLIDE : b % 5u);
        }
        def.filter = FZ(filter);
        def.filter_ctx = table;
    }
    return def;
}

static inline bool FZ(response_is_solid)(shove_response r) {
    return r == SHOVE_RESPONSE_SLIDE || r == SHOVE_RESPONSE_TOUCH || r == SHOVE_RESPONSE_BOUNCE;
}

/** The response `def` gives obstacle i (filter first). */
static inline shove_response FZ(response_of)(const shove_move_def *def,
                                             const FZ(filter_table) * table, size_t i) {
    if (def->filter) {
        return (shove_response)table->response[i];
    }
    return def->response;
}

#endif
