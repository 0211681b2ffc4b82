/* Tests of the linear-algebra ops: matmul, dot, outer, solve, inv, det,
 * cholesky, qr, svd, eigh, lstsq.
 *
 * Expected values were worked out by hand (each case says how), or are
 * properties checked with independent host code in this file: Q^T Q = I,
 * Q R = A, U diag(s) Vt = A, A v = w v, L L^T = A, A x = b, the normal
 * equations for least squares.  The "random" matrices come from a fixed
 * linear congruential generator whose values have 24-bit mantissas, so f32
 * and f64 tensors hold exactly the same matrices.
 *
 * Data-dependent errors (singular, not positive definite, NaN in svd) are
 * checked through expect_kernel_error(), which also accepts a deferred
 * result whose evaluation fails (the lazy backend reports them there). */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#define EH_TEST_SHORTHAND /* T(), EXPECT(), BEGIN() ... */
#include "eh_test.h"
#include <eh/backend_api.h> /* eh_isa_set: every instruction set's LU kernel */

#define EXPECT_NEAR(t, dtype, tol, shape_, ...) \
    assert_tensor(t, dtype, NDIMS(shape_), shape_, ((const double[]){__VA_ARGS__}), tol, tol)
#define EXPECT0_NEAR(t, dtype, tol, v) \
    assert_tensor(t, dtype, 0, NULL, ((const double[]){v}), tol, tol)

#define R2 0.70710678118654752440   /* 1/sqrt(2) */
#define S2 1.41421356237309504880   /* sqrt(2)   */
#define MAXN 512

static const eh_dtype FLOATS[2] = {EH_F32, EH_F64};

/* Tolerance for results of decompositions in dtype dt. */
static double tol_of(eh_dtype dt) { return dt == EH_F32 ? 2e-5 : 1e-12; }

/* ---- host-side helpers ---------------------------------------------------- */

/* n values in [-1, 1) with 24-bit mantissas, from a fixed LCG. */
static void fill_lcg(double *x, int64_t n, uint32_t seed)
{
    uint32_t s = seed;
    for (int64_t i = 0; i < n; i++) {
        s = s * 1664525u + 1013904223u;
        x[i] = (double)(s >> 8) / 8388608.0 - 1.0;
    }
}

static eh_tensor *random_t(eh_dtype dt, int ndim, const int64_t *shape, uint32_t seed)
{
    double x[MAXN];
    int64_t n = 1;
    for (int d = 0; d < ndim; d++)
        n *= shape[d];
    assert_true(n <= MAXN);
    fill_lcg(x, n, seed);
    return t_from(dt, ndim, shape, x);
}

/* All of t's values as doubles. */
static void values(const eh_tensor *t, double *out)
{
    assert_non_null(t);
    assert_true(eh_size(t) <= MAXN);
    for (int64_t i = 0; i < eh_size(t); i++)
        out[i] = t_at(t, i);
}

/* max |C - A B|, A n x k, B k x m (row-major). */
static double product_err(const double *A, const double *B, const double *C, int64_t n,
                          int64_t k, int64_t m)
{
    double err = 0.0;
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j < m; j++) {
            double s = 0.0;
            for (int64_t t = 0; t < k; t++)
                s += A[i * k + t] * B[t * m + j];
            err = fmax(err, fabs(C[i * m + j] - s));
        }
    return err;
}

/* max |X^T X - I| for X rows x cols (orthonormal columns). */
static double orth_cols_err(const double *X, int64_t rows, int64_t cols)
{
    double err = 0.0;
    for (int64_t p = 0; p < cols; p++)
        for (int64_t q = 0; q < cols; q++) {
            double s = 0.0;
            for (int64_t i = 0; i < rows; i++)
                s += X[i * cols + p] * X[i * cols + q];
            err = fmax(err, fabs(s - (p == q ? 1.0 : 0.0)));
        }
    return err;
}

/* max |X X^T - I| for X rows x cols (orthonormal rows). */
static double orth_rows_err(const double *X, int64_t rows, int64_t cols)
{
    double err = 0.0;
    for (int64_t p = 0; p < rows; p++)
        for (int64_t q = 0; q < rows; q++) {
            double s = 0.0;
            for (int64_t i = 0; i < cols; i++)
                s += X[p * cols + i] * X[q * cols + i];
            err = fmax(err, fabs(s - (p == q ? 1.0 : 0.0)));
        }
    return err;
}

