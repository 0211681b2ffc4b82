/* tests/fuzz/fuzz_libeh_ops.c -- libeh op sequences across backends.
 *
 * The input is a small program: three starting tensors (dtype, shape up
 * to 3-d and 3 per axis, values from a table of ordinary and special
 * numbers), then up to 32 ops on a pool of 6 slots.  Each op runs on every
 * built backend with the same inputs (the reference backend's results:
 * materialized host tensors are valid input to any backend), and the
 * answers are compared with ref's, which defines the semantics:
 *
 *   - status, dtype and shape always agree (linear algebra aside, where a
 *     nearly singular matrix may be singular to one algorithm only);
 *   - values agree bit for bit (NaN with NaN) for every op but those
 *     listed in `approx` (transcendental functions: within a few ulps,
 *     special values exact), the float reductions and the linear algebra
 *     (summation order), whose values are not compared.
 *
 * A disagreement aborts (a finding), as do the sanitizers.  The elementwise
 * ops come from libeh/ops.def, so a new op is fuzzed without an edit here. */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <eh/eh.h>

#define SLOTS 6
#define MAX_OPS 32
#define MAX_BACKENDS 8

typedef struct input {
    const uint8_t *p;
    size_t n;
} input;

static unsigned take(input *in)
{
    if (!in->n)
        return 0;
    in->n--;
    return *in->p++;
}

static const double values[] = {
    0.0, -0.0, 1.0, -1.0, 0.5, 2.0, 3.5, -7.25, 1e-3, 1e10, -1e10, INFINITY, -INFINITY, NAN,
    65504.0, 1e-8, 100.0, 0.1, 3.0, -2.0, 1e300, 5e-324, 255.0, -128.0, 7.0, 0.25, 42.0, -0.5,
    1.0 / 3.0, 2147483647.0, -2147483648.0, 9007199254740993.0,
};
#define N_VALUES (sizeof values / sizeof values[0])

/* ---- the ops -------------------------------------------------------------- */

typedef eh_tensor *(*unary_fn)(const eh_tensor *);
typedef eh_tensor *(*binary_fn)(const eh_tensor *, const eh_tensor *);
typedef eh_tensor *(*ternary_fn)(const eh_tensor *, const eh_tensor *, const eh_tensor *);

#define FUZZ_UNARY(name) {#name, eh_##name},
#define FUZZ_BINARY(name)
#define FUZZ_TERNARY(name)
#define FUZZ_OTHER(name)
#define FUZZ_CREATION(name) FUZZ_OTHER(name)
#define FUZZ_SHAPE(name) FUZZ_OTHER(name)
#define FUZZ_REDUCTION(name) FUZZ_OTHER(name)
#define FUZZ_LINALG(name) FUZZ_OTHER(name)
#define FUZZ_SIGNAL(name) FUZZ_OTHER(name)
#define FUZZ_RANDOM(name) FUZZ_OTHER(name)
#define FUZZ_CONVERT(name) FUZZ_OTHER(name)
#define FUZZ_META(name) FUZZ_OTHER(name)
#define EH_OP(name, kind, n_in) FUZZ_##kind(name)
static const struct {
    const char *name;
    unary_fn fn;
} unary_ops[] = {
#include <eh/ops.def>
};
#undef FUZZ_UNARY
#undef FUZZ_BINARY
#define FUZZ_UNARY(name)
#define FUZZ_BINARY(name) {#name, eh_##name},
#define EH_OP(name, kind, n_in) FUZZ_##kind(name)
static const struct {
    const char *name;
    binary_fn fn;
} binary_ops[] = {
#include <eh/ops.def>
};
#undef FUZZ_BINARY
#undef FUZZ_TERNARY
#define FUZZ_BINARY(name)
#define FUZZ_TERNARY(name) {#name, eh_##name},
#define EH_OP(name, kind, n_in) FUZZ_##kind(name)
static const struct {
    const char *name;
    ternary_fn fn;
} ternary_ops[] = {
#include <eh/ops.def>
};
#define COUNT(a) (sizeof a / sizeof a[0])

/* Results compared within a few ulps (special values exactly). */
static const char *const approx[] = {"exp",  "log",     "log1p",    "expm1", "sin",   "cos",
                                     "tan",  "tanh",    "sigmoid",  "softplus", "erf", "power",
                                     "atan2", "logsumexp", "softmax", "log_softmax"};

