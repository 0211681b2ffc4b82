/* lint/base/realpath_cache.c -- realpath, remembered (realpath_cache.h).
 *
 * A name is resolved one component at a time, each directory prefix
 * remembered: realpath(3) calls readlink on every component of every name
 * (the current directory's too, for a relative one), so the 1 000 headers
 * of a run that sit in a few dozen directories cost a readlink each, not
 * six.  The current directory (getcwd's answer, already physical) is
 * known from the start.  A symbolic link met on the way is resolved by
 * realpath(3) itself, as is a relative name when the current directory
 * is not known (getcwd failed). */
#include "realpath_cache.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mem.h"
#include "path.h"
#include "strmap.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static el_strmap resolved; /* name as asked -> its real path, or &failed[errno] */
/* absolute prefix as written -> its real path (a struct prefix; only
 * those that resolve) */
static el_strmap prefixes;
static char failed[256];

typedef struct prefix {
    char *real;     /* NULL: cannot be resolved (err says why) */
    int err;
    atomic_bool dir; /* known to be a directory (read without the lock) */
} prefix;

static prefix *prefix_put(const char *key, char *real, int err, bool dir)
{
    pthread_mutex_lock(&lock);
    prefix *p = el_strmap_get(&prefixes, key);
    if (!p) {
        p = el_xcalloc(1, sizeof *p);
        p->real = real;
        p->err = err;
        atomic_init(&p->dir, dir);
        el_strmap_put(&prefixes, key, p);
    } else {
        if (dir)
            atomic_store(&p->dir, true);
        free(real);
    }
    pthread_mutex_unlock(&lock);
    return p;
}

static prefix *prefix_get(const char *key)
{
    pthread_mutex_lock(&lock);
    prefix *p = el_strmap_get(&prefixes, key);
    pthread_mutex_unlock(&lock);
    return p;
}

/* The parent of a real path (itself for "/"). */
static char *real_parent(const char *real)
{
    const char *s = strrchr(real, '/');
    return s == real || !s ? el_xstrdup("/") : el_xstrndup(real, (size_t)(s - real));
}

/* Whether the prefix p (resolved) is a directory: known, or asked once. */
static bool is_dir(const char *key, prefix *p)
{
    if (atomic_load(&p->dir))
        return true;
    struct stat st;
    bool d = stat(p->real, &st) == 0 && S_ISDIR(st.st_mode);
    if (d)
        prefix_put(key, NULL, 0, true);
    return d;
}

/* The real path of the absolute name abs[0..len) (a prefix of a name: no
 * trailing slash but for "/"), remembered when it resolves.  Not a copy:
 * owned by the map (entries live for the run), or, when it does not
 * resolve, this thread's until its next call. */
