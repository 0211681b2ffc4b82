/* lint/change/journal.c -- the journal of a commit, and putting a tree
 * back in order after an interrupted one (journal.h). */
#include "journal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bounds.h"
#include "fileio.h"
#include "inject.h"
#include "mem.h"
#include "path.h"
#include "progname.h"

#define JOURNAL_PREFIX ".ember-changeset-"
#define JOURNAL_MAGIC "ember changeset journal 1"

static void unlock_all(el_journal *j);

/* ---- building ------------------------------------------------------------ */

static void fresh_id(char id[17])
{
    unsigned char b[8] = {0};
    int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    bool ok = fd >= 0 && read(fd, b, sizeof b) == (ssize_t)sizeof b;
    if (fd >= 0)
        close(fd);
    if (!ok) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        unsigned long long x = (unsigned long long)ts.tv_nsec ^ ((unsigned long long)ts.tv_sec << 20) ^
                               ((unsigned long long)getpid() << 40);
        memcpy(b, &x, sizeof b);
    }
    for (int i = 0; i < 8; i++)
        snprintf(id + 2 * i, 3, "%02x", b[i]);
}

void el_journal_init(el_journal *j)
{
    memset(j, 0, sizeof *j);
    fresh_id(j->id);
}

char *el_journal_name(const el_journal *j, const char *path, const char *tag)
{
    char *dir = el_path_dirname(path);
    char *n = el_xasprintf("%s/.%.180s.el-%s.%s", strcmp(dir, "/") ? dir : "", el_path_base(path),
                           j->id, tag);
    free(dir);
    return n;
}

el_jop *el_journal_add(el_journal *j, el_jop_kind kind, const char *path)
{
    el_grow(&j->ops, &j->cap_ops, j->n_ops + 1, sizeof *j->ops);
    el_jop *o = &j->ops[j->n_ops++];
    memset(o, 0, sizeof *o);
    o->kind = kind;
    o->path = el_xstrdup(path);
    if (kind != EL_JOP_DELETE)
        o->tmp = el_journal_name(j, path, "new");
    if (kind != EL_JOP_CREATE)
        o->aside = el_journal_name(j, path, "old");
    return o;
}

void el_journal_add_copy(el_journal *j, const char *dir)
{
    char *f = el_xasprintf("%s/" JOURNAL_PREFIX "%s", strcmp(dir, "/") ? dir : "", j->id);
    for (size_t i = 0; i < j->n_copies; i++)
        if (!strcmp(j->copies[i], f)) {
            free(f);
            return;
        }
    el_grow(&j->copies, &j->cap_copies, j->n_copies + 1, sizeof *j->copies);
    j->copies[j->n_copies++] = f;
}

void el_journal_add_made(el_journal *j, const char *dir)
{
    el_grow(&j->made, &j->cap_made, j->n_made + 1, sizeof *j->made);
    j->made[j->n_made++] = el_xstrdup(dir);
}

void el_journal_add_rmdir(el_journal *j, const char *dir, const char *stop)
{
    el_grow(&j->rm_dir, &j->cap_rm, j->n_rm + 1, sizeof *j->rm_dir);
    j->rm_stop = el_xrealloc(j->rm_stop, j->cap_rm * sizeof *j->rm_stop);
    j->rm_dir[j->n_rm] = el_xstrdup(dir);
    j->rm_stop[j->n_rm] = el_xstrdup(stop);
    j->n_rm++;
}

void el_journal_free(el_journal *j)
{
    unlock_all(j);
    free(j->locks);
    for (size_t i = 0; i < j->n_copies; i++)
        free(j->copies[i]);
    free(j->copies);
    for (size_t i = 0; i < j->n_ops; i++) {
        free(j->ops[i].path);
        free(j->ops[i].tmp);
        free(j->ops[i].aside);
    }
    free(j->ops);
    for (size_t i = 0; i < j->n_made; i++)
        free(j->made[i]);
    free(j->made);
    for (size_t i = 0; i < j->n_rm; i++) {
        free(j->rm_dir[i]);
        free(j->rm_stop[i]);
    }
    free(j->rm_dir);
    free(j->rm_stop);
    memset(j, 0, sizeof *j);
}

/* ---- the file format ----------------------------------------------------------
 *
 *   ember changeset journal 1
 *   copy PATH                        (every copy of the journal)
 *   dir PATH                         (made by the commit, parents first)
 *   rmdir PATH STOP
 *   op M|C|D PATH TMP ASIDE OLD NEW MODE   ("-" for what an op has not)
 *   end
 * Paths are absolute, with bytes <= ' ', '%' and DEL written %XX. */

static void put_path(el_buf *b, const char *p)
{
    if (!p) {
        el_buf_puts(b, " -");
        return;
    }
    el_buf_putc(b, ' ');
    for (const unsigned char *s = (const unsigned char *)p; *s; s++) {
        if (*s <= ' ' || *s == '%' || *s == 0x7f)
            el_buf_printf(b, "%%%02X", *s);
        else
            el_buf_putc(b, (char)*s);
    }
}

static void put_hash(el_buf *b, el_jop_kind k, el_jop_kind without, el_hash128 h)
{
    char hex[33];
    el_hash_hex(h, hex);
    el_buf_printf(b, " %s", k == without ? "-" : hex);
}

