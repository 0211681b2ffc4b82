/* lint/rules/scalar_sync_in_loop.c -- EH203 scalar-sync-in-loop: a host
 * access (eh_item, eh_to_buffer, eh_data*: the lists of
 * rules/host_access.json) called inside a loop: in its body, its
 * condition or a for loop's increment.  Each call forces evaluation of a
 * deferred tensor and synchronises with the backend, once per iteration.
 *
 * Not findings: a call in a for loop's init clause (it runs once),
 * loops that run their body once: `do { ... } while (0)` (the macro idiom)
 * and `while (0)`, and loops that also call one of the configuration's
 * compute_functions (each iteration computes anew what it reads).  Calls
 * through macros and function-pointer aliases are seen (elc_callee). */
#include <fnmatch.h>
#include <string.h>

#include <json-c/json.h>

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

static enum CXChildVisitResult find_continue(CXCursor c, CXCursor p, CXClientData d)
{
    (void)p;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_ContinueStmt) {
        *(bool *)d = true;
        return CXChildVisit_Break;
    }
    /* a nested loop's continue is its own */
    if (k == CXCursor_ForStmt || k == CXCursor_WhileStmt || k == CXCursor_DoStmt ||
        k == CXCursor_CXXForRangeStmt)
        return CXChildVisit_Continue;
    return CXChildVisit_Recurse;
}

/* The loop's body (its last child) ends with an unconditional break or
 * return and never continues: it runs once (`for (;;) { ...; break; }`). */
static bool body_runs_once(CXCursor loop)
{
    unsigned n = elc_child_count(loop);
    CXCursor body = n ? elc_child(loop, n - 1) : clang_getNullCursor();
    if (clang_getCursorKind(loop) == CXCursor_DoStmt)
        body = elc_child(loop, 0);
    if (clang_Cursor_isNull(body) || clang_getCursorKind(body) != CXCursor_CompoundStmt)
        return false;
    unsigned m = elc_child_count(body);
    if (!m)
        return false;
    enum CXCursorKind last = clang_getCursorKind(elc_child(body, m - 1));
    if (last != CXCursor_BreakStmt && last != CXCursor_ReturnStmt)
        return false;
    bool cont = false;
    clang_visitChildren(body, find_continue, &cont);
    return !cont;
}

static bool is_ident_char(char ch)
{
    return ch == '_' || (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'z') ||
           (ch >= 'A' && ch <= 'Z');
}

/* i = x (or i = x, j = y): what an init clause does; a condition
 * compares and an increment steps. */
static bool is_assignment(CXCursor e)
{
    char op[8];
    if (clang_getCursorKind(e) != CXCursor_BinaryOperator || !elc_binary_operator(e, op, sizeof op))
        return false;
    return !strcmp(op, "=") || (!strcmp(op, ",") && is_assignment(elc_child(e, 0)));
}

/* The first child of a for statement a macro wrote (with a clause left
 * out) is its init clause: the macro's definition says whether `for (`
 * is followed by one, else whether the child assigns. */
static bool macro_header_init(CXCursor loop, CXCursor child)
{
    CXCursor def = clang_getCursorReferenced(elc_macro_expansion_of(loop));
    int init = -1;
    if (clang_getCursorKind(def) == CXCursor_MacroDefinition) {
        CXTranslationUnit tu = clang_Cursor_getTranslationUnit(loop);
        CXToken *toks = NULL;
        unsigned nt = 0;
        clang_tokenize(tu, clang_getCursorExtent(def), &toks, &nt);
        for (unsigned i = 0; i + 2 < nt && init < 0; i++) {
            char a[8], b[8], c[8];
            elc_string(clang_getTokenSpelling(tu, toks[i]), a, sizeof a);
            elc_string(clang_getTokenSpelling(tu, toks[i + 1]), b, sizeof b);
            elc_string(clang_getTokenSpelling(tu, toks[i + 2]), c, sizeof c);
            if (!strcmp(a, "for") && !strcmp(b, "("))
                init = strcmp(c, ";") != 0;
        }
        clang_disposeTokens(tu, toks, nt);
    }
    return init >= 0 ? init : is_assignment(child);
}

