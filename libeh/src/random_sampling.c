/* The sampling of every random op, shared by all backends
 * (<eh/backend_random.h>; design and word order in docs/random.md).
 *
 * Each output element owns a stream of Philox4x32-10 words determined by
 * (seed, call number, element index) and nothing else, and every sampler
 * here is a pure function of that stream and the op's parameters.  So a
 * backend may compute any subset of the elements, in any order, on any
 * thread, and still produce ref's bits.  Everything computes in double;
 * float outputs are rounded once by eh_store_f64.  No libm function with
 * hidden state is used (lgamma, which may write signgam, is avoided), so
 * the samplers are safe to run concurrently. */
#include <math.h>
#include <stdlib.h>
#include <eh/backend_api.h>
#include <eh/backend_random.h>
#include "internal.h"

#define TWO_PI 6.283185307179586476925286766559

/* ---- streams -------------------------------------------------------------- */

void eh_rand_stream_init(eh_rand_stream *s, uint32_t key0, uint32_t key1, uint32_t call,
                         uint64_t index)
{
    s->key[0] = key0;
    s->key[1] = key1;
    s->ctr[0] = (uint32_t)index;
    s->ctr[1] = (uint32_t)(index >> 32);
    s->ctr[2] = call;
    s->ctr[3] = 0;
    s->pos = 4;
}

void eh_rand_stream_for(eh_rand_stream *s, const eh_op_call *call, uint64_t index)
{
    eh_rand_stream_init(s, (uint32_t)(uint64_t)call->p.i[EH_RAND_P_SEED_LO],
                        (uint32_t)(uint64_t)call->p.i[EH_RAND_P_SEED_HI],
                        (uint32_t)(uint64_t)call->p.i[EH_RAND_P_CALL], index);
}

uint32_t eh_rand_u32(eh_rand_stream *s)
{
    if (s->pos >= 4) {
        eh_philox4x32_10(s->ctr, s->key, s->buf);
        s->ctr[3]++; /* the block number; wraps after 2^32 blocks */
        s->pos = 0;
    }
    return s->buf[s->pos++];
}

uint64_t eh_rand_u64(eh_rand_stream *s)
{
    uint64_t hi = eh_rand_u32(s);
    return (hi << 32) | eh_rand_u32(s);
}

double eh_rand_u01(eh_rand_stream *s)
{
    return (double)(eh_rand_u64(s) >> 11) * 0x1p-53;
}

double eh_rand_u01_pos(eh_rand_stream *s)
{
    return (double)((eh_rand_u64(s) >> 11) + 1) * 0x1p-53;
}

/* ---- continuous ------------------------------------------------------------ */

double eh_rand_std_normal(eh_rand_stream *s)
{
    double u1 = eh_rand_u01_pos(s); /* (0, 1]: log is finite */
    double u2 = eh_rand_u01(s);
    return sqrt(-2.0 * log(u1)) * cos(TWO_PI * u2);
}

double eh_rand_std_exponential(eh_rand_stream *s)
{
    /* -log1p(-u) rather than -log(u): exactly +0 for u = 0, and full
     * relative precision for the small values. */
    return -log1p(-eh_rand_u01(s));
}

/* Marsaglia & Tsang, "A simple method for generating gamma variables"
 * (ACM TOMS 26(3), 2000), for alpha >= 1. */
static double gamma_mt(eh_rand_stream *s, double alpha)
{
    double d = alpha - 1.0 / 3.0;
    double c = 1.0 / sqrt(9.0 * d);
    for (;;) {
        double x, v;
        do {
            x = eh_rand_std_normal(s);
            v = 1.0 + c * x;
        } while (v <= 0.0);
        v = v * v * v;
        double u = eh_rand_u01(s);
        double x2 = x * x;
        if (u < 1.0 - 0.0331 * x2 * x2)
            return d * v;
        if (log(u) < 0.5 * x2 + d * (1.0 - v + log(v)))
            return d * v;
    }
}

double eh_rand_std_gamma(eh_rand_stream *s, double alpha)
{
    if (alpha >= 1.0)
        return gamma_mt(s, alpha);
    /* Gamma(alpha) = Gamma(alpha + 1) * U^(1/alpha) (Marsaglia & Tsang,
     * section 6).  Underflows to 0 for very small alpha. */
    double g = gamma_mt(s, alpha + 1.0);
    return g * pow(eh_rand_u01_pos(s), 1.0 / alpha);
}

