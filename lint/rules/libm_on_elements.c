/* lint/rules/libm_on_elements.c -- EH202 libm-on-elements: a <math.h>
 * function (or abs/labs) applied to elements of tensor storage, or to a
 * value computed from them (`sqrtf(p[i] * p[i])`, `exp(v)` where v was
 * read from storage).  The functions and the op each maps to are data:
 * rules/op_equivalents.json ("libm", "stdlib"); the message names the
 * project's replacement ("replacements"), or where the TU uses libeh its
 * op (sqrt -> eh_sqrt, expf -> eh_exp, pow -> eh_power, ...) or that
 * there is none yet.
 *
 * Only functions declared in a system header (or compiler builtins) count,
 * so a project's own `log()` is not libm.  Host copies made by
 * eh_to_buffer are not storage (see EH201). */
#include <string.h>

#include "candidates.h"
#include "clang_util.h"
#include "mem.h"
#include "rule.h"
#include "storage_flow.h"

static const enum CXCursorKind kinds[] = {SF_OBSERVED_KINDS, EL_KINDS_END};


static void begin(el_ctx *ctx, void *st)
{
    (void)ctx;
    sf_candidates_begin(st);
}

static void end(el_ctx *ctx, void *st)
{
    (void)ctx;
    sf_candidates_end(st);
}

/* Declared by the C library or the compiler, not by the project.  (A
 * compiler builtin is declared implicitly at its first use.) */
static bool is_library_function(CXCursor decl, const char *name)
{
    if (strncmp(name, "__builtin_", 10) == 0)
        return true;
    CXSourceLocation loc = clang_getCursorLocation(decl);
    CXFile f = NULL;
    clang_getSpellingLocation(loc, &f, NULL, NULL, NULL);
    return !f || clang_Location_isInSystemHeader(loc);
}

static void judge(el_ctx *ctx, const sf_func *f, CXCursor call)
{
    CXCursor callee = elc_callee(call);
    if (clang_Cursor_isNull(callee))
        return;
    char name[128];
    elc_spelling(callee, name, sizeof name);
    const char *base = NULL;
    if (!sf_libm(name, NULL, &base) || !is_library_function(callee, name))
        return;
    const char *from = NULL;
    int n = clang_Cursor_getNumArguments(call);
    for (int i = 0; i < n && !from; i++)
        from = sf_derived(f, clang_Cursor_getArgument(call, (unsigned)i), SF_ELEMENTS);
    if (!from)
        return;
    char use[160];
    bool none = false;
    const char *suggest = sf_suggest_libm(ctx, name, &none, use, sizeof use);
    if (suggest)
        el_report(ctx, call, "'%s' on elements of tensor storage (from %s); use %s on the tensor",
                  name, from, suggest);
    else if (none)
        el_report(ctx, call, "'%s' on elements of tensor storage (from %s); no op computes %s yet: "
                  "add one (docs/adding-an-op.md) rather than computing on the host",
                  name, from, base);
    else
        el_report(ctx, call, "'%s' on elements of tensor storage (from %s); compute it on the "
                  "tensor, not element by element on the host", name, from);
}

static void on_cursor(el_ctx *ctx, void *st_, CXCursor c)
{
    sf_candidates *st = st_;
    if (!sf_candidates_enter(ctx, st, c))
        return;
    enum CXCursorKind kind = clang_getCursorKind(c);
    if (kind != CXCursor_CallExpr)
        return;
    sf_candidates_add(st, c);
}

static void on_leave(el_ctx *ctx, void *st, CXCursor c)
{
    sf_candidates_leave(ctx, st, c, judge);
}

const el_rule el_rule_libm_on_elements = {
    .id = "EH202",
    .kinds = kinds,
    .state_size = sizeof(sf_candidates),
    .begin = begin,
    .on_cursor = on_cursor,
    .on_leave = on_leave,
    .end = end,
};
