/* tests/lint/test_bodies.c -- a backend or core C file, where no rule that
 * applies reads what a function does, is parsed without its function
 * bodies (el_rule.needs_no_bodies, docs/emberlint.md "Function bodies no
 * rule reads"), and the report is the one --all-bodies gives:
 *
 * - a backend function defined with a comment between its declarator and
 *   its body, or in K&R style, is still a definition (EH102 reports the
 *   frontend's call);
 * - a core shim handing dgemm_ on to dgemm_64_ is read (EH102's question
 *   about its body parses the file again), so the frontend's dgemm_ call
 *   stays reported;
 * - custom-kernel registrations inside a body, written out or through a
 *   macro, are read (EH105 reports the op one backend lacks);
 * - a frontend header's inline function, included by a backend file
 *   alone, is read (its EH102 finding is there), and so is a frontend
 *   header a backend function includes inside its body;
 * - a function a macro writes whole is a definition (EH102 reports the
 *   frontend's call), X-macro prototypes and a prototype whose attribute
 *   sits under #if are not; where a macro's text leaves it open which of
 *   the functions it writes have bodies (definitions and prototypes or a
 *   table in one use, a declaration the use leaves open: `M(f);` after a
 *   body, `M(f) {` after prototypes), libclang's indexer answers;
 * - a body opened by a macro (`BEGIN ... END`) or holding a suppression
 *   comment (EH001 judges it by what the body has) is parsed;
 * - C++ files, --fix, and a configuration that makes a rule that reads
 *   bodies apply to backends, parse every body;
 * - which files go without bodies depends on them alone (not on the
 *   rest of the run); -v suggests --all-bodies when most need them;
 * - the one difference: EH000 sees an error inside a skipped body only
 *   with --all-bodies.
 * The rule fixtures and this project's tree lint the same either way. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lint_test.h"

#define SYS_CBLAS                                                                               \
    "#ifndef CBLAS_H\n#define CBLAS_H\n"                                                        \
    "void cblas_dscal(int n, double a, double *x, int incx);\n#endif\n"

static void make_tree(void)
{
    tt_w(".emberlint.json", "{\"core_paths\": [\"/core/\"]}\n");
    tt_w("sys/cblas.h", SYS_CBLAS);
    tt_w("inc/api.h", "#ifndef API_H\n#define API_H\n"
                      "void helper_scale(double *x, int n);\n"
                      "void dgemm_(const int *n, double *a);\n"
                      "void dgemm_64_(const long *n, double *a);\n"
                      "void k_made(double *x);\n"
                      "void k_table(double *x);\n"
                      "int k_s(double);\nint k_t(double);\nint k_p(double);\nint k_o(double);\n"
                      "int k_u(double);\nint k_v(double);\n"
                      "void helper_old();\n#endif\n");
    /* a definition with a comment before its body; a K&R one */
    tt_w("backends/blas/helper.c", "#include \"../../inc/api.h\"\n"
                                   "void helper_scale(double *x, int n)\n"
                                   "/* doubles them; { not a body } */\n"
                                   "{\n    for (int i = 0; i < n; i++)\n        x[i] *= 2;\n}\n"
                                   "void helper_old(x, n)\ndouble *x;\nint n;\n{\n    x[0] = n;\n}\n");
    /* a core shim onto the ILP64 build */
    tt_w("core/shim.c", "#include \"../inc/api.h\"\n"
                        "void dgemm_(const int *n, double *a)\n"
                        "{\n    long n64 = *n;\n    dgemm_64_(&n64, a);\n}\n");
    tt_w("src/user.c", "#include \"../inc/api.h\"\n"
                       "void use(double *x)\n{\n    int n = 4;\n    helper_scale(x, n);\n"
                       "    dgemm_(&n, x);\n    k_made(x);\n    helper_old(x, n);\n    k_table(x);\n"
                       "    (void)(k_s(1) + k_t(1) + k_p(1) + k_o(1) + k_u(1) + k_v(1));\n}\n");
    /* custom kernels, registered inside bodies */
    tt_w("backends/blas/custom.c",
         "#include <eh/backend_api.h>\n"
         "static eh_status k1(const eh_op_call *c) { (void)c; return EH_OK; }\n"
         "static eh_status k2(const eh_op_call *c) { (void)c; return EH_OK; }\n"
         "void blas_custom_init(void)\n{\n"
         "    eh_custom_op_kernel(\"myop\", \"blas\", k1);\n"
         "    eh_custom_op_kernel(\"other\", \"blas\", k2);\n}\n");
    /* a call whose op is known only at run time records nothing: no need */
    tt_w("core/loop.c", "#include <eh/backend_api.h>\n"
                        "eh_status reg_all(const eh_custom_kernel *ks, int n)\n{\n"
                        "    for (int k = 0; k < n; k++)\n"
                        "        eh_custom_op_kernel(ks[k].op, ks[k].backend, ks[k].kernel);\n"
                        "    return EH_OK;\n}\n");
    tt_w("backends/ref/custom.c",
         "#include <eh/backend_api.h>\n"
         "#define REGISTER(op, k) eh_custom_op_kernel(op, \"ref\", k)\n"
         "#define REG(op) REGISTER(op, kr)\n"
         "static eh_status kr(const eh_op_call *c) { (void)c; return EH_OK; }\n"
         "void ref_custom_init(void)\n{\n    REG(\"myop\");\n}\n");
    /* a frontend header with an inline function, included by a backend file alone */
    tt_w("inc/inline_only.h", "#ifndef INLINE_ONLY_H\n#define INLINE_ONLY_H\n"
                              "void cblas_dscal(int n, double a, double *x, int incx);\n"
                              "static inline void io_scale(double *x) { cblas_dscal(4, 2.0, x, 1); }\n"
                              "#endif\n");
    tt_w("backends/blas/uses_inline.c", "#include \"../../inc/inline_only.h\"\n"
                                        "void uses_inline(double *x) { io_scale(x); }\n");
    tt_w("inc/piece.h", "    cblas_dscal(4, 2.0, x, 1);\n");
    tt_w("backends/blas/splice.c", "#include <cblas.h>\nvoid splice(double *x)\n{\n"
                                   "#include \"../../inc/piece.h\"\n}\n");
    /* a function a macro writes whole; X-macro prototypes; #if before an attribute */
    tt_w("backends/blas/gen.c", "#include \"../../inc/api.h\"\n"
                                "#define BODY(x) do { x[0] = 1; } while (0);\n"
                                "#define DEF(n) void n(double *x) { BODY(x) }\nDEF(k_made)\n");
    tt_w("backends/ref/both.c", "#define PAIR(n) void n##_decl(void); void n(void) { }\nPAIR(k_b)\n");
    /* macros whose text leaves open which functions have bodies (libclang's
     * indexer answers): definitions and a table of them; a prototype after
     * a type, after a table, or beside a table in one declaration; a
     * prototype closed after the use (by `;` or `,`), past a body; a body
     * after the use, past prototypes */
    tt_w("backends/blas/table.c",
         "#define SET(n) void n(double *x) { x[0] = 1; } "
         "static void (*const n##_tab[])(double *) = {n, n};\nSET(k_table)\n");
    tt_w("backends/ref/open.c",
         "#define AFTER_TYPE(n) struct n##_args { double x; }; int n(double)\nAFTER_TYPE(k_s);\n"
         "#define AFTER_TABLE(n) static const int n##_ids[] = {1, 2}; int n(double)\n"
         "AFTER_TABLE(k_t);\n"
         "#define BESIDE(n) int n(double), n##_tab[] = {1, 2};\nBESIDE(k_p)\n"
         "#define PAST_BODY(n) void n##_impl(void) {} int n(double)\nPAST_BODY(k_o);\n"
         "PAST_BODY(k_v), k_v2(double);\n");
    tt_w("backends/ref/later.c", "#include <eh/backend_api.h>\n"
                                 "static eh_status kl(const eh_op_call *c) { (void)c; return EH_OK; }\n"
                                 "#define PROTOS(n) int n##_a(void); int n(double x)\n"
                                 "PROTOS(k_u) {\n    eh_custom_op_kernel(\"later\", \"ref\", kl);\n"
                                 "    return (int)x;\n}\n");
    /* bodies in the macro and one after its use: which is the function's? */
    tt_w("backends/blas/late.c", "#include <eh/backend_api.h>\n"
                                 "#define HEAD(n) static eh_status n##_k(const eh_op_call *c) "
                                 "{ (void)c; return EH_OK; } void n(void)\n"
                                 "HEAD(late_init) { eh_custom_op_kernel(\"late\", \"blas\", late_init_k); }\n");
    tt_w("backends/ref/proto.c",
         "#define LIST(X) X(p_one) X(p_two)\n#define PROTO(n) void n(double *x);\n"
         "LIST(PROTO)\n#undef PROTO\n"
         "int p_fmt(const char *f, ...)\n#if defined(__GNUC__)\n"
         "    __attribute__((format(printf, 1, 2)))\n#endif\n    ;\n"
         "void p_one(double *x)\n{\n    x[0] = 0;\n}\n");
}

