/*
 * dump.c: shove3_world_dump, a readable text snapshot of a world for
 * finding out why a body got stuck; load.c reads it back (shove-replay
 * replays moves and steps from it).
 * Template: see dim.h.
 *
 * The format, one record per line, numbers as C reads them back exactly
 * (floats with 9 significant digits, masks in hex); `#` starts a comment:
 *
 *   shove 3d dump 1
 *   bounds X0 Y0 Z0 X1 Y1 Z1
 *   workers N
 *   quiet_moves
 *   step skin S iterations N up A step_height H edge_guard G edge_footing F response R
 *   voxels none
 *   voxels size S origin X Y Z bounds X0 Y0 Z0 X1 Y1 Z1 solid X0 Y0 Z0 X1 Y1 Z1 max_cells N
 *   body I static|dynamic priority P category 0xC mask 0xM sensor 0|1 box X0 Y0 Z0 X1 Y1 Z1
 *   movedef I skin S iterations N up A step_height H edge_guard G edge_footing F response R
 *   motion I DX DY DZ
 *   region I X0 Y0 Z0 X1 Y1 Z1
 *   voxel X Y Z box X0 Y0 Z0 X1 Y1 Z1 [box ...]
 *   end
 *
 * `bounds`, `workers`, `quiet_moves` and `step` are the world def (its
 * broad-phase hint, its worker_count, written only when it is not 1, a
 * bare `quiet_moves` line when that switch is on, and the move settings
 * of the shove step), `voxels` the voxel def (its solid range in cells, all
 * zero when unbounded, and its budget, 0 for the default). A body line
 * gives the body's id index I (the slot; ids of a loaded world differ in
 * their generation), a movedef line the body's own move settings for the
 * shove step (shove3_body_set_move_def; their filter is not dumped, as the
 * step's), a motion line a pending motion of the shove step. With voxels, a
 * region line gives the cells (first and last on every axis) the dump holds
 * around body I: every voxel whose shape bounds touch the body's box, that
 * box
 * moved by its pending motion, grown by four voxels on every side (a body
 * whose region would hold more than DUMP_MAX_REGION_CELLS voxels gets a
 * comment instead). A voxel line lists the boxes of one non-empty voxel of
 * those regions in voxel-local units, as the callback answers them (boxes
 * that break its contract, which moves refuse, are left out); a cell of a
 * region without a voxel line is empty. Bodies come
 * in slot order, voxels in x, y, z order, each once. 2D dumps say "2d" and
 * drop the z numbers.
 *
 * User data, event callbacks, the allocator and the contact history of the
 * world (which pairs touch) are not part of a dump.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "obstacles/voxel.h"
#include "world/world.h"

/* Voxels one body's region may hold before the dump gives up on it. */
#define DUMP_MAX_REGION_CELLS 32768
/* Voxels of margin around each body. */
#define DUMP_MARGIN_VOXELS 4.0f

static void SHOVE_IFN(dump_vec)(FILE *out, shove_vec v) {
    for (int a = 0; a < SHOVE_DIM; ++a) {
        fprintf(out, " %.9g", (double)v.raw[a]);
    }
}

static void SHOVE_IFN(dump_box)(FILE *out, shove_aabb b) {
    SHOVE_IFN(dump_vec)(out, b.min);
    SHOVE_IFN(dump_vec)(out, b.max);
}

static const char *SHOVE_IFN(dump_response)(shove_response r) {
    switch (r) {
    case SHOVE_RESPONSE_IGNORE:
        return "ignore";
    case SHOVE_RESPONSE_SLIDE:
        return "slide";
    case SHOVE_RESPONSE_TOUCH:
        return "touch";
    case SHOVE_RESPONSE_CROSS:
        return "cross";
    case SHOVE_RESPONSE_BOUNCE:
        return "bounce";
    }
    return "slide";
}

