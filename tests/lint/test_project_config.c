/* tests/lint/test_project_config.c -- configuring emberlint for a project
 * that is not libeh (docs/emberlint.md, "Configuration"): neutral
 * messages and the project's own replacements, frontend include and
 * host-access functions; nested .emberlint.json files that inherit
 * ("root": true stops), list keys that add and remove; <name> inside a
 * directory name and backend_files; errors (unknown options, patterns
 * without a backend name, removing what is not there) at their
 * position; the warning for patterns that match nothing;
 * --show-config. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lint_test.h"

/* emberlint in dir (every rule), the run kept for its output. */
static tt_run run(const char *a, const char *b, const char *c)
{
    return lt_emberlint(tt_dir, "--no-cache", "--color", "never", a, b, c, NULL);
}

/* A project of its own: its frontend header tensor/api.h, storage read
 * through tensor_data_f32(), BLAS called directly. */
static void project_tree(void)
{
    tt_w("include/tensor/api.h", "#ifndef API_H\n#define API_H\n"
                              "struct tensor;\n"
                              "float *tensor_data_f32(struct tensor *t);\n"
                              "struct tensor *tensor_matmul(struct tensor *a, struct tensor *b);\n"
                              "#endif\n");
    tt_w("src/uses.c", "#include <math.h>\n"
                    "#include <cblas.h>\n"
                    "#include \"../include/tensor/api.h\"\n"
                    "void gemm(const float *a, const float *b, float *c, int n)\n"
                    "{\n"
                    "    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, a, n, b, n,\n"
                    "                0.0f, c, n);\n"
                    "}\n"
                    "float scale(struct tensor *t, int k)\n"
                    "{\n"
                    "    float *p = tensor_data_f32(t);\n"
                    "    p[0] = p[1] * 2.0f;\n"
                    "    return sqrtf(p[2]) + (float)(k / 2);\n"
                    "}\n");
    tt_w("src/unused.c", "#include <cblas.h>\n"
                      "int unused(void) { return 1; }\n");
}

static void test_neutral_without_libeh(void **state)
{
    (void)state;
    project_tree();
    tt_w(".emberlint.json", "{\"storage_accessors\": [\"tensor_data_f32\"]}\n");
    tt_run r = run("src", NULL, NULL);
    assert_int_equal(r.status, 1);
    assert_true(tt_contains(r.out, "src/uses.c:2:1: error: frontend code includes backend-private "
                                   "header 'cblas.h' [EH101]"));
    assert_true(tt_contains(r.out, "src/uses.c:6:5: error: call to backend function 'cblas_sgemm' [EH102]"));
    assert_true(tt_contains(r.out, "[EH201]"));
    assert_true(tt_contains(r.out, "[EH202]"));
    assert_true(tt_contains(r.out, "[EH302]"));
    /* nothing of libeh: no <eh/eh.h>, no eh_ op */
    assert_false(tt_contains(r.out, "eh/eh.h"));
    assert_false(tt_contains(r.out, "eh_"));
    tt_free(&r);
    /* the fix only removes an unused include */
    r = lt_emberlint(tt_dir, "--no-cache", "--select", "EH101", "--diff", "src/unused.c", NULL);
    assert_int_equal(r.status, 1);
    assert_true(tt_contains(r.out, "-#include <cblas.h>\n"));
    assert_false(tt_contains(r.out, "+#include"));
    tt_free(&r);
}

static void test_project_replacements(void **state)
{
    (void)state;
    project_tree();
    tt_w(".emberlint.json", "{\n"
                         "  \"frontend_include\": \"tensor/api.h\",\n"
                         "  \"storage_accessors\": [\"tensor_data_f32\"],\n"
                         "  \"replacements\": {\"cblas_sgemm\": \"tensor_matmul\", \"*\": \"tensor_scale\",\n"
                         "                   \"sqrt\": \"tensor_sqrt\", \"/\": \"tensor_div\"}\n"
                         "}\n");
    /* the project's replacement of cblas_sgemm holds for its Fortran name */
    tt_w("src/fortran.c", "void sgemm_(const char *ta, const char *tb, const int *m, const int *n,\n"
                       "            const int *k, const float *al, const float *a, const int *lda,\n"
                       "            const float *b, const int *ldb, const float *be, float *c,\n"
                       "            const int *ldc);\n"
                       "void gemm_f(const float *a, const float *b, float *c, int n)\n"
                       "{\n"
                       "    float one = 1.0f, zero = 0.0f;\n"
                       "    sgemm_(\"N\", \"N\", &n, &n, &n, &one, a, &n, b, &n, &zero, c, &n);\n"
                       "}\n");
    tt_run r = run("src", NULL, NULL);
    assert_int_equal(r.status, 1);
    assert_true(tt_contains(r.out, "header 'cblas.h'; include <tensor/api.h> and call its API instead [EH101]"));
    assert_true(tt_contains(r.out, "call to backend function 'cblas_sgemm'; use tensor_matmul [EH102]"));
    assert_true(tt_contains(r.out, "call to backend function 'sgemm_'; use tensor_matmul [EH102]"));
    assert_true(tt_contains(r.out, "use tensor_scale on the tensor [EH201]"));
    assert_true(tt_contains(r.out, "use tensor_sqrt on the tensor [EH202]"));
    assert_true(tt_contains(r.out, "or use tensor_div on tensors [EH302]"));
    assert_false(tt_contains(r.out, "eh_"));
    tt_free(&r);
    /* (--diff shows what --fix writes: it compiles only where <tensor/api.h> is found) */
    r = lt_emberlint(tt_dir, "--no-cache", "--select", "EH101", "--diff", "src/unused.c", "--",
                     "-Iinclude", NULL);
    assert_true(tt_contains(r.out, "-#include <cblas.h>\n+#include <tensor/api.h>\n"));
    tt_free(&r);
}

