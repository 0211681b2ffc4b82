/* tests/lint/test_engine.c -- the engine: -j N gives the same output as
 * -j 1; compile_commands.json (-p) and arguments after `--`; default
 * flags (<stddef.h>, libeh's headers found in the tree); headers linted
 * alone when no .c includes them; a .c template its includer skips not
 * blamed for failing alone; deterministic order; the macro table fed by
 * the engine's walk. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "finding.h"
#include "finding_alternatives.h"
#include "lint_test.h"
#include "mem.h"
#include "sources.h"
#include "unbuilt.h"

static void test_jobs_identical_output(void **state)
{
    (void)state;
    const char *formats[] = {"json", "text", "sarif"};
    for (size_t f = 0; f < 3; f++) {
        tt_run one = lt_lint(NULL, "--no-cache", "-j", "1", "--format", formats[f],
                                  "tests/lint/fixtures", NULL);
        tt_run two = lt_lint(NULL, "--no-cache", "-j2", "--format", formats[f],
                                  "tests/lint/fixtures", NULL);
        tt_run many = lt_lint(NULL, "--no-cache", "--jobs=7", "--format", formats[f],
                                   "tests/lint/fixtures", NULL);
        assert_int_equal(one.status, 1);
        assert_true(strlen(one.out) > 100);
        assert_string_equal(one.out, two.out);
        assert_string_equal(one.out, many.out);
        assert_int_equal(one.status, two.status);
        tt_free(&one);
        tt_free(&two);
        tt_free(&many);
    }
}

static void test_sorted_by_file_line_rule(void **state)
{
    (void)state;
    tt_run r = lt_emberlint(NULL, "--no-cache", "--format", "json", "tests/lint/fixtures", NULL);
    json_object *j = tt_json(r.out);
    json_object *f = tt_get(j, "findings");
    for (size_t i = 1; i < json_object_array_length(f); i++) {
        json_object *a = json_object_array_get_idx(f, i - 1), *b = json_object_array_get_idx(f, i);
        int c = strcmp(json_object_get_string(tt_get(a, "file")), json_object_get_string(tt_get(b, "file")));
        if (c == 0)
            c = json_object_get_int(tt_get(a, "line")) - json_object_get_int(tt_get(b, "line"));
        assert_true(c <= 0);
    }
    json_object_put(j);
    tt_free(&r);
}

/* A gcc build's flags that libclang 14 refuses would stop every file's
 * parse (one EH000 each, and no other finding): gcc-only -m options
 * (-mindirect-branch=, -mpreferred-stack-boundary=, -mrecord-mcount, an
 * -m of another target) are dropped, with a note under -v; -m options it
 * knows stay (-mavx2 defines __AVX2__); -std=c23/gnu23/c++23 are given
 * under the names libclang 14 knows (c2x, gnu2x, c++2b). */
static void test_gcc_only_flags(void **state)
{
    (void)state;
    tt_w("src/a.c", "#ifndef __AVX2__\n#error want -mavx2\n#endif\n#include <cblas.h>\n");
    tt_w("src/b.c", "#if __STDC_VERSION__ <= 201710L\n#error want C2x\n#endif\n#include <cblas.h>\n");
    tt_w("src/c.cc", "#if __cplusplus <= 202002L\n#error want C++2b\n#endif\n#include <cblas.h>\n");
    char *db = tt_fmt("[{\"directory\": \"%s/src\", \"file\": \"a.c\", \"command\": \"gcc -c -mavx2 "
                      "-mindirect-branch=thunk-extern -mfunction-return=thunk-extern "
                      "-mpreferred-stack-boundary=3 -mrecord-mcount -mno-plt -mrtd -march=armv8-a a.c\"},\n"
                      " {\"directory\": \"%s/src\", \"file\": \"b.c\", \"command\": \"gcc -c -std=gnu23 "
                      "b.c\"},\n"
                      " {\"directory\": \"%s/src\", \"file\": \"c.cc\", \"command\": \"g++ -c -std=c++23 "
                      "c.cc\"}]\n", tt_dir, tt_dir, tt_dir);
    tt_w("build/compile_commands.json", db);
    free(db);
    tt_run r = lt_lint(tt_dir, "-v", "--no-cache", "--format", "json", "-p", "build", NULL);
    json_object *j = tt_json(r.out);
    assert_int_equal(lt_count_rule(j, "EH000"), 0);
    assert_int_equal(lt_count_rule(j, "EH101"), 3);
    json_object_put(j);
    const char *gone[] = {"-mindirect-branch=thunk-extern", "-mfunction-return=thunk-extern",
                          "-mpreferred-stack-boundary=3", "-mrecord-mcount", "-mno-plt", "-mrtd",
                          "-march=armv8-a"};
    for (size_t i = 0; i < sizeof gone / sizeof *gone; i++) {
        char *note = tt_fmt("compiler argument '%s' dropped", gone[i]);
        assert_true(tt_contains(r.err, note));
        free(note);
    }
    assert_false(tt_contains(r.err, "'-mavx2' dropped"));
    tt_free(&r);
    /* without -v: only the CPU choice, whose macros are lost, is said */
    r = lt_lint(tt_dir, "--no-cache", "-p", "build", NULL);
    assert_true(tt_contains(r.err, "warning: src/a.c: compiler argument '-march=armv8-a' dropped: "
                                   "libclang refuses it (a CPU it does not know, or another "
                                   "target's), so the macros it defines"));
    assert_true(tt_contains(r.err, "are not set and code under them is not linted: give a CPU"));
    assert_false(tt_contains(r.err, "'-mrtd' dropped"));
    tt_free(&r);
}

/* A compile_commands.json made in another checkout (a container's path,
 * another clone) lists none of the files here: every source would be
 * "not built" and go unlinted.  A warning says what is wrong; a database
 * of this tree that does not build the files linted (tests/ not built)
 * gives none, also run from a subdirectory it builds nothing of. */
static void test_database_of_another_checkout(void **state)
{
    (void)state;
    char *other = tt_tmpdir();
    free(tt_write(other, "src/a.c", "int a;\n"));
    tt_w("src/a.c", "#include <cblas.h>\n");
    tt_w("src/b.c", "int b;\n");
    tt_w("tests/t.c", "int t;\n");
    char *db = tt_fmt("[{\"directory\": \"%s/src\", \"file\": \"a.c\", \"command\": \"cc -c a.c\"}]",
                      other);
    tt_w("elsewhere/compile_commands.json", db);
    free(db);
    db = tt_fmt("[{\"directory\": \"%s/src\", \"file\": \"a.c\", \"command\": \"cc -c a.c\"}]", tt_dir);
    tt_w("build/compile_commands.json", db);
    free(db);
    tt_run r = lt_lint(tt_dir, "--no-cache", "-p", "elsewhere", "src", NULL);
    assert_true(tt_contains(r.err, "emberlint: warning: compile_commands.json lists none of the 2 source "
                                   "files under the paths, but other files ("));
    assert_true(tt_contains(r.err, "was it generated in another checkout or directory?"));
    tt_free(&r);
    r = lt_lint(tt_dir, "--no-cache", "-p", "build", "tests", NULL);
    assert_int_equal(r.status, 0);
    assert_false(tt_contains(r.err, "another checkout"));
    assert_true(tt_contains(r.err, "1 source file under the paths is not in compile_commands.json"));
    tt_free(&r);
    /* nor from a subdirectory it builds nothing of: the tree is the one
     * holding both it and the database (the git work tree, when there is
     * one) */
    char *sub = tt_path(tt_dir, "tests");
    r = lt_lint(sub, "--no-cache", "-p", "../build", ".", NULL);
    assert_false(tt_contains(r.err, "another checkout"));
    assert_true(tt_contains(r.err, "1 source file under the paths is not in compile_commands.json"));
    tt_free(&r);
    tt_w(".git/HEAD", "ref: refs/heads/main\n");
    r = lt_lint(sub, "--no-cache", "-p", "../build", ".", NULL);
    assert_false(tt_contains(r.err, "another checkout"));
    tt_free(&r);
    /* the other checkout's database, from there: still said */
    r = lt_lint(sub, "--no-cache", "-p", "../elsewhere", ".", NULL);
    assert_true(tt_contains(r.err, "was it generated in another checkout or directory?"));
    tt_free(&r);
    free(sub);
    tt_rmtree(other);
    free(other);
}

/* Response files (@FILE) in compile_commands.json, as CMake's Makefile
 * generator writes them with CMAKE_C_USE_RESPONSE_FILE_FOR_INCLUDES
 * ("command": "cc -DQ=... @CMakeFiles/p.dir/includes_C.rsp -o ... -c
 * a.c"): read as gcc reads them -- quotes, backslash escapes, relative
 * names (of the file, of a nested one, of -I) against the entry's
 * directory.  gcc itself compiles the same command first, so the test
 * holds emberlint to the real tool's reading.  One that cannot be read is
 * a warning naming it and its entries. */
