/* lint/engine/own_backend_include.c -- does a file's own text #include a
 * backend header (own_backend_include.h)? */
#include "own_backend_include.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend_header_memo.h"
#include "config.h"
#include "include_line.h"
#include "mem.h"
#include "path.h"

/* The whole file (NULL when it cannot be read). */
static char *read_text(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 65536, len = 0, got;
    char *buf = el_xmalloc(cap);
    while ((got = fread(buf + len, 1, cap - len, f)) > 0) {
        len += got;
        if (len == cap)
            buf = el_xrealloc(buf, cap *= 2);
    }
    fclose(f);
    *n = len;
    return buf;
}

/* As EH101 reads an include (backend_include.c on_directive,
 * add_include): a backend header, or a legacy backend's file, unless it
 * is the includer's own legacy backend's. */
static bool names_backend_header(const el_config *cfg, const char *dir, const char *own,
                                 bool angled, const char *name, size_t len)
{
    char *spelled = el_xstrndup(name, len);
    char *real = NULL;
    if (!angled) {
        char *near = el_path_join(dir, spelled);
        real = el_path_real(near);
        free(near);
    }
    char backend[64] = "";
    bool legacy = real && el_config_legacy_backend(cfg, real, backend, sizeof backend);
    bool yes = (el_backend_header_memo(cfg, spelled, real) || legacy) &&
               !(legacy && own[0] && strcmp(backend, own) == 0);
    free(real);
    free(spelled);
    return yes;
}

bool el_includes_backend_header(const char *path, const el_config *cfg)
{
    size_t n = 0;
    char *text = read_text(path, &n);
    if (!text)
        return false;
    char *dir = el_path_dirname(path), own[64] = "";
    if (!el_config_legacy_backend(cfg, path, own, sizeof own))
        own[0] = '\0';
    bool yes = false;
    for (size_t i = 0; i < n && !yes;) {
        const char *nl = memchr(text + i, '\n', n - i);
        size_t end = nl ? (size_t)(nl - text) : n;
        bool angled = false;
        const char *name = NULL;
        size_t len = 0;
        if (memchr(text + i, '#', end - i) &&
            el_include_line(text + i, end - i, &angled, &name, &len))
            yes = names_backend_header(cfg, dir, own, angled, name, len);
        i = end + 1;
    }
    free(dir);
    free(text);
    return yes;
}
