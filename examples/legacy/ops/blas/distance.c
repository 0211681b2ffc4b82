/* Squared Euclidean distances between the rows of two matrices, as
 * |x_i|^2 + |y_j|^2 - 2 x_i.y_j with the cross term one GEMM.  libeh has
 * no such op: this is the application's own kernel.  It computes in
 * double, so it agrees with the portable version to the digits printed. */
#include <stdio.h>
#include <stdlib.h>
#include <cblas.h>
#include "blas_ops.h"

/* LEGACY_TRACE=1 in the environment: say on stderr which version ran. */
static void trace(const char *fn)
{
    if (getenv("LEGACY_TRACE"))
        fprintf(stderr, "legacy-app: %s ran\n", fn);
}

/* Row k of an f32 (rows, d) matrix, and its squared norm, in double. */
static double load_row(const float *p, int64_t k, int d, double *row)
{
    double s = 0.0;
    for (int c = 0; c < d; c++) {
        row[c] = p[k * d + c];
        s += row[c] * row[c];
    }
    return s;
}

/* x (n, d), y (m, d), f32: (n, m), f32. */
eh_tensor *eh_blas_pairwise_sqdist(const eh_tensor *x, const eh_tensor *y)
{
    trace("eh_blas_pairwise_sqdist");
    if (!x || !y || eh_get_dtype(x) != EH_F32 || eh_get_dtype(y) != EH_F32 ||
        eh_ndim(x) != 2 || eh_ndim(y) != 2 || eh_dim(x, 1) != eh_dim(y, 1))
        return NULL;
    int n = (int)eh_dim(x, 0), m = (int)eh_dim(y, 0), d = (int)eh_dim(x, 1);
    const float *px = eh_data_f32((eh_tensor *)x), *py = eh_data_f32((eh_tensor *)y);
    const int64_t shape[2] = {n, m};
    eh_tensor *out = eh_zeros(2, shape, EH_F32);
    float *po = eh_data_f32(out);
    size_t nx = (size_t)n * d, ny = (size_t)m * d;
    double *buf = malloc((nx + ny + (size_t)n * m + (size_t)n + (size_t)m + 1) * sizeof *buf);
    if (!px || !py || !po || !buf) {
        free(buf);
        return NULL;
    }
    double *dx = buf, *dy = dx + nx, *cross = dy + ny, *nxs = cross + (size_t)n * m,
           *nys = nxs + n;
    for (int i = 0; i < n; i++)
        nxs[i] = load_row(px, i, d, dx + (size_t)i * d);
    for (int j = 0; j < m; j++)
        nys[j] = load_row(py, j, d, dy + (size_t)j * d);
    if (n > 0 && m > 0)
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, n, m, d, -2.0, dx, d, dy, d, 0.0,
                    cross, m);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) {
            double v = nxs[i] + nys[j] + cross[(size_t)i * m + j];
            po[(size_t)i * m + j] = (float)(v < 0.0 ? 0.0 : v);
        }
    free(buf);
    return out;
}