/* emberlint -v --no-cache --format json [extra] backends core src inc --
 * -isystem sys -I<libeh> (sys/ holds the system headers: not linted) */
static tt_run run(const char *extra1, const char *extra2)
{
    const char *argv[16];
    size_t n = 0;
    argv[n++] = "-v";
    argv[n++] = "--no-cache";
    argv[n++] = "--format";
    argv[n++] = "json";
    if (extra1)
        argv[n++] = extra1;
    if (extra2)
        argv[n++] = extra2;
    argv[n++] = "backends";
    argv[n++] = "core";
    argv[n++] = "src";
    argv[n++] = "inc";
    argv[n++] = "--";
    argv[n++] = "-isystem";
    argv[n++] = "sys";
    argv[n++] = LT_INCLUDE;
    argv[n] = NULL;
    return lt_emberlintv(tt_dir, argv, NULL);
}

/* "N translation units ... without the function bodies ... (M again ...)"
 * of -v (0 and 0 when the line is not there). */
static unsigned bodiless(const char *err, unsigned *again)
{
    unsigned n = 0, m = 0;
    const char *p = strstr(err, "emberlint: ");
    for (; p; p = strstr(p + 1, "emberlint: "))
        if (sscanf(p, "emberlint: %u translation units of backend and core files were parsed "
                      "without the function bodies no rule reads (%u again",
                   &n, &m) == 2)
            break;
    *again = p ? m : 0;
    return p ? n : 0;
}

