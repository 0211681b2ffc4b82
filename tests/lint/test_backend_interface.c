/* tests/lint/test_backend_interface.c -- EH102 and a link-time backend
 * interface (OSQP's algebra API: every backend defines the functions a
 * shared header declares, and the build links one).  A function two
 * backends define is not one backend's, also when the run builds only
 * one of them (-p with a database of the built backend): the others'
 * definitions are read from their files' text.  A backend's static
 * function of the same name does not count, nor a call followed by a
 * block; a function one backend alone defines is still that backend's.
 * The same for a struct two backends define (the frontend's vec_t).  The
 * run decides, never the cache: a warm run after the other backend drops
 * its definition reports the uses. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lint_test.h"

static void write_tree(void)
{
    tt_w(".emberlint.json", "{\"backend_dirs\": [\"algebra/<name>/\"], \"frontend_include\": \"\"}\n");
    tt_w("include/vec.h", "#ifndef VEC_H\n#define VEC_H\n"
                          "typedef struct vec_impl vec_t;\n"
                          "void vec_add(float *y, const float *x, int n);\n"
                          "float vec_dot(const float *x, const float *y, int n);\n"
                          "int vec_threads(void);\n"
                          "void vec_fill(float *x, int n);\n"
                          "#endif\n");
    tt_w("algebra/builtin/impl.h", "struct vec_impl { float *d; int n; };\n");
    tt_w("algebra/gpu/impl.cuh", "struct vec_impl { void *dev; };\n");
    tt_w("algebra/builtin/vector.c",
         "#include \"../../include/vec.h\"\n"
         "void vec_add(float *y, const float *x, int n) { for (int i = 0; i < n; i++) y[i] += x[i]; }\n"
         "float vec_dot(const float *x, const float *y, int n)\n"
         "{\n    float s = 0;\n    for (int i = 0; i < n; i++)\n        s += x[i] * y[i];\n    return s;\n}\n"
         "int vec_threads(void) { return 1; }\n"
         "void vec_fill(float *x, int n) { for (int i = 0; i < n; i++) x[i] = 0; }\n");
    /* not built: read as text */
    tt_w("algebra/gpu/vector.cu",
         "#include \"../../include/vec.h\"\n"
         "extern \"C\" {\n"
         "void vec_add(float *y, const float *x, int n)\n{\n    gpu_axpy<<<1, 1>>>(y, x, n);\n}\n"
         "float vec_dot(const float *x, const float *y, int n) __attribute__((used))\n"
         "{\n    return gpu_dot(x, y, n);\n}\n"
         "}\n"
         "static int vec_threads(void) { return 64; }\n"
         "#define ON_EACH(f) for (int k = 0; k < 2; k++)\n"
         "void gpu_fill(float *x, int n) { ON_EACH(vec_fill) { x[0] = 0; } (void)n; }\n");
    tt_w("src/solve.c", "#include \"../algebra/builtin/impl.h\"\n"
                        "#include \"../include/vec.h\"\n"
                        "float solve(float *y, const float *x, int n, vec_t *v)\n{\n"
                        "    (void)v;\n"
                        "    vec_add(y, x, n);\n"
                        "    float d = vec_dot(x, y, n);\n"
                        "    vec_fill(y, n);\n"
                        "    return d + (float)vec_threads();\n}\n");
    char *db = tt_fmt("[{\"directory\": \"%s\", \"file\": \"src/solve.c\", \"command\": \"cc -c src/solve.c\"},\n"
                      " {\"directory\": \"%s\", \"file\": \"algebra/builtin/vector.c\", "
                      "\"command\": \"cc -c algebra/builtin/vector.c\"}]\n",
                      tt_dir, tt_dir);
    tt_w("build/compile_commands.json", db);
    free(db);
}

/* The EH102 findings of run r: "file:line:name" joined by spaces. */
static char *eh102_lines(const tt_run *r)
{
    json_object *j = tt_json(r->out);
    json_object *f = tt_get(j, "findings");
    char *out = tt_fmt("%s", "");
    for (size_t i = 0; i < json_object_array_length(f); i++) {
        json_object *x = json_object_array_get_idx(f, i);
        if (strcmp(json_object_get_string(tt_get(x, "rule")), "EH102") != 0)
            continue;
        const char *m = json_object_get_string(tt_get(x, "message"));
        const char *q = strchr(m, '\'');
        const char *qe = q ? strchr(q + 1, '\'') : NULL;
        const char *file = json_object_get_string(tt_get(x, "file"));
        const char *slash = strrchr(file, '/');
        char *next = tt_fmt("%s%s%s:%d:%.*s", out, out[0] ? " " : "", slash ? slash + 1 : file,
                            json_object_get_int(tt_get(x, "line")), qe ? (int)(qe - q - 1) : 0,
                            q ? q + 1 : "");
        free(out);
        out = next;
    }
    json_object_put(j);
    return out;
}

