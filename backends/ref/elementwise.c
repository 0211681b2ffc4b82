/* ref kernels: elementwise unary, binary and ternary ops.
 *
 * The frontend hands every input in the compute dtype (ops_elementwise.c),
 * so each op needs one typed loop per compute dtype.  Loops are generated
 * from a scalar function per op and type; f16 computes in f32.  Integer
 * arithmetic wraps (computed in unsigned), integer division and mod by
 * zero give 0: C's undefined cases are given defined answers here. */
#include <math.h>
#include <string.h>
#include "ref.h"
#include "elementwise_scalar.h"

/* A loop over n elements; operand k advances by s[k] elements a step. */
typedef void (*loop_fn)(const char *const *in, const int64_t *s, char *out, int64_t n);

/* Walk out's shape: the last dimension runs through `loop`, the outer ones
 * through an odometer.  Contiguous same-shape operands take one call. */
static eh_status run_loop(const eh_op_call *c, loop_fn loop)
{
    eh_tensor *out = c->out[0];
    if (out->size == 0)
        return EH_OK;
    int nd = out->ndim, n = c->n_in;
    /* Every operand full-size or a single element: one flat call. */
    int flat = 1;
    for (int k = 0; k < n; k++)
        flat &= c->in[k]->size == out->size || c->in[k]->size == 1;
    if (flat || nd == 0) {
        int64_t s[3] = {1, 1, 1};
        const char *in[3];
        for (int k = 0; k < n; k++) {
            in[k] = c->in[k]->data;
            s[k] = c->in[k]->size == out->size ? 1 : 0;
        }
        loop(in, s, out->data, out->size);
        return EH_OK;
    }
    size_t osz = eh_dtype_size(out->dtype), isz[3];
    int64_t strides[3][EH_MAX_DIMS], inner[3];
    for (int k = 0; k < n; k++) {
        isz[k] = eh_dtype_size(c->in[k]->dtype);
        eh_broadcast_strides(c->in[k], nd, out->shape, strides[k]);
        inner[k] = strides[k][nd - 1];
    }
    int64_t len = out->shape[nd - 1];
    eh_nd_iter it;
    eh_nd_iter_init(&it, nd - 1, out->shape);
    char *o = out->data;
    do {
        const char *in[3];
        for (int k = 0; k < n; k++)
            in[k] = (const char *)c->in[k]->data +
                    (size_t)eh_nd_iter_offset(&it, strides[k]) * isz[k];
        loop(in, inner, o, len);
        o += (size_t)len * osz;
    } while (eh_nd_iter_next(&it));
    return EH_OK;
}

/* ---- loop generators ------------------------------------------------------- */

#define LOOP1(NAME, TI, TO, EXPR)                                                  \
    static void NAME(const char *const *in, const int64_t *s, char *out, int64_t n) \
    {                                                                              \
        const TI *a = (const TI *)in[0];                                           \
        TO *o = (TO *)out;                                                         \
        for (int64_t i = 0; i < n; i++) {                                          \
            TI x = a[i * s[0]];                                                    \
            o[i] = (TO)(EXPR);                                                     \
        }                                                                          \
    }
#define LOOP1_F16(NAME, TO_F16, EXPR)                                              \
    static void NAME(const char *const *in, const int64_t *s, char *out, int64_t n) \
    {                                                                              \
        const uint16_t *a = (const uint16_t *)in[0];                               \
        for (int64_t i = 0; i < n; i++) {                                          \
            float x = eh_f16_to_f32(a[i * s[0]]);                                  \
            if (TO_F16) ((uint16_t *)out)[i] = eh_f32_to_f16((float)(EXPR));       \
            else ((uint8_t *)out)[i] = (uint8_t)(EXPR);                            \
        }                                                                          \
    }
#define LOOP2(NAME, TI, TO, EXPR)                                                  \
    static void NAME(const char *const *in, const int64_t *s, char *out, int64_t n) \
    {                                                                              \
        const TI *a = (const TI *)in[0], *b = (const TI *)in[1];                   \
        TO *o = (TO *)out;                                                         \
        for (int64_t i = 0; i < n; i++) {                                          \
            TI x = a[i * s[0]], y = b[i * s[1]];                                   \
            o[i] = (TO)(EXPR);                                                     \
        }                                                                          \
    }
#define LOOP2_F16(NAME, TO_F16, EXPR)                                              \
    static void NAME(const char *const *in, const int64_t *s, char *out, int64_t n) \
    {                                                                              \
        const uint16_t *a = (const uint16_t *)in[0], *b = (const uint16_t *)in[1]; \
        for (int64_t i = 0; i < n; i++) {                                          \
            float x = eh_f16_to_f32(a[i * s[0]]), y = eh_f16_to_f32(b[i * s[1]]);  \
            if (TO_F16) ((uint16_t *)out)[i] = eh_f32_to_f16((float)(EXPR));       \
            else ((uint8_t *)out)[i] = (uint8_t)(EXPR);                            \
        }                                                                          \
    }

