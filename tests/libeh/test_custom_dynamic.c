/* Custom ops whose kernel makes the outputs (EH_CUSTOM_DYNAMIC,
 * docs/extending.md): kernels written the way a legacy application wrote
 * its backend functions (frontend ops that allocate their own result,
 * handed over with eh_custom_output_set), kernels with a data-dependent
 * output shape (eh_custom_output), dispatch per backend observed through
 * counters, the call running at once under lazy, every error path (a
 * kernel with no result, one that says why, one that gives nothing, the
 * helpers used outside a kernel or twice), inputs handed back, params,
 * fallbacks, nesting, and scopes (make asan checks nothing leaks).
 *
 * This binary iterates the backends itself (make test runs it once). */
#include <limits.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#define EH_TEST_SHORTHAND
#include "eh_test.h"
#include <eh/backend_api.h> // emberlint-ignore EH101 (the test registers kernels)

/* The backend whose kernels run on backend `be` (lazy: its delegate). */
static const char *runs_on(const char *be)
{
    if (strcmp(be, "lazy") != 0)
        return be;
    return t_has_backend("blas") ? "blas" : "ref";
}

static atomic_int ran_ref, ran_blas;

static void reset_counts(void) { ran_ref = ran_blas = 0; }

/* ---- kernels in the legacy style: frontend ops, their own result ---------- */

/* x * y + x, computed with frontend ops as a legacy eh_<b>_fma would. */
static eh_tensor *legacy_muladd(const eh_tensor *x, const eh_tensor *y)
{
    return eh_add(eh_multiply(x, y), x);
}

static eh_status muladd_ref(const eh_op_call *call)
{
    ran_ref++;
    return eh_custom_output_set(call, 0, legacy_muladd(call->in[0], call->in[1]));
}

static eh_status muladd_blas(const eh_op_call *call)
{
    ran_blas++;
    return eh_custom_output_set(call, 0, legacy_muladd(call->in[0], call->in[1]));
}

static const eh_custom_op_def muladd_def = {
    .name = "dyn.muladd", .n_in = 2, .n_out = 1, .rule = EH_CUSTOM_DYNAMIC,
    .input_names = (const char *const[]){"x", "y"},
};

static void define_muladd(void)
{
    assert_int_equal(eh_custom_op_define(&muladd_def), EH_OK);
    assert_int_equal(eh_custom_op_kernel("dyn.muladd", "ref", muladd_ref), EH_OK);
    assert_int_equal(eh_custom_op_kernel("dyn.muladd", "blas", muladd_blas), EH_OK);
}

static void test_dispatch_per_backend(void **state)
{
    (void)state;
    define_muladd();
    for (int k = 0; k < 3; k++) {
        const char *be = t_use_backend(k);
        if (!be)
            continue;
        BEGIN();
        eh_tensor *x = T(EH_F64, SHAPE(2, 2), 1, 2, 3, 4);
        eh_tensor *y = T(EH_F64, SHAPE(2), 10, 100);
        reset_counts();
        eh_tensor *z = eh_custom_call("dyn.muladd", EH_INPUTS(x, y), NULL);
        /* the kernel ran at the call, on every backend (lazy: its delegate's) */
        assert_int_equal(ran_ref, strcmp(runs_on(be), "ref") == 0);
        assert_int_equal(ran_blas, strcmp(runs_on(be), "blas") == 0);
        EXPECT(z, EH_F64, SHAPE(2, 2), 11, 202, 33, 404);
        /* results compose with built-in ops, and the kernel's input may be deferred */
        eh_tensor *w = eh_custom_call("dyn.muladd", EH_INPUTS(eh_add(x, x), y), NULL);
        EXPECT(w, EH_F64, SHAPE(2, 2), 22, 404, 66, 808);
        assert_int_equal(ran_ref + ran_blas, 2);
        END();
    }
    assert_int_equal(eh_backend_supports("ref", eh_custom_op_id("dyn.muladd")), 1);
}

/* ---- a data-dependent shape: the positive elements ---------------------- */

static eh_status positive_kernel(const eh_op_call *call)
{
    const eh_tensor *x = call->in[0];
    int64_t n = 0;
    for (int64_t i = 0; i < x->size; i++)
        n += eh_load_f64(x->data, x->dtype, i) > 0;
    eh_tensor *out = eh_custom_output(call, 0, 1, &n, x->dtype);
    if (!out)
        return eh_last_error();
    for (int64_t i = 0, j = 0; i < x->size; i++) {
        double v = eh_load_f64(x->data, x->dtype, i);
        if (v > 0)
            eh_store_f64(out->data, out->dtype, j++, v);
    }
    return EH_OK;
}

