/* tests/migrate/test_outside_tree.c -- the tools never touch anything
 * outside the tree they are given (issue 11; lint/change/bounds.h):
 *   - a tree/main.c that is a symlink to a file outside: read, never
 *     written (ember-migrate lists its sites, emberlint --fix says its
 *     fix is not applied);
 *   - a tree/ops/blas that is a symlink to a directory outside: its code
 *     is read, never moved or deleted there, nothing is made for it;
 *   - `ember-migrate apply ../app` from another directory: code outside
 *     legacy directories moves into app/backends/, never into $PWD;
 *   - a file with two hard links: refused with a message (a rename would
 *     split them), nothing written.
 * Each leaves the outside files (and the current directory) as they were. */
#include "migrate_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char MAIN_C[] =
    "#include <eh/eh.h>\n"
    "eh_tensor *eh_blas_dot(const eh_tensor *a, const eh_tensor *b);\n"
    "eh_tensor *twice(const eh_tensor *a)\n{\n    return eh_blas_dot(a, a);\n}\n";
static const char DOT_C[] =
    "#include <eh/eh.h>\n"
    "eh_tensor *eh_blas_dot(const eh_tensor *a, const eh_tensor *b);\n\n"
    "eh_tensor *eh_blas_dot(const eh_tensor *a, const eh_tensor *b)\n{\n"
    "    return eh_dot(a, b);\n}\n";

static void link_to(const char *dir, const char *target, const char *rel)
{
    char *at = tt_path(dir, rel);
    assert_int_equal(symlink(target, at), 0);
    free(at);
}

static tt_run emberlint_fix(const char *cwd, const char *path)
{
    const char *argv[] = {EMBERLINT, "--fix", "--unsafe-fixes", "--no-cache", path, "--",
                          MT_INCLUDE, NULL};
    return tt_exec(cwd, argv, NULL);
}

static void test_file_symlinked_out(void **state)
{
    (void)state;
    char *dir = tt_tmpdir();
    free(tt_write(dir, "outside/main.c", MAIN_C));
    free(tt_write(dir, "tree/keep.c", "int keep;\n"));
    link_to(dir, "../outside/main.c", "tree/main.c");
    char *before = tt_snapshot(dir, true);
    tt_run r = mt_migrate(dir, NULL, "apply", "tree", NULL);
    assert_int_equal(r.status, 1);
    assert_true(tt_contains(r.err, "outside/main.c:5:12: manual: [EH102]"));
    assert_true(tt_contains(r.err, "symbolic link that leaves the tree"));
    char *now = tt_snapshot(dir, true);
    tt_assert_same(before, now, "apply: a symlink out of the tree");
    free(now);
    tt_free(&r);

    r = emberlint_fix(dir, "tree");
    assert_true(tt_contains(r.err, "fix not applied"));
    assert_true(tt_contains(r.err, "lies outside the tree given"));
    now = tt_snapshot(dir, true);
    tt_assert_same(before, now, "emberlint --fix: a symlink out of the tree");
    free(now);
    tt_free(&r);
    free(before);
    tt_rmtree(dir);
    free(dir);
}

static void test_directory_symlinked_out(void **state)
{
    (void)state;
    char *dir = tt_tmpdir();
    free(tt_write(dir, "outside/blas/dot.c", DOT_C));
    free(tt_write(dir, "tree/main.c", MAIN_C));
    char *ops = tt_path(dir, "tree/ops");
    assert_int_equal(mkdir(ops, 0755), 0);
    free(ops);
    link_to(dir, "../../outside/blas", "tree/ops/blas");
    char *before = tt_snapshot(dir, true);
    tt_run r = mt_migrate(dir, NULL, "apply", "tree", NULL);
    assert_true(r.status == 0 || r.status == 1);
    assert_true(tt_contains(r.err, "outside/blas/dot.c:4:12: manual: [EH104] eh_blas_dot is not moved: "
                                   "its file is reached through a symbolic link"));
    tt_assert_file(dir, "outside/blas/dot.c", DOT_C);
    char *bk = tt_path(dir, "tree/backends");
    struct stat st;
    assert_true(lstat(bk, &st) != 0); /* nothing made for code that stays outside */
    free(bk);
    tt_free(&r);
    free(before);
    tt_rmtree(dir);
    free(dir);
}

