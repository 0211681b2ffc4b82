/* Two legacy backend headers: the first becomes <eh/eh.h>, the second
 * goes; the calls become ops (EH102). */
#include <stdio.h>
#include "../ops/blas/blas_ops.h"   /* BLAS kernels */
#include "../ops/ref/ref_ops.h"

eh_tensor *gram(const eh_tensor *x)
{
    static const int perm[2] = {1, 0};
    eh_tensor *xt = eh_blas_transpose(x, perm, 2);
    eh_tensor *g = eh_blas_matmul(xt, x);
    printf("gram done\n");
    return eh_ref_matmul(g, g);
}
