/* dtype names, sizes, the promotion table (docs/promotion.md) and the
 * value conversions every backend shares. */
#include <math.h>
#include <string.h>
#include "internal.h"

static const char *const dtype_names[EH_DTYPE_COUNT] = {
    [EH_F16] = "f16", [EH_F32] = "f32", [EH_F64] = "f64",
    [EH_I32] = "i32", [EH_I64] = "i64", [EH_BOOL] = "bool",
};

static const size_t dtype_sizes[EH_DTYPE_COUNT] = {
    [EH_F16] = 2, [EH_F32] = 4, [EH_F64] = 8,
    [EH_I32] = 4, [EH_I64] = 8, [EH_BOOL] = 1,
};

static int valid(eh_dtype d) { return (unsigned)d < EH_DTYPE_COUNT; }

const char *eh_dtype_name(eh_dtype dtype) { return valid(dtype) ? dtype_names[dtype] : NULL; }

size_t eh_dtype_size(eh_dtype dtype) { return valid(dtype) ? dtype_sizes[dtype] : 0; }

int eh_dtype_is_float(eh_dtype d) { return d == EH_F16 || d == EH_F32 || d == EH_F64; }

int eh_dtype_is_int(eh_dtype d) { return d == EH_I32 || d == EH_I64; }

eh_status eh_dtype_from_name(const char *name, eh_dtype *out)
{
    if (!name || !out)
        return eh_set_error(EH_ERR_NULL_ARG, "dtype_from_name: argument is NULL");
    for (int d = 0; d < EH_DTYPE_COUNT; d++) {
        if (strcmp(name, dtype_names[d]) == 0) {
            *out = (eh_dtype)d;
            return EH_OK;
        }
    }
    return eh_set_error(EH_ERR_DTYPE, "dtype_from_name: unknown dtype '%s'", name);
}

eh_status eh__check_dtype(const char *op, eh_dtype dtype)
{
    if (valid(dtype))
        return EH_OK;
    return eh_set_error(EH_ERR_DTYPE, "%s: %d is not a dtype", op, (int)dtype);
}

/* NumPy's promotion restricted to our six dtypes.  Rows and columns in
 * enum order: f16 f32 f64 i32 i64 bool. */
#define F16 EH_F16
#define F32 EH_F32
#define F64 EH_F64
#define I32 EH_I32
#define I64 EH_I64
#define BOO EH_BOOL
static const eh_dtype promotion[EH_DTYPE_COUNT][EH_DTYPE_COUNT] = {
    /*          f16  f32  f64  i32  i64  bool */
    /* f16 */ { F16, F32, F64, F64, F64, F16 },
    /* f32 */ { F32, F32, F64, F64, F64, F32 },
    /* f64 */ { F64, F64, F64, F64, F64, F64 },
    /* i32 */ { F64, F64, F64, I32, I64, I32 },
    /* i64 */ { F64, F64, F64, I64, I64, I64 },
    /* bool */{ F16, F32, F64, I32, I64, BOO },
};
#undef F16
#undef F32
#undef F64
#undef I32
#undef I64
#undef BOO

eh_status eh_result_type(eh_dtype a, eh_dtype b, eh_dtype *out)
{
    if (!out)
        return eh_set_error(EH_ERR_NULL_ARG, "result_type: argument 'out' is NULL");
    if (!valid(a) || !valid(b))
        return eh_set_error(EH_ERR_DTYPE, "result_type: %d and %d are not both dtypes",
                            (int)a, (int)b);
    *out = promotion[a][b];
    return EH_OK;
}

eh_dtype eh__float_dtype(eh_dtype dtype)
{
    return eh_dtype_is_float(dtype) ? dtype : EH_F64;
}

/* float -> int conversion without undefined behaviour: truncate toward
 * zero, saturate, NaN -> 0. */
static int64_t saturate_i64(double v)
{
    if (isnan(v))
        return 0;
    if (v >= 9223372036854775807.0)
        return INT64_MAX;
    if (v <= -9223372036854775808.0)
        return INT64_MIN;
    return (int64_t)v;
}

static int32_t saturate_i32(double v)
{
    if (isnan(v))
        return 0;
    if (v >= 2147483647.0)
        return INT32_MAX;
    if (v <= -2147483648.0)
        return INT32_MIN;
    return (int32_t)v;
}

void eh_store_f64(void *data, eh_dtype dtype, int64_t i, double v)
{
    switch (dtype) {
    case EH_F16: ((uint16_t *)data)[i] = eh_f32_to_f16((float)v); break;
    case EH_F32: ((float *)data)[i] = (float)v; break;
    case EH_F64: ((double *)data)[i] = v; break;
    case EH_I32: ((int32_t *)data)[i] = saturate_i32(v); break;
    case EH_I64: ((int64_t *)data)[i] = saturate_i64(v); break;
    case EH_BOOL: ((uint8_t *)data)[i] = v != 0.0; break;
    default: break;
    }
}

void eh_store_i64(void *data, eh_dtype dtype, int64_t i, int64_t v)
{
    switch (dtype) {
    case EH_I32: ((int32_t *)data)[i] = (int32_t)(uint32_t)(uint64_t)v; break; /* wraps */
    case EH_I64: ((int64_t *)data)[i] = v; break;
    case EH_BOOL: ((uint8_t *)data)[i] = v != 0; break;
    default: eh_store_f64(data, dtype, i, (double)v); break;
    }
}
