/* Frontend of the signal ops: hann_window, hamming_window, frame, rfft,
 * irfft, stft (docs/ops/signal.md; public contract in <eh/signal.h>).
 *
 * The kernel contract -- what every backend receives.  "Spectral dtype"
 * below: f64 -> f64, f32 -> f32, f16 -> f32, i32/i64/bool -> f64.
 *
 * hann_window, hamming_window  (CREATION, 0 inputs)
 *   out[0]  shape (n,), n >= 0, dtype EH_F16 / EH_F32 / EH_F64.
 *   p.i[0]  1 periodic, 0 symmetric.
 *   Values: a - b cos(2 pi k / M), (a, b) = (0.5, 0.5) (hann) or
 *   (0.54, 0.46) (hamming; b is not computed as 1 - a, which is not 0.46
 *   in double), M = n if periodic else n - 1; n == 1 gives [1].
 *
 * frame  (SHAPE, 1 input)
 *   in[0]   x, any dtype, ndim >= 1.
 *   p.axes[0] (p.n_axes = 1)  the framed axis, normalized (>= 0).
 *   p.i[0]  frame_length (> 0);  p.i[1]  hop_length (> 0).
 *   out[0]  x.shape[:axis] + (n_frames, frame_length) + x.shape[axis+1:],
 *           x's dtype; n_frames may be 0.
 *   out[..., f, k, ...] = x[..., f * hop + k, ...].
 *
 * rfft  (SIGNAL, 1 input)
 *   in[0]   x in the spectral dtype of the user's x (EH_F32 or EH_F64).
 *   p.axes[0] (p.n_axes = 1)  the transformed axis, normalized.
 *   p.i[0]  n >= 1, the transform length (x is cropped / zero-padded to n).
 *   out[0]  x.shape with the axis replaced by n/2 + 1, plus a trailing 2
 *           (re, im); same dtype as in[0].  Unnormalized forward DFT.
 *
 * irfft  (SIGNAL, 1 input)
 *   in[0]   x in EH_F32 or EH_F64, ndim >= 2, x.shape[-1] == 2.
 *   p.axes[0] (p.n_axes = 1)  the axis, normalized against x.ndim - 1
 *           (an axis of the complex shape x.shape[:-1]).
 *   p.i[0]  n >= 1, the output length.
 *   out[0]  x.shape[:-1] with the axis replaced by n; same dtype as in[0].
 *   Uses bins 0 .. n/2 (zero beyond the axis length m), ignores the
 *   imaginary part of bin 0 and, for even n, of bin n/2; scales by 1/n.
 *
 * stft  (SIGNAL, 2 inputs -- ops.def lists 1; see the note below)
 *   in[0]   x in the compute dtype (EH_F32 or EH_F64), ndim >= 1, frames
 *           along the last axis (length T).
 *   in[1]   window, shape (n_fft,), the same dtype as in[0].
 *   p.i[0]  n_fft (>= 1);  p.i[1]  hop_length (>= 1);
 *   p.i[2]  pad = n_fft / 2 if center else 0: x is read as reflect-padded
 *           by pad samples on both sides (index j in [-pad, T + pad) maps
 *           into [0, T) by mirroring with period 2 (T - 1); T == 1 maps
 *           everything to 0; T >= 1 is guaranteed when pad > 0).
 *   out[0]  x.shape[:-1] + (n_fft/2 + 1, n_frames, 2), same dtype as in[0].
 *   out[..., k, f, :] = sum_t window[t] xp[f*hop + t] exp(-2 pi i k t / n_fft).
 *   Note: ops.def says n_in = 1 for stft; the window is a second tensor
 *   input, so calls carry n_in = 2.  Nothing in dispatch reads the
 *   ops.def count today; ops.def should say 2.
 */
#include "internal.h"

/* ---- shared helpers -------------------------------------------------- */

/* Output dtype of a transform of `dtype` data. */
static eh_dtype spectral_dtype(eh_dtype dtype)
{
    switch (dtype) {
    case EH_F64: return EH_F64;
    case EH_F32: case EH_F16: return EH_F32;
    default: return EH_F64;
    }
}

/* x in dtype: x itself (*tmp = NULL) when it already has it, else a cast
 * that the caller releases through *tmp.  (Not eh__as_dtype: releasing its
 * extra reference to a scope-owned x would take x out of its scope.)
 * NULL with the error recorded when the cast fails. */
static const eh_tensor *in_dtype(const eh_tensor *x, eh_dtype dtype, eh_tensor **tmp)
{
    *tmp = NULL;
    if (x->dtype == dtype)
        return x;
    *tmp = eh_cast(x, dtype);
    return *tmp;
}

