/* Frontend of the linear-algebra ops (LINALG in ops.def): matmul, dot,
 * outer, solve, inv, det, cholesky, qr, svd, eigh, lstsq.
 *
 * The frontend validates dtypes and shapes and computes every output's
 * shape; kernels trust it.  Operands are never cast: both operands of a
 * two-input op have the same dtype (EH_ERR_DTYPE otherwise), and every
 * output has the inputs' dtype.  Only data-dependent failures come from
 * kernels (EH_ERR_LINALG: singular, not positive definite, NaN/Inf or no
 * convergence in svd/eigh/lstsq; EH_ERR_NOMEM for scratch memory).
 *
 * ---- Contract for backends: inputs, outputs and eh_op_call.p ------------
 *
 * "Batch shape" below is the NumPy broadcast of the operands' leading
 * (non-matrix) dimensions.  An operand's own batch dims are right-aligned
 * against it; a dim of 1 (or a missing dim) is broadcast.  Matrices are
 * dense row-major, consecutive in the batch order.
 *
 * matmul   in: a, b (same dtype: f16 f32 f64 i32 i64 bool).  out[0]: same dtype.
 *          p.i[0] = n  rows of a's matrices (1 when a is 1-D)
 *          p.i[1] = k  inner dimension
 *          p.i[2] = m  columns of b's matrices (1 when b is 1-D)
 *          p.i[3] = bnd, p.v[0 .. bnd) = batch shape
 *          a's batch dims are a->shape[0 .. a->ndim - 2) (none when a is 1-D),
 *          b's likewise.  out is batch + (n, m) with n omitted when a is 1-D
 *          and m omitted when b is 1-D; its storage is batch x n x m either way.
 *          out[..., i, j] = sum over t < k of a[..., i, t] * b[..., t, j].
 *          f16: loaded to f32, accumulated in f32, stored as f16.  f32
 *          accumulates in f32, f64 in f64 (summation order is free).
 *          i32/i64 wrap modulo 2^32 / 2^64.  bool: OR over t of (a AND b).
 * dot      in: a, b (same dtype, any).  out[0]: same dtype.
 *          p.i[0] = P, p.i[1] = K, p.i[2] = Q, p.i[3] = M: a is read as a
 *          P x K matrix, b as Q matrices of K x M, out as P x Q x M:
 *            out[(p*Q + q)*M + j] = sum over t < K of a[p*K + t] * b[(q*K + t)*M + j]
 *          (the frontend maps every NumPy dot case onto this; a 0-d operand
 *          is K = 1).  Arithmetic as for matmul.
 * outer    in: a, b (same dtype, any).  out[0]: (a->size, b->size), same dtype.
 *          out[i*b->size + j] = a[i] * b[j].  p unused.
 * solve    in: a (..., n, n), b; f32 or f64, same dtype.  out[0]: x.
 *          p.i[0] = n, p.i[1] = k (1 for a vector b), p.i[2] = 1 when b is
 *          the vector form (b->ndim == 1, no batch dims of its own), else 0;
 *          p.i[3] = bnd, p.v[0 .. bnd) = batch shape.  out is batch + (n,)
 *          (vector form) or batch + (n, k).  Exactly zero pivot after
 *          partial pivoting (LAPACK getrf's test): EH_ERR_LINALG.
 * inv      in: a (..., n, n) f32/f64.  out[0]: same shape.  p unused.
 *          Singular as for solve: EH_ERR_LINALG.
 * det      in: a (..., n, n).  out[0]: (...) (0-d for one matrix).  p unused.
 *          Singular gives 0, n == 0 gives 1.
 * cholesky in: a (..., n, n).  out[0]: lower L, zeros above the diagonal.
 *          Reads a's lower triangle only.  A pivot that is not > 0 (NaN
 *          included): EH_ERR_LINALG.  p unused.
 * qr       in: a (..., m, n).  out[0] = q (..., m, k), out[1] = r (..., k, n),
 *          k = min(m, n).  Sign convention: r[i, i] >= 0.  p unused.
 * svd      in: a (..., m, n).  p.i[0] = full_matrices (0 or 1).
 *          out[0] = u (..., m, k) or (..., m, m); out[1] = s (..., k);
 *          out[2] = vt (..., k, n) or (..., n, n).  s descending.  Sign
 *          convention on u's columns (vt's rows flipped to match); extra
 *          columns of a full u and extra rows of a full vt are normalized
 *          the same way on their own.  NaN/Inf: EH_ERR_LINALG.
 * eigh     in: a (..., n, n), lower triangle read.  out[0] = w (..., n)
 *          ascending; out[1] = v (..., n, n), eigenvectors in columns, sign
 *          convention per column.  NaN/Inf: EH_ERR_LINALG.  p unused.
 * lstsq    in: a (..., m, n), b; f32 or f64, same dtype.  out[0]: x.
 *          p.i[0] = m, p.i[1] = n, p.i[2] = k (1 for a vector b),
 *          p.i[3] = 1 when b is the vector form (b->ndim == 1), else 0;
 *          p.i[4] = bnd, p.v[0 .. bnd) = batch shape;
 *          p.f[0] = rcond: singular values s <= rcond * max(s) count as 0.
 *          out is batch + (n,) or batch + (n, k).  Minimum-norm solution.
 *          NaN/Inf: EH_ERR_LINALG.
 *
 * Sign convention ("largest entry positive") used by svd and eigh: in a
 * vector x, the chosen entry is the FIRST index i with
 * |x[i]| >= (1 - sqrt(eps)) * max |x|, eps = 2^-23 for f32 and 2^-52 for
 * f64; if x[i] < 0 the vector (and its partner) is negated.
 *
 * Precision: ref computes every decomposition of f32 inputs in f64 and
 * rounds the results (as NumPy does); a backend computing in f32 must
 * still apply the same conventions. */
