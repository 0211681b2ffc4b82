/* Row-major products over host arrays. */
#ifndef ROWS_H
#define ROWS_H

void gemm_rows(int m, int n, int k, float alpha, const float *a, int lda, const float *b,
               int ldb, float beta, float *c, int ldc);
void gemv_rows(int trans, int m, int n, const float *a, const float *x, float *y);

#endif
