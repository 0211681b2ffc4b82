/* The libeh section of `make bench`: the cases and goals of issue #3.
 *
 *   matmul 1024x1024 f32     blas eh_matmul vs cblas_sgemm called directly  >= 0.95x
 *   elementwise chain 1e7    lazy vs NumPy (>= 4x), numexpr (>= 1.5x),
 *                            one hand-fused C loop (within 1.5x)
 *   add 1e7 f32              blas eager vs NumPy                            >= 1x
 *   sum 1e7 f32              blas vs NumPy                                  >= 1x
 *   add on 1-element         per-op overhead on ref                         <= 100 ns
 *
 * Backends are chosen by name through the public API only (this file is
 * frontend code: <eh/eh.h>); a backend that is not built is replaced by the
 * library's default (the first of eh_list_backends) with a note.  The
 * hand-written C references are in bench/reference/c_reference.c, the
 * NumPy/numexpr ones in bench/reference/numpy_cases.py.
 *
 * Every subject's result is checked against an independent computation
 * before its time is reported: a fast wrong answer is an error. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/stat.h>
#include <json-c/json.h>
#include <eh/eh.h>
#include "bench.h"
#include "reference/c_reference.h"

#define CHAIN_M 0.5
#define CHAIN_S 1.5

typedef struct sizes {
    int64_t n;     /* elements of the elementwise and reduction cases */
    int mm;        /* matmul dimension */
    int64_t k_ops; /* ops per timed run of the overhead case */
} sizes;

/* "1e7" for a power of ten, else the number. */
static const char *count_str(int64_t n, char *buf, size_t cap)
{
    int e = 0;
    int64_t v = n;
    while (v >= 10 && v % 10 == 0) {
        v /= 10;
        e++;
    }
    if (v == 1 && e >= 3)
        snprintf(buf, cap, "1e%d", e);
    else
        snprintf(buf, cap, "%lld", (long long)n);
    return buf;
}

/* ---- data -------------------------------------------------------------- */

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static float uniform01(void)
{
    /* xorshift64*: good enough for benchmark data */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (float)((rng_state * 0x2545f4914f6cdd1dull) >> 40) * (1.0f / 16777216.0f);
}

static float *alloc_floats(int64_t n)
{
    size_t bytes = ((size_t)n * sizeof(float) + 63) / 64 * 64;
    return aligned_alloc(64, bytes ? bytes : 64);
}

/* ---- backends ------------------------------------------------------------ */

/* Switch to backend `want`; if it is not built, to the library's default
 * (first listed) with a note.  Returns the name in use, NULL on failure. */
static const char *use_backend(bench_ctx *ctx, const char *want)
{
    if (eh_set_backend(want) == EH_OK)
        return want;
    eh_clear_error();
    const char *names[32];
    int n = eh_list_backends(names, 32);
    if (n < 1 || eh_set_backend(names[0]) != EH_OK) {
        bench_error(ctx, "no backend to run on: %s", eh_error_message());
        eh_clear_error();
        return NULL;
    }
    bench_note(ctx, "backend %s is not built into this libeh: its row ran on %s, the library's "
                    "default", want, names[0]);
    return names[0];
}

static int eh_failed(bench_ctx *ctx, const char *what)
{
    bench_error(ctx, "%s failed on %s: %s %s", what, eh_get_backend(),
                eh_status_name(eh_last_error()), eh_error_message());
    eh_clear_error();
    return -1;
}

/* ---- the Python references ---------------------------------------------------- */

typedef struct pyref {
    json_object *j;   /* NULL: not available */
    const char *why;  /* when j is NULL */
} pyref;

/* Where the inputs go for the NumPy script (identical inputs), and its
 * results come back: build/bench/data. */
static const char *data_dir(const bench_ctx *ctx)
{
    static char dir[4096];
    snprintf(dir, sizeof dir, "%s", bench_build_path(ctx, "bench/data"));
    return dir;
}

/* Write n floats to data_dir/name.f32; 0 on success. */
static int write_input(bench_ctx *ctx, const char *name, const float *v, int64_t n)
{
    char path[4200];
    (void)mkdir(bench_build_path(ctx, "bench"), 0777);
    (void)mkdir(data_dir(ctx), 0777);
    snprintf(path, sizeof path, "%s/%s.f32", data_dir(ctx), name);
    FILE *f = fopen(path, "wb");
    int ok = f && fwrite(v, sizeof *v, (size_t)n, f) == (size_t)n;
    if (f && fclose(f) != 0)
        ok = 0;
    if (!ok)
        bench_error(ctx, "cannot write %s: %s", path, strerror(errno));
    return ok ? 0 : -1;
}

