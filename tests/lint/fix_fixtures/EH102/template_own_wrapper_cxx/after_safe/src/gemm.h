#ifndef GEMM_H
#define GEMM_H

void legacy_gemm(const char *transa, const char *transb, const int *m, const int *n,
                 const int *k, const double *alpha, const double *a, const int *lda,
                 const double *b, const int *ldb, const double *beta, double *c,
                 const int *ldc);
void gemm_cols(char transa, char transb, int m, int n, int k, double alpha, const double *a,
               int lda, const double *b, int ldb, double beta, double *c, int ldc);

#endif
