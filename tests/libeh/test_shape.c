/* Tests of the shape ops: reshape transpose expand_dims squeeze concatenate
 * stack split (split / array_split / split_at) broadcast_to slice flip.
 *
 * Expected values are hand-derived: inputs are mostly "iota" tensors
 * (element k holds k), so an expected value is the flat index of the input
 * element NumPy's definition of the op selects, worked out by hand from
 * the index map stated next to each case (e.g. transpose of (2, 3):
 * out[i, j] = x[j, i] = 3j + i).  Slice bounds follow Python's
 * PySlice_AdjustIndices, worked out by hand per case. */
#include <math.h>
#include <string.h>
#include "eh_test.h"

#define N_OF(a) ((int)(sizeof(a) / sizeof((a)[0])))
#define VALS(...) ((const double[]){__VA_ARGS__})

static const eh_dtype all_dtypes[] = {EH_F16, EH_F32, EH_F64, EH_I32, EH_I64, EH_BOOL};

/* Element k holds k (bool: k % 2, as a bool holds only 0 and 1). */
static eh_tensor *iota(eh_dtype dtype, int ndim, const int64_t *shape)
{
    int64_t n = 1;
    for (int d = 0; d < ndim; d++)
        n *= shape[d];
    double v[256];
    assert_true(n <= 256);
    for (int64_t k = 0; k < n; k++)
        v[k] = dtype == EH_BOOL ? (double)(k % 2) : (double)k;
    return t_from(dtype, ndim, shape, n ? v : NULL);
}
#define IOTA(dtype, ...) iota(dtype, NDIM(__VA_ARGS__), SHAPE(__VA_ARGS__))

/* Assert t has (dtype, ndim, shape) and element k == iota value of
 * src_index[k] (the flat input index the op should have picked). */
static void assert_picks(const eh_tensor *t, eh_dtype dtype, int ndim, const int64_t *shape,
                         const int64_t *src_index, int n)
{
    double want[256];
    assert_true(n <= 256);
    for (int k = 0; k < n; k++)
        want[k] = dtype == EH_BOOL ? (double)(src_index[k] % 2) : (double)src_index[k];
    assert_tensor_exact(t, dtype, ndim, shape, want);
}
#define IDX(...) ((const int64_t[]){__VA_ARGS__})
#define N_IDX(...) ((int)(sizeof((const int64_t[]){__VA_ARGS__}) / sizeof(int64_t)))
#define ASSERT_PICKS(t, dtype, shape_, ...)                                        \
    assert_picks(t, dtype, (int)(sizeof(shape_) / sizeof(int64_t)), shape_, IDX(__VA_ARGS__), \
                 N_IDX(__VA_ARGS__))

/* A tensor that is not NULL, to check that outs get cleared on failure. */
static eh_tensor *marker(void) { return IOTA(EH_F64, 1); }

/* ======================================================================= */
/* reshape                                                                 */
/* ======================================================================= */

static void test_reshape_values_all_dtypes(void **state)
{
    (void)state;
    for (int k = 0; k < N_OF(all_dtypes); k++) {
        eh_dtype dt = all_dtypes[k];
        eh_tensor *x = IOTA(dt, 2, 3);
        eh_tensor *a = eh_reshape(x, 2, SHAPE(3, 2));
        ASSERT_PICKS(a, dt, SHAPE(3, 2), 0, 1, 2, 3, 4, 5);
        eh_tensor *b = eh_reshape(x, 1, SHAPE(-1));
        ASSERT_PICKS(b, dt, SHAPE(6), 0, 1, 2, 3, 4, 5);
        eh_tensor *c = eh_reshape(x, 3, SHAPE(-1, 1, 2)); /* -1 -> 6 / 2 = 3 */
        ASSERT_PICKS(c, dt, SHAPE(3, 1, 2), 0, 1, 2, 3, 4, 5);
        eh_release(a);
        eh_release(b);
        eh_release(c);
        eh_release(x);
    }
}

static void test_reshape_0d_and_empty(void **state)
{
    (void)state;
    eh_tensor *s = eh_scalar(7.5, EH_F64);
    eh_tensor *a = eh_reshape(s, 3, SHAPE(1, 1, 1));
    assert_tensor_exact(a, EH_F64, 3, SHAPE(1, 1, 1), VALS(7.5));
    eh_tensor *b = eh_reshape(a, 0, NULL); /* back to 0-d; shape may be NULL */
    assert_tensor_exact(b, EH_F64, 0, NULL, VALS(7.5));
    eh_tensor *c = eh_reshape(s, 1, SHAPE(-1)); /* size 1 -> (1,) */
    assert_tensor_exact(c, EH_F64, 1, SHAPE(1), VALS(7.5));

    eh_tensor *e = t_from(EH_I32, 3, SHAPE(2, 0, 3), NULL);
    eh_tensor *f = eh_reshape(e, 2, SHAPE(-1, 3)); /* 0 / 3 = 0 */
    assert_tensor_exact(f, EH_I32, 2, SHAPE(0, 3), NULL);
    eh_tensor *g = eh_reshape(e, 3, SHAPE(0, 5, 7));
    assert_tensor_exact(g, EH_I32, 3, SHAPE(0, 5, 7), NULL);
    eh_release(s);
    eh_release(a);
    eh_release(b);
    eh_release(c);
    eh_release(e);
    eh_release(f);
    eh_release(g);
}

/* Results are copies: writing to one leaves the input alone. */
static void test_reshape_copies(void **state)
{
    (void)state;
    eh_tensor *x = T_F64(SHAPE(2, 2), 1, 2, 3, 4);
    eh_tensor *y = eh_reshape(x, 1, SHAPE(4));
    assert_non_null(y);
    eh_data_f64(y)[0] = 100;
    assert_tensor_exact(x, EH_F64, 2, SHAPE(2, 2), VALS(1, 2, 3, 4));
    assert_tensor_exact(y, EH_F64, 1, SHAPE(4), VALS(100, 2, 3, 4));
    eh_release(x);
    eh_release(y);
}

/* i64 values beyond 2^53 are moved as bytes, not through double. */
static void test_i64_exact_bits(void **state)
{
    (void)state;
    const int64_t v[4] = {INT64_MAX, INT64_MIN, INT64_MAX - 1, (INT64_C(1) << 53) + 1};
    eh_tensor *x = eh_convert_to_tensor(v, 2, SHAPE(2, 2), EH_I64);
    eh_tensor *t = eh_transpose(x, NULL, 0);
    eh_tensor *r = eh_reshape(t, 1, SHAPE(4));
    assert_non_null(r);
    int64_t *d = eh_data_i64(r);
    assert_true(d[0] == INT64_MAX);
    assert_true(d[1] == INT64_MAX - 1);
    assert_true(d[2] == INT64_MIN);
    assert_true(d[3] == (INT64_C(1) << 53) + 1);
    eh_release(x);
    eh_release(t);
    eh_release(r);
}

static void test_reshape_errors(void **state)
{
    (void)state;
    eh_tensor *x = IOTA(EH_F64, 2, 3);
    assert_failed(eh_reshape(NULL, 1, SHAPE(6)), EH_ERR_NULL_ARG, "reshape: argument 'x'");
    assert_failed(eh_reshape(x, 2, NULL), EH_ERR_NULL_ARG, "reshape: argument 'shape'");
    assert_failed(eh_reshape(x, 9, SHAPE(1, 1, 1, 1, 1, 1, 1, 1, 6)), EH_ERR_SHAPE,
                  "9 dimensions");
    assert_failed(eh_reshape(x, -1, SHAPE(6)), EH_ERR_SHAPE, "reshape: -1 dimensions");
    assert_failed(eh_reshape(x, 2, SHAPE(4, 2)), EH_ERR_SHAPE, "cannot reshape (2, 3) (size 6) into shape (4, 2)");
    assert_failed(eh_reshape(x, 2, SHAPE(-1, 4)), EH_ERR_SHAPE, "into shape (-1, 4)");
    assert_failed(eh_reshape(x, 2, SHAPE(-1, 0)), EH_ERR_SHAPE, "(-1, 0)");
    assert_failed(eh_reshape(x, 3, SHAPE(-1, -1, 2)), EH_ERR_INVALID_ARG, "more than one -1");
    assert_failed(eh_reshape(x, 2, SHAPE(-2, -3)), EH_ERR_NEGATIVE_SIZE, "negative dimension -2");
    assert_failed(eh_reshape(x, 2, SHAPE(3, -3)), EH_ERR_NEGATIVE_SIZE, "-3");
    assert_failed(eh_reshape(x, 3, SHAPE(INT64_MAX, 2, -1)), EH_ERR_OVERFLOW, "INT64_MAX");
    /* A failed inner call: the outer one keeps the first error. */
    assert_failed(eh_reshape(eh_reshape(x, 1, SHAPE(5)), 1, SHAPE(6)), EH_ERR_SHAPE,
                  "cannot reshape (2, 3)");
    eh_release(x);
}

/* ======================================================================= */
/* transpose                                                               */
/* ======================================================================= */

