/*
 * replay_main.c: feeds files to a fuzz harness without libFuzzer, so every
 * kept input (tests/fuzz/corpus/NAME/) is checked by `make test` with an
 * ordinary compiler. Arguments are files or directories (every regular file
 * in them, in name order). A failed check aborts, which fails the test.
 *
 * `--random N SEED` feeds N pseudo-random inputs instead (sizes 0 to 4096
 * bytes, the same ones for the same seed): a driver built for a machine
 * without libFuzzer (tools/cross-test runs the AArch64 build under qemu)
 * still sees many inputs, not only the kept ones.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "cannot open %s\n", path);
        return 1;
    }
    size_t cap = 4096, size = 0;
    uint8_t *data = malloc(cap);
    for (size_t got; data && (got = fread(data + size, 1, cap - size, f)) > 0;) {
        size += got;
        if (size == cap) {
            uint8_t *bigger = realloc(data, cap * 2);
            if (!bigger) {
                free(data);
                data = NULL;
                break;
            }
            data = bigger;
            cap *= 2;
        }
    }
    fclose(f);
    if (!data) {
        fprintf(stderr, "out of memory reading %s\n", path);
        return 1;
    }
    LLVMFuzzerTestOneInput(data, size);
    free(data);
    return 0;
}

static int compare_names(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int run_dir(const char *dir, int *files) {
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "cannot open directory %s\n", dir);
        return 1;
    }
    char **names = NULL;
    size_t count = 0, cap = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        if (e->d_name[0] == '.') {
            continue;
        }
        if (count == cap) {
            cap = cap ? cap * 2 : 64;
            char **bigger = realloc(names, cap * sizeof *names);
            if (!bigger) {
                closedir(d);
                return 1;
            }
            names = bigger;
        }
        const size_t len = strlen(dir) + strlen(e->d_name) + 2;
        names[count] = malloc(len);
        if (!names[count]) {
            closedir(d);
            return 1;
        }
        snprintf(names[count], len, "%s/%s", dir, e->d_name);
        ++count;
    }
    closedir(d);
    qsort(names, count, sizeof *names, compare_names);
    int failed = 0;
    for (size_t i = 0; i < count; ++i) {
        struct stat st;
        if (stat(names[i], &st) == 0 && S_ISREG(st.st_mode)) {
            failed |= run_file(names[i]);
            ++*files;
        }
        free(names[i]);
    }
    free(names);
    return failed;
}

/* splitmix64 */
static uint64_t next_random(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static int run_random(long count, uint64_t seed) {
    static uint8_t data[4096 + 8];
    uint64_t state = seed;
    for (long i = 0; i < count; ++i) {
        const size_t size = (size_t)(next_random(&state) % 4097u);
        for (size_t k = 0; k < size; k += 8) {
            const uint64_t bits = next_random(&state);
            memcpy(data + k, &bits, sizeof bits);
        }
        LLVMFuzzerTestOneInput(data, size);
    }
    printf("%ld random inputs passed\n", count);
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 4 && strcmp(argv[1], "--random") == 0) {
        const long count = strtol(argv[2], NULL, 10);
        if (count <= 0) {
            fprintf(stderr, "--random: need a positive count\n");
            return 1;
        }
        return run_random(count, strtoull(argv[3], NULL, 10));
    }
    int failed = 0, files = 0;
    for (int i = 1; i < argc; ++i) {
        struct stat st;
        if (stat(argv[i], &st) != 0) {
            fprintf(stderr, "no such file or directory: %s\n", argv[i]);
            failed = 1;
        } else if (S_ISDIR(st.st_mode)) {
            failed |= run_dir(argv[i], &files);
        } else {
            failed |= run_file(argv[i]);
            ++files;
        }
    }
    if (files == 0) {
        fprintf(stderr, "no inputs\n");
        return 1;
    }
    printf("%d inputs passed\n", files);
    return failed;
}
