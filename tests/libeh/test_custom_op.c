/* Custom ops (<eh/custom_op.h>, docs/extending.md): definitions and their
 * validation, kernel registration, calls validated like built-in ops,
 * dispatch to the current backend's kernel (observed through counters the
 * kernels bump), the rules for output shapes and dtypes, per-element
 * functions, lazy recording and fusion, and registration racing on
 * several threads.  Also the example program examples/custom_op/ on every
 * backend, and that docs/extending.md quotes its files exactly.
 *
 * This binary iterates the backends itself (make test runs it once). */
#include <math.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#define EH_TEST_SHORTHAND
#include "eh_test.h"
#include <eh/backend_api.h> // emberlint-ignore EH101 (the test registers kernels)

/* ---- kernels -------------------------------------------------------------- */

/* Which kernel ran, per backend name, and what its first output looked
 * like (fused blocks are 1-D views). */
static atomic_int ran_ref, ran_blas, ran_other;
static atomic_int seen_ndim;
static _Atomic int64_t seen_size;

static void count(const char *backend)
{
    if (strcmp(backend, "ref") == 0)
        ran_ref++;
    else if (strcmp(backend, "blas") == 0)
        ran_blas++;
    else
        ran_other++;
}

static void reset_counts(void) { ran_ref = ran_blas = ran_other = 0; }

/* out[k] = in[0] (broadcast) + delta, in the output's dtype. */
static eh_status add_delta(const eh_op_call *c, double delta)
{
    const eh_tensor *x = c->in[0];
    for (int o = 0; o < c->n_out; o++) {
        eh_tensor *out = c->out[o];
        int64_t st[EH_MAX_DIMS];
        eh_broadcast_strides(x, out->ndim, out->shape, st);
        eh_nd_iter it;
        eh_nd_iter_init(&it, out->ndim, out->shape);
        for (int64_t i = 0; i < out->size; i++, eh_nd_iter_next(&it))
            eh_store_f64(out->data, out->dtype, i,
                         eh_load_f64(x->data, x->dtype, eh_nd_iter_offset(&it, st)) + delta + o);
    }
    seen_ndim = c->out[0]->ndim;
    seen_size = c->out[0]->size;
    return EH_OK;
}

static eh_status shift_ref(const eh_op_call *c)
{
    count("ref");
    return add_delta(c, 1.0);
}

static eh_status shift_blas(const eh_op_call *c)
{
    count("blas");
    return add_delta(c, 1.0);
}

static eh_status shift_other(const eh_op_call *c)
{
    count("other");
    return add_delta(c, 1.0);
}

/* ---- definitions ---------------------------------------------------------- */

static eh_custom_op_def unary_def(const char *name)
{
    return (eh_custom_op_def){.name = name, .n_in = 1, .n_out = 1,
                              .rule = EH_CUSTOM_SAME_AS_INPUT};
}

static void expect_define_fails(eh_custom_op_def d, eh_status code, const char *needle)
{
    assert_int_equal(eh_custom_op_define(&d), code);
    assert_non_null(strstr(eh_error_message(), needle));
    if (d.name && code != EH_ERR_NULL_ARG)
        assert_non_null(strstr(eh_error_message(), "custom_op_define"));
    eh_clear_error();
}

static eh_status dummy_infer(eh_custom_ctx *ctx)
{
    (void)ctx;
    return EH_OK;
}

static double twice(const double *x, const void *p)
{
    (void)p;
    return 2 * x[0];
}

static void test_define_validation(void **state)
{
    (void)state;
    assert_int_equal(eh_custom_op_define(NULL), EH_ERR_NULL_ARG);
    eh_clear_error();
    expect_define_fails(unary_def(NULL), EH_ERR_NULL_ARG, "name");
    const char *bad[] = {"plain", "a..b", ".a", "a.", "1a.b", "a.b-c", "a b.c", "a.b.", ""};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++)
        expect_define_fails(unary_def(bad[k]), EH_ERR_INVALID_ARG, "namespaced");
    char long_name[200];
    memset(long_name, 'x', sizeof long_name);
    long_name[1] = '.';
    long_name[199] = '\0';
    expect_define_fails(unary_def(long_name), EH_ERR_INVALID_ARG, "at most 127");

    eh_custom_op_def d = unary_def("tv.bad");
    d.n_in = -1;
    expect_define_fails(d, EH_ERR_INVALID_ARG, "n_in is -1");
    d = unary_def("tv.bad");
    d.n_in = EH_CUSTOM_MAX_IN + 1;
    expect_define_fails(d, EH_ERR_INVALID_ARG, "n_in is 17");
    d = unary_def("tv.bad");
    d.n_out = 0;
    expect_define_fails(d, EH_ERR_INVALID_ARG, "n_out is 0");
    d = unary_def("tv.bad");
    d.rule = (eh_custom_rule)42;
    expect_define_fails(d, EH_ERR_INVALID_ARG, "rule 42");
    d = unary_def("tv.bad");
    d.rule = EH_CUSTOM_INFER;
    expect_define_fails(d, EH_ERR_INVALID_ARG, "needs an infer callback");
    d = unary_def("tv.bad");
    d.infer = dummy_infer;
    expect_define_fails(d, EH_ERR_INVALID_ARG, "infer is set");
    d = unary_def("tv.bad");
    d.rule_input = 1;
    expect_define_fails(d, EH_ERR_INVALID_ARG, "rule_input is 1");
    d = unary_def("tv.bad");
    d.per_element = twice;
    expect_define_fails(d, EH_ERR_INVALID_ARG, "per_element");
    d = unary_def("tv.bad");
    d.fallback = "Not A Backend";
    expect_define_fails(d, EH_ERR_INVALID_ARG, "fallback");
    d = unary_def("tv.bad");
    d.dtypes = 1u << 20;
    expect_define_fails(d, EH_ERR_INVALID_ARG, "dtypes");
    d = unary_def("tv.bad");
    d.input_names = (const char *const[]){NULL};
    expect_define_fails(d, EH_ERR_INVALID_ARG, "input_names[0]");
    d = (eh_custom_op_def){.name = "tv.bad", .n_in = 0, .n_out = 1, .rule = EH_CUSTOM_ELEMENTWISE};
    expect_define_fails(d, EH_ERR_INVALID_ARG, "at least one input");
    /* nothing was defined by the failures */
    assert_int_equal(eh_custom_op_get(eh_custom_op_id("tv.bad")) == NULL, 1);
}

