/* lint/report/baseline.h -- baselines: the findings a project accepts for
 * now, so CI fails only on new ones.
 *
 * `emberlint --write-baseline FILE` records the findings of a run;
 * `emberlint --baseline FILE` reports only findings the file does not
 * hold.  An entry matches a finding with the same file, rule and
 * fingerprint (fingerprint.h: the rule, the normalized line and its
 * neighbours, and which occurrence it is), never by line number, so edits
 * that shift lines keep old findings matched while a new finding on a
 * baselined line is still reported.  Entries that match nothing among
 * the files the run linted are stale.
 *
 * The file is JSON, sorted and stable for review (keys in alphabetical
 * order, entries by file, line, rule and fingerprint), paths relative to
 * the baseline file's directory:
 *
 *   {"findings": [{"file": "src/a.c", "fingerprint": "0123456789abcdef:1",
 *                  "line": 12, "message": "...", "rule": "EH201"}],
 *    "format": 1, "tool": "emberlint"}
 *
 * `line` and `message` are for the reader; matching ignores them. */
#ifndef EL_BASELINE_H
#define EL_BASELINE_H

#include <stdbool.h>
#include <stddef.h>

#include "finding.h"
#include "sources.h"

typedef struct el_baseline_entry {
    char *file;          /* absolute (resolved against the baseline's directory) */
    char *rule;
    char *fingerprint;
    unsigned line;
    char *message;
    bool matched;
} el_baseline_entry;

typedef struct el_baseline {
    el_baseline_entry *v;
    size_t n, cap;
} el_baseline;

/* Read FILE; -1 with *err (malloc'd, one line) when it cannot be read or
 * is not a baseline. */
int el_baseline_read(const char *path, el_baseline *out, char **err);
/* Remove from f the findings the baseline holds (fps: their
 * fingerprints, removed alongside; *n_fps follows f->n).  Returns the
 * number removed; *stale receives the number of entries for files of
 * `scope` (this run's files) that matched nothing. */
size_t el_baseline_filter(el_baseline *b, el_findings *f, char **fps, size_t *stale,
                          const el_sources *scope);
/* Write the findings (with their fingerprints) to path, atomically;
 * entries of `keep` (may be NULL) for files outside `scope` are kept, so
 * a run over part of a tree does not forget the rest.  -1 with *err. */
int el_baseline_write(const char *path, const el_findings *f, char *const *fps,
                      const el_baseline *keep, const el_sources *scope, char **err);
void el_baseline_free(el_baseline *b);

#endif