static void test_response_files(void **state)
{
    (void)state;
    tt_w("src/a.c", "#include \"i.h\"\n#include \"s.h\"\n#include \"r.h\"\n"
                    "#define STR_(x) #x\n#define STR(x) STR_(x)\n"
                    "_Static_assert(sizeof STR(Q) == sizeof \"x y\", \"single quotes\");\n"
                    "_Static_assert(sizeof STR(C) == sizeof \"a b\", \"backslash\");\n"
                    "_Static_assert(sizeof STR(D) == sizeof \"\\\"d\\\"\", \"escaped quote\");\n"
                    "_Static_assert(N == 7, \"nested response file\");\n"
                    "int a(void) { return I + S + R; }\n");
    tt_w("src/inc/i.h", "#define I 1\n");
    tt_w("src/dir with space/s.h", "#define S 2\n");
    tt_w("src/rel/r.h", "#define R 3\n");
    char *rsp = tt_fmt("-I%s/src/inc -I\"%s/src/dir with space\"\n'-DQ=x  y' -DC=a\\ b\t"
                       "\"-DD=\\\"d\\\"\"\n-I../src/rel @CMakeFiles/p.dir/more.rsp\n", tt_dir, tt_dir);
    tt_w("build/CMakeFiles/p.dir/includes_C.rsp", rsp);
    free(rsp);
    tt_w("build/CMakeFiles/p.dir/more.rsp", "-DN=7\r\n");
    char *db = tt_fmt("[{\"directory\": \"%s/build\", \"file\": \"%s/src/a.c\", \"command\": "
                      "\"/usr/bin/cc -DX=\\\"\\\\\\\"x y\\\\\\\"\\\" @CMakeFiles/p.dir/includes_C.rsp  -o "
                      "CMakeFiles/p.dir/a.c.o -c %s/src/a.c\"}]\n", tt_dir, tt_dir, tt_dir);
    tt_w("build/compile_commands.json", db);
    free(db);
    const char *probe[] = {"sh", "-c", "command -v gcc", NULL};
    tt_run r = tt_exec(NULL, probe, NULL);
    bool have_gcc = r.status == 0;
    tt_free(&r);
    if (have_gcc) {
        char *src = tt_fmt("%s/src/a.c", tt_dir), *bdir = tt_fmt("%s/build", tt_dir);
        const char *gcc[] = {"gcc", "-fsyntax-only", "@CMakeFiles/p.dir/includes_C.rsp", src, NULL};
        r = tt_exec(bdir, gcc, NULL);
        if (r.status != 0)
            fprintf(stderr, "gcc: %s", r.err);
        assert_int_equal(r.status, 0);
        tt_free(&r);
        free(src);
        free(bdir);
    }
    r = lt_lint(tt_dir, "-v", "--no-cache", "--format", "json", "-p", "build", "src", NULL);
    json_object *j = tt_json(r.out);
    assert_int_equal(lt_count_rule(j, "EH000"), 0);
    /* a.c and its three headers */
    assert_int_equal(json_object_get_int(tt_get(tt_get(j, "summary"), "files")), 4);
    json_object_put(j);
    assert_false(tt_contains(r.err, "response file"));
    assert_false(tt_contains(r.err, "dropped"));
    tt_free(&r);

    /* the nested one missing: said once, with the entry; the file is
     * parsed without its arguments (N is not defined) */
    char *gone = tt_path(tt_dir, "build/CMakeFiles/p.dir/more.rsp");
    assert_int_equal(unlink(gone), 0);
    free(gone);
    r = lt_lint(tt_dir, "--no-cache", "--format", "json", "-p", "build", "src", NULL);
    /* (the path relative to the current directory, as every path a run
     * shows) */
    const char *want = "emberlint: warning: build/compile_commands.json: the response file "
                       "@CMakeFiles/p.dir/more.rsp of 1 entry (src/a.c) cannot be read "
                       "(build/CMakeFiles/p.dir/more.rsp: No such file or directory; a file the "
                       "build writes? build first): gcc and clang refuse such a command; the file "
                       "is parsed without its arguments\n";
    assert_true(tt_contains(r.err, want));
    j = tt_json(r.out);
    assert_int_equal(lt_count_rule(j, "EH000"), 1);
    json_object_put(j);
    tt_free(&r);
    /* a directory, and a file that names itself */
    tt_w("build/CMakeFiles/p.dir/more.rsp/x", "");
    tt_w("build/loop.rsp", "-DL @loop.rsp\n");
    db = tt_fmt("[{\"directory\": \"%s/build\", \"file\": \"../src/a.c\", \"arguments\": [\"cc\", "
                "\"@CMakeFiles/p.dir/includes_C.rsp\", \"-c\", \"../src/a.c\"]},\n"
                " {\"directory\": \"%s/build\", \"file\": \"../src/b.c\", \"arguments\": [\"cc\", "
                "\"@loop.rsp\", \"-c\", \"../src/b.c\"]}]\n", tt_dir, tt_dir);
    tt_w("build/compile_commands.json", db);
    free(db);
    tt_w("src/b.c", "int b;\n");
    r = lt_lint(tt_dir, "--no-cache", "-p", "build", "src", NULL);
    assert_true(tt_contains(r.err, "@CMakeFiles/p.dir/more.rsp of 1 entry (src/a.c) cannot be read"));
    assert_true(tt_contains(r.err, "more.rsp: is a directory)"));
    assert_true(tt_contains(r.err, "@loop.rsp of 1 entry (src/b.c) cannot be read"));
    assert_true(tt_contains(r.err, "loop.rsp: it names itself, through the response files it names)"));
    tt_free(&r);
    /* said for the entries of the files linted only: not a.c's when b.c
     * alone is, nor in the shard that does not lint a.c */
    r = lt_lint(tt_dir, "--no-cache", "-p", "build", "src/b.c", NULL);
    assert_false(tt_contains(r.err, "more.rsp"));
    assert_true(tt_contains(r.err, "@loop.rsp of 1 entry (src/b.c) cannot be read (build/loop.rsp: "));
    tt_free(&r);
    size_t told = 0;
    for (int k = 1; k <= 2; k++) {
        char *shard = tt_fmt("%d/2", k);
        r = lt_lint(tt_dir, "--no-cache", "--format", "json", "--shard", shard, "-p", "build", "src",
                    NULL);
        told += tt_contains(r.err, "more.rsp of 1 entry (src/a.c)");
        assert_false(tt_contains(r.err, "more.rsp") && tt_contains(r.err, "loop.rsp"));
        tt_free(&r);
        free(shard);
    }
    assert_int_equal(told, 1);
}

/* -include NAME (and -imacros) is looked for in the entry's directory,
 * then, as gcc and clang do, along the #include "..." chain: libgit2's
 * CMake build gives `-include clar_suite.h -I<build>/tests/libgit2` with
 * the entry's directory <build>.  A name that is in the directory is
 * that file. */
static void test_include_option_searched(void **state)
{
    (void)state;
    tt_w("src/a.c", "#ifndef SUITE\n#error not included\n#endif\n"
                    "#ifndef HERE\n#error not from the directory\n#endif\nint a;\n");
    tt_w("build/tests/suite.h", "#define SUITE 1\n");
    tt_w("build/here.h", "#define HERE 1\n");
    tt_w("src/here.h", "#error the directory's comes first\n");
    char *db = tt_fmt("[{\"directory\": \"%s/build\", \"file\": \"%s/src/a.c\", \"command\": "
                      "\"cc -I%s/build/tests -I%s/src -include suite.h -imacros here.h -c "
                      "%s/src/a.c\"}]\n", tt_dir, tt_dir, tt_dir, tt_dir, tt_dir);
    tt_w("build/compile_commands.json", db);
    free(db);
    tt_run r = lt_lint(tt_dir, "--no-cache", "--format", "json", "-p", "build", "src/a.c", NULL);
    json_object *j = tt_json(r.out);
    assert_int_equal(lt_count_rule(j, "EH000"), 0);
    assert_int_equal(r.status, 0);
    json_object_put(j);
    tt_free(&r);
}

/* A relative -include NAME is gcc's: the entry's directory first, then
 * the #include "..." chain (-iquote, -I, -isystem, -idirafter, relative
 * ones against the entry's directory), passed on absolute -- not left to
 * libclang, which looks in its own working directory (where emberlint
 * runs) before the chain.  gcc compiles each command first. */
