/*
 * fuzz_world.c: libFuzzer harness for the world (bodies, moves, voxels, ids). The
 * first byte picks the dimension; the rest is a world and operations. The
 * checks are listed at the top of fuzz_world.inc.
 */
#include "fuzz_support.h"

#define SHOVE_DIM 2
#include "dim.h"
#include "fuzz_dim.h"
#include "fuzz_scene.h"
#include "fuzz_world.inc"
#include "dim_end.h"

#define SHOVE_DIM 3
#include "dim.h"
#include "fuzz_dim.h"
#include "fuzz_scene.h"
#include "fuzz_world.inc"
#include "dim_end.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size == 0) {
        return 0;
    }
    fuzz_reader r = fuzz_reader_make(data + 1, size - 1);
    if (data[0] & 1u) {
        shove3__fuzz_world(&r);
    } else {
        shove2__fuzz_world(&r);
    }
    return 0;
}
