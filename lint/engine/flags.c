/* lint/engine/flags.c -- compiler arguments per file (flags.h). */
#include "flags.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "args_policy.h"
#include "mem.h"
#include "path.h"

#ifndef EL_PREFIX
#define EL_PREFIX "/usr/local"
#endif

static void push(char ***v, size_t *n, size_t *cap, const char *s)
{
    el_grow(v, cap, *n + 1, sizeof **v);
    (*v)[(*n)++] = el_xstrdup(s);
}

static bool exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* The directory D above the file with D/libeh/include/eh/eh.h, or NULL. */
static char *tree_with_libeh(const char *abs_file)
{
    char *dir = el_path_dirname(abs_file);
    char *tree = el_path_upward(dir, "libeh/include/eh/eh.h");
    free(dir);
    return tree;
}

/* <prefix>/include holding eh/eh.h: next to the emberlint binary
 * (bin/../include), else the configured prefix. */
static char *installed_include(void)
{
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        char *bin = el_path_dirname(exe);
        char *pre = el_path_dirname(bin);
        char *inc = el_path_join(pre, "include");
        char *probe = el_path_join(inc, "eh/eh.h");
        bool hit = exists(probe);
        free(probe);
        free(bin);
        free(pre);
        if (hit)
            return inc;
        free(inc);
    }
    if (exists(EL_PREFIX "/include/eh/eh.h"))
        return el_xstrdup(EL_PREFIX "/include");
    return NULL;
}

char **el_default_flags(const char *abs_file, size_t *n_out)
{
    char **v = NULL;
    size_t n = 0, cap = 0;
    push(&v, &n, &cap, "-std=c11");
    char *tree = tree_with_libeh(abs_file);
    if (tree) {
        char *inc = el_path_join(tree, "libeh/include");
        char *lib = el_path_join(tree, "libeh");
        push(&v, &n, &cap, "-I");
        push(&v, &n, &cap, inc);
        push(&v, &n, &cap, "-I");
        push(&v, &n, &cap, lib);
        free(inc);
        free(lib);
        free(tree);
    } else {
        char *inc = installed_include();
        if (inc) {
            push(&v, &n, &cap, "-I");
            push(&v, &n, &cap, inc);
            free(inc);
        }
    }
    *n_out = n;
    return v;
}

char **el_flags_for(const el_compdb *db, const el_source *src, char *const *extra,
                    size_t n_extra, size_t *n_out, char ***dropped, size_t *n_dropped)
{
    size_t n = 0, cap = 0;
    char **v = NULL;
    if (src->force_c) {
        push(&v, &n, &cap, "-x");
        push(&v, &n, &cap, "c");
    }
    size_t nb = 0;
    char **base = db ? el_compdb_args(db, src->path, &nb) : NULL;
    if (!base)
        base = el_default_flags(src->path, &nb);
    for (size_t i = 0; i < nb; i++)
        push(&v, &n, &cap, base[i]);
    el_args_free(base, nb);
    for (size_t i = 0; i < n_extra; i++)
        push(&v, &n, &cap, extra[i]);
    /* whatever their source, only arguments that affect parsing alone */
    n = el_args_filter(v, n, dropped, n_dropped);
    /* Warnings are not findings: only errors make EH000, whatever -Werror
     * the project's flags carry. */
    push(&v, &n, &cap, "-w");
    *n_out = n;
    return v;
}
