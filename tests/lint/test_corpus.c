/* tests/lint/test_corpus.c -- emberlint's precision and recall on the
 * corpus (tests/lint/fixtures/corpus/README.md): code in the styles of real
 * projects, annotated with the findings a person judged true.
 *
 * The whole corpus is linted once (--format json, no cache).  A finding
 * that matches an annotation (file, line, rule) is a true positive; one
 * that matches none is a false positive; an annotation no finding
 * matches is a false negative.  The table per rule is printed; the test
 * fails when precision or recall over all rules is below 0.95.  Nothing
 * here knows what the corpus holds: only the annotations say what is
 * true. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expects.h"
#include "lint_test.h"

#define CORPUS "tests/lint/fixtures/corpus"
#define GOAL 0.95

typedef struct tally {
    char rule[8];
    unsigned tp, fp, fn;
} tally;

static tally *tally_of(tally *t, size_t *n, const char *rule)
{
    for (size_t i = 0; i < *n; i++)
        if (strcmp(t[i].rule, rule) == 0)
            return &t[i];
    tally *x = &t[(*n)++];
    memset(x, 0, sizeof *x);
    snprintf(x->rule, sizeof x->rule, "%s", rule);
    return x;
}

static int cmp_tally(const void *a, const void *b)
{
    return strcmp(((const tally *)a)->rule, ((const tally *)b)->rule);
}

static double ratio(unsigned num, unsigned den)
{
    return den ? (double)num / den : 1.0;
}

static void test_precision_and_recall(void **state)
{
    (void)state;
    lt_expects e = {0};
    lt_expects_scan(&e, CORPUS);
    assert_true(e.n > 0);

    tt_run r = lt_emberlint(NULL, "--no-cache", "--format", "json", CORPUS, NULL);
    if (r.status != 0 && r.status != 1) {
        print_error("emberlint exited %d\nstderr:\n%s\n", r.status, r.err);
        fail();
    }
    json_object *report = tt_json(r.out);
    json_object *findings = tt_get(report, "findings");
    tally t[64];
    size_t nt = 0;
    unsigned tp = 0, fp = 0, fn = 0;
    for (size_t i = 0; i < json_object_array_length(findings); i++) {
        json_object *f = json_object_array_get_idx(findings, i);
        const char *rule = json_object_get_string(tt_get(f, "rule"));
        const char *file = json_object_get_string(tt_get(f, "file"));
        unsigned line = (unsigned)json_object_get_int(tt_get(f, "line"));
        tally *x = tally_of(t, &nt, rule);
        if (lt_expects_match(&e, file, line, rule, json_object_get_string(tt_get(f, "message")))) {
            x->tp++;
            tp++;
        } else {
            x->fp++;
            fp++;
            print_message("false positive: %s:%u: %s: %s\n", file, line, rule,
                          json_object_get_string(tt_get(f, "message")));
        }
    }
    for (size_t k = 0; k < e.n; k++) {
        if (e.v[k].matched)
            continue;
        tally_of(t, &nt, e.v[k].rule)->fn++;
        fn++;
        print_message("false negative: %s:%u: %s\n", e.v[k].file, e.v[k].line, e.v[k].rule);
    }
    qsort(t, nt, sizeof *t, cmp_tally);
    print_message("%-6s %5s %5s %5s %9s %7s\n", "rule", "TP", "FP", "FN", "precision", "recall");
    for (size_t i = 0; i < nt; i++)
        print_message("%-6s %5u %5u %5u %9.3f %7.3f\n", t[i].rule, t[i].tp, t[i].fp, t[i].fn,
                      ratio(t[i].tp, t[i].tp + t[i].fp), ratio(t[i].tp, t[i].tp + t[i].fn));
    double precision = ratio(tp, tp + fp), recall = ratio(tp, tp + fn);
    print_message("%-6s %5u %5u %5u %9.3f %7.3f\n", "all", tp, fp, fn, precision, recall);
    json_object_put(report);
    tt_free(&r);
    lt_expects_free(&e);
    assert_true(precision >= GOAL);
    assert_true(recall >= GOAL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_precision_and_recall),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
