/* Frontend of the elementwise ops (UNARY, BINARY, TERNARY in ops.def).
 *
 * Each op validates its operands, decides a compute dtype and an output
 * dtype from the rules below, casts operands to the compute dtype, and
 * dispatches.  Kernels therefore see every input in the compute dtype and
 * the output already shaped (the NumPy broadcast of the inputs).
 *
 * The contract a backend implements (docs/ops/elementwise.md has the
 * semantics of each op):
 *   eh_op_call.p      unused by every op here (all zero).
 *   in[0..n_in-1]     unary: x; binary: a, b; where: cond, x, y; clip: x, lo,
 *                     hi.  Broadcast-compatible with out[0], not expanded:
 *                     a kernel broadcasts them itself (eh_broadcast_strides).
 *   input dtypes      all equal to the compute dtype below, except where's
 *                     cond, which is always EH_BOOL.
 *   out[0]            shape = broadcast of the inputs, dtype = output dtype.
 *
 * Dtype rules (docs/promotion.md):
 *   SAME       negative abs sign square relu floor ceil round: input dtype; bool is an error
 *   FLOAT      sqrt exp log log1p expm1 sin cos tan tanh sigmoid softplus erf
 *              reciprocal, divide atan2: float dtype of the (promoted) input, ints -> f64
 *   TEST       isnan isinf isfinite: compute in the input dtype, bool out
 *   LOGICAL    logical_*: inputs cast to bool, bool out
 *   ARITH      add subtract multiply floor_divide mod power: promoted dtype, bool -> i64
 *   SELECT     maximum minimum: promoted dtype
 *   COMPARE    equal ... greater_equal: compare in the promoted dtype, bool out
 *   where      cond cast to bool, x and y promoted; out has the promoted dtype
 *   clip       x, lo and hi promoted; out has the promoted dtype
 *
 * Scalar forms (eh_<op>_scalar, eh_scalar_<op>, eh_clip_scalar) make a 0-d
 * tensor of the scalar's dtype (scalar_dtype below) and run the tensor op,
 * so backends see no separate scalar calls. */
#include <math.h>
#include "internal.h"

typedef enum { RULE_SAME, RULE_FLOAT, RULE_TEST, RULE_LOGICAL, RULE_ARITH,
               RULE_SELECT, RULE_COMPARE } dtype_rule;

static dtype_rule rule_of(eh_op op)
{
    switch (op) {
    case EH_OP_negative: case EH_OP_abs: case EH_OP_sign: case EH_OP_square:
    case EH_OP_relu: case EH_OP_floor: case EH_OP_ceil: case EH_OP_round:
        return RULE_SAME;
    case EH_OP_isnan: case EH_OP_isinf: case EH_OP_isfinite:
        return RULE_TEST;
    case EH_OP_logical_not: case EH_OP_logical_and: case EH_OP_logical_or:
    case EH_OP_logical_xor:
        return RULE_LOGICAL;
    case EH_OP_add: case EH_OP_subtract: case EH_OP_multiply: case EH_OP_floor_divide:
    case EH_OP_mod: case EH_OP_power:
        return RULE_ARITH;
    case EH_OP_maximum: case EH_OP_minimum:
        return RULE_SELECT;
    case EH_OP_equal: case EH_OP_not_equal: case EH_OP_less: case EH_OP_less_equal:
    case EH_OP_greater: case EH_OP_greater_equal:
        return RULE_COMPARE;
    default:
        return RULE_FLOAT;
    }
}

/* Compute and output dtypes for an op whose operands promote to `in`. */
static eh_status pick_dtypes(eh_op op, eh_dtype in, eh_dtype *compute, eh_dtype *out)
{
    switch (rule_of(op)) {
    case RULE_SAME:
        if (in == EH_BOOL)
            return eh_set_error(EH_ERR_DTYPE, "%s: not defined for bool; cast to an integer first",
                                eh_op_name(op));
        *compute = *out = in;
        return EH_OK;
    case RULE_FLOAT: *compute = *out = eh__float_dtype(in); return EH_OK;
    case RULE_TEST: *compute = in; *out = EH_BOOL; return EH_OK;
    case RULE_LOGICAL: *compute = *out = EH_BOOL; return EH_OK;
    case RULE_ARITH: *compute = *out = in == EH_BOOL ? EH_I64 : in; return EH_OK;
    case RULE_SELECT: *compute = *out = in; return EH_OK;
    case RULE_COMPARE: *compute = in; *out = EH_BOOL; return EH_OK;
    }
    return eh_set_error(EH_ERR_INTERNAL, "%s: no dtype rule", eh_op_name(op));
}

