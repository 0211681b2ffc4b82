/* tests/lint/test_backend_names.c -- which backend_prefixes entry a name
 * falls under (lint/engine/backend_names.c through the index of
 * prefix_index.h).  The index only rejects entries early; its answer must
 * be the one the entries give tested one by one, in order: a plain prefix
 * by strncmp (and, where upper case counts, its upper-case spelling), a
 * pattern by fnmatch (and an all-upper-case name lower-cased).  Checked
 * over names made from every built-in entry and a project's own. */
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lint_test.h"
#include "backend_header_memo.h"
#include "config.h"
#include "knowledge.h"
#include "metadata.h"
#include "path.h"
#include "registry.h"
#include "rule.h"

/* ---- the entries one by one ---------------------------------------------- */

static bool has_lower(const char *s)
{
    for (; *s; s++)
        if (*s >= 'a' && *s <= 'z')
            return true;
    return false;
}

static bool entry_matches(const char *e, const char *name, bool upper)
{
    size_t el = strlen(e), nl = strlen(name);
    if (strpbrk(e, "*?[")) {
        if (fnmatch(e, name, 0) == 0)
            return true;
        if (!upper || has_lower(name))
            return false;
        char low[256];
        size_t k = 0;
        for (; name[k] && k + 1 < sizeof low; k++)
            low[k] = (char)(name[k] >= 'A' && name[k] <= 'Z' ? name[k] + 32 : name[k]);
        low[k] = '\0';
        return fnmatch(e, low, 0) == 0;
    }
    if (nl > el && strncmp(name, e, el) == 0)
        return true;
    if (!upper || nl <= el)
        return false;
    for (size_t k = 0; k < el; k++)
        if (name[k] != (char)(e[k] >= 'a' && e[k] <= 'z' ? e[k] - 32 : e[k]))
            return false;
    return true;
}

/* (names without a decoration: _64_, scipy_, $NEWLAPACK are asked below) */
static const char *one_by_one(const el_config *cfg, const char *name, bool upper)
{
    size_t n = 0;
    const char *const *v = el_config_strings(cfg, "backend_prefixes_expanded", &n);
    for (size_t i = 0; i < n; i++)
        if (entry_matches(v[i], name, upper))
            return v[i];
    return NULL;
}

/* ---- names made from the entries ------------------------------------------- */

/* The entry with each [set] replaced by its first (or last) member and
 * each * by "x", ? by "q". */
static void instantiate(const char *e, bool last_member, char *out, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; e[i] && k + 2 < n; i++) {
        if (e[i] == '[') {
            const char *close = strchr(e + i + 1, ']');
            if (!close)
                break;
            out[k++] = last_member ? close[-1] : e[i + 1];
            i = (size_t)(close - e);
        } else if (e[i] == '*') {
            out[k++] = 'x';
        } else if (e[i] == '?') {
            out[k++] = 'q';
        } else {
            out[k++] = e[i];
        }
    }
    out[k] = '\0';
}

static void upper_case(char *s)
{
    for (; *s; s++)
        if (*s >= 'a' && *s <= 'z')
            *s = (char)(*s - 32);
}

static size_t checked;

static void agree(const el_config *cfg, const char *name)
{
    for (int upper = 0; upper < 2; upper++) {
        const char *got = el_backend_prefix_of(cfg, name, upper);
        const char *want = one_by_one(cfg, name, upper);
        if ((got == NULL) != (want == NULL) || (got && strcmp(got, want) != 0)) {
            print_error("'%s' (upper %d): index says %s, the entries %s\n", name, upper,
                        got ? got : "none", want ? want : "none");
            fail();
        }
        checked++;
    }
}

/* Every entry as a name, and its neighbours: one character more, less,
 * changed at either end, in upper case. */
static void agree_around_entries(const el_config *cfg)
{
    size_t n = 0;
    const char *const *v = el_config_strings(cfg, "backend_prefixes_expanded", &n);
    assert_true(n > 0);
    static const char *const tails[] = {"", "x", "_", "X_", "gemm", "1"};
    for (size_t i = 0; i < n; i++) {
        for (int m = 0; m < 2; m++) {
            char base[200], name[256];
            instantiate(v[i], m, base, sizeof base);
            for (size_t t = 0; t < sizeof tails / sizeof *tails; t++) {
                snprintf(name, sizeof name, "%s%s", base, tails[t]);
                agree(cfg, name);
                upper_case(name);
                agree(cfg, name);
                snprintf(name, sizeof name, "z%s%s", base, tails[t]);
                agree(cfg, name);
            }
            size_t bl = strlen(base);
            if (bl > 1) {
                snprintf(name, sizeof name, "%.*s", (int)(bl - 1), base);
                agree(cfg, name);
                snprintf(name, sizeof name, "%.*sQ", (int)(bl - 1), base);
                agree(cfg, name);
            }
        }
    }
    static const char *const others[] = {"", "a", "_", "printf", "memcpy", "size_t", "main",
                                         "eh_add", "eh_matmul", "EH_OK", "NULL", "FILE",
                                         "\xe9t\xe9", "a\xff", "\xff_", "$", "_64_"};
    for (size_t i = 0; i < sizeof others / sizeof *others; i++)
        agree(cfg, others[i]);
}

