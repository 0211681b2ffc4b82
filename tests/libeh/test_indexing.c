/* Tests of the indexing ops: tile, repeat, pad, roll, gather, scatter,
 * triu, tril.
 *
 * Expected values are worked out by hand from the NumPy definitions
 * (np.tile, np.repeat, np.pad, np.roll, np.take, np.triu/np.tril) and the
 * torch_scatter definition of scatter; where an example is the one printed
 * in NumPy's documentation, the comment says so.  Reflect/symmetric
 * padding wider than the axis follows the periodic mapping
 * (reflect: period 2(n-1), symmetric: period 2n), which is NumPy >= 2.1
 * (test_pad_mirror_numpy_2_1 uses cases of NumPy's own test_arraypad.py);
 * NumPy <= 2.0 differs when both sides are padded and one is wider than
 * the axis (gh-25926, fixed by NumPy PR #25963). */
#include <math.h>
#include <string.h>
#define EH_TEST_SHORTHAND /* T(), EXPECT(), BEGIN() ... */
#include "eh_test.h"

/* A data-dependent error (an index out of range) is found by the kernel:
 * at the call on an eager backend, at evaluation on a deferring one (lazy). */
static void assert_data_error(eh_tensor *r, eh_status code, const char *needle)
{
    if (r)
        assert_int_equal(eh_eval(r), code);
    assert_failed(NULL, code, needle);
}

static eh_tensor *i64_tensor(int ndim, const int64_t *shape, const int64_t *v)
{
    eh_tensor *t = eh_convert_to_tensor(v, ndim, shape, EH_I64);
    assert_non_null(t);
    return t;
}

/* ==== tile ============================================================= */

static void test_tile_2d(void **state)
{
    (void)state;
    BEGIN();
    eh_tensor *x = T(EH_F64, SHAPE(2, 2), 1, 2, 3, 4);
    EXPECT(eh_tile(x, SHAPE(2, 2), 2), EH_F64, SHAPE(4, 4),
           1, 2, 1, 2, 3, 4, 3, 4, 1, 2, 1, 2, 3, 4, 3, 4);
    EXPECT(eh_tile(x, SHAPE(2, 1), 2), EH_F64, SHAPE(4, 2), 1, 2, 3, 4, 1, 2, 3, 4);
    /* reps shorter than ndim gets leading 1s: NumPy doc np.tile(b, 2). */
    EXPECT(eh_tile(x, SHAPE(2), 1), EH_F64, SHAPE(2, 4), 1, 2, 1, 2, 3, 4, 3, 4);
    END();
}

static void test_tile_promotes_x(void **state)
{
    (void)state;
    BEGIN();
    /* NumPy doc: np.tile([0, 1, 2], (2, 2)). */
    eh_tensor *a = T(EH_I32, SHAPE(3), 0, 1, 2);
    EXPECT(eh_tile(a, SHAPE(2, 2), 2), EH_I32, SHAPE(2, 6), 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2);
    /* NumPy doc: np.tile(a, (2, 1, 2)). */
    EXPECT(eh_tile(a, SHAPE(2, 1, 2), 3), EH_I32, SHAPE(2, 1, 6),
           0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2);
    END();
}

static void test_tile_dtypes(void **state)
{
    (void)state;
    BEGIN();
    EXPECT(eh_tile(T(EH_F16, SHAPE(2), 0.5, -1.5), SHAPE(3), 1), EH_F16, SHAPE(6),
           0.5, -1.5, 0.5, -1.5, 0.5, -1.5);
    EXPECT(eh_tile(T(EH_BOOL, SHAPE(2), 1, 0), SHAPE(2, 2), 2), EH_BOOL, SHAPE(2, 4),
           1, 0, 1, 0, 1, 0, 1, 0);
    EXPECT(eh_tile(T(EH_F32, SHAPE(2, 1), 1.25, NAN), SHAPE(1, 3), 2), EH_F32, SHAPE(2, 3),
           1.25, 1.25, 1.25, NAN, NAN, NAN);
    int64_t big[2] = {INT64_MAX, INT64_MIN};
    eh_tensor *t = eh_tile(i64_tensor(1, SHAPE(2), big), SHAPE(2), 1);
    assert_non_null(t);
    assert_int_equal(eh_size(t), 4);
    const int64_t *d = eh_data_i64(t);
    assert_true(d[0] == INT64_MAX && d[1] == INT64_MIN && d[2] == INT64_MAX && d[3] == INT64_MIN);
    END();
}

static void test_tile_0d_and_empty(void **state)
{
    (void)state;
    BEGIN();
    eh_tensor *s = T0(EH_I64, 7);
    EXPECT(eh_tile(s, SHAPE(3), 1), EH_I64, SHAPE(3), 7, 7, 7);
    EXPECT0(eh_tile(s, NULL, 0), EH_I64, 7);
    EXPECT_EMPTY(eh_tile(s, SHAPE(0), 1), EH_I64, SHAPE(0));
    eh_tensor *v = T(EH_F64, SHAPE(2), 1, 2);
    EXPECT(eh_tile(v, NULL, 0), EH_F64, SHAPE(2), 1, 2);
    EXPECT_EMPTY(eh_tile(v, SHAPE(0), 1), EH_F64, SHAPE(0));
    EXPECT_EMPTY(eh_tile(v, SHAPE(2, 0), 2), EH_F64, SHAPE(2, 0));
    EXPECT_EMPTY(eh_tile(T_EMPTY(EH_F64, SHAPE(0, 3)), SHAPE(2, 2), 2), EH_F64, SHAPE(0, 6));
    END();
}

static void test_tile_errors(void **state)
{
    (void)state;
    BEGIN();
    eh_tensor *x = T(EH_F64, SHAPE(2), 1, 2);
    assert_failed(eh_tile(NULL, SHAPE(2), 1), EH_ERR_NULL_ARG, "tile");
    assert_failed(eh_tile(x, NULL, 2), EH_ERR_NULL_ARG, "reps");
    assert_failed(eh_tile(x, SHAPE(2), -1), EH_ERR_INVALID_ARG, "n_reps");
    assert_failed(eh_tile(x, SHAPE(2, -1), 2), EH_ERR_NEGATIVE_SIZE, "(2, -1)");
    assert_failed(eh_tile(x, SHAPE(1, 1, 1, 1, 1, 1, 1, 1, 1), 9), EH_ERR_SHAPE, "9 dimensions");
    assert_failed(eh_tile(x, SHAPE(INT64_MAX), 1), EH_ERR_OVERFLOW, "tile");
    /* each dimension fits, the element count does not */
    assert_failed(eh_tile(T(EH_F64, SHAPE(1, 1), 1), SHAPE(INT64_C(1) << 40, INT64_C(1) << 40), 2),
                  EH_ERR_OVERFLOW, "tile");
    eh__test_fail_alloc(1);
    assert_failed(eh_tile(x, SHAPE(2), 1), EH_ERR_NOMEM, "tile");
    /* a failed inner call: the first error is kept */
    assert_failed(eh_tile(eh_repeat(x, -1, 0), SHAPE(2), 1), EH_ERR_NEGATIVE_SIZE, "repeat");
    END();
}

/* ==== repeat =========================================================== */

