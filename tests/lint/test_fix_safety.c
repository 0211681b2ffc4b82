/* tests/lint/test_fix_safety.c -- emberlint --fix never breaks code the
 * preprocessor skipped, and never loses a file to a signal:
 *   - a backend include the #else arm still needs is not removed (the fix
 *     is reported as not applied, with the reason), the active arm's call
 *     is rewritten;
 *   - the configuration key "define_sets" names the builds to check: the
 *     fixes of a file that would break one of them are left out (said,
 *     with the error), nothing of it is written;
 *   - SIGTERM during the commit: the fixes are written completely, and the
 *     run says so before it dies;
 *   - SIGKILL at every step of the commit: the next --fix resolves what
 *     was left (with a message) and the file ends fixed, with no
 *     temporary file or journal left. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lint_test.h"

static const char BLAS_H[] = "#include <eh/eh.h>\n"
                             "eh_tensor *eh_blas_matmul(const eh_tensor *a, const eh_tensor *b);\n";
static const char REF_H[] = "#include <eh/eh.h>\n"
                            "eh_tensor *eh_ref_matmul(const eh_tensor *a, const eh_tensor *b);\n";
static const char SOLVE_C[] = "#include \"ops/blas/blas.h\"\n"
                              "#include \"ops/ref/ref.h\"\n"
                              "eh_tensor *solve(const eh_tensor *a, const eh_tensor *b)\n"
                              "{\n"
                              "#ifdef USE_BLAS\n"
                              "    return eh_blas_matmul(a, b);\n"
                              "#else\n"
                              "    return eh_ref_matmul(a, b);\n"
                              "#endif\n"
                              "}\n";

static char *make_tree(void)
{
    char *dir = tt_tmpdir();
    free(tt_write(dir, "ops/blas/blas.h", BLAS_H));
    free(tt_write(dir, "ops/ref/ref.h", REF_H));
    free(tt_write(dir, "solve.c", SOLVE_C));
    return dir;
}

static tt_run fix(const char *dir, const char *const *env)
{
    const char *argv[] = {"/bin/sh", "-c",
                          "\"$0\" --fix --unsafe-fixes --no-cache solve.c -- \"$1\" -DUSE_BLAS",
                          EMBERLINT, LT_INCLUDE, NULL};
    return tt_exec(dir, argv, env);
}

static void test_skipped_arm_keeps_its_include(void **state)
{
    (void)state;
    char *dir = make_tree();
    tt_run r = fix(dir, NULL);
    assert_true(tt_contains(r.err, "solve.c:2:1: [EH101] fix not applied: the include is still "
                                   "needed by code the preprocessor skips in this configuration: "
                                   "line 8 uses eh_ref_matmul"));
    assert_true(tt_file_contains(dir, "solve.c", "#include \"ops/ref/ref.h\""));
    assert_true(tt_file_contains(dir, "solve.c", "    return eh_matmul(a, b);\n#else"));
    assert_true(tt_file_contains(dir, "solve.c", "    return eh_ref_matmul(a, b);"));
    tt_free(&r);
    tt_rmtree(dir);
    free(dir);
}

/* Both builds named: a fix that breaks the !USE_BLAS one is refused. */
static void test_define_sets_key(void **state)
{
    (void)state;
    char *dir = tt_tmpdir();
    free(tt_write(dir, ".emberlint.json", "{\"define_sets\": [\"!USE_BLAS\", \"USE_BLAS\"]}\n"));
    free(tt_write(dir, "ops/blas/blas.h", BLAS_H));
    /* the #else arm uses a name the include brings, pasted together so
     * that reading the skipped text cannot see it: only parsing that
     * build can */
    free(tt_write(dir, "ops/blas/extra.h", "#define SCALE 2\n"));
    free(tt_write(dir, "solve.c", "#include \"ops/blas/blas.h\"\n"
                                  "#include \"ops/blas/extra.h\"\n"
                                  "#include <eh/eh.h>\n"
                                  "#define CAT(a, b) a##b\n"
                                  "#ifdef USE_BLAS\nint scale(void) { return CAT(SCA, LE); }\n"
                                  "#endif\n"
                                  "eh_tensor *solve(const eh_tensor *a, const eh_tensor *b)\n"
                                  "{\n    return eh_blas_matmul(a, b);\n}\n"));
    char *before = tt_snapshot(dir, true);
    /* linted without USE_BLAS: its arm is skipped text */
    tt_run r = lt_emberlint(dir, "--fix", "--unsafe-fixes", "--no-cache", "solve.c", "--",
                            LT_INCLUDE, NULL);
    if (r.status != 1)
        print_error("%s", r.err);
    assert_int_equal(r.status, 1); /* the findings stay */
    assert_true(tt_contains(r.err, "emberlint: solve.c: 3 fixes not applied: solve.c would not "
                                   "compile (define set \"USE_BLAS\"): "));
    char *now = tt_snapshot(dir, true);
    tt_assert_same(before, now, "a fix that breaks a named build");
    free(now);
    free(before);
    tt_free(&r);
    tt_rmtree(dir);
    free(dir);
}

static void test_sigterm_completes(void **state)
{
    (void)state;
    char *dir = make_tree();
    const char *env[] = {"EL_TEST_KILL_AT=3", "EL_TEST_KILL_SIGNAL=15", NULL};
    tt_run r = fix(dir, env);
    assert_int_equal(r.status, 128 + SIGTERM);
    assert_true(tt_contains(r.err, "emberlint: interrupted by a signal: the changes were written "
                                   "completely"));
    assert_true(tt_file_contains(dir, "solve.c", "    return eh_matmul(a, b);\n#else"));
    char *snap = tt_snapshot(dir, true);
    assert_null(strstr(snap, ".el-"));
    assert_null(strstr(snap, ".ember-changeset-"));
    free(snap);
    tt_free(&r);
    tt_rmtree(dir);
    free(dir);
}

static void test_sigkill_every_step(void **state)
{
    (void)state;
    char *ref = make_tree();
    tt_run r = fix(ref, NULL);
    tt_free(&r);
    char *want = tt_snapshot(ref, true);
    tt_rmtree(ref);
    free(ref);
    int n;
    for (n = 1; n < 60; n++) {
        char *dir = make_tree();
        char *at = tt_fmt("EL_TEST_KILL_AT=%d", n);
        const char *env[] = {at, "EL_TEST_KILL_SIGNAL=9", NULL};
        r = fix(dir, env);
        int status = r.status;
        tt_free(&r);
        free(at);
        if (status != 128 + SIGKILL) {
            tt_rmtree(dir);
            free(dir);
            break; /* past the last step */
        }
        char *snap = tt_snapshot(dir, true);
        bool journal = strstr(snap, ".ember-changeset-") != NULL;
        free(snap);
        r = fix(dir, NULL);
        if (journal)
            assert_true(tt_contains(r.err, "an interrupted run"));
        tt_free(&r);
        char *now = tt_snapshot(dir, true);
        char *what = tt_fmt("emberlint --fix killed at step %d", n);
        tt_assert_same(want, now, what);
        free(what);
        free(now);
        tt_rmtree(dir);
        free(dir);
    }
    assert_true(n > 5);
    free(want);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_skipped_arm_keeps_its_include),
        cmocka_unit_test(test_define_sets_key),
        cmocka_unit_test(test_sigterm_completes),
        cmocka_unit_test(test_sigkill_every_step),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
