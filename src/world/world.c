/*
 * world.c: a world's def, create and destroy, the top of the world layer:
 * destroying a world frees what every part below owns (the trees, the
 * obstacle scratch, the step's scratch, a loaded dump's voxel table).
 * Template: see dim.h; the struct and the helpers the parts share are in
 * world.h.
 */
#include <math.h>
#include <string.h>

#include "world/move.h"
#include "world/world.h"

shove_world_def SHOVE_FN(default_world_def)(void) {
    shove_world_def def;
    memset(&def, 0, sizeof def);
    def.bounds.min = shove_vec_splat(-1024.0f);
    def.bounds.max = shove_vec_splat(1024.0f);
    def.body_capacity = 1024;
    def.step_def = SHOVE_FN(default_move_def)();
    def.worker_count = 1;
    def.internal_literal_mark = SHOVE_DEF_LITERAL_MARK;
    return def;
}

/* The def a world is made with (defs.h): `def` as it is when it carries the
 * literal mark, else the defaults with its non-zero fields. The step_def
 * inside follows its own mark (move_def_resolve). False for an unknown mark
 * on either. */
static bool SHOVE_IFN(world_def_resolve)(const shove_world_def *def, shove_world_def *out) {
    if (def && !shove__def_mark_is_known(def->internal_literal_mark)) {
        return false;
    }
    if (def && def->internal_literal_mark == SHOVE_DEF_LITERAL_MARK) {
        *out = *def;
    } else {
        *out = SHOVE_FN(default_world_def)();
        if (def) {
            /* Every field of the def, in order: a zero one keeps its default. */
            SHOVE_DEF_TAKE(out, def, bounds);
            SHOVE_DEF_TAKE(out, def, body_capacity);
            /* step_def: below */
            SHOVE_DEF_TAKE(out, def, allocator);
            SHOVE_DEF_TAKE(out, def, event_fn);
            SHOVE_DEF_TAKE(out, def, event_ctx);
            SHOVE_DEF_TAKE(out, def, worker_count);
            SHOVE_DEF_TAKE(out, def, enqueue_task);
            SHOVE_DEF_TAKE(out, def, finish_task);
            SHOVE_DEF_TAKE(out, def, task_ctx);
            SHOVE_DEF_TAKE(out, def, quiet_moves);
        }
    }
    shove_move_def step;
    const shove_move_def *s = SHOVE_IFN(move_def_resolve)(def ? &def->step_def : NULL, &step);
    if (!s) {
        return false;
    }
    out->step_def = *s;
    return true;
}

static bool SHOVE_IFN(world_def_is_valid)(const shove_world_def *def) {
    if (!SHOVE_FN(aabb_is_valid)(def->bounds) || def->body_capacity < 0) {
        return false;
    }
    /* Workers: 0 stands for the default (1); a task system comes whole. */
    if (def->worker_count < 0 || def->worker_count > SHOVE_MAX_WORKERS ||
        (def->enqueue_task == NULL) != (def->finish_task == NULL)) {
        return false;
    }
    bool has_size = false;
    for (int a = 0; a < SHOVE_DIM; ++a) {
        const float size = def->bounds.max.raw[a] - def->bounds.min.raw[a];
        if (!isfinite(size)) {
            return false;
        }
        has_size = has_size || size > 0.0f;
    }
    if (!has_size) {
        return false;
    }
    /* The step ignores contacts: check the rest. */
    const shove_move_def step = SHOVE_IFN(world_step_settings)(def->step_def);
    return SHOVE_IFN(move_def_is_valid)(&step);
}