static void test_libeh_keeps_its_suggestions(void **state)
{
    (void)state;
    /* the same BLAS call in a file that uses libeh */
    tt_w("src/eh.c", "#include <eh/eh.h>\n"
                  "#include <cblas.h>\n"
                  "float dot(const float *a, const float *b) { return cblas_sdot(3, a, 1, b, 1); }\n"
                  "double DDOT_(const int *n, const double *x, const int *ix, const double *y,\n"
                  "             const int *iy);\n"
                  "double ddot_upper(const double *a, const double *b)\n"
                  "{\n"
                  "    int n = 3, one = 1;\n"
                  "    return DDOT_(&n, a, &one, b, &one);\n"
                  "}\n");
    tt_run r = lt_emberlint(tt_dir, "--no-cache", "src", "--", LT_INCLUDE, NULL);
    assert_true(tt_contains(r.out, "include <eh/eh.h> and call ops instead [EH101]"));
    assert_true(tt_contains(r.out, "'cblas_sdot'; use eh_dot [EH102]"));
    /* a Fortran name in upper case (some compilers' mangling) */
    assert_true(tt_contains(r.out, "'DDOT_'; use eh_dot [EH102]"));
    tt_free(&r);
}

static void test_vendor_header_of_the_project(void **state)
{
    (void)state;
    /* the project's own cuda.h is not CUDA's; removing a default works */
    tt_w("src/cuda.h", "int cuda_ready(void);\n");
    tt_w("src/cuda.c", "#include \"cuda.h\"\nint cuda_ready(void) { return 1; }\n");
    tt_w("src/a.c", "#include \"cuda.h\"\nint a(void) { return cuda_ready(); }\n");
    tt_w("src/b.c", "#include <cufft.h>\nint b;\n");
    tt_run r = lt_emberlint(tt_dir, "--no-cache", "--select", "EH1", "src", NULL);
    assert_false(tt_contains(r.out, "a.c"));
    assert_false(tt_contains(r.out, "cuda.c"));
    assert_true(tt_contains(r.out, "src/b.c:1:1: error: frontend code includes backend-private header "
                                   "'cufft.h'"));
    tt_free(&r);
    tt_w(".emberlint.json", "{\"vendor_headers\": {\"remove\": [\"cufft.h\"]}}\n");
    r = lt_emberlint(tt_dir, "--no-cache", "--select", "EH101", "src", NULL);
    assert_int_equal(r.status, 0);
    tt_free(&r);
}

static void test_nested_inheritance(void **state)
{
    (void)state;
    tt_w(".emberlint.json", "{\"backend_macros\": [\"USE_GPU\"], \"rules\": {\"EH101\": \"warning\"}}\n");
    tt_w("top.c", "#ifdef USE_GPU\nint g;\n#endif\n");
    /* inherits the macro and EH101's severity, adds an exclude */
    tt_w("sub/.emberlint.json", "{\"exclude\": [\"gen/\"]}\n");
    tt_w("sub/inner.c", "#ifdef USE_GPU\nint g;\n#endif\n#include <cblas.h>\n");
    tt_w("sub/gen/skipped.c", "#include <cblas.h>\n");
    /* stops inheriting: the built-in only, then its own keys */
    tt_w("alone/.emberlint.json", "{\"root\": true, \"rules\": {\"EH103\": \"note\"}}\n");
    tt_w("alone/x.c", "#ifdef USE_GPU\nint g;\n#endif\n#include <cblas.h>\n");
    /* removes what it inherits */
    tt_w("lax/.emberlint.json", "{\"backend_macros\": {\"remove\": [\"USE_GPU\"]}}\n");
    tt_w("lax/y.c", "#ifdef USE_GPU\nint g;\n#endif\n");
    tt_run r = lt_emberlint(tt_dir, "--no-cache", "--select", "EH101,EH103", ".", NULL);
    assert_true(tt_contains(r.out, "top.c:1:8: error: "));
    assert_true(tt_contains(r.out, "sub/inner.c:1:8: error: "));
    assert_true(tt_contains(r.out, "sub/inner.c:4:1: warning: "));
    assert_false(tt_contains(r.out, "skipped.c"));
    assert_false(tt_contains(r.out, "alone/x.c:1:"));
    assert_true(tt_contains(r.out, "alone/x.c:4:1: error: "));
    assert_false(tt_contains(r.out, "lax/y.c"));
    tt_free(&r);
    /* where each value comes from */
    r = lt_emberlint(tt_dir, "--show-config", "sub/inner.c", NULL);
    assert_int_equal(r.status, 0);
    assert_true(tt_contains(r.out, "# files, outermost first: built-in <- .emberlint.json <- sub/.emberlint.json\n"));
    assert_true(tt_contains(r.out, "  \"USE_GPU\"                           # .emberlint.json:1:21\n"));
    assert_true(tt_contains(r.out, "  \"gen/\"                              # sub/.emberlint.json:1:14\n"));
    assert_true(tt_contains(r.out, "  EH101 backend-include                warning  # .emberlint.json:1:43\n"));
    assert_true(tt_contains(r.out, "  \"build/\"                            # built-in (rules/default.json:"));
    tt_free(&r);
    /* a file a walk skips says so (the pattern names its directory) */
    r = lt_emberlint(tt_dir, "--show-config", "sub/gen/skipped.c", NULL);
    assert_true(tt_contains(r.out, "# the configuration of sub/gen/skipped.c: frontend, c, excluded "
                                   "(a walk skips it; linted when named, or listed by -p without "
                                   "PATH)\n"));
    tt_free(&r);
    r = lt_emberlint(tt_dir, "--show-config", "sub/inner.c", NULL);
    assert_false(tt_contains(r.out, "excluded"));
    tt_free(&r);
    r = lt_emberlint(tt_dir, "--show-config", "alone", NULL);
    assert_true(tt_contains(r.out, "# files, outermost first: built-in <- alone/.emberlint.json\n"));
    assert_false(tt_contains(r.out, "USE_GPU"));
    tt_free(&r);
}

