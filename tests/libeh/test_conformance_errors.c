/* Cross-backend conformance of errors (docs/conformance.md).
 *
 * Every bad call below runs on every backend built into libeh.  A call's
 * status is the code it returns, or -- when it returns a tensor -- the code
 * of forcing that tensor's evaluation (so a data-dependent error that a
 * deferring backend raises at eh_eval counts, as the contract says it
 * must).  Each backend must give ref's code, with a message naming the
 * same op; ref must give the code the op's documentation lists (the
 * `expect` column).  Every op family has at least one call for each code
 * its documentation lists (data-dependent ones included); NOMEM comes from
 * a request of 2^48 bytes or more (refused by any allocator) or, where no
 * input makes one cheaply, from libeh's test hook failing the next
 * allocation.
 *
 * This binary iterates the backends itself and ignores EH_TEST_BACKEND. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "conformance.h"

#define K40 (INT64_C(1) << 40)

/* ---- inputs (host-made, owned by the call's scope) ---- */

static cf_rng rng;

#define X(dt, ...) cf_random(&rng, dt, NDIM(__VA_ARGS__), SHAPE(__VA_ARGS__), CF_V_UNIT)
#define X0(dt) cf_random(&rng, dt, 0, NULL, CF_V_UNIT)
#define NVAL(...) ((int64_t)(sizeof((const double[]){__VA_ARGS__}) / sizeof(double)))
#define V(dt, ...) cf_tensor(dt, 1, SHAPE(NVAL(__VA_ARGS__)), (const double[]){__VA_ARGS__})
#define M(dt, r, c, ...) cf_tensor(dt, 2, SHAPE(r, c), (const double[]){__VA_ARGS__})

/* The status of a call that returns a tensor: its error, or the error of
 * evaluating the result (EH_OK if it succeeds). */
static eh_status st_of(eh_tensor *r)
{
    if (!r)
        return eh_last_error() != EH_OK ? eh_last_error() : EH_ERR_INTERNAL;
    return eh_eval(r);
}

/* Evaluate every output of a call that returned EH_OK. */
static eh_status st_multi(eh_status st, eh_tensor **outs, int n)
{
    if (st != EH_OK)
        return st;
    return cf_eval_all(outs, n);
}

/* Each bad call is a function run inside a scope (which frees its inputs
 * and results).  BAD(name, expr) defines one from an expression giving a
 * tensor. */
#define BAD(name, expr)                                                                            \
    static eh_status name(void)                                                                    \
    {                                                                                              \
        return st_of(expr);                                                                        \
    }

/* Arm the allocation-failure hook for the next allocation, call, disarm. */
#define NOMEM_HOOK(name, setup, expr)                                                              \
    static eh_status name(void)                                                                    \
    {                                                                                              \
        setup;                                                                                     \
        eh__test_fail_alloc(1);                                                                    \
        eh_tensor *r_ = (expr);                                                                    \
        eh__test_fail_alloc(0);                                                                    \
        return st_of(r_);                                                                          \
    }

static const int64_t shape9[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1};

/* ---- creation ---- */
BAD(cr_null_shape, eh_zeros(1, NULL, EH_F32))
BAD(cr_null_like, eh_zeros_like(NULL))
BAD(cr_bad_dtype, eh_ones(1, SHAPE(3), (eh_dtype)42))
BAD(cr_arange_bool, eh_arange(0, 5, 1, EH_BOOL))
BAD(cr_ndim9, eh_full(9, shape9, 1.0, EH_F32))
BAD(cr_negative, eh_zeros(2, SHAPE(2, -1), EH_F32))
BAD(cr_linspace_negative, eh_linspace(0, 1, -1, 1, EH_F64))
BAD(cr_eye_negative, eh_eye(-1, 3, 0, EH_F32))
BAD(cr_overflow, eh_zeros(3, SHAPE(K40, K40, 1 << 20), EH_F64))
BAD(cr_arange_overflow, eh_arange(0, 1e20, 1e19, EH_I64))
BAD(cr_arange_step0, eh_arange(0, 5, 0, EH_F32))
BAD(cr_arange_fraction, eh_arange(0.5, 5, 1, EH_I32))
BAD(cr_nomem, eh_zeros(1, SHAPE(INT64_C(1) << 45), EH_F64))
BAD(cr_tri_negative, eh_triu_indices(-1, 0, 3))
NOMEM_HOOK(cr_nomem_hook, (void)0, eh_eye(40, 40, 0, EH_F64))

/* ---- shape ---- */
BAD(sh_null, eh_reshape(NULL, 1, SHAPE(3)))
BAD(sh_reshape_size, eh_reshape(X(EH_F32, 2, 3), 1, SHAPE(5)))
BAD(sh_reshape_two_unknown, eh_reshape(X(EH_F32, 2, 3), 2, SHAPE(-1, -1)))
BAD(sh_reshape_negative, eh_reshape(X(EH_F32, 2, 3), 2, SHAPE(-2, 3)))
BAD(sh_reshape_overflow, eh_reshape(X(EH_F32, 0), 3, SHAPE(K40, K40, -1)))
BAD(sh_transpose_repeat, eh_transpose(X(EH_I32, 2, 3), (const int[]){0, 0}, 2))
BAD(sh_squeeze_axis, eh_squeeze(X(EH_F64, 1, 3), (const int[]){5}, 1))
BAD(sh_squeeze_not_one, eh_squeeze(X(EH_F64, 2, 3), (const int[]){0}, 1))
BAD(sh_expand_axis, eh_expand_dims(X(EH_BOOL, 2, 3), 4))
BAD(sh_concat_shape,
    eh_concatenate((const eh_tensor *const[]){X(EH_F32, 2, 3), X(EH_F32, 2, 4)}, 2, 0))
