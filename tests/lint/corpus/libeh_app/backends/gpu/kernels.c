/* Backend code: it may include backend headers, call libraries and touch
 * storage. */
#include <math.h>
#include <cblas.h>
#include <eh/backend_api.h>

float gpu_dot(const float *a, const float *b, int n) { return cblas_sdot(n, a, 1, b, 1); }

void gpu_scale(float *p, int n, float s)
{
    for (int i = 0; i < n; i++)
        p[i] = sqrtf(p[i] * s);
}
