/* ref kernels: solvers and decompositions (solve, inv, det, cholesky, qr,
 * svd, eigh, lstsq).
 *
 * Every matrix is copied into f64 scratch memory, factored there and
 * rounded back to the tensor's dtype (f32 or f64), as NumPy does for f32.
 * Algorithms, chosen for clarity and portability rather than speed:
 *   solve, inv, det  LU with partial pivoting (the pivot is the first entry
 *                    of largest magnitude, as LAPACK's idamax); up to
 *                    order 9 in OpenBLAS's getf2 order (left-looking),
 *                    above in the textbook right-looking order (lu_factor);
 *                    an exactly zero pivot means singular; det
 *                    multiplies the pivots without overflow on the way
 *                    (eh_ref_det_from_lu).
 *   cholesky         the column-by-column Cholesky-Banachiewicz recurrence
 *                    on the lower triangle; a pivot that is not > 0 fails.
 *   qr               Householder reflections, then R's diagonal made >= 0.
 *   svd, lstsq       one-sided (Hestenes) cyclic Jacobi on the columns of
 *                    the taller orientation, singular values sorted
 *                    descending; missing left/right vectors (zero singular
 *                    values, full_matrices) completed deterministically
 *                    from the standard basis.  Columns that a rotation
 *                    cancels to rounding noise (rank deficiency) are zero
 *                    singular values (jacobi_rows).  The matrix 2 and
 *                    nuclear norms (reduction.c) use the same code for
 *                    their singular values (eh_ref_singular_values).
 *   eigh             cyclic two-sided Jacobi on the symmetric matrix built
 *                    from the lower triangle.
 * qr, svd and eigh scale the matrix by a power of two (exact) so that its
 * largest entry is in [0.5, 1): no overflow in sums of squares.
 * The parameter contract and the sign conventions are in
 * libeh/src/ops_linalg.c.  The helpers other ref files use are declared in
 * linalg_kernels.h (blas's decompositions use them too). */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <eh/backend_alloc.h>
#include "linalg_kernels.h"
#include "lu_getf2.h"

#define MAX_SWEEPS 100

/* ---- scratch, loads and stores ------------------------------------------ */

/* count doubles (at least one), or NULL; records no error. */
static double *alloc_doubles(int64_t count)
{
    if (count < 1)
        count = 1;
    if ((uint64_t)count > SIZE_MAX / sizeof(double))
        return NULL;
    return eh_mem_alloc((size_t)count * sizeof(double));
}

/* Declared in linalg_kernels.h (blas's decompositions use it too). */
double *eh_ref_linalg_scratch(const char *op, int64_t count)
{
    double *p = alloc_doubles(count);
    if (!p)
        eh_set_error(EH_ERR_NOMEM, "%s: out of memory for %lld scratch values", op,
                     (long long)count);
    return p;
}

/* n elements of t from element offset off into dst, as doubles. */
static void load(const eh_tensor *t, int64_t off, int64_t n, double *dst)
{
    if (n <= 0)
        return;
    if (t->dtype == EH_F32) {
        const float *s = (const float *)t->data + off;
        for (int64_t i = 0; i < n; i++)
            dst[i] = s[i];
    } else {
        memcpy(dst, (const double *)t->data + off, (size_t)n * sizeof(double));
    }
}

/* Declared in linalg_kernels.h. */
void eh_ref_linalg_store(eh_tensor *t, int64_t off, int64_t n, const double *src)
{
    if (n <= 0)
        return;
    if (t->dtype == EH_F32) {
        float *d = (float *)t->data + off;
        for (int64_t i = 0; i < n; i++)
            d[i] = (float)src[i];
    } else {
        memcpy((double *)t->data + off, src, (size_t)n * sizeof(double));
    }
}

/* Declared in linalg_kernels.h. */
int64_t eh_ref_batch_count(const eh_tensor *t)
{
    int64_t nb = 1;
    for (int d = 0; d < t->ndim - 2; d++)
        if (t->shape[d] == 0)
            return 0;
    for (int d = 0; d < t->ndim - 2; d++) {
        if (nb > INT64_MAX / t->shape[d])
            return -1;
        nb *= t->shape[d];
    }
    return nb;
}

/* Declared in linalg_kernels.h. */
void eh_ref_batch_strides(const eh_tensor *t, int tb, int64_t mat, int bnd,
                          const int64_t *bshape, int64_t *strides)
{
    int64_t own[EH_MAX_DIMS];
    int64_t s = mat;
    for (int d = tb - 1; d >= 0; d--) {
        own[d] = s;
        s *= t->shape[d];
    }
    for (int d = 0; d < bnd; d++) {
        int td = d - (bnd - tb);
        strides[d] = (td < 0 || (t->shape[td] == 1 && bshape[d] != 1)) ? 0 : own[td];
    }
}

/* " (matrix 3 of the batch)" when there is a batch, else "". */
static const char *where_in_batch(int64_t idx, int batched)
{
    static _Thread_local char buf[64];
    if (!batched)
        return "";
    snprintf(buf, sizeof buf, " (matrix %lld of the batch)", (long long)idx);
    return buf;
}

/* Declared in linalg_kernels.h. */
eh_status eh_ref_linalg_fail(const char *msg, int64_t idx, int batched)
{
    return eh_set_error(EH_ERR_LINALG, "%s%s", msg, where_in_batch(idx, batched));
}

eh_status eh_ref_not_positive_definite(int64_t order, int64_t idx, int batched)
{
    return eh_set_error(EH_ERR_LINALG,
                        "cholesky: matrix is not positive definite (leading minor of "
                        "order %lld)%s",
                        (long long)order, where_in_batch(idx, batched));
}

int eh_ref_all_finite(const double *x, int64_t n)
{
    for (int64_t i = 0; i < n; i++)
        if (!isfinite(x[i]))
            return 0;
    return 1;
}

/* Scale x (n values) by 2^-e so that max |x| is in [0.5, 1); returns e
 * (0 when x is all zero or not finite).  Exact: a power of two. */
