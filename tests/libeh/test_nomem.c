/* Out of memory at every allocation of every op, in the style of SQLite's
 * malloc tests: for each op of libeh/ops.def (the list comes from the file,
 * never typed here) and the backend of this run (EH_TEST_BACKEND), with
 * representative valid inputs, allocation N fails for N = 1, 2, ... until
 * the call gets past its last allocation.  Each failing run must
 *
 *   - report EH_ERR_NOMEM, through the op's result (NULL, or a status) and
 *     the error API, with a message saying so;
 *   - print nothing (stdout and stderr go to a file meanwhile; set
 *     EH_NOMEM_VERBOSE=1 to see them, as when a sanitizer reports);
 *   - free what it made: live storage is back where it was (and `make asan`
 *     runs this under LeakSanitizer);
 *   - leave the library usable: no scope left open, and the next op works
 *     and gives the right value.
 *
 * The run that succeeds must give the value of a run without the hook.  On
 * lazy, the outputs are evaluated while the hook is armed, so evaluation's
 * allocations (graph stacks, fused scratch, plans) fail in turn too; an
 * output whose evaluation failed must evaluate correctly afterwards.
 *
 * The hook (eh__test_fail_alloc) counts allocations on the calling thread:
 * the test runs with EH_NUM_THREADS=1, so every kernel runs on it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "eh_test.h"
#include "op_cases.h"
#include <eh/backend_api.h> // emberlint-ignore EH101 (the test registers a custom-op kernel)

#define MAX_OUT OP_CASE_MAX_OUT
/* A sweep that gets this far without passing the last allocation fails. */
#define MAX_FAILURES 10000


/* ---- checks ------------------------------------------------------------------ */

/* Where stdout and stderr go while the hook is armed. */
static FILE *sink;
static int saved_fd[2] = {-1, -1};

static void quiet_begin(void)
{
    if (!sink)
        return;
    fflush(stdout);
    fflush(stderr);
    for (int k = 0; k < 2; k++) {
        saved_fd[k] = dup(k + 1);
        dup2(fileno(sink), k + 1);
    }
}

/* Bytes printed into the sink so far (a test fails at the first). */
static long quiet_end(void)
{
    if (!sink)
        return 0;
    fflush(stdout);
    fflush(stderr);
    for (int k = 0; k < 2; k++) {
        dup2(saved_fd[k], k + 1);
        close(saved_fd[k]);
    }
    return (long)lseek(fileno(sink), 0, SEEK_END);
}

static void sink_open(void)
{
    const char *v = getenv("EH_NOMEM_VERBOSE");
    sink = v && *v && strcmp(v, "0") != 0 ? NULL : tmpfile();
}

static void sink_close(void)
{
    if (sink)
        fclose(sink);
    sink = NULL;
}

static void snap(op_result *s, const eh_tensor *t)
{
    if (op_result_take(s, t) != 0)
        fail_msg("reading a result: %s", eh_error_message());
}

static void unsnap(op_result *s) { op_result_drop(s); }

/* t equals the op_result, bit for bit. */
static void same_as(const char *ctx, int k, const op_result *want, const eh_tensor *t)
{
    op_result got;
    snap(&got, t);
    if (got.present != want->present)
        fail_msg("%s: output %d is %s, expected %s", ctx, k, got.present ? "there" : "NULL",
                 want->present ? "a tensor" : "NULL");
    if (!op_result_same(&got, want))
        fail_msg("%s: output %d differs from the run without the hook", ctx, k);
    unsnap(&got);
}

/* Evaluate every output (lazy computes them here). */
static eh_status eval_outs(eh_tensor **out)
{
    for (int k = 0; k < MAX_OUT; k++)
        if (out[k]) {
            eh_status st = eh_eval(out[k]);
            if (st != EH_OK)
                return st;
        }
    return EH_OK;
}

