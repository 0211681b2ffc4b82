/* Cross-backend conformance of values: reductions, linear algebra and
 * signal ops (the kinds CF_KINDS_NUMERIC; docs/conformance.md).  The other
 * kinds, and the check that every op of ops.def has an entry in one of the
 * two tables, are in test_conformance.c.
 *
 * Each entry of `drivers` builds the op's cases -- random inputs from a
 * fixed generator, every dtype (rejected dtypes must be rejected with the
 * same code everywhere), broadcasting, empty and 0-d shapes, sizes where a
 * threaded or BLAS backend takes over -- and cf_check() runs each on every
 * backend and compares with ref within the op's tolerance
 * (tests/conformance/tolerances.def), scaled by the case's magnitude.
 *
 * Where expected values come from: ref's result on the same inputs.  The
 * decompositions' parts that are not unique (docs/ops/linalg.md) are
 * checked through their defining properties instead (Q^T Q = I, Q R = A,
 * U diag(s) Vt = A, A v = w v, orthonormal vectors), computed here in
 * double on every backend's results, ref's included.
 *
 * This binary iterates the backends itself and ignores EH_TEST_BACKEND. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "conformance.h"

#define DN(d) eh_dtype_name(d)

/* Large enough for a threaded backend to split the work. */
#define BIG 131072

/* ================================================================ reductions */

/* Group length of a reduction of shape s over axes a (all when a.n == 0). */
static int64_t group_len(cf_shape s, cf_axes a)
{
    if (a.n == 0)
        return cf_shape_size(s);
    int64_t n = 1;
    for (int k = 0; k < a.n; k++)
        n *= s.d[a.a[k] < 0 ? a.a[k] + s.nd : a.a[k]];
    return n;
}

static eh_status run_reduce(const cf_case *c, eh_tensor **out, int *n)
{
    const eh_tensor *x = c->in[0];
    const int *ax = cf_axes_of(c);
    int na = c->n_axes, kd = (int)c->i[0];
    const char *op = c->op;
    if (!strcmp(op, "sum"))
        return cf_one(eh_sum(x, ax, na, kd), out, n);
    if (!strcmp(op, "mean"))
        return cf_one(eh_mean(x, ax, na, kd), out, n);
    if (!strcmp(op, "prod"))
        return cf_one(eh_prod(x, ax, na, kd), out, n);
    if (!strcmp(op, "max"))
        return cf_one(eh_max(x, ax, na, kd), out, n);
    if (!strcmp(op, "min"))
        return cf_one(eh_min(x, ax, na, kd), out, n);
    if (!strcmp(op, "logsumexp"))
        return cf_one(eh_logsumexp(x, ax, na, kd), out, n);
    if (!strcmp(op, "var"))
        return cf_one(eh_var(x, ax, na, c->i[1], kd), out, n);
    if (!strcmp(op, "std"))
        return cf_one(eh_std(x, ax, na, c->i[1], kd), out, n);
    if (!strcmp(op, "norm"))
        return cf_one(eh_norm(x, (eh_norm_ord)c->i[2], ax, na, kd), out, n);
    fail_msg("run_reduce: %s", op);
    return EH_ERR_INTERNAL;
}

/* The case's scale for a reduction over n elements of magnitude <= m. */
static double reduce_scale(const char *op, int64_t n, double m)
{
    if (!strcmp(op, "sum") || !strcmp(op, "cumsum") || !strcmp(op, "norm"))
        return (double)(n > 0 ? n : 1) * m;
    if (!strcmp(op, "mean") || !strcmp(op, "std"))
        return m;
    if (!strcmp(op, "var"))
        return m * m;
    if (!strcmp(op, "logsumexp"))
        return 1.0 + m;
    if (!strcmp(op, "log_softmax"))
        return 1.0 + 2.0 * m;
    return 1.0;
}

static void reduce_case(const char *op, eh_dtype dt, cf_shape s, cf_axes a, int keepdims,
                        int64_t ddof, int ord, cf_values v)
{
    cf_case c;
    CF_CASE(c, op, "%s %s %s axes %s keepdims %d ddof %lld ord %d values %d", op, DN(dt),
            cf_shape_str(s), cf_axes_str(a), keepdims, (long long)ddof, ord, (int)v);
    c.run = run_reduce;
    cf_set_axes(&c, a);
    c.i[0] = keepdims;
    c.i[1] = ddof;
    c.i[2] = ord;
    c.allow_error = 1; /* empty max/min, norms that need elements */
    cf_add_rnd(&c, dt, s, v);
    c.scale = reduce_scale(op, group_len(s, a), cf_max_abs(c.in[0]));
    cf_check(&c);
}