/* ---- log-probabilities (Loader) ---------------------------------------------------- */

/* The rejection tests of PTRS and BTRS compare against log f(k), the
 * log-pmf of the target.  Written as -lam + k log lam - log k! (or with
 * binomial coefficients) it is a difference of huge terms that cancel:
 * for lam ~ 1e15 the error is several units and the samplers would draw
 * from a visibly wrong distribution.  Loader's form ("Fast and accurate
 * computation of binomial probabilities", 2000; the one R's dpois/dbinom
 * use) keeps every term O(1): Stirling's error term plus the deviance
 * bd0(x, M) = x log(x/M) + M - x, summed as a series when x is near M. */

/* log(n!) - log(sqrt(2 pi n) (n/e)^n) for integer-valued n >= 1. */
static double stirlerr(double n)
{
    static const double table[16] = { /* exact to 25 digits (Python decimal) */
        0.0, /* unused */
        0.08106146679532725821967026, 0.04134069595540929409382208,
        0.02767792568499833914878929, 0.02079067210376509311152277,
        0.01664469118982119216319487, 0.01387612882307074799874573,
        0.01189670994589177009505572, 0.01041126526197209649747857,
        0.009255462182712732917728637, 0.008330563433362871256469319,
        0.007573675487951840794972024, 0.006942840107209529865664153,
        0.006408994188004207068439631, 0.005951370112758847735624416,
        0.005554733551962801371038690,
    };
    if (n <= 15.0)
        return table[(int)n];
    /* the Stirling series 1/12n - 1/360n^3 + 1/1260n^5 - 1/1680n^7 + 1/1188n^9 */
    double nn = n * n;
    return (1.0 / 12 - (1.0 / 360 - (1.0 / 1260 - (1.0 / 1680 - 1.0 / 1188 / nn) / nn) / nn) / nn) / n;
}

/* x log(x / m) + m - x for x > 0, m > 0, accurate when x is close to m. */
static double bd0(double x, double m)
{
    if (fabs(x - m) < 0.1 * (x + m)) {
        double v = (x - m) / (x + m);
        double sum = (x - m) * v;
        double ej = 2.0 * x * v;
        v *= v;
        for (int j = 1; j < 1000; j++) { /* |v| < 1/21: a few terms */
            ej *= v;
            double next = sum + ej / (2 * j + 1);
            if (next == sum)
                break;
            sum = next;
        }
        return sum;
    }
    return x * log(x / m) + m - x;
}

/* log P(X = k) for X ~ Poisson(lam), k >= 0 integer-valued, lam > 0. */
static double poisson_logpmf(double k, double lam)
{
    if (k == 0.0)
        return -lam;
    return -stirlerr(k) - bd0(k, lam) - 0.5 * log(TWO_PI * k);
}

/* log P(X = x) for X ~ Binomial(n, p), 0 <= x <= n integer-valued,
 * 0 < p <= 1/2, q = 1 - p. */
static double binomial_logpmf(double x, double n, double p, double q)
{
    if (x == 0.0)
        return n * log1p(-p);
    if (x == n)
        return n * log(p);
    double lc = stirlerr(n) - stirlerr(x) - stirlerr(n - x) - bd0(x, n * p) - bd0(n - x, n * q);
    double lf = log(TWO_PI) + log(x) + log1p(-x / n); /* log(2 pi x (n - x) / n) */
    return lc - 0.5 * lf;
}

/* ---- Poisson -------------------------------------------------------------------- */

/* Hormann, "The transformed rejection method for generating Poisson
 * random variables" (Insurance: Mathematics and Economics 12, 1993),
 * algorithm PTRS, for lam >= 10. */
static int64_t poisson_ptrs(eh_rand_stream *s, double lam)
{
    double slam = sqrt(lam);
    double b = 0.931 + 2.53 * slam;
    double a = -0.059 + 0.02483 * b;
    double log_inv_alpha = log(1.1239 + 1.1328 / (b - 3.4));
    double v_r = 0.9277 - 3.6224 / (b - 2.0);
    for (;;) {
        double u = eh_rand_u01(s) - 0.5;
        double v = eh_rand_u01(s);
        double us = 0.5 - fabs(u);
        if (us <= 0.0)
            continue; /* u = -0.5: the hat's pole; probability 2^-53 */
        double k = floor((2.0 * a / us + b) * u + lam + 0.43);
        /* k < 0 is the algorithm's own rejection; k >= 2^63 cannot be
         * stored and has probability ~0 for lam <= LAM_MAX. */
        if (!(k >= 0.0 && k < 0x1p63))
            continue;
        if (us >= 0.07 && v <= v_r)
            return (int64_t)k;
        if (us < 0.013 && v > us)
            continue;
        if (log(v) + log_inv_alpha - log(a / (us * us) + b) <= poisson_logpmf(k, lam))
            return (int64_t)k;
    }
}

