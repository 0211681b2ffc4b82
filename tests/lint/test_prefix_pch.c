/* tests/lint/test_prefix_pch.c -- files that start with the same system
 * headers share one precompiled prefix (lint/engine/prefix_pch.h), and
 * nothing a user sees changes: the same findings, fixes and exit status
 * as with --no-pch, on a tree whose system headers (-isystem) are a guarded
 * header with macros and a nested include, an unguarded one, one that
 * includes a backend header, files with errors, with a backend include
 * after the prefix, with a macro before it; forced includes turn it off;
 * no file is left in TMPDIR; and the cache sees the prefix's headers
 * (edited, or shadowed by a new file) as the file's own; a .c file a
 * compile database builds as C++ gets a C++ prefix; and the rule fixtures
 * and this tree lint the same either way.
 *
 * EMBERLINT_PCH=always shares every prefix two files have, however light
 * (the default waits for four files and a prefix of 100 kB of headers:
 * test_default_weighs_the_prefix). */
#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lint_test.h"
#include "prefix_pch.h"
#include "strbuf.h"

static void mkdir_in(const char *rel)
{
    char *p = tt_path(tt_dir, rel);
    assert_int_equal(mkdir(p, 0700), 0);
    free(p);
}

/* ---- the leading includes, read as text ------------------------------------ */

static size_t leading(const char *text, char ***names)
{
    return el_prefix_includes(text, strlen(text), names);
}

static void free_names(char **names, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
}

static void test_leading_includes(void **state)
{
    (void)state;
    char **v = NULL;
    size_t n = leading("/* a file\n * comment */\n\n#include <stdio.h>\n"
                       "  #  include <math.h>  // why\n// between\n#include <sys/stat.h>\r\n"
                       "#include \"own.h\"\n#include <string.h>\n", &v);
    assert_int_equal(n, 3);
    assert_string_equal(v[0], "stdio.h");
    assert_string_equal(v[1], "math.h");
    assert_string_equal(v[2], "sys/stat.h");
    free_names(v, n);

    /* whatever is not an angled include ends the prefix */
    const char *stops[] = {
        "#define _GNU_SOURCE\n#include <stdio.h>\n",
        "#include \"config.h\"\n#include <stdio.h>\n",
        "#include HEADER\n#include <stdio.h>\n",
        "int x;\n#include <stdio.h>\n",
        "#include <stdio.h> int y;\n",
        "#include <std\\\nio.h>\n",
        "/* c */ int z;\n#include <stdio.h>\n",
        "// continued \\\n#include <stdio.h>\n",
        "/* never closed\n#include <stdio.h>\n",
        "#include <>\n",
        "",
    };
    for (size_t i = 0; i < sizeof stops / sizeof *stops; i++) {
        n = leading(stops[i], &v);
        assert_int_equal(n, 0);
        free_names(v, n);
    }
    /* a stop after some keeps those before it */
    n = leading("#include <stdio.h>\n#ifdef X\n#include <math.h>\n#endif\n", &v);
    assert_int_equal(n, 1);
    assert_string_equal(v[0], "stdio.h");
    free_names(v, n);
}

/* The prefix a file was given is checked against the text libclang
 * parsed (the file may have changed since it was read to choose it). */
static void test_text_starts_with(void **state)
{
    (void)state;
    char *names[] = {"stdio.h", "math.h"};
    const char *same = "#include <stdio.h>\n#include <math.h>\n#include <string.h>\nint x;\n";
    assert_true(el_prefix_text_starts_with(same, strlen(same), names, 2));
    assert_true(el_prefix_text_starts_with(same, strlen(same), names, 1));
    const char *edited[] = {
        "#define X 1\n#include <stdio.h>\n#include <math.h>\n",
        "#include <stdio.h>\n",
        "#include <math.h>\n#include <stdio.h>\n",
        "#include <stdio.h>\n#include \"math.h\"\n",
        "",
    };
    for (size_t i = 0; i < sizeof edited / sizeof *edited; i++)
        assert_false(el_prefix_text_starts_with(edited[i], strlen(edited[i]), names, 2));
}

/* ---- the tree ---------------------------------------------------------------- */

