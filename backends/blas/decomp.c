/* blas kernels: solve, inv, det, cholesky, qr, svd, eigh, lstsq via LAPACKE.
 *
 * As ref and NumPy do, f32 inputs are computed in f64 (dgetrf + dgetrs,
 * dgetrf + dgetri, dpotrf, dgeqrf + dorgqr, dgesdd, dsyevd, dgelsd) and the
 * results rounded to f32.  Each matrix is copied into f64 scratch in
 * column-major order (the transpose is free during the dtype conversion),
 * so LAPACK factors the matrix itself, with the same partial pivoting as
 * ref, and LAPACKE's _work entry points are used: they call LAPACK
 * directly, without LAPACKE's NaN checks (NaN must propagate through
 * solve, inv, det, qr exactly as in ref) or its layout copies.
 *
 * NaN and Inf.  ref defines what non-finite data give, and an algorithm's
 * NaN pattern is its own (ref's Householder accumulation turns all of Q
 * into NaN where dorgqr leaves the columns a NaN never reaches finite; LU
 * with Inf makes NaN in places that depend on the elimination order).  So
 * solve, inv, det, cholesky, qr, and lstsq with a non-finite b, run ref's
 * kernel when an input holds NaN or Inf: the same answer as ref, at ref's
 * speed, for inputs whose numbers are not numbers anyway.  So do those
 * five with a matrix whose nonzero entries are all subnormal (getrf
 * divides by a subnormal pivot: its reciprocal overflows).  svd, eigh and
 * lstsq's a reject non-finite data (EH_ERR_LINALG) before LAPACK runs.
 *
 * The results follow the conventions of docs/ops/linalg.md, which make
 * them unique and equal to ref's up to rounding: R's diagonal >= 0 in qr;
 * singular values descending and the "largest entry positive" rule on u's
 * columns (vt's rows flipped with them) and on eigh's eigenvectors;
 * eigenvalues ascending.  The error rules are ref's: getrf's info > 0
 * (an exactly zero pivot) is "singular" for solve and inv and gives
 * det = 0; potrf's info > 0 is "not positive definite (leading minor of
 * order info)", the order ref reports; svd, eigh (lower triangle) and
 * lstsq check for NaN/Inf first; no convergence is EH_ERR_LINALG.  The
 * messages are ref's, word for word.
 *
 * Batches run matrix by matrix on the calling thread; LAPACK parallelizes
 * inside each factorization through OpenBLAS.  Matrices with a dimension
 * beyond LAPACK's 32-bit int run ref's kernel.  Contract:
 * libeh/src/ops_linalg.c. */
#include <float.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <lapacke.h>
#include <eh/backend_alloc.h>
#include "blas.h"
#include "../ref/linalg_kernels.h"

/* ---- scratch, loads, stores ------------------------------------------------ */

static int small_enough(int64_t a, int64_t b)
{
    /* every count LAPACK sees (dims, leading dims, work sizes ~ a*b) fits */
    return a >= 0 && b >= 0 && a <= INT_MAX / 8 && b <= INT_MAX / 8 &&
           (a == 0 || b <= (INT_MAX / 8) / (a > 0 ? a : 1));
}

static lapack_int *iscratch(const char *op, int64_t count)
{
    if (count < 1)
        count = 1;
    lapack_int *p = eh_mem_alloc((size_t)count * sizeof *p);
    if (!p)
        eh_set_error(EH_ERR_NOMEM, "%s: out of memory for %lld scratch indices", op,
                     (long long)count);
    return p;
}

/* The rows x cols row-major matrix of t at element offset off, as a
 * column-major f64 matrix with leading dimension ld >= rows. */
static void load_cm(const eh_tensor *t, int64_t off, int64_t rows, int64_t cols, double *dst,
                    int64_t ld)
{
    if (t->dtype == EH_F32) {
        const float *s = (const float *)t->data + off;
        for (int64_t i = 0; i < rows; i++)
            for (int64_t j = 0; j < cols; j++)
                dst[j * ld + i] = s[i * cols + j];
    } else {
        const double *s = (const double *)t->data + off;
        for (int64_t i = 0; i < rows; i++)
            for (int64_t j = 0; j < cols; j++)
                dst[j * ld + i] = s[i * cols + j];
    }
}

