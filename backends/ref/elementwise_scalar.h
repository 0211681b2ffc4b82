/* backends/ref/elementwise_scalar.h -- the scalar semantics of the
 * elementwise ops: what one element of each op computes, for every compute
 * type.  ref defines them; blas includes the same definitions so the two
 * cannot drift (conformance checks elementwise results bit for bit).
 * Integer arithmetic wraps (computed in unsigned); C's undefined cases get
 * defined answers here (docs/semantics.md). */
#ifndef EH_REF_ELEMENTWISE_SCALAR_H
#define EH_REF_ELEMENTWISE_SCALAR_H

#include <math.h>
#include <stdint.h>

#define WRAP(T, U, expr) ((T)(U)(expr))

static inline int32_t neg_i(int32_t x) { return WRAP(int32_t, uint32_t, 0u - (uint32_t)x); }
static inline int64_t neg_l(int64_t x) { return WRAP(int64_t, uint64_t, 0u - (uint64_t)x); }
static inline int32_t abs_i(int32_t x) { return x < 0 ? neg_i(x) : x; }
static inline int64_t abs_l(int64_t x) { return x < 0 ? neg_l(x) : x; }
static inline int32_t sq_i(int32_t x) { return WRAP(int32_t, uint32_t, (uint32_t)x * (uint32_t)x); }
static inline int64_t sq_l(int64_t x) { return WRAP(int64_t, uint64_t, (uint64_t)x * (uint64_t)x); }

/* NumPy's sign: +-1, 0 for both zeros (sign(-0.0) is +0.0), NaN for NaN. */
static inline float sign_f(float x) { return x > 0 ? 1.0f : x < 0 ? -1.0f : x == 0 ? 0.0f : x; }
static inline double sign_d(double x) { return x > 0 ? 1.0 : x < 0 ? -1.0 : x == 0 ? 0.0 : x; }
#define SIGN_INT(x) ((x) > 0 ? 1 : (x) < 0 ? -1 : 0)

static inline float relu_f(float x) { return x < 0 ? 0.0f : x; }   /* NaN stays NaN */
static inline double relu_d(double x) { return x < 0 ? 0.0 : x; }

static inline float sigmoid_f(float x)
{
    if (x >= 0)
        return 1.0f / (1.0f + expf(-x));
    float e = expf(x);
    return e / (1.0f + e);
}
static inline double sigmoid_d(double x)
{
    if (x >= 0)
        return 1.0 / (1.0 + exp(-x));
    double e = exp(x);
    return e / (1.0 + e);
}
/* log(1 + e^x) without overflow: max(x, 0) + log1p(e^-|x|). */
static inline float softplus_f(float x) { return fmaxf(x, 0.0f) + log1pf(expf(-fabsf(x))); }
static inline double softplus_d(double x) { return fmax(x, 0.0) + log1p(exp(-fabs(x))); }

/* Python/NumPy floor division and modulo for floats (npy_divmod), once
 * per float type so f32 (and f16, loaded to f32) computes in f32 as
 * NumPy's npy_divmodf does.  Division by zero: a / b and fmod's NaN. */
#define FDIVMOD(S, T, FMOD, FLOOR, COPYSIGN)                                       \
    static inline T fdivmod_##S(T a, T b, T *modp)                                 \
    {                                                                              \
        T mod = FMOD(a, b);                                                        \
        if (b == 0) {                                                              \
            *modp = mod;                                                           \
            return a / b;                                                          \
        }                                                                          \
        T div = (a - mod) / b; /* very nearly an integer */                        \
        if (mod != 0) {                                                            \
            if ((b < 0) != (mod < 0)) { /* Python's sign: the divisor's */          \
                mod += b;                                                          \
                div -= 1;                                                          \
            }                                                                      \
        } else {                                                                   \
            mod = COPYSIGN((T)0, b);                                               \
        }                                                                          \
        T fl;                                                                      \
        if (div != 0) { /* snap to the nearest integer */                          \
            fl = FLOOR(div);                                                       \
            if (div - fl > (T)0.5)                                                 \
                fl += 1;                                                           \
        } else {                                                                   \
            fl = COPYSIGN((T)0, a / b);                                            \
        }                                                                          \
        *modp = mod;                                                               \
        return fl;                                                                 \
    }                                                                              \
    static inline T fdiv_##S(T a, T b) { T m; return fdivmod_##S(a, b, &m); }      \
    static inline T fmod_##S(T a, T b) { T m; (void)fdivmod_##S(a, b, &m); return m; }
FDIVMOD(d, double, fmod, floor, copysign)
FDIVMOD(f, float, fmodf, floorf, copysignf)

/* Integer floor division and modulo; by zero gives 0, MIN / -1 wraps. */
#define INT_DIVMOD(S, T, U)                                                        \
    static inline T fdiv_##S(T a, T b)                                             \
    {                                                                              \
        if (b == 0) return 0;                                                      \
        if (b == -1) return WRAP(T, U, 0u - (U)a);                                 \
        T q = a / b;                                                               \
        if ((a % b != 0) && ((a < 0) != (b < 0))) q--;                             \
        return q;                                                                  \
    }                                                                              \
    static inline T fmod_##S(T a, T b)                                             \
    {                                                                              \
        if (b == 0 || b == -1) return 0;                                           \
        T r = a % b;                                                               \
        if (r != 0 && ((r < 0) != (b < 0))) r += b;                                \
        return r;                                                                  \
    }
INT_DIVMOD(i, int32_t, uint32_t)
INT_DIVMOD(l, int64_t, uint64_t)

/* Integer power by squaring, wrapping; negative exponents give 0 except
 * for bases 1 and -1, whose powers are exact integers. */
#define INT_POW(S, T, U)                                                           \
    static inline T pow_##S(T base, T e)                                           \
    {                                                                              \
        if (e < 0) return base == 1 ? 1 : base == -1 ? ((e & 1) ? -1 : 1) : 0;     \
        U r = 1, b = (U)base;                                                      \
        for (T k = e; k > 0; k >>= 1) {                                            \
            if (k & 1) r *= b;                                                     \
            b *= b;                                                                \
        }                                                                          \
        return (T)r;                                                               \
    }
INT_POW(i, int32_t, uint32_t)
INT_POW(l, int64_t, uint64_t)

/* NaN-propagating maximum and minimum, as NumPy's. */
#define MAXF(x, y) (((x) > (y) || (x) != (x)) ? (x) : (y))
#define MINF(x, y) (((x) < (y) || (x) != (x)) ? (x) : (y))
#define MAXI(x, y) ((x) > (y) ? (x) : (y))
#define MINI(x, y) ((x) < (y) ? (x) : (y))

#endif
