/* tests/lint/test_file_offsets.c -- which linted file a location is in, by
 * its offset (lint/engine/file_offsets.h), checked against libclang's own
 * answer (clang_getExpansionLocation) for every cursor of real TUs: one
 * with headers and macros, one that enters a linted header twice, one
 * read through a PCH, ranges that do not check out, and ranges learnt
 * from libclang's answers on the way. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "clang_api.h"

#include "lint_test.h"
#include "file_offsets.h"

/* The files of a TU the test calls linted: those under the scratch dir. */
typedef struct tu_files {
    CXFile v[16];
    size_t n;
    bool again[16];
} tu_files;

static void list_file(CXFile f, CXSourceLocation *stack, unsigned depth, CXClientData d)
{
    (void)stack;
    (void)depth;
    tu_files *t = d;
    CXString name = clang_getFileName(f);
    bool mine = strncmp(clang_getCString(name), tt_dir, strlen(tt_dir)) == 0;
    clang_disposeString(name);
    if (!mine)
        return;
    for (size_t i = 0; i < t->n; i++) {
        if (clang_File_isEqual(t->v[i], f)) {
            t->again[i] = true;
            return;
        }
    }
    assert_true(t->n < 16);
    t->v[t->n++] = f;
}

typedef struct tally {
    const tu_files *files;
    el_file_offsets *o;
    size_t linted, external, unknown, unknown_plain;
    size_t unknown_in_file;   /* unknown, and libclang puts it in a file */
    /* learn the ranges of files that are not linted, as the engine's walk
     * does, from sizes off by external_skew (NULL tu: not) */
    CXTranslationUnit tu;
    long external_skew;
} tally;

static long linted_index(const tu_files *t, CXFile f)
{
    for (size_t i = 0; f && i < t->n; i++)
        if (clang_File_isEqual(t->v[i], f))
            return (long)i;
    return -1;
}

/* Every cursor: the set's answer agrees with libclang's. */
static enum CXChildVisitResult check_cursor(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    tally *t = d;
    CXSourceLocation loc = clang_getCursorLocation(c);
    CXFile truth = NULL;
    clang_getExpansionLocation(loc, &truth, NULL, NULL, NULL);
    long want = linted_index(t->files, truth);
    size_t slot = 99;
    unsigned at = 0;
    switch (el_file_offsets_find(t->o, loc, &slot, &at)) {
    case EL_OFFSET_LINTED: {
        unsigned truth_at = 0;
        clang_getExpansionLocation(loc, &truth, NULL, NULL, &truth_at);
        assert_int_equal(slot, want);
        assert_int_equal(at, truth_at);
        t->linted++;
        break;
    }
    case EL_OFFSET_EXTERNAL:
        assert_int_equal(want, -1);
        t->external++;
        break;
    case EL_OFFSET_UNKNOWN:
        if (want >= 0) { /* as the engine's walk does */
            unsigned offset = 0;
            clang_getExpansionLocation(loc, &truth, NULL, NULL, &offset);
            el_file_offsets_learn(t->o, loc, (size_t)want, offset);
        } else if (truth && t->tu) {
            unsigned offset = 0;
            size_t size = 0;
            clang_getExpansionLocation(loc, &truth, NULL, NULL, &offset);
            assert_non_null(clang_getFileContents(t->tu, truth, &size));
            el_file_offsets_learn_external(t->o, loc, truth, offset,
                                           (size_t)((long)size + t->external_skew));
        }
        t->unknown++;
        t->unknown_plain += !(loc.int_data & 0x80000000u) && !clang_equalLocations(loc, clang_getNullLocation());
        t->unknown_in_file += !(loc.int_data & 0x80000000u) && truth;
        break;
    }
    return CXChildVisit_Recurse;
}

typedef struct parsed {
    CXIndex idx;
    CXTranslationUnit tu;
    tu_files files;
    el_file_offsets o;
} parsed;

/* Parse dir/main.c (extra arguments: args) and expect its linted files
 * as the engine does (size_skew added to each size); fill: their ranges
 * at once, as at the end of the preprocessing cursors. */