static char *journal_text(const el_journal *j)
{
    el_buf b = {0};
    el_buf_puts(&b, JOURNAL_MAGIC "\n");
    for (size_t i = 0; i < j->n_copies; i++) {
        el_buf_puts(&b, "copy");
        put_path(&b, j->copies[i]);
        el_buf_putc(&b, '\n');
    }
    for (size_t i = 0; i < j->n_made; i++) {
        el_buf_puts(&b, "dir");
        put_path(&b, j->made[i]);
        el_buf_putc(&b, '\n');
    }
    for (size_t i = 0; i < j->n_rm; i++) {
        el_buf_puts(&b, "rmdir");
        put_path(&b, j->rm_dir[i]);
        put_path(&b, j->rm_stop[i]);
        el_buf_putc(&b, '\n');
    }
    static const char kinds[] = "MCD";
    for (size_t i = 0; i < j->n_ops; i++) {
        const el_jop *o = &j->ops[i];
        el_buf_printf(&b, "op %c", kinds[o->kind]);
        put_path(&b, o->path);
        put_path(&b, o->tmp);
        put_path(&b, o->aside);
        put_hash(&b, o->kind, EL_JOP_CREATE, o->old_hash);
        put_hash(&b, o->kind, EL_JOP_DELETE, o->new_hash);
        el_buf_printf(&b, " %o\n", (unsigned)(o->mode & 07777));
    }
    el_buf_puts(&b, "end\n");
    return el_buf_take(&b);
}

/* Create path holding text, locked before a byte is in it (so no other
 * run reads it half written), flushed; its descriptor in *fd. */
static int write_locked(const char *path, const char *text, int *fd)
{
    *fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (*fd < 0)
        return errno;
    int e = flock(*fd, LOCK_EX) == 0 ? 0 : errno;
    size_t len = strlen(text), off = 0;
    while (!e && off < len) {
        ssize_t w = write(*fd, text + off, len - off);
        if (w < 0 && errno != EINTR)
            e = errno;
        else if (w > 0)
            off += (size_t)w;
    }
    if (!e && fsync(*fd) != 0)
        e = errno;
    if (e) {
        unlink(path);
        close(*fd);
        *fd = -1;
    }
    return e;
}

static void unlock_all(el_journal *j)
{
    for (size_t i = 0; j->locks && i < j->n_copies; i++)
        if (j->locks[i] >= 0) {
            close(j->locks[i]); /* closing releases the lock */
            j->locks[i] = -1;
        }
}

int el_journal_write(el_journal *j)
{
    char *text = journal_text(j);
    free(j->locks);
    j->locks = el_xmalloc((j->n_copies + 1) * sizeof *j->locks);
    for (size_t i = 0; i < j->n_copies; i++)
        j->locks[i] = -1;
    int e = 0;
    size_t done = 0;
    for (; done < j->n_copies && !e; done++) {
        el_inject_step();
        e = el_inject_write_fails() ? EIO : write_locked(j->copies[done], text, &j->locks[done]);
        if (!e)
            el_fsync_dir_of(j->copies[done]);
    }
    if (e) {
        for (size_t i = 0; i + 1 < done; i++)
            unlink(j->copies[i]);
        unlock_all(j);
    }
    free(text);
    return e;
}

void el_journal_remove(const el_journal *j)
{
    for (size_t i = 0; i < j->n_copies; i++) {
        el_inject_step();
        if (unlink(j->copies[i]) == 0)
            el_fsync_dir_of(j->copies[i]);
    }
    unlock_all((el_journal *)j);
}

/* The next field of a line (in place): a decoded path, "-" as NULL. */
static char *field(char **s, bool *ok)
{
    while (**s == ' ')
        (*s)++;
    if (!**s) {
        *ok = false;
        return NULL;
    }
    char *b = *s;
    while (**s && **s != ' ')
        (*s)++;
    if (**s)
        *(*s)++ = '\0';
    if (!strcmp(b, "-"))
        return NULL;
    char *out = el_xmalloc(strlen(b) + 1), *o = out;
    for (char *p = b; *p; p++) {
        unsigned v;
        if (*p == '%' && p[1] && p[2] && sscanf(p + 1, "%2X", &v) == 1) {
            *o++ = (char)v;
            p += 2;
        } else {
            *o++ = *p;
        }
    }
    *o = '\0';
    return out;
}

static bool parse_hash(const char *s, el_hash128 *h)
{
    unsigned long long a, b;
    if (!s || strlen(s) != 32 || sscanf(s, "%16llx%16llx", &a, &b) != 2)
        return false;
    h->a = a;
    h->b = b;
    return true;
}

/* Read a journal; false when it is torn or not one (nothing was done
 * after it then: a commit writes its journal whole before anything else). */
