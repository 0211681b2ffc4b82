/* The random group: the Philox4x32-10 bit generator, libeh's fixed counter
 * layout and conversions, every distribution, seeding, and every error.
 *
 * Where expected values come from:
 *  - Philox known answers: Random123's kat_vectors file (philox4x32 10).
 *  - Exact sample values ("known-answer" tests of the layout): a separate
 *    Python 3 implementation of Philox4x32-10 (checked against the same
 *    three Random123 vectors) and of the conversions in docs/random.md,
 *    run once; the values are embedded below.  Normal and exponential use
 *    Python's math.log/cos/log1p, so those compare with a 1e-13 relative
 *    tolerance; everything integer-valued compares exactly.
 *  - Statistics: closed-form moments, CDFs and PMFs of each distribution.
 *    Bounds are 6 standard errors for moments (1e5 samples), the
 *    Kolmogorov-Smirnov critical value at alpha = 1e-6, and a chi-square
 *    critical value at alpha ~ 1e-6 (Wilson-Hilferty).  Seeds are fixed,
 *    so the tests are deterministic; the bounds are what a correct
 *    sampler passes with overwhelming probability for any seed.
 *
 * Data-dependent kernel errors (bad logits) may surface at evaluation
 * under a deferring backend; see fails_eventually. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "eh_test.h"
#include <eh/backend_api.h>
#include <eh/backend_random.h>

#define N_STAT 100000

/* ---- helpers ------------------------------------------------------------------ */

static double *doubles_of(const eh_tensor *t)
{
    if (!t)
        fail_msg("no tensor: %s", eh_error_message());
    int64_t n = eh_size(t);
    double *x = malloc((size_t)(n > 0 ? n : 1) * sizeof *x);
    assert_non_null(x);
    for (int64_t k = 0; k < n; k++)
        x[k] = t_at(t, k);
    return x;
}

/* t holds exactly the bytes of u (same dtype and shape). */
static int same_bits(const eh_tensor *t, const eh_tensor *u)
{
    assert_non_null(t);
    assert_non_null(u);
    if (eh_get_dtype(t) != eh_get_dtype(u) || eh_size(t) != eh_size(u))
        return 0;
    size_t n = eh_nbytes(t);
    if (n == 0)
        return 1;
    const void *a = eh_data((eh_tensor *)t), *b = eh_data((eh_tensor *)u);
    return memcmp(a, b, n) == 0;
}

/* A failing call, or (deferring backend) a result whose evaluation fails. */
static void fails_eventually(eh_tensor *t, eh_status code, const char *needle)
{
    if (!t) {
        assert_failed(t, code, needle);
        return;
    }
    eh_status st = eh_eval(t);
    eh_release(t);
    assert_failed(st == EH_OK ? (void *)t : NULL, code, needle);
}

