/* lint/change/fix_select.c -- choose the fixes to apply together (fix_select.h). */
#include "fix_select.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "mem.h"
#include "strmap.h"

typedef struct cand {
    size_t index;     /* in fixes[] */
    size_t span;      /* bytes from its first edit to its last */
} cand;

/* Widest first, then in the callers' order. */
static int cmp_cand(const void *pa, const void *pb)
{
    const cand *a = pa, *b = pb;
    if (a->span != b->span)
        return a->span < b->span ? 1 : -1;
    return (a->index > b->index) - (a->index < b->index);
}

static size_t span_of(const el_fix *fx)
{
    size_t lo = (size_t)-1, hi = 0;
    for (size_t k = 0; k < fx->edits.n; k++) {
        if (fx->edits.v[k].begin < lo)
            lo = fx->edits.v[k].begin;
        if (fx->edits.v[k].end > hi)
            hi = fx->edits.v[k].end;
    }
    return hi > lo ? hi - lo : 0;
}

/* The taken edits of one file, ordered by (begin, end), as indexes into
 * the taken list.  Taken edits never conflict, so their non-empty ranges
 * are disjoint (or identical): for any edit, the taken ones that can
 * contain or overlap it are found by binary search, and choosing stays
 * O(n log n) however many fixes a file has. */
typedef struct slot {
    size_t begin, end, edit;
} slot;

typedef struct slots {
    slot *v;
    size_t n, cap;
} slots;

typedef struct file_index {
    slots all;          /* every taken edit of the file */
    slots wide;         /* the non-empty ones (disjoint or identical) */
} file_index;

typedef struct taken_set {
    el_edits all;       /* in the order taken */
    el_strmap files;    /* path -> file_index */
} taken_set;

/* The first slot whose begin is >= begin. */
static size_t lower_bound(const slots *s, size_t begin)
{
    size_t lo = 0, hi = s->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->v[mid].begin < begin)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static void insert_slot(slots *s, slot x)
{
    size_t k = lower_bound(s, x.begin);
    while (k < s->n && s->v[k].begin == x.begin && s->v[k].end <= x.end)
        k++;
    el_grow(&s->v, &s->cap, s->n + 1, sizeof *s->v);
    memmove(s->v + k + 1, s->v + k, (s->n - k) * sizeof *s->v);
    s->v[k] = x;
    s->n++;
}

static void take_edit(taken_set *t, const el_edit *e, int group)
{
    el_edits_add(&t->all, e->path, e->begin, e->end, e->text, group);
    file_index *fi = el_strmap_get(&t->files, e->path);
    if (!fi) {
        fi = el_xcalloc(1, sizeof *fi);
        el_strmap_put(&t->files, e->path, fi);
    }
    slot x = {e->begin, e->end, t->all.n - 1};
    insert_slot(&fi->all, x);
    if (e->end > e->begin)
        insert_slot(&fi->wide, x);
}

/* Call fn on every taken edit of e's file that may contain or overlap e:
 * the nearest non-empty one beginning before it, and those beginning in
 * [e->begin, e->end].  Stops when fn returns true; returns that. */
static bool each_neighbour(const taken_set *t, const el_edit *e,
                           bool (*fn)(const el_edit *e, const el_edit *taken, void *ud), void *ud)
{
    const file_index *fi = el_strmap_get(&t->files, e->path);
    if (!fi)
        return false;
    size_t w = lower_bound(&fi->wide, e->begin);
    if (w > 0 && fn(e, &t->all.v[fi->wide.v[w - 1].edit], ud))
        return true;
    for (size_t j = lower_bound(&fi->all, e->begin); j < fi->all.n && fi->all.v[j].begin <= e->end; j++)
        if (fn(e, &t->all.v[fi->all.v[j].edit], ud))
            return true;
    return false;
}

/* Does edit e lie inside taken edit t (or equal it)? */
static bool inside(const el_edit *e, const el_edit *t, void *ud)
{
    (void)ud;
    if (e->begin == t->begin && e->end == t->end)
        return strcmp(e->text, t->text) == 0;  /* else two answers for one range */
    if (t->begin == t->end)
        return false;
    if (e->begin == e->end)    /* an insertion at a boundary is outside */
        return t->begin < e->begin && e->begin < t->end;
    return t->begin <= e->begin && e->end <= t->end;
}

static bool covered(const taken_set *t, const el_fix *fx)
{
    for (size_t i = 0; i < fx->edits.n; i++)
        if (!each_neighbour(t, &fx->edits.v[i], inside, NULL))
            return false;
    return true;
}

static bool collect(const el_edit *e, const el_edit *taken, void *ud)
{
    (void)e;
    el_edits_add(ud, taken->path, taken->begin, taken->end, taken->text, taken->group);
    return false;
}

/* Would fx's edits, with the taken ones, overlap (edit.h's rule:
 * identical edits count once)?  A fix whose own edits overlap conflicts
 * too.  Taken edits never overlap each other, so only those near fx's
 * edits are looked at. */
static bool overlaps(const taken_set *t, const el_fix *fx)
{
    el_edits tmp = {0};
    for (size_t i = 0; i < fx->edits.n; i++)
        each_neighbour(t, &fx->edits.v[i], collect, &tmp);
    el_edits_append(&tmp, &fx->edits);
    el_edits_sort_unique(&tmp);
    bool hit = false;
    for (size_t i = 0; i < tmp.n && !hit;) {
        size_t n = 0;
        size_t first = el_edits_of(&tmp, tmp.v[i].path, &n);
        hit = el_edits_conflict(&tmp, first, n, NULL, NULL);
        i = first + n;
    }
    el_edits_free(&tmp);
    return hit;
}

static void free_index(const char *key, void *value, void *ud)
{
    (void)key;
    (void)ud;
    file_index *fi = value;
    free(fi->all.v);
    free(fi->wide.v);
    free(fi);
}

void el_fix_select(const el_fix *const *fixes, size_t n, el_fix_choice *choice,
                   el_edits *taken)
{
    cand *c = el_xcalloc(n + 1, sizeof *c);
    size_t nc = 0;
    for (size_t i = 0; i < n; i++) {
        choice[i] = EL_FIX_NOT_CANDIDATE;
        if (fixes[i] && fixes[i]->edits.n)
            c[nc++] = (cand){i, span_of(fixes[i])};
    }
    qsort(c, nc, sizeof *c, cmp_cand);
    taken_set mine = {{0}, {0}};
    for (size_t j = 0; j < nc; j++) {
        size_t i = c[j].index;
        const el_fix *fx = fixes[i];
        if (covered(&mine, fx)) {
            choice[i] = EL_FIX_COVERED;
            continue;
        }
        if (overlaps(&mine, fx)) {
            choice[i] = EL_FIX_CONFLICT;
            continue;
        }
        choice[i] = EL_FIX_TAKEN;
        for (size_t e = 0; e < fx->edits.n; e++)
            take_edit(&mine, &fx->edits.v[e], (int)i);
    }
    if (taken)
        el_edits_append(taken, &mine.all);
    el_edits_free(&mine.all);
    el_strmap_each(&mine.files, free_index, NULL);
    el_strmap_free(&mine.files);
    free(c);
}
