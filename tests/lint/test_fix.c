/* tests/lint/test_fix.c -- fixes, end to end.
 *
 * In process, a probe rule (this test's registry) attaches fixes through
 * the rule API (el_fix_begin / el_fix_replace): fixes reach the findings
 * only with want_fixes, never inside macro expansions or for dropped
 * findings; extra rules record facts and cannot report; then lint/change/fix.c
 * plans (conflicts, files that do not parse, files changed since they
 * were read), writes and rolls back a fix that introduces an error.
 *
 * Then the built emberlint (EMBERLINT) with the real rules' fixes:
 * --diff (applies with git apply --check, changes nothing), --fix
 * (idempotent), and failure injection: a failing write, a file touched
 * between read and write, a read-only directory, a file that does not
 * parse -- every file byte-identical afterwards. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lint_test.h"
#include "changeset.h"
#include "config.h"
#include "engine.h"
#include "filehash.h"
#include "fix.h"
#include "knowledge.h"
#include "metadata.h"
#include "path.h"
#include "registry.h"
#include "rule.h"
#include "sources.h"

/* ---- the probe ------------------------------------------------------------- */

/* The probe reports as EH401 (frontend only in rules/rules.json). */
#define PROBE_ID "EH401"

typedef enum probe_mode {
    MODE_RENAME,      /* old_name -> new_name (safe), and -> (undeclared) (unsafe) for break_me */
    MODE_CONFLICT,    /* two findings per old_name whose fixes overlap */
} probe_mode;

static probe_mode mode;
static int begin_true, begin_false, replace_false; /* -j 1: one TU at a time */

static void name_of(CXCursor c, char *buf, size_t n)
{
    CXString s = clang_getCursorSpelling(c);
    snprintf(buf, n, "%s", clang_getCString(s) ? clang_getCString(s) : "");
    clang_disposeString(s);
}

static void fix_with(el_ctx *ctx, el_fix_safety safety, CXCursor c, const char *text)
{
    if (!el_fix_begin(ctx, safety, "rename")) {
        begin_false++;
        /* ignored after a refused begin */
        assert_false(el_fix_replace(ctx, clang_getCursorExtent(c), text));
        return;
    }
    begin_true++;
    if (!el_fix_replace(ctx, clang_getCursorExtent(c), text))
        replace_false++;
}

static void probe_cursor(el_ctx *ctx, void *state, CXCursor c)
{
    (void)state;
    char name[64];
    name_of(c, name, sizeof name);
    if (strcmp(name, "old_name") == 0) {
        el_report(ctx, c, "call to old_name");
        fix_with(ctx, EL_FIX_SAFE, c, "new_name");
        if (mode == MODE_CONFLICT) {
            el_report(ctx, c, "call to old_name, again");
            fix_with(ctx, EL_FIX_SAFE, c, "other_name");
        }
    } else if (strcmp(name, "break_me") == 0) {
        el_report(ctx, c, "call to break_me");
        fix_with(ctx, EL_FIX_UNSAFE, c, "(undeclared_thing)");
    }
}

static void probe_end(el_ctx *ctx, void *state)
{
    (void)state;
    /* nothing reported in this hook call yet: no fix to begin */
    assert_false(el_fix_begin(ctx, EL_FIX_SAFE, "nothing"));
    assert_false(el_fix_replace_at(ctx, el_main_file(ctx), 0, 0, "x"));
}

static const enum CXCursorKind probe_kinds[] = {CXCursor_DeclRefExpr, EL_KINDS_END};

static const el_rule probe = {
    .id = PROBE_ID,
    .kinds = probe_kinds,
    .on_cursor = probe_cursor,
    .end = probe_end,
};

/* This test's registry replaces the generated one. */
const el_rule *const el_rule_registry[] = {&probe, NULL};

/* An extra rule: facts only; what it reports goes nowhere. */
static void facts_file(el_ctx *ctx, void *state, CXFile file)
{
    (void)state;
    CXString s = clang_getFileName(file);
    el_fact(ctx, "file", el_path_base(clang_getCString(s)));
    clang_disposeString(s);
    el_report_at(ctx, el_main_file(ctx), 1, 1, "never shown");
    assert_false(el_fix_begin(ctx, EL_FIX_SAFE, "never"));
    assert_false(el_applies_at(ctx, clang_getLocation(el_tu(ctx), file, 1, 1)));
}

