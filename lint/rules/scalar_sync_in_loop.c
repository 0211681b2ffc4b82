/* lint/rules/scalar_sync_in_loop.c -- EH203 scalar-sync-in-loop: a host
 * access (eh_item, eh_to_buffer, eh_data*: the lists of
 * rules/host_access.json) called inside a loop: in its body, its
 * condition or a for loop's increment.  Each call forces evaluation of a
 * deferred tensor and synchronises with the backend, once per iteration.
 *
 * Not findings: a call in a for loop's init clause (it runs once), and
 * loops that run their body once: `do { ... } while (0)` (the macro idiom)
 * and `while (0)`.  Calls through macros and function-pointer aliases are
 * seen (elc_callee). */
#include <string.h>

#include "clang_util.h"
#include "rule.h"
#include "storage_flow.h"

static const enum CXCursorKind kinds[] = {CXCursor_CallExpr, EL_KINDS_END};

/* The condition is the constant 0. */
static bool never_repeats(CXCursor cond)
{
    if (clang_Cursor_isNull(cond))
        return false;
    CXEvalResult r = clang_Cursor_Evaluate(cond);
    if (!r)
        return false;
    bool zero = clang_EvalResult_getKind(r) == CXEval_Int && clang_EvalResult_getAsLongLong(r) == 0;
    clang_EvalResult_dispose(r);
    return zero;
}

/* `child`, a child of the for statement `loop`, is (in) its init clause:
 * no `;` of the header comes before it. */
static bool in_for_init(CXCursor loop, CXCursor child)
{
    if (clang_getCursorKind(child) == CXCursor_DeclStmt)
        return true; /* only the init clause declares, in C */
    CXFile lf = NULL, cf = NULL;
    unsigned lo = 0, co = 0;
    clang_getExpansionLocation(clang_getRangeStart(clang_getCursorExtent(loop)), &lf, NULL, NULL, &lo);
    clang_getExpansionLocation(clang_getRangeStart(clang_getCursorExtent(child)), &cf, NULL, NULL, &co);
    if (!lf || lf != cf || co <= lo)
        return false; /* from a macro: count it as in the loop */
    CXTranslationUnit tu = clang_Cursor_getTranslationUnit(loop);
    CXSourceRange range = clang_getRange(clang_getLocationForOffset(tu, lf, lo),
                                         clang_getLocationForOffset(tu, lf, co));
    CXToken *toks = NULL;
    unsigned nt = 0;
    clang_tokenize(tu, range, &toks, &nt);
    int depth = 0;
    bool semicolon = false;
    for (unsigned i = 0; i < nt && !semicolon; i++) {
        unsigned off = 0;
        clang_getSpellingLocation(clang_getTokenLocation(tu, toks[i]), NULL, NULL, NULL, &off);
        if (off >= co)
            break;
        if (clang_getTokenKind(toks[i]) != CXToken_Punctuation)
            continue;
        char s[4];
        elc_string(clang_getTokenSpelling(tu, toks[i]), s, sizeof s);
        if (strcmp(s, "(") == 0)
            depth++;
        else if (strcmp(s, ")") == 0)
            depth--;
        else if (strcmp(s, ";") == 0 && depth == 1)
            semicolon = true;
    }
    if (toks)
        clang_disposeTokens(tu, toks, nt);
    return !semicolon;
}

/* The loop around the current cursor `call` whose body, condition or
 * increment it is in; false when there is none. */
static bool enclosing_loop(el_ctx *ctx, CXCursor call, CXCursor *loop)
{
    unsigned depth = el_depth(ctx);
    for (unsigned i = 0; i < depth; i++) {
        CXCursor a = el_ancestor(ctx, i);
        CXCursor on_path = i == 0 ? call : el_ancestor(ctx, i - 1);
        CXCursor k[4];
        unsigned n;
        switch (clang_getCursorKind(a)) {
        case CXCursor_FunctionDecl:
            return false;
        case CXCursor_WhileStmt:
            n = sf_children(a, k, 2);
            if (n == 2 && never_repeats(k[0]))
                continue;
            *loop = a;
            return true;
        case CXCursor_DoStmt:
            n = sf_children(a, k, 2);
            if (n == 2 && never_repeats(k[1]))
                continue;
            *loop = a;
            return true;
        case CXCursor_ForStmt:
            if (in_for_init(a, on_path))
                continue;
            *loop = a;
            return true;
        default:
            break;
        }
    }
    return false;
}

/* sf_call_function remembers the last call it saw: forget it between
 * translation units. */
static void begin(el_ctx *ctx, void *state)
{
    (void)ctx;
    (void)state;
    sf_tu_reset();
}

static void end(el_ctx *ctx, void *state)
{
    (void)ctx;
    (void)state;
    sf_tu_reset();
}

static void on_call(el_ctx *ctx, void *state, CXCursor call)
{
    (void)state;
    const sf_fn *fn = sf_call_function(call);
    if (!fn || (fn->kind != SF_FN_ACCESSOR && fn->kind != SF_FN_SCALAR_READ &&
                fn->kind != SF_FN_COPY_OUT))
        return;
    if (!el_applies_at(ctx, clang_getCursorLocation(call)))
        return;
    CXCursor loop;
    if (!enclosing_loop(ctx, call, &loop))
        return;
    unsigned line = 0;
    elc_cursor_location(loop, NULL, &line, NULL);
    const char *what = clang_getCursorKind(loop) == CXCursor_ForStmt     ? "for"
                       : clang_getCursorKind(loop) == CXCursor_WhileStmt ? "while"
                                                                          : "do";
    const char *fix = fn->kind == SF_FN_ACCESSOR
                          ? "take the pointer once before the loop"
                      : fn->kind == SF_FN_SCALAR_READ
                          ? "compute on whole tensors with ops and read the result once"
                          : "copy out once, after the loop";
    el_report(ctx, call, "'%s' inside a loop ('%s' at line %u) forces evaluation and a host sync "
              "on every iteration; %s", fn->name, what, line, fix);
}

const el_rule el_rule_scalar_sync_in_loop = {
    .id = "EH203",
    .kinds = kinds,
    .begin = begin,
    .on_cursor = on_call,
    .end = end,
};