#define ASSERT_SMALL(err, tol)                                                        \
    do {                                                                              \
        double e_ = (err);                                                            \
        if (!(e_ <= (tol)))                                                           \
            fail_msg("%s = %g exceeds %g", #err, e_, (double)(tol));                  \
    } while (0)

/* The sign convention: the first entry within (1 - sqrt(eps)) of the largest
 * magnitude is positive.  x[0], x[stride], ... */
static void assert_sign_convention(const double *x, int64_t n, int64_t stride, eh_dtype dt)
{
    double mx = 0.0, tol = sqrt(dt == EH_F32 ? 1.1920928955078125e-07 : 2.220446049250313e-16);
    for (int64_t i = 0; i < n; i++)
        mx = fmax(mx, fabs(x[i * stride]));
    for (int64_t i = 0; i < n; i++)
        if (fabs(x[i * stride]) >= mx * (1.0 - tol)) {
            if (x[i * stride] < 0)
                fail_msg("sign convention: entry %lld is %g", (long long)i, x[i * stride]);
            return;
        }
}

/* A failure only a kernel can detect: eager backends return NULL, a
 * deferring backend returns a tensor whose evaluation fails. */
static void expect_kernel_error(eh_tensor *r, eh_status code, const char *needle)
{
    if (r) {
        eh_status st = eh_eval(r);
        eh_release(r);
        if (st != code)
            fail_msg("expected %s at evaluation, got %s", eh_status_name(code),
                     eh_status_name(st));
    }
    assert_failed(NULL, code, needle);
}

/* Same for ops returning a status and results. */
static void expect_kernel_error_multi(eh_status st, eh_tensor **outs, int n, eh_status code,
                                      const char *needle)
{
    if (st == EH_OK) {
        eh_status ev = eh_eval(outs[0]);
        for (int k = 0; k < n; k++)
            eh_release(outs[k]);
        if (ev != code)
            fail_msg("expected %s at evaluation, got %s", eh_status_name(code),
                     eh_status_name(ev));
    } else {
        assert_int_equal(st, code);
        for (int k = 0; k < n; k++)
            assert_null(outs[k]);
    }
    assert_failed(NULL, code, needle);
}

/* ==== matmul ================================================================ */

static void test_matmul_2d(void **state)
{
    (void)state;
    BEGIN();
    /* [[1,2,3],[4,5,6]] @ [[7,8],[9,10],[11,12]]: 1*7+2*9+3*11 = 58,
     * 1*8+2*10+3*12 = 64, 4*7+5*9+6*11 = 139, 4*8+5*10+6*12 = 154. */
    const eh_dtype dts[5] = {EH_F16, EH_F32, EH_F64, EH_I32, EH_I64};
    for (int k = 0; k < 5; k++) {
        eh_tensor *a = T(dts[k], SHAPE(2, 3), 1, 2, 3, 4, 5, 6);
        eh_tensor *b = T(dts[k], SHAPE(3, 2), 7, 8, 9, 10, 11, 12);
        EXPECT(eh_matmul(a, b), dts[k], SHAPE(2, 2), 58, 64, 139, 154);
        /* and the other way round: (3,2) @ (2,3) */
        EXPECT(eh_matmul(b, a), dts[k], SHAPE(3, 3), 39, 54, 69, 49, 68, 87, 59, 82, 105);
    }
    END();
}

static void test_matmul_vectors(void **state)
{
    (void)state;
    BEGIN();
    eh_tensor *m = T(EH_F64, SHAPE(2, 3), 1, 2, 3, 4, 5, 6);
    /* 1-D @ 2-D: [1,2] @ m = [1+8, 2+10, 3+12]; the prepended dim is removed. */
    EXPECT(eh_matmul(T(EH_F64, SHAPE(2), 1, 2), m), EH_F64, SHAPE(3), 9, 12, 15);
    /* 2-D @ 1-D: m @ [1,0,-1] = [1-3, 4-6]; the appended dim is removed. */
    EXPECT(eh_matmul(m, T(EH_F64, SHAPE(3), 1, 0, -1)), EH_F64, SHAPE(2), -2, -2);
    /* 1-D @ 1-D: 4 + 10 + 18 = 32, a 0-d result. */
    EXPECT0(eh_matmul(T(EH_F64, SHAPE(3), 1, 2, 3), T(EH_F64, SHAPE(3), 4, 5, 6)), EH_F64, 32);
    END();
}

static void test_matmul_batched(void **state)
{
    (void)state;
    BEGIN();
    /* (2,2,2) @ (2,2): I @ B and 2I @ B. */
    eh_tensor *a = T(EH_F64, SHAPE(2, 2, 2), 1, 0, 0, 1, 2, 0, 0, 2);
    eh_tensor *b = T(EH_F64, SHAPE(2, 2), 1, 2, 3, 4);
    EXPECT(eh_matmul(a, b), EH_F64, SHAPE(2, 2, 2), 1, 2, 3, 4, 2, 4, 6, 8);
    /* (2,2) @ (2,2,2): B @ I and B @ 2I. */
    EXPECT(eh_matmul(b, a), EH_F64, SHAPE(2, 2, 2), 1, 2, 3, 4, 2, 4, 6, 8);
    /* 1-D with a batch: [1,1] @ (2,2,2) sums the rows of each matrix:
     * I -> [1,1], 2I -> [2,2]; (2,2,2) @ [1,-1] -> [1,-1], [2,-2]. */
    EXPECT(eh_matmul(T(EH_F64, SHAPE(2), 1, 1), a), EH_F64, SHAPE(2, 2), 1, 1, 2, 2);
    EXPECT(eh_matmul(a, T(EH_F64, SHAPE(2), 1, -1)), EH_F64, SHAPE(2, 2), 1, -1, 2, -2);
    END();
}

static void test_matmul_broadcast_batch(void **state)
{
    (void)state;
    BEGIN();
    /* (2,1,2,3) @ (3,3,2) -> (2,3,2,2), checked block by block on the host. */
    for (int d = 0; d < 2; d++) {
        eh_dtype dt = FLOATS[d];
        eh_tensor *a = random_t(dt, 4, SHAPE(2, 1, 2, 3), 11);
        eh_tensor *b = random_t(dt, 3, SHAPE(3, 3, 2), 12);
        eh_tensor *c = eh_matmul(a, b);
        assert_non_null(c);
        assert_int_equal(eh_ndim(c), 4);
        assert_int_equal(eh_shape(c)[0], 2);
        assert_int_equal(eh_shape(c)[1], 3);
        assert_int_equal(eh_shape(c)[2], 2);
        assert_int_equal(eh_shape(c)[3], 2);
        double A[12], B[18], C[24];
        values(a, A);
        values(b, B);
        values(c, C);
        for (int i = 0; i < 2; i++)
            for (int j = 0; j < 3; j++)
                ASSERT_SMALL(product_err(A + i * 6, B + j * 6, C + (i * 3 + j) * 4, 2, 3, 2),
                             tol_of(dt));
    }
    END();
}

static void test_matmul_bool(void **state)
{
    (void)state;
    BEGIN();
    /* NumPy: bool matmul is OR over k of (a AND b). */
    eh_tensor *a = T(EH_BOOL, SHAPE(2, 2), 1, 0, 1, 1);
    eh_tensor *b = T(EH_BOOL, SHAPE(2, 2), 0, 1, 1, 0);
    EXPECT(eh_matmul(a, b), EH_BOOL, SHAPE(2, 2), 0, 1, 1, 1);
    EXPECT(eh_matmul(T(EH_BOOL, SHAPE(2), 0, 0), b), EH_BOOL, SHAPE(2), 0, 0);
    END();
}

static void test_matmul_f16_in_f32(void **state)
{
    (void)state;
    BEGIN();
    /* 2048 + 1 + 1: accumulated in f16 every +1 rounds back to 2048 (spacing
     * 2 there); accumulated in f32 it is 2050, which f16 holds exactly. */
    eh_tensor *a = T(EH_F16, SHAPE(3), 2048, 1, 1);
    eh_tensor *b = T(EH_F16, SHAPE(3), 1, 1, 1);
    EXPECT0(eh_matmul(a, b), EH_F16, 2050);
    EXPECT0(eh_dot(a, b), EH_F16, 2050);
    END();
}

static void test_matmul_int_wrap(void **state)
{
    (void)state;
    BEGIN();
    /* 65536 * 65536 = 2^32 wraps to 0 in i32; 2^31 - 1 + 1 wraps to -2^31. */
    EXPECT0(eh_matmul(T(EH_I32, SHAPE(1), 65536), T(EH_I32, SHAPE(1), 65536)), EH_I32, 0);
    EXPECT0(eh_matmul(T(EH_I32, SHAPE(2), 2147483647, 1), T(EH_I32, SHAPE(2), 1, 1)), EH_I32,
            -2147483648.0);
    /* 2^62 * 2 = 2^63 wraps to -2^63 in i64. */
    EXPECT0(eh_matmul(T(EH_I64, SHAPE(1), 4611686018427387904.0), T(EH_I64, SHAPE(1), 2)),
            EH_I64, -9223372036854775808.0);
    END();
}

static void test_matmul_empty(void **state)
{
    (void)state;
    BEGIN();
    EXPECT_EMPTY(eh_matmul(T_EMPTY(EH_F64, SHAPE(0, 3)), T(EH_F64, SHAPE(3, 2), 1, 2, 3, 4, 5, 6)),
                 EH_F64, SHAPE(0, 2));
    /* k = 0: an empty sum, zeros. */
    EXPECT(eh_matmul(T_EMPTY(EH_F32, SHAPE(2, 0)), T_EMPTY(EH_F32, SHAPE(0, 3))), EH_F32,
           SHAPE(2, 3), 0, 0, 0, 0, 0, 0);
    EXPECT0(eh_matmul(T_EMPTY(EH_I64, SHAPE(0)), T_EMPTY(EH_I64, SHAPE(0))), EH_I64, 0);
    EXPECT_EMPTY(eh_matmul(T_EMPTY(EH_F64, SHAPE(0, 2, 2)), T(EH_F64, SHAPE(2, 2), 1, 2, 3, 4)),
                 EH_F64, SHAPE(0, 2, 2));
    END();
}

static void test_matmul_nan_inf(void **state)
{
    (void)state;
    BEGIN();
    /* IEEE: NaN * 0 = NaN, Inf * 0 = NaN, Inf * 1 + 1 * 0 = Inf. */
    EXPECT0(eh_matmul(T(EH_F64, SHAPE(2), NAN, 1), T(EH_F64, SHAPE(2), 0, 1)), EH_F64, NAN);
    EXPECT0(eh_matmul(T(EH_F32, SHAPE(1), INFINITY), T(EH_F32, SHAPE(1), 0)), EH_F32, NAN);
    EXPECT0(eh_matmul(T(EH_F64, SHAPE(2), INFINITY, 1), T(EH_F64, SHAPE(2), 1, 0)), EH_F64,
            INFINITY);
    END();
}

static void test_matmul_errors(void **state)
{
    (void)state;
    BEGIN();
    eh_tensor *a23 = T(EH_F64, SHAPE(2, 3), 1, 2, 3, 4, 5, 6);
    eh_tensor *a45 = random_t(EH_F64, 2, SHAPE(4, 5), 1);
    assert_failed(eh_matmul(a23, a45), EH_ERR_SHAPE, "shapes (2, 3) and (4, 5) are not aligned");
    assert_failed(eh_matmul(a23, T(EH_F64, SHAPE(2), 1, 2)), EH_ERR_SHAPE, "(2,)");
    assert_failed(eh_matmul(T(EH_F64, SHAPE(3), 1, 2, 3), a23), EH_ERR_SHAPE, "not aligned");
    assert_failed(eh_matmul(T0(EH_F64, 2), a23), EH_ERR_SHAPE, "at least 1 dimension");
    assert_failed(eh_matmul(a23, T0(EH_F64, 2)), EH_ERR_SHAPE, "at least 1 dimension");
    /* Batch dims that do not broadcast. */
    assert_failed(eh_matmul(random_t(EH_F64, 3, SHAPE(2, 2, 2), 2),
                            random_t(EH_F64, 3, SHAPE(3, 2, 2), 3)),
                  EH_ERR_SHAPE, "(2, 2, 2) and (3, 2, 2)");
    /* Dtypes must match exactly. */
    eh_tensor *h = T(EH_F16, SHAPE(3, 1), 1, 2, 3);
    assert_failed(eh_matmul(T(EH_F32, SHAPE(2, 3), 1, 2, 3, 4, 5, 6), h), EH_ERR_DTYPE,
                  "f32 and f16");
    assert_failed(eh_matmul(T(EH_I32, SHAPE(2), 1, 2), T(EH_I64, SHAPE(2), 1, 2)), EH_ERR_DTYPE,
                  "i32 and i64");
    assert_failed(eh_matmul(NULL, a23), EH_ERR_NULL_ARG, "matmul");
    assert_failed(eh_matmul(a23, NULL), EH_ERR_NULL_ARG, "'b'");
    /* A NULL from an earlier failure keeps the first error. */
    assert_failed(eh_matmul(eh_matmul(a23, a45), a23), EH_ERR_SHAPE, "not aligned");
    /* Out of memory for the result. */
    eh_tensor *v3 = T(EH_F64, SHAPE(3), 1, 2, 3);
    eh__test_fail_alloc(1);
    assert_failed(eh_matmul(a23, v3), EH_ERR_NOMEM, NULL);
    eh__test_fail_alloc(0);
    END();
}

/* ==== dot ==================================================================== */

static void test_dot_cases(void **state)
{
    (void)state;
    BEGIN();
    /* 1-D . 1-D: 4 + 10 + 18. */
    EXPECT0(eh_dot(T(EH_F64, SHAPE(3), 1, 2, 3), T(EH_F64, SHAPE(3), 4, 5, 6)), EH_F64, 32);
    EXPECT0(eh_dot(T(EH_I32, SHAPE(3), 1, 2, 3), T(EH_I32, SHAPE(3), 4, 5, 6)), EH_I32, 32);
    /* 2-D . 2-D: the matrix product (as in test_matmul_2d). */
    EXPECT(eh_dot(T(EH_F32, SHAPE(2, 3), 1, 2, 3, 4, 5, 6),
                  T(EH_F32, SHAPE(3, 2), 7, 8, 9, 10, 11, 12)),
           EH_F32, SHAPE(2, 2), 58, 64, 139, 154);
    /* N-D . 1-D: (2,2,3) . (3,) sums over the last axis: rows . [1,0,-1]. */
    EXPECT(eh_dot(T(EH_F64, SHAPE(2, 2, 3), 1, 2, 3, 4, 5, 6, 7, 8, 9, 1, 1, 1),
                  T(EH_F64, SHAPE(3), 1, 0, -1)),
           EH_F64, SHAPE(2, 2), -2, -2, -2, 0);
    /* 1-D . N-D: [1,2] . b(2,2,2) = [1,2] @ b[i] for each i. */
    EXPECT(eh_dot(T(EH_F64, SHAPE(2), 1, 2), T(EH_F64, SHAPE(2, 2, 2), 1, 2, 3, 4, 0, 1, 1, 0)),
           EH_F64, SHAPE(2, 2), 7, 10, 2, 1);
    /* N-D . M-D: dot(a, b)[i, j, m] = sum_k a[i, k] * b[j, k, m].
     * a = [[1,0,0],[0,1,1]]; b[0] = [[1,2],[3,4],[5,6]], b[1] = [[0,1],[1,0],[2,2]]:
     * row 0 of a picks row 0 of b[j]; row 1 adds rows 1 and 2. */
    EXPECT(eh_dot(T(EH_F64, SHAPE(2, 3), 1, 0, 0, 0, 1, 1),
                  T(EH_F64, SHAPE(2, 3, 2), 1, 2, 3, 4, 5, 6, 0, 1, 1, 0, 2, 2)),
           EH_F64, SHAPE(2, 2, 2), 1, 2, 0, 1, 8, 10, 3, 2);
    END();
}

static void test_dot_scalars_and_empty(void **state)
{
    (void)state;
    BEGIN();
    /* A 0-d operand multiplies (NumPy: dot with a scalar is multiply). */
    EXPECT(eh_dot(T0(EH_F64, 2), T(EH_F64, SHAPE(3), 1, 2, 3)), EH_F64, SHAPE(3), 2, 4, 6);
    EXPECT(eh_dot(T(EH_I64, SHAPE(1, 2), 1, 2), T0(EH_I64, 3)), EH_I64, SHAPE(1, 2), 3, 6);
    EXPECT0(eh_dot(T0(EH_F32, 2), T0(EH_F32, 3)), EH_F32, 6);
    EXPECT(eh_dot(T(EH_BOOL, SHAPE(2), 1, 0), T(EH_BOOL, SHAPE(2, 2), 0, 1, 1, 1)), EH_BOOL,
           SHAPE(2), 0, 1);
    /* Empty: k = 0 sums to zero; an empty leading dim gives an empty result. */
    EXPECT0(eh_dot(T_EMPTY(EH_F64, SHAPE(0)), T_EMPTY(EH_F64, SHAPE(0))), EH_F64, 0);
    EXPECT(eh_dot(T_EMPTY(EH_F64, SHAPE(2, 0)), T_EMPTY(EH_F64, SHAPE(0, 2))), EH_F64,
           SHAPE(2, 2), 0, 0, 0, 0);
    EXPECT_EMPTY(eh_dot(T_EMPTY(EH_F64, SHAPE(0, 3)), T(EH_F64, SHAPE(3), 1, 2, 3)), EH_F64,
                 SHAPE(0));
    EXPECT_EMPTY(eh_dot(T0(EH_F64, 3), T_EMPTY(EH_F64, SHAPE(2, 0))), EH_F64, SHAPE(2, 0));
    END();
}

static void test_dot_errors(void **state)
{
    (void)state;
    BEGIN();
    eh_tensor *a = T(EH_F64, SHAPE(2, 3), 1, 2, 3, 4, 5, 6);
    assert_failed(eh_dot(a, T(EH_F64, SHAPE(2), 1, 2)), EH_ERR_SHAPE,
                  "shapes (2, 3) and (2,) are not aligned");
    assert_failed(eh_dot(a, a), EH_ERR_SHAPE, "3 (dim 1) != 2 (dim 0)");
    /* (1,1,1,1,2) . (1,1,1,1,2,1): 4 + 4 + 1 = 9 dimensions, above 8. */
    double one[2] = {1, 1};
    eh_tensor *a5 = t_from(EH_F64, 5, SHAPE(1, 1, 1, 1, 2), one);
    eh_tensor *b6 = t_from(EH_F64, 6, SHAPE(1, 1, 1, 1, 2, 1), one);
    assert_failed(eh_dot(a5, b6), EH_ERR_SHAPE, "9 dimensions");
    /* Leading dims whose product overflows int64 while the operand is empty:
     * an error when the result would be that big, fine when it is empty. */
    eh_tensor *huge = T_EMPTY(EH_F64, SHAPE(1LL << 40, 1LL << 40, 0));
    assert_failed(eh_dot(huge, T_EMPTY(EH_F64, SHAPE(0))), EH_ERR_OVERFLOW, "dot");
    /* (checked by hand: assert_tensor's element count would overflow) */
    eh_tensor *e = eh_dot(huge, T_EMPTY(EH_F64, SHAPE(0, 0)));
    assert_non_null(e);
    assert_int_equal(eh_ndim(e), 3);
    assert_true(eh_shape(e)[0] == 1LL << 40 && eh_shape(e)[1] == 1LL << 40);
    assert_int_equal(eh_shape(e)[2], 0);
    assert_int_equal(eh_size(e), 0);
    assert_failed(eh_dot(a, T(EH_F32, SHAPE(3), 1, 2, 3)), EH_ERR_DTYPE, "f64 and f32");
    assert_failed(eh_dot(NULL, a), EH_ERR_NULL_ARG, "dot");
    END();
}

/* ==== outer ================================================================== */

static void test_outer(void **state)
{
    (void)state;
    BEGIN();
    /* [1,2] x [3,4,5] = [[3,4,5],[6,8,10]] in every dtype. */
    const eh_dtype dts[5] = {EH_F16, EH_F32, EH_F64, EH_I32, EH_I64};
    for (int k = 0; k < 5; k++)
        EXPECT(eh_outer(T(dts[k], SHAPE(2), 1, 2), T(dts[k], SHAPE(3), 3, 4, 5)), dts[k],
               SHAPE(2, 3), 3, 4, 5, 6, 8, 10);
    /* Operands are flattened: (2,1) x (1,2) -> (2,2); a 0-d counts as size 1. */
    EXPECT(eh_outer(T(EH_F64, SHAPE(2, 1), 1, 2), T(EH_F64, SHAPE(1, 2), 3, 4)), EH_F64,
           SHAPE(2, 2), 3, 4, 6, 8);
    EXPECT(eh_outer(T0(EH_F64, 2), T(EH_F64, SHAPE(2), 3, 4)), EH_F64, SHAPE(1, 2), 6, 8);
    EXPECT(eh_outer(T(EH_BOOL, SHAPE(2), 1, 0), T(EH_BOOL, SHAPE(2), 1, 1)), EH_BOOL,
           SHAPE(2, 2), 1, 1, 0, 0);
    EXPECT_EMPTY(eh_outer(T_EMPTY(EH_F64, SHAPE(0)), T(EH_F64, SHAPE(3), 1, 2, 3)), EH_F64,
                 SHAPE(0, 3));
    EXPECT(eh_outer(T(EH_F64, SHAPE(1), NAN), T(EH_F64, SHAPE(2), 0, 1)), EH_F64, SHAPE(1, 2),
           NAN, NAN);
    assert_failed(eh_outer(T(EH_F64, SHAPE(2), 1, 2), T(EH_I64, SHAPE(2), 1, 2)), EH_ERR_DTYPE,
                  "f64 and i64");
    assert_failed(eh_outer(T(EH_F64, SHAPE(2), 1, 2), NULL), EH_ERR_NULL_ARG, "outer");
    END();
}

/* ==== solve ================================================================== */

static void test_solve_small(void **state)
{
    (void)state;
    BEGIN();
    for (int d = 0; d < 2; d++) {
        eh_dtype dt = FLOATS[d];
        double tol = tol_of(dt);
        /* 3x + y = 9, x + 2y = 8 -> (2, 3). */
        eh_tensor *a = T(dt, SHAPE(2, 2), 3, 1, 1, 2);
        EXPECT_NEAR(eh_solve(a, T(dt, SHAPE(2), 9, 8)), dt, tol, SHAPE(2), 2, 3);
        /* Two right-hand sides: (9,8) -> (2,3) and (1,2) -> (0,1). */
        EXPECT_NEAR(eh_solve(a, T(dt, SHAPE(2, 2), 9, 1, 8, 2)), dt, tol, SHAPE(2, 2), 2, 0, 3, 1);
        /* Needs a row swap: [[0,1],[1,0]] x = (2,3) -> (3,2). */
        EXPECT_NEAR(eh_solve(T(dt, SHAPE(2, 2), 0, 1, 1, 0), T(dt, SHAPE(2), 2, 3)), dt, tol,
                    SHAPE(2), 3, 2);
        /* [[1,2,3],[0,1,4],[5,6,0]] (1,2,3) = (14,14,17). */
        EXPECT_NEAR(eh_solve(T(dt, SHAPE(3, 3), 1, 2, 3, 0, 1, 4, 5, 6, 0),
                             T(dt, SHAPE(3), 14, 14, 17)),
                    dt, tol, SHAPE(3), 1, 2, 3);
        /* NaN is not a zero pivot: it propagates (no error), as with LAPACK. */
        EXPECT(eh_solve(T(dt, SHAPE(2, 2), NAN, 0, 0, 1), T(dt, SHAPE(2), 1, 1)), dt, SHAPE(2),
               NAN, NAN);
    }
    END();
}

static void test_solve_batched(void **state)
{
    (void)state;
    BEGIN();
    /* a (2,2,2), b (2,): the vector is used for every matrix (NumPy 2 rule).
     * [[3,1],[1,2]] -> (2,3); [[2,0],[0,4]] x = (9,8) -> (4.5, 2). */
    eh_tensor *a = T(EH_F64, SHAPE(2, 2, 2), 3, 1, 1, 2, 2, 0, 0, 4);
    EXPECT_NEAR(eh_solve(a, T(EH_F64, SHAPE(2), 9, 8)), EH_F64, 1e-12, SHAPE(2, 2), 2, 3, 4.5, 2);
    /* a (2,2) broadcast against b (2,2,1). */
    EXPECT_NEAR(eh_solve(T(EH_F64, SHAPE(2, 2), 3, 1, 1, 2), T(EH_F64, SHAPE(2, 2, 1), 9, 8, 1, 2)),
                EH_F64, 1e-12, SHAPE(2, 2, 1), 2, 3, 0, 1);
    /* a (2,1,3,3) with b (4,3,2): x (2,4,3,2); residual checked per block. */
    for (int d = 0; d < 2; d++) {
        eh_dtype dt = FLOATS[d];
        double A[18], B[24], X[48];
        fill_lcg(A, 18, 21);
        for (int m = 0; m < 2; m++)
            for (int i = 0; i < 3; i++)
                A[m * 9 + i * 3 + i] += 4.0;   /* diagonally dominant: well conditioned */
        eh_tensor *ta = t_from(dt, 4, SHAPE(2, 1, 3, 3), A);
        eh_tensor *tb = random_t(dt, 3, SHAPE(4, 3, 2), 22);
        eh_tensor *x = eh_solve(ta, tb);
        assert_non_null(x);
        assert_int_equal(eh_ndim(x), 4);
        assert_int_equal(eh_shape(x)[1], 4);
        values(ta, A);
        values(tb, B);
        values(x, X);
        for (int i = 0; i < 2; i++)
            for (int j = 0; j < 4; j++)
                ASSERT_SMALL(product_err(A + i * 9, X + (i * 4 + j) * 6, B + j * 6, 3, 3, 2),
                             10 * tol_of(dt));
    }
    END();
}

static void test_solve_residual_random(void **state)
{
    (void)state;
    BEGIN();
    for (int d = 0; d < 2; d++) {
        eh_dtype dt = FLOATS[d];
        double A[36], B[18], X[18];
        fill_lcg(A, 36, 31);
        for (int i = 0; i < 6; i++)
            A[i * 6 + i] += 3.0;
        eh_tensor *ta = t_from(dt, 2, SHAPE(6, 6), A);
        eh_tensor *tb = random_t(dt, 2, SHAPE(6, 3), 32);
        eh_tensor *x = eh_solve(ta, tb);
        values(ta, A);
        values(tb, B);
        values(x, X);
        ASSERT_SMALL(product_err(A, X, B, 6, 6, 3), 10 * tol_of(dt));
    }
    END();
}

static void test_solve_empty(void **state)
{
    (void)state;
    BEGIN();
    EXPECT_EMPTY(eh_solve(T_EMPTY(EH_F64, SHAPE(0, 0)), T_EMPTY(EH_F64, SHAPE(0))), EH_F64,
                 SHAPE(0));
    EXPECT_EMPTY(eh_solve(T(EH_F64, SHAPE(2, 2), 1, 0, 0, 1), T_EMPTY(EH_F64, SHAPE(2, 0))),
                 EH_F64, SHAPE(2, 0));
    EXPECT_EMPTY(eh_solve(T_EMPTY(EH_F32, SHAPE(0, 2, 2)), T(EH_F32, SHAPE(2), 1, 2)), EH_F32,
                 SHAPE(0, 2));
    END();
}

static void test_solve_errors(void **state)
{
    (void)state;
    BEGIN();
    eh_tensor *a = T(EH_F64, SHAPE(2, 2), 3, 1, 1, 2);
    eh_tensor *b = T(EH_F64, SHAPE(2), 9, 8);
    /* [[1,2],[2,4]]: the second pivot is 2 - 0.5*4 = 0 exactly. */
    expect_kernel_error(eh_solve(T(EH_F64, SHAPE(2, 2), 1, 2, 2, 4), b), EH_ERR_LINALG,
                        "singular");
    expect_kernel_error(eh_solve(T(EH_F32, SHAPE(2, 2, 2), 1, 0, 0, 1, 0, 0, 0, 0),
                                 T(EH_F32, SHAPE(2), 1, 1)),
                        EH_ERR_LINALG, "matrix 1 of the batch");
    assert_failed(eh_solve(T(EH_F64, SHAPE(2, 3), 1, 2, 3, 4, 5, 6), b), EH_ERR_SHAPE,
                  "square");
    assert_failed(eh_solve(T(EH_F64, SHAPE(2), 1, 2), b), EH_ERR_SHAPE, "at least 2 dimensions");
    assert_failed(eh_solve(a, T0(EH_F64, 1)), EH_ERR_SHAPE, "'b' must have at least 1");
    assert_failed(eh_solve(a, T(EH_F64, SHAPE(3), 1, 2, 3)), EH_ERR_SHAPE,
                  "shapes (2, 2) and (3,) do not match");
    assert_failed(eh_solve(a, T(EH_F64, SHAPE(3, 1), 1, 2, 3)), EH_ERR_SHAPE, "(3, 1)");
    assert_failed(eh_solve(random_t(EH_F64, 3, SHAPE(2, 2, 2), 1),
                           random_t(EH_F64, 3, SHAPE(3, 2, 1), 2)),
                  EH_ERR_SHAPE, "cannot be broadcast");
    assert_failed(eh_solve(T(EH_I32, SHAPE(2, 2), 3, 1, 1, 2), T(EH_I32, SHAPE(2), 9, 8)),
                  EH_ERR_DTYPE, "i32");
    assert_failed(eh_solve(T(EH_F16, SHAPE(2, 2), 3, 1, 1, 2), T(EH_F16, SHAPE(2), 9, 8)),
                  EH_ERR_DTYPE, "f16");
    assert_failed(eh_solve(a, T(EH_F32, SHAPE(2), 9, 8)), EH_ERR_DTYPE, "f64 and f32");
    assert_failed(eh_solve(a, T(EH_BOOL, SHAPE(2), 1, 0)), EH_ERR_DTYPE, "bool");
    assert_failed(eh_solve(NULL, b), EH_ERR_NULL_ARG, "solve");
    assert_failed(eh_solve(a, NULL), EH_ERR_NULL_ARG, "solve");
    END();
}

/* ==== inv ==================================================================== */

static void test_inv_known(void **state)
{
    (void)state;
    BEGIN();
    for (int d = 0; d < 2; d++) {
        eh_dtype dt = FLOATS[d];
        double tol = tol_of(dt);
        /* [[4,7],[2,6]]: det 10, inverse [[6,-7],[-2,4]]/10. */
        EXPECT_NEAR(eh_inv(T(dt, SHAPE(2, 2), 4, 7, 2, 6)), dt, tol, SHAPE(2, 2), 0.6, -0.7,
                    -0.2, 0.4);
        /* [[1,2,3],[0,1,4],[5,6,0]]: det 1, inverse = adjugate (textbook). */
        EXPECT_NEAR(eh_inv(T(dt, SHAPE(3, 3), 1, 2, 3, 0, 1, 4, 5, 6, 0)), dt, 10 * tol,
                    SHAPE(3, 3), -24, 18, 5, 20, -15, -4, -5, 4, 1);
        /* Batched: diag(2, 4) and the permutation [[0,1],[1,0]] (its own inverse). */
        EXPECT_NEAR(eh_inv(T(dt, SHAPE(2, 2, 2), 2, 0, 0, 4, 0, 1, 1, 0)), dt, tol,
                    SHAPE(2, 2, 2), 0.5, 0, 0, 0.25, 0, 1, 1, 0);
    }
    END();
}

static void test_inv_property(void **state)
{
    (void)state;
    BEGIN();
    for (int d = 0; d < 2; d++) {
        eh_dtype dt = FLOATS[d];
        double A[25], X[25], I[25];
        fill_lcg(A, 25, 41);
        for (int i = 0; i < 5; i++)
            A[i * 5 + i] += 2.5;
        eh_tensor *ta = t_from(dt, 2, SHAPE(5, 5), A);
        eh_tensor *x = eh_inv(ta);
        values(ta, A);
        values(x, X);
        for (int i = 0; i < 25; i++)
            I[i] = i % 6 == 0 ? 1.0 : 0.0;
        ASSERT_SMALL(product_err(A, X, I, 5, 5, 5), 10 * tol_of(dt));
        ASSERT_SMALL(product_err(X, A, I, 5, 5, 5), 10 * tol_of(dt));
    }
    END();
}

static void test_inv_edge_and_errors(void **state)
{
    (void)state;
    BEGIN();
    EXPECT_EMPTY(eh_inv(T_EMPTY(EH_F64, SHAPE(0, 0))), EH_F64, SHAPE(0, 0));
    EXPECT_EMPTY(eh_inv(T_EMPTY(EH_F32, SHAPE(3, 0, 0))), EH_F32, SHAPE(3, 0, 0));
    EXPECT(eh_inv(T(EH_F64, SHAPE(1, 1), 4)), EH_F64, SHAPE(1, 1), 0.25);
    expect_kernel_error(eh_inv(T(EH_F64, SHAPE(2, 2), 1, 2, 2, 4)), EH_ERR_LINALG, "singular");
    expect_kernel_error(eh_inv(T(EH_F64, SHAPE(1, 1), 0)), EH_ERR_LINALG, "inv: matrix is singular");
    assert_failed(eh_inv(T(EH_F64, SHAPE(2, 3), 1, 2, 3, 4, 5, 6)), EH_ERR_SHAPE, "(2, 3)");
    assert_failed(eh_inv(T0(EH_F64, 2)), EH_ERR_SHAPE, "at least 2 dimensions");
    assert_failed(eh_inv(T(EH_I64, SHAPE(1, 1), 2)), EH_ERR_DTYPE, "i64");
    assert_failed(eh_inv(NULL), EH_ERR_NULL_ARG, "inv");
    END();
}

/* Small matrices singular in exact arithmetic whose LU meets an exactly
 * zero pivot in OpenBLAS's getf2 elimination order (blas: OpenBLAS dgetrf,
 * whose factors ref's getf2-order kernel reproduces bit for bit up to
 * order 5; NumPy raises "Singular matrix" and its det is 0).  ref's
 * right-looking update used to leave a rounding-noise pivot (1.1e-16 for
 * [[1,2,3],[4,5,6],[7,8,9]]) and solved them, so ref and blas disagreed;
 * found by a NumPy differential comparison (the classic singular
 * matrices' inv, solve and det against NumPy's).
 * Every backend must call them singular: inv and solve fail, det is
 * exactly 0. */
static void test_lu_small_singular_in_getf2_order(void **state)
{
    (void)state;
    BEGIN();
    for (int d = 0; d < 2; d++) {
        eh_dtype dt = FLOATS[d];
        double A16[16], A25[25];
        for (int i = 0; i < 16; i++)
            A16[i] = i + 1;
        for (int i = 0; i < 25; i++)
            A25[i] = i + 1;
        eh_tensor *as[3] = {T(dt, SHAPE(3, 3), 1, 2, 3, 4, 5, 6, 7, 8, 9),
                            t_from(dt, 2, SHAPE(4, 4), A16), t_from(dt, 2, SHAPE(5, 5), A25)};
        for (int k = 0; k < 3; k++) {
            int64_t n = eh_dim(as[k], 0);
            expect_kernel_error(eh_inv(as[k]), EH_ERR_LINALG, "inv: matrix is singular");
            expect_kernel_error(eh_solve(as[k], eh_ones(1, &n, dt)), EH_ERR_LINALG,
                                "solve: matrix 'a' is singular");
            eh_tensor *det = eh_det(as[k]);
            assert_non_null(det);
            assert_true(eh_item(det) == 0.0);
            eh_release(det);
        }
    }
    END();
}

/* ref factors orders up to 9 in OpenBLAS's getf2 order and larger ones in
 * the right-looking order (backends/ref/linalg_decomp.c, lu_factor), seen
 * on arange(1, n*n + 1) as n x n, singular in exact arithmetic: the getf2
 * order meets an exactly zero pivot for every n from 3 to 16, the
 * right-looking order not for n = 10 .. 14.  So on ref 9 x 9 is singular
 * and 10 x 10 and 12 x 12 are not (blas: OpenBLAS's blocked dgetrf, calls
 * 10 x 10 regular too but 12 x 12 singular: rounding, docs/ops/linalg.md). */
static void test_lu_ref_kernel_by_order(void **state)
{
    (void)state;
    if (strcmp(eh_get_backend(), "ref") != 0)
        return;
    BEGIN();
    for (int d = 0; d < 2; d++) {
        eh_dtype dt = FLOATS[d];
        const int64_t ns[3] = {9, 10, 12};
        for (int k = 0; k < 3; k++) {
            int64_t n = ns[k];
            double v[144];
            for (int i = 0; i < n * n; i++)
                v[i] = i + 1;
            eh_tensor *a = t_from(dt, 2, SHAPE(n, n), v);
            eh_tensor *det = eh_det(a);
            assert_non_null(det);
            if (n == 9) {
                assert_true(eh_item(det) == 0.0);
                expect_kernel_error(eh_inv(a), EH_ERR_LINALG, "inv: matrix is singular");
            } else {
                /* det is rounding noise (-8.8e-115 for n = 10): 0 in f32 */
                if (dt == EH_F64)
                    assert_true(eh_item(det) != 0.0);
                eh_tensor *inv = eh_inv(a);
                assert_non_null(inv);
                assert_int_equal(eh_eval(inv), EH_OK);
                eh_release(inv);
            }
            eh_release(det);
        }
    }
    END();
}

/* The getf2 kernel as first written (row-major, libm fma() per product;
 * this file is built for the x86-64 baseline, so fma() stays a call):
 * ref's per-instruction-set builds (backends/ref/simd/lu_getf2.c) must
 * give its factors bit for bit. */
static int getf2_model(double *A, int64_t n, int64_t *piv, int *sign)
{
    *sign = 1;
    for (int64_t j = 0; j < n; j++) {
        for (int64_t i = 1; i < n; i++) {
            int64_t lim = i < j ? i : j;
            double s = 0.0;
            for (int64_t t = 0; t < lim; t++)
                s = fma(A[i * n + t], A[t * n + j], s);
            A[i * n + j] -= s;
        }
        int64_t p = j;
        for (int64_t i = j + 1; i < n; i++)
            if (fabs(A[i * n + j]) > fabs(A[p * n + j]))
                p = i;
        piv[j] = p;
        if (A[p * n + j] == 0.0)
            return 1;
        if (p != j) {
            for (int64_t c = 0; c < n; c++) {
                double t = A[j * n + c];
                A[j * n + c] = A[p * n + c];
                A[p * n + c] = t;
            }
            *sign = -*sign;
        }
        double d = A[j * n + j];
        if (fabs(d) >= DBL_MIN) {
            double r = 1.0 / d;
            for (int64_t i = j + 1; i < n; i++)
                A[i * n + j] *= r;
        } else {
            for (int64_t i = j + 1; i < n; i++)
                A[i * n + j] /= d;
        }
    }
    return 0;
}

/* inv from the model's factors, as ref's lu_solve does it on the identity. */
static void getf2_model_inv(const double *LU, int64_t n, const int64_t *piv, double *B)
{
    for (int64_t i = 0; i < n * n; i++)
        B[i] = i % (n + 1) == 0 ? 1.0 : 0.0;
    for (int64_t j = 0; j < n; j++)
        if (piv[j] != j)
            for (int64_t c = 0; c < n; c++) {
                double t = B[j * n + c];
                B[j * n + c] = B[piv[j] * n + c];
                B[piv[j] * n + c] = t;
            }
    for (int64_t i = 0; i < n; i++)
        for (int64_t t = 0; t < i; t++)
            for (int64_t c = 0; c < n; c++)
                B[i * n + c] -= LU[i * n + t] * B[t * n + c];
    for (int64_t i = n - 1; i >= 0; i--) {
        for (int64_t t = i + 1; t < n; t++)
            for (int64_t c = 0; c < n; c++)
                B[i * n + c] -= LU[i * n + t] * B[t * n + c];
        for (int64_t c = 0; c < n; c++)
            B[i * n + c] /= LU[i * n + i];
    }
}

/* t's n values as doubles (f32 widened exactly). */
static eh_status gf_values(const eh_tensor *t, double *out, int64_t n)
{
    eh_tensor *c = eh_cast(t, EH_F64);
    if (!c || eh_size(c) != n)
        return EH_ERR_SHAPE;
    return eh_to_buffer(c, out, (size_t)n * sizeof(double));
}

/* xorshift64 */
static uint64_t gf_next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* Kinds of gf_matrix; the last two hold NaNs or infinities. */
#define GF_KINDS 8
#define GF_NONFINITE_KIND 6

/* Matrix m of order n, of kind m % GF_KINDS: uniform, small integers with
 * a dependent last row (often singular), arange (singular), widely scaled,
 * many zeros with a fractional dependent last row, subnormal scale (the
 * division branch), uniform with NaNs of both signs, uniform with
 * infinities of both signs (at least one of them in each). */
static void gf_matrix(double *v, int64_t n, int m, uint64_t *s)
{
    int kind = m % GF_KINDS;
    for (int64_t i = 0; i < n * n; i++) {
        double u = (double)(gf_next(s) >> 11) / 4503599627370496.0 - 1.0;
        switch (kind) {
        case 0: v[i] = u; break;
        case 1: v[i] = (double)(int)(gf_next(s) % 7) - 3; break;
        case 2: v[i] = (double)(i + 1); break;
        case 3: v[i] = ldexp(u, (int)(gf_next(s) % 40) - 20); break;
        case 4: v[i] = gf_next(s) % 3 == 0 ? 0.0 : u; break;
        case 5: v[i] = ldexp(u, -1040); break;
        default: v[i] = gf_next(s) % 5 == 0 ? copysign(kind == GF_NONFINITE_KIND ? NAN : INFINITY, u) : u; break;
        }
    }
    if ((kind == 1 || kind == 4) && n > 2) {
        double a = kind == 1 ? 1.0 : 0.375, b = kind == 1 ? -2.0 : 1.625;
        for (int64_t c = 0; c < n; c++)
            v[(n - 1) * n + c] = a * v[c] + b * v[n + c];
    }
    if (kind >= GF_NONFINITE_KIND) {
        int64_t i = (int64_t)(gf_next(s) % (uint64_t)(n * n));
        v[i] = copysign(kind == GF_NONFINITE_KIND ? NAN : INFINITY, gf_next(s) & 1 ? 1.0 : -1.0);
    }
}

/* A result of the kernel against the model's: any NaN for a NaN (its sign
 * and payload depend on the compiler and instruction set, as IEEE 754
 * allows; docs/backends/blas.md), else the same bits. */
static int gf_same(double got, double want)
{
    return isnan(want) ? isnan(got) != 0 : memcmp(&got, &want, sizeof(double)) == 0;
}

/* ref's small-order LU (orders 1 .. 9) gives the model's bits on every
 * instruction set this machine has (the sse2 build calls libm's fma(),
 * the others use the FMA instruction), whatever EH_ISA says: det of
 * random, rank-deficient, singular, widely scaled, subnormal, NaN and
 * infinite matrices (the singular verdict, the pivots' product and sign)
 * and inv of the regular ones (every factor and the pivot order), in f32
 * and f64.  NaN results are compared as NaNs (gf_same), all others bit for
 * bit. */
#define GF_PER_ORDER 320
enum { GF_NMAX = 9 };

/* The test's buffers and what it changes, undone by its teardown even
 * when it fails half way: the ISA level and scopes it opened. */
typedef struct {
    double *mats, *expdet, *expinv, *regular, *got;
    eh_isa level;
    int depth;
} gf_state;

static int gf_teardown(void **state)
{
    gf_state *g = *state;
    if (g) {
        eh_isa_set(g->level);
        while (eh_scope_depth() > g->depth)
            eh_scope_end();
        free(g->mats);
        free(g->expdet);
        free(g->expinv);
        free(g->regular);
        free(g->got);
        free(g);
        *state = NULL;
    }
    return eh_test_teardown(state);
}

static int gf_setup(void **state)
{
    if (eh_test_setup(state) != 0)
        return -1;
    gf_state *g = calloc(1, sizeof *g);
    if (!g)
        return -1;
    *state = g;
    size_t mat = sizeof(double) * GF_PER_ORDER * GF_NMAX * GF_NMAX;
    g->mats = malloc(mat);
    g->expdet = malloc(sizeof(double) * GF_PER_ORDER);
    g->expinv = malloc(mat);
    g->regular = malloc(mat);
    g->got = malloc(mat);
    g->level = eh_isa_level();
    g->depth = eh_scope_depth();
    if (!g->mats || !g->expdet || !g->expinv || !g->regular || !g->got) {
        gf_teardown(state); /* cmocka runs no teardown when setup fails */
        return -1;
    }
    return 0;
}

static void test_lu_getf2_bits_every_isa(void **state)
{
    gf_state *g = *state;
    if (strcmp(eh_get_backend(), "ref") != 0)
        return;
    enum { NMAX = GF_NMAX };
    double *mats = g->mats, *expdet = g->expdet, *expinv = g->expinv, *regular = g->regular, *got = g->got;
    /* every level the CPU has, not only up to EH_ISA's */
    eh_isa top = eh_isa_detected();
    uint64_t seed = 0x9e3779b97f4a7c15u;
    int isa_runs = 0, singular = 0, nan_dets = 0, inf_dets = 0;
    for (int64_t n = 1; n <= NMAX; n++) {
        for (int m = 0; m < GF_PER_ORDER; m++)
            gf_matrix(mats + m * n * n, n, m, &seed);
        for (int d = 0; d < 2; d++) {
            eh_dtype dt = FLOATS[d];
            /* the model's results, from the values as the dtype holds them */
            int64_t nreg = 0;
            for (int m = 0; m < GF_PER_ORDER; m++) {
                double A[NMAX * NMAX], B[NMAX * NMAX];
                int64_t piv[NMAX];
                int sign;
                for (int64_t i = 0; i < n * n; i++)
                    A[i] = dt == EH_F32 ? (double)(float)mats[m * n * n + i] : mats[m * n * n + i];
                double det = 0.0;
                if (!getf2_model(A, n, piv, &sign)) {
                    det = sign;
                    for (int64_t i = 0; i < n; i++)
                        det *= A[i * n + i];
                    getf2_model_inv(A, n, piv, B);
                    int finite = 1;
                    for (int64_t i = 0; i < n * n; i++)
                        finite &= isfinite(dt == EH_F32 ? (double)(float)B[i] : B[i]) != 0;
                    /* inverses that overflow are left out, those of NaN
                     * and infinite matrices are not */
                    if (finite || m % GF_KINDS >= GF_NONFINITE_KIND) {
                        memcpy(regular + nreg * n * n, mats + m * n * n, sizeof(double) * (size_t)(n * n));
                        for (int64_t i = 0; i < n * n; i++)
                            expinv[nreg * n * n + i] = dt == EH_F32 ? (double)(float)B[i] : B[i];
                        nreg++;
                    }
                } else {
                    singular++;
                }
                expdet[m] = dt == EH_F32 ? (double)(float)det : det;
                nan_dets += isnan(expdet[m]) != 0;
                inf_dets += isinf(expdet[m]) != 0;
            }
            for (int isa = 0; isa <= (int)top; isa++) {
                assert_int_equal(eh_isa_set((eh_isa)isa), isa);
                isa_runs++;
                BEGIN();
                eh_tensor *a = t_from(dt, 3, SHAPE(GF_PER_ORDER, n, n), mats);
                eh_tensor *det = eh_det(a);
                assert_non_null(det);
                assert_int_equal(gf_values(det, got, GF_PER_ORDER), EH_OK);
                for (int m = 0; m < GF_PER_ORDER; m++)
                    if (!gf_same(got[m], expdet[m]))
                        fail_msg("det: isa %s, %s, n %d, matrix %d: %.17g, model %.17g", eh_isa_name((eh_isa)isa),
                                 eh_dtype_name(dt), (int)n, m, got[m], expdet[m]);
                if (nreg > 0) {
                    eh_tensor *r = t_from(dt, 3, SHAPE(nreg, n, n), regular);
                    eh_tensor *inv = eh_inv(r);
                    assert_non_null(inv);
                    assert_int_equal(gf_values(inv, got, nreg * n * n), EH_OK);
                    for (int64_t i = 0; i < nreg * n * n; i++)
                        if (!gf_same(got[i], expinv[i]))
                            fail_msg("inv: isa %s, %s, n %d, entry %d: %.17g, model %.17g",
                                     eh_isa_name((eh_isa)isa), eh_dtype_name(dt), (int)n, (int)i, got[i],
                                     expinv[i]);
                }
                END();
            }
        }
    }
    assert_true(isa_runs >= 18);
    assert_true(singular > 0);
    assert_true(nan_dets > 0 && inf_dets > 0);
    /* gf_teardown restores the ISA level and frees the buffers */
}

/* ==== det ==================================================================== */

static void test_det_known(void **state)
{
    (void)state;
    BEGIN();
    for (int d = 0; d < 2; d++) {
        eh_dtype dt = FLOATS[d];
        double tol = tol_of(dt);
        EXPECT0_NEAR(eh_det(T(dt, SHAPE(2, 2), 4, 7, 2, 6)), dt, tol, 10);   /* 24 - 14 */
        EXPECT0_NEAR(eh_det(T(dt, SHAPE(3, 3), 1, 2, 3, 0, 1, 4, 5, 6, 0)), dt, 10 * tol, 1);
        EXPECT0_NEAR(eh_det(T(dt, SHAPE(2, 2), 0, 1, 1, 0)), dt, tol, -1);   /* a swap */
        /* Upper triangular with a row permutation (two swaps: sign +1):
         * rows of diag-upper [[2,1,1],[0,3,1],[0,0,4]] cycled -> det 24. */
        EXPECT0_NEAR(eh_det(T(dt, SHAPE(3, 3), 0, 3, 1, 0, 0, 4, 2, 1, 1)), dt, 10 * tol, 24);
        /* Singular: det 0, not an error. */
        eh_clear_error();
        EXPECT0(eh_det(T(dt, SHAPE(2, 2), 1, 2, 2, 4)), dt, 0);
        assert_int_equal(eh_last_error(), EH_OK);
        /* Batched (3,2,2) -> (3,): 10, -2 (1*2 - 2*2), 0. */
        EXPECT_NEAR(eh_det(T(dt, SHAPE(3, 2, 2), 4, 7, 2, 6, 1, 2, 2, 2, 0, 0, 0, 5)), dt, tol,
                    SHAPE(3), 10, -2, 0);
    }
    END();
}

/* The pivots' product never overflows or underflows on the way: det is
 * inf or 0 only when the determinant itself is beyond the f64 range, as in
 * NumPy (which sums logarithms).  A plain product gave inf for
 * diag(1e200, 1e200, 1e-200) and 0 for diag(1e-200, 1e-200, 1e200). */
static void test_det_no_intermediate_overflow(void **state)
{
    (void)state;
    BEGIN();
/* relative 1e-14, no absolute tolerance */
#define DET_REL(t, dt, v) assert_tensor(t, dt, 0, NULL, ((const double[]){v}), 0.0, 1e-14)
    DET_REL(eh_det(T(EH_F64, SHAPE(3, 3), 1e200, 0, 0, 0, 1e200, 0, 0, 0, 1e-200)), EH_F64, 1e200);
    DET_REL(eh_det(T(EH_F64, SHAPE(3, 3), 1e-200, 0, 0, 0, 1e-200, 0, 0, 0, 1e200)), EH_F64, 1e-200);
    /* a row swap: the sign survives the scaling */
    DET_REL(eh_det(T(EH_F64, SHAPE(3, 3), 0, 1e200, 0, 1e200, 0, 0, 0, 0, 1e-200)), EH_F64, -1e200);
    /* a batch: 1e300 * 1e300 * 1e-300 * 1e-300 = 1 and 1e200 * 1e200 *
     * 1e-300 * 1e-300 = 1e-200; a determinant itself beyond the range
     * still gives inf or 0 */
    double big[2 * 16] = {0};
    const double d0[4] = {1e300, 1e300, 1e-300, 1e-300}, d1[4] = {1e200, 1e200, 1e-300, 1e-300};
    for (int i = 0; i < 4; i++) {
        big[i * 4 + i] = d0[i];
        big[16 + i * 4 + i] = d1[i];
    }
    assert_tensor(eh_det(t_from(EH_F64, 3, SHAPE(2, 4, 4), big)), EH_F64, 1, SHAPE(2),
                  ((const double[]){1, 1e-200}), 0.0, 1e-14);
    EXPECT0(eh_det(T(EH_F64, SHAPE(2, 2), 1e300, 0, 0, 1e300)), EH_F64, INFINITY);
    EXPECT0(eh_det(T(EH_F64, SHAPE(2, 2), -1e-300, 0, 0, 1e-300)), EH_F64, -0.0);
    /* the plain product's bits wherever it stays in the normal range */
    EXPECT0(eh_det(T(EH_F64, SHAPE(2, 2), 3, 0, 0, 0.1)), EH_F64, 3 * 0.1);
    /* f32: computed in f64, so 1e30 * 1e30 * 1e-30 is 1e30 (it was too) and
     * 1e30 * 1e30 alone overflows only when rounded to f32 */
    DET_REL(eh_det(T(EH_F32, SHAPE(3, 3), 1e30, 0, 0, 0, 1e30, 0, 0, 0, 1e-30)), EH_F32, (double)1e30f);
    EXPECT0(eh_det(T(EH_F32, SHAPE(2, 2), 1e30, 0, 0, 1e30)), EH_F32, INFINITY);
#undef DET_REL
    END();
}

static void test_det_edge_and_errors(void **state)
{
    (void)state;
    BEGIN();
    /* The empty product: det of a 0x0 matrix is 1 (NumPy). */
    EXPECT0(eh_det(T_EMPTY(EH_F64, SHAPE(0, 0))), EH_F64, 1);
    EXPECT(eh_det(T_EMPTY(EH_F32, SHAPE(2, 0, 0))), EH_F32, SHAPE(2), 1, 1);
    EXPECT_EMPTY(eh_det(T_EMPTY(EH_F64, SHAPE(0, 3, 3))), EH_F64, SHAPE(0));
    EXPECT0(eh_det(T(EH_F64, SHAPE(2, 2), NAN, 1, 1, 1)), EH_F64, NAN);
    EXPECT0(eh_det(T(EH_F64, SHAPE(2, 2), INFINITY, 0, 0, 1)), EH_F64, INFINITY);
    assert_failed(eh_det(T(EH_F64, SHAPE(2, 3), 1, 2, 3, 4, 5, 6)), EH_ERR_SHAPE, "square");
    assert_failed(eh_det(T(EH_F64, SHAPE(3), 1, 2, 3)), EH_ERR_SHAPE, "(3,)");
    assert_failed(eh_det(T(EH_I32, SHAPE(2, 2), 1, 2, 3, 4)), EH_ERR_DTYPE, "i32");
    assert_failed(eh_det(T(EH_F16, SHAPE(2, 2), 1, 2, 3, 4)), EH_ERR_DTYPE, "f16");
    assert_failed(eh_det(NULL), EH_ERR_NULL_ARG, "det");
    END();
}

/* ==== cholesky ================================================================ */

static void test_cholesky_known(void **state)
{
    (void)state;
    BEGIN();
    for (int d = 0; d < 2; d++) {
        eh_dtype dt = FLOATS[d];
        double tol = tol_of(dt);
        /* The textbook example: L = [[2,0,0],[6,1,0],[-8,5,3]]. */
        EXPECT_NEAR(eh_cholesky(T(dt, SHAPE(3, 3), 4, 12, -16, 12, 37, -43, -16, -43, 98)), dt,
                    tol, SHAPE(3, 3), 2, 0, 0, 6, 1, 0, -8, 5, 3);
        /* Only the lower triangle is read: junk above the diagonal is ignored. */
        EXPECT_NEAR(eh_cholesky(T(dt, SHAPE(3, 3), 4, 99, NAN, 12, 37, -1e9, -16, -43, 98)), dt,
                    tol, SHAPE(3, 3), 2, 0, 0, 6, 1, 0, -8, 5, 3);
        /* Batched: [[4,2],[2,5]] -> [[2,0],[1,2]]; [[9,0],[0,1]] -> diag(3,1). */
        EXPECT_NEAR(eh_cholesky(T(dt, SHAPE(2, 2, 2), 4, 2, 2, 5, 9, 0, 0, 1)), dt, tol,
                    SHAPE(2, 2, 2), 2, 0, 1, 2, 3, 0, 0, 1);
    }
    END();
}

static void test_cholesky_property(void **state)
{
    (void)state;
    BEGIN();
    /* A = B B^T + 5 I is symmetric positive definite; check L L^T = A. */
    for (int d = 0; d < 2; d++) {
        eh_dtype dt = FLOATS[d];
        double B[25], A[25], L[25], LT[25];
        fill_lcg(B, 25, 51);
        for (int i = 0; i < 5; i++)
            for (int j = 0; j < 5; j++) {
                double s = i == j ? 5.0 : 0.0;
                for (int t = 0; t < 5; t++)
                    s += B[i * 5 + t] * B[j * 5 + t];
                A[i * 5 + j] = s;
            }
        eh_tensor *ta = t_from(dt, 2, SHAPE(5, 5), A);
        values(ta, A);
        values(eh_cholesky(ta), L);
        for (int i = 0; i < 5; i++)
            for (int j = 0; j < 5; j++) {
                LT[j * 5 + i] = L[i * 5 + j];
                if (j > i)
                    assert_true(L[i * 5 + j] == 0.0);
            }
        ASSERT_SMALL(product_err(L, LT, A, 5, 5, 5), 10 * tol_of(dt) * 8);
    }
    END();
}

static void test_cholesky_edge_and_errors(void **state)
{
    (void)state;
    BEGIN();
    EXPECT_EMPTY(eh_cholesky(T_EMPTY(EH_F64, SHAPE(0, 0))), EH_F64, SHAPE(0, 0));
    /* [[1,2],[2,1]] has eigenvalues 3 and -1. */
    expect_kernel_error(eh_cholesky(T(EH_F64, SHAPE(2, 2), 1, 2, 2, 1)), EH_ERR_LINALG,
                        "not positive definite");
    expect_kernel_error(eh_cholesky(T(EH_F32, SHAPE(1, 1), -1)), EH_ERR_LINALG,
                        "not positive definite");
    expect_kernel_error(eh_cholesky(T(EH_F64, SHAPE(2, 2), 0, 0, 0, 0)), EH_ERR_LINALG,
                        "positive definite");
    expect_kernel_error(eh_cholesky(T(EH_F64, SHAPE(2, 2), NAN, 0, 0, 1)), EH_ERR_LINALG,
                        "positive definite");
    expect_kernel_error(eh_cholesky(T(EH_F64, SHAPE(2, 1, 1), 1, -1)), EH_ERR_LINALG,
                        "matrix 1 of the batch");
    assert_failed(eh_cholesky(T(EH_F64, SHAPE(1, 2), 1, 2)), EH_ERR_SHAPE, "square");
    assert_failed(eh_cholesky(T(EH_I64, SHAPE(1, 1), 1)), EH_ERR_DTYPE, "i64");
    assert_failed(eh_cholesky(NULL), EH_ERR_NULL_ARG, "cholesky");
    END();
}

/* ==== qr ======================================================================= */

static void test_qr_known(void **state)
{
    (void)state;
    BEGIN();
    for (int d = 0; d < 2; d++) {
        eh_dtype dt = FLOATS[d];
        double tol = tol_of(dt);
        eh_tensor *q, *r;
        /* Gram-Schmidt by hand: column 0 (3,4) has norm 5, q0 = (0.6, 0.8);
         * r01 = q0 . (1,2) = 2.2; (1,2) - 2.2 q0 = (-0.32, 0.24), norm 0.4,
         * q1 = (-0.8, 0.6). */
        assert_int_equal(eh_qr(T(dt, SHAPE(2, 2), 3, 1, 4, 2), &q, &r), EH_OK);
        EXPECT_NEAR(q, dt, tol, SHAPE(2, 2), 0.6, -0.8, 0.8, 0.6);
        EXPECT_NEAR(r, dt, tol, SHAPE(2, 2), 5, 2.2, 0, 0.4);
        /* Negated first column: q0 flips, R's diagonal stays non-negative. */
        assert_int_equal(eh_qr(T(dt, SHAPE(2, 2), -3, 1, -4, 2), &q, &r), EH_OK);
        EXPECT_NEAR(q, dt, tol, SHAPE(2, 2), -0.6, -0.8, -0.8, 0.6);
        EXPECT_NEAR(r, dt, tol, SHAPE(2, 2), 5, -2.2, 0, 0.4);
        /* Wide (2,3): same Q; third column of R = Q^T (5, 0) = (3, -4). */
        assert_int_equal(eh_qr(T(dt, SHAPE(2, 3), 3, 1, 5, 4, 2, 0), &q, &r), EH_OK);
        EXPECT_NEAR(q, dt, tol, SHAPE(2, 2), 0.6, -0.8, 0.8, 0.6);
        EXPECT_NEAR(r, dt, tol, SHAPE(2, 3), 5, 2.2, 3, 0, 0.4, -4);
        /* Tall (3,1): q = a / |a|, r = |a| = 3 for (2, -1, 2). */
        assert_int_equal(eh_qr(T(dt, SHAPE(3, 1), 2, -1, 2), &q, &r), EH_OK);
        EXPECT_NEAR(q, dt, tol, SHAPE(3, 1), 2.0 / 3, -1.0 / 3, 2.0 / 3);
        EXPECT_NEAR(r, dt, tol, SHAPE(1, 1), 3);
    }
    END();
}

/* Entries near the top (and bottom) of the f64 range: the known
 * factorizations above scaled by a power of two, exactly.  ref normalizes
 * the matrix first; LAPACK's dgeqrf does not, and its reflectors overflow
 * to inf and NaN here unless blas scales as ref does. */
static void test_qr_extreme_scale(void **state)
{
    (void)state;
    BEGIN();
    const double big = 0x1p1021, tiny = 0x1p-1000, tol = tol_of(EH_F64);
    eh_tensor *q, *r;
    assert_int_equal(eh_qr(T(EH_F64, SHAPE(2, 2), 3 * big, big, 4 * big, 2 * big), &q, &r),
                     EH_OK);
    EXPECT_NEAR(q, EH_F64, tol, SHAPE(2, 2), 0.6, -0.8, 0.8, 0.6);
    EXPECT_NEAR(r, EH_F64, tol, SHAPE(2, 2), 5 * big, 2.2 * big, 0, 0.4 * big);
    assert_int_equal(eh_qr(T(EH_F64, SHAPE(2, 3), 3 * big, big, 5 * big, 4 * big, 2 * big, 0),
                           &q, &r),
                     EH_OK);
    EXPECT_NEAR(q, EH_F64, tol, SHAPE(2, 2), 0.6, -0.8, 0.8, 0.6);
    EXPECT_NEAR(r, EH_F64, tol, SHAPE(2, 3), 5 * big, 2.2 * big, 3 * big, 0, 0.4 * big,
                -4 * big);
    /* (2, -1, 2) 2^1022: |a| = 3 2^1022 is finite, its square is not */
    assert_int_equal(eh_qr(T(EH_F64, SHAPE(3, 1), 2 * (2 * big), -(2 * big), 2 * (2 * big)), &q,
                           &r),
                     EH_OK);
    EXPECT_NEAR(q, EH_F64, tol, SHAPE(3, 1), 2.0 / 3, -1.0 / 3, 2.0 / 3);
    EXPECT_NEAR(r, EH_F64, tol, SHAPE(1, 1), 3 * (2 * big));
    assert_int_equal(eh_qr(T(EH_F64, SHAPE(2, 2), 3 * tiny, tiny, 4 * tiny, 2 * tiny), &q, &r),
                     EH_OK);
    EXPECT_NEAR(q, EH_F64, tol, SHAPE(2, 2), 0.6, -0.8, 0.8, 0.6);
    assert_tensor(r, EH_F64, 2, SHAPE(2, 2), ((const double[]){5 * tiny, 2.2 * tiny, 0, 0.4 * tiny}),
                  0, tol);
    /* LAPACK's norms need no scaling away from the top of the range, and
     * scaling there would make entries far below the largest subnormal
     * (ref squares entries, and scales every matrix: its limit) */
    if (strcmp(eh_get_backend(), "ref") != 0) {
        assert_int_equal(eh_qr(T(EH_F64, SHAPE(2, 2), 1e300, 0.0, 0.0, 1e-300), &q, &r), EH_OK);
        assert_tensor(r, EH_F64, 2, SHAPE(2, 2), ((const double[]){1e300, 0, 0, 1e-300}), 0, tol);
        assert_int_equal(eh_qr(T(EH_F64, SHAPE(2, 2), 1e300, 0.0, 0.0, 1e-10), &q, &r), EH_OK);
        assert_tensor(r, EH_F64, 2, SHAPE(2, 2), ((const double[]){1e300, 0, 0, 1e-10}), 0, tol);
    }
    END();
}

/* A subnormal pivot among normal entries: OpenBLAS's getrf scales the
 * column below a pivot by its reciprocal, which overflows for a pivot
 * below 1/DBL_MAX (0 * inf: NaN factors, NaN in NumPy 1.24 too); ref
 * divides by pivots below DBL_MIN, as LAPACK's sfmin test.  blas gave
 * NaN for all of these (its check caught only matrices whose entries are
 * all subnormal); now it hands a matrix with such a pivot to ref. */
static void test_subnormal_pivot(void **state)
{
    (void)state;
    BEGIN();
    const double s = 1e-310, tol = tol_of(EH_F64);
    for (int d = 0; d < 2; d++) {
        eh_dtype dt = FLOATS[d];
        /* f32: 1e-40 is subnormal there, and 1e-310 would be 0 */
        double p = dt == EH_F32 ? (double)1e-40f : s;
        EXPECT_NEAR(eh_solve(T(dt, SHAPE(2, 2), p, 0.0, 0.0, 1), T(dt, SHAPE(2), p, 1)), dt,
                    tol_of(dt), SHAPE(2), 1, 1);
        /* a batch: the regular first matrix and the second, pivot s */
        EXPECT_NEAR(eh_solve(T(dt, SHAPE(2, 2, 2), 2, 0, 0, 4, p, 0.0, 0.0, 1),
                             T(dt, SHAPE(2, 2, 1), 2, 4, p, 1)),
                    dt, tol_of(dt), SHAPE(2, 2, 1), 1, 1, 1, 1);
    }
    /* 1 / s overflows: inf, the exact inverse rounded */
    EXPECT_NEAR(eh_inv(T(EH_F64, SHAPE(2, 2), s, 0.0, 0.0, 1)), EH_F64, tol, SHAPE(2, 2), INFINITY,
                0, 0, 1);
    EXPECT_NEAR(eh_inv(T(EH_F64, SHAPE(2, 2), 0x1p-1030, 0.0, 0.0, 0x1p1000)), EH_F64, tol,
                SHAPE(2, 2), INFINITY, 0, 0, 0x1p-1000);
    assert_tensor(eh_det(T(EH_F64, SHAPE(2, 2), s, 0.0, 0.0, 1e300)), EH_F64, 0, NULL,
                  ((const double[]){s * 1e300}), 0.0, 1e-15);
    /* a pivot that becomes subnormal during the elimination:
     * [[1, 1], [1, 1 + 2^-52]] scaled by 2^-1000 leaves 2^-1052; det
     * 2^-1000 2^-1052 2^1000, exactly */
    const double t = 0x1p-1000;
    assert_tensor(eh_det(T(EH_F64, SHAPE(3, 3), t, t, 0, t, t + 0x1p-1052, 0, 0, 0, 0x1p1000)), EH_F64,
                  0, NULL, ((const double[]){0x1p-1052}), 0.0, 0.0);
    EXPECT_NEAR(eh_solve(T(EH_F64, SHAPE(3, 3), t, t, 0, t, t + 0x1p-1052, 0, 0, 0, 0x1p1000),
                         T(EH_F64, SHAPE(3), t, t + 0x1p-1052, 0x1p1000)),
                EH_F64, tol, SHAPE(3), 0, 1, 1);
    END();
}

/* An inverse whose entries are finite although inv(U) overflows: LAPACK's
 * getri inverts U first (here u11^-1 u12 = 1e389, inf) and gave inf for
 * the first row on blas and lazy; ref (and NumPy, through gesv with the
 * identity) solve for the columns of the identity and get the inverse,
 * [[3e209, -1e209], [-5e-181, 1e-180]] / 2.5e29.  blas now hands such a
 * matrix (a finite input whose getri result is not finite) to ref. */
static void test_inv_no_intermediate_overflow(void **state)
{
    (void)state;
    BEGIN();
    assert_tensor(eh_inv(T(EH_F64, SHAPE(2, 2), 1e-180, 1e209, 5e-181, 3e209)), EH_F64, 2, SHAPE(2, 2),
                  ((const double[]){1.2e180, -4e179, -2e-210, 4e-210}), 0.0, 1e-15);
    /* in a batch, after a regular matrix */
    assert_tensor(eh_inv(T(EH_F64, SHAPE(2, 2, 2), 2, 0, 0, 4, 1e-180, 1e209, 5e-181, 3e209)), EH_F64, 3,
                  SHAPE(2, 2, 2), ((const double[]){0.5, 0, 0, 0.25, 1.2e180, -4e179, -2e-210, 4e-210}),
                  0.0, 1e-15);
    /* an inverse that does overflow is still inf (1 / 1e-310) */
    EXPECT_NEAR(eh_inv(T(EH_F64, SHAPE(2, 2), 1e-310, 0, 0, 1e300)), EH_F64, tol_of(EH_F64), SHAPE(2, 2),
                INFINITY, 0, 0, 1e-300);
    END();
}

/* Matrices whose entries are all subnormal: LAPACK's getrf divides by a
 * subnormal pivot (its reciprocal overflows, NaN); ref divides by pivots
 * below DBL_MIN.  blas hands them to ref, so every backend solves them. */
static void test_subnormal_matrices(void **state)
{
    (void)state;
    BEGIN();
    const double s = 0x1p-1030, tol = tol_of(EH_F64);
    EXPECT_NEAR(eh_solve(T(EH_F64, SHAPE(2, 2), 2 * s, s, 0.0, 4 * s), T(EH_F64, SHAPE(2), 4 * s, 8 * s)),
                EH_F64, tol, SHAPE(2), 1, 2);
    EXPECT_NEAR(eh_inv(T(EH_F64, SHAPE(2, 2), 0x1p-1023, 0.0, 0.0, 0x1p-1023)), EH_F64, tol,
                SHAPE(2, 2), 0x1p1023, 0, 0, 0x1p1023);
    /* the product 4 s^2 underflows: 0, not NaN */
    EXPECT0_NEAR(eh_det(T(EH_F64, SHAPE(2, 2), 2 * s, 0.0, 0.0, 2 * s)), EH_F64, 0, 0.0);
    END();
}

/* Check Q^T Q = I, Q R = A, R upper triangular with diag >= 0, for a
 * batch of nb matrices m x n. */
static void check_qr(eh_tensor *ta, int64_t nb, int64_t m, int64_t n, eh_dtype dt)
{
    eh_tensor *q, *r;
    int64_t k = m < n ? m : n;
    assert_int_equal(eh_qr(ta, &q, &r), EH_OK);
    assert_int_equal(eh_shape(q)[eh_ndim(q) - 1], k);
    assert_int_equal(eh_shape(r)[eh_ndim(r) - 2], k);
    double A[MAXN], Q[MAXN], R[MAXN];
    values(ta, A);
    values(q, Q);
    values(r, R);
    for (int64_t b = 0; b < nb; b++) {
        const double *Qb = Q + b * m * k, *Rb = R + b * k * n;
        ASSERT_SMALL(orth_cols_err(Qb, m, k), 10 * tol_of(dt));
        ASSERT_SMALL(product_err(Qb, Rb, A + b * m * n, m, k, n), 10 * tol_of(dt));
        for (int64_t i = 0; i < k; i++) {
            assert_true(Rb[i * n + i] >= 0.0);
            for (int64_t j = 0; j < i; j++)
                assert_true(Rb[i * n + j] == 0.0);
        }
    }
}

static void test_qr_property(void **state)
{
    (void)state;
    BEGIN();
    for (int d = 0; d < 2; d++) {
        eh_dtype dt = FLOATS[d];
        check_qr(random_t(dt, 2, SHAPE(5, 3), 61), 1, 5, 3, dt);
        check_qr(random_t(dt, 2, SHAPE(3, 5), 62), 1, 3, 5, dt);
        check_qr(random_t(dt, 2, SHAPE(4, 4), 63), 1, 4, 4, dt);
        check_qr(random_t(dt, 3, SHAPE(3, 4, 3), 64), 3, 4, 3, dt);
        /* Rank deficient and zero matrices still factor. */
        check_qr(T(dt, SHAPE(3, 2), 1, 2, 2, 4, 3, 6), 1, 3, 2, dt);
        check_qr(T(dt, SHAPE(2, 2), 0, 0, 0, 0), 1, 2, 2, dt);
    }
    END();
}

static void test_qr_edge_and_errors(void **state)
{
    (void)state;
    BEGIN();
    eh_tensor *q, *r;
    assert_int_equal(eh_qr(T_EMPTY(EH_F64, SHAPE(0, 3)), &q, &r), EH_OK);
    EXPECT_EMPTY(q, EH_F64, SHAPE(0, 0));
    EXPECT_EMPTY(r, EH_F64, SHAPE(0, 3));
    assert_int_equal(eh_qr(T_EMPTY(EH_F32, SHAPE(2, 3, 0)), &q, &r), EH_OK);
    EXPECT_EMPTY(q, EH_F32, SHAPE(2, 3, 0));
    EXPECT_EMPTY(r, EH_F32, SHAPE(2, 0, 0));
    /* Errors leave both results NULL. */
    eh_tensor *a = T(EH_F64, SHAPE(2, 2), 1, 2, 3, 4);
    q = r = a;
    assert_int_equal(eh_qr(T(EH_F64, SHAPE(3), 1, 2, 3), &q, &r), EH_ERR_SHAPE);
    assert_null(q);
    assert_null(r);
    assert_failed(NULL, EH_ERR_SHAPE, "at least 2 dimensions");
    assert_int_equal(eh_qr(T(EH_I32, SHAPE(2, 2), 1, 2, 3, 4), &q, &r), EH_ERR_DTYPE);
    assert_failed(q, EH_ERR_DTYPE, "i32");
    assert_int_equal(eh_qr(a, NULL, &r), EH_ERR_NULL_ARG);
    assert_failed(r, EH_ERR_NULL_ARG, "'q'");
    assert_int_equal(eh_qr(a, &q, NULL), EH_ERR_NULL_ARG);
    assert_failed(q, EH_ERR_NULL_ARG, "'r'");
    assert_int_equal(eh_qr(NULL, &q, &r), EH_ERR_NULL_ARG);
    assert_failed(q, EH_ERR_NULL_ARG, "qr");
    /* A NULL input from an earlier failure keeps that error, even with a
     * NULL result pointer. */
    assert_int_equal(eh_qr(eh_inv(T(EH_F64, SHAPE(1, 2), 1, 2)), &q, NULL), EH_ERR_SHAPE);
    assert_failed(q, EH_ERR_SHAPE, "inv: 'a' must be square");
    END();
}

/* ==== svd ====================================================================== */

static void test_svd_known(void **state)
{
    (void)state;
    BEGIN();
    const double r18 = 1.0 / sqrt(18.0);
    for (int d = 0; d < 2; d++) {
        eh_dtype dt = FLOATS[d];
        double tol = tol_of(dt);
        eh_tensor *u, *s, *vt;
        /* diag(3, -2): s = (3, 2); the -2 goes into vt so u's column is +e1. */
        assert_int_equal(eh_svd(T(dt, SHAPE(2, 2), 3, 0, 0, -2), 0, &u, &s, &vt), EH_OK);
        EXPECT_NEAR(u, dt, tol, SHAPE(2, 2), 1, 0, 0, 1);
        EXPECT_NEAR(s, dt, tol, SHAPE(2), 3, 2);
        EXPECT_NEAR(vt, dt, tol, SHAPE(2, 2), 1, 0, 0, -1);
        /* diag(2, 3): sorted descending, so the basis vectors swap. */
        assert_int_equal(eh_svd(T(dt, SHAPE(2, 2), 2, 0, 0, 3), 1, &u, &s, &vt), EH_OK);
        EXPECT_NEAR(u, dt, tol, SHAPE(2, 2), 0, 1, 1, 0);
        EXPECT_NEAR(s, dt, tol, SHAPE(2), 3, 2);
        EXPECT_NEAR(vt, dt, tol, SHAPE(2, 2), 0, 1, 1, 0);
        /* The classic [[3,2,2],[2,3,-2]]: A A^T = [[17,8],[8,17]], eigenvalues
         * 25 and 9, so s = (5, 3); u = (1,1)/sqrt2 and (1,-1)/sqrt2 (ties: the
         * first entry is made positive); vt rows = A^T u / s =
         * (1,1,0)/sqrt2 and (1,-1,4)/sqrt18; the full third row is their
         * cross product (2,-2,-1)/3, first of the tied entries positive. */
        eh_tensor *a = T(dt, SHAPE(2, 3), 3, 2, 2, 2, 3, -2);
        assert_int_equal(eh_svd(a, 0, &u, &s, &vt), EH_OK);
        EXPECT_NEAR(u, dt, tol, SHAPE(2, 2), R2, R2, R2, -R2);
        EXPECT_NEAR(s, dt, tol, SHAPE(2), 5, 3);
        EXPECT_NEAR(vt, dt, tol, SHAPE(2, 3), R2, R2, 0, r18, -r18, 4 * r18);
        assert_int_equal(eh_svd(a, 1, &u, &s, &vt), EH_OK);
        EXPECT_NEAR(u, dt, tol, SHAPE(2, 2), R2, R2, R2, -R2);
        EXPECT_NEAR(vt, dt, tol, SHAPE(3, 3), R2, R2, 0, r18, -r18, 4 * r18, 2.0 / 3, -2.0 / 3,
                    -1.0 / 3);
        /* Its transpose: u = V, vt = U^T, the sign set by u's columns. */
        eh_tensor *at = T(dt, SHAPE(3, 2), 3, 2, 2, 3, 2, -2);
        assert_int_equal(eh_svd(at, 0, &u, &s, &vt), EH_OK);
        EXPECT_NEAR(u, dt, tol, SHAPE(3, 2), R2, r18, R2, -r18, 0, 4 * r18);
        EXPECT_NEAR(s, dt, tol, SHAPE(2), 5, 3);
        EXPECT_NEAR(vt, dt, tol, SHAPE(2, 2), R2, R2, R2, -R2);
        assert_int_equal(eh_svd(at, 1, &u, &s, &vt), EH_OK);
        EXPECT_NEAR(u, dt, tol, SHAPE(3, 3), R2, r18, 2.0 / 3, R2, -r18, -2.0 / 3, 0, 4 * r18,
                    -1.0 / 3);
        EXPECT_NEAR(vt, dt, tol, SHAPE(2, 2), R2, R2, R2, -R2);
    }
    END();
}

/* Check an SVD of nb matrices m x n: orthonormal u columns and vt rows,
 * s descending and >= 0, u diag(s) vt = a, the sign convention. */
static void check_svd(eh_tensor *ta, int64_t nb, int64_t m, int64_t n, int full, eh_dtype dt)
{
    eh_tensor *u, *s, *vt;
    int64_t k = m < n ? m : n, uc = full ? m : k, vr = full ? n : k;
    assert_int_equal(eh_svd(ta, full, &u, &s, &vt), EH_OK);
    assert_int_equal(eh_size(u), nb * m * uc);
    assert_int_equal(eh_size(s), nb * k);
    assert_int_equal(eh_size(vt), nb * vr * n);
    double A[MAXN], U[MAXN], S[MAXN], V[MAXN], US[MAXN];
    values(ta, A);
    values(u, U);
    values(s, S);
    values(vt, V);
    double tol = 10 * tol_of(dt);
    for (int64_t b = 0; b < nb; b++) {
        const double *Ub = U + b * m * uc, *Sb = S + b * k, *Vb = V + b * vr * n;
        ASSERT_SMALL(orth_cols_err(Ub, m, uc), tol);
        ASSERT_SMALL(orth_rows_err(Vb, vr, n), tol);
        for (int64_t i = 0; i < k; i++) {
            assert_true(Sb[i] >= 0.0);
            if (i > 0)
                assert_true(Sb[i] <= Sb[i - 1]);
        }
        /* U[:, :k] diag(s) Vt[:k, :] */
        for (int64_t i = 0; i < m; i++)
            for (int64_t j = 0; j < k; j++)
                US[i * k + j] = Ub[i * uc + j] * Sb[j];
        ASSERT_SMALL(product_err(US, Vb, A + b * m * n, m, k, n), tol);
        for (int64_t j = 0; j < uc; j++)
            assert_sign_convention(Ub + j, m, uc, dt);
        for (int64_t i = k; i < vr; i++)
            assert_sign_convention(Vb + i * n, n, 1, dt);
    }
}

static void test_svd_property(void **state)
{
    (void)state;
    BEGIN();
    for (int d = 0; d < 2; d++) {
        eh_dtype dt = FLOATS[d];
        for (int full = 0; full < 2; full++) {
            check_svd(random_t(dt, 2, SHAPE(5, 3), 71), 1, 5, 3, full, dt);
            check_svd(random_t(dt, 2, SHAPE(3, 5), 72), 1, 3, 5, full, dt);
            check_svd(random_t(dt, 2, SHAPE(4, 4), 73), 1, 4, 4, full, dt);
            check_svd(random_t(dt, 3, SHAPE(2, 3, 4), 74), 2, 3, 4, full, dt);
            check_svd(random_t(dt, 4, SHAPE(2, 1, 4, 2), 75), 2, 4, 2, full, dt);
        }
    }
    END();
}

static void test_svd_rank_deficient(void **state)
{
    (void)state;
    BEGIN();
    for (int d = 0; d < 2; d++) {
        eh_dtype dt = FLOATS[d];
        for (int full = 0; full < 2; full++) {
            /* Rank 1: columns (1,2,3) and 2*(1,2,3); s = (sqrt(70), 0) since the
             * squared Frobenius norm is 14 + 56 = 70. */
            eh_tensor *a = T(dt, SHAPE(3, 2), 1, 2, 2, 4, 3, 6);
            check_svd(a, 1, 3, 2, full, dt);
            eh_tensor *u, *s, *vt;
            assert_int_equal(eh_svd(a, full, &u, &s, &vt), EH_OK);
            EXPECT_NEAR(s, dt, 10 * tol_of(dt), SHAPE(2), sqrt(70.0), 0);
            check_svd(T(dt, SHAPE(2, 4), 1, 2, 3, 4, 2, 4, 6, 8), 1, 2, 4, full, dt);
            /* The zero matrix: s = 0 and still orthonormal u and vt. */
            check_svd(T(dt, SHAPE(2, 3), 0, 0, 0, 0, 0, 0), 1, 2, 3, full, dt);
            check_svd(T(dt, SHAPE(3, 2), 0, 0, 0, 0, 0, 0), 1, 3, 2, full, dt);
        }
    }
    END();
}

/* Rank-deficient inputs whose Jacobi iteration cancels columns down to
 * rounding noise.  The noise of such exactly representable matrices is
 * highly structured (entries with power-of-two ratios round alike), so the
 * noise columns can be parallel to each other; before the noise-column
 * handling in the ref SVD these matrices failed with "did not converge"
 * (17 of the 64 rank-one (i+1)(j-2.5) matrices from 2x2 to 9x9). */

/* Relative tolerance for the singular values that must vanish. */
static double zero_tol_of(eh_dtype dt) { return dt == EH_F32 ? 1e-6 : 1e-14; }

/* s[0 .. nz) equal want[] (relative tolerance), s[nz .. k) nearly zero
 * relative to s[0] (exactly zero when want_exact). */
static void check_svd_values(const double *S, int64_t k, const double *want, int64_t nz,
                             eh_dtype dt, int want_exact)
{
    double tol = 10 * tol_of(dt);
    for (int64_t i = 0; i < nz; i++)
        if (!(fabs(S[i] - want[i]) <= tol * want[i]))
            fail_msg("s[%lld] = %.17g, expected %.17g", (long long)i, S[i], want[i]);
    for (int64_t i = nz; i < k; i++) {
        if (want_exact ? S[i] != 0.0 : !(S[i] <= zero_tol_of(dt) * S[0]))
            fail_msg("s[%lld] = %g is not %szero (s[0] = %g)", (long long)i, S[i],
                     want_exact ? "" : "nearly ", S[0]);
    }
}

/* a[i, j] = (i + 1) (j - 2.5) = x y^T with x = (1, ..., m), y = (-2.5,
 * -1.5, ...): s = (|x| |y|, 0, ...), u's first column x / |x| (all
 * positive, so the sign convention keeps it), vt's first row y / |y|. */
static void check_rank_one(eh_dtype dt, int64_t m, int64_t n, int full)
{
    double A[MAXN] = {0}, U[MAXN], S[MAXN], V[MAXN], x2 = 0.0, y2 = 0.0;
    int64_t k = m < n ? m : n, uc = full ? m : k;
    assert_true(m * n <= MAXN);
    for (int64_t i = 0; i < m; i++)
        x2 += (double)((i + 1) * (i + 1));
    for (int64_t j = 0; j < n; j++)
        y2 += (j - 2.5) * (j - 2.5);
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++)
            A[i * n + j] = (double)(i + 1) * ((double)j - 2.5);
    eh_tensor *a = t_from(dt, 2, SHAPE(m, n), A), *u, *s, *vt;
    check_svd(a, 1, m, n, full, dt);
    assert_int_equal(eh_svd(a, full, &u, &s, &vt), EH_OK);
    values(u, U);
    values(s, S);
    values(vt, V);
    const double s0 = sqrt(x2 * y2);
    check_svd_values(S, k, &s0, 1, dt, 0);
    double tol = 10 * tol_of(dt);
    for (int64_t i = 0; i < m; i++)
        ASSERT_SMALL(fabs(U[i * uc] - (double)(i + 1) / sqrt(x2)), tol);
    for (int64_t j = 0; j < n; j++)
        ASSERT_SMALL(fabs(V[j] - ((double)j - 2.5) / sqrt(y2)), tol);
}

