/* Tests of dtype and device conversion: eh_cast, the f16 conversions,
 * eh_result_type and the dtype table, eh_scalar, eh_convert_to_tensor,
 * eh_to_device, eh_get_device, eh_get_available_devices.
 *
 * Expected values are derived by hand from IEEE 754 (binary16: sign |
 * 5-bit exponent, bias 15 | 10-bit mantissa; round to nearest, ties to
 * even) and from NumPy's documented rules: the promotion table is
 * np.result_type over these six dtypes; int -> narrower int wraps; float
 * -> int truncates toward zero.  Where NumPy leaves a result undefined
 * (a float outside the integer range, NaN -> int), the expected values
 * are libeh's documented choice: saturation, NaN -> 0. */
#include <float.h>
#include <math.h>
#include <string.h>
#include "eh_test.h"

static void expect_i64(eh_tensor *t, int64_t n, const int64_t *want)
{
    assert_non_null(t);
    assert_int_equal(eh_get_dtype(t), EH_I64);
    assert_int_equal(eh_size(t), n);
    const int64_t *d = eh_data_i64(t);
    for (int64_t k = 0; k < n; k++)
        if (d[k] != want[k])
            fail_msg("element %lld is %lld, expected %lld", (long long)k, (long long)d[k],
                     (long long)want[k]);
}

static eh_tensor *f64s(int64_t n, const double *v)
{
    return eh_convert_to_tensor(v, 1, (const int64_t[]){n}, EH_F64);
}

static uint32_t f32_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

/* ---- f16 ----------------------------------------------------------------- */

/* The known bit patterns, through the public scalar conversions. */
static void test_f16_scalar_conversions(void **state)
{
    (void)state;
    const struct { float f; uint16_t h; } to_half[] = {
        {1.0f, 0x3c00},
        {-2.0f, 0xc000},
        {65504.0f, 0x7bff},           /* largest finite half */
        {65519.0f, 0x7bff},           /* below the midpoint 65520 */
        {65520.0f, 0x7c00},           /* the tie goes to the even 2^16: inf */
        {1e5f, 0x7c00},
        {-1e5f, 0xfc00},
        {INFINITY, 0x7c00},
        {-INFINITY, 0xfc00},
        {0x1p-24f, 0x0001},           /* smallest subnormal */
        {0x1p-25f, 0x0000},           /* tie between 0 and 2^-24: even 0 */
        {0x1.8p-25f, 0x0001},         /* above the tie */
        {0x1.8p-24f, 0x0002},         /* 1.5 * 2^-24: tie, even mantissa 2 */
        {0x1p-14f, 0x0400},           /* smallest normal */
        {0x1.ff8p-15f, 0x03ff},       /* largest subnormal, 1023 * 2^-24 */
        {-0.0f, 0x8000},
        {0.0f, 0x0000},
        {1.0f + 0x1p-11f, 0x3c00},    /* tie between 1 and 1 + 2^-10: even */
        {1.0f + 0x1.8p-10f, 0x3c02},  /* 1 + 3*2^-11: tie, goes up to even */
        {1.0f + 0x1p-11f + 0x1p-20f, 0x3c01},
        {2049.0f, 0x6800},            /* ulp 2 at 2048: tie, even 2048 */
        {2051.0f, 0x6802},            /* tie, even 2052 */
        {0.333251953125f, 0x3555},    /* 1365 / 4096, exact */
    };
    for (size_t k = 0; k < sizeof to_half / sizeof to_half[0]; k++)
        if (eh_f32_to_f16(to_half[k].f) != to_half[k].h)
            fail_msg("f32_to_f16(%a) = 0x%04x, expected 0x%04x", (double)to_half[k].f,
                     eh_f32_to_f16(to_half[k].f), to_half[k].h);
    uint16_t hn = eh_f32_to_f16(NAN);
    assert_int_equal(hn & 0x7c00, 0x7c00);
    assert_true((hn & 0x03ff) != 0);

    assert_true(eh_f16_to_f32(0x3c00) == 1.0f);
    assert_true(eh_f16_to_f32(0x0001) == 0x1p-24f);
    assert_true(eh_f16_to_f32(0x03ff) == 0x1.ff8p-15f);
    assert_true(eh_f16_to_f32(0x7bff) == 65504.0f);
    assert_true(eh_f16_to_f32(0x3555) == 0.333251953125f);
    assert_true(eh_f16_to_f32(0xc000) == -2.0f);
    assert_true(isinf(eh_f16_to_f32(0xfc00)) && eh_f16_to_f32(0xfc00) < 0);
    assert_true(isnan(eh_f16_to_f32(0x7e00)));
    assert_true(isnan(eh_f16_to_f32(0x7c01)));
    float nz = eh_f16_to_f32(0x8000);
    assert_true(nz == 0.0f && signbit(nz));
    /* every finite half survives the round trip */
    for (uint32_t h = 0; h < 0x10000; h++) {
        if ((h & 0x7c00) == 0x7c00 && (h & 0x3ff))
            continue;
        if (eh_f32_to_f16(eh_f16_to_f32((uint16_t)h)) != h)
            fail_msg("round trip of 0x%04x", h);
    }
}

