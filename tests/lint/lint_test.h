/* tests/lint/lint_test.h -- helpers for emberlint's tests: run the built
 * binary (EMBERLINT, an absolute path the Makefile passes in) and count the
 * findings of its JSON output.  The rest (scratch trees, snapshots, JSON)
 * is tool_test.h, shared with ember-migrate's tests.
 *
 * Include after <stdarg.h>, <stddef.h>, <setjmp.h> and <cmocka.h> (this
 * header does so itself). */
#ifndef LINT_TEST_H
#define LINT_TEST_H

#include "tool_test.h"

#ifndef EMBERLINT
#error "EMBERLINT must name the emberlint binary (the Makefile defines it)"
#endif
#ifndef LINT_SRCDIR
#error "LINT_SRCDIR must name the source tree (the Makefile defines it)"
#endif

/* libeh's headers, for scratch trees that include <eh/eh.h>. */
#define LT_INCLUDE "-I" LINT_SRCDIR "/libeh/include"

/* Run emberlint with the NULL-terminated arguments in directory cwd
 * (NULL: LINT_SRCDIR).  Fails the test when it was killed by a signal. */
tt_run lt_emberlint(const char *cwd, const char *arg, ...);
/* Same with an argument vector (NULL-terminated) and extra environment
 * assignments ("NAME=value", NULL-terminated, may be NULL). */
tt_run lt_emberlintv(const char *cwd, const char *const *argv, const char *const *env);
/* The rules these tests are about (the engine's and the suppressions'):
 * tests that count findings in scratch trees lint with --select LT_RULES,
 * so rules added later cannot change their counts. */
#define LT_RULES "EH0,EH101"
/* lt_emberlint with "--select" LT_RULES first. */
tt_run lt_lint(const char *cwd, const char *arg, ...);

/* Number of findings in a --format json output with the given rule
 * (NULL: any). */
size_t lt_count_rule(json_object *report, const char *rule);

#endif