/* `child`, a child of the for statement `loop`, is (in) its init clause.
 * libclang visits a for's init, condition variable, condition, increment
 * and body, leaving out the absent ones: the AST decides when all four
 * clauses are there (a macro may have written the header, OMP_FOR (...))
 * or the child is not the first.  Of a header a macro wrote with a clause
 * left out, the macro's definition says whether there is an init clause.
 * Otherwise no `;` of the header may come before it, read from the
 * file's text between the two (comments and literals skipped):
 * tokenizing would need a file location libclang only gives through
 * clang_getLocationForOffset, which maps every macro argument of the file
 * on its first use. */
static bool in_for_init(el_ctx *ctx, CXCursor loop, CXCursor child)
{
    enum CXCursorKind kind = clang_getCursorKind(child);
    if (kind == CXCursor_DeclStmt)
        return true; /* only the init clause declares, in C */
    unsigned n = elc_child_count(loop);
    if (n == 0 || !clang_equalCursors(elc_child(loop, 0), child))
        return false;
    if (n >= 4)
        return kind != CXCursor_VarDecl; /* a C++ condition variable repeats */
    if (n == 1)
        return false; /* the body */
    CXFile lf = NULL, cf = NULL;
    unsigned lo = 0, co = 0;
    clang_getExpansionLocation(clang_getRangeStart(clang_getCursorExtent(loop)), &lf, NULL, NULL, &lo);
    clang_getExpansionLocation(clang_getRangeStart(clang_getCursorExtent(child)), &cf, NULL, NULL, &co);
    if (!lf || lf != cf || co <= lo)
        return macro_header_init(loop, child); /* a macro wrote the header */
    size_t size = 0;
    const char *text = el_file_text(ctx, lf, &size);
    if (!text || co > size)
        return false;
    /* `UPTO(i, eh_item(t), n) body`: the header is a macro's, the text is
     * not the header */
    if (co - lo < 4 || strncmp(text + lo, "for", 3) != 0 || is_ident_char(text[lo + 3]))
        return macro_header_init(loop, child);
    int depth = 0;
    for (unsigned i = lo; i < co; i++) {
        char ch = text[i];
        if (ch == '/' && i + 1 < co && text[i + 1] == '/') {
            while (i < co && text[i] != '\n')
                i++;
        } else if (ch == '/' && i + 1 < co && text[i + 1] == '*') {
            for (i += 2; i + 1 < co && !(text[i] == '*' && text[i + 1] == '/'); i++)
                ;
            i++;
        } else if (ch == '"' || ch == '\'') {
            for (i++; i < co && text[i] != ch; i++)
                if (text[i] == '\\')
                    i++;
        } else if (ch == '(') {
            depth++;
        } else if (ch == ')') {
            depth--;
        } else if (ch == ';' && depth == 1) {
            return false;
        }
    }
    return true;
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
        case CXCursor_CXXMethod:
        case CXCursor_LambdaExpr:
        case CXCursor_BlockExpr:
        case CXCursor_UnaryExpr: /* sizeof, _Alignof: not evaluated */
            return false;
        case CXCursor_CXXForRangeStmt: {
            /* C++'s for (x : range): the body repeats, the range is read once */
            unsigned nk = elc_child_count(a);
            if (nk == 0 || !clang_equalCursors(elc_child(a, nk - 1), on_path))
                continue;
            *loop = a;
            return true;
        }
        case CXCursor_WhileStmt:
            n = sf_children(a, k, 2);
            if ((n == 2 && never_repeats(k[0])) || body_runs_once(a))
                continue;
            *loop = a;
            return true;
        case CXCursor_DoStmt:
            n = sf_children(a, k, 2);
            if ((n == 2 && never_repeats(k[1])) || body_runs_once(a))
                continue;
            *loop = a;
            return true;
        case CXCursor_ForStmt:
            if (in_for_init(ctx, a, on_path) || body_runs_once(a))
                continue;
            *loop = a;
            return true;
        default:
            break;
        }
    }
    return false;
}

/* The rule's option `key` (a list of names, `*` and `?` working), or
 * NULL when the configuration has none. */
static json_object *option(el_ctx *ctx, const char *key)
{
    json_object *o = el_config_rule_options(el_ctx_config(ctx), "EH203"), *list = NULL;
    return o && json_object_object_get_ex(o, key, &list) ? list : NULL;
}

static bool listed(json_object *list, const char *name)
{
    for (size_t i = 0; list && i < json_object_array_length(list); i++)
        if (fnmatch(json_object_get_string(json_object_array_get_idx(list, i)), name, 0) == 0)
            return true;
    return false;
}

