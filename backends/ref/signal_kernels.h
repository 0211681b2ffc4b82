/* backends/ref/signal_kernels.h -- ref-internal helpers of the transforms
 * (not ops: no frontend calls them).
 *
 * ref's signal.c defines how rfft, irfft and stft lay out and read their
 * data (docs/ops/signal.md); the blas backend (backends/blas/fft.c) runs
 * other transforms on the same lines and frames, so both take the layout
 * from here instead of keeping copies that could drift apart.  Static
 * inline: they sit in per-element loops. */
#ifndef EH_REF_SIGNAL_KERNELS_H
#define EH_REF_SIGNAL_KERNELS_H

#include "ref.h"

/* Product of shape[lo..hi). */
static inline int64_t eh_ref_span(const int64_t *shape, int lo, int hi)
{
    int64_t s = 1;
    for (int d = lo; d < hi; d++)
        s *= shape[d];
    return s;
}

/* ---- rfft / irfft: lines along one axis ------------------------------------- */

/* The 1-D lines of an rfft or irfft call: outer * inner lines of a
 * length-n signal, whose spectrum has m bins (rfft: n/2 + 1; irfft: the
 * input's length along the axis), element (o, t, i) of a signal at
 * (o * len + t) * inner + i. */
typedef struct {
    int64_t n, m, outer, inner;
    int64_t len, take; /* rfft: the input's length; the samples read (the rest is 0) */
    int64_t half, use; /* irfft: n/2; the input bins read (the rest is 0) */
} eh_ref_fft_lines;

static inline eh_ref_fft_lines eh_ref_rfft_lines(const eh_op_call *call)
{
    const eh_tensor *x = call->in[0];
    int a = call->p.axes[0];
    eh_ref_fft_lines l = {0};
    l.n = call->p.i[0];
    l.m = l.n / 2 + 1;
    l.len = x->shape[a];
    l.take = l.len < l.n ? l.len : l.n;
    l.outer = eh_ref_span(x->shape, 0, a);
    l.inner = eh_ref_span(x->shape, a + 1, x->ndim);
    return l;
}

/* irfft's input has a trailing (re, im) dim of 2, not part of the lines. */
static inline eh_ref_fft_lines eh_ref_irfft_lines(const eh_op_call *call)
{
    const eh_tensor *x = call->in[0];
    int a = call->p.axes[0];
    eh_ref_fft_lines l = {0};
    l.n = call->p.i[0];
    l.m = x->shape[a];
    l.half = l.n / 2;
    l.use = l.m < l.half + 1 ? l.m : l.half + 1;
    l.outer = eh_ref_span(x->shape, 0, a);
    l.inner = eh_ref_span(x->shape, a + 1, x->ndim - 1);
    return l;
}

/* Element offset of the real part of bin k of line (o, i) in a spectrum
 * (rfft's output, irfft's input): interleaved (re, im) pairs. */
static inline int64_t eh_ref_bin_at(const eh_ref_fft_lines *l, int64_t o, int64_t k, int64_t i)
{
    return ((o * l->m + k) * l->inner + i) * 2;
}

/* Sample t of rfft line (o, i): x's value, or 0 past its end (zero padding). */
static inline double eh_ref_rfft_sample(const eh_tensor *x, const eh_ref_fft_lines *l,
                                        int64_t o, int64_t i, int64_t t)
{
    return t < l->take ? eh_load_f64(x->data, x->dtype, (o * l->len + t) * l->inner + i) : 0.0;
}

/* Bin k <= n/2 of irfft line (o, i): 0 past the input's bins, and a real
 * signal's DC and (even n) Nyquist bins are real, so their imaginary parts
 * are ignored. */
static inline void eh_ref_irfft_bin(const eh_tensor *x, const eh_ref_fft_lines *l, int64_t o,
                                    int64_t i, int64_t k, double *re, double *im)
{
    double vr = 0.0, vi = 0.0;
    if (k < l->use) {
        int64_t at = eh_ref_bin_at(l, o, k, i);
        vr = eh_load_f64(x->data, x->dtype, at);
        vi = eh_load_f64(x->data, x->dtype, at + 1);
    }
    if (k == 0 || 2 * k == l->n)
        vi = 0.0;
    *re = vr;
    *im = vi;
}

/* Element offset of sample t of irfft line (o, i) in the output. */
static inline int64_t eh_ref_irfft_out_at(const eh_ref_fft_lines *l, int64_t o, int64_t i,
                                          int64_t t)
{
    return (o * l->n + t) * l->inner + i;
}

/* ---- stft: frames of the last axis ------------------------------------------- */

/* batch signals of length T, cut into n_frames frames of n samples, hop
 * apart, after reflect padding by pad on each side; bins = n/2 + 1. */
typedef struct {
    int64_t n, hop, pad, T, batch, bins, n_frames;
} eh_ref_stft_frames;

static inline eh_ref_stft_frames eh_ref_stft_frames_of(const eh_op_call *call)
{
    const eh_tensor *x = call->in[0], *out = call->out[0];
    eh_ref_stft_frames s;
    s.n = call->p.i[0];
    s.hop = call->p.i[1];
    s.pad = call->p.i[2];
    s.T = x->shape[x->ndim - 1];
    s.batch = eh_ref_span(x->shape, 0, x->ndim - 1);
    s.bins = s.n / 2 + 1;
    s.n_frames = out->shape[out->ndim - 2];
    return s;
}

/* Index j of x reflect-padded (np.pad mode "reflect"), mapped into [0, T). */
static inline int64_t eh_ref_reflect_index(int64_t j, int64_t T)
{
    if (T == 1)
        return 0;
    int64_t period = 2 * (T - 1);
    int64_t r = j % period;
    if (r < 0)
        r += period;
    return r < T ? r : period - r;
}

/* Sample t of frame f of signal b, windowed: x (reflect-padded) * win[t]. */
static inline double eh_ref_stft_sample(const eh_tensor *x, const eh_tensor *win,
                                        const eh_ref_stft_frames *s, int64_t b, int64_t f,
                                        int64_t t)
{
    int64_t j = f * s->hop + t - s->pad;
    if (s->pad > 0)
        j = eh_ref_reflect_index(j, s->T);
    double v = eh_load_f64(x->data, x->dtype, b * s->T + j);
    return v * eh_load_f64(win->data, win->dtype, t);
}

/* Element offset of the real part of bin k of frame f of signal b in the
 * output: (bins, frames) order, interleaved (re, im). */
static inline int64_t eh_ref_stft_at(const eh_ref_stft_frames *s, int64_t b, int64_t k, int64_t f)
{
    return ((b * s->bins + k) * s->n_frames + f) * 2;
}

/* ---- errors ----------------------------------------------------------------- */

/* Records and returns EH_ERR_NOMEM for a length-n transform of op
 * (defined in signal.c: one wording on every backend). */
eh_status eh_ref_fft_nomem(const char *op, int64_t n);

#endif
