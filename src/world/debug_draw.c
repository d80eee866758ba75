/*
 * debug_draw.c: shove3_world_draw, the world drawn through the game's
 * callbacks: the bodies, the contact points of the last call and the
 * trees' cells. Template: see dim.h.
 */
#include "world/world.h"

/* Colours (0xRRGGBBAA) of shove3_world_draw. */
#define DRAW_STATIC      0x9E9E9EFFu /* grey */
#define DRAW_DYNAMIC     0x2196F3FFu /* blue */
#define DRAW_SENSOR      0xFFC107FFu /* amber */
#define DRAW_POINT       0xF44336FFu /* red */
#define DRAW_NORMAL      0x4CAF50FFu /* green */
#define DRAW_TREE_STATIC 0x9E9E9E60u /* faint grey */
#define DRAW_TREE_DYN    0x9C27B060u /* faint purple */

typedef struct SHOVE_T(world_draw_ctx) {
    const shove_debug_draw *draw;
    uint32_t color;
} SHOVE_T(world_draw_ctx);

static void SHOVE_IFN(world_draw_node)(void *vctx, shove_aabb loose, shove_aabb cell,
                                       uint32_t depth, uint32_t count) {
    const SHOVE_T(world_draw_ctx) *ctx = vctx;
    (void)loose;
    (void)depth;
    (void)count;
    ctx->draw->draw_box(ctx->draw->ctx, cell, ctx->color);
}

/* shove_world_draw on valid input, with the world locked. */
static void SHOVE_IFN(world_draw_locked)(const shove_world *w, const shove_debug_draw *draw) {
    if (draw->draw_bodies && draw->draw_box) {
        for (uint32_t slot = 0; slot < w->slot_count; ++slot) {
            const uint8_t f = w->flags[slot];
            if (!(f & SHOVE_SLOT_ALIVE)) {
                continue;
            }
            const uint32_t color = (f & SHOVE_SLOT_SENSOR)    ? DRAW_SENSOR
                                   : (f & SHOVE_SLOT_DYNAMIC) ? DRAW_DYNAMIC
                                                              : DRAW_STATIC;
            draw->draw_box(draw->ctx, w->box[slot], color);
        }
    }
    if (draw->draw_contacts) {
        for (uint32_t i = 0; i < w->drawn_count; ++i) {
            if (draw->draw_point) {
                draw->draw_point(draw->ctx, w->drawn[i].point, DRAW_POINT);
            }
            if (draw->draw_normal) {
                draw->draw_normal(draw->ctx, w->drawn[i].point, w->drawn[i].normal, DRAW_NORMAL);
            }
        }
    }
    if (draw->draw_tree && draw->draw_box) {
        SHOVE_T(world_draw_ctx) ctx = {draw, DRAW_TREE_STATIC};
        SHOVE_IFN(tree_each_node)(&w->trees[SHOVE_BODY_STATIC], SHOVE_IFN(world_draw_node), &ctx);
        ctx.color = DRAW_TREE_DYN;
        SHOVE_IFN(tree_each_node)(&w->trees[SHOVE_BODY_DYNAMIC], SHOVE_IFN(world_draw_node), &ctx);
    }
}

void SHOVE_FN(world_draw)(const shove_world *w, const shove_debug_draw *draw) {
    if (!w || !draw) {
        return;
    }
    SHOVE_IFN(world_lock_for_read)(w);
    SHOVE_IFN(world_draw_locked)(w, draw);
    SHOVE_IFN(world_unlock_after_read)(w);
}

#undef DRAW_STATIC
#undef DRAW_DYNAMIC
#undef DRAW_SENSOR
#undef DRAW_POINT
#undef DRAW_NORMAL
#undef DRAW_TREE_STATIC
#undef DRAW_TREE_DYN