static void test_cast_to_f16(void **state)
{
    (void)state;
    /* from f64, rounded once: 1 + 2^-11 + 2^-40 lies above the midpoint,
     * so 0x3c01 (rounding through f32 first would tie and give 0x3c00) */
    const double v[] = {1.0, 65504.0, 65520.0, 1e300, 0x1p-24, 0x1p-25, 0x1.0000000001p-25,
                        0x1p-1074, -0.0, 1.0 + 0x1p-11 + 0x1p-40, 1.0 + 0x1p-11,
                        1.0 + 0x1.8p-10, -70000.0, -INFINITY};
    const uint16_t want[] = {0x3c00, 0x7bff, 0x7c00, 0x7c00, 0x0001, 0x0000, 0x0001, 0x0000,
                             0x8000, 0x3c01, 0x3c00, 0x3c02, 0xfc00, 0xfc00};
    eh_tensor *x = f64s(14, v);
    eh_tensor *h = eh_cast(x, EH_F16);
    assert_f16_bits(h, 14, want);
    eh_release(x);
    eh_release(h);
    /* NaN stays NaN */
    eh_tensor *n = f64s(1, (const double[]){NAN});
    eh_tensor *hn = eh_cast(n, EH_F16);
    assert_non_null(hn);
    uint16_t b = eh_data_f16(hn)[0];
    assert_true((b & 0x7c00) == 0x7c00 && (b & 0x3ff) != 0);
    eh_release(n);
    eh_release(hn);
    /* from f32 */
    eh_tensor *f = t_from(EH_F32, 1, SHAPE(4), (const double[]){1.5, -0.25, 0x1p-24, 3e38});
    eh_tensor *hf = eh_cast(f, EH_F16);
    assert_f16_bits(hf, 4, (const uint16_t[]){0x3e00, 0xb400, 0x0001, 0x7c00});
    eh_release(f);
    eh_release(hf);
    /* from integers: 65519 -> 65504, 65520 -> inf, 2049 -> 2048, -7 */
    eh_tensor *i = eh_convert_to_tensor((const int64_t[]){65519, 65520, 2049, -7, INT64_MIN},
                                        1, SHAPE(5), EH_I64);
    eh_tensor *hi = eh_cast(i, EH_F16);
    assert_f16_bits(hi, 5, (const uint16_t[]){0x7bff, 0x7c00, 0x6800, 0xc700, 0xfc00});
    eh_release(i);
    eh_release(hi);
    eh_tensor *bo = eh_convert_to_tensor((const uint8_t[]){0, 1}, 1, SHAPE(2), EH_BOOL);
    eh_tensor *hb = eh_cast(bo, EH_F16);
    assert_f16_bits(hb, 2, (const uint16_t[]){0x0000, 0x3c00});
    eh_release(bo);
    eh_release(hb);
}