static void test_repeat_axes(void **state)
{
    (void)state;
    BEGIN();
    /* NumPy doc: x = [[1, 2], [3, 4]]. */
    eh_tensor *x = T(EH_I32, SHAPE(2, 2), 1, 2, 3, 4);
    EXPECT(eh_repeat(x, 2, 0), EH_I32, SHAPE(4, 2), 1, 2, 1, 2, 3, 4, 3, 4);
    EXPECT(eh_repeat(x, 2, 1), EH_I32, SHAPE(2, 4), 1, 1, 2, 2, 3, 3, 4, 4);
    EXPECT(eh_repeat(x, 3, -1), EH_I32, SHAPE(2, 6), 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4);
    EXPECT(eh_repeat(x, 1, -2), EH_I32, SHAPE(2, 2), 1, 2, 3, 4);
    EXPECT_EMPTY(eh_repeat(x, 0, 1), EH_I32, SHAPE(2, 0));
    /* NumPy doc: np.repeat(x, 2) flattens. */
    EXPECT(eh_repeat_flat(x, 2), EH_I32, SHAPE(8), 1, 1, 2, 2, 3, 3, 4, 4);
    EXPECT_EMPTY(eh_repeat_flat(x, 0), EH_I32, SHAPE(0));
    END();
}

static void test_repeat_dtypes(void **state)
{
    (void)state;
    BEGIN();
    EXPECT(eh_repeat(T(EH_F16, SHAPE(1, 2), 0.5, -1.5), 3, 1), EH_F16, SHAPE(1, 6),
           0.5, 0.5, 0.5, -1.5, -1.5, -1.5);
    EXPECT(eh_repeat(T(EH_F64, SHAPE(3), 1, INFINITY, NAN), 2, 0), EH_F64, SHAPE(6),
           1, 1, INFINITY, INFINITY, NAN, NAN);
    EXPECT(eh_repeat(T(EH_BOOL, SHAPE(2, 1), 0, 1), 2, -1), EH_BOOL, SHAPE(2, 2), 0, 0, 1, 1);
    /* middle axis of a 3-D tensor */
    EXPECT(eh_repeat(T(EH_F32, SHAPE(2, 2, 1), 1, 2, 3, 4), 2, 1), EH_F32, SHAPE(2, 4, 1),
           1, 1, 2, 2, 3, 3, 4, 4);
    END();
}

static void test_repeat_0d_and_empty(void **state)
{
    (void)state;
    BEGIN();
    eh_tensor *s = T0(EH_F64, 5);
    EXPECT(eh_repeat_flat(s, 3), EH_F64, SHAPE(3), 5, 5, 5);
    assert_failed(eh_repeat(s, 3, 0), EH_ERR_AXIS, "repeat");
    EXPECT_EMPTY(eh_repeat(T_EMPTY(EH_I64, SHAPE(0)), 3, 0), EH_I64, SHAPE(0));
    EXPECT_EMPTY(eh_repeat(T_EMPTY(EH_I64, SHAPE(0, 2)), 3, 1), EH_I64, SHAPE(0, 6));
    EXPECT_EMPTY(eh_repeat_flat(T_EMPTY(EH_I64, SHAPE(2, 0)), 4), EH_I64, SHAPE(0));
    END();
}

static void test_repeat_errors(void **state)
{
    (void)state;
    BEGIN();
    eh_tensor *x = T(EH_F64, SHAPE(2, 2), 1, 2, 3, 4);
    assert_failed(eh_repeat(NULL, 2, 0), EH_ERR_NULL_ARG, "repeat");
    assert_failed(eh_repeat_flat(NULL, 2), EH_ERR_NULL_ARG, "repeat_flat");
    assert_failed(eh_repeat(x, 2, 2), EH_ERR_AXIS, "axis 2");
    assert_failed(eh_repeat(x, 2, -3), EH_ERR_AXIS, "axis -3");
    assert_failed(eh_repeat(x, -1, 0), EH_ERR_NEGATIVE_SIZE, "-1");
    assert_failed(eh_repeat_flat(x, -2), EH_ERR_NEGATIVE_SIZE, "repeat_flat");
    assert_failed(eh_repeat(x, INT64_MAX, 0), EH_ERR_OVERFLOW, "repeat");
    assert_failed(eh_repeat_flat(x, INT64_MAX / 2), EH_ERR_OVERFLOW, "repeat_flat");
    /* the count fits int64 but not the bytes */
    assert_failed(eh_repeat(x, INT64_C(1) << 61, 0), EH_ERR_OVERFLOW, "repeat");
    END();
}

/* ==== pad ============================================================== */

static void test_pad_constant(void **state)
{
    (void)state;
    BEGIN();
    eh_tensor *x = T(EH_F64, SHAPE(2, 2), 1, 2, 3, 4);
    EXPECT(eh_pad(x, SHAPE(1, 0, 0, 2), EH_PAD_CONSTANT, 9), EH_F64, SHAPE(3, 4),
           9, 9, 9, 9, 1, 2, 9, 9, 3, 4, 9, 9);
    EXPECT(eh_pad(x, SHAPE(0, 0, 0, 0), EH_PAD_CONSTANT, 9), EH_F64, SHAPE(2, 2), 1, 2, 3, 4);
    EXPECT(eh_pad(x, SHAPE(0, 1, 1, 0), EH_PAD_CONSTANT, NAN), EH_F64, SHAPE(3, 3),
           NAN, 1, 2, NAN, 3, 4, NAN, NAN, NAN);
    EXPECT(eh_pad(T(EH_F32, SHAPE(1), 1), SHAPE(1, 1), EH_PAD_CONSTANT, -INFINITY), EH_F32,
           SHAPE(3), -INFINITY, 1, -INFINITY);
    /* the value is converted like a cast: truncation toward zero, NaN -> 0 */
    eh_tensor *i = T(EH_I32, SHAPE(1), 1);
    EXPECT(eh_pad(i, SHAPE(1, 1), EH_PAD_CONSTANT, 2.7), EH_I32, SHAPE(3), 2, 1, 2);
    EXPECT(eh_pad(i, SHAPE(2, 0), EH_PAD_CONSTANT, -2.7), EH_I32, SHAPE(3), -2, -2, 1);
    EXPECT(eh_pad(i, SHAPE(0, 1), EH_PAD_CONSTANT, NAN), EH_I32, SHAPE(2), 1, 0);
    EXPECT(eh_pad(T(EH_BOOL, SHAPE(1), 0), SHAPE(1, 1), EH_PAD_CONSTANT, 0.5), EH_BOOL,
           SHAPE(3), 1, 0, 1);
    EXPECT(eh_pad(T(EH_F16, SHAPE(2), 1, 2), SHAPE(1, 1), EH_PAD_CONSTANT, -0.25), EH_F16,
           SHAPE(4), -0.25, 1, 2, -0.25);
    END();
}

static void test_pad_modes_numpy_doc(void **state)
{
    (void)state;
    BEGIN();
    /* NumPy doc: a = [1, 2, 3, 4, 5], pad_width (2, 3). */
    eh_tensor *a = T(EH_F64, SHAPE(5), 1, 2, 3, 4, 5);
    EXPECT(eh_pad(a, SHAPE(2, 3), EH_PAD_EDGE, 0), EH_F64, SHAPE(10), 1, 1, 1, 2, 3, 4, 5, 5, 5, 5);
    EXPECT(eh_pad(a, SHAPE(2, 3), EH_PAD_REFLECT, 0), EH_F64, SHAPE(10),
           3, 2, 1, 2, 3, 4, 5, 4, 3, 2);
    EXPECT(eh_pad(a, SHAPE(2, 3), EH_PAD_SYMMETRIC, 0), EH_F64, SHAPE(10),
           2, 1, 1, 2, 3, 4, 5, 5, 4, 3);
    EXPECT(eh_pad(a, SHAPE(2, 3), EH_PAD_WRAP, 0), EH_F64, SHAPE(10),
           4, 5, 1, 2, 3, 4, 5, 1, 2, 3);
    END();
}

