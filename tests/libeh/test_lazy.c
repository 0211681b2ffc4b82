/* The lazy backend: deferral, fusion, safeguards, errors, cross-backend use.
 * Values are checked against the same computation on `ref`. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <eh/backend_api.h>
#include "eh_test.h"

static int setup_lazy(void **state)
{
    (void)state;
    eh_clear_error();
    return eh_set_backend("lazy") == EH_OK ? 0 : -1;
}

static int teardown_lazy(void **state)
{
    (void)state;
    int bad = eh_scope_depth() != 0;
    eh_set_backend("ref");
    eh_clear_error();
    return bad ? -1 : 0;
}

#define LAZY_TEST(fn) cmocka_unit_test_setup_teardown(fn, setup_lazy, teardown_lazy)

static int is_deferred(const eh_tensor *t) { return t->deferred_ops != NULL; }

static eh_tensor *ramp(int64_t n, eh_dtype dtype)
{
    double *v = malloc((size_t)n * sizeof *v);
    for (int64_t i = 0; i < n; i++)
        v[i] = (double)(i % 97) / 7.0 - 3.0;
    eh_tensor *t = t_from(dtype, 1, SHAPE(n), v);
    free(v);
    return t;
}

/* sqrt(abs(tanh((x - m) / s) * 3 + 1)) on the current backend. */
static eh_tensor *chain6(const eh_tensor *x, const eh_tensor *m, const eh_tensor *s)
{
    eh_scope_begin();
    eh_tensor *r = eh_sqrt(eh_abs(eh_add_scalar(eh_multiply_scalar(eh_tanh(eh_divide(eh_subtract(x, m), s)), 3.0), 1.0)));
    eh_keep(r);
    eh_scope_end();
    return r;
}

static void test_ops_are_deferred_until_observed(void **state)
{
    (void)state;
    eh_tensor *x = ramp(10, EH_F64);
    eh_tensor *y = eh_exp(x);
    assert_non_null(y);
    assert_true(is_deferred(y));
    assert_int_equal(eh_eval(y), EH_OK);
    assert_false(is_deferred(y));
    assert_true(fabs(t_at(y, 0) - exp(t_at(x, 0))) < 1e-12);
    eh_release(x);
    eh_release(y);
}

/* The fused pass runs the executor's kernels (blas when built, else ref)
 * on blocks: its result is the executor's op-by-op result bit for bit, on
 * every instruction set.  Against ref, the chain's one vectorized op
 * (tanh, 3 ulps: tolerances.def) moves y = |3 tanh + 1| by at most ~11 eps
 * (absolute; |tanh| < 1), and sqrt(y) by 11 eps / (2 sqrt(y)): with this
 * ramp y >= 0.028, so 64 eps absolute bounds it (results are in [0, 2]). */
static void test_fused_chain_matches_ref(void **state)
{
    (void)state;
    const int64_t n = 100003; /* not a multiple of the block */
    eh_dtype dtypes[3] = {EH_F32, EH_F64, EH_F16};
    const char *exec = eh_set_backend("blas") == EH_OK ? "blas" : "ref";
    eh_clear_error();
    eh_set_backend("lazy");
    eh_isa top = eh_isa_detected();
    for (int isa = 0; isa <= (int)top; isa++) {
        eh_isa_set((eh_isa)isa);
        for (int d = 0; d < 3; d++) {
            eh_tensor *x = ramp(n, dtypes[d]);
            eh_tensor *m = t_from(dtypes[d], 0, NULL, (const double[]){0.25});
            eh_tensor *s = t_from(dtypes[d], 1, SHAPE(1), (const double[]){1.5});
            eh_tensor *lazy = chain6(x, m, s);
            assert_true(is_deferred(lazy));
            eh_set_backend(exec);
            eh_tensor *eager = chain6(x, m, s);
            eh_set_backend("ref");
            eh_tensor *ref = chain6(x, m, s);
            eh_set_backend("lazy");
            assert_int_equal(eh_eval(lazy), EH_OK);
            double eps = dtypes[d] == EH_F16 ? 0x1p-10 : dtypes[d] == EH_F32 ? 0x1p-23 : 0x1p-52;
            for (int64_t i = 0; i < n; i += 37) {
                double v = t_at(lazy, i), r = t_at(ref, i);
                assert_true(v == t_at(eager, i));
                assert_true(fabs(v - r) <= 64 * eps);
            }
            eh_release(x);
            eh_release(m);
            eh_release(s);
            eh_release(lazy);
            eh_release(eager);
            eh_release(ref);
        }
    }
    eh_isa_set(top);
}

static void test_broadcast_leaves_in_fused_region(void **state)
{
    (void)state;
    /* (3, 1) and (1, 4) leaves broadcast inside one fused region of shape (3, 4) */
    eh_tensor *a = T_F64(SHAPE(3, 1), 1, 2, 3);
    eh_tensor *b = T_F64(SHAPE(1, 4), 10, 20, 30, 40);
    eh_scope_begin();
    eh_tensor *r = eh_keep(eh_multiply_scalar(eh_add(a, b), 2.0));
    eh_scope_end();
    const double want[12] = {22, 42, 62, 82, 24, 44, 64, 84, 26, 46, 66, 86};
    assert_tensor_exact(r, EH_F64, 2, SHAPE(3, 4), want);
    eh_release(a);
    eh_release(b);
    eh_release(r);
}

