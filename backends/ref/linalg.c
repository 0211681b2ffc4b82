/* ref kernels: matrix products (matmul, dot, outer).
 *
 * All three reduce to one typed product C = A B on row-major blocks with
 * row strides (lda, ldb, ldc), computed row by row: C[i, :] accumulates
 * A[i, t] * B[t, :] for t = 0, 1, ... in order.  f32 and f64 accumulate in
 * their own type; f16 is loaded to f32 and accumulated in f32 (stored once
 * at the end); i32 and i64 wrap (unsigned arithmetic, no UB); bool is
 * OR over t of (A AND B).  The parameter contract is in
 * libeh/src/ops_linalg.c.  Decompositions live in linalg_decomp.c, with the
 * batch-broadcast helper (eh_ref_batch_strides, linalg_kernels.h). */
#include <stdlib.h>
#include <string.h>
#include <eh/backend_alloc.h>
#include "linalg_kernels.h"

typedef struct product {
    eh_dtype dtype;
    const char *a;     /* storage of the operands and the result */
    const char *b;
    char *c;
    int64_t rows, inner, cols;
    int64_t lda, ldb, ldc;
    float *acc;        /* f16 only: a row of `cols` f32 accumulators */
} product;

/* C (rows x cols) at element offset coff = A (rows x inner) at aoff times
 * B (inner x cols) at boff. */
#define PRODUCT_LOOP(T, ACC_T, ZERO, MULADD)                                        \
    do {                                                                            \
        const T *A = (const T *)pr->a + aoff;                                       \
        const T *B = (const T *)pr->b + boff;                                       \
        T *C = (T *)pr->c + coff;                                                   \
        for (int64_t i = 0; i < pr->rows; i++) {                                    \
            T *ci = C + i * pr->ldc;                                                \
            for (int64_t j = 0; j < pr->cols; j++)                                  \
                ci[j] = ZERO;                                                       \
            for (int64_t t = 0; t < pr->inner; t++) {                               \
                ACC_T av = (ACC_T)A[i * pr->lda + t];                               \
                const T *bt = B + t * pr->ldb;                                      \
                for (int64_t j = 0; j < pr->cols; j++)                              \
                    ci[j] = MULADD(ci[j], av, bt[j]);                               \
            }                                                                       \
        }                                                                           \
    } while (0)

#define MULADD_FLOAT(c, a, b) ((c) + (a) * (b))
#define MULADD_U32(c, a, b) ((int32_t)((uint32_t)(c) + (a) * (uint32_t)(b)))
#define MULADD_U64(c, a, b) ((int64_t)((uint64_t)(c) + (a) * (uint64_t)(b)))
#define MULADD_BOOL(c, a, b) ((uint8_t)((c) | ((a) & ((b) != 0))))

static void run_product(const product *pr, int64_t aoff, int64_t boff, int64_t coff)
{
    switch (pr->dtype) {
    case EH_F32: PRODUCT_LOOP(float, float, 0.0f, MULADD_FLOAT); break;
    case EH_F64: PRODUCT_LOOP(double, double, 0.0, MULADD_FLOAT); break;
    case EH_I32: PRODUCT_LOOP(int32_t, uint32_t, 0, MULADD_U32); break;
    case EH_I64: PRODUCT_LOOP(int64_t, uint64_t, 0, MULADD_U64); break;
    case EH_BOOL: {
        const uint8_t *A = (const uint8_t *)pr->a + aoff;
        const uint8_t *B = (const uint8_t *)pr->b + boff;
        uint8_t *C = (uint8_t *)pr->c + coff;
        for (int64_t i = 0; i < pr->rows; i++) {
            uint8_t *ci = C + i * pr->ldc;
            for (int64_t j = 0; j < pr->cols; j++)
                ci[j] = 0;
            for (int64_t t = 0; t < pr->inner; t++) {
                uint8_t av = A[i * pr->lda + t] != 0;
                const uint8_t *bt = B + t * pr->ldb;
                for (int64_t j = 0; j < pr->cols; j++)
                    ci[j] = MULADD_BOOL(ci[j], av, bt[j]);
            }
        }
        break;
    }
    case EH_F16: {
        const uint16_t *A = (const uint16_t *)pr->a + aoff;
        const uint16_t *B = (const uint16_t *)pr->b + boff;
        uint16_t *C = (uint16_t *)pr->c + coff;
        for (int64_t i = 0; i < pr->rows; i++) {
            for (int64_t j = 0; j < pr->cols; j++)
                pr->acc[j] = 0.0f;
            for (int64_t t = 0; t < pr->inner; t++) {
                float av = eh_f16_to_f32(A[i * pr->lda + t]);
                const uint16_t *bt = B + t * pr->ldb;
                for (int64_t j = 0; j < pr->cols; j++)
                    pr->acc[j] += av * eh_f16_to_f32(bt[j]);
            }
            for (int64_t j = 0; j < pr->cols; j++)
                C[i * pr->ldc + j] = eh_f32_to_f16(pr->acc[j]);
        }
        break;
    }
    default: break;
    }
}

