/* tests/support/eh_test.h -- helpers shared by libeh's cmocka tests.
 *
 * Include after <stdarg.h>, <stddef.h>, <setjmp.h>, <stdint.h> and
 * <cmocka.h> (this header does so itself). */
#ifndef EH_TEST_H
#define EH_TEST_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <eh/eh.h>

/* Shape literal: SHAPE(2, 3) -> (const int64_t[]){2, 3}. */
#define SHAPE(...) ((const int64_t[]){__VA_ARGS__})
#define NDIM(...) ((int)(sizeof((const int64_t[]){__VA_ARGS__}) / sizeof(int64_t)))

/* Make a tensor of any dtype from double values (converted like eh_cast).
 * values may be NULL for size 0.  Fails the test on error. */
eh_tensor *t_from(eh_dtype dtype, int ndim, const int64_t *shape, const double *values);
#define T_F64(shape_, ...) t_from(EH_F64, (int)(sizeof(shape_) / sizeof(int64_t)), shape_, (const double[]){__VA_ARGS__})
#define T_F32(shape_, ...) t_from(EH_F32, (int)(sizeof(shape_) / sizeof(int64_t)), shape_, (const double[]){__VA_ARGS__})

/* Assert shape and dtype; then values within atol + rtol*|expected|
 * (NaN equals NaN, infinities must match exactly).  Prints the first
 * mismatch with its flat index.  Releases nothing. */
void assert_tensor(const eh_tensor *t, eh_dtype dtype, int ndim, const int64_t *shape,
                   const double *expected, double atol, double rtol);
/* Same, exact comparison. */
#define assert_tensor_exact(t, dtype, ndim, shape, expected) \
    assert_tensor(t, dtype, ndim, shape, expected, 0.0, 0.0)

/* Assert an op failed: result NULL and eh_last_error() == code, with a
 * message containing `needle` (NULL: any).  Clears the error after. */
void assert_failed(const void *result, eh_status code, const char *needle);

/* Element k of t as a double (materializes). */
double t_at(const eh_tensor *t, int64_t k);

/* cmocka group setup/teardown: clear errors, pick EH_TEST_BACKEND (or the
 * default), and check every scope was closed. */
int eh_test_setup(void **state);
int eh_test_teardown(void **state);

/* Run a cmocka group with eh_test_setup/teardown around each test. */
#define EH_RUN_TESTS(tests) cmocka_run_group_tests(tests, NULL, NULL)
#define EH_TEST(fn) cmocka_unit_test_setup_teardown(fn, eh_test_setup, eh_test_teardown)

/* Internal test hooks from libeh (not in the public headers). */
void eh__test_fail_alloc(int nth);
void eh__test_storage_bytes(long long *now, long long *peak);
void eh__test_reset_storage_peak(void);

#endif
