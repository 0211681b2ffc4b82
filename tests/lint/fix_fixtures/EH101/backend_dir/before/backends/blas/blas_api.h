#ifndef BLAS_API_H
#define BLAS_API_H
#include <eh/eh.h>
eh_tensor *eh_blas_matmul(const eh_tensor *a, const eh_tensor *b);
#endif