/* The lists keep their first entry of each string and their order however
 * long they are (config.c counts a long list's strings instead of
 * comparing each new entry with every other): a name once, a path
 * pattern once per directory that declares it, removed then added again
 * at the end. */
static void test_long_lists_keep_order(void **state)
{
    (void)state;
    tt_w(".emberlint.json",
         "{\"vendor_headers\": {\"add\": [\"zz1.h\",\"cblas.h\",\"zz2.h\",\"zz1.h\",\"sub/q.h\"], "
         "\"remove\": [\"fftw3.h\"]}, "
         "\"storage_accessors\": {\"add\": [\"get_a\",\"get_b\",\"get_a\"]}}");
    tt_w("sub/.emberlint.json",
         "{\"vendor_headers\": {\"add\": [\"sub/q.h\",\"zz2.h\",\"fftw3.h\"], \"remove\": [\"cuda.h\"]}, "
         "\"storage_accessors\": {\"add\": [\"get_b\",\"get_c\"]}}");
    tt_w("sub/y.c", "int y;\n");
    tt_run r = lt_emberlint(tt_dir, "--show-config", "sub/y.c", NULL);
    assert_int_equal(r.status, 0);
    const char *want =
        "  \"zz1.h\"                             # .emberlint.json:1:29\n"
        "  \"zz2.h\"                             # .emberlint.json:1:47\n"
        "  \"sub/q.h\"                           # .emberlint.json:1:63\n"
        "  \"sub/q.h\"                           # sub/.emberlint.json:1:29\n"
        "  \"zz2.h\"                             # sub/.emberlint.json:1:39\n"
        "  \"fftw3.h\"                           # sub/.emberlint.json:1:47\n";
    if (!tt_contains(r.out, want)) {
        print_error("--show-config:\n%s\nwanted in it:\n%s", r.out, want);
        fail();
    }
    assert_true(tt_contains(r.out, "  \"get_a\"                             # .emberlint.json:1:129\n"
                                   "  \"get_b\"                             # .emberlint.json:1:137\n"
                                   "  \"get_c\"                             # sub/.emberlint.json:1:120\n"));
    /* the built-in cblas.h once, where the built-in list has it */
    const char *first = strstr(r.out, "\"cblas.h\"");
    assert_non_null(first);
    assert_null(strstr(first + 1, "\"cblas.h\""));
    assert_true(tt_contains(r.out, "  \"cblas.h\"                           # built-in"));
    assert_false(tt_contains(r.out, "\"cuda.h\""));
    tt_free(&r);
}

static void test_errors_at_their_position(void **state)
{
    (void)state;
    static const struct {
        const char *text, *message;
    } cases[] = {
        {"{\"rules\": {\"EH105\": {\"options\": {\n  \"tabel_types\": [\"x\"]}}}}",
         ":2:3: rules.EH105.options: unknown option \"tabel_types\": did you mean \"table_types\"?\n"},
        {"{\"rules\": {\"EH105\": {\"options\": {\n  \"op_tables\": [\"x\"]}}}}",
         ":2:3: rules.EH105.options: unknown option \"op_tables\": expected \"table_types\", "
         "\"kernels_field\", \"op_enum_prefix\", \"optional\", \"delegate_field\", "
         "\"custom_kernel_functions\", \"custom_kernel_types\", \"custom_op_def_types\", "
         "\"custom_op_exempt_fields\"\n"},
        {"{\"rules\": {\"EH101\": {\"options\": {\"x\": 1}}}}",
         ":1:34: rules.EH101.options: unknown option \"x\" (the rule has no options)\n"},
        {"{\"rules\": {\"EH105\": {\"options\": {\"kernels_field\": []}}}}",
         ":1:34: rules.EH105.options.kernels_field: expected a string\n"},
        {"{\"backend_dirs\": [\"a/<name>/\",\n  \"/src/gpu-*/\"]}",
         ":2:3: \"backend_dirs\": '/src/gpu-*/' names no backend: write <name> once, where the "
         "backend's name is in the path (\"backends/<name>/\", \"src/ggml-<name>/\")\n"},
        {"{\"backends\": [\"\"]}", ":1:15: \"backends\": expected non-empty strings\n"},
        {"{\"vendor_headers\": {\"remove\": [\"cuda.h\", \"cudaa.h\"]}}",
         ":1:42: \"vendor_headers\": cannot remove 'cudaa.h': it is not in the inherited list "
         "(see emberlint --show-config FILE)\n"},
        {"{\"languages\": [\"rust\"]}", ":1:16: \"languages\": expected \"c\" or \"c++\", got 'rust'\n"},
        {"{\"root\": 1}", ":1:2: \"root\": expected true or false\n"},
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
        free(want);
        tt_free(&r);
    }
}

