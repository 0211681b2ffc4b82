/* tests/lint/test_changeset_kill.c -- a commit killed at any step loses
 * nothing (lint/change/changeset.h, lint/change/journal.h).
 *
 * A child process commits a set of changes (a file modified, an
 * executable modified, a file created two directories deep, a file
 * deleted whose directory empties; with and without .orig backups, one
 * replacing an older backup) and is killed at its N-th step
 * (EL_TEST_KILL_AT=N, lint/change/inject.h), for every N until the commit
 * runs through.  Then:
 *   - SIGKILL: the tree may be half-changed, but el_journal_recover
 *     (what the next run does) makes it exactly the tree before or the
 *     tree after -- names, contents, modes -- with no temporary file or
 *     journal left; both outcomes occur over the steps;
 *   - SIGTERM: held during the commit, so the process dies only once the
 *     set is complete: the tree is the tree after (before, when the
 *     signal comes at step 1, before the commit holds signals), with no
 *     journal left and nothing to recover. */
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lint_test.h"
#include "changeset.h"
#include "journal.h"
#include "mem.h"
#include "path.h"

static void put(const char *rel, const char *content, mode_t mode)
{
    char *path = tt_write(tt_dir, rel, content);
    assert_int_equal(chmod(path, mode), 0);
    free(path);
}

static el_hash128 h(const char *s)
{
    return el_hash_bytes(s, strlen(s));
}

static void make_tree(bool older_backup)
{
    tt_rmtree(tt_dir);
    assert_int_equal(mkdir(tt_dir, 0700), 0);
    put("a.c", "int a;\n", 0644);
    put("b.sh", "#!/bin/sh\necho b\n", 0755);
    put("old/sub/gone.c", "gone\n", 0640);
    put("keep.c", "keep\n", 0600);
    if (older_backup)
        put("a.c.orig", "an older backup\n", 0604);
}

/* The set: the same four changes each time. */
static void build(el_changeset *cs)
{
    el_changeset_init(cs, tt_dir);
    char *err = NULL;
    char *a = tt_path(tt_dir, "a.c"), *b = tt_path(tt_dir, "b.sh"), *c = tt_path(tt_dir, "new/deep/c.c"),
         *g = tt_path(tt_dir, "old/sub/gone.c"), *o = tt_path(tt_dir, "old/sub");
    el_hash128 ha = h("int a;\n"), hb = h("#!/bin/sh\necho b\n"), hg = h("gone\n");
    assert_int_equal(el_changeset_modify(cs, a, &ha, "int a = 1;\n", 11, &err), 0);
    assert_int_equal(el_changeset_modify(cs, b, &hb, "#!/bin/sh\necho B\n", 18, &err), 0);
    assert_int_equal(el_changeset_create(cs, c, "int c;\n", 7, 0644, &err), 0);
    assert_int_equal(el_changeset_delete(cs, g, &hg, &err), 0);
    el_changeset_rmdir_upto(cs, o, NULL);
    free(a);
    free(b);
    free(c);
    free(g);
    free(o);
}

/* Commit in a child killed by sig at step n; the child's wait status. */
static int commit_in_child(int n, int sig, bool backup)
{
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        char num[16], s[16];
        snprintf(num, sizeof num, "%d", n);
        snprintf(s, sizeof s, "%d", sig);
        setenv("EL_TEST_KILL_AT", num, 1);
        setenv("EL_TEST_KILL_SIGNAL", s, 1);
        el_changeset cs;
        build(&cs);
        char *err = NULL;
        int rc = el_changeset_commit(&cs, backup, &err);
        _exit(rc == 0 ? 0 : 1);
    }
    int st = 0;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    return st;
}

/* The tree after a complete commit, from a commit nothing interrupts. */
static char *after_tree(bool backup, bool older)
{
    make_tree(older);
    int st = commit_in_child(0, SIGKILL, backup);
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    return tt_snapshot(tt_dir, true);
}

