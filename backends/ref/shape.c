/* ref kernels: the shape ops (reshape transpose expand_dims squeeze
 * concatenate stack split broadcast_to slice flip).
 *
 * The call contract is documented in libeh/src/ops_shape.c.  None of these
 * ops computes: each is a copy of element bytes, so one routine serves
 * every dtype.  strided_copy walks an iteration shape with an element
 * stride per dimension on each side (negative for flips, zero for
 * broadcasts); every op reduces to one or a few such copies. */
#include <string.h>
#include "ref.h"

/* n elements of esz bytes, dst/src advancing ds/ss elements per step. */
static void copy_run(char *dst, int64_t ds, const char *src, int64_t ss, int64_t n, size_t esz)
{
    if (ds == 1 && ss == 1) {
        memcpy(dst, src, (size_t)n * esz);
        return;
    }
    const ptrdiff_t db = (ptrdiff_t)ds * (ptrdiff_t)esz, sb = (ptrdiff_t)ss * (ptrdiff_t)esz;
    /* Fixed-size memcpy compiles to one load and store, without the
     * aliasing questions of reading a float through a uint32_t. */
#define COPY_RUN(SZ)                                   \
    for (int64_t i = 0; i < n; i++)                    \
        memcpy(dst + i * db, src + i * sb, SZ);        \
    return;
    switch (esz) {
    case 1: COPY_RUN(1)
    case 2: COPY_RUN(2)
    case 4: COPY_RUN(4)
    case 8: COPY_RUN(8)
    default: COPY_RUN(esz)
    }
#undef COPY_RUN
}

/* For every index i of `shape`: dst[sum i_d * dst_strides[d]] =
 * src[sum i_d * src_strides[d]] (strides in elements; dst and src point at
 * index 0).  Size-1 dimensions are dropped and dimensions contiguous on
 * both sides merged, so a plain copy is one memcpy. */
static void strided_copy(void *dst, const int64_t *dst_strides, const void *src,
                         const int64_t *src_strides, int ndim, const int64_t *shape, size_t esz)
{
    int64_t sh[EH_MAX_DIMS], ds[EH_MAX_DIMS], ss[EH_MAX_DIMS];
    int n = 0;
    for (int d = 0; d < ndim; d++) {
        if (shape[d] == 0)
            return;
        if (shape[d] == 1)
            continue;
        if (n > 0 && ds[n - 1] == dst_strides[d] * shape[d] &&
            ss[n - 1] == src_strides[d] * shape[d]) {
            sh[n - 1] *= shape[d];
            ds[n - 1] = dst_strides[d];
            ss[n - 1] = src_strides[d];
            continue;
        }
        sh[n] = shape[d];
        ds[n] = dst_strides[d];
        ss[n] = src_strides[d];
        n++;
    }
    if (n == 0) {
        memcpy(dst, src, esz);
        return;
    }
    eh_nd_iter it;
    eh_nd_iter_init(&it, n - 1, sh);
    do {
        char *d = (char *)dst + (ptrdiff_t)eh_nd_iter_offset(&it, ds) * (ptrdiff_t)esz;
        const char *s = (const char *)src + (ptrdiff_t)eh_nd_iter_offset(&it, ss) * (ptrdiff_t)esz;
        copy_run(d, ds[n - 1], s, ss[n - 1], sh[n - 1], esz);
    } while (eh_nd_iter_next(&it));
}

/* reshape, expand_dims, squeeze: same elements, same order. */
static eh_status copy_all(const eh_op_call *c)
{
    const eh_tensor *x = c->in[0];
    if (x->nbytes)
        memcpy(c->out[0]->data, x->data, x->nbytes);
    return EH_OK;
}

eh_status eh_ref_reshape(const eh_op_call *c) { return copy_all(c); }
eh_status eh_ref_expand_dims(const eh_op_call *c) { return copy_all(c); }
eh_status eh_ref_squeeze(const eh_op_call *c) { return copy_all(c); }

eh_status eh_ref_transpose(const eh_op_call *c)
{
    const eh_tensor *x = c->in[0];
    eh_tensor *out = c->out[0];
    if (out->size == 0)
        return EH_OK;
    int64_t xs[EH_MAX_DIMS], ss[EH_MAX_DIMS], ds[EH_MAX_DIMS];
    eh_contiguous_strides(x->ndim, x->shape, xs);
    eh_contiguous_strides(out->ndim, out->shape, ds);
    for (int d = 0; d < out->ndim; d++)
        ss[d] = xs[c->p.axes[d]];
    strided_copy(out->data, ds, x->data, ss, out->ndim, out->shape, eh_dtype_size(x->dtype));
    return EH_OK;
}

