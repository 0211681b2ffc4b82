/* The `blas` backend against `ref`.
 *
 * `ref` defines the semantics (docs/semantics.md); `blas` must compute the
 * same thing.  Each test runs an op on both backends with the same inputs
 * and compares:
 *   - bit for bit where blas promises identical results: every elementwise
 *     op and cast but the vectorized transcendental ones, max/min/argmax/
 *     argmin, integer reductions, scans, outer, random ops;
 *   - the vectorized transcendental ops (CF_ULP rows of
 *     tests/conformance/tolerances.def) within their ulp bounds, with NaN,
 *     infinities and zeros exact;
 *   - within a stated tolerance where only the rounding may differ: float
 *     sums and everything built on them (summation order), matmul/dot
 *     (BLAS blocking and FMA), the LAPACK decompositions, FFTW transforms.
 * Error codes for bad data (singular, not positive definite, NaN in svd)
 * must be identical.  Inputs are deterministic (a fixed LCG below, plus
 * eh_random_uniform under fixed seeds) and include NaN, +-inf, -0.0,
 * integer extremes, broadcasting, empty and 0-d shapes, and sizes large
 * enough to be split across threads.
 *
 * The file also re-runs itself with EH_NUM_THREADS=1 and =2 (see
 * test_thread_count_invariance) and checks that both give the same bits.
 * Skipped (passing) when this libeh was built without the blas backend,
 * and when EH_TEST_BACKEND names another backend (mk/run-tests.sh runs
 * every test file once per backend; this one needs only one run). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <float.h>
#include <pthread.h>
#include <sys/wait.h>
#include <unistd.h>
#include "eh_test.h"
#include "conformance.h"

/* Whether to run: libeh has the blas backend, and the test runner is not
 * going through the other backends (this file compares blas with ref
 * whatever EH_TEST_BACKEND says, so one run is enough). */
static int have_blas(void)
{
    const char *tb = getenv("EH_TEST_BACKEND");
    if (tb && *tb && strcmp(tb, "blas") != 0)
        return 0;
    const char *names[8];
    int n = eh_list_backends(names, 8);
    for (int k = 0; k < n && k < 8; k++)
        if (strcmp(names[k], "blas") == 0)
            return 1;
    return 0;
}

#define NEED_BLAS()                                                                \
    do {                                                                           \
        if (!have_blas()) {                                                        \
            skip();                                                                \
            return;                                                                \
        }                                                                          \
    } while (0)

/* ---- inputs -------------------------------------------------------------- */

static uint64_t lcg_state;
static void lcg_seed(uint64_t s) { lcg_state = s * 6364136223846793005ull + 1442695040888963407ull; }
static uint64_t lcg_next(void)
{
    lcg_state = lcg_state * 6364136223846793005ull + 1442695040888963407ull;
    return lcg_state >> 11;
}
static double lcg_u01(void) { return (double)(lcg_next() >> 1) * 0x1p-52; }

/* Value k of a stream for `dtype`: mostly ordinary values in [-lim, lim],
 * every `special_every`-th one a special (NaN, +-inf, +-0, extremes). */
static double sample(eh_dtype dtype, int64_t k, double lim, int special_every)
{
    static const double fspecial[] = {NAN, INFINITY, -INFINITY, 0.0, -0.0, 1.0, -1.0,
                                      0.5, -0.5, 2.5, -2.5, 65504.0, 1e-7, 3.0};
    static const double ispecial[] = {0, 1, -1, 2, -2, 3, 7, -7, 2147483647.0, -2147483648.0,
                                      31, 64, -64, 1e9};
    if (special_every > 0 && k % special_every == special_every - 1) {
        uint64_t r = lcg_next() % 14;
        return eh_dtype_is_float(dtype) ? fspecial[r] : ispecial[r];
    }
    double u = lcg_u01() * 2.0 - 1.0;
    if (dtype == EH_BOOL)
        return lcg_next() & 1;
    if (!eh_dtype_is_float(dtype))
        return floor(u * lim);
    return u * lim;
}

/* A tensor of `dtype` filled from the stream (values converted as eh_cast
 * would).  Integer extremes beyond i32 saturate, fine for inputs. */
static eh_tensor *mk(eh_dtype dtype, int ndim, const int64_t *shape, double lim,
                     int special_every, uint64_t seed)
{
    int64_t n = 1;
    for (int d = 0; d < ndim; d++)
        n *= shape[d];
    double *v = malloc((size_t)(n > 0 ? n : 1) * sizeof *v);
    assert_non_null(v);
    lcg_seed(seed);
    for (int64_t k = 0; k < n; k++)
        v[k] = sample(dtype, k, lim, special_every);
    eh_tensor *t = t_from(dtype, ndim, shape, v);
    free(v);
    return t;
}

/* ---- comparisons ------------------------------------------------------------- */

/* The error messages of the last ON_BOTH. */
static char ref_msg[512], blas_msg[512];

/* Run EXPR (an expression giving an eh_tensor *) on ref then on blas. */
#define ON_BOTH(EXPR, r, rs, b, bs)                                                \
    do {                                                                           \
        assert_int_equal(eh_set_backend("ref"), EH_OK);                            \
        eh_clear_error();                                                          \
        r = (EXPR);                                                                \
        rs = eh_last_error();                                                      \
        snprintf(ref_msg, sizeof ref_msg, "%s", eh_error_message());               \
        assert_int_equal(eh_set_backend("blas"), EH_OK);                           \
        eh_clear_error();                                                          \
        b = (EXPR);                                                                \
        bs = eh_last_error();                                                      \
        snprintf(blas_msg, sizeof blas_msg, "%s", eh_error_message());             \
        eh_clear_error();                                                          \
    } while (0)

/* Both failed: the same code and the same message. */
static void same_failure(eh_status rs, eh_status bs, const char *what)
{
    if (rs != bs)
        fail_msg("%s: ref error %d (%s), blas error %d (%s)", what, (int)rs, ref_msg, (int)bs,
                 blas_msg);
    if (strcmp(ref_msg, blas_msg) != 0)
        fail_msg("%s: messages differ:\n  ref:  %s\n  blas: %s", what, ref_msg, blas_msg);
}

/* Whether two float elements are both NaN (of any sign or payload). */
static int both_nan(const unsigned char *p, const unsigned char *q, eh_dtype dt)
{
    switch (dt) {
    case EH_F16: {
        uint16_t a, b;
        memcpy(&a, p, 2);
        memcpy(&b, q, 2);
        return (a & 0x7fff) > 0x7c00 && (b & 0x7fff) > 0x7c00;
    }
    case EH_F32: {
        float a, b;
        memcpy(&a, p, 4);
        memcpy(&b, q, 4);
        return isnan(a) && isnan(b);
    }
    case EH_F64: {
        double a, b;
        memcpy(&a, p, 8);
        memcpy(&b, q, 8);
        return isnan(a) && isnan(b);
    }
    default: return 0;
    }
}

/* NaN results: the sign and payload of a NaN depend on the operand order
 * the compiler picks for a commutative operation, which C does not pin
 * down; same_bits_nan treats any two NaNs as equal, same_bits does not. */
static int nan_any;

/* Set to the op's CF_ULP row while its results are compared: same_bits
 * then allows the row's ulps (SLEEF's vector math) instead of bits. */
static const cf_tol *ulp_tol;

static const cf_tol *ulp_row(const char *op)
{
    const cf_tol *t = cf_tolerance(op);
    return t && t->by_ulp ? t : NULL;
}

/* Within ulp_tol's bound: element i of two float buffers. */
static int within_ulps(const unsigned char *p, const unsigned char *q, eh_dtype dt, int64_t i,
                       eh_tensor *r, eh_tensor *b)
{
    if (!ulp_tol || !eh_dtype_is_float(dt))
        return 0;
    (void)p;
    (void)q;
    double x = t_at(r, i), y = t_at(b, i);
    if (isnan(x) || isnan(y) || isinf(x) || isinf(y) || (x == 0 && y == 0))
        return isnan(x) ? isnan(y) : (x == y && signbit(x) == signbit(y));
    int c = dt == EH_F16 ? 0 : dt == EH_F32 ? 1 : 2;
    return cf_ulp_distance(dt, x, y) <= ulp_tol->ulps[c];
}

/* Both NULL with the same error, or both tensors with the same shape, dtype
 * and bits.  Releases both.  `what` names the case in failure messages. */
static void same_bits(eh_tensor *r, eh_status rs, eh_tensor *b, eh_status bs, const char *what)
{
    if (!r || !b) {
        if (r || b)
            fail_msg("%s: ref %s, blas %s (%s%s)", what, r ? "succeeded" : "failed",
                     b ? "succeeded" : "failed", ref_msg, blas_msg);
        same_failure(rs, bs, what);
        return;
    }
    if (eh_get_dtype(r) != eh_get_dtype(b) || eh_ndim(r) != eh_ndim(b))
        fail_msg("%s: dtype/ndim differ", what);
    for (int d = 0; d < eh_ndim(r); d++)
        if (eh_dim(r, d) != eh_dim(b, d))
            fail_msg("%s: shape differs at dim %d", what, d);
    size_t nb = eh_nbytes(r);
    if (nb != eh_nbytes(b))
        fail_msg("%s: nbytes differ", what);
    const unsigned char *pr = eh_data(r), *pb = eh_data(b);
    if (nb && memcmp(pr, pb, nb) != 0) {
        size_t es = eh_dtype_size(eh_get_dtype(r));
        for (size_t i = 0; i < nb; i += es)
            if (memcmp(pr + i, pb + i, es) != 0 &&
                !(nan_any && both_nan(pr + i, pb + i, eh_get_dtype(r))) &&
                !within_ulps(pr + i, pb + i, eh_get_dtype(r), (int64_t)(i / es), r, b))
                fail_msg("%s (%s): element %zu differs: ref %.17g, blas %.17g", what,
                         eh_dtype_name(eh_get_dtype(r)), i / es, t_at(r, (int64_t)(i / es)),
                         t_at(b, (int64_t)(i / es)));
    }
    eh_release(r);
    eh_release(b);
}

/* Values within atol + rtol * |ref| (NaN matches NaN, infinities exactly),
 * or both failed with the same code.  Releases both. */