static void drive_reduce(const char *op)
{
    const cf_shape red_shapes[] = {CF_SH(4, 5),    CF_SH(4, 5), CF_SH(4, 5), CF_SH(2, 3, 4),
                                   CF_SH(2, 3, 4), CF_SH0,      CF_SH(0, 3), CF_SH(0, 3),
                                   CF_SH(3, 0),    CF_SH(4, 5)};
    const cf_axes red_axes[] = {CF_AX0, CF_AX(0), CF_AX(-1), CF_AX(0, 2), CF_AX(1),
                                CF_AX0, CF_AX(0), CF_AX(1),  CF_AX0,      CF_AX(1, 0)};
    const int N_RED = (int)(sizeof red_shapes / sizeof red_shapes[0]);
    int is_var = !strcmp(op, "var") || !strcmp(op, "std");
    for (int d = 0; d < 6; d++)
        for (int k = 0; k < N_RED; k++) {
            reduce_case(op, cf_dtypes[d], red_shapes[k], red_axes[k], k == 2 || k == 4,
                        is_var ? k % 2 : 0, 0, CF_V_DEFAULT);
            if (k == 1 || k == 3)
                reduce_case(op, cf_dtypes[d], red_shapes[k], red_axes[k], 0, is_var ? 5 : 0, 0,
                            CF_V_SPECIAL);
        }
    /* large: values that every summation order adds exactly (so the
     * tolerance is not what passes them), reduced whole and by lanes; only
     * for ops whose result is then exact or one rounding away (var, std,
     * logsumexp are not: their tolerances are for groups of <= 64) */
    if (is_var || !strcmp(op, "logsumexp"))
        return;
    const eh_dtype big[] = {EH_F32, EH_F64, EH_I32, EH_F16};
    int is_prod = !strcmp(op, "prod");
    for (int d = 0; d < 4; d++) {
        cf_values v = is_prod ? CF_V_UNIT : CF_V_SMALLINT;
        if (is_prod && big[d] != EH_I32)
            continue; /* a product of 2^17 floats is 0 or inf */
        reduce_case(op, big[d], CF_SH(BIG), CF_AX0, 0, 0, 0, v);
        reduce_case(op, big[d], CF_SH(256, 512), CF_AX(0), 0, 0, 0, v);
        reduce_case(op, big[d], CF_SH(256, 512), CF_AX(1), 1, 1, 0, v);
    }
}

static void drive_norm(const char *op)
{
    /* vector ords on one axis; every ord on two axes and on whole 1-D/2-D */
    for (int d = 0; d < 6; d++) {
        for (int ord = EH_NORM_2; ord <= EH_NORM_NUC; ord++) {
            reduce_case(op, cf_dtypes[d], CF_SH(4, 5), CF_AX(1), 0, 0, ord, CF_V_DEFAULT);
            reduce_case(op, cf_dtypes[d], CF_SH(2, 4, 5), CF_AX(-1, 1), ord == EH_NORM_1, 0, ord,
                        CF_V_DEFAULT);
            reduce_case(op, cf_dtypes[d], CF_SH(6), CF_AX0, 0, 0, ord, CF_V_SPECIAL);
            reduce_case(op, cf_dtypes[d], CF_SH(3, 4), CF_AX0, 1, 0, ord, CF_V_DEFAULT);
            reduce_case(op, cf_dtypes[d], CF_SH(0, 4), CF_AX0, 0, 0, ord, CF_V_DEFAULT);
        }
        reduce_case(op, cf_dtypes[d], CF_SH(2, 3, 4), CF_AX0, 0, 0, EH_NORM_FRO, CF_V_DEFAULT);
        reduce_case(op, cf_dtypes[d], CF_SH0, CF_AX0, 0, 0, EH_NORM_FRO, CF_V_DEFAULT);
    }
    reduce_case(op, EH_F64, CF_SH(3), CF_AX0, 0, 0, 99, CF_V_DEFAULT); /* bad ord */
    reduce_case(op, EH_F32, CF_SH(BIG), CF_AX0, 0, 0, EH_NORM_2, CF_V_SMALLINT);
    reduce_case(op, EH_F64, CF_SH(64, 48), CF_AX0, 0, 0, EH_NORM_2, CF_V_DEFAULT);
}

static eh_status run_axis_op(const cf_case *c, eh_tensor **out, int *n)
{
    const eh_tensor *x = c->in[0];
    int axis = (int)c->i[0], kd = (int)c->i[1], flat = (int)c->i[2];
    const char *op = c->op;
    if (!strcmp(op, "argmax"))
        return cf_one(flat ? eh_argmax_flat(x, kd) : eh_argmax(x, axis, kd), out, n);
    if (!strcmp(op, "argmin"))
        return cf_one(flat ? eh_argmin_flat(x, kd) : eh_argmin(x, axis, kd), out, n);
    if (!strcmp(op, "cumsum"))
        return cf_one(flat ? eh_cumsum_flat(x) : eh_cumsum(x, axis), out, n);
    if (!strcmp(op, "cumprod"))
        return cf_one(flat ? eh_cumprod_flat(x) : eh_cumprod(x, axis), out, n);
    if (!strcmp(op, "softmax"))
        return cf_one(flat ? eh_softmax_flat(x) : eh_softmax(x, axis), out, n);
    if (!strcmp(op, "log_softmax"))
        return cf_one(flat ? eh_log_softmax_flat(x) : eh_log_softmax(x, axis), out, n);
    fail_msg("run_axis_op: %s", op);
    return EH_ERR_INTERNAL;
}

static void axis_case(const char *op, eh_dtype dt, cf_shape s, int axis, int keepdims, int flat,
                      cf_values v)
{
    cf_case c;
    CF_CASE(c, op, "%s %s %s axis %d keepdims %d flat %d values %d", op, DN(dt), cf_shape_str(s),
            axis, keepdims, flat, (int)v);
    c.run = run_axis_op;
    c.i[0] = axis;
    c.i[1] = keepdims;
    c.i[2] = flat;
    c.allow_error = 1; /* arg* of an empty axis */
    cf_add_rnd(&c, dt, s, v);
    int64_t n = flat || s.nd == 0 ? cf_shape_size(s) : s.d[axis < 0 ? axis + s.nd : axis];
    c.scale = reduce_scale(op, n, cf_max_abs(c.in[0]));
    cf_check(&c);
}