/* Column-major src (leading dimension ld) to t's rows x cols row-major
 * matrix at element offset off, rounded as ref's store ((float) cast). */
static void store_cm(eh_tensor *t, int64_t off, int64_t rows, int64_t cols, const double *src,
                     int64_t ld)
{
    if (t->dtype == EH_F32) {
        float *d = (float *)t->data + off;
        for (int64_t i = 0; i < rows; i++)
            for (int64_t j = 0; j < cols; j++)
                d[i * cols + j] = (float)src[j * ld + i];
    } else {
        double *d = (double *)t->data + off;
        for (int64_t i = 0; i < rows; i++)
            for (int64_t j = 0; j < cols; j++)
                d[i * cols + j] = src[j * ld + i];
    }
}

/* Whether every element of t (f32 or f64) is finite. */
static int tensor_finite(const eh_tensor *t)
{
    if (t->dtype == EH_F32) {
        const float *p = t->data;
        int bad = 0;
        for (int64_t i = 0; i < t->size; i++)
            bad |= !isfinite(p[i]);
        return !bad;
    }
    const double *p = t->data;
    int bad = 0;
    for (int64_t i = 0; i < t->size; i++)
        bad |= !isfinite(p[i]);
    return !bad;
}

/* Whether LAPACK may factor t's matrices (per elements each): finite,
 * and none whose nonzero entries are all subnormal (getrf would divide by
 * a subnormal pivot, whose reciprocal overflows: NaN where ref, which
 * scales by a power of two first, gives the answer). */
static int lapack_ready(const eh_tensor *t, int64_t per)
{
    if (!tensor_finite(t))
        return 0;
    int f32 = t->dtype == EH_F32;
    double tiny = f32 ? (double)FLT_MIN : DBL_MIN;
    for (int64_t s = 0; per > 0 && s < t->size; s += per) {
        double amax = 0.0;
        for (int64_t i = s; i < s + per && i < t->size; i++) {
            double v = f32 ? fabs((double)((const float *)t->data)[i]) : fabs(((const double *)t->data)[i]);
            amax = v > amax ? v : amax;
        }
        if (amax > 0.0 && amax < tiny)
            return 0;
    }
    return 1;
}

/* Whether getrf's factor (n x n, pivots on the diagonal A[j * n + j]) has
 * a pivot that is nonzero but below DBL_MIN.  OpenBLAS's getrf scales the
 * column under a pivot by its reciprocal, which overflows below 1/DBL_MAX
 * (0 * inf: NaN factors; diag(1e-310, 1) gave NaN for solve, inv and
 * det), and is inexact where ref divides (below DBL_MIN, LAPACK's sfmin
 * test).  lapack_ready catches matrices whose entries are all subnormal
 * before LAPACK runs; a subnormal pivot among normal entries, or one that
 * the elimination makes, is only seen here: the call then runs ref's
 * kernel, for the whole batch. */
static int subnormal_pivot(const double *A, int64_t n)
{
    for (int64_t j = 0; j < n; j++) {
        double p = fabs(A[j * n + j]);
        if (p > 0.0 && p < DBL_MIN)
            return 1;
    }
    return 0;
}

/* A LAPACK routine reporting a bad argument (info < 0): a bug here, not
 * the caller's, so EH_ERR_INTERNAL naming the op, routine and argument. */
static eh_status lapack_rejected(const char *what, lapack_int info)
{
    return eh_set_error(EH_ERR_INTERNAL, "%s rejected argument %d", what, (int)-info);
}

/* LAPACK's optimal workspace size from a query's work[0]. */
static lapack_int work_size(double w)
{
    if (!(w >= 1.0))
        return 1;
    if (w > (double)(INT_MAX / 2))
        return INT_MAX / 2;
    return (lapack_int)w + 1;
}

/* ---- solve, inv, det -------------------------------------------------------- */

