/* tests/lint/test_shard.c -- --shard K/N and emberlint merge: on a
 * generated tree (headers included by many .c files, by one, by none;
 * suppressions in headers used from one translation unit only; a header
 * whose findings depend on the including file's macros; a .c template
 * two .c files include, which alone does not parse; a .c file a unit
 * test includes with a macro that hides code; a project rule,
 * EH105), the shards of N = 1, 2, 3 and 7 are disjoint and cover every
 * translation unit, and merging them gives byte for byte the report of
 * one run over everything, in every format.  A merge refuses what would
 * make it wrong: a missing or repeated shard, shards of other options, a
 * tree that changed, a report that is not a shard's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lint_test.h"
#include "strbuf.h"

#define N_MODULES 24

static void make_tree(void)
{
    tt_w("inc/common.h",
      "#include <stddef.h>\n"
      "#include <lapacke.h> // emberlint-ignore EH101 -- used from every TU\n"
      "static inline int common_ok(void) { return 0; } // emberlint-ignore EH101 -- unused\n");
    tt_w("inc/once.h", "/* only mod_5.c includes this */\n"
                    "#include <fftw3.h> // emberlint-ignore EH101\n"
                    "#include <cblas.h>\n");
    tt_w("inc/mode.h", "#ifdef MODE_A\n#include <cblas.h>\n#else\n#include <lapack.h>\n#endif\n");
    for (int i = 0; i < 6; i++) {
        char rel[64], body[256];
        snprintf(rel, sizeof rel, "inc/orphan_%d.h", i);
        snprintf(body, sizeof body, "/* nothing includes it */\n#include <cblas.h>\nint orphan_%d(void);\n", i);
        tt_w(rel, body);
    }
    for (int i = 0; i < N_MODULES; i++) {
        char rel[64], body[1024];
        snprintf(rel, sizeof rel, "src/part%d/mod_%d.c", i % 3, i);
        snprintf(body, sizeof body,
                 "%s"
                 "#include \"../../inc/common.h\"\n"
                 "%s"
                 "#include \"../../inc/mode.h\"\n"
                 "%s"
                 "int mod_%d(int x)\n{\n    return x + %d;\n}\n",
                 i % 4 == 0 ? "#define MODE_A 1\n" : "", i == 5 ? "#include \"../../inc/once.h\"\n" : "",
                 i % 5 == 0 ? "#include <cblas.h>\n" : "// emberlint-ignore-next-line EH101\n", i, i);
        tt_w(rel, body);
    }
    /* a .c template two .c files include: alone it does not parse (T), and
     * its finding comes once, through them */
    tt_w("src/tmpl/kernel.proto.c", "#include <cblas.h>\nT kernel_scale(T x) { return 2 * x; }\n");
    tt_w("src/part0/k_float.c", "#define T float\n#include \"../tmpl/kernel.proto.c\"\n");
    tt_w("src/part2/k_double.c", "#define T double\n#include \"../tmpl/kernel.proto.c\"\n");
    /* a unit test that includes the file it tests, with a macro that
     * hides code: the file keeps its own TU (it parses alone) */
    tt_w("src/part1/counted.c", "#ifndef UNIT_TEST\n#include <cblas.h>\n#endif\nint counted(void) { return 1; }\n");
    tt_w("src/part0/counted_test.c", "#define UNIT_TEST 1\n#include \"../part1/counted.c\"\n");
    /* a backend table that lacks ops: EH105, a project rule */
    tt_w("backends/tiny/backend.c", "#include <eh/backend_api.h>\n"
                                 "static eh_status tiny_add(const eh_op_call *call) { (void)call; return EH_OK; }\n"
                                 "const eh_backend eh_tiny_backend = {.name = \"tiny\", .kernels = {[EH_OP_add] = tiny_add}};\n");
}

static int setup(void **state)
{
    tt_scratch_setup(state);
    make_tree();
    return 0;
}

#define RULES "EH0,EH101,EH105"

