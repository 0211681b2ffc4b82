/* lint/engine/prefix_index.h -- the backend_prefixes entries of a
 * configuration, each with what rejects a name in a few instructions.
 * The separation rules ask el_backend_prefix_of and el_backend_of_symbol
 * (backend_names.c) about every name a TU refers to, against some 560
 * entries (rules/default.json); testing each entry from its text (strstr,
 * strpbrk, strlen, fnmatch) was 3% of a cold run's instructions.  Built
 * once by the configuration's finalize; read-only afterwards, so the
 * worker threads share it. */
#ifndef EL_PREFIX_INDEX_H
#define EL_PREFIX_INDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* An entry of backend_prefixes with <backend> expanded. */
typedef struct el_prefix_entry {
    const char *text;  /* the entry (owned by the configuration) */
    size_t len;
    bool pattern;      /* has * ? or [: matched with fnmatch */
    bool routine;      /* a Fortran routine pattern: [sdcz]gemm_ */
    char first;        /* a plain prefix's first character */
    char last;         /* a pattern's last character when it is literal, else '\0' */
    size_t tail;       /* a pattern's literal characters at its end ("gemm_" of
                        * [sdcz]gemm_): a name it matches ends with them */
} el_prefix_entry;

/* An entry of backend_prefixes with <backend> in it (eh_<backend>_). */
typedef struct el_backend_slot {
    const char *text;
    size_t pre;        /* the characters before <backend> */
    const char *post;  /* what follows it */
    size_t postlen;
    bool pattern;      /* eh_<backend>_*_kernel */
    bool pre_literal;  /* no wildcard before <backend>: a name must start with it */
} el_backend_slot;

typedef struct el_prefix_index {
    el_prefix_entry *entries;
    size_t n_entries;
    /* Which entries a name can match, as bit sets over the entries
     * (`words` 64-bit words each), so that a name meets only those
     * (el_prefix_candidates): per character c, the plain entries starting
     * with c, those whose upper-case first character is c, the patterns
     * whose literal last character is c; and the entries every name
     * meets (an empty plain entry, a pattern ending in a wildcard). */
    size_t words;
    uint64_t *plain_first, *plain_upper, *pattern_last; /* 256 x words */
    uint64_t *always;                                   /* words */
    el_backend_slot *slots;
    size_t n_slots;
} el_prefix_index;

/* Index `expanded` (the entries with <backend> expanded) and `raw` (as
 * written).  The strings must outlive the index. */
void el_prefix_index_build(el_prefix_index *ix, char *const *expanded, size_t n_expanded,
                           char *const *raw, size_t n_raw);
void el_prefix_index_free(el_prefix_index *ix);

/* The entries (bits, ix->words words) a name with this first and last
 * character may match (a superset of those it does: the entries a
 * plain prefix or a pattern's last character does not rule out; upper:
 * a plain prefix's upper-case spelling counts).  In index order. */
void el_prefix_candidates(const el_prefix_index *ix, char first, char last, bool upper,
                          uint64_t *bits);

#endif
