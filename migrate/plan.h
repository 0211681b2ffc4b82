/* migrate/plan.h -- the migration as one changeset, computed from the
 * scan: the rules' fixes for EH101 (includes), EH102 (calls) and EH103
 * (branches) -- the safe ones, and the unsafe ones (custom ops among
 * them) only with --unsafe-fixes, each unsafe change listed either way --
 * merged with the moves of migrate/moves.h.  `plan` prints it, `apply`
 * commits it. */
#ifndef EM_PLAN_H
#define EM_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "changeset.h"
#include "moves.h"
#include "options.h"
#include "scan.h"

typedef struct em_plan {
    el_changeset cs;
    em_manuals manual;        /* sites a person must handle */
    /* unsafe changes (a fix the rules mark unsafe, a custom op): without
     * --unsafe-fixes those left out, with it those made -- each listed
     * with why it is unsafe */
    em_manuals unsafe;
    bool unsafe_made;         /* --unsafe-fixes: the list is of changes made */
    size_t calls;             /* EH102 fixes taken */
    size_t includes;          /* EH101 fixes taken */
    size_t branches;          /* EH103 fixes taken */
    size_t moved;             /* op definitions moved into backends/ */
    size_t custom_ops;        /* custom ops made of functions with no libeh op */
    size_t repathed;          /* include directives re-pathed for moved files */
    size_t conflicts;         /* fixes not taken: overlapping one taken */
    el_findings unparsed;     /* EH000 findings: files never edited */
    /* for em_plan_locate (migrate/relocate.c): the edits of existing files,
     * and where each definition that moves goes */
    el_edits edits;
    struct em_moved_site {
        char *name, *path, *dest;
        unsigned line;
    } *moved_sites;
    size_t n_moved_sites;
} em_plan;

/* Make the plan.  Files that do not parse are left out (their EH000
 * findings are in p->unparsed; apply refuses them unless --force).  0, or
 * -1 with *err (malloc'd, "PATH: what") when a file cannot be read or
 * changed since the scan. */
int em_plan_make(const em_opts *o, const em_tree *t, em_plan *p, char **err);
/* The summary line ("N calls, M includes, K branches rewritten; ...");
 * apply says whether the unsafe changes were made or not. */
void em_plan_summary(const em_plan *p, const char *verb, bool apply, FILE *out);
/* The one summary line of a plan with nothing to change (plan and
 * apply): "nothing to migrate", "... automatically (the sites above need
 * a person)", "... safely (the unsafe changes above wait for
 * --unsafe-fixes)". */
void em_plan_nothing(const em_plan *p, FILE *out);
/* The unsafe changes, one line each: "FILE:LINE:COL: unsafe, LABEL: [RULE]
 * what: why" (LABEL: applied with --unsafe-fixes, else not applied; the
 * same for plan, whose diff is what apply writes, and apply). */
void em_plan_print_unsafe(const em_plan *p, bool apply, FILE *out);
void em_plan_free(em_plan *p);
/* Each file that did not parse, on stderr: `ember-migrate: FILE:L:C:
 * message; <outcome>` (what plan or apply does about it). */
void em_plan_report_unparsed(const em_tree *t, const em_plan *p, const char *outcome);

/* Scan, then make the plan, reporting a failure as `ember-migrate: ...`:
 * 0 (free both afterwards), or the exit status (nothing to free). */
int em_plan_prepare(const em_opts *o, em_tree *t, em_plan *p);

#endif