typedef enum compare { EXACT, APPROX, SHAPE_ONLY, STATUS_SHAPE_LOOSE } compare;

static compare compare_of(const char *name)
{
    for (size_t i = 0; i < COUNT(approx); i++)
        if (strcmp(name, approx[i]) == 0)
            return APPROX;
    return EXACT;
}

/* ---- one op on one backend -------------------------------------------------- */

typedef struct args {
    unsigned kind, which;
    eh_tensor *a, *b, *c;
    int axes[3], n_axes, keepdims, axis;
    int64_t shape[3], start[3], stop[3], step[3];
    int ndim, perm[3], dtype;
    double x, y;
} args;

/* What the op is called, for messages, and how to compare it. */
static const char *describe(const args *g, compare *how)
{
    static const char *const others[] = {"sum",    "mean",      "max",     "min",   "prod",
                                         "argmax", "cumsum",    "var",     "reshape", "transpose",
                                         "flip",   "slice",     "concatenate", "cast", "matmul",
                                         "inv",    "softmax",   "logsumexp", "where_scalar_clip",
                                         "expand_dims", "broadcast_to", "arange"};
    const char *name;
    switch (g->kind) {
    case 0:
        name = unary_ops[g->which % COUNT(unary_ops)].name;
        *how = compare_of(name);
        return name;
    case 1:
        name = binary_ops[g->which % COUNT(binary_ops)].name;
        *how = compare_of(name);
        return name;
    case 2:
        name = ternary_ops[g->which % COUNT(ternary_ops)].name;
        *how = compare_of(name);
        return name;
    default:
        name = others[g->which % COUNT(others)];
        break;
    }
    if (strcmp(name, "sum") == 0 || strcmp(name, "mean") == 0 || strcmp(name, "prod") == 0 ||
        strcmp(name, "cumsum") == 0 || strcmp(name, "var") == 0 || strcmp(name, "matmul") == 0)
        *how = SHAPE_ONLY; /* summation order: values not compared (but ints exactly) */
    else if (strcmp(name, "inv") == 0)
        *how = STATUS_SHAPE_LOOSE;
    else
        *how = compare_of(name);
    return name;
}

static eh_tensor *run_op(const args *g)
{
    switch (g->kind) {
    case 0:
        return unary_ops[g->which % COUNT(unary_ops)].fn(g->a);
    case 1:
        return binary_ops[g->which % COUNT(binary_ops)].fn(g->a, g->b);
    case 2:
        return ternary_ops[g->which % COUNT(ternary_ops)].fn(g->a, g->b, g->c);
    default:
        break;
    }
    const eh_tensor *pair[2] = {g->a, g->b};
    switch (g->which % 22) {
    case 0: return eh_sum(g->a, g->axes, g->n_axes, g->keepdims);
    case 1: return eh_mean(g->a, g->axes, g->n_axes, g->keepdims);
    case 2: return eh_max(g->a, g->axes, g->n_axes, g->keepdims);
    case 3: return eh_min(g->a, g->axes, g->n_axes, g->keepdims);
    case 4: return eh_prod(g->a, g->axes, g->n_axes, g->keepdims);
    case 5: return eh_argmax(g->a, g->axis, g->keepdims);
    case 6: return eh_cumsum(g->a, g->axis);
    case 7: return eh_var(g->a, g->axes, g->n_axes, g->keepdims, g->keepdims);
    case 8: return eh_reshape(g->a, g->ndim, g->shape);
    case 9: return eh_transpose(g->a, g->perm, g->ndim);
    case 10: return eh_flip(g->a, g->axes, g->n_axes);
    case 11: return eh_slice(g->a, g->start, g->stop, g->step, g->ndim);
    case 12: return eh_concatenate(pair, 2, g->axis);
    case 13: return eh_cast(g->a, (eh_dtype)g->dtype);
    case 14: return eh_matmul(g->a, g->b);
    case 15: return eh_inv(g->a);
    case 16: return eh_softmax(g->a, g->axis);
    case 17: return eh_logsumexp(g->a, g->axes, g->n_axes, g->keepdims);
    case 18: return eh_clip_scalar(g->a, g->x, g->y);
    case 19: return eh_expand_dims(g->a, g->axis);
    case 20: return eh_broadcast_to(g->a, g->ndim, g->shape);
    default: return eh_arange(g->x, g->x + fabs(fmod(g->y, 8.0)), 1.0, (eh_dtype)g->dtype);
    }
}

