/* Out of memory at every allocation of every op, in the style of SQLite's
 * malloc tests: for each op of libeh/ops.def (the list comes from the file,
 * never typed here) and the backend of this run (EH_TEST_BACKEND), with
 * representative valid inputs, allocation N fails for N = 1, 2, ... until
 * the call gets past its last allocation.  Each failing run must
 *
 *   - report EH_ERR_NOMEM, through the op's result (NULL, or a status) and
 *     the error API, with a message saying so;
 *   - print nothing (stdout and stderr go to a file meanwhile; set
 *     EH_NOMEM_VERBOSE=1 to see them, as when a sanitizer reports);
 *   - free what it made: live storage is back where it was (and `make asan`
 *     runs this under LeakSanitizer);
 *   - leave the library usable: no scope left open, and the next op works
 *     and gives the right value.
 *
 * The run that succeeds must give the value of a run without the hook.  On
 * lazy, the outputs are evaluated while the hook is armed, so evaluation's
 * allocations (graph stacks, fused scratch, plans) fail in turn too; an
 * output whose evaluation failed must evaluate correctly afterwards.
 *
 * The hook (eh__test_fail_alloc) counts allocations on the calling thread:
 * the test runs with EH_NUM_THREADS=1, so every kernel runs on it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "eh_test.h"
#include <eh/backend_api.h> // emberlint-ignore EH101 (the test registers custom-op kernels)

#define MAX_OUT 4

/* The inputs every op case reads, made once per test with the hook off. */
typedef struct fixture {
    eh_tensor *u;     /* f32 (2, 3) in (0, 1): unary ops            */
    eh_tensor *a;     /* f64 (2, 3) positive                        */
    eh_tensor *b;     /* f32 (2, 3) positive: binary ops promote it */
    eh_tensor *c;     /* f64 (2, 3), above b                        */
    eh_tensor *s1;    /* f64 (1, 2, 3)                              */
    eh_tensor *v3;    /* f64 (3,)                                   */
    eh_tensor *v4;    /* f64 (4,)                                   */
    eh_tensor *sq;    /* f64 (3, 3) symmetric positive definite     */
    eh_tensor *tall;  /* f64 (3, 2)                                 */
    eh_tensor *rhs;   /* f64 (3, 2)                                 */
    eh_tensor *idx;   /* i32 (2,) = {1, 0}                          */
    eh_tensor *sig;   /* f64 (2, 16)                                */
    eh_tensor *spec;  /* f64 (2, 5, 2): 5 complex bins              */
    eh_tensor *win;   /* f32 (8,)                                   */
    eh_tensor *logits;/* f64 (2, 4)                                 */
    eh_tensor *a16;   /* a as f16                                   */
    eh_tensor *tall16;/* tall as f16                                */
    eh_tensor *lanky; /* f64 (70000, 2): reductions split the rows  */
    eh_tensor *wide;  /* f32 (512, 512): reductions stream rows     */
} fixture;

static fixture fx;

static eh_tensor *seq(eh_dtype dtype, int ndim, const int64_t *shape, double start, double step)
{
    int64_t n = 1;
    for (int d = 0; d < ndim; d++)
        n *= shape[d];
    double v[64];
    for (int64_t k = 0; k < n; k++)
        v[k] = start + step * (double)k;
    return t_from(dtype, ndim, shape, v);
}

static void make_fixture(void)
{
    fx.u = seq(EH_F32, 2, SHAPE(2, 3), 0.125, 0.125);
    fx.a = seq(EH_F64, 2, SHAPE(2, 3), 1.5, 0.75);
    fx.b = seq(EH_F32, 2, SHAPE(2, 3), 0.5, 0.25);
    fx.c = seq(EH_F64, 2, SHAPE(2, 3), 3.0, 0.5);
    fx.s1 = seq(EH_F64, 3, SHAPE(1, 2, 3), -1.0, 0.5);
    fx.v3 = seq(EH_F64, 1, SHAPE(3), 1.0, 1.0);
    fx.v4 = seq(EH_F64, 1, SHAPE(4), -1.5, 1.0);
    fx.sq = T_F64(SHAPE(3, 3), 4, 1, 0.5, 1, 3, 0.25, 0.5, 0.25, 2);
    fx.tall = T_F64(SHAPE(3, 2), 1, 2, 3, 4, 5, 7);
    fx.rhs = T_F64(SHAPE(3, 2), 1, 0, 0, 1, 2, 3);
    fx.idx = t_from(EH_I32, 1, SHAPE(2), (const double[]){1, 0});
    fx.sig = seq(EH_F64, 2, SHAPE(2, 16), -2.0, 0.3);
    fx.spec = seq(EH_F64, 3, SHAPE(2, 5, 2), 1.0, -0.2);
    fx.win = seq(EH_F32, 1, SHAPE(8), 0.25, 0.125);
    fx.logits = T_F64(SHAPE(2, 4), 0, 1, 2, 3, -1, 0.5, 0.25, 2);
    fx.a16 = eh_cast(fx.a, EH_F16);
    fx.tall16 = eh_cast(fx.tall, EH_F16);
    eh_tensor *r = eh_arange(0, 140000, 1, EH_F64);
    fx.lanky = eh_reshape(r, 2, SHAPE(70000, 2));
    eh_release(r);
    r = eh_random_uniform(2, SHAPE(512, 512), -1, 1, EH_F32);
    fx.wide = eh_copy(r); /* materialized (lazy) */
    eh_release(r);
    assert_non_null(fx.a16);
    assert_non_null(fx.tall16);
    assert_non_null(fx.lanky);
    assert_non_null(fx.wide);
    assert_int_equal(eh_eval(fx.wide), EH_OK);
}

