/* lint/change/reparse.h -- parse a file again, as the engine does (same flags,
 * lint/engine/flags.h), and keep only its errors: emberlint --fix compares the
 * errors of every changed translation unit before and after the commit
 * and rolls back when a fix introduced one. */
#ifndef EL_REPARSE_H
#define EL_REPARSE_H

#include <stdbool.h>
#include <stddef.h>

#include "clang_api.h"

#include "compdb.h"
#include "sources.h"

/* Error messages (severity error or fatal) without their locations: the
 * same error moved by an edit is still the same error. */
typedef struct el_errlist {
    char **v;
    size_t n, cap;
    /* where each error is, "FILE:LINE:COL" (the path as el_path_display
     * shows it; NULL when clang gave none): where[i] is v[i]'s, for
     * i < n_where */
    char **where;
    size_t n_where, cap_where;
} el_errlist;

/* Parse src (flags from db -- NULL for the defaults -- and the extra
 * arguments after `--`) and append its error messages to out.  0, or -1
 * when libclang produced no translation unit at all (then one message
 * saying so is appended). */
int el_reparse_errors(const el_compdb *db, const el_source *src, char *const *extra,
                      size_t n_extra, el_errlist *out);
/* The same, parsing the file `path` (which need not exist on disk) with
 * the arguments of `args_src` in configuration `db`, libclang reading the
 * n_unsaved files of `unsaved` from memory instead of the disk.  strict:
 * what C only warns about but means a change broke the code counts as an
 * error too -- a call of an undeclared function (a rename to a name no
 * header declares, a moved declaration), an int taken for a pointer,
 * incompatible pointer types (lint/change/verify.h). */
int el_reparse_errors_with(const el_compdb *db, const el_source *args_src, const char *path,
                           char *const *extra, size_t n_extra,
                           struct CXUnsavedFile *unsaved, unsigned n_unsaved, bool strict,
                           el_errlist *out);
/* The first message of `after` that `before` does not account for,
 * comparing them as multisets (two equal errors before, three after: the
 * third is new); NULL when there is none. */
const char *el_errlist_new_error(const el_errlist *before, const el_errlist *after);
/* The same error's place in `after` ("FILE:LINE:COL"), or NULL. */
const char *el_errlist_new_error_where(const el_errlist *before, const el_errlist *after);
void el_errlist_free(el_errlist *l);

#endif
