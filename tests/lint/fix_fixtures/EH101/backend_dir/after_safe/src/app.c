#include <eh/eh.h>

eh_tensor *square(const eh_tensor *x)
{
    return eh_matmul(x, x);
}
