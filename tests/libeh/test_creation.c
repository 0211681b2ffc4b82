/* Tests of the creation ops: zeros, ones, full, *_like, copy, arange,
 * linspace, eye, triu_indices, tril_indices.
 *
 * Expected values are worked out by hand from the definitions in
 * docs/ops/creation.md, or (where marked) printed once with python3's
 * float arithmetic, which is IEEE double like NumPy's: e.g. the NumPy
 * results np.arange(0, 1, 0.1)[3] == 0.30000000000000004 and
 * len(np.arange(1, 1.3, 0.1)) == 4 are the well-known ones python3
 * reproduces as 3 * 0.1 and ceil((1.3 - 1) / 0.1).  f16 bit patterns are
 * decoded by hand: sign | 5-bit exponent (bias 15) | 10-bit mantissa. */
#include <float.h>
#include <math.h>
#include <string.h>
#include "eh_test.h"

static const eh_dtype all_dtypes[] = {EH_F16, EH_F32, EH_F64, EH_I32, EH_I64, EH_BOOL};
#define N_DTYPES 6

/* Exact int64 comparison (assert_tensor goes through double). */
static void expect_i64(eh_tensor *t, int ndim, const int64_t *shape, const int64_t *want)
{
    assert_non_null(t);
    assert_int_equal(eh_get_dtype(t), EH_I64);
    assert_int_equal(eh_ndim(t), ndim);
    int64_t n = 1;
    for (int d = 0; d < ndim; d++) {
        assert_int_equal(eh_shape(t)[d], shape[d]);
        n *= shape[d];
    }
    const int64_t *data = eh_data_i64(t);
    assert_non_null(data);
    for (int64_t k = 0; k < n; k++)
        if (data[k] != want[k])
            fail_msg("element %lld is %lld, expected %lld", (long long)k, (long long)data[k],
                     (long long)want[k]);
}

/* ---- zeros, ones, full ------------------------------------------------ */

static void test_zeros_ones_every_dtype(void **state)
{
    (void)state;
    const double z[6] = {0, 0, 0, 0, 0, 0}, o[6] = {1, 1, 1, 1, 1, 1};
    for (int d = 0; d < N_DTYPES; d++) {
        eh_tensor *a = eh_zeros(2, SHAPE(2, 3), all_dtypes[d]);
        eh_tensor *b = eh_ones(2, SHAPE(3, 2), all_dtypes[d]);
        assert_tensor_exact(a, all_dtypes[d], 2, SHAPE(2, 3), z);
        assert_tensor_exact(b, all_dtypes[d], 2, SHAPE(3, 2), o);
        if (all_dtypes[d] == EH_F16) { /* +0 and 1.0 as bits */
            assert_f16_bits(a, 6, (const uint16_t[]){0, 0, 0, 0, 0, 0});
            assert_f16_bits(b, 6, (const uint16_t[]){0x3c00, 0x3c00, 0x3c00, 0x3c00, 0x3c00, 0x3c00});
        }
        if (all_dtypes[d] == EH_F64) /* +0.0, not -0.0 */
            assert_false(signbit(t_at(a, 0)));
        eh_release(a);
        eh_release(b);
    }
}

static void test_zeros_ones_0d_and_empty(void **state)
{
    (void)state;
    eh_tensor *s = eh_ones(0, NULL, EH_I64);
    assert_tensor_exact(s, EH_I64, 0, NULL, ((const double[]){1}));
    eh_tensor *e = eh_zeros(3, SHAPE(2, 0, 4), EH_F32);
    assert_tensor_exact(e, EH_F32, 3, SHAPE(2, 0, 4), NULL);
    assert_int_equal(eh_size(e), 0);
    eh_tensor *e2 = eh_ones(1, SHAPE(0), EH_BOOL);
    assert_tensor_exact(e2, EH_BOOL, 1, SHAPE(0), NULL);
    eh_tensor *big = eh_ones(1, SHAPE(1000), EH_F64); /* the doubling fill */
    assert_non_null(big);
    for (int k = 0; k < 1000; k++)
        assert_true(t_at(big, k) == 1.0);
    eh_release(s);
    eh_release(e);
    eh_release(e2);
    eh_release(big);
}

static void test_full_values(void **state)
{
    (void)state;
    eh_tensor *t;
    t = eh_full(2, SHAPE(2, 2), 2.5, EH_F64);
    assert_tensor_exact(t, EH_F64, 2, SHAPE(2, 2), ((const double[]){2.5, 2.5, 2.5, 2.5}));
    eh_release(t);
    t = eh_full(1, SHAPE(3), -0.75, EH_F32);
    assert_tensor_exact(t, EH_F32, 1, SHAPE(3), ((const double[]){-0.75, -0.75, -0.75}));
    eh_release(t);
    t = eh_full(1, SHAPE(2), 2.5, EH_F16); /* 2.5 = 1.25 * 2^1: 0 10000 0100000000 */
    assert_f16_bits(t, 2, (const uint16_t[]){0x4100, 0x4100});
    eh_release(t);
    t = eh_full(1, SHAPE(2), 2.7, EH_I32); /* truncation toward zero */
    assert_tensor_exact(t, EH_I32, 1, SHAPE(2), ((const double[]){2, 2}));
    eh_release(t);
    t = eh_full(1, SHAPE(2), -2.7, EH_I64);
    assert_tensor_exact(t, EH_I64, 1, SHAPE(2), ((const double[]){-2, -2}));
    eh_release(t);
    t = eh_full(1, SHAPE(2), 0.5, EH_BOOL);
    assert_tensor_exact(t, EH_BOOL, 1, SHAPE(2), ((const double[]){1, 1}));
    eh_release(t);
    t = eh_full(1, SHAPE(2), 0.0, EH_BOOL);
    assert_tensor_exact(t, EH_BOOL, 1, SHAPE(2), ((const double[]){0, 0}));
    eh_release(t);
    t = eh_full(0, NULL, 7.0, EH_I32);
    assert_tensor_exact(t, EH_I32, 0, NULL, ((const double[]){7}));
    eh_release(t);
    t = eh_full(2, SHAPE(0, 3), 7.0, EH_F64);
    assert_tensor_exact(t, EH_F64, 2, SHAPE(0, 3), NULL);
    eh_release(t);
}

