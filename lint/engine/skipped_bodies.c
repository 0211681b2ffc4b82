/* lint/engine/skipped_bodies.c -- functions whose bodies a parse skipped,
 * from libclang's indexer (skipped_bodies.h). */
#include "skipped_bodies.h"

#include <stdbool.h>
#include <stdlib.h>

#include "cursor_map.h"
#include "mem.h"

/* Each function the indexer reports -> 1 + whether its body was skipped
 * (0: not reported). */
struct el_skipped_bodies {
    el_cursor_map functions;
    bool out_of_memory;
};

static void on_declaration(CXClientData data, const CXIdxDeclInfo *info)
{
    el_skipped_bodies *s = data;
    if (clang_getCursorKind(info->cursor) != CXCursor_FunctionDecl)
        return;
    unsigned *v = el_cursor_value(&s->functions, info->cursor);
    if (v)
        *v = 1 + ((info->flags & CXIdxDeclFlag_Skipped) != 0);
    else
        s->out_of_memory = true;
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
    if (failed || s->out_of_memory) {
        el_skipped_bodies_free(s);
        return NULL;
    }
    return s;
}

int el_skipped_bodies_state(el_skipped_bodies *s, CXCursor fn)
{
    unsigned *v = s ? el_cursor_value(&s->functions, fn) : NULL;
    return v && *v ? (int)*v - 1 : -1;
}

void el_skipped_bodies_free(el_skipped_bodies *s)
{
    if (!s)
        return;
    el_cursor_map_free(&s->functions);
    free(s);
}