/* NumPy's saved result of `name` (n floats), or NULL when there is none. */
static float *numpy_result(const bench_ctx *ctx, const pyref *py, const char *name, int64_t n)
{
    if (!py->j)
        return NULL;
    char path[4200];
    snprintf(path, sizeof path, "%s/%s.numpy", data_dir(ctx), name);
    FILE *f = fopen(path, "rb");
    float *v = f ? malloc((size_t)n * sizeof *v) : NULL;
    if (v && fread(v, sizeof *v, (size_t)n, f) != (size_t)n) {
        free(v);
        v = NULL;
    }
    if (f)
        fclose(f);
    return v;
}

static pyref run_python(bench_ctx *ctx, const sizes *sz)
{
    const bench_options *o = bench_opts(ctx);
    char n[32], reps[32], budget[32], threads[32], m[32], s[32];
    snprintf(n, sizeof n, "%lld", (long long)sz->n);
    snprintf(reps, sizeof reps, "%d", o->reps);
    snprintf(budget, sizeof budget, "%g", o->budget_s);
    snprintf(threads, sizeof threads, "%d", o->threads);
    snprintf(m, sizeof m, "%g", CHAIN_M);
    snprintf(s, sizeof s, "%g", CHAIN_S);
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", data_dir(ctx));
    char *args[] = {"--n", n, "--reps", reps, "--budget", budget, "--threads", threads,
                    "--m", m, "--s", s, "--data-dir", dir, NULL};
    pyref r;
    r.j = bench_python(ctx, "numpy_cases.py", args, &r.why);
    return r;
}

static json_object *jpath(json_object *o, const char *a, const char *b, const char *c)
{
    const char *keys[3] = {a, b, c};
    for (int k = 0; k < 3 && o && keys[k]; k++) {
        json_object *v;
        o = json_object_object_get_ex(o, keys[k], &v) ? v : NULL;
    }
    return o;
}

static const char *jpath_str(json_object *o, const char *a, const char *b)
{
    json_object *v = jpath(o, a, b, NULL);
    return v && json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
}

/* A row from the Python output, or a skipped row saying why. */
static void python_row(bench_ctx *ctx, const pyref *py, const char *kase, const char *lib,
                       const char *label)
{
    if (!py->j) {
        bench_row_skipped(ctx, lib, label, "%s", py->why);
        return;
    }
    json_object *st = jpath(py->j, "cases", kase, lib);
    json_object *med = jpath(st, "median_s", NULL, NULL), *mn = jpath(st, "min_s", NULL, NULL),
                *mx = jpath(st, "max_s", NULL, NULL), *reps = jpath(st, "reps", NULL, NULL);
    if (!med || !mn || !mx || !reps) {
        const char *missing = jpath_str(py->j, "missing", lib);
        const char *pkg = strcmp(lib, "numpy") == 0 ? "python3-numpy" : "python3-numexpr";
        if (missing)
            bench_row_skipped(ctx, lib, label, "%s not importable by %s (%s; `make bench` installs "
                              "%s when run as root)", lib, bench_python_path(ctx), missing, pkg);
        else if (jpath_str(py->j, "missing", "numpy"))
            bench_row_skipped(ctx, lib, label, "needs NumPy, which %s cannot import (%s)",
                              bench_python_path(ctx), jpath_str(py->j, "missing", "numpy"));
        else
            bench_row_skipped(ctx, lib, label, "no result from numpy_cases.py");
        return;
    }
    bench_stats s = {json_object_get_double(med), json_object_get_double(mn),
                     json_object_get_double(mx), json_object_get_int(reps),
                     json_object_get_double(jpath(st, "cpu_median_s", NULL, NULL))};
    bench_row(ctx, lib, label, &s, 1, NULL);
}

static void python_versions_note(bench_ctx *ctx, const pyref *py)
{
    if (!py->j)
        return;
    const char *np = jpath_str(py->j, "numpy", NULL), *ne = jpath_str(py->j, "numexpr", NULL);
    json_object *th = jpath(py->j, "numexpr_threads", NULL, NULL);
    char nebuf[96] = "numexpr not available";
    if (ne)
        snprintf(nebuf, sizeof nebuf, "numexpr %s with %d threads", ne, th ? json_object_get_int(th) : 0);
    bench_note(ctx, "references: Python %s (%s), NumPy %s (its elementwise ops and sums run on one "
                    "thread), %s",
               jpath_str(py->j, "python", NULL), jpath_str(py->j, "executable", NULL),
               np ? np : "not available", nebuf);
}

/* ---- matmul ------------------------------------------------------------------------- */

