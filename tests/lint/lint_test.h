/* tests/lint/lint_test.h -- helpers for emberlint's tests: run the built
 * binary (EMBERLINT, an absolute path the Makefile passes in) and capture
 * what it prints, make scratch trees, parse JSON output.
 *
 * Include after <stdarg.h>, <stddef.h>, <setjmp.h> and <cmocka.h> (this
 * header does so itself). */
#ifndef LINT_TEST_H
#define LINT_TEST_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdint.h>
#include <cmocka.h>
#include <json-c/json.h>

#ifndef EMBERLINT
#error "EMBERLINT must name the emberlint binary (the Makefile defines it)"
#endif
#ifndef LINT_SRCDIR
#error "LINT_SRCDIR must name the source tree (the Makefile defines it)"
#endif

typedef struct lt_run {
    int status;      /* exit status; 128 + signal when killed */
    char *out;       /* standard output */
    char *err;       /* standard error */
} lt_run;

/* Run emberlint with the NULL-terminated arguments in directory cwd
 * (NULL: LINT_SRCDIR).  Fails the test when it was killed by a signal. */
lt_run lt_emberlint(const char *cwd, const char *arg, ...);
/* Same with an argument vector (NULL-terminated) and extra environment
 * assignments ("NAME=value", NULL-terminated, may be NULL). */
lt_run lt_emberlintv(const char *cwd, const char *const *argv, const char *const *env);
void lt_free(lt_run *r);
/* The rules these tests are about (the engine's and the suppressions'):
 * tests that count findings in scratch trees lint with --select LT_RULES,
 * so rules added later cannot change their counts. */
#define LT_RULES "EH0,EH101"
/* lt_emberlint with "--select" LT_RULES first. */
lt_run lt_lint(const char *cwd, const char *arg, ...);

/* A new empty directory under $TMPDIR (or /tmp); remove with lt_rmtree. */
char *lt_tmpdir(void);
void lt_rmtree(const char *dir);
/* Write content to dir/rel, creating directories; returns the path. */
char *lt_write(const char *dir, const char *rel, const char *content);
/* printf into a new string. */
char *lt_fmt(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A new string: dir + "/" + rel. */
char *lt_path(const char *dir, const char *rel);

/* Parse a JSON text; fails the test when it is not valid JSON. */
json_object *lt_json(const char *text);
/* obj[key] (fails the test when absent). */
json_object *lt_get(json_object *obj, const char *key);
/* Number of findings in a --format json output with the given rule
 * (NULL: any). */
size_t lt_count_rule(json_object *report, const char *rule);
/* Does text contain needle? */
bool lt_contains(const char *text, const char *needle);

#endif
