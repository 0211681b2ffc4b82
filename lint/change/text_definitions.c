/* lint/change/text_definitions.c -- the functions and tags a C file's
 * text defines, read without a parse (text_definitions.h). */
#include "text_definitions.h"

#include <stdlib.h>
#include <string.h>

#include "c_text.h"
#include "mem.h"
#include "paren_match.h"

/* Words that may stand before `(...) {` without naming a function. */
static bool statement_word(const char *t, size_t len)
{
    static const char *const words[] = {"if",      "while",   "for",      "switch",
                                        "return",  "sizeof",  "_Generic", "__attribute__",
                                        "catch",   "alignof", "_Alignof", "typeof",
                                        "__typeof__", "decltype", "defined", "__declspec"};
    for (size_t i = 0; i < sizeof words / sizeof *words; i++)
        if (strlen(words[i]) == len && memcmp(words[i], t, len) == 0)
            return true;
    return false;
}

/* A parameter list longer than this is not read as one: an unclosed '('
 * would make every later one scan to the end. */
#define MAX_PARAMS 16384

/* Past `(...)` from the '(' at t[i], or n when it is not closed within
 * MAX_PARAMS. */
static size_t past_parens(const char *t, size_t n, size_t i)
{
    size_t limit = n - i > MAX_PARAMS ? i + MAX_PARAMS : n;
    size_t e = el_parens_scan(t, limit, i);
    return e == limit && (e == i || t[e - 1] != ')') ? n : e;
}

/* Is t[i..e) struct, union or enum? */
static bool tag_word(const char *t, size_t i, size_t e)
{
    return (e - i == 6 && memcmp(t + i, "struct", 6) == 0) ||
           (e - i == 5 && memcmp(t + i, "union", 5) == 0) ||
           (e - i == 4 && memcmp(t + i, "enum", 4) == 0);
}

/* Does the word w occur in t[b..e) as a whole identifier? */
static bool has_word(const char *t, size_t b, size_t e, const char *w)
{
    size_t len = strlen(w);
    for (size_t j = b, je; j < e;) {
        size_t k = el_text_skip_lexeme(t, e, j);
        if (k > j) {
            j = k;
        } else if (el_text_ident_at(t, e, j, &je)) {
            if (je - j == len && memcmp(t + j, w, len) == 0)
                return true;
            j = je;
        } else {
            j++;
        }
    }
    return false;
}

/* Is the '{' at t[i] the block of `extern "C"` (or "C++"), whose insides
 * are at file scope? */
static bool extern_c_block(const char *t, size_t i)
{
    size_t j = el_text_back_blanks(t, 0, i);
    if (j == 0 || t[j - 1] != '"')
        return false;
    size_t q = j - 1;
    while (q > 0 && t[q - 1] != '"' && t[q - 1] != '\n')
        q--;
    if (q == 0 || t[q - 1] != '"' ||
        !((j - 1 - q == 1 && t[q] == 'C') || (j - 1 - q == 3 && memcmp(t + q, "C++", 3) == 0)))
        return false;
    size_t w = el_text_back_blanks(t, 0, q - 1);
    return w >= 6 && memcmp(t + w - 6, "extern", 6) == 0 && (w == 6 || !el_text_ident_char(t[w - 7]));
}

/* The `#if 0` at the directive t[i..le): past its skipped lines, to the
 * line after the `#else`, `#elif` or `#endif` that ends them. */
static size_t past_if0(const char *t, size_t n, size_t i, size_t le)
{
    size_t j = i + 1;
    while (j < le && (t[j] == ' ' || t[j] == '\t'))
        j++;
    if (le - j < 2 || memcmp(t + j, "if", 2) != 0)
        return i;
    j += 2;
    while (j < le && (t[j] == ' ' || t[j] == '\t'))
        j++;
    size_t z = j;
    if (z >= le || t[z] != '0')
        return i;
    z++;
    z = el_text_skip_blanks(t, le, z);
    if (z < le)
        return i; /* more than a literal 0 */
    int depth = 0;
    for (size_t d = le, de; (d = el_text_next_directive(t, n, d, &de)) < n; d = de) {
        size_t w = d + 1, we;
        while (w < de && (t[w] == ' ' || t[w] == '\t'))
            w++;
        if (!el_text_ident_at(t, de, w, &we))
            continue;
        if (we - w >= 2 && memcmp(t + w, "if", 2) == 0)
            depth++;
        else if (we - w == 5 && memcmp(t + w, "endif", 5) == 0 && depth-- == 0)
            return de;
        else if (depth == 0 && ((we - w == 4 && memcmp(t + w, "else", 4) == 0) ||
                                (we - w == 4 && memcmp(t + w, "elif", 4) == 0)))
            return de;
    }
    return n;
}