static void drop_fixture(void)
{
    eh_tensor **all = (eh_tensor **)&fx;
    for (size_t k = 0; k < sizeof fx / sizeof(eh_tensor *); k++) {
        eh_release(all[k]);
        all[k] = NULL;
    }
}

/* ---- one runner per op ------------------------------------------------------
 *
 * run_<op>(out) calls eh_<op> with the fixture's inputs and puts its
 * results in out[0 ..]; it returns the call's status (an op returning a
 * tensor: EH_OK when it is non-NULL).  Elementwise ops all have one
 * signature, so their runners are made from ops.def's kind column; the
 * others are written out below.  The table after them names run_<op> for
 * every op in ops.def: an op without a runner does not compile. */

/* EH_OK for a result, else the recorded error (-1: NULL with none). */
static eh_status one(eh_tensor **out, eh_tensor *r)
{
    out[0] = r;
    if (r)
        return EH_OK;
    return eh_last_error() != EH_OK ? eh_last_error() : (eh_status)-1;
}

#define RUNNER_UNARY(name) \
    static eh_status run_##name(eh_tensor **out) { return one(out, eh_##name(fx.u)); }
#define RUNNER_BINARY(name) \
    static eh_status run_##name(eh_tensor **out) { return one(out, eh_##name(fx.a, fx.b)); }
#define RUNNER_TERNARY(name) \
    static eh_status run_##name(eh_tensor **out) { return one(out, eh_##name(fx.a, fx.b, fx.c)); }
#define RUNNER_CREATION(name)
#define RUNNER_SHAPE(name)
#define RUNNER_REDUCTION(name)
#define RUNNER_LINALG(name)
#define RUNNER_SIGNAL(name)
#define RUNNER_RANDOM(name)
#define RUNNER_CONVERT(name)
#define RUNNER_META(name)
#define EH_OP(name, kind, n_in) RUNNER_##kind(name)
#include <eh/ops.def>

#define RUN1(name, expr) \
    static eh_status run_##name(eh_tensor **out) { return one(out, (expr)); }

/* creation */
RUN1(zeros, eh_zeros(2, SHAPE(2, 3), EH_F64))
RUN1(ones, eh_ones(2, SHAPE(2, 3), EH_F32))
RUN1(full, eh_full(2, SHAPE(2, 3), 2.5, EH_F64))
RUN1(zeros_like, eh_zeros_like(fx.a))
RUN1(ones_like, eh_ones_like(fx.b))
RUN1(full_like, eh_full_like(fx.a, -1.0))
RUN1(arange, eh_arange(0, 5, 0.5, EH_F64))
RUN1(linspace, eh_linspace(0, 1, 7, 1, EH_F32))
RUN1(eye, eh_eye(3, 4, 1, EH_F64))
RUN1(copy, eh_copy(fx.a))
RUN1(triu_indices, eh_triu_indices(4, 0, 3))
RUN1(tril_indices, eh_tril_indices(4, -1, 4))
RUN1(hann_window, eh_hann_window(8, 1, EH_F32))
RUN1(hamming_window, eh_hamming_window(9, 0, EH_F64))

/* shape */
RUN1(reshape, eh_reshape(fx.a, 2, SHAPE(3, 2)))
RUN1(transpose, eh_transpose(fx.s1, (const int[]){2, 0, 1}, 3))
RUN1(expand_dims, eh_expand_dims(fx.a, 1))
RUN1(squeeze, eh_squeeze(fx.s1, NULL, 0))
RUN1(concatenate, eh_concatenate((const eh_tensor *const[]){fx.a, fx.b, fx.c}, 3, 1))
RUN1(stack, eh_stack((const eh_tensor *const[]){fx.a, fx.b}, 2, 1))
static eh_status run_split(eh_tensor **out) { return eh_split(fx.a, 3, 1, out); }
RUN1(tile, eh_tile(fx.b, (const int64_t[]){2, 1}, 2))
RUN1(repeat, eh_repeat(fx.a, 2, 1))
RUN1(slice, eh_slice(fx.c, (const int64_t[]){1, 2}, (const int64_t[]){EH_SLICE_START, EH_SLICE_END},
                     (const int64_t[]){-1, -1}, 2))
