/* tests/lint/test_config.c -- .emberlint.json: found upward from each
 * file, merged over the built-in default, every key; --config; malformed
 * files reported as PATH:LINE:COL with what was expected (exit 2). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lint_test.h"

/* Lint paths (relative to dir) as JSON; the parsed report. */
static json_object *lint_json(int want_status, const char *a, const char *b)
{
    tt_run r = lt_lint(tt_dir, "--no-cache", "--format", "json", a, b, NULL);
    if (r.status != want_status) {
        print_error("status %d, wanted %d\nstdout:\n%s\nstderr:\n%s\n", r.status, want_status, r.out, r.err);
        fail();
    }
    json_object *j = tt_json(r.out);
    tt_free(&r);
    return j;
}

static const char *finding_field(json_object *j, size_t i, const char *key)
{
    return json_object_get_string(tt_get(json_object_array_get_idx(tt_get(j, "findings"), i), key));
}

static void test_builtin_default(void **state)
{
    (void)state;
    /* No configuration anywhere above: backends/<name>/ is backend code,
     * the rest frontend. */
    tt_w("src/a.c", "#include <cblas.h>\n");
    tt_w("backends/blas/k.c", "#include <cblas.h>\n");
    json_object *j = lint_json(1, "src", "backends");
    assert_int_equal(lt_count_rule(j, NULL), 1);
    assert_string_equal(finding_field(j, 0, "file"), "src/a.c");
    json_object_put(j);
}

/* A configuration above TMPDIR (a user's /tmp/.emberlint.json that turns
 * EH101 off) does not reach the scratch trees (they go elsewhere):
 * test_builtin_default with TMPDIR under such a file sees the built-in. */
static void test_hostile_config_above_tmpdir(void **state)
{
    (void)state;
    char *old = getenv("TMPDIR") ? strdup(getenv("TMPDIR")) : NULL;
    char *hostile = tt_tmpdir();
    free(tt_write(hostile, ".emberlint.json", "{\"rules\": {\"EH101\": \"off\"}}"));
    setenv("TMPDIR", hostile, 1);
    char *mine = tt_dir;
    tt_dir = tt_tmpdir();
    unsetenv("TMPDIR");
    if (old)
        setenv("TMPDIR", old, 1);
    assert_null(strstr(tt_dir, hostile));
    test_builtin_default(state);
    tt_rmtree(tt_dir);
    free(tt_dir);
    tt_dir = mine;
    tt_rmtree(hostile);
    free(hostile);
    free(old);
}

static void test_discovery_upward_nearest_wins(void **state)
{
    (void)state;
    tt_w(".emberlint.json", "{\"rules\": {\"EH101\": \"warning\"}}");
    tt_w("src/a.c", "#include <cblas.h>\n");
    tt_w("src/quiet/.emberlint.json", "{\"rules\": {\"EH101\": \"off\"}}");
    tt_w("src/quiet/b.c", "#include <cblas.h>\n");
    tt_w("src/notes/.emberlint.json", "{\"rules\": {\"EH101\": {\"severity\": \"note\"}}}");
    tt_w("src/notes/c.c", "#include <cblas.h>\n");
    json_object *j = lint_json(1, "src", NULL);
    assert_int_equal(lt_count_rule(j, NULL), 2);
    assert_string_equal(finding_field(j, 0, "file"), "src/a.c");
    assert_string_equal(finding_field(j, 0, "severity"), "warning");
    assert_string_equal(finding_field(j, 1, "file"), "src/notes/c.c");
    assert_string_equal(finding_field(j, 1, "severity"), "note");
    json_object_put(j);

    /* a note alone does not fail the run */
    j = lint_json(0, "src/notes", NULL);
    assert_int_equal(lt_count_rule(j, NULL), 1);
    json_object_put(j);
}

