/* The core: error record, tensor queries, host access, backends, op set. */
#include <math.h>
#include <pthread.h>
#include <string.h>
#include "eh_test.h"

/* ---- errors ---- */

static void test_error_record(void **state)
{
    (void)state;
    assert_int_equal(eh_last_error(), EH_OK);
    assert_string_equal(eh_error_message(), "");
    assert_null(eh_exp(NULL));
    assert_int_equal(eh_last_error(), EH_ERR_NULL_ARG);
    assert_non_null(strstr(eh_error_message(), "exp: argument 'x' is NULL"));
    eh_clear_error();
    assert_int_equal(eh_last_error(), EH_OK);
}

static void test_null_keeps_first_error(void **state)
{
    (void)state;
    eh_tensor *a = T_F64(SHAPE(2), 1, 2), *b = T_F64(SHAPE(3), 1, 2, 3);
    /* the inner add fails on shapes; the outer ops see NULL and keep it */
    eh_tensor *r = eh_sqrt(eh_multiply(eh_add(a, b), a));
    assert_failed(r, EH_ERR_SHAPE, "add: shapes (2,) and (3,)");
    eh_release(a);
    eh_release(b);
}

static void test_status_names_are_distinct(void **state)
{
    (void)state;
    for (int i = EH_OK; i <= EH_ERR_INTERNAL; i++) {
        const char *n = eh_status_name((eh_status)i);
        assert_non_null(n);
        assert_string_not_equal(n, "EH_ERR_UNKNOWN");
        for (int j = EH_OK; j < i; j++)
            assert_string_not_equal(n, eh_status_name((eh_status)j));
    }
    assert_string_equal(eh_status_name((eh_status)999), "EH_ERR_UNKNOWN");
    assert_string_equal(eh_status_name(EH_ERR_OVERFLOW), "EH_ERR_OVERFLOW");
}

