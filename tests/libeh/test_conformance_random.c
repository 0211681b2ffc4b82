/* Cross-backend conformance of the random ops (docs/conformance.md,
 * docs/random.md).
 *
 *  - Bit-identical results on every backend for the same seed, for a
 *    sequence of calls evaluated in any order (a deferring backend takes
 *    the call number when the op is called, not when it runs).
 *  - The same bits for any number of threads: EH_NUM_THREADS is read once
 *    per process, so this binary re-runs itself (/proc/self/exe
 *    --cf-digest) with EH_NUM_THREADS = 1 and 3, and each child prints a
 *    digest (FNV-1a of the raw bytes) of every case on every backend; the
 *    digests must equal this process's.
 *  - Statistics on every backend: sample mean and variance within 6
 *    standard errors of the distribution's (closed-form moments), and a
 *    Kolmogorov-Smirnov test (alpha = 1e-6) for uniform and normal.  Seeds
 *    are fixed, so the checks are deterministic; the bounds are what a
 *    correct sampler passes with overwhelming probability for any seed.
 *    (tests/libeh/test_random.c checks every distribution in depth on the
 *    backend under test; this file checks that each backend's samples,
 *    drawn through that backend's kernels, pass the same kind of test.)
 *
 * This binary iterates the backends itself and ignores EH_TEST_BACKEND. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "conformance.h"

/* ---- the cases: one call each after eh_seed(seed) ---- */

typedef struct rcase {
    const char *name;
    eh_tensor *(*make)(const struct rcase *r);
    int64_t n;
    double a, b;
    eh_dtype dtype;
} rcase;

static eh_tensor *mk_uniform(const rcase *r)
{
    return eh_random_uniform(1, &r->n, r->a, r->b, r->dtype);
}
static eh_tensor *mk_normal(const rcase *r)
{
    return eh_random_normal(1, &r->n, r->a, r->b, r->dtype);
}
static eh_tensor *mk_bernoulli(const rcase *r)
{
    return eh_random_bernoulli(1, &r->n, r->a);
}
static eh_tensor *mk_poisson(const rcase *r)
{
    return eh_random_poisson(1, &r->n, r->a);
}
static eh_tensor *mk_exponential(const rcase *r)
{
    return eh_random_exponential(1, &r->n, r->a, r->dtype);
}
static eh_tensor *mk_gamma(const rcase *r)
{
    return eh_random_gamma(1, &r->n, r->a, r->b, r->dtype);
}
static eh_tensor *mk_binomial(const rcase *r)
{
    return eh_random_binomial(1, &r->n, (int64_t)r->b, r->a);
}
static eh_tensor *mk_randint(const rcase *r)
{
    return eh_random_randint(1, &r->n, (int64_t)r->a, (int64_t)r->b, r->dtype);
}
static eh_tensor *mk_permutation(const rcase *r)
{
    return eh_random_permutation(r->n);
}
static eh_tensor *mk_categorical(const rcase *r)
{
    /* logits: row i, column j = sin(i + j) * a (host-made) */
    int64_t rows = r->n / 64, k = 40;
    double *v = malloc((size_t)(rows * k) * sizeof *v);
    assert_non_null(v);
    for (int64_t i = 0; i < rows; i++)
        for (int64_t j = 0; j < k; j++)
            v[i * k + j] = sin((double)(i + j)) * r->a;
    eh_tensor *logits = cf_tensor(EH_F64, 2, (int64_t[]){rows, k}, v);
    free(v);
    eh_tensor *t = eh_random_categorical(logits, 64);
    eh_release(logits);
    return t;
}

