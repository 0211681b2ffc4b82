/* eh_blas_matmul has eh_matmul's type: renaming the call is safe. */
#include <eh/eh.h>

eh_tensor *eh_blas_matmul(const eh_tensor *a, const eh_tensor *b);

eh_tensor *product(const eh_tensor *a, const eh_tensor *b)
{
    return eh_matmul(a, /* the weights */ b);
}
