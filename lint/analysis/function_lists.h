/* lint/analysis/function_lists.h -- what emberlint knows about functions
 * that reach tensor data (rules/host_access.json) and about the ops that
 * replace libm functions and C operators (rules/op_equivalents.json).
 * Loaded once, from the copies embedded at build time; used by the
 * storage data flow (storage_flow.h) and the rules built on it. */
#ifndef EL_FUNCTION_LISTS_H
#define EL_FUNCTION_LISTS_H

#include <stdbool.h>

/* ---- rules/host_access.json ----------------------------------------- */

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

/* The entry for a function name, or NULL. */
const sf_fn *sf_function(const char *name);

/* ---- rules/op_equivalents.json -------------------------------------- */

/* A libm (or stdlib abs) function: true for a known name ("sqrtf",
 * "__builtin_sqrt"); *suggest receives the ops call to use, or NULL when
 * there is none.  *base (may be NULL) receives the double name. */
bool sf_libm(const char *name, const char **suggest, const char **base);
/* The op replacing a C operator ("+", "neg", "++"); integer: the
 * operation is on integers. NULL when there is none. */
const char *sf_operator_op(const char *op, bool integer);

#endif
