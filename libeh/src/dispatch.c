/* Dispatch: hand a validated call to the current backend. */
#include <stdio.h>
#include "internal.h"

eh_status eh_run_kernel(const eh_backend *backend, const eh_op_call *call)
{
    /* the table's own entry on the fast path; delegates and custom ops
     * through the lookup */
    const char *whose = backend->name;
    eh_kernel_fn kernel = (unsigned)call->op < EH_OP_COUNT ? backend->kernels[call->op] : NULL;
    if (!kernel && !(kernel = eh_backend_kernel_whose(backend, call->op, &whose)))
        return eh__no_kernel(backend, call->op);
    for (int k = 0; k < call->n_in; k++) {
        eh_status st = eh_materialize(call->in[k]);
        if (st != EH_OK)
            return st;
    }
    for (int k = 0; k < call->n_out; k++) {
        eh_status st = eh_tensor_alloc_data(call->out[k]);
        if (st != EH_OK) { /* the allocator cannot know the op: name it */
            char why[256];
            snprintf(why, sizeof why, "%s", eh_error_message());
            return eh_set_error(st, "%s: %s", eh_op_name(call->op), why);
        }
    }
    eh_status st = kernel(call);
    if (st != EH_OK && eh_last_error() != st) /* a custom kernel that said nothing */
        eh_set_error(st, "%s: the kernel for backend '%s' failed with %s", eh_op_name(call->op),
                     whose ? whose : backend->name, eh_status_name(st));
    return st;
}

eh_status eh_dispatch(const eh_op_call *call)
{
    const eh_backend *backend = eh_current_backend();
    if (!backend)
        return eh_last_error();
    if (backend->defer)
        return backend->defer(call);
    return eh_run_kernel(backend, call);
}

eh_tensor *eh__run(eh_op_call *call, int ndim, const int64_t *shape, eh_dtype dtype)
{
    eh_tensor *out = eh__new_tensor(eh_op_name(call->op), ndim, shape, dtype);
    if (!out)
        return NULL;
    eh_tensor *outs[1] = {out};
    call->n_out = 1;
    call->out = outs;
    if (eh_dispatch(call) != EH_OK) {
        eh_tensor_unref(out);
        return NULL;
    }
    call->out = NULL;
    return out;
}

eh_status eh__run_multi(eh_op_call *call, int n_out, const int *ndims,
                        const int64_t (*shapes)[EH_MAX_DIMS], const eh_dtype *dtypes,
                        eh_tensor **outs)
{
    eh_status st = EH_OK;
    for (int k = 0; k < n_out; k++)
        outs[k] = NULL;
    for (int k = 0; k < n_out && st == EH_OK; k++) {
        outs[k] = eh__new_tensor(eh_op_name(call->op), ndims[k], shapes[k], dtypes[k]);
        if (!outs[k])
            st = eh_last_error();
    }
    if (st == EH_OK) {
        call->n_out = n_out;
        call->out = outs;
        st = eh_dispatch(call);
        call->out = NULL;
    }
    if (st != EH_OK) {
        for (int k = 0; k < n_out; k++) {
            eh_tensor_unref(outs[k]);
            outs[k] = NULL;
        }
    }
    return st;
}
