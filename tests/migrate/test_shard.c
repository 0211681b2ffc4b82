/* tests/migrate/test_shard.c -- ember-migrate analyze --shard K/N and
 * ember-migrate merge: on the legacy example (legacy directories, moves,
 * tables, a header included by several files) and on the analyze
 * fixtures (one of them with a file that does not parse), the shards of
 * N = 1, 2, 3 and 7 merged give exactly the analysis of one run, in every
 * format; a merge refuses an incomplete set of shards; plan and apply do
 * not shard. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "migrate_test.h"

static int setup(void **state)
{
    tt_scratch_setup(state);
    char *legacy = tt_path(tt_dir, "legacy"), *basic = tt_path(tt_dir, "basic"), *broken = tt_path(tt_dir, "broken");
    tt_copytree(MIGRATE_SRCDIR "/examples/legacy", legacy);
    tt_copytree(MIGRATE_SRCDIR "/tests/migrate/analyze_fixtures/basic", basic);
    tt_copytree(MIGRATE_SRCDIR "/tests/migrate/analyze_fixtures/broken", broken);
    free(legacy);
    free(basic);
    free(broken);
    return 0;
}

/* analyze (whole, or shard k of n into shard-k.json) of tree */
static tt_run analyze(const char *tree, const char *format, int k, int n)
{
    char *spec = tt_fmt("%d/%d", k, n);
    const char *args[] = {"analyze", "--all-ops", "--format", format, n ? "--shard" : tree,
                          n ? spec : NULL, n ? tree : NULL, NULL};
    tt_run r = mt_migratev(tt_dir, NULL, args, true);
    free(spec);
    return r;
}

static tt_run merge(const char *format, int n)
{
    const char *args[32] = {"merge", "--all-ops", "--format", format};
    char *names[16];
    size_t a = 4;
    for (int k = 0; k < n; k++)
        args[a++] = names[k] = tt_fmt("shard-%d.json", k + 1);
    args[a] = NULL;
    tt_run r = mt_migratev(tt_dir, NULL, args, false);
    for (int k = 0; k < n; k++)
        free(names[k]);
    return r;
}

/* Shards 1..upto of n of the tree, analyzed and written to shard-K.json
 * for merge(); a shard's stderr must not say `quiet` (NULL: no check). */
static void write_shards(const char *tree, int upto, int n, const char *quiet)
{
    for (int k = 1; k <= upto; k++) {
        tt_run s = analyze(tree, "json", k, n);
        if (quiet)
            assert_false(tt_contains(s.err, quiet));
        char *name = tt_fmt("shard-%d.json", k);
        free(tt_write(tt_dir, name, s.out));
        free(name);
        tt_free(&s);
    }
}

static void check_tree(const char *tree, int want_status)
{
    static const char *const formats[] = {"json", "text", "markdown"};
    static const int counts[] = {1, 2, 3, 7};
    tt_run whole[3];
    for (int f = 0; f < 3; f++) {
        whole[f] = analyze(tree, formats[f], 0, 0);
        assert_int_equal(whole[f].status, want_status);
    }
    for (size_t c = 0; c < 4; c++) {
        int n = counts[c];
        for (int k = 1; k <= n; k++) {
            tt_run s = analyze(tree, "json", k, n);
            assert_true(s.status == 0 || s.status == 1);
            char *name = tt_fmt("shard-%d.json", k);
            free(tt_write(tt_dir, name, s.out));
            free(name);
            tt_free(&s);
        }
        for (int f = 0; f < 3; f++) {
            tt_run m = merge(formats[f], n);
            if (strcmp(m.out, whole[f].out) != 0)
                fprintf(stderr, "%s N=%d %s:\n--- merged\n%s%s\n--- whole\n%s\n", tree, n, formats[f], m.out,
                        m.err, whole[f].out);
            assert_string_equal(m.out, whole[f].out);
            assert_int_equal(m.status, want_status);
            tt_free(&m);
        }
    }
    for (int f = 0; f < 3; f++)
        tt_free(&whole[f]);
}

static void test_legacy(void **state)
{
    (void)state;
    check_tree("legacy", 0);
}