static void test_svd_rank_one_sizes(void **state)
{
    (void)state;
    BEGIN();
    /* 9x9 is the reported case; 9x6 / 6x9, 8x7 / 7x8, 9x2 / 2x9 both
     * orientations (the wide ones run Jacobi on the rows). */
    static const int64_t sizes[][2] = {{9, 9}, {9, 6}, {6, 9}, {8, 7}, {7, 8}, {6, 6},
                                       {5, 4}, {4, 5}, {4, 4}, {9, 2}, {2, 9}, {2, 2}};
    for (int d = 0; d < 2; d++)
        for (int full = 0; full < 2; full++)
            for (size_t c = 0; c < sizeof sizes / sizeof sizes[0]; c++)
                check_rank_one(FLOATS[d], sizes[c][0], sizes[c][1], full);
    /* Every size from 2x2 to 9x9 (f64, reduced): all converge. */
    for (int64_t m = 2; m <= 9; m++)
        for (int64_t n = 2; n <= 9; n++)
            check_rank_one(EH_F64, m, n, 0);
    END();
}

static void test_svd_rank_two(void **state)
{
    (void)state;
    BEGIN();
    /* a = p b^T + q d^T with p = (1, ..., 1), q = (1, -1, 1, -1, ...)
     * orthogonal, and b = (1, 2, 2, 0, ...), d = (2, -1, 0, 1, 1, 0, ...)
     * orthogonal (b.d = 2 - 2 = 0): the SVD is read off, s = (|p| |b|,
     * |q| |d|) = sqrt(m) (3, |d|), u's columns p/|p| and q/|q| (the
     * latter's first entry is the first of the tied largest, positive),
     * vt's rows b/3, d/|d|.  Rows alternate b + d and b - d. */
    static const double B6[6] = {1, 2, 2, 0, 0, 0}, D6[6] = {2, -1, 0, 1, 1, 0};
    /* 4x5 (wide; d cut to (2, -1, 0, 0, 0), |d|^2 = 5) and 8x6 (tall,
     * |d|^2 = 7): s = (6, 2 sqrt5) and (6 sqrt2, 2 sqrt14). */
    static const int64_t shapes[][2] = {{4, 5}, {8, 6}};
    const int64_t d2s[2] = {5, 7};
    for (int d = 0; d < 2; d++) {
        eh_dtype dt = FLOATS[d];
        double tol = 10 * tol_of(dt);
        for (int c = 0; c < 2; c++) {
            int64_t m = shapes[c][0], n = shapes[c][1];
            double A[MAXN], At[MAXN], U[MAXN], S[MAXN], V[MAXN], dv[6];
            for (int64_t j = 0; j < n; j++)
                dv[j] = (c == 0 && j >= 3) ? 0.0 : D6[j];
            double dn = sqrt((double)d2s[c]), pn = sqrt((double)m);
            for (int64_t i = 0; i < m; i++)
                for (int64_t j = 0; j < n; j++) {
                    A[i * n + j] = B6[j] + (i % 2 ? -1.0 : 1.0) * dv[j];
                    At[j * m + i] = A[i * n + j];
                }
            const double want[2] = {3 * pn, dn * pn};
            for (int full = 0; full < 2; full++) {
                int64_t k = n < m ? n : m, uc = full ? m : k, vc = full ? n : k;
                eh_tensor *a = t_from(dt, 2, SHAPE(m, n), A), *u, *s, *vt;
                check_svd(a, 1, m, n, full, dt);
                assert_int_equal(eh_svd(a, full, &u, &s, &vt), EH_OK);
                values(u, U);
                values(s, S);
                values(vt, V);
                check_svd_values(S, k, want, 2, dt, 0);
                for (int64_t i = 0; i < m; i++) {
                    ASSERT_SMALL(fabs(U[i * uc] - 1 / pn), tol);
                    ASSERT_SMALL(fabs(U[i * uc + 1] - (i % 2 ? -1 : 1) / pn), tol);
                }
                for (int64_t j = 0; j < n; j++) {
                    ASSERT_SMALL(fabs(V[j] - B6[j] / 3), tol);
                    ASSERT_SMALL(fabs(V[n + j] - dv[j] / dn), tol);
                }
                /* The transpose: u's columns b/3 and d/|d| (their largest
                 * entries, 2/3 -- the first of the tie -- and 2/|d|, are
                 * positive), vt's rows p/|p| and q/|q|. */
                eh_tensor *at = t_from(dt, 2, SHAPE(n, m), At);
                check_svd(at, 1, n, m, full, dt);
                assert_int_equal(eh_svd(at, full, &u, &s, &vt), EH_OK);
                values(u, U);
                values(s, S);
                values(vt, V);
                check_svd_values(S, k, want, 2, dt, 0);
                for (int64_t j = 0; j < n; j++) {
                    ASSERT_SMALL(fabs(U[j * vc] - B6[j] / 3), tol);
                    ASSERT_SMALL(fabs(U[j * vc + 1] - dv[j] / dn), tol);
                }
                for (int64_t i = 0; i < m; i++) {
                    ASSERT_SMALL(fabs(V[i] - 1 / pn), tol);
                    ASSERT_SMALL(fabs(V[m + i] - (i % 2 ? -1 : 1) / pn), tol);
                }
            }
        }
    }
    END();
}

