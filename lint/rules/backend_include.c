/* lint/rules/backend_include.c -- EH101 backend-include: frontend code
 * includes a backend-private header: a file under a backend directory
 * (backends/<name>/), or a header the configuration lists in
 * backend_headers (<eh/backend_api.h>, <cblas.h>, <lapacke.h>,
 * <fftw3.h>, CUDA headers...).  Matched on the name as written and on the
 * file it resolves to, so "../backends/blas/blas.h", a missing CUDA header
 * and a path through another -I directory are all seen. */
#include <limits.h>
#include <stdlib.h>

#include "clang_util.h"
#include "rule.h"

static const enum CXCursorKind kinds[] = {CXCursor_InclusionDirective, EL_KINDS_END};

static void on_include(el_ctx *ctx, void *state, CXCursor c)
{
    (void)state;
    if (!el_applies_at(ctx, clang_getCursorLocation(c)))
        return;
    char spelled[PATH_MAX];
    elc_spelling(c, spelled, sizeof spelled);
    CXFile inc = clang_getIncludedFile(c);
    char name[PATH_MAX];
    char *real = inc ? realpath(elc_file_name(inc, name, sizeof name), NULL) : NULL;
    if (el_config_is_backend_header(el_ctx_config(ctx), spelled, real)) {
        char backend[64] = "";
        if (real && el_classify_path(ctx, real, backend, sizeof backend) == EL_FILE_BACKEND)
            el_report(ctx, c, "frontend code includes '%s', a header of backend '%s'; "
                      "include <eh/eh.h> and call ops instead", spelled, backend);
        else
            el_report(ctx, c, "frontend code includes backend-private header '%s'; "
                      "include <eh/eh.h> and call ops instead", spelled);
    }
    free(real);
}

const el_rule el_rule_backend_include = {
    .id = "EH101",
    .kinds = kinds,
    .on_cursor = on_include,
};
