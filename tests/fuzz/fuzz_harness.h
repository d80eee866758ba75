/*
 * fuzz_harness.h: the libFuzzer entry point that the scene harnesses share.
 * A harness file names its template and the function the template defines,
 *
 *     #define FUZZ_TEMPLATE "fuzz_NAME.inc"
 *     #define FUZZ_RUN_2D shove2__fuzz_NAME
 *     #define FUZZ_RUN_3D shove3__fuzz_NAME
 *     #include "fuzz_harness.h"
 *
 * and this compiles the template for 2D and 3D. The input's first byte picks
 * the dimension (its lowest bit: 1 is 3D); the rest is the template's scene.
 */
#ifndef SHOVE_FUZZ_HARNESS_H
#define SHOVE_FUZZ_HARNESS_H

#include "fuzz_support.h"

#define SHOVE_DIM 2
#include "dim.h"
#include "fuzz_dim.h"
#include "fuzz_scene.h"
#include FUZZ_TEMPLATE
#include "dim_end.h"

#define SHOVE_DIM 3
#include "dim.h"
#include "fuzz_dim.h"
#include "fuzz_scene.h"
#include FUZZ_TEMPLATE
#include "dim_end.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size == 0) {
        return 0;
    }
    fuzz_reader r = fuzz_reader_make(data + 1, size - 1);
    if (data[0] & 1u) {
        FUZZ_RUN_3D(&r);
    } else {
        FUZZ_RUN_2D(&r);
    }
    return 0;
}

#endif
