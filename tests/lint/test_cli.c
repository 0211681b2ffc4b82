/* tests/lint/test_cli.c -- emberlint's command line: exit codes, rule
 * selection, --fail-on, --list-rules, --explain, --statistics, --help,
 * --version, -o, usage errors. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lint_test.h"
#include "strbuf.h"

/* A scratch tree: one EH101 error, one EH001 warning, one clean file. */
typedef struct tree {
    char *dir;
} tree;

static int tree_setup(void **state)
{
    tree *t = calloc(1, sizeof *t);
    t->dir = tt_tmpdir();
    free(tt_write(t->dir, "src/bad.c", "#include <cblas.h>\nint bad(void) { return 0; }\n"));
    free(tt_write(t->dir, "src/stale.c",
                  "#include <stddef.h> // emberlint-ignore EH101\nint stale(void) { return 0; }\n"));
    free(tt_write(t->dir, "src/good.c", "#include <stddef.h>\nint good(void) { return 0; }\n"));
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

static void test_exit_codes(void **state)
{
    tree *t = *state;
    tt_run r = lt_lint(t->dir, "--no-cache", "src", NULL);
    assert_int_equal(r.status, 1);
    assert_true(tt_contains(r.out, "src/bad.c:1:1: error: "));
    assert_true(tt_contains(r.out, "[EH101]"));
    assert_true(tt_contains(r.out, "src/stale.c:1:24: warning: unused suppression of EH101"));
    tt_free(&r);

    r = lt_lint(t->dir, "--no-cache", "src/good.c", NULL);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, "");
    tt_free(&r);
}

/* A directory without sources (a CI job pointed at the wrong one) is
 * said, not passed in silence; the exit status stays 0. */
static void test_nothing_to_lint(void **state)
{
    tree *t = *state;
    free(tt_write(t->dir, "docs/readme.txt", "no code here\n"));
    tt_run r = lt_lint(t->dir, "--no-cache", "docs", NULL);
    assert_int_equal(r.status, 0);
    assert_true(tt_contains(r.err, "emberlint: warning: nothing to lint: no source or header under the given paths"));
    tt_free(&r);
    r = lt_lint(t->dir, "--no-cache", "src/good.c", NULL);
    assert_false(tt_contains(r.err, "nothing to lint"));
    tt_free(&r);
    /* a mistyped path is an I/O error, said once: no second, misleading
     * line about "languages" and "exclude" */
    r = lt_lint(t->dir, "--no-cache", "src/goood.c", NULL);
    assert_int_equal(r.status, 2);
    assert_true(tt_contains(r.err, "src/goood.c: No such file or directory"));
    assert_false(tt_contains(r.err, "nothing to lint"));
    tt_free(&r);
}

/* A walk passes C++ files over while "languages" leaves C++ out (the
 * default); a mixed tree (a C library with its BLAS calls in .cpp files)
 * would look clean, so the run says how many it passed over, once -- not
 * those "exclude" skips, nor one named on the command line. */
static void test_unwalked_cxx(void **state)
{
    tree *t = *state;
    const char *note = "emberlint: note: 2 C++ files under src were not linted (\"languages\" is "
                       "[\"c\"]; add \"c++\" to it in .emberlint.json to lint them)\n";
    tt_run r = lt_lint(t->dir, "--no-cache", "src", NULL);
    assert_false(tt_contains(r.err, "C++"));
    tt_free(&r);
    free(tt_write(t->dir, "src/blas.cpp", "#include <cblas.h>\nint gemm() { return 0; }\n"));
    free(tt_write(t->dir, "src/k/util.hpp", "int util();\n"));
    free(tt_write(t->dir, "src/gen/made.cc", "int made() { return 0; }\n"));
    free(tt_write(t->dir, "src/k/old.hh", "int old();\n"));
    free(tt_write(t->dir, ".emberlint.json", "{\"exclude\": [\"src/gen/\", \"*.hh\"]}\n"));
    r = lt_lint(t->dir, "--no-cache", "src", NULL);
    assert_int_equal(r.status, 1); /* the C findings: a note never fails a run */
    assert_true(tt_contains(r.err, note));
    assert_false(tt_contains(strstr(r.err, note) + strlen(note), "C++")); /* once */
    assert_false(tt_contains(r.out, "blas.cpp"));
    /* the patterns matched (the C++ files) */
    assert_false(tt_contains(r.err, "matches none"));
    tt_free(&r);
    /* --diff and --fix lint again after fixing: still once */
    r = lt_lint(t->dir, "--no-cache", "--fix", "src", NULL);
    assert_true(tt_contains(r.err, note));
    assert_false(tt_contains(strstr(r.err, note) + strlen(note), "C++"));
    tt_free(&r);
    /* a link to one is the same file, counted once; --config FILE is the
     * file named */
    char *link = tt_fmt("%s/src/k/link.cpp", t->dir);
    assert_int_equal(symlink("../blas.cpp", link), 0);
    free(tt_write(t->dir, "my.json", "{\"exclude\": [\"src/gen/\", \"*.hh\"]}\n"));
    r = lt_lint(t->dir, "--no-cache", "--config", "my.json", "src", NULL);
    assert_true(tt_contains(r.err, "emberlint: note: 2 C++ files under src were not linted (\"languages\" "
                                   "is [\"c\"]; add \"c++\" to it in my.json to lint them)\n"));
    tt_free(&r);
    unlink(link);
    free(link);
    /* one named is linted */
    r = lt_lint(t->dir, "--no-cache", "src", "src/blas.cpp", NULL);
    assert_true(tt_contains(r.err, "emberlint: note: 1 C++ file under src was not linted ("));
    assert_true(tt_contains(r.out, "src/blas.cpp:1:1: error: "));
    tt_free(&r);
    /* a directory named is walked whole, even if excluded */
    r = lt_lint(t->dir, "--no-cache", "src/k", "src/gen", NULL);
    assert_true(tt_contains(r.err, "emberlint: note: 2 C++ files under src/k, src/gen were not linted ("));
    tt_free(&r);
    r = lt_lint(t->dir, "--no-cache", "src/good.c", NULL); /* no walk */
    assert_false(tt_contains(r.err, "C++"));
    tt_free(&r);
    /* "languages" holds C++: linted, no note */
    free(tt_write(t->dir, ".emberlint.json", "{\"languages\": [\"c\", \"c++\"]}\n"));
    r = lt_lint(t->dir, "--no-cache", "src", NULL);
    assert_false(tt_contains(r.err, "not linted"));
    assert_true(tt_contains(r.out, "src/blas.cpp:1:1: error: "));
    tt_free(&r);
}

/* The copy compiled under the other Fortran mangling the tree's alias
 * macros choose (SuperLU's -DAdd__: `#define daxpy_ daxpy__`, in the copy
 * and in its callers; or `_daxpy_`): the calls are the project's, and the note names
 * them as called, by the routine's Fortran name. */
