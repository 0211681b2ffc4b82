/* Vector math kernels of the blas backend, compiled once per instruction
 * set (the Makefile builds this file with -DEH_ISA_SUFFIX=sse2, avx2 and
 * avx512 and the matching -march level; backends/blas/vecmath.h picks the
 * table at run time).
 *
 * Each kernel maps n contiguous elements (or, for the binary ops, one
 * operand broadcast) through SLEEF's 1.0-ulp vector function of the
 * instruction set's width; the tail (n mod width) runs through the same
 * vector function on a zero-padded copy, so every element of a call gets
 * the same function.  sigmoid and softplus are composed from SLEEF's exp
 * and log1p exactly as ref composes them from libm's.  sqrt is the
 * hardware's correctly rounded instruction.
 *
 * Special values are made exact where SLEEF's answer is not ref's (libm's):
 * see fix_* below; tests/libeh/test_vecmath.c checks every op on NaN,
 * +-inf, +-0, subnormals and the extremes on every instruction set the
 * machine has. */
#include <math.h>
#include <string.h>
#include "../vecmath.h"

#define PASTE_(a, b) a##_##b
#define PASTE(a, b) PASTE_(a, b)
#ifndef EH_ISA_SUFFIX
/* The Makefile's simd rule names the instruction set; a tool that parses
 * the file on its own (emberlint, ember-migrate) gets a name no table
 * uses, and a build that forgot the rule fails to link. */
#define EH_ISA_SUFFIX unnamed
#endif
#define TABLE PASTE(eh_blas_vm, EH_ISA_SUFFIX)

#if defined(__x86_64__)
#include <immintrin.h>
#include <sleef.h>

#if defined(__AVX512F__)
#define WF 16
#define WD 8
#define ISA EH_ISA_AVX512
typedef __m512 vf_native;
typedef __m512d vd_native;
#define SF(fn, u) Sleef_##fn##f16_##u##avx512f
#define SD(fn, u) Sleef_##fn##d8_##u##avx512f
#define SQRTF(x) _mm512_sqrt_ps(x)
#define SQRTD(x) _mm512_sqrt_pd(x)
#define FMAF(a, b, c) ((vf)_mm512_fmadd_ps((vf_native)(a), (vf_native)(b), (vf_native)(c)))
#elif defined(__AVX2__)
#define WF 8
#define WD 4
#define ISA EH_ISA_AVX2
typedef __m256 vf_native;
typedef __m256d vd_native;
#define SF(fn, u) Sleef_##fn##f8_##u##avx2
#define SD(fn, u) Sleef_##fn##d4_##u##avx2
#define SQRTF(x) _mm256_sqrt_ps(x)
#define SQRTD(x) _mm256_sqrt_pd(x)
#define FMAF(a, b, c) ((vf)_mm256_fmadd_ps((vf_native)(a), (vf_native)(b), (vf_native)(c)))
#else
#define WF 4
#define WD 2
#define ISA EH_ISA_SSE2
typedef __m128 vf_native;
typedef __m128d vd_native;
#define SF(fn, u) Sleef_##fn##f4_##u##sse2
#define SD(fn, u) Sleef_##fn##d2_##u##sse2
#define SQRTF(x) _mm_sqrt_ps(x)
#define SQRTD(x) _mm_sqrt_pd(x)
#endif

/* GCC/clang generic vectors of the native width: arithmetic, comparisons
 * and bit operations lane by lane, converted to the SLEEF types by a cast. */
typedef float vf __attribute__((vector_size(WF * 4)));
typedef int32_t vfi __attribute__((vector_size(WF * 4)));
typedef uint32_t vfu __attribute__((vector_size(WF * 4)));
typedef double vd __attribute__((vector_size(WD * 8)));
typedef int64_t vdi __attribute__((vector_size(WD * 8)));

#define CALLF(fn, u, x) ((vf)SF(fn, u)((vf_native)(x)))
#define CALLD(fn, u, x) ((vd)SD(fn, u)((vd_native)(x)))
#define CALLF2(fn, u, x, y) ((vf)SF(fn, u)((vf_native)(x), (vf_native)(y)))
#define CALLD2(fn, u, x, y) ((vd)SD(fn, u)((vd_native)(x), (vd_native)(y)))