/* Cast n operands to their compute dtypes, broadcast, run.  The converted
 * operands are internal references (eh__as_dtype), dropped with
 * eh_tensor_unref so an input owned by a scope stays owned by it. */
static eh_tensor *run_elementwise(eh_op op, const char *name, int n,
                                  const eh_tensor *const *ops, const eh_dtype *in_dtypes,
                                  eh_dtype out_dtype)
{
    int ndim;
    int64_t shape[EH_MAX_DIMS];
    if (eh__broadcast_shapes(name, n, ops, &ndim, shape) != EH_OK) {
        if (n == 3) /* name all three shapes, not a partial broadcast */
            eh_set_error(EH_ERR_SHAPE, "%s: shapes %s, %s and %s cannot be broadcast together",
                         name, eh_shape_str(ops[0]->ndim, ops[0]->shape),
                         eh_shape_str(ops[1]->ndim, ops[1]->shape),
                         eh_shape_str(ops[2]->ndim, ops[2]->shape));
        return NULL;
    }
    /* Operands already in their compute dtype are passed as they are: no
     * reference traffic on the common path. */
    eh_tensor *cast[3] = {NULL, NULL, NULL};
    const eh_tensor *in[3] = {NULL, NULL, NULL};
    eh_tensor *out = NULL;
    int ok = 1;
    for (int k = 0; k < n && ok; k++) {
        if (ops[k]->dtype != in_dtypes[k])
            ok = (cast[k] = eh__as_dtype(ops[k], in_dtypes[k])) != NULL;
        in[k] = cast[k] ? cast[k] : ops[k];
    }
    if (ok) {
        eh_op_call call = eh__call(op, n, in);
        out = eh__run(&call, ndim, shape, out_dtype);
    }
    for (int k = 0; k < n; k++)
        eh_tensor_unref(cast[k]);
    return out;
}

static eh_tensor *unary(eh_op op, const eh_tensor *x)
{
    eh_dtype compute, out;
    if (!eh__require(eh_op_name(op), x, "x"))
        return NULL;
    /* clip takes x, lo and hi.  Should ops.def list it as UNARY, the
     * generated one-argument eh_clip(x) has no bounds to give the 3-input
     * kernel: refuse it rather than dispatch a malformed call. */
    if (op == EH_OP_clip) {
        eh_set_error(EH_ERR_INVALID_ARG, "clip: needs bounds: use eh_clip_scalar(x, lo, hi)"
                                         " (ops.def must list clip as TERNARY)");
        return NULL;
    }
    if (pick_dtypes(op, x->dtype, &compute, &out) != EH_OK)
        return NULL;
    const eh_tensor *ops[1] = {x};
    return run_elementwise(op, eh_op_name(op), 1, ops, &compute, out);
}

static eh_tensor *binary(eh_op op, const eh_tensor *a, const eh_tensor *b)
{
    const char *name = eh_op_name(op);
    eh_dtype promoted, compute, out;
    if (!eh__require(name, a, "a") || !eh__require(name, b, "b"))
        return NULL;
    if (eh_result_type(a->dtype, b->dtype, &promoted) != EH_OK ||
        pick_dtypes(op, promoted, &compute, &out) != EH_OK)
        return NULL;
    const eh_tensor *ops[2] = {a, b};
    const eh_dtype in[2] = {compute, compute};
    return run_elementwise(op, name, 2, ops, in, out);
}

static eh_tensor *where(const eh_tensor *cond, const eh_tensor *x, const eh_tensor *y)
{
    eh_dtype promoted;
    if (!eh__require("where", cond, "cond") || !eh__require("where", x, "x") ||
        !eh__require("where", y, "y") || eh_result_type(x->dtype, y->dtype, &promoted) != EH_OK)
        return NULL;
    const eh_tensor *ops[3] = {cond, x, y};
    const eh_dtype in[3] = {EH_BOOL, promoted, promoted};
    return run_elementwise(EH_OP_where, "where", 3, ops, in, promoted);
}

