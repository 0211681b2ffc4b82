/* tests/lint/test_rule_api.c -- the rule API (lint/engine/rule.h), in process:
 * a probe rule replaces the registry and checks the hooks' order, the
 * walk's ancestors, file classes, filtering of findings, facts and the
 * project hook; then the configuration and knowledge queries. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lint_test.h"
#include "clang_util.h"
#include "config.h"
#include "engine.h"
#include "filehash.h"
#include "knowledge.h"
#include "metadata.h"
#include "path.h"
#include "registry.h"
#include "rule.h"
#include "sources.h"

/* The probe reports as EH401 (frontend, warning in rules/rules.json). */
#define PROBE_ID "EH401"

typedef struct probe_state {
    int begun;
    char files[200];
    unsigned functions;
} probe_state;

static char trace[4096]; /* -j 1: one TU at a time */
/* el_is_definition asked about another declaration; its wrong answers
 * (counted, not asserted: the walk may run on another thread) */
static unsigned asked_other, wrong_definition, skipped_bodies;

static void note(const char *fmt, const char *arg)
{
    char buf[256];
    snprintf(buf, sizeof buf, fmt, arg);
    strncat(trace, buf, sizeof trace - strlen(trace) - 1);
}

static void probe_begin(el_ctx *ctx, void *state)
{
    probe_state *s = state;
    assert_int_equal(s->begun, 0); /* zeroed per TU */
    s->begun = 1;
    note("begin %s;", el_path_base(el_main_file(ctx)));
}

static void probe_file(el_ctx *ctx, void *state, CXFile file)
{
    (void)ctx;
    probe_state *s = state;
    char name[512];
    elc_file_name(file, name, sizeof name);
    strncat(s->files, el_path_base(name), sizeof s->files - strlen(s->files) - 1);
    strncat(s->files, " ", sizeof s->files - strlen(s->files) - 1);
}

static void probe_cursor(el_ctx *ctx, void *state, CXCursor c)
{
    probe_state *s = state;
    char name[128];
    if (clang_getCursorKind(c) == CXCursor_FunctionDecl) {
        s->functions++;
        note("enter %s;", elc_spelling(c, name, sizeof name));
        /* el_is_definition about the visited cursor, then about another
         * declaration of the function (the prototype while the definition
         * is visited, the definition while the prototype is): the answer
         * kept for the visited cursor is not the other's.  A backend
         * file's TU is parsed without bodies (EH401 applies to frontend
         * code alone): libclang takes its definition for a declaration,
         * el_is_definition does not */
        bool skipped = el_skipped_body(ctx, c, NULL, NULL);
        skipped_bodies += skipped;
        bool def = clang_isCursorDefinition(c) || skipped;
        wrong_definition += el_is_definition(ctx, c) != def;
        CXCursor other = def ? clang_getCanonicalCursor(c) : clang_getCursorDefinition(c);
        if (!clang_Cursor_isNull(other) && !clang_equalCursors(other, c)) {
            wrong_definition += el_is_definition(ctx, other) != !def;
            asked_other++;
        }
        wrong_definition += el_is_definition(ctx, c) != def;
        const char *backend = NULL;
        el_file_class cls = el_cursor_class(ctx, c, &backend);
        char msg[64];
        snprintf(msg, sizeof msg, "%s%s%s", el_file_class_name(cls), backend[0] ? " " : "", backend);
        el_report(ctx, c, "function %s (%s) at depth %u", name, msg, el_depth(ctx));
        return;
    }
    /* a binary operator: where is it? */
    CXCursor fn, loop;
    assert_true(el_enclosing_function(ctx, &fn));
    char op[8] = "?";
    elc_binary_operator(c, op, sizeof op);
    bool in_loop = el_enclosing(ctx, CXCursor_ForStmt, &loop);
    CXCursor parent = el_ancestor(ctx, 0);
    char pk[64];
    elc_string(clang_getCursorKindSpelling(clang_getCursorKind(parent)), pk, sizeof pk);
    el_report(ctx, c, "'%s' in %s, parent %s%s", op, elc_spelling(fn, name, sizeof name), pk,
              in_loop ? ", in a loop" : "");
    assert_true(clang_Cursor_isNull(el_ancestor(ctx, el_depth(ctx))));
}

