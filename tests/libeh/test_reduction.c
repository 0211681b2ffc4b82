/* Tests of the reduction group: sum mean prod max min var std argmax argmin
 * cumsum cumprod logsumexp softmax log_softmax norm allclose.
 *
 * Expected values are hand-computed; where a constant is not obvious, the
 * comment next to it says how it was obtained (python3's math module,
 * which computes in IEEE double like the kernels, or algebra). */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "eh_test.h"

#define AX(...) ((const int[]){__VA_ARGS__})
#define NAX(...) ((int)(sizeof((const int[]){__VA_ARGS__}) / sizeof(int)))
#define V(...) ((const double[]){__VA_ARGS__})

/* 0, 1, ..., n-1 as a tensor of `dtype` and shape. */
static eh_tensor *iota(eh_dtype dtype, int ndim, const int64_t *shape)
{
    double v[64];
    int64_t n = 1;
    for (int d = 0; d < ndim; d++)
        n *= shape[d];
    assert_true(n <= 64);
    for (int64_t k = 0; k < n; k++)
        v[k] = (double)k;
    return t_from(dtype, ndim, shape, v);
}

static eh_tensor *empty_t(eh_dtype dtype, int ndim, const int64_t *shape)
{
    return t_from(dtype, ndim, shape, NULL);
}

/* ---- sum ------------------------------------------------------------------ */

static void test_sum_axes(void **state)
{
    (void)state;
    eh_scope_begin();
    eh_tensor *x = T_F64(SHAPE(2, 3), 1, 2, 3, 4, 5, 6);
    assert_tensor_exact(eh_sum(x, NULL, 0, 0), EH_F64, 0, SHAPE(1), V(21));
    assert_tensor_exact(eh_sum(x, AX(0), 1, 0), EH_F64, 1, SHAPE(3), V(5, 7, 9));
    assert_tensor_exact(eh_sum(x, AX(1), 1, 0), EH_F64, 1, SHAPE(2), V(6, 15));
    assert_tensor_exact(eh_sum(x, AX(-1), 1, 0), EH_F64, 1, SHAPE(2), V(6, 15));
    assert_tensor_exact(eh_sum(x, AX(-2), 1, 1), EH_F64, 2, SHAPE(1, 3), V(5, 7, 9));
    assert_tensor_exact(eh_sum(x, AX(1, 0), 2, 0), EH_F64, 0, SHAPE(1), V(21));
    assert_tensor_exact(eh_sum(x, NULL, 0, 1), EH_F64, 2, SHAPE(1, 1), V(21));
    /* 3-D, non-adjacent axes: arange(24).reshape(2,3,4); sums by hand:
     * over (0,2) for j: sum_{i,k} 12i + 4j + k = 48 + 32j + 12 -> 60 92 124 */
    eh_tensor *y = iota(EH_F64, 3, SHAPE(2, 3, 4));
    assert_tensor_exact(eh_sum(y, AX(0, 2), 2, 0), EH_F64, 1, SHAPE(3), V(60, 92, 124));
    assert_tensor_exact(eh_sum(y, AX(2, 0), 2, 1), EH_F64, 3, SHAPE(1, 3, 1), V(60, 92, 124));
    /* over axis 1: 12i + k summed over j: 3*(12i + k) + 12 */
    assert_tensor_exact(eh_sum(y, AX(1), 1, 0), EH_F64, 2, SHAPE(2, 4),
                        V(12, 15, 18, 21, 48, 51, 54, 57));
    /* 0-d input, axes NULL: itself */
    eh_tensor *s = eh_scalar(5, EH_F32);
    assert_tensor_exact(eh_sum(s, NULL, 0, 0), EH_F32, 0, SHAPE(1), V(5));
    assert_tensor_exact(eh_sum(s, NULL, 0, 1), EH_F32, 0, SHAPE(1), V(5));
    eh_scope_end();
}

static void test_sum_dtypes(void **state)
{
    (void)state;
    eh_scope_begin();
    /* bool and i32 accumulate in i64 (NumPy on 64-bit Linux) */
    eh_tensor *b = t_from(EH_BOOL, 1, SHAPE(4), V(1, 0, 1, 1));
    assert_tensor_exact(eh_sum(b, NULL, 0, 0), EH_I64, 0, SHAPE(1), V(3));
    eh_tensor *i = t_from(EH_I32, 1, SHAPE(3), V(2147483647, 2147483647, 2));
    assert_tensor_exact(eh_sum(i, NULL, 0, 0), EH_I64, 0, SHAPE(1), V(4294967296.0));
    /* i64 wraps: INT64_MAX + 1 == INT64_MIN */
    int64_t big[2] = {INT64_MAX, 1};
    eh_tensor *l = eh_convert_to_tensor(big, 1, SHAPE(2), EH_I64);
    eh_tensor *ls = eh_sum(l, NULL, 0, 0);
    assert_non_null(ls);
    assert_int_equal(eh_get_dtype(ls), EH_I64);
    assert_true(eh_data_i64(ls)[0] == INT64_MIN);
    /* i64 sums are exact beyond 2^53 */
    int64_t exact[2] = {(INT64_C(1) << 53) + 1, 2};
    eh_tensor *e = eh_convert_to_tensor(exact, 1, SHAPE(2), EH_I64);
    assert_true(eh_data_i64(eh_sum(e, NULL, 0, 0))[0] == (INT64_C(1) << 53) + 3);
    /* floats keep their dtype */
    eh_tensor *f = T_F32(SHAPE(2, 2), 0.5, 0.25, 1, 2);
    assert_tensor_exact(eh_sum(f, AX(1), 1, 0), EH_F32, 1, SHAPE(2), V(0.75, 3));
    /* f16 accumulates wider than f16: 2048 + 1 + 1 is 2050 (exact in f16);
     * an f16 accumulator would round 2049 back to 2048 twice */
    eh_tensor *h = t_from(EH_F16, 1, SHAPE(3), V(2048, 1, 1));
    assert_tensor_exact(eh_sum(h, NULL, 0, 0), EH_F16, 0, SHAPE(1), V(2050));
    /* One correct rounding to f16: the exact sum 1 + 2^-11 + 2^-24 lies just
     * above the midpoint of 1 and 1 + 2^-10, so it rounds up.  Rounding
     * through f32 first would drop the 2^-24 (a tie at f32 precision, to
     * even) and then round the f16 tie down to 1. */
    eh_tensor *r = t_from(EH_F16, 1, SHAPE(3), V(1, 0.00048828125, 5.9604644775390625e-08));
    assert_tensor_exact(eh_sum(r, NULL, 0, 0), EH_F16, 0, SHAPE(1), V(1.0009765625));
    eh_scope_end();
}

static void test_sum_accuracy_and_specials(void **state)
{
    (void)state;
    eh_scope_begin();
    /* Compensated summation: the exact sum is 1; naive left-to-right
     * double summation gives 0 (1e16 + 1 rounds back to 1e16). */
    eh_tensor *x = T_F64(SHAPE(3), 1e16, 1, -1e16);
    assert_tensor_exact(eh_sum(x, NULL, 0, 0), EH_F64, 0, SHAPE(1), V(1));
    /* 0.1 ten times: the correctly rounded sum of the ten doubles nearest
     * 0.1 is 1.0000000000000000555 -> rounds to 1.0 (python3:
     * math.fsum([0.1]*10) == 1.0), naive summation gives 0.9999999999999999 */
    eh_tensor *t = T_F64(SHAPE(10), 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1);
    assert_tensor_exact(eh_sum(t, NULL, 0, 0), EH_F64, 0, SHAPE(1), V(1.0));
    eh_tensor *n = T_F64(SHAPE(2, 2), 1, NAN, INFINITY, 1);
    assert_tensor_exact(eh_sum(n, AX(1), 1, 0), EH_F64, 1, SHAPE(2), V(NAN, INFINITY));
    eh_tensor *ii = T_F64(SHAPE(3), INFINITY, 5, -INFINITY);
    assert_true(isnan(eh_item(eh_sum(ii, NULL, 0, 0))));
    eh_tensor *ni = T_F32(SHAPE(2), -INFINITY, 3);
    assert_tensor_exact(eh_sum(ni, NULL, 0, 0), EH_F32, 0, SHAPE(1), V(-INFINITY));
    eh_scope_end();
}

static void test_sum_prod_empty(void **state)
{
    (void)state;
    eh_scope_begin();
    eh_tensor *e = empty_t(EH_F64, 1, SHAPE(0));
    assert_tensor_exact(eh_sum(e, NULL, 0, 0), EH_F64, 0, SHAPE(1), V(0));
    assert_tensor_exact(eh_prod(e, NULL, 0, 0), EH_F64, 0, SHAPE(1), V(1));
    eh_tensor *e2 = empty_t(EH_I32, 2, SHAPE(2, 0));
    assert_tensor_exact(eh_sum(e2, AX(1), 1, 0), EH_I64, 1, SHAPE(2), V(0, 0));
    assert_tensor_exact(eh_prod(e2, AX(1), 1, 1), EH_I64, 2, SHAPE(2, 1), V(1, 1));
    eh_tensor *r = eh_sum(e2, AX(0), 1, 0); /* (0,) result */
    assert_tensor_exact(r, EH_I64, 1, SHAPE(0), NULL);
    /* huge dims next to a zero one: reductions must not overflow counts */
    eh_tensor *h = empty_t(EH_F32, 3, SHAPE(INT64_C(1) << 40, 0, INT64_C(1) << 40));
    assert_tensor_exact(eh_sum(h, AX(0), 1, 0), EH_F32, 2, SHAPE(0, INT64_C(1) << 40), NULL);
    eh_tensor *h2 = empty_t(EH_F32, 3, SHAPE(0, INT64_C(1) << 40, INT64_C(1) << 40));
    assert_tensor_exact(eh_sum(h2, NULL, 0, 0), EH_F32, 0, SHAPE(1), V(0));
    assert_tensor_exact(eh_mean(h2, NULL, 0, 0), EH_F32, 0, SHAPE(1), V(NAN));
    eh_scope_end();
}