static void assert_clean(const char *snap, const char *what)
{
    if (strstr(snap, ".el-") || strstr(snap, ".ember-changeset-"))
        fail_msg("%s: leftovers:\n%s", what, snap);
}

static void kill_every_step(int sig, bool backup, bool older)
{
    char *after = after_tree(backup, older);
    make_tree(older);
    char *before = tt_snapshot(tt_dir, true);
    int n, as_before = 0, as_after = 0;
    for (n = 1; n < 200; n++) {
        make_tree(older);
        int st = commit_in_child(n, sig, backup);
        if (WIFEXITED(st)) {
            assert_int_equal(WEXITSTATUS(st), 0); /* past the last step: it ran through */
            break;
        }
        assert_true(WIFSIGNALED(st) && WTERMSIG(st) == sig);
        char *what = tt_fmt("signal %d at step %d%s", sig, n, backup ? " (--backup)" : "");
        char *err = NULL;
        int found = el_journal_recover(&tt_dir, 1, true, &err);
        if (found < 0)
            fail_msg("%s: recovery failed: %s", what, err);
        if (sig == SIGTERM)
            assert_int_equal(found, 0); /* held: nothing half done */
        char *now = tt_snapshot(tt_dir, true);
        assert_clean(now, what);
        if (!strcmp(now, before)) {
            as_before++;
        } else {
            tt_assert_same(after, now, what);
            as_after++;
        }
        if (sig == SIGTERM && n > 1)
            tt_assert_same(after, now, what);
        free(now);
        free(what);
    }
    assert_true(n > 15); /* every kind of step was reached */
    assert_true(as_before > 0);
    assert_true(as_after > 0);
    free(before);
    free(after);
}

static void test_sigkill(void **state)
{
    (void)state;
    kill_every_step(SIGKILL, false, false);
}

static void test_sigkill_backup(void **state)
{
    (void)state;
    kill_every_step(SIGKILL, true, true);
}

static void test_sigterm(void **state)
{
    (void)state;
    kill_every_step(SIGTERM, false, false);
}

static void test_sigterm_backup(void **state)
{
    (void)state;
    kill_every_step(SIGTERM, true, false);
}

/* A journal torn while it was written changed nothing: removed. */
static void test_torn_journal(void **state)
{
    (void)state;
    make_tree(false);
    char *before = tt_snapshot(tt_dir, true);
    free(tt_write(tt_dir, ".ember-changeset-0123456789abcdef", "ember changeset journal 1\nop M"));
    char *err = NULL;
    assert_int_equal(el_journal_recover(&tt_dir, 1, false, &err), 1); /* reported only */
    assert_true(tt_file_contains(tt_dir, ".ember-changeset-0123456789abcdef", "journal"));
    assert_int_equal(el_journal_recover(&tt_dir, 1, true, &err), 1);
    char *now = tt_snapshot(tt_dir, true);
    tt_assert_same(before, now, "torn journal removed");
    free(now);
    free(before);
}

/* A journal another run holds (locked) is a commit in progress: left
 * alone, and the run that found it stops with a message. */
static void test_journal_in_use(void **state)
{
    (void)state;
    make_tree(false);
    char *j = tt_write(tt_dir, ".ember-changeset-00112233aabbccdd", "ember changeset journal 1\n");
    int fd = open(j, O_RDONLY);
    assert_true(fd >= 0);
    assert_int_equal(flock(fd, LOCK_EX), 0);
    char *err = NULL;
    assert_int_equal(el_journal_recover(&tt_dir, 1, true, &err), -1);
    assert_true(tt_contains(err, "another run is changing these files right now"));
    free(err);
    assert_true(tt_file_contains(tt_dir, ".ember-changeset-00112233aabbccdd", "journal"));
    close(fd);
    free(j);
}

/* A journal file somebody planted in the tree: recovery would rename and
 * delete what it names (the review found `emberlint --fix` deleting a
 * file outside the tree this way).  Left alone, with a message; the
 * outside file stays. */
