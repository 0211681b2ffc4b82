/* lint/rules/backend_branch/derived.c -- the macros a translation unit
 * defines under a preprocessor conditional on a backend macro: a config
 * header that says `#if defined(HAVE_FFTW3_H)` / `#define USE_FFTW 1` /
 * `#else` / `#define USE_FFTW 0` makes USE_FFTW the backend choice under
 * another name, so frontend code testing it (`#if USE_FFTW`) branches on
 * the backend as surely as `#ifdef HAVE_FFTW3_H` would.  Read from the
 * text of every file of the TU but system headers, in inclusion order, so
 * a macro derived from a derived macro counts too.  A macro every arm of
 * its conditional defines (there is an #else) is always defined: testing
 * it with defined() is no branch, testing its value is. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "branch.h"
#include "clang_util.h"

static bool ident_start(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool ident_char(char c)
{
    return ident_start(c) || (c >= '0' && c <= '9');
}

const bb_derived_macro *bb_derived_find(const bb_derived *d, const char *name)
{
    for (size_t i = 0; d && i < d->n; i++)
        if (strcmp(d->v[i].name, name) == 0)
            return &d->v[i];
    return NULL;
}

bool bb_names_backend_macro(const el_config *cfg, const bb_derived *d, const char *name)
{
    return el_config_is_backend_macro(cfg, name) || bb_derived_find(d, name) != NULL;
}

/* The end of the logical line holding text[from]: the first newline at or
 * after `from` not escaped by a backslash (memchr: this runs over every
 * file of every TU). */
static size_t line_end_from(const char *text, size_t size, size_t from)
{
    size_t e = from;
    while (e < size) {
        const char *nl = memchr(text + e, '\n', size - e);
        if (!nl)
            return size;
        e = (size_t)(nl - text);
        if (e == 0 || text[e - 1] != '\\')
            return e;
        e++;
    }
    return e;
}

bool bb_text_has_conditional(const el_config *cfg, const bb_derived *d, const char *text,
                             size_t size)
{
    size_t i = 0;
    while (i < size) {
        size_t j = i;
        while (j < size && (text[j] == ' ' || text[j] == '\t'))
            j++;
        bool directive = j < size && text[j] == '#';
        if (directive) {
            j++;
            while (j < size && (text[j] == ' ' || text[j] == '\t'))
                j++;
            directive = (size - j >= 2 && strncmp(text + j, "if", 2) == 0) ||
                        (size - j >= 4 && strncmp(text + j, "elif", 4) == 0);
        }
        size_t end = line_end_from(text, size, j);
        if (directive) {
            for (size_t k = j; k < end;) {
                if (ident_start(text[k]) && (k == 0 || !ident_char(text[k - 1]))) {
                    char name[256];
                    size_t l = 0;
                    while (k < end && ident_char(text[k])) {
                        if (l + 1 < sizeof name)
                            name[l++] = text[k];
                        k++;
                    }
                    name[l] = '\0';
                    if (bb_names_backend_macro(cfg, d, name))
                        return true;
                } else {
                    k++;
                }
            }
        }
        i = end + 1;
    }
    return false;
}

/* ---- the walk over one file's directives ------------------------------ */

#define MAX_ARMS 32

typedef struct defined_name {
    char name[128];
    unsigned line;
    unsigned arms;          /* bit a: defined in arm a of the conditional */
} defined_name;

/* One open conditional (#if ... #endif). */
typedef struct frame {
    bool backend;           /* some condition of it names a backend macro */
    char via[128];          /* the first backend macro it names */
    unsigned arm;           /* the current arm, 0-based */
    bool has_else;
    defined_name *names;
    size_t n, cap;
} frame;

typedef struct walk {
    const el_config *cfg;
    bb_derived *out;
    const char *file;       /* the file's name, for messages */
    frame *frames;
    size_t depth, cap;
} walk;

static void add_name(frame *f, const char *name, unsigned line, unsigned arms)
{
    for (size_t i = 0; i < f->n; i++)
        if (strcmp(f->names[i].name, name) == 0) {
            f->names[i].arms |= arms;
            return;
        }
    if (f->n == f->cap) {
        size_t cap = f->cap ? 2 * f->cap : 8;
        defined_name *v = realloc(f->names, cap * sizeof *v);
        if (!v)
            return;
        f->names = v;
        f->cap = cap;
    }
    defined_name *e = &f->names[f->n++];
    snprintf(e->name, sizeof e->name, "%s", name);
    e->line = line;
    e->arms = arms;
}

static void add_derived(walk *w, const frame *f, const defined_name *e)
{
    unsigned all = f->arm + 1 >= MAX_ARMS ? ~0u : (1u << (f->arm + 1)) - 1;
    bool every = f->has_else && (e->arms & all) == all;
    bb_derived *d = w->out;
    for (size_t i = 0; i < d->n; i++)
        if (strcmp(d->v[i].name, e->name) == 0) {
            d->v[i].every_arm = d->v[i].every_arm && every;
            return;
        }
    if (el_config_is_backend_macro(w->cfg, e->name))
        return;
    if (d->n == d->cap) {
        size_t cap = d->cap ? 2 * d->cap : 8;
        bb_derived_macro *v = realloc(d->v, cap * sizeof *v);
        if (!v)
            return;
        d->v = v;
        d->cap = cap;
    }
    bb_derived_macro *m = &d->v[d->n++];
    snprintf(m->name, sizeof m->name, "%s", e->name);
    snprintf(m->via, sizeof m->via, "%s", f->via);
    snprintf(m->file, sizeof m->file, "%s", w->file);
    m->line = e->line;
    m->every_arm = every;
}