/* Run a one-input call on x converted to dtype. */
static eh_tensor *run_one(eh_op_call *call, const eh_tensor *x, eh_dtype dtype, int ndim,
                          const int64_t *shape)
{
    eh_tensor *tmp;
    const eh_tensor *cx = in_dtype(x, dtype, &tmp);
    if (!cx)
        return NULL;
    const eh_tensor *in[1] = {cx};
    call->n_in = 1;
    call->in = in;
    eh_tensor *out = eh__run(call, ndim, shape, dtype);
    call->in = NULL;
    eh_release(tmp);
    return out;
}

/* ---- windows --------------------------------------------------------- */

static eh_tensor *make_window(eh_op op, int64_t n, int periodic, eh_dtype dtype)
{
    const char *name = eh_op_name(op);
    if (eh__check_dtype(name, dtype) != EH_OK)
        return NULL;
    if (!eh_dtype_is_float(dtype)) {
        eh_set_error(EH_ERR_DTYPE, "%s: dtype %s is not a float dtype (use f16, f32 or f64)",
                     name, eh_dtype_name(dtype));
        return NULL;
    }
    if (n < 0) {
        eh_set_error(EH_ERR_NEGATIVE_SIZE, "%s: window length %lld is negative", name,
                     (long long)n);
        return NULL;
    }
    eh_op_call call = eh__call(op, 0, NULL);
    call.p.i[0] = periodic ? 1 : 0;
    const int64_t shape[1] = {n};
    return eh__run(&call, 1, shape, dtype);
}

eh_tensor *eh_hann_window(int64_t n, int periodic, eh_dtype dtype)
{
    return make_window(EH_OP_hann_window, n, periodic, dtype);
}

eh_tensor *eh_hamming_window(int64_t n, int periodic, eh_dtype dtype)
{
    return make_window(EH_OP_hamming_window, n, periodic, dtype);
}

/* ---- frame ----------------------------------------------------------- */

eh_tensor *eh_frame(const eh_tensor *x, int64_t frame_length, int64_t hop_length, int axis)
{
    if (!eh__require("frame", x, "x"))
        return NULL;
    if (frame_length <= 0) {
        eh_set_error(EH_ERR_INVALID_ARG, "frame: frame_length must be positive, got %lld",
                     (long long)frame_length);
        return NULL;
    }
    if (hop_length <= 0) {
        eh_set_error(EH_ERR_INVALID_ARG, "frame: hop_length must be positive, got %lld",
                     (long long)hop_length);
        return NULL;
    }
    int a;
    if (eh__normalize_axis("frame", axis, x->ndim, &a) != EH_OK)
        return NULL;
    if (x->ndim >= EH_MAX_DIMS) {
        eh_set_error(EH_ERR_SHAPE, "frame: x of shape %s has %d dimensions; the frames would need %d (max %d)",
                     eh_shape_str(x->ndim, x->shape), x->ndim, x->ndim + 1, EH_MAX_DIMS);
        return NULL;
    }
    int64_t len = x->shape[a];
    int64_t n_frames = len >= frame_length ? 1 + (len - frame_length) / hop_length : 0;
    int64_t shape[EH_MAX_DIMS];
    int nd = 0;
    for (int d = 0; d < x->ndim; d++) {
        if (d == a) {
            shape[nd++] = n_frames;
            shape[nd++] = frame_length;
        } else {
            shape[nd++] = x->shape[d];
        }
    }
    const eh_tensor *in[1] = {x};
    eh_op_call call = eh__call(EH_OP_frame, 1, in);
    call.p.n_axes = 1;
    call.p.axes[0] = a;
    call.p.i[0] = frame_length;
    call.p.i[1] = hop_length;
    return eh__run(&call, nd, shape, x->dtype);
}

/* ---- rfft / irfft ---------------------------------------------------- */

eh_tensor *eh_rfft(const eh_tensor *x, int64_t n, int axis)
{
    if (!eh__require("rfft", x, "x"))
        return NULL;
    int a;
    if (eh__normalize_axis("rfft", axis, x->ndim, &a) != EH_OK)
        return NULL;
    if (x->ndim >= EH_MAX_DIMS) {
        eh_set_error(EH_ERR_SHAPE, "rfft: x of shape %s has %d dimensions; the (re, im) pair would need %d (max %d)",
                     eh_shape_str(x->ndim, x->shape), x->ndim, x->ndim + 1, EH_MAX_DIMS);
        return NULL;
    }
    if (n <= 0)
        n = x->shape[a];
    if (n == 0) {
        eh_set_error(EH_ERR_SHAPE, "rfft: axis %d of shape %s is empty; give n > 0 to zero-pad",
                     axis, eh_shape_str(x->ndim, x->shape));
        return NULL;
    }
    int64_t shape[EH_MAX_DIMS];
    for (int d = 0; d < x->ndim; d++)
        shape[d] = d == a ? n / 2 + 1 : x->shape[d];
    shape[x->ndim] = 2;
    eh_op_call call = eh__call(EH_OP_rfft, 1, NULL);
    call.p.n_axes = 1;
    call.p.axes[0] = a;
    call.p.i[0] = n;
    return run_one(&call, x, spectral_dtype(x->dtype), x->ndim + 1, shape);
}

