/* Tensors cross backends (docs/conformance.md, docs/architecture.md
 * "Tensors"): for every ordered pair (A, B) of distinct backends built into
 * libeh, tensors made under A -- materialized ones, unevaluated results of
 * a deferring backend (a fused elementwise chain, a reduction of it, a
 * random op, the outputs of a multi-output op, a result whose evaluation
 * fails) -- are used after eh_set_backend(B), and B's results are used
 * after switching back to A.  Everything must equal the same computation
 * done on ref alone (within the tolerance of the ops involved), errors
 * included; nothing may leak (LeakSanitizer), including tensors released
 * without ever being evaluated.
 *
 * This binary iterates the backends itself and ignores EH_TEST_BACKEND. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <eh/backend_api.h> /* only to see whether a tensor is still deferred */
#include "conformance.h"

enum { R_CHAIN, R_MATMUL, R_SUM, R_SPLIT, R_RANDOM, R_BUFFER, R_BACK, R_SCATTER, R_COUNT };
/* The op whose tolerance row compares each result. */
/* The row each result is compared with.  R_CHAIN is exp(...) * m: exp
 * may be vectorized (its CF_ULP row), and the product adds one rounding,
 * so it gets exp's bound plus one ulp (chain_tolerance). */
static const char *const result_op[R_COUNT] = {
    [R_CHAIN] = "exp",    [R_MATMUL] = "matmul",        [R_SUM] = "sum",
    [R_SPLIT] = "concatenate", [R_RANDOM] = "random_normal", [R_BUFFER] = "add",
    [R_BACK] = "sum",          [R_SCATTER] = "scatter",
};

typedef struct run {
    eh_tensor *r[R_COUNT];
    eh_status bad_status; /* first error of the failing chain */
    char bad_op[64];
    int deferred_seen; /* A's results were still unevaluated at the switch */
} run;

static int is_deferred(const eh_tensor *t)
{
    return t && t->deferred_ops != NULL;
}

static void note_error(run *out, eh_status st)
{
    if (out->bad_status != EH_OK || st == EH_OK)
        return;
    out->bad_status = st;
    const char *m = eh_error_message();
    size_t len = strcspn(m, ":");
    snprintf(out->bad_op, sizeof out->bad_op, "%.*s", (int)(len < 63 ? len : 63), m);
}

/* Make under a, use under b, and back under a. */
static void compute(const char *a, const char *b, run *out)
{
    memset(out, 0, sizeof *out);
    cf_rng rng;
    cf_rng_seed(&rng, 2024);
    eh_tensor *x = cf_random(&rng, EH_F64, 2, SHAPE(4, 6), CF_V_DEFAULT);
    eh_tensor *y = cf_random(&rng, EH_F64, 2, SHAPE(4, 6), CF_V_DEFAULT);
    eh_tensor *m = cf_random(&rng, EH_F64, 1, SHAPE(6), CF_V_DEFAULT);
    eh_tensor *idx = cf_tensor(EH_I64, 1, SHAPE(2), (const double[]){1, 9});

    /* ---- under a ---- */
    assert_int_equal(eh_set_backend(a), EH_OK);
    eh_clear_error();
    eh_tensor *e = eh_add(x, y);
    assert_int_equal(eh_scope_begin(), EH_OK); /* frees the intermediates */
    eh_tensor *ch = eh_keep(eh_exp(eh_multiply_scalar(eh_subtract(x, y), 0.25)));
    eh_tensor *parts[2] = {NULL, NULL};
    assert_int_equal(eh_split(eh_multiply(x, m), 2, 0, parts), EH_OK);
    eh_keep(parts[0]);
    eh_keep(parts[1]);
    assert_int_equal(eh_scope_end(), EH_OK);
    eh_tensor *red = eh_sum(e, (const int[]){0}, 1, 0);
    eh_seed(77);
    eh_tensor *rnd = eh_random_normal(2, SHAPE(3, 5), 0.0, 1.0, EH_F32);
    eh_tensor *drop = eh_tanh(e);                 /* released under b, never evaluated */
    eh_tensor *bad = eh_gather(x, idx, 0);        /* index 9 of 4 */
    eh_tensor *targets = eh_add_scalar(idx, 1.0); /* i64 {2, 10}: deferred under lazy */
    note_error(out, bad ? EH_OK : eh_last_error());
    eh_clear_error();
    assert_non_null(e);
    assert_non_null(ch);
    assert_non_null(red);
    assert_non_null(rnd);
    out->deferred_seen = is_deferred(e) && is_deferred(ch) && is_deferred(red) &&
                         is_deferred(rnd) && is_deferred(parts[0]) && is_deferred(bad);

    /* ---- under b ---- */
    assert_int_equal(eh_set_backend(b), EH_OK);
    eh_release(drop);
    out->r[R_CHAIN] = eh_multiply(ch, m);
    eh_tensor *et = eh_transpose(e, NULL, 0);
    out->r[R_MATMUL] = eh_matmul(e, et);
    out->r[R_SUM] = eh_add_scalar(red, 1.0);
    out->r[R_SPLIT] = eh_concatenate((const eh_tensor *const[]){parts[1], parts[0]}, 2, 0);
    out->r[R_RANDOM] = eh_copy(rnd);
    /* scatter with an automatic size reads a's (possibly deferred) indices */
    eh_tensor *rows = eh_concatenate((const eh_tensor *const[]){targets, targets}, 2, 0);
    out->r[R_SCATTER] = eh_scatter(x, rows, EH_SCATTER_AUTO, EH_SCATTER_ADD);
    eh_release(rows);
    double buf[24];
    assert_int_equal(eh_to_buffer(e, buf, sizeof buf), EH_OK);
    out->r[R_BUFFER] = cf_tensor(EH_F64, 2, SHAPE(4, 6), buf);
    assert_int_equal(eh_scope_begin(), EH_OK);
    eh_tensor *b_made = eh_keep(eh_sqrt(eh_abs(eh_subtract(ch, red)))); /* b's, from a's */
    assert_int_equal(eh_scope_end(), EH_OK);
    if (bad) {
        eh_tensor *use = eh_exp(bad);
        note_error(out, use ? eh_eval(use) : eh_last_error());
        eh_release(use);
        eh_clear_error();
    }

    /* ---- back under a: b's (possibly deferred) tensor ---- */
    assert_int_equal(eh_set_backend(a), EH_OK);
    out->r[R_BACK] = eh_sum(b_made, NULL, 0, 1);
    for (int k = 0; k < R_COUNT; k++) {
        assert_non_null(out->r[k]);
        assert_int_equal(eh_eval(out->r[k]), EH_OK);
    }
    eh_release(b_made);
    eh_release(et);
    eh_release(bad);
    eh_release(targets);
    eh_release(parts[0]);
    eh_release(parts[1]);
    eh_release(rnd);
    eh_release(red);
    eh_release(ch);
    eh_release(e);
    eh_release(x);
    eh_release(y);
    eh_release(m);
    eh_release(idx);
    eh_set_backend("ref");
    eh_clear_error();
}

