/* lint/rules/integer_division.c -- EH302 integer-division: `/` of two
 * integer operands whose quotient is then converted to a floating type:
 * assigned or initialised to a floating variable, passed as a floating
 * argument, returned from a function returning a floating type, used as
 * an operand of floating arithmetic, or cast explicitly.  The fraction is
 * gone before the conversion (`double mean = total / n`).
 *
 * It reads clang's implicit-conversion structure: the BinaryOperator has
 * an integer type and the expression around it (through parentheses and
 * the branches of ?:) is a conversion (UnexposedExpr) or a cast to a
 * floating type.  Not findings: the quotient used as an integer, floating
 * division (`(double)a / b`), integer division passed to a variadic
 * function (no conversion), constant divisions that are exact
 * (`sizeof a / sizeof a[0]`, `8 / 2`), a quotient cast to an integer type
 * on the way, by a cast written there and not in a macro's body
 * (`(double)(int)(a / b)`: the truncation is stated), a
 * quotient that reaches a floating type only through `?:` whose value
 * goes back to an integer (`(int)(x ? x : n / 4)`: the same integer
 * either way), and an operand that is the value of a function C declared
 * implicitly (not declared in this configuration: its `int` is not its
 * type -- csound's `FL(1.0) / 12` where its FL macro is not defined). */
#include <stdio.h>
#include <string.h>

#include "clang_util.h"
#include "expr_util.h"
#include "function_lists.h"
#include "rule.h"

static const enum CXCursorKind kinds[] = {CXCursor_BinaryOperator, EL_KINDS_END};

static bool eval_int(CXCursor e, long long *v)
{
    CXEvalResult r = clang_Cursor_Evaluate(e);
    if (!r)
        return false;
    bool ok = clang_EvalResult_getKind(r) == CXEval_Int;
    if (ok)
        *v = clang_EvalResult_getAsLongLong(r);
    clang_EvalResult_dispose(r);
    return ok;
}

/* Does the floating value at ancestor `i` only pass on, through
 * parentheses, the branches of ?: and floating conversions, to a
 * conversion to an integer type?  Then the quotient truncates the same
 * either way: (int)(x ? x : n / 4). */
static bool back_to_integer(el_ctx *ctx, unsigned i)
{
    unsigned depth = el_depth(ctx);
    for (unsigned j = i + 1; j < depth; j++) {
        CXCursor a = el_ancestor(ctx, j);
        CXType t = clang_getCanonicalType(clang_getCursorType(a));
        switch (clang_getCursorKind(a)) {
        case CXCursor_ParenExpr:
            break;
        case CXCursor_ConditionalOperator: {
            CXCursor k[1];
            if (sf_children(a, k, 1) < 1 || clang_equalCursors(k[0], el_ancestor(ctx, j - 1)))
                return false;
            if (!elc_type_is_floating(t))
                return false;
            break;
        }
        case CXCursor_UnexposedExpr:
        case CXCursor_CStyleCastExpr:
            if (elc_type_is_integer(t))
                return true;
            if (!elc_type_is_floating(t))
                return false;
            break;
        default:
            return false;
        }
    }
    return false;
}

/* The floating type the current cursor `e`'s value is converted to. */
static bool converted_to_floating(el_ctx *ctx, CXCursor e, CXType *to)
{
    unsigned depth = el_depth(ctx);
    for (unsigned i = 0; i < depth; i++) {
        CXCursor a = el_ancestor(ctx, i);
        CXType t = clang_getCanonicalType(clang_getCursorType(a));
        switch (clang_getCursorKind(a)) {
        case CXCursor_ParenExpr:
            break;
        case CXCursor_ConditionalOperator: {
            /* a branch, not the condition */
            CXCursor k[1];
            CXCursor on_path = i == 0 ? e : el_ancestor(ctx, i - 1);
            if (sf_children(a, k, 1) < 1 || clang_equalCursors(k[0], on_path))
                return false;
            if (!elc_type_is_integer(t))
                return false;
            break;
        }
        case CXCursor_UnexposedExpr:
        case CXCursor_CStyleCastExpr:
            if (elc_type_is_floating(t)) {
                *to = t;
                return !back_to_integer(ctx, i);
            }
            if (!elc_type_is_integer(t))
                return false;
            /* a cast to an integer type written here says the quotient
             * is meant to be one: (double)(int32_t)(a / b); one in a
             * macro's body is the macro's, for any arguments
             * (#define DIVQ(a, b) ((int)((a) / (b)))) */
            if (clang_getCursorKind(a) == CXCursor_CStyleCastExpr && !elc_in_macro(a))
                return false;
            break; /* an integer conversion on the way: int -> long -> double */
        default:
            return false;
        }
    }
    return false;
}