/* The numbers of a move def (the rest of a `step` or `movedef` line). */
static void SHOVE_IFN(dump_move_def)(FILE *out, const shove_move_def *s) {
    fprintf(out,
            " skin %.9g iterations %d up %d step_height %.9g edge_guard %d edge_footing %.9g"
            " response %s\n",
            (double)s->skin, s->max_iterations, s->up_axis, (double)s->step_height,
            s->edge_guard ? 1 : 0, (double)s->edge_footing, SHOVE_IFN(dump_response)(s->response));
}

/* A cell, compared in x, y, z order. */
typedef struct SHOVE_T(dump_cell) {
    int32_t c[SHOVE_DIM];
} SHOVE_T(dump_cell);

static int SHOVE_IFN(dump_cell_cmp)(const void *pa, const void *pb) {
    const SHOVE_T(dump_cell) *a = pa, *b = pb;
    for (int k = 0; k < SHOVE_DIM; ++k) {
        if (a->c[k] != b->c[k]) {
            return a->c[k] < b->c[k] ? -1 : 1;
        }
    }
    return 0;
}

/* The region of voxels around body `slot`, or false when there is none or
 * it is too large (then *too_large says so). */
static bool SHOVE_IFN(dump_region)(const shove_world *w, uint32_t slot, SHOVE_T(cell_range) * range,
                                   uint64_t *cells, bool *too_large) {
    *too_large = false;
    shove_aabb region = w->box[slot];
    if (w->flags[slot] & SHOVE_SLOT_HAS_MOTION) {
        for (int a = 0; a < SHOVE_DIM; ++a) {
            const float m = w->motion[slot].raw[a];
            region.min.raw[a] += m < 0.0f ? m : 0.0f;
            region.max.raw[a] += m > 0.0f ? m : 0.0f;
        }
    }
    const float margin = DUMP_MARGIN_VOXELS * w->voxels.voxel_size;
    for (int a = 0; a < SHOVE_DIM; ++a) {
        region.min.raw[a] -= margin;
        region.max.raw[a] += margin;
    }
    if (!SHOVE_FN(aabb_is_valid)(region) || !SHOVE_IFN(voxel_cells)(&w->voxels, region, range)) {
        return false;
    }
    uint64_t n = 1;
    for (int a = 0; a < SHOVE_DIM; ++a) {
        const uint64_t span = (uint64_t)((int64_t)range->hi[a] - (int64_t)range->lo[a]) + 1u;
        if (span > DUMP_MAX_REGION_CELLS) {
            *too_large = true;
            return false;
        }
        n *= span;
    }
    if (n > DUMP_MAX_REGION_CELLS) {
        *too_large = true;
        return false;
    }
    *cells = n;
    return true;
}

/* Local boxes of a voxel as the callback answers them, when they keep its
 * contract (voxel.c's voxel_read): a count outside 0..8 gives none (the
 * boxes past 8 were never written), and boxes that are not valid or reach
 * outside the shape bounds are left out. Moves refuse both. */
static int SHOVE_IFN(dump_voxel_boxes)(const shove_voxel_def *def, const int32_t c[SHOVE_DIM],
                                       shove_aabb out[SHOVE_VOXEL_MAX_BOXES]) {
    shove_aabb local[SHOVE_VOXEL_MAX_BOXES];
#if SHOVE_DIM == 3
    const int n = def->shapes(def->ctx, c[0], c[1], c[2], local);
#else
    const int n = def->shapes(def->ctx, c[0], c[1], local);
#endif
    if (n < 0 || n > SHOVE_VOXEL_MAX_BOXES) {
        return 0;
    }
    int kept = 0;
    for (int i = 0; i < n; ++i) {
        bool valid = true;
        for (int a = 0; a < SHOVE_DIM; ++a) {
            valid = valid && def->shape_bounds.min.raw[a] <= local[i].min.raw[a] &&
                    local[i].min.raw[a] <= local[i].max.raw[a] &&
                    local[i].max.raw[a] <= def->shape_bounds.max.raw[a];
        }
        if (valid) {
            out[kept++] = local[i];
        }
    }
    return kept;
}