/* full converts its value as eh_cast does: saturation, NaN -> 0, != 0. */
static void test_full_conversions(void **state)
{
    (void)state;
    const double vals[] = {NAN, 1e10, -1e10, INFINITY, -INFINITY, 1e300, -0.9};
    const double want_i32[] = {0, INT32_MAX, INT32_MIN, INT32_MAX, INT32_MIN, INT32_MAX, 0};
    const int64_t want_i64[] = {0, 10000000000LL, -10000000000LL, INT64_MAX, INT64_MIN,
                                INT64_MAX, 0};
    const double want_bool[] = {1, 1, 1, 1, 1, 1, 1};
    for (int k = 0; k < 7; k++) {
        eh_tensor *a = eh_full(1, SHAPE(1), vals[k], EH_I32);
        eh_tensor *b = eh_full(1, SHAPE(1), vals[k], EH_I64);
        eh_tensor *c = eh_full(1, SHAPE(1), vals[k], EH_BOOL);
        assert_tensor_exact(a, EH_I32, 1, SHAPE(1), &want_i32[k]);
        expect_i64(b, 1, SHAPE(1), &want_i64[k]);
        assert_tensor_exact(c, EH_BOOL, 1, SHAPE(1), &want_bool[k]);
        eh_release(a);
        eh_release(b);
        eh_release(c);
    }
    /* f32: beyond FLT_MAX, below FLT_MAX + half an ulp = 2^128 - 2^103
     * (3.4028235677973366e38, python3) rounds to FLT_MAX; from there on
     * to inf (the tie goes to the even 2^128) */
    eh_tensor *f = eh_full(1, SHAPE(1), 3.40282350e38, EH_F32);
    assert_true(t_at(f, 0) == FLT_MAX);
    eh_release(f);
    f = eh_full(1, SHAPE(1), 3.4028235677973366e38, EH_F32);
    assert_true(isinf(t_at(f, 0)) && t_at(f, 0) > 0);
    eh_release(f);
    f = eh_full(1, SHAPE(1), -1e300, EH_F32);
    assert_true(isinf(t_at(f, 0)) && t_at(f, 0) < 0);
    eh_release(f);
    f = eh_full(1, SHAPE(1), NAN, EH_F32);
    assert_true(isnan(t_at(f, 0)));
    eh_release(f);
    /* f16, rounded once from the double: 1 + 2^-11 + 2^-40 is above the
     * midpoint of 1 and 1 + 2^-10, so 0x3c01 (through float it would tie
     * and give 0x3c00); 65520 is the tie between 65504 and 2^16: inf */
    const double hv[] = {1.0 + 0x1p-11 + 0x1p-40, 1.0 + 0x1p-11, 65504, 65520, -70000, 0x1p-24,
                         0x1p-25, -0.0};
    const uint16_t hw[] = {0x3c01, 0x3c00, 0x7bff, 0x7c00, 0xfc00, 0x0001, 0x0000, 0x8000};
    for (int k = 0; k < 8; k++) {
        eh_tensor *h = eh_full(0, NULL, hv[k], EH_F16);
        assert_f16_bits(h, 1, &hw[k]);
        eh_release(h);
    }
}

static void test_filled_errors(void **state)
{
    (void)state;
    assert_failed(eh_zeros(2, SHAPE(2, -1), EH_F32), EH_ERR_NEGATIVE_SIZE, "zeros: negative dimension in shape (2, -1)");
    assert_failed(eh_ones(1, SHAPE(-3), EH_I32), EH_ERR_NEGATIVE_SIZE, "ones:");
    assert_failed(eh_full(1, SHAPE(-3), 1.0, EH_I32), EH_ERR_NEGATIVE_SIZE, "full:");
    assert_failed(eh_zeros(9, SHAPE(1, 1, 1, 1, 1, 1, 1, 1, 1), EH_F32), EH_ERR_SHAPE, "9 dimensions");
    assert_failed(eh_ones(-1, SHAPE(1), EH_F32), EH_ERR_SHAPE, "-1 dimensions");
    assert_failed(eh_zeros(2, NULL, EH_F32), EH_ERR_NULL_ARG, "'shape'");
    assert_failed(eh_zeros(1, SHAPE(2), (eh_dtype)42), EH_ERR_DTYPE, "zeros: 42 is not a dtype");
    assert_failed(eh_full(1, SHAPE(2), 0.0, (eh_dtype)-1), EH_ERR_DTYPE, "full: -1 is not a dtype");
    assert_failed(eh_ones(1, SHAPE(2), EH_DTYPE_COUNT), EH_ERR_DTYPE, "not a dtype");
    assert_failed(eh_zeros(2, SHAPE(INT64_C(1) << 62, 4), EH_BOOL), EH_ERR_OVERFLOW, "INT64_MAX");
    assert_failed(eh_zeros(1, SHAPE(INT64_C(1) << 60), EH_F64), EH_ERR_OVERFLOW, "bytes");
}