/* One run (with -p . when `db`), exit status 1: its outputs. */
static tt_run lint_run(bool db, const char *format, const char *shard, const char *out)
{
    const char *argv[32];
    size_t n = 0;
    if (db) {
        argv[n++] = "-p";
        argv[n++] = ".";
    }
    const char *common[] = {"--cache-dir", "cache", "--select", RULES, "--format", format};
    for (size_t i = 0; i < 6; i++)
        argv[n++] = common[i];
    if (shard) {
        argv[n++] = "--shard";
        argv[n++] = shard;
    }
    if (out) {
        argv[n++] = "-o";
        argv[n++] = out;
    }
    const char *tail[] = {"src", "inc", "backends", "--", LT_INCLUDE, NULL};
    for (size_t i = 0; i < 6; i++)
        argv[n++] = tail[i];
    tt_run r = lt_emberlintv(tt_dir, argv, NULL);
    if (r.status != 1)
        fprintf(stderr, "emberlint%s %s %s: exit %d: %s\n", db ? " -p" : "", format,
                shard ? shard : "", r.status, r.err);
    assert_int_equal(r.status, 1);
    return r;
}

/* One run; its standard output. */
static char *run_lint(const char *format, const char *shard, const char *out)
{
    tt_run r = lint_run(false, format, shard, out);
    char *s = strdup(r.out);
    tt_free(&r);
    return s;
}

/* emberlint merge of shards 1..n (files shard-K.FMT) in a format. */
static tt_run merge(const char *format, const char *shard_fmt, int n)
{
    const char *argv[64] = {"merge", "--format", format};
    size_t k = 3;
    char *names[16];
    for (int i = 0; i < n; i++) {
        names[i] = tt_fmt("shard-%d.%s", i + 1, shard_fmt);
        argv[k++] = names[i];
    }
    argv[k] = NULL;
    tt_run r = lt_emberlintv(tt_dir, argv, NULL);
    for (int i = 0; i < n; i++)
        free(names[i]);
    return r;
}

static void shards(const char *fmt, int n)
{
    for (int k = 1; k <= n; k++) {
        char *spec = tt_fmt("%d/%d", k, n), *out = tt_fmt("shard-%d.%s", k, fmt);
        free(run_lint(fmt, spec, out));
        free(spec);
        free(out);
    }
}

/* Which .c files and headers each shard linted, from the payloads: every
 * .c exactly once overall. */
static void check_partition(int n)
{
    int seen[N_MODULES] = {0};
    for (int k = 1; k <= n; k++) {
        char *path = tt_fmt("%s/shard-%d.json", tt_dir, k);
        char *text = tt_read(path, NULL);
        json_object *j = tt_json(text);
        json_object *tus = tt_get(tt_get(j, "shard"), "tus");
        for (size_t i = 0; i < json_object_array_length(tus); i++) {
            const char *file = json_object_get_string(tt_get(json_object_array_get_idx(tus, i), "file"));
            int m;
            if (sscanf(strrchr(file, '/'), "/mod_%d.c", &m) == 1)
                seen[m]++;
        }
        json_object_put(j);
        free(text);
        free(path);
    }
    for (int m = 0; m < N_MODULES; m++)
        assert_int_equal(seen[m], 1);
}

