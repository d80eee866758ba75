/*
 * world_common.c: what the 2D and 3D worlds share: the default allocator
 * and the world tags that tell ids of different worlds apart.
 */
#include <stdatomic.h>
#include <stdlib.h>

/* world.h is a template header; its dimension-free part is all this file
 * uses, so any dimension will do. */
#define SHOVE_DIM 3
#include "dim.h"
#include "world/world.h"
#include "dim_end.h"

void *shove__default_realloc(void *ctx, void *ptr, size_t old_size, size_t new_size) {
    (void)ctx;
    (void)old_size;
    if (new_size == 0) {
        free(ptr);
        return NULL;
    }
    return realloc(ptr, new_size);
}

/* Tags 1 .. TAG_COUNT - 1 (0 is what the null id carries). A tag is taken
 * round-robin, skipping tags that live worlds hold, so two live worlds
 * differ unless more than TAG_COUNT - 1 exist at once; after a world is
 * destroyed its tag comes back only after all the others were handed out. */
#define TAG_COUNT (1u << SHOVE_ID_TAG_BITS)
static atomic_uint next_tag = 0;
static atomic_uint tags_in_use[TAG_COUNT / 32u];

uint32_t shove__world_tag_acquire(bool *claimed) {
    uint32_t tag = 1;
    for (uint32_t attempt = 0; attempt < TAG_COUNT - 1u; ++attempt) {
        tag = 1u + atomic_fetch_add(&next_tag, 1u) % (TAG_COUNT - 1u);
        const unsigned bit = 1u << (tag % 32u);
        if (!(atomic_fetch_or(&tags_in_use[tag / 32u], bit) & bit)) {
            *claimed = true;
            return tag;
        }
    }
    *claimed = false; /* every tag is held: share one */
    return tag;
}

void shove__world_tag_release(uint32_t tag, bool claimed) {
    if (claimed) {
        atomic_fetch_and(&tags_in_use[tag / 32u], ~(1u << (tag % 32u)));
    }
}