eh_status eh_ref_concatenate(const eh_op_call *c)
{
    eh_tensor *out = c->out[0];
    if (out->size == 0)
        return EH_OK;
    int axis = c->p.axes[0];
    size_t esz = eh_dtype_size(out->dtype);
    int64_t ds[EH_MAX_DIMS], ss[EH_MAX_DIMS], off = 0;
    eh_contiguous_strides(out->ndim, out->shape, ds);
    for (int k = 0; k < c->n_in; k++) {
        const eh_tensor *x = c->in[k];
        if (x->size) {
            eh_contiguous_strides(x->ndim, x->shape, ss);
            char *dst = (char *)out->data + (size_t)(off * ds[axis]) * esz;
            strided_copy(dst, ds, x->data, ss, x->ndim, x->shape, esz);
        }
        off += x->shape[axis];
    }
    return EH_OK;
}

eh_status eh_ref_stack(const eh_op_call *c)
{
    eh_tensor *out = c->out[0];
    if (out->size == 0)
        return EH_OK;
    int axis = c->p.axes[0];
    size_t esz = eh_dtype_size(out->dtype);
    int64_t os[EH_MAX_DIMS], ds[EH_MAX_DIMS], ss[EH_MAX_DIMS];
    eh_contiguous_strides(out->ndim, out->shape, os);
    for (int d = 0, k = 0; d < out->ndim; d++)
        if (d != axis)
            ds[k++] = os[d];
    for (int k = 0; k < c->n_in; k++) {
        const eh_tensor *x = c->in[k];
        eh_contiguous_strides(x->ndim, x->shape, ss);
        char *dst = (char *)out->data + (size_t)(k * os[axis]) * esz;
        strided_copy(dst, ds, x->data, ss, x->ndim, x->shape, esz);
    }
    return EH_OK;
}

eh_status eh_ref_split(const eh_op_call *c)
{
    const eh_tensor *x = c->in[0];
    int axis = c->p.axes[0];
    size_t esz = eh_dtype_size(x->dtype);
    int64_t xs[EH_MAX_DIMS], ds[EH_MAX_DIMS], off = c->p.i[0];
    eh_contiguous_strides(x->ndim, x->shape, xs);
    for (int k = 0; k < c->n_out; k++) {
        eh_tensor *out = c->out[k];
        if (out->size) {
            eh_contiguous_strides(out->ndim, out->shape, ds);
            const char *src = (const char *)x->data + (size_t)(off * xs[axis]) * esz;
            strided_copy(out->data, ds, src, xs, out->ndim, out->shape, esz);
        }
        off += out->shape[axis];
    }
    return EH_OK;
}

eh_status eh_ref_broadcast_to(const eh_op_call *c)
{
    const eh_tensor *x = c->in[0];
    eh_tensor *out = c->out[0];
    if (out->size == 0)
        return EH_OK;
    int64_t ss[EH_MAX_DIMS], ds[EH_MAX_DIMS];
    eh_broadcast_strides(x, out->ndim, out->shape, ss);
    eh_contiguous_strides(out->ndim, out->shape, ds);
    strided_copy(out->data, ds, x->data, ss, out->ndim, out->shape, eh_dtype_size(x->dtype));
    return EH_OK;
}

eh_status eh_ref_slice(const eh_op_call *c)
{
    const eh_tensor *x = c->in[0];
    eh_tensor *out = c->out[0];
    if (out->size == 0)
        return EH_OK;
    size_t esz = eh_dtype_size(x->dtype);
    int64_t xs[EH_MAX_DIMS], ss[EH_MAX_DIMS], ds[EH_MAX_DIMS], base = 0;
    eh_contiguous_strides(x->ndim, x->shape, xs);
    eh_contiguous_strides(out->ndim, out->shape, ds);
    for (int d = 0; d < x->ndim; d++) {
        base += c->p.v[d] * xs[d];
        /* With one element read the step may be huge; it is not used. */
        ss[d] = out->shape[d] > 1 ? c->p.v[EH_MAX_DIMS + d] * xs[d] : 0;
    }
    const char *src = (const char *)x->data + (size_t)base * esz;
    strided_copy(out->data, ds, src, ss, out->ndim, out->shape, esz);
    return EH_OK;
}

eh_status eh_ref_flip(const eh_op_call *c)
{
    const eh_tensor *x = c->in[0];
    eh_tensor *out = c->out[0];
    if (out->size == 0)
        return EH_OK;
    size_t esz = eh_dtype_size(x->dtype);
    int64_t ss[EH_MAX_DIMS], ds[EH_MAX_DIMS], base = 0;
    eh_contiguous_strides(x->ndim, x->shape, ss);
    eh_contiguous_strides(out->ndim, out->shape, ds);
    for (int k = 0; k < c->p.n_axes; k++) {
        int d = c->p.axes[k];
        base += (x->shape[d] - 1) * ss[d];
        ss[d] = -ss[d];
    }
    const char *src = (const char *)x->data + (size_t)base * esz;
    strided_copy(out->data, ds, src, ss, out->ndim, out->shape, esz);
    return EH_OK;
}
