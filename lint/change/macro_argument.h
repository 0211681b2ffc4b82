/* lint/change/macro_argument.h -- a call written whole in one argument of
 * a function-like macro's use (`CHECK(r = eh_blas_add(a, b))`).
 *
 * Renaming the callee in the argument's text renames it in the macro's
 * expansion, and only there, when the macro puts that argument into its
 * body once and as it is: not stringized (`#v`: the rename would change a
 * string the program prints), not pasted (`v##_f`), not passed on to
 * another macro (which could do either), not twice (one edit, two calls
 * to check).  The rewriter (rewrite.c) then checks the call's text as it
 * does for one written in the file. */
#ifndef EL_MACRO_ARGUMENT_H
#define EL_MACRO_ARGUMENT_H

#include <stdbool.h>
#include <stddef.h>

#include "clang_api.h"

/* Where the callee reference ref is spelled in an argument of a
 * function-like macro's use: its file, offset, and the argument's text
 * [*arg_b, *arg_e) there.  false when it is not in such an argument, or
 * when the macro does something else with the argument than putting it
 * in once as it is; then why says what (or is "" when ref is not in an
 * argument at all). */
bool el_macro_argument_of(CXCursor ref, CXFile *file, unsigned *offset, unsigned *arg_b,
                          unsigned *arg_e, char *why, size_t wn);

#endif
