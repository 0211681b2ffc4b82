/* normalize.c -- per-column standardisation of a readings matrix.
 *
 * The column means come from the mean op; the standard deviations and the
 * scaling itself are still written out by hand, the way this code was
 * first written. */
#include <math.h>
#include "pipeline.h"
#include "ops/ref/ref_ops.h"

eh_tensor *standardize_columns(const eh_tensor *x, eh_tensor **mean_out, eh_tensor **std_out)
{
    if (eh_ndim(x) != 2)
        return NULL;
    const int axis0[1] = {0};
    eh_tensor *mean = eh_ref_mean(x, axis0, 1, 0);
    if (!mean)
        return NULL;
    int64_t rows = eh_dim(x, 0), cols = eh_dim(x, 1);
    const int64_t col_shape[1] = {cols};
    eh_tensor *sd = eh_zeros(1, col_shape, EH_F32);
    eh_tensor *z = eh_zeros(2, eh_shape(x), EH_F32);
    const float *px = eh_data_f32((eh_tensor *)x);
    const float *mu = eh_data_f32(mean);
    float *ps = eh_data_f32(sd);
    float *pz = eh_data_f32(z);
    if (!px || !mu || !ps || !pz)
        return NULL;

    /* population standard deviation of each column */
    for (int64_t j = 0; j < cols; j++) {
        double acc = 0.0;
        for (int64_t i = 0; i < rows; i++) {
            double dev = px[i * cols + j] - mu[j];
            acc += dev * dev;
        }
        ps[j] = (float)sqrt(acc / (double)rows);
        if (ps[j] == 0.0f)
            return NULL; /* a constant channel carries no information */
    }
    for (int64_t i = 0; i < rows; i++)
        for (int64_t j = 0; j < cols; j++)
            pz[i * cols + j] = (px[i * cols + j] - mu[j]) / ps[j];

    if (mean_out)
        *mean_out = mean;
    if (std_out)
        *std_out = sd;
    return z;
}
