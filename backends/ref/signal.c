/* ref kernels: windows, framing and real Fourier transforms.
 *
 * The call contract (which inputs, which eh_op_call.p fields) is
 * documented at the top of libeh/src/ops_signal.c.
 *
 * Every transform runs in double precision on interleaved complex
 * buffers (re, im, re, im, ...) and rounds once on the store:
 *   - n a power of two: iterative radix-2 decimation in time;
 *   - other n <= DIRECT_MAX: a direct O(n^2) DFT;
 *   - other n: Bluestein's chirp-z algorithm on a power-of-two FFT.
 * Twiddles come straight from sin/cos of 2 pi k / n (no recurrences),
 * with the angle first folded into [0, pi/4] by exact integer symmetry,
 * so quarter-turns are exactly 0 and +-1 and w^k and w^(n-k) are exact
 * conjugates.  The inverse transform is conj(forward(conj(x))). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <eh/backend_alloc.h>
#include "signal_kernels.h"

#define EH_PI 3.14159265358979323846264338327950288

/* Non-power-of-two lengths up to this use the direct DFT. */
#define DIRECT_MAX 64

/* Largest transform length we make a plan for (keeps every index
 * computation below, up to 8 n and n^2-free, far from int64 overflow,
 * and is far beyond any allocatable buffer anyway). */
#define FFT_MAX_N ((int64_t)1 << 56)

/* cos and sin of 2 pi k / n, for any integer k and n >= 1. */
static void cos_sin_2pi(int64_t k, int64_t n, double *c, double *s)
{
    k %= n;
    if (k < 0)
        k += n;
    /* theta = pi * a / b with a in [0, 2b). */
    int64_t a = 2 * k, b = n;
    double sin_sign = 1.0, cos_sign = 1.0;
    if (a > b) {                 /* theta in (pi, 2 pi): theta = 2 pi - theta' */
        a = 2 * b - a;
        sin_sign = -1.0;
    }
    if (2 * a > b) {             /* theta in (pi/2, pi]: theta = pi - theta' */
        a = b - a;
        cos_sign = -1.0;
    }
    /* now theta = pi a / b in [0, pi/2] */
    double cv, sv;
    if (4 * a > b) {             /* (pi/4, pi/2]: theta = pi/2 - phi, phi = pi (b - 2a) / (2b) */
        double phi = EH_PI * (double)(b - 2 * a) / (double)(2 * b);
        cv = sin(phi);
        sv = cos(phi);
    } else {
        double phi = EH_PI * (double)a / (double)b;
        cv = cos(phi);
        sv = sin(phi);
    }
    *c = cos_sign * cv;
    *s = sin_sign * sv;
}

static int is_pow2(int64_t n) { return n > 0 && (n & (n - 1)) == 0; }

/* malloc of count doubles, NULL on overflow or failure. */
static double *alloc_doubles(int64_t count)
{
    if (count < 0 || (uint64_t)count > SIZE_MAX / sizeof(double))
        return NULL;
    return eh_mem_alloc((size_t)(count ? count : 1) * sizeof(double));
}

/* ---- complex FFT plans ---------------------------------------------- */

typedef enum { PLAN_POW2, PLAN_DIRECT, PLAN_BLUESTEIN } plan_kind;

typedef struct fft_plan {
    int64_t n;
    plan_kind kind;
    double *tw;             /* POW2: n/2 twiddles; DIRECT: n twiddles; exp(-2 pi i j / n) */
    double *work;           /* DIRECT: 2n; BLUESTEIN: 2m                                   */
    struct fft_plan *sub;   /* BLUESTEIN: the power-of-two plan of length m                */
    int64_t m;
    double *chirp;          /* BLUESTEIN: exp(-pi i k^2 / n), k < n                        */
    double *filter;         /* BLUESTEIN: FFT of the conjugate chirp, wrapped to m          */
} fft_plan;

static void plan_free(fft_plan *p)
{
    if (!p)
        return;
    eh_mem_free(p->tw);
    eh_mem_free(p->work);
    eh_mem_free(p->chirp);
    eh_mem_free(p->filter);
    plan_free(p->sub);
    eh_mem_free(p);
}

static void fft_forward(const fft_plan *p, double *a);