/* ---- prod ------------------------------------------------------------------ */

static void test_prod(void **state)
{
    (void)state;
    eh_scope_begin();
    eh_tensor *i = t_from(EH_I32, 2, SHAPE(2, 3), V(1, 2, 3, 4, 5, 6));
    assert_tensor_exact(eh_prod(i, NULL, 0, 0), EH_I64, 0, SHAPE(1), V(720));
    assert_tensor_exact(eh_prod(i, AX(0), 1, 0), EH_I64, 1, SHAPE(3), V(4, 10, 18));
    assert_tensor_exact(eh_prod(i, AX(-1), 1, 1), EH_I64, 2, SHAPE(2, 1), V(6, 120));
    /* i64 wraps: 2^62 * 4 == 2^64 == 0 (mod 2^64) */
    int64_t w[2] = {INT64_C(1) << 62, 4};
    eh_tensor *l = eh_convert_to_tensor(w, 1, SHAPE(2), EH_I64);
    assert_tensor_exact(eh_prod(l, NULL, 0, 0), EH_I64, 0, SHAPE(1), V(0));
    eh_tensor *b = t_from(EH_BOOL, 1, SHAPE(3), V(1, 1, 0));
    assert_tensor_exact(eh_prod(b, NULL, 0, 0), EH_I64, 0, SHAPE(1), V(0));
    eh_tensor *f = t_from(EH_F16, 1, SHAPE(3), V(0.5, -4, 3));
    assert_tensor_exact(eh_prod(f, NULL, 0, 0), EH_F16, 0, SHAPE(1), V(-6));
    eh_tensor *n = T_F64(SHAPE(3), 2, NAN, 0);
    assert_tensor_exact(eh_prod(n, NULL, 0, 0), EH_F64, 0, SHAPE(1), V(NAN));
    eh_tensor *z = T_F64(SHAPE(2), INFINITY, 0);
    assert_tensor_exact(eh_prod(z, NULL, 0, 0), EH_F64, 0, SHAPE(1), V(NAN)); /* inf * 0 */
    eh_scope_end();
}

/* ---- mean ------------------------------------------------------------------ */

static void test_mean(void **state)
{
    (void)state;
    eh_scope_begin();
    eh_tensor *i = t_from(EH_I32, 2, SHAPE(2, 2), V(1, 2, 3, 4));
    assert_tensor_exact(eh_mean(i, NULL, 0, 0), EH_F64, 0, SHAPE(1), V(2.5));
    assert_tensor_exact(eh_mean(i, AX(0), 1, 0), EH_F64, 1, SHAPE(2), V(2, 3));
    assert_tensor_exact(eh_mean(i, AX(-1), 1, 1), EH_F64, 2, SHAPE(2, 1), V(1.5, 3.5));
    eh_tensor *b = t_from(EH_BOOL, 1, SHAPE(4), V(1, 0, 0, 1));
    assert_tensor_exact(eh_mean(b, NULL, 0, 0), EH_F64, 0, SHAPE(1), V(0.5));
    eh_tensor *f = T_F32(SHAPE(3), 1, 2, 4);
    /* 7/3 rounded to f32 */
    assert_tensor_exact(eh_mean(f, NULL, 0, 0), EH_F32, 0, SHAPE(1), V((double)(7.0f / 3.0f)));
    eh_tensor *h = t_from(EH_F16, 1, SHAPE(2), V(60000, 60000));
    /* the f16 sum 120000 overflows f16, the mean does not */
    assert_tensor_exact(eh_mean(h, NULL, 0, 0), EH_F16, 0, SHAPE(1), V(60000));
    eh_tensor *e = empty_t(EH_F64, 2, SHAPE(0, 3));
    assert_tensor_exact(eh_mean(e, AX(0), 1, 0), EH_F64, 1, SHAPE(3), V(NAN, NAN, NAN));
    eh_tensor *n = T_F64(SHAPE(2), 1, NAN);
    assert_tensor_exact(eh_mean(n, NULL, 0, 0), EH_F64, 0, SHAPE(1), V(NAN));
    eh_tensor *s = eh_scalar(7, EH_I64);
    assert_tensor_exact(eh_mean(s, NULL, 0, 0), EH_F64, 0, SHAPE(1), V(7));
    eh_scope_end();
}

/* ---- max, min ---------------------------------------------------------------- */

static void test_max_min_values(void **state)
{
    (void)state;
    eh_scope_begin();
    eh_tensor *x = T_F64(SHAPE(2, 3), 3, -1, 7, 0, 9, -5);
    assert_tensor_exact(eh_max(x, NULL, 0, 0), EH_F64, 0, SHAPE(1), V(9));
    assert_tensor_exact(eh_min(x, NULL, 0, 0), EH_F64, 0, SHAPE(1), V(-5));
    assert_tensor_exact(eh_max(x, AX(0), 1, 0), EH_F64, 1, SHAPE(3), V(3, 9, 7));
    assert_tensor_exact(eh_min(x, AX(-1), 1, 1), EH_F64, 2, SHAPE(2, 1), V(-1, -5));
    /* every dtype keeps its own */
    static const eh_dtype dts[] = {EH_F16, EH_F32, EH_I32, EH_I64};
    for (size_t k = 0; k < sizeof dts / sizeof dts[0]; k++) {
        eh_tensor *t = t_from(dts[k], 1, SHAPE(4), V(2, -8, 6, 1));
        assert_tensor_exact(eh_max(t, NULL, 0, 0), dts[k], 0, SHAPE(1), V(6));
        assert_tensor_exact(eh_min(t, NULL, 0, 0), dts[k], 0, SHAPE(1), V(-8));
    }
    eh_tensor *b = t_from(EH_BOOL, 2, SHAPE(2, 2), V(0, 1, 0, 0));
    assert_tensor_exact(eh_max(b, AX(1), 1, 0), EH_BOOL, 1, SHAPE(2), V(1, 0));
    assert_tensor_exact(eh_min(b, NULL, 0, 0), EH_BOOL, 0, SHAPE(1), V(0));
    /* i64 compares exactly beyond 2^53 */
    int64_t big[3] = {(INT64_C(1) << 62) + 1, INT64_C(1) << 62, INT64_MIN};
    eh_tensor *l = eh_convert_to_tensor(big, 1, SHAPE(3), EH_I64);
    assert_true(eh_data_i64(eh_max(l, NULL, 0, 0))[0] == (INT64_C(1) << 62) + 1);
    assert_true(eh_data_i64(eh_min(l, NULL, 0, 0))[0] == INT64_MIN);
    /* NaN propagates (NumPy max, not nanmax); infinities are ordinary */
    eh_tensor *n = T_F32(SHAPE(2, 3), 1, NAN, 3, -INFINITY, 2, INFINITY);
    assert_tensor_exact(eh_max(n, AX(1), 1, 0), EH_F32, 1, SHAPE(2), V(NAN, INFINITY));
    assert_tensor_exact(eh_min(n, AX(1), 1, 0), EH_F32, 1, SHAPE(2), V(NAN, -INFINITY));
    eh_tensor *s = eh_scalar(-2, EH_I32);
    assert_tensor_exact(eh_max(s, NULL, 0, 0), EH_I32, 0, SHAPE(1), V(-2));
    /* among equal values the first is returned, bit for bit */
    eh_tensor *z = T_F64(SHAPE(2, 2), -0.0, 0.0, 0.0, -0.0);
    eh_tensor *zm = eh_max(z, AX(1), 1, 0);
    assert_non_null(zm);
    assert_true(signbit(eh_data_f64(zm)[0]) && !signbit(eh_data_f64(zm)[1]));
    eh_scope_end();
}

static void test_max_min_empty(void **state)
{
    (void)state;
    eh_scope_begin();
    eh_tensor *e = empty_t(EH_F64, 2, SHAPE(0, 3));
    /* reducing the length-3 axis of a (0, 3) tensor is fine: result (0,) */
    assert_tensor_exact(eh_max(e, AX(1), 1, 0), EH_F64, 1, SHAPE(0), NULL);
    assert_failed(eh_max(e, AX(0), 1, 0), EH_ERR_SHAPE, "zero-size");
    assert_failed(eh_min(e, NULL, 0, 0), EH_ERR_SHAPE, "(0, 3)");
    eh_tensor *e2 = empty_t(EH_I32, 2, SHAPE(3, 0));
    assert_failed(eh_max(e2, AX(-1), 1, 1), EH_ERR_SHAPE, "max: zero-size");
    eh_scope_end();
}

/* ---- var, std ---------------------------------------------------------------- */

