/* PLACEHOLDER: ref kernels for the random group, to be written. */
#include "ref.h"

eh_status eh_ref_random_uniform(const eh_op_call *call)
{
    (void)call;
    return eh_set_error(EH_ERR_UNSUPPORTED, "random_uniform: not implemented yet");
}

eh_status eh_ref_random_normal(const eh_op_call *call)
{
    (void)call;
    return eh_set_error(EH_ERR_UNSUPPORTED, "random_normal: not implemented yet");
}

eh_status eh_ref_random_bernoulli(const eh_op_call *call)
{
    (void)call;
    return eh_set_error(EH_ERR_UNSUPPORTED, "random_bernoulli: not implemented yet");
}

eh_status eh_ref_random_poisson(const eh_op_call *call)
{
    (void)call;
    return eh_set_error(EH_ERR_UNSUPPORTED, "random_poisson: not implemented yet");
}

eh_status eh_ref_random_exponential(const eh_op_call *call)
{
    (void)call;
    return eh_set_error(EH_ERR_UNSUPPORTED, "random_exponential: not implemented yet");
}

eh_status eh_ref_random_gamma(const eh_op_call *call)
{
    (void)call;
    return eh_set_error(EH_ERR_UNSUPPORTED, "random_gamma: not implemented yet");
}

eh_status eh_ref_random_binomial(const eh_op_call *call)
{
    (void)call;
    return eh_set_error(EH_ERR_UNSUPPORTED, "random_binomial: not implemented yet");
}

eh_status eh_ref_random_categorical(const eh_op_call *call)
{
    (void)call;
    return eh_set_error(EH_ERR_UNSUPPORTED, "random_categorical: not implemented yet");
}

eh_status eh_ref_random_permutation(const eh_op_call *call)
{
    (void)call;
    return eh_set_error(EH_ERR_UNSUPPORTED, "random_permutation: not implemented yet");
}

eh_status eh_ref_random_randint(const eh_op_call *call)
{
    (void)call;
    return eh_set_error(EH_ERR_UNSUPPORTED, "random_randint: not implemented yet");
}