int eh_ref_pow2_normalize(double *x, int64_t n)
{
    double amax = 0.0;
    for (int64_t i = 0; i < n; i++)
        if (fabs(x[i]) > amax)
            amax = fabs(x[i]);
    if (amax == 0.0 || !isfinite(amax))
        return 0;
    int e;
    (void)frexp(amax, &e);
    for (int64_t i = 0; i < n; i++)
        x[i] = ldexp(x[i], -e);
    return e;
}

/* The sign convention of svd and eigh (linalg_kernels.h). */
int64_t eh_ref_sign_index(const double *x, int64_t n, int64_t stride, double tol)
{
    double mx = 0.0;
    for (int64_t i = 0; i < n; i++)
        if (fabs(x[i * stride]) > mx)
            mx = fabs(x[i * stride]);
    double thr = mx * (1.0 - tol);
    for (int64_t i = 0; i < n; i++)
        if (fabs(x[i * stride]) >= thr)
            return i;
    return 0;
}

double eh_ref_sign_tol(eh_dtype dtype)
{
    return sqrt(dtype == EH_F32 ? (double)FLT_EPSILON : DBL_EPSILON);
}

void eh_ref_negate(double *x, int64_t n, int64_t stride)
{
    for (int64_t i = 0; i < n; i++)
        x[i * stride] = -x[i * stride];
}

/* ---- LU: solve, inv, det ------------------------------------------------- */

/* Orders up to this use the getf2 order (lu_getf2.h), larger ones
 * lu_factor_right. */
#define LU_GETF2_MAX_N EH_REF_LU_GETF2_MAX_N

/* LU in OpenBLAS's getf2 order (its unblocked dgetf2, which is
 * left-looking; netlib's reference dgetf2 is right-looking): column j is
 * finished when its turn comes, each entry minus the dot product of its
 * row of L with the column's U part (accumulated with fused multiply-adds,
 * as OpenBLAS's x86-64 kernels do, then subtracted; C's fma() is exact on
 * every machine, so ref stays the same everywhere), and the multipliers
 * are scaled by the pivot's reciprocal (divided when the pivot is below
 * DBL_MIN, as LAPACK's sfmin test).  For orders <= 5 this gives OpenBLAS
 * dgetrf's factors bit for bit (random matrices), so that a matrix that
 * is singular in exact arithmetic gets the exactly zero pivot blas (and
 * NumPy) get: [[1, 2, 3], [4, 5, 6], [7, 8, 9]], where the right-looking
 * update leaves a pivot of 1.1e-16.  The kernel is simd/lu_getf2.c, built
 * per instruction set so that fma() is the hardware instruction where the
 * CPU has one (same bits as libm's fma() elsewhere). */

/* LU in the textbook right-looking order: at step j the multipliers are
 * divided by the pivot and the trailing matrix is updated at once. */
static int lu_factor_right(double *A, int64_t n, int64_t *piv, int *sign)
{
    *sign = 1;
    for (int64_t j = 0; j < n; j++) {
        if (eh_ref_lu_pivot(A, n, j, piv, sign))
            return 1;
        double d = A[j * n + j];
        for (int64_t i = j + 1; i < n; i++) {
            double l = A[i * n + j] / d;
            A[i * n + j] = l;
            for (int64_t c = j + 1; c < n; c++)
                A[i * n + c] -= l * A[j * n + c];
        }
    }
    return 0;
}

/* In-place LU of the n x n matrix A with partial pivoting: row j was
 * swapped with row piv[j] >= j at step j.  Returns 1 when a pivot is
 * exactly zero (stops there), else 0.  *sign is the permutation's sign.
 *
 * Whether a matrix that is singular only up to rounding meets an exactly
 * zero pivot depends on the elimination order, so ref follows OpenBLAS
 * (blas) where it can: for n <= LU_GETF2_MAX_N its getf2 order.  Larger
 * orders keep the right-looking kernel: OpenBLAS's dgetrf switches to
 * its blocked recursive algorithm there, which neither order reproduces,
 * and on rank-deficient integer matrices (500 random ones per order) the
 * getf2 order agreed with OpenBLAS's singular verdict better up to n = 9
 * (n = 6: 55 vs 120 mismatches, n = 9: 118 vs 125) but worse from n = 10
 * (131 vs 58).  The right-looking loop is also 2-4.5x faster than the
 * getf2 order (as first written, with libm fma() calls) for solve, inv and det of
 * order 256 and 512. */
static int lu_factor(double *A, int64_t n, int64_t *piv, int *sign)
{
    return n <= LU_GETF2_MAX_N ? eh_ref_lu_getf2(A, n, piv, sign) : lu_factor_right(A, n, piv, sign);
}

/* Solve L U X = P B for the n x k right-hand sides B, in place. */
static void lu_solve(const double *LU, int64_t n, const int64_t *piv, double *B, int64_t k)
{
    for (int64_t j = 0; j < n; j++)
        if (piv[j] != j)
            for (int64_t c = 0; c < k; c++) {
                double t = B[j * k + c];
                B[j * k + c] = B[piv[j] * k + c];
                B[piv[j] * k + c] = t;
            }
    for (int64_t i = 0; i < n; i++)          /* L y = P b, unit diagonal */
        for (int64_t t = 0; t < i; t++) {
            double l = LU[i * n + t];
            for (int64_t c = 0; c < k; c++)
                B[i * k + c] -= l * B[t * k + c];
        }
    for (int64_t i = n - 1; i >= 0; i--) {   /* U x = y */
        for (int64_t t = i + 1; t < n; t++) {
            double u = LU[i * n + t];
            for (int64_t c = 0; c < k; c++)
                B[i * k + c] -= u * B[t * k + c];
        }
        double d = LU[i * n + i];
        for (int64_t c = 0; c < k; c++)
            B[i * k + c] /= d;
    }
}

eh_ref_solve_params eh_ref_solve_params_of(const eh_op_call *call)
{
    return (eh_ref_solve_params){.n = call->p.i[0], .k = call->p.i[1],
                                 .vec = (int)call->p.i[2], .bnd = (int)call->p.i[3],
                                 .bshape = call->p.v};
}

eh_ref_lstsq_params eh_ref_lstsq_params_of(const eh_op_call *call)
{
    return (eh_ref_lstsq_params){.m = call->p.i[0], .n = call->p.i[1], .k = call->p.i[2],
                                 .vec = (int)call->p.i[3], .bnd = (int)call->p.i[4],
                                 .bshape = call->p.v, .rcond = call->p.f[0]};
}

