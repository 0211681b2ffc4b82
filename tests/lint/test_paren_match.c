/* tests/lint/test_paren_match.c -- where parenthesised text ends
 * (lint/change/paren_match.h), as the skipped-code reader asks it once
 * per backend call it lists: the same ends as the plain scan from each
 * '(' (texts of parentheses, comments, literals, escapes and newlines in
 * every order, asked at every offset and limit, in text order and out of
 * it), and work that grows linearly with the text when thousands of
 * calls are never closed (`f(` 20 000 times: the plain scan looks at
 * ~200 million lexemes) or when the caller asks about a '(' inside a
 * comment, as the reader does after skipping unread an `#if 0` line that opens a comment.
 * Work is counted (el_parens_work), never timed. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c_text.h"
#include "paren_match.h"
#include "strbuf.h"

static uint32_t rng = 12345;

static uint32_t next(void)
{
    rng = rng * 1103515245u + 12345u;
    return rng >> 8;
}

/* Every offset and limit of text t, asked in text order (forward) or
 * backwards, equal to the plain scan. */
static void check_text(const char *t, size_t n, bool forward)
{
    size_t limits[] = {n, n / 2, n / 3 + 1, n > 4 ? n - 3 : n};
    for (size_t l = 0; l < sizeof limits / sizeof limits[0]; l++) {
        el_parens *p = el_parens_new(t, n);
        for (size_t k = 0; k <= n; k++) {
            size_t open = forward ? k : n - k;
            size_t want = el_parens_scan(t, limits[l], open);
            size_t got = el_parens_end(p, limits[l], open);
            if (want != got)
                fprintf(stderr, "text \"%.*s\", open %zu, limit %zu: %zu, the scan says %zu\n", (int)n, t,
                        open, limits[l], got, want);
            assert_int_equal(got, want);
        }
        el_parens_free(p);
    }
}

static void test_same_as_the_scan(void **state)
{
    (void)state;
    static const char alphabet[] = "((()))  \n\n/*'\"\\ax";
    char t[96];
    for (int round = 0; round < 3000; round++) {
        size_t n = 1 + next() % (sizeof t - 1);
        for (size_t i = 0; i < n; i++)
            t[i] = alphabet[next() % (sizeof alphabet - 1)];
        check_text(t, n, round % 2 == 0);
    }
    /* texts written out: comments and literals that hide parentheses,
     * one that the limit cuts, a literal unterminated at the newline */
    static const char *const texts[] = {
        "f(a, \"(\", ')', /* ) */ b) g(",
        "f(x /* ( */ ) // )\n y)",
        "f('\\'', \"\\\")\") )",
        "f(\"unterminated\n ) x)",
        "f(/* a comment that runs to the end",
        "f(g(h(1), 2) /",
        "(((((((((( ))",
        ")(()",
    };
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        check_text(texts[i], strlen(texts[i]), true);
        check_text(texts[i], strlen(texts[i]), false);
    }
}

/* n calls, none closed (or closed every other), each on its line, with a
 * comment and a literal holding parentheses on every line in the third
 * kind: every '(' a reader from the start takes for code asked, in text
 * order, as the skipped-code reader does (it reads the comments and
 * literals as such, and asks about no '(' in them).  The fourth
 * kind: n skipped blocks whose `#if 0` line opens a comment that runs
 * onto the next lines, each followed by 40 lines of code.  The reader
 * skips the directive line unread, so it takes the comment's inside for
 * code and asks about the '(' of its unclosed call, up to the block's
 * #endif -- a '(' the matcher's pass read as comment text: an answer
 * that walked on to where that '(' closes walked to the end of the file
 * from every block. */
static size_t work_for(unsigned n, int kind)
{
    el_buf b = {0};
    for (unsigned i = 0; i < n; i++) {
        if (kind < 3) {
            el_buf_puts(&b, kind == 0 ? "cblas_sgemm(\n" : kind == 1 ? (i % 2 ? "f(x)\n" : "g(\n")
                                                                     : "f( /* ) */ \"(\" \n");
            continue;
        }
        el_buf_puts(&b, "#if 0 /* old code, kept:\n cblas_dscal(4, 2.0, x, 1 +\n */\n#endif\n");
        for (int l = 0; l < 40; l++)
            el_buf_puts(&b, "x[i] = (x[j] + 1) * (2 - x[0]);\n");
    }
    el_parens *p = el_parens_new(b.s, b.n);
    for (size_t i = 0; i < b.n; i++) {
        size_t j = kind < 3 ? el_text_skip_lexeme(b.s, b.n, i) : i;
        if (j != i) {
            i = j - 1;
            continue;
        }
        if (b.s[i] != '(')
            continue;
        const char *endif = kind == 3 ? strstr(b.s + i, "#endif") : NULL;
        size_t limit = endif ? (size_t)(endif - b.s) : b.n;
        size_t got = el_parens_end(p, limit, i);
        if (kind == 3 && i < 20000)
            assert_int_equal(got, el_parens_scan(b.s, limit, i));
    }
    size_t work = el_parens_work(p);
    el_parens_free(p);
    el_buf_free(&b);
    return work;
}

static void test_work_is_linear(void **state)
{
    (void)state;
    for (int kind = 0; kind < 3; kind++) {
        size_t small = work_for(2000, kind), big = work_for(20000, kind);
        fprintf(stderr, "kind %d: 2000 calls, %zu steps; 20000 calls, %zu steps\n", kind, small, big);
        /* ten times the calls, ten times the work (the plain scan: a
         * hundred times), a few steps a line */
        assert_true(big <= 11 * small);
        assert_true(big <= 20000u * 20);
    }
    /* the blocks: ten times the blocks, ten times the work (a walk to
     * the end of the file from each block: a hundred times), a few
     * steps a character of the text */
    size_t small = work_for(100, 3), big = work_for(1000, 3);
    fprintf(stderr, "kind 3: 100 blocks, %zu steps; 1000 blocks, %zu steps\n", small, big);
    assert_true(big <= 11 * small);
    assert_true(big <= 1000u * 41 * 40);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_as_the_scan),
        cmocka_unit_test(test_work_is_linear),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