static void test_include_option_as_gcc(void **state)
{
    (void)state;
    tt_w("src/a.c", "#ifndef GEN\n#error not from gen\n#endif\n"
                    "#ifndef QUOTE\n#error -iquote comes before -I\n#endif\n"
                    "#ifndef AFTER\n#error not from -idirafter\n#endif\n"
                    "#ifndef HERE\n#error not from the entry's directory\n#endif\nint a;\n");
    tt_w("build/gen/cfg.h", "#define GEN 1\n");
    tt_w("build/q/order.h", "#define QUOTE 1\n");
    tt_w("build/gen/order.h", "#error -I before -iquote\n");
    tt_w("build/late/last.h", "#define AFTER 1\n");
    tt_w("build/here.h", "#define HERE 1\n");
    tt_w("build/gen/here.h", "#error the chain before the entry's directory\n");
    /* same names where emberlint runs: the top and src/ */
    tt_w("cfg.h", "#error from emberlint's directory\n");
    tt_w("order.h", "#error from emberlint's directory\n");
    tt_w("last.h", "#error from emberlint's directory\n");
    tt_w("here.h", "#error from emberlint's directory\n");
    tt_w("src/cfg.h", "#error from emberlint's directory\n");
    tt_w("src/last.h", "#error from emberlint's directory\n");
    const char *cmd = "-Igen -iquote q -idirafter late -include cfg.h -include order.h "
                      "-imacros last.h -include here.h";
    char *db = tt_fmt("[{\"directory\": \"%s/build\", \"file\": \"%s/src/a.c\", \"command\": "
                      "\"gcc %s -c %s/src/a.c\"}]\n", tt_dir, tt_dir, cmd, tt_dir);
    tt_w("build/compile_commands.json", db);
    free(db);
    const char *probe[] = {"sh", "-c", "command -v gcc", NULL};
    tt_run r = tt_exec(NULL, probe, NULL);
    bool have_gcc = r.status == 0;
    tt_free(&r);
    if (have_gcc) {
        char *sh = tt_fmt("gcc -fsyntax-only %s %s/src/a.c", cmd, tt_dir);
        char *bdir = tt_fmt("%s/build", tt_dir);
        const char *gcc[] = {"sh", "-c", sh, NULL};
        r = tt_exec(bdir, gcc, NULL);
        if (r.status != 0)
            fprintf(stderr, "gcc: %s", r.err);
        assert_int_equal(r.status, 0);
        tt_free(&r);
        free(sh);
        free(bdir);
    }
    r = lt_lint(tt_dir, "--no-cache", "--format", "json", "-p", "build", "src", NULL);
    assert_false(tt_contains(r.out, "EH000"));
    assert_int_equal(r.status, 0);
    tt_free(&r);
    char *src = tt_path(tt_dir, "src");
    r = lt_lint(src, "--no-cache", "--format", "json", "-p", "../build", ".", NULL);
    assert_false(tt_contains(r.out, "EH000"));
    assert_int_equal(r.status, 0);
    tt_free(&r);
    free(src);
    /* a name none of them has is passed on as written */
    tt_w("src/a.c", "int a;\n");
    db = tt_fmt("[{\"directory\": \"%s/build\", \"file\": \"%s/src/a.c\", \"command\": "
                "\"gcc -include nowhere.h -c %s/src/a.c\"}]\n", tt_dir, tt_dir, tt_dir);
    tt_w("build/compile_commands.json", db);
    free(db);
    r = lt_lint(tt_dir, "--no-cache", "--format", "json", "-p", "build", "src", NULL);
    assert_true(tt_contains(r.out, "nowhere.h"));
    tt_free(&r);
}

static void test_compile_database(void **state)
{
    (void)state;
    tt_w("src/a.c", "#include \"conf.h\"\n#ifdef USE_BLAS\n#include <cblas.h>\n#endif\nint a = CONF;\n");
    tt_w("src/inc/conf.h", "#define CONF 1\n");
    tt_w("src/only.h", "#ifdef USE_BLAS\n#include <lapacke.h>\n#endif\n");
    char *db = tt_fmt("[{\"directory\": \"%s/src\", \"file\": \"a.c\", \"arguments\": [\"cc\", \"-c\", "
                      "\"-Iinc\", \"-DUSE_BLAS\", \"-Werror\", \"-o\", \"a.o\", \"a.c\"]}]\n", tt_dir);
    tt_w("build/compile_commands.json", db);
    free(db);

    /* without the database: conf.h is not found (EH000), no USE_BLAS */
    tt_run r = lt_lint(tt_dir, "--no-cache", "--format", "json", "src", NULL);
    json_object *j = tt_json(r.out);
    assert_int_equal(lt_count_rule(j, "EH000"), 1);
    assert_int_equal(lt_count_rule(j, "EH101"), 0);
    json_object_put(j);
    tt_free(&r);

    /* with it: a.c's flags; only.h, which no file of the database
     * includes, is not built in this configuration: not linted, one note */
    r = lt_lint(tt_dir, "--no-cache", "--format", "json", "-p", "build", "src", NULL);
    j = tt_json(r.out);
    assert_int_equal(lt_count_rule(j, "EH000"), 0);
    assert_int_equal(lt_count_rule(j, "EH101"), 1);
    assert_true(tt_contains(r.err, "emberlint: 1 header under the paths is included by none of the "
                                   "files compile_commands.json builds"));
    json_object_put(j);
    tt_free(&r);
    /* named on the command line, it is linted, with a.c's entry borrowed */
    r = lt_lint(tt_dir, "--no-cache", "--format", "json", "-p", "build", "src/a.c", "src/only.h", NULL);
    j = tt_json(r.out);
    assert_int_equal(lt_count_rule(j, "EH101"), 2);
    assert_false(tt_contains(r.err, "header under the paths"));
    json_object_put(j);
    tt_free(&r);

    /* -p without PATH lints the database's files and the headers (and .c
     * templates) under the current directory they include (not only.h,
     * which none includes) */
    tt_w("src/inc/conf.h", "#define CONF 1\n#include <fftw3.h>\n");
    tt_w("src/a.c", "#include \"conf.h\"\n#ifdef USE_BLAS\n#include <cblas.h>\n#endif\nint a = CONF;\n"
                    "#include \"tmpl.c\"\n");
    tt_w("src/tmpl.c", "#include <lapacke.h>\n");
    r = lt_lint(tt_dir, "--no-cache", "--format", "json", "-pbuild", NULL);
    j = tt_json(r.out);
    assert_int_equal(lt_count_rule(j, NULL), 3);
    assert_int_equal(json_object_get_int(tt_get(tt_get(j, "summary"), "files")), 3);
    assert_true(tt_contains(r.out, "\"src/inc/conf.h\""));
    assert_true(tt_contains(r.out, "\"src/tmpl.c\""));
    assert_false(tt_contains(r.err, "header under the paths")); /* only.h is not a path here */
    json_object_put(j);
    tt_free(&r);

    /* paths whose source files the database builds none of (the arm/
     * code of an x86 build): their headers are not built either, not
     * parsed alone with a neighbour's flags */
    tt_w("src/arm/neon.c", "#include \"neon.h\"\n");
    tt_w("src/arm/neon.h", "#error this target only\n");
    r = lt_lint(tt_dir, "--no-cache", "--format", "json", "-p", "build", "src/arm", NULL);
    assert_int_equal(r.status, 0);
    assert_true(tt_contains(r.err, "emberlint: 1 source file under the paths is not in compile_commands.json"));
    assert_true(tt_contains(r.err, "emberlint: 1 header under the paths is included by none of the "
                                   "files compile_commands.json builds"));
    tt_free(&r);
    /* a directory of headers alone is linted */
    r = lt_lint(tt_dir, "--no-cache", "--format", "json", "-p", "build", "src/inc", NULL);
    j = tt_json(r.out);
    assert_int_equal(json_object_get_int(tt_get(tt_get(j, "summary"), "files")), 1);
    json_object_put(j);
    tt_free(&r);
    /* decided for each PATH: a directory of headers alone is linted
     * beside ones whose sources the database builds none of (examples/,
     * src/arm/, whose headers stay not built) */
    tt_w("include/pub.h", "#include <cblas.h>\n");
    tt_w("examples/demo.c", "int main(void) { return 0; }\n");
    const char *const alone[][2] = {{"include", "examples"}, {"examples", "include"},
                                    {"include", "src/arm"}};
    for (size_t k = 0; k < sizeof alone / sizeof *alone; k++) {
        r = lt_lint(tt_dir, "--no-cache", "--format", "json", "-p", "build", alone[k][0],
                    alone[k][1], NULL);
        assert_true(tt_contains(r.out, "\"include/pub.h\""));
        assert_false(tt_contains(r.out, "neon.h"));
        tt_free(&r);
    }
    /* beside a PATH whose sources the database builds (src/), or under
     * one (. holds src/a.c; a file under several PATHs belongs to the
     * deepest), a header no built file reads is not built */
    const char *const built[][2] = {{"src", "include"}, {"include", "src"}, {".", "include"},
                                    {"include", "."}, {".", NULL}};
    for (size_t k = 0; k < sizeof built / sizeof *built; k++) {
        r = lt_lint(tt_dir, "--no-cache", "--format", "json", "-p", "build", built[k][0],
                    built[k][1], NULL);
        assert_false(tt_contains(r.out, "include/pub.h"));
        assert_false(tt_contains(r.out, "neon.h"));
        assert_true(tt_contains(r.err, "included by none of the files compile_commands.json builds"));
        tt_free(&r);
    }

    /* a directory without compile_commands.json */
    r = lt_lint(tt_dir, "--no-cache", "-p", "src", "src", NULL);
    assert_int_equal(r.status, 2);
    assert_true(tt_contains(r.err, "emberlint: src/compile_commands.json: No such file or directory"));
    tt_free(&r);
    /* a malformed one */
    tt_w("bad/compile_commands.json", "[{\"directory\": ");
    r = lt_lint(tt_dir, "--no-cache", "-p", "bad", "src", NULL);
    assert_int_equal(r.status, 2);
    assert_true(tt_contains(r.err, "emberlint: bad/compile_commands.json:1:16: unexpected end of file"));
    tt_free(&r);
    /* libclang's reader recursed without bound on this one (fuzz_compdb) */
    tt_w("bad/compile_commands.json", "[{\"directory\":(\"build\", \"file\": \"a.c\",\n"
                                   " \"arguments\": [\"-c\", [[{\"directory\":(]}]]\n");
    r = lt_lint(tt_dir, "--no-cache", "-p", "bad", "src", NULL);
    assert_int_equal(r.status, 2);
    assert_true(tt_contains(r.err, "emberlint: bad/compile_commands.json:1:15: unexpected character"));
    tt_free(&r);
    /* valid JSON, not a compilation database */
    tt_w("bad/compile_commands.json", "[{\"directory\": \"/\", \"command\": \"cc -c a.c\"}]");
    r = lt_lint(tt_dir, "--no-cache", "-p", "bad", "src", NULL);
    assert_int_equal(r.status, 2);
    assert_true(tt_contains(r.err, "compile_commands.json: entry 1: expected a \"file\" string"));
    tt_free(&r);
}

