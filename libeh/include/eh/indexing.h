/* <eh/indexing.h> -- ops that move elements by index: tile, repeat, pad,
 * roll, gather, scatter, triu, tril (docs/ops/indexing.md).
 *
 * Every op returns a new tensor the caller releases (or NULL with the
 * error recorded, see <eh/error.h>).  The result has the input's dtype
 * except where a function says otherwise (scatter).  A single axis is an
 * `int`, negative counting from the end; an axis out of range is
 * EH_ERR_AXIS.  Where NumPy accepts `axis=None` (repeat, roll), the
 * flattened form is a separate function with the suffix `_flat`. */
#ifndef EH_INDEXING_H
#define EH_INDEXING_H

#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- tile ------------------------------------------------------------- */

/* NumPy tile: x repeated reps[k] times along each dimension.  The result
 * has max(ndim(x), n_reps) dimensions: x gets leading 1-dimensions when
 * n_reps is larger, reps gets leading 1s when it is shorter.  reps may be
 * NULL when n_reps is 0 (the result is a copy of x).
 * Errors: EH_ERR_NULL_ARG (x, or reps with n_reps > 0), EH_ERR_INVALID_ARG
 * (n_reps < 0), EH_ERR_NEGATIVE_SIZE (a negative count), EH_ERR_SHAPE
 * (more than EH_MAX_DIMS dimensions), EH_ERR_OVERFLOW. */
EH_API eh_tensor *eh_tile(const eh_tensor *x, const int64_t *reps, int n_reps);

/* ---- repeat ----------------------------------------------------------- */

/* NumPy repeat with one repeat count: each element of x repeated
 * `repeats` times along `axis` ([a, b] -> [a, a, b, b] for 2).
 * Per-element counts (NumPy's array `repeats`) are not supported.
 * Errors: EH_ERR_NULL_ARG, EH_ERR_AXIS (also for a 0-d x),
 * EH_ERR_NEGATIVE_SIZE (repeats < 0), EH_ERR_OVERFLOW. */
EH_API eh_tensor *eh_repeat(const eh_tensor *x, int64_t repeats, int axis);
/* NumPy repeat with axis=None: x flattened (row-major), each element
 * repeated; the result is 1-D of size(x) * repeats elements (0-d x too). */
EH_API eh_tensor *eh_repeat_flat(const eh_tensor *x, int64_t repeats);

/* ---- pad -------------------------------------------------------------- */

typedef enum eh_pad_mode {
    EH_PAD_CONSTANT = 0, /* fill with `value`                                */
    EH_PAD_EDGE,         /* repeat the edge element                          */
    EH_PAD_REFLECT,      /* mirror without the edge: [1 2 3] -> 3 2 | 1 2 3 | 2 1 */
    EH_PAD_SYMMETRIC,    /* mirror with the edge:    [1 2 3] -> 2 1 | 1 2 3 | 3 2 */
    EH_PAD_WRAP          /* periodic:                [1 2 3] -> 2 3 | 1 2 3 | 1 2 */
} eh_pad_mode;

/* NumPy pad.  pad_width holds 2 * ndim(x) counts: (before, after) for
 * axis 0, then axis 1, ...; it may be NULL for a 0-d x (the result is a
 * copy).  `value` is used by EH_PAD_CONSTANT only and is converted to x's
 * dtype like eh_cast (float -> int truncates toward zero, -> bool is
 * value != 0).  REFLECT, SYMMETRIC and WRAP may pad wider than the axis:
 * the pattern repeats periodically, as in NumPy >= 2.1 (NumPy <= 2.0
 * differs for REFLECT/SYMMETRIC, and 1.24 and older for WRAP, when both
 * sides are padded and one is wider than the axis: docs/ops/indexing.md);
 * REFLECT of a length-1 axis repeats the element (NumPy's legacy
 * behaviour).  Padding an axis of length 0
 * by a non-zero width is only possible with EH_PAD_CONSTANT.
 * Errors: EH_ERR_NULL_ARG (x, or pad_width with ndim(x) > 0),
 * EH_ERR_NEGATIVE_SIZE (a negative width), EH_ERR_INVALID_ARG (unknown
 * mode), EH_ERR_SHAPE (non-constant padding of an empty axis),
 * EH_ERR_OVERFLOW. */
EH_API eh_tensor *eh_pad(const eh_tensor *x, const int64_t *pad_width, eh_pad_mode mode,
                         double value);

/* ---- roll ------------------------------------------------------------- */