static void test_merged_equals_unsharded(void **state)
{
    (void)state;
    static const char *const formats[] = {"json", "sarif", "text", "github"};
    char *whole[4];
    for (int f = 0; f < 4; f++)
        whole[f] = run_lint(formats[f], NULL, NULL);
    /* the tree has what the test is about */
    assert_true(tt_contains(whole[2], "EH105"));
    assert_true(tt_contains(whole[2], "inc/orphan_3.h:2:1"));
    assert_true(tt_contains(whole[2], "inc/mode.h:2:1"));
    assert_true(tt_contains(whole[2], "inc/mode.h:4:1"));
    assert_true(tt_contains(whole[2], "inc/common.h:3:"));        /* EH001: unused in every TU */
    assert_false(tt_contains(whole[2], "inc/common.h:2:"));       /* used from every TU */
    assert_false(tt_contains(whole[2], "inc/once.h:2:"));         /* used from mod_5.c only */
    assert_true(tt_contains(whole[2], "src/tmpl/kernel.proto.c:1:1: error: frontend code includes"));
    assert_false(tt_contains(whole[2], "EH000")); /* not linted alone */
    assert_true(tt_contains(whole[2], "src/part1/counted.c:2:1: error: frontend code includes"));

    static const int counts[] = {1, 2, 3, 7};
    for (size_t c = 0; c < 4; c++) {
        int n = counts[c];
        shards("json", n);
        shards("sarif", n);
        check_partition(n);
        for (int f = 0; f < 4; f++) {
            for (int from = 0; from < 2; from++) {
                tt_run r = merge(formats[f], from ? "sarif" : "json", n);
                if (strcmp(r.out, whole[f]) != 0)
                    fprintf(stderr, "N=%d %s from %s:\n--- merged\n%s\n--- whole\n%s\n", n, formats[f],
                            from ? "sarif" : "json", r.out, whole[f]);
                assert_int_equal(r.status, 1);
                assert_string_equal(r.out, whole[f]);
                tt_free(&r);
            }
        }
    }
    for (int f = 0; f < 4; f++)
        free(whole[f]);
}

static void test_merge_refuses(void **state)
{
    (void)state;
    shards("json", 3);
    /* a missing shard */
    tt_run r = merge("text", "json", 2);
    assert_int_equal(r.status, 2);
    assert_true(tt_contains(r.err, "shard 3/3 is missing"));
    tt_free(&r);
    /* a shard twice */
    r = lt_emberlint(tt_dir, "merge", "shard-1.json", "shard-2.json", "shard-2.json", "shard-3.json", NULL);
    assert_int_equal(r.status, 2);
    assert_true(tt_contains(r.err, "shard 2/3 is given twice"));
    tt_free(&r);
    /* shards of other options */
    tt_run o = lt_emberlint(tt_dir, "--cache-dir", "cache", "--select", "EH101", "--format", "json", "--shard",
                            "3/3", "-o", "other.json", "src", "inc", "backends", "--", LT_INCLUDE, NULL);
    assert_true(o.status == 0 || o.status == 1);
    tt_free(&o);
    r = lt_emberlint(tt_dir, "merge", "shard-1.json", "shard-2.json", "other.json", NULL);
    assert_int_equal(r.status, 2);
    assert_true(tt_contains(r.err, "other paths or options"));
    tt_free(&r);
    /* a plain report */
    free(run_lint("json", NULL, "plain.json"));
    r = lt_emberlint(tt_dir, "merge", "plain.json", NULL);
    assert_int_equal(r.status, 2);
    assert_true(tt_contains(r.err, "plain.json: not a shard's report"));
    tt_free(&r);
    r = lt_emberlint(tt_dir, "merge", "nosuch.json", NULL);
    assert_int_equal(r.status, 2);
    assert_true(tt_contains(r.err, "nosuch.json: cannot read"));
    tt_free(&r);
    /* the tree changed since the shards ran */
    tt_w("src/part0/mod_0.c", "int mod_0(int x) { return x; }\n");
    r = merge("text", "json", 3);
    assert_int_equal(r.status, 2);
    assert_true(tt_contains(r.err, "differ from those shard"));
    tt_free(&r);
    /* a file deleted since, the others here: the tree changed, not
     * another directory */
    shards("json", 3);
    char *gone = tt_path(tt_dir, "src/part1/mod_1.c");
    char *kept = tt_read(gone, NULL);
    assert_int_equal(unlink(gone), 0);
    r = merge("text", "json", 3);
    assert_int_equal(r.status, 2);
    assert_true(tt_contains(r.err, "the files here differ from those shard 1/3 linted (another commit, "
                                   "or edited since?)"));
    assert_false(tt_contains(r.err, "is here: run the merge in the directory"));
    tt_free(&r);
    tt_w("src/part1/mod_1.c", kept);
    free(kept);
    free(gone);
    /* merged in another directory: said first, before the shards' paths
     * (relative to where they ran) are walked and found missing; outside
     * a git work tree the current directory is the root, so by the paths */
    char *sub = tt_path(tt_dir, "src");
    r = lt_emberlint(sub, "merge", "../shard-1.json", "../shard-2.json", "../shard-3.json", NULL);
    assert_int_equal(r.status, 2);
    assert_true(tt_contains(r.err, "../shard-1.json: none of the paths the shard linted (src, ...) is "
                                   "here: run the merge in the directory the shards ran in"));
    assert_false(tt_contains(r.err, "No such file or directory"));
    tt_free(&r);
    /* in a git work tree, by the directory relative to its root */
    tt_w(".git/HEAD", "ref: refs/heads/main\n");
    shards("json", 3);
    r = lt_emberlint(sub, "merge", "../shard-1.json", "../shard-2.json", "../shard-3.json", NULL);
    assert_int_equal(r.status, 2);
    assert_true(tt_contains(r.err, "the shard ran in . of its repository, this is src: run the merge "
                                   "where the shards ran"));
    assert_false(tt_contains(r.err, "No such file or directory"));
    tt_free(&r);
    free(sub);
    /* a shard payload that lists no path it linted: said, no "(null)" */
    shards("json", 1);
    char *path1 = tt_path(tt_dir, "shard-1.json");
    char *text = tt_read(path1, NULL);
    json_object *j = tt_json(text);
    json_object_object_add(tt_get(tt_get(j, "shard"), "invocation"), "paths", json_object_new_array());
    tt_w("shard-1.json", json_object_to_json_string_ext(j, JSON_C_TO_STRING_PLAIN));
    json_object_put(j);
    free(text);
    free(path1);
    r = merge("text", "json", 1);
    assert_int_equal(r.status, 2);
    assert_true(tt_contains(r.err, "shard-1.json: the shard payload is malformed"));
    assert_false(tt_contains(r.err, "(null)"));
    tt_free(&r);
    /* options a merge does not take */
    r = lt_emberlint(tt_dir, "merge", "--select", "EH101", "shard-1.json", NULL);
    assert_int_equal(r.status, 2);
    assert_true(tt_contains(r.err, "--select belongs to the shards' runs"));
    tt_free(&r);
}