/* The library still works: a fresh op gives the right value. */
static void still_usable(const char *ctx)
{
    assert_int_equal(eh_scope_depth(), 0);
    eh_tensor *r = eh_multiply_scalar(op_fx.a, 2.0);
    if (!r)
        fail_msg("%s: the next op failed: %s", ctx, eh_error_message());
    for (int k = 0; k < 6; k++)
        if (t_at(r, k) != 2.0 * (1.5 + 0.75 * k))
            fail_msg("%s: the next op gave a wrong value", ctx);
    eh_release(r);
}

/* Step allocation failures through one op case, called outside any scope
 * (nothing frees what a run forgets) or, `scoped`, inside a fresh one (its
 * list's first allocation fails too).  Returns how many allocations failed. */
static int sweep(const op_case *c, int scoped)
{
    char ctx[160];
    eh_tensor *out[MAX_OUT] = {0};
    op_result want[MAX_OUT];

    /* the reference run */
    eh_clear_error();
    eh_status st = c->run(out);
    if (st == EH_OK)
        st = eval_outs(out);
    if (st != EH_OK)
        fail_msg("%s: fails without the hook: %s: %s", c->name, eh_status_name(st),
                 eh_error_message());
    for (int k = 0; k < MAX_OUT; k++)
        snap(&want[k], out[k]);
    op_release_outs(out);

    long long live0, peak;
    eh__test_storage_bytes(&live0, &peak);
    int nth;
    for (nth = 1; nth < MAX_FAILURES; nth++) {
        snprintf(ctx, sizeof ctx, "%s on %s%s, allocation %d failing", c->name, eh_get_backend(),
                 scoped ? " in a scope" : "", nth);
        if (scoped)
            assert_int_equal(eh_scope_begin(), EH_OK);
        eh_clear_error();
        quiet_begin();
        eh__test_fail_alloc(nth);
        st = c->run(out);
        int made = st == EH_OK;
        if (made)
            st = eval_outs(out);
        int fired = eh__test_fail_alloc(0) == 0;
        long printed = quiet_end();
        if (printed > 0)
            fail_msg("%s: libeh printed %ld bytes", ctx, printed);
        if (!fired) { /* past the last allocation: the run is a plain one */
            if (st != EH_OK)
                fail_msg("%s: failed with no allocation failing: %s: %s", ctx, eh_status_name(st),
                         eh_error_message());
            for (int k = 0; k < MAX_OUT; k++)
                same_as(ctx, k, &want[k], out[k]);
            op_release_outs(out);
            if (scoped)
                assert_int_equal(eh_scope_end(), EH_OK);
            break;
        }
        if (st == EH_OK) {
            /* Some allocations may fail without failing the op (a cache that
             * is not filled, a fallback): then the value must be right. */
            for (int k = 0; k < MAX_OUT; k++)
                same_as(ctx, k, &want[k], out[k]);
        } else {
            if (st != EH_ERR_NOMEM)
                fail_msg("%s: returned %s (%d), expected EH_ERR_NOMEM", ctx,
                         eh_status_name(st), (int)st);
            if (eh_last_error() != EH_ERR_NOMEM)
                fail_msg("%s: eh_last_error() is %s, expected EH_ERR_NOMEM: %s", ctx,
                         eh_status_name(eh_last_error()), eh_error_message());
            if (!strstr(eh_error_message(), "memory"))
                fail_msg("%s: message '%s' does not say memory", ctx, eh_error_message());
            if (made) {
                /* failed at evaluation (lazy): the outputs are still good */
                eh_clear_error();
                if (eval_outs(out) != EH_OK)
                    fail_msg("%s: evaluating again after the failure: %s", ctx,
                             eh_error_message());
                for (int k = 0; k < MAX_OUT; k++)
                    same_as(ctx, k, &want[k], out[k]);
            } else {
                for (int k = 0; k < MAX_OUT; k++)
                    if (out[k])
                        fail_msg("%s: failed but output %d is not NULL", ctx, k);
            }
        }
        op_release_outs(out);
        if (scoped)
            assert_int_equal(eh_scope_end(), EH_OK);
        long long live, pk;
        eh__test_storage_bytes(&live, &pk);
        if (live != live0)
            fail_msg("%s: %lld bytes of storage live after the run, %lld before", ctx, live, live0);
        eh_clear_error();
        still_usable(ctx);
    }
    if (nth == MAX_FAILURES)
        fail_msg("%s on %s%s: still failing after %d allocations", c->name, eh_get_backend(),
                 scoped ? " in a scope" : "", MAX_FAILURES);
    for (int k = 0; k < MAX_OUT; k++)
        unsnap(&want[k]);
    return nth - 1;
}

