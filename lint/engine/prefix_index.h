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

/* An entry of backend_prefixes with <backend> expanded. */
typedef struct el_prefix_entry {
    const char *text;  /* the entry (owned by the configuration) */
    size_t len;
    bool pattern;      /* has * ? or [: matched with fnmatch */
    bool routine;      /* a Fortran routine pattern: [sdcz]gemm_ */
    char first;        /* a plain prefix's first character */
    char last;         /* a pattern's last character when it is literal, else '\0' */
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
    el_backend_slot *slots;
    size_t n_slots;
} el_prefix_index;

/* Index `expanded` (the entries with <backend> expanded) and `raw` (as
 * written).  The strings must outlive the index. */
void el_prefix_index_build(el_prefix_index *ix, char *const *expanded, size_t n_expanded,
                           char *const *raw, size_t n_raw);
void el_prefix_index_free(el_prefix_index *ix);

#endif
