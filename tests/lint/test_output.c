/* tests/lint/test_output.c -- the output formats: json (parsed back and
 * checked against DESIGN.md's shape), sarif (the fields GitHub code
 * scanning requires), github (workflow commands), and paths relative to
 * the current directory. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "lint_test.h"

typedef struct tree {
    char *dir;
} tree;

static int tree_setup(void **state)
{
    tree *t = calloc(1, sizeof *t);
    t->dir = tt_tmpdir();
    free(tt_write(t->dir, "src/bad.c", "#include <stddef.h>\n#include <cblas.h>\nint bad(void) { return 0; }\n"));
    free(tt_write(t->dir, "src/stale.c",
                  "#include <stddef.h> // emberlint-ignore EH101\nint stale(void) { return 0; }\n"));
    free(tt_write(t->dir, "src/we,ird: name.c", "#include <lapacke.h>\n"));
    char *other = tt_path(t->dir, "other");
    mkdir(other, 0777);
    free(other);
    *state = t;
    return 0;
}

static int tree_teardown(void **state)
{
    tree *t = *state;
    tt_rmtree(t->dir);
    free(t->dir);
    free(t);
    return 0;
}

static void expect_keys(json_object *o, const char *const *keys, size_t n)
{
    assert_true(json_object_is_type(o, json_type_object));
    assert_int_equal((size_t)json_object_object_length(o), n);
    size_t i = 0;
    json_object_object_foreach(o, key, val) {
        (void)val;
        assert_string_equal(key, keys[i]);
        i++;
    }
}

static void test_json_shape(void **state)
{
    tree *t = *state;
    tt_run r = lt_lint(t->dir, "--no-cache", "--format", "json", "src", NULL);
    assert_int_equal(r.status, 1);
    json_object *j = tt_json(r.out);
    const char *top[] = {"tool", "version", "findings", "summary"};
    expect_keys(j, top, 4);
    assert_string_equal(json_object_get_string(tt_get(j, "tool")), "emberlint");
    assert_true(strlen(json_object_get_string(tt_get(j, "version"))) > 0);
    json_object *findings = tt_get(j, "findings");
    assert_int_equal(json_object_array_length(findings), 3);
    const char *fkeys[] = {"rule", "name", "severity", "file", "line", "column", "message", "fixable",
                           "fingerprint"};
    for (size_t i = 0; i < 3; i++)
        expect_keys(json_object_array_get_idx(findings, i), fkeys, 9);

    /* sorted by file, line, column */
    json_object *f0 = json_object_array_get_idx(findings, 0);
    assert_string_equal(json_object_get_string(tt_get(f0, "rule")), "EH101");
    assert_string_equal(json_object_get_string(tt_get(f0, "name")), "backend-include");
    assert_string_equal(json_object_get_string(tt_get(f0, "severity")), "error");
    assert_string_equal(json_object_get_string(tt_get(f0, "file")), "src/bad.c");
    assert_int_equal(json_object_get_int(tt_get(f0, "line")), 2);
    assert_int_equal(json_object_get_int(tt_get(f0, "column")), 1);
    assert_true(json_object_get_boolean(tt_get(f0, "fixable")));
    assert_true(json_object_is_type(tt_get(f0, "line"), json_type_int));
    json_object *f1 = json_object_array_get_idx(findings, 1);
    assert_string_equal(json_object_get_string(tt_get(f1, "rule")), "EH001");
    assert_string_equal(json_object_get_string(tt_get(f1, "severity")), "warning");
    assert_false(json_object_get_boolean(tt_get(f1, "fixable")));
    json_object *f2 = json_object_array_get_idx(findings, 2);
    assert_string_equal(json_object_get_string(tt_get(f2, "file")), "src/we,ird: name.c");

    json_object *sum = tt_get(j, "summary");
    assert_int_equal(json_object_get_int(tt_get(sum, "files")), 3);
    assert_int_equal(json_object_get_int(tt_get(sum, "findings")), 3);
    assert_int_equal(json_object_get_int(tt_get(sum, "errors")), 2);
    assert_int_equal(json_object_get_int(tt_get(sum, "warnings")), 1);
    assert_int_equal(json_object_get_int(tt_get(sum, "notes")), 0);
    json_object *by = tt_get(sum, "by_rule");
    assert_int_equal(json_object_get_int(tt_get(by, "EH101")), 2);
    assert_int_equal(json_object_get_int(tt_get(by, "EH001")), 1);
    json_object_put(j);
    tt_free(&r);

    /* no findings: an empty list, exit 0 */
    r = lt_emberlint(t->dir, "--no-cache", "--format", "json", "--select", "EH000", "src", NULL);
    assert_int_equal(r.status, 0);
    j = tt_json(r.out);
    assert_int_equal(json_object_array_length(tt_get(j, "findings")), 0);
    json_object_put(j);
    tt_free(&r);
}

