/* The legacy BLAS backend's header, outside backends/. */
#ifndef BLAS_OPS_H
#define BLAS_OPS_H
#include <eh/eh.h>
eh_tensor *eh_blas_matmul(const eh_tensor *a, const eh_tensor *b);
void legacy_gemm(const float *a, const float *b, float *c, int n);
#endif