int64_t eh_rand_poisson(eh_rand_stream *s, double lam)
{
    if (!(lam > 0.0))
        return 0;
    if (lam >= 10.0)
        return poisson_ptrs(s, lam);
    /* Knuth: the number of uniforms whose running product stays above
     * exp(-lam). */
    double limit = exp(-lam), prod = 1.0;
    int64_t k = 0;
    for (;;) {
        prod *= eh_rand_u01(s);
        if (prod > limit)
            k++;
        else
            return k;
    }
}

/* ---- binomial ------------------------------------------------------------------- */

/* Inversion (sequential search from 0), for n p < 10, p <= 1/2.  `bound`
 * restarts the search if rounding ever pushed it into the far tail. */
static double binomial_inversion(eh_rand_stream *s, double n, double p)
{
    double q = 1.0 - p;
    double qn = exp(n * log1p(-p));
    double np = n * p;
    double bound = fmin(n, np + 10.0 * sqrt(np * q + 1.0));
    double x = 0.0, px = qn, u = eh_rand_u01(s);
    while (u > px) {
        x += 1.0;
        if (x > bound) {
            x = 0.0;
            px = qn;
            u = eh_rand_u01(s);
        } else {
            u -= px;
            px = ((n - x + 1.0) * p * px) / (x * q);
        }
    }
    return x;
}

/* Hormann, "The generation of binomial random variates" (J. Statist.
 * Comput. Simul. 46, 1993), algorithm BTRS without the squeeze, for
 * n p >= 10, p <= 1/2.  The final test compares with log(f(k) / f(m)),
 * m the mode, computed as a difference of Loader log-pmfs. */
static double binomial_btrs(eh_rand_stream *s, double n, double p)
{
    double q = 1.0 - p;
    double spq = sqrt(n * p * q);
    double b = 1.15 + 2.53 * spq;
    double a = -0.0873 + 0.0248 * b + 0.01 * p;
    double c = n * p + 0.5;
    double v_r = 0.92 - 4.2 / b;
    double alpha = (2.83 + 5.1 / b) * spq;
    double m = floor((n + 1.0) * p);
    double log_fm = binomial_logpmf(m, n, p, q);
    for (;;) {
        double u = eh_rand_u01(s) - 0.5;
        double v = eh_rand_u01(s);
        double us = 0.5 - fabs(u);
        if (us <= 0.0)
            continue;
        double k = floor((2.0 * a / us + b) * u + c);
        if (!(k >= 0.0 && k <= n))
            continue;
        if (us >= 0.07 && v <= v_r)
            return k;
        if (log(v * alpha / (a / (us * us) + b)) <= binomial_logpmf(k, n, p, q) - log_fm)
            return k;
    }
}

int64_t eh_rand_binomial(eh_rand_stream *s, int64_t n, double p)
{
    if (n <= 0 || !(p > 0.0))
        return 0;
    if (p >= 1.0)
        return n;
    int flip = p > 0.5;
    double pp = flip ? 1.0 - p : p; /* exact for p in (1/2, 1) */
    double nd = (double)n;
    double x = nd * pp < 10.0 ? binomial_inversion(s, nd, pp) : binomial_btrs(s, nd, pp);
    /* x <= (double)n, which may round above n when n > 2^53. */
    int64_t k = x >= 0x1p63 ? n : (int64_t)x;
    if (k > n)
        k = n;
    return flip ? n - k : k;
}

/* ---- integers -------------------------------------------------------------------- */

/* The 128-bit product a * b as (hi, lo), portably. */
static void mul_64x64(uint64_t a, uint64_t b, uint64_t *hi, uint64_t *lo)
{
    uint64_t a0 = (uint32_t)a, a1 = a >> 32, b0 = (uint32_t)b, b1 = b >> 32;
    uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    uint64_t mid = (p00 >> 32) + (uint32_t)p01 + (uint32_t)p10;
    *lo = (mid << 32) | (uint32_t)p00;
    *hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
}

