/* lint/change/bounds.c -- the tree a run may write (bounds.h). */
#include "bounds.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "mem.h"
#include "path.h"

static void add_root(el_bounds *b, char *root)
{
    for (size_t i = 0; i < b->n; i++)
        if (!strcmp(b->roots[i], root)) {
            free(root);
            return;
        }
    b->roots = el_xrealloc(b->roots, (b->n + 1) * sizeof *b->roots);
    b->roots[b->n++] = root;
}

void el_bounds_of_paths(el_bounds *b, char *const *paths, size_t n)
{
    memset(b, 0, sizeof *b);
    b->set = true;
    for (size_t i = 0; i < n; i++) {
        char *real = el_path_real(paths[i]);
        if (!real)
            continue;
        struct stat st;
        if (stat(real, &st) == 0 && !S_ISDIR(st.st_mode)) {
            /* a file named: its own directory, as the user spelled it */
            char *abs = el_path_abs(paths[i]);
            char *dir = el_path_dirname(abs);
            free(real);
            real = el_path_real(dir);
            free(dir);
            free(abs);
            if (!real)
                continue;
        }
        add_root(b, real);
    }
    if (!n) {
        char *cwd = el_path_real(el_cwd());
        add_root(b, cwd ? cwd : el_xstrdup(el_cwd()));
    }
}

void el_bounds_add(el_bounds *b, const char *dir)
{
    char *real = el_path_real(dir);
    if (real)
        add_root(b, real);
}

/* path's real form: its longest existing prefix resolved, the rest kept. */
static char *real_as_far(const char *path)
{
    char *abs = el_path_abs(path);
    char *real = el_path_real(abs);
    if (real) {
        free(abs);
        return real;
    }
    char *dir = el_path_dirname(abs);
    char *rd = strcmp(dir, abs) ? real_as_far(dir) : el_xstrdup(dir);
    char *out = el_path_join(rd, el_path_base(abs));
    free(rd);
    free(dir);
    free(abs);
    return out;
}

const char *el_bounds_root_of(const el_bounds *b, const char *path)
{
    char *real = real_as_far(path);
    const char *hit = NULL;
    for (size_t i = 0; i < b->n && !hit; i++) {
        char *rel = el_path_under(real, b->roots[i]);
        if (rel)
            hit = b->roots[i];
        free(rel);
    }
    free(real);
    return hit;
}

bool el_bounds_contain(const el_bounds *b, const char *path)
{
    return el_bounds_root_of(b, path) != NULL;
}

void el_bounds_copy(el_bounds *dst, const el_bounds *src)
{
    memset(dst, 0, sizeof *dst);
    dst->set = src->set;
    for (size_t i = 0; i < src->n; i++)
        add_root(dst, el_xstrdup(src->roots[i]));
}

void el_bounds_free(el_bounds *b)
{
    for (size_t i = 0; i < b->n; i++)
        free(b->roots[i]);
    free(b->roots);
    memset(b, 0, sizeof *b);
}