static void test_redefine(void **state)
{
    (void)state;
    char name_a[] = "tr.op", name_b[] = "tr.op";
    char in_a[] = "x", in_b[] = "x";
    const char *names_a[] = {in_a}, *names_b[] = {in_b};
    eh_custom_op_def a = unary_def(name_a), b = unary_def(name_b);
    a.input_names = names_a;
    b.input_names = names_b; /* equal content, other pointers */
    assert_int_equal(eh_custom_op_define(&a), EH_OK);
    assert_int_equal(eh_custom_op_define(&b), EH_OK);
    int id = eh_custom_op_id("tr.op");
    assert_true(id >= eh_op_count());
    /* libeh keeps its own copy */
    in_a[0] = 'z';
    name_a[0] = 'q';
    assert_string_equal(eh_custom_op_get(id)->input_names[0], "x");
    assert_string_equal(eh_custom_op_get(id)->name, "tr.op");
    assert_string_equal(eh_op_name(id), "tr.op");

    b.float_result = 1;
    assert_int_equal(eh_custom_op_define(&b), EH_ERR_INVALID_ARG);
    assert_non_null(strstr(eh_error_message(), "'tr.op' is already defined differently"));
    assert_non_null(strstr(eh_error_message(), "float_result differs"));
    eh_clear_error();
    b.float_result = 0;
    b.n_in = 2;
    b.input_names = NULL;
    assert_int_equal(eh_custom_op_define(&b), EH_ERR_INVALID_ARG);
    assert_non_null(strstr(eh_error_message(), "n_in differs"));
    eh_clear_error();
    assert_int_equal(eh_custom_op_get(id)->n_in, 1);
}

static void test_kernel_registration(void **state)
{
    (void)state;
    assert_int_equal(eh_custom_op_kernel(NULL, "ref", shift_ref), EH_ERR_NULL_ARG);
    assert_int_equal(eh_custom_op_kernel("tk.op", NULL, shift_ref), EH_ERR_NULL_ARG);
    assert_int_equal(eh_custom_op_kernel("tk.op", "ref", NULL), EH_ERR_NULL_ARG);
    assert_non_null(strstr(eh_error_message(), "'kernel'"));
    assert_int_equal(eh_custom_op_kernel("nodot", "ref", shift_ref), EH_ERR_INVALID_ARG);
    assert_int_equal(eh_custom_op_kernel("tk.op", "Ref!", shift_ref), EH_ERR_INVALID_ARG);
    assert_non_null(strstr(eh_error_message(), "not a backend name"));
    eh_clear_error();

    /* kernels first, definition later */
    assert_int_equal(eh_custom_op_kernel("tk.op", "ref", shift_ref), EH_OK);
    assert_int_equal(eh_custom_op_kernel("tk.op", "ref", shift_ref), EH_OK); /* same again */
    assert_int_equal(eh_custom_op_kernel("tk.op", "ref", shift_blas), EH_ERR_INVALID_ARG);
    assert_non_null(strstr(eh_error_message(), "'tk.op' already has a different kernel for backend 'ref'"));
    eh_clear_error();
    int id = eh_custom_op_id("tk.op");
    assert_true(id >= eh_op_count());
    assert_null(eh_custom_op_get(id));
    eh_tensor *x = T(EH_F64, SHAPE(2), 1, 2);
    assert_int_equal(eh_set_backend("ref"), EH_OK);
    assert_failed(eh_custom_call("tk.op", EH_INPUTS(x), NULL), EH_ERR_INVALID_ARG,
                  "no custom op named 'tk.op' is defined (it has kernels for ref, but "
                  "eh_custom_op_define was never called for it)");
    eh_custom_op_def d = unary_def("tk.op");
    assert_int_equal(eh_custom_op_define(&d), EH_OK);
    assert_int_equal(eh_custom_op_id("tk.op"), id); /* the same op */
    eh_tensor *y = eh_custom_call("tk.op", EH_INPUTS(x), NULL);
    EXPECT(y, EH_F64, SHAPE(2), 2, 3);
    eh_release(y);

    /* a table of registrations, as generated code writes it */
    const eh_custom_kernel table[] = {{"tk.t1", "ref", shift_ref}, {"tk.t2", "blas", shift_blas},
                                      {"tk.t3", "bad name", shift_ref}};
    assert_int_equal(eh_custom_op_kernels(table, 2), EH_OK);
    assert_int_equal(eh_custom_op_kernels(table, 3), EH_ERR_INVALID_ARG);
    assert_int_equal(eh_custom_op_kernels(NULL, 1), EH_ERR_NULL_ARG);
    eh_clear_error();
    assert_true(eh_custom_op_id("tk.t2") >= eh_op_count());
    eh_release(x);
}

/* ---- calls: validation ---------------------------------------------------- */

typedef struct scale_params {
    double factor;
} scale_params;

static eh_status scale_ref(const eh_op_call *c)
{
    count("ref");
    const scale_params *p = EH_CUSTOM_PARAMS(c, scale_params);
    assert_int_equal(c->p.blob_size, sizeof(scale_params));
    const eh_tensor *x = c->in[0];
    for (int64_t i = 0; i < x->size; i++)
        eh_store_f64(c->out[0]->data, c->out[0]->dtype, i,
                     eh_load_f64(x->data, x->dtype, i) * p->factor);
    return EH_OK;
}

static eh_status positive_factor(eh_custom_ctx *ctx)
{
    const scale_params *p = ctx->params;
    if (p->factor > 0)
        return EH_OK;
    snprintf(ctx->why, ctx->why_cap, "factor must be positive, got %g", p->factor);
    return EH_ERR_INVALID_ARG;
}

static void define_validation_ops(void)
{
    static const char *const names[] = {"x", "y"};
    eh_custom_op_def add2 = {.name = "tc.add2", .n_in = 2, .n_out = 1, .input_names = names,
                             .rule = EH_CUSTOM_ELEMENTWISE, .dtypes = EH_DTYPES_FLOAT,
                             .fallback = "ref"};
    assert_int_equal(eh_custom_op_define(&add2), EH_OK);
    assert_int_equal(eh_custom_op_kernel("tc.add2", "ref", shift_ref), EH_OK);
    eh_custom_op_def scale = {.name = "tc.scale", .n_in = 1, .n_out = 1,
                              .rule = EH_CUSTOM_SAME_AS_INPUT, .params_size = sizeof(scale_params),
                              .check = positive_factor, .fallback = "ref"};
    assert_int_equal(eh_custom_op_define(&scale), EH_OK);
    assert_int_equal(eh_custom_op_kernel("tc.scale", "ref", scale_ref), EH_OK);
}

