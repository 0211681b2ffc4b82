/* ref kernels: tile, repeat, pad, roll, gather, scatter, triu, tril.
 *
 * The call contract (which eh_op_call.p fields each op uses) is documented
 * at the top of libeh/src/ops_indexing.c.  Every op except scatter only
 * moves elements, so the kernels copy element bytes and work for every
 * dtype alike.  tile, repeat, pad and roll are one separable remapping:
 * output coordinate o along dimension d reads input coordinate map_d(o)
 * (or a fill value, for constant padding). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <eh/backend_alloc.h>
#include "ref.h"

/* ---- separable remapping ----------------------------------------------- */

/* Input coordinate for output coordinate o along dimension d, or -1 for
 * the fill element. */
typedef int64_t (*coord_fn)(const void *ctx, int d, int64_t o);

/* dst (nd dims of oshape, osize elements of es bytes) from src (read with
 * shape ishape) through the coordinate maps of fn. */
static eh_status remap(const char *op, const void *src, const int64_t *ishape, void *dst,
                       int nd, const int64_t *oshape, int64_t osize, size_t es,
                       coord_fn fn, const void *ctx, const void *fill)
{
    if (osize == 0)
        return EH_OK;
    if (nd == 0) { /* a 0-d x: one element, nothing to map */
        memcpy(dst, src, es);
        return EH_OK;
    }
    size_t total = 0;
    for (int d = 0; d < nd; d++) {
        if ((uint64_t)oshape[d] > SIZE_MAX / sizeof(int64_t) - total)
            return eh_set_error(EH_ERR_NOMEM, "%s: index maps for shape %s do not fit in memory",
                                op, eh_shape_str(nd, oshape));
        total += (size_t)oshape[d];
    }
    int64_t *buf = eh_mem_alloc(total * sizeof(int64_t));
    if (!buf)
        return eh_set_error(EH_ERR_NOMEM, "%s: out of memory for index maps of shape %s", op,
                            eh_shape_str(nd, oshape));
    const int64_t *maps[EH_MAX_DIMS];
    int64_t *p = buf;
    for (int d = 0; d < nd; d++) {
        for (int64_t o = 0; o < oshape[d]; o++)
            p[o] = fn(ctx, d, o);
        maps[d] = p;
        p += oshape[d];
    }
    int64_t istr[EH_MAX_DIMS];
    eh_contiguous_strides(nd, ishape, istr);

    const char *s = src;
    char *out = dst;
    int64_t len = oshape[nd - 1], ist = istr[nd - 1];
    const int64_t *last = maps[nd - 1];
    eh_nd_iter it;
    eh_nd_iter_init(&it, nd - 1, oshape);
    do {
        int64_t base = 0;
        int valid = 1;
        for (int d = 0; d < nd - 1; d++) {
            int64_t m = maps[d][it.idx[d]];
            if (m < 0)
                valid = 0;
            else
                base += m * istr[d];
        }
        for (int64_t j = 0; j < len; j++, out += es) {
            int64_t m = last[j];
            if (!valid || m < 0)
                memcpy(out, fill, es);
            else
                memcpy(out, s + (size_t)(base + m * ist) * es, es);
        }
    } while (eh_nd_iter_next(&it));
    eh_mem_free(buf);
    return EH_OK;
}

/* ---- tile ---------------------------------------------------------------- */

static int64_t tile_coord(const void *ctx, int d, int64_t o)
{
    const int64_t *xshape = ctx;
    return o % xshape[d];
}

eh_status eh_ref_tile(const eh_op_call *call)
{
    const eh_tensor *x = call->in[0];
    eh_tensor *out = call->out[0];
    int nd = out->ndim, off = nd - x->ndim;
    int64_t xshape[EH_MAX_DIMS];
    for (int d = 0; d < nd; d++)
        xshape[d] = d < off ? 1 : x->shape[d - off];
    return remap("tile", x->data, xshape, out->data, nd, out->shape, out->size,
                 eh_dtype_size(x->dtype), tile_coord, xshape, NULL);
}

/* ---- repeat and roll ----------------------------------------------------- */

typedef struct axis_ctx {
    int axis;
    int64_t k; /* repeats, or the shift */
    int64_t n; /* the axis length (roll) */
} axis_ctx;

static int64_t repeat_coord(const void *ctx, int d, int64_t o)
{
    const axis_ctx *c = ctx;
    return d == c->axis ? o / c->k : o;
}

static int64_t roll_coord(const void *ctx, int d, int64_t o)
{
    const axis_ctx *c = ctx;
    if (d != c->axis)
        return o;
    return o >= c->k ? o - c->k : o - c->k + c->n;
}

