/* Frontend of custom ops (<eh/custom_op.h>): eh_custom_call and
 * eh_custom_call_multi.
 *
 * A call is validated like a built-in op's, in this order: the inputs
 * (NULL propagation: an earlier error is kept), the op (defined?), the
 * counts of inputs and outputs, the input dtypes, the params blob, the
 * op's check callback, then its shape rule, which gives every output's
 * shape and dtype and the dtype kernels see the inputs in.  Then the
 * current backend must have a kernel (kernel_lookup.c: own, delegate's,
 * fallback's, or the per-element function); a deferring backend records
 * the call instead of running it.
 *
 * ---- eh_op_call contract (what a custom op's kernel sees) ----
 *   op            the op's id (eh_op_name gives its name)
 *   in[0..n_in)   materialized; ELEMENTWISE: cast to the output dtype and
 *                 broadcast-compatible with out[0], not expanded;
 *                 REDUCTION: input rule_input cast to the output dtype;
 *                 otherwise as the caller passed them
 *   out[0..n_out) allocated, shaped by the rule (EH_CUSTOM_DYNAMIC: NULL,
 *                 the kernel makes them: custom_dynamic.c)
 *   p.blob        the params blob (params_size bytes; NULL when 0): the
 *                 caller's memory during an eager call, lazy's copy later
 *   p.axes, p.n_axes, p.keepdims  REDUCTION: distinct ascending axes of
 *                 input rule_input; otherwise zero
 * Every other field of p is zero. */
#include <stdio.h>
#include <string.h>
#include "internal.h"

typedef struct shapes {
    int ndim[EH_CUSTOM_MAX_OUT];
    int64_t shape[EH_CUSTOM_MAX_OUT][EH_MAX_DIMS];
    eh_dtype dtype[EH_CUSTOM_MAX_OUT];
    eh_dtype cast[EH_CUSTOM_MAX_IN]; /* dtype an input is cast to; EH_DTYPE_COUNT: none */
} shapes;

static const char *input_name(const eh_custom_op_def *def, int k, char *buf, size_t cap)
{
    if (def && def->input_names)
        return def->input_names[k];
    snprintf(buf, cap, "in[%d]", k);
    return buf;
}

static void dtype_list(unsigned mask, char *buf, size_t cap)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int d = 0; d < EH_DTYPE_COUNT && len < cap; d++)
        if (mask & EH_DTYPE_BIT(d))
            len += (size_t)snprintf(buf + len, cap - len, "%s%s", len ? ", " : "",
                                    eh_dtype_name((eh_dtype)d));
}

/* The op for a call by name: defined, and with the numbers of inputs and
 * outputs the call has.  NULL with the error recorded otherwise. */
static const eh_custom_op_def *find_op(const char *name, int n_in, int n_out, int id)
{
    const eh_custom_op_def *def = id >= 0 ? eh_custom_op_get(id) : NULL;
    if (!def) {
        char have[256] = "";
        if (id >= 0)
            eh__custom_kernel_backends(id, have, sizeof have);
        eh_set_error(EH_ERR_INVALID_ARG, "custom_call: no custom op named '%.*s' is defined%s%s%s",
                     128, name, have[0] ? " (it has kernels for " : "", have,
                     have[0] ? ", but eh_custom_op_define was never called for it)" : "");
        return NULL;
    }
    if (n_in != def->n_in) {
        eh_set_error(EH_ERR_INVALID_ARG, "%s: takes %d input%s, got %d", name, def->n_in,
                     def->n_in == 1 ? "" : "s", n_in);
        return NULL;
    }
    if (n_out != def->n_out) {
        eh_set_error(EH_ERR_INVALID_ARG, "%s: has %d output%s, the call asks for %d%s", name,
                     def->n_out, def->n_out == 1 ? "" : "s", n_out,
                     n_out == 1 ? " (use eh_custom_call_multi)" : "");
        return NULL;
    }
    return def;
}

