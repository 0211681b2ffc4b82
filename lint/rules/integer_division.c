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
 * on the way, by a cast written there (or in a macro's argument) and not
 * in a macro's body (`(double)(int)(a / b)`: the truncation is stated), a
 * quotient that reaches a floating type only through `?:` whose value
 * goes back to an integer other than _Bool (`(int)(x ? x : n / 4)`: the
 * same integer either way), and an operand that is itself the value of a
 * function C declared implicitly and the TU declares nowhere (its `int`
 * is not its type -- csound's `FL(1.0) / 12` where its FL macro is not
 * defined). */
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
 * conversion to an integer type other than _Bool?  Then the quotient
 * truncates the same either way: (int)(x ? x : n / 4). */
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
            /* not to _Bool: 0.75 is true where the quotient 0 is false */
            if (t.kind == CXType_Bool)
                return false;
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

/* Is c written in the file: outside macros, or in the text of a macro's
 * argument (where it is spelled), not in a macro's body? */
static bool written_in_file(CXCursor c)
{
    if (!elc_in_macro(c))
        return true;
    CXFile f = NULL;
    unsigned off = 0, b = 0, e = 0;
    clang_getSpellingLocation(clang_getCursorLocation(c), &f, NULL, NULL, &off);
    CXCursor exp = elc_macro_expansion_of(c);
    return f && !clang_Cursor_isNull(exp) &&
           elc_macro_argument_at(clang_Cursor_getTranslationUnit(c), exp, f, off, &b, &e) >= 0;
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
             * is meant to be one: (double)(int32_t)(a / b), also in a
             * macro's argument (TO_REAL((int)(a / b))); one in a macro's
             * body is the macro's, for any arguments
             * (#define DIVQ(a, b) ((int)((a) / (b)))) */
            if (clang_getCursorKind(a) == CXCursor_CStyleCastExpr && written_in_file(a))
                return false;
            break; /* an integer conversion on the way: int -> long -> double */
        default:
            return false;
        }
    }
    return false;
}

struct named_decl {
    const char *name;
    bool found;
};