/* Every voxel cell near a body, sorted and each once; NULL with *count 0
 * when there are none. False when out of memory. */
static bool SHOVE_IFN(dump_collect_cells)(const shove_world *w, SHOVE_T(dump_cell) * *out,
                                          size_t *count, size_t *bytes, FILE *file) {
    *out = NULL;
    *count = 0;
    *bytes = 0;
    size_t total = 0;
    for (uint32_t slot = 0; slot < w->slot_count; ++slot) {
        SHOVE_T(cell_range) range;
        uint64_t cells;
        bool too_large;
        if (!(w->flags[slot] & SHOVE_SLOT_ALIVE)) {
            continue;
        }
        if (SHOVE_IFN(dump_region)(w, slot, &range, &cells, &too_large)) {
            total += (size_t)cells;
        } else if (too_large) {
            fprintf(file, "# voxels around body %" PRIu32 " left out: more than %d in reach\n",
                    slot, DUMP_MAX_REGION_CELLS);
        }
    }
    if (total == 0) {
        return true;
    }
    SHOVE_T(dump_cell) *cells = SHOVE_IFN(world_realloc)(w, NULL, 0, total * sizeof *cells);
    if (!cells) {
        return false;
    }
    size_t n = 0;
    for (uint32_t slot = 0; slot < w->slot_count; ++slot) {
        SHOVE_T(cell_range) range;
        uint64_t unused;
        bool too_large;
        if (!(w->flags[slot] & SHOVE_SLOT_ALIVE) ||
            !SHOVE_IFN(dump_region)(w, slot, &range, &unused, &too_large)) {
            continue;
        }
        int32_t c[SHOVE_DIM];
        for (int a = 0; a < SHOVE_DIM; ++a) {
            c[a] = range.lo[a];
        }
        for (;;) {
            memcpy(cells[n++].c, c, sizeof c);
            int a = 0;
            while (a < SHOVE_DIM && c[a] == range.hi[a]) {
                c[a] = range.lo[a];
                ++a;
            }
            if (a == SHOVE_DIM) {
                break;
            }
            ++c[a];
        }
    }
    qsort(cells, n, sizeof *cells, SHOVE_IFN(dump_cell_cmp));
    size_t unique = 0;
    for (size_t i = 0; i < n; ++i) {
        if (unique == 0 || SHOVE_IFN(dump_cell_cmp)(&cells[unique - 1], &cells[i]) != 0) {
            cells[unique++] = cells[i];
        }
    }
    *out = cells;
    *count = unique;
    *bytes = total * sizeof *cells;
    return true;
}

/* shove_world_dump on valid arguments, with the world locked (it reads
 * voxels through their callback). */
