/* tests/migrate/test_kill.c -- `ember-migrate apply` killed at every step
 * of its commit (EL_TEST_KILL_AT=N, lint/change/inject.h) by SIGTERM and
 * by SIGKILL, for every N until the apply runs through.  The tree (a
 * frontend file rewritten, a legacy directory moved into backends/ and
 * removed, a kernels.def created) is then:
 *   - SIGTERM: held while the files are replaced, so the process dies
 *     only once the migration is complete; it says so on stderr
 *     ("interrupted by a signal: the changes were written completely",
 *     or "nothing was changed" when the signal came before the commit),
 *     and the tree is exactly the migrated one (or the one before);
 *   - SIGKILL: whatever the step, `plan` refuses to read the tree and
 *     names the journal (exit 2), saying truly whether the kill left files
 *     changed ("half-changed") or every file as before it, and the next
 *     `apply` says what it found, completes or undoes it, then migrates: the tree is
 *     exactly the migrated one, with no temporary file or journal.
 * A journal found where its run did not write it:
 *   - the tree copied (cp -a) with the journal of a SIGKILLed run inside:
 *     the journal names files of the original tree, so it is never acted
 *     on in the copy; the run says where it was written, the command that
 *     resolves it there, and the copy's state (half-changed: plan and
 *     apply refuse, nothing changes; unchanged: it goes on, saying what
 *     to remove); before, "not a journal of this tree (it changes files
 *     outside the tree) ... run again on the same PATHs", though the copy
 *     was run on the same PATH;
 *   - a run on a folder inside the interrupted run's tree: which tree the
 *     journal records, how many of its files lie outside the PATHs, and
 *     `ember-migrate apply <that tree>`. */
#include "migrate_test.h"

#include <limits.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char BLAS_H[] =
    "#ifndef BLAS_OPS_H\n#define BLAS_OPS_H\n#include <eh/eh.h>\n"
    "eh_tensor *eh_blas_dot(const eh_tensor *a, const eh_tensor *b);\n#endif\n";
static const char DOT_C[] =
    "#include \"blas_ops.h\"\n\neh_tensor *eh_blas_dot(const eh_tensor *a, const eh_tensor *b)\n"
    "{\n    return eh_dot(a, b);\n}\n";
static const char APP_C[] =
    "#include \"ops/blas/blas_ops.h\"\n\neh_tensor *inner(const eh_tensor *a)\n{\n"
    "    return eh_blas_dot(a, a);\n}\n";

static char *make_tree(void)
{
    char *dir = tt_tmpdir();
    free(tt_write(dir, "app/ops/blas/blas_ops.h", BLAS_H));
    free(tt_write(dir, "app/ops/blas/dot.c", DOT_C));
    free(tt_write(dir, "app/app.c", APP_C));
    return dir;
}

/* `apply app` through sh (so a death by a signal is a status), killed by
 * sig at step n (0: never). */
static tt_run apply_killed(const char *dir, int n, int sig)
{
    char *at = tt_fmt("EL_TEST_KILL_AT=%d", n), *s = tt_fmt("EL_TEST_KILL_SIGNAL=%d", sig);
    const char *env[] = {at, s, NULL};
    const char *argv[] = {"/bin/sh", "-c", "\"$0\" apply app -- \"$1\"", EMBER_MIGRATE,
                          MT_INCLUDE, NULL};
    tt_run r = tt_exec(dir, argv, env);
    free(at);
    free(s);
    return r;
}

static void assert_clean(const char *snap, const char *what)
{
    if (strstr(snap, ".el-") || strstr(snap, ".ember-changeset-"))
        fail_msg("%s: leftovers:\n%s", what, snap);
}

/* dir's files as a person sees them: no dot-file (temporaries, asides,
 * the journal), no directory without a file. */
static char *visible_files(const char *dir)
{
    char *copy = tt_tmpdir();
    const char *argv[] = {"/bin/sh", "-c",
                          "cd \"$0\" && find . -name '.?*' -prune -o -type f -print | "
                          "while read -r f; do mkdir -p \"$1/${f%/*}\" && cp -p \"$f\" \"$1/$f\"; "
                          "done",
                          dir, copy, NULL};
    tt_run r = tt_exec(dir, argv, NULL);
    assert_int_equal(r.status, 0);
    tt_free(&r);
    char *snap = tt_snapshot(copy, true);
    tt_rmtree(copy);
    free(copy);
    return snap;
}

