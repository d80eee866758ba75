/*
 * load.c: shove3_world_load, the inverse of shove3_world_dump: the text
 * of a dump in, a new world out. dump.c describes the format. Template:
 * see dim.h.
 *
 * The reader is strict, because a dump that reads back differently from
 * what the game had would replay something else:
 *
 *   - the first record is the header ("shove 3d dump 1", "2d" in 2D), then
 *     `bounds`, `workers` and `quiet_moves` (both optional), `step` and
 *     `voxels`, once each and in
 *     that order; the world is created when the `voxels` record has been
 *     read;
 *   - `step`, `voxels`, `body` and `movedef` records (after the index) are
 *     a keyword and its value(s),
 *     each keyword at most once and in any order; a keyword left out keeps
 *     the value of the default def (the body's `box` must be there);
 *   - body indices grow from line to line and stay below `max_index`
 *     (SHOVE_LOAD_MAX_INDEX for shove3_world_load): every slot below the
 *     largest index is created, so the index bounds the memory a few bytes
 *     of text can ask for;
 *   - a `movedef`, `motion` or `region` names a body given before it (a
 *     movedef comes before the body's motion, whose range it sets); regions need
 *     voxels and have lo <= hi on every axis; a `voxel` line has 1 to
 *     SHOVE_VOXEL_MAX_BOXES valid boxes inside the shape bounds, and no
 *     cell comes twice;
 *   - every float is finite, every integer in its range, every word known;
 *     lines are at most LOAD_LINE_MAX bytes; reading stops after `end`, and
 *     a text without it is refused (a cut-off dump).
 *
 * Bodies keep their index: the reader creates them in slot order in the
 * new world, with placeholder bodies in the gaps, which it destroys at the
 * end (so ids differ from the game's only in their generation). Voxel lines
 * become a table sorted by cell (loaded_voxels.c), owned by the world
 * (freed by world_destroy) and read by the world's voxel callback: a cell
 * without a line is empty. Region lines are checked and dropped: dumping
 * the loaded world derives them again from the bodies. Nothing is kept on
 * error: the half-built world is destroyed and *out is untouched.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "world/world.h"

/* The longest line a dump writes is a voxel line with SHOVE_VOXEL_MAX_BOXES
 * boxes: under 1 KiB with 16 characters per number. */
#define LOAD_LINE_MAX 4096
/* Words on one line: a voxel line has 1 + DIM + 8 * (1 + 2 * DIM). */
#define LOAD_MAX_WORDS 64

/* >>reading words ----------------------------------------------------------- */

typedef struct SHOVE_T(load_line) {
    char *word[LOAD_MAX_WORDS];
    int count;
    int at;   /* next word */
    bool bad; /* a word was missing or malformed */
} SHOVE_T(load_line);

/* Split `text` at blanks. False when it has too many words. */
static bool SHOVE_IFN(load_split)(char *text, SHOVE_T(load_line) * l) {
    l->count = 0;
    l->at = 0;
    l->bad = false;
    char *p = text;
    for (;;) {
        while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n') {
            ++p;
        }
        if (*p == '\0') {
            return true;
        }
        if (l->count == LOAD_MAX_WORDS) {
            return false;
        }
        l->word[l->count++] = p;
        while (*p != '\0' && *p != ' ' && *p != '\t' && *p != '\r' && *p != '\n') {
            ++p;
        }
        if (*p != '\0') {
            *p++ = '\0';
        }
    }
}

static const char *SHOVE_IFN(load_word)(SHOVE_T(load_line) * l) {
    if (l->at >= l->count) {
        l->bad = true;
        return "";
    }
    return l->word[l->at++];
}

static bool SHOVE_IFN(load_more)(const SHOVE_T(load_line) * l) {
    return !l->bad && l->at < l->count;
}

static float SHOVE_IFN(load_float)(SHOVE_T(load_line) * l) {
    const char *t = SHOVE_IFN(load_word)(l);
    char *end;
    const float f = strtof(t, &end);
    if (end == t || *end != '\0' || !isfinite(f)) {
        l->bad = true;
        return 0.0f;
    }
    return f;
}

/* A decimal integer in [lo, hi]. */
static long long SHOVE_IFN(load_int)(SHOVE_T(load_line) * l, long long lo, long long hi) {
    const char *t = SHOVE_IFN(load_word)(l);
    char *end;
    errno = 0;
    const long long v = strtoll(t, &end, 10);
    if (end == t || *end != '\0' || errno == ERANGE || v < lo || v > hi) {
        l->bad = true;
        return lo;
    }
    return v;
}