static void test_kernel_sized_output(void **state)
{
    (void)state;
    eh_custom_op_def d = {.name = "dyn.positive", .n_in = 1, .n_out = 1,
                          .rule = EH_CUSTOM_DYNAMIC, .fallback = "ref"};
    assert_int_equal(eh_custom_op_define(&d), EH_OK);
    assert_int_equal(eh_custom_op_kernel("dyn.positive", "ref", positive_kernel), EH_OK);
    for (int k = 0; k < 3; k++) {
        if (!t_use_backend(k))
            continue;
        BEGIN();
        eh_tensor *x = T(EH_F32, SHAPE(2, 3), -1, 2, 0, 4, -5, 6);
        eh_tensor *p = eh_custom_call("dyn.positive", EH_INPUTS(eh_multiply(x, x)), NULL);
        EXPECT(p, EH_F32, SHAPE(5), 1, 4, 16, 25, 36);
        END();
        BEGIN();
        x = T(EH_F32, SHAPE(2, 3), -1, 2, 0, 4, -5, 6);
        p = eh_custom_call("dyn.positive", EH_INPUTS(x), NULL);
        EXPECT(p, EH_F32, SHAPE(3), 2, 4, 6);
        /* none positive: an empty result */
        p = eh_custom_call("dyn.positive", EH_INPUTS(eh_negative(eh_abs(x))), NULL);
        EXPECT_EMPTY(p, EH_F32, SHAPE(0));
        END();
    }
}

/* ---- params and inputs handed back -------------------------------------- */

typedef struct clip_params {
    double limit;
} clip_params;

static eh_status clip_or_same(const eh_op_call *call)
{
    const clip_params *p = EH_CUSTOM_PARAMS(call, clip_params);
    if (p->limit <= 0) /* a legacy function that returns its input unchanged */
        return eh_custom_output_set(call, 0, (eh_tensor *)call->in[0]);
    return eh_custom_output_set(call, 0, eh_clip_scalar(call->in[0], -p->limit, p->limit));
}

static void test_params_and_inputs_handed_back(void **state)
{
    (void)state;
    eh_custom_op_def d = {.name = "dyn.clip", .n_in = 1, .n_out = 1, .rule = EH_CUSTOM_DYNAMIC,
                          .params_size = sizeof(clip_params), .fallback = "ref"};
    assert_int_equal(eh_custom_op_define(&d), EH_OK);
    assert_int_equal(eh_custom_op_kernel("dyn.clip", "ref", clip_or_same), EH_OK);
    for (int k = 0; k < 3; k++) {
        if (!t_use_backend(k))
            continue;
        BEGIN();
        eh_tensor *x = T(EH_F64, SHAPE(3), -3, 0.5, 9);
        clip_params p = {2};
        eh_custom_args a = {.params = &p, .params_size = sizeof p};
        eh_tensor *c = eh_custom_call("dyn.clip", EH_INPUTS(x), &a);
        EXPECT(c, EH_F64, SHAPE(3), -2, 0.5, 2);
        /* the input handed back: the result is a copy, the input stays the caller's */
        p.limit = 0;
        c = eh_custom_call("dyn.clip", EH_INPUTS(x), &a);
        assert_non_null(c);
        assert_ptr_not_equal(c, x);
        EXPECT(c, EH_F64, SHAPE(3), -3, 0.5, 9);
        eh_release(c);
        EXPECT(x, EH_F64, SHAPE(3), -3, 0.5, 9);
        /* params are checked as for every custom op */
        assert_failed(eh_custom_call("dyn.clip", EH_INPUTS(x), NULL), EH_ERR_INVALID_ARG,
                      "dyn.clip: params of 0 bytes, the op takes 8");
        END();
    }
}

/* ---- errors ---------------------------------------------------------------- */

/* A legacy function that returns NULL for inputs it does not handle,
 * without saying why. */
static eh_status no_result(const eh_op_call *call)
{
    return eh_custom_output_set(call, 0, NULL);
}

/* One whose own op failed: that op's error is the call's. */
static eh_status inner_op_fails(const eh_op_call *call)
{
    const int64_t two[1] = {2};
    return eh_custom_output_set(call, 0, eh_add(call->in[0], eh_zeros(1, two, EH_F64)));
}

static eh_status returns_ok_gives_nothing(const eh_op_call *call)
{
    (void)call;
    return EH_OK;
}