static void test_var_std(void **state)
{
    (void)state;
    eh_scope_begin();
    eh_tensor *x = T_F64(SHAPE(4), 1, 2, 3, 4);
    /* mean 2.5, squared deviations 2.25 .25 .25 2.25, sum 5 */
    assert_tensor_exact(eh_var(x, NULL, 0, 0, 0), EH_F64, 0, SHAPE(1), V(1.25));
    assert_tensor(eh_var(x, NULL, 0, 1, 0), EH_F64, 0, SHAPE(1), V(5.0 / 3.0), 0, 1e-15);
    assert_tensor_exact(eh_var(x, NULL, 0, -1, 0), EH_F64, 0, SHAPE(1), V(1.0)); /* 5 / 5 */
    /* sqrt(1.25) = 1.118033988749895 and sqrt(5/3) = 1.2909944487358056 (python3 math) */
    assert_tensor(eh_std(x, NULL, 0, 0, 0), EH_F64, 0, SHAPE(1), V(1.118033988749895), 0, 1e-15);
    assert_tensor(eh_std(x, NULL, 0, 1, 0), EH_F64, 0, SHAPE(1), V(1.2909944487358056), 0, 1e-15);
    /* ints -> f64, along an axis */
    eh_tensor *i = t_from(EH_I32, 2, SHAPE(2, 3), V(1, 2, 3, 2, 4, 6));
    assert_tensor(eh_var(i, AX(1), 1, 0, 0), EH_F64, 1, SHAPE(2), V(2.0 / 3.0, 8.0 / 3.0), 0, 1e-15);
    assert_tensor_exact(eh_var(i, AX(0), 1, 0, 1), EH_F64, 2, SHAPE(1, 3), V(0.25, 1, 2.25));
    assert_tensor_exact(eh_std(i, AX(0), 1, 0, 0), EH_F64, 1, SHAPE(3), V(0.5, 1, 1.5));
    eh_tensor *b = t_from(EH_BOOL, 1, SHAPE(2), V(1, 0));
    assert_tensor_exact(eh_var(b, NULL, 0, 0, 0), EH_F64, 0, SHAPE(1), V(0.25));
    /* two-pass: a large offset does not destroy the result (2/3) */
    eh_tensor *o = T_F64(SHAPE(3), 1e9 + 1, 1e9 + 2, 1e9 + 3);
    assert_tensor(eh_var(o, NULL, 0, 0, 0), EH_F64, 0, SHAPE(1), V(2.0 / 3.0), 0, 1e-12);
    /* f32 / f16 keep their dtype */
    eh_tensor *f = T_F32(SHAPE(2), 1, 3);
    assert_tensor_exact(eh_std(f, NULL, 0, 0, 0), EH_F32, 0, SHAPE(1), V(1));
    eh_tensor *h = t_from(EH_F16, 1, SHAPE(2), V(2, 6));
    assert_tensor_exact(eh_var(h, NULL, 0, 0, 0), EH_F16, 0, SHAPE(1), V(4));
    eh_scope_end();
}

static void test_var_edge_cases(void **state)
{
    (void)state;
    eh_scope_begin();
    /* ddof >= N: NumPy divides by max(N - ddof, 0) = 0 */
    eh_tensor *x = T_F64(SHAPE(2), 1, 2);
    assert_tensor_exact(eh_var(x, NULL, 0, 2, 0), EH_F64, 0, SHAPE(1), V(INFINITY)); /* .5/0 */
    assert_tensor_exact(eh_var(x, NULL, 0, 5, 0), EH_F64, 0, SHAPE(1), V(INFINITY));
    eh_tensor *one = T_F64(SHAPE(1), 5);
    assert_tensor_exact(eh_var(one, NULL, 0, 1, 0), EH_F64, 0, SHAPE(1), V(NAN)); /* 0/0 */
    assert_tensor_exact(eh_var(one, NULL, 0, 0, 0), EH_F64, 0, SHAPE(1), V(0));
    assert_tensor_exact(eh_std(x, NULL, 0, INT64_MAX, 0), EH_F64, 0, SHAPE(1), V(INFINITY));
    assert_tensor_exact(eh_var(x, NULL, 0, INT64_MIN, 0), EH_F64, 0, SHAPE(1),
                        V(0.5 / (2.0 + 9223372036854775808.0)));
    /* empty: NaN */
    eh_tensor *e = empty_t(EH_F32, 1, SHAPE(0));
    assert_tensor_exact(eh_var(e, NULL, 0, 0, 0), EH_F32, 0, SHAPE(1), V(NAN));
    assert_tensor_exact(eh_std(e, NULL, 0, 0, 0), EH_F32, 0, SHAPE(1), V(NAN));
    /* NaN and inf propagate (inf - inf in the deviations) */
    eh_tensor *n = T_F64(SHAPE(2, 2), 1, NAN, INFINITY, 1);
    assert_tensor_exact(eh_var(n, AX(1), 1, 0, 0), EH_F64, 1, SHAPE(2), V(NAN, NAN));
    /* 0-d */
    eh_tensor *s = eh_scalar(3, EH_F64);
    assert_tensor_exact(eh_std(s, NULL, 0, 0, 0), EH_F64, 0, SHAPE(1), V(0));
    eh_scope_end();
}

/* ---- argmax, argmin ------------------------------------------------------------ */

static void test_argmax_argmin(void **state)
{
    (void)state;
    eh_scope_begin();
    eh_tensor *x = T_F64(SHAPE(2, 3), 3, 9, 9, -4, 0, -4);
    assert_tensor_exact(eh_argmax(x, 1, 0), EH_I64, 1, SHAPE(2), V(1, 1)); /* ties: first */
    assert_tensor_exact(eh_argmin(x, 1, 0), EH_I64, 1, SHAPE(2), V(0, 0));
    assert_tensor_exact(eh_argmax(x, 0, 0), EH_I64, 1, SHAPE(3), V(0, 0, 0));
    assert_tensor_exact(eh_argmin(x, -2, 1), EH_I64, 2, SHAPE(1, 3), V(1, 1, 1));
    assert_tensor_exact(eh_argmax(x, -1, 1), EH_I64, 2, SHAPE(2, 1), V(1, 1));
    /* flattened */
    assert_tensor_exact(eh_argmax_flat(x, 0), EH_I64, 0, SHAPE(1), V(1));
    assert_tensor_exact(eh_argmin_flat(x, 0), EH_I64, 0, SHAPE(1), V(3));
    assert_tensor_exact(eh_argmin_flat(x, 1), EH_I64, 2, SHAPE(1, 1), V(3));
    /* 3-D, middle axis and flattened */
    eh_tensor *y = t_from(EH_I32, 3, SHAPE(2, 2, 2), V(0, 5, 7, 1, 2, 2, 9, -1));
    assert_tensor_exact(eh_argmax(y, 1, 0), EH_I64, 2, SHAPE(2, 2), V(1, 0, 1, 0));
    assert_tensor_exact(eh_argmax_flat(y, 0), EH_I64, 0, SHAPE(1), V(6));
    assert_tensor_exact(eh_argmin_flat(y, 0), EH_I64, 0, SHAPE(1), V(7));
    /* all dtypes */
    static const eh_dtype dts[] = {EH_F16, EH_F32, EH_I64, EH_BOOL};
    for (size_t k = 0; k < sizeof dts / sizeof dts[0]; k++) {
        eh_tensor *t = t_from(dts[k], 1, SHAPE(4), V(0, 1, 1, 0));
        assert_tensor_exact(eh_argmax(t, 0, 0), EH_I64, 0, SHAPE(1), V(1));
        assert_tensor_exact(eh_argmin(t, 0, 0), EH_I64, 0, SHAPE(1), V(0));
    }
    int64_t big[3] = {INT64_C(1) << 62, (INT64_C(1) << 62) + 1, INT64_C(1) << 62};
    eh_tensor *l = eh_convert_to_tensor(big, 1, SHAPE(3), EH_I64);
    assert_tensor_exact(eh_argmax(l, 0, 0), EH_I64, 0, SHAPE(1), V(1));
    /* 0-d */
    eh_tensor *s = eh_scalar(4, EH_F32);
    assert_tensor_exact(eh_argmax_flat(s, 0), EH_I64, 0, SHAPE(1), V(0));
    assert_tensor_exact(eh_argmin_flat(s, 1), EH_I64, 0, SHAPE(1), V(0));
    eh_scope_end();
}

static void test_argmax_nan_and_empty(void **state)
{
    (void)state;
    eh_scope_begin();
    /* the first NaN wins for both (NumPy) */
    eh_tensor *n = T_F64(SHAPE(5), 1, INFINITY, NAN, -INFINITY, NAN);
    assert_tensor_exact(eh_argmax(n, 0, 0), EH_I64, 0, SHAPE(1), V(2));
    assert_tensor_exact(eh_argmin(n, 0, 0), EH_I64, 0, SHAPE(1), V(2));
    eh_tensor *n0 = T_F32(SHAPE(2), NAN, 5);
    assert_tensor_exact(eh_argmin_flat(n0, 0), EH_I64, 0, SHAPE(1), V(0));
    eh_tensor *nn = t_from(EH_F16, 1, SHAPE(3), V(NAN, 1, NAN));
    assert_tensor_exact(eh_argmax(nn, 0, 0), EH_I64, 0, SHAPE(1), V(0));
    assert_tensor_exact(eh_argmin(nn, 0, 0), EH_I64, 0, SHAPE(1), V(0));
    eh_tensor *inf = T_F32(SHAPE(3), -INFINITY, 0, -INFINITY);
    assert_tensor_exact(eh_argmin(inf, 0, 0), EH_I64, 0, SHAPE(1), V(0));
    /* empty */
    eh_tensor *e = empty_t(EH_F64, 2, SHAPE(0, 3));
    assert_tensor_exact(eh_argmax(e, 1, 0), EH_I64, 1, SHAPE(0), NULL);
    assert_failed(eh_argmax(e, 0, 0), EH_ERR_SHAPE, "empty sequence");
    assert_failed(eh_argmin_flat(e, 0), EH_ERR_SHAPE, "argmin: attempt");
    eh_scope_end();
}

