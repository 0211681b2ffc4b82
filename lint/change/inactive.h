/* lint/change/inactive.h -- the code the preprocessor skipped.
 *
 * A file's #ifdef USE_BLAS / #else arms are parsed in one configuration
 * only; the other arm is text libclang skips (clang_getSkippedRanges).
 * A fix judged on the parsed arm alone can break the skipped one: an
 * include removed because "nothing uses it any more" while the #else arm
 * still calls eh_ref_matmul.  el_inactive_rule (an extra rule, run with
 * the linter's, as emberlint --fix and ember-migrate do) reads every
 * skipped range of every linted file, lexes it, and records as facts
 *   - each identifier that names backend code: a backend prefix
 *     (eh_blas_..., cblas_...) or a declaration the TU has in a backend
 *     header (not one the skipped file makes itself: a legacy file's own
 *     macro or static function is its own), with the kind of that
 *     declaration; with what it would become by the naming contract when
 *     that is proven here (the TU declares it with eh_<op>'s type: the
 *     same token rename that is safe in the parsed arm), else why not.
 *     A name declared there (`float cblas_sdot(...);`, a definition) uses
 *     nothing and is not recorded;
 *   - each #include of a backend header.
 * libclang gives the ranges the first entry into a file skipped; of a
 * file the TU enters more than once (a template that includes itself,
 * torch7's generic/ files, primme's linalg/ files) a range holding code
 * another entry compiles is not skipped code: only the #if arms nested
 * in it that hold no code of any entry are read.
 * el_inactive_blocks then tells whether a fix must not be applied
 * because the skipped code needs what it removes. */
#ifndef EL_INACTIVE_H
#define EL_INACTIVE_H

#include <stdbool.h>
#include <stddef.h>

#include "engine.h"
#include "finding.h"
#include "rule.h"
#include "strmap.h"

#define EL_FACT_INACTIVE "el-inactive"
/* A linted file the TU read and what it compiled there (value: its real
 * path, a tab, then "S:" and the byte ranges b-e it skipped, or "C:" and
 * the byte ranges of the lines holding code it compiled where libclang's
 * ranges are not the whole story: a file the TU entered more than once),
 * so that code one TU skips and another compiles is known to be
 * compiled. */
#define EL_FACT_INACTIVE_READ "el-inactive.read"

/* Every name a skipped range of a file uses, backend or not (value: JSON
 * {"path", "names": [{"name", "off", "line"}]}): an include stays while
 * its header's text declares one (skipped_include.h). */
#define EL_FACT_INACTIVE_NAMES "el-inactive.names"

extern const el_rule el_inactive_rule;

/* A name skipped code uses (EL_FACT_INACTIVE_NAMES). */
typedef struct el_inactive_name {
    char *path;               /* the file (absolute, real) */
    char *name;
    size_t off;
    unsigned line;
} el_inactive_name;

/* A backend name in skipped code. */
typedef struct el_inactive_id {
    char *name;
    size_t off;               /* byte offset in the file */
    unsigned line, col;
    bool call;                /* followed by '(' */
    char *rename;             /* the op it becomes, proven here ("eh_matmul"), or NULL */
    char *why;                /* why there is no proven rename ("" with one) */
    char *decl;               /* the file declaring it where it is skipped ("": none; NULL: not known) */
    char *kind;               /* what that declares: "function", "macro", "type", "variable",
                                 "constant"; NULL when nothing does (or not known) */
} el_inactive_id;

/* A backend #include in skipped code. */
typedef struct el_inactive_inc {
    char *spelled;
    bool angled;
    size_t off, end;          /* the directive: from its '#' to past its line */
    unsigned line, col;       /* of its '#' (indented: `    #include <cblas.h>`) */
} el_inactive_inc;

/* One skipped range of a file (as one TU saw it). */
typedef struct el_inactive_range {
    char *path;               /* absolute, real */
    size_t begin, end;        /* bytes, from the #if to the line that ends it */
    unsigned line, end_line;
    el_inactive_id *ids;
    size_t n_ids;
    el_inactive_inc *incs;
    size_t n_incs;
} el_inactive_range;

/* What one TU compiled of a file it read. */
typedef struct el_inactive_read {
    char *path;
    bool compiled;            /* spans are the lines it compiled, else what it skipped */
    size_t *spans;            /* pairs of byte offsets: [line start, line end] or (begin, end) */
    size_t n_spans;
} el_inactive_read;

typedef struct el_inactive {
    el_inactive_range *v;
    size_t n, cap;
    el_inactive_read *reads;
    size_t n_reads, cap_reads;
    el_inactive_name *names;
    size_t n_names, cap_names;
    el_strmap names_seen;     /* "off\tpath" of each name, once */
} el_inactive;

/* The ranges recorded in facts (several TUs seeing a header give one
 * range each, kept once), and what each TU compiled. */
void el_inactive_from_facts(el_inactive *out, const el_fact_list *facts);
/* Does a TU that read path compile the code at byte off?
 * A template another source includes once per type is skipped where it
 * is parsed alone, or in one inclusion, and compiled in another. */
bool el_inactive_compiled(const el_inactive *in, const char *path, size_t off);
/* Is [begin, end) of path inside (or overlapping) a skipped range?  The
 * range when so, else NULL. */
const el_inactive_range *el_inactive_at(const el_inactive *in, const char *path, size_t begin,
                                        size_t end);
/* Must the fix of a finding of `rule` be left out because of skipped
 * code?  NULL, or the reason (malloc'd): its edits touch skipped text,
 * or (EH101) the skipped code of its file still names backend code the
 * include declares ("line 12, skipped in this configuration, still uses
 * eh_ref_matmul"). */
char *el_inactive_blocks(const el_inactive *in, const char *rule, const el_fix *fx);
void el_inactive_free(el_inactive *in);

#endif