static void test_shard_usage(void **state)
{
    (void)state;
    static const char *const bad[] = {"0/3", "4/3", "1/0", "x", "1/", "/2", "1/2/3", "-1/2"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        tt_run r = lt_emberlint(tt_dir, "--format", "json", "--shard", bad[i], "src", NULL);
        assert_int_equal(r.status, 2);
        assert_true(tt_contains(r.err, "--shard: expected K/N"));
        tt_free(&r);
    }
    tt_run r = lt_emberlint(tt_dir, "--shard", "1/2", "src", NULL);
    assert_int_equal(r.status, 2);
    assert_true(tt_contains(r.err, "--shard needs --format json or sarif"));
    tt_free(&r);
    r = lt_emberlint(tt_dir, "--format", "json", "--shard", "1/2", "--fix", "src", NULL);
    assert_int_equal(r.status, 2);
    assert_true(tt_contains(r.err, "--shard does not go with --fix"));
    tt_free(&r);
    r = lt_emberlint(tt_dir, "merge", NULL);
    assert_int_equal(r.status, 2);
    assert_true(tt_contains(r.err, "no shard report given"));
    tt_free(&r);
}

/* The shard of a file depends on its path relative to the repository
 * root only: a copy of the tree elsewhere splits the same way, and a
 * merge in the copy accepts the original's shards. */
static void test_relocated_merge(void **state)
{
    (void)state;
    shards("json", 2);
    char *whole = run_lint("text", NULL, NULL);
    char *copy = tt_tmpdir();
    tt_copytree(tt_dir, copy);
    char *a = tt_fmt("%s/shard-1.json", tt_dir), *b = tt_fmt("%s/shard-2.json", tt_dir);
    tt_run r = lt_emberlint(copy, "merge", a, b, NULL);
    if (r.status != 1)
        fprintf(stderr, "%s", r.err);
    assert_int_equal(r.status, 1);
    assert_string_equal(r.out, whole);
    tt_free(&r);
    free(a);
    free(b);
    free(whole);
    tt_rmtree(copy);
    free(copy);
}

