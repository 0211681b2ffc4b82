/* lint/change/own_names.c -- the names a file's text defines itself
 * (own_names.h). */
#include "own_names.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c_text.h"
#include "mem.h"
#include "strbuf.h"
#include "strmap.h"

/* One definition: the name at [nb, ne); what it says, [bb, be) (a
 * #define's body, a typedef's whole declaration); tag: a struct, union or
 * enum with a body (a new type); fallback: a #define under #ifndef of its
 * own name (it stands in for a library's); next: the next definition of
 * the same name (index + 1, 0: none). */
typedef struct definition {
    size_t nb, ne, bb, be, next;
    bool tag, fallback, compiled, variable;
} definition;

enum { UNKNOWN, BUSY, OWN, LIBRARY };

struct el_own_names {
    const char *t;
    size_t n;
    definition *v;
    size_t n_defs, cap;
    el_strmap first;         /* name -> index + 1 of its first definition */
    el_strmap verdict;       /* name -> OWN or LIBRARY (BUSY while asked), for use_key */
    el_library_name_fn library;
    void *ud;
    /* the arm of the #if chain each stretch of text is in: from seg_at[k]
     * on, the arms (their directives' text, outermost first) seg_key[k] */
    size_t *seg_at;
    char **seg_key;
    size_t n_seg, cap_seg, cap_key;
    const char *use_key;     /* the arms of the use asked about */
};

static void add(el_own_names *o, definition d)
{
    el_grow(&o->v, &o->cap, o->n_defs + 1, sizeof *o->v);
    o->v[o->n_defs++] = d;
}

/* Is [b, e) a keyword that decorates a declarator, not its name
 * (`typedef float level __attribute__((aligned(4)));`)? */
static bool decoration(const char *t, size_t b, size_t e)
{
    static const char *const words[] = {"__attribute__", "__attribute", "__declspec", "__asm__",
                                        "__asm", "asm", "const", "volatile", "restrict",
                                        "__restrict", "__restrict__", NULL};
    for (const char *const *w = words; *w; w++)
        if (strlen(*w) == e - b && !strncmp(t + b, *w, e - b))
            return true;
    return false;
}

static bool blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* Is the identifier [i, e) the name in `(*NAME)`, blanks allowed, and
 * that a declarator's (a parameter list, an array's size or the end
 * follows: `float (*f)(float)`), not an operand's (`__typeof__(*f) g`,
 * `sizeof (*p)`)? */
static bool paren_star_name(const char *t, size_t n, size_t i, size_t e)
{
    while (e < n && blank(t[e]))
        e++;
    if (e >= n || t[e] != ')')
        return false;
    e++;
    while (e < n && blank(t[e]))
        e++;
    if (e < n && !strchr("([;,)", t[e]))
        return false;
    size_t p = i;
    while (p > 0 && blank(t[p - 1]))
        p--;
    size_t q = p; /* past a qualifier: (* const NAME) */
    while (q > 0 && el_text_ident_char(t[q - 1]))
        q--;
    if (q < p && decoration(t, q, p)) {
        p = q;
        while (p > 0 && blank(t[p - 1]))
            p--;
    }
    if (p == 0 || t[p - 1] != '*')
        return false;
    p--;
    while (p > 0 && blank(t[p - 1]))
        p--;
    return p > 0 && t[p - 1] == '(';
}

/* The constants of an enumeration whose body opens at t[i] (`{`): each
 * is the project's own, as a tag is.  Returns past the body. */
static size_t scan_enumerators(el_own_names *o, size_t i)
{
    const char *t = o->t;
    size_t n = o->n;
    int depth = 0;
    bool want = false; /* the next identifier at depth 1 names a constant */
    while (i < n) {
        size_t j = el_text_skip_lexeme(t, n, i), e = 0;
        if (j != i) {
            i = j;
            continue;
        }
        if (el_text_directive_at(t, i)) {
            i = el_text_line_end(t, n, i);
            continue;
        }
        if (el_text_ident_at(t, n, i, &e)) {
            if (want && depth == 1)
                add(o, (definition){i, e, i, e, 0, true, false, false, false});
            want = false;
            i = e;
            continue;
        }
        char c = t[i++];
        if (c == '{' || c == '(' || c == '[')
            want = ++depth == 1;
        else if (c == '}' || c == ')' || c == ']') {
            if (--depth <= 0)
                return i;
        } else if (c == ',' && depth == 1)
            want = true;
    }
    return i;
}

