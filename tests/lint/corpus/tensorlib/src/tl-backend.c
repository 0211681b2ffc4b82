/* The dispatch layer (core): it asks which backend is best, that is its job. */
#include <string.h>
#include "tl-backend-impl.h"
#include "../include/tl-cpu.h"
#include "../include/tl-gpu.h"

tl_backend *tl_backend_init_best(void)
{
#ifdef TL_USE_GPU
    return tl_backend_gpu_init(0);
#else
    return tl_backend_cpu_init();
#endif
}

int tl_backend_is_cpu(tl_backend *b) { return strcmp(tl_backend_name(b), "cpu") == 0; }
