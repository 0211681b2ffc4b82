/* tests/lint/test_diff_rename.c -- moved files as git renames
 * (el_diff_write_rename in lint/change/diff.h, el_changeset_move in
 * lint/change/changeset.h).  For each shape -- identical content, a changed
 * include line, a move into a new directory -- the diff is checked for
 * git's rename lines (and for hunks exactly when the content changed),
 * `git apply --check` and `git apply` must accept it in a scratch tree,
 * and committing the same change set must give the very tree git gave. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lint_test.h"
#include "changeset.h"
#include "diff.h"

static const char GEMM_C[] = "/* Matrix products. */\n"
                             "#include \"blas_ops.h\"\n"
                             "#include \"../shape_util.h\"\n"
                             "\n"
                             "eh_tensor *eh_blas_matmul(const eh_tensor *a, const eh_tensor *b)\n"
                             "{\n"
                             "    return eh_matmul(a, b);\n"
                             "}\n"
                             "\n"
                             "int eh_blas_rows(int n)\n"
                             "{\n"
                             "    return n;\n"
                             "}\n";

static const char SHAPE_H[] = "/* Shapes. */\n#define ROWS(t) ((t)->shape[0])\n";

/* The diff of a change set as a string. */
static char *diff_of(const el_changeset *cs)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    assert_int_equal(el_changeset_diff(cs, f), 0);
    assert_int_equal(fclose(f), 0);
    return buf;
}

/* One move in a fresh tree holding `files` (rel, content pairs,
 * NULL-terminated): plan it, check its diff with `check`, apply the diff
 * with git in a copy, commit the change set, compare the two trees. */
typedef void (*diff_check)(const char *diff);

static void run_move(const char *const *files, const char *from, const char *to,
                     const char *new_text, diff_check check)
{
    char *dir = tt_tmpdir(), *copy = tt_tmpdir();
    for (size_t i = 0; files[i]; i += 2)
        free(tt_write(dir, files[i], files[i + 1]));
    tt_copytree(dir, copy);

    el_changeset cs;
    el_changeset_init(&cs, dir);
    char *err = NULL;
    char *src = tt_path(dir, from), *dst = tt_path(dir, to);
    if (el_changeset_move(&cs, src, dst, new_text, strlen(new_text), NULL, &err) != 0)
        fail_msg("move %s -> %s: %s", from, to, err);
    char *srcdir = strdup(src);
    assert_non_null(srcdir);
    *strrchr(srcdir, '/') = '\0';
    el_changeset_rmdir_upto(&cs, srcdir, NULL);

    char *diff = diff_of(&cs);
    check(diff);
    tt_git_apply(copy, diff, true);
    char *by_git = tt_snapshot(copy, true);

    /* committed, the move is the same delete plus create as ever */
    assert_int_equal(el_changeset_commit(&cs, false, &err), 0);
    char *by_commit = tt_snapshot(dir, true);
    tt_assert_same(by_git, by_commit, "git apply of the rename and the commit");
    tt_assert_file(dir, to, new_text);
    assert_int_equal(access(src, F_OK), -1);

    free(by_git);
    free(by_commit);
    free(diff);
    free(srcdir);
    free(src);
    free(dst);
    el_changeset_free(&cs);
    tt_rmtree(dir);
    tt_rmtree(copy);
    free(dir);
    free(copy);
}

/* The lines a move's diff must have, and must not; sim: how its
 * similarity index starts ("100%", "9"). */
static void assert_rename(const char *diff, const char *from, const char *to, const char *sim)
{
    char *head = tt_fmt("diff --git a/%s b/%s\nsimilarity index %s", from, to, sim);
    char *idx = tt_fmt("%%\nrename from %s\nrename to %s\n", from, to);
    if (strncmp(diff, head, strlen(head)) != 0 || !tt_contains(diff, idx))
        fail_msg("not a rename %s -> %s (%s):\n%s", from, to, sim, diff);
    assert_false(tt_contains(diff, "new file mode"));
    assert_false(tt_contains(diff, "deleted file mode"));
    assert_false(tt_contains(diff, "/dev/null"));
    free(head);
    free(idx);
}

/* ---- identical content: the header lines alone ---- */

static void check_identical(const char *diff)
{
    assert_rename(diff, "ops/blas/gemm.c", "backends/blas/gemm.c", "100%");
    assert_false(tt_contains(diff, "@@"));
    assert_false(tt_contains(diff, "--- "));
    assert_string_equal(diff, "diff --git a/ops/blas/gemm.c b/backends/blas/gemm.c\n"
                              "similarity index 100%\n"
                              "rename from ops/blas/gemm.c\n"
                              "rename to backends/blas/gemm.c\n");
}

static void test_identical(void **state)
{
    (void)state;
    const char *files[] = {"ops/blas/gemm.c", GEMM_C, "backends/blas/other.c", "int x;\n", NULL};
    run_move(files, "ops/blas/gemm.c", "backends/blas/gemm.c", GEMM_C, check_identical);
}

/* ---- a re-pathed include: one hunk ---- */

