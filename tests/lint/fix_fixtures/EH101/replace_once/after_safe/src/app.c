/* Two legacy backend headers: the first becomes <eh/eh.h>, the second
 * goes; the calls become ops (EH102). */
#include <stdio.h>
#include <eh/eh.h>   /* BLAS kernels */

eh_tensor *gram(const eh_tensor *x)
{
    static const int perm[2] = {1, 0};
    eh_tensor *xt = eh_transpose(x, perm, 2);
    eh_tensor *g = eh_matmul(xt, x);
    printf("gram done\n");
    return eh_matmul(g, g);
}