/* NumPy roll along one axis: out[(i + shift) mod n] = x[i].  Any shift,
 * negative or larger than the axis, is taken modulo its length n.
 * Errors: EH_ERR_NULL_ARG, EH_ERR_AXIS (also for a 0-d x). */
EH_API eh_tensor *eh_roll(const eh_tensor *x, int64_t shift, int axis);
/* NumPy roll with axis=None: rolls the row-major flattening of x; the
 * result keeps x's shape (0-d x gives a copy). */
EH_API eh_tensor *eh_roll_flat(const eh_tensor *x, int64_t shift);

/* ---- gather ----------------------------------------------------------- */

/* NumPy take along one axis: out has shape
 *   x.shape[:axis] + indices.shape + x.shape[axis+1:]
 * and out[..., j..., ...] = x[..., indices[j...], ...].  indices must be
 * EH_I32 or EH_I64 (EH_ERR_DTYPE otherwise, bool included); a negative
 * index counts from the end.  Every index is checked, even when the
 * result is empty (NumPy skips the check then): one outside [-n, n) is
 * EH_ERR_INDEX, found by the kernel.
 * Errors: EH_ERR_NULL_ARG, EH_ERR_DTYPE, EH_ERR_AXIS (also for a 0-d x),
 * EH_ERR_SHAPE (result above EH_MAX_DIMS dimensions), EH_ERR_INDEX. */
EH_API eh_tensor *eh_gather(const eh_tensor *x, const eh_tensor *indices, int axis);

/* ---- scatter ---------------------------------------------------------- */

typedef enum eh_scatter_aggr {
    EH_SCATTER_ADD = 0, /* sum of the rows sent to a target row            */
    EH_SCATTER_MEAN,    /* their mean (a float result, see below)          */
    EH_SCATTER_MAX,     /* elementwise maximum (NaN propagates)            */
    EH_SCATTER_MIN,     /* elementwise minimum (NaN propagates)            */
    EH_SCATTER_REPLACE  /* the row sent last, in index order, wins         */
} eh_scatter_aggr;

/* dim_size for eh_scatter: max(indices) + 1 (0 when indices is empty). */
#define EH_SCATTER_AUTO (-1)

/* Scatter along axis 0, in the style of torch_scatter: values has shape
 * (N, ...) (at least 1-D), indices shape (N,) of EH_I32 or EH_I64; row i
 * of values goes to row indices[i] of a result of shape (dim_size, ...),
 * and rows sent to the same target are combined by `aggr`.  Target rows
 * that receive nothing are 0 (false) for every aggregation.
 *
 * dim_size EH_SCATTER_AUTO takes max(indices) + 1; this reads the index
 * data while building the call (a lazy backend evaluates indices then).
 * An index outside [0, dim_size) -- negative ones included, they do not
 * count from the end -- is EH_ERR_INDEX.
 *
 * Result dtype: ADD keeps values' dtype, bool -> EH_I64 (a count); MEAN
 * is floating: f16/f32/f64 stay, i32/i64/bool give EH_F64 (NumPy's mean;
 * torch_scatter would divide integers); MAX, MIN and REPLACE keep the
 * dtype (bool MAX is "any", MIN is "all").  Integer ADD wraps.
 * Errors: EH_ERR_NULL_ARG, EH_ERR_DTYPE (indices not integer),
 * EH_ERR_SHAPE (values 0-d, indices not (N,)), EH_ERR_INVALID_ARG
 * (unknown aggr), EH_ERR_NEGATIVE_SIZE (dim_size below -1),
 * EH_ERR_INDEX, EH_ERR_OVERFLOW. */
EH_API eh_tensor *eh_scatter(const eh_tensor *values, const eh_tensor *indices,
                             int64_t dim_size, eh_scatter_aggr aggr);

/* ---- triu / tril ------------------------------------------------------ */

/* Upper / lower triangle of the last two dimensions (batched over the
 * leading ones): triu keeps x[..., i, j] where j - i >= k, tril where
 * j - i <= k; the rest is 0 (false).  k = 0 is the main diagonal, k > 0
 * above it, k < 0 below.  x needs at least 2 dimensions: EH_ERR_SHAPE
 * otherwise (NumPy would treat a 1-D x as a row broadcast to a square).
 * Errors: EH_ERR_NULL_ARG, EH_ERR_SHAPE. */
EH_API eh_tensor *eh_triu(const eh_tensor *x, int64_t k);
EH_API eh_tensor *eh_tril(const eh_tensor *x, int64_t k);

#ifdef __cplusplus
}
#endif
#endif
