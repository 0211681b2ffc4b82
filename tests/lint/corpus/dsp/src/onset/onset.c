/* Frontend: must not know which FFT runs. */
#include "../spectral/fft.h"

typedef struct { fft_t *fft; uint_t hop, delay; smpl_t threshold; } onset_t;

smpl_t onset_do(onset_t *o, const fvec_t *in, fvec_t *out)
{
    fft_do(o->fft, in, out);
#ifdef HAVE_FFTW3                                // expect: EH103
    smpl_t gain = 1.0f;
#else
    smpl_t gain = 0.5f;
#endif
    smpl_t isonset = o->delay / o->hop;          // expect: EH302
    return gain * isonset * o->threshold;
}

void onset_fast(onset_t *o, const smpl_t *in, smpl_t *out)
{
    dsp_fftw_forward(o->fft, in, out);           // expect: EH102
}

/* look-alikes: exact halves, floating division, own arithmetic */
smpl_t half_hop(const onset_t *o) { return (smpl_t)o->hop / 2; }
uint_t frames(uint_t total, uint_t hop) { return total / hop; }
