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
#undef EH_BLAS_VM_U
#define EH_BLAS_VM_B(op) eh_blas_vm_f2 op##_f[3]; eh_blas_vm_d2 op##_d[3];
    EH_BLAS_VM_BINARY(EH_BLAS_VM_B)
#undef EH_BLAS_VM_B
    /* exp(x[i] - shift) into o, and their sum in double (softmax) */
    double (*exp_shift_sum_f)(const float *x, float shift, float *o, int64_t n);
    double (*exp_shift_sum_d)(const double *x, double shift, double *o, int64_t n);
} eh_blas_vm;

/* One table per instruction set (simd/vecmath.c). */
extern const eh_blas_vm eh_blas_vm_sse2;
#if defined(__x86_64__)
extern const eh_blas_vm eh_blas_vm_avx2;
extern const eh_blas_vm eh_blas_vm_avx512;
#endif

/* The table for eh_isa_level(). */
static inline const eh_blas_vm *eh_blas_vm_current(void)
{
#if defined(__x86_64__)
    switch (eh_isa_level()) {
    case EH_ISA_AVX512: return &eh_blas_vm_avx512;
    case EH_ISA_AVX2: return &eh_blas_vm_avx2;
    default: break;
    }
#endif
    return &eh_blas_vm_sse2;
}

#endif