typedef struct mm_arg {
    bench_ctx *ctx;
    eh_tensor *a, *b;
    const float *ha, *hb;
    float *out; /* the last result, for the check */
    int n;
    int threads;
} mm_arg;

static int mm_eh(void *p)
{
    mm_arg *m = p;
    eh_tensor *r = eh_matmul(m->a, m->b);
    if (!r || eh_eval(r) != EH_OK)
        return eh_failed(m->ctx, "matmul"), eh_release(r), -1;
    eh_release(r);
    return 0;
}

static int mm_direct(void *p)
{
    mm_arg *m = p;
    float *c = alloc_floats((int64_t)m->n * m->n);
    if (!c || cref_sgemm(m->n, m->ha, m->hb, c, m->threads) != 0) {
        free(c);
        bench_error(m->ctx, "cblas_sgemm could not run");
        return -1;
    }
    free(c);
    return 0;
}

/* Max relative error of c = a b at 97 sampled entries, against a double dot. */
static double mm_check(const float *a, const float *b, const float *c, int n)
{
    double worst = 0;
    for (int k = 0; k < 97; k++) {
        int i = (int)(((int64_t)k * 7919) % n), j = (int)(((int64_t)k * 104729 + 13) % n);
        double acc = 0;
        for (int t = 0; t < n; t++)
            acc += (double)a[(int64_t)i * n + t] * b[(int64_t)t * n + j];
        double err = fabs(c[(int64_t)i * n + j] - acc) / (fabs(acc) > 1 ? fabs(acc) : 1);
        if (err > worst)
            worst = err;
    }
    return worst;
}

static int case_matmul(bench_ctx *ctx, const sizes *sz)
{
    const bench_options *o = bench_opts(ctx);
    int n = sz->mm;
    char title[96];
    snprintf(title, sizeof title, "matmul %dx%d f32", n, n);
    bench_case(ctx, "matmul", title);
    const char *be = use_backend(ctx, "blas");
    if (!be)
        return -1;
    int64_t nn = (int64_t)n * n;
    float *ha = alloc_floats(nn), *hb = alloc_floats(nn), *hc = alloc_floats(nn);
    int rc = -1;
    eh_tensor *a = NULL, *b = NULL, *r = NULL;
    if (!ha || !hb || !hc) {
        bench_error(ctx, "out of memory");
        goto out;
    }
    for (int64_t i = 0; i < nn; i++) {
        ha[i] = uniform01();
        hb[i] = uniform01();
    }
    const int64_t shape[2] = {n, n};
    a = eh_convert_to_tensor(ha, 2, shape, EH_F32);
    b = eh_convert_to_tensor(hb, 2, shape, EH_F32);
    if (!a || !b) {
        eh_failed(ctx, "convert_to_tensor");
        goto out;
    }
    mm_arg arg = {ctx, a, b, ha, hb, hc, n, o->threads};
    bench_stats st, st_direct;
    char label[96];
    snprintf(label, sizeof label, "%s: eh_matmul", be);
    /* with the direct call: alternate runs, so a load that changes while
     * they run (a shared machine) cannot favour one of them */
    if (cref_blas_name() ? bench_time_pair(ctx, mm_eh, &arg, &st, mm_direct, &arg, &st_direct) != 0
                         : bench_time(ctx, mm_eh, &arg, &st) != 0)
        goto out;
    r = eh_matmul(a, b);
    if (!r || eh_to_buffer(r, hc, (size_t)nn * sizeof(float)) != EH_OK) {
        eh_failed(ctx, "matmul");
        goto out;
    }
    double err = mm_check(ha, hb, hc, n);
    if (err > 1e-4) {
        bench_error(ctx, "eh_matmul on %s is wrong: relative error %.3g at sampled entries", be, err);
        goto out;
    }
    bench_row(ctx, "libeh", label, &st, 1, NULL);

    if (cref_blas_name()) {
        snprintf(label, sizeof label, "%s directly (%d threads)", cref_blas_name(), o->threads);
        bench_row(ctx, "direct", label, &st_direct, 1, NULL);
    } else {
        bench_row_skipped(ctx, "direct", "cblas_sgemm directly",
                          "no BLAS linked: libeh was built without the blas backend");
    }
    bench_goal_speedup(ctx, "blas >= 0.95x cblas_sgemm direct", "libeh", "direct", 0.95);
    if (strcmp(be, "blas") != 0)
        bench_goal_reason(ctx, "the blas backend is not built; the case ran on %s", be);
    else if (bench_goal_status(ctx) == 0)
        bench_goal_reason(ctx, "not known: eh_matmul on blas should add only validation, "
                               "allocation and dispatch around cblas_sgemm; check the min "
                               "column (noise) and OpenBLAS's thread count (the direct call "
                               "sets %d)", o->threads);
    rc = 0;
out:
    eh_release(a);
    eh_release(b);
    eh_release(r);
    free(ha);
    free(hb);
    free(hc);
    return rc;
}

