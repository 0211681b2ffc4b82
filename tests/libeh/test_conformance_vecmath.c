/* The vectorized transcendental ops (tests/conformance/tolerances.def's
 * CF_ULP rows) on every backend, on EVERY instruction set this machine can
 * run (eh_isa_set): CI's machine may lack AVX-512 and this one has it, so
 * the SSE2 and AVX2 kernels are tested here too.
 *
 *  - special values give exactly ref's results: NaN, +-inf, +-0 and
 *    subnormal inputs (every pair of them for the binary ops), plus the
 *    edges where results overflow or underflow;
 *  - every other input is within the op's ulp bound of ref, on a sweep of
 *    values of every magnitude;
 *  - every length from 1 to 70 and both broadcast layouts of the binary
 *    ops, so the vector tails and the scalar-operand loops are covered. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "eh_test.h"
#include "conformance.h"
#include <eh/backend_api.h>

typedef eh_tensor *(*un_fn)(const eh_tensor *);
typedef eh_tensor *(*bin_fn)(const eh_tensor *, const eh_tensor *);

typedef struct {
    const char *name;
    un_fn u;
    bin_fn b;
} vm_op;

static const vm_op vm_ops[] = {
    {"sqrt", eh_sqrt, NULL},       {"exp", eh_exp, NULL},         {"expm1", eh_expm1, NULL},
    {"log", eh_log, NULL},         {"log1p", eh_log1p, NULL},     {"sin", eh_sin, NULL},
    {"cos", eh_cos, NULL},         {"tan", eh_tan, NULL},         {"tanh", eh_tanh, NULL},
    {"sigmoid", eh_sigmoid, NULL}, {"softplus", eh_softplus, NULL}, {"erf", eh_erf, NULL},
    {"power", NULL, eh_power},     {"atan2", NULL, eh_atan2},
    /* exact arithmetic that also runs at the machine's vector width
     * (vecmath.h's EH_BLAS_VM_ARITH): ref's bits on every instruction set */
    {"abs", eh_abs, NULL},         {"add", NULL, eh_add},         {"subtract", NULL, eh_subtract},
    {"multiply", NULL, eh_multiply}, {"divide", NULL, eh_divide},
};
#define N_OPS (sizeof vm_ops / sizeof vm_ops[0])

/* Inputs whose result must be exactly ref's: NaN, +-inf, +-0. */
static int is_special(double v)
{
    return isnan(v) || isinf(v) || v == 0;
}

static double min_normal(eh_dtype dt)
{
    return dt == EH_F16 ? 0x1p-14 : dt == EH_F32 ? FLT_MIN : DBL_MIN;
}

static const double specials[] = {
    NAN, -NAN, INFINITY, -INFINITY, 0.0, -0.0,
    0x1p-149, -0x1p-149, 0x1p-127, -0x1.fffffcp-127, /* f32 subnormals */
    0x1p-1074, -0x1p-1074, 0x1p-1030, -0x1.8p-1023, /* f64 subnormals */
    0x1p-24, -0x1p-20, 0x1p-15,                     /* f16 subnormals */
    1.0, -1.0, 0.5, -0.5, 2.0, -2.0, 3.0, 0.1, -3.5, 10.0, -10.0,
    FLT_MIN, -FLT_MIN, FLT_MAX, -FLT_MAX, DBL_MIN, DBL_MAX, -DBL_MAX, 65504.0, -65504.0,
    88.72, 89.0, -87.3, -103.9, -104.0, 709.7, 710.0, -745.2, -746.0, 11.09, 11.1, -17.3,
    1e-30, -1e-30, 1e30, -1e30, 1e300, 3.14159265358979, 1.5707963267949, 1e7, -1e22,
};
#define N_SPECIALS (sizeof specials / sizeof specials[0])

static const eh_dtype float_dtypes[3] = {EH_F16, EH_F32, EH_F64};

static int ulp_bound(const char *op, eh_dtype dt)
{
    const cf_tol *t = cf_tolerance(op);
    assert_non_null(t);
    int c = dt == EH_F16 ? 0 : dt == EH_F32 ? 1 : 2;
    return t->exact ? 0 : t->ulps[c];
}

static eh_tensor *apply(const vm_op *op, const eh_tensor *x, const eh_tensor *y)
{
    return op->u ? op->u(x) : op->b(x, y);
}

static long failures;

/* Compare backend `be`'s result with ref's, element by element: exact where
 * the inputs are special (or the op is exact), else within `ulps`. */
