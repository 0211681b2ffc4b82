/* tests/lint/test_diff_base.c -- --diff-base REV with real git: only
 * findings on lines added or changed since the merge base of REV and
 * HEAD (commits, staged and unstaged edits, untracked files) are
 * reported, in every format; a header's findings count when its lines
 * changed; a renamed file does not count as new; outside a git work tree,
 * with git failing or an unknown revision, a clear error and exit 2.
 * Also the parser of `git diff -U0` on its own. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gitdiff.h"
#include "lint_test.h"
#include "path.h"

static void git(const char *a, const char *b, const char *c, const char *d)
{
    const char *argv[] = {"git", "-c", "user.name=t", "-c", "user.email=t@example.invalid", "-c",
                          "init.defaultBranch=main", a, b, c, d, NULL};
    tt_run r = tt_exec(tt_dir, argv, NULL);
    if (r.status != 0)
        fprintf(stderr, "git %s: %s%s", a, r.out, r.err);
    assert_int_equal(r.status, 0);
    tt_free(&r);
}

#define APP_C "#include \"app.h\"\n#include <stddef.h>\n#include <cblas.h>\nint app(void) { return 0; }\n"
#define APP_H "#include <lapacke.h>\nint app(void);\n"

static int setup(void **state)
{
    tt_scratch_setup(state);
    git("init", "-q", NULL, NULL);
    tt_w("src/app.c", APP_C);
    tt_w("src/app.h", APP_H);
    tt_w("src/old.c", "#include <fftw3.h>\n");
    git("add", "-A", NULL, NULL);
    git("commit", "-qm", "start", NULL);
    return 0;
}

static tt_run lint(const char *rev, const char *format)
{
    return lt_lint(tt_dir, "--no-cache", "--diff-base", rev, "--format", format, "src", NULL);
}

static void test_only_changed_lines(void **state)
{
    (void)state;
    tt_run r = lint("HEAD", "text");
    assert_int_equal(r.status, 0); /* nothing changed */
    assert_string_equal(r.out, "");
    tt_free(&r);
    /* the C++ files "languages" passes over: said by a run of the whole
     * tree, not by a pre-commit hook's on every commit */
    tt_w("src/w.cpp", "int w() { return 0; }\n");
    r = lt_lint(tt_dir, "--no-cache", "src", NULL);
    assert_true(tt_contains(r.err, "emberlint: note: 1 C++ file under src was not linted"));
    tt_free(&r);
    r = lint("HEAD", "text");
    assert_int_equal(r.status, 0);
    assert_false(tt_contains(r.err, "C++ file"));
    tt_free(&r);
    char *cxx = tt_fmt("%s/src/w.cpp", tt_dir);
    unlink(cxx);
    free(cxx);
    /* an unstaged edit adds a finding; the old ones stay quiet */
    tt_w("src/app.c", APP_C "#include <fftw3.h>\n");
    r = lint("HEAD", "text");
    assert_int_equal(r.status, 1);
    assert_string_equal(r.out, "src/app.c:5:1: error: frontend code includes backend-private header "
                               "'fftw3.h' [EH101]\n");
    tt_free(&r);
    /* github annotations on the changed line only */
    r = lint("HEAD", "github");
    assert_int_equal(r.status, 1);
    assert_true(tt_contains(r.out, "::error file=src/app.c,line=5,col=1,title=EH101::"));
    assert_false(tt_contains(r.out, "line=3"));
    tt_free(&r);
    /* staged counts too; and json */
    git("add", "src/app.c", NULL, NULL);
    r = lint("HEAD", "json");
    json_object *j = tt_json(r.out);
    assert_int_equal(lt_count_rule(j, NULL), 1);
    json_object_put(j);
    tt_free(&r);
}

static void test_header_lines(void **state)
{
    (void)state;
    /* only the header changes: its finding is reported, reached through
     * app.c; app.c's own old findings are not */
    tt_w("src/app.h", "#include <lapack.h>\n" APP_H);
    tt_run r = lint("HEAD", "text");
    assert_int_equal(r.status, 1);
    assert_true(tt_contains(r.out, "src/app.h:1:1:"));
    assert_false(tt_contains(r.out, "src/app.h:2:"));
    assert_false(tt_contains(r.out, "src/app.c"));
    tt_free(&r);
}

