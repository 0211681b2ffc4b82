/* ref kernels: reductions, scans, softmax, norms, allclose.
 *
 * The eh_op_call.p contract is documented at the top of
 * libeh/src/ops_reduction.c.  The input always arrives in the compute
 * dtype (== the output dtype except argmax/argmin and allclose).
 *
 * How values are computed (this defines the semantics):
 *  - floats (f16, f32, f64) are loaded as double and every float result is
 *    computed in double, then rounded once to the output dtype (f16 through
 *    round-to-odd f32, so the double -> f16 rounding is correct, never a
 *    double rounding);
 *  - sums (sum, mean, var, the scans, norms) use Neumaier's compensated
 *    summation; a sum that reaches inf or NaN is returned as is;
 *  - integer sums and products (i64) wrap, computed in uint64_t;
 *  - max/min/argmax/argmin compare integers and bools as int64 (exact) and
 *    floats as double; NaN wins;
 *  - 2-norms scale by a power of two (exact) before squaring;
 *  - the matrix 2 and nuclear norms take the singular values from ref's
 *    SVD (eh_ref_singular_values: one-sided Jacobi, linalg_decomp.c).
 *
 * Iteration: the input is split into "lanes" (the elements that share the
 * indices of the kept axes).  A lane is walked with an odometer over the
 * reduced axes; adjacent axes that are contiguous in memory are merged
 * first, so a full reduction of a dense tensor is one flat loop.  Lanes
 * are spread over threads (eh_parallel_for) in chunks; a lane is always
 * computed whole, in order, by one thread, so results do not depend on
 * the thread count. */
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <eh/backend_alloc.h>
#include "linalg_kernels.h"
#include "reduction_kernels.h"

/* ---- geometry ------------------------------------------------------------ */

/* A set of dimensions with strides (in elements). */
typedef struct {
    int n;
    int64_t shape[EH_MAX_DIMS];
    int64_t stride[EH_MAX_DIMS];
    int64_t count; /* product of shape (1 when n == 0) */
} geom;

/* An odometer over a geom, starting at offset `base`. */
typedef struct {
    const geom *g;
    int64_t idx[EH_MAX_DIMS];
    int64_t off;
} walker;

static void walk_begin(walker *w, const geom *g, int64_t base)
{
    w->g = g;
    memset(w->idx, 0, sizeof w->idx);
    w->off = base;
}

static inline void walk_next(walker *w)
{
    const geom *g = w->g;
    for (int d = g->n - 1; d >= 0; d--) {
        w->off += g->stride[d];
        if (++w->idx[d] < g->shape[d])
            return;
        w->off -= g->stride[d] * g->shape[d];
        w->idx[d] = 0;
    }
}

/* Add dimension (size, stride) to g, merging it into the previous one when
 * they are contiguous (when `merge`); size-1 dimensions are dropped. */
static void geom_push(geom *g, int64_t size, int64_t stride, int merge)
{
    g->count *= size;
    if (size == 1)
        return;
    if (merge && g->n > 0 && g->stride[g->n - 1] == stride * size) {
        g->shape[g->n - 1] *= size;
        g->stride[g->n - 1] = stride;
        return;
    }
    g->shape[g->n] = size;
    g->stride[g->n] = stride;
    g->n++;
}

/* Split a tensor of (ndim, shape) into the reduced axes (in the order
 * given) and the kept axes (ascending).  Call only when the tensor is not
 * empty, so that strides and counts cannot overflow. */
static void split_axes(int ndim, const int64_t *shape, const int *axes, int n_axes, int merge,
                       geom *red, geom *kept)
{
    int64_t strides[EH_MAX_DIMS];
    int is_red[EH_MAX_DIMS] = {0};
    eh_contiguous_strides(ndim, shape, strides);
    memset(red, 0, sizeof *red);
    memset(kept, 0, sizeof *kept);
    red->count = kept->count = 1;
    for (int k = 0; k < n_axes; k++) {
        is_red[axes[k]] = 1;
        geom_push(red, shape[axes[k]], strides[axes[k]], merge);
    }
    for (int d = 0; d < ndim; d++)
        if (!is_red[d])
            geom_push(kept, shape[d], strides[d], 1);
}

