/*
 * bench_util.h: what the benchmarks share (dimension-free): a clock in
 * nanoseconds, the xorshift64 stream their scenes are drawn from, so
 * every bench draws the same kind of numbers from a seed, and the FNV-1a
 * step of the checksums they print over results, and the median of a
 * bench's repeated runs. Include after
 * the system headers (clock_gettime needs _GNU_SOURCE or _POSIX_C_SOURCE).
 */
#ifndef SHOVE_BENCH_UTIL_H
#define SHOVE_BENCH_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

/** Now on `clock` (CLOCK_MONOTONIC for wall time, CLOCK_THREAD_CPUTIME_ID
 *  for CPU time), in nanoseconds. */
static inline double bench_clock_ns(clockid_t clock) {
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/** xorshift64: the next float in [lo, hi) from state `s` (24 bits). */
static inline float bench_uniform(uint64_t *s, float lo, float hi) {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return lo + (hi - lo) * (float)(*s >> 40) * (1.0f / 16777216.0f);
}

/** qsort's order of doubles, ascending. */
static inline int bench_by_double(const void *pa, const void *pb) {
    const double a = *(const double *)pa, b = *(const double *)pb;
    return a < b ? -1 : (a > b);
}
/** The median of the `n` values at v (n >= 1; sorts them). */
static inline double bench_median(double *v, int n) {
    qsort(v, (size_t)n, sizeof *v, bench_by_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/** The most pairs of runs a bench line takes (SHOVE_BENCH_PAIRS). */
enum { BENCH_MAX_PAIRS = 15 };

/** SHOVE_BENCH_PAIRS: how many back-to-back pairs of runs each line of
 *  bench_slide and bench_voxel takes (1 to BENCH_MAX_PAIRS), else 1. */
static inline int bench_pairs_wanted(void) {
    const char *text = getenv("SHOVE_BENCH_PAIRS");
    const int pairs = text ? atoi(text) : 1;
    return pairs < 1 ? 1 : (pairs > BENCH_MAX_PAIRS ? BENCH_MAX_PAIRS : pairs);
}

/** Where bench_bump_grid's and bench_step's checksums start. Not FNV's
 *  own offset basis (bench_voxel starts from that one): a digit short of
 *  it, kept so that the checksums recorded for those benches stay. */
#define BENCH_HASH_START 1469598103934665603u

/** FNV-1a over the `n` bytes at `p`, into *h. */
static inline void bench_hash_bytes(uint64_t *h, const void *p, size_t n) {
    const unsigned char *b = p;
    for (size_t i = 0; i < n; ++i) {
        *h = (*h ^ b[i]) * 1099511628211u;
    }
}

#endif