/* After the keyword `enum` at t[i]: its body's `{`, or n. */
static size_t enum_body(const el_own_names *o, size_t i)
{
    size_t at = el_text_skip_blanks(o->t, o->n, i), e = 0;
    if (el_text_ident_at(o->t, o->n, at, &e))
        at = el_text_skip_blanks(o->t, o->n, e);
    return at < o->n && o->t[at] == '{' ? at : o->n;
}

static bool is_word(const char *t, size_t b, size_t e, const char *w)
{
    return strlen(w) == e - b && !strncmp(t + b, w, e - b);
}

/* The word [b, e) when it is `struct`, `union` or `enum` followed by a
 * name and a body: the name is a tag, the file's own (added).  Returns
 * where the scan goes on: past an enumeration's body (its constants are
 * the file's own too), else e. */
static size_t scan_tag(el_own_names *o, size_t b, size_t e)
{
    const char *t = o->t;
    size_t n = o->n;
    bool is_enum = is_word(t, b, e, "enum");
    if (!is_enum && !is_word(t, b, e, "struct") && !is_word(t, b, e, "union"))
        return e;
    size_t nb = el_text_skip_blanks(t, n, e), ne = 0;
    if (el_text_ident_at(t, n, nb, &ne)) {
        size_t after = el_text_skip_blanks(t, n, ne);
        if (after < n && t[after] == '{')
            add(o, (definition){nb, ne, nb, ne, 0, true, false, false, false});
    }
    size_t open = is_enum ? enum_body(o, e) : n;
    return open < n ? scan_enumerators(o, open) : e;
}

/* `typedef ... NAME;` from t[i] (after the keyword): the names declared,
 * one a declarator (`A, *B;` declares two): its last identifier outside
 * brackets, or the one in `(*NAME)` for a pointer to function; a body
 * makes them tags, and an enumeration's constants are the file's own.
 * Nothing when a directive comes first (the word was prose in an #if 0).
 * Returns where the scan stopped. */
static size_t scan_typedef(el_own_names *o, size_t i)
{
    const char *t = o->t;
    size_t n = o->n, start = i, names[64][2], n_names = 0, last_b = 0, last_e = 0, fp_b = 0,
           fp_e = 0;
    bool body = false;
    int depth = 0;
    while (i < n) {
        size_t j = el_text_skip_lexeme(t, n, i), e = 0;
        if (j != i) {
            i = j;
            continue;
        }
        if (el_text_directive_at(t, i))
            return i;
        if (el_text_ident_at(t, n, i, &e)) {
            size_t past = scan_tag(o, i, e);
            if (past != e) { /* an enumeration's body */
                i = past;
                body = true;
                continue;
            }
            if (depth <= 1 && !fp_e && paren_star_name(t, n, i, e)) {
                fp_b = i;
                fp_e = e;
            }
            if (depth == 0 && !decoration(t, i, e)) {
                last_b = i;
                last_e = e;
            }
            i = e;
            continue;
        }
        char c = t[i];
        body |= c == '{';
        if (c == '{' || c == '(' || c == '[')
            depth++;
        else if ((c == '}' || c == ')' || c == ']') && depth > 0)
            depth--;
        else if ((c == ';' || c == ',') && depth == 0) {
            if ((fp_e || last_e) && n_names < 64) {
                names[n_names][0] = fp_e ? fp_b : last_b;
                names[n_names++][1] = fp_e ? fp_e : last_e;
            }
            fp_e = last_e = 0;
            if (c == ';')
                break;
        }
        i++;
    }
    for (size_t k = 0; i < n && k < n_names; k++)
        add(o, (definition){names[k][0], names[k][1], start, i, 0, body, false, false, false});
    return i;
}

/* Is the identifier at t[i] a later declarator of a declaration's list
 * (`double *buf = in, fftw_s[4];`): `,` and `*`s before it, and the
 * statement it is in -- back to a `;`, `{` or `}` outside brackets; not
 * in an open `(`, which holds a call's arguments or parameters --
 * starts with a declarator (el_text_declared_at) before its first `=`,
 * `[` or `,` outside brackets? */
