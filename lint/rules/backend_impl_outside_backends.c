/* lint/rules/backend_impl_outside_backends.c -- EH104
 * backend-impl-outside-backends: backend code that lives outside the
 * backend directories (the seeds' ops/torch/ situation: legacy
 * ops/<backend>/ files next to the frontend).  Two shapes, reported at the
 * definition:
 *   - a definition of a backend-specific function or variable, named with
 *     an eh_<backend>_ prefix (backend_prefixes entries holding <backend>,
 *     for every known backend; the whole prefix must match);
 *   - any function definition in a file that itself includes a
 *     backend-private header (backend_headers, or a file under a backend
 *     directory): it is written against a backend, not against ops.
 * Declarations alone are not findings (a prototype does not implement
 * anything); backend and core files are exempt by class (applies_to). */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "backend_header_memo.h"
#include "clang_util.h"
#include "rule.h"
#include "separation.h"

typedef struct backend_include {
    CXFile includer;
    char header[256];
    char backend[64]; /* "" unless the header is under backends/<name>/ */
} backend_include;

typedef struct definition {
    CXFile file;
    unsigned line, col;
    char name[256];
} definition;

typedef struct state {
    backend_include *inc;
    size_t n_inc, cap_inc;
    definition *defs;
    size_t n_defs, cap_defs;
} state;

static const enum CXCursorKind kinds[] = {
    CXCursor_InclusionDirective, CXCursor_FunctionDecl, CXCursor_VarDecl, EL_KINDS_END,
};

/* "backends/torch/" from the first backend_dirs pattern naming <name>. */
static const char *backend_dir(const el_config *cfg, const char *backend, char *buf, size_t n)
{
    size_t nd = 0;
    const char *const *dirs = el_config_strings(cfg, "backend_dirs", &nd);
    for (size_t i = 0; i < nd; i++) {
        const char *p = dirs[i] + (dirs[i][0] == '/');
        const char *at = strstr(p, "<name>");
        if (at) {
            snprintf(buf, n, "%.*s%s%s", (int)(at - p), p, backend, at + strlen("<name>"));
            return buf;
        }
    }
    snprintf(buf, n, "the backend's directory");
    return buf;
}

static void on_include(el_ctx *ctx, state *s, CXCursor c)
{
    char spelled[256];
    elc_spelling(c, spelled, sizeof spelled);
    CXFile inc = clang_getIncludedFile(c);
    char name[PATH_MAX];
    char *real = inc ? realpath(elc_file_name(inc, name, sizeof name), NULL) : NULL;
    if (el_backend_header_memo(el_ctx_config(ctx), spelled, real)) {
        backend_include *v = sep_grow(s->inc, &s->cap_inc, s->n_inc, sizeof *v);
        if (v) {
            s->inc = v;
            backend_include *b = &s->inc[s->n_inc++];
            elc_cursor_location(c, &b->includer, NULL, NULL);
            snprintf(b->header, sizeof b->header, "%s", spelled);
            b->backend[0] = '\0';
            if (real && el_classify_path(ctx, real, b->backend, sizeof b->backend) != EL_FILE_BACKEND)
                b->backend[0] = '\0';
        }
    }
    free(real);
}

static void on_definition(el_ctx *ctx, state *s, CXCursor c)
{
    enum CXCursorKind k = clang_getCursorKind(c);
    if (!clang_isCursorDefinition(c))
        return;
    if (k == CXCursor_VarDecl &&
        clang_getCursorKind(clang_getCursorSemanticParent(c)) != CXCursor_TranslationUnit)
        return; /* locals */
    char name[256], backend[64], dir[256];
    elc_spelling(c, name, sizeof name);
    if (el_backend_of_symbol(el_ctx_config(ctx), name, backend, sizeof backend)) {
        el_report(ctx, c, "definition of backend %s '%s' outside the backend directories; "
                  "backend %s code belongs in %s", k == CXCursor_FunctionDecl ? "function" : "variable",
                  name, backend, backend_dir(el_ctx_config(ctx), backend, dir, sizeof dir));
        return;
    }
    if (k != CXCursor_FunctionDecl)
        return;
    /* Judged at the end, once every #include of the file was seen. */
    definition *v = sep_grow(s->defs, &s->cap_defs, s->n_defs, sizeof *v);
    if (!v)
        return;
    s->defs = v;
    definition *d = &s->defs[s->n_defs++];
    elc_cursor_location(c, &d->file, &d->line, &d->col);
    snprintf(d->name, sizeof d->name, "%s", name);
}

static void on_cursor(el_ctx *ctx, void *st, CXCursor c)
{
    if (!el_applies_at(ctx, clang_getCursorLocation(c)))
        return;
    if (clang_getCursorKind(c) == CXCursor_InclusionDirective)
        on_include(ctx, st, c);
    else
        on_definition(ctx, st, c);
}

static void end(el_ctx *ctx, void *st)
{
    state *s = st;
    CXTranslationUnit tu = el_tu(ctx);
    for (size_t i = 0; i < s->n_defs; i++) {
        const definition *d = &s->defs[i];
        const backend_include *b = NULL;
        for (size_t k = 0; k < s->n_inc && !b; k++)
            if (s->inc[k].includer == d->file)
                b = &s->inc[k];
        if (!b)
            continue;
        char dir[256];
        if (b->backend[0])
            el_report_loc(ctx, clang_getLocation(tu, d->file, d->line, d->col),
                          "function '%s' is defined in a file that includes '%s', a header of "
                          "backend '%s'; backend code belongs in %s, frontend code calls ops",
                          d->name, b->header, b->backend,
                          backend_dir(el_ctx_config(ctx), b->backend, dir, sizeof dir));
        else
            el_report_loc(ctx, clang_getLocation(tu, d->file, d->line, d->col),
                          "function '%s' is defined in a file that includes backend-private "
                          "header '%s'; backend code belongs in a backend directory, frontend "
                          "code calls ops", d->name, b->header);
    }
    free(s->inc);
    free(s->defs);
    s->inc = NULL;
    s->defs = NULL;
}

const el_rule el_rule_backend_impl_outside_backends = {
    .id = "EH104",
    .kinds = kinds,
    .state_size = sizeof(state),
    .on_cursor = on_cursor,
    .end = end,
};