static void test_svd_zero_and_repeated(void **state)
{
    (void)state;
    BEGIN();
    for (int d = 0; d < 2; d++) {
        eh_dtype dt = FLOATS[d];
        for (int full = 0; full < 2; full++) {
            double S[MAXN];
            eh_tensor *u, *s, *vt;
            /* Zero matrices: s exactly 0, u and vt still orthonormal. */
            static const int64_t zs[][2] = {{4, 4}, {5, 3}, {3, 5}};
            for (int c = 0; c < 3; c++) {
                int64_t m = zs[c][0], n = zs[c][1];
                eh_tensor *z = eh_zeros(2, SHAPE(m, n), dt);
                check_svd(z, 1, m, n, full, dt);
                assert_int_equal(eh_svd(z, full, &u, &s, &vt), EH_OK);
                values(s, S);
                check_svd_values(S, m < n ? m : n, NULL, 0, dt, 1);
            }
            /* Column 3 repeats column 1: [c1, c2, c1] with c1 = (1,3,5),
             * c2 = (2,4,6).  a a^T = 2 c1 c1^T + c2 c2^T, so the nonzero
             * s are those of [sqrt2 c1, c2], whose Gram matrix is
             * [[70, 44 sqrt2], [44 sqrt2, 56]]: trace 126, det 48, so
             * s1^2 = 63 + sqrt(3921), s2^2 = 48 / s1^2; s3 = 0. */
            double l1 = 63 + sqrt(3921.0);
            const double want3[2] = {sqrt(l1), sqrt(48 / l1)};
            eh_tensor *r3 = T(dt, SHAPE(3, 3), 1, 2, 1, 3, 4, 3, 5, 6, 5);
            check_svd(r3, 1, 3, 3, full, dt);
            assert_int_equal(eh_svd(r3, full, &u, &s, &vt), EH_OK);
            values(s, S);
            check_svd_values(S, 3, want3, 2, dt, 0);
            /* 8x8: a[i, j] = (3i + 5j) mod 7 - 3 for i, j < 7, a 7x7 block
             * whose rows are permutations of (-3, ..., 3) and sum to 0, so
             * (1, ..., 1) is in its kernel: rank <= 6.  Row 7 repeats row 0
             * and column 7 repeats column 0, which keeps the rank: s[6] =
             * s[7] = 0.  sum s^2 = ||a||_F^2 = 7 * 28 (block) + 28 (column 7
             * of rows 0-6) + 28 + 9 (row 7) = 261. */
            double A[64];
            for (int i = 0; i < 8; i++)
                for (int j = 0; j < 8; j++)
                    A[i * 8 + j] = (double)((3 * (i % 7) + 5 * (j % 7)) % 7) - 3;
            eh_tensor *r8 = t_from(dt, 2, SHAPE(8, 8), A);
            check_svd(r8, 1, 8, 8, full, dt);
            assert_int_equal(eh_svd(r8, full, &u, &s, &vt), EH_OK);
            values(s, S);
            double ss = 0.0;
            for (int i = 0; i < 8; i++)
                ss += S[i] * S[i];
            ASSERT_SMALL(fabs(ss - 261.0) / 261.0, 10 * tol_of(dt));
            for (int i = 6; i < 8; i++)
                ASSERT_SMALL(S[i] / S[0], zero_tol_of(dt));
        }
    }
    /* A batch: the zero matrix next to the 9x9 rank-one one. */
    double A[162];
    for (int i = 0; i < 81; i++)
        A[i] = 0.0;
    for (int i = 0; i < 9; i++)
        for (int j = 0; j < 9; j++)
            A[81 + i * 9 + j] = (i + 1) * (j - 2.5);
    check_svd(t_from(EH_F64, 3, SHAPE(2, 9, 9), A), 2, 9, 9, 1, EH_F64);
    END();
}

