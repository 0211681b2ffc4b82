/* tests/lint/test_pattern.c -- the configuration's path patterns
 * (lint/base/pattern.h): what they match, what <name> captures, component
 * globs agreeing with fnmatch(3), and hostile patterns (many "**", many
 * "*") that once took exponential time on a deep tree.  Those tests set a
 * generous alarm: it is a guard against hanging for minutes, not a speed
 * measurement (bench/ measures speed). */
#include <fnmatch.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lint_test.h"
#include "pattern.h"

#define HANG_GUARD_SECONDS 120

static void expect(const char *pattern, const char *path, bool want, const char *want_cap)
{
    char cap[64] = "?";
    bool got = el_pattern_match(pattern, path, cap, sizeof cap);
    if (got != want) {
        print_error("'%s' against '%s': %d, wanted %d\n", pattern, path, got, want);
        fail();
    }
    if (want && want_cap)
        assert_string_equal(cap, want_cap);
}

static void test_semantics(void **state)
{
    (void)state;
    expect("backends/<name>/", "backends/blas/gemm.c", true, "blas");
    expect("backends/<name>/", "vendor/x/backends/blas/gemm.c", true, "blas");
    /* a trailing '/' is a directory: never a file of that name */
    expect("backends/<name>/", "backends/gemm.c", false, NULL);
    expect("backends/<name>/", "backends/blas/", true, "blas");
    expect("backends/<name>/", "backends", false, NULL);
    expect("/libeh/src/", "libeh/src/a.c", true, "");
    expect("/libeh/src/", "x/libeh/src/a.c", false, NULL);
    expect("cblas.h", "usr/include/cblas.h", true, "");
    expect("cblas.h", "cblas.h.in", false, NULL);
    expect("*.gen.c", "a/b/x.gen.c", true, "");
    expect("vendor/**", "vendor/a/b/c.h", true, "");
    expect("a/**/b", "a/b", true, "");
    expect("a/**/b", "a/x/y/b", true, "");
    expect("a/**/b", "a/x/y/c", false, NULL);
    expect("**/c.h", "c.h", true, "");
    /* the first <word> is captured where the left-most, shortest match puts it */
    expect("**/<name>/k.c", "a/b/k.c", true, "b");
    expect("<a>/**/<b>/", "x/y/z/w.c", true, "x");
    /* <name> inside a directory name captures the part the rest leaves */
    expect("src/ggml-<name>/", "src/ggml-cuda/x.c", true, "cuda");
    expect("src/ggml-<name>/", "src/ggml-/x.c", false, NULL);
    expect("src/ggml-<name>/", "src/ggml-cuda.c", false, NULL);
    expect("*-<name>-be/", "x/gpu-cuda-be/k.c", true, "cuda");
    expect("src/<name>_*/", "src/cuda_kernels/k.c", true, "cuda");
    expect("ops/<name>/", "p/ops/torch/ops/blas/f.c", true, "torch");
    expect("", "a.c", false, NULL);
    expect("//a//", "a/b.c", true, "");
    expect("//a//", "x/a/b.c", false, NULL);
}

/* Component globs: the same answers as fnmatch(3) without flags. */
/* A pattern ending in a literal name is first told apart by its last
 * component alone (pattern.c's literal_tail): the answer and the capture
 * must be those of the same pattern with its last character written as a
 * one-character set, which goes the whole way. */
