/* tests/lint/test_skipped_include.c -- what a header's text declares for
 * the code its includers' preprocessor skips (lint/change/skipped_include.h):
 * names in every arm and in the files its #includes name, never in
 * parameter lists, struct/union/function bodies, nor in the use's own
 * file. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "skipped_include.h"

static char dir[] = "/tmp/el-skipinc-XXXXXX";

static char *path_of(const char *rel)
{
    size_t n = strlen(dir) + strlen(rel) + 2;
    char *p = malloc(n);
    snprintf(p, n, "%s/%s", dir, rel);
    return p;
}

static char *put(const char *rel, const char *text)
{
    char *p = path_of(rel);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return p;
}

static void test_declares(void **state)
{
    (void)state;
    assert_non_null(mkdtemp(dir));
    char *sub = path_of("include");
    assert_int_equal(mkdir(sub, 0700), 0);
    char *types = put("include/types.h",
                      "typedef struct layer { int c; float *out; } layer;\n"
                      "#ifdef GPU\nfloat *dev_make_array(float *x, int n);\n#endif\n");
    char *gpu = put("gpu.h", "#include \"types.h\"\n#include <stdio.h>\n#ifdef GPU\n"
                             "void gpu_axpy(int len, float alpha);\n"
                             "static inline int gpu_two(void) { int local = 2; return local; }\n"
                             "#endif\n");
    char *user = put("use.c", "#include \"gpu.h\"\nint mine;\n");
    const char *files[] = {types, gpu, user};
    /* a -I directory's file, found among the tree's files (the lookup
     * itself is not yet shown to matter here: see the commit) */
    assert_true(el_header_text_declares(gpu, "dev_make_array", files, 3, NULL));
    /* in an arm the header skips, and its types */
    assert_true(el_header_text_declares(gpu, "gpu_axpy", files, 3, NULL));
    assert_true(el_header_text_declares(gpu, "layer", files, 3, NULL));
    /* parameter names, members, a function's locals: no declarations */
    assert_false(el_header_text_declares(gpu, "len", files, 3, NULL));
    assert_false(el_header_text_declares(gpu, "c", files, 3, NULL));
    assert_false(el_header_text_declares(gpu, "local", files, 3, NULL));
    assert_false(el_header_text_declares(gpu, "stdio", files, 3, NULL));
    /* the use's own file declares nothing for it */
    assert_false(el_header_text_declares(types, "layer", files, 3, types));
    unlink(types);
    unlink(gpu);
    unlink(user);
    rmdir(sub);
    rmdir(dir);
    free(types);
    free(gpu);
    free(user);
    free(sub);
}

/* A header written in C23 or C++: a digit separator's quote and a raw
 * string's quotes and lines start no literal, so the names after them
 * on the line are read (an older reading took 1'000's quote for a
 * character literal running to the end of the line). */
static void test_declares_after_modern_lexemes(void **state)
{
    (void)state;
    strcpy(dir + strlen(dir) - 6, "XXXXXX");
    assert_non_null(mkdtemp(dir));
    char *h = put("dev.h", "enum { BIG = 1'000 }; float *dev_big_array(int n);\n"
                           "static const char *msg = R\"(it's\n\"quoted\")\"; void gpu_fill(float *x);\n"
                           "static const char tick = '\\''; void gpu_tick(void);\n");
    const char *files[] = {h};
    assert_true(el_header_text_declares(h, "dev_big_array", files, 1, NULL));
    assert_true(el_header_text_declares(h, "gpu_fill", files, 1, NULL));
    assert_true(el_header_text_declares(h, "gpu_tick", files, 1, NULL));
    /* what the literals hold is no declaration */
    assert_false(el_header_text_declares(h, "quoted", files, 1, NULL));
    assert_false(el_header_text_declares(h, "it", files, 1, NULL));
    unlink(h);
    rmdir(dir);
    free(h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_declares),
        cmocka_unit_test(test_declares_after_modern_lexemes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