/* A mask as the dump writes it: 0x and 1 to 16 hex digits. */
static uint64_t SHOVE_IFN(load_hex)(SHOVE_T(load_line) * l) {
    const char *t = SHOVE_IFN(load_word)(l);
    const size_t n = strlen(t);
    if (n < 3 || n > 18 || t[0] != '0' || (t[1] != 'x' && t[1] != 'X')) {
        l->bad = true;
        return 0u;
    }
    uint64_t v = 0u;
    for (size_t i = 2; i < n; ++i) {
        const char c = t[i];
        const int d = (c >= '0' && c <= '9')   ? c - '0'
                      : (c >= 'a' && c <= 'f') ? c - 'a' + 10
                      : (c >= 'A' && c <= 'F') ? c - 'A' + 10
                                               : -1;
        if (d < 0) {
            l->bad = true;
            return 0u;
        }
        v = (v << 4) | (uint64_t)d;
    }
    return v;
}

static bool SHOVE_IFN(load_flag)(SHOVE_T(load_line) * l) {
    return SHOVE_IFN(load_int)(l, 0, 1) != 0;
}

static shove_vec SHOVE_IFN(load_vec)(SHOVE_T(load_line) * l) {
    shove_vec v;
    for (int a = 0; a < SHOVE_DIM; ++a) {
        v.raw[a] = SHOVE_IFN(load_float)(l);
    }
    return v;
}

/* A box: finite, min <= max. */
static shove_aabb SHOVE_IFN(load_box)(SHOVE_T(load_line) * l) {
    shove_aabb b;
    b.min = SHOVE_IFN(load_vec)(l);
    b.max = SHOVE_IFN(load_vec)(l);
    if (!l->bad && !SHOVE_FN(aabb_is_valid)(b)) {
        l->bad = true;
    }
    return b;
}

static int32_t SHOVE_IFN(load_cell)(SHOVE_T(load_line) * l) {
    return (int32_t)SHOVE_IFN(load_int)(l, INT32_MIN, INT32_MAX);
}

static shove_response SHOVE_IFN(load_response)(SHOVE_T(load_line) * l) {
    static const char *const names[] = {"ignore", "slide", "touch", "cross", "bounce"};
    const char *t = SHOVE_IFN(load_word)(l);
    for (int i = 0; i < (int)(sizeof names / sizeof names[0]); ++i) {
        if (strcmp(t, names[i]) == 0) {
            return (shove_response)i;
        }
    }
    l->bad = true;
    return SHOVE_RESPONSE_SLIDE;
}

/* The next keyword of a keyword-value record, or NULL at the end of the
 * line. `seen` has one bit per keyword of `keys`: a keyword that comes
 * twice, or one not in `keys`, makes the line bad. */
static int SHOVE_IFN(load_key)(SHOVE_T(load_line) * l, const char *const *keys, int key_count,
                               uint32_t *seen) {
    if (!SHOVE_IFN(load_more)(l)) {
        return -1;
    }
    const char *t = SHOVE_IFN(load_word)(l);
    for (int k = 0; k < key_count; ++k) {
        if (strcmp(t, keys[k]) == 0) {
            if (*seen & (1u << k)) {
                break;
            }
            *seen |= 1u << k;
            return k;
        }
    }
    l->bad = true;
    return -1;
}

/* >>records ----------------------------------------------------------------- */

/* step skin S iterations N up A step_height H edge_guard G edge_footing F
 * response R (a keyword left out keeps the default: dumps written before
 * edge_footing existed load with its default) */
static void SHOVE_IFN(load_step)(SHOVE_T(load_line) * l, shove_move_def *d) {
    static const char *const keys[] = {"skin",       "iterations",   "up",      "step_height",
                                       "edge_guard", "edge_footing", "response"};
    uint32_t seen = 0u;
    for (int k; (k = SHOVE_IFN(load_key)(l, keys, 7, &seen)) >= 0;) {
        switch (k) {
        case 0:
            d->skin = SHOVE_IFN(load_float)(l);
            break;
        case 1:
            d->max_iterations = (int)SHOVE_IFN(load_int)(l, INT_MIN, INT_MAX);
            break;
        case 2:
            d->up_axis = (int)SHOVE_IFN(load_int)(l, INT_MIN, INT_MAX);
            break;
        case 3:
            d->step_height = SHOVE_IFN(load_float)(l);
            break;
        case 4:
            d->edge_guard = SHOVE_IFN(load_flag)(l);
            break;
        case 5:
            d->edge_footing = SHOVE_IFN(load_float)(l);
            break;
        default:
            d->response = SHOVE_IFN(load_response)(l);
            break;
        }
    }
}

