/* Frontend of the reduction group: sum mean prod max min var std argmax
 * argmin cumsum cumprod logsumexp softmax log_softmax norm allclose.
 *
 * Every op validates its axes and arguments, decides the dtypes, casts x to
 * the compute dtype and dispatches.  Kernels never see mixed dtypes: the
 * input arrives in the compute dtype, which equals the output dtype except
 * for argmax/argmin (output i64) and allclose (output bool).
 *
 *   op                       compute = output dtype
 *   sum prod cumsum cumprod  floats keep theirs; bool, i32, i64 -> i64
 *   mean var std logsumexp
 *   softmax log_softmax norm floats keep theirs; bool, i32, i64 -> f64
 *   max min                  x's dtype (any)
 *   argmax argmin            x's dtype (any); output i64
 *   allclose                 a and b both in eh_result_type(a, b); output bool
 *
 * ---- eh_op_call.p contract (other backends implement exactly this) ----
 *
 * "Reduced axes" below are p.axes[0 .. p.n_axes): distinct, valid axes of
 * the input, ascending unless said otherwise.  A lane is the set of input
 * elements that share the indices of the other (kept) axes; lanes are
 * visited in row-major order of the kept axes, which is the row-major
 * order of the output for reductions (keepdims or not: size-1 dims do not
 * change the order).  n_axes may be 0 (a 0-d input): each lane is then
 * one element.
 *
 * sum, prod, mean, max, min, logsumexp
 *     p.axes/p.n_axes reduced axes; p.keepdims (informational: the output
 *     is already shaped).  max/min never see a zero-length reduced axis.
 * var, std
 *     as above; p.i[0] = ddof (divisor max(N - ddof, 0), int64, any value).
 * argmax, argmin
 *     as above; the result is the position within the lane in row-major
 *     order over the reduced axes (one axis, or every axis for the
 *     flattened form, which gives the flat index).  Never a zero-length
 *     reduced axis.
 * cumsum, cumprod
 *     p.n_axes = 1, p.axes[0] = the scan axis OF THE OUTPUT.  The output
 *     has x's size; x is read in row-major order as if it had the
 *     output's shape (for the flattened form the output is 1-D (size,)
 *     and p.axes[0] = 0).
 * softmax, log_softmax
 *     p.axes/p.n_axes = the axes a group spans (one axis, or all axes for
 *     the _flat forms); output shape = x's shape.
 * norm
 *     p.i[0] = ord (eh_norm_ord value), p.keepdims, and
 *     p.i[1] = 0: vector form.  p.axes/p.n_axes ascending; ord is one of
 *              EH_NORM_2, _1, _INF, _NEG_INF, _FRO (2 == FRO here).
 *              INF/NEG_INF never see an empty lane.
 *     p.i[1] = 1: matrix form.  p.n_axes = 2, p.axes[0] = the row axis,
 *              p.axes[1] = the column axis, in the CALLER's order (not
 *              sorted); ord is EH_NORM_2, _1, _INF, _NEG_INF or _NUC.
 *              Lanes (matrices) are visited in row-major order of the
 *              kept axes.  The frontend has already rejected the empty
 *              matrices NumPy rejects (1 without columns, INF/NEG_INF
 *              without rows, 2 without rows or columns).
 * allclose
 *     inputs a and b (same dtype, broadcast-compatible); p.f[0] = rtol,
 *     p.f[1] = atol, p.i[0] = equal_nan (0/1), p.i[1] = ndim of the
 *     broadcast shape, p.v[0 .. p.i[1]) = the broadcast shape.  Output
 *     0-d bool.
 *
 * Values a kernel must produce (docs/ops/reduction.md has the rest):
 * empty lanes give sum 0, prod 1, mean/var/std NaN, logsumexp -inf, norm 0
 * (every empty norm that reaches a kernel is 0); integer sums/products
 * wrap; NaN propagates through max/min and wins argmax/argmin (first NaN);
 * ties in argmax/argmin pick the first; var divides by N - ddof and gives
 * inf (sum of squares > 0) or NaN when that is <= 0; logsumexp and
 * log_softmax shift by the max, or by 0 when the max is not finite;
 * softmax shifts by the max as is.  An output may hold 0 elements: then
 * there is nothing to do (the input may still be non-empty).
 */
