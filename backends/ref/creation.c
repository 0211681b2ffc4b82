/* ref kernels: the creation ops.  The contract (which eh_op_call.p fields
 * each op reads, what it writes) is the comment at the top of
 * libeh/src/ops_creation.c; the frontend has validated everything, so
 * these only fill storage.  Every dtype, empty and 0-d outputs work. */
#include <math.h>
#include <string.h>
#include "ref.h"

/* Fill out with v converted to its dtype: store one element, then double
 * the filled prefix with memcpy. */
static void fill(eh_tensor *out, double v)
{
    if (out->size == 0)
        return;
    size_t esz = eh_dtype_size(out->dtype), done = 1, total = (size_t)out->size;
    char *d = out->data;
    eh_store_f64(d, out->dtype, 0, v);
    while (done < total) {
        size_t n = done < total - done ? done : total - done;
        memcpy(d + done * esz, d, n * esz);
        done += n;
    }
}

static eh_status zero(eh_tensor *out)
{
    if (out->nbytes) /* all-zero bytes are 0 (+0.0, false) in every dtype */
        memset(out->data, 0, out->nbytes);
    return EH_OK;
}

eh_status eh_ref_zeros(const eh_op_call *call) { return zero(call->out[0]); }
eh_status eh_ref_zeros_like(const eh_op_call *call) { return zero(call->out[0]); }

eh_status eh_ref_ones(const eh_op_call *call)
{
    fill(call->out[0], 1.0);
    return EH_OK;
}

eh_status eh_ref_ones_like(const eh_op_call *call)
{
    fill(call->out[0], 1.0);
    return EH_OK;
}

eh_status eh_ref_full(const eh_op_call *call)
{
    fill(call->out[0], call->p.f[0]);
    return EH_OK;
}

eh_status eh_ref_full_like(const eh_op_call *call)
{
    fill(call->out[0], call->p.f[0]);
    return EH_OK;
}

eh_status eh_ref_copy(const eh_op_call *call)
{
    const eh_tensor *x = call->in[0];
    if (x->nbytes)
        memcpy(call->out[0]->data, x->data, x->nbytes);
    return EH_OK;
}

eh_status eh_ref_arange(const eh_op_call *call)
{
    eh_tensor *out = call->out[0];
    int64_t n = out->size;
    if (eh_dtype_is_int(out->dtype)) {
        uint64_t start = (uint64_t)call->p.i[0], step = (uint64_t)call->p.i[1];
        for (int64_t i = 0; i < n; i++) /* exact: the frontend checked the range */
            eh_store_i64(out->data, out->dtype, i, (int64_t)(start + (uint64_t)i * step));
        return EH_OK;
    }
    double start = call->p.f[0], step = call->p.f[1];
    if (n > 0)
        eh_store_f64(out->data, out->dtype, 0, start);
    if (n > 1) {
        double next = start + step;
        double delta = next - start;
        eh_store_f64(out->data, out->dtype, 1, next);
        for (int64_t i = 2; i < n; i++) {
            double t = (double)i * delta; /* separate statements: no contraction */
            eh_store_f64(out->data, out->dtype, i, start + t);
        }
    }
    return EH_OK;
}

eh_status eh_ref_linspace(const eh_op_call *call)
{
    eh_tensor *out = call->out[0];
    int64_t num = out->size;
    int endpoint = call->p.i[0] != 0;
    double start = call->p.f[0], stop = call->p.f[1];
    int64_t div = endpoint ? num - 1 : num;
    double delta = stop - start;
    double step = div > 0 ? delta / (double)div : 0.0;
    int integer = eh_dtype_is_int(out->dtype);
    for (int64_t k = 0; k < num; k++) {
        double y = (double)k;
        if (div > 0 && step != 0.0) {
            y = y * step;
        } else if (div > 0) { /* step underflowed: scale first */
            y = y / (double)div;
            y = y * delta;
        } else {
            y = y * delta;
        }
        y = y + start;
        if (endpoint && num > 1 && k == num - 1)
            y = stop;
        if (integer)
            y = floor(y);
        eh_store_f64(out->data, out->dtype, k, y);
    }
    return EH_OK;
}

eh_status eh_ref_eye(const eh_op_call *call)
{
    eh_tensor *out = call->out[0];
    zero(out);
    if (out->size == 0)
        return EH_OK;
    int64_t n = out->shape[0], m = out->shape[1], k = call->p.i[0]; /* k in [-n, m] */
    for (int64_t i = k < 0 ? -k : 0; i < n && k < m - i; i++) /* i + k < m */
        eh_store_f64(out->data, out->dtype, i * m + i + k, 1.0);
    return EH_OK;
}

eh_status eh_ref_triu_indices(const eh_op_call *call)
{
    int64_t *o = call->out[0]->data;
    int64_t count = call->out[0]->shape[1], t = 0;
    int64_t n = call->p.i[0], k = call->p.i[1], m = call->p.i[2]; /* k in [-n, m] */
    /* row i holds columns max(0, i + k) .. m - 1; empty once i + k >= m */
    for (int64_t i = 0; i < n && k < m - i && t < count; i++) {
        for (int64_t j = i + k < 0 ? 0 : i + k; j < m && t < count; j++, t++) {
            o[t] = i;
            o[count + t] = j;
        }
    }
    return EH_OK;
}

eh_status eh_ref_tril_indices(const eh_op_call *call)
{
    int64_t *o = call->out[0]->data;
    int64_t count = call->out[0]->shape[1], t = 0;
    int64_t n = call->p.i[0], k = call->p.i[1], m = call->p.i[2]; /* k in [-n, m] */
    /* row i holds columns 0 .. min(m, i + k + 1) - 1; empty while i + k < 0 */
    for (int64_t i = k < 0 ? -k : 0; i < n && t < count; i++) {
        int64_t end = k >= m - 1 - i ? m : i + k + 1;
        for (int64_t j = 0; j < end && t < count; j++, t++) {
            o[t] = i;
            o[count + t] = j;
        }
    }
    return EH_OK;
}
