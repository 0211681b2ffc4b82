/* tests/fuzz/standalone.c -- runs a fuzz harness over files, without
 * libFuzzer: what `make test` (and `make asan`) do with each harness and
 * its seed corpus, as a regression test.  With no arguments it runs every
 * file of FUZZ_CORPUS (the harness's directory under tests/fuzz/corpus/,
 * set by the Makefile); otherwise the files and directories given.  It
 * prints cmocka's summary lines so mk/run-tests.sh counts the inputs.  A
 * harness reports a finding by crashing (abort, a sanitizer), as under
 * libFuzzer. */
#include <dirent.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "fuzz: %s: cannot open\n", path);
        return -1;
    }
    size_t cap = 4096, n = 0;
    uint8_t *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            uint8_t *b = realloc(buf, cap *= 2);
            if (!b) {
                free(buf);
                buf = NULL;
            }
            buf = b;
        }
    }
    fclose(f);
    if (!buf)
        return -1;
    /* an exact-size copy, so reading past the input is caught */
    uint8_t *exact = malloc(n ? n : 1);
    if (!exact) {
        free(buf);
        return -1;
    }
    memcpy(exact, buf, n);
    free(buf);
    LLVMFuzzerTestOneInput(exact, n);
    free(exact);
    return 0;
}

static int cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every regular file of dir, in name order; the count run, -1 on error. */
static int run_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "fuzz: %s: cannot open\n", dir);
        return -1;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            char **v = realloc(names, cap * sizeof *v);
            if (!v)
                break;
            names = v;
        }
        size_t l = strlen(dir) + strlen(e->d_name) + 2;
        names[n] = malloc(l);
        if (!names[n])
            break;
        snprintf(names[n++], l, "%s/%s", dir, e->d_name);
    }
    closedir(d);
    qsort(names, n, sizeof *names, cmp);
    int count = 0;
    for (size_t i = 0; i < n; i++) {
        struct stat st;
        if (stat(names[i], &st) == 0 && S_ISREG(st.st_mode)) {
            if (run_file(names[i]) < 0)
                count = -1;
            else if (count >= 0)
                count++;
        }
        free(names[i]);
    }
    free(names);
    return count;
}

int main(int argc, char **argv)
{
    if (LLVMFuzzerInitialize)
        LLVMFuzzerInitialize(&argc, &argv);
    int total = 0;
    bool failed = false;
    if (argc < 2) {
        total = run_dir(FUZZ_CORPUS);
        failed = total <= 0; /* an empty or missing corpus is a failure too */
    }
    for (int i = 1; i < argc; i++) {
        struct stat st;
        int n = stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode) ? run_dir(argv[i])
                                                              : run_file(argv[i]) == 0 ? 1 : -1;
        if (n < 0)
            failed = true;
        else
            total += n;
    }
    printf("[==========] %d input(s) run.\n", total < 0 ? 0 : total);
    if (failed) {
        printf("[  FAILED  ] 1 test(s), listed below:\n");
        return 1;
    }
    printf("[  PASSED  ] %d test(s).\n", total);
    return 0;
}
