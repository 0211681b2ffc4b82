/* backends/ref/geo_ref.c -- geo.sqdist, plainly: a sum of squared
 * differences per pair.  The frontend checked the call: x (n, d) and
 * y (m, d) of one dtype, f32 or f64; out (n, m) allocated. */
#include "geo_ref.h"

eh_status eh_ref_geo_sqdist(const eh_op_call *call)
{
    const eh_tensor *x = call->in[0], *y = call->in[1];
    eh_tensor *out = call->out[0];
    int64_t n = x->shape[0], m = y->shape[0], d = x->shape[1];
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j < m; j++) {
            double s = 0;
            for (int64_t k = 0; k < d; k++) {
                double t = eh_load_f64(x->data, x->dtype, i * d + k) -
                           eh_load_f64(y->data, y->dtype, j * d + k);
                s += t * t;
            }
            eh_store_f64(out->data, out->dtype, i * m + j, s);
        }
    return EH_OK;
}