static void kill_every_step(int sig)
{
    char *ref = make_tree();
    char *before = tt_snapshot(ref, true);
    char *before_files = visible_files(ref);
    tt_run r = apply_killed(ref, 0, sig);
    assert_int_equal(r.status, 0);
    tt_free(&r);
    char *after = tt_snapshot(ref, true);
    tt_rmtree(ref);
    free(ref);

    int n;
    for (n = 1; n < 100; n++) {
        char *dir = make_tree();
        r = apply_killed(dir, n, sig);
        char *what = tt_fmt("signal %d at step %d", sig, n);
        if (r.status == 0) { /* past the last step */
            char *now = tt_snapshot(dir, true);
            tt_assert_same(after, now, what);
            free(now);
            free(what);
            tt_free(&r);
            tt_rmtree(dir);
            free(dir);
            break;
        }
        if (r.status != 128 + sig)
            fail_msg("%s: exit %d\n%s", what, r.status, r.err);
        if (sig == SIGTERM) {
            char *now = tt_snapshot(dir, true);
            assert_clean(now, what);
            bool early = n == 1;
            assert_true(tt_contains(r.err, early ? "interrupted by a signal: nothing was changed"
                                                 : "interrupted by a signal: the changes were "
                                                   "written completely"));
            tt_assert_same(early ? before : after, now, what);
            free(now);
        } else {
            bool journal = false;
            char *now = tt_snapshot(dir, true);
            journal = strstr(now, ".ember-changeset-") != NULL;
            free(now);
            tt_run p = mt_migrate(dir, NULL, "plan", "app", NULL);
            /* the message says what the kill left: every file as before
             * it, or some changed */
            char *files = visible_files(dir);
            bool unchanged = !strcmp(files, before_files);
            free(files);
            if (journal) {
                assert_int_equal(p.status, 2);
                if ((unchanged && tt_contains(p.err, "half-changed")) ||
                    unchanged != tt_contains(p.err, "stopped before changing any of its"))
                    fail_msg("%s: every file is %s, plan said:\n%s", what,
                             unchanged ? "as before" : "not as before", p.err);
            }
            tt_free(&p);
            tt_run again = apply_killed(dir, 0, sig);
            if (again.status != 0)
                fail_msg("%s: the next apply exited %d\n%s", what, again.status, again.err);
            if (journal)
                assert_true(tt_contains(again.err, "an interrupted run"));
            if (journal && unchanged)
                assert_false(tt_contains(again.err, "had changed some") ||
                             tt_contains(again.err, "undone"));
            now = tt_snapshot(dir, true);
            assert_clean(now, what);
            tt_assert_same(after, now, what);
            free(now);
            tt_free(&again);
        }
        free(what);
        tt_free(&r);
        tt_rmtree(dir);
        free(dir);
    }
    assert_true(n > 12); /* the journal, directories, temporaries, renames, removals */
    free(before);
    free(before_files);
    free(after);
}

static void test_sigterm_every_step(void **state)
{
    (void)state;
    kill_every_step(SIGTERM);
}

static void test_sigkill_every_step(void **state)
{
    (void)state;
    kill_every_step(SIGKILL);
}

/* A tree whose apply was SIGKILLed with some files changed (half), or
 * none (the journal written, nothing replaced yet). */
static char *killed_tree(bool half)
{
    for (int n = 1; n < 200; n++) {
        char *dir = make_tree();
        tt_run r = apply_killed(dir, n, SIGKILL);
        bool killed = r.status != 0;
        tt_free(&r);
        if (killed) {
            tt_run p = mt_migrate(dir, NULL, "plan", "app", NULL);
            bool is_half = tt_contains(p.err, "half-changed");
            bool journal = tt_contains(p.err, ".ember-changeset-");
            tt_free(&p);
            if (journal && is_half == half)
                return dir;
        }
        tt_rmtree(dir);
        free(dir);
        if (!killed)
            break;
    }
    fail_msg("no step of the apply leaves a %s tree", half ? "half-changed" : "unchanged");
    return NULL;
}

static char *copy_tree(const char *dir)
{
    char *to = tt_tmpdir();
    char *from = tt_fmt("%s/.", dir);
    const char *argv[] = {"/bin/cp", "-a", from, to, NULL};
    tt_run r = tt_exec(NULL, argv, NULL);
    assert_int_equal(r.status, 0);
    tt_free(&r);
    free(from);
    return to;
}

