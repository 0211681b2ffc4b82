/* lint/base/pattern.c -- component-wise path pattern matching (pattern.h).
 *
 * Patterns come from configuration files, which are input: nothing here
 * backtracks.  A component glob is matched with the classic single-star
 * backtrack (O(pattern x name)); a path pattern with a table over
 * (pattern component, path component) pairs, each cell computed once, so
 * no number of `**` makes it worse than O(pattern x path). */
#include "pattern.h"

#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mem.h"

/* ---- one component ------------------------------------------------------ */

static bool class_has(const char *name, size_t len, unsigned char c)
{
    static const struct {
        const char *name;
        int (*is)(int);
    } classes[] = {
        {"alnum", isalnum}, {"alpha", isalpha}, {"blank", isblank}, {"cntrl", iscntrl},
        {"digit", isdigit}, {"graph", isgraph}, {"lower", islower}, {"print", isprint},
        {"punct", ispunct}, {"space", isspace}, {"upper", isupper}, {"xdigit", isxdigit},
    };
    for (size_t i = 0; i < sizeof classes / sizeof classes[0]; i++)
        if (strlen(classes[i].name) == len && memcmp(classes[i].name, name, len) == 0)
            return classes[i].is(c) != 0;
    return false;
}

/* A bracket expression at p ('['): its length, or 0 when it is not closed
 * (then '[' is an ordinary character, as fnmatch(3) has it); *hit tells
 * whether c is in it. */
static size_t bracket(const char *p, unsigned char c, bool *hit)
{
    size_t i = 1;
    bool negate = p[i] == '!' || p[i] == '^';
    if (negate)
        i++;
    bool in = false;
    for (bool first = true; p[i]; first = false) {
        if (p[i] == ']' && !first) {
            *hit = in != negate;
            return i + 1;
        }
        if (p[i] == '[' && p[i + 1] == ':') {
            const char *end = strstr(p + i + 2, ":]");
            if (end) {
                in |= class_has(p + i + 2, (size_t)(end - (p + i + 2)), c);
                i = (size_t)(end - p) + 2;
                continue;
            }
        }
        unsigned char lo = (unsigned char)p[i];
        if (lo == '\\' && p[i + 1])
            lo = (unsigned char)p[++i];
        i++;
        unsigned char hi = lo;
        if (p[i] == '-' && p[i + 1] && p[i + 1] != ']') {
            hi = (unsigned char)p[i + 1];
            i += 2;
            if (hi == '\\' && p[i]) {
                hi = (unsigned char)p[i];
                i++;
            }
        }
        in |= lo <= c && c <= hi;
    }
    return 0;
}

/* The atom at p (not '*', not the end): its length; *hit when it matches c. */
static size_t atom(const char *p, unsigned char c, bool *hit)
{
    if (p[0] == '?') {
        *hit = true;
        return 1;
    }
    if (p[0] == '[') {
        size_t n = bracket(p, c, hit);
        if (n)
            return n;
    }
    if (p[0] == '\\') { /* a trailing backslash matches nothing, as in fnmatch(3) */
        *hit = p[1] && (unsigned char)p[1] == c;
        return p[1] ? 2 : 1;
    }
    *hit = (unsigned char)p[0] == c;
    return 1;
}

bool el_glob_match(const char *glob, const char *s)
{
    const char *p = glob, *star_p = NULL, *star_s = NULL;
    while (*s) {
        if (*p == '*') {
            while (*p == '*')
                p++;
            star_p = p;
            star_s = s;
            continue;
        }
        bool hit = false;
        size_t n = *p ? atom(p, (unsigned char)*s, &hit) : 0;
        if (hit) {
            p += n;
            s++;
        } else if (star_p) {
            /* every atom matches exactly one character, so retrying from
             * the last star one character later is enough */
            p = star_p;
            s = ++star_s;
        } else {
            return false;
        }
    }
    while (*p == '*')
        p++;
    return *p == '\0';
}

/* ---- a path --------------------------------------------------------------- */

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

/* A glob matching the n bytes of s (el_glob_match wants a terminated
 * string). */
static bool glob_n(const char *glob, size_t glob_len, const char *s, size_t n)
{
    char *g = el_xstrndup(glob, glob_len);
    char *t = el_xstrndup(s, n);
    bool ok = el_glob_match(g, t);
    free(g);
    free(t);
    return ok;
}

/* A pattern component with its capture made a glob: "ggml-<name>" is
 * "ggml-?*" (a capture is a non-empty part of the name), so matching the
 * component stays one linear glob match; NULL without a capture. */
static char *capture_glob(const char *p)
{
    size_t at, len;
    if (!find_capture(p, &at, &len))
        return NULL;
    return el_xasprintf("%.*s?*%s", (int)at, p, p + at + len);
}