static void drive_axis_op(const char *op)
{
    int is_prod = !strcmp(op, "cumprod");
    for (int d = 0; d < 6; d++) {
        cf_values v = is_prod ? CF_V_UNIT : CF_V_DEFAULT;
        axis_case(op, cf_dtypes[d], CF_SH(4, 5), 0, 0, 0, v);
        axis_case(op, cf_dtypes[d], CF_SH(4, 5), -1, 1, 0, CF_V_SPECIAL);
        axis_case(op, cf_dtypes[d], CF_SH(2, 3, 4), 1, 0, 0, v);
        axis_case(op, cf_dtypes[d], CF_SH(2, 3, 4), 0, 1, 1, v);
        axis_case(op, cf_dtypes[d], CF_SH(3, 4), 0, 0, 1, CF_V_SPECIAL);
        axis_case(op, cf_dtypes[d], CF_SH0, 0, 0, 1, v);
        axis_case(op, cf_dtypes[d], CF_SH0, 0, 0, 0, v); /* axis of a 0-d tensor: EH_ERR_AXIS */
        axis_case(op, cf_dtypes[d], CF_SH(0, 3), 0, 0, 0, v);
        axis_case(op, cf_dtypes[d], CF_SH(0, 3), 1, 0, 0, v);
        axis_case(op, cf_dtypes[d], CF_SH(70), 0, 0, 0, v);
    }
    if (!strcmp(op, "softmax") || !strcmp(op, "log_softmax"))
        return; /* no large case: their tolerance is for groups of <= 64 */
    const eh_dtype big[] = {EH_F32, EH_F64, EH_I64};
    for (int d = 0; d < 3; d++) {
        cf_values v = is_prod ? CF_V_UNIT : CF_V_SMALLINT;
        if (is_prod && big[d] != EH_I64)
            continue;
        axis_case(op, big[d], CF_SH(BIG), 0, 0, 0, v);
        axis_case(op, big[d], CF_SH(256, 512), 0, 0, 0, v);
        axis_case(op, big[d], CF_SH(256, 512), 1, 0, 0, v);
    }
}

static eh_status run_allclose(const cf_case *c, eh_tensor **out, int *n)
{
    return cf_one(eh_allclose(c->in[0], c->in[1], c->f[0], c->f[1], (int)c->i[0]), out, n);
}

static void drive_allclose(const char *op)
{
    const cf_shape pairs[][2] = {{CF_SH(3, 4), CF_SH(3, 4)},
                                 {CF_SH(3, 1), CF_SH(4)},
                                 {CF_SH0, CF_SH(2, 2)},
                                 {CF_SH(0, 3), CF_SH(3)},
                                 {CF_SH(2), CF_SH(3)}};
    const double tols[][2] = {{1e-5, 1e-8}, {0.5, 0.0}, {0.0, 9.0}};
    for (int d = 0; d < 6; d++)
        for (int s = 0; s < 5; s++)
            for (int t = 0; t < 3; t++)
                for (int en = 0; en < 2; en++) {
                    cf_case c;
                    CF_CASE(c, op, "allclose %s %s, %s rtol %g atol %g equal_nan %d",
                            DN(cf_dtypes[d]), cf_shape_str(pairs[s][0]), cf_shape_str(pairs[s][1]),
                            tols[t][0], tols[t][1], en);
                    c.run = run_allclose;
                    c.f[0] = tols[t][0];
                    c.f[1] = tols[t][1];
                    c.i[0] = en;
                    c.allow_error = s == 4;
                    eh_tensor *a =
                        cf_rnd(cf_dtypes[d], pairs[s][0], t == 0 ? CF_V_SPECIAL : CF_V_DEFAULT);
                    cf_case_add(&c, a);
                    if (s == 0) { /* b close to a: a * (1 + ~1e-6) */
                        double v[12];
                        for (int j = 0; j < 12; j++)
                            v[j] = t_at(a, j) * (1.0 + cf_rng_uniform(&cf_in_rng, -2e-6, 2e-6));
                        cf_case_add(&c, cf_tensor(cf_dtypes[d], 2, pairs[s][1].d, v));
                    } else {
                        cf_add_rnd(&c, cf_dtypes[d], pairs[s][1], CF_V_DEFAULT);
                    }
                    cf_check(&c);
                }
    /* equal inputs with NaN: true only with equal_nan */
    for (int en = 0; en < 2; en++) {
        cf_case c;
        CF_CASE(c, op, "allclose f32 equal inputs with NaN, equal_nan %d", en);
        c.run = run_allclose;
        c.f[0] = 1e-5;
        c.f[1] = 1e-8;
        c.i[0] = en;
        const double v[4] = {1.0, NAN, -2.0, INFINITY};
        cf_case_add(&c, cf_tensor(EH_F32, 1, CF_SH(4).d, v));
        cf_case_add(&c, cf_tensor(EH_F32, 1, CF_SH(4).d, v));
        cf_check(&c);
    }
}

/* ================================================================ host matrix helpers */

/* t's elements as doubles (materialized; caller frees). */
static double *host(const eh_tensor *t)
{
    int64_t n = eh_size(t);
    double *x = malloc((size_t)(n > 0 ? n : 1) * sizeof *x);
    assert_non_null(x);
    for (int64_t k = 0; k < n; k++)
        x[k] = t_at(t, k);
    return x;
}

static double dtype_eps(eh_dtype d)
{
    return d == EH_F32 ? 0x1p-23 : d == EH_F16 ? 0x1p-10 : 0x1p-52;
}

/* The last two dims of t, and how many such matrices it holds. */
static void mat_dims(const eh_tensor *t, int64_t *rows, int64_t *cols, int64_t *count)
{
    int nd = eh_ndim(t);
    *rows = eh_shape(t)[nd - 2];
    *cols = eh_shape(t)[nd - 1];
    *count = 1;
    for (int d = 0; d < nd - 2; d++)
        *count *= eh_shape(t)[d];
}