/* Does the JSON report have a finding of rule at path (relative) with
 * `needle` in its message? */
static bool has_finding(const char *out, const char *rule, const char *path, const char *needle)
{
    json_object *report = tt_json(out);
    json_object *fs = tt_get(report, "findings");
    bool found = false;
    for (size_t i = 0; fs && i < json_object_array_length(fs) && !found; i++) {
        json_object *f = json_object_array_get_idx(fs, i);
        const char *r = json_object_get_string(tt_get(f, "rule"));
        const char *file = json_object_get_string(tt_get(f, "file"));
        const char *msg = json_object_get_string(tt_get(f, "message"));
        found = r && file && msg && strcmp(r, rule) == 0 && strstr(file, path) &&
                strstr(msg, needle);
    }
    json_object_put(report);
    return found;
}

/* The first finding of report a that report b lacks ("" when none), as
 * "rule file:line message". */
static const char *first_missing(const char *a, const char *b, char *buf, size_t n)
{
    json_object *ra = tt_json(a), *rb = tt_json(b);
    json_object *fa = tt_get(ra, "findings"), *fb = tt_get(rb, "findings");
    buf[0] = '\0';
    for (size_t i = 0; fa && i < json_object_array_length(fa) && !buf[0]; i++) {
        const char *s = json_object_to_json_string(json_object_array_get_idx(fa, i));
        bool found = false;
        for (size_t k = 0; fb && k < json_object_array_length(fb) && !found; k++)
            found = strcmp(s, json_object_to_json_string(json_object_array_get_idx(fb, k))) == 0;
        if (!found)
            snprintf(buf, n, "%s", s);
    }
    json_object_put(ra);
    json_object_put(rb);
    return buf;
}

