/* Reduction inner loops of the blas backend, compiled once per instruction
 * set (like vecmath.c; the table is in vecmath.h).  Their arithmetic is
 * reduction.c's -- the same expressions, so every instruction set gives the
 * same bits; only the vector width changes.
 *
 *  - wide_*: whole rows of a column reduction added into per-column
 *    accumulators: rows stream through memory once, start to end;
 *  - ext_*: the first NaN, else the first maximum (minimum) of a
 *    contiguous lane, with the running extreme and its index kept in
 *    vector registers (one pass; no rescan). */
#include <math.h>
#include <string.h>
#include "../reduce_arith.h"
#include "../vecmath.h"

#define PASTE_(a, b) a##_##b
#define PASTE(a, b) PASTE_(a, b)

/* ---- wide rows: Neumaier sums per column ------------------------------------ */

/* rows x w values (row stride ld) into s, c (Neumaier pair per column); b
 * is scratch for the f16/f32 block sums of COL_ROWS rows, four rows added
 * per sweep (a quarter of the scratch traffic).  ACCURATE (f64): every
 * value goes through Neumaier, as in ref. */
#define WIDE_NSUM(NAME, T, LD, F, ACCURATE)                                         \
    static void NAME(const void *xv, int64_t ld, int64_t rows, int64_t w,          \
                     const double *restrict p, double *restrict s,                 \
                     double *restrict c, double *restrict b)                       \
    {                                                                              \
        const T *restrict x = xv;                                                  \
        int64_t r = 0;                                                             \
        if (!(ACCURATE)) {                                                         \
            for (; r + COL_ROWS <= rows; r += COL_ROWS) {                          \
                memset(b, 0, (size_t)w * sizeof *b);                               \
                for (int64_t q = 0; q < COL_ROWS; q += 4) {                        \
                    const T *restrict r0 = x + (r + q) * ld, *restrict r1 = r0 + ld; \
                    const T *restrict r2 = r1 + ld, *restrict r3 = r2 + ld;        \
                    for (int64_t j = 0; j < w; j++)                                \
                        b[j] += (F(LD(r0[j]), p[j]) + F(LD(r1[j]), p[j])) +        \
                                (F(LD(r2[j]), p[j]) + F(LD(r3[j]), p[j]));         \
                }                                                                  \
                for (int64_t j = 0; j < w; j++)                                    \
                    NEU_STEP(s[j], c[j], b[j]);                                    \
            }                                                                      \
        }                                                                          \
        for (; r < rows; r++)                                                      \
            NEU_ROW(x + r * ld, w, p, s, c, LD, F)                                 \
    }