eh_status eh_blas_solve(const eh_op_call *call)
{
    const eh_tensor *a = call->in[0], *b = call->in[1];
    eh_tensor *x = call->out[0];
    if (x->size == 0)
        return EH_OK;
    const eh_ref_solve_params sp = eh_ref_solve_params_of(call);
    int64_t n = sp.n, k = sp.k;
    int vec = sp.vec, bnd = sp.bnd;
    if (!small_enough(n, n) || !small_enough(n, k) || !lapack_ready(a, n * n) || !tensor_finite(b))
        return eh_ref_solve(call);
    const int64_t *bshape = sp.bshape;
    eh_blas_openblas_init();
    double *A = eh_ref_linalg_scratch("solve", n * n);
    double *B = A ? eh_ref_linalg_scratch("solve", n * k) : NULL;
    lapack_int *piv = B ? iscratch("solve", n) : NULL;
    eh_status st = EH_OK;
    if (!piv) {
        st = EH_ERR_NOMEM;
        goto done;
    }
    int64_t sa[EH_MAX_DIMS], sb[EH_MAX_DIMS];
    eh_ref_batch_strides(a, a->ndim - 2, n * n, bnd, bshape, sa);
    eh_ref_batch_strides(b, vec ? 0 : b->ndim - 2, n * k, bnd, bshape, sb);
    eh_nd_iter it;
    eh_nd_iter_init(&it, bnd, bshape);
    int64_t idx = 0;
    do {
        load_cm(a, eh_nd_iter_offset(&it, sa), n, n, A, n);
        load_cm(b, eh_nd_iter_offset(&it, sb), n, k, B, n);
        /* dgetrf + dgetrs, not dgesv: OpenBLAS's dgesv factors with its
         * threaded getrf whenever it has more than one thread, even for
         * tiny matrices, where dgetrf keeps the sequential getf2 below
         * 100 x 100; with dgesv a matrix singular up to rounding could be
         * singular for inv and det but not for solve, and its verdict
         * changed with EH_NUM_THREADS (test_blas.c,
         * test_lu_verdict_thread_count). */
        lapack_int info = LAPACKE_dgetrf_work(LAPACK_COL_MAJOR, (lapack_int)n, (lapack_int)n, A,
                                              (lapack_int)n, piv);
        if (info >= 0 && subnormal_pivot(A, n)) {
            eh_mem_free(A);
            eh_mem_free(B);
            eh_mem_free(piv);
            return eh_ref_solve(call);
        }
        if (info > 0) {
            st = eh_ref_linalg_fail(EH_REF_MSG_SOLVE_SINGULAR, idx, bnd > 0);
            goto done;
        }
        if (info == 0)
            info = LAPACKE_dgetrs_work(LAPACK_COL_MAJOR, 'N', (lapack_int)n, (lapack_int)k, A,
                                       (lapack_int)n, piv, B, (lapack_int)n);
        if (info < 0) {
            st = lapack_rejected("solve: LAPACK dgetrf/dgetrs", info);
            goto done;
        }
        store_cm(x, idx * n * k, n, k, B, n);
        idx++;
    } while (eh_nd_iter_next(&it));
done:
    eh_mem_free(A);
    eh_mem_free(B);
    eh_mem_free(piv);
    return st;
}