eh_status eh_ref_solve(const eh_op_call *call)
{
    const eh_tensor *a = call->in[0], *b = call->in[1];
    eh_tensor *x = call->out[0];
    if (x->size == 0)
        return EH_OK;
    const eh_ref_solve_params sp = eh_ref_solve_params_of(call);
    int64_t n = sp.n, k = sp.k;
    int vec = sp.vec, bnd = sp.bnd;
    const int64_t *bshape = sp.bshape;
    double *A = eh_ref_linalg_scratch("solve", n * n), *B = eh_ref_linalg_scratch("solve", n * k);
    int64_t *piv = eh_mem_alloc((size_t)(n > 0 ? n : 1) * sizeof *piv);
    eh_status st = EH_OK;
    if (!A || !B || !piv) {
        st = piv ? EH_ERR_NOMEM : eh_set_error(EH_ERR_NOMEM, "solve: out of memory");
        goto done;
    }
    int64_t sa[EH_MAX_DIMS], sb[EH_MAX_DIMS];
    eh_ref_batch_strides(a, a->ndim - 2, n * n, bnd, bshape, sa);
    eh_ref_batch_strides(b, vec ? 0 : b->ndim - 2, n * k, bnd, bshape, sb);
    eh_nd_iter it;
    eh_nd_iter_init(&it, bnd, bshape);
    int64_t idx = 0;
    do {
        int sign;
        load(a, eh_nd_iter_offset(&it, sa), n * n, A);
        load(b, eh_nd_iter_offset(&it, sb), n * k, B);
        if (lu_factor(A, n, piv, &sign)) {
            st = eh_ref_linalg_fail(EH_REF_MSG_SOLVE_SINGULAR, idx, bnd > 0);
            goto done;
        }
        lu_solve(A, n, piv, B, k);
        eh_ref_linalg_store(x, idx * n * k, n * k, B);
        idx++;
    } while (eh_nd_iter_next(&it));
done:
    eh_mem_free(A);
    eh_mem_free(B);
    eh_mem_free(piv);
    return st;
}

eh_status eh_ref_inv(const eh_op_call *call)
{
    const eh_tensor *a = call->in[0];
    eh_tensor *out = call->out[0];
    int64_t nb = eh_ref_batch_count(a), n = a->shape[a->ndim - 1];
    if (out->size == 0 || nb <= 0)
        return EH_OK;
    double *A = eh_ref_linalg_scratch("inv", n * n), *B = eh_ref_linalg_scratch("inv", n * n);
    int64_t *piv = eh_mem_alloc((size_t)(n > 0 ? n : 1) * sizeof *piv);
    eh_status st = EH_OK;
    if (!A || !B || !piv) {
        st = piv ? EH_ERR_NOMEM : eh_set_error(EH_ERR_NOMEM, "inv: out of memory");
        goto done;
    }
    for (int64_t m = 0; m < nb; m++) {
        int sign;
        load(a, m * n * n, n * n, A);
        if (lu_factor(A, n, piv, &sign)) {
            st = eh_ref_linalg_fail(EH_REF_MSG_INV_SINGULAR, m, a->ndim > 2);
            goto done;
        }
        for (int64_t i = 0; i < n * n; i++)
            B[i] = 0.0;
        for (int64_t i = 0; i < n; i++)
            B[i * n + i] = 1.0;
        lu_solve(A, n, piv, B, n);
        eh_ref_linalg_store(out, m * n * n, n * n, B);
    }
done:
    eh_mem_free(A);
    eh_mem_free(B);
    eh_mem_free(piv);
    return st;
}

/* x = m 2^e with |m| in [0.5, 1) for finite nonzero x; 0, inf and NaN are
 * their own mantissa with exponent 0 (frexp leaves theirs unspecified). */
static double split_pow2(double x, int64_t *e)
{
    int k = 0;
    if (isfinite(x) && x != 0.0)
        x = frexp(x, &k);
    *e += k;
    return x;
}

double eh_ref_det_from_lu(const double *A, int64_t n, int sign)
{
    double m = sign;
    int64_t e = 0;
    for (int64_t i = 0; i < n; i++) {
        /* both factors in [0.5, 1): the product is normal, rounded once as
         * the plain product is when that one is normal too */
        m = split_pow2(m * split_pow2(A[i * n + i], &e), &e);
    }
    /* |e| stays below 1100 * n: far inside int for any matrix in memory,
     * clamped all the same (ldexp saturates to inf or 0 well before) */
    if (e > INT_MAX)
        e = INT_MAX;
    else if (e < INT_MIN)
        e = INT_MIN;
    return ldexp(m, (int)e);
}

eh_status eh_ref_det(const eh_op_call *call)
{
    const eh_tensor *a = call->in[0];
    eh_tensor *out = call->out[0];
    int64_t nb = eh_ref_batch_count(a), n = a->shape[a->ndim - 1];
    if (out->size == 0 || nb <= 0)
        return EH_OK;
    double *A = eh_ref_linalg_scratch("det", n * n);
    int64_t *piv = eh_mem_alloc((size_t)(n > 0 ? n : 1) * sizeof *piv);
    eh_status st = EH_OK;
    if (!A || !piv) {
        st = piv ? EH_ERR_NOMEM : eh_set_error(EH_ERR_NOMEM, "det: out of memory");
        goto done;
    }
    for (int64_t m = 0; m < nb; m++) {
        int sign;
        double d = 0.0;
        load(a, m * n * n, n * n, A);
        if (!lu_factor(A, n, piv, &sign))
            d = eh_ref_det_from_lu(A, n, sign);
        eh_ref_linalg_store(out, m, 1, &d);
    }
done:
    eh_mem_free(A);
    eh_mem_free(piv);
    return st;
}

/* ---- cholesky -------------------------------------------------------------- */

