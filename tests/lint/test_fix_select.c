/* tests/lint/test_fix_select.c -- choosing fixes (lint/change/fix_select.h):
 * the policy on hand-made cases, and the indexed implementation against
 * the plain definition (every fix against every taken edit, which took
 * quadratic time: 20k fixes in one file, minutes) on random fixes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lint_test.h"
#include "fix_select.h"
#include "mem.h"

/* ---- the definition, written plainly --------------------------------------- */

static bool ref_inside(const el_edit *e, const el_edit *t)
{
    if (strcmp(e->path, t->path) != 0)
        return false;
    if (e->begin == t->begin && e->end == t->end)
        return strcmp(e->text, t->text) == 0;
    if (t->begin == t->end)
        return false;
    if (e->begin == e->end)
        return t->begin < e->begin && e->begin < t->end;
    return t->begin <= e->begin && e->end <= t->end;
}

static bool ref_conflict(const el_edits *taken, const el_fix *fx)
{
    el_edits tmp = {0};
    el_edits_append(&tmp, taken);
    el_edits_append(&tmp, &fx->edits);
    el_edits_sort_unique(&tmp);
    bool hit = false;
    for (size_t i = 0; i < tmp.n && !hit;) {
        size_t n = 0;
        size_t first = el_edits_of(&tmp, tmp.v[i].path, &n);
        hit = el_edits_conflict(&tmp, first, n, NULL, NULL);
        i = first + n;
    }
    el_edits_free(&tmp);
    return hit;
}

static size_t span_of(const el_fix *fx)
{
    size_t lo = (size_t)-1, hi = 0;
    for (size_t k = 0; k < fx->edits.n; k++) {
        lo = fx->edits.v[k].begin < lo ? fx->edits.v[k].begin : lo;
        hi = fx->edits.v[k].end > hi ? fx->edits.v[k].end : hi;
    }
    return hi > lo ? hi - lo : 0;
}

static void ref_select(el_fix *const *fixes, size_t n, el_fix_choice *choice)
{
    bool *done = calloc(n + 1, 1);
    el_edits taken = {0};
    for (size_t round = 0; round < n; round++) {
        size_t best = n; /* widest first, then index */
        for (size_t i = 0; i < n; i++)
            if (!done[i] && (best == n || span_of(fixes[i]) > span_of(fixes[best])))
                best = i;
        size_t i = best;
        done[i] = true;
        bool all_in = true;
        for (size_t k = 0; k < fixes[i]->edits.n && all_in; k++) {
            bool in = false;
            for (size_t t = 0; t < taken.n && !in; t++)
                in = ref_inside(&fixes[i]->edits.v[k], &taken.v[t]);
            all_in = in;
        }
        if (all_in) {
            choice[i] = EL_FIX_COVERED;
        } else if (ref_conflict(&taken, fixes[i])) {
            choice[i] = EL_FIX_CONFLICT;
        } else {
            choice[i] = EL_FIX_TAKEN;
            el_edits_append(&taken, &fixes[i]->edits);
        }
    }
    el_edits_free(&taken);
    free(done);
}

/* ---- tests ------------------------------------------------------------------- */

static el_fix *fix(const char *path, size_t b, size_t e, const char *text)
{
    el_fix *f = el_xcalloc(1, sizeof *f);
    f->safety = EL_FIX_SAFE;
    el_edits_add(&f->edits, path, b, e, text, 0);
    return f;
}

static void test_policy(void **state)
{
    (void)state;
    el_fix *f[6] = {
        fix("/a.c", 10, 20, "x"),   /* taken */
        fix("/a.c", 0, 100, "y"),   /* widest: taken first */
        fix("/a.c", 200, 210, "z"), /* elsewhere: taken */
        fix("/a.c", 205, 215, "w"), /* overlaps the one above: conflict */
        fix("/a.c", 200, 210, "z"), /* identical: covered */
        fix("/b.c", 10, 20, "x"),   /* another file: taken */
    };
    el_fix_choice c[6];
    el_edits taken = {0};
    el_fix_select((const el_fix *const *)f, 6, c, &taken);
    assert_int_equal(c[0], EL_FIX_COVERED);
    assert_int_equal(c[1], EL_FIX_TAKEN);
    assert_int_equal(c[2], EL_FIX_TAKEN);
    assert_int_equal(c[3], EL_FIX_CONFLICT);
    assert_int_equal(c[4], EL_FIX_COVERED);
    assert_int_equal(c[5], EL_FIX_TAKEN);
    assert_int_equal(taken.n, 3);
    el_edits_free(&taken);
    for (int i = 0; i < 6; i++) {
        el_fix_free(f[i]);
    }
}

static unsigned rnd(unsigned *s)
{
    *s = *s * 1103515245u + 12345u;
    return (*s >> 16) & 0x7fff;
}

/* Random fixes of one to three edits (insertions, replacements, the same
 * range with other text, two files) on a short text, so that they meet. */
static void test_same_choices_as_the_definition(void **state)
{
    (void)state;
    unsigned seed = 7;
    static const char *const texts[] = {"a", "b", ""};
    for (int round = 0; round < 3000; round++) {
        size_t n = 1 + rnd(&seed) % 12;
        el_fix **f = el_xcalloc(n, sizeof *f);
        for (size_t i = 0; i < n; i++) {
            f[i] = el_xcalloc(1, sizeof *f[i]);
            size_t ne = 1 + rnd(&seed) % 3;
            for (size_t k = 0; k < ne; k++) {
                size_t b = rnd(&seed) % 30, len = rnd(&seed) % 4 == 0 ? 0 : rnd(&seed) % 8;
                el_edits_add(&f[i]->edits, rnd(&seed) % 5 == 0 ? "/b.c" : "/a.c", b, b + len,
                             texts[rnd(&seed) % 3], 0);
            }
        }
        el_fix_choice *got = el_xcalloc(n, sizeof *got), *want = el_xcalloc(n, sizeof *want);
        el_fix_select((const el_fix *const *)f, n, got, NULL);
        ref_select(f, n, want);
        for (size_t i = 0; i < n; i++) {
            if (got[i] != want[i]) {
                print_error("round %d, fix %zu: %d, the definition says %d\n", round, i, got[i],
                            want[i]);
                fail();
            }
        }
        for (size_t i = 0; i < n; i++)
            el_fix_free(f[i]);
        free(f);
        free(got);
        free(want);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_policy),
        cmocka_unit_test(test_same_choices_as_the_definition),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
