/* tests/migrate/test_pp_cond.c -- conditionals no macro decides
 * (migrate/pp_cond.h): which #if conditions are constant and their value
 * as the preprocessor computes it, that anything naming a macro is not,
 * and which branches of a file no configuration takes.  Before, only a
 * literal `#if 0` counted: `#if (0)`, `#if !1`, the #else of `#if 1` got
 * the advice "name one with --define-sets" (golden case if_constant). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "migrate_test.h"
#include "pp_cond.h"

static bool cst(const char *c, long long *v)
{
    return em_pp_const(c, strlen(c), v);
}

static void test_constant_conditions(void **state)
{
    (void)state;
    static const struct {
        const char *c;
        long long v;
    } yes[] = {
        {"0", 0},          {" 0 ", 0},        {"(0)", 0},        {"((0))", 0},
        {"0L", 0},         {"0UL", 0},        {"0ull", 0},       {"0x0", 0},
        {"0X10", 16},      {"010", 8},        {"0b11", 3},       {"!1", 0},
        {"!0", 1},         {"~0", -1},        {"-1", -1},        {"+1", 1},
        {"1 - 1", 0},      {"2 * 3 + 1", 7},  {"1 + 2 * 3", 7},  {"(1 + 2) * 3", 9},
        {"7 / 2", 3},      {"-7 / 2", -3},    {"7 % 4", 3},      {"1 << 4", 16},
        {"-16 >> 2", -4},  {"1 < 2", 1},      {"2 <= 1", 0},     {"1 == 1", 1},
        {"1 != 1", 0},     {"6 & 3", 2},      {"6 | 1", 7},      {"6 ^ 2", 4},
        {"1 && 0", 0},     {"0 || 2", 1},     {"1 ? 0 : 2", 0},  {"0 ? 1 : 2", 2},
        {"0 /* off */", 0}, {"0 // off", 0},  {"1 \\\n - 1", 0}, {"-1 < 0u", 0},
        {"0xFFFFFFFFFFFFFFFF == -1", 1},
        /* `defined` is 0 or 1 and regroups nothing: a known operand of
         * && or || decides (numpy's `#if defined(HAVE_CBLAS) && 0`) */
        {"defined(HAVE_CBLAS) && 0", 0},        {"defined HAVE_CBLAS && 0", 0},
        {"0 && defined(A)", 0},                 {"defined(A) || 1", 1},
        {"2 || !defined A", 1},                 {"(defined(A) || defined(B)) && 0", 0},
        {"defined ( A ) && (1 - 1)", 0},        {"defined(A) ? 3 : 3", 3},
        {"1 ? 0 : defined(A)", 0},              {"(defined(A) && 0) || 5 > 4", 1},
        /* a comparison on an unknown value is a signed int, a shift has
         * its left operand's type, as on known ones */
        {"(0 ? 0u > defined(A) : -1) > 0", 0},  {"(0 ? 1u == defined(A) : -1) > 0", 0},
        {"(0 ? defined(A) << 1u : -1) > 0", 0}, {"(0 ? 1u << defined(A) : -1) > 0", 1},
        {"(0 ? defined(A) + 0u : -1) > 0", 1},  {"(0 ? 1u <= defined(A) : -1) < 0", 1},
    };
    for (size_t i = 0; i < sizeof yes / sizeof *yes; i++) {
        long long v = 12345;
        if (!cst(yes[i].c, &v) || v != yes[i].v)
            fail_msg("`#if %s`: expected constant %lld, got %s %lld", yes[i].c, yes[i].v,
                     cst(yes[i].c, NULL) ? "constant" : "not constant", v);
    }
    /* anything a configuration may change, or that is no integer constant
     * expression, is not decided here */
    static const char *const no[] = {
        "",           "FOO",          "defined(FOO)", "defined FOO", "0 && FOO",
        "FOO && 0",   "true",         "false",        "1.0",         "0e0",
        "'\\0'",      "\"\"",         "1 / 0",        "1 % 0",       "1 << 64",
        "1, 0",       "(0",           "0)",           "0 0",         "08",
        "0x",         "0b2",          "1'000",        "__has_include(<cblas.h>)",
        "99999999999999999999",
        /* what is defined decides; a macro may regroup the condition
         * (`#define FOO 1 || 1`); `defined` misused */
        "defined(A) && 1", "defined(A) || 0", "!defined(A)",   "defined(A) + 0",
        "defined(A) ? 0 : 1", "0 ? 1 : defined(A)", "defined(A) && FOO", "defined(A) && 0 || FOO",
        "defined",         "defined(",        "defined(A",     "defined()",
        "defined(1) && 0", "defined defined && 0", "(defined(A) && 0) || defined(B)",
        /* compilers reject a division by 0 whatever is defined, as
         * `(1 / 0) && 0`; a divisor that is unknown may be 0 */
        "defined(A) / 0 && 0", "defined(A) % 0 && 0", "(1 % (0 * defined(A))) || 1",
        "1 / defined(A) || 1", "(1 % !defined(A)) && 0", "(defined(A) << 64) && 0",
    };
    for (size_t i = 0; i < sizeof no / sizeof *no; i++)
        if (cst(no[i], NULL))
            fail_msg("`#if %s` taken as constant", no[i]);
}

