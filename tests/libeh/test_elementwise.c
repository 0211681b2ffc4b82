/* Elementwise unary and binary arithmetic (libeh/src/ops_elementwise.c,
 * backends/ref/elementwise.c), plus the frontend properties every
 * elementwise op shares: NULL arguments, broadcasting errors, 0-d and empty
 * operands, allocation failures, scopes.  Comparison, logic, isnan/isinf/
 * isfinite, clip and where are in test_compare.c.
 *
 * Where expected values come from: integers and simple floats are worked
 * out by hand (the comment says how where it is not obvious).  Values of
 * transcendental functions were printed with python3's math module
 * (repr(math.exp(1)) etc.); f32 and f16 roundings of them with python3's
 * struct module (struct.pack('f'/'e', v)), checked to be the same whether
 * rounded from f64 directly or through f32.  Wrapped integer results were
 * computed with python3 as (v + 2**(n-1)) % 2**n - 2**(n-1).  NumPy is not
 * available here; where a value is "as NumPy" it is NumPy's documented
 * algorithm (npy_divmod, rint) worked by hand. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "eh_test.h"

/* ---- helpers ------------------------------------------------------------- */

#define V(...) ((const double[]){__VA_ARGS__})
#define COUNT(arr) ((int64_t)(sizeof(arr) / sizeof((arr)[0])))

static const eh_dtype all_dtypes[] = {EH_F16, EH_F32, EH_F64, EH_I32, EH_I64, EH_BOOL};

typedef eh_tensor *(*unary_fn)(const eh_tensor *);
typedef eh_tensor *(*binary_fn)(const eh_tensor *, const eh_tensor *);
typedef eh_tensor *(*bscalar_fn)(const eh_tensor *, double);
typedef eh_tensor *(*scalarb_fn)(double, const eh_tensor *);

