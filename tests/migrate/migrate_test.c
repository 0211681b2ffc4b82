/* tests/migrate/migrate_test.c -- helpers for ember-migrate's tests
 * (migrate_test.h). */
#include "migrate_test.h"

tt_run mt_migratev(const char *cwd, const char *const *env, const char *const *args, bool include)
{
    const char *argv[64] = {EMBER_MIGRATE};
    size_t n = 1;
    for (; args[n - 1]; n++) {
        assert_true(n + 3 < 64);
        argv[n] = args[n - 1];
    }
    if (include) {
        argv[n++] = "--";
        argv[n++] = MT_INCLUDE;
    }
    argv[n] = NULL;
    return tt_exec(cwd, argv, env);
}

tt_run mt_migrate(const char *cwd, const char *const *env, const char *arg, ...)
{
    const char *args[60];
    va_list ap;
    va_start(ap, arg);
    tt_vargs(args, 0, 60, arg, ap);
    va_end(ap);
    return mt_migratev(cwd, env, args, true);
}

tt_run mt_migrate_args(const char *cwd, const char *arg, ...)
{
    const char *args[60];
    va_list ap;
    va_start(ap, arg);
    tt_vargs(args, 0, 60, arg, ap);
    va_end(ap);
    return mt_migratev(cwd, NULL, args, false);
}
