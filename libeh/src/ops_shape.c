/* Frontend of the shape ops (SHAPE in ops.def): reshape transpose
 * expand_dims squeeze concatenate stack split broadcast_to slice flip.
 * (tile repeat pad roll gather scatter triu tril live in ops_indexing.c.)
 *
 * These ops move elements and never compute: every output has the dtype of
 * its input(s), and a kernel copies element bytes (f16 is a 2-byte element,
 * bool a 1-byte one).  concatenate and stack cast their inputs to the
 * promoted dtype first, so a kernel sees one dtype on every input and
 * output.  Every output is a new dense tensor: there are no views.
 *
 * Call contract (what a kernel can rely on; `x` is in[0]; strides are
 * row-major element strides; outputs arrive allocated with their final
 * shape, nothing is read or written when an output has size 0):
 *
 *   reshape      1 in, 1 out, same dtype and size.  p unused.  out's
 *                elements are x's in row-major order (a byte copy).
 *   expand_dims  as reshape.  p.n_axes = 1, p.axes[0] = the new axis of
 *                out (informational; the copy does not need it).
 *   squeeze      as reshape.  p.n_axes = number of removed axes, p.axes =
 *                the removed axes of x, ascending (informational).
 *   transpose    p.n_axes = x.ndim, p.axes = the permutation:
 *                out.shape[d] = x.shape[p.axes[d]],
 *                out[i_0, ..., i_{n-1}] = x[j] with j[p.axes[d]] = i_d.
 *   concatenate  n_in >= 1 inputs of one dtype and one ndim >= 1, equal
 *                except along axis p.axes[0] (p.n_axes = 1); out holds
 *                in[0], in[1], ... end to end along that axis.
 *   stack        n_in >= 1 inputs of one dtype and shape; out.ndim =
 *                ndim + 1, p.axes[0] = the new axis of out (p.n_axes = 1),
 *                out.shape[p.axes[0]] = n_in; out[..., k, ...] = in[k].
 *   split        1 in, n_out >= 1 outs of x's dtype and ndim, equal to x's
 *                shape except along axis p.axes[0] (p.n_axes = 1).  Out k
 *                is x[off_k : off_k + out[k].shape[axis]] along that axis,
 *                off_0 = p.i[0], off_{k+1} = off_k + out[k].shape[axis];
 *                the last ends at or before x.shape[axis].  (One
 *                eh_split_at may dispatch several such calls when its
 *                parts overlap or are out of order.)
 *   broadcast_to out.shape is x's shape broadcast (NumPy rules, x aligned
 *                to the trailing dims) to out.ndim >= x.ndim.  p unused.
 *   slice        for every d < x.ndim: p.v[d] = start, the first index
 *                read, and p.v[EH_MAX_DIMS + d] = step, nonzero and
 *                >= -INT64_MAX; out.shape[d] elements are read along d, at
 *                start + i * step, all in [0, x.shape[d]).  When
 *                out.shape[d] <= 1 the step is irrelevant (and may be
 *                huge: don't multiply it by a stride).  p.n_axes unused.
 *   flip         p.n_axes axes p.axes (ascending, distinct, < x.ndim) are
 *                reversed: out[..., i_d, ...] = x[..., shape[d]-1-i_d, ...]
 *                on each listed d. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include "internal.h"

/* ---- reshape, transpose, expand_dims, squeeze --------------------------- */

/* ---- views ------------------------------------------------------------------
 * reshape, expand_dims, squeeze and leading-axis slices only re-describe
 * contiguous elements: of a materialized tensor they return a view sharing
 * its storage, in O(1) (docs/memory.md; copy-on-write keeps writes
 * private).  A deferred input, or one whose storage cannot be shared, goes
 * through dispatch: lazy then shares the evaluated input's storage for
 * reshape, expand_dims and squeeze (eh_tensor_share_data) and copies
 * slices; eager backends copy. */

/* *out = a view of x shaped (ndim, shape), its elements starting
 * byte_offset bytes into x's: 1 when handled (*out NULL on an error), 0
 * when x cannot be shared (the caller dispatches). */