eh_status eh_ref_cholesky(const eh_op_call *call)
{
    const eh_tensor *a = call->in[0];
    eh_tensor *out = call->out[0];
    int64_t nb = eh_ref_batch_count(a), n = a->shape[a->ndim - 1];
    if (out->size == 0 || nb <= 0)
        return EH_OK;
    double *A = eh_ref_linalg_scratch("cholesky", n * n);
    double *L = eh_ref_linalg_scratch("cholesky", n * n);
    eh_status st = EH_OK;
    if (!A || !L) {
        st = EH_ERR_NOMEM;
        goto done;
    }
    for (int64_t m = 0; m < nb; m++) {
        load(a, m * n * n, n * n, A);
        for (int64_t i = 0; i < n * n; i++)
            L[i] = 0.0;
        for (int64_t j = 0; j < n; j++) {
            double d = A[j * n + j];
            for (int64_t t = 0; t < j; t++)
                d -= L[j * n + t] * L[j * n + t];
            if (!(d > 0.0)) {
                st = eh_ref_not_positive_definite(j + 1, m, a->ndim > 2);
                goto done;
            }
            double ljj = sqrt(d);
            L[j * n + j] = ljj;
            for (int64_t i = j + 1; i < n; i++) {
                double s = A[i * n + j];
                for (int64_t t = 0; t < j; t++)
                    s -= L[i * n + t] * L[j * n + t];
                L[i * n + j] = s / ljj;
            }
        }
        eh_ref_linalg_store(out, m * n * n, n * n, L);
    }
done:
    eh_mem_free(A);
    eh_mem_free(L);
    return st;
}

/* ---- qr ------------------------------------------------------------------- */

eh_status eh_ref_qr(const eh_op_call *call)
{
    const eh_tensor *a = call->in[0];
    eh_tensor *qt = call->out[0], *rt = call->out[1];
    int64_t nb = eh_ref_batch_count(a);
    int64_t m = a->shape[a->ndim - 2], n = a->shape[a->ndim - 1], k = m < n ? m : n;
    if ((qt->size == 0 && rt->size == 0) || nb <= 0)
        return EH_OK;
    double *W = eh_ref_linalg_scratch("qr", m * n), *V = eh_ref_linalg_scratch("qr", k * m);
    double *Q = eh_ref_linalg_scratch("qr", m * k);
    double *R = eh_ref_linalg_scratch("qr", k * n), *vn = eh_ref_linalg_scratch("qr", k);
    eh_status st = EH_OK;
    if (!W || !V || !Q || !R || !vn) {
        st = EH_ERR_NOMEM;
        goto done;
    }
    for (int64_t b = 0; b < nb; b++) {
        load(a, b * m * n, m * n, W);
        int e = eh_ref_pow2_normalize(W, m * n);
        /* Reflector j: H_j = I - 2 v v^T / (v^T v), v = V[j*m + j .. j*m + m). */
        for (int64_t j = 0; j < k; j++) {
            double *v = V + j * m;
            double nx = 0.0;
            for (int64_t i = j; i < m; i++)
                nx += W[i * n + j] * W[i * n + j];
            nx = sqrt(nx);
            vn[j] = 0.0;
            if (nx == 0.0)
                continue;                  /* column already zero: H_j = I */
            double x0 = W[j * n + j];
            double alpha = x0 >= 0.0 ? -nx : nx;
            for (int64_t i = j; i < m; i++)
                v[i] = W[i * n + j];
            v[j] = x0 - alpha;
            double vv = 0.0;
            for (int64_t i = j; i < m; i++)
                vv += v[i] * v[i];
            vn[j] = vv;
            for (int64_t c = j + 1; c < n; c++) {
                double f = 0.0;
                for (int64_t i = j; i < m; i++)
                    f += v[i] * W[i * n + c];
                f = 2.0 * f / vv;
                for (int64_t i = j; i < m; i++)
                    W[i * n + c] -= f * v[i];
            }
            W[j * n + j] = alpha;
            for (int64_t i = j + 1; i < m; i++)
                W[i * n + j] = 0.0;
        }
        /* Q = H_0 H_1 ... H_{k-1} applied to the first k columns of I. */
        for (int64_t i = 0; i < m * k; i++)
            Q[i] = 0.0;
        for (int64_t i = 0; i < k; i++)
            Q[i * k + i] = 1.0;
        for (int64_t j = k - 1; j >= 0; j--) {
            const double *v = V + j * m;
            if (vn[j] == 0.0)
                continue;
            for (int64_t c = 0; c < k; c++) {
                double f = 0.0;
                for (int64_t i = j; i < m; i++)
                    f += v[i] * Q[i * k + c];
                f = 2.0 * f / vn[j];
                for (int64_t i = j; i < m; i++)
                    Q[i * k + c] -= f * v[i];
            }
        }
        for (int64_t i = 0; i < k; i++)
            for (int64_t c = 0; c < n; c++)
                R[i * n + c] = c < i ? 0.0 : ldexp(W[i * n + c], e);
        /* Sign convention: R[i, i] >= 0. */
        for (int64_t i = 0; i < k; i++)
            if (R[i * n + i] < 0.0) {
                for (int64_t c = i; c < n; c++)
                    R[i * n + c] = -R[i * n + c];
                for (int64_t r = 0; r < m; r++)
                    Q[r * k + i] = -Q[r * k + i];
            }
        eh_ref_linalg_store(qt, b * m * k, m * k, Q);
        eh_ref_linalg_store(rt, b * k * n, k * n, R);
    }
done:
    eh_mem_free(W);
    eh_mem_free(V);
    eh_mem_free(Q);
    eh_mem_free(R);
    eh_mem_free(vn);
    return st;
}

/* ---- one-sided Jacobi SVD ------------------------------------------------- */

/* Rotation (c, s) of the Jacobi step that zeroes gamma between vectors of
 * squared norms alpha and beta: t is the smaller root of
 * t^2 + 2 zeta t - 1 = 0, zeta = (beta - alpha) / (2 gamma). */
static void jacobi_rotation(double alpha, double beta, double gamma, double *c, double *s)
{
    double zeta = (beta - alpha) / (2.0 * gamma);
    double t;
    if (fabs(zeta) > 1e150)
        t = 0.5 / zeta;
    else
        t = (zeta >= 0.0 ? 1.0 : -1.0) / (fabs(zeta) + sqrt(1.0 + zeta * zeta));
    *c = 1.0 / sqrt(1.0 + t * t);
    *s = *c * t;
}

