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
 *     translation units keeps a fix only if each made that fix). */
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        tt_scratch_test(test_used_through_the_headers_macros),
        tt_scratch_test(test_two_includes_not_both),
        tt_scratch_test(test_not_through_another_headers_if),
        tt_scratch_test(test_unused_in_a_header_is_unsafe),
        tt_scratch_test(test_header_fix_needs_every_unit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
