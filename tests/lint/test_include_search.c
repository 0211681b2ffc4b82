/* tests/lint/test_include_search.c -- the include search's memo of how
 * directives are written (lint/engine/include_search.h): TUs that share
 * it get the very places a search without it finds empty, a header's
 * directives keep their own delimiters (the memo keys on the offset), and
 * a header rewritten during the run is read again (the key holds its
 * modification time).  Whether something is at a place the search looked
 * (el_filehash_exists) is read from directory listings: the answers must
 * be stat's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <fcntl.h>
#include <unistd.h>
#include "clang_api.h"

#include "lint_test.h"
#include "finding.h"
#include "filehash.h"
#include "include_search.h"
#include "path.h"

static void set_mtime(const char *rel, time_t t)
{
    char *p = tt_path(tt_dir, rel);
    struct timespec ts[2] = {{t, 0}, {t, 0}};
    assert_int_equal(utimensat(AT_FDCWD, p, ts, 0), 0);
    free(p);
}

typedef struct cursors {
    CXCursor v[64];
    size_t n;
} cursors;

static enum CXChildVisitResult collect(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    cursors *cs = d;
    if (clang_getCursorKind(c) == CXCursor_InclusionDirective && cs->n < 64)
        cs->v[cs->n++] = c;
    return CXChildVisit_Continue;
}

/* The empty places of rel's search (with memo, or NULL), one string,
 * sorted by the search's order. */
static char *absent_of(const char *rel, el_include_memo *memo)
{
    char *src = tt_path(tt_dir, rel), *other = tt_path(tt_dir, "other");
    char *inc_arg = tt_fmt("-I%s", other);
    const char *cargs[] = {"-std=c11", "-w", inc_arg};
    CXIndex idx = clang_createIndex(0, 0);
    CXTranslationUnit tu = NULL;
    assert_int_equal(clang_parseTranslationUnit2(idx, src, cargs, 3, NULL, 0,
                                                 CXTranslationUnit_DetailedPreprocessingRecord, &tu),
                     CXError_Success);
    cursors cs = {.n = 0};
    clang_visitChildren(clang_getTranslationUnitCursor(tu), collect, &cs);
    assert_true(cs.n > 0);
    char *args[] = {"-std=c11", inc_arg};
    el_filehash *fs = el_filehash_new();
    el_tu_result res;
    memset(&res, 0, sizeof res);
    assert_true(el_include_search_absent(tu, cs.v, cs.n, args, 2, fs, memo, &res));
    size_t len = 1;
    for (size_t i = 0; i < res.n_absent; i++)
        len += strlen(res.absent[i]) + 1;
    char *all = calloc(len, 1);
    for (size_t i = 0; i < res.n_absent; i++) {
        strcat(all, res.absent[i]);
        strcat(all, "\n");
    }
    el_result_free(&res);
    el_filehash_free(fs);
    clang_disposeTranslationUnit(tu);
    clang_disposeIndex(idx);
    free(inc_arg);
    free(other);
    free(src);
    return all;
}

/* What a.c and b.c find empty with one memo is what each finds alone. */
static void expect_same(el_include_memo *memo)
{
    const char *files[] = {"a.c", "b.c", "a.c"};
    for (size_t i = 0; i < 3; i++) {
        char *alone = absent_of(files[i], NULL), *shared = absent_of(files[i], memo);
        assert_string_equal(shared, alone);
        free(alone);
        free(shared);
    }
}

/* "z.h" from inc/x.h looks in inc/ first (empty), <z.h> does not: a
 * delimiter taken from another directive of x.h would change the list. */
static void write_tree(const char *x_h)
{
    tt_w("inc/x.h", x_h);
    tt_w("other/z.h", "#pragma once\nint z;\n");
    tt_w("other/w.h", "#pragma once\nint w;\n");
    tt_w("a.c", "#include \"inc/x.h\"\n");
    tt_w("b.c", "#include <z.h>\n#include \"inc/x.h\"\n");
}

static void test_memo_gives_the_same_places(void **state)
{
    (void)state;
    time_t old = time(NULL) - 3600;
    write_tree("#pragma once\n#include \"z.h\"\n#include <w.h>\n");
    set_mtime("inc/x.h", old);
    el_include_memo *memo = el_include_memo_new(time(NULL));
    char *alone = absent_of("a.c", NULL);
    assert_non_null(strstr(alone, "/inc/z.h\n")); /* the quoted search looked there */
    assert_null(strstr(alone, "/inc/w.h\n"));     /* the angled one did not */
    free(alone);
    expect_same(memo);
    /* the header rewritten with the delimiters swapped, and an older time */
    write_tree("#pragma once\n#include <z.h>\n#include \"w.h\"\n");
    set_mtime("inc/x.h", old - 60);
    expect_same(memo);
    el_include_memo_free(memo);
}

/* What stat says el_filehash_exists should: something not a directory. */
static bool stat_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && !S_ISDIR(st.st_mode);
}

static void test_exists_agrees_with_stat(void **state)
{
    (void)state;
    tt_w("d/f.h", "int f;\n");
    tt_w("d/sub/g.h", "int g;\n");
    tt_w("e/Upper.h", "int u;\n");
    char *d = tt_path(tt_dir, "d");
    const char *links[][2] = {{"f.h", "link.h"}, {"sub", "linkdir"}, {"nowhere.h", "dangling.h"}};
    for (size_t i = 0; i < 3; i++) {
        char *at = tt_path(d, links[i][1]);
        assert_int_equal(symlink(links[i][0], at), 0);
        free(at);
    }
    char *fifo = tt_path(d, "fifo.h");
    assert_int_equal(mkfifo(fifo, 0600), 0);
    free(fifo);
    const char *rels[] = {"d/f.h", "d/sub", "d/sub/g.h", "d/missing.h", "d/link.h", "d/linkdir",
                          "d/linkdir/g.h", "d/dangling.h", "d/fifo.h", "d/F.h", "e/upper.h",
                          "e/Upper.h", "nodir/x.h", "d/f.h/x.h", "d/sub/../f.h", "d/./f.h", "d",
                          "d/sub/missing/x.h"};
    el_filehash *fs = el_filehash_new();
    for (int round = 0; round < 2; round++) { /* the second from what the first learned */
        for (size_t i = 0; i < sizeof rels / sizeof rels[0]; i++) {
            char *p = tt_path(tt_dir, rels[i]);
            bool got = el_filehash_exists(fs, p), want = stat_exists(p);
            if (got != want) {
                print_error("%s: exists %d, stat %d\n", rels[i], got, want);
                fail();
            }
            free(p);
        }
    }
    el_filehash_free(fs);
    /* a file that appears is seen by the next run (a new el_filehash), and
     * one in a directory listed before */
    fs = el_filehash_new();
    char *before = tt_path(d, "new.h");
    assert_false(el_filehash_exists(fs, before));
    el_filehash_free(fs);
    tt_w("d/new.h", "int n;\n");
    fs = el_filehash_new();
    assert_true(el_filehash_exists(fs, before));
    el_filehash_free(fs);
    free(before);
    free(d);
}

int main(void)
{
    el_path_init();
    const struct CMUnitTest tests[] = {
        tt_scratch_test(test_memo_gives_the_same_places),
        tt_scratch_test(test_exists_agrees_with_stat),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