/* ---- cumsum, cumprod -------------------------------------------------------- */

static void test_cumsum_cumprod(void **state)
{
    (void)state;
    eh_scope_begin();
    eh_tensor *x = T_F64(SHAPE(2, 3), 1, 2, 3, 4, 5, 6);
    assert_tensor_exact(eh_cumsum(x, 0), EH_F64, 2, SHAPE(2, 3), V(1, 2, 3, 5, 7, 9));
    assert_tensor_exact(eh_cumsum(x, 1), EH_F64, 2, SHAPE(2, 3), V(1, 3, 6, 4, 9, 15));
    assert_tensor_exact(eh_cumsum(x, -1), EH_F64, 2, SHAPE(2, 3), V(1, 3, 6, 4, 9, 15));
    assert_tensor_exact(eh_cumsum_flat(x), EH_F64, 1, SHAPE(6), V(1, 3, 6, 10, 15, 21));
    assert_tensor_exact(eh_cumprod(x, 0), EH_F64, 2, SHAPE(2, 3), V(1, 2, 3, 4, 10, 18));
    assert_tensor_exact(eh_cumprod(x, -1), EH_F64, 2, SHAPE(2, 3), V(1, 2, 6, 4, 20, 120));
    assert_tensor_exact(eh_cumprod_flat(x), EH_F64, 1, SHAPE(6),
                        V(1, 2, 6, 24, 120, 720));
    /* 3-D middle axis: arange(8).reshape(2,2,2) */
    eh_tensor *y = iota(EH_I32, 3, SHAPE(2, 2, 2));
    assert_tensor_exact(eh_cumsum(y, 1), EH_I64, 3, SHAPE(2, 2, 2), V(0, 1, 2, 4, 4, 5, 10, 12));
    /* dtypes */
    eh_tensor *b = t_from(EH_BOOL, 1, SHAPE(4), V(1, 1, 0, 1));
    assert_tensor_exact(eh_cumsum(b, 0), EH_I64, 1, SHAPE(4), V(1, 2, 2, 3));
    assert_tensor_exact(eh_cumprod(b, 0), EH_I64, 1, SHAPE(4), V(1, 1, 0, 0));
    eh_tensor *i = t_from(EH_I32, 1, SHAPE(2), V(2147483647, 1));
    assert_tensor_exact(eh_cumsum(i, 0), EH_I64, 1, SHAPE(2), V(2147483647, 2147483648.0));
    int64_t w[2] = {INT64_MAX, 1};
    eh_tensor *l = eh_convert_to_tensor(w, 1, SHAPE(2), EH_I64);
    eh_tensor *lc = eh_cumsum(l, 0);
    assert_non_null(lc);
    assert_true(eh_data_i64(lc)[1] == INT64_MIN); /* wraps */
    eh_tensor *f = T_F32(SHAPE(3), 0.5, 0.25, 0.125);
    assert_tensor_exact(eh_cumsum(f, 0), EH_F32, 1, SHAPE(3), V(0.5, 0.75, 0.875));
    eh_tensor *h = t_from(EH_F16, 1, SHAPE(3), V(2048, 1, 1));
    /* running sums 2048, 2049 (rounds to 2048 in f16: tie to even), 2050 */
    assert_tensor_exact(eh_cumsum(h, 0), EH_F16, 1, SHAPE(3), V(2048, 2048, 2050));
    eh_tensor *n = T_F64(SHAPE(3), 1, NAN, 1);
    assert_tensor_exact(eh_cumsum(n, 0), EH_F64, 1, SHAPE(3), V(1, NAN, NAN));
    /* compensated running sum: exact prefix sums */
    eh_tensor *k = T_F64(SHAPE(3), 1e16, 1, -1e16);
    assert_tensor_exact(eh_cumsum(k, 0), EH_F64, 1, SHAPE(3), V(1e16, 1e16, 1));
    eh_scope_end();
}

static void test_cumsum_edge(void **state)
{
    (void)state;
    eh_scope_begin();
    eh_tensor *s = eh_scalar(3, EH_I32);
    assert_tensor_exact(eh_cumsum_flat(s), EH_I64, 1, SHAPE(1), V(3));
    assert_failed(eh_cumsum(s, 0), EH_ERR_AXIS, "out of range");
    eh_tensor *e = empty_t(EH_F64, 2, SHAPE(2, 0));
    assert_tensor_exact(eh_cumsum(e, 1), EH_F64, 2, SHAPE(2, 0), NULL);
    assert_tensor_exact(eh_cumprod_flat(e), EH_F64, 1, SHAPE(0), NULL);
    eh_tensor *x = T_F64(SHAPE(2, 3), 1, 2, 3, 4, 5, 6);
    assert_failed(eh_cumsum(x, 2), EH_ERR_AXIS, "(2, 3)");
    assert_failed(eh_cumprod(x, -3), EH_ERR_AXIS, "cumprod: axis -3");
    eh_scope_end();
}

/* ---- logsumexp -------------------------------------------------------------- */

static void test_logsumexp(void **state)
{
    (void)state;
    eh_scope_begin();
    /* log(2) = 0.6931471805599453, log(e + e^2 + e^3) = 3.40760596444438 (python3 math) */
    eh_tensor *x = T_F64(SHAPE(2, 3), 0, 0, -INFINITY, 1, 2, 3);
    assert_tensor(eh_logsumexp(x, AX(1), 1, 0), EH_F64, 1, SHAPE(2),
                  V(0.6931471805599453, 3.40760596444438), 0, 1e-15);
    assert_tensor(eh_logsumexp(x, AX(-1), 1, 1), EH_F64, 2, SHAPE(2, 1),
                  V(0.6931471805599453, 3.40760596444438), 0, 1e-15);
    /* stable for large values: 1000 + log 2 */
    eh_tensor *big = T_F64(SHAPE(2), 1000, 1000);
    assert_tensor(eh_logsumexp(big, NULL, 0, 0), EH_F64, 0, SHAPE(1), V(1000.6931471805599), 0,
                  1e-15);
    eh_tensor *neg = T_F32(SHAPE(2), -1000, -1000);
    assert_tensor(eh_logsumexp(neg, NULL, 0, 0), EH_F32, 0, SHAPE(1), V(-999.30685281944),
                  0, 1e-6);
    /* specials */
    eh_tensor *sp = T_F64(SHAPE(4, 2), -INFINITY, -INFINITY, INFINITY, 1, NAN, 1, INFINITY,
                          -INFINITY);
    assert_tensor_exact(eh_logsumexp(sp, AX(1), 1, 0), EH_F64, 1, SHAPE(4),
                        V(-INFINITY, INFINITY, NAN, INFINITY));
    /* ints -> f64; 0-d; empty */
    eh_tensor *i = t_from(EH_I32, 1, SHAPE(2), V(0, 0));
    assert_tensor(eh_logsumexp(i, NULL, 0, 0), EH_F64, 0, SHAPE(1), V(0.6931471805599453), 0,
                  1e-15);
    eh_tensor *s = eh_scalar(2.5, EH_F64);
    assert_tensor_exact(eh_logsumexp(s, NULL, 0, 0), EH_F64, 0, SHAPE(1), V(2.5));
    eh_tensor *e = empty_t(EH_F64, 2, SHAPE(2, 0));
    assert_tensor_exact(eh_logsumexp(e, AX(1), 1, 0), EH_F64, 1, SHAPE(2),
                        V(-INFINITY, -INFINITY));
    eh_tensor *h = t_from(EH_F16, 1, SHAPE(2), V(0, 0));
    assert_tensor(eh_logsumexp(h, NULL, 0, 0), EH_F16, 0, SHAPE(1), V(0.6931471805599453), 0,
                  1e-3);
    eh_scope_end();
}

/* ---- softmax, log_softmax ------------------------------------------------------- */

static void test_softmax(void **state)
{
    (void)state;
    eh_scope_begin();
    /* exp(k) / (e + e^2 + e^3), python3 math */
    const double p[3] = {0.09003057317038046, 0.24472847105479767, 0.6652409557748219};
    eh_tensor *x = T_F64(SHAPE(2, 3), 1, 2, 3, 1001, 1002, 1003);
    assert_tensor(eh_softmax(x, 1), EH_F64, 2, SHAPE(2, 3), V(p[0], p[1], p[2], p[0], p[1], p[2]),
                  1e-16, 1e-14);
    assert_tensor(eh_softmax(x, -1), EH_F64, 2, SHAPE(2, 3), V(p[0], p[1], p[2], p[0], p[1], p[2]),
                  1e-16, 1e-14);
    /* along axis 0: every column differs by 1000, exp(-1000) underflows */
    assert_tensor(eh_softmax(x, 0), EH_F64, 2, SHAPE(2, 3), V(0, 0, 0, 1, 1, 1), 1e-300, 0);
    /* all elements */
    eh_tensor *y = T_F32(SHAPE(3, 1), 1, 2, 3);
    assert_tensor(eh_softmax_flat(y), EH_F32, 2, SHAPE(3, 1), p, 0, 1e-6);
    eh_tensor *i = t_from(EH_I32, 1, SHAPE(2), V(5, 5));
    assert_tensor_exact(eh_softmax(i, 0), EH_F64, 1, SHAPE(2), V(0.5, 0.5));
    eh_tensor *h = t_from(EH_F16, 1, SHAPE(2), V(0, 0));
    assert_tensor_exact(eh_softmax(h, 0), EH_F16, 1, SHAPE(2), V(0.5, 0.5));
    eh_tensor *s = eh_scalar(7, EH_F64);
    assert_tensor_exact(eh_softmax_flat(s), EH_F64, 0, SHAPE(1), V(1));
    assert_failed(eh_softmax(s, 0), EH_ERR_AXIS, "softmax");
    /* scipy semantics for specials */
    eh_tensor *sp = T_F64(SHAPE(3, 2), -INFINITY, 0, INFINITY, 1, -INFINITY, -INFINITY);
    assert_tensor_exact(eh_softmax(sp, 1), EH_F64, 2, SHAPE(3, 2), V(0, 1, NAN, NAN, NAN, NAN));
    eh_tensor *e = empty_t(EH_F64, 2, SHAPE(3, 0));
    assert_tensor_exact(eh_softmax(e, 1), EH_F64, 2, SHAPE(3, 0), NULL);
    eh_scope_end();
}