/* Set up a product; allocates the f16 accumulator row. */
static eh_status product_init(product *pr, const char *op, const eh_op_call *call,
                              int64_t rows, int64_t inner, int64_t cols)
{
    memset(pr, 0, sizeof *pr);
    pr->dtype = call->in[0]->dtype;
    pr->a = call->in[0]->data;
    pr->b = call->in[1]->data;
    pr->c = call->out[0]->data;
    pr->rows = rows;
    pr->inner = inner;
    pr->cols = cols;
    if (pr->dtype == EH_F16) {
        pr->acc = eh_mem_alloc((size_t)(cols > 0 ? cols : 1) * sizeof *pr->acc);
        if (!pr->acc)
            return eh_set_error(EH_ERR_NOMEM, "%s: out of memory for %lld accumulators", op,
                                (long long)cols);
    }
    return EH_OK;
}

eh_status eh_ref_matmul(const eh_op_call *call)
{
    const eh_tensor *a = call->in[0], *b = call->in[1];
    if (call->out[0]->size == 0)
        return EH_OK;
    int64_t n = call->p.i[0], k = call->p.i[1], m = call->p.i[2];
    int bnd = (int)call->p.i[3];
    const int64_t *bshape = call->p.v;
    product pr;
    eh_status st = product_init(&pr, "matmul", call, n, k, m);
    if (st != EH_OK)
        return st;
    pr.lda = k;
    pr.ldb = m;
    pr.ldc = m;
    int64_t sa[EH_MAX_DIMS], sb[EH_MAX_DIMS];
    eh_ref_batch_strides(a, a->ndim == 1 ? 0 : a->ndim - 2, n * k, bnd, bshape, sa);
    eh_ref_batch_strides(b, b->ndim == 1 ? 0 : b->ndim - 2, k * m, bnd, bshape, sb);
    eh_nd_iter it;
    eh_nd_iter_init(&it, bnd, bshape);
    int64_t coff = 0;
    do {
        run_product(&pr, eh_nd_iter_offset(&it, sa), eh_nd_iter_offset(&it, sb), coff);
        coff += n * m;
    } while (eh_nd_iter_next(&it));
    eh_mem_free(pr.acc);
    return EH_OK;
}

eh_status eh_ref_dot(const eh_op_call *call)
{
    if (call->out[0]->size == 0)
        return EH_OK;
    int64_t P = call->p.i[0], K = call->p.i[1], Q = call->p.i[2], M = call->p.i[3];
    product pr;
    eh_status st = product_init(&pr, "dot", call, P, K, M);
    if (st != EH_OK)
        return st;
    pr.lda = K;
    pr.ldb = M;
    pr.ldc = Q * M;
    for (int64_t q = 0; q < Q; q++)
        run_product(&pr, 0, q * K * M, q * M);
    eh_mem_free(pr.acc);
    return EH_OK;
}

eh_status eh_ref_outer(const eh_op_call *call)
{
    if (call->out[0]->size == 0)
        return EH_OK;
    int64_t P = call->in[0]->size, Q = call->in[1]->size;
    product pr;
    eh_status st = product_init(&pr, "outer", call, P, 1, Q);
    if (st != EH_OK)
        return st;
    pr.lda = 1;
    pr.ldb = Q;
    pr.ldc = Q;
    run_product(&pr, 0, 0, 0);
    eh_mem_free(pr.acc);
    return EH_OK;
}