static void test_extra_args(void **state)
{
    (void)state;
    tt_w("src/a.c", "#ifdef USE_BLAS\n#include <cblas.h>\n#endif\nint a;\n");
    tt_run r = lt_lint(tt_dir, "--no-cache", "src", NULL);
    assert_int_equal(r.status, 0);
    tt_free(&r);
    r = lt_lint(tt_dir, "--no-cache", "src", "--", "-DUSE_BLAS", NULL);
    assert_int_equal(r.status, 1);
    assert_true(tt_contains(r.out, "src/a.c:2:1: error:"));
    tt_free(&r);
}

/* libclang 14 shows no statement inside an OpenMP directive, so under
 * -fopenmp a backend call in a parallel loop went unreported: OpenMP is
 * parsed as plain C with the _OPENMP gcc defines, first among the
 * arguments (a -U_OPENMP given before -fopenmp still wins, as in gcc),
 * and clang's own <omp.h> still parses. */
static void test_openmp_regions_linted(void **state)
{
    (void)state;
    tt_w("src/loop.c", "#include <omp.h>\n"
                       "#include <cblas.h>\n"
                       "void f(int n, const double *x, double *y) {\n"
                       "#pragma omp parallel for\n"
                       "    for (int i = 0; i < n; i++)\n"
                       "        cblas_daxpy(n, 2.0, x, 1, y, omp_get_thread_num() + 1);\n"
                       "#pragma omp task\n"
                       "    cblas_dscal(n, 2.0, y, 1);\n"
                       "}\n");
    tt_w("src/gate.c", "#if defined(_OPENMP) && _OPENMP == 201511\n#include <fftw3.h>\n#endif\n"
                       "#ifdef _OPENMP\n#include <lapacke.h>\n#endif\nint g;\n");
    const char *runs[][4] = {
        {"-fopenmp", "-fopenmp-version=50", NULL},        /* both includes, both calls */
        {"-Xpreprocessor", "-fopenmp", NULL},               /* Apple clang's spelling */
        {"-fopenmp", "-fno-openmp", NULL},                  /* off: no include */
        {"-U_OPENMP", "-fopenmp=libomp", NULL},             /* -U after the macro */
        {"-fopenmp-simd", NULL},                            /* defines nothing */
    };
    const int eh101[] = {3, 3, 1, 1, 1};
    for (size_t k = 0; k < sizeof runs / sizeof *runs; k++) {
        tt_run r = lt_emberlint(tt_dir, "--no-cache", "--format", "json", "src", "--", runs[k][0],
                                runs[k][1], runs[k][2], NULL);
        json_object *j = tt_json(r.out);
        assert_int_equal(lt_count_rule(j, "EH000"), 0);
        assert_int_equal(lt_count_rule(j, "EH102"), 2);
        assert_int_equal(lt_count_rule(j, "EH101"), eh101[k]);
        json_object_put(j);
        tt_free(&r);
    }
    /* without clang's <omp.h> (no libomp-14-dev; -nobuiltininc hides it
     * here): EH000 says where it comes from */
    tt_w("src/gate.c", "#include <omp.h>\nint g;\n");
    tt_run r = lt_emberlint(tt_dir, "--no-cache", "src/gate.c", "--", "-fopenmp", "-nobuiltininc",
                            NULL);
    assert_true(tt_contains(r.out, "'omp.h' file not found"));
    assert_true(tt_contains(r.out, "apt-get install libomp-14-dev"));
    tt_free(&r);
}

static void test_default_flags(void **state)
{
    (void)state;
    /* <stddef.h> (clang's own headers) and libeh's headers found by walking
     * up from the file to a libeh/include directory. */
    tt_w("libeh/include/eh/eh.h", "#include <stddef.h>\ntypedef struct eh_tensor eh_tensor;\n");
    tt_w("app/deep/er/main.c", "#include <stddef.h>\n#include <stdint.h>\n#include <eh/eh.h>\n"
                            "size_t n(eh_tensor *t) { return t ? sizeof(int64_t) : 0; }\n"
                            "_Static_assert(__STDC_VERSION__ == 201710L, \"gnu17 by default\");\n"
                            "#include <math.h>\n"
                            "double tau(void) { return 2 * M_PI; } /* hidden by -std=c11 */\n");
    tt_run r = lt_lint(tt_dir, "--no-cache", "app", NULL);
    if (r.status != 0)
        print_error("%s%s", r.out, r.err);
    assert_int_equal(r.status, 0);
    tt_free(&r);
    /* the defaults can be changed after -- */
    r = lt_lint(tt_dir, "--no-cache", "--format", "json", "app", "--", "-std=c99", NULL);
    assert_int_equal(r.status, 1);
    json_object *j = tt_json(r.out);
    assert_int_equal(lt_count_rule(j, "EH000"), 1);
    json_object_put(j);
    tt_free(&r);
}

/* A language named after -- decides, and the default standard follows
 * it: the C default -std=c11 with -x c++ made clang parse nothing. */
static void test_language_after_dashes(void **state)
{
    (void)state;
    tt_w("app/k.c", "class A { public: int x; };\n"
                 "static_assert(__cplusplus == 201703L, \"C++17 by default\");\n"
                 "int main() { A a; a.x = 1; return a.x; }\n");
    tt_w("app/c.c", "_Static_assert(__STDC_VERSION__ == 199901L, \"the standard given\");\n");
    tt_run r = lt_lint(tt_dir, "--no-cache", "app/k.c", "--", "-x", "c++", NULL);
    if (r.status != 0)
        print_error("%s%s", r.out, r.err);
    assert_int_equal(r.status, 0);
    tt_free(&r);
    r = lt_lint(tt_dir, "--no-cache", "app/k.c", "--", "-xc++", "-std=c++20", NULL);
    assert_int_equal(r.status, 1); /* the standard given, not C++17 */
    assert_true(tt_contains(r.out, "C++17 by default"));
    tt_free(&r);
    r = lt_lint(tt_dir, "--no-cache", "app/k.c", NULL); /* .c without -x: C */
    assert_int_equal(r.status, 1);
    assert_true(tt_contains(r.out, "unknown type name 'class'"));
    tt_free(&r);
    r = lt_lint(tt_dir, "--no-cache", "app/c.c", "--", "-std=gnu99", NULL);
    if (r.status != 0)
        print_error("%s%s", r.out, r.err);
    assert_int_equal(r.status, 0);
    tt_free(&r);
    /* over a database entry's -std=c11 too */
    char *db = tt_fmt("[{\"directory\": \"%s\", \"file\": \"app/k.c\", \"arguments\": "
                      "[\"cc\", \"-std=c11\", \"-c\", \"app/k.c\"]}]\n", tt_dir);
    tt_w("build/compile_commands.json", db);
    free(db);
    r = lt_lint(tt_dir, "--no-cache", "-p", "build", "app/k.c", "--", "-x", "c++", NULL);
    if (r.status != 0)
        print_error("%s%s", r.out, r.err);
    assert_int_equal(r.status, 0);
    tt_free(&r);
    /* a C++ standard for C: libclang parses nothing and says only that */
    r = lt_lint(tt_dir, "--no-cache", "app/c.c", "--", "-std=c++17", NULL);
    assert_int_equal(r.status, 1);
    assert_true(tt_contains(r.out, "with these compiler arguments (a -std= or -x"));
    tt_free(&r);
}

