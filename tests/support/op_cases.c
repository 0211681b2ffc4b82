/* Implementation of tests/support/op_cases.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "eh_test.h"
#include "op_cases.h"
#include <eh/backend_api.h> // emberlint-ignore EH101 (a custom-op kernel)

op_fixture op_fx;

eh_tensor *op_seq(eh_dtype dtype, int ndim, const int64_t *shape, double start, double step)
{
    int64_t n = 1;
    for (int d = 0; d < ndim; d++)
        n *= shape[d];
    double v[64];
    assert_true(n <= 64);
    for (int64_t k = 0; k < n; k++)
        v[k] = start + step * (double)k;
    return t_from(dtype, ndim, shape, v);
}

static void make_fixture(void)
{
    op_fx.u = op_seq(EH_F32, 2, SHAPE(2, 3), 0.125, 0.125);
    op_fx.a = op_seq(EH_F64, 2, SHAPE(2, 3), 1.5, 0.75);
    op_fx.b = op_seq(EH_F32, 2, SHAPE(2, 3), 0.5, 0.25);
    op_fx.c = op_seq(EH_F64, 2, SHAPE(2, 3), 3.0, 0.5);
    op_fx.s1 = op_seq(EH_F64, 3, SHAPE(1, 2, 3), -1.0, 0.5);
    op_fx.v3 = op_seq(EH_F64, 1, SHAPE(3), 1.0, 1.0);
    op_fx.v4 = op_seq(EH_F64, 1, SHAPE(4), -1.5, 1.0);
    op_fx.sq = T_F64(SHAPE(3, 3), 4, 1, 0.5, 1, 3, 0.25, 0.5, 0.25, 2);
    op_fx.tall = T_F64(SHAPE(3, 2), 1, 2, 3, 4, 5, 7);
    op_fx.rhs = T_F64(SHAPE(3, 2), 1, 0, 0, 1, 2, 3);
    op_fx.idx = t_from(EH_I32, 1, SHAPE(2), (const double[]){1, 0});
    op_fx.sig = op_seq(EH_F64, 2, SHAPE(2, 16), -2.0, 0.3);
    op_fx.spec = op_seq(EH_F64, 3, SHAPE(2, 5, 2), 1.0, -0.2);
    op_fx.win = op_seq(EH_F32, 1, SHAPE(8), 0.25, 0.125);
    op_fx.logits = T_F64(SHAPE(2, 4), 0, 1, 2, 3, -1, 0.5, 0.25, 2);
    op_fx.a16 = eh_cast(op_fx.a, EH_F16);
    op_fx.tall16 = eh_cast(op_fx.tall, EH_F16);
    eh_tensor *r = eh_arange(0, 140000, 1, EH_F64);
    op_fx.lanky = eh_reshape(r, 2, SHAPE(70000, 2));
    eh_release(r);
    r = eh_random_uniform(2, SHAPE(512, 512), -1, 1, EH_F32);
    op_fx.wide = eh_copy(r); /* materialized (lazy) */
    eh_release(r);
    assert_non_null(op_fx.a16);
    assert_non_null(op_fx.tall16);
    assert_non_null(op_fx.lanky);
    assert_non_null(op_fx.wide);
    assert_int_equal(eh_eval(op_fx.wide), EH_OK);
}

