/* ref kernels: the random ops.
 *
 * The sampling itself is shared by every backend (<eh/backend_random.h>,
 * libeh/src/random_sampling.c), so that one seed gives the same bits on
 * every backend: a ref kernel is that shared code run over the whole
 * output, in one thread.  Parameters (eh_op_call.p) are documented in
 * libeh/src/ops_random.c; the generator design in docs/random.md. */
#include <eh/backend_random.h>
#include "ref.h"

static eh_status fill_all(const eh_op_call *call)
{
    return eh_rand_fill(call, 0, call->out[0]->size);
}

eh_status eh_ref_random_uniform(const eh_op_call *call) { return fill_all(call); }
eh_status eh_ref_random_normal(const eh_op_call *call) { return fill_all(call); }
eh_status eh_ref_random_bernoulli(const eh_op_call *call) { return fill_all(call); }
eh_status eh_ref_random_poisson(const eh_op_call *call) { return fill_all(call); }
eh_status eh_ref_random_exponential(const eh_op_call *call) { return fill_all(call); }
eh_status eh_ref_random_gamma(const eh_op_call *call) { return fill_all(call); }
eh_status eh_ref_random_binomial(const eh_op_call *call) { return fill_all(call); }
eh_status eh_ref_random_categorical(const eh_op_call *call) { return fill_all(call); }
eh_status eh_ref_random_randint(const eh_op_call *call) { return fill_all(call); }

eh_status eh_ref_random_permutation(const eh_op_call *call)
{
    return eh_rand_permutation(call);
}