static void test_pad_wider_than_axis(void **state)
{
    (void)state;
    BEGIN();
    eh_tensor *a = T(EH_I32, SHAPE(3), 1, 2, 3);
    /* reflect, period 4: positions -5..-1 -> 2 1 2 3 2, 3..6 -> 2 1 2 3 */
    EXPECT(eh_pad(a, SHAPE(5, 4), EH_PAD_REFLECT, 0), EH_I32, SHAPE(12),
           2, 1, 2, 3, 2, 1, 2, 3, 2, 1, 2, 3);
    eh_tensor *b = T(EH_I64, SHAPE(2), 1, 2);
    /* symmetric, period 4: ... 2 2 1 | 1 2 | 2 1 1 ... */
    EXPECT(eh_pad(b, SHAPE(3, 3), EH_PAD_SYMMETRIC, 0), EH_I64, SHAPE(8), 2, 2, 1, 1, 2, 2, 1, 1);
    EXPECT(eh_pad(b, SHAPE(3, 3), EH_PAD_WRAP, 0), EH_I64, SHAPE(8), 2, 1, 2, 1, 2, 1, 2, 1);
    EXPECT(eh_pad(b, SHAPE(3, 1), EH_PAD_EDGE, 0), EH_I64, SHAPE(6), 1, 1, 1, 1, 2, 2);
    /* reflect of a length-1 axis repeats the element (NumPy legacy) */
    EXPECT(eh_pad(T(EH_F16, SHAPE(1), 7), SHAPE(2, 1), EH_PAD_REFLECT, 0), EH_F16, SHAPE(4),
           7, 7, 7, 7);
    EXPECT(eh_pad(T(EH_BOOL, SHAPE(1), 1), SHAPE(1, 2), EH_PAD_SYMMETRIC, 0), EH_BOOL, SHAPE(4),
           1, 1, 1, 1);
    END();
}

/* Padding wider than the axis on both sides.  Expected values are NumPy
 * >= 2.1's: the first four are test_check_04 .. test_check_07 of
 * TestReflect / TestSymmetric in numpy/lib/tests/test_arraypad.py
 * (NumPy 2.1), the rest are the periodic mirror image, which NumPy 2.1's
 * _set_reflect_both produces (gh-25926, PR #25963: each round pads a
 * multiple of the original period).  NumPy <= 2.0 (1.24 in Debian 12)
 * mirrors in rounds that reuse values padded on the other side and gives
 * different values for all of these, e.g. [1, 2, 3] reflect (9, 1):
 * 2 3 2 3 2 1 2 3 2 | 1 2 3 | 2; libeh follows NumPy >= 2.1. */
static void test_pad_mirror_numpy_2_1(void **state)
{
    (void)state;
    BEGIN();
    eh_tensor *a = T(EH_I32, SHAPE(3), 1, 2, 3);
    eh_tensor *a4 = T(EH_I64, SHAPE(4), 1, 2, 3, 4);
    /* test_check_04 (reflect) */
    EXPECT(eh_pad(a, SHAPE(1, 10), EH_PAD_REFLECT, 0), EH_I32, SHAPE(14),
           2, 1, 2, 3, 2, 1, 2, 3, 2, 1, 2, 3, 2, 1);
    /* test_check_05 (reflect) */
    EXPECT(eh_pad(a4, SHAPE(45, 10), EH_PAD_REFLECT, 0), EH_I64, SHAPE(59),
           4, 3, 2, 1, 2, 3, 4, 3, 2, 1,
           2, 3, 4, 3, 2, 1, 2, 3, 4, 3,
           2, 1, 2, 3, 4, 3, 2, 1, 2, 3,
           4, 3, 2, 1, 2, 3, 4, 3, 2, 1,
           2, 3, 4, 3, 2, 1, 2, 3, 4, 3,
           2, 1, 2, 3, 4, 3, 2, 1, 2);
    /* test_check_06 (symmetric) */
    EXPECT(eh_pad(a4, SHAPE(15, 2), EH_PAD_SYMMETRIC, 0), EH_I64, SHAPE(21),
           2, 3, 4, 4, 3, 2, 1, 1, 2, 3,
           4, 4, 3, 2, 1, 1, 2, 3, 4, 4,
           3);
    /* test_check_07 (symmetric) */
    EXPECT(eh_pad(T(EH_F64, SHAPE(6), 1, 2, 3, 4, 5, 6), SHAPE(45, 3), EH_PAD_SYMMETRIC, 0),
           EH_F64, SHAPE(54),
           4, 5, 6, 6, 5, 4, 3, 2, 1, 1,
           2, 3, 4, 5, 6, 6, 5, 4, 3, 2,
           1, 1, 2, 3, 4, 5, 6, 6, 5, 4,
           3, 2, 1, 1, 2, 3, 4, 5, 6, 6,
           5, 4, 3, 2, 1, 1, 2, 3, 4, 5,
           6, 6, 5, 4);
    /* the wide side before the axis */
    EXPECT(eh_pad(a, SHAPE(9, 1), EH_PAD_REFLECT, 0), EH_I32, SHAPE(13),
           2, 1, 2, 3, 2, 1, 2, 3, 2, 1, 2, 3, 2);
    eh_tensor *b = T(EH_F32, SHAPE(2), 1, 2);
    EXPECT(eh_pad(b, SHAPE(8, 1), EH_PAD_SYMMETRIC, 0), EH_F32, SHAPE(11),
           1, 2, 2, 1, 1, 2, 2, 1, 1, 2, 2);
    EXPECT(eh_pad(b, SHAPE(1, 8), EH_PAD_SYMMETRIC, 0), EH_F32, SHAPE(11),
           1, 1, 2, 2, 1, 1, 2, 2, 1, 1, 2);
    /* per axis inside a 2-D tensor */
    eh_tensor *x = T(EH_I64, SHAPE(2, 3), 1, 2, 3, 4, 5, 6);
    EXPECT(eh_pad(x, SHAPE(1, 0, 9, 1), EH_PAD_REFLECT, 0), EH_I64, SHAPE(3, 13),
           5, 4, 5, 6, 5, 4, 5, 6, 5, 4, 5, 6, 5,
           2, 1, 2, 3, 2, 1, 2, 3, 2, 1, 2, 3, 2,
           5, 4, 5, 6, 5, 4, 5, 6, 5, 4, 5, 6, 5);
    END();
}

static void test_pad_2d_modes(void **state)
{
    (void)state;
    BEGIN();
    eh_tensor *x = T(EH_F64, SHAPE(2, 3), 1, 2, 3, 4, 5, 6);
    /* rows: reflect of 2 rows by (1, 1) -> rows 1 0 1 0;
     * columns: reflect by (2, 0) -> columns 2 1 0 1 2 */
    EXPECT(eh_pad(x, SHAPE(1, 1, 2, 0), EH_PAD_REFLECT, 0), EH_F64, SHAPE(4, 5),
           6, 5, 4, 5, 6,
           3, 2, 1, 2, 3,
           6, 5, 4, 5, 6,
           3, 2, 1, 2, 3);
    /* edge by (1, 0) rows and (0, 1) columns */
    EXPECT(eh_pad(x, SHAPE(1, 0, 0, 1), EH_PAD_EDGE, 0), EH_F64, SHAPE(3, 4),
           1, 2, 3, 3, 1, 2, 3, 3, 4, 5, 6, 6);
    /* wrap by (0, 1) rows and (1, 1) columns */
    EXPECT(eh_pad(x, SHAPE(0, 1, 1, 1), EH_PAD_WRAP, 0), EH_F64, SHAPE(3, 5),
           3, 1, 2, 3, 1, 6, 4, 5, 6, 4, 3, 1, 2, 3, 1);
    END();
}

