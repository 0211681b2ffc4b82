/* The `blas` backend's table (table.h).  Its OpenBLAS set-up is openblas.c,
 * which the kernels call: the table sits above every file it names. */
#include "table.h"

const eh_backend eh_blas_backend = {
    .name = "blas",
    .description = "OpenBLAS/LAPACKE matrix ops, FFTW3 transforms, "
                   "vectorized multithreaded elementwise ops and reductions",
    .kernels = { EH_BLAS_TABLE_ENTRIES },
};
