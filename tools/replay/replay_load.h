/*
 * replay_load.h: reads a world dump (src/dump.inc describes the format)
 * back into a new world, through the public API only. Used by shove-replay
 * and by the dump tests (a dump of the loaded world is the same text).
 * Include after dim.h; guards itself per dimension. RL(name) names this
 * dimension's functions (shove3__replay_name).
 *
 * Bodies get the slots (id indices) they had: the loader creates them in
 * slot order, with placeholders for the gaps that it destroys at the end.
 * Voxel lines become a sorted table behind a voxel callback that the scene
 * owns; region lines say which cells that table covers (RL(covers)).
 * Pending motions are kept in the scene (motion[index]).
 */
#if (SHOVE_DIM == 2 && !defined(SHOVE_REPLAY_LOAD2_H)) ||                                          \
    (SHOVE_DIM == 3 && !defined(SHOVE_REPLAY_LOAD3_H))
#if SHOVE_DIM == 2
#define SHOVE_REPLAY_LOAD2_H
#else
#define SHOVE_REPLAY_LOAD3_H
#endif

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RL(name) SHOVE_IFN(SHOVE_CAT(replay_, name))

/* Largest body index a dump may use (the loader creates every slot below
 * it). */
#ifndef REPLAY_MAX_INDEX
#define REPLAY_MAX_INDEX (1L << 24)
#endif

#ifndef REPLAY_MAX_TOKENS
#define REPLAY_MAX_TOKENS (4 + 2 * 3 * SHOVE_VOXEL_MAX_BOXES + SHOVE_VOXEL_MAX_BOXES + 8)
#define REPLAY_LINE_MAX   4096
#endif

typedef struct RL(voxel) {
    int32_t c[SHOVE_DIM];
    int count;
    shove_aabb box[SHOVE_VOXEL_MAX_BOXES];
} RL(voxel);

typedef struct RL(scene) {
    shove_world *world;
    shove_world_def def;
    /* bodies by dump index (= id index) */
    uint32_t index_count; /* 1 + the largest index */
    shove_id *id;         /* null id where the dump has no body */
    shove_vec *motion;    /* pending motions of the dump */
    bool *has_motion;
    /* voxels */
    bool has_voxels;
    shove_voxel_def voxel_def;
    RL(voxel) * voxels; /* sorted by cell */
    size_t voxel_count;
    /* the cells the dump holds (region lines): [lo, hi] per axis */
    int32_t (*region)[2][SHOVE_DIM];
    size_t region_count;
} RL(scene);

static inline int RL(cell_cmp)(const void *pa, const void *pb) {
    const RL(voxel) *a = pa, *b = pb;
    for (int k = 0; k < SHOVE_DIM; ++k) {
        if (a->c[k] != b->c[k]) {
            return a->c[k] < b->c[k] ? -1 : 1;
        }
    }
    return 0;
}

static inline const RL(voxel) * RL(find_voxel)(const RL(scene) * s, const int32_t c[SHOVE_DIM]) {
    if (s->voxel_count == 0) {
        return NULL; /* bsearch wants a table, even an empty one */
    }
    RL(voxel) key;
    memcpy(key.c, c, sizeof key.c);
    return bsearch(&key, s->voxels, s->voxel_count, sizeof key, RL(cell_cmp));
}

