/* tests/lint/expects.h -- the annotations of annotated trees (the rule
 * fixtures, the precision corpus): comments saying which findings a line
 * must have.
 *
 *     #include <cblas.h>    // expect: EH101
 *     x = 1 +               // expect@+1: EH201     (reported on the next line)
 *     // expect@12: EH000                           (reported on line 12)
 *     #include <cuda.h>     // expect: EH101, EH000 (two findings)
 *     y = HALF(a, b);       // expect: EH302 "macro 'HALF'" (its message says so)
 *     y = f(a);             // expect: EH102 "function 'f'$" (its message ends so)
 *
 * A finding is expected in the file that holds the annotation. */
#ifndef LINT_EXPECTS_H
#define LINT_EXPECTS_H

#include <stdbool.h>
#include <stddef.h>

typedef struct lt_expect {
    char *file;          /* relative to LINT_SRCDIR, as emberlint shows it */
    unsigned line;
    char rule[8];
    char *says;          /* a part of the message, or NULL */
    bool matched;
} lt_expect;

typedef struct lt_expects {
    lt_expect *v;
    size_t n, cap;
    char rules[64][8];   /* every rule some annotation names (and added ones) */
    size_t n_rules;
} lt_expects;

/* Read the annotations of the C and C++ files under rel (relative to
 * LINT_SRCDIR). */
void lt_expects_scan(lt_expects *e, const char *rel);
void lt_expects_add_rule(lt_expects *e, const char *rule);
bool lt_expects_names_rule(const lt_expects *e, const char *rule);
/* Mark the first unmatched annotation of (file, line, rule) whose part of
 * the message, if it gives one, is in message: true when there was one. */
bool lt_expects_match(lt_expects *e, const char *file, unsigned line, const char *rule,
                      const char *message);
void lt_expects_free(lt_expects *e);

#endif