static void check_moments(const char *what, const double *x, int64_t n, double mean,
                          double var, double mu4)
{
    double m = 0.0, s2 = 0.0;
    for (int64_t k = 0; k < n; k++)
        m += x[k];
    m /= (double)n;
    for (int64_t k = 0; k < n; k++)
        s2 += (x[k] - m) * (x[k] - m);
    s2 /= (double)(n - 1);
    double se_mean = sqrt(var / (double)n);
    /* plus 37 var / n: s2 also moves with the estimated mean, by up to
     * (6 sigma)^2 -- what remains when mu4 = var^2 (Bernoulli(1/2)) */
    double se_var = sqrt((mu4 - var * var) / (double)n);
    if (!(fabs(m - mean) <= 6.0 * se_mean + 1e-12 * fabs(mean)))
        fail_msg("%s: mean %.10g, expected %.10g (6 sigma = %.3g)", what, m, mean,
                 6.0 * se_mean);
    if (!(fabs(s2 - var) <= 6.0 * se_var + 37.0 * var / (double)n))
        fail_msg("%s: variance %.10g, expected %.10g (6 sigma = %.3g)", what, s2, var,
                 6.0 * se_var);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Kolmogorov-Smirnov against cdf; critical value sqrt(-ln(alpha/2)/2)/sqrt(n)
 * at alpha = 1e-6.  Sorts x. */
static void check_ks(const char *what, double *x, int64_t n, double (*cdf)(double, double),
                     double par)
{
    qsort(x, (size_t)n, sizeof *x, cmp_double);
    double d = 0.0;
    for (int64_t k = 0; k < n; k++) {
        double f = cdf(x[k], par);
        double lo = f - (double)k / (double)n, hi = (double)(k + 1) / (double)n - f;
        if (lo > d)
            d = lo;
        if (hi > d)
            d = hi;
    }
    double crit = sqrt(-0.5 * log(1e-6 / 2.0)) / sqrt((double)n);
    if (!(d <= crit))
        fail_msg("%s: KS statistic %.5f above the critical %.5f", what, d, crit);
}

/* Upper 1e-6 point of chi-square with df degrees of freedom (Wilson-Hilferty,
 * z = 4.7534; slightly conservative for small df). */
static double chi2_crit(int df)
{
    double h = 2.0 / (9.0 * df);
    double c = 1.0 - h + 4.7534 * sqrt(h);
    return df * c * c * c;
}

static void check_chi2(const char *what, const double *observed, const double *expected,
                       int bins)
{
    double chi2 = 0.0;
    for (int b = 0; b < bins; b++) {
        if (expected[b] < 5.0)
            fail_msg("%s: bin %d expects only %.2f (test setup)", what, b, expected[b]);
        chi2 += (observed[b] - expected[b]) * (observed[b] - expected[b]) / expected[b];
    }
    double crit = chi2_crit(bins - 1);
    if (!(chi2 <= crit))
        fail_msg("%s: chi-square %.2f above the critical %.2f (%d bins)", what, chi2, crit,
                 bins);
}

/* Chi-square of integer samples against a pmf over [0, inf): bins
 * (-inf, lo], lo+1, ..., hi-1, [hi, inf). */
static void check_pmf(const char *what, const double *x, int64_t n,
                      double (*logpmf)(double k, const double *par), const double *par,
                      int64_t lo, int64_t hi)
{
    int bins = (int)(hi - lo + 1);
    double *obs = calloc((size_t)bins, sizeof *obs), *exp_ = calloc((size_t)bins, sizeof *exp_);
    assert_non_null(obs);
    assert_non_null(exp_);
    for (int64_t k = 0; k < n; k++) {
        double v = x[k];
        if (v != floor(v) || v < 0)
            fail_msg("%s: sample %lld is %g, not a count", what, (long long)k, v);
        int b = v <= (double)lo ? 0 : v >= (double)hi ? bins - 1 : (int)(v - (double)lo);
        obs[b] += 1.0;
    }
    double head = 0.0;
    for (int64_t k = 0; k <= lo; k++)
        head += exp(logpmf((double)k, par));
    exp_[0] = (double)n * head;
    double used = exp_[0];
    for (int b = 1; b < bins - 1; b++) {
        exp_[b] = (double)n * exp(logpmf((double)(lo + b), par));
        used += exp_[b];
    }
    exp_[bins - 1] = (double)n - used;
    check_chi2(what, obs, exp_, bins);
    free(obs);
    free(exp_);
}

/* Chi-square of samples against Normal(mean, sd^2), 14 bins with edges at
 * mean + sd * {-3, -2.5, ..., 3}.  For the Poisson and binomial with
 * sd >= 1e6 the normal law is exact to ~1e-6 per bin (skewness
 * 1/sd), far below what 1e5 samples resolve. */
static void check_normal_bins(const char *what, const double *x, int64_t n, double mean,
                              double sd)
{
    double obs[14] = {0}, expct[14];
    for (int64_t k = 0; k < n; k++) {
        double z = (x[k] - mean) / sd;
        int b = z < -3.0 ? 0 : z >= 3.0 ? 13 : 1 + (int)floor((z + 3.0) * 2.0);
        obs[b] += 1.0;
    }
    double prev = 0.0;
    for (int b = 0; b < 14; b++) {
        double edge = b == 13 ? INFINITY : -3.0 + 0.5 * b;
        double cdf = b == 13 ? 1.0 : 0.5 * erfc(-edge / sqrt(2.0));
        expct[b] = (double)n * (cdf - prev);
        prev = cdf;
    }
    check_chi2(what, obs, expct, 14);
}

static double poisson_logpmf(double k, const double *par)
{
    return k * log(par[0]) - par[0] - lgamma(k + 1.0);
}

static double binomial_logpmf(double k, const double *par)
{
    double n = par[0], p = par[1];
    if (k > n)
        return -INFINITY;
    return lgamma(n + 1.0) - lgamma(k + 1.0) - lgamma(n - k + 1.0) + k * log(p) +
           (n - k) * log1p(-p);
}

static double cdf_uniform(double x, double width) { return x <= 0 ? 0 : x >= width ? 1 : x / width; }
static double cdf_normal(double x, double unused) { (void)unused; return 0.5 * erfc(-x / sqrt(2.0)); }
static double cdf_exponential(double x, double scale) { return x <= 0 ? 0 : -expm1(-x / scale); }
/* Regularized lower incomplete gamma P(alpha, x) for alpha in {0.5, 1, 2.5, 3}. */
static double cdf_gamma(double x, double alpha)
{
    if (x <= 0)
        return 0;
    double r = sqrt(x), spi = sqrt(3.14159265358979323846);
    if (alpha == 0.5)
        return erf(r);
    if (alpha == 1.0)
        return -expm1(-x);
    if (alpha == 2.5)
        return erf(r) - 2.0 / spi * r * exp(-x) * (1.0 + 2.0 * x / 3.0);
    if (alpha == 3.0)
        return 1.0 - exp(-x) * (1.0 + x + 0.5 * x * x);
    fail_msg("cdf_gamma: alpha %g not tabulated", alpha);
    return 0;
}

/* ---- Philox4x32-10 ------------------------------------------------------------ */

static void test_philox_known_answers(void **state)
{
    (void)state;
    /* Random123 kat_vectors: philox4x32 10 */
    static const struct {
        uint32_t ctr[4], key[2], out[4];
    } kat[] = {
        {{0, 0, 0, 0}, {0, 0}, {0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}},
        {{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff},
         {0xffffffff, 0xffffffff},
         {0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}},
        {{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344},
         {0xa4093822, 0x299f31d0},
         {0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}},
    };
    for (size_t v = 0; v < sizeof kat / sizeof kat[0]; v++) {
        uint32_t out[4];
        eh_philox4x32_10(kat[v].ctr, kat[v].key, out);
        for (int j = 0; j < 4; j++)
            if (out[j] != kat[v].out[j])
                fail_msg("vector %zu word %d: %08x, expected %08x", v, j, (unsigned)out[j],
                         (unsigned)kat[v].out[j]);
    }
}

static void test_stream_layout(void **state)
{
    (void)state;
    /* Element 2^32 + 5 of call 9 under seed 7: counter (5, 1, 9, d), key (7, 0).
     * Expected from the Python reference; the 5th and 6th words come from
     * block d = 1. */
    static const uint32_t want[6] = {0x816ce7bb, 0x16666061, 0x049399a2,
                                     0x72990956, 0xdf13a964, 0xf1b4328e};
    eh_rand_stream s;
    eh_rand_stream_init(&s, 7, 0, 9, (UINT64_C(1) << 32) + 5);
    for (int j = 0; j < 6; j++)
        assert_int_equal(eh_rand_u32(&s), want[j]);
    /* The first block is Philox itself at counter (5, 1, 9, 0). */
    uint32_t out[4];
    eh_philox4x32_10((const uint32_t[]){5, 1, 9, 0}, (const uint32_t[]){7, 0}, out);
    assert_int_equal(out[0], want[0]);
    assert_int_equal(out[3], want[3]);
    /* u64 is (first word << 32) | second; u01 its top 53 bits. */
    eh_rand_stream_init(&s, 0, 0, 0, 0);
    assert_true(eh_rand_u64(&s) == UINT64_C(0x6627e8d5e169c58d));
    eh_rand_stream_init(&s, 0, 0, 0, 0);
    assert_true(eh_rand_u01(&s) == (double)(UINT64_C(0x6627e8d5e169c58d) >> 11) * 0x1p-53);
    eh_rand_stream_init(&s, 0, 0, 0, 0);
    assert_true(eh_rand_u01_pos(&s) ==
                (double)((UINT64_C(0x6627e8d5e169c58d) >> 11) + 1) * 0x1p-53);
}

static void test_categorical_pick(void **state)
{
    (void)state;
    const double logits[4] = {0.0, -INFINITY, 0.0, -INFINITY};
    double cdf[4];
    assert_int_equal(eh_rand_categorical_cdf(logits, 4, cdf), EH_OK);
    assert_true(cdf[0] == 1.0 && cdf[1] == 1.0 && cdf[2] == 2.0 && cdf[3] == 2.0);
    assert_int_equal(eh_rand_categorical_pick(cdf, 4, 0.0), 0);
    assert_int_equal(eh_rand_categorical_pick(cdf, 4, 0.49), 0);
    assert_int_equal(eh_rand_categorical_pick(cdf, 4, 0.5), 2); /* never the -inf class 1 */
    assert_int_equal(eh_rand_categorical_pick(cdf, 4, 1.0 - 0x1p-53), 2);
    /* u = 1 is outside the contract; the fallback still avoids class 3. */
    assert_int_equal(eh_rand_categorical_pick(cdf, 4, 1.0), 2);
    const double bad1[2] = {NAN, 0.0}, bad2[2] = {INFINITY, 0.0}, bad3[2] = {-INFINITY, -INFINITY};
    assert_int_equal(eh_rand_categorical_cdf(bad1, 2, cdf), EH_ERR_INVALID_ARG);
    assert_int_equal(eh_rand_categorical_cdf(bad2, 2, cdf), EH_ERR_INVALID_ARG);
    assert_int_equal(eh_rand_categorical_cdf(bad3, 2, cdf), EH_ERR_INVALID_ARG);
}

/* ---- the counter layout through the public API ---------------------------------- */

/* Stream version 2 (docs/random.md): uniform and normal.  Values from
 * tests/libeh/random_kat.py, an independent implementation. */
static void test_uniform_known_values(void **state)
{
    (void)state;
    eh_seed(0);
    eh_tensor *a = eh_random_uniform(1, SHAPE(4), 0.0, 1.0, EH_F64); /* call 0 */
    eh_tensor *b = eh_random_uniform(1, SHAPE(4), 0.0, 1.0, EH_F64); /* call 1 */
    eh_tensor *c = eh_random_uniform(1, SHAPE(4), -2.0, 3.0, EH_F64); /* call 2 */
    assert_tensor_exact(a, EH_F64, 1, SHAPE(4),
                        ((const double[]){0.866024979044066, 0.7006868976733217,
                                          0.4198648493548438, 0.7559271100253647}));
    assert_tensor_exact(b, EH_F64, 1, SHAPE(4),
                        ((const double[]){0.24001481130284885, 0.5078927200688645,
                                          0.38591083016728467, 0.898771318918103}));
    assert_tensor_exact(c, EH_F64, 1, SHAPE(4),
                        ((const double[]){-1.4765505214913293, -0.5447770484794332,
                                          1.3131647855096236, -1.7677817906800875}));
    eh_seed(UINT64_C(0x0123456789abcdef)); /* key (0x89abcdef, 0x01234567) */
    eh_tensor *d = eh_random_uniform(1, SHAPE(4), 0.0, 1.0, EH_F64);
    assert_tensor_exact(d, EH_F64, 1, SHAPE(4),
                        ((const double[]){0.683521856644747, 0.6027918610860626,
                                          0.17197160367620368, 0.1884245334167065}));
    /* f32: four elements per block, 24-bit uniforms, exact */
    eh_seed(5);
    eh_tensor *f = eh_random_uniform(1, SHAPE(9), 0.0, 1.0, EH_F32);
    assert_tensor_exact(f, EH_F32, 1, SHAPE(9),
                        ((const double[]){0.07791578769683838, 0.5320236086845398,
                                          0.6817269921302795, 0.5634937882423401,
                                          0.47173720598220825, 0.5947539806365967,
                                          0.049465298652648926, 0.4954548478126526,
                                          0.7345722913742065}));
    /* f32 normal: both Box-Muller outputs of each word pair, float
     * polynomials in libeh (the reference is double): within 2e-6 */
    eh_seed(7);
    eh_tensor *g = eh_random_normal(1, SHAPE(9), 1.0, 2.0, EH_F32);
    assert_tensor(g, EH_F32, 1, SHAPE(9),
                  ((const double[]){0.76343834400177, 1.5371856689453125, 2.2962005138397217,
                                    1.6740974187850952, -3.6041791439056396, 4.4883832931518555,
                                    1.32473623752594, -1.7172956466674805, 1.2794427871704102}),
                  1e-5, 2e-6);
    eh_release(a);
    eh_release(b);
    eh_release(c);
    eh_release(d);
    eh_release(f);
    eh_release(g);
}

/* Version 2's f32/f16 kernel is one build per instruction set: every one
 * must give the same bits, for any range the output is split into. */
static void test_v2_same_bits_on_every_isa(void **state)
{
    (void)state;
    const int64_t n = 100003;
    eh_isa top = eh_isa_detected();
    const eh_dtype dts[2] = {EH_F32, EH_F16};
    for (int op = 0; op < 2; op++)
        for (int d = 0; d < 2; d++) {
            eh_tensor *want = NULL;
            for (int isa = 0; isa <= (int)top; isa++) {
                eh_isa_set((eh_isa)isa);
                eh_seed(31);
                eh_tensor *t = op ? eh_random_normal(1, SHAPE(n), -1.0, 3.0, dts[d])
                                  : eh_random_uniform(1, SHAPE(n), -2.0, 5.0, dts[d]);
                assert_int_equal(eh_eval(t), EH_OK);
                if (!want)
                    want = t;
                else {
                    assert_memory_equal(eh_data_const(t), eh_data_const(want), eh_nbytes(t));
                    eh_release(t);
                }
            }
            /* ranges that cut blocks of four anywhere give the same elements */
            eh_op_call call = {.op = op ? EH_OP_random_normal : EH_OP_random_uniform};
            eh_tensor *out = eh_tensor_new(1, SHAPE(n), dts[d]);
            assert_int_equal(eh_tensor_alloc_data(out), EH_OK);
            eh_tensor *outs[1] = {out};
            call.n_out = 1;
            call.out = outs;
            call.p.i[EH_RAND_P_SEED_LO] = 31;
            call.p.i[EH_RAND_P_CALL] = 0;
            call.p.f[0] = op ? -1.0 : -2.0;
            call.p.f[1] = op ? 3.0 : 5.0;
            /* uniform's clamp bounds as the frontend computes them: the
             * dtype's smallest and largest values in [-2, 5) */
            call.p.f[2] = -2.0;
            call.p.f[3] = dts[d] == EH_F32 ? nextafterf(5.0f, 0.0f) : 5.0 - 0x1p-8;
            int64_t cuts[] = {0, 1, 6, 7, 4097, 50001, 99999, n};
            for (int k = 0; k + 1 < (int)(sizeof cuts / sizeof cuts[0]); k++)
                assert_int_equal(eh_rand_fill(&call, cuts[k], cuts[k + 1]), EH_OK);
            assert_memory_equal(eh_data_const(out), eh_data_const(want), eh_nbytes(out));
            eh_tensor_unref(out);
            eh_release(want);
        }
    eh_isa_set(top);
}

static void test_other_known_values(void **state)
{
    (void)state;
    eh_seed(42);
    eh_tensor *n = eh_random_normal(1, SHAPE(4), 0.0, 1.0, EH_F64);        /* call 0 */
    eh_tensor *e = eh_random_exponential(1, SHAPE(4), 2.0, EH_F64);        /* call 1 */
    eh_tensor *r = eh_random_randint(1, SHAPE(6), -5, 7, EH_I64);          /* call 2 */
    eh_tensor *f = eh_random_randint(1, SHAPE(3), INT64_MIN, INT64_MAX, EH_I64); /* 3 */
    eh_tensor *b = eh_random_bernoulli(1, SHAPE(10), 0.3);                 /* call 4 */
    eh_tensor *p = eh_random_permutation(8);                               /* call 5 */
    assert_tensor(n, EH_F64, 1, SHAPE(4),
                  ((const double[]){-0.5127669730740761, 0.18614677635991195,
                                    1.4448208897113122, -2.024498525928379}),
                  0.0, 1e-13);
    assert_tensor(e, EH_F64, 1, SHAPE(4),
                  ((const double[]){0.020219553470984763, 0.27599618673289517,
                                    0.47851450589800937, 0.2541920518506113}),
                  0.0, 1e-13);
    assert_tensor_exact(r, EH_I64, 1, SHAPE(6), ((const double[]){-1, 1, 3, -5, -5, 2}));
    const int64_t want_f[3] = {INT64_C(-8479813338013594992), INT64_C(407821215564149146),
                               INT64_C(-3302896010744140405)};
    assert_memory_equal(eh_data_i64(f), want_f, sizeof want_f);
    assert_tensor_exact(b, EH_BOOL, 1, SHAPE(10), ((const double[]){1, 0, 0, 1, 0, 1, 1, 0, 1, 0}));
    assert_tensor_exact(p, EH_I64, 1, SHAPE(8), ((const double[]){4, 2, 5, 7, 0, 1, 3, 6}));
    eh_release(n);
    eh_release(e);
    eh_release(r);
    eh_release(f);
    eh_release(b);
    eh_release(p);
}

/* ---- seeding and call numbers ------------------------------------------------------ */

static void test_same_seed_same_tensors(void **state)
{
    (void)state;
    eh_seed(1234);
    eh_tensor *a1 = eh_random_normal(2, SHAPE(3, 5), 0.0, 1.0, EH_F32);
    eh_tensor *b1 = eh_random_poisson(1, SHAPE(50), 30.0);
    eh_seed(1234);
    eh_tensor *a2 = eh_random_normal(2, SHAPE(3, 5), 0.0, 1.0, EH_F32);
    eh_tensor *b2 = eh_random_poisson(1, SHAPE(50), 30.0);
    assert_true(same_bits(a1, a2));
    assert_true(same_bits(b1, b2));
    eh_seed(1235); /* a different seed */
    eh_tensor *a3 = eh_random_normal(2, SHAPE(3, 5), 0.0, 1.0, EH_F32);
    assert_false(same_bits(a1, a3));
    /* successive calls differ */
    eh_tensor *a4 = eh_random_normal(2, SHAPE(3, 5), 0.0, 1.0, EH_F32);
    assert_false(same_bits(a3, a4));
    eh_release(a1);
    eh_release(a2);
    eh_release(a3);
    eh_release(a4);
    eh_release(b1);
    eh_release(b2);
}

static void test_call_numbers_are_shared_by_all_ops(void **state)
{
    (void)state;
    eh_seed(3);
    eh_tensor *x = eh_random_normal(1, SHAPE(2), 0.0, 1.0, EH_F64);
    eh_tensor *u1 = eh_random_uniform(1, SHAPE(8), 0.0, 1.0, EH_F64); /* call 1 */
    eh_seed(3);
    eh_tensor *y = eh_random_randint(1, SHAPE(5), 0, 9, EH_I32);     /* also call 0 */
    eh_tensor *u2 = eh_random_uniform(1, SHAPE(8), 0.0, 1.0, EH_F64); /* call 1 */
    assert_true(same_bits(u1, u2));
    eh_release(x);
    eh_release(y);
    eh_release(u1);
    eh_release(u2);
}

static void test_rejected_calls_take_no_number(void **state)
{
    (void)state;
    eh_seed(7);
    eh_tensor *a = eh_random_uniform(1, SHAPE(4), 0.0, 1.0, EH_F64);
    eh_seed(7);
    assert_failed(eh_random_uniform(1, SHAPE(4), 1.0, 0.0, EH_F64), EH_ERR_INVALID_ARG, NULL);
    assert_failed(eh_random_normal(1, SHAPE(-1), 0.0, 1.0, EH_F64), EH_ERR_NEGATIVE_SIZE, NULL);
    eh_tensor *b = eh_random_uniform(1, SHAPE(4), 0.0, 1.0, EH_F64);
    assert_true(same_bits(a, b));
    /* an empty result does take one */
    eh_seed(7);
    eh_tensor *e = eh_random_uniform(1, SHAPE(0), 0.0, 1.0, EH_F64);
    eh_tensor *c = eh_random_uniform(1, SHAPE(4), 0.0, 1.0, EH_F64);
    eh_tensor *d = eh_random_uniform(1, SHAPE(4), 0.0, 1.0, EH_F64);
    eh_seed(7);
    eh_tensor *a2 = eh_random_uniform(1, SHAPE(4), 0.0, 1.0, EH_F64);
    eh_tensor *c2 = eh_random_uniform(1, SHAPE(4), 0.0, 1.0, EH_F64);
    assert_false(same_bits(a, c));
    assert_true(same_bits(a2, a));
    assert_true(same_bits(c2, c));
    eh_release(a);
    eh_release(b);
    eh_release(c);
    eh_release(d);
    eh_release(e);
    eh_release(a2);
    eh_release(c2);
}

static void test_element_depends_only_on_index(void **state)
{
    (void)state;
    eh_seed(99);
    eh_tensor *big = eh_random_gamma(1, SHAPE(100), 0.7, 2.0, EH_F64);
    eh_seed(99);
    eh_tensor *small = eh_random_gamma(1, SHAPE(5), 0.7, 2.0, EH_F64);
    eh_seed(99);
    eh_tensor *grid = eh_random_gamma(2, SHAPE(20, 5), 0.7, 2.0, EH_F64);
    eh_seed(99);
    eh_tensor *scalar = eh_random_gamma(0, NULL, 0.7, 2.0, EH_F64);
    assert_int_equal(eh_ndim(scalar), 0);
    for (int k = 0; k < 5; k++)
        assert_true(t_at(small, k) == t_at(big, k));
    for (int k = 0; k < 100; k++)
        assert_true(t_at(grid, k) == t_at(big, k));
    assert_true(t_at(scalar, 0) == t_at(big, 0));
    eh_release(big);
    eh_release(small);
    eh_release(grid);
    eh_release(scalar);
}

/* Threads calling at once get distinct call numbers: the set of results is
 * the set a single thread gets from calls 0 .. N-1. */
#define THREADS 4
#define CALLS_PER_THREAD 25
static double first_values[THREADS * CALLS_PER_THREAD];

static void *thread_body(void *arg)
{
    int id = (int)(intptr_t)arg;
    for (int c = 0; c < CALLS_PER_THREAD; c++) {
        eh_tensor *t = eh_random_uniform(1, SHAPE(16), 0.0, 1.0, EH_F64);
        first_values[id * CALLS_PER_THREAD + c] = t ? eh_data_f64(t)[0] : NAN;
        eh_release(t);
    }
    return NULL;
}

static void test_threads_get_distinct_call_numbers(void **state)
{
    (void)state;
    eh_seed(2024);
    pthread_t th[THREADS];
    for (int k = 0; k < THREADS; k++)
        assert_int_equal(pthread_create(&th[k], NULL, thread_body, (void *)(intptr_t)k), 0);
    for (int k = 0; k < THREADS; k++)
        pthread_join(th[k], NULL);
    double seq[THREADS * CALLS_PER_THREAD];
    eh_seed(2024);
    for (int c = 0; c < THREADS * CALLS_PER_THREAD; c++) {
        eh_tensor *t = eh_random_uniform(1, SHAPE(16), 0.0, 1.0, EH_F64);
        seq[c] = eh_data_f64(t)[0];
        eh_release(t);
    }
    qsort(first_values, THREADS * CALLS_PER_THREAD, sizeof(double), cmp_double);
    qsort(seq, THREADS * CALLS_PER_THREAD, sizeof(double), cmp_double);
    assert_memory_equal(first_values, seq, sizeof seq);
}

/* ---- EH_SEED, in a child process (the variable is read at first use) ------------- */

/* Child mode: print the first 3 uniforms (hex floats) or the error, then
 * the same after eh_seed(5). */
static int child_main(void)
{
    for (int round = 0; round < 2; round++) {
        if (round == 1)
            eh_seed(5);
        eh_tensor *t = eh_random_uniform(1, SHAPE(3), 0.0, 1.0, EH_F64);
        if (t) {
            const double *v = eh_data_f64(t);
            printf("%a %a %a\n", v[0], v[1], v[2]);
        } else {
            printf("error %s: %s\n", eh_status_name(eh_last_error()), eh_error_message());
            eh_clear_error();
        }
        eh_release(t);
    }
    return 0;
}

static void run_child(const char *env, char *out, size_t cap)
{
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    fflush(stdout);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        dup2(fds[1], 1);
        close(fds[0]);
        close(fds[1]);
        if (env)
            setenv("EH_SEED", env, 1);
        else
            unsetenv("EH_SEED");
        execl("/proc/self/exe", "test_random", "--eh-seed-child", (char *)NULL);
        _exit(127);
    }
    close(fds[1]);
    size_t len = 0;
    ssize_t got;
    while (len + 1 < cap && (got = read(fds[0], out + len, cap - 1 - len)) > 0)
        len += (size_t)got;
    out[len] = '\0';
    close(fds[0]);
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        fail_msg("child with EH_SEED=%s failed (status %d): %s", env ? env : "(unset)", status,
                 out);
}

