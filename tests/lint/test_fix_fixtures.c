/* tests/lint/test_fix_fixtures.c -- golden tests of the fixes.
 *
 * Every directory tests/lint/fix_fixtures/<RULE>/<case>/ holds a tree
 * before/ and the trees expected after `emberlint --fix` (after_safe/) and
 * after `emberlint --fix --unsafe-fixes` (after_unsafe/; when absent, the
 * same as after_safe/).  For each mode the driver copies before/ (dot
 * files too: a case may carry its .emberlint.json) into a scratch
 * directory, runs the built emberlint there on "." with the separation
 * rules selected and libeh's headers on the include path, and then wants
 * every file byte for byte as expected -- no file more, none fewer -- and
 * a second run that changes nothing. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lint_test.h"

#define FIX_FIXTURES "tests/lint/fix_fixtures"
#define SELECT "EH101,EH102,EH103"

/* The tree dir is exactly the tree want: every file byte for byte, no
 * file more, none fewer. */
static void assert_same_tree(const char *dir, const char *want, const char *what)
{
    char *w = tt_snapshot(want, false), *g = tt_snapshot(dir, false);
    tt_assert_same(w, g, what);
    free(w);
    free(g);
}

/* ---- one case -------------------------------------------------------------- */

static void run_fix(const char *dir, bool unsafe, const char *what)
{
    const char *safe_argv[] = {"--no-cache", "--select", SELECT, "--fix", ".", "--", LT_INCLUDE, NULL};
    const char *unsafe_argv[] = {"--no-cache", "--select", SELECT, "--fix", "--unsafe-fixes", ".", "--",
                                 LT_INCLUDE, NULL};
    tt_run r = lt_emberlintv(dir, unsafe ? unsafe_argv : safe_argv, NULL);
    if (r.status != 0 && r.status != 1) {
        print_error("%s: emberlint --fix%s exited %d:\n%s\n", what, unsafe ? " --unsafe-fixes" : "",
                    r.status, r.err);
        fail();
    }
    tt_free(&r);
}

static void run_case(void **state)
{
    const char *rel = *state;
    char *src = tt_path(LINT_SRCDIR, rel);
    for (int unsafe = 0; unsafe < 2; unsafe++) {
        char *before = tt_path(src, "before");
        char *want = tt_path(src, unsafe ? "after_unsafe" : "after_safe");
        struct stat st;
        if (unsafe && stat(want, &st) != 0) {
            free(want);
            want = tt_path(src, "after_safe");
        }
        char *what = tt_fmt("%s (%s)", rel, unsafe ? "--fix --unsafe-fixes" : "--fix");
        char *tmp = tt_tmpdir();
        tt_copytree(before, tmp);
        run_fix(tmp, unsafe, what);
        assert_same_tree(tmp, want, what);
        /* idempotent: a second run changes nothing */
        char *what2 = tt_fmt("%s, second run", what);
        run_fix(tmp, unsafe, what2);
        assert_same_tree(tmp, want, what2);
        tt_rmtree(tmp);
        free(tmp);
        free(what);
        free(what2);
        free(before);
        free(want);
    }
    free(src);
}

int main(void)
{
    char *root = tt_path(LINT_SRCDIR, FIX_FIXTURES);
    struct CMUnitTest tests[128];
    char *names[128];
    size_t n = 0;
    DIR *d = opendir(root);
    if (!d) {
        fprintf(stderr, "test_fix_fixtures: %s: cannot open\n", root);
        return 1;
    }
    struct dirent *rule;
    while ((rule = readdir(d))) {
        if (rule->d_name[0] == '.')
            continue;
        char *rdir = tt_path(root, rule->d_name);
        DIR *cd = opendir(rdir);
        struct dirent *c;
        while (cd && (c = readdir(cd)) && n < 128) {
            if (c->d_name[0] == '.')
                continue;
            names[n] = tt_fmt("%s/%s/%s", FIX_FIXTURES, rule->d_name, c->d_name);
            tests[n] = (struct CMUnitTest){names[n], run_case, NULL, NULL, names[n]};
            n++;
        }
        if (cd)
            closedir(cd);
        free(rdir);
    }
    closedir(d);
    free(root);
    /* in name order, so the output reads the same everywhere */
    for (size_t i = 1; i < n; i++)
        for (size_t k = i; k > 0 && strcmp(tests[k - 1].name, tests[k].name) > 0; k--) {
            struct CMUnitTest t = tests[k];
            tests[k] = tests[k - 1];
            tests[k - 1] = t;
        }
    int rc = _cmocka_run_group_tests("fix_fixtures", tests, n, NULL, NULL);
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    return rc;
}