static int make_view(const char *op, const eh_tensor *x, int ndim, const int64_t *shape,
                     size_t byte_offset, eh_tensor **out)
{
    if (!eh__tensor_can_share(x))
        return 0;
    *out = NULL;
    if (!eh_current_backend()) /* an unusable EH_BACKEND fails every op */
        return 1;
    eh_tensor *v = eh__new_tensor(op, ndim, shape, x->dtype);
    if (v)
        eh__tensor_share(v, x, byte_offset);
    *out = v;
    return 1;
}

eh_tensor *eh_reshape(const eh_tensor *x, int ndim, const int64_t *shape)
{
    static const char op[] = "reshape";
    if (!eh__require(op, x, "x"))
        return NULL;
    if (ndim < 0 || ndim > EH_MAX_DIMS) {
        eh_set_error(EH_ERR_SHAPE, "%s: %d dimensions (allowed: 0 to %d)", op, ndim, EH_MAX_DIMS);
        return NULL;
    }
    if (ndim > 0 && !shape) {
        eh_set_error(EH_ERR_NULL_ARG, "%s: argument 'shape' is NULL", op);
        return NULL;
    }
    int unknown = -1, has_zero = 0;
    for (int d = 0; d < ndim; d++) {
        if (shape[d] == -1) {
            if (unknown >= 0) {
                eh_set_error(EH_ERR_INVALID_ARG,
                             "%s: shape %s has more than one -1; only one dimension can be inferred",
                             op, eh_shape_str(ndim, shape));
                return NULL;
            }
            unknown = d;
        } else if (shape[d] < 0) {
            eh_set_error(EH_ERR_NEGATIVE_SIZE,
                         "%s: negative dimension %lld in shape %s (only -1, inferred, is allowed)",
                         op, (long long)shape[d], eh_shape_str(ndim, shape));
            return NULL;
        } else {
            has_zero |= shape[d] == 0;
        }
    }
    int64_t known = has_zero ? 0 : 1;
    for (int d = 0; d < ndim && known != 0; d++) {
        if (d == unknown)
            continue;
        if (known > INT64_MAX / shape[d]) {
            eh_set_error(EH_ERR_OVERFLOW, "%s: shape %s has more than INT64_MAX elements", op,
                         eh_shape_str(ndim, shape));
            return NULL;
        }
        known *= shape[d];
    }
    int64_t out[EH_MAX_DIMS];
    for (int d = 0; d < ndim; d++)
        out[d] = shape[d];
    if (unknown >= 0) {
        if (known == 0 || x->size % known != 0) {
            eh_set_error(EH_ERR_SHAPE, "%s: cannot reshape %s (size %lld) into shape %s", op,
                         eh_shape_str(x->ndim, x->shape), (long long)x->size,
                         eh_shape_str(ndim, shape));
            return NULL;
        }
        out[unknown] = x->size / known;
    } else if (known != x->size) {
        eh_set_error(EH_ERR_SHAPE, "%s: cannot reshape %s (size %lld) into shape %s", op,
                     eh_shape_str(x->ndim, x->shape), (long long)x->size,
                     eh_shape_str(ndim, shape));
        return NULL;
    }
    eh_tensor *v;
    if (make_view(op, x, ndim, out, 0, &v))
        return v;
    const eh_tensor *in[1] = {x};
    eh_op_call call = eh__call(EH_OP_reshape, 1, in);
    return eh__run(&call, ndim, out, x->dtype);
}

eh_tensor *eh_transpose(const eh_tensor *x, const int *perm, int n_perm)
{
    static const char op[] = "transpose";
    if (!eh__require(op, x, "x"))
        return NULL;
    int nd = x->ndim, p[EH_MAX_DIMS];
    if (!perm || n_perm == 0) {
        for (int d = 0; d < nd; d++)
            p[d] = nd - 1 - d;
    } else {
        if (n_perm != nd) {
            eh_set_error(EH_ERR_AXIS, "%s: perm has %d entries but x has shape %s (%d dimensions)",
                         op, n_perm, eh_shape_str(nd, x->shape), nd);
            return NULL;
        }
        int seen[EH_MAX_DIMS] = {0};
        for (int k = 0; k < nd; k++) {
            if (eh__normalize_axis(op, perm[k], nd, &p[k]) != EH_OK)
                return NULL;
            if (seen[p[k]]) {
                eh_set_error(EH_ERR_AXIS, "%s: axis %d is repeated in perm", op, perm[k]);
                return NULL;
            }
            seen[p[k]] = 1;
        }
    }
    int64_t shape[EH_MAX_DIMS];
    const eh_tensor *in[1] = {x};
    eh_op_call call = eh__call(EH_OP_transpose, 1, in);
    call.p.n_axes = nd;
    for (int d = 0; d < nd; d++) {
        call.p.axes[d] = p[d];
        shape[d] = x->shape[p[d]];
    }
    return eh__run(&call, nd, shape, x->dtype);
}