/* What child_main prints for a working seed, computed in this process. */
static void expected_line(uint64_t seed, char *buf, size_t cap)
{
    eh_seed(seed);
    eh_tensor *t = eh_random_uniform(1, SHAPE(3), 0.0, 1.0, EH_F64);
    const double *v = eh_data_f64(t);
    snprintf(buf, cap, "%a %a %a\n", v[0], v[1], v[2]);
    eh_release(t);
}

static void test_env_seed(void **state)
{
    (void)state;
    char l0[256], l5[256], l12345[256], lmax[256], want[600], out[1024];
    expected_line(0, l0, sizeof l0);
    expected_line(5, l5, sizeof l5);
    expected_line(12345, l12345, sizeof l12345);
    expected_line(UINT64_MAX, lmax, sizeof lmax);

    run_child(NULL, out, sizeof out); /* no EH_SEED: seed 0 */
    snprintf(want, sizeof want, "%s%s", l0, l5);
    assert_string_equal(out, want);
    run_child("", out, sizeof out);   /* empty: seed 0 */
    assert_string_equal(out, want);
    run_child("12345", out, sizeof out);
    snprintf(want, sizeof want, "%s%s", l12345, l5);
    assert_string_equal(out, want);
    run_child("0x3039", out, sizeof out); /* the same seed in hex */
    assert_string_equal(out, want);
    run_child("18446744073709551615", out, sizeof out);
    snprintf(want, sizeof want, "%s%s", lmax, l5);
    assert_string_equal(out, want);

    static const char *const bad[] = {"12x", "-1", " 7", "18446744073709551616", "0x", "1e3"};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        run_child(bad[k], out, sizeof out);
        char prefix[128];
        snprintf(prefix, sizeof prefix, "error EH_ERR_INVALID_ARG: random_uniform: EH_SEED='%s'",
                 bad[k]);
        if (strncmp(out, prefix, strlen(prefix)) != 0)
            fail_msg("EH_SEED=%s: child printed '%s'", bad[k], out);
        /* eh_seed repairs it */
        const char *second = strchr(out, '\n');
        assert_non_null(second);
        assert_string_equal(second + 1, l5);
    }
}

