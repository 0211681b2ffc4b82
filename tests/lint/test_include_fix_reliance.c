/* tests/lint/test_include_fix_reliance.c -- EH101's fix removes a backend
 * include only when no file loses what it brings.  Found on liquid-dsp
 * (--diff offered "safe" removals that git applied and that broke the
 * build; --fix's re-parse refused some, not all):
 *   - a header's include that other files use through the header's
 *     macros (#define FFT_PLAN fftwf_plan) has no fix;
 *   - two includes of the same header, each removable only while the
 *     other stays, are not both removed: a file does not count on a
 *     backend include elsewhere (it may go too);
 *   - nor on one in an #if of another header (another build lacks it);
 *   - a header's include nothing in the translation unit uses is removed
 *     only by --unsafe-fixes: other translation units may use it;
 *   - and not when one of them does (a finding reached from several
 *     translation units keeps a fix only if each made that fix).
 * Found on torch7's lib/TH (--diff and even a plain --fix broke it):
 *   - a .c template the file includes further down that uses what the
 *     include brings keeps it;
 *   - an include that brings definitions (a template of functions other
 *     files call) has no fix: the file would compile, the link would fail;
 *   - nor has an include while the file also reads code that is not
 *     linted (what it uses is unknown: here, a macro it defaults);
 *   - but a header that includes the backend header itself does not rely
 *     on the file's include, which still goes; nor is a header's static
 *     helper code others link against;
 *   - and --diff prints only what --fix would write: a fix that breaks
 *     another build configuration is not in it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lint_test.h"

/* emberlint --diff [--unsafe-fixes] on src/ */
static tt_run diff(bool unsafe)
{
    const char *safe_argv[] = {"--no-cache", "--select", "EH101,EH102", "--diff", "src", "--",
                               "-DHAVE_FFTW3_H=1", NULL};
    const char *unsafe_argv[] = {"--no-cache", "--select", "EH101,EH102", "--diff", "--unsafe-fixes",
                                 "src", "--", "-DHAVE_FFTW3_H=1", NULL};
    return lt_emberlintv(tt_dir, unsafe ? unsafe_argv : safe_argv, NULL);
}

/* Neither --diff nor --diff --unsafe-fixes changes anything. */
static void assert_no_fix(void)
{
    for (int unsafe = 0; unsafe < 2; unsafe++) {
        tt_run r = diff(unsafe);
        if (r.status != 0 || r.out[0])
            print_error("--diff%s:\n%s%s", unsafe ? " --unsafe-fixes" : "", r.out, r.err);
        assert_int_equal(r.status, 0);
        assert_string_equal(r.out, "");
        tt_free(&r);
    }
}

static void test_used_through_the_headers_macros(void **state)
{
    (void)state;
    tt_w("src/internal.h", "#include <fftw3.h>\n"
                           "#define FFT_PLAN   fftwf_plan\n"
                           "#define FFT_MALLOC fftwf_malloc\n");
    tt_w("src/user.c", "#include \"internal.h\"\n"
                       "struct q { FFT_PLAN plan; float *buf; };\n"
                       "void init(struct q *q, int n) { q->buf = FFT_MALLOC(n * sizeof(float)); }\n");
    assert_no_fix();
}

static void test_two_includes_not_both(void **state)
{
    (void)state;
    tt_w("src/wrap.h", "#include <fftw3.h>\n");
    tt_w("src/app.c", "#include \"wrap.h\"\n#include <fftw3.h>\n"
                      "void cleanup(void) { fftwf_cleanup(); }\n");
    tt_run r = diff(true);
    /* app.c keeps its own include whatever happens to wrap.h's */
    assert_true(r.status == 0 || r.status == 1);
    assert_false(tt_contains(r.out, "--- a/src/app.c"));
    tt_free(&r);
    assert_no_fix();
}

static void test_not_through_another_headers_if(void **state)
{
    (void)state;
    tt_w("src/wrap.h", "#if HAVE_FFTW3_H && !defined FFTOVERRIDE\n#include <fftw3.h>\n#endif\n");
    tt_w("src/app.c", "#include \"wrap.h\"\n#ifdef HAVE_FFTW3_H\n#include <fftw3.h>\n#endif\n"
                      "void cleanup(void) { fftwf_cleanup(); }\n");
    tt_run r = diff(true);
    assert_true(r.status == 0 || r.status == 1);
    assert_false(tt_contains(r.out, "--- a/src/app.c"));
    tt_free(&r);
}

static void test_header_fix_needs_every_unit(void **state)
{
    (void)state;
    tt_w("src/internal.h", "#include <fftw3.h>\n#define FFT_PLAN fftwf_plan\n");
    tt_w("src/a_other.c", "#include \"internal.h\"\nint other(void) { return 1; }\n"); /* first */
    tt_w("src/user.c", "#include \"internal.h\"\nstruct q { FFT_PLAN plan; };\n");
    assert_no_fix();
}

