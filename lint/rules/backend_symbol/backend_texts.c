/* lint/rules/backend_symbol/backend_texts.c -- the functions and types
 * backends define, from their files' text (backend_texts.h). */
#include "backend_texts.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "text_definitions.h"
#include "mem.h"
#include "path.h"
#include "realpath_cache.h"
#include "strbuf.h"
#include "strmap.h"

#define MAX_DEPTH 32
#define MAX_FILE (8u << 20) /* a larger file is generated, not a backend's code */
#define SEVERAL ((void *)1) /* defined by two backends or more */

typedef struct backend_dir {
    char *name, *dir;
    const el_config *cfg;     /* whose backend_dirs or backend_files found it */
    bool flat;                /* its files only, not its subdirectories (backend_files) */
} backend_dir;

struct bs_backend_texts {
    backend_dir *dirs;
    size_t n_dirs, cap_dirs;
    el_strmap seen_dirs;
    el_strmap seen_configs;
    el_strmap parsed;         /* real paths of the files the run parses: not read */
    bool read;
    el_strmap functions;      /* name -> its backend's name (in dirs), or SEVERAL */
    el_strmap tags;           /* struct, union and enum tags, the same way */
    char **own;               /* the run's parsed files that are not a backend's */
    size_t n_own, cap_own;
    bool own_read;
    el_strmap own_functions;  /* the functions their text defines, in any #if arm */
};

bs_backend_texts *bs_backend_texts_new(void)
{
    return el_xcalloc(1, sizeof(bs_backend_texts));
}

typedef struct adding {
    bs_backend_texts *t;
    const el_config *cfg;
} adding;

static void add_dir_as(adding *a, const char *name, const char *dir, bool flat)
{
    /* per backend: several backends' files may share a directory (darknet's
     * src/), and each reads only its own there (read_file_of) */
    char *key = el_xasprintf("%s\t%s%s", name, flat ? "flat:" : "", dir);
    bool seen = el_strmap_get(&a->t->seen_dirs, key) != NULL;
    if (!seen)
        el_strmap_put(&a->t->seen_dirs, key, (void *)1);
    free(key);
    if (seen)
        return;
    el_grow(&a->t->dirs, &a->t->cap_dirs, a->t->n_dirs + 1, sizeof *a->t->dirs);
    a->t->dirs[a->t->n_dirs++] = (backend_dir){el_xstrdup(name), el_xstrdup(dir), a->cfg, flat};
}

static void add_dir(const char *name, const char *dir, void *ud)
{
    add_dir_as(ud, name, dir, false);
}

/* The directories backend_files patterns name files in: for an anchored
 * pattern (/src/ then *_kernels.cu, or /gpu/), the directory its components
 * name before the first with a wildcard, read for its own files when the
 * rest is one file name (not **), else with its subdirectories.  (A pattern
 * without a leading '/' matches anywhere below: not read; a file it
 * names the run does not parse is not known.)  Which files are the
 * backend's the configuration still decides (read_file_of). */
static void add_backend_files(adding *a, const el_config *c)
{
    const el_strlist *l = &c->backend_files;
    for (size_t i = 0; i < l->n; i++) {
        const char *colon = strchr(l->v[i], ':');
        if (!colon || colon[1] != '/')
            continue;
        const char *p = colon + 2, *wild = strpbrk(p, "*?[");
        const char *slash = wild ? wild : p + strlen(p);
        while (slash > p && slash[-1] != '/')
            slash--; /* the start of the first component with a wildcard (or the last) */
        const char *rest = slash;
        /* a final ** matches components too: src/gpu/a.cu for "src/" then ** */
        bool flat = !strchr(rest, '/') && rest[0] && !strstr(rest, "**");
        char *name = el_xstrndup(l->v[i], (size_t)(colon - l->v[i]));
        char *prefix = el_xstrndup(p, (size_t)(slash - p));
        char *dir = el_path_join(l->from[i].root ? l->from[i].root : c->root, prefix);
        add_dir_as(a, name, dir, flat);
        free(dir);
        free(prefix);
        free(name);
    }
}

void bs_backend_texts_add_config(bs_backend_texts *t, const el_config *c)
{
    if (!c)
        return;
    char key[32];
    snprintf(key, sizeof key, "%p", (const void *)c);
    if (el_strmap_get(&t->seen_configs, key))
        return;
    el_strmap_put(&t->seen_configs, key, (void *)1);
    adding a = {t, c};
    el_config_each_backend_dir(c, true, add_dir, &a);
    add_backend_files(&a, c);
}

void bs_backend_texts_skip(bs_backend_texts *t, const char *path)
{
    char *real = el_realpath_cached(path);
    el_strmap_put(&t->parsed, real ? real : path, (void *)1);
    free(real);
}

static bool code_file(const char *name)
{
    static const char *const ext[] = {".c", ".h", ".cc", ".cpp", ".cxx", ".hpp", ".hh", ".cu", ".cuh"};
    for (size_t i = 0; i < sizeof ext / sizeof *ext; i++)
        if (el_path_has_ext(name, ext[i]))
            return true;
    return false;
}

/* A backend's tests (mocks of the interface, not its code). */
static bool test_dir(const char *name)
{
    return strcmp(name, "test") == 0 || strcmp(name, "tests") == 0 || strcmp(name, "testing") == 0;
}