/* One loop per compute dtype; NULL where the frontend never asks. */
typedef struct { loop_fn by_dtype[EH_DTYPE_COUNT]; } loop_set;

static eh_status run_set(const eh_op_call *c, const loop_set *set)
{
    loop_fn fn = set->by_dtype[c->in[c->op == EH_OP_where ? 1 : 0]->dtype];
    if (!fn)
        return eh_set_error(EH_ERR_INTERNAL, "%s: ref has no loop for %s", eh_op_name(c->op),
                            eh_dtype_name(c->in[0]->dtype));
    return run_loop(c, fn);
}

/* Float-valued unary: f16 (in f32), f32, f64. */
#define FLOAT_UNARY(op, EF, ED)                                                    \
    LOOP1_F16(loop_##op##_h, 1, EF) LOOP1(loop_##op##_f, float, float, EF) LOOP1(loop_##op##_d, double, double, ED) \
    eh_status eh_ref_##op(const eh_op_call *c)                                     \
    {                                                                              \
        static const loop_set set = {{[EH_F16] = loop_##op##_h, [EH_F32] = loop_##op##_f, [EH_F64] = loop_##op##_d}}; \
        return run_set(c, &set);                                                   \
    }
FLOAT_UNARY(sqrt, sqrtf(x), sqrt(x))
FLOAT_UNARY(exp, expf(x), exp(x))
FLOAT_UNARY(log, logf(x), log(x))
FLOAT_UNARY(log1p, log1pf(x), log1p(x))
FLOAT_UNARY(expm1, expm1f(x), expm1(x))
FLOAT_UNARY(sin, sinf(x), sin(x))
FLOAT_UNARY(cos, cosf(x), cos(x))
FLOAT_UNARY(tan, tanf(x), tan(x))
FLOAT_UNARY(tanh, tanhf(x), tanh(x))
FLOAT_UNARY(sigmoid, sigmoid_f(x), sigmoid_d(x))
FLOAT_UNARY(softplus, softplus_f(x), softplus_d(x))
FLOAT_UNARY(erf, erff(x), erf(x))
FLOAT_UNARY(reciprocal, 1.0f / x, 1.0 / x)

/* Same-dtype numeric unary: floats and both integer widths. */
#define NUMERIC_UNARY(op, EF, ED, EI, EL)                                          \
    LOOP1_F16(loop_##op##_h, 1, EF) LOOP1(loop_##op##_f, float, float, EF) LOOP1(loop_##op##_d, double, double, ED) \
    LOOP1(loop_##op##_i, int32_t, int32_t, EI) LOOP1(loop_##op##_l, int64_t, int64_t, EL)        \
    eh_status eh_ref_##op(const eh_op_call *c)                                     \
    {                                                                              \
        static const loop_set set = {{[EH_F16] = loop_##op##_h, [EH_F32] = loop_##op##_f, [EH_F64] = loop_##op##_d, \
                                      [EH_I32] = loop_##op##_i, [EH_I64] = loop_##op##_l}};      \
        return run_set(c, &set);                                                   \
    }
NUMERIC_UNARY(negative, -x, -x, neg_i(x), neg_l(x))
NUMERIC_UNARY(abs, fabsf(x), fabs(x), abs_i(x), abs_l(x))
NUMERIC_UNARY(sign, sign_f(x), sign_d(x), SIGN_INT(x), SIGN_INT(x))
NUMERIC_UNARY(square, x * x, x * x, sq_i(x), sq_l(x))
NUMERIC_UNARY(relu, relu_f(x), relu_d(x), MAXI(x, 0), MAXI(x, 0))
NUMERIC_UNARY(floor, floorf(x), floor(x), x, x)
NUMERIC_UNARY(ceil, ceilf(x), ceil(x), x, x)
NUMERIC_UNARY(round, rintf(x), rint(x), x, x) /* half to even, as NumPy */

/* Predicates: any dtype in, bool out. */
#define TEST_UNARY(op, EF, EINT)                                                   \
    LOOP1_F16(loop_##op##_h, 0, EF) LOOP1(loop_##op##_f, float, uint8_t, EF) LOOP1(loop_##op##_d, double, uint8_t, EF) \
    LOOP1(loop_##op##_i, int32_t, uint8_t, EINT) LOOP1(loop_##op##_l, int64_t, uint8_t, EINT)     \
    LOOP1(loop_##op##_b, uint8_t, uint8_t, EINT)                                          \
    eh_status eh_ref_##op(const eh_op_call *c)                                     \
    {                                                                              \
        static const loop_set set = {{[EH_F16] = loop_##op##_h, [EH_F32] = loop_##op##_f, [EH_F64] = loop_##op##_d, \
                                      [EH_I32] = loop_##op##_i, [EH_I64] = loop_##op##_l, [EH_BOOL] = loop_##op##_b}}; \
        return run_set(c, &set);                                                   \
    }
/* The classification macros only promise nonzero (glibc's isinf gives -1
 * for -inf): a bool element must be exactly 0 or 1. */
TEST_UNARY(isnan, isnan(x) != 0, ((void)x, 0))
TEST_UNARY(isinf, isinf(x) != 0, ((void)x, 0))
TEST_UNARY(isfinite, isfinite(x) != 0, ((void)x, 1))

LOOP1(logical_not_b, uint8_t, uint8_t, !x)
eh_status eh_ref_logical_not(const eh_op_call *c)
{
    static const loop_set set = {{[EH_BOOL] = logical_not_b}};
    return run_set(c, &set);
}

/* Binary arithmetic over floats and integers. */
#define NUMERIC_BINARY(op, EF, ED, EI, EL)                                         \
    LOOP2_F16(loop_##op##_h, 1, EF) LOOP2(loop_##op##_f, float, float, EF) LOOP2(loop_##op##_d, double, double, ED) \
    LOOP2(loop_##op##_i, int32_t, int32_t, EI) LOOP2(loop_##op##_l, int64_t, int64_t, EL)        \
    eh_status eh_ref_##op(const eh_op_call *c)                                     \
    {                                                                              \
        static const loop_set set = {{[EH_F16] = loop_##op##_h, [EH_F32] = loop_##op##_f, [EH_F64] = loop_##op##_d, \
                                      [EH_I32] = loop_##op##_i, [EH_I64] = loop_##op##_l}};      \
        return run_set(c, &set);                                                   \
    }
NUMERIC_BINARY(add, x + y, x + y, WRAP(int32_t, uint32_t, (uint32_t)x + (uint32_t)y),
               WRAP(int64_t, uint64_t, (uint64_t)x + (uint64_t)y))
NUMERIC_BINARY(subtract, x - y, x - y, WRAP(int32_t, uint32_t, (uint32_t)x - (uint32_t)y),
               WRAP(int64_t, uint64_t, (uint64_t)x - (uint64_t)y))
NUMERIC_BINARY(multiply, x * y, x * y, WRAP(int32_t, uint32_t, (uint32_t)x * (uint32_t)y),
               WRAP(int64_t, uint64_t, (uint64_t)x * (uint64_t)y))
NUMERIC_BINARY(floor_divide, fdiv_f(x, y), fdiv_d(x, y), fdiv_i(x, y), fdiv_l(x, y))
NUMERIC_BINARY(mod, fmod_f(x, y), fmod_d(x, y), fmod_i(x, y), fmod_l(x, y))
NUMERIC_BINARY(power, powf(x, y), pow(x, y), pow_i(x, y), pow_l(x, y))

/* Float-valued binary. */
#define FLOAT_BINARY(op, EF, ED)                                                   \
    LOOP2_F16(loop_##op##_h, 1, EF) LOOP2(loop_##op##_f, float, float, EF) LOOP2(loop_##op##_d, double, double, ED) \
    eh_status eh_ref_##op(const eh_op_call *c)                                     \
    {                                                                              \
        static const loop_set set = {{[EH_F16] = loop_##op##_h, [EH_F32] = loop_##op##_f, [EH_F64] = loop_##op##_d}}; \
        return run_set(c, &set);                                                   \
    }
FLOAT_BINARY(divide, x / y, x / y)
FLOAT_BINARY(atan2, atan2f(x, y), atan2(x, y))

/* Binary over every dtype; TO is the output type for non-f16 inputs. */
#define ANY_BINARY(op, OUT_F16, TO_SAME, EF, EI)                                  \
    LOOP2_F16(loop_##op##_h, OUT_F16, EF)                                                 \
    LOOP2(loop_##op##_f, float, TO_SAME(float), EF) LOOP2(loop_##op##_d, double, TO_SAME(double), EF) \
    LOOP2(loop_##op##_i, int32_t, TO_SAME(int32_t), EI) LOOP2(loop_##op##_l, int64_t, TO_SAME(int64_t), EI) \
    LOOP2(loop_##op##_b, uint8_t, uint8_t, EI)                                            \
    eh_status eh_ref_##op(const eh_op_call *c)                                     \
    {                                                                              \
        static const loop_set set = {{[EH_F16] = loop_##op##_h, [EH_F32] = loop_##op##_f, [EH_F64] = loop_##op##_d, \
                                      [EH_I32] = loop_##op##_i, [EH_I64] = loop_##op##_l, [EH_BOOL] = loop_##op##_b}}; \
        return run_set(c, &set);                                                   \
    }
#define SAME(T) T
#define BOOLOUT(T) uint8_t
ANY_BINARY(maximum, 1, SAME, MAXF(x, y), MAXI(x, y))
ANY_BINARY(minimum, 1, SAME, MINF(x, y), MINI(x, y))
ANY_BINARY(equal, 0, BOOLOUT, x == y, x == y)
ANY_BINARY(not_equal, 0, BOOLOUT, x != y, x != y)
ANY_BINARY(less, 0, BOOLOUT, x < y, x < y)
ANY_BINARY(less_equal, 0, BOOLOUT, x <= y, x <= y)
ANY_BINARY(greater, 0, BOOLOUT, x > y, x > y)
ANY_BINARY(greater_equal, 0, BOOLOUT, x >= y, x >= y)

#define LOGICAL_BINARY(op, E)                                                      \
    LOOP2(loop_##op##_b, uint8_t, uint8_t, E)                                             \
    eh_status eh_ref_##op(const eh_op_call *c)                                     \
    {                                                                              \
        static const loop_set set = {{[EH_BOOL] = loop_##op##_b}};                        \
        return run_set(c, &set);                                                   \
    }
LOGICAL_BINARY(logical_and, x && y)
LOGICAL_BINARY(logical_or, x || y)
LOGICAL_BINARY(logical_xor, (!x) != (!y))

/* where: copies element bytes, so one loop per element size. */
#define WHERE_LOOP(NAME, T)                                                        \
    static void NAME(const char *const *in, const int64_t *s, char *out, int64_t n) \
    {                                                                              \
        const uint8_t *c = (const uint8_t *)in[0];                                 \
        const T *x = (const T *)in[1], *y = (const T *)in[2];                      \
        T *o = (T *)out;                                                           \
        for (int64_t i = 0; i < n; i++)                                            \
            o[i] = c[i * s[0]] ? x[i * s[1]] : y[i * s[2]];                        \
    }
WHERE_LOOP(where_1, uint8_t)
WHERE_LOOP(where_2, uint16_t)
WHERE_LOOP(where_4, uint32_t)
WHERE_LOOP(where_8, uint64_t)

eh_status eh_ref_where(const eh_op_call *c)
{
    static const loop_set set = {{[EH_F16] = where_2, [EH_F32] = where_4, [EH_F64] = where_8,
                                  [EH_I32] = where_4, [EH_I64] = where_8, [EH_BOOL] = where_1}};
    return run_set(c, &set);
}

/* clip(x, lo, hi) = minimum(maximum(x, lo), hi), NaN-propagating. */
#define CLIP_LOOP(NAME, T, MAX, MIN)                                               \
    static void NAME(const char *const *in, const int64_t *s, char *out, int64_t n) \
    {                                                                              \
        const T *x = (const T *)in[0], *lo = (const T *)in[1], *hi = (const T *)in[2]; \
        T *o = (T *)out;                                                           \
        for (int64_t i = 0; i < n; i++) {                                          \
            T v = x[i * s[0]], l = lo[i * s[1]], h = hi[i * s[2]];                 \
            T m = MAX(v, l);                                                       \
            o[i] = MIN(m, h);                                                      \
        }                                                                          \
    }
CLIP_LOOP(clip_f, float, MAXF, MINF)
CLIP_LOOP(clip_d, double, MAXF, MINF)
CLIP_LOOP(clip_i, int32_t, MAXI, MINI)
CLIP_LOOP(clip_l, int64_t, MAXI, MINI)
CLIP_LOOP(clip_b, uint8_t, MAXI, MINI)
static void clip_h(const char *const *in, const int64_t *s, char *out, int64_t n)
{
    const uint16_t *x = (const uint16_t *)in[0], *lo = (const uint16_t *)in[1],
                   *hi = (const uint16_t *)in[2];
    uint16_t *o = (uint16_t *)out;
    for (int64_t i = 0; i < n; i++) {
        float v = eh_f16_to_f32(x[i * s[0]]), l = eh_f16_to_f32(lo[i * s[1]]),
              h = eh_f16_to_f32(hi[i * s[2]]);
        float m = MAXF(v, l);
        o[i] = eh_f32_to_f16(MINF(m, h));
    }
}

eh_status eh_ref_clip(const eh_op_call *c)
{
    static const loop_set set = {{[EH_F16] = clip_h, [EH_F32] = clip_f, [EH_F64] = clip_d,
                                  [EH_I32] = clip_i, [EH_I64] = clip_l, [EH_BOOL] = clip_b}};
    return run_set(c, &set);
}
