/* Views and the block cache (docs/memory.md), on the backend the run
 * selects (EH_TEST_BACKEND: every backend in turn under `make test`).
 *
 *  - reshape, expand_dims, squeeze and leading-axis slices of a
 *    materialized tensor allocate no storage (the storage counter does
 *    not move) and read the input's elements in place;
 *  - writing never changes another tensor: through a view (copy-on-write),
 *    through the input after a view was taken, through a tensor whose
 *    writable pointer was handed out before the view (views of it copy);
 *  - the read-only accessors never copy;
 *  - freed large blocks are reused, bounded, released by eh_trim_memory,
 *    and the cache survives threads allocating and freeing at once. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "eh_test.h"

static long long storage_now(void)
{
    long long now, peak;
    eh__test_storage_bytes(&now, &peak);
    return now;
}

/* A materialized 1-D tensor of i % 1000 (a deferring backend computes it
 * here, so that the views below are views of stored elements). */
static eh_tensor *ramp(int64_t n, eh_dtype dt)
{
    double *v = malloc((size_t)n * sizeof *v);
    for (int64_t i = 0; i < n; i++)
        v[i] = (double)(i % 1000);
    eh_tensor *t = t_from(dt, 1, SHAPE(n), v);
    free(v);
    assert_int_equal(eh_eval(t), EH_OK);
    return t;
}

static void use_backend(void)
{
    const char *b = getenv("EH_TEST_BACKEND");
    if (b)
        assert_int_equal(eh_set_backend(b), EH_OK);
}

/* Every view op: O(1), no storage, the input's elements. */
static void test_views_share_storage(void **state)
{
    (void)state;
    use_backend();
    eh_tensor *x = ramp(6000, EH_F32);
    const float *xd = eh_data_const_f32(x);
    assert_non_null(xd);
    long long before = storage_now();
    eh_scope_begin();
    eh_tensor *r = eh_reshape(x, 2, SHAPE(60, 100));
    eh_tensor *e = eh_expand_dims(r, 1);                      /* (60, 1, 100) */
    eh_tensor *q = eh_squeeze(e, NULL, 0);                    /* (60, 100)    */
    eh_tensor *s = eh_slice(r, (const int64_t[]){7}, (const int64_t[]){19}, NULL, 1); /* rows 7..18 */
    eh_tensor *f = eh_reshape(s, 1, SHAPE(-1));
    assert_int_equal(storage_now(), before);                  /* nothing copied */
    assert_true(eh_data_const_f32(r) == xd);
    assert_true(eh_data_const_f32(e) == xd);
    assert_true(eh_data_const_f32(q) == xd);
    assert_true(eh_data_const_f32(s) == xd + 700);
    assert_true(eh_data_const_f32(f) == xd + 700);
    assert_int_equal(eh_dim(s, 0), 12);
    assert_true(t_at(f, 0) == 700 && t_at(f, 1199) == (1899 % 1000));
    assert_int_equal(storage_now(), before);                  /* reading copies nothing */
    eh_scope_end();
    eh_release(x);
}

/* Views of a result that is not computed yet (deferred on lazy; computed
 * at once elsewhere): once evaluated they share its storage too, the only
 * new block being the result's own, and writes through them stay private. */
