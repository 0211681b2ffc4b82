/* tests/migrate/test_options.c -- --backend and -p on a real tree
 * (examples/legacy):
 *   - `apply --backend blas` then `apply --backend ref` then `apply`
 *     ends exactly where one `apply` does, the last run with exit 0 and
 *     nothing left for a person; the filtered runs leave the other
 *     backend's code and calls alone;
 *   - `plan -p BUILD_DIR` (compile_commands.json carrying the include
 *     path) gives the same diff as `plan ... -- -I...`;
 *   - with --backend ref, the ref include of a file that also includes
 *     the blas header cannot be replaced alone (the file's one
 *     <eh/eh.h> goes where the blas include is): it is listed for a
 *     person, not dropped silently. */
#include "migrate_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LEGACY MIGRATE_SRCDIR "/examples/legacy"

static char *legacy_copy(const char *dir, const char *name)
{
    char *t = tt_path(dir, name);
    tt_copytree(LEGACY, t);
    return t;
}

/* (every change of the full migration: its custom op is an unsafe one) */
static void test_backend_by_backend(void **state)
{
    (void)state;
    char *dir = tt_tmpdir();
    char *staged = legacy_copy(dir, "staged"), *whole = legacy_copy(dir, "whole");

    tt_run r = mt_migrate(staged, NULL, "apply", "-q", "--unsafe-fixes", "--backend", "blas", ".", NULL);
    /* the blas includes go, the ref ones stay for the ref run (the ref
     * calls are not selected: nothing is left for a person) */
    assert_int_equal(r.status, 0);
    tt_free(&r);
    char *gemm = tt_path(staged, "backends/blas/gemm.c");
    char *ref_linalg = tt_path(staged, "ops/ref/linalg.c");
    free(tt_read(gemm, NULL));         /* moved */
    free(tt_read(ref_linalg, NULL));   /* not moved */
    assert_true(tt_file_contains(staged, "fit.c", "eh_ref_matmul("));
    assert_false(tt_file_contains(staged, "fit.c", "eh_blas_matmul("));
    free(gemm);
    free(ref_linalg);

    r = mt_migrate(staged, NULL, "apply", "-q", "--unsafe-fixes", "--backend", "ref", ".", NULL);
    tt_free(&r);
    r = mt_migrate(staged, NULL, "apply", "--unsafe-fixes", ".", NULL);
    if (r.status != 0)
        print_error("third apply: %s", r.err);
    assert_int_equal(r.status, 0);
    tt_free(&r);

    r = mt_migrate(whole, NULL, "apply", "-q", "--unsafe-fixes", ".", NULL);
    assert_int_equal(r.status, 0);
    tt_free(&r);
    char *want = tt_snapshot(whole, true), *got = tt_snapshot(staged, true);
    tt_assert_same(want, got, "backend by backend vs all at once");
    free(want);
    free(got);
    tt_rmtree(dir);
    free(staged);
    free(whole);
    free(dir);
}

static void test_compile_commands(void **state)
{
    (void)state;
    char *dir = tt_tmpdir();
    char *tree = legacy_copy(dir, "app");
    /* every source of the application: a source the database does not
     * list is not built, so not migrated */
    static const char *const units[] = {"dataset.c", "fit.c", "main.c", "mlp.c", "normalize.c",
                                        "profile.c", "report.c", "ops/blas/axpy.c",
                                        "ops/blas/distance.c", "ops/blas/gemm.c",
                                        "ops/blas/lstsq.c", "ops/ref/distance.c",
                                        "ops/ref/elementwise.c", "ops/ref/linalg.c",
                                        "ops/ref/reduction.c", "ops/ref/shape.c"};
    size_t n = sizeof units / sizeof units[0];
    char *json = tt_fmt("[");
    for (size_t i = 0; i < n; i++) {
        char *next = tt_fmt("%s%s{\"directory\": \"%s\", \"file\": \"%s\", \"command\": "
                            "\"cc -std=c11 %s -c %s\"}",
                            json, i ? ",\n" : "\n", tree, units[i], MT_INCLUDE, units[i]);
        free(json);
        json = next;
    }
    char *all = tt_fmt("%s\n]\n", json);
    free(tt_write(dir, "build/compile_commands.json", all));
    free(json);
    free(all);

    tt_run with_args = mt_migrate(tree, NULL, "plan", "-q", "--unsafe-fixes", ".", NULL);
    tt_run with_db = mt_migrate_args(tree, "plan", "--unsafe-fixes", "-p", "../build", ".", NULL);
    assert_int_equal(with_args.status, 0);
    /* the database lies outside the tree (.): it is not changed, a person
     * is told to regenerate it */
    assert_int_equal(with_db.status, 1);
    assert_true(tt_contains(with_db.err, "compile_commands.json:1:1: manual: it lists 9 files "
                                         "this migration moves"));
    /* the translation units it creates are in no build yet: said */
    assert_true(tt_contains(with_db.err, "your build system); it does not list the 2 translation units "
                                         "this migration creates (app_ops.c, app_ops_register.c): "
                                         "add them to the build, then regenerate it\n"));
    assert_true(tt_contains(with_db.out, "rename from ops/blas/gemm.c\n"));
    assert_string_equal(with_db.out, with_args.out);

    /* without any flag, the headers staged next to the binary
     * (build/include) are found: the same plan */
    tt_run bare = mt_migrate_args(tree, "plan", "-q", "--unsafe-fixes", ".", NULL);
    assert_int_equal(bare.status, 0);
    assert_string_equal(bare.out, with_db.out);
    tt_free(&bare);
    tt_free(&with_args);
    tt_free(&with_db);
    tt_rmtree(dir);
    free(tree);
    free(dir);
}

static void test_include_shared_with_other_backend(void **state)
{
    (void)state;
    char *dir = tt_tmpdir();
    static const char *const files[][2] = {
        {"src/x.c", "#include <string.h>\n"
                    "#include \"../ops/blas/blas_ops.h\"\n"
                    "#include \"../ops/ref/ref_ops.h\"\n"
                    "eh_tensor *x1(const eh_tensor *a, const eh_tensor *b)\n"
                    "{\n"
                    "    return eh_ref_matmul(a, eh_blas_matmul(a, b));\n"
                    "}\n"},
        {"ops/blas/blas_ops.h", "#include <eh/eh.h>\n"
                                "eh_tensor *eh_blas_matmul(const eh_tensor *a, const eh_tensor *b);\n"},
        {"ops/blas/gemm.c", "#include \"blas_ops.h\"\n"
                            "eh_tensor *eh_blas_matmul(const eh_tensor *a, const eh_tensor *b) "
                            "{ return eh_matmul(a, b); }\n"},
        {"ops/ref/ref_ops.h", "#include <eh/eh.h>\n"
                              "eh_tensor *eh_ref_matmul(const eh_tensor *a, const eh_tensor *b);\n"},
        {"ops/ref/r.c", "#include \"ref_ops.h\"\n"
                        "eh_tensor *eh_ref_matmul(const eh_tensor *a, const eh_tensor *b) "
                        "{ return eh_matmul(a, b); }\n"},
    };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
        free(tt_write(dir, files[i][0], files[i][1]));
    tt_run r = mt_migrate(dir, NULL, "plan", "--backend", "ref", ".", NULL);
    assert_int_equal(r.status, 1);
    assert_true(tt_contains(r.out, "+    return eh_matmul(a, eh_blas_matmul(a, b));\n"));
    assert_true(tt_contains(r.err, "src/x.c:3:1: manual: [EH101]"));
    assert_true(tt_contains(r.err, "replaced together with another backend's include"));
    assert_true(tt_contains(r.err, "1 site needs a person"));
    tt_free(&r);
    tt_rmtree(dir);
    free(dir);
}

/* The reason a backend use needs a person names what it is: a function
 * no op replaces, or a type (liquid-dsp: every fftwf_ call read "no op
 * replaces a backend type, variable, constant or macro"). */
static void test_manual_reason_names_the_use(void **state)
{
    (void)state;
    char *dir = tt_tmpdir();
    free(tt_write(dir, "src/fft.c", "#include <fftw3.h>\n"
                                    "void cleanup(void) { fftwf_cleanup(); }\n"
                                    "fftwf_plan plan_of(void);\n"));
    tt_run r = mt_migrate(dir, NULL, "plan", "src", NULL);
    assert_int_equal(r.status, 1);
    assert_true(tt_contains(r.err, "src/fft.c:2:22: manual: [EH102] call to backend function "
                                   "'fftwf_cleanup': no libeh op does what this backend function "
                                   "does: rewrite this use by hand\n"));
    assert_true(tt_contains(r.err, "src/fft.c:3:1: manual: [EH102] use of backend type "
                                   "'fftwf_plan': no op replaces a backend type"));
    tt_free(&r);
    tt_rmtree(dir);
    free(dir);
}