/* ---- values ---------------------------------------------------------------- */

/* The arithmetic (Neumaier sums, wrapping integers, storing a float
 * result) is in reduction_kernels.h, shared with the blas backend. */

/* ---- the lane driver ---------------------------------------------------------- */

/* Reduce (or transform) each lane of input 0.  `fn` gets the lane (data,
 * dtype, geometry, base offset) and writes output element k, or, for ops
 * whose output has the input's shape, the lane's own offsets.  It returns
 * a status WITHOUT recording an error: lanes run on worker threads, whose
 * thread-local error record the caller would never see; the driver
 * records the error on the calling thread (lane_error). */
typedef eh_status (*lane_fn)(const eh_op_call *c, const void *x, eh_dtype dt, const geom *red,
                             int64_t base, void *out, int64_t k);

/* Start a walker at the k-th position (row-major) of g. */
static void walk_begin_at(walker *w, const geom *g, int64_t base, int64_t k)
{
    walk_begin(w, g, base);
    for (int d = g->n - 1; d >= 0; d--) {
        w->idx[d] = k % g->shape[d];
        w->off += w->idx[d] * g->stride[d];
        k /= g->shape[d];
    }
}

typedef struct {
    const eh_op_call *c;
    lane_fn fn;
    const geom *red, *kept;
    const void *x;
    eh_dtype dt;
    void *out;
    _Atomic int status; /* first failure, EH_OK if none */
} lane_job;

static void run_lane_range(void *ctx, int64_t begin, int64_t end, int worker)
{
    lane_job *j = ctx;
    (void)worker;
    walker w;
    walk_begin_at(&w, j->kept, 0, begin);
    for (int64_t k = begin; k < end; k++, walk_next(&w)) {
        eh_status st = j->fn(j->c, j->x, j->dt, j->red, w.off, j->out, k);
        if (st != EH_OK) {
            int expected = EH_OK;
            atomic_compare_exchange_strong(&j->status, &expected, (int)st);
            return;
        }
    }
}

/* Record, on the calling thread, the failure a lane reported. */
static eh_status lane_error(const eh_op_call *c, eh_status st)
{
    const eh_tensor *x = c->in[0];
    if (st == EH_ERR_NOMEM)
        return eh_set_error(st, "%s: out of memory for the scratch of a lane of %s",
                            eh_op_name(c->op), eh_shape_str(x->ndim, x->shape));
    if (st == EH_ERR_LINALG)
        return eh_set_error(st, "%s: the SVD of a matrix of %s did not converge",
                            eh_op_name(c->op), eh_shape_str(x->ndim, x->shape));
    return eh_set_error(st, "%s: the ref kernel got an invalid call (an empty lane of %s)",
                        eh_op_name(c->op), eh_shape_str(x->ndim, x->shape));
}

/* Lanes of a tensor of (ndim, shape) split along p.axes: x itself, or for
 * the scans the output's shape (x has the same elements in row-major
 * order).  Lanes are independent and each is computed the same way
 * whatever the thread count, so results are deterministic. */
static eh_status run_lanes(const eh_op_call *c, lane_fn fn, int merge, int ndim,
                           const int64_t *shape)
{
    const eh_tensor *x = c->in[0];
    eh_tensor *out = c->out[0];
    if (out->size == 0)
        return EH_OK;
    geom red, kept;
    if (x->size == 0) {
        /* Every lane is empty (a reduced axis has length 0): no strides are
         * needed, and computing them could overflow for such shapes. */
        memset(&red, 0, sizeof red);
        for (int64_t k = 0; k < out->size; k++) {
            eh_status st = fn(c, x->data, x->dtype, &red, 0, out->data, k);
            if (st != EH_OK)
                return lane_error(c, st);
        }
        return EH_OK;
    }
    split_axes(ndim, shape, c->p.axes, c->p.n_axes, merge, &red, &kept);
    lane_job job = {c, fn, &red, &kept, x->data, x->dtype, out->data, EH_OK};
    /* a chunk of lanes visits at least ~32k elements */
    int64_t grain = (INT64_C(1) << 15) / red.count + 1;
    eh_parallel_for(kept.count, grain, run_lane_range, &job);
    eh_status st = (eh_status)atomic_load(&job.status);
    return st == EH_OK ? EH_OK : lane_error(c, st);
}