#include <float.h>
#include "internal.h"

/* ---- shared validation --------------------------------------------------- */

static eh_status same_dtype(const char *op, const eh_tensor *a, const eh_tensor *b)
{
    if (a->dtype != b->dtype)
        return eh_set_error(EH_ERR_DTYPE,
                            "%s: dtypes %s and %s differ (both operands must have the same dtype)",
                            op, eh_dtype_name(a->dtype), eh_dtype_name(b->dtype));
    return EH_OK;
}

/* Decompositions take f32 and f64 only. */
static eh_status float_only(const char *op, const eh_tensor *t, const char *arg)
{
    if (t->dtype == EH_F32 || t->dtype == EH_F64)
        return EH_OK;
    if (t->dtype == EH_F16)
        return eh_set_error(EH_ERR_DTYPE,
                            "%s: '%s' has dtype f16, which linear algebra does not accept "
                            "(f32 or f64 only, as NumPy's linalg); cast to f32 first",
                            op, arg);
    return eh_set_error(EH_ERR_DTYPE, "%s: '%s' has dtype %s; f32 or f64 required (cast first)",
                        op, arg, eh_dtype_name(t->dtype));
}

/* At least two dimensions. */
static eh_status need_matrix(const char *op, const eh_tensor *t, const char *arg)
{
    if (t->ndim < 2)
        return eh_set_error(EH_ERR_SHAPE,
                            "%s: '%s' must have at least 2 dimensions (a matrix or a batch of "
                            "matrices), got shape %s",
                            op, arg, eh_shape_str(t->ndim, t->shape));
    return EH_OK;
}

static eh_status need_square(const char *op, const eh_tensor *t, const char *arg)
{
    if (need_matrix(op, t, arg) != EH_OK)
        return EH_ERR_SHAPE;
    if (t->shape[t->ndim - 1] != t->shape[t->ndim - 2])
        return eh_set_error(EH_ERR_SHAPE,
                            "%s: '%s' must be square in its last two dimensions, got shape %s",
                            op, arg, eh_shape_str(t->ndim, t->shape));
    return EH_OK;
}

/* Broadcast the batch dims (the first nba of a, nbb of b) into (*nd, out);
 * messages name both operands' full shapes. */