static void test_config_keys(void **state)
{
    (void)state;
    tt_w(".emberlint.json",
      "{\n"
      "  \"$comment\": \"every list key extends the default\",\n"
      "  \"backend_dirs\": [\"engines/<name>/\"],\n"
      "  \"core_paths\": [\"/dispatch/\"],\n"
      "  \"exclude\": [\"generated/\"],\n"
      "  \"backend_headers\": [\"vendor_blas.h\", \"vendor/**\"],\n"
      "  \"rules\": {\"EH101\": {\"applies_to\": [\"frontend\", \"core\"]}}\n"
      "}\n");
    tt_w("include/vendor_blas.h", "int vendor(void);\n");
    tt_w("src/a.c", "#include \"../include/vendor_blas.h\"\n");          /* added header */
    tt_w("src/b.c", "#include \"../engines/gpu/gpu.h\"\n");              /* added backend dir */
    tt_w("engines/gpu/gpu.h", "#include <cblas.h>\n");                   /* backend: fine */
    tt_w("dispatch/d.c", "#include <cblas.h>\n");                        /* core, but EH101 applies to core here */
    tt_w("generated/g.c", "#include <cblas.h>\n");                       /* excluded from the walk */
    tt_w("backends/blas/k.c", "#include <cblas.h>\n");                   /* the default backends/ still holds */
    json_object *j = lint_json(1, ".", NULL);
    assert_int_equal(lt_count_rule(j, NULL), 3);
    assert_string_equal(finding_field(j, 0, "file"), "dispatch/d.c");
    assert_string_equal(finding_field(j, 1, "file"), "src/a.c");
    assert_string_equal(finding_field(j, 2, "file"), "src/b.c");
    assert_true(tt_contains(finding_field(j, 2, "message"), "backend 'gpu'"));
    json_object_put(j);
    /* an excluded file or directory named on the command line is linted */
    j = lint_json(1, "generated/g.c", NULL);
    assert_int_equal(lt_count_rule(j, "EH101"), 1);
    json_object_put(j);
    j = lint_json(1, "generated", NULL);
    assert_int_equal(lt_count_rule(j, "EH101"), 1);
    json_object_put(j);
}

static void test_enabled_false_and_applies_backend(void **state)
{
    (void)state;
    tt_w(".emberlint.json", "{\"rules\": {\"EH001\": {\"enabled\": false},"
                         " \"EH101\": {\"applies_to\": [\"frontend\", \"backend\"]}}}");
    tt_w("src/a.c", "#include <stddef.h> // emberlint-ignore EH101\n");
    tt_w("backends/blas/k.c", "#include <cblas.h>\n");
    json_object *j = lint_json(1, "src", "backends");
    assert_int_equal(lt_count_rule(j, "EH001"), 0);
    assert_int_equal(lt_count_rule(j, "EH101"), 1);
    assert_string_equal(finding_field(j, 0, "file"), "backends/blas/k.c");
    json_object_put(j);
}

static void test_forced_config(void **state)
{
    (void)state;
    tt_w(".emberlint.json", "{\"rules\": {\"EH101\": \"off\"}}");
    tt_w("strict.json", "{\"rules\": {\"EH101\": \"error\"}}");
    tt_w("src/a.c", "#include <cblas.h>\n");
    json_object *j = lint_json(0, "src", NULL);
    assert_int_equal(lt_count_rule(j, NULL), 0);
    json_object_put(j);
    tt_run r = lt_lint(tt_dir, "--no-cache", "--config", "strict.json", "src", NULL);
    assert_int_equal(r.status, 1);
    assert_true(tt_contains(r.out, "src/a.c:1:1: error:"));
    tt_free(&r);
    r = lt_lint(tt_dir, "--no-cache", "--config", "missing.json", "src", NULL);
    assert_int_equal(r.status, 2);
    assert_true(tt_contains(r.err, "emberlint: missing.json: cannot read: No such file or directory"));
    tt_free(&r);
}

typedef struct bad_case {
    const char *text;
    const char *message; /* expected stderr, after "emberlint: <path>" */
} bad_case;

