/* lint/change/buildcfg.h -- the build configurations a change is checked
 * in.
 *
 * One file can be compiled in several ways, and code the preprocessor
 * skips in one way is compiled in another (#ifdef USE_BLAS ... #else ...).
 * The tools know a file's configurations from
 *   - compile_commands.json (-p): every entry naming the file whose
 *     arguments differ from its earlier entries (the same file built with
 *     -DUSE_BLAS=1 and without);
 *   - define sets: `--define-sets "USE_BLAS=1;!USE_BLAS"` (ember-migrate),
 *     else the configuration key "define_sets" (["USE_BLAS=1",
 *     "!USE_BLAS"]).  A set is a list of NAME, NAME=VALUE (-D) and !NAME
 *     (-U) items separated by commas or blanks; an empty set adds nothing.
 * A file's configurations are every (database entry, define set) pair:
 * its own entries (or the one argument list it gets without, as for a
 * lint: a borrowed entry or the defaults) times the define sets (or none).
 * Configuration k of a run holds the k-th pair of every file that has
 * that many; it is described as a compilation database with one entry
 * per such file (the define set's -D/-U after the entry's arguments), so
 * the engine, the re-parse and the verification use it as they use -p;
 * what the build builds is still the -p database's (el_compdb_build):
 * without one, define sets leave out no file as not built.
 * The arguments after `--` still come last (lint/engine/flags.h). */
#ifndef EL_BUILDCFG_H
#define EL_BUILDCFG_H

#include <stdbool.h>
#include <stddef.h>

#include "compdb.h"
#include "sources.h"

typedef struct el_buildcfgs {
    el_compdb **db;          /* per configuration (db[0] may be the caller's own) */
    bool *owned;             /* db[k] was made here */
    size_t n;                /* >= 1 */
    const el_compdb *base;   /* the caller's database, or NULL */
    char **sets;             /* --define-sets, split (NULL: each file's "define_sets") */
    size_t n_sets;
} el_buildcfgs;

/* Split a --define-sets value ("A=1;!A") into sets; -1 with *err
 * (malloc'd) when an item is not NAME, NAME=VALUE or !NAME. */
int el_define_sets_split(const char *spec, char ***sets, size_t *n, char **err);
/* The configurations of the sources.  db: the loaded -p database (or
 * NULL); cli_sets: --define-sets (or NULL: each file's configuration
 * key).  0, or -1 with *err (a define set that does not parse). */
int el_buildcfgs_make(el_buildcfgs *out, const el_compdb *db, const el_sources *s,
                      const char *cli_sets, char **err);
/* Does configuration k compile this source (absolute real path)? */
bool el_buildcfg_has(const el_buildcfgs *b, size_t k, const el_source *src);
/* How configuration k of src is called in messages ("-DUSE_BLAS=1",
 * "compile_commands.json entry 2"; "" when the run has only one). */
char *el_buildcfg_name(const el_buildcfgs *b, size_t k, const el_source *src);
void el_buildcfgs_free(el_buildcfgs *b);

#endif