static void test_unbuilt_backend_read_as_text(void **state)
{
    (void)state;
    write_tree();
    tt_run r = lt_emberlint(tt_dir, "--no-cache", "--select", "EH102", "--format", "json", "-p", "build", NULL);
    char *got = eh102_lines(&r);
    /* vec_add and vec_dot: gpu defines them too (in extern "C", one with
     * an attribute); vec_threads: gpu's is static; vec_fill: gpu only
     * calls it where a macro's body is followed by a block */
    assert_string_equal(got, "solve.c:8:vec_fill solve.c:9:vec_threads");
    free(got);
    tt_free(&r);
}

/* Both backends linted (a walk of the tree, the .cu file a C++ one the
 * walk leaves alone): builtin's definitions alone are in the run, gpu's
 * are read. */
static void test_walk_reads_the_other_backend(void **state)
{
    (void)state;
    write_tree();
    tt_run r = lt_emberlint(tt_dir, "--no-cache", "--select", "EH102", "--format", "json", "src", "algebra", NULL);
    char *got = eh102_lines(&r);
    assert_string_equal(got, "solve.c:8:vec_fill solve.c:9:vec_threads");
    free(got);
    tt_free(&r);
}

/* A warm run: the verdicts follow the other backend's text. */
static void test_cache_follows_the_other_backend(void **state)
{
    (void)state;
    write_tree();
    tt_run r = lt_emberlint(tt_dir, "--select", "EH102", "--format", "json", "-p", "build", NULL);
    char *got = eh102_lines(&r);
    assert_string_equal(got, "solve.c:8:vec_fill solve.c:9:vec_threads");
    free(got);
    tt_free(&r);
    tt_w("algebra/gpu/impl.cuh", "struct gpu_only { void *dev; };\n");
    tt_w("algebra/gpu/vector.cu", "static void vec_add(float *y) { (void)y; }\n"
                                  "float vec_dot(const float *x, const float *y, int n) { return 0; }\n");
    r = lt_emberlint(tt_dir, "-v", "--select", "EH102", "--format", "json", "-p", "build", NULL);
    assert_true(tt_contains(r.err, "(2 from the cache)"));
    got = eh102_lines(&r);
    /* the struct in vec.h's typedef, vec_t in solve.c, and vec_add */
    assert_string_equal(got, "vec.h:3:vec_impl solve.c:3:vec_t solve.c:6:vec_add "
                             "solve.c:8:vec_fill solve.c:9:vec_threads");
    free(got);
    tt_free(&r);
}

/* Two backends defining a library's routine (a reference build and an
 * accelerated one): calling it is still calling the library. */
static void test_library_name_stays_the_library(void **state)
{
    (void)state;
    tt_w(".emberlint.json", "{\"frontend_include\": \"\"}\n");
    tt_w("backends/ref/sscal.c", "void cblas_sscal(int n, float a, float *x, int inc) { (void)n; (void)a; (void)x; (void)inc; }\n");
    tt_w("backends/accel/sscal.c", "void cblas_sscal(int n, float a, float *x, int inc) { (void)n; (void)a; (void)x; (void)inc; }\n");
    tt_w("src/main.c", "void cblas_sscal(int n, float a, float *x, int inc);\n"
                       "void scale(float *x) { cblas_sscal(1, 2.0f, x, 1); }\n");
    tt_run r = lt_emberlint(tt_dir, "--no-cache", "--select", "EH102", "--format", "json", "src",
                            "backends", NULL);
    char *got = eh102_lines(&r);
    assert_string_equal(got, "main.c:2:cblas_sscal");
    free(got);
    tt_free(&r);
}

/* The verdict does not depend on where emberlint runs: the built-in
 * backend_dirs pattern is read from the project's root, not from the
 * current directory (run from build/ with -p ., and from a parent that
 * has a backends/ of its own). */
static void test_same_from_any_directory(void **state)
{
    (void)state;
    tt_w("proj/.emberlint.json", "{\"frontend_include\": \"\"}\n");
    tt_w("proj/include/v.h", "void vec_scale(float *x);\nint blas_only(void);\n");
    tt_w("proj/backends/blas/v.c", "#include \"../../include/v.h\"\n"
                                   "void vec_scale(float *x) { x[0] = 0; }\nint blas_only(void) { return 1; }\n");
    tt_w("proj/backends/torch/v.c", "void vec_scale(float *x) { x[0] = 1; }\n");
    tt_w("proj/src/main.c", "#include \"../include/v.h\"\n"
                            "int use(float *x) { vec_scale(x); return blas_only(); }\n");
    /* a parent directory with a backends/ of its own that defines blas_only */
    tt_w("backends/other/o.c", "int blas_only(void) { return 2; }\n");
    char *db = tt_fmt("[{\"directory\": \"%s/proj\", \"file\": \"src/main.c\", \"command\": \"cc -c src/main.c\"},\n"
                      " {\"directory\": \"%s/proj\", \"file\": \"backends/blas/v.c\", \"command\": \"cc -c backends/blas/v.c\"}]\n",
                      tt_dir, tt_dir);
    tt_w("proj/build/compile_commands.json", db);
    free(db);
    const char *const where[][3] = {{"proj", "-p", "build"}, {"proj/build", "-p", "."}, {"", "-p", "proj/build"}};
    for (size_t k = 0; k < 3; k++) {
        char *cwd = where[k][0][0] ? tt_path(tt_dir, where[k][0]) : tt_fmt("%s", tt_dir);
        tt_run r = lt_emberlint(cwd, "--no-cache", "--select", "EH102", "--format", "json",
                                where[k][1], where[k][2], NULL);
        char *got = eh102_lines(&r);
        if (strcmp(got, "main.c:2:blas_only") != 0)
            print_error("run in %s: %s\n%s", where[k][0], r.err, r.out);
        assert_string_equal(got, "main.c:2:blas_only");
        free(got);
        tt_free(&r);
        free(cwd);
    }
}

