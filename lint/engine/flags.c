/* lint/engine/flags.c -- compiler arguments per file (flags.h). */
#include "flags.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "libeh_headers.h"
#include "mem.h"
#include "path.h"

static void push(char ***v, size_t *n, size_t *cap, const char *s)
{
    el_grow(v, cap, *n + 1, sizeof **v);
    (*v)[(*n)++] = el_xstrdup(s);
}

char **el_flags_for(const el_compdb *db, const el_source *src, char *const *extra,
                    size_t n_extra, size_t *n_out)
{
    size_t n = 0, cap = 0;
    char **v = NULL;
    if (src->force_c) {
        push(&v, &n, &cap, "-x");
        push(&v, &n, &cap, "c");
    }
    size_t nb = 0;
    char **base = db ? el_compdb_args(db, src->path, &nb) : NULL;
    if (!base && src->cxx) {
        push(&v, &n, &cap, "-x");
        push(&v, &n, &cap, src->is_header ? "c++-header" : "c++");
        push(&v, &n, &cap, "-std=c++17");
    } else if (!base) {
        push(&v, &n, &cap, "-std=c11");
    }
    for (size_t i = 0; i < nb; i++)
        push(&v, &n, &cap, base[i]);
    el_args_free(base, nb);
    /* The project's flags first: their -I directories win over libeh's
     * fallbacks (next to the binary, pkg-config, the tree above). */
    for (size_t i = 0; i < n_extra; i++)
        push(&v, &n, &cap, extra[i]);
    size_t nd = 0;
    char **dirs = el_libeh_include_dirs(src->path, &nd);
    for (size_t i = 0; i < nd; i++) {
        push(&v, &n, &cap, "-I");
        push(&v, &n, &cap, dirs[i]);
    }
    el_args_free(dirs, nd);
    /* Warnings are not findings: only errors make EH000, whatever -Werror
     * the project's flags carry. */
    push(&v, &n, &cap, "-w");
    *n_out = n;
    return v;
}
