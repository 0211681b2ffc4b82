/* Frontend of the random ops (RANDOM in ops.def) and of eh_seed (the META
 * op `seed`, answered here).  Design: docs/random.md; API: <eh/random.h>.
 *
 * Generator state, process-wide, under one mutex: the seed (from
 * eh_seed, else EH_SEED, else 0) and the number of random calls since it
 * was set.  Each op validates everything, then takes the next call number
 * and dispatches.  The kernel needs no state: the call carries the
 * generator's coordinates, and a deferring backend (lazy) may run it any
 * time later with the same result.
 *
 * eh_op_call.p, common to every RANDOM op:
 *   p.i[0]  seed & 0xffffffff      Philox key word 0
 *   p.i[1]  seed >> 32             Philox key word 1
 *   p.i[2]  call number & 0xffffffff   Philox counter word 2
 * Element i of out[0] (row-major flat index) samples from the words of
 * Philox4x32-10 blocks with key (p.i[0], p.i[1]) and counter
 * (i & 0xffffffff, i >> 32, p.i[2], d), d = 0, 1, 2, ... in order, four
 * words per block.  The conversions and algorithms are fixed (docs/random.md)
 * and implemented once in libeh/src/random_sampling.c: kernels call
 * eh_rand_fill(call, begin, end) (any split into ranges, any threads) or
 * eh_rand_permutation(call) from <eh/backend_random.h>.
 *
 * Per op (out[0] shaped and typed by the frontend; no inputs unless said):
 *   random_uniform      out f16/f32/f64.  f[0] low, f[1] high (finite,
 *                       low < high, high - low finite); f[2] lo, f[3] hi:
 *                       the smallest and largest out-dtype values in
 *                       [low, high) (lo <= hi).  Sample: low + (high-low) * u,
 *                       rounded to the dtype, clamped to [lo, hi].
 *   random_normal       out f16/f32/f64.  f[0] mean (finite), f[1] std (finite, >= 0).
 *   random_bernoulli    out bool.  f[0] p in [0, 1].
 *   random_poisson      out i64.  f[0] lam in [0, 9.2233720064847708e18].
 *   random_exponential  out f16/f32/f64.  f[0] scale (finite, > 0).
 *   random_gamma        out f16/f32/f64.  f[0] alpha, f[1] scale (finite, > 0).
 *   random_binomial     out i64.  i[3] n >= 0, f[0] p in [0, 1].
 *   random_categorical  in[0] logits as f64, shape (..., k), k >= 1 (values
 *                       NOT checked: the kernel reports NaN / +inf / all -inf
 *                       rows as EH_ERR_INVALID_ARG).  i[3] num_samples >= 1
 *                       whenever out is non-empty.  out i64 (..., num_samples);
 *                       out element i samples row i / num_samples.
 *   random_permutation  out i64 (n,).  No other parameters.
 *   random_randint      out i32/i64.  i[3] low, i[4] high, low < high, both
 *                       within the out dtype (high - 1 representable). */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

/* ---- the generator state --------------------------------------------------- */

static pthread_once_t state_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t state_lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t state_seed;
static uint64_t state_calls;
static int env_bad;           /* EH_SEED was malformed and eh_seed not called since */
static char env_value[64];    /* its value, for the message */

/* Decimal, or hexadecimal after 0x / 0X; digits only, no sign, no
 * spaces; must fit in 64 bits. */
static int parse_u64(const char *s, uint64_t *out)
{
    unsigned base = 10;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        s += 2;
    }
    if (!*s)
        return 0;
    uint64_t v = 0;
    for (; *s; s++) {
        unsigned d;
        if (*s >= '0' && *s <= '9')
            d = (unsigned)(*s - '0');
        else if (base == 16 && *s >= 'a' && *s <= 'f')
            d = (unsigned)(*s - 'a') + 10;
        else if (base == 16 && *s >= 'A' && *s <= 'F')
            d = (unsigned)(*s - 'A') + 10;
        else
            return 0;
        if (d >= base || v > (UINT64_MAX - d) / base)
            return 0;
        v = v * base + d;
    }
    *out = v;
    return 1;
}

static void state_init(void)
{
    const char *env = getenv("EH_SEED");
    if (!env || !*env)
        return; /* seed 0 */
    uint64_t v;
    if (parse_u64(env, &v)) {
        state_seed = v;
    } else {
        env_bad = 1;
        snprintf(env_value, sizeof env_value, "%s", env);
    }
}