#define FRONTEND_BODY(name)                                                                  \
    "double " name "(eh_tensor *t)\n"                                                        \
    "{\n"                                                                                    \
    "    double *v = eh_data_f64(t);\n"                                                      \
    "    double s = 0;\n"                                                                    \
    "    for (int64_t i = 0; i < eh_size(t); i++)\n"                                         \
    "        s += HV_SQ(v[i]) + sqrt(v[i]) + hv_norm(v, (size_t)HV_SCALE);\n"                \
    "    printf(\"%f\\n\", s);\n"                                                            \
    "    return s / 2;\n"                                                                    \
    "}\n"

static void make_tree(void)
{
    tt_w("sys/inner.h", "#ifndef INNER_H\n#define INNER_H\n#define HV_SCALE 3\n#endif\n");
    tt_w("sys/heavy.h", "#ifndef HEAVY_H\n#define HEAVY_H\n#include <math.h>\n#include <stddef.h>\n"
                     "#include <inner.h>\n#define HV_SQ(x) ((x) * (x))\n"
                     "typedef struct hv_pair { double a, b; } hv_pair;\n"
                     "double hv_norm(const double *v, size_t n);\n#endif\n");
    /* no guard: read again when included again, which shows */
    tt_w("sys/loose.h", "#ifdef LOOSE_SEEN\n#define LOOSE_TWICE 1\n#endif\n#define LOOSE_SEEN 1\n");
    tt_w("sys/cblas.h", "#ifndef CBLAS_H\n#define CBLAS_H\n"
                     "void cblas_dscal(int n, double a, double *x, int incx);\n#endif\n");
    tt_w("sys/chain.h", "#ifndef CHAIN_H\n#define CHAIN_H\n#include <cblas.h>\n#endif\n");
#define PLAIN "#include <heavy.h>\n#include <stdio.h>\n#include <eh/eh.h>\n\n"
    tt_w("src/m0.c", "/* m0.c -- frontend code */\n" PLAIN FRONTEND_BODY("m0"));
    tt_w("src/m1.c", "// m1.c\n" PLAIN FRONTEND_BODY("m1"));
    tt_w("src/m2.c", PLAIN FRONTEND_BODY("m2") "#ifdef LOOSE_TWICE\n" FRONTEND_BODY("m2_twice") "#endif\n");
    tt_w("src/loose1.c", "#include <loose.h>\n#include <heavy.h>\n#include <stdio.h>\n#include <eh/eh.h>\n"
                      "#ifdef LOOSE_TWICE\n" FRONTEND_BODY("loose1") "#endif\n");
    tt_w("src/loose2.c", "#include <loose.h>\n#include <heavy.h>\n#include <stdio.h>\n#include <eh/eh.h>\n"
                      FRONTEND_BODY("loose2"));
    tt_w("src/chain1.c", "#include <heavy.h>\n#include <chain.h>\n#include <stdio.h>\n#include <eh/eh.h>\n"
                      FRONTEND_BODY("chain1") "void c1(double *x) { cblas_dscal(4, 2.0, x, 1); }\n");
    tt_w("src/chain2.c", "#include <heavy.h>\n#include <chain.h>\n#include <stdio.h>\n#include <eh/eh.h>\n"
                      FRONTEND_BODY("chain2"));
    tt_w("src/direct.c", "#include <heavy.h>\n#include <stdio.h>\n#include <cblas.h>\n#include <eh/backend_api.h>\n#include <eh/eh.h>\n"
                      "void d(double *x) { cblas_dscal(4, 2.0, x, 1); }\n");
    tt_w("src/broken.c", "#include <heavy.h>\n#include <stdio.h>\n#include <eh/eh.h>\n"
                      FRONTEND_BODY("broken") "int oops(void) { return ; \n");
    /* a linted header the flags make a system header (-isystem src/inc) */
    tt_w("src/inc/proj.h", "#ifndef PROJ_H\n#define PROJ_H\n#include <cblas.h>\n"
                        "static inline void proj_scale(double *x) { cblas_dscal(4, 2.0, x, 1); }\n#endif\n");
    tt_w("src/p1.c", "#include <proj.h>\n#include <heavy.h>\nvoid p1(double *x) { proj_scale(x); }\n");
    tt_w("src/p2.c", "#include <proj.h>\n#include <heavy.h>\nvoid p2(double *x) { proj_scale(x); }\n");
    tt_w("src/macro_first.c", "#define HV_EXTRA 1\n#include <heavy.h>\n#include <stdio.h>\n"
                           "#include <eh/eh.h>\n" FRONTEND_BODY("macro_first"));
    mkdir_in("tmp");
}