static bool journal_read(const char *file, el_journal *j)
{
    memset(j, 0, sizeof *j);
    const char *base = el_path_base(file) + strlen(JOURNAL_PREFIX);
    snprintf(j->id, sizeof j->id, "%s", base);
    char *text;
    size_t len;
    if (el_read_file(file, &text, &len, NULL, NULL) != 0)
        return false;
    bool ok = strncmp(text, JOURNAL_MAGIC "\n", strlen(JOURNAL_MAGIC) + 1) == 0, ended = false;
    char *line = text + (ok ? strlen(JOURNAL_MAGIC) + 1 : 0);
    while (ok && *line && !ended) {
        char *nl = strchr(line, '\n');
        if (!nl) {
            ok = false;
            break;
        }
        *nl = '\0';
        char *s = line;
        line = nl + 1;
        if (!strcmp(s, "end")) {
            ended = true;
        } else if (!strncmp(s, "copy ", 5) || !strncmp(s, "dir ", 4)) {
            bool copy = s[0] == 'c';
            s += copy ? 5 : 4;
            char *p = field(&s, &ok);
            if (p && copy) {
                el_grow(&j->copies, &j->cap_copies, j->n_copies + 1, sizeof *j->copies);
                j->copies[j->n_copies++] = p;
            } else if (p) {
                el_grow(&j->made, &j->cap_made, j->n_made + 1, sizeof *j->made);
                j->made[j->n_made++] = p;
            }
        } else if (!strncmp(s, "rmdir ", 6)) {
            s += 6;
            char *d = field(&s, &ok), *st = field(&s, &ok);
            if (d && st)
                el_journal_add_rmdir(j, d, st);
            free(d);
            free(st);
        } else if (!strncmp(s, "op ", 3) && s[3] && strchr("MCD", s[3])) {
            el_jop_kind k = s[3] == 'M' ? EL_JOP_MODIFY : s[3] == 'C' ? EL_JOP_CREATE : EL_JOP_DELETE;
            s += 4;
            el_grow(&j->ops, &j->cap_ops, j->n_ops + 1, sizeof *j->ops);
            el_jop *o = &j->ops[j->n_ops++];
            memset(o, 0, sizeof *o);
            o->kind = k;
            o->path = field(&s, &ok);
            o->tmp = field(&s, &ok);
            o->aside = field(&s, &ok);
            char *oh = field(&s, &ok), *nh = field(&s, &ok), *mode = field(&s, &ok);
            ok = ok && o->path && (k == EL_JOP_CREATE || (o->aside && parse_hash(oh, &o->old_hash))) &&
                 (k == EL_JOP_DELETE || (o->tmp && parse_hash(nh, &o->new_hash))) && mode;
            if (mode)
                o->mode = (mode_t)strtoul(mode, NULL, 8);
            free(oh);
            free(nh);
            free(mode);
        } else {
            ok = false;
        }
    }
    free(text);
    return ok && ended;
}

/* ---- states ---------------------------------------------------------------- */

static bool exists(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0;
}

static bool has_hash(const char *path, el_hash128 h)
{
    el_hash128 now;
    return el_file_hash(path, &now) && el_hash_eq(now, h);
}

/* Is op o's change in place? */
static bool installed(const el_jop *o)
{
    switch (o->kind) {
    case EL_JOP_MODIFY:
    case EL_JOP_CREATE:
        return has_hash(o->path, o->new_hash);
    default:
        return !exists(o->path);
    }
}

/* How many of j's files are no longer as before the run (replaced,
 * created, deleted, or moved aside): those a kill left changed. */
static size_t changed_files(const el_journal *j)
{
    size_t n = 0;
    for (size_t i = 0; i < j->n_ops; i++) {
        const el_jop *o = &j->ops[i];
        n += o->kind == EL_JOP_MODIFY   ? !has_hash(o->path, o->old_hash)
             : o->kind == EL_JOP_CREATE ? exists(o->path)
                                        : !exists(o->path);
    }
    return n;
}

bool el_journal_complete(const el_journal *j)
{
    for (size_t i = 0; i < j->n_ops; i++)
        if (!installed(&j->ops[i]))
            return false;
    return true;
}

static void drop(const char *path)
{
    if (path && exists(path)) {
        el_inject_step();
        unlink(path);
    }
}

static void note(el_buf *msg, const char *path, const char *what)
{
    char *d = el_path_display(path);
    el_buf_printf(msg, "; %s: %s", d, what);
    free(d);
}

/* Put the original back from its aside: 0 or errno. */
static int restore(const el_jop *o)
{
    el_inject_step();
    if (rename(o->aside, o->path) != 0)
        return errno;
    el_fsync_dir_of(o->path);
    return 0;
}

void el_journal_rollback(const el_journal *j, size_t touched, el_buf *msg)
{
    for (size_t i = j->n_ops; i-- > 0;) {
        const el_jop *o = &j->ops[i];
        const char *aside_kept = NULL;
        if (i >= touched) {
            /* only prepared: its temporaries go */
        } else if (o->kind == EL_JOP_CREATE) {
            if (installed(o)) {
                el_inject_step();
                if (unlink(o->path) != 0)
                    note(msg, o->path, "could not be removed");
            }
        } else if (installed(o)) {
            bool aside = o->aside && exists(o->aside);
            int e = aside ? restore(o) : ENOENT;
            if (e) {
                note(msg, o->path, aside ? "could not be restored" : "its original is lost");
                aside_kept = aside ? o->aside : NULL;
            }
        } else if (o->kind == EL_JOP_MODIFY && !has_hash(o->path, o->old_hash)) {
            /* neither old nor new: someone changed it since */
            note(msg, o->path, "changed by another program: left as it is");
            aside_kept = o->aside && exists(o->aside) ? o->aside : NULL;
        }
        if (aside_kept) {
            char *d = el_path_display(aside_kept);
            el_buf_printf(msg, " (its original is kept as %s)", d);
            free(d);
        } else {
            drop(o->aside);
        }
        drop(o->tmp);
    }
    for (size_t i = j->n_made; i-- > 0;)
        if (exists(j->made[i])) {
            el_inject_step();
            rmdir(j->made[i]);
        }
}

