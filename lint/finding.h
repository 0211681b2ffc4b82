/* lint/finding.h -- findings, and everything linting one TU produces. */
#ifndef EL_FINDING_H
#define EL_FINDING_H

#include <stdbool.h>
#include <stddef.h>

#include "hash.h"

typedef enum el_severity {
    EL_SEV_OFF = 0,
    EL_SEV_NOTE,
    EL_SEV_WARNING,
    EL_SEV_ERROR
} el_severity;

/* "off", "note", "warning", "error". */
const char *el_severity_name(el_severity s);
bool el_severity_parse(const char *s, el_severity *out);

typedef struct el_finding {
    char rule[8];         /* "EH101" */
    el_severity severity;
    char *file;           /* absolute */
    unsigned line, col;   /* 1-based; col counts bytes, as clang does */
    char *message;
} el_finding;

typedef struct el_findings {
    el_finding *v;
    size_t n, cap;
} el_findings;

void el_findings_add(el_findings *f, const char *rule, el_severity sev, const char *file,
                     unsigned line, unsigned col, const char *message);
/* Move every finding of src to the end of dst; src becomes empty. */
void el_findings_move(el_findings *dst, el_findings *src);
/* Sort by file, line, column, rule, message and drop exact duplicates
 * (the same header finding reached from several TUs). */
void el_findings_sort_unique(el_findings *f);
void el_findings_free(el_findings *f);

/* A fact a rule recorded for the project hooks. */
typedef struct el_fact_rec {
    char *file;   /* main file of the TU */
    char *key;
    char *value;
} el_fact_rec;

/* A file a TU read (main file and every header), for the cache. */
typedef struct el_dep {
    char *path;           /* absolute, real */
    el_hash128 hash;
} el_dep;

/* What linting one TU produced. */
typedef struct el_tu_result {
    el_findings findings;
    el_fact_rec *facts;
    size_t n_facts, cap_facts;
    el_dep *deps;
    size_t n_deps, cap_deps;
    bool parsed;          /* libclang produced a TU */
    bool had_errors;      /* error diagnostics: not cached */
    bool from_cache;
} el_tu_result;

void el_result_add_fact(el_tu_result *r, const char *file, const char *key, const char *value);
void el_result_add_dep(el_tu_result *r, const char *path, el_hash128 hash);
void el_result_free(el_tu_result *r);

#endif