/* The two reports are the same; else the test fails naming a finding one
 * has and the other has not. */
static void same_reports(const char *with_skips, const char *all_bodies)
{
    char only[2048];
    if (first_missing(with_skips, all_bodies, only, sizeof only)[0])
        fail_msg("only without --all-bodies: %s", only);
    if (first_missing(all_bodies, with_skips, only, sizeof only)[0])
        fail_msg("only with --all-bodies: %s", only);
    assert_string_equal(with_skips, all_bodies);
}

static void test_same_report_as_all_bodies(void **state)
{
    (void)state;
    make_tree();
    tt_run def = run(NULL, NULL);
    tt_run all = run("--all-bodies", NULL);
    assert_int_equal(def.status, all.status);
    same_reports(def.out, all.out);

    /* the cases above, each seen */
    assert_true(has_finding(def.out, "EH102", "src/user.c", "helper_scale"));
    assert_true(has_finding(def.out, "EH102", "src/user.c", "dgemm_"));
    assert_true(has_finding(def.out, "EH105", "backends/ref/custom.c", "other") ||
                has_finding(def.out, "EH105", "backends/blas/custom.c", "other"));
    assert_false(has_finding(def.out, "EH105", "backends", "'myop'"));
    assert_true(has_finding(def.out, "EH105", "backends/blas/late.c", "'late'"));
    assert_true(has_finding(def.out, "EH105", "backends/ref/later.c", "'later'"));
    assert_true(has_finding(def.out, "EH102", "inc/inline_only.h", "cblas_dscal"));
    assert_true(has_finding(def.out, "EH102", "src/user.c", "k_made"));
    assert_true(has_finding(def.out, "EH102", "src/user.c", "helper_old"));
    assert_true(has_finding(def.out, "EH102", "inc/piece.h", "cblas_dscal"));
    assert_true(has_finding(def.out, "EH102", "src/user.c", "k_table"));
    assert_true(has_finding(def.out, "EH102", "src/user.c", "'k_u'"));
    static const char *const prototypes[] = {"'k_s'", "'k_t'", "'k_p'", "'k_o'", "'k_v'"};
    for (size_t i = 0; i < sizeof prototypes / sizeof *prototypes; i++)
        if (has_finding(def.out, "EH102", "src/user.c", prototypes[i]))
            fail_msg("EH102 for the prototype %s: %s", prototypes[i], def.out);

    /* 14 backend and core files; parsed again: the shim, the three
     * registrations (later.c's in the body after its macro's use), the
     * inline header's user, the header spliced into a body, late.c (not
     * helper.c, gen.c, proto.c, loop.c, nor the macros the indexer answers
     * for: both.c, table.c, open.c) */
    unsigned again = 0;
    assert_int_equal(bodiless(def.err, &again), 14);
    assert_int_equal(again, 7);
    assert_int_equal(bodiless(all.err, &again), 0);
    tt_free(&def);
    tt_free(&all);
}

/* Each file alone: which parse again, which do not. */
static void test_each_file(void **state)
{
    (void)state;
    make_tree();
    static const struct {
        const char *path;
        unsigned again;
    } files[] = {
        {"backends/blas/helper.c", 0}, {"backends/ref/proto.c", 0}, {"core/shim.c", 1},
        {"backends/blas/custom.c", 1}, {"backends/ref/custom.c", 1}, {"backends/blas/gen.c", 0},
        {"backends/ref/both.c", 0}, {"backends/blas/uses_inline.c", 1}, {"core/loop.c", 0},
        {"backends/blas/splice.c", 1}, {"backends/blas/table.c", 0}, {"backends/ref/open.c", 0},
        {"backends/ref/later.c", 1}, {"backends/blas/late.c", 1},
    };
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        /* (inc/: its headers linted, as frontend code) */
        const char *argv[] = {"-v", "--no-cache", files[i].path, "inc", "--", "-isystem", "sys",
                              LT_INCLUDE, NULL};
        tt_run r = lt_emberlintv(tt_dir, argv, NULL);
        unsigned again = 9;
        if (bodiless(r.err, &again) != 1 || again != files[i].again)
            fail_msg("%s: %s", files[i].path, r.err);
        tt_free(&r);
    }
}