static void probe_leave(el_ctx *ctx, void *state, CXCursor c)
{
    (void)ctx;
    (void)state;
    char name[128];
    if (clang_getCursorKind(c) == CXCursor_FunctionDecl)
        note("leave %s;", elc_spelling(c, name, sizeof name));
}

static void probe_end(el_ctx *ctx, void *state)
{
    probe_state *s = state;
    note("files %s;", s->files);
    el_fact(ctx, "main", el_path_base(el_main_file(ctx)));
    /* findings outside linted files are dropped */
    el_report_at(ctx, "/usr/include/stdio.h", 1, 1, "never shown");
    el_report_at(ctx, el_main_file(ctx), 0, 0, "at the top of %s", el_path_base(el_main_file(ctx)));
}

static void probe_project(el_project *p)
{
    char list[200] = "";
    for (size_t i = 0; i < el_project_fact_count(p); i++) {
        const char *file, *key, *value;
        el_project_fact(p, i, &file, &key, &value);
        assert_string_equal(key, "main");
        assert_string_equal(el_path_base(file), value);
        strncat(list, value, sizeof list - strlen(list) - 1);
        strncat(list, " ", sizeof list - strlen(list) - 1);
    }
    for (size_t i = 0; i < el_project_file_count(p); i++) {
        const char *backend;
        if (el_project_file_class(p, i, &backend) == EL_FILE_FRONTEND &&
            strcmp(el_path_base(el_project_file(p, i)), "main.c") == 0)
            el_project_report(p, el_project_file(p, i), 2, 1, "facts: %s", list);
    }
}

static const enum CXCursorKind probe_kinds[] = {CXCursor_FunctionDecl, CXCursor_BinaryOperator,
                                                EL_KINDS_END};

static const el_rule probe = {
    .id = PROBE_ID,
    .kinds = probe_kinds,
    .state_size = sizeof(probe_state),
    .begin = probe_begin,
    .on_file = probe_file,
    .on_cursor = probe_cursor,
    .on_leave = probe_leave,
    .end = probe_end,
    .project = probe_project,
};

/* This test's registry replaces the generated one. */
const el_rule *const el_rule_registry[] = {&probe, NULL};

static void lint_tree(el_findings *out, el_sources *srcs, el_configs **cfgs)
{
    char *err = NULL;
    *cfgs = el_configs_new(NULL, &err);
    assert_non_null(*cfgs);
    el_filehash *hashes = el_filehash_new();
    char *paths[] = {tt_dir};
    assert_int_equal(el_sources_collect(paths, 1, *cfgs, 1u << 20, hashes, srcs), 0);
    el_configs_finalize(*cfgs);
    size_t nm = el_meta_count();
    bool *selected = calloc(nm, sizeof *selected);
    for (size_t k = 0; k < nm; k++)
        selected[k] = true;
    el_engine_opts o = {.jobs = 1, .selected = selected};
    el_engine_stats st = {0};
    el_engine_run(&o, srcs, hashes, out, &st);
    assert_int_equal(st.tus, 2);
    free(selected);
    el_filehash_free(hashes);
}

static bool has_finding(const el_findings *f, const char *file_base, unsigned line, const char *msg)
{
    for (size_t i = 0; i < f->n; i++)
        if (strcmp(el_path_base(f->v[i].file), file_base) == 0 && f->v[i].line == line &&
            strcmp(f->v[i].message, msg) == 0 && strcmp(f->v[i].rule, PROBE_ID) == 0 &&
            f->v[i].severity == EL_SEV_WARNING)
            return true;
    print_error("no finding %s:%u: %s\n", file_base, line, msg);
    return false;
}

