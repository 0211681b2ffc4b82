#include <math.h>
#include <string.h>
#include <stdio.h>
#include "../include/tl.h"
#include "../include/tl-gpu.h"                   // expect: EH101

tl_tensor *project(tl_backend *b, tl_tensor *w, tl_tensor *x)
{
    if (tl_backend_is_gpu(b))                    // expect: EH103
        return tl_backend_gpu_mul_mat(w, x);     // expect: EH102
    return tl_mul_mat(w, x);
}

void postprocess(tl_tensor *t, int n)
{
    float *p = tl_get_data_f32(t);
    for (int i = 0; i < n; i++)
        p[i] = expf(p[i]) * 0.5f;                // expect: EH202
}

float peek(tl_backend *b, tl_tensor *t, int n)
{
    float s = 0, buf[4];
    for (int i = 0; i < n; i++) {
        s += tl_get_f32_1d(t, i);                /* host memory: no sync */
        tl_backend_tensor_get(t, buf, 0, sizeof buf);   // expect: EH203
    }
    if (strcmp(tl_backend_name(b), "gpu") == 0)  // expect: EH103
        s = 0;
    return s + buf[0];
}

tl_tensor *copy_back(tl_tensor *t)
{
    float buf[4];
    tl_backend_tensor_get(t, buf, 0, sizeof buf);
    return tl_new_from(buf, 4);                  // expect: EH401
}

/* look-alikes: the frontend API, the backend's name printed, own data */
void run(void)
{
    tl_backend *b = tl_backend_init_best();
    tl_tensor *a = tl_new(4), *c = tl_add(a, tl_scale(a, 2.0f));
    tl_compute(b, c);
    printf("ran on %s\n", tl_backend_name(b));
    float own[4] = {1, 2, 3, 4};
    for (int i = 0; i < 4; i++)
        own[i] = expf(own[i]) * 2.0f;
}
