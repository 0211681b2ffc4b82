/* Matrix products through OpenBLAS: sgemm for a matrix
 * times a matrix, sgemv for a matrix times a vector, sdot for two vectors. */
#include <cblas.h>
#include "blas_ops.h"

static const float *f32_in(const eh_tensor *t)
{
    if (!t || eh_get_dtype(t) != EH_F32)
        return NULL;
    return eh_data_f32((eh_tensor *)t);
}

eh_tensor *eh_blas_matmul(const eh_tensor *a, const eh_tensor *b)
{
    const float *pa = f32_in(a), *pb = f32_in(b);
    if (!pa || !pb || eh_ndim(a) != 2 || eh_ndim(b) < 1 || eh_ndim(b) > 2)
        return NULL;
    int n = (int)eh_dim(a, 0), k = (int)eh_dim(a, 1);
    int m = eh_ndim(b) == 2 ? (int)eh_dim(b, 1) : 1;
    if (eh_dim(b, 0) != k)
        return NULL;
    const int64_t shape[2] = {n, m};
    eh_tensor *out = eh_zeros(eh_ndim(b), shape, EH_F32);
    float *po = eh_data_f32(out);
    if (!po)
        return NULL;
    if (eh_ndim(b) == 1)
        cblas_sgemv(CblasRowMajor, CblasNoTrans, n, k, 1.0f, pa, k, pb, 1, 0.0f, po, 1);
    else
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, m, k, 1.0f, pa, k, pb, m,
                    0.0f, po, m);
    return out;
}

eh_tensor *eh_blas_dot(const eh_tensor *a, const eh_tensor *b)
{
    const float *pa = f32_in(a), *pb = f32_in(b);
    if (!pa || !pb || eh_ndim(a) != 1 || eh_ndim(b) != 1 || eh_size(a) != eh_size(b))
        return NULL;
    return eh_scalar(cblas_sdot((int)eh_size(a), pa, 1, pb, 1), EH_F32);
}
