/* Ops from several threads at once, on the backend of this run
 * (EH_TEST_BACKEND): every case of tests/support/op_cases.h (one per op of
 * ops.def, and the extra paths: blas's pooled reductions and permutation,
 * large blocks, custom ops, views written through, lazy graphs and fused
 * chains) runs on THREADS threads at once, each with its own results and
 * scope, all reading the same inputs.  Each op_result must be bit-equal to the
 * single-threaded run's, no thread may see an error, and each thread's
 * scopes and error record stay its own.
 *
 * Random cases draw from the one process-wide generator, so what they draw
 * depends on the interleaving: they run (for the races) but are not
 * compared.  Most races give right answers most of the time: `make tsan`
 * builds this test with ThreadSanitizer, which makes it the race test
 * (docs/memory.md, "Threads"). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "eh_test.h"
#include "op_cases.h"

#define THREADS 4
#define ROUNDS 3
#define MAX_OUT OP_CASE_MAX_OUT

static const op_case *case_at(int i)
{
    return i < op_case_count ? &op_cases[i] : &op_more_cases[i - op_case_count];
}

static int n_all(void) { return op_case_count + op_more_case_count; }

static int compared(const op_case *c)
{
    return strcmp(c->kind, "RANDOM") != 0 && strcmp(c->name, "seed") != 0;
}

/* The single-threaded results, [case][output]. */
static op_result (*want)[MAX_OUT];

/* One case, its outputs evaluated: EH_OK and out filled, or the error. */
static eh_status run_case(const op_case *c, eh_tensor **out)
{
    for (int k = 0; k < MAX_OUT; k++)
        out[k] = NULL;
    eh_status st = c->run(out);
    for (int k = 0; st == EH_OK && k < MAX_OUT; k++)
        if (out[k])
            st = eh_eval(out[k]);
    return st;
}

typedef struct worker {
    pthread_t thread;
    int id;
    int runs, failures;
    char first[384]; /* the first failure */
} worker;

static void failed(worker *w, const char *fmt, const char *name, const char *why)
{
    if (w->failures++ == 0)
        snprintf(w->first, sizeof w->first, fmt, name, why);
}

/* cmocka's asserts are for the main thread: workers count failures. */
static void *work(void *arg)
{
    worker *w = arg;
    int n = n_all();
    for (int round = 0; round < ROUNDS; round++) {
        if (eh_scope_begin() != EH_OK) {
            failed(w, "%s: %s", "scope_begin", eh_error_message());
            continue;
        }
        for (int j = 0; j < n; j++) {
            /* each thread walks the cases from its own place */
            int i = (j + w->id * (n / THREADS) + round * 7) % n;
            const op_case *c = case_at(i);
            eh_tensor *out[MAX_OUT];
            eh_clear_error();
            eh_status st = run_case(c, out);
            w->runs++;
            if (st != EH_OK) {
                failed(w, "%s: failed: %s", c->name, eh_error_message());
            } else if (compared(c)) {
                for (int k = 0; k < MAX_OUT; k++) {
                    op_result got;
                    if (op_result_take(&got, out[k]) != 0 || !op_result_same(&got, &want[i][k]))
                        failed(w, "%s: output differs from the single-threaded run%s", c->name, "");
                    op_result_drop(&got);
                }
            }
            op_release_outs(out);
        }
        if (eh_scope_end() != EH_OK)
            failed(w, "%s: %s", "scope_end", eh_error_message());
    }
    if (eh_scope_depth() != 0 || eh_last_error() != EH_OK)
        failed(w, "%s: %s", "thread state", "a scope left open or an error recorded");
    return NULL;
}

