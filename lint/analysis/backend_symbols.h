/* lint/analysis/backend_symbols.h -- is a declaration a backend's?  Shared
 * by EH102 backend-symbol (frontend code uses it) and EH104
 * backend-impl-outside-backends (a legacy backend directory's function
 * uses it).
 *
 * A declaration (function, variable, constant, type, macro definition --
 * the one clang resolved a name to) is a backend's when
 *   - its name has an eh_<backend>_ prefix (a backend_prefixes entry
 *     holding <backend>, expanded for every known backend; the whole
 *     prefix must match: eh_blast_radius is not backend blas's);
 *   - or it is declared in a file of a backend (backend_dirs,
 *     backend_files), whatever its name: first, or in a backend file of
 *     the TU (bs_note_declaration);
 *   - or its name has a library prefix of backend_prefixes (cblas_,
 *     LAPACKE_, fftw, cuda, ...; in upper case too: CBLAS_ORDER) and it is
 *     not the project's own: a project function is never a backend's by
 *     its name.  One defined in a linted non-backend file is the project's
 *     in every TU: seen defined here, or -- declared first in a
 *     non-backend file of the project that is not a vendor header
 *     (darknet's cuda_make_array(), declared in its darknet.h, defined in
 *     its cuda.c) -- BS_UNDECIDED, settled across the run; a definition
 *     that hands the call on to the library's build of the same routine
 *     (dgesv_ calling dgesv$NEWLAPACK, el_definition_forwards) is no
 *     definition of the project's, and one that hands it on to the
 *     routine's ILP64 build (dgetrf_ calling dgetrf_64_,
 *     el_definition_forwards_ilp64) is whose dgetrf_64_ is: the
 *     project's when seen defined here (BS_NOT_BACKEND), a backend's
 *     when declared in its file (BS_BY_LOCATION, that backend), else
 *     BS_UNDECIDED, settled across the run (bs_shim tells the caller
 *     such a definition is in sight).  A prototype of
 *     a library function the project writes instead of the include is
 *     still the library's.
 * A macro of a linted non-backend file is the frontend's own: its body is
 * seen through where it is used.  So is one with a library prefix defined
 * in another file of the project (not a vendor header, not a system
 * header: a header of the project the run does not lint, NFFT's FFTW_INIT
 * in its include/nfft3.h), unless its body names a library-prefixed
 * identifier (#define FFTW_PLANNER_FLAGS FFTW_MEASURE: the macros of a
 * body are no expansions libclang shows, so the macro stands for them);
 * the project's own macros in the body are looked through
 * (el_macro_body_names_backend), so FFTW_ALL of project bits is the
 * project's.  A use of a project macro that is no backend's but whose
 * body names a library macro is EH102's finding as that macro's
 * (el_macro_body_backend_macro).
 *
 * Each declaration is classified once per TU. */
#ifndef EL_BACKEND_SYMBOLS_H
#define EL_BACKEND_SYMBOLS_H

#include <stdbool.h>
#include <stddef.h>
#include "clang_api.h"

#include "rule.h"
#include "separation.h"

typedef enum bs_why {
    BS_NOT_BACKEND = 0,
    BS_BY_PREFIX,        /* its name says so */
    BS_BY_LOCATION,      /* it is declared in a backend's file */
    BS_UNDECIDED,        /* a function with a library's prefix that the project
                            declares but this TU does not see defined (or
                            sees defined as a shim, bs_shim): a backend's
                            unless a linted non-backend file defines it
                            (decided across the run, EH102's project hook) */
} bs_why;

/* Per-TU state: zero it before use, free with bs_cache_free. */
typedef struct bs_cache {
    sep_files files;
    el_cursor_map index;    /* declaration -> 1 + its verdict's index in v */
    struct bs_verdict *v;
    size_t cap, n;
    char **backend_usrs;     /* functions and variables a backend file declares */
    size_t n_usrs, cap_usrs;
    struct bs_pending *pending; /* noted, USR not read yet (backend_symbols.c) */
    size_t n_pending, cap_pending;
} bs_cache;

/* A declaration the walk met (FunctionDecl, VarDecl): when it is in a
 * backend file, the function or variable is a backend's wherever else it
 * is declared (darknet's cuda_make_array(), declared in darknet.h and in
 * the backend's cuda.h).  Call before the uses (headers come first). */
void bs_note_declaration(el_ctx *ctx, bs_cache *c, CXCursor decl);

/* Is `decl` a backend's?  backend[n] receives the backend's name when
 * known (BS_BY_LOCATION, or an eh_<backend>_ prefix). */
bs_why bs_classify(el_ctx *ctx, bs_cache *c, CXCursor decl, char *backend, size_t n);
/* A string the caller keeps with the declaration (EH102: the finding a
 * type reference gives), NULL at first; the cache frees it.  NULL when
 * memory runs out. */
char **bs_note(bs_cache *c, CXCursor decl);
/* Did bs_classify find decl's definition in this TU to be a shim, one
 * that hands the call on to the library's build of the same routine
 * ($NEWLAPACK: BS_UNDECIDED or BS_BY_PREFIX) or to its ILP64 build
 * (dgetrf_64_: BS_UNDECIDED unless this TU sees the project define
 * dgetrf_64_, or a backend declare it)?  Then the definition in sight makes decl no project
 * function: its uses wait for the run's verdict.  false before
 * bs_classify was asked. */
bool bs_shim(bs_cache *c, CXCursor decl);
/* A byte the caller keeps with the declaration (EH102: what it found out
 * about the name once), 0 at first; NULL when memory runs out. */
unsigned char *bs_flags(bs_cache *c, CXCursor decl);
void bs_cache_free(bs_cache *c);

#endif
