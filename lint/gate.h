/* lint/gate.h -- which findings a run reports, for CI that adopts emberlint
 * gradually: --baseline (only findings the baseline does not hold),
 * --diff-base (only findings on lines changed since a git revision) and
 * --write-baseline (record the findings).  Shared by a lint run and by
 * emberlint merge, which apply them after joining the shards. */
#ifndef EL_GATE_H
#define EL_GATE_H

#include "baseline.h"
#include "cli.h"
#include "finding.h"
#include "gitdiff.h"
#include "sources.h"

typedef struct el_gate {
    const el_cli *cli;
    el_baseline baseline;      /* --baseline */
    bool have_baseline;
    el_baseline previous;      /* what --write-baseline's file held */
    bool have_previous;
    el_changes *changes;       /* --diff-base */
} el_gate;

/* Read the baseline and ask git before anything is linted, so a bad
 * argument fails fast.  -1 with *err. */
int el_gate_open(el_gate *g, const el_cli *c, char **err);
/* Filter f in place.  *fps receives the fingerprints of the findings
 * that remain (computed before filtering, so they are those of a run
 * without the gate).  Prints the note on stale baseline entries.
 * --write-baseline writes the file here.  -1 with *err. */
int el_gate_apply(el_gate *g, el_findings *f, const el_sources *s, char ***fps, char **err);
void el_gate_close(el_gate *g);

#endif