eh_tensor *eh_expand_dims(const eh_tensor *x, int axis)
{
    static const char op[] = "expand_dims";
    int a;
    if (!eh__require(op, x, "x") || eh__normalize_axis(op, axis, x->ndim + 1, &a) != EH_OK)
        return NULL;
    if (x->ndim >= EH_MAX_DIMS) {
        eh_set_error(EH_ERR_SHAPE, "%s: x of shape %s already has the maximum %d dimensions", op,
                     eh_shape_str(x->ndim, x->shape), EH_MAX_DIMS);
        return NULL;
    }
    int64_t shape[EH_MAX_DIMS];
    for (int d = 0, s = 0; d <= x->ndim; d++)
        shape[d] = d == a ? 1 : x->shape[s++];
    eh_tensor *v;
    if (make_view(op, x, x->ndim + 1, shape, 0, &v))
        return v;
    const eh_tensor *in[1] = {x};
    eh_op_call call = eh__call(EH_OP_expand_dims, 1, in);
    call.p.n_axes = 1;
    call.p.axes[0] = a;
    return eh__run(&call, x->ndim + 1, shape, x->dtype);
}

eh_tensor *eh_squeeze(const eh_tensor *x, const int *axes, int n_axes)
{
    static const char op[] = "squeeze";
    if (!eh__require(op, x, "x"))
        return NULL;
    int list[EH_MAX_DIMS], n = 0;
    if (!axes || n_axes == 0) {
        for (int d = 0; d < x->ndim; d++)
            if (x->shape[d] == 1)
                list[n++] = d;
    } else {
        if (eh__normalize_axes(op, axes, n_axes, x->ndim, list, &n) != EH_OK)
            return NULL;
        for (int k = 0; k < n; k++)
            if (x->shape[list[k]] != 1) {
                eh_set_error(EH_ERR_SHAPE, "%s: cannot squeeze axis %d of shape %s: its size is %lld, not 1",
                             op, list[k], eh_shape_str(x->ndim, x->shape),
                             (long long)x->shape[list[k]]);
                return NULL;
            }
    }
    int64_t shape[EH_MAX_DIMS];
    int nd = 0;
    for (int d = 0, k = 0; d < x->ndim; d++) {
        if (k < n && list[k] == d) {
            k++;
            continue;
        }
        shape[nd++] = x->shape[d];
    }
    eh_tensor *v;
    if (make_view(op, x, nd, shape, 0, &v))
        return v;
    const eh_tensor *in[1] = {x};
    eh_op_call call = eh__call(EH_OP_squeeze, 1, in);
    call.p.n_axes = n;
    for (int k = 0; k < n; k++)
        call.p.axes[k] = list[k];
    return eh__run(&call, nd, shape, x->dtype);
}

/* ---- concatenate, stack -------------------------------------------------- */

/* Check n and every xs[k]; the promoted dtype of all of them in *dtype. */
static eh_status check_inputs(const char *op, const eh_tensor *const *xs, int n, eh_dtype *dtype)
{
    if (n <= 0)
        return eh_set_error(EH_ERR_INVALID_ARG, "%s: need at least one tensor (n = %d)", op, n);
    if (!xs)
        return eh_set_error(EH_ERR_NULL_ARG, "%s: argument 'xs' is NULL", op);
    for (int k = 0; k < n; k++) {
        if (!xs[k]) {
            char name[32];
            snprintf(name, sizeof name, "xs[%d]", k);
            (void)eh__require(op, xs[k], name);
            return eh_last_error();
        }
    }
    eh_dtype dt = xs[0]->dtype;
    for (int k = 1; k < n; k++)
        if (eh_result_type(dt, xs[k]->dtype, &dt) != EH_OK)
            return eh_last_error();
    *dtype = dt;
    return EH_OK;
}