static void facts_cursor(el_ctx *ctx, void *state, CXCursor c)
{
    (void)state;
    el_report(ctx, c, "never shown either");
}

static const enum CXCursorKind facts_kinds[] = {CXCursor_FunctionDecl, EL_KINDS_END};

static const el_rule facts_rule = {
    .id = "facts",
    .kinds = facts_kinds,
    .on_file = facts_file,
    .on_cursor = facts_cursor,
};

/* ---- a scratch tree, linted in process --------------------------------------- */

typedef struct tree {
    char *dir;
    el_configs *cfgs;
    el_filehash *hashes;
    el_sources srcs;
    el_findings f;
    el_include_list includes;
    el_fact_list facts;
} tree;

static const char a_c[] = "#include \"util.h\"\n"
                          "#define CALL_OLD() old_name(1)\n"
                          "int f(void)\n"
                          "{\n"
                          "    return old_name(2) + CALL_OLD() + helper();\n"
                          "}\n";
static const char util_h[] = "int old_name(int x);\n"
                             "int new_name(int x);\n"
                             "int other_name(int x);\n"
                             "static inline int helper(void) { return old_name(3); }\n";
static const char k_c[] = "int old_name(int x);\n"
                          "int g(void) { return old_name(4); }\n";

/* Free what the last lint of the tree left. */
static void tree_clear(tree *t)
{
    el_findings_free(&t->f);
    el_sources_free(&t->srcs);
    el_include_list_free(&t->includes);
    el_fact_list_free(&t->facts);
    el_filehash_free(t->hashes);
    el_configs_free(t->cfgs);
}

static void lint_tree(tree *t, bool want_fixes, const el_rule *const *extra)
{
    tree_clear(t);
    char *err = NULL;
    t->cfgs = el_configs_new(NULL, &err);
    assert_non_null(t->cfgs);
    t->hashes = el_filehash_new();
    char *paths[] = {t->dir};
    assert_int_equal(el_sources_collect(paths, 1, t->cfgs, 1u << 20, t->hashes, &t->srcs), 0);
    el_configs_finalize(t->cfgs);
    size_t nm = el_meta_count();
    bool *selected = calloc(nm, sizeof *selected);
    for (size_t k = 0; k < nm; k++)
        selected[k] = true;
    el_engine_opts o = {.jobs = 1,
                        .selected = selected,
                        .want_fixes = want_fixes,
                        .extra_rules = extra,
                        .facts_out = &t->facts,
                        .includes_out = &t->includes};
    el_engine_stats st = {0};
    begin_true = begin_false = replace_false = 0;
    el_engine_run(&o, &t->srcs, t->hashes, &t->f, &st);
    free(selected);
}

static int tree_setup(void **state)
{
    tree *t = calloc(1, sizeof *t);
    t->dir = tt_tmpdir();
    free(tt_write(t->dir, "src/a.c", a_c));
    free(tt_write(t->dir, "src/util.h", util_h));
    free(tt_write(t->dir, "backends/blas/k.c", k_c));
    mode = MODE_RENAME;
    *state = t;
    return 0;
}

static int tree_teardown(void **state)
{
    tree *t = *state;
    tree_clear(t);
    tt_rmtree(t->dir);
    free(t->dir);
    free(t);
    return 0;
}

static const el_finding *find(const tree *t, const char *base, unsigned line, unsigned col)
{
    for (size_t i = 0; i < t->f.n; i++)
        if (strcmp(el_path_base(t->f.v[i].file), base) == 0 && t->f.v[i].line == line &&
            t->f.v[i].col == col)
            return &t->f.v[i];
    print_error("no finding at %s:%u:%u\n", base, line, col);
    fail();
    return NULL;
}

/* ---- the rule API ------------------------------------------------------------- */