static const el_config *config_of(el_configs **cfgs, const char *rel)
{
    char *err = NULL;
    *cfgs = el_configs_new(NULL, &err);
    assert_non_null(*cfgs);
    char *path = tt_path(tt_dir, rel);
    const el_config *cfg = el_configs_for(*cfgs, path, &err);
    free(path);
    assert_non_null(cfg);
    el_configs_finalize(*cfgs);
    return cfg;
}

static void test_builtin_entries(void **state)
{
    (void)state;
    tt_w("src/a.c", "int x;\n");
    el_configs *cfgs;
    const el_config *cfg = config_of(&cfgs, "src/a.c");
    checked = 0;
    agree_around_entries(cfg);
    assert_true(checked > 10000);
    /* decorated Fortran names: the routine entries, undecorated first */
    assert_string_equal(el_backend_prefix_of(cfg, "dgemm_64_", false), "[sdcz]gemm_");
    assert_string_equal(el_backend_prefix_of(cfg, "scipy_dgesv_", false), "[sdcz]gesv_");
    assert_string_equal(el_backend_prefix_of(cfg, "dgesv$NEWLAPACK", false), "[sdcz]gesv_");
    assert_string_equal(el_backend_prefix_of(cfg, "DGEMM_64_", true), "[sdcz]gemm_");
    assert_null(el_backend_prefix_of(cfg, "DGEMM_64_", false));
    assert_string_equal(el_backend_prefix_of(cfg, "dgemm_64", false), "[sdcz]gemm_"); /* MKL */
    assert_string_equal(el_backend_prefix_of(cfg, "scipy_dgemm_64_", false), "[sdcz]gemm_");
    assert_null(el_backend_prefix_of(cfg, "dgemm_65", false));
    assert_null(el_backend_prefix_of(cfg, "dgemm64_", false)); /* OpenBLAS: dgemm_64_ */
    assert_null(el_backend_prefix_of(cfg, "dgemm__64", false));
    assert_null(el_backend_prefix_of(cfg, "dgesv_$NEWLAPACK", false));
    assert_null(el_backend_prefix_of(cfg, "scipy_dgesv$NEWLAPACK", false));
    /* the plain routine of a decorated name, one list for both interfaces */
    char plain[64];
    static const char *const decorated[][2] = {
        {"dgelsd_64_", "dgelsd_"},        {"dgelsd_64", "dgelsd_"},
        {"DGELSD_64", "dgelsd_"},         {"scipy_dgelsd_", "dgelsd_"},
        {"dgesv$NEWLAPACK", "dgesv_"},    {"cblas_dgemm64_", "cblas_dgemm"},
        {"cblas_dgemm_64", "cblas_dgemm"}, {"scipy_cblas_dgemm64_", "cblas_dgemm"},
        {"cblas_dgemm$NEWLAPACK$ILP64", "cblas_dgemm"},
        {"LAPACKE_dgesv_work64_", "LAPACKE_dgesv_work"}};
    for (size_t k = 0; k < sizeof decorated / sizeof *decorated; k++) {
        assert_true(el_routine_plain(cfg, decorated[k][0], plain, sizeof plain));
        assert_string_equal(plain, decorated[k][1]);
    }
    assert_false(el_routine_plain(cfg, "dgelsd_", plain, sizeof plain));
    assert_false(el_routine_plain(cfg, "cblas_dgemm", plain, sizeof plain));
    assert_false(el_routine_plain(cfg, "cblas_scale_rows64_", plain, sizeof plain));
    assert_false(el_routine_plain(cfg, "my_solver_64", plain, sizeof plain));
    assert_false(el_routine_plain(cfg, "scipy_cblas_dgemm$NEWLAPACK", plain, sizeof plain));
    /* the other manglings of a routine: dgemm__, _dgemm_ (hypre's 3, 5) */
    char stem[16];
    assert_true(el_routine_mangled_stem(cfg, "dgemm__", stem, sizeof stem));
    assert_string_equal(stem, "dgemm");
    assert_true(el_routine_mangled_stem(cfg, "_dpotrf_", stem, sizeof stem));
    assert_string_equal(stem, "dpotrf");
    assert_false(el_routine_mangled_stem(cfg, "dgemm_", stem, sizeof stem));
    assert_false(el_routine_mangled_stem(cfg, "dgemm___", stem, sizeof stem));
    assert_false(el_routine_mangled_stem(cfg, "__dgemm_", stem, sizeof stem));
    assert_false(el_routine_mangled_stem(cfg, "_dgemm__", stem, sizeof stem));
    assert_false(el_routine_mangled_stem(cfg, "dsort__", stem, sizeof stem));
    assert_false(el_routine_mangled_stem(cfg, "dgemm__", stem, 5)); /* no room */
    /* the routines' C interfaces (a bundled CBLAS, GSL's cblas/): the
     * name after the prefix, less a variant's suffix, is a routine */
    assert_true(el_routine_c_name(cfg, "cblas_ddot"));
    assert_true(el_routine_c_name(cfg, "cblas_idamax"));
    assert_true(el_routine_c_name(cfg, "cblas_zdotu_sub"));
    assert_true(el_routine_c_name(cfg, "LAPACKE_dgesv"));
    assert_true(el_routine_c_name(cfg, "LAPACKE_dgesv_work"));
    assert_false(el_routine_c_name(cfg, "cblas_scale_rows")); /* no routine scale_rows */
    assert_false(el_routine_c_name(cfg, "cblas_"));
    assert_false(el_routine_c_name(cfg, "cblas_ddot_"));       /* not as the interface spells it */
    assert_false(el_routine_c_name(cfg, "ddot_"));             /* the Fortran name: el_routine_name */
    assert_false(el_routine_c_name(cfg, "mycblas_ddot"));
    el_configs_free(cfgs);
}

