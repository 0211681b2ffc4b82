/* ref kernels: cast and to_device (contract: libeh/src/ops_convert.c). */
#include <string.h>
#include "ref.h"

/* Each element is converted once from its exact value: integer and bool
 * sources through int64 (so i64 above 2^53 survives, and i64 -> f32 rounds
 * once), float sources through double (exact for f16, f32 and f64).
 * eh_store_f64 / eh_store_i64 define the conversions: float -> int
 * truncates toward zero and saturates, NaN -> 0; -> bool is != 0;
 * int -> narrower int wraps; -> f16 / f32 rounds to nearest even. */
eh_status eh_ref_cast(const eh_op_call *call)
{
    const eh_tensor *x = call->in[0];
    eh_tensor *out = call->out[0];
    if (x->dtype == out->dtype) {
        if (x->nbytes)
            memcpy(out->data, x->data, x->nbytes);
        return EH_OK;
    }
    if (eh_dtype_is_float(x->dtype)) {
        for (int64_t i = 0; i < x->size; i++)
            eh_store_f64(out->data, out->dtype, i, eh_load_f64(x->data, x->dtype, i));
    } else {
        for (int64_t i = 0; i < x->size; i++)
            eh_store_i64(out->data, out->dtype, i, eh_load_i64(x->data, x->dtype, i));
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
