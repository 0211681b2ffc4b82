/* The GPU backend's public header: frontend code must not need it. */
#ifndef TL_GPU_H
#define TL_GPU_H
#include "tl.h"
tl_backend *tl_backend_gpu_init(int device);
tl_tensor *tl_backend_gpu_mul_mat(tl_tensor *a, tl_tensor *b);
#endif
