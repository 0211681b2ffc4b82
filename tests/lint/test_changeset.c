/* tests/lint/test_changeset.c -- all-or-nothing multi-file commits
 * (lint/change/changeset.h).  The whole scratch tree (names, modes, contents) is
 * snapshotted before a commit: a commit that fails at any write, meets a
 * file changed behind its back, or hits a directory it may not write must
 * leave exactly that snapshot (no temporary file, no created directory);
 * a successful one must be undoable to it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lint_test.h"
#include "changeset.h"

static int setup(void **state)
{
    tt_scratch_setup(state);
    unsetenv("EL_TEST_FAIL_WRITE");
    unsetenv("EL_TEST_TOUCH_BEFORE_COMMIT");
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    unsetenv("EL_TEST_FAIL_WRITE");
    unsetenv("EL_TEST_TOUCH_BEFORE_COMMIT");
    return tt_scratch_teardown(state);
}

/* ---- the scratch tree ---- */

static char *p(const char *rel)
{
    return tt_path(tt_dir, rel);
}

static void put(const char *rel, const char *content, mode_t mode)
{
    char *path = tt_write(tt_dir, rel, content);
    assert_int_equal(chmod(path, mode), 0);
    free(path);
}

static void assert_file(const char *rel, const char *content, mode_t mode)
{
    tt_assert_file(tt_dir, rel, content);
    char *path = p(rel);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 07777, mode);
    free(path);
}

static bool exists(const char *rel)
{
    char *path = p(rel);
    struct stat st;
    bool r = lstat(path, &st) == 0;
    free(path);
    return r;
}

/* Every entry of the scratch tree (name, type, mode, content). */
static char *snapshot(void)
{
    return tt_snapshot(tt_dir, true);
}

static void assert_same_tree(const char *before, const char *what)
{
    char *now = snapshot();
    tt_assert_same(before, now, what);
    free(now);
}

/* ---- the standard set of four changes ---- */

static const char A_OLD[] = "int a;\n";
static const char A_NEW[] = "int a = 1;\n";
static const char B_OLD[] = "#!/bin/sh\necho b\n";
static const char B_NEW[] = "#!/bin/sh\necho B\n";
static const char C_NEW[] = "int c;\n";
static const char GONE[] = "gone\n";

static void make_tree(void)
{
    put("a.c", A_OLD, 0644);
    put("b.sh", B_OLD, 0755);
    put("old/gone.c", GONE, 0640);
    put("keep.c", "keep\n", 0600);
}

static el_hash128 h(const char *s)
{
    return el_hash_bytes(s, strlen(s));
}

static void build(el_changeset *cs)
{
    el_changeset_init(cs, tt_dir);
    char *err = NULL;
    char *a = p("a.c"), *b = p("b.sh"), *c = p("new/deep/c.c"), *g = p("old/gone.c"),
         *o = p("old");
    el_hash128 ha = h(A_OLD), hb = h(B_OLD), hg = h(GONE);
    assert_int_equal(el_changeset_modify(cs, a, &ha, A_NEW, strlen(A_NEW), &err), 0);
    assert_int_equal(el_changeset_modify(cs, b, &hb, B_NEW, strlen(B_NEW), &err), 0);
    assert_int_equal(el_changeset_create(cs, c, C_NEW, strlen(C_NEW), 0644, &err), 0);
    assert_int_equal(el_changeset_delete(cs, g, &hg, &err), 0);
    el_changeset_rmdir_upto(cs, o, NULL);
    assert_null(err);
    free(a);
    free(b);
    free(c);
    free(g);
    free(o);
}

static void assert_committed(void)
{
    assert_file("a.c", A_NEW, 0644);
    assert_file("b.sh", B_NEW, 0755);
    assert_file("new/deep/c.c", C_NEW, 0644);
    assert_file("keep.c", "keep\n", 0600);
    assert_false(exists("old/gone.c"));
}

