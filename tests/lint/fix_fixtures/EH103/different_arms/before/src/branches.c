/* The arms differ: the branch stays for a person (the calls are still
 * rewritten by EH102). */
#include <string.h>
#include <eh/eh.h>

eh_tensor *eh_blas_matmul(const eh_tensor *a, const eh_tensor *b);
eh_tensor *eh_ref_matmul(const eh_tensor *a, const eh_tensor *b);
eh_tensor *eh_blas_add(const eh_tensor *a, const eh_tensor *b);

eh_tensor *pick(const eh_tensor *a, const eh_tensor *b)
{
    if (strcmp(eh_get_backend(), "blas") == 0)
        return eh_blas_matmul(a, b);
    else
        return eh_add(a, b);
}

eh_tensor *only_then(const eh_tensor *a, const eh_tensor *b)
{
    if (strcmp(eh_get_backend(), "blas") == 0)
        return eh_blas_matmul(a, b);
    return eh_matmul(a, b);
}
