/* lint/engine/skipped_bodies.c -- functions whose bodies a parse skipped,
 * from libclang's indexer (skipped_bodies.h). */
#include "skipped_bodies.h"

#include <stdbool.h>
#include <stdlib.h>

#include "mem.h"

/* The functions, sorted by clang_hashCursor: a TU of macro-made kernels
 * has hundreds, each asked about. */
typedef struct entry {
    unsigned hash;
    bool skipped;
    CXCursor cursor;
} entry;

struct el_skipped_bodies {
    entry *v;
    size_t n, cap;
};

static int by_hash(const void *a, const void *b)
{
    unsigned x = ((const entry *)a)->hash, y = ((const entry *)b)->hash;
    return (x > y) - (x < y);
}

static void on_declaration(CXClientData data, const CXIdxDeclInfo *info)
{
    el_skipped_bodies *s = data;
    if (clang_getCursorKind(info->cursor) != CXCursor_FunctionDecl)
        return;
    el_grow(&s->v, &s->cap, s->n + 1, sizeof *s->v);
    s->v[s->n++] = (entry){clang_hashCursor(info->cursor), (info->flags & CXIdxDeclFlag_Skipped) != 0,
                           info->cursor};
}

el_skipped_bodies *el_skipped_bodies_of(CXTranslationUnit tu)
{
    el_skipped_bodies *s = el_xcalloc(1, sizeof *s);
    IndexerCallbacks cb = {.indexDeclaration = on_declaration};
    /* the action takes its options from an index; the TU is the parse's */
    CXIndex idx = clang_createIndex(0, 0);
    CXIndexAction action = idx ? clang_IndexAction_create(idx) : NULL;
    int failed = !action || clang_indexTranslationUnit(action, s, &cb, sizeof cb, CXIndexOpt_None, tu);
    if (action)
        clang_IndexAction_dispose(action);
    if (idx)
        clang_disposeIndex(idx);
    if (failed) {
        el_skipped_bodies_free(s);
        return NULL;
    }
    if (s->n > 1)
        qsort(s->v, s->n, sizeof *s->v, by_hash);
    return s;
}

int el_skipped_bodies_state(const el_skipped_bodies *s, CXCursor fn)
{
    if (!s)
        return -1;
    unsigned h = clang_hashCursor(fn);
    size_t lo = 0, hi = s->n;
    while (lo < hi) { /* the first entry of hash >= h */
        size_t mid = lo + (hi - lo) / 2;
        if (s->v[mid].hash < h)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (size_t i = lo; i < s->n && s->v[i].hash == h; i++)
        if (clang_equalCursors(s->v[i].cursor, fn))
            return s->v[i].skipped;
    return -1;
}

void el_skipped_bodies_free(el_skipped_bodies *s)
{
    if (!s)
        return;
    free(s->v);
    free(s);
}