void eh_seed(uint64_t seed)
{
    pthread_once(&state_once, state_init);
    pthread_mutex_lock(&state_lock);
    state_seed = seed;
    state_calls = 0;
    env_bad = 0;
    pthread_mutex_unlock(&state_lock);
}

/* Take the next call number and put the generator's coordinates in p. */
static eh_status take_call(const char *op, eh_params *p)
{
    pthread_once(&state_once, state_init);
    pthread_mutex_lock(&state_lock);
    if (env_bad) {
        char value[sizeof env_value];
        memcpy(value, env_value, sizeof value);
        pthread_mutex_unlock(&state_lock);
        return eh_set_error(EH_ERR_INVALID_ARG,
                            "%s: EH_SEED='%s' is not an unsigned 64-bit integer (decimal, or "
                            "hex after 0x); call eh_seed() or fix the variable",
                            op, value);
    }
    uint64_t seed = state_seed, n = state_calls++;
    pthread_mutex_unlock(&state_lock);
    p->i[0] = (int64_t)(seed & 0xffffffffu);
    p->i[1] = (int64_t)(seed >> 32);
    p->i[2] = (int64_t)(n & 0xffffffffu);
    return EH_OK;
}

/* ---- validation helpers ----------------------------------------------------- */

/* The largest lam accepted: NumPy's bound, so that samples fit int64
 * (EH_RAND_POISSON_LAM_MAX of <eh/backend_random.h>, which frontend code
 * does not include). */
#define POISSON_LAM_MAX 9.2233720064847708e18

static int is_float(eh_dtype d) { return d == EH_F16 || d == EH_F32 || d == EH_F64; }

/* Shape and dtype value; then, when `want_float`, a float dtype. */
static eh_status check_out(const char *op, int ndim, const int64_t *shape, eh_dtype dtype,
                           int want_float)
{
    if (eh__check_shape(op, ndim, shape, dtype, NULL) != EH_OK)
        return eh_last_error();
    if (want_float && !is_float(dtype))
        return eh_set_error(EH_ERR_DTYPE, "%s: dtype %s is not a float dtype (f16, f32 or f64)",
                            op, eh_dtype_name(dtype));
    return EH_OK;
}

static eh_status bad_param(const char *op, const char *what, double v)
{
    return eh_set_error(EH_ERR_INVALID_ARG, "%s: %s (got %.17g)", op, what, v);
}

static int is_probability(double p) { return p >= 0.0 && p <= 1.0; } /* NaN fails */

/* Take a call number and run: out[0] is (ndim, shape, dtype). */
static eh_tensor *run(eh_op_call *call, int ndim, const int64_t *shape, eh_dtype dtype)
{
    if (take_call(eh_op_name(call->op), &call->p) != EH_OK)
        return NULL;
    return eh__run(call, ndim, shape, dtype);
}

/* ---- uniform: the dtype values inside [low, high) ---------------------------- */

/* v rounded to dtype (as eh_store_f64 rounds), back as a double. */
static double in_dtype(double v, eh_dtype dtype)
{
    union { double d; float f; uint16_t h; } u;
    eh_store_f64(&u, dtype, 0, v);
    return eh_load_f64(&u, dtype, 0);
}

/* The dtype value next to v (itself a finite dtype value) upward or downward. */
static double dtype_step(double v, eh_dtype dtype, int up)
{
    switch (dtype) {
    case EH_F64: return nextafter(v, up ? INFINITY : -INFINITY);
    case EH_F32: return (double)nextafterf((float)v, up ? INFINITY : -INFINITY);
    default: {
        uint16_t h = eh_f32_to_f16((float)v); /* exact: v is an f16 value */
        int negative = (h & 0x8000u) != 0;
        if ((h & 0x7fffu) == 0)
            h = up ? 0x0001u : 0x8001u; /* from +-0 to the smallest subnormal */
        else if (up != negative)
            h++;                        /* away from zero */
        else
            h--;                        /* toward zero */
        return (double)eh_f16_to_f32(h);
    }
    }
}