/* ---- comparing answers ---------------------------------------------------------- */

typedef struct answer {
    eh_status status;
    eh_dtype dtype;
    int ndim;
    int64_t shape[8];
    size_t nbytes;
    unsigned char *bytes;
} answer;

static answer observe(eh_tensor *t)
{
    answer a;
    memset(&a, 0, sizeof a);
    a.status = eh_last_error();
    if (!t) {
        if (a.status == EH_OK)
            a.status = EH_ERR_INTERNAL; /* NULL without an error: itself a finding */
        return a;
    }
    a.dtype = eh_get_dtype(t);
    a.ndim = eh_ndim(t);
    for (int i = 0; i < a.ndim && i < 8; i++)
        a.shape[i] = eh_dim(t, i);
    a.nbytes = eh_nbytes(t);
    a.bytes = malloc(a.nbytes ? a.nbytes : 1);
    if (!a.bytes)
        abort();
    eh_status st = eh_to_buffer(t, a.bytes, a.nbytes);
    if (st != EH_OK) /* a deferred error, reported when the data is needed */
        a.status = st;
    return a;
}

static double element(const answer *a, size_t i)
{
    switch (a->dtype) {
    case EH_F16: {
        uint16_t h;
        memcpy(&h, a->bytes + 2 * i, 2);
        return eh_f16_to_f32(h);
    }
    case EH_F32: {
        float f;
        memcpy(&f, a->bytes + 4 * i, 4);
        return f;
    }
    case EH_F64: {
        double d;
        memcpy(&d, a->bytes + 8 * i, 8);
        return d;
    }
    default:
        return 0;
    }
}

static bool close_enough(double r, double o, eh_dtype dt)
{
    if (isnan(r) || isnan(o))
        return isnan(r) && isnan(o);
    if (isinf(r) || isinf(o))
        return r == o;
    double tol = dt == EH_F64 ? 1e-12 : dt == EH_F32 ? 4e-6 : 2e-3;
    double scale = fmax(fabs(r), fabs(o));
    return fabs(r - o) <= tol * fmax(scale, dt == EH_F64 ? 1e-300 : 1e-30);
}

static void finding(const char *what, const char *op, const char *backend)
{
    fprintf(stderr, "fuzz_libeh_ops: %s: op %s on backend %s disagrees with ref\n", what, op,
            backend);
    abort();
}

static void compare_answers(const answer *ref, const answer *o, compare how, const char *op,
                            const char *backend)
{
    if (how == STATUS_SHAPE_LOOSE && (ref->status != EH_OK || o->status != EH_OK))
        return; /* singular to one algorithm, not to the other */
    if (ref->status != o->status)
        finding("status", op, backend);
    if (ref->status != EH_OK)
        return;
    if (ref->dtype != o->dtype || ref->ndim != o->ndim || ref->nbytes != o->nbytes ||
        memcmp(ref->shape, o->shape, sizeof ref->shape) != 0)
        finding("dtype or shape", op, backend);
    bool is_float = ref->dtype == EH_F16 || ref->dtype == EH_F32 || ref->dtype == EH_F64;
    if (how == STATUS_SHAPE_LOOSE || (how == SHAPE_ONLY && is_float))
        return;
    if (how == EXACT || !is_float) {
        if (memcmp(ref->bytes, o->bytes, ref->nbytes) == 0)
            return;
        if (!is_float)
            finding("values", op, backend);
        /* NaNs may differ in their payload bits */
        size_t n = ref->nbytes / eh_dtype_size(ref->dtype);
        for (size_t i = 0; i < n; i++) {
            double r = element(ref, i), x = element(o, i);
            if (!(isnan(r) && isnan(x)) && memcmp(&r, &x, sizeof r) != 0)
                finding("values", op, backend);
        }
        return;
    }
    size_t n = ref->nbytes / eh_dtype_size(ref->dtype);
    for (size_t i = 0; i < n; i++)
        if (!close_enough(element(ref, i), element(o, i), ref->dtype))
            finding("values (beyond a few ulps)", op, backend);
}

