/* migrate/relocate.h -- where a site of the tree before the migration is
 * in the tree after it: apply lists the work left for a person where it
 * is once the files changed (plan lists it where it is now).
 *
 * A place in a file that is edited moves with the edits before it (their
 * text as written, line endings included); in a file that moves whole it
 * keeps its line in the new file; a definition that moves is found again
 * by its name in its new file.  Anything else stays where it was. */
#ifndef EM_RELOCATE_H
#define EM_RELOCATE_H

#include "manual.h"
#include "plan.h"

/* Move every entry of the list to its place after the plan (re-sorted). */
void em_plan_relocate(const em_plan *p, em_manuals *m);

#endif
