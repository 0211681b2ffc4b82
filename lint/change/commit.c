/* lint/change/commit.c -- writing a changeset all or nothing, and undoing
 * it (changeset.h).
 *
 *   check    every file as the plan expects it (content, permissions,
 *            links, bounds);
 *   journal  every step about to be taken, written into the tree first
 *            (journal.h), so that a kill at any later point is resolved
 *            by the next run;
 *   prepare  directories for new files, each new content in a temporary
 *            file beside its target (flushed), each original given a
 *            second name beside it (or a copy where links are not
 *            possible);
 *   install  per file: compare it once more, rename the temporary over
 *            it (a deleted file is unlinked);
 *   finish   second names, emptied directories, then the journal go.
 * A failure in prepare or install is rolled back from the journal. */
#include "changeset.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fileio.h"
#include "inject.h"
#include "journal.h"
#include "mem.h"
#include "path.h"
#include "progname.h"
#include "strbuf.h"

/* One file the commit writes: a change, or the .orig backup of one. */
typedef struct op {
    el_jop_kind kind;
    char *path;
    char *display;
    const char *old_text;   /* MODIFY, DELETE */
    size_t old_len;
    char *own_old;          /* an older .orig's content */
    const char *new_text;   /* MODIFY, CREATE */
    size_t new_len;
    mode_t mode;            /* of the new content */
    mode_t old_mode;        /* of the old content (MODIFY, DELETE) */
} op;

/* What a commit did, kept for el_changeset_undo. */
typedef struct done {
    op *ops;
    size_t n;
    char **made;
    size_t n_made;
    char **removed;         /* directories removed when emptied, in that order */
    mode_t *modes;
    size_t n_removed;
} done;

static void free_ops(op *ops, size_t n)
{
    for (size_t i = 0; ops && i < n; i++) {
        free(ops[i].path);
        free(ops[i].display);
        free(ops[i].own_old);
    }
    free(ops);
}

static void done_free(done *d)
{
    if (!d)
        return;
    free_ops(d->ops, d->n);
    for (size_t i = 0; i < d->n_made; i++)
        free(d->made[i]);
    free(d->made);
    for (size_t i = 0; i < d->n_removed; i++)
        free(d->removed[i]);
    free(d->removed);
    free(d->modes);
    free(d);
}

void el_changeset_forget(el_changeset *cs)
{
    done_free(cs->undo);
    cs->undo = NULL;
}

static char *msg(const char *fmt, const char *display, const char *why)
{
    return el_xasprintf(fmt, display, why);
}

/* The set and the record of its last commit (here, so that the set's own
 * file never calls the commit's). */
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
    el_changeset_forget(cs); /* the commit's record: freed here, where it is made */
    el_bounds_free(&cs->bounds);
    memset(cs, 0, sizeof *cs);
}

/* ---- check ---------------------------------------------------------------- */

static char *hard_links(const char *display, nlink_t n)
{
    return el_xasprintf("%s: has %ju hard links; replacing it would split them; nothing was "
                        "written", display, (uintmax_t)n);
}

static int check_change(el_changeset *cs, el_change *c, bool backup, char **err)
{
    if ((cs->bounds.n || cs->bounds.set) && !el_bounds_contain(&cs->bounds, c->path)) {
        *err = msg("%s: lies outside the tree given%s; nothing was written", c->display, "");
        return -1;
    }
    struct stat st;
    if (c->kind == EL_CHANGE_CREATE) {
        if (lstat(c->path, &st) == 0) {
            *err = msg("%s: already exists%s; nothing was written", c->display, "");
            return -1;
        }
        return 0;
    }
    char *now;
    size_t len;
    mode_t mode;
    nlink_t links;
    int e = el_read_file(c->path, &now, &len, &mode, &links);
    if (e) {
        *err = msg("%s: cannot read: %s; nothing was written", c->display, el_read_reason(e));
        return -1;
    }
    bool eq = el_same_bytes(now, len, c->old_text, c->old_len);
    free(now);
    if (!eq) {
        *err = msg("%s: changed since it was read%s; nothing was written", c->display, "");
        return -1;
    }
    /* Renaming over a file needs only its directory writable, so a
     * read-only file would be replaced silently (and root may write
     * anything): its permission bits say it must not change. */
    if ((mode & 0222) == 0 || access(c->path, W_OK) != 0) {
        *err = msg("%s: is read-only%s; nothing was written", c->display, "");
        return -1;
    }
    if (links > 1) {
        *err = hard_links(c->display, links);
        return -1;
    }
    c->mode = mode; /* a chmod meanwhile is kept */
    if (backup) {
        char *orig = el_xasprintf("%s.orig", c->path);
        bool bad = lstat(orig, &st) == 0 && (!S_ISREG(st.st_mode) || st.st_nlink > 1);
        free(orig);
        if (bad) {
            *err = msg("%s.orig: exists and is not a regular file of its own%s; nothing was "
                       "written", c->display, "");
            return -1;
        }
    }
    return 0;
}

