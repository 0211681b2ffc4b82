/* lint/engine/finding.h -- findings, and everything linting one TU produces. */
#ifndef EL_FINDING_H
#define EL_FINDING_H

#include <stdbool.h>
#include <stddef.h>

#include "edit.h"
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

/* How far a fix can be trusted (Ruff's terms): a safe fix keeps the
 * program's meaning and is applied by `emberlint --fix`; an unsafe one may
 * change behaviour or need review and is applied only with
 * --unsafe-fixes (and by ember-migrate, whose plan is the review). */
typedef enum el_fix_safety {
    EL_FIX_NONE = 0,
    EL_FIX_SAFE,
    EL_FIX_UNSAFE
} el_fix_safety;

/* "none", "safe", "unsafe". */
const char *el_fix_safety_name(el_fix_safety s);

/* A finding's fix: edits applied together or not at all. */
typedef struct el_fix {
    el_fix_safety safety;
    char *description;    /* one line: "replace eh_blas_matmul with eh_matmul" */
    el_edits edits;       /* group = 0 */
} el_fix;

typedef struct el_finding {
    char rule[8];         /* "EH101" */
    el_severity severity;
    char *file;           /* absolute */
    unsigned line, col;   /* 1-based; col counts bytes, as clang does */
    char *message;
    el_fix *fix;          /* NULL: no fix (owned by the finding) */
} el_finding;

typedef struct el_findings {
    el_finding *v;
    size_t n, cap;
} el_findings;

/* Free a fix (NULL is fine). */
void el_fix_free(el_fix *fx);
/* Free what a finding owns (file, message, fix); the struct itself stays. */
void el_finding_clear(el_finding *x);

void el_findings_add(el_findings *f, const char *rule, el_severity sev, const char *file,
                     unsigned line, unsigned col, const char *message);
/* Append deep copies of src's findings (fixes included) to dst. */
void el_findings_copy(el_findings *dst, const el_findings *src);
/* Move every finding of src to the end of dst; src becomes empty. */
void el_findings_move(el_findings *dst, el_findings *src);
/* Sort by file, line, column, rule, message and drop exact duplicates
 * (the same header finding reached from several TUs); such a finding
 * keeps a fix only when each had the same. */
void el_findings_sort_unique(el_findings *f);
/* In `file`, a file the TU included more than once: of the findings of
 * one rule at one place, those whose message comes once (each inclusion
 * named something else) are one -- a template included once per element
 * type (`#define real float`, then `double`) gives one finding per site,
 * not one per inclusion.  The one kept has the first message (in sort
 * order) and a fix only when each had the same.  A message that repeats
 * came from every inclusion alike (a macro naming two functions, or a
 * constant): those stay. */
void el_findings_one_per_place(el_findings *f, const char *file);
/* The TU of a finding that came from none in particular. */
#define EL_TU_UNKNOWN ((size_t)-1)
/* The same across translation units: tu[i] is the TU that reported
 * f->v[i] (EL_TU_UNKNOWN: not merged).  Of the findings of one rule at
 * one place that two TUs or more report, a message every one of those
 * TUs gives stays (a macro naming two functions: each TU names both);
 * the messages only some give differ by build (a file compiled once per
 * precision or index width, each time in a TU of its own that defines a
 * macro and includes it) and become one finding, the first in sort
 * order, with a fix only when each had the same.  Dropped findings are
 * removed from f, and their entries from tu. */
void el_findings_one_per_place_across(el_findings *f, size_t *tu);
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
    /* Paths the include search looked at and found nothing: a file that
     * appears at one of them may shadow a header (the cache checks). */
    char **absent;
    size_t n_absent, cap_absent;
    bool parsed;          /* libclang produced a TU */
    bool had_errors;      /* error diagnostics (cached all the same: EH000) */
    bool from_cache;
} el_tu_result;

void el_result_add_fact(el_tu_result *r, const char *file, const char *key, const char *value);
void el_result_add_dep(el_tu_result *r, const char *path, el_hash128 hash);
void el_result_add_absent(el_tu_result *r, const char *path);
void el_result_free(el_tu_result *r);

#endif