/* Run an axis op; p.n_axes == 0 reads x and out as 1-D. */
static eh_status axis_remap(const char *op, const eh_op_call *call, coord_fn fn)
{
    const eh_tensor *x = call->in[0];
    eh_tensor *out = call->out[0];
    axis_ctx c = {0, call->p.i[0], 0};
    size_t es = eh_dtype_size(x->dtype);
    if (call->p.n_axes == 0) {
        int64_t ishape[1] = {x->size}, oshape[1] = {out->size};
        c.n = x->size;
        return remap(op, x->data, ishape, out->data, 1, oshape, out->size, es, fn, &c, NULL);
    }
    c.axis = call->p.axes[0];
    c.n = x->shape[c.axis];
    return remap(op, x->data, x->shape, out->data, out->ndim, out->shape, out->size, es, fn,
                 &c, NULL);
}

eh_status eh_ref_repeat(const eh_op_call *call)
{
    return axis_remap("repeat", call, repeat_coord);
}

eh_status eh_ref_roll(const eh_op_call *call)
{
    return axis_remap("roll", call, roll_coord);
}

/* ---- pad ----------------------------------------------------------------- */

typedef struct pad_ctx {
    int mode;
    const int64_t *xshape;
    const int64_t *widths; /* before, after per axis */
} pad_ctx;

static int64_t pos_mod(int64_t a, int64_t m)
{
    int64_t r = a % m;
    return r < 0 ? r + m : r;
}

static int64_t pad_coord(const void *ctx, int d, int64_t o)
{
    const pad_ctx *c = ctx;
    int64_t n = c->xshape[d], j = o - c->widths[2 * d];
    if (j >= 0 && j < n)
        return j;
    if (n == 0)
        return -1;
    switch (c->mode) {
    case EH_PAD_EDGE:
        return j < 0 ? 0 : n - 1;
    case EH_PAD_REFLECT: {
        if (n == 1)
            return 0;
        int64_t period = 2 * (n - 1), m = pos_mod(j, period);
        return m >= n ? period - m : m;
    }
    case EH_PAD_SYMMETRIC: {
        int64_t period = 2 * n, m = pos_mod(j, period);
        return m >= n ? period - 1 - m : m;
    }
    case EH_PAD_WRAP:
        return pos_mod(j, n);
    default:
        return -1;
    }
}

eh_status eh_ref_pad(const eh_op_call *call)
{
    const eh_tensor *x = call->in[0];
    eh_tensor *out = call->out[0];
    union { double f; int64_t i; unsigned char b[8]; } fill;
    memset(&fill, 0, sizeof fill);
    eh_store_f64(&fill, x->dtype, 0, call->p.f[0]);
    pad_ctx c = {(int)call->p.i[0], x->shape, call->p.v};
    return remap("pad", x->data, x->shape, out->data, out->ndim, out->shape, out->size,
                 eh_dtype_size(x->dtype), pad_coord, &c, &fill);
}

/* ---- gather -------------------------------------------------------------- */

eh_status eh_ref_gather(const eh_op_call *call)
{
    const eh_tensor *x = call->in[0], *indices = call->in[1];
    eh_tensor *out = call->out[0];
    int a = call->p.axes[0];
    int64_t n = x->shape[a], m = indices->size;
    const int64_t *ind = indices->data;
    for (int64_t j = 0; j < m; j++)
        if (ind[j] < -n || ind[j] >= n)
            return eh_set_error(EH_ERR_INDEX, "gather: index %lld is out of range for axis %d "
                                "with size %lld (x of shape %s)", (long long)ind[j], a,
                                (long long)n, eh_shape_str(x->ndim, x->shape));
    if (out->size == 0)
        return EH_OK;
    int64_t outer = 1, inner = 1;
    for (int d = 0; d < a; d++)
        outer *= x->shape[d];
    for (int d = a + 1; d < x->ndim; d++)
        inner *= x->shape[d];
    size_t es = eh_dtype_size(x->dtype), row = (size_t)inner * es;
    const char *src = x->data;
    char *dst = out->data;
    for (int64_t o = 0; o < outer; o++) {
        for (int64_t j = 0; j < m; j++, dst += row) {
            int64_t v = ind[j] < 0 ? ind[j] + n : ind[j];
            memcpy(dst, src + (size_t)(o * n + v) * row, row);
        }
    }
    return EH_OK;
}

/* ---- scatter ------------------------------------------------------------- */

typedef union acc_cell {
    double f;
    uint64_t u; /* integer add, wrapping */
    int64_t i;  /* integer max / min */
} acc_cell;