eh_tensor *eh_irfft(const eh_tensor *x, int64_t n, int axis)
{
    if (!eh__require("irfft", x, "x"))
        return NULL;
    if (x->ndim < 2 || x->shape[x->ndim - 1] != 2) {
        eh_set_error(EH_ERR_SHAPE, "irfft: x of shape %s is not complex: it needs at least 2 dimensions, the last of size 2 (real, imaginary)",
                     eh_shape_str(x->ndim, x->shape));
        return NULL;
    }
    int cnd = x->ndim - 1, a;
    if (eh__normalize_axis("irfft", axis, cnd, &a) != EH_OK)
        return NULL;
    int64_t m = x->shape[a];
    if (n <= 0) {
        if (m <= 1) {
            eh_set_error(EH_ERR_SHAPE, "irfft: axis %d of shape %s has %lld bin%s, which gives 0 output points; give n > 0",
                         axis, eh_shape_str(x->ndim, x->shape), (long long)m, m == 1 ? "" : "s");
            return NULL;
        }
        n = 2 * (m - 1);
    }
    int64_t shape[EH_MAX_DIMS];
    for (int d = 0; d < cnd; d++)
        shape[d] = d == a ? n : x->shape[d];
    eh_op_call call = eh__call(EH_OP_irfft, 1, NULL);
    call.p.n_axes = 1;
    call.p.axes[0] = a;
    call.p.i[0] = n;
    return run_one(&call, x, spectral_dtype(x->dtype), cnd, shape);
}

/* ---- stft ------------------------------------------------------------ */

eh_tensor *eh_stft(const eh_tensor *x, int64_t n_fft, int64_t hop_length,
                   const eh_tensor *window, int center)
{
    if (!eh__require("stft", x, "x") || !eh__require("stft", window, "window"))
        return NULL;
    if (n_fft <= 0) {
        eh_set_error(EH_ERR_INVALID_ARG, "stft: n_fft must be positive, got %lld",
                     (long long)n_fft);
        return NULL;
    }
    if (hop_length <= 0) {
        eh_set_error(EH_ERR_INVALID_ARG, "stft: hop_length must be positive, got %lld",
                     (long long)hop_length);
        return NULL;
    }
    if (x->ndim < 1 || x->ndim > EH_MAX_DIMS - 2) {
        eh_set_error(EH_ERR_SHAPE, "stft: x of shape %s must have 1 to %d dimensions (signal on the last)",
                     eh_shape_str(x->ndim, x->shape), EH_MAX_DIMS - 2);
        return NULL;
    }
    if (window->ndim != 1 || window->shape[0] != n_fft) {
        eh_set_error(EH_ERR_SHAPE, "stft: window of shape %s does not match n_fft %lld (expected (%lld,))",
                     eh_shape_str(window->ndim, window->shape), (long long)n_fft,
                     (long long)n_fft);
        return NULL;
    }
    eh_dtype promoted;
    if (eh_result_type(x->dtype, window->dtype, &promoted) != EH_OK)
        return NULL;
    eh_dtype dtype = spectral_dtype(promoted);

    int64_t T = x->shape[x->ndim - 1];
    int64_t pad = center ? n_fft / 2 : 0;
    if (pad > 0 && T == 0) {
        eh_set_error(EH_ERR_SHAPE, "stft: cannot reflect-pad the empty signal of x of shape %s (center with n_fft %lld)",
                     eh_shape_str(x->ndim, x->shape), (long long)n_fft);
        return NULL;
    }
    /* No overflow: the window exists, so n_fft and T are both below
     * PTRDIFF_MAX / 2 (bytes of an allocatable tensor). */
    int64_t padded = T + 2 * pad;
    int64_t n_frames = padded >= n_fft ? 1 + (padded - n_fft) / hop_length : 0;

    int64_t shape[EH_MAX_DIMS];
    int nd = 0;
    for (int d = 0; d < x->ndim - 1; d++)
        shape[nd++] = x->shape[d];
    shape[nd++] = n_fft / 2 + 1;
    shape[nd++] = n_frames;
    shape[nd++] = 2;
    /* Validate the output shape before making any temporary. */
    if (eh__check_shape("stft", nd, shape, dtype, NULL) != EH_OK)
        return NULL;

    eh_tensor *tx, *tw = NULL;
    const eh_tensor *cx = in_dtype(x, dtype, &tx);
    const eh_tensor *cw = cx ? in_dtype(window, dtype, &tw) : NULL;
    eh_tensor *out = NULL;
    if (cx && cw) {
        const eh_tensor *in[2] = {cx, cw};
        eh_op_call call = eh__call(EH_OP_stft, 2, in);
        call.p.i[0] = n_fft;
        call.p.i[1] = hop_length;
        call.p.i[2] = pad;
        out = eh__run(&call, nd, shape, dtype);
    }
    eh_release(tx);
    eh_release(tw);
    return out;
}
