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

/* The capture "<word>" inside a pattern component: its offset and
 * length, or false when the component has none. */
static bool find_capture(const char *p, size_t *at, size_t *len)
{
    const char *open = strchr(p, '<');
    const char *close = open ? strchr(open, '>') : NULL;
    if (!open || !close || close - open < 2)
        return false;
    for (const char *q = open + 1; q < close; q++)
        if (!((*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') || (*q >= '0' && *q <= '9') ||
              *q == '_'))
            return false;
    *at = (size_t)(open - p);
    *len = (size_t)(close - open) + 1;
    return true;
}

/* A glob matching the n bytes of s (fnmatch wants a terminated string). */
static bool glob_n(const char *glob, size_t glob_len, const char *s, size_t n)
{
    char *g = el_xstrndup(glob, glob_len);
    char *t = el_xstrndup(s, n);
    bool ok = fnmatch(g, t, 0) == 0;
    free(g);
    free(t);
    return ok;
}

/* Component x against a pattern component holding a capture at [at,
 * at+len): "ggml-<name>" matches "ggml-cuda" capturing "cuda".  The
 * capture is never empty; the first split that matches wins. */
static bool match_capture(const char *p, size_t at, size_t len, const char *x, size_t *cap_off,
                          size_t *cap_len)
{
    const char *post = p + at + len;
    size_t nx = strlen(x);
    for (size_t i = 0; i < nx; i++) {
        if (!glob_n(p, at, x, i))
            continue;
        for (size_t j = nx; j > i; j--) {
            if (glob_n(post, strlen(post), x + j, nx - j)) {
                *cap_off = i;
                *cap_len = j - i;
                return true;
            }
        }
    }
    return false;
}

typedef struct capture {
    const char *s;   /* the component it is in, NULL when nothing captured yet */
    size_t off, len;
} capture;

static bool match(const char **p, size_t np, const char **x, size_t nx, capture *cap)
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
    size_t at, len, off, clen;
    if (find_capture(p[0], &at, &len)) {
        if (!match_capture(p[0], at, len, x[0], &off, &clen))
            return false;
        capture saved = *cap;
        if (!cap->s)
            *cap = (capture){x[0], off, clen};
        if (match(p + 1, np - 1, x + 1, nx - 1, cap))
            return true;
        *cap = saved;
        return false;
    }
    if (fnmatch(p[0], x[0], 0) != 0)
        return false;
    return match(p + 1, np - 1, x + 1, nx - 1, cap);
}

bool el_pattern_match(const char *pattern, const char *path, char *out, size_t capn)
{
    bool anchored = pattern[0] == '/';
    size_t lp = strlen(pattern), lx = strlen(path);
    /* A trailing '/' means a directory: something below it, or the
     * directory itself when the path names one (ends in '/'), never a
     * file of that name ("backends/<name>/" is not "backends/x.h"). */
    bool dir = lx && path[lx - 1] == '/';
    char *pat = lp && pattern[lp - 1] == '/' ? el_xasprintf(dir ? "%s**" : "%s**/*", pattern)
                                             : el_xstrdup(pattern);
    comps pc, xc;
    split(pat, &pc);
    split(path, &xc);
    bool ok = false;
    capture cap = {0};
    if (pc.n) {
        for (size_t start = 0; start <= (anchored ? 0 : xc.n) && !ok; start++) {
            cap = (capture){0};
            ok = match(pc.v, pc.n, xc.v + start, xc.n - start, &cap);
        }
    }
    if (ok && out && capn) {
        out[0] = '\0';
        if (cap.s) {
            size_t l = cap.len < capn ? cap.len : capn - 1;
            memcpy(out, cap.s + cap.off, l);
            out[l] = '\0';
        }
    }
    free(pat);
    free(pc.buf);
    free(pc.v);
    free(xc.buf);
    free(xc.v);
    return ok;
}

bool el_pattern_has_capture(const char *pattern)
{
    comps pc;
    split(pattern, &pc);
    size_t n = 0, at, len;
    for (size_t i = 0; i < pc.n; i++)
        n += find_capture(pc.v[i], &at, &len);
    free(pc.buf);
    free(pc.v);
    return n == 1;
}
