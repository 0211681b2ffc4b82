/* lint/rules/backend_impl_outside_backends.c -- EH104
 * backend-impl-outside-backends: backend implementations outside the
 * backend directories (the seeds' ops/torch/ situation: legacy
 * ops/<backend>/ files next to the frontend).  Two shapes, reported at
 * the definition:
 *   - a definition of a function or file-scope variable named like a
 *     backend's: an eh_<backend>_ prefix (backend_prefixes entries holding
 *     <backend>, for every known backend; the whole prefix must match), or
 *     a prefix the project itself put in backend_prefixes;
 *   - a function of a legacy backend directory (legacy_backend_dirs,
 *     "ops/<name>/") that uses backend symbols (backend_symbols.h) or
 *     what a backend-private header declares (the backend-author API).
 * Elsewhere the root cause is reported once, where it is: EH101 at a
 * backend include, EH102 at each backend call.  A function that merely
 * sits in a file with a backend include is not a finding, nor is a
 * definition with a library's prefix (the project's own cuda_* wrapper).
 * Declarations alone are not findings (a prototype does not implement
 * anything); backend and core files are exempt by class (applies_to). */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "backend_header_memo.h"
#include "backend_symbols.h"
#include "clang_util.h"
#include "config.h"
#include "rule.h"

typedef struct state {
    bs_cache seen;
    bool in_legacy;           /* the function being walked is in a legacy directory */
    char legacy[64];          /* its backend */
    char used[256];           /* the first backend symbol it uses, "" none yet */
    char used_backend[64];
    bool named;               /* reported already by its name */
} state;

static const enum CXCursorKind kinds[] = {
    CXCursor_FunctionDecl, CXCursor_VarDecl, CXCursor_DeclRefExpr, CXCursor_TypeRef,
    CXCursor_MacroExpansion, EL_KINDS_END,
};

/* The prefix or pattern the project configured (not a built-in library
 * entry) that `name` matches, or NULL. */
static const char *project_prefix(const el_config *cfg, const char *name)
{
    const el_strlist *l = &cfg->prefixes;
    for (size_t i = 0; i < l->n; i++)
        if (!l->from[i].builtin && el_backend_prefix_matches(l->v[i], name))
            return l->v[i];
    return NULL;
}

/* True when reported. */
static bool on_definition(el_ctx *ctx, CXCursor c)
{
    enum CXCursorKind k = clang_getCursorKind(c);
    if (!el_is_definition(ctx, c))
        return false;
    enum CXCursorKind parent = clang_getCursorKind(clang_getCursorSemanticParent(c));
    if (k == CXCursor_VarDecl && parent != CXCursor_TranslationUnit && parent != CXCursor_Namespace &&
        parent != CXCursor_LinkageSpec)
        return false; /* locals (a C++ namespace's variables are file-scope) */
    const el_config *cfg = el_ctx_config(ctx);
    char name[256], backend[64], dir[256];
    elc_spelling(c, name, sizeof name);
    const char *what = k == CXCursor_FunctionDecl ? "function" : "variable";
    if (el_backend_of_symbol(cfg, name, backend, sizeof backend)) {
        el_report(ctx, c, "definition of backend %s '%s' outside the backend directories; "
                  "backend %s's code belongs in %s", what, name, backend,
                  el_backend_dir(ctx, backend, dir, sizeof dir));
        return true;
    }
    const char *pre = project_prefix(cfg, name);
    if (!pre)
        return false;
    const char *named = el_prefix_is_pattern(pre) ? "whose name matches the backend pattern"
                                                   : "named with the backend prefix";
    el_report(ctx, c, "definition of %s '%s', %s '%s', outside the backend directories; "
              "backend code belongs in %s", what, name, named, pre,
              el_backend_dir(ctx, "", dir, sizeof dir));
    return true;
}

/* d is declared in a backend-private header (<eh/backend_api.h>, a
 * vendor's <cblas.h>): the backend-author API counts as backend code. */
static bool in_backend_header(el_ctx *ctx, CXCursor d)
{
    CXFile f = NULL;
    elc_cursor_location(clang_getCanonicalCursor(d), &f, NULL, NULL);
    if (!f)
        return false;
    const char *real = el_file_path(ctx, f);
    return real && el_backend_header_memo(el_ctx_config(ctx), NULL, real);
}

/* A use of a backend symbol inside a legacy directory's function. */
static void on_use(el_ctx *ctx, state *s, CXCursor c)
{
    if (s->used[0])
        return; /* one is enough to say so */
    CXCursor d = clang_getCursorReferenced(c);
    enum CXCursorKind k = clang_getCursorKind(d);
    if (clang_Cursor_isNull(d) || clang_isInvalid(k))
        return;
    if (k == CXCursor_VarDecl && clang_getCursorKind(clang_getCursorSemanticParent(d)) !=
                                     CXCursor_TranslationUnit)
        return; /* a local */
    char backend[64];
    bs_why w = bs_classify(ctx, &s->seen, d, backend, sizeof backend);
    if ((w == BS_NOT_BACKEND || w == BS_UNDECIDED) && !in_backend_header(ctx, d))
        return;
    elc_spelling(d, s->used, sizeof s->used);
    snprintf(s->used_backend, sizeof s->used_backend, "%s", backend);
}

static void on_cursor(el_ctx *ctx, void *st, CXCursor c)
{
    state *s = st;
    enum CXCursorKind k = clang_getCursorKind(c);
    /* uses matter only inside a legacy directory's function (cheap test
     * first: most cursors are uses) */
    if (k != CXCursor_FunctionDecl && k != CXCursor_VarDecl && (!s->in_legacy || s->used[0]))
        return;
    if (!el_applies_to(ctx, c))
        return;
    if (k == CXCursor_FunctionDecl || k == CXCursor_VarDecl) {
        bool named = on_definition(ctx, c);
        if (k == CXCursor_FunctionDecl && el_is_definition(ctx, c) && el_depth(ctx) == 0) {
            s->named = named;
            CXFile f = NULL;
            elc_cursor_location(c, &f, NULL, NULL);
            const char *real = el_file_path(ctx, f);
            s->in_legacy = real && el_config_legacy_backend(el_ctx_config(ctx), real, s->legacy,
                                                            sizeof s->legacy);
            s->used[0] = '\0';
        }
        return;
    }
    CXCursor fn;
    if (s->in_legacy && el_enclosing_function(ctx, &fn))
        on_use(ctx, s, c);
}

static void on_leave(el_ctx *ctx, void *st, CXCursor c)
{
    state *s = st;
    if (clang_getCursorKind(c) != CXCursor_FunctionDecl || !s->in_legacy || el_depth(ctx) != 0)
        return;
    if (s->used[0] && !s->named && el_applies_to(ctx, c)) {
        char name[256], dir[256];
        elc_spelling(c, name, sizeof name);
        el_report(ctx, c, "function '%s' of a legacy backend directory uses backend symbols "
                  "('%s'); backend %s's code belongs in %s", name, s->used, s->legacy,
                  el_backend_dir(ctx, s->legacy, dir, sizeof dir));
    }
    s->in_legacy = false;
    s->used[0] = '\0';
}

static void end(el_ctx *ctx, void *st)
{
    (void)ctx;
    state *s = st;
    bs_cache_free(&s->seen);
}

const el_rule el_rule_backend_impl_outside_backends = {
    .id = "EH104",
    .kinds = kinds,
    .state_size = sizeof(state),
    .on_cursor = on_cursor,
    .on_leave = on_leave,
    .end = end,
};