static void test_backend_names_and_patterns(void **state)
{
    (void)state;
    tt_w(".emberlint.json", "{\n"
                         "  \"backend_dirs\": [\"src/ggml-<name>/\", \"src/missing-<name>/\"],\n"
                         "  \"backend_files\": {\"gpu\": [\"/src/gpu.c\", \"/src/gpu.h\"]},\n"
                         "  \"core_paths\": [\"/src/nowhere/\"]\n"
                         "}\n");
    tt_w("src/ggml-cuda/impl.h", "int cuda_impl(void);\n");
    tt_w("src/ggml-cuda/impl.c", "#include \"impl.h\"\nint cuda_impl(void) { return 1; }\n");
    tt_w("src/ggml-impl.h", "int shared(void);\n"); /* a file, not a backend directory */
    tt_w("src/gpu.c", "int gpu(void) { return 2; }\n");
    tt_w("src/gpu.h", "int gpu(void);\n");
    tt_w("src/app.c", "#include \"ggml-cuda/impl.h\"\n#include \"ggml-impl.h\"\nint app(void) { return cuda_impl(); }\n");
    tt_w("src/caller.c", "#include \"gpu.h\"\nint caller(void) { return gpu(); }\n");
    tt_run r = lt_emberlint(tt_dir, "--no-cache", "--select", "EH101,EH102", ".", NULL);
    assert_true(tt_contains(r.out, "src/app.c:1:1: error: frontend code includes 'ggml-cuda/impl.h', a "
                                   "header of backend 'cuda' (src/ggml-cuda/) [EH101]"));
    assert_true(tt_contains(r.out, "call to backend function 'cuda_impl' of backend 'cuda' [EH102]"));
    assert_false(tt_contains(r.out, "ggml-impl.h'"));
    /* a backend of single files: the message names the header itself */
    assert_true(tt_contains(r.out, "src/caller.c:1:1: error: frontend code includes 'gpu.h', a header "
                                   "of backend 'gpu' (src/gpu.h) [EH101]"));
    /* patterns that match no linted file: warnings, at their place */
    assert_true(tt_contains(r.err, "emberlint: warning: .emberlint.json:2:40: \"backend_dirs\" pattern "
                                   "'src/missing-<name>/' matches none of the linted files\n"));
    assert_true(tt_contains(r.err, "emberlint: warning: .emberlint.json:4:18: \"core_paths\" pattern "
                                   "'/src/nowhere/' matches none of the linted files\n"));
    assert_false(tt_contains(r.err, "ggml-<name>"));
    tt_free(&r);
    r = lt_emberlint(tt_dir, "--show-config", "src/gpu.c", NULL);
    assert_true(tt_contains(r.out, "# the configuration of src/gpu.c: backend 'gpu', c\n"));
    tt_free(&r);
    r = lt_emberlint(tt_dir, "--show-config", "src/ggml-cuda/impl.c", NULL);
    assert_true(tt_contains(r.out, ": backend 'cuda', c\n"));
    assert_true(tt_contains(r.out, "  \"cuda\"                              # found in the linted tree\n"));
    tt_free(&r);
}

/* A backend_files pattern that names none of the linted files (a typo:
 * PLASMA's core_blas/ given as core_blass/) left its backend with no
 * file, silently: warned as the other path patterns are; one naming files
 * no walk lints (.cu) is not. */
static void test_backend_files_matching_nothing(void **state)
{
    (void)state;
    tt_w(".emberlint.json", "{\n"
                         "  \"backend_files\": {\"kern\": [\"/kern/*.c\", \"/kernn/*.c\",\n"
                         "                               \"/kern/*_gpu.cu\", \"/inc/\"]}\n"
                         "}\n");
    tt_w("kern/gemm.c", "void kern_gemm(int n) { (void)n; }\n");
    tt_w("inc/kern.h", "void kern_gemm(int n);\n");
    tt_w("app/main.c", "#include \"../inc/kern.h\"\nvoid run(void) { kern_gemm(2); }\n");
    tt_run r = lt_emberlint(tt_dir, "--no-cache", ".", NULL);
    assert_true(tt_contains(r.err, "emberlint: warning: .emberlint.json:2:43: \"backend_files\" "
                                   "pattern '/kernn/*.c' of backend 'kern' matches none of the "
                                   "linted files\n"));
    assert_false(tt_contains(r.err, "'/kern/*.c'"));
    assert_false(tt_contains(r.err, "_gpu.cu"));
    assert_false(tt_contains(r.err, "'/inc/'"));
    tt_free(&r);
}

/* A backend directory holding only C++ files, passed over for
 * "languages": ["c"], was warned as matching none of the linted files
 * beside the note about those files; its patterns matched them.  A typo
 * is still warned. */
static void test_backend_dirs_of_cxx_passed_over(void **state)
{
    (void)state;
    tt_w(".emberlint.json", "{\"languages\": [\"c\"], \"backend_dirs\": [\"/src/gpu/<name>/\"],\n"
                         " \"backend_files\": {\"cuda\": [\"/src/gpu2/\"], \"blas\": [\"/src/gpuu/\"]}}\n");
    tt_w("src/gpu/cuda/k.cpp", "int k;\n");
    tt_w("src/gpu2/m.cpp", "int m;\n");
    tt_w("src/core/a.c", "int a;\n");
    tt_run r = lt_emberlint(tt_dir, "--no-cache", ".", NULL);
    assert_true(tt_contains(r.err, "2 C++ files under ."));
    assert_false(tt_contains(r.err, "'/src/gpu/<name>/'"));
    assert_false(tt_contains(r.err, "'/src/gpu2/'"));
    assert_true(tt_contains(r.err, "pattern '/src/gpuu/' of backend 'blas' matches none"));
    tt_free(&r);
}

