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
 * Plans.  Made with FFTW_ESTIMATE (no measuring, does not touch the
 * arrays) under a process-wide mutex, because FFTW's planner is not
 * thread-safe, and kept in a small cache keyed on (length, direction) --
 * every plan is double precision, for f32 data too -- so repeated
 * transforms of one length plan once.  A cached plan in use by a call is
 * never evicted (a use count); when every slot is busy the call plans for
 * itself and destroys its plan after.  The cache is freed at exit.  Executing a plan is
 * thread-safe, so the independent 1-D transforms of a call (the lanes of
 * rfft/irfft, the frames of stft) are split across threads with
 * eh_parallel_for, each chunk using its own buffers (fft_buf: 64-byte
 * aligned, the planning buffers' alignment, as fftw_execute_dft_* requires).
 * Lengths beyond FFTW's int run ref's kernel.  Contract: the top of
 * libeh/src/ops_signal.c; the lines' and frames' layout (which samples a
 * transform reads, where its bins go) is ref's, from
 * backends/ref/signal_kernels.h. */
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <fftw3.h>
#include <eh/backend_alloc.h>
#include "blas.h"
#include "../ref/signal_kernels.h"

static pthread_mutex_t planner_lock = PTHREAD_MUTEX_INITIALIZER;

typedef enum { R2C, C2R } plan_kind;

/* Transform buffers, from libeh's allocator (not fftw_malloc, so that the
 * allocation test hook reaches them): 64-byte aligned, enough for any of
 * FFTW's SIMD codelets.  Given back with eh_mem_free. */
static void *fft_buf(size_t bytes) { return eh_mem_aligned(64, bytes); }

/* A plan of length n, or NULL when FFTW cannot make one (no memory). */
static fftw_plan make_plan(plan_kind kind, int64_t n)
{
    double *re = fft_buf(sizeof(double) * (size_t)n);
    fftw_complex *cx = fft_buf(sizeof(fftw_complex) * (size_t)(n / 2 + 1));
    fftw_plan p = NULL;
    if (re && cx) {
        pthread_mutex_lock(&planner_lock);
        if (kind == R2C)
            p = fftw_plan_dft_r2c_1d((int)n, re, cx, FFTW_ESTIMATE);
        else
            p = fftw_plan_dft_c2r_1d((int)n, cx, re, FFTW_ESTIMATE);
        pthread_mutex_unlock(&planner_lock);
    }
    eh_mem_free(re);
    eh_mem_free(cx);
    return p;
}

static void free_plan(fftw_plan p)
{
    pthread_mutex_lock(&planner_lock);
    fftw_destroy_plan(p);
    pthread_mutex_unlock(&planner_lock);
}

/* ---- the plan cache (guarded by planner_lock) ---- */

#define PLAN_SLOTS 16

static struct plan_slot {
    fftw_plan plan; /* NULL: empty */
    plan_kind kind;
    int64_t n;
    int users;          /* calls running with it: never evicted then */
    unsigned long used; /* last use, for least-recently-used eviction */
} slots[PLAN_SLOTS];
static unsigned long use_clock;
static long plans_made; /* for tests: how many plans were ever made */

long eh_blas_fft_plans_made(void);
long eh_blas_fft_plans_made(void)
{
    pthread_mutex_lock(&planner_lock);
    long n = plans_made;
    pthread_mutex_unlock(&planner_lock);
    return n;
}

/* A plan for (kind, n): cached, or new.  *slot is its cache slot, -1 when
 * the plan is the caller's own (release_plan destroys it). */
static fftw_plan acquire_plan(plan_kind kind, int64_t n, int *slot)
{
    pthread_mutex_lock(&planner_lock);
    int free_slot = -1;
    for (int k = 0; k < PLAN_SLOTS; k++) {
        struct plan_slot *e = &slots[k];
        if (e->plan && e->kind == kind && e->n == n) {
            e->users++;
            e->used = ++use_clock;
            *slot = k;
            pthread_mutex_unlock(&planner_lock);
            return e->plan;
        }
        if (e->users == 0 && (free_slot < 0 || !e->plan ||
                              (slots[free_slot].plan && e->used < slots[free_slot].used)))
            free_slot = k;
    }
    pthread_mutex_unlock(&planner_lock);
    fftw_plan p = make_plan(kind, n);
    if (!p)
        return NULL;
    pthread_mutex_lock(&planner_lock);
    plans_made++;
    *slot = -1;
    /* the slot chosen above may have been taken meanwhile: check again */
    if (free_slot >= 0 && slots[free_slot].users == 0) {
        struct plan_slot *e = &slots[free_slot];
        if (e->plan)
            fftw_destroy_plan(e->plan);
        *e = (struct plan_slot){p, kind, n, 1, ++use_clock};
        *slot = free_slot;
    }
    pthread_mutex_unlock(&planner_lock);
    return p;
}

static void release_plan(fftw_plan p, int slot)
{
    if (slot < 0) {
        free_plan(p);
        return;
    }
    pthread_mutex_lock(&planner_lock);
    slots[slot].users--;
    pthread_mutex_unlock(&planner_lock);
}

/* At exit (or dlclose): no call is running then. */
__attribute__((destructor)) static void drop_plans(void)
{
    for (int k = 0; k < PLAN_SLOTS; k++)
        if (slots[k].plan) {
            fftw_destroy_plan(slots[k].plan);
            slots[k].plan = NULL;
        }
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
    eh_ref_fft_lines l;   /* rfft, irfft */
    eh_ref_stft_frames s; /* stft */
    _Atomic int failed;
} fft_job;

/* Runs the 1-D transforms [0, items) of job j through `range` on the
 * thread pool with a plan of `kind` and length n; ref's NOMEM error when
 * a plan or a chunk's buffers could not be made. */
static eh_status run_job(fft_job *j, plan_kind kind, const char *op, int64_t n, int64_t items,
                         void (*range)(void *, int64_t, int64_t, int))
{
    atomic_init(&j->failed, 0);
    int slot;
    if (!(j->plan = acquire_plan(kind, n, &slot)))
        return eh_ref_fft_nomem(op, n);
    int64_t grain = EH_BLAS_GRAIN_HEAVY / n;
    eh_parallel_for(items, grain > 0 ? grain : 1, range, j);
    release_plan(j->plan, slot);
    return atomic_load(&j->failed) ? eh_ref_fft_nomem(op, n) : EH_OK;
}

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
    const eh_ref_fft_lines *l = &j->l;
    const eh_tensor *x = j->c->in[0];
    eh_tensor *out = j->c->out[0];
    double *in = fft_buf(sizeof(double) * (size_t)l->n);
    fftw_complex *co = fft_buf(sizeof(fftw_complex) * (size_t)l->m);
    if (!in || !co) {
        atomic_store(&j->failed, 1);
    } else {
        for (int64_t lane = begin; lane < end; lane++) {
            int64_t o = lane / l->inner, i = lane % l->inner;
            int nan = 0;
            for (int64_t t = 0; t < l->n; t++) {
                in[t] = eh_ref_rfft_sample(x, l, o, i, t);
                nan |= in[t] != in[t];
            }
            fill_or_execute(j->plan, in, co, l->m, nan);
            for (int64_t k = 0; k < l->m; k++) {
                int64_t at = eh_ref_bin_at(l, o, k, i);
                st(out->data, out->dtype, at, co[k][0]);
                st(out->data, out->dtype, at + 1, co[k][1]);
            }
        }
    }
    eh_mem_free(in);
    eh_mem_free(co);
}