#include <stdio.h>
#include <string.h>
#include "internal.h"

/* Append " (x: shape ..., dtype)" to the error just recorded, so axis
 * errors from the shared helpers name the tensor involved. */
static void annotate(const eh_tensor *x)
{
    char msg[512];
    eh_status code = eh_last_error();
    snprintf(msg, sizeof msg, "%s", eh_error_message());
    eh_set_error(code, "%s (x has shape %s, dtype %s)", msg, eh_shape_str(x->ndim, x->shape),
                 eh_dtype_name(x->dtype));
}

/* Normalize an axes set into (axes, *n) ascending.  EH_ERR_AXIS for a
 * negative count, EH_ERR_NULL_ARG for NULL axes with a positive count. */
static eh_status get_axes(const char *op, const eh_tensor *x, const int *axes, int n_axes,
                          int *out, int *n)
{
    if (n_axes < 0) {
        eh_set_error(EH_ERR_AXIS, "%s: n_axes is %d (negative)", op, n_axes);
        annotate(x);
        return EH_ERR_AXIS;
    }
    if (!axes && n_axes > 0)
        return eh_set_error(EH_ERR_NULL_ARG, "%s: argument 'axes' is NULL but n_axes is %d", op,
                            n_axes);
    if (eh__normalize_axes(op, axes, n_axes, x->ndim, out, n) != EH_OK) {
        annotate(x);
        return EH_ERR_AXIS;
    }
    return EH_OK;
}

/* One axis, or every axis for the _flat forms. */
static eh_status get_axis(const char *op, const eh_tensor *x, int flat, int axis, int *out,
                          int *n)
{
    if (flat)
        return eh__normalize_axes(op, NULL, 0, x->ndim, out, n);
    if (eh__normalize_axis(op, axis, x->ndim, &out[0]) != EH_OK) {
        annotate(x);
        return EH_ERR_AXIS;
    }
    *n = 1;
    return EH_OK;
}

/* Output shape of reducing x over the n (ascending) axes. */
static void reduced_shape(const eh_tensor *x, const int *axes, int n, int keepdims, int *ndim,
                          int64_t *shape)
{
    eh__reduced_shape(x->ndim, x->shape, axes, n, keepdims, ndim, shape);
}

/* EH_ERR_SHAPE when one of the axes has length 0 (an op without identity). */
static eh_status check_nonempty(const char *op, const eh_tensor *x, const int *axes, int n)
{
    for (int k = 0; k < n; k++)
        if (x->shape[axes[k]] == 0)
            return eh_set_error(EH_ERR_SHAPE,
                                "%s: zero-size reduction: axis %d of shape %s has length 0 and "
                                "%s has no identity",
                                op, axes[k], eh_shape_str(x->ndim, x->shape), op);
    return EH_OK;
}

static eh_dtype sum_dtype(eh_dtype d) { return eh_dtype_is_float(d) ? d : EH_I64; }

/* Cast x to `compute`, run the call with one output, release the cast. */
static eh_tensor *run_one(eh_op_call *call, const eh_tensor *x, eh_dtype compute, int ndim,
                          const int64_t *shape, eh_dtype out_dtype)
{
    eh_tensor *cx = eh__as_dtype(x, compute);
    if (!cx)
        return NULL;
    const eh_tensor *in[1] = {cx};
    call->n_in = 1;
    call->in = in;
    eh_tensor *out = eh__run(call, ndim, shape, out_dtype);
    call->in = NULL;
    eh_tensor_unref(cx);
    return out;
}