static eh_status broadcast_batch(const char *op, const eh_tensor *a, int nba,
                                 const eh_tensor *b, int nbb, int *nd, int64_t *out)
{
    int n = nba > nbb ? nba : nbb;
    for (int d = 0; d < n; d++) {
        int da = d - (n - nba), db = d - (n - nbb);
        int64_t x = da >= 0 ? a->shape[da] : 1, y = db >= 0 ? b->shape[db] : 1;
        if (x != y && x != 1 && y != 1)
            return eh_set_error(EH_ERR_SHAPE,
                                "%s: batch dimensions of shapes %s and %s cannot be broadcast "
                                "together",
                                op, eh_shape_str(a->ndim, a->shape),
                                eh_shape_str(b->ndim, b->shape));
        out[d] = x == 1 ? y : x;
    }
    *nd = n;
    return EH_OK;
}

static void set_batch(eh_params *p, int slot, int nd, const int64_t *batch)
{
    p->i[slot] = nd;
    for (int d = 0; d < nd; d++)
        p->v[d] = batch[d];
}

/* Two tensor arguments present?  (eh__require keeps an earlier error.) */
static int require2(const char *op, const eh_tensor *a, const eh_tensor *b)
{
    return eh__require(op, a, "a") && eh__require(op, b, "b");
}

/* ---- products ---------------------------------------------------------- */

eh_tensor *eh_matmul(const eh_tensor *a, const eh_tensor *b)
{
    const char *op = "matmul";
    if (!require2(op, a, b) || same_dtype(op, a, b) != EH_OK)
        return NULL;
    if (a->ndim == 0 || b->ndim == 0) {
        eh_set_error(EH_ERR_SHAPE,
                     "%s: operands must have at least 1 dimension, got shapes %s and %s "
                     "(use multiply for scalars)",
                     op, eh_shape_str(a->ndim, a->shape), eh_shape_str(b->ndim, b->shape));
        return NULL;
    }
    int a_vec = a->ndim == 1, b_vec = b->ndim == 1;
    int64_t n = a_vec ? 1 : a->shape[a->ndim - 2];
    int64_t ka = a->shape[a->ndim - 1];
    int64_t kb = b_vec ? b->shape[0] : b->shape[b->ndim - 2];
    int64_t m = b_vec ? 1 : b->shape[b->ndim - 1];
    if (ka != kb) {
        eh_set_error(EH_ERR_SHAPE, "%s: shapes %s and %s are not aligned: %lld (dim %d) != %lld (dim %d)",
                     op, eh_shape_str(a->ndim, a->shape), eh_shape_str(b->ndim, b->shape),
                     (long long)ka, a->ndim - 1, (long long)kb, b_vec ? 0 : b->ndim - 2);
        return NULL;
    }
    int bnd;
    int64_t shape[EH_MAX_DIMS];
    if (broadcast_batch(op, a, a_vec ? 0 : a->ndim - 2, b, b_vec ? 0 : b->ndim - 2, &bnd,
                        shape) != EH_OK)
        return NULL;
    const eh_tensor *in[2] = {a, b};
    eh_op_call call = eh__call(EH_OP_matmul, 2, in);
    call.p.i[0] = n;
    call.p.i[1] = ka;
    call.p.i[2] = m;
    set_batch(&call.p, 3, bnd, shape);
    int nd = bnd;
    if (!a_vec)
        shape[nd++] = n;
    if (!b_vec)
        shape[nd++] = m;
    return eh__run(&call, nd, shape, a->dtype);
}

/* Product of n dims; -1 when it overflows. */
static int64_t prod(const int64_t *shape, int n)
{
    int64_t p = 1;
    for (int d = 0; d < n; d++)
        if (shape[d] == 0)
            return 0;
    for (int d = 0; d < n; d++) {
        if (p > INT64_MAX / shape[d])
            return -1;
        p *= shape[d];
    }
    return p;
}