static void test_transpose_2d_all_dtypes(void **state)
{
    (void)state;
    for (int k = 0; k < N_OF(all_dtypes); k++) {
        eh_dtype dt = all_dtypes[k];
        eh_tensor *x = IOTA(dt, 2, 3);
        eh_tensor *t = eh_transpose(x, NULL, 0); /* out[i, j] = x[j, i] = 3j + i */
        ASSERT_PICKS(t, dt, SHAPE(3, 2), 0, 3, 1, 4, 2, 5);
        eh_tensor *u = eh_transpose(x, (const int[]){1, 0}, 2);
        ASSERT_PICKS(u, dt, SHAPE(3, 2), 0, 3, 1, 4, 2, 5);
        eh_tensor *id = eh_transpose(x, (const int[]){0, 1}, 2);
        ASSERT_PICKS(id, dt, SHAPE(2, 3), 0, 1, 2, 3, 4, 5);
        eh_release(x);
        eh_release(t);
        eh_release(u);
        eh_release(id);
    }
}

static void test_transpose_3d(void **state)
{
    (void)state;
    eh_tensor *x = IOTA(EH_F64, 2, 3, 4); /* x[b, c, a] = 12b + 4c + a */
    /* perm (2, 0, 1): out[a, b, c] = x[b, c, a] */
    eh_tensor *t = eh_transpose(x, (const int[]){2, 0, 1}, 3);
    ASSERT_PICKS(t, EH_F64, SHAPE(4, 2, 3),
                 0, 4, 8, 12, 16, 20, 1, 5, 9, 13, 17, 21,
                 2, 6, 10, 14, 18, 22, 3, 7, 11, 15, 19, 23);
    /* the same with negative entries */
    eh_tensor *n = eh_transpose(x, (const int[]){-1, -3, -2}, 3);
    ASSERT_PICKS(n, EH_F64, SHAPE(4, 2, 3),
                 0, 4, 8, 12, 16, 20, 1, 5, 9, 13, 17, 21,
                 2, 6, 10, 14, 18, 22, 3, 7, 11, 15, 19, 23);
    /* NULL reverses: out[a, b, c] = x[c, b, a] = 12c + 4b + a */
    eh_tensor *r = eh_transpose(x, NULL, 0);
    ASSERT_PICKS(r, EH_F64, SHAPE(4, 3, 2),
                 0, 12, 4, 16, 8, 20, 1, 13, 5, 17, 9, 21,
                 2, 14, 6, 18, 10, 22, 3, 15, 7, 19, 11, 23);
    /* perm (1, 0, 2): out[c, b, a] = x[b, c, a] */
    eh_tensor *m = eh_transpose(x, (const int[]){1, 0, 2}, 3);
    ASSERT_PICKS(m, EH_F64, SHAPE(3, 2, 4),
                 0, 1, 2, 3, 12, 13, 14, 15, 4, 5, 6, 7, 16, 17, 18, 19,
                 8, 9, 10, 11, 20, 21, 22, 23);
    eh_release(x);
    eh_release(t);
    eh_release(n);
    eh_release(r);
    eh_release(m);
}

/* Eight dimensions, reversed: the size-2 axes are bits of the flat index,
 * so the result is the 4-bit reversal of each output index. */
static void test_transpose_8d(void **state)
{
    (void)state;
    eh_tensor *x = IOTA(EH_I32, 1, 2, 1, 2, 1, 2, 1, 2);
    eh_tensor *t = eh_transpose(x, NULL, 0);
    ASSERT_PICKS(t, EH_I32, SHAPE(2, 1, 2, 1, 2, 1, 2, 1),
                 0, 8, 4, 12, 2, 10, 6, 14, 1, 9, 5, 13, 3, 11, 7, 15);
    eh_release(x);
    eh_release(t);
}

static void test_transpose_0d_1d_empty(void **state)
{
    (void)state;
    eh_tensor *s = eh_scalar(-3, EH_I32);
    eh_tensor *t = eh_transpose(s, NULL, 0);
    assert_tensor_exact(t, EH_I32, 0, NULL, VALS(-3));
    eh_tensor *v = T_F64(SHAPE(3), 1, 2, 3);
    eh_tensor *w = eh_transpose(v, NULL, 0);
    assert_tensor_exact(w, EH_F64, 1, SHAPE(3), VALS(1, 2, 3));
    eh_tensor *e = t_from(EH_F32, 2, SHAPE(0, 3), NULL);
    eh_tensor *f = eh_transpose(e, NULL, 0);
    assert_tensor_exact(f, EH_F32, 2, SHAPE(3, 0), NULL);
    eh_release(s);
    eh_release(t);
    eh_release(v);
    eh_release(w);
    eh_release(e);
    eh_release(f);
}

static void test_transpose_errors(void **state)
{
    (void)state;
    eh_tensor *x = IOTA(EH_F64, 2, 3, 4);
    assert_failed(eh_transpose(NULL, NULL, 0), EH_ERR_NULL_ARG, "transpose: argument 'x'");
    assert_failed(eh_transpose(x, (const int[]){1, 0}, 2), EH_ERR_AXIS, "perm has 2 entries");
    assert_failed(eh_transpose(x, (const int[]){0, 1, 2, 3}, 4), EH_ERR_AXIS, "perm has 4 entries");
    assert_failed(eh_transpose(x, (const int[]){0, 3, 1}, 3), EH_ERR_AXIS, "axis 3 is out of range");
    assert_failed(eh_transpose(x, (const int[]){0, -4, 1}, 3), EH_ERR_AXIS, "axis -4");
    assert_failed(eh_transpose(x, (const int[]){0, 0, 1}, 3), EH_ERR_AXIS, "axis 0 is repeated");
    assert_failed(eh_transpose(x, (const int[]){0, 1, -3}, 3), EH_ERR_AXIS, "axis -3 is repeated");
    eh_release(x);
}

/* ======================================================================= */
/* expand_dims, squeeze                                                    */
/* ======================================================================= */

static void test_expand_dims(void **state)
{
    (void)state;
    struct { int axis; int64_t shape[3]; } cases[] = {
        {0, {1, 2, 3}}, {1, {2, 1, 3}}, {2, {2, 3, 1}},
        {-1, {2, 3, 1}}, {-2, {2, 1, 3}}, {-3, {1, 2, 3}},
    };
    for (int k = 0; k < N_OF(all_dtypes); k++) {
        eh_dtype dt = all_dtypes[k];
        eh_tensor *x = IOTA(dt, 2, 3);
        for (int c = 0; c < N_OF(cases); c++) {
            eh_tensor *y = eh_expand_dims(x, cases[c].axis);
            assert_picks(y, dt, 3, cases[c].shape, IDX(0, 1, 2, 3, 4, 5), 6);
            eh_release(y);
        }
        eh_release(x);
    }
    eh_tensor *s = eh_scalar(2, EH_F16);
    eh_tensor *a = eh_expand_dims(s, 0);
    assert_tensor_exact(a, EH_F16, 1, SHAPE(1), VALS(2));
    eh_tensor *b = eh_expand_dims(s, -1);
    assert_tensor_exact(b, EH_F16, 1, SHAPE(1), VALS(2));
    eh_tensor *e = t_from(EH_BOOL, 1, SHAPE(0), NULL);
    eh_tensor *f = eh_expand_dims(e, 1);
    assert_tensor_exact(f, EH_BOOL, 2, SHAPE(0, 1), NULL);
    eh_release(s);
    eh_release(a);
    eh_release(b);
    eh_release(e);
    eh_release(f);
}

static void test_expand_dims_errors(void **state)
{
    (void)state;
    eh_tensor *x = IOTA(EH_F64, 2, 3);
    eh_tensor *big = IOTA(EH_F64, 1, 1, 1, 1, 1, 1, 1, 2);
    assert_failed(eh_expand_dims(NULL, 0), EH_ERR_NULL_ARG, "expand_dims: argument 'x'");
    assert_failed(eh_expand_dims(x, 3), EH_ERR_AXIS, "axis 3 is out of range for 3 dimensions");
    assert_failed(eh_expand_dims(x, -4), EH_ERR_AXIS, "axis -4");
    assert_failed(eh_expand_dims(big, 0), EH_ERR_SHAPE, "maximum 8 dimensions");
    eh_release(x);
    eh_release(big);
}

static void test_squeeze(void **state)
{
    (void)state;
    for (int k = 0; k < N_OF(all_dtypes); k++) {
        eh_dtype dt = all_dtypes[k];
        eh_tensor *x = IOTA(dt, 1, 2, 1, 3, 1);
        eh_tensor *a = eh_squeeze(x, NULL, 0);
        ASSERT_PICKS(a, dt, SHAPE(2, 3), 0, 1, 2, 3, 4, 5);
        eh_tensor *b = eh_squeeze(x, (const int[]){0}, 1);
        ASSERT_PICKS(b, dt, SHAPE(2, 1, 3, 1), 0, 1, 2, 3, 4, 5);
        eh_tensor *c = eh_squeeze(x, (const int[]){-1, 2}, 2);
        ASSERT_PICKS(c, dt, SHAPE(1, 2, 3), 0, 1, 2, 3, 4, 5);
        eh_release(x);
        eh_release(a);
        eh_release(b);
        eh_release(c);
    }
    eh_tensor *one = T_F64(SHAPE(1, 1), 4);
    eh_tensor *s = eh_squeeze(one, NULL, 0);
    assert_tensor_exact(s, EH_F64, 0, NULL, VALS(4));
    eh_tensor *s2 = eh_squeeze(s, NULL, 0); /* 0-d stays 0-d */
    assert_tensor_exact(s2, EH_F64, 0, NULL, VALS(4));
    eh_tensor *e = t_from(EH_I64, 3, SHAPE(0, 1, 2), NULL);
    eh_tensor *f = eh_squeeze(e, NULL, 0);
    assert_tensor_exact(f, EH_I64, 2, SHAPE(0, 2), NULL);
    eh_tensor *v = T_F64(SHAPE(3), 1, 2, 3);
    eh_tensor *w = eh_squeeze(v, NULL, 0); /* nothing to squeeze */
    assert_tensor_exact(w, EH_F64, 1, SHAPE(3), VALS(1, 2, 3));
    eh_release(one);
    eh_release(s);
    eh_release(s2);
    eh_release(e);
    eh_release(f);
    eh_release(v);
    eh_release(w);
}