#else /* not x86-64: portable C, libm lane by lane (the baseline table) */
#define WF 4
#define WD 2
#define ISA EH_ISA_SSE2
typedef float vf __attribute__((vector_size(WF * 4)));
typedef int32_t vfi __attribute__((vector_size(WF * 4)));
typedef uint32_t vfu __attribute__((vector_size(WF * 4)));
typedef double vd __attribute__((vector_size(WD * 8)));
typedef int64_t vdi __attribute__((vector_size(WD * 8)));
static inline vf lanes_f(float (*fn)(float), vf x)
{
    for (int l = 0; l < WF; l++)
        x[l] = fn(x[l]);
    return x;
}
static inline vd lanes_d(double (*fn)(double), vd x)
{
    for (int l = 0; l < WD; l++)
        x[l] = fn(x[l]);
    return x;
}
static inline vf lanes_f2(float (*fn)(float, float), vf x, vf y)
{
    for (int l = 0; l < WF; l++)
        x[l] = fn(x[l], y[l]);
    return x;
}
static inline vd lanes_d2(double (*fn)(double, double), vd x, vd y)
{
    for (int l = 0; l < WD; l++)
        x[l] = fn(x[l], y[l]);
    return x;
}
#define CALLF(fn, u, x) lanes_f(fn##f, x)
#define CALLD(fn, u, x) lanes_d(fn, x)
#define CALLF2(fn, u, x, y) lanes_f2(fn##f, x, y)
#define CALLD2(fn, u, x, y) lanes_d2(fn, x, y)
#define SQRTF(x) lanes_f(sqrtf, x)
#define SQRTD(x) lanes_d(sqrt, x)
#endif

/* a * b + c: one fused rounding where the instruction set has FMA (the
 * build's -ffp-contract=off never fuses on its own), else two roundings.
 * Only the kernels below that state their bound with both use it. */
#ifndef FMAF
#define FMAF(a, b, c) ((a) * (b) + (c))
#endif

/* Lane selects and bit tricks on generic vectors (a comparison gives -1 or
 * 0 per lane). */
#define SELF(m, a, b) ((vf)(((vfi)(a) & (m)) | ((vfi)(b) & ~(m))))
#define SELD(m, a, b) ((vd)(((vdi)(a) & (m)) | ((vdi)(b) & ~(m))))
static inline vf absf(vf x) { return (vf)((vfi)x & ((vfi){0} + 0x7fffffff)); }
static inline vd absd(vd x) { return (vd)((vdi)x & ((vdi){0} + 0x7fffffffffffffffLL)); }

/* ---- the functions, one vector at a time ---------------------------------- */

/* sigmoid as ref's sigmoid_f: e = exp(-|x|); x >= 0: 1 / (1 + e), else
 * e / (1 + e) (NaN: the second form, NaN). */
static inline vf sigmoidf_v(vf x)
{
    vf e = CALLF(exp, u10, -absf(x));
    vfi pos = x >= (vf){0};
    vf one = (vf){0} + 1.0f;
    return SELF(pos, one, e) / (one + e);
}
static inline vd sigmoidd_v(vd x)
{
    vd e = CALLD(exp, u10, -absd(x));
    vdi pos = x >= (vd){0};
    vd one = (vd){0} + 1.0;
    return SELD(pos, one, e) / (one + e);
}

/* softplus as ref's: max(x, 0) + log1p(exp(-|x|)), max as fmax (NaN -> 0;
 * the log1p term is NaN then anyway). */
static inline vf softplusf_v(vf x)
{
    vf zero = (vf){0};
    vf m = SELF(x > zero, x, zero);
    return m + CALLF(log1p, u10, CALLF(exp, u10, -absf(x)));
}
static inline vd softplusd_v(vd x)
{
    vd zero = (vd){0};
    vd m = SELD(x > zero, x, zero);
    return m + CALLD(log1p, u10, CALLD(exp, u10, -absd(x)));
}