static void test_log_softmax(void **state)
{
    (void)state;
    eh_scope_begin();
    /* k - log(e + e^2 + e^3), python3 math */
    eh_tensor *x = T_F64(SHAPE(3), 1, 2, 3);
    assert_tensor(eh_log_softmax(x, 0), EH_F64, 1, SHAPE(3),
                  V(-2.40760596444438, -1.4076059644443801, -0.40760596444438013), 0, 1e-15);
    /* stable far from 0: x - 1000 - log 2 */
    eh_tensor *b = T_F64(SHAPE(2, 2), 1000, 1000, -1000, 0);
    assert_tensor(eh_log_softmax(b, 1), EH_F64, 2, SHAPE(2, 2),
                  V(-0.6931471805599453, -0.6931471805599453, -1000, 0), 0, 1e-15);
    eh_tensor *bb = T_F64(SHAPE(2), -1000, 0);
    /* exp(-1000) underflows to 0 in the sum, so the entries are exactly -1000 and 0 */
    assert_tensor_exact(eh_log_softmax_flat(bb), EH_F64, 1, SHAPE(2), V(-1000, 0));
    /* scipy semantics: -inf stays -inf; all -inf is NaN; +inf gives NaN and -inf */
    eh_tensor *sp = T_F64(SHAPE(3, 2), -INFINITY, 0, -INFINITY, -INFINITY, INFINITY, 1);
    assert_tensor_exact(eh_log_softmax(sp, -1), EH_F64, 2, SHAPE(3, 2),
                        V(-INFINITY, 0, NAN, NAN, NAN, -INFINITY));
    eh_tensor *i = t_from(EH_BOOL, 1, SHAPE(2), V(1, 1));
    assert_tensor(eh_log_softmax(i, 0), EH_F64, 1, SHAPE(2),
                  V(-0.6931471805599453, -0.6931471805599453), 0, 1e-15);
    eh_tensor *s = eh_scalar(7, EH_F32);
    assert_tensor_exact(eh_log_softmax_flat(s), EH_F32, 0, SHAPE(1), V(0));
    eh_scope_end();
}

/* ---- norm ----------------------------------------------------------------------- */

static void test_norm_vector(void **state)
{
    (void)state;
    eh_scope_begin();
    eh_tensor *v = T_F64(SHAPE(2), 3, -4);
    assert_tensor_exact(eh_norm(v, EH_NORM_2, NULL, 0, 0), EH_F64, 0, SHAPE(1), V(5));
    assert_tensor_exact(eh_norm(v, EH_NORM_FRO, NULL, 0, 0), EH_F64, 0, SHAPE(1), V(5));
    assert_tensor_exact(eh_norm(v, EH_NORM_1, NULL, 0, 0), EH_F64, 0, SHAPE(1), V(7));
    assert_tensor_exact(eh_norm(v, EH_NORM_INF, NULL, 0, 0), EH_F64, 0, SHAPE(1), V(4));
    assert_tensor_exact(eh_norm(v, EH_NORM_NEG_INF, NULL, 0, 0), EH_F64, 0, SHAPE(1), V(3));
    assert_tensor_exact(eh_norm(v, EH_NORM_2, NULL, 0, 1), EH_F64, 1, SHAPE(1), V(5));
    /* along one axis of a matrix */
    eh_tensor *m = T_F64(SHAPE(2, 2), 3, 4, 6, 8);
    assert_tensor_exact(eh_norm(m, EH_NORM_2, AX(1), 1, 0), EH_F64, 1, SHAPE(2), V(5, 10));
    assert_tensor_exact(eh_norm(m, EH_NORM_1, AX(0), 1, 1), EH_F64, 2, SHAPE(1, 2), V(9, 12));
    assert_tensor_exact(eh_norm(m, EH_NORM_INF, AX(-2), 1, 0), EH_F64, 1, SHAPE(2), V(6, 8));
    /* ints, bool -> f64; f32, f16 keep */
    eh_tensor *i = t_from(EH_I32, 1, SHAPE(2), V(-3, 4));
    assert_tensor_exact(eh_norm(i, EH_NORM_2, AX(0), 1, 0), EH_F64, 0, SHAPE(1), V(5));
    eh_tensor *b = t_from(EH_BOOL, 1, SHAPE(4), V(1, 1, 1, 1));
    assert_tensor_exact(eh_norm(b, EH_NORM_2, NULL, 0, 0), EH_F64, 0, SHAPE(1), V(2));
    eh_tensor *h = t_from(EH_F16, 1, SHAPE(2), V(3, 4));
    assert_tensor_exact(eh_norm(h, EH_NORM_2, NULL, 0, 0), EH_F16, 0, SHAPE(1), V(5));
    /* no overflow / underflow: the squares are out of range */
    eh_tensor *big = T_F64(SHAPE(2), 3e200, 4e200);
    assert_tensor(eh_norm(big, EH_NORM_2, NULL, 0, 0), EH_F64, 0, SHAPE(1), V(5e200), 0, 1e-15);
    eh_tensor *tiny = T_F64(SHAPE(2), 3e-200, -4e-200);
    assert_tensor(eh_norm(tiny, EH_NORM_2, NULL, 0, 0), EH_F64, 0, SHAPE(1), V(5e-200), 0, 1e-15);
    eh_tensor *fbig = T_F32(SHAPE(2), 3e30, 4e30);
    assert_tensor(eh_norm(fbig, EH_NORM_2, NULL, 0, 0), EH_F32, 0, SHAPE(1), V(5e30), 0, 1e-7);
    /* NaN wins over inf; inf otherwise */
    eh_tensor *sp = T_F64(SHAPE(3, 2), INFINITY, NAN, INFINITY, 1, -INFINITY, 2);
    assert_tensor_exact(eh_norm(sp, EH_NORM_2, AX(1), 1, 0), EH_F64, 1, SHAPE(3),
                        V(NAN, INFINITY, INFINITY));
    assert_tensor_exact(eh_norm(sp, EH_NORM_1, AX(1), 1, 0), EH_F64, 1, SHAPE(3),
                        V(NAN, INFINITY, INFINITY));
    assert_tensor_exact(eh_norm(sp, EH_NORM_NEG_INF, AX(1), 1, 0), EH_F64, 1, SHAPE(3),
                        V(NAN, 1, 2));
    /* empty vectors: 0 for 2/1/fro, an error for inf/-inf */
    eh_tensor *e = empty_t(EH_F64, 1, SHAPE(0));
    assert_tensor_exact(eh_norm(e, EH_NORM_2, NULL, 0, 0), EH_F64, 0, SHAPE(1), V(0));
    assert_tensor_exact(eh_norm(e, EH_NORM_1, NULL, 0, 0), EH_F64, 0, SHAPE(1), V(0));
    assert_failed(eh_norm(e, EH_NORM_INF, NULL, 0, 0), EH_ERR_SHAPE, "zero-size");
    assert_failed(eh_norm(e, EH_NORM_NEG_INF, NULL, 0, 0), EH_ERR_SHAPE, "(0,)");
    /* 0-d: only fro (ord=None) applies */
    eh_tensor *s = eh_scalar(-2, EH_F64);
    assert_tensor_exact(eh_norm(s, EH_NORM_FRO, NULL, 0, 0), EH_F64, 0, SHAPE(1), V(2));
    assert_failed(eh_norm(s, EH_NORM_2, NULL, 0, 0), EH_ERR_SHAPE, "1-D or 2-D");
    eh_scope_end();
}