static void release_run(run *r)
{
    for (int k = 0; k < R_COUNT; k++)
        eh_release(r->r[k]);
}

static void test_tensors_cross_every_pair_of_backends(void **state)
{
    (void)state;
    const char *names[CF_MAX_BACKENDS];
    int nb = cf_backends(names);
    cf_begin_test();
    run want;
    compute("ref", "ref", &want);
    assert_int_equal(want.bad_status, EH_ERR_INDEX);
    int pairs = 0, deferring = 0;
    for (int i = 0; i < nb; i++) {
        int defers = eh_find_backend(names[i])->defer != NULL;
        deferring += defers;
        for (int j = 0; j < nb; j++) {
            if (i == j)
                continue;
            pairs++;
            run got;
            compute(names[i], names[j], &got);
            char label[96];
            snprintf(label, sizeof label, "made under %s, used under %s", names[i], names[j]);
            cf_case c;
            cf_case_init(&c, "set_backend", "%s", label);
            if (defers && !got.deferred_seen)
                cf_finding(&c, names[i],
                           "its results were already evaluated at the switch: "
                           "the unevaluated case is not exercised");
            for (int k = 0; k < R_COUNT; k++) {
                char msg[512];
                double scale = k == R_MATMUL ? 6 * 16.0 * 4 : k == R_SUM ? 4 * 8.0 : 24 * 8.0;
                assert_non_null(result_op[k]);
                cf_tol tol = *cf_tolerance(result_op[k]);
                if (k == R_CHAIN && tol.by_ulp)
                    for (int d = 0; d < 3; d++)
                        tol.ulps[d]++;
                if (!cf_compare(want.r[k], got.r[k], &tol, scale, msg, sizeof msg))
                    cf_finding(&c, names[j], "result %d (%s): %s", k, result_op[k], msg);
            }
            if (got.bad_status != want.bad_status || strcmp(got.bad_op, want.bad_op) != 0)
                cf_finding(&c, names[j],
                           "a failing gather made under %s gives %s naming '%s', "
                           "ref alone %s naming '%s'",
                           names[i], eh_status_name(got.bad_status), got.bad_op,
                           eh_status_name(want.bad_status), want.bad_op);
            release_run(&got);
        }
    }
    release_run(&want);
    printf("switch: %d ordered pairs of backends, %d deferring backend(s)\n", pairs, deferring);
    cf_end_test();
}

/* A deferred tensor outlives the backend switch and is evaluated by its own
 * backend: observing it under another backend gives its value, and an
 * unevaluated chain can be released under any backend. */
static void test_deferred_tensor_observed_after_switch(void **state)
{
    (void)state;
    const char *names[CF_MAX_BACKENDS];
    int nb = cf_backends(names);
    cf_begin_test();
    eh_tensor *x = cf_tensor(EH_F32, 1, SHAPE(4), (const double[]){1, 4, 9, 16});
    for (int i = 0; i < nb; i++)
        for (int j = 0; j < nb; j++) {
            assert_int_equal(eh_set_backend(names[i]), EH_OK);
            eh_tensor *s = eh_sqrt(x);
            eh_tensor *never = eh_log(s);
            assert_int_equal(eh_set_backend(names[j]), EH_OK);
            assert_int_equal(eh_scope_begin(), EH_OK);
            double v = eh_item(eh_slice(s, SHAPE(2), SHAPE(3), NULL, 1));
            assert_int_equal(eh_scope_end(), EH_OK);
            float out[4];
            assert_int_equal(eh_to_buffer(s, out, sizeof out), EH_OK);
            if (out[0] != 1 || out[1] != 2 || out[2] != 3 || out[3] != 4 || v != 3.0) {
                cf_case c;
                cf_case_init(&c, "sqrt", "made under %s, observed under %s", names[i], names[j]);
                cf_finding(&c, names[j], "[%g %g %g %g], slice %g; want [1 2 3 4], 3", out[0],
                           out[1], out[2], out[3], v);
            }
            eh_release(never);
            eh_release(s);
        }
    eh_release(x);
    cf_end_test();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tensors_cross_every_pair_of_backends),
        cmocka_unit_test(test_deferred_tensor_observed_after_switch),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