eh_status eh_blas_inv(const eh_op_call *call)
{
    const eh_tensor *a = call->in[0];
    eh_tensor *out = call->out[0];
    int64_t nb = eh_ref_batch_count(a), n = a->shape[a->ndim - 1];
    if (out->size == 0 || nb <= 0)
        return EH_OK;
    if (!small_enough(n, n) || !lapack_ready(a, n * n))
        return eh_ref_inv(call);
    eh_blas_openblas_init();
    double *A = eh_ref_linalg_scratch("inv", n * n), *W = NULL;
    lapack_int *piv = A ? iscratch("inv", n) : NULL;
    eh_status st = EH_OK;
    if (!piv) {
        st = EH_ERR_NOMEM;
        goto done;
    }
    double q;
    lapack_int lwork = LAPACKE_dgetri_work(LAPACK_COL_MAJOR, (lapack_int)n, A, (lapack_int)n,
                                           piv, &q, -1) == 0 ? work_size(q) : (lapack_int)n;
    if (!(W = eh_ref_linalg_scratch("inv", lwork))) {
        st = EH_ERR_NOMEM;
        goto done;
    }
    for (int64_t m = 0; m < nb; m++) {
        load_cm(a, m * n * n, n, n, A, n);
        lapack_int info = LAPACKE_dgetrf_work(LAPACK_COL_MAJOR, (lapack_int)n, (lapack_int)n, A,
                                              (lapack_int)n, piv);
        if (info >= 0 && subnormal_pivot(A, n)) {
            eh_mem_free(A);
            eh_mem_free(W);
            eh_mem_free(piv);
            return eh_ref_inv(call);
        }
        if (info == 0)
            info = LAPACKE_dgetri_work(LAPACK_COL_MAJOR, (lapack_int)n, A, (lapack_int)n, piv, W,
                                       lwork);
        if (info > 0) {
            st = eh_ref_linalg_fail(EH_REF_MSG_INV_SINGULAR, m, a->ndim > 2);
            goto done;
        }
        if (info < 0) {
            st = lapack_rejected("inv: LAPACK", info);
            goto done;
        }
        /* getri inverts U first, which can overflow where the inverse
         * does not (u11^-1 u12 = 1e389 for [[1e-180, 1e209], [5e-181,
         * 3e209]], whose inverse has 1.2e180): a finite matrix (the only
         * kind LAPACK sees here) with a non-finite getri result goes to
         * ref, which solves for the columns of the identity (as NumPy's
         * gesv does) */
        if (!eh_ref_all_finite(A, n * n)) {
            eh_mem_free(A);
            eh_mem_free(W);
            eh_mem_free(piv);
            return eh_ref_inv(call);
        }
        store_cm(out, m * n * n, n, n, A, n);
    }
done:
    eh_mem_free(A);
    eh_mem_free(W);
    eh_mem_free(piv);
    return st;
}

eh_status eh_blas_det(const eh_op_call *call)
{
    const eh_tensor *a = call->in[0];
    eh_tensor *out = call->out[0];
    int64_t nb = eh_ref_batch_count(a), n = a->shape[a->ndim - 1];
    if (out->size == 0 || nb <= 0)
        return EH_OK;
    if (!small_enough(n, n) || !lapack_ready(a, n * n))
        return eh_ref_det(call);
    eh_blas_openblas_init();
    double *A = eh_ref_linalg_scratch("det", n * n);
    lapack_int *piv = A ? iscratch("det", n) : NULL;
    if (!piv) {
        eh_mem_free(A);
        return EH_ERR_NOMEM;
    }
    for (int64_t m = 0; m < nb; m++) {
        double d = 0.0;
        load_cm(a, m * n * n, n, n, A, n);
        /* n == 0: the empty product, 1 (LAPACK wants lda >= 1: skip it) */
        lapack_int info = n == 0 ? 0
                                 : LAPACKE_dgetrf_work(LAPACK_COL_MAJOR, (lapack_int)n,
                                                       (lapack_int)n, A, (lapack_int)n, piv);
        if (info >= 0 && subnormal_pivot(A, n)) {
            eh_mem_free(A);
            eh_mem_free(piv);
            return eh_ref_det(call);
        }
        if (info == 0) {
            /* ref's product: the permutation's sign, then the pivots in
             * turn, without overflow or underflow on the way */
            int sign = 1;
            for (int64_t i = 0; i < n; i++)
                if (piv[i] != (lapack_int)(i + 1))
                    sign = -sign;
            d = eh_ref_det_from_lu(A, n, sign);
        } else if (info < 0) {
            eh_mem_free(A);
            eh_mem_free(piv);
            return lapack_rejected("det: LAPACK dgetrf", info);
        }
        eh_ref_linalg_store(out, m, 1, &d);
    }
    eh_mem_free(A);
    eh_mem_free(piv);
    return EH_OK;
}

/* ---- cholesky ------------------------------------------------------------------ */

