/* backends/blas/blas.h -- the `blas` backend's kernels and shared helpers.
 *
 * `blas` computes what `ref` computes (docs/semantics.md and the pages in docs/ops/),
 * faster: OpenBLAS/LAPACKE for the matrix ops, FFTW3 for the transforms,
 * vectorizable loops split across threads (eh_parallel_for) for the
 * elementwise ops, reductions and random ops.  Where it has nothing faster
 * its table (table.h) points at ref's kernel.  docs/backends/blas.md has
 * the whole story. */
#ifndef EH_BLAS_H
#define EH_BLAS_H

#include <math.h>
#include <string.h>
#include <eh/backend_api.h>
#include <eh/backend_f16.h>

/* ---- kernels -------------------------------------------------------------- */

#define EH_BLAS_DECLARE(name) eh_status eh_blas_##name(const eh_op_call *call);

/* elementwise.c */
EH_BLAS_DECLARE(negative) EH_BLAS_DECLARE(abs) EH_BLAS_DECLARE(sign) EH_BLAS_DECLARE(square)
EH_BLAS_DECLARE(sqrt) EH_BLAS_DECLARE(exp) EH_BLAS_DECLARE(log) EH_BLAS_DECLARE(log1p)
EH_BLAS_DECLARE(expm1) EH_BLAS_DECLARE(sin) EH_BLAS_DECLARE(cos) EH_BLAS_DECLARE(tan)
EH_BLAS_DECLARE(tanh) EH_BLAS_DECLARE(sigmoid) EH_BLAS_DECLARE(relu) EH_BLAS_DECLARE(softplus)
EH_BLAS_DECLARE(erf) EH_BLAS_DECLARE(floor) EH_BLAS_DECLARE(ceil) EH_BLAS_DECLARE(round)
EH_BLAS_DECLARE(reciprocal)
EH_BLAS_DECLARE(add) EH_BLAS_DECLARE(subtract) EH_BLAS_DECLARE(multiply) EH_BLAS_DECLARE(divide)
EH_BLAS_DECLARE(floor_divide) EH_BLAS_DECLARE(mod) EH_BLAS_DECLARE(power)
EH_BLAS_DECLARE(maximum) EH_BLAS_DECLARE(minimum) EH_BLAS_DECLARE(atan2)
EH_BLAS_DECLARE(equal) EH_BLAS_DECLARE(not_equal) EH_BLAS_DECLARE(less)
EH_BLAS_DECLARE(less_equal) EH_BLAS_DECLARE(greater) EH_BLAS_DECLARE(greater_equal)
EH_BLAS_DECLARE(logical_and) EH_BLAS_DECLARE(logical_or) EH_BLAS_DECLARE(logical_xor)
EH_BLAS_DECLARE(logical_not) EH_BLAS_DECLARE(isnan) EH_BLAS_DECLARE(isinf)
EH_BLAS_DECLARE(isfinite) EH_BLAS_DECLARE(clip) EH_BLAS_DECLARE(where)
EH_BLAS_DECLARE(cast)

/* reduction.c */
EH_BLAS_DECLARE(sum) EH_BLAS_DECLARE(mean) EH_BLAS_DECLARE(prod) EH_BLAS_DECLARE(max)
EH_BLAS_DECLARE(min) EH_BLAS_DECLARE(var) EH_BLAS_DECLARE(std) EH_BLAS_DECLARE(argmax)
EH_BLAS_DECLARE(argmin) EH_BLAS_DECLARE(cumsum) EH_BLAS_DECLARE(cumprod)
EH_BLAS_DECLARE(logsumexp) EH_BLAS_DECLARE(softmax) EH_BLAS_DECLARE(log_softmax)
EH_BLAS_DECLARE(norm) EH_BLAS_DECLARE(allclose)

/* linalg.c (OpenBLAS) and decomp.c (LAPACKE) */
EH_BLAS_DECLARE(matmul) EH_BLAS_DECLARE(dot) EH_BLAS_DECLARE(outer)
EH_BLAS_DECLARE(solve) EH_BLAS_DECLARE(inv) EH_BLAS_DECLARE(det) EH_BLAS_DECLARE(cholesky)
EH_BLAS_DECLARE(qr) EH_BLAS_DECLARE(svd) EH_BLAS_DECLARE(eigh) EH_BLAS_DECLARE(lstsq)

/* fft.c (FFTW3) */
EH_BLAS_DECLARE(rfft) EH_BLAS_DECLARE(irfft) EH_BLAS_DECLARE(stft)

/* random.c */
EH_BLAS_DECLARE(random_uniform) EH_BLAS_DECLARE(random_normal)
EH_BLAS_DECLARE(random_bernoulli) EH_BLAS_DECLARE(random_poisson)
EH_BLAS_DECLARE(random_exponential) EH_BLAS_DECLARE(random_gamma)
EH_BLAS_DECLARE(random_binomial) EH_BLAS_DECLARE(random_categorical)
EH_BLAS_DECLARE(random_permutation) EH_BLAS_DECLARE(random_randint)

#undef EH_BLAS_DECLARE

/* ---- shared helpers --------------------------------------------------------- */

/* Tell OpenBLAS to use eh_num_threads() threads (once per process).  Every
 * kernel that calls OpenBLAS or LAPACKE calls this first. */
void eh_blas_openblas_init(void);

/* Minimum items per thread chunk: below this an op runs inline on the
 * calling thread.  CHEAP for ops of a few cycles per element (memory
 * bound), HEAVY for libm calls and f16 conversions. */
#define EH_BLAS_GRAIN_CHEAP ((int64_t)1 << 15)
#define EH_BLAS_GRAIN_HEAVY ((int64_t)1 << 12)

/* IEEE binary16 <-> binary32: libeh's own conversions (<eh/backend_f16.h>),
 * inlined so that loops over f16 data do not make a function call per
 * element.  Short names for the loops that use them. */
static inline float eh_blas_h2f(uint16_t h) { return eh_f16_to_f32_inline(h); }
static inline uint16_t eh_blas_f2h(float f) { return eh_f32_to_f16_inline(f); }

/* A tensor header describing `size` elements of `dtype` at `data`, shaped
 * (ndim, shape): a window into another tensor's storage, for running a ref
 * kernel on part of a call.  Never refcounted, never freed. */
static inline void eh_blas_view(eh_tensor *v, void *data, eh_dtype dtype, int ndim,
                                const int64_t *shape)
{
    memset(v, 0, sizeof *v);
    v->dtype = dtype;
    v->ndim = ndim;
    v->size = 1;
    for (int d = 0; d < ndim; d++) {
        v->shape[d] = shape[d];
        v->size *= shape[d];
    }
    v->nbytes = (size_t)v->size * eh_dtype_size(dtype);
    v->data = data;
}

#endif
