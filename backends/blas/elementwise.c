/* blas kernels: elementwise unary, binary and ternary ops, and cast.
 *
 * Results are bit-identical to ref's (backends/ref/elementwise.c) for every
 * op but the transcendental ones: the same scalar expression in the same
 * precision (f16 loaded to f32 and rounded back, integers in wrapping
 * unsigned arithmetic).  exp, expm1, log, log1p, sin, cos, tan, tanh,
 * sigmoid, softplus, erf, power and atan2 run SLEEF's vector functions
 * (vecmath.h; within the ulp bounds of docs/ops/elementwise.md, special
 * values exact), sqrt the hardware's.  How the elements are walked:
 *
 *  - one typed loop per op, dtype and operand layout, chosen once per
 *    call (never a function pointer or a switch per element).  The layout
 *    variants read each operand either contiguously (stride 1) or as a
 *    broadcast scalar (stride 0) with the stride a compile-time constant,
 *    and the loops run in blocks of 16 so that gcc's -O2 vectorizer (its
 *    "very cheap" cost model) vectorizes the arithmetic ones;
 *  - same-shape and scalar operands run as one flat loop; other
 *    broadcasts collapse the dimensions that can be merged and walk the
 *    outer ones with an odometer, running the innermost row as one loop;
 *  - large outputs are split across threads (eh_parallel_for) in
 *    contiguous ranges; small ones run inline with no threading overhead.
 *
 * The eh_op_call contract (inputs in the compute dtype, broadcast to out)
 * is documented at the top of libeh/src/ops_elementwise.c. */
#include <float.h>
#include "blas.h"
#include "../ref/ref.h"
#include "../ref/elementwise_scalar.h" /* ref's scalar semantics: they must not drift */
#include "vecmath.h"

/* A loop over n output elements; operand k starts at in[k]. */
typedef void (*ew_loop)(const char *const *in, char *out, int64_t n);

/* The layout variants of one op for one dtype, indexed by the bit mask of
 * operands read as scalars (bit k: operand k has stride 0).  Mask 0 is
 * every operand contiguous.  All-scalar masks only arise for n == 1, where
 * any variant reads the right elements, so they map to mask 0. */
typedef struct {
    ew_loop v[8];
} ew_variants;

typedef struct {
    const ew_variants *by_dtype[EH_DTYPE_COUNT];
    int64_t grain;
} ew_op;

/* ---- the walk ------------------------------------------------------------ */

typedef struct {
    const eh_op_call *c;
    ew_loop loop;
    int n_in;
    size_t isz[3], osz;
    const char *base[3];
    char *obase;
    /* broadcast walk: rows of `len` elements over an odometer of nd dims */
    int nd;
    int64_t shape[EH_MAX_DIMS];
    int64_t stride[3][EH_MAX_DIMS]; /* elements, per operand */
    int64_t len;
    int flat_scalar[3];             /* flat walk: operand k is a 1-element one */
} ew_job;

static void flat_range(void *ctx, int64_t begin, int64_t end, int worker)
{
    (void)worker;
    const ew_job *j = ctx;
    const char *in[3] = {NULL, NULL, NULL};
    for (int k = 0; k < j->n_in; k++)
        in[k] = j->flat_scalar[k] ? j->base[k] : j->base[k] + (size_t)begin * j->isz[k];
    j->loop(in, j->obase + (size_t)begin * j->osz, end - begin);
}

/* Rows [begin, end) of the broadcast walk. */
static void rows_range(void *ctx, int64_t begin, int64_t end, int worker)
{
    (void)worker;
    const ew_job *j = ctx;
    int nd = j->nd;
    int64_t idx[EH_MAX_DIMS];
    int64_t off[3] = {0, 0, 0};
    int64_t r = begin;
    for (int d = nd - 1; d >= 0; d--) {
        idx[d] = r % j->shape[d];
        r /= j->shape[d];
        for (int k = 0; k < j->n_in; k++)
            off[k] += idx[d] * j->stride[k][d];
    }
    char *o = j->obase + (size_t)begin * (size_t)j->len * j->osz;
    for (int64_t row = begin; row < end; row++) {
        const char *in[3] = {NULL, NULL, NULL};
        for (int k = 0; k < j->n_in; k++)
            in[k] = j->base[k] + (size_t)off[k] * j->isz[k];
        j->loop(in, o, j->len);
        o += (size_t)j->len * j->osz;
        for (int d = nd - 1; d >= 0; d--) {
            for (int k = 0; k < j->n_in; k++)
                off[k] += j->stride[k][d];
            if (++idx[d] < j->shape[d])
                break;
            for (int k = 0; k < j->n_in; k++)
                off[k] -= j->stride[k][d] * j->shape[d];
            idx[d] = 0;
        }
    }
}