static void test_cast_from_f16(void **state)
{
    (void)state;
    /* 1, -2.5, 65504, inf, -inf, NaN, 2^-24, -0, 0.75 */
    const uint16_t bits[] = {0x3c00, 0xc100, 0x7bff, 0x7c00, 0xfc00, 0x7e00, 0x0001, 0x8000, 0x3a00};
    eh_tensor *h = eh_convert_to_tensor(bits, 1, SHAPE(9), EH_F16);
    eh_tensor *d = eh_cast(h, EH_F64);
    assert_tensor_exact(d, EH_F64, 1, SHAPE(9),
                        ((const double[]){1, -2.5, 65504, INFINITY, -INFINITY, NAN, 0x1p-24, 0, 0.75}));
    eh_tensor *f = eh_cast(h, EH_F32);
    assert_tensor_exact(f, EH_F32, 1, SHAPE(9),
                        ((const double[]){1, -2.5, 65504, INFINITY, -INFINITY, NAN, 0x1p-24, 0, 0.75}));
    eh_tensor *i = eh_cast(h, EH_I32);
    assert_tensor_exact(i, EH_I32, 1, SHAPE(9),
                        ((const double[]){1, -2, 65504, INT32_MAX, INT32_MIN, 0, 0, 0, 0}));
    eh_tensor *b = eh_cast(h, EH_BOOL);
    assert_tensor_exact(b, EH_BOOL, 1, SHAPE(9), ((const double[]){1, 1, 1, 1, 1, 1, 1, 0, 1}));
    eh_release(h);
    eh_release(d);
    eh_release(f);
    eh_release(i);
    eh_release(b);
}

/* ---- float <-> int <-> bool ------------------------------------------------ */

static void test_cast_float_to_int(void **state)
{
    (void)state;
    const double v[] = {2.7, -2.7, 0.5, -0.5, 1e10, -1e10, NAN, INFINITY, -INFINITY,
                        2147483647.5, -2147483648.9, 9.3e18, -9.3e18, 9223372036854774784.0};
    eh_tensor *x = f64s(14, v);
    eh_tensor *i32 = eh_cast(x, EH_I32);
    assert_tensor_exact(i32, EH_I32, 1, SHAPE(14),
                        ((const double[]){2, -2, 0, 0, INT32_MAX, INT32_MIN, 0, INT32_MAX,
                                          INT32_MIN, INT32_MAX, INT32_MIN, INT32_MAX, INT32_MIN,
                                          INT32_MAX}));
    eh_tensor *i64 = eh_cast(x, EH_I64);
    expect_i64(i64, 14,
               (const int64_t[]){2, -2, 0, 0, 10000000000LL, -10000000000LL, 0, INT64_MAX,
                                 INT64_MIN, 2147483647, -2147483648LL, INT64_MAX, INT64_MIN,
                                 INT64_C(9223372036854774784)});
    eh_release(x);
    eh_release(i32);
    eh_release(i64);
    /* from f32 */
    eh_tensor *f = t_from(EH_F32, 1, SHAPE(3), (const double[]){3.9, -3.9, 3e9});
    eh_tensor *fi = eh_cast(f, EH_I32);
    assert_tensor_exact(fi, EH_I32, 1, SHAPE(3), ((const double[]){3, -3, INT32_MAX}));
    eh_release(f);
    eh_release(fi);
}

static void test_cast_to_bool(void **state)
{
    (void)state;
    eh_tensor *x = f64s(7, (const double[]){0, -0.0, 0.5, NAN, INFINITY, -1, 1e-310});
    eh_tensor *b = eh_cast(x, EH_BOOL);
    assert_tensor_exact(b, EH_BOOL, 1, SHAPE(7), ((const double[]){0, 0, 1, 1, 1, 1, 1}));
    eh_release(x);
    eh_release(b);
    /* 2^40 has no low 32 bits set: still true */
    eh_tensor *i = eh_convert_to_tensor((const int64_t[]){0, INT64_C(1) << 40, -1}, 1, SHAPE(3), EH_I64);
    eh_tensor *ib = eh_cast(i, EH_BOOL);
    assert_tensor_exact(ib, EH_BOOL, 1, SHAPE(3), ((const double[]){0, 1, 1}));
    eh_release(i);
    eh_release(ib);
    eh_tensor *j = eh_convert_to_tensor((const int32_t[]){0, 2, -1}, 1, SHAPE(3), EH_I32);
    eh_tensor *jb = eh_cast(j, EH_BOOL);
    assert_tensor_exact(jb, EH_BOOL, 1, SHAPE(3), ((const double[]){0, 1, 1}));
    eh_release(j);
    eh_release(jb);
}

