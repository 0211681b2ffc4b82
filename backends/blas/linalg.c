/* blas kernels: matmul, dot, outer.
 *
 * f32 and f64 products go to OpenBLAS: cblas_?gemm for matrix x matrix,
 * cblas_?gemv when one side is a vector, cblas_?dot for vector . vector.
 * OpenBLAS runs its own threads (set to eh_num_threads() once, see
 * backend.c); these kernels never call it from inside eh_parallel_for, so
 * the two pools do not oversubscribe the cores.  Results differ from ref's
 * (row-by-row, in order) by rounding: OpenBLAS blocks the sums and uses
 * FMA.  f16, integer and bool products have no BLAS routine and run ref's
 * kernel (eh_ref_matmul, eh_ref_dot), as do products with a dimension or
 * leading dimension beyond the int range of the BLAS interface.
 *
 * outer is one multiply per output element: a threaded, vectorizable
 * loop over every dtype, bit-identical to ref (BLAS ?ger would first need
 * the output zeroed, a second pass over memory, for nothing).
 *
 * The parameter contract is in libeh/src/ops_linalg.c. */
#include <limits.h>
#include <cblas.h>
#include "blas.h"
#include "../ref/linalg_kernels.h"

static int fits_int(int64_t v) { return v >= 0 && v <= INT_MAX; }

/* C (rows x cols, row stride ldc) = A (rows x inner, stride lda) B (inner x
 * cols, stride ldb), f32 or f64.  inner >= 1. */
static void gemm(eh_dtype dt, int64_t rows, int64_t cols, int64_t inner, const void *A,
                 int64_t lda, const void *B, int64_t ldb, void *C, int64_t ldc)
{
    int M = (int)rows, N = (int)cols, K = (int)inner;
    if (dt == EH_F32) {
        const float *a = A, *b = B;
        float *c = C;
        if (M == 1 && N == 1)
            c[0] = cblas_sdot(K, a, 1, b, (int)ldb);
        else if (M == 1)
            cblas_sgemv(CblasRowMajor, CblasTrans, K, N, 1.0f, b, (int)ldb, a, 1, 0.0f, c, 1);
        else if (N == 1)
            cblas_sgemv(CblasRowMajor, CblasNoTrans, M, K, 1.0f, a, (int)lda, b, (int)ldb, 0.0f,
                        c, (int)ldc);
        else
            cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, M, N, K, 1.0f, a, (int)lda, b,
                        (int)ldb, 0.0f, c, (int)ldc);
    } else {
        const double *a = A, *b = B;
        double *c = C;
        if (M == 1 && N == 1)
            c[0] = cblas_ddot(K, a, 1, b, (int)ldb);
        else if (M == 1)
            cblas_dgemv(CblasRowMajor, CblasTrans, K, N, 1.0, b, (int)ldb, a, 1, 0.0, c, 1);
        else if (N == 1)
            cblas_dgemv(CblasRowMajor, CblasNoTrans, M, K, 1.0, a, (int)lda, b, (int)ldb, 0.0, c,
                        (int)ldc);
        else
            cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, M, N, K, 1.0, a, (int)lda, b,
                        (int)ldb, 0.0, c, (int)ldc);
    }
}

eh_status eh_blas_matmul(const eh_op_call *call)
{
    const eh_tensor *a = call->in[0], *b = call->in[1];
    eh_tensor *out = call->out[0];
    eh_dtype dt = a->dtype;
    if (dt != EH_F32 && dt != EH_F64)
        return eh_ref_matmul(call);
    if (out->size == 0)
        return EH_OK;
    int64_t n = call->p.i[0], k = call->p.i[1], m = call->p.i[2];
    int bnd = (int)call->p.i[3];
    const int64_t *bshape = call->p.v;
    size_t esz = eh_dtype_size(dt);
    if (k == 0) {
        memset(out->data, 0, out->nbytes); /* empty sums */
        return EH_OK;
    }
    int64_t batch = 1;
    for (int d = 0; d < bnd; d++)
        batch *= bshape[d];
    int a_batched = a->ndim > 2, b_batched = b->ndim > 2;
    int64_t a_count = a_batched ? a->size / (n * k) : 1, b_count = b_batched ? b->size / (k * m) : 1;
    /* One matrix b under a full batch of a: the batch folds into the rows
     * of a single product (a's matrices are consecutive in batch order). */
    if (b_count == 1 && a_count == batch && a->ndim >= 2) {
        int64_t rows = batch * n;
        if (!fits_int(rows) || !fits_int(k) || !fits_int(m))
            return eh_ref_matmul(call);
        eh_blas_openblas_init();
        gemm(dt, rows, m, k, a->data, k, b->data, m, out->data, m);
        return EH_OK;
    }
    if (!fits_int(n) || !fits_int(k) || !fits_int(m))
        return eh_ref_matmul(call);
    eh_blas_openblas_init();
    int64_t sa[EH_MAX_DIMS], sb[EH_MAX_DIMS];
    eh_ref_batch_strides(a, a->ndim == 1 ? 0 : a->ndim - 2, n * k, bnd, bshape, sa);
    eh_ref_batch_strides(b, b->ndim == 1 ? 0 : b->ndim - 2, k * m, bnd, bshape, sb);
    eh_nd_iter it;
    eh_nd_iter_init(&it, bnd, bshape);
    char *c = out->data;
    do {
        const char *pa = (const char *)a->data + (size_t)eh_nd_iter_offset(&it, sa) * esz;
        const char *pb = (const char *)b->data + (size_t)eh_nd_iter_offset(&it, sb) * esz;
        gemm(dt, n, m, k, pa, k, pb, m, c, m);
        c += (size_t)(n * m) * esz;
    } while (eh_nd_iter_next(&it));
    return EH_OK;
}