static void test_call_validation(void **state)
{
    (void)state;
    define_validation_ops();
    eh_tensor *a = T(EH_F32, SHAPE(2), 1, 2);
    eh_tensor *b = T(EH_F32, SHAPE(3), 1, 2, 3);
    eh_tensor *i = T(EH_I32, SHAPE(2), 1, 2);
    const char *backends[] = {"ref", "blas", "lazy"};
    for (int k = 0; k < 3; k++) {
        if (!t_has_backend(backends[k]))
            continue;
        assert_int_equal(eh_set_backend(backends[k]), EH_OK);
        /* NULL propagation: the first error is kept */
        eh_clear_error();
        eh_tensor *bad = eh_add(a, b);
        assert_null(bad);
        assert_failed(eh_custom_call("tc.add2", EH_INPUTS(bad, a), NULL), EH_ERR_SHAPE,
                      "add: shapes (2,) and (3,)");
        /* a NULL input with no earlier error names the op and the input */
        assert_failed(eh_custom_call("tc.add2", EH_INPUTS(a, NULL), NULL), EH_ERR_NULL_ARG,
                      "tc.add2: argument 'y' is NULL");
        assert_failed(eh_custom_call(NULL, EH_INPUTS(a), NULL), EH_ERR_NULL_ARG, "'op'");
        assert_failed(eh_custom_call("tc.add2", NULL, 2, NULL), EH_ERR_NULL_ARG, "'in'");
        assert_failed(eh_custom_call("tc.nothing", EH_INPUTS(a), NULL), EH_ERR_INVALID_ARG,
                      "no custom op named 'tc.nothing'");
        assert_failed(eh_custom_call("tc.add2", EH_INPUTS(a), NULL), EH_ERR_INVALID_ARG,
                      "tc.add2: takes 2 inputs, got 1");
        eh_tensor *two[2];
        assert_int_equal(eh_custom_call_multi("tc.add2", EH_INPUTS(a, a), NULL, two, 2),
                         EH_ERR_INVALID_ARG);
        assert_null(two[0]);
        assert_null(two[1]);
        assert_failed(NULL, EH_ERR_INVALID_ARG, "tc.add2: has 1 output, the call asks for 2");
        assert_failed(eh_custom_call("tc.add2", EH_INPUTS(a, i), NULL), EH_ERR_DTYPE,
                      "tc.add2: input 'y' has dtype i32; tc.add2 accepts f16, f32, f64");
        assert_failed(eh_custom_call("tc.add2", EH_INPUTS(a, b), NULL), EH_ERR_SHAPE,
                      "tc.add2: shapes (2,) and (3,) cannot be broadcast");
        eh_custom_args axes = {.axes = (const int[]){0}, .n_axes = 1};
        assert_failed(eh_custom_call("tc.add2", EH_INPUTS(a, a), &axes), EH_ERR_INVALID_ARG,
                      "axes and keepdims are for reductions");

        /* params */
        scale_params sp = {2.0};
        assert_failed(eh_custom_call("tc.scale", EH_INPUTS(a), NULL), EH_ERR_INVALID_ARG,
                      "tc.scale: params of 0 bytes, the op takes 8");
        eh_custom_args args = {.params = &sp, .params_size = 4};
        assert_failed(eh_custom_call("tc.scale", EH_INPUTS(a), &args), EH_ERR_INVALID_ARG,
                      "params of 4 bytes");
        args = (eh_custom_args){.params = NULL, .params_size = sizeof sp};
        assert_failed(eh_custom_call("tc.scale", EH_INPUTS(a), &args), EH_ERR_NULL_ARG,
                      "tc.scale: params is NULL");
        args = (eh_custom_args){.params = &sp, .params_size = sizeof sp};
        assert_failed(eh_custom_call("tc.add2", EH_INPUTS(a, a), &args), EH_ERR_INVALID_ARG,
                      "tc.add2: params of 8 bytes, the op takes 0");
        sp.factor = -1;
        assert_failed(eh_custom_call("tc.scale", EH_INPUTS(a), &args), EH_ERR_INVALID_ARG,
                      "tc.scale: factor must be positive, got -1");
        sp.factor = 3;
        eh_tensor *y = eh_custom_call("tc.scale", EH_INPUTS(a), &args);
        EXPECT(y, EH_F32, SHAPE(2), 3, 6);
        eh_release(y);
        /* a successful call keeps an earlier error (like every op) */
        eh_clear_error();
        assert_null(eh_add(a, b));
        y = eh_custom_call("tc.scale", EH_INPUTS(a), &args);
        assert_non_null(y);
        assert_int_equal(eh_last_error(), EH_ERR_SHAPE);
        eh_clear_error();
        eh_release(y);
    }
    eh_release(a);
    eh_release(b);
    eh_release(i);
}

/* ---- dispatch per backend ------------------------------------------------- */

static void test_dispatch_per_backend(void **state)
{
    (void)state;
    eh_custom_op_def d = unary_def("td.shift");
    assert_int_equal(eh_custom_op_define(&d), EH_OK);
    assert_int_equal(eh_custom_op_kernel("td.shift", "ref", shift_ref), EH_OK);
    assert_int_equal(eh_custom_op_kernel("td.shift", "blas", shift_blas), EH_OK);
    eh_tensor *x = T(EH_F64, SHAPE(3), 1, 2, 3);

    assert_int_equal(eh_set_backend("ref"), EH_OK);
    reset_counts();
    eh_tensor *y = eh_custom_call("td.shift", EH_INPUTS(x), NULL);
    EXPECT(y, EH_F64, SHAPE(3), 2, 3, 4);
    assert_int_equal(ran_ref, 1);
    assert_int_equal(ran_blas, 0);
    eh_release(y);

    if (t_has_backend("blas")) {
        assert_int_equal(eh_set_backend("blas"), EH_OK);
        reset_counts();
        y = eh_custom_call("td.shift", EH_INPUTS(x), NULL);
        EXPECT(y, EH_F64, SHAPE(3), 2, 3, 4);
        assert_int_equal(ran_ref, 0);
        assert_int_equal(ran_blas, 1);
        eh_release(y);
    }
    if (t_has_backend("lazy")) {
        /* recorded, run at evaluation on the kernels of lazy's delegate */
        assert_int_equal(eh_set_backend("lazy"), EH_OK);
        reset_counts();
        y = eh_custom_call("td.shift", EH_INPUTS(x), NULL);
        assert_non_null(y);
        assert_int_equal(ran_ref + ran_blas, 0);
        assert_int_equal(eh_eval(y), EH_OK);
        assert_int_equal(t_has_backend("blas") ? ran_blas : ran_ref, 1);
        EXPECT(y, EH_F64, SHAPE(3), 2, 3, 4);
        eh_release(y);
    }

    /* only a ref kernel, no fallback: a clear error elsewhere */
    d = unary_def("td.only_ref");
    assert_int_equal(eh_custom_op_define(&d), EH_OK);
    assert_int_equal(eh_custom_op_kernel("td.only_ref", "ref", shift_ref), EH_OK);
    if (t_has_backend("blas")) {
        assert_int_equal(eh_set_backend("blas"), EH_OK);
        assert_failed(eh_custom_call("td.only_ref", EH_INPUTS(x), NULL), EH_ERR_UNSUPPORTED,
                      "td.only_ref: no kernel for backend 'blas' (kernels registered for: ref); "
                      "register one with eh_custom_op_kernel(\"td.only_ref\", \"blas\", ...) or "
                      "declare a fallback backend");
        assert_int_equal(eh_backend_supports("blas", eh_custom_op_id("td.only_ref")), 0);
        assert_int_equal(eh_backend_supports("ref", eh_custom_op_id("td.only_ref")), 1);
    }
    if (t_has_backend("lazy") && t_has_backend("blas")) {
        /* the error comes at the call, not at evaluation */
        assert_int_equal(eh_set_backend("lazy"), EH_OK);
        assert_failed(eh_custom_call("td.only_ref", EH_INPUTS(x), NULL), EH_ERR_UNSUPPORTED,
                      "td.only_ref: no kernel for backend 'lazy' (nor by 'blas', whose kernels "
                      "it uses)");
    }
    d = unary_def("td.none");
    assert_int_equal(eh_custom_op_define(&d), EH_OK);
    assert_int_equal(eh_set_backend("ref"), EH_OK);
    assert_failed(eh_custom_call("td.none", EH_INPUTS(x), NULL), EH_ERR_UNSUPPORTED,
                  "no backend has a kernel for it yet");

    /* with a fallback backend, its kernel runs where there is none */
    d = unary_def("td.fallback");
    d.fallback = "ref";
    assert_int_equal(eh_custom_op_define(&d), EH_OK);
    assert_int_equal(eh_custom_op_kernel("td.fallback", "ref", shift_ref), EH_OK);
    for (int k = 0; k < 3; k++) {
        const char *be = t_use_backend(k);
        if (!be)
            continue;
        reset_counts();
        y = eh_custom_call("td.fallback", EH_INPUTS(x), NULL);
        EXPECT(y, EH_F64, SHAPE(3), 2, 3, 4);
        assert_int_equal(ran_ref, 1);
        eh_release(y);
        assert_int_equal(eh_backend_supports(be, eh_custom_op_id("td.fallback")), 1);
    }
    /* a fallback that has no kernel either */
    d = unary_def("td.fallback_none");
    d.fallback = "blas";
    assert_int_equal(eh_custom_op_define(&d), EH_OK);
    assert_int_equal(eh_custom_op_kernel("td.fallback_none", "other", shift_other), EH_OK);
    assert_failed(eh_custom_call("td.fallback_none", EH_INPUTS(x), NULL), EH_ERR_UNSUPPORTED,
                  "(kernels registered for: other); its fallback backend 'blas' has none either");
    eh_release(x);
}