static void close_values(eh_tensor *r, eh_status rs, eh_tensor *b, eh_status bs, double atol,
                         double rtol, const char *what)
{
    if (!r || !b) {
        if (r || b)
            fail_msg("%s: ref %s, blas %s (%s%s)", what, r ? "succeeded" : "failed",
                     b ? "succeeded" : "failed", ref_msg, blas_msg);
        same_failure(rs, bs, what);
        return;
    }
    if (eh_get_dtype(r) != eh_get_dtype(b) || eh_ndim(r) != eh_ndim(b))
        fail_msg("%s: dtype/ndim differ", what);
    for (int d = 0; d < eh_ndim(r); d++)
        if (eh_dim(r, d) != eh_dim(b, d))
            fail_msg("%s: shape differs at dim %d", what, d);
    int64_t n = eh_size(r);
    for (int64_t i = 0; i < n; i++) {
        double x = t_at(r, i), y = t_at(b, i);
        if (isnan(x) && isnan(y))
            continue;
        if (isinf(x) || isinf(y)) {
            if (x != y)
                fail_msg("%s: element %lld: ref %.17g, blas %.17g", what, (long long)i, x, y);
            continue;
        }
        if (!(fabs(x - y) <= atol + rtol * fabs(x)))
            fail_msg("%s: element %lld: ref %.17g, blas %.17g (atol %g, rtol %g)", what,
                     (long long)i, x, y, atol, rtol);
    }
    eh_release(r);
    eh_release(b);
}

#define SAME(EXPR, what)                                                           \
    do {                                                                           \
        eh_tensor *r_, *b_;                                                        \
        eh_status rs_, bs_;                                                        \
        ON_BOTH(EXPR, r_, rs_, b_, bs_);                                           \
        same_bits(r_, rs_, b_, bs_, what);                                         \
    } while (0)

/* Bit-identical except that NaNs need not share sign and payload. */
#define SAME_NAN(EXPR, what)                                                       \
    do {                                                                           \
        nan_any = 1;                                                               \
        SAME(EXPR, what);                                                          \
        nan_any = 0;                                                               \
    } while (0)

#define CLOSE(EXPR, atol, rtol, what)                                              \
    do {                                                                           \
        eh_tensor *r_, *b_;                                                        \
        eh_status rs_, bs_;                                                        \
        ON_BOTH(EXPR, r_, rs_, b_, bs_);                                           \
        close_values(r_, rs_, b_, bs_, atol, rtol, what);                          \
    } while (0)

/* ---- the op lists, from ops.def ---------------------------------------------- */

typedef eh_tensor *(*unary_fn)(const eh_tensor *);
typedef eh_tensor *(*binary_fn)(const eh_tensor *, const eh_tensor *);
typedef struct {
    const char *name;
    unary_fn fn;
} unary_op;
typedef struct {
    const char *name;
    binary_fn fn;
} binary_op;

#define U_UNARY(name) {#name, eh_##name},
#define B_BINARY(name) {#name, eh_##name},
#define NOTHING(name)
#define U_BINARY NOTHING
#define U_TERNARY NOTHING
#define U_CREATION NOTHING
#define U_SHAPE NOTHING
#define U_REDUCTION NOTHING
#define U_LINALG NOTHING
#define U_SIGNAL NOTHING
#define U_RANDOM NOTHING
#define U_CONVERT NOTHING
#define U_META NOTHING
#define B_UNARY NOTHING
#define B_TERNARY NOTHING
#define B_CREATION NOTHING
#define B_SHAPE NOTHING
#define B_REDUCTION NOTHING
#define B_LINALG NOTHING
#define B_SIGNAL NOTHING
#define B_RANDOM NOTHING
#define B_CONVERT NOTHING
#define B_META NOTHING
static const unary_op unary_ops[] = {
#define EH_OP(name, kind, n_in) U_##kind(name)
#include <eh/ops.def>
};
static const binary_op binary_ops[] = {
#define EH_OP(name, kind, n_in) B_##kind(name)
#include <eh/ops.def>
};
#define N_UNARY ((int)(sizeof unary_ops / sizeof unary_ops[0]))
#define N_BINARY ((int)(sizeof binary_ops / sizeof binary_ops[0]))

static const eh_dtype all_dtypes[] = {EH_F16, EH_F32, EH_F64, EH_I32, EH_I64, EH_BOOL};
#define N_DTYPES 6

/* A sensible magnitude for an op's random inputs. */
static double lim_for(const char *op, eh_dtype dt)
{
    if (!eh_dtype_is_float(dt))
        return strcmp(op, "power") == 0 ? 12 : 1000;
    if (strcmp(op, "exp") == 0 || strcmp(op, "expm1") == 0 || strcmp(op, "power") == 0)
        return dt == EH_F16 ? 8 : 60;
    return 100;
}

/* ---- elementwise ------------------------------------------------------------------ */

static void test_f16_conversions_match_library(void **state)
{
    (void)state;
    NEED_BLAS();
    /* Every f16 through f32 and back, through blas's cast (its inline
     * converters) and ref's. */
    uint16_t *h = malloc(65536 * sizeof *h);
    assert_non_null(h);
    for (int k = 0; k < 65536; k++)
        h[k] = (uint16_t)k;
    eh_tensor *x = eh_convert_to_tensor(h, 1, SHAPE(65536), EH_F16);
    SAME(eh_cast(x, EH_F32), "f16 -> f32 (all 65536)");
    assert_int_equal(eh_set_backend("ref"), EH_OK);
    eh_tensor *f = eh_cast(x, EH_F32);
    SAME(eh_cast(f, EH_F16), "f32 -> f16 round trip");
    eh_release(f);
    eh_release(x);
    free(h);
    /* f32 values around every f16 rounding boundary and the subnormals. */
    int64_t n = 1 << 20;
    float *v = malloc((size_t)n * sizeof *v);
    assert_non_null(v);
    lcg_seed(7);
    for (int64_t k = 0; k < n; k++) {
        uint32_t bits = (uint32_t)lcg_next();
        if (k % 4 == 0)
            bits = (bits & 0x80000000u) | (0x33000000u + (uint32_t)(k % (0x47800000 - 0x33000000)));
        memcpy(&v[k], &bits, sizeof bits);
    }
    eh_tensor *xf = eh_convert_to_tensor(v, 1, &n, EH_F32);
    SAME(eh_cast(xf, EH_F16), "f32 -> f16 (random bit patterns)");
    eh_release(xf);
    free(v);
}

/* Every unary op on every dtype: bit-identical, or the same error. */
static void test_unary_all_ops_all_dtypes(void **state)
{
    (void)state;
    NEED_BLAS();
    const int64_t shapes[][3] = {{0, 0, 0}, {37, 0, 0}, {3, 0, 5}, {200003, 0, 0}};
    const int ndims[] = {0, 1, 3, 1};
    char what[160];
    for (int o = 0; o < N_UNARY; o++) {
        if (strcmp(unary_ops[o].name, "clip") == 0)
            continue; /* three inputs: test_clip_where */
        for (int d = 0; d < N_DTYPES; d++) {
            for (int s = 0; s < 4; s++) {
                if (s == 3 && (all_dtypes[d] == EH_BOOL || all_dtypes[d] == EH_I32))
                    continue; /* the large case once per kind is enough */
                eh_tensor *x = mk(all_dtypes[d], ndims[s], shapes[s],
                                  lim_for(unary_ops[o].name, all_dtypes[d]), 11, 100 + (uint64_t)o);
                snprintf(what, sizeof what, "%s %s shape#%d", unary_ops[o].name,
                         eh_dtype_name(all_dtypes[d]), s);
                ulp_tol = ulp_row(unary_ops[o].name);
                SAME(unary_ops[o].fn(x), what);
                ulp_tol = NULL;
                eh_release(x);
            }
        }
    }
}

/* Every binary op over every dtype pair (promotion happens in the
 * frontend), same shapes, scalar operands on either side, broadcasts. */
static void test_binary_all_ops(void **state)
{
    (void)state;
    NEED_BLAS();
    char what[200];
    struct {
        int nda, ndb;
        int64_t a[4], b[4];
    } cases[] = {
        {1, 1, {41}, {41}},                 /* same shape */
        {0, 2, {0}, {3, 17}},               /* 0-d with a matrix */
        {2, 0, {3, 17}, {0}},               /* matrix with 0-d */
        {1, 2, {1}, {5, 7}},                /* size-1 operand (flat scalar path) */
        {3, 2, {4, 1, 5}, {3, 1}},          /* both broadcast, inner stride 0 */
        {2, 2, {6, 1}, {1, 9}},             /* outer product shape */
        {3, 3, {2, 3, 4}, {2, 1, 4}},       /* middle broadcast */
        {2, 1, {0, 3}, {3}},                /* empty */
        {4, 2, {2, 3, 4, 5}, {4, 5}},       /* merged inner dims */
    };
    int n_cases = (int)(sizeof cases / sizeof cases[0]);
    for (int o = 0; o < N_BINARY; o++) {
        const char *name = binary_ops[o].name;
        for (int da = 0; da < N_DTYPES; da++)
            for (int db = 0; db < N_DTYPES; db++) {
                /* every pair on one case; the dtype diagonal on all cases */
                for (int c = 0; c < n_cases; c++) {
                    if (da != db && c != 0)
                        continue;
                    eh_tensor *a = mk(all_dtypes[da], cases[c].nda, cases[c].a,
                                      lim_for(name, all_dtypes[da]), 7, 1000 + (uint64_t)c);
                    eh_tensor *b = mk(all_dtypes[db], cases[c].ndb, cases[c].b,
                                      lim_for(name, all_dtypes[db]), 5, 2000 + (uint64_t)c);
                    snprintf(what, sizeof what, "%s %s x %s case %d", name,
                             eh_dtype_name(all_dtypes[da]), eh_dtype_name(all_dtypes[db]), c);
                    ulp_tol = ulp_row(name);
                    SAME(binary_ops[o].fn(a, b), what);
                    ulp_tol = NULL;
                    eh_release(a);
                    eh_release(b);
                }
            }
    }
}

/* Large operands: the threaded flat path and the threaded row walk. */
static void test_binary_large_threaded(void **state)
{
    (void)state;
    NEED_BLAS();
    char what[160];
    const eh_dtype dts[] = {EH_F32, EH_F64, EH_I64, EH_F16};
    for (int d = 0; d < 4; d++) {
        /* several grains (32768 elements) each: split across threads */
        eh_tensor *a = mk(dts[d], 1, SHAPE(400007), 100, 13, 1);
        eh_tensor *b = mk(dts[d], 1, SHAPE(400007), 100, 17, 2);
        eh_tensor *m = mk(dts[d], 2, SHAPE(500, 601), 100, 19, 3);
        eh_tensor *row = mk(dts[d], 1, SHAPE(601), 100, 0, 4);
        eh_tensor *col = mk(dts[d], 2, SHAPE(500, 1), 100, 0, 5);
        eh_tensor *s = mk(dts[d], 0, NULL, 100, 0, 6);
        const binary_fn fns[] = {eh_add, eh_subtract, eh_multiply, eh_divide, eh_maximum,
                                 eh_less, eh_floor_divide, eh_mod, eh_power};
        const char *names[] = {"add", "subtract", "multiply", "divide", "maximum", "less",
                               "floor_divide", "mod", "power"};
        for (int f = 0; f < 9; f++) {
            ulp_tol = ulp_row(names[f]);
            snprintf(what, sizeof what, "%s %s large same-shape", names[f], eh_dtype_name(dts[d]));
            SAME(fns[f](a, b), what);
            snprintf(what, sizeof what, "%s %s large with scalar", names[f], eh_dtype_name(dts[d]));
            SAME(fns[f](a, s), what);
            SAME(fns[f](s, b), what);
            snprintf(what, sizeof what, "%s %s large row broadcast", names[f], eh_dtype_name(dts[d]));
            SAME(fns[f](m, row), what);
            SAME(fns[f](col, m), what);
            SAME(fns[f](col, row), what);
            ulp_tol = NULL;
        }
        eh_release(a);
        eh_release(b);
        eh_release(m);
        eh_release(row);
        eh_release(col);
        eh_release(s);
    }
}

