/* lint/change/macro_argument.c -- a call written whole in one argument of
 * a function-like macro's use (macro_argument.h). */
#include "macro_argument.h"

#include <stdio.h>
#include <string.h>

#include "clang_util.h"
#include "macro_expand.h"

typedef struct toks {
    CXTranslationUnit tu;
    CXToken *v;
    unsigned n;
} toks;

static void toks_free(toks *t)
{
    if (t->v)
        clang_disposeTokens(t->tu, t->v, t->n);
}

static const char *text_of(const toks *t, unsigned i, char *buf, size_t n)
{
    return elc_string(clang_getTokenSpelling(t->tu, t->v[i]), buf, n);
}

static bool is(const toks *t, unsigned i, const char *s)
{
    char buf[8];
    return i < t->n && strcmp(text_of(t, i, buf, sizeof buf), s) == 0;
}

typedef struct params {
    char name[32][64];
    unsigned n;
} params;

static bool is_param(const params *ps, const char *s)
{
    for (unsigned i = 0; i < ps->n; i++)
        if (strcmp(ps->name[i], s) == 0)
            return true;
    return false;
}

/* The parameters of the function-like macro whose definition is d (its
 * name, then "(" ...), as the expander of skipped code reads them
 * (macro_expand.h: `...` is __VA_ARGS__); *body: the index of its body's
 * first token (0: no parameter list read). */
static void read_params(const toks *d, params *ps, size_t *body)
{
    enum { MAX = 64 };
    char text[MAX][64];
    const char *tok[MAX], *names[32];
    size_t nt = 0, np = 0, b = 0;
    bool variadic = false;
    for (unsigned i = 1; i < d->n && nt < MAX; i++) {
        text_of(d, i, text[nt], sizeof text[0]);
        tok[nt] = text[nt];
        nt++;
        if (!strcmp(text[nt - 1], ")"))
            break;
    }
    *body = 0;
    if (!em_params(tok, nt, names, 32, &np, &b, &variadic))
        return;
    for (size_t j = 0; j < np; j++)
        snprintf(ps->name[ps->n++], sizeof ps->name[0], "%s", names[j]);
    *body = 1 + b;
}

/* Can token i, right before a `(` or before the argument, make a macro
 * call of what follows: a macro's name, a parameter (the use may give a
 * macro's name: APPLY(m, x) m(x)), or a `)` (PICK(1)(x), a macro naming
 * a macro)?  Its text into s. */
static bool may_call_macro(CXTranslationUnit tu, const toks *d, unsigned i, const params *ps, char *s,
                           size_t sn)
{
    text_of(d, i, s, sn);
    if (strcmp(s, ")") == 0)
        return true;
    return clang_getTokenKind(d->v[i]) == CXToken_Identifier &&
           (is_param(ps, s) || elc_macro_named(tu, s) != 0); /* (-1: may be one) */
}

/* Why the body (tokens d from `first`) does not put parameter p in once
 * as it is, or "" when it does.  paren: the argument starts with `(`. */
