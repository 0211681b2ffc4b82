/* blas kernels: rfft, irfft, stft through FFTW3.
 *
 * Every transform runs in double precision (fftw_plan_dft_r2c_1d /
 * _c2r_1d), like ref's, for f32 and f64 data alike, so results agree with
 * ref to double rounding and then round to the output dtype the same way
 * (f32 outputs nearly always bit-identical, f64 within a few ulps).
 * Output layout and normalization are ref's (docs/ops/signal.md):
 * interleaved (re, im) pairs, unnormalized forward transform, 1/n on the
 * inverse, irfft ignoring the imaginary parts of bin 0 and (even n) bin
 * n/2, stft reflect padding and frame-major bins.  A NaN anywhere in a
 * transformed line makes every output of that line NaN (the documented
 * rule, which ref's full complex arithmetic gives by itself; FFTW's
 * codelets skip multiplications by 0 and 1 and would let some parts
 * through), so a line holding a NaN is not transformed but filled.
 *
 * Plans.  One plan per call, made with FFTW_ESTIMATE (no measuring, does
 * not touch the arrays) under a process-wide mutex, because FFTW's planner
 * is not thread-safe, and destroyed (under the same mutex) before the
 * kernel returns: nothing is cached between calls.  Executing a plan is
 * thread-safe, so the independent 1-D transforms of a call (the lanes of
 * rfft/irfft, the frames of stft) are split across threads with
 * eh_parallel_for, each chunk using its own fftw_malloc'd buffers (same
 * alignment as the planning buffers, as fftw_execute_dft_* requires).
 * Lengths beyond FFTW's int run ref's kernel.  Contract: the top of
 * libeh/src/ops_signal.c. */
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <fftw3.h>
#include "blas.h"
#include "../ref/ref.h"

static pthread_mutex_t planner_lock = PTHREAD_MUTEX_INITIALIZER;

typedef enum { R2C, C2R } plan_kind;

/* A plan of length n, or NULL when FFTW cannot make one (no memory). */
static fftw_plan make_plan(plan_kind kind, int64_t n)
{
    double *re = fftw_malloc(sizeof(double) * (size_t)n);
    fftw_complex *cx = fftw_malloc(sizeof(fftw_complex) * (size_t)(n / 2 + 1));
    fftw_plan p = NULL;
    if (re && cx) {
        pthread_mutex_lock(&planner_lock);
        if (kind == R2C)
            p = fftw_plan_dft_r2c_1d((int)n, re, cx, FFTW_ESTIMATE);
        else
            p = fftw_plan_dft_c2r_1d((int)n, cx, re, FFTW_ESTIMATE);
        pthread_mutex_unlock(&planner_lock);
    }
    fftw_free(re);
    fftw_free(cx);
    return p;
}

static void free_plan(fftw_plan p)
{
    pthread_mutex_lock(&planner_lock);
    fftw_destroy_plan(p);
    pthread_mutex_unlock(&planner_lock);
}

static eh_status nomem(const char *op, int64_t n)
{
    return eh_set_error(EH_ERR_NOMEM, "%s: out of memory for the scratch of a length-%lld FFT",
                        op, (long long)n);
}

static int64_t span(const int64_t *shape, int lo, int hi)
{
    int64_t s = 1;
    for (int d = lo; d < hi; d++)
        s *= shape[d];
    return s;
}

static inline double ld(const void *data, eh_dtype dt, int64_t i)
{
    return dt == EH_F32 ? (double)((const float *)data)[i] : ((const double *)data)[i];
}

/* Store as ref does (eh_store_f64 for f32: round to nearest, saturating
 * only beyond the float range, which a finite f32 transform cannot reach
 * except through overflow to inf, which (float) gives too). */
static inline void st(void *data, eh_dtype dt, int64_t i, double v)
{
    if (dt == EH_F32)
        eh_store_f64(data, dt, i, v);
    else
        ((double *)data)[i] = v;
}

typedef struct {
    const eh_op_call *c;
    fftw_plan plan;
    int64_t n, m, len, inner, take, half, use, T, hop, pad, n_frames, bins;
    _Atomic int failed;
} fft_job;

/* ---- rfft ------------------------------------------------------------------- */

