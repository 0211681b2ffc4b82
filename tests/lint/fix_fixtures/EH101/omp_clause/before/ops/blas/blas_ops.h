/* The legacy BLAS backend's header (ops/blas/: a legacy backend directory). */
#ifndef BLAS_OPS_H
#define BLAS_OPS_H
#include <eh/eh.h>

#define BLAS_TILE 64

eh_tensor *eh_blas_matmul(const eh_tensor *a, const eh_tensor *b);
eh_tensor *eh_blas_transpose(const eh_tensor *x, const int *perm, int n_perm);

#endif