static void test_pad_0d_and_empty(void **state)
{
    (void)state;
    BEGIN();
    EXPECT0(eh_pad(T0(EH_F64, 3.5), NULL, EH_PAD_REFLECT, 0), EH_F64, 3.5);
    EXPECT(eh_pad(T_EMPTY(EH_F64, SHAPE(0)), SHAPE(1, 2), EH_PAD_CONSTANT, 5), EH_F64, SHAPE(3),
           5, 5, 5);
    /* an empty tensor padded along a non-empty axis stays empty: no error */
    EXPECT_EMPTY(eh_pad(T_EMPTY(EH_I32, SHAPE(0, 3)), SHAPE(0, 0, 1, 1), EH_PAD_EDGE, 0), EH_I32,
                 SHAPE(0, 5));
    EXPECT(eh_pad(T_EMPTY(EH_I32, SHAPE(0, 2)), SHAPE(1, 0, 0, 0), EH_PAD_CONSTANT, 4), EH_I32,
           SHAPE(1, 2), 4, 4);
    EXPECT_EMPTY(eh_pad(T_EMPTY(EH_I32, SHAPE(0)), SHAPE(0, 0), EH_PAD_WRAP, 0), EH_I32, SHAPE(0));
    END();
}

static void test_pad_errors(void **state)
{
    (void)state;
    BEGIN();
    eh_tensor *x = T(EH_F64, SHAPE(2), 1, 2);
    assert_failed(eh_pad(NULL, SHAPE(1, 1), EH_PAD_CONSTANT, 0), EH_ERR_NULL_ARG, "pad");
    assert_failed(eh_pad(x, NULL, EH_PAD_CONSTANT, 0), EH_ERR_NULL_ARG, "pad_width");
    assert_failed(eh_pad(x, SHAPE(-1, 0), EH_PAD_CONSTANT, 0), EH_ERR_NEGATIVE_SIZE, "(-1, 0)");
    assert_failed(eh_pad(x, SHAPE(0, -3), EH_PAD_EDGE, 0), EH_ERR_NEGATIVE_SIZE, "axis 0");
    assert_failed(eh_pad(x, SHAPE(1, 1), (eh_pad_mode)99, 0), EH_ERR_INVALID_ARG, "mode 99");
    assert_failed(eh_pad(x, SHAPE(1, 1), (eh_pad_mode)-1, 0), EH_ERR_INVALID_ARG, "mode -1");
    eh_tensor *e = T_EMPTY(EH_F64, SHAPE(2, 0));
    assert_failed(eh_pad(e, SHAPE(0, 0, 1, 0), EH_PAD_EDGE, 0), EH_ERR_SHAPE, "(2, 0)");
    assert_failed(eh_pad(e, SHAPE(0, 0, 0, 1), EH_PAD_REFLECT, 0), EH_ERR_SHAPE, "reflect");
    assert_failed(eh_pad(e, SHAPE(0, 0, 2, 2), EH_PAD_SYMMETRIC, 0), EH_ERR_SHAPE, "symmetric");
    assert_failed(eh_pad(e, SHAPE(0, 0, 1, 1), EH_PAD_WRAP, 0), EH_ERR_SHAPE, "wrap");
    assert_failed(eh_pad(x, SHAPE(INT64_MAX - 1, 0), EH_PAD_CONSTANT, 0), EH_ERR_OVERFLOW, "pad");
    assert_failed(eh_pad(x, SHAPE(INT64_MAX / 2, INT64_MAX / 2), EH_PAD_CONSTANT, 0),
                  EH_ERR_OVERFLOW, "pad");
    /* the dimension fits int64, the bytes do not */
    assert_failed(eh_pad(x, SHAPE(INT64_C(1) << 61, 0), EH_PAD_CONSTANT, 0), EH_ERR_OVERFLOW,
                  "pad");
    END();
}

/* ==== roll ============================================================= */

