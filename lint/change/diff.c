/* lint/change/diff.c -- unified diffs in git's format (see diff.h).
 *
 * Lines are compared with their terminator, so a last line without a
 * newline differs from the same text with one (that is how the "\ No
 * newline at end of file" hunks come out).  The line diff is Myers'
 * O(ND) algorithm in linear space (the middle-snake recursion GNU diff
 * uses); a region whose edit distance gets very large is simply replaced
 * as a whole, which is still a correct diff and bounds the time. */
#include "diff.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mem.h"

enum { CONTEXT = 3, TOO_EXPENSIVE = 4096 };

typedef struct line {
    const char *p;
    size_t len;    /* with the '\n', if any */
} line;

typedef struct side {
    line *v;
    size_t n;
    int *id;       /* equivalence class of each line */
    char *chg;     /* 1: deleted (old) / inserted (new) */
} side;

static size_t split_lines(const char *s, size_t len, line **out)
{
    size_t n = 0;
    for (size_t i = 0; i < len; i++)
        if (s[i] == '\n')
            n++;
    if (len && s[len - 1] != '\n')
        n++;
    line *v = el_xcalloc(n ? n : 1, sizeof *v);
    size_t k = 0, start = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] == '\n') {
            v[k].p = s + start;
            v[k].len = i + 1 - start;
            k++;
            start = i + 1;
        }
    }
    if (start < len) {
        v[k].p = s + start;
        v[k].len = len - start;
    }
    *out = v;
    return n;
}

static uint64_t hash_line(const line *l)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < l->len; i++) {
        h ^= (unsigned char)l->p[i];
        h *= 1099511628211ull;
    }
    return h;
}

/* Give equal lines of both sides equal ids, so the diff compares ints. */
static void intern(side *a, side *b)
{
    size_t total = a->n + b->n;
    size_t cap = 16;
    while (cap < 2 * total)
        cap *= 2;
    const line **slot = el_xcalloc(cap, sizeof *slot);
    int *slot_id = el_xcalloc(cap, sizeof *slot_id);
    int next = 0;
    side *sides[2] = {a, b};
    for (int s = 0; s < 2; s++) {
        side *sd = sides[s];
        sd->id = el_xmalloc((sd->n ? sd->n : 1) * sizeof *sd->id);
        for (size_t i = 0; i < sd->n; i++) {
            const line *l = &sd->v[i];
            size_t h = (size_t)hash_line(l) & (cap - 1);
            while (slot[h] && !(slot[h]->len == l->len && memcmp(slot[h]->p, l->p, l->len) == 0))
                h = (h + 1) & (cap - 1);
            if (!slot[h]) {
                slot[h] = l;
                slot_id[h] = next++;
            }
            sd->id[i] = slot_id[h];
        }
    }
    free(slot);
    free(slot_id);
}

typedef struct ctx {
    const int *x, *y;
    char *xchg, *ychg;
    int *fd, *bd;      /* diagonal vectors, indexed -(ny+1) .. nx+1 */
} ctx;

/* Find the midpoint of a shortest edit script of x[xoff,xlim) and
 * y[yoff,ylim) (both non-empty); false when that gets too expensive. */
