/* The "everyday" section of `make bench`: the cases of issue #13, libeh on
 * every backend against NumPy on identical inputs.
 *
 *   tanh, sin, exp, log, sigmoid, sqrt on 1e7 f32       best of blas/lazy <= 0.5x NumPy's time
 *   sum over axis 0 of 4096x4096, max of 1e7,
 *   argmax over axis 1 of 4096x4096,
 *   softmax / log_softmax over rows of 1000x1000,
 *   random_normal / random_uniform of 1e7 f32           best of blas/lazy <= 1x NumPy's time
 *   reshape, expand_dims, squeeze, row slice of 1e7     under 2 us per view (and vs NumPy)
 *
 * The harness writes the inputs once (build/bench/data/NAME.f32 and
 * manifest.json); reference/numpy_everyday.py reads them, so NumPy and
 * libeh compute on the same bits, and saves its results next to them.
 * Every libeh result is checked against NumPy's before its time is
 * reported (ulps for the vector math, relative error for sums and
 * softmax, exactly for max, argmax and views, moments for random
 * samples); without NumPy (--quick, --no-python) against ref's.  Frontend
 * code: <eh/eh.h> only; backends by name, from eh_list_backends(). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <json-c/json.h>
#include <eh/eh.h>
#include "bench.h"

enum { GRP_UNARY, GRP_TABLE, GRP_RANDOM, GRP_VIEW };
enum { CHK_ULPS, CHK_REL, CHK_EXACT, CHK_MOMENTS };

typedef struct ev_data {
    eh_tensor *x, *p, *m, *s; /* 1e7 in [-3, 3); 1e7 in (0.01, 10); 4096^2; 1000^2 */
    eh_tensor *x2, *x3;       /* views of x: (n/2, 2) and (1, n, 1), for the view cases */
    int64_t n;
} ev_data;

typedef eh_tensor *(*ev_fn)(const ev_data *d);

typedef struct ev_case {
    const char *id;    /* the NumPy script's case id too */
    const char *what;  /* title, after the size */
    int group, check;
    double tol;        /* ulps, or relative error (of max(|want|, scale)) */
    ev_fn run;
    const char *call;  /* the libeh call, for the row labels */
} ev_case;

static eh_tensor *c_tanh(const ev_data *d) { return eh_tanh(d->x); }
static eh_tensor *c_sin(const ev_data *d) { return eh_sin(d->x); }
static eh_tensor *c_exp(const ev_data *d) { return eh_exp(d->x); }
static eh_tensor *c_log(const ev_data *d) { return eh_log(d->p); }
static eh_tensor *c_sigmoid(const ev_data *d) { return eh_sigmoid(d->x); }
static eh_tensor *c_sqrt(const ev_data *d) { return eh_sqrt(d->p); }
static eh_tensor *c_sum0(const ev_data *d) { return eh_sum(d->m, (const int[]){0}, 1, 0); }
static eh_tensor *c_max(const ev_data *d) { return eh_max(d->x, NULL, 0, 0); }
static eh_tensor *c_argmax1(const ev_data *d) { return eh_argmax(d->m, 1, 0); }
static eh_tensor *c_softmax(const ev_data *d) { return eh_softmax(d->s, 1); }
static eh_tensor *c_log_softmax(const ev_data *d) { return eh_log_softmax(d->s, 1); }
static eh_tensor *c_normal(const ev_data *d) { return eh_random_normal(1, &d->n, 0.0, 1.0, EH_F32); }
static eh_tensor *c_uniform(const ev_data *d) { return eh_random_uniform(1, &d->n, 0.0, 1.0, EH_F32); }
static eh_tensor *c_reshape(const ev_data *d)
{
    return eh_reshape(d->x, 2, (const int64_t[]){d->n / 2, 2});
}
static eh_tensor *c_expand(const ev_data *d) { return eh_expand_dims(d->x, 0); }
static eh_tensor *c_squeeze(const ev_data *d) { return eh_squeeze(d->x3, NULL, 0); }
static eh_tensor *c_rows(const ev_data *d)
{
    int64_t h = d->n / 2;
    return eh_slice(d->x2, (const int64_t[]){h / 4}, (const int64_t[]){h / 2}, NULL, 1);
}

