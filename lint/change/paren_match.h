/* lint/change/paren_match.h -- where the parenthesised text at an offset
 * of C source text ends (its ')' + 1), for many offsets of one text.
 *
 * The skipped-code reader (inactive.c) asks it once per backend call it
 * lists.  Scanning from each call's '(' to its ')' made a text of many
 * unclosed calls (`f(` 20 000 times under #if 0) quadratic: each scan
 * ran to the end of the range.  Here one pass over the whole text, from
 * offset 0 when the matcher is made, with a stack of the open
 * parentheses, answers every '(' it reads as code in constant time.  A
 * '(' it read inside a comment or literal (a caller that starts reading
 * elsewhere, or skips a line unread, may take it for code) gets the plain
 * scan up to the caller's limit: no worse than the scan per call, and
 * linear only for the '(' the pass reads as code.  The results are those
 * of the plain scan (el_parens_scan). */
#ifndef EL_PAREN_MATCH_H
#define EL_PAREN_MATCH_H

#include <stddef.h>

typedef struct el_parens el_parens;

/* The matcher of text t[0..n) (t is borrowed: it must outlive it). */
el_parens *el_parens_new(const char *t, size_t n);
void el_parens_free(el_parens *p);

/* el_parens_scan(t, limit, open) for limit <= n, answered from the passes. */
size_t el_parens_end(el_parens *p, size_t limit, size_t open);

/* The steps (lexemes looked at) the pass and every call so far took: the
 * work, for tests that check how it grows with the text. */
size_t el_parens_work(const el_parens *p);

/* The plain scan: from t[open], comments and literals skipped, the
 * offset past the ')' that brings the count of open parentheses back to
 * zero, or limit when there is none before it. */
size_t el_parens_scan(const char *t, size_t limit, size_t open);

#endif