static void test_every_op(void **state)
{
    (void)state;
    assert_int_equal(op_case_count, eh_op_count());
    op_cases_setup();
    sink_open();
    int total = 0, with_alloc = 0;
    for (int k = 0; k < op_case_count; k++) {
        assert_string_equal(op_cases[k].name, eh_op_name(k));
        int n = sweep(&op_cases[k], 0);
        total += sweep(&op_cases[k], 1);
        if (!sink) /* EH_NOMEM_VERBOSE */
            print_message("%-22s %3d allocations\n", op_cases[k].name, n);
        total += n;
        with_alloc += n > 0;
        if (n == 0 && strcmp(op_cases[k].kind, "META") != 0)
            fail_msg("%s: no allocation was reached", op_cases[k].name);
    }
    for (int k = 0; k < op_more_case_count; k++) {
        int n = sweep(&op_more_cases[k], 0);
        total += n + sweep(&op_more_cases[k], 1);
        if (!sink)
            print_message("%-22s %3d allocations\n", op_more_cases[k].name, n);
        if (n == 0)
            fail_msg("%s: no allocation was reached", op_more_cases[k].name);
    }
    sink_close();
    op_cases_teardown();
    print_message("%d ops, %d failing allocations on %s\n", with_alloc, total, eh_get_backend());
}

/* ---- fused chains -------------------------------------------------------------- */

/* sqrt(abs(tanh((x - m) / s) * 3 + 1)) over x of n elements, m and s
 * broadcast: one fused region on lazy (a slice, a gathered row, a scalar). */
static eh_tensor *chain(const eh_tensor *x, const eh_tensor *m, const eh_tensor *s)
{
    eh_tensor *r = NULL;
    if (eh_scope_begin() != EH_OK)
        return NULL;
    r = eh_keep(eh_sqrt(eh_abs(eh_add_scalar(
        eh_multiply_scalar(eh_tanh(eh_divide(eh_subtract(x, m), s)), 3.0), 1.0))));
    eh_scope_end();
    return r;
}

static void chain_inputs(eh_tensor **x, eh_tensor **m, eh_tensor **s)
{
    *x = op_seq(EH_F32, 2, SHAPE(4, 8), -3.0, 0.2);
    *m = op_seq(EH_F32, 1, SHAPE(8), 0.5, -0.1);
    *s = op_seq(EH_F64, 0, NULL, 1.5, 0);
}

/* Building and evaluating the chain, every allocation failing in turn. */
static void test_fused_chain(void **state)
{
    (void)state;
    eh_tensor *x, *m, *s;
    chain_inputs(&x, &m, &s);
    op_cases_setup();
    sink_open();
    eh_tensor *r0 = chain(x, m, s);
    assert_non_null(r0);
    op_result want;
    snap(&want, r0);
    eh_release(r0);
    int nth, failed = 0;
    for (nth = 1; nth < MAX_FAILURES; nth++) {
        char ctx[96];
        snprintf(ctx, sizeof ctx, "chain on %s, allocation %d failing", eh_get_backend(), nth);
        eh_clear_error();
        quiet_begin();
        eh__test_fail_alloc(nth);
        eh_tensor *r = chain(x, m, s);
        eh_status st = r ? eh_eval(r) : eh_last_error();
        int fired = eh__test_fail_alloc(0) == 0;
        if (quiet_end() > 0)
            fail_msg("%s: libeh printed", ctx);
        assert_int_equal(eh_scope_depth(), 0);
        if (st != EH_OK) {
            failed++;
            if (st != EH_ERR_NOMEM || eh_last_error() != EH_ERR_NOMEM)
                fail_msg("%s: %s, expected EH_ERR_NOMEM: %s", ctx, eh_status_name(st),
                         eh_error_message());
            eh_clear_error();
        }
        if (r) /* made: right now or, when its evaluation failed, on a retry */
            same_as(ctx, 0, &want, r);
        eh_release(r);
        still_usable(ctx);
        if (!fired)
            break;
    }
    assert_true(nth < MAX_FAILURES); /* the sweep got past the last allocation */
    assert_true(failed > 5);
    unsnap(&want);
    sink_close();
    op_cases_teardown();
    eh_release(x);
    eh_release(m);
    eh_release(s);
}

