/* <eh/elementwise.h> -- elementwise ops, declared from libeh/ops.def.
 *
 * For every UNARY op:   eh_tensor *eh_<op>(const eh_tensor *x);
 * For every BINARY op:  eh_tensor *eh_<op>(const eh_tensor *a, const eh_tensor *b);
 *                       eh_tensor *eh_<op>_scalar(const eh_tensor *a, double b);  a op b
 *                       eh_tensor *eh_scalar_<op>(double a, const eh_tensor *b);  a op b
 * For every TERNARY op: eh_tensor *eh_<op>(const eh_tensor *a, const eh_tensor *b,
 *                                          const eh_tensor *c);
 *   where(cond, x, y): x where cond is true, else y.
 *   clip(x, lo, hi):   min(max(x, lo), hi); NaN in x stays NaN.
 *
 * Operands broadcast (NumPy rules) and promote (docs/promotion.md).  A
 * scalar operand takes the tensor's dtype when the value fits that kind
 * (an integral value with an integer tensor, any value with a float
 * tensor); otherwise the result is f64.  Comparisons, logical ops and
 * isnan/isinf/isfinite return EH_BOOL.  Float-valued ops (sqrt, exp,
 * divide, ...) on integer or bool inputs compute in f64.  Integer
 * overflow wraps (two's complement); integer division or mod by zero
 * gives 0 (docs/semantics.md). */
#ifndef EH_ELEMENTWISE_H
#define EH_ELEMENTWISE_H

#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

#define EH_DECLARE_UNARY(name) EH_API eh_tensor *eh_##name(const eh_tensor *x);
#define EH_DECLARE_BINARY(name)                                                    \
    EH_API eh_tensor *eh_##name(const eh_tensor *a, const eh_tensor *b);           \
    EH_API eh_tensor *eh_##name##_scalar(const eh_tensor *a, double b);            \
    EH_API eh_tensor *eh_scalar_##name(double a, const eh_tensor *b);
#define EH_DECLARE_TERNARY(name)                                                   \
    EH_API eh_tensor *eh_##name(const eh_tensor *a, const eh_tensor *b,            \
                                const eh_tensor *c);
#define EH_DECLARE_CREATION(name)
#define EH_DECLARE_SHAPE(name)
#define EH_DECLARE_REDUCTION(name)
#define EH_DECLARE_LINALG(name)
#define EH_DECLARE_SIGNAL(name)
#define EH_DECLARE_RANDOM(name)
#define EH_DECLARE_CONVERT(name)
#define EH_DECLARE_META(name)
#define EH_OP(name, kind, n_in) EH_DECLARE_##kind(name)
#include "ops.def"
#undef EH_DECLARE_UNARY
#undef EH_DECLARE_BINARY
#undef EH_DECLARE_TERNARY
#undef EH_DECLARE_CREATION
#undef EH_DECLARE_SHAPE
#undef EH_DECLARE_REDUCTION
#undef EH_DECLARE_LINALG
#undef EH_DECLARE_SIGNAL
#undef EH_DECLARE_RANDOM
#undef EH_DECLARE_CONVERT
#undef EH_DECLARE_META

/* clip with scalar bounds. */
EH_API eh_tensor *eh_clip_scalar(const eh_tensor *x, double lo, double hi);

#ifdef __cplusplus
}
#endif
#endif
