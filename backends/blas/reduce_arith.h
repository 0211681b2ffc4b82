/* backends/blas/reduce_arith.h -- the arithmetic of blas's compensated
 * sums, shared by reduction.c and the per-ISA loops of simd/reduce.c so
 * that both compute the same values: element loads, the transforms of the
 * Neumaier passes, the branch-free Neumaier step, the column block. */
#ifndef EH_BLAS_REDUCE_ARITH_H
#define EH_BLAS_REDUCE_ARITH_H

#include <math.h>
#include "blas.h"

/* Loads into double. */
#define LD_F16(v) ((double)eh_blas_h2f(v))
#define LD_NUM(v) ((double)(v))

/* Transforms of the Neumaier passes (x double, p the lane parameter). */
#define F_SUM(x, p) ((void)(p), (x))
#define F_SQDEV(x, p) (((x) - (p)) * ((x) - (p)))
#define F_EXPSUM(x, p) exp((x) - (p))
#define F_ABSSUM(x, p) ((void)(p), fabs(x))
#define F_SQSCALE(x, p) (((x) / (p)) * ((x) / (p)))

/* Rows of f16/f32 columns summed plainly in double before each block sum
 * is Neumaier-added. */
#define COL_ROWS 32

/* Neumaier: add f into the running sum s with compensation c (selects,
 * not branches, so that column loops vectorize). */
#define NEU_STEP(s, c, f)                                                           \
    do {                                                                           \
        double t_ = (s) + (f);                                                     \
        double big_ = fabs(s) >= fabs(f) ? (s) : (f);                              \
        double small_ = fabs(s) >= fabs(f) ? (f) : (s);                            \
        (c) += (big_ - t_) + small_;                                               \
        (s) = t_;                                                                  \
    } while (0)

/* One row of w columns through Neumaier: s[j], c[j] += F(row[j], p[j]). */
#define NEU_ROW(row, w, p, s, c, LD, F)                                             \
    for (int64_t j_ = 0; j_ < (w); j_++) {                                         \
        double f_ = F(LD((row)[j_]), (p)[j_]);                                     \
        NEU_STEP((s)[j_], (c)[j_], f_);                                            \
    }

#endif