static void test_cast_from_bool(void **state)
{
    (void)state;
    eh_tensor *b = eh_convert_to_tensor((const uint8_t[]){0, 1, 1}, 1, SHAPE(3), EH_BOOL);
    const eh_dtype to[] = {EH_F32, EH_F64, EH_I32, EH_I64};
    for (int k = 0; k < 4; k++) {
        eh_tensor *c = eh_cast(b, to[k]);
        assert_tensor_exact(c, to[k], 1, SHAPE(3), ((const double[]){0, 1, 1}));
        eh_release(c);
    }
    eh_release(b);
}

static void test_cast_int_int(void **state)
{
    (void)state;
    /* i64 -> i32 keeps the low 32 bits (NumPy's wrap) */
    eh_tensor *x = eh_convert_to_tensor(
        (const int64_t[]){(INT64_C(1) << 32) + 5, -1, INT64_C(1) << 31, INT64_MIN,
                          INT64_C(0xffffffff), -(INT64_C(1) << 31) - 1},
        1, SHAPE(6), EH_I64);
    eh_tensor *y = eh_cast(x, EH_I32);
    assert_non_null(y);
    const int32_t *d = eh_data_i32(y);
    const int32_t want[] = {5, -1, INT32_MIN, 0, -1, INT32_MAX};
    for (int k = 0; k < 6; k++)
        assert_int_equal(d[k], want[k]);
    /* i32 -> i64 sign-extends */
    eh_tensor *z = eh_cast(y, EH_I64);
    expect_i64(z, 6, (const int64_t[]){5, -1, INT32_MIN, 0, -1, INT32_MAX});
    eh_release(x);
    eh_release(y);
    eh_release(z);
}

static void test_cast_int_to_float(void **state)
{
    (void)state;
    /* one rounding from the exact integer: 2^62 + 2^38 + 1 is just above
     * the midpoint of the f32 neighbours 2^62 and 2^62 + 2^39, so it
     * rounds up (via double it would first become the tie 2^62 + 2^38
     * and then 2^62).  2^53 + 1 ties to the even 2^53 in f64. */
    const int64_t v[] = {INT64_C(4611686293305294849), INT64_C(9007199254740993), INT64_MAX,
                         INT64_MIN, 16777217, -3};
    eh_tensor *x = eh_convert_to_tensor(v, 1, SHAPE(6), EH_I64);
    eh_tensor *f = eh_cast(x, EH_F32);
    assert_non_null(f);
    const float *fd = eh_data_f32(f);
    assert_true(fd[0] == 0x1.000002p62f); /* 2^62 + 2^39 */
    assert_true(fd[1] == 0x1p53f);
    assert_true(fd[2] == 0x1p63f);
    assert_true(fd[3] == -0x1p63f);
    assert_true(fd[4] == 16777216.0f); /* tie, even */
    assert_true(fd[5] == -3.0f);
    eh_tensor *d = eh_cast(x, EH_F64);
    assert_non_null(d);
    const double *dd = eh_data_f64(d);
    assert_true(dd[0] == 4611686293305294848.0); /* 2^62 + 2^38 (+1 lost: ulp 2^10) */
    assert_true(dd[1] == 0x1p53);
    assert_true(dd[2] == 0x1p63);
    assert_true(dd[5] == -3.0);
    eh_release(x);
    eh_release(f);
    eh_release(d);
    eh_tensor *i = eh_convert_to_tensor((const int32_t[]){16777217, -16777217, INT32_MAX}, 1,
                                        SHAPE(3), EH_I32);
    eh_tensor *fi = eh_cast(i, EH_F32);
    assert_tensor_exact(fi, EH_F32, 1, SHAPE(3), ((const double[]){16777216, -16777216, 2147483648.0}));
    eh_release(i);
    eh_release(fi);
}

