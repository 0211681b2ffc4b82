/* tests/lint/test_cache.c -- the result cache: a warm run prints exactly
 * what the cold run printed and answers every TU from the cache (bench/
 * measures how much faster); an edited included header, file or configuration invalidates
 * what depends on it; files that do not parse are cached too; a corrupt or
 * unusable cache is never fatal; runs at once on one cache leave every
 * entry whole and no temporary file.  (test_cache_trust.c: entries as input,
 * shadowing headers, moved trees; test_cache_property.c: random edits.) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "clang_api.h" /* EL_LIBCLANG_PATH */
#include "lint_test.h"
#include "hash.h"

/* "N translation units (M from the cache)" from -v. */
static void tu_counts(const char *err, unsigned *tus, unsigned *cached)
{
    const char *p = strstr(err, " files, ");
    assert_non_null(p);
    assert_int_equal(sscanf(p, " files, %u translation units (%u from the cache)", tus, cached), 2);
}

static tt_run lint(const char *a, const char *b)
{
    return lt_lint(tt_dir, "-v", "--cache-dir", "cache", "--format", "json", a, b, NULL);
}

static void make_tree(int nfiles)
{
    tt_w("src/common.h", "#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n#include <math.h>\n");
    for (int i = 0; i < nfiles; i++) {
        char name[64], body[512];
        snprintf(name, sizeof name, "src/f%02d.c", i);
        snprintf(body, sizeof body,
                 "#include \"common.h\"\n%s"
                 "double f%d(double x) { char b[32]; snprintf(b, sizeof b, \"%%g\", x); return sqrt(x) + strlen(b); }\n",
                 i % 5 == 0 ? "#include <cblas.h>\n" : "", i);
        tt_w(name, body);
    }
}

/* Entries are named by their key's hex: 32 lower-case digits, high half first. */
static void test_hash_hex(void **state)
{
    (void)state;
    char hex[33];
    el_hash_hex((el_hash128){0x0123456789abcdefull, 0xfedcba9876543210ull}, hex);
    assert_string_equal(hex, "0123456789abcdeffedcba9876543210");
    el_hash_hex((el_hash128){0, 1}, hex);
    assert_string_equal(hex, "00000000000000000000000000000001");
    el_hash_hex((el_hash128){~0ull, 0xa0ull << 56}, hex);
    assert_string_equal(hex, "ffffffffffffffffa000000000000000");
}

static void test_warm_run_identical(void **state)
{
    (void)state;
    make_tree(30);
    tt_run cold = lint("src", NULL);
    unsigned tus, cached;
    tu_counts(cold.err, &tus, &cached);
    assert_int_equal(tus, 30);
    assert_int_equal(cached, 0);

    tt_run warm = lint("src", NULL);
    tu_counts(warm.err, &tus, &cached);
    assert_int_equal(tus, 30);
    assert_int_equal(cached, 30);
    assert_int_equal(cold.status, 1);
    assert_int_equal(warm.status, cold.status);
    assert_string_equal(warm.out, cold.out);
    json_object *j = tt_json(warm.out);
    assert_int_equal(lt_count_rule(j, "EH101"), 6);
    json_object_put(j);
    tt_free(&cold);
    tt_free(&warm);

    /* the cache is marked as such */
    char *tag = tt_path(tt_dir, "cache/CACHEDIR.TAG");
    struct stat st;
    assert_int_equal(stat(tag, &st), 0);
    free(tag);
}

/* lint src with EMBERLINT_LIBCLANG=lib, with the cache in cache/ or none */
static tt_run lint_with_libclang(const char *lib, bool cached)
{
    char *env_lib = tt_fmt("EMBERLINT_LIBCLANG=%s", lib);
    const char *env[] = {env_lib, NULL};
    const char *argv[] = {"-v", "--select", LT_RULES, "--format", "json", "src",
                          cached ? "--cache-dir" : "--no-cache", cached ? "cache" : NULL, NULL};
    tt_run r = lt_emberlintv(tt_dir, argv, env);
    free(env_lib);
    return r;
}

/* A run the cache answers never loads libclang (clang_api.h): after the
 * cold run, the library is replaced by a file that cannot be loaded,
 * with the size and time the cache keys on; the warm run still gives the
 * same report, and only a run that must parse says it cannot load it. */
