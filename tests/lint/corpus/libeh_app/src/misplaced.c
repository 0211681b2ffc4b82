/* A kernel written in the application. */
#include <eh/eh.h>

eh_tensor *eh_blas_axpy(float a, const eh_tensor *x, const eh_tensor *y)   // expect: EH104
{
    return eh_add(eh_multiply_scalar(x, a), y);
}

/* look-alikes: names that only start like a backend's */
int eh_blast_radius(int r) { return 2 * r; }
int eh_lazyness(void) { return 0; }