/* A kernel that fails on its data, with and without saying why. */
static eh_status fails_with_message(const eh_op_call *c)
{
    return eh_set_error(EH_ERR_INDEX, "%s: index 7 is out of range", eh_op_name(c->op));
}

static eh_status fails_silently(const eh_op_call *c)
{
    (void)c;
    return EH_ERR_INDEX;
}

static void test_kernel_errors(void **state)
{
    (void)state;
    eh_custom_op_def d = unary_def("te.loud");
    d.fallback = "ref";
    assert_int_equal(eh_custom_op_define(&d), EH_OK);
    assert_int_equal(eh_custom_op_kernel("te.loud", "ref", fails_with_message), EH_OK);
    d.name = "te.silent";
    assert_int_equal(eh_custom_op_define(&d), EH_OK);
    assert_int_equal(eh_custom_op_kernel("te.silent", "ref", fails_silently), EH_OK);
    eh_tensor *x = T(EH_F64, SHAPE(2), 1, 2);
    for (int k = 0; k < 3; k++) {
        const char *be = t_use_backend(k);
        if (!be)
            continue;
        eh_clear_error();
        eh_tensor *y = eh_custom_call("te.loud", EH_INPUTS(x), NULL);
        if (y) { /* lazy: the error comes with the observing call */
            assert_int_equal(eh_eval(y), EH_ERR_INDEX);
            eh_release(y);
        }
        assert_failed(NULL, EH_ERR_INDEX, "te.loud: index 7 is out of range");
        y = eh_custom_call("te.silent", EH_INPUTS(x), NULL);
        if (y) {
            assert_int_equal(eh_eval(y), EH_ERR_INDEX);
            eh_release(y);
        }
        assert_failed(NULL, EH_ERR_INDEX,
                      "te.silent: the kernel for backend 'ref' failed with EH_ERR_INDEX");
    }
    eh_release(x);
}

/* ---- the shape rules ------------------------------------------------------ */

static eh_dtype kernel_saw[4];

static eh_status record_dtypes(const eh_op_call *c)
{
    for (int k = 0; k < c->n_in && k < 4; k++)
        kernel_saw[k] = c->in[k]->dtype;
    /* out = in[0] + in[1] broadcast */
    eh_tensor *out = c->out[0];
    int64_t s0[EH_MAX_DIMS], s1[EH_MAX_DIMS];
    eh_broadcast_strides(c->in[0], out->ndim, out->shape, s0);
    eh_broadcast_strides(c->in[1], out->ndim, out->shape, s1);
    eh_nd_iter it;
    eh_nd_iter_init(&it, out->ndim, out->shape);
    for (int64_t i = 0; i < out->size; i++, eh_nd_iter_next(&it))
        eh_store_f64(out->data, out->dtype, i,
                     eh_load_f64(c->in[0]->data, c->in[0]->dtype, eh_nd_iter_offset(&it, s0)) +
                         eh_load_f64(c->in[1]->data, c->in[1]->dtype, eh_nd_iter_offset(&it, s1)));
    return EH_OK;
}

/* sum over p.axes, keepdims as given (the output is shaped already) */
static eh_status reduce_sum(const eh_op_call *c)
{
    const eh_tensor *x = c->in[0];
    eh_tensor *out = c->out[0];
    assert_int_equal(x->dtype, out->dtype);
    int reduced[EH_MAX_DIMS] = {0};
    for (int k = 0; k < c->p.n_axes; k++)
        reduced[c->p.axes[k]] = 1;
    for (int64_t i = 0; i < out->size; i++)
        eh_store_f64(out->data, out->dtype, i, 0);
    int64_t ost[EH_MAX_DIMS], kept_strides[EH_MAX_DIMS];
    eh_contiguous_strides(out->ndim, out->shape, ost);
    /* map x's dims onto out's */
    int od = 0;
    for (int d = 0; d < x->ndim; d++) {
        if (!reduced[d])
            kept_strides[d] = ost[od++];
        else {
            kept_strides[d] = 0;
            od += c->p.keepdims;
        }
    }
    eh_nd_iter it;
    eh_nd_iter_init(&it, x->ndim, x->shape);
    for (int64_t i = 0; i < x->size; i++, eh_nd_iter_next(&it)) {
        int64_t o = eh_nd_iter_offset(&it, kept_strides);
        eh_store_f64(out->data, out->dtype, o,
                     eh_load_f64(out->data, out->dtype, o) + eh_load_f64(x->data, x->dtype, i));
    }
    return EH_OK;
}

