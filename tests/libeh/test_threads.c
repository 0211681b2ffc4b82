/* Ops from several threads at once, on the backend of this run
 * (EH_TEST_BACKEND): every case of tests/support/op_cases.h (one per op of
 * ops.def, and the extra paths: blas's pooled reductions and permutation,
 * large blocks, custom ops, views written through, lazy graphs and fused
 * chains) runs on THREADS threads at once, each with its own results and
 * scope, all reading the same inputs.  Each result must be bit-equal to the
 * single-threaded run's, no thread may see an error, and each thread's
 * scopes and error record stay its own.
 *
 * Random cases draw from the one process-wide generator, so what they draw
 * depends on the interleaving: they run (for the races) but are not
 * compared.  Built with -fsanitize=thread this is the race test (see
 * docs/memory.md). */
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

/* A result's dtype, shape and bytes. */
typedef struct result {
    int present;
    eh_dtype dtype;
    int ndim;
    int64_t shape[8];
    size_t nbytes;
    unsigned char *bytes;
} result;

/* 0, or -1 when t cannot be read. */
static int capture(result *r, const eh_tensor *t)
{
    memset(r, 0, sizeof *r);
    if (!t)
        return 0;
    r->present = 1;
    r->dtype = eh_get_dtype(t);
    r->ndim = eh_ndim(t);
    memcpy(r->shape, eh_shape(t), (size_t)r->ndim * sizeof(int64_t));
    r->nbytes = eh_nbytes(t);
    r->bytes = malloc(r->nbytes ? r->nbytes : 1);
    if (!r->bytes || eh_to_buffer(t, r->bytes, r->nbytes) != EH_OK)
        return -1;
    return 0;
}

static void drop(result *r)
{
    free(r->bytes);
    memset(r, 0, sizeof *r);
}

static int same(const result *a, const result *b)
{
    return a->present == b->present &&
           (!a->present ||
            (a->dtype == b->dtype && a->ndim == b->ndim &&
             memcmp(a->shape, b->shape, (size_t)a->ndim * sizeof(int64_t)) == 0 &&
             a->nbytes == b->nbytes && memcmp(a->bytes, b->bytes, a->nbytes) == 0));
}

/* The single-threaded results, [case][output]. */
static result (*want)[MAX_OUT];

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

static void release_outs(eh_tensor **out)
{
    for (int k = 0; k < MAX_OUT; k++) {
        eh_release(out[k]);
        out[k] = NULL;
    }
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
                    result got;
                    if (capture(&got, out[k]) != 0 || !same(&got, &want[i][k]))
                        failed(w, "%s: output differs from the single-threaded run%s", c->name, "");
                    drop(&got);
                }
            }
            release_outs(out);
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
            if (capture(&want[i][k], out[k]) != 0)
                fail_msg("%s: reading output %d: %s", c->name, k, eh_error_message());
        release_outs(out);
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
            drop(&want[i][k]);
    free(want);
    want = NULL;
    op_cases_teardown();
    assert_int_equal(failures, 0);
}

/* Inputs shared while still deferred (lazy): every thread's first use
 * evaluates them, one thread computes, the others must then see the
 * result. */
typedef struct shared_job {
    const eh_tensor *s[8];
    const result *want;
    pthread_barrier_t *start;
    int bad;
} shared_job;

static void *use_shared(void *arg)
{
    shared_job *j = arg;
    pthread_barrier_wait(j->start);
    for (int k = 0; k < 8; k++) {
        /* observed three ways: its elements, a view of it, an op on it */
        const double *d = eh_data_const_f64(j->s[k]);
        eh_tensor *v = eh_reshape(j->s[k], 1, SHAPE(6));
        eh_tensor *r = eh_add(j->s[k], op_fx.a);
        result got;
        if (!r || eh_eval(r) != EH_OK || capture(&got, r) != 0 || !same(&got, &j->want[k]))
            j->bad++;
        drop(&got);
        const double *dv = eh_data_const_f64(v);
        if (!d || !dv || memcmp(d, dv, 6 * sizeof *d) != 0)
            j->bad++;
        eh_release(v);
        eh_release(r);
    }
    return NULL;
}

static void test_shared_deferred_inputs(void **state)
{
    (void)state;
    op_cases_setup();
    result answers[8];
    for (int k = 0; k < 8; k++) { /* the single-threaded answers */
        eh_tensor *t = eh_tanh(op_fx.a);
        eh_tensor *s = eh_multiply_scalar(t, (double)k);
        eh_tensor *r = eh_add(s, op_fx.a);
        assert_int_equal(capture(&answers[k], r), 0);
        eh_release(r);
        eh_release(s);
        eh_release(t);
    }
    for (int round = 0; round < 20; round++) {
        eh_tensor *s[8], *tmp[8];
        for (int k = 0; k < 8; k++) { /* recorded, not evaluated, on lazy */
            tmp[k] = eh_tanh(op_fx.a);
            s[k] = eh_multiply_scalar(tmp[k], (double)k);
            assert_non_null(s[k]);
        }
        pthread_barrier_t start;
        pthread_barrier_init(&start, NULL, THREADS);
        shared_job jobs[THREADS];
        pthread_t th[THREADS];
        for (int t = 0; t < THREADS; t++) {
            jobs[t] = (shared_job){.want = answers, .start = &start};
            for (int k = 0; k < 8; k++)
                jobs[t].s[k] = s[k]; /* the same tensors on every thread */
            assert_int_equal(pthread_create(&th[t], NULL, use_shared, &jobs[t]), 0);
        }
        for (int t = 0; t < THREADS; t++) {
            assert_int_equal(pthread_join(th[t], NULL), 0);
            assert_int_equal(jobs[t].bad, 0);
        }
        pthread_barrier_destroy(&start);
        for (int k = 0; k < 8; k++) {
            eh_release(s[k]);
            eh_release(tmp[k]);
        }
    }
    for (int k = 0; k < 8; k++)
        drop(&answers[k]);
    op_cases_teardown();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        EH_TEST(test_ops_from_threads),
        EH_TEST(test_shared_deferred_inputs),
    };
    return EH_RUN_TESTS(tests);
}