static eh_status ew_run(const eh_op_call *c, const ew_op *op)
{
    eh_tensor *out = c->out[0];
    int64_t N = out->size;
    if (N == 0)
        return EH_OK;
    int n = c->n_in;
    eh_dtype dt = c->in[c->op == EH_OP_where ? 1 : 0]->dtype;
    const ew_variants *vs = op->by_dtype[dt];
    if (!vs || n < 1 || n > 3)
        return eh_set_error(EH_ERR_INTERNAL, "%s: blas has no loop for %s", eh_op_name(c->op),
                            eh_dtype_name(dt));
    int64_t grain = op->grain;
    if (dt == EH_F16 && grain > EH_BLAS_GRAIN_HEAVY)
        grain = EH_BLAS_GRAIN_HEAVY;
    ew_job j;
    j.c = c;
    j.n_in = n;
    j.osz = eh_dtype_size(out->dtype);
    j.obase = out->data;
    int simple = 1, mask = 0;
    for (int k = 0; k < n; k++) {
        const eh_tensor *t = c->in[k];
        j.isz[k] = eh_dtype_size(t->dtype);
        j.base[k] = t->data;
        j.flat_scalar[k] = 0;
        if (t->size == N)
            continue;
        if (t->size == 1) {
            j.flat_scalar[k] = 1;
            mask |= 1 << k;
        } else {
            simple = 0;
        }
    }
    if (simple) {
        if (mask == (1 << n) - 1)
            mask = 0; /* N == 1 */
        j.loop = vs->v[mask];
        if (N <= grain)
            flat_range(&j, 0, N, 0); /* small: no thread hand-off at all */
        else
            eh_parallel_for(N, grain, flat_range, &j);
        return EH_OK;
    }
    /* General broadcast: strides against out, dims of 1 dropped, adjacent
     * dims merged wherever every operand allows it. */
    int nd = out->ndim;
    int64_t st[3][EH_MAX_DIMS];
    for (int k = 0; k < n; k++)
        eh_broadcast_strides(c->in[k], nd, out->shape, st[k]);
    int m = 0;
    for (int d = 0; d < nd; d++) {
        int64_t s = out->shape[d];
        if (s == 1)
            continue;
        int merge = m > 0;
        for (int k = 0; k < n && merge; k++)
            merge = j.stride[k][m - 1] == st[k][d] * s;
        if (merge) {
            j.shape[m - 1] *= s;
            for (int k = 0; k < n; k++)
                j.stride[k][m - 1] = st[k][d];
        } else {
            j.shape[m] = s;
            for (int k = 0; k < n; k++)
                j.stride[k][m] = st[k][d];
            m++;
        }
    }
    /* m >= 1: not every operand has N elements, so some dim is not 1 */
    j.len = j.shape[m - 1];
    mask = 0;
    for (int k = 0; k < n; k++)
        if (j.stride[k][m - 1] == 0)
            mask |= 1 << k;
    if (mask == (1 << n) - 1)
        mask = 0; /* cannot happen for len > 1; len == 1 reads one element */
    j.loop = vs->v[mask];
    j.nd = m - 1;
    int64_t rows = N / j.len;
    int64_t row_grain = grain / j.len;
    eh_parallel_for(rows, row_grain > 0 ? row_grain : 1, rows_range, &j);
    return EH_OK;
}

/* ---- loop generators -------------------------------------------------------- */

/* Element loaders (storage -> compute type) and storers (compute -> storage). */
#define LD_SAME(v) (v)
#define LD_H(v) eh_blas_h2f(v)
#define ST_H(v) eh_blas_f2h((float)(v))

/* One loop: TS storage type, TC compute type, TO output storage type,
 * ST(expr) the store conversion, S0..S2 the operand strides (0 or 1). */
#define EW_BODY1(TS, TC, LD, ST, EXPR, S0)                                          \
    {                                                                               \
        TC x = LD(a[i * S0]);                                                       \
        o[i] = ST(EXPR);                                                            \
    }
#define EW_BODY2(TS, TC, LD, ST, EXPR, S0, S1)                                      \
    {                                                                               \
        TC x = LD(a[i * S0]), y = LD(b[i * S1]);                                    \
        o[i] = ST(EXPR);                                                            \
    }

/* The loop bodies live in inline functions whose pointer parameters are
 * restrict-qualified: gcc honours restrict on parameters (not on local
 * pointers), and without it the vectorizer would need runtime alias checks,
 * which -O2's cost model refuses. */
#define EW_LOOP1(NAME, TS, TC, TO, LD, ST, EXPR)                                    \
    static inline void NAME##_k(const TS *restrict a, TO *restrict o, int64_t n)    \
    {                                                                               \
        int64_t nb = n & ~(int64_t)15, i = 0;                                       \
        for (; i < nb; i++)                                                         \
            EW_BODY1(TS, TC, LD, ST, EXPR, 1)                                       \
        for (; i < n; i++)                                                          \
            EW_BODY1(TS, TC, LD, ST, EXPR, 1)                                       \
    }                                                                               \
    static void NAME(const char *const *in, char *out, int64_t n)                   \
    {                                                                               \
        NAME##_k((const TS *)in[0], (TO *)out, n);                                  \
    }

#define EW_LOOP2(NAME, TS, TC, TO, LD, ST, EXPR, S0, S1)                            \
    static inline void NAME##_k(const TS *restrict a, const TS *restrict b,         \
                                TO *restrict o, int64_t n)                          \
    {                                                                               \
        int64_t nb = n & ~(int64_t)15, i = 0;                                       \
        for (; i < nb; i++)                                                         \
            EW_BODY2(TS, TC, LD, ST, EXPR, S0, S1)                                  \
        for (; i < n; i++)                                                          \
            EW_BODY2(TS, TC, LD, ST, EXPR, S0, S1)                                  \
    }                                                                               \
    static void NAME(const char *const *in, char *out, int64_t n)                   \
    {                                                                               \
        NAME##_k((const TS *)in[0], (const TS *)in[1], (TO *)out, n);               \
    }