static void test_own_copy_mangled_noted(void **state)
{
    (void)state;
    static const char *const manglings[] = {"daxpy__", "_daxpy_"};
    for (size_t k = 0; k < sizeof manglings / sizeof *manglings; k++) {
        char *dir = tt_tmpdir();
        char *names = tt_fmt("#define daxpy_ %s\n"
                             "void daxpy_(const int *n, const double *a, const double *x,\n"
                             "            const int *incx, double *y, const int *incy);\n",
                             manglings[k]);
        free(tt_write(dir, "app/names.h", names));
        free(names);
        free(tt_write(dir, "app/blas/daxpy.c",
                      "#include \"../names.h\"\n"
                      "void daxpy_(const int *n, const double *a, const double *x, const int *incx,\n"
                      "            double *y, const int *incy)\n"
                      "{ for (int i = 0; i < *n; i++) y[i * *incy] += *a * x[i * *incx]; }\n"));
        free(tt_write(dir, "app/step.c",
                      "#include \"names.h\"\n"
                      "void step(double *x, double *y, int n)\n"
                      "{ int one = 1; double a = 0.5; daxpy_(&n, &a, x, &one, y, &one); }\n"));
        tt_run r = lt_emberlint(dir, "--select", "EH102", "--no-cache", "app", NULL);
        assert_int_equal(r.status, 0);
        assert_string_equal(r.out, "");
        assert_true(tt_contains(r.err, "emberlint: note: 1 use of 1 function named as a library's "
                                       "routine (daxpy_) is taken as the project's own code and not "
                                       "reported: the tree defines it (app/blas/daxpy.c:2); if it is a "
                                       "copy of the library, add app/blas/ to \"exclude\" in "
                                       ".emberlint.json"));
        tt_free(&r);
        tt_rmtree(dir);
        free(dir);
    }
}

/* A tree with its own copy of a library's routines (GSL's cblas/):
 * EH102 takes the calls into it as the project's own, so a run reports
 * none of them.  The run says so, once (a shard does not: the merge
 * does), the cached run too, and what to do if the copy is the library. */
static void test_own_copy_noted(void **state)
{
    (void)state;
    char *dir = tt_tmpdir();
    free(tt_write(dir, "app/cblas/cblas.h",
                  "double cblas_ddot(int n, const double *x, int incx, const double *y, int incy);\n"));
    free(tt_write(dir, "app/cblas/ddot.c",
                  "#include \"cblas.h\"\n"
                  "double cblas_ddot(int n, const double *x, int incx, const double *y, int incy)\n"
                  "{ double s = 0; for (int i = 0; i < n; i++) s += x[i * incx] * y[i * incy]; return s; }\n"));
    free(tt_write(dir, "app/norm.c", "#include \"cblas/cblas.h\"\n"
                                     "double norm2(const double *x, int n) { return cblas_ddot(n, x, 1, x, 1); }\n"));
    const char *note = "emberlint: note: 1 use of 1 function named as a library's routine (cblas_ddot) "
                       "is taken as the project's own code and not reported: the tree defines it "
                       "(app/cblas/ddot.c:2); if it is a copy of the library, add app/cblas/ to "
                       "\"exclude\" in .emberlint.json and run again\n";
    for (int warm = 0; warm < 2; warm++) { /* the facts come from the cache too */
        tt_run r = lt_emberlint(dir, "--select", "EH102", "app", NULL);
        assert_int_equal(r.status, 0);
        assert_string_equal(r.out, "");
        assert_non_null(strstr(r.err, note));
        assert_null(strstr(strstr(r.err, note) + 1, note)); /* once */
        tt_free(&r);
    }
    tt_run r = lt_emberlint(dir, "--select", "EH102", "--no-cache", "--shard", "1/2", "--format", "json", "-o", "s1.json", "app", NULL);
    assert_false(tt_contains(r.err, "note"));
    tt_free(&r);
    r = lt_emberlint(dir, "--select", "EH102", "--no-cache", "--shard", "2/2", "--format", "json", "-o", "s2.json", "app", NULL);
    assert_false(tt_contains(r.err, "note"));
    tt_free(&r);
    r = lt_emberlint(dir, "merge", "s1.json", "s2.json", NULL);
    assert_int_equal(r.status, 0);
    assert_true(tt_contains(r.err, note));
    tt_free(&r);
    /* -p without PATH: the note tells to name the tree */
    char *db = tt_fmt("[{\"directory\": \"%s/app\", \"file\": \"norm.c\", \"command\": \"cc -c norm.c\"},"
                      " {\"directory\": \"%s/app/cblas\", \"file\": \"ddot.c\", \"command\": \"cc -c ddot.c\"}]",
                      dir, dir);
    free(tt_write(dir, "build/compile_commands.json", db));
    free(db);
    r = lt_emberlint(dir, "--select", "EH102", "--no-cache", "-p", "build", NULL);
    assert_true(tt_contains(r.err, "add app/cblas/ to \"exclude\" in .emberlint.json and run again "
                                   "naming the tree (-p build .): a run without PATH lints every file "
                                   "compile_commands.json lists, excluded or not\n"));
    tt_free(&r);
    /* as the note says: the copy excluded, the call is reported */
    free(tt_write(dir, ".emberlint.json", "{\"exclude\": [\"app/cblas/\"]}\n"));
    r = lt_emberlint(dir, "--select", "EH102", "--no-cache", "app", NULL);
    assert_int_equal(r.status, 1);
    assert_false(tt_contains(r.err, "note"));
    assert_true(tt_contains(r.out, "app/norm.c:2:47: error: call to backend function 'cblas_ddot' [EH102]"));
    tt_free(&r);
    /* the project's own function that merely has the prefix: no note */
    free(tt_write(dir, ".emberlint.json", "{}\n"));
    free(tt_write(dir, "app/cblas/ddot.c", "int cblas_mine(void) { return 0; }\n"));
    free(tt_write(dir, "app/norm.c", "int cblas_mine(void);\nint use(void) { return cblas_mine(); }\n"));
    r = lt_emberlint(dir, "--select", "EH102", "--no-cache", "app", NULL);
    assert_false(tt_contains(r.err, "note"));
    tt_free(&r);
    tt_rmtree(dir);
    free(dir);
}

static void test_text_format_line(void **state)
{
    tree *t = *state;
    tt_run r = lt_lint(t->dir, "--no-cache", "--color", "never", "src/bad.c", NULL);
    assert_string_equal(r.out, "src/bad.c:1:1: error: frontend code includes backend-private header "
                               "'cblas.h' [EH101]\n");
    tt_free(&r);
    /* --color always colours; NO_COLOR is for auto only */
    r = lt_lint(t->dir, "--no-cache", "--color", "always", "src/bad.c", NULL);
    assert_true(tt_contains(r.out, "\033["));
    tt_free(&r);
    /* not a terminal: no colour by default */
    const char *argv[] = {"--no-cache", "src/bad.c", NULL};
    const char *env[] = {"NO_COLOR=1", NULL};
    r = lt_emberlintv(t->dir, argv, env);
    assert_false(tt_contains(r.out, "\033["));
    tt_free(&r);
}

