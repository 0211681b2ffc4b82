/* EH_BACKEND naming an unknown backend is an error, never a silent
 * fallback.  The choice is made once per process, so this test sets the
 * variable before libeh's first use. */
#include <stdlib.h>
#include <string.h>
#include "eh_test.h"

static void test_unknown_env_backend_fails_every_op(void **state)
{
    (void)state;
    assert_null(eh_get_backend());
    assert_int_equal(eh_last_error(), EH_ERR_BACKEND);
    assert_non_null(strstr(eh_error_message(), "EH_BACKEND='no-such-backend'"));
    assert_non_null(strstr(eh_error_message(), "ref"));
    eh_clear_error();
    eh_tensor *a = T_F64(SHAPE(2), 1, 2); /* convert_to_tensor needs no backend */
    assert_failed(eh_add(a, a), EH_ERR_BACKEND, "not a backend");
    /* an explicit choice repairs it */
    assert_int_equal(eh_set_backend("ref"), EH_OK);
    eh_tensor *b = eh_add(a, a);
    assert_tensor_exact(b, EH_F64, 1, SHAPE(2), ((const double[]){2, 4}));
    eh_release(a);
    eh_release(b);
}

int main(void)
{
    setenv("EH_BACKEND", "no-such-backend", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unknown_env_backend_fails_every_op),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