void bs_backend_texts_own(bs_backend_texts *t, const char *path)
{
    el_grow(&t->own, &t->cap_own, t->n_own + 1, sizeof *t->own);
    t->own[t->n_own++] = el_xstrdup(path);
}

static void note_own(const char *name, size_t len, el_text_def_kind kind, void *ud)
{
    if (kind != EL_TEXT_FUNCTION || len >= 256)
        return;
    char key[256];
    memcpy(key, name, len);
    key[len] = 0;
    el_strmap_put(ud, key, (void *)1);
}

bool bs_backend_texts_own_defines(bs_backend_texts *t, const char *name)
{
    if (!t->own_read) {
        t->own_read = true;
        for (size_t i = 0; i < t->n_own; i++) {
            struct stat st;
            if (stat(t->own[i], &st) != 0 || !S_ISREG(st.st_mode) || (size_t)st.st_size > MAX_FILE)
                continue;
            el_buf b = {0};
            if (el_buf_read_path(&b, t->own[i]))
                el_text_each_definition(el_buf_str(&b), b.n, note_own, &t->own_functions);
            el_buf_free(&b);
        }
    }
    return el_strmap_get(&t->own_functions, name) != NULL;
}

void bs_backend_texts_note(bs_backend_texts *t, bool tag, const char *name, const char *backend)
{
    if (!name[0])
        return;
    el_strmap *m = tag ? &t->tags : &t->functions;
    const char *had = el_strmap_get(m, name);
    if (!had)
        el_strmap_put(m, name, (void *)backend);
    else if (had != SEVERAL && strcmp(had, backend) != 0)
        el_strmap_put(m, name, SEVERAL);
}

typedef struct reading {
    bs_backend_texts *t;
    const backend_dir *d;
} reading;

static void note_definition(const char *name, size_t len, el_text_def_kind kind, void *ud)
{
    reading *r = ud;
    if (kind == EL_TEXT_STATIC_FUNCTION || len >= 256)
        return;
    char key[256];
    memcpy(key, name, len);
    key[len] = 0;
    bs_backend_texts_note(r->t, kind == EL_TEXT_TAG, key, r->d->name);
}

/* A file of the directory's backend by the configuration (its core
 * paths, the backend a narrower pattern names), and not one the run
 * parses (what that says is in the facts). */
static bool read_file_of(const reading *r, const char *path)
{
    char backend[64];
    if (el_config_classify(r->d->cfg, path, backend, sizeof backend) != EL_FILE_BACKEND ||
        strcmp(backend, r->d->name) != 0)
        return false;
    char *real = el_realpath_cached(path);
    bool parsed = el_strmap_get(&r->t->parsed, real ? real : path) != NULL;
    free(real);
    return !parsed;
}

static void read_tree(reading *r, const char *dir, int depth, bool flat)
{
    DIR *d = depth <= MAX_DEPTH ? opendir(dir) : NULL;
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char *p = el_path_join(dir, e->d_name);
        struct stat st;
        /* (lstat: a symbolic link is not followed, so a loop cannot hold the run) */
        if (lstat(p, &st) != 0) {
            /* gone meanwhile */
        } else if (S_ISDIR(st.st_mode)) {
            if (!flat && !test_dir(e->d_name))
                read_tree(r, p, depth + 1, false);
        } else if (S_ISREG(st.st_mode) && (size_t)st.st_size <= MAX_FILE &&
                   code_file(e->d_name) && read_file_of(r, p)) {
            el_buf b = {0};
            if (el_buf_read_path(&b, p))
                el_text_each_definition(el_buf_str(&b), b.n, note_definition, r);
            el_buf_free(&b);
        }
        free(p);
    }
    closedir(d);
}

void bs_backend_texts_read(bs_backend_texts *t)
{
    if (t->read)
        return;
    t->read = true;
    for (size_t i = 0; i < t->n_dirs; i++) {
        reading r = {t, &t->dirs[i]};
        read_tree(&r, t->dirs[i].dir, 0, t->dirs[i].flat);
    }
}

static bool other(const el_strmap *m, const char *name, const char *backend)
{
    const char *by = el_strmap_get(m, name);
    return by && (by == SEVERAL || strcmp(by, backend) != 0);
}

bool bs_backend_texts_other_defines(bs_backend_texts *t, const char *name, const char *backend)
{
    bs_backend_texts_read(t);
    return other(&t->functions, name, backend);
}

const char *bs_backend_texts_defined_by(bs_backend_texts *t, const char *name)
{
    bs_backend_texts_read(t);
    const char *by = el_strmap_get(&t->functions, name);
    return by && by != SEVERAL ? by : NULL;
}

bool bs_backend_texts_other_defines_tag(bs_backend_texts *t, const char *tag, const char *backend)
{
    bs_backend_texts_read(t);
    return other(&t->tags, tag, backend);
}

void bs_backend_texts_free(bs_backend_texts *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < t->n_dirs; i++) {
        free(t->dirs[i].name);
        free(t->dirs[i].dir);
    }
    free(t->dirs);
    for (size_t i = 0; i < t->n_own; i++)
        free(t->own[i]);
    free(t->own);
    el_strmap_free(&t->own_functions);
    el_strmap_free(&t->seen_dirs);
    el_strmap_free(&t->seen_configs);
    el_strmap_free(&t->parsed);
    el_strmap_free(&t->functions);
    el_strmap_free(&t->tags);
    free(t);
}
