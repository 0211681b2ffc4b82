/* lint/deliver.h -- the end of a run: the gate (--baseline, --diff-base,
 * --write-baseline), the report in the chosen format on standard output
 * or -o FILE, and the exit status.  A lint run and emberlint merge end
 * here alike. */
#ifndef EL_DELIVER_H
#define EL_DELIVER_H

#include <stdbool.h>
#include <stdio.h>
#include <json-c/json.h>

#include "cli.h"
#include "finding.h"
#include "gate.h"
#include "sources.h"

#define EL_EXIT_FINDINGS 1
#define EL_EXIT_TROUBLE 2

/* -o FILE or standard output; NULL when it cannot be opened (printed). */
FILE *el_open_output(const el_cli *c);
/* Close it; -1 (printed) when wr < 0 or closing failed. */
int el_close_output(const el_cli *c, FILE *out, int wr);
/* Colour for text on out (--color, NO_COLOR, TERM, a terminal)? */
bool el_want_color(const el_cli *c, FILE *out);

/* Gate and report the findings (filtered in place) and return the exit
 * status: 0, EL_EXIT_FINDINGS when a reported finding is at or above
 * --fail-on, EL_EXIT_TROUBLE when `trouble` is set or something failed
 * here.  with_fixes: the run kept fixes (el_output.fixes); shard: a
 * shard's payload to embed (may be NULL). */
int el_deliver(const el_cli *c, el_gate *g, el_findings *f, const el_sources *s, bool with_fixes,
               json_object *shard, bool trouble);

#endif
