/* lint/base/suggest.h -- the known name a misspelt one most likely meant
 * ("did you mean ...?" in configuration errors). */
#ifndef EL_SUGGEST_H
#define EL_SUGGEST_H

#include <stddef.h>

/* The candidate nearest `word` (edit distance, case ignored: one insertion,
 * deletion, substitution or swap of two neighbours each), when it is at
 * most 2 edits away (1 for a word under 5 characters) and nearer than any
 * other; NULL otherwise (none close, or two equally close). */
const char *el_suggest(const char *word, const char *const *candidates, size_t n);

/* Every candidate at the nearest distance within that slack, in their
 * order: how many there are, the first `max` of them into out (EH10 is
 * one typo from each of EH101 ... EH105). */
size_t el_suggest_all(const char *word, const char *const *candidates, size_t n,
                      const char **out, size_t max);

#endif