eh_status eh_blas_cholesky(const eh_op_call *call)
{
    const eh_tensor *a = call->in[0];
    eh_tensor *out = call->out[0];
    int64_t nb = eh_ref_batch_count(a), n = a->shape[a->ndim - 1];
    if (out->size == 0 || nb <= 0)
        return EH_OK;
    if (!small_enough(n, n) || !lapack_ready(a, n * n))
        return eh_ref_cholesky(call);
    eh_blas_openblas_init();
    double *A = eh_ref_linalg_scratch("cholesky", n * n);
    if (!A)
        return EH_ERR_NOMEM;
    eh_status st = EH_OK;
    for (int64_t m = 0; m < nb; m++) {
        load_cm(a, m * n * n, n, n, A, n);
        /* 'L' reads the lower triangle of a (the column-major copy is a
         * itself), as ref and NumPy do */
        lapack_int info = LAPACKE_dpotrf_work(LAPACK_COL_MAJOR, 'L', (lapack_int)n, A,
                                              (lapack_int)n);
        /* OpenBLAS's potrf tests a pivot with "<= 0", which a NaN passes;
         * a NaN pivot leaves a NaN on L's diagonal from that column on, so
         * the first one is the order ref (which tests "not > 0") reports. */
        for (int64_t j = 0; info == 0 && j < n; j++)
            if (isnan(A[j * n + j]))
                info = (lapack_int)(j + 1);
        if (info > 0) {
            st = eh_ref_not_positive_definite(info, m, a->ndim > 2);
            break;
        }
        if (info < 0) {
            st = lapack_rejected("cholesky: LAPACK dpotrf", info);
            break;
        }
        for (int64_t j = 0; j < n; j++) /* zero the upper triangle */
            for (int64_t i = 0; i < j; i++)
                A[j * n + i] = 0.0;
        store_cm(out, m * n * n, n, n, A, n);
    }
    eh_mem_free(A);
    return st;
}

/* ---- qr ------------------------------------------------------------------------- */

/* Whether a matrix's largest entry is within 2^24 of DBL_MAX's binade,
 * where dgeqrf's reflectors may overflow. */
static bool needs_downscaling(const double *x, int64_t n)
{
    for (int64_t i = 0; i < n; i++)
        if (isfinite(x[i]) && fabs(x[i]) >= 0x1p1000)
            return true;
    return false;
}

eh_status eh_blas_qr(const eh_op_call *call)
{
    const eh_tensor *a = call->in[0];
    eh_tensor *qt = call->out[0], *rt = call->out[1];
    int64_t nb = eh_ref_batch_count(a);
    int64_t m = a->shape[a->ndim - 2], n = a->shape[a->ndim - 1], k = m < n ? m : n;
    if ((qt->size == 0 && rt->size == 0) || nb <= 0)
        return EH_OK;
    if (!small_enough(m, n) || !lapack_ready(a, m * n))
        return eh_ref_qr(call);
    eh_blas_openblas_init();
    double *A = eh_ref_linalg_scratch("qr", m * n);
    double *R = A ? eh_ref_linalg_scratch("qr", k * n) : NULL;
    double *tau = R ? eh_ref_linalg_scratch("qr", k) : NULL, *W = NULL;
    eh_status st = EH_OK;
    if (!tau) {
        st = EH_ERR_NOMEM;
        goto done;
    }
    double q1 = 0.0, q2 = 0.0;
    lapack_int lm = (lapack_int)m, ln = (lapack_int)n, lk = (lapack_int)k;
    lapack_int lda = lm > 0 ? lm : 1;
    if (k > 0) {
        LAPACKE_dgeqrf_work(LAPACK_COL_MAJOR, lm, ln, A, lda, tau, &q1, -1);
        LAPACKE_dorgqr_work(LAPACK_COL_MAJOR, lm, lk, lk, A, lda, tau, &q2, -1);
    }
    lapack_int lwork = work_size(q1 > q2 ? q1 : q2);
    if (lwork < ln)
        lwork = ln > 0 ? ln : 1;
    if (!(W = eh_ref_linalg_scratch("qr", lwork))) {
        st = EH_ERR_NOMEM;
        goto done;
    }
    for (int64_t b = 0; b < nb; b++) {
        if (k == 0) {
            /* q (m, 0) or (0, 0) and r (0, n): nothing to store */
            continue;
        }
        load_cm(a, b * m * n, m, n, A, lda);
        /* Near the top of the range dgeqrf's reflectors overflow
         * (|column|^2 beyond DBL_MAX): factor A 2^-e (max |entry| in
         * [0.5, 1)), R = R' 2^e, Q as is.  Only there: the scaling is
         * exact, but entries far below the largest would turn subnormal
         * (diag(1e300, 1e-300) would lose its 1e-300), and dgeqrf's
         * norms need no help elsewhere. */
        int e = needs_downscaling(A, m * n) ? eh_ref_pow2_normalize(A, m * n) : 0;
        lapack_int info = LAPACKE_dgeqrf_work(LAPACK_COL_MAJOR, lm, ln, A, lda, tau, W, lwork);
        /* R: the upper triangle of the first k rows (column-major k x n) */
        for (int64_t j = 0; j < n; j++)
            for (int64_t i = 0; i < k; i++)
                R[j * k + i] = i <= j ? ldexp(A[j * lda + i], e) : 0.0;
        if (info == 0)
            info = LAPACKE_dorgqr_work(LAPACK_COL_MAJOR, lm, lk, lk, A, lda, tau, W, lwork);
        if (info != 0) {
            st = lapack_rejected("qr: LAPACK", info);
            goto done;
        }
        /* Sign convention: R[i, i] >= 0, Q's column i negated with row i. */
        for (int64_t i = 0; i < k; i++)
            if (R[i * k + i] < 0.0) {
                for (int64_t c = i; c < n; c++)
                    R[c * k + i] = -R[c * k + i];
                for (int64_t r = 0; r < m; r++)
                    A[i * lda + r] = -A[i * lda + r];
            }
        store_cm(qt, b * m * k, m, k, A, lda);
        store_cm(rt, b * k * n, k, n, R, k);
    }
done:
    eh_mem_free(A);
    eh_mem_free(R);
    eh_mem_free(tau);
    eh_mem_free(W);
    return st;
}

