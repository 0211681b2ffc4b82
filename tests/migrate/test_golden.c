/* tests/migrate/test_golden.c -- `ember-migrate plan` and `apply` on the
 * golden trees tests/migrate/fixtures/<case>/:
 *   before/   the tree as written
 *   after/    the tree after the migration, exactly
 *   args      extra arguments, one per line (optional: --op matmul)
 *   manual    the manual-work lines expected on stderr (optional; when
 *             present the exit status is 1, else 0)
 * For each case: plan changes nothing, its diff passes `git apply
 * --check` on a copy of before/ and `git apply` turns it into after/;
 * apply on a fresh copy gives after/ (files, directories, nothing else);
 * a second apply changes nothing and says so.
 *
 *   legacy_dir     a whole ops/blas/ moving with its header and a static
 *                  helper; calls and include rewritten in a frontend file;
 *                  a relative include re-pathed; kernels.def created
 *   partial_op     --op matmul: one function moves, a helper it shares
 *                  with code that stays is copied, the legacy header is
 *                  included from the new place; the include stays
 *   existing_dest  code appended to an existing backends/blas/gemm.c
 *                  (includes merged), kernels.def extended in order
 *   manual         a name that is not an op and a call through a macro:
 *                  listed, untouched
 *   table          a kernel registered in an eh_backend table
 *   shared_static  a static variable shared with code that stays: listed,
 *                  its op not moved; a static const one is copied; a
 *                  tentative definition (`static int n;`) moves with its
 *                  only user */
#include "migrate_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static char *fixture(const char *c, const char *what)
{
    return tt_fmt("%s/tests/migrate/fixtures/%s/%s", MIGRATE_SRCDIR, c, what);
}

/* The "FILE:LINE:COL: manual: ..." lines of stderr. */
static char *manual_lines(const char *err)
{
    size_t cap = strlen(err) + 1, n = 0;
    char *out = calloc(cap, 1);
    assert_non_null(out);
    for (const char *l = err; *l;) {
        const char *e = strchr(l, '\n');
        size_t len = e ? (size_t)(e - l) + 1 : strlen(l);
        char *line = strndup(l, len);
        assert_non_null(line);
        if (strstr(line, ": manual: ")) {
            memcpy(out + n, l, len);
            n += len;
        }
        free(line);
        l += len;
    }
    return out;
}

/* One case in a scratch copy of its before/ tree. */
typedef struct golden {
    const char *c;
    char *args;     /* the `args` file's text (NULL: none), split in argv */
    const char *argv[32];
    char *manual;   /* the expected manual-work lines ("" when none) */
    int status;     /* the expected exit status: 1 with manual work, else 0 */
    char *after;
    char *dir;
} golden;

static void golden_open(golden *g, const char *c)
{
    memset(g, 0, sizeof *g);
    g->c = c;
    char *path = fixture(c, "args");
    g->args = tt_read(path, NULL);
    free(path);
    size_t n = 1;    /* argv[0]: the command */
    for (char *line = g->args ? strtok(g->args, "\n") : NULL; line && n + 2 < 32;
         line = strtok(NULL, "\n"))
        if (*line)
            g->argv[n++] = line;
    g->argv[n++] = ".";
    g->argv[n] = NULL;
    path = fixture(c, "manual");
    g->manual = tt_read(path, NULL);
    free(path);
    if (!g->manual)
        g->manual = strdup("");
    g->status = *g->manual ? 1 : 0;
    g->after = fixture(c, "after");
    g->dir = tt_tmpdir();
    char *before = fixture(c, "before");
    tt_copytree(before, g->dir);
    free(before);
}

static void golden_close(golden *g)
{
    tt_rmtree(g->dir);
    free(g->dir);
    free(g->after);
    free(g->manual);
    free(g->args);
}

/* `ember-migrate cmd <args> .` in the tree: the expected status and
 * manual-work lines. */
