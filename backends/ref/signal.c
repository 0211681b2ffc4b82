/* PLACEHOLDER: ref kernels for the signal group, to be written. */
#include "ref.h"

eh_status eh_ref_hann_window(const eh_op_call *call)
{
    (void)call;
    return eh_set_error(EH_ERR_UNSUPPORTED, "hann_window: not implemented yet");
}

eh_status eh_ref_hamming_window(const eh_op_call *call)
{
    (void)call;
    return eh_set_error(EH_ERR_UNSUPPORTED, "hamming_window: not implemented yet");
}

eh_status eh_ref_frame(const eh_op_call *call)
{
    (void)call;
    return eh_set_error(EH_ERR_UNSUPPORTED, "frame: not implemented yet");
}

eh_status eh_ref_stft(const eh_op_call *call)
{
    (void)call;
    return eh_set_error(EH_ERR_UNSUPPORTED, "stft: not implemented yet");
}

eh_status eh_ref_rfft(const eh_op_call *call)
{
    (void)call;
    return eh_set_error(EH_ERR_UNSUPPORTED, "rfft: not implemented yet");
}

eh_status eh_ref_irfft(const eh_op_call *call)
{
    (void)call;
    return eh_set_error(EH_ERR_UNSUPPORTED, "irfft: not implemented yet");
}