static void test_svd_scale(void **state)
{
    (void)state;
    BEGIN();
    /* Entries near the f64 limits: no overflow or underflow inside. */
    eh_tensor *u, *s, *vt;
    assert_int_equal(eh_svd(T(EH_F64, SHAPE(2, 2), 3e300, 0, 0, -4e300), 0, &u, &s, &vt), EH_OK);
    EXPECT_NEAR(s, EH_F64, 1e-12, SHAPE(2), 4e300, 3e300);
    EXPECT_NEAR(u, EH_F64, 1e-12, SHAPE(2, 2), 0, 1, 1, 0);
    EXPECT_NEAR(vt, EH_F64, 1e-12, SHAPE(2, 2), 0, -1, 1, 0);
    assert_int_equal(eh_svd(T(EH_F64, SHAPE(1, 2), 3e-300, 4e-300), 0, &u, &s, &vt), EH_OK);
    assert_tensor(s, EH_F64, 1, SHAPE(1), (const double[]){5e-300}, 0, 1e-12);
    EXPECT_NEAR(vt, EH_F64, 1e-12, SHAPE(1, 2), 0.6, 0.8);
    END();
}

static void test_svd_edge_and_errors(void **state)
{
    (void)state;
    BEGIN();
    eh_tensor *u, *s, *vt;
    assert_int_equal(eh_svd(T_EMPTY(EH_F64, SHAPE(0, 3)), 0, &u, &s, &vt), EH_OK);
    EXPECT_EMPTY(u, EH_F64, SHAPE(0, 0));
    EXPECT_EMPTY(s, EH_F64, SHAPE(0));
    EXPECT_EMPTY(vt, EH_F64, SHAPE(0, 3));
    /* full_matrices of a (0,3): vt is an orthonormal 3x3 -- the identity. */
    assert_int_equal(eh_svd(T_EMPTY(EH_F64, SHAPE(0, 3)), 1, &u, &s, &vt), EH_OK);
    EXPECT(vt, EH_F64, SHAPE(3, 3), 1, 0, 0, 0, 1, 0, 0, 0, 1);
    assert_int_equal(eh_svd(T_EMPTY(EH_F32, SHAPE(2, 0)), 1, &u, &s, &vt), EH_OK);
    EXPECT(u, EH_F32, SHAPE(2, 2), 1, 0, 0, 1);
    EXPECT_EMPTY(vt, EH_F32, SHAPE(0, 0));
    eh_tensor *outs[3];
    expect_kernel_error_multi(eh_svd(T(EH_F64, SHAPE(2, 2), 1, NAN, 0, 1), 0, &outs[0], &outs[1],
                                     &outs[2]),
                              outs, 3, EH_ERR_LINALG, "NaN or Inf");
    expect_kernel_error_multi(eh_svd(T(EH_F32, SHAPE(2, 1, 2), 1, 0, INFINITY, 1), 1, &outs[0],
                                     &outs[1], &outs[2]),
                              outs, 3, EH_ERR_LINALG, "matrix 1 of the batch");
    eh_tensor *a = T(EH_F64, SHAPE(2, 2), 1, 2, 3, 4);
    assert_int_equal(eh_svd(T(EH_F64, SHAPE(4), 1, 2, 3, 4), 0, &u, &s, &vt), EH_ERR_SHAPE);
    assert_null(u);
    assert_failed(vt, EH_ERR_SHAPE, "svd");
    assert_int_equal(eh_svd(T(EH_F16, SHAPE(2, 2), 1, 2, 3, 4), 0, &u, &s, &vt), EH_ERR_DTYPE);
    assert_failed(s, EH_ERR_DTYPE, "f16");
    assert_int_equal(eh_svd(a, 0, &u, NULL, &vt), EH_ERR_NULL_ARG);
    assert_null(u);
    assert_failed(vt, EH_ERR_NULL_ARG, "'s'");
    assert_int_equal(eh_svd(NULL, 0, &u, &s, &vt), EH_ERR_NULL_ARG);
    assert_failed(u, EH_ERR_NULL_ARG, "svd");
    /* Out of memory for the second result: the first is released. */
    eh__test_fail_alloc(2);
    assert_int_equal(eh_svd(a, 0, &u, &s, &vt), EH_ERR_NOMEM);
    eh__test_fail_alloc(0);
    assert_null(u);
    assert_null(s);
    assert_failed(vt, EH_ERR_NOMEM, NULL);
    END();
}