static void test_nomem(void **state)
{
    (void)state;
    /* allocation 1 is the output's header, 2 its storage (eager backends) */
    eh__test_fail_alloc(1);
    assert_failed(eh_zeros(1, SHAPE(4), EH_F32), EH_ERR_NOMEM, "zeros");
    eh__test_fail_alloc(1);
    assert_failed(eh_arange(0, 4, 1, EH_I64), EH_ERR_NOMEM, "arange: out of memory");
    eh__test_fail_alloc(1);
    assert_failed(eh_tril_indices(3, 0, 3), EH_ERR_NOMEM, "tril_indices: out of memory");
    eh_tensor *x = eh_ones(1, SHAPE(3), EH_I32);
    eh__test_fail_alloc(1);
    assert_failed(eh_zeros_like(x), EH_ERR_NOMEM, "zeros_like");
    eh__test_fail_alloc(1);
    assert_failed(eh_copy(x), EH_ERR_NOMEM, "copy: out of memory");
    eh__test_fail_alloc(0);
    if (!backend_is_eager()) {
        eh_release(x);
        return;
    }
    eh__test_fail_alloc(2);
    assert_failed(eh_full(1, SHAPE(4), 1.0, EH_F32), EH_ERR_NOMEM, "out of memory");
    eh__test_fail_alloc(2);
    assert_failed(eh_arange(0, 4, 1, EH_I64), EH_ERR_NOMEM, "out of memory");
    eh__test_fail_alloc(2);
    assert_failed(eh_triu_indices(3, 0, 3), EH_ERR_NOMEM, "out of memory");
    eh__test_fail_alloc(2);
    assert_failed(eh_copy(x), EH_ERR_NOMEM, "out of memory");
    eh__test_fail_alloc(0);
    eh_release(x);
}

/* ---- *_like and copy --------------------------------------------------- */

static void test_like_ops(void **state)
{
    (void)state;
    eh_tensor *x = t_from(EH_I32, 2, SHAPE(2, 2), (const double[]){5, 6, 7, 8});
    eh_tensor *z = eh_zeros_like(x);
    eh_tensor *o = eh_ones_like(x);
    eh_tensor *f = eh_full_like(x, -3.9);
    assert_tensor_exact(z, EH_I32, 2, SHAPE(2, 2), ((const double[]){0, 0, 0, 0}));
    assert_tensor_exact(o, EH_I32, 2, SHAPE(2, 2), ((const double[]){1, 1, 1, 1}));
    assert_tensor_exact(f, EH_I32, 2, SHAPE(2, 2), ((const double[]){-3, -3, -3, -3}));
    assert_tensor_exact(x, EH_I32, 2, SHAPE(2, 2), ((const double[]){5, 6, 7, 8})); /* untouched */
    eh_release(z);
    eh_release(o);
    eh_release(f);
    eh_release(x);

    for (int d = 0; d < N_DTYPES; d++) {
        eh_tensor *s = eh_scalar(2.0, all_dtypes[d]);
        eh_tensor *fs = eh_full_like(s, 0.25);
        eh_tensor *os = eh_ones_like(s);
        double want = eh_dtype_is_float(all_dtypes[d]) ? 0.25 : all_dtypes[d] == EH_BOOL ? 1 : 0;
        assert_tensor_exact(fs, all_dtypes[d], 0, NULL, &want);
        assert_tensor_exact(os, all_dtypes[d], 0, NULL, ((const double[]){1}));
        eh_tensor *e = eh_zeros(2, SHAPE(3, 0), all_dtypes[d]);
        eh_tensor *ez = eh_ones_like(e);
        assert_tensor_exact(ez, all_dtypes[d], 2, SHAPE(3, 0), NULL);
        eh_release(s);
        eh_release(fs);
        eh_release(os);
        eh_release(e);
        eh_release(ez);
    }
    eh_tensor *h = eh_zeros(1, SHAPE(2), EH_F16);
    eh_tensor *hf = eh_full_like(h, 65504.0);
    assert_f16_bits(hf, 2, (const uint16_t[]){0x7bff, 0x7bff});
    eh_release(h);
    eh_release(hf);
}

static void test_like_errors(void **state)
{
    (void)state;
    assert_failed(eh_zeros_like(NULL), EH_ERR_NULL_ARG, "zeros_like: argument 'x' is NULL");
    assert_failed(eh_ones_like(NULL), EH_ERR_NULL_ARG, "ones_like: argument 'x'");
    assert_failed(eh_full_like(NULL, 1.0), EH_ERR_NULL_ARG, "full_like: argument 'x'");
    assert_failed(eh_copy(NULL), EH_ERR_NULL_ARG, "copy: argument 'x'");
    /* a nested failure keeps the first error */
    assert_failed(eh_zeros_like(eh_zeros(1, SHAPE(-1), EH_F32)), EH_ERR_NEGATIVE_SIZE, "zeros:");
    assert_failed(eh_copy(eh_arange(0, 1, 0, EH_F64)), EH_ERR_INVALID_ARG, "arange: step is 0");
}

static void test_copy(void **state)
{
    (void)state;
    const double v[4] = {1.5, -2, 0, 3};
    for (int d = 0; d < N_DTYPES; d++) {
        eh_dtype dt = all_dtypes[d];
        eh_tensor *x = t_from(dt, 2, SHAPE(2, 2), v);
        eh_tensor *c = eh_copy(x);
        assert_non_null(c);
        assert_true(c != x);
        double want[4];
        for (int k = 0; k < 4; k++)
            want[k] = t_at(x, k);
        assert_tensor_exact(c, dt, 2, SHAPE(2, 2), want);
        /* its own storage: writing x leaves c alone (c is evaluated) */
        char *xd = eh_data(x);
        assert_true(xd != eh_data(c));
        memset(xd, 0, eh_nbytes(x));
        assert_tensor_exact(c, dt, 2, SHAPE(2, 2), want);
        eh_release(x);
        eh_release(c);
    }
    eh_tensor *big = eh_convert_to_tensor((const int64_t[]){INT64_MAX, INT64_MIN + 1}, 1, SHAPE(2), EH_I64);
    eh_tensor *bc = eh_copy(big);
    expect_i64(bc, 1, SHAPE(2), (const int64_t[]){INT64_MAX, INT64_MIN + 1});
    eh_tensor *s = eh_scalar(NAN, EH_F32);
    eh_tensor *sc = eh_copy(s);
    assert_tensor_exact(sc, EH_F32, 0, NULL, ((const double[]){NAN}));
    eh_tensor *e = eh_zeros(2, SHAPE(0, 2), EH_I32);
    eh_tensor *ec = eh_copy(e);
    assert_tensor_exact(ec, EH_I32, 2, SHAPE(0, 2), NULL);
    eh_release(big);
    eh_release(bc);
    eh_release(s);
    eh_release(sc);
    eh_release(e);
    eh_release(ec);
}