static const ev_case cases[] = {
    {"tanh", "tanh", GRP_UNARY, CHK_ULPS, 8, c_tanh, "eh_tanh"},
    {"sin", "sin", GRP_UNARY, CHK_ULPS, 8, c_sin, "eh_sin"},
    {"exp", "exp", GRP_UNARY, CHK_ULPS, 8, c_exp, "eh_exp"},
    {"log", "log", GRP_UNARY, CHK_ULPS, 8, c_log, "eh_log"},
    {"sigmoid", "sigmoid (NumPy: 1 / (1 + exp(-x)))", GRP_UNARY, CHK_ULPS, 8, c_sigmoid,
     "eh_sigmoid"},
    {"sqrt", "sqrt", GRP_UNARY, CHK_ULPS, 0, c_sqrt, "eh_sqrt"},
    /* NumPy sums f32 columns in f32 (errors of ~rows x eps x max|x|);
     * libeh in double: compared on the scale of the summands */
    {"sum_axis0", "sum over axis 0", GRP_TABLE, CHK_REL, 8 * 0x1p-23, c_sum0, "eh_sum"},
    {"max_all", "max of all", GRP_TABLE, CHK_EXACT, 0, c_max, "eh_max"},
    {"argmax_axis1", "argmax over axis 1", GRP_TABLE, CHK_EXACT, 0, c_argmax1, "eh_argmax"},
    {"softmax", "softmax over rows", GRP_TABLE, CHK_REL, 1e-5, c_softmax, "eh_softmax"},
    {"log_softmax", "log_softmax over rows", GRP_TABLE, CHK_REL, 1e-5, c_log_softmax,
     "eh_log_softmax"},
    {"random_normal", "random_normal (NumPy: Generator.standard_normal)", GRP_RANDOM, CHK_MOMENTS,
     0, c_normal, "eh_random_normal"},
    {"random_uniform", "random_uniform (NumPy: Generator.random)", GRP_RANDOM, CHK_MOMENTS, 0,
     c_uniform, "eh_random_uniform"},
    {"reshape", "reshape to (n/2, 2)", GRP_VIEW, CHK_EXACT, 0, c_reshape, "eh_reshape"},
    {"expand_dims", "expand_dims axis 0", GRP_VIEW, CHK_EXACT, 0, c_expand, "eh_expand_dims"},
    {"squeeze", "squeeze of (1, n, 1)", GRP_VIEW, CHK_EXACT, 0, c_squeeze, "eh_squeeze"},
    {"row_slice", "slice of rows n/8 .. n/4 of (n/2, 2)", GRP_VIEW, CHK_EXACT, 0, c_rows,
     "eh_slice"},
};
#define N_CASES ((int)(sizeof cases / sizeof cases[0]))
#define VIEW_PER 100000 /* views per timed run */

/* ---- data --------------------------------------------------------------- */

static uint64_t rng_state = 0x2545f4914f6cdd1dull;

static float uniform01(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (float)((rng_state * 0x2545f4914f6cdd1dull) >> 40) * (1.0f / 16777216.0f);
}

/* A tensor of n values lo + (hi - lo) u, also written to dir/name.f32. */
static eh_tensor *make_input(bench_ctx *ctx, const char *dir, const char *name, int ndim,
                             const int64_t *shape, float lo, float hi, json_object *arrays)
{
    int64_t n = 1;
    for (int d = 0; d < ndim; d++)
        n *= shape[d];
    float *v = malloc((size_t)n * sizeof *v);
    if (!v) {
        bench_error(ctx, "out of memory for input %s", name);
        return NULL;
    }
    for (int64_t i = 0; i < n; i++)
        v[i] = lo + (hi - lo) * uniform01();
    eh_tensor *t = eh_convert_to_tensor(v, ndim, shape, EH_F32);
    char path[4400];
    snprintf(path, sizeof path, "%s/%s.f32", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(v, sizeof *v, (size_t)n, f) != (size_t)n)
        bench_error(ctx, "cannot write %s: %s", path, strerror(errno));
    if (f)
        fclose(f);
    free(v);
    json_object *spec = json_object_new_object(), *sh = json_object_new_array();
    for (int d = 0; d < ndim; d++)
        json_object_array_add(sh, json_object_new_int64(shape[d]));
    json_object_object_add(spec, "shape", sh);
    json_object_object_add(arrays, name, spec);
    return t;
}