/* ==== eigh ===================================================================== */

static void test_eigh_known(void **state)
{
    (void)state;
    BEGIN();
    for (int d = 0; d < 2; d++) {
        eh_dtype dt = FLOATS[d];
        double tol = tol_of(dt);
        eh_tensor *w, *v;
        /* [[2,1],[1,2]]: 1 with (1,-1)/sqrt2, 3 with (1,1)/sqrt2. */
        assert_int_equal(eh_eigh(T(dt, SHAPE(2, 2), 2, 1, 1, 2), &w, &v), EH_OK);
        EXPECT_NEAR(w, dt, tol, SHAPE(2), 1, 3);
        EXPECT_NEAR(v, dt, tol, SHAPE(2, 2), R2, R2, -R2, R2);
        /* The upper triangle is not read (UPLO='L'). */
        assert_int_equal(eh_eigh(T(dt, SHAPE(2, 2), 2, 99, 1, 2), &w, &v), EH_OK);
        EXPECT_NEAR(w, dt, tol, SHAPE(2), 1, 3);
        EXPECT_NEAR(v, dt, tol, SHAPE(2, 2), R2, R2, -R2, R2);
        /* [[0,1],[1,0]]: -1 with (1,-1)/sqrt2, 1 with (1,1)/sqrt2. */
        assert_int_equal(eh_eigh(T(dt, SHAPE(2, 2), 0, 1, 1, 0), &w, &v), EH_OK);
        EXPECT_NEAR(w, dt, tol, SHAPE(2), -1, 1);
        EXPECT_NEAR(v, dt, tol, SHAPE(2, 2), R2, R2, -R2, R2);
        /* The second-difference matrix: 2 - 2cos(k pi/4) = 2-sqrt2, 2, 2+sqrt2,
         * vectors sin(j k pi/4): (1,sqrt2,1)/2, (1,0,-1)/sqrt2, (1,-sqrt2,1)/2;
         * the last has its largest entry negative, so it is flipped. */
        assert_int_equal(eh_eigh(T(dt, SHAPE(3, 3), 2, -1, 0, -1, 2, -1, 0, -1, 2), &w, &v),
                         EH_OK);
        EXPECT_NEAR(w, dt, tol, SHAPE(3), 2 - S2, 2, 2 + S2);
        EXPECT_NEAR(v, dt, tol, SHAPE(3, 3), 0.5, R2, -0.5, R2, 0, R2, 0.5, -R2, -0.5);
        /* diag(3, 1): sorted ascending; identity: any basis, here I. */
        assert_int_equal(eh_eigh(T(dt, SHAPE(2, 2), 3, 0, 0, 1), &w, &v), EH_OK);
        EXPECT_NEAR(w, dt, tol, SHAPE(2), 1, 3);
        EXPECT_NEAR(v, dt, tol, SHAPE(2, 2), 0, 1, 1, 0);
        assert_int_equal(eh_eigh(T(dt, SHAPE(3, 3), 1, 0, 0, 0, 1, 0, 0, 0, 1), &w, &v), EH_OK);
        EXPECT_NEAR(w, dt, tol, SHAPE(3), 1, 1, 1);
        EXPECT_NEAR(v, dt, tol, SHAPE(3, 3), 1, 0, 0, 0, 1, 0, 0, 0, 1);
    }
    END();
}

