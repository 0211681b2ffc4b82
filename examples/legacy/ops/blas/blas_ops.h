/* The OpenBLAS/LAPACKE implementations of the ops
 * where a tuned library pays off.  Each eh_blas_<op> takes the same
 * arguments as the libeh op eh_<op>; callers pick between these and the
 * eh_ref_<op> versions at run time (see fit.c, mlp.c).  f32 only; NULL on a
 * shape or dtype they do not handle, or on a LAPACK failure. */
#ifndef LEGACY_BLAS_OPS_H
#define LEGACY_BLAS_OPS_H

#include <eh/eh.h>

/* gemm.c */
eh_tensor *eh_blas_matmul(const eh_tensor *a, const eh_tensor *b);
eh_tensor *eh_blas_dot(const eh_tensor *a, const eh_tensor *b);

/* axpy.c */
eh_tensor *eh_blas_add(const eh_tensor *a, const eh_tensor *b);

/* lstsq.c */
eh_tensor *eh_blas_lstsq(const eh_tensor *a, const eh_tensor *b);

/* distance.c: the application's own op, which libeh does not have */
eh_tensor *eh_blas_pairwise_sqdist(const eh_tensor *x, const eh_tensor *y);

#endif