static void compare(const char *ctx, const vm_op *op, eh_dtype dt, const eh_tensor *x,
                    const eh_tensor *y, const char *be)
{
    eh_set_backend("ref");
    eh_tensor *want = apply(op, x, y);
    eh_set_backend(be);
    eh_tensor *got = apply(op, x, y);
    assert_non_null(want);
    assert_non_null(got);
    assert_int_equal(eh_eval(got), EH_OK);
    int ulps = ulp_bound(op->name, dt);
    int64_t n = eh_size(want);
    for (int64_t k = 0; k < n; k++) {
        double a = t_at(want, k), b = t_at(got, k);
        double xv = t_at(x, y && eh_size(x) == 1 ? 0 : k);
        double yv = y ? t_at(y, eh_size(y) == 1 ? 0 : k) : 0;
        /* exact: special inputs, and subnormal inputs whose result is
         * the input itself (sin, tan, tanh, expm1, log1p): a kernel that
         * flushes subnormals to zero fails here */
        int special = is_special(xv) || (y && is_special(yv)) ||
                      (!y && a == xv && fabs(xv) < min_normal(dt));
        int ok;
        if (isnan(a) || isnan(b))
            ok = isnan(a) && isnan(b);
        else if (special || ulps == 0 || isinf(a) || isinf(b) || (a == 0 && b == 0))
            ok = a == b && signbit(a) == signbit(b);
        else
            ok = cf_ulp_distance(dt, a, b) <= ulps;
        if (!ok && failures++ < 400) {
            char args[96];
            if (y)
                snprintf(args, sizeof args, "%.9g, %.9g", xv, yv);
            else
                snprintf(args, sizeof args, "%.9g", xv);
            fprintf(stderr, "VECMATH %s %s on %s/%s: %s(%s) = %.17g, ref %.17g (%lld ulps; allowed %d%s)\n",
                    ctx, eh_dtype_name(dt), be, eh_isa_name(eh_isa_level()), op->name, args, b, a,
                    (long long)cf_ulp_distance(dt, a, b), ulps, special ? ", special: exact" : "");
        }
    }
}

/* Run `check` for every non-ref backend on every instruction set. */
static void each_isa_backend(void (*check)(const char *be, const char *isa))
{
    const char *names[CF_MAX_BACKENDS];
    int nb = cf_backends(names);
    eh_isa top = eh_isa_detected();
    for (int isa = 0; isa <= (int)top; isa++) {
        eh_isa_set((eh_isa)isa);
        for (int b = 1; b < nb; b++)
            check(names[b], eh_isa_name((eh_isa)isa));
    }
    eh_isa_set(top);
    eh_set_backend("ref");
}

static void check_specials(const char *be, const char *isa)
{
    (void)isa;
    for (size_t o = 0; o < N_OPS; o++)
        for (int d = 0; d < 3; d++) {
            eh_dtype dt = float_dtypes[d];
            eh_scope_begin();
            if (vm_ops[o].u) {
                eh_tensor *x = t_vec(dt, N_SPECIALS, specials);
                compare("specials", &vm_ops[o], dt, x, NULL, be);
            } else {
                /* every pair: x[i * n + j] = s[i], y[...] = s[j] */
                double *xs = malloc(N_SPECIALS * N_SPECIALS * sizeof *xs);
                double *ys = malloc(N_SPECIALS * N_SPECIALS * sizeof *ys);
                for (size_t i = 0; i < N_SPECIALS; i++)
                    for (size_t j = 0; j < N_SPECIALS; j++) {
                        xs[i * N_SPECIALS + j] = specials[i];
                        ys[i * N_SPECIALS + j] = specials[j];
                    }
                eh_tensor *x = t_vec(dt, N_SPECIALS * N_SPECIALS, xs);
                eh_tensor *y = t_vec(dt, N_SPECIALS * N_SPECIALS, ys);
                compare("special pairs", &vm_ops[o], dt, x, y, be);
                free(xs);
                free(ys);
            }
            eh_scope_end();
        }
}

/* Values of every magnitude and both signs, plus the ops' busy ranges. */
static double sweep_value(cf_rng *r, int k)
{
    if (k % 3 == 0)
        return cf_rng_uniform(r, -10, 10);
    double m = cf_rng_uniform(r, 0.5, 1.0);
    int e = (int)(cf_rng_u64(r) % 200) - 100;
    return (cf_rng_u64(r) & 1 ? -1 : 1) * ldexp(m, e);
}