/* The common path of the axes-set reductions. */
static eh_tensor *reduce(eh_op op, const eh_tensor *x, const int *axes, int n_axes,
                         int keepdims, int64_t ddof)
{
    const char *name = eh_op_name(op);
    if (!eh__require(name, x, "x"))
        return NULL;
    eh_op_call call = eh__call(op, 1, NULL);
    if (get_axes(name, x, axes, n_axes, call.p.axes, &call.p.n_axes) != EH_OK)
        return NULL;
    eh_dtype dt;
    switch (op) {
    case EH_OP_sum: case EH_OP_prod: dt = sum_dtype(x->dtype); break;
    case EH_OP_max: case EH_OP_min:
        if (check_nonempty(name, x, call.p.axes, call.p.n_axes) != EH_OK)
            return NULL;
        dt = x->dtype;
        break;
    default: dt = eh__float_dtype(x->dtype); break;
    }
    call.p.keepdims = keepdims != 0;
    call.p.i[0] = ddof;
    int nd;
    int64_t shape[EH_MAX_DIMS];
    reduced_shape(x, call.p.axes, call.p.n_axes, call.p.keepdims, &nd, shape);
    return run_one(&call, x, dt, nd, shape, dt);
}

eh_tensor *eh_sum(const eh_tensor *x, const int *axes, int n_axes, int keepdims)
{
    return reduce(EH_OP_sum, x, axes, n_axes, keepdims, 0);
}

eh_tensor *eh_prod(const eh_tensor *x, const int *axes, int n_axes, int keepdims)
{
    return reduce(EH_OP_prod, x, axes, n_axes, keepdims, 0);
}

eh_tensor *eh_mean(const eh_tensor *x, const int *axes, int n_axes, int keepdims)
{
    return reduce(EH_OP_mean, x, axes, n_axes, keepdims, 0);
}

eh_tensor *eh_max(const eh_tensor *x, const int *axes, int n_axes, int keepdims)
{
    return reduce(EH_OP_max, x, axes, n_axes, keepdims, 0);
}

eh_tensor *eh_min(const eh_tensor *x, const int *axes, int n_axes, int keepdims)
{
    return reduce(EH_OP_min, x, axes, n_axes, keepdims, 0);
}

eh_tensor *eh_var(const eh_tensor *x, const int *axes, int n_axes, int64_t ddof, int keepdims)
{
    return reduce(EH_OP_var, x, axes, n_axes, keepdims, ddof);
}

eh_tensor *eh_std(const eh_tensor *x, const int *axes, int n_axes, int64_t ddof, int keepdims)
{
    return reduce(EH_OP_std, x, axes, n_axes, keepdims, ddof);
}

eh_tensor *eh_logsumexp(const eh_tensor *x, const int *axes, int n_axes, int keepdims)
{
    return reduce(EH_OP_logsumexp, x, axes, n_axes, keepdims, 0);
}

static eh_tensor *arg_reduce(eh_op op, const eh_tensor *x, int flat, int axis, int keepdims)
{
    const char *name = eh_op_name(op);
    if (!eh__require(name, x, "x"))
        return NULL;
    eh_op_call call = eh__call(op, 1, NULL);
    if (get_axis(name, x, flat, axis, call.p.axes, &call.p.n_axes) != EH_OK)
        return NULL;
    for (int k = 0; k < call.p.n_axes; k++)
        if (x->shape[call.p.axes[k]] == 0) {
            eh_set_error(EH_ERR_SHAPE, "%s: attempt to get %s of an empty sequence (shape %s%s)",
                         name, name, eh_shape_str(x->ndim, x->shape),
                         flat ? ", flattened" : "");
            return NULL;
        }
    call.p.keepdims = keepdims != 0;
    int nd;
    int64_t shape[EH_MAX_DIMS];
    reduced_shape(x, call.p.axes, call.p.n_axes, call.p.keepdims, &nd, shape);
    return run_one(&call, x, x->dtype, nd, shape, EH_I64);
}

eh_tensor *eh_argmax(const eh_tensor *x, int axis, int keepdims)
{
    return arg_reduce(EH_OP_argmax, x, 0, axis, keepdims);
}

eh_tensor *eh_argmin(const eh_tensor *x, int axis, int keepdims)
{
    return arg_reduce(EH_OP_argmin, x, 0, axis, keepdims);
}

eh_tensor *eh_argmax_flat(const eh_tensor *x, int keepdims)
{
    return arg_reduce(EH_OP_argmax, x, 1, 0, keepdims);
}

eh_tensor *eh_argmin_flat(const eh_tensor *x, int keepdims)
{
    return arg_reduce(EH_OP_argmin, x, 1, 0, keepdims);
}