BAD(sh_concat_none, eh_concatenate((const eh_tensor *const[]){X(EH_F32, 2, 3)}, 0, 0))
BAD(sh_concat_null, eh_concatenate((const eh_tensor *const[]){X(EH_F32, 2, 3), NULL}, 2, 0))
BAD(sh_concat_axis,
    eh_concatenate((const eh_tensor *const[]){X(EH_F32, 2, 3), X(EH_F32, 2, 3)}, 2, 2))
BAD(sh_stack_shape, eh_stack((const eh_tensor *const[]){X(EH_I64, 2, 3), X(EH_I64, 3, 2)}, 2, 0))
BAD(sh_slice_step0, eh_slice(X(EH_F32, 4), SHAPE(0), SHAPE(4), SHAPE(0), 1))
BAD(sh_slice_axes, eh_slice(X(EH_F32, 4), SHAPE(0, 0), SHAPE(4, 4), SHAPE(1, 1), 2))
BAD(sh_broadcast_negative, eh_broadcast_to(X(EH_F32, 3), 2, SHAPE(2, -3)))
BAD(sh_broadcast_shape, eh_broadcast_to(X(EH_F32, 3), 2, SHAPE(2, 4)))
BAD(sh_broadcast_overflow, eh_broadcast_to(X(EH_F32, 1), 3, SHAPE(K40, K40, 1 << 20)))
BAD(sh_broadcast_nomem, eh_broadcast_to(X(EH_F64, 1), 1, SHAPE(INT64_C(1) << 45)))
BAD(sh_flip_axis, eh_flip(X(EH_F16, 2, 3), (const int[]){1, -1}, 2))

static eh_status sh_split_sections(void)
{
    eh_tensor *o[2];
    return eh_split(X(EH_F32, 6), 0, 0, o);
}
static eh_status sh_split_divisible(void)
{
    eh_tensor *o[2];
    return st_multi(eh_split(X(EH_F32, 5), 2, 0, o), o, 2);
}
static eh_status sh_split_0d(void)
{
    eh_tensor *o[2];
    return st_multi(eh_split(X0(EH_F32), 2, 0, o), o, 2);
}
static eh_status sh_split_null(void)
{
    return eh_split(X(EH_F32, 4), 2, 0, NULL);
}

/* ---- indexing ---- */
BAD(ix_tile_null, eh_tile(NULL, SHAPE(2), 1))
BAD(ix_tile_nreps, eh_tile(X(EH_F32, 2), SHAPE(2), -1))
BAD(ix_tile_negative, eh_tile(X(EH_F32, 2), SHAPE(-2), 1))
BAD(ix_tile_dims, eh_tile(X(EH_F32, 2, 3), shape9, 9))
BAD(ix_tile_overflow, eh_tile(X(EH_F32, 2, 3), SHAPE(INT64_C(1) << 62, 2), 2))
BAD(ix_tile_nomem, eh_tile(X(EH_F64, 1), SHAPE(INT64_C(1) << 45), 1))
BAD(ix_repeat_axis, eh_repeat(X(EH_I32, 2, 3), 2, 5))
BAD(ix_repeat_negative, eh_repeat(X(EH_I32, 2, 3), -1, 0))
BAD(ix_roll_0d, eh_roll(X0(EH_I32), 1, 0))
BAD(ix_pad_negative, eh_pad(X(EH_F32, 3), SHAPE(1, -1), EH_PAD_CONSTANT, 0))
BAD(ix_pad_mode, eh_pad(X(EH_F32, 3), SHAPE(1, 1), (eh_pad_mode)99, 0))
BAD(ix_pad_empty_axis, eh_pad(X(EH_F32, 0, 3), SHAPE(1, 1, 0, 0), EH_PAD_EDGE, 0))
BAD(ix_pad_null, eh_pad(X(EH_F32, 3), NULL, EH_PAD_CONSTANT, 0))
BAD(ix_triu_1d, eh_triu(X(EH_F32, 3), 0))
BAD(ix_gather_dtype, eh_gather(X(EH_F32, 3), V(EH_F32, 0, 1), 0))
BAD(ix_gather_axis, eh_gather(X(EH_F32, 3), V(EH_I64, 0, 1), 1))
BAD(ix_gather_dims, eh_gather(X(EH_F32, 2, 2, 2, 2, 2), X(EH_I64, 1, 1, 1, 1, 1), 0))
BAD(ix_gather_index, eh_gather(X(EH_F32, 3, 2), V(EH_I64, 0, 7, 1), 0))
BAD(ix_gather_negative, eh_gather(X(EH_F32, 3), V(EH_I32, -4), 0))
BAD(ix_gather_empty_axis, eh_gather(X(EH_F32, 0, 2), V(EH_I64, 0), 0))
BAD(ix_scatter_aggr, eh_scatter(X(EH_F32, 2), V(EH_I64, 0, 1), 2, (eh_scatter_aggr)99))
BAD(ix_scatter_dtype, eh_scatter(X(EH_F32, 2), V(EH_BOOL, 0, 1), 2, EH_SCATTER_ADD))
BAD(ix_scatter_0d, eh_scatter(X0(EH_F32), V(EH_I64, 0), 2, EH_SCATTER_ADD))
BAD(ix_scatter_negative, eh_scatter(X(EH_F32, 2), V(EH_I64, 0, 1), -2, EH_SCATTER_ADD))
BAD(ix_scatter_index, eh_scatter(X(EH_F32, 3), V(EH_I64, 0, 5, 1), 2, EH_SCATTER_MEAN))
BAD(ix_scatter_negative_index, eh_scatter(X(EH_F32, 2), V(EH_I32, -1, 0), 2, EH_SCATTER_MAX))
BAD(ix_scatter_overflow,
    eh_scatter(X(EH_F32, 1), cf_tensor(EH_I64, 1, SHAPE(1), (const double[]){9.3e18}),
               EH_SCATTER_AUTO, EH_SCATTER_ADD))

