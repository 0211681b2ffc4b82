/* lint/rules/backend_symbol/backend_texts.c -- the functions backends
 * define, from their files' text (backend_texts.h). */
#include "backend_texts.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "c_text.h"
#include "mem.h"
#include "path.h"
#include "strbuf.h"
#include "strmap.h"

#define MAX_DEPTH 32
#define MAX_FILE (8u << 20) /* a larger file is generated, not a backend's code */
#define SEVERAL ((void *)1) /* defined by two backends or more */

typedef struct backend_dir {
    char *name, *dir;
} backend_dir;

struct bs_backend_texts {
    backend_dir *dirs;
    size_t n_dirs, cap_dirs;
    el_strmap seen_dirs;
    bool read;
    el_strmap functions;      /* name -> its backend's name (in dirs), or SEVERAL */
    el_strmap tags;           /* struct, union and enum tags, the same way */
};

bs_backend_texts *bs_backend_texts_new(void)
{
    return el_xcalloc(1, sizeof(bs_backend_texts));
}

static void add_dir(const char *name, const char *dir, void *ud)
{
    bs_backend_texts *t = ud;
    if (el_strmap_get(&t->seen_dirs, dir))
        return;
    el_strmap_put(&t->seen_dirs, dir, (void *)1);
    el_grow(&t->dirs, &t->cap_dirs, t->n_dirs + 1, sizeof *t->dirs);
    t->dirs[t->n_dirs++] = (backend_dir){el_xstrdup(name), el_xstrdup(dir)};
}

void bs_backend_texts_add_config(bs_backend_texts *t, const el_config *c)
{
    if (c)
        el_config_each_backend_dir(c, add_dir, t);
}

static bool code_file(const char *name)
{
    static const char *const ext[] = {".c", ".h", ".cc", ".cpp", ".cxx", ".hpp", ".hh", ".cu", ".cuh"};
    for (size_t i = 0; i < sizeof ext / sizeof *ext; i++)
        if (el_path_has_ext(name, ext[i]))
            return true;
    return false;
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
    el_strmap *m = kind == EL_TEXT_TAG ? &r->t->tags : &r->t->functions;
    char key[256];
    memcpy(key, name, len);
    key[len] = 0;
    const char *had = el_strmap_get(m, key);
    if (!had)
        el_strmap_put(m, key, r->d->name);
    else if (had != SEVERAL && strcmp(had, r->d->name) != 0)
        el_strmap_put(m, key, SEVERAL);
}

static void read_tree(reading *r, const char *dir, int depth)
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
        if (stat(p, &st) == 0 && S_ISDIR(st.st_mode)) {
            read_tree(r, p, depth + 1);
        } else if (S_ISREG(st.st_mode) && (size_t)st.st_size <= MAX_FILE && code_file(e->d_name)) {
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
        read_tree(&r, t->dirs[i].dir, 0);
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

bool bs_backend_texts_other_defines_tag(const bs_backend_texts *t, const char *tag,
                                        const char *backend)
{
    return t->read && other(&t->tags, tag, backend);
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
    el_strmap_free(&t->seen_dirs);
    el_strmap_free(&t->functions);
    el_strmap_free(&t->tags);
    free(t);
}
