/* blas kernels: the random ops, split across threads.
 *
 * Element i of a random op's output depends only on (seed, call number, i,
 * the op's parameters) (docs/random.md): the sampling code shared by every
 * backend (<eh/backend_random.h>, libeh/src/random_sampling.c) fills any
 * range of elements independently.  So blas runs ref's exact computation,
 * eh_rand_fill over contiguous ranges on eh_parallel_for's threads, and
 * the bits are ref's for every thread count.
 *
 * Errors.  random_categorical can fail on its data (a row of logits with a
 * NaN, +inf or no finite value) or on scratch memory; a chunk that fails
 * records its error on the thread that ran it.  When any chunk fails, the
 * whole call is re-run on the calling thread, as ref runs it, so that the
 * error recorded for the caller is ref's own (the first bad row, with
 * ref's message) whatever the split.
 *
 * random_permutation: the sort keys (one eh_rand_u64 per element) are
 * generated in parallel, then sorted and stored by the shared code: the
 * sort by (key, index) is a total order, so the permutation is ref's. */
#include <stdlib.h>
#include <eh/backend_random.h>
#include <eh/backend_alloc.h>
#include "blas.h"
#include "../ref/ref.h"

/* Per element: Philox blocks and a conversion; gamma, binomial, poisson
 * and categorical do more.  Chunks of a few thousand elements amortize the
 * thread hand-off. */
#define RANDOM_GRAIN ((int64_t)1 << 13)

typedef struct {
    const eh_op_call *c;
    _Atomic int failed;
} fill_job;

static void fill_range(void *ctx, int64_t begin, int64_t end, int worker)
{
    (void)worker;
    fill_job *j = ctx;
    if (atomic_load(&j->failed))
        return;
    if (eh_rand_fill(j->c, begin, end) != EH_OK)
        atomic_store(&j->failed, 1);
}

static eh_status fill_all(const eh_op_call *call)
{
    int64_t n = call->out[0]->size;
    if (n == 0)
        return EH_OK;
    fill_job j;
    j.c = call;
    atomic_init(&j.failed, 0);
    eh_parallel_for(n, RANDOM_GRAIN, fill_range, &j);
    if (atomic_load(&j.failed))
        return eh_rand_fill(call, 0, n); /* ref's run: ref's error */
    return EH_OK;
}

eh_status eh_blas_random_uniform(const eh_op_call *call) { return fill_all(call); }
eh_status eh_blas_random_normal(const eh_op_call *call) { return fill_all(call); }
eh_status eh_blas_random_bernoulli(const eh_op_call *call) { return fill_all(call); }
eh_status eh_blas_random_poisson(const eh_op_call *call) { return fill_all(call); }
eh_status eh_blas_random_exponential(const eh_op_call *call) { return fill_all(call); }
eh_status eh_blas_random_gamma(const eh_op_call *call) { return fill_all(call); }
eh_status eh_blas_random_binomial(const eh_op_call *call) { return fill_all(call); }
eh_status eh_blas_random_categorical(const eh_op_call *call) { return fill_all(call); }
eh_status eh_blas_random_randint(const eh_op_call *call) { return fill_all(call); }

/* ---- permutation ---------------------------------------------------------------- */

/* The steps of eh_rand_permutation (<eh/backend_random.h>), with the keys
 * made on the thread pool. */
typedef struct {
    const eh_op_call *c;
    eh_rand_keyed_index *a;
} perm_job;

static void keys_range(void *ctx, int64_t begin, int64_t end, int worker)
{
    (void)worker;
    const perm_job *j = ctx;
    eh_rand_permutation_keys(j->c, j->a, begin, end);
}

eh_status eh_blas_random_permutation(const eh_op_call *call)
{
    eh_tensor *out = call->out[0];
    int64_t n = out->size;
    if (out->dtype != EH_I64 || n < RANDOM_GRAIN)
        return eh_ref_random_permutation(call); /* small, or a bad call: ref's answer */
    eh_rand_keyed_index *a = eh_rand_keyed_alloc(n);
    if (!a)
        return EH_ERR_NOMEM;
    perm_job j = {call, a};
    eh_parallel_for(n, RANDOM_GRAIN, keys_range, &j);
    eh_rand_permutation_store(call, a, n);
    eh_mem_free(a);
    return EH_OK;
}