/* The set's diff, its length in *len (len may be NULL). */
static char *diff_of(const el_changeset *cs, size_t *len)
{
    char *buf = NULL;
    size_t n = 0;
    FILE *m = open_memstream(&buf, &n);
    assert_non_null(m);
    assert_int_equal(el_changeset_diff(cs, m), 0);
    assert_int_equal(fclose(m), 0);
    if (len)
        *len = n;
    return buf;
}

/* No temporary or kept-aside file anywhere. */
static void assert_no_litter(void)
{
    char *s = snapshot();
    if (strstr(s, ".el-"))
        fail_msg("temporary files left behind:\n%s", s);
    free(s);
}

static void test_commit_and_undo(void **state)
{
    (void)state;
    make_tree();
    char *before = snapshot();
    el_changeset cs;
    build(&cs);
    assert_false(el_changeset_empty(&cs));
    assert_non_null(el_changeset_find(&cs, "a.c"));          /* relative to the root */
    char *a = p("a.c");
    el_change *ca = el_changeset_find(&cs, a);
    free(a);
    assert_non_null(ca);
    assert_string_equal(ca->display, "a.c");
    assert_int_equal(ca->kind, EL_CHANGE_MODIFY);
    assert_string_equal(ca->old_text, A_OLD);
    assert_null(el_changeset_find(&cs, "keep.c"));

    char *err = NULL;
    assert_int_equal(el_changeset_commit(&cs, false, &err), 0);
    assert_null(err);
    assert_committed();
    assert_false(exists("old"));           /* emptied, removed */
    assert_no_litter();

    assert_int_equal(el_changeset_undo(&cs, &err), 0);
    assert_null(err);
    assert_same_tree(before, "undo");
    /* Nothing left to undo. */
    assert_int_equal(el_changeset_undo(&cs, &err), -1);
    free(err);
    el_changeset_free(&cs);
    free(before);
}

static void test_diff_of_set(void **state)
{
    (void)state;
    make_tree();
    el_changeset cs;
    build(&cs);
    char *buf = diff_of(&cs, NULL);
    const char *pa = strstr(buf, "diff --git a/a.c b/a.c\n");
    const char *pb = strstr(buf, "diff --git a/b.sh b/b.sh\n");
    const char *pc = strstr(buf, "diff --git a/new/deep/c.c b/new/deep/c.c\nnew file mode 100644\n");
    const char *pg = strstr(buf, "diff --git a/old/gone.c b/old/gone.c\ndeleted file mode 100644\n");
    assert_non_null(pa);
    assert_non_null(pb);
    assert_non_null(pc);
    assert_non_null(pg);
    assert_true(pa < pb && pb < pc && pc < pg);
    assert_true(tt_contains(buf, "-int a;\n+int a = 1;\n"));
    free(buf);
    el_changeset_free(&cs);
}

/* PATHs none of which exist give bounds with no root: nothing may be
 * written (fail closed), not "anywhere". */
static void test_bounds_with_no_root(void **state)
{
    (void)state;
    make_tree();
    char *before = snapshot();
    char *gone = p("no/such/dir");
    el_bounds b;
    el_bounds_of_paths(&b, &gone, 1);
    assert_int_equal(b.n, 0);
    el_changeset cs;
    el_changeset_init(&cs, tt_dir);
    el_changeset_bound(&cs, &b);
    char *err = NULL;
    char *a = p("a.c");
    el_hash128 now = h(A_OLD);
    assert_int_equal(el_changeset_modify(&cs, a, &now, "x", 1, &err), -1);
    assert_non_null(strstr(err, "lies outside the tree given"));
    free(err);
    char *after = snapshot();
    assert_string_equal(before, after);
    free(after);
    free(before);
    free(a);
    free(gone);
    el_changeset_free(&cs);
    el_bounds_free(&b);
}