static void test_long_messages_are_truncated(void **state)
{
    (void)state;
    char big[2000];
    memset(big, 'x', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    assert_int_equal(eh_set_backend(big), EH_ERR_BACKEND);
    assert_true(strlen(eh_error_message()) < 1024); /* truncated, not overflowed */
    eh_clear_error();
}

static void *fail_in_thread(void *arg)
{
    (void)arg;
    (void)eh_exp(NULL);
    return (void *)(intptr_t)eh_last_error();
}

static void test_errors_are_thread_local(void **state)
{
    (void)state;
    pthread_t th;
    void *their = NULL;
    assert_int_equal(pthread_create(&th, NULL, fail_in_thread, NULL), 0);
    assert_int_equal(pthread_join(th, &their), 0);
    assert_int_equal((intptr_t)their, EH_ERR_NULL_ARG);
    assert_int_equal(eh_last_error(), EH_OK); /* this thread saw nothing */
}

/* ---- tensors and host access ---- */

static void test_convert_and_query(void **state)
{
    (void)state;
    const int32_t v[6] = {1, 2, 3, 4, 5, 6};
    eh_tensor *t = eh_convert_to_tensor(v, 2, SHAPE(2, 3), EH_I32);
    assert_non_null(t);
    assert_int_equal(eh_ndim(t), 2);
    assert_int_equal(eh_shape(t)[0], 2);
    assert_int_equal(eh_shape(t)[1], 3);
    assert_int_equal(eh_dim(t, -1), 3);
    assert_int_equal(eh_dim(t, 2), -1);
    assert_int_equal(eh_last_error(), EH_ERR_AXIS);
    eh_clear_error();
    assert_int_equal(eh_get_dtype(t), EH_I32);
    assert_int_equal(eh_size(t), 6);
    assert_int_equal(eh_nbytes(t), 24);
    assert_string_equal(eh_get_device(t), "cpu");
    int32_t back[6] = {0};
    assert_int_equal(eh_to_buffer(t, back, sizeof back), EH_OK);
    assert_memory_equal(back, v, sizeof v);
    assert_int_equal(eh_to_buffer(t, back, 8), EH_ERR_INVALID_ARG);
    eh_clear_error();
    assert_non_null(eh_data_i32(t));
    assert_null(eh_data_f32(t));
    assert_int_equal(eh_last_error(), EH_ERR_DTYPE);
    eh_clear_error();
    assert_true(isnan(eh_item(t))); /* 6 elements */
    assert_int_equal(eh_last_error(), EH_ERR_SHAPE);
    eh_clear_error();
    eh_release(t);
}

static void test_queries_on_null(void **state)
{
    (void)state;
    assert_int_equal(eh_ndim(NULL), -1);
    assert_null(eh_shape(NULL));
    assert_int_equal(eh_size(NULL), -1);
    assert_int_equal(eh_nbytes(NULL), 0);
    assert_int_equal(eh_get_dtype(NULL), EH_DTYPE_COUNT);
    assert_null(eh_data(NULL));
    assert_int_equal(eh_last_error(), EH_ERR_NULL_ARG);
    eh_clear_error();
    assert_int_equal(eh_to_buffer(NULL, NULL, 0), EH_ERR_NULL_ARG);
    eh_clear_error();
    assert_int_equal(eh_eval(NULL), EH_ERR_NULL_ARG);
    eh_clear_error();
}

static void test_scalar_and_item(void **state)
{
    (void)state;
    eh_tensor *s = eh_scalar(2.5, EH_F32);
    assert_int_equal(eh_ndim(s), 0);
    assert_int_equal(eh_size(s), 1);
    assert_true(eh_item(s) == 2.5);
    eh_tensor *i = eh_scalar(-3.9, EH_I64); /* truncates toward zero */
    assert_true(eh_item(i) == -3.0);
    eh_release(s);
    eh_release(i);
}

static void test_empty_tensor(void **state)
{
    (void)state;
    eh_tensor *t = eh_convert_to_tensor(NULL, 2, SHAPE(0, 4), EH_F32);
    assert_non_null(t);
    assert_int_equal(eh_size(t), 0);
    assert_non_null(eh_data(t)); /* storage pointer exists even when empty */
    assert_int_equal(eh_to_buffer(t, NULL, 0), EH_OK);
    eh_release(t);
}

static void test_bad_shapes(void **state)
{
    (void)state;
    const double v[1] = {0};
    assert_failed(eh_convert_to_tensor(v, 2, SHAPE(2, -1), EH_F64), EH_ERR_NEGATIVE_SIZE,
                  "convert_to_tensor: negative dimension in shape (2, -1)");
    assert_failed(eh_convert_to_tensor(v, 3, SHAPE(INT64_C(1) << 40, INT64_C(1) << 40, 1 << 20),
                                       EH_F64),
                  EH_ERR_OVERFLOW, "more than INT64_MAX");
    assert_failed(eh_convert_to_tensor(v, 1, SHAPE(INT64_C(1) << 62), EH_F64), EH_ERR_OVERFLOW,
                  "size_t");
    assert_failed(eh_convert_to_tensor(v, 9, SHAPE(1, 1, 1, 1, 1, 1, 1, 1, 1), EH_F64),
                  EH_ERR_SHAPE, "9 dimensions");
    assert_failed(eh_convert_to_tensor(v, -1, NULL, EH_F64), EH_ERR_SHAPE, NULL);
    assert_failed(eh_convert_to_tensor(v, 1, SHAPE(1), (eh_dtype)42), EH_ERR_DTYPE, "42");
    assert_failed(eh_convert_to_tensor(NULL, 1, SHAPE(3), EH_F64), EH_ERR_NULL_ARG, "data");
    assert_failed(eh_convert_to_tensor(v, 1, NULL, EH_F64), EH_ERR_NULL_ARG, "shape");
    /* an overflowing product with a zero dimension is simply empty */
    eh_tensor *e = eh_convert_to_tensor(NULL, 3, SHAPE(INT64_C(1) << 40, 0, INT64_C(1) << 40), EH_F64);
    assert_non_null(e);
    assert_int_equal(eh_size(e), 0);
    eh_release(e);
}

static void test_huge_allocation_is_nomem(void **state)
{
    (void)state;
    /* 2^45 doubles = 256 TiB: a valid shape, more than any address space */
    assert_failed(eh_zeros(1, SHAPE(INT64_C(1) << 45), EH_F64), EH_ERR_NOMEM, "out of memory");
}

/* ---- backends and the op set ---- */

static void test_backend_selection(void **state)
{
    (void)state;
    const char *names[8];
    int n = eh_list_backends(names, 8);
    assert_true(n >= 1);
    int has_ref = 0;
    for (int k = 0; k < n; k++)
        has_ref |= strcmp(names[k], "ref") == 0;
    assert_true(has_ref);
    assert_int_equal(eh_list_backends(NULL, 0), n);
    const char *before = eh_get_backend();
    assert_non_null(before);
    assert_int_equal(eh_set_backend("ref"), EH_OK);
    assert_string_equal(eh_get_backend(), "ref");
    assert_int_equal(eh_set_backend("cuda"), EH_ERR_BACKEND);
    assert_non_null(strstr(eh_error_message(), "unknown backend 'cuda'"));
    assert_string_equal(eh_get_backend(), "ref"); /* unchanged, no fallback */
    eh_clear_error();
    assert_int_equal(eh_set_backend(NULL), EH_ERR_NULL_ARG);
    eh_clear_error();
    assert_int_equal(eh_set_backend(before), EH_OK);
}

static void test_op_set_queries(void **state)
{
    (void)state;
    int n = eh_op_count();
    assert_true(n > 100);
    for (int op = 0; op < n; op++) {
        const char *name = eh_op_name(op);
        assert_non_null(name);
        assert_int_equal(eh_op_lookup(name), op); /* names are unique */
    }
    assert_null(eh_op_name(-1));
    assert_null(eh_op_name(n));
    assert_int_equal(eh_op_lookup("no_such_op"), -1);
    assert_int_equal(eh_op_lookup(NULL), -1);
    assert_string_equal(eh_op_name(eh_op_lookup("matmul")), "matmul");
}

static void test_every_op_supported_by_every_backend_table(void **state)
{
    (void)state;
    const char *names[8];
    int nb = eh_list_backends(names, 8);
    for (int b = 0; b < nb; b++)
        for (int op = 0; op < eh_op_count(); op++)
            if (eh_backend_supports(names[b], op) != 1)
                fail_msg("backend %s has no kernel for %s", names[b], eh_op_name(op));
    assert_int_equal(eh_backend_supports("nope", 0), -1);
    assert_int_equal(eh_backend_supports("ref", -1), -1);
}

/* Every op in ops.def has a frontend function eh_<op>: taking each one's
 * address fails to link if one is missing. */
typedef void (*any_fn)(void);
#define EH_OP(name, kind, n_in) (any_fn)eh_##name,
static const any_fn frontends[] = {
#include <eh/ops.def>
};

static void test_every_op_has_a_frontend(void **state)
{
    (void)state;
    assert_int_equal(sizeof frontends / sizeof frontends[0], (size_t)eh_op_count());
    for (size_t k = 0; k < sizeof frontends / sizeof frontends[0]; k++)
        assert_non_null(frontends[k]);
}

static void test_version(void **state)
{
    (void)state;
    assert_string_equal(eh_version(), EH_VERSION_STRING);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        EH_TEST(test_error_record),
        EH_TEST(test_null_keeps_first_error),
        EH_TEST(test_status_names_are_distinct),
        EH_TEST(test_long_messages_are_truncated),
        EH_TEST(test_errors_are_thread_local),
        EH_TEST(test_convert_and_query),
        EH_TEST(test_queries_on_null),
        EH_TEST(test_scalar_and_item),
        EH_TEST(test_empty_tensor),
        EH_TEST(test_bad_shapes),
        EH_TEST(test_huge_allocation_is_nomem),
        EH_TEST(test_backend_selection),
        EH_TEST(test_op_set_queries),
        EH_TEST(test_every_op_supported_by_every_backend_table),
        EH_TEST(test_every_op_has_a_frontend),
        EH_TEST(test_version),
    };
    return EH_RUN_TESTS(tests);
}