static enum CXChildVisitResult find_decl(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    struct named_decl *s = d;
    char name[256];
    if (clang_getCursorKind(c) == CXCursor_FunctionDecl &&
        strcmp(elc_spelling(c, name, sizeof name), s->name) == 0) {
        s->found = true;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Continue;
}

/* A function C declared implicitly and the TU declares nowhere: an int
 * function without a prototype (C's `int ()`), without a definition, and
 * without a declaration at file scope, before or after -- libclang's walk
 * of the TU skips the implicit declaration, so any FunctionDecl of that
 * name it meets is written (a function the file defines further down, as
 * gnu89 code does, has its type). */
static bool implicit_only(CXTranslationUnit tu, CXCursor fn)
{
    if (clang_getCursorKind(fn) != CXCursor_FunctionDecl ||
        clang_getCursorType(fn).kind != CXType_FunctionNoProto ||
        clang_getCursorResultType(fn).kind != CXType_Int ||
        !clang_Cursor_isNull(clang_getCursorDefinition(fn)))
        return false;
    char name[256];
    struct named_decl s = {elc_spelling(fn, name, sizeof name), false};
    if (!name[0])
        return false;
    clang_visitChildren(clang_getTranslationUnitCursor(tu), find_decl, &s);
    return !s.found;
}

/* Is an operand itself -- through parentheses, implicit conversions and
 * a sign (-f()) -- the value of a call of a function C declared
 * implicitly and the TU declares nowhere?  Its int is C's guess, not the
 * function's type.  Only the operand's own callee: a call inside it
 * (lookup(hash(n)) / n, hash undeclared) says nothing of its type. */
static bool implicit_call_value(el_ctx *ctx, CXCursor operand)
{
    CXTranslationUnit tu = el_tu(ctx);
    if (!tu)
        return false;
    CXCursor e = elc_strip(operand);
    for (int guard = 0; guard < 8 && clang_getCursorKind(e) == CXCursor_UnaryOperator; guard++) {
        char op[4];
        if (!sf_unary_operator(e, op, sizeof op, NULL) || (strcmp(op, "-") != 0 && strcmp(op, "+") != 0))
            return false;
        e = elc_strip(elc_child(e, 0));
    }
    return clang_getCursorKind(e) == CXCursor_CallExpr && implicit_only(tu, clang_getCursorReferenced(e));
}

/* The tokens of a and b, both written outside macros, are the same: the
 * same expression as far as an idiom's shape goes (`per_page` and
 * `per_page`).  In a macro both cursors may span the whole expansion:
 * never the same then. */
static bool same_tokens(CXCursor a, CXCursor b)
{
    if (clang_Cursor_isNull(a) || clang_Cursor_isNull(b) || elc_in_macro(a) || elc_in_macro(b))
        return false;
    CXTranslationUnit tu = clang_Cursor_getTranslationUnit(a);
    CXToken *ta = NULL, *tb = NULL;
    unsigned na = 0, nb = 0;
    clang_tokenize(tu, clang_getCursorExtent(a), &ta, &na);
    clang_tokenize(tu, clang_getCursorExtent(b), &tb, &nb);
    bool same = na > 0 && na == nb;
    for (unsigned i = 0; same && i < na; i++) {
        char x[128], y[128];
        elc_string(clang_getTokenSpelling(tu, ta[i]), x, sizeof x);
        elc_string(clang_getTokenSpelling(tu, tb[i]), y, sizeof y);
        same = strcmp(x, y) == 0;
    }
    if (ta)
        clang_disposeTokens(tu, ta, na);
    if (tb)
        clang_disposeTokens(tu, tb, nb);
    return same;
}

/* e (through parentheses and implicit conversions) is the binary
 * operator `op`: its operands into k. */
static bool is_binary(CXCursor e, const char *op, CXCursor k[2])
{
    char o[4];
    return clang_getCursorKind(e) == CXCursor_BinaryOperator && sf_children(e, k, 2) == 2 &&
           sf_binary_operator(e, o, sizeof o) && strcmp(o, op) == 0;
}

static bool is_value(CXCursor e, long long v)
{
    long long x;
    return eval_int(e, &x) && x == v;
}

/* d, or (d) spelled the same as the divisor `den` (its value, when both
 * are constants). */
static bool is_divisor(CXCursor d, CXCursor den)
{
    long long x, y;
    if (eval_int(d, &x) && eval_int(den, &y))
        return x == y;
    return same_tokens(sf_strip(d, false), den);
}

/* Is r what an integer rounding idiom adds to the dividend: den - 1
 * (rounding up) or half of den (den / 2, den >> 1, rounding to nearest)?
 * With constants, r == den - 1 or r == den / 2 for a divisor above 2:
 * (n + 1) / 2 is as often the half of n + 1 someone wanted. */
static bool rounding_addend(CXCursor r, CXCursor den)
{
    long long rv, dv;
    if (eval_int(r, &rv) && eval_int(den, &dv))
        return dv > 2 && (rv == dv - 1 || rv == dv / 2);
    CXCursor k[2];
    r = sf_strip(r, false);
    if (is_binary(r, "-", k))
        return is_value(k[1], 1) && is_divisor(k[0], den);
    if (is_binary(r, "/", k))
        return is_value(k[1], 2) && is_divisor(k[0], den);
    if (is_binary(r, ">>", k))
        return is_value(k[1], 1) && is_divisor(k[0], den);
    /* (2 * a + b) / (2 * b): a / b to nearest */
    CXCursor d = sf_strip(den, false);
    if (is_binary(d, "*", k))
        return (is_value(k[0], 2) && same_tokens(sf_strip(k[1], false), r)) ||
               (is_value(k[1], 2) && same_tokens(sf_strip(k[0], false), r));
    return false;
}

/* Does the dividend `num` round the quotient by `den` in integers:
 * (n + d - 1) / d, (n + (d - 1)) / d, (n + d / 2) / d, (n + 35) / 36?
 * The truncation is then the point of the division. */
static bool rounding_idiom(CXCursor num, CXCursor den)
{
    CXCursor k[2], m[2];
    num = sf_strip(num, false);
    den = sf_strip(den, false);
    if (is_binary(num, "+", k))
        return rounding_addend(k[0], den) || rounding_addend(k[1], den);
    /* n + d - 1 is (n + d) - 1 */
    if (is_binary(num, "-", k) && is_value(k[1], 1) && is_binary(sf_strip(k[0], false), "+", m)) {
        long long dv;
        if (eval_int(den, &dv) && dv <= 2)
            return false;
        return is_divisor(m[0], den) || is_divisor(m[1], den);
    }
    return false;
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
    if (implicit_call_value(ctx, k[0]) || implicit_call_value(ctx, k[1]))
        return; /* the operand's type is not known in this configuration */
    if (rounding_idiom(k[0], k[1]))
        return; /* (n + d - 1) / d: rounds in integers on purpose */
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
