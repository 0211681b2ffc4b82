/* lint/analysis/backend_symbols.c -- whose is a declaration
 * (backend_symbols.h). */
#include "backend_symbols.h"

#include <limits.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "clang_util.h"
#include "config.h"

typedef struct bs_verdict {
    bool known;             /* w, shim and backend are set */
    bool shim;              /* a definition of the TU hands the call on (bs_shim) */
    unsigned char w;
    unsigned char flags;    /* the caller's (bs_flags) */
    char backend[64];
    char *note;
} bs_verdict;

/* The verdict of `decl` (a new, empty one when it is new); NULL when out
 * of memory.  The pointer lasts until the next call. */
static bs_verdict *slot_of(bs_cache *m, CXCursor decl)
{
    unsigned *k = el_cursor_value(&m->index, decl);
    if (!k)
        return NULL;
    if (!*k) {
        bs_verdict *v = sep_grow(m->v, &m->cap, m->n, sizeof *v);
        if (!v)
            return NULL;
        m->v = v;
        memset(&m->v[m->n], 0, sizeof *m->v);
        *k = (unsigned)++m->n;
    }
    return &m->v[*k - 1];
}

/* The file of the cursor is the project's own code: linted and not a
 * backend's, or in the project's tree, not a backend's and not named like
 * a vendor's header. */
static bool project_own_file(el_ctx *ctx, bs_cache *c, CXCursor decl)
{
    CXFile f = sep_cursor_file(decl);
    if (!f)
        return false;
    const sep_file_class *fi = sep_file_info(ctx, &c->files, f);
    if (fi->cls == EL_FILE_BACKEND)
        return false;
    if (fi->linted)
        return true;
    const char *real = el_file_path(ctx, f);
    const el_config *cfg = el_ctx_config(ctx);
    bool own = real && el_config_in_project(cfg, real) &&
               !el_config_is_vendor_header(cfg, real) &&
               !clang_Location_isInSystemHeader(clang_getCursorLocation(decl));
    return own;
}

/* snprintf(dst, n, "%s", src), without snprintf's cost (asked at every
 * reference). */
static void copy_name(char *dst, size_t n, const char *src)
{
    if (!n)
        return;
    size_t len = strnlen(src, n - 1);
    memcpy(dst, src, len);
    dst[len] = '\0';
}

/* A declaration of a backend file, its USR not read yet: clang_getCursorUSR
 * costs ~2,500 instructions, and a TU whose code EH102 does not look at
 * (a backend's own) never asks. */
typedef struct bs_pending {
    CXCursor decl;
    char backend[64];
} bs_pending;

void bs_note_declaration(el_ctx *ctx, bs_cache *c, CXCursor decl)
{
    CXFile f = sep_cursor_file(decl);
    if (!f)
        return;
    const sep_file_class *fi = sep_file_info(ctx, &c->files, f);
    if (fi->cls != EL_FILE_BACKEND)
        return;
    bs_pending *v = sep_grow(c->pending, &c->cap_pending, c->n_pending, sizeof *v);
    if (!v)
        return;
    c->pending = v;
    c->pending[c->n_pending].decl = decl;
    copy_name(c->pending[c->n_pending].backend, sizeof v->backend, fi->backend);
    c->n_pending++;
}

/* The noted declarations' "backend USR" entries, in the order noted. */
static void read_pending_usrs(bs_cache *c)
{
    for (size_t i = 0; i < c->n_pending; i++) {
        CXString usr = clang_getCursorUSR(c->pending[i].decl);
        const char *u = clang_getCString(usr);
        if (u && u[0]) {
            const char *be = c->pending[i].backend;
            char *entry = malloc(strlen(u) + strlen(be) + 2);
            if (entry) {
                sprintf(entry, "%s %s", be, u);
                char **v = sep_grow(c->backend_usrs, &c->cap_usrs, c->n_usrs, sizeof *v);
                if (v) {
                    c->backend_usrs = v;
                    c->backend_usrs[c->n_usrs++] = entry;
                } else {
                    free(entry);
                }
            }
        }
        clang_disposeString(usr);
    }
    c->n_pending = 0;
}

/* The backend a backend file of the TU declared decl in, or NULL. */
static const char *declared_in_backend(bs_cache *c, CXCursor decl)
{
    read_pending_usrs(c);
    if (!c->n_usrs)
        return NULL;
    CXString usr = clang_getCursorUSR(decl);
    const char *u = clang_getCString(usr);
    const char *hit = NULL;
    for (size_t i = 0; u && u[0] && i < c->n_usrs && !hit; i++) {
        const char *sp = strchr(c->backend_usrs[i], ' ');
        if (sp && strcmp(sp + 1, u) == 0)
            hit = c->backend_usrs[i];
    }
    clang_disposeString(usr);
    return hit;
}