static void test_fail_on(void **state)
{
    tree *t = *state;
    /* only a warning: fails by default (warning), not with --fail-on error */
    tt_run r = lt_lint(t->dir, "--no-cache", "src/stale.c", NULL);
    assert_int_equal(r.status, 1);
    tt_free(&r);
    r = lt_lint(t->dir, "--no-cache", "--fail-on", "error", "src/stale.c", NULL);
    assert_int_equal(r.status, 0);
    assert_true(tt_contains(r.out, "[EH001]")); /* still reported */
    tt_free(&r);
    r = lt_lint(t->dir, "--no-cache", "--fail-on=error", "src", NULL);
    assert_int_equal(r.status, 1);
    tt_free(&r);
    r = lt_lint(t->dir, "--no-cache", "--fail-on", "sometimes", "src", NULL);
    assert_int_equal(r.status, 2);
    assert_true(tt_contains(r.err, "emberlint: --fail-on: expected error or warning"));
    tt_free(&r);
}

static void test_select_ignore(void **state)
{
    tree *t = *state;
    tt_run r = lt_emberlint(t->dir, "--no-cache", "--format", "json", "--select", "EH101", "src", NULL);
    json_object *j = tt_json(r.out);
    assert_int_equal(lt_count_rule(j, NULL), 1);
    assert_int_equal(lt_count_rule(j, "EH101"), 1);
    json_object_put(j);
    tt_free(&r);

    r = lt_emberlint(t->dir, "--no-cache", "--format", "json", "--select", LT_RULES, "--ignore", "EH101",
                     "src", NULL);
    j = tt_json(r.out);
    assert_int_equal(lt_count_rule(j, "EH101"), 0);
    /* EH101 did not run, so its suppression is not judged either */
    assert_int_equal(lt_count_rule(j, "EH001"), 0);
    json_object_put(j);
    assert_int_equal(r.status, 0);
    tt_free(&r);

    /* prefixes, names, lower case, repeated options */
    r = lt_emberlint(t->dir, "--no-cache", "--format", "json", "--select", "EH0", "--select",
                     "backend-include", "--ignore", "eh001", "src", NULL);
    j = tt_json(r.out);
    assert_int_equal(lt_count_rule(j, "EH101"), 1);
    assert_int_equal(lt_count_rule(j, "EH001"), 0);
    json_object_put(j);
    tt_free(&r);

    r = lt_emberlint(t->dir, "--no-cache", "--select", "EH9", "src", NULL);
    assert_int_equal(r.status, 2);
    assert_true(tt_contains(r.err, "emberlint: --select: no rule is named 'EH9'"));
    tt_free(&r);
}

static void test_statistics(void **state)
{
    tree *t = *state;
    tt_run r = lt_lint(t->dir, "--no-cache", "--statistics", "src", NULL);
    assert_true(tt_contains(r.out, "     1  EH001  unused-suppression\n"));
    assert_true(tt_contains(r.out, "     1  EH101  backend-include\n"));
    tt_free(&r);
}

static void test_output_file(void **state)
{
    tree *t = *state;
    tt_run r = lt_lint(t->dir, "--no-cache", "-o", "report.txt", "src/bad.c", NULL);
    assert_int_equal(r.status, 1);
    assert_string_equal(r.out, "");
    tt_free(&r);
    char *p = tt_path(t->dir, "report.txt");
    FILE *f = fopen(p, "r");
    assert_non_null(f);
    char line[512] = "";
    assert_non_null(fgets(line, sizeof line, f));
    fclose(f);
    assert_true(tt_contains(line, "src/bad.c:1:1: error:"));
    free(p);
    r = lt_lint(t->dir, "--no-cache", "-o", "no/such/dir/report.txt", "src/bad.c", NULL);
    assert_int_equal(r.status, 2);
    assert_true(tt_contains(r.err, "emberlint: no/such/dir/report.txt: cannot write"));
    tt_free(&r);
}

static void test_list_rules(void **state)
{
    (void)state;
    tt_run r = lt_emberlint(NULL, "--list-rules", NULL);
    assert_int_equal(r.status, 0);
    const char *ids[] = {"EH000", "EH001", "EH002", "EH101", "EH102", "EH103", "EH104", "EH105",
                         "EH201", "EH202", "EH203", "EH301", "EH302", "EH401"};
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++)
        assert_true(tt_contains(r.out, ids[i]));
    assert_true(tt_contains(r.out, "backend-include"));
    tt_free(&r);

    r = lt_emberlint(NULL, "--list-rules", "--format", "json", NULL);
    json_object *j = tt_json(r.out);
    assert_true(json_object_is_type(j, json_type_array));
    assert_int_equal(json_object_array_length(j), sizeof ids / sizeof ids[0]);
    json_object *first = json_object_array_get_idx(j, 0);
    assert_string_equal(json_object_get_string(tt_get(first, "id")), "EH000");
    assert_string_equal(json_object_get_string(tt_get(first, "name")), "parse-error");
    assert_string_equal(json_object_get_string(tt_get(first, "severity")), "error");
    assert_true(json_object_get_boolean(tt_get(first, "implemented")));
    json_object_put(j);
    tt_free(&r);
}

static void test_explain(void **state)
{
    (void)state;
    tt_run r = lt_emberlint(NULL, "--explain", "EH101", NULL);
    assert_int_equal(r.status, 0);
    assert_true(tt_contains(r.out, "# EH101 backend-include"));
    assert_true(tt_contains(r.out, "## Bad"));
    assert_true(tt_contains(r.out, "## Good"));
    tt_free(&r);
    r = lt_emberlint(NULL, "--explain", "parse-error", NULL);
    assert_true(tt_contains(r.out, "# EH000 parse-error"));
    tt_free(&r);
    r = lt_emberlint(NULL, "--explain", "eh001", NULL);
    assert_true(tt_contains(r.out, "# EH001 unused-suppression"));
    tt_free(&r);
    r = lt_emberlint(NULL, "--explain", "EH999", NULL);
    assert_int_equal(r.status, 2);
    assert_true(tt_contains(r.err, "emberlint: --explain: no rule is named 'EH999'"));
    tt_free(&r);
}

/* Every rule page the build embeds agrees with rules/rules.json: its title
 * and its table (severity, applies to, fix).  A rule that is implemented
 * must have a page. */