static void test_views_of_deferred_results_share(void **state)
{
    (void)state;
    use_backend();
    eh_tensor *x = ramp(6000, EH_F32);
    long long before = storage_now();
    eh_scope_begin();
    eh_tensor *y = eh_add(x, x);
    eh_tensor *r = eh_reshape(y, 2, SHAPE(60, 100));
    eh_tensor *e = eh_expand_dims(r, 1);                      /* (60, 1, 100) */
    eh_tensor *q = eh_squeeze(e, NULL, 0);                    /* (60, 100)    */
    assert_int_equal(eh_eval(q), EH_OK);
    assert_int_equal(eh_eval(r), EH_OK);
    assert_int_equal(eh_eval(e), EH_OK);
    assert_int_equal(storage_now() - before, 6000 * (long long)sizeof(float)); /* y's block only */
    const float *yd = eh_data_const_f32(y);
    assert_true(eh_data_const_f32(r) == yd);
    assert_true(eh_data_const_f32(e) == yd);
    assert_true(eh_data_const_f32(q) == yd);
    assert_true(t_at(q, 5999) == 2 * 999.0);
    float *qw = eh_data_f32(q);                               /* copy-on-write */
    qw[1] = -1.0f;
    assert_true(t_at(y, 1) == 2.0 && t_at(r, 1) == 2.0 && t_at(q, 1) == -1.0);
    eh_scope_end();
    eh_release(x);
}

/* A view outlives its input: the storage lives while any view does. */
static void test_view_outlives_input(void **state)
{
    (void)state;
    use_backend();
    eh_tensor *x = ramp(5000, EH_F64);
    eh_tensor *v = eh_reshape(x, 2, SHAPE(50, 100));
    eh_release(x);
    assert_true(t_at(v, 4999) == 999);
    eh_tensor *w = eh_slice(v, (const int64_t[]){49}, NULL, NULL, 1);
    eh_release(v);
    assert_true(t_at(w, 0) == 900 && t_at(w, 99) == 999);
    eh_release(w);
}

/* Writes stay private, in every direction. */
static void test_writes_stay_private(void **state)
{
    (void)state;
    use_backend();
    eh_tensor *x = ramp(4096, EH_F32);
    eh_tensor *v = eh_reshape(x, 2, SHAPE(64, 64));
    long long before = storage_now();
    float *vw = eh_data_f32(v);                               /* copy-on-write */
    assert_true(storage_now() > before);
    vw[0] = -1.0f;
    assert_true(t_at(x, 0) == 0.0 && t_at(v, 0) == -1.0);

    eh_tensor *y = eh_expand_dims(x, 0);                      /* shares x */
    float *xw = eh_data_f32(x);                               /* x copies: y keeps the old */
    xw[5] = -5.0f;
    assert_true(t_at(y, 5) == 5.0 && t_at(x, 5) == -5.0);

    /* x's writable pointer is out: a view of x must copy, or writes
     * through xw would show in it */
    long long mid = storage_now();
    eh_tensor *z = eh_reshape(x, 2, SHAPE(2, 2048));
    assert_int_equal(eh_eval(z), EH_OK); /* (a deferring backend copies now) */
    assert_true(storage_now() > mid);
    xw[6] = -6.0f;
    assert_true(t_at(z, 6) == 6.0 && t_at(x, 6) == -6.0);
    eh_release(x);
    eh_release(v);
    eh_release(y);
    eh_release(z);
}

/* The read-only accessors never copy, even on a shared block; they check
 * the dtype like the writable ones. */
static void test_const_accessors(void **state)
{
    (void)state;
    use_backend();
    eh_tensor *x = ramp(1000, EH_I64);
    eh_tensor *v = eh_reshape(x, 2, SHAPE(10, 100));
    long long before = storage_now();
    assert_true(eh_data_const_i64(v) == eh_data_const_i64(x));
    assert_true(eh_data_const(v) == (const void *)eh_data_const_i64(x));
    assert_int_equal(storage_now(), before);
    assert_null(eh_data_const_f32(v));
    assert_int_equal(eh_last_error(), EH_ERR_DTYPE);
    assert_non_null(strstr(eh_error_message(), "data_const_f32"));
    eh_clear_error();
    assert_null(eh_data_const_f64(NULL));
    assert_int_equal(eh_last_error(), EH_ERR_NULL_ARG);
    eh_clear_error();
    eh_release(x);
    eh_release(v);
}

/* Slices that are not whole leading rows, and small tensors, still copy
 * and give the same values. */
