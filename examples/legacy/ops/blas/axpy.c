/* Addition: a + b as a copy of a plus saxpy, one row at a time
 * when b is a bias vector added to every row of a matrix. */
#include <cblas.h>
#include "blas_ops.h"

static const float *f32_in(const eh_tensor *t)
{
    if (!t || eh_get_dtype(t) != EH_F32)
        return NULL;
    return eh_data_f32((eh_tensor *)t);
}

eh_tensor *eh_blas_add(const eh_tensor *a, const eh_tensor *b)
{
    const float *pa = f32_in(a), *pb = f32_in(b);
    if (!pa || !pb || eh_ndim(a) < 1)
        return NULL;
    int n = (int)eh_size(a), row = (int)eh_dim(a, -1);
    int same = eh_ndim(a) == eh_ndim(b) && n == eh_size(b);
    if (!same && !(eh_ndim(b) == 1 && eh_dim(b, 0) == row))
        return NULL;
    eh_tensor *out = eh_zeros(eh_ndim(a), eh_shape(a), EH_F32);
    float *po = eh_data_f32(out);
    if (!po)
        return NULL;
    cblas_scopy(n, pa, 1, po, 1);
    if (same)
        cblas_saxpy(n, 1.0f, pb, 1, po, 1);
    else
        for (int r = 0; r < n / row; r++)
            cblas_saxpy(row, 1.0f, pb, 1, po + (size_t)r * row, 1);
    return out;
}