/* A project's own entries: plain, a pattern ending in a wildcard, one
 * with a wildcard before <backend>, an empty one is not allowed to match
 * an empty name. */
static void test_project_entries(void **state)
{
    (void)state;
    tt_w(".emberlint.json",
         "{\"backends\": [\"gpu\", \"cpu\"],\n"
         " \"backend_prefixes\": [\"vnd_\", \"acc*\", \"x?_<backend>_\", \"my_<backend>_*_k\","
         " \"<backend>lib_\", \"Q[0-9]\", \"k\\\\_<backend>_\", \"w[ab]\\\\?x_\", \"[mn]*Zz\"]}\n");
    tt_w("src/a.c", "int x;\n");
    el_configs *cfgs;
    const el_config *cfg = config_of(&cfgs, "src/a.c");
    agree_around_entries(cfg);
    static const char *const names[] = {"vnd_x", "VND_X", "accel", "ACCEL", "xa_gpu_", "xa_gpu_f", "XA_GPU_",
                                        "my_cpu_fft_k", "my_cpu__k", "gpulib_x", "Q7", "q7",
                                        /* literal tails after an escape, a * and a set */
                                        "wa?x_", "WA?X_", "waqx_", "wa?X_", "mZz", "nabcZz", "MZZ",
                                        "mzz", "nZ"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        agree(cfg, names[i]);

    char buf[64];
    assert_string_equal(el_backend_of_symbol(cfg, "my_cpu_fft_k", buf, sizeof buf), "cpu");
    assert_null(el_backend_of_symbol(cfg, "my_cpu_fft", buf, sizeof buf));
    /* a pattern names whole names, as in el_backend_prefix_of */
    assert_string_equal(el_backend_of_symbol(cfg, "xa_gpu_", buf, sizeof buf), "gpu");
    assert_null(el_backend_of_symbol(cfg, "xa_gpu_f", buf, sizeof buf));
    assert_string_equal(el_backend_of_symbol(cfg, "gpulib_f", buf, sizeof buf), "gpu");
    assert_null(el_backend_of_symbol(cfg, "gpulib_", buf, sizeof buf)); /* nothing after */
    assert_null(el_backend_of_symbol(cfg, "vnd_x", buf, sizeof buf));   /* no <backend> */
    assert_string_equal(el_backend_of_symbol(cfg, "eh_blas_add", buf, sizeof buf), "blas");
    assert_string_equal(el_backend_of_symbol(cfg, "eh_cpu_add", buf, sizeof buf), "cpu");
    assert_null(el_backend_of_symbol(cfg, "eh_add", buf, sizeof buf));
    /* a plain entry with a backslash is compared as written */
    assert_null(el_backend_of_symbol(cfg, "xy_gpu_x", buf, sizeof buf));
    assert_string_equal(el_backend_of_symbol(cfg, "k\\_gpu_x", buf, sizeof buf), "gpu");
    el_configs_free(cfgs);
}

/* el_definition_forwards_ilp64: what a shim may call besides the ILP64
 * build of its routine does not change the verdict, and neither does
 * NDEBUG (assert calls __assert_fail without it, nothing with it). */
static enum CXChildVisitResult find_def(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    void **want = d;
    CXString sp = clang_getCursorSpelling(c);
    if (clang_getCursorKind(c) == CXCursor_FunctionDecl && clang_isCursorDefinition(c) &&
        strcmp(clang_getCString(sp), want[0]) == 0)
        *(CXCursor *)want[1] = c;
    clang_disposeString(sp);
    return CXChildVisit_Continue;
}

static bool forwards_ilp64(const el_config *cfg, const char *code, const char *fn, bool ndebug)
{
    CXIndex idx = clang_createIndex(0, 0);
    struct CXUnsavedFile f = {"/virtual/shim.c", code, (unsigned long)strlen(code)};
    const char *args[] = {"-std=c11", "-w", "-DNDEBUG"};
    CXTranslationUnit tu = NULL;
    assert_int_equal(clang_parseTranslationUnit2(idx, "/virtual/shim.c", args, ndebug ? 3 : 2, &f,
                                                 1, 0, &tu),
                     CXError_Success);
    CXCursor def = clang_getNullCursor(), callee;
    void *want[2] = {(void *)fn, &def};
    clang_visitChildren(clang_getTranslationUnitCursor(tu), find_def, want);
    assert_false(clang_Cursor_isNull(def));
    bool r = el_definition_forwards_ilp64(cfg, def, &callee);
    clang_disposeTranslationUnit(tu);
    clang_disposeIndex(idx);
    return r;
}

static void test_ilp64_shim_calls(void **state)
{
    (void)state;
    tt_w("src/a.c", "int x;\n");
    el_configs *cfgs;
    const el_config *cfg = config_of(&cfgs, "src/a.c");
    static const char head[] =
        "#include <assert.h>\n#include <stdlib.h>\n"
        "void xerbla_(const char *, const int *, int);\n"
        "void XERBLA(const char *, const int *, int);\n"
        "int lsame_(const char *, const char *, int, int);\n"
        "void dpotrf_64_(const char *u, const long *n, double *a, const long *lda, long *info);\n"
        "static void kernel(double *a) { a[0] = 1; }\n";
    static const char *const bodies[] = {
        "assert(n && *n >= 0);",
        "if (*n < 0) { int e = 2; xerbla_(\"DPOTRF\", &e, 6); return; }",
        "if (*n < 0) { int e = 2; XERBLA(\"DPOTRF\", &e, 6); return; }",
        "if (!lsame_(u, \"U\", 1, 1)) abort();",
        "if (*n < 0) exit(1);",
        "if (__builtin_expect(*n < 0, 0)) _Exit(2);",
        "void *w = NULL; if (posix_memalign(&w, 64, 8)) abort(); free(w);",
    };
    char code[2048];
    for (size_t i = 0; i < sizeof bodies / sizeof *bodies; i++) {
        snprintf(code, sizeof code,
                 "%svoid dpotrf_(const char *u, const int *n, double *a, const int *lda,"
                 " int *info)\n{ %s long ln = *n, llda = *lda, li = 0;"
                 " dpotrf_64_(u, &ln, a, &llda, &li); *info = (int)li; }\n",
                 head, bodies[i]);
        for (int nd = 0; nd < 2; nd++)
            if (!forwards_ilp64(cfg, code, "dpotrf_", nd)) {
                print_error("not a shim%s: %s\n", nd ? " with NDEBUG" : "", bodies[i]);
                fail();
            }
    }
    /* a kernel of its own for some calls: no shim */
    snprintf(code, sizeof code,
             "%svoid dpotrf_(const char *u, const int *n, double *a, const int *lda,"
             " int *info)\n{ if (*n == 1) { kernel(a); return; }"
             " long ln = *n, llda = *lda, li = 0; dpotrf_64_(u, &ln, a, &llda, &li);"
             " *info = (int)li; }\n",
             head);
    assert_false(forwards_ilp64(cfg, code, "dpotrf_", false));
    el_configs_free(cfgs);
}

/* el_backend_header_memo answers as el_config_is_backend_header does,
 * for each configuration apart (one thread's memo holds several), however
 * the spelling and the path read run together. */
static void test_header_memo(void **state)
{
    (void)state;
    tt_w("one/.emberlint.json", "{\"backend_headers\": [\"gpu/k.h\", \"x 2:y\"]}\n");
    tt_w("one/a.c", "int x;\n");
    tt_w("two/.emberlint.json", "{\"backend_headers\": [\"cpu/k.h\"]}\n");
    tt_w("two/a.c", "int x;\n");
    el_configs *c1, *c2;
    const el_config *one = config_of(&c1, "one/a.c");
    const el_config *two = config_of(&c2, "two/a.c");
    char *gpu = tt_path(tt_dir, "one/gpu/k.h"), *cpu = tt_path(tt_dir, "two/cpu/k.h");
    const char *spelled[] = {"gpu/k.h", "cpu/k.h", "k.h", "x 2:y", "x", "", "eh/backend_api.h"};
    const char *resolved[] = {NULL, gpu, cpu, "/nowhere/x 2:y", "/nowhere/y"};
    for (int round = 0; round < 2; round++)
        for (size_t i = 0; i < sizeof spelled / sizeof *spelled; i++)
            for (size_t j = 0; j < sizeof resolved / sizeof *resolved; j++)
                for (int k = 0; k < 2; k++) {
                    const el_config *cfg = k ? two : one;
                    bool want = el_config_is_backend_header(cfg, spelled[i], resolved[j]);
                    if (el_backend_header_memo(cfg, spelled[i], resolved[j]) != want) {
                        print_error("config %d, '%s' at '%s': not %d\n", k, spelled[i],
                                    resolved[j] ? resolved[j] : "(null)", want);
                        fail();
                    }
                }
    assert_true(el_backend_header_memo(one, "gpu/k.h", NULL));
    assert_false(el_backend_header_memo(two, "gpu/k.h", NULL));

    /* Questions whose keys would be one text without the spelling's
     * length ("a +b", not found; "a" at "b -") or without the mark of a
     * path (found at "" or not found), each pair answered differently,
     * asked in both orders. */
    tt_w("three/.emberlint.json",
         "{\"backend_headers\": [\"a +b\"], \"backend_dirs\": [\"kern/<name>/\"]}\n");
    tt_w("three/a.c", "int x;\n");
    tt_w("four/.emberlint.json",
         "{\"backend_headers\": [\"a +b\"], \"backend_dirs\": [\"kern/<name>/\"]}\n");
    tt_w("four/a.c", "int x;\n");
    el_configs *c3, *c4;
    const el_config *three = config_of(&c3, "three/a.c");
    const el_config *four = config_of(&c4, "four/a.c");
    static const char *const pairs[][4] = {
        {"a +b", NULL, "a", "b -"},
        {"kern/cu/k.h", NULL, "kern/cu/k.h", ""},
    };
    for (size_t i = 0; i < sizeof pairs / sizeof *pairs; i++) {
        const char *sa = pairs[i][0], *ra = pairs[i][1], *sb = pairs[i][2], *rb = pairs[i][3];
        for (int k = 0; k < 2; k++) {
            const el_config *cfg = k ? four : three;
            bool want_a = el_config_is_backend_header(cfg, sa, ra);
            bool want_b = el_config_is_backend_header(cfg, sb, rb);
            assert_true(want_a != want_b);
            /* three (a memo of its own: another root) asks the first of the
             * pair first, four the second */
            for (int round = 0; round < 2; round++) {
                if (k == 0)
                    assert_int_equal(el_backend_header_memo(cfg, sa, ra), want_a);
                assert_int_equal(el_backend_header_memo(cfg, sb, rb), want_b);
                assert_int_equal(el_backend_header_memo(cfg, sa, ra), want_a);
            }
        }
    }
    free(gpu);
    free(cpu);
    el_configs_free(c1);
    el_configs_free(c2);
    el_configs_free(c3);
    el_configs_free(c4);
}

int main(void)
{
    el_path_init();
    char *err = NULL;
    if (el_meta_init(el_rule_registry, &err) < 0 || el_knowledge_init(&err) < 0) {
        fprintf(stderr, "test_backend_names: %s\n", err);
        return 1;
    }
    const struct CMUnitTest tests[] = {
        tt_scratch_test(test_builtin_entries),
        tt_scratch_test(test_project_entries),
        tt_scratch_test(test_header_memo),
        tt_scratch_test(test_ilp64_shim_calls),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    el_knowledge_free();
    el_meta_free();
    return rc;
}
