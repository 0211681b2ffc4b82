/* What the template drops here has no side effect (a comparison, a
 * sizeof(...), constants): the rewrite and the include's removal stay
 * safe. */
#include <cblas.h>
#include "rows.h"

void dense_checked(const float *in, const float *w, float *out, int batch, int inputs,
                   int units)
{
    cblas_sgemm(batch <= 0 ? CblasRowMajor : CblasRowMajor,
                sizeof(float) == 4 && units != 0 ? CblasNoTrans : CblasNoTrans, CblasNoTrans,
                batch, units, inputs, 1.0f, in, inputs, w, units, 0.0f, out, units);
}
