/* An OpenMP clause names a backend function: no cursor shows it (OpenMP
 * is parsed as plain C), so the include it needs when the code builds
 * with OpenMP stays; the call in the region is still rewritten. */
#include "../ops/blas/blas_ops.h"

int tiles(const eh_tensor *x, eh_tensor **out)
{
#pragma omp parallel if(eh_blas_transpose(x, 0, 0) != 0)
    *out = eh_matmul(x, x);
    return 0;
}
