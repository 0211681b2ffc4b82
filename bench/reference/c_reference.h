/* bench/reference/c_reference.h -- the hand-written C references of the
 * libeh section, compiled with the same flags as libeh (the Makefile's
 * CFLAGS).  Kept apart from bench/libeh_cases.c so that file stays plain
 * frontend code (<eh/eh.h> only). */
#ifndef EH_BENCH_C_REFERENCE_H
#define EH_BENCH_C_REFERENCE_H

#include <stdint.h>

/* Name of the BLAS the harness can call directly ("OpenBLAS cblas_sgemm"),
 * or NULL when none is linked (libeh built without the blas backend). */
const char *cref_blas_name(void);

/* c = a b for row-major n x n f32 matrices, with cblas_sgemm, OpenBLAS
 * set to `threads` threads.  -1 when no BLAS is linked. */
int cref_sgemm(int n, const float *a, const float *b, float *c, int threads);

/* The hand-fused elementwise chain, one pass:
 *   out[i] = sqrtf(fabsf(tanhf((x[i] - m) / s) * 3 + 1))
 * over contiguous ranges on `threads` threads (the caller is one), in
 * blocks, with the same vector tanh as libeh's blas backend when it is
 * built (cref_chain_math says which). */
void cref_chain(const float *x, float *out, int64_t n, float m, float s, int threads);
const char *cref_chain_math(void);

/* out[i] = x[i] + y[i] on `threads` threads. */
void cref_add(const float *x, const float *y, float *out, int64_t n, int threads);

/* A fresh 64-byte-aligned buffer of n floats, as libeh allocates results;
 * with huge = 1 also madvise(MADV_HUGEPAGE) on it, as NumPy does for large
 * arrays on Linux (a no-op where unsupported).  Free with free(). */
float *cref_alloc(int64_t n, int huge);

#endif