static void test_paths_relative_to_cwd(void **state)
{
    tree *t = *state;
    char *src = tt_path(t->dir, "src");
    char *other = tt_path(t->dir, "other");
    tt_run r = lt_lint(src, "--no-cache", "--format", "json", "bad.c", NULL);
    json_object *j = tt_json(r.out);
    assert_string_equal(json_object_get_string(tt_get(json_object_array_get_idx(tt_get(j, "findings"), 0), "file")),
                        "bad.c");
    json_object_put(j);
    tt_free(&r);
    r = lt_lint(other, "--no-cache", "--format", "json", "../src/bad.c", NULL);
    j = tt_json(r.out);
    assert_string_equal(json_object_get_string(tt_get(json_object_array_get_idx(tt_get(j, "findings"), 0), "file")),
                        "../src/bad.c");
    json_object_put(j);
    tt_free(&r);
    /* an absolute argument is still shown relative to the current directory */
    char *abs = tt_path(t->dir, "src/bad.c");
    r = lt_lint(t->dir, "--no-cache", abs, NULL);
    assert_true(strncmp(r.out, "src/bad.c:2:1: error:", 21) == 0);
    tt_free(&r);
    free(abs);
    free(src);
    free(other);
}

static const char *str_at(json_object *o, const char *a, const char *b)
{
    json_object *x = tt_get(o, a);
    if (b)
        x = tt_get(x, b);
    assert_true(json_object_is_type(x, json_type_string));
    return json_object_get_string(x);
}

