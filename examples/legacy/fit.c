/* fit.c -- least-squares calibration against the reference instrument.
 *
 * The design matrix is the standardised channels plus a column of ones;
 * the coefficients minimise |design coef - target|.  BLAS/LAPACK does the
 * heavy lifting when the blas backend is selected, the portable versions
 * otherwise. */
#include <math.h>
#include <string.h>
#include "pipeline.h"
#include "ops/blas/blas_ops.h"
#include "ops/ref/ref_ops.h"

/* [z | 1]: the standardised channels and a column of ones for the offset. */
static eh_tensor *design_matrix(const eh_tensor *z)
{
    if (eh_ndim(z) != 2)
        return NULL;
    int64_t rows = eh_dim(z, 0), cols = eh_dim(z, 1);
    const int64_t shape[2] = {rows, cols + 1};
    eh_tensor *a = eh_zeros(2, shape, EH_F32);
    const float *pz = eh_data_f32((eh_tensor *)z);
    float *pa = eh_data_f32(a);
    if (!pz || !pa)
        return NULL;
    for (int64_t i = 0; i < rows; i++) {
        for (int64_t j = 0; j < cols; j++)
            pa[i * (cols + 1) + j] = pz[i * cols + j];
        pa[i * (cols + 1) + cols] = 1.0f;
    }
    return a;
}

eh_tensor *design_scale(const eh_tensor *z)
{
    eh_tensor *a = design_matrix(z);
    eh_tensor *at = eh_ref_transpose(a, NULL, 0);
    eh_tensor *gram;
    if (strcmp(eh_get_backend(), "blas") == 0)
        gram = eh_blas_matmul(at, a);
    else
        gram = eh_ref_matmul(at, a);
    if (!gram)
        return NULL;

    int64_t n = eh_dim(gram, 0);
    const int64_t shape[1] = {n};
    eh_tensor *diag = eh_zeros(1, shape, EH_F32);
    const float *pg = eh_data_f32(gram);
    float *pd = eh_data_f32(diag);
    if (!pg || !pd)
        return NULL;
    double rows = (double)eh_dim(z, 0);
    for (int64_t k = 0; k < n; k++)
        pd[k] = (float)(pg[k * n + k] / rows);
    return diag;
}

int calibrate(const eh_tensor *z, const eh_tensor *target, calibration *cal)
{
    eh_tensor *a = design_matrix(z);
    if (!a)
        return -1;
    eh_tensor *coef, *pred;
    if (strcmp(eh_get_backend(), "blas") == 0) {
        coef = eh_blas_lstsq(a, target);
        pred = eh_blas_matmul(a, coef);
    } else {
        coef = eh_ref_lstsq(a, target);
        pred = eh_ref_matmul(a, coef);
    }
    if (!coef || !pred)
        return -1;

    /* residual = target - prediction */
    int64_t n = eh_size(target);
    const int64_t shape[1] = {n};
    eh_tensor *res = eh_zeros(1, shape, EH_F32);
    const float *py = eh_data_f32((eh_tensor *)target);
    const float *pp = eh_data_f32(pred);
    float *pr = eh_data_f32(res);
    if (!py || !pp || !pr)
        return -1;
    double max_abs = 0.0;
    for (int64_t i = 0; i < n; i++) {
        pr[i] = py[i] - pp[i];
        if (fabsf(pr[i]) > max_abs)
            max_abs = fabsf(pr[i]);
    }

    eh_tensor *rss;
    if (strcmp(eh_get_backend(), "blas") == 0)
        rss = eh_blas_dot(res, res);
    else
        rss = eh_ref_dot(res, res);
    eh_tensor *ybar = eh_ref_mean(target, NULL, 0, 0);
    if (!rss || !ybar)
        return -1;

    /* total sum of squares around the mean, for R^2 */
    double mean = eh_item(ybar), tss = 0.0;
    for (int64_t i = 0; i < n; i++) {
        double dev = py[i] - mean;
        tss += dev * dev;
    }
    cal->coef = coef;
    cal->residual = res;
    cal->rss = eh_item(rss);
    cal->rmse = sqrt(cal->rss / (double)n);
    cal->max_abs = max_abs;
    cal->r2 = tss > 0.0 ? 1.0 - cal->rss / tss : 1.0;
    return 0;
}