static void test_refusals_when_adding(void **state)
{
    (void)state;
    make_tree();
    char *before = snapshot();
    el_changeset cs;
    el_changeset_init(&cs, tt_dir);
    char *err = NULL;
    char *a = p("a.c"), *k = p("keep.c"), *missing = p("missing.c");
    /* The plan was made from other content. */
    el_hash128 other = h("int a; /* other */\n");
    assert_int_equal(el_changeset_modify(&cs, a, &other, "x", 1, &err), -1);
    assert_non_null(err);
    assert_true(strncmp(err, "a.c: ", 5) == 0);
    free(err);
    err = NULL;
    assert_int_equal(el_changeset_delete(&cs, a, &other, &err), -1);
    assert_true(strncmp(err, "a.c: ", 5) == 0);
    free(err);
    err = NULL;
    assert_int_equal(cs.n, 0);
    /* Missing file. */
    assert_int_equal(el_changeset_modify(&cs, missing, NULL, "x", 1, &err), -1);
    assert_true(strncmp(err, "missing.c: ", 11) == 0);
    free(err);
    err = NULL;
    /* Creating an existing file. */
    assert_int_equal(el_changeset_create(&cs, k, "x", 1, 0644, &err), -1);
    assert_true(strncmp(err, "keep.c: ", 8) == 0);
    free(err);
    err = NULL;
    /* Creating twice. */
    assert_int_equal(el_changeset_create(&cs, missing, "x", 1, 0644, &err), 0);
    assert_int_equal(el_changeset_create(&cs, missing, "y", 1, 0644, &err), -1);
    free(err);
    err = NULL;
    /* A second modification builds on the first. */
    el_hash128 ha = h(A_OLD), hx = h("x\n");
    assert_int_equal(el_changeset_modify(&cs, a, &ha, "x\n", 2, &err), 0);
    assert_int_equal(el_changeset_modify(&cs, a, &ha, "y\n", 2, &err), -1);
    free(err);
    err = NULL;
    assert_int_equal(el_changeset_modify(&cs, a, &hx, "z\n", 2, &err), 0);
    assert_string_equal(el_changeset_find(&cs, a)->new_text, "z\n");
    assert_same_tree(before, "adding changes");
    el_changeset_free(&cs);
    free(a);
    free(k);
    free(missing);
    free(before);
}

/* Every write of the commit failing in turn, with and without backups. */
static void fail_each_write(bool backup)
{
    int succeeded_at = 0;
    for (int k = 1; k <= 40 && !succeeded_at; k++) {
        tt_rmtree(tt_dir);
        assert_int_equal(mkdir(tt_dir, 0700), 0);
        make_tree();
        if (backup)
            put("a.c.orig", "an older backup\n", 0604);   /* overwritten, so restored */
        char *before = snapshot();
        el_changeset cs;
        build(&cs);
        char num[16];
        snprintf(num, sizeof num, "%d", k);
        setenv("EL_TEST_FAIL_WRITE", num, 1);
        char *err = NULL;
        int rc = el_changeset_commit(&cs, backup, &err);
        unsetenv("EL_TEST_FAIL_WRITE");
        if (rc == 0) {
            succeeded_at = k;
            assert_committed();
            assert_no_litter();
        } else {
            assert_non_null(err);
            /* "PATH: what went wrong" */
            assert_non_null(strstr(err, ": "));
            assert_non_null(strstr(err, "Input/output error"));
            assert_non_null(strstr(err, "nothing was changed"));
            char *what = tt_fmt("EL_TEST_FAIL_WRITE=%d (%s)", k, err);
            assert_same_tree(before, what);
            free(what);
            free(err);
        }
        el_changeset_free(&cs);
        free(before);
    }
    /* the journal, 3 temporaries + 4 renames, and 3 + 3 more for the
     * backups */
    assert_int_equal(succeeded_at, backup ? 15 : 9);
}

static void test_fail_each_write(void **state)
{
    (void)state;
    fail_each_write(false);
}

static void test_fail_each_write_with_backup(void **state)
{
    (void)state;
    fail_each_write(true);
}

