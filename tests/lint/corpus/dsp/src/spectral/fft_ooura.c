/* One library's implementation: backend code. */
#include <math.h>
#include "fft.h"

void dsp_ooura_forward(fft_t *f, const smpl_t *in, smpl_t *out)
{
    (void)f;
    for (int i = 0; i < 4; i++)
        out[i] = cosf(in[i]) * 2.0f;
}
