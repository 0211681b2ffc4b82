/* Implementation of tests/support/eh_test.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "eh_test.h"

eh_tensor *t_from(eh_dtype dtype, int ndim, const int64_t *shape, const double *values)
{
    eh_tensor *f = eh_convert_to_tensor(values, ndim, shape, EH_F64);
    if (!f)
        fail_msg("t_from: %s", eh_error_message());
    if (dtype == EH_F64)
        return f;
    eh_tensor *t = eh_cast(f, dtype);
    eh_release(f);
    if (!t)
        fail_msg("t_from: cast: %s", eh_error_message());
    return t;
}

double t_at(const eh_tensor *t, int64_t k)
{
    eh_tensor *m = (eh_tensor *)t;
    const void *data = eh_data(m);
    if (!data)
        fail_msg("t_at: %s", eh_error_message());
    switch (eh_get_dtype(t)) {
    case EH_F16: return eh_f16_to_f32(((const uint16_t *)data)[k]);
    case EH_F32: return ((const float *)data)[k];
    case EH_F64: return ((const double *)data)[k];
    case EH_I32: return ((const int32_t *)data)[k];
    case EH_I64: return (double)((const int64_t *)data)[k];
    case EH_BOOL: return ((const uint8_t *)data)[k];
    default: fail_msg("t_at: bad dtype");
    }
    return 0;
}

void assert_tensor(const eh_tensor *t, eh_dtype dtype, int ndim, const int64_t *shape,
                   const double *expected, double atol, double rtol)
{
    if (!t)
        fail_msg("tensor is NULL: %s: %s", eh_status_name(eh_last_error()), eh_error_message());
    if (eh_get_dtype(t) != dtype)
        fail_msg("dtype %s, expected %s", eh_dtype_name(eh_get_dtype(t)), eh_dtype_name(dtype));
    if (eh_ndim(t) != ndim)
        fail_msg("ndim %d, expected %d", eh_ndim(t), ndim);
    for (int d = 0; d < ndim; d++)
        if (eh_shape(t)[d] != shape[d])
            fail_msg("dim %d is %lld, expected %lld", d, (long long)eh_shape(t)[d],
                     (long long)shape[d]);
    int64_t n = eh_size(t); /* the library's count: no overflow for huge empty shapes */
    for (int64_t k = 0; k < n; k++) {
        double got = t_at(t, k), want = expected[k];
        if (isnan(want) && isnan(got))
            continue;
        if (isinf(want) || isinf(got)) {
            if (got != want)
                fail_msg("element %lld is %.17g, expected %.17g", (long long)k, got, want);
            continue;
        }
        if (!(fabs(got - want) <= atol + rtol * fabs(want)))
            fail_msg("element %lld is %.17g, expected %.17g (atol %g, rtol %g)", (long long)k,
                     got, want, atol, rtol);
    }
}

void assert_failed(const void *result, eh_status code, const char *needle)
{
    if (result)
        fail_msg("expected failure %s, got a result", eh_status_name(code));
    if (eh_last_error() != code)
        fail_msg("expected %s, got %s: %s", eh_status_name(code),
                 eh_status_name(eh_last_error()), eh_error_message());
    if (needle && !strstr(eh_error_message(), needle))
        fail_msg("message '%s' does not mention '%s'", eh_error_message(), needle);
    eh_clear_error();
}

int eh_test_setup(void **state)
{
    (void)state;
    eh_clear_error();
    const char *b = getenv("EH_TEST_BACKEND");
    if (b && eh_set_backend(b) != EH_OK)
        return -1;
    return 0;
}

int eh_test_teardown(void **state)
{
    (void)state;
    if (eh_scope_depth() != 0) {
        while (eh_scope_depth() > 0)
            eh_scope_end();
        fprintf(stderr, "test left a scope open\n");
        return -1;
    }
    eh_clear_error();
    return 0;
}
