/* Comparison, logic, isnan/isinf/isfinite, clip and where
 * (libeh/src/ops_elementwise.c, backends/ref/elementwise.c).
 *
 * Expected values are worked out by hand from IEEE 754 rules (every
 * comparison with NaN is false except !=; NaN is truthy as in C and NumPy's
 * bool(nan)) and NumPy's documented semantics (clip is
 * minimum(maximum(x, lo), hi) and propagates NaN).  NumPy is not available
 * here. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "eh_test.h"

#define V(...) ((const double[]){__VA_ARGS__})
#define COUNT(arr) ((int64_t)(sizeof(arr) / sizeof((arr)[0])))

static const eh_dtype all_dtypes[] = {EH_F16, EH_F32, EH_F64, EH_I32, EH_I64, EH_BOOL};
#define N_DTYPES ((int)(sizeof all_dtypes / sizeof all_dtypes[0]))

typedef eh_tensor *(*unary_fn)(const eh_tensor *);
typedef eh_tensor *(*binary_fn)(const eh_tensor *, const eh_tensor *);
typedef eh_tensor *(*bscalar_fn)(const eh_tensor *, double);
typedef eh_tensor *(*scalarb_fn)(double, const eh_tensor *);

static void check_b(const char *ctx, binary_fn fn, eh_dtype da, const double *a, eh_dtype db,
                    const double *b, int64_t n, const double *want)
{
    eh_tensor *x = t_vec(da, n, a), *y = t_vec(db, n, b);
    eh_tensor *z = fn(x, y);
    assert_vector_case(ctx, z, EH_BOOL, n, want, 0.0);
    eh_release(z);
    eh_release(x);
    eh_release(y);
}
/* A bool-valued binary op on two 1-D tensors. */
#define CHECK_B(fn, da, a, db, b, want)                                                  \
    do {                                                                                 \
        assert_int_equal(COUNT(a), COUNT(want));                                         \
        assert_int_equal(COUNT(b), COUNT(want));                                         \
        check_b(#fn " " #da " " #db, fn, da, a, db, b, COUNT(want), want);               \
    } while (0)

static void check_u(const char *ctx, unary_fn fn, eh_dtype din, int64_t n, const double *in,
                    const double *want)
{
    eh_tensor *x = t_vec(din, n, in);
    eh_tensor *y = fn(x);
    assert_vector_case(ctx, y, EH_BOOL, n, want, 0.0);
    eh_release(y);
    eh_release(x);
}
#define CHECK_U(fn, din, in, want)                                                       \
    do {                                                                                 \
        assert_int_equal(COUNT(in), COUNT(want));                                        \
        check_u(#fn " " #din, fn, din, COUNT(in), in, want);                             \
    } while (0)

/* ---- the ops of this file, from ops.def --------------------------------------------- */

#define ENTRY_NONE(name)
#define B_BINARY(name) {#name, eh_##name, eh_##name##_scalar, eh_scalar_##name},
#define U_UNARY(name) {#name, eh_##name},
#define K_ANY(name, kind) {#name, #kind},
#define EH_KINDS(X) X(CREATION) X(SHAPE) X(UNARY) X(BINARY) X(TERNARY) X(REDUCTION) \
                    X(LINALG) X(SIGNAL) X(RANDOM) X(CONVERT) X(META)
#define B_UNARY ENTRY_NONE
#define B_TERNARY ENTRY_NONE
#define B_CREATION ENTRY_NONE
#define B_SHAPE ENTRY_NONE
#define B_REDUCTION ENTRY_NONE
#define B_LINALG ENTRY_NONE
#define B_SIGNAL ENTRY_NONE
#define B_RANDOM ENTRY_NONE
#define B_CONVERT ENTRY_NONE
#define B_META ENTRY_NONE
#define U_BINARY ENTRY_NONE
#define U_TERNARY ENTRY_NONE
#define U_CREATION ENTRY_NONE
#define U_SHAPE ENTRY_NONE
#define U_REDUCTION ENTRY_NONE
#define U_LINALG ENTRY_NONE
#define U_SIGNAL ENTRY_NONE
#define U_RANDOM ENTRY_NONE
#define U_CONVERT ENTRY_NONE
#define U_META ENTRY_NONE

static const struct { const char *name; binary_fn fn; bscalar_fn fn_s; scalarb_fn s_fn; } binary_ops[] = {
#define EH_OP(name, kind, n_in) B_##kind(name)
#include <eh/ops.def>
};
static const struct { const char *name; unary_fn fn; } unary_ops[] = {
#define EH_OP(name, kind, n_in) U_##kind(name)
#include <eh/ops.def>
};
static const struct { const char *name, *kind; } op_kinds[] = {
#define EH_OP(name, kind, n_in) {#name, #kind},
#include <eh/ops.def>
};
#define N_BINARY ((int)(sizeof binary_ops / sizeof binary_ops[0]))
#define N_UNARY ((int)(sizeof unary_ops / sizeof unary_ops[0]))

static const char *kind_of(const char *op)
{
    for (size_t k = 0; k < sizeof op_kinds / sizeof op_kinds[0]; k++)
        if (strcmp(op_kinds[k].name, op) == 0)
            return op_kinds[k].kind;
    return "";
}

/* eh_clip(x, lo, hi) is the TERNARY form documented in <eh/elementwise.h>.
 * Its declaration is generated from ops.def, so call it through an adapter
 * generated the same way: while ops.def lists clip with another kind the
 * adapter cannot call it and returns NULL (test_clip_tensor_bounds then
 * fails, naming the problem). */
#define T3_TERNARY(name)                                                                 \
    __attribute__((unused)) static eh_tensor *t3_##name(const eh_tensor *a,              \
                                                        const eh_tensor *b,              \
                                                        const eh_tensor *c)              \
    { return eh_##name(a, b, c); }
#define T3_NOT_TERNARY(name)                                                             \
    __attribute__((unused)) static eh_tensor *t3_##name(const eh_tensor *a,              \
                                                        const eh_tensor *b,              \
                                                        const eh_tensor *c)              \
    { (void)a; (void)b; (void)c; return NULL; }
#define T3_UNARY T3_NOT_TERNARY
#define T3_BINARY(name)
#define T3_CREATION(name)
#define T3_SHAPE(name)
#define T3_REDUCTION(name)
#define T3_LINALG(name)
#define T3_SIGNAL(name)
#define T3_RANDOM(name)
#define T3_CONVERT(name)
#define T3_META(name)
#define EH_OP(name, kind, n_in) T3_##kind(name)
#include <eh/ops.def>

static const char *const compare_ops[] = {"equal", "not_equal", "less", "less_equal", "greater",
                                          "greater_equal", NULL};
static const char *const logical_binary_ops[] = {"logical_and", "logical_or", "logical_xor", NULL};
static const char *const bool_unary_ops[] = {"logical_not", "isnan", "isinf", "isfinite", NULL};

static int in_list(const char *name, const char *const *list)
{
    for (; *list; list++)
        if (strcmp(name, *list) == 0)
            return 1;
    return 0;
}

/* ---- comparisons ----------------------------------------------------------------- */

static void test_compare_floats(void **state)
{
    (void)state;
    /* a:  1  2  3  nan  inf  -0   nan  -inf
     * b:  2  2  2  nan  inf   0   1    inf   */
#define CA V(1, 2, 3, NAN, INFINITY, -0.0, NAN, -INFINITY)
#define CB V(2, 2, 2, NAN, INFINITY, 0.0, 1, INFINITY)
    const eh_dtype fl[] = {EH_F64, EH_F32, EH_F16};
    for (int k = 0; k < 3; k++) {
        eh_dtype d = fl[k];
        CHECK_B(eh_equal, d, CA, d, CB, V(0, 1, 0, 0, 1, 1, 0, 0));
        CHECK_B(eh_not_equal, d, CA, d, CB, V(1, 0, 1, 1, 0, 0, 1, 1));
        CHECK_B(eh_less, d, CA, d, CB, V(1, 0, 0, 0, 0, 0, 0, 1));
        CHECK_B(eh_less_equal, d, CA, d, CB, V(1, 1, 0, 0, 1, 1, 0, 1));
        CHECK_B(eh_greater, d, CA, d, CB, V(0, 0, 1, 0, 0, 0, 0, 0));
        CHECK_B(eh_greater_equal, d, CA, d, CB, V(0, 1, 1, 0, 1, 1, 0, 0));
    }
#undef CA
#undef CB
    /* f16 compares the rounded values: 2049 is stored as 2048 */
    CHECK_B(eh_equal, EH_F16, V(2049, 0.1), EH_F16, V(2048, 0.1), V(1, 1));
    CHECK_B(eh_equal, EH_F32, V(2049, 16777217), EH_F32, V(2048, 16777216), V(0, 1));
}

static void test_compare_integers_and_bool(void **state)
{
    (void)state;
    CHECK_B(eh_equal, EH_I32, V(-5, 0, 7, 2147483647), EH_I32, V(-5, 1, 6, -2147483648.0), V(1, 0, 0, 0));
    CHECK_B(eh_less, EH_I32, V(-5, 0, 7, -2147483648.0), EH_I32, V(-5, 1, 6, 2147483647), V(0, 1, 0, 1));
    CHECK_B(eh_greater_equal, EH_I64, V(-5, 0, 7), EH_I64, V(-5, 1, 6), V(1, 0, 1));
    CHECK_B(eh_not_equal, EH_I64, V(-5, 0), EH_I64, V(-5, 1), V(0, 1));
    /* bool orders false < true */
    CHECK_B(eh_less, EH_BOOL, V(0, 0, 1, 1), EH_BOOL, V(0, 1, 0, 1), V(0, 1, 0, 0));
    CHECK_B(eh_less_equal, EH_BOOL, V(0, 0, 1, 1), EH_BOOL, V(0, 1, 0, 1), V(1, 1, 0, 1));
    CHECK_B(eh_greater, EH_BOOL, V(0, 0, 1, 1), EH_BOOL, V(0, 1, 0, 1), V(0, 0, 1, 0));
    CHECK_B(eh_equal, EH_BOOL, V(0, 0, 1, 1), EH_BOOL, V(0, 1, 0, 1), V(1, 0, 0, 1));
    /* i64 compares exactly beyond 2^53 */
    eh_tensor *a = eh_convert_to_tensor((const int64_t[]){9007199254740993, INT64_MAX}, 1,
                                        SHAPE(2), EH_I64);
    eh_tensor *b = eh_convert_to_tensor((const int64_t[]){9007199254740992, INT64_MAX - 1}, 1,
                                        SHAPE(2), EH_I64);
    eh_tensor *r = eh_equal(a, b);
    assert_vector_case("equal i64 > 2^53", r, EH_BOOL, 2, V(0, 0), 0.0);
    eh_release(r);
    r = eh_greater(a, b);
    assert_vector_case("greater i64 > 2^53", r, EH_BOOL, 2, V(1, 1), 0.0);
    eh_release(r);
    eh_release(a);
    eh_release(b);
}

/* Mixed dtypes compare in the promoted dtype. */
static void test_compare_promotion(void **state)
{
    (void)state;
    /* i32 with f32 compares in f64: 16777217 is not the f32 16777216 */
    CHECK_B(eh_equal, EH_I32, V(16777217, 3), EH_F32, V(16777216, 3), V(0, 1));
    CHECK_B(eh_greater, EH_I32, V(16777217), EH_F32, V(16777216), V(1));
    /* bool with i32: true == 1 */
    CHECK_B(eh_equal, EH_BOOL, V(1, 0, 1), EH_I32, V(1, 0, 2), V(1, 1, 0));
    /* f16 with f32 in f32: 0.1 in f16 is not 0.1 in f32 */
    CHECK_B(eh_equal, EH_F16, V(0.1, 0.5), EH_F32, V(0.1, 0.5), V(0, 1));
    /* i32 with i64 */
    CHECK_B(eh_less, EH_I32, V(2147483647), EH_I64, V(2147483648.0), V(1));
    /* every pair of dtypes: a = [1, 0], b = [1, 1]; the result is always bool */
    char ctx[64];
    for (int k = 0; k < N_BINARY; k++) {
        const char *op = binary_ops[k].name;
        if (!in_list(op, compare_ops) && !in_list(op, logical_binary_ops))
            continue;
        static const struct { const char *op; double v0, v1; } table[] = {
            {"equal", 1, 0}, {"not_equal", 0, 1}, {"less", 0, 1}, {"less_equal", 1, 1},
            {"greater", 0, 0}, {"greater_equal", 1, 0}, {"logical_and", 1, 0},
            {"logical_or", 1, 1}, {"logical_xor", 0, 1},
        };
        double want[2] = {-1, -1};
        for (size_t t = 0; t < sizeof table / sizeof table[0]; t++)
            if (strcmp(table[t].op, op) == 0) {
                want[0] = table[t].v0;
                want[1] = table[t].v1;
            }
        if (want[0] < 0)
            fail_msg("no expected values for %s", op);
        for (int i = 0; i < N_DTYPES; i++)
            for (int j = 0; j < N_DTYPES; j++) {
                snprintf(ctx, sizeof ctx, "%s(%s, %s)", op, eh_dtype_name(all_dtypes[i]),
                         eh_dtype_name(all_dtypes[j]));
                eh_tensor *a = t_vec(all_dtypes[i], 2, V(1, 0));
                eh_tensor *b = t_vec(all_dtypes[j], 2, V(1, 1));
                eh_tensor *r = binary_ops[k].fn(a, b);
                assert_vector_case(ctx, r, EH_BOOL, 2, want, 0.0);
                eh_release(r);
                eh_release(a);
                eh_release(b);
            }
    }
}

static void test_compare_scalar_forms(void **state)
{
    (void)state;
    eh_tensor *t = t_from(EH_I32, 1, SHAPE(4), V(1, 2, 3, -4));
    eh_tensor *r;
    r = eh_less_scalar(t, 2); /* t < 2 */
    assert_vector_case("t < 2", r, EH_BOOL, 4, V(1, 0, 0, 1), 0.0);
    eh_release(r);
    r = eh_scalar_less(2, t); /* 2 < t */
    assert_vector_case("2 < t", r, EH_BOOL, 4, V(0, 0, 1, 0), 0.0);
    eh_release(r);
    r = eh_greater_equal_scalar(t, 2);
    assert_vector_case("t >= 2", r, EH_BOOL, 4, V(0, 1, 1, 0), 0.0);
    eh_release(r);
    r = eh_scalar_greater_equal(2, t);
    assert_vector_case("2 >= t", r, EH_BOOL, 4, V(1, 1, 0, 1), 0.0);
    eh_release(r);
    r = eh_scalar_less_equal(2, t);
    assert_vector_case("2 <= t", r, EH_BOOL, 4, V(0, 1, 1, 0), 0.0);
    eh_release(r);
    r = eh_greater_scalar(t, 1.5); /* a fraction with an integer tensor compares in f64 */
    assert_vector_case("t > 1.5", r, EH_BOOL, 4, V(0, 1, 1, 0), 0.0);
    eh_release(r);
    r = eh_equal_scalar(t, 2.5);
    assert_vector_case("t == 2.5", r, EH_BOOL, 4, V(0, 0, 0, 0), 0.0);
    eh_release(r);
    r = eh_not_equal_scalar(t, NAN);
    assert_vector_case("t != nan", r, EH_BOOL, 4, V(1, 1, 1, 1), 0.0);
    eh_release(r);
    r = eh_scalar_equal(-4, t);
    assert_vector_case("-4 == t", r, EH_BOOL, 4, V(0, 0, 0, 1), 0.0);
    eh_release(r);
    r = eh_greater_scalar(t, -1e30);
    assert_vector_case("t > -1e30", r, EH_BOOL, 4, V(1, 1, 1, 1), 0.0);
    eh_release(r);
    eh_release(t);
    /* a scalar beyond the i64 range compares in f64, not as a saturated
     * INT64_MAX (which would make INT64_MAX < 1e19 false) */
    eh_tensor *l = eh_convert_to_tensor((const int64_t[]){INT64_MAX, INT64_MIN}, 1, SHAPE(2), EH_I64);
    r = eh_less_scalar(l, 1e19);
    assert_vector_case("INT64_MAX < 1e19", r, EH_BOOL, 2, V(1, 1), 0.0);
    eh_release(r);
    r = eh_scalar_less(-1e19, l);
    assert_vector_case("-1e19 < INT64_MIN", r, EH_BOOL, 2, V(1, 1), 0.0);
    eh_release(r);
    r = eh_equal_scalar(l, 9.3e18);
    assert_vector_case("INT64_MAX == 9.3e18", r, EH_BOOL, 2, V(0, 0), 0.0);
    eh_release(r);
    eh_release(l);
    /* f16 tensor: the scalar becomes f16 too (0.1 -> 0.0999755859375) */
    eh_tensor *h = t_from(EH_F16, 1, SHAPE(1), V(0.1));
    r = eh_equal_scalar(h, 0.1);
    assert_vector_case("f16(0.1) == 0.1", r, EH_BOOL, 1, V(1), 0.0);
    eh_release(r);
    eh_release(h);
    /* bool tensor with 1: bool comparison; with 2: compared as integers */
    eh_tensor *b = t_from(EH_BOOL, 1, SHAPE(2), V(1, 0));
    r = eh_equal_scalar(b, 1);
    assert_vector_case("bool == 1", r, EH_BOOL, 2, V(1, 0), 0.0);
    eh_release(r);
    r = eh_less_scalar(b, 2);
    assert_vector_case("bool < 2", r, EH_BOOL, 2, V(1, 1), 0.0);
    eh_release(r);
    eh_release(b);
}

static void test_compare_broadcast(void **state)
{
    (void)state;
    eh_tensor *a = t_from(EH_I32, 2, SHAPE(3, 1), V(1, 2, 3));
    eh_tensor *b = t_from(EH_F32, 2, SHAPE(1, 4), V(0, 1.5, 2, 3));
    eh_tensor *r = eh_less_equal(a, b);
    assert_tensor_case("(3,1) <= (1,4)", r, EH_BOOL, 2, SHAPE(3, 4),
                       V(0, 1, 1, 1, 0, 0, 1, 1, 0, 0, 0, 1), 0.0);
    eh_release(r);
    r = eh_greater(b, a);
    assert_tensor_case("(1,4) > (3,1)", r, EH_BOOL, 2, SHAPE(3, 4),
                       V(0, 1, 1, 1, 0, 0, 0, 1, 0, 0, 0, 0), 0.0);
    eh_release(r);
    eh_tensor *s = eh_scalar(2, EH_F64);
    r = eh_equal(s, a);
    assert_tensor_case("() == (3,1)", r, EH_BOOL, 2, SHAPE(3, 1), V(0, 1, 0), 0.0);
    eh_release(r);
    r = eh_equal(s, s);
    assert_tensor_case("() == ()", r, EH_BOOL, 0, NULL, V(1), 0.0);
    eh_release(r);
    eh_release(s);
    eh_release(a);
    eh_release(b);
}

/* ---- logic ----------------------------------------------------------------------- */

static void test_logical_binary(void **state)
{
    (void)state;
    CHECK_B(eh_logical_and, EH_BOOL, V(0, 0, 1, 1), EH_BOOL, V(0, 1, 0, 1), V(0, 0, 0, 1));
    CHECK_B(eh_logical_or, EH_BOOL, V(0, 0, 1, 1), EH_BOOL, V(0, 1, 0, 1), V(0, 1, 1, 1));
    CHECK_B(eh_logical_xor, EH_BOOL, V(0, 0, 1, 1), EH_BOOL, V(0, 1, 0, 1), V(0, 1, 1, 0));
    /* other dtypes: nonzero is true, -0.0 is false, NaN is true */
    CHECK_B(eh_logical_and, EH_F64, V(0, -0.0, 2.5, NAN, -INFINITY), EH_F64, V(1, 1, 1, 1, 1),
            V(0, 0, 1, 1, 1));
    CHECK_B(eh_logical_or, EH_F32, V(0, -0.0, 0.5, NAN), EH_F32, V(0, 0, 0, 0), V(0, 0, 1, 1));
    CHECK_B(eh_logical_xor, EH_F16, V(0, 0.001, NAN, 1), EH_F16, V(0, 1, 1, 0), V(0, 0, 0, 1));
    CHECK_B(eh_logical_and, EH_I32, V(0, 5, -3, 0), EH_I32, V(7, 1, -1, 0), V(0, 1, 1, 0));
    CHECK_B(eh_logical_or, EH_I64, V(0, 4294967296.0), EH_I64, V(0, 0), V(0, 1)); /* 2^32 is not 0 */
    /* mixed dtypes */
    CHECK_B(eh_logical_and, EH_I32, V(2, 2, 0), EH_F16, V(0.5, 0, 0.5), V(1, 0, 0));
    CHECK_B(eh_logical_xor, EH_BOOL, V(1, 1), EH_F64, V(NAN, 0), V(0, 1));
    /* scalar forms */
    eh_tensor *t = t_from(EH_F64, 1, SHAPE(3), V(0, 1, NAN));
    eh_tensor *r = eh_logical_and_scalar(t, 0);
    assert_vector_case("t && 0", r, EH_BOOL, 3, V(0, 0, 0), 0.0);
    eh_release(r);
    r = eh_scalar_logical_or(1, t);
    assert_vector_case("1 || t", r, EH_BOOL, 3, V(1, 1, 1), 0.0);
    eh_release(r);
    r = eh_logical_xor_scalar(t, 1);
    assert_vector_case("t ^ 1", r, EH_BOOL, 3, V(1, 0, 0), 0.0);
    eh_release(r);
    r = eh_scalar_logical_and(0.25, t);
    assert_vector_case("0.25 && t", r, EH_BOOL, 3, V(0, 1, 1), 0.0);
    eh_release(r);
    eh_release(t);
    /* broadcasting */
    eh_tensor *a = t_from(EH_BOOL, 2, SHAPE(2, 1), V(0, 1)), *b = t_from(EH_BOOL, 1, SHAPE(3), V(1, 0, 1));
    r = eh_logical_or(a, b);
    assert_tensor_case("(2,1) || (3,)", r, EH_BOOL, 2, SHAPE(2, 3), V(1, 0, 1, 1, 1, 1), 0.0);
    eh_release(r);
    eh_release(a);
    eh_release(b);
}

static void test_logical_not(void **state)
{
    (void)state;
    CHECK_U(eh_logical_not, EH_BOOL, V(0, 1), V(1, 0));
    CHECK_U(eh_logical_not, EH_F64, V(0, -0.0, NAN, 3, -INFINITY, 1e-300), V(1, 1, 0, 0, 0, 0));
    CHECK_U(eh_logical_not, EH_F32, V(0, 2), V(1, 0));
    CHECK_U(eh_logical_not, EH_F16, V(0, NAN), V(1, 0));
    CHECK_U(eh_logical_not, EH_I32, V(0, -1, 2147483647), V(1, 0, 0));
    CHECK_U(eh_logical_not, EH_I64, V(0, 4294967296.0), V(1, 0));
    eh_tensor *s = eh_scalar(0, EH_I32);
    eh_tensor *r = eh_logical_not(s);
    assert_tensor_case("logical_not 0-d", r, EH_BOOL, 0, NULL, V(1), 0.0);
    eh_release(r);
    eh_release(s);
}

/* ---- isnan isinf isfinite ------------------------------------------------------------ */

static void test_isnan_isinf_isfinite(void **state)
{
    (void)state;
    CHECK_U(eh_isnan, EH_F64, V(0, -1.5, NAN, INFINITY, -INFINITY, 1e308, 5e-324), V(0, 0, 1, 0, 0, 0, 0));
    CHECK_U(eh_isinf, EH_F64, V(0, -1.5, NAN, INFINITY, -INFINITY, 1e308, 5e-324), V(0, 0, 0, 1, 1, 0, 0));
    CHECK_U(eh_isfinite, EH_F64, V(0, -1.5, NAN, INFINITY, -INFINITY, 1e308, 5e-324), V(1, 1, 0, 0, 0, 1, 1));
    CHECK_U(eh_isnan, EH_F32, V(3e38, NAN, -INFINITY), V(0, 1, 0));
    CHECK_U(eh_isinf, EH_F32, V(3e38, NAN, -INFINITY), V(0, 0, 1));
    CHECK_U(eh_isfinite, EH_F32, V(3e38, NAN, -INFINITY), V(1, 0, 0));
    /* f16: 65504 is finite, 1e5 does not fit and becomes inf */
    CHECK_U(eh_isnan, EH_F16, V(65504, 1e5, NAN, 6e-8), V(0, 0, 1, 0));
    CHECK_U(eh_isinf, EH_F16, V(65504, 1e5, NAN, 6e-8), V(0, 1, 0, 0));
    CHECK_U(eh_isfinite, EH_F16, V(65504, 1e5, NAN, 6e-8), V(1, 0, 0, 1));
    /* integers and bool are always finite */
    const eh_dtype exact[] = {EH_I32, EH_I64, EH_BOOL};
    for (int k = 0; k < 3; k++) {
        CHECK_U(eh_isnan, exact[k], V(0, 1), V(0, 0));
        CHECK_U(eh_isinf, exact[k], V(0, 1), V(0, 0));
        CHECK_U(eh_isfinite, exact[k], V(0, 1), V(1, 1));
    }
    /* 0-d, empty */
    eh_tensor *s = eh_scalar(INFINITY, EH_F32);
    eh_tensor *r = eh_isinf(s);
    assert_tensor_case("isinf 0-d", r, EH_BOOL, 0, NULL, V(1), 0.0);
    eh_release(r);
    eh_release(s);
    eh_tensor *e = t_from(EH_F16, 2, SHAPE(2, 0), NULL);
    r = eh_isfinite(e);
    assert_tensor_case("isfinite empty", r, EH_BOOL, 2, SHAPE(2, 0), NULL, 0.0);
    eh_release(r);
    eh_release(e);
}

/* ---- clip ---------------------------------------------------------------------------- */

static void test_clip_scalar(void **state)
{
    (void)state;
    eh_tensor *x = t_from(EH_F64, 1, SHAPE(7), V(-2, 0.5, 3, NAN, -INFINITY, INFINITY, -0.0));
    eh_tensor *r = eh_clip_scalar(x, 0, 1);
    /* NaN stays NaN; -0.0 vs lo 0: -0.0 > 0 is false, so maximum gives lo */
    assert_vector_case("clip f64", r, EH_F64, 7, V(0, 0.5, 1, NAN, 0, 1, 0.0), 0.0);
    eh_release(r);
    r = eh_clip_scalar(x, 1, 0); /* lo > hi: every value is hi, as NumPy's minimum(maximum(x, lo), hi) */
    assert_vector_case("clip lo > hi", r, EH_F64, 7, V(0, 0, 0, NAN, 0, 0, 0), 0.0);
    eh_release(r);
    r = eh_clip_scalar(x, NAN, 1); /* a NaN bound propagates */
    assert_vector_case("clip nan lo", r, EH_F64, 7, V(NAN, NAN, NAN, NAN, NAN, NAN, NAN), 0.0);
    eh_release(r);
    r = eh_clip_scalar(x, -INFINITY, INFINITY);
    assert_vector_case("clip infinite bounds", r, EH_F64, 7,
                       V(-2, 0.5, 3, NAN, -INFINITY, INFINITY, -0.0), 0.0);
    eh_release(r);
    eh_release(x);
    /* f32 and f16 keep their dtype (bounds are rounded to it) */
    eh_tensor *f = t_from(EH_F32, 1, SHAPE(3), V(-1, 0.25, 7));
    r = eh_clip_scalar(f, 0.1, 5);
    assert_vector_case("clip f32", r, EH_F32, 3, V(0.10000000149011612, 0.25, 5), 0.0);
    eh_release(r);
    eh_release(f);
    eh_tensor *h = t_from(EH_F16, 1, SHAPE(3), V(-1, NAN, 70000));
    r = eh_clip_scalar(h, 0.1, 65504);
    assert_vector_case("clip f16", r, EH_F16, 3, V(0.0999755859375, NAN, 65504), 0.0);
    eh_release(r);
    eh_release(h);
    /* integers: integral bounds keep the dtype, fractional ones give f64 */
    eh_tensor *i = t_from(EH_I32, 1, SHAPE(4), V(-5, 5, 15, -2147483648.0));
    r = eh_clip_scalar(i, 0, 10);
    assert_vector_case("clip i32", r, EH_I32, 4, V(0, 5, 10, 0), 0.0);
    eh_release(r);
    r = eh_clip_scalar(i, 0.5, 10);
    assert_vector_case("clip i32 0.5", r, EH_F64, 4, V(0.5, 5, 10, 0.5), 0.0);
    eh_release(r);
    r = eh_clip_scalar(i, -1e30, 1e30); /* beyond any integer: f64 */
    assert_vector_case("clip i32 huge", r, EH_F64, 4, V(-5, 5, 15, -2147483648.0), 0.0);
    eh_release(r);
    eh_release(i);
    eh_tensor *l = eh_convert_to_tensor((const int64_t[]){9007199254740993, -3}, 1, SHAPE(2), EH_I64);
    r = eh_clip_scalar(l, 0, 1e17);
    assert_non_null(r);
    assert_int_equal(eh_get_dtype(r), EH_I64);
    assert_int_equal(eh_data_i64(r)[0], 9007199254740993); /* exact: no trip through f64 */
    assert_int_equal(eh_data_i64(r)[1], 0);
    eh_release(r);
    eh_release(l);
    eh_tensor *b = t_from(EH_BOOL, 1, SHAPE(2), V(0, 1));
    r = eh_clip_scalar(b, 1, 1);
    assert_vector_case("clip bool", r, EH_BOOL, 2, V(1, 1), 0.0);
    eh_release(r);
    r = eh_clip_scalar(b, 0, 0.5);
    assert_vector_case("clip bool 0.5", r, EH_F64, 2, V(0, 0.5), 0.0);
    eh_release(r);
    eh_release(b);
    /* 0-d and empty */
    eh_tensor *s = eh_scalar(-3, EH_F64);
    r = eh_clip_scalar(s, -1, 1);
    assert_tensor_case("clip 0-d", r, EH_F64, 0, NULL, V(-1), 0.0);
    eh_release(r);
    eh_release(s);
    eh_tensor *e = t_from(EH_F32, 2, SHAPE(0, 2), NULL);
    r = eh_clip_scalar(e, -1, 1);
    assert_tensor_case("clip empty", r, EH_F32, 2, SHAPE(0, 2), NULL, 0.0);
    eh_release(r);
    eh_release(e);
    /* NULL */
    assert_failed(eh_clip_scalar(NULL, 0, 1), EH_ERR_NULL_ARG, "clip: argument 'x' is NULL");
}

/* The TERNARY form: eh_clip(x, lo, hi) with tensor bounds. */
static void test_clip_tensor_bounds(void **state)
{
    (void)state;
    if (strcmp(kind_of("clip"), "TERNARY") != 0)
        fail_msg("libeh/ops.def lists clip as %s; <eh/elementwise.h> documents clip(x, lo, hi) "
                 "as a TERNARY op (its kernel takes 3 inputs): ops.def must say "
                 "EH_OP(clip, TERNARY, 3)", kind_of("clip"));
    eh_tensor *x = t_from(EH_F64, 2, SHAPE(2, 3), V(-1, 5, 2, NAN, 0.5, 9));
    eh_tensor *lo = t_from(EH_F64, 1, SHAPE(3), V(0, 1, 2));
    eh_tensor *hi = eh_scalar(4, EH_F64);
    eh_tensor *r = t3_clip(x, lo, hi);
    assert_tensor_case("clip (2,3) (3,) ()", r, EH_F64, 2, SHAPE(2, 3), V(0, 4, 2, NAN, 1, 4), 0.0);
    eh_release(r);
    /* promotion of all three: i32 x, f32 lo, i64 hi -> f64 */
    eh_tensor *xi = t_from(EH_I32, 1, SHAPE(3), V(-5, 5, 16777217));
    eh_tensor *lof = t_from(EH_F32, 1, SHAPE(1), V(0.5));
    eh_tensor *hil = t_from(EH_I64, 1, SHAPE(3), V(1, 10, 16777218));
    r = t3_clip(xi, lof, hil);
    assert_vector_case("clip i32 f32 i64", r, EH_F64, 3, V(0.5, 5, 16777217), 0.0);
    eh_release(r);
    /* broadcasting the bounds to a larger shape than x */
    eh_tensor *x0 = eh_scalar(3, EH_I32);
    eh_tensor *lo2 = t_from(EH_I32, 2, SHAPE(2, 1), V(0, 4));
    eh_tensor *hi2 = t_from(EH_I32, 1, SHAPE(2), V(2, 10));
    r = t3_clip(x0, lo2, hi2);
    assert_tensor_case("clip () (2,1) (2,)", r, EH_I32, 2, SHAPE(2, 2), V(2, 3, 2, 4), 0.0);
    eh_release(r);
    /* errors */
    eh_tensor *bad = t_from(EH_F64, 1, SHAPE(2), V(0, 1));
    assert_failed(t3_clip(x, bad, hi), EH_ERR_SHAPE,
                  "clip: shapes (2, 3), (2,) and () cannot be broadcast together");
    assert_failed(t3_clip(NULL, lo, hi), EH_ERR_NULL_ARG, "clip: argument 'x' is NULL");
    assert_failed(t3_clip(x, NULL, hi), EH_ERR_NULL_ARG, "clip: argument 'lo' is NULL");
    assert_failed(t3_clip(x, lo, NULL), EH_ERR_NULL_ARG, "clip: argument 'hi' is NULL");
    eh_release(bad);
    eh_release(x0);
    eh_release(lo2);
    eh_release(hi2);
    eh_release(xi);
    eh_release(lof);
    eh_release(hil);
    eh_release(x);
    eh_release(lo);
    eh_release(hi);
}

/* While ops.def lists clip as UNARY, the generated eh_clip(x) has no
 * bounds: it must fail cleanly, not hand a 1-input call to a 3-input
 * kernel. */
static void test_clip_unary_form_is_safe(void **state)
{
    (void)state;
    for (int k = 0; k < N_UNARY; k++) {
        if (strcmp(unary_ops[k].name, "clip") != 0)
            continue;
        eh_tensor *x = t_from(EH_F64, 1, SHAPE(2), V(1, 2));
        assert_failed(unary_ops[k].fn(x), EH_ERR_INVALID_ARG, "clip");
        assert_failed(unary_ops[k].fn(NULL), EH_ERR_NULL_ARG, "clip: argument 'x' is NULL");
        eh_release(x);
    }
}

/* ---- where ----------------------------------------------------------------------------- */

static void test_where(void **state)
{
    (void)state;
    eh_tensor *c = t_from(EH_BOOL, 1, SHAPE(4), V(1, 0, 1, 0));
    eh_tensor *x = t_from(EH_F64, 1, SHAPE(4), V(1, 2, NAN, -0.0));
    eh_tensor *y = t_from(EH_F64, 1, SHAPE(4), V(10, NAN, 30, 40));
    eh_tensor *r = eh_where(c, x, y);
    assert_vector_case("where f64", r, EH_F64, 4, V(1, NAN, NAN, 40), 0.0);
    eh_release(r);
    r = eh_where(c, y, x);
    assert_vector_case("where swapped", r, EH_F64, 4, V(10, 2, 30, -0.0), 0.0);
    eh_release(r);
    /* a non-bool condition: nonzero (and NaN) is true */
    eh_tensor *cf = t_from(EH_F64, 1, SHAPE(4), V(0, NAN, 2, -0.0));
    r = eh_where(cf, x, y);
    assert_vector_case("where f64 cond", r, EH_F64, 4, V(10, 2, NAN, 40), 0.0);
    eh_release(r);
    eh_tensor *ci = t_from(EH_I32, 1, SHAPE(4), V(0, -1, 0, 7));
    r = eh_where(ci, x, y);
    assert_vector_case("where i32 cond", r, EH_F64, 4, V(10, 2, 30, -0.0), 0.0);
    eh_release(r);
    eh_release(cf);
    eh_release(ci);
    eh_release(x);
    eh_release(y);
    /* every value dtype (each element size of the copy loop) */
    for (int k = 0; k < N_DTYPES; k++) {
        char ctx[48];
        snprintf(ctx, sizeof ctx, "where %s", eh_dtype_name(all_dtypes[k]));
        eh_tensor *a = t_from(all_dtypes[k], 1, SHAPE(4), V(1, 1, 1, 1));
        eh_tensor *b = t_from(all_dtypes[k], 1, SHAPE(4), V(0, 0, 0, 0));
        r = eh_where(c, a, b);
        assert_vector_case(ctx, r, all_dtypes[k], 4, V(1, 0, 1, 0), 0.0);
        eh_release(r);
        eh_release(a);
        eh_release(b);
    }
    /* x and y promote: i32 with f32 is f64; i64 values stay exact */
    eh_tensor *xi = t_from(EH_I32, 1, SHAPE(4), V(16777217, 1, 2, 3));
    eh_tensor *yf = t_from(EH_F32, 1, SHAPE(4), V(0.5, 0.5, 0.5, 0.5));
    r = eh_where(c, xi, yf);
    assert_vector_case("where i32 f32", r, EH_F64, 4, V(16777217, 0.5, 2, 0.5), 0.0);
    eh_release(r);
    eh_tensor *bb = t_from(EH_BOOL, 1, SHAPE(4), V(1, 1, 0, 0));
    r = eh_where(c, bb, xi); /* bool with i32 is i32 */
    assert_vector_case("where bool i32", r, EH_I32, 4, V(1, 1, 0, 3), 0.0);
    eh_release(r);
    eh_release(bb);
    eh_release(xi);
    eh_release(yf);
    eh_tensor *li = eh_convert_to_tensor((const int64_t[]){9007199254740993, INT64_MIN}, 1, SHAPE(2), EH_I64);
    eh_tensor *c2 = t_from(EH_BOOL, 1, SHAPE(2), V(1, 1));
    eh_tensor *z = eh_scalar(0, EH_I64);
    r = eh_where(c2, li, z);
    assert_non_null(r);
    assert_int_equal(eh_get_dtype(r), EH_I64);
    assert_int_equal(eh_data_i64(r)[0], 9007199254740993);
    assert_int_equal(eh_data_i64(r)[1], INT64_MIN);
    eh_release(r);
    eh_release(li);
    eh_release(c2);
    eh_release(z);
    eh_release(c);
}

static void test_where_broadcast_and_errors(void **state)
{
    (void)state;
    eh_tensor *c = t_from(EH_BOOL, 2, SHAPE(3, 1), V(1, 0, 1));
    eh_tensor *x = t_from(EH_F32, 2, SHAPE(1, 4), V(1, 2, 3, 4));
    eh_tensor *y = eh_scalar(-1, EH_F32);
    eh_tensor *r = eh_where(c, x, y);
    assert_tensor_case("where (3,1) (1,4) ()", r, EH_F32, 2, SHAPE(3, 4),
                       V(1, 2, 3, 4, -1, -1, -1, -1, 1, 2, 3, 4), 0.0);
    eh_release(r);
    r = eh_where(y, y, y); /* 0-d throughout */
    assert_tensor_case("where 0-d", r, EH_F32, 0, NULL, V(-1), 0.0);
    eh_release(r);
    /* empty */
    eh_tensor *ce = t_from(EH_BOOL, 2, SHAPE(0, 4), NULL);
    r = eh_where(ce, x, y);
    assert_tensor_case("where empty", r, EH_F32, 2, SHAPE(0, 4), NULL, 0.0);
    eh_release(r);
    /* shape errors name the shapes */
    eh_tensor *bad = t_from(EH_F32, 1, SHAPE(3), V(1, 2, 3));
    assert_failed(eh_where(c, x, bad), EH_ERR_SHAPE,
                  "where: shapes (3, 1), (1, 4) and (3,) cannot be broadcast together");
    assert_failed(eh_where(bad, x, y), EH_ERR_SHAPE,
                  "where: shapes (3,), (1, 4) and () cannot be broadcast together");
    /* NULL arguments, and a NULL from a failed inner op keeps its error */
    assert_failed(eh_where(NULL, x, y), EH_ERR_NULL_ARG, "where: argument 'cond' is NULL");
    assert_failed(eh_where(c, NULL, y), EH_ERR_NULL_ARG, "where: argument 'x' is NULL");
    assert_failed(eh_where(c, x, NULL), EH_ERR_NULL_ARG, "where: argument 'y' is NULL");
    assert_failed(eh_where(eh_less(bad, x), x, y), EH_ERR_SHAPE, "less: shapes (3,) and (1, 4)");
    eh_release(bad);
    eh_release(ce);
    eh_release(c);
    eh_release(x);
    eh_release(y);
}

/* ---- properties every op of this file shares -------------------------------------------- */

static void test_null_and_shape_errors(void **state)
{
    (void)state;
    char needle[96];
    eh_tensor *a = t_from(EH_F64, 2, SHAPE(2, 3), V(1, 2, 3, 4, 5, 6));
    eh_tensor *b = t_from(EH_F64, 1, SHAPE(2), V(1, 2));
    for (int k = 0; k < N_BINARY; k++) {
        const char *op = binary_ops[k].name;
        if (!in_list(op, compare_ops) && !in_list(op, logical_binary_ops))
            continue;
        snprintf(needle, sizeof needle, "%s: argument 'a' is NULL", op);
        assert_failed(binary_ops[k].fn(NULL, a), EH_ERR_NULL_ARG, needle);
        assert_failed(binary_ops[k].fn_s(NULL, 1), EH_ERR_NULL_ARG, needle);
        snprintf(needle, sizeof needle, "%s: argument 'b' is NULL", op);
        assert_failed(binary_ops[k].fn(a, NULL), EH_ERR_NULL_ARG, needle);
        assert_failed(binary_ops[k].s_fn(1, NULL), EH_ERR_NULL_ARG, needle);
        snprintf(needle, sizeof needle, "%s: shapes (2, 3) and (2,) cannot be broadcast together", op);
        assert_failed(binary_ops[k].fn(a, b), EH_ERR_SHAPE, needle);
        /* the first error is kept through a chain */
        assert_failed(binary_ops[k].fn(eh_add(a, b), a), EH_ERR_SHAPE, "add: shapes (2, 3) and (2,)");
    }
    for (int k = 0; k < N_UNARY; k++) {
        const char *op = unary_ops[k].name;
        if (!in_list(op, bool_unary_ops))
            continue;
        snprintf(needle, sizeof needle, "%s: argument 'x' is NULL", op);
        assert_failed(unary_ops[k].fn(NULL), EH_ERR_NULL_ARG, needle);
        assert_failed(unary_ops[k].fn(eh_add(a, b)), EH_ERR_SHAPE, "add: shapes (2, 3) and (2,)");
    }
    eh_release(a);
    eh_release(b);
}

/* A scope around comparison chains leaves nothing behind, and does not
 * take its own inputs away from it. */
static void test_scope(void **state)
{
    (void)state;
    eh_scope_begin();
    eh_tensor *x = t_from(EH_F32, 1, SHAPE(3), V(-1, 0.5, 2));
    eh_retain(x);
    eh_tensor *m = eh_keep(eh_where(eh_logical_and(eh_greater_scalar(x, 0), eh_isfinite(x)),
                                    eh_clip_scalar(x, 0, 1), eh_negative(x)));
    eh_scope_end();
    /* values first: a deferring backend holds its inputs until evaluated */
    assert_vector_case("scoped where", m, EH_F32, 3, V(1, 0.5, 1), 0.0);
    assert_int_equal(eh_refcount(x), 1);
    eh_release(m);
    eh_release(x);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        EH_TEST(test_compare_floats),
        EH_TEST(test_compare_integers_and_bool),
        EH_TEST(test_compare_promotion),
        EH_TEST(test_compare_scalar_forms),
        EH_TEST(test_compare_broadcast),
        EH_TEST(test_logical_binary),
        EH_TEST(test_logical_not),
        EH_TEST(test_isnan_isinf_isfinite),
        EH_TEST(test_clip_scalar),
        EH_TEST(test_clip_tensor_bounds),
        EH_TEST(test_clip_unary_form_is_safe),
        EH_TEST(test_where),
        EH_TEST(test_where_broadcast_and_errors),
        EH_TEST(test_null_and_shape_errors),
        EH_TEST(test_scope),
    };
    return EH_RUN_TESTS(tests);
}