static void test_fixes_attach(void **state)
{
    tree *t = *state;
    const el_rule *extra[] = {&facts_rule, NULL};
    lint_tree(t, true, extra);

    /* a.c:5 old_name(2) fixed; CALL_OLD() is a macro: reported, no fix;
     * util.h:4 through a.c; k.c is backend code: no finding, no fix */
    assert_int_equal(t->f.n, 3);
    const el_finding *x = find(t, "a.c", 5, 12);
    assert_non_null(x->fix);
    assert_int_equal(x->fix->safety, EL_FIX_SAFE);
    assert_string_equal(x->fix->description, "rename");
    assert_int_equal(x->fix->edits.n, 1);
    assert_int_equal(x->fix->edits.v[0].begin, strstr(a_c, "old_name(2)") - a_c);
    assert_int_equal(x->fix->edits.v[0].end, strstr(a_c, "old_name(2)") - a_c + 8);
    assert_string_equal(x->fix->edits.v[0].text, "new_name");
    assert_null(find(t, "a.c", 5, 26)->fix);
    assert_non_null(find(t, "util.h", 4, 41)->fix);
    assert_string_equal(el_path_base(find(t, "util.h", 4, 41)->fix->edits.v[0].path), "util.h");
    assert_int_equal(begin_true, 3);     /* a.c x2, util.h */
    assert_int_equal(begin_false, 1);    /* k.c: dropped (backend) */
    assert_int_equal(replace_false, 1);  /* the macro */

    /* the extra rule's facts, nothing it reported */
    for (size_t i = 0; i < t->f.n; i++)
        assert_string_equal(t->f.v[i].rule, PROBE_ID);
    char list[256] = "";
    for (size_t i = 0; i < t->facts.n; i++) {
        assert_string_equal(t->facts.v[i].key, "file");
        strncat(list, t->facts.v[i].value, sizeof list - strlen(list) - 2);
        strcat(list, " ");
    }
    assert_string_equal(list, "k.c a.c util.h ");

    /* a.c includes util.h */
    assert_int_equal(t->includes.n, 1);
    assert_string_equal(el_path_base(t->includes.v[0].tu), "a.c");
    assert_string_equal(el_path_base(t->includes.v[0].header), "util.h");

    /* without want_fixes: same findings, no fixes */
    lint_tree(t, false, NULL);
    assert_int_equal(t->f.n, 3);
    for (size_t i = 0; i < t->f.n; i++)
        assert_null(t->f.v[i].fix);
    assert_int_equal(begin_true, 0);
}

static void test_no_fix_inside_macro_arguments(void **state)
{
    tree *t = *state;
    free(tt_write(t->dir, "src/m.c",
                  "#define ID(x) x\n"
                  "int old_name(int x);\n"
                  "int m(void) { return ID(old_name(7)); }\n"));
    lint_tree(t, true, NULL);
    const el_finding *x = find(t, "m.c", 3, 22);
    assert_string_equal(x->message, "call to old_name");
    assert_null(x->fix);
}

/* ---- planning and committing ----------------------------------------------------- */

static el_fix_opts fix_opts(const tree *t, bool unsafe)
{
    el_fix_opts o = {.unsafe = unsafe, .includes = &t->includes};
    return o;
}

/* Plan the fixes of the tree's findings; the plan is made. */
static void make_plan(tree *t, el_fix_plan *plan, const el_fix_opts *o)
{
    char *err = NULL;
    assert_int_equal(el_fix_plan_make(plan, &t->f, &t->srcs, o, &err), 0);
}

/* Commit the plan (it succeeds) and free it. */
static void commit_plan(tree *t, el_fix_plan *plan, const el_fix_opts *o)
{
    char *err = NULL;
    assert_int_equal(el_fix_plan_commit(plan, &t->srcs, o, &err), 0);
    el_fix_plan_free(plan);
}

static char *diff_of(el_fix_plan *plan)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    assert_int_equal(el_changeset_diff(&plan->cs, m), 0);
    fclose(m);
    return buf;
}

static void test_plan_and_commit(void **state)
{
    tree *t = *state;
    lint_tree(t, true, NULL);
    el_fix_opts o = fix_opts(t, false);
    el_fix_plan plan;
    make_plan(t, &plan, &o);
    assert_int_equal(plan.fixes, 2);
    assert_int_equal(plan.files, 2);
    assert_int_equal(plan.unsafe_left, 0);
    char *d = diff_of(&plan);
    assert_true(tt_contains(d, "-    return old_name(2) + CALL_OLD() + helper();\n"
                               "+    return new_name(2) + CALL_OLD() + helper();\n"));
    assert_true(tt_contains(d, "+static inline int helper(void) { return new_name(3); }\n"));
    free(d);
    /* planning wrote nothing */
    tt_assert_file(t->dir, "src/a.c", a_c);
    tt_assert_file(t->dir, "src/util.h", util_h);

    commit_plan(t, &plan, &o);
    tt_assert_file(t->dir, "src/a.c",
                   "#include \"util.h\"\n"
                   "#define CALL_OLD() old_name(1)\n"
                   "int f(void)\n"
                   "{\n"
                   "    return new_name(2) + CALL_OLD() + helper();\n"
                   "}\n");
    tt_assert_file(t->dir, "backends/blas/k.c", k_c);

    /* again: only the macro is left, and it has no fix */
    lint_tree(t, true, NULL);
    assert_int_equal(t->f.n, 1);
    make_plan(t, &plan, &o);
    assert_true(el_changeset_empty(&plan.cs));
    commit_plan(t, &plan, &o);
}