/* tanh in float, without SLEEF's tanhf (its 1.0-ulp version computes in
 * double-float pairs with two divisions: twice NumPy's cost per element).
 * a = |x|, sign copied back at the end (tanh is odd; -0 stays -0):
 *  - a < 0.625: a + a^3 P(a^2), Cephes' minimax polynomial for tanhf;
 *    subnormals and zeros come out as themselves (a^3 underflows to 0);
 *  - else 1 - 2 / (e^(2a) + 1), where the subtraction cancels at most one
 *    bit (the result is >= 0.55); e^(2a) by Cody-Waite reduction to
 *    r in [-ln2/2, ln2/2] and Cephes' expf polynomial, scaled by 2^n in the
 *    exponent bits; a is clamped to 20 first (e^40 keeps the result 1
 *    exactly, as for +-inf, and never overflows); NaN gives x + x.
 * Error against the correctly rounded tanh, every f32 input: 1.31 ulp
 * without FMA (SSE2), the same order with it (tests/conformance's
 * ulp-survey measures it against ref on every instruction set). */
static inline vf tanhf_v(vf x)
{
    vf a = absf(x);
    vf one = (vf){0} + 1.0f;
    /* small: odd polynomial */
    vf z = a * a;
    vf p = (vf){0} - 5.70498872745e-3f;
    p = FMAF(p, z, (vf){0} + 2.06390887954e-2f);
    p = FMAF(p, z, (vf){0} - 5.37397155531e-2f);
    p = FMAF(p, z, (vf){0} + 1.33314422036e-1f);
    p = FMAF(p, z, (vf){0} - 3.33332819422e-1f);
    vf small = FMAF(a * z, p, a);
    /* large: through e^(2a) */
    vf y = SELF(a > 20.0f, (vf){0} + 40.0f, a + a);
    const float shifter = 0x1.8p23f; /* adding it rounds to an integer */
    vf t = FMAF(y, (vf){0} + 1.44269504088896341f, (vf){0} + shifter);
    vfi n = (vfi)t - (vfi)((vf){0} + shifter);
    vf nf = t - shifter;
    vf r = FMAF(nf, (vf){0} - 0.693359375f, y);
    r = FMAF(nf, (vf){0} + 2.12194440e-4f, r);
    vf q = (vf){0} + 1.9875691500e-4f;
    q = FMAF(q, r, (vf){0} + 1.3981999507e-3f);
    q = FMAF(q, r, (vf){0} + 8.3334519073e-3f);
    q = FMAF(q, r, (vf){0} + 4.1665795894e-2f);
    q = FMAF(q, r, (vf){0} + 1.6666665459e-1f);
    q = FMAF(q, r, (vf){0} + 5.0000001201e-1f);
    vf e = FMAF(q, r * r, r) + one;
    e = (vf)((vfu)e + ((vfu)n << 23));
    vf large = one - (one + one) / (e + one);
    vf res = SELF(a < 0.625f, small, large);
    res = (vf)((vfi)res | ((vfi)x & ((vfi){0} + (int32_t)0x80000000)));
    return SELF(x == x, res, x + x); /* NaN: the scaling above may unmake it */
}

/* Where SLEEF's answer is not ref's (found by test_conformance_vecmath.c):
 *  - tan, log1p of tiny |x| (subnormals) are flushed to 0 by SLEEF; the
 *    correctly rounded result, and ref's, is x itself below 2^-25 (f32) /
 *    2^-54 (f64), where the next term of the series is under half an ulp;
 *  - log1p of huge x overflows inside SLEEF (1 + x); there log1p(x) is
 *    log(x) to far below an ulp;
 *  - pow(x, 1) overflows for x near the largest finite value: it is x. */
static inline vf tiny_is_x_f(vf x, vf r) { return SELF(absf(x) < 0x1p-25f, x, r); }
static inline vd tiny_is_x_d(vd x, vd r) { return SELD(absd(x) < 0x1p-54, x, r); }
static inline vf log1pf_v(vf x)
{
    vf r = SELF(x > 1e30f, CALLF(log, u10, x), CALLF(log1p, u10, x));
    return tiny_is_x_f(x, r);
}
static inline vd log1pd_v(vd x)
{
    vd r = SELD(x > 1e300, CALLD(log, u10, x), CALLD(log1p, u10, x));
    return tiny_is_x_d(x, r);
}
/*  - pow(sNaN, 0) and pow(1, sNaN) are 1 in SLEEF, NaN in libm (IEEE 754:
 *    a signaling NaN operand gives NaN; quiet NaNs give 1 in both). */
