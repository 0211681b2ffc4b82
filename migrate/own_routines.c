/* The note on a tree's own copies of library routines (own_routines.h). */
#include "own_routines.h"

#include <stdlib.h>
#include <string.h>

#include "mem.h"
#include "path.h"
#include "rule.h"
#include "sources.h"

enum { SHOWN = 4 }; /* names the note spells out */

/* Is d a function EH102 takes as the project's own version of a
 * library's routine: defined outside backends/, with external linkage,
 * named as a routine of a library's Fortran interface (a pattern entry of
 * backend_prefixes: ddot_, DGEMM_), not a shim handing the call on to it,
 * and no backend code (eh_ref_sum, or a legacy directory's: it moves)?
 * Only such names: calls of a project's own `ddot` or `dgemm__` are no
 * library calls to begin with, and a plain prefix (cuda_set_device,
 * darknet's) names the project's own wrappers far more often than a copy
 * of the library, which "exclude" would then hide. */
static bool own_routine(const em_tree *t, const em_def *d)
{
    if (!d->is_function || d->is_static || d->in_backends || d->backend[0] || d->in_macro ||
        d->forwards)
        return false;
    long i = el_sources_find(&t->sources, d->path);
    const el_config *cfg = i >= 0 ? t->sources.v[i].cfg : NULL;
    return cfg && el_routine_name(cfg, d->name);
}

/* Was d's name counted by an earlier definition (the same routine under
 * another build configuration, or a second copy)? */
static bool counted_before(const em_tree *t, size_t k)
{
    for (size_t i = 0; i < k; i++)
        if (strcmp(t->defs[i].name, t->defs[k].name) == 0 && own_routine(t, &t->defs[i]))
            return true;
    return false;
}

void em_own_routines_note(const em_tree *t, FILE *out)
{
    size_t n = 0;
    const em_def *first = NULL;
    char names[SHOWN * 80] = "";
    for (size_t i = 0; i < t->n_defs; i++) {
        const em_def *d = &t->defs[i];
        if (!own_routine(t, d) || counted_before(t, i))
            continue;
        if (!first)
            first = d;
        if (n < SHOWN) {
            size_t used = strlen(names);
            snprintf(names + used, sizeof names - used, "%s%.70s", n ? ", " : "", d->name);
        }
        n++;
    }
    if (!n)
        return;
    char more[48] = "";
    if (n > SHOWN)
        snprintf(more, sizeof more, " and %zu more", n - SHOWN);
    char *where = el_path_display(first->path);
    fprintf(out,
            "ember-migrate: note: the tree defines %zu function%s named as a library's routine%s "
            "(%s%s; %s:%u): calls of %s are taken as the project's own code and not "
            "listed; if %s a copy of the library, add %s directory to \"exclude\" in "
            ".emberlint.json and run again\n",
            n, n == 1 ? "" : "s", n == 1 ? "" : "s", names, more, where, first->line,
            n == 1 ? "it" : "them", n == 1 ? "it is" : "they are", n == 1 ? "its" : "their");
    free(where);
}
