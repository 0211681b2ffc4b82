/* Private header of the library (core): it picks the FFT. */
#ifndef PRIV_H
#define PRIV_H
#include <math.h>
typedef float smpl_t;
typedef unsigned int uint_t;
typedef struct { uint_t length; smpl_t *data; } fvec_t;
#ifdef HAVE_FFTW3
#include <fftw3.h>
#endif
#endif