static prefix *resolve(const char *abs, size_t len)
{
    char *key = el_xstrndup(abs, len);
    prefix *p = prefix_get(key);
    if (p) {
        free(key);
        return p;
    }
    if (len <= 1) { /* "/" */
        p = prefix_put(key, el_xstrdup("/"), 0, true);
        free(key);
        return p;
    }
    /* the last component and the prefix before it */
    size_t cut = len;
    while (cut > 0 && abs[cut - 1] != '/')
        cut--;
    const char *comp = abs + cut;
    size_t lc = len - cut;
    size_t lp = cut - 1; /* without the slash */
    while (lp > 0 && abs[lp - 1] == '/')
        lp--; /* "a//b" */
    prefix *parent = resolve(abs, lp ? lp : 1);
    char *real = NULL;
    int err = 0;
    bool dir = false;
    if (!parent->real) {
        err = parent->err;
    } else if (lc == 0 || (lc == 1 && comp[0] == '.') || (lc == 2 && comp[0] == '.' && comp[1] == '.')) {
        /* "a/", "a/." or "a/..": a must be a directory */
        char *pkey = el_xstrndup(abs, lp ? lp : 1);
        if (!is_dir(pkey, parent))
            err = ENOTDIR;
        else if (lc == 2)
            real = real_parent(parent->real);
        else
            real = el_xstrdup(parent->real);
        dir = real != NULL;
        free(pkey);
    } else {
        size_t lr = strlen(parent->real);
        bool root = lr == 1;
        char *cand = el_xmalloc(lr + 1 + lc + 1);
        memcpy(cand, parent->real, lr);
        cand[lr] = '/';
        memcpy(cand + lr + !root, comp, lc);
        cand[lr + !root + lc] = '\0';
        char buf[1];
        if (readlink(cand, buf, sizeof buf) >= 0) {
            /* a symbolic link: resolved the usual way */
            real = realpath(cand, NULL);
            err = real ? 0 : errno;
            free(cand);
        } else if (errno == EINVAL) { /* there, and not a link */
            real = cand;
        } else {
            err = errno;
            free(cand);
        }
        if (real) { /* the parent was searched: a directory */
            char *pkey = el_xstrndup(abs, lp ? lp : 1);
            prefix_put(pkey, NULL, 0, true);
            free(pkey);
        }
    }
    if (!real && err == ENOMEM)
        el_oom();
    if (!real) {
        /* a prefix that does not resolve is not remembered (a directory
         * made later in the run, by ember-migrate's writes, is found when
         * another name under it is asked); el_realpath_cached does
         * remember the failed name itself for the run */
        static _Thread_local prefix failure;
        failure.err = err ? err : ENOENT;
        free(key);
        return &failure;
    }
    p = prefix_put(key, real, err, dir);
    free(key);
    return p;
}

static char *resolve_name(const char *path)
{
    if (!path[0]) {
        errno = ENOENT;
        return NULL;
    }
    pthread_mutex_lock(&lock);
    static bool seeded;
    if (!seeded) {
        seeded = true;
        const char *cwd = el_cwd();
        /* getcwd's answer has no link in it */
        if (cwd[0] == '/' && cwd[1]) {
            prefix *c = el_xcalloc(1, sizeof *c);
            c->real = el_xstrdup(cwd);
            atomic_init(&c->dir, true);
            el_strmap_put(&prefixes, cwd, c);
        }
    }
    pthread_mutex_unlock(&lock);
    const char *cwd = el_cwd();
    if (path[0] != '/' && !(cwd[0] == '/' && cwd[1]))
        return el_path_real(path); /* getcwd failed (or the current directory is "/") */
    char *abs = path[0] == '/' ? el_xstrdup(path) : el_path_join(el_cwd(), path);
    size_t len = strlen(abs);
    bool trailing = len > 1 && abs[len - 1] == '/';
    while (len > 1 && abs[len - 1] == '/')
        len--;
    prefix *p = resolve(abs, len);
    char *real = NULL;
    int err = p->err;
    if (p->real && trailing) { /* "a/" names a directory */
        char *key = el_xstrndup(abs, len);
        if (is_dir(key, p))
            real = el_xstrdup(p->real);
        else
            err = ENOTDIR;
        free(key);
    } else if (p->real) {
        real = el_xstrdup(p->real);
    }
    free(abs);
    if (!real)
        errno = err ? err : ENOENT;
    return real;
}

char *el_realpath_cached(const char *path)
{
    pthread_mutex_lock(&lock);
    char *hit = el_strmap_get(&resolved, path);
    uintptr_t at = (uintptr_t)hit - (uintptr_t)failed;
    bool bad = hit && at < sizeof failed;
    char *copy = bad || !hit ? NULL : el_xstrdup(hit);
    pthread_mutex_unlock(&lock);
    if (hit) {
        if (bad)
            errno = at ? (int)at : ENOENT;
        return copy;
    }
    char *real = resolve_name(path);
    int err = errno;
    pthread_mutex_lock(&lock);
    if (!el_strmap_get(&resolved, path))
        el_strmap_put(&resolved, path,
                      real ? el_xstrdup(real) : &failed[err > 0 && err < 256 ? err : 0]);
    pthread_mutex_unlock(&lock);
    errno = err;
    return real;
}