eh_tensor *eh_dot(const eh_tensor *a, const eh_tensor *b)
{
    const char *op = "dot";
    if (!require2(op, a, b) || same_dtype(op, a, b) != EH_OK)
        return NULL;
    int64_t P, K, Q, M, shape[2 * EH_MAX_DIMS];
    int nd = 0;
    if (a->ndim == 0 || b->ndim == 0) {
        /* Product with a scalar: the other operand's shape. */
        const eh_tensor *t = a->ndim == 0 ? b : a;
        K = 1;
        M = 1;
        P = a->ndim == 0 ? 1 : a->size;
        Q = a->ndim == 0 ? b->size : 1;
        for (int d = 0; d < t->ndim; d++)
            shape[nd++] = t->shape[d];
    } else {
        int64_t ka = a->shape[a->ndim - 1];
        int64_t kb = b->ndim == 1 ? b->shape[0] : b->shape[b->ndim - 2];
        if (ka != kb) {
            eh_set_error(EH_ERR_SHAPE,
                         "%s: shapes %s and %s are not aligned: %lld (dim %d) != %lld (dim %d)", op,
                         eh_shape_str(a->ndim, a->shape), eh_shape_str(b->ndim, b->shape),
                         (long long)ka, a->ndim - 1, (long long)kb,
                         b->ndim == 1 ? 0 : b->ndim - 2);
            return NULL;
        }
        K = ka;
        P = prod(a->shape, a->ndim - 1);
        for (int d = 0; d < a->ndim - 1; d++)
            shape[nd++] = a->shape[d];
        if (b->ndim == 1) {
            Q = 1;
            M = 1;
        } else {
            Q = prod(b->shape, b->ndim - 2);
            M = b->shape[b->ndim - 1];
            for (int d = 0; d < b->ndim - 2; d++)
                shape[nd++] = b->shape[d];
            shape[nd++] = M;
        }
        if (nd > EH_MAX_DIMS) {
            eh_set_error(EH_ERR_SHAPE, "%s: shapes %s and %s give a result of %d dimensions (at most %d)",
                         op, eh_shape_str(a->ndim, a->shape), eh_shape_str(b->ndim, b->shape), nd,
                         EH_MAX_DIMS);
            return NULL;
        }
    }
    if (P < 0 || Q < 0) {
        /* Overflowing sub-products: the result is either too big (the shape
         * check reports EH_ERR_OVERFLOW) or empty (nothing to compute). */
        int64_t size;
        if (eh__check_shape(op, nd, shape, a->dtype, &size) != EH_OK)
            return NULL;
        P = P < 0 ? 0 : P;
        Q = Q < 0 ? 0 : Q;
    }
    const eh_tensor *in[2] = {a, b};
    eh_op_call call = eh__call(EH_OP_dot, 2, in);
    call.p.i[0] = P;
    call.p.i[1] = K;
    call.p.i[2] = Q;
    call.p.i[3] = M;
    return eh__run(&call, nd, shape, a->dtype);
}

eh_tensor *eh_outer(const eh_tensor *a, const eh_tensor *b)
{
    const char *op = "outer";
    if (!require2(op, a, b) || same_dtype(op, a, b) != EH_OK)
        return NULL;
    const eh_tensor *in[2] = {a, b};
    eh_op_call call = eh__call(EH_OP_outer, 2, in);
    int64_t shape[2] = {a->size, b->size};
    return eh__run(&call, 2, shape, a->dtype);
}

/* ---- solvers ------------------------------------------------------------- */

/* Shared by solve and lstsq: a (..., m, n), b (m,) or (..., m, k).  Fills
 * the batch shape and the output shape. */
static eh_status rhs_shapes(const char *op, const eh_tensor *a, const eh_tensor *b,
                            int *vec, int64_t *k, int *bnd, int64_t *batch)
{
    int64_t m = a->shape[a->ndim - 2];
    if (b->ndim == 0)
        return eh_set_error(EH_ERR_SHAPE, "%s: 'b' must have at least 1 dimension, got shape %s",
                            op, eh_shape_str(b->ndim, b->shape));
    *vec = b->ndim == 1;
    int64_t mb = *vec ? b->shape[0] : b->shape[b->ndim - 2];
    if (mb != m)
        return eh_set_error(EH_ERR_SHAPE,
                            "%s: shapes %s and %s do not match: a has %lld rows, b has %lld "
                            "(b is %s)",
                            op, eh_shape_str(a->ndim, a->shape), eh_shape_str(b->ndim, b->shape),
                            (long long)m, (long long)mb,
                            *vec ? "a vector (m,)" : "matrices (..., m, k)");
    *k = *vec ? 1 : b->shape[b->ndim - 1];
    return broadcast_batch(op, a, a->ndim - 2, b, *vec ? 0 : b->ndim - 2, bnd, batch);
}