/* ---- checks ---------------------------------------------------------------- */

static int64_t ord32(float f)
{
    int32_t i;
    memcpy(&i, &f, sizeof i);
    return i >= 0 ? i : -(int64_t)(i & INT32_MAX);
}

/* got against want (both f32 or both i64, n elements); 0 when they agree,
 * else -1 with the first disagreement reported. */
static int check_values(bench_ctx *ctx, const ev_case *c, const char *who, const void *got,
                        const void *want, int is_i64, int64_t n, double scale)
{
    for (int64_t i = 0; i < n; i++) {
        if (is_i64) {
            int64_t a = ((const int64_t *)got)[i], b = ((const int64_t *)want)[i];
            if (a != b) {
                bench_error(ctx, "%s: libeh's result differs from %s at %lld: %lld, not %lld", c->id,
                            who, (long long)i, (long long)a, (long long)b);
                return -1;
            }
            continue;
        }
        float a = ((const float *)got)[i], b = ((const float *)want)[i];
        int ok;
        if (isnan(a) || isnan(b) || isinf(a) || isinf(b))
            ok = isnan(a) ? isnan(b) : a == b;
        else if (c->check == CHK_ULPS)
            ok = llabs(ord32(a) - ord32(b)) <= (long long)c->tol;
        else if (c->check == CHK_REL)
            ok = fabs((double)a - b) <= c->tol * fmax(fabs((double)b), scale);
        else
            ok = a == b;
        if (!ok) {
            bench_error(ctx, "%s: libeh's result differs from %s at %lld: %.9g, not %.9g", c->id,
                        who, (long long)i, (double)a, (double)b);
            return -1;
        }
    }
    return 0;
}

/* Mean and variance of f32 samples, in double. */
static void moments(const float *v, int64_t n, double *mean, double *var)
{
    double s = 0, q = 0;
    for (int64_t i = 0; i < n; i++)
        s += v[i];
    *mean = s / (double)n;
    for (int64_t i = 0; i < n; i++)
        q += ((double)v[i] - *mean) * ((double)v[i] - *mean);
    *var = q / (double)n;
}

/* Random samples: libeh's and the reference's mean and variance agree
 * with each other and with the law's within 6 standard errors. */
static int check_moments(bench_ctx *ctx, const ev_case *c, const float *got, const float *want,
                         int64_t n)
{
    int normal = !strcmp(c->id, "random_normal");
    double mu = normal ? 0.0 : 0.5, var = normal ? 1.0 : 1.0 / 12.0;
    double mu4 = normal ? 3.0 : 1.0 / 80.0; /* central fourth moment */
    double se_m = sqrt(var / (double)n), se_v = sqrt((mu4 - var * var) / (double)n);
    const float *v[2] = {got, want};
    double m[2], s2[2];
    for (int k = 0; k < 2; k++) {
        moments(v[k], n, &m[k], &s2[k]);
        if (!(fabs(m[k] - mu) <= 6 * se_m && fabs(s2[k] - var) <= 6 * se_v)) {
            bench_error(ctx, "%s: %s sample has mean %.6g, variance %.6g (want %.6g, %.6g)", c->id,
                        k ? "the reference's" : "libeh's", m[k], s2[k], mu, var);
            return -1;
        }
    }
    if (!(fabs(m[0] - m[1]) <= 6 * sqrt(2.0) * se_m && fabs(s2[0] - s2[1]) <= 6 * sqrt(2.0) * se_v)) {
        bench_error(ctx, "%s: libeh's and the reference's moments differ: mean %.6g vs %.6g, "
                         "variance %.6g vs %.6g", c->id, m[0], m[1], s2[0], s2[1]);
        return -1;
    }
    return 0;
}

/* ---- timing ------------------------------------------------------------------- */

typedef struct ev_arg {
    bench_ctx *ctx;
    const ev_case *c;
    const ev_data *d;
} ev_arg;

