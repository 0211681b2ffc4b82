/* lint/base/filehash.c -- memoized content hashes (filehash.h). */
#define _DEFAULT_SOURCE /* struct dirent's d_type */
#include "filehash.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "mem.h"
#include "strmap.h"

struct el_filehash {
    pthread_mutex_t lock;
    el_strmap map;   /* path -> entry* (unreadable: &unreadable_marker) */
    el_strmap exists; /* path -> &yes or &no */
    el_strmap dirs;   /* directory -> listing* (cannot be listed: &unlisted) */
};

/* A directory's names, read once a run (el_filehash_exists). */
typedef struct listing {
    el_strmap names;  /* name -> NAME_REG, NAME_DIR or NAME_OTHER */
    el_strmap folded; /* the names in ASCII lower case -> (void *)1 */
} listing;

static listing unlisted, empty_listing;

enum { NAME_REG = 1, NAME_DIR, NAME_OTHER };

/* What readdir says the entry is (links and unknown types: other). */
static uintptr_t name_type(const struct dirent *e)
{
#if defined(_DIRENT_HAVE_D_TYPE) && defined(DT_REG)
    return e->d_type == DT_REG ? NAME_REG : e->d_type == DT_DIR ? NAME_DIR : NAME_OTHER;
#else
    (void)e;
    return NAME_OTHER;
#endif
}

static char yes, no;

typedef struct entry {
    el_hash128 hash;
    el_file_stamp stamp; /* the read's (file_stamp.h) */
    long long read_at;   /* the second the read began */
    size_t size;
} entry;

static entry unreadable_marker;

el_filehash *el_filehash_new(void)
{
    el_filehash *m = el_xcalloc(1, sizeof *m);
    pthread_mutex_init(&m->lock, NULL);
    return m;
}

static void put_locked(el_filehash *m, const char *path, const entry *e)
{
    entry *v = &unreadable_marker;
    if (e) {
        v = el_xmalloc(sizeof *v);
        *v = *e;
    }
    entry *old = el_strmap_put(&m->map, path, v);
    if (old && old != &unreadable_marker)
        free(old);
}

void el_filehash_put(el_filehash *m, const char *path, el_hash128 h, el_file_stamp stamp,
                     long long read_at, size_t size)
{
    entry e = {h, stamp, read_at, size};
    pthread_mutex_lock(&m->lock);
    put_locked(m, path, &e);
    pthread_mutex_unlock(&m->lock);
}

/* Only regular files up to EL_FILEHASH_MAX_BYTES are hashed: the paths
 * come from cache entries too, which are input (a FIFO or /dev/zero
 * would block or never end).  Non-blocking open, so a FIFO does not
 * wait for a writer before fstat says what it is. */
static bool hash_file(const char *path, entry *out)
{
    out->read_at = (long long)time(NULL);
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return false;
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size < 0 ||
        (unsigned long long)st.st_size > EL_FILEHASH_MAX_BYTES) {
        close(fd);
        return false;
    }
    el_hasher h;
    el_hash_init(&h);
    char buf[65536];
    ssize_t got;
    unsigned long long total = 0;
    while ((got = read(fd, buf, sizeof buf)) > 0 && (total += (size_t)got) <= EL_FILEHASH_MAX_BYTES)
        el_hash_update(&h, buf, (size_t)got);
    struct stat after;
    bool still = fstat(fd, &after) == 0;
    close(fd);
    if (got < 0 || total > EL_FILEHASH_MAX_BYTES)
        return false;
    out->hash = el_hash_final(&h);
    out->stamp = still ? el_file_stamp_of_read(&st, &after) : el_file_stamp_none;
    out->size = (size_t)total;
    return true;
}

static bool get_entry(el_filehash *m, const char *path, entry *out)
{
    pthread_mutex_lock(&m->lock);
    entry *v = el_strmap_get(&m->map, path);
    if (v) {
        bool ok = v != &unreadable_marker;
        if (ok)
            *out = *v;
        pthread_mutex_unlock(&m->lock);
        return ok;
    }
    pthread_mutex_unlock(&m->lock);
    entry e;
    bool ok = hash_file(path, &e);
    pthread_mutex_lock(&m->lock);
    put_locked(m, path, ok ? &e : NULL);
    pthread_mutex_unlock(&m->lock);
    if (ok)
        *out = e;
    return ok;
}

bool el_filehash_get(el_filehash *m, const char *path, el_hash128 *out)
{
    entry e;
    if (!get_entry(m, path, &e))
        return false;
    *out = e.hash;
    return true;
}

bool el_filehash_size(el_filehash *m, const char *path, size_t *size)
{
    entry e;
    if (!get_entry(m, path, &e))
        return false;
    *size = e.size;
    return true;
}