static bool middle_snake(ctx *c, int xoff, int xlim, int yoff, int ylim, int *xmid, int *ymid)
{
    int *fd = c->fd, *bd = c->bd;
    const int *x = c->x, *y = c->y;
    const int dmin = xoff - ylim, dmax = xlim - yoff;
    const int fmid = xoff - yoff, bmid = xlim - ylim;
    int fmin = fmid, fmax = fmid, bmin = bmid, bmax = bmid;
    const bool odd = (fmid - bmid) & 1;
    fd[fmid] = xoff;
    bd[bmid] = xlim;
    for (int cost = 1;; cost++) {
        if (cost > TOO_EXPENSIVE)
            return false;
        if (fmin > dmin)
            fd[--fmin - 1] = -1;
        else
            ++fmin;
        if (fmax < dmax)
            fd[++fmax + 1] = -1;
        else
            --fmax;
        for (int d = fmax; d >= fmin; d -= 2) {
            int tlo = fd[d - 1], thi = fd[d + 1];
            int px = tlo >= thi ? tlo + 1 : thi;
            int py = px - d;
            while (px < xlim && py < ylim && x[px] == y[py]) {
                px++;
                py++;
            }
            fd[d] = px;
            if (odd && bmin <= d && d <= bmax && bd[d] <= px) {
                *xmid = px;
                *ymid = py;
                return true;
            }
        }
        if (bmin > dmin)
            bd[--bmin - 1] = INT_MAX;
        else
            ++bmin;
        if (bmax < dmax)
            bd[++bmax + 1] = INT_MAX;
        else
            --bmax;
        for (int d = bmax; d >= bmin; d -= 2) {
            int tlo = bd[d - 1], thi = bd[d + 1];
            int px = tlo < thi ? tlo : thi - 1;
            int py = px - d;
            while (px > xoff && py > yoff && x[px - 1] == y[py - 1]) {
                px--;
                py--;
            }
            bd[d] = px;
            if (!odd && fmin <= d && d <= fmax && px <= fd[d]) {
                *xmid = px;
                *ymid = py;
                return true;
            }
        }
    }
}

static void compare(ctx *c, int xoff, int xlim, int yoff, int ylim)
{
    while (xoff < xlim && yoff < ylim && c->x[xoff] == c->y[yoff]) {
        xoff++;
        yoff++;
    }
    while (xlim > xoff && ylim > yoff && c->x[xlim - 1] == c->y[ylim - 1]) {
        xlim--;
        ylim--;
    }
    int xmid, ymid;
    if (xoff == xlim || yoff == ylim || !middle_snake(c, xoff, xlim, yoff, ylim, &xmid, &ymid)) {
        /* One side empty, or too costly: the region is replaced whole. */
        for (int i = xoff; i < xlim; i++)
            c->xchg[i] = 1;
        for (int i = yoff; i < ylim; i++)
            c->ychg[i] = 1;
        return;
    }
    compare(c, xoff, xmid, yoff, ymid);
    compare(c, xmid, xlim, ymid, ylim);
}

static void diff_lines(side *a, side *b)
{
    a->chg = el_xcalloc(a->n + 1, 1);
    b->chg = el_xcalloc(b->n + 1, 1);
    intern(a, b);
    size_t diags = a->n + b->n + 3;
    int *vec = el_xmalloc(2 * diags * sizeof *vec);
    ctx c = {a->id, b->id, a->chg, b->chg, vec + b->n + 1, vec + diags + b->n + 1};
    compare(&c, 0, (int)a->n, 0, (int)b->n);
    free(vec);
}

/* ---- output ---- */

typedef struct change {
    size_t i0, i1, j0, j1;   /* old[i0,i1) replaced by new[j0,j1) */
} change;

static bool needs_quote(const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if (*p < 0x20 || *p >= 0x7f || *p == '"' || *p == '\\')
            return true;
    return false;
}

/* prefix + path, C-quoted the way git quotes unusual names. */
static char *git_name(const char *prefix, const char *path)
{
    size_t n = strlen(prefix) + strlen(path);
    if (!needs_quote(path)) {
        char *r = el_xmalloc(n + 1);
        strcpy(r, prefix);
        strcat(r, path);
        return r;
    }
    char *r = el_xmalloc(4 * n + 3), *w = r;
    *w++ = '"';
    for (const char *s = prefix; *s; s++)
        *w++ = *s;
    for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
        const char *esc = NULL;
        switch (*p) {
        case '\a': esc = "\\a"; break;
        case '\b': esc = "\\b"; break;
        case '\t': esc = "\\t"; break;
        case '\n': esc = "\\n"; break;
        case '\v': esc = "\\v"; break;
        case '\f': esc = "\\f"; break;
        case '\r': esc = "\\r"; break;
        case '"': esc = "\\\""; break;
        case '\\': esc = "\\\\"; break;
        default: break;
        }
        if (esc) {
            while (*esc)
                *w++ = *esc++;
        } else if (*p < 0x20 || *p >= 0x7f) {
            w += sprintf(w, "\\%03o", *p);
        } else {
            *w++ = (char)*p;
        }
    }
    *w++ = '"';
    *w = '\0';
    return r;
}

