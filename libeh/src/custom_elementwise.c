/* The kernel of custom ops with a per-element function
 * (eh_custom_op_def.per_element): it runs them on every backend that has no
 * kernel of its own, eager or inside one of lazy's fused blocks.
 *
 * Inputs are broadcast to the output (the frontend cast them to the output
 * dtype; a fused block hands 1-D slices and 0-d scalars), each element is
 * converted to double, and the function's result is stored converted to
 * the output dtype.  Large outputs are split among eh_num_threads()
 * threads; inside a fused pass (already on a worker) it runs inline. */
#include "internal.h"

typedef struct per_element {
    eh_custom_elem_fn fn;
    const void *params;
    const eh_op_call *call;
    int n_in;
    int contiguous; /* every input has the output's size or one element */
    int64_t strides[EH_CUSTOM_MAX_IN][EH_MAX_DIMS];
} per_element;

static void run_contiguous(const per_element *pe, int64_t begin, int64_t end)
{
    const eh_tensor *out = pe->call->out[0];
    double x[EH_CUSTOM_MAX_IN];
    for (int64_t i = begin; i < end; i++) {
        for (int k = 0; k < pe->n_in; k++) {
            const eh_tensor *t = pe->call->in[k];
            x[k] = eh_load_f64(t->data, t->dtype, t->size == 1 ? 0 : i);
        }
        eh_store_f64(out->data, out->dtype, i, pe->fn(x, pe->params));
    }
}

static void run_broadcast(const per_element *pe, int64_t begin, int64_t end)
{
    const eh_tensor *out = pe->call->out[0];
    int nd = out->ndim;
    int64_t idx[EH_MAX_DIMS], rem = begin;
    for (int d = nd - 1; d >= 0; d--) {
        idx[d] = rem % out->shape[d];
        rem /= out->shape[d];
    }
    double x[EH_CUSTOM_MAX_IN];
    for (int64_t i = begin; i < end; i++) {
        for (int k = 0; k < pe->n_in; k++) {
            const eh_tensor *t = pe->call->in[k];
            int64_t off = 0;
            for (int d = 0; d < nd; d++)
                off += idx[d] * pe->strides[k][d];
            x[k] = eh_load_f64(t->data, t->dtype, off);
        }
        eh_store_f64(out->data, out->dtype, i, pe->fn(x, pe->params));
        for (int d = nd - 1; d >= 0; d--) {
            if (++idx[d] < out->shape[d])
                break;
            idx[d] = 0;
        }
    }
}

static void run_range(void *ctx, int64_t begin, int64_t end, int worker)
{
    (void)worker;
    const per_element *pe = ctx;
    if (pe->contiguous)
        run_contiguous(pe, begin, end);
    else
        run_broadcast(pe, begin, end);
}

eh_status eh__per_element_kernel(const eh_op_call *call)
{
    const eh_custom_op_def *def = eh_custom_op_get((int)call->op);
    if (!def || !def->per_element || call->n_out != 1 || call->n_in > EH_CUSTOM_MAX_IN)
        return eh_set_error(EH_ERR_INTERNAL, "%s: no per-element function to run",
                            eh_op_name(call->op));
    per_element pe = {.fn = def->per_element, .params = call->p.blob, .call = call,
                      .n_in = call->n_in, .contiguous = 1};
    const eh_tensor *out = call->out[0];
    for (int k = 0; k < call->n_in; k++) {
        const eh_tensor *t = call->in[k];
        if (t->size != 1 && t->size != out->size)
            pe.contiguous = 0;
        eh_broadcast_strides(t, out->ndim, out->shape, pe.strides[k]);
    }
    eh_parallel_for(out->size, 16384, run_range, &pe);
    return EH_OK;
}
