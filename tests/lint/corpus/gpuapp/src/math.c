/* Shared CPU math (core): it may branch on GPU. */
#include "math.h"
#include "../include/app.h"

void axpy_cpu(int n, float a, const float *x, float *y)
{
    for (int i = 0; i < n; i++)
        y[i] += a * x[i];
#ifdef GPU
    if (gpu_index >= 0)
        cuda_log("axpy");
#endif
}
