/* lint/engine/unbuilt.c -- the files a run with a compile database
 * leaves out as not built (unbuilt.h). */
#include "unbuilt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compdb.h"
#include "language.h"
#include "mem.h"
#include "path.h"
#include "progname.h"
#include "utf8.h"

void el_unbuilt_add(el_unbuilt *u, const char *path, bool header, bool by_cxx)
{
    el_grow(&u->v, &u->cap, u->n + 1, sizeof *u->v);
    u->v[u->n].path = el_xstrdup(path);
    u->v[u->n].by_cxx = header && by_cxx;
    u->v[u->n++].header = header;
}

static bool in_sources(const char *path, void *ud)
{
    return el_sources_find(ud, path) >= 0;
}

void el_unbuilt_cxx_only_headers(const el_compdb *db, const el_sources *sources, el_strmap *out)
{
    char **files = NULL;
    size_t n = 0, cap = 0;
    for (size_t i = 0; i < el_compdb_file_count(db); i++) {
        const char *f = el_compdb_file(db, i);
        if (el_path_is_cxx(f) && el_sources_find(sources, f) < 0) {
            el_grow(&files, &cap, n + 1, sizeof *files);
            files[n++] = (char *)f;
        }
    }
    size_t nh = 0;
    char **h = n ? el_compdb_tree_headers(db, files, n, in_sources, (void *)sources, &nh) : NULL;
    for (size_t i = 0; i < nh; i++) {
        el_strmap_put(out, h[i], (void *)1);
        free(h[i]);
    }
    free(h);
    free(files);
}

void el_unbuilt_mark(const el_unbuilt *u, el_sources *sources)
{
    for (size_t i = 0; i < u->n; i++) {
        long k = el_sources_find(sources, u->v[i].path);
        if (k >= 0)
            sources->v[k].not_built = true;
    }
}

void el_unbuilt_free(el_unbuilt *u)
{
    for (size_t i = 0; i < u->n; i++)
        free(u->v[i].path);
    free(u->v);
    memset(u, 0, sizeof *u);
}

static int cmp_shown(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Which note tells of a file: 0 sources, 1 headers, 2 headers only
 * C++ files not linted include. */
static int kind_of(const struct el_unbuilt_file *f)
{
    return !f->header ? 0 : f->by_cxx ? 2 : 1;
}

/* -v: the files of one note, one a line, relative to the current
 * directory. */
static void list_unbuilt(const el_unbuilt *u, int kind)
{
    char **shown = el_xcalloc(u->n + 1, sizeof *shown);
    size_t n = 0;
    for (size_t i = 0; i < u->n; i++)
        if (kind_of(&u->v[i]) == kind)
            shown[n++] = el_path_display(u->v[i].path);
    if (n > 1)
        qsort(shown, n, sizeof *shown, cmp_shown);
    for (size_t i = 0; i < n; i++) {
        char *clean = el_utf8_clean(shown[i]);
        fprintf(stderr, "  %s\n", clean);
        free(clean);
        free(shown[i]);
    }
    free(shown);
}

/* What each kind of unbuilt file is, in kind_of's order (the tool's verb
 * between why and then, when then is set).  Headers built only by C++
 * files the run leaves out stay unread: parsed alone as C they would
 * only fail. */
static const struct {
    const char *noun, *why, *then;
} unbuilt_kinds[3] = {
    {"source file", "not in compile_commands.json (not built in this configuration)", NULL},
    {"header", "included by none of the files compile_commands.json builds (not built in this "
               "configuration)", NULL},
    {"header", "included only by C++ files compile_commands.json builds, which this run does not",
     "(outside the paths, or left out by \"languages\")"},
};

void el_unbuilt_note(const el_unbuilt *u, bool verbose, const char *done, const char *to_do)
{
    size_t count[3] = {0};
    for (size_t i = 0; i < u->n; i++)
        count[kind_of(&u->v[i])]++;
    for (int k = 0; k < 3; k++) {
        if (!count[k])
            continue;
        fprintf(stderr, "%s: %zu %s%s under the paths %s %s%s%s%s%s: not %s (a file named on the "
                "command line is)%s\n", el_progname, count[k], unbuilt_kinds[k].noun,
                count[k] == 1 ? "" : "s", count[k] == 1 ? "is" : "are", unbuilt_kinds[k].why,
                unbuilt_kinds[k].then ? " " : "", unbuilt_kinds[k].then ? to_do : "",
                unbuilt_kinds[k].then ? " " : "", unbuilt_kinds[k].then ? unbuilt_kinds[k].then : "",
                done, verbose ? ":" : "");
        if (verbose)
            list_unbuilt(u, k);
    }
}

void el_unbuilt_across_add(el_unbuilt_across *a, el_unbuilt *left, const el_sources *scope)
{
    el_strmap here = {0};
    for (size_t i = 0; i < left->n; i++)
        el_strmap_put(&here, left->v[i].path, (void *)1);
    for (size_t i = 0; i < scope->n; i++)
        if (!el_strmap_get(&here, scope->v[i].path))
            el_strmap_put(&a->built, scope->v[i].path, (void *)1);
    el_strmap_free(&here);
    for (size_t i = 0; i < left->n; i++) {
        if (el_strmap_put(&a->seen, left->v[i].path, (void *)1))
            continue;
        el_unbuilt_add(&a->left, left->v[i].path, left->v[i].header, left->v[i].by_cxx);
    }
    el_unbuilt_free(left);
}

void el_unbuilt_across_take(el_unbuilt_across *a, el_unbuilt *out)
{
    el_unbuilt_free(out);
    for (size_t i = 0; i < a->left.n; i++)
        if (!el_strmap_get(&a->built, a->left.v[i].path))
            el_unbuilt_add(out, a->left.v[i].path, a->left.v[i].header, a->left.v[i].by_cxx);
    el_unbuilt_free(&a->left);
    el_strmap_free(&a->built);
    el_strmap_free(&a->seen);
}
