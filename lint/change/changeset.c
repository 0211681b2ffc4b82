/* lint/change/changeset.c -- file changes written all or nothing (see
 * changeset.h).
 *
 * A commit runs in phases so that a failure can always be undone:
 *   verify   every file still has the content the plan was made from;
 *   prepare  directories for new files are made and every new content
 *            (and .orig backup) is written to a temporary file beside its
 *            target and fsync'd; a deleted file gets an empty placeholder
 *            to be renamed onto;
 *   install  per change: compare the target once more, keep a hard link
 *            to the original, rename the temporary over it;
 *   finish   only when every rename succeeded: drop the kept originals,
 *            remove emptied directories.
 * Each step that alters the file system is logged; on failure the log is
 * replayed backwards.  The log survives a successful commit so that
 * el_changeset_undo can put everything back. */
#include "changeset.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "diff.h"
#include "mem.h"
#include "path.h"
#include "strbuf.h"

/* ---- failure injection (tests only) ---- */

typedef struct inject {
    long fail_at;   /* the N-th counted write fails; 0: never */
    long count;
} inject;

static bool injected(inject *in)
{
    if (!in)
        return false;
    in->count++;
    return in->fail_at > 0 && in->count == in->fail_at;
}

/* ---- files ---- */

enum { NOT_REGULAR = -1 };

/* Read a regular file whole.  0, NOT_REGULAR, or an errno value. */
static int read_all(const char *path, char **data, size_t *len, mode_t *mode)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return errno;
    if (!S_ISREG(st.st_mode))
        return NOT_REGULAR;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return errno;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        int e = S_ISREG(st.st_mode) ? errno : NOT_REGULAR;
        close(fd);
        return e;
    }
    size_t cap = (size_t)st.st_size + 1, n = 0;
    char *buf = el_xmalloc(cap + 1);
    for (;;) {
        if (n == cap) {
            cap *= 2;
            buf = el_xrealloc(buf, cap + 1);
        }
        ssize_t r = read(fd, buf + n, cap - n);
        if (r < 0) {
            if (errno == EINTR)
                continue;
            int e = errno;
            free(buf);
            close(fd);
            return e;
        }
        if (r == 0)
            break;
        n += (size_t)r;
    }
    close(fd);
    buf[n] = '\0';
    *data = buf;
    *len = n;
    if (mode)
        *mode = st.st_mode & 07777;
    return 0;
}

static const char *reason(int e)
{
    return e == NOT_REGULAR ? "not a regular file" : strerror(e);
}

static bool same(const char *a, size_t alen, const char *b, size_t blen)
{
    return alen == blen && (alen == 0 || memcmp(a, b, alen) == 0);
}

/* Does the file still hold exactly `text`?  0 yes, EAGAIN no, else the
 * reason it cannot be read. */
static int holds(const char *path, const char *text, size_t len)
{
    char *now;
    size_t nlen;
    int e = read_all(path, &now, &nlen, NULL);
    if (e)
        return e;
    bool eq = same(now, nlen, text, len);
    free(now);
    return eq ? 0 : EAGAIN;
}

/* A new empty file beside target, ".NAME.el-TAG.XXXXXX": its open
 * descriptor (its name in *name), or -errno. */
static int open_sibling(const char *target, const char *tag, char **name)
{
    char *dir = el_path_dirname(target);
    char *t = el_xasprintf("%s/.%.200s.el-%s.XXXXXX", strcmp(dir, "/") ? dir : "",
                           el_path_base(target), tag);
    free(dir);
    int fd = mkstemp(t);
    if (fd < 0) {
        int e = errno;
        free(t);
        return -e;
    }
    *name = t;
    return fd;
}

/* Write data to a new temporary file beside target, with mode, flushed
 * to disk; its name in *tmp.  0 or errno; nothing is left on failure. */