/* Lemire, "Fast random integer generation in an interval" (ACM TOMACS
 * 29(1), 2019): the high word of x * range, rejecting the low words that
 * would make some results more likely than others. */
uint64_t eh_rand_below(eh_rand_stream *s, uint64_t range)
{
    uint64_t hi, lo;
    mul_64x64(eh_rand_u64(s), range, &hi, &lo);
    if (lo < range) {
        uint64_t threshold = (0 - range) % range; /* 2^64 mod range */
        while (lo < threshold)
            mul_64x64(eh_rand_u64(s), range, &hi, &lo);
    }
    return hi;
}

/* low + offset as int64, computed without overflow or
 * implementation-defined conversions (the caller guarantees the sum fits). */
static int64_t add_offset(int64_t low, uint64_t offset)
{
    uint64_t u = (uint64_t)low + offset; /* wraps modulo 2^64 */
    return u <= (uint64_t)INT64_MAX ? (int64_t)u : -(int64_t)(UINT64_MAX - u) - 1;
}

/* ---- categorical ------------------------------------------------------------------ */

eh_status eh_rand_categorical_cdf(const double *logits, int64_t k, double *cdf)
{
    double max = -INFINITY;
    for (int64_t j = 0; j < k; j++) {
        double x = logits[j];
        if (isnan(x) || x == INFINITY)
            return EH_ERR_INVALID_ARG;
        if (x > max)
            max = x;
    }
    if (max == -INFINITY)
        return EH_ERR_INVALID_ARG;
    double acc = 0.0;
    for (int64_t j = 0; j < k; j++) {
        acc += exp(logits[j] - max); /* exp(-inf) = 0 */
        cdf[j] = acc;
    }
    return EH_OK;
}

int64_t eh_rand_categorical_pick(const double *cdf, int64_t k, double u)
{
    double t = u * cdf[k - 1];
    int64_t lo = 0, hi = k - 1;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (cdf[mid] > t)
            hi = mid;
        else
            lo = mid + 1;
    }
    if (!(cdf[lo] > t)) {
        /* t rounded up to the total: take the last class of positive
         * weight (its cdf step is the last one). */
        while (lo > 0 && !(cdf[lo] > cdf[lo - 1]))
            lo--;
    }
    return lo;
}

static const char *row_problem(const double *row, int64_t k)
{
    for (int64_t j = 0; j < k; j++) {
        if (isnan(row[j]))
            return "contains NaN";
        if (row[j] == INFINITY)
            return "contains +inf";
    }
    return "has no finite logit (all are -inf)";
}

static eh_status fill_categorical(const eh_op_call *call, int64_t begin, int64_t end)
{
    const eh_tensor *logits = call->in[0];
    eh_tensor *out = call->out[0];
    int64_t k = logits->shape[logits->ndim - 1];
    int64_t per_row = call->p.i[3];
    if (begin >= end)
        return EH_OK;
    if (logits->dtype != EH_F64 || out->dtype != EH_I64 || k < 1 || per_row < 1)
        return eh_set_error(EH_ERR_INTERNAL, "random_categorical: malformed call");
    double *cdf = eh_mem_alloc((size_t)k * sizeof *cdf);
    if (!cdf)
        return eh_set_error(EH_ERR_NOMEM, "random_categorical: out of memory for %lld categories",
                            (long long)k);
    const double *data = logits->data;
    int64_t *o = out->data;
    int64_t row = -1;
    eh_status st = EH_OK;
    for (int64_t i = begin; i < end; i++) {
        int64_t r = i / per_row;
        if (r != row) {
            row = r;
            const double *lg = data + r * k;
            if (eh_rand_categorical_cdf(lg, k, cdf) != EH_OK) {
                st = eh_set_error(EH_ERR_INVALID_ARG, "random_categorical: logits row %lld %s",
                                  (long long)r, row_problem(lg, k));
                break;
            }
        }
        eh_rand_stream s;
        eh_rand_stream_for(&s, call, (uint64_t)i);
        o[i] = eh_rand_categorical_pick(cdf, k, eh_rand_u01(&s));
    }
    eh_mem_free(cdf);
    return st;
}

/* ---- stream version 2: uniform and normal (docs/random.md) -------------------------- */

/* The block of group g: Philox at counter (g lo, g hi, call, 2^31) -- the
 * top bit marks version 2, so no version-1 element stream of any call
 * shares a block with it. */