static void test_non_views_copy(void **state)
{
    (void)state;
    use_backend();
    static const double zeros[400];
    eh_tensor *x = t_from(EH_F64, 2, SHAPE(4, 100), zeros);
    double *w = eh_data_f64(x);
    for (int i = 0; i < 400; i++)
        w[i] = i;
    eh_tensor *cols = eh_slice(x, (const int64_t[]){0, 10}, (const int64_t[]){4, 20}, NULL, 2);
    eh_tensor *step = eh_slice(x, (const int64_t[]){0}, (const int64_t[]){4}, (const int64_t[]){2}, 1);
    assert_true(t_at(cols, 0) == 10 && t_at(cols, 10) == 110);
    assert_true(t_at(step, 100) == 200);
    w[10] = -1; /* x was exposed: no view shares it */
    assert_true(t_at(cols, 0) == 10);
    eh_release(x);
    eh_release(cols);
    eh_release(step);
}

/* ---- the block cache ---------------------------------------------------- */

static void test_freed_large_blocks_are_reused(void **state)
{
    (void)state;
    use_backend();
    eh_trim_memory();
    int blocks;
    long long bytes;
    eh_tensor *a = eh_full(1, SHAPE(3 << 20), 1.0, EH_F32); /* 12 MiB */
    assert_int_equal(eh_eval(a), EH_OK);
    eh_release(a);
    eh__test_block_cache(&blocks, &bytes);
    assert_int_equal(blocks, 1);
    assert_true(bytes >= (12 << 20));
    eh_tensor *b = eh_full(1, SHAPE(3 << 20), 2.0, EH_F32); /* takes the cached block */
    assert_int_equal(eh_eval(b), EH_OK);
    eh__test_block_cache(&blocks, &bytes);
    assert_int_equal(blocks, 0);
    assert_true(t_at(b, 12345) == 2.0);
    eh_release(b);
    /* bounded: many sizes freed, at most 8 blocks kept */
    for (int k = 0; k < 20; k++) {
        eh_tensor *t = eh_full(1, SHAPE(((int64_t)1 << 20) * (2 + k)), 0.0, EH_F32);
        assert_int_equal(eh_eval(t), EH_OK);
        eh_release(t);
    }
    eh__test_block_cache(&blocks, &bytes);
    assert_true(blocks >= 1 && blocks <= 8);
    assert_true(bytes <= ((long long)1 << 30));
    assert_true(eh_trim_memory() == (size_t)bytes);
    eh__test_block_cache(&blocks, &bytes);
    assert_int_equal(blocks, 0);
    assert_int_equal(bytes, 0);
    assert_true(eh_trim_memory() == 0);
}

static void *churn(void *arg)
{
    int64_t n = (int64_t)(intptr_t)arg;
    for (int k = 0; k < 30; k++) {
        eh_tensor *t = eh_full(1, SHAPE(n + k * 4096), (double)k, EH_F32);
        if (!t || eh_eval(t) != EH_OK || t_at(t, n - 1) != (double)k)
            return (void *)1;
        eh_release(t);
    }
    return NULL;
}

static void test_block_cache_threads(void **state)
{
    (void)state;
    use_backend();
    pthread_t th[4];
    for (int k = 0; k < 4; k++)
        assert_int_equal(pthread_create(&th[k], NULL, churn, (void *)(intptr_t)((int64_t)(1 + k) << 20)), 0);
    for (int k = 0; k < 4; k++) {
        void *r;
        pthread_join(th[k], &r);
        assert_null(r);
    }
    eh_trim_memory();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_views_share_storage),
        cmocka_unit_test(test_views_of_deferred_results_share),
        cmocka_unit_test(test_view_outlives_input),
        cmocka_unit_test(test_writes_stay_private),
        cmocka_unit_test(test_const_accessors),
        cmocka_unit_test(test_non_views_copy),
        cmocka_unit_test(test_freed_large_blocks_are_reused),
        cmocka_unit_test(test_block_cache_threads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
