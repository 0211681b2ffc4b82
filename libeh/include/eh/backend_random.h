/* <eh/backend_random.h> -- the sampling every backend's random kernels
 * share (docs/random.md).
 *
 * Backend-side, like <eh/backend_api.h>: backends include it, frontend
 * and application code never do.  It depends on <eh/types.h> only.
 *
 * libeh has one bit generator, Philox4x32-10 (eh_philox4x32_10 in
 * <eh/backend_api.h>), and one fixed way of turning its bits into samples,
 * implemented once in libeh/src/random_sampling.c.  A backend that runs
 * the random ops calls these functions -- on any split of the output into
 * ranges, on any number of threads -- and gets the same bits as `ref`.
 *
 * The layout.  A random op carries in eh_op_call.p:
 *     p.i[0]  seed bits 0..31    (Philox key word 0)
 *     p.i[1]  seed bits 32..63   (Philox key word 1)
 *     p.i[2]  the call number, 0 .. 2^32-1
 * and its op-specific parameters (libeh/src/ops_random.c).  Element i of
 * the output (row-major flat index) owns the stream of 32-bit words
 *     block d = Philox4x32-10(counter = (i mod 2^32, i div 2^32, call, d),
 *                              key = (seed mod 2^32, seed div 2^32))
 *     words  = block 0 lanes 0..3, block 1 lanes 0..3, ...
 * and its sample is a fixed function of that stream alone.  Nothing is
 * sequential across elements, so element i depends only on
 * (seed, call number, i, the op's parameters). */
#ifndef EH_BACKEND_RANDOM_H
#define EH_BACKEND_RANDOM_H

#include <stdint.h>
#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

struct eh_op_call;

/* Where the generator's coordinates sit in eh_op_call.p.i. */
#define EH_RAND_P_SEED_LO 0
#define EH_RAND_P_SEED_HI 1
#define EH_RAND_P_CALL 2

/* The word stream of one element. */
typedef struct eh_rand_stream {
    uint32_t key[2];
    uint32_t ctr[4];  /* index lo, index hi, call, next block number */
    uint32_t buf[4];  /* the current block */
    unsigned pos;     /* next unread lane of buf; 4 = buf used up */
} eh_rand_stream;

/* The stream of element `index` of call `call` under key (key0, key1). */
void eh_rand_stream_init(eh_rand_stream *s, uint32_t key0, uint32_t key1, uint32_t call,
                         uint64_t index);
/* The same, with key and call taken from an op call's p.i. */
void eh_rand_stream_for(eh_rand_stream *s, const struct eh_op_call *call, uint64_t index);

/* ---- bits to numbers ----------------------------------------------------- */

/* The next word. */
uint32_t eh_rand_u32(eh_rand_stream *s);
/* The next two words a, b as (a << 32) | b. */
uint64_t eh_rand_u64(eh_rand_stream *s);
/* (eh_rand_u64 >> 11) * 2^-53: a multiple of 2^-53 in [0, 1). */
double eh_rand_u01(eh_rand_stream *s);
/* ((eh_rand_u64 >> 11) + 1) * 2^-53: a multiple of 2^-53 in (0, 1]. */
double eh_rand_u01_pos(eh_rand_stream *s);

/* ---- samplers: each consumes words in the order documented in
 *      docs/random.md; every result is a pure function of the stream --- */

/* Box-Muller, cosine branch: u1 = u01_pos, u2 = u01,
 * sqrt(-2 log u1) * cos(2 pi u2).  4 words. */
double eh_rand_std_normal(eh_rand_stream *s);
/* -log1p(-u01): in [0, 36.74].  2 words. */
double eh_rand_std_exponential(eh_rand_stream *s);
/* Gamma(alpha, 1), alpha > 0 finite: Marsaglia-Tsang for alpha >= 1;
 * gamma(alpha + 1) * u01_pos^(1/alpha) below 1. */
double eh_rand_std_gamma(eh_rand_stream *s, double alpha);
/* Poisson(lam), 0 <= lam <= EH_RAND_POISSON_LAM_MAX: Knuth's product of
 * uniforms below 10, Hormann's PTRS from 10 on. */
int64_t eh_rand_poisson(eh_rand_stream *s, double lam);
#define EH_RAND_POISSON_LAM_MAX 9.2233720064847708e18 /* NumPy's bound */
/* Binomial(n, p), n >= 0, 0 <= p <= 1: sampled with min(p, 1-p) (and
 * reflected); inversion when n * min(p, 1-p) < 10, Hormann's BTRS else. */
int64_t eh_rand_binomial(eh_rand_stream *s, int64_t n, double p);
/* Uniform on [0, range), range >= 1: Lemire's multiply-and-reject on
 * 64-bit words (unbiased). */
uint64_t eh_rand_below(eh_rand_stream *s, uint64_t range);

/* Categorical sampling over one row of logits (k >= 1 entries).
 * eh_rand_categorical_cdf fills cdf[j] = sum_{l <= j} exp(logits[l] - max)
 * (summed in order) and returns EH_OK, or EH_ERR_INVALID_ARG without
 * recording an error when the row holds a NaN or +inf or no finite
 * logit.  eh_rand_categorical_pick returns the first j with
 * cdf[j] > u * cdf[k-1] (u in [0, 1)), which never lands on a class of
 * probability 0. */
eh_status eh_rand_categorical_cdf(const double *logits, int64_t k, double *cdf);
int64_t eh_rand_categorical_pick(const double *cdf, int64_t k, double u);

/* ---- whole ops ------------------------------------------------------------ */

/* Compute elements [begin, end) of call->out[0] for any random op except
 * random_permutation.  Safe to run on disjoint ranges of one call from
 * several threads; the result does not depend on the split.  Errors
 * (bad logits for random_categorical, out of memory for its scratch row)
 * are recorded with eh_set_error on the calling thread and returned. */
eh_status eh_rand_fill(const struct eh_op_call *call, int64_t begin, int64_t end);

/* random_permutation: the output is the indices 0 .. n-1 sorted by
 * (key, index), key = eh_rand_u64 of the element's stream -- a total
 * order, so any correct sort gives the same permutation.  In steps, so
 * that a backend can make the keys on several threads: */
typedef struct eh_rand_keyed_index {
    uint64_t key;
    int64_t index;
} eh_rand_keyed_index;
/* n keyed indices of scratch (eh_mem_free() them), or NULL with EH_ERR_NOMEM
 * recorded (random_permutation's messages). */
eh_rand_keyed_index *eh_rand_keyed_alloc(int64_t n);
/* a[i] = (key of element i, i) for i in [begin, end); safe on disjoint
 * ranges from several threads. */
void eh_rand_permutation_keys(const struct eh_op_call *call, eh_rand_keyed_index *a,
                              int64_t begin, int64_t end);
/* Sorts a[0 .. n) by (key, index) and writes the indices to call->out[0]
 * (EH_I64, n elements). */
void eh_rand_permutation_store(const struct eh_op_call *call, eh_rand_keyed_index *a, int64_t n);
/* The whole op on the calling thread (the steps above). */
eh_status eh_rand_permutation(const struct eh_op_call *call);

#ifdef __cplusplus
}
#endif
#endif