/* How the tree's flags find libeh: -I, or -isystem as when installed. */
static bool eh_as_system;

/* emberlint in dir: TMPDIR=dir/tmp, pch "always" or "" (default), extra
 * arguments (NULL-terminated) before `src -- -isystem sys -isystem src/inc
 * -I<libeh>` (and -include after_dashdash). */
static tt_run run_with(const char *pch, const char *const *extra, const char *after_dashdash)
{
    const char *argv[32];
    size_t n = 0;
    argv[n++] = "-v";
    argv[n++] = "--no-cache";
    while (extra && *extra)
        argv[n++] = *extra++;
    argv[n++] = "src";
    argv[n++] = "--";
    argv[n++] = "-isystem";
    argv[n++] = "sys";
    argv[n++] = "-isystem";
    argv[n++] = "src/inc";
    if (eh_as_system) {
        argv[n++] = "-isystem";
        argv[n++] = LINT_SRCDIR "/libeh/include";
    } else {
        argv[n++] = LT_INCLUDE;
    }
    if (after_dashdash) {
        argv[n++] = "-include";
        argv[n++] = after_dashdash;
    }
    argv[n] = NULL;
    char *tmpdir = tt_fmt("TMPDIR=%s/tmp", tt_dir);
    char *mode = tt_fmt("EMBERLINT_PCH=%s", pch);
    const char *env[] = {tmpdir, mode, NULL};
    tt_run r = lt_emberlintv(tt_dir, argv, env);
    free(tmpdir);
    free(mode);
    return r;
}

/* The count of "N translation units read ... from M shared precompiled
 * prefix(es)" in -v's output (0 when the line is not there). */
static unsigned prefixed(const char *err, unsigned *pchs)
{
    const char *p = strstr(err, "emberlint: ");
    unsigned n = 0, m = 0;
    for (; p; p = strstr(p + 1, "emberlint: ")) {
        if (sscanf(p, "emberlint: %u translation units read the system headers they start with "
                      "from %u shared", &n, &m) == 2)
            break;
    }
    if (pchs)
        *pchs = p ? m : 0;
    return p ? n : 0;
}

static bool tmp_empty(void)
{
    char *t = tt_path(tt_dir, "tmp");
    DIR *d = opendir(t);
    free(t);
    assert_non_null(d);
    bool empty = true;
    for (struct dirent *e; (e = readdir(d));)
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
            empty = false;
    closedir(d);
    return empty;
}

static void same_report_as_without(void)
{
    make_tree();
    const char *json[] = {"--format", "json", NULL};
    const char *json_nopch[] = {"--format", "json", "--no-pch", NULL};
    tt_run with = run_with("always", json, NULL);
    tt_run without = run_with("", json_nopch, NULL);
    unsigned pchs = 0;
    /* m0-m2 share <heavy.h> <stdio.h> (<eh/eh.h> ends it), chain1/chain2
     * <heavy.h> <chain.h>; loose1/loose2's prefix is empty (<loose.h> has
     * no guard), p1/p2's too (<proj.h> is linted); direct.c's whole TU is
     * needed for EH101's fix and broken.c's parse has errors: both are
     * linted again without the PCH they share with m0-m2 */
    unsigned n = prefixed(with.err, &pchs);
    assert_int_equal(n, 5);
    assert_int_equal(pchs, 2);
    assert_int_equal(prefixed(without.err, NULL), 0);
    assert_int_equal(with.status, without.status);
    assert_string_equal(with.out, without.out);
    json_object *j = tt_json(with.out);
    assert_true(lt_count_rule(j, "EH000") >= 1);  /* broken.c */
    assert_true(lt_count_rule(j, "EH101") >= 1);  /* direct.c */
    assert_true(lt_count_rule(j, "EH102") >= 3);  /* proj.h, chain1.c, direct.c */
    assert_true(lt_count_rule(j, NULL) >= 12);    /* and the loops' */
    json_object_put(j);
    assert_true(tmp_empty());
    tt_free(&with);
    tt_free(&without);

    /* the fixes too */
    const char *diff[] = {"--diff", "--unsafe-fixes", NULL};
    const char *diff_nopch[] = {"--diff", "--unsafe-fixes", "--no-pch", NULL};
    with = run_with("always", diff, NULL);
    without = run_with("", diff_nopch, NULL);
    assert_int_equal(prefixed(with.err, NULL), 0); /* fixes parse every file in full */
    assert_int_equal(with.status, without.status);
    assert_string_equal(with.out, without.out);
    assert_non_null(strstr(with.out, "+++ "));
    tt_free(&with);
    tt_free(&without);
    assert_true(tmp_empty());
}

