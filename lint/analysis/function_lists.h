/* lint/analysis/function_lists.h -- what emberlint knows about functions
 * that reach tensor data (the configuration's storage_accessors,
 * scalar_reads, copy_out, to_tensor and host_copies: libeh's from
 * rules/host_access.json, a project's own from its .emberlint.json) and
 * about the ops that replace libm functions and C operators
 * (rules/op_equivalents.json, embedded).  Used by the storage data flow
 * (storage_flow.h) and the rules built on it. */
#ifndef EL_FUNCTION_LISTS_H
#define EL_FUNCTION_LISTS_H

#include <stdbool.h>

#include "rule.h"

/* ---- host access (configuration) ------------------------------------ */

typedef enum sf_fn_kind {
    SF_FN_ACCESSOR = 1,    /* storage_accessors: eh_data_f32, ... */
    SF_FN_SCALAR_READ,     /* scalar_reads: eh_item */
    SF_FN_COPY_OUT,        /* copy_out: eh_to_buffer (arg_a: buffer) */
    SF_FN_TO_TENSOR,       /* to_tensor: eh_convert_to_tensor (arg_a: data) */
    SF_FN_HOST_COPY,       /* host_copies: memcpy (arg_a: dest, arg_b: src) */
} sf_fn_kind;

typedef struct sf_fn {
    const char *name;
    sf_fn_kind kind;
    int arg_a, arg_b;
} sf_fn;

/* The entry for a function name under a configuration, or NULL.  Valid
 * for the whole process. */
const sf_fn *sf_function(const el_config *cfg, const char *name);

/* ---- rules/op_equivalents.json -------------------------------------- */

/* A libm (or stdlib abs) function: true for a known name ("sqrtf",
 * "__builtin_sqrt"); *suggest receives the ops call to use, or NULL when
 * there is none.  *base (may be NULL) receives the double name. */
bool sf_libm(const char *name, const char **suggest, const char **base);
/* The op replacing a C operator ("+", "neg", "++"); integer: the
 * operation is on integers. NULL when there is none. */
const char *sf_operator_op(const char *op, bool integer);

/* ---- what messages suggest ------------------------------------------- */

/* The replacement to name for an operator on tensor data in this TU: the
 * project's "replacements" entry ("+", "neg"), else, where the TU uses
 * libeh, the op of rules/op_equivalents.json (its _scalar form when one
 * operand is a scalar); NULL: say nothing specific. */
const char *sf_suggest_operator(el_ctx *ctx, const char *op, bool integer, bool scalar, char *buf,
                                size_t n);
/* The same for accumulating with op ("+": s += p[i]): "+=" / "*=" entries,
 * else libeh's accumulators (eh_sum, eh_prod). */
const char *sf_suggest_accumulation(el_ctx *ctx, const char *op, char *buf, size_t n);
/* The same for a libm function (its name or its double name); *none is
 * set when the TU uses libeh and libeh has no op for it yet. */
const char *sf_suggest_libm(el_ctx *ctx, const char *name, bool *none, char *buf, size_t n);

#endif
