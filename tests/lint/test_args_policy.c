/* tests/lint/test_args_policy.c -- compiler arguments are data, never
 * commands: the allow-list (lint/engine/args_policy.h) keeps what only
 * affects parsing and drops the rest, for compile_commands.json entries
 * and arguments after `--`, in emberlint and ember-migrate alike.  The
 * end-to-end tests plant arguments that made libclang write files
 * (dependency files, serialized diagnostics, saved temporaries, time
 * traces) and check that nothing was written and -v says what was
 * dropped. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "args_policy.h"
#include "lint_test.h"
#include "mem.h"
#include "strbuf.h"

/* ember-migrate sits next to emberlint (the Makefile builds it first). */
static char *ember_migrate(void)
{
    const char *slash = strrchr(EMBERLINT, '/');
    return tt_fmt("%.*s/ember-migrate", (int)(slash - EMBERLINT), EMBERLINT);
}

/* Filter a NULL-terminated list; the kept ones joined by '|', the noted
 * ones joined by '|' into *noted (both freed by the caller). */
static char *filter(const char *const *in, char **noted)
{
    size_t n = 0;
    while (in[n])
        n++;
    char **v = el_xcalloc(n + 1, sizeof *v);
    for (size_t i = 0; i < n; i++)
        v[i] = el_xstrdup(in[i]);
    char **notes = NULL;
    size_t nn = 0;
    size_t k = el_args_filter(v, n, &notes, &nn);
    size_t cap = 1;
    for (size_t i = 0; i < k; i++)
        cap += strlen(v[i]) + 1;
    char *out = el_xcalloc(cap, 1);
    for (size_t i = 0; i < k; i++) {
        strcat(out, i ? "|" : "");
        strcat(out, v[i]);
        free(v[i]);
    }
    free(v);
    cap = 1;
    for (size_t i = 0; i < nn; i++)
        cap += strlen(notes[i]) + 1;
    *noted = el_xcalloc(cap, 1);
    for (size_t i = 0; i < nn; i++) {
        strcat(*noted, i ? "|" : "");
        strcat(*noted, notes[i]);
        free(notes[i]);
    }
    free(notes);
    return out;
}

static void check(const char *const *in, const char *want_kept, const char *want_noted)
{
    char *noted;
    char *kept = filter(in, &noted);
    if (strcmp(kept, want_kept) != 0 || strcmp(noted, want_noted) != 0) {
        print_error("kept   '%s'\nwanted '%s'\nnoted  '%s'\nwanted '%s'\n", kept, want_kept, noted,
                    want_noted);
        fail();
    }
    free(kept);
    free(noted);
}

static void test_parsing_arguments_kept(void **state)
{
    (void)state;
    const char *in[] = {"-I", "inc", "-Iinc2", "-isystem", "/sys", "-iquote", "q", "-DA=1", "-D",
                        "B", "-UC", "-std=gnu11", "-x", "c", "--target=x86_64-linux-gnu",
                        "-include", "pre.h", "-Wall", "-Wno-unused", "-Werror=vla",
                        "-fms-extensions", "-fno-builtin", "-fopenmp", "-fPIC", "-mavx2", "-O2",
                        "--sysroot=/sr", "-nostdinc", "-pthread", "-w", NULL};
    check(in, "-I|inc|-Iinc2|-isystem|/sys|-iquote|q|-DA=1|-D|B|-UC|-std=gnu11|-x|c|"
              "--target=x86_64-linux-gnu|-include|pre.h|-Wall|-Wno-unused|-Werror=vla|"
              "-fms-extensions|-fno-builtin|-fopenmp|-fPIC|-mavx2|-O2|--sysroot=/sr|-nostdinc|"
              "-pthread|-w",
          "");
}

static void test_builds_ordinary_outputs_dropped_quietly(void **state)
{
    (void)state;
    const char *in[] = {"-c", "-o", "a.o", "-oa.o", "-MD", "-MMD", "-MP", "-MF", "a.d", "-MT",
                        "a.o", "-g", "-ggdb3", "-pipe", "-ffunction-sections", "-Wl,--as-needed",
                        "--driver-mode=g++", "-DX", NULL};
    check(in, "-DX", "");
}