static void test_ops_from_threads(void **state)
{
    (void)state;
    op_cases_setup();
    int n = n_all();
    want = calloc((size_t)n, sizeof *want);
    assert_non_null(want);
    for (int i = 0; i < n; i++) {
        const op_case *c = case_at(i);
        eh_tensor *out[MAX_OUT];
        eh_status st = run_case(c, out);
        if (st != EH_OK)
            fail_msg("%s: %s", c->name, eh_error_message());
        for (int k = 0; k < MAX_OUT; k++)
            if (op_result_take(&want[i][k], out[k]) != 0)
                fail_msg("%s: reading output %d: %s", c->name, k, eh_error_message());
        op_release_outs(out);
    }
    /* a recorded error on this thread is no other thread's */
    assert_null(eh_sqrt(NULL));
    assert_int_equal(eh_last_error(), EH_ERR_NULL_ARG);

    worker w[THREADS];
    memset(w, 0, sizeof w);
    for (int t = 0; t < THREADS; t++) {
        w[t].id = t;
        assert_int_equal(pthread_create(&w[t].thread, NULL, work, &w[t]), 0);
    }
    int failures = 0;
    for (int t = 0; t < THREADS; t++) {
        assert_int_equal(pthread_join(w[t].thread, NULL), 0);
        if (w[t].failures)
            print_error("thread %d: %d of %d runs failed; first: %s\n", t, w[t].failures, w[t].runs,
                        w[t].first);
        failures += w[t].failures;
        assert_int_equal(w[t].runs, ROUNDS * n);
    }
    assert_int_equal(eh_last_error(), EH_ERR_NULL_ARG);
    eh_clear_error();
    for (int i = 0; i < n; i++)
        for (int k = 0; k < MAX_OUT; k++)
            op_result_drop(&want[i][k]);
    free(want);
    want = NULL;
    op_cases_teardown();
    assert_int_equal(failures, 0);
}

/* Inputs shared while still deferred (lazy), large enough to have storage
 * of their own (SHARED_N f64, far above EH_INLINE_BYTES), so that views of
 * them share it (eh__tensor_can_share and eh__tensor_share in the
 * frontend, eh_tensor_share_data in lazy's view nodes).  Every thread
 * observes every tensor four ways -- views (a view of a view among them),
 * its elements, an op on it, writing through its own view (copy on write)
 * -- each thread reaching each tensor first by a different way, so that
 * one thread's evaluation races another's view, read or op.  The shared
 * tensors are made by a fused chain, a single node, and a view node of a
 * deferred input (lazy's three ways of evaluating).  On eager backends
 * they are materialized: views of them from several threads at once.
 * Run under TSan (make tsan), which reports any read the evaluator's
 * release store does not order. */
#define SHARED_K 8
#define SHARED_N 300 /* 2400 bytes: not inline (EH_INLINE_BYTES) */
#define SHARED_ROWS 20
#define SHARED_COLS 15

typedef struct shared_job {
    int id;
    const eh_tensor *s[SHARED_K];
    const eh_tensor *base;
    const op_result *want;     /* s[k]'s elements, single-threaded */
    const op_result *want_add; /* s[k] + base */
    pthread_barrier_t *start;
    int bad;
} shared_job;

static int same_bytes(const void *got, const op_result *expect, size_t offset, size_t n)
{
    return got && offset + n <= expect->nbytes && memcmp(got, expect->bytes + offset, n) == 0;
}

/* One observation of s[k]: 1 when it saw the right thing. */
static int observe(const shared_job *j, int k, int how)
{
    const eh_tensor *x = j->s[k];
    const op_result *w = &j->want[k];
    int ok = 1;
    switch (how) {
    case 0: { /* views: reshape, a row range of that, expand_dims */
        eh_tensor *v = eh_reshape(x, 2, SHAPE(SHARED_ROWS, SHARED_COLS));
        eh_tensor *rows = eh_slice(v, SHAPE(5), SHAPE(15), NULL, 1);
        eh_tensor *e = eh_expand_dims(x, 0);
        size_t row = SHARED_COLS * sizeof(double);
        ok = same_bytes(eh_data_const_f64(v), w, 0, w->nbytes) &&
             same_bytes(eh_data_const_f64(rows), w, 5 * row, 10 * row) &&
             same_bytes(eh_data_const_f64(e), w, 0, w->nbytes);
        eh_release(e);
        eh_release(rows);
        eh_release(v);
        break;
    }
    case 1: /* its elements */
        ok = same_bytes(eh_data_const_f64(x), w, 0, w->nbytes);
        break;
    case 2: { /* an op on it */
        op_result got = {0};
        eh_tensor *r = eh_add(x, j->base);
        ok = r && eh_eval(r) == EH_OK && op_result_take(&got, r) == 0 && op_result_same(&got, &j->want_add[k]);
        op_result_drop(&got);
        eh_release(r);
        break;
    }
    case 3: { /* writing through this thread's own view: a private copy */
        eh_tensor *v = eh_reshape(x, 1, SHAPE(SHARED_N));
        double *d = eh_data_f64(v);
        ok = same_bytes(d, w, 0, w->nbytes);
        if (d)
            for (int i = 0; i < SHARED_N; i++)
                d[i] = -d[i] - (double)j->id;
        ok = ok && same_bytes(eh_data_const_f64(x), w, 0, w->nbytes);
        eh_release(v);
        break;
    }
    }
    return ok;
}