static inline vfi snanf(vf x)
{
    vfi b = (vfi)x & 0x7fffffff;
    return (b > 0x7f800000) & (b < 0x7fc00000);
}
static inline vdi snand(vd x)
{
    vdi b = (vdi)x & 0x7fffffffffffffffLL;
    return (b > 0x7ff0000000000000LL) & (b < 0x7ff8000000000000LL);
}
static inline vf powf_v(vf x, vf y)
{
    vf r = SELF(y == 1.0f, x, CALLF2(pow, u10, x, y));
    return SELF(snanf(x) | snanf(y), x + y, r);
}
static inline vd powd_v(vd x, vd y)
{
    vd r = SELD(y == 1.0, x, CALLD2(pow, u10, x, y));
    return SELD(snand(x) | snand(y), x + y, r);
}

#define V_sqrt_f(x) ((vf)SQRTF(x))
#define V_sqrt_d(x) ((vd)SQRTD(x))
#define V_exp_f(x) CALLF(exp, u10, x)
#define V_exp_d(x) CALLD(exp, u10, x)
#define V_expm1_f(x) CALLF(expm1, u10, x)
#define V_expm1_d(x) CALLD(expm1, u10, x)
#define V_log_f(x) CALLF(log, u10, x)
#define V_log_d(x) CALLD(log, u10, x)
#define V_log1p_f(x) log1pf_v(x)
#define V_log1p_d(x) log1pd_v(x)
#define V_sin_f(x) CALLF(sin, u10, x)
#define V_sin_d(x) CALLD(sin, u10, x)
#define V_cos_f(x) CALLF(cos, u10, x)
#define V_cos_d(x) CALLD(cos, u10, x)
#define V_tan_f(x) tiny_is_x_f(x, CALLF(tan, u10, x))
#define V_tan_d(x) tiny_is_x_d(x, CALLD(tan, u10, x))
#define V_tanh_f(x) tanhf_v(x)
#define V_tanh_d(x) CALLD(tanh, u10, x)
#define V_erf_f(x) CALLF(erf, u10, x)
#define V_erf_d(x) CALLD(erf, u10, x)
#define V_sigmoid_f(x) sigmoidf_v(x)
#define V_sigmoid_d(x) sigmoidd_v(x)
#define V_softplus_f(x) softplusf_v(x)
#define V_softplus_d(x) softplusd_v(x)
#define V_power_f(x, y) powf_v(x, y)
#define V_power_d(x, y) powd_v(x, y)
#define V_atan2_f(x, y) CALLF2(atan2, u10, x, y)
#define V_atan2_d(x, y) CALLD2(atan2, u10, x, y)

/* exact: one IEEE operation per element (no contraction: -ffp-contract=off) */
#define V_add_f(x, y) ((x) + (y))
#define V_add_d(x, y) ((x) + (y))
#define V_subtract_f(x, y) ((x) - (y))
#define V_subtract_d(x, y) ((x) - (y))
#define V_multiply_f(x, y) ((x) * (y))
#define V_multiply_d(x, y) ((x) * (y))
#define V_divide_f(x, y) ((x) / (y))
#define V_divide_d(x, y) ((x) / (y))
#define V_abs_f(x) absf(x)
#define V_abs_d(x) absd(x)

/* ---- loops ------------------------------------------------------------------ */

#define UNARY_LOOP(op, S, T, V, W)                                                  \
    static void op##_##S(const T *a, T *o, int64_t n)                               \
    {                                                                               \
        int64_t i = 0;                                                              \
        for (; i + W <= n; i += W) {                                                \
            V x;                                                                    \
            memcpy(&x, a + i, sizeof x);                                            \
            V r = V_##op##_##S(x);                                                  \
            memcpy(o + i, &r, sizeof r);                                            \
        }                                                                           \
        if (i < n) {                                                                \
            V x = {0};                                                              \
            size_t bytes = (size_t)(n - i) * sizeof(T);                             \
            memcpy(&x, a + i, bytes);                                               \
            V r = V_##op##_##S(x);                                                  \
            memcpy(o + i, &r, bytes);                                               \
        }                                                                           \
    }