/* The forward transform of `in`, or all-NaN bins when in holds a NaN. */
static void fill_or_execute(fftw_plan plan, double *in, fftw_complex *co, int64_t bins, int nan)
{
    if (!nan) {
        fftw_execute_dft_r2c(plan, in, co);
        return;
    }
    for (int64_t k = 0; k < bins; k++)
        co[k][0] = co[k][1] = NAN;
}

static void rfft_range(void *ctx, int64_t begin, int64_t end, int worker)
{
    (void)worker;
    fft_job *j = ctx;
    const eh_tensor *x = j->c->in[0];
    eh_tensor *out = j->c->out[0];
    double *in = fftw_malloc(sizeof(double) * (size_t)j->n);
    fftw_complex *co = fftw_malloc(sizeof(fftw_complex) * (size_t)j->m);
    if (!in || !co) {
        atomic_store(&j->failed, 1);
    } else {
        for (int64_t lane = begin; lane < end; lane++) {
            int64_t o = lane / j->inner, i = lane % j->inner;
            int nan = 0;
            for (int64_t t = 0; t < j->n; t++) {
                in[t] = t < j->take ? ld(x->data, x->dtype, (o * j->len + t) * j->inner + i) : 0.0;
                nan |= in[t] != in[t];
            }
            fill_or_execute(j->plan, in, co, j->m, nan);
            for (int64_t k = 0; k < j->m; k++) {
                int64_t at = ((o * j->m + k) * j->inner + i) * 2;
                st(out->data, out->dtype, at, co[k][0]);
                st(out->data, out->dtype, at + 1, co[k][1]);
            }
        }
    }
    fftw_free(in);
    fftw_free(co);
}

eh_status eh_blas_rfft(const eh_op_call *call)
{
    const eh_tensor *x = call->in[0];
    eh_tensor *out = call->out[0];
    if (out->size == 0)
        return EH_OK;
    int64_t n = call->p.i[0];
    if (n > INT_MAX / 2)
        return eh_ref_rfft(call);
    int a = call->p.axes[0];
    fft_job j;
    memset(&j, 0, sizeof j);
    j.c = call;
    j.n = n;
    j.m = n / 2 + 1;
    j.len = x->shape[a];
    j.take = j.len < n ? j.len : n;
    j.inner = span(x->shape, a + 1, x->ndim);
    atomic_init(&j.failed, 0);
    int64_t lanes = span(x->shape, 0, a) * j.inner;
    if (!(j.plan = make_plan(R2C, n)))
        return nomem("rfft", n);
    int64_t grain = EH_BLAS_GRAIN_HEAVY / n;
    eh_parallel_for(lanes, grain > 0 ? grain : 1, rfft_range, &j);
    free_plan(j.plan);
    return atomic_load(&j.failed) ? nomem("rfft", n) : EH_OK;
}

/* ---- irfft ------------------------------------------------------------------- */

static void irfft_range(void *ctx, int64_t begin, int64_t end, int worker)
{
    (void)worker;
    fft_job *j = ctx;
    const eh_tensor *x = j->c->in[0];
    eh_tensor *out = j->c->out[0];
    double *re = fftw_malloc(sizeof(double) * (size_t)j->n);
    fftw_complex *ci = fftw_malloc(sizeof(fftw_complex) * (size_t)(j->half + 1));
    double scale = 1.0 / (double)j->n;
    if (!re || !ci) {
        atomic_store(&j->failed, 1);
    } else {
        for (int64_t lane = begin; lane < end; lane++) {
            int64_t o = lane / j->inner, i = lane % j->inner;
            int nan = 0;
            for (int64_t k = 0; k <= j->half; k++) {
                double vr = 0.0, vi = 0.0;
                if (k < j->use) {
                    int64_t at = ((o * j->m + k) * j->inner + i) * 2;
                    vr = ld(x->data, x->dtype, at);
                    vi = ld(x->data, x->dtype, at + 1);
                }
                if (k == 0 || 2 * k == j->n)
                    vi = 0.0; /* a real signal's DC and Nyquist bins are real */
                ci[k][0] = vr;
                ci[k][1] = vi;
                nan |= vr != vr || vi != vi;
            }
            if (nan) {
                for (int64_t t = 0; t < j->n; t++)
                    re[t] = NAN;
            } else {
                fftw_execute_dft_c2r(j->plan, ci, re); /* destroys ci: refilled each lane */
            }
            for (int64_t t = 0; t < j->n; t++)
                st(out->data, out->dtype, (o * j->n + t) * j->inner + i, re[t] * scale);
        }
    }
    fftw_free(re);
    fftw_free(ci);
}