/* What parses every body: C++, --fix, a rule that reads bodies applying
 * to backend files. */
static void test_every_body_parsed(void **state)
{
    (void)state;
    make_tree();
    tt_w("backends/blas/k.cpp", "void kpp(double *x) { x[0] = 2; }\n");
    const char *cpp[] = {"-v", "--no-cache", "backends/blas/k.cpp", NULL};
    tt_run r = lt_emberlintv(tt_dir, cpp, NULL);
    unsigned again = 0;
    assert_int_equal(bodiless(r.err, &again), 0);
    tt_free(&r);

    const char *fix[] = {"-v", "--no-cache", "--fix", "backends/blas/helper.c", "--", LT_INCLUDE, NULL};
    r = lt_emberlintv(tt_dir, fix, NULL);
    assert_int_equal(bodiless(r.err, &again), 0);
    tt_free(&r);

    tt_w(".emberlint.json", "{\"core_paths\": [\"/core/\"],"
                            " \"rules\": {\"EH201\": {\"applies_to\": [\"frontend\", \"backend\"]}}}\n");
    const char *wide[] = {"-v", "--no-cache", "backends/blas/helper.c", "core/shim.c", "--",
                          LT_INCLUDE, NULL};
    r = lt_emberlintv(tt_dir, wide, NULL);
    /* the core file is still parsed without bodies: EH201 applies to backends only */
    assert_int_equal(bodiless(r.err, &again), 1);
    assert_int_equal(again, 1);
    tt_free(&r);
}

/* A body a macro opens, a suppression inside a body: parsed again, and the
 * report is --all-bodies' (no EH001 for the suppression). */
static void test_macro_braces_and_suppressions(void **state)
{
    (void)state;
    tt_w("backends/ref/begin.c", "#define BEGIN {\n#define END }\n"
                                 "void f(double *x) BEGIN x[0] = 1; END\n");
    tt_w("backends/ref/sup.c", "void k(void)\n{\n"
                               "    int x = undeclared_thing; // emberlint-ignore EH000\n}\n");
    static const char *const files[] = {"backends/ref/begin.c", "backends/ref/sup.c"};
    for (size_t i = 0; i < 2; i++) {
        const char *argv[] = {"-v", "--no-cache", "--format", "json", files[i], NULL};
        const char *all[] = {"--no-cache", "--format", "json", "--all-bodies", files[i], NULL};
        tt_run d = lt_emberlintv(tt_dir, argv, NULL);
        tt_run a = lt_emberlintv(tt_dir, all, NULL);
        unsigned again = 0;
        assert_int_equal(bodiless(d.err, &again), 1);
        assert_int_equal(again, 1);
        assert_string_equal(d.out, a.out);
        tt_free(&d);
        tt_free(&a);
    }
}

/* Twelve backend files that all need their bodies (a frontend header's
 * inline function): each is tried without them, whatever the rest of the
 * run (so EH000 is the same in any run), and -v suggests --all-bodies. */
static void test_mostly_again(void **state)
{
    (void)state;
    tt_w("sys/cblas.h", SYS_CBLAS);
    tt_w("inc/inline_only.h", "static inline void io_scale(double *x) { x[0] = 2; }\n");
    for (int i = 0; i < 12; i++) {
        char path[64], text[160];
        snprintf(path, sizeof path, "backends/blas/many%02d.c", i);
        snprintf(text, sizeof text, "#include \"../../inc/inline_only.h\"\n"
                                    "void many%02d(double *x) { io_scale(x); }\n", i);
        tt_w(path, text);
    }
    const char *argv[] = {"-v", "--no-cache", "-j", "2", "--format", "json", "backends/blas", "inc",
                          "--", "-isystem", "sys", LT_INCLUDE, NULL};
    const char *all[] = {"-v", "--no-cache", "--all-bodies", "--format", "json", "backends/blas",
                         "inc", "--", "-isystem", "sys", LT_INCLUDE, NULL};
    tt_run d = lt_emberlintv(tt_dir, argv, NULL);
    tt_run a = lt_emberlintv(tt_dir, all, NULL);
    unsigned again = 0;
    assert_int_equal(bodiless(d.err, &again), 12);
    assert_int_equal(again, 12);
    assert_non_null(strstr(d.err, "--all-bodies parses each once"));
    assert_null(strstr(a.err, "--all-bodies parses each once"));
    same_reports(d.out, a.out);
    tt_free(&d);
    tt_free(&a);
}

