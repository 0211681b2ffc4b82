/* lint/analysis/expr_util.c -- small libclang helpers for expressions the
 * rules share (expr_util.h): children, stripping, and operators read from
 * the tokens between operands. */
#include "expr_util.h"

#include <stdio.h>
#include <string.h>

#include "clang_util.h"

typedef struct kids_walk {
    CXCursor *out;
    unsigned max, n;
} kids_walk;

static enum CXChildVisitResult kids_visit(CXCursor c, CXCursor p, CXClientData d)
{
    (void)p;
    kids_walk *w = d;
    if (w->n < w->max)
        w->out[w->n] = c;
    w->n++;
    return CXChildVisit_Continue;
}

unsigned sf_children(CXCursor c, CXCursor *out, unsigned max)
{
    kids_walk w = {out, max, 0};
    clang_visitChildren(c, kids_visit, &w);
    return w.n;
}

static enum CXChildVisitResult last_visit(CXCursor c, CXCursor p, CXClientData d)
{
    (void)p;
    *(CXCursor *)d = c;
    return CXChildVisit_Continue;
}

CXCursor sf_last_child(CXCursor c)
{
    CXCursor last = clang_getNullCursor();
    clang_visitChildren(c, last_visit, &last);
    return last;
}

bool sf_is_relational(const char *op)
{
    return !strcmp(op, "<") || !strcmp(op, ">") || !strcmp(op, "<=") || !strcmp(op, ">=");
}

bool sf_is_comparison(const char *op)
{
    return sf_is_relational(op) || !strcmp(op, "==") || !strcmp(op, "!=");
}

CXCursor sf_strip(CXCursor e, bool casts)
{
    for (int guard = 0; guard < 64 && !clang_Cursor_isNull(e); guard++) {
        enum CXCursorKind k = clang_getCursorKind(e);
        if (k == CXCursor_ParenExpr || k == CXCursor_UnexposedExpr) {
            CXCursor kid[1];
            if (sf_children(e, kid, 1) != 1)
                return e;
            e = kid[0];
        } else if (casts && (k == CXCursor_CStyleCastExpr || k == CXCursor_CXXStaticCastExpr ||
                             k == CXCursor_CXXFunctionalCastExpr)) {
            e = sf_last_child(e); /* C++'s static_cast<T>(x), T(x) too */
        } else {
            return e;
        }
    }
    return e;
}

/* The punctuation tokens spelled from `from` up to (not including) `to`,
 * both in one file, at most max of them (more: false).  Built from the
 * cursors' own locations: clang_getLocationForOffset would make libclang
 * compute the macro argument map of the whole file. */
static bool tokens_between(CXTranslationUnit tu, CXSourceLocation from, CXSourceLocation to,
                           char (*out)[8], unsigned max, unsigned *count)
{
    CXFile ff = NULL, tf = NULL;
    unsigned fo = 0, to_off = 0;
    clang_getSpellingLocation(from, &ff, NULL, NULL, &fo);
    clang_getSpellingLocation(to, &tf, NULL, NULL, &to_off);
    if (!ff || ff != tf || fo >= to_off || to_off - fo > 256)
        return false;
    CXToken *toks = NULL;
    unsigned nt = 0, n = 0;
    bool ok = true;
    clang_tokenize(tu, clang_getRange(from, to), &toks, &nt);
    for (unsigned i = 0; i < nt && ok; i++) {
        CXFile f = NULL;
        unsigned off = 0;
        clang_getSpellingLocation(clang_getTokenLocation(tu, toks[i]), &f, NULL, NULL, &off);
        if (f != ff || off < fo)
            ok = false;
        else if (off >= to_off)
            break;
        else if (n == max || clang_getTokenKind(toks[i]) != CXToken_Punctuation)
            ok = false;
        else
            elc_string(clang_getTokenSpelling(tu, toks[i]), out[n++], sizeof out[0]);
    }
    if (toks)
        clang_disposeTokens(tu, toks, nt);
    *count = n;
    return ok;
}

static const char *const binary_ops[] = {
    "*", "/", "%", "+", "-", "<<", ">>", "<", ">", "<=", ">=", "==", "!=", "&", "^", "|", "&&",
    "||", "=", "*=", "/=", "%=", "+=", "-=", "<<=", ">>=", "&=", "^=", "|=", ",", NULL,
};

bool sf_binary_operator(CXCursor c, char *op, size_t n)
{
    CXCursor k[2];
    char tok[1][8];
    unsigned count = 0;
    if (sf_children(c, k, 2) == 2 &&
        tokens_between(clang_Cursor_getTranslationUnit(c), clang_getRangeEnd(clang_getCursorExtent(k[0])),
                       clang_getRangeStart(clang_getCursorExtent(k[1])), tok, 1, &count) &&
        count == 1 && strcmp(tok[0], ",") != 0) { /* (a comma may be a macro use's: DIV(i, k)) */
        for (const char *const *o = binary_ops; *o; o++) {
            if (strcmp(*o, tok[0]) == 0) {
                snprintf(op, n, "%s", tok[0]);
                return true;
            }
        }
    }
    return elc_binary_operator(c, op, n);
}

bool sf_unary_operator(CXCursor u, char *op, size_t n, bool *postfix)
{
    CXCursor k[1];
    char tok[1][8];
    unsigned count = 0;
    if (postfix)
        *postfix = false;
    if (sf_children(u, k, 1) == 1) {
        CXTranslationUnit tu = clang_Cursor_getTranslationUnit(u);
        CXSourceRange ue = clang_getCursorExtent(u), oe = clang_getCursorExtent(k[0]);
        unsigned us = 0, os = 0;
        CXFile uf = NULL, of = NULL;
        clang_getSpellingLocation(clang_getRangeStart(ue), &uf, NULL, NULL, &us);
        clang_getSpellingLocation(clang_getRangeStart(oe), &of, NULL, NULL, &os);
        bool post = uf && uf == of && us == os;
        bool ok = post ? tokens_between(tu, clang_getRangeEnd(oe), clang_getRangeEnd(ue), tok, 1, &count)
                       : tokens_between(tu, clang_getRangeStart(ue), clang_getRangeStart(oe), tok, 1, &count);
        if (ok && count == 1) {
            snprintf(op, n, "%s", tok[0]);
            if (postfix)
                *postfix = post;
            return true;
        }
    }
    return elc_unary_operator(u, op, n, postfix);
}