#define UNARY_BOTH(op) UNARY_LOOP(op, f, float, vf, WF) UNARY_LOOP(op, d, double, vd, WD)
EH_BLAS_VM_UNARY(UNARY_BOTH)
EH_BLAS_VM_EXACT_UNARY(UNARY_BOTH)

/* Load W elements of an operand: contiguous, or one element broadcast. */
#define LOAD_OP(V, T, W, dst, src, i, scalar, count)                                \
    do {                                                                            \
        if (scalar) {                                                               \
            for (int l_ = 0; l_ < W; l_++)                                          \
                (dst)[l_] = (src)[0];                                               \
        } else {                                                                    \
            memcpy(&(dst), (src) + (i), (size_t)(count) * sizeof(T));               \
        }                                                                           \
    } while (0)

#define BINARY_LOOP(op, S, T, V, W, NAME, SA, SB)                                   \
    static void NAME(const T *a, const T *b, T *o, int64_t n)                       \
    {                                                                               \
        int64_t i = 0;                                                              \
        V x = {0}, y = {0};                                                         \
        if (SA)                                                                     \
            LOAD_OP(V, T, W, x, a, 0, 1, W);                                        \
        if (SB)                                                                     \
            LOAD_OP(V, T, W, y, b, 0, 1, W);                                        \
        for (; i + W <= n; i += W) {                                                \
            if (!(SA))                                                              \
                memcpy(&x, a + i, sizeof x);                                        \
            if (!(SB))                                                              \
                memcpy(&y, b + i, sizeof y);                                        \
            V r = V_##op##_##S(x, y);                                               \
            memcpy(o + i, &r, sizeof r);                                            \
        }                                                                           \
        if (i < n) {                                                                \
            size_t bytes = (size_t)(n - i) * sizeof(T);                             \
            if (!(SA)) {                                                            \
                x = (V){0};                                                         \
                memcpy(&x, a + i, bytes);                                           \
            }                                                                       \
            if (!(SB)) {                                                            \
                y = (V){0};                                                         \
                memcpy(&y, b + i, bytes);                                           \
            }                                                                       \
            V r = V_##op##_##S(x, y);                                               \
            memcpy(o + i, &r, bytes);                                               \
        }                                                                           \
    }
