/* lint/engine/unbuilt.c -- the files a run with a compile database
 * leaves out as not built (unbuilt.h). */
#include "unbuilt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem.h"
#include "path.h"
#include "progname.h"
#include "utf8.h"

void el_unbuilt_add(el_unbuilt *u, const char *path, bool header)
{
    el_grow(&u->v, &u->cap, u->n + 1, sizeof *u->v);
    u->v[u->n].path = el_xstrdup(path);
    u->v[u->n++].header = header;
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

/* -v: the files of one note, one a line, relative to the current
 * directory. */
static void list_unbuilt(const el_unbuilt *u, bool headers)
{
    char **shown = el_xcalloc(u->n + 1, sizeof *shown);
    size_t n = 0;
    for (size_t i = 0; i < u->n; i++)
        if (u->v[i].header == headers)
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

void el_unbuilt_note(const el_unbuilt *u, bool verbose)
{
    size_t headers = 0;
    for (size_t i = 0; i < u->n; i++)
        headers += u->v[i].header;
    size_t files = u->n - headers;
    const char *which = verbose ? ":" : "";
    if (files) {
        fprintf(stderr, "%s: %zu source file%s under the paths %s not in compile_commands.json "
                "(not built in this configuration): not linted (a file named on the command "
                "line is)%s\n", el_progname, files, files == 1 ? "" : "s", files == 1 ? "is" : "are",
                which);
        if (verbose)
            list_unbuilt(u, false);
    }
    if (headers) {
        fprintf(stderr, "%s: %zu header%s under the paths %s included by none of the files "
                "compile_commands.json builds (not built in this configuration): not linted (a "
                "file named on the command line is)%s\n", el_progname, headers,
                headers == 1 ? "" : "s", headers == 1 ? "is" : "are", which);
        if (verbose)
            list_unbuilt(u, true);
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
        el_unbuilt_add(&a->left, left->v[i].path, left->v[i].header);
    }
    el_unbuilt_free(left);
}

void el_unbuilt_across_take(el_unbuilt_across *a, el_unbuilt *out)
{
    el_unbuilt_free(out);
    for (size_t i = 0; i < a->left.n; i++)
        if (!el_strmap_get(&a->built, a->left.v[i].path))
            el_unbuilt_add(out, a->left.v[i].path, a->left.v[i].header);
    el_unbuilt_free(&a->left);
    el_strmap_free(&a->built);
    el_strmap_free(&a->seen);
}