/* The same for CUDA files (darknet-style): a backend directory holding
 * only .cu files is read for EH102 (its definitions) and was warned as
 * matching none of the linted files; a typo is still warned. */
static void test_backend_dirs_of_cuda_passed_over(void **state)
{
    (void)state;
    tt_w(".emberlint.json", "{\"backend_dirs\": [\"/gpu/<name>/\"],\n"
                         " \"backend_files\": {\"hip\": [\"/kern/\"], \"blas\": [\"/kernn/\"]}}\n");
    tt_w("gpu/cuda/axpy.cu", "extern \"C\" void axpy_gpu(int n) { (void)n; }\n");
    tt_w("kern/k.cuh", "void k_hip(int n);\n");
    tt_w("src/a.c", "int a;\n");
    tt_run r = lt_emberlint(tt_dir, "--no-cache", ".", NULL);
    assert_false(tt_contains(r.err, "'/gpu/<name>/'"));
    assert_false(tt_contains(r.err, "'/kern/'"));
    assert_false(tt_contains(r.err, "C++ file"));
    assert_true(tt_contains(r.err, "pattern '/kernn/' of backend 'blas' matches none"));
    tt_free(&r);
}

/* --config FILE away from the tree (`--config ../cfg/plasma.json`): its
 * anchored patterns are relative to FILE's directory and matched nothing,
 * and nothing said so: every file stayed frontend.  One warning names
 * them; an unanchored pattern works from anywhere and is not named. */
static void test_config_elsewhere_anchored(void **state)
{
    (void)state;
    tt_w("cfg/proj.json", "{\"backend_files\": {\"kern\": [\"/kern/*.c\"]},\n"
                       " \"core_paths\": [\"/core/\", \"glue/\"]}\n");
    tt_w("proj/kern/gemm.c", "void kern_gemm(int n) { (void)n; }\n");
    tt_w("proj/glue/x.c", "int x;\n");
    tt_run r = lt_emberlint(tt_dir, "--no-cache", "--config", "cfg/proj.json", "proj", NULL);
    assert_true(tt_contains(r.err, "emberlint: warning: cfg/proj.json: a pattern with a leading '/' "
                                   "is anchored at the configuration's directory cfg, which holds "
                                   "none of the linted files, so '/core/' (\"core_paths\"), "
                                   "'/kern/*.c' (\"backend_files\") match nothing: give them "
                                   "relative to cfg, or without the leading '/', or put the "
                                   "configuration at the project's root as .emberlint.json\n"));
    assert_false(tt_contains(r.err, "glue/"));
    tt_free(&r);
    /* from a directory holding the configuration too: that warning
     * only, not each of its patterns again */
    r = lt_emberlint(tt_dir, "--no-cache", "--config", "cfg/proj.json", ".", NULL);
    assert_true(tt_contains(r.err, "which holds none of the linted files"));
    assert_false(tt_contains(r.err, "matches none"));
    tt_free(&r);
    /* the configuration in the tree it lints: its patterns work, no word */
    tt_w("proj/proj.json", "{\"backend_files\": {\"kern\": [\"/kern/*.c\"]}}\n");
    r = lt_emberlint(tt_dir, "--no-cache", "--config", "proj/proj.json", "proj", NULL);
    assert_false(tt_contains(r.err, "anchored"));
    tt_free(&r);
}

/* --config FILE in a directory above the tree it lints (`--config
 * /tmp/x.json /tmp/csdr`): FILE's directory holds the linted files, but
 * only below the directory named, so the pattern of kern's files is FILE's dir/kern/...,
 * which is not there: it matched nothing and nothing said so (the
 * per-pattern warning is for a configuration a named directory holds),
 * every file stayed frontend.  A pattern that names what is there
 * ('/proj/kern/', or '/proj/tests/' of a run over a part of the tree) is
 * the user's choice: no word. */