static void drop_fixture(void)
{
    eh_tensor **all = (eh_tensor **)&op_fx;
    for (size_t k = 0; k < sizeof op_fx / sizeof(eh_tensor *); k++) {
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
    static eh_status run_##name(eh_tensor **out) { return one(out, eh_##name(op_fx.u)); }
#define RUNNER_BINARY(name) \
    static eh_status run_##name(eh_tensor **out) { return one(out, eh_##name(op_fx.a, op_fx.b)); }
#define RUNNER_TERNARY(name) \
    static eh_status run_##name(eh_tensor **out) { return one(out, eh_##name(op_fx.a, op_fx.b, op_fx.c)); }
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
RUN1(zeros_like, eh_zeros_like(op_fx.a))
RUN1(ones_like, eh_ones_like(op_fx.b))
RUN1(full_like, eh_full_like(op_fx.a, -1.0))
RUN1(arange, eh_arange(0, 5, 0.5, EH_F64))
RUN1(linspace, eh_linspace(0, 1, 7, 1, EH_F32))
RUN1(eye, eh_eye(3, 4, 1, EH_F64))
RUN1(copy, eh_copy(op_fx.a))
RUN1(triu_indices, eh_triu_indices(4, 0, 3))
RUN1(tril_indices, eh_tril_indices(4, -1, 4))
RUN1(hann_window, eh_hann_window(8, 1, EH_F32))
RUN1(hamming_window, eh_hamming_window(9, 0, EH_F64))

/* shape */
RUN1(reshape, eh_reshape(op_fx.a, 2, SHAPE(3, 2)))
RUN1(transpose, eh_transpose(op_fx.s1, (const int[]){2, 0, 1}, 3))
RUN1(expand_dims, eh_expand_dims(op_fx.a, 1))
RUN1(squeeze, eh_squeeze(op_fx.s1, NULL, 0))
RUN1(concatenate, eh_concatenate((const eh_tensor *const[]){op_fx.a, op_fx.b, op_fx.c}, 3, 1))
RUN1(stack, eh_stack((const eh_tensor *const[]){op_fx.a, op_fx.b}, 2, 1))
static eh_status run_split(eh_tensor **out) { return eh_split(op_fx.a, 3, 1, out); }
RUN1(tile, eh_tile(op_fx.b, (const int64_t[]){2, 1}, 2))
RUN1(repeat, eh_repeat(op_fx.a, 2, 1))
RUN1(slice, eh_slice(op_fx.c, (const int64_t[]){1, 2}, (const int64_t[]){EH_SLICE_START, EH_SLICE_END},
                     (const int64_t[]){-1, -1}, 2))
RUN1(gather, eh_gather(op_fx.a, op_fx.idx, 1))
RUN1(scatter, eh_scatter(op_fx.a, op_fx.idx, 3, EH_SCATTER_MEAN))
RUN1(pad, eh_pad(op_fx.a, (const int64_t[]){1, 1, 2, 0}, EH_PAD_REFLECT, 0))
RUN1(flip, eh_flip(op_fx.a, NULL, 0))
RUN1(roll, eh_roll(op_fx.a, 2, 1))
RUN1(broadcast_to, eh_broadcast_to(op_fx.v3, 2, SHAPE(2, 3)))
RUN1(triu, eh_triu(op_fx.sq, 0))
RUN1(tril, eh_tril(op_fx.tall, -1))
RUN1(frame, eh_frame(op_fx.sig, 8, 3, -1))

/* comparison and reductions */
RUN1(allclose, eh_allclose(op_fx.a, op_fx.b, 1e-5, 1e-8, 0))
RUN1(sum, eh_sum(op_fx.a, (const int[]){1}, 1, 0))
RUN1(mean, eh_mean(op_fx.b, NULL, 0, 1))
RUN1(prod, eh_prod(op_fx.a, (const int[]){0}, 1, 0))
RUN1(max, eh_max(op_fx.a, NULL, 0, 0))
RUN1(min, eh_min(op_fx.b, (const int[]){-1}, 1, 1))
RUN1(var, eh_var(op_fx.a, (const int[]){1}, 1, 1, 0))
RUN1(std, eh_std(op_fx.b, NULL, 0, 0, 0))
RUN1(argmax, eh_argmax(op_fx.a, 1, 0))
RUN1(argmin, eh_argmin(op_fx.b, 0, 1))
RUN1(cumsum, eh_cumsum(op_fx.a, 1))
RUN1(cumprod, eh_cumprod(op_fx.b, 0))
RUN1(logsumexp, eh_logsumexp(op_fx.a, (const int[]){1}, 1, 1))
RUN1(softmax, eh_softmax(op_fx.a, 1))
RUN1(log_softmax, eh_log_softmax(op_fx.b, 0))
RUN1(norm, eh_norm(op_fx.sq, EH_NORM_2, (const int[]){0, 1}, 2, 0)) /* a matrix norm: an SVD */

/* linear algebra */
RUN1(matmul, eh_matmul(op_fx.a, op_fx.tall))
RUN1(dot, eh_dot(op_fx.v3, op_fx.v3))
RUN1(outer, eh_outer(op_fx.v3, op_fx.v4))
RUN1(solve, eh_solve(op_fx.sq, op_fx.rhs))
RUN1(inv, eh_inv(op_fx.sq))
RUN1(det, eh_det(op_fx.sq))
RUN1(cholesky, eh_cholesky(op_fx.sq))
static eh_status run_qr(eh_tensor **out) { return eh_qr(op_fx.tall, &out[0], &out[1]); }
static eh_status run_svd(eh_tensor **out) { return eh_svd(op_fx.tall, 1, &out[0], &out[1], &out[2]); }
static eh_status run_eigh(eh_tensor **out) { return eh_eigh(op_fx.sq, &out[0], &out[1]); }
RUN1(lstsq, eh_lstsq(op_fx.tall, op_fx.rhs))

/* signal */
RUN1(stft, eh_stft(op_fx.sig, 8, 4, op_fx.win, 1))
RUN1(rfft, eh_rfft(op_fx.sig, 8, -1))
RUN1(irfft, eh_irfft(op_fx.spec, 8, 1))

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
RUN_RANDOM(random_categorical, eh_random_categorical(op_fx.logits, 5))
RUN_RANDOM(random_permutation, eh_random_permutation(10))
RUN_RANDOM(random_randint, eh_random_randint(2, SHAPE(2, 2), -3, 9, EH_I64))

/* dtype and device */
RUN1(cast, eh_cast(op_fx.a, EH_F16))
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
RUN1(to_device, eh_to_device(op_fx.b, "cpu"))
static eh_status run_get_device(eh_tensor **out)
{
    (void)out;
    const char *d = eh_get_device(op_fx.a);
    return d && strcmp(d, "cpu") == 0 ? EH_OK : eh_last_error();
}

#define EH_OP(name, kind, n_in) {#name, #kind, run_##name},
const op_case op_cases[] = {
#include <eh/ops.def>
};
const int op_case_count = (int)(sizeof op_cases / sizeof op_cases[0]);

/* More inputs for paths the cases above do not take: kernels' other
 * workspaces (f16 accumulators, blas's split and streamed reductions),
 * storage of 4 MiB or more (its own block, outside the cache of freed
 * ones), a lazy graph wider than evaluation's first stack. */
RUN1(matmul_f16, eh_matmul(op_fx.a16, op_fx.tall16))
RUN1(sum_split_rows, eh_sum(op_fx.lanky, (const int[]){0}, 1, 0))
RUN1(var_split_rows, eh_var(op_fx.lanky, (const int[]){0}, 1, 1, 1))
RUN1(mean_streamed_rows, eh_mean(op_fx.wide, (const int[]){0}, 1, 0))
RUN1(std_streamed_rows, eh_std(op_fx.wide, (const int[]){0}, 1, 0, 0))
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
        if (!(parts[n] = eh_multiply_scalar(op_fx.a, (double)n)))
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
RUN1(add_scalar, eh_add_scalar(op_fx.b, 2.5))
RUN1(scalar_power, eh_scalar_power(2.0, op_fx.u))
RUN1(clip_scalar, eh_clip_scalar(op_fx.a, 2, 4))
RUN1(argmax_flat, eh_argmax_flat(op_fx.a, 1))
RUN1(cumsum_flat, eh_cumsum_flat(op_fx.b))
RUN1(softmax_flat, eh_softmax_flat(op_fx.a))
RUN1(repeat_flat, eh_repeat_flat(op_fx.b, 2))
RUN1(roll_flat, eh_roll_flat(op_fx.a, -2))
RUN1(scalar, eh_scalar(3.25, EH_F16))
RUN1(convert_to_tensor, eh_convert_to_tensor((const int32_t[]){1, 2, 3, 4}, 2, SHAPE(2, 2), EH_I32))
static eh_status run_array_split(eh_tensor **out) { return eh_array_split(op_fx.a, 2, 1, out); }
static eh_status run_split_at(eh_tensor **out)
{
    return eh_split_at(op_fx.a, (const int64_t[]){2, 1}, 2, 1, out); /* overlapping: two calls */
}
static eh_status run_write_view(eh_tensor **out)
{
    eh_tensor *v = eh_reshape(op_fx.c, 1, SHAPE(6)); /* shares op_fx.c's block */
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
    eh_tensor *y = eh_custom_call("nomem.affine", EH_INPUTS(op_fx.u), &args);
    eh_status st = one(out, eh_sqrt(y)); /* one fused region on lazy */
    eh_release(y);
    return st;
}
RUN1(custom_muladd, eh_custom_call("nomem.muladd", EH_INPUTS(op_fx.a, op_fx.b), NULL))

const op_case op_more_cases[] = {
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
const int op_more_case_count = (int)(sizeof op_more_cases / sizeof op_more_cases[0]);

void op_cases_setup(void)
{
    make_fixture();
    eh_tensor **all = (eh_tensor **)&op_fx;
    for (size_t k = 0; k < sizeof op_fx / sizeof(eh_tensor *); k++)
        if (eh_eval(all[k]) != EH_OK)
            fail_msg("op_cases_setup: %s", eh_error_message());
    define_custom_ops();
}

void op_cases_teardown(void) { drop_fixture(); }

/* ---- results ------------------------------------------------------------ */

int op_result_take(op_result *r, const eh_tensor *t)
{
    memset(r, 0, sizeof *r);
    if (!t)
        return 0;
    r->present = 1;
    r->dtype = eh_get_dtype(t);
    r->ndim = eh_ndim(t);
    memcpy(r->shape, eh_shape(t), (size_t)r->ndim * sizeof(int64_t));
    r->nbytes = eh_nbytes(t);
    r->bytes = malloc(r->nbytes ? r->nbytes : 1);
    if (!r->bytes || eh_to_buffer(t, r->bytes, r->nbytes) != EH_OK)
        return -1;
    return 0;
}

void op_result_drop(op_result *r)
{
    free(r->bytes);
    memset(r, 0, sizeof *r);
}

int op_result_same(const op_result *a, const op_result *b)
{
    return a->present == b->present &&
           (!a->present ||
            (a->dtype == b->dtype && a->ndim == b->ndim &&
             memcmp(a->shape, b->shape, (size_t)a->ndim * sizeof(int64_t)) == 0 &&
             a->nbytes == b->nbytes && memcmp(a->bytes, b->bytes, a->nbytes) == 0));
}

void op_release_outs(eh_tensor **out)
{
    for (int k = 0; k < OP_CASE_MAX_OUT; k++) {
        eh_release(out[k]);
        out[k] = NULL;
    }
}