/* ---- the elementwise chain ------------------------------------------------------------ */

typedef struct chain_arg {
    bench_ctx *ctx;
    eh_tensor *x;
    const float *hx;
    int64_t n;
    int threads;
} chain_arg;

static eh_tensor *chain_expr(const eh_tensor *x)
{
    /* sqrt(abs(tanh((x - m) / s) * 3 + 1)) */
    return eh_sqrt(eh_abs(eh_add_scalar(
        eh_multiply_scalar(eh_tanh(eh_divide_scalar(eh_subtract_scalar(x, CHAIN_M), CHAIN_S)), 3.0),
        1.0)));
}

static int chain_eh(void *p)
{
    chain_arg *c = p;
    eh_scope_begin();
    eh_tensor *r = chain_expr(c->x);
    int ok = r && eh_eval(r) == EH_OK;
    eh_scope_end();
    return ok ? 0 : eh_failed(c->ctx, "the chain");
}

static int chain_c(void *p)
{
    chain_arg *c = p;
    float *out = cref_alloc(c->n, 1); /* fresh, huge pages: as NumPy allocates */
    if (!out) {
        bench_error(c->ctx, "out of memory");
        return -1;
    }
    cref_chain(c->hx, out, c->n, (float)CHAIN_M, (float)CHAIN_S, c->threads);
    free(out);
    return 0;
}

/* Max |libeh^2 - other^2| of the chain on the current backend, against
 * another implementation's results (the hand-fused loop's, NumPy's). */
static int chain_check(bench_ctx *ctx, const chain_arg *c, const float *expect, double *err)
{
    eh_scope_begin();
    eh_tensor *r = chain_expr(c->x);
    const float *v = r ? eh_data_f32(r) : NULL;
    if (!v || eh_get_dtype(r) != EH_F32) {
        eh_scope_end();
        return v ? (bench_error(ctx, "the chain's result is not f32"), -1) : eh_failed(ctx, "the chain");
    }
    /* compared squared, |3 tanh + 1| itself: near 0 the sqrt turns a few
     * ulps of tanh into a large relative difference */
    double worst = 0;
    for (int64_t i = 0; i < c->n; i++) {
        double d = fabs((double)v[i] * v[i] - (double)expect[i] * expect[i]);
        if (!(d <= worst))
            worst = d; /* NaN sticks */
    }
    eh_scope_end();
    *err = worst;
    return 0;
}