/* ---- arange ----------------------------------------------------------- */

static void test_arange_float(void **state)
{
    (void)state;
    /* np.arange(0, 1, 0.1): i * 0.1 (python3 repr) */
    eh_tensor *a = eh_arange(0, 1, 0.1, EH_F64);
    assert_tensor_exact(a, EH_F64, 1, SHAPE(10),
                        ((const double[]){0.0, 0.1, 0.2, 0.30000000000000004, 0.4, 0.5,
                                          0.6000000000000001, 0.7000000000000001, 0.8, 0.9}));
    eh_release(a);
    /* np.arange(1, 1.3, 0.1): ceil(3.0000000000000004) = 4 values; delta
     * = (1 + 0.1) - 1 = 0.10000000000000009, so [2] = 1 + 2 * delta =
     * 1.2000000000000002, [3] = 1.3000000000000003 (python3) */
    a = eh_arange(1, 1.3, 0.1, EH_F64);
    assert_tensor_exact(a, EH_F64, 1, SHAPE(4),
                        ((const double[]){1.0, 1.1, 1.2000000000000002, 1.3000000000000003}));
    eh_release(a);
    /* descending: ceil(-5 / -1.5) = 4 */
    a = eh_arange(5, 0, -1.5, EH_F64);
    assert_tensor_exact(a, EH_F64, 1, SHAPE(4), ((const double[]){5, 3.5, 2, 0.5}));
    eh_release(a);
    /* an exact integer length stops before stop */
    a = eh_arange(-1, 2, 1, EH_F32);
    assert_tensor_exact(a, EH_F32, 1, SHAPE(3), ((const double[]){-1, 0, 1}));
    eh_release(a);
    a = eh_arange(0, 1, 0.25, EH_F32);
    assert_tensor_exact(a, EH_F32, 1, SHAPE(4), ((const double[]){0, 0.25, 0.5, 0.75}));
    eh_release(a);
    /* f16: 0, 0.5, 1, 1.5 = 0x0000 0x3800 0x3c00 0x3e00 */
    a = eh_arange(0, 2, 0.5, EH_F16);
    assert_f16_bits(a, 4, (const uint16_t[]){0x0000, 0x3800, 0x3c00, 0x3e00});
    eh_release(a);
    /* f32 rounds once from the double: [1] = (float)0.1 = 0x3dcccccd */
    a = eh_arange(0, 0.15, 0.1, EH_F32);
    assert_non_null(a);
    assert_int_equal(eh_size(a), 2);
    uint32_t bits;
    memcpy(&bits, &eh_data_f32(a)[1], 4);
    assert_int_equal(bits, 0x3dcccccdu);
    eh_release(a);
    /* empty */
    a = eh_arange(0, 0, 1, EH_F64);
    assert_tensor_exact(a, EH_F64, 1, SHAPE(0), NULL);
    eh_release(a);
    a = eh_arange(5, 0, 1, EH_F32);
    assert_tensor_exact(a, EH_F32, 1, SHAPE(0), NULL);
    eh_release(a);
    a = eh_arange(0, 5, -1, EH_I64);
    assert_tensor_exact(a, EH_I64, 1, SHAPE(0), NULL);
    eh_release(a);
    /* one element */
    a = eh_arange(2.5, 3, 10, EH_F64);
    assert_tensor_exact(a, EH_F64, 1, SHAPE(1), ((const double[]){2.5}));
    eh_release(a);
}

static void test_arange_int(void **state)
{
    (void)state;
    eh_tensor *a = eh_arange(-3, 3, 2, EH_I32);
    assert_tensor_exact(a, EH_I32, 1, SHAPE(3), ((const double[]){-3, -1, 1}));
    eh_release(a);
    a = eh_arange(10, 0, -3, EH_I64);
    expect_i64(a, 1, SHAPE(4), (const int64_t[]){10, 7, 4, 1});
    eh_release(a);
    /* a fractional stop is fine: ceil(10.5 / 5) = 3 */
    a = eh_arange(0, 10.5, 5, EH_I64);
    expect_i64(a, 1, SHAPE(3), (const int64_t[]){0, 5, 10});
    eh_release(a);
    /* exact beyond 2^53, where doubles have gaps of 2 */
    const int64_t p53 = INT64_C(9007199254740992);
    a = eh_arange(9007199254740992.0, 9007199254740996.0, 1, EH_I64);
    expect_i64(a, 1, SHAPE(4), (const int64_t[]){p53, p53 + 1, p53 + 2, p53 + 3});
    eh_release(a);
    /* the i32 range edge */
    a = eh_arange(2147483645.0, 2147483648.0, 1, EH_I32);
    assert_tensor_exact(a, EH_I32, 1, SHAPE(3), ((const double[]){2147483645, 2147483646, 2147483647}));
    eh_release(a);
    a = eh_arange(-2147483646.0, -2147483649.0, -1, EH_I32);
    assert_tensor_exact(a, EH_I32, 1, SHAPE(3), ((const double[]){-2147483646.0, -2147483647.0, -2147483648.0}));
    eh_release(a);
    /* the i64 range edges: 2^63 - 2048 + 2047 = INT64_MAX; a step of 2^63
     * (not an int64) from -2^63 reaches 0 */
    a = eh_arange(9223372036854773760.0, 9223372036854775808.0, 2047, EH_I64);
    expect_i64(a, 1, SHAPE(2), (const int64_t[]){INT64_MAX - 2047, INT64_MAX});
    eh_release(a);
    a = eh_arange(-9223372036854775808.0, 4611686018427387904.0, 9223372036854775808.0, EH_I64);
    expect_i64(a, 1, SHAPE(2), (const int64_t[]){INT64_MIN, 0});
    eh_release(a);
    a = eh_arange(0.0, -9223372036854775808.0, -4611686018427387904.0, EH_I64);
    expect_i64(a, 1, SHAPE(2), (const int64_t[]){0, -INT64_C(4611686018427387904)});
    eh_release(a);
    /* no values, so nothing to overflow */
    a = eh_arange(3e9, 0, 1, EH_I32);
    assert_tensor_exact(a, EH_I32, 1, SHAPE(0), NULL);
    eh_release(a);
}