/* ---- the ops ---------------------------------------------------------------- */

static op *add_op(op **v, size_t *n, size_t *cap, el_jop_kind kind, const char *path,
                  const char *display)
{
    el_grow(v, cap, *n + 1, sizeof **v);
    op *o = &(*v)[(*n)++];
    memset(o, 0, sizeof *o);
    o->kind = kind;
    o->path = el_xstrdup(path);
    o->display = el_xstrdup(display);
    return o;
}

/* The files the commit writes, backups before the change they keep. */
static int make_ops(el_changeset *cs, bool backup, op **out, size_t *n_out, char **err)
{
    op *v = NULL;
    size_t n = 0, cap = 0;
    for (size_t i = 0; i < cs->n; i++) {
        el_change *c = &cs->v[i];
        if (el_change_is_noop(c))
            continue;
        if (backup && c->kind != EL_CHANGE_CREATE) {
            char *orig = el_xasprintf("%s.orig", c->path);
            char *disp = el_xasprintf("%s.orig", c->display);
            char *older = NULL;
            size_t older_len = 0;
            mode_t older_mode = 0;
            int e = el_read_file(orig, &older, &older_len, &older_mode, NULL);
            op *o = add_op(&v, &n, &cap, e ? EL_JOP_CREATE : EL_JOP_MODIFY, orig, disp);
            if (!e) {
                o->own_old = older;
                o->old_text = older;
                o->old_len = older_len;
                o->old_mode = older_mode;
            } else if (e != ENOENT) {
                *err = msg("%s: cannot read: %s; nothing was written", disp, el_read_reason(e));
                free(orig);
                free(disp);
                *out = v;
                *n_out = n;
                return -1;
            }
            o->new_text = c->old_text;
            o->new_len = c->old_len;
            o->mode = c->mode;
            free(orig);
            free(disp);
        }
        el_jop_kind k = c->kind == EL_CHANGE_MODIFY   ? EL_JOP_MODIFY
                        : c->kind == EL_CHANGE_CREATE ? EL_JOP_CREATE
                                                      : EL_JOP_DELETE;
        op *o = add_op(&v, &n, &cap, k, c->path, c->display);
        o->old_text = c->old_text;
        o->old_len = c->old_len;
        o->new_text = c->new_text;
        o->new_len = c->new_len;
        o->mode = o->old_mode = c->mode;
    }
    *out = v;
    *n_out = n;
    return 0;
}

/* ---- the journal ------------------------------------------------------------ */

static bool exists(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0;
}

/* The missing directories above path, parents first. */
static void add_missing_dirs(el_journal *j, const char *path)
{
    char *dir = el_path_dirname(path);
    if (!exists(dir) && strcmp(dir, path) != 0) {
        add_missing_dirs(j, dir);
        bool dup = false;
        for (size_t i = 0; i < j->n_made && !dup; i++)
            dup = !strcmp(j->made[i], dir);
        if (!dup)
            el_journal_add_made(j, dir);
    }
    free(dir);
}

/* Could removing emptied directories take dir?  (It lies strictly inside
 * the stop of a removal starting at or below it.) */
static bool removable(const el_changeset *cs, const char *dir)
{
    for (size_t i = 0; i < cs->n_rmdirs; i++) {
        const char *stop = cs->rmdirs[i].stop ? cs->rmdirs[i].stop : cs->root;
        char *below = el_path_under(cs->rmdirs[i].dir, dir);
        char *inside = el_path_under(dir, stop);
        bool r = below && inside && strcmp(inside, ".") != 0;
        free(below);
        free(inside);
        if (r)
            return true;
    }
    return false;
}

/* Where a journal copy goes for path: the root of the bounds holding it,
 * else the set's root when it holds it, else its nearest existing
 * directory. */