static void test_hooks_and_findings(void **state)
{
    (void)state;
    free(tt_write(tt_dir, "src/util.h",
                  "static inline int util(int a) { return a * 2; }\n"
                  "int f(int x);\n"));
    free(tt_write(tt_dir, "src/main.c",
                  "#include <stdio.h>\n"
                  "#include \"util.h\"\n"
                  "int f(int x)\n"
                  "{\n"
                  "    for (;;)\n"
                  "        return util(x) + 1;\n"
                  "}\n"));
    free(tt_write(tt_dir, "backends/blas/k.c", "int eh_blas_k(int y) { return y - 1; }\n"));
    el_findings f = {0};
    el_sources srcs = {0};
    el_configs *cfgs = NULL;
    trace[0] = '\0';
    asked_other = wrong_definition = skipped_bodies = 0;
    lint_tree(&f, &srcs, &cfgs);

    /* backends/blas/k.c, then src/main.c (sorted); headers through main.c */
    assert_string_equal(trace, "begin k.c;enter eh_blas_k;leave eh_blas_k;files k.c ;"
                               "begin main.c;enter util;leave util;enter f;leave f;enter f;leave f;"
                               "files main.c util.h ;");
    assert_true(has_finding(&f, "util.h", 1, "function util (frontend) at depth 0"));
    assert_true(has_finding(&f, "util.h", 1, "'*' in util, parent ReturnStmt"));
    assert_true(has_finding(&f, "util.h", 2, "function f (frontend) at depth 0"));
    assert_true(has_finding(&f, "main.c", 3, "function f (frontend) at depth 0"));
    assert_true(has_finding(&f, "main.c", 6, "'+' in f, parent ReturnStmt, in a loop"));
    assert_true(has_finding(&f, "main.c", 1, "at the top of main.c"));
    assert_true(has_finding(&f, "main.c", 2, "facts: k.c main.c "));
    /* nothing in backend code (EH401 applies to frontend), nothing external */
    for (size_t i = 0; i < f.n; i++) {
        assert_string_not_equal(el_path_base(f.v[i].file), "k.c");
        assert_string_not_equal(f.v[i].message, "never shown");
    }
    assert_int_equal(f.n, 7);
    /* f's prototype in util.h and its definition in main.c each asked
     * about the other */
    assert_int_equal(asked_other, 2);
    assert_int_equal(wrong_definition, 0);
    assert_int_equal(skipped_bodies, 1); /* eh_blas_k's */

    /* queries on the configuration */
    char *main_c = tt_path(tt_dir, "src/main.c");
    char *err = NULL;
    const el_config *cfg = el_configs_for(cfgs, main_c, &err);
    assert_non_null(cfg);
    char backend[64];
    char *k_c = tt_path(tt_dir, "backends/blas/k.c");
    assert_int_equal(el_config_classify(cfg, k_c, backend, sizeof backend), EL_FILE_BACKEND);
    assert_string_equal(backend, "blas");
    assert_int_equal(el_config_classify(cfg, main_c, backend, sizeof backend), EL_FILE_FRONTEND);
    assert_string_equal(el_config_backend_prefix(cfg, "eh_blas_matmul"), "eh_blas_");
    assert_string_equal(el_config_backend_prefix(cfg, "cblas_sgemm"), "cblas_");
    assert_string_equal(el_config_backend_prefix(cfg, "fftwf_execute"), "fftw");
    assert_null(el_config_backend_prefix(cfg, "eh_matmul"));
    assert_null(el_config_backend_prefix(cfg, "eh_blasphemy"));
    assert_true(el_config_is_backend_macro(cfg, "EH_HAVE_BLAS"));
    assert_true(el_config_is_backend_macro(cfg, "EH_BACKEND_CUDA"));
    assert_false(el_config_is_backend_macro(cfg, "EH_HAVE_CUDA_LIKE"));
    assert_true(el_config_is_backend_header(cfg, "eh/backend_api.h", NULL));
    assert_true(el_config_is_backend_header(cfg, "cublas_v2.h", NULL));
    assert_true(el_config_is_backend_header(cfg, "../backends/blas/x.h", NULL));
    assert_false(el_config_is_backend_header(cfg, "eh/eh.h", "/usr/include/eh/eh.h"));
    assert_true(el_config_backend_count(cfg) >= 3);
    size_t n = 0;
    const char *const *macros = el_config_strings(cfg, "backend_macros", &n);
    assert_true(n >= 3);
    assert_string_equal(macros[0], "EH_HAVE_BLAS");
    assert_null(el_config_strings(cfg, "no_such_key", &n));
    assert_null(el_config_rule_options(cfg, "EH101"));

    /* knowledge */
    char buf[128];
    assert_string_equal(el_symbol_replacement(cfg, "cblas_sgemm", buf, sizeof buf), "eh_matmul");
    assert_string_equal(el_symbol_replacement(cfg, "LAPACKE_dgesv", buf, sizeof buf), "eh_solve");
    assert_string_equal(el_symbol_replacement(cfg, "fftw_plan_dft_r2c_1d", buf, sizeof buf), "eh_rfft");
    assert_string_equal(el_symbol_replacement(cfg, "eh_lazy_add", buf, sizeof buf), "eh_add");
    assert_string_equal(el_symbol_replacement(cfg, "eh_blas_matmul", buf, sizeof buf), "eh_matmul");
    assert_null(el_symbol_replacement(cfg, "eh_blas_private_helper", buf, sizeof buf));
    /* Fortran names, as their C interfaces */
    assert_string_equal(el_symbol_replacement(cfg, "dgemm_", buf, sizeof buf), "eh_matmul");
    assert_string_equal(el_symbol_replacement(cfg, "sgesv_", buf, sizeof buf), "eh_solve");
    assert_null(el_symbol_replacement(cfg, "dgemm__", buf, sizeof buf));
    assert_null(el_symbol_replacement(cfg, "Dgemm_", buf, sizeof buf));
    assert_string_equal(el_symbol_replacement(cfg, "DGEMM_", buf, sizeof buf), "eh_matmul");
    assert_null(el_symbol_replacement(cfg, "frobnicate_", buf, sizeof buf));
    assert_string_equal(el_backend_prefix_of(cfg, "dgemm_", false), "[sdcz]gemm_");
    assert_string_equal(el_backend_prefix_of(cfg, "izamax_", true), "i[sdcz]amax_");
    assert_null(el_backend_prefix_of(cfg, "dgemm", false));
    assert_null(el_backend_prefix_of(cfg, "dgemm_x", false));
    assert_null(el_backend_prefix_of(cfg, "sort_", false));
    /* upper case only where macros are asked for, and only all of it */
    assert_string_equal(el_backend_prefix_of(cfg, "DGEMM_", true), "[sdcz]gemm_");
    assert_null(el_backend_prefix_of(cfg, "DGEMM_", false));
    assert_null(el_backend_prefix_of(cfg, "Dgemm_", true));
    assert_string_equal(el_backend_prefix_of(cfg, "CBLAS_INDEX", true), "cblas_");
    assert_true(el_is_op("matmul"));
    assert_true(el_is_op("eh_random_normal"));
    assert_false(el_is_op("eh_data"));
    assert_true(el_op_count() > 50);
    assert_string_equal(el_op_name(0), "zeros");
    assert_string_equal(el_op_kind(0), "CREATION");

    free(main_c);
    free(k_c);
    el_findings_free(&f);
    el_sources_free(&srcs);
    el_configs_free(cfgs);
}

int main(void)
{
    el_path_init();
    char *err = NULL;
    if (el_meta_init(el_rule_registry, &err) < 0 || el_knowledge_init(&err) < 0) {
        fprintf(stderr, "test_rule_api: %s\n", err);
        return 1;
    }
    const struct CMUnitTest tests[] = {
        tt_scratch_test(test_hooks_and_findings),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    el_knowledge_free();
    el_meta_free();
    return rc;
}
