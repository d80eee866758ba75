/*
 * bench_batch.c: the struct-of-arrays batch kernels (shove2/3_overlap_batch,
 * shove2/3_sweep_batch) at every SIMD level this CPU has, next to a plain
 * array-of-structs C loop compiled with the project's normal flags.
 *
 * Four workloads, each at N = 3 ... 1M boxes (see `sizes`), in 2D and 3D:
 *   overlap 10%      a query box that overlaps about 10% of scattered boxes:
 *                    the scalar loops' branches mispredict often
 *   overlap all      a query that overlaps every box: predictable branches,
 *                    every box written out (the scalar loops' best case)
 *   sweep dense      every box lies across the mover's path, so every box
 *                    goes through the divisions of the slab test
 *   sweep scattered  a mover crossing scattered boxes: most blocks of boxes
 *                    are rejected before dividing (the plain loop and the
 *                    scalar level divide for every box on moving axes)
 *
 * After the workloads, "overlap all" is set against its memory floor: a loop
 * that only reads every coordinate and writes every index. Once the boxes
 * leave the core's caches no kernel can beat it, which caps avx2/sc there.
 *
 * Prints a table per workload, writes batch.csv and batch.svg into the
 * directory given as argv[1] (default "."). Cycles per box come from the
 * CPU's cycle counter through perf_event_open, when the kernel allows it.
 *
 * Usage: bench_batch [output-directory]
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <shove/shove.h>

#include "bench_util.h"

#if defined(__linux__)
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#define WORLD   100.0f
#define QUERIES 4096

/* Powers of two from 64 to 1M, and sizes that are not a multiple of any
 * level's width (the last, partial block) down to batches smaller than one
 * block (which the wide levels hand to a narrower one). */
enum { N_SIZES = 12 };
static const size_t sizes[N_SIZES] = {3,    7,    64,    65,    256,    1001,
                                      1024, 4096, 16384, 65536, 262144, 1048576};

enum { KERNEL_OVERLAP, KERNEL_OVERLAP_ALL, KERNEL_SWEEP_DENSE, KERNEL_SWEEP_SCATTERED, N_KERNELS };
static const char *const kernel_names[N_KERNELS] = {"overlap 10%", "overlap all", "sweep dense",
                                                    "sweep scattered"};
static const char *const kernel_ids[N_KERNELS] = {"overlap_10", "overlap_all", "sweep_dense",
                                                  "sweep_scattered"};

/* Implementation 0 is the plain loop; 1 + level is a SIMD level. */
enum { IMPL_PLAIN = 0, N_IMPLS = 1 + SHOVE_SIMD_LEVEL_COUNT };
static const char *impl_names[N_IMPLS] = {"plain C"};

typedef struct bench_result {
    bool ran;
    double ns_per_box;
    double cycles_per_box; /* < 0 when not measured */
} bench_result;

static bench_result results[2][N_KERNELS][N_SIZES][N_IMPLS];

/* The memory floor of "overlap all" (batch_bench.inc's floor_loop), per
 * dimension and size. On x86 with GCC or Clang the loop is compiled for AVX2
 * by a function attribute and runs only on CPUs that have it. */
static bench_result floor_results[2][N_SIZES];
#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#define BENCH_FLOOR_TARGET __attribute__((target("avx2")))
static bool floor_runs(void) {
    return __builtin_cpu_supports("avx2");
}
#else
#define BENCH_FLOOR_TARGET
static bool floor_runs(void) {
    return true;
}
#endif

static void *xmalloc(size_t bytes) {
    void *p = malloc(bytes ? bytes : 1);
    if (!p) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    return p;
}

/* >>timing ------------------------------------------------------------------ */

/* CPU time of this thread: on a shared machine a sample during which the
 * scheduler ran something else is not counted as the kernel's time. Every
 * implementation is timed the same way. */
static double now_ns(void) {
    return bench_clock_ns(CLOCK_THREAD_CPUTIME_ID);
}

static int perf_fd = -1;
static char perf_note[160] = "perf_event_open not tried";

