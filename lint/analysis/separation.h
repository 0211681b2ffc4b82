/* lint/analysis/separation.h -- helpers shared by the separation rules
 * (EH101 backend-include, EH102 backend-symbol, EH103 backend-branch,
 * EH104 backend-impl-outside-backends, EH105 backend-op-missing): the
 * class of the file a declaration is in, and growing arrays.  Which
 * backend a name belongs to is the engine's (el_backend_of_symbol,
 * rule.h), since ember-migrate and the call rewrites ask it too.
 *
 * Header only (small static functions, inlined where used).  Everything
 * here asks the configuration (rule.h); no list of names is typed in C. */
#ifndef EL_ANALYSIS_SEPARATION_H
#define EL_ANALYSIS_SEPARATION_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clang_util.h"
#include "cursor_map.h"
#include "rule.h"

/* ---- the class of the file a declaration is in --------------------------- */

/* A small per-TU cache: CXFile -> class (and backend name).  Files outside
 * the linted paths are classified by path too, so a declaration in
 * backends/blas/blas.h counts as backend blas's even when only examples/
 * is linted. */
#define SEP_FILE_CACHE 64

typedef struct sep_file_class {
    CXFile file;
    el_file_class cls;     /* EXTERNAL: neither linted nor under a backend dir */
    bool linted;
    char backend[64];
} sep_file_class;

typedef struct sep_files {
    sep_file_class v[SEP_FILE_CACHE];
    size_t n, next;
} sep_files;

static inline const sep_file_class *sep_file_info(el_ctx *ctx, sep_files *cache, CXFile f)
{
    for (size_t i = 0; i < cache->n; i++)
        if (cache->v[i].file == f)
            return &cache->v[i];
    size_t slot = cache->n < SEP_FILE_CACHE ? cache->n++ : (cache->next++ % SEP_FILE_CACHE);
    sep_file_class *e = &cache->v[slot];
    e->file = f;
    e->backend[0] = '\0';
    const char *be = "";
    e->cls = el_file_class_of(ctx, f, &be);
    e->linted = e->cls != EL_FILE_EXTERNAL;
    if (e->linted) {
        snprintf(e->backend, sizeof e->backend, "%s", be ? be : "");
    } else if (f) {
        char path[4096];
        elc_file_name(f, path, sizeof path);
        if (path[0] && el_classify_path(ctx, path, e->backend, sizeof e->backend) == EL_FILE_BACKEND)
            e->cls = EL_FILE_BACKEND;
        else
            e->backend[0] = '\0';
    }
    return e;
}

/* The file a cursor is spelled in (for one written in a macro, the file of
 * the macro's expansion), or NULL: elc_cursor_location's file without its
 * line and column (a line table lookup, most of the cost). */
static inline CXFile sep_cursor_file(CXCursor c)
{
    CXFile f = NULL;
    clang_getExpansionLocation(clang_getCursorLocation(c), &f, NULL, NULL, NULL);
    return f;
}

/* Class of the file a declaration is spelled in (sep_cursor_file). */
static inline const sep_file_class *sep_decl_file(el_ctx *ctx, sep_files *cache, CXCursor decl)
{
    CXFile f = sep_cursor_file(decl);
    if (!f)
        return NULL;
    return sep_file_info(ctx, cache, f);
}

/* ---- growing arrays ------------------------------------------------------ */

/* Room for element n of v (capacity *cap, doubled as needed): v, a
 * reallocated v, or NULL when memory runs out (v is then untouched and
 * still owned by the caller).  A rule reports nothing rather than abort. */
static inline void *sep_grow(void *v, size_t *cap, size_t n, size_t size)
{
    if (n < *cap)
        return v;
    size_t c = *cap ? 2 * *cap : 16;
    void *nv = realloc(v, c * size);
    if (nv)
        *cap = c;
    return nv;
}

#endif