static void test_same_report_as_without(void **state)
{
    (void)state;
    eh_as_system = false;
    same_report_as_without();
}

/* <eh/eh.h> installed: a system header, which stays out of the prefix
 * all the same (the rules ask whether the TU includes it). */
static void test_same_report_with_libeh_installed(void **state)
{
    (void)state;
    eh_as_system = true;
    same_report_as_without();
    eh_as_system = false;
}

/* -include puts a file before the file's first line, which the PCH's
 * user would read again after it (an unguarded one, read twice, means
 * something else): none is used. */
static void test_forced_include_turns_it_off(void **state)
{
    (void)state;
    make_tree();
    const char *json[] = {"--format", "json", NULL};
    const char *json_nopch[] = {"--format", "json", "--no-pch", NULL};
    tt_run with = run_with("always", json, "sys/loose.h");
    tt_run without = run_with("", json_nopch, "sys/loose.h");
    assert_int_equal(prefixed(with.err, NULL), 0);
    assert_string_equal(with.out, without.out);
    tt_free(&with);
    tt_free(&without);
    tt_run r = run_with("always", NULL, NULL);
    assert_true(prefixed(r.err, NULL) >= 3);
    tt_free(&r);
}

/* A .c file a compile database builds with a C++ driver is C++ (-x c++):
 * so is its prefix, whatever the file's name says. */
static void test_language_from_the_arguments(void **state)
{
    (void)state;
    tt_w("sys/dual.h", "#ifndef DUAL_H\n#define DUAL_H\n#ifdef __cplusplus\n#define DUAL_CXX 1\n"
                    "#endif\n#endif\n");
    tt_w("sys/heavy.h", "#ifndef HEAVY_H\n#define HEAVY_H\n#include <math.h>\n#include <stddef.h>\n"
                     "#define HV_SQ(x) ((x) * (x))\n#define HV_SCALE 3\n"
                     "double hv_norm(const double *v, size_t n);\n#endif\n");
    for (int i = 0; i < 3; i++) {
        char rel[32];
        snprintf(rel, sizeof rel, "src/c%d.c", i);
        tt_w(rel, "#include <dual.h>\n#include <heavy.h>\n#include <stdio.h>\n#include <eh/eh.h>\n"
               "#ifdef DUAL_CXX\n" FRONTEND_BODY("cxx_only") "#endif\n");
    }
    char *db = tt_fmt("[\n"
                      " {\"directory\": \"%s\", \"file\": \"src/c0.c\", \"command\": \"clang++ -c src/c0.c -isystem sys %s\"},\n"
                      " {\"directory\": \"%s\", \"file\": \"src/c1.c\", \"command\": \"clang++ -c src/c1.c -isystem sys %s\"},\n"
                      " {\"directory\": \"%s\", \"file\": \"src/c2.c\", \"command\": \"clang++ -c src/c2.c -isystem sys %s\"}\n]\n",
                      tt_dir, LT_INCLUDE, tt_dir, LT_INCLUDE, tt_dir, LT_INCLUDE);
    tt_w("build/compile_commands.json", db);
    free(db);
    const char *with_argv[] = {"-v", "--no-cache", "--format", "json", "-p", "build", "src", NULL};
    const char *without_argv[] = {"-v", "--no-cache", "--no-pch", "--format", "json", "-p", "build",
                                  "src", NULL};
    const char *env[] = {"EMBERLINT_PCH=always", NULL};
    tt_run with = lt_emberlintv(tt_dir, with_argv, env);
    tt_run without = lt_emberlintv(tt_dir, without_argv, NULL);
    assert_int_equal(prefixed(with.err, NULL), 3);
    assert_int_equal(with.status, without.status);
    assert_string_equal(with.out, without.out);
    json_object *j = tt_json(with.out);
    assert_true(lt_count_rule(j, NULL) >= 3); /* the C++-only loops */
    json_object_put(j);
    tt_free(&with);
    tt_free(&without);
}