static eh_status reduce_lanes(const eh_op_call *c, lane_fn fn, int merge)
{
    return run_lanes(c, fn, merge, c->in[0]->ndim, c->in[0]->shape);
}

/* ---- sum, prod, mean ---------------------------------------------------------------- */

static eh_status lane_sum(const eh_op_call *c, const void *x, eh_dtype dt, const geom *red,
                          int64_t base, void *out, int64_t k)
{
    walker w;
    walk_begin(&w, red, base);
    if (eh_dtype_is_float(dt)) {
        eh_ref_ksum s = {0, 0};
        for (int64_t j = 0; j < red->count; j++, walk_next(&w))
            eh_ref_ksum_add(&s, eh_load_f64(x, dt, w.off));
        double v = eh_ref_ksum_total(s.s, s.c);
        if (c->op == EH_OP_mean)
            v = red->count ? v / (double)red->count : NAN;
        eh_ref_store_float(out, dt, k, v);
    } else {
        int64_t s = 0;
        for (int64_t j = 0; j < red->count; j++, walk_next(&w))
            s = eh_ref_wrap_add(s, eh_load_i64(x, dt, w.off));
        eh_store_i64(out, dt, k, s);
    }
    return EH_OK;
}

static eh_status lane_prod(const eh_op_call *c, const void *x, eh_dtype dt, const geom *red,
                           int64_t base, void *out, int64_t k)
{
    (void)c;
    walker w;
    walk_begin(&w, red, base);
    if (eh_dtype_is_float(dt)) {
        double p = 1.0;
        for (int64_t j = 0; j < red->count; j++, walk_next(&w))
            p *= eh_load_f64(x, dt, w.off);
        eh_ref_store_float(out, dt, k, p);
    } else {
        int64_t p = 1;
        for (int64_t j = 0; j < red->count; j++, walk_next(&w))
            p = eh_ref_wrap_mul(p, eh_load_i64(x, dt, w.off));
        eh_store_i64(out, dt, k, p);
    }
    return EH_OK;
}

eh_status eh_ref_sum(const eh_op_call *c) { return reduce_lanes(c, lane_sum, 1); }
eh_status eh_ref_mean(const eh_op_call *c) { return reduce_lanes(c, lane_sum, 1); }
eh_status eh_ref_prod(const eh_op_call *c) { return reduce_lanes(c, lane_prod, 1); }

/* ---- max, min, argmax, argmin ---------------------------------------------------- */

/* Position in the lane of the extreme element (first NaN, else first max
 * or min).  want_max selects the direction. */
static int64_t extreme_index(const void *x, eh_dtype dt, const geom *red, int64_t base,
                             int want_max)
{
    walker w;
    walk_begin(&w, red, base);
    int64_t best = 0;
    if (eh_dtype_is_float(dt)) {
        double bv = eh_load_f64(x, dt, w.off);
        if (isnan(bv))
            return 0;
        walk_next(&w);
        for (int64_t j = 1; j < red->count; j++, walk_next(&w)) {
            double v = eh_load_f64(x, dt, w.off);
            if (isnan(v))
                return j;
            if (want_max ? v > bv : v < bv) {
                bv = v;
                best = j;
            }
        }
    } else {
        int64_t bv = eh_load_i64(x, dt, w.off);
        walk_next(&w);
        for (int64_t j = 1; j < red->count; j++, walk_next(&w)) {
            int64_t v = eh_load_i64(x, dt, w.off);
            if (want_max ? v > bv : v < bv) {
                bv = v;
                best = j;
            }
        }
    }
    return best;
}

/* Offset of element j of a lane. */
static int64_t lane_offset(const geom *red, int64_t base, int64_t j)
{
    int64_t off = base;
    for (int d = red->n - 1; d >= 0; d--) {
        off += (j % red->shape[d]) * red->stride[d];
        j /= red->shape[d];
    }
    return off;
}

