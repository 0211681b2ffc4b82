/* tests/lint/test_robust.c -- bad input never crashes emberlint: missing
 * paths, unreadable files, binary files, symlink loops, non-UTF-8 bytes
 * (in files and in file names), empty files, very large and very deep
 * files, special files.  Each gives one clear line on stderr and the run
 * goes on with the other files. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lint_test.h"

static int setup(void **state)
{
    tt_scratch_setup(state);
    free(tt_write(tt_dir, "src/bad.c", "#include <cblas.h>\n"));
    return 0;
}

static void test_missing_path(void **state)
{
    (void)state;
    tt_run r = lt_lint(tt_dir, "--no-cache", "nope.c", "src", "no/such/dir", NULL);
    assert_int_equal(r.status, 2); /* an I/O error wins over findings */
    assert_true(tt_contains(r.err, "emberlint: nope.c: No such file or directory\n"));
    assert_true(tt_contains(r.err, "emberlint: no/such/dir: No such file or directory\n"));
    assert_true(tt_contains(r.out, "src/bad.c:1:1: error:")); /* the rest is linted */
    tt_free(&r);
}

static void test_unreadable(void **state)
{
    (void)state;
    /* /proc/self/mem opens but cannot be read at offset 0 -- unreadable
     * even for root, who ignores permission bits. */
    char *link = tt_path(tt_dir, "src/mem.c");
    assert_int_equal(symlink("/proc/self/mem", link), 0);
    free(link);
    tt_run r = lt_lint(tt_dir, "--no-cache", "src", NULL);
    assert_int_equal(r.status, 2);
    assert_true(tt_contains(r.err, "src/mem.c: cannot read: "));
    assert_true(tt_contains(r.out, "src/bad.c:1:1: error:"));
    tt_free(&r);
    if (geteuid() != 0) {
        tt_w("locked/x.c", "int x;\n");
        char *p = tt_path(tt_dir, "locked/x.c");
        chmod(p, 0);
        r = lt_lint(tt_dir, "--no-cache", "locked", NULL);
        assert_int_equal(r.status, 2);
        assert_true(tt_contains(r.err, "emberlint: locked/x.c: cannot read: Permission denied"));
        tt_free(&r);
        chmod(p, 0644);
        free(p);
    }
}

static void test_binary_and_empty(void **state)
{
    (void)state;
    char *p = tt_path(tt_dir, "src/blob.c");
    FILE *f = fopen(p, "wb");
    assert_non_null(f);
    const unsigned char bytes[] = {0x7f, 'E', 'L', 'F', 0, 0, 1, 2, 0xff, 0xfe, 0};
    fwrite(bytes, 1, sizeof bytes, f);
    fclose(f);
    free(p);
    tt_w("src/empty.c", "");
    tt_w("src/empty.h", "");
    tt_run r = lt_lint(tt_dir, "--no-cache", "--format", "json", "src", NULL);
    assert_int_equal(r.status, 1);
    assert_true(tt_contains(r.err, "emberlint: warning: "));
    assert_true(tt_contains(r.err, "src/blob.c: binary file (contains NUL bytes), skipped\n"));
    json_object *j = tt_json(r.out);
    assert_int_equal(lt_count_rule(j, NULL), 1); /* bad.c only */
    assert_int_equal(json_object_get_int(tt_get(tt_get(j, "summary"), "files")), 3);
    json_object_put(j);
    tt_free(&r);
}

static void test_symlink_loops(void **state)
{
    (void)state;
    char *p = tt_path(tt_dir, "src/loop");
    assert_int_equal(symlink("..", p), 0); /* src/loop -> the tree above */
    free(p);
    p = tt_path(tt_dir, "src/self.c");
    assert_int_equal(symlink("self.c", p), 0);
    free(p);
    p = tt_path(tt_dir, "src/dangling.c");
    assert_int_equal(symlink("nowhere.c", p), 0);
    free(p);
    p = tt_path(tt_dir, "src/alias.c");
    assert_int_equal(symlink("bad.c", p), 0); /* the same file twice: linted once */
    free(p);
    tt_run r = lt_lint(tt_dir, "--no-cache", "--format", "json", ".", NULL);
    assert_int_equal(r.status, 1);
    assert_true(tt_contains(r.err, "emberlint: warning: src/loop: symlink loop, skipped\n"));
    assert_true(tt_contains(r.err, "emberlint: warning: src/self.c: symlink loop, skipped\n"));
    assert_true(tt_contains(r.err, "emberlint: warning: src/dangling.c: broken symlink, skipped\n"));
    json_object *j = tt_json(r.out);
    assert_int_equal(lt_count_rule(j, NULL), 1);
    json_object_put(j);
    tt_free(&r);
    /* named directly */
    r = lt_lint(tt_dir, "--no-cache", "src/self.c", NULL);
    assert_int_equal(r.status, 2);
    assert_true(tt_contains(r.err, "emberlint: src/self.c: symlink loop\n"));
    tt_free(&r);
}