static void test_literal_tail_shortcut(void **state)
{
    (void)state;
    static const char *const patterns[] = {
        "cblas.h", "/cblas.h", "include/cblas.h", "**/cblas.h", "backends/<name>/k.c",
        "src/ggml-<name>/ops.c", "a/**/b", "/a/b", "x", "vendor/*/lib.h", "<name>/x.h",
    };
    static const char *const paths[] = {
        "cblas.h", "usr/include/cblas.h", "include/cblas.h", "cblas.h.in", "xcblas.h",
        "cblas.h/", "include/cblas.h/", "backends/blas/k.c", "backends/blas/k.cc",
        "src/ggml-cuda/ops.c", "src/ggml-/ops.c", "a/b", "a/x/b", "a/b/", "b", "x", "y/x",
        "x/", "vendor/v1/lib.h", "vendor/lib.h", "blas/x.h", "", "/", "//x",
    };
    for (size_t i = 0; i < sizeof patterns / sizeof *patterns; i++) {
        char slow[128];
        size_t n = strlen(patterns[i]);
        snprintf(slow, sizeof slow, "%.*s[%c]", (int)(n - 1), patterns[i], patterns[i][n - 1]);
        for (size_t j = 0; j < sizeof paths / sizeof *paths; j++) {
            char cap_fast[64] = "?", cap_slow[64] = "?";
            bool fast = el_pattern_match(patterns[i], paths[j], cap_fast, sizeof cap_fast);
            bool want = el_pattern_match(slow, paths[j], cap_slow, sizeof cap_slow);
            if (fast != want || strcmp(cap_fast, cap_slow) != 0) {
                print_error("'%s' against '%s': %d '%s', '%s' gives %d '%s'\n", patterns[i],
                            paths[j], fast, cap_fast, slow, want, cap_slow);
                fail();
            }
        }
    }
    /* A last component holding * ? [ \\ or < is not literal: the
     * shortcut would compare it as written and miss these. */
    expect("x.?", "a/x.h", true, "");
    expect("k\\.c", "d/k.c", true, "");
    expect("<name>.h", "d/cuda.h", true, "cuda");
    expect("x[.]h", "x.h", true, "");
    expect("*.h", "d/x.h", true, "");
}

static void test_glob_agrees_with_fnmatch(void **state)
{
    (void)state;
    static const char *const fixed[][2] = {
        {"*", ""},         {"*", "abc"},        {"a*c", "abbbc"},    {"a*c", "abcd"},
        {"?", ""},         {"?b", "ab"},        {"[ab]c", "bc"},     {"[!ab]c", "bc"},
        {"[^ab]c", "xc"},  {"[a-c]", "b"},      {"[]a]", "]"},       {"[!]]", "]"},
        {"[a-]", "-"},     {"\\*", "*"},        {"\\*", "a"},        {"[", "["},
        {"[ab", "[ab"},    {"a[", "a["},        {"[[:digit:]]x", "7x"}, {"[[:alpha:]]", "7"},
        {"*.[ch]", "x.h"}, {"**", "ab"},        {"a\\", "a\\"},      {"[\\]]", "]"},
    };
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++) {
        bool want = fnmatch(fixed[i][0], fixed[i][1], 0) == 0;
        if (el_glob_match(fixed[i][0], fixed[i][1]) != want) {
            print_error("glob '%s' against '%s': wanted %d\n", fixed[i][0], fixed[i][1], want);
            fail();
        }
    }
    /* random globs over a small alphabet */
    static const char pat_alpha[] = "ab*?[]!-c";
    static const char str_alpha[] = "abc-]";
    unsigned seed = 12345;
    for (int n = 0; n < 200000; n++) {
        char p[10], s[10];
        seed = seed * 1103515245u + 12345u;
        size_t lp = (seed >> 16) % 8, ls = (seed >> 8) % 8;
        for (size_t k = 0; k < lp; k++) {
            seed = seed * 1103515245u + 12345u;
            p[k] = pat_alpha[(seed >> 16) % (sizeof pat_alpha - 1)];
        }
        for (size_t k = 0; k < ls; k++) {
            seed = seed * 1103515245u + 12345u;
            s[k] = str_alpha[(seed >> 16) % (sizeof str_alpha - 1)];
        }
        p[lp] = s[ls] = '\0';
        bool want = fnmatch(p, s, 0) == 0;
        if (el_glob_match(p, s) != want) {
            print_error("glob '%s' against '%s': wanted %d\n", p, s, want);
            fail();
        }
    }
}