/* Where the capture of pattern component p (holding one at [at, at+len))
 * lies in the component x it matched: the first split that matches, the
 * earliest start and the longest capture ("ggml-<name>" captures "cuda"
 * of "ggml-cuda").  Each end is tried once per position: O(x^2 x p). */
static void locate_capture(const char *p, size_t at, size_t len, const char *x, size_t *cap_off,
                           size_t *cap_len)
{
    const char *post = p + at + len;
    size_t nx = strlen(x), npost = strlen(post);
    bool *ends = el_xcalloc(nx + 1, sizeof *ends);
    for (size_t j = 1; j <= nx; j++)
        ends[j] = glob_n(post, npost, x + j, nx - j);
    *cap_off = 0;
    *cap_len = nx;
    for (size_t i = 0; i < nx; i++) {
        if (!glob_n(p, at, x, i))
            continue;
        for (size_t j = nx; j > i; j--)
            if (ends[j]) {
                *cap_off = i;
                *cap_len = j - i;
                free(ends);
                return;
            }
    }
    free(ends);
}

static bool is_globstar(const char *p)
{
    return strcmp(p, "**") == 0;
}

/* can[i * (nx + 1) + j]: pattern components i.. match path components j..
 * (all of them).  Filled from the ends, each cell once. */
static unsigned char *suffix_table(const comps *pc, const comps *xc)
{
    size_t np = pc->n, nx = xc->n, w = nx + 1;
    unsigned char *can = el_xcalloc((np + 1) * w, 1);
    can[np * w + nx] = 1;
    for (size_t i = np; i-- > 0;) {
        const char *p = pc->v[i];
        bool star = is_globstar(p);
        char *cap = star ? NULL : capture_glob(p);
        const char *glob = cap ? cap : p;
        for (size_t j = nx + 1; j-- > 0;) {
            unsigned char v;
            if (star)
                v = can[(i + 1) * w + j] || (j < nx && can[i * w + j + 1]);
            else
                v = j < nx && can[(i + 1) * w + j + 1] && el_glob_match(glob, xc->v[j]);
            can[i * w + j] = v;
        }
        free(cap);
    }
    return can;
}

typedef struct capture {
    const char *s; /* the component it is in, NULL when nothing captured */
    size_t off, len;
} capture;

/* Follow the match the first way a left-to-right search would find it
 * (earliest start, fewest components for each "**") and return what the
 * first <word> captured. */
static capture first_capture(const comps *pc, const comps *xc, const unsigned char *can,
                             size_t start)
{
    size_t w = xc->n + 1, j = start, at, len;
    for (size_t i = 0; i < pc->n; i++) {
        if (is_globstar(pc->v[i])) {
            while (!can[(i + 1) * w + j])
                j++;
        } else {
            if (find_capture(pc->v[i], &at, &len)) {
                capture c = {xc->v[j], 0, 0};
                locate_capture(pc->v[i], at, len, xc->v[j], &c.off, &c.len);
                return c;
            }
            j++;
        }
    }
    return (capture){0};
}

/* The last component of a pattern when it is literal (no * ? [ \\ or <,
 * and no trailing '/'): the last component of any path it matches is
 * that text.  *n its length; NULL when it is not literal. */
static const char *literal_tail(const char *pattern, size_t lp, size_t *n)
{
    if (!lp || pattern[lp - 1] == '/')
        return NULL;
    size_t b = lp;
    while (b > 0 && pattern[b - 1] != '/') {
        char c = pattern[b - 1];
        if (c == '*' || c == '?' || c == '[' || c == '\\' || c == '<')
            return NULL;
        b--;
    }
    *n = lp - b;
    return pattern + b;
}

bool el_pattern_match(const char *pattern, const char *path, char *out, size_t capn)
{
    bool anchored = pattern[0] == '/';
    size_t lp = strlen(pattern), lx = strlen(path);
    /* Most patterns end in a literal name ("cblas.h"), and most paths
     * asked end in another: told apart here, without splitting either
     * (the configuration's lists are matched against every file a rule
     * asks about). */
    size_t tn = 0;
    const char *tail = literal_tail(pattern, lp, &tn);
    if (tail) {
        size_t e = lx;
        while (e > 0 && path[e - 1] == '/')
            e--;
        size_t b = e;
        while (b > 0 && path[b - 1] != '/')
            b--;
        if (e - b != tn || memcmp(path + b, tail, tn) != 0)
            return false;
    }
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
        unsigned char *can = suffix_table(&pc, &xc);
        size_t start = 0;
        for (; start <= (anchored ? 0 : xc.n); start++)
            if (can[start]) {
                ok = true;
                break;
            }
        if (ok && out && capn)
            cap = first_capture(&pc, &xc, can, start);
        free(can);
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