static void test_config_above_the_tree_anchored(void **state)
{
    (void)state;
    tt_w("x.json", "{\"backend_files\": {\"kern\": [\"/kern/*.c\"]}, \"core_paths\": [\"/glue/\"]}\n");
    tt_w("proj/kern/gemm.c", "void kern_gemm(int n) { (void)n; }\n");
    tt_w("proj/glue/x.c", "int x;\n");
    tt_w("proj/tests/t.c", "int t;\n");
    tt_run r = lt_emberlint(tt_dir, "--no-cache", "--config", "x.json", "proj", NULL);
    assert_true(tt_contains(r.err, "emberlint: warning: x.json: a pattern with a leading '/' is "
                                   "anchored at the configuration's directory ., which holds the "
                                   "linted files only below proj, so '/glue/' (\"core_paths\"), "
                                   "'/kern/*.c' (\"backend_files\") match none of them: give them "
                                   "relative to ., or without the leading '/', or put the "
                                   "configuration at the project's root as .emberlint.json\n"));
    tt_free(&r);
    /* from inside the tree, the files named: the directory above is
     * "..", not "../." */
    char *inside = tt_path(tt_dir, "proj");
    r = lt_emberlint(inside, "--no-cache", "--config", "../x.json", "kern/gemm.c", NULL);
    assert_true(tt_contains(r.err, "emberlint: warning: ../x.json: a pattern with a leading '/' is "
                                   "anchored at the configuration's directory .., and "));
    assert_true(tt_contains(r.err, "give them relative to .., or"));
    tt_free(&r);
    free(inside);
    tt_w("y.json", "{\"backend_files\": {\"kern\": [\"/proj/kern/*.c\"]}, \"core_paths\": [\"/proj/tests/\"]}\n");
    r = lt_emberlint(tt_dir, "--no-cache", "--config", "y.json", "proj/kern", NULL);
    assert_false(tt_contains(r.err, "anchored"));
    tt_free(&r);
    /* -p without PATH: no directory is named, the database's files are
     * the linted ones */
    char *db = tt_fmt("[{\"directory\": \"%s/proj\", \"file\": \"kern/gemm.c\", \"command\": \"cc -c kern/gemm.c\"},\n"
                      " {\"directory\": \"%s/proj\", \"file\": \"glue/x.c\", \"command\": \"cc -c glue/x.c\"}]\n",
                      tt_dir, tt_dir);
    tt_w("proj/build/compile_commands.json", db);
    free(db);
    r = lt_emberlint(tt_dir, "--no-cache", "--config", "x.json", "-p", "proj/build", NULL);
    assert_true(tt_contains(r.err, "emberlint: warning: x.json: a pattern with a leading '/' is "
                                   "anchored at the configuration's directory ., and '/glue/' "
                                   "(\"core_paths\"), '/kern/*.c' (\"backend_files\") match none of "
                                   "the linted files: give them relative to ., or without the "
                                   "leading '/', or put the configuration at the project's root as "
                                   ".emberlint.json\n"));
    tt_free(&r);
}

/* A pattern naming headers the walk skips (in an excluded directory, or
 * found through -I outside the tree) still classifies them when a linted
 * file includes them: it was warned as matching nothing, and following
 * the warning lost EH101 and EH102.  Silent now; one naming only sources
 * (/kernn/x.c) is still warned. */
static void test_patterns_naming_skipped_headers(void **state)
{
    (void)state;
    tt_w(".emberlint.json", "{\"backend_files\": {\"kern\": [\"/kern/*.c\", \"/third/third_*.h\",\n"
                         "                               \"ext_*.h\", \"/kernn/*.c\"]},\n"
                         " \"backend_dirs\": [\"/vendor/<name>/\"],\n"
                         " \"exclude\": [\"/third/\", \"/vendor/\"]}\n");
    tt_w("third/third_blas.h", "void third_gemm(int n);\n");
    tt_w("vendor/vblas/v.h", "void vblas_gemm(int n);\n");
    tt_w("app/two.c", "#include \"../third/third_blas.h\"\n"
                   "void run2(void) { third_gemm(2); }\n");
    tt_w("app/three.c", "#include \"../vendor/vblas/v.h\"\nvoid run3(void) { vblas_gemm(2); }\n");
    tt_w("kern/gemm.c", "void kern_gemm(int n) { (void)n; }\n");
    tt_run r = run(".", NULL, NULL);
    assert_true(tt_contains(r.out, "app/two.c:2:19: error: call to backend function 'third_gemm' "
                                   "of backend 'kern' [EH102]"));
    assert_true(tt_contains(r.out, "app/three.c:2:19: error: call to backend function "
                                   "'vblas_gemm' of backend 'vblas' [EH102]"));
    assert_true(tt_contains(r.err, "pattern '/kernn/*.c' of backend 'kern' matches none"));
    assert_false(tt_contains(r.err, "third_"));
    assert_false(tt_contains(r.err, "ext_"));
    assert_false(tt_contains(r.err, "/vendor/"));
    tt_free(&r);
}

/* --config through a symlink (`--config link/p.json link`, link -> proj):
 * its '/'-anchored patterns were matched against the link's path, the
 * files against their real one, so none matched (no EH102) and a warning
 * said the configuration lay away from the tree.  Its directory is
 * resolved as a discovered configuration's is. */
static void test_config_through_symlink(void **state)
{
    (void)state;
    tt_w("proj/p.json", "{\"backend_files\": {\"kern\": [\"/kern/*.c\"]},\n"
                     " \"core_paths\": [\"/core/\"]}\n");
    tt_w("proj/kern/gemm.c", "void kern_gemm(int n) { (void)n; }\n");
    tt_w("proj/core/c.c", "int core_x;\n");
    tt_w("proj/app/m.c", "void kern_gemm(int n);\nvoid run(void) { kern_gemm(2); }\n");
    char *target = tt_path(tt_dir, "proj"), *link = tt_path(tt_dir, "link");
    assert_int_equal(symlink(target, link), 0);
    tt_run r = run("--config", "link/p.json", "link");
    assert_true(tt_contains(r.out, "m.c:2:18: error: call to backend function 'kern_gemm' of "
                                   "backend 'kern' [EH102]"));
    assert_false(tt_contains(r.err, "warning"));
    tt_free(&r);
    free(target);
    free(link);
}

/* A backend_prefixes pattern holding <backend>: the name says which
 * backend (EH102 at the call, EH104 at a definition outside backends/). */
