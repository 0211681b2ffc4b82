/* lint/base/edit.c -- lists of text edits: order, conflicts, application
 * (see edit.h). */
#include "edit.h"

#include <stdlib.h>
#include <string.h>

#include "mem.h"

void el_edits_add(el_edits *e, const char *path, size_t begin, size_t end, const char *text,
                  int group)
{
    el_grow(&e->v, &e->cap, e->n + 1, sizeof *e->v);
    el_edit *d = &e->v[e->n++];
    d->path = el_xstrdup(path);
    d->begin = begin;
    d->end = end;
    d->text = el_xstrdup(text ? text : "");
    d->group = group;
}

void el_edits_append(el_edits *dst, const el_edits *src)
{
    for (size_t i = 0; i < src->n; i++) {
        const el_edit *s = &src->v[i];
        el_edits_add(dst, s->path, s->begin, s->end, s->text, s->group);
    }
}

static int cmp_size(size_t a, size_t b)
{
    return a < b ? -1 : a > b;
}

/* Path, begin, end; then text and group only so that the order (and which
 * of two duplicates survives) does not depend on qsort's instability. */
static int cmp_edit(const void *pa, const void *pb)
{
    const el_edit *a = pa, *b = pb;
    int c = strcmp(a->path, b->path);
    if (!c)
        c = cmp_size(a->begin, b->begin);
    if (!c)
        c = cmp_size(a->end, b->end);
    if (!c)
        c = strcmp(a->text, b->text);
    if (!c)
        c = (a->group > b->group) - (a->group < b->group);
    return c;
}

static bool same_edit(const el_edit *a, const el_edit *b)
{
    return a->begin == b->begin && a->end == b->end && strcmp(a->path, b->path) == 0 &&
           strcmp(a->text, b->text) == 0;
}

void el_edits_sort_unique(el_edits *e)
{
    if (e->n < 2)
        return;
    qsort(e->v, e->n, sizeof *e->v, cmp_edit);
    size_t w = 1;
    for (size_t r = 1; r < e->n; r++) {
        if (same_edit(&e->v[w - 1], &e->v[r])) {
            free(e->v[r].path);
            free(e->v[r].text);
            continue;
        }
        e->v[w++] = e->v[r];
    }
    e->n = w;
}

size_t el_edits_of(const el_edits *e, const char *path, size_t *n)
{
    /* Lower bound of path, then count. */
    size_t lo = 0, hi = e->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (strcmp(e->v[mid].path, path) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    size_t end = lo;
    while (end < e->n && strcmp(e->v[end].path, path) == 0)
        end++;
    *n = end - lo;
    return lo;
}

/* Do two edits overlap?  x sorts before y.  A replacement and an insertion
 * at its boundary do not; two different insertions at one offset do (their
 * order would be arbitrary). */
static bool overlap(const el_edit *x, const el_edit *y)
{
    bool xi = x->begin == x->end, yi = y->begin == y->end;
    if (xi && yi)
        return x->begin == y->begin;
    if (xi)
        return y->begin < x->begin && x->begin < y->end;
    if (yi)
        return x->begin < y->begin && y->begin < x->end;
    return x->begin < y->end && y->begin < x->end;
}

bool el_edits_conflict(const el_edits *e, size_t first, size_t n, size_t *a, size_t *b)
{
    /* In begin order, an edit that overlaps an earlier one overlaps the
     * earlier edit reaching furthest (or, for two insertions at one
     * offset, the one just before it). */
    size_t far = first;
    for (size_t i = first + 1; i < first + n; i++) {
        const el_edit *cur = &e->v[i];
        size_t hit = (size_t)-1;
        if (overlap(&e->v[far], cur))
            hit = far;
        else if (overlap(&e->v[i - 1], cur))
            hit = i - 1;
        if (hit != (size_t)-1) {
            if (a)
                *a = hit;
            if (b)
                *b = i;
            return true;
        }
        if (cur->end > e->v[far].end)
            far = i;
    }
    return false;
}

bool el_text_crlf(const char *t, size_t n)
{
    size_t crlf = 0, lf = 0;
    for (size_t i = 0; i < n; i++)
        if (t[i] == '\n') {
            if (i > 0 && t[i - 1] == '\r')
                crlf++;
            else
                lf++;
        }
    return crlf > lf;
}

char *el_text_eol(const char *s, bool crlf)
{
    size_t n = strlen(s), extra = 0;
    for (size_t i = 0; i < n; i++)
        extra += s[i] == '\n';
    char *o = el_xmalloc(n + extra + 1), *w = o;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '\r' && i + 1 < n && s[i + 1] == '\n')
            continue; /* the '\n' writes the ending */
        if (s[i] == '\n' && crlf)
            *w++ = '\r';
        *w++ = s[i];
    }
    *w = '\0';
    return o;
}

int el_edits_apply(const el_edits *e, size_t first, size_t n, const char *old, size_t old_len,
                   char **out, size_t *out_len)
{
    /* new lines end as the file's lines do */
    bool crlf = el_text_crlf(old, old_len);
    char **texts = el_xcalloc(n + 1, sizeof *texts);
    size_t len = old_len;
    size_t pos = 0;
    for (size_t i = first; i < first + n; i++) {
        const el_edit *d = &e->v[i];
        /* Outside the content, or out of order (the caller skipped the
         * conflict check): refuse rather than guess. */
        if (d->begin > d->end || d->end > old_len || d->begin < pos) {
            for (size_t k = 0; k < i - first; k++)
                free(texts[k]);
            free(texts);
            return -1;
        }
        texts[i - first] = el_text_eol(d->text, crlf);
        len = len - (d->end - d->begin) + strlen(texts[i - first]);
        pos = d->end;
    }
    char *buf = el_xmalloc(len + 1);
    size_t w = 0;
    pos = 0;
    for (size_t i = first; i < first + n; i++) {
        const el_edit *d = &e->v[i];
        if (d->begin > pos)
            memcpy(buf + w, old + pos, d->begin - pos);
        w += d->begin - pos;
        size_t tl = strlen(texts[i - first]);
        if (tl)
            memcpy(buf + w, texts[i - first], tl);
        w += tl;
        pos = d->end;
        free(texts[i - first]);
    }
    free(texts);
    if (old_len > pos)
        memcpy(buf + w, old + pos, old_len - pos);
    w += old_len - pos;
    buf[w] = '\0';
    *out = buf;
    *out_len = w;
    return 0;
}

void el_edits_free(el_edits *e)
{
    for (size_t i = 0; i < e->n; i++) {
        free(e->v[i].path);
        free(e->v[i].text);
    }
    free(e->v);
    e->v = NULL;
    e->n = e->cap = 0;
}
