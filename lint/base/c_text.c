/* lint/base/c_text.c -- reading C source text where there is no parse
 * (c_text.h). */
#include "c_text.h"

#include "c_lexeme.h"

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

bool el_text_operator_word(const char *t, size_t w, size_t e)
{
    static const char *const ops[] = {"return", "case", "sizeof", "else", "do", "goto", "if",
                                      "while", "for", "switch", "_Alignof", "alignof",
                                      "__attribute__", "__declspec", "defined", NULL};
    for (size_t k = 0; ops[k]; k++)
        if (e - w == strlen(ops[k]) && !strncmp(t + w, ops[k], e - w))
            return true;
    return false;
}

/* Does the line holding t[q] (not before t[b]) start with '#': is q on a
 * directive's line? */
static bool on_directive_line(const char *t, size_t b, size_t q)
{
    size_t line = q;
    while (line > b && t[line - 1] != '\n')
        line--;
    while (line < q && (t[line] == ' ' || t[line] == '\t'))
        line++;
    return t[line] == '#';
}

/* The word ending at t[e] (after blanks), its start in *w; false when
 * the text before is no identifier. */
static bool word_before(const char *t, size_t b, size_t e, size_t *w, size_t *we)
{
    while (e > b && strchr(" \t\r\n", t[e - 1]))
        e--;
    size_t q = e;
    while (q > b && el_text_ident_char(t[q - 1]))
        q--;
    *w = q;
    *we = e;
    /* a directive's word (`#ifdef USE_CBLAS` before a call) is no type */
    return q < e && el_text_ident_start(t[q]) && !on_directive_line(t, b, q);
}

/* (c_text.h) A function's prototype, `float cblas_sdot(...)`, or a
 * variable's declarator, `fftw_plan p;`. */
bool el_text_declared_at(const char *t, size_t b, size_t i)
{
    size_t q = i;
    bool star = false;
    for (;;) {
        while (q > b && strchr(" \t\r\n", t[q - 1]))
            q--;
        if (q > b && t[q - 1] == '*') {
            star = true;
            q--;
            continue;
        }
        break;
    }
    size_t w, we;
    if (!word_before(t, b, q, &w, &we) || el_text_operator_word(t, w, we))
        return false;
    if (!star)
        return true;
    /* `n * f(x)` multiplies: before the word, a statement starts or
     * another type word stands (`static float *f(`) */
    size_t p = w;
    while (p > b && strchr(" \t\r\n", t[p - 1]))
        p--;
    if (p == b || strchr(";{}", t[p - 1]))
        return true;
    /* a directive's line before it (`#ifdef WITH_FFTW`, then `fftw_complex
     * *out;`): the statement starts after it */
    if (on_directive_line(t, b, p))
        return true;
    size_t w2, we2;
    return word_before(t, b, p, &w2, &we2) && !el_text_operator_word(t, w2, we2);
}

/* Past the newline that ends the unclosed quote at t[q] (escapes, a
 * spliced line among them, passed over), or n: a compiler reads on
 * after the error there. */
static size_t past_open_quote(const char *t, size_t n, size_t q)
{
    size_t i = q + 1;
    while (i < n && t[i] != '\n')
        i += t[i] == '\\' ? 2 : 1;
    return i < n ? i + 1 : n;
}

/* Can a comment, literal or number start at t[i]?  Most characters the
 * callers step through one by one are not one: answered without reading
 * on (an identifier's letters would each be read to its end). */
static bool may_start_lexeme(const char *t, size_t n, size_t i)
{
    char c = t[i];
    if (c == '/' || c == '"' || c == '\'' || c == '.')
        return true;
    /* inside an identifier (a caller stepping one character at a time):
     * its digits are no number, its letters no literal's prefix */
    if (i > 0 && el_text_ident_char(t[i - 1]))
        return false;
    if (c >= '0' && c <= '9')
        return true;
    if (c != 'L' && c != 'u' && c != 'U' && c != 'R')
        return false;
    /* an encoding prefix (L u U u8, R after one): a quote within 3 */
    for (size_t k = i + 1; k < n && k <= i + 3; k++) {
        if (t[k] == '"' || t[k] == '\'')
            return true;
        if (t[k] != '8' && t[k] != 'R')
            return false;
    }
    return false;
}

size_t el_text_skip_lexeme(const char *t, size_t n, size_t i)
{
    if (!may_start_lexeme(t, n, i))
        return i;
    size_t end = i;
    switch (el_lexeme_at(t, n, i, &end)) {
    case EL_LX_COMMENT:
        return end < n ? end : n;
    case EL_LX_NUMBER: /* (1'000: its quote starts no literal) */
        return end;
    case EL_LX_LITERAL:
        if (end <= n)
            return end;
        {
            size_t q = i;
            while (t[q] != '"' && t[q] != '\'')
                q++;
            return q > i && t[q - 1] == 'R' ? n : past_open_quote(t, n, q);
        }
    default:
        return i;
    }
}

size_t el_text_skip_blanks(const char *t, size_t n, size_t i)
{
    for (;;) {
        while (i < n && strchr(" \t\r\n\f\v", t[i]))
            i++;
        if (i >= n || t[i] != '/')
            return i;
        size_t j = el_text_skip_lexeme(t, n, i); /* a comment */
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