static void test_conflicting_fixes(void **state)
{
    tree *t = *state;
    mode = MODE_CONFLICT;
    lint_tree(t, true, NULL);
    el_fix_opts o = fix_opts(t, false);
    el_fix_plan plan;
    make_plan(t, &plan, &o);
    /* per site the first finding's fix wins ("call to old_name" sorts
     * before "call to old_name, again") */
    assert_int_equal(plan.fixes, 2);
    assert_int_equal(plan.conflicts, 2);
    commit_plan(t, &plan, &o);
    assert_true(tt_file_contains(t->dir, "src/a.c", "return new_name(2)"));
}

static void test_unsafe_and_left_out(void **state)
{
    tree *t = *state;
    static const char b_c[] = "int break_me(void);\n"
                              "int old_name(int x);\n"
                              "int h(void) { return break_me() + old_name(5); }\n";
    free(tt_write(t->dir, "src/b.c", b_c));
    lint_tree(t, true, NULL);
    el_fix_opts o = fix_opts(t, false);
    el_fix_plan plan;

    /* safe only: the unsafe fix is counted, not taken */
    make_plan(t, &plan, &o);
    assert_int_equal(plan.unsafe_left, 1);
    assert_int_equal(plan.fixes, 3);
    el_fix_plan_free(&plan);

    /* with unsafe fixes: (undeclared_thing)() would be an error that was
     * not there: b.c's fixes are left out before anything is written, the
     * other files are fixed */
    o.unsafe = true;
    make_plan(t, &plan, &o);
    assert_int_equal(plan.fixes, 4);
    char *err = NULL;
    assert_int_equal(el_fix_plan_commit(&plan, &t->srcs, &o, &err), 0);
    assert_int_equal(plan.kept, 2);
    assert_int_equal(plan.fixes, 2);
    el_fix_plan_free(&plan);
    tt_assert_file(t->dir, "src/b.c", b_c);
    assert_true(tt_file_contains(t->dir, "src/a.c", "return new_name(2)"));
}

static void test_refuses_files_that_do_not_parse(void **state)
{
    tree *t = *state;
    static const char broken_c[] = "int old_name(int x);\n"
                                   "int h(void) { return old_name(5); }\n"
                                   "int broken = ;\n";
    free(tt_write(t->dir, "src/broken.c", broken_c));
    lint_tree(t, true, NULL);
    el_fix_opts o = fix_opts(t, false);
    el_fix_plan plan;
    make_plan(t, &plan, &o);
    assert_int_equal(plan.refused, 1);
    assert_int_equal(plan.fixes, 2); /* a.c and util.h still */
    commit_plan(t, &plan, &o);
    tt_assert_file(t->dir, "src/broken.c", broken_c);
    assert_true(tt_file_contains(t->dir, "src/a.c", "return new_name(2)"));
}

static void test_file_changed_since_read(void **state)
{
    tree *t = *state;
    lint_tree(t, true, NULL);
    free(tt_write(t->dir, "src/util.h", "/* edited meanwhile */\nint old_name(int x);\n"));
    el_fix_opts o = fix_opts(t, false);
    el_fix_plan plan;
    char *err = NULL;
    assert_int_equal(el_fix_plan_make(&plan, &t->f, &t->srcs, &o, &err), -1);
    assert_true(tt_contains(err, "util.h: changed since it was read"));
    free(err);
    el_fix_plan_free(&plan);
    tt_assert_file(t->dir, "src/a.c", a_c);
}

/* ---- the binary, with the rules' own fixes ------------------------------------------ */

/* A frontend file with an EH101 include and an EH102 call. */
static const char app_c[] = "#include <eh/eh.h>\n"
                            "#include \"../backends/blas/blas_ops.h\"\n"
                            "\n"
                            "eh_tensor *product(const eh_tensor *a, const eh_tensor *b)\n"
                            "{\n"
                            "    return eh_blas_matmul(a, b);\n"
                            "}\n";
