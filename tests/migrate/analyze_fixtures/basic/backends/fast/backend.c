/* A backend registered through an eh_backend table. */
#include <eh/backend_api.h>

static eh_status eh_fast_exp(const eh_op_call *call)
{
    (void)call;
    return EH_OK;
}

const eh_backend eh_fast_backend = {
    .name = "fast",
    .description = "fixture",
    .kernels = {[EH_OP_exp] = eh_fast_exp, [EH_OP_log] = NULL},
};
