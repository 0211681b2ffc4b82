/* Loading backend plugins: eh_backend_load(path) and EH_BACKEND_PATH.
 *
 * A plugin is a shared object exporting eh_backend_plugin_init
 * (EH_PLUGIN_INIT in <eh/backend_api.h>).  Loading it runs that function
 * once; it registers the plugin's backend table (backend_registry.c checks
 * its ABI) and perhaps custom ops.  Plugins are never unloaded: their
 * tables and kernels are used for the rest of the process.  Each file's
 * outcome is remembered, so loading it again gives the same answer without
 * running its init twice.
 *
 * This file sits below backend_registry.c: it only runs the plugin's
 * init, which calls the registry itself, and tells the registry (through
 * eh__plugin_loading) which file is registering. */
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "internal.h"

typedef struct loaded {
    struct loaded *next;
    void *handle;
    eh_status status;
    char message[512]; /* why it failed */
} loaded;

static pthread_mutex_t load_lock;
static pthread_once_t load_lock_once = PTHREAD_ONCE_INIT;
static loaded *plugins;
static _Thread_local const char *loading_path;

/* Recursive: a plugin's init may load a plugin it depends on. */
static void init_load_lock(void)
{
    pthread_mutexattr_t attr;
    pthread_mutexattr_init(&attr);
    pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&load_lock, &attr);
    pthread_mutexattr_destroy(&attr);
}

const char *eh__plugin_loading(void) { return loading_path; }

static eh_status load_failed(const char *path, const char *fmt, const char *detail)
{
    char why[512];
    snprintf(why, sizeof why, fmt, detail);
    return eh_set_error(EH_ERR_BACKEND, "backend_load: '%s': %s", path, why);
}

/* Run a freshly opened plugin's init.  The caller's error record is kept
 * when it succeeds; when it fails, the message its registration recorded
 * says why. */
static eh_status run_init(const char *path, void *handle)
{
    eh_status (*init)(void) = NULL;
    void *sym = dlsym(handle, EH_PLUGIN_INIT_NAME);
    memcpy(&init, &sym, sizeof init); /* object to function pointer, as POSIX allows */
    if (!init)
        return load_failed(path, "not a libeh backend plugin (it exports no %s)",
                           EH_PLUGIN_INIT_NAME);
    eh_status before = eh_last_error();
    char before_msg[512];
    snprintf(before_msg, sizeof before_msg, "%s", eh_error_message());
    eh_clear_error();
    const char *outer = loading_path;
    loading_path = path;
    eh_status st = init();
    loading_path = outer;
    if (st == EH_OK) {
        if (before == EH_OK)
            eh_clear_error();
        else
            eh_set_error(before, "%s", before_msg);
        return EH_OK;
    }
    char why[512];
    if (eh_last_error() == st && eh_error_message()[0])
        snprintf(why, sizeof why, "%s", eh_error_message());
    else
        snprintf(why, sizeof why, "its init function failed with %s", eh_status_name(st));
    return load_failed(path, "%s", why);
}

eh_status eh_backend_load(const char *path)
{
    if (!path)
        return eh_set_error(EH_ERR_NULL_ARG, "backend_load: argument 'path' is NULL");
    if (!*path)
        return eh_set_error(EH_ERR_BACKEND, "backend_load: the path is empty");
    struct stat sb;
    if (strchr(path, '/') && stat(path, &sb) != 0)
        return load_failed(path, "%s", strerror(errno));
    if (strchr(path, '/') && S_ISDIR(sb.st_mode))
        return load_failed(path, "%s", "is a directory, not a plugin file");

    pthread_once(&load_lock_once, init_load_lock);
    pthread_mutex_lock(&load_lock);
    eh_status st;
    dlerror();
    void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    loaded *p = NULL;
    for (p = plugins; handle && p && p->handle != handle; p = p->next)
        ;
    if (!handle) {
        const char *e = dlerror();
        char why[300];
        snprintf(why, sizeof why, "%s%s", e ? e : "unknown dlopen error",
                 e && strstr(e, "undefined symbol: eh_")
                     ? " (a plugin calls libeh through the program's symbols: link the program "
                       "with libeh.so, or with libeh.a and -rdynamic)"
                     : "");
        st = load_failed(path, "cannot load it: %s", why);
    } else if (p) { /* loaded before: the same answer again */
        dlclose(handle);
        st = p->status;
        if (st != EH_OK)
            eh_set_error(st, "%s", p->message);
    } else if (!(p = eh_mem_calloc(1, sizeof *p))) {
        dlclose(handle);
        st = eh_set_error(EH_ERR_NOMEM, "backend_load: out of memory loading '%s'", path);
    } else {
        p->handle = handle;
        st = p->status = run_init(path, handle);
        if (st != EH_OK)
            snprintf(p->message, sizeof p->message, "%s", eh_error_message());
        p->next = plugins;
        plugins = p;
    }
    pthread_mutex_unlock(&load_lock);
    return st;
}

/* ---- EH_BACKEND_PATH ---- */

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int is_plugin_name(const char *name)
{
    size_t n = strlen(name);
    return strncmp(name, "libeh-", 6) == 0 && n > 9 && strcmp(name + n - 3, ".so") == 0;
}

/* Every libeh-*.so of a directory, in name order. */
static eh_status load_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return load_failed(dir, "%s", strerror(errno));
    char **names = NULL;
    size_t n = 0, cap = 0;
    eh_status st = EH_OK;
    for (struct dirent *e; st == EH_OK && (e = readdir(d));) {
        if (!is_plugin_name(e->d_name))
            continue;
        if (n == cap) {
            char **grown = eh_mem_realloc(names, (cap = cap ? cap * 2 : 8) * sizeof *names);
            if (!grown)
                st = eh_set_error(EH_ERR_NOMEM, "backend_load: out of memory reading '%s'", dir);
            else
                names = grown;
        }
        if (st == EH_OK && !(names[n] = eh_mem_alloc(strlen(dir) + strlen(e->d_name) + 2)))
            st = eh_set_error(EH_ERR_NOMEM, "backend_load: out of memory reading '%s'", dir);
        if (st == EH_OK)
            sprintf(names[n++], "%s/%s", dir, e->d_name);
    }
    closedir(d);
    if (n > 1)
        qsort(names, n, sizeof *names, by_name);
    for (size_t k = 0; k < n; k++) {
        if (st == EH_OK)
            st = eh_backend_load(names[k]);
        eh_mem_free(names[k]);
    }
    eh_mem_free(names);
    return st;
}

eh_status eh__load_env_plugins(char *why, size_t cap)
{
    const char *env = getenv("EH_BACKEND_PATH");
    size_t len = env ? strlen(env) : 0;
    char *list = len ? eh_mem_alloc(len + 1) : NULL;
    if (list)
        memcpy(list, env, len + 1);
    if (len && !list) {
        snprintf(why, cap, "EH_BACKEND_PATH: out of memory");
        return EH_ERR_NOMEM;
    }
    eh_status st = EH_OK;
    char *save = NULL;
    for (char *entry = list ? strtok_r(list, ":", &save) : NULL; entry && st == EH_OK;
         entry = strtok_r(NULL, ":", &save)) {
        struct stat sb;
        if (stat(entry, &sb) == 0 && S_ISDIR(sb.st_mode))
            st = load_dir(entry);
        else
            st = eh_backend_load(entry);
        if (st != EH_OK)
            snprintf(why, cap, "EH_BACKEND_PATH: %s", eh_error_message());
    }
    eh_mem_free(list);
    return st;
}
