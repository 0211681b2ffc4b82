/* lint/change/verify.c -- verifying a changeset before it is written
 * (verify.h). */
#include "verify.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "clang_api.h"

#include "fileio.h"
#include "include_line.h"
#include "mem.h"
#include "path.h"
#include "reparse.h"
#include "strmap.h"

void el_verify_units_add(el_verify_units *u, const char *path, const char *before,
                         const el_source *args, const char *display)
{
    for (size_t i = 0; i < u->n; i++)
        if (strcmp(u->v[i].path, path) == 0)
            return;
    el_grow(&u->v, &u->cap, u->n + 1, sizeof *u->v);
    el_verify_unit *x = &u->v[u->n++];
    x->path = el_xstrdup(path);
    x->before = before ? el_xstrdup(before) : NULL;
    x->args = args;
    x->display = el_xstrdup(display ? display : path);
}

void el_verify_units_free(el_verify_units *u)
{
    for (size_t i = 0; i < u->n; i++) {
        free(u->v[i].path);
        free(u->v[i].before);
        free(u->v[i].display);
    }
    free(u->v);
    memset(u, 0, sizeof *u);
}

/* The changeset as libclang's unsaved files: new contents, and for a
 * deleted file an #error that names it.
 *
 * libclang finds a file given in memory only under the exact name it was
 * given, and looks an include up as "<includer's directory>/<spelling>"
 * without removing "..": `#include "../../ops/x.h"` in a file moved into
 * a directory that does not exist yet is not found, nor is "../new/y.h"
 * naming a created file.  So every quoted include of a file read from
 * memory whose lookup name differs from its normalized path (or whose
 * directory does not exist) gets an alias under the lookup name, with the
 * content the normalized path will have; aliases are read the same way. */
typedef struct unsaved {
    struct CXUnsavedFile *v;
    size_t n, cap;
    char **owned;             /* names and contents made here */
    size_t n_owned, cap_owned;
    el_strmap names;          /* names given */
} unsaved;

static char *keep(unsaved *u, char *s)
{
    el_grow(&u->owned, &u->cap_owned, u->n_owned + 1, sizeof *u->owned);
    u->owned[u->n_owned++] = s;
    return s;
}

static void give(unsaved *u, const char *name, const char *text, size_t len)
{
    el_grow(&u->v, &u->cap, u->n + 1, sizeof *u->v);
    u->v[u->n].Filename = name;
    u->v[u->n].Contents = text;
    u->v[u->n].Length = (unsigned long)len;
    u->n++;
    el_strmap_put(&u->names, name, (void *)1);
}

/* What normalized path `path` will hold: its change, or the disk. */
static const char *content_after(const el_changeset *cs, const char *path, unsaved *u,
                                 size_t *len)
{
    for (size_t i = 0; i < cs->n; i++) {
        const el_change *c = &cs->v[i];
        if (strcmp(c->path, path) != 0)
            continue;
        if (c->kind == EL_CHANGE_DELETE) {
            char *t = keep(u, el_xasprintf("#error \"%s is deleted by this change\"\n",
                                           c->display));
            *len = strlen(t);
            return t;
        }
        *len = c->new_len;
        return c->new_text ? c->new_text : "";
    }
    char *t = NULL;
    return el_read_file(path, &t, len, NULL, NULL) == 0 ? keep(u, t) : NULL;
}

/* The spelling of a quoted #include on the line s[b..e), or NULL. */
static char *quoted_include(const char *s, size_t e, size_t b)
{
    bool angled;
    const char *name;
    size_t len;
    if (!el_include_line(s + b, e - b, &angled, &name, &len) || angled || !len)
        return NULL;
    return el_xstrndup(name, len);
}

static bool dir_exists(const char *path)
{
    char *d = el_path_dirname(path);
    struct stat st;
    bool ok = stat(d, &st) == 0 && S_ISDIR(st.st_mode);
    free(d);
    return ok;
}

/* Aliases for the quoted includes of the file given as `name`. */
static void alias_includes(const el_changeset *cs, unsaved *u, const char *name, const char *text,
                           size_t len, int depth)
{
    if (depth > 16)
        return;
    char *dir = el_path_dirname(name);
    for (size_t ls = 0; ls < len;) {
        size_t le = ls;
        while (le < len && text[le] != '\n')
            le++;
        char *spelled = quoted_include(text, le, ls);
        if (spelled && spelled[0] != '/') {
            char *lookup = el_xasprintf("%s/%s", strcmp(dir, "/") ? dir : "", spelled);
            char *norm = el_path_abs(lookup);
            size_t n = 0;
            const char *t = NULL;
            if (!el_strmap_get(&u->names, lookup) &&
                (strcmp(lookup, norm) != 0 || !dir_exists(lookup)) &&
                (t = content_after(cs, norm, u, &n))) {
                give(u, keep(u, lookup), t, n);
                lookup = NULL;
                alias_includes(cs, u, u->v[u->n - 1].Filename, t, n, depth + 1);
            }
            free(lookup);
            free(norm);
        }
        free(spelled);
        ls = le + 1;
    }
    free(dir);
}