/* Definitions written in ways the text after a declarator hides, and
 * uses whose answer needs a body: the report is --all-bodies' for each. */
static void test_harder_cases(void **state)
{
    (void)state;
    tt_w(".emberlint.json", "{\"core_paths\": [\"/core/\"]}\n");
    tt_w("inc/h.h", "void ko(double *x, int n);\nvoid hot(double *x);\nvoid prag(double *x);\n"
                    "void digr(double *x);\nvoid k_redef(double *x);\n"
                    "void *my_alloc(int a, int b);\nvoid bk_fn(double *x);\n");
    tt_w("backends/blas/ko.c", "void ko(x, n)\nint n;\ndouble *x;\n{\n    x[0] = n;\n}\n");
    tt_w("backends/blas/hot.c", "#define HOT\nvoid hot(double *x) HOT\n{\n    x[0] = 1;\n}\n");
    tt_w("backends/blas/prag.c", "void prag(double *x)\n_Pragma(\"GCC diagnostic push\")\n"
                                 "{\n    x[0] = 1;\n}\n");
    tt_w("backends/blas/digr.c", "void digr(double *x)\n<%\n    x[0] = 1;\n%>\n");
    tt_w("backends/blas/redef.c", "#define DEF(n) void n(double *x) { x[0] = 1; }\nDEF(k_redef)\n"
                                  "#undef DEF\n#define DEF(n) void n(double *x);\n");
    tt_w("backends/blas/range.c", "#define BEGIN {\n"
                                  "#define RANGE(BEGIN, END) __attribute__((alloc_size(BEGIN, END)))\n"
                                  "void *my_alloc(int a, int b) RANGE(1, 2);\n");
    tt_w("inc/t.h", "void bk_fn(double *x);\nstatic void (*const bk_ptr)(double *) = bk_fn;\n");
    tt_w("backends/blas/a.c", "#include \"../../inc/t.h\"\nvoid bk_fn(double *x)\n{\n    x[0] = 0;\n}\n");
    /* a suppression for the whole file, an error in a body */
    tt_w("backends/ref/supfile.c", "// emberlint-ignore-file EH000\n"
                                   "int sf(void)\n{\n    return undeclared_thing;\n}\n");
    /* EH105: a registration pasted together, one through a struct member */
    tt_w("backends/blas/paste.c", "#include <eh/backend_api.h>\n"
                                  "#define CALL(p) p##_op_kernel(\"pop\", \"blas\", kp)\n"
                                  "static eh_status kp(const eh_op_call *c) { (void)c; return EH_OK; }\n"
                                  "void paste_init(void)\n{\n    CALL(eh_custom);\n}\n");
    tt_w("backends/ref/member.c", "#include <eh/backend_api.h>\n"
                                  "struct entry { eh_custom_kernel k; };\n"
                                  "static eh_status km(const eh_op_call *c) { (void)c; return EH_OK; }\n"
                                  "void member_init(void)\n{\n"
                                  "    struct entry e = {{\"pop\", \"ref\", km}};\n"
                                  "    eh_custom_op_kernels(&e.k, 1);\n}\n");
    tt_w("backends/ref/other.c", "#include <eh/backend_api.h>\n"
                                 "static eh_status ko2(const eh_op_call *c) { (void)c; return EH_OK; }\n"
                                 "void other_init(void)\n{\n"
                                 "    eh_custom_op_kernel(\"other\", \"ref\", ko2);\n"
                                 "    eh_custom_op_kernel(\"other\", \"blas\", ko2);\n}\n");
    tt_w("src/user.c", "#include \"../inc/h.h\"\n"
                       "void use(double *x)\n{\n    ko(x, 1);\n    hot(x);\n    prag(x);\n"
                       "    digr(x);\n    k_redef(x);\n    (void)my_alloc(1, 2);\n}\n");
    const char *argv[] = {"--no-cache", "--format", "json", "backends", "src", "inc", "--",
                          LT_INCLUDE, NULL};
    const char *all[] = {"--no-cache", "--format", "json", "--all-bodies", "backends", "src", "inc",
                         "--", LT_INCLUDE, NULL};
    tt_run d = lt_emberlintv(tt_dir, argv, NULL);
    tt_run a = lt_emberlintv(tt_dir, all, NULL);
    same_reports(d.out, a.out);
    /* the definitions are seen: each call is a backend function's */
    static const char *const called[] = {"'ko'", "'hot'", "'prag'", "'digr'", "'k_redef'"};
    for (size_t i = 0; i < sizeof called / sizeof *called; i++)
        if (!has_finding(d.out, "EH102", "src/user.c", called[i]))
            fail_msg("no EH102 for %s: %s", called[i], d.out);
    /* both registrations of pop are seen: no EH105 for it */
    assert_false(has_finding(d.out, "EH105", "backends", "'pop'"));
    tt_free(&d);
    tt_free(&a);
}

