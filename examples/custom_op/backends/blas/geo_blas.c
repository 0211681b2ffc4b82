/* backends/blas/geo_blas.c -- geo.sqdist as |x_i|^2 + |y_j|^2 - 2 x_i.y_j,
 * the cross term one GEMM.  Same contract as ref's kernel; the values
 * differ from ref's in the last bits (another order of operations). */
#include <cblas.h>
#include "geo_blas.h"

static double row_sqnorm(const eh_tensor *t, int64_t row, int64_t d)
{
    double s = 0;
    for (int64_t k = 0; k < d; k++) {
        double v = eh_load_f64(t->data, t->dtype, row * d + k);
        s += v * v;
    }
    return s;
}

eh_status eh_blas_geo_sqdist(const eh_op_call *call)
{
    const eh_tensor *x = call->in[0], *y = call->in[1];
    eh_tensor *out = call->out[0];
    int n = (int)x->shape[0], m = (int)y->shape[0], d = (int)x->shape[1];
    if (n == 0 || m == 0)
        return EH_OK;
    /* out = -2 x y^T, then add the norms */
    if (x->dtype == EH_F64)
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, n, m, d, -2.0, x->data, d, y->data,
                    d, 0.0, out->data, m);
    else
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, n, m, d, -2.0f, x->data, d, y->data,
                    d, 0.0f, out->data, m);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) {
            int64_t o = (int64_t)i * m + j;
            double v = eh_load_f64(out->data, out->dtype, o) + row_sqnorm(x, i, d) +
                       row_sqnorm(y, j, d);
            eh_store_f64(out->data, out->dtype, o, v < 0 ? 0 : v); /* no -0.0000001 */
        }
    return EH_OK;
}