/* ---- svd ---------------------------------------------------------------------- */

eh_status eh_blas_svd(const eh_op_call *call)
{
    const eh_tensor *a = call->in[0];
    eh_tensor *ut = call->out[0], *stt = call->out[1], *vtt = call->out[2];
    int full = call->p.i[0] != 0;
    int64_t nb = eh_ref_batch_count(a);
    int64_t m = a->shape[a->ndim - 2], n = a->shape[a->ndim - 1], k = m < n ? m : n;
    int64_t ucols = full ? m : k, vrows = full ? n : k;
    if ((ut->size == 0 && stt->size == 0 && vtt->size == 0) || nb <= 0)
        return EH_OK;
    if (!small_enough(m, n) || !small_enough(m, m) || !small_enough(n, n))
        return eh_ref_svd(call);
    eh_blas_openblas_init();
    int64_t ldm = m > 0 ? m : 1, ldv = vrows > 0 ? vrows : 1;
    double *A = eh_ref_linalg_scratch("svd", m * n);
    double *U = A ? eh_ref_linalg_scratch("svd", m * ucols) : NULL;
    double *VT = U ? eh_ref_linalg_scratch("svd", vrows * n) : NULL;
    double *S = VT ? eh_ref_linalg_scratch("svd", k) : NULL;
    double *W = NULL;
    lapack_int *iw = S ? iscratch("svd", 8 * k) : NULL;
    eh_status st = EH_OK;
    if (!iw) {
        st = EH_ERR_NOMEM;
        goto done;
    }
    char jobz = full ? 'A' : 'S';
    lapack_int lwork = 1;
    if (k > 0) {
        double q = 0.0;
        LAPACKE_dgesdd_work(LAPACK_COL_MAJOR, jobz, (lapack_int)m, (lapack_int)n, A,
                            (lapack_int)ldm, S, U, (lapack_int)ldm, VT, (lapack_int)ldv, &q, -1,
                            iw);
        lwork = work_size(q);
    }
    if (!(W = eh_ref_linalg_scratch("svd", lwork))) {
        st = EH_ERR_NOMEM;
        goto done;
    }
    double tol = eh_ref_sign_tol(a->dtype);
    for (int64_t b = 0; b < nb; b++) {
        load_cm(a, b * m * n, m, n, A, ldm);
        if (!eh_ref_all_finite(A, m * n)) {
            st = eh_ref_linalg_fail(EH_REF_MSG_SVD_NONFINITE, b, a->ndim > 2);
            goto done;
        }
        if (k == 0) {
            /* nothing to decompose: a full u or vt is the identity (ref
             * completes the empty basis from the standard one) */
            for (int64_t i = 0; i < m * ucols; i++)
                U[i] = 0.0;
            for (int64_t i = 0; i < ucols; i++)
                U[i * ldm + i] = 1.0;
            for (int64_t i = 0; i < vrows * n; i++)
                VT[i] = 0.0;
            for (int64_t i = 0; i < vrows; i++)
                VT[i * ldv + i] = 1.0;
        } else {
            lapack_int info = LAPACKE_dgesdd_work(LAPACK_COL_MAJOR, jobz, (lapack_int)m,
                                                  (lapack_int)n, A, (lapack_int)ldm, S, U,
                                                  (lapack_int)ldm, VT, (lapack_int)ldv, W, lwork,
                                                  iw);
            if (info > 0) {
                st = eh_ref_linalg_fail(EH_REF_MSG_SVD_NO_CONVERGE, b, a->ndim > 2);
                goto done;
            }
            if (info < 0) {
                st = lapack_rejected("svd: LAPACK dgesdd", info);
                goto done;
            }
        }
        /* Sign convention: by u's column (column-major: contiguous), vt's
         * row r (column-major: stride ldv) flipped with it; extra vt rows
         * on their own. */
        for (int64_t r = 0; r < ucols; r++) {
            double *col = U + r * ldm;
            if (m > 0 && col[eh_ref_sign_index(col, m, 1, tol)] < 0.0) {
                eh_ref_negate(col, m, 1);
                if (r < k)
                    eh_ref_negate(VT + r, n, ldv);
            }
        }
        for (int64_t r = k; r < vrows; r++)
            if (VT[r + eh_ref_sign_index(VT + r, n, ldv, tol) * ldv] < 0.0)
                eh_ref_negate(VT + r, n, ldv);
        store_cm(ut, b * m * ucols, m, ucols, U, ldm);
        eh_ref_linalg_store(stt, b * k, k, S);
        store_cm(vtt, b * vrows * n, vrows, n, VT, ldv);
    }
done:
    eh_mem_free(A);
    eh_mem_free(U);
    eh_mem_free(VT);
    eh_mem_free(S);
    eh_mem_free(W);
    eh_mem_free(iw);
    return st;
}