/* pairwise squared distances: (n, d) x (m, d) -> (n, m) */
static eh_status sqdist_shape(eh_custom_ctx *ctx)
{
    const eh_tensor *x = ctx->in[0], *y = ctx->in[1];
    if (eh_ndim(x) != 2 || eh_ndim(y) != 2 || eh_shape(x)[1] != eh_shape(y)[1]) {
        snprintf(ctx->why, ctx->why_cap, "x and y must be (n, d) and (m, d)");
        return EH_ERR_SHAPE;
    }
    ctx->out[0].dtype = eh_get_dtype(x);
    ctx->out[0].ndim = 2;
    ctx->out[0].shape[0] = eh_shape(x)[0];
    ctx->out[0].shape[1] = eh_shape(y)[0];
    return EH_OK;
}

static eh_status sqdist_ref(const eh_op_call *c)
{
    const eh_tensor *x = c->in[0], *y = c->in[1];
    int64_t n = x->shape[0], m = y->shape[0], dd = x->shape[1];
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j < m; j++) {
            double s = 0;
            for (int64_t k = 0; k < dd; k++) {
                double t = eh_load_f64(x->data, x->dtype, i * dd + k) -
                           eh_load_f64(y->data, y->dtype, j * dd + k);
                s += t * t;
            }
            eh_store_f64(c->out[0]->data, c->out[0]->dtype, i * m + j, s);
        }
    return EH_OK;
}

static eh_status bad_infer(eh_custom_ctx *ctx)
{
    ctx->out[0].dtype = (eh_dtype)99;
    return EH_OK;
}

static eh_status negative_infer(eh_custom_ctx *ctx)
{
    ctx->out[0].dtype = EH_F32;
    ctx->out[0].ndim = 1;
    ctx->out[0].shape[0] = -3;
    return EH_OK;
}

static eh_status silent_infer(eh_custom_ctx *ctx)
{
    (void)ctx;
    return EH_ERR_SHAPE;
}

/* Define d and register kernel for ref. */
static void define_on_ref(eh_custom_op_def d, eh_kernel_fn kernel)
{
    assert_int_equal(eh_custom_op_define(&d), EH_OK);
    if (kernel)
        assert_int_equal(eh_custom_op_kernel(d.name, "ref", kernel), EH_OK);
}

static void test_rules(void **state)
{
    (void)state;
    eh_custom_op_def add = {.name = "ts.add", .n_in = 2, .n_out = 1, .rule = EH_CUSTOM_ELEMENTWISE,
                            .fallback = "ref"};
    define_on_ref(add, record_dtypes);
    add.name = "ts.addf";
    add.float_result = 1;
    define_on_ref(add, record_dtypes);
    eh_custom_op_def sum = {.name = "ts.sum", .n_in = 1, .n_out = 1, .rule = EH_CUSTOM_REDUCTION,
                            .fallback = "ref"};
    define_on_ref(sum, reduce_sum);
    sum.name = "ts.fsum";
    sum.float_result = 1;
    define_on_ref(sum, reduce_sum);
    eh_custom_op_def dist = {.name = "ts.sqdist", .n_in = 2, .n_out = 1, .rule = EH_CUSTOM_INFER,
                             .infer = sqdist_shape, .fallback = "ref"};
    define_on_ref(dist, sqdist_ref);
    dist.name = "ts.bad_infer";
    dist.infer = bad_infer;
    define_on_ref(dist, NULL);
    dist.name = "ts.negative_infer";
    dist.infer = negative_infer;
    define_on_ref(dist, NULL);
    dist.name = "ts.silent_infer";
    dist.infer = silent_infer;
    define_on_ref(dist, NULL);

    for (int k = 0; k < 3; k++) {
        const char *be = t_use_backend(k);
        if (!be)
            continue;
        BEGIN();
        /* elementwise: broadcast, promotion, inputs cast for the kernel */
        eh_tensor *a = T(EH_F16, SHAPE(2, 1), 1, 2);
        eh_tensor *b = T(EH_F32, SHAPE(3), 10, 20, 30);
        eh_tensor *y = eh_custom_call("ts.add", EH_INPUTS(a, b), NULL);
        EXPECT(y, EH_F32, SHAPE(2, 3), 11, 21, 31, 12, 22, 32);
        assert_int_equal(kernel_saw[0], EH_F32);
        assert_int_equal(kernel_saw[1], EH_F32);
        eh_tensor *c = T(EH_I32, SHAPE(2), 1, 2);
        y = eh_custom_call("ts.add", EH_INPUTS(c, c), NULL);
        EXPECT(y, EH_I32, SHAPE(2), 2, 4);
        y = eh_custom_call("ts.addf", EH_INPUTS(c, c), NULL);
        EXPECT(y, EH_F64, SHAPE(2), 2, 4);
        assert_int_equal(kernel_saw[0], EH_F64);

        /* reduction: axes normalized, keepdims, the float rule */
        eh_tensor *m = T(EH_I64, SHAPE(2, 3), 1, 2, 3, 4, 5, 6);
        y = eh_custom_call("ts.sum", EH_INPUTS(m), &(eh_custom_args){.axes = (const int[]){-1},
                                                                     .n_axes = 1});
        EXPECT(y, EH_I64, SHAPE(2), 6, 15);
        y = eh_custom_call("ts.sum", EH_INPUTS(m),
                           &(eh_custom_args){.axes = (const int[]){0}, .n_axes = 1, .keepdims = 1});
        EXPECT(y, EH_I64, SHAPE(1, 3), 5, 7, 9);
        y = eh_custom_call("ts.sum", EH_INPUTS(m), NULL);
        EXPECT0(y, EH_I64, 21);
        y = eh_custom_call("ts.fsum", EH_INPUTS(m), NULL);
        EXPECT0(y, EH_F64, 21);
        assert_failed(eh_custom_call("ts.sum", EH_INPUTS(m),
                                     &(eh_custom_args){.axes = (const int[]){2}, .n_axes = 1}),
                      EH_ERR_AXIS, "ts.sum");
        assert_failed(eh_custom_call("ts.sum", EH_INPUTS(m),
                                     &(eh_custom_args){.axes = (const int[]){0, 0}, .n_axes = 2}),
                      EH_ERR_AXIS, "ts.sum");
        assert_failed(eh_custom_call("ts.sum", EH_INPUTS(m), &(eh_custom_args){.n_axes = 1}),
                      EH_ERR_NULL_ARG, "ts.sum: axes is NULL and n_axes is 1");

        /* infer */
        eh_tensor *px = T(EH_F64, SHAPE(2, 2), 0, 0, 1, 1);
        eh_tensor *py = T(EH_F64, SHAPE(3, 2), 0, 0, 1, 0, 2, 2);
        y = eh_custom_call("ts.sqdist", EH_INPUTS(px, py), NULL);
        EXPECT(y, EH_F64, SHAPE(2, 3), 0, 1, 8, 2, 1, 2);
        assert_failed(eh_custom_call("ts.sqdist", EH_INPUTS(px, b), NULL), EH_ERR_SHAPE,
                      "ts.sqdist: x and y must be (n, d) and (m, d)");
        assert_failed(eh_custom_call("ts.bad_infer", EH_INPUTS(px, py), NULL), EH_ERR_INTERNAL,
                      "ts.bad_infer: its infer callback gave output 0 dtype 99");
        assert_failed(eh_custom_call("ts.negative_infer", EH_INPUTS(px, py), NULL),
                      EH_ERR_NEGATIVE_SIZE, "ts.negative_infer");
        assert_failed(eh_custom_call("ts.silent_infer", EH_INPUTS(px, py), NULL), EH_ERR_SHAPE,
                      "ts.silent_infer: rejected by its infer callback");
        END();
    }
}