static void test_branches_untracked_renames(void **state)
{
    (void)state;
    git("checkout", "-qb", "feature", NULL);
    tt_w("src/app.c", APP_C "#include <fftw3.h>\n");
    git("commit", "-qam", "feature work", NULL);
    git("mv", "src/old.c", "src/renamed.c", NULL);
    tt_w("src/new.c", "#include <cblas.h>\nint n(void);\n#include <lapacke.h>\n");
    tt_run r = lint("main", "text");
    assert_int_equal(r.status, 1);
    assert_true(tt_contains(r.out, "src/app.c:5:1:"));      /* committed on the branch */
    assert_true(tt_contains(r.out, "src/new.c:1:1:"));      /* untracked: every line */
    assert_true(tt_contains(r.out, "src/new.c:3:1:"));
    assert_false(tt_contains(r.out, "renamed.c"));          /* moved, not new */
    assert_false(tt_contains(r.out, "src/app.c:3:"));
    tt_free(&r);
    /* main moved on: the merge base is still the fork point */
    git("checkout", "-q", "main", NULL);
    tt_w("src/other.c", "int other;\n");
    git("add", "src/other.c", NULL, NULL);
    git("commit", "-qm", "main work", NULL);
    git("checkout", "-q", "feature", NULL);
    r = lint("main", "text");
    assert_true(tt_contains(r.out, "src/app.c:5:1:"));
    tt_free(&r);
}

static void test_errors(void **state)
{
    (void)state;
    tt_run r = lint("no-such-rev", "text");
    assert_int_equal(r.status, 2);
    assert_true(tt_contains(r.err, "emberlint: --diff-base: 'no-such-rev' is not a commit this repository knows"));
    assert_string_equal(r.out, "");
    tt_free(&r);
    char *outside = tt_tmpdir();
    free(tt_write(outside, "x.c", "#include <cblas.h>\n"));
    r = lt_lint(outside, "--no-cache", "--diff-base", "HEAD", "x.c", NULL);
    assert_int_equal(r.status, 2);
    assert_true(tt_contains(r.err, "is not inside a git work tree"));
    assert_string_equal(r.out, "");
    tt_free(&r);
    /* git cannot be run */
    const char *argv[] = {"--no-cache", "--diff-base", "HEAD", "x.c", NULL};
    const char *env[] = {"PATH=/nonexistent", NULL};
    r = lt_emberlintv(outside, argv, env);
    assert_int_equal(r.status, 2);
    assert_true(tt_contains(r.err, "--diff-base: cannot run git"));
    tt_free(&r);
    tt_rmtree(outside);
    free(outside);
}

/* A CI checkout is shallow by default (one commit): the base is not
 * there, or there without the history to the merge base; the error says
 * so and how to fetch it. */
static void test_shallow_clone(void **state)
{
    (void)state;
    git("checkout", "-qb", "feature", NULL);
    tt_w("src/app.c", APP_C "#include <fftw3.h>\n");
    git("commit", "-qam", "feature work", NULL);
    char *clone = tt_tmpdir(), *url = tt_fmt("file://%s", tt_dir);
    const char *clone_argv[] = {"git", "clone", "-q", "--depth", "1", "--branch", "feature", url, ".", NULL};
    tt_run r = tt_exec(clone, clone_argv, NULL);
    assert_int_equal(r.status, 0);
    tt_free(&r);
    r = lt_lint(clone, "--no-cache", "--diff-base", "origin/main", "src", NULL);
    assert_int_equal(r.status, 2);
    assert_true(tt_contains(r.err, "'origin/main' is not a commit this repository knows (this is a "
                                   "shallow clone: fetch the history"));
    tt_free(&r);
    const char *fetch_argv[] = {"git", "fetch", "-q", "--depth", "1", "origin",
                                "main:refs/remotes/origin/main", NULL};
    r = tt_exec(clone, fetch_argv, NULL);
    assert_int_equal(r.status, 0);
    tt_free(&r);
    r = lt_lint(clone, "--no-cache", "--diff-base", "origin/main", "src", NULL);
    assert_int_equal(r.status, 2);
    assert_true(tt_contains(r.err, "no merge base of 'origin/main' and HEAD (this is a shallow clone"));
    assert_string_equal(r.out, "");
    tt_free(&r);
    /* the full repository: no hint */
    r = lint("no-such-rev", "text");
    assert_false(tt_contains(r.err, "shallow"));
    tt_free(&r);
    tt_rmtree(clone);
    free(clone);
    free(url);
}

