/* PLACEHOLDER: ref kernels for the reduction group, to be written. */
#include "ref.h"

eh_status eh_ref_allclose(const eh_op_call *call)
{
    (void)call;
    return eh_set_error(EH_ERR_UNSUPPORTED, "allclose: not implemented yet");
}

eh_status eh_ref_sum(const eh_op_call *call)
{
    (void)call;
    return eh_set_error(EH_ERR_UNSUPPORTED, "sum: not implemented yet");
}

eh_status eh_ref_mean(const eh_op_call *call)
{
    (void)call;
    return eh_set_error(EH_ERR_UNSUPPORTED, "mean: not implemented yet");
}

eh_status eh_ref_prod(const eh_op_call *call)
{
    (void)call;
    return eh_set_error(EH_ERR_UNSUPPORTED, "prod: not implemented yet");
}

eh_status eh_ref_max(const eh_op_call *call)
{
    (void)call;
    return eh_set_error(EH_ERR_UNSUPPORTED, "max: not implemented yet");
}

eh_status eh_ref_min(const eh_op_call *call)
{
    (void)call;
    return eh_set_error(EH_ERR_UNSUPPORTED, "min: not implemented yet");
}

eh_status eh_ref_var(const eh_op_call *call)
{
    (void)call;
    return eh_set_error(EH_ERR_UNSUPPORTED, "var: not implemented yet");
}

eh_status eh_ref_std(const eh_op_call *call)
{
    (void)call;
    return eh_set_error(EH_ERR_UNSUPPORTED, "std: not implemented yet");
}

eh_status eh_ref_argmax(const eh_op_call *call)
{
    (void)call;
    return eh_set_error(EH_ERR_UNSUPPORTED, "argmax: not implemented yet");
}

eh_status eh_ref_argmin(const eh_op_call *call)
{
    (void)call;
    return eh_set_error(EH_ERR_UNSUPPORTED, "argmin: not implemented yet");
}

eh_status eh_ref_cumsum(const eh_op_call *call)
{
    (void)call;
    return eh_set_error(EH_ERR_UNSUPPORTED, "cumsum: not implemented yet");
}

eh_status eh_ref_cumprod(const eh_op_call *call)
{
    (void)call;
    return eh_set_error(EH_ERR_UNSUPPORTED, "cumprod: not implemented yet");
}

eh_status eh_ref_logsumexp(const eh_op_call *call)
{
    (void)call;
    return eh_set_error(EH_ERR_UNSUPPORTED, "logsumexp: not implemented yet");
}

eh_status eh_ref_softmax(const eh_op_call *call)
{
    (void)call;
    return eh_set_error(EH_ERR_UNSUPPORTED, "softmax: not implemented yet");
}

eh_status eh_ref_log_softmax(const eh_op_call *call)
{
    (void)call;
    return eh_set_error(EH_ERR_UNSUPPORTED, "log_softmax: not implemented yet");
}

eh_status eh_ref_norm(const eh_op_call *call)
{
    (void)call;
    return eh_set_error(EH_ERR_UNSUPPORTED, "norm: not implemented yet");
}