static char *journal_dir(const el_changeset *cs, const char *path)
{
    if (cs->bounds.n) {
        const char *r = el_bounds_root_of(&cs->bounds, path);
        if (r)
            return el_xstrdup(r);
    }
    char *rel = el_path_under(path, cs->root);
    free(rel);
    if (rel)
        return el_xstrdup(cs->root);
    /* its nearest existing directory that no removal of emptied
     * directories can take */
    char *dir = el_path_dirname(path);
    while (strcmp(dir, "/") != 0 && (!exists(dir) || removable(cs, dir))) {
        char *up = el_path_dirname(dir);
        free(dir);
        dir = up;
    }
    return dir;
}

static int make_journal(el_changeset *cs, const op *ops, size_t n, el_journal *j, char **err)
{
    el_journal_init(j);
    for (size_t i = 0; i < n; i++) {
        el_jop *o = el_journal_add(j, ops[i].kind, ops[i].path);
        o->mode = ops[i].mode;
        if (ops[i].kind != EL_JOP_CREATE)
            o->old_hash = el_hash_bytes(ops[i].old_text, ops[i].old_len);
        if (ops[i].kind != EL_JOP_DELETE)
            o->new_hash = el_hash_bytes(ops[i].new_text, ops[i].new_len);
        if ((o->tmp && exists(o->tmp)) || (o->aside && exists(o->aside))) {
            *err = msg("%s: a temporary name of this run exists already%s; nothing was written",
                       ops[i].display, "");
            return -1;
        }
        if (ops[i].kind == EL_JOP_CREATE)
            add_missing_dirs(j, ops[i].path);
        char *jd = journal_dir(cs, ops[i].path);
        el_journal_add_copy(j, jd);
        free(jd);
    }
    for (size_t i = 0; i < cs->n_rmdirs; i++)
        el_journal_add_rmdir(j, cs->rmdirs[i].dir, cs->rmdirs[i].stop ? cs->rmdirs[i].stop
                                                                      : cs->root);
    int e = el_journal_write(j);
    if (e) {
        char *d = el_path_display(j->copies[0]);
        *err = msg("%s: cannot write the journal of the changes: %s; nothing was changed", d,
                   strerror(e));
        free(d);
        return -1;
    }
    return 0;
}

/* ---- prepare and install ------------------------------------------------------ */

static int write_temp(const char *path, const char *text, size_t len, mode_t mode)
{
    el_inject_step();
    if (el_inject_write_fails())
        return EIO;
    return el_write_new(path, text, len, mode);
}

/* The original's second name: a hard link, or a copy where the file
 * system has none. */
static int keep_original(const el_jop *jo, const op *o)
{
    el_inject_step();
    if (link(o->path, jo->aside) == 0)
        return 0;
    if (errno == EEXIST)
        return EEXIST;
    return el_write_new(jo->aside, o->old_text, o->old_len, o->old_mode);
}

/* The first op creating a file below directory dir. */
static const op *creator_of(const op *ops, size_t n, const char *dir)
{
    for (size_t i = 0; i < n; i++) {
        char *rel = ops[i].kind == EL_JOP_CREATE ? el_path_under(ops[i].path, dir) : NULL;
        free(rel);
        if (rel)
            return &ops[i];
    }
    return &ops[0];
}

static int prepare(const el_journal *j, const op *ops, size_t n, char **err)
{
    for (size_t i = 0; i < j->n_made; i++) {
        el_inject_step();
        if (mkdir(j->made[i], 0777) != 0 && errno != EEXIST) {
            int e = errno;
            char *d = el_path_display(j->made[i]);
            *err = el_xasprintf("%s: cannot create directory %s: %s",
                                creator_of(ops, n, j->made[i])->display, d, strerror(e));
            free(d);
            return -1;
        }
    }
    for (size_t i = 0; i < n; i++) {
        const el_jop *jo = &j->ops[i];
        int e = 0;
        if (jo->tmp)
            e = write_temp(jo->tmp, ops[i].new_text ? ops[i].new_text : "", ops[i].new_len,
                           ops[i].mode);
        if (!e && jo->aside)
            e = keep_original(jo, &ops[i]);
        if (e) {
            *err = msg("%s: cannot write: %s", ops[i].display, strerror(e));
            return -1;
        }
    }
    return 0;
}