/* What a user's git configuration or file names must not change: a
 * name with a space (git ends its "+++" line with a tab), diff.relative
 * in a run from a subdirectory, diff.interHunkContext widening hunks over
 * unchanged lines, diff.noprefix. */
static void test_names_and_git_config(void **state)
{
    (void)state;
    tt_w("src/my dir/a b.c", "int ab(void);\n#include <cblas.h>\n");
    git("add", "-A", NULL, NULL);
    git("commit", "-qm", "spaces", NULL);
    tt_w("src/my dir/a b.c", "#include <fftw3.h>\nint ab(void);\n#include <cblas.h>\n#include <lapacke.h>\n");
    git("config", "diff.relative", "true", NULL);
    git("config", "diff.interHunkContext", "5", NULL);
    git("config", "diff.noprefix", "true", NULL);
    char *sub = tt_path(tt_dir, "src");
    tt_run r = lt_lint(sub, "--no-cache", "--diff-base", "HEAD", ".", NULL);
    free(sub);
    assert_int_equal(r.status, 1);
    assert_true(tt_contains(r.out, "my dir/a b.c:1:1:"));
    assert_true(tt_contains(r.out, "my dir/a b.c:4:1:"));
    assert_false(tt_contains(r.out, "my dir/a b.c:3:")); /* unchanged, between two hunks */
    assert_false(tt_contains(r.out, "app.c"));
    tt_free(&r);
}

static void test_binary_and_plusplus(void **state)
{
    (void)state;
    /* git treats a file as binary with -diff in .gitattributes or with a
     * NUL byte in it: without --text, its diff is "Binary files ...
     * differ" and no line of it counted */
    tt_w(".gitattributes", "src/gen.c -diff\n");
    tt_w("src/gen.c", "int gen;\n");
    tt_w("src/nul.c", "int nul;\n");
    /* an added line "++ n;" is "+++ n;" in the diff, not a file header */
    tt_w("src/pp.c", "int f(int n)\n{\nreturn n;\n}\nint g(void);\n");
    git("add", "-A", NULL, NULL);
    git("commit", "-qm", "more", NULL);
    tt_w("src/gen.c", "int gen;\n#include <fftw3.h>\n");
    char *nul = tt_path(tt_dir, "src/nul.c");
    FILE *f = fopen(nul, "wb");
    assert_non_null(f);
    static const char with_nul[] = "int nul; /* \0 */\n#include <fftw3.h>\n";
    assert_int_equal(fwrite(with_nul, 1, sizeof with_nul - 1, f), sizeof with_nul - 1);
    assert_int_equal(fclose(f), 0);
    free(nul);
    tt_w("src/pp.c", "int f(int n)\n{\n++ n;\nreturn n;\n}\nint g(void);\n#include <cblas.h>\n");
    tt_run r = lint("HEAD", "text");
    assert_int_equal(r.status, 1);
    assert_true(tt_contains(r.out, "src/gen.c:2:1:"));
    /* emberlint skips a file with a NUL byte itself; the files after it
     * in git diff --text's output still count (pp.c below) */
    assert_false(tt_contains(r.out, "src/nul.c:"));
    assert_true(tt_contains(r.out, "src/pp.c:7:1:"));
    assert_false(tt_contains(r.out, "app.c"));
    tt_free(&r);
}

