/* The project's API header: declares its own helpers, the GPU ones too. */
#ifndef APP_H
#define APP_H
#include <stddef.h>
extern int gpu_index;
typedef struct layer {
    int n;
    float *out;
    float *out_gpu;
    int gpu_index;
} layer;
float *cuda_make_array(float *x, size_t n);
void cuda_free(float *x);
void cuda_log(const char *what);
int cuda_seen(void);
#endif