/* voxels none | voxels size S origin X Y Z bounds X0 Y0 Z0 X1 Y1 Z1
 * solid X0 Y0 Z0 X1 Y1 Z1 max_cells N */
static void SHOVE_IFN(load_voxels)(SHOVE_T(load_line) * l, shove_voxel_def *d, bool *has) {
    static const char *const keys[] = {"size", "origin", "bounds", "solid", "max_cells"};
    *d = SHOVE_FN(default_voxel_def)();
    if (l->at + 1 == l->count && strcmp(l->word[l->at], "none") == 0) {
        ++l->at;
        *has = false;
        return;
    }
    *has = true;
    uint32_t seen = 0u;
    for (int k; (k = SHOVE_IFN(load_key)(l, keys, 5, &seen)) >= 0;) {
        switch (k) {
        case 0:
            d->voxel_size = SHOVE_IFN(load_float)(l);
            break;
        case 1:
            d->origin = SHOVE_IFN(load_vec)(l);
            break;
        case 2:
            d->shape_bounds = SHOVE_IFN(load_box)(l);
            break;
        case 3: /* solid_min > solid_max: world_set_voxels refuses it */
            for (int a = 0; a < SHOVE_DIM; ++a) {
                d->solid_min[a] = SHOVE_IFN(load_cell)(l);
            }
            for (int a = 0; a < SHOVE_DIM; ++a) {
                d->solid_max[a] = SHOVE_IFN(load_cell)(l);
            }
            break;
        default:
            d->max_cells = (uint32_t)SHOVE_IFN(load_int)(l, 0, UINT32_MAX);
            break;
        }
    }
}

/* body I static|dynamic priority P category 0xC mask 0xM sensor S box ... */
static void SHOVE_IFN(load_body)(SHOVE_T(load_line) * l, shove_body_def *d) {
    static const char *const keys[] = {"priority", "category", "mask", "sensor", "box"};
    *d = SHOVE_FN(default_body_def)();
    const char *type = SHOVE_IFN(load_word)(l);
    if (strcmp(type, "dynamic") == 0) {
        d->type = SHOVE_BODY_DYNAMIC;
    } else if (strcmp(type, "static") == 0) {
        d->type = SHOVE_BODY_STATIC;
    } else {
        l->bad = true;
    }
    uint32_t seen = 0u;
    for (int k; (k = SHOVE_IFN(load_key)(l, keys, 5, &seen)) >= 0;) {
        switch (k) {
        case 0:
            d->priority = (uint8_t)SHOVE_IFN(load_int)(l, 0, UINT8_MAX);
            break;
        case 1:
            d->category = SHOVE_IFN(load_hex)(l);
            break;
        case 2:
            d->mask = SHOVE_IFN(load_hex)(l);
            break;
        case 3:
            d->sensor = SHOVE_IFN(load_flag)(l);
            break;
        default:
            d->box = SHOVE_IFN(load_box)(l);
            break;
        }
    }
    if (!(seen & (1u << 4))) {
        l->bad = true; /* no box */
    }
}

/* voxel X Y Z box ... [box ...], boxes inside the shape bounds */
static void SHOVE_IFN(load_voxel)(SHOVE_T(load_line) * l, const shove_voxel_def *d,
                                  SHOVE_T(loaded_voxel) * v) {
    for (int a = 0; a < SHOVE_DIM; ++a) {
        v->cell[a] = SHOVE_IFN(load_cell)(l);
    }
    v->count = 0;
    while (SHOVE_IFN(load_more)(l)) {
        if (v->count == SHOVE_VOXEL_MAX_BOXES || strcmp(SHOVE_IFN(load_word)(l), "box") != 0) {
            l->bad = true;
            return;
        }
        const shove_aabb b = SHOVE_IFN(load_box)(l);
        for (int a = 0; a < SHOVE_DIM; ++a) {
            if (b.min.raw[a] < d->shape_bounds.min.raw[a] ||
                b.max.raw[a] > d->shape_bounds.max.raw[a]) {
                l->bad = true;
            }
        }
        v->box[v->count++] = b;
    }
    if (v->count == 0) {
        l->bad = true;
    }
}