static eh_status check_args(const eh_custom_op_def *def, const eh_tensor *const *in,
                            const eh_custom_args *a)
{
    char buf[32], list[64];
    for (int k = 0; def->dtypes && k < def->n_in; k++)
        if (!(def->dtypes & EH_DTYPE_BIT(in[k]->dtype))) {
            dtype_list(def->dtypes, list, sizeof list);
            return eh_set_error(EH_ERR_DTYPE, "%s: input '%s' has dtype %s; %s accepts %s",
                                def->name, input_name(def, k, buf, sizeof buf),
                                eh_dtype_name(in[k]->dtype), def->name, list);
        }
    size_t size = a ? a->params_size : 0;
    if (size != def->params_size)
        return eh_set_error(EH_ERR_INVALID_ARG, "%s: params of %zu bytes, the op takes %zu",
                            def->name, size, def->params_size);
    if (size && !a->params)
        return eh_set_error(EH_ERR_NULL_ARG, "%s: params is NULL but params_size is %zu",
                            def->name, size);
    if (a && (a->axes || a->n_axes || a->keepdims) && def->rule != EH_CUSTOM_REDUCTION)
        return eh_set_error(EH_ERR_INVALID_ARG, "%s: axes and keepdims are for reductions; the "
                                                "op's rule is %s",
                            def->name, eh__custom_rule_name(def->rule));
    return EH_OK;
}

/* Run a check or infer callback; a failure becomes "<op>: <why>". */
static eh_status run_callback(const eh_custom_op_def *def, eh_custom_fn fn, const char *what,
                              const eh_tensor *const *in, const eh_custom_args *a,
                              eh_custom_out *out)
{
    char why[256] = "";
    eh_custom_ctx ctx = {.op = def->name, .n_in = def->n_in, .in = in,
                         .params = a ? a->params : NULL, .params_size = a ? a->params_size : 0,
                         .n_out = out ? def->n_out : 0, .out = out, .why = why,
                         .why_cap = sizeof why};
    eh_status st = fn(&ctx);
    if (st == EH_OK)
        return EH_OK;
    if (st < EH_ERR_NULL_ARG || st > EH_ERR_INTERNAL)
        st = EH_ERR_INVALID_ARG;
    why[sizeof why - 1] = '\0';
    if (why[0])
        return eh_set_error(st, "%s: %s", def->name, why);
    return eh_set_error(st, "%s: rejected by its %s callback", def->name, what);
}

/* eh_custom_out from infer, checked: a valid dtype, ndim and shape. */
static eh_status take_inferred(const eh_custom_op_def *def, const eh_custom_out *o, shapes *s)
{
    for (int k = 0; k < def->n_out; k++) {
        if ((unsigned)o[k].dtype >= EH_DTYPE_COUNT || o[k].ndim < 0 || o[k].ndim > EH_MAX_DIMS)
            return eh_set_error(EH_ERR_INTERNAL,
                                "%s: its infer callback gave output %d dtype %d and ndim %d "
                                "(a bug in the op's definition)",
                                def->name, k, (int)o[k].dtype, o[k].ndim);
        int64_t size;
        if (eh__check_shape(def->name, o[k].ndim, o[k].shape, o[k].dtype, &size) != EH_OK)
            return eh_last_error();
        s->dtype[k] = o[k].dtype;
        s->ndim[k] = o[k].ndim;
        memcpy(s->shape[k], o[k].shape, sizeof o[k].shape);
    }
    return EH_OK;
}

/* Every output gets the shape (nd, shape) and dtype dt. */
static void same_outputs(const eh_custom_op_def *def, int nd, const int64_t *shape, eh_dtype dt,
                         shapes *s)
{
    for (int k = 0; k < def->n_out; k++) {
        s->ndim[k] = nd;
        memcpy(s->shape[k], shape, (size_t)nd * sizeof *shape);
        s->dtype[k] = dt;
    }
}

