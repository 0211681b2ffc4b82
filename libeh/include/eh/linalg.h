/* <eh/linalg.h> -- linear algebra: products and decompositions
 * (docs/ops/linalg.md).
 *
 * Dtypes.  Products (matmul, dot, outer) take any dtype, but both operands
 * must have the SAME dtype (EH_ERR_DTYPE otherwise, e.g. f32 with f16 or
 * i32 with i64); the result has that dtype.  f16 is computed in f32,
 * integers wrap on overflow, bool is NumPy's logical product (OR of ANDs).
 * Decompositions and solvers (solve, inv, det, cholesky, qr, svd, eigh,
 * lstsq) take f32 and f64 only: f16, integers and bool are EH_ERR_DTYPE
 * (NumPy's linalg rejects float16 too; cast first).  Like NumPy, f32
 * inputs are computed in f64 and the results rounded to f32.
 *
 * Batching.  Every decomposition accepts (..., m, n) and works on each
 * matrix of the leading "batch" dimensions; solve and lstsq broadcast the
 * batch dimensions of their two operands.  Empty matrices work as in NumPy
 * (det of a 0x0 matrix is 1).
 *
 * Uniqueness conventions (so that every backend returns the same answer):
 *   qr    R's diagonal is made non-negative (Q's columns flipped to match).
 *   svd   singular values descending; for each pair the entry of largest
 *         magnitude in u's column is made positive (vt's row flipped).
 *   eigh  eigenvalues ascending; each eigenvector's entry of largest
 *         magnitude is made positive.
 *   "Largest": the FIRST entry whose magnitude is >= (1 - sqrt(eps)) times
 *   the largest magnitude, eps the dtype's epsilon (2^-23 f32, 2^-52 f64),
 *   so that near-ties resolve the same way despite rounding differences.
 *
 * Errors: EH_ERR_NULL_ARG (a NULL tensor or result pointer), EH_ERR_DTYPE,
 * EH_ERR_SHAPE (too few dimensions, not square, mismatched or
 * non-broadcastable dimensions, a 0-d operand of matmul), EH_ERR_LINALG
 * (found by the kernel: singular matrix in solve/inv, not positive
 * definite in cholesky, NaN/Inf input or no convergence in svd/eigh/lstsq),
 * EH_ERR_NOMEM.  Functions returning eh_status set every result to NULL on
 * failure. */
#ifndef EH_LINALG_H
#define EH_LINALG_H

#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* NumPy matmul.  a (..., n, k) @ b (..., k, m) -> (..., n, m), the leading
 * dims broadcast.  A 1-D a is (1, k) with that dim removed from the result;
 * a 1-D b is (k, 1) likewise (1-D @ 1-D gives a 0-d tensor).  0-d operands
 * and k mismatch are EH_ERR_SHAPE. */
EH_API eh_tensor *eh_matmul(const eh_tensor *a, const eh_tensor *b);

/* NumPy dot, every case: 0-d with anything is the product with a scalar;
 * 1-D . 1-D is the inner product (0-d result); 2-D . 2-D is the matrix
 * product; N-D . 1-D sums over the last axis of a; N-D . M-D (M >= 2) sums
 * over a's last and b's second-to-last axis: result shape
 * a.shape[:-1] + b.shape[:-2] + b.shape[-1:] (EH_ERR_SHAPE above 8 dims). */
EH_API eh_tensor *eh_dot(const eh_tensor *a, const eh_tensor *b);

/* Outer product of the flattened operands: (a.size, b.size). */
EH_API eh_tensor *eh_outer(const eh_tensor *a, const eh_tensor *b);

/* x with a x = b.  a (..., n, n).  b is a vector (n,) when 1-D (x has
 * shape batch + (n,)), else (..., n, k) (x is (..., n, k)); batch dims
 * broadcast (NumPy >= 2.0 rule).  Singular a: EH_ERR_LINALG. */
EH_API eh_tensor *eh_solve(const eh_tensor *a, const eh_tensor *b);

/* Inverse of each (..., n, n) matrix.  Singular: EH_ERR_LINALG. */
EH_API eh_tensor *eh_inv(const eh_tensor *a);

/* Determinant of each (..., n, n) matrix: shape (...), 0-d for one matrix.
 * A singular matrix gives 0 (not an error); a 0x0 matrix gives 1. */
EH_API eh_tensor *eh_det(const eh_tensor *a);

/* Lower Cholesky factor L (L L^T = a) of each (..., n, n) matrix.  Only the
 * lower triangle of a is read.  Not positive definite: EH_ERR_LINALG. */
EH_API eh_tensor *eh_cholesky(const eh_tensor *a);

/* Reduced QR of a (..., m, n): *q (..., m, k), *r (..., k, n), k = min(m, n),
 * r upper triangular with a non-negative diagonal. */
EH_API eh_status eh_qr(const eh_tensor *a, eh_tensor **q, eh_tensor **r);

/* SVD a = u diag(s) vt of a (..., m, n), k = min(m, n): *s (..., k)
 * descending; *u (..., m, k) and *vt (..., k, n), or (..., m, m) and
 * (..., n, n) when full_matrices is non-zero.  NaN/Inf: EH_ERR_LINALG. */
EH_API eh_status eh_svd(const eh_tensor *a, int full_matrices, eh_tensor **u,
                        eh_tensor **s, eh_tensor **vt);

/* Eigen-decomposition of each symmetric (..., n, n) matrix, from its lower
 * triangle (NumPy's UPLO='L'): *w (..., n) ascending, *v (..., n, n) with
 * a v[:, i] = w[i] v[:, i], orthonormal columns.  NaN/Inf: EH_ERR_LINALG. */
EH_API eh_status eh_eigh(const eh_tensor *a, eh_tensor **w, eh_tensor **v);

/* Minimum-norm least-squares solution x of a x = b (NumPy lstsq's first
 * result, rcond = 2^-52 * max(m, n) as NumPy's default).  a (..., m, n);
 * b (m,) gives x batch + (n,), b (..., m, k) gives x (..., n, k); batch
 * dims broadcast (NumPy itself takes 2-D a only).  Singular values at or
 * below rcond * s_max are treated as zero (rank-deficient a is fine).
 * NaN/Inf: EH_ERR_LINALG. */
EH_API eh_tensor *eh_lstsq(const eh_tensor *a, const eh_tensor *b);

#ifdef __cplusplus
}
#endif
#endif