static int run_once(void *p)
{
    ev_arg *a = p;
    eh_tensor *r = a->c->run(a->d);
    if (!r || eh_eval(r) != EH_OK) {
        bench_error(a->ctx, "%s failed on %s: %s", a->c->call, eh_get_backend(), eh_error_message());
        eh_clear_error();
        eh_release(r);
        return -1;
    }
    eh_release(r);
    return 0;
}

static int run_views(void *p)
{
    ev_arg *a = p;
    for (int k = 0; k < VIEW_PER; k++) {
        eh_tensor *r = a->c->run(a->d);
        if (!r) {
            bench_error(a->ctx, "%s failed on %s: %s", a->c->call, eh_get_backend(), eh_error_message());
            eh_clear_error();
            return -1;
        }
        eh_release(r);
    }
    return 0;
}

/* ---- Python ----------------------------------------------------------------------- */

static json_object *jget(json_object *o, const char *a, const char *b)
{
    json_object *v = NULL;
    if (o && json_object_object_get_ex(o, a, &v) && b)
        return json_object_object_get_ex(v, b, &v) ? v : NULL;
    return o ? v : NULL;
}

/* dir/<id>.numpy into a new buffer of `bytes`, or NULL. */
static void *load_result(const char *dir, const char *id, size_t bytes)
{
    char path[4400];
    snprintf(path, sizeof path, "%s/%s.numpy", dir, id);
    FILE *f = fopen(path, "rb");
    void *buf = f ? malloc(bytes ? bytes : 1) : NULL;
    if (buf && fread(buf, 1, bytes, f) != bytes) {
        free(buf);
        buf = NULL;
    }
    if (f)
        fclose(f);
    return buf;
}

/* ---- one case ------------------------------------------------------------------------ */

static void case_title(const ev_case *c, const ev_data *d, char *buf, size_t cap)
{
    char size[64];
    if (c->run == c_sum0 || c->run == c_argmax1)
        snprintf(size, sizeof size, "%lldx%lld", (long long)eh_dim(d->m, 0), (long long)eh_dim(d->m, 1));
    else if (c->run == c_softmax || c->run == c_log_softmax)
        snprintf(size, sizeof size, "%lldx%lld", (long long)eh_dim(d->s, 0), (long long)eh_dim(d->s, 1));
    else if (d->n == 10000000)
        snprintf(size, sizeof size, "1e7");
    else
        snprintf(size, sizeof size, "%lld", (long long)d->n);
    snprintf(buf, cap, "%s, %s f32", c->what, size);
}

