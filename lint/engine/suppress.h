/* lint/engine/suppress.h -- suppression comments.
 *
 *     x = a[i] * 2;  // emberlint-ignore EH201
 *     // emberlint-ignore-next-line EH201, EH202
 *     // emberlint-ignore-file EH101
 *
 * The directive starts the comment (after the comment opener and any
 * spaces or '*'); IDs follow, separated by spaces or commas, and end at
 * the first word that does not look like a rule ID (letters, a digit,
 * letters or digits), so a reason can follow, e.g. "-- reason".  No ID at all suppresses every rule (a blanket
 * suppression).  `emberlint-ignore` covers the line the comment starts on;
 * `-next-line` the line after the one the comment ends on; `-file` the
 * whole file.  An unknown ID is reported as EH002; a suppression (or one
 * ID of it) that suppressed nothing is reported as EH001, like Ruff's
 * RUF100, when the rule ran on that file. */
#ifndef EL_SUPPRESS_H
#define EL_SUPPRESS_H

#include <stdbool.h>
#include <stddef.h>

#include "finding.h"

#define EL_RULE_UNUSED_SUPPRESSION "EH001"
#define EL_RULE_UNKNOWN_RULE "EH002"

typedef enum el_supp_kind {
    EL_SUPP_LINE,
    EL_SUPP_NEXT_LINE,
    EL_SUPP_FILE
} el_supp_kind;

typedef struct el_supp_id {
    char id[16];       /* upper case */
    bool used;
} el_supp_id;

typedef struct el_suppression {
    el_supp_kind kind;
    unsigned line, col;   /* where the directive is written */
    unsigned target;      /* the line covered (not for EL_SUPP_FILE) */
    el_supp_id *ids;      /* n_ids == 0: every rule */
    size_t n_ids;
    bool used;            /* blanket form: suppressed something */
} el_suppression;

typedef struct el_suppressions {
    el_suppression *v;
    size_t n, cap;
} el_suppressions;

/* Find the directives in a C file's text (comments only). */
void el_suppress_parse(const char *text, size_t len, el_suppressions *out);
void el_suppressions_free(el_suppressions *s);

struct el_source;
/* Remove the findings the files' suppressions cover and add EH002 and
 * EH001 findings.  selected[k]: rule k (metadata index) is selected by
 * --select/--ignore.  Findings must be in files of `files`. */
void el_suppress_apply(el_findings *f, struct el_source *files, size_t n_files,
                       const bool *selected);

#endif
