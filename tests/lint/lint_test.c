/* tests/lint/lint_test.c -- helpers for emberlint's tests (lint_test.h). */
#include "lint_test.h"

#include <stdlib.h>
#include <string.h>

tt_run lt_emberlintv(const char *cwd, const char *const *argv, const char *const *env)
{
    size_t argc = 0;
    while (argv[argc])
        argc++;
    const char **full = calloc(argc + 2, sizeof *full);
    assert_non_null(full);
    full[0] = EMBERLINT;
    memcpy(full + 1, argv, argc * sizeof *argv);
    tt_run r = tt_exec(cwd ? cwd : LINT_SRCDIR, full, env);
    free(full);
    return r;
}

tt_run lt_emberlint(const char *cwd, const char *arg, ...)
{
    const char *argv[128];
    va_list ap;
    va_start(ap, arg);
    tt_vargs(argv, 0, 128, arg, ap);
    va_end(ap);
    return lt_emberlintv(cwd, argv, NULL);
}

tt_run lt_lint(const char *cwd, const char *arg, ...)
{
    const char *argv[128] = {"--select", LT_RULES};
    va_list ap;
    va_start(ap, arg);
    tt_vargs(argv, 2, 128, arg, ap);
    va_end(ap);
    return lt_emberlintv(cwd, argv, NULL);
}

size_t lt_count_rule(json_object *report, const char *rule)
{
    json_object *f = tt_get(report, "findings");
    size_t n = 0;
    for (size_t i = 0; i < json_object_array_length(f); i++) {
        json_object *x = json_object_array_get_idx(f, i);
        if (!rule || strcmp(json_object_get_string(tt_get(x, "rule")), rule) == 0)
            n++;
    }
    return n;
}