static void check_eigh(eh_tensor *ta, int64_t nb, int64_t n, eh_dtype dt)
{
    eh_tensor *w, *v;
    assert_int_equal(eh_eigh(ta, &w, &v), EH_OK);
    double A[MAXN], W[MAXN], V[MAXN];
    values(ta, A);
    values(w, W);
    values(v, V);
    double tol = 10 * tol_of(dt);
    for (int64_t b = 0; b < nb; b++) {
        const double *Ab = A + b * n * n, *Wb = W + b * n, *Vb = V + b * n * n;
        ASSERT_SMALL(orth_cols_err(Vb, n, n), tol);
        for (int64_t j = 0; j < n; j++) {
            if (j > 0)
                assert_true(Wb[j] >= Wb[j - 1]);
            assert_sign_convention(Vb + j, n, n, dt);
            /* A v = w v, with A's lower triangle mirrored. */
            for (int64_t i = 0; i < n; i++) {
                double s = 0.0;
                for (int64_t t = 0; t < n; t++)
                    s += (t <= i ? Ab[i * n + t] : Ab[t * n + i]) * Vb[t * n + j];
                ASSERT_SMALL(fabs(s - Wb[j] * Vb[i * n + j]), tol);
            }
        }
    }
}

static void test_eigh_property(void **state)
{
    (void)state;
    BEGIN();
    for (int d = 0; d < 2; d++) {
        eh_dtype dt = FLOATS[d];
        /* Only the lower triangles matter: random full matrices are fine. */
        check_eigh(random_t(dt, 2, SHAPE(5, 5), 81), 1, 5, dt);
        check_eigh(random_t(dt, 3, SHAPE(3, 4, 4), 82), 3, 4, dt);
        check_eigh(random_t(dt, 4, SHAPE(2, 1, 3, 3), 83), 2, 3, dt);
        /* Repeated eigenvalue 0 (rank 1: (1,1,1)(1,1,1)^T has w = 0, 0, 3). */
        eh_tensor *ones = T(dt, SHAPE(3, 3), 1, 1, 1, 1, 1, 1, 1, 1, 1);
        check_eigh(ones, 1, 3, dt);
        eh_tensor *w, *v;
        assert_int_equal(eh_eigh(ones, &w, &v), EH_OK);
        EXPECT_NEAR(w, dt, 10 * tol_of(dt), SHAPE(3), 0, 0, 3);
    }
    END();
}

static void test_eigh_edge_and_errors(void **state)
{
    (void)state;
    BEGIN();
    eh_tensor *w, *v;
    assert_int_equal(eh_eigh(T_EMPTY(EH_F64, SHAPE(0, 0)), &w, &v), EH_OK);
    EXPECT_EMPTY(w, EH_F64, SHAPE(0));
    EXPECT_EMPTY(v, EH_F64, SHAPE(0, 0));
    assert_int_equal(eh_eigh(T(EH_F32, SHAPE(1, 1), -2), &w, &v), EH_OK);
    EXPECT(w, EH_F32, SHAPE(1), -2);
    EXPECT(v, EH_F32, SHAPE(1, 1), 1);
    /* NaN above the diagonal is never read. */
    assert_int_equal(eh_eigh(T(EH_F64, SHAPE(2, 2), 2, NAN, 1, 2), &w, &v), EH_OK);
    EXPECT_NEAR(w, EH_F64, 1e-12, SHAPE(2), 1, 3);
    eh_tensor *outs[2];
    expect_kernel_error_multi(eh_eigh(T(EH_F64, SHAPE(2, 2), 2, 0, NAN, 2), &outs[0], &outs[1]),
                              outs, 2, EH_ERR_LINALG, "NaN or Inf");
    assert_int_equal(eh_eigh(T(EH_F64, SHAPE(2, 3), 1, 2, 3, 4, 5, 6), &w, &v), EH_ERR_SHAPE);
    assert_failed(w, EH_ERR_SHAPE, "square");
    assert_int_equal(eh_eigh(T(EH_BOOL, SHAPE(1, 1), 1), &w, &v), EH_ERR_DTYPE);
    assert_failed(v, EH_ERR_DTYPE, "bool");
    assert_int_equal(eh_eigh(T(EH_F64, SHAPE(1, 1), 1), &w, NULL), EH_ERR_NULL_ARG);
    assert_failed(w, EH_ERR_NULL_ARG, "'v'");
    assert_int_equal(eh_eigh(NULL, &w, &v), EH_ERR_NULL_ARG);
    assert_failed(w, EH_ERR_NULL_ARG, "eigh");
    END();
}

