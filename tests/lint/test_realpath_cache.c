/* tests/lint/test_realpath_cache.c -- el_realpath_cached
 * (lint/base/realpath_cache.h) resolves names one component at a time,
 * remembering directories; it must answer as realpath(3) does: symbolic
 * links to directories and files (relative, chained, dangling, looping),
 * "." and ".." after a link and after a file, doubled and trailing
 * slashes, relative names (from the current directory) and absolute ones,
 * names asked twice; a name that does not resolve fails with realpath's
 * errno. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lint_test.h"
#include "path.h"
#include "realpath_cache.h"

static void same_as_realpath(const char *name)
{
    errno = 0;
    char *want = realpath(name, NULL);
    int want_err = errno;
    errno = 0;
    char *got = el_realpath_cached(name);
    int got_err = errno;
    if ((want == NULL) != (got == NULL) || (want && strcmp(want, got) != 0) ||
        (!want && want_err != got_err)) {
        print_error("%s: realpath %s (%s), cached %s (%s)\n", name, want ? want : "(none)",
                    strerror(want_err), got ? got : "(none)", strerror(got_err));
        fail();
    }
    free(want);
    free(got);
}

static void test_agrees_with_realpath(void **state)
{
    (void)state;
    /* a tree with links; the current directory is a link's target */
    tt_w("top/src/a.c", "int a;\n");
    tt_w("top/inc/eh/eh.h", "int h;\n");
    tt_w("other/deep/x.h", "int x;\n");
    tt_w("other/y.h", "int y;\n");
    const char *d = tt_dir;
    char *y = tt_path(d, "other/y.h");
    const char *links[][2] = {
        {"../other/deep", "top/inc/deep"}, /* to a directory */
        {"deep/x.h", "top/inc/x.h"},       /* through a link */
        {y, "top/y.h"},                    /* absolute */
        {"nowhere.h", "top/dangling.h"},
        {"loop2", "top/loop1"},
        {"loop1", "top/loop2"},
        {"inc", "top/incl"},
    };
    for (size_t i = 0; i < sizeof links / sizeof links[0]; i++) {
        char *at = tt_path(d, links[i][1]);
        assert_int_equal(symlink(links[i][0], at), 0);
        free(at);
    }
    free(y);
    char *top_dir = tt_path(d, "top");
    assert_int_equal(chdir(top_dir), 0);
    free(top_dir);
    el_path_init(); /* the current directory, as emberlint's main takes it */

    const char *names[] = {
        "src/a.c", "./src/a.c", "src/./a.c", "src//a.c", "src/../src/a.c", "inc/eh/eh.h",
        "incl/eh/eh.h", "incl/../src/a.c", "inc/deep/x.h", "inc/deep/../y.h", "inc/deep/..",
        "inc/deep/../deep/x.h", "inc/x.h", "y.h", "dangling.h", "loop1", "loop1/x",
        "missing.h", "missing/x.h", "src/a.c/x", "src/a.c/.", "src/a.c/..", "src/a.c/",
        "src/", "src/.", "src", ".", "..", "../other", "../other/deep/../y.h", "/", "//",
        "/.", "/..", "", "inc/eh/", "inc/eh//", "incl/", "inc/x.h/", "../top/incl/eh/eh.h",
    };
    /* relative, then absolute (the current directory written out), each twice */
    for (int round = 0; round < 2; round++) {
        for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
            same_as_realpath(names[i]);
            if (names[i][0] && names[i][0] != '/') {
                char *top = tt_path(d, "top"), *abs = tt_path(top, names[i]);
                same_as_realpath(abs);
                free(abs);
                free(top);
                /* through the link to this directory */
                char *up = tt_path(d, "top/incl/.."), *via = tt_path(up, names[i]);
                same_as_realpath(via);
                free(via);
                free(up);
            }
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        tt_scratch_test(test_agrees_with_realpath),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
