/* migrate/custom_rule.h -- ember-migrate's scanner rule for backend
 * functions that have no libeh op (eh_blas_pairwise_sqdist): the
 * candidates for custom ops (migrate/custom_ops.h).
 *
 * Per TU it records, for every top-level function declaration of a
 * linted file whose name is eh_<backend>_<name> (the configuration's
 * backend_prefixes pattern) with <name> not an op of libeh/ops.def, one
 * fact EM_FACT_CUSTOM_FN (JSON):
 *   {"path", "name", "line", "col", "definition": bool, "static": bool,
 *    "in_macro": bool, "variadic": bool,
 *    "type": the canonical function type (to compare backends' versions),
 *    "shown": the function type as written (for messages),
 *    "result": {"kind", "spelling"},
 *    "params": [{"name", "spelling", "kind", "why"}]}
 * where kind is "tensor" (eh_tensor *), "const_tensor" (const eh_tensor
 * *), "scalar" (an arithmetic type, or an enum of libeh's own such as
 * eh_dtype: it travels in the op's params blob) or "other" (anything
 * else: non-tensor state, with `why` saying what it is); spelling is how
 * generated code spells the type (the written name of a standard typedef
 * such as size_t or int64_t, else the canonical type).  Declarations
 * tell which header declares a kernel; definitions are the kernels. */
#ifndef EM_CUSTOM_RULE_H
#define EM_CUSTOM_RULE_H

#include "rule.h"

#define EM_FACT_CUSTOM_FN "ember-migrate.custom_fn"

extern const el_rule em_custom_rule;

#endif
