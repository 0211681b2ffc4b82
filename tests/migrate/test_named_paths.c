/* tests/migrate/test_named_paths.c -- what ember-migrate removes and how
 * its plan shows moves, whatever the current directory:
 *   - a PATH outside the current directory (absolute, or relative from a
 *     parent): emptied legacy directories are removed as when run from
 *     the tree itself -- the result is the golden after/ tree;
 *   - a directory the user named stays, even emptied: nothing above or
 *     at a PATH argument is removed;
 *   - a file that moves whole is one git rename in the plan (no deletion
 *     plus creation), which `git apply` turns into after/;
 *   - `plan /abs/tree` from an unrelated directory gives paths relative
 *     to the tree (git apply refuses absolute ones) and says so;
 *   - run from inside the legacy directory (`cd t1/ops && apply ..`), the
 *     code still moves to t1/backends/ (not t1/ops/backends/). */
#include "migrate_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define FIXTURE MIGRATE_SRCDIR "/tests/migrate/fixtures/legacy_dir"

static bool is_dir(const char *dir, const char *rel)
{
    char *p = tt_path(dir, rel);
    struct stat st;
    bool r = stat(p, &st) == 0 && S_ISDIR(st.st_mode);
    free(p);
    return r;
}

/* The fixture's before/ tree in dir/rel. */
static char *before_in(const char *dir, const char *rel)
{
    char *t = tt_path(dir, rel);
    assert_int_equal(mkdir(t, 0755), 0);
    tt_copytree(FIXTURE "/before", t);
    return t;
}

static void assert_is_after(const char *tree)
{
    char *want = tt_snapshot(FIXTURE "/after", false);
    char *got = tt_snapshot(tree, false);
    tt_assert_same(want, got, "legacy_dir migrated from outside");
    free(want);
    free(got);
}

/* `apply /abs/tree` run from an unrelated directory. */
static void test_absolute_path_elsewhere(void **state)
{
    (void)state;
    char *dir = tt_tmpdir(), *cwd = tt_tmpdir();
    char *tree = before_in(dir, "t1");
    tt_run r = mt_migrate(cwd, NULL, "apply", "-q", tree, NULL);
    if (r.status != 0)
        print_error("apply %s: %s", tree, r.err);
    assert_int_equal(r.status, 0);
    assert_false(is_dir(tree, "ops/blas"));
    assert_is_after(tree);
    tt_free(&r);
    tt_rmtree(dir);
    tt_rmtree(cwd);
    free(tree);
    free(dir);
    free(cwd);
}

/* `cd parent && apply t1`: the same tree; t1 itself is never a candidate. */
static void test_relative_path_from_parent(void **state)
{
    (void)state;
    char *dir = tt_tmpdir();
    char *tree = before_in(dir, "t1");
    tt_run r = mt_migrate(dir, NULL, "apply", "-q", "t1", NULL);
    assert_int_equal(r.status, 0);
    assert_is_after(tree);
    tt_free(&r);
    tt_rmtree(dir);
    free(tree);
    free(dir);
}

/* A PATH below the application: its backend code would go to the
 * application's backends/, above the PATH, so nothing moves (listed);
 * with the application's .emberlint.json, the configuration's directory
 * may be written: everything under the named directory moves out, and the
 * directory itself stays, empty. */
static void test_named_directory_stays(void **state)
{
    (void)state;
    char *dir = tt_tmpdir();
    static const char dot_c[] = "#include <eh/eh.h>\n"
                                "\n"
                                "eh_tensor *eh_blas_dot(const eh_tensor *a, const eh_tensor *b);\n"
                                "\n"
                                "eh_tensor *eh_blas_dot(const eh_tensor *a, const eh_tensor *b)\n"
                                "{\n"
                                "    return eh_dot(a, b);\n"
                                "}\n";
    free(tt_write(dir, "t/ops/blas/dot.c", dot_c));
    char *before = tt_snapshot(dir, true);
    tt_run r = mt_migrate(dir, NULL, "apply", "t/ops", NULL);
    assert_int_equal(r.status, 1);
    assert_true(tt_contains(r.err, "t/ops/blas/dot.c:5:12: manual: [EH104] eh_blas_dot is not moved: its "
                                   "destination lies outside the tree given"));
    char *now = tt_snapshot(dir, true);
    tt_assert_same(before, now, "nothing is created above the PATH");
    free(now);
    free(before);
    tt_free(&r);

    free(tt_write(dir, "t/.emberlint.json", "{}\n"));
    r = mt_migrate(dir, NULL, "apply", "-q", "t/ops", NULL);
    if (r.status != 0)
        print_error("apply t/ops: %s", r.err);
    assert_int_equal(r.status, 0);
    tt_assert_file(dir, "t/backends/blas/dot.c", dot_c);
    assert_false(is_dir(dir, "t/ops/blas"));   /* emptied, below the PATH */
    assert_true(is_dir(dir, "t/ops"));         /* the PATH itself */
    tt_free(&r);
    tt_rmtree(dir);
    free(dir);
}

