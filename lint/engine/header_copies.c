/* lint/engine/header_copies.c -- the headers a build reads through a copy
 * of its own (header_copies.h). */
#include "header_copies.h"

#include <stdlib.h>
#include <string.h>

#include "mem.h"
#include "path.h"
#include "strbuf.h"

struct el_header_copies {
    char **v; /* real paths, sorted by their base name */
    size_t n, cap;
};

typedef struct collect {
    el_header_copies *c;
    const el_sources *sources;
} collect;

static void take(const char *key, void *value, void *ud)
{
    (void)value;
    collect *k = ud;
    if (el_sources_find(k->sources, key) >= 0)
        return; /* linted itself: its findings are its own */
    el_grow(&k->c->v, &k->c->cap, k->c->n + 1, sizeof *k->c->v);
    k->c->v[k->c->n++] = el_xstrdup(key);
}

static int cmp_base(const void *a, const void *b)
{
    return strcmp(el_path_base(*(char *const *)a), el_path_base(*(char *const *)b));
}

el_header_copies *el_header_copies_new(const el_strmap *read, const el_sources *sources)
{
    el_header_copies *c = el_xcalloc(1, sizeof *c);
    collect k = {c, sources};
    el_strmap_each(read, take, &k);
    if (c->n > 1)
        qsort(c->v, c->n, sizeof *c->v, cmp_base);
    return c;
}

static bool same_bytes(el_filehash *hashes, const char *a, const char *b)
{
    el_hash128 ha, hb;
    size_t na = 0, nb = 0;
    return el_filehash_get(hashes, a, &ha) && el_filehash_get(hashes, b, &hb) &&
           el_filehash_size(hashes, a, &na) && el_filehash_size(hashes, b, &nb) && na == nb &&
           !memcmp(&ha, &hb, sizeof ha);
}

bool el_header_copies_has(const el_header_copies *c, el_filehash *hashes, const char *path)
{
    const char *base = el_path_base(path);
    size_t lo = 0, hi = c->n;
    while (lo < hi) { /* the first of the name */
        size_t mid = lo + (hi - lo) / 2;
        if (strcmp(el_path_base(c->v[mid]), base) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (size_t i = lo; i < c->n && !strcmp(el_path_base(c->v[i]), base); i++)
        if (strcmp(c->v[i], path) != 0 && same_bytes(hashes, c->v[i], path))
            return true;
    return false;
}

void el_header_copies_free(el_header_copies *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < c->n; i++)
        free(c->v[i]);
    free(c->v);
    free(c);
}

static bool same_file_bytes(const char *a, const char *b)
{
    el_buf x = {0}, y = {0};
    bool same = el_buf_read_path(&x, a) && el_buf_read_path(&y, b) && x.n == y.n &&
                (x.n == 0 || memcmp(x.s, y.s, x.n) == 0);
    el_buf_free(&x);
    el_buf_free(&y);
    return same;
}

char *el_header_copy_original(const char *path, const char *build_real)
{
    char *rel = el_path_under(path, build_real);
    if (!rel || !*rel) {
        free(rel);
        return NULL;
    }
    char *found = NULL;
    char *dir = el_path_dirname(build_real);
    while (!found) {
        char *cand = el_path_join(dir, rel);
        char *real = el_path_real(cand);
        free(cand);
        char *inside = real ? el_path_under(real, build_real) : NULL;
        if (real && !inside && same_file_bytes(real, path))
            found = real;
        else
            free(real);
        free(inside);
        if (found || strcmp(dir, "/") == 0)
            break;
        char *up = el_path_dirname(dir);
        free(dir);
        dir = up;
    }
    free(dir);
    free(rel);
    return found;
}
