/*
 * defs.h: the rule every def struct follows (world, body, move, voxel; both
 * dimensions). Internal, dimension-free.
 *
 * shove{2,3}_default_*_def() set the def's `internal_literal_mark` to
 * SHOVE_DEF_LITERAL_MARK: every field of such a def is taken as it is, so a
 * game can ask for values that are zero (no response, up axis 0, mask 0).
 * A def without the mark (`= {0}`, designated initialisers, memset) reads
 * every field whose bytes are all zero as that field's default. Any other
 * mark value is a def that was never initialised and is refused.
 *
 * Each def has one function that applies the rule (next to its default
 * function: move_def_resolve in move_def.c, world_def_resolve in world.c,
 * body_def_resolve in bodies.c, voxel_def_resolve in voxel.c). A field
 * added to a def gets one SHOVE_DEF_TAKE line there, and its default must
 * be what an all-zero value stands for.
 */
#ifndef SHOVE_DEFS_H
#define SHOVE_DEFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/** The mark of defs made by the default functions ("SHOV" in ASCII). */
#define SHOVE_DEF_LITERAL_MARK 0x53484F56u

/** True for the two marks a def may carry: none (0) or the literal mark. */
static inline bool shove__def_mark_is_known(uint32_t mark) {
    return mark == 0u || mark == SHOVE_DEF_LITERAL_MARK;
}

/** True when the `size` bytes at `p` are all zero. */
static inline bool shove__bytes_are_zero(const void *p, size_t size) {
    const unsigned char *b = p;
    for (size_t i = 0; i < size; ++i) {
        if (b[i] != 0u) {
            return false;
        }
    }
    return true;
}

/** In a resolve function: keep `out`'s default for `field` unless the
 *  user's def `in` sets it to something other than all-zero bytes. Meant
 *  for fields without padding (numbers, pointers, vectors, boxes, arrays);
 *  nested defs go through their own resolve function. */
#define SHOVE_DEF_TAKE(out, in, field)                                                             \
    do {                                                                                           \
        if (!shove__bytes_are_zero(&(in)->field, sizeof((in)->field))) {                           \
            memcpy(&(out)->field, &(in)->field, sizeof((in)->field));                              \
        }                                                                                          \
    } while (0)

#endif