static bool later_declarator(const char *t, size_t n, size_t i)
{
    size_t q = i;
    while (q > 0 && (blank(t[q - 1]) || t[q - 1] == '*'))
        q--;
    if (q == 0 || t[q - 1] != ',')
        return false;
    int depth = 0;
    size_t st = q - 1;
    for (; st > 0; st--) {
        char c = t[st - 1];
        if (c == ')' || c == ']' || (c == '}' && depth > 0))
            depth++;
        else if (c == '(' || c == '[' || (c == '{' && depth > 0)) {
            if (depth-- == 0)
                return false; /* arguments or parameters */
        } else if (depth == 0 && (c == ';' || c == '{' || c == '}'))
            break;
        else if (c == '\n' && el_text_directive_at(t, st))
            break; /* a directive line before the statement */
    }
    /* the first declarator: the identifier before the first `=`, `[` or
     * `,` outside brackets */
    depth = 0;
    for (size_t k = st; k < q; k++) {
        size_t j = el_text_skip_lexeme(t, n, k);
        if (j != k) {
            k = j - 1;
            continue;
        }
        char c = t[k];
        if (c == '(' || c == '{')
            depth++;
        else if ((c == ')' || c == '}') && depth > 0)
            depth--;
        else if (depth == 0 && (c == '=' || c == '[' || c == ',')) {
            size_t x = k;
            while (x > st && blank(t[x - 1]))
                x--;
            size_t w = x;
            while (w > st && el_text_ident_char(t[w - 1]))
                w--;
            return w < x && el_text_ident_start(t[w]) && el_text_declared_at(t, st, w);
        }
    }
    return false;
}

/* A library-named identifier [i, e) that a declaration declares as a
 * variable -- a local (ImageMagick-style `fftw_plan` on one line,
 * `fftw_r2c_plan;` on the next), a parameter, a file-scope variable --
 * is the project's own, as EH102 has it where the code is compiled
 * (locals, parameters and the project's variables are not reported):
 * a type before it (el_text_declared_at, not `struct`/`union`/`enum`,
 * which name a tag, nor a word that takes an operand: `new`, `delete`,
 * `throw`; nor a qualifier after `(` or `,`: a cast's type), and `;`,
 * `,`, `=` or `[` after it (a parameter is not read: `(const
 * fftw_complex)` is a cast).  Initialized with
 * a library's name alone (`fn_t fftw_free_fn = fftw_free;`, `&fftw_free`)
 * it stands for that name: a definition whose text names the library.
 * Returns where the scan goes on. */
static size_t scan_variable(el_own_names *o, size_t i, size_t e)
{
    const char *t = o->t;
    size_t n = o->n;
    char name[256];
    if (e - i >= sizeof name)
        return e;
    snprintf(name, sizeof name, "%.*s", (int)(e - i), t + i);
    if (!o->library || !o->library(name, o->ud))
        return e;
    size_t a = el_text_skip_blanks(t, n, e);
    if (a >= n || !strchr(";,=[", t[a]) || (t[a] == '=' && a + 1 < n && t[a + 1] == '='))
        return e;
    if (!el_text_declared_at(t, 0, i) && !later_declarator(t, n, i))
        return e;
    /* the word before the declarator (past blanks and `*`s) */
    size_t q = i;
    while (q > 0 && (blank(t[q - 1]) || t[q - 1] == '*'))
        q--;
    size_t w = q;
    while (w > 0 && el_text_ident_char(t[w - 1]))
        w--;
    static const char *const not_types[] = {"struct", "union", "enum", "class", "new",
                                            "delete", "throw", "co_return", "co_yield",
                                            "co_await", NULL};
    for (const char *const *k = not_types; *k; k++)
        if (is_word(t, w, q, *k))
            return e;
    /* `(const fftw_complex[2])`: a qualifier after `(` or `,` starts a
     * type name (a cast, a parameter), the identifier is that type */
    static const char *const qualifiers[] = {"const", "volatile", "restrict", "_Atomic",
                                             "signed", "unsigned", NULL};
    size_t before = w;
    while (before > 0 && blank(t[before - 1]))
        before--;
    for (const char *const *k = qualifiers; *k; k++)
        if (is_word(t, w, q, *k) && before > 0 && strchr("(,", t[before - 1]))
            return e;
    size_t bb = e, be = e;
    bool alias = false;
    if (t[a] == '=') {
        /* the initializer, to the `,` or `;` at its depth */
        bb = el_text_skip_blanks(t, n, a + 1);
        if (bb < n && t[bb] == '&')
            bb = el_text_skip_blanks(t, n, bb + 1);
        size_t ie = 0;
        if (el_text_ident_at(t, n, bb, &ie)) {
            size_t after = el_text_skip_blanks(t, n, ie);
            char init[256];
            if (after < n && (t[after] == ';' || t[after] == ',') && ie - bb < sizeof init) {
                snprintf(init, sizeof init, "%.*s", (int)(ie - bb), t + bb);
                alias = o->library(init, o->ud);
                be = ie;
            }
        }
    }
    add(o, (definition){i, e, alias ? bb : e, alias ? be : e, 0, !alias, false, false, true});
    return e;
}

