/* lint/analysis/candidates.h -- the lifecycle every rule built on the
 * storage data flow (storage_flow.h) shares: collect candidate cursors
 * while the walk is inside a function, judge them when it leaves (the
 * analysis is complete only then).  A rule's per-TU state is an
 * sf_candidates. */
#ifndef EL_CANDIDATES_H
#define EL_CANDIDATES_H

#include <stdbool.h>
#include <stddef.h>
#include "clang_api.h"

#include "rule.h"
#include "storage_flow.h"

typedef struct sf_candidates {
    CXCursor *items;
    size_t n, cap;
    bool applies; /* the rule reports in the current function's file */
} sf_candidates;

typedef void (*sf_judge_fn)(el_ctx *ctx, const sf_func *f, CXCursor candidate);

/* From begin() / end(): reset the analysis (end also frees the list). */
void sf_candidates_begin(sf_candidates *cs);
void sf_candidates_end(sf_candidates *cs);
/* First thing in on_cursor: feeds the analysis and, on a top-level
 * function definition, starts a new list.  True when c may become a
 * candidate: inside a function whose file the rule reports in. */
bool sf_candidates_enter(el_ctx *ctx, sf_candidates *cs, CXCursor c);
void sf_candidates_add(sf_candidates *cs, CXCursor c);
/* From on_leave: when c ends the function, judge every candidate (only if
 * the function touches tensor data at all) and empty the list. */
void sf_candidates_leave(el_ctx *ctx, sf_candidates *cs, CXCursor c, sf_judge_fn judge);

#endif