static int write_temp(const char *target, const char *data, size_t len, mode_t mode, inject *in,
                      char **tmp)
{
    char *t;
    int fd = open_sibling(target, "tmp", &t);
    if (fd < 0)
        return -fd;
    int e = injected(in) ? EIO : 0;
    size_t off = 0;
    while (!e && off < len) {
        ssize_t w = write(fd, data + off, len - off);
        if (w < 0) {
            if (errno != EINTR)
                e = errno;
        } else {
            off += (size_t)w;
        }
    }
    if (!e && fchmod(fd, mode & 07777) != 0)
        e = errno;
    if (!e && fsync(fd) != 0)
        e = errno;
    if (close(fd) != 0 && !e)
        e = errno;
    if (e) {
        unlink(t);
        free(t);
        return e;
    }
    *tmp = t;
    return 0;
}

/* An empty placeholder beside target (a deleted file is renamed onto it,
 * which cannot clobber anything). */
static int make_placeholder(const char *target, char **out)
{
    int fd = open_sibling(target, "del", out);
    if (fd < 0)
        return -fd;
    close(fd);
    return 0;
}

/* A second name for target, so the original survives its replacement. */
static int link_aside(const char *target, char **aside)
{
    for (int tries = 0; tries < 100; tries++) {
        char *t;
        int fd = open_sibling(target, "old", &t);
        if (fd < 0)
            return -fd;
        close(fd);
        unlink(t);
        if (link(target, t) == 0) {
            *aside = t;
            return 0;
        }
        int e = errno;
        free(t);
        if (e != EEXIST)
            return e;
    }
    return EEXIST;
}

static int do_rename(const char *from, const char *to, inject *in)
{
    if (injected(in))
        return EIO;
    return rename(from, to) == 0 ? 0 : errno;
}

/* Give the temporary tmp the name target, which must not exist. */
static int place_new(const char *tmp, const char *target, inject *in)
{
    if (injected(in))
        return EIO;
    if (link(tmp, target) == 0) {
        unlink(tmp);
        return 0;
    }
    int e = errno;
    if (e == EEXIST)
        return e;
    /* No hard links on this file system: check, then rename. */
    struct stat st;
    if (lstat(target, &st) == 0)
        return EEXIST;
    return rename(tmp, target) == 0 ? 0 : errno;
}

/* Replace target's content by text (atomically, with mode); no injection:
 * used to put things back. */
static int write_back(const char *target, const char *text, size_t len, mode_t mode)
{
    char *tmp;
    int e = write_temp(target, text, len, mode, NULL, &tmp);
    if (e)
        return e;
    if (rename(tmp, target) != 0) {
        e = errno;
        unlink(tmp);
    }
    free(tmp);
    return e;
}

static void fsync_dir_of(const char *path)
{
    char *dir = el_path_dirname(path);
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        (void)fsync(fd);   /* best effort: not every file system can */
        close(fd);
    }
    free(dir);
}

/* ---- the undo log ---- */

typedef enum step_kind {
    S_TEMP,       /* a temporary file or placeholder, until used */
    S_DIR,        /* a directory made for a new file */
    S_PLACED,     /* a file that did not exist (created, or a new .orig) */
    S_REPLACED,   /* an existing file replaced; original linked at aside */
    S_ASIDE       /* a deleted file, renamed to aside */
} step_kind;

typedef struct step {
    step_kind kind;
    char *path;
    char *aside;          /* S_REPLACED (NULL: no link could be made), S_ASIDE */
    const char *old;      /* S_REPLACED without aside: the content to write back */
    size_t old_len;
    char *owned;          /* old, when this step owns it */
    mode_t mode;
    bool used;            /* S_TEMP: renamed into place */
    bool backup;          /* a .orig file */
} step;

typedef struct removed_dir {
    char *path;
    mode_t mode;
} removed_dir;

typedef struct undo_log {
    step *v;
    size_t n, cap;
    removed_dir *rm;      /* removed after the commit, in that order */
    size_t n_rm, cap_rm;
    bool *skip;           /* per change: nothing to write */
    size_t n_changes;     /* the set's size at the commit */
} undo_log;

static size_t log_add(undo_log *u, step_kind kind, const char *path)
{
    el_grow(&u->v, &u->cap, u->n + 1, sizeof *u->v);
    step *s = &u->v[u->n];
    memset(s, 0, sizeof *s);
    s->kind = kind;
    s->path = el_xstrdup(path);
    return u->n++;
}