/* ---- ranges, dtypes, shapes ------------------------------------------------------------ */

static void test_uniform_range_and_dtypes(void **state)
{
    (void)state;
    const eh_dtype dts[3] = {EH_F16, EH_F32, EH_F64};
    for (int d = 0; d < 3; d++) {
        eh_seed(11);
        eh_tensor *t = eh_random_uniform(1, SHAPE(N_STAT), 0.0, 1.0, dts[d]);
        assert_non_null(t);
        assert_int_equal(eh_get_dtype(t), dts[d]);
        double *x = doubles_of(t);
        double mx = 0;
        for (int64_t k = 0; k < N_STAT; k++) {
            if (!(x[k] >= 0.0 && x[k] < 1.0))
                fail_msg("%s sample %lld = %.17g outside [0, 1)", eh_dtype_name(dts[d]),
                         (long long)k, x[k]);
            mx = fmax(mx, x[k]);
        }
        if (dts[d] == EH_F16) /* values that round to 1 become the largest f16 below 1 */
            assert_true(mx == 1.0 - 0x1p-11);
        check_moments(eh_dtype_name(dts[d]), x, N_STAT, 0.5, 1.0 / 12.0, 1.0 / 80.0);
        if (dts[d] != EH_F16)
            check_ks("uniform", x, N_STAT, cdf_uniform, 1.0);
        free(x);
        eh_release(t);
    }
    /* shifted range, f64 */
    eh_seed(12);
    eh_tensor *t = eh_random_uniform(1, SHAPE(N_STAT), -3.0, 5.0, EH_F64);
    double *x = doubles_of(t);
    for (int64_t k = 0; k < N_STAT; k++) {
        assert_true(x[k] >= -3.0 && x[k] < 5.0);
        x[k] += 3.0;
    }
    check_moments("uniform(-3, 5)", x, N_STAT, 4.0, 64.0 / 12.0, 4096.0 / 80.0);
    check_ks("uniform(-3, 5)", x, N_STAT, cdf_uniform, 8.0);
    free(x);
    eh_release(t);
}

static void test_uniform_narrow_ranges(void **state)
{
    (void)state;
    eh_seed(13);
    /* [1, 1 + 2^-10): 1 is the only f16 value inside */
    eh_tensor *a = eh_random_uniform(1, SHAPE(1000), 1.0, 1.0 + 0x1p-10, EH_F16);
    assert_non_null(a);
    double *x = doubles_of(a);
    for (int k = 0; k < 1000; k++)
        assert_true(x[k] == 1.0);
    free(x);
    /* [0.1, 0.1 + 1e-8) in f32: two f32 values lie inside, 0.1 rounded up
     * (0.10000000149...) and the next one; 0.1 rounded is above low */
    eh_tensor *b = eh_random_uniform(1, SHAPE(1000), 0.1, 0.1 + 1e-8, EH_F32);
    assert_non_null(b);
    x = doubles_of(b);
    int seen_lo = 0, seen_hi = 0;
    for (int k = 0; k < 1000; k++) {
        assert_true(x[k] >= 0.1 && x[k] < 0.1 + 1e-8);
        seen_lo |= x[k] == (double)0.1f;
        seen_hi |= x[k] == (double)nextafterf(0.1f, 1.0f);
    }
    assert_true(seen_lo && seen_hi);
    free(x);
    /* f64 bounds adjacent: only low */
    eh_tensor *c = eh_random_uniform(1, SHAPE(100), 2.0, nextafter(2.0, 3.0), EH_F64);
    assert_non_null(c);
    x = doubles_of(c);
    for (int k = 0; k < 100; k++)
        assert_true(x[k] == 2.0);
    free(x);
    /* f16 bounds near the top of its range */
    eh_tensor *d = eh_random_uniform(1, SHAPE(1000), 65000.0, 65504.5, EH_F16);
    assert_non_null(d);
    x = doubles_of(d);
    for (int k = 0; k < 1000; k++)
        assert_true(x[k] >= 65000.0 && x[k] <= 65504.0);
    free(x);
    eh_release(a);
    eh_release(b);
    eh_release(c);
    eh_release(d);
}

/* Float results of the version-1 samplers are the f64 sample rounded once
 * to the dtype (uniform and normal, version 2, sample f32 on their own). */
static void test_float_dtypes_round_the_f64_sample(void **state)
{
    (void)state;
    const int n = 2000;
    for (int op = 1; op < 3; op++) {
        eh_tensor *t[3];
        const eh_dtype dts[3] = {EH_F64, EH_F32, EH_F16};
        for (int d = 0; d < 3; d++) {
            eh_seed(17);
            t[d] = op == 0   ? eh_random_normal(1, SHAPE(n), 1.0, 3.0, dts[d])
                   : op == 1 ? eh_random_exponential(1, SHAPE(n), 0.5, dts[d])
                             : eh_random_gamma(1, SHAPE(n), 2.5, 1.5, dts[d]);
            assert_non_null(t[d]);
            assert_int_equal(eh_get_dtype(t[d]), dts[d]);
        }
        const double *x64 = eh_data_f64(t[0]);
        const float *x32 = eh_data_f32(t[1]);
        const uint16_t *x16 = eh_data_f16(t[2]);
        for (int k = 0; k < n; k++) {
            assert_true(x32[k] == (float)x64[k]);
            double h = eh_f16_to_f32(x16[k]);
            if (!(fabs(h - x64[k]) <= 0x1p-11 * fabs(x64[k]) + 0x1p-25))
                fail_msg("op %d element %d: f16 %.9g vs f64 %.17g", op, k, h, x64[k]);
        }
        for (int d = 0; d < 3; d++)
            eh_release(t[d]);
    }
}