/* ---- the program ------------------------------------------------------------------ */

static eh_tensor *make_tensor(input *in)
{
    eh_dtype dt = (eh_dtype)(take(in) % EH_DTYPE_COUNT);
    int ndim = (int)(take(in) % 4);
    int64_t shape[3] = {1, 1, 1};
    int64_t n = 1;
    for (int i = 0; i < ndim; i++) {
        shape[i] = take(in) % 4;
        n *= shape[i];
    }
    double buf[27];
    for (int64_t i = 0; i < n; i++) {
        unsigned v = take(in);
        buf[i] = dt == EH_BOOL ? (double)(v & 1) : dt == EH_I32 || dt == EH_I64
                 ? (double)(int8_t)v : values[v % N_VALUES];
    }
    /* through f64, then cast: every dtype from the same values */
    eh_tensor *d = eh_convert_to_tensor(buf, ndim, shape, EH_F64);
    if (!d)
        return NULL;
    eh_tensor *t = eh_cast(d, dt);
    eh_release(d);
    return t;
}

static void read_args(input *in, args *g, eh_tensor *const *slot)
{
    memset(g, 0, sizeof *g);
    g->kind = take(in) % 4;
    g->which = take(in);
    g->a = slot[take(in) % SLOTS];
    g->b = slot[take(in) % SLOTS];
    g->c = slot[take(in) % SLOTS];
    unsigned flags = take(in);
    g->n_axes = (int)(flags % 4);
    g->keepdims = (int)((flags >> 2) & 1);
    g->axis = (int)(take(in) % 7) - 3;
    g->ndim = (int)(take(in) % 4);
    for (int i = 0; i < 3; i++) {
        g->axes[i] = (int)(take(in) % 7) - 3;
        g->perm[i] = (int)(take(in) % 4);
        g->shape[i] = (int64_t)(take(in) % 6) - 1; /* -1: infer */
        g->start[i] = (int64_t)(take(in) % 9) - 4;
        g->stop[i] = (int64_t)(take(in) % 9) - 4;
        g->step[i] = (int64_t)(take(in) % 5) - 2;
    }
    g->dtype = (int)(take(in) % EH_DTYPE_COUNT);
    g->x = values[take(in) % N_VALUES];
    g->y = values[take(in) % N_VALUES];
    if (!isfinite(g->x) || fabs(g->x) > 1e6)
        g->x = 1.0; /* arange stays small */
    if (!isfinite(g->y))
        g->y = 2.0;
}

static const char *backends[MAX_BACKENDS];
static int n_backends;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    n_backends = eh_list_backends(backends, MAX_BACKENDS);
    if (n_backends > MAX_BACKENDS)
        n_backends = MAX_BACKENDS;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!n_backends)
        LLVMFuzzerInitialize(NULL, NULL);
    input in = {data, size};
    eh_tensor *slot[SLOTS] = {0};
    eh_set_backend("ref");
    for (int i = 0; i < 3; i++)
        slot[i] = make_tensor(&in);
    eh_clear_error();
    for (int step = 0; step < MAX_OPS && in.n; step++) {
        args g;
        read_args(&in, &g, slot);
        compare how;
        const char *name = describe(&g, &how);
        eh_set_backend("ref");
        eh_clear_error();
        eh_tensor *ref_t = run_op(&g);
        answer ref = observe(ref_t);
        for (int b = 0; b < n_backends; b++) {
            if (strcmp(backends[b], "ref") == 0)
                continue;
            eh_set_backend(backends[b]);
            eh_clear_error();
            eh_tensor *t = run_op(&g);
            answer o = observe(t);
            eh_set_backend("ref");
            compare_answers(&ref, &o, how, name, backends[b]);
            free(o.bytes);
            eh_release(t);
        }
        free(ref.bytes);
        unsigned dst = take(&in) % SLOTS;
        if (ref_t) {
            eh_release(slot[dst]);
            slot[dst] = ref_t;
        }
    }
    eh_set_backend("ref");
    for (int i = 0; i < SLOTS; i++)
        eh_release(slot[i]);
    eh_clear_error();
    return 0;
}
