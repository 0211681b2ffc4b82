/* tests/migrate/test_failures.c -- `ember-migrate apply` never loses
 * data.  Each failure below must leave every file of the tree
 * byte-identical (paths, contents, modes: a snapshot of the whole tree)
 * and exit non-zero with a clear message:
 *   - a read-only file to change (chmod 0444: refused even as root, where
 *     renaming over it would work);
 *   - a read-only directory holding a file to change;
 *   - a write failing midway (EL_TEST_FAIL_WRITE=N, lint/change/changeset.h),
 *     for every N up to the number of writes the migration makes;
 *   - a file that does not parse (refused; --force migrates the rest and
 *     leaves it untouched);
 *   - a file changed between read and write (EL_TEST_TOUCH_BEFORE_COMMIT);
 *   - a rewrite after which a translation unit would no longer compile
 *     (a moved function used a variable declared only in the file it
 *     left): the check before writing finds the new error, nothing is
 *     written; the same in C++ sources and headers.
 * And an apply interrupted by SIGTERM as its commit starts finishes the
 * commit first: the tree is the whole migration (after/), with no
 * temporary files, and then the process dies of the signal.
 * The tree is tests/migrate/fixtures/legacy_dir/before (moves, deletes,
 * creates and modifies). */
#include "migrate_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char *scratch(void)
{
    char *dir = tt_tmpdir();
    char *before = tt_fmt("%s/tests/migrate/fixtures/legacy_dir/before", MIGRATE_SRCDIR);
    tt_copytree(before, dir);
    free(before);
    return dir;
}

/* A refused apply: status 2, a message, the tree exactly as snap. */
static void expect_untouched(const char *dir, const char *snap, const tt_run *r, const char *what)
{
    if (r->status == 0)
        print_error("%s: apply succeeded\n%s", what, r->err);
    assert_int_equal(r->status, 2);
    assert_true(tt_contains(r->err, "ember-migrate: "));
    char *now = tt_snapshot(dir, true);
    tt_assert_same(snap, now, what);
    free(now);
}

/* `apply .` in dir (with env, may be NULL) is refused and leaves the tree
 * as it is before the run; the caller checks the message. */
static tt_run apply_refused(const char *dir, const char *const *env, const char *what)
{
    char *snap = tt_snapshot(dir, true);
    tt_run r = mt_migrate(dir, env, "apply", ".", NULL);
    expect_untouched(dir, snap, &r, what);
    free(snap);
    return r;
}

static void test_interrupted_commit_completes(void **state)
{
    (void)state;
    char *dir = scratch();
    const char *env[] = {"EL_TEST_SIGNAL_DURING_COMMIT=15", NULL};
    /* through sh, which reports the death as status 143 (tt_exec fails a
     * program killed by a signal: that is how crashes show) */
    const char *argv[] = {"/bin/sh", "-c", "\"$0\" apply -q . -- \"$1\"", EMBER_MIGRATE,
                          MT_INCLUDE, NULL};
    tt_run r = tt_exec(dir, argv, env);
    assert_int_equal(r.status, 128 + 15);   /* SIGTERM, delivered after the commit */
    tt_free(&r);
    char *want = tt_fmt("%s/tests/migrate/fixtures/legacy_dir/after", MIGRATE_SRCDIR);
    char *a = tt_snapshot(want, false), *b = tt_snapshot(dir, false);
    tt_assert_same(a, b, "apply interrupted by SIGTERM");   /* also: no temporaries */
    free(a);
    free(b);
    free(want);
    tt_rmtree(dir);
    free(dir);
}

static void test_read_only_file(void **state)
{
    (void)state;
    char *dir = scratch();
    char *main_c = tt_path(dir, "main.c"); /* rewritten by the migration */
    assert_int_equal(chmod(main_c, 0444), 0);
    tt_run r = apply_refused(dir, NULL, "read-only file");
    assert_true(tt_contains(r.err, "main.c: is read-only; nothing was written"));
    tt_free(&r);
    assert_int_equal(chmod(main_c, 0644), 0);
    r = mt_migrate(dir, NULL, "apply", "-q", ".", NULL); /* writable again: it goes through */
    assert_int_equal(r.status, 0);
    tt_free(&r);
    tt_rmtree(dir);
    free(main_c);
    free(dir);
}

static void test_read_only_directory(void **state)
{
    (void)state;
    char *dir = scratch();
    /* main.c is rewritten: its directory cannot take the temporary file */
    assert_int_equal(chmod(dir, 0555), 0);
    if (!tt_write_refused(dir)) {
        print_message("note: running as root (read-only directories are writable); "
                      "read-only case skipped\n");
        tt_rmtree(dir);
        free(dir);
        skip();
    }
    tt_run r = apply_refused(dir, NULL, "read-only directory");
    assert_true(tt_contains(r.err, "nothing was changed"));
    tt_free(&r);
    tt_rmtree(dir);
    free(dir);
}