static void test_cast_float_float(void **state)
{
    (void)state;
    /* f64 -> f32: nearest even; beyond FLT_MAX it is FLT_MAX up to the
     * midpoint 2^128 - 2^103 (3.4028235677973366e38, python3), inf from it */
    eh_tensor *x = f64s(8, (const double[]){0.1, 1e300, -1e300, 3.40282350e38,
                                            3.4028235677973366e38, 1e-50, NAN, -0.0});
    eh_tensor *f = eh_cast(x, EH_F32);
    assert_non_null(f);
    const float *d = eh_data_f32(f);
    assert_int_equal(f32_bits(d[0]), 0x3dcccccdu); /* python3: struct.pack('<f', 0.1) */
    assert_true(isinf(d[1]) && d[1] > 0);
    assert_true(isinf(d[2]) && d[2] < 0);
    assert_true(d[3] == FLT_MAX);
    assert_true(isinf(d[4]) && d[4] > 0);
    assert_true(d[5] == 0.0f);
    assert_true(isnan(d[6]));
    assert_true(d[7] == 0.0f && signbit(d[7]));
    /* f32 -> f64 is exact */
    eh_tensor *back = eh_cast(f, EH_F64);
    assert_non_null(back);
    assert_true(eh_data_f64(back)[0] == 0.100000001490116119384765625);
    eh_release(x);
    eh_release(f);
    eh_release(back);
}

static void test_cast_same_dtype_and_shapes(void **state)
{
    (void)state;
    const eh_dtype all[] = {EH_F16, EH_F32, EH_F64, EH_I32, EH_I64, EH_BOOL};
    for (int a = 0; a < 6; a++) {
        eh_tensor *s = eh_scalar(3.0, all[a]);
        eh_tensor *e = eh_zeros(3, SHAPE(2, 0, 3), all[a]);
        for (int b = 0; b < 6; b++) {
            eh_tensor *c = eh_cast(s, all[b]);
            double want = (all[a] == EH_BOOL || all[b] == EH_BOOL) ? 1 : 3;
            assert_tensor_exact(c, all[b], 0, NULL, &want);
            eh_tensor *ce = eh_cast(e, all[b]);
            assert_tensor_exact(ce, all[b], 3, SHAPE(2, 0, 3), NULL);
            eh_release(c);
            eh_release(ce);
        }
        eh_release(s);
        eh_release(e);
    }
    /* the same dtype is a copy: new storage, exact bits */
    eh_tensor *x = eh_convert_to_tensor((const int64_t[]){INT64_MAX, 7}, 1, SHAPE(2), EH_I64);
    eh_tensor *y = eh_cast(x, EH_I64);
    assert_true(y != x);
    assert_int_equal(eh_eval(y), EH_OK); /* a lazy backend reads x at evaluation */
    eh_data_i64(x)[0] = 0;
    expect_i64(y, 2, (const int64_t[]){INT64_MAX, 7});
    eh_release(x);
    eh_release(y);
    /* shape kept */
    eh_tensor *m = t_from(EH_F64, 3, SHAPE(2, 1, 2), (const double[]){1.5, 2.5, -3.5, 4});
    eh_tensor *mi = eh_cast(m, EH_I32);
    assert_tensor_exact(mi, EH_I32, 3, SHAPE(2, 1, 2), ((const double[]){1, 2, -3, 4}));
    eh_release(m);
    eh_release(mi);
}

static void test_cast_errors(void **state)
{
    (void)state;
    assert_failed(eh_cast(NULL, EH_F32), EH_ERR_NULL_ARG, "cast: argument 'x' is NULL");
    eh_tensor *x = eh_ones(1, SHAPE(2), EH_F32);
    assert_failed(eh_cast(x, (eh_dtype)42), EH_ERR_DTYPE, "cast: 42 is not a dtype");
    assert_failed(eh_cast(x, EH_DTYPE_COUNT), EH_ERR_DTYPE, "cast:");
    eh__test_fail_alloc(1);
    assert_failed(eh_cast(x, EH_F64), EH_ERR_NOMEM, "cast: out of memory");
    if (backend_is_eager()) { /* storage is allocated at the call */
        eh__test_fail_alloc(2);
        assert_failed(eh_cast(x, EH_F64), EH_ERR_NOMEM, "out of memory");
    }
    eh__test_fail_alloc(0);
    /* a nested failure keeps the first error */
    assert_failed(eh_cast(eh_zeros(1, SHAPE(-2), EH_F32), EH_F64), EH_ERR_NEGATIVE_SIZE, "zeros:");
    eh_release(x);
}

/* ---- eh_scalar, eh_convert_to_tensor ---------------------------------- */