static void test_docs_pages_match_metadata(void **state)
{
    (void)state;
    tt_run r = lt_emberlint(NULL, "--list-rules", "--format", "json", NULL);
    json_object *rules = tt_json(r.out);
    for (size_t i = 0; i < json_object_array_length(rules); i++) {
        json_object *m = json_object_array_get_idx(rules, i);
        const char *id = json_object_get_string(tt_get(m, "id"));
        const char *name = json_object_get_string(tt_get(m, "name"));
        char *path = tt_fmt("%s/docs/rules/%s.md", LINT_SRCDIR, id);
        FILE *f = fopen(path, "r");
        if (!f) {
            if (json_object_get_boolean(tt_get(m, "implemented"))) {
                print_error("%s is implemented but has no docs/rules/%s.md\n", id, id);
                fail();
            }
            free(path);
            continue;
        }
        char buf[65536];
        size_t n = fread(buf, 1, sizeof buf - 1, f);
        buf[n] = '\0';
        fclose(f);
        char *title = tt_fmt("# %s %s\n", id, name);
        char *row = tt_fmt("| %s | %s | %s", json_object_get_string(tt_get(m, "severity")),
                           json_object_get_string(tt_get(m, "applies_to")),
                           json_object_get_string(tt_get(m, "fix")));
        if (strncmp(buf, title, strlen(title)) != 0 || !strstr(buf, row)) {
            print_error("%s: expected the title \"%s\" and a table row starting \"%s\"\n", path,
                        title, row);
            fail();
        }
        assert_true(tt_contains(buf, "## Bad"));
        assert_true(tt_contains(buf, "## Good"));
        assert_true(tt_contains(buf, "## How to fix"));
        free(title);
        free(row);
        free(path);
    }
    json_object_put(rules);
    tt_free(&r);
}

static void test_help_version_usage(void **state)
{
    (void)state;
    tt_run r = lt_emberlint(NULL, "--help", NULL);
    assert_int_equal(r.status, 0);
    assert_true(tt_contains(r.out, "usage: emberlint [options] PATH..."));
    /* --color auto as el_want_color decides (docs/emberlint.md, the man page) */
    assert_true(tt_contains(r.out, "unless NO_COLOR is\n                        set and not empty or TERM is dumb"));
    tt_free(&r);
    r = lt_emberlint(NULL, "--version", NULL);
    assert_int_equal(r.status, 0);
    assert_true(tt_contains(r.out, "emberlint 0."));
    tt_free(&r);

    const char *bad[][4] = {
        {"--bogus", NULL},
        {"--format", "xml", "x.c", NULL},
        {"-j", "0", "x.c", NULL},
        {"-j", NULL},
        {"--max-file-size", "big", "x.c", NULL},
        {NULL},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        r = lt_emberlintv(NULL, bad[i], NULL);
        assert_int_equal(r.status, 2);
        assert_true(tt_contains(r.err, "emberlint: "));
        assert_string_equal(r.out, "");
        tt_free(&r);
    }
}

/* -p without PATH when the database lists nothing (empty): what is
 * wrong, not "no PATH given". */
static void test_database_lists_nothing(void **state)
{
    tree *t = *state;
    free(tt_write(t->dir, "empty/compile_commands.json", "[]\n"));
    tt_run r = lt_lint(t->dir, "--no-cache", "-p", "empty", NULL);
    assert_int_equal(r.status, 2);
    assert_true(tt_contains(r.err, "emberlint: empty/compile_commands.json lists no file to lint"));
    assert_false(tt_contains(r.err, "no PATH given"));
    assert_string_equal(r.out, "");
    tt_free(&r);
}

/* -p without PATH lints the database's files as files named, so an
 * "exclude" pattern does not skip them (chromaprint's CMake database
 * builds its copy of kissfft, src/3rdparty/: findings there while the
 * user's .emberlint.json excludes it, and nothing said).  The run says
 * so, once, and how to run with the exclusion; naming the tree applies
 * it and says nothing. */
static void test_database_excluded_noted(void **state)
{
    (void)state;
    char *dir = tt_tmpdir();
    free(tt_write(dir, "app/.emberlint.json", "{\"exclude\": [\"src/3rdparty/\"]}\n"));
    free(tt_write(dir, "app/src/main.c", "int main(void) { return 0; }\n"));
    free(tt_write(dir, "app/src/3rdparty/kiss/kiss.c", "#include <cblas.h>\nint kiss(void) { return 0; }\n"));
    free(tt_write(dir, "app/src/3rdparty/kiss/kissr.c", "int kissr(void) { return 0; }\n"));
    char *db = tt_fmt("[{\"directory\": \"%s/app/src\", \"file\": \"main.c\", \"command\": \"cc -c main.c\"},"
                      " {\"directory\": \"%s/app/src\", \"file\": \"3rdparty/kiss/kiss.c\", \"command\": \"cc -c 3rdparty/kiss/kiss.c\"},"
                      " {\"directory\": \"%s/app/src\", \"file\": \"3rdparty/kiss/kissr.c\", \"command\": \"cc -c 3rdparty/kiss/kissr.c\"}]",
                      dir, dir, dir);
    free(tt_write(dir, "build/compile_commands.json", db));
    free(db);
    const char *note = "emberlint: note: 2 files build/compile_commands.json builds match \"exclude\" "
                       "in app/.emberlint.json (app/src/3rdparty/kiss/kiss.c, ...) and were linted "
                       "anyway: without PATH the database names them; name the tree (-p build app) "
                       "to skip them\n";
    tt_run r = lt_lint(dir, "--no-cache", "-p", "build", NULL);
    assert_int_equal(r.status, 1);
    assert_true(tt_contains(r.out, "app/src/3rdparty/kiss/kiss.c:1:1: error: "));
    assert_true(tt_contains(r.err, note));
    assert_false(tt_contains(strstr(r.err, note) + strlen(note), "\"exclude\"")); /* once */
    tt_free(&r);
    /* as it says: the tree named, the pattern applies, no note */
    r = lt_lint(dir, "--no-cache", "-p", "build", "app", NULL);
    assert_int_equal(r.status, 0);
    assert_false(tt_contains(r.err, "\"exclude\" in"));
    tt_free(&r);
    /* nothing excluded: no note */
    free(tt_write(dir, "app/.emberlint.json", "{}\n"));
    r = lt_lint(dir, "--no-cache", "-p", "build", NULL);
    assert_false(tt_contains(r.err, "\"exclude\" in"));
    tt_free(&r);
    tt_rmtree(dir);
    free(dir);
}

/* A CI matrix runs `-p build` without PATH in N shards and merges them:
 * the merge says what one run says, the notes on the database's files
 * "exclude" matches and on own copies of a library's routines (with its
 * advice to name the tree) included, once each (the shards record that
 * they ran without PATH; the merge printed neither).  Shards that named
 * the tree note no excluded file, as one run naming it; shards of a run
 * without PATH and one with are refused. */
