/* <eh/eh.h> is included already: the backend includes are removed. */
#include <eh/eh.h>
#include "../ops/blas/blas_ops.h"
#include "../ops/blas/blas_ops.h"

eh_tensor *square(const eh_tensor *x)
{
    return eh_blas_matmul(x, x);
}
