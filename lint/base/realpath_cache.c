/* lint/base/realpath_cache.c -- realpath, remembered (realpath_cache.h). */
#include "realpath_cache.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>

#include "mem.h"
#include "strmap.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static el_strmap resolved; /* name -> its real path, or &unresolved */
static char unresolved;

char *el_realpath_cached(const char *path)
{
    pthread_mutex_lock(&lock);
    char *hit = el_strmap_get(&resolved, path);
    char *copy = hit == &unresolved ? NULL : hit ? el_xstrdup(hit) : NULL;
    pthread_mutex_unlock(&lock);
    if (hit) {
        if (!copy)
            errno = ENOENT;
        return copy;
    }
    char *real = realpath(path, NULL);
    pthread_mutex_lock(&lock);
    if (!el_strmap_get(&resolved, path))
        el_strmap_put(&resolved, path, real ? el_xstrdup(real) : &unresolved);
    pthread_mutex_unlock(&lock);
    return real;
}
