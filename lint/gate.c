/* lint/gate.c -- --baseline, --diff-base, --write-baseline (gate.h). */
#include "gate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fingerprint.h"
#include "mem.h"

int el_gate_open(el_gate *g, const el_cli *c, char **err)
{
    memset(g, 0, sizeof *g);
    g->cli = c;
    if (c->baseline) {
        if (el_baseline_read(c->baseline, &g->baseline, err) < 0)
            return -1;
        g->have_baseline = true;
    }
    /* --write-baseline keeps what the file holds for files this run does
     * not lint; a file that is not there yet holds nothing */
    if (c->write_baseline && access(c->write_baseline, F_OK) == 0) {
        if (el_baseline_read(c->write_baseline, &g->previous, err) < 0)
            return -1;
        g->have_previous = true;
    }
    if (c->diff_base && !(g->changes = el_changes_since(c->diff_base, err)))
        return -1;
    return 0;
}

/* Keep the findings git says are on changed lines (fingerprints
 * alongside). */
static void keep_changed(const el_changes *ch, el_findings *f, char **fps)
{
    size_t out = 0;
    for (size_t i = 0; i < f->n; i++) {
        if (!el_changes_has(ch, f->v[i].file, f->v[i].line)) {
            el_finding_clear(&f->v[i]);
            free(fps[i]);
            continue;
        }
        f->v[out] = f->v[i];
        fps[out] = fps[i];
        out++;
    }
    f->n = out;
}

int el_gate_apply(el_gate *g, el_findings *f, const el_sources *s, char ***fps_out, char **err)
{
    el_texts texts = {0};
    char **fps = el_fingerprints(f, &texts);
    el_texts_free(&texts);
    *fps_out = fps;
    if (g->cli->write_baseline) {
        size_t n = f->n;
        if (el_baseline_write(g->cli->write_baseline, f, fps, g->have_previous ? &g->previous : NULL, s,
                              err) < 0)
            return -1;
        size_t stale = 0;
        if (g->have_baseline) {
            el_baseline_filter(&g->baseline, f, fps, &stale, s);
            fprintf(stderr, "emberlint: wrote %zu finding%s to %s (%zu new since %s, %zu stale "
                            "entr%s dropped)\n", n, n == 1 ? "" : "s", g->cli->write_baseline, f->n,
                    g->cli->baseline, stale, stale == 1 ? "y" : "ies");
        } else {
            fprintf(stderr, "emberlint: wrote %zu finding%s to %s\n", n, n == 1 ? "" : "s",
                    g->cli->write_baseline);
        }
        return 0;
    }
    if (g->have_baseline) {
        size_t stale = 0;
        el_baseline_filter(&g->baseline, f, fps, &stale, s);
        if (stale)
            fprintf(stderr, "emberlint: note: %zu baseline entr%s of %s match%s no finding any more "
                            "(stale: the next --write-baseline drops %s)\n", stale,
                    stale == 1 ? "y" : "ies", g->cli->baseline, stale == 1 ? "es" : "",
                    stale == 1 ? "it" : "them");
    }
    if (g->changes)
        keep_changed(g->changes, f, fps);
    return 0;
}

void el_gate_close(el_gate *g)
{
    el_baseline_free(&g->baseline);
    el_baseline_free(&g->previous);
    el_changes_free(g->changes);
    memset(g, 0, sizeof *g);
}