static void test_non_utf8(void **state)
{
    (void)state;
    /* Latin-1 in comments and strings, a non-UTF-8 file name and a
     * non-UTF-8 backend directory name that ends up in a message. */
    tt_w("src/latin1.c", "/* caf\xe9 */\nstatic const char *s = \"na\xefve\";\n#include \"../backends/bl\xff" "as/x.h\"\n");
    tt_w("backends/bl\xff" "as/x.h", "int x;\n");
    tt_w("src/\xff\xfe.c", "#include <lapacke.h>\n");
    tt_run r = lt_lint(tt_dir, "--no-cache", "--format", "json", "src", NULL);
    assert_int_equal(r.status, 1);
    struct json_tokener *tok = json_tokener_new();
    json_tokener_set_flags(tok, JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8);
    json_object *j = json_tokener_parse_ex(tok, r.out, (int)strlen(r.out));
    if (!j)
        print_error("output is not valid UTF-8 JSON: %s\n%s\n",
                    json_tokener_error_desc(json_tokener_get_error(tok)), r.out);
    json_tokener_free(tok);
    assert_non_null(j);
    assert_int_equal(lt_count_rule(j, "EH101"), 3);
    assert_true(tt_contains(r.out, "bl\xef\xbf\xbd" "as")); /* U+FFFD */
    json_object_put(j);
    tt_free(&r);
    /* SARIF and text too */
    r = lt_lint(tt_dir, "--no-cache", "--format", "sarif", "src", NULL);
    json_object *s = tt_json(r.out);
    json_object_put(s);
    tt_free(&r);
}

/* rel: a backend include (EH101) and a function returning one sum of
 * operands x's, a tree that deep */
static void write_long_sum(const char *rel, int operands)
{
    free(tt_write(tt_dir, rel, ""));
    char *q = tt_path(tt_dir, rel);
    FILE *f = fopen(q, "w");
    assert_non_null(f);
    fputs("#include <lapacke.h>\nint sum(int x) { return x", f);
    for (int i = 1; i < operands; i++)
        fputs(" + x", f);
    fputs("; }\n", f);
    fclose(f);
    free(q);
}

static void test_large_and_deep(void **state)
{
    (void)state;
    /* ~6 MB of C */
    char *p = tt_path(tt_dir, "big/large.c");
    free(tt_write(tt_dir, "big/large.c", ""));
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fputs("#include <cblas.h>\nstatic const int table[] = {\n", f);
    for (int i = 0; i < 600000; i++)
        fprintf(f, "%d,\n", i);
    fputs("};\nint large(void) { return table[7]; }\n", f);
    fclose(f);
    /* 30000 operands in one expression: a very deep tree */
    write_long_sum("deep/deep.c", 30000);
    tt_run r = lt_lint(tt_dir, "--no-cache", "--format", "json", "big", "deep", NULL);
    assert_int_equal(r.status, 1);
    json_object *j = tt_json(r.out);
    assert_int_equal(lt_count_rule(j, "EH101"), 2);
    json_object_put(j);
    tt_free(&r);
    /* over the limit: skipped with a message */
    r = lt_lint(tt_dir, "--no-cache", "--max-file-size", "1000", "big", NULL);
    assert_int_equal(r.status, 0);
    assert_true(tt_contains(r.err, "emberlint: warning: big/large.c: file too large"));
    tt_free(&r);
    free(p);
}

/* A file whose walk needs more than 8 MiB of stack (60000 operands in
 * one expression: 12 to 16 MiB), linted with -j 1 under an 8 MiB soft
 * limit (whatever the tests run under).  One worker lints on the main
 * thread (lint/engine/main_stack.h), whose stack grows only to
 * RLIMIT_STACK: it is raised for the phase, or (hard_too: the hard limit
 * 8 MiB as well) the worker thread and its own large stack are used. */
static void lint_deeper(bool hard_too)
{
    write_long_sum("deeper/deeper.c", 60000);
    const char *script = hard_too ? "ulimit -S -s 8192 && ulimit -H -s 8192 && exec \"$0\" \"$@\""
                                  : "ulimit -S -s 8192 && exec \"$0\" \"$@\"";
    const char *argv[] = {"/bin/sh", "-c", script, EMBERLINT, "--select", LT_RULES, "--no-cache",
                          "-j", "1", "--format", "json", "deeper", NULL};
    tt_run r = tt_exec(tt_dir, argv, NULL);
    assert_string_equal(r.err, "");
    assert_int_equal(r.status, 1);
    json_object *j = tt_json(r.out);
    assert_int_equal(lt_count_rule(j, "EH101"), 1);
    json_object_put(j);
    tt_free(&r);
}