/* x' = c x - s y, y' = s x + c y over n entries. */
static void rotate(double *x, double *y, int64_t n, double c, double s)
{
    for (int64_t i = 0; i < n; i++) {
        double xi = x[i], yi = y[i];
        x[i] = c * xi - s * yi;
        y[i] = s * xi + c * yi;
    }
}

/* Rounding noise of a rotation, relative to its operands: each entry of
 * c x - s y is computed with an error of at most 2u (|c x_i| + |s y_i|)
 * (u = DBL_EPSILON / 2), so the new vector differs from the exact
 * combination by at most 2u (c |x| + |s| |y|) in norm.  NOISE_RATIO is
 * twice that bound: 4u = 2 DBL_EPSILON. */
#define NOISE_RATIO (2.0 * DBL_EPSILON)

/* Orthogonalize the C rows of W (each of length R) by plane rotations;
 * the same rotations are applied to the rows of VT (C x C, the identity on
 * entry; NULL when only singular values are wanted).  If T is the R x C
 * matrix whose columns are W's rows on entry, then on return T = W^T VT
 * with W's rows mutually orthogonal (their norms are the singular values),
 * except the rows that became numerically zero (below).
 *
 * Every pair whose cosine |w_p . w_q| / (|w_p| |w_q|) exceeds eps is
 * rotated.  But a computed cosine is itself only accurate to about
 * sqrt(R) eps (the rounding of the dot product), so a pair can hover just
 * above eps, rotated by an angle that changes nothing or flips an ulp back
 * and forth, forever.  The iteration therefore stops after a sweep in
 * which no rotated pair had a cosine above sqrt(R) eps: relative to each
 * pair, at the accuracy a cosine can be computed to.  (Well-conditioned
 * matrices converge quadratically far below both tolerances; the final
 * sweep still rotates the pairs above eps.)
 *
 * Rows that are rounding noise cannot meet any cosine test: when a
 * rotation cancels w_q against a parallel w_p (rank deficiency), what is
 * left is the rotation's rounding error, and it need not be orthogonal to
 * the other rows, nor can rotating it make it so: it would only be
 * cancelled again, to noise of the noise, sweep after sweep down into the
 * subnormals.  So after each rotation noise2[p] and noise2[q] receive the
 * square of the noise bound NOISE_RATIO (c |w_p| + |s| |w_q|) (resp.
 * (|s| |w_p| + c |w_q|)) of the rows it produced (zero on entry: the input
 * is exact), and a row whose squared norm is <= its noise2 is numerically
 * zero: it takes part in no further rotation, and svd_core reports a zero
 * singular value for it.  A row that is exactly zero (or whose squared
 * norm underflows) is never rotated either.
 * Returns 0, or -1 when MAX_SWEEPS sweeps do not converge. */
static int jacobi_rows(double *W, int64_t C, int64_t R, double *VT, double *noise2)
{
    double cos_noise = sqrt((double)R) * DBL_EPSILON;
    for (int64_t j = 0; j < C; j++)
        noise2[j] = 0.0;
    for (int sweep = 0; sweep < MAX_SWEEPS; sweep++) {
        int progress = 0;
        for (int64_t p = 0; p + 1 < C; p++)
            for (int64_t q = p + 1; q < C; q++) {
                double *wp = W + p * R, *wq = W + q * R;
                double alpha = 0.0, beta = 0.0, gamma = 0.0;
                for (int64_t i = 0; i < R; i++) {
                    alpha += wp[i] * wp[i];
                    beta += wq[i] * wq[i];
                    gamma += wp[i] * wq[i];
                }
                if (alpha <= noise2[p] || beta <= noise2[q])
                    continue;                  /* a numerically zero row */
                double np = sqrt(alpha), nq = sqrt(beta);
                if (gamma == 0.0 || fabs(gamma) <= DBL_EPSILON * np * nq)
                    continue;                  /* orthogonal to working precision */
                double c, s;
                jacobi_rotation(alpha, beta, gamma, &c, &s);
                rotate(wp, wq, R, c, s);
                if (VT)
                    rotate(VT + p * C, VT + q * C, C, c, s);
                double bp = NOISE_RATIO * (c * np + fabs(s) * nq);
                double bq = NOISE_RATIO * (fabs(s) * np + c * nq);
                noise2[p] = bp * bp;
                noise2[q] = bq * bq;
                if (fabs(gamma) > cos_noise * np * nq)
                    progress = 1;
            }
        if (!progress)
            return 0;
    }
    return -1;
}

/* Complete the `valid` orthonormal rows of X (each of length L) to `total`
 * orthonormal rows: each new row is the standard basis vector least covered
 * by the rows so far (first on ties), orthogonalized twice and normalized.
 * rn: L doubles of scratch. */
static void complete_basis(double *X, int64_t L, int64_t valid, int64_t total, double *rn)
{
    for (int64_t i = 0; i < L; i++) {
        rn[i] = 0.0;
        for (int64_t r = 0; r < valid; r++)
            rn[i] += X[r * L + i] * X[r * L + i];
    }
    for (int64_t r = valid; r < total; r++) {
        int64_t best = 0;
        for (int64_t i = 1; i < L; i++)
            if (rn[i] < rn[best])
                best = i;
        double *w = X + r * L;
        for (int64_t i = 0; i < L; i++)
            w[i] = i == best ? 1.0 : 0.0;
        for (int pass = 0; pass < 2; pass++)
            for (int64_t s = 0; s < r; s++) {
                const double *v = X + s * L;
                double d = 0.0;
                for (int64_t i = 0; i < L; i++)
                    d += v[i] * w[i];
                for (int64_t i = 0; i < L; i++)
                    w[i] -= d * v[i];
            }
        double nrm = 0.0;
        for (int64_t i = 0; i < L; i++)
            nrm += w[i] * w[i];
        nrm = sqrt(nrm);
        for (int64_t i = 0; i < L; i++) {
            w[i] /= nrm;
            rn[i] += w[i] * w[i];
        }
    }
}

/* Below this (after eh_ref_pow2_normalize) a singular value is too small for its
 * vector W_j / sigma_j to be trusted; the vector is completed instead. */
#define TINY_SIGMA 1e-150