/* ---- per-element functions and lazy -------------------------------------- */

typedef struct affine_params {
    double a, b;
} affine_params;

static double affine(const double *x, const void *p)
{
    const affine_params *q = p;
    return q->a * x[0] + q->b;
}

static double hypot3(const double *x, const void *p)
{
    (void)p;
    return sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]);
}

static void define_per_element_ops(void)
{
    eh_custom_op_def d = {.name = "tp.affine", .n_in = 1, .n_out = 1,
                          .rule = EH_CUSTOM_ELEMENTWISE, .float_result = 1,
                          .params_size = sizeof(affine_params), .per_element = affine};
    assert_int_equal(eh_custom_op_define(&d), EH_OK);
    eh_custom_op_def h = {.name = "tp.hypot3", .n_in = 3, .n_out = 1,
                          .rule = EH_CUSTOM_ELEMENTWISE, .per_element = hypot3};
    assert_int_equal(eh_custom_op_define(&h), EH_OK);
    /* per-element, with a kernel for one backend (that must agree) */
    eh_custom_op_def s = {.name = "tp.shift", .n_in = 1, .n_out = 1,
                          .rule = EH_CUSTOM_ELEMENTWISE, .per_element = NULL};
    s.per_element = affine; /* a*x + b with params {1, 1}: x + 1 */
    s.params_size = sizeof(affine_params);
    assert_int_equal(eh_custom_op_define(&s), EH_OK);
    assert_int_equal(eh_custom_op_kernel("tp.shift", "ref", shift_ref), EH_OK);
    assert_int_equal(eh_custom_op_kernel("tp.shift", "blas", shift_blas), EH_OK);
    /* elementwise without a per-element function: a region boundary */
    eh_custom_op_def k = {.name = "tp.kernel_only", .n_in = 1, .n_out = 1,
                          .rule = EH_CUSTOM_ELEMENTWISE, .fallback = "ref"};
    assert_int_equal(eh_custom_op_define(&k), EH_OK);
    assert_int_equal(eh_custom_op_kernel("tp.kernel_only", "ref", shift_ref), EH_OK);
}

static void test_per_element(void **state)
{
    (void)state;
    define_per_element_ops();
    int id = eh_custom_op_id("tp.affine");
    assert_true(eh_op_is_elementwise((eh_op)id));
    assert_true(eh_op_is_elementwise((eh_op)eh_custom_op_id("tp.hypot3")));
    assert_false(eh_op_is_elementwise((eh_op)eh_custom_op_id("tp.kernel_only")));
    affine_params ap = {2, 0.5};
    eh_custom_args args = {.params = &ap, .params_size = sizeof ap};
    for (int k = 0; k < 3; k++) {
        const char *be = t_use_backend(k);
        if (!be)
            continue;
        assert_int_equal(eh_backend_supports(be, id), 1);
        BEGIN();
        eh_tensor *x = T(EH_I32, SHAPE(2, 2), 1, 2, 3, 4);
        eh_tensor *y = eh_custom_call("tp.affine", EH_INPUTS(x), &args);
        EXPECT(y, EH_F64, SHAPE(2, 2), 2.5, 4.5, 6.5, 8.5);
        eh_tensor *f16 = T(EH_F16, SHAPE(2), 1, -1);
        y = eh_custom_call("tp.affine", EH_INPUTS(f16), &args);
        EXPECT(y, EH_F16, SHAPE(2), 2.5, -1.5);
        /* broadcasting across three inputs */
        eh_tensor *a = T(EH_F32, SHAPE(2, 1), 3, 0);
        eh_tensor *b = T(EH_F32, SHAPE(1, 2), 4, 0);
        eh_tensor *c = eh_scalar(0, EH_F32);
        y = eh_custom_call("tp.hypot3", EH_INPUTS(a, b, c), NULL);
        EXPECT(y, EH_F32, SHAPE(2, 2), 5, 3, 4, 0);
        /* large enough to run on several threads */
        eh_tensor *big = eh_arange(0, 100000, 1, EH_F64);
        y = eh_custom_call("tp.affine", EH_INPUTS(big), &args);
        assert_int_equal(eh_size(y), 100000);
        assert_true(t_at(y, 99999) == 2 * 99999 + 0.5);
        assert_true(t_at(y, 12345) == 2 * 12345 + 0.5);
        END();
    }
}

static void test_lazy_records_and_fuses(void **state)
{
    (void)state;
    if (!t_has_backend("lazy"))
        skip();
    define_per_element_ops();
    assert_int_equal(eh_set_backend("lazy"), EH_OK);
    BEGIN();
    /* a chain with a per-element op inside: one fused region, values right */
    eh_tensor *x = eh_arange(0, 6400, 1, EH_F64);
    eh_tensor *x2 = eh_reshape(x, 2, SHAPE(64, 100));
    affine_params ap = {3, -1};
    eh_custom_args args = {.params = &ap, .params_size = sizeof ap};
    eh_tensor *y = eh_sqrt(eh_custom_call("tp.affine", EH_INPUTS(eh_add_scalar(x2, 1)), &args));
    /* the node keeps its own copy of the params */
    ap.a = 1000;
    assert_int_equal(eh_eval(y), EH_OK);
    for (int64_t i = 0; i < 6400; i += 797)
        assert_true(fabs(t_at(y, i) - sqrt(3 * (double)(i + 1) - 1)) < 1e-12);

    /* a per-element op with a kernel: fused, its kernel runs on blocks */
    ap = (affine_params){1, 1};
    reset_counts();
    seen_ndim = -1;
    y = eh_multiply_scalar(eh_custom_call("tp.shift", EH_INPUTS(eh_add_scalar(x2, 1)), &args), 2);
    assert_int_equal(ran_ref + ran_blas, 0); /* recorded, not run */
    assert_int_equal(eh_eval(y), EH_OK);
    assert_true(ran_ref + ran_blas >= 1);
    assert_int_equal(seen_ndim, 1); /* a block view: it was fused */
    assert_true(seen_size <= 8192); /* one of lazy's fused blocks (fused.c: BLOCK) */
    assert_true(t_at(y, 6399) == 2 * (6399 + 1 + 1));

    /* elementwise without a per-element function: a region boundary */
    reset_counts();
    y = eh_multiply_scalar(eh_custom_call("tp.kernel_only", EH_INPUTS(eh_add_scalar(x2, 1)), NULL), 2);
    assert_int_equal(eh_eval(y), EH_OK);
    assert_int_equal(ran_ref, 1);
    assert_int_equal(seen_ndim, 2); /* the whole tensor */
    assert_int_equal(seen_size, 6400);
    assert_true(t_at(y, 6399) == 2 * (6399 + 1 + 1));

    /* observing a node inside a region later computes it from its inputs */
    eh_tensor *mid = eh_custom_call("tp.affine", EH_INPUTS(x2), &args);
    eh_tensor *top = eh_negative(mid);
    assert_int_equal(eh_eval(top), EH_OK);
    assert_true(t_at(mid, 10) == 11);
    assert_true(t_at(top, 10) == -11);
    END();
}

