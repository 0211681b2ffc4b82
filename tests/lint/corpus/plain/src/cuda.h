/* A project's own header named cuda.h (it has nothing to do with CUDA). */
#ifndef PLAIN_CUDA_H
#define PLAIN_CUDA_H
int cuda_cores_guess(void);
int cublas_style_count(int n);
#endif
