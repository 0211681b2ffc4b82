/* <eh/creation.h> -- making tensors from parameters (docs/ops/creation.md).
 *
 * Every function returns a new tensor the caller releases, or NULL with
 * the error recorded (eh_last_error).  Shapes are (ndim, shape); ndim 0
 * makes a 0-d tensor and shape may then be NULL.  Bad shapes are
 * EH_ERR_NEGATIVE_SIZE (a dimension below 0), EH_ERR_SHAPE (ndim outside
 * 0..EH_MAX_DIMS), EH_ERR_NULL_ARG (shape NULL with ndim > 0) and
 * EH_ERR_OVERFLOW (more elements or bytes than int64_t / size_t hold); a
 * bad dtype value is EH_ERR_DTYPE; running out of memory is EH_ERR_NOMEM.
 *
 * A `double value` is converted to the dtype as eh_cast converts: to an
 * integer dtype it truncates toward zero and saturates, NaN gives 0; to
 * bool it is value != 0 (NaN is true); to f16 it rounds to nearest even,
 * overflowing to +-inf.  Every dtype is accepted unless a function says
 * otherwise. */
#ifndef EH_CREATION_H
#define EH_CREATION_H

#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A tensor of shape (ndim, shape) filled with 0, 1 or `value`. */
EH_API eh_tensor *eh_zeros(int ndim, const int64_t *shape, eh_dtype dtype);
EH_API eh_tensor *eh_ones(int ndim, const int64_t *shape, eh_dtype dtype);
EH_API eh_tensor *eh_full(int ndim, const int64_t *shape, double value, eh_dtype dtype);

/* The same, with x's shape and dtype (x's values are not read).
 * EH_ERR_NULL_ARG for a NULL x (an earlier recorded error is kept). */
EH_API eh_tensor *eh_zeros_like(const eh_tensor *x);
EH_API eh_tensor *eh_ones_like(const eh_tensor *x);
EH_API eh_tensor *eh_full_like(const eh_tensor *x, double value);

/* Evenly spaced values in [start, stop), as NumPy's arange: a 1-d tensor
 * of length max(0, ceil((stop - start) / step)) (computed in double).
 *
 * Float dtypes: element 0 is start, element 1 is start + step, element
 * i >= 2 is start + i * delta with delta = (start + step) - start, all
 * computed in double and rounded once to the dtype (NumPy's algorithm; for
 * f16/f32 NumPy computes in a narrower type, so the last bit may differ).
 * Integer dtypes (i32, i64): start and step must be integral; values are
 * exact int64 arithmetic start + i * step, and every value must fit the
 * dtype.  (NumPy instead casts start and start + step first, which gives
 * surprising sequences for fractional arguments; this is rejected here.)
 *
 * Errors: step 0, or start, stop or step NaN or infinite:
 * EH_ERR_INVALID_ARG.  Integer dtype with fractional start or step:
 * EH_ERR_INVALID_ARG.  bool dtype: EH_ERR_DTYPE.  A length or a value
 * that does not fit (int64 length, byte size, integer dtype range):
 * EH_ERR_OVERFLOW. */
EH_API eh_tensor *eh_arange(double start, double stop, double step, eh_dtype dtype);

/* num evenly spaced values from start to stop, as NumPy's linspace:
 * div = endpoint ? num - 1 : num, step = (stop - start) / div, element k
 * is k * step + start computed in double (k / div * (stop - start) + start
 * when step underflows to 0), and the last element is exactly stop when
 * endpoint is nonzero and num > 1.  Integer dtypes take the floor before
 * converting (NumPy >= 1.20); bool is value != 0.  NaN and infinite
 * bounds propagate as in NumPy.  num < 0: EH_ERR_NEGATIVE_SIZE. */
EH_API eh_tensor *eh_linspace(double start, double stop, int64_t num, int endpoint,
                              eh_dtype dtype);

/* An n x m tensor with ones on diagonal k (0 the main diagonal, k > 0
 * above it, k < 0 below it) and zeros elsewhere, as NumPy's eye(n, m, k).
 * m is always given (pass n for a square matrix).  Any k is accepted; a
 * diagonal outside the matrix gives all zeros.  n or m < 0:
 * EH_ERR_NEGATIVE_SIZE. */
EH_API eh_tensor *eh_eye(int64_t n, int64_t m, int64_t k, eh_dtype dtype);

/* A copy of x (same shape and dtype, its own storage). */
EH_API eh_tensor *eh_copy(const eh_tensor *x);

/* Indices of the upper (triu: column - row >= k) or lower (tril:
 * column - row <= k) triangle of an n x m matrix, as NumPy's
 * triu_indices(n, k, m) / tril_indices(n, k, m) stacked into one EH_I64
 * tensor of shape (2, count): row 0 holds the row indices, row 1 the
 * column indices, in row-major order.  m is always given (pass n for a
 * square matrix); any k is accepted.  n or m < 0: EH_ERR_NEGATIVE_SIZE;
 * a count whose storage does not fit: EH_ERR_OVERFLOW. */
EH_API eh_tensor *eh_triu_indices(int64_t n, int64_t k, int64_t m);
EH_API eh_tensor *eh_tril_indices(int64_t n, int64_t k, int64_t m);

#ifdef __cplusplus
}
#endif
#endif