static eh_status lane_minmax(const eh_op_call *c, const void *x, eh_dtype dt, const geom *red,
                             int64_t base, void *out, int64_t k)
{
    if (red->count == 0)
        return EH_ERR_SHAPE; /* the frontend never sends one */
    int64_t j = extreme_index(x, dt, red, base, c->op == EH_OP_max);
    int64_t off = lane_offset(red, base, j);
    size_t sz = eh_dtype_size(dt);
    memcpy((char *)out + (size_t)k * sz, (const char *)x + (size_t)off * sz, sz);
    return EH_OK;
}

static eh_status lane_arg(const eh_op_call *c, const void *x, eh_dtype dt, const geom *red,
                          int64_t base, void *out, int64_t k)
{
    if (red->count == 0)
        return EH_ERR_SHAPE; /* the frontend never sends one */
    ((int64_t *)out)[k] = extreme_index(x, dt, red, base, c->op == EH_OP_argmax);
    return EH_OK;
}

eh_status eh_ref_max(const eh_op_call *c) { return reduce_lanes(c, lane_minmax, 1); }
eh_status eh_ref_min(const eh_op_call *c) { return reduce_lanes(c, lane_minmax, 1); }
/* Merging contiguous reduced axes keeps the row-major position j. */
eh_status eh_ref_argmax(const eh_op_call *c) { return reduce_lanes(c, lane_arg, 1); }
eh_status eh_ref_argmin(const eh_op_call *c) { return reduce_lanes(c, lane_arg, 1); }

/* ---- var, std -------------------------------------------------------------------- */

static eh_status lane_var(const eh_op_call *c, const void *x, eh_dtype dt, const geom *red,
                          int64_t base, void *out, int64_t k)
{
    walker w;
    eh_ref_ksum s = {0, 0};
    walk_begin(&w, red, base);
    for (int64_t j = 0; j < red->count; j++, walk_next(&w))
        eh_ref_ksum_add(&s, eh_load_f64(x, dt, w.off));
    double mean = red->count ? eh_ref_ksum_total(s.s, s.c) / (double)red->count : NAN;
    eh_ref_ksum q = {0, 0};
    walk_begin(&w, red, base);
    for (int64_t j = 0; j < red->count; j++, walk_next(&w)) {
        double d = eh_load_f64(x, dt, w.off) - mean;
        eh_ref_ksum_add(&q, d * d);
    }
    double ssq = red->count ? eh_ref_ksum_total(q.s, q.c) : NAN;
    double divisor = (double)red->count - (double)c->p.i[0];
    double v;
    if (divisor > 0)
        v = ssq / divisor;
    else /* NumPy divides by max(N - ddof, 0) = 0 */
        v = ssq > 0 ? INFINITY : NAN;
    if (c->op == EH_OP_std)
        v = sqrt(v);
    eh_ref_store_float(out, dt, k, v);
    return EH_OK;
}

eh_status eh_ref_var(const eh_op_call *c) { return reduce_lanes(c, lane_var, 1); }
eh_status eh_ref_std(const eh_op_call *c) { return reduce_lanes(c, lane_var, 1); }

/* ---- logsumexp -------------------------------------------------------------------- */

/* Max of a lane, NaN if any element is NaN, -inf for an empty lane. */
static double lane_max(const void *x, eh_dtype dt, const geom *red, int64_t base)
{
    walker w;
    double m = -INFINITY;
    walk_begin(&w, red, base);
    for (int64_t j = 0; j < red->count; j++, walk_next(&w)) {
        double v = eh_load_f64(x, dt, w.off);
        if (isnan(v))
            return v;
        if (v > m)
            m = v;
    }
    return m;
}

/* sum(exp(x - shift)) over a lane. */
static double lane_sum_exp(const void *x, eh_dtype dt, const geom *red, int64_t base,
                           double shift)
{
    walker w;
    eh_ref_ksum s = {0, 0};
    walk_begin(&w, red, base);
    for (int64_t j = 0; j < red->count; j++, walk_next(&w))
        eh_ref_ksum_add(&s, exp(eh_load_f64(x, dt, w.off) - shift));
    return eh_ref_ksum_total(s.s, s.c);
}

