#ifndef FFT_H
#define FFT_H
#include "../priv.h"
typedef struct fft fft_t;
fft_t *new_fft(uint_t size);
void fft_do(fft_t *f, const fvec_t *in, fvec_t *out);
void dsp_fftw_forward(fft_t *f, const smpl_t *in, smpl_t *out);
void dsp_ooura_forward(fft_t *f, const smpl_t *in, smpl_t *out);
#endif