#define NBIG 65536
static const rcase cases[] = {
    {"uniform f64", mk_uniform, NBIG, -1.0, 3.0, EH_F64},
    {"uniform f32", mk_uniform, NBIG, 0.0, 1.0, EH_F32},
    {"uniform f16", mk_uniform, 4096, -2.0, 2.0, EH_F16},
    {"normal f64", mk_normal, NBIG, 1.0, 2.0, EH_F64},
    {"normal f32", mk_normal, NBIG, 0.0, 1.0, EH_F32},
    {"bernoulli", mk_bernoulli, NBIG, 0.3, 0, EH_BOOL},
    {"poisson 3.5", mk_poisson, NBIG, 3.5, 0, EH_I64},
    {"poisson 50", mk_poisson, 16384, 50.0, 0, EH_I64},
    {"poisson 1e7", mk_poisson, 4096, 1e7, 0, EH_I64},
    {"exponential f64", mk_exponential, NBIG, 2.0, 0, EH_F64},
    {"gamma 0.5", mk_gamma, 16384, 0.5, 2.0, EH_F64},
    {"gamma 4 f32", mk_gamma, 16384, 4.0, 1.0, EH_F32},
    {"binomial 20 0.3", mk_binomial, NBIG, 0.3, 20, EH_I64},
    {"binomial 1e6 0.5", mk_binomial, 16384, 0.5, 1e6, EH_I64},
    {"randint i64", mk_randint, NBIG, -1e12, 1e12, EH_I64},
    {"randint i32", mk_randint, 16384, -2147483648.0, 2147483648.0, EH_I32},
    {"permutation", mk_permutation, NBIG, 0, 0, EH_I64},
    {"categorical", mk_categorical, 300 * 64, 3.0, 0, EH_I64},
};
#define N_CASES ((int)(sizeof cases / sizeof cases[0]))

static uint64_t fnv1a(const void *p, size_t n, uint64_t h)
{
    const unsigned char *b = p;
    for (size_t k = 0; k < n; k++) {
        h ^= b[k];
        h *= 0x100000001b3u;
    }
    return h;
}

/* "backend case digest" lines for every backend and case. */
static void digests(char *out, size_t cap)
{
    const char *names[CF_MAX_BACKENDS];
    int nb = cf_backends(names);
    size_t len = 0;
    out[0] = '\0';
    for (int b = 0; b < nb; b++) {
        eh_set_backend(names[b]);
        for (int k = 0; k < N_CASES; k++) {
            eh_seed(1000 + (uint64_t)k);
            eh_tensor *t = cases[k].make(&cases[k]);
            uint64_t h = 0xcbf29ce484222325u;
            if (t && eh_eval(t) == EH_OK)
                h = fnv1a(eh_data(t), eh_nbytes(t), h);
            else
                h = (uint64_t)eh_last_error();
            eh_clear_error();
            eh_release(t);
            len += (size_t)snprintf(out + len, cap - len, "%s %s %016llx\n", names[b],
                                    cases[k].name, (unsigned long long)h);
            if (len >= cap)
                return;
        }
    }
    eh_set_backend("ref");
}

static int child_main(void)
{
    static char buf[16384];
    digests(buf, sizeof buf);
    fputs(buf, stdout);
    return 0;
}

/* ---- bit-identical across backends ---- */

static void test_same_bytes_on_every_backend(void **state)
{
    (void)state;
    cf_begin_test();
    static char buf[16384];
    digests(buf, sizeof buf);
    /* every backend's lines must equal ref's (the lines differ only in the
     * backend name) */
    const char *names[CF_MAX_BACKENDS];
    int nb = cf_backends(names);
    char *line = buf, *ref_lines[CF_MAX_BACKENDS * N_CASES];
    int nl = 0;
    while (*line && nl < CF_MAX_BACKENDS * N_CASES) {
        ref_lines[nl++] = line;
        char *nlp = strchr(line, '\n');
        if (!nlp)
            break;
        *nlp = '\0';
        line = nlp + 1;
    }
    assert_int_equal(nl, nb * N_CASES);
    for (int b = 1; b < nb; b++)
        for (int k = 0; k < N_CASES; k++) {
            const char *r = strchr(ref_lines[k], ' '), *g = strchr(ref_lines[b * N_CASES + k], ' ');
            if (strcmp(r, g) != 0) {
                cf_case c;
                cf_case_init(&c, "random", "%s, seed %d", cases[k].name, 1000 + k);
                cf_finding(&c, names[b], "digest%s, ref's%s", g, r);
            }
        }
    cf_end_test();
}

/* A sequence of different random calls, evaluated in reverse order: the
 * results depend on the call order only. */