static void test_touched_before_commit(void **state)
{
    (void)state;
    make_tree();
    char *before = snapshot();
    el_changeset cs;
    build(&cs);
    /* b.sh is the second file: a.c is already replaced when the touch is
     * found, and must be put back. */
    char *b = p("b.sh");
    setenv("EL_TEST_TOUCH_BEFORE_COMMIT", b, 1);
    char *err = NULL;
    assert_int_equal(el_changeset_commit(&cs, true, &err), -1);
    unsetenv("EL_TEST_TOUCH_BEFORE_COMMIT");
    assert_non_null(err);
    assert_true(strncmp(err, "b.sh: ", 6) == 0);
    free(err);
    /* The touch is kept; everything else as before. */
    char *touched = tt_fmt("%s\n", B_OLD);
    assert_file("b.sh", touched, 0755);
    put("b.sh", B_OLD, 0755);
    assert_same_tree(before, "touched file");
    free(touched);
    free(b);
    el_changeset_free(&cs);
    free(before);
}

static void test_changed_before_commit(void **state)
{
    (void)state;
    make_tree();
    el_changeset cs;
    build(&cs);
    put("old/gone.c", "edited meanwhile\n", 0640);
    char *before = snapshot();
    char *err = NULL;
    assert_int_equal(el_changeset_commit(&cs, false, &err), -1);
    assert_true(strncmp(err, "old/gone.c: ", 12) == 0);
    assert_true(tt_contains(err, "nothing was written"));
    free(err);
    assert_same_tree(before, "changed file");
    el_changeset_free(&cs);

    /* A file created meanwhile where the set creates one. */
    put("old/gone.c", GONE, 0640);
    build(&cs);
    put("new/deep/c.c", "mine\n", 0644);
    free(before);
    before = snapshot();
    assert_int_equal(el_changeset_commit(&cs, false, &err), -1);
    assert_true(strncmp(err, "new/deep/c.c: ", 14) == 0);
    free(err);
    assert_same_tree(before, "created meanwhile");
    el_changeset_free(&cs);
    free(before);
}

/* A file without write permission is refused at commit, even as root and
 * even though renaming over it would work; so is deleting it. */
static void test_read_only_file(void **state)
{
    (void)state;
    make_tree();
    put("ro.c", "x\n", 0444);
    char *before = snapshot();
    char *x = p("ro.c"), *err = NULL;
    el_changeset cs;
    build(&cs);
    assert_int_equal(el_changeset_modify(&cs, x, NULL, "y\n", 2, &err), 0);
    assert_int_equal(el_changeset_commit(&cs, false, &err), -1);
    assert_string_equal(err, "ro.c: is read-only; nothing was written");
    free(err);
    assert_same_tree(before, "read-only file, modified");
    el_changeset_free(&cs);

    err = NULL;
    build(&cs);
    assert_int_equal(el_changeset_delete(&cs, x, NULL, &err), 0);
    assert_int_equal(el_changeset_commit(&cs, false, &err), -1);
    assert_true(strncmp(err, "ro.c: is read-only", 18) == 0);
    free(err);
    assert_same_tree(before, "read-only file, deleted");
    el_changeset_free(&cs);
    free(x);
    free(before);
}

static void test_read_only_directory(void **state)
{
    (void)state;
    make_tree();
    put("ro/x.c", "x\n", 0644);
    char *ro = p("ro");
    assert_int_equal(chmod(ro, 0555), 0);
    if (!tt_write_refused(ro)) {
        chmod(ro, 0755);
        free(ro);
        print_message("skipped: running as root, a 0555 directory is writable\n");
        skip();
        return;
    }
    char *before = snapshot();
    el_changeset cs;
    build(&cs);
    char *x = p("ro/x.c"), *err = NULL;
    assert_int_equal(el_changeset_modify(&cs, x, NULL, "y\n", 2, &err), 0);
    assert_int_equal(el_changeset_commit(&cs, false, &err), -1);
    assert_true(strncmp(err, "ro/x.c: ", 8) == 0);
    free(err);
    assert_same_tree(before, "read-only directory");
    chmod(ro, 0755);
    el_changeset_free(&cs);
    free(x);
    free(ro);
    free(before);
}