/* max |x_ij - y_ij| where x = A^T A (cols of A orthonormal: A^T A = I). */
static double orth_err(const double *a, int64_t rows, int64_t cols, int by_rows)
{
    double worst = 0;
    int64_t nv = by_rows ? rows : cols, len = by_rows ? cols : rows;
    for (int64_t i = 0; i < nv; i++)
        for (int64_t j = 0; j < nv; j++) {
            double s = 0;
            for (int64_t k = 0; k < len; k++)
                s +=
                    by_rows ? a[i * cols + k] * a[j * cols + k] : a[k * cols + i] * a[k * cols + j];
            double e = fabs(s - (i == j));
            worst = e > worst ? e : worst;
        }
    return worst;
}

static void property(const cf_case *c, const char *backend, const char *what, double err,
                     double tol)
{
    if (!(err <= tol))
        cf_finding(c, backend, "property %s fails: error %.3g > %.3g", what, err, tol);
}

/* ================================================================ linear algebra */

static eh_status run_linalg(const cf_case *c, eh_tensor **out, int *n)
{
    const char *op = c->op;
    const eh_tensor *a = c->in[0], *b = c->in[1];
    if (!strcmp(op, "matmul"))
        return cf_one(eh_matmul(a, b), out, n);
    if (!strcmp(op, "dot"))
        return cf_one(eh_dot(a, b), out, n);
    if (!strcmp(op, "outer"))
        return cf_one(eh_outer(a, b), out, n);
    if (!strcmp(op, "solve"))
        return cf_one(eh_solve(a, b), out, n);
    if (!strcmp(op, "lstsq"))
        return cf_one(eh_lstsq(a, b), out, n);
    if (!strcmp(op, "inv"))
        return cf_one(eh_inv(a), out, n);
    if (!strcmp(op, "det"))
        return cf_one(eh_det(a), out, n);
    if (!strcmp(op, "cholesky"))
        return cf_one(eh_cholesky(a), out, n);
    if (!strcmp(op, "qr"))
        return cf_multi(eh_qr(a, &out[0], &out[1]), out, 2, n);
    if (!strcmp(op, "svd"))
        return cf_multi(eh_svd(a, (int)c->i[0], &out[0], &out[1], &out[2]), out, 3, n);
    if (!strcmp(op, "eigh"))
        return cf_multi(eh_eigh(a, &out[0], &out[1]), out, 2, n);
    fail_msg("run_linalg: %s", op);
    return EH_ERR_INTERNAL;
}

static void product_case(const char *op, eh_dtype da, cf_shape sa, eh_dtype db, cf_shape sb,
                         int64_t k)
{
    cf_case c;
    CF_CASE(c, op, "%s %s %s, %s %s", op, DN(da), cf_shape_str(sa), DN(db), cf_shape_str(sb));
    c.run = run_linalg;
    c.allow_error = da != db;
    cf_add_rnd(&c, da, sa, CF_V_DEFAULT);
    cf_add_rnd(&c, db, sb, CF_V_DEFAULT);
    c.scale = (double)(k > 0 ? k : 1) * cf_max_abs(c.in[0]) * cf_max_abs(c.in[1]);
    cf_check(&c);
}

static void drive_products(const char *op)
{
    struct {
        cf_shape a, b;
        int64_t k;
    } p[16];
    int np = 0;
#define P(sa, sb, kk) (p[np].a = sa, p[np].b = sb, p[np].k = kk, np++)
    if (!strcmp(op, "matmul")) {
        P(CF_SH(3, 4), CF_SH(4, 5), 4);
        P(CF_SH(4), CF_SH(4), 4);
        P(CF_SH(2, 3, 4), CF_SH(4, 2), 4);
        P(CF_SH(2, 1, 3, 4), CF_SH(3, 4, 2), 4);
        P(CF_SH(4), CF_SH(2, 4, 3), 4);
        P(CF_SH(3, 0), CF_SH(0, 2), 0);
        P(CF_SH(0, 3), CF_SH(3, 2), 3);
        P(CF_SH(8, 16), CF_SH(16, 8), 16);
    } else if (!strcmp(op, "dot")) {
        P(CF_SH0, CF_SH(2, 3), 1);
        P(CF_SH(4), CF_SH(4), 4);
        P(CF_SH(3, 4), CF_SH(4, 5), 4);
        P(CF_SH(2, 3, 4), CF_SH(4), 4);
        P(CF_SH(2, 3), CF_SH(4, 3, 5), 3);
        P(CF_SH(0, 3), CF_SH(3), 3);
    } else {
        P(CF_SH(3), CF_SH(4), 1);
        P(CF_SH(2, 2), CF_SH0, 1);
        P(CF_SH(0), CF_SH(3), 1);
        P(CF_SH(5, 1), CF_SH(2, 3), 1);
    }
#undef P
    for (int d = 0; d < 6; d++)
        for (int k = 0; k < np; k++)
            product_case(op, cf_dtypes[d], p[k].a, cf_dtypes[d], p[k].b, p[k].k);
    product_case(op, EH_F32, CF_SH(3, 3), EH_F16, CF_SH(3, 3), 3); /* EH_ERR_DTYPE */
    product_case(op, EH_I32, CF_SH(3), EH_I64, CF_SH(3), 3);
    if (strcmp(op, "outer") != 0) { /* sizes where a BLAS and threads take over */
        product_case(op, EH_F32, CF_SH(64, 96), EH_F32, CF_SH(96, 80), 96);
        product_case(op, EH_F64, CF_SH(64, 96), EH_F64, CF_SH(96, 80), 96);
        product_case(op, EH_F32, CF_SH(200), EH_F32, CF_SH(200), 200);
        product_case(op, EH_F64, CF_SH(4, 100, 3), EH_F64, CF_SH(3), 3);
    } else {
        product_case(op, EH_F32, CF_SH(300), EH_F32, CF_SH(200), 1);
        product_case(op, EH_F64, CF_SH(300), EH_F64, CF_SH(200), 1);
    }
}

