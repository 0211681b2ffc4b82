/* Frontend of the creation ops (CREATION in ops.def, except the windows,
 * which belong to the signal group), and eh_scalar / eh_convert_to_tensor,
 * which copy host values in and need no kernel.  docs/ops/creation.md has the
 * user-facing semantics; this comment is the contract every backend
 * implements.
 *
 * The frontend validates every argument, computes the output shape and
 * dtype, and dispatches; the output is always allocated, of any dtype
 * (f16, f32, f64, i32, i64, bool), possibly empty or 0-d.  Values given as
 * double are stored with eh_store_f64 (float -> int truncates and
 * saturates, NaN -> 0; -> bool is != 0; f64 -> f16 rounds once, to
 * nearest even).
 *
 *   op            in   eh_op_call.p                    kernel writes
 *   zeros         0    -                               0 everywhere
 *   ones          0    -                               1 everywhere
 *   full          0    f[0] value                      value everywhere
 *   zeros_like    1    -                               0 (in[0] is not read)
 *   ones_like     1    -                               1 (in[0] is not read)
 *   full_like     1    f[0] value                      value (in[0] not read)
 *   copy          1    -                               in[0]'s bytes (same
 *                                                      dtype and shape)
 *   arange        0    float dtypes: f[0] start,       out has shape (len,):
 *                      f[1] step                         [0] = start,
 *                                                        [1] = start + step,
 *                                                        [i] = start + i * delta,
 *                                                        delta = (start + step) - start,
 *                                                        all in double, stored once
 *                      i32/i64: i[0] start,            [i] = start + i * step in
 *                      i[1] step (two's complement       uint64 arithmetic (mod 2^64);
 *                      of the step mod 2^64)             the frontend has checked
 *                                                        that every value fits
 *                      (bool never reaches a kernel)
 *   linspace      0    f[0] start, f[1] stop,          num = out size; div =
 *                      i[0] endpoint (0 or 1)            endpoint ? num - 1 : num;
 *                                                        y_k = k * step + start with
 *                                                        step = (stop - start) / div,
 *                                                        or (k / div) * (stop - start)
 *                                                        + start when step == 0, or
 *                                                        k * (stop - start) + start when
 *                                                        div <= 0 (two roundings, no
 *                                                        fused multiply-add); last =
 *                                                        stop if endpoint && num > 1;
 *                                                        floor(y) for i32/i64
 *   eye           0    i[0] k, already clamped to      n, m = out shape; 1 where
 *                      [-n, m]                           j - i == k, else 0
 *   triu_indices  0    i[0] n, i[1] k clamped to       out (2, count) i64: row
 *   tril_indices       [-n, m], i[2] m                   indices then column indices
 *                                                        of the (i, j) in [0,n)x[0,m)
 *                                                        with j - i >= k (triu) or
 *                                                        j - i <= k (tril), row-major;
 *                                                        count is the output's dim 1
 *
 * Clamping k to [-n, m] changes no result (a diagonal outside the matrix
 * selects the same elements as the nearest one outside it) and lets a
 * kernel form i + k and m - k without overflow. */
#include <math.h>
#include <string.h>
#include "internal.h"

/* ---- filled tensors --------------------------------------------------- */

static eh_tensor *filled(eh_op op, int ndim, const int64_t *shape, double value,
                         eh_dtype dtype)
{
    eh_op_call call = eh__call(op, 0, NULL);
    call.p.f[0] = value;
    return eh__run(&call, ndim, shape, dtype);
}

eh_tensor *eh_zeros(int ndim, const int64_t *shape, eh_dtype dtype)
{
    return filled(EH_OP_zeros, ndim, shape, 0.0, dtype);
}

eh_tensor *eh_ones(int ndim, const int64_t *shape, eh_dtype dtype)
{
    return filled(EH_OP_ones, ndim, shape, 1.0, dtype);
}

eh_tensor *eh_full(int ndim, const int64_t *shape, double value, eh_dtype dtype)
{
    return filled(EH_OP_full, ndim, shape, value, dtype);
}

