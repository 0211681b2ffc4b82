/* lint/engine.h -- parsing and walking translation units, running the
 * rules, in parallel, with the cache.
 *
 * Phase 1 lints every .c source (one TU each).  Phase 2 lints, as TUs of
 * their own, the .h sources no phase-1 TU included; a header a .c
 * includes is linted through that .c, and its findings are reported once,
 * at the header.  Then the project hooks run, suppressions apply, and the
 * findings come out sorted by file, line, column and rule -- the same
 * whatever the number of workers. */
#ifndef EL_ENGINE_H
#define EL_ENGINE_H

#include <stdbool.h>
#include <stddef.h>

#include "compdb.h"
#include "filehash.h"
#include "finding.h"
#include "sources.h"

typedef struct el_engine_opts {
    int jobs;                   /* workers, >= 1 */
    const char *cache_dir;      /* NULL: no cache */
    char *const *extra_args;    /* after `--` */
    size_t n_extra;
    const el_compdb *compdb;    /* NULL: default flags */
    const bool *selected;       /* per metadata index: --select/--ignore */
    bool progress;              /* progress line on stderr */
} el_engine_opts;

typedef struct el_engine_stats {
    size_t tus;                 /* translation units linted */
    size_t cached;              /* of which answered by the cache */
} el_engine_stats;

/* Lint the sources; findings into out (sorted, unique, suppressions
 * applied).  Problems with the cache are warnings, never fatal. */
void el_engine_run(const el_engine_opts *o, el_sources *sources, el_filehash *hashes,
                   el_findings *out, el_engine_stats *stats);

#endif