static void test_fixtures(void **state)
{
    (void)state;
    check_tree("basic", 0);
    check_tree("broken", 1); /* a file does not parse: reported by the merge too */
}

static void test_refusals(void **state)
{
    (void)state;
    write_shards("legacy", 2, 3, NULL);
    tt_run r = merge("text", 2);
    assert_int_equal(r.status, 2);
    assert_true(tt_contains(r.err, "ember-migrate: shard 3/3 is missing"));
    tt_free(&r);
    r = mt_migrate(tt_dir, NULL, "analyze", "--shard", "1/2", "legacy", NULL);
    assert_int_equal(r.status, 2);
    assert_true(tt_contains(r.err, "--shard needs --format json"));
    tt_free(&r);
    r = mt_migrate(tt_dir, NULL, "plan", "--shard", "1/2", "legacy", NULL);
    assert_int_equal(r.status, 2);
    assert_true(tt_contains(r.err, "--shard is an option of analyze"));
    tt_free(&r);
    r = mt_migrate(tt_dir, NULL, "analyze", "--format", "json", "--shard", "3/2", "legacy", NULL);
    assert_int_equal(r.status, 2);
    assert_true(tt_contains(r.err, "--shard: expected K/N"));
    tt_free(&r);
    /* an emberlint shard is not an ember-migrate shard */
    r = mt_migrate_args(tt_dir, "merge", "nosuch.json", NULL);
    assert_int_equal(r.status, 2);
    assert_true(tt_contains(r.err, "nosuch.json: cannot read"));
    tt_free(&r);
}

/* A merge in another directory where the shards' paths exist too (`/`,
 * a home directory) says so from the files the payloads name, and walks
 * nothing there (a walk would warn of the broken symlink below). */
static void test_merge_elsewhere_walks_nothing(void **state)
{
    (void)state;
    write_shards("legacy", 2, 2, NULL);
    char *other = tt_tmpdir();
    free(tt_write(other, "legacy/big/keep.txt", ""));
    char *z = tt_path(other, "legacy/big/z.c");
    assert_int_equal(symlink("nowhere.c", z), 0);
    char *a = tt_fmt("%s/shard-1.json", tt_dir), *b = tt_fmt("%s/shard-2.json", tt_dir);
    tt_run r = mt_migrate_args(other, "merge", a, b, NULL);
    assert_int_equal(r.status, 2);
    assert_true(tt_contains(r.err, ": none of the files the shards name (legacy/"));
    assert_true(tt_contains(r.err, ", ...) is here: run the merge in the directory the shards ran in"));
    assert_false(tt_contains(r.err, "broken symlink"));
    tt_free(&r);
    free(a);
    free(b);
    free(z);
    tt_rmtree(other);
    free(other);
}

/* A file deleted since the shards ran, in the right directory: the tree
 * changed (not another directory), said in ember-migrate's words. */
static void test_merge_after_a_deletion(void **state)
{
    (void)state;
    write_shards("legacy", 2, 2, NULL);
    char *gone = tt_path(tt_dir, "legacy/report.c");
    assert_int_equal(unlink(gone), 0);
    free(gone);
    tt_run r = merge("text", 2);
    assert_int_equal(r.status, 2);
    assert_true(tt_contains(r.err, "the files here differ from those shard 1/2 scanned (another "
                                   "commit, or edited since?)"));
    assert_false(tt_contains(r.err, "is here: run the merge in the directory"));
    tt_free(&r);
}

/* A configuration pattern that matches none of the files: the shards
 * leave the warning to the merge, so that shards and merge say it once,
 * as one run does (emberlint's the same). */
static void test_config_warning_once(void **state)
{
    (void)state;
    tt_w("legacy/.emberlint.json", "{\"core_paths\": [\"/nosuch/\"]}\n");
    tt_run whole = analyze("legacy", "json", 0, 0);
    assert_true(tt_contains(whole.err, "legacy/.emberlint.json:1:17: \"core_paths\" pattern "
                                       "'/nosuch/' matches none of the scanned files"));
    /* (a shard says its own summary line, nothing else) */
    write_shards("legacy", 2, 2, "warning");
    tt_run m = merge("json", 2);
    assert_string_equal(m.err, whole.err);
    tt_free(&m);
    tt_free(&whole);
}

