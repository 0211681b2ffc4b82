/* lint/engine/flags.c -- compiler arguments per file (flags.h). */
#include "flags.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "args_policy.h"
#include "language.h"
#include "libeh_headers.h"
#include "mem.h"
#include "path.h"

static void push(char ***v, size_t *n, size_t *cap, const char *s)
{
    el_grow(v, cap, *n + 1, sizeof **v);
    (*v)[(*n)++] = el_xstrdup(s);
}

/* One of the -I / -isystem directories of v holds eh/eh.h: the project's
 * flags find libeh themselves (the fallbacks would only cost lookups). */
static bool flags_find_libeh(char *const *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const char *dir = NULL;
        if ((strcmp(v[i], "-I") == 0 || strcmp(v[i], "-isystem") == 0) && i + 1 < n)
            dir = v[++i];
        else if (strncmp(v[i], "-I", 2) == 0)
            dir = v[i] + 2;
        if (!dir)
            continue;
        char *probe = el_path_join(dir, "eh/eh.h");
        struct stat st;
        bool hit = stat(probe, &st) == 0;
        free(probe);
        if (hit)
            return true;
    }
    return false;
}

/* The standards a file gets when nothing names one: C's is the one cc
 * has (gcc 12 and clang 14: gnu17), so code built with plain cc that uses
 * M_PI, optarg or strdup parses (strict -std=c11 hides them). */
#define DEFAULT_C_STD "-std=gnu17"
#define DEFAULT_CXX_STD "-std=c++17"

/* Drop the -x and -std= arguments of v. */
static void drop_language(char **v, size_t *nv)
{
    size_t n = 0;
    for (size_t i = 0; i < *nv; i++) {
        bool with_value = strcmp(v[i], "-x") == 0 && i + 1 < *nv;
        if (with_value || strncmp(v[i], "-x", 2) == 0 || strncmp(v[i], "-std=", 5) == 0) {
            free(v[i]);
            if (with_value)
                free(v[++i]);
            continue;
        }
        v[n++] = v[i];
    }
    *nv = n;
}

/* A file that borrows another file's entry (a header, or a source the
 * database does not list) keeps its own language: a C++ header borrowing
 * a C entry gets -x c++-header -std=c++17 instead of the entry's -std and
 * -x, a C file borrowing a C++ entry loses them. */
static void keep_language(const el_source *src, char ***base, size_t *nb)
{
    bool entry_cxx = el_args_have_language(*base, *nb) &&
                     el_command_is_cxx(NULL, *base, *nb, NULL);
    if (entry_cxx == src->cxx)
        return;
    drop_language(*base, nb);
    char **v = *base;
    size_t n = *nb;
    if (src->cxx) {
        size_t cap = n + 3;
        char **w = el_xmalloc(cap * sizeof *w);
        w[0] = el_xstrdup("-x");
        w[1] = el_xstrdup(src->is_header ? "c++-header" : "c++");
        w[2] = el_xstrdup(DEFAULT_CXX_STD);
        memcpy(w + 3, v, n * sizeof *v);
        free(v);
        *base = w;
        *nb = n + 3;
    }
}

static bool names_std(char *const *args, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (strncmp(args[i], "-std=", 5) == 0 || strncmp(args[i], "--std", 5) == 0)
            return true;
    return false;
}

/* The flags of a file no database entry covers: its language and a
 * standard for it, unless the arguments after -- (extra) name them.
 * Those decide, and the default must agree with them: clang refuses
 * -std=gnu17 with -x c++, and then parses nothing at all. */
static char **fallback_flags(const el_source *src, char *const *extra, size_t n_extra,
                             size_t *n_out)
{
    const char *x = el_args_language(extra, n_extra);
    bool cxx = x ? el_language_is_cxx(x) : src->cxx;
    char **v = NULL;
    size_t n = 0, cap = 0;
    if (cxx && !x) {
        push(&v, &n, &cap, "-x");
        push(&v, &n, &cap, src->is_header ? "c++-header" : "c++");
    }
    if (!names_std(extra, n_extra))
        push(&v, &n, &cap, cxx ? DEFAULT_CXX_STD : DEFAULT_C_STD);
    *n_out = n;
    return v;
}

static char **base_flags(const el_compdb *db, const el_source *src, char *const *extra,
                         size_t n_extra, size_t *n_out)
{
    size_t nb = 0;
    char **base = db ? el_compdb_args(db, src->path, &nb) : NULL;
    if (base && !el_compdb_lists(db, src->path))
        keep_language(src, &base, &nb);
    if (!base)
        return fallback_flags(src, extra, n_extra, n_out);
    /* a -x after -- decides over the entry's: its -x and -std= go, and
     * the standard is the one given after --, else the language's default */
    const char *x = el_args_language(extra, n_extra);
    if (x) {
        drop_language(base, &nb);
        if (!names_std(extra, n_extra)) {
            base = el_xrealloc(base, (nb + 2) * sizeof *base);
            base[nb++] = el_xstrdup(el_language_is_cxx(x) ? DEFAULT_CXX_STD : DEFAULT_C_STD);
        }
    }
    *n_out = nb;
    return base;
}

char **el_base_flags(const el_compdb *db, const el_source *src, size_t *n_out)
{
    return base_flags(db, src, NULL, 0, n_out);
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
    char **base = base_flags(db, src, extra, n_extra, &nb);
    for (size_t i = 0; i < nb; i++)
        push(&v, &n, &cap, base[i]);
    el_args_free(base, nb);
    /* The project's flags first: their -I directories win over libeh's
     * fallbacks (next to the binary, pkg-config, the tree above). */
    for (size_t i = 0; i < n_extra; i++)
        push(&v, &n, &cap, extra[i]);
    /* whatever their source, only arguments that affect parsing alone */
    n = el_args_filter(v, n, dropped, n_dropped);
    size_t nd = 0;
    char **dirs = flags_find_libeh(v, n) ? NULL : el_libeh_include_dirs(src->path, &nd);
    for (size_t i = 0; i < nd; i++) {
        push(&v, &n, &cap, "-I");
        push(&v, &n, &cap, dirs[i]);
    }
    el_args_free(dirs, nd);
    /* Warnings are not findings: only errors make EH000, whatever -Werror
     * the project's flags carry.  Every error is counted: past clang's
     * default limit (20) a file's own errors go unseen behind its
     * headers', and a .c template that fails alone (GSL's fft/c_main.c)
     * passed for one that parses, so its includes were blamed. */
    push(&v, &n, &cap, "-ferror-limit=0");
    push(&v, &n, &cap, "-w"); /* last: the fix check swaps it for its -Werror= (reparse.c) */
    *n_out = n;
    return v;
}
