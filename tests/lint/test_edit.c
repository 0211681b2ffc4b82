/* tests/lint/test_edit.c -- edit lists (lint/base/edit.h): order and duplicate
 * removal, conflict detection (overlaps versus insertions touching a
 * replaced range), application at every position, refusal of edits
 * outside the content. */
#include <stdlib.h>
#include <string.h>

#include "lint_test.h"
#include "edit.h"

static void test_sort_unique(void **state)
{
    (void)state;
    el_edits e = {0};
    el_edits_add(&e, "/b.c", 5, 6, "x", 0);
    el_edits_add(&e, "/a.c", 9, 9, "y", 1);
    el_edits_add(&e, "/a.c", 2, 4, "z", 2);
    el_edits_add(&e, "/b.c", 5, 6, "x", 3);    /* the same edit from another fix */
    el_edits_add(&e, "/a.c", 2, 3, "w", 4);
    el_edits_add(&e, "/a.c", 2, 4, "z", 5);
    el_edits_sort_unique(&e);
    assert_int_equal(e.n, 4);
    assert_string_equal(e.v[0].path, "/a.c");
    assert_int_equal(e.v[0].begin, 2);
    assert_int_equal(e.v[0].end, 3);
    assert_int_equal(e.v[1].begin, 2);
    assert_int_equal(e.v[1].end, 4);
    assert_int_equal(e.v[1].group, 2);         /* the first of the duplicates stays */
    assert_int_equal(e.v[2].begin, 9);
    assert_string_equal(e.v[3].path, "/b.c");
    assert_int_equal(e.v[3].group, 0);

    size_t n;
    assert_int_equal(el_edits_of(&e, "/a.c", &n), 0);
    assert_int_equal(n, 3);
    assert_int_equal(el_edits_of(&e, "/b.c", &n), 3);
    assert_int_equal(n, 1);
    el_edits_of(&e, "/c.c", &n);
    assert_int_equal(n, 0);
    el_edits_of(&e, "/0.c", &n);
    assert_int_equal(n, 0);

    /* Same range, different text: both kept (and they conflict). */
    el_edits f = {0};
    el_edits_add(&f, "/a.c", 1, 2, "p", 0);
    el_edits_add(&f, "/a.c", 1, 2, "q", 1);
    el_edits_sort_unique(&f);
    assert_int_equal(f.n, 2);
    size_t a, b;
    assert_true(el_edits_conflict(&f, 0, 2, &a, &b));
    assert_int_equal(a, 0);
    assert_int_equal(b, 1);
    el_edits_free(&f);

    el_edits g = {0};
    el_edits_append(&g, &e);
    assert_int_equal(g.n, 4);
    assert_string_equal(g.v[1].text, "z");
    assert_ptr_not_equal(g.v[1].text, e.v[1].text);
    el_edits_free(&g);
    el_edits_free(&e);
    assert_int_equal(e.n, 0);
}

/* Do the two edits conflict (in either insertion order)? */
static bool pair_conflicts(size_t b1, size_t e1, size_t b2, size_t e2, const char *t2)
{
    el_edits e = {0};
    el_edits_add(&e, "/f", b2, e2, t2, 1);
    el_edits_add(&e, "/f", b1, e1, "A", 0);
    el_edits_sort_unique(&e);
    size_t a = 99, b = 99;
    bool c = el_edits_conflict(&e, 0, e.n, &a, &b);
    if (c) {
        assert_true(a < b);
        assert_true(b < e.n);
    }
    el_edits_free(&e);
    return c;
}