static void test_write_fails_midway(void **state)
{
    (void)state;
    bool succeeded = false;
    int failures = 0;
    for (int n = 1; n <= 64 && !succeeded; n++) {
        char *dir = scratch();
        char *snap = tt_snapshot(dir, true);
        char *env0 = tt_fmt("EL_TEST_FAIL_WRITE=%d", n);
        const char *env[] = {env0, NULL};
        tt_run r = mt_migrate(dir, env, "apply", ".", NULL);
        if (r.status == 0) {
            succeeded = true;    /* N is past the last write */
        } else {
            expect_untouched(dir, snap, &r, env0);
            failures++;
        }
        tt_free(&r);
        free(env0);
        free(snap);
        tt_rmtree(dir);
        free(dir);
    }
    assert_true(succeeded);
    /* creates, deletes and a modify: several writes each could fail */
    assert_true(failures >= 5);
}

static void test_parse_error_refused(void **state)
{
    (void)state;
    char *dir = scratch();
    static const char broken[] = "#include \"ops/blas/blas_ops.h\"\n"
                                 "eh_tensor *f(const eh_tensor *a) { return eh_blas_dot(a, a) }\n";
    free(tt_write(dir, "broken.c", broken));
    tt_run r = apply_refused(dir, NULL, "parse error");
    assert_true(tt_contains(r.err, "broken.c:"));
    assert_true(tt_contains(r.err, "does not parse"));
    assert_true(tt_contains(r.err, "--force"));
    tt_free(&r);

    /* --force: the rest proceeds, the broken file is never edited */
    r = mt_migrate(dir, NULL, "apply", "--force", ".", NULL);
    if (r.status == 2)
        print_error("apply --force: %s", r.err);
    assert_true(r.status != 2);
    assert_true(tt_contains(r.err, "left untouched"));
    tt_assert_file(dir, "broken.c", broken);
    assert_true(tt_file_contains(dir, "main.c", "eh_matmul(a, b)"));
    char *moved = tt_path(dir, "backends/blas/gemm.c");
    assert_int_equal(access(moved, F_OK), 0);
    free(moved);
    tt_free(&r);
    tt_rmtree(dir);
    free(dir);
}

static void test_changed_between_read_and_write(void **state)
{
    (void)state;
    char *dir = scratch();
    char *main_c = tt_path(dir, "main.c");
    char *old = tt_read(main_c, NULL);
    assert_non_null(old);
    /* the hook appends one byte to main.c after the plan was made: the
     * expected tree is the original with that byte */
    char *touched = tt_fmt("%s%c", old, old[strlen(old) - 1]);
    char *snap0 = tt_snapshot(dir, true);
    free(tt_write(dir, "main.c", touched));
    char *snap = tt_snapshot(dir, true);
    free(tt_write(dir, "main.c", old));
    char *back = tt_snapshot(dir, true);
    tt_assert_same(snap0, back, "restoring main.c");

    char *env0 = tt_fmt("EL_TEST_TOUCH_BEFORE_COMMIT=%s", main_c);
    const char *env[] = {env0, NULL};
    tt_run r = mt_migrate(dir, env, "apply", ".", NULL);
    expect_untouched(dir, snap, &r, "changed between read and write");
    assert_true(tt_contains(r.err, "main.c"));
    assert_true(tt_contains(r.err, "changed"));
    /* never overridable */
    tt_free(&r);
    free(env0);
    free(snap0);
    free(back);
    free(snap);
    free(touched);
    free(old);
    free(main_c);
    tt_rmtree(dir);
    free(dir);
}

/* A plan after which a unit would not compile is refused before anything
 * is written: the check parses the new contents from memory. */
static void test_verify_error_writes_nothing(void **state)
{
    (void)state;
    char *dir = tt_tmpdir();
    free(tt_write(dir, "ops/blas/blas_ops.h",
                  "#ifndef BLAS_OPS_H\n#define BLAS_OPS_H\n#include <eh/eh.h>\n"
                  "eh_tensor *eh_blas_matmul(const eh_tensor *a, const eh_tensor *b);\n"
                  "void eh_blas_set_threads(int n);\n#endif\n"));
    /* eh_blas_set_threads is not an op and stays; eh_blas_matmul moves,
     * and the variable it reads is declared only here */
    free(tt_write(dir, "ops/blas/gemm.c",
                  "#include \"blas_ops.h\"\n\nextern int blas_threads;\n\n"
                  "void eh_blas_set_threads(int n)\n{\n    blas_threads = n;\n}\n\n"
                  "eh_tensor *eh_blas_matmul(const eh_tensor *a, const eh_tensor *b)\n{\n"
                  "    if (blas_threads < 0)\n        return 0;\n    return eh_matmul(a, b);\n}\n"));
    free(tt_write(dir, "app.c",
                  "#include \"ops/blas/blas_ops.h\"\n\n"
                  "eh_tensor *f(const eh_tensor *a)\n{\n    return eh_blas_matmul(a, a);\n}\n"));
    tt_run r = apply_refused(dir, NULL, "verify error");
    assert_true(tt_contains(r.err, "backends/blas/gemm.c: does not compile after the change"));
    assert_true(tt_contains(r.err, "blas_threads"));
    assert_true(tt_contains(r.err, "nothing was changed"));
    tt_free(&r);
    tt_rmtree(dir);
    free(dir);
}

