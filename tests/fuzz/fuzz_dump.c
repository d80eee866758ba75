/*
 * fuzz_dump.c: libFuzzer harness for shove2/3_world_load and
 * shove2/3_world_dump. The input is the text of a dump, as a user might
 * hand-edit or truncate it. Checks: the loader never crashes or leaks,
 * whatever the text, and a refused text leaves *out alone; when it accepts
 * the text, dumping the loaded world, loading that and dumping again gives
 * the same text twice (a dump is a fixed point of load + dump).
 */
#define _GNU_SOURCE /* fmemopen, open_memstream */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_support.h"

/* Every slot below a body's index is created: keep fuzzed worlds small. */
#define FUZZ_DUMP_MAX_INDEX 4096u

#define SHOVE_DIM 2
#include "dim.h"
#include "world/world.h"
#include "fuzz_dump.inc"
#include "dim_end.h"

#define SHOVE_DIM 3
#include "dim.h"
#include "world/world.h"
#include "fuzz_dump.inc"
#include "dim_end.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size == 0 || size > 1u << 16) {
        return 0;
    }
    shove2__fuzz_dump_text(data, size);
    shove3__fuzz_dump_text(data, size);
    return 0;
}
