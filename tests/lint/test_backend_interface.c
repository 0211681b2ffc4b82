/* tests/lint/test_backend_interface.c -- EH102 and a link-time backend
 * interface (OSQP's algebra API: every backend defines the functions a
 * shared header declares, and the build links one).  A function two
 * backends define is not one backend's, also when the run builds only
 * one of them (-p with a database of the built backend): the others'
 * definitions are read from their files' text.  A backend's static
 * function of the same name does not count, nor a call followed by a
 * block; a function one backend alone defines is still that backend's. */
#include <stdlib.h>
#include <string.h>

#include "lint_test.h"

static void write_tree(void)
{
    tt_w(".emberlint.json", "{\"backend_dirs\": [\"algebra/<name>/\"], \"frontend_include\": \"\"}\n");
    tt_w("include/vec.h", "#ifndef VEC_H\n#define VEC_H\n"
                          "void vec_add(float *y, const float *x, int n);\n"
                          "float vec_dot(const float *x, const float *y, int n);\n"
                          "int vec_threads(void);\n"
                          "void vec_fill(float *x, int n);\n"
                          "#endif\n");
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
    tt_w("src/solve.c", "#include \"../include/vec.h\"\n"
                        "float solve(float *y, const float *x, int n)\n{\n"
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

/* The EH102 findings of run r: "line:function" joined by spaces. */
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
        char *next = tt_fmt("%s%s%d:%.*s", out, out[0] ? " " : "",
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
    assert_string_equal(got, "6:vec_fill 7:vec_threads");
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
    assert_string_equal(got, "6:vec_fill 7:vec_threads");
    free(got);
    tt_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        tt_scratch_test(test_unbuilt_backend_read_as_text),
        tt_scratch_test(test_walk_reads_the_other_backend),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
