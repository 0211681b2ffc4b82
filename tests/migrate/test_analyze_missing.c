/* tests/migrate/test_analyze_missing.c -- what `ember-migrate analyze`
 * calls missing.  An op is missing from a backend when another scanned
 * backend implements it and this one does not -- not every op of
 * libeh/ops.def a small application never uses; with --all-ops (or
 * --op), every op asked about that the backend lacks.  The tree is
 * tests/migrate/analyze_fixtures/basic (blas: add, matmul; fast: exp;
 * legacy ref: sum, matmul). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "migrate_test.h"

#define BASIC MIGRATE_SRCDIR "/tests/migrate/analyze_fixtures/basic"

static const char *missing_json(json_object *report)
{
    return json_object_to_json_string_ext(tt_get(report, "missing"), JSON_C_TO_STRING_PLAIN);
}

static void test_relative_to_scanned_backends(void **state)
{
    (void)state;
    tt_run r = mt_migrate(BASIC, NULL, "analyze", "--format", "json", ".", NULL);
    assert_int_equal(r.status, 0);
    json_object *got = tt_json(r.out);
    assert_string_equal(missing_json(got), "{\"blas\":[\"exp\",\"sum\"],"
                                           "\"fast\":[\"add\",\"sum\",\"matmul\"],"
                                           "\"ref\":[\"exp\",\"add\"]}");
    json_object_put(got);
    tt_free(&r);

    r = mt_migrate(BASIC, NULL, "analyze", ".", NULL);
    assert_int_equal(r.status, 0);
    assert_true(tt_contains(r.out, "\nmissing (ops another backend implements and this one does not):\n"
                                   "  blas: 2 ops:\n    exp sum\n"
                                   "  fast: 3 ops:\n    add sum matmul\n"
                                   "  ref: 2 ops:\n    exp add\n\n"));
    tt_free(&r);

    r = mt_migrate(BASIC, NULL, "analyze", "--format", "markdown", ".", NULL);
    assert_int_equal(r.status, 0);
    assert_true(tt_contains(r.out, "## Missing\n\n- **blas** (2): `exp`, `sum`\n"
                                   "- **fast** (3): `add`, `sum`, `matmul`\n"
                                   "- **ref** (2): `exp`, `add`\n"));
    tt_free(&r);
}

/* One backend alone lacks nothing another has. */
static void test_single_backend(void **state)
{
    (void)state;
    tt_run r = mt_migrate(BASIC, NULL, "analyze", "--format", "json", "--backend", "fast", ".", NULL);
    assert_int_equal(r.status, 0);
    json_object *got = tt_json(r.out);
    assert_string_equal(missing_json(got), "{\"fast\":[]}");
    json_object_put(got);
    tt_free(&r);

    r = mt_migrate(BASIC, NULL, "analyze", "--backend", "fast", ".", NULL);
    assert_true(tt_contains(r.out, "\nmissing (ops another backend implements and this one does not):\n"
                                   "  none\n"));
    tt_free(&r);
}

/* --all-ops: against the whole op set, as the rows are. */
static void test_all_ops(void **state)
{
    (void)state;
    tt_run r = mt_migrate(BASIC, NULL, "analyze", "--format", "json", "--all-ops", ".", NULL);
    assert_int_equal(r.status, 0);
    json_object *got = tt_json(r.out);
    size_t rows = json_object_array_length(tt_get(got, "ops"));
    json_object *missing = tt_get(got, "missing");
    /* every row a backend does not implement is missing from it */
    assert_int_equal(json_object_array_length(tt_get(missing, "blas")), rows - 2);
    assert_int_equal(json_object_array_length(tt_get(missing, "fast")), rows - 1);
    assert_int_equal(json_object_array_length(tt_get(missing, "ref")), rows - 2);
    assert_true(rows > 100);
    json_object_put(got);
    tt_free(&r);

    r = mt_migrate(BASIC, NULL, "analyze", "--all-ops", ".", NULL);
    assert_true(tt_contains(r.out, "\nmissing (ops of libeh/ops.def a backend does not implement):\n"));
    tt_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_relative_to_scanned_backends),
        cmocka_unit_test(test_single_backend),
        cmocka_unit_test(test_all_ops),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