/* The branch holding the word SITE in text: dead or not, and why. */
static bool dead(const char *text, char *why, size_t cap)
{
    const char *s = strstr(text, "SITE");
    assert_non_null(s);
    why[0] = '\0';
    return em_pp_dead_branch(text, strlen(text), (size_t)(s - text), why, cap);
}

static void test_dead_branches(void **state)
{
    (void)state;
    char why[256];
    assert_true(dead("#if 0\nSITE\n#endif\n", why, sizeof why));
    assert_string_equal(why, "#if 0");
    assert_true(dead("int x;\n#if (0)\nSITE\n#endif\n", why, sizeof why));
    assert_string_equal(why, "`#if (0)` (line 2), false whatever is defined");
    assert_true(dead("#if 1\nint a;\n#else\nSITE\n#endif\n", why, sizeof why));
    assert_string_equal(why, "`#else` (line 3) after `#if 1` (line 1), true whatever is defined");
    assert_true(dead("#ifdef A\n#elif 2 > 1\n#elif defined(B)\nSITE\n#endif\n", why, sizeof why));
    assert_string_equal(why, "`#elif defined(B)` (line 3) after `#elif 2 > 1` (line 2), true "
                             "whatever is defined");
    /* the outermost dead branch is named; a comment over lines is the directive's */
    assert_true(dead("#  if /* old\n */ 0\n#if 0\nSITE\n#endif\n#endif\n", why, sizeof why));
    assert_string_equal(why, "#if 0");
    /* comments and strings hold no directive */
    assert_true(dead("#if 0\n/*\n#endif\n*/\nSITE\n#endif\n", why, sizeof why));
    assert_false(dead("#if 0\n#endif\nchar *s = \"\\\n#if 0\";\nSITE\n", why, sizeof why));
    /* taken branches, macros, closed conditionals */
    assert_false(dead("#if 1\nSITE\n#endif\n", why, sizeof why));
    assert_false(dead("#if 0\n#else\nSITE\n#endif\n", why, sizeof why));
    assert_false(dead("#if 0\n#elif X\nSITE\n#endif\n", why, sizeof why));
    assert_false(dead("#if X\n#elif 1\nSITE\n#endif\n", why, sizeof why));
    assert_false(dead("#if OFF\nSITE\n#endif\n", why, sizeof why));
    assert_false(dead("#define OFF 0\n#if OFF\nSITE\n#endif\n", why, sizeof why));
    assert_false(dead("#if 0\n#endif\nSITE\n", why, sizeof why));
    assert_false(dead("#ifdef X\n#else\nSITE\n#endif\n", why, sizeof why));
    /* switched off by `&& 0` whatever is defined (numpy's matmul.c.src:
     * the advice was "name one with --define-sets") */
    assert_true(dead("#if defined(HAVE_CBLAS) && 0\nSITE\n#endif\n", why, sizeof why));
    assert_string_equal(why, "`#if defined(HAVE_CBLAS) && 0` (line 1), false whatever is defined");
    assert_true(dead("#if defined(A) || 1\n#else\nSITE\n#endif\n", why, sizeof why));
    assert_false(dead("#if defined(HAVE_CBLAS) && 1\nSITE\n#endif\n", why, sizeof why));
    assert_false(dead("#if FOO && 0\nSITE\n#endif\n", why, sizeof why));
    /* a CRLF file's continuation (backslash, CR, LF) carries the
     * condition on: `#if 0 || defined(USE_DOT)`, not `#if 0` */
    assert_false(dead("#if 0 \\\r\n    || defined(USE_DOT)\r\nSITE\r\n#endif\r\n", why, sizeof why));
    assert_true(dead("#if 0 \\\r\n    || 0\r\nSITE\r\n#endif\r\n", why, sizeof why));
    /* a comment opener in a string of a directive opens no comment */
    assert_false(dead("#if 0\n#define OPEN \"/*\"\n#else\nSITE\n#endif\nint x; /* c */\n", why,
                      sizeof why));
    assert_false(dead("#if 0\n#error don't /*\n#else\nSITE\n#endif\nint x; /* c */\n", why,
                      sizeof why));
    assert_true(dead("#if 0\n#define OPEN \"/*\"\nSITE\n#endif\n/* */\n", why, sizeof why));
}