static void test_norm_matrix(void **state)
{
    (void)state;
    eh_scope_begin();
    eh_tensor *a = T_F64(SHAPE(2, 2), 1, -2, 3, 4);
    /* fro: sqrt(1 + 4 + 9 + 16) = sqrt(30) = 5.477225575051661 (python3 math) */
    assert_tensor(eh_norm(a, EH_NORM_FRO, NULL, 0, 0), EH_F64, 0, SHAPE(1), V(5.477225575051661),
                  0, 1e-15);
    /* 1: max column abs sum max(4, 6); inf: max row abs sum max(3, 7); -inf: 3 */
    assert_tensor_exact(eh_norm(a, EH_NORM_1, NULL, 0, 0), EH_F64, 0, SHAPE(1), V(6));
    assert_tensor_exact(eh_norm(a, EH_NORM_INF, NULL, 0, 0), EH_F64, 0, SHAPE(1), V(7));
    assert_tensor_exact(eh_norm(a, EH_NORM_NEG_INF, NULL, 0, 0), EH_F64, 0, SHAPE(1), V(3));
    /* axes (1, 0): rows are axis 1, i.e. the transpose */
    assert_tensor_exact(eh_norm(a, EH_NORM_1, AX(1, 0), 2, 0), EH_F64, 0, SHAPE(1), V(7));
    assert_tensor_exact(eh_norm(a, EH_NORM_INF, AX(-1, -2), 2, 0), EH_F64, 0, SHAPE(1), V(6));
    assert_tensor_exact(eh_norm(a, EH_NORM_1, AX(0, 1), 2, 1), EH_F64, 2, SHAPE(1, 1), V(6));
    /* A^T A = [[10, 10], [10, 20]] for [[1,-2],[3,4]]: eigenvalues 15 +- sqrt(125);
     * 2-norm sqrt(15 + sqrt(125)) = 5.116672736016927; nuclear = s1 + s2 with
     * s1 s2 = |det| = 10 and s1^2 + s2^2 = 30: sqrt(30 + 20) = sqrt(50)
     * = 7.0710678118654755 (python3 math) */
    assert_tensor(eh_norm(a, EH_NORM_2, NULL, 0, 0), EH_F64, 0, SHAPE(1), V(5.116672736016927),
                  0, 1e-14);
    assert_tensor(eh_norm(a, EH_NORM_NUC, NULL, 0, 0), EH_F64, 0, SHAPE(1),
                  V(7.0710678118654755), 0, 1e-14);
    /* rectangular, both orientations: singular values 2 and 1 */
    eh_tensor *r = T_F64(SHAPE(2, 3), 0, 1, 0, 0, 0, -2);
    assert_tensor(eh_norm(r, EH_NORM_2, NULL, 0, 0), EH_F64, 0, SHAPE(1), V(2), 0, 1e-15);
    assert_tensor(eh_norm(r, EH_NORM_NUC, AX(1, 0), 2, 0), EH_F64, 0, SHAPE(1), V(3), 0, 1e-15);
    /* rank one [[1,2],[2,4]]: singular values 5 and 0 */
    eh_tensor *one = t_from(EH_I32, 2, SHAPE(2, 2), V(1, 2, 2, 4));
    assert_tensor(eh_norm(one, EH_NORM_NUC, NULL, 0, 0), EH_F64, 0, SHAPE(1), V(5), 0, 1e-14);
    /* symmetric positive definite tridiag(1, 2, 1): eigenvalues 2 - sqrt 2, 2,
     * 2 + sqrt 2 (2 + 2 cos(k pi / 4)), which are its singular values:
     * 2-norm 2 + sqrt 2 = 3.414213562373095 (python3 math), nuclear = trace = 6.
     * Columns are not orthogonal, so Jacobi needs several sweeps. */
    eh_tensor *spd = T_F32(SHAPE(3, 3), 2, 1, 0, 1, 2, 1, 0, 1, 2);
    assert_tensor(eh_norm(spd, EH_NORM_2, NULL, 0, 0), EH_F32, 0, SHAPE(1),
                  V(3.414213562373095), 0, 1e-7);
    eh_tensor *spd64 = T_F64(SHAPE(3, 3), 2, 1, 0, 1, 2, 1, 0, 1, 2);
    assert_tensor(eh_norm(spd64, EH_NORM_2, NULL, 0, 0), EH_F64, 0, SHAPE(1),
                  V(3.414213562373095), 0, 1e-14);
    assert_tensor(eh_norm(spd64, EH_NORM_NUC, NULL, 0, 0), EH_F64, 0, SHAPE(1), V(6), 0, 1e-14);
    /* batch of two 2x2 over axes (1, 2), and over (0, 2) */
    eh_tensor *bt = T_F64(SHAPE(2, 2, 2), 1, 0, 0, 1, 2, 0, 0, -3);
    assert_tensor(eh_norm(bt, EH_NORM_2, AX(1, 2), 2, 0), EH_F64, 1, SHAPE(2), V(1, 3), 0, 1e-15);
    assert_tensor_exact(eh_norm(bt, EH_NORM_INF, AX(1, 2), 2, 1), EH_F64, 3, SHAPE(2, 1, 1),
                        V(1, 3));
    /* axes (0, 2): matrices [[1,0],[2,0]] (j=0) and [[0,1],[0,-3]] (j=1);
     * 1-norm: max column sums (3, 4); inf: max row sums (2, 3) */
    assert_tensor_exact(eh_norm(bt, EH_NORM_1, AX(0, 2), 2, 0), EH_F64, 1, SHAPE(2), V(3, 4));
    assert_tensor_exact(eh_norm(bt, EH_NORM_INF, AX(0, 2), 2, 0), EH_F64, 1, SHAPE(2), V(2, 3));
    /* fro over three axes (NumPy's ord=None flattening): sqrt(1+1+4+9) */
    assert_tensor(eh_norm(bt, EH_NORM_FRO, NULL, 0, 0), EH_F64, 0, SHAPE(1), V(sqrt(15.0)), 0,
                  1e-15);
    /* scaling: entries whose squares overflow */
    eh_tensor *big = T_F64(SHAPE(2, 2), 1e300, 0, 0, -1e300);
    assert_tensor(eh_norm(big, EH_NORM_2, NULL, 0, 0), EH_F64, 0, SHAPE(1), V(1e300), 0, 1e-14);
    assert_tensor(eh_norm(big, EH_NORM_FRO, NULL, 0, 0), EH_F64, 0, SHAPE(1),
                  V(1.4142135623730951e300), 0, 1e-15);
    /* specials in SVD norms */
    eh_tensor *n = T_F64(SHAPE(2, 2), 1, NAN, INFINITY, 1);
    assert_tensor_exact(eh_norm(n, EH_NORM_2, NULL, 0, 0), EH_F64, 0, SHAPE(1), V(NAN));
    eh_tensor *in = T_F64(SHAPE(2, 2), 1, 0, INFINITY, 1);
    assert_tensor_exact(eh_norm(in, EH_NORM_NUC, NULL, 0, 0), EH_F64, 0, SHAPE(1), V(INFINITY));
    eh_tensor *z = T_F32(SHAPE(2, 2), 0, 0, 0, 0);
    assert_tensor_exact(eh_norm(z, EH_NORM_2, NULL, 0, 0), EH_F32, 0, SHAPE(1), V(0));
    eh_scope_end();
}

/* 2-norms of values at the top of the f64 range: the power-of-two scale of
 * max|x| >= 2^1023 would be 2^1024, which overflows (it once made ref
 * return NaN and blas inf, where the norm is finite). */
static void test_norm_near_max(void **state)
{
    (void)state;
    eh_scope_begin();
    eh_tensor *one = T_F64(SHAPE(1), 1e308);
    assert_tensor(eh_norm(one, EH_NORM_2, NULL, 0, 0), EH_F64, 0, SHAPE(1), V(1e308), 0, 1e-15);
    assert_tensor(eh_norm(one, EH_NORM_FRO, NULL, 0, 0), EH_F64, 0, SHAPE(1), V(1e308), 0,
                  1e-15);
    /* DBL_MAX alone; 2^1023 (frexp's exponent 1024) */
    eh_tensor *mx = T_F64(SHAPE(2), -DBL_MAX, 0);
    assert_tensor_exact(eh_norm(mx, EH_NORM_2, NULL, 0, 0), EH_F64, 0, SHAPE(1), V(DBL_MAX));
    eh_tensor *p = T_F64(SHAPE(1), 0x1p1023);
    assert_tensor_exact(eh_norm(p, EH_NORM_FRO, NULL, 0, 0), EH_F64, 0, SHAPE(1), V(0x1p1023));
    /* sqrt(2) * 1e308 = 1.4142135623730951e308 (python3 math) is finite;
     * sqrt(2) * 1.5e308 is not: inf, as the exact norm overflows */
    eh_tensor *two = T_F64(SHAPE(3, 2), 1e308, 1e308, -1e308, 3e307, 1e308, 1e308);
    eh_tensor *rows = eh_norm(two, EH_NORM_2, AX(1), 1, 0);
    assert_tensor(rows, EH_F64, 1, SHAPE(3), V(1.4142135623730951e308, 1.0440306508910550e308,
                                               1.4142135623730951e308), 0, 1e-15);
    eh_tensor *over = T_F64(SHAPE(2), 1.5e308, -1.5e308);
    assert_tensor_exact(eh_norm(over, EH_NORM_2, NULL, 0, 0), EH_F64, 0, SHAPE(1),
                        V(INFINITY));
    /* a longer vector (blas's vectorized passes): 1e308 and 999 x 1e300,
     * 1e308 * sqrt(1 + 999e-16) = 1.00000000000005e308 (python3 math) */
    const eh_tensor *parts[2] = {one, eh_full(1, SHAPE(999), 1e300, EH_F64)};
    eh_tensor *lv = eh_concatenate(parts, 2, 0);
    assert_tensor(eh_norm(lv, EH_NORM_FRO, NULL, 0, 0), EH_F64, 0, SHAPE(1),
                  V(1.00000000000005e308), 0, 1e-15);
    /* matrix 2 and nuclear norms (SVD of the scaled matrix) */
    eh_tensor *m = T_F64(SHAPE(2, 2), 1e308, 0, 0, 5e307);
    assert_tensor(eh_norm(m, EH_NORM_2, NULL, 0, 0), EH_F64, 0, SHAPE(1), V(1e308), 0, 1e-15);
    assert_tensor(eh_norm(m, EH_NORM_NUC, NULL, 0, 0), EH_F64, 0, SHAPE(1), V(1.5e308), 0,
                  1e-15);
    eh_scope_end();
}