static void perf_init(void) {
#if defined(__linux__)
    struct perf_event_attr attr;
    memset(&attr, 0, sizeof attr);
    attr.type = PERF_TYPE_HARDWARE;
    attr.size = sizeof attr;
    attr.config = PERF_COUNT_HW_CPU_CYCLES;
    attr.exclude_kernel = 1;
    attr.exclude_hv = 1;
    perf_fd = (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
    if (perf_fd < 0) {
        snprintf(perf_note, sizeof perf_note,
                 "cycles: not available (perf_event_open: %s); ns only", strerror(errno));
    } else {
        snprintf(perf_note, sizeof perf_note, "cycles: user-mode core cycles from perf_event_open");
    }
#else
    snprintf(perf_note, sizeof perf_note, "cycles: not available on this OS; ns only");
#endif
}

static uint64_t perf_read(void) {
    uint64_t v = 0;
#if defined(__linux__)
    if (perf_fd >= 0 && read(perf_fd, &v, sizeof v) != (ssize_t)sizeof v) {
        v = 0;
    }
#endif
    return v;
}

static volatile uint64_t sink;

/* Best of several samples, each long enough to time reliably. */
static void measure(uint64_t (*run)(void *), void *ctx, size_t count, bench_result *r,
                    uint64_t *answer) {
    const double target_ns = 2e6;
    *answer = run(ctx); /* warm-up, and the answer the caller checks */
    /* Repetitions per sample from warm calls: double them until a round
     * takes a tenth of a sample, then scale to target_ns. Every sample of
     * every implementation then lasts about as long, so the clock's own cost
     * weighs the same on each (a cold first call, timed alone, used to
     * shorten a fast kernel's samples more than a slow one's). */
    long reps = 1;
    for (;;) {
        const double start = now_ns();
        uint64_t acc = 0;
        for (long i = 0; i < reps; ++i) {
            acc += run(ctx);
        }
        const double took = now_ns() - start;
        sink += acc;
        if (took >= target_ns / 10 || reps >= (1L << 30)) {
            reps = (long)((double)reps * target_ns / (took > 1.0 ? took : 1.0));
            break;
        }
        reps *= 2;
    }
    reps = reps < 1 ? 1 : reps;
    double t0;
    r->ns_per_box = INFINITY;
    r->cycles_per_box = -1.0;
    for (int sample = 0; sample < 5; ++sample) {
        const uint64_t c0 = perf_read();
        t0 = now_ns();
        uint64_t acc = 0;
        for (long i = 0; i < reps; ++i) {
            acc += run(ctx);
        }
        const double ns = (now_ns() - t0) / ((double)reps * (double)count);
        const uint64_t c1 = perf_read();
        sink += acc;
        if (ns < r->ns_per_box) {
            r->ns_per_box = ns;
            if (perf_fd >= 0 && c1 > c0) {
                r->cycles_per_box = (double)(c1 - c0) / ((double)reps * (double)count);
            }
        }
    }
    r->ran = true;
}

/* >>both dimensions --------------------------------------------------------- */

#define SHOVE_DIM 2
#include "dim.h"
#include "batch_bench.inc"
#include "dim_end.h"

#define SHOVE_DIM 3
#include "dim.h"
#include "batch_bench.inc"
#include "dim_end.h"

/* >>reporting ---------------------------------------------------------------- */

static const bench_result *result(int dim, int kernel, int ni, int impl) {
    const bench_result *r = &results[dim - 2][kernel][ni][impl];
    return r->ran ? r : NULL;
}

/* Nominal clock from /proc/cpuinfo, for a cycles estimate when perf cannot
 * count them (turbo makes the real count higher). 0 when unknown. */
static double nominal_ghz;

static void print_tables(void) {
    const int avx2 = 1 + SHOVE_SIMD_AVX2, scalar = 1 + SHOVE_SIMD_SCALAR;
    const int sse2 = 1 + SHOVE_SIMD_SSE2;
    const bool cycles = perf_fd >= 0 || nominal_ghz > 0;
    for (int dim = 2; dim <= 3; ++dim) {
        for (int k = 0; k < N_KERNELS; ++k) {
            printf("\n%dD %s: ns per box\n", dim, kernel_names[k]);
            printf("%8s", "N");
            for (int impl = 0; impl < N_IMPLS; ++impl) {
                if (result(dim, k, 0, impl)) {
                    printf(" %8s", impl_names[impl]);
                }
            }
            printf(" | %8s %8s %8s %6s", "avx2/sc", "avx2/pl", "avx/sse", "lanes");
            if (cycles) {
                printf(" %9s", perf_fd >= 0 ? "avx2 cyc" : "avx2 ~cyc");
            }
            printf("\n");
            for (int ni = 0; ni < N_SIZES; ++ni) {
                printf("%8zu", sizes[ni]);
                for (int impl = 0; impl < N_IMPLS; ++impl) {
                    const bench_result *r = result(dim, k, ni, impl);
                    if (r) {
                        printf(" %8.3f", r->ns_per_box);
                    }
                }
                const bench_result *a = result(dim, k, ni, avx2);
                const bench_result *s = result(dim, k, ni, scalar);
                const bench_result *p = result(dim, k, ni, IMPL_PLAIN);
                const bench_result *v = result(dim, k, ni, sse2);
                if (a && s && p && v) {
                    const double best_scalar = fmin(s->ns_per_box, p->ns_per_box);
                    printf(" | %7.2fx %7.2fx %7.2fx %5.0f%%", s->ns_per_box / a->ns_per_box,
                           p->ns_per_box / a->ns_per_box, v->ns_per_box / a->ns_per_box,
                           100.0 * best_scalar / a->ns_per_box / 8.0);
                    if (perf_fd >= 0) {
                        printf(" %9.2f", a->cycles_per_box);
                    } else if (cycles) {
                        printf(" %9.2f", a->ns_per_box * nominal_ghz);
                    }
                }
                printf("\n");
            }
        }
    }
}

/* Overlap all against its memory floor: avx2/floor near 1 means the kernel
 * streams the boxes as fast as this core can; scalar/floor is the largest
 * avx2/sc any kernel could show at that size. */
static void print_floor(void) {
    const int avx2 = 1 + SHOVE_SIMD_AVX2, scalar = 1 + SHOVE_SIMD_SCALAR;
    for (int dim = 2; dim <= 3; ++dim) {
        const double bytes = (double)(2 * dim * sizeof(float) + sizeof(uint32_t));
        printf("\n%dD overlap all against its memory floor (read %d floats and write one index "
               "per box, %.0f bytes)\n",
               dim, 2 * dim, bytes);
        printf("%8s %8s %8s %8s | %10s %12s %10s %10s\n", "N", "floor", "avx2", "scalar",
               "avx2/floor", "scalar/floor", "floor GB/s", "avx2 GB/s");
        for (int ni = 0; ni < N_SIZES; ++ni) {
            const bench_result *f = &floor_results[dim - 2][ni];
            const bench_result *a = result(dim, KERNEL_OVERLAP_ALL, ni, avx2);
            const bench_result *s = result(dim, KERNEL_OVERLAP_ALL, ni, scalar);
            if (!f->ran || !a || !s) {
                continue;
            }
            printf("%8zu %8.3f %8.3f %8.3f | %9.2fx %11.2fx %10.1f %10.1f\n", sizes[ni],
                   f->ns_per_box, a->ns_per_box, s->ns_per_box, a->ns_per_box / f->ns_per_box,
                   s->ns_per_box / f->ns_per_box, bytes / f->ns_per_box, bytes / a->ns_per_box);
        }
    }
}

static void write_csv(const char *dir) {
    char path[1024];
    snprintf(path, sizeof path, "%s/batch.csv", dir);
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "cannot write %s\n", path);
        return;
    }
    fprintf(f, "dim,workload,n,impl,ns_per_box,cycles_per_box\n");
    for (int dim = 2; dim <= 3; ++dim) {
        for (int k = 0; k < N_KERNELS; ++k) {
            for (int ni = 0; ni < N_SIZES; ++ni) {
                for (int impl = 0; impl < N_IMPLS; ++impl) {
                    const bench_result *r = result(dim, k, ni, impl);
                    if (!r) {
                        continue;
                    }
                    fprintf(f, "%d,%s,%zu,%s,%.4f,", dim, kernel_ids[k], sizes[ni],
                            impl_names[impl], r->ns_per_box);
                    if (r->cycles_per_box >= 0.0) {
                        fprintf(f, "%.4f", r->cycles_per_box);
                    }
                    fprintf(f, "\n");
                }
            }
        }
        for (int ni = 0; ni < N_SIZES; ++ni) {
            const bench_result *r = &floor_results[dim - 2][ni];
            if (r->ran) {
                fprintf(f, "%d,overlap_all,%zu,memory floor,%.4f,", dim, sizes[ni], r->ns_per_box);
                if (r->cycles_per_box >= 0.0) {
                    fprintf(f, "%.4f", r->cycles_per_box);
                }
                fprintf(f, "\n");
            }
        }
    }
    fclose(f);
    printf("\nwrote %s\n", path);
}