static int run_case(bench_ctx *ctx, const ev_case *c, const ev_data *d, json_object *py,
                    const char *dir)
{
    const bench_options *o = bench_opts(ctx);
    char title[160];
    case_title(c, d, title, sizeof title);
    bench_case(ctx, c->id, title);
    const char *names[16];
    int nb = eh_list_backends(names, 16);
    if (nb > 16)
        nb = 16;

    /* the check: libeh (first backend in the list that is not ref, else
     * ref) against NumPy's saved result, or against ref without NumPy */
    json_object *pc = jget(py, "cases", c->id);
    eh_set_backend("ref");
    eh_tensor *ref = c->run(d);
    if (!ref || eh_eval(ref) != EH_OK) {
        bench_error(ctx, "%s failed on ref: %s", c->call, eh_error_message());
        eh_clear_error();
        eh_release(ref);
        return -1;
    }
    int is_i64 = eh_get_dtype(ref) == EH_I64;
    size_t bytes = eh_nbytes(ref);
    void *want = pc ? load_result(dir, c->id, bytes) : NULL;
    const char *who = want ? "NumPy's" : "ref's";
    int rc = 0;
    for (int b = 0; b < nb && rc == 0; b++) {
        eh_set_backend(names[b]);
        eh_tensor *got = c->run(d);
        if (!got || eh_eval(got) != EH_OK || eh_nbytes(got) != bytes) {
            bench_error(ctx, "%s on %s: %s", c->call, names[b], got ? "wrong size" : eh_error_message());
            eh_clear_error();
            rc = -1;
        } else if (c->check == CHK_MOMENTS) {
            rc = check_moments(ctx, c, eh_data_const_f32(got),
                               want ? (const float *)want : eh_data_const_f32(ref), eh_size(got));
        } else {
            /* sums: the scale of what is summed (rows x max|x| = 3) */
            double scale = c->run == c_sum0 ? 3.0 * (double)eh_dim(d->m, 0) : 1e-3;
            rc = check_values(ctx, c, who, eh_data_const(got), want ? want : eh_data_const(ref),
                              is_i64, eh_size(got), scale);
        }
        eh_release(got);
    }
    free(want);
    eh_release(ref);
    if (rc != 0)
        return -1;

    /* time every backend; the subject is the best of the others than ref */
    bench_stats st[16], best = {0, 0, 0, 0, 0};
    int best_b = -1;
    ev_arg arg = {ctx, c, d};
    int view = c->group == GRP_VIEW;
    for (int b = 0; b < nb; b++) {
        eh_set_backend(names[b]);
        if (bench_time(ctx, view ? run_views : run_once, &arg, &st[b]) != 0)
            return -1;
        if (strcmp(names[b], "ref") != 0 && (best_b < 0 || st[b].median_s < best.median_s)) {
            best = st[b];
            best_b = b;
        }
    }
    if (best_b < 0) { /* only ref is built */
        best = st[0];
        best_b = 0;
    }
    double per = view ? VIEW_PER : 1;
    const char *unit = view ? "view" : NULL;
    char label[160];
    snprintf(label, sizeof label, "libeh: best of the non-ref backends (%s)", names[best_b]);
    bench_row(ctx, "libeh", label, &best, per, unit);
    for (int b = 0; b < nb; b++) {
        snprintf(label, sizeof label, "%s: %s%s", names[b], c->call, view ? " + eh_release" : " + eh_eval");
        bench_row(ctx, names[b], label, &st[b], per, unit);
    }
    if (!pc) {
        const char *why = py ? "the NumPy script did not run this case" : "no NumPy (--quick or --no-python, or not installed)";
        json_object *miss = jget(py, "missing", "numpy");
        bench_row_skipped(ctx, "numpy", "NumPy", "%s", miss ? json_object_get_string(miss) : why);
    } else {
        bench_stats ns = {json_object_get_double(jget(pc, "median_s", NULL)),
                          json_object_get_double(jget(pc, "min_s", NULL)),
                          json_object_get_double(jget(pc, "max_s", NULL)),
                          json_object_get_int(jget(pc, "reps", NULL)),
                          json_object_get_double(jget(pc, "cpu_median_s", NULL))};
        bench_row(ctx, "numpy", "NumPy", &ns, 1, view ? "view" : NULL);
    }
    bench_note(ctx, "libeh's result was checked against %s before timing (%s); every backend's "
                    "result was checked", who,
               c->check == CHK_ULPS ? "within 8 ulps" : c->check == CHK_REL ? "relative error"
               : c->check == CHK_EXACT ? "exactly" : "mean and variance within 6 standard errors");

    /* goals */
    double t_eh = 0, t_np = 0;
    int have = bench_row_time(ctx, "libeh", &t_eh) && bench_row_time(ctx, "numpy", &t_np);
    switch (c->group) {
    case GRP_UNARY:
        bench_goal_speedup(ctx, "best of blas/lazy <= 0.5x NumPy's time", "libeh", "numpy", 2.0);
        break;
    case GRP_VIEW:
        bench_goal_max_time(ctx, "a view of a 1e7 tensor under 2 us", "libeh", 2e-6);
        if (bench_goal_status(ctx) == 0)
            bench_goal_reason(ctx, "%.3g us per view: header allocation, validation and the "
                                   "scope's bookkeeping", t_eh * 1e6);
        bench_goal_speedup(ctx, "best of blas/lazy <= 1x NumPy's time", "libeh", "numpy", 1.0);
        break;
    default:
        bench_goal_speedup(ctx, "best of blas/lazy <= 1x NumPy's time", "libeh", "numpy", 1.0);
        break;
    }
    if (bench_goal_status(ctx) == 0 && have) {
        bench_goal_reason(ctx, "libeh %.3g ms, NumPy %.3g ms (ratio %.2f)", t_eh * 1e3, t_np * 1e3,
                          t_eh / t_np);
        bench_goal_cpu_reason(ctx, "libeh", "numpy", "NumPy", o->threads,
                              c->group == GRP_UNARY ? 0.5 : 1.0);
    }
    return 0;
}

