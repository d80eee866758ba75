/*
 * fuzz_resolve.c: libFuzzer harness for shove2_resolve and shove3_resolve. The
 * first byte picks the dimension; the rest is the scene (fuzz_scene.h).
 * The checks are listed at the top of fuzz_resolve.inc.
 */
#define FUZZ_TEMPLATE "fuzz_resolve.inc"
#define FUZZ_RUN_2D   shove2__fuzz_resolve
#define FUZZ_RUN_3D   shove3__fuzz_resolve
#include "fuzz_harness.h"
