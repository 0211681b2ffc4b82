/* tests/migrate/test_custom_run.c -- after the migration the application's
 * own kernels run through libeh (issue 15).
 *
 * The golden case custom_dispatch (a signal toolkit whose kernels say on
 * stderr that they ran) is built before and after `ember-migrate apply`,
 * with the examples' warning flags and -Werror, against this build's libeh
 * (same compiler, same sanitizers), and run on every backend ehinfo lists:
 *   - the output is what it was before, on every backend;
 *   - under blas the blas kernels run, under ref the ref ones (an op with
 *     a ref kernel only runs it everywhere: its fallback), and under lazy
 *     those of the backend lazy evaluates on;
 *   - emberlint, every rule, finds nothing in the migrated tree: the
 *     generated files pass as frontend code, the registration unit with
 *     the suppression it states (EH001 would report one that is unused);
 *   - a second apply has nothing to do. */
#include "migrate_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef MT_CC
#error "MT_CC, MT_SANITIZE, MT_LIBDIR and EHINFO come from the Makefile"
#endif

/* Build every .c file of tree into tree/app; fails on any diagnostic. */
static char *build(const char *tree)
{
    char *app = tt_path(tree, "app");
    char *cmd = tt_fmt("%s -std=c11 -O1 -g %s -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes "
                       "-Wmissing-prototypes %s $(find . -name '*.c' | LC_ALL=C sort) -o app "
                       "%s/libeh.so -Wl,-rpath,%s -lopenblas -lm",
                       MT_CC, MT_SANITIZE, MT_INCLUDE, MT_LIBDIR, MT_LIBDIR);
    const char *argv[] = {"sh", "-c", cmd, NULL};
    tt_run r = tt_exec(tree, argv, NULL);
    if (r.status != 0 || r.err[0] || r.out[0])
        fail_msg("building %s: exit %d\n%s%s", tree, r.status, r.out, r.err);
    tt_free(&r);
    free(cmd);
    return app;
}

/* The backends this libeh has, from ehinfo (a NULL-terminated list). */
static char **backends(void)
{
    const char *argv[] = {EHINFO, "--format", "json", NULL};
    tt_run r = tt_exec(NULL, argv, NULL);
    assert_int_equal(r.status, 0);
    json_object *info = tt_json(r.out), *list = tt_get(info, "backends");
    size_t n = json_object_array_length(list);
    char **v = calloc(n + 1, sizeof *v);
    assert_non_null(v);
    for (size_t i = 0; i < n; i++)
        v[i] = strdup(json_object_get_string(tt_get(json_object_array_get_idx(list, i), "name")));
    json_object_put(info);
    tt_free(&r);
    return v;
}

static bool has(char *const *v, const char *name)
{
    for (; *v; v++)
        if (!strcmp(*v, name))
            return true;
    return false;
}

static tt_run run_on(const char *app, const char *backend)
{
    char *env = tt_fmt("EH_BACKEND=%s", backend);
    const char *argv[] = {app, NULL};
    const char *envv[] = {env, NULL};
    tt_run r = tt_exec(NULL, argv, envv);
    if (r.status != 0)
        fail_msg("%s on %s: exit %d\n%s", app, backend, r.status, r.err);
    free(env);
    return r;
}

/* The kernels the toolkit runs, in order, when backend b's run: its own
 * versions, and ref's pairwise_sqdist (the only one there is). */
static char *kernels_of(const char *b)
{
    return tt_fmt("sig: eh_%s_frame_energy\nsig: eh_%s_frame_energy\n"
                  "sig: eh_%s_soft_threshold\nsig: eh_ref_pairwise_sqdist\n",
                  b, b, b);
}

static void test_custom_ops_run_through_libeh(void **state)
{
    (void)state;
    char *dir = tt_tmpdir();
    char *src = tt_fmt("%s/tests/migrate/fixtures/custom_dispatch/before", MIGRATE_SRCDIR);
    char *before = tt_path(dir, "before"), *after = tt_path(dir, "after");
    char *mk = tt_fmt("mkdir -p '%s' '%s'", before, after);
    const char *mkv[] = {"sh", "-c", mk, NULL};
    tt_run m = tt_exec(NULL, mkv, NULL);
    assert_int_equal(m.status, 0);
    tt_free(&m);
    tt_copytree(src, before);
    tt_copytree(src, after);

    tt_run r = mt_migrate(after, NULL, "apply", "-q", "--unsafe-fixes", "--namespace=sig", ".", NULL);
    if (r.status != 0)
        fail_msg("apply: exit %d\n%s", r.status, r.err);
    tt_free(&r);
    char *app_before = build(before), *app_after = build(after);

    char **bs = backends();
    assert_true(has(bs, "ref"));
    for (char **b = bs; *b; b++) {
        tt_run x = run_on(app_before, *b), y = run_on(app_after, *b);
        if (strcmp(x.out, y.out) != 0)
            fail_msg("on %s the output changed:\nbefore:\n%safter:\n%s", *b, x.out, y.out);
        /* which kernels ran: the backend's own (lazy: its delegate's) */
        const char *own = strcmp(*b, "lazy") ? *b : has(bs, "blas") ? "blas" : "ref";
        if (!strcmp(own, "ref") || !strcmp(own, "blas")) {
            char *want = kernels_of(own);
            if (strcmp(y.err, want) != 0)
                fail_msg("on %s, after the migration, the kernels that ran:\n%swanted:\n%s", *b,
                         y.err, want);
            free(want);
        }
        tt_free(&x);
        tt_free(&y);
    }
    for (char **b = bs; *b; b++)
        free(*b);
    free(bs);

    /* the migrated tree, generated files included, passes every rule */
    const char *lint[] = {EMBERLINT, "--no-cache", ".", "--", MT_INCLUDE, NULL};
    r = tt_exec(after, lint, NULL);
    if (r.status != 0 || r.out[0])
        fail_msg("emberlint on the migrated tree: exit %d\n%s%s", r.status, r.out, r.err);
    tt_free(&r);

    r = mt_migrate(after, NULL, "apply", "--unsafe-fixes", "--namespace=sig", ".", NULL);
    assert_int_equal(r.status, 0);
    assert_true(tt_contains(r.err, "nothing to migrate"));
    tt_free(&r);

    free(app_before);
    free(app_after);
    free(mk);
    free(before);
    free(after);
    free(src);
    tt_rmtree(dir);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_custom_ops_run_through_libeh),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