static void test_headers(void **state)
{
    (void)state;
    /* alone.h: no .c includes it, so it is parsed on its own */
    tt_w("src/alone.h", "#pragma once\n#include <cblas.h>\n");
    /* used.h is linted through a.c: its finding is reported once */
    tt_w("src/used.h", "#include <fftw3.h>\n");
    tt_w("src/a.c", "#include \"used.h\"\n");
    tt_w("src/b.c", "#include \"used.h\"\n#include \"used.h\"\n");
    tt_run r = lt_lint(tt_dir, "--no-cache", "-v", "src", NULL);
    assert_true(tt_contains(r.out, "src/alone.h:2:1: error:"));
    assert_true(tt_contains(r.out, "src/used.h:1:1: error:"));
    assert_int_equal(strstr(strstr(r.out, "src/used.h"), "\n")[1], '\0'); /* nothing after: once */
    assert_true(tt_contains(r.err, "4 files, 3 translation units"));
    tt_free(&r);
    /* a header of a file outside the linted paths is not reported */
    r = lt_lint(tt_dir, "--no-cache", "src/a.c", NULL);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, "");
    tt_free(&r);
}

/* A .c template its includer skips in this configuration (#ifdef
 * HAVE_NEON) is linted alone, where it lacks what the includer gives it:
 * no EH000 of its own, its other findings kept; a .c file no linted file
 * includes keeps its EH000. */
static void test_template_its_includer_skips(void **state)
{
    (void)state;
    tt_w("src/vec.h", "#include <stddef.h>\nvoid vec_fill(float *x, ptrdiff_t n);\n");
    tt_w("src/vec.c", "#include \"vec.h\"\n#ifdef HAVE_NEON\n#include \"simd/neon.c\"\n#endif\n"
                      "void vec_fill(float *x, ptrdiff_t n) { for (ptrdiff_t i = 0; i < n; i++) x[i] = 0; }\n");
    /* reached by its path under the includer's directory */
    tt_w("src/simd/neon.c", "static void fill_neon(float *x, ptrdiff_t n) { (void)x; (void)n; }\n"
                            "#include <cblas.h>\n");
    /* an #include "sve.c" that does not resolve from the includer's
     * directory names no file of the tree: one elsewhere of that name is
     * not excused */
    tt_w("src/arch/sve.c", "static void fill_sve(float *x, ptrdiff_t n) { (void)x; (void)n; }\n");
    tt_w("src/kernels.c", "#ifdef HAVE_SVE\n#include \"sve.c\"\n#endif\nint kernels(void) { return 0; }\n");
    tt_w("src/broken.c", "static void broken(ptrdiff_t n) { (void)n; }\n");
    tt_run r = lt_lint(tt_dir, "--no-cache", "--format", "json", "src", NULL);
    json_object *j = tt_json(r.out);
    assert_int_equal(lt_count_rule(j, "EH000"), 2);
    assert_true(tt_contains(r.out, "\"src/broken.c\""));
    assert_true(tt_contains(r.out, "\"src/arch/sve.c\""));
    assert_false(tt_contains(r.out, "does not parse: unknown type name 'ptrdiff_t'\", \"file\": \"src/simd"));
    assert_int_equal(lt_count_rule(j, "EH101"), 1); /* neon.c's <cblas.h> */
    assert_true(tt_contains(r.out, "\"src/simd/neon.c\""));
    json_object_put(j);
    tt_free(&r);
    /* -p without PATH: the template a file of the database includes is,
     * as for ember-migrate, a file the database does not build */
    char *db = tt_fmt("[{\"directory\": \"%s\", \"file\": \"src/vec.c\", \"command\": "
                      "\"cc -c src/vec.c\"}]\n", tt_dir);
    tt_w("build/compile_commands.json", db);
    free(db);
    r = lt_lint(tt_dir, "--no-cache", "-pbuild", NULL);
    assert_int_equal(r.status, 0);
    assert_true(tt_contains(r.err, "emberlint: 1 source file under the paths is not in "
                                   "compile_commands.json"));
    tt_free(&r);
    /* a .c file the database builds on its own is no template, whoever
     * includes it: a unit test's #ifdef UNIT_TEST include excuses nothing */
    tt_w("lib/util.c", "int util(void) { return 1 +; }\n");
    tt_w("lib/util_test.c", "#ifdef UNIT_TEST\n#include \"util.c\"\n#endif\nint t(void) { return 0; }\n");
    db = tt_fmt("[{\"directory\": \"%s\", \"file\": \"lib/util.c\", \"command\": \"cc -c lib/util.c\"}]\n",
                tt_dir);
    tt_w("libbuild/compile_commands.json", db);
    free(db);
    r = lt_lint(tt_dir, "--no-cache", "-plibbuild", "lib", NULL);
    assert_int_equal(r.status, 1);
    assert_true(tt_contains(r.out, "lib/util.c:1:28: error: does not parse: expected expression"));
    tt_free(&r);
    /* named alone, nothing includes it: it does not parse */
    r = lt_lint(tt_dir, "--no-cache", "src/simd/neon.c", NULL);
    assert_int_equal(r.status, 1);
    assert_true(tt_contains(r.out, "src/simd/neon.c:1:33: error: does not parse: unknown type name "
                                   "'ptrdiff_t'"));
    tt_free(&r);
}

/* A .c template that fails alone, its header's errors more than clang's
 * default limit (20): its own errors still count, so it is a template that
 * fails alone (no EH000), not a file that lacks what its header needs
 * (GSL's fft/c_main.c, found by running on GSL). */
static void test_template_past_error_limit(void **state)
{
    (void)state;
    char *h = tt_fmt("%s", "");
    for (int i = 0; i < 12; i++) {
        char *x = tt_fmt("%sstatic int FUNCTION(fft, pass_%d) (const BASE in[], const size_t n);\n", h, i);
        free(h);
        h = x;
    }
    tt_w("g/c_pass.h", h);
    free(h);
    tt_w("g/c_main.c", "#include \"c_pass.h\"\nint FUNCTION(fft, forward) (BASE data[], const size_t n) "
                       "{ return FUNCTION(fft, pass_2)(data, n); }\n");
    tt_w("g/c_pass_2.c", "static int FUNCTION(fft, pass_2) (const BASE in[], const size_t n) "
                         "{ return (int)(in[0] + n); }\n");
    tt_w("g/fft.c", "#include <stddef.h>\n#define BASE double\n#define FUNCTION(dir,name) dir ## _ ## name\n"
                    "#include \"c_main.c\"\n#include \"c_pass_2.c\"\n");
    tt_run r = lt_lint(tt_dir, "--no-cache", "g", NULL);
    assert_int_equal(r.status, 0);
    assert_false(tt_contains(r.out, "EH000"));
    tt_free(&r);
}

/* A template included once per element type gives one finding per site,
 * not one per inclusion (torch7's generic/ files: 234 findings for 111
 * sites): the messages differ only in what each inclusion names. */
