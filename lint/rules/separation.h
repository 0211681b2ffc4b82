/* lint/rules/separation.h -- helpers shared by the separation rules
 * (EH101 backend-include, EH102 backend-symbol, EH103 backend-branch,
 * EH104 backend-impl-outside-backends, EH105 backend-op-missing).
 *
 * Header only (static functions): every .c file of lint/rules/ is a rule, and
 * this is not one.  Everything here asks the configuration (rule.h); no
 * list of names is typed in C. */
#ifndef EL_RULES_SEPARATION_H
#define EL_RULES_SEPARATION_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clang_util.h"
#include "rule.h"

/* The backend whose eh_<backend>_ prefix (a backend_prefixes entry holding
 * "<backend>", expanded for every known backend) `name` starts with; the
 * whole prefix must match and something must follow it, so eh_blast_radius
 * is not backend blas's.  Copies the backend name into buf and returns it,
 * or NULL. */
static inline const char *sep_eh_backend_of(const el_config *cfg, const char *name,
                                            char *buf, size_t n)
{
    size_t np = 0;
    const char *const *pats = el_config_strings(cfg, "backend_prefixes", &np);
    size_t len = strlen(name);
    for (size_t i = 0; i < np; i++) {
        const char *at = strstr(pats[i], "<backend>");
        if (!at)
            continue;
        size_t pre = (size_t)(at - pats[i]);
        const char *post = at + strlen("<backend>");
        size_t postlen = strlen(post);
        if (len <= pre || strncmp(name, pats[i], pre) != 0)
            continue;
        for (size_t b = 0; b < el_config_backend_count(cfg); b++) {
            const char *be = el_config_backend_name(cfg, b);
            size_t bl = strlen(be);
            if (len > pre + bl + postlen && strncmp(name + pre, be, bl) == 0 &&
                strncmp(name + pre + bl, post, postlen) == 0) {
                snprintf(buf, n, "%s", be);
                return buf;
            }
        }
    }
    return NULL;
}

/* The backend_prefixes entry (expanded: "eh_blas_", "cblas_", ...) `name`
 * starts with, the whole prefix matched and something after it; NULL when
 * none.  With `upper`, a prefix also matches in upper case ("CBLAS_",
 * "FFTW", "EH_BLAS_"), as library macros are spelled. */
static inline const char *sep_prefix_of(const el_config *cfg, const char *name, bool upper)
{
    size_t np = 0, len = strlen(name);
    const char *const *v = el_config_strings(cfg, "backend_prefixes_expanded", &np);
    for (size_t i = 0; i < np; i++) {
        size_t l = strlen(v[i]);
        if (len <= l)
            continue;
        if (strncmp(name, v[i], l) == 0)
            return v[i];
        if (upper) {
            size_t k = 0;
            while (k < l && name[k] == (char)(v[i][k] >= 'a' && v[i][k] <= 'z' ? v[i][k] - 32 : v[i][k]))
                k++;
            if (k == l)
                return v[i];
        }
    }
    if (np == 0) {
        const char *p = el_config_backend_prefix(cfg, name);
        if (p && len > strlen(p))
            return p;
    }
    return NULL;
}

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

/* Class of the file a declaration is spelled in (for a declaration written
 * in a macro, the file of the macro's expansion). */
static inline const sep_file_class *sep_decl_file(el_ctx *ctx, sep_files *cache, CXCursor decl)
{
    CXFile f = NULL;
    elc_cursor_location(decl, &f, NULL, NULL);
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
