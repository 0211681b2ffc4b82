/* backends/ref/reduction_kernels.h -- ref-internal arithmetic of the
 * reductions (not ops: no frontend calls them).
 *
 * ref's reduction.c defines how reductions compute (compensated sums,
 * wrapping integers, rounding of float results); the blas backend
 * (backends/blas/reduction.c) walks lanes its own way but must give the
 * same values, so both take these from here.  Static inline: they sit in
 * per-element loops. */
#ifndef EH_REF_REDUCTION_KERNELS_H
#define EH_REF_REDUCTION_KERNELS_H

#include <float.h>
#include <math.h>
#include <string.h>
#include <eh/backend_f16.h>
#include "ref.h"

/* ---- Neumaier compensated summation ------------------------------------------- */

/* A running sum s and its compensation c. */
typedef struct {
    double s, c;
} eh_ref_ksum;

static inline void eh_ref_ksum_add(eh_ref_ksum *k, double x)
{
    double t = k->s + x;
    if (fabs(k->s) >= fabs(x))
        k->c += (k->s - t) + x;
    else
        k->c += (x - t) + k->s;
    k->s = t;
}

/* The sum of running sum s with compensation c: a sum that reached inf or
 * NaN is returned as is (adding c would turn inf into NaN). */
static inline double eh_ref_ksum_total(double s, double c) { return isfinite(s) ? s + c : s; }

/* ---- wrapping integer arithmetic (in uint64_t: no signed overflow) ---------- */

static inline int64_t eh_ref_wrap_add(int64_t a, int64_t b)
{
    return (int64_t)((uint64_t)a + (uint64_t)b);
}

static inline int64_t eh_ref_wrap_mul(int64_t a, int64_t b)
{
    return (int64_t)((uint64_t)a * (uint64_t)b);
}

/* ---- storing a float result ---------------------------------------------------- */

/* double -> float rounding to odd: exact when representable, otherwise
 * the float just below |v| in magnitude with its last bit set.  Rounding
 * that to f16 (11 bits) is then the correct rounding of v. */
static inline float eh_ref_f32_round_odd(double v)
{
    float f = (float)v;
    if (!isfinite(f) || (double)f == v)
        return f;
    if (fabs((double)f) > fabs(v))
        f = nextafterf(f, 0.0f);
    uint32_t bits;
    memcpy(&bits, &f, sizeof bits);
    bits |= 1u;
    memcpy(&f, &bits, sizeof f);
    return f;
}

/* double -> f32 as eh_store_f64 does it: round to nearest, saturating to
 * FLT_MAX below the rounding boundary of infinity. */
static inline float eh_ref_f64_to_f32(double v)
{
    if (isnan(v) || fabs(v) <= (double)FLT_MAX)
        return (float)v;
    if (fabs(v) >= 0x1.ffffffp127)
        return v > 0 ? INFINITY : -INFINITY;
    return v > 0 ? FLT_MAX : -FLT_MAX;
}

/* Store float result v (computed in double) as element i of a dtype
 * array, rounding once: f16 through round-to-odd f32, never a double
 * rounding. */
static inline void eh_ref_store_float(void *data, eh_dtype dtype, int64_t i, double v)
{
    switch (dtype) {
    case EH_F16: ((uint16_t *)data)[i] = eh_f32_to_f16_inline(eh_ref_f32_round_odd(v)); break;
    case EH_F32: ((float *)data)[i] = eh_ref_f64_to_f32(v); break;
    case EH_F64: ((double *)data)[i] = v; break;
    default: eh_store_f64(data, dtype, i, v); break;
    }
}

/* Power of two p with max|x| in [p/2, p) (1 for 0 or non-finite m), so
 * x / p is exact and (x / p)^2 neither overflows nor underflows needlessly
 * (the scaled 2-norms of ref and blas).  For m >= 2^1023 that p would be
 * 2^1024, which overflows to inf (x / p would be 0 and the norm NaN or
 * inf); p is then 2^1023, the largest power of two, and max|x| / p is in
 * [1, 2): its square still cannot overflow. */
static inline double eh_ref_pow2_scale(double m)
{
    if (m == 0.0 || !isfinite(m))
        return 1.0;
    int e;
    (void)frexp(m, &e);
    return ldexp(1.0, e > DBL_MAX_EXP - 1 ? DBL_MAX_EXP - 1 : e);
}

#endif
