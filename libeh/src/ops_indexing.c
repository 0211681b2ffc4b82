/* Frontend of the indexing ops: tile, repeat, pad, roll, gather, scatter,
 * triu, tril (docs/ops/indexing.md).
 *
 * Kernel contract -- what each call carries.  Unless said otherwise the
 * single input in[0] is x in its own dtype and the output has x's dtype;
 * all axes in p.axes are already normalized (0 <= axis < ndim).
 *
 *   tile     in[0] x.  out has nd = max(ndim(x), n_reps) dims.
 *            p.v[0..nd): the repetition count of each output dimension
 *            (reps with leading 1s added to reach nd).  x is read as if
 *            its shape had leading 1s up to nd dims:
 *            out[o] = x[o_d mod xshape_d for each d].
 *   repeat   p.i[0]: repeats (>= 0).  p.n_axes == 1: p.axes[0] is the
 *            axis, out[.., o, ..] = x[.., o / repeats, ..].
 *            p.n_axes == 0: flattened; x is read as 1-D in row-major
 *            order and out is 1-D of size(x) * repeats.
 *   pad      p.i[0]: the eh_pad_mode; p.f[0]: the constant value (for
 *            EH_PAD_CONSTANT; stored converted like eh_store_f64);
 *            p.v[2d], p.v[2d+1]: widths before and after axis d (>= 0).
 *            The frontend guarantees an axis of length 0 is padded only
 *            in EH_PAD_CONSTANT mode.  Index mapping of a position
 *            j = o - before of an axis of length n outside [0, n):
 *              EDGE      clamp to [0, n-1]
 *              REFLECT   m = j mod 2(n-1), then 2(n-1) - m if m >= n
 *                        (n == 1: 0)
 *              SYMMETRIC m = j mod 2n, then 2n-1-m if m >= n
 *              WRAP      j mod n
 *   roll     p.i[0]: the shift already reduced to [0, n) where n is the
 *            axis length (size(x) when flattened; 0 when n == 0).
 *            p.n_axes == 1: p.axes[0] is the axis; p.n_axes == 0: roll
 *            the row-major flattening, out keeps x's shape.
 *            out[(i + shift) mod n] = x[i].
 *   gather   in[0] x (any dtype), in[1] indices as EH_I64 (any shape).
 *            p.axes[0] (p.n_axes == 1): the axis.  Out shape
 *            x.shape[:axis] + indices.shape + x.shape[axis+1:].
 *            Indices are NOT range-checked by the frontend: the kernel
 *            checks every index (negative ones count from the end) before
 *            writing, and reports EH_ERR_INDEX.
 *   scatter  in[0] values already in the output dtype (shape (N, ...)),
 *            in[1] indices as EH_I64, shape (N,).  p.i[0]: the
 *            eh_scatter_aggr.  Out shape (dim_size, values.shape[1:]),
 *            dim_size resolved by the frontend.  Indices are NOT
 *            range-checked by the frontend: the kernel reports an index
 *            outside [0, dim_size) with EH_ERR_INDEX before writing.
 *            Rows nobody targets are 0.  Floats accumulate in f32 (f16,
 *            f32) or f64, in index order; integers add with wrap-around.
 *            MEAN is sum / count in the output dtype's compute type.
 *   triu     p.i[0]: k; keep out[..., i, j] when j - i >= k, else 0.
 *   tril     p.i[0]: k; keep out[..., i, j] when j - i <= k, else 0.
 *            x has at least 2 dims.
 */
#include <string.h>
#include "internal.h"

/* a * b for non-negative a, b; EH_ERR_OVERFLOW naming the op when it does
 * not fit int64_t. */
static eh_status mul_dim(const char *op, int64_t a, int64_t b, int64_t *out,
                         const char *what)
{
    if (a != 0 && b > INT64_MAX / a)
        return eh_set_error(EH_ERR_OVERFLOW, "%s: %s overflows int64_t (%lld * %lld)", op,
                            what, (long long)a, (long long)b);
    *out = a * b;
    return EH_OK;
}

static int is_int_dtype(eh_dtype d) { return d == EH_I32 || d == EH_I64; }

/* t in dtype d: t itself when it has that dtype, else a cast stored in
 * *owned for the caller to release (*owned stays NULL otherwise).  NULL
 * when the cast fails.  Not eh__as_dtype: its eh_retain + eh_release pair
 * takes a scope-owned t out of its scope and leaks it (eh_release on a
 * scoped tensor forgets the scope's claim even when it is not the last
 * reference). */
static const eh_tensor *in_dtype(const eh_tensor *t, eh_dtype d, eh_tensor **owned)
{
    *owned = NULL;
    if (t->dtype == d)
        return t;
    *owned = eh_cast(t, d);
    return *owned;
}