static void test_warm_run_needs_no_libclang(void **state)
{
    (void)state;
    make_tree(6);
    char *lib = tt_path(tt_dir, "libclang.so");
    assert_int_equal(symlink(EL_LIBCLANG_PATH, lib), 0);
    tt_run cold = lint_with_libclang(lib, true);
    unsigned tus, cached;
    tu_counts(cold.err, &tus, &cached);
    assert_int_equal(tus, 6);
    assert_int_equal(cached, 0);
    assert_int_equal(cold.status, 1);

    struct stat real;
    assert_int_equal(stat(EL_LIBCLANG_PATH, &real), 0);
    assert_int_equal(unlink(lib), 0);
    int fd = open(lib, O_WRONLY | O_CREAT | O_EXCL, 0644);
    assert_true(fd >= 0);
    assert_int_equal(ftruncate(fd, real.st_size), 0); /* zeros: no ELF header */
    const struct timespec times[2] = {real.st_atim, real.st_mtim};
    assert_int_equal(futimens(fd, times), 0);
    close(fd);

    tt_run warm = lint_with_libclang(lib, true);
    if (warm.status != cold.status)
        print_error("%s", warm.err);
    assert_int_equal(warm.status, cold.status);
    assert_string_equal(warm.out, cold.out);
    tu_counts(warm.err, &tus, &cached);
    assert_int_equal(cached, 6);

    tt_run parse = lint_with_libclang(lib, false);
    assert_int_equal(parse.status, 2);
    assert_string_equal(parse.out, "");
    assert_true(tt_contains(parse.err, "emberlint: cannot load libclang ("));
    tt_free(&cold);
    tt_free(&warm);
    tt_free(&parse);
    free(lib);
}

static void test_header_change_invalidates(void **state)
{
    (void)state;
    tt_w("src/util.h", "int util(void);\n");
    tt_w("src/a.c", "#include \"util.h\"\nint a(void) { return util(); }\n");
    tt_w("src/b.c", "#include <stddef.h>\nint b(void) { return 0; }\n");
    tt_run r = lint("src", NULL);
    assert_int_equal(r.status, 0);
    tt_free(&r);

    /* the included header now includes a backend header */
    tt_w("src/util.h", "#include <lapacke.h>\nint util(void);\n");
    r = lint("src", NULL);
    unsigned tus, cached;
    tu_counts(r.err, &tus, &cached);
    assert_int_equal(tus, 2);
    assert_int_equal(cached, 1); /* b.c only */
    assert_int_equal(r.status, 1);
    json_object *j = tt_json(r.out);
    assert_int_equal(lt_count_rule(j, "EH101"), 1);
    assert_string_equal(json_object_get_string(tt_get(json_object_array_get_idx(tt_get(j, "findings"), 0), "file")),
                        "src/util.h");
    json_object_put(j);
    tt_free(&r);

    /* the main file changes */
    tt_w("src/b.c", "#include <fftw3.h>\nint b(void) { return 0; }\n");
    r = lint("src", NULL);
    tu_counts(r.err, &tus, &cached);
    assert_int_equal(cached, 1); /* a.c only */
    j = tt_json(r.out);
    assert_int_equal(lt_count_rule(j, "EH101"), 2);
    json_object_put(j);
    tt_free(&r);

    /* the configuration changes */
    tt_w(".emberlint.json", "{\"rules\": {\"EH101\": \"note\"}}");
    r = lint("src", NULL);
    tu_counts(r.err, &tus, &cached);
    assert_int_equal(cached, 0);
    assert_int_equal(r.status, 0); /* notes do not fail */
    tt_free(&r);

    /* the compiler arguments change */
    r = lt_lint(tt_dir, "-v", "--cache-dir", "cache", "src", "--", "-DSOMETHING", NULL);
    tu_counts(r.err, &tus, &cached);
    assert_int_equal(cached, 0);
    tt_free(&r);
}

static void test_no_cache_and_bad_caches(void **state)
{
    (void)state;
    tt_w("src/a.c", "#include <cblas.h>\n");
    tt_run r = lt_lint(tt_dir, "--no-cache", "src", NULL);
    assert_int_equal(r.status, 1);
    tt_free(&r);
    char *def = tt_path(tt_dir, ".emberlint-cache");
    struct stat st;
    assert_int_not_equal(stat(def, &st), 0); /* --no-cache: nothing written */
    free(def);

    /* default directory */
    r = lt_lint(tt_dir, "src", NULL);
    tt_run again = lt_lint(tt_dir, "-v", "src", NULL);
    unsigned tus, cached;
    tu_counts(again.err, &tus, &cached);
    assert_int_equal(cached, 1);
    assert_string_equal(again.out, r.out);
    tt_free(&r);
    tt_free(&again);

    /* corrupt every entry: misses, same output */
    char *cdir = tt_path(tt_dir, ".emberlint-cache");
    DIR *d = opendir(cdir);
    assert_non_null(d);
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t n = strlen(e->d_name);
        if (n > 5 && strcmp(e->d_name + n - 5, ".json") == 0) {
            char *rel = tt_fmt(".emberlint-cache/%s", e->d_name);
            tt_w(rel, "{\"format\": 1, \"deps\": [[\"x\"]], \"findings\": 7");
            free(rel);
        }
    }
    closedir(d);
    free(cdir);
    r = lt_lint(tt_dir, "-v", "src", NULL);
    tu_counts(r.err, &tus, &cached);
    assert_int_equal(cached, 0);
    assert_int_equal(r.status, 1);
    assert_true(tt_contains(r.out, "src/a.c:1:1: error:"));
    tt_free(&r);

    /* a cache directory that cannot be one: a warning, then lint anyway */
    tt_w("notadir", "x");
    r = lt_lint(tt_dir, "--cache-dir", "notadir/cache", "src", NULL);
    assert_int_equal(r.status, 1);
    assert_true(tt_contains(r.err, "emberlint: warning: notadir/cache: cannot use as the cache directory"));
    assert_true(tt_contains(r.out, "src/a.c:1:1: error:"));
    tt_free(&r);
}

