/* tests/lint/test_macro_expand.c -- the small preprocessor of skipped code
 * (lint/change/macro_expand.h): a table of uses and what `cpp -P` makes
 * of them with the same definitions, the uses it gives up, and the
 * budgets: a tower of macros and arguments nested deep cost at most the
 * budget of tokens made (the counter, not a clock). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "macro_expand.h"
#include "mem.h"

/* The definitions: name, function-like, the tokens after the name. */
static const struct {
    const char *name;
    bool fn_like;
    const char *def;
} defs[] = {
    {"FNAME", true, "(x) x##_"},
    {"GLUE", true, "(a, b) a##b"},
    {"XGLUE", true, "(a, b) GLUE(a, b)"},
    {"PREFIX", true, "(x) d##x"},
    {"STR", true, "(x) #x"},
    {"XSTR", true, "(x) STR(x)"},
    {"dsyrk_", false, "dsyrk_"},
    {"SECOND", true, "(a, b) b"},
    {"BOTH", true, "(x) SECOND(x, x)"},
    {"ID", true, "(x) x"},
    {"EMPTY", false, ""},
    {"CAT3", true, "(a, b, c) a##b##c"},
    {"LA", true, "(x) FNAME(d##x)"},
    {"AA", false, "BB"},
    {"BB", false, "AA"},
    {"F", false, "G"},
    {"G", true, "(x) x+1"},
    {"f", true, "(a) a*g"},
    {"g", true, "(a) f(a)"},
    {"T2", true, "(x) x x"},
    {"NOARG", true, "() 42"},
    {"dgesv", false, "F77(dgesv, DGESV)"},
    {"F77", true, "(l, U) l##_"},
    {"r", true, "(x,y) x ## y"},
    {"str", true, "(x) # x"},
    {"ALIAS", false, "FNAME"},
    {"VA", true, "(f, ...) f(__VA_ARGS__)"},
    {"M1", true, "(x) x x x x x x x x x x x x x x x x"},
    {"M2", true, "(x) M1(x) M1(x) M1(x) M1(x) M1(x) M1(x) M1(x) M1(x) M1(x) M1(x) M1(x) M1(x) "
                 "M1(x) M1(x) M1(x) M1(x)"},
    {"M3", true, "(x) M2(x) M2(x) M2(x) M2(x) M2(x) M2(x) M2(x) M2(x) M2(x) M2(x) M2(x) M2(x) "
                 "M2(x) M2(x) M2(x) M2(x)"},
    {"A", true, "(x) x x x x x x x x x x x x x x x x"},
};
#define N_DEFS (sizeof defs / sizeof defs[0])

static em_macro macros[N_DEFS];
static em_expander lexer; /* holds the definitions' strings */

static const em_macro *lookup(void *ud, const char *name)
{
    (void)ud;
    for (size_t k = 0; k < N_DEFS; k++)
        if (!strcmp(defs[k].name, name))
            return &macros[k];
    return NULL;
}

static int setup(void **state)
{
    (void)state;
    em_init(&lexer, lookup, NULL);
    for (size_t k = 0; k < N_DEFS; k++) {
        em_list l = {0};
        em_lex(&lexer, defs[k].def, strlen(defs[k].def), &l);
        macros[k].fn_like = defs[k].fn_like;
        macros[k].n_tok = l.n;
        macros[k].tok = el_xcalloc(l.n + 1, sizeof *macros[k].tok);
        for (size_t j = 0; j < l.n; j++)
            macros[k].tok[j] = (char *)l.v[j].s;
        em_list_free(&l);
    }
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    for (size_t k = 0; k < N_DEFS; k++)
        free(macros[k].tok);
    em_free(&lexer);
    return 0;
}

/* The tokens of l, one blank between them. */
static char *joined(const em_list *l)
{
    size_t len = 1;
    for (size_t k = 0; k < l->n; k++)
        len += strlen(l->v[k].s) + 1;
    char *s = el_xmalloc(len), *o = s;
    *o = '\0';
    for (size_t k = 0; k < l->n; k++)
        o += sprintf(o, "%s%s", k ? " " : "", l->v[k].s);
    return s;
}

/* Expand `in`; its tokens joined, or NULL when given up.  *made: the
 * tokens made. */
static char *expand_text(const char *in, size_t *made, bool *exhausted)
{
    em_expander x;
    em_init(&x, lookup, NULL);
    em_list use = {0}, out = {0};
    em_lex(&x, in, strlen(in), &use);
    bool ok = em_expand(&x, &use, &out);
    char *r = ok ? joined(&out) : NULL;
    if (made)
        *made = x.made;
    if (exhausted)
        *exhausted = x.exhausted;
    em_list_free(&use);
    em_list_free(&out);
    em_free(&x);
    return r;
}