static int case_chain(bench_ctx *ctx, const sizes *sz, const pyref *py, const float *hx)
{
    const bench_options *o = bench_opts(ctx);
    char title[128];
    char cnt[32];
    snprintf(title, sizeof title, "elementwise chain sqrt(abs(tanh((x-m)/s)*3+1)), %s f32",
             count_str(sz->n, cnt, sizeof cnt));
    bench_case(ctx, "chain", title);
    const char *names[32];
    int nb = eh_list_backends(names, 32);
    const char *be = use_backend(ctx, "lazy");
    if (!be)
        return -1;
    const int64_t shape[1] = {sz->n};
    eh_tensor *x = eh_convert_to_tensor(hx, 1, shape, EH_F32);
    float *expect = alloc_floats(sz->n);
    int rc = -1;
    if (!x || !expect) {
        if (!x)
            eh_failed(ctx, "convert_to_tensor");
        else
            bench_error(ctx, "out of memory");
        goto out;
    }
    cref_chain(hx, expect, sz->n, (float)CHAIN_M, (float)CHAIN_S, o->threads);
    chain_arg arg = {ctx, x, hx, sz->n, o->threads};
    bench_stats st;
    char label[128];
    double err;

    /* subject: lazy (fused) */
    if (bench_time(ctx, chain_eh, &arg, &st) != 0 || chain_check(ctx, &arg, expect, &err) != 0)
        goto out;
    if (!(err <= 1e-5)) {
        bench_error(ctx, "the chain on %s is wrong: max |error| %.3g", be, err);
        goto out;
    }
    float *np_chain = numpy_result(ctx, py, "chain", sz->n);
    if (np_chain) { /* and against NumPy on the same inputs */
        int bad = chain_check(ctx, &arg, np_chain, &err) != 0 || !(err <= 1e-5);
        free(np_chain);
        if (bad) {
            bench_error(ctx, "the chain on %s differs from NumPy's: max |diff of squares| %.3g", be, err);
            goto out;
        }
        bench_note(ctx, "the result was checked against the hand-fused loop's and NumPy's "
                        "(same inputs) before timing: squares within 1e-5");
    }
    snprintf(label, sizeof label, "%s: fused chain + eh_eval", be);
    bench_row(ctx, "libeh", label, &st, 1, NULL);

    python_row(ctx, py, "chain", "numpy", "NumPy");
    if (py->j) {
        json_object *th = jpath(py->j, "numexpr_threads", NULL, NULL);
        snprintf(label, sizeof label, "numexpr (%d threads)", th ? json_object_get_int(th) : o->threads);
    } else {
        snprintf(label, sizeof label, "numexpr");
    }
    python_row(ctx, py, "chain", "numexpr", label);

    snprintf(label, sizeof label, "hand-fused C loop (%d threads)", o->threads);
    if (bench_time(ctx, chain_c, &arg, &st) != 0)
        goto out;
    bench_row(ctx, "c", label, &st, 1, NULL);
    if (o->threads != 1) {
        chain_arg one = arg;
        one.threads = 1;
        if (bench_time(ctx, chain_c, &one, &st) != 0)
            goto out;
        bench_row(ctx, "c1", "hand-fused C loop (1 thread, for scale)", &st, 1, NULL);
    }
    /* the same chain eagerly on every other backend: what fusion saves */
    for (int k = 0; k < nb && k < 32; k++) {
        if (strcmp(names[k], be) == 0 || eh_set_backend(names[k]) != EH_OK)
            continue;
        snprintf(label, sizeof label, "%s: same chain, op by op (for scale)", names[k]);
        if (bench_time(ctx, chain_eh, &arg, &st) != 0 || chain_check(ctx, &arg, expect, &err) != 0)
            goto out;
        if (!(err <= 1e-5)) {
            bench_error(ctx, "the chain on %s is wrong: max |error| %.3g", names[k], err);
            goto out;
        }
        char id[48];
        snprintf(id, sizeof id, "eager-%s", names[k]);
        bench_row(ctx, id, label, &st, 1, NULL);
    }
    python_versions_note(ctx, py);
    bench_note(ctx, "the hand-fused loop is bench/reference/c_reference.c, compiled with libeh's "
                    "flags, with %s; it uses the same %d thread%s as libeh (EH_NUM_THREADS or "
                    "the core count)", cref_chain_math(), o->threads, o->threads == 1 ? "" : "s");

    double t_lazy = 0, t_c = 0, t_np = 0, t_ne = 0;
    int have = bench_row_time(ctx, "libeh", &t_lazy) && bench_row_time(ctx, "c", &t_c);
    json_object *tanh_med = jpath(py->j, "cases", "chain", "numpy_tanh");
    tanh_med = jpath(tanh_med, "median_s", NULL, NULL);

    bench_goal_speedup(ctx, "lazy >= 4x NumPy", "libeh", "numpy", 4.0);
    if (strcmp(be, "lazy") != 0)
        bench_goal_reason(ctx, "the lazy backend is not built; the case ran on %s", be);
    else if (bench_goal_status(ctx) == 0 && have && bench_row_time(ctx, "numpy", &t_np)) {
        double t_one = t_c;
        bench_row_time(ctx, "c1", &t_one);
        bench_goal_reason(ctx, "lazy takes %.3g ms, NumPy %.3g ms (np.tanh alone %.3g ms); the "
                               "hand-fused C loop %.3g ms on %d threads, %.3g ms on one",
                          t_lazy * 1e3, t_np * 1e3,
                          tanh_med ? json_object_get_double(tanh_med) * 1e3 : 0.0, t_c * 1e3,
                          o->threads, t_one * 1e3);
        bench_goal_cpu_reason(ctx, "libeh", "numpy", "NumPy", o->threads, 0.25);
    }
    bench_goal_speedup(ctx, "lazy >= 1.5x numexpr", "libeh", "numexpr", 1.5);
    if (strcmp(be, "lazy") != 0)
        bench_goal_reason(ctx, "the lazy backend is not built; the case ran on %s", be);
    else if (bench_goal_status(ctx) == 0 && have && bench_row_time(ctx, "numexpr", &t_ne)) {
        bench_goal_reason(ctx, "lazy takes %.3g ms, %.2fx the hand-fused C loop (%.3g ms, the "
                               "same vector math); numexpr %.3g ms on %d threads",
                          t_lazy * 1e3, t_lazy / t_c, t_c * 1e3, t_ne * 1e3, o->threads);
    }
    bench_goal_speedup(ctx, "lazy within 1.5x of the hand-fused C loop", "libeh", "c", 1.0 / 1.5);
    double t_c1 = 0;
    if (strcmp(be, "lazy") != 0)
        bench_goal_reason(ctx, "the lazy backend is not built; the case ran on %s", be);
    else if (bench_goal_status(ctx) == 0 && have)
        bench_goal_reason(ctx, "not known: lazy takes %.3g ms, the hand-fused loop %.3g ms on %d "
                               "threads%s; lazy's per-block overhead (a kernel call per node per "
                               "8192 elements) or uneven thread scheduling are the candidates",
                          t_lazy * 1e3, t_c * 1e3, o->threads,
                          bench_row_time(ctx, "c1", &t_c1) ? " (one thread: see the table)" : "");
    rc = 0;
out:
    eh_release(x);
    free(expect);
    return rc;
}

