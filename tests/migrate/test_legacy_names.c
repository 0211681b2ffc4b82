/* tests/migrate/test_legacy_names.c -- a function in a legacy directory
 * (ops/<backend>/) that is not named eh_<backend>_<op> is listed for a
 * person with a message naming it as it is (it used to be read as if it
 * had the eh_<backend>_ prefix: past the end of short names). */
#include "migrate_test.h"

#include <stdlib.h>

static void test_plain_names(void **state)
{
    (void)state;
    char *dir = tt_tmpdir();
    free(tt_write(dir, "ops/blas/u.c", "int go(void) { return 1; }\n"
                                         "int blas_calls(void) { return 2; }\n"));
    tt_run r = mt_migrate(dir, NULL, "plan", ".", NULL);
    assert_int_equal(r.status, 1);
    assert_string_equal(r.out, "");
    assert_true(tt_contains(r.err, "go is not moved: it is not an eh_blas_<op> implementation"));
    assert_true(tt_contains(r.err, "blas_calls is not moved: it is not an eh_blas_<op> "
                                   "implementation"));
    tt_free(&r);
    tt_rmtree(dir);
    free(dir);
}

static void test_not_an_op(void **state)
{
    (void)state;
    char *dir = tt_tmpdir();
    free(tt_write(dir, "ops/blas/u.c", "int eh_blas_frobnicate(void) { return 1; }\n"));
    tt_run r = mt_migrate(dir, NULL, "plan", ".", NULL);
    assert_int_equal(r.status, 1);
    assert_true(tt_contains(r.err, "no frontend op eh_frobnicate in libeh/ops.def"));
    tt_free(&r);
    tt_rmtree(dir);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plain_names),
        cmocka_unit_test(test_not_an_op),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
