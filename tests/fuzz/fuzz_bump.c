/*
 * fuzz_bump.c: libFuzzer harness for the bump grid (shove2_bump_grid_* and
 * shove3_bump_grid_*), the broad phase and default move of the LuaJIT
 * modules. The first byte picks the dimension; the rest is a script of adds,
 * updates, removes, queries and moves. The checks are listed at the top of
 * fuzz_bump.inc.
 */
#define FUZZ_TEMPLATE "fuzz_bump.inc"
#define FUZZ_RUN_2D   shove2__fuzz_bump
#define FUZZ_RUN_3D   shove3__fuzz_bump
#include "fuzz_harness.h"
