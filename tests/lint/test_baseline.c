/* tests/lint/test_baseline.c -- --write-baseline and --baseline: a
 * baseline silences the findings it records, also after edits that move
 * lines; a new finding is reported, on a new line or on a baselined one;
 * entries that match nothing any more are stale (a note with the count)
 * and the next --write-baseline drops them; the file is sorted, stable
 * JSON, and a run over part of the tree keeps the rest's entries.  The
 * fingerprints are those of the SARIF report. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lint_test.h"

#define A_C "#include <stddef.h>\n#include <cblas.h>\nint a(void) { return 0; }\n#include <lapacke.h>\n"
#define B_C "#include <fftw3.h>\nint b(void) { return 1; }\n"

static int setup(void **state)
{
    tt_scratch_setup(state);
    tt_w("src/a.c", A_C);
    tt_w("src/b.c", B_C);
    return 0;
}

static tt_run lint(const char *a, const char *b, const char *c)
{
    return lt_lint(tt_dir, "--no-cache", a, b, c, NULL);
}

static void write_baseline(void)
{
    tt_run r = lint("--write-baseline", "base.json", "src");
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, "");
    assert_true(tt_contains(r.err, "wrote 3 findings to base.json"));
    tt_free(&r);
}

static void test_write_and_silence(void **state)
{
    (void)state;
    write_baseline();
    char *path = tt_path(tt_dir, "base.json");
    char *first = tt_read(path, NULL);
    json_object *j = tt_json(first);
    json_object *f = tt_get(j, "findings");
    assert_int_equal(json_object_array_length(f), 3);
    /* sorted by file, line; paths relative to the baseline's directory */
    assert_string_equal(json_object_get_string(tt_get(json_object_array_get_idx(f, 0), "file")), "src/a.c");
    assert_int_equal(json_object_get_int(tt_get(json_object_array_get_idx(f, 0), "line")), 2);
    assert_int_equal(json_object_get_int(tt_get(json_object_array_get_idx(f, 1), "line")), 4);
    assert_string_equal(json_object_get_string(tt_get(json_object_array_get_idx(f, 2), "file")), "src/b.c");
    json_object_put(j);
    /* stable: the same findings give the same bytes */
    write_baseline();
    char *second = tt_read(path, NULL);
    assert_string_equal(first, second);

    tt_run r = lint("--baseline", "base.json", "src");
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, "");
    assert_string_equal(r.err, "");
    tt_free(&r);

    /* lines move: still silenced */
    tt_w("src/a.c", "/* a new header comment\n * over two lines */\n\n" A_C);
    tt_w("src/b.c", "\n\n\n\n" B_C);
    r = lint("--baseline", "base.json", "src");
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, "");
    tt_free(&r);
    free(first);
    free(second);
    free(path);
}

static void test_new_findings_reported(void **state)
{
    (void)state;
    write_baseline();
    /* a new finding on a new line; the same include again elsewhere (the
     * same line text: the second occurrence is new) */
    tt_w("src/a.c", A_C "int later(void);\n#include <fftw3.h>\n");
    tt_w("src/b.c", B_C "#include <fftw3.h>\n");
    tt_run r = lint("--baseline", "base.json", "src");
    assert_int_equal(r.status, 1);
    assert_true(tt_contains(r.out, "src/a.c:6:1:"));
    assert_true(tt_contains(r.out, "src/b.c:3:1:"));
    assert_false(tt_contains(r.out, "src/a.c:2:"));
    assert_false(tt_contains(r.out, "src/b.c:1:"));
    tt_free(&r);
    /* a new finding of another rule on a baselined line */
    tt_w("src/b.c", "#include <fftw3.h> // emberlint-ignore EH002X\n" "int b(void) { return 1; }\n");
    r = lt_emberlint(tt_dir, "--no-cache", "--select", "EH0,EH101", "--baseline", "base.json", "src", NULL);
    assert_true(tt_contains(r.out, "src/b.c:1:"));
    tt_free(&r);
}

