/* mlp.c -- a small fixed-weight multilayer perceptron, forward pass only:
 * tanh layer, relu layer, softmax output over the operating regimes. */
#include <math.h>
#include <string.h>
#include "pipeline.h"
#include "ops/blas/blas_ops.h"
#include "ops/ref/ref_ops.h"

/* A deterministic stand-in for trained weights: a smooth function of the
 * position, scaled by 1/sqrt(fan_in) as a trained layer would roughly be.
 * rows 0 makes a vector of cols biases. */
static eh_tensor *layer_param(int64_t rows, int64_t cols, float phase)
{
    const int64_t matrix[2] = {rows, cols}, vector[1] = {cols};
    eh_tensor *t = rows ? eh_zeros(2, matrix, EH_F32) : eh_zeros(1, vector, EH_F32);
    float *p = eh_data_f32(t);
    if (!p)
        return NULL;
    float scale = rows ? 1.8f / sqrtf((float)rows) : 0.25f;
    for (int64_t k = 0; k < eh_size(t); k++)
        p[k] = scale * sinf(1.37f * (float)k + phase);
    return t;
}

int mlp_init(mlp *net)
{
    net->w1 = layer_param(N_CHANNELS, N_HIDDEN, 0.3f);
    net->b1 = layer_param(0, N_HIDDEN, 1.1f);
    net->w2 = layer_param(N_HIDDEN, N_HIDDEN, 2.0f);
    net->b2 = layer_param(0, N_HIDDEN, 0.4f);
    net->w3 = layer_param(N_HIDDEN, N_REGIMES, 0.9f);
    net->b3 = layer_param(0, N_REGIMES, 2.5f);
    if (!net->w1 || !net->b1 || !net->w2 || !net->b2 || !net->w3 || !net->b3)
        return -1;
    return 0;
}

eh_tensor *mlp_forward(const mlp *net, const eh_tensor *x)
{
    eh_tensor *h1, *h2, *logits;

    /* layer 1: tanh(x w1 + b1) */
    if (strcmp(eh_get_backend(), "blas") == 0) {
        h1 = eh_blas_add(eh_blas_matmul(x, net->w1), net->b1);
    } else {
        h1 = eh_ref_add(eh_ref_matmul(x, net->w1), net->b1);
    }
    h1 = eh_ref_tanh(h1);

    /* layer 2: relu(h1 w2 + b2) */
    if (strcmp(eh_get_backend(), "blas") == 0) {
        h2 = eh_blas_matmul(h1, net->w2);
        h2 = eh_blas_add(h2, net->b2);
    } else {
        h2 = eh_ref_matmul(h1, net->w2);
        h2 = eh_ref_add(h2, net->b2);
    }
    h2 = eh_ref_relu(h2);

    /* output: softmax(h2 w3 + b3) over the regimes */
    if (strcmp(eh_get_backend(), "blas") == 0)
        logits = eh_blas_add(eh_blas_matmul(h2, net->w3), net->b3);
    else
        logits = eh_ref_add(eh_ref_matmul(h2, net->w3), net->b3);
    return eh_ref_softmax(logits, -1);
}
