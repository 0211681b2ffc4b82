/* Implementation of tests/support/eh_test.h. */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
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

eh_tensor *t_vec(eh_dtype dtype, int64_t n, const double *values)
{
    return t_from(dtype, 1, (const int64_t[]){n}, values);
}

double t_at(const eh_tensor *t, int64_t k)
{
    const void *data = eh_data_const(t); /* reading: never copies a view */
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

void assert_tensor_case(const char *ctx, const eh_tensor *t, eh_dtype dtype, int ndim,
                        const int64_t *shape, const double *want, double rtol)
{
    if (!t)
        fail_msg("%s: NULL result: %s: %s", ctx, eh_status_name(eh_last_error()),
                 eh_error_message());
    if (eh_get_dtype(t) != dtype)
        fail_msg("%s: dtype %s, expected %s", ctx, eh_dtype_name(eh_get_dtype(t)),
                 eh_dtype_name(dtype));
    if (eh_ndim(t) != ndim)
        fail_msg("%s: ndim %d, expected %d", ctx, eh_ndim(t), ndim);
    int64_t n = 1;
    for (int d = 0; d < ndim; d++) {
        if (eh_shape(t)[d] != shape[d])
            fail_msg("%s: dim %d is %lld, expected %lld", ctx, d, (long long)eh_shape(t)[d],
                     (long long)shape[d]);
        n *= shape[d];
    }
    int is_float = eh_dtype_is_float(dtype);
    for (int64_t k = 0; k < n; k++) {
        double got = t_at(t, k), w = want[k];
        int ok;
        if (isnan(w) || isnan(got))
            ok = isnan(w) && isnan(got);
        else if (isinf(w) || isinf(got))
            ok = got == w;
        else if (rtol == 0.0)
            ok = got == w && (!is_float || got != 0.0 || signbit(got) == signbit(w));
        else /* relative; absolute only around an expected 0 */
            ok = fabs(got - w) <= rtol * fabs(w) || (w == 0.0 && fabs(got) <= rtol);
        if (!ok)
            fail_msg("%s: element %lld is %.17g, expected %.17g (rtol %g)", ctx, (long long)k,
                     got, w, rtol);
    }
}

void assert_vector_case(const char *ctx, const eh_tensor *t, eh_dtype dtype, int64_t n,
                        const double *want, double rtol)
{
    assert_tensor_case(ctx, t, dtype, 1, (const int64_t[]){n}, want, rtol);
}

void assert_f16_bits(eh_tensor *t, int64_t n, const uint16_t *want)
{
    assert_non_null(t);
    assert_int_equal(eh_get_dtype(t), EH_F16);
    assert_int_equal(eh_size(t), n);
    const uint16_t *d = eh_data_f16(t);
    assert_non_null(d);
    for (int64_t k = 0; k < n; k++)
        if (d[k] != want[k])
            fail_msg("f16 element %lld is 0x%04x, expected 0x%04x", (long long)k, d[k], want[k]);
}

int backend_is_eager(void)
{
    const char *b = eh_get_backend();
    return b && strcmp(b, "lazy") != 0;
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

int t_has_backend(const char *name)
{
    const char *names[16];
    int n = eh_list_backends(names, 16);
    for (int k = 0; k < n && k < 16; k++)
        if (strcmp(names[k], name) == 0)
            return 1;
    return 0;
}

const char *t_use_backend(int k)
{
    static const char *const all[] = {"ref", "blas", "lazy"};
    if (!t_has_backend(all[k]))
        return NULL;
    assert_int_equal(eh_set_backend(all[k]), EH_OK);
    return all[k];
}

int eh_test_setup(void **state)
{
    (void)state;
    /* the backend of the first test, which each test starts on again: a
     * test that loops over the backends and fails midway leaves another
     * one selected */
    static const char *first;
    static bool first_known;
    eh_clear_error();
    if (!first_known) {
        first = eh_get_backend(); /* (its error, if any, is the test's to see) */
        first_known = true;
    }
    const char *b = getenv("EH_TEST_BACKEND");
    if (!b)
        b = first;
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

int t_run(const char *const *argv, const char *const *env, char *out, size_t cap)
{
    int fd[2];
    assert_int_equal(pipe(fd), 0);
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        dup2(fd[1], 1);
        dup2(fd[1], 2);
        close(fd[0]);
        for (int k = 0; env && env[k]; k += 2) {
            if (env[k + 1])
                setenv(env[k], env[k + 1], 1);
            else
                unsetenv(env[k]);
        }
        execv(argv[0], (char *const *)argv);
        _exit(127);
    }
    close(fd[1]);
    size_t len = 0;
    ssize_t r;
    while (len + 1 < cap && (r = read(fd[0], out + len, cap - 1 - len)) > 0)
        len += (size_t)r;
    out[len] = '\0';
    close(fd[0]);
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}