static void test_squeeze_errors(void **state)
{
    (void)state;
    eh_tensor *x = IOTA(EH_F64, 1, 2, 1);
    eh_tensor *s = eh_scalar(1, EH_F64);
    assert_failed(eh_squeeze(NULL, NULL, 0), EH_ERR_NULL_ARG, "squeeze: argument 'x'");
    assert_failed(eh_squeeze(x, (const int[]){1}, 1), EH_ERR_SHAPE,
                  "cannot squeeze axis 1 of shape (1, 2, 1): its size is 2");
    assert_failed(eh_squeeze(x, (const int[]){3}, 1), EH_ERR_AXIS, "axis 3 is out of range");
    assert_failed(eh_squeeze(x, (const int[]){0, 0}, 2), EH_ERR_AXIS, "repeated");
    assert_failed(eh_squeeze(x, (const int[]){2, -1}, 2), EH_ERR_AXIS, "repeated");
    assert_failed(eh_squeeze(s, (const int[]){0}, 1), EH_ERR_AXIS, "squeeze");
    eh_release(x);
    eh_release(s);
}

/* ======================================================================= */
/* concatenate                                                             */
/* ======================================================================= */

static void test_concatenate_2d(void **state)
{
    (void)state;
    eh_tensor *a = T_F64(SHAPE(2, 2), 1, 2, 3, 4);
    eh_tensor *b = T_F64(SHAPE(1, 2), 5, 6);
    eh_tensor *r0 = eh_concatenate((const eh_tensor *[]){a, b}, 2, 0);
    assert_tensor_exact(r0, EH_F64, 2, SHAPE(3, 2), VALS(1, 2, 3, 4, 5, 6));
    eh_tensor *r0n = eh_concatenate((const eh_tensor *[]){b, a}, 2, -2);
    assert_tensor_exact(r0n, EH_F64, 2, SHAPE(3, 2), VALS(5, 6, 1, 2, 3, 4));

    eh_tensor *c = T_F64(SHAPE(2, 1), 1, 2);
    eh_tensor *d = T_F64(SHAPE(2, 3), 3, 4, 5, 6, 7, 8);
    eh_tensor *r1 = eh_concatenate((const eh_tensor *[]){c, d}, 2, 1);
    assert_tensor_exact(r1, EH_F64, 2, SHAPE(2, 4), VALS(1, 3, 4, 5, 2, 6, 7, 8));
    eh_tensor *r1n = eh_concatenate((const eh_tensor *[]){d, c, c}, 3, -1);
    assert_tensor_exact(r1n, EH_F64, 2, SHAPE(2, 5), VALS(3, 4, 5, 1, 1, 6, 7, 8, 2, 2));
    eh_tensor *one = eh_concatenate((const eh_tensor *[]){d}, 1, 0);
    assert_tensor_exact(one, EH_F64, 2, SHAPE(2, 3), VALS(3, 4, 5, 6, 7, 8));
    eh_release(a);
    eh_release(b);
    eh_release(c);
    eh_release(d);
    eh_release(r0);
    eh_release(r0n);
    eh_release(r1);
    eh_release(r1n);
    eh_release(one);
}

static void test_concatenate_3d_with_empty(void **state)
{
    (void)state;
    for (int k = 0; k < N_OF(all_dtypes); k++) {
        eh_dtype dt = all_dtypes[k];
        eh_tensor *a = IOTA(dt, 2, 1, 2);              /* 0..3   */
        eh_tensor *b = IOTA(dt, 2, 2, 2);              /* 0..7   */
        eh_tensor *e = t_from(dt, 3, SHAPE(2, 0, 2), NULL);
        eh_tensor *r = eh_concatenate((const eh_tensor *[]){a, e, b}, 3, 1);
        /* row i of r: a[i] (2 elements) then b[i] (4 elements) */
        double want[12];
        const double raw[12] = {0, 1, 0, 1, 2, 3, 2, 3, 4, 5, 6, 7};
        for (int j = 0; j < 12; j++)
            want[j] = dt == EH_BOOL ? fmod(raw[j], 2) : raw[j];
        assert_tensor_exact(r, dt, 3, SHAPE(2, 3, 2), want);
        eh_release(a);
        eh_release(b);
        eh_release(e);
        eh_release(r);
    }
    eh_tensor *e1 = t_from(EH_F64, 2, SHAPE(0, 2), NULL);
    eh_tensor *e2 = t_from(EH_F64, 2, SHAPE(0, 2), NULL);
    eh_tensor *ee = eh_concatenate((const eh_tensor *[]){e1, e2}, 2, 0);
    assert_tensor_exact(ee, EH_F64, 2, SHAPE(0, 2), NULL);
    eh_tensor *ef = eh_concatenate((const eh_tensor *[]){e1, e2}, 2, 1);
    assert_tensor_exact(ef, EH_F64, 2, SHAPE(0, 4), NULL);
    eh_release(e1);
    eh_release(e2);
    eh_release(ee);
    eh_release(ef);
}

static void test_concatenate_promotes(void **state)
{
    (void)state;
    eh_tensor *b = t_from(EH_BOOL, 1, SHAPE(2), VALS(1, 0));
    eh_tensor *i = t_from(EH_I32, 1, SHAPE(2), VALS(-5, 7));
    eh_tensor *l = t_from(EH_I64, 1, SHAPE(1), VALS(9));
    eh_tensor *h = t_from(EH_F16, 1, SHAPE(1), VALS(0.5));
    eh_tensor *f = t_from(EH_F32, 1, SHAPE(1), VALS(-1.25));

    eh_tensor *r1 = eh_concatenate((const eh_tensor *[]){b, i}, 2, 0);
    assert_tensor_exact(r1, EH_I32, 1, SHAPE(4), VALS(1, 0, -5, 7));
    eh_tensor *r2 = eh_concatenate((const eh_tensor *[]){i, b, l}, 3, 0);
    assert_tensor_exact(r2, EH_I64, 1, SHAPE(5), VALS(-5, 7, 1, 0, 9));
    eh_tensor *r3 = eh_concatenate((const eh_tensor *[]){h, f}, 2, 0);
    assert_tensor_exact(r3, EH_F32, 1, SHAPE(2), VALS(0.5, -1.25));
    eh_tensor *r4 = eh_concatenate((const eh_tensor *[]){b, h}, 2, 0); /* bool + f16 -> f16 */
    assert_tensor_exact(r4, EH_F16, 1, SHAPE(3), VALS(1, 0, 0.5));
    eh_tensor *r5 = eh_concatenate((const eh_tensor *[]){i, h}, 2, 0); /* i32 + f16 -> f64 */
    assert_tensor_exact(r5, EH_F64, 1, SHAPE(3), VALS(-5, 7, 0.5));
    /* the inputs are untouched */
    assert_tensor_exact(i, EH_I32, 1, SHAPE(2), VALS(-5, 7));
    eh_release(b);
    eh_release(i);
    eh_release(l);
    eh_release(h);
    eh_release(f);
    eh_release(r1);
    eh_release(r2);
    eh_release(r3);
    eh_release(r4);
    eh_release(r5);
}

static void test_concatenate_nan_inf(void **state)
{
    (void)state;
    eh_tensor *a = T_F32(SHAPE(2), NAN, INFINITY);
    eh_tensor *b = T_F64(SHAPE(2), -INFINITY, -0.0);
    eh_tensor *r = eh_concatenate((const eh_tensor *[]){a, b}, 2, 0);
    assert_tensor_exact(r, EH_F64, 1, SHAPE(4), VALS(NAN, INFINITY, -INFINITY, 0));
    assert_true(signbit(t_at(r, 3)));
    eh_tensor *h = t_from(EH_F16, 1, SHAPE(2), VALS(NAN, -INFINITY));
    eh_tensor *rh = eh_concatenate((const eh_tensor *[]){h, h}, 2, 0);
    assert_tensor_exact(rh, EH_F16, 1, SHAPE(4), VALS(NAN, -INFINITY, NAN, -INFINITY));
    eh_release(a);
    eh_release(b);
    eh_release(r);
    eh_release(h);
    eh_release(rh);
}