static void test_scalar(void **state)
{
    (void)state;
    eh_tensor *s = eh_scalar(2.7, EH_I32);
    assert_tensor_exact(s, EH_I32, 0, NULL, ((const double[]){2}));
    eh_release(s);
    s = eh_scalar(-1e30, EH_I64);
    assert_non_null(s);
    assert_true(eh_data_i64(s)[0] == INT64_MIN);
    eh_release(s);
    s = eh_scalar(NAN, EH_BOOL);
    assert_tensor_exact(s, EH_BOOL, 0, NULL, ((const double[]){1}));
    eh_release(s);
    s = eh_scalar(1.0 + 0x1p-11 + 0x1p-40, EH_F16);
    assert_f16_bits(s, 1, (const uint16_t[]){0x3c01});
    eh_release(s);
    s = eh_scalar(0.1, EH_F64);
    assert_true(eh_item(s) == 0.1);
    eh_release(s);
    assert_failed(eh_scalar(1.0, (eh_dtype)6), EH_ERR_DTYPE, "scalar: 6 is not a dtype");
}

static void test_convert_to_tensor(void **state)
{
    (void)state;
    double src[4] = {1, 2, 3, 4};
    eh_tensor *t = eh_convert_to_tensor(src, 2, SHAPE(2, 2), EH_F64);
    src[0] = 99; /* copied, not aliased */
    assert_tensor_exact(t, EH_F64, 2, SHAPE(2, 2), ((const double[]){1, 2, 3, 4}));
    eh_release(t);
    /* f16 data is bit patterns */
    t = eh_convert_to_tensor((const uint16_t[]){0x3c00, 0xc000}, 1, SHAPE(2), EH_F16);
    assert_tensor_exact(t, EH_F16, 1, SHAPE(2), ((const double[]){1, -2}));
    eh_release(t);
    /* bool bytes other than 0 are true, stored as 1 */
    t = eh_convert_to_tensor((const uint8_t[]){0, 1, 2, 255}, 1, SHAPE(4), EH_BOOL);
    assert_non_null(t);
    const uint8_t *b = eh_data_bool(t);
    assert_int_equal(b[0], 0);
    assert_int_equal(b[1], 1);
    assert_int_equal(b[2], 1);
    assert_int_equal(b[3], 1);
    eh_release(t);
    /* 0-d, and NULL data for an empty tensor */
    t = eh_convert_to_tensor((const int32_t[]){-5}, 0, NULL, EH_I32);
    assert_tensor_exact(t, EH_I32, 0, NULL, ((const double[]){-5}));
    eh_release(t);
    t = eh_convert_to_tensor(NULL, 2, SHAPE(0, 5), EH_F32);
    assert_tensor_exact(t, EH_F32, 2, SHAPE(0, 5), NULL);
    eh_release(t);
    assert_failed(eh_convert_to_tensor(NULL, 1, SHAPE(3), EH_F32), EH_ERR_NULL_ARG,
                  "convert_to_tensor: argument 'data' is NULL for 3 elements");
    assert_failed(eh_convert_to_tensor(src, 1, SHAPE(-3), EH_F32), EH_ERR_NEGATIVE_SIZE,
                  "convert_to_tensor: negative dimension in shape (-3,)");
    assert_failed(eh_convert_to_tensor(src, 1, SHAPE(3), (eh_dtype)8), EH_ERR_DTYPE,
                  "convert_to_tensor: 8 is not a dtype");
    assert_failed(eh_convert_to_tensor(src, 1, NULL, EH_F32), EH_ERR_NULL_ARG, "'shape'");
}

/* ---- result_type and the dtype table ------------------------------------- */