/* ---- finishing -------------------------------------------------------------- */

static bool is_within(const char *a, const char *b)
{
    char *rel = el_path_under(a, b);
    free(rel);
    return rel != NULL;
}

static void remove_empty_dirs(const el_journal *j, char ***removed, mode_t **modes, size_t *n)
{
    size_t cap = 0;
    for (size_t i = 0; i < j->n_rm; i++) {
        char *cur = el_xstrdup(j->rm_dir[i]);
        for (;;) {
            /* strictly inside stop, and not the current directory or
             * one above it (the user's shell stays somewhere real) */
            char *rel = el_path_under(cur, j->rm_stop[i]);
            bool inside = rel && strcmp(rel, ".") != 0 && !is_within(el_cwd(), cur);
            free(rel);
            struct stat st;
            if (!inside)
                break;
            bool gone = lstat(cur, &st) != 0; /* removed before a kill: go on above */
            if (!gone && !S_ISDIR(st.st_mode))
                break;
            if (!gone) {
                el_inject_step();
                if (rmdir(cur) != 0)
                    break;
            }
            if (removed && !gone) {
                el_grow(removed, &cap, *n + 1, sizeof **removed);
                *modes = el_xrealloc(*modes, cap * sizeof **modes);
                (*removed)[*n] = el_xstrdup(cur);
                (*modes)[*n] = st.st_mode & 07777;
                (*n)++;
            }
            el_fsync_dir_of(cur);
            char *up = el_path_dirname(cur);
            free(cur);
            cur = up;
        }
        free(cur);
    }
}

void el_journal_finish(const el_journal *j, char ***removed, mode_t **modes, size_t *n_removed)
{
    for (size_t i = 0; i < j->n_ops; i++) {
        drop(j->ops[i].aside);
        drop(j->ops[i].tmp);
    }
    remove_empty_dirs(j, removed, modes, n_removed);
    el_journal_remove(j);
}

/* ---- recovery ------------------------------------------------------------------ */

typedef struct found {
    char **files;
    bool *above;           /* found in a directory above the run's PATHs */
    size_t n, cap;
} found;

static void look_in(found *f, const char *dir, bool above)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (strncmp(e->d_name, JOURNAL_PREFIX, strlen(JOURNAL_PREFIX)) != 0)
            continue;
        char *p = el_path_join(dir, e->d_name);
        bool dup = false;
        for (size_t i = 0; i < f->n && !dup; i++)
            dup = !strcmp(el_path_base(f->files[i]), e->d_name);
        if (dup) {
            free(p);
            continue;
        }
        size_t cap = f->cap;
        el_grow(&f->files, &f->cap, f->n + 1, sizeof *f->files);
        if (f->cap != cap)
            f->above = el_xrealloc(f->above, f->cap * sizeof *f->above);
        f->above[f->n] = above;
        f->files[f->n++] = p;
    }
    closedir(d);
}

/* ---- trust ------------------------------------------------------------------- */

static bool ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), k = strlen(tail);
    return n >= k && !strcmp(s + n - k, tail);
}

/* Absolute, and no "." or ".." component, no empty one. */
static bool plain_abs(const char *p)
{
    if (!p || p[0] != '/')
        return false;
    return !strstr(p, "//") && !strstr(p, "/./") && !strstr(p, "/../") && !ends_with(p, "/.") &&
           !ends_with(p, "/..");
}

/* Inside one of the roots (real paths)?  p as written, or with its
 * existing part resolved: the journal keeps paths as the run spelled
 * them, through whatever symlink led to the tree. */
static bool inside_any(const char *p, char *const *roots, size_t n)
{
    if (!plain_abs(p))
        return false;
    el_bounds b = {(char **)roots, n, true};
    return el_bounds_contain(&b, p);
}

static bool named_as(const char *got, const el_journal *j, const char *path, const char *tag)
{
    char *want = el_journal_name(j, path, tag);
    bool same = got && !strcmp(got, want);
    free(want);
    return same;
}

/* Why a journal is not trusted (untrusted). */
typedef enum doubt {
    DOUBT_NONE,
    DOUBT_NOT_REGULAR,
    DOUBT_OWNER,
    DOUBT_COPY_NAME,
    DOUBT_FILES_OUTSIDE,
    DOUBT_TEMP_NAMES,
    DOUBT_DIRS_OUTSIDE,
} doubt;

static const char *doubt_text(doubt d)
{
    static const char *const text[] = {
        NULL,
        "not a regular file",
        "another user wrote it, or others may write it",
        "it names a copy of itself under another name",
        "it changes files outside the tree",
        "its temporary names are not its own",
        "it names directories outside the tree",
    };
    return text[d];
}

/* Is the journal at file one this tool wrote for the tree at roots (real
 * paths)?  Recovery renames and deletes what a journal names, so a file
 * planted under that name must not steer it: the journal is a regular
 * file of this user that nobody else may write, every file and directory
 * it changes lies inside the roots, its temporary names are the ones its
 * id gives, and its copies carry its own name.  DOUBT_NONE, or why not. */