static eh_status fails_silently(const eh_op_call *call)
{
    (void)call;
    return EH_ERR_LINALG;
}

/* Allocates output 0, then fails: the output must not leak (make asan). */
static eh_status allocates_then_fails(const eh_op_call *call)
{
    if (!eh_custom_output(call, 0, 1, SHAPE(1000), EH_F64))
        return eh_last_error();
    return eh_set_error(EH_ERR_INDEX, "%s: index 7 is out of range", eh_op_name(call->op));
}

static eh_status misuses_helpers(const eh_op_call *call)
{
    eh_tensor *t = eh_custom_output(call, 1, 0, NULL, EH_F64);
    assert_null(t);
    assert_int_equal(eh_last_error(), EH_ERR_INVALID_ARG);
    assert_non_null(strstr(eh_error_message(), "dyn.misuse has 1 output, there is no output 1"));
    assert_null(eh_custom_output(call, 0, 1, SHAPE(2), (eh_dtype)99));
    assert_int_equal(eh_last_error(), EH_ERR_DTYPE);
    assert_null(eh_custom_output(call, 0, 1, NULL, EH_F64));
    assert_int_equal(eh_last_error(), EH_ERR_NULL_ARG);
    assert_null(eh_custom_output(call, 0, 1, SHAPE(-1), EH_F64));
    assert_int_equal(eh_last_error(), EH_ERR_NEGATIVE_SIZE);
    assert_non_null(eh_custom_output(call, 0, 1, SHAPE(2), EH_F64));
    assert_int_equal(eh_custom_output_set(call, 0, (eh_tensor *)call->in[0]), EH_ERR_INVALID_ARG);
    assert_non_null(strstr(eh_error_message(), "output 0 of dyn.misuse is already given"));
    eh_clear_error();
    return EH_OK;
}

static void define_on_ref(const char *name, eh_kernel_fn kernel)
{
    eh_custom_op_def d = {.name = name, .n_in = 1, .n_out = 1, .rule = EH_CUSTOM_DYNAMIC,
                          .fallback = "ref"};
    assert_int_equal(eh_custom_op_define(&d), EH_OK);
    assert_int_equal(eh_custom_op_kernel(name, "ref", kernel), EH_OK);
}

static void test_errors(void **state)
{
    (void)state;
    define_on_ref("dyn.no_result", no_result);
    define_on_ref("dyn.inner", inner_op_fails);
    define_on_ref("dyn.nothing", returns_ok_gives_nothing);
    define_on_ref("dyn.silent", fails_silently);
    define_on_ref("dyn.leaky", allocates_then_fails);
    define_on_ref("dyn.misuse", misuses_helpers);
    for (int k = 0; k < 3; k++) {
        if (!t_use_backend(k))
            continue;
        BEGIN();
        eh_tensor *x = T(EH_F64, SHAPE(3), 1, 2, 3);
        assert_failed(eh_custom_call("dyn.no_result", EH_INPUTS(x), NULL), EH_ERR_UNSUPPORTED,
                      "dyn.no_result: the kernel for backend 'ref' returned no result");
        /* an error recorded before the call is not taken for the kernel's */
        eh_set_error(EH_ERR_SHAPE, "an old error nobody cleared");
        assert_null(eh_custom_call("dyn.no_result", EH_INPUTS(x), NULL));
        assert_string_equal(eh_error_message(),
                            "dyn.no_result: the kernel for backend 'ref' returned no result");
        eh_clear_error();
        assert_failed(eh_custom_call("dyn.inner", EH_INPUTS(x), NULL), EH_ERR_SHAPE, "add:");
        assert_failed(eh_custom_call("dyn.nothing", EH_INPUTS(x), NULL), EH_ERR_INTERNAL,
                      "dyn.nothing: the kernel for backend 'ref' returned EH_OK but gave no "
                      "output 0");
        assert_failed(eh_custom_call("dyn.silent", EH_INPUTS(x), NULL), EH_ERR_LINALG,
                      "dyn.silent: the kernel for backend 'ref' failed with EH_ERR_LINALG");
        assert_failed(eh_custom_call("dyn.leaky", EH_INPUTS(x), NULL), EH_ERR_INDEX,
                      "dyn.leaky: index 7 is out of range");
        eh_tensor *m = eh_custom_call("dyn.misuse", EH_INPUTS(x), NULL);
        assert_non_null(m);
        assert_int_equal(eh_ndim(m), 1);
        /* validation before the kernel is the usual one */
        assert_failed(eh_custom_call("dyn.no_result", EH_INPUTS(NULL), NULL), EH_ERR_NULL_ARG,
                      "dyn.no_result: argument 'in[0]' is NULL");
        END();
    }
    /* outside a kernel the helpers refuse */
    eh_op_call call = {.op = (eh_op)eh_custom_op_id("dyn.nothing"), .n_out = 1};
    assert_null(eh_custom_output(&call, 0, 0, NULL, EH_F64));
    assert_int_equal(eh_last_error(), EH_ERR_INVALID_ARG);
    assert_non_null(strstr(eh_error_message(), "only the kernel of an EH_CUSTOM_DYNAMIC op"));
    assert_int_equal(eh_custom_output_set(&call, 0, NULL), EH_ERR_INVALID_ARG);
    eh_clear_error();
}