/* The plan shows whole-file moves as renames. */
static void test_plan_renames(void **state)
{
    (void)state;
    char *dir = tt_tmpdir();
    char *tree = before_in(dir, "t1");
    tt_run r = mt_migrate(tree, NULL, "plan", "-q", ".", NULL);
    assert_int_equal(r.status, 0);
    static const char *const moves[][2] = {
        {"ops/blas/dot.c", "backends/blas/dot.c"},
        {"ops/blas/gemm.c", "backends/blas/gemm.c"},
        {"ops/blas/blas_ops.h", "backends/blas/blas_ops.h"},
    };
    for (size_t i = 0; i < sizeof moves / sizeof moves[0]; i++) {
        char *want = tt_fmt("diff --git a/%s b/%s\nsimilarity index ", moves[i][0], moves[i][1]);
        char *names = tt_fmt("%%\nrename from %s\nrename to %s\n", moves[i][0], moves[i][1]);
        if (!tt_contains(r.out, want) || !tt_contains(r.out, names))
            fail_msg("no rename %s -> %s in:\n%s", moves[i][0], moves[i][1], r.out);
        free(want);
        free(names);
    }
    /* the only new file is the registration; nothing is deleted outright */
    assert_false(tt_contains(r.out, "deleted file mode"));
    const char *nf = strstr(r.out, "new file mode");
    assert_non_null(nf);
    assert_null(strstr(nf + 1, "new file mode"));
    assert_true(tt_contains(r.out, "+++ b/backends/blas/kernels.def\n"));
    /* a re-pathed include is a hunk of its rename */
    assert_true(tt_contains(r.out, "--- a/ops/blas/gemm.c\n+++ b/backends/blas/gemm.c\n"));
    tt_git_apply(tree, r.out, true);
    assert_is_after(tree);
    tt_free(&r);
    tt_rmtree(dir);
    free(tree);
    free(dir);
}

/* `plan /abs/tree` from elsewhere: a diff to apply inside the tree. */
static void test_plan_outside_cwd(void **state)
{
    (void)state;
    char *dir = tt_tmpdir(), *cwd = tt_tmpdir();
    char *tree = before_in(dir, "t1");
    tt_run r = mt_migrate(cwd, NULL, "plan", tree, NULL);
    assert_int_equal(r.status, 0);
    assert_true(tt_contains(r.out, "rename from ops/blas/gemm.c\n"));
    assert_false(tt_contains(r.out, tree));
    char *note = tt_fmt("paths in the diff are relative to %s", tree);
    assert_true(tt_contains(r.err, note));
    free(note);
    tt_git_apply(tree, r.out, true);
    assert_is_after(tree);
    tt_free(&r);
    tt_rmtree(dir);
    tt_rmtree(cwd);
    free(tree);
    free(dir);
    free(cwd);
}

static void test_from_inside_legacy_dir(void **state)
{
    (void)state;
    char *dir = tt_tmpdir();
    char *tree = before_in(dir, "t1");
    char *ops = tt_path(tree, "ops");
    tt_run r = mt_migrate(ops, NULL, "apply", "-q", "..", NULL);
    if (r.status != 0)
        print_error("apply ..: %s", r.err);
    assert_int_equal(r.status, 0);
    assert_true(is_dir(tree, "backends/blas"));
    assert_false(is_dir(tree, "ops/backends"));
    assert_false(is_dir(tree, "ops/blas"));
    assert_is_after(tree);              /* ops/ keeps the frontend's shape_util.h */
    tt_free(&r);
    tt_rmtree(dir);
    free(ops);
    free(tree);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_absolute_path_elsewhere),
        cmocka_unit_test(test_relative_path_from_parent),
        cmocka_unit_test(test_named_directory_stays),
        cmocka_unit_test(test_plan_renames),
        cmocka_unit_test(test_plan_outside_cwd),
        cmocka_unit_test(test_from_inside_legacy_dir),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