RUN1(gather, eh_gather(fx.a, fx.idx, 1))
RUN1(scatter, eh_scatter(fx.a, fx.idx, 3, EH_SCATTER_MEAN))
RUN1(pad, eh_pad(fx.a, (const int64_t[]){1, 1, 2, 0}, EH_PAD_REFLECT, 0))
RUN1(flip, eh_flip(fx.a, NULL, 0))
RUN1(roll, eh_roll(fx.a, 2, 1))
RUN1(broadcast_to, eh_broadcast_to(fx.v3, 2, SHAPE(2, 3)))
RUN1(triu, eh_triu(fx.sq, 0))
RUN1(tril, eh_tril(fx.tall, -1))
RUN1(frame, eh_frame(fx.sig, 8, 3, -1))

/* comparison and reductions */
RUN1(allclose, eh_allclose(fx.a, fx.b, 1e-5, 1e-8, 0))
RUN1(sum, eh_sum(fx.a, (const int[]){1}, 1, 0))
RUN1(mean, eh_mean(fx.b, NULL, 0, 1))
RUN1(prod, eh_prod(fx.a, (const int[]){0}, 1, 0))
RUN1(max, eh_max(fx.a, NULL, 0, 0))
RUN1(min, eh_min(fx.b, (const int[]){-1}, 1, 1))
RUN1(var, eh_var(fx.a, (const int[]){1}, 1, 1, 0))
RUN1(std, eh_std(fx.b, NULL, 0, 0, 0))
RUN1(argmax, eh_argmax(fx.a, 1, 0))
RUN1(argmin, eh_argmin(fx.b, 0, 1))
RUN1(cumsum, eh_cumsum(fx.a, 1))
RUN1(cumprod, eh_cumprod(fx.b, 0))
RUN1(logsumexp, eh_logsumexp(fx.a, (const int[]){1}, 1, 1))
RUN1(softmax, eh_softmax(fx.a, 1))
RUN1(log_softmax, eh_log_softmax(fx.b, 0))
RUN1(norm, eh_norm(fx.sq, EH_NORM_2, (const int[]){0, 1}, 2, 0)) /* a matrix norm: an SVD */

/* linear algebra */
RUN1(matmul, eh_matmul(fx.a, fx.tall))
RUN1(dot, eh_dot(fx.v3, fx.v3))
RUN1(outer, eh_outer(fx.v3, fx.v4))
RUN1(solve, eh_solve(fx.sq, fx.rhs))
RUN1(inv, eh_inv(fx.sq))
RUN1(det, eh_det(fx.sq))
RUN1(cholesky, eh_cholesky(fx.sq))
static eh_status run_qr(eh_tensor **out) { return eh_qr(fx.tall, &out[0], &out[1]); }
static eh_status run_svd(eh_tensor **out) { return eh_svd(fx.tall, 1, &out[0], &out[1], &out[2]); }
static eh_status run_eigh(eh_tensor **out) { return eh_eigh(fx.sq, &out[0], &out[1]); }
RUN1(lstsq, eh_lstsq(fx.tall, fx.rhs))

/* signal */
RUN1(stft, eh_stft(fx.sig, 8, 4, fx.win, 1))
RUN1(rfft, eh_rfft(fx.sig, 8, -1))
RUN1(irfft, eh_irfft(fx.spec, 8, 1))

/* random: each run seeds first, so every run draws the same numbers */
static eh_status run_seed(eh_tensor **out)
{
    (void)out;
    eh_seed(12345);
    return EH_OK;
}
#define RUN_RANDOM(name, expr) \
    static eh_status run_##name(eh_tensor **out) { eh_seed(7); return one(out, (expr)); }
RUN_RANDOM(random_uniform, eh_random_uniform(2, SHAPE(2, 3), -1, 2, EH_F32))
RUN_RANDOM(random_normal, eh_random_normal(2, SHAPE(3, 3), 1, 2, EH_F64))
RUN_RANDOM(random_bernoulli, eh_random_bernoulli(1, SHAPE(7), 0.3))
RUN_RANDOM(random_poisson, eh_random_poisson(1, SHAPE(5), 3.5))
RUN_RANDOM(random_exponential, eh_random_exponential(1, SHAPE(5), 2, EH_F64))
RUN_RANDOM(random_gamma, eh_random_gamma(1, SHAPE(6), 0.5, 2, EH_F32))
RUN_RANDOM(random_binomial, eh_random_binomial(1, SHAPE(5), 10, 0.3))
RUN_RANDOM(random_categorical, eh_random_categorical(fx.logits, 5))
RUN_RANDOM(random_permutation, eh_random_permutation(10))
RUN_RANDOM(random_randint, eh_random_randint(2, SHAPE(2, 2), -3, 9, EH_I64))