/* ---- eigh ---------------------------------------------------------------------- */

eh_status eh_blas_eigh(const eh_op_call *call)
{
    const eh_tensor *a = call->in[0];
    eh_tensor *wt = call->out[0], *vt = call->out[1];
    int64_t nb = eh_ref_batch_count(a), n = a->shape[a->ndim - 1];
    if (wt->size == 0 || nb <= 0)
        return EH_OK;
    if (!small_enough(n, n))
        return eh_ref_eigh(call);
    eh_blas_openblas_init();
    double *A = eh_ref_linalg_scratch("eigh", n * n);
    double *w = A ? eh_ref_linalg_scratch("eigh", n) : NULL, *W = NULL;
    lapack_int *iw = NULL;
    eh_status st = EH_OK;
    if (!w) {
        st = EH_ERR_NOMEM;
        goto done;
    }
    double q = 0.0;
    lapack_int qi = 0;
    LAPACKE_dsyevd_work(LAPACK_COL_MAJOR, 'V', 'L', (lapack_int)n, A, (lapack_int)n, w, &q, -1,
                        &qi, -1);
    lapack_int lwork = work_size(q), liwork = qi > 0 ? qi : 1;
    if (!(W = eh_ref_linalg_scratch("eigh", lwork)) || !(iw = iscratch("eigh", liwork))) {
        st = EH_ERR_NOMEM;
        goto done;
    }
    double tol = eh_ref_sign_tol(a->dtype);
    for (int64_t b = 0; b < nb; b++) {
        load_cm(a, b * n * n, n, n, A, n);
        /* the lower triangle of a: rows i >= j of column j */
        for (int64_t j = 0; j < n; j++)
            for (int64_t i = j; i < n; i++)
                if (!isfinite(A[j * n + i])) {
                    st = eh_ref_linalg_fail(EH_REF_MSG_EIGH_NONFINITE, b, a->ndim > 2);
                    goto done;
                }
        lapack_int info = LAPACKE_dsyevd_work(LAPACK_COL_MAJOR, 'V', 'L', (lapack_int)n, A,
                                              (lapack_int)n, w, W, lwork, iw, liwork);
        if (info > 0) {
            st = eh_ref_linalg_fail(EH_REF_MSG_EIGH_NO_CONVERGE, b, a->ndim > 2);
            goto done;
        }
        if (info < 0) {
            st = lapack_rejected("eigh: LAPACK dsyevd", info);
            goto done;
        }
        /* ascending already; eigenvector r is column r (contiguous) */
        for (int64_t r = 0; r < n; r++) {
            double *col = A + r * n;
            if (col[eh_ref_sign_index(col, n, 1, tol)] < 0.0)
                eh_ref_negate(col, n, 1);
        }
        eh_ref_linalg_store(wt, b * n, n, w);
        store_cm(vt, b * n * n, n, n, A, n);
    }
done:
    eh_mem_free(A);
    eh_mem_free(w);
    eh_mem_free(W);
    eh_mem_free(iw);
    return st;
}