eh_tensor *eh_random_uniform(int ndim, const int64_t *shape, double low, double high,
                             eh_dtype dtype)
{
    static const char op[] = "random_uniform";
    if (check_out(op, ndim, shape, dtype, 1) != EH_OK)
        return NULL;
    if (!isfinite(low) || !isfinite(high)) {
        eh_set_error(EH_ERR_INVALID_ARG, "%s: low and high must be finite (got %g and %g)", op,
                     low, high);
        return NULL;
    }
    if (!(low < high)) {
        eh_set_error(EH_ERR_INVALID_ARG, "%s: need low < high (got low %.17g, high %.17g)", op,
                     low, high);
        return NULL;
    }
    if (!isfinite(high - low)) {
        eh_set_error(EH_ERR_INVALID_ARG, "%s: high - low overflows a double (low %g, high %g)",
                     op, low, high);
        return NULL;
    }
    double lo = in_dtype(low, dtype), hi = in_dtype(high, dtype);
    if (isinf(lo) || isinf(hi)) {
        eh_set_error(EH_ERR_INVALID_ARG, "%s: [%g, %g) is outside the finite range of %s", op,
                     low, high, eh_dtype_name(dtype));
        return NULL;
    }
    if (lo < low)
        lo = dtype_step(lo, dtype, 1);
    if (hi >= high)
        hi = dtype_step(hi, dtype, 0);
    if (lo > hi) {
        eh_set_error(EH_ERR_INVALID_ARG, "%s: no %s value lies in [%.17g, %.17g)", op,
                     eh_dtype_name(dtype), low, high);
        return NULL;
    }
    eh_op_call call = eh__call(EH_OP_random_uniform, 0, NULL);
    call.p.f[0] = low;
    call.p.f[1] = high;
    call.p.f[2] = lo;
    call.p.f[3] = hi;
    return run(&call, ndim, shape, dtype);
}

/* ---- the other distributions -------------------------------------------------- */

eh_tensor *eh_random_normal(int ndim, const int64_t *shape, double mean, double std,
                            eh_dtype dtype)
{
    static const char op[] = "random_normal";
    if (check_out(op, ndim, shape, dtype, 1) != EH_OK)
        return NULL;
    if (!isfinite(mean)) {
        bad_param(op, "mean must be finite", mean);
        return NULL;
    }
    if (!(std >= 0.0 && isfinite(std))) {
        bad_param(op, "std must be finite and >= 0", std);
        return NULL;
    }
    eh_op_call call = eh__call(EH_OP_random_normal, 0, NULL);
    call.p.f[0] = mean;
    call.p.f[1] = std;
    return run(&call, ndim, shape, dtype);
}

eh_tensor *eh_random_bernoulli(int ndim, const int64_t *shape, double p)
{
    static const char op[] = "random_bernoulli";
    if (check_out(op, ndim, shape, EH_BOOL, 0) != EH_OK)
        return NULL;
    if (!is_probability(p)) {
        bad_param(op, "p must be in [0, 1]", p);
        return NULL;
    }
    eh_op_call call = eh__call(EH_OP_random_bernoulli, 0, NULL);
    call.p.f[0] = p;
    return run(&call, ndim, shape, EH_BOOL);
}

eh_tensor *eh_random_poisson(int ndim, const int64_t *shape, double lam)
{
    static const char op[] = "random_poisson";
    if (check_out(op, ndim, shape, EH_I64, 0) != EH_OK)
        return NULL;
    if (!(lam >= 0.0 && lam <= POISSON_LAM_MAX)) {
        bad_param(op, "lam must be in [0, 9.2233720064847708e18]", lam);
        return NULL;
    }
    eh_op_call call = eh__call(EH_OP_random_poisson, 0, NULL);
    call.p.f[0] = lam;
    return run(&call, ndim, shape, EH_I64);
}

eh_tensor *eh_random_exponential(int ndim, const int64_t *shape, double scale, eh_dtype dtype)
{
    static const char op[] = "random_exponential";
    if (check_out(op, ndim, shape, dtype, 1) != EH_OK)
        return NULL;
    if (!(scale > 0.0 && isfinite(scale))) {
        bad_param(op, "scale must be finite and > 0", scale);
        return NULL;
    }
    eh_op_call call = eh__call(EH_OP_random_exponential, 0, NULL);
    call.p.f[0] = scale;
    return run(&call, ndim, shape, dtype);
}

eh_tensor *eh_random_gamma(int ndim, const int64_t *shape, double alpha, double scale,
                           eh_dtype dtype)
{
    static const char op[] = "random_gamma";
    if (check_out(op, ndim, shape, dtype, 1) != EH_OK)
        return NULL;
    if (!(alpha > 0.0 && isfinite(alpha))) {
        bad_param(op, "alpha must be finite and > 0", alpha);
        return NULL;
    }
    if (!(scale > 0.0 && isfinite(scale))) {
        bad_param(op, "scale must be finite and > 0", scale);
        return NULL;
    }
    eh_op_call call = eh__call(EH_OP_random_gamma, 0, NULL);
    call.p.f[0] = alpha;
    call.p.f[1] = scale;
    return run(&call, ndim, shape, dtype);
}

