/* lint/engine/clang_api.c -- libclang loaded on the first call
 * (clang_api.h). */
#include "clang_api.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "progname.h"

const el_clang_api *el_clang_loaded;

static el_clang_api table;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static char failure[1024];

const char *el_clang_library(void)
{
    const char *e = getenv("EMBERLINT_LIBCLANG");
    return e && *e ? e : EL_LIBCLANG_PATH;
}

static void load(void)
{
    const char *path = el_clang_library();
    void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        const char *why = dlerror();
        snprintf(failure, sizeof failure, "%s", why ? why : path);
        return;
    }
    /* (dlsym returns an object pointer; POSIX's way to store it in a
     * function pointer) */
#define EL_CLANG_LOAD(f)                                                                  \
    if (!failure[0] && !(*(void **)&table.p_##f = dlsym(lib, #f)))                        \
        snprintf(failure, sizeof failure, "%s has no %s", path, #f);
    EL_CLANG_FUNCTIONS(EL_CLANG_LOAD)
#undef EL_CLANG_LOAD
    if (failure[0]) {
        dlclose(lib);
        return;
    }
    __atomic_store_n(&el_clang_loaded, &table, __ATOMIC_RELEASE);
}

const el_clang_api *el_clang_load(void)
{
    pthread_once(&once, load);
    if (el_clang_loaded)
        return el_clang_loaded;
    /* one thread reports and exits; any other waits here for the end */
    static pthread_mutex_t exiting = PTHREAD_MUTEX_INITIALIZER;
    pthread_mutex_lock(&exiting);
    fprintf(stderr, "%s: cannot load libclang (%s)\n", el_progname, failure);
    exit(2);
}