/* The SVD of one m x n matrix A:
 *   tall (m >= n): T = A,   C = n vectors of length R = m;
 *   wide (m <  n): T = A^T, C = m vectors of length R = n.
 * T = sum_j sig[j] * W_j VT_j^T: on return the rows of W (C x R) are T's
 * left singular vectors, the rows of VT (C x C) its right singular vectors,
 * sig[] the singular values (true scale), order[] the indices by
 * descending sigma (stable).  Only the first `*usable` of order[] have a
 * usable W row (sigma not negligibly small); the others -- the rows that
 * became rounding noise, whose sigma is exactly 0, and those below
 * TINY_SIGMA -- must be completed.
 * VT may be NULL (singular values only: eh_ref_singular_values).
 * Returns 0, or -1 on non-convergence. */
typedef struct svd_work {
    int64_t m, n, C, R;
    double *W, *VT, *sig, *X, *rn;
    int64_t *order;
} svd_work;

static int svd_core(svd_work *w, const double *A, int64_t *usable)
{
    int64_t m = w->m, n = w->n, C = w->C, R = w->R;
    if (m >= n) {
        for (int64_t j = 0; j < n; j++)
            for (int64_t i = 0; i < m; i++)
                w->W[j * m + i] = A[i * n + j];
    } else if (m * n > 0) {
        memcpy(w->W, A, (size_t)(m * n) * sizeof(double));
    }
    int e = eh_ref_pow2_normalize(w->W, C * R);
    if (w->VT) {
        for (int64_t i = 0; i < C * C; i++)
            w->VT[i] = 0.0;
        for (int64_t i = 0; i < C; i++)
            w->VT[i * C + i] = 1.0;
    }
    /* sig[] holds jacobi_rows' noise bounds until the sigmas replace them. */
    if (jacobi_rows(w->W, C, R, w->VT, w->sig) != 0)
        return -1;
    for (int64_t j = 0; j < C; j++) {
        double s = 0.0;
        for (int64_t i = 0; i < R; i++)
            s += w->W[j * R + i] * w->W[j * R + i];
        /* A numerically zero row (rounding noise, see jacobi_rows) is a zero
         * singular value; its vector is completed below. */
        w->sig[j] = s <= w->sig[j] ? 0.0 : sqrt(s);  /* still scaled by 2^-e */
    }
    for (int64_t j = 0; j < C; j++) {  /* stable insertion sort, descending */
        int64_t t = j;
        while (t > 0 && w->sig[w->order[t - 1]] < w->sig[j]) {
            w->order[t] = w->order[t - 1];
            t--;
        }
        w->order[t] = j;
    }
    int64_t u = 0;
    while (u < C && w->sig[w->order[u]] > TINY_SIGMA)
        u++;
    for (int64_t r = 0; r < u; r++) {
        int64_t j = w->order[r];
        for (int64_t i = 0; i < R; i++)
            w->W[j * R + i] /= w->sig[j];
    }
    for (int64_t j = 0; j < C; j++)
        w->sig[j] = ldexp(w->sig[j], e);
    *usable = u;
    return 0;
}

static void svd_work_free(svd_work *w)
{
    eh_mem_free(w->W);
    eh_mem_free(w->VT);
    eh_mem_free(w->sig);
    eh_mem_free(w->X);
    eh_mem_free(w->rn);
    eh_mem_free(w->order);
}

/* Scratch for svd_core; X (rows x R) and rn (R) for completing bases.
 * 0 (everything freed, EH_ERR_NOMEM recorded) when an allocation fails. */
static int svd_work_init(svd_work *w, const char *op, int64_t m, int64_t n, int64_t xrows)
{
    memset(w, 0, sizeof *w);
    w->m = m;
    w->n = n;
    w->C = m < n ? m : n;
    w->R = m < n ? n : m;
    w->W = eh_ref_linalg_scratch(op, w->C * w->R);
    w->VT = w->W ? eh_ref_linalg_scratch(op, w->C * w->C) : NULL;
    w->sig = w->VT ? eh_ref_linalg_scratch(op, w->C) : NULL;
    w->X = w->sig ? eh_ref_linalg_scratch(op, xrows * w->R) : NULL;
    w->rn = w->X ? eh_ref_linalg_scratch(op, w->R) : NULL;
    if (w->rn) {
        w->order = eh_mem_alloc((size_t)(w->C > 0 ? w->C : 1) * sizeof *w->order);
        if (!w->order)
            eh_set_error(EH_ERR_NOMEM, "%s: out of memory", op);
    }
    if (w->order)
        return 1;
    svd_work_free(w);
    return 0;
}

/* Declared in linalg_kernels.h: svd_core without the vectors, for the
 * matrix 2 and nuclear norms (reduction.c).  Its scratch is plain malloc,
 * and nothing is recorded: a norm runs its lanes on worker threads. */
eh_status eh_ref_singular_values(const double *a, int64_t m, int64_t n, double *sv)
{
    svd_work w;
    memset(&w, 0, sizeof w);
    w.m = m;
    w.n = n;
    w.C = m < n ? m : n;
    w.R = m < n ? n : m;
    w.W = alloc_doubles(w.C * w.R);
    w.sig = alloc_doubles(w.C);
    w.order = eh_mem_alloc((size_t)(w.C > 0 ? w.C : 1) * sizeof *w.order);
    eh_status st = EH_ERR_NOMEM;
    int64_t usable;
    if (w.W && w.sig && w.order) {
        st = EH_ERR_LINALG;
        if (svd_core(&w, a, &usable) == 0) {
            for (int64_t r = 0; r < w.C; r++)
                sv[r] = w.sig[w.order[r]];
            st = EH_OK;
        }
    }
    svd_work_free(&w);
    return st;
}