eh_tensor *eh_random_binomial(int ndim, const int64_t *shape, int64_t n, double p)
{
    static const char op[] = "random_binomial";
    if (check_out(op, ndim, shape, EH_I64, 0) != EH_OK)
        return NULL;
    if (n < 0) {
        eh_set_error(EH_ERR_INVALID_ARG, "%s: n must be >= 0 (got %lld)", op, (long long)n);
        return NULL;
    }
    if (!is_probability(p)) {
        bad_param(op, "p must be in [0, 1]", p);
        return NULL;
    }
    eh_op_call call = eh__call(EH_OP_random_binomial, 0, NULL);
    call.p.i[3] = n;
    call.p.f[0] = p;
    return run(&call, ndim, shape, EH_I64);
}

eh_tensor *eh_random_categorical(const eh_tensor *logits, int64_t num_samples)
{
    static const char op[] = "random_categorical";
    if (!eh__require(op, logits, "logits"))
        return NULL;
    if (eh__check_dtype(op, logits->dtype) != EH_OK)
        return NULL;
    if (logits->dtype == EH_BOOL) {
        eh_set_error(EH_ERR_DTYPE, "%s: logits must be numeric, got bool", op);
        return NULL;
    }
    if (logits->ndim < 1) {
        eh_set_error(EH_ERR_SHAPE, "%s: logits need a category axis, got shape ()", op);
        return NULL;
    }
    int nd = logits->ndim;
    if (logits->shape[nd - 1] < 1) {
        eh_set_error(EH_ERR_SHAPE, "%s: logits of shape %s have no categories", op,
                     eh_shape_str(nd, logits->shape));
        return NULL;
    }
    if (num_samples < 0) {
        eh_set_error(EH_ERR_NEGATIVE_SIZE, "%s: num_samples is %lld (must be >= 0)", op,
                     (long long)num_samples);
        return NULL;
    }
    int64_t shape[EH_MAX_DIMS];
    memcpy(shape, logits->shape, (size_t)nd * sizeof *shape);
    shape[nd - 1] = num_samples;
    if (eh__check_shape(op, nd, shape, EH_I64, NULL) != EH_OK)
        return NULL;
    eh_tensor *lg = eh__as_dtype(logits, EH_F64);
    if (!lg)
        return NULL;
    const eh_tensor *in[1] = {lg};
    eh_op_call call = eh__call(EH_OP_random_categorical, 1, in);
    call.p.i[3] = num_samples;
    eh_tensor *out = run(&call, nd, shape, EH_I64);
    eh_tensor_unref(lg); /* an internal reference: never eh_release (scopes) */
    return out;
}

eh_tensor *eh_random_permutation(int64_t n)
{
    static const char op[] = "random_permutation";
    if (n < 0) {
        eh_set_error(EH_ERR_NEGATIVE_SIZE, "%s: n is %lld (must be >= 0)", op, (long long)n);
        return NULL;
    }
    const int64_t shape[1] = {n};
    if (check_out(op, 1, shape, EH_I64, 0) != EH_OK)
        return NULL;
    eh_op_call call = eh__call(EH_OP_random_permutation, 0, NULL);
    return run(&call, 1, shape, EH_I64);
}

eh_tensor *eh_random_randint(int ndim, const int64_t *shape, int64_t low, int64_t high,
                             eh_dtype dtype)
{
    static const char op[] = "random_randint";
    if (check_out(op, ndim, shape, dtype, 0) != EH_OK)
        return NULL;
    if (dtype != EH_I32 && dtype != EH_I64) {
        eh_set_error(EH_ERR_DTYPE, "%s: dtype %s is not an integer dtype (i32 or i64)", op,
                     eh_dtype_name(dtype));
        return NULL;
    }
    if (high <= low) {
        eh_set_error(EH_ERR_INVALID_ARG, "%s: need low < high (got low %lld, high %lld)", op,
                     (long long)low, (long long)high);
        return NULL;
    }
    if (dtype == EH_I32 && (low < INT32_MIN || high > (int64_t)INT32_MAX + 1)) {
        eh_set_error(EH_ERR_INVALID_ARG, "%s: [%lld, %lld) does not fit i32", op,
                     (long long)low, (long long)high);
        return NULL;
    }
    eh_op_call call = eh__call(EH_OP_random_randint, 0, NULL);
    call.p.i[3] = low;
    call.p.i[4] = high;
    return run(&call, ndim, shape, dtype);
}