#define MAX_BRACES 256

typedef struct def_scan {
    const char *t;
    size_t n;
    bool outer[MAX_BRACES];   /* each open '{': the block of extern "C" */
    size_t depth;             /* open braces */
    size_t inner;             /* of them, not extern "C": not file scope */
    char **statics;           /* names a file-scope prototype declares static */
    size_t n_statics, cap_statics;
} def_scan;

static bool declared_static(const def_scan *d, const char *name, size_t len)
{
    for (size_t k = 0; k < d->n_statics; k++)
        if (strlen(d->statics[k]) == len && memcmp(d->statics[k], name, len) == 0)
            return true;
    return false;
}

static void open_brace(def_scan *d, size_t i)
{
    bool ext = extern_c_block(d->t, i);
    if (d->depth < MAX_BRACES)
        d->outer[d->depth] = ext;
    d->depth++;
    d->inner += !ext;
}

static void close_brace(def_scan *d)
{
    if (!d->depth)
        return;
    d->depth--;
    bool ext = d->depth < MAX_BRACES && d->outer[d->depth];
    if (!ext && d->inner)
        d->inner--;
}

void el_text_each_definition(const char *t, size_t n,
                             void (*fn)(const char *name, size_t len, el_text_def_kind kind,
                                        void *ud),
                             void *ud)
{
    def_scan d = {.t = t, .n = n};
    size_t decl = 0; /* where the current declaration began */
    char prev = ';'; /* the last character of code before i */
    for (size_t i = 0; i < n;) {
        size_t k = el_text_skip_lexeme(t, n, i);
        if (k > i) {
            if (t[i] != '/') /* a literal or a number; a comment is no code */
                prev = t[i];
            i = k;
            continue;
        }
        if (t[i] == '#' && el_text_directive_at(t, i)) {
            size_t le = el_text_line_end(t, n, i);
            size_t past = past_if0(t, n, i, le);
            i = decl = past > i ? past : le;
            prev = ';';
            continue;
        }
        if (t[i] == ';' || t[i] == '{' || t[i] == '}') {
            if (t[i] == '{')
                open_brace(&d, i);
            else if (t[i] == '}')
                close_brace(&d);
            prev = t[i];
            decl = ++i;
            continue;
        }
        size_t e;
        if (!el_text_ident_at(t, n, i, &e)) {
            if (!strchr(" \t\r\n\f\v", t[i]))
                prev = t[i];
            i++;
            continue;
        }
        char before = prev;
        prev = 'a';
        if (d.inner) { /* in a function, a struct, a class or a namespace */
            i = e;
            continue;
        }
        if (tag_word(t, i, e)) {
            size_t ns = el_text_skip_blanks(t, n, e), ne;
            if (el_text_ident_at(t, n, ns, &ne) && el_text_skip_blanks(t, n, ne) < n &&
                t[el_text_skip_blanks(t, n, ne)] == '{')
                fn(t + ns, ne - ns, EL_TEXT_TAG, ud);
            i = e;
            continue;
        }
        size_t open = el_text_skip_blanks(t, n, e);
        bool qualified = i >= 2 && t[i - 1] == ':' && t[i - 2] == ':';
        /* (after ':' or ',': a constructor's member initializer; after
         * '.' or '->': a member) */
        bool named = !strchr(":,.>=", before) && !qualified && !statement_word(t + i, e - i);
        if (open < n && t[open] == '(' && named) {
            size_t close = past_parens(t, n, open);
            size_t after = el_text_skip_blanks(t, n, close);
            while (after < n && el_text_ident_at(t, n, after, &k) && k - after == 13 &&
                   memcmp(t + after, "__attribute__", 13) == 0)
                after = el_text_skip_blanks(t, n, past_parens(t, n, el_text_skip_blanks(t, n, k)));
            bool is_static = has_word(t, decl, i, "static") || declared_static(&d, t + i, e - i);
            bool device = has_word(t, decl, i, "__global__") ||
                          (has_word(t, decl, i, "__device__") && !has_word(t, decl, i, "__host__"));
            if (after < n && t[after] == '{' && !device) {
                fn(t + i, e - i, is_static ? EL_TEXT_STATIC_FUNCTION : EL_TEXT_FUNCTION, ud);
            } else if (after < n && t[after] == ';' && is_static && !declared_static(&d, t + i, e - i)) {
                el_grow(&d.statics, &d.cap_statics, d.n_statics + 1, sizeof *d.statics);
                d.statics[d.n_statics++] = el_xstrndup(t + i, e - i);
            }
        }
        i = e;
    }
    for (size_t j = 0; j < d.n_statics; j++)
        free(d.statics[j]);
    free(d.statics);
}
