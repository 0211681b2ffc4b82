/* PLACEHOLDER: ref kernels for the shape group, to be written. */
#include "ref.h"

eh_status eh_ref_reshape(const eh_op_call *call)
{
    (void)call;
    return eh_set_error(EH_ERR_UNSUPPORTED, "reshape: not implemented yet");
}

eh_status eh_ref_transpose(const eh_op_call *call)
{
    (void)call;
    return eh_set_error(EH_ERR_UNSUPPORTED, "transpose: not implemented yet");
}

eh_status eh_ref_expand_dims(const eh_op_call *call)
{
    (void)call;
    return eh_set_error(EH_ERR_UNSUPPORTED, "expand_dims: not implemented yet");
}

eh_status eh_ref_squeeze(const eh_op_call *call)
{
    (void)call;
    return eh_set_error(EH_ERR_UNSUPPORTED, "squeeze: not implemented yet");
}

eh_status eh_ref_concatenate(const eh_op_call *call)
{
    (void)call;
    return eh_set_error(EH_ERR_UNSUPPORTED, "concatenate: not implemented yet");
}

eh_status eh_ref_stack(const eh_op_call *call)
{
    (void)call;
    return eh_set_error(EH_ERR_UNSUPPORTED, "stack: not implemented yet");
}

eh_status eh_ref_split(const eh_op_call *call)
{
    (void)call;
    return eh_set_error(EH_ERR_UNSUPPORTED, "split: not implemented yet");
}

eh_status eh_ref_broadcast_to(const eh_op_call *call)
{
    (void)call;
    return eh_set_error(EH_ERR_UNSUPPORTED, "broadcast_to: not implemented yet");
}

eh_status eh_ref_slice(const eh_op_call *call)
{
    (void)call;
    return eh_set_error(EH_ERR_UNSUPPORTED, "slice: not implemented yet");
}

eh_status eh_ref_flip(const eh_op_call *call)
{
    (void)call;
    return eh_set_error(EH_ERR_UNSUPPORTED, "flip: not implemented yet");
}

