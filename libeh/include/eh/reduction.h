/* <eh/reduction.h> -- reductions, scans, softmax, norms and allclose
 * (docs/ops/reduction.md has the full contract of every function).
 *
 * Axes.  A set of axes is (const int *axes, int n_axes): negative axes
 * count from the end; NULL, 0 means every axis (a 0-d tensor then reduces
 * to itself); a repeated or out-of-range axis is EH_ERR_AXIS, a negative
 * n_axes is EH_ERR_AXIS, axes == NULL with n_axes > 0 is EH_ERR_NULL_ARG.
 * Reducing over "no axes" (NumPy's axis=()) is not expressible: n_axes 0
 * means all.  Where a function takes one `int axis`, NumPy's axis=None
 * (the flattened tensor) is a separate function with the suffix _flat
 * (eh_argmax_flat, eh_cumsum_flat, ...), as in <eh/indexing.h>.
 * keepdims != 0 keeps every reduced dimension with length 1.
 *
 * Dtypes (NumPy on 64-bit Linux):
 *   sum prod cumsum cumprod          bool, i32, i64 -> i64; floats keep theirs
 *   mean var std logsumexp softmax
 *   log_softmax norm                 bool, i32, i64 -> f64; floats keep theirs
 *   max min                          the input's dtype (bool included)
 *   argmax argmin                    i64
 *   allclose                         a 0-d bool tensor
 * Float results are computed in double (with compensated summation) and
 * rounded once to the result dtype; this is at least as accurate as NumPy,
 * which accumulates f32 in f32 (pairwise) and f16 in f32, so low-order bits
 * may differ from NumPy, and an f32/f16 intermediate that would overflow in
 * NumPy may not here.  Integer sums and products wrap (two's complement).
 *
 * Empty reductions: sum 0, prod 1, mean/var/std NaN (NumPy warns and
 * returns NaN), logsumexp -inf, vector norms 2/1/fro 0.  max, min, argmax,
 * argmin (and the norms that take a max or min) over a zero-length reduced
 * axis are EH_ERR_SHAPE, as NumPy raises "zero-size array to reduction
 * operation ... which has no identity". */
#ifndef EH_REDUCTION_H
#define EH_REDUCTION_H

#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Sum / product / mean over axes.  NaN propagates; see the dtype table. */
EH_API eh_tensor *eh_sum(const eh_tensor *x, const int *axes, int n_axes, int keepdims);
EH_API eh_tensor *eh_prod(const eh_tensor *x, const int *axes, int n_axes, int keepdims);
EH_API eh_tensor *eh_mean(const eh_tensor *x, const int *axes, int n_axes, int keepdims);

/* Largest / smallest element over axes, in x's dtype.  Any NaN in a
 * reduced group makes that result NaN (NumPy max/min, not nanmax).
 * A zero-length reduced axis is EH_ERR_SHAPE. */
EH_API eh_tensor *eh_max(const eh_tensor *x, const int *axes, int n_axes, int keepdims);
EH_API eh_tensor *eh_min(const eh_tensor *x, const int *axes, int n_axes, int keepdims);

/* Variance: sum(|x - mean|^2) / (N - ddof); std = sqrt(var).  ddof may be
 * any value, as in NumPy: when N - ddof <= 0 the divisor is 0, giving inf
 * (or NaN when the sum of squares is 0 or NaN). */
EH_API eh_tensor *eh_var(const eh_tensor *x, const int *axes, int n_axes, int64_t ddof,
                         int keepdims);
EH_API eh_tensor *eh_std(const eh_tensor *x, const int *axes, int n_axes, int64_t ddof,
                         int keepdims);

/* Index (i64) of the largest / smallest element along `axis`.  Ties pick
 * the first; a NaN counts as the extreme, so the first NaN wins (NumPy).
 * bool: true > false.  A zero-length axis is EH_ERR_SHAPE. */
EH_API eh_tensor *eh_argmax(const eh_tensor *x, int axis, int keepdims);
EH_API eh_tensor *eh_argmin(const eh_tensor *x, int axis, int keepdims);
/* The same over the flattened tensor: the row-major flat index (0-d
 * result, or all dims 1 with keepdims).  An empty x is EH_ERR_SHAPE. */
EH_API eh_tensor *eh_argmax_flat(const eh_tensor *x, int keepdims);
EH_API eh_tensor *eh_argmin_flat(const eh_tensor *x, int keepdims);

