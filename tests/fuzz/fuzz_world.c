/*
 * fuzz_world.c: libFuzzer harness for the world (bodies, moves, voxels, ids). The
 * first byte picks the dimension; the rest is a world and operations. The
 * checks are listed at the top of fuzz_world.inc.
 */
#define _GNU_SOURCE   /* fmemopen, open_memstream: a world dumped and loaded again */
#define FUZZ_TEMPLATE "fuzz_world.inc"
#define FUZZ_RUN_2D   shove2__fuzz_world
#define FUZZ_RUN_3D   shove3__fuzz_world
#include "fuzz_harness.h"