static void plant(const char *victim /* NULL: its own names */, mode_t mode)
{
    el_journal j;
    el_journal_init(&j);
    char *a = tt_path(tt_dir, "a.c");
    el_jop *o = el_journal_add(&j, EL_JOP_MODIFY, a);
    if (victim) { /* "the original, beside it": the victim */
        free(o->aside);
        o->aside = el_xstrdup(victim);
    }
    o->old_hash = o->new_hash = h("int a;\n");
    o->mode = 0644;
    el_journal_add_copy(&j, tt_dir);
    assert_int_equal(el_journal_write(&j), 0);
    assert_int_equal(chmod(j.copies[0], mode), 0);
    el_journal_free(&j); /* unlocked, left on disk */
    free(a);
}

static void test_planted_journal(void **state)
{
    (void)state;
    char *outside = tt_tmpdir();
    char *victim = tt_write(outside, "victim.txt", "precious\n");
    for (int k = 0; k < 2; k++) {
        make_tree(false);
        if (k)  /* its own names, but others may write it */
            plant(NULL, 0666);
        else
            plant(victim, 0644);
        char *err = NULL;
        assert_int_equal(el_journal_recover(&tt_dir, 1, true, &err), 0);
        assert_null(err);
        assert_true(tt_file_contains(outside, "victim.txt", "precious"));
        char *snap = tt_snapshot(tt_dir, true);
        assert_non_null(strstr(snap, ".ember-changeset-")); /* left alone */
        free(snap);
    }
    tt_rmtree(outside);
    free(victim);
    free(outside);
}

/* A journal of a run that reached the tree through a symlink spells its
 * paths through the link: still this tree's journal, resolved. */
static void test_journal_through_symlink(void **state)
{
    (void)state;
    make_tree(false);
    char *link = tt_fmt("%s-link", tt_dir);
    assert_int_equal(symlink(tt_dir, link), 0);
    el_journal j;
    el_journal_init(&j);
    char *a = tt_path(link, "a.c");
    el_jop *o = el_journal_add(&j, EL_JOP_MODIFY, a);
    o->old_hash = o->new_hash = h("int a;\n");
    o->mode = 0644;
    el_journal_add_copy(&j, link);
    assert_int_equal(el_journal_write(&j), 0);
    el_journal_free(&j);
    char *err = NULL;
    assert_int_equal(el_journal_recover(&link, 1, true, &err), 1);
    assert_null(err);
    char *snap = tt_snapshot(tt_dir, true);
    assert_null(strstr(snap, ".ember-changeset-")); /* completed and removed */
    free(snap);
    unlink(link);
    free(link);
    free(a);
}

/* A journal above the run's tree that another run holds, or that names
 * none of the tree's files, is a sibling tree's run: not ours, no stop
 * (two test runs in /tmp/a and /tmp/b once stopped each other this way). */
static void test_sibling_journal_above(void **state)
{
    (void)state;
    make_tree(false);
    char *sub = tt_path(tt_dir, "sub");
    assert_int_equal(mkdir(sub, 0755), 0);
    char *held = tt_write(tt_dir, ".ember-changeset-00112233aabbccdd", "ember changeset journal 1\n");
    int fd = open(held, O_RDONLY);
    assert_true(fd >= 0);
    assert_int_equal(flock(fd, LOCK_EX), 0);
    char *err = NULL;
    assert_int_equal(el_journal_recover(&sub, 1, true, &err), 0);
    assert_null(err);
    assert_true(tt_file_contains(tt_dir, ".ember-changeset-00112233aabbccdd", "journal"));
    /* the same journal held, run on the tree that holds it: a stop */
    assert_int_equal(el_journal_recover(&tt_dir, 1, true, &err), -1);
    assert_true(tt_contains(err, "another run is changing these files right now"));
    free(err);
    close(fd);
    unlink(held);
    free(held);
    free(sub);
}

