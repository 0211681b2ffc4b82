/* <eh/shape.h> -- shape ops: reshape, transpose, expand_dims, squeeze,
 * concatenate, stack, split, broadcast_to, slice, flip (docs/ops/shape.md).
 *
 * Shape ops move elements and do no arithmetic.  Every result is a new,
 * dense tensor holding a copy (libeh has no views): writing to a result
 * never changes the input.  The dtype is kept, except that concatenate and
 * stack promote their inputs to one dtype (eh_result_type, NumPy's table).
 *
 * Axes: a single axis is `int axis`, negative counts from the end; a set of
 * axes is (const int *axes, int n_axes) with NULL or 0 meaning "all".
 * Errors (eh_last_error()): a NULL tensor or pointer argument is
 * EH_ERR_NULL_ARG; an axis out of range or repeated is EH_ERR_AXIS;
 * incompatible shapes are EH_ERR_SHAPE; each function lists the rest. */
#ifndef EH_SHAPE_H
#define EH_SHAPE_H

#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Same elements in row-major order, new shape (ndim, shape).  One entry may
 * be -1: it is inferred from the size of x.
 * Errors: ndim outside [0, EH_MAX_DIMS] or a size mismatch (also a -1 next
 * to a 0 dimension, which leaves it undetermined) EH_ERR_SHAPE; more than
 * one -1 EH_ERR_INVALID_ARG; any other negative entry EH_ERR_NEGATIVE_SIZE
 * (NumPy treats every negative entry as "unknown"; libeh only -1); the
 * known entries' product overflowing int64 EH_ERR_OVERFLOW. */
EH_API eh_tensor *eh_reshape(const eh_tensor *x, int ndim, const int64_t *shape);

/* Permute the axes: result.shape[d] = x.shape[perm[d]].  perm NULL (or
 * n_perm 0) reverses the axes (the matrix transpose for 2-d).  Entries may
 * be negative.  Errors: n_perm != ndim, an entry out of range or repeated
 * EH_ERR_AXIS. */
EH_API eh_tensor *eh_transpose(const eh_tensor *x, const int *perm, int n_perm);

/* Insert a dimension of size 1 at position `axis` of the result; axis is in
 * [-ndim-1, ndim] (-1 appends).  Errors: axis out of range EH_ERR_AXIS; x
 * already has EH_MAX_DIMS dimensions EH_ERR_SHAPE. */
EH_API eh_tensor *eh_expand_dims(const eh_tensor *x, int axis);

/* Remove the listed size-1 axes; axes NULL (or n_axes 0) removes every
 * size-1 axis.  Errors: an axis out of range or repeated EH_ERR_AXIS; a
 * listed axis whose size is not 1 EH_ERR_SHAPE. */
EH_API eh_tensor *eh_squeeze(const eh_tensor *x, const int *axes, int n_axes);

/* Join n tensors end to end along an existing axis.  All inputs have the
 * same ndim (>= 1) and agree on every other dimension; the dtype is the
 * promotion of all inputs' dtypes.  Errors: n <= 0 EH_ERR_INVALID_ARG;
 * xs or any xs[k] NULL EH_ERR_NULL_ARG; a 0-d input, differing ndim or a
 * differing dimension EH_ERR_SHAPE; axis out of range EH_ERR_AXIS; the
 * joined dimension overflowing int64 EH_ERR_OVERFLOW. */
EH_API eh_tensor *eh_concatenate(const eh_tensor *const *xs, int n, int axis);

/* Join n tensors of identical shape along a new axis: result.ndim is
 * ndim + 1, axis is in [-ndim-1, ndim], result.shape[axis] is n.  Dtypes
 * promote as in eh_concatenate.  Errors: n <= 0 EH_ERR_INVALID_ARG; NULL
 * EH_ERR_NULL_ARG; differing shapes, or inputs already EH_MAX_DIMS-d,
 * EH_ERR_SHAPE; axis out of range EH_ERR_AXIS. */
EH_API eh_tensor *eh_stack(const eh_tensor *const *xs, int n, int axis);

