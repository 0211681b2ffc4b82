/* Legacy reference kernels, outside backends/. */
#include "ref_ops.h"

/* Packs a panel; a helper of eh_ref_matmul. */
static int pack(int n)
{
    return n * 2;
}

eh_status eh_ref_matmul(const eh_op_call *call)
{
    return pack(call->n_in) > 0 ? EH_OK : EH_OK;
}

float eh_ref_sum(const float *x, int n)
{
    float s = 0;
    for (int i = 0; i < n; i++)
        s += x[i];
    return s;
}
