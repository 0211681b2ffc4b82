/* <eh/dtype.h> -- dtype names, sizes and the promotion table
 * (docs/promotion.md). */
#ifndef EH_DTYPE_H
#define EH_DTYPE_H

#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* "f16", "f32", "f64", "i32", "i64", "bool"; NULL for a bad value. */
EH_API const char *eh_dtype_name(eh_dtype dtype);
/* Parse a name as printed by eh_dtype_name.  EH_ERR_DTYPE if unknown. */
EH_API eh_status eh_dtype_from_name(const char *name, eh_dtype *out);
/* Bytes per element (0 for a bad value). */
EH_API size_t eh_dtype_size(eh_dtype dtype);
EH_API int eh_dtype_is_float(eh_dtype dtype);
EH_API int eh_dtype_is_int(eh_dtype dtype);

/* The dtype two operands promote to (NumPy's table for these six dtypes).
 * EH_ERR_DTYPE on a bad value.  This is the op `result_type`. */
EH_API eh_status eh_result_type(eh_dtype a, eh_dtype b, eh_dtype *out);

/* A copy of x converted to dtype (float -> int truncates toward zero and
 * saturates, NaN -> 0; -> bool is x != 0). */
EH_API eh_tensor *eh_cast(const eh_tensor *x, eh_dtype dtype);

#ifdef __cplusplus
}
#endif
#endif