static void *use_shared(void *arg)
{
    shared_job *j = arg;
    pthread_barrier_wait(j->start);
    for (int k = 0; k < SHARED_K; k++)
        for (int o = 0; o < 4; o++)
            if (!observe(j, k, (o + j->id + k) % 4))
                j->bad++;
    return NULL;
}

/* s (and what it needs released, in *tmp): recorded, not evaluated, on
 * lazy.  k % 4: 0, 1 a fused chain; 2 a single node (cumsum); 3 a view
 * node of a deferred chain. */
static eh_tensor *make_shared(int k, const eh_tensor *base, const eh_tensor *base2d, eh_tensor *tmp[2])
{
    tmp[0] = tmp[1] = NULL;
    switch (k % 4) {
    case 2:
        tmp[0] = eh_multiply_scalar(base, (double)k);
        return eh_cumsum(tmp[0], 0);
    case 3:
        tmp[0] = eh_tanh(base2d);
        tmp[1] = eh_multiply_scalar(tmp[0], (double)k);
        return eh_reshape(tmp[1], 1, SHAPE(SHARED_N));
    default:
        tmp[0] = eh_tanh(base);
        return eh_multiply_scalar(tmp[0], (double)k);
    }
}

static void release_shared(eh_tensor *s, eh_tensor *tmp[2])
{
    eh_release(s);
    eh_release(tmp[1]);
    eh_release(tmp[0]);
}

static void test_shared_deferred_inputs(void **state)
{
    (void)state;
    double v[SHARED_N];
    for (int i = 0; i < SHARED_N; i++)
        v[i] = -2.0 + 0.0133 * i;
    eh_tensor *base = t_from(EH_F64, 1, SHAPE(SHARED_N), v);
    eh_tensor *base2d = eh_reshape(base, 2, SHAPE(SHARED_ROWS, SHARED_COLS));
    assert_non_null(base2d);
    assert_int_equal(eh_eval(base), EH_OK);
    assert_int_equal(eh_eval(base2d), EH_OK);
    op_result answers[SHARED_K], added[SHARED_K];
    for (int k = 0; k < SHARED_K; k++) { /* the single-threaded answers */
        eh_tensor *tmp[2];
        eh_tensor *s = make_shared(k, base, base2d, tmp);
        assert_non_null(s);
        eh_tensor *r = eh_add(s, base);
        assert_int_equal(op_result_take(&answers[k], s), 0);
        assert_int_equal(op_result_take(&added[k], r), 0);
        assert_true(answers[k].nbytes == SHARED_N * sizeof(double));
        eh_release(r);
        release_shared(s, tmp);
    }
    for (int round = 0; round < 20; round++) {
        eh_tensor *s[SHARED_K], *tmp[SHARED_K][2];
        for (int k = 0; k < SHARED_K; k++) {
            s[k] = make_shared(k, base, base2d, tmp[k]);
            assert_non_null(s[k]);
        }
        pthread_barrier_t start;
        pthread_barrier_init(&start, NULL, THREADS);
        shared_job jobs[THREADS];
        pthread_t th[THREADS];
        for (int t = 0; t < THREADS; t++) {
            jobs[t] = (shared_job){.id = t, .base = base, .want = answers, .want_add = added,
                                   .start = &start};
            for (int k = 0; k < SHARED_K; k++)
                jobs[t].s[k] = s[k]; /* the same tensors on every thread */
            assert_int_equal(pthread_create(&th[t], NULL, use_shared, &jobs[t]), 0);
        }
        for (int t = 0; t < THREADS; t++) {
            assert_int_equal(pthread_join(th[t], NULL), 0);
            assert_int_equal(jobs[t].bad, 0);
        }
        pthread_barrier_destroy(&start);
        for (int k = 0; k < SHARED_K; k++) { /* no thread's writes reached them */
            op_result got = {0};
            assert_int_equal(op_result_take(&got, s[k]), 0);
            assert_true(op_result_same(&got, &answers[k]));
            op_result_drop(&got);
            release_shared(s[k], tmp[k]);
        }
    }
    for (int k = 0; k < SHARED_K; k++) {
        op_result_drop(&answers[k]);
        op_result_drop(&added[k]);
    }
    eh_release(base2d);
    eh_release(base);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        EH_TEST(test_ops_from_threads),
        EH_TEST(test_shared_deferred_inputs),
    };
    return EH_RUN_TESTS(tests);
}