bool el_filehash_get_as_of(el_filehash *m, const char *path, el_file_stamp seen, long long seen_from,
                           el_hash128 *out)
{
    entry e;
    if (!get_entry(m, path, &e))
        return false;
    long long first = e.read_at < seen_from ? e.read_at : seen_from; /* the earlier read */
    if (!el_file_stamp_same_content(e.stamp, seen, first))
        return false;
    *out = e.hash;
    return true;
}

static void free_value(const char *key, void *value, void *ud)
{
    (void)key;
    (void)ud;
    if (value != &unreadable_marker)
        free(value);
}

static void fold(char *s)
{
    for (; *s; s++)
        if (*s >= 'A' && *s <= 'Z')
            *s = (char)(*s - 'A' + 'a');
}

/* dir's names; &empty_listing when there is no such directory (nothing
 * can be under it), &unlisted when it cannot be read (then ask stat). */
static listing *list_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return errno == ENOENT || errno == ENOTDIR ? &empty_listing : &unlisted;
    listing *l = el_xcalloc(1, sizeof *l);
    struct dirent *e;
    errno = 0;
    while ((e = readdir(d))) {
        el_strmap_put(&l->names, e->d_name, (void *)name_type(e));
        char *f = el_xstrdup(e->d_name);
        fold(f);
        el_strmap_put(&l->folded, f, (void *)1);
        free(f);
    }
    bool ok = errno == 0;
    closedir(d);
    if (!ok) {
        el_strmap_free(&l->names);
        el_strmap_free(&l->folded);
        free(l);
        return &unlisted;
    }
    return l;
}

static listing *dir_listing(el_filehash *m, const char *dir)
{
    pthread_mutex_lock(&m->lock);
    listing *l = el_strmap_get(&m->dirs, dir);
    pthread_mutex_unlock(&m->lock);
    if (l)
        return l;
    l = list_dir(dir);
    pthread_mutex_lock(&m->lock);
    listing *had = el_strmap_get(&m->dirs, dir);
    if (had) {
        if (l != &unlisted && l != &empty_listing) {
            el_strmap_free(&l->names);
            el_strmap_free(&l->folded);
            free(l);
        }
        l = had;
    } else {
        el_strmap_put(&m->dirs, dir, l);
    }
    pthread_mutex_unlock(&m->lock);
    return l;
}

/* Whether something other than a directory is at path, from its
 * directory's listing: 1 yes, 0 no, -1 the listing cannot tell (a name
 * the listing has as a link or of unknown type; one that differs only in
 * case, which a case-insensitive directory would find; a name with a
 * byte >= 0x80, whose other cases fold() does not know; a name that is
 * not plain). */
static int exists_listed(el_filehash *m, const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash || slash == path || path[0] != '/')
        return -1;
    const char *base = slash + 1;
    if (!base[0] || strcmp(base, ".") == 0 || strcmp(base, "..") == 0)
        return -1;
    char *dir = el_xstrndup(path, (size_t)(slash - path));
    listing *l = dir_listing(m, dir);
    free(dir);
    if (l == &unlisted)
        return -1;
    if (l == &empty_listing)
        return 0;
    uintptr_t type = (uintptr_t)el_strmap_get(&l->names, base);
    if (type == NAME_REG)
        return 1;
    if (type == NAME_DIR)
        return 0;
    if (type)
        return -1;
    for (const char *c = base; *c; c++)
        if ((unsigned char)*c >= 0x80)
            return -1; /* only ASCII is folded: another case cannot be ruled out */
    char *f = el_xstrdup(base);
    fold(f);
    bool other_case = el_strmap_get(&l->folded, f) != NULL;
    free(f);
    return other_case ? -1 : 0;
}

bool el_filehash_exists(el_filehash *m, const char *path)
{
    pthread_mutex_lock(&m->lock);
    char *v = el_strmap_get(&m->exists, path);
    pthread_mutex_unlock(&m->lock);
    if (v)
        return v == &yes;
    int listed = exists_listed(m, path);
    struct stat st;
    bool e = listed >= 0 ? listed == 1 : stat(path, &st) == 0 && !S_ISDIR(st.st_mode);
    pthread_mutex_lock(&m->lock);
    el_strmap_put(&m->exists, path, e ? &yes : &no);
    pthread_mutex_unlock(&m->lock);
    return e;
}

static void free_listing(const char *key, void *value, void *ud)
{
    (void)key;
    (void)ud;
    listing *l = value;
    if (l != &unlisted && l != &empty_listing) {
        el_strmap_free(&l->names);
        el_strmap_free(&l->folded);
        free(l);
    }
}

void el_filehash_free(el_filehash *m)
{
    if (!m)
        return;
    el_strmap_each(&m->map, free_value, NULL);
    el_strmap_free(&m->map);
    el_strmap_free(&m->exists);
    el_strmap_each(&m->dirs, free_listing, NULL);
    el_strmap_free(&m->dirs);
    pthread_mutex_destroy(&m->lock);
    free(m);
}
