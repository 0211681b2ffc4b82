/* ref_ops.h relies on an unsafe rewrite (legacy_norm2), blas_ops.h on a
 * safe one: --fix turns blas_ops.h into <eh/eh.h> and keeps ref_ops.h;
 * --unsafe-fixes removes ref_ops.h as well. */
#include "../ops/ref/ref_ops.h"
#include "../ops/blas/blas_ops.h"

eh_tensor *normed(const eh_tensor *x)
{
    eh_tensor *g = eh_blas_matmul(x, x);
    return legacy_norm2(g);
}