/* A merge in another directory where the shards' paths exist too (the
 * shards ran over "." somewhere, the merge runs in `/` or a home
 * directory) says so from the files the payloads name: it walks nothing
 * there (a walk would warn of the broken symlink below, and take hours
 * from `/`). */
static void test_merge_elsewhere_walks_nothing(void **state)
{
    (void)state;
    shards("json", 2);
    char *other = tt_tmpdir();
    free(tt_write(other, "inc/unrelated.h", "int unrelated(void);\n"));
    free(tt_write(other, "backends/README", "not the shards' tree\n"));
    char *big = tt_path(other, "src/big"), *z = tt_path(other, "src/big/z.c");
    free(tt_write(other, "src/big/keep.txt", ""));
    assert_int_equal(symlink("nowhere.c", z), 0);
    char *a = tt_fmt("%s/shard-1.json", tt_dir), *b = tt_fmt("%s/shard-2.json", tt_dir);
    tt_run r = lt_emberlint(other, "merge", a, b, NULL);
    assert_int_equal(r.status, 2);
    assert_true(tt_contains(r.err, ": none of the files the shards name ("));
    assert_true(tt_contains(r.err, ", ...) is here: run the merge in the directory the shards ran in"));
    assert_false(tt_contains(r.err, "broken symlink"));
    tt_free(&r);
    /* shards that built none of the files (-p, a database of a file
     * outside the paths, no header under them): no translation unit, the
     * payloads name the files not built */
    tt_w("tools/gen.c", "int gen(void) { return 0; }\n");
    tt_w("compile_commands.json", "[{\"directory\": \".\", \"file\": \"tools/gen.c\", "
                                  "\"command\": \"cc -c tools/gen.c\"}]\n");
    for (int k = 1; k <= 2; k++) {
        const char *argv[] = {"-p", ".", "--cache-dir", "cache", "--select", RULES, "--format", "json",
                              "--shard", k == 1 ? "1/2" : "2/2", "-o", k == 1 ? "shard-1.json" : "shard-2.json",
                              "src", "backends", "--", LT_INCLUDE, NULL};
        tt_run s = lt_emberlintv(tt_dir, argv, NULL);
        assert_true(s.status == 0 || s.status == 1);
        tt_free(&s);
    }
    r = lt_emberlint(other, "merge", a, b, NULL);
    assert_int_equal(r.status, 2);
    assert_true(tt_contains(r.err, ", ...) is here: run the merge in the directory the shards ran in"));
    assert_false(tt_contains(r.err, "broken symlink"));
    tt_free(&r);
    free(a);
    free(b);
    free(z);
    free(big);
    tt_rmtree(other);
    free(other);
}

/* A configuration pattern that matches none of the linted files: the
 * shards leave the warning to the merge, which walks the same tree with
 * the same configuration, so that shards and merge say it once, as one
 * run does (as the C++ and not-built notes). */
static void test_config_warning_once(void **state)
{
    (void)state;
    tt_w("src/.emberlint.json", "{\"core_paths\": [\"/nosuch/\"]}\n");
    tt_run whole = lint_run(false, "json", NULL, NULL);
    assert_true(tt_contains(whole.err, "src/.emberlint.json:1:17: \"core_paths\" pattern '/nosuch/' "
                                       "matches none of the linted files"));
    static const int counts[] = {1, 2, 3};
    for (size_t c = 0; c < 3; c++) {
        int n = counts[c];
        el_buf err = {0};
        for (int k = 1; k <= n; k++) {
            char *spec = tt_fmt("%d/%d", k, n), *out = tt_fmt("shard-%d.json", k);
            tt_run r = lint_run(false, "json", spec, out);
            el_buf_puts(&err, r.err);
            tt_free(&r);
            free(spec);
            free(out);
        }
        tt_run m = merge("json", "json", n);
        assert_int_equal(m.status, 1);
        el_buf_puts(&err, m.err);
        assert_string_equal(err.s ? err.s : "", whole.err);
        tt_free(&m);
        el_buf_free(&err);
    }
    tt_free(&whole);
}

