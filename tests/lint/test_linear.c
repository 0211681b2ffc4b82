/* tests/lint/test_linear.c -- time per file stays linear in its call
 * sites.  Asking libclang for "the cursor at this location"
 * (clang_getCursor) searches from the top of the TU, so doing it once per
 * call made a file's time grow with the square of its calls (10k calls:
 * 11.6 s).  This test counts those searches (by putting a counter in
 * clang_getCursor's place in the table libclang's functions are called
 * through, clang_api.h) while the engine lints, with fixes, a file of many
 * backend calls, macro uses and backend branches: the count must not grow
 * with the file.  Speed itself is measured in bench/ (the 20k-call row). */
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
#include "registry.h"
#include "path.h"
#include "sources.h"
#include "strbuf.h"

static unsigned long get_cursor_calls;
static CXCursor (*real_get_cursor)(CXTranslationUnit, CXSourceLocation);

/* Counts, then does what libclang does. */
static CXCursor counting_get_cursor(CXTranslationUnit tu, CXSourceLocation loc)
{
    get_cursor_calls++;
    return real_get_cursor(tu, loc);
}

/* (the table is the loader's own, not const: el_clang_need only hands
 * it out as such) */
static void count_get_cursor(void)
{
    el_clang_api *api = (el_clang_api *)el_clang_need();
    if (!real_get_cursor) {
        real_get_cursor = api->p_clang_getCursor;
        api->p_clang_getCursor = counting_get_cursor;
    }
}

/* A frontend file with n calls of each kind. */
static char *big_file(unsigned n)
{
    el_buf b = {0};
    el_buf_puts(&b, "#include <eh/eh.h>\n"
                    "eh_tensor *eh_blas_add(const eh_tensor *a, const eh_tensor *b);\n"
                    "#define ADD(a, b) eh_blas_add((a), (b))\n"
                    "#define PLUS +\n"
                    "int f(eh_tensor *x, eh_tensor *y, const char *be, int k);\n"
                    "int f(eh_tensor *x, eh_tensor *y, const char *be, int k)\n{\n");
    for (unsigned i = 0; i < n; i++) {
        el_buf_puts(&b, "    eh_blas_add(x, y);\n");           /* EH102, with a fix */
        el_buf_puts(&b, "    ADD(x, y);\n");                   /* a call from a macro */
        el_buf_puts(&b, "    k = k PLUS 1;\n");                /* an operator from a macro */
        el_buf_printf(&b, "    if (be[0] == 'b') k += %u;\n", i); /* a branch */
    }
    el_buf_puts(&b, "    return k;\n}\n");
    return el_buf_take(&b);
}

static unsigned long lint_counting(const char *dir, unsigned n)
{
    char *code = big_file(n);
    char *path = tt_write(dir, "big.c", code);
    free(code);
    char *err = NULL;
    el_configs *cfgs = el_configs_new(NULL, &err);
    assert_non_null(cfgs);
    el_filehash *hashes = el_filehash_new();
    el_sources srcs;
    memset(&srcs, 0, sizeof srcs);
    char *paths[] = {path};
    assert_int_equal(el_sources_collect(paths, 1, cfgs, 1u << 26, hashes, &srcs), 0);
    el_configs_finalize(cfgs);
    size_t nm = el_meta_count();
    bool *selected = calloc(nm, sizeof *selected);
    for (size_t k = 0; k < nm; k++)
        selected[k] = true;
    char *inc = tt_fmt("-I%s/libeh/include", LINT_SRCDIR);
    char *extra[] = {inc};
    el_engine_opts o = {.jobs = 1, .selected = selected, .want_fixes = true, .extra_args = extra,
                        .n_extra = 1};
    el_engine_stats st = {0};
    el_findings out = {0};
    count_get_cursor();
    get_cursor_calls = 0;
    el_engine_run(&o, &srcs, hashes, &out, &st);
    unsigned long calls = get_cursor_calls;
    size_t eh102 = 0;
    for (size_t i = 0; i < out.n; i++) {
        assert_string_not_equal(out.v[i].rule, "EH000");
        eh102 += strcmp(out.v[i].rule, "EH102") == 0;
    }
    assert_true(eh102 >= n); /* the calls were looked at */
    el_findings_free(&out);
    free(inc);
    free(selected);
    el_sources_free(&srcs);
    el_filehash_free(hashes);
    el_configs_free(cfgs);
    free(path);
    return calls;
}

static void test_cursor_searches_do_not_grow_with_calls(void **state)
{
    (void)state;
    char *dir = tt_tmpdir();
    unsigned long small = lint_counting(dir, 50);
    unsigned long large = lint_counting(dir, 1000);
    assert_true(el_clang_need()->p_clang_getCursor == counting_get_cursor); /* it counted */
    if (large > small) {
        print_error("clang_getCursor: %lu searches for 50 call sites, %lu for 1000\n", small, large);
        fail();
    }
    tt_rmtree(dir);
    free(dir);
}

int main(void)
{
    el_path_init();
    char *err = NULL;
    if (el_meta_init(el_rule_registry, &err) < 0 || el_knowledge_init(&err) < 0) {
        fprintf(stderr, "test_linear: %s\n", err);
        return 1;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cursor_searches_do_not_grow_with_calls),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    el_knowledge_free();
    el_meta_free();
    return rc;
}
