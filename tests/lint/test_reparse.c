/* tests/lint/test_reparse.c -- lint/change/reparse.c: a file's errors from a
 * fresh parse, with the engine's flags, and the multiset comparison
 * emberlint --fix uses to decide that a fix introduced an error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lint_test.h"
#include "path.h"
#include "reparse.h"
#include "sources.h"

static el_source source_at(char *path)
{
    el_source s;
    memset(&s, 0, sizeof s);
    s.path = path;
    s.display = path;
    return s;
}

static void test_errors_of_a_file(void **state)
{
    (void)state;
    char *dir = tt_tmpdir();
    char *good = tt_write(dir, "good.c", "int f(int x) { return x + 1; }\n");
    char *bad = tt_write(dir, "bad.c",
                         "int f(int x) { return x + ; }\n"
                         "int g(void) { return nope; }\n"
                         "int h(void) { return nope; }\n"
                         "int unused_warning(void) { int y; return 0; }\n");
    el_source sg = source_at(good), sb = source_at(bad);
    el_errlist eg = {0}, eb = {0};
    assert_int_equal(el_reparse_errors(NULL, &sg, NULL, 0, &eg), 0);
    assert_int_equal(eg.n, 0);
    assert_int_equal(el_reparse_errors(NULL, &sb, NULL, 0, &eb), 0);
    assert_int_equal(eb.n, 3); /* errors only, no locations */
    assert_string_equal(eb.v[0], "expected expression");
    assert_string_equal(eb.v[1], "use of undeclared identifier 'nope'");
    assert_string_equal(eb.v[2], "use of undeclared identifier 'nope'");

    /* extra arguments count: -DSTRICT turns a line into an error */
    char *flag = tt_write(dir, "flag.c", "#ifdef STRICT\n#error strict\n#endif\n");
    el_source sf = source_at(flag);
    el_errlist ef = {0};
    char *extra[] = {"-DSTRICT"};
    assert_int_equal(el_reparse_errors(NULL, &sf, extra, 1, &ef), 0);
    assert_int_equal(ef.n, 1);
    assert_string_equal(ef.v[0], "strict");

    el_errlist_free(&eg);
    el_errlist_free(&eb);
    el_errlist_free(&ef);
    free(good);
    free(bad);
    free(flag);
    tt_rmtree(dir);
    free(dir);
}

static void add(el_errlist *l, const char *m)
{
    l->v = realloc(l->v, (l->n + 1) * sizeof *l->v);
    l->v[l->n++] = strdup(m);
}

static void test_new_errors_as_multisets(void **state)
{
    (void)state;
    el_errlist before = {0}, after = {0};
    assert_null(el_errlist_new_error(&before, &after));
    add(&before, "a");
    add(&before, "b");
    add(&before, "a");
    /* fewer, or the same in another order: nothing new */
    add(&after, "a");
    assert_null(el_errlist_new_error(&before, &after));
    add(&after, "b");
    add(&after, "a");
    assert_null(el_errlist_new_error(&before, &after));
    /* a third "a" is new, and so is "c" */
    add(&after, "a");
    assert_string_equal(el_errlist_new_error(&before, &after), "a");
    el_errlist_free(&after);
    add(&after, "c");
    assert_string_equal(el_errlist_new_error(&before, &after), "c");
    el_errlist_free(&before);
    el_errlist_free(&after);
    assert_null(before.v);
}

int main(void)
{
    el_path_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_errors_of_a_file),
        cmocka_unit_test(test_new_errors_as_multisets),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
