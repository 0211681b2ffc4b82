#include <eh/eh.h>
#include <stdio.h>
#include "../backends/blas/blas_ops.h"
#define TRACE(x) (puts(#x), (x))
#define ADD(a, b) eh_blas_add(a, b)
eh_tensor *g(const eh_tensor *a, const eh_tensor *b)
{
    eh_tensor *t = TRACE(eh_blas_add(a, b));
    return ADD(t, b);
}