static void test_arange_errors(void **state)
{
    (void)state;
    assert_failed(eh_arange(0, 1, 0, EH_F64), EH_ERR_INVALID_ARG, "arange: step is 0");
    assert_failed(eh_arange(0, 1, -0.0, EH_I32), EH_ERR_INVALID_ARG, "step is 0");
    assert_failed(eh_arange(NAN, 1, 1, EH_F64), EH_ERR_INVALID_ARG, "must be finite");
    assert_failed(eh_arange(0, INFINITY, 1, EH_F64), EH_ERR_INVALID_ARG, "must be finite");
    assert_failed(eh_arange(0, 1, NAN, EH_F32), EH_ERR_INVALID_ARG, "must be finite");
    assert_failed(eh_arange(-INFINITY, 1, 1, EH_I64), EH_ERR_INVALID_ARG, "must be finite");
    assert_failed(eh_arange(0.5, 5, 1, EH_I32), EH_ERR_INVALID_ARG, "must be integers for dtype i32");
    assert_failed(eh_arange(0, 5, 1.5, EH_I64), EH_ERR_INVALID_ARG, "must be integers for dtype i64");
    assert_failed(eh_arange(0, 2, 1, EH_BOOL), EH_ERR_DTYPE, "arange: not defined for bool");
    assert_failed(eh_arange(0, 2, 1, (eh_dtype)42), EH_ERR_DTYPE, "arange: 42 is not a dtype");
    /* lengths */
    assert_failed(eh_arange(0, 1e30, 1, EH_F64), EH_ERR_OVERFLOW, "INT64_MAX");
    assert_failed(eh_arange(-1e308, 1e308, 1e-300, EH_F64), EH_ERR_OVERFLOW, "INT64_MAX");
    assert_failed(eh_arange(0, 2e18, 1, EH_F64), EH_ERR_OVERFLOW, "bytes");
    /* values outside the integer dtype */
    assert_failed(eh_arange(2e9, 3e9, 1e8, EH_I32), EH_ERR_OVERFLOW, "do not fit i32");
    assert_failed(eh_arange(-2e9, -3e9, -1e8, EH_I32), EH_ERR_OVERFLOW, "do not fit i32");
    assert_failed(eh_arange(-3e9, 0, 1, EH_I32), EH_ERR_OVERFLOW, "start -3000000000 does not fit i32");
    assert_failed(eh_arange(2147483648.0, 2147483650.0, 1, EH_I32), EH_ERR_OVERFLOW, "does not fit i32");
    assert_failed(eh_arange(9223372036854775808.0, 1e19, 1e18, EH_I64), EH_ERR_OVERFLOW, "does not fit i64");
    /* 2^63 - 2048 + 2048 = 2^63 */
    assert_failed(eh_arange(9223372036854773760.0, 9223372036854777856.0, 2048, EH_I64),
                  EH_ERR_OVERFLOW, "2 values");
    assert_failed(eh_arange(0, 1e20, 1e19, EH_I64), EH_ERR_OVERFLOW, "10 values from 0 by 1e+19 do not fit i64");
    assert_failed(eh_arange(0, 1e20, 2e19, EH_I64), EH_ERR_OVERFLOW, "does not fit i64");
}

/* ---- linspace ---------------------------------------------------------- */