static void test_template_site_once(void **state)
{
    (void)state;
    tt_w("src/scale.gen.c", "void SCALE_FN(real *x, int n)\n{\n    BLAS_SCAL(n, 2, x, 1);\n}\n");
    tt_w("src/scale.c", "#include <cblas.h>\n"
                        "#define real float\n#define SCALE_FN scale_f\n#define BLAS_SCAL cblas_sscal\n"
                        "#include \"scale.gen.c\"\n"
                        "#undef real\n#undef SCALE_FN\n#undef BLAS_SCAL\n"
                        "#define real double\n#define SCALE_FN scale_d\n#define BLAS_SCAL cblas_dscal\n"
                        "#include \"scale.gen.c\"\n");
    /* and functions of a linted backend file (the project hook's findings) */
    tt_w("backends/blas/kern.c", "void kern_f(float *x) { x[0] = 0; }\nvoid kern_d(double *x) { x[0] = 0; }\n");
    tt_w("src/kern.gen.c", "void KERN_FN(real *x)\n{\n    KERN(x);\n}\n");
    tt_w("src/kern.c", "void kern_f(float *x);\nvoid kern_d(double *x);\n"
                       "#define real float\n#define KERN_FN run_f\n#define KERN kern_f\n"
                       "#include \"kern.gen.c\"\n"
                       "#undef real\n#undef KERN_FN\n#undef KERN\n"
                       "#define real double\n#define KERN_FN run_d\n#define KERN kern_d\n"
                       "#include \"kern.gen.c\"\n");
    /* a macro naming two functions in each inclusion: both stay */
    tt_w("src/both.gen.c", "void BOTH_FN(float *x, double *y)\n{\n    BOTH(x, y);\n}\n");
    tt_w("src/both.c", "#include <cblas.h>\n"
                       "#define BOTH(x, y) (cblas_sscal(1, 2, x, 1), cblas_dscal(1, 2, y, 1))\n"
                       "#define BOTH_FN both_1\n#include \"both.gen.c\"\n#undef BOTH_FN\n"
                       "#define BOTH_FN both_2\n#include \"both.gen.c\"\n");
    tt_run r = lt_lint(tt_dir, "--no-cache", "--select", "EH102", "src", "backends", NULL);
    assert_int_equal(r.status, 1);
    assert_true(tt_contains(r.out, "src/both.gen.c:3:5: error: call to backend function 'cblas_sscal'"));
    assert_true(tt_contains(r.out, "src/both.gen.c:3:5: error: call to backend function 'cblas_dscal'"));
    static const char *const at[] = {"src/scale.gen.c:3:5: error:", "src/kern.gen.c:3:5: error:"};
    for (int k = 0; k < 2; k++) {
        assert_true(tt_contains(r.out, at[k]));
        assert_null(strstr(strstr(r.out, at[k]) + 1, at[k])); /* once */
    }
    tt_free(&r);
}

/* A frontend header included inside a backend file's function body: its
 * code is the header's, not the function's file's (the walk gives a
 * declaration's descendants its file only when no #include is inside). */
static void test_include_inside_function(void **state)
{
    (void)state;
    tt_w("src/body.h", "    cblas_sscal(n, 2, x, 1);\n");
    tt_w("backends/blas/kern.c", "#include <cblas.h>\n"
                                 "void scale(float *x, int n)\n{\n    cblas_sscal(n, 3, x, 1);\n"
                                 "#include \"../../src/body.h\"\n}\n");
    tt_run r = lt_lint(tt_dir, "--no-cache", "--select", "EH102", "src", "backends", NULL);
    assert_int_equal(r.status, 1);
    assert_true(tt_contains(r.out, "src/body.h:1:5: error: call to backend function 'cblas_sscal'"));
    assert_false(tt_contains(r.out, "kern.c"));
    tt_free(&r);
}

/* C++: a default argument's expression, copied from the declaration in
 * an unlinted header onto the definition's parameter, is the header's,
 * not the definition's file's (review: the walk gave a declaration's
 * whole subtree its file in C++ too). */
static void test_cxx_default_argument_elsewhere(void **state)
{
    (void)state;
    tt_w("vendor/api.hpp", "#include <cblas.h>\nconst float *x0();\n"
                           "float f(const float *x, float s = cblas_sdot(4, x0(), 1, x0(), 1));\n");
    tt_w("ops/blas/k.cpp", "#include \"../../vendor/api.hpp\"\n"
                           "float f(const float *x, float s) { return x[0] + s; }\n"
                           "float g(const float *x) { return f(x); }\n");
    tt_run r = lt_emberlint(tt_dir, "--no-cache", "--select", "EH104", "ops/blas/k.cpp", NULL);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, "");
    tt_free(&r);
}

/* Includes that are not found are said once per run, with the remedy;
 * C++'s standard headers in .h files (vendored C++ libraries, liuliu/ccv)
 * say that the files are C++ parsed as C, not that flags are missing. */
static void test_missing_includes_note(void **state)
{
    (void)state;
    tt_w("src/a.c", "#include \"proj/api.h\"\nint a(void) { return 0; }\n");
    tt_w("src/b.c", "#include \"proj/api.h\"\nint b(void) { return 0; }\n");
    tt_run r = lt_lint(tt_dir, "--no-cache", "src", NULL);
    assert_true(tt_contains(r.err, "emberlint: includes not found: 'proj/api.h' (2 files); give the "
                                   "compiler the project's flags: -p BUILD_DIR"));
    assert_false(tt_contains(r.err, "C++"));
    tt_free(&r);
    tt_w("src/vendor/array.h", "#pragma once\n#include <cstddef>\n#include <vector>\n"
                               "template <class T> struct array { T *p; };\n");
    r = lt_lint(tt_dir, "--no-cache", "src", NULL);
    assert_true(tt_contains(r.err, "is C++'s: files that include it are C++ parsed as C"));
    tt_free(&r);
    /* "languages": ["c++"] adds C++ to the built-in C (dlib, a C++
     * library of .h files): the note says how to leave C out, and that
     * way the header is C++ and the note goes */
    tt_w(".emberlint.json", "{\"languages\": [\"c++\"]}\n");
    r = lt_lint(tt_dir, "--no-cache", "src", NULL);
    assert_true(tt_contains(r.err, "is C++'s: files that include it are C++ parsed as C"));
    assert_true(tt_contains(r.err, "\"languages\": {\"replace\": [\"c++\"]} in .emberlint.json "
                                   "parses .h files as C++"));
    tt_free(&r);
    tt_w(".emberlint.json", "{\"languages\": {\"replace\": [\"c++\"]}}\n");
    r = lt_lint(tt_dir, "--no-cache", "src", NULL);
    assert_false(tt_contains(r.err, "parsed as C"));
    assert_false(tt_contains(r.err, "cstddef"));
    tt_free(&r);
    char *cfg = tt_path(tt_dir, ".emberlint.json");
    assert_int_equal(unlink(cfg), 0);
    free(cfg);
    /* a C++ file parsed as C++ that misses a header without an extension
     * (libsvm's svm-toy.cpp: <QtWidgets>) lacks flags, not the language */
    tt_w("toy/toy.cpp", "#include <QtWidgets>\nint t() { return 0; }\n");
    r = lt_lint(tt_dir, "--no-cache", "toy/toy.cpp", NULL);
    assert_true(tt_contains(r.err, "emberlint: includes not found: 'QtWidgets' (1 file); give the "
                                   "compiler the project's flags"));
    assert_false(tt_contains(r.err, "parsed as C"));
    tt_free(&r);
    /* a --target without its system headers: glibc's own bits/ are missing */
    tt_w("src/cross.c", "#include <bits/h1-no-such-libc-header.h>\nint c(void) { return 0; }\n");
    r = lt_lint(tt_dir, "--no-cache", "src/cross.c", NULL);
    assert_true(tt_contains(r.err, "'bits/h1-no-such-libc-header.h' is the C library's own: the "
                                   "system headers of the target parsed for are missing"));
    tt_free(&r);
    /* the project's own asm/ header, written "asm/proj.h", is not the C
     * library's (the fact keeps the delimiter); <asm/...> is */
    tt_w("src/own.c", "#include \"asm/proj.h\"\nint o(void) { return 0; }\n");
    r = lt_lint(tt_dir, "--no-cache", "src/own.c", NULL);
    assert_true(tt_contains(r.err, "emberlint: includes not found: 'asm/proj.h' (1 file); give the "
                                   "compiler the project's flags"));
    assert_false(tt_contains(r.err, "C library's own"));
    tt_free(&r);
    tt_w("src/sys.c", "#include <asm/h1-no-such-kernel-header.h>\nint s(void) { return 0; }\n");
    r = lt_lint(tt_dir, "--no-cache", "src/own.c", "src/sys.c", NULL);
    assert_true(tt_contains(r.err, "'asm/h1-no-such-kernel-header.h' is the C library's own"));
    assert_false(tt_contains(r.err, "'asm/proj.h' is the C library's own"));
    tt_free(&r);
    /* with the build's flags (-p), what is missing is most often what the
     * build generates: "-p BUILD_DIR" would be no advice */
    tt_w("gen/g.c", "#include \"version.h\"\nint g(void) { return 0; }\n");
    char *db = tt_fmt("[{\"directory\": \"%s/gen\", \"file\": \"g.c\", \"command\": \"cc -c g.c\"}]",
                      tt_dir);
    tt_w("build/compile_commands.json", db);
    free(db);
    r = lt_lint(tt_dir, "--no-cache", "-p", "build", "gen", NULL);
    assert_true(tt_contains(r.err, "emberlint: includes not found: 'version.h' (1 file); with "
                                   "compile_commands.json's flags: generated by the build? build first"));
    assert_false(tt_contains(r.err, "-p BUILD_DIR"));
    tt_free(&r);
    /* a source the database does not build, named on the command line
     * (a unit test of a build without tests): parsed with its
     * neighbour's flags, so its own -I is what is missing, not a file the
     * build generates */
    tt_w("gen/unit/t_g.c", "#include \"unit_helpers.h\"\nint t(void) { return 0; }\n");
    r = lt_lint(tt_dir, "--no-cache", "-p", "build", "gen/unit/t_g.c", NULL);
    assert_true(tt_contains(r.err, "emberlint: includes not found: 'unit_helpers.h' (1 file); "
                                   "gen/unit/t_g.c is not in compile_commands.json: it was parsed "
                                   "with the flags of the nearest file the build compiles"));
    assert_false(tt_contains(r.err, "generated by the build?"));
    tt_free(&r);
    /* with a listed file missing its generated header too: counted apart */
    r = lt_lint(tt_dir, "--no-cache", "-p", "build", "gen/g.c", "gen/unit/t_g.c", NULL);
    assert_true(tt_contains(r.err, "with compile_commands.json's flags: generated by the build? "
                                   "build first (or give more directories: -- -I<dir>); "
                                   "gen/unit/t_g.c is not in compile_commands.json"));
    tt_free(&r);
}