static void test_sequence_evaluated_in_any_order(void **state)
{
    (void)state;
    const char *names[CF_MAX_BACKENDS];
    int nb = cf_backends(names);
    cf_begin_test();
    enum { N = 8 };
    eh_tensor *ref[N] = {NULL};
    for (int b = 0; b < nb; b++) {
        assert_int_equal(eh_set_backend(names[b]), EH_OK);
        eh_seed(4242);
        eh_tensor *t[N];
        t[0] = eh_random_normal(1, SHAPE(100), 0, 1, EH_F32);
        t[1] = eh_random_permutation(37);
        t[2] = eh_random_uniform(2, SHAPE(3, 5), -1, 1, EH_F64);
        t[3] = eh_random_poisson(1, SHAPE(50), 20.0);
        t[4] = eh_random_gamma(0, NULL, 2.5, 1.0, EH_F16);
        t[5] = eh_random_randint(1, SHAPE(64), -5, 5, EH_I32);
        t[6] = eh_random_bernoulli(1, SHAPE(0), 0.5); /* empty: still takes a number */
        t[7] = eh_random_binomial(1, SHAPE(40), 100, 0.25);
        for (int k = N - 1; k >= 0; k--)
            assert_int_equal(eh_eval(t[k]), EH_OK);
        for (int k = 0; k < N; k++) {
            if (b == 0) {
                ref[k] = t[k];
                continue;
            }
            size_t n = eh_nbytes(t[k]);
            if (n != eh_nbytes(ref[k]) || (n && memcmp(eh_data(t[k]), eh_data(ref[k]), n))) {
                cf_case c;
                cf_case_init(&c, "random", "call %d of a sequence after seed 4242", k);
                cf_finding(&c, names[b], "bytes differ from ref's");
            }
            eh_release(t[k]);
        }
    }
    for (int k = 0; k < N; k++)
        eh_release(ref[k]);
    cf_end_test();
}

/* ---- thread counts ---- */

static void test_same_bytes_for_any_thread_count(void **state)
{
    (void)state;
    cf_begin_test();
    static char here[16384], child[16384];
    digests(here, sizeof here);
    const char *counts[] = {"1", "3"};
    for (size_t k = 0; k < sizeof counts / sizeof counts[0]; k++) {
        int rc = cf_run_self("--cf-digest", "EH_NUM_THREADS", counts[k], child, sizeof child);
        if (rc != 0)
            fail_msg("child with EH_NUM_THREADS=%s exited with %d: %s", counts[k], rc, child);
        if (strcmp(here, child) != 0) {
            /* report the differing lines */
            char *a = here, *b = child;
            while (*a && *b) {
                size_t la = strcspn(a, "\n"), lb = strcspn(b, "\n");
                if (la != lb || strncmp(a, b, la) != 0) {
                    cf_case c;
                    cf_case_init(&c, "random", "EH_NUM_THREADS=%s", counts[k]);
                    cf_finding(&c, "(child)", "'%.*s', this process '%.*s'", (int)lb, b, (int)la,
                               a);
                }
                a += la + (a[la] == '\n');
                b += lb + (b[lb] == '\n');
            }
            if (*a || *b) {
                cf_case c;
                cf_case_init(&c, "random", "EH_NUM_THREADS=%s", counts[k]);
                cf_finding(&c, "(child)", "a different number of lines");
            }
        }
    }
    cf_end_test();
}

/* ---- statistics ---- */

#define N_STAT 50000

static double cdf_uniform01(double x, double unused)
{
    (void)unused;
    return x <= 0 ? 0 : x >= 1 ? 1 : x;
}
static double cdf_std_normal(double x, double unused)
{
    (void)unused;
    return 0.5 * erfc(-x / sqrt(2.0));
}

static double *doubles(const eh_tensor *t, int64_t n)
{
    double *x = malloc((size_t)n * sizeof *x);
    assert_non_null(x);
    for (int64_t k = 0; k < n; k++)
        x[k] = t_at(t, k);
    return x;
}

/* One distribution on one backend: moments, and KS on (x - shift) / scale
 * against `cdf` when given. */