/* The number -v gives of files parsed with a prefix and then again
 * without it (0 when it says nothing). */
static unsigned parsed_again(const char *err)
{
    const char *p = strstr(err, " translation units parsed with a shared prefix were parsed again");
    if (!p)
        return 0;
    while (p > err && p[-1] != ' ')
        p--;
    return (unsigned)strtoul(p, NULL, 10);
}

/* EH101 reads every include of a TU with a backend include, the system
 * headers' too: a file whose own text includes one is parsed without the
 * prefix at once (el_rule.reads_whole_tu), and still counts for the
 * prefix the others share; one whose header does is parsed again, and
 * -v says so.  The report is --no-pch's. */
static void test_whole_tu_parsed_once(void **state)
{
    (void)state;
    const char *lead = "#include <stdio.h>\n#include <stdlib.h>\n";
    char *text = tt_fmt("%s#include <eh/backend_api.h>\nint a(void) { return 0; }\n", lead);
    tt_w("src/a.c", text);
    free(text);
    tt_w("src/front.h", "#include <eh/backend_api.h>\nint front(void);\n");
    text = tt_fmt("%s#include \"front.h\"\nint b(void) { return front(); }\n", lead);
    tt_w("src/b.c", text);
    free(text);
    text = tt_fmt("%sint c(void) { return 0; }\n", lead);
    tt_w("src/c.c", text);
    tt_w("src/d.c", text);
    free(text);
    const char *argv[] = {"-v", "-j", "1", "--no-cache", "--format", "json", "src", "--", LT_INCLUDE, NULL};
    const char *argv_nopch[] = {"-v", "-j", "1", "--no-cache", "--no-pch", "--format", "json", "src",
                                "--", LT_INCLUDE, NULL};
    const char *env[] = {"EMBERLINT_PCH=always", NULL};
    tt_run with = lt_emberlintv(tt_dir, argv, env);
    tt_run without = lt_emberlintv(tt_dir, argv_nopch, NULL);
    assert_int_equal(prefixed(with.err, NULL), 2); /* c.c and d.c */
    assert_int_equal(parsed_again(with.err), 1);   /* b.c, not a.c */
    assert_int_equal(with.status, without.status);
    assert_string_equal(with.out, without.out);
    json_object *j = tt_json(with.out);
    assert_int_equal(lt_count_rule(j, "EH101"), 2);
    json_object_put(j);
    tt_free(&with);
    tt_free(&without);
}

/* A prefix whose headers read one file twice (glibc's <stdio.h> and
 * <stdlib.h> both enter clang's <stddef.h>), on a clean tree: exit 0 and
 * nothing else on stderr -- under `make asan`, LeakSanitizer's report of
 * the prefix's list of files read again (never freed) failed the run. */
static void test_prefix_reading_a_file_twice(void **state)
{
    (void)state;
    for (int i = 0; i < 4; i++) {
        char *rel = tt_fmt("src/f%d.c", i);
        char *text = tt_fmt("#include <stdio.h>\n#include <stdlib.h>\n#include <stddef.h>\n"
                            "int f%d(void) { return 0; }\n", i);
        tt_w(rel, text);
        free(rel);
        free(text);
    }
    const char *argv[] = {"-v", "-j", "1", "--no-cache", "src", NULL};
    const char *env[] = {"EMBERLINT_PCH=always", NULL};
    tt_run r = lt_emberlintv(tt_dir, argv, env);
    assert_int_equal(prefixed(r.err, NULL), 4);
    assert_false(tt_contains(r.err, "Sanitizer"));
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, "");
    tt_free(&r);
}

/* At most 32 PCHs are held at once: with one worker, 34 prefixes whose
 * second files all come after every first file leave the last two
 * unshared, with the same report. */