/* In a file included more than once: one finding per rule and place
 * when the messages all differ, a fix only when every merged one had it;
 * other files keep theirs, and so do findings that repeat in each
 * inclusion (a macro naming two backend functions). */
static void test_one_finding_per_place(void **state)
{
    (void)state;
    el_findings f = {0};
    el_findings_add(&f, "EH102", EL_SEV_ERROR, "/t/gen.c", 3, 5, "call to 'cblas_sscal'");
    el_findings_add(&f, "EH102", EL_SEV_ERROR, "/t/main.c", 3, 5, "call to 'a'");
    el_findings_add(&f, "EH102", EL_SEV_ERROR, "/t/gen.c", 3, 5, "call to 'cblas_dscal'");
    el_findings_add(&f, "EH201", EL_SEV_ERROR, "/t/gen.c", 3, 5, "another rule, same place");
    el_findings_add(&f, "EH102", EL_SEV_ERROR, "/t/gen.c", 3, 6, "another place");
    el_findings_add(&f, "EH102", EL_SEV_ERROR, "/t/main.c", 3, 5, "call to 'b'");
    /* a macro that names two functions, in both inclusions: all stay */
    for (int k = 0; k < 4; k++)
        el_findings_add(&f, "EH102", EL_SEV_ERROR, "/t/gen.c", 9, 1, k % 2 ? "call to 'x'" : "call to 'y'");
    f.v[2].fix = el_xcalloc(1, sizeof *f.v[2].fix);
    f.v[2].fix->description = el_xstrdup("only one inclusion had it");
    el_findings_one_per_place(&f, "/t/gen.c");
    assert_int_equal(f.n, 9);
    int sscal = 0, dscal = 0, main_c = 0, repeats = 0;
    for (size_t i = 0; i < f.n; i++) {
        const el_finding *x = &f.v[i];
        sscal += strstr(x->message, "cblas_sscal") != NULL;
        if (strstr(x->message, "cblas_dscal")) {
            dscal++; /* the first message in order, its fix gone: not every inclusion had it */
            assert_string_equal(x->message, "call to 'cblas_dscal' (or 'cblas_sscal', where this line "
                                            "is compiled again)");
            assert_null(x->fix);
        }
        main_c += strcmp(x->file, "/t/main.c") == 0;
        repeats += x->line == 9;
    }
    assert_int_equal(sscal, 1); /* named in the kept finding's message */
    assert_int_equal(dscal, 1);
    assert_int_equal(main_c, 2);
    assert_int_equal(repeats, 4);
    el_findings_free(&f);
}

/* Across TUs: of one place's findings, the message every TU gives stays;
 * those only some give are one, the first, naming the others'. */
static void test_one_finding_per_place_across(void **state)
{
    (void)state;
    el_findings f = {0};
    /* TUs 0 and 2 build the real code, TU 1 the complex; each calls xerbla_ */
    const char *msg[6] = {"call to 'dgemm_'", "call to 'zgemm_'", "call to 'dgemm_'",
                          "call to 'xerbla_'", "call to 'xerbla_'", "call to 'xerbla_'"};
    size_t tus[6] = {0, 1, 2, 0, 1, 2};
    for (int i = 0; i < 6; i++)
        el_findings_add(&f, "EH102", EL_SEV_ERROR, "/t/umf.c", 7, 3, msg[i]);
    el_findings_one_per_place_across(&f, tus);
    el_findings_sort_unique(&f);
    assert_int_equal(f.n, 2);
    assert_string_equal(f.v[0].message, "call to 'dgemm_' (or 'zgemm_', where this line is compiled again)");
    assert_string_equal(f.v[1].message, "call to 'xerbla_'");
    el_findings_free(&f);
}

/* The kept message names what the merged ones named in its stead, at the
 * first quoted name where they differ; another kind of message, or the
 * same message, adds nothing; a second merge extends the first's list. */
static void test_message_alternatives(void **state)
{
    (void)state;
    const char *two[] = {"call to 'zgemm_' (through macro 'GEMM')", "call to 'cgemm_' (through macro 'GEMM')"};
    char *m = el_message_with_alternatives("call to 'dgemm_' (through macro 'GEMM')", two, 2);
    assert_string_equal(m, "call to 'dgemm_' (or 'cgemm_', 'zgemm_', where this line is compiled again) "
                           "(through macro 'GEMM')");
    /* merged again (another TU's merge): one list, each name once, the kept one not in it */
    const char *again[] = {"call to 'sgemm_' (or 'dgemm_', 'zgemm_', where this line is compiled again) "
                           "(through macro 'GEMM')"};
    char *m2 = el_message_with_alternatives(m, again, 1);
    assert_string_equal(m2, "call to 'dgemm_' (or 'cgemm_', 'sgemm_', 'zgemm_', where this line is compiled "
                            "again) (through macro 'GEMM')");
    free(m);
    free(m2);
    /* the names differ later in the message: the list goes there */
    const char *later[] = {"'GEMM' calls 'sgemm_'"};
    m = el_message_with_alternatives("'GEMM' calls 'dgemm_'", later, 1);
    assert_string_equal(m, "'GEMM' calls 'dgemm_' (or 'sgemm_', where this line is compiled again)");
    free(m);
    /* another kind of message, the same message, text with a lone quote: nothing */
    const char *other_kind[] = {"address of 'sgemm_' taken", "call to 'dgemm_'", "the TU's call to 'x'"};
    assert_null(el_message_with_alternatives("call to 'dgemm_'", other_kind, 3));
    assert_null(el_message_with_alternatives("no names here", other_kind, 3));
    /* an apostrophe inside a word ("blas's") opens and closes no name */
    const char *possessive[] = {"backend blas's x 'sgemm_'"};
    assert_null(el_message_with_alternatives("backend blas's 'dgemm_'", possessive, 1));
    const char *possessive_same[] = {"backend blas's 'sgemm_'"};
    m = el_message_with_alternatives("backend blas's 'dgemm_'", possessive_same, 1);
    assert_string_equal(m, "backend blas's 'dgemm_' (or 'sgemm_', where this line is compiled again)");
    free(m);
}

/* Across build configurations, a file is left out as not built when no
 * configuration whose sources hold it built it -- also one only a later
 * configuration holds (review). */
static void test_unbuilt_across_configurations(void **state)
{
    (void)state;
    el_source a0[2] = {{.path = "/t/a.c"}, {.path = "/t/b.c"}};
    el_source a1[2] = {{.path = "/t/b.c"}, {.path = "/t/c.c"}};
    el_sources s0 = {.v = a0, .n = 2, .cap = 2}, s1 = {.v = a1, .n = 2, .cap = 2};
    el_unbuilt_across across = {0};
    el_unbuilt left = {0}, out = {0};
    el_unbuilt_add(&left, "/t/b.c", false, false);
    el_unbuilt_across_add(&across, &left, &s0);
    assert_int_equal(left.n, 0);
    el_unbuilt_add(&left, "/t/c.c", false, false);
    el_unbuilt_across_add(&across, &left, &s1);
    el_unbuilt_across_take(&across, &out);
    assert_int_equal(out.n, 1);
    assert_string_equal(out.v[0].path, "/t/c.c"); /* b.c: the second builds it */
    el_unbuilt_free(&out);
}

/* A header written to follow other includes, which a source one directory
 * up includes, is excused when a walk finds it; named on the command line,
 * it is asked about and reported (liuliu/ccv: a vendored C++ header named
 * alone passed as clean), saying it was parsed on its own (xiph/speexdsp:
 * a Blackfin header's asm fails on this machine's target). */