/* With a compile database: a .c file it does not list and no TU reads,
 * and headers no TU reads, are "not built in this configuration".  A
 * shard cannot tell (another shard's TU may read them: the template
 * kernel.proto.c, a header): the merge says it, with the counts one run
 * over everything gives. */
#define UNBUILT_SOURCE "emberlint: 1 source file under the paths is not in compile_commands.json"
#define UNBUILT_HEADERS "emberlint: 6 headers under the paths are included by none of the files"

static void write_database(void)
{
    tt_w("src/part1/unbuilt.c", "#include <cblas.h>\nint unbuilt(void) { return 0; }\n");
    /* a header the build generates, not built yet: the merge's note says
     * so as the run's does, not that -p is missing */
    tt_w("src/part2/generated_user.c", "#include \"version.h\"\nint v(void) { return 0; }\n");
    el_buf b = {0};
    el_buf_puts(&b, "[");
    const char *listed[N_MODULES + 8];
    char *owned[N_MODULES];
    size_t n = 0;
    for (int i = 0; i < N_MODULES; i++)
        listed[n++] = owned[i] = tt_fmt("src/part%d/mod_%d.c", i % 3, i);
    listed[n++] = "src/part0/k_float.c";
    listed[n++] = "src/part2/k_double.c";
    listed[n++] = "src/part1/counted.c";
    listed[n++] = "src/part0/counted_test.c";
    listed[n++] = "backends/tiny/backend.c";
    listed[n++] = "src/part2/generated_user.c";
    for (size_t i = 0; i < n; i++) {
        char *e = tt_fmt("%s{\"directory\": \"%s\", \"file\": \"%s\", \"arguments\": [\"cc\", \"-c\", \"%s\"]}",
                         i ? ",\n" : "", tt_dir, listed[i], listed[i]);
        el_buf_puts(&b, e);
        free(e);
    }
    el_buf_puts(&b, "]\n");
    tt_w("compile_commands.json", b.s);
    el_buf_free(&b);
    for (int i = 0; i < N_MODULES; i++)
        free(owned[i]);
}

static void test_unbuilt_noted_by_the_merge(void **state)
{
    (void)state;
    write_database();
    tt_run whole = lint_run(true, "json", NULL, NULL);
    assert_true(tt_contains(whole.err, UNBUILT_SOURCE));
    assert_true(tt_contains(whole.err, UNBUILT_HEADERS));
    assert_true(tt_contains(whole.out, "kernel.proto.c")); /* linted through its includers */
    assert_true(tt_contains(whole.err, "includes not found: 'version.h' (1 file); with "
                                       "compile_commands.json's flags"));
    static const int counts[] = {1, 2, 3, 7};
    for (size_t c = 0; c < 4; c++) {
        int n = counts[c];
        for (int k = 1; k <= n; k++) {
            char *spec = tt_fmt("%d/%d", k, n), *out = tt_fmt("shard-%d.json", k);
            tt_run r = lint_run(true, "json", spec, out);
            assert_false(tt_contains(r.err, "not linted"));
            tt_free(&r);
            free(spec);
            free(out);
        }
        tt_run m = merge("json", "json", n);
        assert_int_equal(m.status, 1);
        assert_string_equal(m.out, whole.out);
        assert_string_equal(m.err, whole.err);
        tt_free(&m);
    }
    tt_free(&whole);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_merged_equals_unsharded, setup, tt_scratch_teardown),
        cmocka_unit_test_setup_teardown(test_merge_refuses, setup, tt_scratch_teardown),
        cmocka_unit_test_setup_teardown(test_shard_usage, setup, tt_scratch_teardown),
        cmocka_unit_test_setup_teardown(test_relocated_merge, setup, tt_scratch_teardown),
        cmocka_unit_test_setup_teardown(test_merge_elsewhere_walks_nothing, setup, tt_scratch_teardown),
        cmocka_unit_test_setup_teardown(test_config_warning_once, setup, tt_scratch_teardown),
        cmocka_unit_test_setup_teardown(test_unbuilt_noted_by_the_merge, setup, tt_scratch_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