static void check_sweep(const char *be, const char *isa)
{
    (void)isa;
    enum { N = 20000 };
    double *xs = malloc(N * sizeof *xs), *ys = malloc(N * sizeof *ys);
    for (size_t o = 0; o < N_OPS; o++)
        for (int d = 0; d < 3; d++) {
            eh_dtype dt = float_dtypes[d];
            cf_rng r;
            cf_rng_seed_str(&r, vm_ops[o].name);
            for (int k = 0; k < N; k++) {
                xs[k] = sweep_value(&r, k);
                /* power: positive bases mostly, exponents of moderate size */
                ys[k] = vm_ops[o].b == eh_power ? cf_rng_uniform(&r, -30, 30) : sweep_value(&r, k + 1);
                if (vm_ops[o].b == eh_power && k % 4)
                    xs[k] = fabs(xs[k]);
            }
            eh_scope_begin();
            eh_tensor *x = t_vec(dt, N, xs);
            eh_tensor *y = vm_ops[o].b ? t_vec(dt, N, ys) : NULL;
            compare("sweep", &vm_ops[o], dt, x, y, be);
            eh_scope_end();
        }
    free(xs);
    free(ys);
}

/* Lengths 1..70 (vector tails of every width) and broadcast operands. */
static void check_layouts(const char *be, const char *isa)
{
    (void)isa;
    double xs[70], ys[70];
    cf_rng r;
    cf_rng_seed_str(&r, "layouts");
    for (int k = 0; k < 70; k++) {
        xs[k] = cf_rng_uniform(&r, 0.05, 3);
        ys[k] = cf_rng_uniform(&r, -2, 2);
    }
    for (size_t o = 0; o < N_OPS; o++)
        for (int d = 0; d < 3; d++) {
            eh_dtype dt = float_dtypes[d];
            for (int64_t n = 1; n <= 70; n++) {
                eh_scope_begin();
                eh_tensor *x = t_vec(dt, n, xs), *y = t_vec(dt, n, ys);
                compare("length", &vm_ops[o], dt, x, y, be);
                if (vm_ops[o].b) {
                    eh_tensor *sx = t_vec(dt, 1, xs + 3), *sy = t_vec(dt, 1, ys + 5);
                    compare("scalar first", &vm_ops[o], dt, sx, y, be);
                    compare("scalar second", &vm_ops[o], dt, x, sy, be);
                }
                eh_scope_end();
            }
        }
}

static void test_special_values_exact(void **state)
{
    (void)state;
    failures = 0;
    each_isa_backend(check_specials);
    assert_int_equal(failures, 0);
}

static void test_sweep_within_bounds(void **state)
{
    (void)state;
    failures = 0;
    each_isa_backend(check_sweep);
    assert_int_equal(failures, 0);
}

static void test_lengths_and_layouts(void **state)
{
    (void)state;
    failures = 0;
    each_isa_backend(check_layouts);
    assert_int_equal(failures, 0);
}

/* ---- reductions: the per-ISA loops of blas's reductions ---------------------- */

static eh_status run_red(const cf_case *c, eh_tensor **out, int *n)
{
    const eh_tensor *x = c->in[0];
    const int ax[1] = {(int)c->i[1]};
    switch (c->i[0]) {
    case 0: return cf_one(eh_sum(x, ax, 1, 0), out, n);
    case 1: return cf_one(eh_max(x, ax, 1, 0), out, n);
    case 2: return cf_one(eh_min(x, ax, 1, 0), out, n);
    case 3: return cf_one(eh_argmax(x, ax[0], 0), out, n);
    case 4: return cf_one(eh_argmin(x, ax[0], 0), out, n);
    case 5: return cf_one(eh_softmax(x, ax[0]), out, n);
    case 6: return cf_one(eh_log_softmax(x, ax[0]), out, n);
    default: return cf_one(eh_var(x, ax, 1, 0, 0), out, n);
    }
}

/* Sums over axis 0 of wide matrices (whole-row streaming), extremes and
 * softmax along rows (the vector extreme and exp kernels), with special
 * values, on every instruction set: the same checks as the conformance
 * suite's (tolerances.def), which runs on the default set only. */
static void test_reductions_on_every_isa(void **state)
{
    (void)state;
    static const char *const ops[] = {"sum", "max", "min", "argmax", "argmin", "softmax",
                                      "log_softmax", "var"};
    eh_isa top = eh_isa_detected();
    cf_begin_test();
    for (int isa = 0; isa <= (int)top; isa++) {
        eh_isa_set((eh_isa)isa);
        for (int op = 0; op < 8; op++)
            for (int d = 0; d < 3; d++) {
                eh_dtype dt = float_dtypes[d];
                cf_shape shapes[3] = {CF_SH(256, 600), CF_SH(37, 1003), CF_SH(3, 70001)};
                for (int sh = 0; sh < 3; sh++)
                    for (int spec = 0; spec < 2; spec++) {
                        int axis = op == 0 || op == 7 ? (sh == 0 ? 0 : 1) : 1;
                        cf_case c;
                        CF_CASE(c, ops[op], "%s %s %s axis %d%s on %s", ops[op], eh_dtype_name(dt),
                                cf_shape_str(shapes[sh]), axis, spec ? " with specials" : "",
                                eh_isa_name((eh_isa)isa));
                        c.run = run_red;
                        c.i[0] = op;
                        c.i[1] = axis;
                        /* sums: small integers (exact in any order); others: floats */
                        cf_add_rnd(&c, dt, shapes[sh],
                                   spec ? CF_V_SPECIAL : (op == 0 || op == 7) ? CF_V_SMALLINT : CF_V_DEFAULT);
                        c.scale = op == 0 ? 256 * 4.0 : op == 7 ? 16 : op == 6 ? 9 : 1;
                        cf_check(&c);
                    }
            }
    }
    eh_isa_set(top);
    cf_end_test();
}

