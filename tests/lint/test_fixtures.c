/* tests/lint/test_fixtures.c -- the fixture driver.
 *
 * Every directory tests/lint/fixtures/<RULE>/ (EH000, EH101, ...) is one
 * test: emberlint lints the whole directory (--format json, no cache,
 * from the top of the tree, so the project's .emberlint.json applies
 * unless the fixture has its own), and its findings must be exactly those
 * the files announce, no more, no fewer.  Annotations are comments:
 *
 *     #include <cblas.h>    // expect: EH101
 *     x = 1 +               // expect@+1: EH201     (reported on the next line)
 *     // expect@12: EH000                           (reported on line 12)
 *     #include <cuda.h>     // expect: EH101, EH000 (two findings)
 *     y = HALF(a, b);       // expect: EH302 "macro 'HALF'" (and its message says so)
 *
 * A finding is expected in the file that holds the annotation.  C++
 * fixtures (.cpp, .hpp) sit in a directory whose .emberlint.json says
 * "languages": ["c", "c++"].  Compared
 * are the findings of the directory's rule, of EH000 and of every rule
 * some annotation in the directory names, so a fixture of one rule does
 * not break when another rule is added.
 * A fixture directory's cxx/ folder is linted a second time under
 * -std=c++11 (test "<RULE>/cxx c++11"), with the same annotations: many
 * C++ projects build as C++11 or C++14, whose ASTs differ from C++17's
 * (a std::string initialized from a call or a const char * is an
 * elidable move construction there, which libclang names no
 * constructor of). */
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "expects.h"
#include "lint_test.h"

#define FIXTURES "tests/lint/fixtures"

/* Lint FIXTURES/<rule><sub> (sub "" or "/cxx") with the compiler
 * arguments std (NULL: the defaults) and compare with its annotations. */
static void check_fixture(const char *rule, const char *sub, const char *std)
{
    char *top = tt_path(FIXTURES, rule);
    char *rel = tt_fmt("%s%s", top, sub);
    free(top);
    lt_expects e = {0};
    lt_expects_add_rule(&e, rule);
    lt_expects_add_rule(&e, "EH000");
    lt_expects_scan(&e, rel);

    tt_run r = std ? lt_emberlint(NULL, "--no-cache", "--format", "json", rel, "--", std, NULL)
                   : lt_emberlint(NULL, "--no-cache", "--format", "json", rel, NULL);
    if (r.status != 0 && r.status != 1) {
        print_error("emberlint exited %d on %s\nstderr:\n%s\n", r.status, rel, r.err);
        fail();
    }
    json_object *report = tt_json(r.out);
    json_object *findings = tt_get(report, "findings");
    size_t extra = 0, missing = 0;
    for (size_t i = 0; i < json_object_array_length(findings); i++) {
        json_object *f = json_object_array_get_idx(findings, i);
        const char *frule = json_object_get_string(tt_get(f, "rule"));
        const char *file = json_object_get_string(tt_get(f, "file"));
        unsigned line = (unsigned)json_object_get_int(tt_get(f, "line"));
        if (!lt_expects_names_rule(&e, frule))
            continue;
        const char *message = json_object_get_string(tt_get(f, "message"));
        if (!lt_expects_match(&e, file, line, frule, message)) {
            print_error("unexpected finding: %s:%u: %s: %s\n", file, line, frule, message);
            extra++;
        }
    }
    for (size_t k = 0; k < e.n; k++) {
        if (!e.v[k].matched) {
            print_error("missing finding: %s:%u: %s%s%s%s\n", e.v[k].file, e.v[k].line, e.v[k].rule,
                        e.v[k].says ? " saying \"" : "", e.v[k].says ? e.v[k].says : "",
                        e.v[k].says ? "\"" : "");
            missing++;
        }
    }
    lt_expects_free(&e);
    json_object_put(report);
    if (extra || missing)
        print_error("stderr:\n%s\n", r.err);
    tt_free(&r);
    free(rel);
    assert_int_equal(extra, 0);
    assert_int_equal(missing, 0);
}

static void run_fixture_dir(void **state)
{
    check_fixture(*state, "", NULL);
}

/* state: "<RULE>/cxx c++11" */
static void run_fixture_cxx11(void **state)
{
    char rule[16];
    snprintf(rule, sizeof rule, "%.*s", (int)strcspn(*state, "/"), (const char *)*state);
    check_fixture(rule, "/cxx", "-std=c++11");
}

static bool has_cxx(const char *rule)
{
    char *top = tt_path(LINT_SRCDIR, FIXTURES);
    char *p = tt_fmt("%s/%s/cxx", top, rule);
    free(top);
    struct stat st;
    bool yes = stat(p, &st) == 0 && S_ISDIR(st.st_mode);
    free(p);
    return yes;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(void)
{
    char *dir = tt_path(LINT_SRCDIR, FIXTURES);
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "test_fixtures: %s: cannot open\n", dir);
        return 1;
    }
    char *names[256];
    size_t n = 0;
    struct dirent *ent;
    while ((ent = readdir(d)) && n < 256) {
        if (strncmp(ent->d_name, "EH", 2) == 0 && isdigit((unsigned char)ent->d_name[2]))
            names[n++] = strdup(ent->d_name);
    }
    closedir(d);
    free(dir);
    qsort(names, n, sizeof *names, cmp_str);
    struct CMUnitTest *tests = calloc(2 * n + 1, sizeof *tests);
    char *cxx[256];
    size_t t = 0, n_cxx = 0;
    for (size_t i = 0; i < n; i++) {
        tests[t].name = names[i];
        tests[t].test_func = run_fixture_dir;
        tests[t++].initial_state = names[i];
        if (has_cxx(names[i])) {
            cxx[n_cxx] = tt_fmt("%s/cxx c++11", names[i]);
            tests[t].name = cxx[n_cxx];
            tests[t].test_func = run_fixture_cxx11;
            tests[t++].initial_state = cxx[n_cxx++];
        }
    }
    int rc = _cmocka_run_group_tests("fixtures", tests, t, NULL, NULL);
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    for (size_t i = 0; i < n_cxx; i++)
        free(cxx[i]);
    free(tests);
    return rc;
}