/* cpp's text, as tokens joined by one blank. */
static char *normal(const char *cpp)
{
    em_expander x;
    em_init(&x, lookup, NULL);
    em_list l = {0};
    em_lex(&x, cpp, strlen(cpp), &l);
    char *r = joined(&l);
    em_list_free(&l);
    em_free(&x);
    return r;
}

/* Uses and what `cpp -P` gives with the definitions above (gcc 12). */
static const struct {
    const char *in, *cpp;
} cases[] = {
    {"FNAME(dgemm)", "dgemm_"},
    {"XGLUE(XGLUE(d, gesv), _)", "dgesv__"}, /* dgesv is a macro: dgesv_ */
    {"XGLUE(PREFIX(gemm), _)", "dgemm_"},
    {"XSTR(FNAME(dgemm))", "\"dgemm_\""},
    {"STR(FNAME(dgemm))", "\"FNAME(dgemm)\""},
    {"dsyrk_", "dsyrk_"},
    {"BOTH(BOTH(BOTH(FNAME(dgetrs))))", "dgetrs_"},
    {"AA", "AA"},
    {"F(1)", "1 +1"},
    {"f(2)(9)", "2*9*g"},
    {"LA(potrf)", "dpotrf_"},
    {"CAT3(a, , c)", "ac"},
    {"NOARG()", "42"},
    {"T2(ID(x))", "x x"},
    {"ID(EMPTY)", ""},
    {"dgesv", "dgesv_"},
    {"r(, z)", "z"},
    {"str( \"a\\n\" 'b' )", "\"\\\"a\\\\n\\\" 'b'\""},
    {"ALIAS(getrf)", "getrf_"},
    {"ID(ID)(ID)(y)", "ID(ID)(y)"},
    {"FNAME", "FNAME"},
    {"ID (a) ID", "a ID"},
};

static void test_as_cpp(void **state)
{
    (void)state;
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        char *got = expand_text(cases[k].in, NULL, NULL), *want = normal(cases[k].cpp);
        if (!got || strcmp(got, want)) {
            print_error("%s: '%s', cpp '%s'\n", cases[k].in, got ? got : "(given up)", want);
            fail();
        }
        free(got);
        free(want);
    }
}

/* Beyond this preprocessor: given up, not a wrong answer. */
static void test_given_up(void **state)
{
    (void)state;
    char d66[512] = "";
    for (int k = 0; k < 66; k++)
        strcat(d66, "ID(");
    strcat(d66, "x");
    for (int k = 0; k < 66; k++)
        strcat(d66, ")");
    const char *ins[] = {
        "VA(FNAME, dgemm)",                          /* variadic */
        "ID(dgemm",                                  /* never closed */
        "GLUE(a, b, c)",                             /* too many arguments */
        NULL,                                        /* 66 levels (below) */
    };
    ins[3] = d66;
    for (size_t k = 0; k < sizeof ins / sizeof ins[0]; k++) {
        bool exhausted = true;
        char *got = expand_text(ins[k], NULL, &exhausted);
        if (got) {
            print_error("%s: '%s', wanted it given up\n", ins[k], got);
            fail();
        }
        if (k < 3)
            assert_false(exhausted); /* its form, not a budget */
    }
    char *deep = expand_text("ID(ID(ID(ID(ID(ID(ID(ID(ID(ID(ID(ID(ID(ID(ID(ID(x))))))))))))))))",
                             NULL, NULL);
    assert_non_null(deep);
    assert_string_equal(deep, "x");
    free(deep);
}

/* The budgets hold whatever the use: a tower each level of which uses the
 * next sixteen times (16^3 tokens), an argument that grows 16 times at
 * each of 60 levels: given up having made at most EM_MADE_BUDGET tokens
 * (the work of a use is proportional to what it makes). */
static void test_budget(void **state)
{
    (void)state;
    char a60[512] = "";
    for (int k = 0; k < 60; k++)
        strcat(a60, "A(");
    strcat(a60, "n");
    for (int k = 0; k < 60; k++)
        strcat(a60, ")");
    const char *ins[] = {"M3(n)", "M2(M2(M2(n)))", a60};
    for (size_t k = 0; k < sizeof ins / sizeof ins[0]; k++) {
        size_t made = 0;
        bool exhausted = false;
        char *got = expand_text(ins[k], &made, &exhausted);
        assert_null(got);
        assert_true(exhausted);
        assert_true(made <= EM_MADE_BUDGET);
    }
    /* within it: M2(n) is 256 tokens */
    size_t made = 0;
    char *got = expand_text("M2(n)", &made, NULL);
    assert_non_null(got);
    assert_int_equal(strlen(got), 256 * 2 - 1);
    assert_true(made < 4 * 256 + 64);
    free(got);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_as_cpp),
        cmocka_unit_test(test_given_up),
        cmocka_unit_test(test_budget),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