static bs_why classify(el_ctx *ctx, bs_cache *c, CXCursor decl, char *backend, size_t n,
                       bool *shim)
{
    const el_config *cfg = el_ctx_config(ctx);
    backend[0] = '\0';
    *shim = false;
    char name[256];
    elc_spelling(decl, name, sizeof name);
    if (!name[0])
        return BS_NOT_BACKEND;
    bool is_macro = clang_getCursorKind(decl) == CXCursor_MacroDefinition;

    if (!is_macro && el_backend_of_symbol(cfg, name, backend, n))
        return BS_BY_PREFIX;

    /* where it is first declared */
    CXCursor first = is_macro ? decl : clang_getCanonicalCursor(decl);
    const sep_file_class *fi = sep_decl_file(ctx, &c->files, first);
    if (fi && fi->cls == EL_FILE_BACKEND) {
        snprintf(backend, n, "%s", fi->backend);
        return BS_BY_LOCATION;
    }
    backend[0] = '\0';
    const char *noted = is_macro ? NULL : declared_in_backend(c, decl);
    if (noted) {
        snprintf(backend, n, "%.*s", (int)(strchr(noted, ' ') - noted), noted);
        return BS_BY_LOCATION;
    }
    if (is_macro && fi && fi->linted)
        return BS_NOT_BACKEND; /* the frontend's own macro: its body is seen through */
    if (!el_backend_prefix_of(cfg, name, true))
        return BS_NOT_BACKEND;
    if (is_macro)
        return project_own_file(ctx, c, decl) &&
                       !el_macro_body_names_backend(cfg, el_tu(ctx), decl)
                   ? BS_NOT_BACKEND
                   : BS_BY_PREFIX;
    /* A library prefix: not the library's when the project has it itself. */
    CXCursor def = clang_getCursorDefinition(decl);
    if (clang_Cursor_isNull(def) && !elc_tu_has_bodies(el_tu(ctx)))
        return BS_UNDECIDED; /* its definition may be a skipped body here: parsed again */
    if (!clang_Cursor_isNull(def)) {
        const sep_file_class *di = sep_decl_file(ctx, &c->files, def);
        CXCursor ilp64;
        if (di && di->linted && di->cls != EL_FILE_BACKEND) {
            if (el_definition_forwards(cfg, def)) {
                *shim = true; /* the library's own build under another name */
            } else if (el_definition_forwards_ilp64(cfg, def, &ilp64)) {
                /* dgetrf_ calling dgetrf_64_: the project's own when the
                 * ILP64 routine is (seen defined here), a backend's when
                 * that one's is (declared in its file), else whoever
                 * defines dgetrf_64_ in the run decides (the project
                 * hook), wherever dgetrf_ is declared first */
                *shim = true;
                char be[64];
                bs_why w = bs_classify(ctx, c, ilp64, be, sizeof be);
                if (w == BS_NOT_BACKEND)
                    return BS_NOT_BACKEND;
                if (w == BS_BY_LOCATION) {
                    copy_name(backend, n, be);
                    return BS_BY_LOCATION;
                }
                return BS_UNDECIDED;
            } else {
                return BS_NOT_BACKEND;
            }
        }
    }
    /* declared by the project, defined elsewhere: the project's own when
     * it defines it (another TU knows), the library's when it merely
     * declares it (a prototype instead of the include) */
    if (project_own_file(ctx, c, first))
        return clang_getCursorKind(decl) == CXCursor_FunctionDecl ? BS_UNDECIDED : BS_NOT_BACKEND;
    return BS_BY_PREFIX;
}

bs_why bs_classify(el_ctx *ctx, bs_cache *c, CXCursor decl, char *backend, size_t n)
{
    bs_verdict *e = slot_of(c, decl);
    bool shim = false;
    if (!e)
        return classify(ctx, c, decl, backend, n, &shim);
    if (!e->known) {
        char be[64];
        bs_why w = classify(ctx, c, decl, be, sizeof be, &shim);
        e = slot_of(c, decl); /* classify grows the table when it asks about a shim's callee */
        if (!e) {
            copy_name(backend, n, be);
            return w;
        }
        e->w = (unsigned char)w;
        e->shim = shim;
        copy_name(e->backend, sizeof e->backend, be);
        e->known = true;
    }
    copy_name(backend, n, e->backend);
    return (bs_why)e->w;
}

char **bs_note(bs_cache *c, CXCursor decl)
{
    bs_verdict *e = slot_of(c, decl);
    return e ? &e->note : NULL;
}

bool bs_shim(bs_cache *c, CXCursor decl)
{
    bs_verdict *e = slot_of(c, decl);
    return e && e->known && e->shim;
}

unsigned char *bs_flags(bs_cache *c, CXCursor decl)
{
    bs_verdict *e = slot_of(c, decl);
    return e ? &e->flags : NULL;
}

void bs_cache_free(bs_cache *c)
{
    for (size_t i = 0; i < c->n_usrs; i++)
        free(c->backend_usrs[i]);
    free(c->backend_usrs);
    c->backend_usrs = NULL;
    c->n_usrs = c->cap_usrs = 0;
    free(c->pending);
    c->pending = NULL;
    c->n_pending = c->cap_pending = 0;
    for (size_t i = 0; i < c->n; i++)
        free(c->v[i].note);
    free(c->v);
    c->v = NULL;
    c->cap = c->n = 0;
    el_cursor_map_free(&c->index);
}
