/*
 * response.c: the response a move gives one obstacle. Template: see dim.h.
 *
 * The move's filter answers (an answer outside the enum blocks, as SLIDE:
 * see response.h), or without a filter the move's default response; a
 * sensor then turns anything but IGNORE into CROSS. The slide core, the
 * world's contact pairs and the shove step all ask here, so adding a
 * response touches this file and response.h.
 */
#include "solve/response.h"

/* Fills `out` with what the filter is shown of one obstacle. Called only
 * when the move has a filter, so a move without one never pays for the
 * description. */
typedef void (*SHOVE_T(obstacle_describe_fn))(const void *ctx, shove_obstacle *out);

/* A sensor (the obstacle or the mover) turns any response but IGNORE into
 * CROSS. */
static inline shove_response SHOVE_IFN(response_sensed)(shove_response r, bool sensor) {
    return (r != SHOVE_RESPONSE_IGNORE && sensor) ? SHOVE_RESPONSE_CROSS : r;
}

/* The response of a move with `def`, made by `mover`, to an obstacle that
 * `describe(ctx, ...)` describes; `sensor` when the obstacle (or the mover)
 * is a sensor. */
static inline shove_response SHOVE_IFN(response_to)(const shove_move_def *def, shove_id mover,
                                                    bool sensor,
                                                    SHOVE_T(obstacle_describe_fn) describe,
                                                    const void *ctx) {
    shove_response r = def->response;
    if (def->filter) {
        shove_obstacle ob;
        describe(ctx, &ob);
        r = shove__response_clamp(def->filter(def->filter_ctx, mover, &ob));
    }
    return SHOVE_IFN(response_sensed)(r, sensor);
}

/* Describes an obstacle that is already described (ctx points to it). */
static inline void SHOVE_IFN(response_copy_obstacle)(const void *ctx, shove_obstacle *out) {
    *out = *(const shove_obstacle *)ctx;
}