/* ---- elementwise ---- */
BAD(ew_null, eh_add(X(EH_F32, 2), NULL))
BAD(ew_null_unary, eh_exp(NULL))
BAD(ew_shape, eh_add(X(EH_F32, 2, 3), X(EH_F32, 4)))
BAD(ew_shape_scalar_op, eh_multiply(X(EH_I32, 0), X(EH_I32, 2)))
BAD(ew_where_shape, eh_where(X(EH_BOOL, 3, 1), X(EH_F32, 1, 4), X(EH_F32, 3)))
BAD(ew_where_null, eh_where(NULL, X(EH_F32, 2), X(EH_F32, 2)))
BAD(ew_clip_shape, eh_clip(X(EH_F32, 3), X(EH_F32, 2), X(EH_F32, 3)))
BAD(ew_dtype, eh_negative(X(EH_BOOL, 3)))
BAD(ew_dtype_floor, eh_floor(X0(EH_BOOL)))
BAD(ew_nomem,
    eh_where(X(EH_BOOL, 1 << 15, 1, 1), X(EH_F64, 1, 1 << 15, 1), X(EH_F64, 1, 1, 1 << 15)))
NOMEM_HOOK(ew_nomem_hook, eh_tensor *a = X(EH_F32, 64), eh_sqrt(a))
/* an error inside a chain: the first failing op is reported */
BAD(ew_chain, eh_exp(eh_multiply(eh_gather(X(EH_F32, 3), V(EH_I64, 0, 9), 0), X(EH_F32, 2))))

/* ---- reductions ---- */
BAD(rd_null, eh_sum(NULL, NULL, 0, 0))
BAD(rd_axes_null, eh_sum(X(EH_F32, 2, 3), NULL, 1, 0))
BAD(rd_axis, eh_mean(X(EH_F32, 2, 3), (const int[]){2}, 1, 0))
BAD(rd_axis_repeat, eh_prod(X(EH_I32, 2, 3), (const int[]){1, -1}, 2, 0))
BAD(rd_n_axes, eh_var(X(EH_F64, 2, 3), (const int[]){0}, -1, 0, 0))
BAD(rd_argmax_0d, eh_argmax(X0(EH_F32), 0, 0))
BAD(rd_cumsum_axis, eh_cumsum(X(EH_F32, 2, 3), 3))
BAD(rd_softmax_axis, eh_softmax(X(EH_F32, 2, 3), -3))
BAD(rd_max_empty, eh_max(X(EH_F32, 0, 3), (const int[]){0}, 1, 0))
BAD(rd_argmin_flat_empty, eh_argmin_flat(X(EH_I64, 0), 0))
BAD(rd_norm_dims, eh_norm(X(EH_F32, 2, 2, 2), EH_NORM_2, NULL, 0, 0))
BAD(rd_norm_ord, eh_norm(X(EH_F32, 3), (eh_norm_ord)99, NULL, 0, 0))
BAD(rd_norm_nuc_vector, eh_norm(X(EH_F32, 3), EH_NORM_NUC, NULL, 0, 0))
BAD(rd_norm_axes, eh_norm(X(EH_F32, 2, 2, 2), EH_NORM_1, (const int[]){0, 1, 2}, 3, 0))
BAD(rd_allclose_shape, eh_allclose(X(EH_F32, 2), X(EH_F32, 3), 1e-5, 1e-8, 0))
NOMEM_HOOK(rd_nomem_hook, eh_tensor *a = X(EH_F32, 8, 8), eh_sum(a, (const int[]){0}, 1, 0))

/* ---- linear algebra ---- */
static eh_tensor *singular(void)
{
    return M(EH_F64, 2, 2, 1, 2, 2, 4);
}
BAD(la_null, eh_matmul(NULL, X(EH_F32, 2, 2)))
BAD(la_dtype, eh_matmul(X(EH_F32, 2, 2), X(EH_F64, 2, 2)))
BAD(la_dtype_int, eh_inv(X(EH_I32, 2, 2)))
BAD(la_dtype_f16, eh_cholesky(X(EH_F16, 2, 2)))
BAD(la_dtype_mix, eh_solve(X(EH_F32, 2, 2), X(EH_F64, 2)))
BAD(la_shape, eh_matmul(X(EH_F32, 2, 3), X(EH_F32, 4, 5)))
BAD(la_shape_0d, eh_matmul(X0(EH_F32), X(EH_F32, 2)))
BAD(la_shape_square, eh_inv(X(EH_F64, 2, 3)))
BAD(la_shape_solve, eh_solve(X(EH_F64, 2, 2), X(EH_F64, 3)))
BAD(la_shape_dot, eh_dot(X(EH_F64, 2, 3), X(EH_F64, 2)))
BAD(la_singular_inv, eh_inv(singular()))
BAD(la_singular_solve, eh_solve(singular(), V(EH_F64, 1, 2)))
BAD(la_not_pd, eh_cholesky(M(EH_F32, 2, 2, 1, 2, 2, 1)))
BAD(la_lstsq_nan, eh_lstsq(M(EH_F64, 2, 2, 1, NAN, 0, 1), V(EH_F64, 1, 2)))
BAD(la_overflow, eh_matmul(X(EH_F64, K40, 1, 1, 0), X(EH_F64, 1, K40, 0, 1)))
BAD(la_nomem, eh_outer(X(EH_BOOL, 1 << 24), X(EH_BOOL, 1 << 24)))
/* an error inside a chain of linear algebra */
BAD(la_chain, eh_matmul(eh_inv(singular()), X(EH_F64, 2, 2)))

