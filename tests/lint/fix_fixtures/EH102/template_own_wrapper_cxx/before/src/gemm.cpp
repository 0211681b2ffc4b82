#include "gemm.h"

/* C++: the template's target in a namespace, as a member defined out of
 * its class and one defined inside it: in each, an unqualified
 * gemm_cols finds that function itself, so its call stays a call of
 * legacy_gemm */
namespace util {
void gemm_cols(char transa, char transb, int m, int n, int k, double alpha, const double *a,
               int lda, const double *b, int ldb, double beta, double *c, int ldc)
{
    legacy_gemm(&transa, &transb, &m, &n, &k, &alpha, a, &lda, b, &ldb, &beta, c, &ldc);
}
}

struct Gemm {
    void gemm_cols(char transa, char transb, int m, int n, int k, double alpha, const double *a,
                   int lda, const double *b, int ldb, double beta, double *c, int ldc);
    void gemm_cols(char transa, int n, const double *a, double *c)
    {
        const double one = 1.0, zero = 0.0;
        legacy_gemm(&transa, &transa, &n, &n, &n, &one, a, &n, a, &n, &zero, c, &n);
    }
};

void Gemm::gemm_cols(char transa, char transb, int m, int n, int k, double alpha, const double *a,
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