/* A batch of n x n matrices: entries in [-1, 1), then kind 1: 2n added to
 * the diagonal (strictly diagonally dominant, condition number < 4);
 * kind 2: B B^T + n I (symmetric positive definite); kind 3: symmetric
 * (eigenvalues well apart with probability ~1); kind 0: as drawn. */
static eh_tensor *matrices(eh_dtype dt, cf_shape s, int kind)
{
    int64_t n = s.d[s.nd - 1], m = s.d[s.nd - 2], total = cf_shape_size(s);
    double *v = malloc((size_t)(total > 0 ? total : 1) * sizeof *v);
    assert_non_null(v);
    for (int64_t k = 0; k < total; k++)
        v[k] = cf_rng_uniform(&cf_in_rng, -1.0, 1.0);
    int64_t per = m * n, count = per ? total / per : 0;
    for (int64_t b = 0; b < count && kind; b++) {
        double *a = v + b * per;
        if (kind == 1)
            for (int64_t i = 0; i < n; i++)
                a[i * n + i] += (a[i * n + i] < 0 ? -2.0 : 2.0) * (double)n;
        if (kind == 2 || kind == 3) {
            double *t = malloc((size_t)per * sizeof *t);
            assert_non_null(t);
            for (int64_t i = 0; i < n; i++)
                for (int64_t j = 0; j < n; j++) {
                    double sum = 0;
                    if (kind == 2) {
                        for (int64_t k = 0; k < n; k++)
                            sum += a[i * n + k] * a[j * n + k];
                        sum += i == j ? (double)n : 0.0;
                    } else {
                        sum = 2.0 * (i >= j ? a[i * n + j] : a[j * n + i]);
                    }
                    t[i * n + j] = sum;
                }
            memcpy(a, t, (size_t)per * sizeof *t);
            free(t);
        }
    }
    eh_tensor *r = cf_tensor(dt, s.nd, s.d, v);
    free(v);
    return r;
}

static void solver_case(const char *op, eh_dtype dt, cf_shape sa, int kind, cf_shape sb, int full)
{
    cf_case c;
    CF_CASE(c, op, "%s %s %s%s%s kind %d full %d", op, DN(dt), cf_shape_str(sa), sb.nd ? ", " : "",
            sb.nd ? cf_shape_str(sb) : "", kind, full);
    c.run = run_linalg;
    c.i[0] = full;
    c.allow_error = 1; /* dtypes other than f32/f64; singular matrices */
    cf_case_add(&c, matrices(dt, sa, kind));
    if (sb.nd)
        cf_add_rnd(&c, dt, sb, CF_V_UNIT);
    cf_check(&c);
}

static void drive_solve(const char *op)
{
    for (int d = 0; d < 6; d++) {
        int is_lstsq = !strcmp(op, "lstsq");
        int kind = is_lstsq ? 0 : 1;
        solver_case(op, cf_dtypes[d], CF_SH(3, 3), kind, CF_SH(3), 0);
        solver_case(op, cf_dtypes[d], CF_SH(4, 4), kind, CF_SH(4, 2), 0);
        solver_case(op, cf_dtypes[d], CF_SH(2, 3, 3), kind, CF_SH(3), 0);
        solver_case(op, cf_dtypes[d], CF_SH(2, 1, 3, 3), kind, CF_SH(3, 3, 2), 0);
        solver_case(op, cf_dtypes[d], CF_SH(0, 0), kind, CF_SH(0), 0);
        if (is_lstsq) {
            solver_case(op, cf_dtypes[d], CF_SH(5, 3), 0, CF_SH(5), 0);
            solver_case(op, cf_dtypes[d], CF_SH(3, 5), 0, CF_SH(3, 2), 0);
            solver_case(op, cf_dtypes[d], CF_SH(2, 6, 4), 0, CF_SH(6), 0);
            solver_case(op, cf_dtypes[d], CF_SH(0, 3), 0, CF_SH(0), 0);
        }
    }
    /* singular: zeros (solve: EH_ERR_LINALG; lstsq: the minimum-norm 0) */
    cf_case c;
    CF_CASE(c, op, "%s f64 zero matrix", op);
    c.run = run_linalg;
    c.allow_error = 1;
    const double z[4] = {0, 0, 0, 0};
    cf_case_add(&c, cf_tensor(EH_F64, 2, CF_SH(2, 2).d, z));
    cf_case_add(&c, cf_tensor(EH_F64, 1, CF_SH(2).d, (const double[]){1, 2}));
    cf_check(&c);
    CF_CASE(c, op, "%s f32 (2, 3) and (3,): b's length does not match", op);
    c.run = run_linalg;
    c.allow_error = 1;
    cf_add_rnd(&c, EH_F32, CF_SH(3, 3), CF_V_UNIT);
    cf_add_rnd(&c, EH_F32, CF_SH(2), CF_V_UNIT);
    cf_check(&c);
}