static eh_status la_qr_null(void)
{
    eh_tensor *r;
    return eh_qr(X(EH_F64, 3, 3), NULL, &r);
}
static eh_status la_svd_nan(void)
{
    eh_tensor *o[3];
    return st_multi(eh_svd(M(EH_F64, 2, 2, 1, 2, 3, NAN), 0, &o[0], &o[1], &o[2]), o, 3);
}
static eh_status la_eigh_inf(void)
{
    eh_tensor *o[2];
    return st_multi(eh_eigh(M(EH_F32, 2, 2, 1, 0, INFINITY, 1), &o[0], &o[1]), o, 2);
}
static eh_status la_qr_dtype(void)
{
    eh_tensor *o[2];
    return st_multi(eh_qr(X(EH_I64, 2, 2), &o[0], &o[1]), o, 2);
}
static eh_status la_eigh_shape(void)
{
    eh_tensor *o[2];
    return st_multi(eh_eigh(X(EH_F64, 2, 3), &o[0], &o[1]), o, 2);
}

/* ---- signal ---- */
BAD(sg_null, eh_rfft(NULL, 0, 0))
BAD(sg_window_null, eh_stft(X(EH_F32, 32), 16, 4, NULL, 1))
BAD(sg_axis, eh_rfft(X(EH_F32, 4), 0, 3))
BAD(sg_axis_0d, eh_rfft(X0(EH_F32), 0, 0))
BAD(sg_irfft_axis, eh_irfft(X(EH_F64, 4, 2), 0, 1))
BAD(sg_frame_axis, eh_frame(X(EH_F64, 4), 2, 1, 5))
BAD(sg_empty, eh_rfft(X(EH_F32, 0), 0, 0))
BAD(sg_irfft_pair, eh_irfft(X(EH_F64, 4, 3), 0, -1))
BAD(sg_irfft_short, eh_irfft(X(EH_F64, 1, 2), 0, -1))
BAD(sg_window_shape, eh_stft(X(EH_F32, 32), 16, 4, X(EH_F32, 8), 1))
BAD(sg_center_empty, eh_stft(X(EH_F32, 2, 0), 4, 1, X(EH_F32, 4), 1))
BAD(sg_nfft, eh_stft(X(EH_F32, 32), 0, 4, X(EH_F32, 1), 1))
BAD(sg_hop, eh_frame(X(EH_F32, 32), 4, 0, 0))
BAD(sg_dims, eh_rfft(cf_random(&rng, EH_F32, 8, shape9, CF_V_UNIT), 0, 0))
BAD(sg_window_dtype, eh_hann_window(4, 1, EH_I32))
BAD(sg_window_negative, eh_hamming_window(-1, 1, EH_F32))
NOMEM_HOOK(sg_nomem_hook, eh_tensor *a = X(EH_F64, 64), eh_rfft(a, 0, 0))

/* ---- random ---- */
BAD(rn_null_shape, eh_random_uniform(1, NULL, 0, 1, EH_F32))
BAD(rn_null_logits, eh_random_categorical(NULL, 3))
BAD(rn_ndim, eh_random_normal(9, shape9, 0, 1, EH_F64))
BAD(rn_logits_0d, eh_random_categorical(X0(EH_F32), 3))
BAD(rn_logits_empty, eh_random_categorical(X(EH_F32, 3, 0), 3))
BAD(rn_negative, eh_random_uniform(1, SHAPE(-1), 0, 1, EH_F32))
BAD(rn_permutation_negative, eh_random_permutation(-1))
BAD(rn_samples_negative, eh_random_categorical(X(EH_F32, 3), -1))
BAD(rn_overflow, eh_random_bernoulli(3, SHAPE(K40, K40, 1 << 20), 0.5))
BAD(rn_dtype, eh_random_uniform(1, SHAPE(3), 0, 1, EH_I32))
BAD(rn_dtype_randint, eh_random_randint(1, SHAPE(3), 0, 5, EH_F32))
BAD(rn_dtype_logits, eh_random_categorical(X(EH_BOOL, 3), 2))
BAD(rn_uniform_range, eh_random_uniform(1, SHAPE(3), 1, 1, EH_F64))
BAD(rn_normal_std, eh_random_normal(1, SHAPE(3), 0, -1, EH_F64))
BAD(rn_poisson_nan, eh_random_poisson(1, SHAPE(3), NAN))
BAD(rn_binomial_n, eh_random_binomial(1, SHAPE(3), -1, 0.5))
BAD(rn_randint_i32, eh_random_randint(1, SHAPE(3), 0, INT64_C(1) << 32, EH_I32))
BAD(rn_logits_nan, eh_random_categorical(M(EH_F64, 2, 2, 0, 1, NAN, 0), 4))
BAD(rn_logits_all_neg_inf, eh_random_categorical(V(EH_F32, -INFINITY, -INFINITY), 1))
BAD(rn_nomem, eh_random_normal(1, SHAPE(INT64_C(1) << 45), 0, 1, EH_F64))

/* ---- dtype and device ---- */
BAD(cv_null, eh_cast(NULL, EH_F32))
BAD(cv_dtype, eh_cast(X(EH_F32, 2), (eh_dtype)42))
BAD(cv_device, eh_to_device(X(EH_F32, 2), "cuda"))
BAD(cv_device_case, eh_to_device(X(EH_F32, 2), "CPU"))
BAD(cv_device_null, eh_to_device(X(EH_F32, 2), NULL))
NOMEM_HOOK(cv_nomem_hook, eh_tensor *a = X(EH_F32, 64), eh_cast(a, EH_F64))

static eh_status cv_result_type(void)
{
    eh_dtype out;
    return eh_result_type(EH_F32, (eh_dtype)17, &out);
}
static eh_status cv_result_type_null(void)
{
    return eh_result_type(EH_F32, EH_F64, NULL);
}

