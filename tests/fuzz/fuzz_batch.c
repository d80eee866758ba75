/*
 * fuzz_batch.c: libFuzzer harness for shove2/3_overlap_batch and shove2/3_sweep_batch. The
 * first byte picks the dimension; the rest is boxes, a query and a sweep. The
 * checks are listed at the top of fuzz_batch.inc.
 */
#define FUZZ_TEMPLATE "fuzz_batch.inc"
#define FUZZ_RUN_2D   shove2__fuzz_batch
#define FUZZ_RUN_3D   shove3__fuzz_batch
#include "fuzz_harness.h"
