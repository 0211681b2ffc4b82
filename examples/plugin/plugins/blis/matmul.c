/* examples/plugin/plugins/blis/matmul.c -- matmul through BLIS.
 *
 * The frontend (libeh/src/ops_linalg.c) hands every matmul a validated
 * call: a and b of one dtype, out shaped batch + (n, m), and
 *   p.i[0] = n, p.i[1] = k, p.i[2] = m, p.i[3] = bnd, p.v[0 .. bnd) = batch.
 * a's matrices are its last two dimensions (one row when a is 1-D), its
 * batch dimensions broadcast against `batch` (size 1: repeated), and the
 * same for b.  Each product is one bli_?gemm on row-major operands:
 * row stride k (a), m (b and out), column stride 1. */
#include <blis.h>
#include <string.h>
#include "blis_backend.h"

/* Strides, in matrices, of x's batch dimensions broadcast against the
 * batch shape (0 along a broadcast dimension). */
static void batch_strides(const eh_tensor *x, int64_t per_matrix, int bnd, int64_t *strides)
{
    int xb = x->ndim > 2 ? x->ndim - 2 : 0; /* x's own batch dimensions */
    int64_t stride = per_matrix;
    for (int d = bnd - 1; d >= 0; d--) {
        int xd = d - (bnd - xb);
        if (xd < 0 || x->shape[xd] == 1) {
            strides[d] = 0;
        } else {
            strides[d] = stride;
            stride *= x->shape[xd];
        }
    }
}

static void gemm(eh_dtype dt, int64_t n, int64_t m, int64_t k, void *a, void *b, void *c)
{
    if (dt == EH_F32) {
        float one = 1.0f, zero = 0.0f;
        bli_sgemm(BLIS_NO_TRANSPOSE, BLIS_NO_TRANSPOSE, n, m, k, &one, a, k, 1, b, m, 1, &zero, c,
                  m, 1);
    } else {
        double one = 1.0, zero = 0.0;
        bli_dgemm(BLIS_NO_TRANSPOSE, BLIS_NO_TRANSPOSE, n, m, k, &one, a, k, 1, b, m, 1, &zero, c,
                  m, 1);
    }
}

eh_status eh_blis_matmul(const eh_op_call *call)
{
    const eh_tensor *a = call->in[0], *b = call->in[1];
    eh_tensor *out = call->out[0];
    eh_dtype dt = a->dtype;
    if (dt != EH_F32 && dt != EH_F64)
        return eh_blis_ref_matmul(call); /* f16, integers, bool: ref's kernel */
    if (out->size == 0)
        return EH_OK;
    int64_t n = call->p.i[0], k = call->p.i[1], m = call->p.i[2];
    int bnd = (int)call->p.i[3];
    const int64_t *batch = call->p.v;
    if (k == 0) { /* empty sums */
        memset(out->data, 0, out->nbytes);
        return EH_OK;
    }
    size_t esz = eh_dtype_size(dt);
    int64_t sa[EH_MAX_DIMS], sb[EH_MAX_DIMS];
    batch_strides(a, n * k, bnd, sa);
    batch_strides(b, k * m, bnd, sb);
    eh_nd_iter it;
    eh_nd_iter_init(&it, bnd, batch);
    char *c = out->data;
    do {
        char *pa = (char *)a->data + (size_t)eh_nd_iter_offset(&it, sa) * esz;
        char *pb = (char *)b->data + (size_t)eh_nd_iter_offset(&it, sb) * esz;
        gemm(dt, n, m, k, pa, pb, c);
        c += (size_t)(n * m) * esz;
    } while (eh_nd_iter_next(&it));
    return EH_OK;
}