static void put_range(FILE *out, size_t start, size_t count)
{
    /* 1-based; an empty range names the line before it. */
    if (count == 1)
        fprintf(out, "%zu", start + 1);
    else if (count == 0)
        fprintf(out, "%zu,0", start);
    else
        fprintf(out, "%zu,%zu", start + 1, count);
}

static void put_line(FILE *out, char tag, const side *s, size_t i)
{
    const line *l = &s->v[i];
    fputc(tag, out);
    fwrite(l->p, 1, l->len, out);
    if (!l->len || l->p[l->len - 1] != '\n')
        fputs("\n\\ No newline at end of file\n", out);
}

static void put_hunk(FILE *out, const side *a, const side *b, const change *ch, size_t n)
{
    const change *first = &ch[0], *last = &ch[n - 1];
    size_t before = first->i0 < CONTEXT ? first->i0 : CONTEXT;
    size_t tail = a->n - last->i1;
    size_t after = tail < CONTEXT ? tail : CONTEXT;
    size_t a0 = first->i0 - before, a1 = last->i1 + after;
    size_t b0 = first->j0 - before, b1 = last->j1 + after;
    fputs("@@ -", out);
    put_range(out, a0, a1 - a0);
    fputs(" +", out);
    put_range(out, b0, b1 - b0);
    fputs(" @@\n", out);
    size_t i = a0;
    for (size_t k = 0; k < n; k++) {
        for (; i < ch[k].i0; i++)
            put_line(out, ' ', a, i);
        for (; i < ch[k].i1; i++)
            put_line(out, '-', a, i);
        for (size_t j = ch[k].j0; j < ch[k].j1; j++)
            put_line(out, '+', b, j);
    }
    for (; i < a1; i++)
        put_line(out, ' ', a, i);
}

static unsigned git_mode(mode_t mode)
{
    /* git records only these two modes for regular files. */
    return (mode & 0111) ? 0100755u : 0100644u;
}

static void put_header(FILE *out, const char *relpath, bool created, bool deleted, mode_t mode)
{
    char *na = git_name("a/", relpath), *nb = git_name("b/", relpath);
    fprintf(out, "diff --git %s %s\n", na, nb);
    if (created)
        fprintf(out, "new file mode %o\n", git_mode(mode));
    if (deleted)
        fprintf(out, "deleted file mode %o\n", git_mode(mode));
    free(na);
    free(nb);
}

/* The ---/+++ lines; from == NULL: a new file, to == NULL: a deleted one. */
static void put_names(FILE *out, const char *from, const char *to)
{
    char *na = from ? git_name("a/", from) : el_xstrdup("/dev/null");
    char *nb = to ? git_name("b/", to) : el_xstrdup("/dev/null");
    /* Like git: a tab after a name with a space, so patch(1) finds its end. */
    fprintf(out, "--- %s%s\n+++ %s%s\n", na, strchr(na, ' ') ? "\t" : "", nb,
            strchr(nb, ' ') ? "\t" : "");
    free(na);
    free(nb);
}

static void free_side(side *s)
{
    free(s->v);
    free(s->id);
    free(s->chg);
}

/* Both sides split and diffed; false (errno EFBIG) when too large. */
static bool prepare_sides(side *a, side *b, const char *old, size_t old_len, const char *new_text,
                          size_t new_len)
{
    if (old_len >= INT_MAX / 2 || new_len >= INT_MAX / 2) {
        errno = EFBIG;
        return false;
    }
    memset(a, 0, sizeof *a);
    memset(b, 0, sizeof *b);
    a->n = split_lines(old ? old : "", old_len, &a->v);
    b->n = split_lines(new_text ? new_text : "", new_len, &b->v);
    diff_lines(a, b);
    return true;
}