/* where and clip: every layout of the three operands. */
static void test_where_clip(void **state)
{
    (void)state;
    NEED_BLAS();
    char what[160];
    const int64_t shp[3][3] = {{4, 1, 6}, {5, 1}, {1}};
    const int nds[3] = {3, 2, 0};
    for (int d = 0; d < N_DTYPES; d++) {
        for (int mask = 0; mask < 8; mask++) {
            /* operand k is either full (4, 5, 6), a broadcast shape, or 0-d */
            eh_tensor *ops[3];
            for (int k = 0; k < 3; k++) {
                eh_dtype dt = k == 0 ? EH_BOOL : all_dtypes[d];
                if (mask & (1 << k))
                    ops[k] = mk(dt, nds[(k + mask) % 3], shp[(k + mask) % 3], 50, 5, 10 + (uint64_t)k);
                else
                    ops[k] = mk(dt, 3, SHAPE(4, 5, 6), 50, 5, 20 + (uint64_t)k);
            }
            snprintf(what, sizeof what, "where %s mask %d", eh_dtype_name(all_dtypes[d]), mask);
            SAME(eh_where(ops[0], ops[1], ops[2]), what);
            eh_tensor *x = mk(all_dtypes[d], 3, SHAPE(4, 5, 6), 50, 5, 30);
            snprintf(what, sizeof what, "clip_scalar %s", eh_dtype_name(all_dtypes[d]));
            SAME(eh_clip_scalar(x, -10, 20), what);
            SAME(eh_clip_scalar(ops[1], 5, -5), what); /* lo > hi */
            eh_release(x);
            for (int k = 0; k < 3; k++)
                eh_release(ops[k]);
        }
    }
    /* large, threaded */
    eh_tensor *c = mk(EH_BOOL, 1, SHAPE(2000001), 1, 0, 1);
    eh_tensor *x = mk(EH_F32, 1, SHAPE(2000001), 10, 9, 2);
    eh_tensor *y = mk(EH_F32, 0, NULL, 10, 0, 3);
    SAME(eh_where(c, x, y), "where large");
    SAME(eh_clip_scalar(x, -3, 4), "clip large");
    eh_release(c);
    eh_release(x);
    eh_release(y);
}

/* Every cast pair, including NaN/inf/out-of-range into integers. */
static void test_cast_all_pairs(void **state)
{
    (void)state;
    NEED_BLAS();
    char what[160];
    for (int a = 0; a < N_DTYPES; a++) {
        eh_tensor *x = mk(all_dtypes[a], 1, SHAPE(300001), 3e9, 3, 77);
        eh_tensor *small = mk(all_dtypes[a], 2, SHAPE(3, 4), 100, 2, 78);
        for (int b = 0; b < N_DTYPES; b++) {
            snprintf(what, sizeof what, "cast %s -> %s", eh_dtype_name(all_dtypes[a]),
                     eh_dtype_name(all_dtypes[b]));
            SAME(eh_cast(x, all_dtypes[b]), what);
            SAME(eh_cast(small, all_dtypes[b]), what);
        }
        eh_release(x);
        eh_release(small);
    }
    /* doubles at the edge of the float range */
    const double edge[] = {FLT_MAX, 0x1.ffffffp127, 0x1.fffffefp127, -0x1.ffffffp127, 1e300,
                           -1e300, 1e-50, NAN, -0.0};
    eh_tensor *e = eh_convert_to_tensor(edge, 1, SHAPE(9), EH_F64);
    SAME(eh_cast(e, EH_F32), "cast f64 edge -> f32");
    SAME(eh_cast(e, EH_F16), "cast f64 edge -> f16");
    SAME(eh_cast(e, EH_I32), "cast f64 edge -> i32");
    eh_release(e);
}

/* ---- reductions --------------------------------------------------------------------- */

/* Tolerance for a float reduction result of dtype dt: only the summation
 * order differs, both sides accumulate in double, so f64 results agree to
 * a few ulps of the sum's magnitude and f16/f32 results to one ulp. */
static double red_rtol(eh_dtype dt)
{
    return dt == EH_F16 ? 1e-3 : dt == EH_F32 ? 2.5e-7 : 1e-12;
}

typedef struct {
    int ndim;
    int64_t shape[4];
    int n_axes; /* -1: all axes (NULL, 0) */
    int axes[4];
} red_case;

static const red_case red_cases[] = {
    {0, {0}, -1, {0}},                       /* 0-d */
    {1, {37}, -1, {0}},                      /* short lane: ref's own order */
    {1, {1000}, 1, {-1}},                    /* long contiguous lane */
    {3, {3, 4, 5}, 1, {0}},                  /* column reduction */
    {3, {3, 4, 5}, 1, {1}},                  /* middle */
    {3, {3, 4, 5}, 1, {2}},                  /* inner */
    {3, {3, 4, 5}, 2, {0, 1}},
    {3, {3, 4, 5}, 2, {1, 2}},
    {3, {3, 4, 5}, 2, {0, 2}},               /* not one block: ref's kernel */
    {3, {3, 1, 5}, 1, {1}},                  /* size-1 reduced axis */
    {2, {0, 3}, 1, {0}},                     /* empty lanes */
    {2, {3, 0}, 1, {0}},                     /* empty output */
    {2, {700, 1001}, 1, {0}},                /* large column, threaded lanes */
    {2, {700, 1001}, 1, {1}},                /* large inner */
    {2, {3, 200001}, 1, {1}},                /* few long lanes: split along R */
    {2, {200001, 3}, 1, {0}},                /* few long columns: split */
    {3, {2, 70001, 3}, 1, {1}},              /* split with K1 and K2 */
    {1, {1000003}, -1, {0}},                 /* everything, split */
};
#define N_RED_CASES ((int)(sizeof red_cases / sizeof red_cases[0]))

typedef enum { R_SUM, R_MEAN, R_PROD, R_MAX, R_MIN, R_VAR, R_STD, R_LSE, R_ARGMAX, R_ARGMIN,
               R_COUNT } red_kind;
static const char *const red_names[] = {"sum", "mean", "prod", "max", "min", "var", "std",
                                        "logsumexp", "argmax", "argmin"};

static eh_tensor *run_red(red_kind k, const eh_tensor *x, const red_case *rc, int keepdims)
{
    const int *axes = rc->n_axes < 0 ? NULL : rc->axes;
    int n = rc->n_axes < 0 ? 0 : rc->n_axes;
    int axis = rc->n_axes == 1 ? rc->axes[0] : 0;
    int flat = rc->n_axes != 1;
    switch (k) {
    case R_SUM: return eh_sum(x, axes, n, keepdims);
    case R_MEAN: return eh_mean(x, axes, n, keepdims);
    case R_PROD: return eh_prod(x, axes, n, keepdims);
    case R_MAX: return eh_max(x, axes, n, keepdims);
    case R_MIN: return eh_min(x, axes, n, keepdims);
    case R_VAR: return eh_var(x, axes, n, 1, keepdims);
    case R_STD: return eh_std(x, axes, n, 0, keepdims);
    case R_LSE: return eh_logsumexp(x, axes, n, keepdims);
    case R_ARGMAX: return flat ? eh_argmax_flat(x, keepdims) : eh_argmax(x, axis, keepdims);
    case R_ARGMIN: return flat ? eh_argmin_flat(x, keepdims) : eh_argmin(x, axis, keepdims);
    default: return NULL;
    }
}

/* Exact where blas promises it (extremes, integer sums and products), a
 * stated tolerance for float sums. */
static void test_reductions_vs_ref(void **state)
{
    (void)state;
    NEED_BLAS();
    char what[200];
    for (int c = 0; c < N_RED_CASES; c++) {
        const red_case *rc = &red_cases[c];
        for (int d = 0; d < N_DTYPES; d++) {
            eh_dtype dt = all_dtypes[d];
            int64_t n = 1;
            for (int q = 0; q < rc->ndim; q++)
                n *= rc->shape[q];
            if (n > 100000 && (dt == EH_I32 || dt == EH_BOOL))
                continue;
            /* specials in every case but one per dtype, so that plain
             * values are compared too */
            eh_tensor *x = mk(dt, rc->ndim, rc->shape, 100, (c % 3) ? 97 : 0, 500 + (uint64_t)c);
            assert_int_equal(eh_set_backend("ref"), EH_OK);
            eh_tensor *small = mk(dt, rc->ndim, rc->shape, 0.05, 0, 600 + (uint64_t)c);
            eh_tensor *near1 = eh_dtype_is_float(dt) ? eh_add_scalar(small, 1.0) : eh_copy(small);
            assert_non_null(near1);
            for (int k = 0; k < R_COUNT; k++) {
                for (int keep = 0; keep < 2; keep++) {
                    snprintf(what, sizeof what, "%s %s case %d keepdims %d", red_names[k],
                             eh_dtype_name(dt), c, keep);
                    const eh_tensor *in = k == R_PROD ? near1 : x;
                    int exact = k == R_MAX || k == R_MIN || k == R_ARGMAX || k == R_ARGMIN ||
                                ((k == R_SUM || k == R_PROD) && !eh_dtype_is_float(dt));
                    if (exact) {
                        SAME_NAN(run_red((red_kind)k, in, rc, keep), what);
                    } else {
                        eh_dtype od = eh_dtype_is_float(dt) ? dt : EH_F64;
                        CLOSE(run_red((red_kind)k, in, rc, keep), 1e-300, red_rtol(od), what);
                    }
                }
            }
            eh_release(near1);
            eh_release(small);
            eh_release(x);
        }
    }
}

/* Extremes of long lanes (scanned in blocks of 2048): the first of tied
 * maxima when they recur in later blocks, signed zeros, a NaN in a late
 * block beating a larger value before it. */
