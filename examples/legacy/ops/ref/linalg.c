/* Matrix product, inner product and least squares in
 * plain C loops.  Sums run in double and round once, so the results agree
 * with a tuned BLAS to the last digit the application prints. */
#include <stdlib.h>
#include <math.h>
#include "ref_ops.h"

/* Host view of an f32 input; NULL for any other dtype. */
static const float *f32_in(const eh_tensor *t)
{
    if (!t || eh_get_dtype(t) != EH_F32)
        return NULL;
    return eh_data_f32((eh_tensor *)t);
}

eh_tensor *eh_ref_matmul(const eh_tensor *a, const eh_tensor *b)
{
    const float *pa = f32_in(a), *pb = f32_in(b);
    if (!pa || !pb || eh_ndim(a) != 2 || eh_ndim(b) < 1 || eh_ndim(b) > 2)
        return NULL;
    int64_t n = eh_dim(a, 0), k = eh_dim(a, 1);
    int64_t m = eh_ndim(b) == 2 ? eh_dim(b, 1) : 1;
    if (eh_dim(b, 0) != k)
        return NULL;
    const int64_t shape[2] = {n, m};
    eh_tensor *out = eh_zeros(eh_ndim(b), shape, EH_F32);
    float *po = eh_data_f32(out);
    if (!po)
        return NULL;
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j < m; j++) {
            double acc = 0.0;
            for (int64_t p = 0; p < k; p++)
                acc += (double)pa[i * k + p] * pb[p * m + j];
            po[i * m + j] = (float)acc;
        }
    return out;
}

eh_tensor *eh_ref_dot(const eh_tensor *a, const eh_tensor *b)
{
    const float *pa = f32_in(a), *pb = f32_in(b);
    if (!pa || !pb || eh_ndim(a) != 1 || eh_ndim(b) != 1 || eh_size(a) != eh_size(b))
        return NULL;
    double acc = 0.0;
    for (int64_t i = 0; i < eh_size(a); i++)
        acc += (double)pa[i] * pb[i];
    return eh_scalar((float)acc, EH_F32);
}

/* Cholesky factorisation of the n x n matrix g in place (lower triangle);
 * 0 when g is not positive definite. */
static int cholesky(double *g, int64_t n)
{
    for (int64_t j = 0; j < n; j++) {
        double d = g[j * n + j];
        for (int64_t p = 0; p < j; p++)
            d -= g[j * n + p] * g[j * n + p];
        if (d <= 0.0)
            return 0;
        g[j * n + j] = sqrt(d);
        for (int64_t i = j + 1; i < n; i++) {
            double s = g[i * n + j];
            for (int64_t p = 0; p < j; p++)
                s -= g[i * n + p] * g[j * n + p];
            g[i * n + j] = s / g[j * n + j];
        }
    }
    return 1;
}

/* Least squares through the normal equations (a^T a) x = a^T b, solved
 * with a Cholesky factor.  Fine for the well-conditioned, full-rank
 * designs this application builds; a (m, n) with m >= n, b (m,). */
eh_tensor *eh_ref_lstsq(const eh_tensor *a, const eh_tensor *b)
{
    const float *pa = f32_in(a), *pb = f32_in(b);
    if (!pa || !pb || eh_ndim(a) != 2 || eh_ndim(b) != 1 || eh_dim(b, 0) != eh_dim(a, 0))
        return NULL;
    int64_t m = eh_dim(a, 0), n = eh_dim(a, 1);
    if (m < n || n < 1)
        return NULL;
    double *g = calloc((size_t)(n * n + n), sizeof *g);
    if (!g)
        return NULL;
    double *rhs = g + n * n;
    for (int64_t i = 0; i < n; i++) {
        for (int64_t j = 0; j <= i; j++) {
            double s = 0.0;
            for (int64_t r = 0; r < m; r++)
                s += (double)pa[r * n + i] * pa[r * n + j];
            g[i * n + j] = s;
        }
        double s = 0.0;
        for (int64_t r = 0; r < m; r++)
            s += (double)pa[r * n + i] * pb[r];
        rhs[i] = s;
    }
    eh_tensor *out = NULL;
    if (cholesky(g, n)) {
        /* forward (L y = rhs), then backward (L^T x = y) substitution */
        for (int64_t i = 0; i < n; i++) {
            for (int64_t p = 0; p < i; p++)
                rhs[i] -= g[i * n + p] * rhs[p];
            rhs[i] /= g[i * n + i];
        }
        for (int64_t i = n - 1; i >= 0; i--) {
            for (int64_t p = i + 1; p < n; p++)
                rhs[i] -= g[p * n + i] * rhs[p];
            rhs[i] /= g[i * n + i];
        }
        const int64_t shape[1] = {n};
        out = eh_zeros(1, shape, EH_F32);
        float *po = eh_data_f32(out);
        for (int64_t i = 0; po && i < n; i++)
            po[i] = (float)rhs[i];
    }
    free(g);
    return out;
}