/* The hunks of two diffed sides. */
static void put_hunks(FILE *out, const side *a, const side *b)
{
    /* The changes, in order: a run of deleted then inserted lines. */
    change *ch = NULL;
    size_t nch = 0, cap = 0;
    size_t i = 0, j = 0;
    while (i < a->n || j < b->n) {
        if (i < a->n && j < b->n && !a->chg[i] && !b->chg[j]) {
            i++;
            j++;
            continue;
        }
        change c = {i, i, j, j};
        while (c.i1 < a->n && a->chg[c.i1])
            c.i1++;
        while (c.j1 < b->n && b->chg[c.j1])
            c.j1++;
        if (c.i1 == i && c.j1 == j) {
            /* Unflagged lines left on one side only: cannot happen
             * with a consistent script; treat the rest as changed. */
            c.i1 = a->n;
            c.j1 = b->n;
        }
        el_grow(&ch, &cap, nch + 1, sizeof *ch);
        ch[nch++] = c;
        i = c.i1;
        j = c.j1;
    }
    /* Hunks: changes whose context would touch share one. */
    for (size_t k = 0; k < nch;) {
        size_t e = k + 1;
        while (e < nch && ch[e].i0 - ch[e - 1].i1 <= 2 * CONTEXT)
            e++;
        put_hunk(out, a, b, ch + k, e - k);
        k = e;
    }
    free(ch);
}

int el_diff_write(FILE *out, const char *relpath, const char *old, size_t old_len,
                  const char *new_text, size_t new_len, mode_t mode)
{
    bool created = old == NULL, deleted = new_text == NULL;
    if (created && deleted)
        return 0;
    if (!created && !deleted && old_len == new_len && memcmp(old, new_text, old_len) == 0)
        return 0;
    if (created)
        old_len = 0;
    if (deleted)
        new_len = 0;
    side a, b;
    if (!prepare_sides(&a, &b, old, old_len, new_text, new_len))
        return -1;
    put_header(out, relpath, created, deleted, mode);
    if (a.n || b.n) {
        put_names(out, created ? NULL : relpath, deleted ? NULL : relpath);
        put_hunks(out, &a, &b);
    }
    free_side(&a);
    free_side(&b);
    return ferror(out) ? -1 : 0;
}

/* git's similarity index, roughly: the bytes of the unchanged lines per
 * hundred bytes of the larger side; 100 only for identical content. */
static unsigned similarity(const side *a, size_t old_len, size_t new_len, bool identical)
{
    if (identical)
        return 100;
    size_t kept = 0;
    for (size_t i = 0; i < a->n; i++)
        if (!a->chg[i])
            kept += a->v[i].len;
    size_t larger = old_len > new_len ? old_len : new_len;
    unsigned pct = larger ? (unsigned)(kept * 100 / larger) : 100;
    return pct > 99 ? 99 : pct;
}

int el_diff_write_rename(FILE *out, const char *from, const char *to, const char *old,
                         size_t old_len, const char *new_text, size_t new_len, mode_t old_mode,
                         mode_t new_mode)
{
    side a, b;
    if (!prepare_sides(&a, &b, old, old_len, new_text, new_len))
        return -1;
    bool identical = old_len == new_len && (old_len == 0 || memcmp(old, new_text, old_len) == 0);
    char *na = git_name("a/", from), *nb = git_name("b/", to);
    char *rf = git_name("", from), *rt = git_name("", to);
    fprintf(out, "diff --git %s %s\n", na, nb);
    if (git_mode(old_mode) != git_mode(new_mode))
        fprintf(out, "old mode %o\nnew mode %o\n", git_mode(old_mode), git_mode(new_mode));
    fprintf(out, "similarity index %u%%\nrename from %s\nrename to %s\n",
            similarity(&a, old_len, new_len, identical), rf, rt);
    if (!identical) {
        put_names(out, from, to);
        put_hunks(out, &a, &b);
    }
    free(na);
    free(nb);
    free(rf);
    free(rt);
    free_side(&a);
    free_side(&b);
    return ferror(out) ? -1 : 0;
}