/* Install op i; 0, or -1 with *err. */
static int install_one(const el_jop *jo, const op *o, char **err)
{
    el_inject_step();
    if (jo->kind == EL_JOP_CREATE) {
        if (exists(o->path)) {
            *err = msg("%s: was created by another program meanwhile%s", o->display, "");
            return -1;
        }
        int e = el_inject_write_fails() ? EIO : 0;
        if (!e && link(jo->tmp, o->path) == 0) {
            unlink(jo->tmp);
        } else if (!e) {
            e = errno;
            /* no hard links on this file system: check, then rename */
            if (e != EEXIST && !exists(o->path))
                e = rename(jo->tmp, o->path) == 0 ? 0 : errno;
        }
        if (e) {
            *err = msg("%s: cannot create: %s", o->display,
                       e == EEXIST ? "it was created by another program meanwhile" : strerror(e));
            return -1;
        }
        return 0;
    }
    int e = el_file_holds(o->path, o->old_text, o->old_len);
    if (e == EAGAIN) {
        *err = msg("%s: changed by another program while the changes were written%s", o->display,
                   "");
        return -1;
    }
    if (e) {
        *err = msg("%s: cannot read: %s", o->display, el_read_reason(e));
        return -1;
    }
    if (el_inject_write_fails())
        e = EIO;
    else if (jo->kind == EL_JOP_MODIFY)
        e = rename(jo->tmp, o->path) == 0 ? 0 : errno;
    else
        e = unlink(o->path) == 0 ? 0 : errno;
    if (e) {
        *err = msg(jo->kind == EL_JOP_MODIFY ? "%s: cannot replace: %s" : "%s: cannot delete: %s",
                   o->display, strerror(e));
        return -1;
    }
    return 0;
}

static void touch_for_test(void)
{
    const char *path = getenv("EL_TEST_TOUCH_BEFORE_COMMIT");
    if (!path || !*path)
        return;
    FILE *f = fopen(path, "a");
    if (f) {
        fputc('\n', f);
        fclose(f);
    }
}

/* ---- the commit ------------------------------------------------------------------ */

static int commit(el_changeset *cs, bool backup, char **err)
{
    el_changeset_forget(cs);
    for (size_t i = 0; i < cs->n; i++)
        if (!el_change_is_noop(&cs->v[i]) && check_change(cs, &cs->v[i], backup, err) < 0)
            return -1;
    op *ops = NULL;
    size_t n = 0;
    if (make_ops(cs, backup, &ops, &n, err) < 0) {
        free_ops(ops, n);
        return -1;
    }
    touch_for_test();
    for (size_t i = 0; i < n; i++)
        el_journal_sweep_beside(ops[i].path);

    el_journal j;
    int rc = 0;
    char *why = NULL;
    size_t installed = 0; /* ops [0, installed) are in place */
    if (make_journal(cs, ops, n, &j, &why) < 0) {
        rc = -1;
        *err = why;
        why = NULL;
    } else if (prepare(&j, ops, n, &why) < 0) {
        rc = -1;
    } else {
        while (installed < n && rc == 0) {
            if (install_one(&j.ops[installed], &ops[installed], &why) < 0)
                rc = -1;
            else
                installed++;
        }
    }
    if (rc < 0 && why) {
        /* undo what was done (the op that failed did not happen) */
        el_buf m = {0};
        el_buf_puts(&m, why);
        size_t before = m.n;
        el_journal_rollback(&j, installed, &m);
        if (m.n == before) {
            el_journal_remove(&j);
            el_buf_puts(&m, "; nothing was changed");
        } else {
            char *d = el_path_display(j.copies[0]);
            el_buf_printf(&m, " (the journal %s keeps the record)", d);
            free(d);
        }
        free(why);
        *err = el_buf_take(&m);
    }
    if (rc == 0) {
        for (size_t i = 0; i < n; i++)
            el_fsync_dir_of(ops[i].path);
        done *d = el_xcalloc(1, sizeof *d);
        el_journal_finish(&j, &d->removed, &d->modes, &d->n_removed);
        d->ops = ops;
        d->n = n;
        d->made = j.made;
        d->n_made = j.n_made;
        j.made = NULL;
        j.n_made = 0;
        cs->undo = d;
        ops = NULL;
    }
    el_journal_free(&j);
    free_ops(ops, n);
    return rc;
}

/* ---- undo after a successful commit ---------------------------------------------- */