/* Running sum / product along `axis` (same shape as x); the _flat forms
 * scan the row-major flattening of x (a 1-D result of x's size; a 0-d x
 * gives shape (1,)). */
EH_API eh_tensor *eh_cumsum(const eh_tensor *x, int axis);
EH_API eh_tensor *eh_cumprod(const eh_tensor *x, int axis);
EH_API eh_tensor *eh_cumsum_flat(const eh_tensor *x);
EH_API eh_tensor *eh_cumprod_flat(const eh_tensor *x);

/* log(sum(exp(x))) over axes, computed as m + log(sum(exp(x - m))) with m
 * the group's max (m taken as 0 when it is +-inf), as
 * scipy.special.logsumexp.  All -inf gives -inf, any +inf gives +inf,
 * NaN propagates, an empty group gives -inf. */
EH_API eh_tensor *eh_logsumexp(const eh_tensor *x, const int *axes, int n_axes,
                               int keepdims);

/* softmax: exp(x - m) / sum(exp(x - m)) along `axis`, m the max
 * (scipy.special.softmax; a +inf or an all -inf group gives NaN).
 * log_softmax: (x - m) - log(sum(exp(x - m))) with m taken as 0 when it
 * is +-inf (scipy.special.log_softmax: -inf entries give -inf).  Same
 * shape as x.  The _flat forms normalize over all elements together
 * (scipy's axis=None), still returning x's shape. */
EH_API eh_tensor *eh_softmax(const eh_tensor *x, int axis);
EH_API eh_tensor *eh_log_softmax(const eh_tensor *x, int axis);
EH_API eh_tensor *eh_softmax_flat(const eh_tensor *x);
EH_API eh_tensor *eh_log_softmax_flat(const eh_tensor *x);

/* Norm orders (values are stable). */
typedef enum eh_norm_ord {
    EH_NORM_2 = 0,       /* vector: sqrt(sum |x|^2); matrix: largest singular value */
    EH_NORM_1 = 1,       /* vector: sum |x|;         matrix: max column sum of |x|  */
    EH_NORM_INF = 2,     /* vector: max |x|;         matrix: max row sum of |x|     */
    EH_NORM_FRO = 3,     /* sqrt(sum |x|^2) over all the given axes, any number of
                            them (NumPy's ord=None; Frobenius for two axes)          */
    EH_NORM_NEG_INF = 4, /* vector: min |x|;         matrix: min row sum of |x|     */
    EH_NORM_NUC = 5      /* matrix only: sum of the singular values                 */
} eh_norm_ord;

/* np.linalg.norm(x, ord, axis, keepdims).  One axis: a vector norm; two
 * axes (axes[0] = rows, axes[1] = columns, order matters for 1/INF): a
 * matrix norm; NULL axes: x must be 1-D or 2-D (EH_ERR_SHAPE otherwise),
 * except with EH_NORM_FRO, which takes any set of axes (all of them when
 * NULL).  More than two axes other than with EH_NORM_FRO: EH_ERR_AXIS.  An
 * order that does not apply (NUC on a vector, a bad value) is
 * EH_ERR_INVALID_ARG.  2-norms are computed with power-of-two scaling, so
 * large and tiny values neither overflow nor underflow needlessly.
 * Matrix 2/NUC norms of a matrix holding NaN give NaN, else with an
 * infinity give inf (NumPy's SVD raises instead). */
EH_API eh_tensor *eh_norm(const eh_tensor *x, eh_norm_ord ord, const int *axes, int n_axes,
                          int keepdims);

/* 1 (as a 0-d EH_BOOL tensor) if every broadcast pair satisfies
 *   (|a - b| <= atol + rtol * |b| and b finite) or a == b
 *   or (equal_nan and both NaN),
 * NumPy's allclose (not symmetric in a and b).  Comparison in double.
 * Shapes that do not broadcast: EH_ERR_SHAPE.  NumPy's defaults are
 * rtol 1e-5, atol 1e-8, equal_nan 0. */
EH_API eh_tensor *eh_allclose(const eh_tensor *a, const eh_tensor *b, double rtol,
                              double atol, int equal_nan);
/* The same as an int: 1 close, 0 not, -1 on error (error recorded). */
EH_API int eh_allclose_int(const eh_tensor *a, const eh_tensor *b, double rtol, double atol,
                           int equal_nan);

#ifdef __cplusplus
}
#endif
#endif
