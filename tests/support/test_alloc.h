/*
 * test_alloc.h: a shove_allocator that counts what goes through it, for
 * tests that check "no allocation per move" and that sizes add up.
 */
#ifndef SHOVE_TEST_ALLOC_H
#define SHOVE_TEST_ALLOC_H

#include <stdlib.h>

#include <shove/shove.h>

typedef struct test_alloc {
    long calls;      /**< every call that allocates or resizes (new_size > 0) */
    long frees;      /**< calls with new_size == 0 and a block */
    long long live;  /**< bytes allocated and not freed, by the sizes shove reports */
    long fail_after; /**< fail the call after this many allocating calls (-1: never) */
    bool fail_once;  /**< fail only that call (fail_after is then -1 again), not every later one */
    bool size_error; /**< a free or resize reported an old size that was never allocated */
} test_alloc;

static inline void *test_alloc_realloc(void *ctx, void *ptr, size_t old_size, size_t new_size) {
    test_alloc *a = ctx;
    if (new_size == 0) {
        if (ptr) {
            a->frees += 1;
            a->live -= (long long)old_size;
            if (a->live < 0) {
                a->size_error = true;
            }
        }
        free(ptr);
        return NULL;
    }
    if (!ptr && old_size != 0) {
        a->size_error = true;
    }
    if (a->fail_after >= 0 && a->calls >= a->fail_after) {
        if (a->fail_once) {
            a->fail_after = -1;
        }
        return NULL;
    }
    void *p = realloc(ptr, new_size);
    if (p) {
        a->calls += 1;
        a->live += (long long)new_size - (long long)(ptr ? old_size : 0);
    }
    return p;
}

static inline shove_allocator test_alloc_make(test_alloc *a) {
    a->calls = 0;
    a->frees = 0;
    a->live = 0;
    a->fail_after = -1;
    a->fail_once = false;
    a->size_error = false;
    shove_allocator al = {test_alloc_realloc, a};
    return al;
}

#endif