static eh_status lane_logsumexp(const eh_op_call *c, const void *x, eh_dtype dt, const geom *red,
                                int64_t base, void *out, int64_t k)
{
    (void)c;
    double m = lane_max(x, dt, red, base);
    if (!isfinite(m))
        m = 0.0; /* scipy: a non-finite max shifts by 0 */
    eh_ref_store_float(out, dt, k, log(lane_sum_exp(x, dt, red, base, m)) + m);
    return EH_OK;
}

eh_status eh_ref_logsumexp(const eh_op_call *c) { return reduce_lanes(c, lane_logsumexp, 1); }

/* ---- softmax, log_softmax: lanes in, lanes out (same shape) ------------------------ */

static eh_status lane_softmax(const eh_op_call *c, const void *x, eh_dtype dt, const geom *red,
                              int64_t base, void *out, int64_t k)
{
    (void)k;
    double m = lane_max(x, dt, red, base);
    walker w;
    if (c->op == EH_OP_softmax) {
        /* scipy.special.softmax: shift by the max as is */
        double s = lane_sum_exp(x, dt, red, base, m);
        walk_begin(&w, red, base);
        for (int64_t j = 0; j < red->count; j++, walk_next(&w))
            eh_ref_store_float(out, dt, w.off, exp(eh_load_f64(x, dt, w.off) - m) / s);
    } else {
        /* scipy.special.log_softmax: a non-finite max shifts by 0 */
        if (!isfinite(m))
            m = 0.0;
        double ls = log(lane_sum_exp(x, dt, red, base, m));
        walk_begin(&w, red, base);
        for (int64_t j = 0; j < red->count; j++, walk_next(&w))
            eh_ref_store_float(out, dt, w.off, (eh_load_f64(x, dt, w.off) - m) - ls);
    }
    return EH_OK;
}

/* The output has the input's shape: lanes write at the input offsets. */
eh_status eh_ref_softmax(const eh_op_call *c) { return reduce_lanes(c, lane_softmax, 1); }
eh_status eh_ref_log_softmax(const eh_op_call *c) { return reduce_lanes(c, lane_softmax, 1); }

/* ---- cumsum, cumprod ------------------------------------------------------------ */

/* One running sum / product: the lane is walked in the output's shape
 * (x holds the same elements in the same row-major order). */
static eh_status lane_scan(const eh_op_call *c, const void *x, eh_dtype dt, const geom *red,
                           int64_t base, void *out, int64_t k)
{
    (void)k;
    int is_sum = c->op == EH_OP_cumsum;
    walker w;
    walk_begin(&w, red, base);
    if (eh_dtype_is_float(dt)) {
        eh_ref_ksum s = {0, 0};
        double p = 1.0;
        for (int64_t j = 0; j < red->count; j++, walk_next(&w)) {
            double v = eh_load_f64(x, dt, w.off), r;
            if (is_sum) {
                eh_ref_ksum_add(&s, v);
                r = eh_ref_ksum_total(s.s, s.c);
            } else {
                r = p *= v;
            }
            eh_ref_store_float(out, dt, w.off, r);
        }
    } else {
        int64_t acc = is_sum ? 0 : 1;
        for (int64_t j = 0; j < red->count; j++, walk_next(&w)) {
            int64_t v = eh_load_i64(x, dt, w.off);
            acc = is_sum ? eh_ref_wrap_add(acc, v) : eh_ref_wrap_mul(acc, v);
            eh_store_i64(out, dt, w.off, acc);
        }
    }
    return EH_OK;
}

static eh_status run_scan(const eh_op_call *c)
{
    return run_lanes(c, lane_scan, 0, c->out[0]->ndim, c->out[0]->shape);
}

eh_status eh_ref_cumsum(const eh_op_call *c) { return run_scan(c); }
eh_status eh_ref_cumprod(const eh_op_call *c) { return run_scan(c); }

/* ---- norm ---------------------------------------------------------------------- */