static void test_database_notes_merged(void **state)
{
    (void)state;
    char *dir = tt_tmpdir();
    free(tt_write(dir, "app/.emberlint.json", "{\"exclude\": [\"src/3rdparty/\"]}\n"));
    free(tt_write(dir, "app/src/main.c", "int main(void) { return 0; }\n"));
    free(tt_write(dir, "app/src/3rdparty/kiss/kiss.c", "#include <cblas.h>\nint kiss(void) { return 0; }\n"));
    free(tt_write(dir, "app/src/3rdparty/kiss/kissr.c", "int kissr(void) { return 0; }\n"));
    free(tt_write(dir, "app/cblas/cblas.h",
                  "double cblas_ddot(int n, const double *x, int incx, const double *y, int incy);\n"));
    free(tt_write(dir, "app/cblas/ddot.c",
                  "#include \"cblas.h\"\n"
                  "double cblas_ddot(int n, const double *x, int incx, const double *y, int incy)\n"
                  "{ double s = 0; for (int i = 0; i < n; i++) s += x[i * incx] * y[i * incy]; return s; }\n"));
    free(tt_write(dir, "app/src/norm.c", "#include \"../cblas/cblas.h\"\n"
                                         "double norm2(const double *x, int n) { return cblas_ddot(n, x, 1, x, 1); }\n"));
    static const char *const files[] = {"main.c", "3rdparty/kiss/kiss.c", "3rdparty/kiss/kissr.c",
                                        "norm.c", "../cblas/ddot.c"};
    el_buf db = {0};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
        el_buf_printf(&db, "%s{\"directory\": \"%s/app/src\", \"file\": \"%s\", \"command\": \"cc -c %s\"}",
                      i ? ", " : "[", dir, files[i], files[i]);
    el_buf_printf(&db, "]");
    free(tt_write(dir, "build/compile_commands.json", db.s));
    el_buf_free(&db);
    const char *excluded = "emberlint: note: 2 files build/compile_commands.json builds match \"exclude\" "
                           "in app/.emberlint.json (app/src/3rdparty/kiss/kiss.c, ...) and were linted "
                           "anyway: without PATH the database names them; name the tree (-p build app) "
                           "to skip them\n";
    const char *own = "add app/cblas/ to \"exclude\" in .emberlint.json and run again naming the tree "
                      "(-p build .): a run without PATH lints every file compile_commands.json lists, "
                      "excluded or not\n";
    for (int named = 0; named < 2; named++) { /* -p build, then -p build app */
        const char *path = named ? "app" : NULL;
        tt_run whole = lt_emberlint(dir, "--select", "EH0,EH101,EH102", "--no-cache", "--format", "json",
                                    "-p", "build", path, NULL);
        assert_int_equal(whole.status, !named); /* (kiss.c's EH101 finding) */
        assert_int_equal(tt_contains(whole.err, excluded), !named);
        assert_int_equal(tt_contains(whole.err, own), !named);
        assert_true(tt_contains(whole.err, "(cblas_ddot) is taken as the project's own code"));
        for (int n = 1; n <= 3; n++) {
            const char *margv[8] = {"merge", "--format", "json"};
            char *names[3];
            for (int k = 1; k <= n; k++) {
                char *spec = tt_fmt("%d/%d", k, n);
                names[k - 1] = tt_fmt("s%d.json", k);
                margv[2 + k] = names[k - 1];
                tt_run r = lt_emberlint(dir, "--select", "EH0,EH101,EH102", "--no-cache", "--format",
                                        "json", "--shard", spec, "-o", names[k - 1], "-p", "build", path,
                                        NULL);
                assert_false(tt_contains(r.err, "note"));
                tt_free(&r);
                free(spec);
            }
            margv[3 + n] = NULL;
            tt_run m = lt_emberlintv(dir, margv, NULL);
            assert_int_equal(m.status, whole.status);
            assert_string_equal(m.out, whole.out);
            assert_string_equal(m.err, whole.err);
            tt_free(&m);
            for (int k = 0; k < n; k++)
                free(names[k]);
        }
        tt_free(&whole);
    }
    /* shard 1/2 of -p build app, 2/2 of -p build: refused */
    tt_run r = lt_emberlint(dir, "--select", "EH0,EH101,EH102", "--no-cache", "--format", "json",
                            "--shard", "1/2", "-o", "s1.json", "-p", "build", "app", NULL);
    tt_free(&r);
    r = lt_emberlint(dir, "--select", "EH0,EH101,EH102", "--no-cache", "--format", "json",
                     "--shard", "2/2", "-o", "s2.json", "-p", "build", NULL);
    tt_free(&r);
    r = lt_emberlint(dir, "merge", "s1.json", "s2.json", NULL);
    assert_int_equal(r.status, 2);
    assert_true(tt_contains(r.err, "emberlint: s2.json: the shard ran with other paths or options than s1.json\n"));
    assert_false(tt_contains(r.err, "note"));
    tt_free(&r);
    /* a shard of an older emberlint (payload format 1) is refused */
    r = lt_emberlint(dir, "--select", "EH0,EH101,EH102", "--no-cache", "--format", "json",
                     "--shard", "1/1", "-o", "s1.json", "-p", "build", NULL);
    tt_free(&r);
    char *s1 = tt_path(dir, "s1.json"), *text = tt_read(s1, NULL);
    free(s1);
    assert_true(tt_contains(text, "\"format\": 2"));
    char *old = tt_replace_all(text, "\"format\": 2", "\"format\": 1");
    free(tt_write(dir, "s1.json", old));
    r = lt_emberlint(dir, "merge", "s1.json", NULL);
    assert_int_equal(r.status, 2);
    assert_true(tt_contains(r.err, "emberlint: s1.json: shard format 1; this version reads format 2\n"));
    tt_free(&r);
    free(old);
    free(text);
    tt_rmtree(dir);
    free(dir);
}

/* The note's scope: the advice names the project's root, not a nested
 * configuration's directory (naming that would leave the rest out);
 * directories above the project are not tested against the patterns (a
 * checkout under a directory called build/); a source the build
 * generates into its own directory is the build's, not an excluded one. */