/* Two outputs: (x + 1, x + 2) */
static void test_multi_output_lazy(void **state)
{
    (void)state;
    eh_custom_op_def d = {.name = "tm.pair", .n_in = 1, .n_out = 2,
                          .rule = EH_CUSTOM_SAME_AS_INPUT, .fallback = "ref"};
    assert_int_equal(eh_custom_op_define(&d), EH_OK);
    assert_int_equal(eh_custom_op_kernel("tm.pair", "ref", shift_ref), EH_OK);
    for (int k = 0; k < 3; k++) {
        const char *be = t_use_backend(k);
        if (!be)
            continue;
        eh_tensor *x = T(EH_F32, SHAPE(2), 1, 2);
        eh_tensor *out[2];
        assert_int_equal(eh_custom_call_multi("tm.pair", EH_INPUTS(x), NULL, out, 2), EH_OK);
        eh_release(x);
        EXPECT(out[1], EH_F32, SHAPE(2), 3, 4);
        EXPECT(out[0], EH_F32, SHAPE(2), 2, 3);
        eh_release(out[0]);
        eh_release(out[1]);
        /* dropping one output before evaluation */
        x = T(EH_F32, SHAPE(2), 1, 2);
        assert_int_equal(eh_custom_call_multi("tm.pair", EH_INPUTS(x), NULL, out, 2), EH_OK);
        eh_release(out[0]);
        EXPECT(out[1], EH_F32, SHAPE(2), 3, 4);
        eh_release(out[1]);
        eh_release(x);
    }
}

/* ---- queries ------------------------------------------------------------- */

static void test_queries(void **state)
{
    (void)state;
    eh_custom_op_def d = unary_def("tq.op");
    d.fallback = "ref";
    assert_int_equal(eh_custom_op_define(&d), EH_OK);
    int id = eh_custom_op_id("tq.op");
    assert_true(id >= eh_op_count() && id < eh_op_count() + eh_custom_op_count());
    assert_string_equal(eh_op_name(id), "tq.op");
    assert_int_equal(eh_op_lookup("tq.op"), -1); /* the built-in op set only */
    assert_int_equal(eh_custom_op_id("tq.none"), -1);
    assert_int_equal(eh_custom_op_id(NULL), -1);
    assert_null(eh_custom_op_get(-1));
    assert_null(eh_custom_op_get(0)); /* a built-in op's id */
    assert_null(eh_custom_op_get(eh_op_count() + eh_custom_op_count()));
    assert_null(eh_op_name(eh_op_count() + eh_custom_op_count()));
    assert_int_equal(eh_backend_supports("ref", eh_op_count() + eh_custom_op_count()), -1);
    assert_int_equal(eh_backend_supports("nope", id), -1);
    const eh_backend *ref = eh_find_backend("ref");
    const char *whose = "x";
    assert_null(eh_backend_kernel_whose(ref, id, &whose)); /* no kernel yet: fallback has none */
    assert_null(whose);
    assert_int_equal(eh_custom_op_kernel("tq.op", "ref", shift_ref), EH_OK);
    assert_true(eh_backend_kernel_whose(ref, id, &whose) == shift_ref);
    assert_string_equal(whose, "ref");
    if (t_has_backend("blas")) {
        assert_true(eh_backend_kernel_whose(eh_find_backend("blas"), id, &whose) == shift_ref);
        assert_string_equal(whose, "ref"); /* through the fallback */
    }
    /* built-in ops through the lookup: META ops have no kernel */
    assert_non_null(eh_backend_kernel(ref, eh_op_lookup("add")));
    assert_null(eh_backend_kernel(ref, eh_op_lookup("seed")));
    assert_null(eh_backend_kernel(NULL, eh_op_lookup("add")));
    assert_null(eh_backend_kernel(ref, -1));
}

/* ---- threads --------------------------------------------------------------- */

#define N_THREADS 8
#define OPS_PER_THREAD 150

typedef struct race {
    int thread;
    int failures;
    int same_ok;
    int conflict_ok;
} race;

static pthread_barrier_t barrier;

static void *racer(void *arg)
{
    race *r = arg;
    pthread_barrier_wait(&barrier);
    eh_tensor *x = t_from(EH_F64, 1, SHAPE(2), (const double[]){1, 2});
    char name[64];
    for (int i = 0; i < OPS_PER_THREAD; i++) {
        /* ops of its own, defined and given kernels in both orders */
        snprintf(name, sizeof name, "race.t%d_%d", r->thread, i);
        eh_custom_op_def d = unary_def(name);
        if (i % 2) {
            r->failures += eh_custom_op_kernel(name, "ref", shift_ref) != EH_OK;
            r->failures += eh_custom_op_define(&d) != EH_OK;
        } else {
            r->failures += eh_custom_op_define(&d) != EH_OK;
            r->failures += eh_custom_op_kernel(name, "ref", shift_ref) != EH_OK;
        }
        /* one op every thread defines identically, with one kernel */
        eh_custom_op_def shared = unary_def("race.shared");
        r->same_ok += eh_custom_op_define(&shared) == EH_OK;
        r->failures += eh_custom_op_kernel("race.shared", "ref", shift_ref) != EH_OK;
        /* one op every thread defines differently: one wins */
        eh_custom_op_def conflict = unary_def("race.conflict");
        conflict.params_size = (size_t)r->thread + 1;
        r->conflict_ok += eh_custom_op_define(&conflict) == EH_OK;
        /* and calls, while the others register: its own and others' ops */
        eh_tensor *y = eh_custom_call(name, EH_INPUTS(x), NULL);
        r->failures += !y || t_at(y, 1) != 3;
        eh_release(y);
        snprintf(name, sizeof name, "race.t%d_%d", (r->thread + 1) % N_THREADS, i / 2);
        int id = eh_custom_op_id(name);
        if (id >= 0 && eh_custom_op_get(id) && eh_backend_kernel(eh_find_backend("ref"), id)) {
            y = eh_custom_call(name, EH_INPUTS(x), NULL);
            r->failures += !y || t_at(y, 0) != 2;
            eh_release(y);
        }
    }
    eh_clear_error();
    eh_release(x);
    return NULL;
}

