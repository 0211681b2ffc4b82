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

static bool is_capture(const char *p)
{
    size_t l = strlen(p);
    return l >= 3 && p[0] == '<' && p[l - 1] == '>';
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
        bool star = is_globstar(p), cap = !star && is_capture(p);
        for (size_t j = nx + 1; j-- > 0;) {
            unsigned char v;
            if (star)
                v = can[(i + 1) * w + j] || (j < nx && can[i * w + j + 1]);
            else
                v = j < nx && can[(i + 1) * w + j + 1] && (cap || el_glob_match(p, xc->v[j]));
            can[i * w + j] = v;
        }
    }
    return can;
}

/* Follow the match the first way a left-to-right search would find it
 * (earliest start, fewest components for each "**") and return the path
 * component the first <word> matched, or NULL. */
static const char *first_capture(const comps *pc, const comps *xc, const unsigned char *can,
                                 size_t start)
{
    size_t w = xc->n + 1, j = start;
    for (size_t i = 0; i < pc->n; i++) {
        if (is_globstar(pc->v[i])) {
            while (!can[(i + 1) * w + j])
                j++;
        } else {
            if (is_capture(pc->v[i]))
                return xc->v[j];
            j++;
        }
    }
    return NULL;
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
        unsigned char *can = suffix_table(&pc, &xc);
        size_t start = 0;
        for (; start <= (anchored ? 0 : xc.n); start++)
            if (can[start]) {
                ok = true;
                break;
            }
        if (ok && capture && capn)
            cap = first_capture(&pc, &xc, can, start);
        free(can);
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
