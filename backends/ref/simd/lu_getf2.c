/* ref's LU for orders <= EH_REF_LU_GETF2_MAX_N in OpenBLAS's getf2 order
 * (backends/ref/linalg_decomp.c, lu_factor, says why that order), compiled
 * once per instruction set (the Makefile's simd rule) and chosen at run
 * time by eh_ref_lu_getf2 (lu_getf2.h).
 *
 * Same bits on every instruction set and machine, NaN sign and payload
 * aside (as docs/backends/blas.md says): each product is accumulated with
 * C's fma(), which is exact everywhere.  In the avx2 and avx512 builds
 * (-march=x86-64-v3/v4, which have FMA) and on any target whose baseline
 * has FMA (aarch64), the compiler expands fma() to the fused instruction;
 * in the x86-64 baseline build (sse2) it stays libm's fma() call, the same
 * function (glibc's picks the FMA instruction when the CPU has it, else
 * computes it exactly in software).
 * -ffp-contract=off keeps every other + - * / unfused.
 * tests/libeh/test_linalg.c (test_lu_getf2_bits_every_isa) checks the
 * factors bit for bit (NaNs as NaNs) against a copy of this loop with libm
 * fma() calls on every instruction set the machine has.
 *
 * (A column-major copy with the products accumulated across rows, which
 * vectorizes, gave the same bits but was slower at these orders: the
 * copies cost more than the dependent fma chains of at most 8 products,
 * which the out-of-order core overlaps across rows anyway.) */
#include <float.h>
#include <math.h>
#include "../lu_getf2.h"

#define PASTE_(a, b) a##_##b
#define PASTE(a, b) PASTE_(a, b)
#ifndef EH_ISA_SUFFIX
/* The Makefile's simd rule names the instruction set; a tool that parses
 * the file on its own gets a name nobody calls (declared here, so that
 * -Wmissing-prototypes holds for it too). */
#define EH_ISA_SUFFIX unnamed
EH_REF_LU_GETF2(unnamed)
#endif

int PASTE(eh_ref_lu_getf2, EH_ISA_SUFFIX)(double *A, int64_t n, int64_t *piv, int *sign)
{
    *sign = 1;
    for (int64_t j = 0; j < n; j++) {
        for (int64_t i = 1; i < n; i++) {
            int64_t lim = i < j ? i : j;
            double s = 0.0;
            for (int64_t t = 0; t < lim; t++)
                s = fma(A[i * n + t], A[t * n + j], s);
            A[i * n + j] -= s;
        }
        if (eh_ref_lu_pivot(A, n, j, piv, sign))
            return 1;
        double d = A[j * n + j];
        if (fabs(d) >= DBL_MIN) {
            double r = 1.0 / d;
            for (int64_t i = j + 1; i < n; i++)
                A[i * n + j] *= r;
        } else {
            for (int64_t i = j + 1; i < n; i++)
                A[i * n + j] /= d;
        }
    }
    return 0;
}
