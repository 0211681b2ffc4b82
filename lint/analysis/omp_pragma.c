/* lint/analysis/omp_pragma.c -- the names in `#pragma omp` lines
 * (omp_pragma.h). */
#include "omp_pragma.h"

#include <stdlib.h>
#include <string.h>

static bool ident_start(char c) { return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
static bool ident_char(char c) { return ident_start(c) || (c >= '0' && c <= '9'); }

/* The offset of w in t[from, n), or n (the text may hold NUL bytes and
 * need not end in one). */
static size_t find(const char *t, size_t n, size_t from, const char *w)
{
    size_t l = strlen(w);
    for (size_t i = from; i + l <= n; i++)
        if (t[i] == w[0] && memcmp(t + i, w, l) == 0)
            return i;
    return n;
}

/* The offset of the next '#' from `from` on, or n. */
static size_t next_hash(const char *t, size_t n, size_t from)
{
    const char *p = from < n ? memchr(t + from, '#', n - from) : NULL;
    return p ? (size_t)(p - t) : n;
}

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

/* What el_omp_backend_names is after, and for whom. */
typedef struct scan {
    const el_config *cfg;
    el_omp_name_fn fn;
    void *ud;
    bool stop;
} scan;

/* A name of a clause: passed on when it is a backend's. */
static void clause_name(scan *sc, const char *name, size_t len, size_t offset, bool call)
{
    char buf[256];
    if (sc->stop || len >= sizeof buf)
        return;
    memcpy(buf, name, len);
    buf[len] = '\0';
    if (el_backend_prefix_of(sc->cfg, buf, true) && !sc->fn(buf, (unsigned)offset, call, sc->ud))
        sc->stop = true;
}

/* The names of one pragma's clauses, from i to the end of its logical
 * line; the offset after it. */
static size_t scan_clauses(const char *t, size_t n, size_t i, scan *sc)
{
    while (i < n && t[i] != '\n') {
        char c = t[i];
        if (c == '\\' && i + 1 < n && (t[i + 1] == '\n' || t[i + 1] == '\r')) {
            i = skip_blanks(t, n, i);
        } else if (c == '/' && i + 1 < n && t[i + 1] == '/') {
            while (i < n && t[i] != '\n')
                i++;
        } else if (c == '/' && i + 1 < n && t[i + 1] == '*') {
            size_t end = find(t, n, i + 2, "*/");
            i = end < n ? end + 2 : n;
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
            clause_name(sc, t + b, i - b, b, call);
        } else if (c >= '0' && c <= '9') {
            while (i < n && (ident_char(t[i]) || t[i] == '.'))
                i++;
        } else {
            i++;
        }
    }
    return i;
}

/* Is offset off of the file in a range the preprocessor skipped?  The
 * ranges are read at the first pragma (*n == -1: not yet). */
static bool skipped(CXTranslationUnit tu, CXFile file, unsigned (**v)[2], long *n, size_t off)
{
    if (*n < 0) {
        CXSourceRangeList *l = clang_getSkippedRanges(tu, file);
        *n = 0;
        *v = l && l->count ? calloc(l->count, sizeof **v) : NULL;
        for (unsigned r = 0; *v && r < l->count; r++, (*n)++) {
            clang_getSpellingLocation(clang_getRangeStart(l->ranges[r]), NULL, NULL, NULL,
                                      &(*v)[r][0]);
            clang_getSpellingLocation(clang_getRangeEnd(l->ranges[r]), NULL, NULL, NULL,
                                      &(*v)[r][1]);
        }
        if (l)
            clang_disposeSourceRangeList(l);
    }
    for (long r = 0; r < *n; r++)
        if ((*v)[r][0] <= off && off < (*v)[r][1])
            return true;
    return false;
}

void el_omp_backend_names(el_ctx *ctx, CXFile file, el_omp_name_fn fn, void *ud)
{
    size_t size = 0;
    const char *text = el_file_text(ctx, file, &size);
    if (!text)
        return;
    CXTranslationUnit tu = el_tu(ctx);
    scan sc = {el_ctx_config(ctx), fn, ud, false};
    unsigned (*ranges)[2] = NULL;
    long n_ranges = -1;
    /* From each '#' (memchr: most files have no OpenMP at all, and a
     * byte-by-byte search for "omp" was 0.5% of a cold run): the first
     * thing on its line, then pragma and omp on the same line. */
    for (size_t h = next_hash(text, size, 0); !sc.stop && h < size; h = next_hash(text, size, h + 1)) {
        size_t line = h;
        while (line > 0 && text[line - 1] != '\n')
            line--;
        size_t i = skip_blanks(text, size, h + 1);
        if (skip_blanks(text, size, line) != h || !word_at(text, size, i, "pragma")) {
            /* no later '#' of this physical line is a directive's (the
             * walk back above stays linear on a line of many '#') */
            const char *nl = memchr(text + h, '\n', size - h);
            h = nl ? (size_t)(nl - text) : size;
            continue;
        }
        i = skip_blanks(text, size, i + 6);
        if (!word_at(text, size, i, "omp") || memchr(text + h, '\n', i - h) ||
            skipped(tu, file, &ranges, &n_ranges, h))
            continue;
        h = scan_clauses(text, size, i + 3, &sc) - 1;
    }
    free(ranges);
}