static void test_empty_and_scalar_shapes(void **state)
{
    (void)state;
    eh_seed(1);
    eh_tensor *r[10];
    r[0] = eh_random_uniform(2, SHAPE(3, 0), 0.0, 1.0, EH_F32);
    r[1] = eh_random_normal(1, SHAPE(0), 0.0, 1.0, EH_F16);
    r[2] = eh_random_bernoulli(2, SHAPE(0, 4), 0.5);
    r[3] = eh_random_poisson(1, SHAPE(0), 100.0);
    r[4] = eh_random_exponential(1, SHAPE(0), 1.0, EH_F64);
    r[5] = eh_random_gamma(1, SHAPE(0), 1.0, 1.0, EH_F64);
    r[6] = eh_random_binomial(1, SHAPE(0), 10, 0.5);
    r[7] = eh_random_randint(3, SHAPE(2, 0, 2), 0, 5, EH_I32);
    r[8] = eh_random_permutation(0);
    eh_tensor *lg = t_from(EH_F64, 2, SHAPE(0, 3), NULL);
    r[9] = eh_random_categorical(lg, 5);
    const eh_dtype want[10] = {EH_F32, EH_F16, EH_BOOL, EH_I64, EH_F64,
                               EH_F64, EH_I64, EH_I32, EH_I64, EH_I64};
    for (int k = 0; k < 10; k++) {
        assert_non_null(r[k]);
        assert_int_equal(eh_size(r[k]), 0);
        assert_int_equal(eh_get_dtype(r[k]), want[k]);
    }
    assert_int_equal(eh_ndim(r[7]), 3);
    assert_int_equal(eh_dim(r[7], 1), 0);
    assert_int_equal(eh_ndim(r[9]), 2);
    assert_int_equal(eh_dim(r[9], 0), 0);
    assert_int_equal(eh_dim(r[9], 1), 5);
    for (int k = 0; k < 10; k++)
        eh_release(r[k]);
    eh_release(lg);
    /* 0-d results hold one sample */
    eh_tensor *s = eh_random_poisson(0, NULL, 4.0);
    assert_int_equal(eh_ndim(s), 0);
    assert_int_equal(eh_size(s), 1);
    assert_true(t_at(s, 0) >= 0);
    eh_release(s);
    eh_tensor *b = eh_random_bernoulli(0, NULL, 1.0);
    assert_tensor_exact(b, EH_BOOL, 0, NULL, ((const double[]){1}));
    eh_release(b);
}

/* ---- distributions ------------------------------------------------------------------ */

static void test_normal_statistics(void **state)
{
    (void)state;
    const eh_dtype dts[3] = {EH_F64, EH_F32, EH_F16};
    for (int d = 0; d < 3; d++) {
        eh_seed(21);
        eh_tensor *t = eh_random_normal(1, SHAPE(N_STAT), 2.0, 3.0, dts[d]);
        double *x = doubles_of(t);
        check_moments("normal(2, 3)", x, N_STAT, 2.0, 9.0, 3.0 * 81.0);
        if (dts[d] != EH_F16) {
            for (int64_t k = 0; k < N_STAT; k++)
                x[k] = (x[k] - 2.0) / 3.0;
            /* the two outputs of a Box-Muller pair are independent: their
             * correlation is within 6 standard errors of 0 */
            double sxy = 0;
            for (int64_t k = 0; k + 1 < N_STAT; k += 2)
                sxy += x[k] * x[k + 1];
            double corr = sxy / (double)(N_STAT / 2);
            if (!(fabs(corr) < 6.0 / sqrt((double)(N_STAT / 2))))
                fail_msg("normal %s: pair correlation %g", eh_dtype_name(dts[d]), corr);
            check_ks("normal", x, N_STAT, cdf_normal, 0.0); /* sorts x */
        }
        free(x);
        eh_release(t);
    }
    /* std 0 gives the mean */
    eh_tensor *c = eh_random_normal(1, SHAPE(3), -1.5, 0.0, EH_F32);
    assert_tensor_exact(c, EH_F32, 1, SHAPE(3), ((const double[]){-1.5, -1.5, -1.5}));
    eh_release(c);
}

static void test_exponential_statistics(void **state)
{
    (void)state;
    const eh_dtype dts[3] = {EH_F64, EH_F32, EH_F16};
    for (int d = 0; d < 3; d++) {
        eh_seed(22);
        eh_tensor *t = eh_random_exponential(1, SHAPE(N_STAT), 2.5, dts[d]);
        double *x = doubles_of(t);
        for (int64_t k = 0; k < N_STAT; k++)
            assert_true(x[k] >= 0.0 && isfinite(x[k]));
        check_moments("exponential(2.5)", x, N_STAT, 2.5, 6.25, 9.0 * 39.0625);
        if (dts[d] != EH_F16)
            check_ks("exponential", x, N_STAT, cdf_exponential, 2.5);
        free(x);
        eh_release(t);
    }
}

static void test_gamma_statistics(void **state)
{
    (void)state;
    /* KS for alpha whose CDF has a closed form (both algorithm branches) */
    const double ks_alpha[4] = {0.5, 1.0, 2.5, 3.0};
    for (int a = 0; a < 4; a++) {
        eh_seed(23 + (uint64_t)a);
        eh_tensor *t = eh_random_gamma(1, SHAPE(N_STAT), ks_alpha[a], 2.0, EH_F64);
        double *x = doubles_of(t);
        double al = ks_alpha[a];
        check_moments("gamma", x, N_STAT, 2.0 * al, 4.0 * al, 16.0 * (3 * al * al + 6 * al));
        for (int64_t k = 0; k < N_STAT; k++)
            x[k] /= 2.0;
        check_ks("gamma", x, N_STAT, cdf_gamma, al);
        free(x);
        eh_release(t);
    }
    /* moments across alpha and dtypes: mean a s, var a s^2, mu4 (3a^2 + 6a) s^4 */
    const double alpha[4] = {0.3, 1.7, 9.0, 1000.0};
    const eh_dtype dts[3] = {EH_F64, EH_F32, EH_F16};
    for (int a = 0; a < 4; a++) {
        for (int d = 0; d < 3; d++) {
            double al = alpha[a], sc = a == 3 ? 0.01 : 0.5;
            eh_seed(31 + (uint64_t)a);
            eh_tensor *t = eh_random_gamma(1, SHAPE(N_STAT), al, sc, dts[d]);
            double *x = doubles_of(t);
            for (int64_t k = 0; k < N_STAT; k++)
                assert_true(x[k] >= 0.0 && isfinite(x[k]));
            char what[64];
            snprintf(what, sizeof what, "gamma(%g, %g) %s", al, sc, eh_dtype_name(dts[d]));
            check_moments(what, x, N_STAT, al * sc, al * sc * sc,
                          (3 * al * al + 6 * al) * sc * sc * sc * sc);
            free(x);
            eh_release(t);
        }
    }
}

static void test_bernoulli_statistics(void **state)
{
    (void)state;
    const double ps[3] = {0.5, 0.03, 0.9};
    for (int k = 0; k < 3; k++) {
        double p = ps[k], q = 1 - p;
        eh_seed(41 + (uint64_t)k);
        eh_tensor *t = eh_random_bernoulli(1, SHAPE(N_STAT), p);
        assert_int_equal(eh_get_dtype(t), EH_BOOL);
        double *x = doubles_of(t);
        for (int64_t j = 0; j < N_STAT; j++)
            assert_true(x[j] == 0.0 || x[j] == 1.0);
        check_moments("bernoulli", x, N_STAT, p, p * q, p * q * (1 - 3 * p * q));
        free(x);
        eh_release(t);
    }
    eh_tensor *zero = eh_random_bernoulli(1, SHAPE(1000), 0.0);
    eh_tensor *one = eh_random_bernoulli(1, SHAPE(1000), 1.0);
    for (int j = 0; j < 1000; j++) {
        assert_true(t_at(zero, j) == 0.0);
        assert_true(t_at(one, j) == 1.0);
    }
    eh_release(zero);
    eh_release(one);
}