static void test_unused_in_a_header_is_unsafe(void **state)
{
    (void)state;
    tt_w("src/wrap.h", "#include <fftw3.h>\nint wrapped(void);\n");
    tt_w("src/app.c", "#include \"wrap.h\"\nint app(void) { return wrapped(); }\n");
    tt_run safe = diff(false), unsafe = diff(true);
    assert_int_equal(safe.status, 0);
    assert_string_equal(safe.out, "");
    assert_int_equal(unsafe.status, 1);
    assert_true(tt_contains(unsafe.out, "--- a/src/wrap.h"));
    assert_true(tt_contains(unsafe.out, "-#include <fftw3.h>\n"));
    tt_free(&safe);
    tt_free(&unsafe);
    /* in the main file, the same include is safe to remove */
    tt_w("src/main.c", "#include <fftw3.h>\nint main(void) { return 0; }\n");
    safe = diff(false);
    assert_true(tt_contains(safe.out, "--- a/src/main.c"));
    assert_false(tt_contains(safe.out, "--- a/src/wrap.h"));
    tt_free(&safe);
}

static void test_template_further_down_uses_it(void **state)
{
    (void)state;
    tt_w("backends/simd/simd.h", "typedef struct { void (*fn)(float *, long); } simd_desc;\n");
    tt_w("src/dispatch.inc.c", "static void fill(float *x, long n) { while (n--) x[n] = 0; }\n"
                               "static const simd_desc impls[] = {{fill}};\n"
                               "void vec_fill(float *x, long n) { impls[0].fn(x, n); }\n");
    tt_w("src/vec.c", "#include \"../backends/simd/simd.h\"\n\n#include \"dispatch.inc.c\"\n");
    assert_no_fix();
}

static void test_include_that_defines_functions(void **state)
{
    (void)state;
    tt_w("src/gemm.h", "void app_gemm(const float *a, float *c, int n);\n");
    tt_w("backends/blas/gemm_impl.c",
         "void app_gemm(const float *a, float *c, int n) { while (n--) c[n] = 2 * a[n]; }\n");
    tt_w("src/gemm.c", "#include \"gemm.h\"\n#include \"../backends/blas/gemm_impl.c\"\n");
    assert_no_fix();
}

static void test_unlinted_code_read_later(void **state)
{
    (void)state;
    tt_w("backends/simd/simd.h", "#define SIMD_WIDTH 8\n");
    /* compiles without simd.h, and silently computes something else */
    tt_w("backends/simd/kernels.c", "#ifndef SIMD_WIDTH\n#define SIMD_WIDTH 1\n#endif\n"
                                    "static int width(void) { return SIMD_WIDTH; }\n"
                                    "int simd_width(void) { return width(); }\n");
    tt_w("src/vec.c", "#include \"../backends/simd/simd.h\"\n#include \"../backends/simd/kernels.c\"\n");
    assert_no_fix();
}

/* A header's static helper (not inline) is not code others link
 * against: unused, it goes with the include. */
static void test_static_helper_goes_with_include(void **state)
{
    (void)state;
    tt_w("backends/blas/util.h", "static int clampi(int x) { return x < 0 ? 0 : x; }\n");
    tt_w("src/app.c", "#include \"../backends/blas/util.h\"\nint app(void) { return 0; }\n");
    tt_run r = diff(false);
    assert_int_equal(r.status, 1);
    assert_true(tt_contains(r.out, "-#include \"../backends/blas/util.h\"\n"));
    tt_free(&r);
}

static void test_header_with_its_own_include(void **state)
{
    (void)state;
    tt_w("src/wrap.h", "#include <fftw3.h>\nfftwf_plan wrap_plan(int n);\n");
    tt_w("src/app.c", "#include \"wrap.h\"\n#include <fftw3.h>\nint app(void) { return 0; }\n");
    tt_run r = diff(false);
    assert_int_equal(r.status, 1);
    assert_true(tt_contains(r.out, "--- a/src/app.c"));
    assert_true(tt_contains(r.out, "-#include <fftw3.h>\n"));
    assert_false(tt_contains(r.out, "--- a/src/wrap.h"));
    tt_free(&r);
}

static void test_diff_is_what_fix_writes(void **state)
{
    (void)state;
    /* outside the linted paths, so its use is not seen; only the !FAST
     * build reads it */
    tt_w("inc/wrap.h", "#ifndef FAST\ntypedef fftwf_plan wrapped_plan;\n#endif\n");
    tt_w("src/app.c", "#include <fftw3.h>\n#include \"../inc/wrap.h\"\nint app(void) { return 0; }\n");
    tt_w(".emberlint.json", "{\"define_sets\": [\"FAST\", \"!FAST\"]}\n");
    tt_run r = diff(false);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, "");
    assert_true(tt_contains(r.err, "src/app.c would not compile (define set \"!FAST\")"));
    assert_true(tt_contains(r.err, "unknown type name 'fftwf_plan', at inc/wrap.h:2:9 of the "
                                   "changed text"));
    tt_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        tt_scratch_test(test_used_through_the_headers_macros),
        tt_scratch_test(test_two_includes_not_both),
        tt_scratch_test(test_not_through_another_headers_if),
        tt_scratch_test(test_unused_in_a_header_is_unsafe),
        tt_scratch_test(test_header_fix_needs_every_unit),
        tt_scratch_test(test_template_further_down_uses_it),
        tt_scratch_test(test_include_that_defines_functions),
        tt_scratch_test(test_unlinted_code_read_later),
        tt_scratch_test(test_header_with_its_own_include),
        tt_scratch_test(test_static_helper_goes_with_include),
        tt_scratch_test(test_diff_is_what_fix_writes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
