/* dtype names, sizes, the promotion table (docs/promotion.md) and the
 * value conversions every backend shares. */
#include <float.h>
#include <math.h>
#include <string.h>
#include "internal.h"

static const char *const dtype_names[EH_DTYPE_COUNT] = {
    [EH_F16] = "f16", [EH_F32] = "f32", [EH_F64] = "f64",
    [EH_I32] = "i32", [EH_I64] = "i64", [EH_BOOL] = "bool",
};

static int valid(eh_dtype d) { return (unsigned)d < EH_DTYPE_COUNT; }

const char *eh_dtype_name(eh_dtype dtype) { return valid(dtype) ? dtype_names[dtype] : NULL; }

size_t eh_dtype_size(eh_dtype dtype) { return valid(dtype) ? eh__dtype_bytes(dtype) : 0; }

int eh_dtype_is_float(eh_dtype d) { return d == EH_F16 || d == EH_F32 || d == EH_F64; }

int eh_dtype_is_int(eh_dtype d) { return d == EH_I32 || d == EH_I64; }

eh_status eh_dtype_from_name(const char *name, eh_dtype *out)
{
    if (!name || !out)
        return eh_set_error(EH_ERR_NULL_ARG, "dtype_from_name: argument '%s' is NULL",
                            name ? "out" : "name");
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
        return eh_set_error(EH_ERR_DTYPE, "result_type: %d is not a dtype",
                            valid(a) ? (int)b : (int)a);
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
    if (v >= 9223372036854775807.0) /* the literal is 2^63 */
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

/* double -> float, rounding to nearest even.  C leaves a finite value
 * beyond the float range undefined, so that case is decided here: values
 * from FLT_MAX + half an ulp (2^128 - 2^103) up round to infinity (a tie
 * goes to the even neighbour, 2^128), smaller ones to FLT_MAX. */
static float f64_to_f32(double v)
{
    if (isnan(v) || fabs(v) <= (double)FLT_MAX)
        return (float)v;
    if (fabs(v) >= 0x1.ffffffp127)
        return v > 0 ? INFINITY : -INFINITY;
    return v > 0 ? FLT_MAX : -FLT_MAX;
}

/* double -> IEEE binary16 bits, rounding once to nearest even.  Going
 * through float would round twice: 1 + 2^-11 + 2^-40 would become the tie
 * 1 + 2^-11 in float and then 1.0, instead of 1 + 2^-10. */
static uint16_t f64_to_f16(double v)
{
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    uint16_t sign = (uint16_t)((u >> 48) & 0x8000u);
    int exp = (int)((u >> 52) & 0x7ffu);
    uint64_t man = u & 0xfffffffffffffull;
    if (exp == 0x7ff) /* inf stays inf, NaN stays a quiet NaN */
        return (uint16_t)(sign | 0x7c00u | (man ? 0x200u | (uint16_t)(man >> 42) : 0u));
    int e = exp - 1023 + 15; /* biased half exponent */
    if (e >= 0x1f)
        return (uint16_t)(sign | 0x7c00u);
    uint64_t out, rest, half;
    if (e <= 0) {
        if (e < -10) /* below 2^-25: rounds to zero */
            return sign;
        /* subnormal half: out * 2^-24 */
        uint64_t m = man | (1ull << 52);
        int shift = 43 - e; /* 43 .. 53 */
        out = m >> shift;
        rest = m & ((1ull << shift) - 1);
        half = 1ull << (shift - 1);
    } else {
        out = ((uint64_t)e << 10) | (man >> 42);
        rest = man & ((1ull << 42) - 1);
        half = 1ull << 41;
    }
    if (rest > half || (rest == half && (out & 1u)))
        out++; /* may carry into the exponent (up to inf): the right answer */
    return (uint16_t)(sign | out);
}

void eh_store_f64(void *data, eh_dtype dtype, int64_t i, double v)
{
    switch (dtype) {
    case EH_F16: ((uint16_t *)data)[i] = f64_to_f16(v); break;
    case EH_F32: ((float *)data)[i] = f64_to_f32(v); break;
    case EH_F64: ((double *)data)[i] = v; break;
    case EH_I32: ((int32_t *)data)[i] = saturate_i32(v); break;
    case EH_I64: ((int64_t *)data)[i] = saturate_i64(v); break;
    case EH_BOOL: ((uint8_t *)data)[i] = v != 0.0; break;
    default: break;
    }
}

/* The low 32 bits of v as an int32 (two's complement wrap, as NumPy's
 * int64 -> int32 cast), without implementation-defined conversions. */
static int32_t wrap_i32(int64_t v)
{
    uint32_t u = (uint32_t)(uint64_t)v;
    return u <= (uint32_t)INT32_MAX ? (int32_t)u : -(int32_t)(UINT32_MAX - u) - 1;
}

/* Integers are converted directly, so each conversion rounds once:
 * int64 -> float via double would round twice (2^62 + 2^38 + 1 would give
 * 2^62, not 2^62 + 2^39).  int64 -> f16 goes through float, which is exact
 * for every integer that is finite in f16. */
void eh_store_i64(void *data, eh_dtype dtype, int64_t i, int64_t v)
{
    switch (dtype) {
    case EH_F16: ((uint16_t *)data)[i] = eh_f32_to_f16((float)v); break;
    case EH_F32: ((float *)data)[i] = (float)v; break;
    case EH_F64: ((double *)data)[i] = (double)v; break;
    case EH_I32: ((int32_t *)data)[i] = wrap_i32(v); break;
    case EH_I64: ((int64_t *)data)[i] = v; break;
    case EH_BOOL: ((uint8_t *)data)[i] = v != 0; break;
    default: break;
    }
}