static void test_norm_matrix_empty(void **state)
{
    (void)state;
    eh_scope_begin();
    /* as NumPy: 1 reduces the column sums with max (needs columns), inf and
     * -inf the row sums (need rows), 2 the singular values (needs both) */
    eh_tensor *r0 = empty_t(EH_F64, 2, SHAPE(0, 3));
    assert_tensor_exact(eh_norm(r0, EH_NORM_1, NULL, 0, 0), EH_F64, 0, SHAPE(1), V(0));
    assert_failed(eh_norm(r0, EH_NORM_INF, NULL, 0, 0), EH_ERR_SHAPE, "empty matrix");
    assert_failed(eh_norm(r0, EH_NORM_2, NULL, 0, 0), EH_ERR_SHAPE, "(0, 3)");
    assert_tensor_exact(eh_norm(r0, EH_NORM_NUC, NULL, 0, 0), EH_F64, 0, SHAPE(1), V(0));
    assert_tensor_exact(eh_norm(r0, EH_NORM_FRO, NULL, 0, 0), EH_F64, 0, SHAPE(1), V(0));
    eh_tensor *c0 = empty_t(EH_F32, 2, SHAPE(3, 0));
    assert_failed(eh_norm(c0, EH_NORM_1, NULL, 0, 0), EH_ERR_SHAPE, "axis 1");
    assert_tensor_exact(eh_norm(c0, EH_NORM_INF, NULL, 0, 0), EH_F32, 0, SHAPE(1), V(0));
    assert_tensor_exact(eh_norm(c0, EH_NORM_NEG_INF, NULL, 0, 0), EH_F32, 0, SHAPE(1), V(0));
    /* empty batch: nothing to compute */
    eh_tensor *b0 = empty_t(EH_F64, 3, SHAPE(0, 2, 2));
    assert_tensor_exact(eh_norm(b0, EH_NORM_2, AX(1, 2), 2, 0), EH_F64, 1, SHAPE(0), NULL);
    eh_scope_end();
}

static void test_norm_errors(void **state)
{
    (void)state;
    eh_scope_begin();
    eh_tensor *v = T_F64(SHAPE(3), 1, 2, 3);
    assert_failed(eh_norm(v, (eh_norm_ord)17, NULL, 0, 0), EH_ERR_INVALID_ARG, "17");
    assert_failed(eh_norm(v, (eh_norm_ord)-1, NULL, 0, 0), EH_ERR_INVALID_ARG, "eh_norm_ord");
    assert_failed(eh_norm(v, EH_NORM_NUC, NULL, 0, 0), EH_ERR_INVALID_ARG, "matrix norm");
    eh_tensor *t = iota(EH_F64, 3, SHAPE(2, 2, 2));
    assert_failed(eh_norm(t, EH_NORM_2, NULL, 0, 0), EH_ERR_SHAPE, "(2, 2, 2)");
    assert_failed(eh_norm(t, EH_NORM_1, AX(0, 1, 2), 3, 0), EH_ERR_AXIS, "got 3");
    assert_failed(eh_norm(t, EH_NORM_2, AX(0, 3), 2, 0), EH_ERR_AXIS, "out of range");
    assert_failed(eh_norm(t, EH_NORM_2, AX(1, -2), 2, 0), EH_ERR_AXIS, "repeated");
    assert_failed(eh_norm(NULL, EH_NORM_2, NULL, 0, 0), EH_ERR_NULL_ARG, "norm");
    eh_scope_end();
}

/* ---- allclose ------------------------------------------------------------------- */

static void test_allclose(void **state)
{
    (void)state;
    eh_scope_begin();
    eh_tensor *a = T_F64(SHAPE(3), 1, 2, 3);
    eh_tensor *b = T_F64(SHAPE(3), 1, 2, 3.00001);
    eh_tensor *r = eh_allclose(a, b, 1e-5, 1e-8, 0);
    assert_tensor_exact(r, EH_BOOL, 0, SHAPE(1), V(1));
    assert_int_equal(eh_allclose_int(a, b, 1e-7, 0, 0), 0);
    assert_int_equal(eh_allclose_int(a, b, 0, 2e-5, 0), 1);
    assert_int_equal(eh_allclose_int(a, b, 0, 0, 0), 0);
    assert_int_equal(eh_allclose_int(a, a, 0, 0, 0), 1);
    /* not symmetric: |a - b| <= rtol * |b| */
    eh_tensor *two = eh_scalar(2, EH_F64), *one = eh_scalar(1, EH_F64);
    assert_int_equal(eh_allclose_int(two, one, 0.5, 0, 0), 0); /* 1 <= 0.5 */
    assert_int_equal(eh_allclose_int(one, two, 0.5, 0, 0), 1); /* 1 <= 1 */
    /* broadcasting, mixed dtypes */
    eh_tensor *m = t_from(EH_I32, 2, SHAPE(2, 3), V(1, 2, 3, 1, 2, 3));
    assert_int_equal(eh_allclose_int(m, a, 0, 0, 0), 1);
    eh_tensor *c = T_F32(SHAPE(2, 1), 1, 1);
    assert_int_equal(eh_allclose_int(c, m, 0, 0, 0), 0);
    eh_tensor *ones = t_from(EH_BOOL, 2, SHAPE(2, 1), V(1, 1));
    assert_int_equal(eh_allclose_int(c, ones, 0, 0, 0), 1);
    /* NaN: only with equal_nan; infinities equal when the same sign */
    eh_tensor *n1 = T_F64(SHAPE(3), NAN, INFINITY, -INFINITY);
    eh_tensor *n2 = T_F64(SHAPE(3), NAN, INFINITY, -INFINITY);
    assert_int_equal(eh_allclose_int(n1, n2, 1e-5, 1e-8, 0), 0);
    assert_int_equal(eh_allclose_int(n1, n2, 1e-5, 1e-8, 1), 1);
    eh_tensor *i1 = T_F64(SHAPE(1), INFINITY), *i2 = T_F64(SHAPE(1), -INFINITY);
    eh_tensor *f1 = T_F64(SHAPE(1), 1e308);
    assert_int_equal(eh_allclose_int(i1, i2, 1, 1, 0), 0);
    assert_int_equal(eh_allclose_int(f1, i1, 1, 1, 0), 0); /* b infinite, a finite */
    assert_int_equal(eh_allclose_int(i1, f1, 1, 1, 0), 0); /* |inf - 1e308| = inf > 1e308 + 1 */
    /* empty: vacuously true; 0-d */
    eh_tensor *e = empty_t(EH_F64, 2, SHAPE(0, 3));
    assert_int_equal(eh_allclose_int(e, a, 0, 0, 0), 1);
    eh_tensor *s = eh_scalar(3, EH_F16);
    assert_int_equal(eh_allclose_int(s, s, 0, 0, 0), 1);
    /* errors */
    eh_tensor *bad = T_F64(SHAPE(2), 1, 2);
    assert_failed(eh_allclose(a, bad, 1e-5, 1e-8, 0), EH_ERR_SHAPE, "(3,) and (2,)");
    assert_int_equal(eh_allclose_int(a, bad, 1e-5, 1e-8, 0), -1);
    assert_int_equal(eh_last_error(), EH_ERR_SHAPE);
    eh_clear_error();
    assert_failed(eh_allclose(NULL, a, 1e-5, 1e-8, 0), EH_ERR_NULL_ARG, "'a'");
    assert_failed(eh_allclose(a, NULL, 1e-5, 1e-8, 0), EH_ERR_NULL_ARG, "'b'");
    eh_scope_end();
}

/* ---- argument errors shared by the axes-set reductions ------------------------------ */

typedef eh_tensor *(*axes_fn)(const eh_tensor *, const int *, int, int);

static eh_tensor *var1(const eh_tensor *x, const int *a, int n, int k) { return eh_var(x, a, n, 1, k); }
static eh_tensor *std1(const eh_tensor *x, const int *a, int n, int k) { return eh_std(x, a, n, 1, k); }
static eh_tensor *norm_fro(const eh_tensor *x, const int *a, int n, int k)
{
    return eh_norm(x, EH_NORM_FRO, a, n, k);
}

