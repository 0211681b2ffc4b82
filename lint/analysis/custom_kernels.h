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

/* The cursor kinds the check looks at (for the rule's kinds list). */
#define EL_CUSTOM_KERNEL_KINDS CXCursor_CallExpr, CXCursor_InitListExpr

/* Record the facts of one cursor (a call or an initializer list). */
void el_custom_kernels_on_cursor(el_ctx *ctx, CXCursor c);
/* Report the ops registered for some backends but not others. */
void el_custom_kernels_project(el_project *p);

#endif
