/* No <eh/eh.h>: the rename inside the template is unsafe, so the template's fix is too. */
typedef struct eh_tensor eh_tensor;

eh_tensor *legacy_all(const eh_tensor *a, const eh_tensor *b);
eh_tensor *eh_blas_matmul(const eh_tensor *a, const eh_tensor *b);

eh_tensor *bare(const eh_tensor *a, const eh_tensor *b, const eh_tensor *c)
{
    return legacy_all(eh_blas_matmul(a, b), c);
}