/* dtype and device */
RUN1(cast, eh_cast(fx.a, EH_F16))
static eh_status run_result_type(eh_tensor **out)
{
    (void)out;
    eh_dtype dt;
    eh_status st = eh_result_type(EH_F32, EH_I64, &dt);
    return st == EH_OK && dt != EH_F32 && dt != EH_F64 ? (eh_status)-1 : st;
}
static eh_status run_get_available_devices(eh_tensor **out)
{
    (void)out;
    const char *names[4];
    return eh_get_available_devices(names, 4) >= 1 ? EH_OK : eh_last_error();
}
RUN1(to_device, eh_to_device(fx.b, "cpu"))
static eh_status run_get_device(eh_tensor **out)
{
    (void)out;
    const char *d = eh_get_device(fx.a);
    return d && strcmp(d, "cpu") == 0 ? EH_OK : eh_last_error();
}

typedef struct op_case {
    const char *name, *kind;
    eh_status (*run)(eh_tensor **out);
} op_case;

#define EH_OP(name, kind, n_in) {#name, #kind, run_##name},
static const op_case cases[] = {
#include <eh/ops.def>
};
#define N_CASES ((int)(sizeof cases / sizeof cases[0]))

/* More inputs for paths the cases above do not take: kernels' other
 * workspaces (f16 accumulators, blas's split and streamed reductions),
 * storage of 4 MiB or more (its own block, outside the cache of freed
 * ones), a lazy graph wider than evaluation's first stack. */
RUN1(matmul_f16, eh_matmul(fx.a16, fx.tall16))
RUN1(sum_split_rows, eh_sum(fx.lanky, (const int[]){0}, 1, 0))
RUN1(var_split_rows, eh_var(fx.lanky, (const int[]){0}, 1, 1, 1))
RUN1(mean_streamed_rows, eh_mean(fx.wide, (const int[]){0}, 1, 0))
RUN1(std_streamed_rows, eh_std(fx.wide, (const int[]){0}, 1, 0, 0))
static eh_status run_full_huge(eh_tensor **out)
{
    (void)eh_trim_memory(); /* no cached block: a fresh one */
    return one(out, eh_full(1, SHAPE(600000), 0.5, EH_F64));
}
#define WIDE_N 80
static eh_status run_stack_wide_graph(eh_tensor **out)
{
    eh_tensor *parts[WIDE_N];
    int n = 0;
    eh_status st = EH_OK;
    for (; n < WIDE_N && st == EH_OK; n++)
        if (!(parts[n] = eh_multiply_scalar(fx.a, (double)n)))
            st = eh_last_error();
    if (st == EH_OK)
        st = one(out, eh_stack((const eh_tensor *const *)parts, n, 0));
    while (n > 0)
        eh_release(parts[--n]);
    return st;
}

RUN_RANDOM(random_permutation_big, eh_random_permutation(9000)) /* blas: keys on the pool */

/* Frontend functions beyond ops.def's names: scalar operands, flat forms,
 * other splits, tensors from host memory, copy-on-write of a view. */
RUN1(add_scalar, eh_add_scalar(fx.b, 2.5))
RUN1(scalar_power, eh_scalar_power(2.0, fx.u))
RUN1(clip_scalar, eh_clip_scalar(fx.a, 2, 4))
RUN1(argmax_flat, eh_argmax_flat(fx.a, 1))
RUN1(cumsum_flat, eh_cumsum_flat(fx.b))
RUN1(softmax_flat, eh_softmax_flat(fx.a))
RUN1(repeat_flat, eh_repeat_flat(fx.b, 2))
RUN1(roll_flat, eh_roll_flat(fx.a, -2))
RUN1(scalar, eh_scalar(3.25, EH_F16))
RUN1(convert_to_tensor, eh_convert_to_tensor((const int32_t[]){1, 2, 3, 4}, 2, SHAPE(2, 2), EH_I32))
static eh_status run_array_split(eh_tensor **out) { return eh_array_split(fx.a, 2, 1, out); }
static eh_status run_split_at(eh_tensor **out)
{
    return eh_split_at(fx.a, (const int64_t[]){2, 1}, 2, 1, out); /* overlapping: two calls */
}
static eh_status run_write_view(eh_tensor **out)
{
    eh_tensor *v = eh_reshape(fx.c, 1, SHAPE(6)); /* shares fx.c's block */
    if (!v)
        return eh_last_error();
    double *p = eh_data_f64(v); /* a private copy first */
    if (!p) {
        eh_release(v);
        return eh_last_error();
    }
    p[0] = -p[0];
    out[0] = v;
    return EH_OK;
}

/* Custom ops: a per-element one with params (lazy fuses it), and one whose
 * kernel makes its output with frontend ops (EH_CUSTOM_DYNAMIC). */