static const char blas_h[] = "#include <eh/eh.h>\n"
                             "eh_tensor *eh_blas_matmul(const eh_tensor *a, const eh_tensor *b);\n";
static const char other_c[] = "#include <eh/eh.h>\n"
                              "#include \"../backends/blas/blas_ops.h\"\n"
                              "\n"
                              "eh_tensor *twice(const eh_tensor *a)\n"
                              "{\n"
                              "    return eh_blas_matmul(a, a);\n"
                              "}\n";

typedef struct cli_tree {
    char *dir;
} cli_tree;

static int cli_setup(void **state)
{
    cli_tree *t = calloc(1, sizeof *t);
    t->dir = tt_tmpdir();
    free(tt_write(t->dir, "src/app.c", app_c));
    free(tt_write(t->dir, "src/other.c", other_c));
    free(tt_write(t->dir, "backends/blas/blas_ops.h", blas_h));
    *state = t;
    return 0;
}

static int cli_teardown(void **state)
{
    cli_tree *t = *state;
    tt_rmtree(t->dir);
    free(t->dir);
    free(t);
    return 0;
}

static void assert_untouched(const cli_tree *t)
{
    tt_assert_file(t->dir, "src/app.c", app_c);
    tt_assert_file(t->dir, "src/other.c", other_c);
    tt_assert_file(t->dir, "backends/blas/blas_ops.h", blas_h);
}

#define INC LT_INCLUDE

static tt_run run_fix(const cli_tree *t, const char *what, const char *const *env)
{
    const char *argv[] = {"--no-cache", "--select", "EH101,EH102", what, "src", "--", INC, NULL};
    return lt_emberlintv(t->dir, argv, env);
}

static void test_cli_diff(void **state)
{
    cli_tree *t = *state;
    tt_run r = run_fix(t, "--diff", NULL);
    assert_int_equal(r.status, 1);
    assert_true(tt_contains(r.out, "--- a/src/app.c\n+++ b/src/app.c\n"));
    assert_true(tt_contains(r.out, "+    return eh_matmul(a, b);\n"));
    assert_true(tt_contains(r.err, "would fix"));
    assert_untouched(t);
    tt_git_apply(t->dir, r.out, false);
    tt_free(&r);
}

/* A header that uses a backend macro before its own include of the
 * backend's header (the includer brought the macro in first): that use
 * needs the include, so no fix touches it.  The walk gives the macro use
 * before the include; EH101 must still count it. */
static void test_cli_use_before_own_include(void **state)
{
    (void)state;
    char *dir = tt_tmpdir();
    free(tt_write(dir, "ops/blas/blas_ops.h",
                  "#ifndef BLAS_OPS_H\n#define BLAS_OPS_H\n#include <eh/eh.h>\n"
                  "#define BLAS_TILE 64\n"
                  "eh_tensor *eh_blas_matmul(const eh_tensor *a, const eh_tensor *b);\n#endif\n"));
    free(tt_write(dir, "src/plan.h",
                  "#ifndef PLAN_H\n#define PLAN_H\n"
                  "static inline int plan_tile(void) { return BLAS_TILE * 2; }\n"
                  "#include \"../ops/blas/blas_ops.h\"\n#endif\n"));
    free(tt_write(dir, "src/app.c",
                  "#include \"../ops/blas/blas_ops.h\"\n#include \"plan.h\"\n\n"
                  "int tiles(const eh_tensor *x, eh_tensor **out)\n{\n"
                  "    *out = eh_blas_matmul(x, x);\n    return plan_tile() + BLAS_TILE;\n}\n"));
    const char *argv[] = {"--no-cache", "--select", "EH101,EH102", "--diff", "--unsafe-fixes",
                          "src", "--", INC, NULL};
    tt_run r = lt_emberlintv(dir, argv, NULL);
    assert_int_equal(r.status, 1);
    assert_true(tt_contains(r.out, "+    *out = eh_matmul(x, x);\n"));
    assert_false(tt_contains(r.out, "+++ b/src/plan.h"));
    tt_free(&r);
    tt_rmtree(dir);
    free(dir);
}

/* C++: a call qualified with :: is renamed where its name is (the text
 * before the name is a qualifier, not parentheses); a callee in
 * parentheses gets no fix. */