static eh_tensor *clip(const eh_tensor *x, const eh_tensor *lo, const eh_tensor *hi)
{
    eh_dtype p1, promoted;
    if (!eh__require("clip", x, "x") || !eh__require("clip", lo, "lo") ||
        !eh__require("clip", hi, "hi") || eh_result_type(x->dtype, lo->dtype, &p1) != EH_OK ||
        eh_result_type(p1, hi->dtype, &promoted) != EH_OK)
        return NULL;
    const eh_tensor *ops[3] = {x, lo, hi};
    const eh_dtype in[3] = {promoted, promoted, promoted};
    return run_elementwise(EH_OP_clip, "clip", 3, ops, in, promoted);
}

/* The dtype a scalar operand takes next to a tensor of dtype `t`: the
 * tensor's own when the value fits that kind, else the narrowest that
 * holds it (docs/promotion.md).  An integral value outside the i64 range
 * is f64: saturating it to INT64_MIN/MAX would change the answer. */
static eh_dtype scalar_dtype(eh_dtype t, double v)
{
    if (eh_dtype_is_float(t))
        return t;
    int integral = isfinite(v) && v == nearbyint(v);
    if (!integral || v < -9223372036854775808.0 || v >= 9223372036854775808.0)
        return EH_F64;
    if (t == EH_I32 && v >= INT32_MIN && v <= INT32_MAX)
        return EH_I32;
    if (t == EH_BOOL && (v == 0.0 || v == 1.0))
        return EH_BOOL;
    return EH_I64;
}

/* The 0-d operand for scalar v next to tensor t, owned by the caller (not
 * by a scope: a deferring backend may hold it after the scope ends) and
 * dropped with eh_tensor_unref.  `arg` names t in a NULL_ARG message. */
static eh_tensor *scalar_operand(const char *op, const eh_tensor *t, const char *arg, double v)
{
    if (!eh__require(op, t, arg))
        return NULL;
    return eh__own(eh_scalar(v, scalar_dtype(t->dtype, v)));
}

static eh_tensor *binary_scalar(eh_op op, const eh_tensor *a, double b, int scalar_first)
{
    eh_tensor *s = scalar_operand(eh_op_name(op), a, scalar_first ? "b" : "a", b);
    if (!s)
        return NULL;
    eh_tensor *r = scalar_first ? binary(op, s, a) : binary(op, a, s);
    eh_tensor_unref(s);
    return r;
}

#define DEFINE_UNARY(name) \
    eh_tensor *eh_##name(const eh_tensor *x) { return unary(EH_OP_##name, x); }
#define DEFINE_BINARY(name)                                                              \
    eh_tensor *eh_##name(const eh_tensor *a, const eh_tensor *b)                         \
    { return binary(EH_OP_##name, a, b); }                                               \
    eh_tensor *eh_##name##_scalar(const eh_tensor *a, double b)                          \
    { return binary_scalar(EH_OP_##name, a, b, 0); }                                     \
    eh_tensor *eh_scalar_##name(double a, const eh_tensor *b)                            \
    { return binary_scalar(EH_OP_##name, b, a, 1); }
#define DEFINE_TERNARY(name)                                                             \
    eh_tensor *eh_##name(const eh_tensor *a, const eh_tensor *b, const eh_tensor *c)     \
    { return name(a, b, c); }
#define DEFINE_NOTHING(name)
#define DEFINE_CREATION DEFINE_NOTHING
#define DEFINE_SHAPE DEFINE_NOTHING
#define DEFINE_REDUCTION DEFINE_NOTHING
#define DEFINE_LINALG DEFINE_NOTHING
#define DEFINE_SIGNAL DEFINE_NOTHING
#define DEFINE_RANDOM DEFINE_NOTHING
#define DEFINE_CONVERT DEFINE_NOTHING
#define DEFINE_META DEFINE_NOTHING
#define EH_OP(name, kind, n_in) DEFINE_##kind(name)
#include <eh/ops.def>

eh_tensor *eh_clip_scalar(const eh_tensor *x, double lo, double hi)
{
    eh_tensor *l = scalar_operand("clip", x, "x", lo);
    eh_tensor *h = l ? scalar_operand("clip", x, "x", hi) : NULL;
    eh_tensor *r = h ? clip(x, l, h) : NULL;
    eh_tensor_unref(l);
    eh_tensor_unref(h);
    return r;
}