/* ==== lstsq ===================================================================== */

static void test_lstsq_known(void **state)
{
    (void)state;
    BEGIN();
    for (int d = 0; d < 2; d++) {
        eh_dtype dt = FLOATS[d];
        double tol = tol_of(dt);
        /* Tall, full rank: A^T A = [[2,1],[1,2]], A^T b = (5,6) -> (4/3, 7/3). */
        EXPECT_NEAR(eh_lstsq(T(dt, SHAPE(3, 2), 1, 0, 0, 1, 1, 1), T(dt, SHAPE(3), 1, 2, 4)), dt,
                    tol, SHAPE(2), 4.0 / 3, 7.0 / 3);
        /* Square, nonsingular: the solution of solve. */
        EXPECT_NEAR(eh_lstsq(T(dt, SHAPE(2, 2), 3, 1, 1, 2), T(dt, SHAPE(2, 2), 9, 1, 8, 2)), dt,
                    tol, SHAPE(2, 2), 2, 0, 3, 1);
        /* Rank 1 [[1,2],[2,4]], b = (1,2) in its range: the minimum-norm x is
         * along (1,2): x = (1,2)/5. */
        EXPECT_NEAR(eh_lstsq(T(dt, SHAPE(2, 2), 1, 2, 2, 4), T(dt, SHAPE(2), 1, 2)), dt, tol,
                    SHAPE(2), 0.2, 0.4);
        /* [[1,1],[1,1]] x = (2, 0): least squares gives x1 + x2 = 1, min norm (0.5, 0.5). */
        EXPECT_NEAR(eh_lstsq(T(dt, SHAPE(2, 2), 1, 1, 1, 1), T(dt, SHAPE(2), 2, 0)), dt, tol,
                    SHAPE(2), 0.5, 0.5);
        /* Wide: [[1,2,3]] x = 14 -> min norm x = (1,2,3) 14 / 14. */
        EXPECT_NEAR(eh_lstsq(T(dt, SHAPE(1, 3), 1, 2, 3), T(dt, SHAPE(1), 14)), dt, tol, SHAPE(3),
                    1, 2, 3);
        /* The zero matrix: x = 0. */
        EXPECT(eh_lstsq(T(dt, SHAPE(2, 2), 0, 0, 0, 0), T(dt, SHAPE(2), 1, 1)), dt, SHAPE(2), 0, 0);
    }
    END();
}

static void test_lstsq_rcond(void **state)
{
    (void)state;
    BEGIN();
    /* rcond = 2^-52 * max(m, n) = 4.4e-16 for 2x2: 1e-17 is cut, 1e-10 kept. */
    EXPECT_NEAR(eh_lstsq(T(EH_F64, SHAPE(2, 2), 1, 0, 0, 1e-17), T(EH_F64, SHAPE(2), 1, 1)),
                EH_F64, 1e-12, SHAPE(2), 1, 0);
    EXPECT_NEAR(eh_lstsq(T(EH_F64, SHAPE(2, 2), 1, 0, 0, 1e-10), T(EH_F64, SHAPE(2), 1, 1)),
                EH_F64, 1e-6, SHAPE(2), 1, 1e10);
    /* f32 uses the same (f64) cutoff, as NumPy computes f32 in f64:
     * 1e-10 is kept: x = 1 / float(1e-10). */
    EXPECT_NEAR(eh_lstsq(T(EH_F32, SHAPE(2, 2), 1, 0, 0, 1e-10), T(EH_F32, SHAPE(2), 1, 1)),
                EH_F32, 1e-5, SHAPE(2), 1, 1.0 / (double)(float)1e-10);
    END();
}

static void test_lstsq_normal_equations(void **state)
{
    (void)state;
    BEGIN();
    /* Full-rank tall A (7x3), B (7x2): x solves A^T A x = A^T B (computed on
     * the host), i.e. the residual is orthogonal to A's columns. */
    for (int d = 0; d < 2; d++) {
        eh_dtype dt = FLOATS[d];
        double A[21], B[14], X[6], AtA[9], AtB[6];
        eh_tensor *ta = random_t(dt, 2, SHAPE(7, 3), 91), *tb = random_t(dt, 2, SHAPE(7, 2), 92);
        values(ta, A);
        values(tb, B);
        values(eh_lstsq(ta, tb), X);
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                AtA[i * 3 + j] = 0;
                for (int t = 0; t < 7; t++)
                    AtA[i * 3 + j] += A[t * 3 + i] * A[t * 3 + j];
            }
            for (int j = 0; j < 2; j++) {
                AtB[i * 2 + j] = 0;
                for (int t = 0; t < 7; t++)
                    AtB[i * 2 + j] += A[t * 3 + i] * B[t * 2 + j];
            }
        }
        ASSERT_SMALL(product_err(AtA, X, AtB, 3, 3, 2), 20 * tol_of(dt));
    }
    END();
}

static void test_lstsq_batched_and_empty(void **state)
{
    (void)state;
    BEGIN();
    /* a (2,2,2), vector b: I x = (2,4) and diag(2,4) x = (2,4). */
    EXPECT_NEAR(eh_lstsq(T(EH_F64, SHAPE(2, 2, 2), 1, 0, 0, 1, 2, 0, 0, 4),
                         T(EH_F64, SHAPE(2), 2, 4)),
                EH_F64, 1e-12, SHAPE(2, 2), 2, 4, 1, 1);
    /* a (3,2) broadcast against b (2,3,1): the tall example twice. */
    EXPECT_NEAR(eh_lstsq(T(EH_F32, SHAPE(3, 2), 1, 0, 0, 1, 1, 1),
                         T(EH_F32, SHAPE(2, 3, 1), 1, 2, 4, 0, 0, 3)),
                EH_F32, 1e-5, SHAPE(2, 2, 1), 4.0 / 3, 7.0 / 3, 1, 1);
    /* m = 0: nothing constrains x, the minimum norm is 0. */
    EXPECT(eh_lstsq(T_EMPTY(EH_F64, SHAPE(0, 2)), T_EMPTY(EH_F64, SHAPE(0))), EH_F64, SHAPE(2),
           0, 0);
    EXPECT_EMPTY(eh_lstsq(T_EMPTY(EH_F64, SHAPE(2, 0)), T(EH_F64, SHAPE(2), 1, 2)), EH_F64,
                 SHAPE(0));
    EXPECT_EMPTY(eh_lstsq(T(EH_F64, SHAPE(2, 2), 1, 0, 0, 1), T_EMPTY(EH_F64, SHAPE(2, 0))),
                 EH_F64, SHAPE(2, 0));
    END();
}

static void test_lstsq_rank_deficient(void **state)
{
    (void)state;
    BEGIN();
    for (int d = 0; d < 2; d++) {
        eh_dtype dt = FLOATS[d];
        double tol = 10 * tol_of(dt), A[MAXN] = {0}, X[MAXN], B[18];
        /* 9x9 rank one a = x y^T, x = (1..9), y_j = j - 2.5: a z = x y.z,
         * so the least-squares solutions are the z with y.z = x.b / |x|^2
         * and the one of minimum norm is z = y (x.b) / (|x|^2 |y|^2), with
         * |x|^2 = 285, |y|^2 = 80.25.  b = x (in the range): z = y / 80.25;
         * b = e0 (not in the range): z = y / (285 * 80.25). */
        for (int i = 0; i < 9; i++)
            for (int j = 0; j < 9; j++)
                A[i * 9 + j] = (i + 1) * (j - 2.5);
        for (int i = 0; i < 9; i++) {
            B[i * 2] = i + 1;
            B[i * 2 + 1] = i == 0;
        }
        eh_tensor *a = t_from(dt, 2, SHAPE(9, 9), A);
        values(eh_lstsq(a, t_from(dt, 2, SHAPE(9, 2), B)), X);
        for (int j = 0; j < 9; j++) {
            ASSERT_SMALL(fabs(X[j * 2] - (j - 2.5) / 80.25), tol);
            ASSERT_SMALL(fabs(X[j * 2 + 1] - (j - 2.5) / (285 * 80.25)), tol);
        }
        /* The same through a vector b = x. */
        for (int i = 0; i < 9; i++)
            B[i] = i + 1;
        values(eh_lstsq(a, t_from(dt, 1, SHAPE(9), B)), X);
        for (int j = 0; j < 9; j++)
            ASSERT_SMALL(fabs(X[j] - (j - 2.5) / 80.25), tol);
        /* Wide 4x7 rank one (x = (1..4), |x|^2 = 30, |y|^2 = 29.75):
         * b = 2x gives z = 2y / 29.75; b = e0 gives z = y / (30 * 29.75). */
        for (int i = 0; i < 4; i++)
            for (int j = 0; j < 7; j++)
                A[i * 7 + j] = (i + 1) * (j - 2.5);
        for (int i = 0; i < 4; i++) {
            B[i * 2] = 2 * (i + 1);
            B[i * 2 + 1] = i == 0;
        }
        values(eh_lstsq(t_from(dt, 2, SHAPE(4, 7), A), t_from(dt, 2, SHAPE(4, 2), B)), X);
        for (int j = 0; j < 7; j++) {
            ASSERT_SMALL(fabs(X[j * 2] - 2 * (j - 2.5) / 29.75), tol);
            ASSERT_SMALL(fabs(X[j * 2 + 1] - (j - 2.5) / (30 * 29.75)), tol);
        }
        /* Tall 8x6 rank two, a = p b^T + q d^T as in test_svd_rank_two
         * (p = ones, q = alternating signs, b = (1,2,2,0,0,0),
         * d = (2,-1,0,1,1,0)): a z = p (b.z) + q (d.z), so for the
         * right-hand side p + q the solutions have b.z = 1 and d.z = 1,
         * and since b and d are orthogonal the minimum-norm one is
         * z = b / |b|^2 + d / |d|^2 = b / 9 + d / 7. */
        static const double b6[6] = {1, 2, 2, 0, 0, 0}, d6[6] = {2, -1, 0, 1, 1, 0};
        for (int i = 0; i < 8; i++) {
            for (int j = 0; j < 6; j++)
                A[i * 6 + j] = b6[j] + (i % 2 ? -1.0 : 1.0) * d6[j];
            B[i] = 1.0 + (i % 2 ? -1.0 : 1.0);
        }
        values(eh_lstsq(t_from(dt, 2, SHAPE(8, 6), A), t_from(dt, 1, SHAPE(8), B)), X);
        for (int j = 0; j < 6; j++)
            ASSERT_SMALL(fabs(X[j] - (b6[j] / 9 + d6[j] / 7)), tol);
        /* Repeated column [c1, c2, c1], c1 = (1,3,5), c2 = (2,4,6):
         * a z = c1 (z1 + z3) + c2 z2.  b = c1 + c2 = (3,7,11): z1 + z3 = 1,
         * z2 = 1, minimum norm (1/2, 1, 1/2).  b = e0: the normal
         * equations of [c1, c2], [[35,44],[44,56]] (s, t) = (1, 2), give
         * s = -4/3, t = 13/12 (det 24), split evenly: (-2/3, 13/12, -2/3). */
        eh_tensor *r3 = T(dt, SHAPE(3, 3), 1, 2, 1, 3, 4, 3, 5, 6, 5);
        EXPECT_NEAR(eh_lstsq(r3, T(dt, SHAPE(3, 2), 3, 1, 7, 0, 11, 0)), dt, tol, SHAPE(3, 2),
                    0.5, -2.0 / 3, 1, 13.0 / 12, 0.5, -2.0 / 3);
    }
    END();
}

static void test_lstsq_errors(void **state)
{
    (void)state;
    BEGIN();
    eh_tensor *a = T(EH_F64, SHAPE(3, 2), 1, 0, 0, 1, 1, 1);
    expect_kernel_error(eh_lstsq(T(EH_F64, SHAPE(2, 2), 1, 0, 0, NAN), T(EH_F64, SHAPE(2), 1, 1)),
                        EH_ERR_LINALG, "NaN or Inf");
    assert_failed(eh_lstsq(T(EH_F64, SHAPE(3), 1, 2, 3), T(EH_F64, SHAPE(3), 1, 2, 3)),
                  EH_ERR_SHAPE, "at least 2 dimensions");
    assert_failed(eh_lstsq(a, T(EH_F64, SHAPE(2), 1, 2)), EH_ERR_SHAPE,
                  "a has 3 rows, b has 2");
    assert_failed(eh_lstsq(a, T0(EH_F64, 1)), EH_ERR_SHAPE, "'b'");
    assert_failed(eh_lstsq(random_t(EH_F64, 3, SHAPE(2, 3, 2), 1),
                           random_t(EH_F64, 3, SHAPE(3, 3, 1), 2)),
                  EH_ERR_SHAPE, "cannot be broadcast");
    assert_failed(eh_lstsq(a, T(EH_F32, SHAPE(3), 1, 2, 3)), EH_ERR_DTYPE, "f64 and f32");
    assert_failed(eh_lstsq(T(EH_I64, SHAPE(1, 1), 1), T(EH_I64, SHAPE(1), 1)), EH_ERR_DTYPE,
                  "i64");
    assert_failed(eh_lstsq(a, NULL), EH_ERR_NULL_ARG, "lstsq");
    END();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        EH_TEST(test_matmul_2d),
        EH_TEST(test_matmul_vectors),
        EH_TEST(test_matmul_batched),
        EH_TEST(test_matmul_broadcast_batch),
        EH_TEST(test_matmul_bool),
        EH_TEST(test_matmul_f16_in_f32),
        EH_TEST(test_matmul_int_wrap),
        EH_TEST(test_matmul_empty),
        EH_TEST(test_matmul_nan_inf),
        EH_TEST(test_matmul_errors),
        EH_TEST(test_dot_cases),
        EH_TEST(test_dot_scalars_and_empty),
        EH_TEST(test_dot_errors),
        EH_TEST(test_outer),
        EH_TEST(test_solve_small),
        EH_TEST(test_solve_batched),
        EH_TEST(test_solve_residual_random),
        EH_TEST(test_solve_empty),
        EH_TEST(test_solve_errors),
        EH_TEST(test_inv_known),
        EH_TEST(test_inv_property),
        EH_TEST(test_inv_edge_and_errors),
        EH_TEST(test_lu_small_singular_in_getf2_order),
        EH_TEST(test_lu_ref_kernel_by_order),
        cmocka_unit_test_setup_teardown(test_lu_getf2_bits_every_isa, gf_setup, gf_teardown),
        EH_TEST(test_det_known),
        EH_TEST(test_det_edge_and_errors),
        EH_TEST(test_det_no_intermediate_overflow),
        EH_TEST(test_cholesky_known),
        EH_TEST(test_cholesky_property),
        EH_TEST(test_cholesky_edge_and_errors),
        EH_TEST(test_qr_known),
        EH_TEST(test_qr_extreme_scale),
        EH_TEST(test_subnormal_matrices),
        EH_TEST(test_subnormal_pivot),
        EH_TEST(test_inv_no_intermediate_overflow),
        EH_TEST(test_qr_property),
        EH_TEST(test_qr_edge_and_errors),
        EH_TEST(test_svd_known),
        EH_TEST(test_svd_property),
        EH_TEST(test_svd_rank_deficient),
        EH_TEST(test_svd_rank_one_sizes),
        EH_TEST(test_svd_rank_two),
        EH_TEST(test_svd_zero_and_repeated),
        EH_TEST(test_svd_scale),
        EH_TEST(test_svd_edge_and_errors),
        EH_TEST(test_eigh_known),
        EH_TEST(test_eigh_property),
        EH_TEST(test_eigh_edge_and_errors),
        EH_TEST(test_lstsq_known),
        EH_TEST(test_lstsq_rcond),
        EH_TEST(test_lstsq_normal_equations),
        EH_TEST(test_lstsq_batched_and_empty),
        EH_TEST(test_lstsq_rank_deficient),
        EH_TEST(test_lstsq_errors),
    };
    return EH_RUN_TESTS(tests);
}
