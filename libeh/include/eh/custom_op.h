/* <eh/custom_op.h> -- ops an application defines itself.
 *
 * A custom op is defined once (eh_custom_op_define): a namespaced name,
 * its numbers of inputs and outputs, how the outputs' shapes and dtypes
 * follow from the inputs, and the size of its params blob.  Backends
 * register kernels for it (eh_custom_op_kernel, in <eh/backend_api.h>:
 * kernels are backend code).  Calling it (eh_custom_call) validates the
 * inputs like a built-in op -- NULL propagation, the thread-local error
 * record, messages that start with the op's name -- and runs the current
 * backend's kernel; `lazy` records it as a graph node.
 *
 *   static const eh_custom_op_def dist = {
 *       .name = "geo.sqdist", .n_in = 2, .n_out = 1,
 *       .rule = EH_CUSTOM_INFER, .infer = sqdist_shape,
 *       .dtypes = EH_DTYPE_BIT(EH_F32) | EH_DTYPE_BIT(EH_F64),
 *   };
 *   eh_custom_op_define(&dist);
 *   eh_tensor *d = eh_custom_call("geo.sqdist", EH_INPUTS(x, y), NULL);
 *
 * Ops get ids after the built-in ones: eh_custom_op_id(name) is at least
 * eh_op_count(), and eh_op_name() and eh_backend_supports() accept it.
 * Definitions and kernels are never removed.  docs/extending.md has the
 * whole story. */
#ifndef EH_CUSTOM_OP_H
#define EH_CUSTOM_OP_H

#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Most tensor inputs and outputs of a custom op. */
#define EH_CUSTOM_MAX_IN 16
#define EH_CUSTOM_MAX_OUT 8

/* How the outputs' shapes and dtypes follow from the inputs.  Every rule
 * but EH_CUSTOM_INFER gives all outputs the same shape and dtype. */
typedef enum eh_custom_rule {
    /* NumPy broadcast of all inputs; dtype: the inputs' promotion
     * (eh_result_type), or its float dtype with float_result.  Inputs are
     * cast to that dtype before the kernel sees them. */
    EH_CUSTOM_ELEMENTWISE = 1,
    /* Shape and dtype of input `rule_input`; no casts. */
    EH_CUSTOM_SAME_AS_INPUT,
    /* Input `rule_input` reduced over the call's axes (eh_custom_args;
     * none: all axes), keepdims as given; dtype: that input's, or its
     * float dtype with float_result, and the input is cast to it. */
    EH_CUSTOM_REDUCTION,
    /* The `infer` callback fills in every output; no casts. */
    EH_CUSTOM_INFER,
    /* The kernel makes the outputs (eh_custom_output and
     * eh_custom_output_set, <eh/backend_api.h>): for ops whose output
     * shapes only the kernel knows -- an application's legacy functions
     * that allocate their own results, say.  No casts.  With nothing known
     * about the outputs before the kernel runs, a call runs when it is
     * made on every backend, `lazy` included (its inputs are evaluated
     * first): it is never recorded. */
    EH_CUSTOM_DYNAMIC
} eh_custom_rule;

/* Shape and dtype of one output, as infer fills it in. */
typedef struct eh_custom_out {
    eh_dtype dtype;
    int ndim;
    int64_t shape[EH_MAX_DIMS];
} eh_custom_out;

/* What check and infer callbacks see.  Inputs are never NULL and already
 * checked against n_in and `dtypes`; query them with eh_ndim, eh_shape and
 * eh_get_dtype (a deferred input is not evaluated). */
typedef struct eh_custom_ctx {
    const char *op;                 /* the op's name                          */
    int n_in;
    const eh_tensor *const *in;
    const void *params;             /* the call's params blob (NULL if none)  */
    size_t params_size;
    int n_out;
    eh_custom_out *out;             /* infer: fill all n_out; check: NULL     */
    char *why;                      /* on failure, write the reason here: the */
    size_t why_cap;                 /* message becomes "<op>: <why>"          */
} eh_custom_ctx;

/* Return EH_OK, or an error code (EH_ERR_SHAPE, EH_ERR_INVALID_ARG, ...)
 * with the reason written to ctx->why. */
typedef eh_status (*eh_custom_fn)(eh_custom_ctx *ctx);

/* A per-element function: x[0 .. n_in) are one element of each input
 * (broadcast), converted to double; the result is stored converted to the
 * output dtype.  Must be pure and thread-safe: it runs on several threads
 * at once. */