static void test_cli_qualified_call(void **state)
{
    (void)state;
    char *dir = tt_tmpdir();
    free(tt_write(dir, "ops/blas/blas_ops.h",
                  "#ifndef BLAS_OPS_H\n#define BLAS_OPS_H\n#include <eh/eh.h>\n"
                  "extern \"C\" eh_tensor *eh_blas_matmul(const eh_tensor *a, const eh_tensor *b);\n"
                  "#endif\n"));
    free(tt_write(dir, "src/app.cpp",
                  "#include \"../ops/blas/blas_ops.h\"\n\n"
                  "eh_tensor *twice(const eh_tensor *x)\n{\n"
                  "    eh_tensor *y = ::eh_blas_matmul(x, x);\n"
                  "    return (eh_blas_matmul)(y, x);\n}\n"));
    const char *argv[] = {"--no-cache", "--select", "EH102", "--diff", "--unsafe-fixes", "src/app.cpp",
                          "--", INC, NULL};
    tt_run r = lt_emberlintv(dir, argv, NULL);
    assert_int_equal(r.status, 1);
    assert_true(tt_contains(r.out, "+    eh_tensor *y = ::eh_matmul(x, x);\n"));
    assert_false(tt_contains(r.out, "+    return (eh_matmul)"));
    tt_free(&r);
    tt_rmtree(dir);
    free(dir);
}

static void test_cli_fix_idempotent(void **state)
{
    cli_tree *t = *state;
    tt_run r = run_fix(t, "--fix", NULL);
    assert_true(tt_contains(r.err, "emberlint: fixed "));
    assert_false(tt_contains(r.out, "[EH102]")); /* fixed: not reported any more */
    char *p = tt_path(t->dir, "src/app.c");
    char *once = tt_read(p, NULL);
    assert_non_null(once);
    assert_true(tt_contains(once, "return eh_matmul(a, b);"));
    assert_false(tt_contains(once, "eh_blas_matmul"));
    tt_free(&r);

    /* a second run changes nothing */
    r = run_fix(t, "--fix", NULL);
    assert_true(tt_contains(r.err, "emberlint: fixed 0 findings in 0 files"));
    char *twice = tt_read(p, NULL);
    assert_string_equal(once, twice);
    free(once);
    free(twice);
    free(p);
    tt_free(&r);
    r = run_fix(t, "--diff", NULL);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, "");
    tt_free(&r);
}

static void test_cli_failed_write(void **state)
{
    cli_tree *t = *state;
    for (int n = 1; n <= 4; n++) {
        char var[32];
        snprintf(var, sizeof var, "EL_TEST_FAIL_WRITE=%d", n);
        const char *env[] = {var, NULL};
        tt_run r = run_fix(t, "--fix", env);
        assert_int_equal(r.status, 2);
        assert_true(tt_contains(r.err, "emberlint: "));
        assert_true(tt_contains(r.err, "nothing was written") || tt_contains(r.err, "nothing was changed"));
        assert_untouched(t);
        tt_free(&r);
    }
}

static void test_cli_touched_before_commit(void **state)
{
    cli_tree *t = *state;
    char *app = tt_path(t->dir, "src/app.c");
    char *var = tt_fmt("EL_TEST_TOUCH_BEFORE_COMMIT=%s", app);
    const char *env[] = {var, NULL};
    tt_run r = run_fix(t, "--fix", env);
    assert_int_equal(r.status, 2);
    assert_true(tt_contains(r.err, "emberlint: src/app.c: changed"));
    assert_true(tt_contains(r.err, "nothing was changed"));
    /* the editor's byte stays; nothing of ours was written */
    char *got = tt_read(app, NULL);
    assert_non_null(got);
    assert_int_equal(strlen(got), strlen(app_c) + 1);
    assert_memory_equal(got, app_c, strlen(app_c));
    free(got);
    tt_assert_file(t->dir, "src/other.c", other_c);
    tt_assert_file(t->dir, "backends/blas/blas_ops.h", blas_h);
    tt_free(&r);
    free(var);
    free(app);
}

/* A read-only file is refused (as root too) and nothing is written. */
static void test_cli_read_only_file(void **state)
{
    cli_tree *t = *state;
    char *app = tt_path(t->dir, "src/app.c");
    assert_int_equal(chmod(app, 0444), 0);
    tt_run r = run_fix(t, "--fix", NULL);
    assert_int_equal(r.status, 2);
    assert_true(tt_contains(r.err, "src/app.c: is read-only"));
    assert_untouched(t);
    struct stat st;
    assert_int_equal(stat(app, &st), 0);
    assert_int_equal(st.st_mode & 07777, 0444);
    tt_free(&r);
    assert_int_equal(chmod(app, 0644), 0);
    free(app);
}

