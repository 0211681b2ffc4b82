#include <x86_64-linux-gnu/cblas.h>              // expect: EH101
#include "blas_ops.h"

static void scale(float a, float *x, int n) { cblas_sscal(n, a, x, 1); }   // expect: EH104, EH102

void legacy_axpy(float a, const float *x, float *y, int n)   // expect: EH104
{
    cblas_saxpy(n, a, x, 1, y, 1);               // expect: EH102
    scale(1.0f, y, n);
}

/* an eh_ref_ name in the blas directory: named for backend ref */
int eh_ref_helper_count = 0;                     // expect: EH104
