/* Smoke test of the core path: create, add with broadcasting, read back. */
#include "eh_test.h"

static void test_add_broadcast(void **state)
{
    (void)state;
    eh_tensor *a = T_F64(SHAPE(2, 3), 1, 2, 3, 4, 5, 6);
    eh_tensor *b = T_F64(SHAPE(3), 10, 20, 30);
    eh_tensor *c = eh_add(a, b);
    assert_tensor_exact(c, EH_F64, 2, SHAPE(2, 3), ((const double[]){11, 22, 33, 14, 25, 36}));
    eh_release(a);
    eh_release(b);
    eh_release(c);
}

static void test_shape_mismatch(void **state)
{
    (void)state;
    eh_tensor *a = T_F64(SHAPE(2), 1, 2);
    eh_tensor *b = T_F64(SHAPE(3), 1, 2, 3);
    assert_failed(eh_add(a, b), EH_ERR_SHAPE, "(2,) and (3,)");
    eh_release(a);
    eh_release(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        EH_TEST(test_add_broadcast),
        EH_TEST(test_shape_mismatch),
    };
    return EH_RUN_TESTS(tests);
}