eh_status eh_ref_scatter(const eh_op_call *call)
{
    const eh_tensor *vals = call->in[0], *indices = call->in[1];
    eh_tensor *out = call->out[0];
    int aggr = (int)call->p.i[0];
    int64_t n_rows = indices->size, dim = out->shape[0];
    const int64_t *ind = indices->data;
    for (int64_t r = 0; r < n_rows; r++)
        if (ind[r] < 0 || ind[r] >= dim)
            return eh_set_error(EH_ERR_INDEX, "scatter: index %lld (position %lld) is out of "
                                "range for dim_size %lld", (long long)ind[r], (long long)r,
                                (long long)dim);
    if (out->size == 0)
        return EH_OK;
    memset(out->data, 0, out->nbytes);
    if (vals->size == 0)
        return EH_OK;
    eh_dtype dt = vals->dtype;
    size_t es = eh_dtype_size(dt);
    int64_t inner = vals->size / n_rows;

    if (aggr == EH_SCATTER_REPLACE) {
        size_t row = (size_t)inner * es;
        for (int64_t r = 0; r < n_rows; r++)
            memcpy((char *)out->data + (size_t)ind[r] * row,
                   (const char *)vals->data + (size_t)r * row, row);
        return EH_OK;
    }

    if ((uint64_t)out->size > SIZE_MAX / sizeof(acc_cell) ||
        (uint64_t)dim > SIZE_MAX / sizeof(int64_t))
        return eh_set_error(EH_ERR_NOMEM, "scatter: accumulators for shape %s do not fit in memory",
                            eh_shape_str(out->ndim, out->shape));
    acc_cell *acc = eh_mem_calloc((size_t)out->size, sizeof *acc);
    int64_t *count = eh_mem_calloc((size_t)dim, sizeof *count);
    if (!acc || !count) {
        eh_mem_free(acc);
        eh_mem_free(count);
        return eh_set_error(EH_ERR_NOMEM, "scatter: out of memory for accumulators of shape %s",
                            eh_shape_str(out->ndim, out->shape));
    }

    int is_float = eh_dtype_is_float(dt), single = dt != EH_F64;
    for (int64_t r = 0; r < n_rows; r++) {
        int64_t t0 = ind[r] * inner, v0 = r * inner;
        int first = count[ind[r]] == 0;
        for (int64_t e = 0; e < inner; e++) {
            acc_cell *a = &acc[t0 + e];
            if (is_float) {
                double v = eh_load_f64(vals->data, dt, v0 + e);
                switch (aggr) {
                case EH_SCATTER_ADD:
                case EH_SCATTER_MEAN:
                    /* f16 and f32 add in f32: a double sum of two floats
                     * rounded to float is the correctly rounded f32 sum. */
                    a->f = single ? (double)(float)(a->f + v) : a->f + v;
                    break;
                case EH_SCATTER_MAX:
                    if (first || (!isnan(a->f) && (isnan(v) || v > a->f)))
                        a->f = v;
                    break;
                case EH_SCATTER_MIN:
                    if (first || (!isnan(a->f) && (isnan(v) || v < a->f)))
                        a->f = v;
                    break;
                default:
                    break;
                }
            } else {
                int64_t v = eh_load_i64(vals->data, dt, v0 + e);
                switch (aggr) {
                case EH_SCATTER_ADD:
                case EH_SCATTER_MEAN:
                    a->u += (uint64_t)v;
                    break;
                case EH_SCATTER_MAX:
                    if (first || v > a->i)
                        a->i = v;
                    break;
                case EH_SCATTER_MIN:
                    if (first || v < a->i)
                        a->i = v;
                    break;
                default:
                    break;
                }
            }
        }
        count[ind[r]]++;
    }

    for (int64_t t = 0; t < dim; t++) {
        if (count[t] == 0)
            continue; /* stays 0 */
        for (int64_t e = 0; e < inner; e++) {
            int64_t k = t * inner + e;
            const acc_cell *a = &acc[k];
            if (is_float) {
                double v = a->f;
                /* For f16/f32 sums this equals the f32 quotient once
                 * rounded: a double quotient of floats rounds correctly. */
                if (aggr == EH_SCATTER_MEAN)
                    v /= (double)count[t];
                eh_store_f64(out->data, dt, k, v);
            } else if (aggr == EH_SCATTER_MEAN) {
                /* Not produced by the libeh frontend (MEAN is float). */
                eh_store_f64(out->data, dt, k, (double)(int64_t)a->u / (double)count[t]);
            } else {
                eh_store_i64(out->data, dt, k, aggr == EH_SCATTER_ADD ? (int64_t)a->u : a->i);
            }
        }
    }
    eh_mem_free(acc);
    eh_mem_free(count);
    return EH_OK;
}

/* ---- triu / tril --------------------------------------------------------- */

static eh_status triangle(const eh_op_call *call, int upper)
{
    const eh_tensor *x = call->in[0];
    eh_tensor *out = call->out[0];
    if (out->size == 0)
        return EH_OK;
    int nd = x->ndim;
    int64_t rows = x->shape[nd - 2], cols = x->shape[nd - 1], k = call->p.i[0];
    int64_t batch = x->size / (rows * cols);
    size_t es = eh_dtype_size(x->dtype);
    const char *src = x->data;
    char *dst = out->data;
    for (int64_t b = 0; b < batch; b++) {
        for (int64_t i = 0; i < rows; i++) {
            for (int64_t j = 0; j < cols; j++, src += es, dst += es) {
                int keep = upper ? j - i >= k : j - i <= k;
                if (keep)
                    memcpy(dst, src, es);
                else
                    memset(dst, 0, es);
            }
        }
    }
    return EH_OK;
}

eh_status eh_ref_triu(const eh_op_call *call) { return triangle(call, 1); }

eh_status eh_ref_tril(const eh_op_call *call) { return triangle(call, 0); }