static void test_database_excluded_note_scope(void **state)
{
    (void)state;
    char *dir = tt_tmpdir();
    free(tt_write(dir, ".emberlint.json", "{}\n"));
    free(tt_write(dir, "tests/.emberlint.json", "{\"exclude\": [\"fixtures/\"]}\n"));
    free(tt_write(dir, "src/a.c", "int a(void) { return 0; }\n"));
    free(tt_write(dir, "tests/t.c", "int t(void) { return 0; }\n"));
    free(tt_write(dir, "tests/fixtures/f.c", "int f(void) { return 0; }\n"));
    char *db = tt_fmt("[{\"directory\": \"%s\", \"file\": \"src/a.c\", \"command\": \"cc -c src/a.c\"},"
                      " {\"directory\": \"%s\", \"file\": \"tests/t.c\", \"command\": \"cc -c tests/t.c\"},"
                      " {\"directory\": \"%s\", \"file\": \"tests/fixtures/f.c\", \"command\": \"cc -c tests/fixtures/f.c\"}]",
                      dir, dir, dir);
    free(tt_write(dir, "build/compile_commands.json", db));
    free(db);
    tt_run r = lt_lint(dir, "--no-cache", "-p", "build/", NULL);
    assert_true(tt_contains(r.err, "emberlint: note: 1 file build/compile_commands.json builds matches "
                                   "\"exclude\" in tests/.emberlint.json (tests/fixtures/f.c) and was "
                                   "linted anyway: without PATH the database names it; name the tree "
                                   "(-p build .) to skip it\n"));
    tt_free(&r);
    tt_rmtree(dir);
    free(dir);

    /* a project under a directory called build/, with a source its build
     * generates: no note, and --show-config does not call it excluded */
    dir = tt_tmpdir();
    free(tt_write(dir, "build/proj/.emberlint.json", "{}\n"));
    free(tt_write(dir, "build/proj/src/a.c", "int a(void) { return 0; }\n"));
    free(tt_write(dir, "build/proj/out/gen/g.c", "int g(void) { return 0; }\n"));
    db = tt_fmt("[{\"directory\": \"%s/build/proj\", \"file\": \"src/a.c\", \"command\": \"cc -c src/a.c\"},"
                " {\"directory\": \"%s/build/proj/out\", \"file\": \"gen/g.c\", \"command\": \"cc -c gen/g.c\"}]",
                dir, dir);
    free(tt_write(dir, "build/proj/out/compile_commands.json", db));
    free(db);
    char *proj = tt_path(dir, "build/proj");
    r = lt_lint(proj, "--no-cache", "-p", "out", NULL);
    assert_false(tt_contains(r.err, "\"exclude\" in"));
    tt_free(&r);
    r = lt_emberlint(proj, "--show-config", "src/a.c", NULL);
    assert_int_equal(r.status, 0);
    assert_false(tt_contains(r.out, "excluded"));
    tt_free(&r);
    free(proj);
    tt_rmtree(dir);
    free(dir);
}

/* With a database, a header only the database's C++ files include,
 * while the run lints none of them ("languages" leaves C++ out), is
 * built -- by those files -- not "not built in this configuration" (43
 * of igraph's 45 such headers were C++ headers with a .h name). */
static void test_database_cxx_only_headers(void **state)
{
    tree *t = *state;
    free(tt_write(t->dir, "m/core.c", "#include \"core.h\"\nint core(void) { return 0; }\n"));
    free(tt_write(t->dir, "m/core.h", "int core(void);\n"));
    free(tt_write(t->dir, "m/graph.cpp", "#include \"graph.h\"\nint Graph::n() { return 0; }\n"));
    free(tt_write(t->dir, "m/graph.h", "#include \"node.h\"\nclass Graph { public: int n(); };\n"));
    free(tt_write(t->dir, "m/node.h", "class Node {};\n"));
    free(tt_write(t->dir, "m/unused.h", "int unused(void);\n"));
    char *db = tt_fmt("[{\"directory\": \"%s/m\", \"file\": \"core.c\", \"command\": \"cc -c core.c\"},"
                      " {\"directory\": \"%s/m\", \"file\": \"graph.cpp\", \"command\": \"c++ -c graph.cpp\"}]",
                      t->dir, t->dir);
    free(tt_write(t->dir, "build/compile_commands.json", db));
    free(db);
    tt_run r = lt_lint(t->dir, "--no-cache", "-v", "-p", "build", "m", NULL);
    assert_int_equal(r.status, 0);
    assert_true(tt_contains(r.err, "emberlint: 1 header under the paths is included by none of the "
                                   "files compile_commands.json builds (not built in this "
                                   "configuration): not linted (a file named on the command line "
                                   "is):\n  m/unused.h\n"));
    assert_true(tt_contains(r.err, "emberlint: 2 headers under the paths are included only by C++ "
                                   "files compile_commands.json builds, which this run does not "
                                   "lint (outside the paths, or left out by \"languages\"): not "
                                   "linted (a file named on the command line is):\n"
                                   "  m/graph.h\n  m/node.h\n"));
    assert_true(tt_contains(r.err, "emberlint: note: 1 C++ file under m was not linted"));
    tt_free(&r);
    /* the merge of shards says what one run says (its stderr is one
     * run's); the shards say nothing of it, the C++ note included */
    r = lt_lint(t->dir, "--no-cache", "-p", "build", "--format", "json", "m", NULL);
    char *single = strdup(r.err);
    tt_free(&r);
    for (int k = 1; k <= 2; k++) {
        char *shard = tt_fmt("%d/2", k), *out = tt_fmt("part%d.json", k);
        r = lt_lint(t->dir, "--no-cache", "-p", "build", "--format", "json", "--shard", shard, "-o", out,
                    "m", NULL);
        assert_false(tt_contains(r.err, "C++ file"));
        tt_free(&r);
        free(shard);
        free(out);
    }
    r = lt_emberlint(t->dir, "merge", "part1.json", "part2.json", NULL);
    assert_int_equal(r.status, 0);
    assert_true(tt_contains(r.err, "emberlint: 1 header under the paths is included by none of the "));
    assert_true(tt_contains(r.err, "emberlint: 2 headers under the paths are included only by C++ "
                                   "files compile_commands.json builds"));
    assert_true(tt_contains(r.err, "emberlint: note: 1 C++ file under m was not linted"));
    assert_string_equal(r.err, single);
    free(single);
    tt_free(&r);
}

/* A header the database's files read through a copy the build makes of
 * it (CMake's configure_file COPYONLY into build/: SCS's include/cones.h
 * as build/include/cones.h) is built in this configuration: a run over
 * the tree, whose walk skips build/, lints it (alone), instead of
 * calling it "included by none" and losing its findings.  A header of
 * the same name with other bytes is no copy: not built. */