static void test_extremes_ties(void **state)
{
    (void)state;
    NEED_BLAS();
    int64_t n = 10000;
    double *v = malloc((size_t)n * sizeof *v);
    assert_non_null(v);
    const eh_dtype dts[] = {EH_F16, EH_F32, EH_F64, EH_I32, EH_I64};
    for (int d = 0; d < 5; d++) {
        for (int variant = 0; variant < 4; variant++) {
            for (int64_t i = 0; i < n; i++)
                v[i] = (double)((i * 37) % 1000) / 10.0 - 50.0;
            switch (variant) {
            case 0: /* max 900 at 3000, 5000, 9999; min -900 at 4096, 2 */
                v[5000] = v[3000] = v[9999] = 900;
                v[4096] = v[2] = -900;
                break;
            case 1: /* only zeros of both signs */
                for (int64_t i = 0; i < n; i++)
                    v[i] = (i % 3) ? 0.0 : -0.0;
                break;
            case 2: /* NaN late, a larger value early */
                v[100] = 1e4;
                v[7000] = NAN;
                v[8000] = NAN;
                break;
            default: /* the extreme in the last partial block only */
                v[n - 1] = 1e4;
                v[n - 2] = -1e4;
                break;
            }
            eh_tensor *x = t_from(dts[d], 1, &n, v);
            char what[120];
            snprintf(what, sizeof what, "extremes %s variant %d", eh_dtype_name(dts[d]), variant);
            SAME(eh_max(x, NULL, 0, 0), what);
            SAME(eh_min(x, NULL, 0, 0), what);
            SAME(eh_argmax_flat(x, 0), what);
            SAME(eh_argmin_flat(x, 0), what);
            eh_release(x);
        }
    }
    free(v);
}

/* Cancellation: the f64 sums keep ref's accuracy (compensated), so a sum
 * whose terms cancel to a tiny result still agrees closely. */
static void test_sum_cancellation(void **state)
{
    (void)state;
    NEED_BLAS();
    int64_t n = 300000;
    double *v = malloc((size_t)n * sizeof *v);
    assert_non_null(v);
    for (int64_t i = 0; i < n; i++)
        v[i] = (i % 2 ? -1.0 : 1.0) * (1e16 + (double)(i % 7)) + 0.1 * (double)(i % 3);
    eh_tensor *x = eh_convert_to_tensor(v, 1, &n, EH_F64);
    free(v);
    CLOSE(eh_sum(x, NULL, 0, 0), 0.0, 1e-12, "sum with cancellation");
    /* short lanes (< 256) and unsplit column reductions run ref's exact
     * sequence: bit-identical */
    eh_tensor *s = t_from(EH_F64, 1, SHAPE(3), (const double[]){0.1, 0.2, 0.3});
    SAME(eh_sum(s, NULL, 0, 0), "sum of 0.1 0.2 0.3");
    eh_release(s);
    for (int d = 0; d < 3; d++) {
        eh_tensor *m = mk(all_dtypes[d], 2, SHAPE(60, 250), 1e3, 0, 31);
        const int a0[] = {0}, a1[] = {1};
        SAME(eh_sum(m, a1, 1, 0), "sum of short lanes");
        SAME(eh_sum(m, a0, 1, 0), "sum of columns");
        SAME(eh_mean(m, a1, 1, 0), "mean of short lanes");
        SAME(eh_var(m, a0, 1, 1, 0), "var of columns");
        SAME(eh_logsumexp(m, a1, 1, 0), "logsumexp of short lanes");
        SAME(eh_norm(m, EH_NORM_2, a0, 1, 0), "2-norm of columns");
        eh_release(m);
    }
    eh_release(x);
}

/* Scans run ref's exact sequence per lane: bit-identical. */
static void test_scans_vs_ref(void **state)
{
    (void)state;
    NEED_BLAS();
    char what[160];
    const int64_t shapes[][3] = {{0, 0, 0}, {41, 0, 0}, {3, 4, 5}, {0, 4, 0}, {300, 2, 700}};
    const int nd[] = {0, 1, 3, 2, 3};
    for (int s = 0; s < 5; s++)
        for (int d = 0; d < N_DTYPES; d++) {
            eh_tensor *x = mk(all_dtypes[d], nd[s], shapes[s], 3, 13, 900 + (uint64_t)s);
            for (int axis = -1; axis < nd[s]; axis++) {
                snprintf(what, sizeof what, "cumsum %s shape#%d axis %d",
                         eh_dtype_name(all_dtypes[d]), s, axis);
                SAME_NAN(axis < 0 ? eh_cumsum_flat(x) : eh_cumsum(x, axis), what);
                snprintf(what, sizeof what, "cumprod %s shape#%d axis %d",
                         eh_dtype_name(all_dtypes[d]), s, axis);
                SAME_NAN(axis < 0 ? eh_cumprod_flat(x) : eh_cumprod(x, axis), what);
            }
            eh_release(x);
        }
}

static void test_softmax_vs_ref(void **state)
{
    (void)state;
    NEED_BLAS();
    char what[160];
    const int64_t shapes[][3] = {{0, 0, 0}, {7, 0, 0}, {3, 4, 5}, {0, 3, 0}, {400, 3, 501}, {2, 100003, 0}};
    const int nd[] = {0, 1, 3, 2, 3, 2};
    for (int s = 0; s < 6; s++)
        for (int d = 0; d < N_DTYPES; d++) {
            eh_dtype od = eh_dtype_is_float(all_dtypes[d]) ? all_dtypes[d] : EH_F64;
            eh_tensor *x = mk(all_dtypes[d], nd[s], shapes[s], 30, s % 2 ? 29 : 0, 1000 + (uint64_t)s);
            for (int axis = -1; axis < nd[s]; axis++) {
                snprintf(what, sizeof what, "softmax %s shape#%d axis %d",
                         eh_dtype_name(all_dtypes[d]), s, axis);
                CLOSE(axis < 0 ? eh_softmax_flat(x) : eh_softmax(x, axis), 1e-300, red_rtol(od),
                      what);
                snprintf(what, sizeof what, "log_softmax %s shape#%d axis %d",
                         eh_dtype_name(all_dtypes[d]), s, axis);
                /* (x - m) - log(sum): near 0 the two terms cancel, so the
                 * error is absolute, on the scale 1 + 2 max|x| (as in
                 * docs/conformance.md); |x| <= 30 here */
                CLOSE(axis < 0 ? eh_log_softmax_flat(x) : eh_log_softmax(x, axis),
                      red_rtol(od) * (1 + 2 * 30.0), red_rtol(od), what);
            }
            eh_release(x);
        }
}

static void test_norms_vs_ref(void **state)
{
    (void)state;
    NEED_BLAS();
    char what[160];
    const eh_norm_ord ords[] = {EH_NORM_2, EH_NORM_1, EH_NORM_INF, EH_NORM_NEG_INF, EH_NORM_FRO,
                                EH_NORM_NUC};
    const eh_dtype dts[] = {EH_F16, EH_F32, EH_F64, EH_I64};
    for (int d = 0; d < 4; d++) {
        eh_dtype od = eh_dtype_is_float(dts[d]) ? dts[d] : EH_F64;
        eh_tensor *x = mk(dts[d], 3, SHAPE(6, 5, 4), 50, 0, 1);
        eh_tensor *xs = mk(dts[d], 3, SHAPE(6, 5, 4), 50, 7, 2); /* NaN, inf */
        eh_tensor *big = mk(dts[d], 2, SHAPE(3, 300001), 1e3, 0, 3);
        for (int o = 0; o < 6; o++) {
            const int ax1[] = {1}, ax2[] = {0, 2}, ax3[] = {2, 1};
            snprintf(what, sizeof what, "norm ord %d %s", (int)ords[o], eh_dtype_name(dts[d]));
            CLOSE(eh_norm(x, ords[o], ax1, 1, 0), 1e-300, red_rtol(od), what);
            CLOSE(eh_norm(xs, ords[o], ax1, 1, 1), 1e-300, red_rtol(od), what);
            CLOSE(eh_norm(x, ords[o], ax2, 2, 0), 1e-300, red_rtol(od) * 100, what);
            CLOSE(eh_norm(x, ords[o], ax3, 2, 0), 1e-300, red_rtol(od) * 100, what);
            CLOSE(eh_norm(x, ords[o], NULL, 0, 0), 1e-300, red_rtol(od), what);
            CLOSE(eh_norm(big, ords[o], (const int[]){1}, 1, 0), 1e-300, red_rtol(od), what);
        }
        eh_release(x);
        eh_release(xs);
        eh_release(big);
    }
}

static void test_allclose_vs_ref(void **state)
{
    (void)state;
    NEED_BLAS();
    eh_tensor *a = mk(EH_F32, 1, SHAPE(500001), 10, 0, 1);
    assert_int_equal(eh_set_backend("ref"), EH_OK);
    eh_tensor *b = eh_add_scalar(a, 1e-9);
    eh_tensor *c = eh_copy(a);
    float *cd = eh_data_f32(c);
    cd[400000] += 1.0f;
    SAME(eh_allclose(a, b, 1e-5, 1e-8, 0), "allclose equal");
    SAME(eh_allclose(a, c, 1e-5, 1e-8, 0), "allclose one far element");
    cd[400000] = NAN;
    eh_tensor *e = eh_copy(c);
    SAME(eh_allclose(c, e, 1e-5, 1e-8, 0), "allclose NaN, equal_nan 0");
    SAME(eh_allclose(c, e, 1e-5, 1e-8, 1), "allclose NaN, equal_nan 1");
    eh_tensor *row = mk(EH_F32, 1, SHAPE(3), 1, 0, 2);
    eh_tensor *col = mk(EH_F32, 2, SHAPE(3, 1), 1, 0, 2);
    SAME(eh_allclose(row, col, 1e-5, 1e-8, 0), "allclose broadcast, equal sizes");
    eh_release(a);
    eh_release(b);
    eh_release(c);
    eh_release(e);
    eh_release(row);
    eh_release(col);
}

/* ---- linear algebra ------------------------------------------------------------------ */

/* Products: OpenBLAS blocks the sums and uses FMA, so f32/f64 results
 * agree with ref within k * eps * max|a| * max|b| (inputs in [-1, 1]);
 * the other dtypes run ref's kernel and must match exactly. */
