#include "fft.h"
void dsp_fftw_forward(fft_t *f, const smpl_t *in, smpl_t *out) { (void)f; out[0] = in[0]; }