shove_status SHOVE_FN(world_create)(const shove_world_def *def, shove_world **out) {
    if (!out) {
        return SHOVE_ERR_INVALID_ARGUMENT;
    }
    shove_world_def d;
    memset(&d, 0, sizeof d); /* resolve fills it; zeroed, no compiler doubts that */
    if (!SHOVE_IFN(world_def_resolve)(def, &d) || !SHOVE_IFN(world_def_is_valid)(&d)) {
        return SHOVE_ERR_INVALID_ARGUMENT;
    }
    shove_allocator alloc = d.allocator;
    if (!alloc.realloc) {
        alloc.realloc = shove__default_realloc;
        alloc.ctx = NULL;
    }
    shove_world *w = alloc.realloc(alloc.ctx, NULL, 0, sizeof *w);
    if (!w) {
        return SHOVE_ERR_OUT_OF_MEMORY;
    }
    memset(w, 0, sizeof *w);
    atomic_init(&w->busy, 0u);
    w->alloc = alloc;
    w->bounds = d.bounds;
    w->step_def = SHOVE_IFN(world_step_settings)(d.step_def);
    w->event_fn = d.event_fn;
    w->event_ctx = d.event_ctx;
    w->quiet_moves = d.quiet_moves;
    w->tasks.worker_count = d.worker_count > 0 ? (uint32_t)d.worker_count : 1u;
    w->tasks.enqueue_task = d.enqueue_task;
    w->tasks.finish_task = d.finish_task;
    w->tasks.task_ctx = d.task_ctx;
    w->tasks.alloc = alloc;
    shove__tasks_init(&w->tasks);
    w->free_head = SHOVE_TREE_NONE;
    w->pair_free = SHOVE_TREE_NONE;
    w->own_def_free = SHOVE_TREE_NONE;
    w->static_stamp = 1u;
    SHOVE_IFN(move_scratch_init)(w, &alloc);
    if (SHOVE_IFN(tree_init)(&w->trees[0], d.bounds, alloc) != SHOVE_OK ||
        SHOVE_IFN(tree_init)(&w->trees[1], d.bounds, alloc) != SHOVE_OK ||
        !SHOVE_IFN(world_reserve_slots)(w, (uint32_t)d.body_capacity)) {
        SHOVE_FN(world_destroy)(w);
        return SHOVE_ERR_OUT_OF_MEMORY;
    }
    w->tag = shove__world_tag_acquire(&w->tag_claimed);
    *out = w;
    return SHOVE_OK;
}

void SHOVE_FN(world_destroy)(shove_world *w) {
    if (!w || SHOVE_IFN(world_is_locked)(w)) {
        return; /* from a callback of this world: documented to do nothing */
    }
    shove__tasks_stop(&w->tasks);
    SHOVE_IFN(tree_destroy)(&w->trees[0]);
    SHOVE_IFN(tree_destroy)(&w->trees[1]);
    SHOVE_IFN(move_scratch_free)(w);
    SHOVE_IFN(step_free)(w);
    SHOVE_IFN(load_free)(w);
    if (w->slot_block) {
        size_t bytes;
        SHOVE_IFN(world_slot_layout)(w, NULL, w->slot_capacity, &bytes);
        SHOVE_IFN(world_realloc)(w, w->slot_block, bytes, 0);
    }
    SHOVE_IFN(world_realloc)(w, w->pairs, (size_t)w->pair_capacity * sizeof *w->pairs, 0);
    SHOVE_IFN(world_realloc)(w, w->events, (size_t)w->event_capacity * sizeof *w->events, 0);
    SHOVE_IFN(world_realloc)(w, w->drawn, (size_t)w->drawn_capacity * sizeof *w->drawn, 0);
    SHOVE_IFN(world_realloc)(w, w->own_defs, (size_t)w->own_def_capacity * sizeof *w->own_defs, 0);
    SHOVE_IFN(world_realloc)
    (w, w->occupancy.slot_sum, (size_t)w->occupancy.capacity * SHOVE_IFN(occupancy_cell_bytes)(),
     0);
    if (w->tag) {
        shove__world_tag_release(w->tag, w->tag_claimed);
    }
    const shove_allocator alloc = w->alloc;
    alloc.realloc(alloc.ctx, w, sizeof *w, 0);
}

shove_status SHOVE_FN(world_get_step_def)(const shove_world *w, shove_move_def *out) {
    if (!w || !out) {
        return SHOVE_ERR_INVALID_ARGUMENT;
    }
    *out = w->step_def;
    return SHOVE_OK;
}