static void test_concatenate_errors(void **state)
{
    (void)state;
    eh_tensor *a = IOTA(EH_F64, 2, 2);
    eh_tensor *b = IOTA(EH_F64, 2, 3);
    eh_tensor *v = IOTA(EH_F64, 2);
    eh_tensor *s = eh_scalar(1, EH_F64);
    assert_failed(eh_concatenate((const eh_tensor *[]){a}, 0, 0), EH_ERR_INVALID_ARG,
                  "concatenate: need at least one tensor (n = 0)");
    assert_failed(eh_concatenate((const eh_tensor *[]){a}, -1, 0), EH_ERR_INVALID_ARG, "n = -1");
    assert_failed(eh_concatenate(NULL, 2, 0), EH_ERR_NULL_ARG, "concatenate: argument 'xs'");
    assert_failed(eh_concatenate((const eh_tensor *[]){a, NULL}, 2, 0), EH_ERR_NULL_ARG,
                  "concatenate: argument 'xs[1]' is NULL");
    assert_failed(eh_concatenate((const eh_tensor *[]){s, s}, 2, 0), EH_ERR_SHAPE, "xs[0] is 0-d");
    assert_failed(eh_concatenate((const eh_tensor *[]){v, s}, 2, 0), EH_ERR_SHAPE, "xs[1] is 0-d");
    assert_failed(eh_concatenate((const eh_tensor *[]){a, v}, 2, 0), EH_ERR_SHAPE,
                  "xs[0] of shape (2, 2) and xs[1] of shape (2,)");
    assert_failed(eh_concatenate((const eh_tensor *[]){a, b}, 2, 0), EH_ERR_SHAPE,
                  "xs[0] of shape (2, 2) and xs[1] of shape (2, 3) differ outside axis 0");
    assert_failed(eh_concatenate((const eh_tensor *[]){a, b}, 2, 2), EH_ERR_AXIS, "axis 2");
    assert_failed(eh_concatenate((const eh_tensor *[]){a, b}, 2, -3), EH_ERR_AXIS, "axis -3");
    /* Empty tensors can have huge dimensions: the joined one overflows. */
    eh_tensor *h = t_from(EH_F64, 2, SHAPE(INT64_MAX, 0), NULL);
    assert_failed(eh_concatenate((const eh_tensor *[]){h, h}, 2, 0), EH_ERR_OVERFLOW, "INT64_MAX");
    /* NULL from a failed inner op keeps that op's error */
    assert_failed(eh_concatenate((const eh_tensor *[]){a, eh_reshape(a, 1, SHAPE(5))}, 2, 0),
                  EH_ERR_SHAPE, "reshape");
    eh_release(a);
    eh_release(b);
    eh_release(v);
    eh_release(s);
    eh_release(h);
}

/* ======================================================================= */
/* stack                                                                   */
/* ======================================================================= */

static void test_stack(void **state)
{
    (void)state;
    eh_tensor *a = T_F64(SHAPE(2), 1, 2);
    eh_tensor *b = T_F64(SHAPE(2), 3, 4);
    eh_tensor *r0 = eh_stack((const eh_tensor *[]){a, b}, 2, 0);
    assert_tensor_exact(r0, EH_F64, 2, SHAPE(2, 2), VALS(1, 2, 3, 4));
    eh_tensor *r1 = eh_stack((const eh_tensor *[]){a, b}, 2, 1);
    assert_tensor_exact(r1, EH_F64, 2, SHAPE(2, 2), VALS(1, 3, 2, 4));
    eh_tensor *r1n = eh_stack((const eh_tensor *[]){a, b}, 2, -1);
    assert_tensor_exact(r1n, EH_F64, 2, SHAPE(2, 2), VALS(1, 3, 2, 4));
    eh_tensor *r0n = eh_stack((const eh_tensor *[]){a, b}, 2, -2);
    assert_tensor_exact(r0n, EH_F64, 2, SHAPE(2, 2), VALS(1, 2, 3, 4));

    eh_tensor *p = T_F64(SHAPE(2, 2), 1, 2, 3, 4);
    eh_tensor *q = T_F64(SHAPE(2, 2), 5, 6, 7, 8);
    eh_tensor *r = T_F64(SHAPE(2, 2), 9, 10, 11, 12);
    /* axis 1: out[i, k, j] = xs[k][i, j] */
    eh_tensor *m1 = eh_stack((const eh_tensor *[]){p, q, r}, 3, 1);
    assert_tensor_exact(m1, EH_F64, 3, SHAPE(2, 3, 2), VALS(1, 2, 5, 6, 9, 10, 3, 4, 7, 8, 11, 12));
    /* axis 2: out[i, j, k] = xs[k][i, j] */
    eh_tensor *m2 = eh_stack((const eh_tensor *[]){p, q, r}, 3, 2);
    assert_tensor_exact(m2, EH_F64, 3, SHAPE(2, 2, 3), VALS(1, 5, 9, 2, 6, 10, 3, 7, 11, 4, 8, 12));
    eh_tensor *m0 = eh_stack((const eh_tensor *[]){p, q, r}, 3, 0);
    assert_tensor_exact(m0, EH_F64, 3, SHAPE(3, 2, 2), VALS(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12));
    eh_release(a);
    eh_release(b);
    eh_release(r0);
    eh_release(r1);
    eh_release(r1n);
    eh_release(r0n);
    eh_release(p);
    eh_release(q);
    eh_release(r);
    eh_release(m1);
    eh_release(m2);
    eh_release(m0);
}

static void test_stack_dtypes_0d_empty(void **state)
{
    (void)state;
    for (int k = 0; k < N_OF(all_dtypes); k++) {
        eh_dtype dt = all_dtypes[k];
        eh_tensor *a = IOTA(dt, 3);
        eh_tensor *r = eh_stack((const eh_tensor *[]){a, a}, 2, 1);
        ASSERT_PICKS(r, dt, SHAPE(3, 2), 0, 0, 1, 1, 2, 2);
        eh_release(a);
        eh_release(r);
    }
    eh_tensor *s1 = eh_scalar(1, EH_I32), *s2 = eh_scalar(2, EH_BOOL), *s3 = eh_scalar(-3, EH_I32);
    eh_tensor *v = eh_stack((const eh_tensor *[]){s1, s2, s3}, 3, 0); /* i32 + bool -> i32 */
    assert_tensor_exact(v, EH_I32, 1, SHAPE(3), VALS(1, 1, -3));
    eh_tensor *vn = eh_stack((const eh_tensor *[]){s1}, 1, -1);
    assert_tensor_exact(vn, EH_I32, 1, SHAPE(1), VALS(1));
    eh_tensor *e = t_from(EH_F16, 1, SHAPE(0), NULL);
    eh_tensor *ee = eh_stack((const eh_tensor *[]){e, e}, 2, 0);
    assert_tensor_exact(ee, EH_F16, 2, SHAPE(2, 0), NULL);
    eh_tensor *ef = eh_stack((const eh_tensor *[]){e, e}, 2, 1);
    assert_tensor_exact(ef, EH_F16, 2, SHAPE(0, 2), NULL);
    eh_release(s1);
    eh_release(s2);
    eh_release(s3);
    eh_release(v);
    eh_release(vn);
    eh_release(e);
    eh_release(ee);
    eh_release(ef);
}

static void test_stack_errors(void **state)
{
    (void)state;
    eh_tensor *a = IOTA(EH_F64, 2);
    eh_tensor *b = IOTA(EH_F64, 3);
    eh_tensor *c = IOTA(EH_F64, 2, 1);
    eh_tensor *big = IOTA(EH_F64, 1, 1, 1, 1, 1, 1, 1, 2);
    assert_failed(eh_stack((const eh_tensor *[]){a}, 0, 0), EH_ERR_INVALID_ARG, "stack: need at least one");
    assert_failed(eh_stack(NULL, 1, 0), EH_ERR_NULL_ARG, "stack: argument 'xs'");
    assert_failed(eh_stack((const eh_tensor *[]){NULL, a}, 2, 0), EH_ERR_NULL_ARG, "'xs[0]'");
    assert_failed(eh_stack((const eh_tensor *[]){a, b}, 2, 0), EH_ERR_SHAPE,
                  "xs[0] is (2,), xs[1] is (3,)");
    assert_failed(eh_stack((const eh_tensor *[]){a, c}, 2, 0), EH_ERR_SHAPE, "xs[1] is (2, 1)");
    assert_failed(eh_stack((const eh_tensor *[]){a, a}, 2, 2), EH_ERR_AXIS, "axis 2");
    assert_failed(eh_stack((const eh_tensor *[]){a, a}, 2, -3), EH_ERR_AXIS, "axis -3");
    assert_failed(eh_stack((const eh_tensor *[]){big, big}, 2, 0), EH_ERR_SHAPE, "maximum 8");
    eh_release(a);
    eh_release(b);
    eh_release(c);
    eh_release(big);
}

/* ======================================================================= */
/* split, array_split, split_at                                             */
/* ======================================================================= */

static void release_all(eh_tensor **ts, int n)
{
    for (int k = 0; k < n; k++)
        eh_release(ts[k]);
}