/* ---- the table ---- */

typedef eh_status (*bad_fn)(void);
static const struct bad {
    const char *family, *what;
    eh_status expect;
    bad_fn call;
} bad_calls[] = {
#define B(fam, code, fn, what)                                                                     \
    {                                                                                              \
        fam, what, code, fn                                                                        \
    }
    B("creation", EH_ERR_NULL_ARG, cr_null_shape, "zeros with shape NULL"),
    B("creation", EH_ERR_NULL_ARG, cr_null_like, "zeros_like(NULL)"),
    B("creation", EH_ERR_DTYPE, cr_bad_dtype, "ones with dtype 42"),
    B("creation", EH_ERR_DTYPE, cr_arange_bool, "arange of bool"),
    B("creation", EH_ERR_SHAPE, cr_ndim9, "full with 9 dimensions"),
    B("creation", EH_ERR_NEGATIVE_SIZE, cr_negative, "zeros (2, -1)"),
    B("creation", EH_ERR_NEGATIVE_SIZE, cr_linspace_negative, "linspace num -1"),
    B("creation", EH_ERR_NEGATIVE_SIZE, cr_eye_negative, "eye n -1"),
    B("creation", EH_ERR_NEGATIVE_SIZE, cr_tri_negative, "triu_indices n -1"),
    B("creation", EH_ERR_OVERFLOW, cr_overflow, "zeros of 2^100 elements"),
    B("creation", EH_ERR_OVERFLOW, cr_arange_overflow, "arange i64 by 1e19"),
    B("creation", EH_ERR_INVALID_ARG, cr_arange_step0, "arange step 0"),
    B("creation", EH_ERR_INVALID_ARG, cr_arange_fraction, "arange i32 from 0.5"),
    B("creation", EH_ERR_NOMEM, cr_nomem, "zeros of 2^48 bytes"),
    B("creation", EH_ERR_NOMEM, cr_nomem_hook, "eye with the next allocation failing"),
    B("shape", EH_ERR_NULL_ARG, sh_null, "reshape(NULL)"),
    B("shape", EH_ERR_NULL_ARG, sh_concat_null, "concatenate with a NULL input"),
    B("shape", EH_ERR_NULL_ARG, sh_split_null, "split with outs NULL"),
    B("shape", EH_ERR_SHAPE, sh_reshape_size, "reshape (2, 3) to (5,)"),
    B("shape", EH_ERR_SHAPE, sh_squeeze_not_one, "squeeze an axis of 2"),
    B("shape", EH_ERR_SHAPE, sh_concat_shape, "concatenate (2, 3) and (2, 4) on axis 0"),
    B("shape", EH_ERR_SHAPE, sh_stack_shape, "stack (2, 3) and (3, 2)"),
    B("shape", EH_ERR_SHAPE, sh_split_divisible, "split 5 into 2"),
    B("shape", EH_ERR_SHAPE, sh_broadcast_shape, "broadcast (3,) to (2, 4)"),
    B("shape", EH_ERR_INVALID_ARG, sh_reshape_two_unknown, "reshape with two -1"),
    B("shape", EH_ERR_INVALID_ARG, sh_concat_none, "concatenate of 0 tensors"),
    B("shape", EH_ERR_INVALID_ARG, sh_split_sections, "split into 0 sections"),
    B("shape", EH_ERR_INVALID_ARG, sh_slice_step0, "slice step 0"),
    B("shape", EH_ERR_NEGATIVE_SIZE, sh_reshape_negative, "reshape to (-2, 3)"),
    B("shape", EH_ERR_NEGATIVE_SIZE, sh_broadcast_negative, "broadcast to (2, -3)"),
    B("shape", EH_ERR_OVERFLOW, sh_reshape_overflow, "reshape to (2^40, 2^40, -1)"),
    B("shape", EH_ERR_OVERFLOW, sh_broadcast_overflow, "broadcast to 2^100 elements"),
    B("shape", EH_ERR_AXIS, sh_transpose_repeat, "transpose perm {0, 0}"),
    B("shape", EH_ERR_AXIS, sh_squeeze_axis, "squeeze axis 5"),
    B("shape", EH_ERR_AXIS, sh_expand_axis, "expand_dims axis 4 of 2-D"),
    B("shape", EH_ERR_AXIS, sh_concat_axis, "concatenate axis 2 of 2-D"),
    B("shape", EH_ERR_AXIS, sh_split_0d, "split a 0-d tensor"),
    B("shape", EH_ERR_AXIS, sh_slice_axes, "slice 2 axes of 1-D"),
    B("shape", EH_ERR_AXIS, sh_flip_axis, "flip axes {1, -1}"),
    B("shape", EH_ERR_NOMEM, sh_broadcast_nomem, "broadcast to 2^48 bytes"),
    B("indexing", EH_ERR_NULL_ARG, ix_tile_null, "tile(NULL)"),
    B("indexing", EH_ERR_NULL_ARG, ix_pad_null, "pad with pad_width NULL"),
    B("indexing", EH_ERR_INVALID_ARG, ix_tile_nreps, "tile n_reps -1"),
    B("indexing", EH_ERR_INVALID_ARG, ix_pad_mode, "pad mode 99"),
    B("indexing", EH_ERR_INVALID_ARG, ix_scatter_aggr, "scatter aggr 99"),
    B("indexing", EH_ERR_NEGATIVE_SIZE, ix_tile_negative, "tile reps -2"),
    B("indexing", EH_ERR_NEGATIVE_SIZE, ix_repeat_negative, "repeat -1"),
    B("indexing", EH_ERR_NEGATIVE_SIZE, ix_pad_negative, "pad width -1"),
    B("indexing", EH_ERR_NEGATIVE_SIZE, ix_scatter_negative, "scatter dim_size -2"),
    B("indexing", EH_ERR_SHAPE, ix_tile_dims, "tile to 9 dimensions"),
    B("indexing", EH_ERR_SHAPE, ix_pad_empty_axis, "pad edge of an empty axis"),
    B("indexing", EH_ERR_SHAPE, ix_triu_1d, "triu of 1-D"),
    B("indexing", EH_ERR_SHAPE, ix_gather_dims, "gather to 9 dimensions"),
    B("indexing", EH_ERR_SHAPE, ix_scatter_0d, "scatter 0-d values"),
    B("indexing", EH_ERR_OVERFLOW, ix_tile_overflow, "tile by 2^62"),
    B("indexing", EH_ERR_OVERFLOW, ix_scatter_overflow, "scatter auto with index 9.3e18"),
    B("indexing", EH_ERR_NOMEM, ix_tile_nomem, "tile to 2^48 bytes"),
    B("indexing", EH_ERR_AXIS, ix_repeat_axis, "repeat axis 5"),
    B("indexing", EH_ERR_AXIS, ix_roll_0d, "roll a 0-d tensor"),
    B("indexing", EH_ERR_AXIS, ix_gather_axis, "gather axis 1 of 1-D"),
    B("indexing", EH_ERR_DTYPE, ix_gather_dtype, "gather with f32 indices"),
    B("indexing", EH_ERR_DTYPE, ix_scatter_dtype, "scatter with bool indices"),
    B("indexing", EH_ERR_INDEX, ix_gather_index, "gather index 7 of 3 (kernel)"),
    B("indexing", EH_ERR_INDEX, ix_gather_negative, "gather index -4 of 3 (kernel)"),
    B("indexing", EH_ERR_INDEX, ix_gather_empty_axis, "gather from an empty axis (kernel)"),
    B("indexing", EH_ERR_INDEX, ix_scatter_index, "scatter index 5, dim_size 2 (kernel)"),
    B("indexing", EH_ERR_INDEX, ix_scatter_negative_index, "scatter index -1 (kernel)"),
    B("elementwise", EH_ERR_NULL_ARG, ew_null, "add(x, NULL)"),
    B("elementwise", EH_ERR_NULL_ARG, ew_null_unary, "exp(NULL)"),
    B("elementwise", EH_ERR_NULL_ARG, ew_where_null, "where(NULL, x, y)"),
    B("elementwise", EH_ERR_SHAPE, ew_shape, "add (2, 3) and (4,)"),
    B("elementwise", EH_ERR_SHAPE, ew_shape_scalar_op, "multiply (0,) and (2,)"),
    B("elementwise", EH_ERR_SHAPE, ew_where_shape, "where (3, 1), (1, 4), (3,)"),
    B("elementwise", EH_ERR_SHAPE, ew_clip_shape, "clip (3,) to (2,), (3,)"),
    B("elementwise", EH_ERR_DTYPE, ew_dtype, "negative of bool"),
    B("elementwise", EH_ERR_DTYPE, ew_dtype_floor, "floor of 0-d bool"),
    B("elementwise", EH_ERR_NOMEM, ew_nomem, "where broadcast to 2^48 bytes"),
    B("elementwise", EH_ERR_NOMEM, ew_nomem_hook, "sqrt with the next allocation failing"),
    B("elementwise", EH_ERR_INDEX, ew_chain, "exp(multiply(gather(bad index), y))"),
    B("reduction", EH_ERR_NULL_ARG, rd_null, "sum(NULL)"),
    B("reduction", EH_ERR_NULL_ARG, rd_axes_null, "sum with axes NULL, n_axes 1"),
    B("reduction", EH_ERR_AXIS, rd_axis, "mean axis 2 of 2-D"),
    B("reduction", EH_ERR_AXIS, rd_axis_repeat, "prod axes {1, -1}"),
    B("reduction", EH_ERR_AXIS, rd_n_axes, "var n_axes -1"),
    B("reduction", EH_ERR_AXIS, rd_argmax_0d, "argmax axis 0 of 0-d"),
    B("reduction", EH_ERR_AXIS, rd_cumsum_axis, "cumsum axis 3"),
    B("reduction", EH_ERR_AXIS, rd_softmax_axis, "softmax axis -3 of 2-D"),
    B("reduction", EH_ERR_AXIS, rd_norm_axes, "norm 1 over 3 axes"),
    B("reduction", EH_ERR_SHAPE, rd_max_empty, "max over an empty axis"),
    B("reduction", EH_ERR_SHAPE, rd_argmin_flat_empty, "argmin_flat of empty"),
    B("reduction", EH_ERR_SHAPE, rd_norm_dims, "norm 2 of 3-D, all axes"),
    B("reduction", EH_ERR_SHAPE, rd_allclose_shape, "allclose (2,) and (3,)"),
    B("reduction", EH_ERR_INVALID_ARG, rd_norm_ord, "norm ord 99"),
    B("reduction", EH_ERR_INVALID_ARG, rd_norm_nuc_vector, "nuclear norm of a vector"),
    B("reduction", EH_ERR_NOMEM, rd_nomem_hook, "sum with the next allocation failing"),
    B("linalg", EH_ERR_NULL_ARG, la_null, "matmul(NULL, b)"),
    B("linalg", EH_ERR_NULL_ARG, la_qr_null, "qr with q NULL"),
    B("linalg", EH_ERR_DTYPE, la_dtype, "matmul f32 @ f64"),
    B("linalg", EH_ERR_DTYPE, la_dtype_int, "inv of i32"),
    B("linalg", EH_ERR_DTYPE, la_dtype_f16, "cholesky of f16"),
    B("linalg", EH_ERR_DTYPE, la_dtype_mix, "solve f32 with f64"),
    B("linalg", EH_ERR_DTYPE, la_qr_dtype, "qr of i64"),
    B("linalg", EH_ERR_SHAPE, la_shape, "matmul (2, 3) @ (4, 5)"),
    B("linalg", EH_ERR_SHAPE, la_shape_0d, "matmul of a 0-d tensor"),
    B("linalg", EH_ERR_SHAPE, la_shape_square, "inv of (2, 3)"),
    B("linalg", EH_ERR_SHAPE, la_shape_solve, "solve (2, 2) with (3,)"),
    B("linalg", EH_ERR_SHAPE, la_shape_dot, "dot (2, 3) . (2,)"),
    B("linalg", EH_ERR_SHAPE, la_eigh_shape, "eigh of (2, 3)"),
    B("linalg", EH_ERR_LINALG, la_singular_inv, "inv of a singular matrix (kernel)"),
    B("linalg", EH_ERR_LINALG, la_singular_solve, "solve with a singular matrix (kernel)"),
    B("linalg", EH_ERR_LINALG, la_not_pd, "cholesky of an indefinite matrix (kernel)"),
    B("linalg", EH_ERR_LINALG, la_svd_nan, "svd with NaN (kernel)"),
    B("linalg", EH_ERR_LINALG, la_eigh_inf, "eigh with inf in the lower triangle (kernel)"),
    B("linalg", EH_ERR_LINALG, la_lstsq_nan, "lstsq with NaN (kernel)"),
    B("linalg", EH_ERR_LINALG, la_chain, "matmul(inv(singular), b)"),
    B("linalg", EH_ERR_OVERFLOW, la_overflow, "matmul broadcasting to 2^80 matrices"),
    B("linalg", EH_ERR_NOMEM, la_nomem, "outer to 2^48 bytes"),
    B("signal", EH_ERR_NULL_ARG, sg_null, "rfft(NULL)"),
    B("signal", EH_ERR_NULL_ARG, sg_window_null, "stft with window NULL"),
    B("signal", EH_ERR_AXIS, sg_axis, "rfft axis 3 of 1-D"),
    B("signal", EH_ERR_AXIS, sg_axis_0d, "rfft of 0-d"),
    B("signal", EH_ERR_AXIS, sg_irfft_axis, "irfft axis 1 of complex (4,)"),
    B("signal", EH_ERR_AXIS, sg_frame_axis, "frame axis 5"),
    B("signal", EH_ERR_SHAPE, sg_empty, "rfft of an empty axis"),
    B("signal", EH_ERR_SHAPE, sg_irfft_pair, "irfft with a last dimension 3"),
    B("signal", EH_ERR_SHAPE, sg_irfft_short, "irfft default n of 1 bin"),
    B("signal", EH_ERR_SHAPE, sg_window_shape, "stft with an 8-point window for n_fft 16"),
    B("signal", EH_ERR_SHAPE, sg_center_empty, "stft center of an empty signal"),
    B("signal", EH_ERR_SHAPE, sg_dims, "rfft of 8-D"),
    B("signal", EH_ERR_INVALID_ARG, sg_nfft, "stft n_fft 0"),
    B("signal", EH_ERR_INVALID_ARG, sg_hop, "frame hop 0"),
    B("signal", EH_ERR_DTYPE, sg_window_dtype, "hann_window of i32"),
    B("signal", EH_ERR_NEGATIVE_SIZE, sg_window_negative, "hamming_window -1"),
    B("signal", EH_ERR_NOMEM, sg_nomem_hook, "rfft with the next allocation failing"),
    B("random", EH_ERR_NULL_ARG, rn_null_shape, "uniform with shape NULL"),
    B("random", EH_ERR_NULL_ARG, rn_null_logits, "categorical(NULL)"),
    B("random", EH_ERR_SHAPE, rn_ndim, "normal with 9 dimensions"),
    B("random", EH_ERR_SHAPE, rn_logits_0d, "categorical of 0-d logits"),
    B("random", EH_ERR_SHAPE, rn_logits_empty, "categorical with k = 0"),
    B("random", EH_ERR_NEGATIVE_SIZE, rn_negative, "uniform (-1,)"),
    B("random", EH_ERR_NEGATIVE_SIZE, rn_permutation_negative, "permutation(-1)"),
    B("random", EH_ERR_NEGATIVE_SIZE, rn_samples_negative, "categorical num_samples -1"),
    B("random", EH_ERR_OVERFLOW, rn_overflow, "bernoulli of 2^100 elements"),
    B("random", EH_ERR_DTYPE, rn_dtype, "uniform of i32"),
    B("random", EH_ERR_DTYPE, rn_dtype_randint, "randint of f32"),
    B("random", EH_ERR_DTYPE, rn_dtype_logits, "categorical of bool logits"),
    B("random", EH_ERR_INVALID_ARG, rn_uniform_range, "uniform [1, 1)"),
    B("random", EH_ERR_INVALID_ARG, rn_normal_std, "normal std -1"),
    B("random", EH_ERR_INVALID_ARG, rn_poisson_nan, "poisson lam NaN"),
    B("random", EH_ERR_INVALID_ARG, rn_binomial_n, "binomial n -1"),
    B("random", EH_ERR_INVALID_ARG, rn_randint_i32, "randint i32 up to 2^32"),
    B("random", EH_ERR_INVALID_ARG, rn_logits_nan, "categorical with a NaN logit (kernel)"),
    B("random", EH_ERR_INVALID_ARG, rn_logits_all_neg_inf, "categorical of all -inf (kernel)"),
    B("random", EH_ERR_NOMEM, rn_nomem, "normal of 2^48 bytes"),
    B("convert", EH_ERR_NULL_ARG, cv_null, "cast(NULL)"),
    B("convert", EH_ERR_NULL_ARG, cv_device_null, "to_device(x, NULL)"),
    B("convert", EH_ERR_NULL_ARG, cv_result_type_null, "result_type with out NULL"),
    B("convert", EH_ERR_DTYPE, cv_dtype, "cast to dtype 42"),
    B("convert", EH_ERR_DTYPE, cv_result_type, "result_type of dtype 17"),
    B("convert", EH_ERR_DEVICE, cv_device, "to_device 'cuda'"),
    B("convert", EH_ERR_DEVICE, cv_device_case, "to_device 'CPU'"),
    B("convert", EH_ERR_NOMEM, cv_nomem_hook, "cast with the next allocation failing"),
#undef B
};
#define N_BAD ((int)(sizeof bad_calls / sizeof bad_calls[0]))

