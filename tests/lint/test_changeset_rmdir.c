/* tests/lint/test_changeset_rmdir.c -- where emptied directories stop
 * being removed (el_changeset_rmdir_upto in lint/change/changeset.h): up to but
 * not including the stop directory, whatever the change set's root (the
 * tools' root is the current directory; the stop is the PATH the user
 * named, which may lie outside it), the nearer stop when asked twice,
 * nothing outside the stop, never the current directory or a directory
 * above it.  Undo puts every removed directory back.
 *
 * main() runs in a scratch directory `home/here` of its own (before
 * el_path_init fixes the current directory), the trees of the tests are
 * elsewhere. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lint_test.h"
#include "changeset.h"
#include "path.h"

static char *home;   /* the scratch directory holding the current one */

static bool is_dir(const char *dir, const char *rel)
{
    char *p = tt_path(dir, rel);
    struct stat st;
    bool r = stat(p, &st) == 0 && S_ISDIR(st.st_mode);
    free(p);
    return r;
}

/* Delete dir/file and ask for its directory's removal up to stop_rel
 * (NULL: the root); root_rel: the change set's root under dir.  Commits. */
static void delete_and_commit(el_changeset *cs, const char *dir, const char *root, const char *file,
                              const char *stop_rel)
{
    el_changeset_init(cs, root);
    char *err = NULL;
    char *f = tt_path(dir, file);
    if (el_changeset_delete(cs, f, NULL, &err) != 0)
        fail_msg("%s", err);
    char *d = el_path_dirname(f);
    char *stop = stop_rel ? tt_path(dir, stop_rel) : NULL;
    el_changeset_rmdir_upto(cs, d, stop);
    if (el_changeset_commit(cs, false, &err) != 0)
        fail_msg("%s", err);
    free(f);
    free(d);
    free(stop);
}

/* The PATH named is outside the root: its emptied subdirectories go, the
 * PATH itself stays (even empty). */
static void test_stop_outside_root(void **state)
{
    (void)state;
    char *dir = tt_tmpdir();
    free(tt_write(dir, "app/ops/blas/gemm.c", "1\n"));
    free(tt_write(dir, "elsewhere/x", "x\n"));
    char *before = tt_snapshot(dir, true);
    char *root = tt_path(dir, "elsewhere");
    el_changeset cs;
    delete_and_commit(&cs, dir, root, "app/ops/blas/gemm.c", "app");
    assert_false(is_dir(dir, "app/ops/blas"));
    assert_false(is_dir(dir, "app/ops"));
    assert_true(is_dir(dir, "app"));
    char *err = NULL;
    assert_int_equal(el_changeset_undo(&cs, &err), 0);
    char *again = tt_snapshot(dir, true);
    tt_assert_same(before, again, "undo restores the removed directories");
    el_changeset_free(&cs);

    /* the same without a stop: the root bounds it, and the file is
     * outside the root: no directory is removed */
    delete_and_commit(&cs, dir, root, "app/ops/blas/gemm.c", NULL);
    assert_true(is_dir(dir, "app/ops/blas"));
    el_changeset_free(&cs);

    free(again);
    free(before);
    free(root);
    tt_rmtree(dir);
    free(dir);
}

/* A stop inside the root bounds the climb; NULL still climbs to the root. */
static void test_stop_inside_root(void **state)
{
    (void)state;
    char *dir = tt_tmpdir();
    free(tt_write(dir, "a/b/c/d.c", "1\n"));
    el_changeset cs;
    delete_and_commit(&cs, dir, dir, "a/b/c/d.c", "a/b");
    assert_false(is_dir(dir, "a/b/c"));
    assert_true(is_dir(dir, "a/b"));
    el_changeset_free(&cs);

    free(tt_write(dir, "a/b/c/d.c", "1\n"));
    delete_and_commit(&cs, dir, dir, "a/b/c/d.c", NULL);
    assert_false(is_dir(dir, "a"));
    el_changeset_free(&cs);

    /* a stop that does not hold the directory: nothing is removed */
    free(tt_write(dir, "p/q/r.c", "1\n"));
    free(tt_write(dir, "other/keep", "k\n"));
    delete_and_commit(&cs, dir, dir, "p/q/r.c", "other");
    assert_true(is_dir(dir, "p/q"));
    el_changeset_free(&cs);
    tt_rmtree(dir);
    free(dir);
}

/* Asked twice for one directory, with two stops: the nearer one wins. */
static void test_nearer_stop_wins(void **state)
{
    (void)state;
    char *dir = tt_tmpdir();
    free(tt_write(dir, "a/b/c/d.c", "1\n"));
    el_changeset cs;
    el_changeset_init(&cs, dir);
    char *err = NULL;
    char *f = tt_path(dir, "a/b/c/d.c"), *c = tt_path(dir, "a/b/c"), *a = tt_path(dir, "a"),
         *b = tt_path(dir, "a/b");
    assert_int_equal(el_changeset_delete(&cs, f, NULL, &err), 0);
    el_changeset_rmdir_upto(&cs, c, a);
    el_changeset_rmdir_upto(&cs, c, b);
    el_changeset_rmdir_upto(&cs, c, NULL);
    assert_int_equal(cs.n_rmdirs, 1);
    assert_int_equal(el_changeset_commit(&cs, false, &err), 0);
    assert_false(is_dir(dir, "a/b/c"));
    assert_true(is_dir(dir, "a/b"));
    el_changeset_free(&cs);
    free(f);
    free(c);
    free(a);
    free(b);
    tt_rmtree(dir);
    free(dir);
}

/* The current directory (home/here) and its parents are never removed,
 * even when emptied inside the stop. */
static void test_never_the_cwd(void **state)
{
    (void)state;
    free(tt_write(home, "here/only.c", "1\n"));
    el_changeset cs;
    delete_and_commit(&cs, home, "/", "here/only.c", "..");
    assert_true(is_dir(home, "here"));
    struct stat st;
    assert_int_equal(stat(".", &st), 0);
    el_changeset_free(&cs);
}

int main(void)
{
    home = tt_tmpdir();
    char *here = tt_path(home, "here");
    if (mkdir(here, 0755) != 0 || chdir(here) != 0) {
        perror(here);
        return 1;
    }
    el_path_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stop_outside_root),
        cmocka_unit_test(test_stop_inside_root),
        cmocka_unit_test(test_nearer_stop_wins),
        cmocka_unit_test(test_never_the_cwd),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    if (chdir("/") == 0)
        tt_rmtree(home);
    free(here);
    free(home);
    return rc;
}