static tt_run golden_run(golden *g, const char *cmd)
{
    g->argv[0] = cmd;
    tt_run r = mt_migratev(g->dir, NULL, g->argv, true);
    if (r.status != g->status)
        print_error("%s: %s exited %d\nstderr:\n%s", g->c, cmd, r.status, r.err);
    assert_int_equal(r.status, g->status);
    char *got_manual = manual_lines(r.err);
    assert_string_equal(got_manual, g->manual);
    free(got_manual);
    return r;
}

/* The tree is after/: files, directories, nothing else. */
static void assert_after(const golden *g)
{
    char *want = tt_snapshot(g->after, false);
    char *got = tt_snapshot(g->dir, false);
    tt_assert_same(want, got, g->c);
    free(want);
    free(got);
}

static void check_plan(const char *c)
{
    golden g;
    golden_open(&g, c);
    char *snap0 = tt_snapshot(g.dir, true);
    tt_run r = golden_run(&g, "plan");
    char *snap1 = tt_snapshot(g.dir, true);
    tt_assert_same(snap0, snap1, "plan must change nothing");
    /* the diff applies with git, and gives after/ */
    tt_git_apply(g.dir, r.out, true);
    assert_after(&g);
    free(snap0);
    free(snap1);
    tt_free(&r);
    golden_close(&g);
}

static void check_apply(const char *c)
{
    golden g;
    golden_open(&g, c);
    tt_run r = golden_run(&g, "apply");
    assert_true(tt_contains(r.err, "ember-migrate: "));
    assert_after(&g);
    tt_free(&r);

    /* idempotent: the second run finds nothing to do */
    char *snap = tt_snapshot(g.dir, true);
    r = golden_run(&g, "apply");
    if (!tt_contains(r.err, "nothing to migrate"))
        print_error("%s: second apply said:\n%s", c, r.err);
    assert_true(tt_contains(r.err, "nothing to migrate"));
    char *again = tt_snapshot(g.dir, true);
    tt_assert_same(snap, again, "a second apply must change nothing");
    tt_free(&r);

    /* and plan then prints no diff */
    r = golden_run(&g, "plan");
    assert_string_equal(r.out, "");
    tt_free(&r);

    free(snap);
    free(again);
    golden_close(&g);
}

#define CASE(name)                                                                                 \
    static void test_plan_##name(void **state)                                                     \
    {                                                                                              \
        (void)state;                                                                               \
        check_plan(#name);                                                                         \
    }                                                                                              \
    static void test_apply_##name(void **state)                                                    \
    {                                                                                              \
        (void)state;                                                                               \
        check_apply(#name);                                                                        \
    }

CASE(legacy_dir)
CASE(partial_op)
CASE(existing_dest)
CASE(manual)
CASE(table)
CASE(shared_static)

/* --backup keeps each modified or deleted file's original as FILE.orig;
 * the tree is otherwise after/. */
static void test_backup(void **state)
{
    (void)state;
    char *before = fixture("legacy_dir", "before");
    char *dir = tt_tmpdir();
    tt_copytree(before, dir);
    tt_run r = mt_migrate(dir, NULL, "apply", "--backup", "-q", ".", NULL);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.err, "");     /* --quiet */
    char *was = tt_fmt("%s/main.c", before);
    char *b = tt_read(was, NULL);
    assert_non_null(b);
    tt_assert_file(dir, "main.c.orig", b);
    free(b);
    free(was);
    tt_free(&r);
    tt_rmtree(dir);
    free(dir);
    free(before);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plan_legacy_dir),    cmocka_unit_test(test_apply_legacy_dir),
        cmocka_unit_test(test_plan_partial_op),    cmocka_unit_test(test_apply_partial_op),
        cmocka_unit_test(test_plan_existing_dest), cmocka_unit_test(test_apply_existing_dest),
        cmocka_unit_test(test_plan_manual),        cmocka_unit_test(test_apply_manual),
        cmocka_unit_test(test_plan_table),         cmocka_unit_test(test_apply_table),
        cmocka_unit_test(test_plan_shared_static), cmocka_unit_test(test_apply_shared_static),
        cmocka_unit_test(test_backup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