/* The texts of test_dead_branches, and one of every kind of line. */
static const char *const walk_texts[] = {
    "#if 0\nSITE\n#endif\n",
    "int x;\n#if (0)\nSITE\n#endif\n",
    "#if 1\nint a;\n#else\nSITE\n#endif\n",
    "#ifdef A\n#elif 2 > 1\n#elif defined(B)\nSITE\n#endif\n",
    "#  if /* old\n */ 0\n#if 0\nSITE\n#endif\n#endif\n",
    "#if 0\n/*\n#endif\n*/\nSITE\n#endif\n",
    "#if 0\n#endif\nchar *s = \"\\\n#if 0\";\nSITE\n",
    "#if 0 \\\r\n    || 0\r\nSITE\r\n#endif\r\n",
    "#if 0\n#define OPEN \"/*\"\n#else\nSITE\n#endif\nint x; /* c */\n",
    ("#if 1\na\n#else\nb\n#if 0\nc\n#endif\n#endif\n#if 0\nd // x \\\ne\n#elif 1\nf\n#else\ng\n"
     "#endif\n  #  if !1\nh 'x' \"#if\" /* #else */\n#endif\n"),
};

/* One walk asked of every offset in turn gives what a walk of its own per
 * offset gives, and an earlier offset than the last starts it over. */
static void test_walk_many_sites(void **state)
{
    (void)state;
    for (size_t k = 0; k < sizeof walk_texts / sizeof walk_texts[0]; k++) {
        const char *t = walk_texts[k];
        size_t n = strlen(t);
        em_pp_walk *up = em_pp_walk_new(t, n), *down = em_pp_walk_new(t, n);
        for (size_t i = 0; i <= n + 1; i++) {
            char a[256], b[256], c[256];
            a[0] = b[0] = c[0] = '\0';
            bool one = em_pp_dead_branch(t, n, i, a, sizeof a);
            assert_int_equal(em_pp_walk_dead_at(up, i, b, sizeof b), one);
            if (one)
                assert_string_equal(a, b);
            size_t j = n + 1 - i; /* the same offsets, last first */
            bool back = em_pp_dead_branch(t, n, j, a, sizeof a);
            assert_int_equal(em_pp_walk_dead_at(down, j, c, sizeof c), back);
            if (back)
                assert_string_equal(a, c);
        }
        em_pp_walk_free(up);
        em_pp_walk_free(down);
    }
}

/* A site on every line of a file of many lines: each line is read once
 * (a walk from the top per site, as before, read lines * sites / 2). */
static void test_walk_reads_each_line_once(void **state)
{
    (void)state;
    enum { LINES = 20000 };
    static const char line[] = "cblas_sgemm(\n";
    size_t n = 6 + (LINES) * (sizeof line - 1) + 7;
    char *t = malloc(n + 1);
    assert_non_null(t);
    memcpy(t, "#if 0\n", 6);
    for (size_t i = 0; i < LINES; i++)
        memcpy(t + 6 + i * (sizeof line - 1), line, sizeof line - 1);
    memcpy(t + n - 7, "#endif\n", 7);
    t[n] = '\0';
    em_pp_walk *w = em_pp_walk_new(t, n);
    char why[64];
    for (size_t i = 0; i < LINES; i++)
        assert_true(em_pp_walk_dead_at(w, 6 + i * (sizeof line - 1), why, sizeof why));
    assert_true(em_pp_walk_work(w) <= LINES + 1);
    em_pp_walk_free(w);
    free(t);
}

static void test_deep_nesting(void **state)
{
    (void)state;
    /* 50 000 nested parentheses: not constant (it crashed the stack) */
    enum { N = 50000 };
    char *c = malloc(2 * N + 2);
    assert_non_null(c);
    memset(c, '(', N);
    c[N] = '0';
    memset(c + N + 1, ')', N);
    c[2 * N + 1] = '\0';
    assert_false(cst(c, NULL));
    memset(c, '!', 2 * N);
    c[2 * N] = '0';
    c[2 * N + 1] = '\0';
    assert_false(cst(c, NULL));
    free(c);
    assert_true(cst("((((((((((1))))))))))", NULL));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_constant_conditions),
        cmocka_unit_test(test_dead_branches),
        cmocka_unit_test(test_walk_many_sites),
        cmocka_unit_test(test_walk_reads_each_line_once),
        cmocka_unit_test(test_deep_nesting),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