static void test_matmul_dot_vs_ref(void **state)
{
    (void)state;
    NEED_BLAS();
    char what[200];
    struct {
        int nda, ndb;
        int64_t a[4], b[4];
    } cases[] = {
        {1, 1, {7}, {7}},                   /* vector . vector: dot */
        {1, 2, {5}, {5, 3}},                /* vector @ matrix: gemv (trans) */
        {2, 1, {4, 5}, {5}},                /* matrix @ vector: gemv */
        {2, 2, {6, 5}, {5, 7}},             /* gemm */
        {3, 2, {4, 3, 5}, {5, 6}},          /* batch folded into rows */
        {4, 3, {2, 1, 3, 4}, {5, 4, 2}},    /* broadcast batch */
        {3, 3, {1, 3, 4}, {5, 4, 1}},       /* broadcast, m = 1 */
        {2, 2, {3, 0}, {0, 4}},             /* k = 0: zeros */
        {2, 2, {0, 3}, {3, 4}},             /* empty */
        {2, 2, {300, 200}, {200, 250}},     /* large: OpenBLAS threads */
        {3, 1, {3, 4, 200}, {200}},
    };
    int nc = (int)(sizeof cases / sizeof cases[0]);
    for (int c = 0; c < nc; c++)
        for (int d = 0; d < N_DTYPES; d++) {
            eh_dtype dt = all_dtypes[d];
            double lim = eh_dtype_is_float(dt) ? 1 : 50;
            eh_tensor *a = mk(dt, cases[c].nda, cases[c].a, lim, 0, 10 + (uint64_t)c);
            eh_tensor *b = mk(dt, cases[c].ndb, cases[c].b, lim, 0, 20 + (uint64_t)c);
            int64_t k = cases[c].a[cases[c].nda - 1];
            double eps = dt == EH_F64 ? 2.3e-16 : dt == EH_F32 ? 1.2e-7 : 1e-3;
            snprintf(what, sizeof what, "matmul %s case %d", eh_dtype_name(dt), c);
            if (dt == EH_F32 || dt == EH_F64)
                CLOSE(eh_matmul(a, b), 2.0 * (double)k * eps, 0.0, what);
            else
                SAME(eh_matmul(a, b), what);
            snprintf(what, sizeof what, "dot %s case %d", eh_dtype_name(dt), c);
            if (dt == EH_F32 || dt == EH_F64)
                CLOSE(eh_dot(a, b), 2.0 * (double)k * eps, 0.0, what);
            else if (c != 5 && c != 6)
                SAME(eh_dot(a, b), what);
            eh_release(a);
            eh_release(b);
        }
    /* dot's other cases: a 0-d operand, N-D . M-D */
    eh_tensor *s = mk(EH_F64, 0, NULL, 1, 0, 1);
    eh_tensor *x = mk(EH_F64, 3, SHAPE(2, 3, 4), 1, 0, 2);
    eh_tensor *y = mk(EH_F64, 3, SHAPE(5, 4, 6), 1, 0, 3);
    CLOSE(eh_dot(s, x), 1e-15, 0.0, "dot 0-d . 3-D");
    CLOSE(eh_dot(x, y), 1e-14, 0.0, "dot 3-D . 3-D");
    eh_release(s);
    eh_release(x);
    eh_release(y);
    /* NaN and inf propagate as in ref (inf * 0 is NaN) */
    eh_tensor *p = t_from(EH_F64, 2, SHAPE(2, 2), (const double[]){INFINITY, 1, NAN, 2});
    eh_tensor *q = t_from(EH_F64, 2, SHAPE(2, 2), (const double[]){0, 1, 0, 0});
    CLOSE(eh_matmul(p, q), 0.0, 0.0, "matmul with inf and NaN");
    eh_tensor *v = t_from(EH_F64, 1, SHAPE(2), (const double[]){0, 1});
    CLOSE(eh_matmul(p, v), 0.0, 0.0, "gemv with inf");
    CLOSE(eh_matmul(v, p), 0.0, 0.0, "gemv (trans) with inf");
    eh_release(p);
    eh_release(q);
    eh_release(v);
}

/* outer is a plain product per element: bit-identical on every dtype. */
static void test_outer_vs_ref(void **state)
{
    (void)state;
    NEED_BLAS();
    char what[160];
    for (int d = 0; d < N_DTYPES; d++) {
        eh_tensor *a = mk(all_dtypes[d], 1, SHAPE(301), 100, 5, 1);
        eh_tensor *b = mk(all_dtypes[d], 2, SHAPE(7, 70), 100, 3, 2);
        eh_tensor *s = mk(all_dtypes[d], 0, NULL, 100, 0, 3);
        eh_tensor *e = mk(all_dtypes[d], 1, SHAPE(0), 100, 0, 4);
        snprintf(what, sizeof what, "outer %s", eh_dtype_name(all_dtypes[d]));
        SAME(eh_outer(a, b), what);
        SAME(eh_outer(s, a), what);
        SAME(eh_outer(e, a), what);
        eh_release(a);
        eh_release(b);
        eh_release(s);
        eh_release(e);
    }
    /* -0.0 products become +0.0 (ref adds them to a zero), inf * 0 is NaN */
    eh_tensor *a = t_from(EH_F32, 1, SHAPE(3), (const double[]){-1, INFINITY, 0});
    eh_tensor *b = t_from(EH_F32, 1, SHAPE(2), (const double[]){0, -2});
    SAME_NAN(eh_outer(a, b), "outer signed zeros");
    eh_release(a);
    eh_release(b);
}

/* A well-conditioned (n, n) batch: random entries plus n on the diagonal. */
static eh_tensor *mk_wellcond(eh_dtype dt, int ndim, const int64_t *shape, uint64_t seed)
{
    eh_tensor *x = mk(EH_F64, ndim, shape, 1, 0, seed);
    int64_t n = shape[ndim - 1];
    double *p = eh_data_f64(x);
    for (int64_t i = 0; i < eh_size(x); i++)
        if ((i % (n * n)) / n == i % n)
            p[i] += (double)n;
    eh_tensor *r = eh_cast(x, dt);
    eh_release(x);
    return r;
}

/* Symmetric positive definite: B B^T + n I per matrix. */
static eh_tensor *mk_spd(eh_dtype dt, int ndim, const int64_t *shape, uint64_t seed)
{
    eh_tensor *b = mk(EH_F64, ndim, shape, 1, 0, seed);
    int64_t n = shape[ndim - 1], nb = eh_size(b) / (n * n > 0 ? n * n : 1);
    eh_tensor *x = eh_copy(b);
    const double *pb = eh_data_f64(b);
    double *px = eh_data_f64(x);
    for (int64_t m = 0; m < nb; m++)
        for (int64_t i = 0; i < n; i++)
            for (int64_t j = 0; j < n; j++) {
                double s = i == j ? (double)n : 0.0;
                for (int64_t t = 0; t < n; t++)
                    s += pb[m * n * n + i * n + t] * pb[m * n * n + j * n + t];
                px[m * n * n + i * n + j] = s;
            }
    eh_tensor *r = eh_cast(x, dt);
    eh_release(b);
    eh_release(x);
    return r;
}

static double dec_tol(eh_dtype dt) { return dt == EH_F32 ? 2e-5 : 1e-10; }

static void test_solve_inv_det_vs_ref(void **state)
{
    (void)state;
    NEED_BLAS();
    char what[160];
    for (int d = 1; d <= 2; d++) {
        eh_dtype dt = all_dtypes[d]; /* f32, f64 */
        double tol = dec_tol(dt);
        eh_tensor *a = mk_wellcond(dt, 3, SHAPE(3, 6, 6), 1);
        eh_tensor *a1 = mk_wellcond(dt, 2, SHAPE(40, 40), 2);
        eh_tensor *bv = mk(dt, 1, SHAPE(6), 1, 0, 3);
        eh_tensor *bm = mk(dt, 4, SHAPE(2, 1, 6, 4), 1, 0, 4);
        eh_tensor *b1 = mk(dt, 2, SHAPE(40, 3), 1, 0, 5);
        snprintf(what, sizeof what, "solve %s", eh_dtype_name(dt));
        CLOSE(eh_solve(a, bv), tol, tol, what);
        CLOSE(eh_solve(a, bm), tol, tol, what);  /* broadcast (2, 3) batch */
        CLOSE(eh_solve(a1, b1), tol, tol, what);
        snprintf(what, sizeof what, "inv %s", eh_dtype_name(dt));
        CLOSE(eh_inv(a), tol, tol, what);
        CLOSE(eh_inv(a1), tol, tol, what);
        snprintf(what, sizeof what, "det %s", eh_dtype_name(dt));
        CLOSE(eh_det(a), 0.0, tol, what);
        CLOSE(eh_det(a1), 0.0, tol * 10, what);
        /* empty and 0 x 0 */
        eh_tensor *z = mk(dt, 3, SHAPE(2, 0, 0), 1, 0, 6);
        eh_tensor *zb = mk(dt, 3, SHAPE(2, 0, 3), 1, 0, 7);
        SAME(eh_det(z), "det of 0 x 0 is 1");
        SAME(eh_inv(z), "inv of 0 x 0");
        SAME(eh_solve(z, zb), "solve 0 x 0");
        /* singular: the same error, the same message; det 0 */
        eh_tensor *sing = t_from(dt, 3, SHAPE(2, 2, 2), (const double[]){2, 1, 1, 1, 1, 2, 2, 4});
        eh_tensor *sb = t_from(dt, 1, SHAPE(2), (const double[]){1, 1});
        SAME(eh_solve(sing, sb), "solve singular (matrix 1 of the batch)");
        SAME(eh_inv(sing), "inv singular");
        CLOSE(eh_det(sing), 1e-12, 0.0, "det singular");
        /* NaN propagates (no error) */
        eh_tensor *nan = t_from(dt, 2, SHAPE(2, 2), (const double[]){1, NAN, 0, 1});
        CLOSE(eh_solve(nan, sb), 0.0, tol, "solve with NaN");
        CLOSE(eh_det(nan), 0.0, tol, "det with NaN");
        eh_release(a);
        eh_release(a1);
        eh_release(bv);
        eh_release(bm);
        eh_release(b1);
        eh_release(z);
        eh_release(zb);
        eh_release(sing);
        eh_release(sb);
        eh_release(nan);
    }
}

static void test_cholesky_vs_ref(void **state)
{
    (void)state;
    NEED_BLAS();
    for (int d = 1; d <= 2; d++) {
        eh_dtype dt = all_dtypes[d];
        double tol = dec_tol(dt);
        eh_tensor *a = mk_spd(dt, 3, SHAPE(3, 5, 5), 1);
        eh_tensor *big = mk_spd(dt, 2, SHAPE(150, 150), 2);
        CLOSE(eh_cholesky(a), tol, tol, "cholesky");
        CLOSE(eh_cholesky(big), tol * 10, tol, "cholesky 150");
        /* only the lower triangle is read: garbage above changes nothing */
        eh_tensor *up = eh_copy(a);
        if (dt == EH_F64)
            eh_data_f64(up)[1] = 1e300;
        else
            eh_data_f32(up)[1] = NAN;
        CLOSE(eh_cholesky(up), tol, tol, "cholesky ignores the upper triangle");
        /* not positive definite: same code and message (the same order) */
        eh_tensor *np = t_from(dt, 3, SHAPE(2, 3, 3),
                               (const double[]){4, 0, 0, 0, 4, 0, 0, 0, 4, 1, 0, 0, 2, 1, 0, 0, 0, 1});
        SAME(eh_cholesky(np), "cholesky not PD in matrix 1, minor 2");
        eh_tensor *nanp = t_from(dt, 2, SHAPE(3, 3), (const double[]){4, 0, 0, NAN, 4, 0, 0, 0, 4});
        SAME(eh_cholesky(nanp), "cholesky with a NaN below the diagonal");
        eh_tensor *neg = t_from(dt, 2, SHAPE(1, 1), (const double[]){-1});
        SAME(eh_cholesky(neg), "cholesky negative");
        eh_release(a);
        eh_release(big);
        eh_release(up);
        eh_release(np);
        eh_release(nanp);
        eh_release(neg);
    }
}

