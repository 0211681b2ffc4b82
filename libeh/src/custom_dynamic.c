/* Custom ops whose kernel makes the outputs (EH_CUSTOM_DYNAMIC): running
 * a call, and the two functions such a kernel gives its outputs with
 * (eh_custom_output, eh_custom_output_set in <eh/backend_api.h>).
 *
 * Nothing about the outputs is known before the kernel runs, so a call
 * runs when it is made, on every backend: a deferring backend (lazy) has
 * its inputs evaluated, and the kernel the lookup names for it (its own,
 * its delegate's, the fallback's) runs at once.  The kernel runs on the
 * calling thread; the state of a run (the output slots, which of them
 * libeh allocated) is thread-local and stacked, so a kernel may itself
 * call custom ops. */
#include <stdio.h>
#include <string.h>
#include "internal.h"

typedef struct dyn_run {
    const eh_op_call *call;
    eh_tensor *slots[EH_CUSTOM_MAX_OUT];
    unsigned char ours[EH_CUSTOM_MAX_OUT]; /* made here: dropped if the call fails */
    int no_result;                         /* eh_custom_output_set was given NULL */
    struct dyn_run *outer;                 /* the run whose kernel made this call */
} dyn_run;

static _Thread_local dyn_run *current;

/* The run of `call`'s kernel with output k still to give, or NULL with the
 * error recorded. */
static dyn_run *run_for(const eh_op_call *call, int k, const char *fn)
{
    dyn_run *r = current;
    if (!call || !r || r->call != call) {
        eh_set_error(EH_ERR_INVALID_ARG, "%s: only the kernel of an EH_CUSTOM_DYNAMIC op, "
                                         "while it runs, gives that call's outputs",
                     fn);
        return NULL;
    }
    const char *op = eh_op_name(call->op);
    if (k < 0 || k >= call->n_out) {
        eh_set_error(EH_ERR_INVALID_ARG, "%s: %s has %d output%s, there is no output %d", fn, op,
                     call->n_out, call->n_out == 1 ? "" : "s", k);
        return NULL;
    }
    if (r->slots[k]) {
        eh_set_error(EH_ERR_INVALID_ARG, "%s: output %d of %s is already given", fn, k, op);
        return NULL;
    }
    return r;
}

/* A new output of the current op's call: registered with the caller's
 * scope, as every op's result is. */
static eh_tensor *new_output(dyn_run *r, int k, int ndim, const int64_t *shape, eh_dtype dtype)
{
    const char *op = eh_op_name(r->call->op);
    eh_tensor *t = eh__new_tensor(op, ndim, shape, dtype);
    if (!t)
        return NULL;
    if (eh_tensor_alloc_data(t) != EH_OK) {
        char why[256];
        snprintf(why, sizeof why, "%s", eh_error_message());
        eh_set_error(EH_ERR_NOMEM, "%s: %s", op, why);
        eh_tensor_unref(t);
        return NULL;
    }
    r->slots[k] = t;
    r->ours[k] = 1;
    return t;
}

eh_tensor *eh_custom_output(const eh_op_call *call, int k, int ndim, const int64_t *shape,
                            eh_dtype dtype)
{
    dyn_run *r = run_for(call, k, "custom_output");
    if (!r)
        return NULL;
    const char *op = eh_op_name(call->op);
    if (eh__check_dtype(op, dtype) != EH_OK)
        return NULL;
    if (ndim > 0 && !shape) {
        eh_set_error(EH_ERR_NULL_ARG, "custom_output: %s: shape is NULL but ndim is %d", op, ndim);
        return NULL;
    }
    return new_output(r, k, ndim, shape, dtype);
}

static int is_input(const eh_op_call *call, const eh_tensor *t)
{
    for (int k = 0; k < call->n_in; k++)
        if (call->in[k] == t)
            return 1;
    return 0;
}

eh_status eh_custom_output_set(const eh_op_call *call, int k, eh_tensor *t)
{
    dyn_run *r = run_for(call, k, "custom_output_set");
    if (!r)
        return eh_last_error();
    if (!t) {
        r->no_result = 1;
        return EH_ERR_UNSUPPORTED;
    }
    if (!is_input(call, t)) {
        r->slots[k] = t;
        return EH_OK;
    }
    /* an input handed back: the result is a copy (inputs are materialized) */
    eh_tensor *c = new_output(r, k, t->ndim, t->shape, t->dtype);
    if (!c)
        return eh_last_error();
    if (t->nbytes)
        memcpy(c->data, t->data, t->nbytes);
    return EH_OK;
}

/* Did the error record change since (st, msg)?  A kernel that failed and
 * said why leaves its own message. */
static int error_recorded_since(eh_status st, const char *msg)
{
    return eh_last_error() != EH_OK &&
           (eh_last_error() != st || strcmp(eh_error_message(), msg) != 0);
}

eh_status eh__custom_run_dynamic(const eh_custom_op_def *def, int id, const eh_tensor *const *in,
                                 int n_in, const eh_custom_args *args, eh_tensor **out, int n_out)
{
    const eh_backend *b = eh_current_backend();
    if (!b)
        return eh_last_error();
    const char *whose = NULL;
    eh_kernel_fn kernel = eh_backend_kernel_whose(b, id, &whose);
    if (!kernel)
        return eh__no_kernel(b, id);
    for (int k = 0; k < n_in; k++)
        if (eh_materialize(in[k]) != EH_OK)
            return eh_last_error();

    eh_op_call call = eh__call((eh_op)id, n_in, in);
    call.p.blob = def->params_size ? args->params : NULL;
    call.p.blob_size = def->params_size;
    dyn_run run = {.call = &call, .outer = current};
    call.n_out = n_out;
    call.out = run.slots;
    eh_status before = eh_last_error();
    char before_msg[512];
    snprintf(before_msg, sizeof before_msg, "%s", eh_error_message());

    current = &run;
    eh_status st = kernel(&call);
    current = run.outer;

    const char *by = whose ? whose : b->name;
    for (int k = 0; k < n_out && st == EH_OK; k++)
        if (!run.slots[k])
            st = eh_set_error(EH_ERR_INTERNAL, "%s: the kernel for backend '%s' returned EH_OK "
                                               "but gave no output %d",
                              def->name, by, k);
    if (st != EH_OK) {
        if (!error_recorded_since(before, before_msg)) {
            if (run.no_result)
                eh_set_error(EH_ERR_UNSUPPORTED, "%s: the kernel for backend '%s' returned no "
                                                 "result",
                             def->name, by);
            else
                eh_set_error(st, "%s: the kernel for backend '%s' failed with %s", def->name, by,
                             eh_status_name(st));
        }
        for (int k = 0; k < n_out; k++)
            if (run.ours[k])
                eh_tensor_unref(run.slots[k]);
        return eh_last_error();
    }
    for (int k = 0; k < n_out; k++)
        out[k] = run.slots[k];
    return EH_OK;
}