#define WIDE_NSUM_ALL(F)                                                            \
    WIDE_NSUM(wide_##F##_h, uint16_t, LD_F16, F, 0)                                \
    WIDE_NSUM(wide_##F##_f, float, LD_NUM, F, 0)                                   \
    WIDE_NSUM(wide_##F##_d, double, LD_NUM, F, 1)
WIDE_NSUM_ALL(F_SUM)
WIDE_NSUM_ALL(F_SQDEV)
WIDE_NSUM_ALL(F_EXPSUM)
WIDE_NSUM_ALL(F_ABSSUM)
WIDE_NSUM_ALL(F_SQSCALE)

#define WROW(F) {wide_##F##_h, wide_##F##_f, wide_##F##_d}
const eh_blas_wide_nsum_fn PASTE(eh_blas_wide_nsum, EH_ISA_SUFFIX)[5][3] = {
    WROW(F_SUM), WROW(F_SQDEV), WROW(F_EXPSUM), WROW(F_ABSSUM), WROW(F_SQSCALE)};

/* ---- extremes of a contiguous lane ------------------------------------------ */

/* Lanes of 64 bytes (16 floats, 8 doubles): the widest vector; narrower
 * instruction sets split them.  EXT_U independent sets of lanes take turns
 * (vectors i, i + 1, ... of each group of EXT_U), so the compare-and-select
 * of one does not wait on the previous vector's (a latency chain that ran
 * at half the memory speed of one core).  Per lane l the running extreme
 * m[l] and the index of its first occurrence ix[l] (a strict comparison
 * keeps the first); at the end the candidates of every lane and set are
 * reduced, the smaller index winning a tie, which is the first occurrence
 * overall.  A NaN anywhere ends the search at the first NaN, as in ref. */
#define EXT_LANES_F 16
#define EXT_LANES_D 8
#define EXT_U 4
typedef float v16f __attribute__((vector_size(64)));
typedef int32_t v16i __attribute__((vector_size(64)));
typedef double v8d __attribute__((vector_size(64)));
typedef int64_t v8l __attribute__((vector_size(64)));

/* One vector of x at offset off into the lane set (m, ix). */
#define EXT_STEP(VT, VI, IT, CMP, m, ix, off)                                       \
    do {                                                                           \
        VT v_;                                                                     \
        memcpy(&v_, x + (off), sizeof v_);                                         \
        VI better_ = v_ CMP m;                                                     \
        anynan |= v_ != v_;                                                        \
        m = (VT)(((VI)v_ & better_) | ((VI)m & ~better_));                         \
        ix = ((iota + (IT)(off)) & better_) | (ix & ~better_);                     \
    } while (0)

/* The candidates of one lane set against the best so far. */
#define EXT_MERGE(T, L, CMP, m, ix)                                                 \
    for (int l = 0; l < L; l++) {                                                  \
        T a = m[l], b = x[best];                                                   \
        if (a CMP b || (a == b && ix[l] < best))                                   \
            best = ix[l];                                                          \
    }

#define EXT_KERNEL(NAME, T, VT, VI, IT, L, CMP)                                     \
    static int64_t NAME(const T *x, int64_t n, int *nan)                           \
    {                                                                              \
        *nan = 0;                                                                  \
        int64_t i = 0, best = 0;                                                   \
        /* IT lanes hold indices: int32_t ones cannot past 2^31 - 1 */            \
        if (n >= 2 * L && (sizeof(IT) == 8 || n <= (int64_t)INT32_MAX)) {          \
            VT m0, m1, m2, m3;                                                     \
            VI iota;                                                               \
            for (int l = 0; l < L; l++)                                            \
                iota[l] = l;                                                       \
            memcpy(&m0, x, sizeof m0);                                             \
            m1 = m2 = m3 = m0;                                                     \
            VI ix0 = iota, ix1 = iota, ix2 = iota, ix3 = iota;                     \
            VI anynan = (VI){0};                                                   \
            int stop = 0;                                                          \
            for (i = 0; i + EXT_U * L <= n && !stop; i += EXT_U * L) {             \
                EXT_STEP(VT, VI, IT, CMP, m0, ix0, i);                             \
                EXT_STEP(VT, VI, IT, CMP, m1, ix1, i + L);                         \
                EXT_STEP(VT, VI, IT, CMP, m2, ix2, i + 2 * L);                     \
                EXT_STEP(VT, VI, IT, CMP, m3, ix3, i + 3 * L);                     \
                if ((i & 4095) == 0) { /* a NaN ends the search: stop soon */      \
                    IT any = 0;                                                    \
                    for (int l = 0; l < L; l++)                                    \
                        any |= anynan[l];                                          \
                    stop = any != 0;                                               \
                }                                                                  \
            }                                                                      \
            for (; i + L <= n && !stop; i += L)                                    \
                EXT_STEP(VT, VI, IT, CMP, m0, ix0, i);                             \
            IT any = 0;                                                            \
            for (int l = 0; l < L; l++)                                            \
                any |= anynan[l];                                                  \
            if (any) {                                                             \
                for (int64_t k = 0; k < n; k++)                                    \
                    if (x[k] != x[k]) {                                            \
                        *nan = 1;                                                  \
                        return k;                                                  \
                    }                                                              \
            }                                                                      \
            best = ix0[0];                                                         \
            EXT_MERGE(T, L, CMP, m0, ix0)                                          \
            EXT_MERGE(T, L, CMP, m1, ix1)                                          \
            EXT_MERGE(T, L, CMP, m2, ix2)                                          \
            EXT_MERGE(T, L, CMP, m3, ix3)                                          \
        } else {                                                                   \
            i = 1;                                                                 \
            if (x[0] != x[0]) {                                                    \
                *nan = 1;                                                          \
                return 0;                                                          \
            }                                                                      \
        }                                                                          \
        for (; i < n; i++) {                                                       \
            if (x[i] != x[i]) {                                                    \
                *nan = 1;                                                          \
                return i;                                                          \
            }                                                                      \
            if (x[i] CMP x[best])                                                  \
                best = i;                                                          \
        }                                                                          \
        return best;                                                               \
    }
EXT_KERNEL(argmax_f, float, v16f, v16i, int32_t, EXT_LANES_F, >)
EXT_KERNEL(argmin_f, float, v16f, v16i, int32_t, EXT_LANES_F, <)
EXT_KERNEL(argmax_d, double, v8d, v8l, int64_t, EXT_LANES_D, >)
EXT_KERNEL(argmin_d, double, v8d, v8l, int64_t, EXT_LANES_D, <)

/* ---- softmax and log_softmax of one contiguous row ------------------------------
 * m = the row's max (NaN if it holds one); softmax: o = exp(x - m) (exp in
 * double, vectorized), summed in double, then scaled by 1/sum in double;
 * f32 results are within an ulp of ref's.  log_softmax (m taken as 0 when
 * not finite): the sum of exp(x - m) without storing them, then
 * (x - m) - log(sum) in double; for f32 the exps are computed in float
 * (summed in double): log(sum) is then off by at most about
 * (max - min of the row) * 2^-24 absolute, within the log_softmax row of
 * tests/conformance/tolerances.def, at a quarter of the double exp's cost. */
#define VM PASTE(eh_blas_vm, EH_ISA_SUFFIX)
extern const eh_blas_vm VM;

#define SOFTMAX_ROW(NAME, T, ARGMAX, EXPSUM, LOG_EXPSUM)                            \
    static void NAME(const T *x, T *o, int64_t n, int log_form)                    \
    {                                                                              \
        int nan;                                                                   \
        int64_t at = ARGMAX(x, n, &nan);                                           \
        T m = nan ? (T)NAN : x[at];                                                \
        if (log_form && !isfinite(m))                                              \
            m = 0;                                                                 \
        double sum = log_form ? VM.LOG_EXPSUM(x, m, NULL, n) : VM.EXPSUM(x, m, o, n); \
        if (log_form) {                                                            \
            double ls = log(sum), dm = (double)m;                                  \
            for (int64_t j = 0; j < n; j++)                                        \
                o[j] = (T)(((double)x[j] - dm) - ls);                              \
        } else {                                                                   \
            double inv = 1.0 / sum;                                                \
            for (int64_t j = 0; j < n; j++)                                        \
                o[j] = (T)((double)o[j] * inv);                                    \
        }                                                                          \
    }
SOFTMAX_ROW(softmax_f, float, argmax_f, exp_shift_sum_f, expf_shift_sum_f)
SOFTMAX_ROW(softmax_d, double, argmax_d, exp_shift_sum_d, exp_shift_sum_d)

const eh_blas_ext_fns PASTE(eh_blas_ext, EH_ISA_SUFFIX) = {argmax_f, argmin_f, argmax_d, argmin_d,
                                                            softmax_f, softmax_d};