static void test_sarif(void **state)
{
    tree *t = *state;
    tt_run r = lt_lint(t->dir, "--no-cache", "--format", "sarif", "src", NULL);
    assert_int_equal(r.status, 1);
    json_object *j = tt_json(r.out);
    assert_string_equal(json_object_get_string(tt_get(j, "version")), "2.1.0");
    assert_true(tt_contains(json_object_get_string(tt_get(j, "$schema")), "sarif"));
    json_object *runs = tt_get(j, "runs");
    assert_int_equal(json_object_array_length(runs), 1);
    json_object *run = json_object_array_get_idx(runs, 0);
    json_object *driver = tt_get(tt_get(run, "tool"), "driver");
    assert_string_equal(json_object_get_string(tt_get(driver, "name")), "emberlint");
    json_object *rules = tt_get(driver, "rules");
    assert_true(json_object_array_length(rules) >= 14);
    for (size_t i = 0; i < json_object_array_length(rules); i++) {
        json_object *rule = json_object_array_get_idx(rules, i);
        assert_true(strncmp(str_at(rule, "id", NULL), "EH", 2) == 0);
        assert_true(strlen(str_at(rule, "name", NULL)) > 0);
        assert_true(strlen(str_at(rule, "shortDescription", "text")) > 0);
        assert_true(strlen(str_at(rule, "fullDescription", "text")) > 0);
        assert_true(strlen(str_at(tt_get(rule, "help"), "text", NULL)) > 0);
        assert_true(strlen(str_at(tt_get(rule, "help"), "markdown", NULL)) > 0);
        const char *level = str_at(tt_get(rule, "defaultConfiguration"), "level", NULL);
        assert_true(strcmp(level, "error") == 0 || strcmp(level, "warning") == 0 ||
                    strcmp(level, "note") == 0);
    }
    /* EH101's help is its docs page */
    json_object *eh101 = NULL;
    for (size_t i = 0; i < json_object_array_length(rules); i++)
        if (strcmp(str_at(json_object_array_get_idx(rules, i), "id", NULL), "EH101") == 0)
            eh101 = json_object_array_get_idx(rules, i);
    assert_non_null(eh101);
    assert_true(tt_contains(str_at(tt_get(eh101, "help"), "markdown", NULL), "## How to fix"));
    assert_string_equal(str_at(eh101, "name", NULL), "backend-include");

    json_object *results = tt_get(run, "results");
    assert_int_equal(json_object_array_length(results), 3);
    for (size_t i = 0; i < json_object_array_length(results); i++) {
        json_object *res = json_object_array_get_idx(results, i);
        const char *id = str_at(res, "ruleId", NULL);
        int idx = json_object_get_int(tt_get(res, "ruleIndex"));
        assert_string_equal(str_at(json_object_array_get_idx(rules, (size_t)idx), "id", NULL), id);
        const char *level = str_at(res, "level", NULL);
        assert_true(strcmp(level, "error") == 0 || strcmp(level, "warning") == 0);
        assert_true(strlen(str_at(tt_get(res, "message"), "text", NULL)) > 0);
        json_object *locs = tt_get(res, "locations");
        assert_int_equal(json_object_array_length(locs), 1);
        json_object *phys = tt_get(json_object_array_get_idx(locs, 0), "physicalLocation");
        const char *uri = str_at(tt_get(phys, "artifactLocation"), "uri", NULL);
        assert_true(strncmp(uri, "src/", 4) == 0); /* relative */
        assert_string_equal(str_at(tt_get(phys, "artifactLocation"), "uriBaseId", NULL), "%SRCROOT%");
        json_object *region = tt_get(phys, "region");
        assert_true(json_object_get_int(tt_get(region, "startLine")) >= 1);
        assert_true(json_object_get_int(tt_get(region, "startColumn")) >= 1);
    }
    /* what the SARIF validator and GitHub want (tests/lint/sarif_validate.sh
     * runs the real validator): an information URI, unique tags, a help
     * URI per rule, a fingerprint per result, fixes where there is one */
    assert_true(strlen(str_at(driver, "informationUri", NULL)) > 8);
    for (size_t i = 0; i < json_object_array_length(rules); i++) {
        json_object *rule = json_object_array_get_idx(rules, i);
        json_object *tags = tt_get(tt_get(rule, "properties"), "tags");
        for (size_t a = 0; a < json_object_array_length(tags); a++)
            for (size_t b = a + 1; b < json_object_array_length(tags); b++)
                assert_string_not_equal(json_object_get_string(json_object_array_get_idx(tags, a)),
                                        json_object_get_string(json_object_array_get_idx(tags, b)));
        assert_true(tt_contains(str_at(rule, "helpUri", NULL), str_at(rule, "id", NULL)));
    }
    json_object *first = json_object_array_get_idx(results, 0);
    const char *fp = str_at(tt_get(first, "partialFingerprints"), "emberlint/v1", NULL);
    assert_int_equal(strlen(fp), 18); /* 16 hex digits, ":1" */
    json_object *change = json_object_array_get_idx(
        tt_get(json_object_array_get_idx(tt_get(first, "fixes"), 0), "artifactChanges"), 0);
    assert_string_equal(str_at(tt_get(change, "artifactLocation"), "uri", NULL), "src/bad.c");
    json_object *rp = json_object_array_get_idx(tt_get(change, "replacements"), 0);
    assert_int_equal(json_object_get_int(tt_get(tt_get(rp, "deletedRegion"), "startLine")), 2);
    assert_string_equal(str_at(run, "columnKind", NULL), "utf16CodeUnits");
    /* a URI is percent-encoded */
    json_object *last = json_object_array_get_idx(results, 2);
    json_object *art = tt_get(tt_get(json_object_array_get_idx(tt_get(last, "locations"), 0),
                                     "physicalLocation"), "artifactLocation");
    assert_string_equal(str_at(art, "uri", NULL), "src/we%2Cird%3A%20name.c");
    const char *root = str_at(tt_get(tt_get(run, "originalUriBaseIds"), "%SRCROOT%"), "uri", NULL);
    assert_true(strncmp(root, "file:///", 8) == 0);
    assert_true(root[strlen(root) - 1] == '/');
    json_object_put(j);
    tt_free(&r);
}

/* SARIF columns count UTF-16 code units (its default columnKind); text
 * and JSON keep clang's byte columns. */