/* >>the loader -------------------------------------------------------------- */

/* What the loader keeps while it reads. */
typedef struct SHOVE_T(loader) {
    shove_world *w;
    uint32_t max_index;
    uint32_t next_index;   /* slots below it are created (bodies or placeholders) */
    uint32_t *placeholder; /* slots of placeholders, ascending */
    uint32_t placeholder_count, placeholder_capacity;
} SHOVE_T(loader);

static bool SHOVE_IFN(load_is_placeholder)(const SHOVE_T(loader) * ld, uint32_t slot) {
    uint32_t lo = 0, hi = ld->placeholder_count;
    while (lo < hi) {
        const uint32_t mid = lo + (hi - lo) / 2u;
        if (ld->placeholder[mid] == slot) {
            return true;
        }
        if (ld->placeholder[mid] < slot) {
            lo = mid + 1u;
        } else {
            hi = mid;
        }
    }
    return false;
}

/* The id of body `index` of the dump, read so far; false when there is none. */
static bool SHOVE_IFN(load_body_id)(const SHOVE_T(loader) * ld, long long index, shove_id *out) {
    if (index < 0 || index >= (long long)ld->next_index ||
        SHOVE_IFN(load_is_placeholder)(ld, (uint32_t)index)) {
        return false;
    }
    *out = SHOVE_IFN(world_id)(ld->w, (uint32_t)index);
    return true;
}

/* Create body `index`, after placeholders for the slots below it. */
static shove_status SHOVE_IFN(load_create)(SHOVE_T(loader) * ld, uint32_t index,
                                           const shove_body_def *def) {
    shove_body_def placeholder = SHOVE_FN(default_body_def)();
    placeholder.category = 0u;
    placeholder.mask = 0u;
    while (ld->next_index <= index) {
        const bool real = ld->next_index == index;
        if (!real &&
            !SHOVE_IFN(world_grow)(ld->w, (void **)&ld->placeholder, &ld->placeholder_capacity,
                                   ld->placeholder_count + 1u, sizeof *ld->placeholder)) {
            return SHOVE_ERR_OUT_OF_MEMORY;
        }
        shove_id id;
        const shove_status st = SHOVE_FN(body_create)(ld->w, real ? def : &placeholder, &id);
        if (st != SHOVE_OK) {
            return st;
        }
        if (id.index != ld->next_index) {
            return SHOVE_ERR_INVALID_ARGUMENT; /* a fresh world hands out slots in order */
        }
        if (!real) {
            ld->placeholder[ld->placeholder_count++] = id.index;
        }
        ++ld->next_index;
    }
    return SHOVE_OK;
}

/* Read the records after the header, bounds, step and voxels ones into the
 * world `ld->w`. */