typedef struct result {
    eh_status st;
    char msg[256];
    char op[64];
} result;

static void run_bad(const struct bad *b, const char *backend, result *r)
{
    if (eh_set_backend(backend) != EH_OK)
        fail_msg("cannot select %s", backend);
    eh_clear_error();
    eh_seed(0);
    cf_rng_seed_str(&rng, b->what);
    assert_int_equal(eh_scope_begin(), EH_OK);
    r->st = b->call();
    snprintf(r->msg, sizeof r->msg, "%s", r->st == EH_OK ? "" : eh_error_message());
    eh__test_fail_alloc(0);
    eh_scope_end();
    size_t len = strcspn(r->msg, ":");
    snprintf(r->op, sizeof r->op, "%.*s", (int)(len < 63 ? len : 63), r->msg);
    eh_clear_error();
}

static void check_family(const char *family)
{
    const char *names[CF_MAX_BACKENDS];
    int nb = cf_backends(names);
    cf_begin_test();
    int ran = 0;
    for (int k = 0; k < N_BAD; k++) {
        const struct bad *b = &bad_calls[k];
        if (strcmp(b->family, family) != 0)
            continue;
        ran++;
        cf_case c;
        cf_case_init(&c, b->family, "%s", b->what);
        result ref;
        run_bad(b, "ref", &ref);
        if (getenv("CF_VERBOSE"))
            fprintf(stderr, "%-11s %-22s %s\n", b->family, eh_status_name(ref.st), ref.msg);
        if (ref.st != b->expect)
            cf_finding(&c, "ref", "status %s (%s), the documentation says %s",
                       eh_status_name(ref.st), ref.msg, eh_status_name(b->expect));
        for (int j = 1; j < nb; j++) {
            result got;
            run_bad(b, names[j], &got);
            if (got.st != ref.st)
                cf_finding(&c, names[j], "status %s (%s), ref %s (%s)", eh_status_name(got.st),
                           got.msg, eh_status_name(ref.st), ref.msg);
            else if (strcmp(got.op, ref.op) != 0)
                cf_finding(&c, names[j], "message names '%s' (\"%s\"), ref's '%s' (\"%s\")", got.op,
                           got.msg, ref.op, ref.msg);
        }
    }
    assert_true(ran > 0);
    cf_end_test();
}