/* Temporary files an older version left beside a file are removed with a
 * message; a copy that differs from the file is kept. */
static void test_old_leftovers(void **state)
{
    (void)state;
    make_tree(false);
    put(".a.c.el-tmp.AbC123", "int a = 1;\n", 0644);
    put(".a.c.el-old.XyZ789", "int a = 0; /* the original */\n", 0644);
    char *a = tt_path(tt_dir, "a.c");
    el_journal_sweep_beside(a);
    free(a);
    char *now = tt_snapshot(tt_dir, true);
    assert_null(strstr(now, ".a.c.el-tmp.AbC123"));
    assert_non_null(strstr(now, ".a.c.el-old.XyZ789"));
    free(now);
}

/* The message a file gets when its second link is not an interrupted
 * run's (err from modifying it): the advice to copy it away. */
static void assert_plain_link_message(const char *err, const char *what)
{
    if (!err || !tt_contains(err, "has 2 hard links") || !tt_contains(err, "cp a.c x && mv x a.c") ||
        tt_contains(err, "interrupted"))
        fail_msg("%s: %s", what, err ? err : "(no message)");
}

static char *modify_a(void)
{
    char *a = tt_path(tt_dir, "a.c");
    el_changeset cs;
    el_changeset_init(&cs, tt_dir);
    char *err = NULL;
    el_hash128 any = h("int a;\n");
    assert_int_equal(el_changeset_modify(&cs, a, &any, "int a = 2;\n", 11, &err), -1);
    el_changeset_free(&cs);
    free(a);
    return err;
}

/* A commit killed while the original of a.c has its second name: a later
 * run that does not resolve that journal (a PATH below the tree the
 * journal is in, or another tool's) meets a.c with two links.  The
 * message names the interrupted run's copy and its journal, and the
 * command that resolves it (a run on the journal's directory), not the
 * advice to copy the file away (which would hide the interrupted state);
 * following it works. */
static void test_link_of_interrupted_run(void **state)
{
    (void)state;
    char *a = tt_path(tt_dir, "a.c");
    int n;
    struct stat st;
    for (n = 1; n < 200; n++) {
        make_tree(false);
        int st_child = commit_in_child(n, SIGKILL, false);
        assert_true(WIFSIGNALED(st_child));
        if (lstat(a, &st) == 0 && st.st_nlink == 2)
            break;
    }
    assert_true(n < 200);
    char *err = modify_a();
    assert_non_null(err);
    char *dir = el_path_display(tt_dir);
    char *fix = el_xasprintf("'emberlint --fix %s'", dir), *apply = el_xasprintf("'ember-migrate apply %s'", dir);
    if (!tt_contains(err, "has 2 hard links; the other one, .a.c.el-") ||
        !tt_contains(err, ".old, is the original of this file an interrupted run left") ||
        !tt_contains(err, "its journal ") || !tt_contains(err, "/.ember-changeset-") ||
        !tt_contains(err, fix) || !tt_contains(err, apply) || tt_contains(err, "cp "))
        fail_msg("%s", err);
    free(err);
    /* a link of the user's too: "one of the others" */
    char *b = tt_path(tt_dir, "mine.c");
    assert_int_equal(link(a, b), 0);
    err = modify_a();
    if (!tt_contains(err, "has 3 hard links; one of the others, .a.c.el-"))
        fail_msg("%s", err);
    free(err);
    unlink(b);
    /* what it says to do resolves it */
    err = NULL;
    assert_int_equal(el_journal_recover(&tt_dir, 1, true, &err), 1);
    assert_null(err);
    assert_int_equal(lstat(a, &st), 0);
    assert_int_equal(st.st_nlink, 1);
    free(fix);
    free(apply);
    free(dir);
    free(b);
    free(a);
}

/* A second name that only looks like an interrupted run's is not called
 * one (following that advice would loop: a run on the tree finds no
 * journal to resolve): an older version's leftover .a.c.el-old.XXXXXX,
 * the user's own .a.c.el-mybackup, a .a.c.el-<id>.old whose journal is
 * gone.  Each gets the advice to copy the file away. */
