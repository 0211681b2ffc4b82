/* lint/engine/compdb_headers.c -- the tree's headers a compilation
 * database's files include (compdb.h), for the -p runs without PATH of
 * both tools. */
#include "compdb.h"

#include <stdlib.h>
#include <string.h>

#include "include_line.h"
#include "language.h"
#include "mem.h"
#include "path.h"
#include "strbuf.h"

typedef struct found {
    char **v;
    size_t n, cap;
    bool (*inside)(const char *path, void *ud);
    void *ud;
} found;

static bool add_once(found *f, const char *path)
{
    for (size_t i = 0; i < f->n; i++)
        if (strcmp(f->v[i], path) == 0)
            return false;
    el_grow(&f->v, &f->cap, f->n + 1, sizeof *f->v);
    f->v[f->n++] = el_xstrdup(path);
    return true;
}

/* The -I and -iquote directories of a file's database entry. */
static char **include_dirs(const el_compdb *db, const char *file, size_t *n)
{
    size_t na = 0;
    char **args = el_compdb_args(db, file, &na);
    char **v = el_xcalloc(na + 1, sizeof *v);
    *n = 0;
    for (size_t i = 0; i < na; i++) {
        const char *a = args[i];
        const char *dir = NULL;
        if ((!strcmp(a, "-I") || !strcmp(a, "-iquote")) && i + 1 < na)
            dir = args[++i];
        else if (!strncmp(a, "-I", 2) && a[2])
            dir = a + 2;
        if (dir)
            v[(*n)++] = el_xstrdup(dir);
    }
    el_args_free(args, na);
    return v;
}

/* Follow the includes of path, read as text (every #if arm), adding the
 * files inside the tree it includes (each once). */
static void headers_of(const el_compdb *db, found *f, const char *path, int depth)
{
    el_buf b = {0};
    if (depth >= 32 || !el_buf_read_path(&b, path) || !b.s) {
        el_buf_free(&b);
        return;
    }
    size_t len = b.n;
    char *text = el_buf_take(&b);
    size_t nd = 0;
    char **dirs = include_dirs(db, path, &nd);
    char *own = el_path_dirname(path);
    for (size_t ls = 0; ls < len;) {
        size_t le = ls;
        while (le < len && text[le] != '\n')
            le++;
        bool angled;
        const char *name;
        size_t nl;
        if (el_include_line(text + ls, le - ls, &angled, &name, &nl)) {
            char *spelled = el_xstrndup(name, nl);
            char *hit = NULL;
            for (size_t k = angled ? 0 : (size_t)-1; !hit && (k == (size_t)-1 || k < nd); k++) {
                char *j = el_path_join(k == (size_t)-1 ? own : dirs[k], spelled);
                hit = el_path_real(j);
                free(j);
            }
            /* headers, and .c files included as templates (liquid-dsp's *.proto.c) */
            bool code = hit && (el_path_is_header(hit) || el_path_has_ext(hit, ".c"));
            if (code && f->inside(hit, f->ud) && add_once(f, hit))
                headers_of(db, f, hit, depth + 1);
            free(hit);
            free(spelled);
        }
        ls = le + 1;
    }
    free(own);
    for (size_t k = 0; k < nd; k++)
        free(dirs[k]);
    free(dirs);
    free(text);
}

char **el_compdb_tree_headers(const el_compdb *db, char *const *files, size_t n_files,
                              bool (*inside)(const char *path, void *ud), void *ud, size_t *n)
{
    found f = {.inside = inside, .ud = ud};
    for (size_t i = 0; i < n_files; i++)
        headers_of(db, &f, files[i], 0);
    *n = f.n;
    return f.v;
}