static void stat_case(const char *backend, const char *what, eh_tensor *t, double mean, double var,
                      double mu4, double (*cdf)(double, double), double shift, double scale)
{
    cf_case c;
    cf_case_init(&c, "random", "%s statistics", what);
    if (!t) {
        cf_finding(&c, backend, "failed: %s", eh_error_message());
        eh_clear_error();
        return;
    }
    double *x = doubles(t, N_STAT);
    char msg[256];
    if (!cf_check_moments(x, N_STAT, mean, var, mu4, msg, sizeof msg))
        cf_finding(&c, backend, "%s", msg);
    if (cdf) {
        for (int64_t k = 0; k < N_STAT; k++)
            x[k] = (x[k] - shift) / scale;
        if (!cf_check_ks(x, N_STAT, cdf, 0.0, msg, sizeof msg))
            cf_finding(&c, backend, "%s", msg);
    }
    free(x);
    eh_release(t);
}

static void test_statistics_on_every_backend(void **state)
{
    (void)state;
    const char *names[CF_MAX_BACKENDS];
    int nb = cf_backends(names);
    cf_begin_test();
    const int64_t n[1] = {N_STAT};
    for (int b = 0; b < nb; b++) {
        const char *be = names[b];
        assert_int_equal(eh_set_backend(be), EH_OK);
        eh_seed(31 + (uint64_t)b); /* a different stream per backend */
        /* uniform(a, b): mean (a+b)/2, var w^2/12, mu4 w^4/80 */
        stat_case(be, "uniform f64 [-1, 3)", eh_random_uniform(1, n, -1, 3, EH_F64), 1.0,
                  16.0 / 12.0, 256.0 / 80.0, cdf_uniform01, -1.0, 4.0);
        stat_case(be, "uniform f32 [0, 1)", eh_random_uniform(1, n, 0, 1, EH_F32), 0.5, 1.0 / 12.0,
                  1.0 / 80.0, cdf_uniform01, 0.0, 1.0);
        /* normal: mu4 = 3 sigma^4 */
        stat_case(be, "normal f64 (1, 2)", eh_random_normal(1, n, 1, 2, EH_F64), 1.0, 4.0, 48.0,
                  cdf_std_normal, 1.0, 2.0);
        stat_case(be, "normal f32 (0, 1)", eh_random_normal(1, n, 0, 1, EH_F32), 0.0, 1.0, 3.0,
                  cdf_std_normal, 0.0, 1.0);
        /* exponential(s): var s^2, mu4 9 s^4 */
        stat_case(be, "exponential 2", eh_random_exponential(1, n, 2, EH_F64), 2.0, 4.0, 144.0,
                  NULL, 0, 1);
        /* gamma(k, s): mean k s, var k s^2, mu4 3 k (k + 2) s^4 */
        stat_case(be, "gamma 2.5", eh_random_gamma(1, n, 2.5, 1, EH_F64), 2.5, 2.5, 3.0 * 2.5 * 4.5,
                  NULL, 0, 1);
        /* bernoulli(p): var pq, mu4 pq(1 - 3pq) */
        stat_case(be, "bernoulli 0.3", eh_random_bernoulli(1, n, 0.3), 0.3, 0.21,
                  0.21 * (1 - 3 * 0.21), NULL, 0, 1);
        /* poisson(l): var l, mu4 l (1 + 3 l) */
        stat_case(be, "poisson 7", eh_random_poisson(1, n, 7), 7.0, 7.0, 7.0 * 22.0, NULL, 0, 1);
        stat_case(be, "poisson 400", eh_random_poisson(1, n, 400), 400.0, 400.0, 400.0 * 1201.0,
                  NULL, 0, 1);
        /* binomial(m, p): var mpq, mu4 mpq (1 + 3 (m - 2) pq) */
        stat_case(be, "binomial 50 0.4", eh_random_binomial(1, n, 50, 0.4), 20.0, 12.0,
                  12.0 * (1 + 3 * 48 * 0.24), NULL, 0, 1);
        /* randint [0, 10): discrete uniform, var (m^2-1)/12, mu4 (m^2-1)(3m^2-7)/240 */
        stat_case(be, "randint [0, 10)", eh_random_randint(1, n, 0, 10, EH_I64), 4.5, 99.0 / 12.0,
                  99.0 * 293.0 / 240.0, NULL, 0, 1);
    }
    cf_end_test();
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--cf-digest") == 0)
        return child_main();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_bytes_on_every_backend),
        cmocka_unit_test(test_sequence_evaluated_in_any_order),
        cmocka_unit_test(test_same_bytes_for_any_thread_count),
        cmocka_unit_test(test_statistics_on_every_backend),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
