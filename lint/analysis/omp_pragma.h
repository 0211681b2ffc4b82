/* lint/analysis/omp_pragma.h -- the names in a file's `#pragma omp` lines.
 *
 * OpenMP is parsed as plain C (lint/engine/args_policy.h: libclang 14
 * shows no statement inside an OpenMP directive), so its pragmas are
 * ignored and no cursor shows what their clauses name: `#pragma omp
 * parallel for if(cblas_sdot(n, x, 1, x, 1) > 1)` calls cblas_sdot when
 * the code builds with OpenMP.  EH102 reports backend names there from
 * the text, and EH101 keeps a backend include such a clause may need. */
#ifndef EL_OMP_PRAGMA_H
#define EL_OMP_PRAGMA_H

#include <stdbool.h>
#include <stddef.h>
#include "clang_api.h"
#include "rule.h"

/* fn(name, offset, call, ud) for each backend name (el_backend_prefix_of,
 * upper case too) in the `#pragma omp` lines of a file of the TU
 * (continued lines included; comments and string literals skipped; not in
 * code the preprocessor skipped); offset: in the file; call: '(' follows
 * it.  fn returns false to stop. */
typedef bool (*el_omp_name_fn)(const char *name, unsigned offset, bool call, void *ud);
void el_omp_backend_names(el_ctx *ctx, CXFile file, el_omp_name_fn fn, void *ud);

#endif
