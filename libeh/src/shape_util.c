/* Axes, broadcasting and strides: the shape arithmetic every op shares. */
#include <string.h>
#include "internal.h"

eh_status eh__normalize_axis(const char *op, int axis, int ndim, int *out)
{
    int a = axis < 0 ? axis + ndim : axis;
    if (a < 0 || a >= ndim)
        return eh_set_error(EH_ERR_AXIS, "%s: axis %d is out of range for %d dimension%s", op,
                            axis, ndim, ndim == 1 ? "" : "s");
    *out = a;
    return EH_OK;
}

eh_status eh__normalize_axes(const char *op, const int *axes, int n_axes, int ndim,
                             int *out, int *n_out)
{
    if (!axes || n_axes == 0) {
        for (int d = 0; d < ndim; d++)
            out[d] = d;
        *n_out = ndim;
        return EH_OK;
    }
    if (n_axes < 0 || n_axes > ndim)
        return eh_set_error(EH_ERR_AXIS, "%s: %d axes given for %d dimensions", op, n_axes, ndim);
    int seen[EH_MAX_DIMS] = {0};
    for (int k = 0; k < n_axes; k++) {
        int a = 0;
        if (eh__normalize_axis(op, axes[k], ndim, &a) != EH_OK)
            return EH_ERR_AXIS;
        if (seen[a])
            return eh_set_error(EH_ERR_AXIS, "%s: axis %d is repeated", op, axes[k]);
        seen[a] = 1;
    }
    int n = 0;
    for (int d = 0; d < ndim; d++)
        if (seen[d])
            out[n++] = d;
    *n_out = n;
    return EH_OK;
}

static int same_shape(const eh_tensor *a, const eh_tensor *b)
{
    if (a->ndim != b->ndim)
        return 0;
    for (int d = 0; d < a->ndim; d++)
        if (a->shape[d] != b->shape[d])
            return 0;
    return 1;
}

eh_status eh__broadcast_shapes(const char *op, int n, const eh_tensor *const *ts,
                               int *ndim, int64_t *shape)
{
    int all_same = 1;
    for (int k = 1; k < n && all_same; k++)
        all_same = same_shape(ts[0], ts[k]);
    if (all_same) { /* the common case, without the general walk */
        *ndim = ts[0]->ndim;
        for (int d = 0; d < ts[0]->ndim; d++) /* a few dims: no memcpy call */
            shape[d] = ts[0]->shape[d];
        return EH_OK;
    }
    int nd = 0;
    for (int k = 0; k < n; k++)
        if (ts[k]->ndim > nd)
            nd = ts[k]->ndim;
    for (int d = 0; d < nd; d++)
        shape[d] = 1;
    for (int k = 0; k < n; k++) {
        const eh_tensor *t = ts[k];
        int off = nd - t->ndim;
        for (int d = 0; d < t->ndim; d++) {
            int64_t have = shape[off + d], dim = t->shape[d];
            if (dim == have || dim == 1)
                continue;
            if (have == 1) {
                shape[off + d] = dim;
                continue;
            }
            if (n == 2)
                return eh_set_error(EH_ERR_SHAPE, "%s: shapes %s and %s cannot be broadcast together",
                                    op, eh_shape_str(ts[0]->ndim, ts[0]->shape),
                                    eh_shape_str(ts[1]->ndim, ts[1]->shape));
            return eh_set_error(EH_ERR_SHAPE, "%s: shape %s cannot be broadcast to %s", op,
                                eh_shape_str(t->ndim, t->shape), eh_shape_str(nd, shape));
        }
    }
    *ndim = nd;
    return EH_OK;
}

void eh_contiguous_strides(int ndim, const int64_t *shape, int64_t *strides)
{
    int64_t s = 1;
    for (int d = ndim - 1; d >= 0; d--) {
        strides[d] = s;
        s *= shape[d];
    }
}

void eh_broadcast_strides(const eh_tensor *t, int ndim, const int64_t *shape, int64_t *strides)
{
    int64_t own[EH_MAX_DIMS];
    eh_contiguous_strides(t->ndim, t->shape, own);
    int off = ndim - t->ndim;
    for (int d = 0; d < ndim; d++) {
        if (d < off)
            strides[d] = 0;
        else
            strides[d] = (t->shape[d - off] == 1 && shape[d] != 1) ? 0 : own[d - off];
    }
}

void eh_nd_iter_init(eh_nd_iter *it, int ndim, const int64_t *shape)
{
    it->ndim = ndim;
    memcpy(it->shape, shape, (size_t)ndim * sizeof *shape);
    memset(it->idx, 0, sizeof it->idx);
}

int eh_nd_iter_next(eh_nd_iter *it)
{
    for (int d = it->ndim - 1; d >= 0; d--) {
        if (++it->idx[d] < it->shape[d])
            return 1;
        it->idx[d] = 0;
    }
    return 0;
}

void eh__reduced_shape(int ndim, const int64_t *shape, const int *axes, int n, int keepdims,
                       int *out_ndim, int64_t *out_shape)
{
    int reduced[EH_MAX_DIMS] = {0};
    for (int k = 0; k < n; k++)
        reduced[axes[k]] = 1;
    int nd = 0;
    for (int d = 0; d < ndim; d++) {
        if (!reduced[d])
            out_shape[nd++] = shape[d];
        else if (keepdims)
            out_shape[nd++] = 1;
    }
    *out_ndim = nd;
}