static eh_tensor *scan(eh_op op, const eh_tensor *x, int flat, int axis)
{
    const char *name = eh_op_name(op);
    if (!eh__require(name, x, "x"))
        return NULL;
    eh_op_call call = eh__call(op, 1, NULL);
    eh_dtype dt = sum_dtype(x->dtype);
    call.p.n_axes = 1;
    if (flat) {
        call.p.axes[0] = 0;
        return run_one(&call, x, dt, 1, &x->size, dt);
    }
    if (eh__normalize_axis(name, axis, x->ndim, &call.p.axes[0]) != EH_OK) {
        annotate(x);
        return NULL;
    }
    return run_one(&call, x, dt, x->ndim, x->shape, dt);
}

eh_tensor *eh_cumsum(const eh_tensor *x, int axis) { return scan(EH_OP_cumsum, x, 0, axis); }
eh_tensor *eh_cumprod(const eh_tensor *x, int axis) { return scan(EH_OP_cumprod, x, 0, axis); }
eh_tensor *eh_cumsum_flat(const eh_tensor *x) { return scan(EH_OP_cumsum, x, 1, 0); }
eh_tensor *eh_cumprod_flat(const eh_tensor *x) { return scan(EH_OP_cumprod, x, 1, 0); }

static eh_tensor *softmax_like(eh_op op, const eh_tensor *x, int flat, int axis)
{
    const char *name = eh_op_name(op);
    if (!eh__require(name, x, "x"))
        return NULL;
    eh_op_call call = eh__call(op, 1, NULL);
    if (get_axis(name, x, flat, axis, call.p.axes, &call.p.n_axes) != EH_OK)
        return NULL;
    eh_dtype dt = eh__float_dtype(x->dtype);
    return run_one(&call, x, dt, x->ndim, x->shape, dt);
}

eh_tensor *eh_softmax(const eh_tensor *x, int axis)
{
    return softmax_like(EH_OP_softmax, x, 0, axis);
}

eh_tensor *eh_log_softmax(const eh_tensor *x, int axis)
{
    return softmax_like(EH_OP_log_softmax, x, 0, axis);
}

eh_tensor *eh_softmax_flat(const eh_tensor *x) { return softmax_like(EH_OP_softmax, x, 1, 0); }

eh_tensor *eh_log_softmax_flat(const eh_tensor *x)
{
    return softmax_like(EH_OP_log_softmax, x, 1, 0);
}

static const char *ord_name(eh_norm_ord ord)
{
    switch (ord) {
    case EH_NORM_2: return "2";
    case EH_NORM_1: return "1";
    case EH_NORM_INF: return "inf";
    case EH_NORM_FRO: return "fro";
    case EH_NORM_NEG_INF: return "-inf";
    case EH_NORM_NUC: return "nuc";
    }
    return "?";
}