static void test_conflicts(void **state)
{
    (void)state;
    static const struct {
        size_t b1, e1, b2, e2;
        const char *t2;
        bool conflict;
    } pairs[] = {
        /* Overlapping replacements. */
        {0, 5, 3, 8, "B", true},
        {3, 8, 0, 5, "B", true},
        {0, 10, 2, 3, "B", true},
        {2, 4, 2, 6, "B", true},
        /* Touching replacements do not overlap. */
        {0, 5, 5, 8, "B", false},
        {5, 8, 0, 5, "B", false},
        /* An insertion inside a replaced range does; at its boundary not. */
        {2, 6, 4, 4, "B", true},
        {2, 6, 2, 2, "B", false},
        {2, 6, 6, 6, "B", false},
        /* Two different insertions at one offset: the order would be arbitrary. */
        {3, 3, 3, 3, "B", true},
        {3, 3, 4, 4, "B", false},
        /* The identical insertion twice counts once. */
        {3, 3, 3, 3, "A", false},
        /* Same range, different replacement. */
        {3, 5, 3, 5, "B", true},
    };
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++)
        if (pair_conflicts(pairs[i].b1, pairs[i].e1, pairs[i].b2, pairs[i].e2, pairs[i].t2) !=
            pairs[i].conflict)
            fail_msg("[%zu,%zu) \"A\" and [%zu,%zu) \"%s\": expected %s", pairs[i].b1, pairs[i].e1,
                     pairs[i].b2, pairs[i].e2, pairs[i].t2, pairs[i].conflict ? "a conflict" : "none");

    /* A conflict hidden behind a non-conflicting neighbour: [0,10) covers
     * [2,3) and [5,6), which do not touch each other. */
    el_edits e = {0};
    el_edits_add(&e, "/f", 2, 3, "x", 0);
    el_edits_add(&e, "/f", 5, 6, "y", 1);
    el_edits_add(&e, "/f", 11, 12, "z", 2);
    el_edits_sort_unique(&e);
    assert_false(el_edits_conflict(&e, 0, e.n, NULL, NULL));
    el_edits_add(&e, "/f", 0, 10, "w", 3);
    el_edits_add(&e, "/g", 0, 100, "other file", 4);
    el_edits_sort_unique(&e);
    size_t n, first = el_edits_of(&e, "/f", &n);
    size_t a, b;
    assert_true(el_edits_conflict(&e, first, n, &a, &b));
    assert_int_equal(e.v[a].group, 3);
    assert_int_equal(e.v[b].group, 0);
    /* An insertion strictly inside a range two edits back. */
    el_edits f = {0};
    el_edits_add(&f, "/f", 0, 10, "w", 0);
    el_edits_add(&f, "/f", 1, 1, "i", 1);
    el_edits_add(&f, "/f", 10, 10, "j", 2);
    el_edits_sort_unique(&f);
    assert_true(el_edits_conflict(&f, 0, f.n, &a, &b));
    assert_int_equal(f.v[b].group, 1);
    el_edits_free(&f);
    el_edits_free(&e);
}

static void test_apply(void **state)
{
    (void)state;
    static const struct {
        const char *what, *old;
        struct {
            size_t begin, end;
            const char *text;
        } edits[6];
        size_t n;
        const char *want; /* NULL: refused */
    } cases[] = {
        /* Insert at 0, replace in the middle, delete, insert at the end,
         * insertion touching a replacement on both sides. */
        {"mixed", "abcdefghijkl",
         {{0, 0, "<<"}, {4, 7, "XYZW"} /* "efg" */, {4, 4, "["}, {7, 7, "]"}, {9, 11, ""} /* "jk" */,
          {12, 12, ">>"}},
         6, "<<abcd[XYZW]hil>>"},
        {"no edits: a copy", "same", {{0, 0, NULL}}, 0, "same"},
        {"empty content: only an insertion at 0 fits", "", {{0, 0, "new\n"}}, 1, "new\n"},
        {"replace everything", "abc", {{0, 3, "xyz!"}}, 1, "xyz!"},
        {"past the end", "abcd", {{2, 5, "x"}}, 1, NULL},
        {"insertion past the end", "abcd", {{5, 5, "x"}}, 1, NULL},
        {"insertion into nothing", "", {{1, 1, "x"}}, 1, NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        el_edits e = {0};
        for (size_t k = 0; k < cases[i].n; k++)
            el_edits_add(&e, "/f", cases[i].edits[k].begin, cases[i].edits[k].end, cases[i].edits[k].text,
                         (int)k);
        el_edits_sort_unique(&e);
        assert_false(el_edits_conflict(&e, 0, e.n, NULL, NULL));
        char *out = NULL;
        size_t len = 0;
        int rc = el_edits_apply(&e, 0, e.n, cases[i].old, strlen(cases[i].old), &out, &len);
        if (!cases[i].want) {
            if (rc != -1)
                fail_msg("%s: applied", cases[i].what);
            assert_null(out);
        } else {
            if (rc != 0)
                fail_msg("%s: refused", cases[i].what);
            assert_string_equal(out, cases[i].want);
            assert_int_equal(len, strlen(out));
        }
        free(out);
        el_edits_free(&e);
    }
}

/* Applying the edits of one file among several uses only those. */
static void test_apply_one_file(void **state)
{
    (void)state;
    el_edits e = {0};
    el_edits_add(&e, "/z.c", 0, 1, "Z", 0);
    el_edits_add(&e, "/m.c", 1, 2, "M", 1);
    el_edits_add(&e, "/a.c", 0, 0, "A", 2);
    el_edits_add(&e, "/m.c", 3, 3, "!", 3);
    el_edits_sort_unique(&e);
    size_t n, first = el_edits_of(&e, "/m.c", &n);
    assert_int_equal(n, 2);
    char *out;
    size_t len;
    assert_int_equal(el_edits_apply(&e, first, n, "abc", 3, &out, &len), 0);
    assert_int_equal(len, 4);
    assert_string_equal(out, "aMc!");
    free(out);
    el_edits_free(&e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sort_unique),
        cmocka_unit_test(test_conflicts),
        cmocka_unit_test(test_apply),
        cmocka_unit_test(test_apply_one_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