/* ---- add and sum on 1e7 f32 ------------------------------------------------------------ */

typedef struct vec_arg {
    bench_ctx *ctx;
    eh_tensor *x, *y;
    const float *hx, *hy;
    int64_t n;
    int threads;
    int huge;     /* C loop: madvise(MADV_HUGEPAGE) the fresh result      */
    float *reuse; /* C loop: write here instead of a fresh result      */
} vec_arg;

static int add_eh(void *p)
{
    vec_arg *v = p;
    eh_tensor *r = eh_add(v->x, v->y);
    if (!r || eh_eval(r) != EH_OK)
        return eh_release(r), eh_failed(v->ctx, "add");
    eh_release(r);
    return 0;
}

static int add_c(void *p)
{
    vec_arg *v = p;
    float *out = v->reuse ? v->reuse : cref_alloc(v->n, v->huge);
    if (!out) {
        bench_error(v->ctx, "out of memory");
        return -1;
    }
    cref_add(v->hx, v->hy, out, v->n, v->threads);
    if (!v->reuse)
        free(out);
    return 0;
}

static int sum_eh(void *p)
{
    vec_arg *v = p;
    eh_tensor *r = eh_sum(v->y, NULL, 0, 0);
    if (!r || eh_eval(r) != EH_OK)
        return eh_release(r), eh_failed(v->ctx, "sum");
    eh_release(r);
    return 0;
}

static int case_add(bench_ctx *ctx, const sizes *sz, const pyref *py, vec_arg *arg)
{
    const bench_options *o = bench_opts(ctx);
    char title[96], label[96];
    char cnt[32];
    snprintf(title, sizeof title, "add %s f32, eager", count_str(sz->n, cnt, sizeof cnt));
    bench_case(ctx, "add", title);
    const char *be = use_backend(ctx, "blas");
    if (!be)
        return -1;
    bench_stats st;
    if (bench_time(ctx, add_eh, arg, &st) != 0)
        return -1;
    /* check */
    eh_tensor *r = eh_add(arg->x, arg->y);
    const float *v = r ? eh_data_f32(r) : NULL;
    if (!v) {
        eh_release(r);
        return eh_failed(ctx, "add");
    }
    float *np_add = numpy_result(ctx, py, "add", sz->n);
    for (int64_t i = 0; i < sz->n; i++)
        if (v[i] != arg->hx[i] + arg->hy[i] || (np_add && v[i] != np_add[i])) {
            bench_error(ctx, "eh_add on %s is wrong at %lld", be, (long long)i);
            eh_release(r);
            free(np_add);
            return -1;
        }
    free(np_add);
    eh_release(r);
    snprintf(label, sizeof label, "%s: eh_add", be);
    bench_row(ctx, "libeh", label, &st, 1, NULL);
    python_row(ctx, py, "add", "numpy", "NumPy");
    /* C loops, to tell the arithmetic from the cost of a fresh result */
    vec_arg c = *arg;
    snprintf(label, sizeof label, "C loop, fresh result (%d threads)", o->threads);
    if (bench_time(ctx, add_c, &c, &st) != 0)
        return -1;
    bench_row(ctx, "c", label, &st, 1, NULL);
    c.huge = 1;
    snprintf(label, sizeof label, "C loop, fresh result, MADV_HUGEPAGE");
    if (bench_time(ctx, add_c, &c, &st) != 0)
        return -1;
    bench_row(ctx, "c-huge", label, &st, 1, NULL);
    c.huge = 0;
    c.reuse = alloc_floats(sz->n);
    if (!c.reuse) {
        bench_error(ctx, "out of memory");
        return -1;
    }
    snprintf(label, sizeof label, "C loop into a reused buffer");
    int bad = bench_time(ctx, add_c, &c, &st);
    free(c.reuse);
    if (bad)
        return -1;
    bench_row(ctx, "c-reuse", label, &st, 1, NULL);
    bench_note(ctx, "each run allocates its %.3g MB result, as eh_add and np.add do; the first "
                    "touch of the fresh pages is part of the cost. NumPy madvise()s large "
                    "arrays for transparent huge pages; the C rows show what that and "
                    "reusing a buffer change",
               (double)sz->n * 4 / 1e6);
    bench_goal_speedup(ctx, "blas eager add >= NumPy", "libeh", "numpy", 1.0);
    double t_c, t_huge, t_reuse, t_np;
    if (strcmp(be, "blas") != 0) {
        bench_goal_reason(ctx, "the blas backend is not built; the case ran on %s", be);
    } else if (bench_goal_status(ctx) == 0 && bench_row_time(ctx, "c", &t_c) &&
               bench_row_time(ctx, "c-huge", &t_huge) && bench_row_time(ctx, "c-reuse", &t_reuse) &&
               bench_row_time(ctx, "numpy", &t_np)) {
        if (t_huge < 0.8 * t_c)
            bench_goal_reason(ctx, "the time is mostly the first touch of the fresh result: a "
                                   "C loop takes %.3g ms with a fresh result, %.3g ms with huge "
                                   "pages (what NumPy asks for), %.3g ms into a reused buffer; "
                                   "libeh's results are not madvise()d",
                              t_c * 1e3, t_huge * 1e3, t_reuse * 1e3);
        else
            bench_goal_reason(ctx, "not known: C loops take %.3g ms (fresh result), %.3g ms "
                                   "(huge pages), %.3g ms (reused buffer), NumPy %.3g ms",
                              t_c * 1e3, t_huge * 1e3, t_reuse * 1e3, t_np * 1e3);
    }
    return 0;
}