static void check_include(const char *diff)
{
    assert_rename(diff, "ops/blas/gemm.c", "backends/blas/gemm.c", "84%");
    assert_true(tt_contains(diff, "--- a/ops/blas/gemm.c\n+++ b/backends/blas/gemm.c\n"));
    assert_true(tt_contains(diff, "-#include \"../shape_util.h\"\n"
                                  "+#include \"../../ops/shape_util.h\"\n"));
    /* one hunk, and only the include line changes */
    const char *h = strstr(diff, "@@");
    assert_non_null(h);
    assert_null(strstr(h + 2, "\n@@"));
    size_t minus = 0, plus = 0;
    for (const char *l = strstr(diff, "@@"); l; l = strchr(l, '\n')) {
        l++;
        minus += *l == '-';
        plus += *l == '+';
    }
    assert_int_equal(minus, 1);
    assert_int_equal(plus, 1);
}

static void test_changed_include(void **state)
{
    (void)state;
    const char *at = strstr(GEMM_C, "\"../shape_util.h\"");
    char *text = tt_fmt("%.*s\"../../ops/shape_util.h\"%s", (int)(at - GEMM_C), GEMM_C,
                        at + strlen("\"../shape_util.h\""));
    const char *files[] = {"ops/blas/gemm.c", GEMM_C, "ops/shape_util.h", SHAPE_H,
                           "backends/blas/other.c", "int x;\n", NULL};
    run_move(files, "ops/blas/gemm.c", "backends/blas/gemm.c", text, check_include);
    free(text);
}

/* ---- into a directory that does not exist yet ---- */

static void check_new_dir(const char *diff)
{
    assert_rename(diff, "ops/ref/ref_ops.h", "backends/ref/ref_ops.h", "100%");
}

static void test_new_directory(void **state)
{
    (void)state;
    const char *files[] = {"ops/ref/ref_ops.h", SHAPE_H, "main.c", "int main(void) { return 0; }\n",
                           NULL};
    run_move(files, "ops/ref/ref_ops.h", "backends/ref/ref_ops.h", SHAPE_H, check_new_dir);
}

/* ---- el_diff_write_rename on its own ---- */

static char *rename_str(const char *from, const char *to, const char *old, const char *new_text,
                        mode_t om, mode_t nm)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    assert_int_equal(el_diff_write_rename(f, from, to, old, strlen(old), new_text,
                                          strlen(new_text), om, nm),
                     0);
    assert_int_equal(fclose(f), 0);
    return buf;
}

/* Modes, a name git must quote, a file rewritten whole, no final newline. */
static void test_rename_shapes(void **state)
{
    (void)state;
    char *d = rename_str("a.c", "b.c", "x\n", "x\n", 0644, 0755);
    assert_string_equal(d, "diff --git a/a.c b/b.c\nold mode 100644\nnew mode 100755\n"
                           "similarity index 100%\nrename from a.c\nrename to b.c\n");
    free(d);

    d = rename_str("a\"q.c", "b.c", "x\n", "x\n", 0644, 0644);
    assert_true(tt_contains(d, "rename from \"a\\\"q.c\"\n"));
    free(d);

    /* nothing kept: 0%, still one rename with its hunk */
    d = rename_str("a.c", "b.c", "one\ntwo\n", "three\n", 0644, 0644);
    assert_true(tt_contains(d, "similarity index 0%\n"));
    assert_true(tt_contains(d, "@@ -1,2 +1 @@\n-one\n-two\n+three\n"));
    free(d);

    /* a changed last line without newline: never 100% */
    d = rename_str("a.c", "b.c", "1\n2\n3\n4\n5\n6\n7\n8\n9\nend", "1\n2\n3\n4\n5\n6\n7\n8\n9\nend\n",
                   0644, 0644);
    assert_true(tt_contains(d, "similarity index 81%\n"));
    assert_true(tt_contains(d, "\\ No newline at end of file\n"));
    free(d);

    /* git applies each of these in a tree */
    char *dir = tt_tmpdir();
    free(tt_write(dir, "a.c", "one\ntwo\n"));
    d = rename_str("a.c", "sub/b.c", "one\ntwo\n", "one\n2\n", 0644, 0644);
    tt_git_apply(dir, d, true);
    tt_assert_file(dir, "sub/b.c", "one\n2\n");
    char *gone = tt_path(dir, "a.c");
    assert_int_equal(access(gone, F_OK), -1);
    free(gone);
    free(d);
    tt_rmtree(dir);
    free(dir);
}

/* A move that cannot be made records nothing. */
static void test_move_refused(void **state)
{
    (void)state;
    char *dir = tt_tmpdir();
    free(tt_write(dir, "a.c", "a\n"));
    free(tt_write(dir, "b.c", "b\n"));
    el_changeset cs;
    el_changeset_init(&cs, dir);
    char *err = NULL;
    char *a = tt_path(dir, "a.c"), *b = tt_path(dir, "b.c"), *none = tt_path(dir, "none.c");
    assert_int_equal(el_changeset_move(&cs, a, b, "x\n", 2, NULL, &err), -1);   /* b exists */
    assert_non_null(err);
    free(err);
    err = NULL;
    assert_int_equal(cs.n, 0);
    assert_int_equal(el_changeset_move(&cs, none, b, "x\n", 2, NULL, &err), -1); /* no source */
    free(err);
    err = NULL;
    assert_int_equal(cs.n, 0);
    assert_true(el_changeset_empty(&cs));
    el_changeset_free(&cs);
    free(a);
    free(b);
    free(none);
    tt_rmtree(dir);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_identical),     cmocka_unit_test(test_changed_include),
        cmocka_unit_test(test_new_directory), cmocka_unit_test(test_rename_shapes),
        cmocka_unit_test(test_move_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