/* What the text of other backends may not count: a symbolic link's
 * target (not followed), a core directory that backend_dirs would name
 * (core_paths), a backend's tests/ (mocks of the interface). */
static void test_what_is_not_read(void **state)
{
    (void)state;
    tt_w(".emberlint.json", "{\"backend_dirs\": [\"algebra/<name>/\"], \"core_paths\": [\"algebra/_common/\"], "
                            "\"frontend_include\": \"\"}\n");
    tt_w("include/v.h", "int one(void);\nint two(void);\nint three(void);\n");
    tt_w("algebra/builtin/v.c", "#include \"../../include/v.h\"\n"
                                "int one(void) { return 1; }\nint two(void) { return 2; }\nint three(void) { return 3; }\n");
    tt_w("elsewhere/x.c", "int one(void) { return 11; }\n");
    tt_w("algebra/gpu/g.c", "int gpu_only(void) { return 0; }\n");
    char *target = tt_path(tt_dir, "elsewhere");
    char *link = tt_path(tt_dir, "algebra/gpu/linked");
    assert_int_equal(symlink(target, link), 0);
    free(target);
    free(link);
    tt_w("algebra/_common/c.c", "int two(void) { return 22; }\n");
    tt_w("algebra/gpu/tests/mock.c", "int three(void) { return 33; }\n");
    tt_w("src/main.c", "#include \"../include/v.h\"\nint use(void) { return one() + two() + three(); }\n");
    char *db = tt_fmt("[{\"directory\": \"%s\", \"file\": \"src/main.c\", \"command\": \"cc -c src/main.c\"},\n"
                      " {\"directory\": \"%s\", \"file\": \"algebra/builtin/v.c\", \"command\": \"cc -c algebra/builtin/v.c\"}]\n",
                      tt_dir, tt_dir);
    tt_w("build/compile_commands.json", db);
    free(db);
    tt_run r = lt_emberlint(tt_dir, "--no-cache", "--select", "EH102", "--format", "json", "-p",
                            "build", NULL);
    char *got = eh102_lines(&r);
    assert_string_equal(got, "main.c:2:one main.c:2:two main.c:2:three");
    free(got);
    tt_free(&r);
}

/* -p build . walks the tree: the other backend's file, a .c file the
 * database does not build (csdr's fft_rpi.c, all under #ifdef
 * USE_RPI_FFT, beside the built fft_fftw.c, both defining fft_execute),
 * is found by the walk and left out as not built: it is not parsed, so
 * it is read as text like the .cu file (it was taken for a parsed file,
 * whose definitions the facts would tell, and not read). */
static void test_walked_unbuilt_backend_read_as_text(void **state)
{
    (void)state;
    write_tree();
    char *cu = tt_path(tt_dir, "algebra/gpu/vector.cu");
    assert_int_equal(unlink(cu), 0);
    free(cu);
    tt_w("algebra/gpu/vector.c", "#ifdef USE_GPU\n"
                                 "#include \"../../include/vec.h\"\n"
                                 "void vec_add(float *y, const float *x, int n) { gpu_axpy(y, x, n); }\n"
                                 "float vec_dot(const float *x, const float *y, int n)\n"
                                 "{\n    return gpu_dot(x, y, n);\n}\n"
                                 "#endif\n");
    tt_run r = lt_emberlint(tt_dir, "--no-cache", "--select", "EH102", "--format", "json", "-p", "build", ".",
                            NULL);
    char *got = eh102_lines(&r);
    assert_string_equal(got, "solve.c:8:vec_fill solve.c:9:vec_threads");
    free(got);
    tt_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        tt_scratch_test(test_unbuilt_backend_read_as_text),
        tt_scratch_test(test_walk_reads_the_other_backend),
        tt_scratch_test(test_cache_follows_the_other_backend),
        tt_scratch_test(test_library_name_stays_the_library),
        tt_scratch_test(test_same_from_any_directory),
        tt_scratch_test(test_what_is_not_read),
        tt_scratch_test(test_walked_unbuilt_backend_read_as_text),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
