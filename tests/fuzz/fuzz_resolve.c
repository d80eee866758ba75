/*
 * fuzz_resolve.c: libFuzzer harness for shove2_resolve and shove3_resolve. The
 * first byte picks the dimension; the rest is the scene (fuzz_scene.h).
 * The checks are listed at the top of fuzz_resolve.inc.
 */
#include "fuzz_support.h"

#define SHOVE_DIM 2
#include "dim.h"
#include "fuzz_dim.h"
#include "fuzz_scene.h"
#include "fuzz_resolve.inc"
#include "dim_end.h"

#define SHOVE_DIM 3
#include "dim.h"
#include "fuzz_dim.h"
#include "fuzz_scene.h"
#include "fuzz_resolve.inc"
#include "dim_end.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size == 0) {
        return 0;
    }
    fuzz_reader r = fuzz_reader_make(data + 1, size - 1);
    if (data[0] & 1u) {
        shove3__fuzz_resolve(&r);
    } else {
        shove2__fuzz_resolve(&r);
    }
    return 0;
}
