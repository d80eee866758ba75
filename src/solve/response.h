/*
 * response.h: which values of shove_response are valid and which of them
 * block. Internal, dimension-free. The rule that picks a response for one
 * obstacle (filter, default, sensors) is solve/response.c.
 */
#ifndef SHOVE_SOLVE_RESPONSE_H
#define SHOVE_SOLVE_RESPONSE_H

#include <stdbool.h>

#include <shove/shove_common.h>

/* The number of responses: valid values are 0 .. SHOVE__RESPONSE_COUNT - 1.
 * A response added to the enum moves this along with it. */
#define SHOVE__RESPONSE_COUNT ((unsigned)SHOVE_RESPONSE_BOUNCE + 1u)

/* True when `r` is one of the enum's values (a move def's response, a
 * filter's answer). */
static inline bool shove__response_is_valid(shove_response r) {
    return (unsigned)r < SHOVE__RESPONSE_COUNT;
}

/* A filter's answer as the library reads it: an answer outside the enum
 * blocks, as SLIDE (safer than letting the mover through). */
static inline shove_response shove__response_clamp(shove_response r) {
    return shove__response_is_valid(r) ? r : SHOVE_RESPONSE_SLIDE;
}

/* True for the responses that stop the mover on the surface. */
static inline bool shove__response_is_solid(shove_response r) {
    return r == SHOVE_RESPONSE_SLIDE || r == SHOVE_RESPONSE_TOUCH || r == SHOVE_RESPONSE_BOUNCE;
}

#endif
