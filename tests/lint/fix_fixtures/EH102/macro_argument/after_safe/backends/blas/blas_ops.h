#include <eh/eh.h>
eh_tensor *eh_blas_add(const eh_tensor *a, const eh_tensor *b);