#define FAMILY_TEST(fam)                                                                           \
    static void test_errors_##fam(void **state)                                                    \
    {                                                                                              \
        (void)state;                                                                               \
        check_family(#fam);                                                                        \
    }
FAMILY_TEST(creation)
FAMILY_TEST(shape)
FAMILY_TEST(indexing)
FAMILY_TEST(elementwise)
FAMILY_TEST(reduction)
FAMILY_TEST(linalg)
FAMILY_TEST(signal)
FAMILY_TEST(random)
FAMILY_TEST(convert)

/* A rejected call leaves no trace: the next valid call on the same backend
 * works, and random call numbering is not advanced by it. */
static void test_errors_leave_no_state(void **state)
{
    (void)state;
    const char *names[CF_MAX_BACKENDS];
    int nb = cf_backends(names);
    cf_begin_test();
    double first[CF_MAX_BACKENDS];
    for (int b = 0; b < nb; b++) {
        assert_int_equal(eh_set_backend(names[b]), EH_OK);
        eh_seed(99);
        assert_null(eh_random_uniform(1, SHAPE(3), 2, 1, EH_F64)); /* rejected: no number */
        eh_clear_error();
        eh_tensor *gi = V(EH_I64, 5);
        eh_tensor *x = V(EH_F64, 1, 2);
        eh_tensor *bad = eh_gather(x, gi, 0); /* may defer; its error must not leak */
        eh_release(bad);
        eh_clear_error();
        eh_tensor *u = eh_random_uniform(0, NULL, 0, 1, EH_F64);
        assert_non_null(u);
        first[b] = eh_item(u);
        assert_int_equal(eh_last_error(), EH_OK);
        eh_release(u);
        eh_release(gi);
        eh_release(x);
        if (first[b] != first[0]) {
            cf_case c;
            cf_case_init(&c, "random_uniform", "first value after a rejected call");
            cf_finding(&c, names[b], "%.17g, ref %.17g", first[b], first[0]);
        }
    }
    cf_end_test();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_errors_creation),  cmocka_unit_test(test_errors_shape),
        cmocka_unit_test(test_errors_indexing),  cmocka_unit_test(test_errors_elementwise),
        cmocka_unit_test(test_errors_reduction), cmocka_unit_test(test_errors_linalg),
        cmocka_unit_test(test_errors_signal),    cmocka_unit_test(test_errors_random),
        cmocka_unit_test(test_errors_convert),   cmocka_unit_test(test_errors_leave_no_state),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    printf("conformance errors: %d bad calls, %ld disagreements\n", N_BAD, cf_finding_count());
    return rc;
}