/* The directive at t[i] (to le) without blanks: "#ifdefX", "#if0". */
static char *squeeze(const char *t, size_t i, size_t le)
{
    char *s = el_xmalloc(le - i + 1);
    size_t k = 0;
    for (size_t p = i; p < le; p++)
        if (!strchr(" \t\r\n\\", t[p]))
            s[k++] = t[p];
    s[k] = '\0';
    return s;
}

bool el_own_names_guarded_by_ifndef(const char *t, size_t i, size_t nb, size_t ne)
{
    size_t ls = i;
    while (ls > 0 && t[ls - 1] != '\n')
        ls--;
    if (ls == 0)
        return false;
    size_t ps = ls - 1;
    while (ps > 0 && t[ps - 1] != '\n')
        ps--;
    char *line = squeeze(t, ps, ls - 1);
    int len = (int)(ne - nb);
    char *a = el_xasprintf("#ifndef%.*s", len, t + nb),
         *b = el_xasprintf("#if!defined(%.*s)", len, t + nb),
         *c = el_xasprintf("#if!defined%.*s", len, t + nb);
    bool r = !strcmp(line, a) || !strcmp(line, b) || !strcmp(line, c);
    free(line);
    free(a);
    free(b);
    free(c);
    return r;
}

static bool starts(const char *s, const char *p)
{
    return !strncmp(s, p, strlen(p));
}

/* Is the identifier name written elsewhere in t than at the two offsets
 * (outside comments and literals)? */
static bool name_elsewhere(const char *t, size_t n, const char *name, size_t at1, size_t at2)
{
    size_t len = strlen(name);
    for (size_t i = 0; i < n;) {
        size_t j = el_text_skip_lexeme(t, n, i);
        if (j != i) {
            i = j;
            continue;
        }
        size_t e = 0;
        if (el_text_ident_at(t, n, i, &e)) {
            if (e - i == len && !memcmp(t + i, name, len) && i != at1 && i != at2)
                return true;
            i = e;
            continue;
        }
        i++;
    }
    return false;
}

/* Does the #if whose line ends at le end (its #endif) the file: nothing
 * after it but blanks, comments and the #endif lines of conditionals
 * around it (a file wrapped in its own guard)? */
static bool endif_closes_file(const char *t, size_t n, size_t le)
{
    size_t depth = 1, dle = le;
    for (size_t i = el_text_next_directive(t, n, le, &dle); i < n;
         i = el_text_next_directive(t, n, dle, &dle)) {
        char *d = squeeze(t, i, dle);
        if (starts(d, "#if"))
            depth++;
        else if (starts(d, "#endif") && --depth == 0) {
            free(d);
            for (;;) {
                size_t j = el_text_skip_blanks(t, n, dle);
                if (j >= n)
                    return true;
                if (!el_text_directive_at(t, j))
                    return false;
                size_t e = el_text_line_end(t, n, j);
                char *x = squeeze(t, j, e);
                bool endif = starts(x, "#endif");
                free(x);
                if (!endif)
                    return false;
                dle = e;
            }
        }
        free(d);
    }
    return false;
}