static void test_split(void **state)
{
    (void)state;
    for (int k = 0; k < N_OF(all_dtypes); k++) {
        eh_dtype dt = all_dtypes[k];
        eh_tensor *x = IOTA(dt, 6);
        eh_tensor *o[3];
        assert_int_equal(eh_split(x, 3, 0, o), EH_OK);
        ASSERT_PICKS(o[0], dt, SHAPE(2), 0, 1);
        ASSERT_PICKS(o[1], dt, SHAPE(2), 2, 3);
        ASSERT_PICKS(o[2], dt, SHAPE(2), 4, 5);
        release_all(o, 3);

        /* (2, 3, 2) along axis 1: part k = x[:, k, :], x[i, k, j] = 6i + 2k + j */
        eh_tensor *y = IOTA(dt, 2, 3, 2);
        assert_int_equal(eh_split(y, 3, -2, o), EH_OK);
        ASSERT_PICKS(o[0], dt, SHAPE(2, 1, 2), 0, 1, 6, 7);
        ASSERT_PICKS(o[1], dt, SHAPE(2, 1, 2), 2, 3, 8, 9);
        ASSERT_PICKS(o[2], dt, SHAPE(2, 1, 2), 4, 5, 10, 11);
        release_all(o, 3);
        eh_release(x);
        eh_release(y);
    }
    eh_tensor *m = IOTA(EH_F64, 2, 4);
    eh_tensor *o2[2];
    assert_int_equal(eh_split(m, 2, -1, o2), EH_OK);
    ASSERT_PICKS(o2[0], EH_F64, SHAPE(2, 2), 0, 1, 4, 5);
    ASSERT_PICKS(o2[1], EH_F64, SHAPE(2, 2), 2, 3, 6, 7);
    release_all(o2, 2);
    eh_tensor *o1[1];
    assert_int_equal(eh_split(m, 1, 0, o1), EH_OK);
    ASSERT_PICKS(o1[0], EH_F64, SHAPE(2, 4), 0, 1, 2, 3, 4, 5, 6, 7);
    release_all(o1, 1);
    /* empty along the axis: three empty parts */
    eh_tensor *e = t_from(EH_I32, 2, SHAPE(0, 2), NULL);
    eh_tensor *o3[3];
    assert_int_equal(eh_split(e, 3, 0, o3), EH_OK);
    for (int k = 0; k < 3; k++)
        assert_tensor_exact(o3[k], EH_I32, 2, SHAPE(0, 2), NULL);
    release_all(o3, 3);
    /* empty along another axis */
    eh_tensor *e2 = t_from(EH_I32, 2, SHAPE(4, 0), NULL);
    assert_int_equal(eh_split(e2, 2, 0, o2), EH_OK);
    assert_tensor_exact(o2[0], EH_I32, 2, SHAPE(2, 0), NULL);
    assert_tensor_exact(o2[1], EH_I32, 2, SHAPE(2, 0), NULL);
    release_all(o2, 2);
    eh_release(m);
    eh_release(e);
    eh_release(e2);
}

/* Many outputs: more than any fixed-size array in the call would hold. */
static void test_split_many(void **state)
{
    (void)state;
    enum { N = 200 };
    double v[N];
    for (int k = 0; k < N; k++)
        v[k] = 3 * k + 1;
    eh_tensor *x = t_from(EH_F32, 1, SHAPE(N), v);
    eh_tensor *o[N];
    assert_int_equal(eh_split(x, N, 0, o), EH_OK);
    for (int k = 0; k < N; k++)
        assert_tensor_exact(o[k], EH_F32, 1, SHAPE(1), VALS(3 * k + 1));
    /* and back: 200 inputs to the variadic ops */
    eh_tensor *c = eh_concatenate((const eh_tensor *const *)o, N, 0);
    assert_tensor_exact(c, EH_F32, 1, SHAPE(N), v);
    eh_tensor *s = eh_stack((const eh_tensor *const *)o, N, 1);
    assert_tensor_exact(s, EH_F32, 2, SHAPE(1, N), v);
    release_all(o, N);
    eh_release(c);
    eh_release(s);
    eh_release(x);
}

static void test_array_split(void **state)
{
    (void)state;
    eh_tensor *x = IOTA(EH_I64, 5);
    eh_tensor *o[4];
    assert_int_equal(eh_array_split(x, 3, 0, o), EH_OK); /* 5 = 2 + 2 + 1 */
    ASSERT_PICKS(o[0], EH_I64, SHAPE(2), 0, 1);
    ASSERT_PICKS(o[1], EH_I64, SHAPE(2), 2, 3);
    ASSERT_PICKS(o[2], EH_I64, SHAPE(1), 4);
    release_all(o, 3);
    eh_tensor *y = IOTA(EH_BOOL, 3, 2);
    assert_int_equal(eh_array_split(y, 4, -2, o), EH_OK); /* 3 = 1 + 1 + 1 + 0 */
    ASSERT_PICKS(o[0], EH_BOOL, SHAPE(1, 2), 0, 1);
    ASSERT_PICKS(o[1], EH_BOOL, SHAPE(1, 2), 2, 3);
    ASSERT_PICKS(o[2], EH_BOOL, SHAPE(1, 2), 4, 5);
    assert_tensor_exact(o[3], EH_BOOL, 2, SHAPE(0, 2), NULL);
    release_all(o, 4);
    eh_tensor *o5[5];
    assert_int_equal(eh_array_split(x, 5, 0, o5), EH_OK); /* even: as split */
    for (int k = 0; k < 5; k++)
        assert_tensor_exact(o5[k], EH_I64, 1, SHAPE(1), VALS(k));
    release_all(o5, 5);
    eh_release(x);
    eh_release(y);
}

static void test_split_at(void **state)
{
    (void)state;
    eh_tensor *x = IOTA(EH_F64, 6);
    eh_tensor *o[3];
    assert_int_equal(eh_split_at(x, (const int64_t[]){2, 4}, 2, 0, o), EH_OK);
    ASSERT_PICKS(o[0], EH_F64, SHAPE(2), 0, 1);
    ASSERT_PICKS(o[1], EH_F64, SHAPE(2), 2, 3);
    ASSERT_PICKS(o[2], EH_F64, SHAPE(2), 4, 5);
    release_all(o, 3);
    assert_int_equal(eh_split_at(x, (const int64_t[]){-2}, 1, -1, o), EH_OK); /* -2 -> 4 */
    ASSERT_PICKS(o[0], EH_F64, SHAPE(4), 0, 1, 2, 3);
    ASSERT_PICKS(o[1], EH_F64, SHAPE(2), 4, 5);
    release_all(o, 2);
    assert_int_equal(eh_split_at(x, NULL, 0, 0, o), EH_OK);
    ASSERT_PICKS(o[0], EH_F64, SHAPE(6), 0, 1, 2, 3, 4, 5);
    release_all(o, 1);
    /* clamped: [0:10] and [10:6] */
    assert_int_equal(eh_split_at(x, (const int64_t[]){10}, 1, 0, o), EH_OK);
    ASSERT_PICKS(o[0], EH_F64, SHAPE(6), 0, 1, 2, 3, 4, 5);
    assert_tensor_exact(o[1], EH_F64, 1, SHAPE(0), NULL);
    release_all(o, 2);
    /* [0:-10] is empty, [-10:6] everything */
    assert_int_equal(eh_split_at(x, (const int64_t[]){-10}, 1, 0, o), EH_OK);
    assert_tensor_exact(o[0], EH_F64, 1, SHAPE(0), NULL);
    ASSERT_PICKS(o[1], EH_F64, SHAPE(6), 0, 1, 2, 3, 4, 5);
    release_all(o, 2);
    eh_release(x);
}

/* Decreasing indices, as NumPy's array_split(arange(5), [3, 1]):
 * [0:3] = 0 1 2, [3:1] empty, [1:5] = 1 2 3 4 (parts overlap). */
static void test_split_at_overlap(void **state)
{
    (void)state;
    for (int k = 0; k < N_OF(all_dtypes); k++) {
        eh_dtype dt = all_dtypes[k];
        eh_tensor *x = IOTA(dt, 5);
        eh_tensor *o[3];
        assert_int_equal(eh_split_at(x, (const int64_t[]){3, 1}, 2, 0, o), EH_OK);
        ASSERT_PICKS(o[0], dt, SHAPE(3), 0, 1, 2);
        assert_tensor_exact(o[1], dt, 1, SHAPE(0), NULL);
        ASSERT_PICKS(o[2], dt, SHAPE(4), 1, 2, 3, 4);
        release_all(o, 3);
        eh_release(x);
    }
    /* (2, 4) along axis 1 at [3, 1, 2]: cols [0:3], [3:1] empty, [1:2], [2:4];
     * x[i, j] = 4i + j */
    eh_tensor *m = IOTA(EH_I32, 2, 4);
    eh_tensor *o[4];
    assert_int_equal(eh_split_at(m, (const int64_t[]){3, 1, 2}, 3, 1, o), EH_OK);
    ASSERT_PICKS(o[0], EH_I32, SHAPE(2, 3), 0, 1, 2, 4, 5, 6);
    assert_tensor_exact(o[1], EH_I32, 2, SHAPE(2, 0), NULL);
    ASSERT_PICKS(o[2], EH_I32, SHAPE(2, 1), 1, 5);
    ASSERT_PICKS(o[3], EH_I32, SHAPE(2, 2), 2, 3, 6, 7);
    release_all(o, 4);
    eh_release(m);
}