static void test_copied_journal(void **state)
{
    (void)state;
    char *dir = killed_tree(true);
    char real[PATH_MAX];
    assert_non_null(realpath(dir, real));
    char *orig_app = tt_fmt("%s/app", real);
    char *copy = copy_tree(dir);
    char *snap = tt_snapshot(copy, true);
    char *where = tt_fmt("the journal of a run interrupted in %s, copied or moved here", orig_app);
    char *cmd = tt_fmt("that run is not resolved there yet: `ember-migrate apply %s` completes or "
                       "undoes it (and then migrates %s too)", orig_app, orig_app);
    const char *cmds[] = {"plan", "apply"};
    /* on the copy's tree, and on a folder below its journal (app/ops: the
     * journal, in app/, is above the PATH; it was skipped silently as a
     * sibling tree's, and the half-changed copy migrated) */
    const char *paths[] = {"app", "app/ops"};
    for (size_t k = 0; k < 4; k++) {
        tt_run r = mt_migrate(copy, NULL, cmds[k % 2], paths[k / 2], NULL);
        if (r.status != 2 || !tt_contains(r.err, where) || !tt_contains(r.err, cmd) ||
            !tt_contains(r.err, "this tree is half-changed, and nothing is done here") ||
            tt_contains(r.err, "same PATHs"))
            fail_msg("%s %s on the copy: status %d\n%s", cmds[k % 2], paths[k / 2], r.status,
                     r.err);
        char *now = tt_snapshot(copy, true);
        tt_assert_same(snap, now, cmds[k % 2]);
        free(now);
        tt_free(&r);
    }
    /* resolved where it was written: the copy's journal is stale there */
    tt_run a = apply_killed(dir, 0, SIGKILL);
    assert_int_equal(a.status, 0);
    tt_free(&a);
    tt_run r = mt_migrate(copy, NULL, "plan", "app", NULL);
    char *gone = tt_fmt("%s no longer holds it: if the tree was moved here from there, move it "
                        "back and run `ember-migrate apply %s`", orig_app, orig_app);
    if (r.status != 2 || !tt_contains(r.err, gone))
        fail_msg("plan on the copy, original resolved: status %d\n%s", r.status, r.err);
    tt_free(&r);
    free(gone);
    tt_rmtree(copy);
    tt_rmtree(dir);
    free(copy);
    free(dir);
    free(snap);
    free(cmd);

    /* a copy whose files the run had not touched: said so, and it goes on */
    dir = killed_tree(false);
    copy = copy_tree(dir);
    assert_non_null(realpath(dir, real));
    free(where);
    where = tt_fmt("the journal of a run interrupted in %s/app, copied or moved here", real);
    for (size_t k = 0; k < 2; k++) {
        r = mt_migrate(copy, NULL, "plan", paths[k], NULL);
        if (r.status == 2 || !tt_contains(r.err, where) ||
            !tt_contains(r.err, "none of the files here was changed by it: remove ") ||
            (k == 0 && !tt_contains(r.out, "+#include <eh/eh.h>")))
            fail_msg("plan %s on an unchanged copy: status %d\n%s", paths[k], r.status, r.err);
        tt_free(&r);
    }
    tt_rmtree(copy);
    tt_rmtree(dir);
    free(copy);
    free(dir);
    free(where);
    free(orig_app);
}

/* The tree moved (mv) with the journal of a SIGKILLed run: its .el-ID
 * asides are the only originals there are, so removing them is never
 * advised; the command that resolves the run where it was also migrates
 * that tree, and says so.  Before: "then remove ... and the files named
 * .*.el-ID.* beside its files". */
static void test_moved_journal(void **state)
{
    (void)state;
    char *dir = killed_tree(true);
    char real[PATH_MAX];
    assert_non_null(realpath(dir, real));
    char *moved = tt_fmt("%s.moved", real);
    assert_int_equal(rename(real, moved), 0);
    char *snap = tt_snapshot(moved, true);
    tt_run r = mt_migrate(moved, NULL, "plan", "app", NULL);
    char *gone = tt_fmt("%s/app no longer holds it: if the tree was moved here from there, move it "
                        "back and run `ember-migrate apply %s/app`, which completes or undoes that "
                        "run (and then migrates %s/app too)", real, real, real);
    if (r.status != 2 || !tt_contains(r.err, gone) || tt_contains(r.err, "then remove") ||
        !tt_contains(r.err, "they hold its only original files"))
        fail_msg("plan on the moved tree: status %d\n%s", r.status, r.err);
    char *now = tt_snapshot(moved, true);
    tt_assert_same(snap, now, "plan");
    free(now);
    tt_free(&r);
    /* moved back, the run resolves it */
    assert_int_equal(rename(moved, real), 0);
    tt_run a = apply_killed(dir, 0, SIGKILL);
    assert_int_equal(a.status, 0);
    tt_free(&a);
    free(gone);
    free(snap);
    free(moved);
    tt_rmtree(dir);
    free(dir);
}

static void test_journal_of_a_wider_run(void **state)
{
    (void)state;
    char *dir = killed_tree(true);
    tt_run r = mt_migrate(dir, NULL, "plan", "app/ops", NULL);
    if (!tt_contains(r.err, "app/.ember-changeset-") ||
        !tt_contains(r.err, ": the journal of an interrupted run on app, which changes ") ||
        !tt_contains(r.err, "files outside the PATHs given (app/ops; first app/app.c); left "
                            "alone: `ember-migrate apply app` completes or undoes it, then run "
                            "on app/ops again") ||
        tt_contains(r.err, "same PATHs"))
        fail_msg("plan app/ops: status %d\n%s", r.status, r.err);
    tt_free(&r);
    tt_rmtree(dir);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_copied_journal),
        cmocka_unit_test(test_journal_of_a_wider_run),
        cmocka_unit_test(test_moved_journal),
        cmocka_unit_test(test_sigterm_every_step),
        cmocka_unit_test(test_sigkill_every_step),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