static void test_named_header_is_not_excused(void **state)
{
    (void)state;
    tt_w("inc/sub/needs.h", "size_t needs(void);\n");
    tt_w("inc/user.c", "#include <stddef.h>\n#include \"sub/needs.h\"\n");
    tt_run r = lt_lint(tt_dir, "--no-cache", "inc/sub", NULL);
    assert_int_equal(r.status, 0);
    tt_free(&r);
    r = lt_lint(tt_dir, "--no-cache", "inc/sub/needs.h", NULL);
    assert_int_equal(r.status, 1);
    assert_true(tt_contains(r.out, "inc/sub/needs.h:1:1: error: does not parse: unknown type name "
                                   "'size_t' (parsed on its own: the files that include it do not "
                                   "reach it in this build; lint it through them, with the flags of "
                                   "a build that does)"));
    tt_free(&r);
    /* nothing includes it at all */
    tt_w("inc/sub/alone.h", "size_t alone(void);\n");
    r = lt_lint(tt_dir, "--no-cache", "inc/sub/alone.h", NULL);
    assert_int_equal(r.status, 1);
    assert_true(tt_contains(r.out, "inc/sub/alone.h:1:1: error: does not parse: unknown type name "
                                   "'size_t' (parsed on its own, as no linted source file includes "
                                   "it: give the flags of a build that compiles it, or exclude it)"));
    tt_free(&r);
    /* a header that fails in the source file including it: no such note */
    tt_w("inc/bad.h", "int bad(void) { return missing_name; }\n");
    tt_w("inc/b.c", "#include \"bad.h\"\n");
    r = lt_lint(tt_dir, "--no-cache", "inc/bad.h", "inc/b.c", NULL);
    assert_int_equal(r.status, 1);
    assert_true(tt_contains(r.out, "inc/bad.h:1:24: error: does not parse: use of undeclared "
                                   "identifier 'missing_name' [EH000]"));
    assert_false(tt_contains(r.out, "parsed on its own"));
    tt_free(&r);
}

/* A header that fails on its own is excused by a file beside it that
 * includes it; the files beside it are read, and a FIFO named *.c among
 * them blocked the run for good (no writer ever comes).  The alarm turns
 * a hang into a failure. */
static void test_fifo_beside_failing_header(void **state)
{
    (void)state;
    tt_w("fifo/h.h", "int h(void) { return x; }\n");
    char *fifo = tt_fmt("%s/fifo/p.c", tt_dir);
    assert_int_equal(mkfifo(fifo, 0644), 0);
    free(fifo);
    alarm(120);
    tt_run r = lt_lint(tt_dir, "--no-cache", "fifo/h.h", NULL);
    alarm(0);
    assert_int_equal(r.status, 1);
    assert_true(tt_contains(r.out, "fifo/h.h:1:22: error: does not parse: use of undeclared "
                                   "identifier 'x'"));
    tt_free(&r);
}

/* EH000's hint names a function C declared implicitly only when the
 * error is about its call (its int does not fit), also at a second call
 * (declared at the first); not for an error elsewhere on the call's
 * line.  An x86 intrinsics header in a parse for another target says so
 * (emmintrin.h's name was compared one character short). */
static void test_parse_error_hints(void **state)
{
    (void)state;
    tt_w("h/typo.c", "typedef struct { double x, y; } point;\n"
                     "point make_point(double x, double y);\n"
                     "double d(double a) { point p = make_piont(a, a); return p.x; }\n");
    tt_w("h/second.c", "typedef struct { int v; } box;\n"
                       "int f(int a) { int n = fill_in(a); box b = fill_in(n); return b.v; }\n");
    tt_w("h/libm.c", "#include <math.h>\ntypedef struct { double x, y; } point;\n"
                     "double g(double a) { point p = sin(a); return p.x; }\n");
    tt_w("h/elsewhere.c", "typedef struct { double x, y; } point;\n"
                          "double g(double a) { point p = { a, a }; int r = helper_x(1); point q = r;\n"
                          "  return p.x + q.x; }\n");
    tt_run r = lt_lint(tt_dir, "--no-cache", "h/typo.c", "h/second.c", "h/elsewhere.c",
                       "h/libm.c", NULL);
    assert_int_equal(r.status, 1);
    assert_true(tt_contains(r.out, "'make_piont' is not declared in this configuration (C declared "
                                   "it implicitly, returning int): a misspelled name, a missing "
                                   "#include, or an intrinsic"));
    assert_true(tt_contains(r.out, "'fill_in' is not declared"));
    assert_true(tt_contains(r.out, "h/elsewhere.c:2:"));
    assert_false(tt_contains(r.out, "'helper_x' is not declared"));
    /* declared, by a macro of <math.h>: not implicit */
    assert_true(tt_contains(r.out, "h/libm.c:3:"));
    assert_false(tt_contains(r.out, "'sin' is not declared"));
    tt_free(&r);
    tt_w("h/sse.c", "#include <emmintrin.h>\nint f(void) { return 0; }\n");
    r = lt_lint(tt_dir, "--no-cache", "h/sse.c", "--", "--target=aarch64-linux-gnu", NULL);
    assert_int_equal(r.status, 1);
    assert_true(tt_contains(r.out, "'emmintrin.h' is an intrinsics header for x86 targets and "
                                   "this parse is for aarch64"));
    tt_free(&r);
}

/* A list emptied after it grew (every finding suppressed) gives its
 * storage up when moved: fuzz_cli found the leak. */
static void test_move_empty_list(void **state)
{
    (void)state;
    el_findings src = {0}, dst = {0};
    el_grow(&src.v, &src.cap, 4, sizeof *src.v);
    el_findings_move(&dst, &src);
    assert_null(src.v);
    assert_int_equal(src.cap, 0);
    assert_int_equal(dst.n, 0);
    free(dst.v);
}

/* The engine's walk feeds the macro table the TU's macro definitions
 * (elc_macro_spans_feed_definition), and EH102 looks through the
 * project's macros at its end: no table is read in a walk of its own (-v
 * says when one is).  The answers are the same from a table read in a
 * walk of its own, so only this tells that the walk fed it.  A project
 * macro named like a library's, from a project header not linted, is
 * judged mid-walk, before the feeding is done: that TU still walks. */
#define OWN_WALK "read their macro table in a walk of its own"

static void test_macro_table_fed_by_walk(void **state)
{
    (void)state;
    tt_w(".emberlint.json", "{\"exclude\": [\"/include/\"]}\n");
    tt_w("include/spec.h", "#define SPEC_BIT(n) (1U << (n))\n"
                           "#define FFTW_MINE SPEC_BIT(5)\n");
    tt_w("src/fed.c", "#include <fftw3.h>\n"
                      "#define PLAN_FLAGS (FFTW_ESTIMATE | 1U)\n"
                      "unsigned flags(void) { return PLAN_FLAGS; }\n");
    tt_w("src/mid.c", "#include \"../include/spec.h\"\n"
                      "unsigned mine(void) { return FFTW_MINE; }\n");
    tt_run r = lt_emberlint(tt_dir, "--select", "EH102", "--no-cache", "-v", "-j", "1", "src/fed.c",
                           NULL);
    assert_int_equal(r.status, 1);
    /* the table was asked (PLAN_FLAGS's body: FFTW_ESTIMATE is a macro) */
    assert_true(tt_contains(r.out, "src/fed.c:3:31: error: use of backend macro 'FFTW_ESTIMATE' "
                                   "(through macro 'PLAN_FLAGS') [EH102]"));
    assert_false(tt_contains(r.err, OWN_WALK));
    tt_free(&r);
    r = lt_emberlint(tt_dir, "--select", "EH102", "--no-cache", "-v", "-j", "1", "src/mid.c", NULL);
    assert_int_equal(r.status, 0);
    assert_true(tt_contains(r.err, "emberlint: 1 translation units " OWN_WALK));
    tt_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_jobs_identical_output),
        cmocka_unit_test(test_sorted_by_file_line_rule),
        cmocka_unit_test(test_move_empty_list),
        cmocka_unit_test(test_one_finding_per_place),
        cmocka_unit_test(test_message_alternatives),
        cmocka_unit_test(test_one_finding_per_place_across),
        cmocka_unit_test(test_unbuilt_across_configurations),
        tt_scratch_test(test_named_header_is_not_excused),
        tt_scratch_test(test_fifo_beside_failing_header),
        tt_scratch_test(test_parse_error_hints),
        tt_scratch_test(test_missing_includes_note),
        tt_scratch_test(test_template_site_once),
        tt_scratch_test(test_template_past_error_limit),
        tt_scratch_test(test_include_inside_function),
        tt_scratch_test(test_cxx_default_argument_elsewhere),
        tt_scratch_test(test_compile_database),
        tt_scratch_test(test_response_files),
        tt_scratch_test(test_include_option_searched),
        tt_scratch_test(test_include_option_as_gcc),
        tt_scratch_test(test_gcc_only_flags),
        tt_scratch_test(test_database_of_another_checkout),
        tt_scratch_test(test_extra_args),
        tt_scratch_test(test_default_flags),
        tt_scratch_test(test_openmp_regions_linted),
        tt_scratch_test(test_language_after_dashes),
        tt_scratch_test(test_headers),
        tt_scratch_test(test_template_its_includer_skips),
        tt_scratch_test(test_macro_table_fed_by_walk),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
