/*
 * slide_limits.h: the fixed sizes and counts of the slide core, shared by
 * its templates (solve/move_def.c to solve/slide_list.c; the core is
 * described at the top of solve/slide.c). The same for both dimensions.
 */
#ifndef SHOVE_SLIDE_LIMITS_
#define SHOVE_SLIDE_LIMITS_

/* Obstacles handed to the overlap kernel at once (indices live on the stack). */
#define SLIDE_SCAN_CHUNK 256
/* Boxes of a shove3_slide list read at once (their indices live on the
 * stack): one list scan call reads 1,000 boxes. */
#define SLIDE_LIST_CHUNK 1024
/* Sets this small are scanned by a plain loop instead of a batch kernel. */
#define SLIDE_SCALAR_SCAN 8
/* Largest max_iterations a def may ask for. */
#define SLIDE_MAX_ITERATIONS 64
/* Obstacles remembered to keep contacts unique (see the top of slide.c). */
#define SLIDE_REPORTED_KEYS 64
/* Rounds of the rounding fix-up of step 4 before a leg is dropped. */
#define SLIDE_FIX_ROUNDS 4
/* Candidates of one leg kept for its later passes (a leg near more than
 * this many obstacles scans the set again for each pass instead). */
#define SLIDE_LEG_CANDIDATES 32
/* Keeps a rarely taken branch's work out of a hot function. */
#if defined(__GNUC__) || defined(__clang__)
#define SLIDE_NOINLINE __attribute__((noinline))
#else
#define SLIDE_NOINLINE
#endif

#endif