/* Vector norm of one lane. */
static double vector_norm(const void *x, eh_dtype dt, const geom *red, int64_t base, int ord)
{
    walker w;
    if (ord == EH_NORM_INF || ord == EH_NORM_NEG_INF) {
        int want_max = ord == EH_NORM_INF;
        double r = want_max ? 0.0 : INFINITY;
        walk_begin(&w, red, base);
        for (int64_t j = 0; j < red->count; j++, walk_next(&w)) {
            double a = fabs(eh_load_f64(x, dt, w.off));
            if (isnan(a))
                return a;
            if (want_max ? a > r : a < r)
                r = a;
        }
        return r;
    }
    if (ord == EH_NORM_1) {
        eh_ref_ksum s = {0, 0};
        walk_begin(&w, red, base);
        for (int64_t j = 0; j < red->count; j++, walk_next(&w))
            eh_ref_ksum_add(&s, fabs(eh_load_f64(x, dt, w.off)));
        return eh_ref_ksum_total(s.s, s.c);
    }
    /* 2 / fro: first pass max |x| (NaN and inf decide at once) */
    double m = 0.0;
    int has_inf = 0;
    walk_begin(&w, red, base);
    for (int64_t j = 0; j < red->count; j++, walk_next(&w)) {
        double a = fabs(eh_load_f64(x, dt, w.off));
        if (isnan(a))
            return a;
        if (isinf(a))
            has_inf = 1;
        else if (a > m)
            m = a;
    }
    if (has_inf)
        return INFINITY;
    if (m == 0.0)
        return 0.0;
    double scale = eh_ref_pow2_scale(m);
    eh_ref_ksum s = {0, 0};
    walk_begin(&w, red, base);
    for (int64_t j = 0; j < red->count; j++, walk_next(&w)) {
        double a = eh_load_f64(x, dt, w.off) / scale;
        eh_ref_ksum_add(&s, a * a);
    }
    return sqrt(eh_ref_ksum_total(s.s, s.c)) * scale;
}

/* Matrix norm of one (rows x cols) lane: rows along red->stride[0],
 * columns along red->stride[1]. */
static eh_status matrix_norm(const void *x, eh_dtype dt, int64_t rows, int64_t rs, int64_t cols,
                             int64_t cs, int64_t base, int ord, double *result)
{
    if (ord == EH_NORM_1 || ord == EH_NORM_INF || ord == EH_NORM_NEG_INF) {
        /* 1: max over columns of the column sums; inf/-inf: max/min over
         * rows of the row sums.  NaN propagates through the max/min. */
        int by_col = ord == EH_NORM_1, want_max = ord != EH_NORM_NEG_INF;
        int64_t outer = by_col ? cols : rows, inner = by_col ? rows : cols;
        int64_t os = by_col ? cs : rs, is = by_col ? rs : cs;
        double r = want_max ? -INFINITY : INFINITY;
        for (int64_t o = 0; o < outer; o++) {
            eh_ref_ksum s = {0, 0};
            for (int64_t i = 0; i < inner; i++)
                eh_ref_ksum_add(&s, fabs(eh_load_f64(x, dt, base + o * os + i * is)));
            double v = eh_ref_ksum_total(s.s, s.c);
            if (isnan(v)) {
                *result = v;
                return EH_OK;
            }
            if (want_max ? v > r : v < r)
                r = v;
        }
        *result = r;
        return EH_OK;
    }
    /* 2 / nuc: singular values */
    int64_t k = rows < cols ? rows : cols;
    if (k == 0) {
        *result = 0.0; /* nuc of an empty matrix; 2 was rejected by the frontend */
        return EH_OK;
    }
    double m = 0.0;
    int has_inf = 0;
    for (int64_t i = 0; i < rows; i++)
        for (int64_t j = 0; j < cols; j++) {
            double a = fabs(eh_load_f64(x, dt, base + i * rs + j * cs));
            if (isnan(a)) {
                *result = a;
                return EH_OK;
            }
            if (isinf(a))
                has_inf = 1;
            else if (a > m)
                m = a;
        }
    if (has_inf || m == 0.0) {
        *result = has_inf ? INFINITY : 0.0;
        return EH_OK;
    }
    /* The SVD gets the matrix scaled here, so max |entry| is in [0.5, 1)
     * (the SVD's own power-of-two scaling is then the identity; in [1, 2)
     * when max |entry| >= 2^1023, see eh_ref_pow2_scale), and the result is
     * scaled back once. */
    double scale = eh_ref_pow2_scale(m);
    if ((uint64_t)rows > SIZE_MAX / sizeof(double) / (uint64_t)cols)
        return EH_ERR_NOMEM;
    double *a = eh_mem_alloc((size_t)rows * (size_t)cols * sizeof *a);
    double *sv = eh_mem_alloc((size_t)k * sizeof *sv);
    if (!a || !sv) {
        eh_mem_free(a);
        eh_mem_free(sv);
        return EH_ERR_NOMEM;
    }
    for (int64_t i = 0; i < rows; i++) /* row-major rows x cols */
        for (int64_t j = 0; j < cols; j++)
            a[i * cols + j] = eh_load_f64(x, dt, base + i * rs + j * cs) / scale;
    eh_status st = eh_ref_singular_values(a, rows, cols, sv);
    eh_mem_free(a);
    if (st != EH_OK) {
        eh_mem_free(sv);
        return st;
    }
    double res = 0.0;
    if (ord == EH_NORM_2) {
        for (int64_t p = 0; p < k; p++)
            if (sv[p] > res)
                res = sv[p];
    } else {
        eh_ref_ksum s = {0, 0};
        for (int64_t p = 0; p < k; p++)
            eh_ref_ksum_add(&s, sv[p]);
        res = eh_ref_ksum_total(s.s, s.c);
    }
    eh_mem_free(sv);
    *result = res * scale;
    return EH_OK;
}