static void test_database_header_copy(void **state)
{
    tree *t = *state;
    static const char CFG[] = "#ifdef EH_HAVE_BLAS\n#define CFG 1\n#else\n#define CFG 0\n#endif\n";
    free(tt_write(t->dir, "src/a.c", "#include \"cfg.h\"\n#include \"other.h\"\n"
                                     "int a(void) { return CFG + OTHER; }\n"));
    free(tt_write(t->dir, "include/cfg.h", CFG));
    free(tt_write(t->dir, "build/include/cfg.h", CFG));
    free(tt_write(t->dir, "include/other.h", "#define OTHER 1\n"));
    free(tt_write(t->dir, "build/include/other.h", "/* generated */\n#define OTHER 1\n"));
    char *db = tt_fmt("[{\"directory\": \"%s/build\", \"file\": \"%s/src/a.c\", "
                      "\"command\": \"cc -I%s/build/include -c %s/src/a.c\"}]",
                      t->dir, t->dir, t->dir, t->dir);
    free(tt_write(t->dir, "build/compile_commands.json", db));
    free(db);
    tt_run r = lt_emberlint(t->dir, "--no-cache", "-v", "--select", "EH103", "-p", "build", ".", NULL);
    if (r.status != 1 ||
        !tt_contains(r.out, "include/cfg.h:1:8: error: #ifdef on backend macro 'EH_HAVE_BLAS'") ||
        tt_contains(r.out, "build/include") ||
        !tt_contains(r.err, "emberlint: 1 header under the paths is included by none of the files "
                            "compile_commands.json builds (not built in this configuration): not "
                            "linted (a file named on the command line is):\n  include/other.h\n"))
        fail_msg("status %d\nstdout:\n%s\nstderr:\n%s", r.status, r.out, r.err);
    tt_free(&r);
    /* Without PATH the copy the TU reads stands for the tree's header: its
     * findings were reported at build/include/cfg.h, a file the next build
     * overwrites (and the project does not keep) */
    r = lt_emberlint(t->dir, "--no-cache", "--select", "EH103", "-p", "build", NULL);
    if (r.status != 1 ||
        !tt_contains(r.out, "include/cfg.h:1:8: error: #ifdef on backend macro 'EH_HAVE_BLAS'") ||
        tt_contains(r.out, "build/include"))
        fail_msg("without PATH: status %d\nstdout:\n%s\nstderr:\n%s", r.status, r.out, r.err);
    tt_free(&r);
}

/* A source file the database does not build is not linted: its
 * suppressions are not judged either (src/stale.c's emberlint-ignore of
 * EH101 was "unused suppression" [EH001] under the note that called the
 * file not linted); linted when named, they are. */
static void test_database_unbuilt_suppression(void **state)
{
    tree *t = *state;
    char *db = tt_fmt("[{\"directory\": \"%s\", \"file\": \"src/good.c\", "
                      "\"command\": \"cc -c src/good.c\"}]", t->dir);
    free(tt_write(t->dir, "build/compile_commands.json", db));
    free(db);
    tt_run r = lt_emberlint(t->dir, "--no-cache", "-p", "build", "src", NULL);
    if (r.status != 0 || tt_contains(r.out, "stale.c") ||
        !tt_contains(r.err, "emberlint: 2 source files under the paths are not in "
                            "compile_commands.json"))
        fail_msg("status %d\nstdout:\n%s\nstderr:\n%s", r.status, r.out, r.err);
    tt_free(&r);
    r = lt_emberlint(t->dir, "--no-cache", "-p", "build", "src/stale.c", NULL);
    if (r.status != 1 || !tt_contains(r.out, "src/stale.c:1:24: warning: unused suppression of "
                                             "EH101: no EH101 finding here [EH001]"))
        fail_msg("named: status %d\nstdout:\n%s\nstderr:\n%s", r.status, r.out, r.err);
    tt_free(&r);
}

/* A stale database (made in another checkout, or before its files
 * moved): none of its files exists.  With PATH as without, an error
 * (every file under the paths was "not built", and the run ended with
 * nothing linted and exit 0); some missing: a warning naming them.
 * ember-migrate says the same (tests/migrate/test_options.c). */
static void test_stale_database(void **state)
{
    tree *t = *state;
    char *db = tt_fmt("[{\"directory\": \"%s/old\", \"file\": \"gen.c\", \"command\": \"cc -c gen.c\"},"
                      " {\"directory\": \"%s/old\", \"file\": \"main.c\", \"command\": \"cc -c main.c\"},"
                      " {\"directory\": \"%s/old\", \"file\": \"main.c\", \"command\": \"cc -DX -c main.c\"}]",
                      t->dir, t->dir, t->dir);
    free(tt_write(t->dir, "build/compile_commands.json", db));
    free(db);
    const char *paths[] = {"src", NULL};
    for (size_t i = 0; i < 2; i++) {
        tt_run r = lt_lint(t->dir, "--no-cache", "-p", "build", paths[i], NULL);
        assert_int_equal(r.status, 2);
        assert_true(tt_contains(r.err, "emberlint: build/compile_commands.json is stale: none of the "
                                       "2 files it lists exists (old/gen.c, old/main.c): regenerate "
                                       "it in this tree"));
        assert_false(tt_contains(r.err, "not built"));
        assert_string_equal(r.out, "");
        tt_free(&r);
    }
    /* one of three missing: the others are linted */
    free(tt_write(t->dir, "part/src/a.c", "int a(void) { return 1; }\n"));
    free(tt_write(t->dir, "part/src/b.c", "int b(void) { return 2; }\n"));
    db = tt_fmt("[{\"directory\": \"%s/part/src\", \"file\": \"a.c\", \"command\": \"cc -c a.c\"},"
                " {\"directory\": \"%s/part/src\", \"file\": \"gone.c\", \"command\": \"cc -c gone.c\"},"
                " {\"directory\": \"%s/part/src\", \"file\": \"b.c\", \"command\": \"cc -c b.c\"}]",
                t->dir, t->dir, t->dir);
    free(tt_write(t->dir, "part/build/compile_commands.json", db));
    free(db);
    char *dir = tt_fmt("%s/part", t->dir);
    const char *part[] = {"src", NULL};
    for (size_t i = 0; i < 2; i++) {
        tt_run r = lt_lint(dir, "--no-cache", "-v", "-p", "build", part[i], NULL);
        assert_int_equal(r.status, 0);
        assert_true(tt_contains(r.err, "emberlint: warning: build/compile_commands.json lists 1 file "
                                       "that does not exist (src/gone.c), not linted: generated by "
                                       "the build? build first; moved or deleted? regenerate it\n"));
        assert_true(tt_contains(r.err, "2 files, 2 translation units"));
        tt_free(&r);
    }
    free(dir);
}

/* -p without PATH lints the database's C files, not the assembly it
 * also compiles (zstd's huf_decompress_amd64.S, by name or -x
 * assembler-with-cpp): parsed as C, it was an EH000 of 800 errors. */