static shove_status SHOVE_IFN(load_records)(SHOVE_T(loader) * ld, FILE *in, char *text,
                                            const shove_voxel_def *voxels, bool has_voxels) {
    for (;;) {
        if (!fgets(text, LOAD_LINE_MAX, in)) {
            return SHOVE_ERR_INVALID_ARGUMENT; /* no `end`: cut off */
        }
        if (!strchr(text, '\n') && !feof(in)) {
            return SHOVE_ERR_INVALID_ARGUMENT; /* too long */
        }
        SHOVE_T(load_line) l;
        if (!SHOVE_IFN(load_split)(text, &l)) {
            return SHOVE_ERR_INVALID_ARGUMENT;
        }
        if (l.count == 0 || l.word[0][0] == '#') {
            continue;
        }
        const char *kind = SHOVE_IFN(load_word)(&l);
        shove_status st = SHOVE_OK;
        if (strcmp(kind, "end") == 0) {
            return l.count == 1 ? SHOVE_OK : SHOVE_ERR_INVALID_ARGUMENT;
        } else if (strcmp(kind, "body") == 0) {
            const long long index = SHOVE_IFN(load_int)(&l, 0, (long long)ld->max_index - 1);
            shove_body_def def;
            SHOVE_IFN(load_body)(&l, &def);
            if (l.bad || index < (long long)ld->next_index) {
                return SHOVE_ERR_INVALID_ARGUMENT; /* indices grow */
            }
            st = SHOVE_IFN(load_create)(ld, (uint32_t)index, &def);
        } else if (strcmp(kind, "movedef") == 0) {
            shove_id id;
            const long long index = SHOVE_IFN(load_int)(&l, 0, UINT32_MAX);
            shove_move_def def = SHOVE_FN(default_move_def)();
            SHOVE_IFN(load_step)(&l, &def);
            if (l.bad || !SHOVE_IFN(load_body_id)(ld, index, &id)) {
                return SHOVE_ERR_INVALID_ARGUMENT;
            }
            st = SHOVE_FN(body_set_move_def)(ld->w, id, &def);
        } else if (strcmp(kind, "motion") == 0) {
            shove_id id;
            const long long index = SHOVE_IFN(load_int)(&l, 0, UINT32_MAX);
            const shove_vec motion = SHOVE_IFN(load_vec)(&l);
            if (l.bad || !SHOVE_IFN(load_body_id)(ld, index, &id)) {
                return SHOVE_ERR_INVALID_ARGUMENT;
            }
            st = SHOVE_FN(body_set_motion)(ld->w, id, motion);
        } else if (strcmp(kind, "region") == 0) {
            shove_id id;
            const long long index = SHOVE_IFN(load_int)(&l, 0, UINT32_MAX);
            int32_t lo[SHOVE_DIM];
            for (int a = 0; a < SHOVE_DIM; ++a) {
                lo[a] = SHOVE_IFN(load_cell)(&l);
            }
            for (int a = 0; a < SHOVE_DIM; ++a) {
                l.bad = SHOVE_IFN(load_cell)(&l) < lo[a] || l.bad;
            }
            if (l.bad || !has_voxels || !SHOVE_IFN(load_body_id)(ld, index, &id)) {
                return SHOVE_ERR_INVALID_ARGUMENT;
            }
        } else if (strcmp(kind, "voxel") == 0) {
            SHOVE_T(loaded_voxel) v;
            SHOVE_IFN(load_voxel)(&l, voxels, &v);
            if (l.bad || !has_voxels) {
                return SHOVE_ERR_INVALID_ARGUMENT;
            }
            st = SHOVE_IFN(load_add_voxel)(ld->w, &v);
        } else {
            return SHOVE_ERR_INVALID_ARGUMENT; /* unknown record */
        }
        if (st != SHOVE_OK) {
            return st;
        }
        if (l.bad || l.at != l.count) {
            return SHOVE_ERR_INVALID_ARGUMENT;
        }
    }
}

/* Read the next record that is not blank or a comment into `l`. */
static bool SHOVE_IFN(load_next)(FILE *in, char *text, SHOVE_T(load_line) * l) {
    for (;;) {
        if (!fgets(text, LOAD_LINE_MAX, in) || (!strchr(text, '\n') && !feof(in)) ||
            !SHOVE_IFN(load_split)(text, l)) {
            return false;
        }
        if (l->count > 0 && l->word[0][0] != '#') {
            return true;
        }
    }
}