eh_status eh_blas_irfft(const eh_op_call *call)
{
    const eh_tensor *x = call->in[0];
    eh_tensor *out = call->out[0];
    if (out->size == 0)
        return EH_OK;
    int64_t n = call->p.i[0];
    if (n > INT_MAX / 2)
        return eh_ref_irfft(call);
    int a = call->p.axes[0];
    int cnd = x->ndim - 1;
    fft_job j;
    memset(&j, 0, sizeof j);
    j.c = call;
    j.n = n;
    j.m = x->shape[a];
    j.half = n / 2;
    j.use = j.m < j.half + 1 ? j.m : j.half + 1;
    j.inner = span(x->shape, a + 1, cnd);
    atomic_init(&j.failed, 0);
    int64_t lanes = span(x->shape, 0, a) * j.inner;
    if (!(j.plan = make_plan(C2R, n)))
        return nomem("irfft", n);
    int64_t grain = EH_BLAS_GRAIN_HEAVY / n;
    eh_parallel_for(lanes, grain > 0 ? grain : 1, irfft_range, &j);
    free_plan(j.plan);
    return atomic_load(&j.failed) ? nomem("irfft", n) : EH_OK;
}

/* ---- stft ----------------------------------------------------------------------- */

/* Index j of x reflect-padded (np.pad mode "reflect"), mapped into [0, T). */
static int64_t reflect_index(int64_t j, int64_t T)
{
    if (T == 1)
        return 0;
    int64_t period = 2 * (T - 1);
    int64_t r = j % period;
    if (r < 0)
        r += period;
    return r < T ? r : period - r;
}

static void stft_range(void *ctx, int64_t begin, int64_t end, int worker)
{
    (void)worker;
    fft_job *j = ctx;
    const eh_tensor *x = j->c->in[0], *win = j->c->in[1];
    eh_tensor *out = j->c->out[0];
    int64_t n = j->n;
    double *in = fftw_malloc(sizeof(double) * (size_t)n);
    fftw_complex *co = fftw_malloc(sizeof(fftw_complex) * (size_t)j->bins);
    if (!in || !co) {
        atomic_store(&j->failed, 1);
    } else {
        for (int64_t item = begin; item < end; item++) {
            int64_t b = item / j->n_frames, f = item % j->n_frames;
            int nan = 0;
            for (int64_t t = 0; t < n; t++) {
                int64_t k = f * j->hop + t - j->pad;
                if (j->pad > 0)
                    k = reflect_index(k, j->T);
                in[t] = ld(x->data, x->dtype, b * j->T + k) * ld(win->data, win->dtype, t);
                nan |= in[t] != in[t];
            }
            fill_or_execute(j->plan, in, co, j->bins, nan);
            for (int64_t k = 0; k < j->bins; k++) {
                int64_t at = ((b * j->bins + k) * j->n_frames + f) * 2;
                st(out->data, out->dtype, at, co[k][0]);
                st(out->data, out->dtype, at + 1, co[k][1]);
            }
        }
    }
    fftw_free(in);
    fftw_free(co);
}

eh_status eh_blas_stft(const eh_op_call *call)
{
    const eh_tensor *x = call->in[0];
    eh_tensor *out = call->out[0];
    if (out->size == 0)
        return EH_OK;
    int64_t n_fft = call->p.i[0];
    if (n_fft > INT_MAX / 2)
        return eh_ref_stft(call);
    fft_job j;
    memset(&j, 0, sizeof j);
    j.c = call;
    j.n = n_fft;
    j.hop = call->p.i[1];
    j.pad = call->p.i[2];
    j.T = x->shape[x->ndim - 1];
    j.bins = n_fft / 2 + 1;
    j.n_frames = out->shape[out->ndim - 2];
    atomic_init(&j.failed, 0);
    int64_t items = span(x->shape, 0, x->ndim - 1) * j.n_frames;
    if (!(j.plan = make_plan(R2C, n_fft)))
        return nomem("stft", n_fft);
    int64_t grain = EH_BLAS_GRAIN_HEAVY / n_fft;
    eh_parallel_for(items, grain > 0 ? grain : 1, stft_range, &j);
    free_plan(j.plan);
    return atomic_load(&j.failed) ? nomem("stft", n_fft) : EH_OK;
}
