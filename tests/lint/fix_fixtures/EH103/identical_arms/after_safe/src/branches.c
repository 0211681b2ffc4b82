/* Arms that are the same once their calls are rewritten collapse. */
#include <string.h>
#include <eh/eh.h>

eh_tensor *eh_blas_matmul(const eh_tensor *a, const eh_tensor *b);
eh_tensor *eh_ref_matmul(const eh_tensor *a, const eh_tensor *b);
eh_tensor *eh_blas_add(const eh_tensor *a, const eh_tensor *b);

eh_tensor *product(const eh_tensor *a, const eh_tensor *b)
{
    eh_tensor *y;
    y = eh_matmul(a, b);
    return y;
}

eh_tensor *chain(const eh_tensor *a, const eh_tensor *b)
{
    const char *be = eh_get_backend();
    {
        eh_tensor *t = eh_matmul(a, b); /* product */
        return t;
    }
}

eh_tensor *block(const eh_tensor *a, const eh_tensor *b)
{
    eh_tensor *y = NULL;
    y = eh_matmul(a, b);
    y = eh_add(y, a);   /* bias */

    y = eh_add(y, b);
    return y;
}