eh_status eh_blas_dot(const eh_op_call *call)
{
    eh_tensor *out = call->out[0];
    eh_dtype dt = call->in[0]->dtype;
    if (dt != EH_F32 && dt != EH_F64)
        return eh_ref_dot(call);
    if (out->size == 0)
        return EH_OK;
    int64_t P = call->p.i[0], K = call->p.i[1], Q = call->p.i[2], M = call->p.i[3];
    if (K == 0) {
        memset(out->data, 0, out->nbytes);
        return EH_OK;
    }
    if (!fits_int(P) || !fits_int(K) || !fits_int(M) || !fits_int(Q * M))
        return eh_ref_dot(call);
    eh_blas_openblas_init();
    size_t esz = eh_dtype_size(dt);
    const char *A = call->in[0]->data, *B = call->in[1]->data;
    char *C = out->data;
    /* out[p, q, :] = A[p, :] . B[q]: one product per q, written with row
     * stride Q * M. */
    for (int64_t q = 0; q < Q; q++)
        gemm(dt, P, M, K, A, K, B + (size_t)(q * K * M) * esz, M, C + (size_t)(q * M) * esz, Q * M);
    return EH_OK;
}

/* ---- outer ---------------------------------------------------------------- */

#define OUTER_ROW(NAME, T, TC, LD, ST, MUL)                                         \
    static void NAME(const T *restrict b, T *restrict o, T ai, int64_t q)           \
    {                                                                               \
        TC x = LD(ai);                                                              \
        int64_t nb = q & ~(int64_t)15, j = 0;                                       \
        for (; j < nb; j++)                                                         \
            o[j] = ST(MUL(x, LD(b[j])));                                            \
        for (; j < q; j++)                                                          \
            o[j] = ST(MUL(x, LD(b[j])));                                            \
    }
#define LD_ID(v) (v)
#define ST_ID(v) (v)
#define ST_H(v) eh_blas_f2h(v)
/* ref accumulates onto a zero: 0 + x * y turns a -0.0 product into +0.0 */
#define MUL_F(x, y) (0.0f + (x) * (y))
#define MUL_D(x, y) (0.0 + (x) * (y))
#define MUL_I32(x, y) ((int32_t)((uint32_t)(x) * (uint32_t)(y)))
#define MUL_I64(x, y) ((int64_t)((uint64_t)(x) * (uint64_t)(y)))
OUTER_ROW(outer_f, float, float, LD_ID, ST_ID, MUL_F)
OUTER_ROW(outer_d, double, double, LD_ID, ST_ID, MUL_D)
OUTER_ROW(outer_i, int32_t, int32_t, LD_ID, ST_ID, MUL_I32)
OUTER_ROW(outer_l, int64_t, int64_t, LD_ID, ST_ID, MUL_I64)
OUTER_ROW(outer_h, uint16_t, float, eh_blas_h2f, ST_H, MUL_F)

/* ref's bool product: 0 | (a != 0 & (b != 0)). */
static void outer_b(const uint8_t *restrict b, uint8_t *restrict o, uint8_t ai, int64_t q)
{
    uint8_t x = ai != 0;
    for (int64_t j = 0; j < q; j++)
        o[j] = (uint8_t)(x & (b[j] != 0));
}

typedef struct {
    const eh_tensor *a, *b;
    eh_tensor *out;
} outer_job;

static void outer_rows(void *ctx, int64_t begin, int64_t end, int worker)
{
    (void)worker;
    const outer_job *j = ctx;
    int64_t q = j->b->size;
    for (int64_t i = begin; i < end; i++) {
        switch (j->a->dtype) {
        case EH_F32: outer_f(j->b->data, (float *)j->out->data + i * q, ((const float *)j->a->data)[i], q); break;
        case EH_F64: outer_d(j->b->data, (double *)j->out->data + i * q, ((const double *)j->a->data)[i], q); break;
        case EH_I32: outer_i(j->b->data, (int32_t *)j->out->data + i * q, ((const int32_t *)j->a->data)[i], q); break;
        case EH_I64: outer_l(j->b->data, (int64_t *)j->out->data + i * q, ((const int64_t *)j->a->data)[i], q); break;
        case EH_F16: outer_h(j->b->data, (uint16_t *)j->out->data + i * q, ((const uint16_t *)j->a->data)[i], q); break;
        default: outer_b(j->b->data, (uint8_t *)j->out->data + i * q, ((const uint8_t *)j->a->data)[i], q); break;
        }
    }
}

eh_status eh_blas_outer(const eh_op_call *call)
{
    eh_tensor *out = call->out[0];
    if (out->size == 0)
        return EH_OK;
    outer_job j = {call->in[0], call->in[1], out};
    int64_t q = call->in[1]->size;
    int64_t grain = EH_BLAS_GRAIN_CHEAP / q;
    eh_parallel_for(call->in[0]->size, grain > 0 ? grain : 1, outer_rows, &j);
    return EH_OK;
}
