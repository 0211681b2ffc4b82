/* Arms that are the same once their calls are rewritten collapse. */
#include <string.h>
#include <eh/eh.h>

eh_tensor *eh_blas_matmul(const eh_tensor *a, const eh_tensor *b);
eh_tensor *eh_ref_matmul(const eh_tensor *a, const eh_tensor *b);
eh_tensor *eh_blas_add(const eh_tensor *a, const eh_tensor *b);

eh_tensor *product(const eh_tensor *a, const eh_tensor *b)
{
    eh_tensor *y;
    if (strcmp(eh_get_backend(), "blas") == 0)
        y = eh_blas_matmul(a, b);
    else
        y = eh_ref_matmul(a, b);
    return y;
}

eh_tensor *chain(const eh_tensor *a, const eh_tensor *b)
{
    const char *be = eh_get_backend();
    if (strcmp(be, "blas") == 0) {
        eh_tensor *t = eh_blas_matmul(a, b); /* product */
        return t;
    } else if (strcmp(be, "ref") == 0) {
        eh_tensor *t = eh_ref_matmul(a, b);
        return t;
    } else {
        eh_tensor *t = eh_matmul(a, b);
        return t;
    }
}

eh_tensor *block(const eh_tensor *a, const eh_tensor *b)
{
    eh_tensor *y = NULL;
    if (!strcmp(eh_get_backend(), "blas") || strcmp(eh_get_backend(), "BLAS") == 0) {
        y = eh_blas_matmul(a, b);
        y = eh_blas_add(y, a);   /* bias */

        y = eh_add(y, b);
    } else {
        y = eh_matmul(a, b);
        y = eh_add(y, a);
        y = eh_add(y, b);
    }
    return y;
}