/* A real failure even root meets: a new file below a regular file. */
static void test_impossible_create(void **state)
{
    (void)state;
    make_tree();
    put("blocker", "a file\n", 0644);
    char *before = snapshot();
    el_changeset cs;
    build(&cs);
    char *x = p("blocker/sub/x.c"), *err = NULL;
    assert_int_equal(el_changeset_create(&cs, x, "x\n", 2, 0644, &err), 0);
    assert_int_equal(el_changeset_commit(&cs, false, &err), -1);
    assert_true(strncmp(err, "blocker/sub/x.c: ", 17) == 0);
    free(err);
    assert_same_tree(before, "impossible create");
    el_changeset_free(&cs);
    free(x);
    free(before);
}

static void test_backup(void **state)
{
    (void)state;
    make_tree();
    char *before = snapshot();
    el_changeset cs;
    build(&cs);
    char *err = NULL;
    assert_int_equal(el_changeset_commit(&cs, true, &err), 0);
    assert_committed();
    assert_file("a.c.orig", A_OLD, 0644);
    assert_file("b.sh.orig", B_OLD, 0755);
    assert_file("old/gone.c.orig", GONE, 0640);
    assert_false(exists("new/deep/c.c.orig"));
    assert_no_litter();
    assert_int_equal(el_changeset_undo(&cs, &err), 0);
    assert_same_tree(before, "undo with backups");
    el_changeset_free(&cs);
    free(before);
}

static void test_undo_keeps_later_edits(void **state)
{
    (void)state;
    make_tree();
    el_changeset cs;
    build(&cs);
    char *err = NULL;
    assert_int_equal(el_changeset_commit(&cs, false, &err), 0);
    put("b.sh", "edited after the commit\n", 0755);
    assert_int_equal(el_changeset_undo(&cs, &err), -1);
    assert_non_null(err);
    assert_true(tt_contains(err, "b.sh"));
    assert_false(tt_contains(err, "a.c"));
    free(err);
    assert_file("b.sh", "edited after the commit\n", 0755);
    assert_file("a.c", A_OLD, 0644);
    assert_file("old/gone.c", GONE, 0640);
    assert_false(exists("new"));
    el_changeset_free(&cs);
}

/* A backup replaces an older FILE.orig; undo brings the older one back
 * (content and mode), it does not just delete the new backup. */
static void test_undo_restores_older_backup(void **state)
{
    (void)state;
    make_tree();
    put("a.c.orig", "an older backup\n", 0604);
    char *before = snapshot();
    el_changeset cs;
    build(&cs);
    char *err = NULL;
    assert_int_equal(el_changeset_commit(&cs, true, &err), 0);
    assert_file("a.c.orig", A_OLD, 0644);
    assert_int_equal(el_changeset_undo(&cs, &err), 0);
    assert_file("a.c.orig", "an older backup\n", 0604);
    assert_same_tree(before, "undo with an older backup");
    el_changeset_free(&cs);
    free(before);
}

/* What a.c held when SIGINT arrived (the handler reads it: open/read are
 * async-signal-safe). */
static char at_signal[64];
static volatile sig_atomic_t signalled;

static void on_sigint(int sig)
{
    (void)sig;
    char *path = p("a.c");
    int fd = open(path, O_RDONLY);
    ssize_t n = fd >= 0 ? read(fd, at_signal, sizeof at_signal - 1) : -1;
    at_signal[n > 0 ? n : 0] = '\0';
    if (fd >= 0)
        close(fd);
    free(path);
    signalled = 1;
}

/* A signal raised as the commit starts is held until it is complete. */
static void test_signal_held_until_done(void **state)
{
    (void)state;
    make_tree();
    struct sigaction sa = {0}, old;
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    assert_int_equal(sigaction(SIGINT, &sa, &old), 0);
    signalled = 0;
    el_changeset cs;
    build(&cs);
    char *err = NULL;
    setenv("EL_TEST_SIGNAL_DURING_COMMIT", "2", 1);
    int rc = el_changeset_commit(&cs, false, &err);
    unsetenv("EL_TEST_SIGNAL_DURING_COMMIT");
    sigaction(SIGINT, &old, NULL);
    assert_int_equal(rc, 0);
    assert_true(signalled);
    assert_string_equal(at_signal, A_NEW);   /* delivered after, not during */
    assert_committed();
    assert_no_litter();
    el_changeset_free(&cs);
}

