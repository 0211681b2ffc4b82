/* lint/analysis/custom_kernels.h -- EH105's check of custom ops: an op
 * with kernels registered for some backends but not for others.
 *
 * Per TU, facts are recorded for every custom-op kernel registration --
 * a call of a function in EH105's option "custom_kernel_functions"
 * (eh_custom_op_kernel(op, backend, kernel)) and every initializer of a
 * type in "custom_kernel_types" ({op, backend, kernel} entries of an
 * eh_custom_kernel table) -- and for every op definition (an initializer
 * of a type in "custom_op_def_types", eh_custom_op_def) that sets one of
 * "custom_op_exempt_fields" (fallback, per_element): such an op runs on
 * every backend.  Only string constants count: an op or backend name known
 * only at run time is not judged.
 *
 * The project hook takes the backends that have a kernel of some custom op
 * as the backends custom kernels are written for, and reports each op that
 * lacks one of them, at its first registration.  Without the options
 * (a project that replaced EH105's options) nothing is recorded. */
#ifndef EL_ANALYSIS_CUSTOM_KERNELS_H
#define EL_ANALYSIS_CUSTOM_KERNELS_H

#include "clang_api.h"

#include "rule.h"
#include "strmap.h"

/* The cursor kinds the check looks at (for the rule's kinds list): calls
 * and initializer lists, and in a TU parsed without function bodies
 * (el_skipped_body) function declarations, typedefs, structs and unions. */
#define EL_CUSTOM_KERNEL_KINDS                                                               \
    CXCursor_CallExpr, CXCursor_InitListExpr, CXCursor_FunctionDecl, CXCursor_TypedefDecl,      \
        CXCursor_StructDecl, CXCursor_UnionDecl

/* Per-TU memory of the check: what a skipped body would need to name to
 * register a kernel (the rule's state holds one; zeroed to begin). */
typedef struct el_custom_kernels_tu {
    el_strmap verdicts;   /* identifier -> WORD_* (custom_kernels.c) */
    bool cycle;           /* a macro being read was met (custom_kernels.c) */
} el_custom_kernels_tu;

/* Record the facts of one cursor (a call or an initializer list).  In a
 * TU parsed without function bodies, a skipped body that may register a
 * kernel -- it calls a listed function with what may be a string, names a
 * listed type not only pointed to (or a typedef, struct or union holding
 * one), or a macro whose body does, through other macros, or pastes such
 * a name together -- makes the engine lint the TU again with its bodies
 * (elc_tu_has_bodies). */
void el_custom_kernels_on_cursor(el_ctx *ctx, el_custom_kernels_tu *tu, CXCursor c);
void el_custom_kernels_tu_free(el_custom_kernels_tu *tu);
/* Report the ops registered for some backends but not others. */
void el_custom_kernels_project(el_project *p);

#endif
