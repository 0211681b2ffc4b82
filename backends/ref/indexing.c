/* PLACEHOLDER: ref kernels for the indexing group, to be written. */
#include "ref.h"

eh_status eh_ref_tile(const eh_op_call *call)
{
    (void)call;
    return eh_set_error(EH_ERR_UNSUPPORTED, "tile: not implemented yet");
}

eh_status eh_ref_repeat(const eh_op_call *call)
{
    (void)call;
    return eh_set_error(EH_ERR_UNSUPPORTED, "repeat: not implemented yet");
}

eh_status eh_ref_pad(const eh_op_call *call)
{
    (void)call;
    return eh_set_error(EH_ERR_UNSUPPORTED, "pad: not implemented yet");
}

eh_status eh_ref_roll(const eh_op_call *call)
{
    (void)call;
    return eh_set_error(EH_ERR_UNSUPPORTED, "roll: not implemented yet");
}

eh_status eh_ref_gather(const eh_op_call *call)
{
    (void)call;
    return eh_set_error(EH_ERR_UNSUPPORTED, "gather: not implemented yet");
}

eh_status eh_ref_scatter(const eh_op_call *call)
{
    (void)call;
    return eh_set_error(EH_ERR_UNSUPPORTED, "scatter: not implemented yet");
}

eh_status eh_ref_triu(const eh_op_call *call)
{
    (void)call;
    return eh_set_error(EH_ERR_UNSUPPORTED, "triu: not implemented yet");
}

eh_status eh_ref_tril(const eh_op_call *call)
{
    (void)call;
    return eh_set_error(EH_ERR_UNSUPPORTED, "tril: not implemented yet");
}