eh_status eh_ref_svd(const eh_op_call *call)
{
    const eh_tensor *a = call->in[0];
    eh_tensor *ut = call->out[0], *st_ = call->out[1], *vtt = call->out[2];
    int full = call->p.i[0] != 0;
    int64_t nb = eh_ref_batch_count(a);
    int64_t m = a->shape[a->ndim - 2], n = a->shape[a->ndim - 1], k = m < n ? m : n;
    int64_t ucols = full ? m : k, vrows = full ? n : k;
    if ((ut->size == 0 && st_->size == 0 && vtt->size == 0) || nb <= 0)
        return EH_OK;
    svd_work w;
    /* X holds the completed left (tall) or right (wide) vectors as rows. */
    double *A = eh_ref_linalg_scratch("svd", m * n);
    double *U = A ? eh_ref_linalg_scratch("svd", m * ucols) : NULL;
    double *VTo = U ? eh_ref_linalg_scratch("svd", vrows * n) : NULL;
    eh_status st = EH_OK;
    if (!VTo || !svd_work_init(&w, "svd", m, n, m >= n ? ucols : vrows)) {
        eh_mem_free(A);
        eh_mem_free(U);
        eh_mem_free(VTo);
        return EH_ERR_NOMEM;
    }
    double tol = eh_ref_sign_tol(a->dtype);
    for (int64_t b = 0; b < nb; b++) {
        int64_t usable;
        load(a, b * m * n, m * n, A);
        if (!eh_ref_all_finite(A, m * n)) {
            st = eh_ref_linalg_fail(EH_REF_MSG_SVD_NONFINITE, b, a->ndim > 2);
            break;
        }
        if (svd_core(&w, A, &usable) != 0) {
            st = eh_ref_linalg_fail(EH_REF_MSG_SVD_NO_CONVERGE, b, a->ndim > 2);
            break;
        }
        int64_t C = w.C, R = w.R;
        if (m >= n) {
            /* u's columns: T's left vectors, completed to ucols. */
            for (int64_t r = 0; r < usable; r++)
                memcpy(w.X + r * R, w.W + w.order[r] * R, (size_t)R * sizeof(double));
            complete_basis(w.X, R, usable, ucols, w.rn);
            for (int64_t i = 0; i < m; i++)
                for (int64_t r = 0; r < ucols; r++)
                    U[i * ucols + r] = w.X[r * R + i];
            for (int64_t r = 0; r < C; r++)
                memcpy(VTo + r * n, w.VT + w.order[r] * C, (size_t)C * sizeof(double));
        } else {
            /* u's columns: T's right vectors; vt's rows: T's left vectors. */
            for (int64_t i = 0; i < m; i++)
                for (int64_t r = 0; r < m; r++)
                    U[i * m + r] = w.VT[w.order[r] * C + i];
            for (int64_t r = 0; r < usable; r++)
                memcpy(w.X + r * R, w.W + w.order[r] * R, (size_t)R * sizeof(double));
            complete_basis(w.X, R, usable, vrows, w.rn);
            memcpy(VTo, w.X, (size_t)(vrows * n) * sizeof(double));
        }
        /* Sign convention: pairs by u's column, extra vectors on their own. */
        for (int64_t r = 0; r < ucols; r++)
            if (U[eh_ref_sign_index(U + r, m, ucols, tol) * ucols + r] < 0.0) {
                eh_ref_negate(U + r, m, ucols);
                if (r < k)
                    eh_ref_negate(VTo + r * n, n, 1);
            }
        for (int64_t r = k; r < vrows; r++)
            if (VTo[r * n + eh_ref_sign_index(VTo + r * n, n, 1, tol)] < 0.0)
                eh_ref_negate(VTo + r * n, n, 1);
        double *S = w.rn;              /* free again: reuse for the sorted sigmas */
        for (int64_t r = 0; r < k; r++)
            S[r] = w.sig[w.order[r]];
        eh_ref_linalg_store(ut, b * m * ucols, m * ucols, U);
        eh_ref_linalg_store(st_, b * k, k, S);
        eh_ref_linalg_store(vtt, b * vrows * n, vrows * n, VTo);
    }
    svd_work_free(&w);
    eh_mem_free(A);
    eh_mem_free(U);
    eh_mem_free(VTo);
    return st;
}

/* ---- lstsq ---------------------------------------------------------------- */

eh_status eh_ref_lstsq(const eh_op_call *call)
{
    const eh_tensor *a = call->in[0], *b = call->in[1];
    eh_tensor *x = call->out[0];
    if (x->size == 0)
        return EH_OK;
    const eh_ref_lstsq_params lp = eh_ref_lstsq_params_of(call);
    int64_t m = lp.m, n = lp.n, k = lp.k;
    int vec = lp.vec, bnd = lp.bnd;
    const int64_t *bshape = lp.bshape;
    double rcond = lp.rcond;
    svd_work w;
    double *A = eh_ref_linalg_scratch("lstsq", m * n);
    double *B = A ? eh_ref_linalg_scratch("lstsq", m * k) : NULL;
    double *X = B ? eh_ref_linalg_scratch("lstsq", n * k) : NULL;
    double *ub = X ? eh_ref_linalg_scratch("lstsq", k) : NULL;
    if (!ub || !svd_work_init(&w, "lstsq", m, n, 0)) {
        eh_mem_free(A);
        eh_mem_free(B);
        eh_mem_free(X);
        eh_mem_free(ub);
        return EH_ERR_NOMEM;
    }
    eh_status st = EH_OK;
    int64_t sa[EH_MAX_DIMS], sb[EH_MAX_DIMS];
    eh_ref_batch_strides(a, a->ndim - 2, m * n, bnd, bshape, sa);
    eh_ref_batch_strides(b, vec ? 0 : b->ndim - 2, m * k, bnd, bshape, sb);
    eh_nd_iter it;
    eh_nd_iter_init(&it, bnd, bshape);
    int64_t idx = 0;
    do {
        int64_t usable;
        load(a, eh_nd_iter_offset(&it, sa), m * n, A);
        load(b, eh_nd_iter_offset(&it, sb), m * k, B);
        if (!eh_ref_all_finite(A, m * n)) {
            st = eh_ref_linalg_fail(EH_REF_MSG_LSTSQ_NONFINITE, idx, bnd > 0);
            break;
        }
        if (svd_core(&w, A, &usable) != 0) {
            st = eh_ref_linalg_fail(EH_REF_MSG_LSTSQ_NO_CONVERGE, idx, bnd > 0);
            break;
        }
        for (int64_t i = 0; i < n * k; i++)
            X[i] = 0.0;
        double cutoff = w.C > 0 ? rcond * w.sig[w.order[0]] : 0.0;
        /* x = sum over kept j of v_j (u_j . b) / s_j. */
        for (int64_t r = 0; r < usable; r++) {
            int64_t j = w.order[r];
            double s = w.sig[j];
            if (!(s > cutoff))
                break;
            const double *uj = m >= n ? w.W + j * w.R : NULL;  /* tall: u_j in W */
            const double *vj = m >= n ? NULL : w.W + j * w.R;  /* wide: v_j in W */
            for (int64_t c = 0; c < k; c++) {
                double d = 0.0;
                for (int64_t i = 0; i < m; i++)
                    d += (uj ? uj[i] : w.VT[j * w.C + i]) * B[i * k + c];
                ub[c] = d / s;
            }
            for (int64_t i = 0; i < n; i++) {
                double vi = vj ? vj[i] : w.VT[j * w.C + i];
                for (int64_t c = 0; c < k; c++)
                    X[i * k + c] += vi * ub[c];
            }
        }
        eh_ref_linalg_store(x, idx * n * k, n * k, X);
        idx++;
    } while (eh_nd_iter_next(&it));
    svd_work_free(&w);
    eh_mem_free(A);
    eh_mem_free(B);
    eh_mem_free(X);
    eh_mem_free(ub);
    return st;
}

