/* backends/ref/lu_getf2.h -- ref's small-order LU kernel (simd/lu_getf2.c),
 * one build per instruction set, all giving the same bits, and the pivot
 * step it shares with linalg_decomp.c's right-looking LU. */
#ifndef EH_REF_LU_GETF2_H
#define EH_REF_LU_GETF2_H

#include <stdint.h>
#include <eh/backend_api.h>

#include <math.h>

/* Swap rows j and p (> j) of the n x n matrix A. */
static inline void eh_ref_lu_swap_rows(double *A, int64_t n, int64_t j, int64_t p)
{
    for (int64_t c = 0; c < n; c++) {
        double t = A[j * n + c];
        A[j * n + c] = A[p * n + c];
        A[p * n + c] = t;
    }
}

/* Partial pivoting on column j from row j down: the first entry of largest
 * magnitude (LAPACK's idamax). */
static inline int64_t eh_ref_lu_pivot_row(const double *A, int64_t n, int64_t j)
{
    int64_t p = j;
    double best = fabs(A[j * n + j]);
    for (int64_t i = j + 1; i < n; i++)
        if (fabs(A[i * n + j]) > best) {
            best = fabs(A[i * n + j]);
            p = i;
        }
    return p;
}

/* Step j's pivoting: the pivot row found, recorded in piv[j] and swapped
 * into row j (*sign flipped when it moves).  1 when the pivot is exactly
 * zero (singular). */
static inline int eh_ref_lu_pivot(double *A, int64_t n, int64_t j, int64_t *piv, int *sign)
{
    int64_t p = eh_ref_lu_pivot_row(A, n, j);
    piv[j] = p;
    if (A[p * n + j] == 0.0)
        return 1;
    if (p != j) {
        eh_ref_lu_swap_rows(A, n, j, p);
        *sign = -*sign;
    }
    return 0;
}

/* Orders up to this use the getf2 kernel (linalg_decomp.c, lu_factor). */
#define EH_REF_LU_GETF2_MAX_N 9

/* In-place LU of the row-major n x n matrix A (1 <= n <=
 * EH_REF_LU_GETF2_MAX_N) in OpenBLAS's getf2 order with partial pivoting:
 * row j was swapped with row piv[j] >= j at step j.  Returns 1 when a
 * pivot is exactly zero (stops there, piv[j] recorded), else 0.  *sign is
 * the permutation's sign. */
#define EH_REF_LU_GETF2(isa) \
    int eh_ref_lu_getf2_##isa(double *A, int64_t n, int64_t *piv, int *sign);
EH_REF_LU_GETF2(sse2)
#if defined(__x86_64__)
EH_REF_LU_GETF2(avx2)
EH_REF_LU_GETF2(avx512)
#endif

static inline int eh_ref_lu_getf2(double *A, int64_t n, int64_t *piv, int *sign)
{
#if defined(__x86_64__)
    switch (eh_isa_level()) {
    case EH_ISA_AVX512: return eh_ref_lu_getf2_avx512(A, n, piv, sign);
    case EH_ISA_AVX2: return eh_ref_lu_getf2_avx2(A, n, piv, sign);
    default: break;
    }
#endif
    return eh_ref_lu_getf2_sse2(A, n, piv, sign);
}

#endif
