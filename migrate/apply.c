/* migrate/apply.c -- `ember-migrate apply`: perform the plan (plan.h).
 *
 *   0. an apply a kill interrupted is resolved first (its journal,
 *      lint/change/journal.h): completed or undone, with a message;
 *   1. refuse, writing nothing, when a file does not parse (EH000) --
 *      unless --force, and then such files are left untouched;
 *   2. verify before writing: every translation unit the plan changes is
 *      parsed with the new contents in every build configuration, and
 *      compared with the same unit now (for a moved file: at its old
 *      place); a new error refuses the whole plan (lint/change/verify.h);
 *   3. commit the changeset: all or nothing; a file that changed since
 *      the scan is refused (lint/change/changeset.h), never overridable;
 *      signals are held until it is complete.
 * A second run finds nothing to do. */
#include <stdlib.h>
#include <string.h>

#include "changeset.h"
#include "mem.h"
#include "path.h"
#include "plan.h"
#include "plan_check.h"
#include "relocate.h"

#define EXIT_TROUBLE 2

int em_run_apply(const em_opts *o)
{
    em_tree t;
    em_plan p;
    el_change_signals_install();
    int rc = em_plan_prepare(o, &t, &p);
    if (rc)
        return rc;
    char *err = NULL;
    if (p.unparsed.n && (!o->force || !o->quiet)) {
        em_plan_report_unparsed(&t, &p, o->force ? "left untouched (--force)"
                                                 : "nothing was changed (fix it, or use --force "
                                                   "to migrate the other files and leave it "
                                                   "untouched)");
        if (!o->force) {
            em_plan_free(&p);
            em_tree_free(&t);
            return EXIT_TROUBLE;
        }
    }
    bool unsafe_left = p.unsafe.n && !p.unsafe_made;
    if (el_changeset_empty(&p.cs)) {
        if (!o->quiet) {
            em_manuals_print(&p.manual, "", stderr);
            em_plan_print_unsafe(&p, true, stderr);
        }
        if (!o->quiet)
            em_plan_nothing(&p, stderr);
        rc = p.manual.n || unsafe_left ? 1 : 0;
        em_plan_free(&p);
        em_tree_free(&t);
        return rc;
    }
    /* the result must compile as well as the original did, in every
     * configuration, before anything is written */
    if (em_verify_plan(o, &t, &p, "nothing was changed") < 0) {
        rc = EXIT_TROUBLE;
    } else if (el_changeset_commit(&p.cs, o->backup, &err) != 0) {
        fprintf(stderr, "ember-migrate: %s\n", err); /* it ends with what became of the files */
        free(err);
        rc = EXIT_TROUBLE;
    } else {
        if (!o->quiet) {
            /* where the sites are now */
            em_plan_relocate(&p, &p.manual);
            em_plan_relocate(&p, &p.unsafe);
            em_manuals_print(&p.manual, "", stderr);
            em_plan_print_unsafe(&p, true, stderr);
            em_plan_summary(&p, "rewritten", true, stderr);
        }
        /* an unsafe change left out waits for a person's decision */
        rc = p.manual.n || p.unparsed.n || unsafe_left ? 1 : 0;
    }
    em_plan_free(&p);
    em_tree_free(&t);
    return rc;
}
