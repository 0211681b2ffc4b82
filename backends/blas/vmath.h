/* Vectorizable f32 math for the blas elementwise loops.
 *
 * Written so that gcc -O2 vectorizes a loop calling it (blocks of 16 in
 * elementwise.c): straight-line arithmetic, selects instead of branches,
 * no libm calls.
 *
 * eh_blas_tanhf: Eigen's rational approximation (generic_fast_tanh_float:
 * a degree-13 odd polynomial over a degree-6 even one) on x clamped to
 * [-7.9053, 7.9053], the result clamped to [-1, 1], and x itself for
 * |x| < 0.0004 (where tanh(x) rounds to x or its neighbour: exact at
 * +-0 and on the denormals).  NaN propagates through the clamps (every
 * comparison with NaN is false), +-inf gives +-1.  Accuracy, measured over
 * every one of the 2^32 floats against double tanh: at most 6.88 ulp of
 * the exact value (worst near |x| = 5.83, where the result is just below
 * 1); glibc's tanhf is at most 2.19 ulp.  tests/libeh/test_blas.c
 * (test_tanh_accuracy) asserts the bound EH_BLAS_TANH_ULP on a sample. */
#ifndef EH_BLAS_VMATH_H
#define EH_BLAS_VMATH_H

#include <math.h>

#define EH_BLAS_TANH_ULP 7

static inline float eh_blas_tanhf(float x)
{
    const float c = 7.90531110763549805f;
    float xc = x < -c ? -c : x;
    xc = xc > c ? c : xc;
    float x2 = xc * xc;
    float p = -2.76076847742355e-16f;
    p = p * x2 + 2.00018790482477e-13f;
    p = p * x2 + -8.60467152213735e-11f;
    p = p * x2 + 5.12229709037114e-08f;
    p = p * x2 + 1.48572235717979e-05f;
    p = p * x2 + 6.37261928875436e-04f;
    p = p * x2 + 4.89352455891786e-03f;
    p = xc * p;
    float q = 1.19825839466702e-06f;
    q = q * x2 + 1.18534705686654e-04f;
    q = q * x2 + 2.26843463243900e-03f;
    q = q * x2 + 4.89352518554385e-03f;
    float r = p / q;
    r = r > 1.0f ? 1.0f : r;
    r = r < -1.0f ? -1.0f : r;
    return fabsf(x) < 0.0004f ? x : r;
}

#endif
