/* A condition with a side effect cannot be dropped. */
#include <string.h>
#include <eh/eh.h>

eh_tensor *eh_blas_matmul(const eh_tensor *a, const eh_tensor *b);
eh_tensor *eh_ref_matmul(const eh_tensor *a, const eh_tensor *b);
eh_tensor *eh_blas_add(const eh_tensor *a, const eh_tensor *b);

int counter(void);

eh_tensor *counted(const eh_tensor *a, const eh_tensor *b, int *n)
{
    if (strcmp(eh_get_backend(), "blas") == (*n)++)
        return eh_matmul(a, b);
    else
        return eh_matmul(a, b);
}

eh_tensor *called(const eh_tensor *a, const eh_tensor *b)
{
    if (strcmp(eh_get_backend(), "blas") == counter())
        return eh_matmul(a, b);
    else
        return eh_matmul(a, b);
}