static void parse_index(parsed *p, const char *const *args, int n_args, int exclude_pch,
                        size_t size_skew, bool fill)
{
    memset(p, 0, sizeof *p);
    p->idx = clang_createIndex(exclude_pch, 0);
    char *main_c = tt_path(tt_dir, "main.c");
    enum CXErrorCode e = clang_parseTranslationUnit2(
        p->idx, main_c, args, n_args, NULL, 0, CXTranslationUnit_DetailedPreprocessingRecord, &p->tu);
    free(main_c);
    assert_int_equal(e, CXError_Success);
    clang_getInclusions(p->tu, list_file, &p->files);
    el_file_offsets_init(&p->o);
    for (size_t i = 0; i < p->files.n; i++) {
        size_t size = 0;
        assert_non_null(clang_getFileContents(p->tu, p->files.v[i], &size));
        el_file_offsets_expect(&p->o, p->files.v[i], i, size + size_skew, p->files.again[i]);
    }
    if (fill)
        el_file_offsets_fill(&p->o, p->tu);
}

static tally check_all(parsed *p)
{
    tally t = {&p->files, &p->o, 0, 0, 0, 0, 0, NULL, 0};
    clang_visitChildren(clang_getTranslationUnitCursor(p->tu), check_cursor, &t);
    return t;
}

/* check_all, learning the ranges of the files that are not linted from
 * sizes off by skew. */
static tally check_all_learning(parsed *p, long skew)
{
    tally t = {&p->files, &p->o, 0, 0, 0, 0, 0, p->tu, skew};
    clang_visitChildren(clang_getTranslationUnitCursor(p->tu), check_cursor, &t);
    return t;
}

static void dispose(parsed *p)
{
    el_file_offsets_free(&p->o);
    clang_disposeTranslationUnit(p->tu);
    clang_disposeIndex(p->idx);
}

static const char *const args_c[] = {"-std=c11", "-w"};

/* Headers, macros from a linted header and from a system one, a file
 * location in each: every file location is answered, and right. */
static void test_headers_and_macros(void **state)
{
    (void)state;
    tt_w("a.h", "#ifndef A_H\n#define A_H\n#define TWICE(x) ((x) + (x))\n"
                "static inline int a_f(int v) { return TWICE(v); }\n#endif\n");
    tt_w("main.c", "#include <stdio.h>\n#include \"a.h\"\n#include <stdint.h>\n"
                   "int g(int k) { int s = TWICE(k) + a_f(k); printf(\"%d\", s); return s + INT8_MAX; }\n"
                   "#include \"a.h\"\n");
    parsed p;
    parse_index(&p, args_c, 2, 0, 0, true);
    assert_int_equal(p.files.n, 2);
    assert_int_equal(p.o.n_known, 2);
    tally t = check_all(&p);
    assert_true(t.linted > 10);
    assert_true(t.external > 100); /* <stdio.h>'s declarations */
    assert_int_equal(t.unknown_plain, 0);
    dispose(&p);
}

/* A linted header entered twice (no guard): its second range is not
 * known, so nothing outside the known ranges may be called external. */
static void test_entered_twice(void **state)
{
    (void)state;
    tt_w("t.h", "int T(NAME)(int v) { return v + 1; }\n");
    tt_w("main.c", "#include <stdio.h>\n#define T(n) n\n#define NAME one\n#include \"t.h\"\n"
                   "#undef NAME\n#define NAME two\n#include \"t.h\"\n"
                   "int main(void) { return one(1) + two(2); }\n");
    parsed p;
    parse_index(&p, args_c, 2, 0, 0, true);
    assert_true(p.files.again[1]);
    assert_true(p.o.again);
    tally t = check_all(&p); /* (the asserts inside: the second t.h is never external) */
    assert_true(t.linted > 0);
    assert_int_equal(t.external, 0);
    assert_true(t.unknown_plain > 0);
    dispose(&p);
}

/* A TU read through a PCH of its system headers, walked with the PCH's
 * declarations left out as the engine does. */