/* options.sync_functions: which host-access functions force evaluation
 * (default "*": all of libeh's do; ggml's CPU accessors do not). */
static bool syncs(el_ctx *ctx, const char *name)
{
    json_object *list = option(ctx, "sync_functions");
    return !list || listed(list, name);
}

/* Per TU: the last loop loop_computes searched, and its answer. */
typedef struct sync_state {
    CXCursor loop;
    bool have_answer;
    bool computes;
} sync_state;

typedef struct compute_search {
    el_ctx *ctx;
    json_object *list;  /* options.compute_functions */
    CXCursor loop;
    unsigned children_left;     /* the loop's children not yet met */
    bool found;
} compute_search;

static enum CXChildVisitResult find_compute(CXCursor c, CXCursor parent, CXClientData d)
{
    compute_search *cs = d;
    /* a for loop's init clause runs once, before the iterations, and so
     * does a range-for's range (only its body, the last child, repeats) */
    if (clang_equalCursors(parent, cs->loop)) {
        enum CXCursorKind lk = clang_getCursorKind(cs->loop);
        if (lk == CXCursor_ForStmt && in_for_init(cs->ctx, cs->loop, c))
            return CXChildVisit_Continue;
        if (lk == CXCursor_CXXForRangeStmt && cs->children_left-- > 1)
            return CXChildVisit_Continue;
    }
    /* a lambda's body runs when it is called, not where it is written;
     * sizeof's operand never runs (enclosing_loop stops at both too) */
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_LambdaExpr || k == CXCursor_BlockExpr || k == CXCursor_UnaryExpr)
        return CXChildVisit_Continue;
    if (k == CXCursor_CallExpr) {
        char name[256];
        CXCursor fn = elc_callee(c);
        if (!clang_Cursor_isNull(fn) && listed(cs->list, elc_spelling(fn, name, sizeof name))) {
            cs->found = true;
            return CXChildVisit_Break;
        }
    }
    return CXChildVisit_Recurse;
}

/* options.compute_functions: does the loop call a function that computes
 * new values on every call (ggml_backend_graph_compute, a batch loader)?
 * Then reading them on every iteration is the point, not a sync that
 * could move out of the loop. */
static bool loop_computes(el_ctx *ctx, sync_state *st, CXCursor loop)
{
    json_object *list = option(ctx, "compute_functions");
    if (!list || json_object_array_length(list) == 0)
        return false;
    /* the accesses of one loop come one after another: search it once */
    if (st->have_answer && clang_equalCursors(st->loop, loop))
        return st->computes;
    compute_search cs = {ctx, list, loop, elc_child_count(loop), false};
    clang_visitChildren(loop, find_compute, &cs);
    st->have_answer = true;
    st->loop = loop;
    st->computes = cs.found;
    return cs.found;
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
    const sf_fn *fn = sf_call_function(ctx, call);
    if (!fn || (fn->kind != SF_FN_ACCESSOR && fn->kind != SF_FN_SCALAR_READ &&
                fn->kind != SF_FN_COPY_OUT) || !syncs(ctx, fn->name))
        return;
    if (!el_applies_to(ctx, call))
        return;
    CXCursor loop;
    if (!enclosing_loop(ctx, call, &loop) || loop_computes(ctx, state, loop))
        return;
    unsigned line = 0;
    elc_cursor_location(loop, NULL, &line, NULL);
    const char *what = clang_getCursorKind(loop) == CXCursor_ForStmt ||
                               clang_getCursorKind(loop) == CXCursor_CXXForRangeStmt
                           ? "for"
                       : clang_getCursorKind(loop) == CXCursor_WhileStmt ? "while"
                                                                          : "do";
    const char *fix = fn->kind == SF_FN_ACCESSOR
                          ? "take the pointer once before the loop"
                      : fn->kind == SF_FN_SCALAR_READ
                          ? "compute on whole tensors and read the result once"
                          : "copy out once, after the loop";
    el_report(ctx, call, "'%s' inside a loop ('%s' at line %u) forces evaluation and a host sync "
              "on every iteration; %s", fn->name, what, line, fix);
}

const el_rule el_rule_scalar_sync_in_loop = {
    .id = "EH203",
    .kinds = kinds,
    .state_size = sizeof(sync_state),
    .begin = begin,
    .on_cursor = on_call,
    .end = end,
};
