#include "../include/app.h"
#include "cublas.h"
#include "gpu.h"                                 // expect: EH101
#include "math.h"

layer make_layer(int n)
{
    layer l = {0};
    l.n = n;
    l.gpu_index = gpu_index;
#ifdef GPU                                       // expect: EH103
    l.out_gpu = cuda_make_array(l.out, (size_t)n);   /* not compiled here: the #ifdef is the finding */
#endif
    if (gpu_index >= 0)                          // expect: EH103
        l.out_gpu = cuda_make_array(0, (size_t)n);   // expect: EH102
    return l;
}

void forward(layer *l, const float *in)
{
    if (l->gpu_index < 0) {                      // expect: EH103
        axpy_cpu(l->n, 1.0f, in, l->out);
        return;
    }
    cuda_push_array(l->out_gpu, in, (size_t)l->n);   // expect: EH102
}

void free_layer(layer *l)
{
    cuda_free(l->out_gpu);                       // expect: EH102
    cuda_log("free");
    (void)cuda_seen();
}