static void test_through_pch(void **state)
{
    (void)state;
    tt_w("prefix.h", "#include <stdio.h>\n#include <stdlib.h>\n");
    tt_w("main.c", "#include <stdio.h>\n#include <stdlib.h>\n#include \"a.h\"\n"
                   "int main(void) { char *m = malloc(A); printf(\"%p\", (void *)m); free(m); return 0; }\n");
    tt_w("a.h", "#pragma once\n#define A 16\nint a_g(void);\n");
    CXIndex idx = clang_createIndex(0, 0);
    char *prefix = tt_path(tt_dir, "prefix.h"), *pch = tt_path(tt_dir, "prefix.pch");
    const char *pargs[] = {"-std=c11", "-w", "-x", "c-header"};
    CXTranslationUnit ptu = NULL;
    assert_int_equal(clang_parseTranslationUnit2(idx, prefix, pargs, 4, NULL, 0,
                                                 CXTranslationUnit_ForSerialization, &ptu),
                     CXError_Success);
    assert_int_equal(clang_saveTranslationUnit(ptu, pch, clang_defaultSaveOptions(ptu)), CXSaveError_None);
    clang_disposeTranslationUnit(ptu);
    clang_disposeIndex(idx);
    const char *args[] = {"-std=c11", "-w", "-include-pch", pch};
    parsed p;
    parse_index(&p, args, 4, 1, 0, true);
    assert_int_equal(p.files.n, 2);
    tally t = check_all(&p);
    assert_true(t.linted > 5);
    assert_int_equal(t.unknown_plain, 0);
    dispose(&p);
    free(prefix);
    free(pch);
}

/* A size that is not the file's, larger or smaller (a file changed
 * since the run read it): the range does not check out, and the set
 * answers nothing at all rather than something wrong. */
static void test_range_that_does_not_check_out(void **state)
{
    (void)state;
    tt_w("a.h", "int a_f(int v);\n");
    tt_w("main.c", "#include <stdio.h>\n#include \"a.h\"\nint g(int k) { return a_f(k); }\n");
    const size_t skews[] = {3, (size_t)-3};
    for (size_t i = 0; i < 2; i++) {
        parsed p;
        parse_index(&p, args_c, 2, 0, skews[i], true);
        assert_int_equal(p.o.n, 0);
        tally t = check_all(&p);
        assert_int_equal(t.linted + t.external, 0);
        dispose(&p);
    }
}

/* Nothing filled: the ranges come from the answers libclang gives the
 * walk; until every linted file's is known nothing is called external,
 * and then the rest of the walk is answered. */
static void test_learnt_on_the_way(void **state)
{
    (void)state;
    tt_w("a.h", "#pragma once\nint a_f(int v);\nint a_g(int v);\n");
    tt_w("b.h", "#pragma once\nint b_f(int v);\n");
    tt_w("main.c", "#include \"a.h\"\n#include \"b.h\"\n#include <stdio.h>\n"
                   "int g(int k) { printf(\"%d\", k); return a_f(k) + b_f(k); }\n");
    parsed p;
    parse_index(&p, args_c, 2, 0, 0, false);
    assert_int_equal(p.files.n, 3);
    tally t = check_all(&p);
    assert_int_equal(p.o.n_known, 3);
    assert_true(t.linted > 5);
    assert_true(t.external > 100); /* <stdio.h>'s declarations, after b.h's */
    dispose(&p);
}

/* Files that are not linted learn their own ranges: with a linted
 * header entered twice (so "external" is never answered from the linted
 * ranges alone), <stdio.h>'s cursors are answered after a lookup a file;
 * a size other than the file's never checks out (check_cursor compares
 * every answer with libclang's). */
static void test_external_ranges(void **state)
{
    (void)state;
    tt_w("t.h", "int T(NAME)(int v) { return v + 1; }\n");
    tt_w("main.c", "#include <stdio.h>\n#define T(n) n\n#define NAME one\n#include \"t.h\"\n"
                   "#undef NAME\n#define NAME two\n#include \"t.h\"\n"
                   "int main(void) { return one(1) + two(2); }\n");
    const long skews[] = {0, 3, -3};
    for (size_t i = 0; i < 3; i++) {
        parsed p;
        parse_index(&p, args_c, 2, 0, 0, true);
        assert_true(p.o.again);
        tally t = check_all_learning(&p, skews[i]);
        if (skews[i] == 0) {
            assert_true(t.external > 100);
            assert_true(t.unknown_in_file < 40); /* about one a file, not one a cursor */
        } else {
            assert_int_equal(t.external, 0);
        }
        dispose(&p);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        tt_scratch_test(test_headers_and_macros),
        tt_scratch_test(test_entered_twice),
        tt_scratch_test(test_through_pch),
        tt_scratch_test(test_range_that_does_not_check_out),
        tt_scratch_test(test_learnt_on_the_way),
        tt_scratch_test(test_external_ranges),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
