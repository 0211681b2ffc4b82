/* lint/change/skipped_include.c -- whether an #include must stay for
 * the code its file's preprocessor skipped (skipped_include.h). */
#include "skipped_include.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c_text.h"
#include "fileio.h"
#include "include_line.h"
#include "mem.h"
#include "path.h"
#include "strmap.h"

/* The header texts read at most (a header including the tree). */
#define MAX_HEADERS 64
/* Parentheses nested deeper are all read as declaring. */
#define MAX_DEPTH 64

/* Does the '{' at t[i] open a body whose names declare nothing outside it:
 * a struct's or union's members (`struct layer { int c; }`), a function's
 * body (after ')'), an initializer (after '=')?  An enum's constants and
 * an `extern "C" {` block's names do declare. */
static bool private_body(const char *t, size_t i)
{
    size_t q = el_text_back_blanks(t, 0, i);
    if (q > 0 && (t[q - 1] == ')' || t[q - 1] == '='))
        return true;
    for (int words = 0; words < 2 && q > 0 && el_text_ident_char(t[q - 1]); words++) {
        size_t w = q;
        while (w > 0 && el_text_ident_char(t[w - 1]))
            w--;
        if ((q - w == 6 && (!strncmp(t + w, "struct", 6))) || (q - w == 5 && !strncmp(t + w, "union", 5)))
            return true;
        q = el_text_back_blanks(t, 0, w);
    }
    return false;
}

/* Is the '(' at t[i] a declarator's parameter list (`float *f(int n)`,
 * `void CUDARTAPI f(int n)`, `#define F(a, b)`)?  The word before it
 * follows a word that is no operator word, or a '*'.  A macro used at
 * file scope (`DECLARE(dev_free);`) or `int (*fp)(int)`'s first group
 * is not one: names in them count as declared. */
static bool parameter_list(const char *t, size_t i)
{
    size_t q = el_text_back_blanks(t, 0, i), w = q;
    while (w > 0 && el_text_ident_char(t[w - 1]))
        w--;
    if (w == q || !el_text_ident_start(t[w]))
        return false;
    size_t p = el_text_back_blanks(t, 0, w);
    if (p > 0 && t[p - 1] == '*')
        return true;
    size_t v = p;
    while (v > 0 && el_text_ident_char(t[v - 1]))
        v--;
    return v < p && el_text_ident_start(t[v]) && !el_text_operator_word(t, v, p);
}

typedef struct reading {
    el_strmap seen;           /* headers read (real paths) */
    size_t n;
    el_strmap words;          /* the names they declare */
    const char *const *files; /* the tree's files: where an include not found
                               * beside its includer may be (-I) */
    size_t n_files;
} reading;

static void read_header(reading *r, const char *path);

/* The files an #include spelled so may name, from t's directory: the one
 * beside it when it is quoted and there, else each file of the tree whose
 * path ends so (a -I directory's; a wrong one only adds names: the
 * include stays). */
static void read_included(reading *r, const char *path, const char *spelled, size_t sl,
                          bool angled)
{
    char *rel = el_xstrndup(spelled, sl);
    if (!angled) {
        char *dir = el_path_dirname(path);
        char *j = el_path_join(dir, rel);
        char *real = realpath(j, NULL);
        if (real)
            read_header(r, real);
        free(j);
        free(dir);
        if (real) {
            free(real);
            free(rel);
            return;
        }
    }
    for (size_t k = 0; k < r->n_files; k++) {
        size_t fl = strlen(r->files[k]);
        if (fl > sl && r->files[k][fl - sl - 1] == '/' && !strcmp(r->files[k] + fl - sl, rel))
            read_header(r, r->files[k]);
    }
    free(rel);
}


/* The names the text t[0..n) of file `path` declares into r->words, and
 * those of the files its quoted includes name. */
