/* lint/change/paren_match.c -- where parenthesised text ends, for many
 * offsets at once (paren_match.h). */
#include "paren_match.h"

#include <stdint.h>
#include <stdlib.h>

#include "c_text.h"
#include "mem.h"

/* mark[i]: 0, no '(' of the pass at i; v + 2, a '(' at i that the pass
 * from offset 0 read as code, whose text ends at v (n when it never
 * does). */
struct el_parens {
    const char *t;
    size_t n;
    uint32_t *mark;  /* NULL: a text too long for the marks (plain scans) */
    size_t work;
};

static void pass(el_parens *p);

el_parens *el_parens_new(const char *t, size_t n)
{
    el_parens *p = el_xcalloc(1, sizeof *p);
    p->t = t;
    p->n = n;
    if (n < UINT32_MAX - 2) {
        p->mark = el_xcalloc(n + 1, sizeof *p->mark);
        pass(p);
    }
    return p;
}

void el_parens_free(el_parens *p)
{
    if (!p)
        return;
    free(p->mark);
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

/* The one pass from offset 0: every '(' it passes gets its end (n when
 * it never closes), with a stack of the open ones. */
static void pass(el_parens *p)
{
    const char *t = p->t;
    size_t *stack = NULL, n_stack = 0, cap_stack = 0; /* the open '(' */
    for (size_t i = 0; i < p->n;) {
        p->work++;
        size_t j = el_text_skip_lexeme(t, p->n, i);
        if (j != i) {
            i = j;
            continue;
        }
        if (t[i] == '(') {
            el_grow(&stack, &cap_stack, n_stack + 1, sizeof *stack);
            stack[n_stack++] = i;
        } else if (t[i] == ')' && n_stack) {
            resolve(p, stack[--n_stack], i + 1);
        }
        i++;
    }
    while (n_stack)
        resolve(p, stack[--n_stack], p->n);
    free(stack);
}

size_t el_parens_end(el_parens *p, size_t limit, size_t open)
{
    if (limit > p->n)
        limit = p->n;
    if (open >= limit)
        return limit;
    /* a '(' the pass read as code: the scan up to limit ends where the
     * scan of the whole text does when that is before limit (the
     * lexemes before it are the same); any other start -- a '(' inside
     * a comment or literal of the pass, which a caller reading from
     * elsewhere takes for code -- is left to the plain scan, as long as
     * the scan of that '(' alone */
    if (!p->mark || p->mark[open] < 2)
        return scan(p->t, limit, open, &p->work);
    size_t end = p->mark[open] - 2;
    return end < limit ? end : limit;
}
