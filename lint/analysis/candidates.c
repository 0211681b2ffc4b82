/* lint/analysis/candidates.c -- the candidate lifecycle the rules built on
 * the storage data flow share (candidates.h): collect while the walk is
 * inside a function, judge when it leaves. */
#include "candidates.h"

#include <stdlib.h>

#include "clang_util.h"
#include "mem.h"

void sf_candidates_begin(sf_candidates *cs)
{
    (void)cs;
    sf_tu_reset();
}

void sf_candidates_end(sf_candidates *cs)
{
    free(cs->items);
    cs->items = NULL;
    cs->n = cs->cap = 0;
    sf_tu_reset();
}

bool sf_candidates_enter(el_ctx *ctx, sf_candidates *cs, CXCursor c)
{
    sf_observe(ctx, c);
    if (elc_is_function_kind(clang_getCursorKind(c))) {
        CXCursor outer;
        if (el_is_definition(ctx, c) && !el_enclosing_function(ctx, &outer)) {
            cs->n = 0;
            cs->applies = el_applies_to(ctx, c);
        }
        return false;
    }
    return cs->applies && sf_in_function();
}

void sf_candidates_add(sf_candidates *cs, CXCursor c)
{
    el_grow(&cs->items, &cs->cap, cs->n + 1, sizeof *cs->items);
    cs->items[cs->n++] = c;
}

void sf_candidates_leave(el_ctx *ctx, sf_candidates *cs, CXCursor c, sf_judge_fn judge)
{
    const sf_func *f = sf_leave(ctx, c);
    if (!f)
        return;
    if (sf_touches_tensor_data(f))
        for (size_t i = 0; i < cs->n; i++)
            judge(ctx, f, cs->items[i]);
    cs->n = 0;
}