static void test_split_errors(void **state)
{
    (void)state;
    eh_tensor *x = IOTA(EH_F64, 2, 5);
    eh_tensor *s = eh_scalar(1, EH_F64);
    eh_tensor *mk = marker();
    eh_tensor *o[3] = {mk, mk, mk};

    assert_int_equal(eh_split(x, 2, 0, NULL), EH_ERR_NULL_ARG);
    assert_failed(NULL, EH_ERR_NULL_ARG, "split: argument 'outs'");
    assert_int_equal(eh_split(x, 0, 0, o), EH_ERR_INVALID_ARG);
    assert_failed(NULL, EH_ERR_INVALID_ARG, "split: sections must be positive (got 0)");
    assert_int_equal(eh_split(x, -2, 0, o), EH_ERR_INVALID_ARG);
    assert_failed(NULL, EH_ERR_INVALID_ARG, "got -2");

    assert_int_equal(eh_split(NULL, 3, 0, o), EH_ERR_NULL_ARG);
    assert_failed(o[0], EH_ERR_NULL_ARG, "split: argument 'x'");
    assert_null(o[1]);
    assert_null(o[2]);

    o[0] = o[1] = o[2] = mk;
    assert_int_equal(eh_split(x, 2, 1, o), EH_ERR_SHAPE);
    assert_failed(o[0], EH_ERR_SHAPE, "axis 1 of shape (2, 5) (length 5) does not divide into 2 equal");
    assert_null(o[1]);
    o[0] = o[1] = mk;
    assert_int_equal(eh_split(x, 2, 2, o), EH_ERR_AXIS);
    assert_failed(o[0], EH_ERR_AXIS, "split: axis 2");
    assert_null(o[1]);
    assert_int_equal(eh_split(s, 1, 0, o), EH_ERR_AXIS);
    assert_failed(o[0], EH_ERR_AXIS, "0 dimensions");

    assert_int_equal(eh_array_split(x, 0, 0, o), EH_ERR_INVALID_ARG);
    assert_failed(NULL, EH_ERR_INVALID_ARG, "array_split: sections");
    assert_int_equal(eh_array_split(x, 2, -3, o), EH_ERR_AXIS);
    assert_failed(o[0], EH_ERR_AXIS, "array_split: axis -3");

    assert_int_equal(eh_split_at(x, (const int64_t[]){1}, 1, 0, NULL), EH_ERR_NULL_ARG);
    assert_failed(NULL, EH_ERR_NULL_ARG, "split_at: argument 'outs'");
    assert_int_equal(eh_split_at(x, (const int64_t[]){1}, -1, 0, o), EH_ERR_INVALID_ARG);
    assert_failed(NULL, EH_ERR_INVALID_ARG, "split_at: n_indices -1");
    o[0] = o[1] = o[2] = mk;
    assert_int_equal(eh_split_at(x, NULL, 2, 0, o), EH_ERR_NULL_ARG);
    assert_failed(o[0], EH_ERR_NULL_ARG, "split_at: argument 'indices'");
    assert_null(o[1]);
    assert_null(o[2]);
    o[0] = o[1] = mk;
    assert_int_equal(eh_split_at(NULL, (const int64_t[]){1}, 1, 0, o), EH_ERR_NULL_ARG);
    assert_failed(o[0], EH_ERR_NULL_ARG, "split_at: argument 'x'");
    assert_null(o[1]);
    assert_int_equal(eh_split_at(x, (const int64_t[]){1}, 1, 2, o), EH_ERR_AXIS);
    assert_failed(o[0], EH_ERR_AXIS, "split_at: axis 2");
    assert_int_equal(eh_split_at(s, (const int64_t[]){1}, 1, 0, o), EH_ERR_AXIS);
    assert_failed(o[0], EH_ERR_AXIS, "split_at");
    eh_release(x);
    eh_release(s);
    eh_release(mk);
}

/* Allocation failures part way through: no output survives, nothing leaks
 * (LeakSanitizer checks the latter).  Every allocation of the call fails in
 * turn, until the call gets past the last one.  This test pins ref (an
 * eager backend: output data is allocated at dispatch; lazy allocates it
 * later): what it checks is the frontend's cleanup. */
static void test_split_nomem(void **state)
{
    (void)state;
    const char *prev = eh_get_backend();
    assert_non_null(prev);
    assert_int_equal(eh_set_backend("ref"), EH_OK);
    eh_tensor *x = IOTA(EH_F64, 6);
    eh_tensor *o[3];
    /* eh_split(x, 3): scratch arrays, the output headers, their data */
    int nth;
    eh_status st = EH_ERR_NOMEM;
    for (nth = 1; st != EH_OK; nth++) {
        eh__test_fail_alloc(nth);
        st = eh_split(x, 3, 0, o);
        int fired = eh__test_fail_alloc(0) == 0;
        if (st == EH_OK)
            break;
        assert_true(fired);
        assert_int_equal(st, EH_ERR_NOMEM);
        assert_failed(o[0], EH_ERR_NOMEM, NULL);
        assert_null(o[1]);
        assert_null(o[2]);
    }
    assert_true(nth > 6); /* at least three headers and their data */
    release_all(o, 3);
    /* split_at [3, 1] on 5 elements runs two calls (the parts overlap); a
     * failure in the second releases the first's outputs too */
    eh_tensor *y = IOTA(EH_F64, 5);
    st = EH_ERR_NOMEM;
    for (nth = 1; st != EH_OK; nth++) {
        eh__test_fail_alloc(nth);
        st = eh_split_at(y, (const int64_t[]){3, 1}, 2, 0, o);
        int fired = eh__test_fail_alloc(0) == 0;
        if (st == EH_OK)
            break;
        assert_true(fired);
        assert_int_equal(st, EH_ERR_NOMEM);
        assert_failed(o[0], EH_ERR_NOMEM, NULL);
        assert_null(o[1]);
        assert_null(o[2]);
    }
    assert_true(nth > 6);
    ASSERT_PICKS(o[2], EH_F64, SHAPE(4), 1, 2, 3, 4);
    release_all(o, 3);
    eh_release(x);
    eh_release(y);
    assert_int_equal(eh_set_backend(prev), EH_OK);
}

/* ======================================================================= */
/* broadcast_to                                                            */
/* ======================================================================= */

static void test_broadcast_to(void **state)
{
    (void)state;
    for (int k = 0; k < N_OF(all_dtypes); k++) {
        eh_dtype dt = all_dtypes[k];
        eh_tensor *v = IOTA(dt, 3);
        eh_tensor *a = eh_broadcast_to(v, 2, SHAPE(2, 3));
        ASSERT_PICKS(a, dt, SHAPE(2, 3), 0, 1, 2, 0, 1, 2);
        eh_tensor *c = IOTA(dt, 3, 1);
        eh_tensor *b = eh_broadcast_to(c, 2, SHAPE(3, 4));
        ASSERT_PICKS(b, dt, SHAPE(3, 4), 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2);
        /* (2, 1) -> (2, 2, 3): out[i, j, k] = x[j, 0] */
        eh_tensor *d = IOTA(dt, 2, 1);
        eh_tensor *e = eh_broadcast_to(d, 3, SHAPE(2, 2, 3));
        ASSERT_PICKS(e, dt, SHAPE(2, 2, 3), 0, 0, 0, 1, 1, 1, 0, 0, 0, 1, 1, 1);
        eh_release(v);
        eh_release(a);
        eh_release(c);
        eh_release(b);
        eh_release(d);
        eh_release(e);
    }
    eh_tensor *s = eh_scalar(7, EH_F16);
    eh_tensor *a = eh_broadcast_to(s, 2, SHAPE(2, 2));
    assert_tensor_exact(a, EH_F16, 2, SHAPE(2, 2), VALS(7, 7, 7, 7));
    eh_tensor *same = eh_broadcast_to(a, 2, SHAPE(2, 2));
    assert_tensor_exact(same, EH_F16, 2, SHAPE(2, 2), VALS(7, 7, 7, 7));
    eh_tensor *s0 = eh_broadcast_to(s, 0, NULL);
    assert_tensor_exact(s0, EH_F16, 0, NULL, VALS(7));
    eh_tensor *one = T_F64(SHAPE(1, 3), 1, 2, 3);
    eh_tensor *z = eh_broadcast_to(one, 2, SHAPE(0, 3));
    assert_tensor_exact(z, EH_F64, 2, SHAPE(0, 3), NULL);
    eh_tensor *z2 = eh_broadcast_to(s, 1, SHAPE(0));
    assert_tensor_exact(z2, EH_F16, 1, SHAPE(0), NULL);
    eh_tensor *n = T_F64(SHAPE(2), NAN, -INFINITY);
    eh_tensor *nn = eh_broadcast_to(n, 2, SHAPE(2, 2));
    assert_tensor_exact(nn, EH_F64, 2, SHAPE(2, 2), VALS(NAN, -INFINITY, NAN, -INFINITY));
    eh_release(s);
    eh_release(a);
    eh_release(same);
    eh_release(s0);
    eh_release(one);
    eh_release(z);
    eh_release(z2);
    eh_release(n);
    eh_release(nn);
}

static void test_broadcast_to_errors(void **state)
{
    (void)state;
    eh_tensor *v = IOTA(EH_F64, 3);
    eh_tensor *m = IOTA(EH_F64, 2, 3);
    eh_tensor *e = t_from(EH_F64, 1, SHAPE(0), NULL);
    assert_failed(eh_broadcast_to(NULL, 1, SHAPE(3)), EH_ERR_NULL_ARG, "broadcast_to: argument 'x'");
    assert_failed(eh_broadcast_to(v, 1, SHAPE(4)), EH_ERR_SHAPE, "shape (3,) cannot be broadcast to (4,)");
    assert_failed(eh_broadcast_to(m, 1, SHAPE(3)), EH_ERR_SHAPE, "(2, 3) cannot be broadcast to (3,)");
    assert_failed(eh_broadcast_to(m, 2, SHAPE(3, 3)), EH_ERR_SHAPE, "to (3, 3)");
    assert_failed(eh_broadcast_to(e, 1, SHAPE(1)), EH_ERR_SHAPE, "(0,) cannot be broadcast to (1,)");
    assert_failed(eh_broadcast_to(v, 2, SHAPE(-1, 3)), EH_ERR_NEGATIVE_SIZE, "broadcast_to: negative");
    assert_failed(eh_broadcast_to(v, 9, SHAPE(1, 1, 1, 1, 1, 1, 1, 1, 3)), EH_ERR_SHAPE, "9 dimensions");
    assert_failed(eh_broadcast_to(v, -1, SHAPE(3)), EH_ERR_SHAPE, "broadcast_to");
    assert_failed(eh_broadcast_to(v, 1, NULL), EH_ERR_NULL_ARG, "broadcast_to: argument 'shape'");
    assert_failed(eh_broadcast_to(v, 3, SHAPE(INT64_MAX, 2, 3)), EH_ERR_OVERFLOW, "broadcast_to");
    eh_release(v);
    eh_release(m);
    eh_release(e);
}