static void test_cli_read_only_directory(void **state)
{
    cli_tree *t = *state;
    char *src = tt_path(t->dir, "src");
    assert_int_equal(chmod(src, 0555), 0);
    if (!tt_write_refused(src)) { /* root ignores permissions: nothing to test */
        chmod(src, 0755);
        free(src);
        skip();
    }
    tt_run r = run_fix(t, "--fix", NULL);
    assert_int_equal(r.status, 2);
    assert_true(tt_contains(r.err, "src/"));
    assert_untouched(t);
    tt_free(&r);
    assert_int_equal(chmod(src, 0755), 0);
    free(src);
}

static void test_cli_parse_error(void **state)
{
    cli_tree *t = *state;
    static const char broken_c[] = "#include <eh/eh.h>\n"
                                   "#include \"../backends/blas/blas_ops.h\"\n"
                                   "eh_tensor *bad(const eh_tensor *a) { return eh_blas_matmul(a, a); }\n"
                                   "int broken = ;\n";
    free(tt_write(t->dir, "src/broken.c", broken_c));
    tt_run r = run_fix(t, "--fix", NULL);
    assert_int_equal(r.status, 2);
    assert_true(tt_contains(r.err, "src/broken.c: does not parse"));
    tt_assert_file(t->dir, "src/broken.c", broken_c);
    /* the other files are fixed */
    assert_true(tt_file_contains(t->dir, "src/app.c", "return eh_matmul(a, b);"));
    tt_free(&r);
}

static void test_cli_options(void **state)
{
    cli_tree *t = *state;
    tt_run r = lt_emberlint(t->dir, "--unsafe-fixes", "src", NULL);
    assert_int_equal(r.status, 2);
    assert_true(tt_contains(r.err, "--unsafe-fixes needs --fix or --diff"));
    tt_free(&r);
    r = lt_emberlint(NULL, "--help", NULL);
    assert_true(tt_contains(r.out, "--fix"));
    assert_true(tt_contains(r.out, "--diff"));
    assert_true(tt_contains(r.out, "--unsafe-fixes"));
    tt_free(&r);
    /* --diff prints the diff, not the report, whatever the format */
    r = lt_emberlint(t->dir, "--no-cache", "--select", "EH102", "--format", "json", "--diff",
                     "src/app.c", "--", INC, NULL);
    assert_int_equal(r.status, 1);
    assert_true(tt_contains(r.out, "--- a/src/app.c\n"));
    tt_free(&r);
    assert_untouched(t);
}

/* An unsafe fix (no eh_matmul declared: the call would change meaning):
 * not applied without --unsafe-fixes, and the report says it is there. */
static void test_cli_unsafe_fix_in_json(void **state)
{
    cli_tree *t = *state;
    static const char unsafe_c[] = "typedef struct eh_tensor eh_tensor;\n"
                                   "eh_tensor *eh_blas_matmul(const eh_tensor *a, const eh_tensor *b);\n"
                                   "eh_tensor *u(const eh_tensor *a) { return eh_blas_matmul(a, a); }\n";
    free(tt_write(t->dir, "src/unsafe.c", unsafe_c));
    tt_run r = lt_emberlint(t->dir, "--no-cache", "--select", "EH102", "--format", "json", "--fix",
                            "src/unsafe.c", "--", INC, NULL);
    assert_int_equal(r.status, 1);
    assert_true(tt_contains(r.err, "emberlint: fixed 0 findings in 0 files (1 unsafe fix not "
                                   "applied: use --unsafe-fixes)"));
    tt_assert_file(t->dir, "src/unsafe.c", unsafe_c);
    json_object *rep = tt_json(r.out);
    json_object *x = json_object_array_get_idx(tt_get(rep, "findings"), 0);
    assert_true(json_object_get_boolean(tt_get(x, "fixable")));
    json_object *fx = tt_get(x, "fix");
    assert_string_equal(json_object_get_string(tt_get(fx, "safety")), "unsafe");
    assert_string_equal(json_object_get_string(tt_get(fx, "description")),
                        "replace eh_blas_matmul with eh_matmul");
    json_object_put(rep);
    tt_free(&r);

    /* --unsafe-fixes would apply it, but nothing here declares eh_matmul
     * (no <eh/eh.h> comes with it): the check before writing finds a call
     * of an undeclared function, and the fix is left out, said */
    r = lt_emberlint(t->dir, "--no-cache", "--select", "EH102", "--fix", "--unsafe-fixes",
                     "src/unsafe.c", "--", INC, NULL);
    assert_true(tt_contains(r.err, "emberlint: src/unsafe.c: 1 fix not applied: src/unsafe.c would "
                                   "not compile: implicit declaration of function 'eh_matmul'"));
    assert_true(tt_contains(r.err, "emberlint: fixed 0 findings in 0 files (1 fix not applied: "
                                   "listed above)\n"));
    tt_assert_file(t->dir, "src/unsafe.c", unsafe_c);
    tt_free(&r);
}