static doubt untrusted(const char *file, const el_journal *j, char *const *roots, size_t n)
{
    struct stat st;
    if (lstat(file, &st) != 0 || !S_ISREG(st.st_mode))
        return DOUBT_NOT_REGULAR;
    if (st.st_uid != geteuid() || (st.st_mode & 022))
        return DOUBT_OWNER;
    const char *name = el_path_base(file);
    for (size_t i = 0; i < j->n_copies; i++)
        if (!plain_abs(j->copies[i]) || strcmp(el_path_base(j->copies[i]), name) != 0)
            return DOUBT_COPY_NAME;
    for (size_t i = 0; i < j->n_ops; i++) {
        const el_jop *o = &j->ops[i];
        if (!inside_any(o->path, roots, n))
            return DOUBT_FILES_OUTSIDE;
        if (o->kind != EL_JOP_DELETE && !named_as(o->tmp, j, o->path, "new"))
            return DOUBT_TEMP_NAMES;
        if (o->kind != EL_JOP_CREATE && !named_as(o->aside, j, o->path, "old"))
            return DOUBT_TEMP_NAMES;
    }
    for (size_t i = 0; i < j->n_made; i++)
        if (!inside_any(j->made[i], roots, n))
            return DOUBT_DIRS_OUTSIDE;
    for (size_t i = 0; i < j->n_rm; i++) {
        /* rmdir removes empty directories only, from rm_dir up to stop */
        char *rel = plain_abs(j->rm_stop[i]) ? el_path_under(j->rm_dir[i], j->rm_stop[i]) : NULL;
        bool ok = rel && inside_any(j->rm_dir[i], roots, n);
        free(rel);
        if (!ok)
            return DOUBT_DIRS_OUTSIDE;
    }
    return DOUBT_NONE;
}

/* Does the journal change something under one of dirs?  A journal found
 * above the PATHs may belong to a run on a sibling tree: not ours. */
static bool touches(const el_journal *j, char *const *roots, size_t n)
{
    for (size_t k = 0; k < j->n_ops; k++)
        if (inside_any(j->ops[k].path, roots, n))
            return true;
    return false;
}

/* ---- journals of another tree -------------------------------------------- */

/* The trees the journal records: the directories of its copies (each a
 * tree root the run wrote), shown (or absolute) and separated by blanks
 * (malloc'd). */
static char *journal_trees_as(const el_journal *j, bool absolute)
{
    el_buf b = {0};
    for (size_t i = 0; i < j->n_copies; i++) {
        char *dir = el_path_dirname(j->copies[i]);
        char *shown = absolute ? el_xstrdup(dir) : el_path_display(dir);
        el_buf_printf(&b, "%s%s", i ? " " : "", shown);
        free(shown);
        free(dir);
    }
    return el_buf_take(&b);
}

static char *journal_trees(const el_journal *j)
{
    return journal_trees_as(j, false);
}

/* The copy of the journal that file is a copy of under another directory
 * (copied or moved with its tree: `cp -a old new`), with the directory
 * the tree had there and has here (old_root, new_root: the paths before
 * the longest tail they share); NULL when file is one of its copies. */
static const char *copied_from(const el_journal *j, const char *file, char **old_root,
                               char **new_root)
{
    const char *best = NULL;
    size_t best_tail = 0;
    for (size_t i = 0; i < j->n_copies; i++) {
        const char *c = j->copies[i];
        char *real = el_path_real(c);
        bool same = !strcmp(c, file) || (real && !strcmp(real, file));
        free(real);
        if (same)
            return NULL; /* this very file, by another name */
        size_t a = strlen(c), b = strlen(file), t = 0;
        while (t < a && t < b && c[a - 1 - t] == file[b - 1 - t])
            t++;
        while (t > 0 && c[a - t] != '/')
            t--; /* whole components */
        if (!best || t > best_tail) {
            best = c;
            best_tail = t;
        }
    }
    if (!best || best_tail <= strlen(el_path_base(best)))
        return NULL; /* not even its own name in common */
    *old_root = el_path_dirname(best);
    /* the directories before the tail they share are where the tree was
     * and is: /tmp/a/app/J and /tmp/b/app/J, tail /app/J */
    char *oprefix = el_xstrndup(best, strlen(best) - best_tail);
    char *nprefix = el_xstrndup(file, strlen(file) - best_tail);
    char *rest = el_xstrdup(*old_root + strlen(oprefix));
    *new_root = el_xasprintf("%s%s", nprefix, rest);
    free(oprefix);
    free(nprefix);
    free(rest);
    return best;
}

/* The command of this program that resolves an interrupted run. */
static const char *resolve_command(void)
{
    return strcmp(el_progname, "emberlint") ? "apply" : "--fix";
}

/* The op's file under new_root instead of old_root (malloc'd), or NULL
 * when it is not under old_root. */
static char *moved_path(const char *path, const char *old_root, const char *new_root)
{
    char *rel = el_path_under(path, old_root);
    char *p = rel ? (rel[0] ? el_path_join(new_root, rel) : el_xstrdup(new_root)) : NULL;
    free(rel);
    return p;
}

/* Is the journal file a copy of j made with its tree (copied_from) whose
 * files, where the tree is now, lie under one of roots?  A journal above
 * the PATHs copied with the tree (`cp -a proj proj2`, then a run on
 * proj2/src) names the files of the tree it was written in, none under
 * the PATHs, and was skipped silently as a sibling's. */
static bool copy_touches(const el_journal *j, const char *file, char *const *roots, size_t n)
{
    char *old_root = NULL, *new_root = NULL;
    if (!copied_from(j, file, &old_root, &new_root))
        return false;
    bool in = false;
    for (size_t k = 0; k < j->n_ops && !in; k++) {
        char *p = moved_path(j->ops[k].path, old_root, new_root);
        in = p && inside_any(p, roots, n);
        free(p);
    }
    free(old_root);
    free(new_root);
    return in;
}