#if SHOVE_DIM == 2
static inline int RL(shapes)(void *ctx, int32_t x, int32_t y,
                             shove_aabb out[SHOVE_VOXEL_MAX_BOXES]) {
    const int32_t c[2] = {x, y};
#else
static inline int RL(shapes)(void *ctx, int32_t x, int32_t y, int32_t z,
                             shove_aabb out[SHOVE_VOXEL_MAX_BOXES]) {
    const int32_t c[3] = {x, y, z};
#endif
    const RL(voxel) *v = RL(find_voxel)(ctx, c);
    if (!v) {
        return 0;
    }
    memcpy(out, v->box, (size_t)v->count * sizeof v->box[0]);
    return v->count;
}

/** True when the voxels around `box` (one voxel of margin) are all in the
 *  regions the dump holds, or when the world has no voxels: a move there
 *  sees the same terrain the game saw. */
static inline bool RL(covers)(const RL(scene) * s, shove_aabb box) {
    if (!s->has_voxels) {
        return true;
    }
    for (size_t r = 0; r < s->region_count; ++r) {
        bool inside = true;
        for (int a = 0; a < SHOVE_DIM && inside; ++a) {
            const double o = s->voxel_def.origin.raw[a], size = s->voxel_def.voxel_size;
            const double lo = o + size * ((double)s->region[r][0][a] + 1.0);
            const double hi = o + size * (double)s->region[r][1][a];
            inside = box.min.raw[a] >= lo && box.max.raw[a] <= hi;
        }
        if (inside) {
            return true;
        }
    }
    return false;
}

static inline void RL(free)(RL(scene) * s) {
    SHOVE_FN(world_destroy)(s->world);
    free(s->id);
    free(s->motion);
    free(s->has_motion);
    free(s->voxels);
    free(s->region);
    memset(s, 0, sizeof *s);
}

/* >>parsing */

typedef struct RL(line) {
    char *tok[REPLAY_MAX_TOKENS];
    int n;
    int at; /* next token */
    bool bad;
} RL(line);

static inline void RL(split)(char *text, RL(line) * l) {
    l->n = 0;
    l->at = 0;
    l->bad = false;
    for (char *p = strtok(text, " \t\r\n"); p; p = strtok(NULL, " \t\r\n")) {
        if (l->n == REPLAY_MAX_TOKENS) {
            l->bad = true;
            return;
        }
        l->tok[l->n++] = p;
    }
}

static const char *RL(word)(RL(line) * l) {
    if (l->at >= l->n) {
        l->bad = true;
        return "";
    }
    return l->tok[l->at++];
}

static inline void RL(expect)(RL(line) * l, const char *word) {
    if (strcmp(RL(word)(l), word) != 0) {
        l->bad = true;
    }
}

static inline float RL(float)(RL(line) * l) {
    const char *t = RL(word)(l);
    char *end;
    errno = 0;
    const float f = strtof(t, &end);
    if (end == t || *end != '\0') {
        l->bad = true;
    }
    return f;
}

static inline long long RL(int)(RL(line) * l) {
    const char *t = RL(word)(l);
    char *end;
    const long long v = strtoll(t, &end, 10);
    if (end == t || *end != '\0') {
        l->bad = true;
    }
    return v;
}

static inline uint64_t RL(hex)(RL(line) * l) {
    const char *t = RL(word)(l);
    char *end;
    const unsigned long long v = strtoull(t, &end, 16);
    if (end == t || *end != '\0') {
        l->bad = true;
    }
    return (uint64_t)v;
}

static inline shove_vec RL(vec)(RL(line) * l) {
    shove_vec v;
    for (int a = 0; a < SHOVE_DIM; ++a) {
        v.raw[a] = RL(float)(l);
    }
    return v;
}

static inline shove_aabb RL(box)(RL(line) * l) {
    shove_aabb b;
    b.min = RL(vec)(l);
    b.max = RL(vec)(l);
    return b;
}

static inline shove_response RL(response)(RL(line) * l) {
    static const char *names[5] = {"ignore", "slide", "touch", "cross", "bounce"};
    const char *t = RL(word)(l);
    for (int i = 0; i < 5; ++i) {
        if (strcmp(t, names[i]) == 0) {
            return (shove_response)i;
        }
    }
    l->bad = true;
    return SHOVE_RESPONSE_SLIDE;
}

typedef struct RL(body_line) {
    uint32_t index;
    shove_body_def def;
} RL(body_line);

static inline bool RL(grow)(void **p, size_t *cap, size_t need, size_t elem) {
    if (need <= *cap) {
        return true;
    }
    size_t n = *cap ? *cap * 2 : 64;
    while (n < need) {
        n *= 2;
    }
    void *q = realloc(*p, n * elem);
    if (!q) {
        return false;
    }
    *p = q;
    *cap = n;
    return true;
}

/** Read a dump of this dimension from `in` into a new world. On failure
 *  writes a message (with the line number) to `err` and returns false;
 *  the scene is then empty. */
static inline bool RL(load)(FILE *in, RL(scene) * s, char *err, size_t err_size) {
    memset(s, 0, sizeof *s);
    s->def = SHOVE_FN(default_world_def)();
    RL(body_line) *bodies = NULL;
    size_t body_count = 0, body_cap = 0;
    size_t voxel_cap = 0, region_cap = 0;
    struct {
        uint32_t index;
        shove_vec v;
    } *motions = NULL;
    size_t motion_count = 0, motion_cap = 0;
    char text[REPLAY_LINE_MAX];
    long number = 0;
    bool header = false, ended = false;
    const char *why = NULL;
    while (!why && !ended && fgets(text, sizeof text, in)) {
        ++number;
        if (!strchr(text, '\n') && !feof(in)) {
            why = "line too long";
            break;
        }
        RL(line) l;
        RL(split)(text, &l);
        if (l.n == 0 || l.tok[0][0] == '#') {
            continue;
        }
        const char *kind = RL(word)(&l);
        if (!header) {
            char dim[8];
            snprintf(dim, sizeof dim, "%dd", SHOVE_DIM);
            if (strcmp(kind, "shove") != 0 || strcmp(RL(word)(&l), dim) != 0) {
                why = "not a dump of this dimension (first line: shove Nd dump 1)";
                break;
            }
            RL(expect)(&l, "dump");
            if (RL(int)(&l) != 1) {
                why = "unknown dump version";
                break;
            }
            header = true;
        } else if (strcmp(kind, "bounds") == 0) {
            s->def.bounds = RL(box)(&l);
        } else if (strcmp(kind, "step") == 0) {
            shove_move_def *d = &s->def.step_def;
            RL(expect)(&l, "skin");
            d->skin = RL(float)(&l);
            RL(expect)(&l, "iterations");
            d->max_iterations = (int)RL(int)(&l);
            RL(expect)(&l, "up");
            d->up_axis = (int)RL(int)(&l);
            RL(expect)(&l, "step_height");
            d->step_height = RL(float)(&l);
            RL(expect)(&l, "edge_guard");
            d->edge_guard = RL(int)(&l) != 0;
            RL(expect)(&l, "response");
            d->response = RL(response)(&l);
        } else if (strcmp(kind, "voxels") == 0) {
            if (l.at < l.n && strcmp(l.tok[l.at], "none") == 0) {
                s->has_voxels = false;
                ++l.at;
            } else {
                s->has_voxels = true;
                s->voxel_def = SHOVE_FN(default_voxel_def)();
                RL(expect)(&l, "size");
                s->voxel_def.voxel_size = RL(float)(&l);
                RL(expect)(&l, "origin");
                s->voxel_def.origin = RL(vec)(&l);
                RL(expect)(&l, "bounds");
                s->voxel_def.shape_bounds = RL(box)(&l);
            }
        } else if (strcmp(kind, "body") == 0) {
            if (!RL(grow)((void **)&bodies, &body_cap, body_count + 1, sizeof *bodies)) {
                why = "out of memory";
                break;
            }
            RL(body_line) *b = &bodies[body_count];
            const long long index = RL(int)(&l);
            b->def = SHOVE_FN(default_body_def)();
            const char *type = RL(word)(&l);
            b->def.type = strcmp(type, "dynamic") == 0 ? SHOVE_BODY_DYNAMIC : SHOVE_BODY_STATIC;
            l.bad = l.bad || (strcmp(type, "dynamic") != 0 && strcmp(type, "static") != 0);
            RL(expect)(&l, "priority");
            const long long prio = RL(int)(&l);
            RL(expect)(&l, "category");
            b->def.category = RL(hex)(&l);
            RL(expect)(&l, "mask");
            b->def.mask = RL(hex)(&l);
            RL(expect)(&l, "sensor");
            b->def.sensor = RL(int)(&l) != 0;
            RL(expect)(&l, "box");
            b->def.box = RL(box)(&l);
            if (index < 0 || index >= (long long)REPLAY_MAX_INDEX || prio < 0 || prio > 255 ||
                (body_count > 0 && (uint32_t)index <= bodies[body_count - 1].index)) {
                why = "bad body index or priority (indices must grow)";
                break;
            }
            b->index = (uint32_t)index;
            b->def.priority = (uint8_t)prio;
            ++body_count;
        } else if (strcmp(kind, "motion") == 0) {
            if (!RL(grow)((void **)&motions, &motion_cap, motion_count + 1, sizeof *motions)) {
                why = "out of memory";
                break;
            }
            const long long index = RL(int)(&l);
            motions[motion_count].index = (uint32_t)(index < 0 ? 0 : index);
            motions[motion_count].v = RL(vec)(&l);
            l.bad = l.bad || index < 0;
            ++motion_count;
        } else if (strcmp(kind, "region") == 0) {
            if (!RL(grow)((void **)&s->region, &region_cap, s->region_count + 1,
                          sizeof *s->region)) {
                why = "out of memory";
                break;
            }
            (void)RL(int)(&l); /* the body it is around */
            for (int k = 0; k < 2; ++k) {
                for (int a = 0; a < SHOVE_DIM; ++a) {
                    const long long c = RL(int)(&l);
                    l.bad = l.bad || c < INT32_MIN || c > INT32_MAX;
                    s->region[s->region_count][k][a] = (int32_t)c;
                }
            }
            ++s->region_count;
        } else if (strcmp(kind, "voxel") == 0) {
            if (!RL(grow)((void **)&s->voxels, &voxel_cap, s->voxel_count + 1, sizeof *s->voxels)) {
                why = "out of memory";
                break;
            }
            RL(voxel) *v = &s->voxels[s->voxel_count];
            for (int a = 0; a < SHOVE_DIM; ++a) {
                const long long c = RL(int)(&l);
                l.bad = l.bad || c < INT32_MIN || c > INT32_MAX;
                v->c[a] = (int32_t)c;
            }
            v->count = 0;
            while (!l.bad && l.at < l.n && v->count < SHOVE_VOXEL_MAX_BOXES) {
                RL(expect)(&l, "box");
                v->box[v->count++] = RL(box)(&l);
            }
            ++s->voxel_count;
        } else if (strcmp(kind, "end") == 0) {
            ended = true;
        } else {
            why = "unknown record";
        }
        if (!why && (l.bad || l.at != l.n)) {
            why = "malformed record";
        }
    }
    if (!why && !header) {
        why = "empty input";
    } else if (!why && !ended) {
        why = "no end record (a cut-off dump?)";
    }
    /* Build the world. */
    if (!why && SHOVE_FN(world_create)(&s->def, &s->world) != SHOVE_OK) {
        why = "the world settings are not valid";
    }
    if (!why && s->voxel_count > 0) {
        qsort(s->voxels, s->voxel_count, sizeof *s->voxels, RL(cell_cmp));
    }
    if (!why && s->has_voxels) {
        s->voxel_def.shapes = RL(shapes);
        s->voxel_def.ctx = s;
        if (SHOVE_FN(world_set_voxels)(s->world, &s->voxel_def) != SHOVE_OK) {
            why = "the voxel settings are not valid";
        }
    }
    if (!why) {
        s->index_count = body_count ? bodies[body_count - 1].index + 1u : 0u;
        const size_t n = s->index_count ? s->index_count : 1u;
        s->id = calloc(n, sizeof *s->id);
        s->motion = calloc(n, sizeof *s->motion);
        s->has_motion = calloc(n, sizeof *s->has_motion);
        if (!s->id || !s->motion || !s->has_motion) {
            why = "out of memory";
        }
    }
    /* Slots are handed out in order in a new world: placeholders fill the
     * gaps so that every body gets its own index back. */
    shove_body_def placeholder = SHOVE_FN(default_body_def)();
    placeholder.mask = 0;
    placeholder.category = 0;
    size_t next = 0;
    for (uint32_t index = 0; !why && index < s->index_count; ++index) {
        const bool real = next < body_count && bodies[next].index == index;
        shove_id id;
        if (SHOVE_FN(body_create)(s->world, real ? &bodies[next].def : &placeholder, &id) !=
            SHOVE_OK) {
            why = "a body was refused (its box is not valid)";
        } else if (id.index != index) {
            why = "slots did not come out in order";
        } else {
            s->id[index] = id;
            s->has_motion[index] = !real; /* marks placeholders until the loop below */
            next += real ? 1u : 0u;
        }
    }
    for (uint32_t index = 0; !why && index < s->index_count; ++index) {
        if (s->has_motion[index]) {
            SHOVE_FN(body_destroy)(s->world, s->id[index]);
            s->id[index] = SHOVE_NULL_ID;
            s->has_motion[index] = false;
        }
    }
    for (size_t k = 0; !why && k < motion_count; ++k) {
        const uint32_t index = motions[k].index;
        if (index >= s->index_count || shove_id_is_null(s->id[index])) {
            why = "a motion names no body";
        } else {
            s->motion[index] = motions[k].v;
            s->has_motion[index] = true;
        }
    }
    free(bodies);
    free(motions);
    if (why) {
        snprintf(err, err_size, "line %ld: %s", number, why);
        RL(free)(s);
        return false;
    }
    return true;
}

#endif