eh_status eh_blas_rfft(const eh_op_call *call)
{
    if (call->out[0]->size == 0)
        return EH_OK;
    if (call->p.i[0] > INT_MAX / 2)
        return eh_ref_rfft(call);
    fft_job j;
    memset(&j, 0, sizeof j);
    j.c = call;
    j.l = eh_ref_rfft_lines(call);
    return run_job(&j, R2C, "rfft", j.l.n, j.l.outer * j.l.inner, rfft_range);
}

/* ---- irfft ------------------------------------------------------------------- */

static void irfft_range(void *ctx, int64_t begin, int64_t end, int worker)
{
    (void)worker;
    fft_job *j = ctx;
    const eh_ref_fft_lines *l = &j->l;
    const eh_tensor *x = j->c->in[0];
    eh_tensor *out = j->c->out[0];
    double *re = fft_buf(sizeof(double) * (size_t)l->n);
    fftw_complex *ci = fft_buf(sizeof(fftw_complex) * (size_t)(l->half + 1));
    double scale = 1.0 / (double)l->n;
    if (!re || !ci) {
        atomic_store(&j->failed, 1);
    } else {
        for (int64_t lane = begin; lane < end; lane++) {
            int64_t o = lane / l->inner, i = lane % l->inner;
            int nan = 0;
            for (int64_t k = 0; k <= l->half; k++) {
                eh_ref_irfft_bin(x, l, o, i, k, &ci[k][0], &ci[k][1]);
                nan |= ci[k][0] != ci[k][0] || ci[k][1] != ci[k][1];
            }
            if (nan) {
                for (int64_t t = 0; t < l->n; t++)
                    re[t] = NAN;
            } else {
                fftw_execute_dft_c2r(j->plan, ci, re); /* destroys ci: refilled each lane */
            }
            for (int64_t t = 0; t < l->n; t++)
                st(out->data, out->dtype, eh_ref_irfft_out_at(l, o, i, t), re[t] * scale);
        }
    }
    eh_mem_free(re);
    eh_mem_free(ci);
}

