/* lint/change/fix.h -- emberlint --fix and --diff: the fixes rules attached to
 * findings become one changeset (lint/change/changeset.h), written all or
 * nothing and verified by parsing again.
 *
 * Planning: safe fixes always, unsafe ones only when asked, except those
 * code the preprocessor skipped still needs (inactive.h) and those of
 * files outside the tree given (bounds.h): each is reported on stderr as
 * not applied, with the reason; among the others, chosen by
 * the policy of fix_select.h: a fix inside one taken is covered by it, a
 * fix that overlaps one taken otherwise is skipped (the next run finds it
 * again).  Every translation unit that
 * sees a changed file is parsed first (a header through the linted .c
 * files that include it, or alone): a file whose TUs already have errors
 * is refused -- its fixes are not applied, the others are.  Then each
 * file's new content is computed from the content it had when it was
 * parsed (the changeset refuses the lot if a file changed since).
 *
 * Committing: before anything is written, the same TUs are parsed with
 * the new contents (verify.h) in every build configuration they have
 * (buildcfg.h); the fixes of a file that would give one of them an error
 * it did not have are left out (reported, with the error), and the rest
 * is checked again.  Then the changeset is written (changeset.h). */
#ifndef EL_FIX_H
#define EL_FIX_H

#include <stdbool.h>
#include <stddef.h>

#include "bounds.h"
#include "buildcfg.h"
#include "changeset.h"
#include "compdb.h"
#include "engine.h"
#include "finding.h"
#include "inactive.h"
#include "reparse.h"
#include "sources.h"

typedef struct el_fix_opts {
    bool unsafe;                      /* --unsafe-fixes */
    const el_compdb *compdb;          /* flags, as for the lint */
    char *const *extra_args;
    size_t n_extra;
    const el_include_list *includes;  /* from the engine run (includes_out) */
    const el_buildcfgs *cfgs;         /* the configurations to verify in (NULL: compdb's) */
    const el_bounds *bounds;          /* the tree it may write (NULL: anywhere) */
    const el_inactive *inactive;      /* skipped code (el_inactive_rule's facts), or NULL */
} el_fix_opts;

/* A translation unit parsed to verify a changed file. */
typedef struct el_fix_tu {
    size_t src;                       /* index in the sources */
    el_errlist before;                /* its errors before the change */
} el_fix_tu;

typedef struct el_fix_plan {
    el_changeset cs;
    size_t fixes;                     /* fixes in the changeset */
    size_t files;                     /* files it changes */
    size_t unsafe_left;               /* unsafe fixes not taken (no --unsafe-fixes) */
    size_t covered;                   /* fixes not needed: inside a fix taken */
    size_t conflicts;                 /* fixes skipped: they overlap one taken */
    size_t refused;                   /* fixes not applied: their file does not parse */
    size_t kept;                      /* fixes not applied: skipped code needs what they
                                         change, or their file lies outside the tree */
    el_fix_tu *tus;                   /* the TUs parsed while planning */
    size_t n_tus, cap_tus;
    char **fix_files;                 /* per changed file, how many fixes it takes */
    size_t *fix_counts;
    size_t n_fix_files, cap_fix_files;
} el_fix_plan;

/* Make the plan from the findings of a run made with want_fixes (and
 * includes_out).  Skipped and refused fixes are reported on stderr
 * (`PROGNAME: PATH:LINE:COL: ...`, progname.h).  0, or -1 with *err (malloc'd) when
 * a file cannot be read or changed since it was parsed: nothing is
 * planned then. */
int el_fix_plan_make(el_fix_plan *plan, const el_findings *f, const el_sources *s,
                     const el_fix_opts *o, char **err);
/* Verify the plan: every TU that sees a changed file is parsed with the
 * new contents, and the fixes of the files that would break a build are
 * left out (each reported).  0, or -1 with *err (malloc'd). */
int el_fix_plan_verify(el_fix_plan *plan, const el_sources *s, const el_fix_opts *o, char **err);
/* Verify the plan (el_fix_plan_verify), then write it (an empty plan
 * writes nothing).  0, or -1 with *err (malloc'd), and then every file is
 * as before. */
int el_fix_plan_commit(el_fix_plan *plan, const el_sources *s, const el_fix_opts *o,
                       char **err);
void el_fix_plan_free(el_fix_plan *plan);

#endif