/* A macro of the project's own header named like FFTW's (an option bit,
 * FFTW_PREPARED) is the project's in compiled code, also when the run
 * does not lint the header (NFFT's FFTW_INIT in its include/nfft3.h: 25
 * sites listed); FFTW's own macros, and a project macro that stands for
 * one, stay listed. */
static void test_own_macro_named_like_backend(void **state)
{
    (void)state;
    char *dir = tt_tmpdir();
    free(tt_write(dir, "include/spec.h", "#include <fftw3.h>\n"
                                         "#define SPEC_BIT(n) (1U << (n))\n"
                                         "#define FFTW_PREPARED (1U << 2)\n"
                                         "#define FFTW_SHARED_PLAN SPEC_BIT(3)\n"
                                         "#define FFTW_PLANNER_FLAGS FFTW_MEASURE\n"));
    free(tt_write(dir, "src/opts.c", "#include \"../include/spec.h\"\n"
                                     "unsigned opts(void)\n"
                                     "{\n"
                                     "    unsigned f = FFTW_PREPARED | FFTW_SHARED_PLAN;\n"
                                     "    return f | FFTW_ESTIMATE | FFTW_PLANNER_FLAGS;\n"
                                     "}\n"));
    tt_run r = mt_migrate(dir, NULL, "plan", "src", NULL);
    assert_int_equal(r.status, 1);
    assert_false(tt_contains(r.err, "FFTW_PREPARED"));
    assert_false(tt_contains(r.err, "FFTW_SHARED_PLAN"));
    assert_true(tt_contains(r.err, "src/opts.c:5:16: manual: [EH102] use of backend macro "
                                   "'FFTW_ESTIMATE'"));
    assert_true(tt_contains(r.err, "src/opts.c:5:32: manual: [EH102] use of backend macro "
                                   "'FFTW_PLANNER_FLAGS'"));
    tt_free(&r);
    tt_rmtree(dir);
    free(dir);
}

/* A language named after -- holds in every build configuration (each
 * define set's flags are built from the defaults too). */
static void test_define_sets_keep_the_language(void **state)
{
    (void)state;
    char *dir = tt_tmpdir();
    free(tt_write(dir, "src/k.c", "class Acc { public: int x; };\n"
                                  "int main() { Acc a; a.x = 1; return a.x; }\n"));
    tt_run r = mt_migrate(dir, NULL, "analyze", "--define-sets", "X1;Y1", "src", "--", "-x", "c++",
                          NULL);
    if (r.status != 0)
        print_error("%s%s", r.out, r.err);
    assert_int_equal(r.status, 0);
    assert_false(tt_contains(r.err, "did not parse"));
    tt_free(&r);
    tt_rmtree(dir);
    free(dir);
}

/* A library function the built-in replacements map to an op (cblas_sgemm
 * -> eh_matmul) has no rewrite because no call template maps its
 * arguments: that is the reason, with or without libeh, compiled or in
 * skipped code -- never "no libeh op does what it does" (liuliu/ccv: all
 * 70 cblas_ and fftw_ calls read so). */
static void test_manual_reason_mapped_function(void **state)
{
    (void)state;
    char *dir = tt_tmpdir();
    free(tt_write(dir, "src/gemm.c", "#include <cblas.h>\n"
                                     "void product(const float *a, const float *b, float *c, int n);\n"
                                     "void product(const float *a, const float *b, float *c, int n)\n"
                                     "{\n"
                                     "    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, "
                                     "n, 1.0f, a, n, b, n, 0.0f, c, n);\n"
                                     "}\n"));
    free(tt_write(dir, "src/dot.c", "#include <eh/eh.h>\n"
                                    "#include <cblas.h>\n"
                                    "float dot(const float *a, const float *b, int n);\n"
                                    "float dot(const float *a, const float *b, int n)\n"
                                    "{\n"
                                    "#ifdef NEVER_BUILT\n"
                                    "    return cblas_sdot(n, a, 1, b, 1) * 2.0f;\n"
                                    "#endif\n"
                                    "    return cblas_sdot(n, a, 1, b, 1);\n"
                                    "}\n"));
    tt_run r = mt_migrate(dir, NULL, "plan", "src", NULL);
    assert_int_equal(r.status, 1);
    static const char why[] = ": no call template (\"rewrites\") maps its arguments onto %s (ops "
                              "take tensors, not host arrays, sizes and flags): rewrite this use by "
                              "hand: eh_convert_to_tensor around the input arrays, %s, then "
                              "eh_to_buffer for the result";
    char *matmul = tt_fmt(why, "eh_matmul", "eh_matmul"), *dot = tt_fmt(why, "eh_dot", "eh_dot");
    char *want = tt_fmt("src/gemm.c:5:5: manual: [EH102] call to backend function 'cblas_sgemm': "
                        "%s\n", matmul + 2);
    assert_true(tt_contains(r.err, want));
    free(want);
    want = tt_fmt("src/dot.c:9:12: manual: [EH102] call to backend function 'cblas_sdot'; use "
                  "eh_dot%s\n", dot);
    assert_true(tt_contains(r.err, want));
    free(want);
    want = tt_fmt("src/dot.c:7:12: manual: [EH102 in skipped code] call to backend function "
                  "'cblas_sdot' in code the preprocessor skips in every configuration%s (and no "
                  "configuration compiles it", dot);
    assert_true(tt_contains(r.err, want));
    free(want);
    assert_false(tt_contains(r.err, "no libeh op"));
    free(matmul);
    free(dot);
    tt_free(&r);
    tt_rmtree(dir);
    free(dir);
}

/* A legacy header: an op and a function that is no op (it stays). */
static const char BLAS_OPS_H[] = "#include <eh/eh.h>\n"
                                 "eh_tensor *eh_blas_matmul(const eh_tensor *a, const eh_tensor *b);\n"
                                 "void eh_blas_set_threads(int n);\n";

/* plan --verify parses the planned result and reports what would not
 * compile (exit 2); plan alone prints the diff and exits 0. */
static void test_plan_verify(void **state)
{
    (void)state;
    char *dir = tt_tmpdir();
    free(tt_write(dir, "ops/blas/blas_ops.h", BLAS_OPS_H));
    free(tt_write(dir, "ops/blas/gemm.c",
                  "#include \"blas_ops.h\"\n\nextern int blas_threads;\n\n"
                  "void eh_blas_set_threads(int n)\n{\n    blas_threads = n;\n}\n\n"
                  "eh_tensor *eh_blas_matmul(const eh_tensor *a, const eh_tensor *b)\n{\n"
                  "    return blas_threads < 0 ? 0 : eh_matmul(a, b);\n}\n"));
    char *before = tt_snapshot(dir, true);
    tt_run r = mt_migrate(dir, NULL, "plan", ".", NULL);
    assert_int_equal(r.status, 1); /* eh_blas_set_threads is listed */
    assert_true(tt_contains(r.out, "+++ b/backends/blas/gemm.c"));
    tt_free(&r);
    r = mt_migrate(dir, NULL, "plan", "--verify", ".", NULL);
    assert_int_equal(r.status, 2);
    /* with the place, in the text as the plan would leave it */
    assert_true(tt_contains(r.err, "backends/blas/gemm.c: does not compile after the change: use "
                                   "of undeclared identifier 'blas_threads', at "
                                   "backends/blas/gemm.c:5:12 of the changed text; the plan "
                                   "would break it"));
    char *now = tt_snapshot(dir, true);
    tt_assert_same(before, now, "plan --verify changes nothing");
    free(now);
    free(before);
    tt_free(&r);
    r = mt_migrate_args(dir, "apply", "--verify", ".", NULL);
    assert_int_equal(r.status, 2);
    assert_true(tt_contains(r.err, "--verify is an option of plan"));
    tt_free(&r);
    /* analyze describes every change, safe or not */
    r = mt_migrate_args(dir, "analyze", "--unsafe-fixes", ".", NULL);
    assert_int_equal(r.status, 2);
    assert_true(tt_contains(r.err, "--unsafe-fixes is an option of plan and apply"));
    tt_free(&r);
    tt_rmtree(dir);
    free(dir);
}

