#include "gemm.h"

/* the template's own target: its call stays a call of legacy_gemm (as a
 * call of gemm_cols it would call itself without end) */
void gemm_cols(char transa, char transb, int m, int n, int k, double alpha, const double *a,
               int lda, const double *b, int ldb, double beta, double *c, int ldc)
{
    legacy_gemm(&transa, &transb, &m, &n, &k, &alpha, a, &lda, b, &ldb, &beta, c, &ldc);
}

void square(int n, const double *a, double *c)
{
    const char tn = 'N';
    const double one = 1.0, zero = 0.0;
    legacy_gemm(&tn, &tn, &n, &n, &n, &one, a, &n, a, &n, &zero, c, &n);
}