eh_status eh_blas_irfft(const eh_op_call *call)
{
    if (call->out[0]->size == 0)
        return EH_OK;
    if (call->p.i[0] > INT_MAX / 2)
        return eh_ref_irfft(call);
    fft_job j;
    memset(&j, 0, sizeof j);
    j.c = call;
    j.l = eh_ref_irfft_lines(call);
    return run_job(&j, C2R, "irfft", j.l.n, j.l.outer * j.l.inner, irfft_range);
}

/* ---- stft ----------------------------------------------------------------------- */

static void stft_range(void *ctx, int64_t begin, int64_t end, int worker)
{
    (void)worker;
    fft_job *j = ctx;
    const eh_ref_stft_frames *s = &j->s;
    const eh_tensor *x = j->c->in[0], *win = j->c->in[1];
    eh_tensor *out = j->c->out[0];
    double *in = fft_buf(sizeof(double) * (size_t)s->n);
    fftw_complex *co = fft_buf(sizeof(fftw_complex) * (size_t)s->bins);
    if (!in || !co) {
        atomic_store(&j->failed, 1);
    } else {
        for (int64_t item = begin; item < end; item++) {
            int64_t b = item / s->n_frames, f = item % s->n_frames;
            int nan = 0;
            for (int64_t t = 0; t < s->n; t++) {
                in[t] = eh_ref_stft_sample(x, win, s, b, f, t);
                nan |= in[t] != in[t];
            }
            fill_or_execute(j->plan, in, co, s->bins, nan);
            for (int64_t k = 0; k < s->bins; k++) {
                int64_t at = eh_ref_stft_at(s, b, k, f);
                st(out->data, out->dtype, at, co[k][0]);
                st(out->data, out->dtype, at + 1, co[k][1]);
            }
        }
    }
    eh_mem_free(in);
    eh_mem_free(co);
}

eh_status eh_blas_stft(const eh_op_call *call)
{
    if (call->out[0]->size == 0)
        return EH_OK;
    if (call->p.i[0] > INT_MAX / 2)
        return eh_ref_stft(call);
    fft_job j;
    memset(&j, 0, sizeof j);
    j.c = call;
    j.s = eh_ref_stft_frames_of(call);
    return run_job(&j, R2C, "stft", j.s.n, j.s.batch * j.s.n_frames, stft_range);
}