/* ---- which kernel: own, delegate's, fallback's; none -------------------- */

static void test_no_kernel_and_fallback(void **state)
{
    (void)state;
    eh_custom_op_def d = muladd_def;
    d.name = "dyn.blas_only";
    assert_int_equal(eh_custom_op_define(&d), EH_OK);
    assert_int_equal(eh_custom_op_kernel("dyn.blas_only", "blas", muladd_blas), EH_OK);
    assert_int_equal(eh_set_backend("ref"), EH_OK);
    eh_tensor *x = T(EH_F64, SHAPE(1), 2);
    assert_failed(eh_custom_call("dyn.blas_only", EH_INPUTS(x, x), NULL), EH_ERR_UNSUPPORTED,
                  "dyn.blas_only: no kernel for backend 'ref' (kernels registered for: blas)");
    /* a legacy function called whatever the backend: the op's fallback is its backend */
    d.name = "dyn.blas_fallback";
    d.fallback = "blas";
    assert_int_equal(eh_custom_op_define(&d), EH_OK);
    assert_int_equal(eh_custom_op_kernel("dyn.blas_fallback", "blas", muladd_blas), EH_OK);
    for (int k = 0; k < 3; k++) {
        if (!t_use_backend(k))
            continue;
        reset_counts();
        BEGIN(); /* the kernel's own temporaries (x * x) are the scope's */
        eh_tensor *y = eh_custom_call("dyn.blas_fallback", EH_INPUTS(x, x), NULL);
        EXPECT(y, EH_F64, SHAPE(1), 6);
        assert_int_equal(ran_blas, 1);
        END();
    }
    eh_release(x);
}

/* ---- nesting: a kernel that calls a custom op --------------------------- */

static eh_status twice_muladd(const eh_op_call *call)
{
    const eh_tensor *x = call->in[0];
    eh_tensor *once = eh_custom_call("dyn.muladd", EH_INPUTS(x, x), NULL);
    return eh_custom_output_set(call, 0, eh_custom_call("dyn.muladd", EH_INPUTS(once, x), NULL));
}

static void test_nested(void **state)
{
    (void)state;
    define_muladd();
    define_on_ref("dyn.twice", twice_muladd);
    for (int k = 0; k < 3; k++) {
        if (!t_use_backend(k))
            continue;
        BEGIN();
        eh_tensor *x = T(EH_F64, SHAPE(2), 1, 2);
        /* once = x*x + x = (2, 6); then once*x + once = (4, 18) */
        EXPECT(eh_custom_call("dyn.twice", EH_INPUTS(x), NULL), EH_F64, SHAPE(2), 4, 18);
        END();
    }
}

/* ---- ownership ------------------------------------------------------------- */

static void test_ownership(void **state)
{
    (void)state;
    define_muladd();
    for (int k = 0; k < 3; k++) {
        if (!t_use_backend(k))
            continue;
        /* the result is the caller's like any op's (kept past the scope here);
         * the kernel's temporaries belong to the scope its ops ran in */
        BEGIN();
        eh_tensor *x = T(EH_F64, SHAPE(2), 1, 2);
        eh_tensor *y = eh_keep(eh_custom_call("dyn.muladd", EH_INPUTS(x, x), NULL));
        END();
        EXPECT(y, EH_F64, SHAPE(2), 2, 6);
        eh_release(y);
    }
    assert_int_equal(eh_scope_depth(), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        EH_TEST(test_dispatch_per_backend), EH_TEST(test_kernel_sized_output),
        EH_TEST(test_params_and_inputs_handed_back), EH_TEST(test_errors),
        EH_TEST(test_no_kernel_and_fallback), EH_TEST(test_nested), EH_TEST(test_ownership),
    };
    return EH_RUN_TESTS(tests);
}
