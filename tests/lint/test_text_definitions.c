/* tests/lint/test_text_definitions.c -- el_text_each_definition
 * (lint/change/text_definitions.h): the functions and tags a file's text defines,
 * read without a parse (backends a run does not build). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text_definitions.h"
#include "lint_test.h"

static void collect(const char *name, size_t len, el_text_def_kind kind, void *ud)
{
    char **out = ud;
    const char *mark = kind == EL_TEXT_TAG ? "tag:" : kind == EL_TEXT_STATIC_FUNCTION ? "static:" : "";
    char *next = tt_fmt("%s%s%s%.*s", *out, **out ? " " : "", mark, (int)len, name);
    free(*out);
    *out = next;
}

static char *definitions(const char *text)
{
    char *out = tt_fmt("%s", "");
    el_text_each_definition(text, strlen(text), collect, &out);
    return out;
}

static void check(const char *text, const char *want)
{
    char *got = definitions(text);
    if (strcmp(got, want) != 0)
        print_error("text:\n%s\n", text);
    assert_string_equal(got, want);
    free(got);
}

static void test_functions(void **state)
{
    (void)state;
    check("void f(int x) { g(x); }\nint h(void);\n", "f");
    check("static inline int s(void)\n{\n    return 1;\n}\n", "static:s");
    check("float dot(const float *x) __attribute__((used, hot))\n{ return x[0]; }\n", "dot");
    check("extern \"C\" {\nvoid a(void) {}\n}\nstatic int b(void) {}\nint c(void) {}\n",
          "a static:b c");
    /* a K&R definition is not read; statements are not definitions */
    check("int kr(a) int a; { return a; }\nvoid m(void) { if (x) { } while (y) { } }\n", "m");
    /* C++ members (A::f) are not the C interface */
    check("int A::f(int x) { return x; }\n", "");
    /* comments, strings and directives are not code */
    check("/* void no(void) { } */\n// void no2(void) { }\nconst char *s = \"x(y) {\";\n"
          "#define GEN(n) void n(void) { }\nvoid yes(void) { }\n",
          "yes");
}

/* What is not a file-scope definition of the C interface (the review's
 * cases: each was read as one). */
static void test_not_interface(void **state)
{
    (void)state;
    /* static through an earlier prototype (C11 6.2.2p5) */
    check("static void helper(void);\nvoid entry(void) { helper(); }\nvoid helper(void) { }\n",
          "entry static:helper");
    /* #if 0 blocks; their #else is read */
    check("#if 0\nvoid off(void) { }\n#if X\nvoid off2(void) { }\n#endif\n#else\nvoid on(void) { }\n#endif\n",
          "on");
    /* C++: members, namespaces, a constructor's initializer list */
    check("class Plan {\n  int n_; void (*init_fn)(void);\n  Plan() : n_(0), init_fn(0) { }\n"
          "  void member_fn(void) { }\n};\nnamespace gpu { void ns_fn(void) { } }\n"
          "Plan::Plan(int k) : init_fn(0) { }\n",
          "");
    /* CUDA device code */
    check("__global__ void kernel_fn(float *x) { }\n__device__ float dev_fn(float x) { return x; }\n"
          "__host__ __device__ float both_fn(float x) { return x; }\n",
          "both_fn");
    /* a struct inside a function or another struct is not a file-scope tag */
    check("void f(void) { struct params { int n; } p; (void)p; }\n"
          "struct outer { struct inner { int a; } i; };\n",
          "f tag:outer");
    /* an unclosed '(' does not swallow the rest of the file */
    check("int broken = g(1, 2;\nvoid after(void) { }\n", "after");
}

static void test_tags(void **state)
{
    (void)state;
    check("struct vec { float *d; };\nstruct fwd;\ntypedef struct vec vec_t;\n", "tag:vec");
    check("typedef struct impl_ { int n; } impl;\nunion u { int i; float f; };\nenum e { A, B };\n",
          "tag:impl_ tag:u tag:e");
    /* an anonymous one has no tag; a variable of a struct type defines none */
    check("struct { int n; } anon;\nstruct vec v = {0};\n", "");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_functions),
        cmocka_unit_test(test_not_interface),
        cmocka_unit_test(test_tags),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