/* ---- eigh ------------------------------------------------------------------ */

/* Cyclic Jacobi on the symmetric n x n S (both triangles kept); V (identity
 * on entry) accumulates the rotations: S_in = V diag(S_out) V^T.  Returns 0,
 * or -1 when MAX_SWEEPS sweeps do not converge. */
static int jacobi_sym(double *S, int64_t n, double *V)
{
    for (int sweep = 0; sweep < MAX_SWEEPS; sweep++) {
        int rotated = 0;
        for (int64_t p = 0; p + 1 < n; p++)
            for (int64_t q = p + 1; q < n; q++) {
                double apq = S[p * n + q], app = S[p * n + p], aqq = S[q * n + q];
                if (fabs(apq) <= DBL_EPSILON * sqrt(fabs(app)) * sqrt(fabs(aqq)) ||
                    fabs(apq) < DBL_MIN / DBL_EPSILON)
                    continue;
                double theta = (aqq - app) / (2.0 * apq), t;
                if (fabs(theta) > 1e150)
                    t = 0.5 / theta;
                else
                    t = (theta >= 0.0 ? 1.0 : -1.0) / (fabs(theta) + sqrt(theta * theta + 1.0));
                double c = 1.0 / sqrt(t * t + 1.0), s = t * c;
                for (int64_t r = 0; r < n; r++) {
                    if (r == p || r == q)
                        continue;
                    double arp = S[r * n + p], arq = S[r * n + q];
                    S[r * n + p] = S[p * n + r] = c * arp - s * arq;
                    S[r * n + q] = S[q * n + r] = s * arp + c * arq;
                }
                S[p * n + p] = app - t * apq;
                S[q * n + q] = aqq + t * apq;
                S[p * n + q] = S[q * n + p] = 0.0;
                for (int64_t r = 0; r < n; r++) {
                    double vrp = V[r * n + p], vrq = V[r * n + q];
                    V[r * n + p] = c * vrp - s * vrq;
                    V[r * n + q] = s * vrp + c * vrq;
                }
                rotated = 1;
            }
        if (!rotated)
            return 0;
    }
    return -1;
}

eh_status eh_ref_eigh(const eh_op_call *call)
{
    const eh_tensor *a = call->in[0];
    eh_tensor *wt = call->out[0], *vt = call->out[1];
    int64_t nb = eh_ref_batch_count(a), n = a->shape[a->ndim - 1];
    if (wt->size == 0 || nb <= 0)
        return EH_OK;
    double *S = eh_ref_linalg_scratch("eigh", n * n);
    double *V = S ? eh_ref_linalg_scratch("eigh", n * n) : NULL;
    double *Vo = V ? eh_ref_linalg_scratch("eigh", n * n) : NULL;
    double *w = Vo ? eh_ref_linalg_scratch("eigh", n) : NULL;
    int64_t *order = w ? eh_mem_alloc((size_t)(n > 0 ? n : 1) * sizeof *order) : NULL;
    eh_status st = EH_OK;
    if (!order) {
        st = w ? eh_set_error(EH_ERR_NOMEM, "eigh: out of memory") : EH_ERR_NOMEM;
        goto done;
    }
    double tol = eh_ref_sign_tol(a->dtype);
    for (int64_t b = 0; b < nb; b++) {
        load(a, b * n * n, n * n, S);
        for (int64_t i = 0; i < n; i++)          /* lower triangle, mirrored */
            for (int64_t j = 0; j <= i; j++) {
                if (!isfinite(S[i * n + j])) {
                    st = eh_ref_linalg_fail(EH_REF_MSG_EIGH_NONFINITE, b, a->ndim > 2);
                    goto done;
                }
                S[j * n + i] = S[i * n + j];
            }
        int e = eh_ref_pow2_normalize(S, n * n);
        for (int64_t i = 0; i < n * n; i++)
            V[i] = 0.0;
        for (int64_t i = 0; i < n; i++)
            V[i * n + i] = 1.0;
        if (jacobi_sym(S, n, V) != 0) {
            st = eh_ref_linalg_fail(EH_REF_MSG_EIGH_NO_CONVERGE, b, a->ndim > 2);
            goto done;
        }
        for (int64_t j = 0; j < n; j++) {        /* stable insertion sort, ascending */
            double d = S[j * n + j];
            int64_t t = j;
            while (t > 0 && S[order[t - 1] * n + order[t - 1]] > d) {
                order[t] = order[t - 1];
                t--;
            }
            order[t] = j;
        }
        for (int64_t r = 0; r < n; r++) {
            int64_t j = order[r];
            w[r] = ldexp(S[j * n + j], e);
            for (int64_t i = 0; i < n; i++)
                Vo[i * n + r] = V[i * n + j];
            if (Vo[eh_ref_sign_index(Vo + r, n, n, tol) * n + r] < 0.0)
                eh_ref_negate(Vo + r, n, n);
        }
        eh_ref_linalg_store(wt, b * n, n, w);
        eh_ref_linalg_store(vt, b * n * n, n * n, Vo);
    }
done:
    eh_mem_free(S);
    eh_mem_free(V);
    eh_mem_free(Vo);
    eh_mem_free(w);
    eh_mem_free(order);
    return st;
}