/* ======================================================================= */
/* slice                                                                   */
/* ======================================================================= */

#define S_ EH_SLICE_START
#define E_ EH_SLICE_END

/* One case on x = 0..5: x[start:stop:step] picks `want`. */
typedef struct {
    int64_t start, stop, step;
    int n;
    int64_t want[6];
} slice_case;

static void test_slice_1d(void **state)
{
    (void)state;
    /* Each expectation hand-derived with Python's clamping on length 6. */
    const slice_case cases[] = {
        {1, 4, 1, 3, {1, 2, 3}},                 /* [1:4]      */
        {S_, E_, 2, 3, {0, 2, 4}},               /* [::2]      */
        {E_, S_, -1, 6, {5, 4, 3, 2, 1, 0}},     /* [::-1]     */
        {-2, E_, 1, 2, {4, 5}},                  /* [-2:]      */
        {S_, -1, 1, 5, {0, 1, 2, 3, 4}},         /* [:-1]      */
        {4, 1, -1, 3, {4, 3, 2}},                /* [4:1:-1]   */
        {-1, -4, -2, 2, {5, 3}},                 /* [-1:-4:-2] */
        {5, 0, -2, 3, {5, 3, 1}},                /* [5:0:-2]   */
        {10, E_, 1, 0, {0}},                     /* [10:]      */
        {-100, 2, 1, 2, {0, 1}},                 /* [-100:2]   */
        {1, 1, 1, 0, {0}},                       /* [1:1]      */
        {3, 1, 1, 0, {0}},                       /* [3:1]      */
        {1, 3, -1, 0, {0}},                      /* [1:3:-1]   */
        {100, -100, -3, 2, {5, 2}},              /* [100:-100:-3] */
        {2, 100, 3, 2, {2, 5}},                  /* [2:100:3]  */
        {0, E_, INT64_MAX, 1, {0}},              /* huge step  */
        {E_, S_, INT64_MIN, 1, {5}},             /* step -2^63 taken as -(2^63-1) */
        {-7, E_, 1, 6, {0, 1, 2, 3, 4, 5}},      /* [-7:]      */
        {E_, -7, -1, 6, {5, 4, 3, 2, 1, 0}},     /* [:-7:-1]   */
        {-6, -5, 1, 1, {0}},                     /* [-6:-5]    */
    };
    for (int k = 0; k < N_OF(all_dtypes); k++) {
        eh_dtype dt = all_dtypes[k];
        eh_tensor *x = IOTA(dt, 6);
        for (int c = 0; c < N_OF(cases); c++) {
            const slice_case *sc = &cases[c];
            eh_tensor *y = eh_slice(x, &sc->start, &sc->stop, &sc->step, 1);
            assert_picks(y, dt, 1, (const int64_t[]){sc->n}, sc->want, sc->n);
            eh_release(y);
        }
        eh_release(x);
    }
}

static void test_slice_defaults(void **state)
{
    (void)state;
    eh_tensor *x = IOTA(EH_I32, 6);
    /* all NULL: a copy */
    eh_tensor *a = eh_slice(x, NULL, NULL, NULL, 1);
    ASSERT_PICKS(a, EH_I32, SHAPE(6), 0, 1, 2, 3, 4, 5);
    /* start/stop omitted with a negative step: x[::-2] = 5 3 1 */
    eh_tensor *b = eh_slice(x, NULL, NULL, (const int64_t[]){-2}, 1);
    ASSERT_PICKS(b, EH_I32, SHAPE(3), 5, 3, 1);
    /* stop omitted only: x[2::-1] = 2 1 0 */
    eh_tensor *c = eh_slice(x, (const int64_t[]){2}, NULL, (const int64_t[]){-1}, 1);
    ASSERT_PICKS(c, EH_I32, SHAPE(3), 2, 1, 0);
    /* start omitted only: x[:3] = 0 1 2 */
    eh_tensor *d = eh_slice(x, NULL, (const int64_t[]){3}, NULL, 1);
    ASSERT_PICKS(d, EH_I32, SHAPE(3), 0, 1, 2);
    /* n = 0: everything */
    eh_tensor *e = eh_slice(x, NULL, NULL, NULL, 0);
    ASSERT_PICKS(e, EH_I32, SHAPE(6), 0, 1, 2, 3, 4, 5);
    eh_release(x);
    eh_release(a);
    eh_release(b);
    eh_release(c);
    eh_release(d);
    eh_release(e);
}

static void test_slice_nd(void **state)
{
    (void)state;
    for (int k = 0; k < N_OF(all_dtypes); k++) {
        eh_dtype dt = all_dtypes[k];
        eh_tensor *x = IOTA(dt, 3, 4); /* x[i, j] = 4i + j */
        /* x[1:, ::-2]: rows 1 2, cols 3 1 */
        eh_tensor *a = eh_slice(x, (const int64_t[]){1, E_}, (const int64_t[]){E_, S_},
                                (const int64_t[]){1, -2}, 2);
        ASSERT_PICKS(a, dt, SHAPE(2, 2), 7, 5, 11, 9);
        /* x[::2] (first axis only): rows 0 2 */
        eh_tensor *b = eh_slice(x, NULL, NULL, (const int64_t[]){2}, 1);
        ASSERT_PICKS(b, dt, SHAPE(2, 4), 0, 1, 2, 3, 8, 9, 10, 11);
        /* x[-1:, 1:3] */
        eh_tensor *c = eh_slice(x, (const int64_t[]){-1, 1}, (const int64_t[]){E_, 3}, NULL, 2);
        ASSERT_PICKS(c, dt, SHAPE(1, 2), 9, 10);
        /* huge steps on an axis of stride 4: one row each; x[0::2^63-1]
         * is row 0, x[::-2^63] is row 2 (the step is taken as -(2^63-1)) */
        eh_tensor *h1 = eh_slice(x, NULL, NULL, (const int64_t[]){INT64_MAX}, 1);
        ASSERT_PICKS(h1, dt, SHAPE(1, 4), 0, 1, 2, 3);
        eh_tensor *h2 = eh_slice(x, NULL, NULL, (const int64_t[]){INT64_MIN, INT64_MIN}, 2);
        ASSERT_PICKS(h2, dt, SHAPE(1, 1), 11);
        eh_release(h1);
        eh_release(h2);
        /* x[:, 5:] is empty along axis 1 */
        eh_tensor *d = eh_slice(x, (const int64_t[]){S_, 5}, NULL, NULL, 2);
        assert_tensor_exact(d, dt, 2, SHAPE(3, 0), NULL);
        eh_release(x);
        eh_release(a);
        eh_release(b);
        eh_release(c);
        eh_release(d);
    }
    /* 3-d, two axes sliced, the last whole: y[i, j, k] = 12i + 4j + k;
     * y[::-1, 1::2] -> i = 1 0, j = 1; all k */
    eh_tensor *y = IOTA(EH_F64, 2, 3, 4);
    eh_tensor *r = eh_slice(y, (const int64_t[]){E_, 1}, (const int64_t[]){S_, E_},
                            (const int64_t[]){-1, 2}, 2);
    ASSERT_PICKS(r, EH_F64, SHAPE(2, 1, 4), 16, 17, 18, 19, 4, 5, 6, 7);
    eh_release(y);
    eh_release(r);
}

static void test_slice_0d_empty_nan(void **state)
{
    (void)state;
    eh_tensor *s = eh_scalar(3, EH_BOOL);
    eh_tensor *a = eh_slice(s, NULL, NULL, NULL, 0);
    assert_tensor_exact(a, EH_BOOL, 0, NULL, VALS(1));
    eh_tensor *e = t_from(EH_F64, 2, SHAPE(0, 3), NULL);
    eh_tensor *b = eh_slice(e, (const int64_t[]){1, 1}, NULL, (const int64_t[]){-1, 1}, 2);
    assert_tensor_exact(b, EH_F64, 2, SHAPE(0, 2), NULL);
    eh_tensor *h = t_from(EH_F16, 1, SHAPE(3), VALS(NAN, INFINITY, -2));
    eh_tensor *c = eh_slice(h, NULL, NULL, (const int64_t[]){-1}, 1);
    assert_tensor_exact(c, EH_F16, 1, SHAPE(3), VALS(-2, INFINITY, NAN));
    eh_release(s);
    eh_release(a);
    eh_release(e);
    eh_release(b);
    eh_release(h);
    eh_release(c);
}

