/* Squared Euclidean distances between the rows of two matrices, in plain
 * C loops (sums in double, rounded once).  libeh has no such op: this is
 * the application's own kernel. */
#include <stdio.h>
#include <stdlib.h>
#include "ref_ops.h"

/* LEGACY_TRACE=1 in the environment: say on stderr which version ran. */
static void trace(const char *fn)
{
    if (getenv("LEGACY_TRACE"))
        fprintf(stderr, "legacy-app: %s ran\n", fn);
}

/* x (n, d), y (m, d), f32: (n, m), f32. */
eh_tensor *eh_ref_pairwise_sqdist(const eh_tensor *x, const eh_tensor *y)
{
    trace("eh_ref_pairwise_sqdist");
    if (!x || !y || eh_get_dtype(x) != EH_F32 || eh_get_dtype(y) != EH_F32 ||
        eh_ndim(x) != 2 || eh_ndim(y) != 2 || eh_dim(x, 1) != eh_dim(y, 1))
        return NULL;
    int64_t n = eh_dim(x, 0), m = eh_dim(y, 0), d = eh_dim(x, 1);
    const float *px = eh_data_f32((eh_tensor *)x), *py = eh_data_f32((eh_tensor *)y);
    const int64_t shape[2] = {n, m};
    eh_tensor *out = eh_zeros(2, shape, EH_F32);
    float *po = eh_data_f32(out);
    if (!px || !py || !po)
        return NULL;
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j < m; j++) {
            double s = 0.0;
            for (int64_t c = 0; c < d; c++) {
                double t = (double)px[i * d + c] - py[j * d + c];
                s += t * t;
            }
            po[i * m + j] = (float)s;
        }
    return out;
}
