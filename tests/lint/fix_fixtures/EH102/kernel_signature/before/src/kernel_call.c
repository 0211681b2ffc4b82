/* A backend kernel takes an eh_op_call, eh_matmul takes tensors: the
 * types differ, there is no mechanical rewrite. */
#include <eh/eh.h>

typedef struct eh_op_call eh_op_call;
eh_status eh_blas_matmul(const eh_op_call *call);

eh_status run(const eh_op_call *call)
{
    return eh_blas_matmul(call);
}