/* One input, output of the input's shape and dtype. */
static eh_tensor *like(eh_op op, const eh_tensor *x, double value)
{
    if (!eh__require(eh_op_name(op), x, "x"))
        return NULL;
    const eh_tensor *in[1] = {x};
    eh_op_call call = eh__call(op, 1, in);
    call.p.f[0] = value;
    return eh__run(&call, x->ndim, x->shape, x->dtype);
}

eh_tensor *eh_zeros_like(const eh_tensor *x) { return like(EH_OP_zeros_like, x, 0.0); }
eh_tensor *eh_ones_like(const eh_tensor *x) { return like(EH_OP_ones_like, x, 1.0); }
eh_tensor *eh_full_like(const eh_tensor *x, double value)
{
    return like(EH_OP_full_like, x, value);
}

eh_tensor *eh_copy(const eh_tensor *x)
{
    if (!eh__require("copy", x, "x"))
        return NULL;
    const eh_tensor *in[1] = {x};
    eh_op_call call = eh__call(EH_OP_copy, 1, in);
    return eh__run(&call, x->ndim, x->shape, x->dtype);
}

/* ---- arange ---------------------------------------------------------- */

#define TWO63 9223372036854775808.0  /* 2^63, exact in double */
#define TWO64 18446744073709551616.0 /* 2^64 */

/* The int64 with the same two's-complement bits as u, without relying on
 * implementation-defined conversions. */
static int64_t u64_bits_to_i64(uint64_t u)
{
    if (u <= (uint64_t)INT64_MAX)
        return (int64_t)u;
    return -(int64_t)(UINT64_MAX - u) - 1;
}

/* Integer arange: start, step integral; len >= 1.  Checks that every value
 * start + i*step (i < len) lies in the dtype's range and fills p.i. */
static eh_status arange_int_params(double start, double step, int64_t len, eh_dtype dtype,
                                   eh_params *p)
{
    const char *dn = eh_dtype_name(dtype);
    int64_t lo = dtype == EH_I32 ? INT32_MIN : INT64_MIN;
    int64_t hi = dtype == EH_I32 ? INT32_MAX : INT64_MAX;
    if (!(start >= (double)lo && start < (dtype == EH_I32 ? (double)hi + 1.0 : TWO63)))
        return eh_set_error(EH_ERR_OVERFLOW, "arange: start %.17g does not fit %s", start, dn);
    int64_t s = (int64_t)start;
    uint64_t ustep = 0; /* |step| */
    if (len > 1) {
        if (!(fabs(step) < TWO64))
            return eh_set_error(EH_ERR_OVERFLOW, "arange: start %.17g + step %.17g does not fit %s",
                                start, step, dn);
        ustep = (uint64_t)fabs(step);
        /* room between start and the bound the sequence runs toward */
        uint64_t room = step > 0 ? (uint64_t)hi - (uint64_t)s : (uint64_t)s - (uint64_t)lo;
        if ((uint64_t)(len - 1) > room / ustep)
            return eh_set_error(EH_ERR_OVERFLOW,
                                "arange: %lld values from %.17g by %.17g do not fit %s",
                                (long long)len, start, step, dn);
    }
    p->i[0] = s;
    p->i[1] = u64_bits_to_i64(step < 0 ? 0u - ustep : ustep);
    return EH_OK;
}