/* Compare two multi-output results element by element. */
static void close_pair(eh_tensor *r, eh_tensor *b, double tol, const char *what)
{
    close_values(r, EH_OK, b, EH_OK, tol, tol, what);
}

static void test_qr_vs_ref(void **state)
{
    (void)state;
    NEED_BLAS();
    const int64_t shapes[][3] = {{5, 3, 0}, {3, 5, 0}, {2, 4, 4}, {60, 45, 0}, {0, 3, 0}, {3, 0, 0}};
    const int nd[] = {2, 2, 3, 2, 2, 2};
    for (int d = 1; d <= 2; d++)
        for (int s = 0; s < 6; s++) {
            eh_dtype dt = all_dtypes[d];
            eh_tensor *a = mk(dt, nd[s], shapes[s], 1, 0, 30 + (uint64_t)s);
            eh_tensor *qr_, *rr, *qb, *rb;
            assert_int_equal(eh_set_backend("ref"), EH_OK);
            assert_int_equal(eh_qr(a, &qr_, &rr), EH_OK);
            assert_int_equal(eh_set_backend("blas"), EH_OK);
            assert_int_equal(eh_qr(a, &qb, &rb), EH_OK);
            close_pair(qr_, qb, dec_tol(dt) * 10, "qr q");
            close_pair(rr, rb, dec_tol(dt) * 10, "qr r");
            eh_release(a);
        }
}

/* svd: s, and the vectors with their sign convention; with full_matrices
 * only the first k columns of u / rows of vt are unique (tall / wide). */
static void test_svd_vs_ref(void **state)
{
    (void)state;
    NEED_BLAS();
    const int64_t shapes[][3] = {{5, 3, 0}, {3, 5, 0}, {2, 4, 4}, {50, 40, 0}, {0, 3, 0}, {3, 0, 0}};
    const int nd[] = {2, 2, 3, 2, 2, 2};
    for (int d = 1; d <= 2; d++)
        for (int s = 0; s < 6; s++)
            for (int full = 0; full < 2; full++) {
                eh_dtype dt = all_dtypes[d];
                double tol = dec_tol(dt) * 10;
                eh_tensor *a = mk(dt, nd[s], shapes[s], 1, 0, 40 + (uint64_t)s);
                eh_tensor *ur, *sr, *vr, *ub, *sb, *vb;
                assert_int_equal(eh_set_backend("ref"), EH_OK);
                assert_int_equal(eh_svd(a, full, &ur, &sr, &vr), EH_OK);
                assert_int_equal(eh_set_backend("blas"), EH_OK);
                assert_int_equal(eh_svd(a, full, &ub, &sb, &vb), EH_OK);
                close_pair(sr, sb, tol, "svd s");
                int64_t m = shapes[s][nd[s] - 2], n = shapes[s][nd[s] - 1];
                int64_t k = m < n ? m : n;
                if (!full || m == n || k == 0) {
                    close_pair(ur, ub, tol, "svd u");
                    close_pair(vr, vb, tol, "svd vt");
                } else {
                    /* the unique part: u[:, :k] and vt[:k, :] */
                    int64_t uc = m, vrw = n;
                    for (int64_t i = 0; i < m; i++)
                        for (int64_t j = 0; j < k; j++) {
                            double x = t_at(ur, i * uc + j), y = t_at(ub, i * uc + j);
                            if (fabs(x - y) > tol)
                                fail_msg("svd full u[%lld, %lld]: ref %g blas %g", (long long)i,
                                         (long long)j, x, y);
                        }
                    for (int64_t i = 0; i < k; i++)
                        for (int64_t j = 0; j < n; j++) {
                            double x = t_at(vr, i * n + j), y = t_at(vb, i * n + j);
                            if (fabs(x - y) > tol)
                                fail_msg("svd full vt[%lld, %lld]: ref %g blas %g", (long long)i,
                                         (long long)j, x, y);
                        }
                    (void)vrw;
                    eh_release(ur);
                    eh_release(ub);
                    eh_release(vr);
                    eh_release(vb);
                }
                eh_release(a);
            }
    /* NaN: the same error */
    eh_tensor *bad = t_from(EH_F64, 3, SHAPE(2, 2, 2), (const double[]){1, 2, 3, 4, 1, NAN, 0, 1});
    eh_tensor *u, *sv, *vt;
    assert_int_equal(eh_set_backend("ref"), EH_OK);
    eh_status rs = eh_svd(bad, 0, &u, &sv, &vt);
    snprintf(ref_msg, sizeof ref_msg, "%s", eh_error_message());
    assert_int_equal(eh_set_backend("blas"), EH_OK);
    eh_status bs = eh_svd(bad, 0, &u, &sv, &vt);
    snprintf(blas_msg, sizeof blas_msg, "%s", eh_error_message());
    eh_clear_error();
    assert_int_equal(rs, EH_ERR_LINALG);
    same_failure(rs, bs, "svd with NaN");
    assert_null(u);
    eh_release(bad);
}

static void test_eigh_vs_ref(void **state)
{
    (void)state;
    NEED_BLAS();
    for (int d = 1; d <= 2; d++) {
        eh_dtype dt = all_dtypes[d];
        double tol = dec_tol(dt) * 10;
        const int64_t shapes[][3] = {{4, 4, 0}, {3, 5, 5}, {60, 60, 0}, {0, 0, 0}};
        const int nd[] = {2, 3, 2, 2};
        for (int s = 0; s < 4; s++) {
            /* symmetric with distinct eigenvalues; garbage above the
             * diagonal is ignored (lower triangle only) */
            eh_tensor *a = mk_spd(dt, nd[s], shapes[s], 50 + (uint64_t)s);
            eh_tensor *wr, *vr, *wb, *vb;
            assert_int_equal(eh_set_backend("ref"), EH_OK);
            assert_int_equal(eh_eigh(a, &wr, &vr), EH_OK);
            assert_int_equal(eh_set_backend("blas"), EH_OK);
            assert_int_equal(eh_eigh(a, &wb, &vb), EH_OK);
            close_pair(wr, wb, tol * 100, "eigh w");
            close_pair(vr, vb, tol, "eigh v");
            eh_release(a);
        }
        eh_tensor *bad = t_from(dt, 2, SHAPE(2, 2), (const double[]){1, NAN, INFINITY, 1});
        eh_tensor *w, *v;
        assert_int_equal(eh_set_backend("ref"), EH_OK);
        eh_status rs = eh_eigh(bad, &w, &v);
        snprintf(ref_msg, sizeof ref_msg, "%s", eh_error_message());
        assert_int_equal(eh_set_backend("blas"), EH_OK);
        eh_status bs = eh_eigh(bad, &w, &v);
        snprintf(blas_msg, sizeof blas_msg, "%s", eh_error_message());
        eh_clear_error();
        assert_int_equal(rs, EH_ERR_LINALG);
        same_failure(rs, bs, "eigh with inf below the diagonal");
        /* NaN above the diagonal is never read */
        eh_tensor *ok = t_from(dt, 2, SHAPE(2, 2), (const double[]){2, NAN, 1, 3});
        assert_int_equal(eh_set_backend("ref"), EH_OK);
        assert_int_equal(eh_eigh(ok, &w, &v), EH_OK);
        eh_tensor *w2, *v2;
        assert_int_equal(eh_set_backend("blas"), EH_OK);
        assert_int_equal(eh_eigh(ok, &w2, &v2), EH_OK);
        close_pair(w, w2, tol, "eigh upper NaN w");
        close_pair(v, v2, tol, "eigh upper NaN v");
        eh_release(bad);
        eh_release(ok);
    }
}

static void test_lstsq_vs_ref(void **state)
{
    (void)state;
    NEED_BLAS();
    for (int d = 1; d <= 2; d++) {
        eh_dtype dt = all_dtypes[d];
        double tol = dec_tol(dt) * 10;
        eh_tensor *tall = mk(dt, 2, SHAPE(8, 3), 1, 0, 1), *bt = mk(dt, 1, SHAPE(8), 1, 0, 2);
        eh_tensor *wide = mk(dt, 2, SHAPE(3, 8), 1, 0, 3), *bw = mk(dt, 2, SHAPE(3, 2), 1, 0, 4);
        eh_tensor *batch = mk(dt, 3, SHAPE(4, 6, 5), 1, 0, 5), *bb = mk(dt, 4, SHAPE(2, 1, 6, 3), 1, 0, 6);
        CLOSE(eh_lstsq(tall, bt), tol, tol, "lstsq tall");
        CLOSE(eh_lstsq(wide, bw), tol, tol, "lstsq wide (minimum norm)");
        CLOSE(eh_lstsq(batch, bb), tol, tol, "lstsq broadcast batch");
        /* rank deficient: two equal columns; the minimum-norm solution is unique */
        eh_tensor *rd = t_from(dt, 2, SHAPE(3, 3), (const double[]){1, 1, 2, 3, 3, 1, 4, 4, 0});
        eh_tensor *rb = t_from(dt, 1, SHAPE(3), (const double[]){1, 2, 3});
        CLOSE(eh_lstsq(rd, rb), tol, tol, "lstsq rank deficient");
        eh_tensor *zero = mk(dt, 2, SHAPE(0, 3), 1, 0, 7), *zb = mk(dt, 1, SHAPE(0), 1, 0, 8);
        SAME(eh_lstsq(zero, zb), "lstsq m = 0");
        eh_tensor *nan = t_from(dt, 2, SHAPE(2, 2), (const double[]){1, NAN, 0, 1});
        eh_tensor *b2 = t_from(dt, 1, SHAPE(2), (const double[]){1, 1});
        SAME(eh_lstsq(nan, b2), "lstsq NaN in a");
        eh_release(b2);
        eh_release(tall);
        eh_release(bt);
        eh_release(wide);
        eh_release(bw);
        eh_release(batch);
        eh_release(bb);
        eh_release(rd);
        eh_release(rb);
        eh_release(zero);
        eh_release(zb);
        eh_release(nan);
    }
}

/* ---- signal ------------------------------------------------------------------------- */

/* FFTW and ref both compute in double: f64 results agree to a few ulps of
 * the line's magnitude (|x| <= 1 here, so sum |x| <= n), f32 results to
 * the f32 rounding. */
static double fft_atol(eh_dtype dt, int64_t n)
{
    return dt == EH_F32 ? 4e-7 * (double)n : 1e-14 * (double)n;
}

/* Spectra (trailing (re, im) pairs): a bin counts as NaN when either part
 * is (docs/ops/signal.md: "NaN anywhere in a transformed line makes every
 * bin of that line NaN"; which parts is up to the algorithm).  Other bins
 * within atol.  Releases both. */