static int solver_args(const char *op, const eh_tensor *a, const eh_tensor *b)
{
    return require2(op, a, b) && float_only(op, a, "a") == EH_OK &&
           float_only(op, b, "b") == EH_OK && same_dtype(op, a, b) == EH_OK;
}

eh_tensor *eh_solve(const eh_tensor *a, const eh_tensor *b)
{
    const char *op = "solve";
    int vec, bnd;
    int64_t k, shape[EH_MAX_DIMS];
    if (!solver_args(op, a, b) || need_square(op, a, "a") != EH_OK ||
        rhs_shapes(op, a, b, &vec, &k, &bnd, shape) != EH_OK)
        return NULL;
    int64_t n = a->shape[a->ndim - 1];
    const eh_tensor *in[2] = {a, b};
    eh_op_call call = eh__call(EH_OP_solve, 2, in);
    call.p.i[0] = n;
    call.p.i[1] = k;
    call.p.i[2] = vec;
    set_batch(&call.p, 3, bnd, shape);
    int nd = bnd;
    shape[nd++] = n;
    if (!vec)
        shape[nd++] = k;
    return eh__run(&call, nd, shape, a->dtype);
}

eh_tensor *eh_lstsq(const eh_tensor *a, const eh_tensor *b)
{
    const char *op = "lstsq";
    int vec, bnd;
    int64_t k, shape[EH_MAX_DIMS];
    if (!solver_args(op, a, b) || need_matrix(op, a, "a") != EH_OK ||
        rhs_shapes(op, a, b, &vec, &k, &bnd, shape) != EH_OK)
        return NULL;
    int64_t m = a->shape[a->ndim - 2], n = a->shape[a->ndim - 1];
    const eh_tensor *in[2] = {a, b};
    eh_op_call call = eh__call(EH_OP_lstsq, 2, in);
    call.p.i[0] = m;
    call.p.i[1] = n;
    call.p.i[2] = k;
    call.p.i[3] = vec;
    set_batch(&call.p, 4, bnd, shape);
    /* NumPy's default: eps of the f64 computation type times max(m, n). */
    call.p.f[0] = DBL_EPSILON * (double)(m > n ? m : n);
    int nd = bnd;
    shape[nd++] = n;
    if (!vec)
        shape[nd++] = k;
    return eh__run(&call, nd, shape, a->dtype);
}

/* ---- single-matrix decompositions --------------------------------------- */

static int decomp_arg(const char *op, const eh_tensor *a, int square)
{
    return eh__require(op, a, "a") && float_only(op, a, "a") == EH_OK &&
           (square ? need_square(op, a, "a") : need_matrix(op, a, "a")) == EH_OK;
}

eh_tensor *eh_inv(const eh_tensor *a)
{
    if (!decomp_arg("inv", a, 1))
        return NULL;
    const eh_tensor *in[1] = {a};
    eh_op_call call = eh__call(EH_OP_inv, 1, in);
    return eh__run(&call, a->ndim, a->shape, a->dtype);
}

eh_tensor *eh_det(const eh_tensor *a)
{
    if (!decomp_arg("det", a, 1))
        return NULL;
    const eh_tensor *in[1] = {a};
    eh_op_call call = eh__call(EH_OP_det, 1, in);
    return eh__run(&call, a->ndim - 2, a->shape, a->dtype);
}

eh_tensor *eh_cholesky(const eh_tensor *a)
{
    if (!decomp_arg("cholesky", a, 1))
        return NULL;
    const eh_tensor *in[1] = {a};
    eh_op_call call = eh__call(EH_OP_cholesky, 1, in);
    return eh__run(&call, a->ndim, a->shape, a->dtype);
}

/* Clear the result pointers (so that failures leave NULLs), then check
 * the input (an earlier error is kept) and that no result pointer is NULL. */
static int multi_args(const char *op, const eh_tensor *a, int square, eh_tensor **outs[],
                      const char *const *names, int n)
{
    for (int k = 0; k < n; k++)
        if (outs[k])
            *outs[k] = NULL;
    if (!eh__require(op, a, "a"))
        return 0;
    for (int k = 0; k < n; k++)
        if (!outs[k]) {
            eh_set_error(EH_ERR_NULL_ARG, "%s: result pointer '%s' is NULL", op, names[k]);
            return 0;
        }
    return decomp_arg(op, a, square);
}