/* What the issue found passed through to libclang, and its relatives. */
static void test_dangerous_arguments_dropped_with_a_note(void **state)
{
    (void)state;
    const char *in[] = {"-Wp,-MD,/tmp/x.d", "-Wp,-MF,/tmp/y", "--serialize-diagnostics", "/tmp/d",
                        "-save-temps", "-save-temps=obj", "-fprofile-generate",
                        "-fprofile-instr-generate=/tmp/p", "-Xclang", "-load", "-Xclang",
                        "evil.so", "-fplugin=evil.so", "-fpass-plugin=evil.so", "-mllvm",
                        "-stats", "-ftime-trace", "-fmodules", "-fmodules-cache-path=/tmp/m",
                        "-x", "ast", "-include-pch", "x.pch", "@rsp", "-", "stray", "-B", "/bin",
                        "-ivfsoverlay", "o.yaml", "-fsanitize-ignorelist=/dev/zero", "-dM",
                        "-DKEPT", NULL};
    check(in, "-DKEPT",
          "-Wp,-MD,/tmp/x.d|-Wp,-MF,/tmp/y|--serialize-diagnostics /tmp/d|-save-temps|"
          "-save-temps=obj|-fprofile-generate|-fprofile-instr-generate=/tmp/p|-Xclang -load|"
          "-Xclang evil.so|-fplugin=evil.so|-fpass-plugin=evil.so|-mllvm -stats|-ftime-trace|"
          "-fmodules|-fmodules-cache-path=/tmp/m|-x ast|-include-pch x.pch|@rsp|-|stray|-B /bin|"
          "-ivfsoverlay o.yaml|-fsanitize-ignorelist=/dev/zero|-dM");
}

/* Found by tests/fuzz/fuzz_compdb.c: "-mllvm" with bytes after it passed
 * as a target (-m) option. */
static void test_odd_spellings_dropped(void **state)
{
    (void)state;
    const char *in[] = {"-mllvm\xff\xfestats", "-mllvm=-x", "-mavx\x01", "-Wall\xc3", "-f\x7f",
                        "-Xclang", "-I", "-DKEPT", NULL};
    check(in, "-DKEPT",
          "-mllvm\xff\xfestats|-mllvm=-x|-mavx\x01|-Wall\xc3|-f\x7f|-Xclang -I");
}

static void test_value_at_the_end(void **state)
{
    (void)state;
    const char *a[] = {"-DX", "-I", NULL};
    check(a, "-DX", "-I");
    const char *b[] = {"-o", NULL};
    check(b, "", "");
    const char *c[] = {"-Xclang", NULL};
    check(c, "", "-Xclang");
}

/* ---- end to end ------------------------------------------------------------- */

static bool exists(const char *dir, const char *rel)
{
    char *p = tt_path(dir, rel);
    struct stat st;
    bool e = stat(p, &st) == 0;
    free(p);
    return e;
}

/* Arguments that write a file named under out/ when they reach libclang. */
static const char *const writers[] = {
    "-Wp,-MD,%s/out/wp.d", "-MD", "-MF", "%s/out/mf.d", "--serialize-diagnostics",
    "%s/out/diag.bin", "-save-temps=obj", "-o", "%s/out/a.o", "-ftime-trace",
    "-ftime-trace-granularity=0", "-Xclang", "-dependency-file", "-Xclang", "%s/out/x.d",
    "-Xclang", "-MT", "-Xclang", "x",
};

static char *json_args(const char *dir)
{
    el_buf b = {0};
    for (size_t i = 0; i < sizeof writers / sizeof writers[0]; i++) {
        char *a = strchr(writers[i], '%') ? tt_fmt(writers[i], dir) : el_xstrdup(writers[i]);
        el_buf_printf(&b, ", \"%s\"", a);
        free(a);
    }
    return el_buf_take(&b);
}

static void make_tree(const char *dir)
{
    free(tt_write(dir, "src/a.c", "#include \"a.h\"\nint a(void) { return A; }\n"));
    free(tt_write(dir, "src/a.h", "#define A 1\n"));
    free(tt_write(dir, "out/.keep", ""));
    char *args = json_args(dir);
    char *db = tt_fmt("[{\"directory\": \"%s/src\", \"file\": \"a.c\", \"arguments\": [\"cc\", "
                      "\"-c\", \"-DB=2\"%s, \"a.c\"]}]\n",
                      dir, args);
    free(tt_write(dir, "build/compile_commands.json", db));
    free(db);
    free(args);
}