static void close_spectra(eh_tensor *r, eh_status rs, eh_tensor *b, eh_status bs, double atol,
                          const char *what)
{
    if (!r || !b) {
        close_values(r, rs, b, bs, atol, 0, what);
        return;
    }
    assert_int_equal(eh_size(r), eh_size(b));
    for (int64_t i = 0; i + 1 < eh_size(r); i += 2) {
        double xr = t_at(r, i), xi = t_at(r, i + 1), yr = t_at(b, i), yi = t_at(b, i + 1);
        int rn = isnan(xr) || isnan(xi), bn = isnan(yr) || isnan(yi);
        /* and ref's real parts are NaN throughout such a line: so are blas's */
        if (rn != bn || isnan(xr) != isnan(yr))
            fail_msg("%s: bin %lld: ref (%g, %g), blas (%g, %g)", what, (long long)i / 2, xr, xi,
                     yr, yi);
        if (!rn && !(fabs(xr - yr) <= atol && fabs(xi - yi) <= atol))
            fail_msg("%s: bin %lld: ref (%.17g, %.17g), blas (%.17g, %.17g)", what,
                     (long long)i / 2, xr, xi, yr, yi);
    }
    eh_release(r);
    eh_release(b);
}

#define CLOSE_SPECTRA(EXPR, atol, what)                                            \
    do {                                                                           \
        eh_tensor *r_, *b_;                                                        \
        eh_status rs_, bs_;                                                        \
        ON_BOTH(EXPR, r_, rs_, b_, bs_);                                           \
        close_spectra(r_, rs_, b_, bs_, atol, what);                               \
    } while (0)

/* FFTW plans are cached per (length, direction): repeating a length plans
 * nothing new, and threads sharing cached plans get the same bits as one
 * thread alone.  (blas's counter of plans made: a test hook.) */
long eh_blas_fft_plans_made(void);

typedef struct {
    eh_tensor *x;
    eh_tensor *want;
    int ok;
} fft_thread_arg;

static void *fft_thread(void *p)
{
    fft_thread_arg *a = p;
    a->ok = 1;
    for (int k = 0; k < 50 && a->ok; k++) {
        eh_tensor *y = eh_rfft(a->x, 0, -1);
        a->ok = y && eh_nbytes(y) == eh_nbytes(a->want) &&
                memcmp(eh_data_const(y), eh_data_const(a->want), eh_nbytes(y)) == 0;
        eh_release(y);
    }
    return NULL;
}

static void test_fft_plans_cached_and_shared(void **state)
{
    (void)state;
    NEED_BLAS();
    assert_int_equal(eh_set_backend("blas"), EH_OK);
    const int64_t lens[3] = {96, 250, 1024};
    eh_tensor *xs[3], *want[3];
    for (int k = 0; k < 3; k++) {
        xs[k] = mk(EH_F64, 2, SHAPE(8, lens[k]), 10, 0, 77 + (uint64_t)k);
        want[k] = eh_rfft(xs[k], 0, -1);
        assert_non_null(want[k]);
    }
    long before = eh_blas_fft_plans_made();
    for (int r = 0; r < 20; r++)
        for (int k = 0; k < 3; k++) {
            eh_tensor *y = eh_rfft(xs[k], 0, -1);
            assert_memory_equal(eh_data(y), eh_data(want[k]), eh_nbytes(y));
            eh_release(y);
        }
    assert_int_equal(eh_blas_fft_plans_made(), before); /* every plan was cached */
    pthread_t th[6];
    fft_thread_arg args[6];
    for (int t = 0; t < 6; t++) {
        args[t] = (fft_thread_arg){xs[t % 3], want[t % 3], 0};
        assert_int_equal(pthread_create(&th[t], NULL, fft_thread, &args[t]), 0);
    }
    for (int t = 0; t < 6; t++) {
        pthread_join(th[t], NULL);
        assert_true(args[t].ok);
    }
    assert_int_equal(eh_blas_fft_plans_made(), before);
    for (int k = 0; k < 3; k++) {
        eh_release(xs[k]);
        eh_release(want[k]);
    }
    eh_set_backend("ref");
}

static void test_rfft_irfft_vs_ref(void **state)
{
    (void)state;
    NEED_BLAS();
    char what[160];
    const int64_t lens[] = {1, 2, 5, 8, 67, 256, 1000};
    for (int d = 0; d < N_DTYPES; d++) {
        eh_dtype dt = all_dtypes[d];
        eh_dtype od = dt == EH_F64 || !eh_dtype_is_float(dt) ? EH_F64 : EH_F32;
        for (int l = 0; l < 7; l++) {
            int64_t n = lens[l];
            eh_tensor *x = mk(dt, 2, SHAPE(3, n), 1, 0, 70 + (uint64_t)l);
            eh_tensor *xt = mk(dt, 3, SHAPE(n, 2, 3), 1, 0, 80 + (uint64_t)l);
            snprintf(what, sizeof what, "rfft %s n %lld", eh_dtype_name(dt), (long long)n);
            CLOSE(eh_rfft(x, 0, -1), fft_atol(od, n), 0, what);
            CLOSE(eh_rfft(x, n + 3, -1), fft_atol(od, n + 3), 0, what); /* zero-padded */
            CLOSE(eh_rfft(x, n > 1 ? n - 1 : 1, 1), fft_atol(od, n), 0, what); /* cropped */
            CLOSE(eh_rfft(xt, 0, 0), fft_atol(od, n), 0, what);            /* strided lanes */
            assert_int_equal(eh_set_backend("ref"), EH_OK);
            eh_tensor *X = eh_rfft(x, 0, -1), *Xt = eh_rfft(xt, 0, 0);
            snprintf(what, sizeof what, "irfft %s n %lld", eh_dtype_name(dt), (long long)n);
            CLOSE(eh_irfft(X, n, -1), fft_atol(od, n), 0, what);
            CLOSE(eh_irfft(X, 2 * n, -1), fft_atol(od, 2 * n), 0, what); /* bins beyond m: 0 */
            CLOSE(eh_irfft(X, 1, -1), fft_atol(od, n), 0, what);
            CLOSE(eh_irfft(Xt, 0, 0), fft_atol(od, n), 0, what);
            eh_release(X);
            eh_release(Xt);
            eh_release(x);
            eh_release(xt);
        }
    }
    /* many lanes: threaded */
    eh_tensor *big = mk(EH_F64, 2, SHAPE(2000, 100), 1, 0, 99);
    CLOSE(eh_rfft(big, 0, -1), fft_atol(EH_F64, 100), 0, "rfft 2000 lanes");
    CLOSE(eh_rfft(big, 0, 0), fft_atol(EH_F64, 2000), 0, "rfft 100 strided lanes of 2000");
    eh_release(big);
    /* NaN: every bin of that line (and only that line) NaN, as ref */
    eh_tensor *nx = t_from(EH_F64, 2, SHAPE(2, 4), (const double[]){0, NAN, 0, 0, 1, 2, 3, 4});
    CLOSE_SPECTRA(eh_rfft(nx, 0, -1), 1e-14, "rfft NaN line");
    eh_tensor *ns = t_from(EH_F64, 2, SHAPE(3, 2), (const double[]){1, 0, NAN, 0, 0, 0});
    CLOSE(eh_irfft(ns, 4, -1), 1e-14, 0, "irfft NaN bin");
    /* the imaginary parts of bins 0 and n/2 are ignored, even NaN */
    eh_tensor *ni = t_from(EH_F64, 2, SHAPE(3, 2), (const double[]){1, NAN, 2, 0, 3, NAN});
    CLOSE(eh_irfft(ni, 4, -1), 1e-14, 0, "irfft ignored imaginary NaN");
    eh_release(nx);
    eh_release(ns);
    eh_release(ni);
}

static void test_stft_vs_ref(void **state)
{
    (void)state;
    NEED_BLAS();
    char what[160];
    for (int d = 1; d <= 2; d++) {
        eh_dtype dt = all_dtypes[d];
        eh_tensor *x = mk(dt, 2, SHAPE(2, 5000), 1, 0, 1);
        eh_tensor *x1 = mk(dt, 1, SHAPE(1), 1, 0, 2);
        const int64_t nffts[] = {1, 7, 64, 400};
        for (int f = 0; f < 4; f++) {
            int64_t n_fft = nffts[f];
            assert_int_equal(eh_set_backend("ref"), EH_OK);
            eh_tensor *w = eh_hann_window(n_fft, 1, dt);
            for (int center = 0; center < 2; center++) {
                snprintf(what, sizeof what, "stft %s n_fft %lld center %d", eh_dtype_name(dt),
                         (long long)n_fft, center);
                CLOSE(eh_stft(x, n_fft, n_fft / 4 + 1, w, center), fft_atol(dt, n_fft), 0, what);
                if (center)
                    CLOSE(eh_stft(x1, n_fft, 3, w, 1), fft_atol(dt, n_fft), 0, what);
            }
            eh_release(w);
        }
        /* inf times a zero window tap is NaN: that whole frame NaN, as ref
         * (infinities elsewhere have no defined answer, docs/ops/signal.md) */
        assert_int_equal(eh_set_backend("ref"), EH_OK);
        eh_tensor *xi = eh_copy(x);
        if (dt == EH_F64)
            eh_data_f64(xi)[128] = INFINITY;
        else
            eh_data_f32(xi)[128] = INFINITY;
        eh_tensor *w = eh_hann_window(64, 0, dt);
        CLOSE_SPECTRA(eh_stft(xi, 64, 64, w, 0), fft_atol(dt, 64), "stft with inf on a zero tap");
        eh_release(w);
        eh_release(xi);
        eh_release(x);
        eh_release(x1);
    }
}

/* ---- random ------------------------------------------------------------------------- */

