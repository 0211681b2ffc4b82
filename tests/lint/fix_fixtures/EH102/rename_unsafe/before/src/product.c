/* No <eh/eh.h>: eh_matmul is not declared here, so the rename is unsafe. */
typedef struct eh_tensor eh_tensor;

eh_tensor *eh_blas_matmul(const eh_tensor *a, const eh_tensor *b);

eh_tensor *product(const eh_tensor *a, const eh_tensor *b)
{
    return eh_blas_matmul(a, b);
}