static void test_poisson_statistics(void **state)
{
    (void)state;
    /* chi-square against the pmf: Knuth (lam < 10) and PTRS (lam >= 10) */
    const struct { double lam; int64_t lo, hi; } cases[] = {
        {0.7, 0, 4}, {3.0, 0, 10}, {9.99, 2, 21}, {10.0, 2, 21}, {50.0, 27, 76},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        eh_seed(51 + (uint64_t)c);
        double lam = cases[c].lam;
        eh_tensor *t = eh_random_poisson(1, SHAPE(N_STAT), lam);
        assert_int_equal(eh_get_dtype(t), EH_I64);
        double *x = doubles_of(t);
        char what[64];
        snprintf(what, sizeof what, "poisson(%g)", lam);
        check_moments(what, x, N_STAT, lam, lam, lam * (1 + 3 * lam));
        check_pmf(what, x, N_STAT, poisson_logpmf, &lam, cases[c].lo, cases[c].hi);
        free(x);
        eh_release(t);
    }
    /* large lam: moments, and the shape against the normal law where that
     * is exact enough (this is where a log-pmf computed as
     * k log lam - lam - lgamma(k + 1) goes wrong by units) */
    const double big[5] = {1e4, 1e9, 1e12, 1e15, 1e18};
    for (int c = 0; c < 5; c++) {
        eh_seed(61 + (uint64_t)c);
        eh_tensor *t = eh_random_poisson(1, SHAPE(N_STAT), big[c]);
        double *x = doubles_of(t);
        char what[64];
        snprintf(what, sizeof what, "poisson(%g)", big[c]);
        check_moments(what, x, N_STAT, big[c], big[c], big[c] * (1 + 3 * big[c]));
        if (big[c] >= 1e12)
            check_normal_bins(what, x, N_STAT, big[c], sqrt(big[c]));
        free(x);
        eh_release(t);
    }
    /* lam 0 and the largest lam */
    eh_tensor *z = eh_random_poisson(1, SHAPE(10), 0.0);
    assert_tensor_exact(z, EH_I64, 1, SHAPE(10), ((const double[]){0, 0, 0, 0, 0, 0, 0, 0, 0, 0}));
    eh_release(z);
    eh_tensor *m = eh_random_poisson(1, SHAPE(100), 9.2233720064847708e18);
    assert_non_null(m);
    const int64_t *mv = eh_data_i64(m);
    for (int k = 0; k < 100; k++)
        assert_true(mv[k] > INT64_C(9200000000000000000));
    eh_release(m);
}

static void test_binomial_statistics(void **state)
{
    (void)state;
    /* chi-square: inversion (n p < 10), BTRS (n p >= 10), and the p > 1/2 reflection */
    const struct { double n, p; int64_t lo, hi; } cases[] = {
        {20, 0.3, 1, 11},      /* inversion */
        {10, 0.9, 6, 10},      /* reflected inversion */
        {1000, 0.4, 362, 438}, /* BTRS */
        {100, 0.8, 70, 90},    /* reflected BTRS (n q = 20) */
        {25, 0.4, 4, 16},      /* BTRS at n p = 10 */
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        eh_seed(71 + (uint64_t)c);
        double n = cases[c].n, p = cases[c].p, q = 1 - p;
        eh_tensor *t = eh_random_binomial(1, SHAPE(N_STAT), (int64_t)n, p);
        assert_int_equal(eh_get_dtype(t), EH_I64);
        double *x = doubles_of(t);
        for (int64_t k = 0; k < N_STAT; k++)
            assert_true(x[k] >= 0 && x[k] <= n);
        char what[64];
        snprintf(what, sizeof what, "binomial(%g, %g)", n, p);
        check_moments(what, x, N_STAT, n * p, n * p * q, n * p * q * (1 + 3 * (n - 2) * p * q));
        const double par[2] = {n, p};
        check_pmf(what, x, N_STAT, binomial_logpmf, par, cases[c].lo, cases[c].hi);
        free(x);
        eh_release(t);
    }
    /* huge n: moments, and the normal law where it is exact enough */
    const struct { int64_t n; double p; } big[] = {
        {INT64_C(1000000000000), 0.3}, {INT64_C(1000000000000), 1e-11},
        {INT64_C(1000000000000000), 0.7}, {INT64_C(4000000000000000000), 0.5},
    };
    for (size_t c = 0; c < sizeof big / sizeof big[0]; c++) {
        eh_seed(81 + (uint64_t)c);
        double n = (double)big[c].n, p = big[c].p, q = 1 - p;
        eh_tensor *t = eh_random_binomial(1, SHAPE(N_STAT), big[c].n, p);
        double *x = doubles_of(t);
        char what[64];
        snprintf(what, sizeof what, "binomial(%g, %g)", n, p);
        check_moments(what, x, N_STAT, n * p, n * p * q, n * p * q * (1 + 3 * (n - 2) * p * q));
        if (n * p * q >= 1e10)
            check_normal_bins(what, x, N_STAT, n * p, sqrt(n * p * q));
        free(x);
        eh_release(t);
    }
    /* degenerate parameters */
    eh_tensor *a = eh_random_binomial(1, SHAPE(3), 0, 0.5);
    eh_tensor *b = eh_random_binomial(1, SHAPE(3), 7, 0.0);
    eh_tensor *c = eh_random_binomial(1, SHAPE(3), INT64_MAX, 1.0);
    assert_tensor_exact(a, EH_I64, 1, SHAPE(3), ((const double[]){0, 0, 0}));
    assert_tensor_exact(b, EH_I64, 1, SHAPE(3), ((const double[]){0, 0, 0}));
    for (int k = 0; k < 3; k++)
        assert_true(eh_data_i64(c)[k] == INT64_MAX);
    eh_release(a);
    eh_release(b);
    eh_release(c);
}

static void test_randint_statistics(void **state)
{
    (void)state;
    eh_seed(91);
    eh_tensor *t = eh_random_randint(1, SHAPE(N_STAT), -5, 7, EH_I32);
    assert_int_equal(eh_get_dtype(t), EH_I32);
    double *x = doubles_of(t);
    double obs[12] = {0}, expct[12];
    for (int64_t k = 0; k < N_STAT; k++) {
        assert_true(x[k] >= -5 && x[k] < 7 && x[k] == floor(x[k]));
        obs[(int)x[k] + 5] += 1;
    }
    for (int b = 0; b < 12; b++)
        expct[b] = N_STAT / 12.0;
    check_chi2("randint(-5, 7)", obs, expct, 12);
    check_moments("randint(-5, 7)", x, N_STAT, 0.5, 143.0 / 12.0, 143.0 * 425.0 / 240.0);
    free(x);
    eh_release(t);

    /* full ranges: m = high - low values have var (m^2-1)/12, mu4 (m^2-1)(3m^2-7)/240 */
    eh_seed(92);
    t = eh_random_randint(1, SHAPE(N_STAT), INT32_MIN, (int64_t)INT32_MAX + 1, EH_I32);
    x = doubles_of(t);
    double m = 4294967296.0;
    check_moments("randint(i32)", x, N_STAT, -0.5, (m * m - 1) / 12, (m * m - 1) * (3 * m * m - 7) / 240);
    free(x);
    eh_release(t);
    eh_seed(93);
    t = eh_random_randint(1, SHAPE(N_STAT), INT64_MIN, INT64_MAX, EH_I64);
    x = doubles_of(t);
    m = 18446744073709551616.0;
    check_moments("randint(i64)", x, N_STAT, -1.0, (m * m) / 12, (m * m) * (3 * m * m) / 240);
    free(x);
    eh_release(t);

    /* edges */
    eh_tensor *one = eh_random_randint(1, SHAPE(5), 41, 42, EH_I64);
    assert_tensor_exact(one, EH_I64, 1, SHAPE(5), ((const double[]){41, 41, 41, 41, 41}));
    eh_tensor *top = eh_random_randint(1, SHAPE(200), INT64_MAX - 3, INT64_MAX, EH_I64);
    eh_tensor *bottom = eh_random_randint(1, SHAPE(200), INT64_MIN, INT64_MIN + 2, EH_I64);
    int seen_top[3] = {0}, seen_bottom[2] = {0};
    for (int k = 0; k < 200; k++) {
        int64_t v = eh_data_i64(top)[k], w = eh_data_i64(bottom)[k];
        assert_true(v >= INT64_MAX - 3 && v < INT64_MAX);
        assert_true(w >= INT64_MIN && w < INT64_MIN + 2);
        seen_top[v - (INT64_MAX - 3)] = 1;
        seen_bottom[w - INT64_MIN] = 1;
    }
    assert_true(seen_top[0] && seen_top[1] && seen_top[2] && seen_bottom[0] && seen_bottom[1]);
    eh_release(one);
    eh_release(top);
    eh_release(bottom);
}

static void test_permutation(void **state)
{
    (void)state;
    eh_seed(101);
    eh_tensor *p = eh_random_permutation(1000);
    assert_int_equal(eh_get_dtype(p), EH_I64);
    assert_int_equal(eh_ndim(p), 1);
    assert_int_equal(eh_dim(p, 0), 1000);
    char seen[1000] = {0};
    int fixed = 0;
    for (int k = 0; k < 1000; k++) {
        int64_t v = eh_data_i64(p)[k];
        assert_true(v >= 0 && v < 1000);
        assert_false(seen[v]);
        seen[v] = 1;
        fixed += v == k;
    }
    assert_true(fixed < 10); /* identity-like output would fail; E[fixed points] = 1 */
    eh_release(p);
    eh_tensor *one = eh_random_permutation(1);
    assert_tensor_exact(one, EH_I64, 1, SHAPE(1), ((const double[]){0}));
    eh_release(one);

    /* all 6 orders of 3 elements equally likely */
    double obs[6] = {0}, expct[6];
    const int n_perm = 30000;
    for (int c = 0; c < n_perm; c++) {
        eh_tensor *t = eh_random_permutation(3);
        const int64_t *v = eh_data_i64(t);
        int code = (int)(v[0] * 3 + v[1]); /* 01 02 10 12 20 21 -> 1 2 3 5 6 7 */
        static const int bin[9] = {-1, 0, 1, 2, -1, 3, 4, 5, -1};
        assert_true(bin[code] >= 0 && v[2] == 3 - v[0] - v[1]);
        obs[bin[code]] += 1;
        eh_release(t);
    }
    for (int b = 0; b < 6; b++)
        expct[b] = n_perm / 6.0;
    check_chi2("permutation(3)", obs, expct, 6);
}

