/* The frontend: calls the legacy backend directly. */
#include "../ops/ref/ref_ops.h"

float total(const float *x, int n);

float total(const float *x, int n)
{
    return eh_ref_sum(x, n);
}
