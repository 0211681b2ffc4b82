/* Code a macro's body writes is never edited; a call written whole in a
 * macro's argument is, when the macro puts the argument in once, as it
 * is (ID), not when it makes a string of it too (SHOW). */
#include <eh/eh.h>

eh_tensor *eh_blas_matmul(const eh_tensor *a, const eh_tensor *b);

#define MATMUL(a, b) eh_blas_matmul(a, b)
#define GEMM eh_blas_matmul
#define ID(x) x
#define SHOW(x) (puts(#x), (x))

int puts(const char *s);

eh_tensor *twice(const eh_tensor *a, const eh_tensor *b)
{
    eh_tensor *x = MATMUL(a, b);
    eh_tensor *y = GEMM(a, b);
    eh_tensor *z = ID(eh_matmul(x, y));
    eh_tensor *w = SHOW(eh_blas_matmul(z, y));
    return eh_matmul(w, NULL);
}