typedef struct affine_params {
    double a, b;
} affine_params;

static double affine(const double *x, const void *params)
{
    const affine_params *p = params;
    return p->a * x[0] + p->b;
}

static eh_status muladd_kernel(const eh_op_call *call)
{
    eh_tensor *m = eh_multiply(call->in[0], call->in[1]);
    eh_tensor *r = eh_add(m, call->in[0]);
    eh_release(m);
    return eh_custom_output_set(call, 0, r);
}

static void define_custom_ops(void)
{
    static const eh_custom_op_def affine_def = {
        .name = "nomem.affine", .n_in = 1, .n_out = 1, .rule = EH_CUSTOM_ELEMENTWISE,
        .float_result = 1, .params_size = sizeof(affine_params), .per_element = affine};
    static const eh_custom_op_def muladd_def = {
        .name = "nomem.muladd", .n_in = 2, .n_out = 1, .rule = EH_CUSTOM_DYNAMIC,
        .fallback = "ref"};
    assert_int_equal(eh_custom_op_define(&affine_def), EH_OK);
    assert_int_equal(eh_custom_op_define(&muladd_def), EH_OK);
    assert_int_equal(eh_custom_op_kernel("nomem.muladd", "ref", muladd_kernel), EH_OK);
}

static eh_status run_custom_affine(eh_tensor **out)
{
    affine_params p = {2.0, -0.5};
    eh_custom_args args = {.params = &p, .params_size = sizeof p};
    eh_tensor *y = eh_custom_call("nomem.affine", EH_INPUTS(fx.u), &args);
    eh_status st = one(out, eh_sqrt(y)); /* one fused region on lazy */
    eh_release(y);
    return st;
}
RUN1(custom_muladd, eh_custom_call("nomem.muladd", EH_INPUTS(fx.a, fx.b), NULL))

static const op_case more_cases[] = {
    {"random_permutation of 9000", "RANDOM", run_random_permutation_big},
    {"add_scalar", "BINARY", run_add_scalar},
    {"scalar_power", "BINARY", run_scalar_power},
    {"clip_scalar", "TERNARY", run_clip_scalar},
    {"argmax_flat", "REDUCTION", run_argmax_flat},
    {"cumsum_flat", "REDUCTION", run_cumsum_flat},
    {"softmax_flat", "REDUCTION", run_softmax_flat},
    {"repeat_flat", "SHAPE", run_repeat_flat},
    {"roll_flat", "SHAPE", run_roll_flat},
    {"scalar", "CREATION", run_scalar},
    {"convert_to_tensor", "CREATION", run_convert_to_tensor},
    {"array_split", "SHAPE", run_array_split},
    {"split_at", "SHAPE", run_split_at},
    {"writing a view", "SHAPE", run_write_view},
    {"custom per-element op", "CUSTOM", run_custom_affine},
    {"custom dynamic op", "CUSTOM", run_custom_muladd},
    {"matmul f16", "LINALG", run_matmul_f16},
    {"sum of 70000 rows", "REDUCTION", run_sum_split_rows},
    {"var of 70000 rows", "REDUCTION", run_var_split_rows},
    {"mean of 512 wide rows", "REDUCTION", run_mean_streamed_rows},
    {"std of 512 wide rows", "REDUCTION", run_std_streamed_rows},
    {"full of 4.8 MB", "CREATION", run_full_huge},
    {"stack of 80 deferred", "SHAPE", run_stack_wide_graph},
};

/* ---- checks ------------------------------------------------------------------ */

/* Where stdout and stderr go while the hook is armed. */
static FILE *sink;
static int saved_fd[2] = {-1, -1};

static void quiet_begin(void)
{
    if (!sink)
        return;
    fflush(stdout);
    fflush(stderr);
    for (int k = 0; k < 2; k++) {
        saved_fd[k] = dup(k + 1);
        dup2(fileno(sink), k + 1);
    }
}

/* Bytes printed into the sink so far (a test fails at the first). */
static long quiet_end(void)
{
    if (!sink)
        return 0;
    fflush(stdout);
    fflush(stderr);
    for (int k = 0; k < 2; k++) {
        dup2(saved_fd[k], k + 1);
        close(saved_fd[k]);
    }
    return (long)lseek(fileno(sink), 0, SEEK_END);
}

static void sink_open(void)
{
    const char *v = getenv("EH_NOMEM_VERBOSE");
    sink = v && *v && strcmp(v, "0") != 0 ? NULL : tmpfile();
}

static void sink_close(void)
{
    if (sink)
        fclose(sink);
    sink = NULL;
}

/* A result, kept to compare runs with: dtype, shape and bytes. */
typedef struct snapshot {
    int present;
    eh_dtype dtype;
    int ndim;
    int64_t shape[8];
    size_t nbytes;
    unsigned char *bytes;
} snapshot;