/* The note on the C++ files a walk passes over: the shards leave it to
 * the merge, which says it as one run does (emberlint's the same). */
static void test_cxx_note(void **state)
{
    (void)state;
    tt_w("legacy/extra/solve.cpp", "int solve() { return 0; }\n");
    const char *note = "ember-migrate: note: 1 C++ file under legacy was not scanned";
    tt_run whole = analyze("legacy", "json", 0, 0);
    assert_true(tt_contains(whole.err, note));
    write_shards("legacy", 2, 2, "C++ file");
    tt_run m = merge("json", 2);
    assert_true(tt_contains(m.err, note));
    assert_string_equal(m.err, whole.err);
    tt_free(&m);
    tt_free(&whole);
}

/* The note on a tree's own copy of a library's routines: made of the
 * uses EH102 silenced, which it decides when the shards are joined (the
 * copy and its caller in different shards, or one), so the merge says it
 * as one run does and the shards say nothing. */
static void test_own_routines_note(void **state)
{
    (void)state;
    tt_w("own/blas/blas.h", "double ddot_(int *n, double *x, int *incx, double *y, int *incy);\n");
    tt_w("own/blas/ddot.c", "#include \"blas.h\"\n"
                            "double ddot_(int *n, double *x, int *incx, double *y, int *incy)\n"
                            "{ double s = 0; for (int i = 0; i < *n; i++) s += x[i * *incx] * y[i * *incy]; return s; }\n");
    tt_w("own/solve.c", "#include \"blas/blas.h\"\n"
                        "double norm2(double *x, int n) { int one = 1; return ddot_(&n, x, &one, x, &one); }\n");
    tt_w("own/unity.c", "#include \"blas/ddot.c\"\n"
                        "double sq(double *x, int n) { int one = 1; return ddot_(&n, x, &one, x, &one); }\n");
    const char *note = "ember-migrate: note: 2 uses of 1 function named as a library's routine "
                       "(ddot_) are taken as the project's own code and not listed: the tree "
                       "defines it (own/blas/ddot.c:2)";
    tt_run whole = analyze("own", "json", 0, 0);
    assert_true(tt_contains(whole.err, note));
    for (int n = 2; n <= 3; n++) {
        write_shards("own", n, n, "library's routine");
        tt_run m = merge("json", n);
        assert_string_equal(m.err, whole.err);
        tt_free(&m);
    }
    tt_free(&whole);
}

/* analyze -p build (and PATH, when not NULL), whole (n 0) or shard k
 * of n into shard-k.json */
static tt_run analyze_db(const char *path, int k, int n)
{
    char *spec = tt_fmt("%d/%d", k, n), *out = tt_fmt("shard-%d.json", k);
    const char *args[16] = {"analyze", "--all-ops", "--format", "json", "-p", "build"};
    size_t a = 6;
    if (n) {
        args[a++] = "--shard";
        args[a++] = spec;
    }
    args[a++] = path;
    args[a] = NULL;
    tt_run r = mt_migratev(tt_dir, NULL, args, false);
    if (n)
        free(tt_write(tt_dir, out, r.out));
    free(spec);
    free(out);
    return r;
}

/* A CI matrix runs analyze -p build without PATH in N shards and merges
 * them: the merge says what one run says, the note on the database's
 * files "exclude" matches and the own-copies note's advice to name the
 * tree included (the shards record that they ran without PATH; the merge
 * said neither).  Shards naming the tree say what a run naming it says;
 * shards of both kinds are refused. */
