/* lint/base/pattern.c -- component-wise path pattern matching (pattern.h). */
#include "pattern.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "mem.h"

typedef struct comps {
    char *buf;
    const char **v;
    size_t n;
} comps;

static void split(const char *s, comps *c)
{
    size_t len = strlen(s);
    c->buf = el_xstrdup(s);
    c->v = el_xmalloc((len + 2) * sizeof *c->v);
    c->n = 0;
    char *save = NULL;
    for (char *t = strtok_r(c->buf, "/", &save); t; t = strtok_r(NULL, "/", &save))
        c->v[c->n++] = t;
}

static bool is_capture(const char *p)
{
    size_t l = strlen(p);
    return l >= 3 && p[0] == '<' && p[l - 1] == '>';
}

static bool match(const char **p, size_t np, const char **x, size_t nx, const char **cap)
{
    if (np == 0)
        return nx == 0;
    if (strcmp(p[0], "**") == 0) {
        for (size_t k = 0; k <= nx; k++)
            if (match(p + 1, np - 1, x + k, nx - k, cap))
                return true;
        return false;
    }
    if (nx == 0)
        return false;
    if (is_capture(p[0])) {
        const char *saved = *cap;
        if (!*cap)
            *cap = x[0];
        if (match(p + 1, np - 1, x + 1, nx - 1, cap))
            return true;
        *cap = saved;
        return false;
    }
    if (fnmatch(p[0], x[0], 0) != 0)
        return false;
    return match(p + 1, np - 1, x + 1, nx - 1, cap);
}

bool el_pattern_match(const char *pattern, const char *path, char *capture, size_t capn)
{
    bool anchored = pattern[0] == '/';
    size_t lp = strlen(pattern);
    char *pat = lp && pattern[lp - 1] == '/' ? el_xasprintf("%s**", pattern) : el_xstrdup(pattern);
    comps pc, xc;
    split(pat, &pc);
    split(path, &xc);
    bool ok = false;
    const char *cap = NULL;
    if (pc.n) {
        for (size_t start = 0; start <= (anchored ? 0 : xc.n) && !ok; start++) {
            cap = NULL;
            ok = match(pc.v, pc.n, xc.v + start, xc.n - start, &cap);
        }
    }
    if (ok && capture && capn) {
        capture[0] = '\0';
        if (cap) {
            size_t l = strlen(cap);
            if (l >= capn)
                l = capn - 1;
            memcpy(capture, cap, l);
            capture[l] = '\0';
        }
    }
    free(pat);
    free(pc.buf);
    free(pc.v);
    free(xc.buf);
    free(xc.v);
    return ok;
}
