/* The template drops the transpose argument, which counts the calls: the
 * rewrite would lose calls++, so it is unsafe (and so is the include's
 * removal, which relies on it). */
#include <cblas.h>
#include "rows.h"

int calls;
void dense_forward(const float *in, const float *w, float *out, int batch, int inputs,
                   int units)
{
    cblas_sgemm(CblasRowMajor, (calls++, CblasNoTrans), CblasNoTrans, batch, units, inputs, 1.0f, in,
                inputs, w, units, 0.0f, out, units);
}

int pick(int layout);

/* A call, a compound assignment: side effects too. */
void dense_twice(const float *in, const float *w, float *out, int batch, int inputs, int units)
{
    cblas_sgemm(pick(CblasRowMajor), CblasNoTrans, CblasNoTrans, batch, units, inputs, 1.0f, in,
                inputs, w, units, 0.0f, out, units);
    cblas_sgemm(CblasRowMajor, CblasNoTrans, (batch <<= 0, CblasNoTrans), batch, units, inputs,
                1.0f, in, inputs, w, units, 0.0f, out, units);
}