/* A plan for length n >= 1; NULL when out of memory. */
static fft_plan *plan_new(int64_t n)
{
    if (n < 1 || n > FFT_MAX_N)
        return NULL;
    fft_plan *p = eh_mem_calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->n = n;
    if (is_pow2(n)) {
        p->kind = PLAN_POW2;
        int64_t h = n / 2;
        if (!(p->tw = alloc_doubles(2 * h)))
            goto fail;
        for (int64_t j = 0; j < h; j++) {
            double c, s;
            cos_sin_2pi(j, n, &c, &s);
            p->tw[2 * j] = c;
            p->tw[2 * j + 1] = -s;
        }
        return p;
    }
    if (n <= DIRECT_MAX) {
        p->kind = PLAN_DIRECT;
        if (!(p->tw = alloc_doubles(2 * n)) || !(p->work = alloc_doubles(2 * n)))
            goto fail;
        for (int64_t j = 0; j < n; j++) {
            double c, s;
            cos_sin_2pi(j, n, &c, &s);
            p->tw[2 * j] = c;
            p->tw[2 * j + 1] = -s;
        }
        return p;
    }
    /* Bluestein: X_k = w_k sum_j (x_j w_j) conj(w_{k-j}), w_k = exp(-pi i k^2 / n),
     * the sum a circular convolution of length m >= 2n - 1. */
    p->kind = PLAN_BLUESTEIN;
    int64_t m = 1;
    while (m < 2 * n - 1)
        m *= 2;
    p->m = m;
    if (!(p->sub = plan_new(m)) || !(p->chirp = alloc_doubles(2 * n)) ||
        !(p->filter = alloc_doubles(2 * m)) || !(p->work = alloc_doubles(2 * m)))
        goto fail;
    int64_t r = 0; /* k^2 mod 2n, updated exactly: (k+1)^2 = k^2 + 2k + 1 */
    for (int64_t k = 0; k < n; k++) {
        double c, s;
        cos_sin_2pi(r, 2 * n, &c, &s);
        p->chirp[2 * k] = c;
        p->chirp[2 * k + 1] = -s;
        r = (r + 2 * k + 1) % (2 * n);
    }
    memset(p->filter, 0, (size_t)(2 * m) * sizeof(double));
    for (int64_t k = 0; k < n; k++) {
        double c = p->chirp[2 * k], s = -p->chirp[2 * k + 1]; /* conj(w_k) */
        p->filter[2 * k] = c;
        p->filter[2 * k + 1] = s;
        if (k > 0) {
            p->filter[2 * (m - k)] = c;
            p->filter[2 * (m - k) + 1] = s;
        }
    }
    fft_forward(p->sub, p->filter);
    return p;
fail:
    plan_free(p);
    return NULL;
}

static void fft_pow2(const fft_plan *p, double *a)
{
    int64_t n = p->n;
    /* bit-reversal permutation */
    for (int64_t i = 1, j = 0; i < n; i++) {
        int64_t bit = n >> 1;
        for (; j & bit; bit >>= 1)
            j ^= bit;
        j ^= bit;
        if (i < j) {
            double tr = a[2 * i], ti = a[2 * i + 1];
            a[2 * i] = a[2 * j];
            a[2 * i + 1] = a[2 * j + 1];
            a[2 * j] = tr;
            a[2 * j + 1] = ti;
        }
    }
    for (int64_t len = 2; len <= n; len *= 2) {
        int64_t half = len / 2, step = n / len;
        for (int64_t i = 0; i < n; i += len) {
            for (int64_t j = 0; j < half; j++) {
                double wr = p->tw[2 * j * step], wi = p->tw[2 * j * step + 1];
                double *u = a + 2 * (i + j), *v = a + 2 * (i + j + half);
                double vr = v[0] * wr - v[1] * wi, vi = v[0] * wi + v[1] * wr;
                v[0] = u[0] - vr;
                v[1] = u[1] - vi;
                u[0] += vr;
                u[1] += vi;
            }
        }
    }
}

static void fft_direct(const fft_plan *p, double *a)
{
    int64_t n = p->n;
    for (int64_t k = 0; k < n; k++) {
        double sr = 0.0, si = 0.0;
        int64_t r = 0; /* j k mod n */
        for (int64_t j = 0; j < n; j++) {
            double wr = p->tw[2 * r], wi = p->tw[2 * r + 1];
            sr += a[2 * j] * wr - a[2 * j + 1] * wi;
            si += a[2 * j] * wi + a[2 * j + 1] * wr;
            r += k;
            if (r >= n)
                r -= n;
        }
        p->work[2 * k] = sr;
        p->work[2 * k + 1] = si;
    }
    memcpy(a, p->work, (size_t)(2 * n) * sizeof(double));
}