/* A recorded chain (lazy) whose evaluation alone fails, at each of its
 * allocations in turn: the graph stays whole, and evaluating again works. */
static void test_fused_chain_eval(void **state)
{
    (void)state;
    eh_tensor *x, *m, *s;
    chain_inputs(&x, &m, &s);
    op_cases_setup();
    sink_open();
    eh_tensor *r0 = chain(x, m, s);
    op_result want;
    snap(&want, r0);
    eh_release(r0);
    int nth, failed = 0;
    for (nth = 1; nth < MAX_FAILURES; nth++) {
        char ctx[96];
        snprintf(ctx, sizeof ctx, "chain eval on %s, allocation %d failing", eh_get_backend(), nth);
        eh_tensor *r = chain(x, m, s);
        assert_non_null(r);
        eh_clear_error();
        quiet_begin();
        eh__test_fail_alloc(nth);
        eh_status st = eh_eval(r);
        int fired = eh__test_fail_alloc(0) == 0;
        if (quiet_end() > 0)
            fail_msg("%s: libeh printed", ctx);
        if (st != EH_OK) {
            failed++;
            if (st != EH_ERR_NOMEM || eh_last_error() != EH_ERR_NOMEM)
                fail_msg("%s: %s, expected EH_ERR_NOMEM: %s", ctx, eh_status_name(st),
                         eh_error_message());
            eh_clear_error();
        }
        same_as(ctx, 0, &want, r);
        eh_release(r);
        still_usable(ctx);
        if (!fired)
            break;
    }
    assert_true(nth < MAX_FAILURES);
    if (!backend_is_eager())
        assert_true(failed > 0);
    unsnap(&want);
    sink_close();
    op_cases_teardown();
    eh_release(x);
    eh_release(m);
    eh_release(s);
}

/* ---- scopes ------------------------------------------------------------------- */

/* A nested expression inside a scope, every allocation failing in turn
 * (the scope's own list included): the scope frees everything, none is
 * left open. */
static void test_nested_in_scope(void **state)
{
    (void)state;
    op_cases_setup();
    sink_open();
    int nth;
    for (nth = 1; nth < MAX_FAILURES; nth++) {
        char ctx[96];
        snprintf(ctx, sizeof ctx, "scope on %s, allocation %d failing", eh_get_backend(), nth);
        eh_clear_error();
        quiet_begin();
        eh__test_fail_alloc(nth);
        eh_status st = eh_scope_begin();
        eh_tensor *r = NULL;
        if (st == EH_OK) {
            r = eh_keep(eh_sum(eh_matmul(eh_divide(eh_subtract(op_fx.a, op_fx.b), op_fx.c), op_fx.tall),
                               NULL, 0, 0));
            eh_scope_end();
        }
        st = st != EH_OK ? st : r ? eh_eval(r) : eh_last_error();
        int fired = eh__test_fail_alloc(0) == 0;
        if (quiet_end() > 0)
            fail_msg("%s: libeh printed", ctx);
        assert_int_equal(eh_scope_depth(), 0);
        if (st != EH_OK && (st != EH_ERR_NOMEM || eh_last_error() != EH_ERR_NOMEM))
            fail_msg("%s: %s, expected EH_ERR_NOMEM: %s", ctx, eh_status_name(st),
                     eh_error_message());
        eh_clear_error();
        eh_release(r);
        still_usable(ctx);
        if (!fired)
            break;
    }
    assert_true(nth > 5 && nth < MAX_FAILURES);
    sink_close();
    op_cases_teardown();
}

