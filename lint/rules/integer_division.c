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
 * same integer either way), a dividend that rounds the quotient in
 * integers ((n + d - 1) / d, (n + d / 2) / d, (2 * a + b) / (2 * b),
 * (bytes + 35) / 36; constants compared by value only when the addend is
 * digits written outside a macro, the divisor otherwise the same
 * variable, object-like macro, macro argument or tokens, also in a
 * macro's body: DIV_ROUND_UP(n, d); widening integer casts looked
 * through, (n + (size_t)d - 1) / (size_t)d; not when the divisor has
 * side effects, (n + f() - 1) / f() calls f twice), half a product of
 * two integers one apart (n * (n + 1) / 2: exact), trunc(a / b) and
 * floor(u / v) of unsigned operands or of operands never negative
 * ((long)u, constants >= 0: the same value), constants beyond
 * the floating type's precision ((double)(LLONG_MAX / 2)), a divisor
 * that is one object's size (bytes / sizeof(double), bytes / (2 *
 * sizeof(double)): a count of whole elements; not the sizeof of an
 * array, nor n * sizeof(double): a buffer's size), an overflow guard
 * (x > INT_MAX / k: an object-like *_MAX or *_MIN macro of a limit's
 * value divided, the quotient an operand of <, >, <= or >=), the
 * fraction of a quotient ((double)a / b - a / b, == and !=: the same
 * operands, no integer conversion that may change a value, integers the
 * floating type holds exactly, no volatile reads, only parentheses and
 * conversions between the quotient and the operator), a digit of a
 * quotient-and-remainder decomposition (the function also takes a % b,
 * or a is x % m and it takes x / m: hours s / 3600 beside s % 3600, the
 * minutes s % 3600 / 60), and an
 * operand that is itself the value of a
 * function C declared implicitly and the TU declares nowhere (its `int`
 * is not its type -- csound's `FL(1.0) / 12` where its FL macro is not
 * defined).  Reported where the `/` is written (el_report_written): in a
 * macro's argument at its own place, so two in one argument are two
 * findings; in a macro's body at the macro's use, naming the macro. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clang_util.h"
#include "expr_util.h"
#include "function_lists.h"
#include "mem.h"
#include "rule.h"
#include "strmap.h"

static const enum CXCursorKind kinds[] = {CXCursor_BinaryOperator, EL_KINDS_END};

/* e's integer constant value: as long long into *v, its magnitude into
 * *m (either may be NULL), whether its type is unsigned into *is_unsigned
 * (0xffffffffffffffffull is -1 as long long, its magnitude 2^64 - 1). */
static bool eval_constant(CXCursor e, long long *v, unsigned long long *m, bool *is_unsigned)
{
    CXEvalResult r = clang_Cursor_Evaluate(e);
    if (!r)
        return false;
    bool ok = clang_EvalResult_getKind(r) == CXEval_Int;
    if (ok) {
        bool u = clang_EvalResult_isUnsignedInt(r) != 0;
        long long s = clang_EvalResult_getAsLongLong(r);
        if (v)
            *v = s;
        if (m)
            *m = u ? clang_EvalResult_getAsUnsigned(r)
                   : s < 0 ? 0ULL - (unsigned long long)s : (unsigned long long)s;
        if (is_unsigned)
            *is_unsigned = u;
    }
    clang_EvalResult_dispose(r);
    return ok;
}

