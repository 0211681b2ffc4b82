#include <stdio.h>
#include "../include/app.h"
#include "math.h"

void train(layer *l, const float *in)
{
    if (gpu_index >= 0 && l->n > 0) {            // expect: EH103
        cuda_log("train on gpu");
        return;
    }
    axpy_cpu(l->n, 0.1f, in, l->out);
}

int pick_device(layer *l) { return l->gpu_index; }

void copy_index(layer *dst, const layer *src) { dst->gpu_index = src->gpu_index; }
