/* backends/ref/linalg_kernels.h -- ref-internal linear-algebra helpers
 * (not ops: no frontend calls them).
 *
 * All are defined in linalg_decomp.c.  ref's own files use them (linalg.c
 * eh_ref_batch_strides, reduction.c eh_ref_singular_values), and so does
 * the blas backend (backends/blas/decomp.c, linalg.c): ref defines the
 * decompositions' conventions -- batch layout, sign rule, error wording --
 * and a faster backend applies these same functions to its own results
 * rather than a copy of them. */
#ifndef EH_REF_LINALG_KERNELS_H
#define EH_REF_LINALG_KERNELS_H

#include "ref.h"

/* ---- batches --------------------------------------------------------------- */

/* Number of matrices in t (its dims before the last two); 0 when one of
 * them is 0; -1 when the product overflows, which the frontend only lets
 * through when every output is empty. */
int64_t eh_ref_batch_count(const eh_tensor *t);

/* Strides, in elements, of t's first `tb` (batch) dims when broadcast
 * against the batch shape (bnd, bshape); `mat` is the elements per matrix.
 * A dim t does not have, or has as 1 where bshape does not, gets stride 0. */
void eh_ref_batch_strides(const eh_tensor *t, int tb, int64_t mat, int bnd,
                          const int64_t *bshape, int64_t *strides);

/* ---- the parameters of solve and lstsq --------------------------------------- */

/* Decoded once from eh_op_call.p, in the layout libeh/src/ops_linalg.c
 * packs and documents, for ref's kernels and blas's alike. */
typedef struct eh_ref_solve_params {
    int64_t n, k;            /* a's matrices are n x n; b's n x k (k = 1 for a vector) */
    int vec;                 /* b is the vector form */
    int bnd;                 /* batch dims, shape in bshape[0 .. bnd) */
    const int64_t *bshape;
} eh_ref_solve_params;

typedef struct eh_ref_lstsq_params {
    int64_t m, n, k;         /* a's matrices are m x n; b's m x k */
    int vec, bnd;
    const int64_t *bshape;
    double rcond;            /* singular values <= rcond * max count as 0 */
} eh_ref_lstsq_params;

eh_ref_solve_params eh_ref_solve_params_of(const eh_op_call *call);
eh_ref_lstsq_params eh_ref_lstsq_params_of(const eh_op_call *call);

/* ---- scratch and stores ---------------------------------------------------- */

/* count doubles (at least one), or NULL with EH_ERR_NOMEM recorded
 * ("<op>: out of memory for N scratch values"). */
double *eh_ref_linalg_scratch(const char *op, int64_t count);

/* n doubles from src into t (f32 or f64) at element offset off, rounded
 * to f32 by a plain cast: the rounding every decomposition's result gets. */
void eh_ref_linalg_store(eh_tensor *t, int64_t off, int64_t n, const double *src);

/* Whether x[0 .. n) are all finite. */
int eh_ref_all_finite(const double *x, int64_t n);

/* Scale x[0 .. n) by 2^-e so that max |x| is in [0.5, 1) and return e (0
 * when x is all zero or not finite): exact, so entries near the f64 limits
 * factor without overflow; results are scaled back by 2^e.  ref's qr, svd
 * and eigh do this, and blas's qr (dgeqrf does not scale by itself). */
int eh_ref_pow2_normalize(double *x, int64_t n);

/* The determinant of an LU-factored n x n matrix: sign (the row
 * permutation's, +-1) times the product of the diagonal A[i * n + i]
 * (row- or column-major alike), taken in order with the exponents kept
 * apart (frexp), so that no partial product overflows or underflows: the
 * result is inf or 0 only when the determinant itself is beyond the f64
 * range (NumPy's det, which sums logarithms, also avoids that; a plain
 * product gave inf for diag(1e200, 1e200, 1e-200)).  Where every partial
 * product of the plain loop stays normal, the bits are the plain loop's;
 * a subnormal result is rounded once.  NaN and Inf propagate as in the
 * plain product (0 * Inf is NaN).  ref's det and blas's use it. */
double eh_ref_det_from_lu(const double *A, int64_t n, int sign);

/* ---- the sign convention of svd and eigh (docs/ops/linalg.md) --------------- */

/* The index of the first entry of x[0], x[stride], ... (n entries) whose
 * magnitude is >= (1 - tol) * the largest: the entry made positive. */
int64_t eh_ref_sign_index(const double *x, int64_t n, int64_t stride, double tol);

/* sqrt(eps) of the output dtype: the tie tolerance of eh_ref_sign_index. */
double eh_ref_sign_tol(eh_dtype dtype);

/* Negate x[0], x[stride], ... (n entries). */
void eh_ref_negate(double *x, int64_t n, int64_t stride);

/* ---- data-dependent errors --------------------------------------------------- */

/* The EH_ERR_LINALG messages, worded once: every backend reports ref's. */
#define EH_REF_MSG_SOLVE_SINGULAR   "solve: matrix 'a' is singular"
#define EH_REF_MSG_INV_SINGULAR     "inv: matrix is singular"
#define EH_REF_MSG_SVD_NONFINITE    "svd: input contains NaN or Inf"
#define EH_REF_MSG_SVD_NO_CONVERGE  "svd: did not converge"
#define EH_REF_MSG_EIGH_NONFINITE   "eigh: input contains NaN or Inf"
#define EH_REF_MSG_EIGH_NO_CONVERGE "eigh: did not converge"
#define EH_REF_MSG_LSTSQ_NONFINITE  "lstsq: 'a' contains NaN or Inf"
#define EH_REF_MSG_LSTSQ_NO_CONVERGE "lstsq: SVD did not converge"

/* Records EH_ERR_LINALG with message `msg` (one of the above) for matrix
 * idx, followed by " (matrix idx of the batch)" when `batched`; returns
 * EH_ERR_LINALG. */
eh_status eh_ref_linalg_fail(const char *msg, int64_t idx, int batched);

/* cholesky's failure: the leading minor of order `order` (1-based) is not
 * positive definite, for matrix idx. */
eh_status eh_ref_not_positive_definite(int64_t order, int64_t idx, int batched);

/* ---- singular values ----------------------------------------------------------- */

/* The singular values of the row-major m x n matrix a (entries finite),
 * sorted descending, into sv[0 .. min(m, n)).  The same algorithm as
 * eh_ref_svd (one-sided Jacobi, linalg_decomp.c), without the vectors: the
 * same values as eh_ref_svd's s, including the exact zeros it returns for
 * columns cancelled to rounding noise (rank-deficient matrices converge).
 * Scratch is allocated inside.  Returns EH_OK, EH_ERR_NOMEM (scratch) or
 * EH_ERR_LINALG (the iteration did not converge), and records no error
 * itself: it may run on a worker thread, so the caller reports failures. */
eh_status eh_ref_singular_values(const double *a, int64_t m, int64_t n, double *sv);

#endif
