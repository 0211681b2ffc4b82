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

/* A 1-D tensor of n values (t_from with shape {n}). */
eh_tensor *t_vec(eh_dtype dtype, int64_t n, const double *values);

/* Assert shape and dtype; then values within atol + rtol*|expected|
 * (NaN equals NaN, infinities must match exactly).  Prints the first
 * mismatch with its flat index.  Releases nothing. */
void assert_tensor(const eh_tensor *t, eh_dtype dtype, int ndim, const int64_t *shape,
                   const double *expected, double atol, double rtol);
/* Same, exact comparison. */
#define assert_tensor_exact(t, dtype, ndim, shape, expected) \
    assert_tensor(t, dtype, ndim, shape, expected, 0.0, 0.0)

/* Assert dtype, shape and values of one named case: every failure message
 * starts with ctx (say "add f32 i32"), so a loop over ops and dtypes says
 * which one failed.  NaN matches NaN; infinities must match exactly.  With
 * rtol == 0 every other value must match exactly too, and a float zero
 * must have the expected sign (-0.0 is not 0.0, unlike assert_tensor_exact);
 * with rtol > 0, |got - want| <= rtol * |want|, or |got| <= rtol where
 * want is 0.  want may be NULL when the shape is empty.  Releases nothing. */
void assert_tensor_case(const char *ctx, const eh_tensor *t, eh_dtype dtype, int ndim,
                        const int64_t *shape, const double *want, double rtol);
/* The same for a 1-D result of n elements. */
void assert_vector_case(const char *ctx, const eh_tensor *t, eh_dtype dtype, int64_t n,
                        const double *want, double rtol);

/* Assert t is a non-NULL f16 tensor of n elements holding exactly the bit
 * patterns want[0..n) (tells -0 from +0 and one NaN from another). */
void assert_f16_bits(eh_tensor *t, int64_t n, const uint16_t *want);

/* Assert an op failed: result NULL and eh_last_error() == code, with a
 * message containing `needle` (NULL: any).  Clears the error after. */
void assert_failed(const void *result, eh_status code, const char *needle);

/* Element k of t as a double (materializes). */
double t_at(const eh_tensor *t, int64_t k);

/* 1 unless the current backend defers work (lazy allocates storage when a
 * tensor is evaluated, not when the op is called); 0 when no backend is
 * selected yet. */
int backend_is_eager(void);

/* Does this libeh have backend `name` (built in, or loaded)? */
int t_has_backend(const char *name);
/* Built-in backend k of ref, blas and lazy (k = 0, 1, 2) selected; NULL,
 * and nothing selected, when this libeh is built without it. */
const char *t_use_backend(int k);

/* cmocka group setup/teardown: clear errors, pick EH_TEST_BACKEND (or the
 * default), and check every scope was closed. */
int eh_test_setup(void **state);
int eh_test_teardown(void **state);

/* Run a cmocka group with eh_test_setup/teardown around each test. */
#define EH_RUN_TESTS(tests) cmocka_run_group_tests(tests, NULL, NULL)
#define EH_TEST(fn) cmocka_unit_test_setup_teardown(fn, eh_test_setup, eh_test_teardown)

/* Short names for tests written against shape literals: define
 * EH_TEST_SHORTHAND before including this header.  Opt-in, because names
 * as short as T and END would clash with a test file's own. */
#ifdef EH_TEST_SHORTHAND
/* Number of dims of a shape literal: NDIMS(SHAPE(2, 3)) == 2. */
#define NDIMS(shape_) ((int)(sizeof(shape_) / sizeof(int64_t)))
/* A tensor of any dtype from a shape literal and values. */
#define T(dtype, shape_, ...) t_from(dtype, NDIMS(shape_), shape_, (const double[]){__VA_ARGS__})
/* An empty tensor. */
#define T_EMPTY(dtype, shape_) t_from(dtype, NDIMS(shape_), shape_, NULL)
/* A 0-d tensor. */
#define T0(dtype, v) t_from(dtype, 0, NULL, (const double[]){v})
/* Exact checks (assert_tensor_exact) against a shape literal and values. */
#define EXPECT(t, dtype, shape_, ...) \
    assert_tensor_exact(t, dtype, NDIMS(shape_), shape_, ((const double[]){__VA_ARGS__}))
#define EXPECT_EMPTY(t, dtype, shape_) assert_tensor_exact(t, dtype, NDIMS(shape_), shape_, NULL)
#define EXPECT0(t, dtype, v) assert_tensor_exact(t, dtype, 0, NULL, ((const double[]){v}))
/* Open and close a scope, asserting both succeed. */
#define BEGIN() assert_int_equal(eh_scope_begin(), EH_OK)
#define END() assert_int_equal(eh_scope_end(), EH_OK)
#endif

/* Run argv[0] (a path) with argv (NULL-terminated) in a child process,
 * with the environment changed by env: pairs NAME, VALUE (VALUE NULL:
 * unset), NULL-terminated (env may be NULL).  Its stdout and stderr go to
 * out (cap bytes, NUL-terminated).  Returns its exit status, -1 when it
 * did not exit normally.  Fails the test if it cannot be started. */
int t_run(const char *const *argv, const char *const *env, char *out, size_t cap);

/* Internal test hooks from libeh (not in the public headers). */
/* Make the nth allocation from now on this thread fail (0 disarms);
 * returns the previous countdown's rest, 0 once its failure happened. */
int eh__test_fail_alloc(int nth);
void eh__test_storage_bytes(long long *now, long long *peak);
void eh__test_block_cache(int *blocks, long long *bytes);
void eh__test_reset_storage_peak(void);

#endif
