/* tests/migrate/test_force.c -- what `apply --force` promises and does:
 *   - --help says it: the files that parse are migrated, those that do
 *     not are left untouched (nothing "rewrites" a file libclang could not
 *     read);
 *   - a refused file is named once, on one line:
 *     `ember-migrate: FILE:LINE:COL: does not parse: WHY; ...`;
 *   - a legacy header that does not parse stays untouched, and the files
 *     including it still move: each moved file is judged against the
 *     errors it had at its old place (the header's error is not new). */
#include "migrate_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define FIXTURE MIGRATE_SRCDIR "/tests/migrate/fixtures/legacy_dir/before"

static void test_help(void **state)
{
    (void)state;
    tt_run r = mt_migrate_args(NULL, "--help", NULL);
    assert_int_equal(r.status, 0);
    assert_false(tt_contains(r.out, "also rewrite files that do not parse"));
    assert_true(tt_contains(r.out, "--force               apply: proceed with the files that parse, "
                                   "leave those\n"
                                   "                        that do not untouched"));
    tt_free(&r);
}

/* Each line of err that mentions needle: exactly one, and it starts with
 * prefix. */
static void assert_one_line(const char *err, const char *needle, const char *prefix)
{
    size_t n = 0;
    for (const char *l = err; *l;) {
        const char *e = strchr(l, '\n');
        size_t len = e ? (size_t)(e - l) : strlen(l);
        char *line = strndup(l, len);
        assert_non_null(line);
        if (strstr(line, needle)) {
            n++;
            if (strncmp(line, prefix, strlen(prefix)) != 0)
                fail_msg("line \"%s\" does not start with \"%s\"", line, prefix);
            /* said once */
            const char *first = strstr(line, "does not parse");
            assert_null(strstr(first + 1, "does not parse"));
        }
        free(line);
        l += len + (e != NULL);
    }
    if (n != 1)
        fail_msg("%zu lines mention \"%s\" in:\n%s", n, needle, err);
}

static void test_refused_message(void **state)
{
    (void)state;
    char *dir = tt_tmpdir();
    tt_copytree(FIXTURE, dir);
    free(tt_write(dir, "broken.c", "int broken(void)\n{\n    return 1 + ;\n}\n"));
    char *snap = tt_snapshot(dir, true);
    tt_run r = mt_migrate(dir, NULL, "apply", ".", NULL);
    assert_int_equal(r.status, 2);
    assert_one_line(r.err, "broken.c", "ember-migrate: broken.c:3:16: does not parse: expected expression; ");
    char *again = tt_snapshot(dir, true);
    tt_assert_same(snap, again, "a refused apply changes nothing");
    tt_free(&r);

    r = mt_migrate(dir, NULL, "apply", "--force", ".", NULL);
    assert_int_equal(r.status, 1);
    assert_one_line(r.err, "broken.c", "ember-migrate: broken.c:3:16: does not parse: expected expression; ");
    assert_true(tt_contains(r.err, "left untouched (--force)"));
    tt_assert_file(dir, "broken.c", "int broken(void)\n{\n    return 1 + ;\n}\n");
    tt_free(&r);
    free(snap);
    free(again);
    tt_rmtree(dir);
    free(dir);
}

/* A file of one entry in a compilation database whose other files have
 * two (cvxgrp/scs's Makefile builds most sources twice, bear records
 * both): the refusal names no configuration -- not "(in configuration
 * the default configuration)". */