/* Is the #if at ifl (squeezed to d, its line ending at le) an include
 * guard: `#ifndef X` (or `#if !defined(X)`), then, past blank lines and
 * comments, an empty `#define X`, X written nowhere else in the file, and
 * the #if's #endif the end of the file -- or, nested in another #if arm
 * (outer_closes is then whether the outermost #if around it ends the
 * file), the guard of that arm's private part in a file that is one
 * conditional to its end (primme's cublas_wrapper.c: `#ifdef
 * SUPPORTED_TYPE` ... `#ifdef USE_CUBLAS` / `#ifndef
 * CUBLAS_WRAPPER_PRIVATE` ... `#endif` ... `#endif` `#endif`, the file
 * entered once per element type).  A `#ifndef HAVE_CBLAS` / `#define
 * HAVE_CBLAS 0` feature default is no guard: its body is not empty and
 * it is tested elsewhere.  Nor is a nested one with code after the
 * conditionals around it: nothing says the file is entered again, or
 * that X is not defined before it (another header, -DX). */
static bool include_guard(const char *t, size_t n, const char *d, size_t ifl, size_t le,
                          bool nested, bool outer_closes)
{
    size_t j = el_text_skip_blanks(t, n, le);
    if (j >= n || !el_text_directive_at(t, j))
        return false;
    size_t dle = el_text_line_end(t, n, j), nb = 0;
    char macro[256];
    size_t body = el_text_define_body(t, j, dle, macro, sizeof macro, &nb);
    if (!body || body <= nb || body - nb >= sizeof macro || el_text_skip_blanks(t, dle, body) < dle)
        return false;
    int len = (int)(body - nb);
    while (len > 0 && !el_text_ident_char(t[nb + (size_t)len - 1]))
        len--;
    char *a = el_xasprintf("#ifndef%.*s", len, t + nb),
         *b = el_xasprintf("#if!defined(%.*s)", len, t + nb),
         *c = el_xasprintf("#if!defined%.*s", len, t + nb);
    bool form = !strcmp(d, a) || !strcmp(d, b) || !strcmp(d, c);
    free(a);
    free(b);
    free(c);
    if (!form)
        return false;
    /* where the #if names it */
    size_t at = ifl;
    while (at < le && !(el_text_ident_at(t, n, at, &(size_t){0}) && (size_t)len <= le - at &&
                        !memcmp(t + at, t + nb, (size_t)len) &&
                        !(at + (size_t)len < n && el_text_ident_char(t[at + (size_t)len]))))
        at++;
    char *name = el_xasprintf("%.*s", len, t + nb);
    bool r = at < le && !name_elsewhere(t, n, name, at, nb) &&
             ((nested && outer_closes) || endif_closes_file(t, n, le));
    free(name);
    return r;
}

/* Record, for every directive that opens, switches or closes an arm, the
 * arms the text after it is in. */
