/* lint/base/suggest.h -- the known name a misspelt one most likely meant
 * ("did you mean ...?" in configuration errors). */
#ifndef EL_SUGGEST_H
#define EL_SUGGEST_H

#include <stddef.h>

/* The candidate nearest `word` (edit distance, case ignored: one insertion,
 * deletion, substitution or swap of two neighbours each), when it is at
 * most 2 edits away and nearer than any other; NULL otherwise (none close,
 * or two equally close). */
const char *el_suggest(const char *word, const char *const *candidates, size_t n);

#endif
