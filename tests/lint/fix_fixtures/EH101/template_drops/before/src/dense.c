/* A fully connected layer.  The template drops the layout and the
 * transposes: nothing of <cblas.h> is left, and the include goes in the
 * same run. */
#include <cblas.h>
#include "rows.h"

void dense_forward(const float *in, const float *w, float *out, int batch, int inputs,
                   int units)
{
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, batch, units, inputs, 1.0f, in,
                inputs, w, units, 0.0f, out, units);
}