shove_status SHOVE_IFN(world_load_limited)(const shove_world_def *def, FILE *in, shove_world **out,
                                           uint32_t max_index) {
    if (!in || !out) {
        return SHOVE_ERR_INVALID_ARGUMENT;
    }
    char text[LOAD_LINE_MAX];
    SHOVE_T(load_line) l;
    shove_world_def wdef = def ? *def : SHOVE_FN(default_world_def)();
    shove_move_def step = SHOVE_FN(default_move_def)();
    shove_voxel_def voxels;
    bool has_voxels = false;
    char header[8];
    snprintf(header, sizeof header, "%dd", SHOVE_DIM);
    /* shove Nd dump 1 */
    if (!SHOVE_IFN(load_next)(in, text, &l) || strcmp(SHOVE_IFN(load_word)(&l), "shove") != 0 ||
        strcmp(SHOVE_IFN(load_word)(&l), header) != 0 ||
        strcmp(SHOVE_IFN(load_word)(&l), "dump") != 0 || SHOVE_IFN(load_int)(&l, 1, 1) != 1 ||
        l.bad || l.at != l.count) {
        return SHOVE_ERR_INVALID_ARGUMENT;
    }
    /* bounds ... */
    if (!SHOVE_IFN(load_next)(in, text, &l) || strcmp(SHOVE_IFN(load_word)(&l), "bounds") != 0) {
        return SHOVE_ERR_INVALID_ARGUMENT;
    }
    wdef.bounds = SHOVE_IFN(load_box)(&l);
    if (l.bad || l.at != l.count) {
        return SHOVE_ERR_INVALID_ARGUMENT;
    }
    /* workers N (optional), quiet_moves (optional), then step ... */
    if (!SHOVE_IFN(load_next)(in, text, &l)) {
        return SHOVE_ERR_INVALID_ARGUMENT;
    }
    const char *key = SHOVE_IFN(load_word)(&l);
    if (strcmp(key, "workers") == 0) {
        wdef.worker_count = (int)SHOVE_IFN(load_int)(&l, 1, SHOVE_MAX_WORKERS);
        if (l.bad || l.at != l.count || !SHOVE_IFN(load_next)(in, text, &l)) {
            return SHOVE_ERR_INVALID_ARGUMENT;
        }
        key = SHOVE_IFN(load_word)(&l);
    }
    if (strcmp(key, "quiet_moves") == 0) {
        wdef.quiet_moves = true;
        if (l.at != l.count || !SHOVE_IFN(load_next)(in, text, &l)) {
            return SHOVE_ERR_INVALID_ARGUMENT;
        }
        key = SHOVE_IFN(load_word)(&l);
    }
    if (strcmp(key, "step") != 0) {
        return SHOVE_ERR_INVALID_ARGUMENT;
    }
    SHOVE_IFN(load_step)(&l, &step);
    if (l.bad || l.at != l.count) {
        return SHOVE_ERR_INVALID_ARGUMENT;
    }
    wdef.step_def = step;
    /* voxels ... */
    if (!SHOVE_IFN(load_next)(in, text, &l) || strcmp(SHOVE_IFN(load_word)(&l), "voxels") != 0) {
        return SHOVE_ERR_INVALID_ARGUMENT;
    }
    SHOVE_IFN(load_voxels)(&l, &voxels, &has_voxels);
    if (l.bad || l.at != l.count) {
        return SHOVE_ERR_INVALID_ARGUMENT;
    }
    /* The world, then everything in it. */
    SHOVE_T(loader) ld;
    memset(&ld, 0, sizeof ld);
    ld.max_index = max_index;
    shove_status st = SHOVE_FN(world_create)(&wdef, &ld.w);
    if (st != SHOVE_OK) {
        return st;
    }
    if (has_voxels) {
        /* Validate the def now (a callback that has nothing yet): a bad
         * size or shape bounds is refused before any body is read. */
        voxels.shapes = SHOVE_IFN(load_shapes);
        voxels.ctx = &SHOVE_IFN(load_no_voxels);
        st = SHOVE_FN(world_set_voxels)(ld.w, &voxels);
    }
    if (st == SHOVE_OK) {
        st = SHOVE_IFN(load_records)(&ld, in, text, &voxels, has_voxels);
    }
    struct SHOVE_T(loaded_voxels) *t = ld.w->loaded;
    if (st == SHOVE_OK && t) {
        qsort(t->cell, t->count, sizeof *t->cell, SHOVE_IFN(load_cell_cmp));
        for (size_t i = 1; i < t->count && st == SHOVE_OK; ++i) {
            if (SHOVE_IFN(load_cell_cmp)(&t->cell[i - 1], &t->cell[i]) == 0) {
                st = SHOVE_ERR_INVALID_ARGUMENT; /* a cell twice */
            }
        }
    }
    if (st == SHOVE_OK && has_voxels) {
        voxels.ctx = t ? t : &SHOVE_IFN(load_no_voxels);
        st = SHOVE_FN(world_set_voxels)(ld.w, &voxels);
    }
    for (uint32_t i = 0; st == SHOVE_OK && i < ld.placeholder_count; ++i) {
        st = SHOVE_FN(body_destroy)(ld.w, SHOVE_IFN(world_id)(ld.w, ld.placeholder[i]));
    }
    SHOVE_IFN(world_realloc)
    (ld.w, ld.placeholder, (size_t)ld.placeholder_capacity * sizeof *ld.placeholder, 0);
    if (st != SHOVE_OK) {
        SHOVE_FN(world_destroy)(ld.w);
        return st;
    }
    *out = ld.w;
    return SHOVE_OK;
}

shove_status SHOVE_FN(world_load)(const shove_world_def *def, FILE *in, shove_world **out) {
    return SHOVE_IFN(world_load_limited)(def, in, out, SHOVE_LOAD_MAX_INDEX);
}

#undef LOAD_LINE_MAX
#undef LOAD_MAX_WORDS
