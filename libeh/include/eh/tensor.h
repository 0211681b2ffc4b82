/* <eh/tensor.h> -- making tensors from host memory, queries, host access.
 *
 * Host access (eh_to_buffer, eh_data*, eh_item) forces evaluation of a
 * deferred (lazy) tensor.  Pointers from the storage accessors stay valid
 * while the tensor lives, until a writable accessor is called on it again
 * (which may move a shared tensor to a private copy); writing through a
 * writable one changes the tensor and nothing else. */
#ifndef EH_TENSOR_H
#define EH_TENSOR_H

#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A new tensor holding a copy of `data` (ndim dims of `shape`, row-major,
 * elements of `dtype`; EH_F16 data is uint16_t bit patterns).  data may be
 * NULL only when the size is 0.  ndim 0 makes a scalar. */
EH_API eh_tensor *eh_convert_to_tensor(const void *data, int ndim,
                                       const int64_t *shape, eh_dtype dtype);
/* A 0-d tensor holding `value` converted to dtype. */
EH_API eh_tensor *eh_scalar(double value, eh_dtype dtype);

EH_API int eh_ndim(const eh_tensor *t);                  /* -1 for NULL */
EH_API const int64_t *eh_shape(const eh_tensor *t);      /* NULL for NULL */
EH_API int64_t eh_dim(const eh_tensor *t, int axis);     /* negative axis ok; -1 on error */
EH_API eh_dtype eh_get_dtype(const eh_tensor *t);        /* EH_DTYPE_COUNT for NULL */
EH_API int64_t eh_size(const eh_tensor *t);              /* elements; -1 for NULL */
EH_API size_t eh_nbytes(const eh_tensor *t);             /* 0 for NULL */

/* Evaluate a deferred tensor now (a no-op for materialized ones). */
EH_API eh_status eh_eval(const eh_tensor *t);

/* Copy the elements out; nbytes must be at least eh_nbytes(t). */
EH_API eh_status eh_to_buffer(const eh_tensor *t, void *buf, size_t nbytes);

/* Storage accessors: a pointer to the elements (row-major), or NULL with
 * the error recorded.  The typed forms fail with EH_ERR_DTYPE when the
 * tensor has another dtype.
 *
 *   void *eh_data(eh_tensor *t);               writable
 *   float *eh_data_f32(eh_tensor *t);  ...
 *   const void *eh_data_const(const eh_tensor *t);           read-only
 *   const float *eh_data_const_f32(const eh_tensor *t);  ...
 *
 * Shape ops may return views that share storage with their input
 * (reshape, expand_dims, squeeze, leading-axis slices; docs/memory.md).
 * Writing to a tensor never changes another one: the writable accessors
 * give t a private copy of shared storage first (copy-on-write), and once
 * a writable pointer is out, later views of t copy.  The read-only
 * accessors never copy: prefer them for reading.  Write only through
 * pointers from the writable ones.
 *
 * One list, EH_STORAGE_ACCESSORS(X): X(element type, writable accessor,
 * read-only accessor, dtype suffix).  The declarations below come from it,
 * and so does emberlint's list of storage accessors (rules/, generated at
 * build time). */
#define EH_STORAGE_ACCESSORS(X)                                  \
    X(void, eh_data, eh_data_const, )                            \
    X(float, eh_data_f32, eh_data_const_f32, F32)                \
    X(double, eh_data_f64, eh_data_const_f64, F64)               \
    X(int32_t, eh_data_i32, eh_data_const_i32, I32)              \
    X(int64_t, eh_data_i64, eh_data_const_i64, I64)              \
    X(uint16_t, eh_data_f16, eh_data_const_f16, F16)             \
    X(uint8_t, eh_data_bool, eh_data_const_bool, BOOL)
#define EH_DECLARE_STORAGE_ACCESSOR_(T, writable, readonly, dt) \
    EH_API T *writable(eh_tensor *t);                            \
    EH_API const T *readonly(const eh_tensor *t);
EH_STORAGE_ACCESSORS(EH_DECLARE_STORAGE_ACCESSOR_)
#undef EH_DECLARE_STORAGE_ACCESSOR_
/* The single element of a size-1 tensor as a double (NaN and
 * EH_ERR_SHAPE otherwise). */
EH_API double eh_item(const eh_tensor *t);

/* IEEE half <-> float conversion (round to nearest even). */
EH_API float eh_f16_to_f32(uint16_t h);
EH_API uint16_t eh_f32_to_f16(float f);

#ifdef __cplusplus
}
#endif
#endif