/* ---- tile ------------------------------------------------------------- */

eh_tensor *eh_tile(const eh_tensor *x, const int64_t *reps, int n_reps)
{
    static const char op[] = "tile";
    if (!eh__require(op, x, "x"))
        return NULL;
    if (n_reps < 0) {
        eh_set_error(EH_ERR_INVALID_ARG, "tile: n_reps is %d; it must be >= 0", n_reps);
        return NULL;
    }
    if (n_reps > 0 && !reps) {
        eh_set_error(EH_ERR_NULL_ARG, "tile: argument 'reps' is NULL with n_reps %d", n_reps);
        return NULL;
    }
    int nd = x->ndim > n_reps ? x->ndim : n_reps;
    if (nd > EH_MAX_DIMS) {
        eh_set_error(EH_ERR_SHAPE, "tile: %d repetition counts make a result of %d dimensions "
                     "(at most %d)", n_reps, nd, EH_MAX_DIMS);
        return NULL;
    }
    for (int k = 0; k < n_reps; k++) {
        if (reps[k] < 0) {
            eh_set_error(EH_ERR_NEGATIVE_SIZE, "tile: negative count %lld in reps %s for x of "
                         "shape %s", (long long)reps[k], eh_shape_str(n_reps, reps),
                         eh_shape_str(x->ndim, x->shape));
            return NULL;
        }
    }
    eh_op_call call = eh__call(EH_OP_tile, 1, (const eh_tensor *const[]){x});
    int64_t shape[EH_MAX_DIMS];
    for (int d = 0; d < nd; d++) {
        int xd = d - (nd - x->ndim), rd = d - (nd - n_reps);
        int64_t xs = xd >= 0 ? x->shape[xd] : 1, r = rd >= 0 ? reps[rd] : 1;
        call.p.v[d] = r;
        if (mul_dim(op, xs, r, &shape[d], "a result dimension") != EH_OK)
            return NULL;
    }
    return eh__run(&call, nd, shape, x->dtype);
}

/* ---- repeat ----------------------------------------------------------- */

static eh_tensor *repeat(const eh_tensor *x, int64_t repeats, int axis, int flat)
{
    const char *op = flat ? "repeat_flat" : "repeat";
    if (!eh__require(op, x, "x"))
        return NULL;
    if (repeats < 0) {
        eh_set_error(EH_ERR_NEGATIVE_SIZE, "%s: repeats is %lld for x of shape %s; it must be >= 0",
                     op, (long long)repeats, eh_shape_str(x->ndim, x->shape));
        return NULL;
    }
    eh_op_call call = eh__call(EH_OP_repeat, 1, (const eh_tensor *const[]){x});
    call.p.i[0] = repeats;
    int64_t shape[EH_MAX_DIMS];
    int nd;
    if (flat) {
        nd = 1;
        if (mul_dim(op, x->size, repeats, &shape[0], "the result size") != EH_OK)
            return NULL;
    } else {
        int a;
        if (eh__normalize_axis(op, axis, x->ndim, &a) != EH_OK)
            return NULL;
        nd = x->ndim;
        memcpy(shape, x->shape, sizeof shape);
        if (mul_dim(op, x->shape[a], repeats, &shape[a], "the repeated dimension") != EH_OK)
            return NULL;
        call.p.n_axes = 1;
        call.p.axes[0] = a;
    }
    return eh__run(&call, nd, shape, x->dtype);
}

eh_tensor *eh_repeat(const eh_tensor *x, int64_t repeats, int axis)
{
    return repeat(x, repeats, axis, 0);
}

eh_tensor *eh_repeat_flat(const eh_tensor *x, int64_t repeats)
{
    return repeat(x, repeats, 0, 1);
}

/* ---- pad -------------------------------------------------------------- */

static const char *pad_mode_name(eh_pad_mode mode)
{
    switch (mode) {
    case EH_PAD_CONSTANT: return "constant";
    case EH_PAD_EDGE: return "edge";
    case EH_PAD_REFLECT: return "reflect";
    case EH_PAD_SYMMETRIC: return "symmetric";
    case EH_PAD_WRAP: return "wrap";
    }
    return "?";
}