/* Run a variadic call on xs cast to dtype.  Only the casts made here are
 * released (inputs already of that dtype are passed as they are). */
static eh_tensor *run_variadic(eh_op op, const eh_tensor *const *xs, int n, int axis,
                               int ndim, const int64_t *shape, eh_dtype dtype)
{
    const char *name = eh_op_name(op);
    eh_tensor **owned = eh_mem_calloc((size_t)n, sizeof *owned);
    const eh_tensor **in = eh_mem_alloc((size_t)n * sizeof *in);
    eh_tensor *out = NULL;
    if (!owned || !in) {
        eh_set_error(EH_ERR_NOMEM, "%s: out of memory for %d inputs", name, n);
        goto done;
    }
    for (int k = 0; k < n; k++) {
        if (xs[k]->dtype == dtype) {
            in[k] = xs[k];
            continue;
        }
        if (!(owned[k] = eh_cast(xs[k], dtype)))
            goto done;
        in[k] = owned[k];
    }
    eh_op_call call = eh__call(op, n, in);
    call.p.n_axes = 1;
    call.p.axes[0] = axis;
    out = eh__run(&call, ndim, shape, dtype);
done:
    if (owned)
        for (int k = 0; k < n; k++)
            eh_release(owned[k]);
    eh_mem_free(owned);
    eh_mem_free(in);
    return out;
}

eh_tensor *eh_concatenate(const eh_tensor *const *xs, int n, int axis)
{
    static const char op[] = "concatenate";
    eh_dtype dtype;
    if (check_inputs(op, xs, n, &dtype) != EH_OK)
        return NULL;
    const eh_tensor *x0 = xs[0];
    int nd = x0->ndim, a;
    for (int k = 0; k < n; k++)
        if (xs[k]->ndim == 0) {
            eh_set_error(EH_ERR_SHAPE,
                         "%s: xs[%d] is 0-d; 0-d tensors cannot be concatenated (use stack)", op, k);
            return NULL;
        }
    if (eh__normalize_axis(op, axis, nd, &a) != EH_OK)
        return NULL;
    int64_t shape[EH_MAX_DIMS];
    for (int d = 0; d < nd; d++)
        shape[d] = x0->shape[d];
    for (int k = 1; k < n; k++) {
        const eh_tensor *t = xs[k];
        int same = t->ndim == nd;
        for (int d = 0; d < nd && same; d++)
            same = d == a || t->shape[d] == x0->shape[d];
        if (!same) {
            eh_set_error(EH_ERR_SHAPE, "%s: xs[0] of shape %s and xs[%d] of shape %s differ outside axis %d",
                         op, eh_shape_str(nd, x0->shape), k, eh_shape_str(t->ndim, t->shape), a);
            return NULL;
        }
        if (shape[a] > INT64_MAX - t->shape[a]) {
            eh_set_error(EH_ERR_OVERFLOW, "%s: joined axis %d is longer than INT64_MAX", op, a);
            return NULL;
        }
        shape[a] += t->shape[a];
    }
    return run_variadic(EH_OP_concatenate, xs, n, a, nd, shape, dtype);
}

eh_tensor *eh_stack(const eh_tensor *const *xs, int n, int axis)
{
    static const char op[] = "stack";
    eh_dtype dtype;
    if (check_inputs(op, xs, n, &dtype) != EH_OK)
        return NULL;
    const eh_tensor *x0 = xs[0];
    int nd = x0->ndim, a;
    for (int k = 1; k < n; k++) {
        const eh_tensor *t = xs[k];
        int same = t->ndim == nd;
        for (int d = 0; d < nd && same; d++)
            same = t->shape[d] == x0->shape[d];
        if (!same) {
            eh_set_error(EH_ERR_SHAPE, "%s: all inputs must have one shape; xs[0] is %s, xs[%d] is %s",
                         op, eh_shape_str(nd, x0->shape), k, eh_shape_str(t->ndim, t->shape));
            return NULL;
        }
    }
    if (eh__normalize_axis(op, axis, nd + 1, &a) != EH_OK)
        return NULL;
    if (nd >= EH_MAX_DIMS) {
        eh_set_error(EH_ERR_SHAPE, "%s: inputs of shape %s already have the maximum %d dimensions",
                     op, eh_shape_str(nd, x0->shape), EH_MAX_DIMS);
        return NULL;
    }
    int64_t shape[EH_MAX_DIMS];
    for (int d = 0, s = 0; d <= nd; d++)
        shape[d] = d == a ? n : x0->shape[s++];
    return run_variadic(EH_OP_stack, xs, n, a, nd + 1, shape, dtype);
}

