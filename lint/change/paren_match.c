/* lint/change/paren_match.c -- where parenthesised text ends, for many
 * offsets at once (paren_match.h). */
#include "paren_match.h"

#include <stdint.h>
#include <stdlib.h>

#include "c_text.h"
#include "mem.h"

/* mark[i]: 0, no pass went through i; 1, a lexeme starts at i (not a
 * '('); v + 2, a '(' at i whose text ends at v (n when it never does). */
struct el_parens {
    const char *t;
    size_t n;
    uint32_t *mark;  /* NULL: a text too long for the marks (plain scans) */
    size_t *stack;   /* the open '(' of the pass under way */
    size_t n_stack, cap_stack;
    size_t work;
};

el_parens *el_parens_new(const char *t, size_t n)
{
    el_parens *p = el_xcalloc(1, sizeof *p);
    p->t = t;
    p->n = n;
    if (n < UINT32_MAX - 2)
        p->mark = el_xcalloc(n + 1, sizeof *p->mark);
    return p;
}

void el_parens_free(el_parens *p)
{
    if (!p)
        return;
    free(p->mark);
    free(p->stack);
    free(p);
}

size_t el_parens_work(const el_parens *p)
{
    return p->work;
}

static size_t scan(const char *t, size_t limit, size_t open, size_t *work)
{
    int depth = 0;
    for (size_t i = open; i < limit;) {
        (*work)++;
        size_t j = el_text_skip_lexeme(t, limit, i);
        if (j != i) {
            i = j;
            continue;
        }
        if (t[i] == '(')
            depth++;
        else if (t[i] == ')' && --depth == 0)
            return i + 1;
        i++;
    }
    return limit;
}

size_t el_parens_scan(const char *t, size_t limit, size_t open)
{
    size_t work = 0;
    return scan(t, limit, open, &work);
}

static void resolve(el_parens *p, size_t at, size_t end)
{
    p->mark[at] = (uint32_t)end + 2;
}

/* The rest of the pass from r on, a position an earlier pass went
 * through: its lexemes are that pass's from there, so a '(' is passed
 * over to its end and a ')' closes the innermost '(' still open. */
static void finish_over(el_parens *p, size_t r)
{
    const char *t = p->t;
    while (p->n_stack && r < p->n) {
        p->work++;
        if (t[r] == '(') {
            size_t end = p->mark[r] - 2;
            if (end >= p->n)
                break; /* it never ends: nor do those around it */
            r = end;
        } else if (t[r] == ')') {
            resolve(p, p->stack[--p->n_stack], r + 1);
            r++;
        } else {
            size_t j = el_text_skip_lexeme(t, p->n, r);
            r = j != r ? j : r + 1;
        }
    }
    while (p->n_stack)
        resolve(p, p->stack[--p->n_stack], p->n);
}

/* A pass from the '(' at q: every '(' it passes gets its end. */
static void pass(el_parens *p, size_t q)
{
    const char *t = p->t;
    p->n_stack = 0;
    for (size_t i = q; i < p->n;) {
        if (i != q && p->mark[i]) {
            finish_over(p, i);
            return;
        }
        p->work++;
        size_t j = el_text_skip_lexeme(t, p->n, i);
        if (j != i) {
            p->mark[i] = 1;
            i = j;
            continue;
        }
        if (t[i] == '(') {
            el_grow(&p->stack, &p->cap_stack, p->n_stack + 1, sizeof *p->stack);
            p->stack[p->n_stack++] = i;
        } else {
            p->mark[i] = 1;
            if (t[i] == ')' && p->n_stack)
                resolve(p, p->stack[--p->n_stack], i + 1);
        }
        i++;
    }
    while (p->n_stack)
        resolve(p, p->stack[--p->n_stack], p->n);
}

size_t el_parens_end(el_parens *p, size_t limit, size_t open)
{
    if (limit > p->n)
        limit = p->n;
    if (open >= limit)
        return limit;
    /* (a scan from elsewhere than a '(' is left to the plain scan) */
    if (!p->mark || p->t[open] != '(')
        return scan(p->t, limit, open, &p->work);
    if (p->mark[open] < 2)
        pass(p, open);
    /* The scan up to limit ends where the scan of the whole text does
     * when that is before limit: the lexemes before it are the same. */
    size_t end = p->mark[open] - 2;
    return end < limit ? end : limit;
}