static void test_deep_on_one_worker(void **state)
{
    (void)state;
    lint_deeper(false);
}

static void test_deep_on_one_worker_stack_limited(void **state)
{
    (void)state;
    lint_deeper(true);
}

#define HANG_GUARD_SECONDS 120

/* A tree of the project's macros, 60 a level, each ORing all of the next
 * level's, five levels, FFTW_MEASURE the last leaf: EH102 looks through
 * the project's macros, and read every path again (60^4 bodies for
 * `#if L0_0`, minutes); now each body once (about a second). */
static void test_wide_macro_tree(void **state)
{
    (void)state;
    enum { K = 60, LEVELS = 5 };
    free(tt_write(tt_dir, "tree/.emberlint.json", "{\"exclude\": [\"/include/\"]}\n"));
    free(tt_write(tt_dir, "tree/include/tree.h", ""));
    char *h = tt_path(tt_dir, "tree/include/tree.h");
    FILE *f = fopen(h, "w");
    assert_non_null(f);
    fputs("#include <fftw3.h>\n", f);
    for (int l = 0; l < LEVELS - 1; l++)
        for (int i = 0; i < K; i++) {
            fprintf(f, "#define L%d_%d (", l, i);
            for (int j = 0; j < K; j++)
                fprintf(f, "%sL%d_%d", j ? " | " : "", l + 1, j);
            fputs(")\n", f);
        }
    for (int i = 0; i < K - 1; i++)
        fprintf(f, "#define L%d_%d %du\n", LEVELS - 1, i, i);
    fprintf(f, "#define L%d_%d FFTW_MEASURE\n", LEVELS - 1, K - 1);
    fclose(f);
    free(tt_write(tt_dir, "tree/src/use.c",
                  "#include \"../include/tree.h\"\n"
                  "#if L0_0\n"
                  "unsigned flags(void) { return L3_0; }\n"
                  "unsigned plan_flags(void) { return L3_59; }\n"
                  "#endif\n"));
    const char *argv[] = {"--select", "EH102", "--no-cache", "--format", "json", "tree/src", NULL};
    alarm(HANG_GUARD_SECONDS);
    tt_run r = lt_emberlintv(tt_dir, argv, NULL);
    alarm(0);
    if (r.status != 1)
        print_error("stdout:\n%s\nstderr:\n%s\n", r.out, r.err);
    assert_int_equal(r.status, 1);
    json_object *j = tt_json(r.out);
    assert_int_equal(lt_count_rule(j, "EH102"), 2); /* L3_0 and L3_59 */
    json_object_put(j);
    assert_true(tt_contains(r.out, "use of backend macro 'FFTW_MEASURE' (through macro 'L3_59')"));
    tt_free(&r);
    free(h);
}

static void test_special_files(void **state)
{
    (void)state;
    char *fifo = tt_path(tt_dir, "src/pipe.c");
    assert_int_equal(mkfifo(fifo, 0644), 0);
    tt_run r = lt_lint(tt_dir, "--no-cache", "src", NULL); /* must not block on the FIFO */
    assert_int_equal(r.status, 1);
    assert_true(tt_contains(r.err, "src/pipe.c: not a regular file, skipped"));
    tt_free(&r);
    r = lt_lint(tt_dir, "--no-cache", "src/pipe.c", NULL);
    assert_int_equal(r.status, 2);
    assert_true(tt_contains(r.err, "emberlint: src/pipe.c: not a regular file or directory"));
    tt_free(&r);
    free(fifo);
    /* a directory without C files, a .c directory */
    tt_w("nothing/readme.txt", "hello\n");
    tt_w("odd.c/inner.c", "int inner;\n");
    r = lt_lint(tt_dir, "--no-cache", "nothing", "odd.c", NULL);
    assert_int_equal(r.status, 0);
    tt_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_missing_path, setup, tt_scratch_teardown),
        cmocka_unit_test_setup_teardown(test_unreadable, setup, tt_scratch_teardown),
        cmocka_unit_test_setup_teardown(test_binary_and_empty, setup, tt_scratch_teardown),
        cmocka_unit_test_setup_teardown(test_symlink_loops, setup, tt_scratch_teardown),
        cmocka_unit_test_setup_teardown(test_non_utf8, setup, tt_scratch_teardown),
        cmocka_unit_test_setup_teardown(test_large_and_deep, setup, tt_scratch_teardown),
        cmocka_unit_test_setup_teardown(test_deep_on_one_worker, setup, tt_scratch_teardown),
        cmocka_unit_test_setup_teardown(test_deep_on_one_worker_stack_limited, setup,
                                        tt_scratch_teardown),
        cmocka_unit_test_setup_teardown(test_special_files, setup, tt_scratch_teardown),
        cmocka_unit_test_setup_teardown(test_wide_macro_tree, setup, tt_scratch_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