/* ---- split ------------------------------------------------------------- */

/* Make outs[k] = x[starts[k] : starts[k] + lens[k]] along axis, k < n_out.
 * Consecutive parts that tile x go to one call; an out-of-order or
 * overlapping part starts another call.  All outs NULL on failure. */
static eh_status run_split(const char *op, const eh_tensor *x, int axis, int n_out,
                           const int64_t *starts, const int64_t *lens, eh_tensor **outs)
{
    int *ndims = eh_mem_alloc((size_t)n_out * sizeof *ndims);
    int64_t (*shapes)[EH_MAX_DIMS] = eh_mem_alloc((size_t)n_out * sizeof *shapes);
    eh_dtype *dtypes = eh_mem_alloc((size_t)n_out * sizeof *dtypes);
    eh_status st = EH_OK;
    if (!ndims || !shapes || !dtypes) {
        st = eh_set_error(EH_ERR_NOMEM, "%s: out of memory for %d outputs", op, n_out);
        goto done;
    }
    for (int k = 0; k < n_out; k++) {
        ndims[k] = x->ndim;
        dtypes[k] = x->dtype;
        for (int d = 0; d < x->ndim; d++)
            shapes[k][d] = d == axis ? lens[k] : x->shape[d];
    }
    for (int k0 = 0; k0 < n_out && st == EH_OK;) {
        /* The run starts where its first non-empty part starts; empty parts
         * fit anywhere. */
        int k1 = k0;
        int64_t off = -1, end = 0;
        for (; k1 < n_out; k1++) {
            if (lens[k1] == 0)
                continue;
            if (off < 0)
                off = end = starts[k1];
            else if (starts[k1] != end)
                break;
            end += lens[k1];
        }
        const eh_tensor *in[1] = {x};
        eh_op_call call = eh__call(EH_OP_split, 1, in);
        call.p.n_axes = 1;
        call.p.axes[0] = axis;
        call.p.i[0] = off < 0 ? 0 : off;
        st = eh__run_multi(&call, k1 - k0, ndims + k0, (const int64_t (*)[EH_MAX_DIMS])(shapes + k0),
                           dtypes + k0, outs + k0);
        k0 = k1;
    }
done:
    if (st != EH_OK)
        for (int k = 0; k < n_out; k++) {
            eh_release(outs[k]);
            outs[k] = NULL;
        }
    eh_mem_free(ndims);
    eh_mem_free(shapes);
    eh_mem_free(dtypes);
    return st;
}

/* Shared checks of eh_split and eh_array_split: outs cleared, *a the
 * normalized axis. */
static eh_status split_prologue(const char *op, const eh_tensor *x, int sections, int axis,
                                eh_tensor **outs, int *a)
{
    if (!outs)
        return eh_set_error(EH_ERR_NULL_ARG, "%s: argument 'outs' is NULL", op);
    if (sections <= 0)
        return eh_set_error(EH_ERR_INVALID_ARG, "%s: sections must be positive (got %d)", op,
                            sections);
    for (int k = 0; k < sections; k++)
        outs[k] = NULL;
    if (!eh__require(op, x, "x"))
        return eh_last_error();
    return eh__normalize_axis(op, axis, x->ndim, a);
}