static void fft_bluestein(const fft_plan *p, double *a)
{
    int64_t n = p->n, m = p->m;
    double *w = p->work;
    memset(w, 0, (size_t)(2 * m) * sizeof(double));
    for (int64_t k = 0; k < n; k++) {
        double cr = p->chirp[2 * k], ci = p->chirp[2 * k + 1];
        w[2 * k] = a[2 * k] * cr - a[2 * k + 1] * ci;
        w[2 * k + 1] = a[2 * k] * ci + a[2 * k + 1] * cr;
    }
    fft_forward(p->sub, w);
    for (int64_t k = 0; k < m; k++) {
        double fr = p->filter[2 * k], fi = p->filter[2 * k + 1];
        double xr = w[2 * k], xi = w[2 * k + 1];
        /* product, conjugated for the inverse-by-conjugation below */
        w[2 * k] = xr * fr - xi * fi;
        w[2 * k + 1] = -(xr * fi + xi * fr);
    }
    fft_forward(p->sub, w); /* conj of the unscaled inverse transform */
    double scale = 1.0 / (double)m;
    for (int64_t k = 0; k < n; k++) {
        double yr = w[2 * k] * scale, yi = -w[2 * k + 1] * scale;
        double cr = p->chirp[2 * k], ci = p->chirp[2 * k + 1];
        a[2 * k] = yr * cr - yi * ci;
        a[2 * k + 1] = yr * ci + yi * cr;
    }
}

/* In-place unnormalized forward DFT of p->n complex values. */
static void fft_forward(const fft_plan *p, double *a)
{
    switch (p->kind) {
    case PLAN_POW2: fft_pow2(p, a); break;
    case PLAN_DIRECT: fft_direct(p, a); break;
    case PLAN_BLUESTEIN: fft_bluestein(p, a); break;
    }
}

/* In-place unnormalized inverse DFT (exp(+2 pi i ...)), no 1/n. */
static void fft_inverse(const fft_plan *p, double *a)
{
    for (int64_t k = 0; k < p->n; k++)
        a[2 * k + 1] = -a[2 * k + 1];
    fft_forward(p, a);
    for (int64_t k = 0; k < p->n; k++)
        a[2 * k + 1] = -a[2 * k + 1];
}

/* A plan plus a buffer of n complex values, or the NOMEM error. */
static eh_status fft_setup(const char *op, int64_t n, fft_plan **plan, double **buf)
{
    *plan = plan_new(n);
    *buf = *plan ? alloc_doubles(2 * n) : NULL;
    if (!*buf) {
        plan_free(*plan);
        *plan = NULL;
        return eh_ref_fft_nomem(op, n);
    }
    return EH_OK;
}

/* Declared in signal_kernels.h. */
eh_status eh_ref_fft_nomem(const char *op, int64_t n)
{
    return eh_set_error(EH_ERR_NOMEM, "%s: out of memory for the scratch of a length-%lld FFT", op,
                        (long long)n);
}

/* ---- windows -------------------------------------------------------- */

/* w[k] = alpha - beta cos(2 pi k / M).  beta is its own constant, not
 * 1 - alpha: 1 - 0.54 is 0.45999999999999996 in double, which would make
 * Hamming's ends 0.08000000000000007 instead of NumPy's 0.54 - 0.46. */
static eh_status cosine_window(const eh_op_call *call, double alpha, double beta)
{
    eh_tensor *out = call->out[0];
    int64_t n = out->shape[0];
    int64_t M = call->p.i[0] ? n : n - 1;
    for (int64_t k = 0; k < n; k++) {
        double v = 1.0;
        if (n > 1) {
            double c, s;
            cos_sin_2pi(k, M, &c, &s);
            v = alpha - beta * c;
        }
        eh_store_f64(out->data, out->dtype, k, v);
    }
    return EH_OK;
}

eh_status eh_ref_hann_window(const eh_op_call *call) { return cosine_window(call, 0.5, 0.5); }

eh_status eh_ref_hamming_window(const eh_op_call *call) { return cosine_window(call, 0.54, 0.46); }

/* ---- frame ---------------------------------------------------------- */