eh_tensor *eh_pad(const eh_tensor *x, const int64_t *pad_width, eh_pad_mode mode, double value)
{
    static const char op[] = "pad";
    if (!eh__require(op, x, "x"))
        return NULL;
    int nd = x->ndim;
    if (nd > 0 && !pad_width) {
        eh_set_error(EH_ERR_NULL_ARG, "pad: argument 'pad_width' is NULL for x of shape %s",
                     eh_shape_str(nd, x->shape));
        return NULL;
    }
    if ((int)mode < (int)EH_PAD_CONSTANT || (int)mode > (int)EH_PAD_WRAP) {
        eh_set_error(EH_ERR_INVALID_ARG, "pad: unknown mode %d", (int)mode);
        return NULL;
    }
    eh_op_call call = eh__call(EH_OP_pad, 1, (const eh_tensor *const[]){x});
    call.p.i[0] = (int64_t)mode;
    call.p.f[0] = value;
    int64_t shape[EH_MAX_DIMS];
    for (int d = 0; d < nd; d++) {
        int64_t before = pad_width[2 * d], after = pad_width[2 * d + 1];
        if (before < 0 || after < 0) {
            eh_set_error(EH_ERR_NEGATIVE_SIZE, "pad: negative width (%lld, %lld) for axis %d of "
                         "x of shape %s", (long long)before, (long long)after, d,
                         eh_shape_str(nd, x->shape));
            return NULL;
        }
        if (x->shape[d] == 0 && (before || after) && mode != EH_PAD_CONSTANT) {
            eh_set_error(EH_ERR_SHAPE, "pad: axis %d of x of shape %s is empty; mode '%s' cannot "
                         "extend it (only constant can)", d, eh_shape_str(nd, x->shape),
                         pad_mode_name(mode));
            return NULL;
        }
        if (before > INT64_MAX - x->shape[d] || after > INT64_MAX - x->shape[d] - before) {
            eh_set_error(EH_ERR_OVERFLOW, "pad: axis %d of x of shape %s padded by (%lld, %lld) "
                         "overflows int64_t", d, eh_shape_str(nd, x->shape),
                         (long long)before, (long long)after);
            return NULL;
        }
        shape[d] = before + x->shape[d] + after;
        call.p.v[2 * d] = before;
        call.p.v[2 * d + 1] = after;
    }
    return eh__run(&call, nd, shape, x->dtype);
}

/* ---- roll ------------------------------------------------------------- */

static eh_tensor *roll(const eh_tensor *x, int64_t shift, int axis, int flat)
{
    const char *op = flat ? "roll_flat" : "roll";
    if (!eh__require(op, x, "x"))
        return NULL;
    eh_op_call call = eh__call(EH_OP_roll, 1, (const eh_tensor *const[]){x});
    int64_t n;
    if (flat) {
        n = x->size;
    } else {
        int a;
        if (eh__normalize_axis(op, axis, x->ndim, &a) != EH_OK)
            return NULL;
        n = x->shape[a];
        call.p.n_axes = 1;
        call.p.axes[0] = a;
    }
    int64_t s = 0;
    if (n > 0) {
        s = shift % n; /* n > 0: defined even for INT64_MIN */
        if (s < 0)
            s += n;
    }
    call.p.i[0] = s;
    return eh__run(&call, x->ndim, x->shape, x->dtype);
}

eh_tensor *eh_roll(const eh_tensor *x, int64_t shift, int axis)
{
    return roll(x, shift, axis, 0);
}

eh_tensor *eh_roll_flat(const eh_tensor *x, int64_t shift)
{
    return roll(x, shift, 0, 1);
}

/* ---- gather ----------------------------------------------------------- */

eh_tensor *eh_gather(const eh_tensor *x, const eh_tensor *indices, int axis)
{
    static const char op[] = "gather";
    if (!eh__require(op, x, "x") || !eh__require(op, indices, "indices"))
        return NULL;
    if (!is_int_dtype(indices->dtype)) {
        eh_set_error(EH_ERR_DTYPE, "gather: indices must be i32 or i64, not %s",
                     eh_dtype_name(indices->dtype));
        return NULL;
    }
    int a;
    if (eh__normalize_axis(op, axis, x->ndim, &a) != EH_OK)
        return NULL;
    int nd = x->ndim - 1 + indices->ndim;
    if (nd > EH_MAX_DIMS) {
        eh_set_error(EH_ERR_SHAPE, "gather: x of shape %s with indices of shape %s gives %d "
                     "dimensions (at most %d)", eh_shape_str(x->ndim, x->shape),
                     eh_shape_str(indices->ndim, indices->shape), nd, EH_MAX_DIMS);
        return NULL;
    }
    int64_t shape[EH_MAX_DIMS];
    int n = 0;
    for (int d = 0; d < a; d++)
        shape[n++] = x->shape[d];
    for (int d = 0; d < indices->ndim; d++)
        shape[n++] = indices->shape[d];
    for (int d = a + 1; d < x->ndim; d++)
        shape[n++] = x->shape[d];
    eh_tensor *cast;
    const eh_tensor *idx = in_dtype(indices, EH_I64, &cast);
    if (!idx)
        return NULL;
    eh_op_call call = eh__call(EH_OP_gather, 2, (const eh_tensor *const[]){x, idx});
    call.p.n_axes = 1;
    call.p.axes[0] = a;
    eh_tensor *out = eh__run(&call, nd, shape, x->dtype);
    eh_release(cast);
    return out;
}

