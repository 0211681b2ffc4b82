/* ref_ops.h relies on an unsafe rewrite (legacy_norm2), blas_ops.h on a
 * safe one: --fix turns blas_ops.h into <eh/eh.h> and keeps ref_ops.h;
 * --unsafe-fixes removes ref_ops.h as well. */
#include <eh/eh.h>

eh_tensor *normed(const eh_tensor *x)
{
    eh_tensor *g = eh_matmul(x, x);
    return eh_sqrt(eh_sum(eh_multiply(g, g), NULL, 0, 0));
}