/* The same check for C++ sources: a rewrite into a function no C++ unit
 * declares is refused, in a changed .cpp file and in a changed .hpp
 * header that only a .cc file includes (both were written unchecked when
 * only .c files counted as translation units). */
static void test_verify_error_cxx(void **state)
{
    (void)state;
    static const char *const users[][2] = {
        {"src/fill.cpp", "#include \"gpu.hpp\"\n\nvoid fill(float *y, long len)\n{\n"
                         "    gpu_fill(y, len, 1.0f);\n}\n"},
        {"src/fill.hpp", "#include \"gpu.hpp\"\n\ninline void fill(float *y, long len)\n{\n"
                         "    gpu_fill(y, len, 1.0f);\n}\n"},
    };
    for (size_t u = 0; u < sizeof users / sizeof *users; u++) {
        char *dir = tt_tmpdir();
        free(tt_write(dir, ".emberlint.json",
                      "{\"backend_files\": {\"cuda\": [\"/src/gpu.cpp\", \"/src/gpu.hpp\"]},\n"
                      " \"frontend_include\": \"\", \"languages\": [\"c\", \"c++\"],\n"
                      " \"rewrites\": [{\"function\": \"gpu_fill\", \"replacement\": "
                      "\"host_fill($1, $2, $3)\", \"safety\": \"safe\"}]}\n"));
        free(tt_write(dir, "src/gpu.hpp", "#pragma once\nvoid gpu_fill(float *y, long len, float v);\n"));
        free(tt_write(dir, "src/gpu.cpp",
                      "#include \"gpu.hpp\"\nvoid gpu_fill(float *y, long len, float v)\n{\n"
                      "    for (long i = 0; i < len; i++)\n        y[i] = v;\n}\n"));
        free(tt_write(dir, users[u][0], users[u][1]));
        if (u == 1)
            free(tt_write(dir, "src/main.cc", "#include \"fill.hpp\"\nint main() { return 0; }\n"));
        tt_run r = apply_refused(dir, NULL, users[u][0]);
        char *want = tt_fmt("%s: does not compile after the change", u == 1 ? "src/main.cc" : users[u][0]);
        if (!tt_contains(r.err, want) || !tt_contains(r.err, "host_fill"))
            print_error("%s: %s", users[u][0], r.err);
        assert_true(tt_contains(r.err, want));
        assert_true(tt_contains(r.err, "host_fill"));
        free(want);
        tt_free(&r);
        tt_rmtree(dir);
        free(dir);
    }
}

/* apply lists every unit the plan would break, not the first only: a
 * successful apply checks them all anyway, and a user fixing them one
 * apply at a time would pay a scan for each. */
static void test_verify_error_lists_every_unit(void **state)
{
    (void)state;
    char *dir = tt_tmpdir();
    free(tt_write(dir, ".emberlint.json",
                  "{\"backend_files\": {\"cuda\": [\"/src/gpu.c\", \"/src/gpu.h\"]},\n"
                  " \"frontend_include\": \"\",\n"
                  " \"rewrites\": [{\"function\": \"gpu_fill\", \"replacement\": "
                  "\"host_fill($1, $2, $3)\", \"safety\": \"safe\"}]}\n"));
    free(tt_write(dir, "src/gpu.h", "#pragma once\nvoid gpu_fill(float *y, long len, float v);\n"));
    free(tt_write(dir, "src/gpu.c",
                  "#include \"gpu.h\"\nvoid gpu_fill(float *y, long len, float v)\n{\n"
                  "    for (long i = 0; i < len; i++)\n        y[i] = v;\n}\n"));
    static const char *const users[] = {"src/ones.c", "src/twos.c", "src/zeros.c"};
    for (size_t u = 0; u < sizeof users / sizeof *users; u++) {
        char *body = tt_fmt("#include \"gpu.h\"\n\nvoid fill%zu(float *y, long len)\n{\n"
                            "    gpu_fill(y, len, %zu.0f);\n}\n", u, u);
        free(tt_write(dir, users[u], body));
        free(body);
    }
    tt_run r = apply_refused(dir, NULL, "three units broken");
    for (size_t u = 0; u < sizeof users / sizeof *users; u++) {
        char *want = tt_fmt("%s: does not compile after the change", users[u]);
        if (!tt_contains(r.err, want))
            print_error("%s missing from: %s", users[u], r.err);
        assert_true(tt_contains(r.err, want));
        free(want);
    }
    tt_free(&r);
    tt_rmtree(dir);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_read_only_file),
        cmocka_unit_test(test_interrupted_commit_completes),
        cmocka_unit_test(test_read_only_directory),
        cmocka_unit_test(test_write_fails_midway),
        cmocka_unit_test(test_parse_error_refused),
        cmocka_unit_test(test_changed_between_read_and_write),
        cmocka_unit_test(test_verify_error_writes_nothing),
        cmocka_unit_test(test_verify_error_cxx),
        cmocka_unit_test(test_verify_error_lists_every_unit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