static void scan_arms(el_own_names *o)
{
    char **stack = NULL; /* each open #if: its arm's key ("" a guard), outermost first */
    size_t depth = 0, cap = 0, cap_le = 0, cap_cl = 0;
    /* each open #if: its line's end, and whether its #endif ends the file
     * (-1: not asked yet) */
    size_t *les = NULL;
    int *closes = NULL;
    const char *t = o->t;
    size_t n = o->n, le = 0;
    for (size_t i = el_text_next_directive(t, n, 0, &le); i < n;
         i = el_text_next_directive(t, n, le, &le)) {
        char *d = squeeze(t, i, le);
        bool changed = true;
        if (starts(d, "#if")) {
            el_grow(&stack, &cap, depth + 1, sizeof *stack);
            el_grow(&les, &cap_le, depth + 1, sizeof *les);
            el_grow(&closes, &cap_cl, depth + 1, sizeof *closes);
            /* an include guard (`#ifndef PRIV_H` then `#define PRIV_H`) is
             * true wherever the arm around it is: no condition of its own,
             * so a macro defined inside it is in the arm of a use after it.
             * Nested, it is one when the outermost conditional around it
             * that is no guard ends the file (a top-level guard wrapping
             * the file does not count: its #endif ends any file); with
             * only guards around it, it is as a top-level one. */
            size_t outer = 0;
            while (outer < depth && !stack[outer][0])
                outer++;
            bool nested = outer < depth, outer_closes = false;
            if (nested && starts(d, "#if") && d[3] != 'd') {
                /* (asked once per conditional, and only around a
                 * #ifndef or #if !defined: a guard's forms) */
                if (closes[outer] < 0)
                    closes[outer] = endif_closes_file(t, n, les[outer]);
                outer_closes = closes[outer] > 0;
            }
            bool guard = include_guard(t, n, d, i, le, nested, outer_closes);
            les[depth] = le;
            closes[depth] = -1;
            stack[depth++] = el_xstrdup(guard ? "" : d);
        } else if (depth && (starts(d, "#elif") || starts(d, "#else"))) {
            /* the arm after the #if's: named by both */
            char *first = stack[depth - 1];
            char *bar = strchr(first, '|');
            char *k = el_xasprintf("%.*s|%s", bar ? (int)(bar - first) : (int)strlen(first), first, d);
            free(stack[depth - 1]);
            stack[depth - 1] = k;
        } else if (depth && starts(d, "#endif")) {
            free(stack[--depth]);
        } else {
            changed = false;
        }
        free(d);
        if (changed) {
            el_buf key = {0};
            for (size_t k = 0; k < depth; k++)
                if (stack[k][0])
                    el_buf_printf(&key, "%s\n", stack[k]);
            el_grow(&o->seg_at, &o->cap_seg, o->n_seg + 1, sizeof *o->seg_at);
            el_grow(&o->seg_key, &o->cap_key, o->n_seg + 1, sizeof *o->seg_key);
            o->seg_at[o->n_seg] = le;
            o->seg_key[o->n_seg++] = key.s ? el_buf_take(&key) : el_xstrdup("");
        }
    }
    for (size_t k = 0; k < depth; k++)
        free(stack[k]);
    free(stack);
    free(les);
    free(closes);
}

/* The arms the text at off is in ("" outside any). */
static const char *arms_at(const el_own_names *o, size_t off)
{
    size_t lo = 0, hi = o->n_seg;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (o->seg_at[mid] <= off)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo ? o->seg_key[lo - 1] : "";
}

/* In an #if 0 (or #if false) arm: written never to compile. */
static bool never_compiled(const char *arms)
{
    return strstr(arms, "#if0\n") || strstr(arms, "#if0|") || strstr(arms, "#iffalse");
}

static void scan(el_own_names *o)
{
    const char *t = o->t;
    size_t n = o->n;
    for (size_t i = 0; i < n;) {
        size_t j = el_text_skip_lexeme(t, n, i), e = 0;
        if (j != i) {
            i = j;
            continue;
        }
        if (el_text_directive_at(t, i)) {
            size_t le = el_text_line_end(t, n, i), nb = 0;
            char macro[8];
            size_t body = el_text_define_body(t, i, le, macro, sizeof macro, &nb);
            if (body && body > nb)
                add(o, (definition){nb, body, body, le, 0, false,
                                    el_own_names_guarded_by_ifndef(t, i, nb, body), false, false});
            i = le;
            continue;
        }
        if (!el_text_ident_at(t, n, i, &e)) {
            i++;
            continue;
        }
        size_t w = e - i;
        if (w == 7 && !strncmp(t + i, "typedef", 7)) {
            i = scan_typedef(o, e);
            continue;
        }
        size_t past = scan_tag(o, i, e);
        i = past != e ? past : scan_variable(o, i, e);
    }
}

static char *name_of(const el_own_names *o, size_t b, size_t e, char *buf, size_t n)
{
    snprintf(buf, n, "%.*s", (int)(e - b), o->t + b);
    return buf;
}

/* Is one of the sorted offsets c[0..nc) on the line holding offset i? */
static bool cursor_on_line(const char *t, size_t n, size_t i, const size_t *c, size_t nc)
{
    size_t ls = i, le = i;
    while (ls > 0 && t[ls - 1] != '\n')
        ls--;
    while (le < n && t[le] != '\n')
        le++;
    size_t lo = 0, hi = nc;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (c[mid] < ls)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < nc && c[lo] <= le;
}