#define EW_UNARY_SET(NAME, TS, TC, TO, LD, ST, EXPR)                                \
    EW_LOOP1(NAME##_v, TS, TC, TO, LD, ST, EXPR)                                    \
    static const ew_variants NAME = {{NAME##_v, NAME##_v}};

#define EW_BINARY_SET(NAME, TS, TC, TO, LD, ST, EXPR)                               \
    EW_LOOP2(NAME##_vv, TS, TC, TO, LD, ST, EXPR, 1, 1)                             \
    EW_LOOP2(NAME##_sv, TS, TC, TO, LD, ST, EXPR, 0, 1)                             \
    EW_LOOP2(NAME##_vs, TS, TC, TO, LD, ST, EXPR, 1, 0)                             \
    static const ew_variants NAME = {{NAME##_vv, NAME##_sv, NAME##_vs, NAME##_vv}};

#define KERNEL(op, GRAIN, ...)                                                      \
    eh_status eh_blas_##op(const eh_op_call *c)                                     \
    {                                                                               \
        static const ew_op o = {{__VA_ARGS__}, GRAIN};                              \
        return ew_run(c, &o);                                                       \
    }

#define CHEAP EH_BLAS_GRAIN_CHEAP
#define HEAVY EH_BLAS_GRAIN_HEAVY

/* ---- unary ------------------------------------------------------------------ */

/* Float-valued: f16 (in f32), f32, f64. */
#define FLOAT_UNARY(op, GRAIN, EF, ED)                                              \
    EW_UNARY_SET(v_##op##_h, uint16_t, float, uint16_t, LD_H, ST_H, EF)                 \
    EW_UNARY_SET(v_##op##_f, float, float, float, LD_SAME, (float), EF)                 \
    EW_UNARY_SET(v_##op##_d, double, double, double, LD_SAME, (double), ED)             \
    KERNEL(op, GRAIN, [EH_F16] = &v_##op##_h, [EH_F32] = &v_##op##_f, [EH_F64] = &v_##op##_d)
FLOAT_UNARY(reciprocal, CHEAP, 1.0f / x, 1.0 / x)

/* The vector math ops (vecmath.h): each loop hands its whole range to the
 * current instruction set's kernel.  f16 goes through f32 in blocks, as
 * ref's f16 goes through f32 element by element. */
#define VM_BLOCK 256
#define VM_UNARY_FD(op)                                                             \
    static void vm_##op##_f(const char *const *in, char *out, int64_t n)            \
    {                                                                               \
        eh_blas_vm_current()->op##_f((const float *)in[0], (float *)out, n);        \
    }                                                                               \
    static void vm_##op##_d(const char *const *in, char *out, int64_t n)            \
    {                                                                               \
        eh_blas_vm_current()->op##_d((const double *)in[0], (double *)out, n);      \
    }                                                                               \
    static const ew_variants vmv_##op##_f = {{vm_##op##_f, vm_##op##_f}};           \
    static const ew_variants vmv_##op##_d = {{vm_##op##_d, vm_##op##_d}};
#define VM_UNARY(op, GRAIN)                                                         \
    VM_UNARY_FD(op)                                                                 \
    static void vm_##op##_h(const char *const *in, char *out, int64_t n)            \
    {                                                                               \
        const eh_blas_vm *vm = eh_blas_vm_current();                                \
        const uint16_t *a = (const uint16_t *)in[0];                                \
        uint16_t *o = (uint16_t *)out;                                              \
        float buf[VM_BLOCK];                                                        \
        for (int64_t i0 = 0; i0 < n; i0 += VM_BLOCK) {                              \
            int64_t m = n - i0 < VM_BLOCK ? n - i0 : VM_BLOCK;                      \
            for (int64_t i = 0; i < m; i++)                                         \
                buf[i] = eh_blas_h2f(a[i0 + i]);                                    \
            vm->op##_f(buf, buf, m);                                                \
            for (int64_t i = 0; i < m; i++)                                         \
                o[i0 + i] = eh_blas_f2h(buf[i]);                                    \
        }                                                                           \
    }                                                                               \
    static const ew_variants vmv_##op##_h = {{vm_##op##_h, vm_##op##_h}};           \
    KERNEL(op, GRAIN, [EH_F16] = &vmv_##op##_h, [EH_F32] = &vmv_##op##_f,           \
           [EH_F64] = &vmv_##op##_d)
VM_UNARY(sqrt, CHEAP)
VM_UNARY(exp, HEAVY)
VM_UNARY(log, HEAVY)
VM_UNARY(log1p, HEAVY)
VM_UNARY(expm1, HEAVY)
VM_UNARY(sin, HEAVY)
VM_UNARY(cos, HEAVY)
VM_UNARY(tan, HEAVY)
VM_UNARY(tanh, HEAVY)
VM_UNARY(sigmoid, HEAVY)
VM_UNARY(softplus, HEAVY)
VM_UNARY(erf, HEAVY)

/* Same-dtype numeric: floats and both integer widths. */
#define NUMERIC_UNARY(op, GRAIN, EF, ED, EI, EL)                                    \
    EW_UNARY_SET(v_##op##_h, uint16_t, float, uint16_t, LD_H, ST_H, EF)                 \
    EW_UNARY_SET(v_##op##_f, float, float, float, LD_SAME, (float), EF)                 \
    EW_UNARY_SET(v_##op##_d, double, double, double, LD_SAME, (double), ED)             \
    EW_UNARY_SET(v_##op##_i, int32_t, int32_t, int32_t, LD_SAME, (int32_t), EI)         \
    EW_UNARY_SET(v_##op##_l, int64_t, int64_t, int64_t, LD_SAME, (int64_t), EL)         \
    KERNEL(op, GRAIN, [EH_F16] = &v_##op##_h, [EH_F32] = &v_##op##_f, [EH_F64] = &v_##op##_d,   \
           [EH_I32] = &v_##op##_i, [EH_I64] = &v_##op##_l)
NUMERIC_UNARY(negative, CHEAP, -x, -x, neg_i(x), neg_l(x))
/* abs: f32 and f64 at the machine's vector width (vecmath.h) */
EW_UNARY_SET(v_abs_h, uint16_t, float, uint16_t, LD_H, ST_H, fabsf(x))
EW_UNARY_SET(v_abs_i, int32_t, int32_t, int32_t, LD_SAME, (int32_t), abs_i(x))
EW_UNARY_SET(v_abs_l, int64_t, int64_t, int64_t, LD_SAME, (int64_t), abs_l(x))
VM_UNARY_FD(abs)
KERNEL(abs, CHEAP, [EH_F16] = &v_abs_h, [EH_F32] = &vmv_abs_f, [EH_F64] = &vmv_abs_d,
       [EH_I32] = &v_abs_i, [EH_I64] = &v_abs_l)
NUMERIC_UNARY(sign, CHEAP, sign_f(x), sign_d(x), SIGN_INT(x), SIGN_INT(x))
NUMERIC_UNARY(square, CHEAP, x * x, x * x, sq_i(x), sq_l(x))
NUMERIC_UNARY(relu, CHEAP, relu_f(x), relu_d(x), MAXI(x, 0), MAXI(x, 0))
NUMERIC_UNARY(floor, CHEAP, floorf(x), floor(x), x, x)
NUMERIC_UNARY(ceil, CHEAP, ceilf(x), ceil(x), x, x)
NUMERIC_UNARY(round, CHEAP, rintf(x), rint(x), x, x)

/* Predicates: any dtype in, bool out.  (isnan & co. only promise nonzero.) */
#define TEST_UNARY(op, EF, EINT)                                                    \
    EW_UNARY_SET(v_##op##_h, uint16_t, float, uint8_t, LD_H, (uint8_t), EF)             \
    EW_UNARY_SET(v_##op##_f, float, float, uint8_t, LD_SAME, (uint8_t), EF)             \
    EW_UNARY_SET(v_##op##_d, double, double, uint8_t, LD_SAME, (uint8_t), EF)           \
    EW_UNARY_SET(v_##op##_i, int32_t, int32_t, uint8_t, LD_SAME, (uint8_t), EINT)       \
    EW_UNARY_SET(v_##op##_l, int64_t, int64_t, uint8_t, LD_SAME, (uint8_t), EINT)       \
    EW_UNARY_SET(v_##op##_b, uint8_t, uint8_t, uint8_t, LD_SAME, (uint8_t), EINT)       \
    KERNEL(op, CHEAP, [EH_F16] = &v_##op##_h, [EH_F32] = &v_##op##_f, [EH_F64] = &v_##op##_d,   \
           [EH_I32] = &v_##op##_i, [EH_I64] = &v_##op##_l, [EH_BOOL] = &v_##op##_b)
TEST_UNARY(isnan, isnan(x) != 0, ((void)x, 0))
TEST_UNARY(isinf, isinf(x) != 0, ((void)x, 0))
TEST_UNARY(isfinite, isfinite(x) != 0, ((void)x, 1))

EW_UNARY_SET(logical_not_b, uint8_t, uint8_t, uint8_t, LD_SAME, (uint8_t), !x)
KERNEL(logical_not, CHEAP, [EH_BOOL] = &logical_not_b)

/* ---- binary ------------------------------------------------------------------ */

#define NUMERIC_BINARY(op, GRAIN, EF, ED, EI, EL)                                   \
    EW_BINARY_SET(v_##op##_h, uint16_t, float, uint16_t, LD_H, ST_H, EF)                \
    EW_BINARY_SET(v_##op##_f, float, float, float, LD_SAME, (float), EF)                \
    EW_BINARY_SET(v_##op##_d, double, double, double, LD_SAME, (double), ED)            \
    EW_BINARY_SET(v_##op##_i, int32_t, int32_t, int32_t, LD_SAME, (int32_t), EI)        \
    EW_BINARY_SET(v_##op##_l, int64_t, int64_t, int64_t, LD_SAME, (int64_t), EL)        \
    KERNEL(op, GRAIN, [EH_F16] = &v_##op##_h, [EH_F32] = &v_##op##_f, [EH_F64] = &v_##op##_d,   \
           [EH_I32] = &v_##op##_i, [EH_I64] = &v_##op##_l)
NUMERIC_BINARY(floor_divide, HEAVY, fdiv_f(x, y), fdiv_d(x, y), fdiv_i(x, y), fdiv_l(x, y))
NUMERIC_BINARY(mod, HEAVY, fmod_f(x, y), fmod_d(x, y), fmod_i(x, y), fmod_l(x, y))

/* Binary vector math: contiguous or broadcast-scalar operands (the layout
 * masks of ew_run), f16 through f32 in blocks; power's integer dtypes keep
 * their exact loops. */
#define VM_BINARY_LAYOUT(op, S, T, L)                                               \
    static void vm_##op##_##S##_##L(const char *const *in, char *out, int64_t n)    \
    {                                                                               \
        eh_blas_vm_current()->op##_##S[L]((const T *)in[0], (const T *)in[1], (T *)out, n); \
    }
#define VM_BINARY_H(op, L, SA, SB)                                                  \
    static void vm_##op##_h_##L(const char *const *in, char *out, int64_t n)        \
    {                                                                               \
        const eh_blas_vm *vm = eh_blas_vm_current();                                \
        const uint16_t *a = (const uint16_t *)in[0], *b = (const uint16_t *)in[1];  \
        uint16_t *o = (uint16_t *)out;                                              \
        float x[VM_BLOCK], y[VM_BLOCK];                                             \
        for (int64_t i0 = 0; i0 < n; i0 += VM_BLOCK) {                              \
            int64_t m = n - i0 < VM_BLOCK ? n - i0 : VM_BLOCK;                      \
            for (int64_t i = 0; i < m; i++) {                                       \
                x[i] = eh_blas_h2f(a[SA ? 0 : i0 + i]);                             \
                y[i] = eh_blas_h2f(b[SB ? 0 : i0 + i]);                             \
            }                                                                       \
            vm->op##_f[EH_BLAS_VM_VV](x, y, x, m);                                  \
            for (int64_t i = 0; i < m; i++)                                         \
                o[i0 + i] = eh_blas_f2h(x[i]);                                      \
        }                                                                           \
    }
#define VM_BINARY(op)                                                               \
    VM_BINARY_LAYOUT(op, f, float, 0) VM_BINARY_LAYOUT(op, f, float, 1)             \
    VM_BINARY_LAYOUT(op, f, float, 2) VM_BINARY_LAYOUT(op, d, double, 0)            \
    VM_BINARY_LAYOUT(op, d, double, 1) VM_BINARY_LAYOUT(op, d, double, 2)           \
    VM_BINARY_H(op, 0, 0, 0) VM_BINARY_H(op, 1, 1, 0) VM_BINARY_H(op, 2, 0, 1)      \
    static const ew_variants vmv_##op##_f = {{vm_##op##_f_0, vm_##op##_f_1, vm_##op##_f_2, vm_##op##_f_0}}; \
    static const ew_variants vmv_##op##_d = {{vm_##op##_d_0, vm_##op##_d_1, vm_##op##_d_2, vm_##op##_d_0}}; \
    static const ew_variants vmv_##op##_h = {{vm_##op##_h_0, vm_##op##_h_1, vm_##op##_h_2, vm_##op##_h_0}};
VM_BINARY(power)
VM_BINARY(atan2)
EW_BINARY_SET(v_power_i, int32_t, int32_t, int32_t, LD_SAME, (int32_t), pow_i(x, y))
EW_BINARY_SET(v_power_l, int64_t, int64_t, int64_t, LD_SAME, (int64_t), pow_l(x, y))
KERNEL(power, HEAVY, [EH_F16] = &vmv_power_h, [EH_F32] = &vmv_power_f, [EH_F64] = &vmv_power_d,
       [EH_I32] = &v_power_i, [EH_I64] = &v_power_l)
KERNEL(atan2, HEAVY, [EH_F16] = &vmv_atan2_h, [EH_F32] = &vmv_atan2_f, [EH_F64] = &vmv_atan2_d)

/* add, subtract, multiply, divide: f32 and f64 at the machine's vector
 * width (vecmath.h's exact arithmetic, the same bits as these loops);
 * f16 and the integers here. */
#define VM_ARITH_FD(op)                                                             \
    VM_BINARY_LAYOUT(op, f, float, 0) VM_BINARY_LAYOUT(op, f, float, 1)             \
    VM_BINARY_LAYOUT(op, f, float, 2) VM_BINARY_LAYOUT(op, d, double, 0)            \
    VM_BINARY_LAYOUT(op, d, double, 1) VM_BINARY_LAYOUT(op, d, double, 2)           \
    static const ew_variants vmv_##op##_f = {{vm_##op##_f_0, vm_##op##_f_1, vm_##op##_f_2, vm_##op##_f_0}}; \
    static const ew_variants vmv_##op##_d = {{vm_##op##_d_0, vm_##op##_d_1, vm_##op##_d_2, vm_##op##_d_0}};
#define ARITH_BINARY(op, EF, EI, EL)                                                \
    EW_BINARY_SET(v_##op##_h, uint16_t, float, uint16_t, LD_H, ST_H, EF)                \
    EW_BINARY_SET(v_##op##_i, int32_t, int32_t, int32_t, LD_SAME, (int32_t), EI)        \
    EW_BINARY_SET(v_##op##_l, int64_t, int64_t, int64_t, LD_SAME, (int64_t), EL)        \
    VM_ARITH_FD(op)                                                                 \
    KERNEL(op, CHEAP, [EH_F16] = &v_##op##_h, [EH_F32] = &vmv_##op##_f, [EH_F64] = &vmv_##op##_d, \
           [EH_I32] = &v_##op##_i, [EH_I64] = &v_##op##_l)
ARITH_BINARY(add, x + y, WRAP(int32_t, uint32_t, (uint32_t)x + (uint32_t)y),
             WRAP(int64_t, uint64_t, (uint64_t)x + (uint64_t)y))
ARITH_BINARY(subtract, x - y, WRAP(int32_t, uint32_t, (uint32_t)x - (uint32_t)y),
             WRAP(int64_t, uint64_t, (uint64_t)x - (uint64_t)y))
ARITH_BINARY(multiply, x * y, WRAP(int32_t, uint32_t, (uint32_t)x * (uint32_t)y),
             WRAP(int64_t, uint64_t, (uint64_t)x * (uint64_t)y))
EW_BINARY_SET(v_divide_h, uint16_t, float, uint16_t, LD_H, ST_H, x / y)
VM_ARITH_FD(divide)
KERNEL(divide, CHEAP, [EH_F16] = &v_divide_h, [EH_F32] = &vmv_divide_f, [EH_F64] = &vmv_divide_d)

/* Every dtype; OUT(T) is the output type for non-f16 inputs, STH the f16
 * input's store. */
#define SAME(T) T
#define BOOLOUT(T) uint8_t
#define ANY_BINARY(op, OUT, STH, EF, EI)                                            \
    EW_BINARY_SET(v_##op##_h, uint16_t, float, OUT(uint16_t), LD_H, STH, EF)            \
    EW_BINARY_SET(v_##op##_f, float, float, OUT(float), LD_SAME, (OUT(float)), EF)      \
    EW_BINARY_SET(v_##op##_d, double, double, OUT(double), LD_SAME, (OUT(double)), EF)  \
    EW_BINARY_SET(v_##op##_i, int32_t, int32_t, OUT(int32_t), LD_SAME, (OUT(int32_t)), EI) \
    EW_BINARY_SET(v_##op##_l, int64_t, int64_t, OUT(int64_t), LD_SAME, (OUT(int64_t)), EI) \
    EW_BINARY_SET(v_##op##_b, uint8_t, uint8_t, uint8_t, LD_SAME, (uint8_t), EI)        \
    KERNEL(op, CHEAP, [EH_F16] = &v_##op##_h, [EH_F32] = &v_##op##_f, [EH_F64] = &v_##op##_d,   \
           [EH_I32] = &v_##op##_i, [EH_I64] = &v_##op##_l, [EH_BOOL] = &v_##op##_b)
ANY_BINARY(maximum, SAME, ST_H, MAXF(x, y), MAXI(x, y))
ANY_BINARY(minimum, SAME, ST_H, MINF(x, y), MINI(x, y))
ANY_BINARY(equal, BOOLOUT, (uint8_t), x == y, x == y)
ANY_BINARY(not_equal, BOOLOUT, (uint8_t), x != y, x != y)
ANY_BINARY(less, BOOLOUT, (uint8_t), x < y, x < y)
ANY_BINARY(less_equal, BOOLOUT, (uint8_t), x <= y, x <= y)
ANY_BINARY(greater, BOOLOUT, (uint8_t), x > y, x > y)
ANY_BINARY(greater_equal, BOOLOUT, (uint8_t), x >= y, x >= y)

#define LOGICAL_BINARY(op, E)                                                       \
    EW_BINARY_SET(v_##op##_b, uint8_t, uint8_t, uint8_t, LD_SAME, (uint8_t), E)         \
    KERNEL(op, CHEAP, [EH_BOOL] = &v_##op##_b)
LOGICAL_BINARY(logical_and, x && y)
LOGICAL_BINARY(logical_or, x || y)
LOGICAL_BINARY(logical_xor, (!x) != (!y))

/* ---- ternary: where, clip ---------------------------------------------------------- */

/* where(cond, x, y) copies element bits, so one set per element size. */
#define WHERE_LOOP(NAME, T, S0, S1, S2)                                             \
    static inline void NAME##_k(const uint8_t *restrict c, const T *restrict x,     \
                                const T *restrict y, T *restrict o, int64_t n)      \
    {                                                                               \
        int64_t nb = n & ~(int64_t)15, i = 0;                                       \
        for (; i < nb; i++)                                                         \
            o[i] = c[i * S0] ? x[i * S1] : y[i * S2];                               \
        for (; i < n; i++)                                                          \
            o[i] = c[i * S0] ? x[i * S1] : y[i * S2];                               \
    }                                                                               \
    static void NAME(const char *const *in, char *out, int64_t n)                   \
    {                                                                               \
        NAME##_k((const uint8_t *)in[0], (const T *)in[1], (const T *)in[2], (T *)out, n); \
    }

/* clip(x, lo, hi) = minimum(maximum(x, lo), hi). */
#define CLIP_LOOP(NAME, TS, TC, LD, ST, MAX, MIN, S0, S1, S2)                       \
    static inline void NAME##_k(const TS *restrict xs, const TS *restrict ls,       \
                                const TS *restrict hs, TS *restrict o, int64_t n)   \
    {                                                                               \
        int64_t nb = n & ~(int64_t)15, i = 0;                                       \
        for (; i < nb; i++) {                                                       \
            TC v = LD(xs[i * S0]), l = LD(ls[i * S1]), h = LD(hs[i * S2]);          \
            TC m = MAX(v, l);                                                       \
            o[i] = ST(MIN(m, h));                                                   \
        }                                                                           \
        for (; i < n; i++) {                                                        \
            TC v = LD(xs[i * S0]), l = LD(ls[i * S1]), h = LD(hs[i * S2]);          \
            TC m = MAX(v, l);                                                       \
            o[i] = ST(MIN(m, h));                                                   \
        }                                                                           \
    }                                                                               \
    static void NAME(const char *const *in, char *out, int64_t n)                   \
    {                                                                               \
        NAME##_k((const TS *)in[0], (const TS *)in[1], (const TS *)in[2], (TS *)out, n); \
    }

/* The seven layouts of a ternary op (mask 7 only for n == 1). */
#define TERNARY_SET(NAME, GEN, ...)                                                 \
    GEN(NAME##_0, __VA_ARGS__, 1, 1, 1) GEN(NAME##_1, __VA_ARGS__, 0, 1, 1)         \
    GEN(NAME##_2, __VA_ARGS__, 1, 0, 1) GEN(NAME##_3, __VA_ARGS__, 0, 0, 1)         \
    GEN(NAME##_4, __VA_ARGS__, 1, 1, 0) GEN(NAME##_5, __VA_ARGS__, 0, 1, 0)         \
    GEN(NAME##_6, __VA_ARGS__, 1, 0, 0)                                             \
    static const ew_variants NAME = {{NAME##_0, NAME##_1, NAME##_2, NAME##_3,       \
                                      NAME##_4, NAME##_5, NAME##_6, NAME##_0}};

TERNARY_SET(where_1, WHERE_LOOP, uint8_t)
TERNARY_SET(where_2, WHERE_LOOP, uint16_t)
TERNARY_SET(where_4, WHERE_LOOP, uint32_t)
TERNARY_SET(where_8, WHERE_LOOP, uint64_t)
KERNEL(where, CHEAP, [EH_F16] = &where_2, [EH_F32] = &where_4, [EH_F64] = &where_8,
       [EH_I32] = &where_4, [EH_I64] = &where_8, [EH_BOOL] = &where_1)

TERNARY_SET(clip_h, CLIP_LOOP, uint16_t, float, LD_H, ST_H, MAXF, MINF)
TERNARY_SET(clip_f, CLIP_LOOP, float, float, LD_SAME, (float), MAXF, MINF)
TERNARY_SET(clip_d, CLIP_LOOP, double, double, LD_SAME, (double), MAXF, MINF)
TERNARY_SET(clip_i, CLIP_LOOP, int32_t, int32_t, LD_SAME, (int32_t), MAXI, MINI)
TERNARY_SET(clip_l, CLIP_LOOP, int64_t, int64_t, LD_SAME, (int64_t), MAXI, MINI)
TERNARY_SET(clip_b, CLIP_LOOP, uint8_t, uint8_t, LD_SAME, (uint8_t), MAXI, MINI)
KERNEL(clip, CHEAP, [EH_F16] = &clip_h, [EH_F32] = &clip_f, [EH_F64] = &clip_d,
       [EH_I32] = &clip_i, [EH_I64] = &clip_l, [EH_BOOL] = &clip_b)

/* ---- cast -------------------------------------------------------------------------- */

/* The conversions of eh_store_f64 / eh_store_i64 (libeh/src/dtype.c), for
 * the pairs with a fast loop below; every other pair runs ref's kernel on
 * slices of the tensor, in parallel. */
static inline float d2f(double v)
{
    if (isnan(v) || fabs(v) <= (double)FLT_MAX)
        return (float)v;
    if (fabs(v) >= 0x1.ffffffp127)
        return v > 0 ? INFINITY : -INFINITY;
    return v > 0 ? FLT_MAX : -FLT_MAX;
}

/* ref's f16 -> f32 goes through double, which quiets a signaling NaN. */
static inline float h2f_quiet(uint16_t h)
{
    float f = eh_blas_h2f(h);
    if (f != f) {
        uint32_t u;
        memcpy(&u, &f, sizeof u);
        u |= 0x00400000u;
        memcpy(&f, &u, sizeof f);
    }
    return f;
}

#define CAST_LOOP(NAME, TS, TO, CONV)                                               \
    static inline void NAME##_k(const TS *restrict a, TO *restrict o, int64_t n)    \
    {                                                                               \
        int64_t nb = n & ~(int64_t)15, i = 0;                                       \
        for (; i < nb; i++)                                                         \
            o[i] = CONV(a[i]);                                                      \
        for (; i < n; i++)                                                          \
            o[i] = CONV(a[i]);                                                      \
    }                                                                               \
    static void NAME(const char *const *in, char *out, int64_t n)                   \
    {                                                                               \
        NAME##_k((const TS *)in[0], (TO *)out, n);                                  \
    }
#define TO_F(v) ((float)(v))
#define TO_D(v) ((double)(v))
#define NONZERO(v) ((uint8_t)((v) != 0))
CAST_LOOP(cast_f_d, float, double, TO_D)
CAST_LOOP(cast_d_f, double, float, d2f)
CAST_LOOP(cast_h_f, uint16_t, float, h2f_quiet)
CAST_LOOP(cast_f_h, float, uint16_t, eh_blas_f2h)
CAST_LOOP(cast_i_f, int32_t, float, TO_F)
CAST_LOOP(cast_i_d, int32_t, double, TO_D)
CAST_LOOP(cast_l_f, int64_t, float, TO_F)
CAST_LOOP(cast_l_d, int64_t, double, TO_D)
CAST_LOOP(cast_b_f, uint8_t, float, TO_F)
CAST_LOOP(cast_b_d, uint8_t, double, TO_D)
CAST_LOOP(cast_i_l, int32_t, int64_t, (int64_t))
CAST_LOOP(cast_b_i, uint8_t, int32_t, (int32_t))
CAST_LOOP(cast_b_l, uint8_t, int64_t, (int64_t))
CAST_LOOP(cast_f_b, float, uint8_t, NONZERO)
CAST_LOOP(cast_d_b, double, uint8_t, NONZERO)
CAST_LOOP(cast_i_b, int32_t, uint8_t, NONZERO)
CAST_LOOP(cast_l_b, int64_t, uint8_t, NONZERO)

static ew_loop cast_loop(eh_dtype from, eh_dtype to)
{
#define PAIR(a, b) ((a) * EH_DTYPE_COUNT + (b))
    switch (PAIR(from, to)) {
    case PAIR(EH_F32, EH_F64): return cast_f_d;
    case PAIR(EH_F64, EH_F32): return cast_d_f;
    case PAIR(EH_F16, EH_F32): return cast_h_f;
    case PAIR(EH_F32, EH_F16): return cast_f_h;
    case PAIR(EH_I32, EH_F32): return cast_i_f;
    case PAIR(EH_I32, EH_F64): return cast_i_d;
    case PAIR(EH_I64, EH_F32): return cast_l_f;
    case PAIR(EH_I64, EH_F64): return cast_l_d;
    case PAIR(EH_BOOL, EH_F32): return cast_b_f;
    case PAIR(EH_BOOL, EH_F64): return cast_b_d;
    case PAIR(EH_I32, EH_I64): return cast_i_l;
    case PAIR(EH_BOOL, EH_I32): return cast_b_i;
    case PAIR(EH_BOOL, EH_I64): return cast_b_l;
    case PAIR(EH_F32, EH_BOOL): return cast_f_b;
    case PAIR(EH_F64, EH_BOOL): return cast_d_b;
    case PAIR(EH_I32, EH_BOOL): return cast_i_b;
    case PAIR(EH_I64, EH_BOOL): return cast_l_b;
    default: return NULL;
    }
#undef PAIR
}

typedef struct {
    const eh_op_call *c;
    ew_loop loop;   /* NULL: ref's kernel on slices */
    size_t isz, osz;
} cast_job;

static void cast_range(void *ctx, int64_t begin, int64_t end, int worker)
{
    (void)worker;
    const cast_job *j = ctx;
    const eh_tensor *x = j->c->in[0];
    eh_tensor *out = j->c->out[0];
    const char *src = (const char *)x->data + (size_t)begin * j->isz;
    char *dst = (char *)out->data + (size_t)begin * j->osz;
    int64_t n = end - begin;
    if (j->loop) {
        const char *in[1] = {src};
        j->loop(in, dst, n);
        return;
    }
    if (x->dtype == out->dtype) {
        memcpy(dst, src, (size_t)n * j->isz);
        return;
    }
    eh_tensor vx, vo;
    eh_blas_view(&vx, (void *)src, x->dtype, 1, &n);
    eh_blas_view(&vo, dst, out->dtype, 1, &n);
    const eh_tensor *vin[1] = {&vx};
    eh_tensor *vout[1] = {&vo};
    eh_op_call sub = *j->c;
    sub.in = vin;
    sub.out = vout;
    (void)eh_ref_cast(&sub); /* cannot fail */
}

eh_status eh_blas_cast(const eh_op_call *c)
{
    const eh_tensor *x = c->in[0];
    eh_tensor *out = c->out[0];
    if (out->size == 0)
        return EH_OK;
    cast_job j = {c, cast_loop(x->dtype, out->dtype), eh_dtype_size(x->dtype),
                  eh_dtype_size(out->dtype)};
    int64_t grain = j.loop || x->dtype == out->dtype ? EH_BLAS_GRAIN_CHEAP : EH_BLAS_GRAIN_HEAVY;
    eh_parallel_for(out->size, grain, cast_range, &j);
    return EH_OK;
}