static void test_linspace_float(void **state)
{
    (void)state;
    eh_tensor *a = eh_linspace(0, 1, 5, 1, EH_F64);
    assert_tensor_exact(a, EH_F64, 1, SHAPE(5), ((const double[]){0, 0.25, 0.5, 0.75, 1}));
    eh_release(a);
    /* endpoint 0: step 0.2, [3] = 3 * 0.2 = 0.6000000000000001 (python3) */
    a = eh_linspace(0, 1, 5, 0, EH_F64);
    assert_tensor_exact(a, EH_F64, 1, SHAPE(5), ((const double[]){0, 0.2, 0.4, 0.6000000000000001, 0.8}));
    eh_release(a);
    /* k * (1/9), last exactly 1 (python3 repr of k * (1 / 9)) */
    a = eh_linspace(0, 1, 10, 1, EH_F64);
    assert_tensor_exact(a, EH_F64, 1, SHAPE(10),
                        ((const double[]){0.0, 0.1111111111111111, 0.2222222222222222,
                                          0.3333333333333333, 0.4444444444444444,
                                          0.5555555555555556, 0.6666666666666666,
                                          0.7777777777777777, 0.8888888888888888, 1.0}));
    eh_release(a);
    a = eh_linspace(1, 0, 3, 1, EH_F64);
    assert_tensor_exact(a, EH_F64, 1, SHAPE(3), ((const double[]){1, 0.5, 0}));
    eh_release(a);
    a = eh_linspace(-2, 2, 4, 0, EH_F32);
    assert_tensor_exact(a, EH_F32, 1, SHAPE(4), ((const double[]){-2, -1, 0, 1}));
    eh_release(a);
    /* f32 rounds the double once: (float)(1/9) = 0x3de38e39 (python3 struct) */
    a = eh_linspace(0, 1, 10, 1, EH_F32);
    uint32_t bits;
    memcpy(&bits, &eh_data_f32(a)[1], 4);
    assert_int_equal(bits, 0x3de38e39u);
    eh_release(a);
    /* f16 quarters: 0, 0.25, 0.5, 0.75, 1 */
    a = eh_linspace(0, 1, 5, 1, EH_F16);
    assert_f16_bits(a, 5, (const uint16_t[]){0x0000, 0x3400, 0x3800, 0x3a00, 0x3c00});
    eh_release(a);
    /* num 1 and 0 */
    a = eh_linspace(2, 3, 1, 1, EH_F64);
    assert_tensor_exact(a, EH_F64, 1, SHAPE(1), ((const double[]){2}));
    eh_release(a);
    a = eh_linspace(2, 3, 1, 0, EH_F64);
    assert_tensor_exact(a, EH_F64, 1, SHAPE(1), ((const double[]){2}));
    eh_release(a);
    a = eh_linspace(2, 3, 0, 1, EH_F64);
    assert_tensor_exact(a, EH_F64, 1, SHAPE(0), NULL);
    eh_release(a);
    /* the last value is stop itself: 1 * (0.9 - 0.2) + 0.2 would be
     * 0.8999999999999999 (python3) */
    a = eh_linspace(0.2, 0.9, 2, 1, EH_F64);
    assert_tensor_exact(a, EH_F64, 1, SHAPE(2), ((const double[]){0.2, 0.9}));
    eh_release(a);
    /* start == stop */
    a = eh_linspace(4, 4, 3, 1, EH_F64);
    assert_tensor_exact(a, EH_F64, 1, SHAPE(3), ((const double[]){4, 4, 4}));
    eh_release(a);
}

static void test_linspace_special(void **state)
{
    (void)state;
    /* step underflow (NumPy gh-5437): delta = 2^-1074, div 4, step 2^-1076
     * rounds to 0, so y_k = (k / 4) * 2^-1074: 0, 0, 0 (the tie 2^-1075
     * goes to even), 0.75 * 2^-1074 -> 2^-1074, and stop */
    const double tiny = 0x1p-1074;
    eh_tensor *a = eh_linspace(0, tiny, 5, 1, EH_F64);
    assert_tensor_exact(a, EH_F64, 1, SHAPE(5), ((const double[]){0, 0, 0, tiny, tiny}));
    eh_release(a);
    /* NaN propagates: [0,1,2] * NaN + 0, last = stop */
    a = eh_linspace(0, NAN, 3, 1, EH_F64);
    assert_tensor_exact(a, EH_F64, 1, SHAPE(3), ((const double[]){NAN, NAN, NAN}));
    eh_release(a);
    /* inf: 0 * inf = NaN, 1 * inf = inf, last = inf (NumPy's output) */
    a = eh_linspace(0, INFINITY, 3, 1, EH_F64);
    assert_tensor_exact(a, EH_F64, 1, SHAPE(3), ((const double[]){NAN, INFINITY, INFINITY}));
    eh_release(a);
    /* num 1 with endpoint: 0 * delta + start, so NaN when delta is inf */
    a = eh_linspace(1, INFINITY, 1, 1, EH_F64);
    assert_tensor_exact(a, EH_F64, 1, SHAPE(1), ((const double[]){NAN}));
    eh_release(a);
}

static void test_linspace_int_bool(void **state)
{
    (void)state;
    /* floor before the cast: -1, -0.5, 0, 0.5, 1 -> -1, -1, 0, 0, 1 */
    eh_tensor *a = eh_linspace(-1, 1, 5, 1, EH_I64);
    expect_i64(a, 1, SHAPE(5), (const int64_t[]){-1, -1, 0, 0, 1});
    eh_release(a);
    /* 0, 3.33, 6.67, 10 -> 0, 3, 6, 10 */
    a = eh_linspace(0, 10, 4, 1, EH_I32);
    assert_tensor_exact(a, EH_I32, 1, SHAPE(4), ((const double[]){0, 3, 6, 10}));
    eh_release(a);
    a = eh_linspace(0, 1, 3, 1, EH_BOOL);
    assert_tensor_exact(a, EH_BOOL, 1, SHAPE(3), ((const double[]){0, 1, 1}));
    eh_release(a);
    /* NaN -> 0 for integers */
    a = eh_linspace(0, NAN, 2, 1, EH_I32);
    assert_tensor_exact(a, EH_I32, 1, SHAPE(2), ((const double[]){0, 0}));
    eh_release(a);
}

static void test_linspace_errors(void **state)
{
    (void)state;
    assert_failed(eh_linspace(0, 1, -1, 1, EH_F64), EH_ERR_NEGATIVE_SIZE, "linspace: num -1 is negative");
    assert_failed(eh_linspace(0, 1, 3, 1, (eh_dtype)9), EH_ERR_DTYPE, "linspace: 9 is not a dtype");
    assert_failed(eh_linspace(0, 1, INT64_C(1) << 61, 1, EH_F64), EH_ERR_OVERFLOW, "linspace");
}

/* ---- eye ------------------------------------------------------------- */