static void test_refused_message_compdb(void **state)
{
    (void)state;
    char *dir = tt_tmpdir();
    tt_copytree(FIXTURE, dir);
    free(tt_write(dir, "broken.c", "int broken(void)\n{\n    return 1 + ;\n}\n"));
    free(tt_write(dir, "twice.c", "int twice(void)\n{\n    return 2;\n}\n"));
    char *db = tt_fmt("[{\"directory\": \"%s\", \"file\": \"broken.c\", "
                      "\"command\": \"cc -c broken.c\"},\n"
                      " {\"directory\": \"%s\", \"file\": \"twice.c\", "
                      "\"command\": \"cc -DDIRECT -c twice.c\"},\n"
                      " {\"directory\": \"%s\", \"file\": \"twice.c\", "
                      "\"command\": \"cc -DINDIRECT -c twice.c\"}]\n", dir, dir, dir);
    free(tt_write(dir, "compile_commands.json", db));
    char *snap = tt_snapshot(dir, true);
    tt_run r = mt_migrate_args(dir, "apply", "-p", ".", NULL);
    assert_int_equal(r.status, 2);
    assert_one_line(r.err, "broken.c", "ember-migrate: broken.c:3:16: does not parse: expected "
                                       "expression; nothing was changed");
    assert_false(tt_contains(r.err, "in configuration"));
    char *again = tt_snapshot(dir, true);
    tt_assert_same(snap, again, "a refused apply changes nothing");
    tt_free(&r);
    free(snap);
    free(again);
    free(db);
    /* the first file of the configuration has one entry, the failing
     * file two: the configuration is named after the failing file's
     * entries, not "the default configuration" of the first */
    char *dir2 = tt_tmpdir();
    tt_copytree(FIXTURE, dir2);
    free(tt_write(dir2, "a.c", "int a(void)\n{\n    return 1;\n}\n"));
    free(tt_write(dir2, "b.c", "int b(void)\n{\n    return 1 + ;\n}\n"));
    db = tt_fmt("[{\"directory\": \"%s\", \"file\": \"a.c\", \"command\": \"cc -c a.c\"},\n"
                " {\"directory\": \"%s\", \"file\": \"b.c\", \"command\": \"cc -DX -c b.c\"},\n"
                " {\"directory\": \"%s\", \"file\": \"b.c\", \"command\": \"cc -DY -c b.c\"}]\n",
                dir2, dir2, dir2);
    free(tt_write(dir2, "compile_commands.json", db));
    r = mt_migrate_args(dir2, "apply", "-p", ".", NULL);
    assert_int_equal(r.status, 2);
    assert_one_line(r.err, "b.c", "ember-migrate: b.c:3:16: does not parse: expected expression "
                                  "(in configuration compile_commands.json entry 1); nothing was "
                                  "changed");
    assert_false(tt_contains(r.err, "default configuration"));
    tt_free(&r);
    free(db);
    tt_rmtree(dir2);
    free(dir2);
    tt_rmtree(dir);
    free(dir);
}

/* The legacy header does not parse: it stays, the .c files move. */
static void test_broken_legacy_header(void **state)
{
    (void)state;
    char *dir = tt_tmpdir();
    tt_copytree(FIXTURE, dir);
    char *hpath = tt_path(dir, "ops/blas/blas_ops.h");
    char *h = tt_read(hpath, NULL);
    assert_non_null(h);
    char *broken_h = tt_fmt("%sint blas_broken = ;\n", h);
    free(tt_write(dir, "ops/blas/blas_ops.h", broken_h));

    tt_run r = mt_migrate(dir, NULL, "apply", "--force", ".", NULL);
    if (r.status != 1)
        print_error("apply --force: %d\n%s", r.status, r.err);
    assert_int_equal(r.status, 1);   /* applied; a file was left untouched */
    assert_false(tt_contains(r.err, "does not parse after the rewrite"));
    assert_true(tt_contains(r.err, "ops/blas/blas_ops.h:"));
    tt_assert_file(dir, "ops/blas/blas_ops.h", broken_h);
    char *moved = tt_path(dir, "backends/blas/gemm.c"), *old = tt_path(dir, "ops/blas/gemm.c");
    assert_int_equal(access(moved, F_OK), 0);
    assert_int_equal(access(old, F_OK), -1);
    /* it still reaches the header that stayed */
    assert_true(tt_file_contains(dir, "backends/blas/gemm.c", "../../ops/blas/blas_ops.h"));
    tt_free(&r);
    free(moved);
    free(old);
    free(broken_h);
    free(h);
    free(hpath);
    tt_rmtree(dir);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_help),
        cmocka_unit_test(test_refused_message),
        cmocka_unit_test(test_refused_message_compdb),
        cmocka_unit_test(test_broken_legacy_header),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
