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
#include "c_text.h"
#include "clang_util.h"
#include "config.h"
#include "mem.h"
#include "path.h"
#include "strmap.h"

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

size_t bb_line_end(const char *text, size_t size, size_t from)
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
        size_t end = bb_line_end(text, size, j);
        if (directive) {
            for (size_t k = j; k < end;) {
                if (el_text_ident_start(text[k]) && (k == 0 || !el_text_ident_char(text[k - 1]))) {
                    char name[256];
                    size_t l = 0;
                    while (k < end && el_text_ident_char(text[k])) {
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
    bool zero;              /* #if 0: its first arm is never compiled */
    const char *negated;    /* #ifndef X: X (defined after it, either way) */
    unsigned error_arms;    /* the arms that stop at #error: they define all */
    defined_name *names;
    size_t n, cap;
} frame;

typedef struct walk {
    const el_config *cfg;
    bb_derived *out;
    el_strmap *plain;       /* names defined outside a backend conditional */
    const char *file;       /* the file's name, for messages */
    frame *frames;
    size_t depth, cap;
} walk;

/* Does the frame define name n in every arm (it has an #else, and each
 * arm defines it or stops at #error)? */
static bool every_arm(const frame *f, const defined_name *e)
{
    unsigned all = f->arm + 1 >= MAX_ARMS ? ~0u : (1u << (f->arm + 1)) - 1;
    return f->has_else && ((e->arms | f->error_arms) & all) == all;
}

/* Is the code at the walk's place compiled in some build: in no arm of an
 * #if 0?  Does a backend conditional hold it? */
static bool dead_here(const walk *w)
{
    for (size_t k = 0; k < w->depth; k++)
        if (w->frames[k].zero && w->frames[k].arm == 0)
            return true;
    return false;
}

static bool under_backend(const walk *w)
{
    for (size_t k = 0; k < w->depth; k++)
        if (w->frames[k].backend)
            return true;
    return false;
}

static void add_name(frame *f, const char *name, unsigned line, unsigned arms)
{
    for (size_t i = 0; i < f->n; i++)
        if (strcmp(f->names[i].name, name) == 0) {
            f->names[i].arms |= arms;
            return;
        }
    el_grow(&f->names, &f->cap, f->n + 1, sizeof *f->names);
    defined_name *e = &f->names[f->n++];
    snprintf(e->name, sizeof e->name, "%s", name);
    e->line = line;
    e->arms = arms;
}

static void add_derived(walk *w, const frame *f, const defined_name *e)
{
    bool every = every_arm(f, e);
    bb_derived *d = w->out;
    for (size_t i = 0; i < d->n; i++)
        if (strcmp(d->v[i].name, e->name) == 0) {
            d->v[i].every_arm = d->v[i].every_arm && every;
            return;
        }
    if (el_config_is_backend_macro(w->cfg, e->name))
        return;
    el_grow(&d->v, &d->cap, d->n + 1, sizeof *d->v);
    bb_derived_macro *m = &d->v[d->n++];
    snprintf(m->name, sizeof m->name, "%s", e->name);
    snprintf(m->via, sizeof m->via, "%s", f->via);
    snprintf(m->file, sizeof m->file, "%s", w->file);
    m->line = e->line;
    m->every_arm = every;
}

/* The first identifier of directive x's condition naming a backend macro
 * or a macro derived from one, its backend macro into via[n]; false when
 * none does. */
static bool condition_names_backend(walk *w, bb_directive *x, char *via, size_t vn)
{
    const char *b = bb_directive_backend_word(x, w->cfg);
    if (b) {
        snprintf(via, vn, "%s", b);
        return true;
    }
    char id[128];
    for (const char *p = x->words; w->out->n && bb_next_word(&p, id, sizeof id);) {
        const bb_derived_macro *m = bb_derived_find(w->out, id);
        if (m) {
            snprintf(via, vn, "%s", m->via);
            return true;
        }
    }
    return false;
}

static void on_directive(walk *w, bb_directive *x)
{
    if (x->kind == BB_OPEN) {
        el_grow(&w->frames, &w->cap, w->depth + 1, sizeof *w->frames);
        frame *f = &w->frames[w->depth++];
        memset(f, 0, sizeof *f);
        f->backend = condition_names_backend(w, x, f->via, sizeof f->via);
        f->zero = x->zero;
        f->negated = x->negated ? x->words : NULL;
        return;
    }
    if (x->kind == BB_DEFINE && x->words[0] && !dead_here(w) && !under_backend(w))
        el_strmap_put(w->plain, x->words, (void *)1);
    if (w->depth == 0)
        return;
    frame *f = &w->frames[w->depth - 1];
    if (x->kind == BB_ELIF || x->kind == BB_ELSE) {
        if (f->arm + 1 < MAX_ARMS)
            f->arm++;
        if (x->kind == BB_ELSE)
            f->has_else = true;
        else if (!f->backend)
            f->backend = condition_names_backend(w, x, f->via, sizeof f->via);
    } else if (x->kind == BB_DEFINE && x->words[0] && !dead_here(w)) {
        add_name(f, x->words, x->line, 1u << f->arm);
    } else if (x->kind == BB_ERROR && f->arm < MAX_ARMS) {
        f->error_arms |= 1u << f->arm;
    } else if (x->kind == BB_ENDIF) {
        for (size_t k = 0; f->backend && k < f->n; k++)
            add_derived(w, f, &f->names[k]);
        /* #ifndef X / #define X: X is defined after it, whatever the
         * backend left (a default) */
        for (size_t k = 0; f->negated && k < f->n; k++)
            if (!strcmp(f->names[k].name, f->negated) && (f->names[k].arms & 1u))
                el_strmap_put(w->plain, f->negated, (void *)1);
        /* what it defines, the enclosing arm defines: in every case
         * only when each of its arms does */
        if (w->depth > 1) {
            frame *up = &w->frames[w->depth - 2];
            for (size_t k = 0; k < f->n; k++)
                add_name(up, f->names[k].name, f->names[k].line,
                         every_arm(f, &f->names[k]) ? 1u << up->arm : 0);
        }
        free(f->names);
        w->depth--;
    }
}

/* ---- the TU's files ---------------------------------------------------- */

/* The project's directory, real: that of the outermost .emberlint.json of
 * cfg's chain (the tool's directory without one), malloc'd or NULL. */
static char *project_dir(const el_config *cfg)
{
    const char *root = cfg->project_root ? cfg->project_root : cfg->root;
    return root ? el_path_real(root) : NULL;
}

/* Is path (real) in the project's directory?  System headers and other
 * libraries' are not read: asked before their text is, since most of a
 * TU's files are theirs. */
static bool in_project(const char *dir, const char *path)
{
    char *rel = path && dir ? el_path_under(path, dir) : NULL;
    bool in = rel != NULL;
    free(rel);
    return in;
}

void bb_derived_collect(el_ctx *ctx, bb_derived *out)
{
    const el_config *cfg = el_ctx_config(ctx);
    const CXFile *files = NULL;
    size_t n = el_tu_files(ctx, &files); /* in inclusion order */
    char *dir = project_dir(cfg);
    el_strmap plain = {0};
    for (size_t i = 0; i < n; i++) {
        const char *path = el_file_path(ctx, files[i]);
        if (el_file_class_of(ctx, files[i], NULL) == EL_FILE_EXTERNAL && !in_project(dir, path))
            continue;
        bb_directives *ds = bb_directives_of(ctx, files[i], path);
        walk w = {.cfg = cfg, .out = out, .plain = &plain, .file = path ? el_path_base(path) : ""};
        for (size_t k = 0; k < ds->n; k++)
            on_directive(&w, &ds->v[k]);
        for (size_t k = 0; k < w.depth; k++) /* an #if never closed */
            free(w.frames[k].names);
        free(w.frames);
        bb_directives_release(ds, path);
    }
    /* a name also defined where no backend decides (a default, the
     * top level): always defined, whatever the backend conditional does */
    for (size_t k = 0; k < out->n; k++)
        if (el_strmap_get(&plain, out->v[k].name))
            out->v[k].every_arm = true;
    el_strmap_free(&plain);
    free(dir);
}

void bb_derived_free(bb_derived *d)
{
    free(d->v);
    d->v = NULL;
    d->n = d->cap = 0;
}
