/* tests/migrate/migrate_test.h -- helpers for ember-migrate's tests: run
 * the built binary (EMBER_MIGRATE).  Scratch trees, snapshots, diffs and
 * JSON are tests/lint/tool_test.h, shared with emberlint's tests.
 *
 * Include after <stdarg.h>, <stddef.h>, <setjmp.h> and <cmocka.h> (this
 * header does so itself). */
#ifndef MIGRATE_TEST_H
#define MIGRATE_TEST_H

#include "tool_test.h"

#ifndef EMBER_MIGRATE
#error "EMBER_MIGRATE must name the ember-migrate binary (the Makefile defines it)"
#endif
#ifndef MIGRATE_SRCDIR
#error "MIGRATE_SRCDIR must name the source tree (the Makefile defines it)"
#endif

/* libeh's headers, for the trees the tests migrate. */
#define MT_INCLUDE "-I" MIGRATE_SRCDIR "/libeh/include"

/* Run ember-migrate in cwd with the arguments args (NULL-terminated), then,
 * with include, `-- MT_INCLUDE`; extra environment assignments in env
 * ("NAME=value", NULL-terminated, may be NULL). */
tt_run mt_migratev(const char *cwd, const char *const *env, const char *const *args, bool include);
/* The same with the arguments listed, and with include. */
tt_run mt_migrate(const char *cwd, const char *const *env, const char *arg, ...);
/* The same with the arguments listed, exactly (no include). */
tt_run mt_migrate_args(const char *cwd, const char *arg, ...);

#endif
