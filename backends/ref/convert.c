/* ref kernels: cast and to_device. */
#include <string.h>
#include "ref.h"

eh_status eh_ref_cast(const eh_op_call *call)
{
    const eh_tensor *x = call->in[0];
    eh_tensor *out = call->out[0];
    if (x->dtype == out->dtype) {
        if (x->nbytes)
            memcpy(out->data, x->data, x->nbytes);
        return EH_OK;
    }
    /* Integers go through int64 so i64 values above 2^53 survive. */
    int exact_int = !eh_dtype_is_float(x->dtype) && !eh_dtype_is_float(out->dtype);
    for (int64_t i = 0; i < x->size; i++) {
        if (exact_int)
            eh_store_i64(out->data, out->dtype, i, eh_load_i64(x->data, x->dtype, i));
        else
            eh_store_f64(out->data, out->dtype, i, eh_load_f64(x->data, x->dtype, i));
    }
    return EH_OK;
}

eh_status eh_ref_to_device(const eh_op_call *call)
{
    const eh_tensor *x = call->in[0];
    if (x->nbytes)
        memcpy(call->out[0]->data, x->data, x->nbytes);
    return EH_OK;
}