static char *repeat(const char *unit, int n, const char *tail)
{
    size_t lu = strlen(unit), lt = strlen(tail);
    char *s = malloc(lu * (size_t)n + lt + 1);
    assert_non_null(s);
    for (int i = 0; i < n; i++)
        memcpy(s + lu * (size_t)i, unit, lu);
    memcpy(s + lu * (size_t)n, tail, lt + 1);
    return s;
}

/* 24 "**" against a 60-component path that almost matches: a backtracking
 * matcher tries C(84, 24) ways to split it. */
static void test_hostile_globstars(void **state)
{
    (void)state;
    alarm(HANG_GUARD_SECONDS);
    char *stars = repeat("**/", 24, "b");
    char *no = repeat("a/", 60, "c");
    assert_false(el_pattern_match(stars, no, NULL, 0));
    free(stars);
    free(no);
    char *pat = repeat("**/a/", 24, "b");
    char *path = repeat("a/", 60, "c");
    assert_false(el_pattern_match(pat, path, NULL, 0));
    char *yes = repeat("a/", 60, "b");
    char cap[8];
    assert_true(el_pattern_match(pat, yes, cap, sizeof cap));
    free(pat);
    char *capt = repeat("**/a/", 24, "<x>/**/b");
    assert_true(el_pattern_match(capt, yes, cap, sizeof cap));
    assert_string_equal(cap, "a");
    free(capt);
    free(path);
    free(yes);
    alarm(0);
}

/* Many '*' in one component against a long name (fnmatch-style
 * backtracking is exponential in the stars). */
static void test_hostile_stars(void **state)
{
    (void)state;
    alarm(HANG_GUARD_SECONDS);
    char *pat = repeat("*a", 40, "*b");
    char *name = repeat("a", 250, "");
    assert_false(el_glob_match(pat, name));
    assert_false(el_pattern_match(pat, name, NULL, 0));
    char *yes = repeat("a", 250, "b");
    assert_true(el_glob_match(pat, yes));
    free(pat);
    free(name);
    free(yes);
    alarm(0);
}

/* The whole tool: a 40-byte configuration with 12 "**" in `exclude` and
 * a 20-level tree (once about 40 s per path, so minutes for the walk). */
static void test_hostile_config_on_deep_tree(void **state)
{
    (void)state;
    char *dir = tt_tmpdir();
    char *rel = repeat("a/", 20, "deep.c");
    free(tt_write(dir, rel, "int deep(void) { return 0; }\n"));
    free(tt_write(dir, "a/top.c", "int top(void) { return 0; }\n"));
    char *pat = repeat("**/", 12, "z/");
    char *be = repeat("**/", 12, "be-<name>/");
    char *cfg = tt_fmt("{\"exclude\": [\"%s\"], \"backend_dirs\": [\"%s\"]}\n", pat, be);
    free(be);
    free(tt_write(dir, ".emberlint.json", cfg));
    alarm(HANG_GUARD_SECONDS);
    tt_run r = lt_lint(dir, "--no-cache", "-v", "--format", "json", "a", NULL);
    alarm(0);
    if (r.status != 0)
        print_error("stdout:\n%s\nstderr:\n%s\n", r.out, r.err);
    assert_int_equal(r.status, 0);
    assert_true(tt_contains(r.err, "2 files"));
    tt_free(&r);
    /* and the pattern still works: a z/ below is excluded */
    char *zrel = repeat("a/", 13, "z/skip.c");
    free(tt_write(dir, zrel, "#error not linted\n"));
    alarm(HANG_GUARD_SECONDS);
    r = lt_lint(dir, "--no-cache", "-v", "--format", "json", "a", NULL);
    alarm(0);
    assert_int_equal(r.status, 0);
    assert_true(tt_contains(r.err, "2 files"));
    tt_free(&r);
    free(zrel);
    free(cfg);
    free(pat);
    free(rel);
    tt_rmtree(dir);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_semantics),
        cmocka_unit_test(test_literal_tail_shortcut),
        cmocka_unit_test(test_glob_agrees_with_fnmatch),
        cmocka_unit_test(test_hostile_globstars),
        cmocka_unit_test(test_hostile_stars),
        cmocka_unit_test(test_hostile_config_on_deep_tree),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
