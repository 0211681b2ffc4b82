/* PLACEHOLDER: ref kernels for the creation group, to be written. */
#include "ref.h"

eh_status eh_ref_zeros(const eh_op_call *call)
{
    (void)call;
    return eh_set_error(EH_ERR_UNSUPPORTED, "zeros: not implemented yet");
}

eh_status eh_ref_ones(const eh_op_call *call)
{
    (void)call;
    return eh_set_error(EH_ERR_UNSUPPORTED, "ones: not implemented yet");
}

eh_status eh_ref_full(const eh_op_call *call)
{
    (void)call;
    return eh_set_error(EH_ERR_UNSUPPORTED, "full: not implemented yet");
}

eh_status eh_ref_zeros_like(const eh_op_call *call)
{
    (void)call;
    return eh_set_error(EH_ERR_UNSUPPORTED, "zeros_like: not implemented yet");
}

eh_status eh_ref_ones_like(const eh_op_call *call)
{
    (void)call;
    return eh_set_error(EH_ERR_UNSUPPORTED, "ones_like: not implemented yet");
}

eh_status eh_ref_full_like(const eh_op_call *call)
{
    (void)call;
    return eh_set_error(EH_ERR_UNSUPPORTED, "full_like: not implemented yet");
}

eh_status eh_ref_arange(const eh_op_call *call)
{
    (void)call;
    return eh_set_error(EH_ERR_UNSUPPORTED, "arange: not implemented yet");
}

eh_status eh_ref_linspace(const eh_op_call *call)
{
    (void)call;
    return eh_set_error(EH_ERR_UNSUPPORTED, "linspace: not implemented yet");
}

eh_status eh_ref_eye(const eh_op_call *call)
{
    (void)call;
    return eh_set_error(EH_ERR_UNSUPPORTED, "eye: not implemented yet");
}

eh_status eh_ref_copy(const eh_op_call *call)
{
    (void)call;
    return eh_set_error(EH_ERR_UNSUPPORTED, "copy: not implemented yet");
}

eh_status eh_ref_triu_indices(const eh_op_call *call)
{
    (void)call;
    return eh_set_error(EH_ERR_UNSUPPORTED, "triu_indices: not implemented yet");
}

eh_status eh_ref_tril_indices(const eh_op_call *call)
{
    (void)call;
    return eh_set_error(EH_ERR_UNSUPPORTED, "tril_indices: not implemented yet");
}