static void test_axes_errors(void **state)
{
    (void)state;
    static const struct { axes_fn fn; const char *name; } fns[] = {
        {eh_sum, "sum"}, {eh_prod, "prod"}, {eh_mean, "mean"}, {eh_max, "max"},
        {eh_min, "min"}, {var1, "var"}, {std1, "std"}, {eh_logsumexp, "logsumexp"},
        {norm_fro, "norm"},
    };
    eh_scope_begin();
    eh_tensor *x = T_F64(SHAPE(2, 3), 1, 2, 3, 4, 5, 6);
    eh_tensor *s = eh_scalar(1, EH_F64);
    char needle[64];
    for (size_t k = 0; k < sizeof fns / sizeof fns[0]; k++) {
        axes_fn fn = fns[k].fn;
        snprintf(needle, sizeof needle, "%s: axis 2 is out of range", fns[k].name);
        assert_failed(fn(x, AX(2), 1, 0), EH_ERR_AXIS, needle);
        assert_failed(fn(x, AX(-3), 1, 0), EH_ERR_AXIS, "x has shape (2, 3)");
        snprintf(needle, sizeof needle, "%s: axis -1 is repeated", fns[k].name);
        assert_failed(fn(x, AX(1, -1), 2, 0), EH_ERR_AXIS, needle);
        assert_failed(fn(x, AX(0, 1, 0), 3, 0), EH_ERR_AXIS, "3 axes");
        assert_failed(fn(x, AX(0), -1, 0), EH_ERR_AXIS, "negative");
        assert_failed(fn(x, NULL, 1, 0), EH_ERR_NULL_ARG, "'axes'");
        assert_failed(fn(s, AX(0), 1, 0), EH_ERR_AXIS, "0 dimensions");
        snprintf(needle, sizeof needle, "%s: argument 'x' is NULL", fns[k].name);
        assert_failed(fn(NULL, NULL, 0, 0), EH_ERR_NULL_ARG, needle);
        /* an earlier error is kept: nested calls report the first failure */
        assert_null(eh_sum(x, AX(5), 1, 0));
        assert_failed(fn(NULL, NULL, 0, 0), EH_ERR_AXIS, "sum: axis 5");
    }
    eh_scope_end();
}

static void test_single_axis_errors(void **state)
{
    (void)state;
    eh_scope_begin();
    eh_tensor *x = T_F64(SHAPE(2, 3), 1, 2, 3, 4, 5, 6);
    assert_failed(eh_argmax(x, 2, 0), EH_ERR_AXIS, "argmax: axis 2 is out of range");
    assert_failed(eh_argmin(x, -3, 0), EH_ERR_AXIS, "(2, 3)");
    assert_failed(eh_softmax(x, 5), EH_ERR_AXIS, "softmax: axis 5");
    assert_failed(eh_log_softmax(x, -9), EH_ERR_AXIS, "log_softmax: axis -9");
    assert_failed(eh_argmax(NULL, 0, 0), EH_ERR_NULL_ARG, "argmax");
    assert_failed(eh_argmin(NULL, 0, 0), EH_ERR_NULL_ARG, "argmin");
    assert_failed(eh_cumsum(NULL, 0), EH_ERR_NULL_ARG, "cumsum");
    assert_failed(eh_cumprod(NULL, 0), EH_ERR_NULL_ARG, "cumprod");
    assert_failed(eh_softmax(NULL, 0), EH_ERR_NULL_ARG, "softmax");
    assert_failed(eh_log_softmax(NULL, 0), EH_ERR_NULL_ARG, "log_softmax");
    assert_failed(eh_argmax_flat(NULL, 0), EH_ERR_NULL_ARG, "argmax");
    assert_failed(eh_argmin_flat(NULL, 1), EH_ERR_NULL_ARG, "argmin");
    assert_failed(eh_cumsum_flat(NULL), EH_ERR_NULL_ARG, "cumsum");
    assert_failed(eh_cumprod_flat(NULL), EH_ERR_NULL_ARG, "cumprod");
    assert_failed(eh_softmax_flat(NULL), EH_ERR_NULL_ARG, "softmax");
    assert_failed(eh_log_softmax_flat(NULL), EH_ERR_NULL_ARG, "log_softmax");
    /* no magic axis values: INT_MIN is just out of range */
    assert_failed(eh_argmax(x, INT_MIN, 0), EH_ERR_AXIS, "out of range");
    assert_failed(eh_cumsum(x, INT_MIN), EH_ERR_AXIS, "out of range");
    eh_tensor *s = eh_scalar(1, EH_I32);
    assert_failed(eh_argmax(s, 0, 0), EH_ERR_AXIS, "0 dimensions");
    eh_scope_end();
}

/* Run `expr` with the nth allocation failing, disarm, expect EH_ERR_NOMEM. */
#define ASSERT_NOMEM(nth, expr)                                                    \
    do {                                                                           \
        eh__test_fail_alloc(nth);                                                  \
        eh_tensor *r_ = (expr);                                                    \
        eh__test_fail_alloc(0);                                                    \
        assert_failed(r_, EH_ERR_NOMEM, NULL);                                     \
    } while (0)

static void test_out_of_memory(void **state)
{
    (void)state;
    eh_scope_begin();
    eh_tensor *x = T_F64(SHAPE(2, 3), 1, 2, 3, 4, 5, 6);
    eh_tensor *i = t_from(EH_I32, 1, SHAPE(3), V(1, 2, 3));
    /* allocation 1 is a tensor header (the cast or the output) on every
     * backend; allocation 2 is storage, which only an eager backend
     * allocates during the call */
    const char *backend = eh_get_backend();
    int eager = backend && strcmp(backend, "ref") == 0;
    for (int nth = 1; nth <= (eager ? 2 : 1); nth++) {
        ASSERT_NOMEM(nth, eh_sum(x, AX(0), 1, 0));
        ASSERT_NOMEM(nth, eh_cumsum(i, 0)); /* the cast i32 -> i64 first */
        ASSERT_NOMEM(nth, eh_allclose(x, i, 0, 0, 0));
        ASSERT_NOMEM(nth, eh_norm(x, EH_NORM_2, NULL, 0, 0));
        ASSERT_NOMEM(nth, eh_argmax_flat(x, 0));
    }
    eh_scope_end();
}

/* Enough lanes to be split across threads (the ref kernels hand chunks of
 * ~32k elements to eh_parallel_for); every value is checked against a
 * closed form.  x[i][j] = 200 i + j, i < 300, j < 200. */
static void test_many_lanes(void **state)
{
    (void)state;
    enum { R = 300, C = 200 };
    static double v[R * C];
    for (int i = 0; i < R; i++)
        for (int j = 0; j < C; j++)
            v[i * C + j] = 200.0 * i + j;
    eh_scope_begin();
    eh_tensor *x = eh_convert_to_tensor(v, 2, SHAPE(R, C), EH_F64);
    eh_tensor *xi = eh_cast(x, EH_I32);
    eh_tensor *rows = eh_sum(x, AX(1), 1, 0);
    eh_tensor *am = eh_argmax(x, 0, 0);
    eh_tensor *vr = eh_var(xi, AX(1), 1, 0, 0);
    eh_tensor *cs = eh_cumsum(xi, 0);
    eh_tensor *sm = eh_softmax(x, 1);
    assert_non_null(rows);
    assert_non_null(am);
    assert_non_null(vr);
    assert_non_null(cs);
    assert_non_null(sm);
    const double *r = eh_data_f64(rows), *var = eh_data_f64(vr), *p = eh_data_f64(sm);
    const int64_t *a = eh_data_i64(am), *c = eh_data_i64(cs);
    /* var of 0..199 is (200^2 - 1) / 12 */
    for (int i = 0; i < R; i++) {
        assert_true(r[i] == 40000.0 * i + 19900.0);
        assert_true(fabs(var[i] - 39999.0 / 12.0) <= 1e-9);
    }
    for (int j = 0; j < C; j++)
        assert_int_equal(a[j], R - 1);
    for (int i = 0; i < R; i++)
        for (int j = 0; j < C; j++) {
            /* sum_{i' <= i} 200 i' + j */
            assert_true(c[i * C + j] == (int64_t)100 * i * (i + 1) + (int64_t)(i + 1) * j);
            /* softmax of (j) along a row: e^(j - 199) / sum_k e^(k - 199) */
            double denom = (1.0 - exp(-200.0)) / (1.0 - exp(-1.0));
            assert_true(fabs(p[i * C + j] - exp(j - 199.0) / denom) <= 1e-15);
        }
    eh_scope_end();
}

/* Results computed through a scope survive when kept; nothing leaks. */
static void test_scope_nesting(void **state)
{
    (void)state;
    eh_tensor *x = T_F64(SHAPE(2, 2), 1, 2, 3, 4);
    eh_scope_begin();
    /* mean of the row sums of softmax is 1 */
    eh_tensor *r = eh_keep(eh_mean(eh_sum(eh_softmax(x, 1), AX(1), 1, 0), NULL, 0, 0));
    eh_scope_end();
    assert_tensor(r, EH_F64, 0, SHAPE(1), V(1), 0, 1e-15);
    eh_release(r);
    eh_release(x);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        EH_TEST(test_sum_axes),
        EH_TEST(test_sum_dtypes),
        EH_TEST(test_sum_accuracy_and_specials),
        EH_TEST(test_sum_prod_empty),
        EH_TEST(test_prod),
        EH_TEST(test_mean),
        EH_TEST(test_max_min_values),
        EH_TEST(test_max_min_empty),
        EH_TEST(test_var_std),
        EH_TEST(test_var_edge_cases),
        EH_TEST(test_argmax_argmin),
        EH_TEST(test_argmax_nan_and_empty),
        EH_TEST(test_cumsum_cumprod),
        EH_TEST(test_cumsum_edge),
        EH_TEST(test_logsumexp),
        EH_TEST(test_softmax),
        EH_TEST(test_log_softmax),
        EH_TEST(test_norm_vector),
        EH_TEST(test_norm_matrix),
        EH_TEST(test_norm_near_max),
        EH_TEST(test_norm_matrix_empty),
        EH_TEST(test_norm_errors),
        EH_TEST(test_allclose),
        EH_TEST(test_axes_errors),
        EH_TEST(test_single_axis_errors),
        EH_TEST(test_out_of_memory),
        EH_TEST(test_many_lanes),
        EH_TEST(test_scope_nesting),
    };
    return EH_RUN_TESTS(tests);
}