static void test_held_at_most_32(void **state)
{
    (void)state;
    for (int i = 0; i < 34; i++) {
        char rel[64], text[256];
        snprintf(rel, sizeof rel, "sys/h%02d.h", i);
        snprintf(text, sizeof text, "#ifndef H%02d_H\n#define H%02d_H\nint h%02d(int);\n#endif\n", i, i, i);
        tt_w(rel, text);
        for (char c = 'a'; c <= 'b'; c++) {
            snprintf(rel, sizeof rel, "src/%c%02d.c", c, i);
            snprintf(text, sizeof text, "#include <h%02d.h>\nint %c%02d(int x) { return h%02d(x) / 2; }\n",
                     i, c, i, i);
            tt_w(rel, text);
        }
    }
    const char *argv[] = {"-v", "-j", "1", "--no-cache", "--format", "json", "src", "--",
                          "-isystem", "sys", NULL};
    const char *argv_nopch[] = {"-v", "-j", "1", "--no-cache", "--no-pch", "--format", "json", "src",
                                "--", "-isystem", "sys", NULL};
    const char *env[] = {"EMBERLINT_PCH=always", NULL};
    tt_run with = lt_emberlintv(tt_dir, argv, env);
    tt_run without = lt_emberlintv(tt_dir, argv_nopch, NULL);
    unsigned pchs = 0;
    assert_int_equal(prefixed(with.err, &pchs), 64);
    assert_int_equal(pchs, 32);
    assert_int_equal(with.status, without.status);
    assert_string_equal(with.out, without.out);
    tt_free(&with);
    tt_free(&without);
}

/* A guarded system header of about `bytes` bytes of prototypes. */
static void write_header(const char *rel, const char *guard, size_t bytes)
{
    el_buf b = {0};
    el_buf_printf(&b, "#ifndef %s\n#define %s\n", guard, guard);
    for (size_t i = 0; b.n < bytes; i++)
        el_buf_printf(&b, "double %s_fn%05zu(double x, int n);\n", guard, i);
    el_buf_puts(&b, "#endif\n");
    tt_w(rel, el_buf_str(&b));
    el_buf_free(&b);
}

/* By default a prefix is shared by four files and kept when its headers
 * hold 100 kB: a 105 kB header four files start with is, a 95 kB one is
 * not (its PCH is parsed once and dropped, leaving nothing in TMPDIR),
 * and three files do not share another 105 kB one. */
static void test_default_weighs_the_prefix(void **state)
{
    (void)state;
    mkdir_in("tmp");
    write_header("sys/heavy105.h", "HEAVY105", 105000);
    write_header("sys/light95.h", "LIGHT95", 95000);
    write_header("sys/three105.h", "THREE105", 105000);
    const char *groups[][2] = {{"h", "heavy105"}, {"l", "light95"}};
    for (size_t g = 0; g < 2; g++) {
        for (int i = 0; i < 4; i++) {
            char *rel = tt_fmt("src/%s%d.c", groups[g][0], i);
            char *text = tt_fmt("#include <%s.h>\nint %s%d(void) { return 0; }\n", groups[g][1],
                                groups[g][0], i);
            tt_w(rel, text);
            free(rel);
            free(text);
        }
    }
    for (int i = 0; i < 3; i++) {
        char *rel = tt_fmt("src/t%d.c", i);
        char *text = tt_fmt("#include <three105.h>\nint t%d;\n", i);
        tt_w(rel, text);
        free(rel);
        free(text);
    }
    const char *argv[] = {"-v", "-j", "1", "--no-cache", "src", "--", "-isystem", "sys", NULL};
    char *tmpdir = tt_fmt("TMPDIR=%s/tmp", tt_dir);
    const char *env[] = {tmpdir, "EMBERLINT_PCH=", NULL}; /* the default, whatever the caller's */
    tt_run r = lt_emberlintv(tt_dir, argv, env);
    free(tmpdir);
    unsigned pchs = 0;
    assert_int_equal(prefixed(r.err, &pchs), 4);
    assert_int_equal(pchs, 1);
    assert_int_equal(r.status, 0);
    tt_free(&r);
    assert_true(tmp_empty());
}

/* The rule fixtures and this tree: the same report (JSON, and SARIF with
 * its fixes), and the same --diff (with which no prefix is shared: its
 * rules look declarations up across the whole TU of nearly every file). */