static void post_qr(const cf_case *c, const char *backend, eh_tensor *const *ref_out,
                    eh_tensor *const *out, int n_out)
{
    (void)ref_out;
    (void)n_out;
    int64_t m, k, count, k2, n, count2;
    mat_dims(out[0], &m, &k, &count);
    mat_dims(out[1], &k2, &n, &count2);
    double *q = host(out[0]), *r = host(out[1]), *a = host(c->in[0]);
    double eps = dtype_eps(eh_get_dtype(out[0]));
    double tol = 16.0 * eps * (double)(m + n + 1) * cf_max_abs(c->in[0]);
    for (int64_t b = 0; b < count && m * k * n != 0; b++) {
        const double *qb = q + b * m * k, *rb = r + b * k * n, *ab = a + b * m * n;
        property(c, backend, "Q^T Q = I", orth_err(qb, m, k, 0), 16.0 * eps * (double)(m + 1));
        double worst = 0;
        for (int64_t i = 0; i < m; i++)
            for (int64_t j = 0; j < n; j++) {
                double s = 0;
                for (int64_t t = 0; t < k; t++)
                    s += qb[i * k + t] * rb[t * n + j];
                worst = fmax(worst, fabs(s - ab[i * n + j]));
            }
        property(c, backend, "Q R = A", worst, tol);
        double below = 0, neg_diag = 0;
        for (int64_t i = 0; i < k; i++)
            for (int64_t j = 0; j < n; j++) {
                if (j < i)
                    below = fmax(below, fabs(rb[i * n + j]));
                if (j == i && rb[i * n + j] < 0)
                    neg_diag = fmax(neg_diag, -rb[i * n + j]);
            }
        property(c, backend, "R upper triangular (exact zeros below)", below, 0.0);
        property(c, backend, "diag(R) >= 0", neg_diag, 0.0);
    }
    free(q);
    free(r);
    free(a);
}

static void post_svd(const cf_case *c, const char *backend, eh_tensor *const *ref_out,
                     eh_tensor *const *out, int n_out)
{
    (void)n_out;
    int64_t m, mu, count, nv, n, count2;
    mat_dims(out[0], &m, &mu, &count);
    mat_dims(out[2], &nv, &n, &count2);
    int64_t k = m < n ? m : n;
    double *u = host(out[0]), *s = host(out[1]), *vt = host(out[2]), *a = host(c->in[0]);
    double *ur = host(ref_out[0]), *vtr = host(ref_out[2]);
    eh_dtype dt = eh_get_dtype(out[0]);
    double eps = dtype_eps(dt);
    double tol = 16.0 * eps * (double)(m + n + 1) * cf_max_abs(c->in[0]);
    const cf_tol *row = cf_tolerance("svd");
    int ci = dt == EH_F32 ? 1 : 2;
    for (int64_t b = 0; b < count && m * n != 0; b++) {
        const double *ub = u + b * m * mu, *sb = s + b * k, *vb = vt + b * nv * n,
                     *ab = a + b * m * n;
        property(c, backend, "U^T U = I", orth_err(ub, m, mu, 0), 16.0 * eps * (double)(m + 1));
        property(c, backend, "Vt Vt^T = I", orth_err(vb, nv, n, 1), 16.0 * eps * (double)(n + 1));
        double worst = 0, order = 0;
        for (int64_t i = 0; i < k; i++) {
            if (sb[i] < 0 || (i && sb[i] > sb[i - 1]))
                order = 1;
        }
        property(c, backend, "s >= 0 and descending", order, 0.0);
        for (int64_t i = 0; i < m; i++)
            for (int64_t j = 0; j < n; j++) {
                double sum = 0;
                for (int64_t t = 0; t < k; t++)
                    sum += ub[i * mu + t] * sb[t] * vb[t * n + j];
                worst = fmax(worst, fabs(sum - ab[i * n + j]));
            }
        property(c, backend, "U[:, :k] diag(s) Vt[:k] = A", worst, tol);
        if (c->i[0] && strcmp(backend, "ref") != 0) {
            /* full matrices: the first k columns of U and rows of Vt are
             * unique (distinct singular values), the rest is not */
            const double *urb = ur + b * m * mu, *vrb = vtr + b * nv * n;
            for (int64_t i = 0; i < m; i++)
                for (int64_t t = 0; t < k; t++) {
                    double w = urb[i * mu + t], g = ub[i * mu + t];
                    if (!(fabs(g - w) <= row->atol[ci] + row->rtol[ci] * fabs(w)))
                        cf_finding(c, backend, "u[%lld][%lld, %lld] is %.17g, ref %.17g",
                                   (long long)b, (long long)i, (long long)t, g, w);
                }
            for (int64_t t = 0; t < k; t++)
                for (int64_t j = 0; j < n; j++) {
                    double w = vrb[t * n + j], g = vb[t * n + j];
                    if (!(fabs(g - w) <= row->atol[ci] + row->rtol[ci] * fabs(w)))
                        cf_finding(c, backend, "vt[%lld][%lld, %lld] is %.17g, ref %.17g",
                                   (long long)b, (long long)t, (long long)j, g, w);
                }
        }
    }
    free(u);
    free(s);
    free(vt);
    free(a);
    free(ur);
    free(vtr);
}