static void test_malformed(void **state)
{
    (void)state;
    const bad_case cases[] = {
        {"{\n  \"rules\": {\n    \"EH101\": \"warning\",\n  }\n}\n",
         ":4:3: trailing comma: expected another value after ','\n"},
        {"{\n  \"core_paths\": [\"x\"]\n  \"rules\": {}\n}\n",
         ":3:3: expected ',' or '}' after the property value\n"},
        {"{\"core_paths\" [\"x\"]}", ":1:15: expected ':' after the property name\n"},
        {"{\"exclude\": [\"a\" \"b\"]}", ":1:18: expected ',' or ']' after an array element\n"},
        {"{\"a\": 1} x", ":1:10: expected the end of the file after the JSON object\n"},
        {"{\"rules\": {", ":1:12: unexpected end of file: expected the rest of the JSON object\n"},
        {"", ":1:1: empty file: expected a JSON object\n"},
        {"[1, 2]", ":1:1: expected a JSON object at the top level\n"},
        {"{ // comment\n}", ":1:3: expected a quoted property name\n"},
        {"{\"rules\": {\"EH101\": {\"severity\": \"loud\"}}}",
         ":1:22: rules.EH101.severity: expected \"error\", \"warning\", \"note\" or \"off\"\n"},
        {"{\n \"rules\": {\n  \"EH999\": \"off\"\n }\n}",
         ":3:3: unknown rule ID \"EH999\": expected a rule ID (see emberlint --list-rules)\n"},
        {"{\"backend_headers\": \"cblas.h\"}", ":1:2: \"backend_headers\": expected an array of strings, or an object with \"add\", "
         "\"remove\" or \"replace\" arrays\n"},
        {"{\n\n  \"colour\": true}", ":3:3: unknown key \"colour\": expected one of root, rules, rewrites, "
                                      "backend_files, frontend_include, backend_dirs, core_paths, exclude, "
                                      "backends, backend_headers, vendor_headers, backend_prefixes, "
                                      "backend_macros, legacy_backend_dirs, languages, storage_accessors, "
                                      "scalar_reads, kernel_registrars, define_sets, replacements, copy_out, "
                                      "to_tensor, host_copies\n"},
        /* a key a typo or two away from one: that one is named */
        {"{\"backend_file\": {}}", ":1:2: unknown key \"backend_file\": did you mean \"backend_files\"?\n"},
        {"{\"langauges\": [\"c\"]}", ":1:2: unknown key \"langauges\": did you mean \"languages\"?\n"},
        {"{\"rules\": {\"EH103\": {\"options\": {\"backend_predicate\": [\"x\"]}}}}",
         ":1:34: rules.EH103.options: unknown option \"backend_predicate\": did you mean \"backend_predicates\"?\n"},
        {"{\"Core_Path\": []}", ":1:2: unknown key \"Core_Path\": did you mean \"core_paths\"?\n"},
        /* so does a rule ID (every rule's ID known: several when as near),
         * a key of a rule's object and a key of a rewrite */
        {"{\"rules\": {\"EH1O2\": \"off\"}}", ":1:12: unknown rule ID \"EH1O2\": did you mean \"EH102\"?\n"},
        {"{\"rules\": {\"eh101\": \"off\"}}", ":1:12: unknown rule ID \"eh101\": did you mean \"EH101\"?\n"},
        {"{\"rules\": {\"EH10\": \"off\"}}", ":1:12: unknown rule ID \"EH10\": did you mean \"EH101\", "
         "\"EH102\", \"EH103\", \"EH104\" or \"EH105\"?\n"},
        {"{\"rules\": {\"EH102\": {\"severty\": \"note\"}}}",
         ":1:22: rules.EH102: unknown key \"severty\": did you mean \"severity\"?\n"},
        {"{\"rules\": {\"EH102\": {\"option\": {}}}}",
         ":1:22: rules.EH102: unknown key \"option\": did you mean \"options\"?\n"},
        {"{\"rules\": {\"EH102\": {\"colour\": \"red\"}}}",
         ":1:22: rules.EH102: unknown key \"colour\": expected \"enabled\", \"severity\", \"applies_to\" "
         "or \"options\"\n"},
        {"{\"rewrites\": [{\"function\": \"ddot_\", \"replacment\": \"f($1)\"}]}",
         ":1:15: rewrites[1]: unknown key \"replacment\": did you mean \"replacement\"?\n"},
        {"{\"rewrites\": [{\"function\": \"ddot_\", \"replacement\": \"f($1)\", \"safty\": \"safe\"}]}",
         ":1:15: rewrites[1]: unknown key \"safty\": did you mean \"safety\"?\n"},
        /* a rewrite without its template or its function says which is missing */
        {"{\"rewrites\": [{\"function\": \"ddot_\"}]}",
         ":1:15: rewrites[1]: missing \"replacement\": the call template ($1, $2, ... for the arguments, "
         "$* for all, $$ for '$')\n"},
        {"{\"rewrites\": [{\"replacement\": \"f($1)\"}]}",
         ":1:15: rewrites[1]: missing \"function\": the name of the function whose calls the template "
         "rewrites\n"},
        {"{\"rules\": {\"EH101\": {\"enabled\": 1}}}", ":1:22: rules.EH101.enabled: expected true or false\n"},
        {"{\"x\": \"\xff\"}", ":1:8: expected valid UTF-8\n"},
        /* a template whose brackets or literals do not close would make
         * code that does not parse of every call it rewrites */
        {"{\"rewrites\": [{\"function\": \"ddot_\", \"replacement\": \"f($1\"}]}",
         ":1:15: rewrites[1].replacement: its brackets, quotes or comments do not balance: every "
         "'(', '[', '{', literal and comment of the template must close in it\n"},
        {"{\"rewrites\": [{\"function\": \"ddot_\", \"replacement\": \"f($1])\"}]}",
         ":1:15: rewrites[1].replacement: its brackets, quotes or comments do not balance: every "
         "'(', '[', '{', literal and comment of the template must close in it\n"},
        {"{\"rewrites\": [{\"function\": \"ddot_\", \"replacement\": \"log(\\\"$1)\"}]}",
         ":1:15: rewrites[1].replacement: its brackets, quotes or comments do not balance: every "
         "'(', '[', '{', literal and comment of the template must close in it\n"},
        /* a comment that does not close, or that takes the closing bracket */
        {"{\"rewrites\": [{\"function\": \"ddot_\", \"replacement\": \"f($1 /* )\"}]}",
         ":1:15: rewrites[1].replacement: its brackets, quotes or comments do not balance: every "
         "'(', '[', '{', literal and comment of the template must close in it\n"},
        {"{\"rewrites\": [{\"function\": \"ddot_\", \"replacement\": \"f($1 // )\"}]}",
         ":1:15: rewrites[1].replacement: its brackets, quotes or comments do not balance: every "
         "'(', '[', '{', literal and comment of the template must close in it\n"},
        /* a line comment would take what follows the call on its line */
        {"{\"rewrites\": [{\"function\": \"ddot_\", \"replacement\": \"f($1) // ddot_\"}]}",
         ":1:15: rewrites[1].replacement: a // comment would take the rest of the line of every "
         "call it rewrites (the ';' after it): write /* ... */\n"},
    };
    tt_w("src/a.c", "int a;\n");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tt_w("src/.emberlint.json", cases[i].text);
        tt_run r = lt_lint(tt_dir, "--no-cache", "src", NULL);
        char *want = tt_fmt("emberlint: src/.emberlint.json%s", cases[i].message);
        if (r.status != 2 || strcmp(r.err, want) != 0) {
            print_error("case %zu: status %d\nstderr: %swanted: %s", i, r.status, r.err, want);
            fail();
        }
        assert_string_equal(r.out, "");
        free(want);
        tt_free(&r);
    }
    /* brackets and quotes inside a template's literals balance nothing:
     * f($1, '(', "\")[") is a good template */
    tt_w("src/.emberlint.json", "{\"rewrites\": [{\"function\": \"ddot_\", \"replacement\": "
                                "\"f($1, '(', \\\"\\\\\\\")[\\\")\"}]}\n");
    tt_w("src/ok.c", "int ok;\n");
    tt_run r = lt_lint(tt_dir, "--no-cache", "src", NULL);
    if (r.status != 0)
        print_error("status %d\nstderr: %s", r.status, r.err);
    assert_int_equal(r.status, 0);
    tt_free(&r);
    /* nor do they in a comment, and a quote in a comment, a digit
     * separator (C23, C++14) or a raw string (C++) opens no literal */
    static const char *const good[] = {
        "f($1 /* ) */)",
        "f($1 /* [ */, $2) /* it's */",
        "f(/* don't */ $1)",
        "f(1'000 * $1)",
        "f(1'000 * $1, 0x1'0000)",
        "g(R\\\"(x)\\\")",
        "g(R\\\"(\\\")\\\", $1)",
        "g(R\\\"d(\\\")\\\")d\\\", u8R\\\"(')\\\", $1)",
        "g(L'(', u8\\\")\\\", $1)",
    };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        char *text = tt_fmt("{\"rewrites\": [{\"function\": \"ddot_\", \"replacement\": \"%s\"}]}\n",
                            good[i]);
        tt_w("src/.emberlint.json", text);
        free(text);
        r = lt_lint(tt_dir, "--no-cache", "src", NULL);
        if (r.status != 0)
            print_error("template %s: status %d\nstderr: %s", good[i], r.status, r.err);
        assert_int_equal(r.status, 0);
        tt_free(&r);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        tt_scratch_test(test_builtin_default),
        tt_scratch_test(test_hostile_config_above_tmpdir),
        tt_scratch_test(test_discovery_upward_nearest_wins),
        tt_scratch_test(test_config_keys),
        tt_scratch_test(test_enabled_false_and_applies_backend),
        tt_scratch_test(test_forced_config),
        tt_scratch_test(test_malformed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