static int case_sum(bench_ctx *ctx, const sizes *sz, const pyref *py, vec_arg *arg)
{
    char title[96], label[96];
    char cnt[32];
    snprintf(title, sizeof title, "sum %s f32 (all axes)", count_str(sz->n, cnt, sizeof cnt));
    bench_case(ctx, "sum", title);
    const char *be = use_backend(ctx, "blas");
    if (!be)
        return -1;
    bench_stats st;
    if (bench_time(ctx, sum_eh, arg, &st) != 0)
        return -1;
    eh_tensor *r = eh_sum(arg->y, NULL, 0, 0);
    double got = r ? eh_item(r) : 0;
    eh_release(r);
    if (!r || eh_last_error() != EH_OK)
        return eh_failed(ctx, "sum");
    double expect = 0;
    for (int64_t i = 0; i < sz->n; i++)
        expect += arg->hy[i];
    if (!(fabs(got - expect) <= 1e-5 * fabs(expect) + 1e-3)) {
        bench_error(ctx, "eh_sum on %s is wrong: %.9g, expected %.9g", be, got, expect);
        return -1;
    }
    json_object *npv = jpath(py->j, "cases", "sum", "value");
    if (npv && !(fabs(got - json_object_get_double(npv)) <= 1e-5 * fabs(expect) + 1e-3)) {
        bench_error(ctx, "eh_sum on %s differs from NumPy's: %.9g, NumPy %.9g", be, got,
                    json_object_get_double(npv));
        return -1;
    }
    snprintf(label, sizeof label, "%s: eh_sum", be);
    bench_row(ctx, "libeh", label, &st, 1, NULL);
    python_row(ctx, py, "sum", "numpy", "NumPy");
    bench_goal_speedup(ctx, "blas sum >= NumPy", "libeh", "numpy", 1.0);
    if (strcmp(be, "blas") != 0)
        bench_goal_reason(ctx, "the blas backend is not built; the case ran on %s", be);
    else if (bench_goal_status(ctx) == 0)
        bench_goal_reason(ctx, "libeh sums f32 in double with compensated summation "
                               "(<eh/reduction.h>), NumPy in f32 pairwise: libeh buys accuracy "
                               "with more work per element");
    return 0;
}

/* ---- per-op overhead ------------------------------------------------------------------------ */

typedef struct ovh_arg {
    bench_ctx *ctx;
    eh_tensor *a, *b;
    int64_t k;
} ovh_arg;

static int overhead_eh(void *p)
{
    ovh_arg *o = p;
    for (int64_t i = 0; i < o->k; i++) {
        eh_tensor *r = eh_add(o->a, o->b);
        if (!r || eh_eval(r) != EH_OK)
            return eh_release(r), eh_failed(o->ctx, "add");
        eh_release(r);
    }
    return 0;
}