static void test_link_not_of_a_run(void **state)
{
    (void)state;
    static const char *const names[] = {".a.c.el-old.XyZ789", ".a.c.el-mybackup",
                                        ".a.c.el-0123456789abcdef.old", ".a.c.el-0123456789abcdef.new"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        make_tree(false);
        char *a = tt_path(tt_dir, "a.c"), *l = tt_path(tt_dir, names[i]);
        assert_int_equal(link(a, l), 0);
        char *err = modify_a();
        assert_plain_link_message(err, names[i]);
        free(err);
        /* a journal of another id changes nothing */
        free(tt_write(tt_dir, ".ember-changeset-fedcba9876543210", "ember changeset journal 1\nend\n"));
        err = modify_a();
        assert_plain_link_message(err, names[i]);
        free(err);
        free(l);
        free(a);
    }
}

/* Killed between linking a created file into place and removing its
 * temporary (.c.c.el-<id>.new, the new content): the created file has two
 * links, the other one its new content, not an original. */
static void test_new_link_of_interrupted_run(void **state)
{
    (void)state;
    char *c = tt_path(tt_dir, "new/deep/c.c"), *deep = tt_path(tt_dir, "new/deep");
    char *tmp = NULL;
    for (int n = 1; n < 200 && !tmp; n++) {
        make_tree(false);
        assert_true(WIFSIGNALED(commit_in_child(n, SIGKILL, false)));
        struct stat st;
        DIR *d = opendir(deep);
        struct dirent *e;
        while (d && !tmp && (e = readdir(d))) {
            size_t l = strlen(e->d_name);
            if (!strncmp(e->d_name, ".c.c.el-", 8) && l > 4 && !strcmp(e->d_name + l - 4, ".new") &&
                lstat(c, &st) != 0)
                tmp = tt_path(deep, e->d_name);
        }
        if (d)
            closedir(d);
    }
    assert_non_null(tmp);
    assert_int_equal(link(tmp, c), 0); /* install_one's link(), not its unlink() */
    el_changeset cs;
    el_changeset_init(&cs, tt_dir);
    char *err = NULL;
    el_hash128 hc = h("int c;\n");
    assert_int_equal(el_changeset_modify(&cs, c, &hc, "int c = 1;\n", 11, &err), -1);
    if (!err || !tt_contains(err, "has 2 hard links; the other one, new/deep/.c.c.el-") ||
        !tt_contains(err, ".new, is the new content of a file an interrupted run left") ||
        !tt_contains(err, "emberlint --fix ") || tt_contains(err, "original") || tt_contains(err, "cp "))
        fail_msg("%s", err ? err : "(no message)");
    free(err);
    el_changeset_free(&cs);
    err = NULL;
    assert_true(el_journal_recover(&tt_dir, 1, true, &err) == 1);
    assert_null(err);
    char *now = tt_snapshot(tt_dir, true);
    assert_clean(now, "after recovery");
    free(now);
    free(tmp);
    free(deep);
    free(c);
}

int main(void)
{
    el_path_init();
    const struct CMUnitTest tests[] = {
        tt_scratch_test(test_sigkill),
        tt_scratch_test(test_sigkill_backup),
        tt_scratch_test(test_sigterm),
        tt_scratch_test(test_sigterm_backup),
        tt_scratch_test(test_torn_journal),
        tt_scratch_test(test_sibling_journal_above),
        tt_scratch_test(test_planted_journal),
        tt_scratch_test(test_journal_through_symlink),
        tt_scratch_test(test_journal_in_use),
        tt_scratch_test(test_old_leftovers),
        tt_scratch_test(test_link_of_interrupted_run),
        tt_scratch_test(test_link_not_of_a_run),
        tt_scratch_test(test_new_link_of_interrupted_run),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
