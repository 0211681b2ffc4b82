/* What the template drops here has no side effect (a comparison, a
 * sizeof(...), constants): the rewrite and the include's removal stay
 * safe. */
#include "rows.h"

void dense_checked(const float *in, const float *w, float *out, int batch, int inputs,
                   int units)
{
    gemm_rows(batch, units, inputs, 1.0f, in, inputs, w, units, 0.0f, out, units);
}
