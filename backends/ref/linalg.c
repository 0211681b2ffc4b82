/* PLACEHOLDER: ref kernels for the linalg group, to be written. */
#include "ref.h"

eh_status eh_ref_matmul(const eh_op_call *call)
{
    (void)call;
    return eh_set_error(EH_ERR_UNSUPPORTED, "matmul: not implemented yet");
}

eh_status eh_ref_dot(const eh_op_call *call)
{
    (void)call;
    return eh_set_error(EH_ERR_UNSUPPORTED, "dot: not implemented yet");
}

eh_status eh_ref_outer(const eh_op_call *call)
{
    (void)call;
    return eh_set_error(EH_ERR_UNSUPPORTED, "outer: not implemented yet");
}

eh_status eh_ref_solve(const eh_op_call *call)
{
    (void)call;
    return eh_set_error(EH_ERR_UNSUPPORTED, "solve: not implemented yet");
}

eh_status eh_ref_inv(const eh_op_call *call)
{
    (void)call;
    return eh_set_error(EH_ERR_UNSUPPORTED, "inv: not implemented yet");
}

eh_status eh_ref_det(const eh_op_call *call)
{
    (void)call;
    return eh_set_error(EH_ERR_UNSUPPORTED, "det: not implemented yet");
}

eh_status eh_ref_cholesky(const eh_op_call *call)
{
    (void)call;
    return eh_set_error(EH_ERR_UNSUPPORTED, "cholesky: not implemented yet");
}

eh_status eh_ref_qr(const eh_op_call *call)
{
    (void)call;
    return eh_set_error(EH_ERR_UNSUPPORTED, "qr: not implemented yet");
}

eh_status eh_ref_svd(const eh_op_call *call)
{
    (void)call;
    return eh_set_error(EH_ERR_UNSUPPORTED, "svd: not implemented yet");
}

eh_status eh_ref_eigh(const eh_op_call *call)
{
    (void)call;
    return eh_set_error(EH_ERR_UNSUPPORTED, "eigh: not implemented yet");
}

eh_status eh_ref_lstsq(const eh_op_call *call)
{
    (void)call;
    return eh_set_error(EH_ERR_UNSUPPORTED, "lstsq: not implemented yet");
}

