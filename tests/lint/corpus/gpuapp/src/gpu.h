/* The CUDA backend's own header. */
#ifndef GPU_H
#define GPU_H
#include "../include/app.h"
void cuda_push_array(float *x_gpu, const float *x, size_t n);
#endif
