#include <x86_64-linux-gnu/cblas.h>              // expect: EH101
#include "blas_ops.h"

eh_tensor *eh_blas_matmul(const eh_tensor *a, const eh_tensor *b)   // expect: EH104
{
    return eh_matmul(a, b);
}

void legacy_gemm(const float *a, const float *b, float *c, int n)   // expect: EH104
{
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f,   // expect: EH102
                a, n, b, n, 0.0f, c, n);
}

/* a helper of the directory that uses no backend symbol itself */
int legacy_block_size(int n) { return n < 64 ? n : 64; }
