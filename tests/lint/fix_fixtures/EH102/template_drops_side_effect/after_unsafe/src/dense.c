/* The template drops the transpose argument, which counts the calls: the
 * rewrite would lose calls++, so it is unsafe (and so is the include's
 * removal, which relies on it). */
#include "rows.h"

int calls;
void dense_forward(const float *in, const float *w, float *out, int batch, int inputs,
                   int units)
{
    gemm_rows(batch, units, inputs, 1.0f, in, inputs, w, units, 0.0f, out, units);
}

int pick(int layout);

/* A call, a compound assignment: side effects too. */
void dense_twice(const float *in, const float *w, float *out, int batch, int inputs, int units)
{
    gemm_rows(batch, units, inputs, 1.0f, in, inputs, w, units, 0.0f, out, units);
    gemm_rows(batch, units, inputs, 1.0f, in, inputs, w, units, 0.0f, out, units);
}
