/* Implementation of tests/support/conformance.h. */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "conformance.h"

/* ---- backends ------------------------------------------------------------ */

int cf_backends(const char **names)
{
    const char *all[CF_MAX_BACKENDS];
    int n = eh_list_backends(all, CF_MAX_BACKENDS);
    if (n > CF_MAX_BACKENDS)
        fail_msg("more than %d backends: raise CF_MAX_BACKENDS", CF_MAX_BACKENDS);
    int k = 0, has_ref = 0;
    for (int b = 0; b < n; b++)
        if (strcmp(all[b], "ref") == 0)
            has_ref = 1;
    if (!has_ref)
        fail_msg("no 'ref' backend in this libeh");
    names[k++] = "ref";
    for (int b = 0; b < n; b++)
        if (strcmp(all[b], "ref") != 0)
            names[k++] = all[b];
    return k;
}

/* ---- deterministic host inputs ------------------------------------------ */

void cf_rng_seed(cf_rng *r, uint64_t seed)
{
    r->s = seed;
}

void cf_rng_seed_str(cf_rng *r, const char *s)
{
    uint64_t h = 0xcbf29ce484222325u;
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 0x100000001b3u;
    }
    r->s = h;
}

/* splitmix64 */
uint64_t cf_rng_u64(cf_rng *r)
{
    uint64_t z = (r->s += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

double cf_rng_uniform(cf_rng *r, double lo, double hi)
{
    double u = (double)(cf_rng_u64(r) >> 11) * 0x1p-53;
    return lo + (hi - lo) * u;
}

int64_t cf_rng_int(cf_rng *r, int64_t lo, int64_t hi)
{
    uint64_t span = (uint64_t)hi - (uint64_t)lo + 1u;
    if (span == 0)
        return (int64_t)cf_rng_u64(r);
    return (int64_t)((uint64_t)lo + cf_rng_u64(r) % span);
}

static void store(void *data, eh_dtype dt, int64_t k, double v)
{
    switch (dt) {
    case EH_F16: ((uint16_t *)data)[k] = eh_f32_to_f16((float)v); break;
    case EH_F32: ((float *)data)[k] = (float)v; break;
    case EH_F64: ((double *)data)[k] = v; break;
    case EH_I32: ((int32_t *)data)[k] = (int32_t)v; break;
    case EH_I64: ((int64_t *)data)[k] = (int64_t)v; break;
    case EH_BOOL: ((uint8_t *)data)[k] = v != 0.0; break;
    default: break;
    }
}

static int64_t shape_size(int ndim, const int64_t *shape)
{
    int64_t n = 1;
    for (int d = 0; d < ndim; d++)
        n *= shape[d];
    return n;
}

static double special_float(cf_rng *r, eh_dtype dt)
{
    static const double vals[] = {NAN,  INFINITY, -INFINITY, 0.0,     -0.0, 1.0,
                                  -1.0, 0.5,      -2.5,      65504.0, 1e-5};
    double v = vals[cf_rng_u64(r) % (sizeof vals / sizeof vals[0])];
    (void)dt;
    return v;
}

eh_tensor *cf_random(cf_rng *r, eh_dtype dt, int ndim, const int64_t *shape, cf_values v)
{
    int64_t n = shape_size(ndim, shape);
    size_t es = eh_dtype_size(dt);
    if (es == 0)
        fail_msg("cf_random: bad dtype %d", (int)dt);
    void *buf = calloc((size_t)(n > 0 ? n : 1), es);
    assert_non_null(buf);
    int is_float = eh_dtype_is_float(dt);
    for (int64_t k = 0; k < n; k++) {
        if (dt == EH_BOOL) {
            uint8_t b = (uint8_t)(cf_rng_u64(r) >> 63);
            if (v == CF_V_POSITIVE)
                b = 1;
            ((uint8_t *)buf)[k] = b;
            continue;
        }
        if (v == CF_V_SPECIAL && cf_rng_u64(r) % 4 == 0) {
            if (is_float) {
                store(buf, dt, k, special_float(r, dt));
            } else {
                int64_t mn = dt == EH_I32 ? INT32_MIN : INT64_MIN;
                int64_t mx = dt == EH_I32 ? INT32_MAX : INT64_MAX;
                int64_t vals[5] = {0, 1, -1, mn, mx};
                int64_t x = vals[cf_rng_u64(r) % 5];
                if (dt == EH_I32)
                    ((int32_t *)buf)[k] = (int32_t)x;
                else
                    ((int64_t *)buf)[k] = x;
            }
            continue;
        }
        double x;
        switch (v) {
        case CF_V_POSITIVE:
            x = is_float ? cf_rng_uniform(r, 0.25, 4.0) : (double)cf_rng_int(r, 1, 20);
            break;
        case CF_V_UNIT:
            x = is_float ? cf_rng_uniform(r, -1.0, 1.0) : (double)cf_rng_int(r, -2, 2);
            break;
        case CF_V_SMALLINT: x = (double)cf_rng_int(r, -4, 4); break;
        default:
            x = is_float ? cf_rng_uniform(r, -4.0, 4.0) : (double)cf_rng_int(r, -20, 20);
            break;
        }
        store(buf, dt, k, x);
    }
    eh_tensor *t = eh_convert_to_tensor(buf, ndim, shape, dt);
    free(buf);
    if (!t)
        fail_msg("cf_random: %s", eh_error_message());
    return t;
}

eh_tensor *cf_tensor(eh_dtype dt, int ndim, const int64_t *shape, const double *values)
{
    int64_t n = shape_size(ndim, shape);
    size_t es = eh_dtype_size(dt);
    void *buf = calloc((size_t)(n > 0 ? n : 1), es ? es : 1);
    assert_non_null(buf);
    for (int64_t k = 0; k < n; k++) {
        double x = values[k];
        if (dt == EH_I32 || dt == EH_I64) { /* as eh_cast: truncate, saturate, NaN -> 0 */
            int64_t v = x != x                        ? 0
                        : x >= 9223372036854775807.0  ? INT64_MAX
                        : x <= -9223372036854775808.0 ? INT64_MIN
                                                      : (int64_t)x;
            if (dt == EH_I64)
                ((int64_t *)buf)[k] = v;
            else
                ((int32_t *)buf)[k] = v > INT32_MAX   ? INT32_MAX
                                      : v < INT32_MIN ? INT32_MIN
                                                      : (int32_t)v;
            continue;
        }
        store(buf, dt, k, x);
    }
    eh_tensor *t = eh_convert_to_tensor(buf, ndim, shape, dt);
    free(buf);
    if (!t)
        fail_msg("cf_tensor: %s", eh_error_message());
    return t;
}

/* Element k of a materialized tensor as a double. */
static double load(const eh_tensor *t, const void *data, int64_t k)
{
    switch (eh_get_dtype(t)) {
    case EH_F16: return eh_f16_to_f32(((const uint16_t *)data)[k]);
    case EH_F32: return ((const float *)data)[k];
    case EH_F64: return ((const double *)data)[k];
    case EH_I32: return ((const int32_t *)data)[k];
    case EH_I64: return (double)((const int64_t *)data)[k];
    case EH_BOOL: return ((const uint8_t *)data)[k];
    default: return NAN;
    }
}

static const char *shape_text(int ndim, const int64_t *shape, char *buf, size_t cap)
{
    size_t len = (size_t)snprintf(buf, cap, "(");
    for (int d = 0; d < ndim && len < cap; d++)
        len += (size_t)snprintf(buf + len, cap - len, d ? ", %lld" : "%lld", (long long)shape[d]);
    if (len < cap)
        snprintf(buf + len, cap - len, ndim == 1 ? ",)" : ")");
    return buf;
}

const char *cf_desc(const eh_tensor *t)
{
    static _Thread_local char bufs[4][96];
    static _Thread_local int next;
    char *b = bufs[next++ & 3];
    if (!t) {
        snprintf(b, 96, "NULL");
        return b;
    }
    char sh[80];
    snprintf(b, 96, "%s %s", eh_dtype_name(eh_get_dtype(t)),
             shape_text(eh_ndim(t), eh_shape(t), sh, sizeof sh));
    return b;
}

void cf_dump(const eh_tensor *t, int64_t max, char *buf, size_t cap)
{
    if (!t || cap == 0) {
        snprintf(buf, cap, "NULL");
        return;
    }
    if (eh_eval(t) != EH_OK) {
        snprintf(buf, cap, "<evaluation failed: %s>", eh_error_message());
        eh_clear_error();
        return;
    }
    const void *data = eh_data((eh_tensor *)t);
    int64_t n = eh_size(t);
    size_t len = (size_t)snprintf(buf, cap, "[");
    for (int64_t k = 0; k < n && k < max && len < cap; k++)
        len += (size_t)snprintf(buf + len, cap - len, k ? ", %.9g" : "%.9g", load(t, data, k));
    if (len < cap)
        snprintf(buf + len, cap - len, n > max ? ", ... (%lld values)]" : "]", (long long)n);
}

/* ---- tolerances ------------------------------------------------------------ */

#define E16 0x1p-10
#define E32 0x1p-23
#define E64 0x1p-52
static const cf_tol tol_rows[] = {
#define CF_EXACT(op) {#op, 1, {0, 0, 0}, {0, 0, 0}, 0, {0, 0, 0}},
#define CF_TOL(op, r16, a16, r32, a32, r64, a64) {#op, 0, {r16, r32, r64}, {a16, a32, a64}, 0, {0, 0, 0}},
#define CF_ULP(op, u16, u32, u64) {#op, 0, {0, 0, 0}, {0, 0, 0}, 1, {u16, u32, u64}},
#include "../conformance/tolerances.def"
};
#undef E16
#undef E32
#undef E64

const cf_tol *cf_tolerance(const char *op)
{
    for (size_t k = 0; k < sizeof tol_rows / sizeof tol_rows[0]; k++)
        if (strcmp(tol_rows[k].op, op) == 0)
            return &tol_rows[k];
    return NULL;
}

const cf_tol *cf_tolerance_rows(int *n)
{
    *n = (int)(sizeof tol_rows / sizeof tol_rows[0]);
    return tol_rows;
}

/* The float's bits as an integer that counts representable values:
 * consecutive values differ by 1, +0 and -0 are both 0. */
static int64_t ordered(eh_dtype dt, double v)
{
    if (dt == EH_F64) {
        int64_t i;
        memcpy(&i, &v, sizeof i);
        return i >= 0 ? i : -(i & INT64_MAX);
    }
    if (dt == EH_F16) {
        uint16_t h = eh_f32_to_f16((float)v);
        return (h & 0x8000) ? -(int64_t)(h & 0x7fff) : (int64_t)h;
    }
    float f = (float)v;
    int32_t i;
    memcpy(&i, &f, sizeof i);
    return i >= 0 ? i : -(int64_t)(i & INT32_MAX);
}

int64_t cf_ulp_distance(eh_dtype dt, double a, double b)
{
    int64_t d = ordered(dt, a) - ordered(dt, b);
    return d < 0 ? -d : d;
}

static void index_text(const eh_tensor *t, int64_t flat, char *buf, size_t cap)
{
    int nd = eh_ndim(t);
    const int64_t *sh = eh_shape(t);
    int64_t idx[EH_MAX_DIMS];
    for (int d = nd - 1; d >= 0; d--) {
        idx[d] = sh[d] ? flat % sh[d] : 0;
        flat = sh[d] ? flat / sh[d] : 0;
    }
    shape_text(nd, idx, buf, cap);
}

int cf_compare(const eh_tensor *want, const eh_tensor *got, const cf_tol *tol, double scale,
               char *msg, size_t cap)
{
    if (!want || !got) {
        snprintf(msg, cap, "missing tensor (ref %p, got %p)", (const void *)want,
                 (const void *)got);
        return 0;
    }
    if (eh_get_dtype(want) != eh_get_dtype(got) || eh_ndim(want) != eh_ndim(got) ||
        memcmp(eh_shape(want), eh_shape(got), (size_t)eh_ndim(want) * sizeof(int64_t)) != 0) {
        snprintf(msg, cap, "result is %s, ref's is %s", cf_desc(got), cf_desc(want));
        return 0;
    }
    if (eh_eval(want) != EH_OK || eh_eval(got) != EH_OK) {
        snprintf(msg, cap, "evaluation failed: %s", eh_error_message());
        eh_clear_error();
        return 0;
    }
    eh_dtype dt = eh_get_dtype(want);
    int exact = tol->exact || !eh_dtype_is_float(dt);
    int c = dt == EH_F16 ? 0 : dt == EH_F32 ? 1 : 2;
    double rtol = exact ? 0 : tol->rtol[c], atol = exact ? 0 : tol->atol[c] * scale;
    const void *w = eh_data((eh_tensor *)want), *g = eh_data((eh_tensor *)got);
    int64_t n = eh_size(want);
    if (dt == EH_I64) { /* exact beyond 2^53 */
        for (int64_t k = 0; k < n; k++)
            if (((const int64_t *)w)[k] != ((const int64_t *)g)[k]) {
                char ix[96];
                index_text(want, k, ix, sizeof ix);
                snprintf(msg, cap, "element %s is %lld, ref %lld", ix,
                         (long long)((const int64_t *)g)[k], (long long)((const int64_t *)w)[k]);
                return 0;
            }
        return 1;
    }
    for (int64_t k = 0; k < n; k++) {
        double a = load(want, w, k), b = load(got, g, k);
        int ok;
        if (isnan(a) || isnan(b))
            ok = isnan(a) && isnan(b);
        else if (isinf(a) || isinf(b))
            ok = a == b;
        else if (exact || (tol->by_ulp && a == 0 && b == 0))
            ok = a == b && signbit(a) == signbit(b);
        else if (tol->by_ulp)
            ok = cf_ulp_distance(dt, a, b) <= tol->ulps[c];
        else
            ok = fabs(b - a) <= atol + rtol * fabs(a);
        if (!ok) {
            char ix[96];
            index_text(want, k, ix, sizeof ix);
            if (tol->by_ulp && !exact)
                snprintf(msg, cap, "element %s is %.17g, ref %.17g: %lld ulps apart > allowed %d", ix,
                         b, a, (long long)cf_ulp_distance(dt, a, b), tol->ulps[c]);
            else if (exact)
                snprintf(msg, cap, "element %s is %.17g, ref %.17g (exact comparison)", ix, b, a);
            else
                snprintf(msg, cap,
                         "element %s is %.17g, ref %.17g: |diff| %.3g > allowed %.3g "
                         "(rtol %.3g, atol %.3g x scale %.3g)",
                         ix, b, a, fabs(b - a), atol + rtol * fabs(a), rtol,
                         exact ? 0 : tol->atol[c], scale);
            return 0;
        }
    }
    return 1;
}

/* ---- cases ------------------------------------------------------------------ */

static long n_cases, n_findings, findings_at_begin;
static char backend_at_begin[64];

long cf_case_count(void)
{
    return n_cases;
}
long cf_finding_count(void)
{
    return n_findings;
}

void cf_case_init(cf_case *c, const char *op, const char *fmt, ...)
{
    memset(c, 0, sizeof *c);
    c->op = op;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->label, sizeof c->label, fmt, ap);
    va_end(ap);
}

void cf_case_add(cf_case *c, eh_tensor *t)
{
    if (!t)
        fail_msg("%s: making an input failed: %s", c->label, eh_error_message());
    if (c->n_in >= CF_MAX_IN)
        fail_msg("%s: too many inputs", c->label);
    c->in[c->n_in++] = t;
}

void cf_case_free(cf_case *c)
{
    for (int k = 0; k < c->n_in; k++)
        eh_release(c->in[k]);
    c->n_in = 0;
}

void cf_finding(const cf_case *c, const char *backend, const char *fmt, ...)
{
    char what[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    n_findings++;
    fprintf(stderr, "CONFORMANCE: op %s, backend %s, case '%s': %s\n", c->op, backend, c->label,
            what);
    for (int k = 0; k < c->n_in; k++) {
        char vals[1024];
        cf_dump(c->in[k], 24, vals, sizeof vals);
        fprintf(stderr, "    input %d: %s %s\n", k, cf_desc(c->in[k]), vals);
    }
}

eh_status cf_eval_all(eh_tensor *const *out, int n)
{
    for (int k = 0; k < n; k++) {
        if (!out[k])
            return eh_last_error() != EH_OK ? eh_last_error() : EH_ERR_INTERNAL;
        eh_status st = eh_eval(out[k]);
        if (st != EH_OK)
            return st;
    }
    return EH_OK;
}

typedef struct outcome {
    eh_status st;
    char op_in_msg[64]; /* the message's "op:" prefix */
    char msg[256];
    int n;
    eh_tensor *out[CF_MAX_OUT];
} outcome;

static void run_on(const cf_case *c, const char *backend, outcome *o)
{
    memset(o, 0, sizeof *o);
    if (eh_set_backend(backend) != EH_OK)
        fail_msg("cannot select backend %s: %s", backend, eh_error_message());
    eh_clear_error();
    eh_seed(c->seed);
    o->st = c->run(c, o->out, &o->n);
    if (o->st == EH_OK)
        o->st = cf_eval_all(o->out, o->n);
    if (eh_scope_depth() != 0)
        fail_msg("%s: the runner left a scope open", c->label);
    if (o->st != EH_OK) {
        snprintf(o->msg, sizeof o->msg, "%s", eh_error_message());
        size_t len = strcspn(o->msg, ":");
        snprintf(o->op_in_msg, sizeof o->op_in_msg, "%.*s", (int)(len < 63 ? len : 63), o->msg);
        for (int k = 0; k < o->n; k++)
            eh_release(o->out[k]);
        o->n = 0;
        eh_clear_error();
    }
}

static void release_outcome(outcome *o)
{
    for (int k = 0; k < o->n; k++)
        eh_release(o->out[k]);
    o->n = 0;
}

int cf_check(cf_case *c)
{
    const char *names[CF_MAX_BACKENDS];
    int nb = cf_backends(names);
    const cf_tol *tol = c->tol ? c->tol : cf_tolerance(c->op);
    if (!tol)
        fail_msg("no row for op '%s' in tests/conformance/tolerances.def", c->op);
    double scale = c->scale > 0 ? c->scale : 1.0;
    n_cases++;
    outcome ref;
    run_on(c, "ref", &ref);
    int ok = ref.st == EH_OK;
    if (!ok && !c->allow_error)
        cf_finding(c, "ref", "ref failed on a case meant to be valid: %s: %s (a broken case)",
                   eh_status_name(ref.st), ref.msg);
    if (!ok && getenv("CF_VERBOSE"))
        fprintf(stderr, "conformance: '%s' fails on ref with %s: %s\n", c->label,
                eh_status_name(ref.st), ref.msg);
    if (ok && c->post) /* the properties hold on ref too */
        c->post(c, "ref", ref.out, ref.out, ref.n);
    for (int b = 1; b < nb; b++) {
        outcome o;
        run_on(c, names[b], &o);
        eh_set_backend("ref");
        if (o.st != ref.st) {
            cf_finding(c, names[b], "status %s (%s), ref %s (%s)", eh_status_name(o.st), o.msg,
                       eh_status_name(ref.st), ref.msg);
        } else if (!ok) {
            if (strcmp(o.op_in_msg, ref.op_in_msg) != 0)
                cf_finding(c, names[b],
                           "same status %s, but the message names '%s' (\"%s\"), "
                           "ref's names '%s' (\"%s\")",
                           eh_status_name(o.st), o.op_in_msg, o.msg, ref.op_in_msg, ref.msg);
        } else if (o.n != ref.n) {
            cf_finding(c, names[b], "%d outputs, ref %d", o.n, ref.n);
        } else {
            for (int k = 0; k < o.n; k++) {
                char msg[512];
                if (c->skip_values & (1u << k)) {
                    /* still the same dtype and shape */
                    eh_tensor *w = ref.out[k], *g = o.out[k];
                    if (eh_get_dtype(w) != eh_get_dtype(g) || eh_ndim(w) != eh_ndim(g) ||
                        memcmp(eh_shape(w), eh_shape(g), (size_t)eh_ndim(w) * sizeof(int64_t)))
                        cf_finding(c, names[b], "output %d is %s, ref's is %s", k, cf_desc(g),
                                   cf_desc(w));
                    continue;
                }
                if (!cf_compare(ref.out[k], o.out[k], tol, scale, msg, sizeof msg))
                    cf_finding(c, names[b], "output %d: %s", k, msg);
            }
            if (c->post)
                c->post(c, names[b], ref.out, o.out, o.n);
        }
        release_outcome(&o);
    }
    release_outcome(&ref);
    eh_set_backend("ref");
    eh_clear_error();
    cf_case_free(c);
    return ok;
}

void cf_begin_test(void)
{
    findings_at_begin = n_findings;
    const char *b = eh_get_backend();
    snprintf(backend_at_begin, sizeof backend_at_begin, "%s", b ? b : "ref");
    eh_set_backend("ref");
    eh_clear_error();
}

void cf_end_test(void)
{
    eh_set_backend(backend_at_begin);
    eh_clear_error();
    long found = n_findings - findings_at_begin;
    if (found)
        fail_msg("%ld conformance disagreement(s); see the CONFORMANCE lines above", found);
}

/* ---- building cases ------------------------------------------------------------ */

const eh_dtype cf_dtypes[6] = {EH_F16, EH_F32, EH_F64, EH_I32, EH_I64, EH_BOOL};
cf_rng cf_in_rng;

const char *cf_shape_str(cf_shape s)
{
    static _Thread_local char bufs[4][80];
    static _Thread_local int next;
    char *b = bufs[next++ & 3];
    size_t len = (size_t)snprintf(b, 80, "(");
    for (int k = 0; k < s.nd && len < 80; k++)
        len += (size_t)snprintf(b + len, 80 - len, k ? ",%lld" : "%lld", (long long)s.d[k]);
    if (len < 80)
        snprintf(b + len, 80 - len, ")");
    return b;
}

const char *cf_axes_str(cf_axes a)
{
    static _Thread_local char bufs[4][64];
    static _Thread_local int next;
    char *b = bufs[next++ & 3];
    if (a.n == 0) {
        snprintf(b, 64, "all");
        return b;
    }
    size_t len = (size_t)snprintf(b, 64, "{");
    for (int k = 0; k < a.n && len < 64; k++)
        len += (size_t)snprintf(b + len, 64 - len, k ? ",%d" : "%d", a.a[k]);
    if (len < 64)
        snprintf(b + len, 64 - len, "}");
    return b;
}

int64_t cf_shape_size(cf_shape s)
{
    return shape_size(s.nd, s.d);
}

eh_tensor *cf_rnd(eh_dtype dtype, cf_shape s, cf_values v)
{
    return cf_random(&cf_in_rng, dtype, s.nd, s.d, v);
}

void cf_add_rnd(cf_case *c, eh_dtype dtype, cf_shape s, cf_values v)
{
    cf_case_add(c, cf_rnd(dtype, s, v));
}

void cf_set_shape(cf_case *c, cf_shape s)
{
    c->ndim = s.nd;
    memcpy(c->shape, s.d, sizeof s.d);
}

void cf_set_axes(cf_case *c, cf_axes a)
{
    c->n_axes = a.n;
    memcpy(c->axes, a.a, sizeof a.a);
}

const int *cf_axes_of(const cf_case *c)
{
    return c->n_axes ? c->axes : NULL;
}

double cf_max_abs(const eh_tensor *t)
{
    double m = 1e-300;
    if (eh_eval(t) != EH_OK)
        fail_msg("cf_max_abs: %s", eh_error_message());
    const void *data = eh_data((eh_tensor *)t);
    for (int64_t k = 0; k < eh_size(t); k++) {
        double v = fabs(load(t, data, k));
        if (isfinite(v) && v > m)
            m = v;
    }
    return m;
}

eh_status cf_one(eh_tensor *t, eh_tensor **out, int *n)
{
    out[0] = t;
    *n = 1;
    if (t)
        return EH_OK;
    return eh_last_error() != EH_OK ? eh_last_error() : EH_ERR_INTERNAL;
}

eh_status cf_multi(eh_status st, eh_tensor **out, int n_out, int *n)
{
    *n = n_out;
    if (st != EH_OK)
        for (int k = 0; k < n_out; k++) {
            eh_release(out[k]);
            out[k] = NULL;
        }
    return st;
}

static const struct {
    const char *name, *kind;
} ops_def[] = {
#define EH_OP(name, kind, n_in) {#name, #kind},
#include <eh/ops.def>
};
#define N_OPS_DEF ((int)(sizeof ops_def / sizeof ops_def[0]))

const char *cf_op_kind(const char *op)
{
    for (int k = 0; k < N_OPS_DEF; k++)
        if (!strcmp(ops_def[k].name, op))
            return ops_def[k].kind;
    return NULL;
}

int cf_op_total(void)
{
    return N_OPS_DEF;
}
const char *cf_op_at(int k)
{
    return k >= 0 && k < N_OPS_DEF ? ops_def[k].name : NULL;
}

/* `word` is one of the space-separated words of `list`. */
static int in_list(const char *word, const char *list)
{
    size_t n = strlen(word);
    for (const char *p = list; (p = strstr(p, word)) != NULL; p += n)
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
            return 1;
    return 0;
}

void cf_check_drivers(const cf_driver *drivers, int n, const char *kinds)
{
    int bad = 0;
    for (int k = 0; k < N_OPS_DEF; k++) {
        if (!in_list(ops_def[k].kind, kinds))
            continue;
        int entries = 0;
        for (int j = 0; j < n; j++)
            entries += !strcmp(drivers[j].op, ops_def[k].name);
        if (entries != 1) {
            fprintf(stderr, "op %s (%s) has %d entries in the conformance table (want 1)\n",
                    ops_def[k].name, ops_def[k].kind, entries);
            bad = 1;
        }
    }
    for (int j = 0; j < n; j++) {
        const char *kind = cf_op_kind(drivers[j].op);
        if (!kind || !in_list(kind, kinds)) {
            fprintf(stderr, "conformance entry '%s' is not an op of kind %s\n", drivers[j].op,
                    kinds);
            bad = 1;
        }
    }
    if (bad)
        fail_msg("the conformance table does not match libeh/ops.def");
}

/* CF_OPS="matmul,dot" restricts a run to those ops (a plugin's test runs
 * the conformance binaries for the ops the plugin implements). */
static int selected(const char *op)
{
    const char *list = getenv("CF_OPS");
    size_t n = strlen(op);
    for (const char *p = list; p && *p; p += strcspn(p, ","), p += *p == ',')
        if (strncmp(p, op, n) == 0 && (p[n] == ',' || p[n] == '\0'))
            return 1;
    return !list || !*list;
}

void cf_run_kind(const cf_driver *drivers, int n, const char *kind)
{
    cf_begin_test();
    for (int k = 0; k < N_OPS_DEF; k++) {
        if (strcmp(ops_def[k].kind, kind) != 0 || !selected(ops_def[k].name))
            continue;
        for (int j = 0; j < n; j++)
            if (!strcmp(drivers[j].op, ops_def[k].name)) {
                long before = n_cases;
                drivers[j].drive(ops_def[k].name);
                if (n_cases == before)
                    fail_msg("the conformance entry of %s ran no case", ops_def[k].name);
            }
    }
    cf_end_test();
}

/* ---- statistics ------------------------------------------------------------- */

int cf_check_moments(const double *x, int64_t n, double mean, double var, double mu4, char *msg,
                     size_t cap)
{
    double m = 0.0, s2 = 0.0;
    for (int64_t k = 0; k < n; k++)
        m += x[k];
    m /= (double)n;
    for (int64_t k = 0; k < n; k++)
        s2 += (x[k] - m) * (x[k] - m);
    s2 /= (double)(n - 1);
    /* standard errors of the sample mean and variance; the variance bound
     * also allows for the estimated mean (up to 6 sigma of it, squared) */
    double se_m = sqrt(var / (double)n), se_v = sqrt((mu4 - var * var) / (double)n);
    if (!(fabs(m - mean) <= 6.0 * se_m + 1e-12 * fabs(mean))) {
        snprintf(msg, cap, "mean %.10g, expected %.10g (6 sigma = %.3g)", m, mean, 6.0 * se_m);
        return 0;
    }
    if (!(fabs(s2 - var) <= 6.0 * se_v + 37.0 * var / (double)n)) {
        snprintf(msg, cap, "variance %.10g, expected %.10g (6 sigma = %.3g)", s2, var, 6.0 * se_v);
        return 0;
    }
    return 1;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int cf_check_ks(double *x, int64_t n, double (*cdf)(double, double), double par, char *msg,
                size_t cap)
{
    qsort(x, (size_t)n, sizeof *x, by_value);
    double d = 0.0;
    for (int64_t k = 0; k < n; k++) {
        double f = cdf(x[k], par);
        double below = f - (double)k / (double)n, above = (double)(k + 1) / (double)n - f;
        d = below > d ? below : d;
        d = above > d ? above : d;
    }
    /* P(D_n > c / sqrt(n)) ~ 2 exp(-2 c^2): c = sqrt(-ln(alpha / 2) / 2) */
    double crit = sqrt(-0.5 * log(1e-6 / 2.0)) / sqrt((double)n);
    if (!(d <= crit)) {
        snprintf(msg, cap, "Kolmogorov-Smirnov statistic %.5f above the critical %.5f (n %lld)", d,
                 crit, (long long)n);
        return 0;
    }
    return 1;
}

/* ---- child processes ---------------------------------------------------------- */

int cf_run_self(const char *arg, const char *var, const char *value, char *out, size_t cap)
{
    int fds[2];
    if (pipe(fds) != 0)
        return -1;
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return -1;
    }
    if (pid == 0) {
        dup2(fds[1], 1);
        close(fds[0]);
        close(fds[1]);
        if (value)
            setenv(var, value, 1);
        else
            unsetenv(var);
        execl("/proc/self/exe", "conformance-child", arg, (char *)NULL);
        _exit(127);
    }
    close(fds[1]);
    size_t len = 0;
    ssize_t got;
    while ((got = read(fds[0], out + len, cap - 1 - len)) != 0) {
        if (got < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        len += (size_t)got;
        if (len + 1 >= cap) { /* drain the rest so the child can finish */
            char sink[4096];
            while ((got = read(fds[0], sink, sizeof sink)) > 0)
                ;
            break;
        }
    }
    out[len] = '\0';
    close(fds[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}
