/* lint/engine/libeh_headers.c -- libeh's headers when the flags do not
 * say (libeh_headers.h). */
#include "libeh_headers.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compdb.h"
#include "mem.h"
#include "path.h"

#ifndef EL_PREFIX
#define EL_PREFIX "/usr/local"
#endif

static bool has_eh_h(const char *inc)
{
    char *probe = el_path_join(inc, "eh/eh.h");
    struct stat st;
    bool hit = stat(probe, &st) == 0;
    free(probe);
    return hit;
}

/* The same for every file: found once per process. */
static char *fixed[8];
static size_t n_fixed;
static pthread_once_t fixed_once = PTHREAD_ONCE_INIT;

static void add_fixed(const char *dir)
{
    if (n_fixed == sizeof fixed / sizeof *fixed || !has_eh_h(dir))
        return;
    char *real = el_path_real(dir);
    if (!real)
        return;
    for (size_t i = 0; i < n_fixed; i++) {
        if (strcmp(fixed[i], real) == 0) {
            free(real);
            return;
        }
    }
    fixed[n_fixed++] = real;
}

/* The -I directories `pkg-config --cflags-only-I eh` prints (none when
 * pkg-config or eh.pc is missing: never an error). */
static void from_pkg_config(void)
{
    FILE *p = popen("pkg-config --cflags-only-I eh 2>/dev/null", "r");
    if (!p)
        return;
    char buf[4096];
    size_t got = fread(buf, 1, sizeof buf - 1, p);
    buf[got] = '\0';
    pclose(p);
    char *save = NULL;
    for (char *t = strtok_r(buf, " \t\n", &save); t; t = strtok_r(NULL, " \t\n", &save))
        if (strncmp(t, "-I", 2) == 0 && t[2])
            add_fixed(t + 2);
}

static void find_fixed(void)
{
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        char *bin = el_path_dirname(exe);
        char *pre = el_path_dirname(bin);
        char *inc = el_path_join(pre, "include");
        add_fixed(inc);
        free(inc);
        free(pre);
        free(bin);
    }
    from_pkg_config();
    add_fixed(EL_PREFIX "/include");
}

/* The directory D above the file with D/libeh/include/eh/eh.h, or NULL. */
static char *tree_with_libeh(const char *abs_file)
{
    char *dir = el_path_dirname(abs_file);
    for (;;) {
        char *inc = el_path_join(dir, "libeh/include");
        bool hit = has_eh_h(inc);
        free(inc);
        if (hit)
            return dir;
        if (strcmp(dir, "/") == 0)
            break;
        char *up = el_path_dirname(dir);
        free(dir);
        dir = up;
    }
    free(dir);
    return NULL;
}

static void push_unique(char ***v, size_t *n, size_t *cap, const char *dir)
{
    for (size_t i = 0; i < *n; i++)
        if (strcmp((*v)[i], dir) == 0)
            return;
    el_grow(v, cap, *n + 1, sizeof **v);
    (*v)[(*n)++] = el_xstrdup(dir);
}

char **el_libeh_include_dirs(const char *abs_file, size_t *n)
{
    pthread_once(&fixed_once, find_fixed);
    char **v = NULL;
    size_t cap = 0;
    *n = 0;
    for (size_t i = 0; i < n_fixed; i++)
        push_unique(&v, n, &cap, fixed[i]);
    char *tree = tree_with_libeh(abs_file);
    if (tree) {
        char *inc = el_path_join(tree, "libeh/include");
        char *lib = el_path_join(tree, "libeh");
        char *real_inc = el_path_real(inc);
        push_unique(&v, n, &cap, real_inc ? real_inc : inc);
        push_unique(&v, n, &cap, lib);
        free(real_inc);
        free(inc);
        free(lib);
        free(tree);
    }
    return v;
}