/* ---- the custom-op registry -------------------------------------------------- */

static double halve(const double *x, const void *params)
{
    (void)params;
    return x[0] / 2;
}

static eh_status halve_kernel(const eh_op_call *call)
{
    const eh_tensor *x = call->in[0];
    eh_tensor *y = call->out[0];
    for (int64_t i = 0; i < y->size; i++)
        eh_store_f64(y->data, y->dtype, i, eh_load_f64(x->data, x->dtype, i) / 2);
    return EH_OK;
}

/* Defining ops and registering kernels, every allocation failing in turn
 * (the registry grows: chunks, a larger name index, records, copies of
 * the definition's strings): each failure is EH_ERR_NOMEM, and defining
 * the same op again afterwards works and gives a callable op. */
static void test_custom_registration(void **state)
{
    (void)state;
    op_cases_setup();
    sink_open();
    int failed = 0;
    /* enough names to grow the index (64 slots, kept half empty) once */
    for (int op = 0; op < 40; op++) {
        char name[32];
        snprintf(name, sizeof name, "nomem.reg%d", op);
        eh_custom_op_def def = {.name = name, .n_in = 1, .n_out = 1,
                                .input_names = (const char *const[]){"x"},
                                .rule = EH_CUSTOM_ELEMENTWISE, .per_element = halve,
                                .fallback = "ref"};
        int nth;
        for (nth = 1; nth < 100; nth++) {
            char ctx[96];
            snprintf(ctx, sizeof ctx, "defining %s, allocation %d failing", name, nth);
            eh_clear_error();
            quiet_begin();
            eh__test_fail_alloc(nth);
            eh_status st = eh_custom_op_define(&def);
            if (st == EH_OK)
                st = eh_custom_op_kernel(name, "nomem_backend", halve_kernel);
            int fired = eh__test_fail_alloc(0) == 0;
            if (quiet_end() > 0)
                fail_msg("%s: libeh printed", ctx);
            if (st != EH_OK) {
                failed++;
                if (st != EH_ERR_NOMEM || eh_last_error() != EH_ERR_NOMEM)
                    fail_msg("%s: %s, expected EH_ERR_NOMEM: %s", ctx, eh_status_name(st),
                             eh_error_message());
            }
            /* defining again (no hook) completes it */
            eh_clear_error();
            assert_int_equal(eh_custom_op_define(&def), EH_OK);
            assert_int_equal(eh_custom_op_kernel(name, "nomem_backend", halve_kernel), EH_OK);
            if (!fired)
                break;
        }
        assert_true(nth < 100); /* defining got past its last allocation */
        eh_tensor *y = eh_custom_call(name, EH_INPUTS(op_fx.a), NULL);
        assert_non_null(y);
        for (int k = 0; k < 6; k++)
            assert_true(t_at(y, k) == (1.5 + 0.75 * k) / 2);
        eh_release(y);
        assert_int_equal(eh_custom_op_id(name) >= eh_op_count(), 1);
    }
    assert_true(failed >= 40);
    sink_close();
    op_cases_teardown();
}

int main(void)
{
    /* One thread: every kernel's allocations are then the caller's, which
     * the hook counts (before anything reads it). */
    setenv("EH_NUM_THREADS", "1", 1);
    const struct CMUnitTest tests[] = {
        EH_TEST(test_every_op),
        EH_TEST(test_fused_chain),
        EH_TEST(test_fused_chain_eval),
        EH_TEST(test_nested_in_scope),
        EH_TEST(test_custom_registration),
    };
    return EH_RUN_TESTS(tests);
}