static void test_categorical_statistics(void **state)
{
    (void)state;
    const int ns = 200000;
    /* row 0: probabilities 0.1 0.2 0.3 0.4 (shifted logits); row 1: [1, 0, e, e^2] */
    eh_tensor *lg = T_F64(SHAPE(2, 4), log(0.1) + 5, log(0.2) + 5, log(0.3) + 5, log(0.4) + 5,
                          0.0, -INFINITY, 1.0, 2.0);
    eh_seed(111);
    eh_tensor *s = eh_random_categorical(lg, ns);
    assert_non_null(s);
    assert_int_equal(eh_get_dtype(s), EH_I64);
    assert_int_equal(eh_ndim(s), 2);
    assert_int_equal(eh_dim(s, 0), 2);
    assert_int_equal(eh_dim(s, 1), ns);
    const int64_t *v = eh_data_i64(s);
    double obs0[4] = {0}, obs1[4] = {0};
    for (int k = 0; k < ns; k++) {
        assert_true(v[k] >= 0 && v[k] < 4);
        assert_true(v[ns + k] >= 0 && v[ns + k] < 4);
        obs0[v[k]] += 1;
        obs1[v[ns + k]] += 1;
    }
    const double exp0[4] = {0.1 * ns, 0.2 * ns, 0.3 * ns, 0.4 * ns};
    check_chi2("categorical row 0", obs0, exp0, 4);
    assert_true(obs1[1] == 0.0); /* the -inf class */
    double z = 1 + exp(1.0) + exp(2.0);
    const double o1[3] = {obs1[0], obs1[2], obs1[3]};
    const double e1[3] = {ns / z, ns * exp(1.0) / z, ns * exp(2.0) / z};
    check_chi2("categorical row 1", o1, e1, 3);

    /* f32 logits (exactly representable values) give the same samples as f64 */
    eh_tensor *lg64 = T_F64(SHAPE(2, 4), 0.5, -1.0, 2.0, 0.25, 1.0, 1.0, -3.0, 0.0);
    eh_tensor *lg32 = eh_cast(lg64, EH_F32);
    eh_tensor *lgi = T_F64(SHAPE(3), 1, 0, 2);
    eh_tensor *lgi32 = eh_cast(lgi, EH_I32);
    eh_seed(112);
    eh_tensor *a = eh_random_categorical(lg64, 100);
    eh_tensor *ai = eh_random_categorical(lgi, 100);
    eh_seed(112);
    eh_tensor *b = eh_random_categorical(lg32, 100);
    eh_tensor *bi = eh_random_categorical(lgi32, 100); /* integer logits accepted */
    assert_true(same_bits(a, b));
    assert_true(same_bits(ai, bi));

    /* leading dimensions, and element i samples row i / num_samples */
    eh_tensor *det = T_F64(SHAPE(2, 1, 3), 0.0, -INFINITY, -INFINITY, -INFINITY, -INFINITY, 7.0);
    eh_tensor *d = eh_random_categorical(det, 4);
    assert_tensor_exact(d, EH_I64, 3, SHAPE(2, 1, 4), ((const double[]){0, 0, 0, 0, 2, 2, 2, 2}));
    /* a single category */
    eh_tensor *single = T_F64(SHAPE(1), -100.0);
    eh_tensor *e = eh_random_categorical(single, 3);
    assert_tensor_exact(e, EH_I64, 1, SHAPE(3), ((const double[]){0, 0, 0}));
    /* num_samples 0: nothing sampled, so bad logits are not read */
    eh_tensor *nanrow = T_F64(SHAPE(1, 2), NAN, 0.0);
    eh_tensor *f = eh_random_categorical(nanrow, 0);
    assert_non_null(f);
    assert_int_equal(eh_size(f), 0);
    assert_int_equal(eh_dim(f, 1), 0);
    eh_release(f);
    eh_release(nanrow);
    eh_release(e);
    eh_release(single);
    eh_release(d);
    eh_release(det);
    eh_release(a);
    eh_release(b);
    eh_release(ai);
    eh_release(bi);
    eh_release(lgi);
    eh_release(lgi32);
    eh_release(lg64);
    eh_release(lg32);
    eh_release(s);
    eh_release(lg);
}

/* ---- errors ------------------------------------------------------------------------ */

static void test_shape_errors(void **state)
{
    (void)state;
    const int64_t huge[2] = {INT64_MAX, 2};
    assert_failed(eh_random_uniform(1, NULL, 0, 1, EH_F32), EH_ERR_NULL_ARG, "random_uniform");
    assert_failed(eh_random_normal(9, SHAPE(1, 1, 1, 1, 1, 1, 1, 1, 1), 0, 1, EH_F32),
                  EH_ERR_SHAPE, "random_normal");
    assert_failed(eh_random_normal(-1, NULL, 0, 1, EH_F32), EH_ERR_SHAPE, NULL);
    assert_failed(eh_random_bernoulli(2, SHAPE(2, -3), 0.5), EH_ERR_NEGATIVE_SIZE, "(2, -3)");
    assert_failed(eh_random_poisson(2, huge, 1.0), EH_ERR_OVERFLOW, "random_poisson");
    assert_failed(eh_random_exponential(1, SHAPE(-1), 1.0, EH_F32), EH_ERR_NEGATIVE_SIZE, NULL);
    assert_failed(eh_random_gamma(2, huge, 1.0, 1.0, EH_F64), EH_ERR_OVERFLOW, NULL);
    assert_failed(eh_random_binomial(1, NULL, 3, 0.5), EH_ERR_NULL_ARG, NULL);
    assert_failed(eh_random_randint(1, SHAPE(-2), 0, 3, EH_I32), EH_ERR_NEGATIVE_SIZE, NULL);
    assert_failed(eh_random_permutation(-1), EH_ERR_NEGATIVE_SIZE, "random_permutation: n is -1");
    assert_failed(eh_random_permutation(INT64_MAX), EH_ERR_OVERFLOW, "random_permutation");
}

static void test_dtype_errors(void **state)
{
    (void)state;
    assert_failed(eh_random_uniform(1, SHAPE(2), 0, 1, EH_I32), EH_ERR_DTYPE, "i32 is not a float");
    assert_failed(eh_random_uniform(1, SHAPE(2), 0, 1, (eh_dtype)99), EH_ERR_DTYPE, NULL);
    assert_failed(eh_random_normal(1, SHAPE(2), 0, 1, EH_BOOL), EH_ERR_DTYPE, "bool");
    assert_failed(eh_random_exponential(1, SHAPE(2), 1, EH_I64), EH_ERR_DTYPE, "i64");
    assert_failed(eh_random_gamma(1, SHAPE(2), 1, 1, EH_I32), EH_ERR_DTYPE, "random_gamma");
    assert_failed(eh_random_randint(1, SHAPE(2), 0, 3, EH_F32), EH_ERR_DTYPE, "f32 is not an integer");
    assert_failed(eh_random_randint(1, SHAPE(2), 0, 3, EH_BOOL), EH_ERR_DTYPE, NULL);
    assert_failed(eh_random_randint(1, SHAPE(2), 0, 3, (eh_dtype)-1), EH_ERR_DTYPE, NULL);
}

