/* lint/base/filehash.c -- memoized content hashes (filehash.h). */
#include "filehash.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#include "mem.h"
#include "strmap.h"

struct el_filehash {
    pthread_mutex_t lock;
    el_strmap map;   /* path -> el_hash128* (NULL: unreadable, stored as &unreadable) */
};

static el_hash128 unreadable_marker;

el_filehash *el_filehash_new(void)
{
    el_filehash *m = el_xcalloc(1, sizeof *m);
    pthread_mutex_init(&m->lock, NULL);
    return m;
}

static void put_locked(el_filehash *m, const char *path, const el_hash128 *h)
{
    el_hash128 *v = &unreadable_marker;
    if (h) {
        v = el_xmalloc(sizeof *v);
        *v = *h;
    }
    el_hash128 *old = el_strmap_put(&m->map, path, v);
    if (old && old != &unreadable_marker)
        free(old);
}

void el_filehash_put(el_filehash *m, const char *path, el_hash128 h)
{
    pthread_mutex_lock(&m->lock);
    put_locked(m, path, &h);
    pthread_mutex_unlock(&m->lock);
}

static bool hash_file(const char *path, el_hash128 *out)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    el_hasher h;
    el_hash_init(&h);
    char buf[65536];
    ssize_t got;
    while ((got = read(fd, buf, sizeof buf)) > 0)
        el_hash_update(&h, buf, (size_t)got);
    close(fd);
    if (got < 0)
        return false;
    *out = el_hash_final(&h);
    return true;
}

bool el_filehash_get(el_filehash *m, const char *path, el_hash128 *out)
{
    pthread_mutex_lock(&m->lock);
    el_hash128 *v = el_strmap_get(&m->map, path);
    if (v) {
        bool ok = v != &unreadable_marker;
        if (ok)
            *out = *v;
        pthread_mutex_unlock(&m->lock);
        return ok;
    }
    pthread_mutex_unlock(&m->lock);
    el_hash128 h;
    bool ok = hash_file(path, &h);
    pthread_mutex_lock(&m->lock);
    put_locked(m, path, ok ? &h : NULL);
    pthread_mutex_unlock(&m->lock);
    if (ok)
        *out = h;
    return ok;
}

static void free_value(const char *key, void *value, void *ud)
{
    (void)key;
    (void)ud;
    if (value != &unreadable_marker)
        free(value);
}

void el_filehash_free(el_filehash *m)
{
    if (!m)
        return;
    el_strmap_each(&m->map, free_value, NULL);
    el_strmap_free(&m->map);
    pthread_mutex_destroy(&m->lock);
    free(m);
}
