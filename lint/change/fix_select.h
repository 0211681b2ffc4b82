/* lint/change/fix_select.h -- which of several fixes to apply together: the one
 * policy shared by emberlint --fix (lint/change/fix.c) and ember-migrate's plan
 * (migrate/plan.c).
 *
 * The widest fix is considered first (a fix that encloses another is
 * always wider: a collapsed branch carries its own rewritten calls), then
 * the callers' order.  A fix each of whose edits lies inside (or equals)
 * an edit taken is "covered": what it would do is already done.  Else a
 * fix whose edits overlap those taken (edit.h decides overlap) is a
 * "conflict" (the next run finds it again); else it is taken. */
#ifndef EL_FIX_SELECT_H
#define EL_FIX_SELECT_H

#include <stddef.h>

#include "edit.h"
#include "finding.h"

typedef enum el_fix_choice {
    EL_FIX_NOT_CANDIDATE = 0,  /* fixes[i] was NULL or had no edits */
    EL_FIX_TAKEN,
    EL_FIX_COVERED,            /* inside a taken fix: nothing left to do */
    EL_FIX_CONFLICT,           /* overlaps a taken fix otherwise */
} el_fix_choice;

/* Choose among fixes[0..n) (NULL: not a candidate).  choice[i] receives
 * each verdict; the edits of the taken fixes are appended to *taken (may
 * be NULL) with group i. */
void el_fix_select(const el_fix *const *fixes, size_t n, el_fix_choice *choice,
                   el_edits *taken);

#endif
