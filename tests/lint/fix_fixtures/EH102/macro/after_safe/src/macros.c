/* Code inside macro expansions is never edited. */
#include <eh/eh.h>

eh_tensor *eh_blas_matmul(const eh_tensor *a, const eh_tensor *b);

#define MATMUL(a, b) eh_blas_matmul(a, b)
#define GEMM eh_blas_matmul
#define ID(x) x

eh_tensor *twice(const eh_tensor *a, const eh_tensor *b)
{
    eh_tensor *x = MATMUL(a, b);
    eh_tensor *y = GEMM(a, b);
    eh_tensor *z = ID(eh_blas_matmul(x, y));
    return eh_matmul(z, NULL);
}