/* ---- scatter ---------------------------------------------------------- */

/* max(indices) + 1, or 0 for no indices.  Reads the index data: the
 * output shape depends on it. */
static eh_status auto_dim_size(const eh_tensor *indices, int64_t *out)
{
    eh_status st = eh_materialize(indices);
    if (st != EH_OK)
        return st;
    int64_t best = -1;
    for (int64_t i = 0; i < indices->size; i++) {
        int64_t v = eh_load_i64(indices->data, indices->dtype, i);
        if (v > best)
            best = v;
    }
    if (best == INT64_MAX)
        return eh_set_error(EH_ERR_OVERFLOW, "scatter: max index %lld + 1 overflows int64_t",
                            (long long)best);
    /* Negative indices leave best at -1 (dim_size 0); the kernel reports them. */
    *out = best + 1;
    return EH_OK;
}

eh_tensor *eh_scatter(const eh_tensor *values, const eh_tensor *indices, int64_t dim_size,
                      eh_scatter_aggr aggr)
{
    static const char op[] = "scatter";
    if (!eh__require(op, values, "values") || !eh__require(op, indices, "indices"))
        return NULL;
    if ((int)aggr < (int)EH_SCATTER_ADD || (int)aggr > (int)EH_SCATTER_REPLACE) {
        eh_set_error(EH_ERR_INVALID_ARG, "scatter: unknown aggregation %d", (int)aggr);
        return NULL;
    }
    if (!is_int_dtype(indices->dtype)) {
        eh_set_error(EH_ERR_DTYPE, "scatter: indices must be i32 or i64, not %s",
                     eh_dtype_name(indices->dtype));
        return NULL;
    }
    if (values->ndim == 0) {
        eh_set_error(EH_ERR_SHAPE, "scatter: values must have at least 1 dimension, got shape ()");
        return NULL;
    }
    if (indices->ndim != 1 || indices->shape[0] != values->shape[0]) {
        eh_set_error(EH_ERR_SHAPE, "scatter: indices of shape %s do not match values of shape %s "
                     "(expected (%lld,))", eh_shape_str(indices->ndim, indices->shape),
                     eh_shape_str(values->ndim, values->shape), (long long)values->shape[0]);
        return NULL;
    }
    if (dim_size < EH_SCATTER_AUTO) {
        eh_set_error(EH_ERR_NEGATIVE_SIZE, "scatter: dim_size is %lld (use >= 0, or "
                     "EH_SCATTER_AUTO)", (long long)dim_size);
        return NULL;
    }
    if (dim_size == EH_SCATTER_AUTO && auto_dim_size(indices, &dim_size) != EH_OK)
        return NULL;

    eh_dtype out_dtype = values->dtype;
    if (aggr == EH_SCATTER_ADD && out_dtype == EH_BOOL)
        out_dtype = EH_I64;
    else if (aggr == EH_SCATTER_MEAN)
        out_dtype = eh__float_dtype(out_dtype);

    int64_t shape[EH_MAX_DIMS];
    memcpy(shape, values->shape, sizeof shape);
    shape[0] = dim_size;

    eh_tensor *vcast = NULL, *icast = NULL, *out = NULL;
    const eh_tensor *vals = in_dtype(values, out_dtype, &vcast);
    const eh_tensor *idx = vals ? in_dtype(indices, EH_I64, &icast) : NULL;
    if (idx) {
        eh_op_call call = eh__call(EH_OP_scatter, 2, (const eh_tensor *const[]){vals, idx});
        call.p.i[0] = (int64_t)aggr;
        out = eh__run(&call, values->ndim, shape, out_dtype);
    }
    eh_release(vcast);
    eh_release(icast);
    return out;
}

/* ---- triu / tril ------------------------------------------------------ */

static eh_tensor *triangle(eh_op opid, const eh_tensor *x, int64_t k)
{
    const char *op = eh_op_name(opid);
    if (!eh__require(op, x, "x"))
        return NULL;
    if (x->ndim < 2) {
        eh_set_error(EH_ERR_SHAPE, "%s: x must have at least 2 dimensions, got shape %s", op,
                     eh_shape_str(x->ndim, x->shape));
        return NULL;
    }
    eh_op_call call = eh__call(opid, 1, (const eh_tensor *const[]){x});
    call.p.i[0] = k;
    return eh__run(&call, x->ndim, x->shape, x->dtype);
}

eh_tensor *eh_triu(const eh_tensor *x, int64_t k) { return triangle(EH_OP_triu, x, k); }

eh_tensor *eh_tril(const eh_tensor *x, int64_t k) { return triangle(EH_OP_tril, x, k); }