static void test_database_notes_merged(void **state)
{
    (void)state;
    tt_w("proj/.emberlint.json", "{\"exclude\": [\"src/3rdparty/\"]}\n");
    tt_w("proj/src/main.c", "int main(void) { return 0; }\n");
    tt_w("proj/src/3rdparty/kiss/kiss.c", "int kiss(void) { return 0; }\n");
    tt_w("proj/src/3rdparty/kiss/kissr.c", "int kissr(void) { return 0; }\n");
    tt_w("proj/blas/blas.h", "double ddot_(int *n, double *x, int *incx, double *y, int *incy);\n");
    tt_w("proj/blas/ddot.c", "#include \"blas.h\"\n"
                             "double ddot_(int *n, double *x, int *incx, double *y, int *incy)\n"
                             "{ double s = 0; for (int i = 0; i < *n; i++) s += x[i * *incx] * y[i * *incy]; return s; }\n");
    tt_w("proj/src/solve.c", "#include \"../blas/blas.h\"\n"
                             "double norm2(double *x, int n) { int one = 1; return ddot_(&n, x, &one, x, &one); }\n");
    static const char *const files[] = {"main.c", "3rdparty/kiss/kiss.c", "3rdparty/kiss/kissr.c",
                                        "solve.c", "../blas/ddot.c"};
    char *db = tt_fmt("[");
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char *more = tt_fmt("%s%s{\"directory\": \"%s/proj/src\", \"file\": \"%s\", \"command\": \"cc -c %s\"}",
                            db, i ? ", " : "", tt_dir, files[i], files[i]);
        free(db);
        db = more;
    }
    char *all = tt_fmt("%s]", db);
    tt_w("build/compile_commands.json", all);
    free(all);
    free(db);
    const char *excluded = "ember-migrate: note: 2 files build/compile_commands.json builds match "
                           "\"exclude\" in proj/.emberlint.json (proj/src/3rdparty/kiss/kiss.c, ...) "
                           "and were scanned anyway: without PATH the database names them; name the "
                           "tree (-p build proj) to skip them\n";
    const char *own = "add proj/blas/ to \"exclude\" in .emberlint.json and run again naming the tree "
                      "(-p build .): a run without PATH scans every file compile_commands.json lists, "
                      "excluded or not\n";
    for (int named = 0; named < 2; named++) { /* -p build, then -p build proj */
        const char *path = named ? "proj" : NULL;
        tt_run whole = analyze_db(path, 0, 0);
        assert_int_equal(tt_contains(whole.err, excluded), !named);
        assert_int_equal(tt_contains(whole.err, own), !named);
        assert_true(tt_contains(whole.err, "(ddot_) is taken as the project's own code"));
        for (int n = 1; n <= 3; n++) {
            for (int k = 1; k <= n; k++) {
                tt_run s = analyze_db(path, k, n);
                assert_true(s.status == 0 || s.status == 1);
                assert_false(tt_contains(s.err, "note"));
                tt_free(&s);
            }
            tt_run m = merge("json", n);
            assert_int_equal(m.status, whole.status);
            assert_string_equal(m.out, whole.out);
            assert_string_equal(m.err, whole.err);
            tt_free(&m);
        }
        tt_free(&whole);
    }
    /* shard 1/2 of -p build proj, 2/2 of -p build: refused */
    tt_run s = analyze_db("proj", 1, 2);
    tt_free(&s);
    s = analyze_db(NULL, 2, 2);
    tt_free(&s);
    tt_run m = merge("json", 2);
    assert_int_equal(m.status, 2);
    assert_true(tt_contains(m.err, "ember-migrate: shard-2.json: the shard ran with other paths or "
                                   "options than shard-1.json\n"));
    assert_false(tt_contains(m.err, "note"));
    tt_free(&m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_legacy, setup, tt_scratch_teardown),
        cmocka_unit_test_setup_teardown(test_fixtures, setup, tt_scratch_teardown),
        cmocka_unit_test_setup_teardown(test_refusals, setup, tt_scratch_teardown),
        cmocka_unit_test_setup_teardown(test_merge_elsewhere_walks_nothing, setup, tt_scratch_teardown),
        cmocka_unit_test_setup_teardown(test_merge_after_a_deletion, setup, tt_scratch_teardown),
        cmocka_unit_test_setup_teardown(test_config_warning_once, setup, tt_scratch_teardown),
        cmocka_unit_test_setup_teardown(test_cxx_note, setup, tt_scratch_teardown),
        cmocka_unit_test_setup_teardown(test_own_routines_note, setup, tt_scratch_teardown),
        cmocka_unit_test_setup_teardown(test_database_notes_merged, setup, tt_scratch_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
