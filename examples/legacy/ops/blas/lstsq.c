/* Least squares through LAPACK's QR driver (sgels).
 * sgels overwrites its inputs, so both are copied first. */
#include <stdlib.h>
#include <string.h>
#include <lapacke.h>
#include "blas_ops.h"

static const float *f32_in(const eh_tensor *t)
{
    if (!t || eh_get_dtype(t) != EH_F32)
        return NULL;
    return eh_data_f32((eh_tensor *)t);
}

/* a (m, n) full rank with m >= n, b (m,): x (n,) minimising |a x - b|. */
eh_tensor *eh_blas_lstsq(const eh_tensor *a, const eh_tensor *b)
{
    const float *pa = f32_in(a), *pb = f32_in(b);
    if (!pa || !pb || eh_ndim(a) != 2 || eh_ndim(b) != 1 || eh_dim(b, 0) != eh_dim(a, 0))
        return NULL;
    int m = (int)eh_dim(a, 0), n = (int)eh_dim(a, 1);
    if (m < n || n < 1)
        return NULL;
    float *work = malloc(((size_t)m * n + (size_t)m) * sizeof *work);
    if (!work)
        return NULL;
    float *rhs = work + (size_t)m * n;
    memcpy(work, pa, (size_t)m * n * sizeof *work);
    memcpy(rhs, pb, (size_t)m * sizeof *rhs);
    eh_tensor *out = NULL;
    if (LAPACKE_sgels(LAPACK_ROW_MAJOR, 'N', m, n, 1, work, n, rhs, 1) == 0) {
        const int64_t shape[1] = {n};
        out = eh_convert_to_tensor(rhs, 1, shape, EH_F32);
    }
    free(work);
    return out;
}