static void assert_nothing_written(const char *dir)
{
    const char *outs[] = {"out/wp.d", "out/mf.d", "out/x.d", "out/diag.bin", "out/a.o", "out/a.json",
                          "src/a.d", "src/a.i", "src/a.json", "a.i", "a.d", "a.json", "a.bc"};
    for (size_t i = 0; i < sizeof outs / sizeof outs[0]; i++) {
        if (exists(dir, outs[i])) {
            print_error("%s was written\n", outs[i]);
            fail();
        }
    }
}

static void test_compile_database_writes_nothing(void **state)
{
    (void)state;
    char *dir = tt_tmpdir();
    make_tree(dir);
    tt_run r = lt_lint(dir, "--no-cache", "-v", "-p", "build", "src", NULL);
    assert_int_equal(r.status, 0);
    assert_nothing_written(dir);
    char *want = tt_fmt("emberlint: note: src/a.c: compiler argument '-Wp,-MD,%s/out/wp.d' dropped",
                        dir);
    assert_true(tt_contains(r.err, want));
    assert_true(tt_contains(r.err, "compiler argument '--serialize-diagnostics "));
    assert_true(tt_contains(r.err, "compiler argument '-ftime-trace' dropped"));
    assert_false(tt_contains(r.err, "'-c'"));
    assert_false(tt_contains(r.err, "'-o "));
    free(want);
    tt_free(&r);
    /* without -v, no notes */
    r = lt_lint(dir, "--no-cache", "-p", "build", "src", NULL);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.err, "");
    tt_free(&r);
    tt_rmtree(dir);
    free(dir);
}

static void test_arguments_after_dashes_write_nothing(void **state)
{
    (void)state;
    char *dir = tt_tmpdir();
    make_tree(dir);
    const char *argv[40] = {"--select", LT_RULES, "--no-cache", "-v", "src", "--"};
    size_t n = 6;
    char *owned[32];
    size_t n_owned = 0;
    for (size_t i = 0; i < sizeof writers / sizeof writers[0]; i++) {
        owned[n_owned] = strchr(writers[i], '%') ? tt_fmt(writers[i], dir) : el_xstrdup(writers[i]);
        argv[n++] = owned[n_owned++];
    }
    argv[n] = NULL;
    tt_run r = lt_emberlintv(dir, argv, NULL);
    assert_int_equal(r.status, 0);
    assert_nothing_written(dir);
    assert_true(tt_contains(r.err, "compiler argument '-save-temps=obj' dropped"));
    tt_free(&r);

    /* ember-migrate takes the same path through the engine */
    char *em = ember_migrate();
    const char *margv[40] = {em, "analyze", "src", "--"};
    n = 4;
    for (size_t i = 0; i < n_owned; i++)
        margv[n++] = owned[i];
    margv[n] = NULL;
    r = tt_exec(dir, margv, NULL);
    assert_int_equal(r.status, 0);
    assert_nothing_written(dir);
    assert_false(tt_contains(r.err, "note:"));
    tt_free(&r);
    margv[2] = "-v"; /* analyze -v src -- ...: the same notes */
    margv[3] = "src";
    margv[4] = "--";
    for (size_t i = 0; i < n_owned; i++)
        margv[5 + i] = owned[i];
    margv[5 + n_owned] = NULL;
    r = tt_exec(dir, margv, NULL);
    assert_int_equal(r.status, 0);
    assert_nothing_written(dir);
    assert_true(tt_contains(r.err, "ember-migrate: note: src/a.c: compiler argument '-save-temps=obj' "
                                   "dropped"));
    tt_free(&r);
    const char *pargv[] = {em, "analyze", "-p", "build", "src", NULL};
    r = tt_exec(dir, pargv, NULL);
    assert_int_equal(r.status, 0);
    assert_nothing_written(dir);
    tt_free(&r);
    for (size_t i = 0; i < n_owned; i++)
        free(owned[i]);
    free(em);
    tt_rmtree(dir);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parsing_arguments_kept),
        cmocka_unit_test(test_builds_ordinary_outputs_dropped_quietly),
        cmocka_unit_test(test_dangerous_arguments_dropped_with_a_note),
        cmocka_unit_test(test_odd_spellings_dropped),
        cmocka_unit_test(test_value_at_the_end),
        cmocka_unit_test(test_compile_database_writes_nothing),
        cmocka_unit_test(test_arguments_after_dashes_write_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
