/*
 * fuzz_slide.c: libFuzzer harness for shove2_slide and shove3_slide. The
 * first byte picks the dimension; the rest is the scene (fuzz_scene.h). The
 * checks are listed at the top of fuzz_slide.inc.
 */
#define FUZZ_TEMPLATE "fuzz_slide.inc"
#define FUZZ_RUN_2D   shove2__fuzz_slide
#define FUZZ_RUN_3D   shove3__fuzz_slide
#include "fuzz_harness.h"
