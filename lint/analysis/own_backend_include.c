/* lint/analysis/own_backend_include.c -- does a file's own text #include a
 * backend header (own_backend_include.h)? */
#include "own_backend_include.h"

#include <stdlib.h>
#include <string.h>

#include "backend_header_memo.h"
#include "config.h"
#include "include_line.h"
#include "mem.h"
#include "path.h"
#include "strbuf.h"
#include "realpath_cache.h"

bool el_include_is_backend_private(const el_config *cfg, const char *spelled, const char *real)
{
    return el_backend_header_memo(cfg, spelled, real) || (real && el_legacy_backend_memo(cfg, real));
}

bool el_same_legacy_backend(const el_config *cfg, const char *a, const char *b)
{
    char ba[64], bb[64];
    return a && b && el_config_legacy_backend(cfg, a, ba, sizeof ba) &&
           el_config_legacy_backend(cfg, b, bb, sizeof bb) && strcmp(ba, bb) == 0;
}

/* The include `name` of the file at `path` (in dir), as EH101 reads it
 * (backend_include.c): backend-private, and not the includer's own
 * legacy backend's header. */
static bool names_backend_header(const el_config *cfg, const char *path, const char *dir,
                                 bool angled, const char *name, size_t len)
{
    char *spelled = el_xstrndup(name, len);
    char *real = NULL;
    if (!angled) {
        char *near = el_path_join(dir, spelled);
        real = el_realpath_cached(near);
        free(near);
    }
    bool yes = el_include_is_backend_private(cfg, spelled, real) &&
               !el_same_legacy_backend(cfg, real, path);
    free(real);
    free(spelled);
    return yes;
}

bool el_includes_backend_header(const char *path, const el_config *cfg)
{
    el_buf b = {0};
    if (!el_buf_read_path(&b, path)) {
        el_buf_free(&b);
        return false;
    }
    size_t n = b.n;
    const char *text = el_buf_str(&b);
    char *dir = el_path_dirname(path);
    bool yes = false;
    for (size_t i = 0; i < n && !yes;) {
        const char *nl = memchr(text + i, '\n', n - i);
        size_t end = nl ? (size_t)(nl - text) : n;
        bool angled = false;
        const char *name = NULL;
        size_t len = 0;
        if (memchr(text + i, '#', end - i) &&
            el_include_line(text + i, end - i, &angled, &name, &len))
            yes = names_backend_header(cfg, path, dir, angled, name, len);
        i = end + 1;
    }
    free(dir);
    el_buf_free(&b);
    return yes;
}
