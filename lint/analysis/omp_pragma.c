/* lint/analysis/omp_pragma.c -- the names in `#pragma omp` lines
 * (omp_pragma.h). */
#include "omp_pragma.h"

#include <string.h>

static bool ident_start(char c) { return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
static bool ident_char(char c) { return ident_start(c) || (c >= '0' && c <= '9'); }

/* Blanks and backslash-newlines from i on. */
static size_t skip_blanks(const char *t, size_t n, size_t i)
{
    for (;;) {
        if (i < n && (t[i] == ' ' || t[i] == '\t'))
            i++;
        else if (i + 1 < n && t[i] == '\\' && t[i + 1] == '\n')
            i += 2;
        else if (i + 2 < n && t[i] == '\\' && t[i + 1] == '\r' && t[i + 2] == '\n')
            i += 3;
        else
            return i;
    }
}

/* Does the word w stand at i (not followed by an identifier character)? */
static bool word_at(const char *t, size_t n, size_t i, const char *w)
{
    size_t l = strlen(w);
    return i + l <= n && memcmp(t + i, w, l) == 0 && (i + l == n || !ident_char(t[i + l]));
}

/* The names of one pragma's clauses, from i to the end of its logical
 * line; the offset after it. */
static size_t scan_clauses(const char *t, size_t n, size_t i, el_omp_name_fn fn, void *ud,
                           bool *stop)
{
    while (i < n && t[i] != '\n') {
        char c = t[i];
        if (c == '\\' && i + 1 < n && (t[i + 1] == '\n' || t[i + 1] == '\r')) {
            i = skip_blanks(t, n, i);
        } else if (c == '/' && i + 1 < n && t[i + 1] == '/') {
            while (i < n && t[i] != '\n')
                i++;
        } else if (c == '/' && i + 1 < n && t[i + 1] == '*') {
            const char *end = strstr(t + i + 2, "*/"); /* (text is NUL-terminated) */
            i = end && (size_t)(end - t) < n ? (size_t)(end - t) + 2 : n;
        } else if (c == '"' || c == '\'') {
            for (i++; i < n && t[i] != c && t[i] != '\n'; i++)
                if (t[i] == '\\' && i + 1 < n)
                    i++;
            i++;
        } else if (ident_start(c)) {
            size_t b = i;
            while (i < n && ident_char(t[i]))
                i++;
            bool call = skip_blanks(t, n, i) < n && t[skip_blanks(t, n, i)] == '(';
            if (!*stop && !fn(t + b, i - b, (unsigned)b, call, ud))
                *stop = true;
        } else if (c >= '0' && c <= '9') {
            while (i < n && (ident_char(t[i]) || t[i] == '.'))
                i++;
        } else {
            i++;
        }
    }
    return i;
}

void el_omp_pragma_names(const char *text, size_t size, el_omp_name_fn fn, void *ud)
{
    bool stop = false;
    /* (most files have no OpenMP at all) */
    for (const char *p = text; !stop && (p = strstr(p, "omp")) && (size_t)(p - text) < size;
         p += 3) {
        size_t at = (size_t)(p - text), line = at;
        while (line > 0 && text[line - 1] != '\n')
            line--;
        size_t i = skip_blanks(text, size, line);
        if (i >= size || text[i] != '#')
            continue;
        i = skip_blanks(text, size, i + 1);
        if (!word_at(text, size, i, "pragma"))
            continue;
        i = skip_blanks(text, size, i + 6);
        if (i != at || !word_at(text, size, i, "omp"))
            continue;
        p = text + scan_clauses(text, size, i + 3, fn, ud, &stop) - 3;
    }
}