/* Split x along `axis` into `sections` equal parts, written to
 * outs[0 .. sections-1] (NumPy split with an integer).  On failure every
 * one of those outs is NULL (when sections > 0).  Errors: outs NULL
 * EH_ERR_NULL_ARG; sections <= 0 EH_ERR_INVALID_ARG; x 0-d or axis out of
 * range EH_ERR_AXIS; the axis length not divisible by sections
 * EH_ERR_SHAPE; out of memory EH_ERR_NOMEM. */
EH_API eh_status eh_split(const eh_tensor *x, int sections, int axis, eh_tensor **outs);

/* As eh_split, but the axis length need not divide evenly (NumPy
 * array_split): with L = length, the first L % sections parts get
 * L / sections + 1 elements, the others L / sections.  Errors as eh_split
 * without the EH_ERR_SHAPE case. */
EH_API eh_status eh_array_split(const eh_tensor *x, int sections, int axis, eh_tensor **outs);

/* Split x along `axis` at the given indices into n_indices + 1 parts,
 * written to outs[0 .. n_indices] (NumPy split / array_split with a list):
 * part k is x[b_k : b_{k+1}] along axis with b_0 = 0, b_{k+1} =
 * indices[k], b_{n_indices+1} = length, each bound taken with Python slice
 * rules (negative counts from the end, clamped to [0, length]); a part
 * whose stop is not after its start is empty, and parts may overlap when
 * indices decrease.  On failure every one of those outs is NULL (when
 * n_indices >= 0).  Errors: outs NULL, or indices NULL with
 * n_indices > 0, EH_ERR_NULL_ARG; n_indices < 0 or INT_MAX
 * EH_ERR_INVALID_ARG; x 0-d or axis out of range EH_ERR_AXIS; out of
 * memory EH_ERR_NOMEM. */
EH_API eh_status eh_split_at(const eh_tensor *x, const int64_t *indices, int n_indices,
                             int axis, eh_tensor **outs);

/* x broadcast (NumPy rules) to exactly (ndim, shape), as a dense copy.
 * Errors: a shape x cannot be broadcast to (fewer dimensions than x, or a
 * dimension of x that is neither 1 nor equal) or ndim outside
 * [0, EH_MAX_DIMS] EH_ERR_SHAPE; shape NULL with ndim > 0
 * EH_ERR_NULL_ARG; a negative entry EH_ERR_NEGATIVE_SIZE; too many
 * elements EH_ERR_OVERFLOW. */
EH_API eh_tensor *eh_broadcast_to(const eh_tensor *x, int ndim, const int64_t *shape);

/* Bounds for eh_slice meaning "before the first element" and "past the last
 * element": with Python's clamping they act as an omitted bound.
 *   x[:]     start EH_SLICE_START, stop EH_SLICE_END, step 1
 *   x[::-1]  start EH_SLICE_END,   stop EH_SLICE_START, step -1
 *   x[2:]    start 2, stop EH_SLICE_END
 *   x[:-1]   start EH_SLICE_START (or 0), stop -1 */
#define EH_SLICE_START INT64_MIN
#define EH_SLICE_END INT64_MAX

/* x[start[0]:stop[0]:step[0], ..., start[n-1]:stop[n-1]:step[n-1]] with
 * Python slice semantics on each of the first n axes (0 <= n <= ndim;
 * later axes are kept whole): negative start/stop count from the end, out
 * of range bounds clamp, negative steps walk backwards.  start, stop or
 * step may be NULL: an omitted start or stop on every axis (Python's None,
 * whose meaning depends on the sign of the step), steps of 1.  A step below
 * -INT64_MAX is taken as -INT64_MAX, as Python does.  Errors: n < 0 or a
 * step of 0 EH_ERR_INVALID_ARG; n > ndim EH_ERR_AXIS. */
EH_API eh_tensor *eh_slice(const eh_tensor *x, const int64_t *start, const int64_t *stop,
                           const int64_t *step, int n);

/* Reverse the order of elements along the listed axes; axes NULL (or
 * n_axes 0) flips every axis.  Errors: an axis out of range or repeated
 * EH_ERR_AXIS. */
EH_API eh_tensor *eh_flip(const eh_tensor *x, const int *axes, int n_axes);

#ifdef __cplusplus
}
#endif
#endif