static eh_status apply_rule(const eh_custom_op_def *def, const eh_tensor *const *in,
                            const eh_custom_args *a, eh_op_call *call, shapes *s)
{
    for (int k = 0; k < def->n_in; k++)
        s->cast[k] = EH_DTYPE_COUNT;
    int nd;
    int64_t shape[EH_MAX_DIMS];
    switch (def->rule) {
    case EH_CUSTOM_ELEMENTWISE: {
        eh_dtype dt = in[0]->dtype;
        for (int k = 1; k < def->n_in; k++)
            if (eh_result_type(dt, in[k]->dtype, &dt) != EH_OK)
                return eh_last_error();
        if (def->float_result)
            dt = eh__float_dtype(dt);
        if (eh__broadcast_shapes(def->name, def->n_in, in, &nd, shape) != EH_OK)
            return eh_last_error();
        for (int k = 0; k < def->n_in; k++)
            s->cast[k] = dt;
        same_outputs(def, nd, shape, dt, s);
        return EH_OK;
    }
    case EH_CUSTOM_SAME_AS_INPUT: {
        const eh_tensor *x = in[def->rule_input];
        same_outputs(def, x->ndim, x->shape, x->dtype, s);
        return EH_OK;
    }
    case EH_CUSTOM_REDUCTION: {
        const eh_tensor *x = in[def->rule_input];
        const int *axes = a ? a->axes : NULL;
        int n_axes = a ? a->n_axes : 0;
        if (n_axes < 0 || (!axes && n_axes > 0))
            return eh_set_error(n_axes < 0 ? EH_ERR_AXIS : EH_ERR_NULL_ARG,
                                "%s: axes is %s and n_axes is %d", def->name,
                                axes ? "given" : "NULL", n_axes);
        if (eh__normalize_axes(def->name, axes, n_axes, x->ndim, call->p.axes, &call->p.n_axes) !=
            EH_OK)
            return eh_last_error();
        call->p.keepdims = a && a->keepdims;
        eh__reduced_shape(x->ndim, x->shape, call->p.axes, call->p.n_axes, call->p.keepdims, &nd,
                          shape);
        eh_dtype dt = def->float_result ? eh__float_dtype(x->dtype) : x->dtype;
        s->cast[def->rule_input] = dt;
        same_outputs(def, nd, shape, dt, s);
        return EH_OK;
    }
    case EH_CUSTOM_INFER: {
        eh_custom_out out[EH_CUSTOM_MAX_OUT];
        memset(out, 0, sizeof out);
        eh_status st = run_callback(def, def->infer, "infer", in, a, out);
        return st == EH_OK ? take_inferred(def, out, s) : st;
    }
    case EH_CUSTOM_DYNAMIC: /* custom_dynamic.c: the kernel makes the outputs */
        break;
    }
    return eh_set_error(EH_ERR_INTERNAL, "%s: no shape rule", def->name);
}

eh_status eh_custom_call_multi(const char *op, const eh_tensor *const *in, int n_in,
                               const eh_custom_args *args, eh_tensor **out, int n_out)
{
    for (int k = 0; out && k < n_out; k++)
        out[k] = NULL;
    if (!op)
        return eh_set_error(EH_ERR_NULL_ARG, "custom_call: argument 'op' is NULL");
    if (!out && n_out > 0)
        return eh_set_error(EH_ERR_NULL_ARG, "%s: argument 'out' is NULL", op);
    if (!in && n_in > 0)
        return eh_set_error(EH_ERR_NULL_ARG, "%s: argument 'in' is NULL but n_in is %d", op, n_in);
    int id = eh_custom_op_id(op);
    const eh_custom_op_def *def = id >= 0 ? eh_custom_op_get(id) : NULL;
    char buf[32];
    for (int k = 0; k < n_in; k++)
        if (!eh__require(op, in[k], input_name(def && def->n_in == n_in ? def : NULL, k, buf,
                                                sizeof buf)))
            return eh_last_error();
    if (!(def = find_op(op, n_in, n_out, id)) || check_args(def, in, args) != EH_OK)
        return eh_last_error();
    if (def->check && run_callback(def, def->check, "check", in, args, NULL) != EH_OK)
        return eh_last_error();
    if (def->rule == EH_CUSTOM_DYNAMIC)
        return eh__custom_run_dynamic(def, id, in, n_in, args, out, n_out);

    eh_op_call call = eh__call((eh_op)id, n_in, NULL);
    shapes s;
    if (apply_rule(def, in, args, &call, &s) != EH_OK)
        return eh_last_error();
    const eh_backend *b = eh_current_backend();
    if (!b)
        return eh_last_error();
    if (!eh_backend_kernel(b, id))
        return eh__no_kernel(b, id);

    eh_tensor *cast[EH_CUSTOM_MAX_IN] = {NULL};
    const eh_tensor *ins[EH_CUSTOM_MAX_IN];
    eh_status st = EH_OK;
    for (int k = 0; k < n_in && st == EH_OK; k++) {
        ins[k] = in[k];
        if (s.cast[k] != EH_DTYPE_COUNT && in[k]->dtype != s.cast[k]) {
            if (!(cast[k] = eh__as_dtype(in[k], s.cast[k])))
                st = eh_last_error();
            ins[k] = cast[k];
        }
    }
    if (st == EH_OK) {
        call.in = ins;
        call.p.blob = def->params_size ? args->params : NULL;
        call.p.blob_size = def->params_size;
        st = eh__run_multi(&call, n_out, s.ndim, (const int64_t(*)[EH_MAX_DIMS])s.shape, s.dtype,
                           out);
    }
    for (int k = 0; k < n_in; k++)
        eh_tensor_unref(cast[k]);
    return st;
}

eh_tensor *eh_custom_call(const char *op, const eh_tensor *const *in, int n_in,
                          const eh_custom_args *args)
{
    eh_tensor *out = NULL;
    eh_custom_call_multi(op, in, n_in, args, &out, 1);
    return out;
}