static void test_backend_pattern_names_the_backend(void **state)
{
    (void)state;
    tt_w(".emberlint.json", "{\"backends\": [\"gpu\"], \"backend_prefixes\": {\"add\": [\"<backend>_*_kernel\"]}}\n");
    tt_w("src/app.c", "void gpu_add_kernel(int n);\n"
                   "void gpu_kernel_count(int n);\n"
                   "void app(int n) { gpu_add_kernel(n); gpu_kernel_count(n); }\n");
    tt_w("src/impl.c", "void gpu_mul_kernel(int n) { (void)n; }\n");
    tt_run r = lt_emberlint(tt_dir, "--no-cache", "--select", "EH102,EH104", ".", NULL);
    assert_true(tt_contains(r.out, "src/app.c:3:19: error: call to backend function 'gpu_add_kernel' [EH102]"));
    assert_false(tt_contains(r.out, "'gpu_kernel_count'"));
    assert_true(tt_contains(r.out, "src/impl.c:1:6: error: definition of backend function 'gpu_mul_kernel' "
                                   "outside the backend directories; backend gpu's code belongs in backends/gpu/ [EH104]"));
    tt_free(&r);
}

/* An anchored pattern ("/gpu/<name>/") names a place in the project:
 * neither a file outside the configuration's directory nor the name an
 * #include spells matches it, however the name reads. */
static void test_anchored_patterns_stay_in_their_root(void **state)
{
    (void)state;
    tt_w("vendor/include/accel.h", "int accel_run(void);\n");
    tt_w("vendor/gpu/cuda/k.h", "int vk_run(void);\n");
    tt_w("proj/.emberlint.json", "{\"root\": true, \"backend_dirs\": [\"/gpu/<name>/\"],\n"
                              " \"backend_headers\": [\"/include/accel.h\"]}\n");
    tt_w("proj/gpu/cuda/own.h", "int own_k(void);\n");
    tt_w("proj/gpu/cuda/own.c", "#include \"own.h\"\nint own_k(void) { return 1; }\n");
    tt_w("proj/include/accel.h", "int accel_own(void);\n");
    tt_w("proj/src/app.c", "#include \"include/accel.h\"\n#include \"gpu/cuda/k.h\"\n"
                        "int app(void) { return accel_run() + vk_run(); }\n");
    tt_w("proj/src/inside.c", "#include \"../gpu/cuda/own.h\"\n#include \"../include/accel.h\"\n"
                           "int inside(void) { return own_k() + accel_own(); }\n");
    char *proj = tt_path(tt_dir, "proj");
    char *inc = tt_fmt("-I%s/vendor", tt_dir);
    tt_run r = lt_emberlint(proj, "--no-cache", "--color", "never", "--select", "EH101,EH102", "src",
                            "gpu", "--", inc, NULL);
    if (tt_contains(r.out, "src/app.c"))
        print_error("%s", r.out);
    assert_false(tt_contains(r.out, "src/app.c"));
    assert_true(tt_contains(r.out, "src/inside.c:1:1: error: frontend code includes "
                                   "'../gpu/cuda/own.h', a header of backend 'cuda'"));
    assert_true(tt_contains(r.out, "src/inside.c:2:1: error: frontend code includes"));
    assert_true(tt_contains(r.out, "call to backend function 'own_k' of backend 'cuda' [EH102]"));
    tt_free(&r);
    free(inc);
    free(proj);
}

static void test_cxx_from_the_compile_database(void **state)
{
    (void)state;
    const char *cxx = "namespace n { template <typename T> T id(T x) { return x; } }\n"
                      "int f() { return n::id(1); }\n";
    tt_w("src/by_driver.c", cxx);      /* g++ compiles a .c file as C++ */
    tt_w("src/by_x.c", cxx);           /* -x c++ */
    tt_w("src/by_std.c", cxx);         /* -std=gnu++17 */
    tt_w("src/by_ext.cc", cxx);        /* cc picks C++ by the extension */
    tt_w("src/plain.c", "int g(void) { return 0; }\n");
    tt_w("src/util.hpp", "#pragma once\nnamespace n { struct s { int v = 0; }; }\n");
    tt_w("src/uses_util.cc", "#include \"util.hpp\"\nint h() { n::s x; return x.v; }\n");
    char *db = tt_fmt("[\n"
                      "{\"directory\": \"%s\", \"file\": \"src/by_driver.c\", \"command\": \"/usr/bin/g++ -c src/by_driver.c\"},\n"
                      "{\"directory\": \"%s\", \"file\": \"src/by_x.c\", \"command\": \"cc -x c++ -c src/by_x.c\"},\n"
                      "{\"directory\": \"%s\", \"file\": \"src/by_std.c\", \"command\": \"clang -std=gnu++17 -c src/by_std.c\"},\n"
                      "{\"directory\": \"%s\", \"file\": \"src/by_ext.cc\", \"command\": \"cc -c src/by_ext.cc\"},\n"
                      "{\"directory\": \"%s\", \"file\": \"src/uses_util.cc\", \"command\": \"c++ -c src/uses_util.cc\"},\n"
                      "{\"directory\": \"%s\", \"file\": \"src/plain.c\", \"command\": \"cc -std=c11 -c src/plain.c\"}\n"
                      "]\n", tt_dir, tt_dir, tt_dir, tt_dir, tt_dir, tt_dir);
    tt_w("build/compile_commands.json", db);
    free(db);
    /* every entry of the database, C++ ones as C++ */
    tt_run r = lt_emberlint(tt_dir, "--no-cache", "-p", "build", NULL);
    if (r.status != 0)
        print_error("%s%s", r.out, r.err);
    assert_int_equal(r.status, 0);
    tt_free(&r);
    /* a walk takes .cc/.hpp only when the configuration says so; the
     * header is then parsed (through its includer) as C++ */
    r = lt_emberlint(tt_dir, "--no-cache", "-v", "src/by_ext.cc", "src/plain.c", NULL);
    assert_int_equal(r.status, 0);
    tt_free(&r);
    r = lt_emberlint(tt_dir, "--no-cache", "-v", "src", NULL);
    assert_true(tt_contains(r.err, "emberlint: 4 files,")); /* the .c files */
    tt_free(&r);
    tt_w(".emberlint.json", "{\"languages\": [\"c\", \"c++\"]}\n");
    r = lt_emberlint(tt_dir, "--no-cache", "-v", "-p", "build", "src", NULL);
    assert_true(tt_contains(r.err, "emberlint: 7 files,"));
    assert_int_equal(r.status, 0);
    tt_free(&r);
}