static int case_overhead(bench_ctx *ctx, const sizes *sz)
{
    bench_case(ctx, "overhead", "add on 1-element f32 tensors: per-op overhead");
    const char *names[32];
    int nb = eh_list_backends(names, 32);
    const char *be = use_backend(ctx, "ref");
    if (!be)
        return -1;
    const int64_t shape[1] = {1};
    const float one = 1.0f, two = 2.0f;
    ovh_arg arg = {ctx, eh_convert_to_tensor(&one, 1, shape, EH_F32),
                   eh_convert_to_tensor(&two, 1, shape, EH_F32), sz->k_ops};
    int rc = -1;
    if (!arg.a || !arg.b) {
        eh_failed(ctx, "convert_to_tensor");
        goto out;
    }
    bench_stats st;
    char label[96];
    snprintf(label, sizeof label, "%s: eh_add + eh_release", be);
    if (bench_time(ctx, overhead_eh, &arg, &st) != 0)
        goto out;
    bench_row(ctx, "libeh", label, &st, (double)sz->k_ops, "op");
    for (int k = 0; k < nb && k < 32; k++) {
        if (strcmp(names[k], be) == 0 || eh_set_backend(names[k]) != EH_OK)
            continue;
        snprintf(label, sizeof label, "%s: eh_add + eh_eval + eh_release", names[k]);
        char id[48];
        snprintf(id, sizeof id, "other-%s", names[k]);
        if (bench_time(ctx, overhead_eh, &arg, &st) != 0)
            goto out;
        bench_row(ctx, id, label, &st, (double)sz->k_ops, "op");
    }
    bench_note(ctx, "%lld ops per timed run; each op validates, allocates the result, dispatches, "
                    "runs the kernel and frees the result",
               (long long)sz->k_ops);
    bench_goal_max_time(ctx, "ref <= 100 ns per op", "libeh", 100e-9);
    double t_op;
    if (strcmp(be, "ref") != 0)
        bench_goal_reason(ctx, "the ref backend is not built; the case ran on %s", be);
    else if (bench_goal_status(ctx) == 0 && bench_row_time(ctx, "libeh", &t_op))
        bench_goal_reason(ctx, "%.0f ns over: the time is spread over the frontend's checks "
                               "and shape/dtype inference, building the eh_op_call, allocating "
                               "and freeing the result, and dispatch; there is no single hot "
                               "spot to remove (bench/README.md has a profile)",
                          (t_op - 100e-9) * 1e9);
    rc = 0;
out:
    eh_release(arg.a);
    eh_release(arg.b);
    return rc;
}

/* ---- the section ------------------------------------------------------------------------------ */

static int run_libeh(bench_ctx *ctx)
{
    const bench_options *o = bench_opts(ctx);
    sizes sz = {10000000, 1024, 200000};
    if (o->quick) {
        sz.n = 20000;
        sz.mm = 64;
        sz.k_ops = 1000;
    }
    char *prev = NULL;
    const char *cur = eh_get_backend();
    if (cur)
        prev = strdup(cur);
    eh_clear_error();

    int rc = 0;
    float *hx = alloc_floats(sz.n), *hy = alloc_floats(sz.n);
    eh_tensor *x = NULL, *y = NULL;
    if (!hx || !hy) {
        bench_error(ctx, "out of memory");
        rc = -1;
        goto out;
    }
    for (int64_t i = 0; i < sz.n; i++) {
        hx[i] = uniform01() * 6.0f - 3.0f;
        hy[i] = uniform01();
    }

    rc |= case_matmul(ctx, &sz);

    /* The Python references run once, for the three cases that use them,
     * on these very inputs. */
    if (write_input(ctx, "x", hx, sz.n) != 0 || write_input(ctx, "y", hy, sz.n) != 0) {
        rc = -1;
        goto out;
    }
    pyref py = run_python(ctx, &sz);
    rc |= case_chain(ctx, &sz, &py, hx);

    const int64_t shape[1] = {sz.n};
    x = eh_convert_to_tensor(hx, 1, shape, EH_F32);
    y = eh_convert_to_tensor(hy, 1, shape, EH_F32);
    if (!x || !y) {
        rc = eh_failed(ctx, "convert_to_tensor");
        goto out;
    }
    vec_arg va = {ctx, x, y, hx, hy, sz.n, o->threads, 0, NULL};
    rc |= case_add(ctx, &sz, &py, &va);
    rc |= case_sum(ctx, &sz, &py, &va);
    rc |= case_overhead(ctx, &sz);
out:
    eh_release(x);
    eh_release(y);
    free(hx);
    free(hy);
    if (prev)
        eh_set_backend(prev);
    free(prev);
    eh_clear_error();
    return rc ? -1 : 0;
}

BENCH_SECTION(libeh_section, "libeh", "libeh: backends against direct calls, NumPy and numexpr", 10,
              run_libeh)