/* The same seed gives ref's bits, whatever the thread split. */
static void test_random_vs_ref(void **state)
{
    (void)state;
    NEED_BLAS();
    char what[160];
    const int64_t sizes[] = {0, 1, 37, 300007};
    const eh_dtype fdts[] = {EH_F16, EH_F32, EH_F64};
    for (int z = 0; z < 4; z++) {
        const int64_t *sh = &sizes[z];
        int nd = z == 1 ? 0 : 1;
        for (int f = 0; f < 3; f++) {
            snprintf(what, sizeof what, "random float ops %s size %lld", eh_dtype_name(fdts[f]),
                     (long long)sizes[z]);
            SAME((eh_seed(11), eh_random_uniform(nd, sh, -3, 5, fdts[f])), what);
            SAME((eh_seed(12), eh_random_normal(nd, sh, 1, 2, fdts[f])), what);
            SAME((eh_seed(13), eh_random_exponential(nd, sh, 2, fdts[f])), what);
            SAME((eh_seed(14), eh_random_gamma(nd, sh, 0.5, 2, fdts[f])), what);
            SAME((eh_seed(15), eh_random_gamma(nd, sh, 7.5, 1, fdts[f])), what);
        }
        snprintf(what, sizeof what, "random discrete ops size %lld", (long long)sizes[z]);
        SAME((eh_seed(16), eh_random_bernoulli(nd, sh, 0.3)), what);
        SAME((eh_seed(17), eh_random_poisson(nd, sh, 3.5)), what);
        SAME((eh_seed(18), eh_random_poisson(nd, sh, 1e4)), what);
        SAME((eh_seed(19), eh_random_binomial(nd, sh, 40, 0.3)), what);
        SAME((eh_seed(20), eh_random_binomial(nd, sh, 100000, 0.6)), what);
        SAME((eh_seed(21), eh_random_randint(nd, sh, -5, 1000, EH_I32)), what);
        SAME((eh_seed(22), eh_random_randint(nd, sh, INT64_MIN, INT64_MAX, EH_I64)), what);
        SAME((eh_seed(23), eh_random_permutation(sizes[z])), what);
    }
    /* the call number advances the same way: a second call after one seed */
    SAME((eh_seed(5), eh_release(eh_random_uniform(1, SHAPE(10), 0, 1, EH_F32)),
          eh_random_uniform(1, SHAPE(100000), 0, 1, EH_F32)), "second call");
    /* categorical: many rows, threaded; a bad row is ref's error, message
     * and all, whatever chunk meets it */
    eh_tensor *logits = mk(EH_F64, 2, SHAPE(3000, 20), 5, 0, 1);
    SAME((eh_seed(24), eh_random_categorical(logits, 40)), "categorical");
    double *lp = eh_data_f64(logits);
    lp[2900 * 20 + 3] = NAN;
    lp[1500 * 20 + 7] = INFINITY;
    SAME((eh_seed(25), eh_random_categorical(logits, 40)), "categorical with bad rows");
    eh_release(logits);
}

/* ---- thread-count invariance ------------------------------------------------------ */

/* FNV-1a over a tensor's bytes. */
static uint64_t fnv(uint64_t h, const eh_tensor *t)
{
    const unsigned char *p = eh_data((eh_tensor *)t);
    for (size_t i = 0; i < eh_nbytes(t); i++) {
        h ^= p[i];
        h *= 1099511628211ull;
    }
    return h;
}

/* The dump mode: compute a fixed set of large results on blas and print
 * one hash.  Run by test_thread_count_invariance in child processes. */
static int dump_hash(void)
{
    if (eh_set_backend("blas") != EH_OK)
        return 2;
    uint64_t h = 14695981039346656037ull;
    eh_tensor *a = mk(EH_F32, 2, SHAPE(1001, 1003), 10, 13, 1);
    eh_tensor *b = mk(EH_F32, 1, SHAPE(1003), 10, 0, 2);
    /* elementwise and random: ref's bits; reductions: chunking fixed by
     * the shape, so also independent of the thread count */
    eh_seed(3);
    int64_t big = 2000003;
    int ax0 = 0, ax1 = 1;
    eh_tensor *ts[] = {eh_add(a, b), eh_exp(a), eh_divide(a, b), eh_maximum(a, b),
                       eh_greater(a, b), eh_cast(a, EH_F16), eh_tanh(a),
                       eh_random_normal(1, &big, 0, 1, EH_F32), eh_random_gamma(1, &big, 2, 1, EH_F64),
                       eh_sum(a, NULL, 0, 0), eh_sum(a, &ax0, 1, 0), eh_sum(a, &ax1, 1, 0),
                       eh_var(a, &ax0, 1, 0, 0), eh_argmax(a, 0, 0), eh_softmax(a, 1),
                       eh_logsumexp(a, NULL, 0, 0), eh_rfft(a, 0, 0)};
    for (int k = 0; k < (int)(sizeof ts / sizeof ts[0]); k++) {
        if (!ts[k])
            return 3;
        h = fnv(h, ts[k]);
        eh_release(ts[k]);
    }
    eh_release(a);
    eh_release(b);
    printf("%016llx\n", (unsigned long long)h);
    return 0;
}

/* The LU-verdict dump mode: for rank-deficient integer matrices (X Y, X
 * n x r, Y r x n, entries -4..4, orders 2 to 9; singular in exact
 * arithmetic, so whether a pivot comes out exactly 0 is up to rounding),
 * one character each for blas's solve, inv and det: 's' singular
 * (EH_ERR_LINALG, det 0), 'r' regular.  Printed as one line; run by
 * test_lu_verdict_thread_count in child processes. */
static int dump_lu_verdicts(void)
{
    if (eh_set_backend("blas") != EH_OK)
        return 2;
    uint64_t s = 0x2545F4914F6CDD1Dull;
    for (int m = 0; m < 400; m++) {
        int64_t n = 2 + m % 8, r = 1 + (int64_t)(m / 8) % (n - 1);
        double X[81], Y[81], A[81], ones[9];
        for (int64_t i = 0; i < n * r; i++) {
            s = s * 6364136223846793005ull + 1442695040888963407ull;
            X[i] = (double)((int)(s >> 33) % 9 - 4);
            s = s * 6364136223846793005ull + 1442695040888963407ull;
            Y[i] = (double)((int)(s >> 33) % 9 - 4);
        }
        for (int64_t i = 0; i < n; i++) {
            ones[i] = 1.0;
            for (int64_t j = 0; j < n; j++) {
                double acc = 0.0;
                for (int64_t t = 0; t < r; t++)
                    acc += X[i * r + t] * Y[t * n + j];
                A[i * n + j] = m % 3 == 0 ? acc * 0.1 : acc;
            }
        }
        eh_tensor *a = eh_convert_to_tensor(A, 2, SHAPE(n, n), EH_F64);
        eh_tensor *b = eh_convert_to_tensor(ones, 1, SHAPE(n), EH_F64);
        eh_tensor *x = eh_solve(a, b), *inv = eh_inv(a), *det = eh_det(a);
        if (!det)
            return 3;
        printf("%c%c%c ", x ? 'r' : 's', inv ? 'r' : 's', eh_item(det) == 0.0 ? 's' : 'r');
        eh_clear_error();
        eh_release(x);
        eh_release(inv);
        eh_release(det);
        eh_release(a);
        eh_release(b);
    }
    printf("\n");
    return 0;
}

static const char *self_path;

/* Run this binary with EH_NUM_THREADS=threads in dump mode `mode` ("1":
 * the hash, "lu": the LU verdicts); what it printed. */
static int child_dump(const char *mode, const char *threads, char *out, size_t cap)
{
    int fd[2];
    if (pipe(fd) != 0)
        return -1;
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        close(fd[0]);
        dup2(fd[1], 1);
        setenv("EH_NUM_THREADS", threads, 1);
        setenv("EH_BLAS_TEST_DUMP", mode, 1);
        execl(self_path, self_path, (char *)NULL);
        _exit(127);
    }
    close(fd[1]);
    size_t len = 0;
    ssize_t r;
    while (len + 1 < cap && (r = read(fd[0], out + len, cap - 1 - len)) > 0)
        len += (size_t)r;
    out[len] = '\0';
    close(fd[0]);
    int status;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void test_thread_count_invariance(void **state)
{
    (void)state;
    NEED_BLAS();
    char h1[64], h2[64], h3[64];
    assert_int_equal(child_dump("1", "1", h1, sizeof h1), 0);
    assert_int_equal(child_dump("1", "2", h2, sizeof h2), 0);
    assert_int_equal(child_dump("1", "3", h3, sizeof h3), 0);
    assert_true(strlen(h1) == 17);
    assert_string_equal(h1, h2);
    assert_string_equal(h1, h3);
}

/* Whether blas calls a matrix that is singular only up to rounding
 * singular is rounding, but it must be one answer: the same for solve,
 * inv and det (one LU), whatever EH_NUM_THREADS is.  OpenBLAS's dgesv
 * factors with its threaded getrf whenever it has more than one thread,
 * however small the matrix, where dgetrf (inv, det) stays on the
 * sequential getf2 below 100 x 100: solve used dgesv and, with 2 threads,
 * called 6 x 6 matrices regular that inv and det (and 1 thread) call
 * singular. */
static void test_lu_verdict_thread_count(void **state)
{
    (void)state;
    NEED_BLAS();
    static char v[3][2048];
    const char *threads[3] = {"1", "2", "3"};
    for (int k = 0; k < 3; k++) {
        assert_int_equal(child_dump("lu", threads[k], v[k], sizeof v[k]), 0);
        assert_true(strlen(v[k]) == 400 * 4 + 1);
        for (int m = 0; m < 400; m++) {
            const char *t = v[k] + 4 * m;
            if (t[0] != t[1] || t[1] != t[2])
                fail_msg("EH_NUM_THREADS=%s, matrix %d (order %d): solve/inv/det verdicts %.3s", threads[k], m,
                         2 + m % 8, t);
        }
    }
    assert_string_equal(v[0], v[1]);
    assert_string_equal(v[0], v[2]);
    int singular = 0;
    for (int m = 0; m < 400; m++)
        singular += v[0][4 * m] == 's';
    assert_true(singular > 0 && singular < 400);
}

int main(int argc, char **argv)
{
    (void)argc;
    self_path = argv[0];
    const char *dump = getenv("EH_BLAS_TEST_DUMP");
    if (dump)
        return strcmp(dump, "lu") == 0 ? dump_lu_verdicts() : dump_hash();
    const struct CMUnitTest tests[] = {
        EH_TEST(test_f16_conversions_match_library),
        EH_TEST(test_unary_all_ops_all_dtypes),
        EH_TEST(test_binary_all_ops),
        EH_TEST(test_binary_large_threaded),
        EH_TEST(test_where_clip),
        EH_TEST(test_cast_all_pairs),
        EH_TEST(test_reductions_vs_ref),
        EH_TEST(test_extremes_ties),
        EH_TEST(test_sum_cancellation),
        EH_TEST(test_scans_vs_ref),
        EH_TEST(test_softmax_vs_ref),
        EH_TEST(test_norms_vs_ref),
        EH_TEST(test_allclose_vs_ref),
        EH_TEST(test_matmul_dot_vs_ref),
        EH_TEST(test_outer_vs_ref),
        EH_TEST(test_solve_inv_det_vs_ref),
        EH_TEST(test_cholesky_vs_ref),
        EH_TEST(test_qr_vs_ref),
        EH_TEST(test_svd_vs_ref),
        EH_TEST(test_eigh_vs_ref),
        EH_TEST(test_lstsq_vs_ref),
        EH_TEST(test_rfft_irfft_vs_ref),
        EH_TEST(test_fft_plans_cached_and_shared),
        EH_TEST(test_stft_vs_ref),
        EH_TEST(test_random_vs_ref),
        EH_TEST(test_thread_count_invariance),
        EH_TEST(test_lu_verdict_thread_count),
    };
    return EH_RUN_TESTS(tests);
}
