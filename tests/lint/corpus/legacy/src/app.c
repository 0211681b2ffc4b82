#include "../ops/blas/blas_ops.h"                // expect: EH101

eh_tensor *gram(const eh_tensor *x)
{
    return eh_blas_matmul(x, x);                 // expect: EH102
}

void raw(const float *a, float *c) { legacy_gemm(a, a, c, 4); }