eh_tensor *eh_norm(const eh_tensor *x, eh_norm_ord ord, const int *axes, int n_axes,
                   int keepdims)
{
    if (!eh__require("norm", x, "x"))
        return NULL;
    if ((unsigned)ord > (unsigned)EH_NORM_NUC) {
        eh_set_error(EH_ERR_INVALID_ARG, "norm: %d is not an eh_norm_ord", (int)ord);
        return NULL;
    }
    eh_op_call call = eh__call(EH_OP_norm, 1, NULL);
    int sorted[EH_MAX_DIMS], n;
    if (get_axes("norm", x, axes, n_axes, sorted, &n) != EH_OK)
        return NULL;
    int matrix = 0;
    if (ord != EH_NORM_FRO) {
        if (n != 1 && n != 2) {
            if (axes && n_axes > 0)
                eh_set_error(EH_ERR_AXIS, "norm: ord %s takes 1 axis (vector) or 2 (matrix), got %d "
                             "(x has shape %s)", ord_name(ord), n_axes,
                             eh_shape_str(x->ndim, x->shape));
            else
                eh_set_error(EH_ERR_SHAPE, "norm: ord %s over all axes needs a 1-D or 2-D tensor, "
                             "got shape %s", ord_name(ord), eh_shape_str(x->ndim, x->shape));
            return NULL;
        }
        matrix = n == 2;
    }
    if (!matrix) {
        if (ord == EH_NORM_NUC) {
            eh_set_error(EH_ERR_INVALID_ARG, "norm: ord nuc is a matrix norm and needs 2 axes, "
                         "got 1 (x has shape %s)", eh_shape_str(x->ndim, x->shape));
            return NULL;
        }
        if ((ord == EH_NORM_INF || ord == EH_NORM_NEG_INF) &&
            check_nonempty("norm", x, sorted, n) != EH_OK)
            return NULL;
        memcpy(call.p.axes, sorted, sizeof sorted);
        call.p.n_axes = n;
    } else {
        /* rows, columns in the caller's order */
        if (axes && n_axes > 0) {
            /* already validated by get_axes */
            (void)eh__normalize_axis("norm", axes[0], x->ndim, &call.p.axes[0]);
            (void)eh__normalize_axis("norm", axes[1], x->ndim, &call.p.axes[1]);
        } else {
            call.p.axes[0] = 0;
            call.p.axes[1] = 1;
        }
        call.p.n_axes = 2;
        int64_t rows = x->shape[call.p.axes[0]], cols = x->shape[call.p.axes[1]];
        int empty_axis = -1;
        if (ord == EH_NORM_1 && cols == 0)
            empty_axis = call.p.axes[1];
        else if ((ord == EH_NORM_INF || ord == EH_NORM_NEG_INF) && rows == 0)
            empty_axis = call.p.axes[0];
        else if (ord == EH_NORM_2 && (rows == 0 || cols == 0))
            empty_axis = rows == 0 ? call.p.axes[0] : call.p.axes[1];
        if (empty_axis >= 0) {
            eh_set_error(EH_ERR_SHAPE, "norm: matrix norm ord %s of an empty matrix: axis %d of "
                         "shape %s has length 0", ord_name(ord), empty_axis,
                         eh_shape_str(x->ndim, x->shape));
            return NULL;
        }
    }
    call.p.i[0] = ord;
    call.p.i[1] = matrix;
    call.p.keepdims = keepdims != 0;
    int nd;
    int64_t shape[EH_MAX_DIMS];
    reduced_shape(x, sorted, n, call.p.keepdims, &nd, shape);
    eh_dtype dt = eh__float_dtype(x->dtype);
    return run_one(&call, x, dt, nd, shape, dt);
}

eh_tensor *eh_allclose(const eh_tensor *a, const eh_tensor *b, double rtol, double atol,
                       int equal_nan)
{
    if (!eh__require("allclose", a, "a") || !eh__require("allclose", b, "b"))
        return NULL;
    const eh_tensor *ops[2] = {a, b};
    int nd;
    int64_t shape[EH_MAX_DIMS];
    eh_dtype dt;
    if (eh__broadcast_shapes("allclose", 2, ops, &nd, shape) != EH_OK ||
        eh_result_type(a->dtype, b->dtype, &dt) != EH_OK)
        return NULL;
    eh_tensor *ca = eh__as_dtype(a, dt);
    eh_tensor *cb = ca ? eh__as_dtype(b, dt) : NULL;
    eh_tensor *out = NULL;
    if (cb) {
        const eh_tensor *in[2] = {ca, cb};
        eh_op_call call = eh__call(EH_OP_allclose, 2, in);
        call.p.f[0] = rtol;
        call.p.f[1] = atol;
        call.p.i[0] = equal_nan != 0;
        call.p.i[1] = nd;
        for (int d = 0; d < nd; d++)
            call.p.v[d] = shape[d];
        out = eh__run(&call, 0, NULL, EH_BOOL);
    }
    eh_tensor_unref(ca);
    eh_tensor_unref(cb);
    return out;
}

int eh_allclose_int(const eh_tensor *a, const eh_tensor *b, double rtol, double atol,
                    int equal_nan)
{
    eh_tensor *r = eh_allclose(a, b, rtol, atol, equal_nan);
    if (!r)
        return -1;
    double v = eh_item(r);
    eh_release(r);
    if (v != v)
        return -1;
    return v != 0.0;
}