el_own_names *el_own_names_new(const char *t, size_t n, const size_t *skip_b,
                               const size_t *skip_e, size_t n_skip, const size_t *cursors,
                               size_t n_cursors, el_library_name_fn library, void *ud)
{
    el_own_names *o = calloc(1, sizeof *o);
    if (!o)
        return NULL;
    o->t = t;
    o->n = n;
    o->library = library;
    o->ud = ud;
    scan_arms(o);
    scan(o);
    char name[256];
    /* chained by name, last first (the order does not matter) */
    for (size_t i = 0; i < o->n_defs; i++) {
        definition *d = &o->v[i];
        d->compiled = true;
        for (size_t k = 0; k < n_skip && d->compiled; k++)
            d->compiled = !(skip_b[k] <= d->nb && d->nb < skip_e[k]);
        /* skipped by the first entry, compiled by another */
        if (!d->compiled && n_cursors && cursor_on_line(t, n, d->nb, cursors, n_cursors))
            d->compiled = true;
        if (d->ne - d->nb >= sizeof name)
            continue; /* (a name that long is no library's) */
        name_of(o, d->nb, d->ne, name, sizeof name);
        d->next = (size_t)(uintptr_t)el_strmap_get(&o->first, name);
        el_strmap_put(&o->first, name, (void *)(uintptr_t)(i + 1));
    }
    return o;
}

void el_own_names_at(el_own_names *o, size_t off)
{
    const char *k = arms_at(o, off);
    if (o->use_key != k)
        el_strmap_free(&o->verdict); /* (verdicts hold for one arm) */
    o->use_key = k;
}

/* Does the text [b, e) of definition `self` (of name `self_name`) name a
 * library's symbol that is not the file's own? */
static bool names_library(el_own_names *o, size_t b, size_t e, size_t skip, const char *self_name)
{
    char name[256];
    for (size_t i = b; i < e;) {
        size_t j = el_text_skip_lexeme(o->t, e, i), k = 0;
        if (j != i) {
            i = j;
            continue;
        }
        if (!el_text_ident_at(o->t, e, i, &k)) {
            i++;
            continue;
        }
        if (i != skip && k - i < sizeof name) {
            name_of(o, i, k, name, sizeof name);
            if (strcmp(name, self_name) && o->library(name, o->ud) && !el_own_names_own(o, name))
                return true;
        }
        i = k;
    }
    return false;
}

/* Is a use in the arms use_key wherever the definition in the arms
 * def_key is: the same arms, or arms nested in them (`#ifdef USE_CUBLAS`
 * around both, and an `#ifdef USE_HALF` around the use only)? */
static bool within(const char *def_key, const char *use_key)
{
    return !strncmp(def_key, use_key, strlen(def_key));
}

bool el_own_names_own(el_own_names *o, const char *name)
{
    uintptr_t v = (uintptr_t)el_strmap_get(&o->verdict, name);
    if (v == OWN || v == LIBRARY || v == BUSY)
        return v == OWN; /* (BUSY: a cycle of definitions, none known own) */
    el_strmap_put(&o->verdict, name, (void *)(uintptr_t)BUSY);
    bool any = false, library = false;
    for (size_t k = (size_t)(uintptr_t)el_strmap_get(&o->first, name); k && !library;
         k = o->v[k - 1].next) {
        const definition *d = &o->v[k - 1];
        if (!d->compiled && !(o->use_key && within(arms_at(o, d->nb), o->use_key) &&
                              !never_compiled(o->use_key)))
            continue; /* another arm's (#ifdef NO_CBLAS for a use under #ifdef WITH_CBLAS), or
                       * an #if 0's */
        any = true;
        library = d->fallback || (!d->tag && names_library(o, d->bb, d->be, d->nb, name));
    }
    bool own = any && !library;
    el_strmap_put(&o->verdict, name, (void *)(uintptr_t)(own ? OWN : LIBRARY));
    return own;
}

bool el_own_names_declares_at(const el_own_names *o, const char *name, size_t off)
{
    for (size_t k = (size_t)(uintptr_t)el_strmap_get(&o->first, name); k; k = o->v[k - 1].next)
        if (o->v[k - 1].variable && o->v[k - 1].nb == off)
            return true;
    return false;
}

void el_own_names_free(el_own_names *o)
{
    if (!o)
        return;
    el_strmap_free(&o->first);
    el_strmap_free(&o->verdict);
    for (size_t k = 0; k < o->n_seg; k++)
        free(o->seg_key[k]);
    free(o->seg_key);
    free(o->seg_at);
    free(o->v);
    free(o);
}
