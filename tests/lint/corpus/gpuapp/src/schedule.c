/* darknet-style arithmetic: integer divisions that are exact or meant to
 * floor (no defect, though a quotient is converted), and one that loses
 * the fraction. */
#include <math.h>
#include "../include/app.h"

typedef struct net {
    int batch, step, size, c, groups;
    float scale, rate;
} net;

float learning_rate(const net *n, int batch_num)
{
    /* a step schedule: the floor is the point */
    return n->rate * powf(n->scale, batch_num / n->step);
}

float init_scale(const net *n)
{
    /* c is a multiple of groups: exact */
    return sqrtf(2.f / (n->size * n->size * n->c / n->groups));
}

float average_loss(int total_loss, int count)
{
    float avg = total_loss / count;              // expect: EH302
    return avg;
}

#define GPU_CALL(x) do { if (gpu_index >= 0) { x; } } while (0)

void maybe_log(void)
{
    GPU_CALL(cuda_log("tick"));                  // expect: EH103
}