static void post_eigh(const cf_case *c, const char *backend, eh_tensor *const *ref_out,
                      eh_tensor *const *out, int n_out)
{
    (void)ref_out;
    (void)n_out;
    int64_t n, n2, count;
    mat_dims(out[1], &n, &n2, &count);
    double *w = host(out[0]), *v = host(out[1]), *a = host(c->in[0]);
    double eps = dtype_eps(eh_get_dtype(out[1]));
    double tol = 16.0 * eps * (double)(n + 1) * cf_max_abs(c->in[0]);
    for (int64_t b = 0; b < count && n; b++) {
        const double *wb = w + b * n, *vb = v + b * n * n, *ab = a + b * n * n;
        property(c, backend, "V^T V = I", orth_err(vb, n, n, 0), 16.0 * eps * (double)(n + 1));
        double worst = 0, order = 0;
        for (int64_t i = 0; i < n; i++) {
            if (i && wb[i] < wb[i - 1])
                order = 1;
            for (int64_t j = 0; j < n; j++) { /* (A v_j)_i - w_j v_ij, A from its lower triangle */
                double s = 0;
                for (int64_t t = 0; t < n; t++)
                    s += (i >= t ? ab[i * n + t] : ab[t * n + i]) * vb[t * n + j];
                worst = fmax(worst, fabs(s - wb[j] * vb[i * n + j]));
            }
        }
        property(c, backend, "w ascending", order, 0.0);
        property(c, backend, "A v = w v", worst, tol);
    }
    free(w);
    free(v);
    free(a);
}

static void drive_decomp(const char *op)
{
    int is_chol = !strcmp(op, "cholesky"), is_inv_det = !strcmp(op, "inv") || !strcmp(op, "det");
    int is_eigh = !strcmp(op, "eigh"), is_qr = !strcmp(op, "qr"), is_svd = !strcmp(op, "svd");
    int kind = is_chol ? 2 : is_eigh ? 3 : is_inv_det ? 1 : 0;
    cf_shape shapes[8];
    int ns = 0;
    shapes[ns++] = CF_SH(3, 3);
    shapes[ns++] = CF_SH(2, 4, 4);
    shapes[ns++] = CF_SH(0, 0);
    shapes[ns++] = CF_SH(1, 1);
    shapes[ns++] = CF_SH(8, 8);
    if (is_qr || is_svd) {
        shapes[ns++] = CF_SH(5, 3);
        shapes[ns++] = CF_SH(3, 5);
        shapes[ns++] = CF_SH(0, 3);
    }
    for (int d = 0; d < 6; d++)
        for (int s = 0; s < ns; s++)
            for (int full = 0; full <= is_svd; full++) {
                cf_case c;
                CF_CASE(c, op, "%s %s %s kind %d full_matrices %d", op, DN(cf_dtypes[d]),
                        cf_shape_str(shapes[s]), kind, full);
                c.run = run_linalg;
                c.i[0] = full;
                c.allow_error = 1; /* f16, integers, bool */
                c.post = is_qr ? post_qr : is_svd ? post_svd : is_eigh ? post_eigh : NULL;
                if (is_svd && full)
                    c.skip_values = 1u | 4u; /* u, vt: compared in post_svd */
                cf_case_add(&c, matrices(cf_dtypes[d], shapes[s], kind));
                cf_check(&c);
            }
    /* data-dependent errors, found by the kernel */
    cf_case c;
    CF_CASE(c, op, "%s f64 with NaN / singular / indefinite", op);
    c.run = run_linalg;
    c.allow_error = 1;
    const double bad[9] = {1, 2, 3, 2, 4, 6, 3, 6, NAN};
    cf_case_add(&c, cf_tensor(EH_F64, 2, CF_SH(3, 3).d, bad));
    cf_check(&c);
    CF_CASE(c, op, "%s f32 singular / indefinite", op);
    c.run = run_linalg;
    c.allow_error = 1;
    const double sing[4] = {1, 2, 2, 4};
    cf_case_add(&c, cf_tensor(EH_F32, 2, CF_SH(2, 2).d, sing));
    cf_check(&c);
    CF_CASE(c, op, "%s f64 (3,): too few dimensions", op);
    c.run = run_linalg;
    c.allow_error = 1;
    cf_add_rnd(&c, EH_F64, CF_SH(3), CF_V_UNIT);
    cf_check(&c);
}

/* ================================================================ signal */

static eh_status run_signal(const cf_case *c, eh_tensor **out, int *n)
{
    if (!strcmp(c->op, "rfft"))
        return cf_one(eh_rfft(c->in[0], c->i[0], (int)c->i[1]), out, n);
    if (!strcmp(c->op, "irfft"))
        return cf_one(eh_irfft(c->in[0], c->i[0], (int)c->i[1]), out, n);
    return cf_one(eh_stft(c->in[0], c->i[0], c->i[1], c->in[1], (int)c->i[2]), out, n);
}

static void drive_fft(const char *op)
{
    int inverse = !strcmp(op, "irfft");
    const struct {
        cf_shape x;
        int64_t n, axis;
    } fwd[] = {{CF_SH(16), 0, 0},     {CF_SH(3, 10), 0, -1}, {CF_SH(8, 3), 0, 0},
               {CF_SH(10), 12, 0},    {CF_SH(10), 5, -1},    {CF_SH(65), 0, 0},
               {CF_SH(2, 100), 0, 1}, {CF_SH(0, 4), 0, -1},  {CF_SH(4, 0), 6, 1},
               {CF_SH(1), 0, 0},      {CF_SH0, 0, 0},        {CF_SH(512), 0, 0}},
      inv[] = {{CF_SH(9, 2), 0, 0},     {CF_SH(3, 5, 2), 7, -1}, {CF_SH(6, 3, 2), 0, 0},
               {CF_SH(5, 2), 16, 0},    {CF_SH(2, 40, 2), 0, 1}, {CF_SH(1, 2), 0, 0},
               {CF_SH(0, 4, 2), 0, -1}, {CF_SH(3), 0, 0},        {CF_SH(257, 2), 0, 0}};
    int np = inverse ? (int)(sizeof inv / sizeof inv[0]) : (int)(sizeof fwd / sizeof fwd[0]);
    for (int d = 0; d < 6; d++)
        for (int k = 0; k < np; k++) {
            cf_shape x = inverse ? inv[k].x : fwd[k].x;
            int64_t nn = inverse ? inv[k].n : fwd[k].n, axis = inverse ? inv[k].axis : fwd[k].axis;
            cf_case c;
            CF_CASE(c, op, "%s %s %s n %lld axis %lld", op, DN(cf_dtypes[d]), cf_shape_str(x),
                    (long long)nn, (long long)axis);
            c.run = run_signal;
            c.i[0] = nn;
            c.i[1] = axis;
            c.allow_error = 1; /* 0-d, empty axis with n <= 0, bad complex shape */
            cf_add_rnd(&c, cf_dtypes[d], x, CF_V_DEFAULT);
            int64_t len = 1;
            if (x.nd) {
                int64_t ax = axis < 0 ? axis + x.nd - inverse : axis;
                len = x.d[ax < x.nd ? ax : 0];
            }
            int64_t pts = nn > 0 ? nn : len;
            c.scale = inverse ? cf_max_abs(c.in[0]) * 2.0
                              : (double)(pts > 0 ? pts : 1) * cf_max_abs(c.in[0]);
            cf_check(&c);
        }
}

