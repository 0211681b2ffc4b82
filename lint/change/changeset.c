/* lint/change/changeset.c -- a set of file changes (changeset.h): adding
 * changes, checking each against the file as it is, the diff.  Writing
 * the set is commit.c's. */
#include "changeset.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "diff.h"
#include "fileio.h"
#include "journal.h"
#include "mem.h"
#include "path.h"
#include "strbuf.h"

/* ---- the set ---- */

static char *display_of(const el_changeset *cs, const char *abs)
{
    char *d = el_path_under(abs, cs->root);
    return d ? d : el_xstrdup(abs);
}

static char *abs_of(const el_changeset *cs, const char *path)
{
    if (path[0] == '/')
        return el_path_abs(path);
    char *j = el_path_join(cs->root, path);
    char *a = el_path_abs(j);
    free(j);
    return a;
}

static void set_err(char **err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void set_err(char **err, const char *fmt, ...)
{
    if (!err)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        n = 0;
    char *s = el_xmalloc((size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    va_end(ap);
    *err = s;
}

void el_changeset_init(el_changeset *cs, const char *root)
{
    memset(cs, 0, sizeof *cs);
    cs->root = el_path_abs(root && *root ? root : ".");
}

void el_changeset_bound(el_changeset *cs, const el_bounds *b)
{
    el_bounds_free(&cs->bounds);
    el_bounds_copy(&cs->bounds, b);
}

el_change *el_changeset_find(el_changeset *cs, const char *path)
{
    char *abs = abs_of(cs, path);
    el_change *r = NULL;
    for (size_t i = 0; i < cs->n && !r; i++)
        if (strcmp(cs->v[i].path, abs) == 0)
            r = &cs->v[i];
    free(abs);
    return r;
}

void el_changeset_drop(el_changeset *cs, const char *path)
{
    el_change *c = el_changeset_find(cs, path);
    if (!c)
        return;
    free(c->path);
    free(c->display);
    free(c->old_text);
    free(c->new_text);
    free(c->moved_from);
    size_t i = (size_t)(c - cs->v);
    memmove(c, c + 1, (cs->n - i - 1) * sizeof *c);
    cs->n--;
}

static el_change *add(el_changeset *cs, el_change_kind kind, char *abs)
{
    el_grow(&cs->v, &cs->cap, cs->n + 1, sizeof *cs->v);
    el_change *c = &cs->v[cs->n++];
    memset(c, 0, sizeof *c);
    c->kind = kind;
    c->path = abs;
    c->display = display_of(cs, abs);
    return c;
}

/* May the set change abs?  Inside its bounds (bounds.h), and not a file
 * with a second name (renaming over one of them would split them). */
static int writable_here(el_changeset *cs, const char *abs, char **err)
{
    if ((cs->bounds.n || cs->bounds.set) && !el_bounds_contain(&cs->bounds, abs)) {
        char *disp = display_of(cs, abs);
        char *real = el_path_real(abs);
        set_err(err, "%s: lies outside the tree given (%s%s); it is never written, moved or "
                     "deleted", disp, real ? "it is " : "", real ? real : "its directory is elsewhere");
        free(real);
        free(disp);
        return -1;
    }
    return 0;
}

/* A name beside abs that is another link of it (st) and a temporary of
 * an interrupted commit whose journal is still there (el_journal_owning):
 * that name, with the journal in *journal and *is_new; or NULL.  Any
 * other `.BASE.el-*` (an older version's leftover, the user's own link)
 * is not one. */
static char *interrupted_copy(const char *abs, const struct stat *st, char **journal, bool *is_new)
{
    char *dir = el_path_dirname(abs);
    char *found = NULL;
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && !found && (e = readdir(d))) {
        char *j = el_journal_owning(abs, e->d_name, is_new);
        if (!j)
            continue;
        char *p = el_path_join(dir, e->d_name);
        struct stat o;
        if (lstat(p, &o) == 0 && o.st_dev == st->st_dev && o.st_ino == st->st_ino) {
            found = p;
            *journal = j;
        } else {
            free(p);
            free(j);
        }
    }
    if (d)
        closedir(d);
    free(dir);
    return found;
}

int el_changeset_check_links(const el_changeset *cs, const char *abs, char **err)
{
    struct stat st;
    if (lstat(abs, &st) != 0 || !S_ISREG(st.st_mode) || st.st_nlink <= 1)
        return 0;
    char *disp = display_of(cs, abs);
    char *journal = NULL;
    bool is_new = false;
    char *copy = interrupted_copy(abs, &st, &journal, &is_new);
    if (copy) {
        /* Not the user's link: the interrupted run's journal (above this
         * run's PATHs, or naming files outside them) still holds it.
         * Copying the file away, as said below, would hide that run's
         * state; a run given the journal's trees resolves it. */
        char *shown = display_of(cs, copy), *jshown = el_path_display(journal);
        size_t n_trees = 0;
        char **trees = el_journal_trees(journal, &n_trees);
        el_buf t = {0};
        for (size_t i = 0; i < n_trees; i++) {
            char *d = el_path_display(trees[i]);
            el_buf_printf(&t, " %s", d);
            free(d);
            free(trees[i]);
        }
        free(trees);
        const char *dirs = el_buf_str(&t);
        set_err(err, "%s: has %ju hard links; %s %s, is %s an interrupted run left (its journal "
                     "%s is still there); complete or undo that run first: run "
                     "'ember-migrate apply%s' or 'emberlint --fix%s' (PATH%s: the director%s "
                     "that run wrote its journal into); not changed",
                disp, (uintmax_t)st.st_nlink, st.st_nlink == 2 ? "the other one," : "one of the others,",
                shown, is_new ? "the new content of a file" : "the original of this file", jshown,
                dirs, dirs, n_trees == 1 ? "" : "s", n_trees == 1 ? "y" : "ies");
        el_buf_free(&t);
        free(jshown);
        free(shown);
        free(copy);
        free(journal);
    } else {
        set_err(err, "%s: has %ju hard links; replacing it would split them, so it is not changed "
                     "(give it a content of its own first: cp %s x && mv x %s)", disp,
                (uintmax_t)st.st_nlink, disp, disp);
    }
    free(disp);
    return -1;
}

/* Read a file about to be modified or deleted, checking `expected`. */
static int read_current(el_changeset *cs, const char *abs, const el_hash128 *expected,
                        char **text, size_t *len, mode_t *mode, char **err)
{
    if (writable_here(cs, abs, err) < 0 || el_changeset_check_links(cs, abs, err) < 0)
        return -1;
    char *disp = display_of(cs, abs);
    struct stat st;
    int e = lstat(abs, &st) != 0 ? errno : 0;
    if (!e && S_ISLNK(st.st_mode)) {
        set_err(err, "%s: is a symbolic link; not changed", disp);
        free(disp);
        return -1;
    }
    if (!e)
        e = el_read_file(abs, text, len, mode, NULL);
    if (e) {
        set_err(err, "%s: cannot read: %s", disp, el_read_reason(e));
        free(disp);
        return -1;
    }
    if (expected && !el_hash_eq(el_hash_bytes(*text, *len), *expected)) {
        set_err(err, "%s: changed since it was analyzed; nothing was written", disp);
        free(*text);
        free(disp);
        return -1;
    }
    free(disp);
    return 0;
}

/* Add a change of an existing file (MODIFY or DELETE) with its current
 * content; NULL with *err when it cannot be read or is not as expected. */
static el_change *add_existing(el_changeset *cs, el_change_kind kind, const char *path,
                               const el_hash128 *expected, char **err)
{
    char *abs = abs_of(cs, path);
    char *old;
    size_t old_len;
    mode_t mode;
    if (read_current(cs, abs, expected, &old, &old_len, &mode, err) != 0) {
        free(abs);
        return NULL;
    }
    el_change *c = add(cs, kind, abs);
    c->check_hash = expected != NULL;
    c->expected = expected ? *expected : el_hash_bytes(old, old_len);
    c->old_text = old;
    c->old_len = old_len;
    c->mode = mode;
    return c;
}

int el_changeset_modify(el_changeset *cs, const char *path, const el_hash128 *expected,
                        const char *new_text, size_t new_len, char **err)
{
    el_change *c = el_changeset_find(cs, path);
    if (c) {
        /* A second change of a file in the set builds on the first. */
        if (c->kind == EL_CHANGE_DELETE) {
            set_err(err, "%s: is deleted in this change set", c->display);
            return -1;
        }
        if (expected && !el_hash_eq(el_hash_bytes(c->new_text, c->new_len), *expected)) {
            set_err(err, "%s: changed since it was analyzed; nothing was written", c->display);
            return -1;
        }
        free(c->new_text);
        c->new_text = el_xstrndup(new_text, new_len);
        c->new_len = new_len;
        return 0;
    }
    c = add_existing(cs, EL_CHANGE_MODIFY, path, expected, err);
    if (!c)
        return -1;
    c->new_text = el_xstrndup(new_text, new_len);
    c->new_len = new_len;
    return 0;
}

int el_changeset_create(el_changeset *cs, const char *path, const char *text, size_t len,
                        mode_t mode, char **err)
{
    el_change *c = el_changeset_find(cs, path);
    if (c) {
        set_err(err, "%s: already in the change set", c->display);
        return -1;
    }
    char *abs = abs_of(cs, path);
    if (writable_here(cs, abs, err) < 0) {
        free(abs);
        return -1;
    }
    struct stat st;
    if (lstat(abs, &st) == 0) {
        char *disp = display_of(cs, abs);
        set_err(err, "%s: already exists", disp);
        free(disp);
        free(abs);
        return -1;
    }
    c = add(cs, EL_CHANGE_CREATE, abs);
    c->new_text = el_xstrndup(text, len);
    c->new_len = len;
    c->mode = (mode & 07777) ? (mode & 07777) : 0644;
    return 0;
}

int el_changeset_delete(el_changeset *cs, const char *path, const el_hash128 *expected,
                        char **err)
{
    el_change *c = el_changeset_find(cs, path);
    if (c) {
        set_err(err, "%s: already in the change set", c->display);
        return -1;
    }
    return add_existing(cs, EL_CHANGE_DELETE, path, expected, err) ? 0 : -1;
}

/* Is a inside b (or b itself)? */
static bool is_within(const char *a, const char *b)
{
    char *rel = el_path_under(a, b);
    free(rel);
    return rel != NULL;
}

void el_changeset_rmdir_upto(el_changeset *cs, const char *dir, const char *stop)
{
    char *abs = abs_of(cs, dir);
    char *st = stop ? abs_of(cs, stop) : NULL;
    for (size_t i = 0; i < cs->n_rmdirs; i++) {
        el_rmdir *r = &cs->rmdirs[i];
        if (strcmp(r->dir, abs) != 0)
            continue;
        /* asked twice: the nearer stop wins (never climb further than asked) */
        const char *cur = r->stop ? r->stop : cs->root;
        if (st && strcmp(st, cur) != 0 && is_within(st, cur)) {
            free(r->stop);
            r->stop = st;
            st = NULL;
        }
        free(st);
        free(abs);
        return;
    }
    el_grow(&cs->rmdirs, &cs->cap_rmdirs, cs->n_rmdirs + 1, sizeof *cs->rmdirs);
    cs->rmdirs[cs->n_rmdirs++] = (el_rmdir){abs, st};
}

int el_changeset_move(el_changeset *cs, const char *from, const char *to, const char *new_text,
                      size_t new_len, const el_hash128 *expected, char **err)
{
    if (el_changeset_delete(cs, from, expected, err) != 0)
        return -1;
    size_t di = cs->n - 1;   /* an index: create may move the array */
    mode_t mode = cs->v[di].mode;
    if (el_changeset_create(cs, to, new_text, new_len, mode, err) != 0) {
        /* take the delete back: nothing recorded */
        el_change *d = &cs->v[di];
        free(d->path);
        free(d->display);
        free(d->old_text);
        cs->n = di;
        return -1;
    }
    el_change *c = &cs->v[cs->n - 1];
    c->moved_from = el_xstrdup(cs->v[di].path);
    c->mode = mode;   /* also when from's mode is 0 */
    return 0;
}

bool el_change_is_noop(const el_change *c)
{
    return c->kind == EL_CHANGE_MODIFY &&
           el_same_bytes(c->old_text, c->old_len, c->new_text, c->new_len);
}

bool el_changeset_empty(const el_changeset *cs)
{
    for (size_t i = 0; i < cs->n; i++)
        if (!el_change_is_noop(&cs->v[i]))
            return false;
    return true;
}

static int cmp_display(const void *a, const void *b)
{
    const el_change *const *x = a, *const *y = b;
    return strcmp((*x)->display, (*y)->display);
}

/* The DELETE a move's CREATE takes its content from. */
static const el_change *move_source(const el_changeset *cs, const el_change *c)
{
    if (c->kind != EL_CHANGE_CREATE || !c->moved_from)
        return NULL;
    for (size_t i = 0; i < cs->n; i++)
        if (cs->v[i].kind == EL_CHANGE_DELETE && strcmp(cs->v[i].path, c->moved_from) == 0)
            return &cs->v[i];
    return NULL;
}

/* Is this DELETE the source of a move (diffed with its CREATE)? */
static bool moved_away(const el_changeset *cs, const el_change *d)
{
    for (size_t i = 0; i < cs->n; i++)
        if (move_source(cs, &cs->v[i]) == d)
            return true;
    return false;
}

int el_changeset_diff(const el_changeset *cs, FILE *out)
{
    const el_change **order = el_xmalloc((cs->n ? cs->n : 1) * sizeof *order);
    for (size_t i = 0; i < cs->n; i++)
        order[i] = &cs->v[i];
    qsort(order, cs->n, sizeof *order, cmp_display);
    int rc = 0;
    for (size_t i = 0; i < cs->n && rc == 0; i++) {
        const el_change *c = order[i];
        const el_change *src = move_source(cs, c);
        switch (c->kind) {
        case EL_CHANGE_MODIFY:
            rc = el_diff_write(out, c->display, c->old_text, c->old_len, c->new_text, c->new_len,
                               c->mode);
            break;
        case EL_CHANGE_CREATE:
            if (src)
                rc = el_diff_write_rename(out, src->display, c->display, src->old_text,
                                          src->old_len, c->new_text, c->new_len, src->mode,
                                          c->mode);
            else
                rc = el_diff_write(out, c->display, NULL, 0, c->new_text, c->new_len, c->mode);
            break;
        case EL_CHANGE_DELETE:
            if (!moved_away(cs, c))
                rc = el_diff_write(out, c->display, c->old_text, c->old_len, NULL, 0, c->mode);
            break;
        }
    }
    free(order);
    return rc;
}