/* ---- lstsq ---------------------------------------------------------------------- */

eh_status eh_blas_lstsq(const eh_op_call *call)
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
    int64_t mx = m > n ? m : n, mn = m < n ? m : n;
    if (!small_enough(m, n) || !small_enough(mx, k) || !tensor_finite(b))
        return eh_ref_lstsq(call);
    eh_blas_openblas_init();
    int64_t lda = m > 0 ? m : 1, ldb = mx > 0 ? mx : 1;
    double *A = eh_ref_linalg_scratch("lstsq", m * n);
    double *B = A ? eh_ref_linalg_scratch("lstsq", ldb * k) : NULL;
    double *S = B ? eh_ref_linalg_scratch("lstsq", mn) : NULL, *W = NULL;
    lapack_int *iw = NULL;
    eh_status st = EH_OK;
    if (!S) {
        st = EH_ERR_NOMEM;
        goto done;
    }
    lapack_int lwork = 1, liwork = 1, rank;
    if (mn > 0) {
        double q = 0.0;
        lapack_int qi = 0;
        LAPACKE_dgelsd_work(LAPACK_COL_MAJOR, (lapack_int)m, (lapack_int)n, (lapack_int)k, A,
                            (lapack_int)lda, B, (lapack_int)ldb, S, rcond, &rank, &q, -1, &qi);
        lwork = work_size(q);
        liwork = qi > 0 ? qi : 1;
    }
    if (!(W = eh_ref_linalg_scratch("lstsq", lwork)) || !(iw = iscratch("lstsq", liwork))) {
        st = EH_ERR_NOMEM;
        goto done;
    }
    int64_t sa[EH_MAX_DIMS], sb[EH_MAX_DIMS];
    eh_ref_batch_strides(a, a->ndim - 2, m * n, bnd, bshape, sa);
    eh_ref_batch_strides(b, vec ? 0 : b->ndim - 2, m * k, bnd, bshape, sb);
    eh_nd_iter it;
    eh_nd_iter_init(&it, bnd, bshape);
    int64_t idx = 0;
    do {
        load_cm(a, eh_nd_iter_offset(&it, sa), m, n, A, lda);
        if (!eh_ref_all_finite(A, m * n)) {
            st = eh_ref_linalg_fail(EH_REF_MSG_LSTSQ_NONFINITE, idx, bnd > 0);
            goto done;
        }
        for (int64_t i = 0; i < ldb * k; i++)
            B[i] = 0.0;
        load_cm(b, eh_nd_iter_offset(&it, sb), m, k, B, ldb);
        if (mn > 0) {
            lapack_int info = LAPACKE_dgelsd_work(LAPACK_COL_MAJOR, (lapack_int)m, (lapack_int)n,
                                                  (lapack_int)k, A, (lapack_int)lda, B,
                                                  (lapack_int)ldb, S, rcond, &rank, W, lwork, iw);
            if (info > 0) {
                st = eh_ref_linalg_fail(EH_REF_MSG_LSTSQ_NO_CONVERGE, idx, bnd > 0);
                goto done;
            }
            if (info < 0) {
                st = lapack_rejected("lstsq: LAPACK dgelsd", info);
                goto done;
            }
        } else {
            for (int64_t i = 0; i < ldb * k; i++) /* m == 0: x = 0 */
                B[i] = 0.0;
        }
        store_cm(x, idx * n * k, n, k, B, ldb);
        idx++;
    } while (eh_nd_iter_next(&it));
done:
    eh_mem_free(A);
    eh_mem_free(B);
    eh_mem_free(S);
    eh_mem_free(W);
    eh_mem_free(iw);
    return st;
}