/* Where size ni goes on a panel's N axis (log scale). */
static double size_x(double x0, double pw, int ni) {
    const double lo = log((double)sizes[0]), hi = log((double)sizes[N_SIZES - 1]);
    return x0 + pw * (log((double)sizes[ni]) - lo) / (hi - lo);
}

/* One panel per (dimension, workload): ns per box against N, both on log
 * scales, one line per implementation. */
static void write_svg(const char *dir) {
    char path[1024];
    snprintf(path, sizeof path, "%s/batch.svg", dir);
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "cannot write %s\n", path);
        return;
    }
    static const char *const colors[N_IMPLS] = {"#444444", "#d62728", "#ff7f0e",
                                                "#bcbd22", "#1f77b4", "#2ca02c"};
    const double pw = 300, ph = 220, ml = 56, mt = 40, gap = 70;
    const double width = ml + N_KERNELS * (pw + gap), height = mt + 2 * (ph + gap) + 30;
    fprintf(f,
            "<svg xmlns='http://www.w3.org/2000/svg' width='%.0f' height='%.0f' "
            "font-family='sans-serif' font-size='11'>\n"
            "<rect width='100%%' height='100%%' fill='white'/>\n"
            "<text x='%.0f' y='18' font-size='14'>shove batch kernels: ns per box "
            "(log) against N (log)</text>\n",
            width, height, ml);
    for (int dim = 2; dim <= 3; ++dim) {
        for (int k = 0; k < N_KERNELS; ++k) {
            const double x0 = ml + k * (pw + gap), y0 = mt + (dim - 2) * (ph + gap);
            double lo = INFINITY, hi = 0;
            for (int ni = 0; ni < N_SIZES; ++ni) {
                for (int impl = 0; impl < N_IMPLS; ++impl) {
                    const bench_result *r = result(dim, k, ni, impl);
                    if (r && r->ns_per_box > 0) {
                        lo = fmin(lo, r->ns_per_box);
                        hi = fmax(hi, r->ns_per_box);
                    }
                }
            }
            if (!(hi > 0)) {
                continue;
            }
            const double llo = floor(log10(lo)), lhi = ceil(log10(hi)) + (lo == hi);
            fprintf(f,
                    "<rect x='%.1f' y='%.1f' width='%.1f' height='%.1f' fill='none' "
                    "stroke='#999'/>\n<text x='%.1f' y='%.1f' font-size='12'>%dD %s</text>\n",
                    x0, y0, pw, ph, x0, y0 - 6, dim, kernel_names[k]);
            for (double e = llo; e <= lhi; e += 1) {
                const double y = y0 + ph - (e - llo) / (lhi - llo) * ph;
                fprintf(f,
                        "<line x1='%.1f' y1='%.1f' x2='%.1f' y2='%.1f' stroke='#ddd'/>"
                        "<text x='%.1f' y='%.1f' text-anchor='end'>%g</text>\n",
                        x0, y, x0 + pw, y, x0 - 4, y + 4, pow(10, e));
            }
            double last_label = -INFINITY;
            for (int ni = 0; ni < N_SIZES; ++ni) {
                const double x = size_x(x0, pw, ni);
                if (x - last_label < 24) {
                    continue; /* too close to the previous label */
                }
                last_label = x;
                fprintf(f, "<text x='%.1f' y='%.1f' text-anchor='middle'>%zu%s</text>\n", x,
                        y0 + ph + 14,
                        sizes[ni] >= 1048576 ? sizes[ni] / 1048576
                        : sizes[ni] >= 1024  ? sizes[ni] / 1024
                                             : sizes[ni],
                        sizes[ni] >= 1048576 ? "M"
                        : sizes[ni] >= 1024  ? "k"
                                             : "");
            }
            for (int impl = 0; impl < N_IMPLS; ++impl) {
                if (!result(dim, k, 0, impl)) {
                    continue;
                }
                fprintf(f, "<polyline fill='none' stroke='%s' stroke-width='2' points='",
                        colors[impl]);
                for (int ni = 0; ni < N_SIZES; ++ni) {
                    const bench_result *r = result(dim, k, ni, impl);
                    if (r && r->ns_per_box > 0) {
                        const double x = size_x(x0, pw, ni);
                        const double y = y0 + ph - (log10(r->ns_per_box) - llo) / (lhi - llo) * ph;
                        fprintf(f, "%.1f,%.1f ", x, y);
                    }
                }
                fprintf(f, "'/>\n");
            }
        }
    }
    /* Legend. */
    double lx = ml;
    const double ly = height - 14;
    for (int impl = 0; impl < N_IMPLS; ++impl) {
        if (!result(2, 0, 0, impl)) {
            continue;
        }
        fprintf(f,
                "<line x1='%.1f' y1='%.1f' x2='%.1f' y2='%.1f' stroke='%s' stroke-width='3'/>"
                "<text x='%.1f' y='%.1f'>%s</text>\n",
                lx, ly, lx + 20, ly, colors[impl], lx + 24, ly + 4, impl_names[impl]);
        lx += 100;
    }
    fprintf(f, "</svg>\n");
    fclose(f);
    printf("wrote %s\n", path);
}

