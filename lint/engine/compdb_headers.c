/* lint/engine/compdb_headers.c -- the tree's headers a compilation
 * database's files include (compdb.h), for the -p runs without PATH of
 * both tools. */
#include "compdb.h"

#include <stdlib.h>
#include <string.h>

#include "header_copies.h"
#include "include_line.h"
#include "language.h"
#include "mem.h"
#include "path.h"
#include "strbuf.h"
#include "strmap.h"

/* A file's -I and -iquote directories. */
typedef struct dirs {
    char **v;
    size_t n;
} dirs;

typedef struct found {
    char **v;
    size_t n, cap;
    el_strmap seen;          /* v's, -> 1 */
    el_strmap own;           /* a file the database lists -> 1 + its first entry's index */
    el_strmap by_dir;        /* a directory -> the dirs of the files it holds that the
                                database does not list (the entry they borrow is the
                                directory's: el_compdb_args) */
    size_t reads;            /* el_compdb_args calls (test_compdb counts them) */
    char *build_real;        /* the database's directory, real (NULL: unknown) */
    bool (*inside)(const char *path, void *ud);
    void *ud;
} found;

size_t el_compdb_tree_reads;

static bool add_once(found *f, const char *path)
{
    if (el_strmap_put(&f->seen, path, (void *)1))
        return false;
    el_grow(&f->v, &f->cap, f->n + 1, sizeof *f->v);
    f->v[f->n++] = el_xstrdup(path);
    return true;
}

/* A header the build copied from the tree stands for the tree's
 * (header_copies.h); the copy is followed: its includes are what the
 * build reads. */
static bool add_found(found *f, const char *hit)
{
    char *orig = f->build_real ? el_header_copy_original(hit, f->build_real) : NULL;
    if (!orig || !f->inside(orig, f->ud)) {
        free(orig);
        return add_once(f, hit);
    }
    add_once(f, orig);
    free(orig);
    return !el_strmap_put(&f->seen, hit, (void *)1);
}

/* The -I and -iquote directories of an argument list (freed). */
static dirs dirs_of(char **args, size_t na)
{
    dirs d = {.v = el_xcalloc(na + 1, sizeof *d.v)};
    for (size_t i = 0; i < na; i++) {
        const char *a = args[i];
        const char *dir = NULL;
        if ((!strcmp(a, "-I") || !strcmp(a, "-iquote")) && i + 1 < na)
            dir = args[++i];
        else if (!strncmp(a, "-I", 2) && a[2])
            dir = a + 2;
        if (dir)
            d.v[d.n++] = el_xstrdup(dir);
    }
    el_args_free(args, na);
    return d;
}

static void dirs_free(dirs *d)
{
    for (size_t k = 0; d && k < d->n; k++)
        free(d->v[k]);
    if (d)
        free(d->v);
    free(d);
}

static void dirs_free_each(const char *key, void *v, void *ud)
{
    (void)key, (void)ud;
    dirs_free(v);
}

/* The -I and -iquote directories of a file's database entry (its own,
 * else its directory's, once per directory): owned by f (NULL: none). */
static const dirs *include_dirs(found *f, const el_compdb *db, const char *file, dirs **fresh)
{
    size_t na = 0;
    size_t own = (size_t)el_strmap_get(&f->own, file);
    *fresh = NULL;
    if (own) {
        f->reads++;
        *fresh = el_xcalloc(1, sizeof **fresh);
        char **args = el_compdb_entry_args(db, own - 1, &na);
        **fresh = dirs_of(args, na);
        return *fresh;
    }
    char *dir = el_path_dirname(file);
    dirs *d = el_strmap_get(&f->by_dir, dir);
    if (!d) {
        f->reads++;
        d = el_xcalloc(1, sizeof *d);
        char **args = el_compdb_args(db, file, &na);
        *d = dirs_of(args, na);
        el_strmap_put(&f->by_dir, dir, d);
    }
    free(dir);
    return d;
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
    dirs *fresh = NULL;
    const dirs *d = include_dirs(f, db, path, &fresh);
    size_t nd = d->n;
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
                char *j = el_path_join(k == (size_t)-1 ? own : d->v[k], spelled);
                hit = el_path_real(j);
                free(j);
            }
            /* headers, and .c files included as templates (liquid-dsp's *.proto.c) */
            bool code = hit && (el_path_is_header(hit) || el_path_has_ext(hit, ".c"));
            if (code && f->inside(hit, f->ud) && add_found(f, hit))
                headers_of(db, f, hit, depth + 1);
            free(hit);
            free(spelled);
        }
        ls = le + 1;
    }
    free(own);
    dirs_free(fresh);
    free(text);
}

static char **tree_headers(const el_compdb *db, char *const *files, size_t n_files,
                           bool (*inside)(const char *path, void *ud), void *ud, size_t *n,
                           bool originals)
{
    found f = {.inside = inside, .ud = ud};
    if (originals && el_compdb_dir(db))
        f.build_real = el_path_real(el_compdb_dir(db));
    for (size_t i = el_compdb_file_count(db); i-- > 0;) /* (the first entry of a file: el_compdb_args's) */
        el_strmap_put(&f.own, el_compdb_file(db, i), (void *)(i + 1));
    for (size_t i = 0; i < n_files; i++)
        headers_of(db, &f, files[i], 0);
    el_strmap_each(&f.by_dir, dirs_free_each, NULL);
    el_strmap_free(&f.by_dir);
    el_strmap_free(&f.own);
    el_strmap_free(&f.seen);
    free(f.build_real);
    el_compdb_tree_reads = f.reads;
    *n = f.n;
    return f.v;
}

char **el_compdb_tree_headers(const el_compdb *db, char *const *files, size_t n_files,
                              bool (*inside)(const char *path, void *ud), void *ud, size_t *n)
{
    return tree_headers(db, files, n_files, inside, ud, n, false);
}

char **el_compdb_tree_headers_originals(const el_compdb *db, char *const *files, size_t n_files,
                                        bool (*inside)(const char *path, void *ud), void *ud,
                                        size_t *n)
{
    return tree_headers(db, files, n_files, inside, ud, n, true);
}