eh_tensor *eh_arange(double start, double stop, double step, eh_dtype dtype)
{
    static const char op[] = "arange";
    if (eh__check_dtype(op, dtype) != EH_OK)
        return NULL;
    if (dtype == EH_BOOL) {
        eh_set_error(EH_ERR_DTYPE, "arange: not defined for bool");
        return NULL;
    }
    if (!isfinite(start) || !isfinite(stop) || !isfinite(step)) {
        eh_set_error(EH_ERR_INVALID_ARG, "arange: start %g, stop %g and step %g must be finite",
                     start, stop, step);
        return NULL;
    }
    if (step == 0.0) {
        eh_set_error(EH_ERR_INVALID_ARG, "arange: step is 0");
        return NULL;
    }
    int integer = eh_dtype_is_int(dtype);
    if (integer && (start != trunc(start) || step != trunc(step))) {
        eh_set_error(EH_ERR_INVALID_ARG,
                     "arange: start %.17g and step %.17g must be integers for dtype %s", start,
                     step, eh_dtype_name(dtype));
        return NULL;
    }
    /* NumPy: len = ceil((stop - start) / step), at least 0.  stop - start
     * may overflow to +-inf; the quotient is then +-inf. */
    double q = ceil((stop - start) / step);
    int64_t len = 0;
    if (q >= TWO63) {
        eh_set_error(EH_ERR_OVERFLOW, "arange: %.17g values from %.17g to %.17g by %.17g "
                     "is more than INT64_MAX", q, start, stop, step);
        return NULL;
    }
    if (q > 0)
        len = (int64_t)q;
    eh_op_call call = eh__call(EH_OP_arange, 0, NULL);
    if (integer) {
        if (len > 0 && arange_int_params(start, step, len, dtype, &call.p) != EH_OK)
            return NULL;
    } else {
        call.p.f[0] = start;
        call.p.f[1] = step;
    }
    const int64_t shape[1] = {len};
    return eh__run(&call, 1, shape, dtype);
}

/* ---- linspace, eye ---------------------------------------------------- */

eh_tensor *eh_linspace(double start, double stop, int64_t num, int endpoint, eh_dtype dtype)
{
    if (eh__check_dtype("linspace", dtype) != EH_OK)
        return NULL;
    if (num < 0) {
        eh_set_error(EH_ERR_NEGATIVE_SIZE, "linspace: num %lld is negative", (long long)num);
        return NULL;
    }
    eh_op_call call = eh__call(EH_OP_linspace, 0, NULL);
    call.p.f[0] = start;
    call.p.f[1] = stop;
    call.p.i[0] = endpoint != 0;
    const int64_t shape[1] = {num};
    return eh__run(&call, 1, shape, dtype);
}