/* Files that do not parse are cached like the others (a warm run on a
 * tree with a few broken files stays fast), and miss like the others. */
static void test_parse_errors_cached(void **state)
{
    (void)state;
    tt_w("src/a.c", "#include \"later.h\"\nint a(void) { return LATER; }\n");
    tt_w("src/b.c", "int b(void) { return 1 +; }\n");
    tt_run r = lint("src", NULL);
    assert_int_equal(r.status, 1);
    unsigned tus, cached;
    tu_counts(r.err, &tus, &cached);
    assert_int_equal(cached, 0);
    tt_run again = lint("src", NULL);
    tu_counts(again.err, &tus, &cached);
    assert_int_equal(cached, 2);
    assert_string_equal(again.out, r.out);
    assert_true(tt_contains(again.out, "\"EH000\""));
    tt_free(&r);
    tt_free(&again);
    /* the missing header appears: a.c is linted again */
    tt_w("src/later.h", "#define LATER 1\n");
    r = lint("src", NULL);
    tu_counts(r.err, &tus, &cached);
    assert_int_equal(cached, 1); /* b.c */
    json_object *j = tt_json(r.out);
    assert_int_equal(lt_count_rule(j, "EH000"), 1);
    json_object_put(j);
    tt_free(&r);
}

/* Three cold runs at once on one cache directory (each writes every
 * entry: a temporary file of its own, renamed into place): no temporary
 * file is left, and the next run answers every TU from the cache with
 * the report a run without a cache gives. */
static void test_concurrent_runs(void **state)
{
    (void)state;
    make_tree(12);
    pid_t pids[3];
    for (int i = 0; i < 3; i++) {
        pids[i] = fork();
        assert_true(pids[i] >= 0);
        if (pids[i] == 0) {
            int null = open("/dev/null", O_WRONLY);
            if (null < 0 || chdir(tt_dir) != 0)
                _exit(127);
            dup2(null, 1);
            dup2(null, 2);
            execl(EMBERLINT, EMBERLINT, "--select", LT_RULES, "--cache-dir", "cache", "-j", "2",
                  "src", (char *)NULL);
            _exit(127);
        }
    }
    for (int i = 0; i < 3; i++) {
        int status = 0;
        assert_int_equal(waitpid(pids[i], &status, 0), pids[i]);
        assert_true(WIFEXITED(status));
        assert_int_equal(WEXITSTATUS(status), 1); /* findings */
    }
    char *cdir = tt_path(tt_dir, "cache");
    DIR *d = opendir(cdir);
    assert_non_null(d);
    struct dirent *e;
    size_t entries = 0;
    while ((e = readdir(d))) {
        size_t n = strlen(e->d_name);
        assert_false(n > 4 && strcmp(e->d_name + n - 4, ".tmp") == 0);
        entries += n > 5 && strcmp(e->d_name + n - 5, ".json") == 0;
    }
    closedir(d);
    free(cdir);
    assert_int_equal(entries, 12);
    tt_run warm = lint("src", NULL);
    unsigned tus, cached;
    tu_counts(warm.err, &tus, &cached);
    assert_int_equal(tus, 12);
    assert_int_equal(cached, 12);
    tt_run none = lt_lint(tt_dir, "--no-cache", "--format", "json", "src", NULL);
    assert_string_equal(warm.out, none.out);
    tt_free(&warm);
    tt_free(&none);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hash_hex),
        tt_scratch_test(test_warm_run_identical),
        tt_scratch_test(test_warm_run_needs_no_libclang),
        tt_scratch_test(test_header_change_invalidates),
        tt_scratch_test(test_no_cache_and_bad_caches),
        tt_scratch_test(test_parse_errors_cached),
        tt_scratch_test(test_concurrent_runs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