static eh_status split_sections(const char *op, const eh_tensor *x, int sections, int axis,
                                eh_tensor **outs, int even)
{
    int a;
    eh_status st = split_prologue(op, x, sections, axis, outs, &a);
    if (st != EH_OK)
        return st;
    int64_t len = x->shape[a], each = len / sections, extra = len % sections;
    if (even && extra != 0)
        return eh_set_error(EH_ERR_SHAPE,
                            "%s: axis %d of shape %s (length %lld) does not divide into %d equal sections",
                            op, a, eh_shape_str(x->ndim, x->shape), (long long)len, sections);
    int64_t *starts = eh_mem_alloc((size_t)sections * sizeof *starts);
    int64_t *lens = eh_mem_alloc((size_t)sections * sizeof *lens);
    if (!starts || !lens) {
        st = eh_set_error(EH_ERR_NOMEM, "%s: out of memory for %d sections", op, sections);
    } else {
        int64_t at = 0;
        for (int k = 0; k < sections; k++) {
            starts[k] = at;
            lens[k] = each + (k < extra ? 1 : 0);
            at += lens[k];
        }
        st = run_split(op, x, a, sections, starts, lens, outs);
    }
    eh_mem_free(starts);
    eh_mem_free(lens);
    return st;
}

eh_status eh_split(const eh_tensor *x, int sections, int axis, eh_tensor **outs)
{
    return split_sections("split", x, sections, axis, outs, 1);
}

eh_status eh_array_split(const eh_tensor *x, int sections, int axis, eh_tensor **outs)
{
    return split_sections("array_split", x, sections, axis, outs, 0);
}

/* A bound taken as Python takes a slice bound with step 1. */
static int64_t clamp_bound(int64_t b, int64_t len)
{
    if (b < 0) {
        b += len;
        return b < 0 ? 0 : b;
    }
    return b > len ? len : b;
}

eh_status eh_split_at(const eh_tensor *x, const int64_t *indices, int n_indices, int axis,
                      eh_tensor **outs)
{
    static const char op[] = "split_at";
    if (!outs)
        return eh_set_error(EH_ERR_NULL_ARG, "%s: argument 'outs' is NULL", op);
    if (n_indices < 0 || n_indices == INT_MAX)
        return eh_set_error(EH_ERR_INVALID_ARG, "%s: n_indices %d is out of range", op, n_indices);
    int n_out = n_indices + 1, a;
    for (int k = 0; k < n_out; k++)
        outs[k] = NULL;
    if (n_indices > 0 && !indices)
        return eh_set_error(EH_ERR_NULL_ARG, "%s: argument 'indices' is NULL", op);
    if (!eh__require(op, x, "x"))
        return eh_last_error();
    if (eh__normalize_axis(op, axis, x->ndim, &a) != EH_OK)
        return EH_ERR_AXIS;
    int64_t len = x->shape[a];
    int64_t *starts = eh_mem_alloc((size_t)n_out * sizeof *starts);
    int64_t *lens = eh_mem_alloc((size_t)n_out * sizeof *lens);
    eh_status st;
    if (!starts || !lens) {
        st = eh_set_error(EH_ERR_NOMEM, "%s: out of memory for %d parts", op, n_out);
    } else {
        for (int k = 0; k < n_out; k++) {
            int64_t s = k == 0 ? 0 : clamp_bound(indices[k - 1], len);
            int64_t e = k == n_indices ? len : clamp_bound(indices[k], len);
            starts[k] = s;
            lens[k] = e > s ? e - s : 0;
        }
        st = run_split(op, x, a, n_out, starts, lens, outs);
    }
    eh_mem_free(starts);
    eh_mem_free(lens);
    return st;
}

/* ---- broadcast_to, slice, flip ------------------------------------------- */

eh_tensor *eh_broadcast_to(const eh_tensor *x, int ndim, const int64_t *shape)
{
    static const char op[] = "broadcast_to";
    if (!eh__require(op, x, "x") || eh__check_shape(op, ndim, shape, x->dtype, NULL) != EH_OK)
        return NULL;
    int ok = ndim >= x->ndim;
    for (int d = 0; d < x->ndim && ok; d++) {
        int64_t have = x->shape[d], want = shape[ndim - x->ndim + d];
        ok = have == want || have == 1;
    }
    if (!ok) {
        eh_set_error(EH_ERR_SHAPE, "%s: shape %s cannot be broadcast to %s", op,
                     eh_shape_str(x->ndim, x->shape), eh_shape_str(ndim, shape));
        return NULL;
    }
    const eh_tensor *in[1] = {x};
    eh_op_call call = eh__call(EH_OP_broadcast_to, 1, in);
    return eh__run(&call, ndim, shape, x->dtype);
}