static shove_status SHOVE_IFN(world_dump_locked)(const shove_world *w, FILE *out) {
    fprintf(out, "shove %dd dump 1\n", SHOVE_DIM);
    fprintf(out, "bounds");
    SHOVE_IFN(dump_box)(out, w->bounds);
    if (w->tasks.worker_count != 1u) {
        fprintf(out, "\nworkers %u", (unsigned)w->tasks.worker_count);
    }
    if (w->quiet_moves) {
        fprintf(out, "\nquiet_moves");
    }
    fprintf(out, "\nstep");
    SHOVE_IFN(dump_move_def)(out, &w->step_def);
    if (w->has_voxels) {
        fprintf(out, "voxels size %.9g origin", (double)w->voxels.voxel_size);
        SHOVE_IFN(dump_vec)(out, w->voxels.origin);
        fprintf(out, " bounds");
        SHOVE_IFN(dump_box)(out, w->voxels.shape_bounds);
        fprintf(out, " solid");
        for (int a = 0; a < SHOVE_DIM; ++a) {
            fprintf(out, " %" PRId32, w->voxels.solid_min[a]);
        }
        for (int a = 0; a < SHOVE_DIM; ++a) {
            fprintf(out, " %" PRId32, w->voxels.solid_max[a]);
        }
        fprintf(out, " max_cells %" PRIu32 "\n", w->voxels.max_cells);
    } else {
        fprintf(out, "voxels none\n");
    }
    for (uint32_t slot = 0; slot < w->slot_count; ++slot) {
        const uint8_t f = w->flags[slot];
        if (!(f & SHOVE_SLOT_ALIVE)) {
            continue;
        }
        fprintf(out,
                "body %" PRIu32 " %s priority %d category 0x%" PRIx64 " mask 0x%" PRIx64
                " sensor %d box",
                slot, (f & SHOVE_SLOT_DYNAMIC) ? "dynamic" : "static", (int)w->priority[slot],
                w->category[slot], w->mask[slot], (f & SHOVE_SLOT_SENSOR) ? 1 : 0);
        SHOVE_IFN(dump_box)(out, w->box[slot]);
        fprintf(out, "\n");
        if (w->move_def[slot] != 0u) {
            fprintf(out, "movedef %" PRIu32, slot);
            SHOVE_IFN(dump_move_def)(out, SHOVE_IFN(world_move_def_of)(w, slot));
        }
        if (f & SHOVE_SLOT_HAS_MOTION) {
            fprintf(out, "motion %" PRIu32, slot);
            SHOVE_IFN(dump_vec)(out, w->motion[slot]);
            fprintf(out, "\n");
        }
        SHOVE_T(cell_range) range;
        uint64_t cells;
        bool too_large;
        if (w->has_voxels && SHOVE_IFN(dump_region)(w, slot, &range, &cells, &too_large)) {
            fprintf(out, "region %" PRIu32, slot);
            for (int a = 0; a < SHOVE_DIM; ++a) {
                fprintf(out, " %" PRId32, range.lo[a]);
            }
            for (int a = 0; a < SHOVE_DIM; ++a) {
                fprintf(out, " %" PRId32, range.hi[a]);
            }
            fprintf(out, "\n");
        }
    }
    if (w->has_voxels) {
        SHOVE_T(dump_cell) * cells;
        size_t count, bytes;
        if (!SHOVE_IFN(dump_collect_cells)(w, &cells, &count, &bytes, out)) {
            return SHOVE_ERR_OUT_OF_MEMORY;
        }
        for (size_t i = 0; i < count; ++i) {
            shove_aabb boxes[SHOVE_VOXEL_MAX_BOXES];
            const int k = SHOVE_IFN(dump_voxel_boxes)(&w->voxels, cells[i].c, boxes);
            if (k == 0) {
                continue;
            }
            fprintf(out, "voxel");
            for (int a = 0; a < SHOVE_DIM; ++a) {
                fprintf(out, " %" PRId32, cells[i].c[a]);
            }
            for (int j = 0; j < k; ++j) {
                fprintf(out, " box");
                SHOVE_IFN(dump_box)(out, boxes[j]);
            }
            fprintf(out, "\n");
        }
        if (cells) {
            SHOVE_IFN(world_realloc)(w, cells, bytes, 0);
        }
    }
    fprintf(out, "end\n");
    return ferror(out) ? SHOVE_ERR_INVALID_ARGUMENT : SHOVE_OK;
}

shove_status SHOVE_FN(world_dump)(const shove_world *w, FILE *out) {
    if (!w || !out) {
        return SHOVE_ERR_INVALID_ARGUMENT;
    }
    SHOVE_IFN(world_lock_for_read)(w);
    const shove_status s = SHOVE_IFN(world_dump_locked)(w, out);
    SHOVE_IFN(world_unlock_after_read)(w);
    return s;
}

#undef DUMP_MAX_REGION_CELLS
#undef DUMP_MARGIN_VOXELS
