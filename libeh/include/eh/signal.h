/* <eh/signal.h> -- windows, framing and real Fourier transforms
 * (docs/ops/signal.md has the full contract).
 *
 * Complex values are stored as a TRAILING dimension of size 2 holding
 * (real, imaginary): the spectrum of n real samples is a float tensor of
 * shape (..., n/2 + 1, ..., 2).
 *
 * Spectral dtypes: f64 stays f64, f32 stays f32, f16 gives f32 (an FFT
 * grows magnitudes by up to n, and f16 overflows at 65504), integers and
 * bool give f64.  The ref backend computes every transform in double
 * precision and rounds once on the store.
 *
 * Every function returns a new tensor (NULL with the error recorded on
 * failure; a NULL tensor argument keeps an earlier error). */
#ifndef EH_SIGNAL_H
#define EH_SIGNAL_H

#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Hann window of n points, shape (n,):
 *   w[k] = 0.5 - 0.5 cos(2 pi k / M),  M = n (periodic) or n - 1 (symmetric),
 * as scipy.signal.get_window('hann', n, fftbins=periodic) and
 * torch.hann_window(n, periodic).  periodic != 0: the first n points of
 * the symmetric window of n + 1 points (the form for spectral analysis).
 * n = 0 gives an empty tensor, n = 1 gives [1] for both forms.
 * dtype: EH_F16, EH_F32 or EH_F64 (others: EH_ERR_DTYPE).
 * Errors: n < 0 EH_ERR_NEGATIVE_SIZE. */
EH_API eh_tensor *eh_hann_window(int64_t n, int periodic, eh_dtype dtype);

/* Hamming window: w[k] = 0.54 - 0.46 cos(2 pi k / M), otherwise exactly
 * as eh_hann_window (scipy 'hamming', torch.hamming_window defaults). */
EH_API eh_tensor *eh_hamming_window(int64_t n, int periodic, eh_dtype dtype);

/* Overlapping frames of x along `axis` (negative counts from the end;
 * usually -1).  With len = x.shape[axis]:
 *   n_frames = 1 + (len - frame_length) / hop_length   if len >= frame_length,
 *              0                                       otherwise (empty result,
 *                                                      not an error);
 *   out.shape = x.shape[:axis] + (n_frames, frame_length) + x.shape[axis+1:]
 *   out[..., f, k, ...] = x[..., f * hop_length + k, ...]
 * Trailing samples that do not fill a frame are dropped.  Any dtype; the
 * result has x's dtype (a copy, not a view).
 * Errors: frame_length <= 0 or hop_length <= 0 EH_ERR_INVALID_ARG; axis
 * out of range (any axis of a 0-d x) EH_ERR_AXIS; x already has
 * EH_MAX_DIMS dimensions EH_ERR_SHAPE. */
EH_API eh_tensor *eh_frame(const eh_tensor *x, int64_t frame_length, int64_t hop_length,
                           int axis);

/* Real-input discrete Fourier transform along `axis`, as numpy.fft.rfft
 * (norm "backward": no scaling):
 *   X[k] = sum_{t<n} x[t] exp(-2 pi i k t / n),  k = 0 .. n/2.
 * n <= 0 means n = x.shape[axis]; otherwise x is cropped or zero-padded
 * along the axis to n points first.  out.shape = x.shape with the axis
 * replaced by n/2 + 1, plus a trailing 2 (real, imaginary).
 * Errors: axis out of range (0-d x) EH_ERR_AXIS; n <= 0 with an empty
 * axis (nothing to transform) EH_ERR_SHAPE; x already has EH_MAX_DIMS
 * dimensions EH_ERR_SHAPE. */
EH_API eh_tensor *eh_rfft(const eh_tensor *x, int64_t n, int axis);

/* Inverse of eh_rfft, as numpy.fft.irfft (1/n scaling on the inverse).
 * x holds complex values: its last dimension must be 2 (real, imaginary),
 * and `axis` indexes the complex shape x.shape[:-1] (so -1 is the
 * frequency axis just before the pair, and eh_irfft(eh_rfft(y, n, a), n, a)
 * gives y back).  With m = the axis length, n <= 0 means n = 2 (m - 1).
 * The first n/2 + 1 bins are used (cropped, or zero-padded when m is
 * smaller); the imaginary part of bin 0 and, for even n, of bin n/2 is
 * ignored (the result is real).
 *   y[t] = (1/n) sum_{k<n} X[k] exp(+2 pi i k t / n),  X[n-k] = conj(X[k])
 * out.shape = x.shape[:-1] with the axis replaced by n.
 * Errors: x has fewer than 2 dimensions or a last dimension other than 2
 * EH_ERR_SHAPE; axis out of range EH_ERR_AXIS; n <= 0 with m <= 1
 * (n would be 0) EH_ERR_SHAPE. */
EH_API eh_tensor *eh_irfft(const eh_tensor *x, int64_t n, int axis);

/* Short-time Fourier transform of x along its LAST axis, as
 * torch.stft(x, n_fft, hop_length, win_length=n_fft, window, center,
 * pad_mode="reflect", normalized=False, onesided=True,
 * return_complex=False).  Layout (torch's):
 *   out.shape = x.shape[:-1] + (n_fft/2 + 1, n_frames, 2)
 *   out[..., k, f, :] = sum_{t<n_fft} window[t] xp[f*hop_length + t] e^{-2 pi i k t / n_fft}
 * where xp is x, or with center != 0, x reflect-padded by n_fft/2 on both
 * sides (np.pad mode "reflect": mirror images without repeating the edge,
 * repeated as often as needed; a single sample is repeated).
 *   n_frames = 1 + (len(xp) - n_fft) / hop_length if len(xp) >= n_fft, else 0.
 * window: a 1-D tensor of exactly n_fft points, any real dtype; required.
 * There is no NULL default: NULL is EH_ERR_NULL_ARG like any missing
 * tensor, so eh_stft(x, 512, 128, eh_hann_window(512, 1, EH_F32), 1)
 * fails cleanly (keeping the window's error) instead of silently using
 * another window.  torch's rectangular default is an all-ones tensor.
 * Compute dtype: the spectral dtype (see above) of x's dtype promoted
 * with the window's.
 * Errors: x or window NULL EH_ERR_NULL_ARG; n_fft <= 0 or hop_length <= 0
 * EH_ERR_INVALID_ARG; x 0-d, or more than EH_MAX_DIMS - 2 dimensions
 * EH_ERR_SHAPE; window not of shape (n_fft,) EH_ERR_SHAPE; center != 0
 * with an empty last axis and n_fft >= 2 (nothing to reflect)
 * EH_ERR_SHAPE. */
EH_API eh_tensor *eh_stft(const eh_tensor *x, int64_t n_fft, int64_t hop_length,
                          const eh_tensor *window, int center);

#ifdef __cplusplus
}
#endif
#endif
