/* lint/engine/clang_api.h -- libclang, loaded when first called.
 *
 * Every file of the tools includes libclang's headers through this one.
 * Each libclang function the tools name becomes a macro that calls it
 * through a table (clang_api.c fills it with dlopen and dlsym on the first
 * call), so the call sites stay plain clang_...() calls.  Why: loading
 * libclang and LLVM is about 20 ms of relocations and page faults, half of
 * a run that finds every translation unit in the cache; such a run now
 * never loads them.  The list of functions is derived from the sources at
 * build time (gen_clang_api.sh), so nothing here names them.
 *
 * When libclang cannot be loaded, the first call prints
 * "PROGRAM: cannot load libclang (...)" on stderr and exits 2: every call
 * happens before any file is written.  EMBERLINT_LIBCLANG names another
 * library file to load, by its path (the tests use it). */
#ifndef EL_CLANG_API_H
#define EL_CLANG_API_H

/* (every libclang header that declares functions: a name the sources
 * mention, in a comment even, must be declared here) */
#include <clang-c/Index.h>
#include <clang-c/CXCompilationDatabase.h>
#include <clang-c/Documentation.h>
#include <clang-c/FatalErrorHandler.h>
#include <clang-c/Rewrite.h>

#include "clang_api_gen.h" /* EL_CLANG_FUNCTIONS, EL_LIBCLANG_PATH */

typedef struct el_clang_api {
#define EL_CLANG_FIELD(f) __typeof__(f) *p_##f;
    EL_CLANG_FUNCTIONS(EL_CLANG_FIELD)
#undef EL_CLANG_FIELD
} el_clang_api;

/* The table once every function is in it, else NULL. */
extern const el_clang_api *el_clang_loaded;
/* Loads libclang (once a process; any thread) and returns the table, or
 * prints why it cannot and exits 2. */
const el_clang_api *el_clang_load(void);
/* The library file that is (or would be) loaded: EMBERLINT_LIBCLANG, else
 * the one the tools were built against. */
const char *el_clang_library(void);

static inline const el_clang_api *el_clang_need(void)
{
    const el_clang_api *a = __atomic_load_n(&el_clang_loaded, __ATOMIC_ACQUIRE);
    return a ? a : el_clang_load();
}

#include "clang_api_gen.h" /* the second time: a macro per function */

#endif