static void test_parameter_errors(void **state)
{
    (void)state;
    const int64_t *s = SHAPE(2);
    /* uniform */
    assert_failed(eh_random_uniform(1, s, NAN, 1, EH_F64), EH_ERR_INVALID_ARG, "finite");
    assert_failed(eh_random_uniform(1, s, 0, INFINITY, EH_F64), EH_ERR_INVALID_ARG, "finite");
    assert_failed(eh_random_uniform(1, s, 1, 1, EH_F64), EH_ERR_INVALID_ARG, "low < high");
    assert_failed(eh_random_uniform(1, s, 2, 1, EH_F64), EH_ERR_INVALID_ARG, "low < high");
    assert_failed(eh_random_uniform(1, s, -1.5e308, 1.5e308, EH_F64), EH_ERR_INVALID_ARG, "overflows");
    assert_failed(eh_random_uniform(1, s, -70000, 0, EH_F16), EH_ERR_INVALID_ARG, "range of f16");
    assert_failed(eh_random_uniform(1, s, 0, 1e39, EH_F32), EH_ERR_INVALID_ARG, "range of f32");
    assert_failed(eh_random_uniform(1, s, 1.0 + 0x1p-12, 1.0 + 0x1p-11, EH_F16), EH_ERR_INVALID_ARG,
                  "no f16 value");
    assert_failed(eh_random_uniform(1, s, 0.1, 0.1 + 1e-9, EH_F32), EH_ERR_INVALID_ARG,
                  "no f32 value"); /* 0.1 rounds up past 0.1 + 1e-9 */
    /* normal */
    assert_failed(eh_random_normal(1, s, NAN, 1, EH_F64), EH_ERR_INVALID_ARG, "mean");
    assert_failed(eh_random_normal(1, s, -INFINITY, 1, EH_F64), EH_ERR_INVALID_ARG, "mean");
    assert_failed(eh_random_normal(1, s, 0, -0.5, EH_F64), EH_ERR_INVALID_ARG, "std");
    assert_failed(eh_random_normal(1, s, 0, NAN, EH_F64), EH_ERR_INVALID_ARG, "std");
    assert_failed(eh_random_normal(1, s, 0, INFINITY, EH_F64), EH_ERR_INVALID_ARG, "std");
    /* bernoulli */
    assert_failed(eh_random_bernoulli(1, s, -0.1), EH_ERR_INVALID_ARG, "p must be in [0, 1]");
    assert_failed(eh_random_bernoulli(1, s, 1.1), EH_ERR_INVALID_ARG, "random_bernoulli");
    assert_failed(eh_random_bernoulli(1, s, NAN), EH_ERR_INVALID_ARG, NULL);
    /* poisson */
    assert_failed(eh_random_poisson(1, s, -1), EH_ERR_INVALID_ARG, "lam");
    assert_failed(eh_random_poisson(1, s, NAN), EH_ERR_INVALID_ARG, "lam");
    assert_failed(eh_random_poisson(1, s, INFINITY), EH_ERR_INVALID_ARG, "lam");
    assert_failed(eh_random_poisson(1, s, 1e19), EH_ERR_INVALID_ARG, "lam");
    /* exponential */
    assert_failed(eh_random_exponential(1, s, 0, EH_F64), EH_ERR_INVALID_ARG, "scale");
    assert_failed(eh_random_exponential(1, s, -1, EH_F64), EH_ERR_INVALID_ARG, "scale");
    assert_failed(eh_random_exponential(1, s, NAN, EH_F64), EH_ERR_INVALID_ARG, "scale");
    assert_failed(eh_random_exponential(1, s, INFINITY, EH_F64), EH_ERR_INVALID_ARG, "scale");
    /* gamma */
    assert_failed(eh_random_gamma(1, s, 0, 1, EH_F64), EH_ERR_INVALID_ARG, "alpha");
    assert_failed(eh_random_gamma(1, s, -2, 1, EH_F64), EH_ERR_INVALID_ARG, "alpha");
    assert_failed(eh_random_gamma(1, s, NAN, 1, EH_F64), EH_ERR_INVALID_ARG, "alpha");
    assert_failed(eh_random_gamma(1, s, INFINITY, 1, EH_F64), EH_ERR_INVALID_ARG, "alpha");
    assert_failed(eh_random_gamma(1, s, 1, 0, EH_F64), EH_ERR_INVALID_ARG, "scale");
    assert_failed(eh_random_gamma(1, s, 1, NAN, EH_F64), EH_ERR_INVALID_ARG, "scale");
    /* binomial */
    assert_failed(eh_random_binomial(1, s, -1, 0.5), EH_ERR_INVALID_ARG, "n must be >= 0");
    assert_failed(eh_random_binomial(1, s, 5, -0.5), EH_ERR_INVALID_ARG, "p must be");
    assert_failed(eh_random_binomial(1, s, 5, 1.5), EH_ERR_INVALID_ARG, "p must be");
    assert_failed(eh_random_binomial(1, s, 5, NAN), EH_ERR_INVALID_ARG, "p must be");
    /* randint */
    assert_failed(eh_random_randint(1, s, 3, 3, EH_I64), EH_ERR_INVALID_ARG, "low < high");
    assert_failed(eh_random_randint(1, s, 4, 3, EH_I32), EH_ERR_INVALID_ARG, "low < high");
    assert_failed(eh_random_randint(1, s, 0, (int64_t)INT32_MAX + 2, EH_I32), EH_ERR_INVALID_ARG,
                  "does not fit i32");
    assert_failed(eh_random_randint(1, s, (int64_t)INT32_MIN - 1, 0, EH_I32), EH_ERR_INVALID_ARG,
                  "does not fit i32");
}

static void test_categorical_errors(void **state)
{
    (void)state;
    eh_tensor *ok = T_F64(SHAPE(2, 3), 0, 0, 0, 0, 0, 0);
    assert_failed(eh_random_categorical(NULL, 3), EH_ERR_NULL_ARG, "logits");
    /* a NULL from a failed inner call keeps the first error */
    assert_null(eh_random_categorical(eh_random_uniform(1, SHAPE(2), 1, 0, EH_F64), 3));
    assert_failed(NULL, EH_ERR_INVALID_ARG, "random_uniform");
    eh_tensor *b = eh_cast(ok, EH_BOOL);
    assert_failed(eh_random_categorical(b, 3), EH_ERR_DTYPE, "bool");
    eh_tensor *scalar = eh_scalar(1.0, EH_F64);
    assert_failed(eh_random_categorical(scalar, 3), EH_ERR_SHAPE, "shape ()");
    eh_tensor *none = t_from(EH_F64, 2, SHAPE(2, 0), NULL);
    assert_failed(eh_random_categorical(none, 3), EH_ERR_SHAPE, "(2, 0)");
    assert_failed(eh_random_categorical(ok, -1), EH_ERR_NEGATIVE_SIZE, "num_samples");
    assert_failed(eh_random_categorical(ok, INT64_MAX), EH_ERR_OVERFLOW, NULL);
    /* bad rows: found by the kernel */
    eh_tensor *r1 = T_F64(SHAPE(2, 3), 0, 0, 0, 1, NAN, 0);
    eh_tensor *r2 = T_F64(SHAPE(3), 0, INFINITY, 0);
    eh_tensor *r3 = T_F64(SHAPE(2, 2), 0, 0, -INFINITY, -INFINITY);
    fails_eventually(eh_random_categorical(r1, 2), EH_ERR_INVALID_ARG, "row 1 contains NaN");
    fails_eventually(eh_random_categorical(r2, 1), EH_ERR_INVALID_ARG, "row 0 contains +inf");
    fails_eventually(eh_random_categorical(r3, 5), EH_ERR_INVALID_ARG, "row 1 has no finite logit");
    eh_release(ok);
    eh_release(b);
    eh_release(scalar);
    eh_release(none);
    eh_release(r1);
    eh_release(r2);
    eh_release(r3);
}

static void test_out_of_memory(void **state)
{
    (void)state;
    eh__test_fail_alloc(1); /* the result's header */
    assert_failed(eh_random_normal(1, SHAPE(8), 0, 1, EH_F32), EH_ERR_NOMEM, NULL);
    eh__test_fail_alloc(2); /* its storage */
    eh_tensor *t = eh_random_permutation(64);
    if (t) { /* a deferring backend allocates later */
        eh_release(t);
        eh__test_fail_alloc(0);
    } else {
        assert_failed(t, EH_ERR_NOMEM, NULL);
    }
    /* and the library still works */
    t = eh_random_permutation(4);
    assert_non_null(t);
    eh_release(t);
}

static void test_scope_releases_random_results(void **state)
{
    (void)state;
    eh_seed(5);
    assert_int_equal(eh_scope_begin(), EH_OK);
    eh_tensor *kept = eh_keep(eh_add(eh_random_normal(1, SHAPE(4), 0, 1, EH_F64),
                                     eh_random_uniform(1, SHAPE(4), 0, 1, EH_F64)));
    eh_random_categorical(eh_random_normal(2, SHAPE(3, 5), 0, 1, EH_F64), 7);
    assert_int_equal(eh_scope_end(), EH_OK);
    assert_non_null(kept);
    assert_int_equal(eh_size(kept), 4);
    eh_release(kept);
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--eh-seed-child") == 0)
        return child_main();
    const struct CMUnitTest tests[] = {
        EH_TEST(test_philox_known_answers),
        EH_TEST(test_stream_layout),
        EH_TEST(test_categorical_pick),
        EH_TEST(test_uniform_known_values),
        EH_TEST(test_v2_same_bits_on_every_isa),
        EH_TEST(test_other_known_values),
        EH_TEST(test_same_seed_same_tensors),
        EH_TEST(test_call_numbers_are_shared_by_all_ops),
        EH_TEST(test_rejected_calls_take_no_number),
        EH_TEST(test_element_depends_only_on_index),
        EH_TEST(test_threads_get_distinct_call_numbers),
        EH_TEST(test_env_seed),
        EH_TEST(test_uniform_range_and_dtypes),
        EH_TEST(test_uniform_narrow_ranges),
        EH_TEST(test_float_dtypes_round_the_f64_sample),
        EH_TEST(test_empty_and_scalar_shapes),
        EH_TEST(test_normal_statistics),
        EH_TEST(test_exponential_statistics),
        EH_TEST(test_gamma_statistics),
        EH_TEST(test_bernoulli_statistics),
        EH_TEST(test_poisson_statistics),
        EH_TEST(test_binomial_statistics),
        EH_TEST(test_randint_statistics),
        EH_TEST(test_permutation),
        EH_TEST(test_categorical_statistics),
        EH_TEST(test_shape_errors),
        EH_TEST(test_dtype_errors),
        EH_TEST(test_parameter_errors),
        EH_TEST(test_categorical_errors),
        EH_TEST(test_out_of_memory),
        EH_TEST(test_scope_releases_random_results),
    };
    return EH_RUN_TESTS(tests);
}