eh_status eh_ref_frame(const eh_op_call *call)
{
    const eh_tensor *x = call->in[0];
    eh_tensor *out = call->out[0];
    if (out->size == 0)
        return EH_OK;
    int a = call->p.axes[0];
    int64_t L = call->p.i[0], hop = call->p.i[1];
    int64_t len = x->shape[a], n_frames = out->shape[a];
    int64_t outer = eh_ref_span(x->shape, 0, a), inner = eh_ref_span(x->shape, a + 1, x->ndim);
    size_t esz = eh_dtype_size(x->dtype), block = (size_t)inner * esz;
    const char *src = x->data;
    char *dst = out->data;
    for (int64_t o = 0; o < outer; o++) {
        const char *row = src + (size_t)(o * len) * block;
        for (int64_t f = 0; f < n_frames; f++) {
            memcpy(dst, row + (size_t)(f * hop) * block, (size_t)L * block);
            dst += (size_t)L * block;
        }
    }
    return EH_OK;
}

/* ---- rfft / irfft --------------------------------------------------- */

eh_status eh_ref_rfft(const eh_op_call *call)
{
    const eh_tensor *x = call->in[0];
    eh_tensor *out = call->out[0];
    if (out->size == 0)
        return EH_OK;
    eh_ref_fft_lines l = eh_ref_rfft_lines(call);
    fft_plan *plan;
    double *buf;
    eh_status st = fft_setup("rfft", l.n, &plan, &buf);
    if (st != EH_OK)
        return st;
    for (int64_t o = 0; o < l.outer; o++) {
        for (int64_t i = 0; i < l.inner; i++) {
            for (int64_t t = 0; t < l.n; t++) {
                buf[2 * t] = eh_ref_rfft_sample(x, &l, o, i, t);
                buf[2 * t + 1] = 0.0;
            }
            fft_forward(plan, buf);
            for (int64_t k = 0; k < l.m; k++) {
                int64_t at = eh_ref_bin_at(&l, o, k, i);
                eh_store_f64(out->data, out->dtype, at, buf[2 * k]);
                eh_store_f64(out->data, out->dtype, at + 1, buf[2 * k + 1]);
            }
        }
    }
    plan_free(plan);
    eh_mem_free(buf);
    return EH_OK;
}

eh_status eh_ref_irfft(const eh_op_call *call)
{
    const eh_tensor *x = call->in[0];
    eh_tensor *out = call->out[0];
    if (out->size == 0)
        return EH_OK;
    eh_ref_fft_lines l = eh_ref_irfft_lines(call);
    int64_t n = l.n;
    fft_plan *plan;
    double *buf;
    eh_status st = fft_setup("irfft", n, &plan, &buf);
    if (st != EH_OK)
        return st;
    double scale = 1.0 / (double)n;
    for (int64_t o = 0; o < l.outer; o++) {
        for (int64_t i = 0; i < l.inner; i++) {
            for (int64_t k = 0; k <= l.half; k++)
                eh_ref_irfft_bin(x, &l, o, i, k, &buf[2 * k], &buf[2 * k + 1]);
            for (int64_t k = l.half + 1; k < n; k++) { /* Hermitian symmetry */
                buf[2 * k] = buf[2 * (n - k)];
                buf[2 * k + 1] = -buf[2 * (n - k) + 1];
            }
            fft_inverse(plan, buf);
            for (int64_t t = 0; t < n; t++)
                eh_store_f64(out->data, out->dtype, eh_ref_irfft_out_at(&l, o, i, t),
                             buf[2 * t] * scale);
        }
    }
    plan_free(plan);
    eh_mem_free(buf);
    return EH_OK;
}

/* ---- stft ----------------------------------------------------------- */

eh_status eh_ref_stft(const eh_op_call *call)
{
    const eh_tensor *x = call->in[0], *win = call->in[1];
    eh_tensor *out = call->out[0];
    if (out->size == 0)
        return EH_OK;
    eh_ref_stft_frames s = eh_ref_stft_frames_of(call);
    fft_plan *plan;
    double *buf;
    eh_status st = fft_setup("stft", s.n, &plan, &buf);
    if (st != EH_OK)
        return st;
    for (int64_t b = 0; b < s.batch; b++) {
        for (int64_t f = 0; f < s.n_frames; f++) {
            for (int64_t t = 0; t < s.n; t++) {
                buf[2 * t] = eh_ref_stft_sample(x, win, &s, b, f, t);
                buf[2 * t + 1] = 0.0;
            }
            fft_forward(plan, buf);
            for (int64_t k = 0; k < s.bins; k++) {
                int64_t at = eh_ref_stft_at(&s, b, k, f);
                eh_store_f64(out->data, out->dtype, at, buf[2 * k]);
                eh_store_f64(out->data, out->dtype, at + 1, buf[2 * k + 1]);
            }
        }
    }
    plan_free(plan);
    eh_mem_free(buf);
    return EH_OK;
}