static void same_on(const char *cwd, const char *const *paths_and_args)
{
    const char *json[32] = {"-v", "--no-cache", "--format", "json"};
    const char *sarif[32] = {"-v", "--no-cache", "--format", "sarif"};
    const char *diff[32] = {"-v", "--no-cache", "--diff", "--unsafe-fixes"};
    size_t n = 4;
    for (size_t i = 0; paths_and_args[i]; i++, n++)
        json[n] = sarif[n] = diff[n] = paths_and_args[i];
    const char *const *modes[] = {json, sarif, diff};
    for (size_t m = 0; m < 3; m++) {
        const char *argv[34] = {"--no-pch"};
        memcpy(argv + 1, modes[m], (n + 1) * sizeof *argv);
        const char *env[] = {"EMBERLINT_PCH=always", NULL};
        tt_run with = lt_emberlintv(cwd, modes[m], env);
        tt_run without = lt_emberlintv(cwd, argv, NULL);
        if (m < 2)
            assert_true(prefixed(with.err, NULL) > 0);
        else /* --diff parses every file in full */
            assert_int_equal(prefixed(with.err, NULL), 0);
        assert_int_equal(with.status, without.status);
        assert_string_equal(with.out, without.out);
        tt_free(&with);
        tt_free(&without);
    }
}

static void test_same_on_fixtures_and_tree(void **state)
{
    (void)state;
    const char *fixtures[] = {"tests/lint/fixtures", "--", "-Ilibeh/include", NULL};
    same_on(LINT_SRCDIR, fixtures);
    const char *tree[] = {"libeh", "examples", "backends", "tools", "--", "-Ilibeh/include",
                          "-D_POSIX_C_SOURCE=200809L", NULL};
    same_on(LINT_SRCDIR, tree);
}

/* ---- the cache ----------------------------------------------------------------- */

static tt_run cached_run(void)
{
    const char *argv[] = {"-v", "--cache-dir", "cache", "--format", "json", "src", "--",
                          "-isystem", "sys2", "-isystem", "sys", "-isystem", "src/inc",
                          LT_INCLUDE, NULL};
    char *tmpdir = tt_fmt("TMPDIR=%s/tmp", tt_dir);
    const char *env[] = {tmpdir, "EMBERLINT_PCH=always", NULL};
    tt_run r = lt_emberlintv(tt_dir, argv, env);
    free(tmpdir);
    return r;
}

static unsigned from_cache(const char *err)
{
    const char *p = strstr(err, " files, ");
    unsigned tus = 0, cached = 0;
    assert_non_null(p);
    assert_int_equal(sscanf(p, " files, %u translation units (%u from the cache)", &tus, &cached), 2);
    return cached;
}

/* <inner.h> is read only inside the prefix: the files that took the
 * prefix from the PCH depend on it all the same. */
static void test_cache_sees_prefix_headers(void **state)
{
    (void)state;
    make_tree();
    mkdir_in("sys2");
    tt_run cold = cached_run();
    assert_true(prefixed(cold.err, NULL) >= 3);
    tt_run warm = cached_run();
    assert_int_equal(from_cache(warm.err), 12);
    assert_string_equal(warm.out, cold.out);
    tt_free(&warm);

    /* an edit of the prefix's nested header: nothing is current */
    tt_w("sys/inner.h", "#ifndef INNER_H\n#define INNER_H\n#define HV_SCALE 4\n#endif\n");
    tt_run edited = cached_run();
    assert_int_equal(from_cache(edited.err), 0);
    tt_free(&edited);
    edited = cached_run();
    assert_int_equal(from_cache(edited.err), 12);
    tt_free(&edited);

    /* a new header where the prefix's include search looked first */
    tt_w("sys2/inner.h", "#ifndef INNER_H\n#define INNER_H\n#define HV_SCALE 5\n#endif\n");
    tt_run shadowed = cached_run();
    assert_int_equal(from_cache(shadowed.err), 0);
    tt_free(&shadowed);
    tt_free(&cold);
    assert_true(tmp_empty());
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_leading_includes),
        cmocka_unit_test(test_text_starts_with),
        tt_scratch_test(test_same_report_as_without),
        tt_scratch_test(test_same_report_with_libeh_installed),
        tt_scratch_test(test_forced_include_turns_it_off),
        tt_scratch_test(test_language_from_the_arguments),
        cmocka_unit_test(test_same_on_fixtures_and_tree),
        tt_scratch_test(test_held_at_most_32),
        tt_scratch_test(test_default_weighs_the_prefix),
        tt_scratch_test(test_prefix_reading_a_file_twice),
        tt_scratch_test(test_whole_tu_parsed_once),
        tt_scratch_test(test_cache_sees_prefix_headers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