/* argmax / argmin along rows of every length around the kernel's vector
 * groups (16 floats or 8 doubles per lane set, 4 sets taking turns): rows
 * of small integers, so the extreme occurs many times and the first
 * occurrence must win across lanes, sets and the scalar tail; with special
 * values, the first NaN.  Exact against ref on every instruction set. */
static void test_arg_extremes_ties_every_length(void **state)
{
    (void)state;
    static const int64_t lens[] = {1, 2, 15, 16, 17, 31, 32, 33, 63, 64, 65, 66, 127, 128, 129,
                                   191, 255, 256, 257, 1000, 4097};
    eh_isa top = eh_isa_detected();
    cf_begin_test();
    for (int isa = 0; isa <= (int)top; isa++) {
        eh_isa_set((eh_isa)isa);
        for (int op = 3; op <= 4; op++)
            for (int d = 1; d < 3; d++)
                for (size_t k = 0; k < sizeof lens / sizeof lens[0]; k++)
                    for (int spec = 0; spec < 2; spec++) {
                        eh_dtype dt = float_dtypes[d];
                        cf_case c;
                        CF_CASE(c, op == 3 ? "argmax" : "argmin", "%s %s rows of %lld%s on %s",
                                op == 3 ? "argmax" : "argmin", eh_dtype_name(dt), (long long)lens[k],
                                spec ? " with specials" : "", eh_isa_name((eh_isa)isa));
                        c.run = run_red;
                        c.i[0] = op;
                        c.i[1] = 1;
                        cf_add_rnd(&c, dt, CF_SH(7, lens[k]), spec ? CF_V_SPECIAL : CF_V_SMALLINT);
                        c.scale = 1;
                        cf_check(&c);
                    }
    }
    eh_isa_set(top);
    cf_end_test();
}

/* The level can be lowered, never raised above what the CPU has, and the
 * names are stable (EH_ISA takes them). */
static void test_isa_levels(void **state)
{
    (void)state;
    eh_isa top = eh_isa_detected();
    assert_true(eh_isa_level() <= top);
    assert_int_equal(eh_isa_set(EH_ISA_SSE2), EH_ISA_SSE2);
    assert_int_equal(eh_isa_level(), EH_ISA_SSE2);
    assert_int_equal(eh_isa_set(EH_ISA_AVX512), top);
    assert_string_equal(eh_isa_name(EH_ISA_SSE2), "sse2");
    assert_string_equal(eh_isa_name(EH_ISA_AVX2), "avx2");
    assert_string_equal(eh_isa_name(EH_ISA_AVX512), "avx512");
    assert_string_equal(eh_isa_name(EH_ISA_COUNT), "?");
    eh_isa_set(top);
}

/* Every op this file tests has a CF_ULP or CF_EXACT row, and every CF_ULP
 * row is an op tested here: the table and the kernels cannot drift. */
static void test_ulp_rows_match_the_kernels(void **state)
{
    (void)state;
    int n;
    const cf_tol *rows = cf_tolerance_rows(&n);
    for (int k = 0; k < n; k++) {
        if (!rows[k].by_ulp)
            continue;
        int found = 0;
        for (size_t o = 0; o < N_OPS; o++)
            found |= !strcmp(vm_ops[o].name, rows[k].op);
        if (!found)
            fail_msg("CF_ULP row %s has no vector kernel test here", rows[k].op);
    }
    for (size_t o = 0; o < N_OPS; o++)
        assert_non_null(cf_tolerance(vm_ops[o].name));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_isa_levels),
        cmocka_unit_test(test_ulp_rows_match_the_kernels),
        cmocka_unit_test(test_special_values_exact),
        cmocka_unit_test(test_sweep_within_bounds),
        cmocka_unit_test(test_lengths_and_layouts),
        cmocka_unit_test(test_reductions_on_every_isa),
        cmocka_unit_test(test_arg_extremes_ties_every_length),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