static void unsaved_make(const el_changeset *cs, unsaved *u)
{
    memset(u, 0, sizeof *u);
    for (size_t i = 0; i < cs->n; i++) {
        size_t n = 0;
        const char *t = content_after(cs, cs->v[i].path, u, &n);
        give(u, cs->v[i].path, t ? t : "", n);
    }
    for (size_t i = 0; i < cs->n; i++)
        if (cs->v[i].kind != EL_CHANGE_DELETE)
            alias_includes(cs, u, cs->v[i].path, cs->v[i].new_text ? cs->v[i].new_text : "",
                           cs->v[i].new_len, 0);
}

static void unsaved_free(unsaved *u)
{
    for (size_t i = 0; i < u->n_owned; i++)
        free(u->owned[i]);
    free(u->owned);
    free(u->v);
    el_strmap_free(&u->names);
}

static void add_failure(el_verify_result *r, const char *display, const char *config,
                        const char *error, const char *where)
{
    el_grow(&r->v, &r->cap, r->n + 1, sizeof *r->v);
    el_verify_failure *f = &r->v[r->n++];
    f->display = el_xstrdup(display);
    f->config = el_xstrdup(config);
    f->error = el_xstrdup(error);
    f->where = where ? el_xstrdup(where) : NULL;
}

/* One unit in configuration k: 1 on a new error (added to out), else 0. */
static int verify_one(const el_verify_unit *x, const el_buildcfgs *cfgs, size_t k,
                      unsaved *u, char *const *extra, size_t n_extra, el_verify_result *out)
{
    el_source fallback = {0};
    const el_source *args = x->args;
    if (!args) {
        fallback.path = x->path;
        args = &fallback;
    }
    const el_compdb *db = cfgs ? cfgs->db[k] : NULL;
    el_errlist before = {0}, after = {0};
    if (x->before)
        el_reparse_errors_with(db, args, x->before, extra, n_extra, NULL, 0, true, &before);
    el_reparse_errors_with(db, args, x->path, extra, n_extra, u->v, (unsigned)u->n, true, &after);
    const char *bad = el_errlist_new_error(&before, &after);
    int rc = 0;
    if (bad) {
        char *name = cfgs && x->args ? el_buildcfg_name(cfgs, k, x->args) : el_xstrdup("");
        add_failure(out, x->display, name, bad, el_errlist_new_error_where(&before, &after));
        free(name);
        rc = 1;
    }
    el_errlist_free(&before);
    el_errlist_free(&after);
    return rc;
}

size_t el_verify(const el_changeset *cs, const el_verify_units *units, const el_buildcfgs *cfgs,
                 char *const *extra, size_t n_extra, el_verify_result *out)
{
    memset(out, 0, sizeof *out);
    unsaved u;
    unsaved_make(cs, &u);
    size_t n_cfg = cfgs ? cfgs->n : 1;
    for (size_t i = 0; i < units->n; i++) {
        const el_verify_unit *x = &units->v[i];
        for (size_t k = 0; k < n_cfg; k++) {
            /* a unit without a source of its own has the first configuration */
            if (x->args ? cfgs && !el_buildcfg_has(cfgs, k, x->args) : k > 0)
                continue;
            if (verify_one(x, cfgs, k, &u, extra, n_extra, out))
                break; /* one failure per unit is enough */
        }
    }
    unsaved_free(&u);
    return out->n;
}

char *el_verify_message(const el_verify_failure *f)
{
    /* the place, in the text as the change would leave it: a template's
     * rewrite that does not fit is found at once in the plan's diff */
    return el_xasprintf("%s: does not compile after the change%s%s%s: %s%s%s%s", f->display,
                        f->config[0] ? " (" : "", f->config, f->config[0] ? ")" : "", f->error,
                        f->where ? ", at " : "", f->where ? f->where : "",
                        f->where ? " of the changed text" : "");
}

void el_verify_result_free(el_verify_result *r)
{
    for (size_t i = 0; i < r->n; i++) {
        free(r->v[i].display);
        free(r->v[i].config);
        free(r->v[i].error);
        free(r->v[i].where);
    }
    free(r->v);
    memset(r, 0, sizeof *r);
}