static void test_database_skips_assembly(void **state)
{
    tree *t = *state;
    free(tt_write(t->dir, "asm/src/ok.c", "int ok(void) { return 1; }\n"));
    free(tt_write(t->dir, "asm/src/fast.S", ".text\n.globl fast\nfast:\n\tret\n"));
    free(tt_write(t->dir, "asm/src/gen.inc", "\t.text\n\tmovq %rax, %rbx\n"));
    char *db = tt_fmt("[{\"directory\": \"%s/asm/src\", \"file\": \"ok.c\", \"command\": \"cc -c ok.c\"},"
                      " {\"directory\": \"%s/asm/src\", \"file\": \"fast.S\", \"command\": \"cc -c fast.S\"},"
                      " {\"directory\": \"%s/asm/src\", \"file\": \"gen.inc\","
                      " \"command\": \"cc -x assembler-with-cpp -c gen.inc\"}]",
                      t->dir, t->dir, t->dir);
    free(tt_write(t->dir, "asm/build/compile_commands.json", db));
    free(db);
    char *dir = tt_fmt("%s/asm", t->dir);
    tt_run r = lt_lint(dir, "--no-cache", "-v", "-p", "build", NULL);
    assert_int_equal(r.status, 0);
    assert_false(tt_contains(r.out, "EH000"));
    assert_true(tt_contains(r.err, "1 translation unit"));
    tt_free(&r);
    free(dir);
}

/* Which language an entry compiles its file as is the -x before the file
 * (a later one is for the inputs after it), and it wins over the name:
 * `cc -x c -c asmgen.c -x assembler` was left out as assembly, `cc -x c
 * -c gen.S` too.  A database of assembly only says so (it said "lists no
 * file to lint (build first, ...)"). */
static void test_database_language_before_file(void **state)
{
    tree *t = *state;
    free(tt_write(t->dir, "lang/src/asmgen.c", "int asmgen(void) { return 1; }\n"));
    free(tt_write(t->dir, "lang/src/gen.S", "int gen(void) { return 2; }\n"));
    free(tt_write(t->dir, "lang/src/start.S", ".text\n.globl start\nstart:\n\tret\n"));
    free(tt_write(t->dir, "lang/src/mixed.c", "int mixed(void) { return 3; }\n"));
    char *db = tt_fmt("[{\"directory\": \"%s/lang/src\", \"file\": \"asmgen.c\", \"arguments\":"
                      " [\"cc\", \"-x\", \"c\", \"-c\", \"asmgen.c\", \"-x\", \"assembler\", \"-o\", \"asmgen.o\"]},"
                      " {\"directory\": \"%s/lang/src\", \"file\": \"gen.S\", \"command\": \"cc -x c -c gen.S\"},"
                      " {\"directory\": \"%s/lang/src\", \"file\": \"start.S\", \"command\": \"cc -c start.S\"},"
                      " {\"directory\": \"%s/lang/src\", \"file\": \"mixed.c\", \"arguments\":"
                      " [\"cc\", \"-x\", \"assembler-with-cpp\", \"-c\", \"start.S\", \"-x\", \"none\", \"-c\", \"mixed.c\"]}]",
                      t->dir, t->dir, t->dir, t->dir);
    free(tt_write(t->dir, "lang/build/compile_commands.json", db));
    free(db);
    char *dir = tt_fmt("%s/lang", t->dir);
    tt_run r = lt_lint(dir, "--no-cache", "-v", "-p", "build", NULL);
    if (r.status != 0 || !tt_contains(r.err, "3 translation units"))
        print_error("stdout:\n%s\nstderr:\n%s\n", r.out, r.err);
    assert_int_equal(r.status, 0);
    assert_false(tt_contains(r.out, "EH000"));
    assert_true(tt_contains(r.err, "3 files, 3 translation units"));
    tt_free(&r);
    free(dir);
    /* assembly only */
    db = tt_fmt("[{\"directory\": \"%s/lang/src\", \"file\": \"start.S\", \"command\": \"cc -c start.S\"}]",
                t->dir);
    free(tt_write(t->dir, "only/build/compile_commands.json", db));
    free(db);
    dir = tt_fmt("%s/only", t->dir);
    r = lt_lint(dir, "--no-cache", "-p", "build", NULL);
    assert_int_equal(r.status, 2);
    assert_true(tt_contains(r.err, "emberlint: build/compile_commands.json lists only assembly files: no C to lint"));
    tt_free(&r);
    free(dir);
}

/* --help and --version whose output cannot be written (a full disk, a
 * closed pipe) fail as every other output does: exit 2 and a line on
 * stderr, not 0. */
static void test_help_version_write_error(void **state)
{
    (void)state;
    FILE *f = fopen("/dev/full", "w");
    if (!f) {
        skip();
        return;
    }
    fclose(f);
    static const char *const opts[] = {"--help", "--version"};
    for (size_t i = 0; i < 2; i++) {
        char *cmd = tt_fmt("exec '%s' %s > /dev/full", EMBERLINT, opts[i]);
        const char *argv[] = {"/bin/sh", "-c", cmd, NULL};
        tt_run r = tt_exec(NULL, argv, NULL);
        assert_int_equal(r.status, 2);
        assert_true(tt_contains(r.err, "emberlint: standard output: write error"));
        tt_free(&r);
        free(cmd);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_exit_codes, tree_setup, tree_teardown),
        cmocka_unit_test_setup_teardown(test_nothing_to_lint, tree_setup, tree_teardown),
        cmocka_unit_test(test_own_copy_noted),
        cmocka_unit_test(test_own_copy_mangled_noted),
        cmocka_unit_test(test_database_excluded_noted),
        cmocka_unit_test(test_database_notes_merged),
        cmocka_unit_test(test_database_excluded_note_scope),
        cmocka_unit_test_setup_teardown(test_unwalked_cxx, tree_setup, tree_teardown),
        cmocka_unit_test_setup_teardown(test_text_format_line, tree_setup, tree_teardown),
        cmocka_unit_test_setup_teardown(test_fail_on, tree_setup, tree_teardown),
        cmocka_unit_test_setup_teardown(test_select_ignore, tree_setup, tree_teardown),
        cmocka_unit_test_setup_teardown(test_statistics, tree_setup, tree_teardown),
        cmocka_unit_test_setup_teardown(test_output_file, tree_setup, tree_teardown),
        cmocka_unit_test(test_list_rules),
        cmocka_unit_test(test_explain),
        cmocka_unit_test(test_docs_pages_match_metadata),
        cmocka_unit_test(test_help_version_usage),
        cmocka_unit_test(test_help_version_write_error),
        cmocka_unit_test_setup_teardown(test_database_skips_assembly, tree_setup, tree_teardown),
        cmocka_unit_test_setup_teardown(test_database_language_before_file, tree_setup, tree_teardown),
        cmocka_unit_test_setup_teardown(test_stale_database, tree_setup, tree_teardown),
        cmocka_unit_test_setup_teardown(test_database_lists_nothing, tree_setup, tree_teardown),
        cmocka_unit_test_setup_teardown(test_database_cxx_only_headers, tree_setup, tree_teardown),
        cmocka_unit_test_setup_teardown(test_database_header_copy, tree_setup, tree_teardown),
        cmocka_unit_test_setup_teardown(test_database_unbuilt_suppression, tree_setup, tree_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