static void test_slice_errors(void **state)
{
    (void)state;
    eh_tensor *x = IOTA(EH_F64, 2, 3);
    eh_tensor *s = eh_scalar(1, EH_F64);
    assert_failed(eh_slice(NULL, NULL, NULL, NULL, 0), EH_ERR_NULL_ARG, "slice: argument 'x'");
    assert_failed(eh_slice(x, NULL, NULL, (const int64_t[]){1, 0}, 2), EH_ERR_INVALID_ARG,
                  "slice: step of axis 1 is 0");
    assert_failed(eh_slice(x, NULL, NULL, NULL, -1), EH_ERR_INVALID_ARG, "slice: n = -1");
    assert_failed(eh_slice(x, NULL, NULL, NULL, 3), EH_ERR_AXIS,
                  "3 axes sliced but x of shape (2, 3) has 2 dimensions");
    assert_failed(eh_slice(s, NULL, NULL, NULL, 1), EH_ERR_AXIS, "has 0 dimensions");
    eh_release(x);
    eh_release(s);
}

/* ======================================================================= */
/* flip                                                                    */
/* ======================================================================= */

static void test_flip(void **state)
{
    (void)state;
    for (int k = 0; k < N_OF(all_dtypes); k++) {
        eh_dtype dt = all_dtypes[k];
        eh_tensor *x = IOTA(dt, 2, 3); /* x[i, j] = 3i + j */
        eh_tensor *a = eh_flip(x, NULL, 0);
        ASSERT_PICKS(a, dt, SHAPE(2, 3), 5, 4, 3, 2, 1, 0);
        eh_tensor *b = eh_flip(x, (const int[]){0}, 1);
        ASSERT_PICKS(b, dt, SHAPE(2, 3), 3, 4, 5, 0, 1, 2);
        eh_tensor *c = eh_flip(x, (const int[]){-1}, 1);
        ASSERT_PICKS(c, dt, SHAPE(2, 3), 2, 1, 0, 5, 4, 3);
        eh_tensor *d = eh_flip(x, (const int[]){1, 0}, 2);
        ASSERT_PICKS(d, dt, SHAPE(2, 3), 5, 4, 3, 2, 1, 0);
        eh_release(x);
        eh_release(a);
        eh_release(b);
        eh_release(c);
        eh_release(d);
    }
    /* (2, 2, 2) over axes 0 and 2: out[i, j, k] = x[1-i, j, 1-k] = 4(1-i) + 2j + 1-k */
    eh_tensor *y = IOTA(EH_I64, 2, 2, 2);
    eh_tensor *r = eh_flip(y, (const int[]){0, -1}, 2);
    ASSERT_PICKS(r, EH_I64, SHAPE(2, 2, 2), 5, 4, 7, 6, 1, 0, 3, 2);
    eh_tensor *s = eh_scalar(-1.5, EH_F32);
    eh_tensor *fs = eh_flip(s, NULL, 0);
    assert_tensor_exact(fs, EH_F32, 0, NULL, VALS(-1.5));
    eh_tensor *e = t_from(EH_F64, 2, SHAPE(0, 3), NULL);
    eh_tensor *fe = eh_flip(e, NULL, 0);
    assert_tensor_exact(fe, EH_F64, 2, SHAPE(0, 3), NULL);
    eh_tensor *n = T_F64(SHAPE(3), NAN, -0.0, INFINITY);
    eh_tensor *fn = eh_flip(n, NULL, 0);
    assert_tensor_exact(fn, EH_F64, 1, SHAPE(3), VALS(INFINITY, 0, NAN));
    assert_true(signbit(t_at(fn, 1)));
    eh_release(y);
    eh_release(r);
    eh_release(s);
    eh_release(fs);
    eh_release(e);
    eh_release(fe);
    eh_release(n);
    eh_release(fn);
}

static void test_flip_errors(void **state)
{
    (void)state;
    eh_tensor *x = IOTA(EH_F64, 2, 3);
    eh_tensor *s = eh_scalar(1, EH_F64);
    assert_failed(eh_flip(NULL, NULL, 0), EH_ERR_NULL_ARG, "flip: argument 'x'");
    assert_failed(eh_flip(x, (const int[]){2}, 1), EH_ERR_AXIS, "flip: axis 2 is out of range");
    assert_failed(eh_flip(x, (const int[]){-3}, 1), EH_ERR_AXIS, "axis -3");
    assert_failed(eh_flip(x, (const int[]){1, -1}, 2), EH_ERR_AXIS, "repeated");
    assert_failed(eh_flip(s, (const int[]){0}, 1), EH_ERR_AXIS, "flip");
    eh_release(x);
    eh_release(s);
}

/* ======================================================================= */
/* composition and scopes                                                  */
/* ======================================================================= */

/* Every op inside a scope, nested, inputs made in the scope, including the
 * concatenate paths that cast and that don't; LeakSanitizer checks that
 * ending the scope frees everything. */
static void test_scope(void **state)
{
    (void)state;
    assert_int_equal(eh_scope_begin(), EH_OK);
    eh_tensor *x = IOTA(EH_F64, 2, 3);
    eh_tensor *i = IOTA(EH_I32, 2, 3);
    eh_tensor *c = eh_concatenate((const eh_tensor *[]){x, x}, 2, 0);
    eh_tensor *p = eh_concatenate((const eh_tensor *[]){x, i}, 2, 1);
    eh_tensor *st = eh_stack((const eh_tensor *[]){i, x, i}, 3, 0);
    eh_tensor *o[2];
    assert_int_equal(eh_split(eh_transpose(c, NULL, 0), 2, 1, o), EH_OK);
    eh_tensor *y = eh_keep(eh_flip(eh_slice(eh_squeeze(eh_expand_dims(eh_reshape(
                                  eh_broadcast_to(p, 3, SHAPE(2, 2, 6)), 2, SHAPE(4, 6)), 0), NULL, 0),
                                   NULL, NULL, (const int64_t[]){2}, 1), (const int[]){1}, 1));
    assert_non_null(st);
    assert_non_null(o[1]);
    assert_int_equal(eh_scope_end(), EH_OK);
    /* p = [x | i] has rows r0 = 0 1 2 0 1 2 and r1 = 3 4 5 3 4 5; broadcast
     * and reshaped to (4, 6) its rows are r0 r1 r0 r1; rows 0 and 2 are
     * r0 r0; flipped along axis 1 each is 2 1 0 2 1 0 */
    assert_tensor_exact(y, EH_F64, 2, SHAPE(2, 6), VALS(2, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 0));
    eh_release(y);
}

/* Nested composition: x.T reshaped and split agrees with hand values. */
static void test_composition(void **state)
{
    (void)state;
    eh_tensor *x = IOTA(EH_F64, 2, 3);
    /* x.T = [[0, 3], [1, 4], [2, 5]] flattened 0 3 1 4 2 5; split at [2, 5] */
    eh_tensor *t = eh_transpose(x, NULL, 0);
    eh_tensor *flat = eh_reshape(t, 1, SHAPE(-1));
    eh_tensor *o[3];
    assert_int_equal(eh_split_at(flat, (const int64_t[]){2, 5}, 2, 0, o), EH_OK);
    assert_tensor_exact(o[0], EH_F64, 1, SHAPE(2), VALS(0, 3));
    assert_tensor_exact(o[1], EH_F64, 1, SHAPE(3), VALS(1, 4, 2));
    assert_tensor_exact(o[2], EH_F64, 1, SHAPE(1), VALS(5));
    /* concatenating the parts back gives flat */
    eh_tensor *back = eh_concatenate((const eh_tensor *const *)o, 3, 0);
    assert_tensor_exact(back, EH_F64, 1, SHAPE(6), VALS(0, 3, 1, 4, 2, 5));
    release_all(o, 3);
    eh_release(back);
    eh_release(x);
    eh_release(t);
    eh_release(flat);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        EH_TEST(test_reshape_values_all_dtypes),
        EH_TEST(test_reshape_0d_and_empty),
        EH_TEST(test_reshape_copies),
        EH_TEST(test_i64_exact_bits),
        EH_TEST(test_reshape_errors),
        EH_TEST(test_transpose_2d_all_dtypes),
        EH_TEST(test_transpose_3d),
        EH_TEST(test_transpose_8d),
        EH_TEST(test_transpose_0d_1d_empty),
        EH_TEST(test_transpose_errors),
        EH_TEST(test_expand_dims),
        EH_TEST(test_expand_dims_errors),
        EH_TEST(test_squeeze),
        EH_TEST(test_squeeze_errors),
        EH_TEST(test_concatenate_2d),
        EH_TEST(test_concatenate_3d_with_empty),
        EH_TEST(test_concatenate_promotes),
        EH_TEST(test_concatenate_nan_inf),
        EH_TEST(test_concatenate_errors),
        EH_TEST(test_stack),
        EH_TEST(test_stack_dtypes_0d_empty),
        EH_TEST(test_stack_errors),
        EH_TEST(test_split),
        EH_TEST(test_split_many),
        EH_TEST(test_array_split),
        EH_TEST(test_split_at),
        EH_TEST(test_split_at_overlap),
        EH_TEST(test_split_errors),
        EH_TEST(test_split_nomem),
        EH_TEST(test_broadcast_to),
        EH_TEST(test_broadcast_to_errors),
        EH_TEST(test_slice_1d),
        EH_TEST(test_slice_defaults),
        EH_TEST(test_slice_nd),
        EH_TEST(test_slice_0d_empty_nan),
        EH_TEST(test_slice_errors),
        EH_TEST(test_flip),
        EH_TEST(test_flip_errors),
        EH_TEST(test_scope),
        EH_TEST(test_composition),
    };
    return EH_RUN_TESTS(tests);
}