/* A function C declared implicitly (it is not declared in this
 * configuration): returning int, declared where a call names it -- an
 * expression is at its place, not a written declaration nor a macro that
 * writes one (as lint/rules/parse_error.c tells it). */
static bool implicitly_declared(CXTranslationUnit tu, CXCursor fn)
{
    if (clang_getCursorKind(fn) != CXCursor_FunctionDecl ||
        clang_getCursorResultType(fn).kind != CXType_Int)
        return false;
    CXCursor at = clang_getCursor(tu, clang_getCursorLocation(fn));
    return clang_isExpression(clang_getCursorKind(at));
}

struct implicit_search {
    CXTranslationUnit tu;
    bool found;
};

static enum CXChildVisitResult find_implicit_call(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    struct implicit_search *s = d;
    if (clang_getCursorKind(c) == CXCursor_CallExpr &&
        implicitly_declared(s->tu, clang_getCursorReferenced(c))) {
        s->found = true;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

/* Is an operand (or a value it is computed from) what a call of an
 * implicitly declared function returns?  Its int is C's guess, not the
 * function's type. */
static bool uses_implicit_call(el_ctx *ctx, CXCursor operand)
{
    struct implicit_search s = {el_tu(ctx), false};
    if (!s.tu)
        return false;
    if (find_implicit_call(operand, clang_getNullCursor(), &s) == CXChildVisit_Break)
        return true;
    clang_visitChildren(operand, find_implicit_call, &s);
    return s.found;
}

static void on_binary(el_ctx *ctx, void *state, CXCursor c)
{
    (void)state;
    CXType t = clang_getCanonicalType(clang_getCursorType(c));
    if (!elc_type_is_integer(t))
        return;
    CXType to;
    if (!converted_to_floating(ctx, c, &to))
        return;
    if (!el_applies_to(ctx, c))
        return;
    char op[4];
    if (!sf_binary_operator(c, op, sizeof op) || strcmp(op, "/") != 0)
        return;
    CXCursor k[2];
    if (sf_children(c, k, 2) != 2)
        return;
    long long a, b;
    if (eval_int(k[0], &a) && eval_int(k[1], &b) && b != 0 && a % b == 0)
        return; /* exact */
    if (uses_implicit_call(ctx, k[0]) || uses_implicit_call(ctx, k[1]))
        return; /* the operand's type is not known in this configuration */
    char ts[64], fs[64];
    elc_string(clang_getTypeSpelling(to), ts, sizeof ts);
    elc_string(clang_getTypeSpelling(t), fs, sizeof fs);
    char use[160], on_tensors[200] = "", macro[128], in_macro[160] = "";
    if (sf_suggest_operator(ctx, "/", false, false, use, sizeof use))
        snprintf(on_tensors, sizeof on_tensors, ", or use %s on tensors", use);
    /* reported at the macro's use, where no `/` is written */
    if (elc_operator_macro(c, macro, sizeof macro))
        snprintf(in_macro, sizeof in_macro, " in macro '%s'", macro);
    el_report(ctx, c, "integer division (%s)%s converted to %s: the fraction is lost before the "
              "conversion; convert an operand first ((%s)a / b)%s", fs, in_macro, ts, ts, on_tensors);
}

const el_rule el_rule_integer_division = {
    .id = "EH302",
    .kinds = kinds,
    .on_cursor = on_binary,
};