static void test_sarif_utf16_columns(void **state)
{
    (void)state;
    char *dir = tt_tmpdir();
    /* "é" is 2 bytes, 1 UTF-16 unit; "😀" is 4 bytes, 2 units */
    free(tt_write(dir, "u.c", "/* \xc3\xa9 */ #include <cblas.h>\n/* \xf0\x9f\x98\x80 */ #include <lapacke.h>\n"));
    tt_run r = lt_lint(dir, "--no-cache", "--format", "json", "u.c", NULL);
    json_object *j = tt_json(r.out);
    json_object *f = tt_get(j, "findings");
    assert_int_equal(json_object_get_int(tt_get(json_object_array_get_idx(f, 0), "column")), 10);
    assert_int_equal(json_object_get_int(tt_get(json_object_array_get_idx(f, 1), "column")), 12);
    json_object_put(j);
    tt_free(&r);
    r = lt_lint(dir, "--no-cache", "--format", "sarif", "u.c", NULL);
    j = tt_json(r.out);
    json_object *results = tt_get(json_object_array_get_idx(tt_get(j, "runs"), 0), "results");
    static const int want[] = {9, 10};
    for (size_t i = 0; i < 2; i++) {
        json_object *region = tt_get(tt_get(json_object_array_get_idx(tt_get(json_object_array_get_idx(results, i),
                                                                             "locations"), 0),
                                            "physicalLocation"), "region");
        assert_int_equal(json_object_get_int(tt_get(region, "startColumn")), want[i]);
    }
    json_object_put(j);
    tt_free(&r);
    tt_rmtree(dir);
    free(dir);
}

static void test_github(void **state)
{
    tree *t = *state;
    tt_run r = lt_lint(t->dir, "--no-cache", "--format", "github", "src", NULL);
    assert_int_equal(r.status, 1);
    assert_true(tt_contains(r.out, "::error file=src/bad.c,line=2,col=1,title=EH101::frontend code "
                                   "includes backend-private header 'cblas.h'\n"));
    assert_true(tt_contains(r.out, "::warning file=src/stale.c,line=1,col=24,title=EH001::unused "
                                   "suppression of EH101"));
    assert_true(tt_contains(r.out, "::error file=src/we%2Cird%3A name.c,line=1,col=1,title=EH101::"));
    /* one line per finding */
    size_t lines = 0;
    for (const char *p = r.out; *p; p++)
        lines += *p == '\n';
    assert_int_equal(lines, 3);
    tt_free(&r);
}

/* Many findings on one long line (generated code): the reports cost one
 * pass over the line, not one per finding.  Each finding's fingerprint
 * hashed the whole line again (and SARIF's UTF-16 column scanned it):
 * 20000 findings on a 1 MB line took 140 s in text and 160 s in SARIF,
 * 0.6 s and 1.1 s now; the bound is far from both.  The fingerprints stay
 * what they were: one HASH for the line, N = 1, 2, ... */
static void test_many_findings_on_one_long_line(void **state)
{
    (void)state;
    char *dir = tt_tmpdir();
    enum { N = 20000 };
    size_t cap = (size_t)N * 64 + 64, n = 0;
    char *text = malloc(cap);
    assert_non_null(text);
    n += (size_t)snprintf(text + n, cap - n, "void f(int b) {");
    for (int i = 0; i < N; i++)
        n += (size_t)snprintf(text + n, cap - n, " double d%d = %d / b;", i, i + 1);
    n += (size_t)snprintf(text + n, cap - n, " }\n");
    free(tt_write(dir, "gen.c", text));
    free(text);
    const char *formats[] = {"json", "sarif"};
    for (size_t f = 0; f < 2; f++) {
        time_t t0 = time(NULL);
        tt_run r = lt_lint(dir, "--no-cache", "--select", "EH302", "--format", formats[f], "gen.c", NULL);
        assert_true(time(NULL) - t0 < 30);
        assert_int_equal(r.status, 1);
        if (f == 0) {
            json_object *j = tt_json(r.out);
            json_object *v = tt_get(j, "findings");
            assert_int_equal(json_object_array_length(v), N);
            const char *first = json_object_get_string(tt_get(json_object_array_get_idx(v, 0), "fingerprint"));
            const char *colon = strchr(first, ':');
            assert_non_null(colon);
            assert_string_equal(colon, ":1");
            for (size_t i = 1; i < N; i += 997) {
                const char *fp = json_object_get_string(tt_get(json_object_array_get_idx(v, i), "fingerprint"));
                assert_memory_equal(fp, first, (size_t)(colon - first + 1));
                char want[16];
                snprintf(want, sizeof want, "%zu", i + 1);
                assert_string_equal(fp + (colon - first + 1), want);
            }
            json_object_put(j);
        }
        tt_free(&r);
    }
    tt_rmtree(dir);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_json_shape, tree_setup, tree_teardown),
        cmocka_unit_test_setup_teardown(test_paths_relative_to_cwd, tree_setup, tree_teardown),
        cmocka_unit_test_setup_teardown(test_sarif, tree_setup, tree_teardown),
        cmocka_unit_test_setup_teardown(test_github, tree_setup, tree_teardown),
        cmocka_unit_test(test_sarif_utf16_columns),
        cmocka_unit_test(test_many_findings_on_one_long_line),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
