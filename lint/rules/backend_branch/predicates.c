/* lint/rules/backend_branch/predicates.c -- EH103's third shape: asking
 * which backend runs without comparing its name.  A call of a function
 * options.backend_predicates names (ggml_backend_is_cuda(b): the result
 * says whether a given backend is in use) is reported wherever frontend
 * code makes it -- its only use is to behave differently per backend.  A
 * variable options.backend_variables names (darknet's gpu_index: its value
 * selects the backend; a struct field of that name too: net->gpu_index)
 * is reported where frontend code tests it: as a
 * condition (if, while, for, ?:, switch, !, &&, ||) or in a comparison;
 * assigning it or passing it on is not a finding.  Names may use * and ?. */
#include <fnmatch.h>
#include <string.h>

#include "branch.h"
#include "clang_util.h"

bool bb_matches(const bb_names *l, const char *s)
{
    for (size_t i = 0; i < l->n; i++)
        if (fnmatch(l->v[i], s, 0) == 0)
            return true;
    return false;
}

/* The DeclRefExpr c (the current cursor) is tested: on its way up, through
 * parentheses, conversions, casts, `!`, `&&` / `||`, it reaches a
 * comparison or the condition of a statement. */
static bool tested(el_ctx *ctx, CXCursor c)
{
    CXCursor child = c;
    for (unsigned i = 0; i < el_depth(ctx) && i < 32; i++) {
        CXCursor a = el_ancestor(ctx, i);
        char op[8];
        bool post = false;
        switch (clang_getCursorKind(a)) {
        case CXCursor_UnexposedExpr:
        case CXCursor_ParenExpr:
        case CXCursor_CStyleCastExpr:
        case CXCursor_CXXStaticCastExpr:
        case CXCursor_CXXFunctionalCastExpr:
            break;
        case CXCursor_UnaryOperator:
            if (!elc_unary_operator(a, op, sizeof op, &post) || strcmp(op, "!") != 0)
                return false;
            return true;
        case CXCursor_BinaryOperator:
            if (!elc_binary_operator(a, op, sizeof op))
                return false;
            return sf_is_comparison(op) || strcmp(op, "&&") == 0 || strcmp(op, "||") == 0;
        case CXCursor_IfStmt:
        case CXCursor_WhileStmt:
        case CXCursor_SwitchStmt:
            return clang_equalCursors(elc_child(a, 0), child);
        case CXCursor_DoStmt:
            return clang_equalCursors(elc_child(a, 1), child);
        case CXCursor_ConditionalOperator:
            return clang_equalCursors(elc_child(a, 0), child);
        case CXCursor_ForStmt: {
            /* for (init; cond; inc): the condition is the child that is
             * neither the first statement nor the body */
            unsigned n = elc_child_count(a);
            return n >= 3 && !clang_equalCursors(elc_child(a, 0), child) &&
                   !clang_equalCursors(elc_child(a, n - 1), child);
        }
        default:
            return false;
        }
        child = a;
    }
    return false;
}

void bb_check_reference(el_ctx *ctx, const bb_names *predicates, const bb_names *variables,
                        CXCursor ref)
{
    CXCursor d = clang_getCursorReferenced(ref);
    enum CXCursorKind k = clang_getCursorKind(d);
    char name[256];
    if ((k == CXCursor_FunctionDecl || k == CXCursor_CXXMethod) && predicates->n) {
        elc_spelling(d, name, sizeof name);
        if (bb_matches(predicates, name))
            el_report(ctx, ref, "call of backend predicate '%s': frontend code must behave the "
                      "same on every backend", name);
        return;
    }
    if ((k != CXCursor_VarDecl && k != CXCursor_FieldDecl) || !variables->n)
        return; /* a global, or a field (darknet's net->gpu_index) */
    elc_spelling(d, name, sizeof name);
    if (bb_matches(variables, name) && tested(ctx, ref))
        el_report(ctx, ref, "test of backend variable '%s': frontend code must behave the same "
                  "on every backend", name);
}