#define BINARY_SETS(op)                                                             \
    BINARY_LOOP(op, f, float, vf, WF, op##_f_vv, 0, 0)                              \
    BINARY_LOOP(op, f, float, vf, WF, op##_f_sv, 1, 0)                              \
    BINARY_LOOP(op, f, float, vf, WF, op##_f_vs, 0, 1)                              \
    BINARY_LOOP(op, d, double, vd, WD, op##_d_vv, 0, 0)                             \
    BINARY_LOOP(op, d, double, vd, WD, op##_d_sv, 1, 0)                             \
    BINARY_LOOP(op, d, double, vd, WD, op##_d_vs, 0, 1)
EH_BLAS_VM_BINARY(BINARY_SETS)
EH_BLAS_VM_ARITH(BINARY_SETS)

/* exp(x - shift) into o (unless NULL); returns the sum of the results, added in double in
 * a fixed order (lane sums, then lanes in order), so it depends only on n
 * and the data.  f32 data is widened and exp computed in double, as ref's
 * softmax does: x - shift is exact enough that tiny results keep their
 * relative accuracy; each value is rounded to float once. */
static double exp_shift_sum_f(const float *x, float shift, float *o, int64_t n)
{
    vd acc = {0};
    double tail = 0.0;
    vd s = (vd){0} + (double)shift;
    int64_t i = 0;
    for (; i + WD <= n; i += WD) {
        vd v;
        for (int l = 0; l < WD; l++)
            v[l] = (double)x[i + l];
        vd r = V_exp_d(v - s);
        for (int l = 0; l < WD; l++)
            o[i + l] = (float)r[l];
        acc += r;
    }
    if (i < n) {
        vd v = (vd){0};
        for (int64_t l = 0; l < n - i; l++)
            v[l] = (double)x[i + l];
        vd r = V_exp_d(v - s);
        for (int64_t l = 0; l < n - i; l++) {
            o[i + l] = (float)r[l];
            tail += r[l];
        }
    }
    double sum = 0.0;
    for (int l = 0; l < WD; l++)
        sum += acc[l];
    return sum + tail;
}

static double exp_shift_sum_d(const double *x, double shift, double *o, int64_t n)
{
    vd acc = {0};
    double tail = 0.0;
    int64_t i = 0;
    vd s = (vd){0} + shift;
    for (; i + WD <= n; i += WD) {
        vd v;
        memcpy(&v, x + i, sizeof v);
        vd r = V_exp_d(v - s);
        if (o)
            memcpy(o + i, &r, sizeof r);
        acc += r;
    }
    if (i < n) {
        vd v = (vd){0};
        size_t bytes = (size_t)(n - i) * sizeof(double);
        memcpy(&v, x + i, bytes);
        vd r = V_exp_d(v - s);
        if (o)
            memcpy(o + i, &r, bytes);
        for (int64_t l = 0; l < n - i; l++)
            tail += r[l];
    }
    double sum = 0.0;
    for (int l = 0; l < WD; l++)
        sum += acc[l];
    return sum + tail;
}

/* exp(x - shift) in float: a whole vector of lanes per SLEEF call at the
 * float width (twice the double width, and expf is cheaper per lane).
 * Blocks of EXPF_BLOCK results go to o (or a stack buffer) first and are
 * summed after, so the accumulators stay in registers (a SLEEF call
 * clobbers every vector register); each result is widened to double and
 * added in a fixed order (two vectors of lane sums, then the lanes in
 * order, then the tail in order): the sum depends on n and the data only. */
#define EXPF_BLOCK 512
typedef float vfh __attribute__((vector_size(WD * 4)));
static double expf_shift_sum_f(const float *x, float shift, float *o, int64_t n)
{
    float buf[EXPF_BLOCK] __attribute__((aligned(64)));
    vd acc0 = {0}, acc1 = {0};
    vf s = (vf){0} + shift;
    int64_t i = 0;
    while (i + WF <= n) {
        int64_t len = n - i < EXPF_BLOCK ? (n - i) / WF * WF : EXPF_BLOCK;
        float *dst = o ? o + i : buf;
        for (int64_t k = 0; k < len; k += WF) {
            vf v;
            memcpy(&v, x + i + k, sizeof v);
            vf r = V_exp_f(v - s);
            memcpy(dst + k, &r, sizeof r);
        }
        for (int64_t k = 0; k < len; k += WF) {
            vfh lo, hi;
            memcpy(&lo, dst + k, sizeof lo);
            memcpy(&hi, dst + k + WD, sizeof hi);
            acc0 += __builtin_convertvector(lo, vd);
            acc1 += __builtin_convertvector(hi, vd);
        }
        i += len;
    }
    double tail = 0.0;
    if (i < n) {
        vf v = (vf){0};
        size_t bytes = (size_t)(n - i) * sizeof(float);
        memcpy(&v, x + i, bytes);
        vf r = V_exp_f(v - s);
        if (o)
            memcpy(o + i, &r, bytes);
        for (int64_t l = 0; l < n - i; l++)
            tail += (double)r[l];
    }
    vd acc = acc0 + acc1;
    double sum = 0.0;
    for (int l = 0; l < WD; l++)
        sum += acc[l];
    return sum + tail;
}

/* ---- the table ---------------------------------------------------------------- */

const eh_blas_vm TABLE = {
    .isa = ISA,
#define ENTRY_U(op) .op##_f = op##_f, .op##_d = op##_d,
    EH_BLAS_VM_UNARY(ENTRY_U)
    EH_BLAS_VM_EXACT_UNARY(ENTRY_U)
#define ENTRY_B(op) .op##_f = {op##_f_vv, op##_f_sv, op##_f_vs}, .op##_d = {op##_d_vv, op##_d_sv, op##_d_vs},
    EH_BLAS_VM_BINARY(ENTRY_B)
    EH_BLAS_VM_ARITH(ENTRY_B)
    .exp_shift_sum_f = exp_shift_sum_f,
    .exp_shift_sum_d = exp_shift_sum_d,
    .expf_shift_sum_f = expf_shift_sum_f,
};