/* A move that compiles in one configuration and not in another: with
 * that configuration named, plan --verify says which breaks (exit 2) and
 * apply writes nothing; with only the first, the plan goes through. */
static void test_verify_every_configuration(void **state)
{
    (void)state;
    char *dir = tt_tmpdir();
    free(tt_write(dir, "ops/blas/blas_ops.h", BLAS_OPS_H));
    free(tt_write(dir, "ops/blas/gemm.c",
                  "#include \"blas_ops.h\"\n\n#ifndef USE_BLAS\nextern int blas_threads;\n#endif\n\n"
                  "void eh_blas_set_threads(int n)\n{\n#ifndef USE_BLAS\n    blas_threads = n;\n"
                  "#endif\n    (void)n;\n}\n\n"
                  "eh_tensor *eh_blas_matmul(const eh_tensor *a, const eh_tensor *b)\n{\n"
                  "#ifndef USE_BLAS\n    if (blas_threads < 0)\n        return 0;\n#endif\n"
                  "    return eh_matmul(a, b);\n}\n"));
    char *before = tt_snapshot(dir, true);
    tt_run r = mt_migrate(dir, NULL, "plan", "--verify", "--define-sets", "USE_BLAS", ".", NULL);
    assert_int_equal(r.status, 1); /* eh_blas_set_threads is listed */
    tt_free(&r);
    r = mt_migrate(dir, NULL, "plan", "--verify", "--define-sets", "USE_BLAS;!USE_BLAS", ".", NULL);
    assert_int_equal(r.status, 2);
    assert_true(tt_contains(r.err, "backends/blas/gemm.c: does not compile after the change "
                                   "(define set \"!USE_BLAS\"): use of undeclared identifier "
                                   "'blas_threads', at backends/blas/gemm.c:"));
    assert_true(tt_contains(r.err, " of the changed text; the plan would break it"));
    tt_free(&r);
    r = mt_migrate(dir, NULL, "apply", "--define-sets", "USE_BLAS;!USE_BLAS", ".", NULL);
    assert_int_equal(r.status, 2);
    assert_true(tt_contains(r.err, "(define set \"!USE_BLAS\")"));
    assert_true(tt_contains(r.err, "nothing was changed"));
    char *now = tt_snapshot(dir, true);
    tt_assert_same(before, now, "a move that breaks one configuration");
    free(now);
    free(before);
    tt_free(&r);
    tt_rmtree(dir);
    free(dir);
}

/* --define-sets: a set that does not parse is a usage error. */
static void test_define_sets_usage(void **state)
{
    (void)state;
    tt_run r = mt_migrate_args(".", "plan", "--define-sets", "USE_BLAS;2FAST", ".", NULL);
    assert_int_equal(r.status, 2);
    assert_true(tt_contains(r.err, "ember-migrate: define set \"2FAST\": \"2FAST\" is not NAME, "
                                   "NAME=VALUE or !NAME (see ember-migrate --help)"));
    assert_string_equal(r.out, "");
    tt_free(&r);
}

