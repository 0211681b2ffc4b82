/* backends/blas/vecmath.h -- vectorized math for the blas backend (and so
 * for lazy's fused blocks, which run blas's kernels).
 *
 * SLEEF's 1.0-ulp vector functions (the library PyTorch's CPU kernels
 * use), compiled once per instruction set (backends/blas/simd/vecmath.c,
 * built for SSE2, AVX2 and AVX-512) and chosen at run time by
 * eh_isa_level().  Each op's bound against ref (libm) is in
 * docs/ops/elementwise.md and tests/conformance/tolerances.def; special
 * values (NaN, +-inf, +-0, subnormal inputs) give exactly ref's results.
 * sqrt is the hardware instruction: correctly rounded, so exact. */
#ifndef EH_BLAS_VECMATH_H
#define EH_BLAS_VECMATH_H

#include <stdint.h>
#include <eh/backend_api.h>

/* The unary ops with a vector kernel (f32 and f64). */
#define EH_BLAS_VM_UNARY(X) \
    X(sqrt) X(exp) X(expm1) X(log) X(log1p) X(sin) X(cos) X(tan) X(tanh) X(sigmoid) \
    X(softplus) X(erf)
/* The binary ops with a vector kernel. */
#define EH_BLAS_VM_BINARY(X) X(power) X(atan2)
/* Exact IEEE arithmetic (f32, f64), here only so that it runs at the
 * machine's vector width too (elementwise.c's own loops are compiled for
 * the SSE2 baseline): the same bits as ref's on every instruction set. */
#define EH_BLAS_VM_ARITH(X) X(add) X(subtract) X(multiply) X(divide)
#define EH_BLAS_VM_EXACT_UNARY(X) X(abs)

typedef void (*eh_blas_vm_f1)(const float *a, float *o, int64_t n);
typedef void (*eh_blas_vm_d1)(const double *a, double *o, int64_t n);
typedef void (*eh_blas_vm_f2)(const float *a, const float *b, float *o, int64_t n);
typedef void (*eh_blas_vm_d2)(const double *a, const double *b, double *o, int64_t n);

/* Binary layouts: both operands contiguous, the first a broadcast scalar,
 * the second a broadcast scalar (elementwise.c's masks 0, 1, 2). */
enum { EH_BLAS_VM_VV, EH_BLAS_VM_SV, EH_BLAS_VM_VS };

typedef struct eh_blas_vm {
    eh_isa isa;
#define EH_BLAS_VM_U(op) eh_blas_vm_f1 op##_f; eh_blas_vm_d1 op##_d;
    EH_BLAS_VM_UNARY(EH_BLAS_VM_U)
    EH_BLAS_VM_EXACT_UNARY(EH_BLAS_VM_U)
#undef EH_BLAS_VM_U
#define EH_BLAS_VM_B(op) eh_blas_vm_f2 op##_f[3]; eh_blas_vm_d2 op##_d[3];
    EH_BLAS_VM_BINARY(EH_BLAS_VM_B)
    EH_BLAS_VM_ARITH(EH_BLAS_VM_B)
#undef EH_BLAS_VM_B
    /* exp(x[i] - shift) into o (f64: o may be NULL), and their sum in
     * double (softmax, log_softmax) */
    double (*exp_shift_sum_f)(const float *x, float shift, float *o, int64_t n);
    double (*exp_shift_sum_d)(const double *x, double shift, double *o, int64_t n);
    /* the same with exp in float (x - shift rounded to float once, SLEEF's
     * 1.0-ulp expf), summed in double; o may be NULL (log_softmax needs
     * the sum only) */
    double (*expf_shift_sum_f)(const float *x, float shift, float *o, int64_t n);
} eh_blas_vm;

/* Reduction loops (simd/reduce.c).  A wide-row Neumaier pass: rows x w
 * values (row stride ld) into the column pairs s, c; b is scratch. */
typedef void (*eh_blas_wide_nsum_fn)(const void *x, int64_t ld, int64_t rows, int64_t w,
                                     const double *p, double *s, double *c, double *b);
/* The index of the first NaN (*nan = 1), else of the first maximum or
 * minimum, of n >= 1 contiguous values (f32: n < 2^31). */
typedef struct eh_blas_ext_fns {
    int64_t (*argmax_f)(const float *x, int64_t n, int *nan);
    int64_t (*argmin_f)(const float *x, int64_t n, int *nan);
    int64_t (*argmax_d)(const double *x, int64_t n, int *nan);
    int64_t (*argmin_d)(const double *x, int64_t n, int *nan);
    /* softmax (log_form 0) or log_softmax (1) of one row of n >= 1 values
     * into o (f32: n < 2^31) */
    void (*softmax_f)(const float *x, float *o, int64_t n, int log_form);
    void (*softmax_d)(const double *x, double *o, int64_t n, int log_form);
} eh_blas_ext_fns;

/* One table per instruction set (simd/vecmath.c, simd/reduce.c). */
#define EH_BLAS_ISA_TABLES(isa)                                                     \
    extern const eh_blas_vm eh_blas_vm_##isa;                                       \
    extern const eh_blas_wide_nsum_fn eh_blas_wide_nsum_##isa[5][3];                \
    extern const eh_blas_ext_fns eh_blas_ext_##isa;
EH_BLAS_ISA_TABLES(sse2)
#if defined(__x86_64__)
EH_BLAS_ISA_TABLES(avx2)
EH_BLAS_ISA_TABLES(avx512)
/* x the table of the instruction set kernels use now */
#define EH_BLAS_PICK(x)                                                             \
    switch (eh_isa_level()) {                                                       \
    case EH_ISA_AVX512: return x##avx512;                                           \
    case EH_ISA_AVX2: return x##avx2;                                               \
    default: return x##sse2;                                                        \
    }
#else
#define EH_BLAS_PICK(x) return x##sse2;
#endif

static inline const eh_blas_vm *eh_blas_vm_current(void) { EH_BLAS_PICK(&eh_blas_vm_) }
/* [pass][f16, f32, f64] */
static inline const eh_blas_wide_nsum_fn (*eh_blas_wide_nsum_current(void))[3]
{
    EH_BLAS_PICK(eh_blas_wide_nsum_)
}
static inline const eh_blas_ext_fns *eh_blas_ext_current(void) { EH_BLAS_PICK(&eh_blas_ext_) }

#endif
