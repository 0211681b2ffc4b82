/* backends/blas/table.h -- the `blas` backend's kernel table, one entry
 * per non-META op of libeh/ops.def.
 *
 * Written out by hand, not generated, so that the table says honestly
 * which ops `blas` accelerates (eh_blas_*) and which run ref's kernel
 * (eh_ref_*) because blas has nothing faster:
 *   creation, shape and indexing ops, windows and frame: memory copies and
 *     index arithmetic, where ref's loops already run at memory speed;
 *   to_device: a memcpy.
 * An op added to ops.def without an entry here leaves a NULL kernel, which
 * tests/libeh/test_core.c reports.
 *
 * backend.c builds eh_blas_backend from this; the lazy backend reuses the
 * macro for the nodes it runs eagerly:
 *   .kernels = { EH_BLAS_TABLE_ENTRIES }
 * Including this header declares every kernel it names. */
#ifndef EH_BLAS_TABLE_H
#define EH_BLAS_TABLE_H

#include "../ref/ref.h"
#include "blas.h"

#define EH_BLAS_TABLE_ENTRIES \
    /* creation */                                            \
    [EH_OP_zeros] = eh_ref_zeros,                             \
    [EH_OP_ones] = eh_ref_ones,                               \
    [EH_OP_full] = eh_ref_full,                               \
    [EH_OP_zeros_like] = eh_ref_zeros_like,                   \
    [EH_OP_ones_like] = eh_ref_ones_like,                     \
    [EH_OP_full_like] = eh_ref_full_like,                     \
    [EH_OP_arange] = eh_ref_arange,                           \
    [EH_OP_linspace] = eh_ref_linspace,                       \
    [EH_OP_eye] = eh_ref_eye,                                 \
    [EH_OP_copy] = eh_ref_copy,                               \
    [EH_OP_triu_indices] = eh_ref_triu_indices,               \
    [EH_OP_tril_indices] = eh_ref_tril_indices,               \
    [EH_OP_hann_window] = eh_ref_hann_window,                 \
    [EH_OP_hamming_window] = eh_ref_hamming_window,           \
    /* shape */                                               \
    [EH_OP_reshape] = eh_ref_reshape,                         \
    [EH_OP_transpose] = eh_ref_transpose,                     \
    [EH_OP_expand_dims] = eh_ref_expand_dims,                 \
    [EH_OP_squeeze] = eh_ref_squeeze,                         \
    [EH_OP_concatenate] = eh_ref_concatenate,                 \
    [EH_OP_stack] = eh_ref_stack,                             \
    [EH_OP_split] = eh_ref_split,                             \
    [EH_OP_tile] = eh_ref_tile,                               \
    [EH_OP_repeat] = eh_ref_repeat,                           \
    [EH_OP_slice] = eh_ref_slice,                             \
    [EH_OP_gather] = eh_ref_gather,                           \
    [EH_OP_scatter] = eh_ref_scatter,                         \
    [EH_OP_pad] = eh_ref_pad,                                 \
    [EH_OP_flip] = eh_ref_flip,                               \
    [EH_OP_roll] = eh_ref_roll,                               \
    [EH_OP_where] = eh_blas_where,                            \
    [EH_OP_broadcast_to] = eh_ref_broadcast_to,               \
    [EH_OP_triu] = eh_ref_triu,                               \
    [EH_OP_tril] = eh_ref_tril,                               \
    [EH_OP_frame] = eh_ref_frame,                             \
    /* elementwise unary */                                   \
    [EH_OP_negative] = eh_blas_negative,                      \
    [EH_OP_abs] = eh_blas_abs,                                \
    [EH_OP_sign] = eh_blas_sign,                              \
    [EH_OP_square] = eh_blas_square,                          \
    [EH_OP_sqrt] = eh_blas_sqrt,                              \
    [EH_OP_exp] = eh_blas_exp,                                \
    [EH_OP_log] = eh_blas_log,                                \
    [EH_OP_log1p] = eh_blas_log1p,                            \
    [EH_OP_expm1] = eh_blas_expm1,                            \
    [EH_OP_sin] = eh_blas_sin,                                \
    [EH_OP_cos] = eh_blas_cos,                                \
    [EH_OP_tan] = eh_blas_tan,                                \
    [EH_OP_tanh] = eh_blas_tanh,                              \
    [EH_OP_sigmoid] = eh_blas_sigmoid,                        \
    [EH_OP_relu] = eh_blas_relu,                              \
    [EH_OP_softplus] = eh_blas_softplus,                      \
    [EH_OP_erf] = eh_blas_erf,                                \
    [EH_OP_floor] = eh_blas_floor,                            \
    [EH_OP_ceil] = eh_blas_ceil,                              \
    [EH_OP_round] = eh_blas_round,                            \
    [EH_OP_reciprocal] = eh_blas_reciprocal,                  \
    /* elementwise binary */                                  \
    [EH_OP_add] = eh_blas_add,                                \
    [EH_OP_subtract] = eh_blas_subtract,                      \
    [EH_OP_multiply] = eh_blas_multiply,                      \
    [EH_OP_divide] = eh_blas_divide,                          \
    [EH_OP_floor_divide] = eh_blas_floor_divide,              \
    [EH_OP_mod] = eh_blas_mod,                                \
    [EH_OP_power] = eh_blas_power,                            \
    [EH_OP_maximum] = eh_blas_maximum,                        \
    [EH_OP_minimum] = eh_blas_minimum,                        \
    [EH_OP_atan2] = eh_blas_atan2,                            \
    /* comparison and logic */                                \
    [EH_OP_equal] = eh_blas_equal,                            \
    [EH_OP_not_equal] = eh_blas_not_equal,                    \
    [EH_OP_less] = eh_blas_less,                              \
    [EH_OP_less_equal] = eh_blas_less_equal,                  \
    [EH_OP_greater] = eh_blas_greater,                        \
    [EH_OP_greater_equal] = eh_blas_greater_equal,            \
    [EH_OP_logical_and] = eh_blas_logical_and,                \
    [EH_OP_logical_or] = eh_blas_logical_or,                  \
    [EH_OP_logical_xor] = eh_blas_logical_xor,                \
    [EH_OP_logical_not] = eh_blas_logical_not,                \
    [EH_OP_isnan] = eh_blas_isnan,                            \
    [EH_OP_isinf] = eh_blas_isinf,                            \
    [EH_OP_isfinite] = eh_blas_isfinite,                      \
    [EH_OP_clip] = eh_blas_clip,                              \
    [EH_OP_allclose] = eh_blas_allclose,                      \
    /* reductions and scans */                                \
    [EH_OP_sum] = eh_blas_sum,                                \
    [EH_OP_mean] = eh_blas_mean,                              \
    [EH_OP_prod] = eh_blas_prod,                              \
    [EH_OP_max] = eh_blas_max,                                \
    [EH_OP_min] = eh_blas_min,                                \
    [EH_OP_var] = eh_blas_var,                                \
    [EH_OP_std] = eh_blas_std,                                \
    [EH_OP_argmax] = eh_blas_argmax,                          \
    [EH_OP_argmin] = eh_blas_argmin,                          \
    [EH_OP_cumsum] = eh_blas_cumsum,                          \
    [EH_OP_cumprod] = eh_blas_cumprod,                        \
    [EH_OP_logsumexp] = eh_blas_logsumexp,                    \
    [EH_OP_softmax] = eh_blas_softmax,                        \
    [EH_OP_log_softmax] = eh_blas_log_softmax,                \
    [EH_OP_norm] = eh_blas_norm,                              \
    /* linear algebra */                                      \
    [EH_OP_matmul] = eh_blas_matmul,                          \
    [EH_OP_dot] = eh_blas_dot,                                \
    [EH_OP_outer] = eh_blas_outer,                            \
    [EH_OP_solve] = eh_blas_solve,                            \
    [EH_OP_inv] = eh_blas_inv,                                \
    [EH_OP_det] = eh_blas_det,                                \
    [EH_OP_cholesky] = eh_blas_cholesky,                      \
    [EH_OP_qr] = eh_blas_qr,                                  \
    [EH_OP_svd] = eh_blas_svd,                                \
    [EH_OP_eigh] = eh_blas_eigh,                              \
    [EH_OP_lstsq] = eh_blas_lstsq,                            \
    /* signal */                                              \
    [EH_OP_stft] = eh_blas_stft,                              \
    [EH_OP_rfft] = eh_blas_rfft,                              \
    [EH_OP_irfft] = eh_blas_irfft,                            \
    /* random */                                              \
    [EH_OP_random_uniform] = eh_blas_random_uniform,          \
    [EH_OP_random_normal] = eh_blas_random_normal,            \
    [EH_OP_random_bernoulli] = eh_blas_random_bernoulli,      \
    [EH_OP_random_poisson] = eh_blas_random_poisson,          \
    [EH_OP_random_exponential] = eh_blas_random_exponential,  \
    [EH_OP_random_gamma] = eh_blas_random_gamma,              \
    [EH_OP_random_binomial] = eh_blas_random_binomial,        \
    [EH_OP_random_categorical] = eh_blas_random_categorical,  \
    [EH_OP_random_permutation] = eh_blas_random_permutation,  \
    [EH_OP_random_randint] = eh_blas_random_randint,          \
    /* dtype and device */                                    \
    [EH_OP_cast] = eh_blas_cast,                              \
    [EH_OP_to_device] = eh_ref_to_device,                    

#endif