static void snap(snapshot *s, const eh_tensor *t)
{
    memset(s, 0, sizeof *s);
    if (!t)
        return;
    s->present = 1;
    s->dtype = eh_get_dtype(t);
    s->ndim = eh_ndim(t);
    memcpy(s->shape, eh_shape(t), (size_t)s->ndim * sizeof(int64_t));
    s->nbytes = eh_nbytes(t);
    s->bytes = malloc(s->nbytes ? s->nbytes : 1);
    assert_non_null(s->bytes);
    if (eh_to_buffer(t, s->bytes, s->nbytes) != EH_OK)
        fail_msg("reading a result: %s", eh_error_message());
}

static void unsnap(snapshot *s)
{
    free(s->bytes);
    memset(s, 0, sizeof *s);
}

/* t equals the snapshot, bit for bit. */
static void same_as(const char *ctx, int k, const snapshot *want, const eh_tensor *t)
{
    snapshot got;
    snap(&got, t);
    if (got.present != want->present)
        fail_msg("%s: output %d is %s, expected %s", ctx, k, got.present ? "there" : "NULL",
                 want->present ? "a tensor" : "NULL");
    if (got.present &&
        (got.dtype != want->dtype || got.ndim != want->ndim ||
         memcmp(got.shape, want->shape, (size_t)got.ndim * sizeof(int64_t)) != 0 ||
         got.nbytes != want->nbytes || memcmp(got.bytes, want->bytes, got.nbytes) != 0))
        fail_msg("%s: output %d differs from the run without the hook", ctx, k);
    unsnap(&got);
}

static void release_outs(eh_tensor **out)
{
    for (int k = 0; k < MAX_OUT; k++) {
        eh_release(out[k]);
        out[k] = NULL;
    }
}

/* Evaluate every output (lazy computes them here). */
static eh_status eval_outs(eh_tensor **out)
{
    for (int k = 0; k < MAX_OUT; k++)
        if (out[k]) {
            eh_status st = eh_eval(out[k]);
            if (st != EH_OK)
                return st;
        }
    return EH_OK;
}

/* The library still works: a fresh op gives the right value. */
static void still_usable(const char *ctx)
{
    assert_int_equal(eh_scope_depth(), 0);
    eh_tensor *r = eh_multiply_scalar(fx.a, 2.0);
    if (!r)
        fail_msg("%s: the next op failed: %s", ctx, eh_error_message());
    for (int k = 0; k < 6; k++)
        if (t_at(r, k) != 2.0 * (1.5 + 0.75 * k))
            fail_msg("%s: the next op gave a wrong value", ctx);
    eh_release(r);
}

/* Step allocation failures through one op case, called outside any scope
 * (nothing frees what a run forgets) or, `scoped`, inside a fresh one (its
 * list's first allocation fails too).  Returns how many allocations failed. */
static int sweep(const op_case *c, int scoped)
{
    char ctx[160];
    eh_tensor *out[MAX_OUT] = {0};
    snapshot want[MAX_OUT];

    /* the reference run */
    eh_clear_error();
    eh_status st = c->run(out);
    if (st == EH_OK)
        st = eval_outs(out);
    if (st != EH_OK)
        fail_msg("%s: fails without the hook: %s: %s", c->name, eh_status_name(st),
                 eh_error_message());
    for (int k = 0; k < MAX_OUT; k++)
        snap(&want[k], out[k]);
    release_outs(out);

    long long live0, peak;
    eh__test_storage_bytes(&live0, &peak);
    int nth;
    for (nth = 1; nth < 10000; nth++) {
        snprintf(ctx, sizeof ctx, "%s on %s%s, allocation %d failing", c->name, eh_get_backend(),
                 scoped ? " in a scope" : "", nth);
        if (scoped)
            assert_int_equal(eh_scope_begin(), EH_OK);
        eh_clear_error();
        quiet_begin();
        eh__test_fail_alloc(nth);
        st = c->run(out);
        int made = st == EH_OK;
        if (made)
            st = eval_outs(out);
        int fired = eh__test_fail_alloc(0) == 0;
        long printed = quiet_end();
        if (printed > 0)
            fail_msg("%s: libeh printed %ld bytes", ctx, printed);
        if (!fired) { /* past the last allocation: the run is a plain one */
            if (st != EH_OK)
                fail_msg("%s: failed with no allocation failing: %s: %s", ctx, eh_status_name(st),
                         eh_error_message());
            for (int k = 0; k < MAX_OUT; k++)
                same_as(ctx, k, &want[k], out[k]);
            release_outs(out);
            if (scoped)
                assert_int_equal(eh_scope_end(), EH_OK);
            break;
        }
        if (st == EH_OK) {
            /* Some allocations may fail without failing the op (a cache that
             * is not filled, a fallback): then the value must be right. */
            for (int k = 0; k < MAX_OUT; k++)
                same_as(ctx, k, &want[k], out[k]);
        } else {
            if (st != EH_ERR_NOMEM)
                fail_msg("%s: returned %s (%d), expected EH_ERR_NOMEM", ctx,
                         eh_status_name(st), (int)st);
            if (eh_last_error() != EH_ERR_NOMEM)
                fail_msg("%s: eh_last_error() is %s, expected EH_ERR_NOMEM: %s", ctx,
                         eh_status_name(eh_last_error()), eh_error_message());
            if (!strstr(eh_error_message(), "memory"))
                fail_msg("%s: message '%s' does not say memory", ctx, eh_error_message());
            if (made) {
                /* failed at evaluation (lazy): the outputs are still good */
                eh_clear_error();
                if (eval_outs(out) != EH_OK)
                    fail_msg("%s: evaluating again after the failure: %s", ctx,
                             eh_error_message());
                for (int k = 0; k < MAX_OUT; k++)
                    same_as(ctx, k, &want[k], out[k]);
            } else {
                for (int k = 0; k < MAX_OUT; k++)
                    if (out[k])
                        fail_msg("%s: failed but output %d is not NULL", ctx, k);
            }
        }
        release_outs(out);
        if (scoped)
            assert_int_equal(eh_scope_end(), EH_OK);
        long long live, pk;
        eh__test_storage_bytes(&live, &pk);
        if (live != live0)
            fail_msg("%s: %lld bytes of storage live after the run, %lld before", ctx, live, live0);
        eh_clear_error();
        still_usable(ctx);
    }
    for (int k = 0; k < MAX_OUT; k++)
        unsnap(&want[k]);
    return nth - 1;
}

