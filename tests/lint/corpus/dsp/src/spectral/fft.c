/* Dispatch (core): branching on the library is its job. */
#include <stdlib.h>
#include "fft.h"

struct fft { uint_t size; };

fft_t *new_fft(uint_t size)
{
    fft_t *f = malloc(sizeof *f);
    if (f)
        f->size = size;
    return f;
}

void fft_do(fft_t *f, const fvec_t *in, fvec_t *out)
{
#ifdef HAVE_FFTW3
    dsp_fftw_forward(f, in->data, out->data);
#else
    dsp_ooura_forward(f, in->data, out->data);
#endif
}