/* ---- the section ------------------------------------------------------------------------ */

static int run_everyday(bench_ctx *ctx)
{
    const bench_options *o = bench_opts(ctx);
    ev_data d = {0};
    d.n = o->quick ? 40000 : 10000000;
    int64_t mdim = o->quick ? 96 : 4096, sdim = o->quick ? 50 : 1000;
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", bench_build_path(ctx, "bench/data"));
    (void)mkdir(bench_build_path(ctx, "bench"), 0777);
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        bench_error(ctx, "cannot create %s: %s", dir, strerror(errno));
        return -1;
    }
    char *prev = eh_get_backend() ? strdup(eh_get_backend()) : NULL;
    eh_set_backend("ref");
    json_object *manifest = json_object_new_object(), *arrays = json_object_new_object();
    json_object_object_add(manifest, "n", json_object_new_int64(d.n));
    json_object_object_add(manifest, "arrays", arrays);
    d.x = make_input(ctx, dir, "x", 1, &d.n, -3.0f, 3.0f, arrays);
    d.p = make_input(ctx, dir, "p", 1, &d.n, 0.01f, 10.0f, arrays);
    d.m = make_input(ctx, dir, "m", 2, (const int64_t[]){mdim, mdim}, -3.0f, 3.0f, arrays);
    d.s = make_input(ctx, dir, "s", 2, (const int64_t[]){sdim, sdim}, -3.0f, 3.0f, arrays);
    d.x2 = d.x ? eh_reshape(d.x, 2, (const int64_t[]){d.n / 2, 2}) : NULL;
    d.x3 = d.x ? eh_reshape(d.x, 3, (const int64_t[]){1, d.n, 1}) : NULL;
    char mpath[4200];
    snprintf(mpath, sizeof mpath, "%s/manifest.json", dir);
    int rc = 0;
    if (!d.x || !d.p || !d.m || !d.s || !d.x2 || !d.x3 ||
        json_object_to_file_ext(mpath, manifest, JSON_C_TO_STRING_PLAIN) != 0) {
        bench_error(ctx, "could not make the inputs: %s", eh_error_message());
        rc = -1;
    }
    json_object_put(manifest);

    json_object *py = NULL;
    const char *why = NULL;
    if (rc == 0 && o->python) {
        char ids[1024] = "", reps[16], budget[32], per[16];
        for (int k = 0; k < N_CASES; k++)
            snprintf(ids + strlen(ids), sizeof ids - strlen(ids), "%s%s", k ? "," : "", cases[k].id);
        snprintf(reps, sizeof reps, "%d", o->reps);
        snprintf(budget, sizeof budget, "%g", o->budget_s);
        snprintf(per, sizeof per, "%d", VIEW_PER);
        char *args[] = {"--data-dir", dir, "--cases", ids, "--reps", reps, "--budget", budget,
                        "--per", per, NULL};
        py = bench_python(ctx, "numpy_everyday.py", args, &why);
    }
    for (int k = 0; k < N_CASES && rc == 0; k++)
        rc |= run_case(ctx, &cases[k], &d, py, dir);
    if (py && jget(py, "numpy", NULL))
        bench_note(ctx, "reference: NumPy %s on Python %s (its elementwise ops run on one thread)",
                   json_object_get_string(jget(py, "numpy", NULL)),
                   json_object_get_string(jget(py, "python", NULL)));
    else if (o->python)
        bench_note(ctx, "NumPy rows skipped: %s", why ? why : "NumPy not importable");
    eh_release(d.x2);
    eh_release(d.x3);
    eh_release(d.x);
    eh_release(d.p);
    eh_release(d.m);
    eh_release(d.s);
    if (prev)
        eh_set_backend(prev);
    free(prev);
    eh_clear_error();
    return rc ? -1 : 0;
}

BENCH_SECTION(everyday_section, "everyday",
              "libeh against NumPy on everyday ops: vector math, reductions, random, views", 12,
              run_everyday)