static void test_eye(void **state)
{
    (void)state;
    eh_tensor *a = eh_eye(3, 3, 0, EH_F64);
    assert_tensor_exact(a, EH_F64, 2, SHAPE(3, 3), ((const double[]){1, 0, 0, 0, 1, 0, 0, 0, 1}));
    eh_release(a);
    a = eh_eye(2, 3, 1, EH_I32);
    assert_tensor_exact(a, EH_I32, 2, SHAPE(2, 3), ((const double[]){0, 1, 0, 0, 0, 1}));
    eh_release(a);
    a = eh_eye(3, 2, -1, EH_F32);
    assert_tensor_exact(a, EH_F32, 2, SHAPE(3, 2), ((const double[]){0, 0, 1, 0, 0, 1}));
    eh_release(a);
    a = eh_eye(2, 4, 3, EH_I64);
    expect_i64(a, 2, SHAPE(2, 4), (const int64_t[]){0, 0, 0, 1, 0, 0, 0, 0});
    eh_release(a);
    a = eh_eye(2, 2, 0, EH_BOOL);
    assert_tensor_exact(a, EH_BOOL, 2, SHAPE(2, 2), ((const double[]){1, 0, 0, 1}));
    eh_release(a);
    a = eh_eye(2, 2, 0, EH_F16);
    assert_f16_bits(a, 4, (const uint16_t[]){0x3c00, 0, 0, 0x3c00});
    eh_release(a);
    /* diagonals outside the matrix */
    const int64_t ks[] = {2, -2, 5, INT64_MAX, INT64_MIN};
    for (int i = 0; i < 5; i++) {
        a = eh_eye(2, 2, ks[i], EH_F64);
        assert_tensor_exact(a, EH_F64, 2, SHAPE(2, 2), ((const double[]){0, 0, 0, 0}));
        eh_release(a);
    }
    a = eh_eye(0, 3, 0, EH_F64);
    assert_tensor_exact(a, EH_F64, 2, SHAPE(0, 3), NULL);
    eh_release(a);
    a = eh_eye(3, 0, -1, EH_F64);
    assert_tensor_exact(a, EH_F64, 2, SHAPE(3, 0), NULL);
    eh_release(a);
    a = eh_eye(1, 1, 0, EH_I32);
    assert_tensor_exact(a, EH_I32, 2, SHAPE(1, 1), ((const double[]){1}));
    eh_release(a);
}

static void test_eye_errors(void **state)
{
    (void)state;
    assert_failed(eh_eye(-1, 3, 0, EH_F64), EH_ERR_NEGATIVE_SIZE, "eye: negative size n = -1, m = 3");
    assert_failed(eh_eye(3, -2, 0, EH_F64), EH_ERR_NEGATIVE_SIZE, "m = -2");
    assert_failed(eh_eye(3, 3, 0, (eh_dtype)77), EH_ERR_DTYPE, "eye: 77 is not a dtype");
    assert_failed(eh_eye(INT64_C(1) << 32, INT64_C(1) << 32, 0, EH_F64), EH_ERR_OVERFLOW, "eye");
}

/* ---- triu_indices, tril_indices ---------------------------------------- */

static void test_tri_indices_values(void **state)
{
    (void)state;
    /* np.triu_indices(3): row-major (0,0) (0,1) (0,2) (1,1) (1,2) (2,2) */
    eh_tensor *a = eh_triu_indices(3, 0, 3);
    expect_i64(a, 2, SHAPE(2, 6), (const int64_t[]){0, 0, 0, 1, 1, 2, 0, 1, 2, 1, 2, 2});
    eh_release(a);
    /* j >= i + 1, j < 5, n = 4: rows of 4, 3, 2, 1 */
    a = eh_triu_indices(4, 1, 5);
    expect_i64(a, 2, SHAPE(2, 10),
               (const int64_t[]){0, 0, 0, 0, 1, 1, 1, 2, 2, 3, 1, 2, 3, 4, 2, 3, 4, 3, 4, 4});
    eh_release(a);
    a = eh_tril_indices(3, 0, 3);
    expect_i64(a, 2, SHAPE(2, 6), (const int64_t[]){0, 1, 1, 2, 2, 2, 0, 0, 1, 0, 1, 2});
    eh_release(a);
    /* j <= i - 1, m = 3: rows of 0, 1, 2, 3 */
    a = eh_tril_indices(4, -1, 3);
    expect_i64(a, 2, SHAPE(2, 6), (const int64_t[]){1, 2, 2, 3, 3, 3, 0, 0, 1, 0, 1, 2});
    eh_release(a);
    /* triu with a negative k in a wide matrix: j >= i - 1, m = 4, n = 2 */
    a = eh_triu_indices(2, -1, 4);
    expect_i64(a, 2, SHAPE(2, 8), (const int64_t[]){0, 0, 0, 0, 1, 1, 1, 1, 0, 1, 2, 3, 0, 1, 2, 3});
    eh_release(a);
    /* everything, nothing */
    a = eh_tril_indices(2, 5, 2);
    expect_i64(a, 2, SHAPE(2, 4), (const int64_t[]){0, 0, 1, 1, 0, 1, 0, 1});
    eh_release(a);
    a = eh_triu_indices(2, INT64_MIN, 2);
    expect_i64(a, 2, SHAPE(2, 4), (const int64_t[]){0, 0, 1, 1, 0, 1, 0, 1});
    eh_release(a);
    a = eh_tril_indices(2, INT64_MAX, 2);
    expect_i64(a, 2, SHAPE(2, 4), (const int64_t[]){0, 0, 1, 1, 0, 1, 0, 1});
    eh_release(a);
    a = eh_triu_indices(2, INT64_MAX, 2);
    expect_i64(a, 2, SHAPE(2, 0), NULL);
    eh_release(a);
    a = eh_tril_indices(2, INT64_MIN, 2);
    expect_i64(a, 2, SHAPE(2, 0), NULL);
    eh_release(a);
    a = eh_triu_indices(0, 0, 0);
    expect_i64(a, 2, SHAPE(2, 0), NULL);
    eh_release(a);
    a = eh_tril_indices(3, 0, 0);
    expect_i64(a, 2, SHAPE(2, 0), NULL);
    eh_release(a);
}

