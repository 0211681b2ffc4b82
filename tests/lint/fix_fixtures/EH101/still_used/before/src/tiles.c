/* BLAS_TILE comes from the backend header and has no replacement: the
 * include stays (the finding remains); the call is still rewritten. */
#include "../ops/blas/blas_ops.h"

int tiles(const eh_tensor *x, eh_tensor **out)
{
    *out = eh_blas_matmul(x, x);
    return BLAS_TILE;
}
