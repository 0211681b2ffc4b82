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
 *     exactly the migrated one, with no temporary file or journal. */
#include "migrate_test.h"

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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sigterm_every_step),
        cmocka_unit_test(test_sigkill_every_step),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
