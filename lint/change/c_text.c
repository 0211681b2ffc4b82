/* lint/change/c_text.c -- reading C source text where there is no parse
 * (c_text.h). */
#include "c_text.h"

#include <stdio.h>
#include <string.h>

bool el_text_ident_start(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

bool el_text_ident_char(char c)
{
    return el_text_ident_start(c) || (c >= '0' && c <= '9');
}

bool el_text_ident_at(const char *t, size_t n, size_t i, size_t *e)
{
    if (i >= n || !el_text_ident_start(t[i]) || (i > 0 && el_text_ident_char(t[i - 1])))
        return false;
    size_t k = i;
    while (k < n && el_text_ident_char(t[k]))
        k++;
    *e = k;
    return true;
}

/* Past a line continuation (backslash, newline) at t[i], or i. */
static size_t past_continuation(const char *t, size_t n, size_t i)
{
    if (i < n && t[i] == '\\') {
        if (i + 1 < n && t[i + 1] == '\n')
            return i + 2;
        if (i + 2 < n && t[i + 1] == '\r' && t[i + 2] == '\n')
            return i + 3;
    }
    return i;
}

bool el_text_spells_split(const char *t, size_t n, size_t i, const char *name)
{
    bool split = false;
    for (const char *c = name; *c; c++) {
        size_t j = past_continuation(t, n, i);
        split |= j != i;
        i = j;
        if (i >= n || t[i] != *c)
            return false;
        i++;
    }
    return split && !(i < n && el_text_ident_char(t[i]));
}

size_t el_text_skip_lexeme(const char *t, size_t n, size_t i)
{
    if (t[i] == '/' && i + 1 < n && t[i + 1] == '*') {
        for (i += 2; i + 1 < n && !(t[i] == '*' && t[i + 1] == '/'); i++)
            ;
        return i + 2 < n ? i + 2 : n;
    }
    if (t[i] == '/' && i + 1 < n && t[i + 1] == '/') {
        while (i < n && t[i] != '\n')
            i++;
        return i;
    }
    if (t[i] == '"' || t[i] == '\'') {
        char q = t[i];
        for (i++; i < n && t[i] != q && t[i] != '\n'; i++)
            if (t[i] == '\\')
                i++;
        return i < n ? i + 1 : n;
    }
    return i;
}

size_t el_text_skip_blanks(const char *t, size_t n, size_t i)
{
    for (;;) {
        while (i < n && strchr(" \t\r\n\f\v", t[i]))
            i++;
        if (i >= n || t[i] == '"' || t[i] == '\'')
            return i;
        size_t j = el_text_skip_lexeme(t, n, i);
        if (j == i)
            return i;
        i = j;
    }
}

/* Is there a line comment on t[ls..le) (literals and block comments
 * passed over)?  Its start, or le. */
static size_t line_comment_at(const char *t, size_t ls, size_t le)
{
    for (size_t j = ls; j < le;) {
        if (t[j] == '/' && j + 1 < le && t[j + 1] == '/')
            return j;
        size_t k = el_text_skip_lexeme(t, le, j);
        j = k > j ? k : j + 1;
    }
    return le;
}

size_t el_text_back_blanks(const char *t, size_t b, size_t i)
{
    for (;;) {
        while (i > b && ((t[i - 1] && strchr(" \t\r\f\v", t[i - 1])) ||
                         (t[i - 1] == '\\' && (t[i] == '\n' || t[i] == '\r'))))
            i--;
        if (i > b && t[i - 1] == '\n') {
            size_t le = --i, ls = le;
            while (ls > b && t[ls - 1] != '\n')
                ls--;
            i = line_comment_at(t, ls, le);
            continue;
        }
        if (i >= b + 4 && t[i - 1] == '/' && t[i - 2] == '*') {
            size_t j = i - 3;
            while (j > b && !(t[j - 1] == '/' && t[j] == '*'))
                j--;
            if (j > b) {
                i = j - 1;
                continue;
            }
        }
        return i;
    }
}

size_t el_text_line_end(const char *t, size_t n, size_t i)
{
    while (i < n && t[i] != '\n') {
        if (t[i] == '\\' && i + 1 < n && t[i + 1] == '\n')
            i++;
        else if (t[i] == '\\' && i + 2 < n && t[i + 1] == '\r' && t[i + 2] == '\n')
            i += 2; /* a CRLF file's continuation */
        i++;
    }
    return i;
}

bool el_text_directive_at(const char *t, size_t i)
{
    if (t[i] != '#')
        return false;
    while (i > 0 && (t[i - 1] == ' ' || t[i - 1] == '\t'))
        i--;
    return i == 0 || t[i - 1] == '\n';
}

size_t el_text_define_body(const char *t, size_t i, size_t le, char *name, size_t cap,
                           size_t *name_at)
{
    size_t p = i + 1;
    while (p < le && (t[p] == ' ' || t[p] == '\t'))
        p++;
    if (le - p < 6 || strncmp(t + p, "define", 6) || el_text_ident_char(t[p + 6]))
        return 0;
    p += 6;
    while (p < le && (t[p] == ' ' || t[p] == '\t'))
        p++;
    size_t q = p;
    while (q < le && el_text_ident_char(t[q]))
        q++;
    snprintf(name, cap, "%.*s", (int)(q - p), t + p);
    if (name_at)
        *name_at = p;
    return q;
}

size_t el_text_next_directive(const char *t, size_t n, size_t i, size_t *le)
{
    while (i < n) {
        size_t j = el_text_skip_lexeme(t, n, i);
        if (j != i) {
            i = j;
            continue;
        }
        if (el_text_directive_at(t, i)) {
            *le = el_text_line_end(t, n, i);
            return i;
        }
        i++;
    }
    *le = n;
    return n;
}

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

/* Past `(...)` from the '(' at t[i] (comments and literals inside
 * skipped), or n when it is not closed. */
static size_t past_parens(const char *t, size_t n, size_t i)
{
    int depth = 0;
    while (i < n) {
        size_t k = el_text_skip_lexeme(t, n, i);
        if (k > i) {
            i = k;
            continue;
        }
        if (t[i] == '(')
            depth++;
        else if (t[i] == ')' && --depth == 0)
            return i + 1;
        i++;
    }
    return n;
}

/* Is t[i..e) struct, union or enum? */
static bool tag_word(const char *t, size_t i, size_t e)
{
    return (e - i == 6 && memcmp(t + i, "struct", 6) == 0) ||
           (e - i == 5 && memcmp(t + i, "union", 5) == 0) ||
           (e - i == 4 && memcmp(t + i, "enum", 4) == 0);
}

void el_text_each_definition(const char *t, size_t n,
                             void (*fn)(const char *name, size_t len, el_text_def_kind kind,
                                        void *ud),
                             void *ud)
{
    size_t decl = 0; /* where the current declaration began */
    for (size_t i = 0; i < n;) {
        size_t k = el_text_skip_lexeme(t, n, i);
        if (k > i) {
            i = k;
            continue;
        }
        if (t[i] == '#' && el_text_directive_at(t, i)) {
            i = decl = el_text_line_end(t, n, i);
            continue;
        }
        if (t[i] == ';' || t[i] == '{' || t[i] == '}') {
            decl = ++i;
            continue;
        }
        size_t e;
        if (!el_text_ident_at(t, n, i, &e)) {
            i++;
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
        if (open < n && t[open] == '(' && !qualified && !statement_word(t + i, e - i)) {
            size_t after = el_text_skip_blanks(t, n, past_parens(t, n, open));
            while (after < n && el_text_ident_at(t, n, after, &k) && k - after == 13 &&
                   memcmp(t + after, "__attribute__", 13) == 0)
                after = el_text_skip_blanks(t, n, past_parens(t, n, el_text_skip_blanks(t, n, k)));
            if (after < n && t[after] == '{') {
                bool is_static = false;
                for (size_t j = decl, je; j < i && !is_static;) {
                    size_t jk = el_text_skip_lexeme(t, i, j);
                    if (jk > j) {
                        j = jk;
                    } else if (el_text_ident_at(t, i, j, &je)) {
                        is_static = je - j == 6 && memcmp(t + j, "static", 6) == 0;
                        j = je;
                    } else {
                        j++;
                    }
                }
                fn(t + i, e - i, is_static ? EL_TEXT_STATIC_FUNCTION : EL_TEXT_FUNCTION, ud);
            }
        }
        i = e;
    }
}