static void v2_block(const eh_op_call *call, uint64_t g, uint32_t out[4])
{
    const uint32_t key[2] = {(uint32_t)(uint64_t)call->p.i[EH_RAND_P_SEED_LO],
                             (uint32_t)(uint64_t)call->p.i[EH_RAND_P_SEED_HI]};
    const uint32_t ctr[4] = {(uint32_t)g, (uint32_t)(g >> 32),
                             (uint32_t)(uint64_t)call->p.i[EH_RAND_P_CALL], 0x80000000u};
    eh_philox4x32_10(ctr, key, out);
}

/* (hi:lo >> 11) 2^-53: a multiple of 2^-53 in [0, 1). */
static double u53(uint32_t hi, uint32_t lo)
{
    return (double)((((uint64_t)hi << 32) | lo) >> 11) * 0x1p-53;
}

/* f32 and f16 outputs: four per block, vectorized (simd/random_fill.c). */
static void fill32(const eh_op_call *call, int normal, double a, double b, float lo, float hi,
                   int64_t begin, int64_t end)
{
    eh__rand32_args args = {
        .key = {(uint32_t)(uint64_t)call->p.i[EH_RAND_P_SEED_LO],
                (uint32_t)(uint64_t)call->p.i[EH_RAND_P_SEED_HI]},
        .call = (uint32_t)(uint64_t)call->p.i[EH_RAND_P_CALL],
        .normal = normal,
        .f16 = call->out[0]->dtype == EH_F16,
        .a = a,
        .b = b,
        .lo = lo,
        .hi = hi,
        .out = call->out[0]->data,
    };
    if (begin < end)
        eh__rand_fill32(&args, begin, end);
}

/* ---- whole ops --------------------------------------------------------------------- */

static eh_status bad_call(const eh_op_call *call)
{
    return eh_set_error(EH_ERR_INTERNAL, "%s: malformed call (output dtype %s)",
                        eh_op_name(call->op), eh_dtype_name(call->out[0]->dtype));
}

eh_status eh_rand_fill(const eh_op_call *call, int64_t begin, int64_t end)
{
    eh_tensor *out = call->out[0];
    const eh_params *p = &call->p;
    void *data = out->data;
    eh_dtype dt = out->dtype;
    int is_float = dt == EH_F16 || dt == EH_F32 || dt == EH_F64;
    eh_rand_stream s;
    if (begin < 0)
        begin = 0;
    if (end > out->size)
        end = out->size;

    switch (call->op) {
    case EH_OP_random_uniform: {
        if (!is_float)
            return bad_call(call);
        /* f[2], f[3]: the smallest and largest dtype values in [low, high). */
        double low = p->f[0], width = p->f[1] - p->f[0], lo = p->f[2], hi = p->f[3];
        if (dt != EH_F64) {
            fill32(call, 0, low, width, (float)lo, (float)hi, begin, end);
            return EH_OK;
        }
        /* f64: two elements per block, a 53-bit uniform from each word pair */
        for (int64_t i = begin; i < end; i++) {
            uint32_t w[4];
            v2_block(call, (uint64_t)i / 2, w);
            int k = (int)(i % 2);
            double y = low + width * u53(w[2 * k], w[2 * k + 1]);
            ((double *)data)[i] = y < lo ? lo : y > hi ? hi : y;
        }
        return EH_OK;
    }
    case EH_OP_random_normal:
        if (!is_float)
            return bad_call(call);
        if (dt != EH_F64) {
            fill32(call, 1, p->f[0], p->f[1], -INFINITY, INFINITY, begin, end);
            return EH_OK;
        }
        /* f64: one block per Box-Muller pair, both outputs used */
        for (int64_t i = begin; i < end; i++) {
            uint32_t w[4];
            v2_block(call, (uint64_t)i / 2, w);
            double u1 = ((double)((((uint64_t)w[0] << 32) | w[1]) >> 11) + 1.0) * 0x1p-53;
            double r = sqrt(-2.0 * log(u1)), t = TWO_PI * u53(w[2], w[3]);
            double z = i % 2 ? r * sin(t) : r * cos(t);
            ((double *)data)[i] = p->f[0] + p->f[1] * z;
        }
        return EH_OK;
    case EH_OP_random_exponential:
        if (!is_float)
            return bad_call(call);
        for (int64_t i = begin; i < end; i++) {
            eh_rand_stream_for(&s, call, (uint64_t)i);
            eh_store_f64(data, dt, i, p->f[0] * eh_rand_std_exponential(&s));
        }
        return EH_OK;
    case EH_OP_random_gamma:
        if (!is_float)
            return bad_call(call);
        for (int64_t i = begin; i < end; i++) {
            eh_rand_stream_for(&s, call, (uint64_t)i);
            eh_store_f64(data, dt, i, p->f[1] * eh_rand_std_gamma(&s, p->f[0]));
        }
        return EH_OK;
    case EH_OP_random_bernoulli:
        if (dt != EH_BOOL)
            return bad_call(call);
        for (int64_t i = begin; i < end; i++) {
            eh_rand_stream_for(&s, call, (uint64_t)i);
            ((uint8_t *)data)[i] = eh_rand_u01(&s) < p->f[0];
        }
        return EH_OK;
    case EH_OP_random_poisson:
        if (dt != EH_I64)
            return bad_call(call);
        for (int64_t i = begin; i < end; i++) {
            eh_rand_stream_for(&s, call, (uint64_t)i);
            ((int64_t *)data)[i] = eh_rand_poisson(&s, p->f[0]);
        }
        return EH_OK;
    case EH_OP_random_binomial:
        if (dt != EH_I64)
            return bad_call(call);
        for (int64_t i = begin; i < end; i++) {
            eh_rand_stream_for(&s, call, (uint64_t)i);
            ((int64_t *)data)[i] = eh_rand_binomial(&s, p->i[3], p->f[0]);
        }
        return EH_OK;
    case EH_OP_random_randint: {
        if ((dt != EH_I32 && dt != EH_I64) || !(p->i[3] < p->i[4]))
            return bad_call(call);
        int64_t low = p->i[3];
        uint64_t range = (uint64_t)p->i[4] - (uint64_t)low;
        for (int64_t i = begin; i < end; i++) {
            eh_rand_stream_for(&s, call, (uint64_t)i);
            eh_store_i64(data, dt, i, add_offset(low, eh_rand_below(&s, range)));
        }
        return EH_OK;
    }
    case EH_OP_random_categorical:
        return fill_categorical(call, begin, end);
    default:
        return eh_set_error(EH_ERR_INTERNAL, "%s: not a sampling op", eh_op_name(call->op));
    }
}