static void check_use(CXTranslationUnit tu, const toks *d, unsigned first, const char *macro,
                      const params *ps, const char *p, bool paren, char *why, size_t wn)
{
    unsigned uses = 0, at = 0;
    bool stringized = false, pasted = false;
    char s[128];
    for (unsigned i = first; i < d->n; i++)
        if (clang_getTokenKind(d->v[i]) == CXToken_Identifier &&
            strcmp(text_of(d, i, s, sizeof s), p) == 0) {
            uses++;
            at = i;
            stringized |= is(d, i - 1, "#");
            pasted |= is(d, i - 1, "##") || is(d, i + 1, "##");
        }
    why[0] = '\0';
    if (stringized)
        snprintf(why, wn, "macro %s makes a string of its argument %s (#%s)", macro, p, p);
    else if (pasted)
        snprintf(why, wn, "macro %s pastes its argument %s to other tokens (##)", macro, p);
    else if (uses != 1)
        snprintf(why, wn, "macro %s puts its argument %s in %u times", macro, p, uses);
    else if (paren && at > first && may_call_macro(tu, d, at - 1, ps, s, sizeof s))
        snprintf(why, wn, "macro %s puts its argument %s, which starts with '(', right after "
                          "'%s', which can make a macro call of it", macro, p, s);
    if (why[0])
        return;
    /* the parentheses around it: a macro's call passes it on */
    int depth = 0;
    for (unsigned i = at; i-- > first;) {
        if (is(d, i, ")"))
            depth++;
        else if (is(d, i, "(") && depth-- == 0 && i > first &&
                 may_call_macro(tu, d, i - 1, ps, s, sizeof s)) {
            if (strcmp(s, ")") == 0)
                snprintf(why, wn, "macro %s passes its argument %s on to a callee other tokens "
                                  "make ('...)(%s)'), which can be a macro", macro, p, p);
            else
                snprintf(why, wn, "macro %s passes its argument %s on to '%s', which can be a "
                                  "macro", macro, p, s);
            return;
        }
        if (depth < 0)
            depth = 0;
    }
}

bool el_macro_argument_of(CXCursor ref, CXFile *file, unsigned *offset, unsigned *arg_b,
                          unsigned *arg_e, char *why, size_t wn)
{
    why[0] = '\0';
    CXTranslationUnit tu = clang_Cursor_getTranslationUnit(ref);
    CXSourceLocation loc = clang_getCursorLocation(ref);
    CXFile ef = NULL, sf = NULL;
    unsigned eo = 0, so = 0;
    clang_getExpansionLocation(loc, &ef, NULL, NULL, &eo);
    clang_getSpellingLocation(loc, &sf, NULL, NULL, &so); /* (libclang 14: the file's) */
    CXCursor exp = elc_macro_expansion_of(ref);
    CXCursor def = clang_getCursorReferenced(exp);
    if (!tu || !ef || !sf || !clang_File_isEqual(ef, sf) || so == eo || clang_Cursor_isNull(exp) ||
        clang_getCursorKind(def) != CXCursor_MacroDefinition ||
        !clang_Cursor_isMacroFunctionLike(def))
        return false;
    char macro[128];
    elc_spelling(def, macro, sizeof macro);
    /* no other use in the argument around it: SHOW in OUTER(SHOW(f(x)))
     * does its own things with f(x) */
    CXCursor inner = elc_macro_expansion_at(tu, sf, so);
    if (!clang_equalCursors(inner, exp)) {
        char other[128];
        snprintf(why, wn, "it is in an argument of macro %s, itself in an argument of macro %s",
                 elc_spelling(inner, other, sizeof other), macro);
        return false;
    }
    toks d = {tu, NULL, 0};
    clang_tokenize(tu, clang_getCursorExtent(def), &d.v, &d.n);
    int k = elc_macro_argument_at(tu, exp, sf, so, arg_b, arg_e);
    /* the parameters; the one it is given to: the k-th, or __VA_ARGS__ */
    params ps = {0};
    char p[64] = "";
    size_t body = 0;
    if (k >= 0)
        read_params(&d, &ps, &body);
    /* the k-th, or __VA_ARGS__ when k is past the named ones */
    for (unsigned j = 0; k >= 0 && j < ps.n && !p[0]; j++)
        if ((int)j == k || strcmp(ps.name[j], "__VA_ARGS__") == 0)
            snprintf(p, sizeof p, "%s", ps.name[j]);
    size_t i = body ? body - 1 : d.n;
    bool ok = k >= 0 && p[0] && body;
    if (ok) {
        size_t size = 0;
        const char *t = clang_getFileContents(tu, sf, &size);
        check_use(tu, &d, i + 1, macro, &ps, p, t && *arg_b < size && t[*arg_b] == '(', why, wn);
        ok = !why[0];
    }
    toks_free(&d);
    if (ok) {
        *file = sf;
        *offset = so;
    }
    return ok;
}
