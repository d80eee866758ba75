/*
 * fuzz_batch.c: libFuzzer harness for shove2/3_overlap_batch and shove2/3_sweep_batch. The
 * first byte picks the dimension; the rest is boxes, a query and a sweep. The
 * checks are listed at the top of fuzz_batch.inc.
 */
#include "fuzz_support.h"

#define SHOVE_DIM 2
#include "dim.h"
#include "fuzz_dim.h"
#include "fuzz_scene.h"
#include "fuzz_batch.inc"
#include "dim_end.h"

#define SHOVE_DIM 3
#include "dim.h"
#include "fuzz_dim.h"
#include "fuzz_scene.h"
#include "fuzz_batch.inc"
#include "dim_end.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size == 0) {
        return 0;
    }
    fuzz_reader r = fuzz_reader_make(data + 1, size - 1);
    if (data[0] & 1u) {
        shove3__fuzz_batch(&r);
    } else {
        shove2__fuzz_batch(&r);
    }
    return 0;
}