static void drive_stft(const char *op)
{
    const struct {
        cf_shape x;
        int64_t n_fft, hop;
        int center, window; /* 0 hann, 1 hamming, 2 ones */
    } p[] = {
        {CF_SH(64), 16, 4, 1, 0},  {CF_SH(64), 16, 4, 0, 1},      {CF_SH(2, 50), 12, 5, 1, 1},
        {CF_SH(3), 8, 2, 1, 0},    {CF_SH(5), 8, 2, 0, 2},        {CF_SH(2, 0), 1, 1, 1, 2},
        {CF_SH(100), 33, 7, 1, 0}, {CF_SH(2, 1, 40), 8, 8, 0, 0}, {CF_SH(4096), 256, 64, 1, 0}};
    const eh_dtype wdt[] = {EH_F32, EH_F64, EH_F16};
    for (int d = 0; d < 6; d++)
        for (size_t k = 0; k < sizeof p / sizeof p[0]; k++) {
            eh_dtype wd = wdt[(d + k) % 3];
            cf_case c;
            CF_CASE(c, op, "stft %s %s n_fft %lld hop %lld center %d window %d %s",
                    DN(cf_dtypes[d]), cf_shape_str(p[k].x), (long long)p[k].n_fft,
                    (long long)p[k].hop, p[k].center, p[k].window, DN(wd));
            c.run = run_signal;
            c.i[0] = p[k].n_fft;
            c.i[1] = p[k].hop;
            c.i[2] = p[k].center;
            cf_add_rnd(&c, cf_dtypes[d], p[k].x, CF_V_DEFAULT);
            eh_tensor *w = p[k].window == 2
                               ? cf_random(&cf_in_rng, wd, 1, &p[k].n_fft, CF_V_POSITIVE)
                           : p[k].window == 0 ? eh_hann_window(p[k].n_fft, 1, wd)
                                              : eh_hamming_window(p[k].n_fft, 0, wd);
            cf_case_add(&c, w);
            if (eh_eval(w) != EH_OK)
                fail_msg("window: %s", eh_error_message());
            c.scale = (double)p[k].n_fft * cf_max_abs(c.in[0]) * cf_max_abs(w);
            cf_check(&c);
        }
}

/* ================================================================ the table */

static const cf_driver drivers[] = {
    {"allclose", drive_allclose},
    /* reductions */
    {"sum", drive_reduce},
    {"mean", drive_reduce},
    {"prod", drive_reduce},
    {"max", drive_reduce},
    {"min", drive_reduce},
    {"var", drive_reduce},
    {"std", drive_reduce},
    {"argmax", drive_axis_op},
    {"argmin", drive_axis_op},
    {"cumsum", drive_axis_op},
    {"cumprod", drive_axis_op},
    {"logsumexp", drive_reduce},
    {"softmax", drive_axis_op},
    {"log_softmax", drive_axis_op},
    {"norm", drive_norm},
    /* linear algebra */
    {"matmul", drive_products},
    {"dot", drive_products},
    {"outer", drive_products},
    {"solve", drive_solve},
    {"inv", drive_decomp},
    {"det", drive_decomp},
    {"cholesky", drive_decomp},
    {"qr", drive_decomp},
    {"svd", drive_decomp},
    {"eigh", drive_decomp},
    {"lstsq", drive_solve},
    /* signal */
    {"stft", drive_stft},
    {"rfft", drive_fft},
    {"irfft", drive_fft},
};
#define N_DRIVERS ((int)(sizeof drivers / sizeof drivers[0]))

static void test_every_op_of_these_kinds_has_a_case(void **state)
{
    (void)state;
    cf_check_drivers(drivers, N_DRIVERS, CF_KINDS_NUMERIC);
}

#define KIND_TEST(kind)                                                                            \
    static void test_##kind(void **state)                                                          \
    {                                                                                              \
        (void)state;                                                                               \
        cf_run_kind(drivers, N_DRIVERS, #kind);                                                    \
    }
KIND_TEST(REDUCTION)
KIND_TEST(LINALG)
KIND_TEST(SIGNAL)

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_op_of_these_kinds_has_a_case),
        cmocka_unit_test(test_REDUCTION),
        cmocka_unit_test(test_LINALG),
        cmocka_unit_test(test_SIGNAL),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    printf("conformance (numeric): %ld cases on %d backends, %ld disagreements\n", cf_case_count(),
           eh_list_backends(NULL, 0), cf_finding_count());
    return rc;
}
