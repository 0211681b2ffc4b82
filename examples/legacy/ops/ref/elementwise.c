/* Addition (with the row-vector broadcast a bias
 * needs), tanh and relu, one element at a time. */
#include <math.h>
#include "ref_ops.h"

static const float *f32_in(const eh_tensor *t)
{
    if (!t || eh_get_dtype(t) != EH_F32)
        return NULL;
    return eh_data_f32((eh_tensor *)t);
}

/* A new f32 tensor shaped like x, or NULL. */
static eh_tensor *like(const eh_tensor *x)
{
    return eh_zeros(eh_ndim(x), eh_shape(x), EH_F32);
}

/* a + b for equal shapes, or b a vector as long as a's last dimension
 * (added to every row of a). */
eh_tensor *eh_ref_add(const eh_tensor *a, const eh_tensor *b)
{
    const float *pa = f32_in(a), *pb = f32_in(b);
    if (!pa || !pb || eh_ndim(a) < 1)
        return NULL;
    int64_t n = eh_size(a), row = eh_dim(a, -1);
    int same = eh_ndim(a) == eh_ndim(b) && n == eh_size(b);
    if (!same && !(eh_ndim(b) == 1 && eh_dim(b, 0) == row))
        return NULL;
    eh_tensor *out = like(a);
    float *po = eh_data_f32(out);
    if (!po)
        return NULL;
    for (int64_t i = 0; i < n; i++)
        po[i] = pa[i] + pb[same ? i : i % row];
    return out;
}

eh_tensor *eh_ref_tanh(const eh_tensor *x)
{
    const float *px = f32_in(x);
    if (!px)
        return NULL;
    eh_tensor *out = like(x);
    float *po = eh_data_f32(out);
    if (!po)
        return NULL;
    for (int64_t i = 0; i < eh_size(x); i++)
        po[i] = tanhf(px[i]);
    return out;
}

eh_tensor *eh_ref_relu(const eh_tensor *x)
{
    const float *px = f32_in(x);
    if (!px)
        return NULL;
    eh_tensor *out = like(x);
    float *po = eh_data_f32(out);
    if (!po)
        return NULL;
    for (int64_t i = 0; i < eh_size(x); i++)
        po[i] = px[i] > 0.0f ? px[i] : 0.0f;
    return out;
}