static void test_what_the_database_builds(void **state)
{
    (void)state;
    tt_w("src/a.c", "#define T int\n#include \"tmpl.c\"\nint a(void) { return twice(0); }\n");
    tt_w("src/tmpl.c", "static T twice(T x) { return 2 * x; }\n"); /* linted through a.c: not counted */
    tt_w("src/unbuilt.c", "#include <cblas.h>\n");    /* a backend this build leaves out */
    char *db = tt_fmt("[\n"
                      "{\"directory\": \"%s\", \"file\": \"src/a.c\", \"command\": \"cc -c src/a.c\"},\n"
                      "{\"directory\": \"%s\", \"file\": \"src/generated.c\", \"command\": \"cc -c src/generated.c\"}\n"
                      "]\n", tt_dir, tt_dir);
    tt_w("build/compile_commands.json", db);
    free(db);
    /* a walk skips the source the database does not list, with one note */
    tt_run r = lt_emberlint(tt_dir, "--no-cache", "-p", "build", "src", NULL);
    assert_int_equal(r.status, 0);
    assert_true(tt_contains(r.err, "emberlint: 1 source file under the paths is not in "
                                   "compile_commands.json (not built in this configuration): not "
                                   "linted (a file named on the command line is)\n"));
    tt_free(&r);
    /* -v says which files, one a line after each note; the files the run
     * counts are those it linted (a.c, tmpl.c: liuliu/ccv's summary said 816
     * files, 225 linted) */
    tt_w("src/lonely.h", "int lonely(void);\n"); /* no file of the database includes it */
    tt_w("src/inc/also.h", "int also(void);\n");
    r = lt_emberlint(tt_dir, "--no-cache", "-v", "-p", "build", "src", NULL);
    assert_int_equal(r.status, 0);
    assert_true(tt_contains(r.err, "emberlint: 2 files, 1 translation units"));
    tt_free(&r);
    r = lt_emberlint(tt_dir, "--no-cache", "--format", "json", "-p", "build", "src", NULL);
    json_object *j = tt_json(r.out);
    assert_int_equal(json_object_get_int(tt_get(tt_get(j, "summary"), "files")), 2);
    json_object_put(j);
    tt_free(&r);
    r = lt_emberlint(tt_dir, "--no-cache", "-v", "-p", "build", "src", NULL);
    assert_true(tt_contains(r.err, "(a file named on the command line is):\n  src/unbuilt.c\n"
                                   "emberlint: 2 headers under the paths are included by none of "
                                   "the files compile_commands.json builds (not built in this "
                                   "configuration): not linted (a file named on the command line "
                                   "is):\n  src/inc/also.h\n  src/lonely.h\n"));
    tt_free(&r);
    /* named, it is linted */
    r = lt_emberlint(tt_dir, "--no-cache", "-p", "build", "src/unbuilt.c", NULL);
    assert_int_equal(r.status, 1);
    tt_free(&r);
    /* the database's own files: one that does not exist yet is a warning,
     * not an I/O error */
    r = lt_emberlint(tt_dir, "--no-cache", "-p", "build", NULL);
    assert_int_equal(r.status, 0);
    assert_true(tt_contains(r.err, "emberlint: warning: build/compile_commands.json lists 1 file "
                                   "that does not exist (src/generated.c), not linted: generated "
                                   "by the build? build first; moved or deleted? regenerate it\n"));
    tt_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        tt_scratch_test(test_neutral_without_libeh),
        tt_scratch_test(test_project_replacements),
        tt_scratch_test(test_libeh_keeps_its_suggestions),
        tt_scratch_test(test_vendor_header_of_the_project),
        tt_scratch_test(test_nested_inheritance),
        tt_scratch_test(test_long_lists_keep_order),
        tt_scratch_test(test_errors_at_their_position),
        tt_scratch_test(test_backend_names_and_patterns),
        tt_scratch_test(test_backend_files_matching_nothing),
        tt_scratch_test(test_backend_dirs_of_cuda_passed_over),
        tt_scratch_test(test_backend_dirs_of_cxx_passed_over),
        tt_scratch_test(test_config_elsewhere_anchored),
        tt_scratch_test(test_config_above_the_tree_anchored),
        tt_scratch_test(test_patterns_naming_skipped_headers),
        tt_scratch_test(test_config_through_symlink),
        tt_scratch_test(test_backend_pattern_names_the_backend),
        tt_scratch_test(test_anchored_patterns_stay_in_their_root),
        tt_scratch_test(test_cxx_from_the_compile_database),
        tt_scratch_test(test_what_the_database_builds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