eh_rand_keyed_index *eh_rand_keyed_alloc(int64_t n)
{
    if ((uint64_t)n > SIZE_MAX / sizeof(eh_rand_keyed_index)) {
        eh_set_error(EH_ERR_NOMEM, "random_permutation: %lld elements do not fit in memory",
                     (long long)n);
        return NULL;
    }
    eh_rand_keyed_index *a = eh_mem_alloc((size_t)(n > 0 ? n : 1) * sizeof *a);
    if (!a)
        eh_set_error(EH_ERR_NOMEM, "random_permutation: out of memory for %lld sort keys",
                     (long long)n);
    return a;
}

void eh_rand_permutation_keys(const eh_op_call *call, eh_rand_keyed_index *a, int64_t begin,
                              int64_t end)
{
    eh_rand_stream s;
    for (int64_t i = begin; i < end; i++) {
        eh_rand_stream_for(&s, call, (uint64_t)i);
        a[i].key = eh_rand_u64(&s);
        a[i].index = i;
    }
}

static int by_key_then_index(const void *pa, const void *pb)
{
    const eh_rand_keyed_index *a = pa, *b = pb;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return (a->index > b->index) - (a->index < b->index);
}

void eh_rand_permutation_store(const eh_op_call *call, eh_rand_keyed_index *a, int64_t n)
{
    /* A total order, so any correct sort gives the same result. */
    qsort(a, (size_t)n, sizeof *a, by_key_then_index);
    int64_t *o = call->out[0]->data;
    for (int64_t i = 0; i < n; i++)
        o[i] = a[i].index;
}

eh_status eh_rand_permutation(const eh_op_call *call)
{
    eh_tensor *out = call->out[0];
    int64_t n = out->size;
    if (out->dtype != EH_I64)
        return bad_call(call);
    if (n == 0)
        return EH_OK;
    eh_rand_keyed_index *a = eh_rand_keyed_alloc(n);
    if (!a)
        return EH_ERR_NOMEM;
    eh_rand_permutation_keys(call, a, 0, n);
    eh_rand_permutation_store(call, a, n);
    eh_mem_free(a);
    return EH_OK;
}