/* A journal copied here with its tree: say where it was written, whether
 * that run is still unresolved there, and what state the copy's files are
 * in.  Returns true when this copy's files are half-changed (the run on
 * it must not go on). */
static bool report_copied(const char *file, const char *shown, const el_journal *j,
                          const char *orig, const char *old_root, const char *new_root,
                          char **err)
{
    size_t changed = 0;
    for (size_t i = 0; i < j->n_ops; i++) {
        const el_jop *o = &j->ops[i];
        char *p = moved_path(o->path, old_root, new_root);
        if (!p)
            continue;
        changed += o->kind == EL_JOP_MODIFY   ? !has_hash(p, o->old_hash)
                   : o->kind == EL_JOP_CREATE ? exists(p)
                                              : !exists(p);
        free(p);
    }
    bool still = exists(orig);
    const char *fix = resolve_command();
    /* every tree the run was given, not only the one this copy is of */
    char *trees = journal_trees_as(j, true);
    const char *also = strcmp(el_progname, "emberlint") ? "migrates" : "fixes";
    el_buf m = {0};
    el_buf_printf(&m, "%s: the journal of a run interrupted in %s, copied or moved here with "
                      "the tree (written as %s, it names files under %s, not under %s)", shown,
                  old_root, orig, old_root, new_root);
    if (still)
        el_buf_printf(&m, "; that run is not resolved there yet: `%s %s %s` completes or "
                          "undoes it (and then %s %s too)", el_progname, fix, trees, also, trees);
    else
        el_buf_printf(&m, "; %s no longer holds it: if the tree was moved here from there, move "
                          "it back and run `%s %s %s`, which completes or undoes that run (and "
                          "then %s %s too)",
                      old_root, el_progname, fix, trees, also, trees);
    const char *id = j->id;
    if (changed && still)
        el_buf_printf(&m, "; here %zu of its %zu files are as it changed them (this tree is "
                          "half-changed, and nothing is done here): copy the tree again once "
                          "that run is resolved, or restore its files, then remove %s and the "
                          "files named .*.el-%s.* beside its files", changed, j->n_ops, file, id);
    else if (changed)
        el_buf_printf(&m, "; here %zu of its %zu files are as it changed them (this tree is "
                          "half-changed, and nothing is done here); keep %s and the files named "
                          ".*.el-%s.* beside its files: if the tree was moved, they hold its "
                          "only original files", changed, j->n_ops, file, id);
    else if (still)
        el_buf_printf(&m, "; none of the files here was changed by it: remove %s and the "
                          "files named .*.el-%s.* beside its files to go on", file, id);
    else
        el_buf_printf(&m, "; none of the files here was changed by it: remove %s to go on "
                          "(keep the files named .*.el-%s.old beside its files until the tree "
                          "is checked: if it was moved, they are its original files)", file, id);
    free(trees);
    if (changed) {
        *err = el_buf_take(&m);
    } else {
        fprintf(stderr, "%s: %s; left alone\n", el_progname, el_buf_str(&m));
        el_buf_free(&m);
    }
    return changed > 0;
}

/* A journal of this tree's that changes files outside the PATHs given
 * (a run on app/ interrupted, then a run on app/src): which tree it
 * records, which files of it lie outside, and the command that resolves
 * it. */
static void report_outside(const char *shown, const el_journal *j, char *const *roots,
                           size_t n)
{
    size_t out = 0;
    const char *first = NULL;
    for (size_t i = 0; i < j->n_ops; i++)
        if (!inside_any(j->ops[i].path, roots, n) && out++ == 0)
            first = j->ops[i].path;
    char *trees = journal_trees(j);
    char *first_shown = first ? el_path_display(first) : el_xstrdup("its directories");
    el_buf paths = {0};
    for (size_t i = 0; i < n; i++) {
        char *r = el_path_display(roots[i]);
        el_buf_printf(&paths, "%s%s", i ? " " : "", r);
        free(r);
    }
    fprintf(stderr, "%s: %s: the journal of an interrupted run on %s, which changes %zu of its "
                    "%zu files outside the PATHs given (%s; first %s); left alone: `%s %s %s` "
                    "completes or undoes it, then run on %s again\n",
            el_progname, shown, trees, out, j->n_ops, el_buf_str(&paths), first_shown,
            el_progname, resolve_command(), trees,
            el_buf_str(&paths));
    el_buf_free(&paths);
    free(first_shown);
    free(trees);
}