typedef double (*eh_custom_elem_fn)(const double *x, const void *params);

/* Bit of a dtype in eh_custom_op_def.dtypes. */
#define EH_DTYPE_BIT(d) (1u << (d))
#define EH_DTYPES_FLOAT (EH_DTYPE_BIT(EH_F16) | EH_DTYPE_BIT(EH_F32) | EH_DTYPE_BIT(EH_F64))

typedef struct eh_custom_op_def {
    /* "namespace.op": two or more parts of [A-Za-z_][A-Za-z0-9_]* joined
     * by dots, at most 127 characters.  Unique in the process. */
    const char *name;
    int n_in;                       /* 0 .. EH_CUSTOM_MAX_IN                  */
    int n_out;                      /* 1 .. EH_CUSTOM_MAX_OUT                 */
    const char *const *input_names; /* optional: n_in names, for messages     */
    unsigned dtypes;                /* accepted input dtypes (EH_DTYPE_BIT);
                                       0: every dtype                          */
    eh_custom_rule rule;
    int rule_input;                 /* SAME_AS_INPUT, REDUCTION: which input  */
    int float_result;               /* ELEMENTWISE, REDUCTION: integer and bool
                                       results become f64 (as sqrt, mean do)   */
    eh_custom_fn infer;             /* INFER only (required there)            */
    eh_custom_fn check;             /* optional, any rule: validates a call
                                       (params' values, say) before shapes    */
    size_t params_size;             /* bytes every call passes; 0: none       */
    /* Optional, ELEMENTWISE with one output only: the op's meaning element
     * by element.  It runs on every backend that has no kernel of its own,
     * and lets `lazy` fuse the op into elementwise regions (with at most
     * three inputs).  Kernels registered for the op must agree with it. */
    eh_custom_elem_fn per_element;
    /* Optional: the backend whose kernel runs the op on a backend that has
     * none ("ref"); without one, that is an EH_ERR_UNSUPPORTED error. */
    const char *fallback;
} eh_custom_op_def;

/* Define an op.  The definition is copied.  Defining a name again is a
 * no-op when the definition is identical (every field equal: strings by
 * content, callbacks by address), else EH_ERR_INVALID_ARG naming the field
 * that differs.  Thread-safe; may happen at any time before the op is
 * called, before or after its kernels are registered. */
EH_API eh_status eh_custom_op_define(const eh_custom_op_def *def);

/* Optional arguments of a call (NULL: none). */
typedef struct eh_custom_args {
    const void *params;             /* the params blob: exactly the op's      */
    size_t params_size;             /* params_size bytes, read during the call */
    const int *axes;                /* REDUCTION only: the axes (negative from */
    int n_axes;                     /* the end; NULL, 0: all), and keepdims    */
    int keepdims;
} eh_custom_args;

/* Call op `op` on in[0 .. n_in) (the current backend's kernel).  The first
 * form is for ops with one output and returns it (NULL on failure, with the
 * error recorded); the second fills out[0 .. n_out) (all NULL on failure). */
EH_API eh_tensor *eh_custom_call(const char *op, const eh_tensor *const *in, int n_in,
                                 const eh_custom_args *args);
EH_API eh_status eh_custom_call_multi(const char *op, const eh_tensor *const *in, int n_in,
                                      const eh_custom_args *args, eh_tensor **out, int n_out);

/* `in, n_in` from a list of tensors:
 *   eh_custom_call("geo.sqdist", EH_INPUTS(x, y), NULL) */
#define EH_INPUTS(...)                                                                             \
    (const eh_tensor *const[]){__VA_ARGS__},                                                       \
        (int)(sizeof((const eh_tensor *const[]){__VA_ARGS__}) / sizeof(const eh_tensor *))

/* Ops that are known to this process (defined, or with kernels waiting for
 * a definition): their ids are eh_op_count() .. eh_op_count() + n - 1. */
EH_API int eh_custom_op_count(void);
/* The id of a custom op by name, -1 if there is none. */
EH_API int eh_custom_op_id(const char *name);
/* An op's definition (libeh's copy), NULL for an unknown id or an op that
 * has kernels but no definition yet. */
EH_API const eh_custom_op_def *eh_custom_op_get(int id);

#ifdef __cplusplus
}
#endif
#endif