static int64_t clamp_i64(int64_t v, int64_t lo, int64_t hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

eh_tensor *eh_eye(int64_t n, int64_t m, int64_t k, eh_dtype dtype)
{
    if (n < 0 || m < 0) {
        eh_set_error(EH_ERR_NEGATIVE_SIZE, "eye: negative size n = %lld, m = %lld",
                     (long long)n, (long long)m);
        return NULL;
    }
    eh_op_call call = eh__call(EH_OP_eye, 0, NULL);
    call.p.i[0] = clamp_i64(k, -n, m);
    const int64_t shape[2] = {n, m};
    return eh__run(&call, 2, shape, dtype);
}

/* ---- triu_indices, tril_indices --------------------------------------- */

/* a * b and a + b in uint64, 0 on overflow. */
static int mul_u64(uint64_t a, uint64_t b, uint64_t *r)
{
    if (a != 0 && b > UINT64_MAX / a)
        return 0;
    *r = a * b;
    return 1;
}

static int add_u64(uint64_t a, uint64_t b, uint64_t *r)
{
    if (b > UINT64_MAX - a)
        return 0;
    *r = a + b;
    return 1;
}

/* Number of (i, j) in [0, n) x [0, m) with j - i <= k, for any k; 0 when
 * it exceeds INT64_MAX. */
static int tril_count(int64_t n, int64_t m, int64_t k, int64_t *count)
{
    uint64_t total = 0;
    if (n == 0 || m == 0 || k <= -n) {
        *count = 0;
        return 1;
    }
    if (k >= m - 1) {
        if (!mul_u64((uint64_t)n, (uint64_t)m, &total) || total > (uint64_t)INT64_MAX)
            return 0;
        *count = (int64_t)total;
        return 1;
    }
    /* Here -(n - 1) <= k <= m - 2.  Row i holds clamp(i + k + 1, 0, m)
     * elements: none before i0, all m from i1 on, i + k + 1 between. */
    int64_t i0 = k < 0 ? -k : 0;
    int64_t i1 = k <= m - 1 - n ? n : m - 1 - k;
    if (i1 < i0)
        i1 = i0;
    uint64_t rows = (uint64_t)(i1 - i0);
    uint64_t first = (uint64_t)(i0 + k + 1); /* in [1, m - 1] when rows > 0 */
    uint64_t last = rows ? (uint64_t)(i1 - 1 + k + 1) : 0;
    uint64_t pair = first + last, mid, full;
    /* the sum (first + last) * rows / 2 of an arithmetic run: halve the even factor */
    if (rows == 0)
        mid = 0;
    else if (rows % 2 == 0) {
        if (!mul_u64(pair, rows / 2, &mid))
            return 0;
    } else if (!mul_u64(pair / 2, rows, &mid))
        return 0;
    if (!mul_u64((uint64_t)(n - i1), (uint64_t)m, &full) || !add_u64(mid, full, &total) ||
        total > (uint64_t)INT64_MAX)
        return 0;
    *count = (int64_t)total;
    return 1;
}

/* j - i >= k  <=>  i - j <= -k: the lower triangle of the m x n transpose. */
static int triu_count(int64_t n, int64_t m, int64_t k, int64_t *count)
{
    if (k <= -(n - 1) || n == 0 || m == 0)
        return tril_count(n, m, INT64_MAX, count); /* everything (or nothing) */
    return tril_count(m, n, -k, count);
}

static eh_tensor *tri_indices(eh_op op, int64_t n, int64_t k, int64_t m)
{
    const char *name = eh_op_name(op);
    if (n < 0 || m < 0) {
        eh_set_error(EH_ERR_NEGATIVE_SIZE, "%s: negative size n = %lld, m = %lld", name,
                     (long long)n, (long long)m);
        return NULL;
    }
    int64_t count = 0;
    int ok = op == EH_OP_triu_indices ? triu_count(n, m, k, &count) : tril_count(n, m, k, &count);
    if (!ok) {
        eh_set_error(EH_ERR_OVERFLOW, "%s: n = %lld, k = %lld, m = %lld selects more than "
                     "INT64_MAX elements", name, (long long)n, (long long)k, (long long)m);
        return NULL;
    }
    eh_op_call call = eh__call(op, 0, NULL);
    call.p.i[0] = n;
    call.p.i[1] = clamp_i64(k, -n, m);
    call.p.i[2] = m;
    const int64_t shape[2] = {2, count};
    return eh__run(&call, 2, shape, EH_I64);
}

eh_tensor *eh_triu_indices(int64_t n, int64_t k, int64_t m)
{
    return tri_indices(EH_OP_triu_indices, n, k, m);
}

eh_tensor *eh_tril_indices(int64_t n, int64_t k, int64_t m)
{
    return tri_indices(EH_OP_tril_indices, n, k, m);
}

/* ---- scalar, convert_to_tensor: host values in, no kernel ------------- */

eh_tensor *eh_convert_to_tensor(const void *data, int ndim, const int64_t *shape,
                                eh_dtype dtype)
{
    static const char op[] = "convert_to_tensor";
    eh_tensor *t = eh__new_tensor(op, ndim, shape, dtype);
    if (!t)
        return NULL;
    if (!data && t->size != 0) {
        long long size = (long long)t->size; /* read before t is freed */
        eh_release(t);
        eh_set_error(EH_ERR_NULL_ARG, "%s: argument 'data' is NULL for %lld elements", op,
                     size);
        return NULL;
    }
    if (eh_tensor_alloc_data(t) != EH_OK) {
        eh_release(t);
        return NULL;
    }
    if (t->nbytes)
        memcpy(t->data, data, t->nbytes);
    if (dtype == EH_BOOL) { /* bool storage is 0 or 1: any nonzero byte is true */
        uint8_t *b = t->data;
        for (int64_t i = 0; i < t->size; i++)
            b[i] = b[i] != 0;
    }
    return t;
}

eh_tensor *eh_scalar(double value, eh_dtype dtype)
{
    eh_tensor *t = eh__new_tensor("scalar", 0, NULL, dtype);
    if (!t)
        return NULL;
    if (eh_tensor_alloc_data(t) != EH_OK) {
        eh_release(t);
        return NULL;
    }
    eh_store_f64(t->data, dtype, 0, value);
    return t;
}