static void test_roll_numpy_doc(void **state)
{
    (void)state;
    BEGIN();
    /* NumPy doc: x = np.arange(10). */
    eh_tensor *x = T(EH_I64, SHAPE(10), 0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
    EXPECT(eh_roll(x, 2, 0), EH_I64, SHAPE(10), 8, 9, 0, 1, 2, 3, 4, 5, 6, 7);
    EXPECT(eh_roll(x, -2, -1), EH_I64, SHAPE(10), 2, 3, 4, 5, 6, 7, 8, 9, 0, 1);
    /* NumPy doc: x2 = np.reshape(x, (2, 5)). */
    eh_tensor *x2 = T(EH_I32, SHAPE(2, 5), 0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
    EXPECT(eh_roll_flat(x2, 1), EH_I32, SHAPE(2, 5), 9, 0, 1, 2, 3, 4, 5, 6, 7, 8);
    EXPECT(eh_roll_flat(x2, -1), EH_I32, SHAPE(2, 5), 1, 2, 3, 4, 5, 6, 7, 8, 9, 0);
    EXPECT(eh_roll(x2, 1, 0), EH_I32, SHAPE(2, 5), 5, 6, 7, 8, 9, 0, 1, 2, 3, 4);
    EXPECT(eh_roll(x2, -1, 0), EH_I32, SHAPE(2, 5), 5, 6, 7, 8, 9, 0, 1, 2, 3, 4);
    EXPECT(eh_roll(x2, 1, 1), EH_I32, SHAPE(2, 5), 4, 0, 1, 2, 3, 9, 5, 6, 7, 8);
    EXPECT(eh_roll(x2, -1, -1), EH_I32, SHAPE(2, 5), 1, 2, 3, 4, 0, 6, 7, 8, 9, 5);
    END();
}

static void test_roll_large_shifts(void **state)
{
    (void)state;
    BEGIN();
    eh_tensor *x = T(EH_F64, SHAPE(10), 0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
    EXPECT(eh_roll(x, 12, 0), EH_F64, SHAPE(10), 8, 9, 0, 1, 2, 3, 4, 5, 6, 7);
    EXPECT(eh_roll(x, 10, 0), EH_F64, SHAPE(10), 0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
    EXPECT(eh_roll(x, -23, 0), EH_F64, SHAPE(10), 3, 4, 5, 6, 7, 8, 9, 0, 1, 2);
    /* INT64_MAX mod 10 = 7; INT64_MIN mod 10 = 2 (floor modulo) */
    EXPECT(eh_roll(x, INT64_MAX, 0), EH_F64, SHAPE(10), 3, 4, 5, 6, 7, 8, 9, 0, 1, 2);
    EXPECT(eh_roll_flat(x, INT64_MIN), EH_F64, SHAPE(10), 8, 9, 0, 1, 2, 3, 4, 5, 6, 7);
    END();
}

static void test_roll_dtypes_0d_empty(void **state)
{
    (void)state;
    BEGIN();
    EXPECT(eh_roll(T(EH_F16, SHAPE(3), 0.5, 1.5, NAN), 1, 0), EH_F16, SHAPE(3), NAN, 0.5, 1.5);
    EXPECT(eh_roll(T(EH_BOOL, SHAPE(2, 2), 1, 0, 0, 0), 1, -1), EH_BOOL, SHAPE(2, 2), 0, 1, 0, 0);
    EXPECT(eh_roll(T(EH_F32, SHAPE(2, 2, 2), 1, 2, 3, 4, 5, 6, 7, 8), 1, 1), EH_F32,
           SHAPE(2, 2, 2), 3, 4, 1, 2, 7, 8, 5, 6);
    eh_tensor *s = T0(EH_I32, 4);
    EXPECT0(eh_roll_flat(s, 3), EH_I32, 4);
    assert_failed(eh_roll(s, 1, 0), EH_ERR_AXIS, "roll");
    EXPECT_EMPTY(eh_roll(T_EMPTY(EH_F64, SHAPE(0)), 3, 0), EH_F64, SHAPE(0));
    EXPECT_EMPTY(eh_roll(T_EMPTY(EH_F64, SHAPE(2, 0)), 1, 0), EH_F64, SHAPE(2, 0));
    EXPECT_EMPTY(eh_roll_flat(T_EMPTY(EH_F64, SHAPE(2, 0)), -5), EH_F64, SHAPE(2, 0));
    END();
}

static void test_roll_errors(void **state)
{
    (void)state;
    BEGIN();
    eh_tensor *x = T(EH_F64, SHAPE(2, 2), 1, 2, 3, 4);
    assert_failed(eh_roll(NULL, 1, 0), EH_ERR_NULL_ARG, "roll");
    assert_failed(eh_roll_flat(NULL, 1), EH_ERR_NULL_ARG, "roll_flat");
    assert_failed(eh_roll(x, 1, 2), EH_ERR_AXIS, "axis 2");
    assert_failed(eh_roll(x, 1, -3), EH_ERR_AXIS, "axis -3");
    END();
}

/* ==== gather =========================================================== */

static void test_gather_basic(void **state)
{
    (void)state;
    BEGIN();
    eh_tensor *x = T(EH_F64, SHAPE(3, 2), 1, 2, 3, 4, 5, 6);
    EXPECT(eh_gather(x, T(EH_I64, SHAPE(2), 2, 0), 0), EH_F64, SHAPE(2, 2), 5, 6, 1, 2);
    EXPECT(eh_gather(x, T(EH_I32, SHAPE(3), -1, -3, 1), 0), EH_F64, SHAPE(3, 2),
           5, 6, 1, 2, 3, 4);
    EXPECT(eh_gather(x, T(EH_I32, SHAPE(4), 1, 1, 0, -2), -1), EH_F64, SHAPE(3, 4),
           2, 2, 1, 1, 4, 4, 3, 3, 6, 6, 5, 5);
    /* NumPy doc: np.take([4, 3, 5, 7, 6, 8], [[0, 1], [2, 3]]) */
    eh_tensor *a = T(EH_I32, SHAPE(6), 4, 3, 5, 7, 6, 8);
    EXPECT(eh_gather(a, T(EH_I64, SHAPE(2, 2), 0, 1, 2, 3), 0), EH_I32, SHAPE(2, 2), 4, 3, 5, 7);
    END();
}

static void test_gather_index_shapes(void **state)
{
    (void)state;
    BEGIN();
    eh_tensor *x = T(EH_F32, SHAPE(2, 3), 1, 2, 3, 4, 5, 6);
    /* out shape x.shape[:1] + (2, 2) + x.shape[2:] = (2, 2, 2) */
    EXPECT(eh_gather(x, T(EH_I32, SHAPE(2, 2), 0, 2, -1, 1), 1), EH_F32, SHAPE(2, 2, 2),
           1, 3, 3, 2, 4, 6, 6, 5);
    /* 0-d index removes the axis */
    eh_tensor *v = T(EH_I64, SHAPE(3), 10, 20, 30);
    EXPECT0(eh_gather(v, T0(EH_I64, 1), 0), EH_I64, 20);
    EXPECT(eh_gather(x, T0(EH_I32, -1), 1), EH_F32, SHAPE(2), 3, 6);
    EXPECT(eh_gather(x, T0(EH_I32, 1), 0), EH_F32, SHAPE(3), 4, 5, 6);
    /* empty indices */
    EXPECT_EMPTY(eh_gather(x, T_EMPTY(EH_I64, SHAPE(0)), 0), EH_F32, SHAPE(0, 3));
    EXPECT_EMPTY(eh_gather(x, T_EMPTY(EH_I32, SHAPE(2, 0)), 1), EH_F32, SHAPE(2, 2, 0));
    /* empty x along another axis, in-range index */
    EXPECT_EMPTY(eh_gather(T_EMPTY(EH_F64, SHAPE(0, 3)), T(EH_I64, SHAPE(1), 2), 1), EH_F64,
                 SHAPE(0, 1));
    END();
}

static void test_gather_dtypes(void **state)
{
    (void)state;
    BEGIN();
    eh_tensor *idx = T(EH_I32, SHAPE(3), 2, 2, 0);
    EXPECT(eh_gather(T(EH_F16, SHAPE(3), 0.5, -1.5, NAN), idx, 0), EH_F16, SHAPE(3),
           NAN, NAN, 0.5);
    EXPECT(eh_gather(T(EH_BOOL, SHAPE(3), 1, 0, 0), idx, 0), EH_BOOL, SHAPE(3), 0, 0, 1);
    int64_t big[3] = {INT64_MIN, 0, INT64_MAX};
    eh_tensor *g = eh_gather(i64_tensor(1, SHAPE(3), big), idx, 0);
    assert_non_null(g);
    const int64_t *d = eh_data_i64(g);
    assert_true(d[0] == INT64_MAX && d[1] == INT64_MAX && d[2] == INT64_MIN);
    END();
}

static void test_gather_errors(void **state)
{
    (void)state;
    BEGIN();
    eh_tensor *x = T(EH_F64, SHAPE(3, 2), 1, 2, 3, 4, 5, 6);
    eh_tensor *i = T(EH_I64, SHAPE(1), 0);
    assert_failed(eh_gather(NULL, i, 0), EH_ERR_NULL_ARG, "gather");
    assert_failed(eh_gather(x, NULL, 0), EH_ERR_NULL_ARG, "indices");
    assert_failed(eh_gather(x, T(EH_F32, SHAPE(1), 0), 0), EH_ERR_DTYPE, "f32");
    assert_failed(eh_gather(x, T(EH_BOOL, SHAPE(1), 1), 0), EH_ERR_DTYPE, "bool");
    assert_failed(eh_gather(x, i, 2), EH_ERR_AXIS, "axis 2");
    assert_failed(eh_gather(x, i, -3), EH_ERR_AXIS, "axis -3");
    assert_failed(eh_gather(T0(EH_F64, 1), i, 0), EH_ERR_AXIS, "gather");
    assert_data_error(eh_gather(x, T(EH_I64, SHAPE(2), 0, 3), 0), EH_ERR_INDEX, "index 3");
    assert_data_error(eh_gather(x, T(EH_I32, SHAPE(2), 0, -4), 0), EH_ERR_INDEX, "index -4");
    assert_data_error(eh_gather(x, T(EH_I32, SHAPE(1), 2), 1), EH_ERR_INDEX, "size 2");
    /* an empty axis has no valid index */
    assert_data_error(eh_gather(T_EMPTY(EH_F64, SHAPE(0, 2)), i, 0), EH_ERR_INDEX, "index 0");
    /* checked even when the result is empty */
    assert_data_error(eh_gather(T_EMPTY(EH_F64, SHAPE(0, 3)), T(EH_I64, SHAPE(1), 5), 1),
                      EH_ERR_INDEX, "index 5");
    /* 8 - 1 + 2 = 9 dimensions */
    eh_tensor *x8 = T(EH_F64, SHAPE(1, 1, 1, 1, 1, 1, 1, 1), 1);
    assert_failed(eh_gather(x8, T(EH_I64, SHAPE(1, 1), 0), 0), EH_ERR_SHAPE, "9 dimensions");
    eh_tensor *i32 = T(EH_I32, SHAPE(1), 0);
    eh__test_fail_alloc(1); /* the i32 -> i64 cast of the indices */
    assert_failed(eh_gather(x, i32, 0), EH_ERR_NOMEM, NULL);
    END();
}

/* ==== scatter ========================================================== */

/* values [1, 4, 3, 2, 5] to indices [0, 2, 0, 2, 3], dim_size 5:
 *   row 0 <- 1 (pos 0), 3 (pos 2); row 2 <- 4 (pos 1), 2 (pos 3);
 *   row 3 <- 5; rows 1 and 4 get nothing. */
static void test_scatter_aggregations(void **state)
{
    (void)state;
    BEGIN();
    eh_tensor *v = T(EH_F64, SHAPE(5), 1, 4, 3, 2, 5);
    eh_tensor *i = T(EH_I64, SHAPE(5), 0, 2, 0, 2, 3);
    EXPECT(eh_scatter(v, i, 5, EH_SCATTER_ADD), EH_F64, SHAPE(5), 4, 0, 6, 5, 0);
    EXPECT(eh_scatter(v, i, 5, EH_SCATTER_MEAN), EH_F64, SHAPE(5), 2, 0, 3, 5, 0);
    EXPECT(eh_scatter(v, i, 5, EH_SCATTER_MAX), EH_F64, SHAPE(5), 3, 0, 4, 5, 0);
    EXPECT(eh_scatter(v, i, 5, EH_SCATTER_MIN), EH_F64, SHAPE(5), 1, 0, 2, 5, 0);
    EXPECT(eh_scatter(v, i, 5, EH_SCATTER_REPLACE), EH_F64, SHAPE(5), 3, 0, 2, 5, 0);
    /* auto dim_size: max index 3 + 1 */
    EXPECT(eh_scatter(v, i, EH_SCATTER_AUTO, EH_SCATTER_ADD), EH_F64, SHAPE(4), 4, 0, 6, 5);
    EXPECT(eh_scatter(v, T(EH_I32, SHAPE(5), 0, 2, 0, 2, 3), EH_SCATTER_AUTO, EH_SCATTER_REPLACE),
           EH_F64, SHAPE(4), 3, 0, 2, 5);
    END();
}

static void test_scatter_rows(void **state)
{
    (void)state;
    BEGIN();
    /* rows [1 2], [3 4], [5 6] to [1, 0, 1] */
    eh_tensor *v = T(EH_F32, SHAPE(3, 2), 1, 2, 3, 4, 5, 6);
    eh_tensor *i = T(EH_I32, SHAPE(3), 1, 0, 1);
    EXPECT(eh_scatter(v, i, 2, EH_SCATTER_ADD), EH_F32, SHAPE(2, 2), 3, 4, 6, 8);
    EXPECT(eh_scatter(v, i, 3, EH_SCATTER_MEAN), EH_F32, SHAPE(3, 2), 3, 4, 3, 4, 0, 0);
    EXPECT(eh_scatter(v, i, 2, EH_SCATTER_MAX), EH_F32, SHAPE(2, 2), 3, 4, 5, 6);
    EXPECT(eh_scatter(v, i, 2, EH_SCATTER_MIN), EH_F32, SHAPE(2, 2), 3, 4, 1, 2);
    EXPECT(eh_scatter(v, i, 2, EH_SCATTER_REPLACE), EH_F32, SHAPE(2, 2), 3, 4, 5, 6);
    /* 3-D values: rows of shape (1, 2) */
    eh_tensor *v3 = T(EH_F64, SHAPE(2, 1, 2), 1, -2, 3, -4);
    EXPECT(eh_scatter(v3, T(EH_I64, SHAPE(2), 0, 0), 1, EH_SCATTER_MIN), EH_F64, SHAPE(1, 1, 2),
           1, -4);
    END();
}

static void test_scatter_int_dtypes(void **state)
{
    (void)state;
    BEGIN();
    eh_tensor *v = T(EH_I32, SHAPE(3), 1, 2, 4);
    eh_tensor *i = T(EH_I64, SHAPE(3), 0, 0, 1);
    EXPECT(eh_scatter(v, i, 3, EH_SCATTER_ADD), EH_I32, SHAPE(3), 3, 4, 0);
    /* mean of integers is f64, like np.mean */
    EXPECT(eh_scatter(v, i, 3, EH_SCATTER_MEAN), EH_F64, SHAPE(3), 1.5, 4, 0);
    EXPECT(eh_scatter(v, i, 3, EH_SCATTER_MAX), EH_I32, SHAPE(3), 2, 4, 0);
    EXPECT(eh_scatter(v, i, 3, EH_SCATTER_MIN), EH_I32, SHAPE(3), 1, 4, 0);
    EXPECT(eh_scatter(v, i, 3, EH_SCATTER_REPLACE), EH_I32, SHAPE(3), 2, 4, 0);
    /* negative values: MAX of an all-negative group is not the empty 0 */
    eh_tensor *n = T(EH_I64, SHAPE(2), -5, -3);
    eh_tensor *z = T(EH_I64, SHAPE(2), 1, 1);
    EXPECT(eh_scatter(n, z, 2, EH_SCATTER_MAX), EH_I64, SHAPE(2), 0, -3);
    EXPECT(eh_scatter(n, z, 2, EH_SCATTER_MIN), EH_I64, SHAPE(2), 0, -5);
    /* integer add wraps */
    EXPECT(eh_scatter(T(EH_I32, SHAPE(2), 2147483647, 1), z, 2, EH_SCATTER_ADD), EH_I32, SHAPE(2),
           0, -2147483648.0);
    int64_t big[2] = {INT64_MAX, 1};
    eh_tensor *s = eh_scatter(i64_tensor(1, SHAPE(2), big), z, 2, EH_SCATTER_ADD);
    assert_non_null(s);
    assert_true(eh_data_i64(s)[0] == 0 && eh_data_i64(s)[1] == INT64_MIN);
    END();
}

static void test_scatter_bool(void **state)
{
    (void)state;
    BEGIN();
    eh_tensor *v = T(EH_BOOL, SHAPE(4), 1, 1, 0, 1);
    eh_tensor *i = T(EH_I32, SHAPE(4), 0, 0, 1, 1);
    /* add counts the true values, as i64 */
    EXPECT(eh_scatter(v, i, 3, EH_SCATTER_ADD), EH_I64, SHAPE(3), 2, 1, 0);
    EXPECT(eh_scatter(v, i, 3, EH_SCATTER_MEAN), EH_F64, SHAPE(3), 1, 0.5, 0);
    EXPECT(eh_scatter(v, i, 3, EH_SCATTER_MAX), EH_BOOL, SHAPE(3), 1, 1, 0);
    EXPECT(eh_scatter(v, i, 3, EH_SCATTER_MIN), EH_BOOL, SHAPE(3), 1, 0, 0);
    EXPECT(eh_scatter(v, i, 3, EH_SCATTER_REPLACE), EH_BOOL, SHAPE(3), 1, 1, 0);
    END();
}

static void test_scatter_float_rounding(void **state)
{
    (void)state;
    BEGIN();
    eh_tensor *z3 = T(EH_I64, SHAPE(3), 0, 0, 0);
    /* f16 accumulates in f32: 2048 + 1 + 1 = 2050 (representable in f16);
     * adding in f16 would round 2049 back to 2048 each step. */
    EXPECT(eh_scatter(T(EH_F16, SHAPE(3), 2048, 1, 1), z3, 1, EH_SCATTER_ADD), EH_F16, SHAPE(1),
           2050);
    /* f32 adds in f32, in index order: 2^24 + 1 rounds to 2^24 (ties to
     * even), twice; a wider accumulator would give 2^24 + 2. */
    EXPECT(eh_scatter(T(EH_F32, SHAPE(3), 16777216, 1, 1), z3, 1, EH_SCATTER_ADD), EH_F32,
           SHAPE(1), 16777216);
    EXPECT(eh_scatter(T(EH_F64, SHAPE(3), 16777216, 1, 1), z3, 1, EH_SCATTER_ADD), EH_F64,
           SHAPE(1), 16777218);
    /* f16 mean stays f16 */
    EXPECT(eh_scatter(T(EH_F16, SHAPE(3), 0.5, 1.5, 3), T(EH_I32, SHAPE(3), 1, 1, 0), 2,
                      EH_SCATTER_MEAN), EH_F16, SHAPE(2), 3, 1);
    /* f32 mean 1/3 */
    eh_tensor *m = eh_scatter(T(EH_F32, SHAPE(3), 0, 0, 1), z3, 1, EH_SCATTER_MEAN);
    assert_non_null(m);
    assert_true(eh_data_f32(m)[0] == 1.0f / 3.0f);
    END();
}

static void test_scatter_nan_inf(void **state)
{
    (void)state;
    BEGIN();
    eh_tensor *v = T(EH_F64, SHAPE(6), 1, NAN, 2, -INFINITY, -5, INFINITY);
    eh_tensor *i = T(EH_I64, SHAPE(6), 0, 0, 0, 1, 1, 2);
    EXPECT(eh_scatter(v, i, 3, EH_SCATTER_MAX), EH_F64, SHAPE(3), NAN, -5, INFINITY);
    EXPECT(eh_scatter(v, i, 3, EH_SCATTER_MIN), EH_F64, SHAPE(3), NAN, -INFINITY, INFINITY);
    EXPECT(eh_scatter(v, i, 3, EH_SCATTER_ADD), EH_F64, SHAPE(3), NAN, -INFINITY, INFINITY);
    EXPECT(eh_scatter(v, i, 3, EH_SCATTER_MEAN), EH_F64, SHAPE(3), NAN, -INFINITY, INFINITY);
    /* NaN first in its group still wins */
    eh_tensor *w = T(EH_F32, SHAPE(2), NAN, 7);
    EXPECT(eh_scatter(w, T(EH_I32, SHAPE(2), 0, 0), 1, EH_SCATTER_MAX), EH_F32, SHAPE(1), NAN);
    EXPECT(eh_scatter(w, T(EH_I32, SHAPE(2), 0, 0), 1, EH_SCATTER_MIN), EH_F32, SHAPE(1), NAN);
    END();
}

static void test_scatter_empty(void **state)
{
    (void)state;
    BEGIN();
    eh_tensor *ev = T_EMPTY(EH_F64, SHAPE(0));
    eh_tensor *ei = T_EMPTY(EH_I64, SHAPE(0));
    EXPECT_EMPTY(eh_scatter(ev, ei, EH_SCATTER_AUTO, EH_SCATTER_ADD), EH_F64, SHAPE(0));
    EXPECT(eh_scatter(ev, ei, 3, EH_SCATTER_MAX), EH_F64, SHAPE(3), 0, 0, 0);
    EXPECT(eh_scatter(T_EMPTY(EH_I32, SHAPE(0)), T_EMPTY(EH_I32, SHAPE(0)), 2, EH_SCATTER_MEAN),
           EH_F64, SHAPE(2), 0, 0);
    EXPECT(eh_scatter(T_EMPTY(EH_F16, SHAPE(0, 2)), ei, 2, EH_SCATTER_REPLACE), EH_F16,
           SHAPE(2, 2), 0, 0, 0, 0);
    EXPECT_EMPTY(eh_scatter(T_EMPTY(EH_F64, SHAPE(0, 2)), ei, EH_SCATTER_AUTO, EH_SCATTER_MIN),
                 EH_F64, SHAPE(0, 2));
    /* rows of size 0: shape only, indices still define dim_size */
    EXPECT_EMPTY(eh_scatter(T_EMPTY(EH_F64, SHAPE(2, 0)), T(EH_I64, SHAPE(2), 4, 1),
                            EH_SCATTER_AUTO, EH_SCATTER_ADD), EH_F64, SHAPE(5, 0));
    /* dim_size 0 with no rows */
    EXPECT_EMPTY(eh_scatter(ev, ei, 0, EH_SCATTER_ADD), EH_F64, SHAPE(0));
    END();
}

static void test_scatter_errors(void **state)
{
    (void)state;
    BEGIN();
    eh_tensor *v = T(EH_F64, SHAPE(3), 1, 2, 3);
    eh_tensor *i = T(EH_I64, SHAPE(3), 0, 1, 0);
    assert_failed(eh_scatter(NULL, i, 2, EH_SCATTER_ADD), EH_ERR_NULL_ARG, "values");
    assert_failed(eh_scatter(v, NULL, 2, EH_SCATTER_ADD), EH_ERR_NULL_ARG, "indices");
    assert_failed(eh_scatter(v, T(EH_F64, SHAPE(3), 0, 1, 0), 2, EH_SCATTER_ADD), EH_ERR_DTYPE,
                  "f64");
    assert_failed(eh_scatter(v, T(EH_BOOL, SHAPE(3), 0, 1, 0), 2, EH_SCATTER_ADD), EH_ERR_DTYPE,
                  "bool");
    assert_failed(eh_scatter(T0(EH_F64, 1), T0(EH_I64, 0), 2, EH_SCATTER_ADD), EH_ERR_SHAPE,
                  "at least 1 dimension");
    assert_failed(eh_scatter(v, T(EH_I64, SHAPE(2), 0, 1), 2, EH_SCATTER_ADD), EH_ERR_SHAPE,
                  "(2,)");
    assert_failed(eh_scatter(v, T(EH_I64, SHAPE(3, 1), 0, 1, 0), 2, EH_SCATTER_ADD),
                  EH_ERR_SHAPE, "(3, 1)");
    assert_failed(eh_scatter(v, i, 2, (eh_scatter_aggr)5), EH_ERR_INVALID_ARG, "aggregation 5");
    assert_failed(eh_scatter(v, i, 2, (eh_scatter_aggr)-1), EH_ERR_INVALID_ARG, "aggregation -1");
    assert_failed(eh_scatter(v, i, -2, EH_SCATTER_ADD), EH_ERR_NEGATIVE_SIZE, "dim_size is -2");
    /* index out of range for an explicit dim_size, for every aggregation */
    for (int a = EH_SCATTER_ADD; a <= EH_SCATTER_REPLACE; a++)
        assert_data_error(eh_scatter(v, i, 1, (eh_scatter_aggr)a), EH_ERR_INDEX, "index 1");
    eh_tensor *neg = T(EH_I32, SHAPE(3), 0, -1, 0);
    assert_data_error(eh_scatter(v, neg, 2, EH_SCATTER_ADD), EH_ERR_INDEX, "index -1");
    assert_data_error(eh_scatter(v, neg, EH_SCATTER_AUTO, EH_SCATTER_MAX), EH_ERR_INDEX,
                      "index -1");
    /* checked even when the rows hold no data */
    assert_data_error(eh_scatter(T_EMPTY(EH_F64, SHAPE(3, 0)), T(EH_I64, SHAPE(3), 0, 5, 1), 2,
                                 EH_SCATTER_ADD), EH_ERR_INDEX, "index 5");
    int64_t huge[1] = {INT64_MAX};
    eh_tensor *one = T(EH_F64, SHAPE(1), 1);
    assert_failed(eh_scatter(one, i64_tensor(1, SHAPE(1), huge), EH_SCATTER_AUTO,
                             EH_SCATTER_ADD), EH_ERR_OVERFLOW, "scatter");
    int64_t big[1] = {INT64_C(1) << 62};
    assert_failed(eh_scatter(one, i64_tensor(1, SHAPE(1), big), EH_SCATTER_AUTO,
                             EH_SCATTER_ADD), EH_ERR_OVERFLOW, "scatter");
    eh_tensor *vi = T(EH_I32, SHAPE(3), 1, 2, 3);
    eh__test_fail_alloc(1); /* the cast of i32 values to f64 for the mean */
    assert_failed(eh_scatter(vi, i, 2, EH_SCATTER_MEAN), EH_ERR_NOMEM, NULL);
    END();
}

/* ==== triu / tril ====================================================== */

static void test_triu_tril_numpy_doc(void **state)
{
    (void)state;
    BEGIN();
    /* NumPy doc: m = [[1,2,3],[4,5,6],[7,8,9],[10,11,12]], k = -1. */
    eh_tensor *m = T(EH_F64, SHAPE(4, 3), 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12);
    EXPECT(eh_triu(m, -1), EH_F64, SHAPE(4, 3), 1, 2, 3, 4, 5, 6, 0, 8, 9, 0, 0, 12);
    EXPECT(eh_tril(m, -1), EH_F64, SHAPE(4, 3), 0, 0, 0, 4, 0, 0, 7, 8, 0, 10, 11, 12);
    EXPECT(eh_triu(m, 0), EH_F64, SHAPE(4, 3), 1, 2, 3, 0, 5, 6, 0, 0, 9, 0, 0, 0);
    EXPECT(eh_tril(m, 0), EH_F64, SHAPE(4, 3), 1, 0, 0, 4, 5, 0, 7, 8, 9, 10, 11, 12);
    EXPECT(eh_triu(m, 1), EH_F64, SHAPE(4, 3), 0, 2, 3, 0, 0, 6, 0, 0, 0, 0, 0, 0);
    EXPECT(eh_tril(m, 1), EH_F64, SHAPE(4, 3), 1, 2, 0, 4, 5, 6, 7, 8, 9, 10, 11, 12);
    END();
}

static void test_triu_tril_batched_dtypes(void **state)
{
    (void)state;
    BEGIN();
    eh_tensor *x = T(EH_I32, SHAPE(2, 2, 3), 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12);
    EXPECT(eh_triu(x, 0), EH_I32, SHAPE(2, 2, 3), 1, 2, 3, 0, 5, 6, 7, 8, 9, 0, 11, 12);
    EXPECT(eh_tril(x, 0), EH_I32, SHAPE(2, 2, 3), 1, 0, 0, 4, 5, 0, 7, 0, 0, 10, 11, 0);
    EXPECT(eh_tril(T(EH_BOOL, SHAPE(2, 2), 1, 1, 1, 1), 0), EH_BOOL, SHAPE(2, 2), 1, 0, 1, 1);
    EXPECT(eh_triu(T(EH_F16, SHAPE(2, 2), NAN, 0.5, 2, NAN), 0), EH_F16, SHAPE(2, 2),
           NAN, 0.5, 0, NAN);
    EXPECT(eh_tril(T(EH_F32, SHAPE(1, 1, 2, 2), 1, INFINITY, -INFINITY, 4), 0), EH_F32,
           SHAPE(1, 1, 2, 2), 1, 0, -INFINITY, 4);
    END();
}

static void test_triu_tril_extreme_k(void **state)
{
    (void)state;
    BEGIN();
    eh_tensor *x = T(EH_I64, SHAPE(2, 2), 1, 2, 3, 4);
    EXPECT(eh_triu(x, 5), EH_I64, SHAPE(2, 2), 0, 0, 0, 0);
    EXPECT(eh_tril(x, -5), EH_I64, SHAPE(2, 2), 0, 0, 0, 0);
    EXPECT(eh_triu(x, INT64_MIN), EH_I64, SHAPE(2, 2), 1, 2, 3, 4);
    EXPECT(eh_tril(x, INT64_MAX), EH_I64, SHAPE(2, 2), 1, 2, 3, 4);
    EXPECT(eh_triu(x, INT64_MAX), EH_I64, SHAPE(2, 2), 0, 0, 0, 0);
    EXPECT(eh_tril(x, INT64_MIN), EH_I64, SHAPE(2, 2), 0, 0, 0, 0);
    END();
}

static void test_triu_tril_empty_and_errors(void **state)
{
    (void)state;
    BEGIN();
    EXPECT_EMPTY(eh_triu(T_EMPTY(EH_F64, SHAPE(0, 3)), 0), EH_F64, SHAPE(0, 3));
    EXPECT_EMPTY(eh_tril(T_EMPTY(EH_I32, SHAPE(2, 0, 4)), 1), EH_I32, SHAPE(2, 0, 4));
    assert_failed(eh_triu(NULL, 0), EH_ERR_NULL_ARG, "triu");
    assert_failed(eh_tril(NULL, 0), EH_ERR_NULL_ARG, "tril");
    assert_failed(eh_triu(T(EH_F64, SHAPE(3), 1, 2, 3), 0), EH_ERR_SHAPE, "triu: x must have at "
                  "least 2 dimensions, got shape (3,)");
    assert_failed(eh_tril(T0(EH_F64, 1), 0), EH_ERR_SHAPE, "shape ()");
    END();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        EH_TEST(test_tile_2d),
        EH_TEST(test_tile_promotes_x),
        EH_TEST(test_tile_dtypes),
        EH_TEST(test_tile_0d_and_empty),
        EH_TEST(test_tile_errors),
        EH_TEST(test_repeat_axes),
        EH_TEST(test_repeat_dtypes),
        EH_TEST(test_repeat_0d_and_empty),
        EH_TEST(test_repeat_errors),
        EH_TEST(test_pad_constant),
        EH_TEST(test_pad_modes_numpy_doc),
        EH_TEST(test_pad_wider_than_axis),
        EH_TEST(test_pad_mirror_numpy_2_1),
        EH_TEST(test_pad_2d_modes),
        EH_TEST(test_pad_0d_and_empty),
        EH_TEST(test_pad_errors),
        EH_TEST(test_roll_numpy_doc),
        EH_TEST(test_roll_large_shifts),
        EH_TEST(test_roll_dtypes_0d_empty),
        EH_TEST(test_roll_errors),
        EH_TEST(test_gather_basic),
        EH_TEST(test_gather_index_shapes),
        EH_TEST(test_gather_dtypes),
        EH_TEST(test_gather_errors),
        EH_TEST(test_scatter_aggregations),
        EH_TEST(test_scatter_rows),
        EH_TEST(test_scatter_int_dtypes),
        EH_TEST(test_scatter_bool),
        EH_TEST(test_scatter_float_rounding),
        EH_TEST(test_scatter_nan_inf),
        EH_TEST(test_scatter_empty),
        EH_TEST(test_scatter_errors),
        EH_TEST(test_triu_tril_numpy_doc),
        EH_TEST(test_triu_tril_batched_dtypes),
        EH_TEST(test_triu_tril_extreme_k),
        EH_TEST(test_triu_tril_empty_and_errors),
    };
    return EH_RUN_TESTS(tests);
}