static void test_parse(void **state)
{
    (void)state;
    const char *diff =
        "diff --git a/a.c b/a.c\n"
        "--- a/a.c\n+++ b/a.c\n"
        "@@ -3 +3 @@\n-x\n+y\n"
        "@@ -10,0 +11,2 @@\n+p\n+q\n"
        "@@ -20,3 +22,0 @@\n-gone\n"
        "diff --git a/gone.c b/gone.c\n--- a/gone.c\n+++ /dev/null\n@@ -1 +0,0 @@\n-z\n"
        "diff --git \"a/sp ace\\303\\251.c\" \"b/sp ace\\303\\251.c\"\n"
        "--- \"a/sp ace\\303\\251.c\"\n+++ \"b/sp ace\\303\\251.c\"\n@@ -0,0 +1 @@\n+n\n"
        /* a plain name with a space: git ends it with a tab */
        "diff --git a/my dir/a b.c b/my dir/a b.c\n"
        "--- a/my dir/a b.c\t\n+++ b/my dir/a b.c\t\n@@ -1,0 +2 @@\n+m\n";
    el_changes *c = el_changes_parse("/top", diff);
    assert_true(el_changes_has(c, "/top/a.c", 3));
    assert_false(el_changes_has(c, "/top/a.c", 4));
    assert_false(el_changes_has(c, "/top/a.c", 10));
    assert_true(el_changes_has(c, "/top/a.c", 11));
    assert_true(el_changes_has(c, "/top/a.c", 12));
    assert_false(el_changes_has(c, "/top/a.c", 13));
    assert_false(el_changes_has(c, "/top/a.c", 22));    /* a deletion adds no line */
    assert_false(el_changes_has(c, "/top/gone.c", 1));
    assert_true(el_changes_has(c, "/top/sp ace\xc3\xa9.c", 1));
    assert_false(el_changes_has(c, "/top/b.c", 1));
    assert_true(el_changes_has(c, "/top/my dir/a b.c", 2));
    assert_false(el_changes_has(c, "/top/my dir/a b.c", 1));
    el_changes_free(c);

    /* inside a hunk, "+++ "/"--- " lines are content ("++ n;", "-- n;"
     * added or removed), counted off against the @@ header */
    const char *tricky =
        "diff --git a/t.c b/t.c\n"
        "--- a/t.c\n+++ b/t.c\n"
        "@@ -2,0 +3 @@\n+++ n;\n"
        "@@ -5 +6 @@\n--- n;\n+++ m;\n"
        "@@ -7,0 +9 @@\n+x\n\\ No newline at end of file\n"
        "diff --git a/u.c b/u.c\n--- a/u.c\n+++ b/u.c\n@@ -1 +1 @@\n-a\n+b\n";
    c = el_changes_parse("/top", tricky);
    assert_true(el_changes_has(c, "/top/t.c", 3));
    assert_true(el_changes_has(c, "/top/t.c", 6));
    assert_true(el_changes_has(c, "/top/t.c", 9));
    assert_false(el_changes_has(c, "/top/t.c", 4));
    assert_false(el_changes_has(c, "/top/ n;", 1));
    assert_true(el_changes_has(c, "/top/u.c", 1));
    el_changes_free(c);

    /* git diff --text of a file with a NUL byte: the files after it count */
    static const char with_nul[] = "diff --git a/n.c b/n.c\n--- a/n.c\n+++ b/n.c\n"
                                   "@@ -1 +1 @@\n-a\n+b\0c\n"
                                   "diff --git a/v.c b/v.c\n--- a/v.c\n+++ b/v.c\n"
                                   "@@ -4,0 +5 @@\n+w\n";
    c = el_changes_parse_n("/top", with_nul, sizeof with_nul - 1);
    assert_true(el_changes_has(c, "/top/n.c", 1));
    assert_true(el_changes_has(c, "/top/v.c", 5));
    assert_false(el_changes_has(c, "/top/v.c", 4));
    el_changes_free(c);
}

int main(void)
{
    el_path_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_only_changed_lines, setup, tt_scratch_teardown),
        cmocka_unit_test_setup_teardown(test_header_lines, setup, tt_scratch_teardown),
        cmocka_unit_test_setup_teardown(test_branches_untracked_renames, setup, tt_scratch_teardown),
        cmocka_unit_test_setup_teardown(test_errors, setup, tt_scratch_teardown),
        cmocka_unit_test_setup_teardown(test_names_and_git_config, setup, tt_scratch_teardown),
        cmocka_unit_test_setup_teardown(test_shallow_clone, setup, tt_scratch_teardown),
        cmocka_unit_test_setup_teardown(test_binary_and_plusplus, setup, tt_scratch_teardown),
        cmocka_unit_test(test_parse),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