/* Apply a unary op to a 1-D tensor of din and check the result. */
static void check_u(const char *ctx, unary_fn fn, eh_dtype din, int64_t n, const double *in,
                    eh_dtype dout, const double *want, double rtol)
{
    eh_tensor *x = t_vec(din, n, in);
    eh_tensor *y = fn(x);
    assert_tensor_case(ctx, y, dout, 1, (const int64_t[]){n}, want, rtol);
    eh_release(y);
    eh_release(x);
}
#define CHECK_U(fn, din, in, dout, want, rtol)                                           \
    do {                                                                                 \
        assert_int_equal(COUNT(in), COUNT(want));                                        \
        check_u(#fn " " #din, fn, din, COUNT(in), in, dout, want, rtol);                 \
    } while (0)

/* Apply a binary op to two 1-D tensors and check the result. */
static void check_b(const char *ctx, binary_fn fn, eh_dtype da, const double *a, eh_dtype db,
                    const double *b, int64_t n, eh_dtype dout, const double *want, double rtol)
{
    eh_tensor *x = t_vec(da, n, a), *y = t_vec(db, n, b);
    eh_tensor *z = fn(x, y);
    assert_tensor_case(ctx, z, dout, 1, (const int64_t[]){n}, want, rtol);
    eh_release(z);
    eh_release(x);
    eh_release(y);
}
#define CHECK_B(fn, da, a, db, b, dout, want, rtol)                                      \
    do {                                                                                 \
        assert_int_equal(COUNT(a), COUNT(want));                                         \
        assert_int_equal(COUNT(b), COUNT(want));                                         \
        check_b(#fn " " #da " " #db, fn, da, a, db, b, COUNT(want), dout, want, rtol);   \
    } while (0)

/* i64 tensors from exact int64 values (t_from goes through double). */
static eh_tensor *vec_i64(int64_t n, const int64_t *v)
{
    eh_tensor *t = eh_convert_to_tensor(v, 1, (const int64_t[]){n}, EH_I64);
    assert_non_null(t);
    return t;
}
static eh_tensor *vec_i32(int64_t n, const int32_t *v)
{
    eh_tensor *t = eh_convert_to_tensor(v, 1, (const int64_t[]){n}, EH_I32);
    assert_non_null(t);
    return t;
}
static void expect_i64(const char *ctx, eh_tensor *t, int64_t n, const int64_t *want)
{
    if (!t)
        fail_msg("%s: NULL result: %s", ctx, eh_error_message());
    assert_int_equal(eh_get_dtype(t), EH_I64);
    assert_int_equal(eh_size(t), n);
    const int64_t *d = eh_data_i64(t);
    for (int64_t k = 0; k < n; k++)
        if (d[k] != want[k])
            fail_msg("%s: element %lld is %lld, expected %lld", ctx, (long long)k,
                     (long long)d[k], (long long)want[k]);
}
static void expect_i32(const char *ctx, eh_tensor *t, int64_t n, const int32_t *want)
{
    if (!t)
        fail_msg("%s: NULL result: %s", ctx, eh_error_message());
    assert_int_equal(eh_get_dtype(t), EH_I32);
    assert_int_equal(eh_size(t), n);
    const int32_t *d = eh_data_i32(t);
    for (int64_t k = 0; k < n; k++)
        if (d[k] != want[k])
            fail_msg("%s: element %lld is %ld, expected %ld", ctx, (long long)k, (long)d[k],
                     (long)want[k]);
}

/* ---- the op set, from ops.def ------------------------------------------------ */

#define ENTRY_NONE(name)
#define U_UNARY(name) {#name, eh_##name},
#define B_BINARY(name) {#name, eh_##name, eh_##name##_scalar, eh_scalar_##name},
#define U_BINARY ENTRY_NONE
#define U_TERNARY ENTRY_NONE
#define B_UNARY ENTRY_NONE
#define B_TERNARY ENTRY_NONE
#define U_CREATION ENTRY_NONE
#define U_SHAPE ENTRY_NONE
#define U_REDUCTION ENTRY_NONE
#define U_LINALG ENTRY_NONE
#define U_SIGNAL ENTRY_NONE
#define U_RANDOM ENTRY_NONE
#define U_CONVERT ENTRY_NONE
#define U_META ENTRY_NONE
#define B_CREATION ENTRY_NONE
#define B_SHAPE ENTRY_NONE
#define B_REDUCTION ENTRY_NONE
#define B_LINALG ENTRY_NONE
#define B_SIGNAL ENTRY_NONE
#define B_RANDOM ENTRY_NONE
#define B_CONVERT ENTRY_NONE
#define B_META ENTRY_NONE

static const struct { const char *name; unary_fn fn; } unary_ops[] = {
#define EH_OP(name, kind, n_in) U_##kind(name)
#include <eh/ops.def>
};
static const struct { const char *name; binary_fn fn; bscalar_fn fn_s; scalarb_fn s_fn; } binary_ops[] = {
#define EH_OP(name, kind, n_in) B_##kind(name)
#include <eh/ops.def>
};
#define N_UNARY ((int)(sizeof unary_ops / sizeof unary_ops[0]))
#define N_BINARY ((int)(sizeof binary_ops / sizeof binary_ops[0]))

static int in_list(const char *name, const char *const *list)
{
    for (; *list; list++)
        if (strcmp(name, *list) == 0)
            return 1;
    return 0;
}

/* The dtype rules of <eh/elementwise.h> and docs/promotion.md, written out
 * independently of the implementation. */
static const char *const same_ops[] = {"negative", "abs", "sign", "square", "relu", "floor",
                                       "ceil", "round", NULL};
static const char *const float_unary_ops[] = {"sqrt", "exp", "log", "log1p", "expm1", "sin",
                                              "cos", "tan", "tanh", "sigmoid", "softplus",
                                              "erf", "reciprocal", NULL};
static const char *const test_ops[] = {"isnan", "isinf", "isfinite", NULL};
static const char *const arith_ops[] = {"add", "subtract", "multiply", "floor_divide", "mod",
                                        "power", NULL};
static const char *const select_ops[] = {"maximum", "minimum", NULL};
static const char *const float_binary_ops[] = {"divide", "atan2", NULL};
static const char *const compare_ops[] = {"equal", "not_equal", "less", "less_equal",
                                          "greater", "greater_equal", NULL};
static const char *const logical_ops[] = {"logical_and", "logical_or", "logical_xor",
                                          "logical_not", NULL};

/* NumPy's promotion for our six dtypes (numpy.result_type), transcribed. */
static eh_dtype numpy_promote(eh_dtype a, eh_dtype b)
{
    if (a == b)
        return a;
    if (a == EH_BOOL)
        return b;
    if (b == EH_BOOL)
        return a;
    int fa = eh_dtype_is_float(a), fb = eh_dtype_is_float(b);
    if (fa && fb)
        return a > b ? a : b; /* f16 < f32 < f64 in the enum */
    if (!fa && !fb)
        return EH_I64;        /* i32 with i64 */
    /* an integer with a float: f64 (f16 and f32 cannot hold every i32) */
    return EH_F64;
}

static eh_dtype float_of(eh_dtype d) { return eh_dtype_is_float(d) ? d : EH_F64; }

/* Tolerance suited to a result dtype. */
static double tol_for(eh_dtype d)
{
    return d == EH_F16 ? 1e-3 : d == EH_F32 ? 1e-6 : 1e-14;
}

/* Each op of ops.def that is UNARY/BINARY is classified above: a new op
 * must be added to these tests. */
static void test_every_elementwise_op_is_classified(void **state)
{
    (void)state;
    for (int k = 0; k < N_UNARY; k++) {
        const char *n = unary_ops[k].name;
        if (strcmp(n, "clip") == 0)
            continue; /* see test_compare.c: clip is TERNARY by its documentation */
        if (!in_list(n, same_ops) && !in_list(n, float_unary_ops) && !in_list(n, test_ops) &&
            !in_list(n, logical_ops))
            fail_msg("unary op %s is not covered by test_elementwise.c", n);
    }
    for (int k = 0; k < N_BINARY; k++) {
        const char *n = binary_ops[k].name;
        if (!in_list(n, arith_ops) && !in_list(n, select_ops) && !in_list(n, float_binary_ops) &&
            !in_list(n, compare_ops) && !in_list(n, logical_ops))
            fail_msg("binary op %s is not covered by test_elementwise.c", n);
    }
    assert_true(N_UNARY >= 25);
    assert_true(N_BINARY >= 19);
}

/* ---- properties of every unary op -------------------------------------------- */

static void test_unary_null_argument(void **state)
{
    (void)state;
    char needle[64];
    for (int k = 0; k < N_UNARY; k++) {
        snprintf(needle, sizeof needle, "%s: argument 'x' is NULL", unary_ops[k].name);
        assert_failed(unary_ops[k].fn(NULL), EH_ERR_NULL_ARG, needle);
    }
}

/* Expected values of each unary op at x = 0 and x = 1 (python3 math). */
static void unary_at_0_1(const char *op, double out[2])
{
    static const struct { const char *op; double v0, v1; } table[] = {
        {"negative", -0.0, -1}, {"abs", 0, 1}, {"sign", 0, 1}, {"square", 0, 1},
        {"relu", 0, 1}, {"floor", 0, 1}, {"ceil", 0, 1}, {"round", 0, 1},
        {"sqrt", 0, 1}, {"exp", 1, 2.718281828459045}, {"log", -INFINITY, 0},
        {"log1p", 0, 0.6931471805599453}, {"expm1", 0, 1.718281828459045},
        {"sin", 0, 0.8414709848078965}, {"cos", 1, 0.5403023058681398},
        {"tan", 0, 1.5574077246549023}, {"tanh", 0, 0.7615941559557649},
        {"sigmoid", 0.5, 0.7310585786300049}, {"softplus", 0.6931471805599453, 1.3132616875182228},
        {"erf", 0, 0.8427007929497149}, {"reciprocal", INFINITY, 1},
        {"isnan", 0, 0}, {"isinf", 0, 0}, {"isfinite", 1, 1}, {"logical_not", 1, 0},
    };
    for (size_t k = 0; k < sizeof table / sizeof table[0]; k++)
        if (strcmp(table[k].op, op) == 0) {
            out[0] = table[k].v0;
            out[1] = table[k].v1;
            return;
        }
    fail_msg("no expected values for %s", op);
}

/* Every unary op on every dtype: result dtype by the documented rule, the
 * values at 0 and 1, and EH_ERR_DTYPE for bool where the rule says so. */
static void test_unary_dtype_matrix(void **state)
{
    (void)state;
    char ctx[96];
    for (int k = 0; k < N_UNARY; k++) {
        const char *op = unary_ops[k].name;
        if (strcmp(op, "clip") == 0)
            continue;
        double want[2] = {0, 0};
        unary_at_0_1(op, want);
        for (size_t d = 0; d < sizeof all_dtypes / sizeof all_dtypes[0]; d++) {
            eh_dtype in = all_dtypes[d];
            snprintf(ctx, sizeof ctx, "%s(%s)", op, eh_dtype_name(in));
            eh_tensor *x = t_vec(in, 2, V(0, 1));
            eh_tensor *y = unary_ops[k].fn(x);
            if (in_list(op, same_ops) && in == EH_BOOL) {
                char needle[64];
                snprintf(needle, sizeof needle, "%s: not defined for bool", op);
                assert_failed(y, EH_ERR_DTYPE, needle);
                eh_release(x);
                continue;
            }
            eh_dtype out = in_list(op, same_ops)          ? in
                           : in_list(op, float_unary_ops) ? float_of(in)
                                                          : EH_BOOL;
            double w[2] = {want[0], want[1]};
            if (!eh_dtype_is_float(out) && w[0] == 0)
                w[0] = 0.0; /* an integer zero has no sign */
            assert_tensor_case(ctx, y, out, 1, SHAPE(2), w,
                               eh_dtype_is_float(out) ? tol_for(out) : 0);
            eh_release(y);
            eh_release(x);
        }
    }
}

/* 0-d in, 0-d out; (0, 3) in, (0, 3) out; for every unary op. */
static void test_unary_0d_and_empty(void **state)
{
    (void)state;
    char ctx[64];
    eh_tensor *s = eh_scalar(0.25, EH_F32);
    eh_tensor *e = t_from(EH_F32, 2, SHAPE(0, 3), NULL);
    for (int k = 0; k < N_UNARY; k++) {
        const char *op = unary_ops[k].name;
        if (strcmp(op, "clip") == 0)
            continue;
        eh_dtype out = in_list(op, test_ops) || in_list(op, logical_ops) ? EH_BOOL : EH_F32;
        snprintf(ctx, sizeof ctx, "%s 0-d", op);
        eh_tensor *y = unary_ops[k].fn(s);
        assert_non_null(y);
        assert_int_equal(eh_ndim(y), 0);
        assert_int_equal(eh_size(y), 1);
        assert_int_equal(eh_get_dtype(y), out);
        eh_release(y);
        snprintf(ctx, sizeof ctx, "%s empty", op);
        y = unary_ops[k].fn(e);
        assert_tensor_case(ctx, y, out, 2, SHAPE(0, 3), NULL, 0);
        eh_release(y);
    }
    /* a 0-d value is computed, not just shaped */
    eh_tensor *y = eh_sqrt(s);
    assert_tensor_case("sqrt 0-d", y, EH_F32, 0, NULL, V(0.5), 0);
    eh_release(y);
    eh_release(s);
    eh_release(e);
}

/* ---- unary ops, value by value ------------------------------------------------- */

static void test_negative(void **state)
{
    (void)state;
    CHECK_U(eh_negative, EH_F64, V(1.5, -2, 0, -0.0, INFINITY, -INFINITY, NAN), EH_F64,
            V(-1.5, 2, -0.0, 0.0, -INFINITY, INFINITY, NAN), 0);
    CHECK_U(eh_negative, EH_F32, V(1.5, -2, 0), EH_F32, V(-1.5, 2, -0.0), 0);
    CHECK_U(eh_negative, EH_F16, V(1.5, -65504, INFINITY), EH_F16, V(-1.5, 65504, -INFINITY), 0);
    /* -INT32_MIN wraps to INT32_MIN */
    eh_tensor *x = vec_i32(4, (const int32_t[]){5, -3, INT32_MAX, INT32_MIN});
    eh_tensor *y = eh_negative(x);
    expect_i32("negative i32", y, 4, (const int32_t[]){-5, 3, -INT32_MAX, INT32_MIN});
    eh_release(x);
    eh_release(y);
    x = vec_i64(3, (const int64_t[]){INT64_MAX, INT64_MIN, -7});
    y = eh_negative(x);
    expect_i64("negative i64", y, 3, (const int64_t[]){-INT64_MAX, INT64_MIN, 7});
    eh_release(x);
    eh_release(y);
    x = t_vec(EH_BOOL, 2, V(1, 0));
    assert_failed(eh_negative(x), EH_ERR_DTYPE, "negative: not defined for bool");
    eh_release(x);
}

static void test_abs(void **state)
{
    (void)state;
    CHECK_U(eh_abs, EH_F64, V(-1.5, 2, -0.0, -INFINITY, NAN), EH_F64, V(1.5, 2, 0.0, INFINITY, NAN), 0);
    CHECK_U(eh_abs, EH_F32, V(-3.25, 0.5), EH_F32, V(3.25, 0.5), 0);
    CHECK_U(eh_abs, EH_F16, V(-3.25, -0.0), EH_F16, V(3.25, 0.0), 0);
    eh_tensor *x = vec_i32(4, (const int32_t[]){-5, 0, INT32_MAX, INT32_MIN});
    eh_tensor *y = eh_abs(x);
    expect_i32("abs i32", y, 4, (const int32_t[]){5, 0, INT32_MAX, INT32_MIN}); /* wraps */
    eh_release(x);
    eh_release(y);
    x = vec_i64(3, (const int64_t[]){-INT64_MAX, INT64_MIN, 9007199254740993});
    y = eh_abs(x);
    expect_i64("abs i64", y, 3, (const int64_t[]){INT64_MAX, INT64_MIN, 9007199254740993});
    eh_release(x);
    eh_release(y);
    x = t_vec(EH_BOOL, 1, V(1));
    assert_failed(eh_abs(x), EH_ERR_DTYPE, "bool");
    eh_release(x);
}

static void test_sign(void **state)
{
    (void)state;
    /* sign(NaN) is NaN; sign(-0.0) is 0.0 as NumPy's (x > 0 ? 1 : x < 0 ? -1 : x == 0 ? 0 : x) */
    CHECK_U(eh_sign, EH_F64, V(-3, 0, -0.0, 2.5, -INFINITY, INFINITY, NAN, 1e-300), EH_F64,
            V(-1, 0, 0, 1, -1, 1, NAN, 1), 0);
    CHECK_U(eh_sign, EH_F32, V(-3, 0, 7, NAN), EH_F32, V(-1, 0, 1, NAN), 0);
    CHECK_U(eh_sign, EH_F16, V(-3, 0, 7, NAN), EH_F16, V(-1, 0, 1, NAN), 0);
    CHECK_U(eh_sign, EH_I32, V(-7, 0, 9, -2147483648.0), EH_I32, V(-1, 0, 1, -1), 0);
    CHECK_U(eh_sign, EH_I64, V(-7, 0, 9e15), EH_I64, V(-1, 0, 1), 0);
    eh_tensor *x = t_vec(EH_BOOL, 1, V(1));
    assert_failed(eh_sign(x), EH_ERR_DTYPE, "sign");
    eh_release(x);
}

static void test_square(void **state)
{
    (void)state;
    CHECK_U(eh_square, EH_F64, V(3, -1.5, -0.0, -INFINITY, NAN, 1e200), EH_F64,
            V(9, 2.25, 0, INFINITY, NAN, INFINITY), 0);
    CHECK_U(eh_square, EH_F32, V(3, 1e20), EH_F32, V(9, INFINITY), 0);
    /* f16: 300 * 300 = 90000 is above the f16 maximum 65504 */
    CHECK_U(eh_square, EH_F16, V(3, 300), EH_F16, V(9, INFINITY), 0);
    /* 46341^2 = 2147488281 wraps to -2147479015; 65536^2 wraps to 0 */
    CHECK_U(eh_square, EH_I32, V(-4, 46341, 65536), EH_I32, V(16, -2147479015.0, 0), 0);
    eh_tensor *x = vec_i64(2, (const int64_t[]){-3037000499, 3037000500});
    eh_tensor *y = eh_square(x);
    /* 3037000499^2 = 9223372030926249001 fits; 3037000500^2 wraps */
    expect_i64("square i64", y, 2, (const int64_t[]){9223372030926249001, -9223372036709301616});
    eh_release(x);
    eh_release(y);
}

static void test_sqrt(void **state)
{
    (void)state;
    CHECK_U(eh_sqrt, EH_F64, V(4, 2, 0, -0.0, -1, INFINITY, -INFINITY, NAN), EH_F64,
            V(2, 1.4142135623730951, 0, -0.0, NAN, INFINITY, NAN, NAN), 0);
    CHECK_U(eh_sqrt, EH_F32, V(4, 2, -1), EH_F32, V(2, 1.4142135381698608, NAN), 0);
    CHECK_U(eh_sqrt, EH_F16, V(4, 2), EH_F16, V(2, 1.4140625), 0);
    /* integers and bool compute in f64 */
    CHECK_U(eh_sqrt, EH_I32, V(9, 2, -4), EH_F64, V(3, 1.4142135623730951, NAN), 0);
    CHECK_U(eh_sqrt, EH_I64, V(1e16), EH_F64, V(1e8), 0);
    CHECK_U(eh_sqrt, EH_BOOL, V(1, 0), EH_F64, V(1, 0), 0);
}

static void test_exp_log(void **state)
{
    (void)state;
    CHECK_U(eh_exp, EH_F64, V(0, 1, -1, 710, -INFINITY, INFINITY, NAN, -800), EH_F64,
            V(1, 2.718281828459045, 0.36787944117144233, INFINITY, 0, INFINITY, NAN, 0), 1e-15);
    CHECK_U(eh_exp, EH_F32, V(0, 1, 89), EH_F32, V(1, 2.7182817459106445, INFINITY), 1e-7);
    CHECK_U(eh_exp, EH_F16, V(0, 1, 12), EH_F16, V(1, 2.71875, INFINITY), 0); /* e^12 > 65504 */
    CHECK_U(eh_exp, EH_I32, V(1), EH_F64, V(2.718281828459045), 1e-15);
    CHECK_U(eh_log, EH_F64, V(1, 2.718281828459045, 10, 0, -0.0, -1, INFINITY, NAN), EH_F64,
            V(0, 1, 2.302585092994046, -INFINITY, -INFINITY, NAN, INFINITY, NAN), 1e-15);
    CHECK_U(eh_log, EH_F32, V(1, 0, -2), EH_F32, V(0, -INFINITY, NAN), 0);
    CHECK_U(eh_log, EH_F16, V(2, 0), EH_F16, V(0.693359375, -INFINITY), 0);
    CHECK_U(eh_log, EH_I64, V(1, 0), EH_F64, V(0, -INFINITY), 0);
}

static void test_log1p_expm1(void **state)
{
    (void)state;
    /* accuracy near 0 is the point of these two: log(1 + 1e-10) would lose digits */
    CHECK_U(eh_log1p, EH_F64, V(1e-10, 0, -0.0, 1, -1, -2, INFINITY, NAN), EH_F64,
            V(9.999999999500001e-11, 0, -0.0, 0.6931471805599453, -INFINITY, NAN, INFINITY, NAN), 1e-15);
    CHECK_U(eh_log1p, EH_F32, V(1e-10, -1), EH_F32, V(1e-10, -INFINITY), 1e-6);
    CHECK_U(eh_log1p, EH_F16, V(1), EH_F16, V(0.693359375), 0);
    CHECK_U(eh_expm1, EH_F64, V(1e-10, 0, -0.0, 1, -INFINITY, INFINITY, NAN), EH_F64,
            V(1.00000000005e-10, 0, -0.0, 1.718281828459045, -1, INFINITY, NAN), 1e-15);
    CHECK_U(eh_expm1, EH_F32, V(1e-10, -INFINITY), EH_F32, V(1e-10, -1), 1e-6);
    CHECK_U(eh_expm1, EH_I32, V(0, 1), EH_F64, V(0, 1.718281828459045), 1e-15);
}

static void test_trig(void **state)
{
    (void)state;
    const double pi = 3.141592653589793;
    CHECK_U(eh_sin, EH_F64, V(0, -0.0, pi / 2, pi / 6, 1, INFINITY, NAN), EH_F64,
            V(0, -0.0, 1, 0.49999999999999994, 0.8414709848078965, NAN, NAN), 1e-15);
    CHECK_U(eh_cos, EH_F64, V(0, pi, 1, -INFINITY, NAN), EH_F64,
            V(1, -1, 0.5403023058681398, NAN, NAN), 1e-15);
    CHECK_U(eh_tan, EH_F64, V(0, pi / 4, 1, INFINITY, NAN), EH_F64,
            V(0, 0.9999999999999999, 1.5574077246549023, NAN, NAN), 1e-15);
    CHECK_U(eh_sin, EH_F32, V(1), EH_F32, V(0.8414709568023682), 1e-7);
    CHECK_U(eh_cos, EH_F32, V(0), EH_F32, V(1), 0);
    CHECK_U(eh_tan, EH_F32, V(1), EH_F32, V(1.5574077246549023), 1e-6);
    CHECK_U(eh_sin, EH_F16, V(1), EH_F16, V(0.84130859375), 0);
    CHECK_U(eh_cos, EH_I32, V(0), EH_F64, V(1), 0);
    CHECK_U(eh_tan, EH_BOOL, V(0), EH_F64, V(0), 0);
}

static void test_tanh_sigmoid(void **state)
{
    (void)state;
    CHECK_U(eh_tanh, EH_F64, V(0, -0.0, 0.5, 20, -20, INFINITY, -INFINITY, NAN), EH_F64,
            V(0, -0.0, 0.46211715726000974, 1, -1, 1, -1, NAN), 1e-15);
    CHECK_U(eh_tanh, EH_F32, V(0.5), EH_F32, V(0.46211716532707214), 1e-7);
    CHECK_U(eh_tanh, EH_F16, V(0.5), EH_F16, V(0.462158203125), 0);
    /* sigmoid(0) = 0.5; 1/(1+e^-1) = 0.7310585786300049; no overflow at +-800 */
    CHECK_U(eh_sigmoid, EH_F64, V(0, 1, -1, 800, -800, INFINITY, -INFINITY, NAN), EH_F64,
            V(0.5, 0.7310585786300049, 0.2689414213699951, 1, 0, 1, 0, NAN), 1e-15);
    /* e^-80 = 1.8048513878454153e-35 is still a normal f32 */
    CHECK_U(eh_sigmoid, EH_F32, V(0, 1, 100, -80), EH_F32,
            V(0.5, 0.7310585975646973, 1, 1.8048513878454153e-35), 1e-6);
    CHECK_U(eh_sigmoid, EH_F16, V(0, 1, -20), EH_F16, V(0.5, 0.73095703125, 0), 0);
    CHECK_U(eh_sigmoid, EH_I32, V(0), EH_F64, V(0.5), 0);
}

static void test_relu(void **state)
{
    (void)state;
    /* max(x, 0) keeps NaN, and -0.0 (not below 0) */
    CHECK_U(eh_relu, EH_F64, V(-2, 0, 3.5, NAN, -INFINITY, INFINITY, -0.0), EH_F64,
            V(0, 0, 3.5, NAN, 0, INFINITY, -0.0), 0);
    CHECK_U(eh_relu, EH_F32, V(-2, 1.5), EH_F32, V(0, 1.5), 0);
    CHECK_U(eh_relu, EH_F16, V(-2, 1.5, NAN), EH_F16, V(0, 1.5, NAN), 0);
    CHECK_U(eh_relu, EH_I32, V(-5, 7, -2147483648.0), EH_I32, V(0, 7, 0), 0);
    CHECK_U(eh_relu, EH_I64, V(-5, 7), EH_I64, V(0, 7), 0);
    eh_tensor *x = t_vec(EH_BOOL, 1, V(1));
    assert_failed(eh_relu(x), EH_ERR_DTYPE, "relu");
    eh_release(x);
}

static void test_softplus(void **state)
{
    (void)state;
    /* log(1 + e^x); for large x it is x (a naive formula overflows to inf),
     * for very negative x it is e^x (here 0 in f64 at -1000).
     * 30 + log1p(e^-30) = 30.000000000000092 (python3). */
    CHECK_U(eh_softplus, EH_F64, V(0, 1, -1, 30, 1000, -1000, INFINITY, -INFINITY, NAN), EH_F64,
            V(0.6931471805599453, 1.3132616875182228, 0.31326168751822286, 30.000000000000092,
              1000, 0, INFINITY, 0, NAN), 1e-15);
    CHECK_U(eh_softplus, EH_F32, V(0, 100, -80), EH_F32, V(0.6931471824645996, 100, 1.8048513878454153e-35), 1e-6);
    CHECK_U(eh_softplus, EH_F16, V(0, 100), EH_F16, V(0.693359375, 100), 0);
    CHECK_U(eh_softplus, EH_I64, V(0), EH_F64, V(0.6931471805599453), 1e-15);
}

static void test_erf(void **state)
{
    (void)state;
    CHECK_U(eh_erf, EH_F64, V(0, -0.0, 1, -1, 0.5, INFINITY, -INFINITY, NAN), EH_F64,
            V(0, -0.0, 0.8427007929497149, -0.8427007929497149, 0.5204998778130465, 1, -1, NAN), 1e-15);
    CHECK_U(eh_erf, EH_F32, V(1), EH_F32, V(0.8427007794380188), 1e-7);
    CHECK_U(eh_erf, EH_F16, V(1), EH_F16, V(0.8427734375), 0);
    CHECK_U(eh_erf, EH_I32, V(1), EH_F64, V(0.8427007929497149), 1e-15);
}

static void test_floor_ceil(void **state)
{
    (void)state;
    CHECK_U(eh_floor, EH_F64, V(-2.5, -0.5, 0.5, 2.5, 3.7, -0.0, -INFINITY, NAN, 1e300), EH_F64,
            V(-3, -1, 0, 2, 3, -0.0, -INFINITY, NAN, 1e300), 0);
    CHECK_U(eh_ceil, EH_F64, V(-2.5, -0.5, 0.5, 2.5, 3.2, INFINITY, NAN), EH_F64,
            V(-2, -0.0, 1, 3, 4, INFINITY, NAN), 0);
    CHECK_U(eh_floor, EH_F32, V(-2.5, 2.5), EH_F32, V(-3, 2), 0);
    CHECK_U(eh_ceil, EH_F32, V(-2.5, 2.5), EH_F32, V(-2, 3), 0);
    CHECK_U(eh_floor, EH_F16, V(-2.5, 2.5), EH_F16, V(-3, 2), 0);
    CHECK_U(eh_ceil, EH_F16, V(-2.5, 2.5), EH_F16, V(-2, 3), 0);
    /* integers are already whole: same dtype, same values */
    eh_tensor *x = vec_i32(3, (const int32_t[]){INT32_MIN, -7, INT32_MAX});
    eh_tensor *y = eh_floor(x), *z = eh_ceil(x);
    expect_i32("floor i32", y, 3, (const int32_t[]){INT32_MIN, -7, INT32_MAX});
    expect_i32("ceil i32", z, 3, (const int32_t[]){INT32_MIN, -7, INT32_MAX});
    eh_release(x);
    eh_release(y);
    eh_release(z);
    x = vec_i64(2, (const int64_t[]){INT64_MAX, 9007199254740993});
    y = eh_floor(x);
    z = eh_ceil(x);
    expect_i64("floor i64", y, 2, (const int64_t[]){INT64_MAX, 9007199254740993});
    expect_i64("ceil i64", z, 2, (const int64_t[]){INT64_MAX, 9007199254740993});
    eh_release(x);
    eh_release(y);
    eh_release(z);
    x = t_vec(EH_BOOL, 1, V(1));
    assert_failed(eh_floor(x), EH_ERR_DTYPE, "floor");
    assert_failed(eh_ceil(x), EH_ERR_DTYPE, "ceil");
    eh_release(x);
}

static void test_round_half_to_even(void **state)
{
    (void)state;
    /* ties go to the even neighbour; round(-0.5) is -0.0 */
    CHECK_U(eh_round, EH_F64, V(0.5, 1.5, 2.5, 3.5, -0.5, -1.5, -2.5, 2.6, -2.4, 0.49999999999999994,
                                INFINITY, NAN, 4503599627370497.0),
            EH_F64, V(0, 2, 2, 4, -0.0, -2, -2, 3, -2, 0, INFINITY, NAN, 4503599627370497.0), 0);
    CHECK_U(eh_round, EH_F32, V(0.5, 1.5, 2.5, -0.5, -2.5), EH_F32, V(0, 2, 2, -0.0, -2), 0);
    CHECK_U(eh_round, EH_F16, V(0.5, 1.5, 2.5, -0.5, -2.5), EH_F16, V(0, 2, 2, -0.0, -2), 0);
    eh_tensor *x = vec_i64(2, (const int64_t[]){INT64_MIN, 9007199254740993});
    eh_tensor *y = eh_round(x);
    expect_i64("round i64", y, 2, (const int64_t[]){INT64_MIN, 9007199254740993});
    eh_release(x);
    eh_release(y);
    CHECK_U(eh_round, EH_I32, V(-3, 3), EH_I32, V(-3, 3), 0);
    x = t_vec(EH_BOOL, 1, V(0));
    assert_failed(eh_round(x), EH_ERR_DTYPE, "round");
    eh_release(x);
}

static void test_reciprocal(void **state)
{
    (void)state;
    CHECK_U(eh_reciprocal, EH_F64, V(2, -4, 0, -0.0, INFINITY, -INFINITY, NAN), EH_F64,
            V(0.5, -0.25, INFINITY, -INFINITY, 0, -0.0, NAN), 0);
    CHECK_U(eh_reciprocal, EH_F32, V(3), EH_F32, V(0.3333333432674408), 0);
    CHECK_U(eh_reciprocal, EH_F16, V(3, 0), EH_F16, V(0.333251953125, INFINITY), 0);
    /* integers compute in f64 (NumPy would keep the integer dtype: 1 // x) */
    CHECK_U(eh_reciprocal, EH_I32, V(2, 0, -1), EH_F64, V(0.5, INFINITY, -1), 0);
    CHECK_U(eh_reciprocal, EH_BOOL, V(1, 0), EH_F64, V(1, INFINITY), 0);
}

/* f16 ops load to f32, compute in f32 and round the result once to f16
 * (nearest, ties to even). */
static void test_f16_computes_in_f32_and_rounds(void **state)
{
    (void)state;
    const double ulp1 = 1.0 / 2048; /* 2^-11: half the f16 spacing at 1 */
    /* 1 + 2^-11 is a tie between 1 and 1 + 2^-10: the even one is 1.
     * 1 + 3*2^-11 is a tie between 1 + 2^-10 and 1 + 2^-9: even is 1 + 2^-9. */
    CHECK_B(eh_add, EH_F16, V(1, 1, 1), EH_F16, V(ulp1, 3 * ulp1, 5 * ulp1), EH_F16,
            V(1, 1 + 4 * ulp1, 1 + 4 * ulp1), 0);
    /* The same sums in f32 keep every bit. */
    CHECK_B(eh_add, EH_F32, V(1, 1), EH_F32, V(ulp1, 3 * ulp1), EH_F32, V(1 + ulp1, 1 + 3 * ulp1), 0);
    /* 60000 + 10000 = 70000 fits f32 but not f16: inf.  65504 + 16 = 65520
     * rounds to inf too (it is the tie with 2^16), 65504 + 15 rounds down. */
    CHECK_B(eh_add, EH_F16, V(60000, 65504, 65504), EH_F16, V(10000, 16, 15), EH_F16,
            V(INFINITY, INFINITY, 65504), 0);
    /* The smallest subnormal 2^-24 halved is a tie with 0: even is 0. */
    CHECK_B(eh_multiply, EH_F16, V(5.9604644775390625e-08, 5.9604644775390625e-08), EH_F16,
            V(0.5, 1.5), EH_F16, V(0, 1.1920928955078125e-07), 0);
    /* (a*b)/c in f16 steps vs one f32 computation: 1/3 rounded to f16 */
    CHECK_B(eh_divide, EH_F16, V(1, 2), EH_F16, V(3, 3), EH_F16, V(0.333251953125, 0.66650390625), 0);
    /* mixed f16 with bool stays f16 */
    CHECK_B(eh_add, EH_F16, V(1), EH_BOOL, V(1), EH_F16, V(2), 0);
}

/* ---- properties of every binary op -------------------------------------------- */

static void test_binary_null_arguments(void **state)
{
    (void)state;
    char needle[80];
    eh_tensor *a = T_F64(SHAPE(2), 1, 2);
    for (int k = 0; k < N_BINARY; k++) {
        const char *op = binary_ops[k].name;
        snprintf(needle, sizeof needle, "%s: argument 'a' is NULL", op);
        assert_failed(binary_ops[k].fn(NULL, a), EH_ERR_NULL_ARG, needle);
        assert_failed(binary_ops[k].fn_s(NULL, 2.0), EH_ERR_NULL_ARG, needle);
        snprintf(needle, sizeof needle, "%s: argument 'b' is NULL", op);
        assert_failed(binary_ops[k].fn(a, NULL), EH_ERR_NULL_ARG, needle);
        assert_failed(binary_ops[k].s_fn(2.0, NULL), EH_ERR_NULL_ARG, needle);
        assert_failed(binary_ops[k].fn(NULL, NULL), EH_ERR_NULL_ARG, "'a'");
    }
    eh_release(a);
}

static void test_binary_shape_errors(void **state)
{
    (void)state;
    char needle[96];
    eh_tensor *a = T_F64(SHAPE(2, 3), 1, 2, 3, 4, 5, 6), *b = T_F64(SHAPE(4), 1, 2, 3, 4);
    eh_tensor *e = t_from(EH_F64, 1, SHAPE(0), NULL), *c = T_F64(SHAPE(2), 1, 2);
    for (int k = 0; k < N_BINARY; k++) {
        const char *op = binary_ops[k].name;
        snprintf(needle, sizeof needle, "%s: shapes (2, 3) and (4,) cannot be broadcast", op);
        assert_failed(binary_ops[k].fn(a, b), EH_ERR_SHAPE, needle);
        snprintf(needle, sizeof needle, "%s: shapes (4,) and (2, 3) cannot be broadcast", op);
        assert_failed(binary_ops[k].fn(b, a), EH_ERR_SHAPE, needle);
        /* 0 does not broadcast with 2 */
        snprintf(needle, sizeof needle, "%s: shapes (0,) and (2,)", op);
        assert_failed(binary_ops[k].fn(e, c), EH_ERR_SHAPE, needle);
    }
    eh_release(a);
    eh_release(b);
    eh_release(c);
    eh_release(e);
}

/* 0-d with 0-d is 0-d; 0-d and (1,) with empty shapes give empty results;
 * (0, 3) with (3,) is (0, 3); for every binary op and its scalar forms. */
static void test_binary_0d_and_empty(void **state)
{
    (void)state;
    char ctx[64];
    eh_tensor *s = eh_scalar(2, EH_F64), *e03 = t_from(EH_F64, 2, SHAPE(0, 3), NULL);
    eh_tensor *v3 = T_F64(SHAPE(3), 1, 2, 3), *one = T_F64(SHAPE(1), 1);
    eh_tensor *e20 = t_from(EH_F64, 2, SHAPE(2, 0), NULL), *c21 = T_F64(SHAPE(2, 1), 1, 2);
    for (int k = 0; k < N_BINARY; k++) {
        const char *op = binary_ops[k].name;
        eh_dtype out = in_list(op, compare_ops) || in_list(op, logical_ops) ? EH_BOOL : EH_F64;
        eh_tensor *r = binary_ops[k].fn(s, s);
        snprintf(ctx, sizeof ctx, "%s 0-d", op);
        assert_non_null(r);
        assert_int_equal(eh_ndim(r), 0);
        assert_int_equal(eh_get_dtype(r), out);
        eh_release(r);
        r = binary_ops[k].fn_s(s, 3);
        assert_int_equal(eh_ndim(r), 0);
        eh_release(r);
        r = binary_ops[k].s_fn(3, s);
        assert_int_equal(eh_ndim(r), 0);
        eh_release(r);
        snprintf(ctx, sizeof ctx, "%s (0,3) (3,)", op);
        r = binary_ops[k].fn(e03, v3);
        assert_tensor_case(ctx, r, out, 2, SHAPE(0, 3), NULL, 0);
        eh_release(r);
        snprintf(ctx, sizeof ctx, "%s (1,) (0,3)", op);
        r = binary_ops[k].fn(one, e03);
        assert_tensor_case(ctx, r, out, 2, SHAPE(0, 3), NULL, 0);
        eh_release(r);
        snprintf(ctx, sizeof ctx, "%s () (0,3)", op);
        r = binary_ops[k].fn(s, e03);
        assert_tensor_case(ctx, r, out, 2, SHAPE(0, 3), NULL, 0);
        eh_release(r);
        snprintf(ctx, sizeof ctx, "%s (2,1) (2,0)", op);
        r = binary_ops[k].fn(c21, e20);
        assert_tensor_case(ctx, r, out, 2, SHAPE(2, 0), NULL, 0);
        eh_release(r);
        snprintf(ctx, sizeof ctx, "%s_scalar (0,3)", op);
        r = binary_ops[k].fn_s(e03, 1);
        assert_tensor_case(ctx, r, out, 2, SHAPE(0, 3), NULL, 0);
        eh_release(r);
    }
    eh_release(s);
    eh_release(e03);
    eh_release(v3);
    eh_release(one);
    eh_release(e20);
    eh_release(c21);
}

/* Expected values of the arithmetic family at a = [1, 0], b = [1, 1]
 * (values every dtype, bool included, can hold). */
static void arith_at(const char *op, double out[2])
{
    static const struct { const char *op; double v0, v1; } table[] = {
        {"add", 2, 1}, {"subtract", 0, -1}, {"multiply", 1, 0}, {"floor_divide", 1, 0},
        {"mod", 0, 0}, {"power", 1, 0}, {"maximum", 1, 1}, {"minimum", 1, 0},
        {"divide", 1, 0}, {"atan2", 0.7853981633974483, 0},
    };
    for (size_t k = 0; k < sizeof table / sizeof table[0]; k++)
        if (strcmp(table[k].op, op) == 0) {
            out[0] = table[k].v0;
            out[1] = table[k].v1;
            return;
        }
    fail_msg("no expected values for %s", op);
}

/* Every arithmetic binary op with every pair of dtypes: the result dtype
 * follows NumPy's promotion and the op family's rule, and the value is
 * right (so every kernel loop exists and computes its own op). */
static void test_binary_dtype_matrix(void **state)
{
    (void)state;
    char ctx[96];
    const size_t nd = sizeof all_dtypes / sizeof all_dtypes[0];
    for (int k = 0; k < N_BINARY; k++) {
        const char *op = binary_ops[k].name;
        if (in_list(op, compare_ops) || in_list(op, logical_ops))
            continue; /* test_compare.c */
        double want[2] = {0, 0};
        arith_at(op, want);
        for (size_t i = 0; i < nd; i++) {
            for (size_t j = 0; j < nd; j++) {
                eh_dtype da = all_dtypes[i], db = all_dtypes[j];
                eh_dtype p = numpy_promote(da, db);
                eh_dtype out = in_list(op, float_binary_ops) ? float_of(p)
                               : in_list(op, arith_ops) && p == EH_BOOL ? EH_I64
                                                                       : p;
                snprintf(ctx, sizeof ctx, "%s(%s, %s)", op, eh_dtype_name(da), eh_dtype_name(db));
                eh_tensor *a = t_vec(da, 2, V(1, 0)), *b = t_vec(db, 2, V(1, 1));
                eh_tensor *r = binary_ops[k].fn(a, b);
                assert_tensor_case(ctx, r, out, 1, SHAPE(2), want,
                                   eh_dtype_is_float(out) ? tol_for(out) : 0);
                eh_release(r);
                eh_release(a);
                eh_release(b);
            }
        }
    }
}

/* ---- binary arithmetic, value by value ------------------------------------------ */

static void test_add_subtract_multiply(void **state)
{
    (void)state;
    CHECK_B(eh_add, EH_F64, V(1.5, INFINITY, INFINITY, NAN, 1e308, -0.0), EH_F64,
            V(2.25, 1, -INFINITY, 1, 1e308, -0.0), EH_F64, V(3.75, INFINITY, NAN, NAN, INFINITY, -0.0), 0);
    CHECK_B(eh_subtract, EH_F64, V(1.5, INFINITY, 0, 5), EH_F64, V(2.25, INFINITY, 0, -5), EH_F64,
            V(-0.75, NAN, 0, 10), 0);
    CHECK_B(eh_multiply, EH_F64, V(1.5, INFINITY, -2, 0), EH_F64, V(-2, 0, 0, NAN), EH_F64,
            V(-3, NAN, -0.0, NAN), 0);
    /* f32 arithmetic is done in f32: 0.1f + 1 is the f32 rounding of the exact sum */
    CHECK_B(eh_add, EH_F32, V(0.1, 16777216), EH_F32, V(1, 1), EH_F32, V(1.100000023841858, 16777216), 0);
    CHECK_B(eh_subtract, EH_F32, V(3), EH_F32, V(0.5), EH_F32, V(2.5), 0);
    CHECK_B(eh_multiply, EH_F32, V(3e38), EH_F32, V(10), EH_F32, V(INFINITY), 0);
    CHECK_B(eh_subtract, EH_F16, V(1, 2048), EH_F16, V(0.25, -1), EH_F16, V(0.75, 2048), 0);
    CHECK_B(eh_multiply, EH_F16, V(3, 256), EH_F16, V(-0.5, 256), EH_F16, V(-1.5, INFINITY), 0);

    /* integers wrap: INT32_MAX + 1 = INT32_MIN, INT32_MIN - 1 = INT32_MAX,
     * 65536 * 65536 = 2^32 wraps to 0, 65537 * 65537 = 2^32 + 2^17 + 1 -> 131073 */
    eh_tensor *a = vec_i32(4, (const int32_t[]){INT32_MAX, INT32_MIN, 65536, 65537});
    eh_tensor *b = vec_i32(4, (const int32_t[]){1, -1, 65536, 65537});
    eh_tensor *r = eh_add(a, b);
    expect_i32("add i32", r, 4, (const int32_t[]){INT32_MIN, INT32_MAX, 131072, 131074});
    eh_release(r);
    r = eh_subtract(a, b);
    expect_i32("subtract i32", r, 4, (const int32_t[]){INT32_MAX - 1, INT32_MIN + 1, 0, 0});
    eh_release(r);
    r = eh_subtract(b, a);
    expect_i32("subtract i32 reversed", r, 4, (const int32_t[]){INT32_MIN + 2, INT32_MAX, 0, 0});
    eh_release(r);
    r = eh_multiply(a, b);
    /* INT32_MAX * 1 = INT32_MAX; INT32_MIN * -1 wraps to INT32_MIN */
    expect_i32("multiply i32", r, 4, (const int32_t[]){INT32_MAX, INT32_MIN, 0, 131073});
    eh_release(r);
    eh_release(a);
    eh_release(b);
    r = NULL;
    a = vec_i32(1, (const int32_t[]){INT32_MIN});
    b = vec_i32(1, (const int32_t[]){1});
    r = eh_subtract(a, b);
    expect_i32("INT32_MIN - 1", r, 1, (const int32_t[]){INT32_MAX});
    eh_release(r);
    eh_release(a);
    eh_release(b);

    a = vec_i64(3, (const int64_t[]){INT64_MAX, INT64_MIN, 4294967296});
    b = vec_i64(3, (const int64_t[]){1, 1, 4294967296});
    r = eh_add(a, b);
    expect_i64("add i64", r, 3, (const int64_t[]){INT64_MIN, INT64_MIN + 1, 8589934592});
    eh_release(r);
    r = eh_subtract(a, b);
    expect_i64("subtract i64", r, 3, (const int64_t[]){INT64_MAX - 1, INT64_MAX, 0});
    eh_release(r);
    r = eh_multiply(a, b);
    /* 2^32 * 2^32 = 2^64 wraps to 0 */
    expect_i64("multiply i64", r, 3, (const int64_t[]){INT64_MAX, INT64_MIN, 0});
    eh_release(r);
    eh_release(a);
    eh_release(b);
    /* exact beyond 2^53: 2^53 + 1 */
    a = vec_i64(1, (const int64_t[]){9007199254740992});
    b = vec_i64(1, (const int64_t[]){1});
    r = eh_add(a, b);
    expect_i64("add i64 2^53+1", r, 1, (const int64_t[]){9007199254740993});
    eh_release(r);
    eh_release(a);
    eh_release(b);

    /* bool with bool computes in i64 (NumPy's add of bools is a logical or;
     * docs/promotion.md chose counting) */
    CHECK_B(eh_add, EH_BOOL, V(1, 1, 0), EH_BOOL, V(1, 0, 0), EH_I64, V(2, 1, 0), 0);
    CHECK_B(eh_subtract, EH_BOOL, V(0, 1, 1), EH_BOOL, V(1, 0, 1), EH_I64, V(-1, 1, 0), 0);
    CHECK_B(eh_multiply, EH_BOOL, V(1, 1, 0), EH_BOOL, V(1, 0, 0), EH_I64, V(1, 0, 0), 0);
}

static void test_promotion_values(void **state)
{
    (void)state;
    /* i32 + f32 is f64 (NumPy): 16777217 survives, which f32 cannot hold */
    CHECK_B(eh_add, EH_I32, V(16777217, -3), EH_F32, V(0, 0.5), EH_F64, V(16777217, -2.5), 0);
    CHECK_B(eh_add, EH_F32, V(0.5), EH_I32, V(16777217), EH_F64, V(16777217.5), 0);
    /* i64 + f16 is f64; i32 + i64 is i64; bool + i32 is i32; f16 + f32 is f32 */
    CHECK_B(eh_add, EH_I64, V(1e15), EH_F16, V(0.5), EH_F64, V(1e15 + 0.5), 0);
    CHECK_B(eh_multiply, EH_F16, V(3), EH_I32, V(100000), EH_F64, V(300000), 0);
    CHECK_B(eh_add, EH_I32, V(2147483647), EH_I64, V(1), EH_I64, V(2147483648.0), 0);
    CHECK_B(eh_add, EH_BOOL, V(1), EH_I32, V(2147483647), EH_I32, V(-2147483648.0), 0);
    CHECK_B(eh_add, EH_F16, V(0.5), EH_F32, V(16777216), EH_F32, V(16777216), 0);
    CHECK_B(eh_add, EH_F32, V(0.1), EH_F64, V(0), EH_F64, V(0.10000000149011612), 0);
    CHECK_B(eh_subtract, EH_BOOL, V(1), EH_F32, V(0.25), EH_F32, V(0.75), 0);
}

static void test_divide(void **state)
{
    (void)state;
    CHECK_B(eh_divide, EH_F64, V(1, -1, 0, 6, INFINITY, 1, NAN, -0.0), EH_F64,
            V(0, 0, 0, 4, INFINITY, -INFINITY, 1, 5), EH_F64,
            V(INFINITY, -INFINITY, NAN, 1.5, NAN, -0.0, NAN, -0.0), 0);
    CHECK_B(eh_divide, EH_F64, V(1), EH_F64, V(-0.0), EH_F64, V(-INFINITY), 0);
    CHECK_B(eh_divide, EH_F32, V(1, 1), EH_F32, V(3, 0), EH_F32, V(0.3333333432674408, INFINITY), 0);
    CHECK_B(eh_divide, EH_F16, V(1, 7), EH_F16, V(3, 2), EH_F16, V(0.333251953125, 3.5), 0);
    /* integers give f64, never integer division; x/0 follows IEEE */
    CHECK_B(eh_divide, EH_I32, V(7, -7, 1, 0, -1), EH_I32, V(2, 2, 0, 0, 0), EH_F64,
            V(3.5, -3.5, INFINITY, NAN, -INFINITY), 0);
    CHECK_B(eh_divide, EH_I64, V(9007199254740993.0, 1), EH_I64, V(1, 3), EH_F64,
            V(9007199254740992.0, 0.3333333333333333), 0);
    CHECK_B(eh_divide, EH_BOOL, V(1, 0, 1), EH_BOOL, V(1, 1, 0), EH_F64, V(1, 0, INFINITY), 0);
    CHECK_B(eh_divide, EH_I32, V(1), EH_F32, V(4), EH_F64, V(0.25), 0);
}

static void test_floor_divide(void **state)
{
    (void)state;
    /* Python's //: the quotient rounds toward -inf.  -7 // 2 = -4,
     * 7 // -2 = -4, -7 // -2 = 3, 0 // 3 = 0; by zero gives 0 for integers;
     * INT32_MIN // -1 wraps to INT32_MIN. */
    eh_tensor *a = vec_i32(10, (const int32_t[]){-7, 7, 7, -7, 0, 5, INT32_MIN, INT32_MIN, -1, 6});
    eh_tensor *b = vec_i32(10, (const int32_t[]){2, 2, -2, -2, 3, 0, -1, 1, 3, 3});
    eh_tensor *r = eh_floor_divide(a, b);
    expect_i32("floor_divide i32", r, 10,
               (const int32_t[]){-4, 3, -4, 3, 0, 0, INT32_MIN, INT32_MIN, -1, 2});
    eh_release(r);
    eh_release(a);
    eh_release(b);
    eh_tensor *la = vec_i64(6, (const int64_t[]){-7, 7, INT64_MIN, INT64_MAX, -9007199254740993, 0});
    eh_tensor *lb = vec_i64(6, (const int64_t[]){2, -2, -1, 0, 2, 0});
    r = eh_floor_divide(la, lb);
    expect_i64("floor_divide i64", r, 6,
               (const int64_t[]){-4, -4, INT64_MIN, 0, -4503599627370497, 0});
    eh_release(r);
    eh_release(la);
    eh_release(lb);
    /* floats: the same signs; 1.0 // 0.1 = 9 (npy_divmod: fmod(1, 0.1) =
     * 0.09999999999999995, (1 - that) / 0.1 rounds to 9); by zero: a / 0. */
    CHECK_B(eh_floor_divide, EH_F64, V(-7, 7, 7, -7, 1, 1, -1, 0, NAN, 5, -0.5, 0.5), EH_F64,
            V(2, 2, -2, -2, 0.1, 0, 0, 0, 1, INFINITY, 2, -2), EH_F64,
            V(-4, 3, -4, 3, 9, INFINITY, -INFINITY, NAN, NAN, 0, -1, -1), 0);
    /* sign of a zero quotient follows a / b; -1 // inf is -1 (Python) */
    CHECK_B(eh_floor_divide, EH_F64, V(0, -0.0, 0, -1, 1), EH_F64, V(3, 3, -3, INFINITY, INFINITY),
            EH_F64, V(0, -0.0, -0.0, -1, 0), 0);
    CHECK_B(eh_floor_divide, EH_F32, V(-7, 7, 1, 1), EH_F32, V(2, -2, 0.1, 0), EH_F32,
            V(-4, -4, 9, INFINITY), 0);
    /* f32 runs NumPy's algorithm in f32 (npy_divmodf), not in f64 rounded
     * afterwards: these f32 operands give -54847428 and 19809402 in f32
     * steps, -54847432 and 19809404 through f64 (python3, rounding to f32
     * after every operation with struct.pack('f')) */
    CHECK_B(eh_floor_divide, EH_F32, V(-20119450.0, 54379300.0), EH_F32,
            V(0.36682575941085815, 2.7451255321502686), EH_F32, V(-54847428, 19809402), 0);
    CHECK_B(eh_mod, EH_F32, V(-20119450.0), EH_F32, V(0.36682575941085815), EH_F32,
            V(0.16148388385772705), 0);
    CHECK_B(eh_floor_divide, EH_F16, V(-7, 7, 1), EH_F16, V(2, -2, 0), EH_F16, V(-4, -4, INFINITY), 0);
    CHECK_B(eh_floor_divide, EH_BOOL, V(1, 0, 1), EH_BOOL, V(1, 1, 0), EH_I64, V(1, 0, 0), 0);
    CHECK_B(eh_floor_divide, EH_I32, V(-7), EH_F64, V(2), EH_F64, V(-4), 0);
}

static void test_mod(void **state)
{
    (void)state;
    /* Python's %: the remainder has the divisor's sign.  mod(-7, 2) = 1,
     * mod(7, -2) = -1; by zero (and by -1, where C's INT_MIN % -1 is
     * undefined) gives 0 for integers. */
    eh_tensor *a = vec_i32(9, (const int32_t[]){-7, 7, 7, -7, 5, 5, INT32_MIN, 6, INT32_MAX});
    eh_tensor *b = vec_i32(9, (const int32_t[]){2, -2, 2, -2, 0, -1, -1, 3, INT32_MIN});
    eh_tensor *r = eh_mod(a, b);
    /* INT32_MAX mod INT32_MIN: C remainder INT32_MAX, signs differ, + INT32_MIN = -1 */
    expect_i32("mod i32", r, 9, (const int32_t[]){1, -1, 1, -1, 0, 0, 0, 0, -1});
    eh_release(r);
    eh_release(a);
    eh_release(b);
    eh_tensor *la = vec_i64(5, (const int64_t[]){-7, 7, INT64_MIN, 9007199254740993, -1});
    eh_tensor *lb = vec_i64(5, (const int64_t[]){2, -2, -1, 2, INT64_MAX});
    r = eh_mod(la, lb);
    expect_i64("mod i64", r, 5, (const int64_t[]){1, -1, 0, 1, INT64_MAX - 1});
    eh_release(r);
    eh_release(la);
    eh_release(lb);
    /* floats: same signs; mod by 0 is NaN; a zero remainder takes the
     * divisor's sign (npy_divmod); mod(-1, inf) = inf and mod(1, inf) = 1
     * (Python: -1.0 % math.inf). 1.0 % 0.1 = 0.09999999999999995 (python3). */
    CHECK_B(eh_mod, EH_F64, V(-7, 7, 7, -7, 5.5, 1, -4, 4, 1, -1, INFINITY, NAN), EH_F64,
            V(2, -2, 2, -2, 0, 0.1, 2, -2, INFINITY, INFINITY, 2, 2), EH_F64,
            V(1, -1, 1, -1, NAN, 0.09999999999999995, 0.0, -0.0, 1, INFINITY, NAN, NAN), 0);
    CHECK_B(eh_mod, EH_F64, V(-7.5, 7.5), EH_F64, V(2, -2), EH_F64, V(0.5, -0.5), 0);
    CHECK_B(eh_mod, EH_F32, V(-7, 7, 5, -4), EH_F32, V(2, -2, 0, 2), EH_F32, V(1, -1, NAN, 0.0), 0);
    CHECK_B(eh_mod, EH_F16, V(-7, 7, 5.5), EH_F16, V(2, -2, 2), EH_F16, V(1, -1, 1.5), 0);
    CHECK_B(eh_mod, EH_BOOL, V(1, 1, 0), EH_BOOL, V(1, 0, 1), EH_I64, V(0, 0, 0), 0);
    CHECK_B(eh_mod, EH_I64, V(-7), EH_F32, V(2), EH_F64, V(1), 0);
}

static void test_power(void **state)
{
    (void)state;
    /* C pow, as NumPy: pow(1, NaN) = 1, pow(NaN, 0) = 1, pow(-1, inf) = 1,
     * pow(0, -1) = inf, pow(-8, 1/3) = NaN */
    CHECK_B(eh_power, EH_F64, V(2, 2, 4, -8, 0, 0, 1, NAN, -1, -2, 10), EH_F64,
            V(10, -1, 0.5, 1.0 / 3, 0, -1, NAN, 0, INFINITY, 3, 400), EH_F64,
            V(1024, 0.5, 2, NAN, 1, INFINITY, 1, 1, 1, -8, INFINITY), 0);
    CHECK_B(eh_power, EH_F32, V(2, 2, 10), EH_F32, V(0.5, -2, 39), EH_F32,
            V(1.4142135381698608, 0.25, INFINITY), 1e-7);
    CHECK_B(eh_power, EH_F16, V(2, 2, 2), EH_F16, V(0.5, 15, 16), EH_F16,
            V(1.4140625, 32768, INFINITY), 0);
    /* integers: exact by squaring, wrapping; a negative exponent gives 0
     * except for bases 1 and -1 (NumPy raises); 0 ** 0 = 1 */
    eh_tensor *a = vec_i32(12, (const int32_t[]){2, 3, -2, 2, 1, -1, -1, 0, 5, 2, 0, 7});
    eh_tensor *b = vec_i32(12, (const int32_t[]){10, 0, 3, 31, -5, -3, -4, -1, -2, 32, 0, 1});
    eh_tensor *r = eh_power(a, b);
    expect_i32("power i32", r, 12, (const int32_t[]){1024, 1, -8, INT32_MIN, 1, -1, 1, 0, 0, 0, 1, 7});
    eh_release(r);
    eh_release(a);
    eh_release(b);
    /* 3^40 = 12157665459056928801 wraps to -6289078614652622815 (python3);
     * 2^62 exact; 2^63 wraps to INT64_MIN; (-3)^39 = -4052555153018976267 */
    eh_tensor *la = vec_i64(5, (const int64_t[]){3, 2, 2, -3, INT64_MIN});
    eh_tensor *lb = vec_i64(5, (const int64_t[]){40, 62, 63, 39, INT64_MIN});
    r = eh_power(la, lb);
    expect_i64("power i64", r, 5,
               (const int64_t[]){-6289078614652622815, 4611686018427387904, INT64_MIN,
                                 -4052555153018976267, 0});
    eh_release(r);
    eh_release(la);
    eh_release(lb);
    CHECK_B(eh_power, EH_BOOL, V(1, 0, 0), EH_BOOL, V(1, 1, 0), EH_I64, V(1, 0, 1), 0);
    CHECK_B(eh_power, EH_I32, V(2), EH_F32, V(-1), EH_F64, V(0.5), 0); /* promoted: float power */
}

static void test_maximum_minimum(void **state)
{
    (void)state;
    /* NaN in either operand propagates (NumPy's maximum, not fmax) */
    CHECK_B(eh_maximum, EH_F64, V(1, NAN, 3, -INFINITY, NAN, 2), EH_F64, V(2, 1, NAN, 5, NAN, 2),
            EH_F64, V(2, NAN, NAN, 5, NAN, 2), 0);
    CHECK_B(eh_minimum, EH_F64, V(1, NAN, 3, -INFINITY, NAN, 2), EH_F64, V(2, 1, NAN, 5, NAN, 2),
            EH_F64, V(1, NAN, NAN, -INFINITY, NAN, 2), 0);
    CHECK_B(eh_maximum, EH_F32, V(1, NAN, 3), EH_F32, V(2, 1, NAN), EH_F32, V(2, NAN, NAN), 0);
    CHECK_B(eh_minimum, EH_F32, V(1, NAN, 3), EH_F32, V(2, 1, NAN), EH_F32, V(1, NAN, NAN), 0);
    CHECK_B(eh_maximum, EH_F16, V(1, NAN, 3), EH_F16, V(2, 1, NAN), EH_F16, V(2, NAN, NAN), 0);
    CHECK_B(eh_minimum, EH_F16, V(1, NAN, -3), EH_F16, V(2, 1, NAN), EH_F16, V(1, NAN, NAN), 0);
    CHECK_B(eh_maximum, EH_I32, V(-5, 7, -2147483648.0), EH_I32, V(3, -7, 2147483647), EH_I32,
            V(3, 7, 2147483647), 0);
    CHECK_B(eh_minimum, EH_I32, V(-5, 7, -2147483648.0), EH_I32, V(3, -7, 2147483647), EH_I32,
            V(-5, -7, -2147483648.0), 0);
    /* i64 compares exactly beyond 2^53 */
    eh_tensor *a = vec_i64(2, (const int64_t[]){9007199254740993, INT64_MIN});
    eh_tensor *b = vec_i64(2, (const int64_t[]){9007199254740992, INT64_MAX});
    eh_tensor *r = eh_maximum(a, b);
    expect_i64("maximum i64", r, 2, (const int64_t[]){9007199254740993, INT64_MAX});
    eh_release(r);
    r = eh_minimum(a, b);
    expect_i64("minimum i64", r, 2, (const int64_t[]){9007199254740992, INT64_MIN});
    eh_release(r);
    eh_release(a);
    eh_release(b);
    /* bool stays bool: maximum is or, minimum is and */
    CHECK_B(eh_maximum, EH_BOOL, V(0, 0, 1, 1), EH_BOOL, V(0, 1, 0, 1), EH_BOOL, V(0, 1, 1, 1), 0);
    CHECK_B(eh_minimum, EH_BOOL, V(0, 0, 1, 1), EH_BOOL, V(0, 1, 0, 1), EH_BOOL, V(0, 0, 0, 1), 0);
    CHECK_B(eh_maximum, EH_I32, V(1), EH_F32, V(NAN), EH_F64, V(NAN), 0);
}

static void test_atan2(void **state)
{
    (void)state;
    const double pi = 3.141592653589793;
    /* atan2(y, x): the quadrant comes from both signs (python3 math.atan2) */
    CHECK_B(eh_atan2, EH_F64, V(1, 1, -1, 0, -0.0, 0, INFINITY, 1, NAN, 1), EH_F64,
            V(1, -1, -1, -1, -1, 0, INFINITY, 0, 1, NAN), EH_F64,
            V(0.7853981633974483, 2.356194490192345, -2.356194490192345, pi, -pi, 0,
              0.7853981633974483, pi / 2, NAN, NAN), 1e-15);
    CHECK_B(eh_atan2, EH_F32, V(1), EH_F32, V(1), EH_F32, V(0.7853981852531433), 1e-7);
    CHECK_B(eh_atan2, EH_F16, V(1), EH_F16, V(-1), EH_F16, V(2.35546875), 0);
    CHECK_B(eh_atan2, EH_I32, V(1, 0), EH_I64, V(-1, -1), EH_F64, V(2.356194490192345, pi), 1e-15);
}

/* ---- scalar operands ------------------------------------------------------------ */

static void test_scalar_forms_order(void **state)
{
    (void)state;
    eh_tensor *t = T_F64(SHAPE(3), 1, 2, 4);
    eh_tensor *r;
    r = eh_subtract_scalar(t, 10);
    assert_vector_case("t - 10", r, EH_F64, 3, V(-9, -8, -6), 0);
    eh_release(r);
    r = eh_scalar_subtract(10, t);
    assert_vector_case("10 - t", r, EH_F64, 3, V(9, 8, 6), 0);
    eh_release(r);
    r = eh_divide_scalar(t, 2);
    assert_vector_case("t / 2", r, EH_F64, 3, V(0.5, 1, 2), 0);
    eh_release(r);
    r = eh_scalar_divide(2, t);
    assert_vector_case("2 / t", r, EH_F64, 3, V(2, 1, 0.5), 0);
    eh_release(r);
    r = eh_power_scalar(t, 2);
    assert_vector_case("t ** 2", r, EH_F64, 3, V(1, 4, 16), 0);
    eh_release(r);
    r = eh_scalar_power(2, t);
    assert_vector_case("2 ** t", r, EH_F64, 3, V(2, 4, 16), 0);
    eh_release(r);
    r = eh_floor_divide_scalar(t, 3);
    assert_vector_case("t // 3", r, EH_F64, 3, V(0, 0, 1), 0);
    eh_release(r);
    r = eh_scalar_floor_divide(7, t);
    assert_vector_case("7 // t", r, EH_F64, 3, V(7, 3, 1), 0);
    eh_release(r);
    r = eh_mod_scalar(t, 3);
    assert_vector_case("t % 3", r, EH_F64, 3, V(1, 2, 1), 0);
    eh_release(r);
    r = eh_scalar_mod(7, t);
    assert_vector_case("7 % t", r, EH_F64, 3, V(0, 1, 3), 0);
    eh_release(r);
    r = eh_atan2_scalar(t, 0);
    assert_vector_case("atan2(t, 0)", r, EH_F64, 3,
                       V(1.5707963267948966, 1.5707963267948966, 1.5707963267948966), 1e-15);
    eh_release(r);
    r = eh_scalar_atan2(0, t);
    assert_vector_case("atan2(0, t)", r, EH_F64, 3, V(0, 0, 0), 0);
    eh_release(r);
    r = eh_add_scalar(t, 0.5);
    assert_vector_case("t + 0.5", r, EH_F64, 3, V(1.5, 2.5, 4.5), 0);
    eh_release(r);
    r = eh_scalar_add(0.5, t);
    assert_vector_case("0.5 + t", r, EH_F64, 3, V(1.5, 2.5, 4.5), 0);
    eh_release(r);
    r = eh_multiply_scalar(t, -1);
    assert_vector_case("t * -1", r, EH_F64, 3, V(-1, -2, -4), 0);
    eh_release(r);
    r = eh_scalar_multiply(3, t);
    assert_vector_case("3 * t", r, EH_F64, 3, V(3, 6, 12), 0);
    eh_release(r);
    r = eh_maximum_scalar(t, 2);
    assert_vector_case("maximum(t, 2)", r, EH_F64, 3, V(2, 2, 4), 0);
    eh_release(r);
    r = eh_scalar_minimum(2, t);
    assert_vector_case("minimum(2, t)", r, EH_F64, 3, V(1, 2, 2), 0);
    eh_release(r);
    r = eh_maximum_scalar(t, NAN);
    assert_vector_case("maximum(t, nan)", r, EH_F64, 3, V(NAN, NAN, NAN), 0);
    eh_release(r);
    eh_release(t);
    /* ints: signs of floor_divide and mod with a scalar on either side */
    eh_tensor *ti = t_from(EH_I32, 1, SHAPE(2), V(-7, 7));
    r = eh_floor_divide_scalar(ti, 2);
    assert_vector_case("[-7, 7] // 2", r, EH_I32, 2, V(-4, 3), 0);
    eh_release(r);
    r = eh_mod_scalar(ti, -2);
    assert_vector_case("[-7, 7] % -2", r, EH_I32, 2, V(-1, -1), 0);
    eh_release(r);
    r = eh_scalar_mod(7, ti);
    assert_vector_case("7 % [-7, 7]", r, EH_I32, 2, V(0, 0), 0);
    eh_release(r);
    r = eh_scalar_floor_divide(-1, ti);
    assert_vector_case("-1 // [-7, 7]", r, EH_I32, 2, V(0, -1), 0);
    eh_release(r);
    r = eh_mod_scalar(ti, 0);
    assert_vector_case("[-7, 7] % 0", r, EH_I32, 2, V(0, 0), 0);
    eh_release(r);
    eh_release(ti);
}

/* The scalar takes the tensor's dtype when it fits that kind. */
static void test_scalar_dtype_rule(void **state)
{
    (void)state;
    eh_tensor *i32 = t_from(EH_I32, 1, SHAPE(2), V(1, 2147483647));
    eh_tensor *r;
    r = eh_add_scalar(i32, 1); /* integral: stays i32, and wraps */
    assert_vector_case("i32 + 1", r, EH_I32, 2, V(2, -2147483648.0), 0);
    eh_release(r);
    r = eh_scalar_add(-0.0, i32); /* -0.0 is integral */
    assert_vector_case("-0.0 + i32", r, EH_I32, 2, V(1, 2147483647), 0);
    eh_release(r);
    r = eh_add_scalar(i32, 2.5); /* fractional: f64 */
    assert_vector_case("i32 + 2.5", r, EH_F64, 2, V(3.5, 2147483649.5), 0);
    eh_release(r);
    r = eh_add_scalar(i32, 3e9); /* integral but not an i32: i64 */
    assert_vector_case("i32 + 3e9", r, EH_I64, 2, V(3000000001.0, 5147483647.0), 0);
    eh_release(r);
    r = eh_add_scalar(i32, 1e30); /* integral but not even an i64: f64, not a saturated i64 */
    assert_vector_case("i32 + 1e30", r, EH_F64, 2, V(1e30, 1e30), 0);
    eh_release(r);
    r = eh_add_scalar(i32, NAN);
    assert_vector_case("i32 + nan", r, EH_F64, 2, V(NAN, NAN), 0);
    eh_release(r);
    r = eh_add_scalar(i32, -INFINITY);
    assert_vector_case("i32 + -inf", r, EH_F64, 2, V(-INFINITY, -INFINITY), 0);
    eh_release(r);
    r = eh_multiply_scalar(i32, 0.5);
    assert_vector_case("i32 * 0.5", r, EH_F64, 2, V(0.5, 1073741823.5), 0);
    eh_release(r);
    r = eh_power_scalar(i32, -1); /* integer power: 1 ** -1 = 1, else 0 */
    assert_vector_case("i32 ** -1", r, EH_I32, 2, V(1, 0), 0);
    eh_release(r);
    r = eh_power_scalar(i32, 0.5);
    assert_vector_case("i32 ** 0.5", r, EH_F64, 2, V(1, 46340.950001051984), 1e-15);
    eh_release(r);
    r = eh_divide_scalar(i32, 2);
    assert_vector_case("i32 / 2", r, EH_F64, 2, V(0.5, 1073741823.5), 0);
    eh_release(r);
    eh_release(i32);

    eh_tensor *i64 = vec_i64(1, (const int64_t[]){9007199254740993});
    r = eh_add_scalar(i64, 2);
    expect_i64("i64 + 2", r, 1, (const int64_t[]){9007199254740995});
    eh_release(r);
    r = eh_add_scalar(i64, 9.3e18); /* above INT64_MAX: f64 */
    assert_vector_case("i64 + 9.3e18", r, EH_F64, 1, V(9.3e18 + 9007199254740992.0), 1e-15);
    eh_release(r);
    r = eh_subtract_scalar(i64, -9223372036854775808.0); /* INT64_MIN fits: i64, wraps */
    expect_i64("i64 - INT64_MIN", r, 1, (const int64_t[]){9007199254740993 + INT64_MIN});
    eh_release(r);
    eh_release(i64);

    eh_tensor *f16 = t_from(EH_F16, 1, SHAPE(1), V(1));
    r = eh_add_scalar(f16, 1e-3); /* floats keep their dtype: 1.001 rounds to 1 + 2^-10 */
    assert_vector_case("f16 + 1e-3", r, EH_F16, 1, V(1.0009765625), 0);
    eh_release(r);
    r = eh_multiply_scalar(f16, 1e6); /* the scalar itself becomes f16 inf */
    assert_vector_case("f16 * 1e6", r, EH_F16, 1, V(INFINITY), 0);
    eh_release(r);
    eh_release(f16);
    eh_tensor *f32 = T_F32(SHAPE(1), 1);
    r = eh_add_scalar(f32, 0.1);
    assert_vector_case("f32 + 0.1", r, EH_F32, 1, V(1.100000023841858), 0);
    eh_release(r);
    eh_release(f32);

    eh_tensor *b = t_from(EH_BOOL, 1, SHAPE(2), V(1, 0));
    r = eh_add_scalar(b, 1); /* 1 is a bool; bool + bool counts in i64 */
    assert_vector_case("bool + 1", r, EH_I64, 2, V(2, 1), 0);
    eh_release(r);
    r = eh_add_scalar(b, 2);
    assert_vector_case("bool + 2", r, EH_I64, 2, V(3, 2), 0);
    eh_release(r);
    r = eh_scalar_subtract(5, b);
    assert_vector_case("5 - bool", r, EH_I64, 2, V(4, 5), 0);
    eh_release(r);
    r = eh_multiply_scalar(b, 0.5);
    assert_vector_case("bool * 0.5", r, EH_F64, 2, V(0.5, 0), 0);
    eh_release(r);
    r = eh_maximum_scalar(b, 0);
    assert_vector_case("maximum(bool, 0)", r, EH_BOOL, 2, V(1, 0), 0);
    eh_release(r);
    eh_release(b);
}

/* ---- broadcasting --------------------------------------------------------------- */

/* Reference broadcast of a + 10 * b over shapes given by the test, with
 * NumPy's rules written out (right-aligned, 1 stretches). */
static void check_broadcast(int na, const int64_t *sa, int nb, const int64_t *sb, int nout,
                            const int64_t *sout, eh_dtype dt)
{
    int64_t ca = 1, cb = 1, cn = 1;
    for (int d = 0; d < na; d++)
        ca *= sa[d];
    for (int d = 0; d < nb; d++)
        cb *= sb[d];
    for (int d = 0; d < nout; d++)
        cn *= sout[d];
    double *va = test_malloc((size_t)(ca ? ca : 1) * sizeof(double));
    double *vb = test_malloc((size_t)(cb ? cb : 1) * sizeof(double));
    double *want = test_malloc((size_t)(cn ? cn : 1) * sizeof(double));
    for (int64_t k = 0; k < ca; k++)
        va[k] = (double)(k % 7);
    for (int64_t k = 0; k < cb; k++)
        vb[k] = (double)(k % 5);
    for (int64_t k = 0; k < cn; k++) {
        /* unravel k over sout, map to a and b */
        int64_t rem = k, ia = 0, ib = 0, stride_a = 1, stride_b = 1;
        int64_t idx[EH_MAX_DIMS];
        for (int d = nout - 1; d >= 0; d--) {
            idx[d] = rem % sout[d];
            rem /= sout[d];
        }
        for (int d = na - 1; d >= 0; d--) {
            int od = d + nout - na;
            ia += (sa[d] == 1 ? 0 : idx[od]) * stride_a;
            stride_a *= sa[d];
        }
        for (int d = nb - 1; d >= 0; d--) {
            int od = d + nout - nb;
            ib += (sb[d] == 1 ? 0 : idx[od]) * stride_b;
            stride_b *= sb[d];
        }
        want[k] = va[ia] - 10 * vb[ib];
    }
    eh_tensor *a = t_from(dt, na, sa, va), *b = t_from(dt, nb, sb, vb);
    eh_tensor *b10 = eh_multiply_scalar(b, 10);
    eh_tensor *r = eh_subtract(a, b10);
    assert_tensor_case("broadcast", r, dt, nout, sout, want, 0);
    eh_release(r);
    /* the mirrored order gives the negation */
    for (int64_t k = 0; k < cn; k++)
        want[k] = 0.0 - want[k];
    r = eh_subtract(b10, a);
    assert_tensor_case("broadcast mirrored", r, dt, nout, sout, want, 0);
    eh_release(r);
    eh_release(a);
    eh_release(b);
    eh_release(b10);
    test_free(va);
    test_free(vb);
    test_free(want);
}

static void test_broadcasting(void **state)
{
    (void)state;
    /* (3, 1) with (1, 4): hand-checked values first */
    eh_tensor *a = T_F64(SHAPE(3, 1), 1, 2, 3), *b = T_F64(SHAPE(1, 4), 10, 20, 30, 40);
    eh_tensor *r = eh_add(a, b);
    assert_tensor_case("(3,1)+(1,4)", r, EH_F64, 2, SHAPE(3, 4),
                       V(11, 21, 31, 41, 12, 22, 32, 42, 13, 23, 33, 43), 0);
    eh_release(r);
    r = eh_subtract(b, a);
    assert_tensor_case("(1,4)-(3,1)", r, EH_F64, 2, SHAPE(3, 4),
                       V(9, 19, 29, 39, 8, 18, 28, 38, 7, 17, 27, 37), 0);
    eh_release(r);
    eh_release(a);
    eh_release(b);
    /* 0-d with n-d, both orders */
    eh_tensor *s = eh_scalar(100, EH_F64), *m = T_F64(SHAPE(2, 3), 1, 2, 3, 4, 5, 6);
    r = eh_subtract(s, m);
    assert_tensor_case("()-(2,3)", r, EH_F64, 2, SHAPE(2, 3), V(99, 98, 97, 96, 95, 94), 0);
    eh_release(r);
    r = eh_subtract(m, s);
    assert_tensor_case("(2,3)-()", r, EH_F64, 2, SHAPE(2, 3), V(-99, -98, -97, -96, -95, -94), 0);
    eh_release(r);
    r = eh_subtract(s, s);
    assert_tensor_case("()-()", r, EH_F64, 0, NULL, V(0), 0);
    eh_release(r);
    eh_release(s);
    eh_release(m);
    /* against the reference loop, over several dtypes and shapes */
    const eh_dtype dts[] = {EH_F64, EH_F32, EH_F16, EH_I32, EH_I64};
    for (size_t k = 0; k < sizeof dts / sizeof dts[0]; k++) {
        eh_dtype dt = dts[k];
        check_broadcast(2, SHAPE(3, 1), 2, SHAPE(1, 4), 2, SHAPE(3, 4), dt);
        check_broadcast(3, SHAPE(2, 1, 3), 2, SHAPE(4, 1), 3, SHAPE(2, 4, 3), dt);
        check_broadcast(3, SHAPE(2, 1, 3), 3, SHAPE(1, 4, 1), 3, SHAPE(2, 4, 3), dt);
        check_broadcast(1, SHAPE(5), 3, SHAPE(2, 3, 5), 3, SHAPE(2, 3, 5), dt);
        check_broadcast(3, SHAPE(2, 3, 1), 1, SHAPE(1), 3, SHAPE(2, 3, 1), dt);
        check_broadcast(2, SHAPE(4, 5), 2, SHAPE(4, 5), 2, SHAPE(4, 5), dt);
        check_broadcast(0, NULL, 2, SHAPE(2, 2), 2, SHAPE(2, 2), dt);
        check_broadcast(8, SHAPE(1, 2, 1, 2, 1, 2, 1, 2), 8, SHAPE(2, 1, 2, 1, 2, 1, 2, 1), 8,
                        SHAPE(2, 2, 2, 2, 2, 2, 2, 2), dt);
        check_broadcast(8, SHAPE(2, 2, 2, 2, 2, 2, 2, 3), 1, SHAPE(3), 8,
                        SHAPE(2, 2, 2, 2, 2, 2, 2, 3), dt);
    }
}

/* ---- errors ------------------------------------------------------------------------ */

static void test_first_error_is_kept(void **state)
{
    (void)state;
    eh_tensor *a = T_F64(SHAPE(2), 1, 2), *bad = T_F64(SHAPE(3), 1, 2, 3), *c = T_F64(SHAPE(2), 5, 6);
    /* the inner add fails on shapes; the outer ops get NULL and keep it */
    assert_failed(eh_add(eh_add(a, bad), c), EH_ERR_SHAPE, "add: shapes (2,) and (3,)");
    assert_failed(eh_exp(eh_multiply(c, eh_subtract(a, bad))), EH_ERR_SHAPE,
                  "subtract: shapes (2,) and (3,)");
    assert_failed(eh_scalar_power(2, eh_add_scalar(eh_divide(bad, a), 1)), EH_ERR_SHAPE,
                  "divide: shapes (3,) and (2,)");
    eh_tensor *bo = t_from(EH_BOOL, 1, SHAPE(1), V(1));
    assert_failed(eh_add(a, eh_negative(bo)), EH_ERR_DTYPE, "negative: not defined for bool");
    eh_release(bo);
    /* with no earlier error, a NULL is reported as such */
    assert_failed(eh_add(a, NULL), EH_ERR_NULL_ARG, "add: argument 'b' is NULL");
    eh_release(a);
    eh_release(bad);
    eh_release(c);
}

/* Every allocation an op makes can fail: the op reports EH_ERR_NOMEM and
 * frees what it made (LeakSanitizer checks), and succeeds once allocation
 * works again. */
static void nomem_sweep(const char *ctx, eh_tensor *(*run)(void *), void *arg)
{
    int nth;
    eh_tensor *r = NULL;
    for (nth = 1; nth < 32; nth++) {
        eh__test_fail_alloc(nth);
        r = run(arg);
        eh__test_fail_alloc(0);
        if (r)
            break;
        if (eh_last_error() != EH_ERR_NOMEM)
            fail_msg("%s: allocation %d failed: got %s: %s", ctx, nth,
                     eh_status_name(eh_last_error()), eh_error_message());
        assert_non_null(strstr(eh_error_message(), "memory"));
        eh_clear_error();
    }
    if (!r)
        fail_msg("%s: never succeeded", ctx);
    if (nth < 2)
        fail_msg("%s: no allocation failure was reached", ctx);
    eh_release(r);
}
struct two { eh_tensor *a, *b; };
static eh_tensor *run_add(void *p) { struct two *t = p; return eh_add(t->a, t->b); }
static eh_tensor *run_add_scalar(void *p) { struct two *t = p; return eh_scalar_add(2.5, t->a); }
static eh_tensor *run_sqrt(void *p) { struct two *t = p; return eh_sqrt(t->a); }

static void test_out_of_memory(void **state)
{
    (void)state;
    struct two same = {T_F64(SHAPE(2, 2), 1, 2, 3, 4), T_F64(SHAPE(2), 1, 2)};
    struct two mixed = {t_from(EH_I32, 1, SHAPE(2), V(1, 2)), T_F32(SHAPE(2), 1, 2)};
    nomem_sweep("add f64", run_add, &same);
    nomem_sweep("add i32 f32 (two casts)", run_add, &mixed);
    nomem_sweep("2.5 + i32", run_add_scalar, &mixed);
    nomem_sweep("sqrt i32", run_sqrt, &mixed);
    eh_release(same.a);
    eh_release(same.b);
    eh_release(mixed.a);
    eh_release(mixed.b);
    /* and inside a scope */
    eh_scope_begin();
    struct two in = {t_from(EH_I32, 1, SHAPE(2), V(1, 2)), T_F64(SHAPE(2), 1, 2)};
    nomem_sweep("add in scope", run_add, &in);
    eh_scope_end();
}

/* ---- scopes ------------------------------------------------------------------------- */

/* A nested expression inside a scope leaks nothing, whether its inputs
 * were made inside or outside the scope; and an op must not take an input
 * away from the scope that owns it (its reference count after scope_end
 * shows whether the scope still released it). */
static void test_scope_nested_expression(void **state)
{
    (void)state;
    eh_tensor *outside = T_F64(SHAPE(3), 2, 2, 2);
    assert_int_equal(eh_scope_begin(), EH_OK);
    eh_tensor *x = T_F64(SHAPE(3), 1, 2, 3), *m = T_F64(SHAPE(3), 1, 1, 1);
    eh_tensor *xi = t_from(EH_I32, 1, SHAPE(3), V(1, 2, 3));
    eh_retain(x); /* watch x: the scope must still drop its own reference */
    eh_retain(xi);
    eh_tensor *z = eh_keep(eh_divide(eh_subtract(x, m), outside));
    eh_tensor *w = eh_keep(eh_sqrt(eh_add(eh_multiply_scalar(xi, 2), eh_scalar_subtract(1, xi))));
    eh_tensor *u = eh_keep(eh_maximum(eh_negative(x), eh_atan2(x, x)));
    assert_int_equal(eh_scope_end(), EH_OK);
    /* values first: a deferring backend holds its inputs until evaluated */
    assert_vector_case("scoped divide", z, EH_F64, 3, V(0, 0.5, 1), 0);
    assert_vector_case("scoped sqrt", w, EH_F64, 3, V(1.4142135623730951, 1.7320508075688772, 2),
                       1e-15);
    assert_vector_case("scoped maximum", u, EH_F64, 3,
                       V(0.7853981633974483, 0.7853981633974483, 0.7853981633974483), 1e-15);
    assert_int_equal(eh_refcount(x), 1);
    assert_int_equal(eh_refcount(xi), 1);
    assert_int_equal(eh_refcount(outside), 1);
    eh_release(x);
    eh_release(xi);
    eh_release(z);
    eh_release(w);
    eh_release(u);
    eh_release(outside);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        EH_TEST(test_every_elementwise_op_is_classified),
        EH_TEST(test_unary_null_argument),
        EH_TEST(test_unary_dtype_matrix),
        EH_TEST(test_unary_0d_and_empty),
        EH_TEST(test_negative),
        EH_TEST(test_abs),
        EH_TEST(test_sign),
        EH_TEST(test_square),
        EH_TEST(test_sqrt),
        EH_TEST(test_exp_log),
        EH_TEST(test_log1p_expm1),
        EH_TEST(test_trig),
        EH_TEST(test_tanh_sigmoid),
        EH_TEST(test_relu),
        EH_TEST(test_softplus),
        EH_TEST(test_erf),
        EH_TEST(test_floor_ceil),
        EH_TEST(test_round_half_to_even),
        EH_TEST(test_reciprocal),
        EH_TEST(test_f16_computes_in_f32_and_rounds),
        EH_TEST(test_binary_null_arguments),
        EH_TEST(test_binary_shape_errors),
        EH_TEST(test_binary_0d_and_empty),
        EH_TEST(test_binary_dtype_matrix),
        EH_TEST(test_add_subtract_multiply),
        EH_TEST(test_promotion_values),
        EH_TEST(test_divide),
        EH_TEST(test_floor_divide),
        EH_TEST(test_mod),
        EH_TEST(test_power),
        EH_TEST(test_maximum_minimum),
        EH_TEST(test_atan2),
        EH_TEST(test_scalar_forms_order),
        EH_TEST(test_scalar_dtype_rule),
        EH_TEST(test_broadcasting),
        EH_TEST(test_first_error_is_kept),
        EH_TEST(test_out_of_memory),
        EH_TEST(test_scope_nested_expression),
    };
    return EH_RUN_TESTS(tests);
}
