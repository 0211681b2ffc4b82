/* <eh/random.h> -- random numbers (docs/ops/random.md, design in
 * docs/random.md).
 *
 * One generator for the whole process: Philox4x32-10, counter-based.
 * Every sample is a fixed function of (seed, call number, element index,
 * the op's parameters) -- the same bits on every backend, for any number
 * of threads, and whether or not evaluation is deferred.
 *
 *  - The seed is set by eh_seed().  Before the first eh_seed() it comes
 *    from the environment variable EH_SEED (decimal, or hex with 0x) when
 *    set and non-empty, else it is 0: a program that never seeds is still
 *    deterministic.  A malformed EH_SEED is not ignored: every random op
 *    fails with EH_ERR_INVALID_ARG until eh_seed() is called.
 *  - The call number counts random-op calls since the last eh_seed()
 *    (process-wide, all threads): each call of an eh_random_* function
 *    that passes validation takes the next number, even if its output is
 *    empty or it later fails (out of memory, bad logits).  Calls rejected
 *    for bad arguments take none.  So results depend on the seed and on
 *    the sequence of random calls since it was set; calls from several
 *    threads at once get distinct numbers in an unspecified order.  The
 *    counter is 32 bits wide in the generator: after 2^32 calls without
 *    reseeding, the streams repeat.
 *  - Element i of a result (row-major) is sampled from its own stream, so
 *    a (2, 3) result holds the same values as a (6,) one from the same
 *    seed and call number, and a (5,) result is a prefix of a (100,) one.
 *
 * Shapes are (ndim, shape) and validated as by eh_zeros: EH_ERR_SHAPE
 * (ndim outside 0..EH_MAX_DIMS), EH_ERR_NULL_ARG (shape NULL with
 * ndim > 0), EH_ERR_NEGATIVE_SIZE, EH_ERR_OVERFLOW; a bad dtype value is
 * EH_ERR_DTYPE.  A parameter outside its domain (NaN included) is
 * EH_ERR_INVALID_ARG.  Float results of exponential and gamma are computed
 * in double and rounded once to the dtype; uniform and normal draw f32 and
 * f16 samples of their own, in float (docs/random.md, stream version 2),
 * so those are not the rounded f64 samples.  A value beyond the dtype's
 * range (say eh_random_normal(..., 0, 1e6, EH_F16)) becomes +-inf as in
 * eh_cast. */
#ifndef EH_RANDOM_H
#define EH_RANDOM_H

#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Set the seed and restart the call numbering at 0.  Also clears the
 * error state of a malformed EH_SEED.  (The op `seed`: no kernel.) */
EH_API void eh_seed(uint64_t seed);

/* Uniform on [low, high): low and high finite, low < high, high - low
 * finite; dtype f16, f32 or f64 (EH_ERR_DTYPE otherwise).  Every result
 * lies in [low, high) exactly: a value that rounds to high (or below low)
 * in the dtype is replaced by the largest (smallest) dtype value inside.
 * EH_ERR_INVALID_ARG when low or high rounds to +-inf in the dtype or no
 * dtype value lies in [low, high).  (NumPy accepts low >= high; libeh
 * does not.) */
EH_API eh_tensor *eh_random_uniform(int ndim, const int64_t *shape, double low, double high,
                                    eh_dtype dtype);

/* Normal(mean, std): mean finite, std finite and >= 0 (std 0 gives mean);
 * dtype f16, f32 or f64. */
EH_API eh_tensor *eh_random_normal(int ndim, const int64_t *shape, double mean, double std,
                                   eh_dtype dtype);

/* Bernoulli(p) as EH_BOOL: true with probability p, 0 <= p <= 1. */
EH_API eh_tensor *eh_random_bernoulli(int ndim, const int64_t *shape, double p);

/* Poisson(lam) as EH_I64: 0 <= lam <= 9.2233720064847708e18 (NumPy's
 * bound, so that results fit int64). */
EH_API eh_tensor *eh_random_poisson(int ndim, const int64_t *shape, double lam);

/* Exponential with mean `scale` (NumPy's parameterization): scale finite
 * and > 0 (NumPy also accepts 0); dtype f16, f32 or f64. */
EH_API eh_tensor *eh_random_exponential(int ndim, const int64_t *shape, double scale,
                                        eh_dtype dtype);

/* Gamma with shape alpha and scale (mean alpha * scale): both finite and
 * > 0; dtype f16, f32 or f64.  For very small alpha most samples
 * underflow to 0, as in NumPy. */
EH_API eh_tensor *eh_random_gamma(int ndim, const int64_t *shape, double alpha, double scale,
                                  eh_dtype dtype);

/* Binomial(n, p) as EH_I64: n >= 0, 0 <= p <= 1. */
EH_API eh_tensor *eh_random_binomial(int ndim, const int64_t *shape, int64_t n, double p);

/* num_samples independent draws from each row of `logits` (shape
 * (..., k), k >= 1), category j having probability softmax(row)[j].
 * Result: EH_I64, shape (..., num_samples).  Logits of any numeric dtype
 * (computed in f64); bool is EH_ERR_DTYPE; 0-d logits or k = 0 are
 * EH_ERR_SHAPE; num_samples < 0 is EH_ERR_NEGATIVE_SIZE.  -inf logits
 * mean probability 0.  A sampled row holding NaN or +inf, or only -inf, is
 * EH_ERR_INVALID_ARG (found when the row is read: with num_samples 0
 * nothing is read).  NULL logits: EH_ERR_NULL_ARG (an earlier error is
 * kept). */
EH_API eh_tensor *eh_random_categorical(const eh_tensor *logits, int64_t num_samples);

/* A random permutation of 0 .. n-1 as an EH_I64 tensor of shape (n,):
 * every ordering equally likely.  n < 0 is EH_ERR_NEGATIVE_SIZE. */
EH_API eh_tensor *eh_random_permutation(int64_t n);

/* Uniform integers on [low, high) (unbiased), dtype EH_I32 or EH_I64
 * (EH_ERR_DTYPE otherwise).  high <= low is EH_ERR_INVALID_ARG, and so
 * are bounds an i32 result cannot hold (low < INT32_MIN or
 * high > INT32_MAX + 1). */
EH_API eh_tensor *eh_random_randint(int ndim, const int64_t *shape, int64_t low, int64_t high,
                                    eh_dtype dtype);

#ifdef __cplusplus
}
#endif
#endif
