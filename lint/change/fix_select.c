/* lint/change/fix_select.c -- choose the fixes to apply together (fix_select.h). */
#include "fix_select.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "mem.h"

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

static bool fix_edits_path(const el_fix *fx, const char *path)
{
    for (size_t i = 0; i < fx->edits.n; i++)
        if (strcmp(fx->edits.v[i].path, path) == 0)
            return true;
    return false;
}

/* Would fx's edits, with the taken ones of the files it edits, overlap
 * (edit.h's rule: identical edits count once)?  A fix whose own edits
 * overlap conflicts too. */
static bool overlaps(const el_edits *taken, const el_fix *fx)
{
    el_edits tmp = {0};
    for (size_t i = 0; i < taken->n; i++)
        if (fix_edits_path(fx, taken->v[i].path))
            el_edits_add(&tmp, taken->v[i].path, taken->v[i].begin, taken->v[i].end,
                         taken->v[i].text, taken->v[i].group);
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

/* Does edit e lie inside taken edit t (or equal it)? */
static bool inside(const el_edit *e, const el_edit *t)
{
    if (strcmp(e->path, t->path) != 0)
        return false;
    if (e->begin == t->begin && e->end == t->end)
        return strcmp(e->text, t->text) == 0;  /* else two answers for one range */
    if (t->begin == t->end)
        return false;
    if (e->begin == e->end)    /* an insertion at a boundary is outside */
        return t->begin < e->begin && e->begin < t->end;
    return t->begin <= e->begin && e->end <= t->end;
}

static bool covered(const el_edits *taken, const el_fix *fx)
{
    for (size_t i = 0; i < fx->edits.n; i++) {
        bool in = false;
        for (size_t k = 0; k < taken->n && !in; k++)
            in = inside(&fx->edits.v[i], &taken->v[k]);
        if (!in)
            return false;
    }
    return true;
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
    el_edits mine = {0};
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
            el_edits_add(&mine, fx->edits.v[e].path, fx->edits.v[e].begin, fx->edits.v[e].end,
                         fx->edits.v[e].text, (int)i);
    }
    if (taken)
        el_edits_append(taken, &mine);
    el_edits_free(&mine);
    free(c);
}
