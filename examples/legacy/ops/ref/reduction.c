/* Means (of everything, or of the columns of a
 * matrix) and the softmax of each row of a matrix. */
#include <math.h>
#include "ref_ops.h"

static const float *f32_in(const eh_tensor *t)
{
    if (!t || eh_get_dtype(t) != EH_F32)
        return NULL;
    return eh_data_f32((eh_tensor *)t);
}

/* axes NULL (or n_axes 0): the mean of all elements, 0-d.  axes {0} on a
 * matrix: the mean of each column, (cols,).  keepdims is not supported. */
eh_tensor *eh_ref_mean(const eh_tensor *x, const int *axes, int n_axes, int keepdims)
{
    const float *px = f32_in(x);
    if (!px || keepdims || eh_size(x) < 1)
        return NULL;
    if (!axes || n_axes == 0) {
        double s = 0.0;
        for (int64_t i = 0; i < eh_size(x); i++)
            s += px[i];
        return eh_scalar((float)(s / (double)eh_size(x)), EH_F32);
    }
    if (n_axes != 1 || axes[0] != 0 || eh_ndim(x) != 2)
        return NULL;
    int64_t rows = eh_dim(x, 0), cols = eh_dim(x, 1);
    const int64_t shape[1] = {cols};
    eh_tensor *out = eh_zeros(1, shape, EH_F32);
    float *po = eh_data_f32(out);
    if (!po)
        return NULL;
    for (int64_t j = 0; j < cols; j++) {
        double s = 0.0;
        for (int64_t i = 0; i < rows; i++)
            s += px[i * cols + j];
        po[j] = (float)(s / (double)rows);
    }
    return out;
}

/* Softmax along the last axis of a matrix (axis 1 or -1), shifted by each
 * row's maximum so that exp never overflows. */
eh_tensor *eh_ref_softmax(const eh_tensor *x, int axis)
{
    const float *px = f32_in(x);
    if (!px || eh_ndim(x) != 2 || (axis != 1 && axis != -1))
        return NULL;
    int64_t rows = eh_dim(x, 0), cols = eh_dim(x, 1);
    eh_tensor *out = eh_zeros(2, eh_shape(x), EH_F32);
    float *po = eh_data_f32(out);
    if (!po)
        return NULL;
    for (int64_t i = 0; i < rows; i++) {
        const float *row = px + i * cols;
        float hi = row[0];
        for (int64_t j = 1; j < cols; j++)
            hi = row[j] > hi ? row[j] : hi;
        double total = 0.0;
        for (int64_t j = 0; j < cols; j++)
            total += exp((double)row[j] - hi);
        for (int64_t j = 0; j < cols; j++)
            po[i * cols + j] = (float)(exp((double)row[j] - hi) / total);
    }
    return out;
}