/* Shapes batch + (r, c) and batch + (r,) of a (..., m, n) input. */
static void mat_shape(const eh_tensor *a, int64_t r, int64_t c, int *nd, int64_t *shape)
{
    int b = a->ndim - 2;
    for (int d = 0; d < b; d++)
        shape[d] = a->shape[d];
    shape[b] = r;
    shape[b + 1] = c;
    *nd = b + 2;
}

static void vec_shape(const eh_tensor *a, int64_t r, int *nd, int64_t *shape)
{
    int b = a->ndim - 2;
    for (int d = 0; d < b; d++)
        shape[d] = a->shape[d];
    shape[b] = r;
    *nd = b + 1;
}

/* Run a multi-output call, copying the outputs into the result pointers. */
static eh_status run_outs(eh_op_call *call, int n, const int *nds,
                          const int64_t (*shapes)[EH_MAX_DIMS], eh_dtype dtype,
                          eh_tensor **outs[])
{
    eh_tensor *res[3] = {NULL, NULL, NULL};
    eh_dtype dt[3] = {dtype, dtype, dtype};
    eh_status st = eh__run_multi(call, n, nds, shapes, dt, res);
    for (int k = 0; k < n; k++)
        *outs[k] = res[k];
    return st;
}

eh_status eh_qr(const eh_tensor *a, eh_tensor **q, eh_tensor **r)
{
    const char *op = "qr";
    eh_tensor **outs[2] = {q, r};
    static const char *const names[2] = {"q", "r"};
    if (!multi_args(op, a, 0, outs, names, 2))
        return eh_last_error();
    int64_t m = a->shape[a->ndim - 2], n = a->shape[a->ndim - 1], k = m < n ? m : n;
    int nds[2];
    int64_t shapes[2][EH_MAX_DIMS];
    mat_shape(a, m, k, &nds[0], shapes[0]);
    mat_shape(a, k, n, &nds[1], shapes[1]);
    const eh_tensor *in[1] = {a};
    eh_op_call call = eh__call(EH_OP_qr, 1, in);
    return run_outs(&call, 2, nds, (const int64_t(*)[EH_MAX_DIMS])shapes, a->dtype, outs);
}

eh_status eh_svd(const eh_tensor *a, int full_matrices, eh_tensor **u, eh_tensor **s,
                 eh_tensor **vt)
{
    const char *op = "svd";
    eh_tensor **outs[3] = {u, s, vt};
    static const char *const names[3] = {"u", "s", "vt"};
    if (!multi_args(op, a, 0, outs, names, 3))
        return eh_last_error();
    int64_t m = a->shape[a->ndim - 2], n = a->shape[a->ndim - 1], k = m < n ? m : n;
    int full = full_matrices != 0;
    int nds[3];
    int64_t shapes[3][EH_MAX_DIMS];
    mat_shape(a, m, full ? m : k, &nds[0], shapes[0]);
    vec_shape(a, k, &nds[1], shapes[1]);
    mat_shape(a, full ? n : k, n, &nds[2], shapes[2]);
    const eh_tensor *in[1] = {a};
    eh_op_call call = eh__call(EH_OP_svd, 1, in);
    call.p.i[0] = full;
    return run_outs(&call, 3, nds, (const int64_t(*)[EH_MAX_DIMS])shapes, a->dtype, outs);
}

eh_status eh_eigh(const eh_tensor *a, eh_tensor **w, eh_tensor **v)
{
    const char *op = "eigh";
    eh_tensor **outs[2] = {w, v};
    static const char *const names[2] = {"w", "v"};
    if (!multi_args(op, a, 1, outs, names, 2))
        return eh_last_error();
    int64_t n = a->shape[a->ndim - 1];
    int nds[2];
    int64_t shapes[2][EH_MAX_DIMS];
    vec_shape(a, n, &nds[0], shapes[0]);
    mat_shape(a, n, n, &nds[1], shapes[1]);
    const eh_tensor *in[1] = {a};
    eh_op_call call = eh__call(EH_OP_eigh, 1, in);
    return run_outs(&call, 2, nds, (const int64_t(*)[EH_MAX_DIMS])shapes, a->dtype, outs);
}