static void test_empty(void **state)
{
    (void)state;
    make_tree();
    char *before = snapshot();
    el_changeset cs;
    el_changeset_init(&cs, tt_dir);
    assert_true(el_changeset_empty(&cs));
    char *err = NULL;
    assert_int_equal(el_changeset_commit(&cs, true, &err), 0);
    assert_same_tree(before, "empty commit");
    /* Writing a file's own content is no change: the file is not touched. */
    char *a = p("a.c");
    struct stat st0, st1;
    assert_int_equal(stat(a, &st0), 0);
    assert_int_equal(el_changeset_modify(&cs, a, NULL, A_OLD, strlen(A_OLD), &err), 0);
    assert_true(el_changeset_empty(&cs));
    size_t n = 1;
    char *buf = diff_of(&cs, &n);
    assert_int_equal(n, 0);
    free(buf);
    assert_int_equal(el_changeset_commit(&cs, true, &err), 0);
    assert_int_equal(stat(a, &st1), 0);
    assert_int_equal(st0.st_ino, st1.st_ino);
    assert_same_tree(before, "no-op commit");
    assert_int_equal(el_changeset_undo(&cs, &err), 0);
    assert_same_tree(before, "no-op undo");
    free(a);
    el_changeset_free(&cs);
    free(before);
}

/* rmdir_upto (stop NULL) climbs to, not into, the root; a non-empty directory stays. */
static void test_rmdir_chain(void **state)
{
    (void)state;
    put("x/y/z/only.c", "1\n", 0644);
    put("x/other.c", "2\n", 0644);
    put("solo/f.c", "3\n", 0644);
    char *before = snapshot();
    el_changeset cs;
    el_changeset_init(&cs, tt_dir);
    char *err = NULL;
    char *f1 = p("x/y/z/only.c"), *d1 = p("x/y/z"), *f2 = p("solo/f.c"), *d2 = p("solo");
    assert_int_equal(el_changeset_delete(&cs, f1, NULL, &err), 0);
    assert_int_equal(el_changeset_delete(&cs, f2, NULL, &err), 0);
    el_changeset_rmdir_upto(&cs, d1, NULL);
    el_changeset_rmdir_upto(&cs, d2, NULL);
    assert_int_equal(el_changeset_commit(&cs, false, &err), 0);
    assert_false(exists("x/y"));
    assert_true(exists("x/other.c"));
    assert_false(exists("solo"));
    struct stat st;
    assert_int_equal(stat(tt_dir, &st), 0);      /* the root stays, even when empty */
    assert_int_equal(el_changeset_undo(&cs, &err), 0);
    assert_same_tree(before, "undo of removed directories");
    el_changeset_free(&cs);
    free(f1);
    free(d1);
    free(f2);
    free(d2);
    free(before);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_commit_and_undo, setup, teardown),
        cmocka_unit_test_setup_teardown(test_diff_of_set, setup, teardown),
        cmocka_unit_test_setup_teardown(test_bounds_with_no_root, setup, teardown),
        cmocka_unit_test_setup_teardown(test_refusals_when_adding, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fail_each_write, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fail_each_write_with_backup, setup, teardown),
        cmocka_unit_test_setup_teardown(test_touched_before_commit, setup, teardown),
        cmocka_unit_test_setup_teardown(test_changed_before_commit, setup, teardown),
        cmocka_unit_test_setup_teardown(test_read_only_file, setup, teardown),
        cmocka_unit_test_setup_teardown(test_undo_restores_older_backup, setup, teardown),
        cmocka_unit_test_setup_teardown(test_signal_held_until_done, setup, teardown),
        cmocka_unit_test_setup_teardown(test_read_only_directory, setup, teardown),
        cmocka_unit_test_setup_teardown(test_impossible_create, setup, teardown),
        cmocka_unit_test_setup_teardown(test_backup, setup, teardown),
        cmocka_unit_test_setup_teardown(test_undo_keeps_later_edits, setup, teardown),
        cmocka_unit_test_setup_teardown(test_empty, setup, teardown),
        cmocka_unit_test_setup_teardown(test_rmdir_chain, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
