/* migrate/options.h -- ember-migrate's command line, parsed once by
 * migrate/main.c and handed to the subcommands.
 *
 *   ember-migrate analyze [--format text|markdown|json] [--all-ops] [options] PATH... [-- ARGS]
 *   ember-migrate plan    [--verify] [--unsafe-fixes] [options] PATH... [-- ARGS]
 *   ember-migrate apply   [--backup] [--force] [--unsafe-fixes] [options] PATH... [-- ARGS]
 *
 * options: --backend NAME (repeatable), --op NAME (repeatable), -p BUILD_DIR,
 *          --define-sets "A=1;!A", -j N, --quiet; plan --verify
 * Exit status: 0 success (plan: nothing to change, or a plan printed --
 * see docs/ember-migrate.md), 1 apply/plan found work it could not do
 * (manual sites listed), 2 usage, configuration, I/O or refused change. */
#ifndef EM_OPTIONS_H
#define EM_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

#include "scan.h"

typedef enum em_format { EM_FORMAT_TEXT, EM_FORMAT_MARKDOWN, EM_FORMAT_JSON } em_format;

typedef struct em_opts {
    em_scan_opts scan;       /* paths, -p, `--` args, -j */
    em_format format;        /* analyze */
    bool all_ops;            /* analyze: a row for every op (default: ops some backend has) */
    char **backends;         /* --backend (empty: all) */
    size_t n_backends;
    char **ops;              /* --op (empty: all) */
    size_t n_ops;
    bool backup;             /* apply: keep PATH.orig */
    bool force;              /* apply: go on with the files that parse; those that
                                do not are left untouched */
    bool quiet;              /* no progress or summary on stderr */
    bool verify;             /* plan: verify the planned result (every configuration) */
    bool unsafe_fixes;       /* plan, apply: the unsafe changes too (--unsafe-fixes) */
    bool safe_only;          /* plan, apply without --unsafe-fixes: unsafe changes are
                                left out and listed (analyze describes them all) */
} em_opts;

/* True when --backend / --op select it (an empty list selects all;
 * em_op_selected accepts "matmul" and "eh_matmul"). */
bool em_backend_selected(const em_opts *o, const char *backend);
bool em_op_selected(const em_opts *o, const char *op);

/* The selection the moves use (migrate/moves.h), from --backend, --op,
 * --force and the PATHs. */
struct em_select;
void em_opts_select(const em_opts *o, struct em_select *out);

/* The subcommands: each returns the exit status, printing its own
 * messages (`ember-migrate: what went wrong` on stderr). */
int em_run_analyze(const em_opts *o);   /* migrate/analyze.c */
int em_run_plan(const em_opts *o);      /* migrate/plan.c */
int em_run_apply(const em_opts *o);     /* migrate/apply.c */
/* ember-migrate merge REPORT...: the reports of `analyze --shard K/N
 * --format json` joined into the analysis of the whole tree, printed as
 * analyze prints it (o->scan.paths are the reports). */
int em_run_merge(const em_opts *o);     /* migrate/merge.c */

#endif