static void test_threads_racing(void **state)
{
    (void)state;
    assert_int_equal(eh_set_backend("ref"), EH_OK);
    int before = eh_custom_op_count();
    pthread_t th[N_THREADS];
    race r[N_THREADS];
    pthread_barrier_init(&barrier, NULL, N_THREADS);
    for (int t = 0; t < N_THREADS; t++) {
        r[t] = (race){.thread = t};
        assert_int_equal(pthread_create(&th[t], NULL, racer, &r[t]), 0);
    }
    int conflict_wins = 0;
    for (int t = 0; t < N_THREADS; t++) {
        pthread_join(th[t], NULL);
        assert_int_equal(r[t].failures, 0);
        assert_int_equal(r[t].same_ok, OPS_PER_THREAD);
        conflict_wins += r[t].conflict_ok;
    }
    pthread_barrier_destroy(&barrier);
    /* the winner's definition is the one kept; it succeeded every time */
    const eh_custom_op_def *c = eh_custom_op_get(eh_custom_op_id("race.conflict"));
    assert_non_null(c);
    assert_int_equal(conflict_wins, OPS_PER_THREAD);
    assert_int_equal(r[c->params_size - 1].conflict_ok, OPS_PER_THREAD);
    /* every op got one id, and every id names its op */
    assert_int_equal(eh_custom_op_count(), before + N_THREADS * OPS_PER_THREAD + 2);
    char name[64];
    for (int t = 0; t < N_THREADS; t++)
        for (int i = 0; i < OPS_PER_THREAD; i++) {
            snprintf(name, sizeof name, "race.t%d_%d", t, i);
            int id = eh_custom_op_id(name);
            assert_true(id >= eh_op_count());
            assert_string_equal(eh_op_name(id), name);
            assert_non_null(eh_custom_op_get(id));
        }
}

/* ---- scopes --------------------------------------------------------------- */

static void test_scope_owns_results(void **state)
{
    (void)state;
    define_per_element_ops();
    affine_params ap = {1, 0};
    eh_custom_args args = {.params = &ap, .params_size = sizeof ap};
    for (int k = 0; k < 3; k++) {
        const char *be = t_use_backend(k);
        if (!be)
            continue;
        BEGIN();
        eh_tensor *x = T(EH_F64, SHAPE(3), 1, 2, 3);
        /* nested calls, no releases: the scope frees everything */
        eh_tensor *y = eh_custom_call(
            "tp.affine", EH_INPUTS(eh_custom_call("tp.affine", EH_INPUTS(x), &args)), &args);
        assert_non_null(y);
        assert_int_equal(eh_eval(y), EH_OK);
        END();
    }
}

/* ---- the example, and the documentation that quotes it ------------------ */

static char build_dir[PATH_MAX];

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap + 1);
    size_t r;
    while (buf && (r = fread(buf + len, 1, cap - len, f)) > 0) {
        len += r;
        if (len == cap) {
            char *b = realloc(buf, 2 * cap + 1);
            if (!b) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = b;
            cap *= 2;
        }
    }
    fclose(f);
    if (buf)
        buf[len] = '\0';
    return buf;
}

static void test_example_program(void **state)
{
    (void)state;
    char prog[PATH_MAX + 32];
    snprintf(prog, sizeof prog, "%s/examples/custom-op", build_dir);
    for (int k = 0; k < 3; k++) {
        const char *be = t_use_backend(k);
        if (!be)
            continue;
        char out[4096];
        int st = t_run((const char *const[]){prog, NULL},
                       (const char *const[]){"EH_BACKEND", be, NULL}, out, sizeof out);
        if (st != 0)
            fail_msg("%s failed on %s:\n%s", prog, be, out);
        char want[64];
        snprintf(want, sizeof want, "backend %s\n", be);
        assert_non_null(strstr(out, want));
        assert_non_null(strstr(out, "  1.4142 1.0000   clipped 2.2095 1.7483\n"));
        assert_non_null(strstr(out, "  5.0000 4.4721   clipped 2.9924 2.9846\n"));
        assert_non_null(strstr(out, "bad call: EH_ERR_SHAPE: geo.sqdist: x and y must be (n, d) "
                                    "and (m, d), got 2-d and 1-d\n"));
    }
}

/* Every "<!-- file: PATH" marker of docs/extending.md is followed by a
 * ```c block holding exactly that file. */
static void test_docs_quote_the_examples(void **state)
{
    (void)state;
    /* the tree: the working directory (make runs tests from the root), else
     * upward from $BUILD */
    char root[PATH_MAX], path[PATH_MAX + 300];
    snprintf(root, sizeof root, ".");
    char *doc = slurp("docs/extending.md");
    if (!doc)
        snprintf(root, sizeof root, "%s", build_dir);
    for (int up = 0; up < 4 && !doc; up++) {
        snprintf(path, sizeof path, "%s/docs/extending.md", root);
        if (!(doc = slurp(path))) {
            char *slash = strrchr(root, '/');
            if (!slash)
                break;
            *slash = '\0';
        }
    }
    if (!doc)
        fail_msg("docs/extending.md not found (run the tests from the repository root)");
    int quoted = 0;
    for (const char *m = strstr(doc, "<!-- file: "); m; m = strstr(m + 1, "<!-- file: ")) {
        char file[256];
        assert_int_equal(sscanf(m + 11, "%255s", file), 1);
        const char *open = strstr(m, "\n```c\n");
        assert_non_null(open);
        open += 6;
        const char *close = strstr(open, "```\n");
        assert_non_null(close);
        snprintf(path, sizeof path, "%s/%s", root, file);
        char *want = slurp(path);
        if (!want)
            fail_msg("docs/extending.md quotes %s, which does not exist", file);
        if (strlen(want) != (size_t)(close - open) || memcmp(want, open, strlen(want)) != 0)
            fail_msg("docs/extending.md's copy of %s differs from the file: update the doc", file);
        free(want);
        quoted++;
    }
    assert_true(quoted >= 7);
    free(doc);
}

int main(void)
{
    ssize_t len = readlink("/proc/self/exe", build_dir, sizeof build_dir - 1);
    if (len <= 0)
        return 1;
    build_dir[len] = '\0';
    for (int up = 0; up < 2; up++) { /* $BUILD/tests/test_custom_op -> $BUILD */
        char *slash = strrchr(build_dir, '/');
        if (slash)
            *slash = '\0';
    }
    const struct CMUnitTest tests[] = {
        EH_TEST(test_define_validation),
        EH_TEST(test_redefine),
        EH_TEST(test_kernel_registration),
        EH_TEST(test_call_validation),
        EH_TEST(test_dispatch_per_backend),
        EH_TEST(test_kernel_errors),
        EH_TEST(test_rules),
        EH_TEST(test_per_element),
        EH_TEST(test_lazy_records_and_fuses),
        EH_TEST(test_multi_output_lazy),
        EH_TEST(test_queries),
        EH_TEST(test_threads_racing),
        EH_TEST(test_scope_owns_results),
        EH_TEST(test_example_program),
        EH_TEST(test_docs_quote_the_examples),
    };
    return EH_RUN_TESTS(tests);
}
