/* tests/lint/test_own_backend_include.c -- does a file's own text include
 * a backend header (lint/engine/own_backend_include.h: such a file is
 * parsed without a shared prefix, since EH101 reads its whole TU)? */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lint_test.h"
#include "config.h"
#include "knowledge.h"
#include "metadata.h"
#include "own_backend_include.h"
#include "path.h"
#include "registry.h"

static bool includes_backend(const char *rel)
{
    char *err = NULL;
    el_configs *cfgs = el_configs_new(NULL, &err);
    assert_non_null(cfgs);
    char *path = tt_path(tt_dir, rel);
    const el_config *cfg = el_configs_for(cfgs, path, &err);
    assert_non_null(cfg);
    el_configs_finalize(cfgs);
    bool yes = el_includes_backend_header(path, cfg);
    free(path);
    el_configs_free(cfgs);
    return yes;
}

static void test_what_the_text_includes(void **state)
{
    (void)state;
    tt_w(".emberlint.json", "{\"backend_headers\": [\"vendor_blas.h\"]}\n");
    tt_w("backends/ref/kernels.h", "void k(void);\n");
    tt_w("src/front.h", "void f(void);\n");
    /* under a backend directory, resolved next to the file */
    tt_w("src/a.c", "#include <stdio.h>\n#include <stdlib.h>\n  #  include \"../backends/ref/kernels.h\"\n");
    /* a backend header named in backend_headers, by its name alone */
    tt_w("src/b.c", "#include <stdio.h>\n\nint x;\n#include <vendor_blas.h>\n");
    /* the built-in backend_headers */
    tt_w("src/c.c", "#include <eh/backend_api.h>\n");
    /* none: a frontend header, a comment, a name that only looks alike */
    tt_w("src/d.c", "#include <stdio.h>\n#include \"front.h\"\n// #include <vendor_blas.h>\n"
                    "#include \"kernels.h\"\n");
    assert_true(includes_backend("src/a.c"));
    assert_true(includes_backend("src/b.c"));
    assert_true(includes_backend("src/c.c"));
    assert_false(includes_backend("src/d.c"));
    assert_false(includes_backend("src/missing.c"));
}

/* Legacy backend directories (ops/<name>/): their headers are backend
 * headers for EH101, except to a file of the same legacy backend. */
static void test_legacy_backend_headers(void **state)
{
    (void)state;
    tt_w("ops/ref/ref_ops.h", "void ref_add(void);\n");
    tt_w("ops/blas/blas_ops.h", "void blas_add(void);\n");
    tt_w("ops/ref/add.c", "#include <math.h>\n#include \"ref_ops.h\"\n");
    tt_w("ops/ref/mixed.c", "#include <math.h>\n#include \"ref_ops.h\"\n#include \"../blas/blas_ops.h\"\n");
    tt_w("app.c", "#include <math.h>\n#include \"ops/ref/ref_ops.h\"\n");
    assert_false(includes_backend("ops/ref/add.c"));
    assert_true(includes_backend("ops/ref/mixed.c"));
    assert_true(includes_backend("app.c"));
}

int main(void)
{
    el_path_init();
    char *err = NULL;
    if (el_meta_init(el_rule_registry, &err) < 0 || el_knowledge_init(&err) < 0) {
        fprintf(stderr, "test_own_backend_include: %s\n", err);
        return 1;
    }
    const struct CMUnitTest tests[] = {
        tt_scratch_test(test_what_the_text_includes),
        tt_scratch_test(test_legacy_backend_headers),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    el_knowledge_free();
    el_meta_free();
    return rc;
}
