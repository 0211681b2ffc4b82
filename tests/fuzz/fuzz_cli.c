/* tests/fuzz/fuzz_cli.c -- emberlint's whole command line on mutated
 * sources.
 *
 * The input is a small tree: parts separated by "\n--- " marker lines
 * become src/a.c, src/a.h, backends/blas/k.c and .emberlint.json (the
 * first part alone is just a .c file).  emberlint runs in-process on it
 * (lint/main.c compiled with main renamed) several ways, and they must
 * agree:
 *
 *   --no-cache, a cold cache run and a warm cache run print the same JSON
 *   and SARIF reports (the cache never changes an answer; SARIF's entries
 *   keep the fixes);
 *   --diff changes nothing on disk;
 *   --fix converges: after a few runs (a fix that overlapped another is
 *   left for the next run), one more changes nothing.
 *
 * Exit statuses 0, 1 and 2 are all answers; a disagreement aborts. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz_util.h"
#include "mem.h"
#include "path.h"
#include "strbuf.h"

int emberlint_main(int argc, char **argv);

static char *dir, *inc;
static const char *const names[] = {"src/a.c", "src/a.h", "backends/blas/k.c", ".emberlint.json"};

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    el_buf b = {0};
    char chunk[4096];
    size_t got;
    while ((got = fread(chunk, 1, sizeof chunk, f)) > 0)
        el_buf_putn(&b, chunk, got);
    fclose(f);
    if (len)
        *len = b.n;
    return el_buf_take(&b);
}

/* emberlint ARGS... -- -I<libeh headers>, from dir. */
static int run(const char *const *args)
{
    char *argv[24];
    int argc = 0;
    argv[argc++] = "emberlint";
    for (; *args; args++)
        argv[argc++] = (char *)*args;
    argv[argc++] = "src";
    argv[argc++] = "backends";
    argv[argc++] = "--";
    argv[argc++] = inc;
    argv[argc] = NULL;
    char cwd[4096];
    if (!getcwd(cwd, sizeof cwd) || chdir(dir) != 0)
        abort();
    fflush(NULL);
    int rc = emberlint_main(argc, argv);
    if (chdir(cwd) != 0)
        abort();
    if (rc < 0 || rc > 2) {
        fprintf(stderr, "fuzz_cli: emberlint exited with %d\n", rc);
        abort();
    }
    return rc;
}

static char *report(const char *const *args, const char *format, int *rc)
{
    const char *v[16];
    int n = 0;
    for (; *args; args++)
        v[n++] = *args;
    v[n++] = "--format";
    v[n++] = format;
    v[n++] = "-o";
    v[n++] = "out.json";
    v[n] = NULL;
    char *out = el_path_join(dir, "out.json");
    unlink(out);
    *rc = run(v);
    char *text = slurp(out, NULL);
    unlink(out);
    free(out);
    return text ? text : el_xstrdup("");
}

static void must_equal(const char *a, const char *b, const char *what)
{
    if (strcmp(a, b) != 0) {
        fprintf(stderr, "fuzz_cli: %s differ:\n--- first\n%s\n--- second\n%s\n", what, a, b);
        abort();
    }
}

/* The tree's files, concatenated with their names. */
static char *snapshot(void)
{
    el_buf b = {0};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char *p = el_path_join(dir, names[i]);
        size_t len = 0;
        char *t = slurp(p, &len);
        el_buf_printf(&b, "== %s\n", names[i]);
        if (t)
            el_buf_putn(&b, t, len);
        free(t);
        free(p);
    }
    return el_buf_take(&b);
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    /* not el_path_init(): emberlint_main does it, in the scratch directory
     * (it remembers the first current directory it sees) */
    dir = fuzz_tmpdir();
    inc = el_xasprintf("-I%s/libeh/include", FUZZ_SRCDIR);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!dir)
        LLVMFuzzerInitialize(NULL, NULL);
    fuzz_clear(dir);
    const uint8_t *parts[4];
    size_t lens[4];
    size_t n = fuzz_split(data, size, parts, lens, 4);
    static const char *const dirs[] = {"src", "backends", "backends/blas"};
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
        char *d = el_path_join(dir, dirs[i]);
        mkdir(d, 0755);
        free(d);
    }
    for (size_t i = 0; i < n; i++) {
        char *p = el_path_join(dir, names[i]);
        fuzz_write(p, parts[i], lens[i]);
        free(p);
    }

    int rc1, rc2, rc3;
    static const char *const nocache[] = {"--no-cache", "-j", "1", NULL};
    static const char *const cached[] = {"--cache-dir", "cache", "-j", "2", NULL};
    /* JSON, then SARIF (its entries keep the fixes: another cache key) */
    static const char *const formats[] = {"json", "sarif"};
    for (size_t k = 0; k < 2; k++) {
        char *a = report(nocache, formats[k], &rc1);
        char *b = report(cached, formats[k], &rc2);
        char *c = report(cached, formats[k], &rc3);
        must_equal(a, b, "--no-cache and a cold cache run's reports");
        must_equal(a, c, "--no-cache and a warm cache run's reports");
        if (rc1 != rc2 || rc1 != rc3) {
            fprintf(stderr, "fuzz_cli: exit statuses %d %d %d\n", rc1, rc2, rc3);
            abort();
        }
        free(a);
        free(b);
        free(c);
    }

    if (size && data[0] & 1) { /* the fix paths, on some inputs (they parse three times) */
        char *before = snapshot();
        static const char *const diff[] = {"--diff", "--unsafe-fixes", "-o", "diff.txt", NULL};
        run(diff);
        char *after = snapshot();
        must_equal(before, after, "the tree before and after --diff");
        static const char *const fix[] = {"--fix", "--unsafe-fixes", "--no-cache", "-o",
                                          "fix.txt", NULL};
        char *prev = after;
        int runs = 0;
        for (;;) {
            run(fix);
            char *now = snapshot();
            bool same = strcmp(prev, now) == 0;
            free(prev);
            prev = now;
            if (same)
                break;
            if (++runs == 4) {
                fprintf(stderr, "fuzz_cli: --fix still changes the tree after 4 runs\n");
                abort();
            }
        }
        free(prev);
        free(before);
    }
    return 0;
}