static void names_in(reading *r, const char *path, const char *t, size_t n)
{
    bool params[MAX_DEPTH] = {false}, bodies[MAX_DEPTH] = {false};
    int depth = 0, in_params = 0, braces = 0, in_body = 0;
    for (size_t i = 0, e = 0; i < n;) {
        if (t[i] == '#' && el_text_directive_at(t, i)) {
            size_t le = el_text_line_end(t, n, i);
            bool angled = false;
            const char *spelled;
            size_t sl;
            if (el_include_line(t + i, le - i, &angled, &spelled, &sl)) {
                if (sl)
                    read_included(r, path, spelled, sl, angled);
                i = le;
                continue;
            }
            i++; /* #define NAME ...: its words are read as code */
            continue;
        }
        size_t past = el_text_skip_lexeme(t, n, i);
        if (past != i) {
            i = past;
        } else if (el_text_ident_at(t, n, i, &e)) {
            char w[256];
            if (!in_params && !in_body && e - i < sizeof w) {
                snprintf(w, sizeof w, "%.*s", (int)(e - i), t + i);
                el_strmap_put(&r->words, w, (void *)1);
            }
            i = e;
        } else if (t[i] == '{') {
            bool b = private_body(t, i);
            if (braces < MAX_DEPTH)
                bodies[braces] = b;
            braces++;
            in_body += b;
            i++;
        } else if (t[i] == '}') {
            if (braces > 0) {
                braces--;
                if (braces < MAX_DEPTH && bodies[braces])
                    in_body--;
            }
            i++;
        } else if (t[i] == '(') {
            bool p = parameter_list(t, i);
            if (depth < MAX_DEPTH)
                params[depth] = p;
            depth++;
            in_params += p;
            i++;
        } else if (t[i] == ')' || (t[i] == '\n' && depth > 0 && i + 1 < n && t[i + 1] == '#')) {
            /* (a directive line ends what an unclosed '(' opened) */
            if (depth > 0) {
                depth--;
                if (depth < MAX_DEPTH && params[depth])
                    in_params--;
            }
            i++;
        } else {
            i++;
        }
    }
}

static void read_header(reading *r, const char *path)
{
    char *real = realpath(path, NULL);
    if (!real || el_strmap_get(&r->seen, real) || r->n >= MAX_HEADERS) {
        free(real);
        return;
    }
    el_strmap_put(&r->seen, real, (void *)1);
    r->n++;
    char *data = NULL;
    size_t len = 0;
    if (el_read_file(real, &data, &len, NULL, NULL) == 0)
        names_in(r, real, data, len);
    free(data);
    free(real);
}

bool el_header_text_declares(const char *header, const char *name, const char *const *files,
                             size_t n_files, const char *user)
{
    reading r = {{0}, 0, {0}, files, n_files};
    if (user)
        el_strmap_put(&r.seen, user, (void *)1);
    read_header(&r, header);
    bool hit = el_strmap_get(&r.words, name) != NULL;
    el_strmap_free(&r.seen);
    el_strmap_free(&r.words);
    return hit;
}

char *el_skipped_include_needed(const el_inactive *in, const char *path, const char *header,
                                const char *const *files, size_t n_files,
                                bool (*rewritten)(void *ud, const el_inactive_name *x),
                                void *ud)
{
    if (!in || !path || !header)
        return NULL;
    reading r = {{0}, 0, {0}, files, n_files};
    bool read = false;
    char *why = NULL;
    for (size_t i = 0; i < in->n_names && !why; i++) {
        const el_inactive_name *x = &in->names[i];
        if (strcmp(x->path, path) || el_inactive_compiled(in, path, x->off) ||
            (rewritten && rewritten(ud, x)))
            continue;
        if (!read) {
            el_strmap_put(&r.seen, path, (void *)1); /* (the use's own text declares nothing) */
            read_header(&r, header);
        }
        read = true;
        if (!el_strmap_get(&r.words, x->name))
            continue;
        const char *base = strrchr(header, '/');
        why = el_xasprintf("line %u uses %s, which %s declares (in code it may skip too)",
                           x->line, x->name, base ? base + 1 : header);
    }
    el_strmap_free(&r.seen);
    el_strmap_free(&r.words);
    return why;
}

char *el_skipped_include_header(const char *file, unsigned line)
{
    char *data = NULL;
    size_t len = 0;
    if (!file || el_read_file(file, &data, &len, NULL, NULL) != 0)
        return NULL;
    size_t i = 0;
    for (unsigned l = 1; l < line && i < len; i++)
        if (data[i] == '\n')
            l++;
    size_t le = i;
    while (le < len && data[le] != '\n')
        le++;
    bool angled = false;
    const char *spelled;
    size_t sl;
    char *real = NULL;
    if (i < len && el_include_line(data + i, le - i, &angled, &spelled, &sl) && sl && !angled) {
        char *dir = el_path_dirname(file), *rel = el_xstrndup(spelled, sl);
        char *j = el_path_join(dir, rel);
        real = realpath(j, NULL);
        free(j);
        free(rel);
        free(dir);
    }
    free(data);
    return real;
}