static eh_status lane_norm(const eh_op_call *c, const void *x, eh_dtype dt, const geom *red,
                           int64_t base, void *out, int64_t k)
{
    int ord = (int)c->p.i[0];
    double v = 0.0;
    if (red->count == 0) {
        v = 0.0; /* every empty case that reaches here (2, 1, fro, nuc, or a
                    matrix whose sums are over nothing) is 0 */
    } else if (!c->p.i[1]) {
        v = vector_norm(x, dt, red, base, ord);
    } else {
        /* red was built without merging, in the caller's axis order, but
         * size-1 axes were dropped: take rows and columns from x itself. */
        const eh_tensor *t = c->in[0];
        int64_t strides[EH_MAX_DIMS];
        eh_contiguous_strides(t->ndim, t->shape, strides);
        int ra = c->p.axes[0], ca = c->p.axes[1];
        eh_status st = matrix_norm(x, dt, t->shape[ra], strides[ra], t->shape[ca], strides[ca],
                                   base, ord, &v);
        if (st != EH_OK)
            return st;
    }
    eh_ref_store_float(out, dt, k, v);
    return EH_OK;
}

eh_status eh_ref_norm(const eh_op_call *c) { return reduce_lanes(c, lane_norm, !c->p.i[1]); }

/* ---- allclose ---------------------------------------------------------------------- */

eh_status eh_ref_allclose(const eh_op_call *c)
{
    const eh_tensor *a = c->in[0], *b = c->in[1];
    double rtol = c->p.f[0], atol = c->p.f[1];
    int equal_nan = c->p.i[0] != 0;
    int nd = (int)c->p.i[1];
    int64_t shape[EH_MAX_DIMS], sa[EH_MAX_DIMS], sb[EH_MAX_DIMS];
    int64_t n = 1;
    for (int d = 0; d < nd; d++) {
        shape[d] = c->p.v[d];
        n = shape[d] == 0 ? 0 : n;
    }
    uint8_t all = 1;
    if (n != 0) {
        eh_broadcast_strides(a, nd, shape, sa);
        eh_broadcast_strides(b, nd, shape, sb);
        eh_nd_iter it;
        eh_nd_iter_init(&it, nd, shape);
        do {
            double x = eh_load_f64(a->data, a->dtype, eh_nd_iter_offset(&it, sa));
            double y = eh_load_f64(b->data, b->dtype, eh_nd_iter_offset(&it, sb));
            int close = (fabs(x - y) <= atol + rtol * fabs(y) && isfinite(y)) || x == y ||
                        (equal_nan && isnan(x) && isnan(y));
            if (!close) {
                all = 0;
                break;
            }
        } while (eh_nd_iter_next(&it));
    }
    *(uint8_t *)c->out[0]->data = all;
    return EH_OK;
}