static void test_every_op(void **state)
{
    (void)state;
    assert_int_equal(N_CASES, eh_op_count());
    make_fixture();
    define_custom_ops();
    sink_open();
    int total = 0, with_alloc = 0;
    for (int k = 0; k < N_CASES; k++) {
        assert_string_equal(cases[k].name, eh_op_name(k));
        int n = sweep(&cases[k], 0);
        total += sweep(&cases[k], 1);
        if (!sink) /* EH_NOMEM_VERBOSE */
            print_message("%-22s %3d allocations\n", cases[k].name, n);
        total += n;
        with_alloc += n > 0;
        if (n == 0 && strcmp(cases[k].kind, "META") != 0)
            fail_msg("%s: no allocation was reached", cases[k].name);
    }
    for (size_t k = 0; k < sizeof more_cases / sizeof more_cases[0]; k++) {
        int n = sweep(&more_cases[k], 0);
        total += n + sweep(&more_cases[k], 1);
        if (!sink)
            print_message("%-22s %3d allocations\n", more_cases[k].name, n);
        if (n == 0)
            fail_msg("%s: no allocation was reached", more_cases[k].name);
    }
    sink_close();
    drop_fixture();
    print_message("%d ops, %d failing allocations on %s\n", with_alloc, total, eh_get_backend());
}

/* ---- fused chains -------------------------------------------------------------- */

/* sqrt(abs(tanh((x - m) / s) * 3 + 1)) over x of n elements, m and s
 * broadcast: one fused region on lazy (a slice, a gathered row, a scalar). */
static eh_tensor *chain(const eh_tensor *x, const eh_tensor *m, const eh_tensor *s)
{
    eh_tensor *r = NULL;
    if (eh_scope_begin() != EH_OK)
        return NULL;
    r = eh_keep(eh_sqrt(eh_abs(eh_add_scalar(
        eh_multiply_scalar(eh_tanh(eh_divide(eh_subtract(x, m), s)), 3.0), 1.0))));
    eh_scope_end();
    return r;
}

static void chain_inputs(eh_tensor **x, eh_tensor **m, eh_tensor **s)
{
    *x = seq(EH_F32, 2, SHAPE(4, 8), -3.0, 0.2);
    *m = seq(EH_F32, 1, SHAPE(8), 0.5, -0.1);
    *s = seq(EH_F64, 0, NULL, 1.5, 0);
}