static void test_result_type_table(void **state)
{
    (void)state;
    /* np.result_type over f16 f32 f64 i32 i64 bool (NumPy's table): any
     * int with f16 or f32 needs f64; bool joins anything as that thing */
    enum { F16 = EH_F16, F32 = EH_F32, F64 = EH_F64, I32 = EH_I32, I64 = EH_I64, B = EH_BOOL };
    const eh_dtype order[6] = {EH_F16, EH_F32, EH_F64, EH_I32, EH_I64, EH_BOOL};
    const int table[6][6] = {
        /*          f16  f32  f64  i32  i64  bool */
        /* f16 */ {F16, F32, F64, F64, F64, F16},
        /* f32 */ {F32, F32, F64, F64, F64, F32},
        /* f64 */ {F64, F64, F64, F64, F64, F64},
        /* i32 */ {F64, F64, F64, I32, I64, I32},
        /* i64 */ {F64, F64, F64, I64, I64, I64},
        /* bool */{F16, F32, F64, I32, I64, B},
    };
    for (int a = 0; a < 6; a++)
        for (int b = 0; b < 6; b++) {
            eh_dtype out = EH_DTYPE_COUNT;
            assert_int_equal(eh_result_type(order[a], order[b], &out), EH_OK);
            if ((int)out != table[a][b])
                fail_msg("result_type(%s, %s) = %s, expected %s", eh_dtype_name(order[a]),
                         eh_dtype_name(order[b]), eh_dtype_name(out),
                         eh_dtype_name((eh_dtype)table[a][b]));
        }
    /* the brief's spot checks */
    eh_dtype out;
    eh_result_type(EH_I32, EH_F32, &out);
    assert_int_equal(out, EH_F64);
    eh_result_type(EH_I64, EH_F16, &out);
    assert_int_equal(out, EH_F64);
    eh_result_type(EH_BOOL, EH_I32, &out);
    assert_int_equal(out, EH_I32);
}

static void test_result_type_errors(void **state)
{
    (void)state;
    eh_dtype out = EH_F32;
    assert_int_equal(eh_result_type(EH_F32, (eh_dtype)17, &out), EH_ERR_DTYPE);
    assert_failed(NULL, EH_ERR_DTYPE, "result_type: 17 is not a dtype");
    assert_int_equal(eh_result_type((eh_dtype)-3, EH_F32, &out), EH_ERR_DTYPE);
    assert_failed(NULL, EH_ERR_DTYPE, "result_type: -3 is not a dtype");
    assert_int_equal(out, EH_F32); /* untouched */
    assert_int_equal(eh_result_type(EH_F32, EH_F32, NULL), EH_ERR_NULL_ARG);
    assert_failed(NULL, EH_ERR_NULL_ARG, "result_type: argument 'out' is NULL");
}

static void test_dtype_table(void **state)
{
    (void)state;
    const char *names[6] = {"f16", "f32", "f64", "i32", "i64", "bool"};
    const size_t sizes[6] = {2, 4, 8, 4, 8, 1};
    const int is_float[6] = {1, 1, 1, 0, 0, 0}, is_int[6] = {0, 0, 0, 1, 1, 0};
    for (int d = 0; d < 6; d++) {
        assert_string_equal(eh_dtype_name((eh_dtype)d), names[d]);
        assert_int_equal(eh_dtype_size((eh_dtype)d), sizes[d]);
        assert_int_equal(eh_dtype_is_float((eh_dtype)d), is_float[d]);
        assert_int_equal(eh_dtype_is_int((eh_dtype)d), is_int[d]);
        eh_dtype back = EH_DTYPE_COUNT;
        assert_int_equal(eh_dtype_from_name(names[d], &back), EH_OK);
        assert_int_equal(back, d);
    }
    assert_null(eh_dtype_name(EH_DTYPE_COUNT));
    assert_null(eh_dtype_name((eh_dtype)-1));
    assert_int_equal(eh_dtype_size((eh_dtype)99), 0);
    assert_false(eh_dtype_is_float(EH_DTYPE_COUNT));
    assert_false(eh_dtype_is_int(EH_BOOL));
    eh_dtype out = EH_F64;
    assert_int_equal(eh_dtype_from_name("float32", &out), EH_ERR_DTYPE);
    assert_failed(NULL, EH_ERR_DTYPE, "dtype_from_name: unknown dtype 'float32'");
    assert_int_equal(eh_dtype_from_name("F32", &out), EH_ERR_DTYPE);
    assert_failed(NULL, EH_ERR_DTYPE, "'F32'");
    assert_int_equal(out, EH_F64);
    assert_int_equal(eh_dtype_from_name(NULL, &out), EH_ERR_NULL_ARG);
    assert_failed(NULL, EH_ERR_NULL_ARG, "argument 'name' is NULL");
    assert_int_equal(eh_dtype_from_name("f32", NULL), EH_ERR_NULL_ARG);
    assert_failed(NULL, EH_ERR_NULL_ARG, "argument 'out' is NULL");
}

/* ---- devices -------------------------------------------------------------- */