static bool eval_int(CXCursor e, long long *v)
{
    return eval_constant(e, v, NULL, NULL);
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
static bool converted_to_floating(el_ctx *ctx, CXCursor e, CXType *to, unsigned *at)
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
                *at = i;
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

/* Where c starts, in the file: for a macro's argument where the argument
 * is written (libclang's spelling location is the file location, which
 * for a token of a macro's body is the macro's use).  Whether it is an
 * argument: that place is not where its macro is used. */
static bool macro_argument_at(CXCursor c, CXFile *f, unsigned *off)
{
    CXSourceLocation l = clang_getRangeStart(clang_getCursorExtent(c));
    CXFile ef = NULL;
    unsigned eo = 0;
    *f = NULL;
    *off = 0;
    clang_getExpansionLocation(l, &ef, NULL, NULL, &eo);
    clang_getSpellingLocation(l, f, NULL, NULL, off);
    return *f && ef && (!clang_File_isEqual(*f, ef) || *off != eo);
}

/* c is, as a whole, one use of an object-like macro (BLOCK_LEN): its
 * extent is that use's.  The use into *use. */
static bool object_macro_use(CXCursor c, CXCursor *use)
{
    CXCursor e = elc_macro_expansion_of(c);
    if (clang_Cursor_isNull(e))
        return false;
    char name[256];
    elc_spelling(e, name, sizeof name);
    if (!name[0] || elc_macro_named(clang_Cursor_getTranslationUnit(c), name) != 1)
        return false;
    CXSourceRange rc = clang_getCursorExtent(c), re = clang_getCursorExtent(e);
    unsigned cs = 0, ce = 0, es = 0, ee = 0;
    clang_getExpansionLocation(clang_getRangeStart(rc), NULL, NULL, NULL, &cs);
    clang_getExpansionLocation(clang_getRangeEnd(rc), NULL, NULL, NULL, &ce);
    clang_getExpansionLocation(clang_getRangeStart(re), NULL, NULL, NULL, &es);
    clang_getExpansionLocation(clang_getRangeEnd(re), NULL, NULL, NULL, &ee);
    *use = e;
    return cs == es && ce == ee;
}

/* Integer literal spelling s (a suffix allowed): its value into *v. */
static bool literal_value(const char *s, long long *v)
{
    char *end = NULL;
    *v = strtoll(s, &end, 0);
    return end != s && strspn(end, "uUlL") == strlen(end);
}

/* a and b, constants of value v from one use of macro `use` (neither its
 * argument), are the same object-like macro written twice in that
 * macro's body: `#define NBLK(n) (((n) + BLOCK - 1) / BLOCK)` or
 * `#define ALL ((t + BLOCK - 1) / BLOCK)`.  libclang places every token
 * of a body at the use, so the body is read: the object-like macros it
 * names (its parameters aside) are all one name, written at least twice,
 * and no number in it has value v -- not K1 and K2 of
 * `#define CEIL ((t + K1 - 1) / K2)`, nor 16 and BLOCK of
 * `((n) + 16 - 1) / BLOCK`. */
static bool one_name_in_body(CXTranslationUnit tu, CXCursor use, long long v)
{
    if (clang_getCursorKind(use) != CXCursor_MacroExpansion)
        return false;
    CXCursor def = clang_getCursorReferenced(use);
    if (clang_getCursorKind(def) != CXCursor_MacroDefinition)
        return false;
    unsigned nt = 0, first = 0;
    CXToken *toks = elc_macro_tokens(tu, def, &nt, &first);
    char name[256] = "";
    int uses = 0;
    bool ok = true;
    for (unsigned i = first; i < nt && ok; i++) {
        CXTokenKind k = clang_getTokenKind(toks[i]);
        char s[256];
        if (k != CXToken_Identifier && k != CXToken_Literal)
            continue;
        elc_string(clang_getTokenSpelling(tu, toks[i]), s, sizeof s);
        if (k == CXToken_Literal) {
            long long lv;
            if (literal_value(s, &lv) && lv == v)
                ok = false;
            continue;
        }
        bool param = false;
        for (unsigned j = 1; j < first && !param; j++) {
            char p[256];
            param = clang_getTokenKind(toks[j]) == CXToken_Identifier &&
                    strcmp(elc_string(clang_getTokenSpelling(tu, toks[j]), p, sizeof p), s) == 0;
        }
        if (param || elc_macro_named(tu, s) != 1)
            continue;
        if (!name[0])
            snprintf(name, sizeof name, "%s", s);
        else if (strcmp(name, s) != 0)
            ok = false;
        uses++;
    }
    if (toks)
        clang_disposeTokens(tu, toks, nt);
    return ok && uses >= 2;
}

/* An integer constant written as digits outside any macro: `36` in
 * (bytes + 35) / 36, not BLOCK_LEN, an enumerator, a sizeof or a
 * macro's argument. */
static bool written_literal(CXCursor e)
{
    e = sf_strip(e, false);
    return clang_getCursorKind(e) == CXCursor_IntegerLiteral && !elc_in_macro(e);
}

/* Through parentheses, implicit conversions and casts written to an
 * integer type other than _Bool.  Unless any_width, only casts at least
 * as wide as the integer they convert: (size_t)d is d's value, for the
 * divisor as for the addend of (n + (size_t)d - 1) / (size_t)d or
 * (n + d - 1) / (size_t)d, and a narrowing cast ((char)d) may change the
 * value and stays.  With any_width every such cast (whether it keeps the
 * value is for the caller to ask: (int)sizeof(double)). */
static CXCursor strip_int_casts(CXCursor e, bool any_width)
{
    e = sf_strip(e, false);
    for (int guard = 0; guard < 16 && clang_getCursorKind(e) == CXCursor_CStyleCastExpr; guard++) {
        CXCursor in = sf_last_child(e);
        if (clang_Cursor_isNull(in))
            break;
        CXType to = clang_getCanonicalType(clang_getCursorType(e));
        if (!elc_type_is_integer(to) || to.kind == CXType_Bool)
            break;
        if (!any_width) {
            CXType from = clang_getCanonicalType(clang_getCursorType(in));
            long long st = clang_Type_getSizeOf(to), sf = clang_Type_getSizeOf(from);
            if (!elc_type_is_integer(from) || st <= 0 || sf <= 0 || st < sf)
                break;
        }
        e = sf_strip(in, false);
    }
    return e;
}

static enum CXChildVisitResult find_side_effect(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    char op[4];
    switch (clang_getCursorKind(c)) {
    case CXCursor_UnaryExpr:
        return CXChildVisit_Continue; /* sizeof, _Alignof: not evaluated */
    case CXCursor_CallExpr:
    case CXCursor_CompoundAssignOperator:
        *(bool *)d = true;
        return CXChildVisit_Break;
    case CXCursor_UnaryOperator:
        if (sf_unary_operator(c, op, sizeof op, NULL) && (strcmp(op, "++") == 0 || strcmp(op, "--") == 0)) {
            *(bool *)d = true;
            return CXChildVisit_Break;
        }
        break;
    case CXCursor_BinaryOperator:
        if (sf_binary_operator(c, op, sizeof op) && strcmp(op, "=") == 0) {
            *(bool *)d = true;
            return CXChildVisit_Break;
        }
        break;
    default:
        break;
    }
    /* a read of a volatile object (a variable, a member, *p, through a
     * typedef): two reads may give two values, as two calls may */
    CXType t = clang_getCursorType(c);
    if (clang_isExpression(clang_getCursorKind(c)) &&
        (clang_isVolatileQualifiedType(t) || clang_isVolatileQualifiedType(clang_getCanonicalType(t)))) {
        *(bool *)d = true;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

/* May evaluating e change something or give another value next time: a
 * call (f(), also in a macro's argument used twice), ++, --, an
 * assignment, a volatile read?  Not inside sizeof. */
static bool has_side_effect(CXCursor e)
{
    bool hit = false;
    if (find_side_effect(e, clang_getNullCursor(), &hit) == CXChildVisit_Break)
        return true;
    if (clang_getCursorKind(e) != CXCursor_UnaryExpr)
        clang_visitChildren(e, find_side_effect, &hit);
    return hit;
}

/* Are a and b the same expression as far as an idiom's shape goes?
 * - two references to one variable, parameter or enumerator, also in a
 *   macro's body (DIV_ROUND_UP(n, d): both (d) are the argument's d;
 *   `#define PER per` and per);
 * - two constants of one value, both from macros: one argument's token
 *   used twice (both (d) of DIV_ROUND_UP(n, 36)), or two uses of one
 *   object-like macro (BLOCK_LEN and BLOCK_LEN), also both written in
 *   one other macro's body (one_name_in_body); HEADER_LEN and BLOCK_LEN
 *   are not, whatever their values;
 * - written outside macros, the same tokens (`sizeof(struct rec)`), the
 *   whole spellings compared.  In a macro both cursors may span the whole
 *   use (M3(n, d, e)): not the same by tokens then. */
static bool same_expr(CXCursor a, CXCursor b)
{
    if (clang_Cursor_isNull(a) || clang_Cursor_isNull(b))
        return false;
    a = strip_int_casts(a, false);
    b = strip_int_casts(b, false);
    /* f() written twice is two calls, d-- two decrements: maybe two values */
    if (has_side_effect(a) || has_side_effect(b))
        return false;
    if (clang_getCursorKind(a) == CXCursor_DeclRefExpr && clang_getCursorKind(b) == CXCursor_DeclRefExpr) {
        CXCursor da = clang_getCursorReferenced(a), db = clang_getCursorReferenced(b);
        return !clang_Cursor_isNull(da) && clang_equalCursors(da, db);
    }
    bool ma = elc_in_macro(a), mb = elc_in_macro(b);
    if (ma && mb && clang_getCursorKind(a) == clang_getCursorKind(b)) {
        /* one argument's text, twice, whatever it is: both (d) of
         * DIV_ROUND_UP(n, p->per) */
        CXFile fa, fb;
        unsigned oa, ob;
        if (macro_argument_at(a, &fa, &oa) && macro_argument_at(b, &fb, &ob) && clang_File_isEqual(fa, fb) &&
            oa == ob) {
            /* the whole of one argument's text, both times: a body
             * token's location is the expansion's, the same for p->n
             * and p->m */
            unsigned ba = 0, ea = 0, bb = 0, eb = 0;
            CXCursor xa = elc_macro_expansion_of(a), xb = elc_macro_expansion_of(b);
            CXTranslationUnit tu = clang_Cursor_getTranslationUnit(a);
            CXFile ga = NULL, gb = NULL;
            unsigned za = 0, zb = 0;
            clang_getSpellingLocation(clang_getRangeEnd(clang_getCursorExtent(a)), &ga, NULL, NULL, &za);
            clang_getSpellingLocation(clang_getRangeEnd(clang_getCursorExtent(b)), &gb, NULL, NULL, &zb);
            if (!clang_Cursor_isNull(xa) && !clang_Cursor_isNull(xb) &&
                elc_macro_argument_at(tu, xa, fa, oa, &ba, &ea) >= 0 &&
                elc_macro_argument_at(tu, xb, fb, ob, &bb, &eb) >= 0 && ga && gb &&
                clang_File_isEqual(ga, fa) && clang_File_isEqual(gb, fb) && oa == ba && ob == bb && za == ea && zb == eb)
                return true;
        }
    }
    if (ma || mb) {
        long long x, y;
        if (!ma || !mb || clang_getCursorKind(a) != clang_getCursorKind(b) || !eval_int(a, &x) ||
            !eval_int(b, &y) || x != y)
            return false;
        /* one argument's token, twice: both (d) of DIV_ROUND_UP(n, 36) */
        CXFile fa, fb;
        unsigned oa, ob;
        bool aa = macro_argument_at(a, &fa, &oa), ab = macro_argument_at(b, &fb, &ob);
        if (aa || ab)
            return aa && ab && clang_File_isEqual(fa, fb) && oa == ob;
        /* two uses of one object-like macro: BLOCK_LEN and BLOCK_LEN, not
         * two names in one use (K1 and K2 of `#define AVG (t + K1 - 1) / K2`) */
        CXCursor ua, ub;
        char na[256], nb[256];
        CXCursor ea = elc_macro_expansion_of(a), eb = elc_macro_expansion_of(b);
        if (!clang_Cursor_isNull(ea) && !clang_Cursor_isNull(eb) && clang_equalCursors(ea, eb))
            return one_name_in_body(clang_Cursor_getTranslationUnit(a), ea, x);
        return object_macro_use(a, &ua) && object_macro_use(b, &ub) && !clang_equalCursors(ua, ub) &&
               strcmp(elc_spelling(ua, na, sizeof na), elc_spelling(ub, nb, sizeof nb)) == 0;
    }
    CXTranslationUnit tu = clang_Cursor_getTranslationUnit(a);
    CXToken *ta = NULL, *tb = NULL;
    unsigned na = 0, nb = 0;
    clang_tokenize(tu, clang_getCursorExtent(a), &ta, &na);
    clang_tokenize(tu, clang_getCursorExtent(b), &tb, &nb);
    bool same = na > 0 && na == nb;
    for (unsigned i = 0; same && i < na; i++) {
        CXString x = clang_getTokenSpelling(tu, ta[i]), y = clang_getTokenSpelling(tu, tb[i]);
        const char *xs = clang_getCString(x), *ys = clang_getCString(y);
        same = xs && ys && strcmp(xs, ys) == 0;
        clang_disposeString(x);
        clang_disposeString(y);
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

/* d is the divisor `den`: by value when d is a number written as such
 * ((n + 16 - 1) / 16), else the same expression (same_expr). */
static bool is_divisor(CXCursor d, CXCursor den)
{
    long long x, y;
    if (written_literal(d) && eval_int(d, &x) && eval_int(den, &y))
        return x == y;
    return same_expr(d, den);
}

/* Is r, added to `other`, what an integer rounding idiom adds to the
 * dividend: den - 1 (rounding up) or half of den (den / 2, den >> 1,
 * rounding to nearest)?  Values are compared only for a number written
 * as such: (bytes + 35) / 36, not (payload + HEADER_LEN) / BLOCK_LEN of
 * 16 and 32.  Never for a divisor of 1 or 2: (n + 1) / 2 is as often
 * the half of n + 1 someone wanted. */
static bool rounding_addend(CXCursor r, CXCursor other, CXCursor den)
{
    long long rv, dv;
    bool den_const = eval_int(den, &dv);
    if (den_const && dv <= 2)
        return false;
    if (den_const && written_literal(r) && eval_int(r, &rv))
        return rv == dv - 1 || rv == dv / 2;
    CXCursor k[2];
    r = strip_int_casts(r, false);
    if (is_binary(r, "-", k))
        return is_value(k[1], 1) && is_divisor(k[0], den);
    if (is_binary(r, "/", k))
        return is_value(k[1], 2) && is_divisor(k[0], den);
    if (is_binary(r, ">>", k))
        return is_value(k[1], 1) && is_divisor(k[0], den);
    /* (2 * a + b) / (2 * b): a / b to nearest; the other addend is twice
     * something, (x + b) / (2 * b) is not */
    CXCursor d = sf_strip(den, false), o = sf_strip(other, false), ok[2];
    if (!is_binary(o, "*", ok) || !(is_value(ok[0], 2) || is_value(ok[1], 2)))
        return false;
    if (is_binary(d, "*", k))
        return (is_value(k[0], 2) && same_expr(k[1], r)) || (is_value(k[1], 2) && same_expr(k[0], r));
    return false;
}

/* Does the dividend `num` round the quotient by `den` in integers:
 * (n + d - 1) / d, (n + (d - 1)) / d, (n - 1 + d) / d, (n + d / 2) / d,
 * (n + 35) / 36?
 * The truncation is then the point of the division.  Not when both
 * terms are numbers written as such: (7 + 3) / 4 is arithmetic. */
static bool rounding_idiom(CXCursor num, CXCursor den)
{
    CXCursor k[2], m[2];
    num = sf_strip(num, false);
    den = sf_strip(den, false);
    if (is_binary(num, "+", k)) {
        if (written_literal(k[0]) && written_literal(k[1]))
            return false;
        if (rounding_addend(k[0], k[1], den) || rounding_addend(k[1], k[0], den))
            return true;
        /* n - 1 + d is (n - 1) + d */
        long long dv;
        if (eval_int(den, &dv) && dv <= 2)
            return false;
        for (int i = 0; i < 2; i++)
            if (is_binary(strip_int_casts(k[i], false), "-", m) && is_value(m[1], 1) &&
                !(written_literal(m[0]) && written_literal(k[1 - i])) && is_divisor(k[1 - i], den))
                return true;
        return false;
    }
    /* n + d - 1 is (n + d) - 1 */
    if (is_binary(num, "-", k) && is_value(k[1], 1) && is_binary(sf_strip(k[0], false), "+", m)) {
        long long dv;
        if (eval_int(den, &dv) && dv <= 2)
            return false;
        if (written_literal(m[0]) && written_literal(m[1]))
            return false;
        return is_divisor(m[0], den) || is_divisor(m[1], den);
    }
    return false;
}

/* The factors of a product (through parentheses and widening casts), at
 * most max of them into out. */
static void product_factors(CXCursor e, CXCursor *out, unsigned *n, unsigned max, int depth)
{
    CXCursor k[2];
    e = strip_int_casts(e, false);
    if (depth < 8 && is_binary(e, "*", k)) {
        product_factors(k[0], out, n, max, depth + 1);
        product_factors(k[1], out, n, max, depth + 1);
    } else if (*n < max) {
        out[(*n)++] = e;
    }
}

/* b is a + 1, 1 + a or a - 1. */
static bool next_to(CXCursor a, CXCursor b)
{
    CXCursor k[2];
    b = strip_int_casts(b, false);
    if (is_binary(b, "+", k))
        return (is_value(k[1], 1) && same_expr(k[0], a)) || (is_value(k[0], 1) && same_expr(k[1], a));
    if (is_binary(b, "-", k))
        return is_value(k[1], 1) && same_expr(k[0], a);
    return false;
}

/* A product with two factors one apart, halved: n * (n + 1) / 2,
 * N * M * (M + 1) / 2 (GSL's norm of a test matrix), (n - 1) * n / 2.
 * One of two consecutive integers is even: the quotient is exact. */
static bool consecutive_halved(CXCursor num, CXCursor den)
{
    if (!is_value(den, 2))
        return false;
    CXCursor f[8];
    unsigned n = 0;
    product_factors(num, f, &n, 8, 0);
    for (unsigned i = 0; i < n; i++)
        for (unsigned j = 0; j < n; j++)
            if (i != j && next_to(f[i], f[j]))
                return true;
    return false;
}

/* e as base + off: n + 1, 2 + n, n - 2, n (off 0); off within -2..2. */
static void offset_form(CXCursor e, CXCursor *base, int *off)
{
    CXCursor k[2];
    e = strip_int_casts(e, false);
    *base = e;
    *off = 0;
    for (int c = 1; c <= 2; c++) {
        if (is_binary(e, "+", k) && is_value(k[1], c)) {
            *base = k[0];
            *off = c;
        } else if (is_binary(e, "+", k) && is_value(k[0], c)) {
            *base = k[1];
            *off = c;
        } else if (is_binary(e, "-", k) && is_value(k[1], c)) {
            *base = k[0];
            *off = -c;
        }
    }
}

/* A product with three consecutive factors, divided by 6 (or 3): one of
 * them is a multiple of 3 and one even, n * (n + 1) * (n + 2) / 6 (the
 * tetrahedral numbers), (n - 1) * n * (n + 1) / 6. */
static bool consecutive_sixth(CXCursor num, CXCursor den)
{
    if (!is_value(den, 6) && !is_value(den, 3))
        return false;
    CXCursor f[8], b[8];
    int o[8];
    unsigned n = 0;
    product_factors(num, f, &n, 8, 0);
    for (unsigned i = 0; i < n; i++)
        offset_form(f[i], &b[i], &o[i]);
    for (unsigned i = 0; i < n; i++)
        for (unsigned j = 0; j < n; j++)
            for (unsigned k = 0; k < n; k++)
                if (i != j && j != k && i != k && o[j] == o[i] + 1 && o[k] == o[i] + 2 &&
                    same_expr(b[i], b[j]) && same_expr(b[i], b[k]))
                    return true;
    return false;
}

/* The magnitude of constant e (unsigned constants read as such). */
static bool eval_magnitude(CXCursor e, unsigned long long *m)
{
    return eval_constant(e, NULL, m, NULL);
}

/* Two constants whose quotient is too large for the floating type to hold
 * a fraction: (double)(LLONG_MAX / 2) (redis's util.c bounds a double by
 * it) is just under 2^62, where doubles are 512 apart.  The conversion rounds away
 * more than the division truncates. */
static bool beyond_precision(CXCursor num, CXCursor den, CXType to)
{
    unsigned long long a, b;
    if (!eval_magnitude(num, &a) || !eval_magnitude(den, &b) || b == 0)
        return false;
    int bits = to.kind == CXType_Float ? 24 : to.kind == CXType_Double ? 53 : to.kind == CXType_LongDouble ? 64 : 0;
    return bits > 0 && bits < 64 && a / b >= (1ULL << bits);
}

/* Two constants whose quotient has no fraction (6 / 3).  Unsigned ones
 * (0x8000000000000000ull / 0xffffffffffffffffull) are tested unsigned,
 * and LLONG_MIN / -1 is not computed as LLONG_MIN % -1 (SIGFPE). */
static bool exact_constants(CXCursor num, CXCursor den)
{
    long long a, b;
    unsigned long long ma, mb;
    bool ua, ub;
    if (!eval_constant(num, &a, &ma, &ua) || !eval_constant(den, &b, &mb, &ub) || b == 0)
        return false;
    if (ua || ub)
        return (unsigned long long)a % (unsigned long long)b == 0;
    return ma % mb == 0;
}

static bool unsigned_kind(CXType t)
{
    switch (t.kind) {
    case CXType_UChar: case CXType_UShort: case CXType_UInt: case CXType_ULong: case CXType_ULongLong:
    case CXType_UInt128: case CXType_Char_U: case CXType_Bool:
        return true;
    default:
        return false;
    }
}

/* Is e (through parentheses and implicit conversions) a use of var? */
static bool names_var(CXCursor e, CXCursor var)
{
    e = sf_strip(e, false);
    return clang_getCursorKind(e) == CXCursor_DeclRefExpr &&
           clang_equalCursors(clang_getCursorReferenced(e), var);
}

typedef struct counter_writes {
    CXCursor var;
    long long max; /* the counter type's largest value */
    bool bad; /* a write that may make it negative, or its address taken */
} counter_writes;

/* Is e a constant from 0 to max?  (`i += 0xFFFFFFFFu` on an int i is
 * i -= 1: an unsigned constant the counter's type cannot hold wraps.) */
static bool constant_upto(CXCursor e, long long max)
{
    unsigned long long m = 0;
    bool u = false;
    long long v = 0;
    if (!eval_constant(e, &v, &m, &u))
        return false;
    return u ? m <= (unsigned long long)max : v >= 0 && v <= max;
}

/* Every write to the counter in the loop: ++, or += of a constant from 0
 * to the counter type's max. */
static enum CXChildVisitResult visit_writes(CXCursor c, CXCursor parent, CXClientData ud)
{
    (void)parent;
    counter_writes *w = ud;
    enum CXCursorKind k = clang_getCursorKind(c);
    CXCursor kid[2];
    if (k == CXCursor_UnaryOperator && sf_children(c, kid, 1) == 1 && names_var(kid[0], w->var)) {
        char op[4];
        /* ++ only: --, and & (written through a pointer), are not */
        if (!sf_unary_operator(c, op, sizeof op, NULL) || strcmp(op, "++") != 0)
            w->bad = true;
    } else if ((k == CXCursor_BinaryOperator || k == CXCursor_CompoundAssignOperator) &&
               sf_children(c, kid, 2) == 2 && names_var(kid[0], w->var)) {
        char op[4];
        if (!sf_binary_operator(c, op, sizeof op))
            w->bad = true;
        else if (!strcmp(op, "+="))
            w->bad |= !constant_upto(kid[1], w->max);
        else if (strchr(op, '=') && strcmp(op, "==") && strcmp(op, "!=") && strcmp(op, "<=") &&
                 strcmp(op, ">="))
            w->bad = true; /* =, -=, *=, ... */
    }
    return w->bad ? CXChildVisit_Break : CXChildVisit_Recurse;
}

/* Is the use of a signed variable at e, inside the loop being walked
 * (the ancestors of the current cursor), a loop counter that counts up
 * from a constant >= 0: declared in that for's init with such a value,
 * and in the whole loop only ever incremented (++, += constant >= 0),
 * its address never taken?  Its type at least int wide (a signed char
 * or short wraps), and every constant (the start, what += adds) one
 * that type holds: `i += 0xFFFFFFFFu` is i -= 1. */
static bool up_counter(el_ctx *ctx, CXCursor e)
{
    e = sf_strip(e, false);
    if (clang_getCursorKind(e) != CXCursor_DeclRefExpr)
        return false;
    CXCursor var = clang_getCursorReferenced(e);
    if (clang_getCursorKind(var) != CXCursor_VarDecl)
        return false;
    for (unsigned j = 0; j < el_depth(ctx); j++) {
        CXCursor f = el_ancestor(ctx, j);
        if (clang_getCursorKind(f) != CXCursor_ForStmt)
            continue;
        CXCursor init[1], decl[2], value[1];
        /* for (int i = 0, ...; ...): the init is a DeclStmt holding var */
        if (sf_children(f, init, 1) < 1 || clang_getCursorKind(init[0]) != CXCursor_DeclStmt)
            continue;
        unsigned nd = sf_children(init[0], decl, 2);
        bool declares = false;
        for (unsigned d = 0; d < nd && d < 2; d++)
            declares |= clang_equalCursors(decl[d], var);
        if (!declares)
            continue;
        /* at least int wide: a signed char or short counter wraps to
         * negative values (++ on 127 stores -128) */
        CXType vt = clang_getCanonicalType(clang_getCursorType(var));
        long long size = clang_Type_getSizeOf(vt);
        if (size < (long long)sizeof(int) || size > (long long)sizeof(long long))
            return false;
        long long max = (long long)(~0ULL >> (65 - 8 * size));
        if (sf_children(var, value, 1) != 1 || !constant_upto(value[0], max))
            return false;
        counter_writes w = {var, max, false};
        clang_visitChildren(f, visit_writes, &w);
        return !w.bad;
    }
    return false;
}

/* Is integer expression e provably never negative, from its text alone:
 * a constant >= 0, a value of an unsigned type, one converted from an
 * unsigned type to a wider one ((long)u, an unsigned short promoted to
 * int), a non-negative value widened, a loop counter counting up from
 * a constant >= 0 (up_counter), or +, *, /, %, >> of such values (& of
 * one).  Anything else -- another signed variable, a call, a narrowing
 * conversion ((int)u may be negative), a subtraction -- is not. */
static bool never_negative(el_ctx *ctx, CXCursor e, int depth)
{
    if (depth > 16)
        return false;
    CXType t = clang_getCanonicalType(clang_getCursorType(e));
    if (unsigned_kind(t))
        return true;
    long long v = 0;
    bool u = false;
    if (eval_constant(e, &v, NULL, &u))
        return u || v >= 0;
    CXCursor k[2];
    unsigned nk = sf_children(e, k, 2);
    switch (clang_getCursorKind(e)) {
    case CXCursor_ParenExpr:
        return nk == 1 && never_negative(ctx, k[0], depth + 1);
    case CXCursor_UnexposedExpr: /* an implicit conversion */
    case CXCursor_CStyleCastExpr: {
        if (nk != 1)
            return false;
        CXType from = clang_getCanonicalType(clang_getCursorType(k[0]));
        long long to_size = clang_Type_getSizeOf(t), from_size = clang_Type_getSizeOf(from);
        if (!elc_type_is_integer(t) || !elc_type_is_integer(from) || to_size <= 0 || from_size <= 0)
            return false;
        /* unsigned into a wider type, or a non-negative value not narrowed */
        if (unsigned_kind(from))
            return to_size > from_size;
        return to_size >= from_size && never_negative(ctx, k[0], depth + 1);
    }
    case CXCursor_DeclRefExpr:
        return up_counter(ctx, e);
    case CXCursor_BinaryOperator: {
        char op[4];
        if (nk != 2 || !sf_binary_operator(e, op, sizeof op))
            return false;
        if (!strcmp(op, "+") || !strcmp(op, "*") || !strcmp(op, "/"))
            return never_negative(ctx, k[0], depth + 1) && never_negative(ctx, k[1], depth + 1);
        if (!strcmp(op, "%") || !strcmp(op, ">>"))
            return never_negative(ctx, k[0], depth + 1);
        if (!strcmp(op, "&"))
            return never_negative(ctx, k[0], depth + 1) || never_negative(ctx, k[1], depth + 1);
        return false;
    }
    default:
        return false;
    }
}

/* Is the conversion at ancestor `at` the argument of a call that
 * truncates anyway: trunc (C's division truncates toward zero too), or
 * floor of a quotient that is never negative (redis's
 * floor(dictSize(d) / 10), unsigned; floor((long)len / 2) of an
 * unsigned len, a constant, sizeof)?  The value is the same either way.
 * Not floor of a signed quotient that may be negative (floor(-7 / 2) is
 * -4, the division gives -3), nor ceil or round: ceil(a / b) of integers
 * is the classic bug. */
static bool truncating_argument(el_ctx *ctx, unsigned at, CXType quotient, CXCursor a, CXCursor b)
{
    if (at + 1 >= el_depth(ctx))
        return false;
    CXCursor call = el_ancestor(ctx, at + 1);
    if (clang_getCursorKind(call) != CXCursor_CallExpr)
        return false;
    char name[64];
    elc_spelling(call, name, sizeof name);
    if (!strcmp(name, "trunc") || !strcmp(name, "truncf") || !strcmp(name, "truncl"))
        return true;
    if (strcmp(name, "floor") && strcmp(name, "floorf") && strcmp(name, "floorl"))
        return false;
    return unsigned_kind(quotient) || (never_negative(ctx, a, 0) && never_negative(ctx, b, 0));
}

/* Is e (a UnaryExpr) a sizeof, not an _Alignof?  Read from the token
 * where it starts, as spelled: in the file, a macro's argument or a
 * macro's body (`#define ELT sizeof(double)`). */
static bool is_sizeof(CXCursor e)
{
    if (clang_getCursorKind(e) != CXCursor_UnaryExpr)
        return false;
    CXTranslationUnit tu = clang_Cursor_getTranslationUnit(e);
    CXToken *t = tu ? clang_getToken(tu, clang_getRangeStart(clang_getCursorExtent(e))) : NULL;
    if (!t)
        return false;
    char s[16];
    bool yes = clang_getTokenKind(*t) == CXToken_Keyword &&
               strcmp(elc_string(clang_getTokenSpelling(tu, *t), s, sizeof s), "sizeof") == 0;
    clang_disposeTokens(tu, t, 1);
    return yes;
}

/* Is e (a sizeof) the size of an array, or of a type not read here?
 * sizeof buf, sizeof(ring), sizeof s.data, sizeof *rows of
 * double (*rows)[8], sizeof(block_t) of an array typedef, sizeof(char[64]),
 * a VLA's: a buffer's size, not one object's.  The operand written as an
 * expression is sizeof's one child, of a type of the sizeof's size; a
 * type named is read from its TypeRef; a bound (the 64 of
 * sizeof(char[64])) is a child that is no operand. */
static bool sizeof_array(CXCursor e)
{
    CXCursor k[4];
    unsigned n = sf_children(e, k, 4);
    if (n > 4)
        return true;
    for (unsigned i = 0; i < n; i++) {
        enum CXCursorKind kind = clang_getCursorKind(k[i]);
        CXType t = clang_getCanonicalType(clang_getCursorType(k[i]));
        if (t.kind == CXType_ConstantArray || t.kind == CXType_IncompleteArray ||
            t.kind == CXType_VariableArray || t.kind == CXType_DependentSizedArray)
            return true;
        if (kind == CXCursor_TypeRef)
            continue;
        long long size;
        if (n != 1 || !clang_isExpression(kind) || kind == CXCursor_IntegerLiteral || !eval_int(e, &size) ||
            clang_Type_getSizeOf(t) != size)
            return true;
    }
    return false; /* sizeof(double), sizeof(struct rec), sizeof *r */
}

/* Is e, through parentheses and integer casts that keep its value
 * ((int)sizeof(double); not (char)sizeof(struct big) of 300), the size
 * of one object: sizeof(T) or sizeof x, not of an array (sizeof_array)?
 * A size not known here (a template's sizeof(T)) only through casts at
 * least as wide. */
static bool object_size(CXCursor e)
{
    CXCursor s = strip_int_casts(e, true);
    if (!is_sizeof(s) || sizeof_array(s))
        return false;
    long long size, v;
    if (eval_int(s, &size))
        return size > 0 && eval_int(e, &v) && v == size;
    return clang_equalCursors(strip_int_casts(e, false), s);
}

/* Is e, as a whole, one use of an object-like macro, found where its
 * value is spelled: in the file or in a macro's argument (INT_MAX of
 * REQUIRE(x <= INT_MAX / k), not REQUIRE)?  Its name into name, the
 * use's text [*ub, *ue) of *uf.  libclang's spelling location of a token
 * of a macro's body is that macro's outermost use, found with
 * elc_macro_expansion_at; a use whose text is more than its name is a
 * function-like macro's (LIM_MAX(a, b)).  object_macro_use and
 * elc_macro_named do not serve: the first takes the macro at e's
 * expansion location (REQUIRE), and the second does not know a system
 * header's INT_MAX while a precompiled prefix holds it (-1). */
static bool macro_use_of(CXCursor e, char *name, size_t size, CXFile *uf, unsigned *ub, unsigned *ue)
{
    CXSourceRange r = clang_getCursorExtent(e);
    CXFile bf = NULL, ef = NULL, vf = NULL;
    unsigned bo = 0, eo = 0;
    clang_getSpellingLocation(clang_getRangeStart(r), &bf, NULL, NULL, &bo);
    clang_getSpellingLocation(clang_getRangeEnd(r), &ef, NULL, NULL, &eo);
    if (!bf || !ef || !clang_File_isEqual(bf, ef))
        return false;
    CXCursor use = elc_macro_expansion_at(clang_Cursor_getTranslationUnit(e), bf, bo);
    if (clang_Cursor_isNull(use))
        return false;
    size_t n = strlen(elc_spelling(use, name, size));
    CXSourceRange ur = clang_getCursorExtent(use);
    *uf = NULL;
    clang_getSpellingLocation(clang_getRangeStart(ur), uf, NULL, NULL, ub);
    clang_getSpellingLocation(clang_getRangeEnd(ur), &vf, NULL, NULL, ue);
    return n > 0 && *uf && vf && clang_File_isEqual(*uf, bf) && clang_File_isEqual(vf, bf) && *ue - *ub == n &&
           bo >= *ub && eo >= bo && eo <= *ue;
}

/* Is f, a factor of a product with the object size `size`, a small
 * count written as digits: an integer literal from 1 to 16
 * (2 * sizeof(double): a complex pair), or CHAR_BIT
 * (sizeof(unsigned long) * CHAR_BIT: the bits of a word)?  Not a named
 * constant (RING_CAP * sizeof ring[0], PAIR * sizeof(float): the size
 * of a buffer as often as of a group), nor a larger number
 * (4096 * sizeof(short)).  In a macro's body the literal and the sizeof
 * are both at the macro's use (#define CPLX (2 * sizeof(double))), and a
 * name in that body is not told from digits. */
static bool group_factor(CXCursor f, CXCursor size)
{
    f = sf_strip(f, false);
    long long v;
    if (clang_getCursorKind(f) != CXCursor_IntegerLiteral || !eval_int(f, &v) || v < 1 || v > 16)
        return false;
    char name[256];
    CXFile uf = NULL, sf = NULL;
    unsigned ub = 0, ue = 0, so = 0;
    if (!macro_use_of(f, name, sizeof name, &uf, &ub, &ue) || strcmp(name, "CHAR_BIT") == 0)
        return true;
    clang_getSpellingLocation(clang_getRangeStart(clang_getCursorExtent(size)), &sf, NULL, NULL, &so);
    return sf && clang_File_isEqual(sf, uf) && so >= ub && so < ue;
}

/* Is the divisor an object's size (object_size), or such a size times a
 * small count written as digits (group_factor), through parentheses and
 * casts to integer types that keep its value?  bytes / sizeof(double)
 * counts whole elements: the truncation is the point.  Not the size of
 * an array (used / sizeof buf is a fill ratio), nor a size times a
 * variable or a named constant (a buffer's size). */
static bool object_size_divisor(CXCursor den)
{
    if (object_size(den))
        return true;
    CXCursor e = strip_int_casts(den, true), k[2];
    long long p, v;
    return is_binary(e, "*", k) &&
           ((object_size(k[0]) && group_factor(k[1], k[0])) || (group_factor(k[0], k[1]) && object_size(k[1]))) &&
           (eval_int(e, &p) ? p > 0 && eval_int(den, &v) && v == p
                            : clang_equalCursors(strip_int_casts(den, false), e));
}

/* Is e's value shaped as an integer type's limit: 2^n - 1 or -2^n with
 * n >= 7 (SCHAR_MAX's 127 and up: INT_MAX, UINT_MAX, LLONG_MIN,
 * SIZE_MAX), or 2^n with n >= 24 (the largest integers a floating type
 * holds exactly: R's R_XLEN_T_MAX, 2^52)?  Smaller powers of two are
 * sizes (PATH_MAX 4096) as often; a scale's top (SCORE_MAX 100) is no
 * limit. */
static bool limit_value(CXCursor e)
{
    long long v;
    unsigned long long m;
    bool u;
    if (!eval_constant(e, &v, &m, &u))
        return false;
    bool pow2 = m != 0 && (m & (m - 1)) == 0;
    if (!u && v < 0)
        return pow2 && m >= 128ULL;
    return (((m + 1) & m) == 0 && m >= 127ULL) || (pow2 && m >= (1ULL << 24));
}

/* An overflow guard: `if (x > INT_MAX / k)`, `d < SIZE_MAX / n` -- an
 * integer limit divided, the quotient an operand of a relational
 * comparison whose other side made it floating.  The limit: the whole
 * dividend (through parentheses and widening casts) is one use of an
 * object-like macro named *_MAX or *_MIN (macro_use_of) with a value
 * shaped as a limit (limit_value), and the divisor is written after that
 * use, not in its body (#define LOAD_MAX (7 / 2) holds the whole
 * quotient).  Between the division and the comparison only parentheses
 * and conversions (implicit, or a cast written: (double)(INT_MAX / k) < d),
 * no ?: and no arithmetic.  Not == or !=: equality bounds nothing.
 * `double lim = INT_MAX / k;` is no guard. */
static bool limit_guard(el_ctx *ctx, CXCursor num, CXCursor den)
{
    char name[256];
    CXFile uf = NULL, df = NULL;
    unsigned ub = 0, ue = 0, dof = 0;
    CXCursor e = strip_int_casts(num, false);
    if (!macro_use_of(e, name, sizeof name, &uf, &ub, &ue))
        return false;
    size_t n = strlen(name);
    if (n < 5 || (strcmp(name + n - 4, "_MAX") != 0 && strcmp(name + n - 4, "_MIN") != 0) || !limit_value(e))
        return false;
    clang_getSpellingLocation(clang_getRangeStart(clang_getCursorExtent(den)), &df, NULL, NULL, &dof);
    if (!df || !clang_File_isEqual(df, uf) || dof < ue)
        return false;
    unsigned depth = el_depth(ctx);
    for (unsigned i = 0; i < depth; i++) {
        CXCursor a = el_ancestor(ctx, i);
        switch (clang_getCursorKind(a)) {
        case CXCursor_ParenExpr:
        case CXCursor_UnexposedExpr:
        case CXCursor_CStyleCastExpr:
            break;
        case CXCursor_BinaryOperator: {
            char op[4];
            return sf_binary_operator(a, op, sizeof op) && sf_is_relational(op);
        }
        default:
            return false;
        }
    }
    return false;
}

/* A conversion written as a cast: C's (double)a, C++'s
 * static_cast<double>(a) and functional double(a). */
static bool is_cast(CXCursor e)
{
    enum CXCursorKind k = clang_getCursorKind(e);
    return k == CXCursor_CStyleCastExpr || k == CXCursor_CXXStaticCastExpr || k == CXCursor_CXXFunctionalCastExpr;
}

/* e through parentheses, implicit conversions and casts to a floating
 * type (C's, static_cast and functional ones): the integer `a` of
 * `(double)a`, `static_cast<double>(a)`, `double(a)`. */
static CXCursor strip_float_casts(CXCursor e)
{
    e = sf_strip(e, false);
    for (int guard = 0; guard < 16 && is_cast(e); guard++) {
        CXCursor in = sf_last_child(e);
        if (clang_Cursor_isNull(in) || !elc_type_is_floating(clang_getCanonicalType(clang_getCursorType(e))))
            break;
        e = sf_strip(in, false);
    }
    return e;
}

/* The bits of a floating type's significand, the implicit one counted:
 * every integer of magnitude up to 2^bits is held exactly.  float 24,
 * double 53; long double 64 where it is wider than double (x87's
 * extended; IEEE quad, aarch64's, holds 113, and 64 is then a bound
 * from below; PowerPC's double-double, whose division is not correctly
 * rounded, is taken for one of these too), else double's 53 (MSVC,
 * 32-bit ARM); 0 for a type this
 * does not know (_Float16's 11 bits hold too little to be worth it). */
static int significand_bits(CXType t)
{
    t = clang_getCanonicalType(t);
    switch (t.kind) {
    case CXType_Float:
        return 24;
    case CXType_Double:
        return 53;
    case CXType_LongDouble:
        return clang_Type_getSizeOf(t) > (long long)sizeof(double) ? 64 : 53;
    case CXType_Float128:
        return 113;
    default:
        return 0;
    }
}

/* An integer type, an enumeration as its underlying type. */
static CXType integer_type(CXType t)
{
    t = clang_getCanonicalType(t);
    if (t.kind == CXType_Enum)
        t = clang_getCanonicalType(clang_getEnumDeclIntegerType(clang_getTypeDeclaration(t)));
    return t;
}

/* Is integer type t unsigned (char16_t and char32_t too)? */
static bool unsigned_integer(CXType t)
{
    t = integer_type(t);
    return unsigned_kind(t) || t.kind == CXType_Char16 || t.kind == CXType_Char32;
}

/* Does converting integer expression `from` to integer type `to` keep
 * its value, whatever it is?  Not to _Bool, nor to a narrower type; from
 * signed to unsigned only a value never negative (never_negative: the 2
 * of size_t n / 2, a loop counter up from 0), so not the -7 of int a in
 * a / b with unsigned b, which the usual arithmetic conversions make
 * 4294967289; from unsigned to signed only into a wider type ((int)u of
 * 4294967289 is -7; an unsigned short promoted to int keeps it). */
static bool keeps_value(el_ctx *ctx, CXCursor from, CXType to)
{
    CXType f = integer_type(clang_getCursorType(from));
    to = integer_type(to);
    long long sf = clang_Type_getSizeOf(f), st = clang_Type_getSizeOf(to);
    if (to.kind == CXType_Bool || sf <= 0 || st <= 0 || st < sf)
        return false;
    bool uf = unsigned_integer(f), ut = unsigned_integer(to);
    if (ut && !uf)
        return never_negative(ctx, from, 0);
    if (!ut && uf)
        return st > sf;
    return true;
}

/* One step of a conversion chain: the conversion `conv` of `from` (an
 * implicit conversion or a cast).  A floating type narrows *bits to its
 * significand; between integer types the value must be kept
 * (keeps_value); anything else is not looked through. */
static bool chain_step(el_ctx *ctx, CXCursor conv, CXCursor from, int *bits)
{
    CXType to = clang_getCanonicalType(clang_getCursorType(conv));
    CXType ft = clang_getCanonicalType(clang_getCursorType(from));
    if (elc_type_is_floating(to)) {
        int b = significand_bits(to);
        if (b < *bits)
            *bits = b;
        return b > 0;
    }
    if (!elc_type_is_integer(to) || !elc_type_is_integer(ft))
        return false;
    return keeps_value(ctx, from, to);
}

/* An operand of one of the two divisions of a fraction test, walked
 * through parentheses, implicit conversions and casts to the value it
 * converts (into *leaf): each floating type on the way narrows *bits
 * (chain_step); false when an integer conversion on the way may change
 * the value -- int a of a / b with unsigned b, (double)(unsigned)a. */
static bool operand_chain(el_ctx *ctx, CXCursor e, int *bits, CXCursor *leaf)
{
    for (int guard = 0; guard < 64; guard++) {
        enum CXCursorKind k = clang_getCursorKind(e);
        CXCursor in = clang_getNullCursor(), kid[1];
        if (k == CXCursor_ParenExpr) {
            if (sf_children(e, kid, 1) != 1)
                return false;
            e = kid[0];
            continue;
        }
        if (k == CXCursor_UnexposedExpr && sf_children(e, kid, 1) == 1)
            in = kid[0];
        else if (is_cast(e))
            in = sf_last_child(e);
        if (clang_Cursor_isNull(in))
            break;
        if (!chain_step(ctx, e, in, bits))
            return false;
        e = in;
    }
    *leaf = e;
    return true;
}

/* Does integer value e hold in a floating type of `bits` bits exactly?
 * A constant by its magnitude, anything else by its type's width:
 * 2^width bounds it, signed or not. */
static bool held_exactly(CXCursor e, int bits)
{
    unsigned long long m;
    CXType t = clang_getCanonicalType(clang_getCursorType(e));
    if (!elc_type_is_integer(t))
        return false;
    if (eval_magnitude(e, &m))
        return bits >= 64 || m <= 1ULL << bits;
    long long size = clang_Type_getSizeOf(integer_type(t));
    return size > 0 && 8 * size <= bits;
}


/* The quotient converted at ancestor `at` is an operand of `-`, `==` or
 * `!=` whose other operand is the floating division of the same operands:
 * `(double)a / b - a / b` is the fraction of a / b, `(double)a / b == a /
 * b` asks whether b divides a.  The truncation is the point -- when the
 * two divisions divide the same numbers, and the floating one is exact
 * enough to tell:
 * - between the integer quotient and the operator only parentheses and
 *   conversions (implicit, or casts: (double)(a / b)); not a branch of
 *   ?: ((double)a / b - (c ? a / b : 0) subtracts 0 when c is 0), a
 *   comma, a call;
 * - no integer conversion on either side that may change a value: the
 *   usual arithmetic conversions turn int a of a / b with unsigned b
 *   into an unsigned (-7 / 2u is 2147483644), where (double)a / b
 *   divides -7.0 (keeps_value);
 * - every integer divided held exactly by the narrowest floating type on
 *   the way (held_exactly): with |a|, |b| <= 2^p (p the significand's
 *   bits) both convert exactly, the quotient of two such is correctly
 *   rounded, an integer quotient q (|q| <= |a|) is itself exact, and a
 *   non-integer one is at least 1/|b| > 2^-p * 2^k from any integer
 *   (2^k <= |a / b|), more than half an ulp: it never rounds onto one.
 *   So double (53 bits) holds every integer of 32 bits, float (24) only
 *   of 16: (float)a / (float)b == a / b with int a = 16777217, b = 2 is
 *   true (a converts to 16777216.0f), though 2 does not divide a; long
 *   long operands lose the test in double;
 * - no operand reads a volatile object: two reads may differ.
 * A test that is all of that but for the last-but-one point is still a
 * test of the fraction, only not an exact one: FRACTION_INEXACT, which
 * is reported as such (*bits: the significand that falls short). */
typedef enum { NO_FRACTION, FRACTION_EXACT, FRACTION_INEXACT } fraction_kind;

static fraction_kind fraction_test(el_ctx *ctx, unsigned at, CXCursor div, CXCursor num,
                                   CXCursor den, int *bits_out)
{
    unsigned depth = el_depth(ctx), i = 0;
    int bits = 1 << 10;
    for (; i < depth; i++) {
        CXCursor a = el_ancestor(ctx, i), below = i == 0 ? div : el_ancestor(ctx, i - 1);
        if (clang_getCursorKind(a) == CXCursor_ParenExpr)
            continue;
        if (clang_getCursorKind(a) != CXCursor_UnexposedExpr && !is_cast(a))
            break;
        if (!chain_step(ctx, a, below, &bits))
            return NO_FRACTION;
    }
    if (i >= depth || i <= at)
        return NO_FRACTION;
    CXCursor op = el_ancestor(ctx, i), mine = el_ancestor(ctx, i - 1), k[2], f[2];
    char o[4];
    if (clang_getCursorKind(op) != CXCursor_BinaryOperator || sf_children(op, k, 2) != 2 ||
        !sf_binary_operator(op, o, sizeof o) ||
        (strcmp(o, "-") != 0 && strcmp(o, "==") != 0 && strcmp(o, "!=") != 0))
        return NO_FRACTION;
    CXCursor other = clang_equalCursors(k[0], mine) ? k[1] : clang_equalCursors(k[1], mine) ? k[0] : clang_getNullCursor();
    if (clang_Cursor_isNull(other))
        return NO_FRACTION;
    other = sf_strip(other, false);
    CXType ot = clang_getCanonicalType(clang_getCursorType(other));
    if (!is_binary(other, "/", f) || !elc_type_is_floating(ot))
        return NO_FRACTION;
    if (!same_expr(strip_float_casts(f[0]), num) || !same_expr(strip_float_casts(f[1]), den))
        return NO_FRACTION;
    int ob = significand_bits(ot);
    if (ob < bits)
        bits = ob;
    CXCursor all[4] = {f[0], f[1], num, den}, leaf[4];
    for (int j = 0; j < 4; j++)
        if (!operand_chain(ctx, all[j], &bits, &leaf[j]))
            return NO_FRACTION;
    *bits_out = bits;
    for (int j = 0; j < 4; j++)
        if (!held_exactly(leaf[j], bits))
            return FRACTION_INEXACT;
    return FRACTION_EXACT;
}

/* The remainders and quotients of the function being linted, gathered
 * once a function (per-TU state): a division asks whether its function
 * takes a % b (or x / m), and a function of 20000 divisions must not be
 * walked 20000 times.  Entries are indexed by operator and a cheap key
 * of each operand (op_key), and confirmed with same_expr. */
typedef struct {
    CXCursor a, b;
    size_t next; /* the next entry with the same key: its index + 1, or 0 */
} op_entry;

typedef struct {
    CXCursor fn; /* the function gathered, when gathered */
    bool gathered;
    op_entry *v;
    size_t n, cap;
    el_strmap first; /* key -> index + 1 of its first entry */
    /* the remainders the function only tests (n % b != 0, if (n % b))
     * not met yet: their nodes (data[1]), which take no fraction anywhere */
    const void **tested;
    size_t n_tested, cap_tested;
} div_state;

/* A key same_expr never tells apart from an equal operand's: the
 * variable's name, a constant's value, an element's, member's or
 * operation's (x[k + 1], p->sec: what they are made of; depth bounds
 * it), else "?". */
static void op_key_at(CXCursor e, char *out, size_t n, int depth)
{
    e = strip_int_casts(e, false);
    long long v;
    char name[200], sub[2][240];
    CXCursor kid[2];
    enum CXCursorKind k = clang_getCursorKind(e);
    if (k == CXCursor_DeclRefExpr) {
        snprintf(out, n, "d:%s", elc_spelling(clang_getCursorReferenced(e), name, sizeof name));
    } else if (eval_int(e, &v)) {
        snprintf(out, n, "#%lld", v);
    } else if (depth > 0 && k == CXCursor_ArraySubscriptExpr && sf_children(e, kid, 2) == 2) {
        op_key_at(kid[0], sub[0], sizeof sub[0], depth - 1);
        op_key_at(kid[1], sub[1], sizeof sub[1], depth - 1);
        snprintf(out, n, "s:%.100s[%.100s]", sub[0], sub[1]);
    } else if (depth > 0 && k == CXCursor_BinaryOperator && sf_children(e, kid, 2) == 2 &&
               sf_binary_operator(e, name, sizeof name)) {
        op_key_at(kid[0], sub[0], sizeof sub[0], depth - 1);
        op_key_at(kid[1], sub[1], sizeof sub[1], depth - 1);
        snprintf(out, n, "b:(%.100s%.3s%.100s)", sub[0], name, sub[1]);
    } else if (depth > 0 && k == CXCursor_MemberRefExpr) {
        elc_spelling(e, name, sizeof name);
        if (sf_children(e, kid, 1) == 1)
            op_key_at(kid[0], sub[0], sizeof sub[0], depth - 1);
        else
            snprintf(sub[0], sizeof sub[0], "this");
        snprintf(out, n, "m:%.100s.%.100s", sub[0], name);
    } else {
        snprintf(out, n, "?");
    }
}

static void op_key(CXCursor e, char *out, size_t n)
{
    op_key_at(e, out, n, 3);
}

static char *entry_key(const char *op, CXCursor a, CXCursor b)
{
    char ka[256], kb[256];
    op_key(a, ka, sizeof ka);
    op_key(b, kb, sizeof kb);
    return el_xasprintf("%s\n%s\n%s", op, ka, kb);
}

/* e, a remainder only tested (an operand of a comparison, of ! && ||, a
 * condition): noted, so that it is not taken as where a fraction goes. */
static void note_tested(div_state *st, CXCursor e)
{
    e = sf_strip(e, true);
    char op[4];
    CXCursor kid[2];
    if (clang_getCursorKind(e) == CXCursor_BinaryOperator && sf_binary_operator(e, op, sizeof op) &&
        !strcmp(op, "%") && sf_children(e, kid, 2) == 2) {
        el_grow(&st->tested, &st->cap_tested, st->n_tested + 1, sizeof *st->tested);
        st->tested[st->n_tested++] = e.data[1];
    }
}

/* Each noted remainder is met once, soon after it was noted (below its
 * test): it leaves the list then, which so holds only the tests pending
 * on the way down, and a function of thousands of tested remainders does
 * not search thousands of entries at each one it keeps. */
static bool was_tested(div_state *st, CXCursor e)
{
    for (size_t i = st->n_tested; i-- > 0;)
        if (st->tested[i] == e.data[1]) {
            st->tested[i] = st->tested[--st->n_tested];
            return true;
        }
    return false;
}

/* The operands c tests (a comparison's, ! && ||'s, a condition, what a
 * switch compares with its cases). */
static void note_tests(div_state *st, CXCursor c, enum CXCursorKind k)
{
    CXCursor kid[4];
    char op[4];
    unsigned n = sf_children(c, kid, 4);
    if (k == CXCursor_BinaryOperator && n == 2 && sf_binary_operator(c, op, sizeof op) &&
        (sf_is_comparison(op) || !strcmp(op, "&&") || !strcmp(op, "||"))) {
        note_tested(st, kid[0]);
        note_tested(st, kid[1]);
    } else if (k == CXCursor_UnaryOperator && n == 1 && sf_unary_operator(c, op, sizeof op, NULL) &&
               !strcmp(op, "!")) {
        note_tested(st, kid[0]);
    } else if ((k == CXCursor_IfStmt || k == CXCursor_SwitchStmt) && n >= 2 &&
               clang_getCursorKind(kid[0]) == CXCursor_DeclStmt) {
        note_tested(st, kid[1]); /* C++17's if (init; cond): the init comes first */
    } else if ((k == CXCursor_IfStmt || k == CXCursor_WhileStmt || k == CXCursor_SwitchStmt ||
                k == CXCursor_ConditionalOperator) &&
               n >= 1) {
        note_tested(st, kid[0]);
    } else if (k == CXCursor_DoStmt && n == 2) {
        note_tested(st, kid[1]);
    }
}

static enum CXChildVisitResult gather_op(CXCursor c, CXCursor parent, CXClientData ud)
{
    (void)parent;
    div_state *st = ud;
    enum CXCursorKind k = clang_getCursorKind(c);
    CXCursor kid[2];
    char op[4];
    note_tests(st, c, k);
    if ((k == CXCursor_BinaryOperator || k == CXCursor_CompoundAssignOperator) &&
        sf_binary_operator(c, op, sizeof op) && (op[0] == '%' || op[0] == '/') &&
        (op[1] == '\0' || (op[1] == '=' && op[2] == '\0')) && sf_children(c, kid, 2) == 2 &&
        !(op[0] == '%' && op[1] == '\0' && was_tested(st, c))) {
        op[1] = '\0'; /* a %= b takes a % b */
        char *key = entry_key(op, kid[0], kid[1]);
        el_grow(&st->v, &st->cap, st->n + 1, sizeof *st->v);
        st->v[st->n] = (op_entry){kid[0], kid[1],
                                  (size_t)(uintptr_t)el_strmap_get(&st->first, key)};
        el_strmap_put(&st->first, key, (void *)(uintptr_t)++st->n);
        free(key);
    }
    return CXChildVisit_Recurse;
}

static void div_state_clear(div_state *st)
{
    free(st->v);
    free(st->tested);
    el_strmap_free(&st->first);
    memset(st, 0, sizeof *st);
}

static bool function_takes(el_ctx *ctx, div_state *st, const char *op, CXCursor a, CXCursor b)
{
    CXCursor fn;
    if (!el_enclosing_function(ctx, &fn))
        return false;
    if (!st->gathered || !clang_equalCursors(fn, st->fn)) {
        div_state_clear(st);
        st->fn = fn;
        st->gathered = true;
        clang_visitChildren(fn, gather_op, st);
    }
    char *key = entry_key(op, a, b);
    size_t i = (size_t)(uintptr_t)el_strmap_get(&st->first, key);
    free(key);
    for (; i; i = st->v[i - 1].next)
        if (same_expr(st->v[i - 1].a, a) && same_expr(st->v[i - 1].b, b))
            return true;
    return false;
}

static void end_tu(el_ctx *ctx, void *state)
{
    (void)ctx;
    div_state_clear(state);
}

/* Is num / den one digit of a quotient-and-remainder decomposition, the
 * truncation its point: the function also takes the remainder num % den
 * (or %=), where the fraction goes (hours s / 3600 beside s % 3600,
 * a row i / w beside its column i % w), or num is itself a remainder
 * x % m whose quotient x / m the function takes (the minutes
 * s % 3600 / 60 after the hours s / 3600)?  Operands compared as the
 * rounding idiom's divisor is (same_expr); none with side effects. */
static bool divmod_digit(el_ctx *ctx, div_state *st, CXCursor num, CXCursor den)
{
    if (has_side_effect(num) || has_side_effect(den))
        return false;
    if (function_takes(ctx, st, "%", num, den))
        return true;
    CXCursor k[2];
    return is_binary(sf_strip(num, false), "%", k) && function_takes(ctx, st, "/", k[0], k[1]);
}

static void on_binary(el_ctx *ctx, void *state, CXCursor c)
{
    CXType t = clang_getCanonicalType(clang_getCursorType(c));
    if (!elc_type_is_integer(t))
        return;
    CXType to;
    unsigned at = 0;
    if (!converted_to_floating(ctx, c, &to, &at))
        return;
    if (!el_applies_to(ctx, c))
        return;
    char op[4];
    if (!sf_binary_operator(c, op, sizeof op) || strcmp(op, "/") != 0)
        return;
    CXCursor k[2];
    if (sf_children(c, k, 2) != 2)
        return;
    if (exact_constants(k[0], k[1]))
        return; /* exact */
    if (beyond_precision(k[0], k[1], to))
        return; /* (double)(LLONG_MAX / 2): the conversion rounds more than the fraction */
    if (truncating_argument(ctx, at, t, k[0], k[1]))
        return; /* trunc(a / b), floor(u / v), floor of a / b never negative: the same value */
    if (implicit_call_value(ctx, k[0]) || implicit_call_value(ctx, k[1]))
        return; /* the operand's type is not known in this configuration */
    if (rounding_idiom(k[0], k[1]))
        return; /* (n + d - 1) / d: rounds in integers on purpose */
    if (consecutive_halved(k[0], k[1]) || consecutive_sixth(k[0], k[1]))
        return; /* n * (n + 1) / 2, n * (n + 1) * (n + 2) / 6: exact */
    if (object_size_divisor(k[1]))
        return; /* bytes / sizeof(double): counts whole elements */
    if (limit_guard(ctx, k[0], k[1]))
        return; /* x > INT_MAX / k: an overflow guard */
    int bits = 0;
    fraction_kind fk = fraction_test(ctx, at, c, k[0], k[1], &bits);
    if (fk == FRACTION_EXACT)
        return; /* (double)a / b - a / b: the fraction, on purpose */
    char ts[64], fs[64];
    elc_string(clang_getTypeSpelling(to), ts, sizeof ts);
    elc_string(clang_getTypeSpelling(t), fs, sizeof fs);
    if (fk == FRACTION_INEXACT) {
        /* the truncation is meant: the advice is how to test it exactly */
        el_report_written(ctx, elc_operator_location(c),
                          "integer division (%s) tested against the same division in floating "
                          "point: a %d-bit significand does not hold every %s exactly, so for "
                          "large values the test can be wrong; test the remainder (a %% b) "
                          "instead", fs, bits, fs);
        return;
    }
    if (divmod_digit(ctx, state, k[0], k[1]))
        return; /* h = s / 3600 beside s % 3600: a quotient and its remainder */
    char use[160], on_tensors[200] = "", macro[128], in_macro[160] = "";
    if (sf_suggest_operator(ctx, "/", false, false, use, sizeof use))
        snprintf(on_tensors, sizeof on_tensors, ", or use %s on tensors", use);
    /* in a macro's body: reported at the macro's use, where no `/` is written */
    if (elc_operator_macro(c, macro, sizeof macro))
        snprintf(in_macro, sizeof in_macro, " in macro '%s'", macro);
    el_report_written(ctx, elc_operator_location(c),
                      "integer division (%s)%s converted to %s: the fraction is lost before the "
                      "conversion; convert an operand first ((%s)a / b)%s", fs, in_macro, ts, ts, on_tensors);
}

const el_rule el_rule_integer_division = {
    .id = "EH302",
    .kinds = kinds,
    .state_size = sizeof(div_state),
    .on_cursor = on_binary,
    .end = end_tu,
};