/* Building and evaluating the chain, every allocation failing in turn. */
static void test_fused_chain(void **state)
{
    (void)state;
    eh_tensor *x, *m, *s;
    chain_inputs(&x, &m, &s);
    make_fixture();
    sink_open();
    eh_tensor *r0 = chain(x, m, s);
    assert_non_null(r0);
    snapshot want;
    snap(&want, r0);
    eh_release(r0);
    int nth, failed = 0;
    for (nth = 1; nth < 10000; nth++) {
        char ctx[96];
        snprintf(ctx, sizeof ctx, "chain on %s, allocation %d failing", eh_get_backend(), nth);
        eh_clear_error();
        quiet_begin();
        eh__test_fail_alloc(nth);
        eh_tensor *r = chain(x, m, s);
        eh_status st = r ? eh_eval(r) : eh_last_error();
        int fired = eh__test_fail_alloc(0) == 0;
        if (quiet_end() > 0)
            fail_msg("%s: libeh printed", ctx);
        assert_int_equal(eh_scope_depth(), 0);
        if (st != EH_OK) {
            failed++;
            if (st != EH_ERR_NOMEM || eh_last_error() != EH_ERR_NOMEM)
                fail_msg("%s: %s, expected EH_ERR_NOMEM: %s", ctx, eh_status_name(st),
                         eh_error_message());
            eh_clear_error();
        }
        if (r) /* made: right now or, when its evaluation failed, on a retry */
            same_as(ctx, 0, &want, r);
        eh_release(r);
        still_usable(ctx);
        if (!fired)
            break;
    }
    assert_true(failed > 5);
    unsnap(&want);
    sink_close();
    drop_fixture();
    eh_release(x);
    eh_release(m);
    eh_release(s);
}

/* A recorded chain (lazy) whose evaluation alone fails, at each of its
 * allocations in turn: the graph stays whole, and evaluating again works. */
static void test_fused_chain_eval(void **state)
{
    (void)state;
    eh_tensor *x, *m, *s;
    chain_inputs(&x, &m, &s);
    make_fixture();
    sink_open();
    eh_tensor *r0 = chain(x, m, s);
    snapshot want;
    snap(&want, r0);
    eh_release(r0);
    int nth, failed = 0;
    for (nth = 1; nth < 10000; nth++) {
        char ctx[96];
        snprintf(ctx, sizeof ctx, "chain eval on %s, allocation %d failing", eh_get_backend(), nth);
        eh_tensor *r = chain(x, m, s);
        assert_non_null(r);
        eh_clear_error();
        quiet_begin();
        eh__test_fail_alloc(nth);
        eh_status st = eh_eval(r);
        int fired = eh__test_fail_alloc(0) == 0;
        if (quiet_end() > 0)
            fail_msg("%s: libeh printed", ctx);
        if (st != EH_OK) {
            failed++;
            if (st != EH_ERR_NOMEM || eh_last_error() != EH_ERR_NOMEM)
                fail_msg("%s: %s, expected EH_ERR_NOMEM: %s", ctx, eh_status_name(st),
                         eh_error_message());
            eh_clear_error();
        }
        same_as(ctx, 0, &want, r);
        eh_release(r);
        still_usable(ctx);
        if (!fired)
            break;
    }
    if (!backend_is_eager())
        assert_true(failed > 0);
    unsnap(&want);
    sink_close();
    drop_fixture();
    eh_release(x);
    eh_release(m);
    eh_release(s);
}

/* ---- scopes ------------------------------------------------------------------- */

/* A nested expression inside a scope, every allocation failing in turn
 * (the scope's own list included): the scope frees everything, none is
 * left open. */
static void test_nested_in_scope(void **state)
{
    (void)state;
    make_fixture();
    sink_open();
    int nth;
    for (nth = 1; nth < 10000; nth++) {
        char ctx[96];
        snprintf(ctx, sizeof ctx, "scope on %s, allocation %d failing", eh_get_backend(), nth);
        eh_clear_error();
        quiet_begin();
        eh__test_fail_alloc(nth);
        eh_status st = eh_scope_begin();
        eh_tensor *r = NULL;
        if (st == EH_OK) {
            r = eh_keep(eh_sum(eh_matmul(eh_divide(eh_subtract(fx.a, fx.b), fx.c), fx.tall),
                               NULL, 0, 0));
            eh_scope_end();
        }
        st = st != EH_OK ? st : r ? eh_eval(r) : eh_last_error();
        int fired = eh__test_fail_alloc(0) == 0;
        if (quiet_end() > 0)
            fail_msg("%s: libeh printed", ctx);
        assert_int_equal(eh_scope_depth(), 0);
        if (st != EH_OK && (st != EH_ERR_NOMEM || eh_last_error() != EH_ERR_NOMEM))
            fail_msg("%s: %s, expected EH_ERR_NOMEM: %s", ctx, eh_status_name(st),
                     eh_error_message());
        eh_clear_error();
        eh_release(r);
        still_usable(ctx);
        if (!fired)
            break;
    }
    assert_true(nth > 5);
    sink_close();
    drop_fixture();
}

int main(void)
{
    /* One thread: every kernel's allocations are then the caller's, which
     * the hook counts (before anything reads it). */
    setenv("EH_NUM_THREADS", "1", 1);
    const struct CMUnitTest tests[] = {
        EH_TEST(test_every_op),
        EH_TEST(test_fused_chain),
        EH_TEST(test_fused_chain_eval),
        EH_TEST(test_nested_in_scope),
    };
    return EH_RUN_TESTS(tests);
}
