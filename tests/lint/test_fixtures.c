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
 *
 * A finding is expected in the file that holds the annotation.  C++
 * fixtures (.cpp, .hpp) sit in a directory whose .emberlint.json says
 * "languages": ["c", "c++"].  Compared
 * are the findings of the directory's rule, of EH000 and of every rule
 * some annotation in the directory names, so a fixture of one rule does
 * not break when another rule is added. */
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lint_test.h"

#define FIXTURES "tests/lint/fixtures"

typedef struct expect {
    char *file;          /* as emberlint shows it: relative to LINT_SRCDIR */
    unsigned line;
    char rule[8];
    bool matched;
} expect;

typedef struct expects {
    expect *v;
    size_t n, cap;
    char rules[64][8];   /* rules to compare */
    size_t n_rules;
} expects;

static void add_rule(expects *e, const char *rule)
{
    for (size_t i = 0; i < e->n_rules; i++)
        if (strcmp(e->rules[i], rule) == 0)
            return;
    if (e->n_rules < 64)
        snprintf(e->rules[e->n_rules++], 8, "%s", rule);
}

static bool compared(const expects *e, const char *rule)
{
    for (size_t i = 0; i < e->n_rules; i++)
        if (strcmp(e->rules[i], rule) == 0)
            return true;
    return false;
}

static void add_expect(expects *e, const char *file, unsigned line, const char *rule)
{
    if (e->n == e->cap) {
        e->cap = e->cap ? e->cap * 2 : 32;
        e->v = realloc(e->v, e->cap * sizeof *e->v);
        assert_non_null(e->v);
    }
    expect *x = &e->v[e->n++];
    x->file = strdup(file);
    x->line = line;
    snprintf(x->rule, sizeof x->rule, "%s", rule);
    x->matched = false;
    add_rule(e, rule);
}

/* Annotations of one line: "expect: IDS" or "expect@+N: IDS",
 * "expect@-N: IDS", "expect@N: IDS". */
static void scan_line(expects *e, const char *file, unsigned lineno, const char *line)
{
    for (const char *p = strstr(line, "expect"); p; p = strstr(p + 1, "expect")) {
        const char *q = p + 6;
        long target = lineno;
        if (*q == '@') {
            q++;
            char *end;
            long v = strtol(q, &end, 10);
            if (end == q)
                continue;
            target = (*q == '+' || *q == '-') ? (long)lineno + v : v;
            q = end;
        }
        if (*q != ':')
            continue;
        q++;
        for (;;) {
            while (*q == ' ' || *q == ',' || *q == '\t')
                q++;
            size_t k = 0;
            while (isalnum((unsigned char)q[k]))
                k++;
            if (k < 3 || k > 7 || q[0] != 'E' || q[1] != 'H')
                break;
            char rule[8];
            memcpy(rule, q, k);
            rule[k] = '\0';
            add_expect(e, file, (unsigned)target, rule);
            q += k;
        }
    }
}

/* C and C++ sources and headers (C++ fixtures sit in directories whose
 * .emberlint.json turns "c++" on). */
static bool is_source(const char *name)
{
    static const char *const ext[] = {".c", ".h", ".cpp", ".hpp", ".cc", ".hh", NULL};
    size_t n = strlen(name);
    for (const char *const *e = ext; *e; e++) {
        size_t l = strlen(*e);
        if (n > l && strcmp(name + n - l, *e) == 0)
            return true;
    }
    return false;
}

/* rel: path relative to LINT_SRCDIR. */
static void scan_tree(expects *e, const char *rel)
{
    char *abs = tt_path(LINT_SRCDIR, rel);
    DIR *d = opendir(abs);
    assert_non_null(d);
    struct dirent *ent;
    while ((ent = readdir(d))) {
        if (ent->d_name[0] == '.')
            continue;
        char *child_rel = tt_path(rel, ent->d_name);
        char *child_abs = tt_path(LINT_SRCDIR, child_rel);
        struct stat st;
        if (lstat(child_abs, &st) == 0 && S_ISDIR(st.st_mode)) {
            scan_tree(e, child_rel);
        } else if (S_ISREG(st.st_mode) && is_source(ent->d_name)) {
            FILE *f = fopen(child_abs, "r");
            assert_non_null(f);
            char buf[4096];
            unsigned lineno = 0;
            while (fgets(buf, sizeof buf, f))
                scan_line(e, child_rel, ++lineno, buf);
            fclose(f);
        }
        free(child_rel);
        free(child_abs);
    }
    closedir(d);
    free(abs);
}

static void run_fixture_dir(void **state)
{
    const char *rule = *state;
    char *rel = tt_path(FIXTURES, rule);
    expects e = {0};
    add_rule(&e, rule);
    add_rule(&e, "EH000");
    scan_tree(&e, rel);

    tt_run r = lt_emberlint(NULL, "--no-cache", "--format", "json", rel, NULL);
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
        if (!compared(&e, frule))
            continue;
        bool found = false;
        for (size_t k = 0; k < e.n && !found; k++) {
            expect *x = &e.v[k];
            if (!x->matched && x->line == line && strcmp(x->rule, frule) == 0 &&
                strcmp(x->file, file) == 0) {
                x->matched = true;
                found = true;
            }
        }
        if (!found) {
            print_error("unexpected finding: %s:%u: %s: %s\n", file, line, frule,
                        json_object_get_string(tt_get(f, "message")));
            extra++;
        }
    }
    for (size_t k = 0; k < e.n; k++) {
        if (!e.v[k].matched) {
            print_error("missing finding: %s:%u: %s\n", e.v[k].file, e.v[k].line, e.v[k].rule);
            missing++;
        }
        free(e.v[k].file);
    }
    free(e.v);
    json_object_put(report);
    if (extra || missing)
        print_error("stderr:\n%s\n", r.err);
    tt_free(&r);
    free(rel);
    assert_int_equal(extra, 0);
    assert_int_equal(missing, 0);
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
    struct CMUnitTest *tests = calloc(n + 1, sizeof *tests);
    for (size_t i = 0; i < n; i++) {
        tests[i].name = names[i];
        tests[i].test_func = run_fixture_dir;
        tests[i].initial_state = names[i];
    }
    int rc = _cmocka_run_group_tests("fixtures", tests, n, NULL, NULL);
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(tests);
    return rc;
}