/* Python's PySlice_AdjustIndices: clamp start/stop for `len`, return the
 * element count. */
static int64_t adjust_slice(int64_t len, int64_t *start, int64_t *stop, int64_t step)
{
    int64_t *b[2] = {start, stop};
    for (int k = 0; k < 2; k++) {
        if (*b[k] < 0) {
            *b[k] += len;
            if (*b[k] < 0)
                *b[k] = step < 0 ? -1 : 0;
        } else if (*b[k] >= len) {
            *b[k] = step < 0 ? len - 1 : len;
        }
    }
    if (step < 0)
        return *stop < *start ? (int64_t)((uint64_t)(*start - *stop - 1) / (uint64_t)(-step)) + 1 : 0;
    return *start < *stop ? (*stop - *start - 1) / step + 1 : 0;
}

eh_tensor *eh_slice(const eh_tensor *x, const int64_t *start, const int64_t *stop,
                    const int64_t *step, int n)
{
    static const char op[] = "slice";
    if (!eh__require(op, x, "x"))
        return NULL;
    if (n < 0) {
        eh_set_error(EH_ERR_INVALID_ARG, "%s: n = %d is negative", op, n);
        return NULL;
    }
    if (n > x->ndim) {
        eh_set_error(EH_ERR_AXIS, "%s: %d axes sliced but x of shape %s has %d dimension%s", op, n,
                     eh_shape_str(x->ndim, x->shape), x->ndim, x->ndim == 1 ? "" : "s");
        return NULL;
    }
    const eh_tensor *in[1] = {x};
    eh_op_call call = eh__call(EH_OP_slice, 1, in);
    int64_t shape[EH_MAX_DIMS];
    for (int d = 0; d < x->ndim; d++) {
        int64_t len = x->shape[d], s = 0, st = 1, count = len;
        if (d < n) {
            st = step ? step[d] : 1;
            if (st == 0) {
                eh_set_error(EH_ERR_INVALID_ARG, "%s: step of axis %d is 0", op, d);
                return NULL;
            }
            if (st < -INT64_MAX)
                st = -INT64_MAX;
            s = start ? start[d] : (st < 0 ? EH_SLICE_END : EH_SLICE_START);
            int64_t e = stop ? stop[d] : (st < 0 ? EH_SLICE_START : EH_SLICE_END);
            count = adjust_slice(len, &s, &e, st);
        }
        call.p.v[d] = s;
        call.p.v[EH_MAX_DIMS + d] = st;
        shape[d] = count;
    }
    /* A range of whole rows (axis 0, step 1; every other axis whole) is
     * contiguous: a view. */
    int rows_only = x->ndim > 0 && call.p.v[EH_MAX_DIMS] == 1 && shape[0] > 0;
    for (int d = 1; d < x->ndim && rows_only; d++)
        rows_only = call.p.v[d] == 0 && call.p.v[EH_MAX_DIMS + d] == 1 && shape[d] == x->shape[d];
    eh_tensor *v;
    if (rows_only && make_view(op, x, x->ndim, shape,
                               (size_t)call.p.v[0] * (x->nbytes / (size_t)x->shape[0]), &v))
        return v;
    return eh__run(&call, x->ndim, shape, x->dtype);
}

eh_tensor *eh_flip(const eh_tensor *x, const int *axes, int n_axes)
{
    static const char op[] = "flip";
    int list[EH_MAX_DIMS], n;
    if (!eh__require(op, x, "x") ||
        eh__normalize_axes(op, axes, n_axes, x->ndim, list, &n) != EH_OK)
        return NULL;
    const eh_tensor *in[1] = {x};
    eh_op_call call = eh__call(EH_OP_flip, 1, in);
    call.p.n_axes = n;
    for (int k = 0; k < n; k++)
        call.p.axes[k] = list[k];
    return eh__run(&call, x->ndim, x->shape, x->dtype);
}
