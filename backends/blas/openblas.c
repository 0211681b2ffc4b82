/* OpenBLAS set-up: its thread pool follows EH_NUM_THREADS.  Called by
 * every kernel that calls OpenBLAS or LAPACKE (blas.h). */
#include <pthread.h>
#include <cblas.h>
#include "blas.h"

/* Declared by OpenBLAS's cblas.h, but not by other CBLAS headers the
 * system's cblas.h alternative may point at; the Makefile links
 * -lopenblas, which defines it. */
void openblas_set_num_threads(int num_threads);

static pthread_once_t openblas_once = PTHREAD_ONCE_INIT;

/* OpenBLAS runs its own thread pool (sized to the core count by default).
 * libeh never calls it from inside eh_parallel_for, so the two pools never
 * run at the same time; giving OpenBLAS the same EH_NUM_THREADS budget
 * keeps one setting in charge of both. */
static void set_openblas_threads(void)
{
    openblas_set_num_threads(eh_num_threads());
}

void eh_blas_openblas_init(void)
{
    pthread_once(&openblas_once, set_openblas_threads);
}
