/* A projection.  The template passes the transpose on to gemv_rows: a use
 * of <cblas.h> afterwards, so the include stays for it, and both are
 * listed. */
#include <cblas.h>
#include "rows.h"

void project(const float *a, const float *x, float *y, int m, int n)
{
    gemv_rows(CblasTrans, m, n, a, x, y);
}