/* Replace target's content by text (atomically, with mode). */
static int write_back(const char *target, const char *text, size_t len, mode_t mode)
{
    char *tmp = el_xasprintf("%s.el-undo.%ld", target, (long)getpid());
    int e = el_write_new(tmp, text, len, mode);
    if (!e && rename(tmp, target) != 0) {
        e = errno;
        unlink(tmp);
    }
    free(tmp);
    return e;
}

static int undo(el_changeset *cs, char **err)
{
    done *d = cs->undo;
    if (!d) {
        *err = el_xstrdup("nothing to undo");
        return -1;
    }
    el_buf m = {0};
    /* directories removed after the commit, parents first */
    for (size_t k = d->n_removed; k-- > 0;)
        if (mkdir(d->removed[k], 0700) == 0)
            chmod(d->removed[k], d->modes[k]);
    for (size_t i = d->n; i-- > 0;) {
        const op *o = &d->ops[i];
        int e = 0;
        const char *what = NULL;
        switch (o->kind) {
        case EL_JOP_MODIFY:
            e = el_file_holds(o->path, o->new_text, o->new_len);
            if (!e)
                e = write_back(o->path, o->old_text, o->old_len, o->old_mode);
            break;
        case EL_JOP_CREATE:
            e = el_file_holds(o->path, o->new_text, o->new_len);
            if (!e && unlink(o->path) != 0)
                e = errno;
            break;
        case EL_JOP_DELETE:
            if (exists(o->path))
                what = "exists again";
            else
                e = el_write_new(o->path, o->old_text, o->old_len, o->old_mode);
            break;
        }
        if (e == EAGAIN)
            what = "changed since the commit";
        if (e || what)
            el_buf_printf(&m, "%s%s: not restored: %s", m.n ? "; " : "", o->display,
                          what ? what : el_read_reason(e));
        else
            el_fsync_dir_of(o->path);
    }
    for (size_t k = d->n_made; k-- > 0;)
        rmdir(d->made[k]);
    el_changeset_forget(cs);
    if (m.n) {
        *err = el_buf_take(&m);
        return -1;
    }
    return 0;
}

/* ---- no interruption halfway ------------------------------------------------------- */

enum { STATE_UNTOUCHED, STATE_WRITTEN, STATE_UNDONE, STATE_MIXED };
static volatile sig_atomic_t tree_state = STATE_UNTOUCHED;
static const int held[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};

static void say(const char *s)
{
    ssize_t w = write(STDERR_FILENO, s, strlen(s));
    (void)w;
}

static void on_signal(int sig)
{
    static const char *const states[] = {
        "nothing was changed",
        "the changes were written completely",
        "every change was undone; nothing was changed",
        "the changes could not all be undone (see the message above)",
    };
    int st = tree_state;
    say(el_progname);
    say(": interrupted by a signal: ");
    say(states[st >= 0 && st <= STATE_MIXED ? st : STATE_MIXED]);
    say("\n");
    signal(sig, SIG_DFL);
    raise(sig);
}

void el_change_signals_install(void)
{
    for (size_t i = 0; i < sizeof held / sizeof held[0]; i++) {
        struct sigaction sa, old;
        if (sigaction(held[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
            continue;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal;
        sigemptyset(&sa.sa_mask);
        sigaction(held[i], &sa, NULL);
    }
}

/* Ctrl-C (or a SIGTERM, SIGHUP, SIGQUIT) in the middle of a commit or an
 * undo would leave a half-changed tree: such signals are held until the
 * set is complete or rolled back, then delivered. */
static void hold_signals(sigset_t *old)
{
    sigset_t s;
    sigemptyset(&s);
    for (size_t i = 0; i < sizeof held / sizeof held[0]; i++)
        sigaddset(&s, held[i]);
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
    el_inject_reset();
    el_inject_step(); /* step 1: the last moment before signals are held */
    sigset_t old;
    hold_signals(&old);
    raise_for_test();
    int rc = commit(cs, backup, err);
    if (rc == 0)
        tree_state = STATE_WRITTEN;
    else
        tree_state = strstr(*err, "nothing was") ? STATE_UNTOUCHED : STATE_MIXED;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return rc;
}

int el_changeset_undo(el_changeset *cs, char **err)
{
    sigset_t old;
    hold_signals(&old);
    int rc = undo(cs, err);
    tree_state = rc == 0 ? STATE_UNDONE : STATE_MIXED;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return rc;
}
