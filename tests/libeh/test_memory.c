/* Reference counts and scopes: nested expressions leak nothing (run under
 * LeakSanitizer by `make asan`), keep moves ownership, misuse is an error. */
#include "eh_test.h"

static eh_tensor *vec3(double a, double b, double c) { return T_F64(SHAPE(3), a, b, c); }

static void test_refcount_retain_release(void **state)
{
    (void)state;
    eh_tensor *t = vec3(1, 2, 3);
    assert_int_equal(eh_refcount(t), 1);
    assert_ptr_equal(eh_retain(t), t);
    assert_int_equal(eh_refcount(t), 2);
    eh_release(t);
    assert_int_equal(eh_refcount(t), 1);
    eh_release(t);
    eh_release(NULL); /* NULL-safe */
    assert_null(eh_retain(NULL));
    assert_int_equal(eh_refcount(NULL), 0);
}

static void test_scope_frees_temporaries(void **state)
{
    (void)state;
    eh_tensor *x = vec3(1, 2, 3), *m = vec3(1, 1, 1), *s = vec3(2, 2, 2);
    assert_int_equal(eh_scope_begin(), EH_OK);
    assert_int_equal(eh_scope_depth(), 1);
    eh_tensor *z = eh_keep(eh_divide(eh_subtract(x, m), s));
    assert_int_equal(eh_scope_end(), EH_OK);
    assert_int_equal(eh_scope_depth(), 0);
    assert_tensor_exact(z, EH_F64, 1, SHAPE(3), ((const double[]){0, 0.5, 1}));
    eh_release(z);
    eh_release(x);
    eh_release(m);
    eh_release(s);
}

static void test_scope_nested_keep_moves_to_parent(void **state)
{
    (void)state;
    eh_tensor *x = vec3(1, 2, 3);
    eh_scope_begin();
    eh_scope_begin();
    eh_tensor *y = eh_keep(eh_add(x, x)); /* now owned by the outer scope */
    eh_scope_end();
    assert_tensor_exact(y, EH_F64, 1, SHAPE(3), ((const double[]){2, 4, 6}));
    eh_tensor *kept = eh_keep(eh_multiply(y, y)); /* to the caller */
    eh_scope_end(); /* frees y */
    assert_tensor_exact(kept, EH_F64, 1, SHAPE(3), ((const double[]){4, 16, 36}));
    eh_release(kept);
    eh_release(x);
}

static void test_release_inside_scope_is_safe(void **state)
{
    (void)state;
    eh_tensor *x = vec3(1, 2, 3);
    eh_scope_begin();
    eh_tensor *y = eh_add(x, x);
    eh_release(y); /* takes the scope's reference: scope_end must not free again */
    eh_tensor *z = eh_add(x, x);
    eh_retain(z); /* an extra reference outlives the scope */
    eh_scope_end();
    assert_int_equal(eh_refcount(z), 1);
    assert_tensor_exact(z, EH_F64, 1, SHAPE(3), ((const double[]){2, 4, 6}));
    eh_release(z);
    eh_release(x);
}

static void test_inputs_made_before_scope_survive(void **state)
{
    (void)state;
    eh_tensor *x = vec3(1, 2, 3);
    eh_scope_begin();
    (void)eh_exp(eh_add(x, x));
    eh_scope_end();
    assert_int_equal(eh_refcount(x), 1);
    assert_tensor_exact(x, EH_F64, 1, SHAPE(3), ((const double[]){1, 2, 3}));
    eh_release(x);
}

static void test_scope_end_without_begin(void **state)
{
    (void)state;
    assert_int_equal(eh_scope_end(), EH_ERR_SCOPE);
    assert_int_equal(eh_last_error(), EH_ERR_SCOPE);
    eh_clear_error();
}

static void test_keep_outside_scope_is_identity(void **state)
{
    (void)state;
    eh_tensor *x = vec3(1, 2, 3);
    assert_ptr_equal(eh_keep(x), x);
    assert_null(eh_keep(NULL));
    eh_release(x);
}

static void test_many_temporaries_in_one_scope(void **state)
{
    (void)state;
    eh_tensor *x = vec3(1, 2, 3);
    eh_scope_begin();
    eh_tensor *acc = eh_copy(x);
    for (int k = 0; k < 1000; k++)
        acc = eh_add(acc, x);
    eh_tensor *r = eh_keep(acc);
    eh_scope_end();
    assert_tensor_exact(r, EH_F64, 1, SHAPE(3), ((const double[]){1001, 2002, 3003}));
    eh_release(r);
    eh_release(x);
}

/* Allocation counting assumes an eager backend: lazy allocates at
 * evaluation, not at the call. */
static void test_out_of_memory_is_reported(void **state)
{
    (void)state;
    const char *backend = eh_get_backend();
    eh_set_backend("ref");
    eh_tensor *x = vec3(1, 2, 3);
    eh__test_fail_alloc(2); /* 1: output header, 2: its storage */
    assert_failed(eh_add(x, x), EH_ERR_NOMEM, "out of memory");
    eh__test_fail_alloc(1);
    assert_failed(eh_add(x, x), EH_ERR_NOMEM, "add");
    eh__test_fail_alloc(0);
    eh_tensor *ok = eh_add(x, x); /* and nothing is broken afterwards */
    assert_non_null(ok);
    eh_release(ok);
    eh_release(x);
    eh_set_backend(backend);
}

static void test_out_of_memory_inside_scope(void **state)
{
    (void)state;
    const char *backend = eh_get_backend();
    eh_set_backend("ref");
    eh_tensor *x = vec3(1, 2, 3);
    eh_scope_begin();
    eh__test_fail_alloc(2);
    eh_tensor *r = eh_sqrt(eh_add(x, x)); /* add fails, sqrt sees NULL */
    assert_failed(r, EH_ERR_NOMEM, NULL);
    eh_scope_end();
    eh_release(x);
    eh_set_backend(backend);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        EH_TEST(test_refcount_retain_release),
        EH_TEST(test_scope_frees_temporaries),
        EH_TEST(test_scope_nested_keep_moves_to_parent),
        EH_TEST(test_release_inside_scope_is_safe),
        EH_TEST(test_inputs_made_before_scope_survive),
        EH_TEST(test_scope_end_without_begin),
        EH_TEST(test_keep_outside_scope_is_identity),
        EH_TEST(test_many_temporaries_in_one_scope),
        EH_TEST(test_out_of_memory_is_reported),
        EH_TEST(test_out_of_memory_inside_scope),
    };
    return EH_RUN_TESTS(tests);
}