/* The first identifier of the condition naming a backend macro, into
 * via[n]; false when none does. */
static bool condition_names_backend(walk *w, CXTranslationUnit tu, const CXToken *toks,
                                    unsigned n, char *via, size_t vn)
{
    for (unsigned k = 0; k < n; k++) {
        if (clang_getTokenKind(toks[k]) != CXToken_Identifier)
            continue;
        char id[128];
        elc_string(clang_getTokenSpelling(tu, toks[k]), id, sizeof id);
        if (strcmp(id, "defined") == 0 || !bb_names_backend_macro(w->cfg, w->out, id))
            continue;
        const bb_derived_macro *m = bb_derived_find(w->out, id);
        snprintf(via, vn, "%s", m ? m->via : id);
        return true;
    }
    return false;
}

static bool on_directive(void *ud, CXTranslationUnit tu, const char *name, const CXToken *toks,
                         unsigned n, unsigned line)
{
    walk *w = ud;
    bool opens = strcmp(name, "if") == 0 || strcmp(name, "ifdef") == 0 ||
                 strcmp(name, "ifndef") == 0;
    if (opens) {
        if (w->depth == w->cap) {
            size_t cap = w->cap ? 2 * w->cap : 8;
            frame *v = realloc(w->frames, cap * sizeof *v);
            if (!v)
                return false;
            w->frames = v;
            w->cap = cap;
        }
        frame *f = &w->frames[w->depth++];
        memset(f, 0, sizeof *f);
        f->backend = condition_names_backend(w, tu, toks, n, f->via, sizeof f->via);
        return true;
    }
    if (w->depth == 0)
        return true;
    frame *f = &w->frames[w->depth - 1];
    if (strncmp(name, "elif", 4) == 0 || strcmp(name, "else") == 0) {
        if (f->arm + 1 < MAX_ARMS)
            f->arm++;
        if (strcmp(name, "else") == 0)
            f->has_else = true;
        else if (!f->backend)
            f->backend = condition_names_backend(w, tu, toks, n, f->via, sizeof f->via);
    } else if (strcmp(name, "define") == 0 && n > 0 &&
               clang_getTokenKind(toks[0]) == CXToken_Identifier) {
        char id[128];
        elc_string(clang_getTokenSpelling(tu, toks[0]), id, sizeof id);
        add_name(f, id, line, 1u << f->arm);
    } else if (strcmp(name, "endif") == 0) {
        for (size_t i = 0; f->backend && i < f->n; i++)
            add_derived(w, f, &f->names[i]);
        /* what it defines, the enclosing arm defines (conservatively: in
         * that arm, whichever of this conditional's arms is taken) */
        if (w->depth > 1) {
            frame *up = &w->frames[w->depth - 2];
            for (size_t i = 0; i < f->n; i++)
                add_name(up, f->names[i].name, f->names[i].line, 1u << up->arm);
        }
        free(f->names);
        w->depth--;
    }
    return true;
}

/* ---- the TU's files ---------------------------------------------------- */

typedef struct files {
    CXFile *v;
    size_t n, cap;
} files;

static void on_inclusion(CXFile f, CXSourceLocation *stack, unsigned len, CXClientData ud)
{
    (void)stack;
    (void)len;
    files *fs = ud;
    for (size_t i = 0; i < fs->n; i++)
        if (clang_File_isEqual(fs->v[i], f))
            return;
    if (fs->n == fs->cap) {
        size_t cap = fs->cap ? 2 * fs->cap : 32;
        CXFile *v = realloc(fs->v, cap * sizeof *v);
        if (!v)
            return;
        fs->v = v;
        fs->cap = cap;
    }
    fs->v[fs->n++] = f;
}

void bb_derived_collect(el_ctx *ctx, bb_derived *out)
{
    CXTranslationUnit tu = el_tu(ctx);
    const el_config *cfg = el_ctx_config(ctx);
    files fs = {0};
    clang_getInclusions(tu, on_inclusion, &fs);
    for (size_t i = 0; i < fs.n; i++) {
        size_t size = 0;
        const char *text = clang_getFileContents(tu, fs.v[i], &size);
        if (!text || !bb_text_has_conditional(cfg, out, text, size) ||
            clang_Location_isInSystemHeader(clang_getLocationForOffset(tu, fs.v[i], 0)))
            continue;
        walk w = {.cfg = cfg, .out = out};
        CXString path = clang_getFileName(fs.v[i]);
        const char *p = clang_getCString(path);
        const char *slash = p ? strrchr(p, '/') : NULL;
        w.file = slash ? slash + 1 : p ? p : "";
        elc_each_directive(tu, fs.v[i], on_directive, &w);
        for (size_t k = 0; k < w.depth; k++) /* an #if never closed */
            free(w.frames[k].names);
        free(w.frames);
        clang_disposeString(path);
    }
    free(fs.v);
}

void bb_derived_free(bb_derived *d)
{
    free(d->v);
    d->v = NULL;
    d->n = d->cap = 0;
}
