/* backends/ref/linalg_kernels.h -- ref-internal linear-algebra helpers
 * shared by ref's kernel files (not ops: no frontend calls them).
 *
 * Both are defined in linalg_decomp.c; linalg.c uses eh_ref_batch_strides,
 * reduction.c (matrix 2 and nuclear norms) eh_ref_singular_values. */
#ifndef EH_REF_LINALG_KERNELS_H
#define EH_REF_LINALG_KERNELS_H

#include "ref.h"

/* Strides, in elements, of t's first `tb` (batch) dims when broadcast
 * against the batch shape (bnd, bshape); `mat` is the elements per matrix.
 * A dim t does not have, or has as 1 where bshape does not, gets stride 0. */
void eh_ref_batch_strides(const eh_tensor *t, int tb, int64_t mat, int bnd,
                          const int64_t *bshape, int64_t *strides);

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