/* EH000 inside a skipped body: only with --all-bodies. */
static void test_errors_in_skipped_bodies(void **state)
{
    (void)state;
    tt_w("backends/ref/broken.c", "int broken(int a)\n{\n    return a + ;\n}\n");
    tt_w("backends/ref/head.c", "int head(int a) return a;\n");
    const char *argv[] = {"--no-cache", "--format", "json", "backends", NULL};
    const char *all[] = {"--no-cache", "--format", "json", "--all-bodies", "backends", NULL};
    tt_run d = lt_emberlintv(tt_dir, argv, NULL);
    tt_run a = lt_emberlintv(tt_dir, all, NULL);
    assert_false(has_finding(d.out, "EH000", "broken.c", ""));
    assert_true(has_finding(a.out, "EH000", "broken.c", ""));
    /* an error outside a body is seen either way */
    assert_true(has_finding(d.out, "EH000", "head.c", ""));
    assert_true(has_finding(a.out, "EH000", "head.c", ""));
    tt_free(&d);
    tt_free(&a);
}

static void same_on(const char *const *paths_and_args)
{
    const char *def[32] = {"--no-cache", "--format", "json"};
    const char *all[32] = {"--no-cache", "--format", "json", "--all-bodies"};
    size_t n = 0;
    for (; paths_and_args[n]; n++) {
        def[3 + n] = paths_and_args[n];
        all[4 + n] = paths_and_args[n];
    }
    tt_run d = lt_emberlintv(LINT_SRCDIR, def, NULL);
    tt_run a = lt_emberlintv(LINT_SRCDIR, all, NULL);
    assert_int_equal(d.status, a.status);
    assert_string_equal(d.out, a.out);
    tt_free(&d);
    tt_free(&a);
}

static void test_same_on_fixtures_and_tree(void **state)
{
    (void)state;
    const char *fixtures[] = {"tests/lint/fixtures", "--", "-Ilibeh/include", NULL};
    same_on(fixtures);
    const char *tree[] = {"libeh", "examples", "backends", "tools", "--", "-Ilibeh/include",
                          "-D_POSIX_C_SOURCE=200809L", NULL};
    same_on(tree);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        tt_scratch_test(test_same_report_as_all_bodies),
        tt_scratch_test(test_each_file),
        tt_scratch_test(test_every_body_parsed),
        tt_scratch_test(test_errors_in_skipped_bodies),
        tt_scratch_test(test_macro_braces_and_suppressions),
        tt_scratch_test(test_mostly_again),
        tt_scratch_test(test_harder_cases),
        cmocka_unit_test(test_same_on_fixtures_and_tree),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