/* How many times needle occurs in text. */
static size_t occurrences(const char *text, const char *needle)
{
    size_t n = 0;
    for (const char *p = strstr(text, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

/* A public header no .c file includes, with a backend call. */
static void write_umbrella_tree(const char *dir)
{
    free(tt_write(dir, "src/a.h", "#ifndef A_H\n#define A_H\nint a(void);\n#endif\n"));
    free(tt_write(dir, "src/a.c", "#include \"a.h\"\n#ifdef USE_X\nint x;\n#endif\n"
                                  "int a(void) { return 1; }\n"));
    free(tt_write(dir, "src/umbrella.h",
                  "#include \"a.h\"\n"
                  "float cblas_sdot(const int n, const float *x, const int incx, const float *y, "
                  "const int incy);\n"
                  "static inline float dot(const float *x, const float *y, int n) "
                  "{ return cblas_sdot(n, x, 1, y, 1); }\n"));
}

/* Define sets without a compilation database are only flags, not a
 * build: a header no .c file includes is scanned on its own, as without
 * them, and nothing is said about a compile_commands.json. */
static void test_define_sets_without_database(void **state)
{
    (void)state;
    char *dir = tt_tmpdir();
    write_umbrella_tree(dir);
    tt_run plain = mt_migrate(dir, NULL, "plan", "src", NULL);
    assert_int_equal(plain.status, 1);
    assert_true(tt_contains(plain.err, "src/umbrella.h:3:"));
    assert_true(tt_contains(plain.err, "call to backend function 'cblas_sdot'"));
    tt_run sets = mt_migrate(dir, NULL, "plan", "--define-sets", "USE_X;!USE_X", "src", NULL);
    assert_int_equal(sets.status, 1);
    assert_string_equal(sets.err, plain.err);
    assert_false(tt_contains(sets.err, "compile_commands.json"));
    tt_free(&sets);
    /* the configuration key does the same */
    free(tt_write(dir, ".emberlint.json", "{\"define_sets\": [\"USE_X\", \"!USE_X\"]}\n"));
    sets = mt_migrate(dir, NULL, "plan", "src", NULL);
    assert_int_equal(sets.status, 1);
    assert_string_equal(sets.err, plain.err);
    tt_free(&sets);
    tt_free(&plain);
    tt_rmtree(dir);
    free(dir);
}

/* With a compilation database and define sets, what the database does
 * not build is said once, not once per configuration, and -v says which
 * files: a source it does not list, a header none of its files includes
 * in any configuration (x.h, included only under USE_X, is scanned in
 * that one). */
static void test_define_sets_with_database(void **state)
{
    (void)state;
    char *dir = tt_tmpdir();
    write_umbrella_tree(dir);
    free(tt_write(dir, "src/a.c", "#include \"a.h\"\n#ifdef USE_X\n#include \"x.h\"\n#endif\n"
                                  "int a(void) { return 1; }\n"));
    free(tt_write(dir, "src/x.h", "int x;\n"));
    free(tt_write(dir, "src/unlisted.c", "#include <cblas.h>\n"));
    char *json = tt_fmt("[{\"directory\": \"%s\", \"file\": \"src/a.c\", \"command\": "
                        "\"cc -c src/a.c\"}]\n", dir);
    free(tt_write(dir, "build/compile_commands.json", json));
    free(json);
    static const char source_note[] =
        "ember-migrate: 1 source file under the paths is not in compile_commands.json (not built in "
        "this configuration): not scanned (a file named on the command line is)";
    static const char header_note[] =
        "ember-migrate: 1 header under the paths is included by none of the files "
        "compile_commands.json builds (not built in this configuration): not scanned (a file named "
        "on the command line is)";
    /* (without the sets, x.h is not built either) */
    tt_run one = mt_migrate(dir, NULL, "plan", "-p", "build", "src", NULL);
    assert_int_equal(occurrences(one.err, source_note), 1);
    assert_int_equal(occurrences(one.err, "ember-migrate: 2 headers under the paths are included "
                                          "by none of the files"), 1);
    tt_run two = mt_migrate(dir, NULL, "plan", "-p", "build", "--define-sets", "USE_X;!USE_X", "src",
                            NULL);
    assert_int_equal(two.status, one.status);
    assert_int_equal(occurrences(two.err, source_note), 1);
    assert_int_equal(occurrences(two.err, header_note), 1);
    assert_false(tt_contains(two.err, "cblas.h")); /* unlisted.c is not scanned */
    tt_free(&two);
    two = mt_migrate(dir, NULL, "plan", "-v", "-p", "build", "--define-sets", "USE_X;!USE_X", "src",
                     NULL);
    char *listed = tt_fmt("%s:\n  src/unlisted.c\n%s:\n  src/umbrella.h\n", source_note, header_note);
    assert_true(tt_contains(two.err, listed));
    free(listed);
    tt_free(&two);
    tt_free(&one);
    tt_rmtree(dir);
    free(dir);
}

/* A .c template its includer skips in this configuration (#ifdef
 * HAVE_NEON) does not parse alone: without a database it gets no parse
 * error of its own, so apply does not refuse the tree; with -p and no
 * PATH it is, as for emberlint, a file the database does not build. */
static void test_template_its_includer_skips(void **state)
{
    (void)state;
    char *dir = tt_tmpdir();
    free(tt_write(dir, "src/vec.h", "#include <stddef.h>\nvoid vec_fill(float *x, ptrdiff_t n);\n"));
    free(tt_write(dir, "src/vec.c", "#include \"vec.h\"\n#ifdef HAVE_NEON\n#include \"simd/neon.c\"\n"
                                    "#endif\nvoid vec_fill(float *x, ptrdiff_t n) "
                                    "{ for (ptrdiff_t i = 0; i < n; i++) x[i] = 0; }\n"));
    free(tt_write(dir, "src/simd/neon.c",
                  "static void fill_neon(float *x, ptrdiff_t n) { (void)x; (void)n; }\n"));
    char *json = tt_fmt("[{\"directory\": \"%s\", \"file\": \"src/vec.c\", \"command\": "
                        "\"cc -c src/vec.c\"}]\n", dir);
    free(tt_write(dir, "build/compile_commands.json", json));
    free(json);
    tt_run r = mt_migrate_args(dir, "plan", "-v", "-p", "build", NULL);
    assert_int_equal(r.status, 0);
    assert_false(tt_contains(r.err, "does not parse"));
    assert_true(tt_contains(r.err, "ember-migrate: 1 source file under the paths is not in "
                                   "compile_commands.json (not built in this configuration): not "
                                   "scanned (a file named on the command line is):\n"
                                   "  src/simd/neon.c\n"));
    tt_free(&r);
    char *before = tt_snapshot(dir, true);
    r = mt_migrate(dir, NULL, "apply", "src", NULL);
    if (r.status != 0)
        print_error("apply: %s", r.err);
    assert_int_equal(r.status, 0);
    assert_false(tt_contains(r.err, "does not parse"));
    char *now = tt_snapshot(dir, true);
    tt_assert_same(before, now, "nothing to migrate");
    free(now);
    free(before);
    tt_free(&r);
    tt_rmtree(dir);
    free(dir);
}

/* ember-migrate scans, it does not lint: its notes on what a run leaves
 * out say so (the text is emberlint's table, the verb passed in;
 * test_cli test_database_cxx_only_headers pins emberlint's words): the
 * headers only C++ files include, the C++ files passed over, a
 * configuration pattern that matches no file. */
static void test_notes_say_scanned(void **state)
{
    (void)state;
    char *dir = tt_tmpdir();
    free(tt_write(dir, "m/core.c", "#include \"core.h\"\nint core(void) { return 0; }\n"));
    free(tt_write(dir, "m/core.h", "int core(void);\n"));
    free(tt_write(dir, "m/graph.cpp", "#include \"graph.h\"\nint Graph::n() { return 0; }\n"));
    free(tt_write(dir, "m/graph.h", "#include \"node.h\"\nclass Graph { public: int n(); };\n"));
    free(tt_write(dir, "m/node.h", "class Node {};\n"));
    free(tt_write(dir, "m/unused.h", "int unused(void);\n"));
    free(tt_write(dir, "m/.emberlint.json", "{\"core_paths\": [\"/nosuch/\"]}\n"));
    char *db = tt_fmt("[{\"directory\": \"%s/m\", \"file\": \"core.c\", \"command\": \"cc -c -march=armv8-a core.c\"},"
                      " {\"directory\": \"%s/m\", \"file\": \"graph.cpp\", \"command\": \"c++ -c graph.cpp\"}]",
                      dir, dir);
    free(tt_write(dir, "build/compile_commands.json", db));
    free(db);
    tt_run r = mt_migrate(dir, NULL, "analyze", "-p", "build", "m", NULL);
    assert_true(tt_contains(r.err, "ember-migrate: 1 header under the paths is included by none of "
                                   "the files compile_commands.json builds (not built in this "
                                   "configuration): not scanned (a file named on the command line "
                                   "is)\n"));
    assert_true(tt_contains(r.err, "ember-migrate: 2 headers under the paths are included only by "
                                   "C++ files compile_commands.json builds, which this run does not "
                                   "scan (outside the paths, or left out by \"languages\"): not "
                                   "scanned (a file named on the command line is)\n"));
    assert_true(tt_contains(r.err, "ember-migrate: note: 1 C++ file under m was not scanned"));
    assert_true(tt_contains(r.err, "\"core_paths\" pattern '/nosuch/' matches none of the scanned "
                                   "files\n"));
    assert_true(tt_contains(r.err, "compiler argument '-march=armv8-a' dropped: libclang refuses it"));
    assert_true(tt_contains(r.err, "are not set and code under them is not scanned: give a CPU"));
    assert_false(tt_contains(r.err, "linted"));
    assert_false(tt_contains(r.err, "not lint "));
    tt_free(&r);
    tt_rmtree(dir);
    free(dir);
}

/* -p without PATH scans the database's files as files named, so an
 * "exclude" pattern does not skip them (chromaprint's database builds
 * its kissfft copy, src/3rdparty/: the plan listed its definitions as
 * backend code to move by hand though .emberlint.json excludes it).
 * The scan says so, as emberlint does; naming the tree applies the
 * pattern; -q says nothing. */
static void test_database_excluded_noted(void **state)
{
    (void)state;
    char *dir = tt_tmpdir();
    free(tt_write(dir, "app/.emberlint.json", "{\"exclude\": [\"src/3rdparty/\"]}\n"));
    free(tt_write(dir, "app/src/main.c", "int main(void) { return 0; }\n"));
    free(tt_write(dir, "app/src/3rdparty/kiss/kiss.c", "int kiss(void) { return 0; }\n"));
    char *db = tt_fmt("[{\"directory\": \"%s/app/src\", \"file\": \"main.c\", \"command\": \"cc -c main.c\"},"
                      " {\"directory\": \"%s/app/src\", \"file\": \"3rdparty/kiss/kiss.c\", \"command\": \"cc -c 3rdparty/kiss/kiss.c\"}]",
                      dir, dir);
    free(tt_write(dir, "build/compile_commands.json", db));
    free(db);
    const char *note = "ember-migrate: note: 1 file build/compile_commands.json builds matches "
                       "\"exclude\" in app/.emberlint.json (app/src/3rdparty/kiss/kiss.c) and was "
                       "scanned anyway: without PATH the database names it; name the tree "
                       "(-p build app) to skip it\n";
    tt_run r = mt_migrate(dir, NULL, "analyze", "-p", "build", NULL);
    assert_int_equal(occurrences(r.err, note), 1);
    tt_free(&r);
    r = mt_migrate(dir, NULL, "analyze", "-q", "-p", "build", NULL);
    assert_false(tt_contains(r.err, "\"exclude\" in"));
    tt_free(&r);
    r = mt_migrate(dir, NULL, "analyze", "-p", "build", "app", NULL);
    assert_false(tt_contains(r.err, "\"exclude\" in"));
    tt_free(&r);
    tt_rmtree(dir);
    free(dir);
}

/* A tree carrying its own copy of BLAS (liblinear's blas/ddot.c defines
 * ddot_): EH102 takes the calls of ddot_ as the project's own, so the
 * plan of the whole tree listed nothing and said "nothing to migrate",
 * while a plan of the calling file alone listed every call.  The scan
 * says which definitions did that and how to have the calls listed:
 * excluding the copy lists them; -q says nothing; a static helper named
 * like a routine makes no note (its calls are its file's). */
static void test_own_library_copy_noted(void **state)
{
    (void)state;
    char *dir = tt_tmpdir();
    free(tt_write(dir, "app/blas/blas.h", "double ddot_(int *n, double *x, int *incx, double *y, int *incy);\n"));
    free(tt_write(dir, "app/blas/ddot.c", "#include \"blas.h\"\n"
                                          "double ddot_(int *n, double *x, int *incx, double *y, int *incy)\n"
                                          "{ double s = 0; for (int i = 0; i < *n; i++) s += x[i * *incx] * y[i * *incy]; return s; }\n"));
    free(tt_write(dir, "app/solve.c", "#include \"blas/blas.h\"\n"
                                      "double norm2(double *x, int n)\n"
                                      "{ int one = 1; return ddot_(&n, x, &one, x, &one); }\n"));
    const char *note = "ember-migrate: note: 1 use of 1 function named as a library's routine "
                       "(ddot_) is taken as the project's own code and not listed: the tree "
                       "defines it (app/blas/ddot.c:2); if it is a copy of the library, add "
                       "app/blas/ to \"exclude\" in .emberlint.json and run again\n";
    const char *cmds[] = {"plan", "analyze"};
    for (size_t i = 0; i < 2; i++) {
        tt_run r = mt_migrate(dir, NULL, cmds[i], "app", NULL);
        assert_true(tt_contains(r.err, note));
        assert_false(tt_contains(r.err, "manual:"));
        tt_free(&r);
    }
    tt_run r = mt_migrate(dir, NULL, "plan", "-q", "app", NULL);
    assert_false(tt_contains(r.err, "note"));
    tt_free(&r);
    /* as the note says: the copy excluded, the call is the library's */
    free(tt_write(dir, ".emberlint.json", "{\"exclude\": [\"app/blas/\"]}\n"));
    r = mt_migrate(dir, NULL, "plan", "app", NULL);
    assert_false(tt_contains(r.err, "note"));
    assert_true(tt_contains(r.err, "app/solve.c:3:23: manual: [EH102] call to backend function 'ddot_'"));
    tt_free(&r);
    /* a file's static helper named like a routine: no note */
    tt_rmtree(dir);
    free(dir);
    dir = tt_tmpdir();
    free(tt_write(dir, "app/solve.c", "static double ddot_(int n, const double *x)\n"
                                      "{ double s = 0; for (int i = 0; i < n; i++) s += x[i] * x[i]; return s; }\n"
                                      "double norm2(const double *x, int n) { return ddot_(n, x); }\n"));
    r = mt_migrate(dir, NULL, "plan", "app", NULL);
    assert_false(tt_contains(r.err, "note"));
    tt_free(&r);
    /* a shim handing the call on to the library's ILP64 build is no
     * copy of the routine: its callers call the library */
    free(tt_write(dir, "app/shim.c", "void dgetrf_64_(long *m, long *n, double *a, long *lda, long *ipiv, long *info);\n"
                                     "void dgetrf_(long *m, long *n, double *a, long *lda, long *ipiv, long *info)\n"
                                     "{ dgetrf_64_(m, n, a, lda, ipiv, info); }\n"));
    r = mt_migrate(dir, NULL, "plan", "app", NULL);
    assert_false(tt_contains(r.err, "note"));
    tt_free(&r);
    /* the project's own ddot (no library call has that name) and its own
     * cuda_ wrappers (a plain prefix) are no copy of a library: no note */
    free(tt_write(dir, "app/mine.c", "double ddot(int n, const double *x, const double *y)\n"
                                     "{ double s = 0; for (int i = 0; i < n; i++) s += x[i] * y[i]; return s; }\n"
                                     "int cuda_get_device(void) { return 0; }\n"));
    free(tt_write(dir, "app/use.c", "double ddot(int n, const double *x, const double *y);\n"
                                    "int cuda_get_device(void);\n"
                                    "double sq(const double *x, int n) { return ddot(n, x, x) + cuda_get_device(); }\n"));
    r = mt_migrate(dir, NULL, "plan", "app", NULL);
    assert_false(tt_contains(r.err, "note"));
    tt_free(&r);
    tt_rmtree(dir);
    free(dir);
}

/* A copy whose routines are defined without their underscore and called
 * through an alias macro (`#define ddot_ ddot`, as cvxopt writes it):
 * the note names the routine as called (ddot_), whether the use's TU
 * sees the definition (one/: the hook of the TU records it) or another
 * TU defines it (app/: the project hook does). */
static void test_own_note_alias_macro(void **state)
{
    (void)state;
    char *dir = tt_tmpdir();
    const char *header = "#define ddot_ ddot\n"
                         "double ddot_(int *n, double *x, int *incx, double *y, int *incy);\n";
    const char *body = "double ddot_(int *n, double *x, int *incx, double *y, int *incy)\n"
                       "{ double s = 0; for (int i = 0; i < *n; i++) s += x[i * *incx] * y[i * *incy]; return s; }\n";
    const char *use = "double norm2(double *x, int n)\n"
                      "{ int one = 1; return ddot_(&n, x, &one, x, &one); }\n";
    free(tt_write(dir, "app/blas/blas.h", header));
    char *t = tt_fmt("#include \"blas.h\"\n%s", body);
    free(tt_write(dir, "app/blas/ddot.c", t));
    free(t);
    t = tt_fmt("#include \"blas/blas.h\"\n%s", use);
    free(tt_write(dir, "app/solve.c", t));
    free(t);
    t = tt_fmt("%s%s", header, body);
    free(tt_write(dir, "one/blas/ddot.h", t));
    free(t);
    t = tt_fmt("#include \"blas/ddot.h\"\n%s", use);
    free(tt_write(dir, "one/solve.c", t));
    free(t);
    const char *trees[][2] = {{"app", "app/blas/ddot.c:2"}, {"one", "one/blas/ddot.h:3"}};
    for (size_t i = 0; i < 2; i++) {
        tt_run r = mt_migrate(dir, NULL, "plan", trees[i][0], NULL);
        char *note = tt_fmt("ember-migrate: note: 1 use of 1 function named as a library's routine "
                            "(ddot_) is taken as the project's own code and not listed: the tree "
                            "defines it (%s)", trees[i][1]);
        if (!tt_contains(r.err, note))
            print_error("%s: %s", trees[i][0], r.err);
        assert_true(tt_contains(r.err, note));
        free(note);
        tt_free(&r);
    }
    tt_rmtree(dir);
    free(dir);
}

/* A tree carrying its own CBLAS (GSL's cblas/ defines cblas_ddot and the
 * rest, which its other code calls): EH102 takes the calls as the
 * project's own, as it does a Fortran routine's copy, and the note says
 * so, naming the C routines; a function of the project that merely has
 * the prefix (cblas_scale_rows: no routine scale_rows) makes none.  A -p
 * run without PATH scans the database's files whatever "exclude" says:
 * the note tells it to name the tree when it runs again. */
static void test_own_cblas_copy_noted(void **state)
{
    (void)state;
    char *dir = tt_tmpdir();
    free(tt_write(dir, "app/cblas/cblas.h",
                  "double cblas_ddot(int n, const double *x, int incx, const double *y, int incy);\n"
                  "void cblas_zdotu_sub(int n, const void *x, int incx, const void *y, int incy, void *dotu);\n"));
    free(tt_write(dir, "app/cblas/ddot.c", "#include \"cblas.h\"\n"
                                           "double cblas_ddot(int n, const double *x, int incx, const double *y, int incy)\n"
                                           "{ double s = 0; for (int i = 0; i < n; i++) s += x[i * incx] * y[i * incy]; return s; }\n"
                                           "void cblas_zdotu_sub(int n, const void *x, int incx, const void *y, int incy, void *dotu)\n"
                                           "{ (void)n; (void)x; (void)incx; (void)y; (void)incy; (void)dotu; }\n"));
    free(tt_write(dir, "app/norm.c", "#include \"cblas/cblas.h\"\n"
                                     "double norm2(const double *x, int n) { return cblas_ddot(n, x, 1, x, 1); }\n"
                                     "void zsq(const void *x, int n, void *r) { cblas_zdotu_sub(n, x, 1, x, 1, r); }\n"));
    const char *note = "ember-migrate: note: 2 uses of 2 functions named as a library's routines "
                       "(cblas_ddot and cblas_zdotu_sub) are taken as the project's own code and "
                       "not listed: the tree defines them (app/cblas/ddot.c:2); if they are a copy "
                       "of the library, add app/cblas/ to \"exclude\" in .emberlint.json and run "
                       "again\n";
    tt_run r = mt_migrate(dir, NULL, "plan", "app", NULL);
    assert_true(tt_contains(r.err, note));
    tt_free(&r);
    /* -p without PATH: the same note, telling to name the tree */
    char *db = tt_fmt("[{\"directory\": \"%s/app\", \"file\": \"norm.c\", \"command\": \"cc -c norm.c\"},"
                      " {\"directory\": \"%s/app/cblas\", \"file\": \"ddot.c\", \"command\": \"cc -c ddot.c\"}]",
                      dir, dir);
    free(tt_write(dir, "build/compile_commands.json", db));
    free(db);
    r = mt_migrate(dir, NULL, "plan", "-p", "build", NULL);
    assert_true(tt_contains(r.err, "add app/cblas/ to \"exclude\" in .emberlint.json and run "
                                   "again naming the tree (-p build .): a run without PATH scans "
                                   "every file compile_commands.json lists, excluded or not\n"));
    tt_free(&r);
    /* as the note says: excluded, and the tree named, the calls are listed */
    free(tt_write(dir, ".emberlint.json", "{\"exclude\": [\"app/cblas/\"]}\n"));
    r = mt_migrate(dir, NULL, "plan", "-p", "build", ".", NULL);
    assert_false(tt_contains(r.err, "note"));
    assert_true(tt_contains(r.err, "app/norm.c:2:47: manual: [EH102] call to backend function 'cblas_ddot'"));
    tt_free(&r);
    tt_rmtree(dir);
    free(dir);
    /* the project's own function with the prefix: no note */
    dir = tt_tmpdir();
    free(tt_write(dir, "app/rows.c", "void cblas_scale_rows(double *a, int n) { for (int i = 0; i < n; i++) a[i] *= 2; }\n"));
    free(tt_write(dir, "app/use.c", "void cblas_scale_rows(double *a, int n);\n"
                                    "void twice(double *a, int n) { cblas_scale_rows(a, n); }\n"));
    r = mt_migrate(dir, NULL, "plan", "app", NULL);
    assert_false(tt_contains(r.err, "note"));
    tt_free(&r);
    tt_rmtree(dir);
    free(dir);
}

/* The own-routines note is made of what EH102 silenced, not of what the
 * tree defines: a routine nobody calls (a dgemm_ the project exports
 * onto cblas_dgemm), or one only the copy itself calls (dscal_ calling
 * lsame_), makes no note; a call from the project's code does, naming
 * the routine it calls only, each call once. */
static void test_own_note_needs_a_silenced_call(void **state)
{
    (void)state;
    char *dir = tt_tmpdir();
    free(tt_write(dir, "app/wrap.c", "#include <cblas.h>\n"
                                     "void dgemm_(const int *m, const int *n, const int *k, const double *a, const double *b, double *c)\n"
                                     "{ cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, *m, *n, *k, 1.0, a, *m, b, *k, 0.0, c, *m); }\n"));
    free(tt_write(dir, "app/blas/lsame.c", "int lsame_(const char *a, const char *b) { return *a == *b; }\n"));
    free(tt_write(dir, "app/blas/dscal.c", "int lsame_(const char *a, const char *b);\n"
                                           "void dscal_(int *n, double *a, double *x, int *incx)\n"
                                           "{ if (lsame_(\"N\", \"N\")) for (int i = 0; i < *n; i++) x[i * *incx] *= *a; }\n"));
    tt_run r = mt_migrate(dir, NULL, "plan", "app", NULL);
    assert_false(tt_contains(r.err, "note"));
    tt_free(&r);
    free(tt_write(dir, "app/solve.c", "void dscal_(int *n, double *a, double *x, int *incx);\n"
                                      "void quarter(double *x, int n) { double h = 0.5; int one = 1; dscal_(&n, &h, x, &one); dscal_(&n, &h, x, &one); }\n"));
    /* two calls on one line are two */
    r = mt_migrate(dir, NULL, "plan", "app", NULL);
    assert_true(tt_contains(r.err, "ember-migrate: note: 2 uses of 1 function named as a library's "
                                   "routine (dscal_) are taken as the project's own code and not "
                                   "listed: the tree defines it (app/blas/dscal.c:2); if it is a "
                                   "copy of the library, add app/blas/ to \"exclude\""));
    tt_free(&r);
    /* a file outside the copy that defines a routine (a dgemm_ of its own
     * onto cblas_dgemm) is the project's code: its calls count */
    free(tt_write(dir, "app/wrap.c", "#include <cblas.h>\n"
                                     "void dscal_(int *n, double *a, double *x, int *incx);\n"
                                     "void dgemm_(const int *m, const int *n, const int *k, const double *a, const double *b, double *c)\n"
                                     "{ cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, *m, *n, *k, 1.0, a, *m, b, *k, 0.0, c, *m); }\n"
                                     "void halve(double *x, int n) { double h = 0.5; int one = 1; dscal_(&n, &h, x, &one); }\n"));
    r = mt_migrate(dir, NULL, "plan", "app", NULL);
    assert_true(tt_contains(r.err, "ember-migrate: note: 3 uses of 1 function"));
    tt_free(&r);
    tt_rmtree(dir);
    free(dir);
}

/* Whatever way the tree defines the routine whose calls EH102 silences,
 * the note says so: a definition a macro writes (OpenBLAS's
 * `double BLASFUNC(ddot)(...)`), one inside `extern "C" { }` in C++, one
 * in a legacy backend directory (ops/blas/). */
static void test_own_note_every_definition(void **state)
{
    (void)state;
    static const char *const body = "(int *n, double *x, int *incx, double *y, int *incy)\n"
                                    "{ double s = 0; for (int i = 0; i < *n; i++) s += x[i * *incx] * y[i * *incy]; return s; }\n";
    static const char *const call = "double nn(double *x, int n) { int one = 1; return ddot_(&n, x, &one, x, &one); }\n";
    char *dir = tt_tmpdir();
    char *text = tt_fmt("#define BLASFUNC(x) x##_\ndouble BLASFUNC(ddot)%s", body);
    free(tt_write(dir, "macro/blas/ddot.c", text));
    free(text);
    text = tt_fmt("double ddot_(int *n, double *x, int *incx, double *y, int *incy);\n%s", call);
    free(tt_write(dir, "macro/use.c", text));
    free(tt_write(dir, "legacy/use.c", text));
    free(text);
    text = tt_fmt("extern \"C\" {\ndouble ddot_%s}\n", body);
    free(tt_write(dir, "cxx/blas/ddot.cpp", text));
    free(text);
    text = tt_fmt("extern \"C\" double ddot_(int *n, double *x, int *incx, double *y, int *incy);\n%s", call);
    free(tt_write(dir, "cxx/use.cpp", text));
    free(text);
    free(tt_write(dir, "cxx/.emberlint.json", "{\"languages\": [\"c\", \"c++\"]}\n"));
    text = tt_fmt("double ddot_%s", body);
    free(tt_write(dir, "legacy/ops/blas/ddot.c", text));
    free(text);
    static const char *const trees[][2] = {{"macro", "macro/blas/ddot.c:2"},
                                           {"cxx", "cxx/blas/ddot.cpp:2"},
                                           {"legacy", "legacy/ops/blas/ddot.c:1"}};
    for (size_t i = 0; i < 3; i++) {
        tt_run r = mt_migrate(dir, NULL, "plan", trees[i][0], NULL);
        char *note = tt_fmt("note: 1 use of 1 function named as a library's routine (ddot_) is "
                            "taken as the project's own code and not listed: the tree defines it "
                            "(%s)", trees[i][1]);
        assert_true(tt_contains(r.err, note));
        free(note);
        tt_free(&r);
    }
    tt_rmtree(dir);
    free(dir);
}

/* With --define-sets, the note names the configurations that silenced
 * the calls when others did not (those list them): a copy of ddot_ under
 * #ifdef OWN_BLAS. */
static void test_own_note_per_configuration(void **state)
{
    (void)state;
    char *dir = tt_tmpdir();
    free(tt_write(dir, "app/blas/ddot.c", "#ifdef OWN_BLAS\n"
                                          "double ddot_(int *n, double *x, int *incx, double *y, int *incy)\n"
                                          "{ double s = 0; for (int i = 0; i < *n; i++) s += x[i * *incx] * y[i * *incy]; return s; }\n"
                                          "#endif\n"));
    free(tt_write(dir, "app/use.c", "double ddot_(int *n, double *x, int *incx, double *y, int *incy);\n"
                                    "double nn(double *x, int n) { int one = 1; return ddot_(&n, x, &one, x, &one); }\n"));
    tt_run r = mt_migrate(dir, NULL, "plan", "--define-sets", "OWN_BLAS;!OWN_BLAS", "app", NULL);
    assert_true(tt_contains(r.err, "(ddot_) is taken as the project's own code and not listed in "
                                   "configuration define set \"OWN_BLAS\": the tree defines it"));
    assert_true(tt_contains(r.err, "app/use.c:2:51: manual: [EH102] call to backend function 'ddot_'"));
    tt_free(&r);
    /* the one configuration: no configuration named */
    r = mt_migrate(dir, NULL, "plan", "--define-sets", "OWN_BLAS", "app", NULL);
    assert_true(tt_contains(r.err, "(ddot_) is taken as the project's own code and not listed: "));
    tt_free(&r);
    r = mt_migrate(dir, NULL, "plan", "--define-sets", "!OWN_BLAS", "app", NULL);
    assert_false(tt_contains(r.err, "note"));
    tt_free(&r);
    tt_rmtree(dir);
    free(dir);
}

/* The note on includes not found comes once, however many build
 * configurations miss the same includes (ImageMagick's MagickCore with
 * --define-sets for its FFTW delegate on and off printed it twice). */
static void test_missing_include_note_once(void **state)
{
    (void)state;
    char *dir = tt_tmpdir();
    free(tt_write(dir, "app/fourier.c", "#include \"generated_config.h\"\n"
                                        "#ifdef WITH_FFT\n"
                                        "int fourier_on(void) { return 1; }\n"
                                        "#endif\n"));
    tt_run r = mt_migrate(dir, NULL, "plan", "--define-sets", "WITH_FFT;!WITH_FFT", "app", NULL);
    const char *first = strstr(r.err, "includes not found: 'generated_config.h'");
    assert_non_null(first);
    if (strstr(first + 1, "includes not found"))
        fail_msg("the note came twice:\n%s", r.err);
    tt_free(&r);
    tt_rmtree(dir);
    free(dir);
}

/* The note names what is called and every directory defining it: the
 * shim dgetrf_ as its callers call it (the ILP64 copy dgetrf_64_ it hands
 * on to is the directory to exclude; the shim, outside it, calls
 * dgetrf_64_, one more use the copy silences), and ddot_ copied in two
 * directories. */
static void test_own_note_names_calls_and_directories(void **state)
{
    (void)state;
    char *dir = tt_tmpdir();
    free(tt_write(dir, "app/lapack/dgetrf.c", "void dgetrf_64_(long *m, long *n, double *a, long *lda, long *ipiv, long *info)\n"
                                              "{ *info = 0; (void)m; (void)n; (void)a; (void)lda; (void)ipiv; }\n"));
    free(tt_write(dir, "app/shim.c", "void dgetrf_64_(long *m, long *n, double *a, long *lda, long *ipiv, long *info);\n"
                                     "void dgetrf_(long *m, long *n, double *a, long *lda, long *ipiv, long *info)\n"
                                     "{ dgetrf_64_(m, n, a, lda, ipiv, info); }\n"));
    static const char *const ddot = "double ddot_(int *n, double *x, int *incx, double *y, int *incy)\n"
                                    "{ double s = 0; for (int i = 0; i < *n; i++) s += x[i * *incx] * y[i * *incy]; return s; }\n";
    free(tt_write(dir, "app/blas/ddot.c", ddot));
    free(tt_write(dir, "app/extra/blas/ddot.c", ddot));
    free(tt_write(dir, "app/use.c", "void dgetrf_(long *m, long *n, double *a, long *lda, long *ipiv, long *info);\n"
                                    "double ddot_(int *n, double *x, int *incx, double *y, int *incy);\n"
                                    "void lu(double *a, long n, long *p) { long info; dgetrf_(&n, &n, a, &n, p, &info); }\n"
                                    "double nn(double *x, int n) { int one = 1; return ddot_(&n, x, &one, x, &one); }\n"));
    tt_run r = mt_migrate(dir, NULL, "plan", "app", NULL);
    assert_true(tt_contains(r.err, "ember-migrate: note: 3 uses of 3 functions named as a library's "
                                   "routines (ddot_, dgetrf_ and dgetrf_64_) are taken as the project's "
                                   "own code and not listed: the tree defines them (app/blas/ddot.c:1); if they "
                                   "are a copy of the library, add app/blas/, app/extra/blas/ and "
                                   "app/lapack/ to \"exclude\" in .emberlint.json and run again\n"));
    tt_free(&r);
    tt_rmtree(dir);
    free(dir);
}

/* plan -p build . of a tree whose FFT interface two backends of single
 * files define (csdr's fft_execute, in fft_fftw.c, built, and in
 * fft_rpi.c, all under #ifdef USE_RPI_FFT, which the database does not
 * list): the walk finds the unbuilt backend's file and leaves it out, so
 * its definitions are read from its text, and the frontend's call of the
 * interface is no backend's -- nothing for a person (it was listed as a
 * use of backend 'a' to rewrite by hand: the file was taken for a parsed
 * one). */
static void test_walked_unbuilt_backend_interface(void **state)
{
    (void)state;
    char *dir = tt_tmpdir();
    free(tt_write(dir, ".emberlint.json", "{\"backend_files\": {\"a\": [\"/fx_a.c\"], \"b\": [\"/fx_b.c\"]}}\n"));
    free(tt_write(dir, "api.h", "typedef struct plan plan;\nvoid fx_execute(plan *p);\nplan *fx_make_a(int n);\n"));
    free(tt_write(dir, "fx_a.c", "#include \"api.h\"\nvoid fx_execute(plan *p) { (void)p; }\n"
                                 "plan *fx_make_a(int n) { (void)n; return 0; }\n"));
    free(tt_write(dir, "fx_b.c", "#ifdef USE_B\n#include \"api.h\"\nvoid fx_execute(plan *p)\n{\n}\n#endif\n"));
    free(tt_write(dir, "front.c", "#include \"api.h\"\nvoid run(int n) { fx_execute(fx_make_a(n)); }\n"));
    char *db = tt_fmt("[{\"directory\": \"%s\", \"file\": \"fx_a.c\", \"command\": \"cc -c fx_a.c\"},\n"
                      " {\"directory\": \"%s\", \"file\": \"front.c\", \"command\": \"cc -c front.c\"}]\n",
                      dir, dir);
    free(tt_write(dir, "build/compile_commands.json", db));
    free(db);
    tt_run r = mt_migrate(dir, NULL, "plan", "-p", "build", ".", NULL);
    /* fx_make_a, a alone defines: still a's */
    assert_true(tt_contains(r.out, "backend function 'fx_make_a' of backend 'a'") ||
                tt_contains(r.err, "backend function 'fx_make_a' of backend 'a'"));
    assert_false(tt_contains(r.out, "'fx_execute'"));
    assert_false(tt_contains(r.err, "'fx_execute'"));
    tt_free(&r);
    tt_rmtree(dir);
    free(dir);
}

/* A walk passes C++ files over while "languages" leaves C++ out (the
 * default): the plan of a mixed tree whose BLAS calls are in .cpp files
 * would look complete, so the scan says how many it passed over, once,
 * not those "exclude" skips, and not with -q. */
static void test_unwalked_cxx(void **state)
{
    (void)state;
    char *dir = tt_tmpdir();
    free(tt_write(dir, "app/main.c", "#include <cblas.h>\n"
                                     "float dot(const float *x, const float *y, int n)\n"
                                     "{ return cblas_sdot(n, x, 1, y, 1); }\n"));
    tt_run r = mt_migrate(dir, NULL, "plan", "app", NULL);
    assert_false(tt_contains(r.err, "C++"));
    tt_free(&r);
    free(tt_write(dir, "app/solve.cpp", "#include <cblas.h>\n"
                                        "float dot2(const float *x, int n)\n"
                                        "{ return cblas_sdot(n, x, 1, x, 1); }\n"));
    free(tt_write(dir, "app/gen/made.cc", "int made() { return 0; }\n"));
    free(tt_write(dir, ".emberlint.json", "{\"exclude\": [\"app/gen/\"]}\n"));
    const char *note = "ember-migrate: note: 1 C++ file under app was not scanned (\"languages\" is "
                       "[\"c\"]; add \"c++\" to it in .emberlint.json to scan them)\n";
    const char *cmds[] = {"plan", "analyze"};
    for (size_t i = 0; i < 2; i++) {
        r = mt_migrate(dir, NULL, cmds[i], "app", NULL);
        assert_true(tt_contains(r.err, note));
        assert_false(tt_contains(strstr(r.err, note) + strlen(note), "C++")); /* once */
        tt_free(&r);
    }
    r = mt_migrate(dir, NULL, "plan", "-q", "app", NULL);
    assert_false(tt_contains(r.err, "C++"));
    tt_free(&r);
    tt_rmtree(dir);
    free(dir);
}

/* A compilation database naming files that moved.  None of its files
 * exists: an error, with PATH as without (with PATH every file was "not
 * built" and the run ended "nothing to migrate" with exit 0).  Some: a
 * warning naming them, and the others are migrated.  emberlint says the
 * same (tests/lint/test_cli.c). */
static void test_stale_database(void **state)
{
    (void)state;
    char *dir = tt_tmpdir();
    free(tt_write(dir, "app/main.c", "#include <cblas.h>\n"
                                     "float dot(const float *x, const float *y, int n)\n"
                                     "{ return cblas_sdot(n, x, 1, y, 1); }\n"));
    char *json = tt_fmt("[{\"directory\": \"%s/old\", \"file\": \"ops/blas/gemm.c\", "
                        "\"command\": \"cc -c ops/blas/gemm.c\"},\n"
                        " {\"directory\": \"%s/old\", \"file\": \"main.c\", "
                        "\"command\": \"cc -c main.c\"}]\n", dir, dir);
    free(tt_write(dir, "build/compile_commands.json", json));
    free(json);
    char *app = tt_path(dir, "app");
    const char *paths[] = {".", NULL};
    for (size_t i = 0; i < 2; i++) {
        tt_run r = mt_migrate_args(app, "plan", "-p", "../build", paths[i], NULL);
        assert_int_equal(r.status, 2);
        assert_true(tt_contains(r.err, "ember-migrate: ../build/compile_commands.json is stale: none "
                                       "of the 2 files it lists exists (../old/ops/blas/gemm.c, "
                                       "../old/main.c): regenerate it in this tree"));
        assert_false(tt_contains(r.err, "nothing to migrate"));
        assert_string_equal(r.out, "");
        tt_free(&r);
    }
    /* gemm.c moved, main.c is still there */
    json = tt_fmt("[{\"directory\": \"%s/app\", \"file\": \"ops/blas/gemm.c\", "
                  "\"command\": \"cc -c ops/blas/gemm.c\"},\n"
                  " {\"directory\": \"%s/app\", \"file\": \"main.c\", "
                  "\"command\": \"cc -c main.c\"}]\n", dir, dir);
    free(tt_write(dir, "build/compile_commands.json", json));
    free(json);
    for (size_t i = 0; i < 2; i++) {
        tt_run r = mt_migrate_args(app, "plan", "-p", "../build", paths[i], NULL);
        assert_int_not_equal(r.status, 2);
        assert_true(tt_contains(r.err, "ember-migrate: warning: ../build/compile_commands.json lists "
                                       "1 file that does not exist (ops/blas/gemm.c), not migrated: "
                                       "generated by the build? build first; moved or deleted? "
                                       "regenerate it\n"));
        /* main.c was scanned */
        assert_true(tt_contains(r.err, "main.c:3:10: manual: [EH102] call to backend function "
                                       "'cblas_sdot'"));
        tt_free(&r);
    }
    /* apply refuses, without PATH and with a PATH that holds the missing
     * file ("."): the others would be changed without it (one the build
     * writes, calling the old names), and the tree would no longer build
     * once it is written */
    char *main_c = tt_path(dir, "app/main.c");
    char *before = tt_read(main_c, NULL);
    tt_run r;
    for (size_t i = 0; i < 2; i++) {
        r = mt_migrate_args(app, "apply", "-p", "../build", paths[i], NULL);
        assert_int_equal(r.status, 2);
        assert_true(tt_contains(r.err, "ember-migrate: ../build/compile_commands.json lists 1 file "
                                       "that does not exist (ops/blas/gemm.c): not applied, as the "
                                       "others would be changed without it"));
        assert_true(tt_contains(r.err, "or name PATHs that leave it out"));
        char *after = tt_read(main_c, NULL);
        assert_string_equal(after, before);
        free(after);
        tt_free(&r);
    }
    /* narrowed by a PATH that leaves it out, apply goes on */
    r = mt_migrate_args(app, "apply", "-p", "../build", "main.c", NULL);
    assert_int_not_equal(r.status, 2);
    assert_false(tt_contains(r.err, "does not exist"));
    tt_free(&r);
    free(tt_write(dir, "app/main.c", before));
    /* a missing file outside the PATHs is not this run's business */
    r = mt_migrate_args(app, "plan", "-p", "../build", "main.c", NULL);
    assert_int_not_equal(r.status, 2);
    assert_false(tt_contains(r.err, "does not exist"));
    assert_true(tt_contains(r.err, "main.c:3:10: manual: [EH102]"));
    tt_free(&r);
    free(before);
    free(main_c);
    free(app);
    tt_rmtree(dir);
    free(dir);
}

/* A database outside the tree that lists a moved file in two builds: it
 * is not changed, and the list says one file (not two entries) moved. */
static void test_database_outside_tree(void **state)
{
    (void)state;
    char *dir = tt_tmpdir();
    free(tt_write(dir, "app/ops/ref/k.c",
                  "#include <eh/eh.h>\n"
                  "eh_tensor *eh_ref_sqrt(const eh_tensor *x);\n"
                  "eh_tensor *eh_ref_sqrt(const eh_tensor *x) { return eh_sqrt(x); }\n"));
    char *json = tt_fmt("[{\"directory\": \"%s/app\", \"file\": \"ops/ref/k.c\", "
                        "\"command\": \"cc -DA -c ops/ref/k.c\"},\n"
                        " {\"directory\": \"%s/app\", \"file\": \"ops/ref/k.c\", "
                        "\"command\": \"cc -DB -c ops/ref/k.c\"}]\n", dir, dir);
    char *db = tt_write(dir, "build/compile_commands.json", json);
    /* the command to regenerate it can be pasted: a source dir with a blank */
    char *cache = tt_fmt("CMAKE_HOME_DIRECTORY:INTERNAL=%s/my app\n", dir);
    free(tt_write(dir, "build/CMakeCache.txt", cache));
    char *app = tt_path(dir, "app");
    tt_run r = mt_migrate(app, NULL, "apply", "-p", "../build", ".", NULL);
    assert_int_equal(r.status, 1);
    assert_true(tt_contains(r.err, "compile_commands.json:1:1: manual: it lists 1 file this "
                                   "migration moves and lies outside the tree given"));
    char *cmd = tt_fmt("cmake -S '%s/my app' -B %s/build", dir, dir);
    assert_true(tt_contains(r.err, cmd));
    free(cmd);
    free(cache);
    tt_assert_file(dir, "build/compile_commands.json", json);
    tt_free(&r);
    free(app);
    free(db);
    free(json);
    tt_rmtree(dir);
    free(dir);
}

/* libclang 14 hides the statements of OpenMP regions under -fopenmp, so
 * OpenMP is parsed as plain C (lint/engine/args_policy.h): a backend call
 * in a region is listed with -fopenmp as without it. */
static void test_openmp_regions(void **state)
{
    (void)state;
    char *dir = tt_tmpdir();
    free(tt_write(dir, "t.c", "#include <cblas.h>\n"
                              "void f(float *x, int n)\n"
                              "{\n"
                              "#pragma omp parallel\n"
                              "    {\n"
                              "        cblas_sscal(n, 2.0f, x, 1);\n"
                              "    }\n"
                              "}\n"));
    const char *flags[] = {"-fopenmp", "-fno-openmp"};
    for (size_t k = 0; k < 2; k++) {
        tt_run r = mt_migrate_args(dir, "plan", ".", "--", flags[k], NULL);
        assert_true(tt_contains(r.err, "t.c:6:9: manual: [EH102]"));
        tt_free(&r);
    }
    tt_rmtree(dir);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_database_outside_tree),
        cmocka_unit_test(test_plan_verify),
        cmocka_unit_test(test_verify_every_configuration),
        cmocka_unit_test(test_define_sets_usage),
        cmocka_unit_test(test_define_sets_without_database),
        cmocka_unit_test(test_define_sets_with_database),
        cmocka_unit_test(test_template_its_includer_skips),
        cmocka_unit_test(test_stale_database),
        cmocka_unit_test(test_unwalked_cxx),
        cmocka_unit_test(test_backend_by_backend),
        cmocka_unit_test(test_compile_commands),
        cmocka_unit_test(test_include_shared_with_other_backend),
        cmocka_unit_test(test_manual_reason_names_the_use),
        cmocka_unit_test(test_manual_reason_mapped_function),
        cmocka_unit_test(test_own_macro_named_like_backend),
        cmocka_unit_test(test_define_sets_keep_the_language),
        cmocka_unit_test(test_openmp_regions),
        cmocka_unit_test(test_notes_say_scanned),
        cmocka_unit_test(test_database_excluded_noted),
        cmocka_unit_test(test_own_library_copy_noted),
        cmocka_unit_test(test_own_note_alias_macro),
        cmocka_unit_test(test_own_cblas_copy_noted),
        cmocka_unit_test(test_own_note_needs_a_silenced_call),
        cmocka_unit_test(test_own_note_every_definition),
        cmocka_unit_test(test_own_note_per_configuration),
        cmocka_unit_test(test_missing_include_note_once),
        cmocka_unit_test(test_own_note_names_calls_and_directories),
        cmocka_unit_test(test_walked_unbuilt_backend_interface),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