static void log_free(undo_log *u)
{
    if (!u)
        return;
    for (size_t i = 0; i < u->n; i++) {
        free(u->v[i].path);
        free(u->v[i].aside);
        free(u->v[i].owned);
    }
    for (size_t i = 0; i < u->n_rm; i++)
        free(u->rm[i].path);
    free(u->v);
    free(u->rm);
    free(u->skip);
    free(u);
}

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

/* Hand msg over as *err (or drop it when err is NULL). */
static void give_msg(el_buf *msg, char **err)
{
    if (err)
        *err = el_buf_take(msg);
    else
        el_buf_free(msg);
}

void el_changeset_init(el_changeset *cs, const char *root)
{
    memset(cs, 0, sizeof *cs);
    cs->root = el_path_abs(root && *root ? root : ".");
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

/* Read a file about to be modified or deleted, checking `expected`. */
static int read_current(el_changeset *cs, const char *abs, const el_hash128 *expected,
                        char **text, size_t *len, mode_t *mode, char **err)
{
    char *disp = display_of(cs, abs);
    struct stat st;
    int e = lstat(abs, &st) != 0 ? errno : 0;
    if (!e && S_ISLNK(st.st_mode)) {
        set_err(err, "%s: is a symbolic link; not changed", disp);
        free(disp);
        return -1;
    }
    if (!e)
        e = read_all(abs, text, len, mode);
    if (e) {
        set_err(err, "%s: cannot read: %s", disp, reason(e));
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

static bool is_noop(const el_change *c)
{
    return c->kind == EL_CHANGE_MODIFY && same(c->old_text, c->old_len, c->new_text, c->new_len);
}

bool el_changeset_empty(const el_changeset *cs)
{
    for (size_t i = 0; i < cs->n; i++)
        if (!is_noop(&cs->v[i]))
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

/* ---- commit ---- */

/* Replay the log backwards.  Problems are appended to msg. */
static void rollback(undo_log *u, el_changeset *cs, el_buf *msg)
{
    for (size_t k = u->n; k-- > 0;) {
        step *s = &u->v[k];
        int e = 0;
        switch (s->kind) {
        case S_TEMP:
            if (!s->used)
                unlink(s->path);
            break;
        case S_DIR:
            rmdir(s->path);
            break;
        case S_PLACED:
            if (unlink(s->path) != 0 && errno != ENOENT)
                e = errno;
            break;
        case S_REPLACED:
            if (s->aside) {
                if (rename(s->aside, s->path) != 0)
                    e = errno;
            } else {
                e = write_back(s->path, s->old, s->old_len, s->mode);
            }
            break;
        case S_ASIDE:
            if (rename(s->aside, s->path) != 0)
                e = errno;
            break;
        }
        if (e) {
            char *disp = display_of(cs, s->path);
            el_buf_printf(msg, "; %s: could not be restored: %s", disp, strerror(e));
            if (s->aside) {
                char *ad = display_of(cs, s->aside);
                el_buf_printf(msg, " (the original is %s)", ad);
                free(ad);
                /* Keep it: it is the only copy. */
                free(s->aside);
                s->aside = NULL;
            }
            free(disp);
        }
    }
}

/* Make the missing directories above path, logging each. */
static int make_parents(undo_log *u, const char *path, char **failed)
{
    char *dir = el_path_dirname(path);
    struct stat st;
    if (lstat(dir, &st) == 0 || errno != ENOENT) {
        free(dir);
        return 0;   /* exists (or cannot tell): the temp file will say */
    }
    int e = make_parents(u, dir, failed);
    if (!e) {
        if (mkdir(dir, 0777) == 0) {
            log_add(u, S_DIR, dir);
        } else if (errno != EEXIST) {
            e = errno;
            *failed = el_xstrdup(dir);
        }
    }
    free(dir);
    return e;
}

/* Per change, what prepare made. */
typedef struct prep {
    size_t tmp;       /* step of the new content's temporary (MODIFY, CREATE) */
    size_t bak;       /* step of the .orig temporary, or (size_t)-1 */
    size_t hole;      /* DELETE: step of the placeholder */
} prep;

/* Rename temporary `tmp` onto target and log that as a step of `kind`
 * owning aside (the original's second name, or NULL), its index in *k;
 * on failure aside is dropped. */
static int rename_logged(undo_log *u, size_t tmp, const char *target, step_kind kind, char *aside,
                         inject *in, size_t *k)
{
    int e = do_rename(u->v[tmp].path, target, in);
    if (e) {
        if (aside)
            unlink(aside);
        free(aside);
        return e;
    }
    u->v[tmp].used = true;
    *k = log_add(u, kind, target);
    u->v[*k].aside = aside;
    return 0;
}

/* Install backup temporary `bak` as orig_path. */
static int install_backup(undo_log *u, size_t bak, const char *orig_path, inject *in)
{
    struct stat st;
    bool existed = lstat(orig_path, &st) == 0;
    if (existed && !S_ISREG(st.st_mode))
        return EEXIST;
    if (!existed)
        st.st_mode = 0;
    char *aside = NULL, *keep = NULL;
    size_t keep_len = 0;
    if (existed && link_aside(orig_path, &aside) != 0) {
        /* No second name possible: remember the old backup's content. */
        int e = read_all(orig_path, &keep, &keep_len, &st.st_mode);
        if (e)
            return e == NOT_REGULAR ? EEXIST : e;
    }
    size_t k;
    int e = rename_logged(u, bak, orig_path, existed ? S_REPLACED : S_PLACED, aside, in, &k);
    if (e) {
        free(keep);
        return e;
    }
    u->v[k].backup = true;
    u->v[k].owned = keep;
    u->v[k].old = keep;
    u->v[k].old_len = keep_len;
    u->v[k].mode = st.st_mode & 07777;
    return 0;
}

/* Replace the existing target c->path by temporary `tmp`. */
static int install_modify(undo_log *u, const el_change *c, size_t tmp, inject *in)
{
    char *aside = NULL;
    if (link_aside(c->path, &aside) != 0)
        aside = NULL;   /* undo will write the old content back instead */
    size_t k;
    int e = rename_logged(u, tmp, c->path, S_REPLACED, aside, in, &k);
    if (e)
        return e;
    u->v[k].old = c->old_text;
    u->v[k].old_len = c->old_len;
    u->v[k].mode = c->mode;
    return 0;
}

static void remove_empty_dirs(el_changeset *cs, undo_log *u)
{
    for (size_t i = 0; i < cs->n_rmdirs; i++) {
        const char *stop = cs->rmdirs[i].stop ? cs->rmdirs[i].stop : cs->root;
        char *cur = el_xstrdup(cs->rmdirs[i].dir);
        for (;;) {
            /* strictly inside stop, and not the current directory or
             * one above it (the user's shell stays somewhere real) */
            char *rel = el_path_under(cur, stop);
            bool inside = rel && strcmp(rel, ".") != 0 && !is_within(el_cwd(), cur);
            free(rel);
            struct stat st;
            if (!inside || lstat(cur, &st) != 0 || !S_ISDIR(st.st_mode) || rmdir(cur) != 0)
                break;
            el_grow(&u->rm, &u->cap_rm, u->n_rm + 1, sizeof *u->rm);
            u->rm[u->n_rm].path = el_xstrdup(cur);
            u->rm[u->n_rm].mode = st.st_mode & 07777;
            u->n_rm++;
            fsync_dir_of(cur);
            char *up = el_path_dirname(cur);
            free(cur);
            cur = up;
        }
        free(cur);
    }
}

static void touch_for_test(const char *path)
{
    int fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
    if (fd >= 0) {
        ssize_t w = write(fd, "\n", 1);
        (void)w;
        close(fd);
    }
}

/* Step 1: every file as the plan expects it. */
static int verify(el_changeset *cs, const bool *skip, char **err)
{
    for (size_t i = 0; i < cs->n; i++) {
        el_change *c = &cs->v[i];
        if (skip[i])
            continue;
        if (c->kind == EL_CHANGE_CREATE) {
            struct stat st;
            if (lstat(c->path, &st) == 0) {
                set_err(err, "%s: already exists; nothing was written", c->display);
                return -1;
            }
            continue;
        }
        char *now;
        size_t len;
        mode_t mode;
        int e = read_all(c->path, &now, &len, &mode);
        if (e) {
            set_err(err, "%s: cannot read: %s; nothing was written", c->display, reason(e));
            return -1;
        }
        bool eq = same(now, len, c->old_text, c->old_len);
        free(now);
        if (!eq) {
            set_err(err, "%s: changed since it was read; nothing was written", c->display);
            return -1;
        }
        /* Renaming over a file needs only its directory writable, so a
         * read-only file would be replaced silently (and root may write
         * anything): its permission bits say it must not change. */
        if ((mode & 0222) == 0 || access(c->path, W_OK) != 0) {
            set_err(err, "%s: is read-only; nothing was written", c->display);
            return -1;
        }
        c->mode = mode;   /* a chmod meanwhile is kept */
    }
    return 0;
}

/* Prepare: directories, temporaries, placeholders.  On failure *what and
 * *who describe it. */
static int prepare(el_changeset *cs, undo_log *u, prep *p, bool backup, inject *in, char **err)
{
    for (size_t i = 0; i < cs->n; i++) {
        el_change *c = &cs->v[i];
        p[i].tmp = p[i].bak = p[i].hole = (size_t)-1;
        if (u->skip[i])
            continue;
        char *tmp = NULL;
        int e = 0;
        if (c->kind == EL_CHANGE_CREATE) {
            char *failed = NULL;
            e = make_parents(u, c->path, &failed);
            if (e) {
                char *fd = display_of(cs, failed);
                set_err(err, "%s: cannot create directory %s: %s", c->display, fd, strerror(e));
                free(fd);
                free(failed);
                return -1;
            }
        }
        if (backup && c->kind != EL_CHANGE_CREATE) {
            e = write_temp(c->path, c->old_text, c->old_len, c->mode, in, &tmp);
            if (e) {
                set_err(err, "%s.orig: cannot write: %s", c->display, strerror(e));
                return -1;
            }
            p[i].bak = log_add(u, S_TEMP, tmp);
            free(tmp);
        }
        if (c->kind == EL_CHANGE_DELETE) {
            e = make_placeholder(c->path, &tmp);
            if (e) {
                set_err(err, "%s: cannot delete: %s", c->display, strerror(e));
                return -1;
            }
            p[i].hole = log_add(u, S_TEMP, tmp);
            free(tmp);
            continue;
        }
        e = write_temp(c->path, c->new_text, c->new_len, c->mode, in, &tmp);
        if (e) {
            set_err(err, "%s: cannot write: %s", c->display, strerror(e));
            return -1;
        }
        p[i].tmp = log_add(u, S_TEMP, tmp);
        free(tmp);
    }
    return 0;
}

/* Install every change; the target is compared once more right before. */
static int install(el_changeset *cs, undo_log *u, const prep *p, inject *in, char **err)
{
    for (size_t i = 0; i < cs->n; i++) {
        el_change *c = &cs->v[i];
        if (u->skip[i])
            continue;
        int e;
        if (c->kind == EL_CHANGE_CREATE) {
            e = place_new(u->v[p[i].tmp].path, c->path, in);
            if (e == EEXIST) {
                set_err(err, "%s: was created by another program meanwhile", c->display);
                return -1;
            }
            if (e) {
                set_err(err, "%s: cannot create: %s", c->display, strerror(e));
                return -1;
            }
            u->v[p[i].tmp].used = true;
            log_add(u, S_PLACED, c->path);
            continue;
        }
        e = holds(c->path, c->old_text, c->old_len);
        if (e == EAGAIN) {
            set_err(err, "%s: changed by another program while the changes were written",
                    c->display);
            return -1;
        }
        if (e) {
            set_err(err, "%s: cannot read: %s", c->display, reason(e));
            return -1;
        }
        if (p[i].bak != (size_t)-1) {
            char *orig = el_xasprintf("%s.orig", c->path);
            e = install_backup(u, p[i].bak, orig, in);
            free(orig);
            if (e) {
                set_err(err, "%s.orig: cannot write: %s", c->display,
                        e == EEXIST ? "exists and is not a regular file" : strerror(e));
                return -1;
            }
        }
        if (c->kind == EL_CHANGE_MODIFY) {
            e = install_modify(u, c, p[i].tmp, in);
            if (e) {
                set_err(err, "%s: cannot replace: %s", c->display, strerror(e));
                return -1;
            }
        } else {
            step *hole = &u->v[p[i].hole];
            e = do_rename(c->path, hole->path, in);
            if (e) {
                set_err(err, "%s: cannot delete: %s", c->display, strerror(e));
                return -1;
            }
            hole->used = true;
            size_t k = log_add(u, S_ASIDE, c->path);
            u->v[k].aside = el_xstrdup(u->v[p[i].hole].path);
        }
    }
    return 0;
}

static int commit(el_changeset *cs, bool backup, char **err)
{
    log_free(cs->undo);
    cs->undo = NULL;
    undo_log *u = el_xcalloc(1, sizeof *u);
    u->skip = el_xcalloc(cs->n ? cs->n : 1, sizeof *u->skip);
    u->n_changes = cs->n;
    for (size_t i = 0; i < cs->n; i++)
        u->skip[i] = is_noop(&cs->v[i]);

    inject in = {0, 0};
    const char *fw = getenv("EL_TEST_FAIL_WRITE");
    if (fw && *fw)
        in.fail_at = strtol(fw, NULL, 10);

    if (verify(cs, u->skip, err) != 0) {
        log_free(u);
        return -1;
    }
    const char *touch = getenv("EL_TEST_TOUCH_BEFORE_COMMIT");
    if (touch && *touch)
        touch_for_test(touch);

    prep *p = el_xcalloc(cs->n ? cs->n : 1, sizeof *p);
    char *why = NULL;
    if (prepare(cs, u, p, backup, &in, &why) != 0 || install(cs, u, p, &in, &why) != 0) {
        el_buf msg = {0};
        el_buf_puts(&msg, why);
        size_t before = msg.n;
        rollback(u, cs, &msg);
        if (msg.n == before)
            el_buf_puts(&msg, "; nothing was changed");
        free(why);
        free(p);
        log_free(u);
        give_msg(&msg, err);
        return -1;
    }
    free(p);

    /* Everything is in place: make it durable, drop the originals. */
    for (size_t i = 0; i < cs->n; i++)
        if (!u->skip[i])
            fsync_dir_of(cs->v[i].path);
    for (size_t k = 0; k < u->n; k++) {
        step *s = &u->v[k];
        if ((s->kind == S_REPLACED || s->kind == S_ASIDE) && s->aside) {
            /* an older .orig the backup replaced: keep its content, so
             * that el_changeset_undo can put it back */
            if (s->backup && s->kind == S_REPLACED && !s->owned) {
                mode_t mode = 0;
                if (read_all(s->aside, &s->owned, &s->old_len, &mode) == 0) {
                    s->old = s->owned;
                    s->mode = mode & 07777;
                } else {
                    s->owned = NULL;
                }
            }
            unlink(s->aside);
            free(s->aside);
            s->aside = NULL;
        }
        if (s->kind == S_TEMP && !s->used)
            unlink(s->path);   /* cannot happen; never leave one behind */
    }
    remove_empty_dirs(cs, u);
    cs->undo = u;
    return 0;
}

static int undo(el_changeset *cs, char **err)
{
    undo_log *u = cs->undo;
    if (!u) {
        set_err(err, "nothing to undo");
        return -1;
    }
    el_buf msg = {0};
    /* Directories removed after the commit, parents first. */
    for (size_t k = u->n_rm; k-- > 0;) {
        if (mkdir(u->rm[k].path, 0700) == 0)
            chmod(u->rm[k].path, u->rm[k].mode);
    }
    for (size_t i = u->n_changes; i-- > 0;) {
        el_change *c = &cs->v[i];
        if (u->skip[i])
            continue;
        int e = 0;
        const char *what = NULL;
        switch (c->kind) {
        case EL_CHANGE_MODIFY:
            e = holds(c->path, c->new_text, c->new_len);
            if (!e)
                e = write_back(c->path, c->old_text, c->old_len, c->mode);
            break;
        case EL_CHANGE_CREATE:
            e = holds(c->path, c->new_text, c->new_len);
            if (!e && unlink(c->path) != 0)
                e = errno;
            break;
        case EL_CHANGE_DELETE: {
            struct stat st;
            if (lstat(c->path, &st) == 0) {
                what = "exists again";
                break;
            }
            char *tmp;
            e = write_temp(c->path, c->old_text, c->old_len, c->mode, NULL, &tmp);
            if (!e) {
                e = place_new(tmp, c->path, NULL);
                if (e)
                    unlink(tmp);
                free(tmp);
            }
            break;
        }
        }
        if (e == EAGAIN)
            what = "changed since the commit";
        if (e || what)
            el_buf_printf(&msg, "%s%s: not restored: %s", msg.n ? "; " : "", c->display,
                          what ? what : reason(e));
        else
            fsync_dir_of(c->path);
    }
    for (size_t k = u->n; k-- > 0;) {
        step *s = &u->v[k];
        if (!s->backup)
            continue;
        if (s->kind == S_REPLACED && s->old) {   /* the older .orig comes back */
            if (write_back(s->path, s->old, s->old_len, s->mode) != 0)
                el_buf_printf(&msg, "%s%s: older backup not restored", msg.n ? "; " : "",
                              s->path);
        } else if (s->kind == S_PLACED || s->kind == S_REPLACED) {
            unlink(s->path);
        }
    }
    for (size_t k = u->n; k-- > 0;)
        if (u->v[k].kind == S_DIR)
            rmdir(u->v[k].path);
    log_free(u);
    cs->undo = NULL;
    if (msg.n) {
        give_msg(&msg, err);
        return -1;
    }
    return 0;
}

void el_changeset_free(el_changeset *cs)
{
    for (size_t i = 0; i < cs->n; i++) {
        free(cs->v[i].path);
        free(cs->v[i].display);
        free(cs->v[i].old_text);
        free(cs->v[i].new_text);
        free(cs->v[i].moved_from);
    }
    free(cs->v);
    for (size_t i = 0; i < cs->n_rmdirs; i++) {
        free(cs->rmdirs[i].dir);
        free(cs->rmdirs[i].stop);
    }
    free(cs->rmdirs);
    free(cs->root);
    log_free(cs->undo);
    memset(cs, 0, sizeof *cs);
}

/* ---- the public entry points: no interruption halfway ------------------ */

/* Ctrl-C (or a SIGTERM, SIGHUP, SIGQUIT) in the middle of a commit or an
 * undo would leave temporary files and a half-changed tree: such signals
 * are held until the set is complete or rolled back, then delivered. */
static void hold_signals(sigset_t *old)
{
    sigset_t s;
    sigemptyset(&s);
    sigaddset(&s, SIGINT);
    sigaddset(&s, SIGTERM);
    sigaddset(&s, SIGHUP);
    sigaddset(&s, SIGQUIT);
    pthread_sigmask(SIG_BLOCK, &s, old);
}

static void raise_for_test(void)
{
    const char *sig = getenv("EL_TEST_SIGNAL_DURING_COMMIT");
    if (sig && *sig)
        raise((int)strtol(sig, NULL, 10));
}

int el_changeset_commit(el_changeset *cs, bool backup, char **err)
{
    sigset_t old;
    hold_signals(&old);
    raise_for_test();
    int rc = commit(cs, backup, err);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return rc;
}

int el_changeset_undo(el_changeset *cs, char **err)
{
    sigset_t old;
    hold_signals(&old);
    int rc = undo(cs, err);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return rc;
}