static void test_stale(void **state)
{
    (void)state;
    write_baseline();
    tt_w("src/a.c", "#include <stddef.h>\nint a(void) { return 0; }\n"); /* both findings fixed */
    tt_run r = lint("--baseline", "base.json", "src");
    assert_int_equal(r.status, 0);
    assert_true(tt_contains(r.err, "note: 2 baseline entries of base.json match no finding any more"));
    tt_free(&r);
    /* the next --write-baseline drops them */
    r = lt_lint(tt_dir, "--no-cache", "--baseline", "base.json", "--write-baseline", "base.json", "src", NULL);
    assert_int_equal(r.status, 0);
    assert_true(tt_contains(r.err, "wrote 1 finding to base.json (0 new since base.json, 2 stale entries dropped)"));
    tt_free(&r);
    char *path = tt_path(tt_dir, "base.json");
    char *text = tt_read(path, NULL);
    json_object *j = tt_json(text);
    assert_int_equal(json_object_array_length(tt_get(j, "findings")), 1);
    json_object_put(j);
    free(text);
    free(path);
}

static void test_partial_run_keeps_the_rest(void **state)
{
    (void)state;
    write_baseline();
    tt_run r = lint("--write-baseline", "base.json", "src/b.c");
    assert_int_equal(r.status, 0);
    tt_free(&r);
    r = lint("--baseline", "base.json", "src");
    assert_int_equal(r.status, 0); /* a.c's entries were kept */
    assert_string_equal(r.err, "");
    tt_free(&r);
    /* b.c alone: a.c's entries are not stale, they are out of scope */
    r = lint("--baseline", "base.json", "src/b.c");
    assert_int_equal(r.status, 0);
    assert_string_equal(r.err, "");
    tt_free(&r);
}

static void test_fingerprints_match_sarif(void **state)
{
    (void)state;
    write_baseline();
    tt_run r = lint("--format", "sarif", "src");
    json_object *sarif = tt_json(r.out);
    char *path = tt_path(tt_dir, "base.json");
    char *text = tt_read(path, NULL);
    json_object *base = tt_json(text);
    json_object *results = tt_get(json_object_array_get_idx(tt_get(sarif, "runs"), 0), "results");
    json_object *entries = tt_get(base, "findings");
    assert_int_equal(json_object_array_length(results), json_object_array_length(entries));
    for (size_t i = 0; i < json_object_array_length(results); i++) {
        const char *fp = json_object_get_string(
            tt_get(tt_get(json_object_array_get_idx(results, i), "partialFingerprints"), "emberlint/v1"));
        assert_string_equal(fp, json_object_get_string(tt_get(json_object_array_get_idx(entries, i), "fingerprint")));
    }
    json_object_put(sarif);
    json_object_put(base);
    free(text);
    free(path);
    tt_free(&r);
}

static void test_bad_baselines(void **state)
{
    (void)state;
    tt_run r = lint("--baseline", "nosuch.json", "src");
    assert_int_equal(r.status, 2);
    assert_true(tt_contains(r.err, "emberlint: nosuch.json: cannot read the baseline"));
    assert_string_equal(r.out, "");
    tt_free(&r);
    tt_w("junk.json", "{\"findings\": [");
    r = lint("--baseline", "junk.json", "src");
    assert_int_equal(r.status, 2);
    assert_true(tt_contains(r.err, "junk.json: not a baseline"));
    tt_free(&r);
    tt_w("other.json", "{\"tool\": \"emberlint\", \"version\": \"0.1.0\", \"findings\": []}");
    r = lint("--baseline", "other.json", "src");
    assert_int_equal(r.status, 2);
    assert_true(tt_contains(r.err, "other.json: not an emberlint baseline"));
    tt_free(&r);
    r = lint("--write-baseline", "b.json", "--diff-base");
    assert_int_equal(r.status, 2);
    tt_free(&r);
    r = lt_lint(tt_dir, "--write-baseline", "b.json", "--diff-base", "HEAD", "src", NULL);
    assert_int_equal(r.status, 2);
    assert_true(tt_contains(r.err, "does not go with --diff-base"));
    tt_free(&r);
    /* a baseline that cannot be written loses nothing and says so */
    r = lint("--write-baseline", "nodir/b.json", "src");
    assert_int_equal(r.status, 2);
    assert_true(tt_contains(r.err, "nodir/b.json: cannot write the baseline"));
    tt_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_write_and_silence, setup, tt_scratch_teardown),
        cmocka_unit_test_setup_teardown(test_new_findings_reported, setup, tt_scratch_teardown),
        cmocka_unit_test_setup_teardown(test_stale, setup, tt_scratch_teardown),
        cmocka_unit_test_setup_teardown(test_partial_run_keeps_the_rest, setup, tt_scratch_teardown),
        cmocka_unit_test_setup_teardown(test_fingerprints_match_sarif, setup, tt_scratch_teardown),
        cmocka_unit_test_setup_teardown(test_bad_baselines, setup, tt_scratch_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
