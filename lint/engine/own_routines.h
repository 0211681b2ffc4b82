/* A tree that carries its own copy of a library's routines (liblinear's
 * blas/ddot.c defines ddot_): EH102 takes every call of such a name as
 * the project's own code, so a run over the whole tree lists none of
 * them, while a run over a file that calls them lists every call.  EH102
 * records each use it silences so (EL_FACT_OWN_USE: the use and the
 * definition that silenced it, however that definition is written: by a
 * macro, inside `extern "C" { }`, in a legacy backend directory); the
 * note is made of that record, per build configuration: which calls were
 * not listed, which definitions silenced them, and what to do if they
 * are a bundled copy of the library. */
#ifndef EL_OWN_ROUTINES_H
#define EL_OWN_ROUTINES_H

#include <stdio.h>

#include "engine.h"
#include "sources.h"

/* The uses EH102 silenced because the project defines the function, of
 * every configuration scanned. */
typedef struct el_own_uses {
    struct el_own_use {
        size_t cfg;       /* the configuration's index */
        char *name;       /* as called: ddot_, dgetrf_ (a shim's, not its ILP64 build's) */
        char *path;       /* the use (absolute, real) */
        unsigned line, col;
        char *def;        /* a definition that silenced it (absolute, real) */
        unsigned def_line;
    } *v;
    size_t n, cap;
    char **cfg_names;     /* by configuration index ("" when the run has one) */
    size_t n_cfgs;
} el_own_uses;

/* Take the record of configuration k (called `name` in messages) from
 * the facts of its engine run (a merge's too: the project hook's record
 * is made there). */
void el_own_uses_add(el_own_uses *u, size_t k, const char *name, const el_fact_list *facts);
void el_own_uses_free(el_own_uses *u);

/* Print, when EH102 silenced some call of a name of a library's
 * routine, Fortran (ddot_, DGEMM_: el_routine_name) or C (cblas_ddot,
 * LAPACKE_dgesv: el_routine_c_name), made outside the definitions'
 * own files (a copy's routines calling each other are no call of the
 * project's), one note, "<el_progname>: note: ...": how many calls of
 * which routines were not_done ("not listed", "not reported"), in which
 * of the n_builds build configurations when not in all, where the tree
 * defines them, and every directory to exclude to have them reported --
 * with db_only (the -p BUILD_DIR of a run without PATH, which reads
 * -- "scans", "lints" -- the database's files whatever "exclude" says),
 * by a run that names the tree.  sources says each use's configuration (its names of routines).
 * Prints nothing otherwise. */
void el_own_routines_note(const el_sources *sources, size_t n_builds, const el_own_uses *u,
                          const char *db_only, const char *not_done, const char *reads, FILE *out);
/* The same of one run's facts, one build configuration (emberlint's run
 * and merge). */
void el_own_routines_note_facts(const el_sources *sources, const el_fact_list *facts,
                                const char *db_only, const char *not_done, const char *reads,
                                FILE *out);

#endif