int el_journal_recover(char *const *dirs, size_t n, bool fix, char **err)
{
    found f = {0};
    char **roots = el_xcalloc(n + 1, sizeof *roots);
    size_t n_roots = 0;
    for (size_t i = 0; i < n; i++)
        if ((roots[n_roots] = el_path_real(dirs[i])))
            n_roots++;
    for (size_t i = 0; i < n; i++) {
        char *dir = el_path_real(dirs[i]);
        if (!dir)
            continue;
        for (bool above = false;; above = true) {
            look_in(&f, dir, above);
            if (!strcmp(dir, "/"))
                break;
            char *up = el_path_dirname(dir);
            free(dir);
            dir = up;
        }
        free(dir);
    }
    int rc = (int)f.n;
    for (size_t i = 0; i < f.n; i++) {
        char *shown = el_path_display(f.files[i]);
        /* a journal another run holds is its commit in progress */
        int probe = open(f.files[i], O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
        bool held = probe >= 0 && flock(probe, LOCK_EX | LOCK_NB) != 0;
        if (held && f.above[i]) {
            /* being written by a run whose tree holds ours, or a sibling's:
             * if it is ours, its commit re-checks every file it changes */
            close(probe);
            free(shown);
            rc--;
            continue;
        }
        if (held) {
            close(probe);
            *err = el_xasprintf("%s: another run is changing these files right now; try again "
                                "when it is done", shown);
            free(shown);
            rc = -1;
            break;
        }
        el_journal j;
        bool read_ok = journal_read(f.files[i], &j);
        if (probe >= 0)
            close(probe);
        if (f.above[i] && (!read_ok || !touches(&j, roots, n_roots)) &&
            !(read_ok && copy_touches(&j, f.files[i], roots, n_roots))) {
            /* a sibling tree's run */
            el_journal_free(&j);
            free(shown);
            rc--;
            continue;
        }
        doubt d = read_ok ? untrusted(f.files[i], &j, roots, n_roots) : DOUBT_NONE;
        const char *why = doubt_text(d);
        bool outside = d == DOUBT_FILES_OUTSIDE || d == DOUBT_DIRS_OUTSIDE;
        char *old_root = NULL, *new_root = NULL;
        const char *orig = outside ? copied_from(&j, f.files[i], &old_root, &new_root) : NULL;
        if (orig) {
            /* copied with its tree: never acted on here */
            bool half = report_copied(f.files[i], shown, &j, orig, old_root, new_root, err);
            free(old_root);
            free(new_root);
            el_journal_free(&j);
            free(shown);
            if (half) {
                rc = -1;
                break;
            }
            rc--;
            continue;
        }
        if (outside) {
            report_outside(shown, &j, roots, n_roots);
            el_journal_free(&j);
            free(shown);
            rc--;
            continue;
        }
        if (why) {
            char *trees = journal_trees(&j);
            fprintf(stderr, "%s: %s: not a journal this run can trust (%s; it records a run on "
                            "%s); left alone: if that run was yours, check the journal and its "
                            "files by hand\n",
                    el_progname, shown, why, trees);
            free(trees);
            el_journal_free(&j);
            free(shown);
            rc--;
            continue;
        }
        if (!read_ok) {
            /* torn while it was written: nothing else had been done */
            if (fix && unlink(f.files[i]) == 0)
                fprintf(stderr, "%s: %s: removed the unfinished journal of an interrupted run "
                                "(it had changed nothing)\n", el_progname, shown);
            else if (!fix)
                fprintf(stderr, "%s: %s: the unfinished journal of an interrupted run (it "
                                "changed nothing; the next run that writes removes it)\n",
                        el_progname, shown);
            el_journal_free(&j);
            free(shown);
            continue;
        }
        /* every copy locked by us, or another run is committing now */
        j.locks = el_xmalloc((j.n_copies + 1) * sizeof *j.locks);
        bool busy = false;
        for (size_t k = 0; k < j.n_copies; k++) {
            j.locks[k] = open(j.copies[k], O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
            busy |= j.locks[k] >= 0 && flock(j.locks[k], LOCK_EX | LOCK_NB) != 0;
        }
        if (busy) {
            *err = el_xasprintf("%s: another run is changing these files right now; try again "
                                "when it is done", shown);
            el_journal_free(&j);
            free(shown);
            rc = -1;
            break;
        }
        bool complete = el_journal_complete(&j);
        size_t changed = changed_files(&j); /* said as it is: none, or some */
        if (!fix && !changed) {
            fprintf(stderr, "%s: %s: an interrupted run stopped before changing any of its %zu "
                            "file%s (each is as before it); the next run that writes "
                            "(ember-migrate apply, emberlint --fix) removes what it left first\n",
                    el_progname, shown, j.n_ops, j.n_ops == 1 ? "" : "s");
        } else if (!fix && complete) {
            fprintf(stderr, "%s: %s: an interrupted run had written all %zu of its change%s "
                            "(its temporary files remain); the next run that writes "
                            "(ember-migrate apply, emberlint --fix) completes it first\n",
                    el_progname, shown, j.n_ops, j.n_ops == 1 ? "" : "s");
        } else if (!fix) {
            fprintf(stderr, "%s: %s: an interrupted run left %zu of its %zu file%s changed "
                            "(the tree is half-changed); the next run that writes (ember-migrate "
                            "apply, emberlint --fix) undoes it first\n",
                    el_progname, shown, changed, j.n_ops, j.n_ops == 1 ? "" : "s");
        } else if (complete) {
            el_journal_finish(&j, NULL, NULL, NULL);
            fprintf(stderr, "%s: %s: an interrupted run had written all %zu of its change%s: "
                            "completed it (its temporary files removed)\n",
                    el_progname, shown, j.n_ops, j.n_ops == 1 ? "" : "s");
        } else {
            el_buf msg = {0};
            el_journal_rollback(&j, j.n_ops, &msg);
            if (msg.n) {
                *err = el_xasprintf("%s: undoing an interrupted run%s; the journal is kept",
                                    shown, el_buf_str(&msg));
                rc = -1;
            } else {
                el_journal_remove(&j);
                if (changed)
                    fprintf(stderr, "%s: %s: an interrupted run had changed %zu of its %zu "
                                    "file%s: undone, every file is as before it\n",
                            el_progname, shown, changed, j.n_ops, j.n_ops == 1 ? "" : "s");
                else
                    fprintf(stderr, "%s: %s: an interrupted run had changed none of its %zu "
                                    "file%s: what it left removed, every file is as before it\n",
                            el_progname, shown, j.n_ops, j.n_ops == 1 ? "" : "s");
            }
            el_buf_free(&msg);
        }
        el_journal_free(&j);
        free(shown);
        if (rc < 0)
            break;
    }
    for (size_t i = 0; i < f.n; i++)
        free(f.files[i]);
    free(f.files);
    free(f.above);
    for (size_t i = 0; i < n_roots; i++)
        free(roots[i]);
    free(roots);
    return rc;
}

/* ---- leftovers of older versions ------------------------------------------------ */

/* Is name `.BASE.el-TAG...` for this base?  The tag after "el-". */
static const char *leftover_tag(const char *name, const char *base)
{
    size_t bl = strlen(base);
    if (name[0] != '.' || strncmp(name + 1, base, bl) != 0 || strncmp(name + 1 + bl, ".el-", 4))
        return NULL;
    return name + 1 + bl + 4;
}

static bool same_file(const char *a, const char *b)
{
    struct stat x, y;
    if (lstat(a, &x) != 0 || lstat(b, &y) != 0)
        return false;
    if (x.st_dev == y.st_dev && x.st_ino == y.st_ino)
        return true;
    el_hash128 hx, hy;
    return el_file_hash(a, &hx) && el_file_hash(b, &hy) && el_hash_eq(hx, hy);
}

void el_journal_sweep_beside(const char *path)
{
    char *dir = el_path_dirname(path);
    const char *base = el_path_base(path);
    DIR *d = opendir(dir);
    if (!d) {
        free(dir);
        return;
    }
    struct dirent *e;
    while ((e = readdir(d))) {
        const char *tag = leftover_tag(e->d_name, base);
        if (!tag)
            continue;
        char *p = el_path_join(dir, e->d_name);
        char *shown = el_path_display(p);
        size_t tl = strlen(tag);
        bool is_new = !strncmp(tag, "tmp.", 4) || !strncmp(tag, "del.", 4) ||
                      (tl > 4 && !strcmp(tag + tl - 4, ".new"));
        bool is_old = !strncmp(tag, "old.", 4) || (tl > 4 && !strcmp(tag + tl - 4, ".old"));
        if ((is_new || (is_old && same_file(p, path))) && unlink(p) == 0)
            fprintf(stderr, "%s: %s: removed a temporary file an interrupted run left (%s)\n",
                    el_progname, shown, is_new ? "content never written" : "a copy of the file");
        else if (is_old)
            fprintf(stderr, "%s: %s: an interrupted run left this copy of an earlier %s; it "
                            "differs from the file: compare them and delete it by hand\n",
                    el_progname, shown, base);
        free(shown);
        free(p);
    }
    closedir(d);
    free(dir);
}

/* ---- naming what an interrupted run left ------------------------------------------ */

char *el_journal_owning(const char *path, const char *name, bool *is_new)
{
    const char *base = el_path_base(path);
    size_t bl = strlen(base);
    if (name[0] != '.' || strncmp(name + 1, base, bl) != 0 || strncmp(name + 1 + bl, ".el-", 4))
        return NULL;
    const char *id = name + 1 + bl + 4;
    for (int i = 0; i < 16; i++)
        if (!id[i] || !strchr("0123456789abcdef", id[i]))
            return NULL;
    if (strcmp(id + 16, ".old") && strcmp(id + 16, ".new"))
        return NULL;
    *is_new = !strcmp(id + 16, ".new");
    /* where el_journal_recover looks: the directory and those above */
    char *dir = el_path_dirname(path), *owner = NULL;
    for (;;) {
        char *f = el_xasprintf("%s/" JOURNAL_PREFIX "%.16s", strcmp(dir, "/") ? dir : "", id);
        struct stat st;
        if (lstat(f, &st) == 0 && S_ISREG(st.st_mode)) {
            owner = f;
            break;
        }
        free(f);
        if (!strcmp(dir, "/") || !strcmp(dir, "."))
            break;
        char *up = el_path_dirname(dir);
        free(dir);
        dir = up;
    }
    free(dir);
    return owner;
}

char **el_journal_trees(const char *file, size_t *n)
{
    el_journal j;
    bool read_ok = journal_read(file, &j);
    /* a journal that is not one of its own copies (a copied tree) names
     * another tree's: only its own directory is of use then */
    char *real = el_path_real(file);
    bool own = false;
    for (size_t i = 0; read_ok && real && i < j.n_copies && !own; i++) {
        char *c = el_path_real(j.copies[i]);
        own = c && !strcmp(c, real);
        free(c);
    }
    free(real);
    char **v;
    if (own) {
        v = el_xcalloc(j.n_copies, sizeof *v);
        for (size_t i = 0; i < j.n_copies; i++)
            v[i] = el_path_dirname(j.copies[i]);
        *n = j.n_copies;
    } else {
        v = el_xcalloc(1, sizeof *v);
        v[0] = el_path_dirname(file);
        *n = 1;
    }
    el_journal_free(&j);
    return v;
}