static void test_mixed_dtype_chain_and_where(void **state)
{
    (void)state;
    eh_tensor *x = T_F64(SHAPE(5), -2, -1, 0, 1, 2);
    eh_tensor *xi = t_from(EH_I32, 1, SHAPE(5), (const double[]){1, 2, 3, 4, 5});
    eh_scope_begin();
    eh_tensor *pos = eh_greater_scalar(x, 0.0);               /* bool */
    eh_tensor *sum = eh_add(x, xi);                           /* cast i32 -> f64, add */
    eh_tensor *r = eh_keep(eh_where(pos, sum, eh_negative(x)));
    eh_scope_end();
    assert_tensor_exact(r, EH_F64, 1, SHAPE(5), ((const double[]){2, 1, -0.0, 5, 7}));
    eh_release(x);
    eh_release(xi);
    eh_release(r);
}

static void test_intermediate_observed_later_is_computed(void **state)
{
    (void)state;
    eh_tensor *x = T_F64(SHAPE(3), 1, 2, 3);
    eh_tensor *a = eh_add(x, x);
    eh_tensor *b = eh_multiply(a, a); /* fused: a is not materialized */
    assert_tensor_exact(b, EH_F64, 1, SHAPE(3), ((const double[]){4, 16, 36}));
    assert_true(is_deferred(a));
    assert_tensor_exact(a, EH_F64, 1, SHAPE(3), ((const double[]){2, 4, 6}));
    eh_release(x);
    eh_release(a);
    eh_release(b);
}

static void test_chain_of_100000_ops(void **state)
{
    (void)state;
    eh_tensor *y = T_F64(SHAPE(4), 0, 1, 2, 3);
    for (int k = 0; k < 100000; k++) {
        eh_tensor *next = eh_add_scalar(y, 1.0);
        assert_non_null(next);
        eh_release(y);
        y = next;
    }
    assert_int_equal(eh_eval(y), EH_OK);
    assert_tensor_exact(y, EH_F64, 1, SHAPE(4), ((const double[]){100000, 100001, 100002, 100003}));
    eh_release(y);
}

static void test_chain_of_100000_ops_in_a_scope(void **state)
{
    (void)state;
    eh_tensor *x = T_F64(SHAPE(2), 0, 1);
    eh_scope_begin();
    eh_tensor *y = x;
    for (int k = 0; k < 100000; k++)
        y = eh_add_scalar(y, 1.0);
    eh_keep(y);
    eh_scope_end(); /* frees 99,999 deferred intermediates without recursion */
    assert_tensor_exact(y, EH_F64, 1, SHAPE(2), ((const double[]){100000, 100001}));
    eh_release(y);
    eh_release(x);
}

static void test_long_chain_peak_memory(void **state)
{
    (void)state;
    const int64_t n = 1 << 20; /* 4 MiB of f32 */
    eh_tensor *x = ramp(n, EH_F32);
    long long now, peak;
    eh__test_reset_storage_peak();
    eh__test_storage_bytes(&now, &peak);
    long long base = now, one = (long long)n * 4;
    eh_tensor *y = eh_copy(x);
    for (int k = 0; k < 200; k++) {
        eh_tensor *shifted = eh_add_scalar(y, 0.001);
        eh_tensor *next = eh_tanh(shifted);
        eh_release(shifted);
        eh_release(y);
        y = next;
    }
    assert_int_equal(eh_eval(y), EH_OK);
    eh__test_storage_bytes(&now, &peak);
    /* x, the copy kept alive below the chain, the result: a few tensors,
     * not 400 intermediates */
    assert_true(peak - base <= 4 * one);
    eh_release(y);
    eh_release(x);
}

static void test_lazy_tensor_used_after_switching_backend(void **state)
{
    (void)state;
    eh_tensor *x = T_F64(SHAPE(3), 1, 4, 9);
    eh_tensor *r = eh_sqrt(x); /* deferred under lazy */
    assert_true(is_deferred(r));
    eh_set_backend("ref");
    eh_tensor *s = eh_add(r, r); /* ref evaluates the lazy input on demand */
    assert_tensor_exact(s, EH_F64, 1, SHAPE(3), ((const double[]){2, 4, 6}));
    eh_set_backend("lazy");
    eh_release(x);
    eh_release(r);
    eh_release(s);
}

static void test_ref_tensor_used_by_lazy(void **state)
{
    (void)state;
    eh_set_backend("ref");
    eh_tensor *x = T_F64(SHAPE(2), 2, 3);
    eh_tensor *y = eh_square(x);
    eh_set_backend("lazy");
    eh_tensor *z = eh_add(y, x);
    assert_tensor_exact(z, EH_F64, 1, SHAPE(2), ((const double[]){6, 12}));
    eh_release(x);
    eh_release(y);
    eh_release(z);
}

static void test_unobserved_graph_is_freed(void **state)
{
    (void)state;
    long long before, after, peak;
    eh_tensor *x = T_F64(SHAPE(3), 1, 2, 3);
    eh__test_storage_bytes(&before, &peak);
    eh_scope_begin();
    (void)eh_exp(eh_multiply(eh_add(x, x), x));
    eh_scope_end();
    eh__test_storage_bytes(&after, &peak);
    assert_true(after == before); /* nothing computed, nothing left */
    eh_release(x);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        LAZY_TEST(test_ops_are_deferred_until_observed),
        LAZY_TEST(test_fused_chain_matches_ref),
        LAZY_TEST(test_broadcast_leaves_in_fused_region),
        LAZY_TEST(test_mixed_dtype_chain_and_where),
        LAZY_TEST(test_intermediate_observed_later_is_computed),
        LAZY_TEST(test_chain_of_100000_ops),
        LAZY_TEST(test_chain_of_100000_ops_in_a_scope),
        LAZY_TEST(test_long_chain_peak_memory),
        LAZY_TEST(test_lazy_tensor_used_after_switching_backend),
        LAZY_TEST(test_ref_tensor_used_by_lazy),
        LAZY_TEST(test_unobserved_graph_is_freed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
