#include <eh/eh.h>

eh_tensor *eh_ref_matmul(const eh_tensor *a, const eh_tensor *b);

/* blas's matmul, not moved yet: its call of ref's kernel stays (as
 * eh_matmul it would dispatch back to itself once registered) */
eh_tensor *eh_blas_matmul(const eh_tensor *a, const eh_tensor *b)
{
    return eh_ref_matmul(a, b);
}

eh_tensor *twice(const eh_tensor *a)
{
    return eh_matmul(a, a);
}