static void print_cpu(void) {
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[256];
    bool have_model = false;
    while (f && fgets(line, sizeof line, f) && (!have_model || nominal_ghz <= 0)) {
        const char *colon = strchr(line, ':');
        if (!colon) {
            continue;
        }
        if (!have_model && strncmp(line, "model name", 10) == 0) {
            printf("cpu: %s", colon + 2);
            have_model = true;
        } else if (nominal_ghz <= 0 && strncmp(line, "cpu MHz", 7) == 0) {
            nominal_ghz = atof(colon + 1) / 1000.0;
        }
    }
    if (f) {
        fclose(f);
    }
}

int main(int argc, char **argv) {
    const char *dir = argc > 1 ? argv[1] : ".";
    for (int level = 0; level < SHOVE_SIMD_LEVEL_COUNT; ++level) {
        impl_names[1 + level] = shove_simd_name((shove_simd)level);
    }
    const shove_simd best = shove_simd_active();
    perf_init();
    print_cpu();
    printf("%s\n", perf_note);
    if (perf_fd < 0 && nominal_ghz > 0) {
        printf("avx2 ~cyc = ns x %.3f GHz, the nominal clock in /proc/cpuinfo (an estimate)\n",
               nominal_ghz);
    }
    printf("columns: plain C = array-of-structs loop compiled with the project's flags;\n"
           "  scalar, sse2, ... = shove's levels; avx2/sc, avx2/pl, avx/sse = speedups of avx2\n"
           "  over the scalar level, the plain loop and sse2; lanes = avx2 against the\n"
           "  8-lane ideal, (faster of plain C and scalar) / 8, in percent\n");
    run_all2();
    run_all3();
    shove_simd_select(best);
    print_tables();
    print_floor();
    write_csv(dir);
    write_svg(dir);
    return sink == 42u ? 1 : 0;
}