static void test_apply_from_elsewhere(void **state)
{
    (void)state;
    char *dir = tt_tmpdir();
    free(tt_write(dir, "app/dot.c", DOT_C));
    free(tt_write(dir, "app/main.c", MAIN_C));
    char *cwd = tt_path(dir, "cwd");
    assert_int_equal(mkdir(cwd, 0755), 0);
    tt_run r = mt_migrate(cwd, NULL, "apply", "../app", NULL);
    if (r.status != 0)
        print_error("%s", r.err);
    assert_int_equal(r.status, 0);
    char *here = tt_snapshot(cwd, true);
    assert_string_equal(here, ""); /* nothing in the current directory */
    free(here);
    tt_assert_file(dir, "app/backends/blas/dot.c", DOT_C);
    tt_free(&r);
    free(cwd);
    tt_rmtree(dir);
    free(dir);
}

/* The directory of a .emberlint.json that applies may be written (its
 * backends/), but only when the file is this user's and nobody else may
 * write it: one planted in a shared parent must not widen the tree. */
static void test_config_dir_widens_only_when_own(void **state)
{
    (void)state;
    for (int k = 0; k < 2; k++) {
        char *dir = tt_tmpdir();
        char *cfg = tt_write(dir, ".emberlint.json", "{\"legacy_backend_dirs\": [\"/ops/<name>/\"]}\n");
        assert_int_equal(chmod(cfg, k ? 0666 : 0644), 0);
        free(tt_write(dir, "ops/blas/dot.c", DOT_C));
        tt_run r = mt_migrate(dir, NULL, "apply", "ops/blas", NULL);
        if (k == 0) {
            assert_int_equal(r.status, 0);
            tt_assert_file(dir, "backends/blas/dot.c", DOT_C);
        } else {
            assert_int_equal(r.status, 1);
            assert_true(tt_contains(r.err, "its destination lies outside the tree given"));
            tt_assert_file(dir, "ops/blas/dot.c", DOT_C);
            char *b = tt_path(dir, "backends");
            struct stat st;
            assert_int_not_equal(stat(b, &st), 0);
            free(b);
        }
        tt_free(&r);
        free(cfg);
        tt_rmtree(dir);
        free(dir);
    }
}

static void test_hard_link_refused(void **state)
{
    (void)state;
    char *dir = tt_tmpdir();
    char *main_c = tt_write(dir, "tree/main.c", MAIN_C);
    char *other = tt_path(dir, "other.c");
    assert_int_equal(link(main_c, other), 0);
    char *before = tt_snapshot(dir, true);
    tt_run r = mt_migrate(dir, NULL, "apply", "tree", NULL);
    assert_int_equal(r.status, 2);
    assert_true(tt_contains(r.err, "tree/main.c: has 2 hard links"));
    char *now = tt_snapshot(dir, true);
    tt_assert_same(before, now, "apply: a hard link");
    free(now);
    tt_free(&r);
    r = emberlint_fix(dir, "tree");
    assert_int_equal(r.status, 2);
    assert_true(tt_contains(r.err, "has 2 hard links"));
    now = tt_snapshot(dir, true);
    tt_assert_same(before, now, "emberlint --fix: a hard link");
    free(now);
    tt_free(&r);
    free(before);
    free(other);
    free(main_c);
    tt_rmtree(dir);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_file_symlinked_out),
        cmocka_unit_test(test_directory_symlinked_out),
        cmocka_unit_test(test_apply_from_elsewhere),
        cmocka_unit_test(test_config_dir_widens_only_when_own),
        cmocka_unit_test(test_hard_link_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