/* Compare with a brute-force enumeration over every small case. */
static void test_tri_indices_brute_force(void **state)
{
    (void)state;
    int64_t want[2][64];
    for (int upper = 0; upper < 2; upper++)
        for (int64_t n = 0; n <= 5; n++)
            for (int64_t m = 0; m <= 5; m++)
                for (int64_t k = -7; k <= 7; k++) {
                    int64_t rows[32], cols[32], c = 0;
                    for (int64_t i = 0; i < n; i++)
                        for (int64_t j = 0; j < m; j++)
                            if (upper ? j - i >= k : j - i <= k) {
                                rows[c] = i;
                                cols[c++] = j;
                            }
                    for (int64_t t = 0; t < c; t++) {
                        want[0][t] = rows[t];
                        want[1][t] = cols[t];
                    }
                    int64_t flat[64];
                    memcpy(flat, want[0], (size_t)c * sizeof(int64_t));
                    memcpy(flat + c, want[1], (size_t)c * sizeof(int64_t));
                    eh_tensor *a = upper ? eh_triu_indices(n, k, m) : eh_tril_indices(n, k, m);
                    expect_i64(a, 2, (const int64_t[]){2, c}, flat);
                    eh_release(a);
                }
}

static void test_tri_indices_extreme(void **state)
{
    (void)state;
    const int64_t M = INT64_MAX;
    /* a huge n with few selected elements: rows M-3 .. M-1 hold column 0 */
    eh_tensor *a = eh_tril_indices(M, -(M - 3), 1);
    expect_i64(a, 2, SHAPE(2, 3), (const int64_t[]){M - 3, M - 2, M - 1, 0, 0, 0});
    eh_release(a);
    /* j >= i + 1 with m = 3: (0,1) (0,2) (1,2), and no row after that */
    a = eh_triu_indices(M, 1, 3);
    expect_i64(a, 2, SHAPE(2, 3), (const int64_t[]){0, 0, 1, 1, 2, 2});
    eh_release(a);
    /* a huge m: row 0 holds columns M-2, M-1 */
    a = eh_triu_indices(1, M - 2, M);
    expect_i64(a, 2, SHAPE(2, 2), (const int64_t[]){0, 0, M - 2, M - 1});
    eh_release(a);
    a = eh_tril_indices(M, -M, M);
    expect_i64(a, 2, SHAPE(2, 0), NULL);
    eh_release(a);
}

static void test_tri_indices_errors(void **state)
{
    (void)state;
    assert_failed(eh_triu_indices(-1, 0, 3), EH_ERR_NEGATIVE_SIZE, "triu_indices: negative size n = -1, m = 3");
    assert_failed(eh_tril_indices(3, 0, -4), EH_ERR_NEGATIVE_SIZE, "tril_indices: negative size n = 3, m = -4");
    /* n (n + 1) / 2 = 2^63 + 2^31 elements */
    assert_failed(eh_triu_indices(INT64_C(1) << 32, 0, INT64_C(1) << 32), EH_ERR_OVERFLOW,
                  "more than INT64_MAX");
    assert_failed(eh_tril_indices(INT64_MAX, 0, INT64_MAX), EH_ERR_OVERFLOW, "more than INT64_MAX");
    assert_failed(eh_triu_indices(INT64_MAX, INT64_MIN, INT64_MAX), EH_ERR_OVERFLOW, "more than INT64_MAX");
    /* 2^61 + 2^30 elements fit int64, their 16-byte pairs do not fit memory */
    assert_failed(eh_tril_indices(INT64_C(1) << 31, 0, INT64_C(1) << 31), EH_ERR_OVERFLOW, "bytes");
}

/* Tensors made inside a scope are released by it. */
static void test_scope(void **state)
{
    (void)state;
    assert_int_equal(eh_scope_begin(), EH_OK);
    eh_tensor *a = eh_copy(eh_full_like(eh_arange(0, 3, 1, EH_F32), 2.0));
    eh_tensor *kept = eh_keep(eh_eye(2, 2, 0, EH_I32));
    (void)eh_linspace(0, 1, 3, 1, EH_F64);
    (void)eh_tril_indices(3, 0, 3);
    assert_tensor_exact(a, EH_F32, 1, SHAPE(3), ((const double[]){2, 2, 2}));
    assert_int_equal(eh_scope_end(), EH_OK);
    assert_tensor_exact(kept, EH_I32, 2, SHAPE(2, 2), ((const double[]){1, 0, 0, 1}));
    eh_release(kept);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        EH_TEST(test_zeros_ones_every_dtype),
        EH_TEST(test_zeros_ones_0d_and_empty),
        EH_TEST(test_full_values),
        EH_TEST(test_full_conversions),
        EH_TEST(test_filled_errors),
        EH_TEST(test_nomem),
        EH_TEST(test_like_ops),
        EH_TEST(test_like_errors),
        EH_TEST(test_copy),
        EH_TEST(test_arange_float),
        EH_TEST(test_arange_int),
        EH_TEST(test_arange_errors),
        EH_TEST(test_linspace_float),
        EH_TEST(test_linspace_special),
        EH_TEST(test_linspace_int_bool),
        EH_TEST(test_linspace_errors),
        EH_TEST(test_eye),
        EH_TEST(test_eye_errors),
        EH_TEST(test_tri_indices_values),
        EH_TEST(test_tri_indices_brute_force),
        EH_TEST(test_tri_indices_extreme),
        EH_TEST(test_tri_indices_errors),
        EH_TEST(test_scope),
    };
    return EH_RUN_TESTS(tests);
}