/* Findings no fix exists for (EH103's #ifdef, a backend constant) are
 * counted in the summary: "would fix 0 findings" alone, on a report of
 * many, read as fixes that failed (SuperLU: 164 findings, none fixable). */
static void test_cli_no_fix_counted(void **state)
{
    cli_tree *t = *state;
    static const char branch_c[] = "#ifdef EH_HAVE_BLAS\nint fast = 1;\n#endif\n"
                                   "#ifdef EH_HAVE_LAZY\nint lazy = 1;\n#endif\n";
    free(tt_write(t->dir, "src/branch.c", branch_c));
    tt_run r = lt_emberlint(t->dir, "--no-cache", "--select", "EH103", "--diff", "src/branch.c",
                            "--", INC, NULL);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.err, "emberlint: would fix 0 findings in 0 files (2 findings have no "
                               "automatic fix)\n");
    tt_free(&r);
    /* every finding with a fix: nothing more said */
    r = lt_emberlint(t->dir, "--no-cache", "--select", "EH102", "--diff", "src/app.c", "--", INC,
                     NULL);
    assert_string_equal(r.err, "emberlint: would fix 1 finding in 1 file\n");
    tt_free(&r);
}

int main(void)
{
    el_path_init();
    char *err = NULL;
    if (el_meta_init(el_rule_registry, &err) < 0 || el_knowledge_init(&err) < 0) {
        fprintf(stderr, "test_fix: %s\n", err);
        return 1;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_fixes_attach, tree_setup, tree_teardown),
        cmocka_unit_test_setup_teardown(test_no_fix_inside_macro_arguments, tree_setup, tree_teardown),
        cmocka_unit_test_setup_teardown(test_plan_and_commit, tree_setup, tree_teardown),
        cmocka_unit_test_setup_teardown(test_conflicting_fixes, tree_setup, tree_teardown),
        cmocka_unit_test_setup_teardown(test_unsafe_and_left_out, tree_setup, tree_teardown),
        cmocka_unit_test_setup_teardown(test_refuses_files_that_do_not_parse, tree_setup, tree_teardown),
        cmocka_unit_test_setup_teardown(test_file_changed_since_read, tree_setup, tree_teardown),
        cmocka_unit_test_setup_teardown(test_cli_diff, cli_setup, cli_teardown),
        cmocka_unit_test_setup_teardown(test_cli_no_fix_counted, cli_setup, cli_teardown),
        cmocka_unit_test_setup_teardown(test_cli_fix_idempotent, cli_setup, cli_teardown),
        cmocka_unit_test_setup_teardown(test_cli_failed_write, cli_setup, cli_teardown),
        cmocka_unit_test_setup_teardown(test_cli_touched_before_commit, cli_setup, cli_teardown),
        cmocka_unit_test_setup_teardown(test_cli_read_only_file, cli_setup, cli_teardown),
        cmocka_unit_test_setup_teardown(test_cli_read_only_directory, cli_setup, cli_teardown),
        cmocka_unit_test_setup_teardown(test_cli_parse_error, cli_setup, cli_teardown),
        cmocka_unit_test_setup_teardown(test_cli_options, cli_setup, cli_teardown),
        cmocka_unit_test_setup_teardown(test_cli_unsafe_fix_in_json, cli_setup, cli_teardown),
        cmocka_unit_test(test_cli_use_before_own_include),
        cmocka_unit_test(test_cli_qualified_call),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    el_knowledge_free();
    el_meta_free();
    return rc;
}