static void test_devices(void **state)
{
    (void)state;
    const char *names[4] = {NULL, NULL, NULL, "untouched"};
    assert_int_equal(eh_get_available_devices(names, 4), 1);
    assert_string_equal(names[0], "cpu");
    assert_null(names[1]);
    assert_string_equal(names[3], "untouched");
    assert_int_equal(eh_get_available_devices(NULL, 0), 1);
    const char *one[1] = {"x"};
    assert_int_equal(eh_get_available_devices(one, 0), 1);
    assert_string_equal(one[0], "x"); /* cap 0 writes nothing */
    assert_int_equal(eh_get_available_devices(one, -1), 1);

    const eh_dtype all[] = {EH_F16, EH_F32, EH_F64, EH_I32, EH_I64, EH_BOOL};
    for (int d = 0; d < 6; d++) {
        eh_tensor *x = t_from(all[d], 2, SHAPE(2, 2), (const double[]){0, 1, -2, 3});
        assert_string_equal(eh_get_device(x), "cpu");
        eh_tensor *y = eh_to_device(x, "cpu");
        assert_non_null(y);
        assert_true(y != x);
        assert_string_equal(eh_get_device(y), "cpu");
        double want[4];
        for (int k = 0; k < 4; k++)
            want[k] = t_at(x, k);
        /* a copy: clearing x (once y is evaluated) leaves y */
        assert_int_equal(eh_eval(y), EH_OK);
        memset(eh_data(x), 0, eh_nbytes(x));
        assert_tensor_exact(y, all[d], 2, SHAPE(2, 2), want);
        eh_release(x);
        eh_release(y);
    }
    eh_tensor *s = eh_scalar(4.0, EH_I64);
    eh_tensor *sy = eh_to_device(s, "cpu");
    assert_tensor_exact(sy, EH_I64, 0, NULL, ((const double[]){4}));
    eh_tensor *e = eh_zeros(1, SHAPE(0), EH_F32);
    eh_tensor *ey = eh_to_device(e, "cpu");
    assert_tensor_exact(ey, EH_F32, 1, SHAPE(0), NULL);
    eh_release(s);
    eh_release(sy);
    eh_release(e);
    eh_release(ey);
}

static void test_device_errors(void **state)
{
    (void)state;
    eh_tensor *x = eh_ones(1, SHAPE(2), EH_F32);
    assert_failed(eh_to_device(x, "cuda"), EH_ERR_DEVICE, "to_device: no device 'cuda' here (available: cpu)");
    assert_failed(eh_to_device(x, "CPU"), EH_ERR_DEVICE, "'CPU'");
    assert_failed(eh_to_device(x, ""), EH_ERR_DEVICE, "''");
    assert_failed(eh_to_device(x, NULL), EH_ERR_NULL_ARG, "to_device: argument 'device' is NULL");
    assert_failed(eh_to_device(NULL, "cpu"), EH_ERR_NULL_ARG, "to_device: argument 't' is NULL");
    assert_failed(eh_get_device(NULL), EH_ERR_NULL_ARG, "get_device: argument 't' is NULL");
    eh__test_fail_alloc(1);
    assert_failed(eh_to_device(x, "cpu"), EH_ERR_NOMEM, "to_device: out of memory");
    if (backend_is_eager()) {
        eh__test_fail_alloc(2);
        assert_failed(eh_to_device(x, "cpu"), EH_ERR_NOMEM, "out of memory");
    }
    eh__test_fail_alloc(0);
    eh_release(x);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        EH_TEST(test_f16_scalar_conversions),
        EH_TEST(test_cast_to_f16),
        EH_TEST(test_cast_from_f16),
        EH_TEST(test_cast_float_to_int),
        EH_TEST(test_cast_to_bool),
        EH_TEST(test_cast_from_bool),
        EH_TEST(test_cast_int_int),
        EH_TEST(test_cast_int_to_float),
        EH_TEST(test_cast_float_float),
        EH_TEST(test_cast_same_dtype_and_shapes),
        EH_TEST(test_cast_errors),
        EH_TEST(test_scalar),
        EH_TEST(test_convert_to_tensor),
        EH_TEST(test_result_type_table),
        EH_TEST(test_result_type_errors),
        EH_TEST(test_dtype_table),
        EH_TEST(test_devices),
        EH_TEST(test_device_errors),
    };
    return EH_RUN_TESTS(tests);
}
