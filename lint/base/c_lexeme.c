/* lint/base/c_lexeme.c -- see c_lexeme.h. */
#include "c_lexeme.h"

#include <stdbool.h>
#include <string.h>

static bool ident_start(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
           (unsigned char)c >= 0x80;
}

static bool ident_char(char c)
{
    return ident_start(c) || (c >= '0' && c <= '9');
}

static bool digit(char c)
{
    return c >= '0' && c <= '9';
}

/* Past the quoted literal whose quote is at t[i]; n + 1 when it does not
 * close on its line. */
static size_t quoted_end(const char *t, size_t n, size_t i)
{
    char q = t[i];
    for (i++; i < n && t[i] != q && t[i] != '\n'; i++)
        if (t[i] == '\\' && i + 1 < n)
            i++;
    return i < n && t[i] == q ? i + 1 : n + 1;
}

/* Past the raw string whose '"' is at t[i] (R"delim( ... )delim"); 0 when
 * what follows is no raw string's opening (in C, R"x" is a name and a
 * literal), n + 1 when it does not close. */
static size_t raw_end(const char *t, size_t n, size_t i)
{
    size_t d = i + 1, open = d;
    while (open < n && open - d <= 16 && t[open] != '(' && !strchr(" ()\\\t\v\f\r\n\"", t[open]))
        open++;
    if (open >= n || t[open] != '(' || open - d > 16)
        return 0;
    size_t dl = open - d;
    for (size_t j = open + 1; j + dl + 1 < n; j++)
        if (t[j] == ')' && memcmp(t + j + 1, t + d, dl) == 0 && t[j + 1 + dl] == '"')
            return j + dl + 2;
    return n + 1;
}

el_lexeme el_lexeme_at(const char *t, size_t n, size_t i, size_t *end)
{
    char c = t[i];
    size_t j = i + 1;
    if (c == '/' && j < n && t[j] == '*') {
        for (j++; j + 1 < n && !(t[j] == '*' && t[j + 1] == '/'); j++)
            ;
        *end = j + 1 < n ? j + 2 : n + 1;
        return EL_LX_COMMENT;
    }
    if (c == '/' && j < n && t[j] == '/') {
        while (j < n && t[j] != '\n')
            j += t[j] == '\\' && j + 1 < n && t[j + 1] == '\n' ? 2 : 1; /* a continued line */
        *end = j;
        return EL_LX_COMMENT;
    }
    if (c == '"' || c == '\'') {
        *end = quoted_end(t, n, i);
        return EL_LX_LITERAL;
    }
    if (digit(c) || (c == '.' && j < n && digit(t[j]))) {
        while (j < n && (ident_char(t[j]) || t[j] == '.' ||
                         ((t[j] == '+' || t[j] == '-') && strchr("eEpP", t[j - 1])) ||
                         (t[j] == '\'' && j + 1 < n && ident_char(t[j + 1]))))
            j += t[j] == '\'' ? 2 : 1;
        *end = j;
        return EL_LX_NUMBER;
    }
    if (ident_start(c)) {
        while (j < n && ident_char(t[j]))
            j++;
        *end = j;
        /* an encoding prefix (L, u, U, u8), R for a raw string after it */
        size_t l = j - i;
        bool raw = l >= 1 && t[j - 1] == 'R';
        size_t pl = raw ? l - 1 : l;
        bool prefix = pl == 0 || (pl == 1 && strchr("LuU", t[i])) ||
                      (pl == 2 && t[i] == 'u' && t[i + 1] == '8');
        if (j < n && prefix && t[j] == '"' && raw) {
            size_t e = raw_end(t, n, j);
            if (e) {
                *end = e;
                return EL_LX_LITERAL;
            }
        } else if (j < n && prefix && !raw && pl > 0 && (t[j] == '"' || t[j] == '\'')) {
            *end = quoted_end(t, n, j);
            return EL_LX_LITERAL;
        }
        return EL_LX_IDENT;
    }
    *end = j;
    return EL_LX_OTHER;
}
