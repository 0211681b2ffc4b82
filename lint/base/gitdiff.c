/* lint/base/gitdiff.c -- changed lines from git (gitdiff.h). */
#include "gitdiff.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mem.h"
#include "path.h"
#include "strbuf.h"
#include "strmap.h"

extern char **environ;

/* Lines [first, first + count) of a file; count == 0 with whole: every
 * line (an untracked file). */
typedef struct span {
    unsigned first, count;
} span;

typedef struct file_changes {
    span *v;
    size_t n, cap;
    bool whole;
} file_changes;

struct el_changes {
    el_strmap files; /* absolute path -> file_changes */
};

/* ---- running git --------------------------------------------------------- */

/* Run argv; its standard output in *out (*out_len bytes, which may hold
 * NULs) and standard error in *errtext (both malloc'd, NUL-terminated).
 * The exit status, 127 when it could not start, -1 on a failure here. */
static int run_git_n(char *const argv[], char **out, size_t *out_len, char **errtext)
{
    int po[2], pe[2];
    *out = *errtext = NULL;
    *out_len = 0;
    if (pipe(po) != 0)
        return -1;
    if (pipe(pe) != 0) {
        close(po[0]);
        close(po[1]);
        return -1;
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, po[1], 1);
    posix_spawn_file_actions_adddup2(&fa, pe[1], 2);
    posix_spawn_file_actions_addclose(&fa, po[0]);
    posix_spawn_file_actions_addclose(&fa, pe[0]);
    pid_t pid;
    int rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(po[1]);
    close(pe[1]);
    if (rc != 0) {
        close(po[0]);
        close(pe[0]);
        return 127;
    }
    el_buf bo = {0}, be = {0};
    struct pollfd fds[2] = {{po[0], POLLIN, 0}, {pe[0], POLLIN, 0}};
    int open_fds = 2;
    while (open_fds > 0) {
        if (poll(fds, 2, -1) < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        for (int i = 0; i < 2; i++) {
            if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            char chunk[65536];
            ssize_t got = read(fds[i].fd, chunk, sizeof chunk);
            if (got > 0) {
                el_buf_putn(i == 0 ? &bo : &be, chunk, (size_t)got);
            } else if (got == 0 || errno != EINTR) {
                close(fds[i].fd);
                fds[i].fd = -1;
                open_fds--;
            }
        }
    }
    for (int i = 0; i < 2; i++)
        if (fds[i].fd >= 0)
            close(fds[i].fd);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            break;
    *out_len = bo.n;
    *out = bo.s ? el_buf_take(&bo) : el_xstrdup("");
    *errtext = be.s ? el_buf_take(&be) : el_xstrdup("");
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static int run_git(char *const argv[], char **out, char **errtext)
{
    size_t n;
    return run_git_n(argv, out, &n, errtext);
}

/* The first line of git's complaint, for a message. */
static char *first_line(const char *s)
{
    while (*s == ' ' || *s == '\n')
        s++;
    if (strncmp(s, "fatal: ", 7) == 0)
        s += 7;
    size_t n = strcspn(s, "\n");
    return el_xstrndup(s, n);
}

static void chomp(char *s)
{
    size_t n = strlen(s);
    while (n && (s[n - 1] == '\n' || s[n - 1] == '\r'))
        s[--n] = '\0';
}

/* ---- parsing -------------------------------------------------------------------- */

static file_changes *changes_of(el_changes *c, const char *path)
{
    file_changes *fc = el_strmap_get(&c->files, path);
    if (!fc) {
        fc = el_xcalloc(1, sizeof *fc);
        el_strmap_put(&c->files, path, fc);
    }
    return fc;
}

static int unhex(char c)
{
    return c >= '0' && c <= '7' ? c - '0' : -1;
}

/* A path as git prints it: plain, or in double quotes with C escapes
 * (names with unusual bytes).  `len` bytes of s, no newline. */
static char *unquote(const char *s, size_t len)
{
    if (len < 2 || s[0] != '"') {
        /* git ends a "+++ " name holding a space with a tab (for patch);
         * an unquoted name never holds one itself (git quotes it) */
        if (len && s[len - 1] == '\t')
            len--;
        return el_xstrndup(s, len);
    }
    el_buf b = {0};
    for (size_t i = 1; i < len && s[i] != '"'; i++) {
        if (s[i] != '\\' || i + 1 >= len) {
            el_buf_putc(&b, s[i]);
            continue;
        }
        char e = s[++i];
        if (unhex(e) >= 0 && i + 2 < len && unhex(s[i + 1]) >= 0 && unhex(s[i + 2]) >= 0) {
            el_buf_putc(&b, (char)(unhex(e) * 64 + unhex(s[i + 1]) * 8 + unhex(s[i + 2])));
            i += 2;
            continue;
        }
        const char *from = "abtnvfr", *to = "\a\b\t\n\v\f\r";
        const char *k = strchr(from, e);
        el_buf_putc(&b, k ? to[k - from] : e);
    }
    return b.s ? el_buf_take(&b) : el_xstrdup("");
}

/* "@@ -a[,b] +c[,d] @@": the old and new line counts (1 when omitted) and
 * the first new line; false when the line is not such a header. */
static bool hunk_header(const char *p, size_t len, unsigned long *old_n, unsigned long *first,
                        unsigned long *new_n)
{
    if (len < 9 || strncmp(p, "@@ -", 4) != 0 || memchr(p, '\0', len))
        return false;
    char *line = el_xstrndup(p, len), *end;
    (void)strtoul(line + 4, &end, 10);
    *old_n = 1;
    if (*end == ',')
        *old_n = strtoul(end + 1, &end, 10);
    bool ok = strncmp(end, " +", 2) == 0;
    if (ok) {
        *first = strtoul(end + 2, &end, 10);
        *new_n = 1;
        if (*end == ',')
            *new_n = strtoul(end + 1, &end, 10);
        ok = *end == ' ';
    }
    free(line);
    return ok;
}

el_changes *el_changes_parse_n(const char *top, const char *diff, size_t size)
{
    el_changes *c = el_xcalloc(1, sizeof *c);
    file_changes *cur = NULL;
    /* inside a hunk: the old and new lines it still holds.  Its lines are
     * content whatever they start with ("+++ n;" is an added "++ n;"), so
     * headers are looked for only between hunks. */
    unsigned long old_left = 0, new_left = 0;
    const char *stop = diff + size;
    for (const char *p = diff; p < stop;) {
        const char *eol = memchr(p, '\n', (size_t)(stop - p));
        size_t len = eol ? (size_t)(eol - p) : (size_t)(stop - p);
        if (old_left || new_left) {
            /* a content line may hold a NUL (git diff --text); an empty
             * one is an empty context line (diff.suppressBlankEmpty) */
            if (!len || p[0] == ' ') {
                old_left -= old_left > 0;
                new_left -= new_left > 0;
            } else if (len && p[0] == '-') {
                old_left -= old_left > 0;
            } else if (len && p[0] == '+') {
                new_left -= new_left > 0;
            } else if (len && p[0] == '\\') {
                /* "\ No newline at end of file": no line of either side */
            } else {
                old_left = new_left = 0; /* not a hunk line: a malformed hunk ends */
                continue;                /* read this line again as a header */
            }
        } else if (len >= 4 && strncmp(p, "+++ ", 4) == 0 && !memchr(p, '\0', len)) {
            cur = NULL;
            char *name = unquote(p + 4, len - 4);
            /* "b/path" (the default prefix), "/dev/null" for a deletion */
            if (strncmp(name, "b/", 2) == 0) {
                char *abs = el_path_join(top, name + 2);
                cur = changes_of(c, abs);
                free(abs);
            }
            free(name);
        } else {
            unsigned long old_n, first, count;
            if (hunk_header(p, len, &old_n, &first, &count)) {
                old_left = old_n;
                new_left = count;
                if (cur && count) {
                    el_grow(&cur->v, &cur->cap, cur->n + 1, sizeof *cur->v);
                    cur->v[cur->n++] = (span){(unsigned)first, (unsigned)count};
                }
            }
        }
        p += len + (eol ? 1 : 0);
    }
    return c;
}

el_changes *el_changes_parse(const char *top, const char *diff)
{
    return el_changes_parse_n(top, diff, strlen(diff));
}

bool el_changes_has(const el_changes *c, const char *path, unsigned line)
{
    const file_changes *fc = el_strmap_get(&c->files, path);
    if (!fc)
        return false;
    if (fc->whole)
        return true;
    for (size_t i = 0; i < fc->n; i++)
        if (line >= fc->v[i].first && line - fc->v[i].first < fc->v[i].count)
            return true;
    return false;
}

static void free_one(const char *key, void *value, void *ud)
{
    (void)key;
    (void)ud;
    file_changes *fc = value;
    free(fc->v);
    free(fc);
}

void el_changes_free(el_changes *c)
{
    if (!c)
        return;
    el_strmap_each(&c->files, free_one, NULL);
    el_strmap_free(&c->files);
    free(c);
}

/* ---- asking git ------------------------------------------------------------------ */

/* *err = "--diff-base: WHAT: <git's complaint>"; frees what git printed
 * and returns NULL, for the failures below. */
static el_changes *git_failed(char **err, const char *what, char *out, char *etext, char *top)
{
    char *why = first_line(etext);
    *err = el_xasprintf("--diff-base: %s%s%s", what, why[0] ? ": " : "", why);
    free(why);
    free(out);
    free(etext);
    free(top);
    return NULL;
}

/* What to add to a failure to find REV or the merge base: in a shallow
 * clone (CI checkouts fetch one commit by default), the history is not
 * there. */
static const char *shallow_hint(void)
{
    char *out, *etext;
    char *const argv[] = {"git", "rev-parse", "--is-shallow-repository", NULL};
    int rc = run_git(argv, &out, &etext);
    bool shallow = rc == 0 && strncmp(out, "true", 4) == 0;
    free(out);
    free(etext);
    return shallow ? " (this is a shallow clone: fetch the history, e.g. git fetch --unshallow, "
                     "or actions/checkout's fetch-depth: 0)"
                   : "";
}

el_changes *el_changes_since(const char *rev, char **err)
{
    char *out, *etext;
    char *const top_argv[] = {"git", "rev-parse", "--show-toplevel", NULL};
    int rc = run_git(top_argv, &out, &etext);
    if (rc == 127 || rc < 0) {
        *err = el_xasprintf("--diff-base: cannot run git%s", rc == 127 ? " (is it installed?)" : "");
        free(out);
        free(etext);
        return NULL;
    }
    if (rc != 0 || !out[0]) {
        *err = el_xasprintf("--diff-base: %s is not inside a git work tree", el_cwd());
        free(out);
        free(etext);
        return NULL;
    }
    chomp(out);
    char *top = el_path_real(out);
    if (!top)
        top = el_xstrdup(out);
    free(out);
    free(etext);

    char *spec = el_xasprintf("%s^{commit}", rev);
    char *const verify_argv[] = {"git", "rev-parse", "--verify", "--quiet", "--end-of-options", spec, NULL};
    rc = run_git(verify_argv, &out, &etext);
    free(spec);
    free(out);
    free(etext);
    if (rc != 0) {
        *err = el_xasprintf("--diff-base: '%s' is not a commit this repository knows%s", rev,
                            shallow_hint());
        free(top);
        return NULL;
    }
    char *const mb_argv[] = {"git", "merge-base", "--end-of-options", (char *)rev, "HEAD", NULL};
    rc = run_git(mb_argv, &out, &etext);
    if (rc != 0 || !out[0]) {
        char *what = el_xasprintf("no merge base of '%s' and HEAD%s", rev, shallow_hint());
        el_changes *none = git_failed(err, what, out, etext, top);
        free(what);
        return none;
    }
    chomp(out);
    char *base = out;
    free(etext);

    /* At the top, so that paths are the top's whatever the user's
     * diff.relative says; no hunks merged over unchanged lines whatever
     * diff.interHunkContext says.  --text: a file git takes for binary
     * (-diff in .gitattributes, a NUL byte) would otherwise be "Binary
     * files ... differ", no line of it changed. */
    char *const diff_argv[] = {"git", "-C", top, "-c", "core.quotePath=true", "diff", "-U0",
                               "--text", "--inter-hunk-context=0", "-M", "--no-color",
                               "--no-ext-diff", "--no-textconv", "--src-prefix=a/",
                               "--dst-prefix=b/", base, "--", NULL};
    size_t out_len;
    rc = run_git_n(diff_argv, &out, &out_len, &etext);
    free(base);
    if (rc != 0)
        return git_failed(err, "git diff failed", out, etext, top);
    el_changes *c = el_changes_parse_n(top, out, out_len);
    free(out);
    free(etext);

    /* untracked files: every line is new (names NUL-separated, relative to
     * the top) */
    char *const untracked_argv[] = {"git", "-C", top, "ls-files", "-z", "--others", "--exclude-standard",
                                    NULL};
    rc = run_git(untracked_argv, &out, &etext);
    if (rc == 0) {
        /* "a\0b\0" and the buffer's own terminating NUL */
        for (const char *p = out; *p; p += strlen(p) + 1) {
            char *abs = el_path_join(top, p);
            changes_of(c, abs)->whole = true;
            free(abs);
        }
    }
    free(out);
    free(etext);
    free(top);
    return c;
}
